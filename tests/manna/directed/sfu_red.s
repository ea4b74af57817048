# sfu.relu, sfu.sum and sfu.dot, directed.
#
# Checks relu (x if the sign bit is clear, +0 if set, canonical NaN for any NaN) on +0, -0 (+0),
# +-inf, NaN, -NaN, a signalling NaN, +-subnormals, +-max, 1.5, -1.5; in place, and shifted by
# one word in both directions.
# sum = ((+0 + x0) + x1) + ...: n = 1 of -0 (+0 + -0 = +0), n = 3 of -0s (+0), an odd run with a
# cancellation (1e8 + 1 - 1e8 = 0 in fp32: the order is visible), max + max (inf), inf + -inf
# (NaN), subnormal sums, ties (1 + 2^-24 + 2^-24 = 1, not 1 + 2^-23); the destination inside the
# summed range (one word written, after all reads); the whole VS (n = 64, every word, the sum
# written to word 63).
# dot = fma(a_{n-1}, b_{n-1}, ... fma(a0, b0, +0)): n = 1, 7 (odd, across lines), inf * 0 (NaN),
# an order-sensitive cancellation (1e20 * 1 - 1e20 + 1 -> 1: each step one rounding), a = b (the
# same words: a sum of squares), the destination one of the source words, a vector ending at the
# last VS word. Count 0 with out-of-range addresses does nothing (sum, dot, relu).
# Why: relu is a bit operation where NaN and -0 are the edges; sum and dot are serial
# accumulations whose order and rounding are the specification, and they write one word that
# may overlap their inputs.
#
# Run 1: relu of words 0..15 -> 16..31, in place on 32..33, shifted 35 = relu(34), 36 =
# relu(35), and 37 = relu(38), 38 = relu(39); the whole VS stored to VB lines 0..15. Run 2 (the
# host rewrites VS words): sum and dot.
#@ m * vs 0 0f -0f inff -inff nanf -nanf 0x7F800001 0x00000001 0x80000001 0x7F7FFFFF 0xFF7FFFFF
#@ m * vs 11 1.5f -1.5f 0x807FFFFF 0x007FFFFF 0xFFFFFFFF
#@ m * vs 32 -2.0f 2.0f -3.0f 4.0f -5.0f -6.0f 7.0f -8.0f
#@ s 0 all=DONE
#@ m * vs 0 -0f  -0f -0f -0f  1e8f 1.0f -1e8f 0.5f 0.25f
#@ m * vs 9 0x7F7FFFFF 0x7F7FFFFF  inff -inff 2.0f  0x00000003 0x00000005 0x80000001
#@ m * vs 17 1.0f 0x33800000 0x33800000
#@ m * vs 20 1e20f 1.0f 2.0f 3.0f -0.5f 0f inff  1.0f 1.0f 1.0f 1.0f 1.0f 2.0f 0f
#@ m * vs 34 1e20f -1e20f 1.0f  1.0f 1.0f 1.0f
#@ m * vs 40 1.5f -2.0f 3.0f
#@ m * vs 56 1.0f 2.0f -1.0f 0.5f  0.5f 0.25f 2.0f -4.0f
#@ s sums all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s9, 16
        agen a0, 4, s0, s0
        agen a1, 4, s9, s0
        sfu.relu a1, a0, s9         # 16..31 = relu(0..15)
        li s10, 32
        agen a2, 4, s10, s0
        sfu.relu a2, a2, s2         # 32..33 in place
        li s10, 34
        agen a2, 4, s10, s0
        li s10, 35
        agen a3, 4, s10, s0
        sfu.relu a3, a2, s2         # 35 = relu(34), 36 = relu(35 new)
        li s10, 38
        agen a2, 4, s10, s0
        li s10, 37
        agen a3, 4, s10, s0
        sfu.relu a3, a2, s2         # 37 = relu(38), 38 = relu(39)
        dma a0, a0, s9 store        # VB 0..15 <- VS
        halt
sums:   li s1, 1
        li s3, 3
        li s4, 4
        li s7, 7
        li s11, 64
        # sums: word 44 = sum(0), 45 = sum(1..3), 46 = sum(4..8), 47 = sum(9..10), 48 = sum(11..13),
        # 49 = sum(14..16), 50 = sum(17..19)
        li s10, 44
        agen a0, 4, s10, s0
        agen a1, 4, s0, s0
        sfu.sum a0, a1, s1
        li s10, 45
        agen a0, 4, s10, s0
        agen a1, 4, s1, s0
        sfu.sum a0, a1, s3
        li s10, 46
        agen a0, 4, s10, s0
        agen a1, 4, s4, s0
        li s5, 5
        sfu.sum a0, a1, s5
        li s10, 47
        agen a0, 4, s10, s0
        li s10, 9
        agen a1, 4, s10, s0
        li s2, 2
        sfu.sum a0, a1, s2
        li s10, 48
        agen a0, 4, s10, s0
        li s10, 11
        agen a1, 4, s10, s0
        sfu.sum a0, a1, s3
        li s10, 49
        agen a0, 4, s10, s0
        li s10, 14
        agen a1, 4, s10, s0
        sfu.sum a0, a1, s3
        li s10, 50
        agen a0, 4, s10, s0
        li s10, 17
        agen a1, 4, s10, s0
        sfu.sum a0, a1, s3
        # the destination inside the range: word 41 = sum(40..42)
        li s10, 41
        agen a0, 4, s10, s0
        li s10, 40
        agen a1, 4, s10, s0
        sfu.sum a0, a1, s3
        # dot: 51 = dot(20..26, 27..33) (n = 7, across lines)
        li s10, 51
        agen a0, 4, s10, s0
        li s10, 20
        agen a1, 4, s10, s0
        li s10, 27
        agen a2, 4, s10, s0
        sfu.dot a0, a1, a2, s7
        # 52 = dot(34..36, 37..39): 1e20 - 1e20 + 1
        li s10, 52
        agen a0, 4, s10, s0
        li s10, 34
        agen a1, 4, s10, s0
        li s10, 37
        agen a2, 4, s10, s0
        sfu.dot a0, a1, a2, s3
        # 53 = dot(40..42, 40..42): a = b; 54 = dot(41, 22): n = 1
        li s10, 53
        agen a0, 4, s10, s0
        agen a1, 4, s10, s0
        li s10, 40
        agen a1, 4, s10, s0
        sfu.dot a0, a1, a1, s3
        li s10, 54
        agen a0, 4, s10, s0
        li s10, 41
        agen a1, 4, s10, s0
        li s10, 22
        agen a2, 4, s10, s0
        sfu.dot a0, a1, a2, s1
        # the destination one of the sources, vectors ending at the last word:
        # 60 = dot(60..63, 56..59)
        li s10, 60
        agen a0, 4, s10, s0
        li s10, 56
        agen a2, 4, s10, s0
        sfu.dot a0, a0, a2, s4
        # count 0 with out-of-range addresses: nothing
        li s10, -1
        agen a5, 4, s10, s0
        sfu.sum a5, a5, s0
        sfu.dot a5, a5, a5, s0
        sfu.relu a5, a5, s0
        # the whole VS: word 63 = sum(0..63)
        li s10, 63
        agen a0, 4, s10, s0
        agen a1, 4, s0, s0
        sfu.sum a0, a1, s11
        halt
