# vmm t (transposed: key similarity) and vmm t sq (row norms), directed.
#
# Checks (RF[r][A] = fma(M(r, c), VS[C + c], RF[r][A]) for c = 0..N-1, M(r, c) = MS word
# B*E + r*(E+1) + c, the padded layout of dmat pad): N = E = 4, N = 1 and N = 3 (odd); padded
# groups written by dmat pad (MB rows 0..3; MB rows 4, 6, 8, 10 with stride 2) and one written by
# the host at the end of MS (B = 27: lines 27..31, N = 4; and N = 1 at B = 28, whose range ends at
# the last line); a group across the MS half boundary (B = 13: lines 13..17); vmm t right after
# the dmat pad that fills its group (the hazard wait); the vector at VS words 5..8 (across a
# line); accumulation onto old register values (N = 1 after N = 4) and from -0; special values:
# inf + -inf (NaN), -0 sums kept -0, max + max (inf), subnormal products at ties; the sq form.
# Every register is stored with rfst. N > E is a FIELD error (err_field.s), a group past the
# last MS line an ADDR error (err_addr.s).
# Why: the transposed read is the part of the datapath with the most address arithmetic (eMAC j
# reads its own bank j, row (j - c) mod E, line B + r + (r + c) div E; the partial sums move over
# the lateral links and are realigned by N - 1 lanes at the end); an error in the rotation or in
# the realignment moves a row's sum to another lane or mixes two rows.
#
# MB rows 0..3: 1..16 in order; MB rows 4..10: special rows; MS 108..127: a group written
# directly; VS lines 0..2 vectors, line 3 -0s, lines 8..15 results.
#@ m * mb 0 ramp:16:1:1
#@ m * mb l4 inff -inff 1.0f 1.0f
#@ m * mb l6 -0f -0f -0f -0f
#@ m * mb l8 0x7F7FFFFF 0x7F7FFFFF -3.4028235e38f 1.0f
#@ m * mb l10 0x00000003 0x00000001 0x00000005 0x00000001
#@ m * ms 108 ramp:20:0.5:-0.25
#@ m * vs l0 1.0f -2.0f 0.5f 3.0f
#@ m * vs 5 1.0f 1.0f 0.5f 0.5f
#@ m * vs l3 -0f*4
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s4, 4
        # --- a: a group from MB rows 0..3 at MS line 0, N = 4, then N = 1 onto it
        agen a0, 4, s0, s0          # MS line 0 / MB line 0 / VS word 0
        dmat a0, a0, s4, s1 pad
        rfz r1
        vmm r1, a0, a0, s4 t        # waits for the dmat
        li s10, 8
        agen a2, 4, s10, s0
        rfst r1, a2
        vmm r1, a0, a0, s1 t        # + column 0 again
        li s10, 9
        agen a2, 4, s10, s0
        rfst r1, a2
        # --- c: N = 3, and the sq forms with N = 4 and N = 3
        rfz r2
        vmm r2, a0, a0, s3 t
        li s10, 10
        agen a2, 4, s10, s0
        rfst r2, a2
        rfz r3
        vmm r3, a0, a0, s4 t sq
        vmm r3, a0, a0, s3 t sq     # onto the N = 4 norms
        li s10, 11
        agen a2, 4, s10, s0
        rfst r3, a2
        # --- special rows (MB 4, 6, 8, 10) into a group across the halves (MS 13..17), from -0
        li s10, 13
        agen a0, 4, s10, s0
        agen a1, 4, s4, s0
        dmat a0, a1, s4, s2 pad
        li s10, 3
        agen a3, 4, s10, s0
        rfld r4, a3
        li s10, 5
        agen a1, 4, s10, s0         # VS words 5..8
        vmm r4, a0, a1, s4 t
        li s10, 12
        agen a2, 4, s10, s0
        rfst r4, a2
        rfz r5
        vmm r5, a0, a1, s4 t sq
        li s10, 13
        agen a2, 4, s10, s0
        rfst r5, a2
        # --- the host-written group at the end of MS: B = 27, N = 4; B = 28, N = 1
        li s10, 27
        agen a0, 4, s10, s0
        agen a1, 4, s0, s0
        rfz r6
        vmm r6, a0, a1, s4 t
        li s10, 14
        agen a2, 4, s10, s0
        rfst r6, a2
        li s10, 28
        agen a0, 4, s10, s0
        rfz r7
        vmm r7, a0, a1, s1 t
        li s10, 15
        agen a2, 4, s10, s0
        rfst r7, a2
        halt
