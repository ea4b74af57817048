/* libmna_rand.c -- random MANNA workloads (the rules: sw/manna/mna_rand.h).
 *
 * How the programs stay valid.  One generator state per program (tg_t) knows the value of every
 * scalar register and address generator at the point being written (or that it is unknown:
 * after `sld`, or an `addi` of an unknown register).  An operand that needs an address range
 * inside a memory gets an address generator whose value lies in [0, maxv] for every index of
 * the loop level it follows (reused when one fits, else set by `agen` from registers that hold
 * the base and stride, loaded by `li` when no register holds them); a count gets a register that
 * holds a value in range.  A loop body may run several times, so each open loop level records
 * which registers and generators the body has read as control values; a later write in that body
 * must leave them unchanged (else it picks another register).  The state after a loop of count
 * >= 1 is the state at the end of its body (every iteration does the same writes); after a loop
 * of count 0 the state at the loop (the body never ran).
 *
 * Per-tile programs are written in lockstep from one "skeleton" stream (loop openings and counts,
 * body lengths, collectives and their line counts, where errors go) and one stream per tile (the
 * instructions and their operands), so the collectives match in every tile.  With errors, the
 * error tile's program is the shared one with bad slots in place of some slots (sync_state). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna/mna_asm.h"
#include "manna/mna_rand.h"
#include "manna_isa.h"

#define MAX_DEPTH 3        /* loop nesting of valid programs */
#define MAX_LOOP_COUNT 3   /* loop counts 0..3 */
#define MAX_BODY 6         /* slots in a loop body */
#define MAX_CNT 8          /* lines/rows/words of one instruction */
#define SLOT_WORDS 40      /* upper bound of the words one slot writes */
#define DYN_TOTAL 1000000L /* executed instructions, every tile and run together */

/* ---------------------------------------------------------------- output sink */
typedef struct {
  FILE *f;
  char *buf;
  size_t len, cap;
  int bad; /* out of memory or write error */
} sink_t;

static void out(sink_t *s, const char *fmt, ...) CUTIL_PRINTF(2, 3);
static void out(sink_t *s, const char *fmt, ...) {
  if (s->bad) return;
  va_list ap;
  va_start(ap, fmt);
  if (s->f) {
    if (vfprintf(s->f, fmt, ap) < 0) s->bad = 1;
  } else {
    char tmp[256];
    const int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (k < 0 || (size_t)k >= sizeof tmp) {
      s->bad = 1;
    } else {
      if (s->len + (size_t)k + 1 > s->cap) {
        size_t c = s->cap ? s->cap : 1 << 16;
        while (s->len + (size_t)k + 1 > c) c *= 2;
        char *q = realloc(s->buf, c);
        if (!q) {
          s->bad = 1;
          va_end(ap);
          return;
        }
        s->buf = q;
        s->cap = c;
      }
      memcpy(s->buf + s->len, tmp, (size_t)k + 1);
      s->len += (size_t)k;
    }
  }
  va_end(ap);
}

/* ---------------------------------------------------------------- configuration */
void mna_rand_cfg_default(mna_rand_cfg_t *c) {
  c->tiles = 2;
  c->emacs = 4;
  c->mb_lines = 64;
  c->ms_lines = 16;
  c->vb_lines = 16;
  c->vs_lines = 8;
  c->imem_depth = 256;
  c->rf_regs = 4;
}

void mna_rand_opt_default(mna_rand_opt_t *o) {
  o->insns = 200;
  o->errors = 0;
  o->runs = 1;
  o->seed = 1;
  o->fence = 4096;
}

int mna_rand_cfg_check(const mna_rand_cfg_t *c, char *err, size_t errlen) {
  const int t = c->tiles, e = c->emacs;
  if (t != 1 && t != 2 && t != 4 && t != 8 && t != 16)
    return cutil_seterr(err, errlen, "tiles: %d is not 1, 2, 4, 8 or 16", t), -1;
  if (e < 2 || e > 32 || (e & (e - 1)))
    return cutil_seterr(err, errlen, "emacs: %d is not a power of two 2..32", e), -1;
  const struct {
    const char *name;
    int v, even;
  } m[4] = {{"mb", c->mb_lines, 0}, {"ms", c->ms_lines, 1}, {"vb", c->vb_lines, 0}, {"vs", c->vs_lines, 1}};
  for (int k = 0; k < 4; k++) {
    if (m[k].v < 2 || (long)m[k].v * e > (1L << 20))
      return cutil_seterr(err, errlen, "%s: %d lines out of range (2 lines..2^20 words of E = %d)", m[k].name,
                          m[k].v, e), -1;
    if (m[k].even && (m[k].v & 1))
      return cutil_seterr(err, errlen, "%s: %d lines is not even", m[k].name, m[k].v), -1;
  }
  if (c->imem_depth < 64 || c->imem_depth > 65536)
    return cutil_seterr(err, errlen, "imem: %d out of range 64..65536", c->imem_depth), -1;
  if (c->rf_regs < 2 || c->rf_regs > 16)
    return cutil_seterr(err, errlen, "rf: %d out of range 2..16", c->rf_regs), -1;
  return 0;
}

/* ---------------------------------------------------------------- random values */
static long rnd(cutil_rng_t *r, long n) { return n > 0 ? (long)cutil_rng_below(r, (uint64_t)n) : 0; }
static long rnd_in(cutil_rng_t *r, long lo, long hi) { return lo + rnd(r, hi - lo + 1); }
static int chance(cutil_rng_t *r, int pct) { return rnd(r, 100) < pct; }

static uint32_t rand_f32(cutil_rng_t *r) {
  if (rnd(r, 100) == 0) {
    const uint32_t sign = (uint32_t)rnd(r, 2) << 31;
    switch (rnd(r, 8)) {
      case 0: return sign;                                          /* +-0 */
      case 1: return sign | 0x7F800000u;                            /* +-inf */
      case 2: return 0x7FC00000u;                                   /* canonical NaN */
      case 3: return sign | 0x7F800000u | (uint32_t)rnd_in(r, 1, 0x7FFFFF); /* other NaNs */
      case 4:
      case 5: return sign | (uint32_t)rnd_in(r, 1, 0x7FFFFF);       /* subnormal */
      case 6: return sign | (uint32_t)rnd_in(r, 128 + 20, 254) << 23 | (uint32_t)rnd(r, 0x800000); /* large */
      default: return sign | 0x7F7FFFFFu;                           /* largest finite */
    }
  }
  const float f = (float)(cutil_rng_unit(r) * 4.0 - 2.0);
  return cutil_f32_bits(f);
}

/* ---------------------------------------------------------------- generator state */
typedef struct {
  uint32_t base, stride;
  unsigned level;
  int known;
} agen_t;

typedef struct {
  size_t pc;      /* the loop word */
  uint32_t count; /* its count */
  uint16_t sread; /* control reads in the body of values from before the body ("live-in") */
  uint8_t aread;
  uint16_t swrit; /* written in the body so far */
  uint8_t awrit;
  uint16_t osw[MNA_LOOP_LEVELS]; /* the enclosing levels' swrit/awrit at the loop */
  uint8_t oaw[MNA_LOOP_LEVELS];
  uint32_t sval[16]; /* the state at the loop (count 0: restored after it) */
  uint16_t sknown;
  agen_t ag[MNA_AGENS];
} level_t;

typedef struct {
  const mna_rand_cfg_t *c;
  cutil_rng_t rng;
  uint64_t *w;
  size_t n, cap;
  uint32_t sval[16];
  uint16_t sknown;
  agen_t ag[MNA_AGENS];
  int depth;
  level_t lp[MNA_LOOP_LEVELS];
  uint16_t sresv; /* registers and generators in use by the instruction being set up */
  uint8_t aresv;
  double dyn;     /* instructions executed */
  double work;    /* estimated cycles since the last collective */
  double allow;   /* cycles the next instruction may take, once (per-tile programs) */
  int bad_addr;   /* the next address operand is out of range (error injection) */
  int mincount;   /* counts are at least this (1 while injecting an address error) */
  int oom;
} tg_t;

static double mult(const tg_t *g) {
  double m = 1;
  for (int i = 0; i < g->depth; i++) m *= g->lp[i].count;
  return m;
}

static size_t emit(tg_t *g, uint64_t w) {
  if (g->n == g->cap) {
    size_t c = g->cap ? g->cap * 2 : 256;
    uint64_t *q = realloc(g->w, c * sizeof *q);
    if (!q) {
      g->oom = 1;
      return g->n;
    }
    g->w = q;
    g->cap = c;
  }
  g->w[g->n] = w;
  g->dyn += mult(g);
  return g->n++;
}

static void add_work(tg_t *g, double cycles) { g->work += cycles * mult(g); }

static int s_known(const tg_t *g, unsigned r) { return (g->sknown >> r) & 1; }
static uint16_t sread_all(const tg_t *g) {
  uint16_t m = 0;
  for (int i = 0; i < g->depth; i++) m |= g->lp[i].sread;
  return m;
}
static uint8_t aread_all(const tg_t *g) {
  uint8_t m = 0;
  for (int i = 0; i < g->depth; i++) m |= g->lp[i].aread;
  return m;
}
/* A control read (count, address source, loop count): live-in for every open body that has not
 * written the register yet. */
static void read_s(tg_t *g, unsigned r) {
  for (int i = 0; i < g->depth; i++)
    if (!((g->lp[i].swrit >> r) & 1)) g->lp[i].sread |= (uint16_t)(1u << r);
}
static void read_a(tg_t *g, unsigned a) {
  for (int i = 0; i < g->depth; i++)
    if (!((g->lp[i].awrit >> a) & 1)) g->lp[i].aread |= (uint8_t)(1u << a);
}

/* May r be written with (known, v) without changing what an open loop body has read? */
static int can_write_s(const tg_t *g, unsigned r, int known, uint32_t v) {
  if (r == 0) return 1;
  if ((g->sresv >> r) & 1) return 0;
  if (!((sread_all(g) >> r) & 1)) return 1;
  return known && s_known(g, r) && g->sval[r] == v;
}
static void set_s(tg_t *g, unsigned r, int known, uint32_t v) {
  if (r == 0) return;
  for (int i = 0; i < g->depth; i++) g->lp[i].swrit |= (uint16_t)(1u << r);
  g->sval[r] = v;
  if (known) g->sknown |= (uint16_t)(1u << r);
  else g->sknown &= (uint16_t)~(1u << r);
}
static int can_write_a(const tg_t *g, unsigned a, const agen_t *v) {
  if ((g->aresv >> a) & 1) return 0;
  if (!((aread_all(g) >> a) & 1)) return 1;
  const agen_t *o = &g->ag[a];
  return o->known && o->base == v->base && o->stride == v->stride && o->level == v->level;
}

/* A writable scalar register 1..15 for (known, v), or -1. */
static int pick_writable(tg_t *g, int known, uint32_t v) {
  const int start = (int)rnd(&g->rng, 15);
  for (int k = 0; k < 15; k++) {
    const unsigned r = 1 + (unsigned)((start + k) % 15);
    if (can_write_s(g, r, known, v)) return (int)r;
  }
  return -1;
}

/* A register holding exactly v for this instruction (reused or loaded by li), or -1. */
static int reg_value(tg_t *g, uint32_t v) {
  int cand[16], nc = 0;
  for (unsigned r = 0; r < 16; r++)
    if ((r == 0 ? v == 0 : s_known(g, r) && g->sval[r] == v)) cand[nc++] = (int)r;
  int r = -1;
  if (nc && chance(&g->rng, 70)) r = cand[rnd(&g->rng, nc)];
  if (r < 0) {
    r = pick_writable(g, 1, v);
    if (r < 0 && nc) r = cand[rnd(&g->rng, nc)];
    if (r < 0) return -1;
    if (r != 0 && !(s_known(g, (unsigned)r) && g->sval[r] == v)) {
      emit(g, mna_enc(MNA_OP_LI, (unsigned)r, 0, 0, 0, 0, 0, v));
      add_work(g, 8);
      set_s(g, (unsigned)r, 1, v);
    }
  }
  g->sresv |= (uint16_t)(1u << r);
  read_s(g, (unsigned)r);
  return r;
}

/* A register holding a value in [lo, hi] (*v), or -1. */
static int reg_in(tg_t *g, long lo, long hi, uint32_t *v) {
  if (lo > hi || hi < 0) return -1;
  if (lo < 0) lo = 0;
  if (chance(&g->rng, 40)) {
    int cand[16], nc = 0;
    for (unsigned r = 0; r < 16; r++) {
      const long x = r == 0 ? 0 : (long)g->sval[r];
      if ((r == 0 || s_known(g, r)) && x >= lo && x <= hi) cand[nc++] = (int)r;
    }
    if (nc) {
      const int r = cand[rnd(&g->rng, nc)];
      *v = r == 0 ? 0 : g->sval[r];
      g->sresv |= (uint16_t)(1u << r);
      read_s(g, (unsigned)r);
      return r;
    }
  }
  /* small values are more frequent */
  long x = chance(&g->rng, 60) ? rnd_in(&g->rng, lo, lo + (hi - lo) / 2) : rnd_in(&g->rng, lo, hi);
  *v = (uint32_t)x;
  return reg_value(g, *v);
}

/* A count register: a value in [max(lo, mincount), hi]. */
static int reg_count(tg_t *g, long lo, long hi, uint32_t *v) {
  if (lo < g->mincount) lo = g->mincount;
  return reg_in(g, lo, hi, v);
}

/* Is agen a's value inside [0, maxv] for every index of its level at the current depth? */
static int agen_fits(const tg_t *g, unsigned a, long maxv) {
  const agen_t *x = &g->ag[a];
  if (!x->known || maxv < 0) return 0;
  uint32_t n = 1;
  if (x->level < (unsigned)g->depth && g->lp[x->level].count > 1) n = g->lp[x->level].count;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t v = x->base + x->stride * i;
    if ((long)v > maxv) return 0;
  }
  return 1;
}

/* Sets an address generator to (base, stride, level) with li/agen; its index or -1. */
static int set_agen(tg_t *g, uint32_t base, uint32_t stride, unsigned level) {
  const agen_t v = {base, stride, level, 1};
  const int start = (int)rnd(&g->rng, MNA_AGENS);
  int a = -1;
  for (int k = 0; k < MNA_AGENS && a < 0; k++) {
    const unsigned x = (unsigned)(start + k) % MNA_AGENS;
    if (can_write_a(g, x, &v)) a = (int)x;
  }
  if (a < 0) return -1;
  const agen_t *o = &g->ag[a];
  if (!(o->known && o->base == base && o->stride == stride && o->level == level) || chance(&g->rng, 10)) {
    const int rb = reg_value(g, base);
    const int rs = rb < 0 ? -1 : reg_value(g, stride);
    if (rs < 0) return -1;
    emit(g, mna_enc(MNA_OP_AGEN, (unsigned)a, level, (unsigned)rb, (unsigned)rs, 0, 0, 0));
    add_work(g, 8);
    g->ag[a] = v;
    for (int i = 0; i < g->depth; i++) g->lp[i].awrit |= (uint8_t)(1u << a);
  }
  g->aresv |= (uint8_t)(1u << a);
  read_a(g, (unsigned)a);
  return a;
}

/* An address operand whose value stays in [0, maxv] (maxv < 0: impossible), or -1.  any: the
 * instruction's count is 0 (no address check): any generator.  While g->bad_addr, the value is
 * out of range instead (once). */
static int addr(tg_t *g, long maxv, int any) {
  if (g->bad_addr) {
    g->bad_addr = 0;
    uint32_t base;
    const long k = rnd(&g->rng, 10);
    if (k == 0) base = 0x08000000u + (uint32_t)rnd(&g->rng, 0x1000);
    else if (k == 1) base = 0xFFFFFFF0u + (uint32_t)rnd(&g->rng, 16);
    else base = (uint32_t)((maxv < 0 ? 0 : maxv + 1) + rnd(&g->rng, 4));
    return set_agen(g, base, (uint32_t)rnd(&g->rng, 3), (unsigned)rnd_in(&g->rng, 4, 15));
  }
  if (any) {
    const unsigned a = (unsigned)rnd(&g->rng, MNA_AGENS);
    return (int)a;
  }
  if (maxv < 0) return -1;
  if (chance(&g->rng, 50)) {
    int cand[MNA_AGENS], nc = 0;
    for (unsigned a = 0; a < MNA_AGENS; a++)
      if (!((g->aresv >> a) & 1) && agen_fits(g, a, maxv)) cand[nc++] = (int)a;
    if (nc) {
      const int a = cand[rnd(&g->rng, nc)];
      g->aresv |= (uint8_t)(1u << a);
      read_a(g, (unsigned)a);
      return a;
    }
  }
  unsigned level;
  long span = 0;
  if (g->depth > 0 && chance(&g->rng, 55)) {
    level = (unsigned)rnd(&g->rng, g->depth);
    span = g->lp[level].count > 1 ? (long)g->lp[level].count - 1 : 0;
  } else {
    level = (unsigned)rnd_in(&g->rng, g->depth, 15);
  }
  uint32_t stride, base;
  if (span > 0) {
    long smax = maxv / span;
    if (smax > 8 && chance(&g->rng, 80)) smax = 8;
    const long s = rnd_in(&g->rng, -smax, smax);
    const long lo = s < 0 ? -s * span : 0, hi = maxv - (s > 0 ? s * span : 0);
    stride = (uint32_t)(int32_t)s;
    base = (uint32_t)rnd_in(&g->rng, lo, hi);
  } else {
    stride = chance(&g->rng, 50) ? (uint32_t)rnd(&g->rng, 4) : (uint32_t)cutil_rng_next(&g->rng);
    base = (uint32_t)(chance(&g->rng, 50) ? rnd(&g->rng, maxv / 2 + 1) : rnd_in(&g->rng, 0, maxv));
  }
  return set_agen(g, base, stride, level);
}

/* Largest count c <= hi with base + per * c <= the cycles allowed (per-tile programs). */
static long cap_cost(const tg_t *g, long hi, double base, double per) {
  if (g->allow <= 0) return hi;
  const double room = g->allow - base;
  if (room < 0) return -1;
  const double c = room / per; /* compared as a double: allow is 1e30 (no cap) in a loop of 0 */
  return c < (double)hi ? (long)c : hi;
}

static long minl(long a, long b) { return a < b ? a : b; }

/* ---------------------------------------------------------------- instruction kinds */
/* Each writes its set-up, then its own word last; 0, or -1 when it could not (nothing usable). */
static int gen_dmat(tg_t *g) {
  const long E = g->c->emacs, ms = g->c->ms_lines, mb = g->c->mb_lines;
  const unsigned pad = (unsigned)rnd(&g->rng, 2), store = (unsigned)rnd(&g->rng, 2);
  long cmax = minl(MAX_CNT, ms);
  if (pad)
    while (cmax > 0 && ((cmax - 1) * (E + 1) + E - 1) / E > ms - 1) cmax--;
  cmax = cap_cost(g, cmax, 8, (double)E + 4);
  uint32_t C, D;
  const int rc = reg_count(g, 0, cmax, &C);
  if (rc < 0) return -1;
  const long dmax = C > 1 ? minl(4, (mb - 1) / ((long)C - 1)) : 4;
  const int rd = reg_in(g, 0, dmax, &D);
  if (rd < 0) return -1;
  const long off = C == 0 ? 0 : pad ? (((long)C - 1) * (E + 1) + E - 1) / E : (long)C - 1;
  const int a = addr(g, ms - 1 - off, C == 0);
  const int b = a < 0 ? -1 : addr(g, mb - 1 - (C ? ((long)C - 1) * (long)D : 0), C == 0);
  if (b < 0) return -1;
  emit(g, mna_enc(MNA_OP_DMAT, (unsigned)a, (unsigned)b, (unsigned)rc, (unsigned)rd, 0,
                  (pad ? MNA_FL_PAD : 0) | (store ? MNA_FL_STORE : 0), 0));
  add_work(g, 8 + (double)C * ((double)E + 4));
  return 0;
}

static int gen_dma(tg_t *g) {
  const long E = g->c->emacs, vs = g->c->vs_lines, vb = g->c->vb_lines;
  uint32_t C;
  const int rc = reg_count(g, 0, cap_cost(g, minl(MAX_CNT, minl(vs, vb)), 8, (double)E + 4), &C);
  if (rc < 0) return -1;
  const int a = addr(g, vs - (long)C, C == 0);
  const int b = a < 0 ? -1 : addr(g, vb - (long)C, C == 0);
  if (b < 0) return -1;
  emit(g, mna_enc(MNA_OP_DMA, (unsigned)a, (unsigned)b, (unsigned)rc, 0, 0,
                  chance(&g->rng, 50) ? MNA_FL_STORE : 0, 0));
  add_work(g, 8 + (double)C * ((double)E + 4));
  return 0;
}

static int gen_vmm(tg_t *g) {
  const long E = g->c->emacs, ms = g->c->ms_lines, vsw = (long)g->c->vs_lines * E;
  const unsigned r = (unsigned)rnd(&g->rng, g->c->rf_regs);
  int t = chance(&g->rng, 30) && ms - 1 - (E - 1 + (E - 1) / E) >= 0;
  const unsigned sq = chance(&g->rng, 30) ? MNA_FL_SQ : 0;
  uint32_t N;
  int rn;
  long msmax;
  if (t) {
    long nmax = minl(E, vsw);
    while (nmax > 0 && ms - 1 - (E - 1 + (E + nmax - 2) / E) < 0) nmax--;
    rn = reg_count(g, 0, cap_cost(g, nmax, 8 + (double)E, (double)E + 6), &N);
    msmax = ms - 1 - (E - 1 + (E + (long)N - 2) / E);
  } else {
    rn = reg_count(g, 0, cap_cost(g, minl(MAX_CNT, minl(ms, vsw)), 8, 6), &N);
    msmax = ms - (long)N;
  }
  if (rn < 0) return -1;
  const int b = addr(g, msmax, N == 0);
  const int c = b < 0 ? -1 : addr(g, vsw - (long)N, N == 0);
  if (c < 0) return -1;
  emit(g, mna_enc(MNA_OP_VMM, r, (unsigned)b, (unsigned)c, (unsigned)rn, 0, (t ? MNA_FL_T : 0) | sq, 0));
  add_work(g, t ? 8 + (double)E + (double)N * ((double)E + 6) : 8 + 6.0 * N);
  return 0;
}

static int gen_swr(tg_t *g) {
  const long E = g->c->emacs, ms = g->c->ms_lines, vsw = (long)g->c->vs_lines * E;
  uint32_t F;
  const int rf = reg_count(g, 0, cap_cost(g, minl(MAX_CNT, minl(ms, vsw)), 8, 12), &F);
  if (rf < 0) return -1;
  const int a = addr(g, ms - (long)F, F == 0);
  const int b = a < 0 ? -1 : addr(g, vsw - (long)F, F == 0);
  if (b < 0) return -1;
  emit(g, mna_enc(MNA_OP_SWR, (unsigned)a, (unsigned)b, (unsigned)rnd(&g->rng, g->c->rf_regs),
                  (unsigned)rnd(&g->rng, g->c->rf_regs), (unsigned)rf, 0, 0));
  add_work(g, 8 + 12.0 * F);
  return 0;
}

static int gen_el(tg_t *g) {
  const long E = g->c->emacs, vs = g->c->vs_lines;
  const unsigned op = (unsigned)rnd(&g->rng, 4);
  uint32_t F;
  const int rf = reg_count(g, 0, cap_cost(g, minl(MAX_CNT, vs), 8, 3.0 * (double)E + 4), &F);
  if (rf < 0) return -1;
  const int a = addr(g, vs - (long)F, F == 0);
  const int b = a < 0 ? -1 : addr(g, vs - (long)F, F == 0);
  if (b < 0) return -1;
  unsigned flags = op, x = 0, y = 0;
  if (chance(&g->rng, 40)) {
    flags |= MNA_FL_BS;
    x = (unsigned)rnd(&g->rng, 16); /* a data value: any register */
  } else {
    const int v = addr(g, vs - (long)F, F == 0);
    if (v < 0) return -1;
    x = (unsigned)v;
  }
  if (op == MNA_EL_FMA) {
    if (chance(&g->rng, 40)) {
      flags |= MNA_FL_CS;
      y = (unsigned)rnd(&g->rng, 16);
    } else {
      const int v = addr(g, vs - (long)F, F == 0);
      if (v < 0) return -1;
      y = (unsigned)v;
    }
  }
  emit(g, mna_enc(MNA_OP_EL, (unsigned)a, (unsigned)b, x, y, (unsigned)rf, flags, 0));
  add_work(g, 8 + (double)F * (3.0 * (double)E + 4));
  return 0;
}

static int gen_rf(tg_t *g, unsigned op) {
  const unsigned r = (unsigned)rnd(&g->rng, g->c->rf_regs);
  if (op == MNA_OP_RFZ) {
    emit(g, mna_enc(op, r, 0, 0, 0, 0, 0, 0));
    add_work(g, 8);
    return 0;
  }
  if (cap_cost(g, 1, 8, (double)g->c->emacs) < 1) return -1;
  const int b = addr(g, g->c->vs_lines - 1, 0);
  if (b < 0) return -1;
  emit(g, mna_enc(op, r, (unsigned)b, 0, 0, 0, 0, 0));
  add_work(g, 8 + (double)g->c->emacs);
  return 0;
}

static int gen_sfu(tg_t *g) {
  const long vsw = (long)g->c->vs_lines * g->c->emacs;
  const unsigned fn = (unsigned)rnd(&g->rng, 7);
  uint32_t n;
  const int rn = reg_count(g, 0, cap_cost(g, minl(MAX_CNT, vsw), 8, 60), &n);
  if (rn < 0) return -1;
  const int b = addr(g, vsw - (long)n, n == 0); /* the source first: always checked */
  const int a = b < 0 ? -1 : addr(g, vsw - (long)n, n == 0);
  const int c = a < 0 || fn != MNA_SFU_DOT ? 0 : addr(g, vsw - (long)n, n == 0);
  if (a < 0 || c < 0) return -1;
  emit(g, mna_enc(MNA_OP_SFU, (unsigned)a, (unsigned)b, (unsigned)c, (unsigned)rn, 0, fn, 0));
  add_work(g, 8 + 60.0 * n);
  return 0;
}

static int gen_sld_sst(tg_t *g, unsigned op) {
  const long vsw = (long)g->c->vs_lines * g->c->emacs;
  const int b = addr(g, vsw - 1, 0);
  if (b < 0) return -1;
  int r;
  if (op == MNA_OP_SLD) {
    r = chance(&g->rng, 5) ? 0 : pick_writable(g, 0, 0);
    if (r < 0) return -1;
    set_s(g, (unsigned)r, 0, 0);
  } else {
    r = (int)rnd(&g->rng, 16);
  }
  emit(g, mna_enc(op, (unsigned)r, (unsigned)b, 0, 0, 0, 0, 0));
  add_work(g, 8);
  return 0;
}

static int gen_li(tg_t *g) {
  uint32_t v;
  const long k = rnd(&g->rng, 10);
  if (k < 4) v = (uint32_t)rnd(&g->rng, 65);
  else if (k < 8) v = rand_f32(&g->rng);
  else if (k == 8) v = (uint32_t)-(int32_t)rnd_in(&g->rng, 1, 100);
  else v = (uint32_t)cutil_rng_next(&g->rng);
  const int r = chance(&g->rng, 5) ? 0 : pick_writable(g, 1, v);
  if (r < 0) return -1;
  emit(g, mna_enc(MNA_OP_LI, (unsigned)r, 0, 0, 0, 0, 0, v));
  add_work(g, 8);
  set_s(g, (unsigned)r, 1, v);
  return 0;
}

static int gen_addi(tg_t *g) {
  const unsigned b = (unsigned)rnd(&g->rng, 16);
  const uint32_t imm = chance(&g->rng, 80) ? (uint32_t)(int32_t)rnd_in(&g->rng, -16, 16)
                                           : (uint32_t)cutil_rng_next(&g->rng);
  const int known = b == 0 || s_known(g, b);
  const uint32_t v = (b == 0 ? 0 : g->sval[b]) + imm;
  read_s(g, b); /* first: `addi sK, sK, imm` in a loop body must not change sK */
  int a = -1;
  const int start = (int)rnd(&g->rng, 16);
  for (int k = 0; k < 16 && a < 0; k++) {
    const unsigned r = (unsigned)(start + k) % 16;
    if (can_write_s(g, r, known, v)) a = (int)r;
  }
  if (a < 0) return -1;
  emit(g, mna_enc(MNA_OP_ADDI, (unsigned)a, b, 0, 0, 0, 0, imm));
  add_work(g, 8);
  set_s(g, (unsigned)a, known, v);
  return 0;
}

static int gen_agen(tg_t *g) {
  static const int which[4] = {0, 1, 2, 3};
  const int k = which[rnd(&g->rng, 4)];
  const long E = g->c->emacs;
  const long lim[4] = {g->c->mb_lines, g->c->ms_lines, g->c->vs_lines, g->c->vs_lines * E};
  return addr(g, lim[k] - 1 - rnd(&g->rng, minl(lim[k], 4)), 0) < 0 ? -1 : 0;
}

/* One random valid instruction (a nop when the drawn kind cannot be set up). */
static void gen_insn(tg_t *g) {
  int rc;
  switch (rnd(&g->rng, 20)) {
    case 0: rc = gen_li(g); break;
    case 1: rc = gen_addi(g); break;
    case 2: rc = gen_agen(g); break;
    case 3:
    case 4: rc = gen_dmat(g); break;
    case 5: rc = gen_dma(g); break;
    case 6:
    case 7: rc = gen_vmm(g); break;
    case 8: rc = gen_swr(g); break;
    case 9:
    case 10:
    case 11: rc = gen_el(g); break;
    case 12: rc = gen_rf(g, MNA_OP_RFZ); break;
    case 13: rc = gen_rf(g, MNA_OP_RFLD); break;
    case 14: rc = gen_rf(g, MNA_OP_RFST); break;
    case 15:
    case 16: rc = gen_sfu(g); break;
    case 17: rc = gen_sld_sst(g, MNA_OP_SLD); break;
    case 18: rc = gen_sld_sst(g, MNA_OP_SST); break;
    default: rc = -1; break;
  }
  if (rc) {
    emit(g, 0); /* nop */
    add_work(g, 8);
  }
  g->sresv = 0;
  g->aresv = 0;
}

/* ---------------------------------------------------------------- bad instructions */
static const unsigned kUndef[] = {0x07, 0x10, 0x12, 0x13, 0x14, 0x17, 0x1A, 0x1B, 0x1F, 0x20, 0x2A, 0x3F};

static int has_rf_field(unsigned op, int *field) {
  switch (op) {
    case MNA_OP_VMM:
    case MNA_OP_RFZ:
    case MNA_OP_RFLD:
    case MNA_OP_RFST: *field = 0; return 1;
    case MNA_OP_SWR: *field = 2; return 1;
    default: return 0;
  }
}

/* w made a FIELD error (its opcode kept). */
static uint64_t corrupt(tg_t *g, uint64_t w) {
  int rf;
  if (has_rf_field(mna_op(w), &rf) && g->c->rf_regs < 16 && chance(&g->rng, 25)) {
    const int shift = 54 - 4 * rf;
    const uint64_t v = (uint64_t)rnd_in(&g->rng, g->c->rf_regs, 15);
    return (w & ~(0xFull << shift)) | v << shift;
  }
  for (int tries = 0; tries < 1000; tries++) {
    uint64_t x = w;
    const long k = rnd(&g->rng, 7);
    if (k < 5) {
      const int shift = 54 - 4 * (int)k;
      x = (x & ~(0xFull << shift)) | (uint64_t)rnd(&g->rng, 16) << shift;
    } else if (k == 5) {
      x = (x & ~(0x3Full << 32)) | (uint64_t)rnd(&g->rng, 64) << 32;
    } else {
      x = (x & ~0xFFFFFFFFull) | (uint32_t)cutil_rng_next(&g->rng);
    }
    if (!mna_asm_wellformed(x)) return x;
  }
  return w | (0x20ull << 32); /* flag bit5: defined by no instruction */
}

static void emit_raw_loop(tg_t *g, unsigned r) {
  emit(g, mna_enc(MNA_OP_LOOP, r, 0, 0, 0, 0, 0, (uint32_t)(g->n + 1)));
}

/* One bad instruction (with its set-up). */
static void gen_bad(tg_t *g) {
  long kind = rnd(&g->rng, 6);
  if (kind == 5 && g->depth > 0) kind = 1;
  switch (kind) {
    case 0: {
      const unsigned op = kUndef[rnd(&g->rng, sizeof kUndef / sizeof kUndef[0])];
      emit(g, ((uint64_t)op << 58) | (cutil_rng_next(&g->rng) & ((1ull << 58) - 1)));
      break;
    }
    case 1:
      gen_insn(g);
      g->w[g->n - 1] = corrupt(g, g->w[g->n - 1]);
      break;
    case 2: {
      int r = pick_writable(g, 0, 0);
      if (r < 0) r = 1 + (int)rnd(&g->rng, 15);
      const uint32_t v = 65536u + (uint32_t)rnd(&g->rng, 0xFFFEFFFFL);
      emit(g, mna_enc(MNA_OP_LI, (unsigned)r, 0, 0, 0, 0, 0, v));
      set_s(g, (unsigned)r, 1, v);
      const unsigned a = (unsigned)rnd(&g->rng, 8), b = (unsigned)rnd(&g->rng, 8), R = (unsigned)r;
      const unsigned q = (unsigned)rnd(&g->rng, (long)g->c->rf_regs);
      uint64_t w;
      switch (rnd(&g->rng, 9)) {
        case 0: w = mna_enc(MNA_OP_DMAT, a, b, R, (unsigned)rnd(&g->rng, 16), 0, (unsigned)rnd(&g->rng, 4), 0); break;
        case 1: w = mna_enc(MNA_OP_DMA, a, b, R, 0, 0, 0, 0); break;
        case 2: w = mna_enc(MNA_OP_VMM, q, a, b, R, 0, MNA_FL_SQ, 0); break;
        case 3: w = mna_enc(MNA_OP_SWR, a, b, q, q, R, 0, 0); break;
        case 4: w = mna_enc(MNA_OP_EL, a, b, a, 0, R, MNA_EL_MUL, 0); break;
        case 5: w = mna_enc(MNA_OP_SFU, a, b, 0, R, 0, (unsigned)rnd(&g->rng, 6), 0); break;
        case 6: w = mna_enc(MNA_OP_LOOP, R, 0, 0, 0, 0, 0, (uint32_t)(g->n + 1)); break;
        case 7: w = mna_enc(MNA_OP_REDUCE, a, R, 0, 0, 0, 0, 0); break;
        default: w = mna_enc(MNA_OP_BCAST, a, R, 0, 0, 0, 0, 0); break;
      }
      emit(g, w);
      break;
    }
    case 3: {
      g->bad_addr = 1;
      g->mincount = 1;
      const double allow = g->allow;
      g->allow = 0; /* no cost cap: the tile stops here */
      int rc;
      switch (rnd(&g->rng, 10)) {
        case 0: rc = gen_dmat(g); break;
        case 1: rc = gen_dma(g); break;
        case 2: rc = gen_vmm(g); break;
        case 3: rc = gen_swr(g); break;
        case 4: rc = gen_el(g); break;
        case 5: rc = gen_rf(g, MNA_OP_RFLD); break;
        case 6: rc = gen_rf(g, MNA_OP_RFST); break;
        case 7: rc = gen_sfu(g); break;
        case 8: rc = gen_sld_sst(g, MNA_OP_SLD); break;
        default: rc = gen_sld_sst(g, MNA_OP_SST); break;
      }
      g->allow = allow;
      if (rc || g->bad_addr) /* could not: an undefined opcode instead */
        emit(g, (uint64_t)kUndef[0] << 58);
      g->bad_addr = 0;
      g->mincount = 0;
      g->sresv = 0;
      g->aresv = 0;
      break;
    }
    case 4: {
      int r = pick_writable(g, 0, 0);
      if (r < 0) r = 1 + (int)rnd(&g->rng, 15);
      const uint32_t v = (uint32_t)rnd_in(&g->rng, 1, 3);
      emit(g, mna_enc(MNA_OP_LI, (unsigned)r, 0, 0, 0, 0, 0, v));
      set_s(g, (unsigned)r, 1, v);
      for (int k = g->depth; k <= MNA_LOOP_LEVELS; k++) emit_raw_loop(g, (unsigned)r);
      break;
    }
    default:
      emit(g, mna_enc(MNA_OP_ENDLOOP, 0, 0, 0, 0, 0, 0, 0));
      break;
  }
}

/* ---------------------------------------------------------------- skeleton items */
static void open_loop(tg_t *g, uint32_t count) {
  int r = reg_value(g, count);
  if (r < 0) { /* every register pinned: fall back on any register holding the count */
    r = 0;
    for (unsigned k = 1; k < 16; k++)
      if (s_known(g, k) && g->sval[k] == count) r = (int)k;
  }
  /* (r = 0 with count != 0 cannot happen: reg_value always finds s0 for 0, and an unpinned
   * register exists while fewer than 15 registers are pinned) */
  level_t *l = &g->lp[g->depth];
  l->pc = emit(g, mna_enc(MNA_OP_LOOP, (unsigned)r, 0, 0, 0, 0, 0, 0));
  add_work(g, 8);
  l->count = r == 0 ? 0 : g->sval[r];
  l->sread = 0;
  l->aread = 0;
  l->swrit = 0;
  l->awrit = 0;
  for (int i = 0; i < g->depth; i++) {
    l->osw[i] = g->lp[i].swrit;
    l->oaw[i] = g->lp[i].awrit;
  }
  memcpy(l->sval, g->sval, sizeof l->sval);
  l->sknown = g->sknown;
  memcpy(l->ag, g->ag, sizeof l->ag);
  g->depth++;
  g->sresv = 0;
  g->aresv = 0;
}

static void close_loop(tg_t *g) {
  level_t *l = &g->lp[g->depth - 1];
  emit(g, mna_enc(MNA_OP_ENDLOOP, 0, 0, 0, 0, 0, 0, 0));
  add_work(g, 8);
  if (!g->oom) g->w[l->pc] |= (uint32_t)g->n;
  if (l->count == 0) {
    memcpy(g->sval, l->sval, sizeof g->sval);
    g->sknown = l->sknown;
    memcpy(g->ag, l->ag, sizeof g->ag);
    for (int i = 0; i < g->depth - 1; i++) { /* its writes never happened */
      g->lp[i].swrit = l->osw[i];
      g->lp[i].awrit = l->oaw[i];
    }
  }
  g->depth--;
}

static void gen_coll(tg_t *g, unsigned op, uint32_t lines) {
  const int r = reg_value(g, lines);
  const int a = r < 0 ? -1 : addr(g, (long)g->c->vs_lines - (long)lines, lines == 0);
  if (a < 0) { /* cannot happen in practice (a pinned register file); keep the sequence */
    emit(g, mna_enc(MNA_OP_LI, 15, 0, 0, 0, 0, 0, lines));
    set_s(g, 15, 1, lines);
    emit(g, mna_enc(MNA_OP_LI, 14, 0, 0, 0, 0, 0, 0));
    set_s(g, 14, 1, 0);
    emit(g, mna_enc(MNA_OP_AGEN, 7, 15, 14, 14, 0, 0, 0));
    g->ag[7] = (agen_t){0, 0, 15, 1};
    emit(g, mna_enc(op, 7, 15, 0, 0, 0, 0, 0));
  } else {
    emit(g, mna_enc(op, (unsigned)a, (unsigned)r, 0, 0, 0, 0, 0));
  }
  g->sresv = 0;
  g->aresv = 0;
  g->work = 0;
}

/* ---------------------------------------------------------------- the workload */
typedef struct {
  int ntg;
  tg_t tg[16];
} prog_set_t;

static void free_set(prog_set_t *p) {
  for (int t = 0; t < p->ntg; t++) free(p->tg[t].w);
}

static double max_over(const prog_set_t *p, int what) {
  double m = 0;
  for (int t = 0; t < p->ntg; t++) {
    const double v = what == 0 ? (double)p->tg[t].n : what == 1 ? p->tg[t].dyn : p->tg[t].work;
    if (v > m) m = v;
  }
  return m;
}

/* Error mode: p->tg[0] is the program of every tile but the error tile, p->tg[1] the error tile's:
 * the same words except where a bad instruction replaces a slot.  After each slot the error
 * tile's generator takes over tg[0]'s state (registers, generators, loop levels, random stream):
 * a bad instruction that executes stops the tile, one that does not (a count-0 loop body) leaves
 * the state of the loop, which the loop's end restores.  So both run in lockstep, with the same
 * timing up to the error. */
static void sync_state(tg_t *dst, const tg_t *src) {
  uint64_t *w = dst->w;
  const size_t n = dst->n, cap = dst->cap;
  size_t pcs[MNA_LOOP_LEVELS];
  for (int i = 0; i < MNA_LOOP_LEVELS; i++) pcs[i] = dst->lp[i].pc;
  const int oom = dst->oom;
  *dst = *src;
  dst->w = w;
  dst->n = n;
  dst->cap = cap;
  dst->oom = oom || src->oom;
  for (int i = 0; i < MNA_LOOP_LEVELS; i++) dst->lp[i].pc = pcs[i];
}

/* Appends tg0's words from `from` to tg1's program. */
static void mirror_words(tg_t *t1, const tg_t *t0, size_t from) {
  for (size_t k = from; k < t0->n; k++) emit(t1, t0->w[k]);
}

/* Writes the programs of one run into p (p->tg[*] keep their register state from the run
 * before when carry). */
static void gen_run(const mna_rand_cfg_t *c, const mna_rand_opt_t *o, cutil_rng_t *sk, prog_set_t *p,
                    int per_tile, int error_tile, int carry, mna_rand_info_t *info) {
  const int errmode = error_tile >= 0;
  const int nt = errmode ? 1 : p->ntg; /* generators driven directly (error mode: tg[0]) */
  const double budget = o->fence / 2.0;
  const long dyn_max = DYN_TOTAL / ((long)c->tiles * o->runs) - 2 * SLOT_WORDS * 27;
  for (int t = 0; t < p->ntg; t++) {
    tg_t *g = &p->tg[t];
    g->n = 0;
    g->dyn = 0;
    g->work = 0;
    g->depth = 0;
    g->sresv = 0;
    g->aresv = 0;
    memset(g->ag, 0, sizeof g->ag);
    for (int a = 0; a < MNA_AGENS; a++) g->ag[a].known = 1; /* START: all zero */
    if (!carry) {
      memset(g->sval, 0, sizeof g->sval);
      g->sknown = 0xFFFF; /* reset: all zero */
    } else if (o->errors > 0) {
      g->sknown = 1; /* the registers after an erring run: unknown */
    }
  }
  int depth = 0, body_left[MAX_DEPTH] = {0};
  long colls = 0;
  for (long slot = 0; slot < o->insns; slot++) {
    double m = 1;
    for (int i = 0; i < depth; i++) m *= p->tg[0].lp[i].count;
    if (max_over(p, 0) + SLOT_WORDS + depth + 1 > c->imem_depth) break;
    if (max_over(p, 1) + SLOT_WORDS * m > dyn_max) break;
    const size_t from = p->tg[0].n;
    const size_t pc1 = errmode && depth > 0 ? p->tg[1].lp[depth - 1].pc : 0;
    int opened = 0, closed = 0;
    if (per_tile && max_over(p, 2) > budget / 2) {
      if (depth > 0) {
        for (int t = 0; t < nt; t++) close_loop(&p->tg[t]);
        depth--;
      } else {
        const unsigned op = chance(sk, 50) ? MNA_OP_REDUCE : MNA_OP_BCAST;
        const uint32_t lines = (uint32_t)rnd_in(sk, 1, minl(MAX_CNT, c->vs_lines));
        for (int t = 0; t < nt; t++) gen_coll(&p->tg[t], op, lines);
        colls++;
      }
      continue; /* (never in error mode: not per_tile) */
    }
    if (depth > 0 && body_left[depth - 1] <= 0) {
      for (int t = 0; t < nt; t++) close_loop(&p->tg[t]);
      depth--;
      slot--;
      closed = 1;
    } else {
      if (depth > 0) body_left[depth - 1]--;
      const long r = rnd(sk, 100);
      if (r < 8 && depth < MAX_DEPTH) {
        const uint32_t count = (uint32_t)rnd(sk, MAX_LOOP_COUNT + 1);
        for (int t = 0; t < nt; t++) open_loop(&p->tg[t], count);
        body_left[depth++] = (int)rnd_in(sk, 1, MAX_BODY);
        opened = 1;
      } else if (r < 12 && (!per_tile || depth == 0)) {
        const unsigned op = chance(sk, 50) ? MNA_OP_REDUCE : MNA_OP_BCAST;
        const uint32_t lines = (uint32_t)(chance(sk, 5) ? 0 : rnd_in(sk, 1, minl(MAX_CNT, c->vs_lines)));
        for (int t = 0; t < nt; t++) gen_coll(&p->tg[t], op, lines);
        colls++;
      } else {
        const int bad = errmode && rnd(sk, 100) < o->errors;
        if (bad) {
          gen_bad(&p->tg[1]); /* from the same state as tg[0] */
          if (info) info->injected++;
        }
        for (int t = 0; t < nt; t++) {
          tg_t *g = &p->tg[t];
          const double mm = mult(g);
          /* per-tile programs: the cycles left for one execution of the instruction, less the
           * set-up (at most 13 li/agen words of 8 cycles) */
          g->allow = per_tile ? (mm > 0 ? (budget - g->work) / mm - 13 * 8 : 1e30) : 0;
          if (per_tile && g->allow < 8) {
            emit(g, 0); /* nop */
            add_work(g, 8);
          } else {
            gen_insn(g);
          }
        }
        if (bad) {
          sync_state(&p->tg[1], &p->tg[0]);
          continue;
        }
      }
    }
    if (errmode) { /* the error tile: the same words, its own loop PCs */
      mirror_words(&p->tg[1], &p->tg[0], from);
      if (closed) p->tg[1].w[pc1] |= (uint32_t)p->tg[1].n;
      sync_state(&p->tg[1], &p->tg[0]);
      if (opened) p->tg[1].lp[depth - 1].pc = p->tg[1].n - 1;
    }
  }
  while (depth > 0) {
    const size_t from = p->tg[0].n;
    const size_t pc1 = errmode ? p->tg[1].lp[depth - 1].pc : 0;
    for (int t = 0; t < nt; t++) close_loop(&p->tg[t]);
    depth--;
    if (errmode) {
      mirror_words(&p->tg[1], &p->tg[0], from);
      p->tg[1].w[pc1] |= (uint32_t)p->tg[1].n;
      sync_state(&p->tg[1], &p->tg[0]);
    }
  }
  for (int t = 0; t < p->ntg; t++) emit(&p->tg[t], mna_enc(MNA_OP_HALT, 0, 0, 0, 0, 0, 0, 0));
  if (info) {
    if (max_over(p, 0) > (double)info->max_words) info->max_words = (long)max_over(p, 0);
    if (max_over(p, 1) > (double)info->max_dyn) info->max_dyn = (long)max_over(p, 1);
    if (colls > info->colls) info->colls = colls;
  }
}

static void write_program(sink_t *s, const tg_t *g, const char *tile) {
  for (size_t k = 0; k < g->n; k += 4) {
    out(s, "p %s %zu", tile, k);
    for (size_t j = k; j < g->n && j < k + 4; j++) out(s, " %016llx", (unsigned long long)g->w[j]);
    out(s, "\n");
  }
}

static int generate(sink_t *s, const mna_rand_cfg_t *c, const mna_rand_opt_t *o, mna_rand_info_t *info,
                    char *err, size_t errlen) {
  mna_rand_info_t dummy;
  if (!info) info = &dummy;
  memset(info, 0, sizeof *info);
  info->error_tile = -1;
  if (mna_rand_cfg_check(c, err, errlen)) return -1;
  if (o->insns < 1 || o->insns > 1000000)
    return cutil_seterr(err, errlen, "insns: %ld out of range 1..1000000", o->insns), -1;
  if (o->errors < 0 || o->errors > 100)
    return cutil_seterr(err, errlen, "errors: %d out of range 0..100", o->errors), -1;
  if (o->runs < 1 || o->runs > 2) return cutil_seterr(err, errlen, "runs: %d is not 1 or 2", o->runs), -1;

  cutil_rng_t sk = cutil_rng_seed(o->seed);
  cutil_rng_t data = cutil_rng_seed(cutil_mix64(o->seed ^ 0xDA7Aull));
  if (o->fence < 1) return cutil_seterr(err, errlen, "fence: %ld out of range 1..", o->fence), -1;
  /* independent programs per tile only without errors and with room between collectives */
  const int per_tile = c->tiles > 1 && o->errors == 0 && o->fence >= 1024 && chance(&sk, 50);
  const int error_tile = o->errors > 0 ? (int)rnd(&sk, c->tiles) : -1;
  info->per_tile = per_tile;
  info->error_tile = error_tile;

  out(s, "# MANNA random workload (mna_randprog): seed=%llu insns=%ld errors=%d runs=%d programs=%s",
      (unsigned long long)o->seed, o->insns, o->errors, o->runs,
      per_tile ? "per-tile" : error_tile >= 0 ? "shared+error-tile" : "shared");
  if (error_tile >= 0) out(s, " error_tile=%d", error_tile);
  out(s, "\ncfg tiles=%d emacs=%d mb=%d ms=%d vb=%d vs=%d imem=%d rf=%d\n", c->tiles, c->emacs,
      c->mb_lines, c->ms_lines, c->vb_lines, c->vs_lines, c->imem_depth, c->rf_regs);
  static const char *const kSpace[4] = {"mb", "ms", "vb", "vs"};
  const long lines[4] = {c->mb_lines, c->ms_lines, c->vb_lines, c->vs_lines};
  for (int t = 0; t < c->tiles; t++)
    for (int k = 0; k < 4; k++) {
      const long words = lines[k] * c->emacs;
      for (long a = 0; a < words; a += 16) {
        out(s, "m %d %s %ld", t, kSpace[k], a);
        for (long j = a; j < words && j < a + 16; j++) out(s, " %08x", (unsigned)rand_f32(&data));
        out(s, "\n");
      }
    }

  prog_set_t p;
  memset(&p, 0, sizeof p);
  p.ntg = per_tile ? c->tiles : error_tile >= 0 ? 2 : 1;
  for (int t = 0; t < p.ntg; t++) {
    p.tg[t].c = c;
    p.tg[t].rng = cutil_rng_seed(cutil_mix64(o->seed) + 0x100 + (uint64_t)t);
  }
  if (error_tile >= 0) sync_state(&p.tg[1], &p.tg[0]);
  int rc = 0;
  for (int run = 0; run < o->runs; run++) {
    gen_run(c, o, &sk, &p, per_tile, error_tile, run > 0, info);
    for (int t = 0; t < p.ntg; t++)
      if (p.tg[t].oom) s->bad = 1;
    if (s->bad) break;
    out(s, "# run %d\n", run + 1);
    if (!per_tile) {
      write_program(s, &p.tg[0], "*");
      if (error_tile >= 0) { /* the error tile's program over the shared one */
        char name[16];
        snprintf(name, sizeof name, "%d", error_tile);
        write_program(s, &p.tg[1], name);
      }
    } else {
      for (int t = 0; t < p.ntg; t++) {
        char name[16];
        snprintf(name, sizeof name, "%d", t);
        write_program(s, &p.tg[t], name);
      }
    }
    out(s, "s 0\n");
  }
  free_set(&p);
  if (s->bad) {
    cutil_seterr(err, errlen, s->f ? "write error" : "out of memory");
    rc = -1;
  }
  return rc;
}

int mna_rand_write(FILE *f, const mna_rand_cfg_t *c, const mna_rand_opt_t *o, mna_rand_info_t *info,
                   char *err, size_t errlen) {
  sink_t s = {f, NULL, 0, 0, 0};
  return generate(&s, c, o, info, err, errlen);
}

char *mna_rand_string(const mna_rand_cfg_t *c, const mna_rand_opt_t *o, size_t *len,
                      mna_rand_info_t *info, char *err, size_t errlen) {
  sink_t s = {NULL, NULL, 0, 0, 0};
  if (generate(&s, c, o, info, err, errlen)) {
    free(s.buf);
    return NULL;
  }
  if (len) *len = s.len;
  return s.buf;
}
