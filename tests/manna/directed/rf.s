# rfz / rfld / rfst (eMAC register-file moves), directed.
#
# Checks: rfld then rfst move bit patterns unchanged (signalling NaN 0x7F800001, NaN 0xFFFFFFFF,
# -0, the smallest subnormal, -inf); rfz writes +0 (not -0) in every lane; r0 and r7 (the first and
# last registers); the first and last VS lines; rfst back onto the line rfld read (in place) and
# rfld twice into one register (the second wins); a register untouched by rfz keeps its value;
# rfld from a line a pending dma load writes (waits: sees the new line) and rfst onto a line a
# pending dma store reads (waits: VB gets the old line); the register files keep their values
# across START (run 2 stores r3 and r6, loaded in run 1, after the host rewrote their source
# lines), and vmm accumulates onto a register loaded in the previous run.
# Why: the RF is the eMACs' only state; it is not reset by START and not visible to the host, so
# only rfst shows it: a lane swap, a stale write port or a reset on START shows here.
#
# VS line 0: special patterns; lines 1..3 other values; line 15: the last line.
#@ m * vs l0 0x7F800001 0xFFFFFFFF 0x80000000 0x00000001
#@ m * vs l1 1.0f 2.0f 3.0f 4.0f  -inff 0.5f 0.25f 0.125f  5.0f 6.0f 7.0f 8.0f
#@ m * vs l15 -1.0f -2.0f -3.0f -4.0f
#@ m * vb l20 10.0f 20.0f 30.0f 40.0f
#@ m * ms 0 1.0f 1.0f 1.0f 1.0f
#@ s 0 all=DONE
#@ m * vs l2 99.0f*4
#@ m * vs l15 98.0f*4
#@ s run2 all=DONE

        li s1, 1
        li s2, 2
        agen a0, 4, s0, s0          # line 0
        rfld r0, a0
        li s10, 14
        agen a1, 4, s10, s0
        rfst r0, a1                 # 14 = line 0, bit for bit
        li s10, 15
        agen a2, 4, s10, s0
        rfld r7, a2                 # the last line
        li s10, 13
        agen a1, 4, s10, s0
        rfst r7, a1                 # 13 = line 15
        rfz r7
        li s10, 12
        agen a1, 4, s10, s0
        rfst r7, a1                 # 12 = +0 x 4
        agen a3, 4, s1, s0
        rfld r1, a3
        rfld r1, a2                 # the second rfld wins: line 15
        rfst r1, a3                 # 1 = line 15
        rfld r2, a0
        rfst r2, a0                 # in place: line 0 unchanged
        li s10, 2
        agen a4, 4, s10, s0
        rfld r3, a4                 # r3 = line 2 (kept for run 2)
        rfld r6, a2                 # r6 = line 15 (kept for run 2)
        rfz r0
        rfst r1, a4                 # r1 untouched by rfz r0: line 2 = line 15
        # a dma load pending into line 5, then rfld from it; a dma store pending from line 3,
        # then rfst onto it
        li s10, 5
        agen a5, 4, s10, s0
        li s10, 20
        agen a6, 4, s10, s0
        dma a5, a6, s1              # VS 5 <- VB 20
        rfld r4, a5                 # waits: 10, 20, 30, 40
        li s10, 11
        agen a1, 4, s10, s0
        rfst r4, a1
        li s10, 3
        agen a5, 4, s10, s0
        li s10, 30
        agen a6, 4, s10, s0
        dma a5, a6, s1 store        # VB 30 <- VS 3 (old)
        rfst r7, a5                 # waits: line 3 = +0
        halt
run2:   li s10, 10
        agen a1, 4, s10, s0
        rfst r3, a1                 # 10 = line 2 of run 1
        li s10, 9
        agen a1, 4, s10, s0
        rfst r6, a1                 # 9 = line 15 of run 1
        agen a0, 4, s0, s0
        vmm r6, a0, a0, s1          # r6 += MS line 0 * VS[0] (VS[0] is 0x7F800001: NaN)
        li s10, 1
        agen a0, 4, s10, s0
        vmm r3, a0, a0, s1 sq       # r3 += MS line 1 squared (zeros: r3 stays run 1's)
        li s10, 8
        agen a1, 4, s10, s0
        rfst r3, a1
        li s10, 7
        agen a1, 4, s10, s0
        rfst r6, a1
        halt
