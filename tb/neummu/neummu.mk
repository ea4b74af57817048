# Harnesses of the NeuMMU block (docs/neummu.md).
# small: the test configuration of the brief (4 walkers, 4 merge slots, TPreg, 64-entry TLB).
# Random co-simulation against the C model and the directed tests (tb_neummu.cpp).
$(eval $(call HARNESS,neummu_small,neummu,tb/neummu/tb_neummu.cpp,-GWalkers=4 -GSlots=4 -GTpReg=1 -GTlbEntries=64 -GTlbWays=4 -GTlb2M=8 -GTlbLatency=2 -GIdW=8 -CFLAGS -DMMU_WALKERS=4 -CFLAGS -DMMU_SLOTS=4 -CFLAGS -DMMU_IDW=8))
# The baseline IOMMU walker (no PRMB, no TPreg) with the paper's 5-cycle TLB, for the same tests.
$(eval $(call HARNESS,neummu_base,neummu,tb/neummu/tb_neummu.cpp,-GWalkers=8 -GSlots=0 -GTpReg=0 -GTlbEntries=128 -GTlbWays=2 -GTlb2M=4 -GTlbLatency=5 -GIdW=8 -CFLAGS -DMMU_WALKERS=8 -CFLAGS -DMMU_SLOTS=0 -CFLAGS -DMMU_IDW=8 -CFLAGS -DMMU_TPREG=0))
# NPU performance model (tb_neummu_npu.cpp): the paper's TLB (2048 entries, 5 cycles) with 8 and
# 128 walkers of 32 slots; walkers in use, slots in use and TPreg are run-time settings.
$(eval $(call HARNESS,neummu_npu8,neummu,tb/neummu/tb_neummu_npu.cpp,-GWalkers=8 -GSlots=32 -GTpReg=1 -GTlbEntries=2048 -GTlbWays=4 -GTlb2M=32 -GTlbLatency=5 -GIdW=16 -CFLAGS -DMMU_WALKERS=8 -CFLAGS -DMMU_SLOTS=32 -CFLAGS -DMMU_IDW=16))
$(eval $(call HARNESS,neummu_npu128,neummu,tb/neummu/tb_neummu_npu.cpp,-GWalkers=128 -GSlots=32 -GTpReg=1 -GTlbEntries=2048 -GTlbWays=4 -GTlb2M=32 -GTlbLatency=5 -GIdW=16 -CFLAGS -DMMU_WALKERS=128 -CFLAGS -DMMU_SLOTS=32 -CFLAGS -DMMU_IDW=16))
