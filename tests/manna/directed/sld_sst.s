# sld / sst (a scalar register from / to one Vector-Scratchpad word), directed.
#
# Checks: sld from the first and the last VS word and from words in every bank (13: line 3 bank
# 1; 31 and 32 on both sides of the VS half boundary); bit patterns moved unchanged both ways
# (signalling NaN 0x7F800001, NaN 0xFFFFFFFF, -0); sld into s0 (ignored: s0 still reads 0) and
# sst of s0 (writes 0); sst then sld of the same word (the new value); sld into s15 and sst from
# it onto the last word; a loaded integer used as a loop count (data-dependent control flow); a
# word copy in a loop through level-0 generators (sld / sst back to back, each address from the
# loop index).
# Why: sld / sst are the only paths between the scalar registers and the vector memory (scalar
# fp32 operands are computed in VS by the SFU and loaded with sld); they go through the SFU's
# one-word port, whose bank select and word-to-line split are easy to get wrong.
#
# VS: 0.5, 1.5, 2.5, ... with special words; word 8 holds the integer 3.
#@ m * vs 0 ramp:64:0.5:1
#@ m * vs 5 0x7F800001 0xFFFFFFFF 0x80000000 3
#@ s 0 all=DONE

        li s14, 1
        li s10, 0
        agen a0, 4, s10, s0
        sld s1, a0                  # word 0
        li s10, 63
        agen a0, 4, s10, s0
        sld s2, a0                  # word 63 (the last)
        li s10, 13
        agen a0, 4, s10, s0
        sld s3, a0                  # word 13
        li s10, 5
        agen a0, 4, s10, s0
        sld s0, a0                  # ignored
        sld s4, a0                  # 0x7F800001
        li s10, 6
        agen a0, 4, s10, s0
        sld s5, a0                  # 0xFFFFFFFF
        li s10, 7
        agen a0, 4, s10, s0
        sld s6, a0                  # -0
        li s10, 20
        agen a0, 4, s10, s0
        sst s0, a0                  # word 20 = 0
        li s10, 40
        agen a1, 0, s10, s14        # level 0 not active: 40
        sst s1, a1
        li s10, 41
        agen a1, 4, s10, s0
        sst s2, a1
        li s10, 42
        agen a1, 4, s10, s0
        sst s3, a1
        li s10, 43
        agen a1, 4, s10, s0
        sst s4, a1
        li s10, 44
        agen a1, 4, s10, s0
        sst s5, a1
        li s10, 45
        agen a1, 4, s10, s0
        sst s6, a1
        li s10, 46
        agen a1, 4, s10, s0
        sst s0, a1                  # s0 still 0 after the sld into it
        # sst then sld of one word
        li s7, 1.25f
        li s10, 30
        agen a2, 4, s10, s0
        sst s7, a2
        sld s7, a2
        li s10, 31
        agen a3, 4, s10, s0
        sld s11, a3                 # word 31 (half 0) ...
        li s10, 32
        agen a3, 4, s10, s0
        sld s12, a3                 # ... word 32 (half 1)
        sst s11, a3                 # swap them
        li s10, 31
        agen a3, 4, s10, s0
        sst s12, a3
        # s15 onto the last word
        li s10, 50
        agen a3, 4, s10, s0
        sld s15, a3
        li s10, 63
        agen a3, 4, s10, s0
        sst s15, a3
        # a loaded integer as a loop count
        li s10, 8
        agen a3, 4, s10, s0
        sld s8, a3                  # 3
        li s9, 0
        loop s8
          addi s9, s9, 1
        endloop
        # copy words 52..55 -> 56..59 by the loop index
        li s10, 52
        agen a4, 0, s10, s14
        li s10, 56
        agen a5, 0, s10, s14
        li s10, 4
        loop s10
          sld s13, a4
          sst s13, a5
        endloop
        halt
