# vmm plain (soft read) and vmm sq (column sums of squares), directed.
#
# Checks (RF[j][A] = fma(MS[(B+i)*E + j], v_i, RF[j][A]), i ascending): N = 1, 2, 4 and 5 (odd,
# with the vector's words 3..7 crossing a VS line); the block's last line the last MS line and the
# vector's last word the last VS word; accumulation onto a register's old value (rfld) and into
# r0 and r7 (the first and last RF registers); fp32 special values in the products and sums:
# inf * 1 + -inf (NaN), max + max (overflow to inf), -0 * 1 + -0 (-0 kept), a NaN with a payload
# and a signalling NaN (canonical 0x7FC00000 out); subnormal products at exact ties (1.5 and
# 2.5 units of 2^-149 -> even, 0.5 unit -> +0, -1.5 units -> -2); sums that tie (1 + 2^-24 -> 1,
# (1 + 2^-23) + 2^-24 -> 1 + 2^-22); the fused multiply-add's single rounding ((1 + 2^-12) *
# (1 - 2^-12) - 1 = -2^-24 exactly, 0 if the product were rounded first); sq with its VS operand
# out of range (0xFFFFFFFF: not read, not checked); N = 0 with out-of-range addresses (nothing).
# Every result register is stored with rfst (the harness compares memories, not the RF).
# Why: vmm is the soft read of the NTM and the inner loop of every kernel; its eMACs must be the
# exact IEEE fused multiply-add in the brief's order, special values included.
#
# MS lines 0..7 hand-chosen rows, 8..12 a ramp, 30..31 the last lines; VS lines 0..7 vectors and
# initial register values, 8..15 results (line 15's last words are a vector first).
#@ m * ms l0 inff 0x7F7FFFFF 0x00000003 -0f
#@ m * ms l1 -inff 0x7F7FFFFF 1.0f -0f
#@ m * ms l2 1.0f -3.4028235e38f 0x00800000 1.5f
#@ m * ms l3 0x7FC12345 1.0f 0x3F800001 0x7F800001
#@ m * ms l5 0x00000001 0x00000003 0x00000005 0x80000003
#@ m * ms l6 1.0f 1.0f 3.0f -1.0f
#@ m * ms l7 0x3F800800 2.0f -3.0f 0x7F7FFFFF
#@ m * ms l8 ramp:20:-2.5:0.75
#@ m * ms l30 0.25f 0.5f 1.0f 2.0f  3.0f -3.0f 1e-45f -1e-45f
#@ m * vs l0 1.0f 1.0f 0.5f 1.0f
#@ m * vs l1 0x33800000 0x3F7FF000 2.0f -1.0f
#@ m * vs l2 -0f*4
#@ m * vs l3 1.0f 0x3F800001 1.0f 1.0f
#@ m * vs l4 -1.0f 5.0f 7.0f 0x7F7FFFFF
#@ m * vs l15 9.0f 9.0f 0.5f -2.0f
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s4, 4
        li s5, 5
        # generators: a0 MS line, a1 VS word, a2 result line, a3 initial-value line
        agen a0, 4, s0, s0
        agen a1, 4, s0, s0
        # --- a: N = 1 from +0
        rfz r1
        vmm r1, a0, a1, s1          # MS line 0 * VS[0]
        li s10, 8
        agen a2, 4, s10, s0
        rfst r1, a2
        # --- b: N = 2 from -0: inf - inf, max + max, -0 + -0
        li s10, 2
        agen a3, 4, s10, s0
        rfld r2, a3
        vmm r2, a0, a1, s2
        li s10, 9
        agen a2, 4, s10, s0
        rfst r2, a2
        # --- c: subnormal ties (MS line 5 * 0.5)
        rfz r3
        li s10, 5
        agen a0, 4, s10, s0
        li s10, 2
        agen a1, 4, s10, s0
        vmm r3, a0, a1, s1
        li s10, 10
        agen a2, 4, s10, s0
        rfst r3, a2
        # --- i: sums at ties (MS line 6 * 2^-24 onto 1, 1 + 2^-23, ...)
        li s10, 3
        agen a3, 4, s10, s0
        rfld r4, a3
        li s10, 6
        agen a0, 4, s10, s0
        li s10, 4
        agen a1, 4, s10, s0
        vmm r4, a0, a1, s1
        li s10, 11
        agen a2, 4, s10, s0
        rfst r4, a2
        # --- fused: (1 + 2^-12)(1 - 2^-12) - 1, 5 + 2(1 - 2^-12), max + max(1 - 2^-12)
        li s10, 4
        agen a3, 4, s10, s0
        rfld r5, a3
        li s10, 7
        agen a0, 4, s10, s0
        li s10, 5
        agen a1, 4, s10, s0
        vmm r5, a0, a1, s1
        li s10, 12
        agen a2, 4, s10, s0
        rfst r5, a2
        # --- d: N = 5, vector words 3..7 (across a line)
        rfz r6
        li s10, 8
        agen a0, 4, s10, s0
        li s10, 3
        agen a1, 4, s10, s0
        vmm r6, a0, a1, s5
        li s10, 13
        agen a2, 4, s10, s0
        rfst r6, a2
        # --- e: the last MS lines and the last VS words, onto old values in r7
        li s10, 4
        agen a3, 4, s10, s0
        rfld r7, a3
        li s10, 30
        agen a0, 4, s10, s0
        li s10, 62
        agen a1, 4, s10, s0
        vmm r7, a0, a1, s2          # MS 30..31, VS 62..63
        li s10, 14
        agen a2, 4, s10, s0
        rfst r7, a2
        # --- f: sq over lines 0..3 (NaNs, infs, subnormal squares), VS operand out of range
        rfz r0
        agen a0, 4, s0, s0
        li s10, -1
        agen a1, 4, s10, s0
        vmm r0, a0, a1, s4 sq
        # --- g: N = 0, every address out of range: nothing
        agen a4, 4, s10, s0
        vmm r0, a4, a4, s0
        vmm r0, a4, a4, s0 t sq
        li s10, 15
        agen a2, 4, s10, s0
        rfst r0, a2
        halt
