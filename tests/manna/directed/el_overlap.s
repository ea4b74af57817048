# el with overlapping operands: in place and shifted by one line, directed.
#
# Checks the line-sequential rule (line k is read, computed and written before line k+1 is read,
# so a destination one line after a source sees the results of earlier lines) for each read
# pattern of the eMAC pipeline: one VS read per line (a scalar b: the write of line k and the read
# of line k+1 in the same cycle, through the scratchpad's write-first bypass), two reads (vector
# b, or fma with scalar b and vector c) and three (fma with vector b and c); with the
# destination one line after a (A = B + 1), after b (A = C + 1), after c (A = D + 1), one line
# before a (A = B - 1: reads run ahead of writes); across the VS half boundary (lines 6..9); in
# place (A = B, A = C, A = D, and all four the same line); and the whole VS (F = 16) in place
# (x * 1 + -0 = x, NaN payloads made canonical). After each phase the whole VS is stored to VB
# (lines 0..15, 16..31, 32..47, 48..63), and the last phase stays in VS.
# Why: a pipelined line loop that reads line k+1 before line k's result is written would still
# pass every test whose operands do not overlap; NTM kernels update vectors in place.
#
# VS: a ramp 0.5, 1.75, 3.0, ... with a few special words.
#@ m * vs 0 ramp:64:0.5:1.25
#@ m * vs 13 0x7F800001 -0f 0x7FC12345
#@ m * vs 50 inff -inff
#@ s 0 all=DONE

        li s1, 1
        li s2, 2
        li s3, 3
        li s4, 4
        li s9, 16
        li s12, 0.75f
        li s13, -1.5f
        li s14, 1.0f
        agen a7, 4, s0, s0          # VS line 0 / VB line 0
        # ---- phase 1: one read per line (scalar b)
        li s10, 4
        agen a0, 4, s10, s0
        li s10, 5
        agen a1, 4, s10, s0
        el.add a1, a0, s12, s4      # 5..8 = 4..7 + 0.75, A = B + 1, across the halves
        li s10, 12
        agen a0, 4, s10, s0
        li s10, 13
        agen a1, 4, s10, s0
        el.mul a0, a1, s13, s3      # 12..14 = 13..15 * -1.5, A = B - 1
        agen a1, 4, s1, s0
        el.sub a1, a1, s12, s1      # 1 = 1 - 0.75, in place
        dma a7, a7, s9 store        # VB 0..15
        # ---- phase 2: two reads per line
        li s10, 8
        agen a0, 4, s10, s0
        li s10, 9
        agen a1, 4, s10, s0
        li s10, 12
        agen a2, 4, s10, s0
        el.add a1, a0, a2, s3       # 9..11 = 8..10 + 12..14, A = B + 1
        agen a0, 4, s0, s0
        agen a1, 4, s1, s0
        li s10, 13
        agen a2, 4, s10, s0
        el.sub a1, a2, a0, s3       # 1..3 = 13..15 - 0..2, A = C + 1
        li s10, 6
        agen a0, 4, s10, s0
        li s10, 7
        agen a1, 4, s10, s0
        el.fma a1, a0, s13, a0, s3  # 7..9 = 6..8 * -1.5 + 6..8 (scalar b, vector c), A = B + 1
        li s10, 16
        agen a6, 4, s10, s0
        dma a7, a6, s9 store        # VB 16..31
        # ---- phase 3: three reads per line
        li s10, 2
        agen a0, 4, s10, s0
        li s10, 3
        agen a1, 4, s10, s0
        li s10, 10
        agen a2, 4, s10, s0
        agen a3, 4, s0, s0
        el.fma a1, a0, a2, a3, s4   # 3..6 = 2..5 * 10..13 + 0..3, A = B + 1 (and overlaps c)
        li s10, 8
        agen a0, 4, s10, s0
        li s10, 11
        agen a2, 4, s10, s0
        li s10, 7
        agen a3, 4, s10, s0
        el.fma a0, a2, a2, a3, s3   # 8..10 = 11..13 * 11..13 + 7..9, A = D + 1
        li s10, 14
        agen a0, 4, s10, s0
        el.fma a0, a0, a0, a0, s1   # 14 = 14 * 14 + 14, all in place
        li s10, 32
        agen a6, 4, s10, s0
        dma a7, a6, s9 store        # VB 32..47
        # ---- phase 4: in place
        agen a0, 4, s0, s0
        agen a1, 4, s1, s0
        el.add a0, a0, a1, s1       # 0 = 0 + 1, A = B
        agen a2, 4, s2, s0
        agen a3, 4, s3, s0
        el.sub a2, a3, a2, s1       # 2 = 3 - 2, A = C
        agen a4, 4, s4, s0
        li s10, 5
        agen a5, 4, s10, s0
        el.fma a4, a5, s12, a4, s2  # 4..5 = 5..6 * 0.75 + 4..5, A = D (and A + 1 = B)
        li s10, 48
        agen a6, 4, s10, s0
        dma a7, a6, s9 store        # VB 48..63
        el.mul a7, a7, s14, s9      # the whole VS: * 1.0, in place
        halt
