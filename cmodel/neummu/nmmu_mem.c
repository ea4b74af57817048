/* nmmu_mem.c -- NeuMMU golden model: the sparse physical memory image (64-bit words) that
 * holds the page tables, served by the harness on the RTL's page-table read port and walked by
 * nmmu_translate (nmmu_ptw.c).  Layout of the table in nmmu_int.h; rules in neummu.h. */
#include <stdio.h>
#include <stdlib.h>

#include "cutil.h"
#include "nmmu_int.h"

/* splitmix64 finalizer: page-table addresses are very regular */
static size_t hash_pa(uint64_t pa, size_t mask) { return (size_t)cutil_mix64(pa >> 3) & mask; }

static slot_t *alloc_slots(size_t cap) {
  slot_t *s = malloc(cap * sizeof(slot_t));
  if (!s) return NULL;
  for (size_t i = 0; i < cap; i++) s[i].key = EMPTY;
  return s;
}

nmmu_mem_t *nmmu_mem_new(void) {
  nmmu_mem_t *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->cap = 1024;
  m->slots = alloc_slots(m->cap);
  if (!m->slots) {
    free(m);
    return NULL;
  }
  return m;
}

void nmmu_mem_free(nmmu_mem_t *m) {
  if (!m) return;
  free(m->slots);
  free(m);
}

static void die(const char *fmt, uint64_t v) {
  fprintf(stderr, "neummu model: ");
  fprintf(stderr, fmt, (unsigned long long)v);
  fprintf(stderr, "\n");
  abort();
}

uint64_t nmmu_mem_root(const nmmu_mem_t *m) { return m->root; }

void nmmu_mem_set_root(nmmu_mem_t *m, uint64_t root_pa) {
  if ((root_pa & (SZ_4K - 1)) || root_pa >= PA_LIMIT)
    die("root 0x%llx is not a 4 KB aligned address below 2^52", root_pa);
  m->root = root_pa;
}

static const slot_t *find(const nmmu_mem_t *m, uint64_t pa) {
  size_t mask = m->cap - 1;
  for (size_t i = hash_pa(pa, mask);; i = (i + 1) & mask) {
    const slot_t *s = &m->slots[i];
    if (s->key == pa) return s;
    if (s->key == EMPTY) return NULL;
  }
}

uint64_t nmmu_mem_read(const nmmu_mem_t *m, uint64_t pa) {
  if ((pa & 7) || pa >= PA_LIMIT) return 0;
  const slot_t *s = find(m, pa);
  return s ? s->val : 0;
}

/* Doubles the table; 0 or -1 when out of memory (the table is then unchanged). */
static int grow(nmmu_mem_t *m) {
  size_t ncap = m->cap * 2, mask = ncap - 1;
  slot_t *ns = alloc_slots(ncap);
  if (!ns) return -1;
  for (size_t i = 0; i < m->cap; i++) {
    const slot_t *s = &m->slots[i];
    if (s->key == EMPTY) continue;
    size_t j = hash_pa(s->key, mask);
    while (ns[j].key != EMPTY) j = (j + 1) & mask;
    ns[j] = *s;
  }
  free(m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 0;
}

slot_t *nmmu_mem_find_or_add(nmmu_mem_t *m, uint64_t pa, int *existed) {
  if ((m->used + 1) * 10 > m->cap * 7 && grow(m) < 0) return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = hash_pa(pa, mask);; i = (i + 1) & mask) {
    slot_t *s = &m->slots[i];
    if (s->key == pa) {
      *existed = 1;
      return s;
    }
    if (s->key == EMPTY) {
      s->key = pa;
      s->val = 0;
      m->used++;
      *existed = 0;
      return s;
    }
  }
}

void nmmu_mem_set_val(nmmu_mem_t *m, slot_t *s, uint64_t val) {
  if (s->val && !val) m->nonzero--;
  if (!s->val && val) m->nonzero++;
  s->val = val;
}

void nmmu_mem_write(nmmu_mem_t *m, uint64_t pa, uint64_t val) {
  if ((pa & 7) || pa >= PA_LIMIT)
    die("write to 0x%llx: not an 8-byte aligned address below 2^52", pa);
  if (!val) { /* never create a slot for a zero word */
    slot_t *s = (slot_t *)find(m, pa);
    if (s) nmmu_mem_set_val(m, s, 0);
    return;
  }
  int existed;
  slot_t *s = nmmu_mem_find_or_add(m, pa, &existed);
  if (!s) die("out of memory growing the image past %llu words", (uint64_t)m->used);
  nmmu_mem_set_val(m, s, val);
}

size_t nmmu_mem_words(const nmmu_mem_t *m) { return m->nonzero; }

void nmmu_mem_foreach(const nmmu_mem_t *m, void (*fn)(void *ctx, uint64_t pa, uint64_t val),
                      void *ctx) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key != EMPTY && m->slots[i].val) fn(ctx, m->slots[i].key, m->slots[i].val);
}
