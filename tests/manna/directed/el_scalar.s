# el with broadcast scalar operands (flag bit2: b a scalar register; bit3: c), directed.
#
# Checks: el.add / el.sub / el.mul with b a scalar (the map operation): + inf, - -0 (-0 - -0 =
# +0, +0 - -0 = +0), * a NaN with a payload (canonical out), * s0 (+0: inf * 0 = NaN, -x * 0 =
# -0), + s0 (-0 + +0 = +0), * the smallest subnormal, + the largest finite (overflow to inf
# only where the sum rounds up); el.fma with b scalar and c a vector, b a vector and c scalar,
# both scalars (fma(a, 2^-24, 1) ties); F = 1, 3 (odd) and 4 lines, the last VS line; a scalar
# register holding an integer bit pattern used as fp32 (0x00000001 = the smallest subnormal).
# Why: a broadcast scalar takes a different operand path from the vector case (the scalar
# register's value latched at issue, sign-flipped for sub) and fewer VS reads per line (the
# cycle model's p), so each combination of scalar and vector operands is a separate datapath.
#
# VS lines 0..3 operands, lines 4..15 results (lines 4..7 also kept in VB lines 0..3).
#@ m * vs l0 -0f 0f inff -inff  1.0f -1.0f 0x7F7FFFFF 0x00000003  0x3F800001 3.0f -2.5f 1e-45f
#@ m * vs l3 0.5f 0x7F7FFF00 0xFF7FFFFF 2.0f
#@ m * vs l15 0.25f 0.5f 0.75f 1.0f
#@ s 0 all=DONE

        li s1, 1
        li s3, 3
        li s4, 4
        li s5, inff
        li s6, -0f
        li s7, 0x7FC12345           # a NaN with a payload
        li s8, 0x00000001           # the smallest subnormal
        li s9, 0x7F7FFFFF           # the largest finite
        li s11, 0x33800000          # 2^-24
        li s12, 1.0f
        agen a0, 4, s0, s0          # line 0
        li s10, 4
        agen a4, 4, s10, s0
        el.add a4, a0, s5, s1       # 4 = line 0 + inf
        li s10, 5
        agen a4, 4, s10, s0
        el.sub a4, a0, s6, s1       # 5 = line 0 - (-0)
        li s10, 6
        agen a4, 4, s10, s0
        el.mul a4, a0, s7, s1       # 6 = line 0 * NaN(payload)
        li s10, 7
        agen a4, 4, s10, s0
        el.mul a4, a0, s0, s3       # 7..9 = lines 0..2 * +0 (s0), F = 3
        li s10, 10
        agen a4, 4, s10, s0
        el.add a4, a0, s0, s1       # 10 = line 0 + +0
        li s10, 11
        agen a4, 4, s10, s0
        agen a1, 4, s1, s0
        el.mul a4, a1, s8, s1       # 11 = line 1 * smallest subnormal
        li s10, 12
        agen a4, 4, s10, s0
        el.add a4, a1, s9, s1       # 12 = line 1 + max
        # fma: scalar b, vector c
        li s10, 13
        agen a4, 4, s10, s0
        li s10, 3
        agen a3, 4, s10, s0
        el.fma a4, a1, s5, a3, s1   # 13 = line 1 * inf + line 3
        # fma: vector b, scalar c
        li s10, 14
        agen a4, 4, s10, s0
        li s10, 2
        agen a2, 4, s10, s0
        el.fma a4, a1, a2, s6, s1   # 14 = line 1 * line 2 + (-0)
        # fma: both scalar, F = 4 over lines 0..3 onto lines 4..7 (stored to VB 0..3 first), and
        # the last line in place
        li s10, 4
        agen a4, 4, s10, s0
        dma a4, a0, s4 store        # VB 0..3 <- VS 4..7
        el.fma a4, a0, s11, s12, s4 # 4..7 = lines 0..3 * 2^-24 + 1 (ties at 1 + 2^-24)
        li s10, 15
        agen a4, 4, s10, s0
        el.fma a4, a4, s9, s7, s1   # 15 = line 15 * max + NaN
        halt
