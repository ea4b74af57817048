# TIMEOUT error (status 8), directed, then a good run on the same tiles.
#
# Checks the fence watchdog (FenceTimeout = 256 cycles in this build): tile 0 halts at once and
# tile 1 waits in a reduce (TIMEOUT in tile 1 after 256 cycles; tile 0 DONE); tile 0 halts at once
# while tile 1 first divides 16 words (about 500 cycles, longer than the timeout) and only then
# reaches its reduce (the watchdog starts when it arrives: TIMEOUT, not earlier); tile 0 waits in
# a bcast while tile 1 divides 16 words and then halts (the watchdog counts only from tile 1's
# halt: a slow partner is never a timeout). The run's cycle count (cycle model, exact) shows
# when the watchdog fired. Then a good run with both tiles in the collective ends DONE.
# Why: the watchdog must count only while no other tile can still arrive, or the outcome would
# depend on timing; the model decides TIMEOUT without a clock and the cycle model predicts when.
#
# Per run: s9 = 1 puts the tile into the collective, s13 = 1 gives it the long SFU work first.
#@ m * vs 0 ramp:64:1:0.25
#@ m * sreg 1 1
#@ m 1 sreg 9 1
#@ s 0 t0=DONE t1=TIMEOUT@b_red
#@ m 1 sreg 13 1
#@ s 0 t0=DONE t1=TIMEOUT@b_red
#@ m 0 sreg 9 1 0 0 0 0
#@ m 1 sreg 9 0 0 0 0 1
#@ s e_bc t0=TIMEOUT@b_bc t1=DONE
#@ s good all=DONE

        li s11, 16
        li s10, 32
        agen a1, 4, s10, s0
        loop s13
          sfu.recip a1, a1, s11     # about 500 cycles
        endloop
        agen a0, 4, s0, s0
        loop s9
b_red:    reduce a0, s1
        endloop
        halt
e_bc:   li s11, 16
        li s10, 32
        agen a1, 4, s10, s0
        agen a0, 4, s0, s0
        loop s9
b_bc:     bcast a0, s1              # tile 0 waits ...
        endloop
        loop s13
          sfu.recip a1, a1, s11     # ... while tile 1 divides, then halts
        endloop
        halt
good:   li s2, 2
        li s10, 4
        agen a0, 4, s10, s0
        reduce a0, s2
        bcast a0, s2
        halt
