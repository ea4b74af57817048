# dmat (Matrix-Buffer <-> Matrix-Scratchpad), plain and padded, load and store, directed.
#
# Checks: plain loads with MB strides 1, 0 (one MB line replicated into 3 MS lines) and 7, a load
# that crosses the MS half boundary (lines 14..17), a load from the last MB line (stride 21: MB 42,
# 63); padded loads of 5 rows (odd; one of them ends at the last MS word: A = 26, words 104..127)
# and of 6 rows across the MS halves; padded stores (inverse rotation, MB stride 2) and plain stores
# with stride 0 (three rows onto one MB line: the last one stays) and from the last MS line to the
# last MB line; count 0 with out-of-range addresses (nothing happens, no ADDR); one row with MB
# stride 0xFFFFFFFF (unused: no ADDR); the hazard rule: a vmm reading an MS half a pending padded
# load writes waits for it (it sees the new rows), an swr writing the MS half a pending store reads
# waits for it (MB gets the old rows), back-to-back dmats wait for the engine, and a vmm on the
# other half overlaps a 16-row store (cycle count); halt waits for the engine. MB line 4 carries bit
# patterns that must move unchanged (signalling NaN 0x7F800001, NaN 0xFFFFFFFF, -0, the smallest
# subnormal).
# Why: the padded layout (row i one bank further, a one-word gap per row) and its inverse on
# store are the DMAT transpose unit of Fig. 4.5; the rotation, the stride and the half-boundary
# hazard check are all address arithmetic that random programs hit only by chance.
#
# MB lines 0..31: 1.0, 2.0, ... (line 4: special bit patterns); MB 32..63: -1.0, -2.0, ...;
# MS: 1000.0, 1001.0, ... (so that every untouched word is recognisable). VS lines 0, 3: ones.
#@ m * mb 0 ramp:128:1:1
#@ m * mb l4 0x7F800001 0xFFFFFFFF 0x80000000 0x00000001
#@ m * mb l32 ramp:128:-1:-1
#@ m * ms 0 ramp:128:1000:1
#@ m * vs 0 1.0f*4
#@ m * vs l3 1.0f*4
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s4, 4
        li s5, 5
        li s6, 6
        li s7, 7
        li s8, 21
        li s9, 16
        # ---- plain loads
        li s10, 0
        agen a0, 4, s10, s0         # MS 0
        agen a1, 4, s10, s0         # MB 0
        dmat a0, a1, s3, s1         # MS 0..2 <- MB 0..2
        li s10, 3
        agen a0, 4, s10, s0
        li s10, 5
        agen a1, 4, s10, s0
        dmat a0, a1, s3, s0         # MS 3..5 <- MB 5 (stride 0), waits for the engine
        li s10, 6
        agen a0, 4, s10, s0
        agen a1, 4, s1, s0
        dmat a0, a1, s4, s7         # MS 6..9 <- MB 1, 8, 15, 22
        li s10, 14
        agen a0, 4, s10, s0
        li s10, 10
        agen a1, 4, s10, s0
        dmat a0, a1, s4, s1         # MS 14..17 <- MB 10..13: both halves
        li s10, 24
        agen a0, 4, s10, s0
        li s10, 42
        agen a1, 4, s10, s0
        dmat a0, a1, s2, s8         # MS 24..25 <- MB 42, 63 (the last MB line)
        agen a1, 4, s0, s0
        # ---- padded loads
        li s10, 18
        agen a0, 4, s10, s0
        dmat a0, a1, s5, s3 pad     # MS words 72..95 <- MB 0, 3, 6, 9, 12
        li s10, 26
        agen a0, 4, s10, s0
        agen a1, 4, s4, s0
        dmat a0, a1, s5, s1 pad     # MS words 104..127 (the last) <- MB 4..8
        rfz r1
        agen a2, 4, s0, s0          # VS word 0
        vmm r1, a0, a2, s1          # MS line 26, half 1: waits for the padded load
        rfst r1, a2                 # -> VS line 0 ... (a2 = 0 as a line address)
        li s10, 4
        agen a3, 4, s10, s0
        rfst r1, a3                 # ... and VS line 4
        # ---- stores
        li s10, 14
        agen a0, 4, s10, s0
        li s10, 58
        agen a1, 4, s10, s0
        dmat a0, a1, s4, s1 store   # MB 58..61 <- MS 14..17
        agen a0, 4, s0, s0
        li s10, 32
        agen a1, 4, s10, s0
        dmat a0, a1, s4, s1 store   # MB 32..35 <- MS 0..3
        li s10, 18
        agen a0, 4, s10, s0
        li s10, 40
        agen a1, 4, s10, s0
        dmat a0, a1, s5, s2 pad store   # MB 40, 42, .., 48 <- padded rows at MS 18
        li s10, 6
        agen a0, 4, s10, s0
        li s10, 50
        agen a1, 4, s10, s0
        dmat a0, a1, s3, s0 store   # MB 50 <- MS 6, 7, 8 (stride 0: MS 8 stays)
        li s10, 31
        agen a0, 4, s10, s0
        li s10, 63
        agen a1, 4, s10, s0
        dmat a0, a1, s1, s1 store   # MB 63 <- MS 31
        li s10, 10
        agen a0, 4, s10, s0
        li s10, 20
        agen a1, 4, s10, s0
        dmat a0, a1, s6, s1 pad     # MS words 40..68 <- MB 20..25, 6 rows across the halves
        li s10, 52
        agen a1, 4, s10, s0
        dmat a0, a1, s6, s1 pad store   # MB 52..57 <- the same padded rows
        # ---- a store pending on MS half 1, then swr writing that half: swr waits
        rfz r2
        li s10, 3
        agen a3, 4, s10, s0
        rfld r3, a3                 # ones (VS line 3)
        li s10, 1.0f
        sst s10, a2                 # VS word 0 = 1.0: swr's weight
        li s10, 20
        agen a0, 4, s10, s0
        li s10, 36
        agen a1, 4, s10, s0
        dmat a0, a1, s4, s1 store   # MB 36..39 <- MS 20..23 (old rows)
        li s10, 21
        agen a0, 4, s10, s0
        swr a0, a2, r2, r3, s1      # MS line 21 += r3 (t = 1), after the store read it
        # ---- count 0: out-of-range addresses, nothing happens; one row: the stride is unused
        li s10, -1
        agen a4, 4, s10, s0
        dmat a4, a4, s0, s10
        dmat a4, a4, s0, s10 pad store
        li s11, 25
        agen a5, 4, s11, s0
        li s11, 62
        agen a6, 4, s11, s0
        dmat a5, a6, s1, s10        # MS 25 <- MB 62, stride 0xFFFFFFFF (not used: no ADDR)
        # ---- a 16-row store of MS half 0 while a vmm reads half 1, then halt waits
        agen a0, 4, s0, s0
        agen a1, 4, s0, s0
        dmat a0, a1, s9, s1 store   # MB 0..15 <- MS 0..15
        li s10, 26
        agen a0, 4, s10, s0
        rfz r5
        vmm r5, a0, a2, s2          # MS lines 26..27: no wait
        li s10, 2
        agen a3, 4, s10, s0
        rfst r5, a3                 # VS line 2
        halt
