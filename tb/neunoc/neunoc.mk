# Harnesses of the Neu-NoC block (docs/neunoc.md).
# small: the test network -- 3 x 2 mesh of rings of 4 PEs (24 PEs), 2 VCs of 8 flits, packing on.
NOC_SMALL := -GK=4 -GCols=3 -GRows=2 -GV=2 -GDepth=8 -GDataW=16 -GTagW=8 -GCntW=4 -GPack=1 \
  -CFLAGS -DNOC_K=4 -CFLAGS -DNOC_COLS=3 -CFLAGS -DNOC_ROWS=2 -CFLAGS -DNOC_V=2 -CFLAGS -DNOC_DEPTH=8 \
  -CFLAGS -DNOC_DATAW=16 -CFLAGS -DNOC_TAGW=8 -CFLAGS -DNOC_CNTW=4 -CFLAGS -DNOC_PACK=1
$(eval $(call HARNESS,neunoc_small,neunoc,tb/neunoc/tb_neunoc.cpp,$(NOC_SMALL)))
# mesh: the plain 2D mesh from the same router (K = 1), 4 x 4, 4 VCs of 4 flits, no packing.
NOC_MESH := -GK=1 -GCols=4 -GRows=4 -GV=4 -GDepth=4 -GDataW=16 -GTagW=8 -GCntW=4 -GPack=0 \
  -CFLAGS -DNOC_K=1 -CFLAGS -DNOC_COLS=4 -CFLAGS -DNOC_ROWS=4 -CFLAGS -DNOC_V=4 -CFLAGS -DNOC_DEPTH=4 \
  -CFLAGS -DNOC_DATAW=16 -CFLAGS -DNOC_TAGW=8 -CFLAGS -DNOC_CNTW=4 -CFLAGS -DNOC_PACK=0
$(eval $(call HARNESS,neunoc_mesh,neunoc,tb/neunoc/tb_neunoc.cpp,$(NOC_MESH)))

# Benchmark builds (make bench-neunoc only; not part of make test). $(call NOC_FLAGS,K,Cols,Rows,V,Depth,Pack)
NOC_FLAGS = -GK=$(1) -GCols=$(2) -GRows=$(3) -GV=$(4) -GDepth=$(5) -GDataW=16 -GTagW=8 -GCntW=4 -GPack=$(6) \
  -CFLAGS -DNOC_K=$(1) -CFLAGS -DNOC_COLS=$(2) -CFLAGS -DNOC_ROWS=$(3) -CFLAGS -DNOC_V=$(4) \
  -CFLAGS -DNOC_DEPTH=$(5) -CFLAGS -DNOC_DATAW=16 -CFLAGS -DNOC_TAGW=8 -CFLAGS -DNOC_CNTW=4 -CFLAGS -DNOC_PACK=$(6)
# 64 PEs (the paper's Figure 35 system): Neu-NoC rings of 8 on a 4 x 2 mesh, and the 8 x 8 mesh.
# Table 10 sizes: mnist_mlp_1 (Neu-NoC 3 x 3, mesh 6 x 6) and mnist_mlp_2 (4 x 4, mesh 10 x 10).
NOC_BENCH := neunoc_b64:8:4:2:1 neunoc_m64:1:8:8:0 neunoc_b3x3:8:3:3:1 neunoc_m6x6:1:6:6:0 \
             neunoc_b4x4:8:4:4:1 neunoc_m10x10:1:10:10:0
$(foreach b,$(NOC_BENCH),$(eval $(call HARNESS_NOTRACE,$(word 1,$(subst :, ,$(b))),neunoc,tb/neunoc/tb_neunoc.cpp,\
  $(call NOC_FLAGS,$(word 2,$(subst :, ,$(b))),$(word 3,$(subst :, ,$(b))),$(word 4,$(subst :, ,$(b))),4,8,$(word 5,$(subst :, ,$(b)))))))
NOC_BENCH_NAMES := $(foreach b,$(NOC_BENCH),$(word 1,$(subst :, ,$(b))))
bench-neunoc: $(foreach n,$(NOC_BENCH_NAMES),$(BUILD)/tb/$(n)/$(n))
