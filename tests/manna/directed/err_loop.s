# LOOP error (status 5), directed, then a good run on the same tiles.
#
# Checks: a fifth loop while 4 levels are active, with count 0 (LOOP even though it would push
# nothing) and with count 3, the stop waiting for a pending dmat; endloop with no level active at
# the start of a run; an endloop after the matching loop has already popped; an endloop reached by
# the jump of a count-0 loop (count 0 pushes nothing, so the stack is empty); one tile alone
# (tile 1 runs a stray endloop inside a loop whose count is 0 in tile 0). Then a good run on the
# same tiles with a full 4-deep nest ends DONE. (FIELD before LOOP: err_field.s.)
# Why: the loop stack's overflow and underflow checks are the only guard of the 4-entry stack;
# a fifth push would overwrite level 0's count and index and a pop of an empty stack would jump
# to a stale PC.
#
# The assembler refuses a fifth nested loop and a stray endloop, so they are raw words:
# loop s0 = 0x1000000000000000 | end PC, loop s3 = 0x10C0000000000000 | end PC,
# endloop = 0x1400000000000000. s9 = 1 in tile 1 only.
#@ m 0 sreg 9 0
#@ m 1 sreg 9 1
#@ m * sreg 1 1 2 3
#@ m * mb 0 ramp:128:1:1
#@ s 0 all=LOOP@b_l5z
#@ s e_l5 all=LOOP@b_l5
#@ s e_end0 all=LOOP@b_end0
#@ s e_end1 all=LOOP@b_end1
#@ s e_endj all=LOOP@b_endj
#@ s e_one t0=DONE t1=LOOP@b_one
#@ s good all=DONE

        loop s1
          loop s1
            loop s1
              loop s1
                li s10, 32
                agen a0, 4, s0, s0
                dmat a0, a0, s10, s1    # 32 rows, pending at the error
b_l5z:          .word 0x1000000000000007  # loop s0 (count 0), a fifth level
              endloop
            endloop
          endloop
        endloop
e_l5:   loop s2
          loop s1
            loop s3
              loop s1
b_l5:           .word 0x10C0000000000014  # loop s3, a fifth level
              endloop
            endloop
          endloop
        endloop
e_end0:
b_end0: .word 0x1400000000000000    # endloop, nothing active
e_end1: loop s2
          nop
        endloop
b_end1: .word 0x1400000000000000    # endloop after the loop popped
e_endj: loop s0, @b_endj            # count 0: jumps, pushes nothing
        halt
b_endj: endloop                     # (closes the explicit loop for the assembler)
e_one:  loop s9
          .word 0x1400000000000000  # tile 1: pops its own level ...
b_one:    .word 0x1400000000000000  # ... then this one has none
        endloop
        halt
good:   li s4, 0
        li s10, 0
        agen a0, 4, s10, s0
        loop s2
          loop s3
            loop s2
              loop s2
                addi s4, s4, 1
              endloop
            endloop
          endloop
        endloop
        sst s4, a0                  # 24 iterations
        halt
