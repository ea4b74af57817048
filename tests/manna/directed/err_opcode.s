# OPCODE error (status 2), directed, then a good run on the same tiles.
#
# Checks: every undefined opcode class stops the tile with OPCODE at that instruction's PC before
# it has any effect: 0x07 (between agen and dmat), 0x10, 0x12, 0x13, 0x14 (the SFU's unused
# neighbours), 0x17, 0x1A, 0x1F, 0x20 and 0x3F with every field, flag and imm bit set (OPCODE is
# checked before FIELD); the stop waits for a pending 32-row dmat (the MS rows are all there); the
# instruction count excludes the bad instruction; one tile can fail alone (tile 1 runs the bad
# word inside a loop whose count is 0 in tile 0; tile 0 halts: DONE and OPCODE side by side).
# Then a good run on the same tiles (el, sfu, dma, halt) ends DONE: an error leaves the tile
# ready to start again, its memories exact.
# Why: the error path must stop before any side effect and report the right PC; a decoder that
# treats an unknown opcode as a nop or as a neighbour would pass every random program without
# bad words.
#
# s9 = 1 in tile 1 only.
#@ m 0 sreg 9 0
#@ m 1 sreg 9 1
#@ m * mb 0 ramp:128:1:1
#@ m * vs 0 ramp:16:0.5:0.5
#@ s 0 all=OPCODE@b07
#@ s e10 all=OPCODE@b10
#@ s e12 all=OPCODE@b12
#@ s e13 all=OPCODE@b13
#@ s e14 all=OPCODE@b14
#@ s e17 all=OPCODE@b17
#@ s e1a all=OPCODE@b1a
#@ s e1f all=OPCODE@b1f
#@ s e20 all=OPCODE@b20
#@ s e3f all=OPCODE@b3f
#@ s one t0=DONE t1=OPCODE@b1t
#@ s good all=DONE

        li s1, 1
        li s8, 32
        agen a0, 4, s0, s0
        dmat a0, a0, s8, s1         # MS 0..31 <- MB 0..31, pending at the error
b07:    .word 0x1C00000000000000    # opcode 0x07
        halt
e10:    nop
b10:    .word 0x4000000000000000    # 0x10
e12:
b12:    .word 0x4800000000000000    # 0x12
e13:    li s2, 5
b13:    .word 0x4C00000000000000    # 0x13
e14:    li s3, 6
b14:    .word 0x5000000000000000    # 0x14
e17:
b17:    .word 0x5C00000000000000    # 0x17
e1a:
b1a:    .word 0x6800000000000000    # 0x1A
e1f:
b1f:    .word 0x7C00000000000000    # 0x1F
e20:
b20:    .word 0x8000000000000000    # 0x20
e3f:    li s4, 7
b3f:    .word 0xFFFFFFFFFFFFFFFF    # 0x3F, every field set
one:    li s1, 1
        loop s9
b1t:      .word 0x1C00000012345678  # 0x07 with an imm, tile 1 only
        endloop
        halt
good:   li s1, 1
        li s4, 4
        agen a0, 4, s0, s0
        agen a1, 4, s1, s0
        el.add a1, a0, a0, s1       # VS line 1 = line 0 + line 0
        li s10, 8
        agen a2, 4, s10, s0
        sfu.exp a2, a0, s4          # VS 8..11 = exp(0..3)
        dma a0, a0, s4 store        # VB 0..3 <- VS 0..3
        halt
