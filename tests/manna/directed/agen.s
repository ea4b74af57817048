# agen (address generators), directed.
#
# Checks: value = (base + stride * idx[level]) mod 2^32 for strides +1, +4, 0, -1, -3 and -11
# (0xFFFFFFF5: the product wraps through 2^32, e.g. 3 * 0xFFFFFFF5 = 0x2FFFFFFDF), on levels 0..3
# while active, on a level that is not active (index 0), on constant levels 7 and 12 (stride
# ignored); the base and stride are the scalar registers' values at the agen (a register changed
# afterwards does not move it); a generator re-defined inside a loop; all eight generators a0..a7;
# and the four address fields of one instruction (el.fma d, a, b, c) fed by generators of four
# different levels with positive, zero and negative strides inside a 4-deep nest (2x2x2x2), the
# destination accumulating in place so that every iteration's addresses reach the result.
# Why: every memory address of every instruction comes from this path (base + stride * index,
# 32-bit wrap, level select); a wrong level, a truncated product or a stale index moves a word.
#
# A counter s6 (1, 2, ...) is stored with sst through the generators (word addresses); region C
# runs el.fma on VS lines 11..15 (data below).
#@ m * vs l11 0.5f 1.0f -2.0f 3.0f   0.25f -0.5f 1.5f 2.0f
#@ m * vs l13 0.5f 0.75f 1.0f -0.25f  0.125f 0.5f -1.0f 0.75f  -0.5f 0.25f 0.5f 1.0f
#@ s 0 all=DONE

        li s1, 4
        li s2, 1
        li s6, 0
        # ---- region A: one loop level (idx0 = 0..3)
        li s9, 40
        li s10, -1
        agen a0, 0, s9, s10         # 40, 39, 38, 37
        li s9, 43
        li s10, 0xFFFFFFF5          # -11
        agen a1, 0, s9, s10         # 43, 32, 21, 10
        li s9, 20
        agen a2, 0, s9, s0          # stride 0: 20
        li s9, 22
        agen a3, 7, s9, s2          # level 7: 22
        li s9, 23
        li s10, 2
        agen a4, 1, s9, s10         # level 1 not active: 23
        li s9, 24
        agen a5, 12, s9, s10        # level 12: 24 ...
        li s9, 31                   # ... not 31: the base was taken at the agen
        li s10, 5
        loop s1
          addi s6, s6, 1
          sst s6, a0
          sst s6, a1
          sst s6, a2
          sst s6, a3
          sst s6, a4
          sst s6, a5
        endloop
        # ---- region B: 3 x 2, generators of both levels, one re-defined in the outer body
        li s1, 3
        li s3, 2
        li s9, 25
        agen a7, 1, s9, s2          # level 1, used only outside the inner loop: 25
        loop s1
          li s9, 0
          li s10, 4
          agen a0, 0, s9, s10       # 0, 4, 8 (re-defined each outer iteration)
          li s9, 13
          li s10, -1
          agen a1, 1, s9, s10       # 13, 12
          li s9, 19
          li s10, -3
          agen a6, 1, s9, s10       # 19, 16
          loop s3
            addi s6, s6, 1
            sst s6, a0
            sst s6, a1
            sst s6, a6
          endloop
          addi s6, s6, 1
          sst s6, a7
        endloop
        # ---- region C: el.fma with its four address fields on four levels (2 x 2 x 2 x 2)
        li s9, 11
        agen a0, 0, s9, s2          # d = a: lines 11, 12 (in place)
        li s9, 14
        li s10, -1
        agen a1, 1, s9, s10         # b: lines 14, 13
        li s9, 15
        agen a2, 2, s9, s10         # c: lines 15, 14
        li s9, 13
        li s10, 2
        agen a3, 3, s9, s10         # b or c: lines 13, 15
        li s1, 2
        loop s1
          loop s1
            loop s1
              loop s1
                el.fma a0, a0, a1, a2, s2
                el.fma a0, a0, a3, a1, s2
              endloop
            endloop
          endloop
        endloop
        halt
