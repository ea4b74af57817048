# A count-0 loop whose end PC (imm32) is 2^16 or more, directed.
#
# Checks: `loop s0, @65541` (imm = 0x00010005) with count 0 jumps to PC 65541, which is beyond
# IMEM (512 words): the tile stops with PC, stopping PC 65541 (the STATUS word carries its low 16
# bits, 5). The instruction at PC 5 (an sst of a marker, then halt) must not run.
# Why: loop's imm is a 32-bit field and the specification (docs/manna.md: "count 0: jump to imm")
# does not limit it to 16 bits; the model keeps a 32-bit PC. A control unit that keeps only the
# low 16 bits of the jump target would run PC 5 instead (DONE, the marker in VS word 0).
#@ s 0 all=PC@65541
#@ s 7 all=DONE

        li s10, 0x7F7F7F7F          # 0
        agen a0, 4, s0, s0          # 1
        loop s0, @65541             # 2: count 0, imm = 0x10005
        halt                        # 3
        halt                        # 4
        sst s10, a0                 # 5: runs only if the jump target were cut to 16 bits
        halt                        # 6
        halt                        # 7: a good run afterwards
