# swr (soft write), directed.
#
# Checks (per row i, w = VS[B + i], per lane j: t = fma(-w, e_j, 1); m = m * t; m = fma(w, a_j, m)):
# F = 3 (the weights' words 22..24 across a VS line), F = 1 at the last MS line, F = 2 across the MS
# half boundary (lines 15..16) with weights 31..32 across a VS line; the erase and add registers the
# same register (C = D); special weights 0, -0, 1, inf, NaN, the smallest subnormal, the largest
# finite, 2^-23; special erase/add values (0 and inf in e: 0 * inf = NaN in t; max in a); a multiply
# m * t that ties (3 * (1 + 2^-23) -> 3 + 2^-21, even) and rows holding -0, inf and subnormals;
# F = 0 with out-of-range addresses (nothing).
# Why: swr is the NTM soft write, three dependent eMAC operations per row with two roundings
# that must be the brief's (erase then add); special values show whether each step is the
# IEEE operation.
#
# VS lines 0..3: the RF values (rfld); words 22..32: weights; MS rows hand-chosen.
#@ m * vs l0 0.0f 1.0f 0.5f inff
#@ m * vs l1 1.0f -0f 3.4028235e38f 2.0f
#@ m * vs l2 0.5f 0.25f 1.0f -1.0f
#@ m * vs l3 -1.0f -1.0f 1.0f 0x00000001
#@ m * vs 22 0.5f 0f -0f 1.0f inff nanf 0x34000000 0x7F7FFFFF 1e-45f 0.25f 0.5f
#@ m * ms l0 1.0f 2.0f 3.0f 4.0f  -0f inff -inff 0x00000003  3.0f 3.0f 3.0f 3.0f
#@ m * ms l3 1.0f -1.0f 0x7F7FFFFF 0.0f  2.0f 2.0f 2.0f 2.0f
#@ m * ms l5 3.0f 3.0f -0f 0x00800000  0x3F800001 -5.0f 1.0f 0x7F7FFFFF  7.0f 7.0f 7.0f 7.0f
#@ m * ms l15 1.5f 2.5f -3.5f 4.5f  -1.5f -2.5f 3.5f -4.5f
#@ m * ms l31 10.0f 20.0f 30.0f 40.0f
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        agen a4, 4, s0, s0
        rfld r1, a4                 # e = 0, 1, 0.5, inf
        agen a4, 4, s1, s0
        rfld r2, a4                 # a = 1, -0, max, 2
        agen a4, 4, s2, s0
        rfld r3, a4                 # 0.5, 0.25, 1, -1
        agen a4, 4, s3, s0
        rfld r4, a4                 # -1, -1, 1, 1e-45
        # F = 3: MS rows 0..2, weights 0.5, 0, -0
        agen a0, 4, s0, s0
        li s10, 22
        agen a1, 4, s10, s0
        swr a0, a1, r1, r2, s3
        # F = 1: the last MS line, w = 1, erase register = add register
        li s10, 31
        agen a0, 4, s10, s0
        li s10, 25
        agen a1, 4, s10, s0
        swr a0, a1, r3, r3, s1
        # F = 2: rows 3..4, w = inf, NaN
        agen a0, 4, s3, s0
        li s10, 26
        agen a1, 4, s10, s0
        swr a0, a1, r1, r2, s2
        # F = 3: rows 5..7, w = 2^-23 (t = 1 + 2^-23 with e = -1: 3 * t ties), max, 1e-45
        li s10, 5
        agen a0, 4, s10, s0
        li s10, 28
        agen a1, 4, s10, s0
        swr a0, a1, r4, r3, s3
        # F = 2 across the MS halves (lines 15..16), weights VS 31..32 (across a line): 0.25, 0.5
        li s10, 15
        agen a0, 4, s10, s0
        li s10, 31
        agen a1, 4, s10, s0
        swr a0, a1, r3, r1, s2
        # F = 0: out-of-range addresses, nothing
        li s10, -1
        agen a5, 4, s10, s0
        swr a5, a5, r1, r2, s0
        halt
