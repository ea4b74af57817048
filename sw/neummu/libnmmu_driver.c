/* libnmmu_driver.c -- driver of neummu_axi (nmmu_driver.h). */
#include "nmmu_driver.h"

#include <stdlib.h>

#include "neummu_regs.h"

_Static_assert(NEUMMU__CTRL_OFFSET == ACCEL_SHELL_CTRL, "shell map");
_Static_assert(NEUMMU__WR_BURSTS_OFFSET == ACCEL_SHELL_WR_BURSTS, "shell map");
_Static_assert(NEUMMU__ID__BLOCK_reset == NMMU_DRV_BLOCK_ID, "block id");

int nmmu_drv_open(nmmu_dev_t *d, accel_bus *bus, unsigned window) {
  uint32_t hw;
  int rc;
  d->bus = bus;
  d->window = window ? window : 1;
  if ((rc = accel_shell_probe(bus, NMMU_DRV_BLOCK_ID)) != 0) return rc;
  if (bus->read32(bus->ctx, NEUMMU__HWCFG_OFFSET, &hw) != 0) return ACCEL_E_BUS;
  d->walkers = (hw & NEUMMU__HWCFG__WALKERS_bm) >> NEUMMU__HWCFG__WALKERS_bp;
  d->slots = (hw & NEUMMU__HWCFG__SLOTS_bm) >> NEUMMU__HWCFG__SLOTS_bp;
  d->tlb_entries = (hw & NEUMMU__HWCFG__TLB_ENTRIES_bm) >> NEUMMU__HWCFG__TLB_ENTRIES_bp;
  return 0;
}

typedef struct {
  accel_bus *bus;
  int bad;
  uint64_t *pages; /* table pages (4 KB frames) of the image, while they are collected */
  size_t n, cap;
} load_ctx_t;

static void note_page(void *ctx, uint64_t pa, uint64_t val) {
  load_ctx_t *c = (load_ctx_t *)ctx;
  (void)val;
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 256;
    uint64_t *p = (uint64_t *)realloc(c->pages, cap * sizeof *p);
    if (!p) {
      c->bad = 1;
      return;
    }
    c->pages = p;
    c->cap = cap;
  }
  c->pages[c->n++] = pa >> NMMU_PAGE_SHIFT;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void load_word(void *ctx, uint64_t pa, uint64_t val) {
  load_ctx_t *c = (load_ctx_t *)ctx;
  if (c->bus->mem_write(c->bus->ctx, pa, &val, sizeof val) != 0) c->bad = 1;
}

/* Table pages are zeroed first (the image lists nonzero words only; device memory may hold an
 * older table there), then every nonzero word is written. */
int nmmu_drv_load_tables(nmmu_dev_t *d, const nmmu_mem_t *img) {
  load_ctx_t c = {d->bus, 0, NULL, 0, 0};
  static const uint8_t zero[1u << NMMU_PAGE_SHIFT];
  nmmu_mem_foreach(img, note_page, &c);
  if (c.n) qsort(c.pages, c.n, sizeof *c.pages, cmp_u64);
  for (size_t i = 0; i < c.n && !c.bad; i++)
    if ((i == 0 || c.pages[i] != c.pages[i - 1]) &&
        d->bus->mem_write(d->bus->ctx, c.pages[i] << NMMU_PAGE_SHIFT, zero, sizeof zero) != 0)
      c.bad = 1;
  free(c.pages);
  if (!c.bad) nmmu_mem_foreach(img, load_word, &c);
  return c.bad ? ACCEL_E_BUS : 0;
}

int nmmu_drv_config(nmmu_dev_t *d, uint64_t root_pa, unsigned walkers, unsigned slots, int tpreg) {
  accel_bus *b = d->bus;
  uint64_t ppn = root_pa >> NMMU_PAGE_SHIFT;
  uint32_t cfg = ((walkers << NEUMMU__CFG__WALKERS_bp) & NEUMMU__CFG__WALKERS_bm) |
                 ((slots << NEUMMU__CFG__SLOTS_bp) & NEUMMU__CFG__SLOTS_bm) |
                 (tpreg ? NEUMMU__CFG__TPREG_bm : 0u);
  if (b->write32(b->ctx, NEUMMU__CFG_OFFSET, cfg) != 0 ||
      b->write32(b->ctx, NEUMMU__ROOT_PPN_LO_OFFSET, (uint32_t)ppn) != 0 ||
      b->write32(b->ctx, NEUMMU__ROOT_PPN_HI_OFFSET, (uint32_t)(ppn >> 32)) != 0 ||
      b->write32(b->ctx, NEUMMU__INV_OFFSET, NEUMMU__INV__ALL_bm) != 0 ||
      b->write32(b->ctx, NEUMMU__ENABLE_OFFSET, 1u) != 0)
    return ACCEL_E_BUS;
  return 0;
}

#define NMMU_ID_FREE ((size_t)-1)

int nmmu_drv_translate(nmmu_dev_t *d, const uint64_t *va, const uint8_t *is_write, size_t n,
                       uint64_t *pa, uint8_t *status, uint64_t timeout) {
  accel_bus *b = d->bus;
  unsigned ids = d->window;
  /* request index of each ID in flight (NMMU_ID_FREE: none); an ID is reused only once its
   * answer is in (answers come back in any order) */
  size_t *slot = (size_t *)malloc(ids * sizeof(size_t));
  if (!slot) return ACCEL_E_ARG;
  for (unsigned i = 0; i < ids; i++) slot[i] = NMMU_ID_FREE;
  size_t sent = 0, got = 0;
  uint64_t quiet = 0;
  /* START opens the batch: it clears the error status (so the batch's own first error is
   * reported) and arms DONE, which comes when no translation is in flight */
  int rc = accel_job_start(b);
  while (got < n && !rc) {
    while (sent < n && slot[sent % ids] == NMMU_ID_FREE) {
      unsigned id = (unsigned)(sent % ids);
      slot[id] = sent;
      uint64_t data = (va[sent] & 0xFFFFFFFFFFFFull) | ((uint64_t)(is_write[sent] != 0) << 48);
      if (b->stream_send(b->ctx, 0, data, id, 1) != 0) rc = ACCEL_E_BUS;
      sent++;
    }
    uint64_t data;
    unsigned id;
    int last;
    int k = b->stream_recv(b->ctx, 0, &data, &id, &last);
    if (k < 0) {
      rc = ACCEL_E_BUS;
    } else if (k == 0) {
      if (++quiet > timeout) rc = ACCEL_E_TIMEOUT;
      else b->idle(b->ctx, 1);
    } else {
      quiet = 0;
      if (id >= ids || slot[id] == NMMU_ID_FREE) {
        rc = ACCEL_E_BUS;  /* an answer to no request in flight */
        break;
      }
      size_t i = slot[id];
      slot[id] = NMMU_ID_FREE;
      pa[i] = data & 0xFFFFFFFFFFFFFull;
      status[i] = (uint8_t)((data >> 52) & 3u);
      got++;
    }
  }
  free(slot);
  if (rc) return rc;
  /* all answered: DONE is (or is about to be) set */
  return accel_job_wait(b, timeout);
}

int nmmu_drv_stats(nmmu_dev_t *d, nmmu_drv_stats_t *s) {
  accel_bus *b = d->bus;
  if (b->read32(b->ctx, NEUMMU__HITS_OFFSET, &s->hits) != 0 ||
      b->read32(b->ctx, NEUMMU__WALKS_OFFSET, &s->walks) != 0 ||
      b->read32(b->ctx, NEUMMU__MERGES_OFFSET, &s->merges) != 0 ||
      b->read32(b->ctx, NEUMMU__READS_OFFSET, &s->reads) != 0 ||
      b->read32(b->ctx, NEUMMU__TP_L4_OFFSET, &s->tp_l4) != 0 ||
      b->read32(b->ctx, NEUMMU__TP_L3_OFFSET, &s->tp_l3) != 0 ||
      b->read32(b->ctx, NEUMMU__TP_L2_OFFSET, &s->tp_l2) != 0 ||
      b->read32(b->ctx, NEUMMU__FAULTS_OFFSET, &s->faults) != 0)
    return ACCEL_E_BUS;
  return 0;
}

static int rd64(accel_bus *b, uint32_t lo_off, uint64_t *v) {
  uint32_t lo, hi;
  if (b->read32(b->ctx, lo_off, &lo) != 0 || b->read32(b->ctx, lo_off + 4, &hi) != 0)
    return ACCEL_E_BUS;
  *v = ((uint64_t)hi << 32) | lo;
  return 0;
}

int nmmu_drv_acct(nmmu_dev_t *d, nmmu_drv_acct_t *a) {
  accel_bus *b = d->bus;
  if (b->read32(b->ctx, NEUMMU__STALL_RSP_OFFSET, &a->stall_rsp) != 0 ||
      b->read32(b->ctx, NEUMMU__STALL_DOWN_OFFSET, &a->stall_down) != 0 ||
      b->read32(b->ctx, NEUMMU__STALL_PRMB_OFFSET, &a->stall_prmb) != 0 ||
      b->read32(b->ctx, NEUMMU__STALL_WALK_OFFSET, &a->stall_walk) != 0 ||
      b->read32(b->ctx, NEUMMU__DUP_WALKS_OFFSET, &a->dup_walks) != 0 ||
      rd64(b, NEUMMU__LAT_PIPE_LO_OFFSET, &a->lat_pipe) != 0 ||
      rd64(b, NEUMMU__LAT_HOL_LO_OFFSET, &a->lat_hol) != 0 ||
      rd64(b, NEUMMU__LAT_PORT_LO_OFFSET, &a->lat_port) != 0 ||
      rd64(b, NEUMMU__LAT_MEM_LO_OFFSET, &a->lat_mem) != 0 ||
      rd64(b, NEUMMU__LAT_ANS_LO_OFFSET, &a->lat_ans) != 0 ||
      rd64(b, NEUMMU__LAT_OUT_LO_OFFSET, &a->lat_out) != 0)
    return ACCEL_E_BUS;
  return 0;
}
