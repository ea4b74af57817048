# Harnesses of the float units in rtl/common (docs/float.md): one build per format with
# tb/fp/fp_units_top.v as top, and the TestFloat-format vector checker (all formats in one).
FP_TOP := $(CURDIR)/tb/fp/fp_units_top.v
$(eval $(call HARNESS,fp_f16,fp_units_top,tb/fp/tb_fp.cpp, \
    $(FP_TOP) -GExpW=5 -GManW=10 -GX1ExpW=8 -GX1ManW=23 -GX2ExpW=8 -GX2ManW=7 -CFLAGS -DFP_FMT=0))
$(eval $(call HARNESS,fp_bf16,fp_units_top,tb/fp/tb_fp.cpp, \
    $(FP_TOP) -GExpW=8 -GManW=7 -GX1ExpW=8 -GX1ManW=23 -GX2ExpW=5 -GX2ManW=10 -CFLAGS -DFP_FMT=1))
$(eval $(call HARNESS,fp_f32,fp_units_top,tb/fp/tb_fp.cpp, \
    $(FP_TOP) -GExpW=8 -GManW=23 -GX1ExpW=5 -GX1ManW=10 -GX2ExpW=8 -GX2ManW=7 -CFLAGS -DFP_FMT=2))
$(eval $(call HARNESS,fp_vectors,fp_all_top,tb/fp_vectors/fp_vectors.cpp, \
    $(CURDIR)/tb/fp_vectors/fp_all_top.v $(FP_TOP) -CFLAGS -I$(CURDIR)/tb/fp))
$(BUILD)/tb/fp_f16/fp_f16 $(BUILD)/tb/fp_bf16/fp_bf16 $(BUILD)/tb/fp_f32/fp_f32 \
  $(BUILD)/tb/fp_vectors/fp_vectors: tb/fp/fp_units_top.v tb/fp/tb_fp_units.h tb/fp_vectors/fp_all_top.v
