# el.add / el.sub / el.mul / el.fma with vector operands, directed (fp32 special values).
#
# Checks, lane by lane (VS line d = a OP b, fma(a, b, c)): add: inf + -inf = NaN, -0 + -0 = -0,
# +0 + -0 = +0, max + max = inf, ties 1 + 2^-24 -> 1 and 1 + 3 * 2^-24 -> 1 + 2^-22, subnormal +
# subnormal, a signalling NaN in -> 0x7FC00000 out; sub: x - x = +0, -0 - +0 = -0, inf - -inf =
# inf, 1 - (1 + 2^-23) = -2^-23 exactly, inf - inf = NaN; mul: 0 * inf = NaN, -0 * 5 = -0,
# max * 2 = inf, subnormal * 0.5 at ties (1.5 units -> 2, 2.5 -> 2, 0.5 -> +0), the smallest
# normal * 0.5 (a subnormal); fma: (1 + 2^-12)(1 - 2^-12) - 1 = -2^-24 (single rounding), max * 2 -
# max = max (no intermediate overflow), 0 * inf + 1 = NaN, 2 * 3 - 6 = +0, -0 * 1 + -0 = -0,
# +0 * -1 + +0 = +0, NaN payloads canonical; F = 1, 2 and 3 lines (odd), the last VS line as
# source and destination, F = 0 with out-of-range addresses (nothing).
# Why: el is the map and vector operation of Section 4.2.4; add, sub and mul are done on the
# eMAC's fused multiply-add with a constant operand (a + b = fma(a, 1, b), a - b = fma(a, 1, -b),
# a * b = fma(a, b, -0)), and each must still be exactly the IEEE operation, signed zeros and
# NaNs included.
#
# Phase A: VS lines 0..7 operands (below), results in lines 8..15, then the whole VS is stored to
# VB lines 0..15. Phase B: VB lines 16..23 (below) loaded into VS lines 0..7, results in lines
# 8..15 again (line 15, the last, read and written). The harness compares VS and VB.
#@ m * vs l0 inff -0f 0f 0x7F7FFFFF  -inff -0f -0f 0x7F7FFFFF
#@ m * vs l2 1.0f 1.0f 0x00000003 0x7F800001  0x33800000 0x34400000 0x00000005 1.0f
#@ m * vs l4 -0f 0f inff 1.0f  0f 0f -inff 0x3F800001
#@ m * vs l6 0f -0f 0x7F7FFFFF 0x00000003  inff 5.0f 2.0f 0.5f
#@ m * vb l16 0x3F800800 0x7F7FFFFF 0f 2.0f  0x3F7FF000 2.0f inff 3.0f
#@ m * vb l18 -1.0f 0xFF7FFFFF 1.0f -6.0f
#@ m * vb l19 -0f 0f -0f 0x7FC12345  1.0f -1.0f 1.0f 1.0f  -0f 0f 0f 1.0f
#@ m * vb l22 0x00000001 0x00000003 0x00000005 0x00800000  0.5f*4
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s9, 16
        # generators: a0..a3 operand lines, a4 destination line
        # ---- phase A
        agen a0, 4, s0, s0
        agen a1, 4, s1, s0
        li s10, 8
        agen a4, 4, s10, s0
        el.add a4, a0, a1, s1       # 8 = 0 + 1: inf + -inf, -0 + -0, +0 + -0, max + max
        li s10, 2
        agen a0, 4, s10, s0
        li s10, 3
        agen a1, 4, s10, s0
        li s10, 9
        agen a4, 4, s10, s0
        el.add a4, a0, a1, s1       # 9 = 2 + 3: ties, subnormals, sNaN
        agen a0, 4, s0, s0
        li s10, 10
        agen a4, 4, s10, s0
        el.sub a4, a0, a0, s1       # 10 = 0 - 0: x - x
        li s10, 4
        agen a0, 4, s10, s0
        li s10, 5
        agen a1, 4, s10, s0
        li s10, 11
        agen a4, 4, s10, s0
        el.sub a4, a0, a1, s1       # 11 = 4 - 5: -0 - +0, +0 - +0, inf - -inf, 1 - (1 + 2^-23)
        li s10, 6
        agen a0, 4, s10, s0
        li s10, 7
        agen a1, 4, s10, s0
        li s10, 12
        agen a4, 4, s10, s0
        el.mul a4, a0, a1, s1       # 12 = 6 * 7: 0 * inf, -0 * 5, max * 2, subnormal * 0.5
        agen a0, 4, s0, s0
        li s10, 2
        agen a1, 4, s10, s0
        li s10, 4
        agen a2, 4, s10, s0
        li s10, 13
        agen a4, 4, s10, s0
        el.fma a4, a0, a1, a2, s2   # 13..14 = fma(0..1, 2..3, 4..5), F = 2
        li s10, 15
        agen a4, 4, s10, s0
        el.mul a4, a0, a0, s1       # 15 (the last line) = 0 * 0
        agen a0, 4, s0, s0
        agen a1, 4, s0, s0
        dma a0, a1, s9 store        # VB 0..15 <- VS
        # ---- phase B
        li s10, 16
        agen a1, 4, s10, s0
        li s11, 8
        dma a0, a1, s11             # VS 0..7 <- VB 16..23
        agen a0, 4, s0, s0
        agen a1, 4, s1, s0
        agen a2, 4, s2, s0
        li s10, 8
        agen a4, 4, s10, s0
        el.fma a4, a0, a1, a2, s1   # 8: single rounding, max * 2 - max, 0 * inf + 1, 2 * 3 - 6
        li s10, 3
        agen a0, 4, s10, s0
        li s10, 4
        agen a1, 4, s10, s0
        li s10, 5
        agen a2, 4, s10, s0
        li s10, 9
        agen a4, 4, s10, s0
        el.fma a4, a0, a1, a2, s1   # 9: -0 * 1 + -0, +0 * -1 + +0, -0 * 1 + +0, NaN payload
        li s10, 6
        agen a0, 4, s10, s0
        li s10, 7
        agen a1, 4, s10, s0
        li s10, 10
        agen a4, 4, s10, s0
        el.mul a4, a0, a1, s1       # 10: subnormal ties (0.5, 1.5, 2.5 units), min normal / 2
        agen a0, 4, s0, s0
        li s10, 3
        agen a1, 4, s10, s0
        li s10, 11
        agen a4, 4, s10, s0
        el.add a4, a0, a1, s3       # 11..13 = 0..2 + 3..5, F = 3
        li s10, 14
        agen a0, 4, s10, s0
        li s10, 15
        agen a4, 4, s10, s0
        el.sub a4, a4, a0, s1       # 15 = 15 - 14 (the last line, phase A's values)
        li s10, -1
        agen a5, 4, s10, s0
        el.fma a5, a5, a5, a5, s0   # F = 0, addresses out of range: nothing
        el.sub a5, a5, a5, s0
        halt
