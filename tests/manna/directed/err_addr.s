# ADDR error (status 4), directed, then a good run on the same tiles.
#
# Checks one run per operand range, each with the largest valid range of the same instruction
# executed first (so the limit is exact, not just "far out"): dmat padded at MS line 26 (5 rows
# end at the last word, 127) then 27 (131); dmat MB rows 0 + 3 * 21 = 63, then 1 + 63 = 64;
# dmat with MB stride 0xFFFFFFFF (-1 as unsigned: out); dma VS line 15 (1 line, then 2), VB line
# 63 (1, then 2), dma at VS line 0xFFFFFFFF with 2 lines (a range that wraps 32 bits); vmm plain
# MS line 31 (N = 1, then 2), its VS word 63 (N = 1, then 2); vmm t at MS line 28 (N = 1: lines
# 28..31, then N = 2: 28..32); swr MS line 31 and VS word 63 (F = 1, then 2); el's destination,
# a, b and c lines (15 with F = 1, then F = 2; c at 0xFFFFFFFF), with a scalar b whose field
# would be out of range as a generator (not checked); rfld line 16, rfst line 0xFFFFFFFF; sfu
# destination (exp at word 61, 3 words, then 62), source (62, 3 words), dot's second vector, and
# sum's one-word destination (63 valid with 2 source words; 64 not); sld word 64 and sst word
# 0x80000000; reduce at VS line 15 with 2 lines and bcast at line 16 (both tiles); one tile
# alone (tile 1's rfld at line 16, tile 0's at line 15: DONE and ADDR side by side). Each stops
# before any effect (the memories are compared after the last run). Then a good run ends DONE.
# Why: address values are unsigned 32-bit and every range is checked word by word against its
# memory; an off-by-one or a 32-bit wrap in the checks either stops good programs or lets a bad
# one write another memory location.
#
# Scalar registers for every run: s1..s5 = 1..5, s11 = 0xFFFFFFFF; s8 = the per-tile line.
#@ m * sreg 1 1 2 3 4 5
#@ m * sreg 11 0xFFFFFFFF
#@ m 0 sreg 8 15
#@ m 1 sreg 8 16
#@ m * mb 0 ramp:256:1:1
#@ m * vs 0 ramp:64:-1:0.5
#@ s 0 all=ADDR@b_dmatp
#@ s e_dmatb all=ADDR@b_dmatb
#@ s e_dmats all=ADDR@b_dmats
#@ s e_dmavs all=ADDR@b_dmavs
#@ s e_dmavb all=ADDR@b_dmavb
#@ s e_dmaw all=ADDR@b_dmaw
#@ s e_vmmb all=ADDR@b_vmmb
#@ s e_vmmc all=ADDR@b_vmmc
#@ s e_vmmt all=ADDR@b_vmmt
#@ s e_swra all=ADDR@b_swra
#@ s e_swrb all=ADDR@b_swrb
#@ s e_eld all=ADDR@b_eld
#@ s e_ela all=ADDR@b_ela
#@ s e_elb all=ADDR@b_elb
#@ s e_elc all=ADDR@b_elc
#@ s e_rfld all=ADDR@b_rfld
#@ s e_rfst all=ADDR@b_rfst
#@ s e_sfud all=ADDR@b_sfud
#@ s e_sfua all=ADDR@b_sfua
#@ s e_dot all=ADDR@b_dot
#@ s e_sum all=ADDR@b_sum
#@ s e_sld all=ADDR@b_sld
#@ s e_sst all=ADDR@b_sst
#@ s e_red all=ADDR@b_red
#@ s e_bc all=ADDR@b_bc
#@ s e_one t0=DONE t1=ADDR@b_one
#@ s good all=DONE

        li s10, 26                  # ---- dmat: MS end (padded)
        agen a0, 4, s10, s0
        dmat a0, a0, s5, s1 pad     # words 104..127
        li s10, 27
        agen a0, 4, s10, s0
b_dmatp: dmat a0, a0, s5, s1 pad    # words 108..131
e_dmatb: li s10, 21                 # ---- dmat: MB end
        dmat a0, a0, s4, s10        # MB 0, 21, 42, 63
        agen a1, 4, s1, s0
b_dmatb: dmat a0, a1, s4, s10       # MB 1 .. 64
e_dmats:
b_dmats: dmat a0, a0, s2, s11       # MB stride 0xFFFFFFFF
e_dmavs: li s10, 15                 # ---- dma: VS end, VB end, a wrapping range
        agen a0, 4, s10, s0
        dma a0, a0, s1
b_dmavs: dma a0, a0, s2
e_dmavb: li s10, 63
        agen a1, 4, s10, s0
        dma a0, a1, s1 store
b_dmavb: dma a0, a1, s2 store
e_dmaw: agen a0, 4, s11, s0
b_dmaw: dma a0, a1, s2
e_vmmb: li s10, 31                  # ---- vmm: MS end, VS end, transposed group end
        agen a0, 4, s10, s0
        vmm r1, a0, a1, s1
b_vmmb: vmm r1, a0, a1, s2
e_vmmc: li s10, 63
        agen a1, 4, s10, s0
        vmm r1, a0, a1, s1
b_vmmc: vmm r1, a0, a1, s2
e_vmmt: li s10, 28
        agen a0, 4, s10, s0
        vmm r1, a0, a0, s1 t        # lines 28..31
b_vmmt: vmm r1, a0, a0, s2 t        # lines 28..32
e_swra: li s10, 31                  # ---- swr: MS end, VS end
        agen a0, 4, s10, s0
        swr a0, a1, r1, r2, s1
b_swra: swr a0, a1, r1, r2, s2
e_swrb: li s10, 63
        agen a1, 4, s10, s0
        swr a0, a1, r1, r2, s1
b_swrb: swr a0, a1, r1, r2, s2
e_eld:  li s10, 15                  # ---- el: each operand
        agen a0, 4, s10, s0
        el.add a0, a1, a1, s1
b_eld:  el.add a0, a1, a1, s2
e_ela:  li s10, 15
        agen a0, 4, s10, s0
        el.sub a1, a0, a1, s1
        el.mul a1, a0, s15, s1      # b a scalar: its field is no generator
b_ela:  el.sub a1, a0, a1, s2
e_elb:  li s10, 15
        agen a0, 4, s10, s0
        el.mul a1, a1, a0, s1
b_elb:  el.mul a1, a1, a0, s2
e_elc:  agen a2, 4, s11, s0
        el.fma a1, a1, a1, s3, s1
b_elc:  el.fma a1, a1, a1, a2, s1   # c at line 0xFFFFFFFF
e_rfld: li s10, 15                  # ---- rf moves
        agen a0, 4, s10, s0
        rfld r1, a0
        li s10, 16
        agen a0, 4, s10, s0
b_rfld: rfld r1, a0
e_rfst: agen a0, 4, s11, s0
b_rfst: rfst r1, a0
e_sfud: li s10, 61                  # ---- sfu: destination, source, dot's b, sum's one word
        agen a0, 4, s10, s0
        sfu.exp a0, a1, s3          # 61..63
        li s10, 62
        agen a0, 4, s10, s0
b_sfud: sfu.exp a0, a1, s3          # 62..64
e_sfua: li s10, 61
        agen a0, 4, s10, s0
        sfu.relu a1, a0, s3
        li s10, 62
        agen a0, 4, s10, s0
b_sfua: sfu.relu a1, a0, s3
e_dot:  li s10, 62
        agen a0, 4, s10, s0
        sfu.dot a1, a1, a0, s2
b_dot:  sfu.dot a1, a1, a0, s3
e_sum:  li s10, 63
        agen a0, 4, s10, s0
        li s10, 62
        agen a1, 4, s10, s0
        sfu.sum a0, a1, s2          # one word at 63: valid
        li s10, 64
        agen a0, 4, s10, s0
b_sum:  sfu.sum a0, a1, s1
e_sld:  li s10, 63                  # ---- sld / sst
        agen a0, 4, s10, s0
        sld s6, a0
        li s10, 64
        agen a0, 4, s10, s0
b_sld:  sld s6, a0
e_sst:  li s10, 0x80000000
        agen a0, 4, s10, s0
b_sst:  sst s6, a0
e_red:  li s10, 14                  # ---- collectives
        agen a0, 4, s10, s0
        reduce a0, s2
        li s10, 15
        agen a0, 4, s10, s0
b_red:  reduce a0, s2
e_bc:   li s10, 15
        agen a0, 4, s10, s0
        bcast a0, s1
        li s10, 16
        agen a0, 4, s10, s0
b_bc:   bcast a0, s1
e_one:  agen a0, 4, s8, s0          # ---- one tile: line 15 in tile 0, 16 in tile 1
b_one:  rfld r2, a0
        halt
good:   agen a0, 4, s0, s0          # ---- the good run
        li s10, 8
        agen a1, 4, s10, s0
        el.add a1, a0, a0, s4       # VS 8..11 = 2 * lines 0..3
        rfld r3, a1
        li s10, 15
        agen a2, 4, s10, s0
        rfst r3, a2
        halt
