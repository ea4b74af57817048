/* nmmu_ptw.c -- NeuMMU golden model: the x86-64 4-level page-table walk, the clock-free
 * reference of rtl/neummu/nmmu_ptw.v (and so of every NeuMMU response: pa and status).  One
 * 8-byte entry read per level from the sparse memory; the fault rules are in neummu.h. */
#include "nmmu_int.h"

nmmu_xlat_t nmmu_translate(const nmmu_mem_t *m, uint64_t va, int is_write) {
  nmmu_xlat_t r = {0, NMMU_ST_NOT_PRESENT, 0, 0, 0, 0};
  va &= VA_LIMIT - 1;
  uint64_t table = m->root, pa = 0;
  int w = 1, u = 1;
  for (int level = 4; level >= 1; level--) {
    unsigned idx = (unsigned)(va >> (12 + 9 * (level - 1))) & 511u;
    uint64_t e = nmmu_mem_read(m, table + 8ull * idx);
    r.levels++;
    if (!(e & NMMU_PTE_P)) return r;
    if ((e & NMMU_PTE_PS) && level >= 3) return r; /* 1 GB and larger pages: not supported */
    w &= (e & NMMU_PTE_W) != 0;
    u &= (e & NMMU_PTE_U) != 0;
    if (level == 2 && (e & NMMU_PTE_PS)) {
      r.page_2m = 1;
      pa = (e & NMMU_PTE_FRAME_2M) | (va & (SZ_2M - 1));
      break;
    }
    if (level == 1) { /* bit 7 of an L1 entry is PAT: ignored like the other attribute bits */
      pa = (e & NMMU_PTE_FRAME) | (va & (SZ_4K - 1));
      break;
    }
    table = e & NMMU_PTE_FRAME;
  }
  r.writable = w;
  r.user = u;
  if (!u || (is_write && !w)) {
    r.status = NMMU_ST_PERM;
  } else {
    r.status = NMMU_ST_OK;
    r.pa = pa;
  }
  return r;
}
