/* nmmu_int.h -- types and helpers shared by the files of the NeuMMU golden model (private to
 * cmodel/neummu; the public interface is cmodel/include/neummu.h).
 *
 * The model is clock-free, so rtl/neummu's TLB (nmmu_tlb.v), PTS (nmmu_pts.v) and the top's
 * pipeline have no C counterpart: they change when an answer comes, not what it is, and the
 * harness checks every RTL answer (pa, status) against nmmu_translate.  The model's units:
 *   nmmu_mem.c     sparse physical memory image (the page-table memory the harness serves)
 *   nmmu_ptimg.c   image files: reader (nmmu_mem_load) and writer (nmmu_mem_save*)
 *   nmmu_ptw.c     the 4-level walk (nmmu_translate), the reference of rtl/neummu/nmmu_ptw.v
 *   nmmu_layout.c  address-space layouts (seg/hole lines, checks)
 *   nmmu_ptbuild.c page-table builder (nmmu_build, the engine of sw/neummu/nmmu_ptgen)
 */
#ifndef NMMU_INT_H
#define NMMU_INT_H

#include <stddef.h>
#include <stdint.h>

#include "neummu.h"

#define PA_LIMIT (1ull << NMMU_PA_BITS)
#define VA_LIMIT (1ull << NMMU_VA_BITS)
#define SZ_4K 0x1000ull
#define SZ_2M 0x200000ull

/* Longest line of an image file or a layout line (characters, newline excluded). */
#define LINE_MAX_LEN 1024

/* ---- sparse memory (nmmu_mem.c)
 * Open addressing with linear probing over a power-of-two table of (key, value) slots; the key
 * is the word's PA (always < 2^52), EMPTY marks a free slot.  Words written with 0 keep their
 * slot (so a load can detect duplicate addresses); nonzero counts the words a save lists.  The
 * table grows (doubling) above 70% occupancy, so lookups stay a few probes at any size. */
#define EMPTY UINT64_MAX

typedef struct {
  uint64_t key, val;
} slot_t;

struct nmmu_mem {
  slot_t *slots;
  size_t cap; /* power of two */
  size_t used;
  size_t nonzero;
  uint64_t root;
};

/* Slot of pa, created (value 0) when absent; *existed tells which.  NULL when out of memory. */
slot_t *nmmu_mem_find_or_add(nmmu_mem_t *m, uint64_t pa, int *existed);
/* Sets a slot's value, keeping the count of nonzero words. */
void nmmu_mem_set_val(nmmu_mem_t *m, slot_t *s, uint64_t val);

/* ---- layouts (nmmu_layout.c) */
uint64_t nmmu_page_size(int page_2m);
/* Segment pointers sorted by VA (NULL when out of memory). */
const nmmu_seg_t **nmmu_sorted_segs(const nmmu_layout_t *l);
/* qsort order of holes: by VA, then by size. */
int nmmu_cmp_hole(const void *a, const void *b);

#endif
