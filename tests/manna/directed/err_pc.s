# PC error (status 6), directed, then a good run on the same tiles.
#
# Checks: a program that runs off the end of IMEM (its last instructions in words 500..511, the
# last one a dmat still transferring: the stop waits for it) stops with PC at 512 = ImemDepth;
# START at 512 (PC at the first fetch, no instruction counted) and at 65535 (the largest START
# address); a count-0 loop jumping to 600 (beyond IMEM); one tile alone (a count-0 jump to 700
# in tile 1, while tile 0's count is 1: it enters the loop and halts). Then a good run on the same
# tiles ends DONE.
# Why: the PC check is the only guard against fetching beyond the instruction memory (the RTL's
# IMEM address is narrower than the PC); the stopping PC reported to the host must be the
# offending PC, not a truncated one.
#
# s8 = 1 in tile 0, 0 in tile 1. IMEM 500..511 are written by '#@ p' records.
#@ m 0 sreg 8 1
#@ m 1 sreg 8 0
#@ m * sreg 1 1
#@ m * mb 0 ramp:128:1:1
#@ p * 500 nop | nop | nop | nop | nop | nop | nop | nop
#@ p * 508 li s10, 32 | agen a0, 4, s0, s0 | agen a1, 4, s1, s0 | dmat a0, a1, s10, s1
#@ s 0 all=PC@512
#@ s 512 all=PC@512
#@ s 65535 all=PC@65535
#@ s e_far all=PC@600
#@ s e_one t0=DONE t1=PC@700
#@ s good all=DONE

        loop s0, @500               # count 0: a jump to 500
        halt
e_far:  loop s0, @600               # count 0: a jump beyond IMEM
        halt
e_one:  loop s8, @700               # tile 1: a jump to 700; tile 0: a loop of 1
        halt                        # tile 0 halts inside it
        endloop
        halt
good:   li s10, 4
        agen a0, 4, s0, s0
        dma a0, a0, s10             # VS 0..3 <- VB 0..3
        sfu.sum a0, a0, s10         # VS 0 = sum(VS 0..3)
        halt
