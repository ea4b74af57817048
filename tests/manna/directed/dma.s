# dma (Vector-Buffer <-> Vector-Scratchpad), load and store, directed.
#
# Checks: loads of 1 and 3 lines, the last VB line into the last VS line, a load crossing the VS
# half boundary (lines 6..9); stores from the first lines, from the last VS line, and of the whole
# Vector-Scratchpad (16 lines); count 0 with out-of-range addresses (nothing, no ADDR); bit
# patterns moved unchanged (signalling NaN, NaN payload 0xFFFFFFFF, -0, the smallest subnormal);
# the hazard rule: sld from a line a pending load writes waits (sees the new word), sst into a
# line a pending store reads waits (VB gets the old word), el right after a load waits (el counts
# as both VS halves), a dma waits for the engine's previous transfer, vmm, sld and rfst on VS
# half 0 overlap a load into half 1, vmm sq (no VS operand) overlaps a pending 16-line load, and
# halt waits for it.
# Why: the DMA engine runs in the background; the hazard check decides from address ranges in
# lines whether an instruction may overlap it, and an error there corrupts data silently.
#
# VB: 1.0, 2.0, ... (line 5: special bit patterns); VS: 500.0, 501.0, ...; MS lines 0, 4, 5 for vmm.
#@ m * vb 0 ramp:256:1:1
#@ m * vb l5 0x7F800001 0xFFFFFFFF 0x80000000 0x00000001
#@ m * vs 0 ramp:64:500:1
#@ m * ms 0 1.5f -2.0f 3.0f 0.25f
#@ m * ms l4 ramp:8:0.5:0.5
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s4, 4
        li s9, 16
        agen a0, 4, s0, s0          # VS 0
        agen a1, 4, s0, s0          # VB 0
        dma a0, a1, s3              # VS 0..2 <- VB 0..2
        li s10, 15
        agen a0, 4, s10, s0
        li s10, 63
        agen a1, 4, s10, s0
        dma a0, a1, s1              # VS 15 <- VB 63: waits for the engine
        li s10, 6
        agen a0, 4, s10, s0
        li s10, 10
        agen a1, 4, s10, s0
        dma a0, a1, s4              # VS 6..9 <- VB 10..13: both halves
        # ---- sld from a line being loaded
        li s10, 10
        agen a0, 4, s10, s0
        li s10, 5
        agen a1, 4, s10, s0
        dma a0, a1, s2              # VS 10..11 <- VB 5..6
        li s10, 40
        agen a2, 4, s10, s0
        sld s5, a2                  # VS word 40: waits, 0x7F800001
        li s10, 41
        agen a2, 4, s10, s0
        sld s6, a2                  # 0xFFFFFFFF
        li s10, 52
        agen a2, 4, s10, s0
        sst s5, a2                  # VS word 52 = 0x7F800001
        li s10, 53
        agen a2, 4, s10, s0
        sst s6, a2
        # ---- sst into a line being stored
        li s10, 3
        agen a0, 4, s10, s0
        li s10, 40
        agen a1, 4, s10, s0
        dma a0, a1, s1 store        # VB 40 <- VS 3 (old words)
        li s10, 13
        agen a2, 4, s10, s0
        li s11, -7.0f
        sst s11, a2                 # VS word 13: waits for the store
        # ---- stores
        agen a0, 4, s0, s0
        li s10, 41
        agen a1, 4, s10, s0
        dma a0, a1, s2 store        # VB 41..42 <- VS 0..1
        li s10, 15
        agen a0, 4, s10, s0
        li s10, 62
        agen a1, 4, s10, s0
        dma a0, a1, s1 store        # VB 62 <- VS 15
        # ---- el right after a load into half 1: waits (both halves)
        li s10, 14
        agen a0, 4, s10, s0
        li s10, 20
        agen a1, 4, s10, s0
        dma a0, a1, s1              # VS 14 <- VB 20
        li s10, 12
        agen a3, 4, s10, s0
        agen a4, 4, s1, s0
        el.add a3, a0, a4, s1       # VS 12 = VS 14 (new) + VS 1
        # ---- count 0, out-of-range addresses
        li s10, -1
        agen a5, 4, s10, s0
        dma a5, a5, s0
        dma a5, a5, s0 store
        # ---- a load into VS half 1 while vmm, sld and rfst use half 0: no waits
        li s10, 8
        agen a0, 4, s10, s0
        li s10, 30
        agen a1, 4, s10, s0
        li s11, 8
        dma a0, a1, s11             # VS 8..15 <- VB 30..37
        rfz r2
        li s10, 4
        agen a2, 4, s10, s0
        vmm r2, a2, a2, s2          # MS lines 4..5 * VS words 4..5 (half 0)
        sld s7, a2                  # VS word 4 (half 0)
        agen a3, 4, s2, s0
        rfst r2, a3                 # VS line 2 (half 0)
        sst s7, a2
        # ---- the whole VS out, then a 16-line load while vmm sq runs
        agen a0, 4, s0, s0
        li s10, 44
        agen a1, 4, s10, s0
        dma a0, a1, s9 store        # VB 44..59 <- VS 0..15
        li s10, 24
        agen a1, 4, s10, s0
        dma a0, a1, s9              # VS 0..15 <- VB 24..39 (waits for the store)
        rfz r1
        vmm r1, a0, a5, s1 sq       # MS line 0 squared: no VS operand, no wait
        vmm r1, a0, a5, s1 sq
        rfst r1, a4                 # VS line 1: waits for the load, then overwrites it
        halt
