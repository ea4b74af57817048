# reduce / bcast over the H-tree (2 tiles), directed.
#
# Checks reduce (tile 0's lines = own + tile 1's, fp32 add, own value first; tile 1's lines
# unchanged) on 1 line and on 3 lines of special sums (inf + -inf = NaN, -0 + -0 = -0, +0 + -0 =
# +0, max + max = inf, subnormal sums, 1 + 2^-24 = 1 (tie), a signalling NaN made canonical,
# 1e8 + -1e8 = +0); with a different line in each tile (tile 0 line 4, tile 1 line 12: each tile's
# own address); count 0 with an out-of-range address (a fence only: no ADDR, nothing moves); in a
# loop (lines 7, 8, 9: across the VS half boundary, the address from the loop index); right after
# a dma load into the line it reduces (the hazard wait). bcast (tile 1's lines = tile 0's, bit for
# bit: a signalling NaN and a NaN payload stay) of 2 lines, of the last line, and of the whole VS
# (16 lines, after both tiles stored their VS to VB). One tile arriving late: tile 1 runs 16
# divisions (about 500 cycles, more than FenceTimeout = 256) before a bcast that tile 0 is already
# waiting in: no TIMEOUT (the watchdog counts only when no other tile can still arrive). The cycle
# model follows the barriers and the link FIFOs.
# Why: the collectives are the only inter-tile paths; each tile computes its own address, the
# adds are the router's own adders, and the barrier, watchdog and link flow control are timing
# the cycle model must match exactly.
#
# Per tile: s8 = the line of the differently placed reduce (4 / 12); s9 = 1 in tile 1 only (the
# slow tile's extra work).
#@ m 0 sreg 8 4
#@ m 1 sreg 8 12
#@ m 0 sreg 9 0
#@ m 1 sreg 9 1
#@ m 0 vs l0 1.0f 2.0f 3.0f 4.0f  inff -0f 0f 0x7F7FFFFF  0x00000003 1.0f 0x7F800001 1e8f
#@ m 1 vs l0 10.0f 20.0f 30.0f 40.0f  -inff -0f -0f 0x7F7FFFFF  0x00000005 0x33800000 1.0f -1e8f
#@ m 0 vs l3 -0f 0x80000001 0.5f 0.25f  0.125f 0.0625f -1.0f -2.0f
#@ m 1 vs l3 -0f 0x00000001 0.5f -0.25f  0f 0f 0f 0f
#@ m 0 vs l5 0x7F800001 0xFFFFFFFF 0x80000000 1.5f  2.5f 3.5f 4.5f 5.5f
#@ m 1 vs l5 ramp:8:-1:-1
#@ m 0 vs l7 ramp:12:100:1
#@ m 1 vs l7 ramp:12:200:1
#@ m 0 vs l12 ramp:16:-50:0.5
#@ m 1 vs l12 ramp:16:7:0.25
#@ m 0 vb l10 0.75f*4
#@ m 1 vb l10 0.125f*4
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s7, 16
        agen a0, 4, s0, s0
        reduce a0, s1               # line 0
        agen a0, 4, s1, s0
        reduce a0, s3               # lines 1..3: special sums
        agen a0, 4, s8, s0
        reduce a0, s1               # tile 0 line 4 += tile 1 line 12
        li s10, -1
        agen a1, 4, s10, s0
        reduce a1, s0               # count 0: a fence, no address check
        bcast a1, s0
        # the slow tile: 16 reciprocals in tile 1 only, then a bcast tile 0 already waits in
        loop s9
          li s10, 48
          agen a2, 4, s10, s0
          sfu.recip a2, a2, s7
        endloop
        li s10, 5
        agen a0, 4, s10, s0
        bcast a0, s2                # lines 5..6, bit for bit
        li s10, 15
        agen a0, 4, s10, s0
        bcast a0, s1                # the last line
        # reduce in a loop: lines 7, 8, 9
        li s10, 7
        agen a0, 0, s10, s1
        loop s3
          reduce a0, s1
        endloop
        # a dma load into line 10, then reduce line 10 (waits for the load)
        li s10, 10
        agen a0, 4, s10, s0
        dma a0, a0, s1              # VS 10 <- VB 10
        reduce a0, s1
        # the whole VS: stored to VB 0..15 first, then broadcast
        agen a0, 4, s0, s0
        dma a0, a0, s7 store
        bcast a0, s7
        halt
