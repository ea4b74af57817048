# loop / endloop, directed.
#
# Checks: a 4-deep nest (counts 2, 3, 1, 2: 12 innermost iterations) that records, at every
# innermost iteration, the current index of each of the four levels as read through an address
# generator bound to that level (agen levels 0..3 over a table VS[60 + k] = k, read with sld and
# stored to a trace at VS[0..]); count-0 loops at depths 1 and 3 (body skipped: the jump to the PC
# after the matching endloop; nothing pushed, so the indices recorded after it are still those of
# the enclosing levels); a count of 1 (level 2); a count register changed inside its own body (the
# count is taken when the loop starts); a level that was popped reading index 0 although the loop
# stack registers still hold its last index (RTL: idx stays count - 1 after the pop); agen levels
# 7 and 15 (constant); `loop s0, @label` with count 0 as an unconditional forward jump over code
# that must not run; a 777-iteration loop (0x309: a count and index above 8 bits), its iterations
# counted in s8; and a count-1 loop with an empty body (endloop pops at once). (The largest count,
# 65535, is not run here: 4 * 10^5 cycles take 6 s in Verilator; a count of 65536 is a FIELD
# error, err_field.s.)
# Why: the loop stack and the index-to-address path are the control unit's only control flow; a
# wrong jump, a push on count 0, an index kept after a pop or an off-by-one shows in the trace,
# in s8 or in the instruction count of the status word.
#
# VS[60..63] = 0, 1, 2, 3 (integers): the index table. Markers 0x7F7F7F7F are written only by
# code that must never run.
#@ m * vs 60 0 1 2 3
#@ s 0 all=DONE

        li s9, 60
        li s10, 1
        agen a0, 0, s9, s10         # VS[60 + idx0]
        agen a1, 1, s9, s10         # VS[60 + idx1]
        agen a2, 2, s9, s10
        agen a3, 3, s9, s10
        li s11, 61
        agen a4, 7, s11, s10        # level 7: constant 61 (stride ignored)
        agen a5, 15, s9, s10        # level 15: constant 60
        li s12, 0x7F7F7F7F          # marker: code that must not run writes it
        li s7, 0                    # trace pointer
        li s2, 2
        li s4, 1
        li s5, 2
        loop s2                     # level 0: 2 iterations
          loop s0                   # count 0 at depth 1: skipped, nothing pushed
            sst s12, a0
            agen a0, 4, s0, s0
          endloop
          li s3, 3
          loop s3                   # level 1: 3 iterations although s3 changes inside
            addi s3, s3, 7
            loop s4                 # level 2: count 1
              loop s0               # count 0 at depth 3
                sst s12, a1
              endloop
              loop s5               # level 3: 2 iterations
                sld s1, a0
                agen a6, 4, s7, s0
                sst s1, a6
                addi s7, s7, 1
                sld s1, a1
                agen a6, 4, s7, s0
                sst s1, a6
                addi s7, s7, 1
                sld s1, a2
                agen a6, 4, s7, s0
                sst s1, a6
                addi s7, s7, 1
                sld s1, a3
                agen a6, 4, s7, s0
                sst s1, a6
                addi s7, s7, 1
              endloop
              sld s1, a3            # level 3 popped: index 0
              agen a6, 4, s7, s0
              sst s1, a6
              addi s7, s7, 1
            endloop
          endloop
          sld s1, a1                # level 1 popped: index 0
          agen a6, 4, s7, s0
          sst s1, a6
          addi s7, s7, 1
        endloop
        loop s0, @after             # count 0: a jump to 'after'
        sst s12, a0
        sst s12, a1
        halt
after:  sld s1, a4                  # level 7
        agen a6, 4, s7, s0
        sst s1, a6
        addi s7, s7, 1
        sld s1, a5                  # level 15
        agen a6, 4, s7, s0
        sst s1, a6
        addi s7, s7, 1
        li s2, 777
        li s8, 0
        loop s2
          addi s8, s8, 1
        endloop
        loop s4                     # count 1, empty body: endloop pops at once
        endloop
        halt
