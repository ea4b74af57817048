# Harnesses of the Softermax block: the top at the paper's two widths, a narrow odd-width
# configuration that exercises partial slices, and a long-row one for power-sum saturation.
$(eval $(call HARNESS,softermax_v16,softermax,tb/softermax/tb_softermax.cpp,-GVec=16 -GMaxLen=384 -CFLAGS -DSMX_VEC=16 -CFLAGS -DSMX_MAXLEN=384))
$(eval $(call HARNESS,softermax_v32,softermax,tb/softermax/tb_softermax.cpp,-GVec=32 -GMaxLen=384 -CFLAGS -DSMX_VEC=32 -CFLAGS -DSMX_MAXLEN=384))
$(eval $(call HARNESS,softermax_v3,softermax,tb/softermax/tb_softermax.cpp,-GVec=3 -GMaxLen=40 -CFLAGS -DSMX_VEC=3 -CFLAGS -DSMX_MAXLEN=40))
$(eval $(call HARNESS,softermax_sat,softermax,tb/softermax/tb_softermax.cpp,-GVec=32 -GMaxLen=1536 -CFLAGS -DSMX_VEC=32 -CFLAGS -DSMX_MAXLEN=1536))
