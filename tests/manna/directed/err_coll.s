# COLL error (status 7), directed, then a good run on the same tiles.
#
# Checks every way a collective aborts with COLL (2 tiles; the per-tile scalar registers,
# rewritten by the host between runs, make the tiles differ): a line-count mismatch (reduce of 2
# lines in tile 0, 1 line in tile 1: both tiles COLL at their reduce); a count of 0 against 1
# (bcast: a fence against a transfer); a kind mismatch (tile 0 in reduce, tile 1 in bcast, same
# count: each stops at its own PC); another tile's error while this one waits (tile 1 ADDR while
# tile 0 waits in a bcast: COLL in tile 0; tile 1 FIELD at its own reduce while tile 0 waits in
# reduce); a tile that reaches a collective after the other has already stopped with an error
# (tile 0 OPCODE at once, tile 1 divides 16 words first, then its reduce stops with COLL at
# once). Each status keeps the collective's PC and the instruction count without it; the
# destination lines of an aborted collective are not compared (docs/manna.md), every other word
# is. Then a good run (reduce and bcast) on the same tiles ends DONE.
# Why: a collective that proceeds with mismatched partners deadlocks or corrupts the other
# tile's memory; the abort must reach every waiting tile exactly as the model decides it.
#
# Per run: s5 = line count, s9 = 1 selects the reduce, s10 = 1 the bcast, s12 = 1 a bad
# instruction before the collective, s13 = 1 long SFU work (tile by tile).
#@ m * vs 0 ramp:64:1:1
#@ m * sreg 1 1
#@ m 0 sreg 5 2
#@ m 1 sreg 5 1
#@ m * sreg 9 1 0 0 0 0
#@ s 0 all=COLL@b_red
#@ m 0 sreg 5 0 0 0 0 0 0 0 0 0
#@ m 1 sreg 5 1 0 0 0 0 0 0 0 0
#@ m * sreg 10 1
#@ s 0 all=COLL@b_bc
#@ m * sreg 5 1
#@ m 0 sreg 9 1 0
#@ m 1 sreg 9 0 1
#@ s 0 t0=COLL@b_red t1=COLL@b_bc
#@ m * sreg 9 0 1
#@ m 1 sreg 12 1
#@ s e_addr t0=COLL@b_bc2 t1=ADDR@b_addr
#@ m * sreg 12 0
#@ m 1 sreg 5 70000
#@ m * sreg 9 1 0
#@ s 0 t0=COLL@b_red t1=FIELD@b_red
#@ m * sreg 5 1
#@ m 0 sreg 12 1
#@ m 1 sreg 13 1
#@ s e_late t0=OPCODE@b_op t1=COLL@b_red2
#@ s good all=DONE

        agen a0, 4, s0, s0
        loop s9
b_red:    reduce a0, s5
        endloop
        loop s10
b_bc:     bcast a0, s5
        endloop
        halt
e_addr: li s10, 16
        agen a1, 4, s10, s0
        agen a0, 4, s0, s0
        loop s12
b_addr:   rfld r1, a1               # tile 1: VS line 16
        endloop
b_bc2:  bcast a0, s1
        halt
e_late: loop s12
b_op:     .word 0x1C00000000000000  # tile 0: opcode 0x07
        endloop
        li s11, 16
        li s10, 32
        agen a1, 4, s10, s0
        loop s13
          sfu.recip a1, a1, s11     # tile 1: about 500 cycles
        endloop
        agen a0, 4, s0, s0
b_red2: reduce a0, s1
        halt
good:   li s2, 2
        li s10, 4
        agen a0, 4, s10, s0
        reduce a0, s2
        bcast a0, s2
        halt
