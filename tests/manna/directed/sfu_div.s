# sfu.recip and sfu.sqrt (the iterative divider / square root), directed.
#
# Checks recip = 1 / x (correctly rounded) on +0 (+inf), -0 (-inf), +inf (+0), -inf (-0), NaN,
# -NaN, a signalling NaN, 1, -1, 3, -3, 0.1, 7, the largest finite (a subnormal result, rounded),
# its negative, the smallest normal (2^126), subnormals 2^-127 (2^127), 2^-128 (overflow: +inf),
# 1.5 * 2^-128 (finite: 1.33 * 2^127), the smallest subnormal (+inf) and its negative (-inf);
# sqrt (correctly rounded) on +0, -0 (-0), -1, -inf and the negative smallest subnormal (NaN),
# +inf, NaN, -NaN, a signalling NaN, 2, 4, 0.25, 3, the smallest subnormal (2^-74.5), 2^-148, the
# largest subnormal, the smallest normal, the largest finite; odd counts; in place; shifted by one
# word (destination = source + 1: 1 / (1 / (1 / x)), sqrt(sqrt(sqrt x))). The divider takes 1
# cycle for special operands and 27 otherwise: the cycle model is exact on each.
# Why: the divider's special-operand path, its subnormal inputs and outputs and its rounding
# are separate logic from the common case; the SFU's per-word read / compute / write loop is
# checked against overlapping operands.
#
# Run 1: recip of VS words 0..22 -> 32..54; in place on words 55..57; chain 59 = 1/58, 60 =
# 1/59, 61 = 1/60. Then the whole VS is stored to VB lines 0..15. Run 2 (the host rewrites words
# 0..20): sqrt of words 0..20 -> 32..52; in place on 53..54; chain 56 = sqrt(55), ...
#@ m * vs 0 0f -0f inff -inff nanf -nanf 0x7F800001 1.0f -1.0f 3.0f -3.0f 0.1f 7.0f
#@ m * vs 13 0x7F7FFFFF 0xFF7FFFFF 0x00800000 0x00400000 0x00200000 0x00300000 0x00000001
#@ m * vs 20 0x80000001 0x3F800001 0x7E800000
#@ m * vs 55 3.0f 0x00000001 -0.5f 0.2f
#@ s 0 all=DONE
#@ m * vs 0 0f -0f -1.0f -inff 0x80000001 inff nanf -nanf 0x7F800001 2.0f 4.0f 0.25f 3.0f
#@ m * vs 13 0x00000001 0x00000002 0x007FFFFF 0x00800000 0x7F7FFFFF 0x3F800001 0x3F7FFFFF
#@ m * vs 20 1e-30f
#@ m * vs 53 16.0f 0x00000004 0.0001f
#@ s sqrt all=DONE

        li s3, 3
        li s11, 23
        agen a0, 4, s0, s0
        li s10, 32
        agen a1, 4, s10, s0
        sfu.recip a1, a0, s11       # 32..54 = 1 / (0..22)
        li s10, 55
        agen a2, 4, s10, s0
        sfu.recip a2, a2, s3        # 55..57 in place
        li s10, 58
        agen a2, 4, s10, s0
        li s10, 59
        agen a3, 4, s10, s0
        sfu.recip a3, a2, s3        # 59 = 1/58, 60 = 1/59 (new), 61 = 1/60 (new)
        li s9, 16
        dma a0, a0, s9 store        # VB 0..15 <- VS
        halt
sqrt:
        li s2, 2
        li s3, 3
        li s11, 21
        agen a0, 4, s0, s0
        li s10, 32
        agen a1, 4, s10, s0
        sfu.sqrt a1, a0, s11        # 32..52 = sqrt(0..20)
        li s10, 53
        agen a2, 4, s10, s0
        sfu.sqrt a2, a2, s2         # 53..54 in place
        li s10, 55
        agen a2, 4, s10, s0
        li s10, 56
        agen a3, 4, s10, s0
        sfu.sqrt a3, a2, s3         # 56 = sqrt(55), 57 = sqrt(56 new), 58 = sqrt(57 new)
        halt
