# halt and nop (what ends a program), directed.
#
# Checks: halt right after a 32-row dmat and a 16-line dma (the status becomes DONE only when both
# transfer engines are idle: the memories hold the whole transfers, and the cycle count includes
# the wait); halt inside a 4-deep loop nest (the loop stack needs no unwinding); a START at a PC in
# the middle of the program; halt in the last IMEM word (511), reached by a count-0 loop jump and
# also started at directly (DONE at once: one instruction); tiles that stop at different times
# (tile 1 divides 10 words before its halt: the run ends when the last tile stops, the statuses
# carry each tile's own instruction count); nop does nothing. The status word of each run (DONE,
# the halt's PC, the instruction count, halt included) is compared with the model.
# Why: halt is the normal end of every kernel; a stop that does not wait for the background
# transfers would leave memories half written, and the stopping PC and count are what the host
# reads.
#
# s9 = 1 in tile 1 only.
#@ m 0 sreg 9 0
#@ m 1 sreg 9 1
#@ m * mb 0 ramp:256:1:0.5
#@ m * vb 0 ramp:256:-1:-0.25
#@ p * 511 halt
#@ s 0 all=DONE
#@ s mid all=DONE
#@ s jump all=DONE@511
#@ s 511 all=DONE@511
#@ s uneven all=DONE

        li s1, 1
        li s7, 16
        li s8, 32
        nop
        agen a0, 4, s0, s0
        dmat a0, a0, s8, s1         # MS 0..31 <- MB 0..31 (background)
        dma a0, a0, s7              # VS 0..15 <- VB 0..15 (background)
        nop
        loop s1
          loop s1
            loop s1
              loop s1
                halt                # waits for both engines
              endloop
            endloop
          endloop
        endloop
mid:    li s1, 1
        li s7, 16
        li s10, 32
        agen a0, 4, s10, s0
        agen a1, 4, s0, s0
        dmat a1, a0, s7, s1         # MS 0..15 <- MB 32..47
        halt
jump:   li s7, 16
        li s10, 48
        agen a0, 4, s10, s0
        agen a1, 4, s0, s0
        dma a1, a0, s7 store        # VB 48..63 <- VS 0..15, pending at the jump
        loop s0, @511               # count 0: jump to the halt at 511
        nop
uneven: li s7, 10
        agen a0, 4, s0, s0
        loop s9                     # tile 1 only
          sfu.recip a0, a0, s7
        endloop
        halt
