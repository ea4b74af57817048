# Harnesses of the Softermax block: the top at the paper's two widths, a narrow odd-width
# configuration that exercises partial slices, and a long-row one for power-sum saturation.
$(eval $(call HARNESS,softermax_v16,softermax,tb/softermax/tb_softermax.cpp,-GVec=16 -GMaxLen=384 -CFLAGS -DSMX_VEC=16 -CFLAGS -DSMX_MAXLEN=384))
$(eval $(call HARNESS,softermax_v32,softermax,tb/softermax/tb_softermax.cpp,-GVec=32 -GMaxLen=384 -CFLAGS -DSMX_VEC=32 -CFLAGS -DSMX_MAXLEN=384))
$(eval $(call HARNESS,softermax_v3,softermax,tb/softermax/tb_softermax.cpp,-GVec=3 -GMaxLen=40 -CFLAGS -DSMX_VEC=3 -CFLAGS -DSMX_MAXLEN=40))
$(eval $(call HARNESS,softermax_sat,softermax,tb/softermax/tb_softermax.cpp,-GVec=32 -GMaxLen=1536 -CFLAGS -DSMX_VEC=32 -CFLAGS -DSMX_MAXLEN=1536))
# The two units alone, at their own ports (unit-level C models).
$(eval $(call HARNESS,softermax_unnormed_v16,softermax_unnormed,tb/softermax/tb_softermax_unnormed.cpp,-GVec=16 -GMaxLen=384 -CFLAGS -DSMX_VEC=16 -CFLAGS -DSMX_MAXLEN=384))
$(eval $(call HARNESS,softermax_norm_v16,softermax_norm,tb/softermax/tb_softermax_norm.cpp,-GVec=16 -GMaxLen=384 -CFLAGS -DSMX_VEC=16 -CFLAGS -DSMX_MAXLEN=384))
# A wider power sum than the paper's Q(10,6) (the accuracy knob, docs/softermax.md).
$(eval $(call HARNESS,softermax_v16_sf10,softermax,tb/softermax/tb_softermax.cpp,-GVec=16 -GMaxLen=384 -GSumFrac=10 -CFLAGS -DSMX_VEC=16 -CFLAGS -DSMX_MAXLEN=384 -CFLAGS -DSMX_SUMFRAC=10))
