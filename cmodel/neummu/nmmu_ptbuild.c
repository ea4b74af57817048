/* nmmu_ptbuild.c -- NeuMMU golden model: the page-table builder nmmu_build (the engine of
 * sw/neummu/nmmu_ptgen): the tables of a checked layout in a memory image, frames contiguous or
 * scattered by a seeded permutation.  Rules in neummu.h. */
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "nmmu_int.h"

void nmmu_build_cfg_init(nmmu_build_cfg_t *c) {
  memset(c, 0, sizeof(*c));
  c->pt_base = 0x1000;
  c->data_base = 1ull << 40;
  c->page = -1;
  c->scatter = 0;
  c->seed = 1;
}

/* Frame index table: identity, or a Fisher-Yates permutation. */
static uint32_t *frame_perm(uint64_t n, int scatter, cutil_rng_t *rng) {
  uint32_t *p = malloc((n ? n : 1) * sizeof(uint32_t));
  if (!p) return NULL;
  for (uint64_t i = 0; i < n; i++) p[i] = (uint32_t)i;
  if (scatter)
    for (uint64_t i = n; i > 1; i--) {
      uint64_t j = cutil_rng_uniform(rng, i);
      uint32_t t = p[i - 1];
      p[i - 1] = p[j];
      p[j] = t;
    }
  return p;
}

typedef struct {
  nmmu_mem_t *m;
  uint64_t next_table;
  uint64_t tables;
  char *err;
  size_t errlen;
} bstate_t;

/* Entry address at `level` for va, creating missing intermediate tables (P|W|U) on the way. */
static int entry_for(bstate_t *b, uint64_t va, int level, uint64_t *entry_pa) {
  uint64_t t = b->m->root;
  for (int lv = 4;; lv--) {
    uint64_t e = t + 8ull * ((va >> (12 + 9 * (lv - 1))) & 511);
    if (lv == level) {
      *entry_pa = e;
      return 0;
    }
    uint64_t v = nmmu_mem_read(b->m, e);
    if (!(v & NMMU_PTE_P)) {
      if (b->next_table >= PA_LIMIT) {
        cutil_seterr(b->err, b->errlen, "page tables reach 2^52 (lower --pt-base)");
        return -1;
      }
      v = b->next_table | NMMU_PTE_P | NMMU_PTE_W | NMMU_PTE_U;
      b->next_table += SZ_4K;
      b->tables++;
      nmmu_mem_write(b->m, e, v);
    } else if (v & NMMU_PTE_PS) { /* cannot happen for a checked layout */
      cutil_seterr(b->err, b->errlen, "internal: va 0x%llx lies under a 2 MB page",
                   (unsigned long long)va);
      return -1;
    }
    t = v & NMMU_PTE_FRAME;
  }
}

int nmmu_build(nmmu_mem_t *m, const nmmu_layout_t *l, const nmmu_build_cfg_t *c,
               nmmu_build_stats_t *st, char *err, size_t errlen) {
  nmmu_build_stats_t s;
  memset(&s, 0, sizeof s);
  if (st) *st = s;
  if ((c->pt_base & (SZ_4K - 1)) || c->pt_base >= PA_LIMIT) {
    cutil_seterr(err, errlen, "page-table base 0x%llx is not a 4 KB aligned address below 2^52",
                 (unsigned long long)c->pt_base);
    return -1;
  }
  if ((c->data_base & (SZ_4K - 1)) || c->data_base >= PA_LIMIT) {
    cutil_seterr(err, errlen, "data base 0x%llx is not a 4 KB aligned address below 2^52",
                 (unsigned long long)c->data_base);
    return -1;
  }
  if (c->page < -1 || c->page > 1) {
    cutil_seterr(err, errlen, "bad page override %d", c->page);
    return -1;
  }
  if (l->nsegs == 0) {
    cutil_seterr(err, errlen, "layout has no segment");
    return -1;
  }
  /* the layout as built: page override applied, segments and holes in VA order */
  nmmu_layout_t lb = *l;
  lb.segs = malloc(l->nsegs * sizeof(nmmu_seg_t));
  lb.holes = malloc((l->nholes ? l->nholes : 1) * sizeof(nmmu_hole_t));
  const nmmu_seg_t **v = NULL;
  uint32_t *perm4 = NULL, *perm2 = NULL;
  int rc = -1;
  if (!lb.segs || !lb.holes) {
    cutil_seterr(err, errlen, "out of memory");
    goto out;
  }
  memcpy(lb.segs, l->segs, l->nsegs * sizeof(nmmu_seg_t));
  if (l->nholes) memcpy(lb.holes, l->holes, l->nholes * sizeof(nmmu_hole_t));
  if (c->page >= 0)
    for (size_t i = 0; i < lb.nsegs; i++) lb.segs[i].page_2m = c->page;
  if (nmmu_layout_check(&lb, err, errlen) < 0) goto out;
  qsort(lb.holes, lb.nholes, sizeof(nmmu_hole_t), nmmu_cmp_hole);
  v = nmmu_sorted_segs(&lb);
  if (!v) {
    cutil_seterr(err, errlen, "out of memory");
    goto out;
  }
  /* pass 0 counts the pages (holes may overlap one another), pass 1 builds */
  for (int pass = 0; pass < 2; pass++) {
    size_t hp = 0;
    uint64_t k4 = 0, k2 = 0;
    bstate_t b = {m, 0, 0, err, errlen};
    uint64_t d2 = 0, d4 = 0;
    if (pass == 1) {
      uint64_t total = s.pages_4k + s.pages_2m;
      if (total > NMMU_BUILD_MAX_PAGES) {
        cutil_seterr(err, errlen, "layout maps %llu pages; the limit is %llu",
                     (unsigned long long)total, (unsigned long long)NMMU_BUILD_MAX_PAGES);
        goto out;
      }
      d2 = s.pages_2m ? (c->data_base + SZ_2M - 1) & ~(SZ_2M - 1) : c->data_base;
      d4 = d2 + s.pages_2m * SZ_2M;
      s.data_lo = d2;
      s.data_end = d4 + s.pages_4k * SZ_4K;
      if (s.data_end > PA_LIMIT) {
        cutil_seterr(err, errlen, "data frames 0x%llx..0x%llx reach 2^52 (lower --data-base)",
                     (unsigned long long)s.data_lo, (unsigned long long)s.data_end);
        goto out;
      }
      cutil_rng_t rng = cutil_rng_seed(c->seed);
      perm2 = frame_perm(s.pages_2m, c->scatter, &rng);
      perm4 = frame_perm(s.pages_4k, c->scatter, &rng);
      if (!perm2 || !perm4) {
        cutil_seterr(err, errlen, "out of memory");
        goto out;
      }
      nmmu_mem_set_root(m, c->pt_base);
      b.next_table = c->pt_base + SZ_4K;
      b.tables = 1;
    }
    for (size_t i = 0; i < lb.nsegs; i++) {
      const nmmu_seg_t *sg = v[i];
      uint64_t ps = nmmu_page_size(sg->page_2m), span = nmmu_seg_span(sg);
      for (uint64_t off = 0; off < span; off += ps) {
        uint64_t va = sg->va + off;
        while (hp < lb.nholes && lb.holes[hp].va + lb.holes[hp].bytes <= va) hp++;
        if (hp < lb.nholes && lb.holes[hp].va <= va) { /* skip to the hole's end at once */
          uint64_t hend = lb.holes[hp].va + lb.holes[hp].bytes, send = sg->va + span;
          uint64_t end = hend < send ? hend : send;
          if (pass == 0) s.hole_pages += (end - va) / ps;
          off = end - sg->va - ps;
          continue;
        }
        if (pass == 0) {
          if (sg->page_2m) s.pages_2m++;
          else s.pages_4k++;
          if (s.pages_2m + s.pages_4k > NMMU_BUILD_MAX_PAGES) break;
          continue;
        }
        uint64_t pa =
            sg->page_2m ? d2 + (uint64_t)perm2[k2++] * SZ_2M : d4 + (uint64_t)perm4[k4++] * SZ_4K;
        uint64_t e;
        if (entry_for(&b, va, sg->page_2m ? 2 : 1, &e) < 0) goto out;
        uint64_t pte = pa | NMMU_PTE_P | NMMU_PTE_U | (sg->read_only ? 0 : NMMU_PTE_W) |
                       (sg->page_2m ? NMMU_PTE_PS : 0);
        nmmu_mem_write(m, e, pte);
        if (c->on_map) c->on_map(c->ctx, va, pa, sg->page_2m, sg->read_only);
      }
      if (pass == 0 && s.pages_2m + s.pages_4k > NMMU_BUILD_MAX_PAGES) break;
    }
    if (pass == 1) {
      s.table_pages = b.tables;
      s.root = c->pt_base;
      s.pt_end = b.next_table;
    }
  }
  if (s.pages_4k + s.pages_2m && s.root < s.data_end && s.data_lo < s.pt_end) {
    cutil_seterr(err, errlen,
                 "page tables 0x%llx..0x%llx overlap data frames 0x%llx..0x%llx (move --pt-base or "
                 "--data-base)",
                 (unsigned long long)s.root, (unsigned long long)s.pt_end,
                 (unsigned long long)s.data_lo, (unsigned long long)s.data_end);
    goto out;
  }
  rc = 0;
out:
  if (st) *st = s;
  free(perm2);
  free(perm4);
  free(v);
  free(lb.segs);
  free(lb.holes);
  return rc;
}
