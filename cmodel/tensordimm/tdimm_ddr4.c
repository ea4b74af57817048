/* tdimm_ddr4.c -- DDR4-3200 device model and JEDEC timing checker (cmodel/include/tdimm_ddr4.h,
 * docs/tensordimm_ddr4.md).
 *
 * Written from the JEDEC DDR4 rules, independent of the RTL controller and of the golden model:
 * every bank, bank group, rank and the data bus keep the absolute DRAM clock of their last
 * events (NEVER before the first), and each command compares the current clock with them.  A
 * rule compares "now - event >= minimum"; each broken rule is one violation. */
#include "tdimm_ddr4.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NEVER (INT64_MIN / 4) /* "no such event": every comparison with it passes */
#define CHUNK 4096            /* blocks per storage chunk (chunks never move) */
#define MAX_TIMING (1u << 20)

#ifdef __GNUC__
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

enum { CLOSE_INIT = 0, CLOSE_PRE = 1, CLOSE_PREA = 2 };

typedef struct {
  int open;
  unsigned row;          /* open row */
  int64_t t_act, t_pre, t_rd, t_wr;
  int closed_by;         /* CLOSE_*: how the bank became idle (for the row statistics) */
  unsigned closed_row;   /* the row a PRE closed */
  uint64_t cas;          /* RD/WR since the ACT */
} bank_t;

typedef struct {
  bank_t b[TDIMM_DDR4_BANKS]; /* index bg * 4 + bank */
  int64_t act_bg[TDIMM_DDR4_BG], rd_bg[TDIMM_DDR4_BG], wr_bg[TDIMM_DDR4_BG];
  unsigned act_bank[TDIMM_DDR4_BG], rd_bank[TDIMM_DDR4_BG], wr_bank[TDIMM_DDR4_BG];
  int64_t faw[4];   /* the last 4 ACTs of the rank; faw[faw_i] is the oldest */
  unsigned faw_i;
  int64_t t_ref;    /* last REF */
  int64_t ref_base; /* the refresh deadline counts from here (creation or reset) */
  uint64_t refs;    /* REF since ref_base */
  int64_t ref_reported; /* highest requirement already reported as a violation */
} rank_t;

typedef struct {
  int64_t s, e, t; /* bus clocks [s, e); the command's clock */
  unsigned rank;
  int wr;
} burst_t;

typedef struct {
  uint64_t cycle;
  uint32_t data[TDIMM_DDR4_LANES];
} rdq_t;

typedef struct {
  uint64_t key;
  uint32_t data[TDIMM_DDR4_LANES];
} blk_t;

struct tdimm_ddr4 {
  tdimm_ddr4_params_t p;
  unsigned col_lo_w, rank_w;
  uint64_t cycle; /* the core cycle being / next executed */
  int64_t now;    /* the DRAM clock of the command being checked */
  rank_t rk[TDIMM_DDR4_MAX_RANKS];
  int64_t t_rd_any; /* last RD of any rank (RD->WR) */
  unsigned rd_any_rank, rd_any_bg, rd_any_bank;
  unsigned cas_this_cycle;
  /* data bus: the bursts that can still conflict with a future one */
  burst_t *bursts;
  size_t nbursts, cap_bursts;
  /* reads in flight, in order: rq[rq_head .. rq_head + rq_n) */
  rdq_t *rq;
  size_t rq_head, rq_n, rq_cap;
  uint64_t rq_last; /* delivery cycle of the last queued read (0: none) */
  /* sparse storage: blocks in chunks, an open-addressing index (entry = block index + 1) */
  blk_t **chunks;
  size_t nchunks, cap_chunks, nblk;
  uint32_t *idx;
  size_t idx_cap;
  /* counters and violations */
  tdimm_ddr4_stats_t st;
  uint64_t viol_total;
  char msgs[TDIMM_DDR4_MAX_MSGS][TDIMM_DDR4_MSG_LEN];
  char desc[96]; /* the command being checked, for the messages */
};

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "tdimm_ddr4: out of memory\n");
    abort();
  }
  return q;
}

/* ------------------------------------------------------------------ parameters */
void tdimm_ddr4_params_default(tdimm_ddr4_params_t *p, unsigned ranks) {
  memset(p, 0, sizeof *p);
  p->ranks = ranks;
  p->cl = 22;
  p->cwl = 16;
  p->burst = 4;
  p->trcd = 22;
  p->trp = 22;
  p->tras = 52;
  p->trc = 74;
  p->tccd_s = 4;
  p->tccd_l = 8;
  p->trrd_s = 4;
  p->trrd_l = 8;
  p->tfaw = 34;
  p->twr = 24;
  p->twtr_s = 4;
  p->twtr_l = 12;
  p->trtp = 12;
  p->trfc = 560;
  p->trefi = 12480;
  p->trtrs = 2;
  p->phy_rd_lat = 1;
  p->refi_postpone = 8;
}

static int params_ok(const tdimm_ddr4_params_t *p) {
  const unsigned v[] = {p->cl,     p->cwl,    p->burst,  p->trcd,   p->trp,        p->tras,
                        p->trc,    p->tccd_s, p->tccd_l, p->trrd_s, p->trrd_l,     p->tfaw,
                        p->twr,    p->twtr_s, p->twtr_l, p->trtp,   p->trfc,       p->trefi,
                        p->trtrs,  p->phy_rd_lat, p->refi_postpone};
  if (p->ranks != 1 && p->ranks != 2 && p->ranks != 4) return 0;
  if (!p->cl || !p->cwl || !p->burst) return 0;
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    if (v[i] > MAX_TIMING) return 0;
  return 1;
}

/* ------------------------------------------------------------------ mapping (the device's own) */
static uint64_t ddr4_unmap(const tdimm_ddr4_t *d, unsigned rank, unsigned bg, unsigned bank,
                           unsigned row, unsigned col) {
  unsigned w = d->col_lo_w, rw = d->rank_w;
  uint64_t col_lo = col & ((1u << w) - 1), col_hi = (col & (TDIMM_DDR4_COLS - 1)) >> w;
  return col_lo | (uint64_t)(bg & 3) << w | col_hi << (w + 2) | (uint64_t)(bank & 3) << 9 |
         (uint64_t)(rank & (d->p.ranks - 1)) << 11 | (uint64_t)(row & (TDIMM_DDR4_ROWS - 1)) << (11 + rw);
}

static void ddr4_map(const tdimm_ddr4_t *d, uint64_t blk, tdimm_ddr4_coord_t *c) {
  unsigned w = d->col_lo_w, rw = d->rank_w;
  c->col = (unsigned)(blk & ((1u << w) - 1));
  blk >>= w;
  c->bg = (unsigned)(blk & 3);
  blk >>= 2;
  c->col |= (unsigned)(blk & ((1u << (7 - w)) - 1)) << w;
  blk >>= 7 - w;
  c->bank = (unsigned)(blk & 3);
  blk >>= 2;
  c->rank = (unsigned)(blk & ((1u << rw) - 1));
  blk >>= rw;
  c->row = (unsigned)blk;
}

uint64_t tdimm_ddr4_capacity(const tdimm_ddr4_t *d) { return (uint64_t)1 << (27 + d->rank_w); }

int tdimm_ddr4_coord(const tdimm_ddr4_t *d, uint64_t local_block, tdimm_ddr4_coord_t *c) {
  if (local_block >= tdimm_ddr4_capacity(d)) return -1;
  ddr4_map(d, local_block, c);
  return 0;
}

uint64_t tdimm_ddr4_local_block(const tdimm_ddr4_t *d, const tdimm_ddr4_coord_t *c) {
  return ddr4_unmap(d, c->rank, c->bg, c->bank, c->row, c->col);
}

/* ------------------------------------------------------------------ sparse storage */
static uint64_t hash64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static blk_t *blk_at(const tdimm_ddr4_t *d, size_t i) { return &d->chunks[i / CHUNK][i % CHUNK]; }

static const blk_t *store_find(const tdimm_ddr4_t *d, uint64_t key) {
  if (!d->idx_cap) return NULL;
  for (size_t h = hash64(key) & (d->idx_cap - 1);; h = (h + 1) & (d->idx_cap - 1)) {
    uint32_t e = d->idx[h];
    if (!e) return NULL;
    if (blk_at(d, e - 1)->key == key) return blk_at(d, e - 1);
  }
}

static void idx_put(tdimm_ddr4_t *d, uint64_t key, uint32_t entry) {
  size_t h = hash64(key) & (d->idx_cap - 1);
  while (d->idx[h]) h = (h + 1) & (d->idx_cap - 1);
  d->idx[h] = entry;
}

static uint32_t *store_get(tdimm_ddr4_t *d, uint64_t key) {
  const blk_t *f = store_find(d, key);
  if (f) return (uint32_t *)f->data;
  if (2 * (d->nblk + 1) > d->idx_cap) { /* grow the index to keep the load at most 1/2 */
    size_t cap = d->idx_cap ? 2 * d->idx_cap : 1024;
    free(d->idx);
    d->idx = xrealloc(NULL, cap * sizeof *d->idx);
    memset(d->idx, 0, cap * sizeof *d->idx);
    d->idx_cap = cap;
    for (size_t i = 0; i < d->nblk; i++) idx_put(d, blk_at(d, i)->key, (uint32_t)(i + 1));
  }
  if (d->nblk == d->nchunks * CHUNK) {
    if (d->nchunks == d->cap_chunks) {
      d->cap_chunks = d->cap_chunks ? 2 * d->cap_chunks : 16;
      d->chunks = xrealloc(d->chunks, d->cap_chunks * sizeof *d->chunks);
    }
    d->chunks[d->nchunks++] = xrealloc(NULL, CHUNK * sizeof(blk_t));
  }
  blk_t *b = blk_at(d, d->nblk);
  b->key = key;
  memset(b->data, 0, sizeof b->data);
  d->nblk++;
  idx_put(d, key, (uint32_t)d->nblk);
  return b->data;
}

uint32_t *tdimm_ddr4_block(tdimm_ddr4_t *d, uint64_t local_block) {
  if (local_block >= tdimm_ddr4_capacity(d)) return NULL;
  return store_get(d, local_block);
}

const uint32_t *tdimm_ddr4_peek(const tdimm_ddr4_t *d, uint64_t local_block) {
  const blk_t *b = store_find(d, local_block);
  return b ? b->data : NULL;
}

void tdimm_ddr4_foreach(const tdimm_ddr4_t *d,
                        void (*fn)(void *ctx, uint64_t blk, const uint32_t *data), void *ctx) {
  for (size_t i = 0; i < d->nblk; i++) fn(ctx, blk_at(d, i)->key, blk_at(d, i)->data);
}

/* ------------------------------------------------------------------ life cycle */
static void history_clear(tdimm_ddr4_t *d) {
  for (unsigned r = 0; r < TDIMM_DDR4_MAX_RANKS; r++) {
    rank_t *R = &d->rk[r];
    memset(R, 0, sizeof *R);
    for (unsigned i = 0; i < TDIMM_DDR4_BANKS; i++) {
      bank_t *B = &R->b[i];
      B->t_act = B->t_pre = B->t_rd = B->t_wr = NEVER;
      B->closed_by = CLOSE_INIT;
    }
    for (unsigned g = 0; g < TDIMM_DDR4_BG; g++) R->act_bg[g] = R->rd_bg[g] = R->wr_bg[g] = NEVER;
    for (unsigned i = 0; i < 4; i++) R->faw[i] = NEVER;
    R->t_ref = NEVER;
    R->ref_base = (int64_t)(4 * d->cycle);
  }
  d->t_rd_any = NEVER;
  d->nbursts = 0;
  d->rq_head = d->rq_n = 0;
  d->rq_last = 0;
  d->cas_this_cycle = 0;
}

tdimm_ddr4_t *tdimm_ddr4_new(const tdimm_ddr4_params_t *p, unsigned col_lo_w) {
  if (!p || !params_ok(p) || col_lo_w > 7) return NULL;
  tdimm_ddr4_t *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->p = *p;
  d->col_lo_w = col_lo_w;
  d->rank_w = p->ranks == 4 ? 2 : p->ranks == 2 ? 1 : 0;
  history_clear(d);
  return d;
}

void tdimm_ddr4_free(tdimm_ddr4_t *d) {
  if (!d) return;
  for (size_t i = 0; i < d->nchunks; i++) free(d->chunks[i]);
  free(d->chunks);
  free(d->idx);
  free(d->bursts);
  free(d->rq);
  free(d);
}

const tdimm_ddr4_params_t *tdimm_ddr4_params(const tdimm_ddr4_t *d) { return &d->p; }
uint64_t tdimm_ddr4_now(const tdimm_ddr4_t *d) { return d->cycle; }
void tdimm_ddr4_reset(tdimm_ddr4_t *d) { history_clear(d); }

/* ------------------------------------------------------------------ violations */
static void PRINTF_LIKE(2, 3) viol(tdimm_ddr4_t *d, const char *fmt, ...) {
  d->viol_total++;
  d->st.violations++;
  if (d->viol_total > TDIMM_DDR4_MAX_MSGS) return;
  char *m = d->msgs[d->viol_total - 1];
  int n = snprintf(m, TDIMM_DDR4_MSG_LEN, "clock %lld: %s: ", (long long)d->now, d->desc);
  if (n < 0 || n >= TDIMM_DDR4_MSG_LEN) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m + n, (size_t)(TDIMM_DDR4_MSG_LEN - n), fmt, ap);
  va_end(ap);
}

/* The rule "now - prev >= min" (prev = NEVER: no such event, passes). `what` names the earlier
 * event. */
static void PRINTF_LIKE(5, 6) chk(tdimm_ddr4_t *d, int64_t prev, int64_t min, const char *rule,
                                  const char *what, ...) {
  if (prev == NEVER || d->now - prev >= min) return;
  char w[80];
  va_list ap;
  va_start(ap, what);
  vsnprintf(w, sizeof w, what, ap);
  va_end(ap);
  viol(d, "%s: %lld < %lld after %s at clock %lld", rule, (long long)(d->now - prev),
       (long long)min, w, (long long)prev);
}

uint64_t tdimm_ddr4_violations(const tdimm_ddr4_t *d) { return d->viol_total; }

const char *tdimm_ddr4_violation_msg(const tdimm_ddr4_t *d, unsigned i) {
  if (i >= TDIMM_DDR4_MAX_MSGS || i >= d->viol_total) return NULL;
  return d->msgs[i];
}

void tdimm_ddr4_print_violations(const tdimm_ddr4_t *d, FILE *f) {
  for (unsigned i = 0; i < TDIMM_DDR4_MAX_MSGS && i < d->viol_total; i++)
    fprintf(f, "%s\n", d->msgs[i]);
  if (d->viol_total > TDIMM_DDR4_MAX_MSGS)
    fprintf(f, "... and %llu more\n", (unsigned long long)(d->viol_total - TDIMM_DDR4_MAX_MSGS));
}

/* ------------------------------------------------------------------ counters */
void tdimm_ddr4_stats(const tdimm_ddr4_t *d, tdimm_ddr4_stats_t *s) { *s = d->st; }
void tdimm_ddr4_stats_clear(tdimm_ddr4_t *d) { memset(&d->st, 0, sizeof d->st); }

/* ------------------------------------------------------------------ reads in flight */
static void rq_push(tdimm_ddr4_t *d, const uint32_t *data) {
  const tdimm_ddr4_params_t *p = &d->p;
  uint64_t due = (uint64_t)(d->now + p->cl + p->burst + 3) / 4 + p->phy_rd_lat;
  if (d->rq_last && due <= d->rq_last) {
    viol(d, "read return collision: core cycle %llu already returns a read; delivered in %llu",
         (unsigned long long)due, (unsigned long long)(d->rq_last + 1));
    due = d->rq_last + 1;
  }
  d->rq_last = due;
  if (d->rq_head + d->rq_n == d->rq_cap) {
    if (d->rq_head) {
      memmove(d->rq, d->rq + d->rq_head, d->rq_n * sizeof *d->rq);
      d->rq_head = 0;
    } else {
      d->rq_cap = d->rq_cap ? 2 * d->rq_cap : 16;
      d->rq = xrealloc(d->rq, d->rq_cap * sizeof *d->rq);
    }
  }
  rdq_t *q = &d->rq[d->rq_head + d->rq_n++];
  q->cycle = due;
  if (data)
    memcpy(q->data, data, sizeof q->data);
  else
    memset(q->data, 0, sizeof q->data);
}

/* ------------------------------------------------------------------ data bus */
static void bus_check(tdimm_ddr4_t *d, unsigned rank, int wr) {
  const tdimm_ddr4_params_t *p = &d->p;
  int64_t s = d->now + (wr ? p->cwl : p->cl), e = s + p->burst;
  /* no later command's burst starts before now + min(CL, CWL): older bursts are done with */
  int64_t horizon = d->now + (p->cl < p->cwl ? p->cl : p->cwl);
  size_t k = 0;
  for (size_t i = 0; i < d->nbursts; i++)
    if (d->bursts[i].e + (int64_t)p->trtrs > horizon) d->bursts[k++] = d->bursts[i];
  d->nbursts = k;
  for (size_t i = 0; i < d->nbursts; i++) {
    const burst_t *b = &d->bursts[i];
    if (s < b->e && b->s < e) {
      viol(d, "bus: burst [%lld, %lld) overlaps the %s burst [%lld, %lld) of rank %u "
              "(%s at clock %lld)",
           (long long)s, (long long)e, b->wr ? "WR" : "RD", (long long)b->s, (long long)b->e,
           b->rank, b->wr ? "WR" : "RD", (long long)b->t);
    } else if (b->rank != rank) {
      int64_t gap = s >= b->e ? s - b->e : b->s - e;
      if (gap < (int64_t)p->trtrs)
        viol(d, "tRTRS: %lld < %u idle bus clocks between the burst [%lld, %lld) and the %s burst "
                "[%lld, %lld) of rank %u (%s at clock %lld)",
             (long long)gap, p->trtrs, (long long)s, (long long)e, b->wr ? "WR" : "RD",
             (long long)b->s, (long long)b->e, b->rank, b->wr ? "WR" : "RD", (long long)b->t);
    }
  }
  if (d->nbursts == d->cap_bursts) {
    d->cap_bursts = d->cap_bursts ? 2 * d->cap_bursts : 16;
    d->bursts = xrealloc(d->bursts, d->cap_bursts * sizeof *d->bursts);
  }
  burst_t *b = &d->bursts[d->nbursts++];
  b->s = s;
  b->e = e;
  b->t = d->now;
  b->rank = rank;
  b->wr = wr;
}

/* ------------------------------------------------------------------ commands */
/* The latest event among the bank groups other than bg (NEVER if none); *which = its group. */
static int64_t other_bg(const int64_t t[TDIMM_DDR4_BG], unsigned bg, unsigned *which) {
  int64_t best = NEVER;
  *which = 0;
  for (unsigned g = 0; g < TDIMM_DDR4_BG; g++)
    if (g != bg && t[g] > best) {
      best = t[g];
      *which = g;
    }
  return best;
}

/* PRE timing of one open bank (PRE, or PREA for each open bank): tRAS, tRTP, tWR. */
static void pre_checks(tdimm_ddr4_t *d, const bank_t *B, int all, unsigned bg, unsigned bank) {
  const tdimm_ddr4_params_t *p = &d->p;
  char w[24] = "";
  if (all) snprintf(w, sizeof w, " bg %u bank %u", bg, bank);
  chk(d, B->t_act, p->tras, "tRAS", "ACT%s", w);
  if (B->t_rd >= B->t_act) chk(d, B->t_rd, p->trtp, "tRTP", "RD%s", w);
  if (B->t_wr >= B->t_act)
    chk(d, B->t_wr, (int64_t)p->cwl + p->burst + p->twr, "tWR", "WR%s", w);
}

static void close_bank(tdimm_ddr4_t *d, bank_t *B, int how) {
  B->open = 0;
  B->t_pre = d->now;
  B->closed_by = how;
  B->closed_row = B->row;
}

static void do_act(tdimm_ddr4_t *d, rank_t *R, unsigned bg, unsigned bank, unsigned row) {
  const tdimm_ddr4_params_t *p = &d->p;
  bank_t *B = &R->b[bg * 4 + bank];
  if (row >= TDIMM_DDR4_ROWS) {
    viol(d, "row %u out of range (%u rows)", row, TDIMM_DDR4_ROWS);
    return;
  }
  if (B->open) {
    viol(d, "ACT to an open bank (row %u open)", B->row);
    return;
  }
  chk(d, R->t_ref, p->trfc, "tRFC", "REF");
  chk(d, B->t_pre, p->trp, "tRP", "%s", B->closed_by == CLOSE_PREA ? "PREA" : "PRE");
  chk(d, B->t_act, p->trc, "tRC", "ACT");
  chk(d, R->act_bg[bg], p->trrd_l, "tRRD_L", "ACT bg %u bank %u", bg, R->act_bank[bg]);
  unsigned og;
  int64_t ot = other_bg(R->act_bg, bg, &og);
  chk(d, ot, p->trrd_s, "tRRD_S", "ACT bg %u bank %u", og, R->act_bank[og]);
  chk(d, R->faw[R->faw_i], p->tfaw, "tFAW", "the 4th previous ACT of the rank");
  /* execute */
  if (B->closed_by == CLOSE_PRE && B->closed_row != row)
    d->st.row_conflicts++;
  else
    d->st.row_misses++;
  B->open = 1;
  B->row = row;
  B->t_act = d->now;
  B->cas = 0;
  R->act_bg[bg] = d->now;
  R->act_bank[bg] = bank;
  R->faw[R->faw_i] = d->now;
  R->faw_i = (R->faw_i + 1) & 3;
}

static void do_cas(tdimm_ddr4_t *d, unsigned rank, unsigned bg, unsigned bank, unsigned col,
                   int wr, const uint32_t *wrdata) {
  const tdimm_ddr4_params_t *p = &d->p;
  rank_t *R = &d->rk[rank];
  bank_t *B = &R->b[bg * 4 + bank];
  const char *nm = wr ? "WR" : "RD";
  if (col >= TDIMM_DDR4_COLS) {
    viol(d, "column %u out of range (%u columns)", col, TDIMM_DDR4_COLS);
    if (!wr) rq_push(d, NULL);
    return;
  }
  if (!B->open) {
    viol(d, "%s to an idle bank", nm);
    if (!wr) rq_push(d, NULL);
    return;
  }
  chk(d, B->t_act, p->trcd, "tRCD", "ACT");
  unsigned og;
  int64_t ot;
  if (!wr) {
    chk(d, R->rd_bg[bg], p->tccd_l, "tCCD_L", "RD bg %u bank %u", bg, R->rd_bank[bg]);
    ot = other_bg(R->rd_bg, bg, &og);
    chk(d, ot, p->tccd_s, "tCCD_S", "RD bg %u bank %u", og, R->rd_bank[og]);
    chk(d, R->wr_bg[bg], (int64_t)p->cwl + p->burst + p->twtr_l, "tWTR_L", "WR bg %u bank %u", bg,
        R->wr_bank[bg]);
    ot = other_bg(R->wr_bg, bg, &og);
    chk(d, ot, (int64_t)p->cwl + p->burst + p->twtr_s, "tWTR_S", "WR bg %u bank %u", og,
        R->wr_bank[og]);
  } else {
    chk(d, R->wr_bg[bg], p->tccd_l, "tCCD_L", "WR bg %u bank %u", bg, R->wr_bank[bg]);
    ot = other_bg(R->wr_bg, bg, &og);
    chk(d, ot, p->tccd_s, "tCCD_S", "WR bg %u bank %u", og, R->wr_bank[og]);
    chk(d, d->t_rd_any, (int64_t)p->cl + p->burst + 2 - p->cwl, "RD->WR",
        "RD rank %u bg %u bank %u", d->rd_any_rank, d->rd_any_bg, d->rd_any_bank);
  }
  bus_check(d, rank, wr);
  /* execute */
  uint64_t blk = ddr4_unmap(d, rank, bg, bank, B->row, col);
  if (wr) {
    uint32_t *m = store_get(d, blk);
    if (wrdata)
      memcpy(m, wrdata, TDIMM_DDR4_LANES * sizeof *m);
    else
      memset(m, 0, TDIMM_DDR4_LANES * sizeof *m);
    B->t_wr = d->now;
    R->wr_bg[bg] = d->now;
    R->wr_bank[bg] = bank;
  } else {
    rq_push(d, tdimm_ddr4_peek(d, blk));
    B->t_rd = d->now;
    R->rd_bg[bg] = d->now;
    R->rd_bank[bg] = bank;
    d->t_rd_any = d->now;
    d->rd_any_rank = rank;
    d->rd_any_bg = bg;
    d->rd_any_bank = bank;
  }
  if (B->cas) d->st.row_hits++;
  B->cas++;
}

static void do_ref(tdimm_ddr4_t *d, rank_t *R) {
  const tdimm_ddr4_params_t *p = &d->p;
  char open[80] = "";
  size_t n = 0;
  int64_t last_pre = NEVER;
  unsigned lp = 0;
  for (unsigned i = 0; i < TDIMM_DDR4_BANKS; i++) {
    if (R->b[i].open && n < sizeof open - 16)
      n += (size_t)snprintf(open + n, sizeof open - n, "%s bg %u bank %u", n ? "," : "", i / 4,
                            i % 4);
    if (R->b[i].t_pre > last_pre) {
      last_pre = R->b[i].t_pre;
      lp = i;
    }
  }
  if (n) {
    viol(d, "REF with open banks:%s", open);
    return;
  }
  chk(d, last_pre, p->trp, "tRP", "%s bg %u bank %u",
      R->b[lp].closed_by == CLOSE_PREA ? "PREA" : "PRE", lp / 4, lp % 4);
  chk(d, R->t_ref, p->trfc, "tRFC", "REF");
  R->t_ref = d->now;
  R->refs++;
}

static void do_cmd(tdimm_ddr4_t *d, uint32_t w, const uint32_t *wrdata) {
  static const char *const names[8] = {"NOP", "ACT", "RD", "WR", "PRE", "PREA", "REF", "cmd 7"};
  unsigned cmd = (w >> TDIMM_DDR4_CMD_SHIFT) & 7, rank = (w >> TDIMM_DDR4_RANK_SHIFT) & 3,
           bg = (w >> TDIMM_DDR4_BG_SHIFT) & 3, bank = (w >> TDIMM_DDR4_BANK_SHIFT) & 3,
           addr = w & TDIMM_DDR4_ADDR_MASK;
  if (cmd == TDIMM_DDR4_NOP) return;
  switch (cmd) {
  case TDIMM_DDR4_ACT:
    snprintf(d->desc, sizeof d->desc, "ACT rank %u bg %u bank %u row %u", rank, bg, bank, addr);
    d->st.act++;
    break;
  case TDIMM_DDR4_RD:
  case TDIMM_DDR4_WR:
    snprintf(d->desc, sizeof d->desc, "%s rank %u bg %u bank %u col %u", names[cmd], rank, bg,
             bank, addr);
    if (cmd == TDIMM_DDR4_RD)
      d->st.rd++;
    else
      d->st.wr++;
    d->st.bus_busy_clocks += d->p.burst;
    if (++d->cas_this_cycle > 1)
      viol(d, "two CAS in one core cycle (one write-data block per cycle)");
    break;
  case TDIMM_DDR4_PRE:
    snprintf(d->desc, sizeof d->desc, "PRE rank %u bg %u bank %u", rank, bg, bank);
    d->st.pre++;
    break;
  case TDIMM_DDR4_PREA:
  case TDIMM_DDR4_REF:
    snprintf(d->desc, sizeof d->desc, "%s rank %u", names[cmd], rank);
    if (cmd == TDIMM_DDR4_PREA)
      d->st.prea++;
    else
      d->st.ref++;
    break;
  default:
    snprintf(d->desc, sizeof d->desc, "cmd 7 (word 0x%07x)", (unsigned)w);
    viol(d, "illegal command");
    return;
  }
  if (rank >= d->p.ranks) {
    viol(d, "rank %u out of range (%u ranks)", rank, d->p.ranks);
    if (cmd == TDIMM_DDR4_RD) rq_push(d, NULL);
    return;
  }
  rank_t *R = &d->rk[rank];
  switch (cmd) {
  case TDIMM_DDR4_ACT:
    do_act(d, R, bg, bank, addr);
    break;
  case TDIMM_DDR4_RD:
  case TDIMM_DDR4_WR:
    do_cas(d, rank, bg, bank, addr, cmd == TDIMM_DDR4_WR, wrdata);
    break;
  case TDIMM_DDR4_PRE: {
    bank_t *B = &R->b[bg * 4 + bank];
    if (!B->open) break; /* PRE to an idle bank: a NOP */
    pre_checks(d, B, 0, bg, bank);
    close_bank(d, B, CLOSE_PRE);
    break;
  }
  case TDIMM_DDR4_PREA:
    for (unsigned i = 0; i < TDIMM_DDR4_BANKS; i++)
      if (R->b[i].open) {
        pre_checks(d, &R->b[i], 1, i / 4, i % 4);
        close_bank(d, &R->b[i], CLOSE_PREA);
      }
    break;
  default:
    do_ref(d, R);
    break;
  }
}

/* The refresh deadline at clock now: each rank has received floor((now - base) / tREFI) -
 * postpone REF commands.  Reported once per REF that falls behind. */
static void refresh_check(tdimm_ddr4_t *d) {
  const tdimm_ddr4_params_t *p = &d->p;
  for (unsigned r = 0; r < p->ranks; r++) {
    rank_t *R = &d->rk[r];
    if (p->trefi) {
      int64_t el = d->now - R->ref_base;
      int64_t need = el / (int64_t)p->trefi - (int64_t)p->refi_postpone;
      if (el >= 0 && need > (int64_t)R->refs && need > R->ref_reported) {
        R->ref_reported = need;
        snprintf(d->desc, sizeof d->desc, "rank %u", r);
        viol(d, "refresh: %llu REF since clock %lld, %lld required (tREFI %u, %u may be postponed)",
             (unsigned long long)R->refs, (long long)R->ref_base, (long long)need, p->trefi,
             p->refi_postpone);
      }
    }
  }
  for (unsigned r = 0; r < p->ranks; r++)
    if (d->rk[r].t_ref != NEVER && d->now - d->rk[r].t_ref < (int64_t)p->trfc) {
      d->st.ref_clocks++;
      break;
    }
}

int tdimm_ddr4_cycle(tdimm_ddr4_t *d, const uint32_t cmd[4], const uint32_t wrdata[16],
                     uint32_t rd_out[16]) {
  d->cas_this_cycle = 0;
  for (unsigned ph = 0; ph < 4; ph++) {
    d->now = (int64_t)(4 * d->cycle + ph);
    if (cmd) do_cmd(d, cmd[ph], wrdata);
    refresh_check(d);
  }
  d->cycle++;
  d->st.cycles++;
  d->st.clocks += 4;
  if (d->rq_n && d->rq[d->rq_head].cycle <= d->cycle) {
    if (rd_out) memcpy(rd_out, d->rq[d->rq_head].data, TDIMM_DDR4_LANES * sizeof *rd_out);
    d->rq_head++;
    if (!--d->rq_n) d->rq_head = 0;
    return 1;
  }
  return 0;
}
