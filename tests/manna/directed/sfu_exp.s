# sfu.exp and sfu.sigmoid, directed (the exp sequence of docs/manna.md bit for bit).
#
# Checks exp on: +0, -0, +-1, the range limits 88.72283935546875 (0x42B17218: computed with n = 128,
# p * 2^64 * 2^64 overflows to +inf) and the next float up (0x42B17219: +inf by the range check),
# -104.0 (computed: +0) and the next float down (0xC2D00001: +0 by the range check), results that
# are subnormal (-100, -103.625: n = -150) and normal near the bottom (-87.3); x * log2(e) at exact
# ties k + 1/2, where n rounds to even (t = 0.5, -0.5, 1.5, -1.5, 2.5, 126.5, 127.5, -148.5,
# -149.5); +inf (+inf), -inf (+0), NaN, -NaN and a signalling NaN (canonical), subnormal inputs
# (exp = 1), the largest finite and its negative; odd counts; in place (destination = source)
# and shifted by one word (destination = source + 1: each word's input is the previous word's
# result, exp(exp(..))). The SFU's cycles depend on the input (2 for the special inputs, 14 for the
# sequence): the cycle model is exact on each.
# sigmoid = 1 / (exp(-x) + 1) on 0, +-1, +-inf, NaN, +-88.72283935546875, +-104.5 (exp(-x) +inf ->
# 0; exp(-x) = 0 -> 1), subnormals, 20 (1 - 2^-29 rounds to 1), -20, and shifted by one word.
# Why: exp is a fixed sequence of 13 fp32 operations whose every rounding is specified; range
# checks, the 1.5 * 2^23 rounding trick, the two-part ln 2 reduction and the split 2^n scaling
# each have their own edge; sigmoid adds the divider.
#
# Run 1: exp of VS words 0..30 -> words 32..62 (n = 31), the whole VS stored to VB lines 0..15,
# then exp in place on words 24..27, a chain word 30 = exp(29), 31 = exp(30), 32 = exp(31), and
# the reverse overlap word 20 = exp(21), 21 = exp(22), 22 = exp(23). Run 2 (the host rewrites
# words 0..14 and 40): sigmoid of words 0..14 -> words 48..62, a chain 41 = sigmoid(40), ...
#@ m * vs 0 0f -0f 1.0f -1.0f 0x42B17218 0x42B17219 -104.0f 0xC2D00001 -100.0f 0xC2CF4042 -87.3f
#@ m * vs 11 0x3EB17218 0xBEB17218 0x3F851592 0xBF851592 0x3FDDCE9E 0x42AF5DC2 0x42B0C0A6 0xC2CDDD5E
#@ m * vs 19 inff -inff nanf -nanf 0x7F800001 0x00000001 0x807FFFFF 0x7F7FFFFF 0xFF7FFFFF 0.693147f
#@ m * vs 29 -0.5f 1e-8f 0.25f
#@ s 0 all=DONE
#@ m * vs 0 0f 1.0f -1.0f inff -inff nanf 0x42B17218 0xC2B17218 104.5f -104.5f 0x00000001 20.0f
#@ m * vs 12 -20.0f 0x80000001 0.5f
#@ m * vs 40 -2.0f
#@ s sigmoid all=DONE

        li s3, 3
        li s4, 4
        li s9, 16
        li s11, 31
        agen a0, 4, s0, s0
        li s10, 32
        agen a1, 4, s10, s0
        sfu.exp a1, a0, s11         # 32..62 = exp(0..30)
        dma a0, a0, s9 store        # VB 0..15 <- VS
        li s10, 24
        agen a2, 4, s10, s0
        sfu.exp a2, a2, s4          # 24..27 in place
        li s10, 29
        agen a2, 4, s10, s0
        li s10, 30
        agen a3, 4, s10, s0
        sfu.exp a3, a2, s3          # 30 = exp(29), 31 = exp(30 new), 32 = exp(31 new)
        li s10, 21
        agen a2, 4, s10, s0
        li s10, 20
        agen a3, 4, s10, s0
        sfu.exp a3, a2, s3          # 20 = exp(21), 21 = exp(22), 22 = exp(23)
        halt
sigmoid:
        li s3, 3
        li s5, 15
        agen a0, 4, s0, s0
        li s10, 48
        agen a1, 4, s10, s0
        sfu.sigmoid a1, a0, s5      # 48..62 = sigmoid(0..14)
        li s10, 40
        agen a2, 4, s10, s0
        li s10, 41
        agen a3, 4, s10, s0
        sfu.sigmoid a3, a2, s3      # 41 = sigmoid(40), 42 = sigmoid(41 new), 43 = ...
        halt
