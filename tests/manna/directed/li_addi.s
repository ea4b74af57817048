# li / addi (and nop), directed.
#
# Checks: li of 0, -1, 0x7FFFFFFF, 0x80000000 (-2^31), 65536 and fp32 literals (1.5f, -0f, inff,
# -inff, nanf, the smallest subnormal 1e-45f, the largest finite 3.4028235e38f); li and addi into
# s0 (ignored: s0 reads 0 afterwards) and addi from s0 (reads 0); addi wrap-around mod 2^32
# (0x7FFFFFFF + 1, 0xFFFFFFFF + 1, 0xFFFFFFFF + 0xFFFFFFFF, 0x80000000 + 0x80000000), negative
# immediates, in place (sA = sB) in a loop, s15; nop changes nothing. Per-tile inputs (s14 is 100
# in tile 0 and 200 in tile 1) show the tiles' registers apart. A second run starts at 'again'
# and adds to the values the first run left: scalar registers keep their values across START.
# Several registers are also stored to VS with sst (the harness compares VS and all 16 scalar
# registers of both tiles).
# Why: li/addi are the only scalar arithmetic (addresses, counts and fp32 scalar operands all come
# from them); 32-bit wrap and the s0 rule are easy to get wrong in a register file.
#@ m 0 sreg 14 100
#@ m 1 sreg 14 200
#@ s 0 all=DONE
#@ s again all=DONE

        li s1, 0                    # a0..a7: VS words 0..7 (constant level 4)
        agen a0, 4, s1, s0
        li s1, 1
        agen a1, 4, s1, s0
        li s1, 2
        agen a2, 4, s1, s0
        li s1, 3
        agen a3, 4, s1, s0
        li s1, 4
        agen a4, 4, s1, s0
        li s1, 5
        agen a5, 4, s1, s0
        li s1, 6
        agen a6, 4, s1, s0
        li s1, 7
        agen a7, 4, s1, s0
        li s1, 0x7FFFFFFF
        addi s2, s1, 1              # 0x80000000
        addi s3, s2, -1             # 0x7FFFFFFF
        li s4, -1
        addi s5, s4, 1              # 0
        addi s6, s4, 0xFFFFFFFF     # 0xFFFFFFFE
        li s7, -2147483648
        addi s7, s7, 0x80000000     # 0
        li s0, 123                  # ignored
        addi s0, s1, 5              # ignored
        addi s8, s0, 9              # 9: s0 reads 0
        nop
        li s9, 65536
        li s10, 1.5f
        li s11, -0f
        li s12, nanf
        li s13, -inff
        addi s14, s14, 7            # 107 / 207: per tile
        li s15, 3.4028235e38f       # 0x7F7FFFFF
        sst s0, a0
        sst s2, a1
        sst s4, a2
        sst s6, a3
        sst s11, a4
        sst s12, a5
        sst s13, a6
        li s1, 5
        li s2, 0
        loop s1
          addi s2, s2, -3           # in place: -15
          nop
        endloop
        sst s2, a7
        li s1, 1e-45f               # 0x00000001
        li s4, inff
        halt
again:  addi s6, s6, 2              # 0xFFFFFFFE + 2 = 0
        addi s9, s9, -65537         # -1
        addi s14, s14, 1000         # 1107 / 1207
        addi s15, s15, 0x00800000   # bit pattern + 2^23: 0x7FFFFFFF (a NaN pattern, just bits)
        li s3, 8
        agen a0, 4, s3, s0
        sst s14, a0
        li s3, 9
        agen a0, 4, s3, s0
        sst s15, a0
        li s3, 10
        agen a0, 4, s3, s0
        sst s9, a0
        halt
