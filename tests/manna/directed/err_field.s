# FIELD error (status 3), directed, then a good run on the same tiles.
#
# Checks one run per cause, each stopping at the bad instruction before any effect: an unused
# field not zero (nop with A = 1; li with B = 1), imm not zero where unused (halt with imm 1: FIELD,
# not DONE), a flag the instruction does not define (dma with the pad bit; vmm with flag bit 4;
# el.add with bit 3), an address-generator field 8..15 (agen a8; sld from a8; el.add with a b
# field of 9 and no scalar flag), el add/sub/mul with D not zero, sfu FN 7, sfu.exp with C not
# zero, RF registers >= RfRegs = 8 (rfz r8, vmm r8, swr with r15), counts above 65535 (dma with
# 65536 = 0x10000, whose low 16 bits are 0; loop with 0xFFFFFFFF; reduce with 70000 in both
# tiles), vmm t with N = 5 > E; and the check order: FIELD before ADDR (el with count 65536 and
# out-of-range addresses) and FIELD before LOOP (a fifth loop with count 65536 while four are
# active). One tile can fail alone (tile 1: rfz r9; tile 0 halts). Then a good run on the same
# tiles ends DONE.
# Why: every field check guards against a word the decoder would otherwise execute as something
# else; a count truncated to 16 bits would turn 65536 into a silent no-op.
#
# s9 = 1 in tile 1 only. s5 holds each run's bad count.
#@ m 0 sreg 9 0
#@ m 1 sreg 9 1
#@ m * vs 0 ramp:64:1:1
#@ s 0 all=FIELD@b_nop
#@ s e_li all=FIELD@b_li
#@ s e_halt all=FIELD@b_halt
#@ s e_dma all=FIELD@b_dma
#@ s e_vmmfl all=FIELD@b_vmmfl
#@ s e_elb3 all=FIELD@b_elb3
#@ s e_agen all=FIELD@b_agen
#@ s e_sld all=FIELD@b_sld
#@ s e_elc all=FIELD@b_elc
#@ s e_eld all=FIELD@b_eld
#@ s e_sfu7 all=FIELD@b_sfu7
#@ s e_sfuc all=FIELD@b_sfuc
#@ s e_rfz all=FIELD@b_rfz
#@ s e_vmm8 all=FIELD@b_vmm8
#@ s e_swr all=FIELD@b_swr
#@ s e_cnt all=FIELD@b_cnt
#@ s e_loop all=FIELD@b_loop
#@ s e_red all=FIELD@b_red
#@ s e_vmmt all=FIELD@b_vmmt
#@ s e_ord1 all=FIELD@b_ord1
#@ s e_ord2 all=FIELD@b_ord2
#@ s e_one t0=DONE t1=FIELD@b_one
#@ s good all=DONE

b_nop:  .word 0x0040000000000000    # nop, A = 1
e_li:
b_li:   .word 0x0844000000000005    # li s1, 5 with B = 1
e_halt: nop
b_halt: .word 0x0400000000000001    # halt, imm = 1
e_dma:  li s1, 1
b_dma:  .word 0x2400400100000000    # dma a0, a0, s1 with the pad flag
e_vmmfl: li s1, 1
b_vmmfl: .word 0x2840041000000000   # vmm r1, a0, a0, s1 with flag bit 4
e_elb3: li s1, 1
b_elb3: .word 0x3040004800000000    # el.add a1, a0, a0, s1 with flag bit 3
e_agen:
b_agen: .word 0x1A00000000000000    # agen a8, 0, s0, s0
e_sld:
b_sld:  .word 0x5460000000000000    # sld s1, a8
e_elc:  li s1, 1
b_elc:  .word 0x3042404000000000    # el.add a1, a0, a9, s1
e_eld:  li s1, 1
b_eld:  .word 0x3040044000000000    # el.add a1, a0, a0, s1 with D = 1
e_sfu7: li s1, 1
b_sfu7: .word 0x4440040700000000    # sfu FN 7
e_sfuc: li s1, 1
b_sfuc: .word 0x4440440000000000    # sfu.exp a1, a0, s1 with C = 1
e_rfz:
b_rfz:  rfz r8
e_vmm8: li s1, 1
b_vmm8: vmm r8, a0, a0, s1
e_swr:  li s1, 1
b_swr:  swr a0, a0, r1, r15, s1
e_cnt:  li s5, 65536
        agen a0, 4, s0, s0
b_cnt:  dma a0, a0, s5              # 0x10000: low 16 bits 0
e_loop: li s5, -1
b_loop: loop s5
        endloop
e_red:  li s5, 70000
b_red:  reduce a0, s5
e_vmmt: li s5, 5
b_vmmt: vmm r1, a0, a0, s5 t        # N = 5 > E = 4
e_ord1: li s5, 65536
        li s10, -1
        agen a7, 4, s10, s0
b_ord1: el.add a7, a7, a7, s5       # FIELD, not ADDR
e_ord2: li s1, 1
        li s5, 65536
        loop s1
          loop s1
            loop s1
              loop s1
b_ord2:         .word 0x1140000000000000  # loop s5 (65536): a fifth level
              endloop
            endloop
          endloop
        endloop
e_one:  li s1, 1
        loop s9
b_one:    rfz r9
        endloop
        halt
good:   li s1, 1
        li s4, 4
        agen a0, 4, s0, s0
        li s10, 4
        agen a1, 4, s10, s0
        el.mul a1, a0, a0, s4       # VS 4..7 = lines 0..3 squared
        rfld r7, a1
        li s10, 12
        agen a2, 4, s10, s0
        rfst r7, a2
        halt
