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
# Parameter corners: the general LPW path (Q(6,4)), 16 reciprocal segments and an odd power
# sum; rows shorter than one slice (MaxLen < Vec); one lane with the narrowest max (Q(2,6)).
$(eval $(call HARNESS,softermax_gen,softermax,tb/softermax/tb_softermax.cpp,-GVec=4 -GMaxLen=30 -GInWidth=10 -GInFrac=4 -GRecipSegBits=4 -GSumFrac=9 -CFLAGS -DSMX_VEC=4 -CFLAGS -DSMX_MAXLEN=30 -CFLAGS -DSMX_INWIDTH=10 -CFLAGS -DSMX_INFRAC=4 -CFLAGS -DSMX_RECIPSEG=4 -CFLAGS -DSMX_SUMFRAC=9))
$(eval $(call HARNESS,softermax_v8_short,softermax,tb/softermax/tb_softermax.cpp,-GVec=8 -GMaxLen=5 -GRecipSegBits=3 -CFLAGS -DSMX_VEC=8 -CFLAGS -DSMX_MAXLEN=5 -CFLAGS -DSMX_RECIPSEG=3))
$(eval $(call HARNESS,softermax_v1_q26,softermax,tb/softermax/tb_softermax.cpp,-GVec=1 -GMaxLen=6 -GInFrac=6 -CFLAGS -DSMX_VEC=1 -CFLAGS -DSMX_MAXLEN=6 -CFLAGS -DSMX_INFRAC=6))
# fp16 softmax baseline (docs/softermax.md, "fp16 baseline"): the exponential alone (all 65536
# inputs), the top at the paper's width and at a small odd width, and the two units alone.
$(eval $(call HARNESS,softermax_fp16_exp,softermax_fp16_exp,tb/softermax/tb_softermax_fp16_exp.cpp,))
$(eval $(call HARNESS,softermax_fp16_v16,softermax_fp16_baseline,tb/softermax/tb_softermax_fp16.cpp,-GVec=16 -GMaxLen=384 -CFLAGS -DSMX_VEC=16 -CFLAGS -DSMX_MAXLEN=384))
$(eval $(call HARNESS,softermax_fp16_v3,softermax_fp16_baseline,tb/softermax/tb_softermax_fp16.cpp,-GVec=3 -GMaxLen=40 -CFLAGS -DSMX_VEC=3 -CFLAGS -DSMX_MAXLEN=40))
$(eval $(call HARNESS,softermax_fp16_unnormed_v4,softermax_fp16_unnormed,tb/softermax/tb_softermax_fp16_unnormed.cpp,-GVec=4 -GMaxLen=30 -CFLAGS -DSMX_VEC=4 -CFLAGS -DSMX_MAXLEN=30))
$(eval $(call HARNESS,softermax_fp16_norm_v4,softermax_fp16_norm,tb/softermax/tb_softermax_fp16_norm.cpp,-GVec=4 -GMaxLen=30 -CFLAGS -DSMX_VEC=4 -CFLAGS -DSMX_MAXLEN=30))
