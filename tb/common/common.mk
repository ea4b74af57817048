# Harnesses of the shared cells in rtl/common (see rtl/common/README.md).
# $(eval $(call HARNESS,<name>,<top module>,<harness .cpp>,<verilator -G flags>))
#
# $(call cc_params,Width=8 Depth=3) gives the -G overrides for the RTL and the matching
# -DTB_Width=8 -DTB_Depth=3 for the harness, so a configuration is written down only once.
cc_params = $(foreach p,$(1),-G$(p) -CFLAGS -DTB_$(p))

$(eval $(call HARNESS,cc_fifo_d1,cc_fifo,tb/common/tb_cc_fifo.cpp, \
    $(call cc_params,Width=8 Depth=1 FallThrough=0)))
$(eval $(call HARNESS,cc_fifo_d3,cc_fifo,tb/common/tb_cc_fifo.cpp, \
    $(call cc_params,Width=8 Depth=3 FallThrough=0)))
$(eval $(call HARNESS,cc_fifo_d4_ft,cc_fifo,tb/common/tb_cc_fifo.cpp, \
    $(call cc_params,Width=16 Depth=4 FallThrough=1)))

# The SRAM FIFO harness includes the flop FIFO harness source.
$(eval $(call HARNESS,cc_fifo_sram_d5,cc_fifo_sram,tb/common/tb_cc_fifo_sram.cpp, \
    $(call cc_params,Width=12 Depth=5)))
$(eval $(call HARNESS,cc_fifo_sram_d16,cc_fifo_sram,tb/common/tb_cc_fifo_sram.cpp, \
    $(call cc_params,Width=32 Depth=16)))
$(BUILD)/tb/cc_fifo_sram_d5/cc_fifo_sram_d5 \
  $(BUILD)/tb/cc_fifo_sram_d16/cc_fifo_sram_d16: tb/common/tb_cc_fifo.cpp

$(eval $(call HARNESS,cc_skid_buffer,cc_skid_buffer,tb/common/tb_cc_skid_buffer.cpp, \
    $(call cc_params,Width=8)))

$(eval $(call HARNESS,cc_rr_arbiter_n1,cc_rr_arbiter,tb/common/tb_cc_rr_arbiter.cpp, \
    $(call cc_params,N=1)))
$(eval $(call HARNESS,cc_rr_arbiter_n3,cc_rr_arbiter,tb/common/tb_cc_rr_arbiter.cpp, \
    $(call cc_params,N=3)))
$(eval $(call HARNESS,cc_rr_arbiter_n8,cc_rr_arbiter,tb/common/tb_cc_rr_arbiter.cpp, \
    $(call cc_params,N=8)))

$(eval $(call HARNESS,cc_sram_1r1w,cc_sram_1r1w,tb/common/tb_cc_sram_1r1w.cpp, \
    $(call cc_params,Width=8 Depth=16)))

$(eval $(call HARNESS,cc_cam,cc_cam,tb/common/tb_cc_cam.cpp, \
    $(call cc_params,KeyWidth=16 Entries=8)))

$(eval $(call HARNESS,cc_lzc_w1,cc_lzc,tb/common/tb_cc_lzc.cpp,$(call cc_params,Width=1)))
$(eval $(call HARNESS,cc_lzc_w5,cc_lzc,tb/common/tb_cc_lzc.cpp,$(call cc_params,Width=5)))
$(eval $(call HARNESS,cc_lzc_w16,cc_lzc,tb/common/tb_cc_lzc.cpp,$(call cc_params,Width=16)))
$(eval $(call HARNESS,cc_lzc_w32,cc_lzc,tb/common/tb_cc_lzc.cpp,$(call cc_params,Width=32)))
