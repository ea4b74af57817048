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
