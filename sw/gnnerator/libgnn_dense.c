/* libgnn_dense.c -- GNNerator Dense Engine host software (gnn_dense.h): the matmul compiler
 * ("tiler"), DRAM layouts, random streams and data, the result check, workload files.
 *
 * THE TILER
 * ---------
 * Problem: C = act(A*B [+ C_old] [+ bias]) with A, B, C in DRAM in the dataflow's layout, for
 * any M, K, N (1..65535) and any cfg.  Every MATMUL's footprint ("Lines used", gnnerator.h)
 * must fit one bank of each buffer; the other bank is filled meanwhile (double buffering).
 *
 * Tiles.  The problem is cut into tiles Mt x Kt x Nt (the last tile of a dimension may be
 * smaller).  One step = one tile = one MATMUL (plus, at the start of an output tile, the bias
 * MATMUL below).  Three loops run over the m-tiles, n-tiles and K chunks in one of the six
 * orders; each buffer's content depends on two of them:
 *   IN  holds A(m-tile, K chunk)        reloaded when (m, k) changes between two steps
 *   WT  holds B(K chunk, n-tile)        reloaded when (n, k) changes
 *   OUT holds C(m-tile, n-tile)         one "visit" per run of steps on the same (m, n)
 * A new content goes to the other bank of its buffer (each buffer toggles on its own), so a
 * resident operand (the weights of an n-tile in OS, say) stays in its bank while the other
 * operand streams through both banks; OUT toggles per visit, so the STORE of one tile overlaps
 * the MATMULs of the next.  When K does not fit (Kt < K: a "K split") the chunks accumulate in
 * OUT with acc = 1 (OS adds old + S per chunk; WS/IS continue the chain); when the K loop is
 * not innermost a visit holds one chunk and the partial tile is stored and loaded back by the
 * next visit.  act is applied by the last chunk only.
 *
 * Choice.  Per dataflow the footprints are (R x C array; KB = ceil(Kt/R), KBR = KB*R)
 *   OS  IN ceil(Mt/R)*Kt     WT ceil(Nt/C)*Kt      OUT ceil(Mt/R)*Nt
 *   WS  IN KB*Mt             WT ceil(Nt/C)*KBR     OUT ceil(Nt/C)*Mt
 *   IS  IN ceil(Mt/C)*KBR    WT KB*Nt              OUT ceil(Mt/C)*Nt
 * K is split only when Kt = K does not fit with a 1 x 1 tile of the other two (in OS the result
 * is then no longer bit-exact against gnn_matmul_ref); WS/IS (whose splits are exact) also try
 * 2, 4 and 8 times more chunks and chunks of 1, 2, 4, 8, 16 R blocks: one R block per MATMUL
 * lets the streamed dimension (M in WS, N in IS) take a whole bank, so each fold pays its fill
 * and drain (2R + C) once for all the rows instead of once per M- or N-tile.  For each chunk a
 * few tile shapes (the largest Nt that fits, then the largest Mt with it, and the reverse, each
 * also with 2, 4, 8, 16 times more tiles; tiles balanced, whole blocks of the array) in the six
 * loop orders are the candidates.  Each candidate's program is generated and timed by
 * est_cycles(): the issue rules of gnn_cycles() (the exact cycle model) per instruction instead
 * of per cycle, the memory port shared half and half while LD and ST both have requests, reads
 * after p->mem_latency (default 100); within a few per mille of gnn_cycles on these programs,
 * about 1000 times faster.  The fastest wins (ties: fewer instructions).  Candidates are timed
 * in order of their EX cycles (a lower bound of their time), at most PICK_MAX, stopping at the
 * first whose EX cycles exceed the best time: well under 0.1 s per paper shape.
 * Order of the steps: the m and n loops run back and forth (the loop inside reverses each time
 * an outer one advances), so the last tile of one pass is the first of the next and its
 * operand is still in a bank; K always runs forward.  Each buffer remembers what its two banks
 * hold: a step whose IN or WT content is in either bank loads nothing (two K chunks of B
 * alternate in the two WT banks of OS with a K split, for instance).
 *
 * Bias.  WS without acc: LOAD with stride 0 of the bias row into the OUT lines of the tile,
 * then the first chunk with acc = 1.  OS and IS keep C^T in OUT (a line holds one column n of
 * the tile, its words run along M), so a row broadcast cannot be loaded; there, and in WS with
 * acc, the bias is one more MATMUL with K = 1: A = ones (M x 1, from the caller's vector of LW
 * words 1.0 in DRAM, loaded once per IN bank by a stride-0 LOAD at lines above the A tile),
 * B = the bias row (loaded with the weights of the n-tile's first chunk, at lines above them),
 * into the output tile with acc = the caller's acc; fma(1, b, x) = add(x, b) exactly, so the
 * result is gnn_matmul_ref started from old = bias (or add(C_old, bias)).
 *
 * Instruction order (software pipelining).  Issue is in order, and the head waits while a
 * unit is busy or another unit's instruction in flight uses one of its banks.  For steps
 * s = 0, 1, ... the program is
 *   L(0) P(0)  X(0) L(1) S P(1)  X(1) L(2) S P(2) ...  S(last)
 * X = the step's MATMUL(s); L = the loads of the next step's new IN/WT contents (into the bank
 * the MATMUL before the current one used, which has left EX, so they issue at once and run
 * during X); S = a share of the STOREs of the last finished visit (spread evenly over the
 * steps of the current visit, the rest before the next visit's pre-loads); P = the next
 * visit's OUT pre-loads (C_old, the partial of an earlier chunk or the stride-0 bias), after the
 * STOREs that empty its bank.  The last LOAD of L is cut so that its final line is a LOAD of
 * its own: S issues only when the LD unit has requested everything else, so the STOREs use the
 * port while the LD unit waits for the responses and the banks, instead of halving the port
 * for the loads the next MATMUL waits for (a step then takes max(EX, loads + latency, loads +
 * stores) instead of loads + stores + latency).  The last visit's STOREs follow the last
 * MATMUL (they need its bank, which the issue rules keep from EX and ST at once).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnnerator/gnn_dense.h"

#define ERR(...) (cutil_seterr(err, errlen, __VA_ARGS__), -1)

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t umax(uint64_t a, uint64_t b) { return a > b ? a : b; }

static int grow(void **p, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 64;
  void *q = realloc(*p, nc * elem);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

/* ------------------------------------------------------------------ programs */

void gnn_prog_init(gnn_prog_t *p) { memset(p, 0, sizeof *p); }

void gnn_prog_free(gnn_prog_t *p) {
  free(p->insn);
  memset(p, 0, sizeof *p);
}

int gnn_prog_push(gnn_prog_t *p, gnn_insn_t in) {
  if (grow((void **)&p->insn, &p->cap, p->n, sizeof *p->insn) != 0) return -1;
  p->insn[p->n++] = in;
  return 0;
}

void gnn_prog_stats(const gnn_cfg_t *cfg, const gnn_insn_t *prog, size_t n, gnn_prog_stats_t *st) {
  memset(st, 0, sizeof *st);
  st->insns = n;
  for (size_t i = 0; i < n; i++) {
    if (gnn_check(cfg, &prog[i]) != GNN_OK) {
      st->bad++;
      continue;
    }
    gnn_fields_t f;
    gnn_fields(&prog[i], &f);
    switch (f.op) {
      case GNN_OP_LOAD:
        st->loads++, st->rd_words += (uint64_t)f.n * f.w, st->rd_lines += f.n;
        break;
      case GNN_OP_STORE:
        st->stores++, st->wr_words += (uint64_t)f.n * f.w, st->wr_lines += f.n;
        break;
      case GNN_OP_MATMUL:
        st->matmuls++;
        if (f.k > st->max_matmul_k) st->max_matmul_k = f.k;
        break;
      case GNN_OP_MADD: st->madds++; break;
      case GNN_OP_ACT: st->acts++; break;
      case GNN_OP_COPY: st->copies++; break;
      default: {
        st->graph++;
        const unsigned op = gnn_get(&prog[i], GNN_F_OP);
        if (op != GNN_OP_GLOAD && op != GNN_OP_GSTORE) break;
        const uint64_t n = gnn_get(&prog[i], GNN_G_N), dim = gnn_get(&prog[i], GNN_G_DIM);
        const uint64_t lanes = (uint64_t)cfg->lanes;
        const int edge = gnn_get(&prog[i], GNN_G_MEM) == GNN_MEM_EDGE;
        const uint64_t words = edge ? n * (uint64_t)cfg->gpes : n * dim;
        const uint64_t lines = edge ? n : n * ((dim + lanes - 1) / lanes);
        if (op == GNN_OP_GLOAD) st->g_rd_words += words, st->g_rd_lines += lines;
        else st->g_wr_words += words, st->g_wr_lines += lines;
        break;
      }
    }
  }
}

static const char *const kBufNames[4] = {"IN", "WT", "OUT", "3"};
static const char *const kDfNames[3] = {"os", "ws", "is"};

const char *gnn_df_name(unsigned df) { return df < 3 ? kDfNames[df] : "?"; }

int gnn_df_find(const char *name) {
  for (int i = 0; i < 3; i++)
    if (!strcmp(name, kDfNames[i])) return i;
  return -1;
}

char *gnn_insn_str(const gnn_insn_t *in, char *buf, size_t len) {
  gnn_fields_t f;
  gnn_fields(in, &f);
  switch (f.op) {
    case GNN_OP_LOAD:
    case GNN_OP_STORE:
      snprintf(buf, len, "%s buf=%s line=%u n=%u w=%u addr=0x%" PRIx32 " stride=%" PRIu32,
               gnn_op_name(f.op), kBufNames[f.buf & 3], f.line, f.n, f.w, f.addr, f.stride);
      break;
    case GNN_OP_MATMUL:
      snprintf(buf, len, "MATMUL df=%s acc=%u act=%u M=%u K=%u N=%u in=%u wt=%u out=%u",
               f.df < 3 ? kDfNames[f.df] : "3", f.acc, f.act, f.m, f.k, f.nn, f.in, f.wt, f.out);
      break;
    case GNN_OP_MADD:
      snprintf(buf, len, "MADD act=%u n=%u src0=%u src1=%u dst=%u", f.act, f.n, f.src0, f.src1,
               f.dst);
      break;
    case GNN_OP_ACT:
      snprintf(buf, len, "ACT act=%u n=%u src0=%u dst=%u", f.act, f.n, f.src0, f.dst);
      break;
    case GNN_OP_COPY:
      snprintf(buf, len, "COPY n=%u src0=%u dst=%u", f.n, f.src0, f.dst);
      break;
    case GNN_OP_GLOAD:
    case GNN_OP_GSTORE: {
      static const char *const kMem[4] = {"EDGE", "IF", "MF", "3"};
      snprintf(buf, len, "%s mem=%s base=%u n=%u dim=%u addr=0x%" PRIx32 " stride=%" PRIu32,
               gnn_op_name(f.op), kMem[gnn_get(in, GNN_G_MEM)], gnn_get(in, GNN_G_BASE),
               gnn_get(in, GNN_G_N), gnn_get(in, GNN_G_DIM), f.addr, f.stride);
      break;
    }
    case GNN_OP_GFILL:
      snprintf(buf, len, "GFILL base=%u n=%u value=0x%08" PRIx32, gnn_get(in, GNN_G_BASE),
               gnn_get(in, GNN_G_N), gnn_get(in, GNN_G_VALUE));
      break;
    case GNN_OP_GRUN: {
      gnn_grun_t g;
      gnn_grun_fields(in, &g);
      snprintf(buf, len,
               "GRUN mode=%s apply=%u sfu=%u red=%u f0sel=%u f1sel=%u ebase=%u count=%u nodes=%u "
               "if0=%u if1=%u mf=%u ch=%u",
               g.mode == 0 ? "stream" : g.mode == 1 ? "edges" : "?", g.apply, g.sfu, g.red,
               g.f0sel, g.f1sel, g.ebase, g.count, g.nodes, g.if0, g.if1, g.mf, g.ch);
      break;
    }
    default: snprintf(buf, len, "op%u", f.op); break;
  }
  return buf;
}

/* ------------------------------------------------------------------ DRAM layouts */

/* OS and IS keep A^T, WS A. */
void gnn_pack_a(unsigned df, unsigned m, unsigned k, const uint32_t *a, uint32_t *dst) {
  for (uint64_t i = 0; i < m; i++)
    for (uint64_t j = 0; j < k; j++)
      dst[df == GNN_DF_WS ? i * k + j : j * m + i] = a[i * k + j];
}

/* OS and WS keep B, IS B^T. */
void gnn_pack_b(unsigned df, unsigned k, unsigned n, const uint32_t *b, uint32_t *dst) {
  for (uint64_t i = 0; i < k; i++)
    for (uint64_t j = 0; j < n; j++)
      dst[df == GNN_DF_IS ? j * k + i : i * n + j] = b[i * n + j];
}

/* OS and IS give C^T, WS C. */
void gnn_pack_c(unsigned df, unsigned m, unsigned n, const uint32_t *c, uint32_t *dst) {
  for (uint64_t i = 0; i < m; i++)
    for (uint64_t j = 0; j < n; j++)
      dst[df == GNN_DF_WS ? i * n + j : j * m + i] = c[i * n + j];
}

void gnn_unpack_c(unsigned df, unsigned m, unsigned n, const uint32_t *src, uint32_t *c) {
  for (uint64_t i = 0; i < m; i++)
    for (uint64_t j = 0; j < n; j++)
      c[i * n + j] = src[df == GNN_DF_WS ? i * n + j : j * m + i];
}

/* ------------------------------------------------------------------ the tiler */

enum { LM = 0, LN = 1, LK = 2 }; /* loop ids */

typedef struct {
  const gnn_cfg_t *cfg;
  const gnn_mm_params_t *p;
  uint64_t R, C, D[3];
  int bias_mm, ws_pre;
  uint64_t Mt, Kt, Nt, MT, KT, NT;
  int ord[3];                     /* loop ids, outer to inner */
  uint64_t in_ones_off, wt_bias_off;
  uint64_t mem, ex, cost, steps;
  uint64_t lat, est, est_fill;    /* memory latency; estimated cycles and fill (est_cycles) */
} tiler_t;

typedef struct {
  tiler_t *v;
  size_t n, cap;
} cands_t;

/* Lines used by a MATMUL (gnnerator.h), 64-bit. */
static void lines3(const tiler_t *t, uint64_t m, uint64_t k, uint64_t n, uint64_t l[3]) {
  const uint64_t R = t->R, C = t->C;
  switch (t->p->df) {
    case GNN_DF_OS:
      l[0] = cdiv(m, R) * k, l[1] = cdiv(n, C) * k, l[2] = cdiv(m, R) * n;
      break;
    case GNN_DF_WS:
      l[0] = cdiv(k, R) * m, l[1] = cdiv(n, C) * cdiv(k, R) * R, l[2] = cdiv(n, C) * m;
      break;
    default:
      l[0] = cdiv(m, C) * cdiv(k, R) * R, l[1] = cdiv(k, R) * n, l[2] = cdiv(m, C) * n;
      break;
  }
}

/* Whether a tile fits one bank of each buffer, with the bias MATMUL's lines above it. */
static int fits(const tiler_t *t, uint64_t m, uint64_t k, uint64_t n) {
  uint64_t l[3], b[3] = {0, 0, 0};
  lines3(t, m, k, n, l);
  if (t->bias_mm) lines3(t, m, 1, n, b);
  return l[0] + b[0] <= t->D[0] && l[1] + b[1] <= t->D[1] && l[2] <= t->D[2];
}

/* Largest x in [1, hi] with ok(x) (ok monotone decreasing), 0 if none. which: 0 m, 1 n, 2 k. */
static uint64_t maxfit(const tiler_t *t, int which, uint64_t hi, uint64_t m, uint64_t k,
                       uint64_t n) {
  uint64_t lo = 0; /* ok(lo) or lo == 0 */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    int ok = which == 0 ? fits(t, mid, k, n) : which == 1 ? fits(t, m, k, mid) : fits(t, m, mid, n);
    if (ok) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* A tile size for `cnt` tiles of a dimension of length L: equal tiles, rounded up to whole
 * blocks of blk when that stays <= tmax. */
static uint64_t balanced(uint64_t L, uint64_t cnt, uint64_t tmax, uint64_t blk) {
  uint64_t t = cdiv(L, cnt), tr = umin(L, cdiv(t, blk) * blk);
  return tr <= tmax ? tr : t;
}

/* sum over the tiles of length T of a dimension L of ceil(tile / b) */
static uint64_t sum_tiles(uint64_t L, uint64_t T, uint64_t b) {
  uint64_t cnt = cdiv(L, T), last = L - (cnt - 1) * T;
  return (cnt - 1) * cdiv(T, b) + cdiv(last, b);
}

/* EX cycles of one MATMUL: the formulas of docs/gnnerator.md "Timing" (gnn_matmul_cycles),
 * repeated here so that the library does not need the cycle model. */
static uint64_t ex_est(const tiler_t *t, uint64_t m, uint64_t k, uint64_t n) {
  const uint64_t R = t->R, C = t->C;
  switch (t->p->df) {
    case GNN_DF_OS: return cdiv(m, R) * cdiv(n, C) * (k + R + C - 2);
    case GNN_DF_WS: return cdiv(k, R) * cdiv(n, C) * (2 * R + C + m + 1);
    default: return cdiv(m, C) * cdiv(k, R) * (2 * R + C + n + 1);
  }
}

static const char kOrders[6][4] = {"nmk", "mnk", "nkm", "mkn", "knm", "kmn"};

static int loop_id(char c) { return c == 'm' ? LM : c == 'n' ? LN : LK; }

/* Loads of the content depending on loops `mask` (bit per loop id): the product of the trips
 * of the loops down to the innermost dependent loop with more than one trip. */
static uint64_t changes(const tiler_t *t, unsigned mask) {
  const uint64_t trips[3] = {t->MT, t->NT, t->KT};
  int inner = -1;
  for (int p = 0; p < 3; p++)
    if ((mask >> t->ord[p] & 1) && trips[t->ord[p]] > 1) inner = p;
  uint64_t c = 1;
  for (int p = 0; p <= inner; p++) c *= trips[t->ord[p]];
  return c;
}

static void evaluate(tiler_t *t) {
  const gnn_mm_params_t *p = t->p;
  const uint64_t M = p->m, K = p->k, N = p->n, R = t->R, C = t->C;
  t->MT = cdiv(M, t->Mt), t->NT = cdiv(N, t->Nt), t->KT = cdiv(K, t->Kt);
  t->steps = t->MT * t->NT * t->KT;
  /* DRAM lines of one pass over each operand */
  uint64_t la, lb, lc, lbias;
  switch (p->df) {
    case GNN_DF_OS:
      la = sum_tiles(M, t->Mt, R) * K, lb = sum_tiles(N, t->Nt, C) * K;
      lc = sum_tiles(M, t->Mt, R) * N, lbias = sum_tiles(N, t->Nt, C);
      break;
    case GNN_DF_WS:
      la = sum_tiles(K, t->Kt, R) * M, lb = sum_tiles(N, t->Nt, C) * K;
      lc = sum_tiles(N, t->Nt, C) * M, lbias = sum_tiles(N, t->Nt, C);
      break;
    default:
      la = sum_tiles(M, t->Mt, C) * K, lb = sum_tiles(K, t->Kt, R) * N;
      lc = sum_tiles(M, t->Mt, C) * N, lbias = N;
      break;
  }
  uint64_t pa = changes(t, 1u << LM | 1u << LK) / (t->MT * t->KT);
  uint64_t pb = changes(t, 1u << LN | 1u << LK) / (t->NT * t->KT);
  uint64_t pc = changes(t, 1u << LM | 1u << LN) / (t->MT * t->NT);
  uint64_t pre = (pc - 1) + (p->acc || t->ws_pre ? 1 : 0);
  t->mem = pa * la + pb * lb + (pc + pre) * lc + (t->bias_mm ? pb * lbias : 0);
  /* EX: tile sizes take two values per dimension (full, last) */
  uint64_t ex = 0;
  const uint64_t dims[3] = {M, K, N}, ts[3] = {t->Mt, t->Kt, t->Nt};
  uint64_t sz[3][2], cnt[3][2];
  for (int d = 0; d < 3; d++) {
    uint64_t c = cdiv(dims[d], ts[d]);
    sz[d][0] = ts[d], cnt[d][0] = c - 1;
    sz[d][1] = dims[d] - (c - 1) * ts[d], cnt[d][1] = 1;
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      uint64_t w = cnt[0][i] * cnt[2][j];
      if (!w) continue;
      for (int k = 0; k < 2; k++)
        if (cnt[1][k]) ex += w * cnt[1][k] * ex_est(t, sz[0][i], sz[1][k], sz[2][j]);
      if (t->bias_mm) ex += w * ex_est(t, sz[0][i], 1, sz[2][j]);
    }
  t->ex = ex;
  const uint64_t both = t->mem + ex;
  t->cost = umax(t->mem, ex) + both / t->steps + both / 8 + 16 * t->steps;
}

/* Adds tile mt x kt x nt in every allowed order to the candidates (once each). */
static void try_tile(const tiler_t *t, int forced_order, uint64_t mt, uint64_t kt, uint64_t nt,
                     cands_t *cs, int *oom) {
  for (int io = 0; io < 6; io++) {
    if (forced_order >= 0 && io != forced_order) continue;
    tiler_t c = *t;
    c.Mt = mt, c.Kt = kt, c.Nt = nt;
    for (int q = 0; q < 3; q++) c.ord[q] = loop_id(kOrders[io][q]);
    int dup = 0;
    for (size_t i = 0; i < cs->n && !dup; i++)
      dup = cs->v[i].Mt == mt && cs->v[i].Kt == kt && cs->v[i].Nt == nt &&
            !memcmp(cs->v[i].ord, c.ord, sizeof c.ord);
    if (dup) continue;
    evaluate(&c);
    if (grow((void **)&cs->v, &cs->cap, cs->n, sizeof *cs->v) != 0) {
      *oom = 1;
      return;
    }
    cs->v[cs->n++] = c;
  }
}

/* The candidate plans (tiles and orders) into cs (t->cfg, p, R, C, D, bias_mm, ws_pre set).
 * 0 or -1. */
static int choose(const tiler_t *t, cands_t *cs, char *err, size_t errlen) {
  const gnn_mm_params_t *p = t->p;
  const uint64_t M = p->m, K = p->k, N = p->n;
  const uint64_t kblk = p->df == GNN_DF_OS ? 1 : t->R;
  const uint64_t mblk = p->df == GNN_DF_WS ? 1 : p->df == GNN_DF_OS ? t->R : t->C;
  const uint64_t nblk = p->df == GNN_DF_IS ? 1 : t->C;
  int forced_order = -1;
  if (p->order) {
    for (int io = 0; io < 6; io++)
      if (!strcmp(p->order, kOrders[io])) forced_order = io;
    if (forced_order < 0) return ERR("bad loop order '%s' (a permutation of m, n, k)", p->order);
  }
  if (!fits(t, 1, 1, 1)) {
    uint64_t l[3], b[3] = {0, 0, 0};
    lines3(t, 1, 1, 1, l);
    if (t->bias_mm) lines3(t, 1, 1, 1, b);
    return ERR("the %s dataflow does not fit this cfg: a 1x1x1 tile%s needs %" PRIu64
               " IN, %" PRIu64 " WT and %" PRIu64 " OUT lines per bank (depths %" PRIu64
               ", %" PRIu64 ", %" PRIu64 ")",
               kDfNames[p->df], t->bias_mm ? " with the bias MATMUL" : "", l[0] + b[0],
               l[1] + b[1], l[2], t->D[0], t->D[1], t->D[2]);
  }
  int oom = 0;
  if (p->tile_m || p->tile_k || p->tile_n) {
    if (!p->tile_m || !p->tile_k || !p->tile_n) return ERR("give all three tile sizes or none");
    uint64_t mt = umin(p->tile_m, M), kt = umin(p->tile_k, K), nt = umin(p->tile_n, N);
    if (!fits(t, mt, kt, nt))
      return ERR("tile %" PRIu64 "x%" PRIu64 "x%" PRIu64 " does not fit one bank per buffer",
                 mt, kt, nt);
    try_tile(t, forced_order, mt, kt, nt, cs, &oom);
  } else {
    const uint64_t kmax = maxfit(t, 2, K, 1, 0, 1);
    const uint64_t kc0 = cdiv(K, kmax);
    uint64_t kts[12];
    int nkt = 0;
    const uint64_t mult[5] = {1, 0, 2, 4, 8}; /* 0: kc0 + 1 */
    for (int i = 0; i < 5; i++) {
      if (p->df == GNN_DF_OS && kc0 == 1 && i > 0) break; /* OS: split only when needed */
      uint64_t kc = mult[i] ? kc0 * mult[i] : kc0 + 1;
      uint64_t kt = balanced(K, umin(kc, K), kmax, kblk);
      int dup = 0;
      for (int j = 0; j < nkt; j++) dup |= kts[j] == kt;
      if (!dup) kts[nkt++] = kt;
    }
    /* WS/IS: chunks of a few R blocks, down to one, let the streamed dimension (M in WS, N
     * in IS) fill a bank: fewer folds' fill and drain (2R + C per fold and M- or N-tile) */
    for (uint64_t j = 1; p->df != GNN_DF_OS && j <= 16; j *= 2) {
      uint64_t kt = j * t->R;
      if (kt >= K || kt > kmax) break;
      int dup = 0;
      for (int i = 0; i < nkt; i++) dup |= kts[i] == kt;
      if (!dup && nkt < (int)(sizeof kts / sizeof kts[0])) kts[nkt++] = kt;
    }
    for (int ik = 0; ik < nkt; ik++) {
      const uint64_t kt = kts[ik];
      for (int first = 0; first < 2; first++) { /* 0: Nt first, 1: Mt first */
        uint64_t tmax = first == 0 ? maxfit(t, 1, N, 1, kt, 0) : maxfit(t, 0, M, 0, kt, 1);
        uint64_t L = first == 0 ? N : M, c0 = cdiv(L, tmax);
        const uint64_t cm[6] = {1, 0, 2, 4, 8, 16};
        for (int ic = 0; ic < 6; ic++) {
          uint64_t cnt = cm[ic] ? c0 * cm[ic] : c0 + 1;
          if (cnt > L) break;
          uint64_t mt, nt;
          if (first == 0) {
            nt = balanced(N, cnt, tmax, nblk);
            uint64_t mm = maxfit(t, 0, M, 0, kt, nt);
            mt = balanced(M, cdiv(M, mm), mm, mblk);
          } else {
            mt = balanced(M, cnt, tmax, mblk);
            uint64_t nm = maxfit(t, 1, N, mt, kt, 0);
            nt = balanced(N, cdiv(N, nm), nm, nblk);
          }
          try_tile(t, forced_order, mt, kt, nt, cs, &oom);
        }
      }
    }
  }
  if (oom) return ERR("out of memory");
  for (size_t i = 0; i < cs->n; i++) {
    uint64_t l[3];
    lines3(&cs->v[i], cs->v[i].Mt, cs->v[i].Kt, cs->v[i].Nt, l);
    cs->v[i].in_ones_off = l[0];
    cs->v[i].wt_bias_off = l[1];
  }
  return 0;
}

/* ---- emission ---- */

typedef struct {
  gnn_prog_t *prog;
  size_t max;
  int full;                       /* max reached or out of memory */
} em_t;

static void put(em_t *e, gnn_insn_t in) {
  if (e->full) return;
  if (e->prog->n >= e->max || gnn_prog_push(e->prog, in) != 0) e->full = 1;
}

static void ld(em_t *e, unsigned buf, uint64_t line, uint64_t n, uint64_t w, uint64_t addr,
               uint64_t stride) {
  put(e, gnn_enc_load(buf, (unsigned)line, (unsigned)n, (unsigned)w, (uint32_t)addr,
                      (uint32_t)stride));
}

typedef struct {
  uint64_t m0, mt, k0, kt, n0, nt;
} tile_t;

/* A (m0.., k0..) into IN lines from base. */
static void load_a(const tiler_t *t, em_t *e, uint64_t base, const tile_t *x) {
  const gnn_mm_params_t *p = t->p;
  const uint64_t R = t->R, C = t->C;
  if (p->df == GNN_DF_OS) {
    for (uint64_t mb = 0; mb * R < x->mt; mb++)
      ld(e, GNN_BUF_IN, base + mb * x->kt, x->kt, umin(R, x->mt - mb * R),
         p->a + x->k0 * p->m + x->m0 + mb * R, p->m);
  } else if (p->df == GNN_DF_WS) {
    for (uint64_t kb = 0; kb * R < x->kt; kb++)
      ld(e, GNN_BUF_IN, base + kb * x->mt, x->mt, umin(R, x->kt - kb * R),
         p->a + x->m0 * p->k + x->k0 + kb * R, p->k);
  } else {
    const uint64_t kbr = cdiv(x->kt, R) * R;
    for (uint64_t mb = 0; mb * C < x->mt; mb++)
      ld(e, GNN_BUF_IN, base + mb * kbr, x->kt, umin(C, x->mt - mb * C),
         p->a + x->k0 * p->m + x->m0 + mb * C, p->m);
  }
}

/* B (k0.., n0..) into WT lines from base. */
static void load_b(const tiler_t *t, em_t *e, uint64_t base, const tile_t *x) {
  const gnn_mm_params_t *p = t->p;
  const uint64_t R = t->R, C = t->C;
  if (p->df == GNN_DF_IS) {
    for (uint64_t kb = 0; kb * R < x->kt; kb++)
      ld(e, GNN_BUF_WT, base + kb * x->nt, x->nt, umin(R, x->kt - kb * R),
         p->b + x->n0 * p->k + x->k0 + kb * R, p->k);
  } else {
    const uint64_t per = p->df == GNN_DF_OS ? x->kt : cdiv(x->kt, R) * R;
    for (uint64_t nb = 0; nb * C < x->nt; nb++)
      ld(e, GNN_BUF_WT, base + nb * per, x->kt, umin(C, x->nt - nb * C),
         p->b + x->k0 * p->n + x->n0 + nb * C, p->n);
  }
}

/* C tile (m0.., n0..) between OUT lines from base and DRAM: store, or load (C_old, partial). */
static void xfer_c(const tiler_t *t, em_t *e, uint64_t base, const tile_t *x, int store) {
  const gnn_mm_params_t *p = t->p;
  const uint64_t R = t->R, C = t->C;
  uint64_t blk = p->df == GNN_DF_OS ? R : C;
  if (p->df == GNN_DF_WS) {
    for (uint64_t nb = 0; nb * C < x->nt; nb++) {
      uint64_t line = base + nb * x->mt, w = umin(C, x->nt - nb * C);
      uint64_t addr = p->c + x->m0 * p->n + x->n0 + nb * C;
      if (store) put(e, gnn_enc_store((unsigned)line, (unsigned)x->mt, (unsigned)w,
                                      (uint32_t)addr, (uint32_t)p->n));
      else ld(e, GNN_BUF_OUT, line, x->mt, w, addr, p->n);
    }
  } else {
    for (uint64_t mb = 0; mb * blk < x->mt; mb++) {
      uint64_t line = base + mb * x->nt, w = umin(blk, x->mt - mb * blk);
      uint64_t addr = p->c + x->n0 * p->m + x->m0 + mb * blk;
      if (store) put(e, gnn_enc_store((unsigned)line, (unsigned)x->nt, (unsigned)w,
                                      (uint32_t)addr, (uint32_t)p->m));
      else ld(e, GNN_BUF_OUT, line, x->nt, w, addr, p->m);
    }
  }
}

/* The ones (A of the bias MATMUL, M = Mt, K = 1) into IN lines from base. */
static void load_ones(const tiler_t *t, em_t *e, uint64_t base) {
  const gnn_mm_params_t *p = t->p;
  if (p->df == GNN_DF_OS) ld(e, GNN_BUF_IN, base, cdiv(t->Mt, t->R), t->R, p->ones_addr, 0);
  else if (p->df == GNN_DF_WS) ld(e, GNN_BUF_IN, base, t->Mt, 1, p->ones_addr, 0);
  else ld(e, GNN_BUF_IN, base, cdiv(t->Mt, t->C) * t->R, t->C, p->ones_addr, 0);
}

/* The bias row of the n-tile (B of the bias MATMUL, K = 1) into WT lines from base. */
static void load_bias_wt(const tiler_t *t, em_t *e, uint64_t base, const tile_t *x) {
  const gnn_mm_params_t *p = t->p;
  const uint64_t C = t->C;
  if (p->df == GNN_DF_IS) {
    ld(e, GNN_BUF_WT, base, x->nt, 1, p->bias_addr + x->n0, 1);
  } else if (p->df == GNN_DF_OS) {
    uint64_t full = x->nt / C, tail = x->nt % C;
    if (full) ld(e, GNN_BUF_WT, base, full, C, p->bias_addr + x->n0, C);
    if (tail) ld(e, GNN_BUF_WT, base + full, 1, tail, p->bias_addr + x->n0 + full * C, 0);
  } else {
    for (uint64_t nb = 0; nb * C < x->nt; nb++)
      ld(e, GNN_BUF_WT, base + nb * t->R, 1, umin(C, x->nt - nb * C),
         p->bias_addr + x->n0 + nb * C, 0);
  }
}

/* WS: the bias row broadcast into the OUT lines of the tile by a stride-0 LOAD per n-block. */
static void load_bias_out(const tiler_t *t, em_t *e, uint64_t base, const tile_t *x) {
  const uint64_t C = t->C;
  for (uint64_t nb = 0; nb * C < x->nt; nb++)
    ld(e, GNN_BUF_OUT, base + nb * x->mt, x->mt, umin(C, x->nt - nb * C),
       t->p->bias_addr + x->n0 + nb * C, 0);
}

typedef struct {
  uint64_t idx[3];                /* by loop id */
  uint64_t in_key, wt_key, out_key;
  int in_bank, wt_bank, out_bank;
  int in_new, wt_new, vstart;
  tile_t x;
} step_t;

/* Step s of the loop nest.  The m and n loops run back and forth (boustrophedon): a loop
 * reverses when the loops outside it have advanced an odd number of times, so consecutive
 * steps across an outer iteration share the m- or n-tile (its operand is still in a bank).  The
 * K loop always runs forward (WS/IS continue the fma chain, chunk 0 carries acc/bias). */
static step_t mk_step(const tiler_t *t, uint64_t s) {
  step_t st;
  memset(&st, 0, sizeof st);
  const uint64_t trips[3] = {t->MT, t->NT, t->KT};
  const uint64_t t0 = trips[t->ord[0]], t1 = trips[t->ord[1]], t2 = trips[t->ord[2]];
  const uint64_t d0 = s / (t1 * t2), d1 = s / t2 % t1, d2 = s % t2;
  (void)t0;
  st.idx[t->ord[0]] = d0;
  st.idx[t->ord[1]] = t->ord[1] != LK && (d0 & 1) ? t1 - 1 - d1 : d1;
  st.idx[t->ord[2]] = t->ord[2] != LK && ((d0 * t1 + d1) & 1) ? t2 - 1 - d2 : d2;
  const gnn_mm_params_t *p = t->p;
  const uint64_t mi = st.idx[LM], ni = st.idx[LN], ki = st.idx[LK];
  st.in_key = mi * t->KT + ki;
  st.wt_key = ni * t->KT + ki;
  st.out_key = mi * t->NT + ni;
  st.x.m0 = mi * t->Mt, st.x.mt = umin(t->Mt, p->m - st.x.m0);
  st.x.k0 = ki * t->Kt, st.x.kt = umin(t->Kt, p->k - st.x.k0);
  st.x.n0 = ni * t->Nt, st.x.nt = umin(t->Nt, p->n - st.x.n0);
  return st;
}

/* Steps per visit of an output tile: the K trips when every loop inside the innermost m/n loop
 * of more than one trip is K (K innermost), else 1; all the steps when m and n have one trip. */
static uint64_t visit_len(const tiler_t *t) {
  const uint64_t trips[3] = {t->MT, t->NT, t->KT};
  int inner = -1;
  for (int q = 0; q < 3; q++)
    if (t->ord[q] != LK && trips[t->ord[q]] > 1) inner = q;
  if (inner < 0) return t->KT;
  return inner < 2 && t->ord[2] == LK ? t->KT : 1;
}

typedef struct {
  uint64_t line, n, w, addr, stride;
} seg_t;

typedef struct {
  const tiler_t *t;
  em_t e;
  int ones[2];                    /* ones loaded in IN bank b */
  uint64_t hold[2][2];            /* IN/WT: key + 1 held by each bank (0: nothing) */
  seg_t *seg;                     /* STORE segments of the finished visit not yet emitted */
  size_t nseg, capseg, segi;
  uint64_t seg_left, seg_quota;   /* lines left; lines per step */
} gen_t;

static uint64_t bank_base(const tiler_t *t, int buf, int bank) {
  return (uint64_t)bank * t->D[buf];
}

static void emit_loads(gen_t *g, const step_t *s) {
  const tiler_t *t = g->t;
  /* the ones go with the first content of each IN bank: never into the bank in use */
  if (s->in_new) {
    load_a(t, &g->e, bank_base(t, 0, s->in_bank), &s->x);
    if (t->bias_mm && !g->ones[s->in_bank]) {
      load_ones(t, &g->e, bank_base(t, 0, s->in_bank) + t->in_ones_off);
      g->ones[s->in_bank] = 1;
    }
  }
  if (s->wt_new) {
    load_b(t, &g->e, bank_base(t, 1, s->wt_bank), &s->x);
    if (t->bias_mm && s->idx[LK] == 0)
      load_bias_wt(t, &g->e, bank_base(t, 1, s->wt_bank) + t->wt_bias_off, &s->x);
  }
}

static void emit_preloads(gen_t *g, const step_t *s) {
  const tiler_t *t = g->t;
  if (!s->vstart) return;
  uint64_t base = bank_base(t, 2, s->out_bank);
  if (s->idx[LK] > 0 || t->p->acc) xfer_c(t, &g->e, base, &s->x, 0);
  else if (t->ws_pre) load_bias_out(t, &g->e, base, &s->x);
}

static void emit_matmuls(gen_t *g, const step_t *s) {
  const tiler_t *t = g->t;
  const gnn_mm_params_t *p = t->p;
  const uint64_t in = bank_base(t, 0, s->in_bank), wt = bank_base(t, 1, s->wt_bank);
  const uint64_t out = bank_base(t, 2, s->out_bank);
  const uint64_t ki = s->idx[LK];
  if (t->bias_mm && s->vstart && ki == 0)
    put(&g->e, gnn_enc_matmul(p->df, p->acc, GNN_ACT_NONE, (unsigned)s->x.mt, 1,
                              (unsigned)s->x.nt, (unsigned)(in + t->in_ones_off),
                              (unsigned)(wt + t->wt_bias_off), (unsigned)out));
  unsigned acc = ki > 0 || p->acc || p->bias;
  unsigned act = ki == t->KT - 1 ? p->act : GNN_ACT_NONE;
  put(&g->e, gnn_enc_matmul(p->df, acc, act, (unsigned)s->x.mt, (unsigned)s->x.kt,
                            (unsigned)s->x.nt, (unsigned)in, (unsigned)wt, (unsigned)out));
}

/* The STORE segments of output tile x (bank base): what xfer_c(store) emits, kept for later. */
static void queue_store(gen_t *g, uint64_t base, const tile_t *x, uint64_t vlen) {
  const tiler_t *t = g->t;
  gnn_prog_t tmp;
  gnn_prog_init(&tmp);
  em_t e = {&tmp, (size_t)1 << 30, 0};
  xfer_c(t, &e, base, x, 1);
  g->nseg = g->segi = 0;
  g->seg_left = 0;
  for (size_t i = 0; i < tmp.n && !e.full; i++) {
    if (grow((void **)&g->seg, &g->capseg, g->nseg, sizeof *g->seg) != 0) {
      g->e.full = 1;
      break;
    }
    gnn_fields_t f;
    gnn_fields(&tmp.insn[i], &f);
    g->seg[g->nseg++] = (seg_t){f.line, f.n, f.w, f.addr, f.stride};
    g->seg_left += f.n;
  }
  if (e.full) g->e.full = 1;
  gnn_prog_free(&tmp);
  g->seg_quota = cdiv(g->seg_left, vlen ? vlen : 1);
}

/* Emits up to `lines` lines of the queued STORE segments (all of them when lines = 0). */
static void emit_store_part(gen_t *g, uint64_t lines) {
  if (!lines) lines = UINT64_MAX;
  while (lines && g->segi < g->nseg) {
    seg_t *s = &g->seg[g->segi];
    uint64_t n = umin(lines, s->n);
    put(&g->e, gnn_enc_store((unsigned)s->line, (unsigned)n, (unsigned)s->w, (uint32_t)s->addr,
                             (uint32_t)s->stride));
    s->line += n, s->addr += n * s->stride, s->n -= n;
    lines -= n, g->seg_left -= n;
    if (!s->n) g->segi++;
  }
}

/* Splits the last instruction (a LOAD of n >= 2 lines, emitted at index >= from) into n - 1
 * lines and 1 line: the STORE behind it issues only when the LD unit has requested all but the
 * last line, so it uses the memory port while the LD unit waits for the banks, instead of
 * sharing the port with the loads the next MATMUL waits for. */
static void split_last_load(gen_t *g, size_t from) {
  gnn_prog_t *pr = g->e.prog;
  if (g->e.full || pr->n <= from) return;
  gnn_fields_t f;
  gnn_fields(&pr->insn[pr->n - 1], &f);
  if (f.op != GNN_OP_LOAD || f.n < 2) return;
  pr->insn[pr->n - 1] = gnn_enc_load(f.buf, f.line, f.n - 1, f.w, f.addr, f.stride);
  put(&g->e, gnn_enc_load(f.buf, f.line + f.n - 1, 1, f.w,
                          (uint32_t)(f.addr + (uint64_t)(f.n - 1) * f.stride), f.stride));
}

/* Where step s finds its IN/WT content: the bank of the step before (cur) when it holds it,
 * else the other bank if that holds it (two contents alternate), else a load into the other
 * bank (which the step before does not use). */
static void place(gen_t *g, int buf, uint64_t key, int cur_bank, int *bank, int *is_new) {
  if (g->hold[buf][cur_bank] == key + 1) *bank = cur_bank, *is_new = 0;
  else if (g->hold[buf][1 - cur_bank] == key + 1) *bank = 1 - cur_bank, *is_new = 0;
  else *bank = 1 - cur_bank, *is_new = 1, g->hold[buf][1 - cur_bank] = key + 1;
}

/* For steps s = 0, 1, ...:  X(s) L(s+1) S P(s+1): the step's MATMUL(s), the loads of the next
 * step's new contents (into banks the step before X(s) used), a part of the STOREs of the
 * last finished visit (spread over the steps of the current visit: its bank is needed again
 * only by the next visit), then the next visit's OUT pre-loads (after the STOREs of its bank). */
static void generate(gen_t *g) {
  const tiler_t *t = g->t;
  const uint64_t S = t->steps, vlen = visit_len(t);
  step_t cur = mk_step(t, 0), nxt;
  memset(&nxt, 0, sizeof nxt);
  cur.in_new = cur.wt_new = cur.vstart = 1;
  g->hold[0][0] = cur.in_key + 1;
  g->hold[1][0] = cur.wt_key + 1;
  emit_loads(g, &cur);
  emit_preloads(g, &cur);
  for (uint64_t s = 0; s < S && !g->e.full; s++) {
    emit_matmuls(g, &cur);
    const int more = s + 1 < S;
    const size_t before = g->e.prog->n;
    if (more) {
      nxt = mk_step(t, s + 1);
      place(g, 0, nxt.in_key, cur.in_bank, &nxt.in_bank, &nxt.in_new);
      place(g, 1, nxt.wt_key, cur.wt_bank, &nxt.wt_bank, &nxt.wt_new);
      nxt.vstart = nxt.out_key != cur.out_key;
      nxt.out_bank = nxt.vstart ? 1 - cur.out_bank : cur.out_bank;
      emit_loads(g, &nxt);
    }
    if (g->seg_left) {
      /* the whole rest when the next step starts a visit (its pre-loads need the bank) */
      const int all = !more || nxt.vstart;
      split_last_load(g, before);
      emit_store_part(g, all ? 0 : g->seg_quota);
    }
    if (!more || nxt.vstart) queue_store(g, bank_base(t, 2, cur.out_bank), &cur.x, vlen);
    if (more) {
      emit_preloads(g, &nxt);
      cur = nxt;
    }
  }
  emit_store_part(g, 0);
  free(g->seg);
  g->seg = NULL;
}

/* ---- timing estimate of a program (choice between plans) ----
 * An instruction-level version of gnn_cycles (cmodel/gnnerator/gnn_cycle.c, the exact model,
 * which steps every cycle and is too slow to try hundreds of plans of the paper's shapes): the
 * same in-order issue rules, evaluated per instruction with the units' end times; LD and ST
 * share the memory port half and half while both have requests.  Within a few per mille of
 * gnn_cycles on the tiler's programs. */
typedef struct {
  uint64_t lat, pt, ld_rem, st_rem, last;
  unsigned ld_banks, st_banks;
  uint64_t ld_lo, ld_hi, st_lo, st_hi;
  uint64_t pend[6];               /* LD responses into bank b until (exclusive) */
  uint64_t ex_end, dr_end;
  unsigned ex_banks, dr_banks;
  int ex_os;
} est_t;

static void est_ld_done(est_t *e) {
  for (int b = 0; b < 6; b++)
    if (e->ld_banks >> b & 1) e->pend[b] = umax(e->pend[b], e->pt + e->lat);
}

/* Port progress up to time to. */
static void est_adv(est_t *e, uint64_t to) {
  while (e->pt < to && (e->ld_rem || e->st_rem)) {
    const uint64_t dt = to - e->pt;
    if (e->ld_rem && e->st_rem) {
      uint64_t k = umin(dt / 2, umin(e->ld_rem, e->st_rem));
      if (!k) { /* one cycle left: the LD request */
        e->ld_rem--, e->pt++;
        if (!e->ld_rem) est_ld_done(e);
        continue;
      }
      e->ld_rem -= k, e->st_rem -= k, e->pt += 2 * k;
      if (!e->ld_rem) est_ld_done(e);
    } else if (e->ld_rem) {
      uint64_t k = umin(dt, e->ld_rem);
      e->ld_rem -= k, e->pt += k;
      if (!e->ld_rem) est_ld_done(e);
    } else {
      uint64_t k = umin(dt, e->st_rem);
      e->st_rem -= k, e->pt += k;
    }
  }
  if (e->pt < to) e->pt = to;
}

/* Projected end of the LD (which 0) or ST (1) requests, no new job meanwhile. */
static uint64_t est_fin(const est_t *e, int which) {
  uint64_t a = which ? e->st_rem : e->ld_rem, b = which ? e->ld_rem : e->st_rem;
  if (!a) return e->pt;
  if (!b) return e->pt + a;
  return a <= b ? e->pt + 2 * a : e->pt + 2 * b + (a - b);
}

static uint64_t est_cycles(const gnn_cfg_t *cfg, uint64_t lat, const gnn_insn_t *prog,
                           size_t n, uint64_t *first_ex) {
  est_t e;
  memset(&e, 0, sizeof e);
  e.lat = lat;
  uint64_t c = 0, end = 0;
  *first_ex = 0;
  for (size_t i = 0; i < n; i++) {
    gnn_use_t u;
    gnn_fields_t f;
    gnn_use(cfg, &prog[i], &u);
    gnn_fields(&prog[i], &f);
    const uint64_t ldf = est_fin(&e, 0), stf = est_fin(&e, 1);
    uint64_t ld_pend = 0; /* banks the LD still writes: until when */
    c = i ? c + 1 : 0;
    unsigned pmask = e.ld_rem ? e.ld_banks : 0;
    for (int b = 0; b < 6; b++)
      if (u.banks >> b & 1) {
        uint64_t pu = e.pend[b];
        if (pmask >> b & 1) pu = umax(pu, ldf + lat);
        ld_pend = umax(ld_pend, pu);
      }
    const int st_bank = e.st_rem && (u.banks & e.st_banks);
    const int ex_bank = u.banks & e.ex_banks;
    const int dr_bank = u.banks & e.dr_banks;
    if (u.unit == 0) {
      if (e.ld_rem) c = umax(c, ldf + 1);
      if (e.st_rem && (st_bank || (u.dram_lo < e.st_hi && e.st_lo < u.dram_hi)))
        c = umax(c, stf + 1);
    } else if (u.unit == 1) {
      if (e.st_rem) c = umax(c, stf + 1);
      c = umax(c, ld_pend);
      if (e.ld_rem && u.dram_lo < e.ld_hi && e.ld_lo < u.dram_hi) c = umax(c, ldf + 1);
    } else {
      c = umax(c, e.ex_end);
      const int os_mm = f.op == GNN_OP_MATMUL && f.df == GNN_DF_OS;
      if (!os_mm) c = umax(c, e.dr_end + 1);
      c = umax(c, ld_pend);
      if (st_bank) c = umax(c, stf + 1);
    }
    if (u.unit != 2) {
      if (ex_bank) c = umax(c, e.ex_end);
      if (dr_bank) c = umax(c, e.dr_end + 1);
    }
    est_adv(&e, c + 1);
    if (u.unit == 0) {
      e.ld_rem = f.n, e.ld_banks = u.banks, e.ld_lo = u.dram_lo, e.ld_hi = u.dram_hi;
    } else if (u.unit == 1) {
      e.st_rem = f.n, e.st_banks = u.banks, e.st_lo = u.dram_lo, e.st_hi = u.dram_hi;
    } else {
      uint64_t len = f.op == GNN_OP_MATMUL ? gnn_matmul_cycles(cfg, f.df, f.m, f.k, f.nn)
                                           : (uint64_t)f.n + (f.op == GNN_OP_COPY ? 1u : 2u);
      if (!*first_ex) *first_ex = c + 1;
      e.ex_end = c + len;
      e.ex_banks = u.banks;
      end = umax(end, e.ex_end);
      if (f.op == GNN_OP_MATMUL && f.df == GNN_DF_OS) {
        e.dr_end = c + len + 2, e.dr_banks = u.banks & 0x30u;
        end = umax(end, c + len + 3);
      }
    }
  }
  end = umax(end, est_fin(&e, 1) + 1);
  est_adv(&e, UINT64_MAX / 4);
  for (int b = 0; b < 6; b++) end = umax(end, e.pend[b]);
  return end + 2;
}

#define PICK_MAX 128 /* candidates timed at most (compile time) */

/* Sorts by EX cycles (a lower bound of the time), then steps. */
static int cmp_ex(const void *a, const void *b) {
  const tiler_t *x = a, *y = b;
  if (x->ex != y->ex) return x->ex < y->ex ? -1 : 1;
  if (x->steps != y->steps) return x->steps < y->steps ? -1 : 1;
  return 0;
}

/* Generates each candidate's program and estimates its time (est_cycles); the fastest wins
 * (ties: fewer instructions).  Candidates are tried by increasing EX cycles and the search stops
 * at the first whose EX cycles alone exceed the best estimate.  0, or -1 (out of memory). */
static int pick(cands_t *cs, size_t max_insns, tiler_t *best) {
  qsort(cs->v, cs->n, sizeof *cs->v, cmp_ex);
  int have = 0;
  size_t best_n = 0;
  gnn_prog_t pr;
  gnn_prog_init(&pr);
  for (size_t i = 0; i < cs->n; i++) {
    tiler_t *c = &cs->v[i];
    if (have && (c->ex >= best->est || i >= PICK_MAX)) break;
    gen_t g;
    memset(&g, 0, sizeof g);
    g.t = c;
    pr.n = 0;
    g.e.prog = &pr;
    g.e.max = max_insns;
    generate(&g);
    if (g.e.full) {
      if (pr.n < max_insns) { /* out of memory */
        gnn_prog_free(&pr);
        return -1;
      }
      continue; /* too long */
    }
    c->est = est_cycles(c->cfg, c->lat, pr.insn, pr.n, &c->est_fill);
    if (!have || c->est < best->est || (c->est == best->est && pr.n < best_n)) {
      *best = *c;
      best_n = pr.n;
      have = 1;
    }
  }
  gnn_prog_free(&pr);
  if (!have) *best = cs->v[0]; /* every candidate too long: the caller reports it */
  return 0;
}

int gnn_mm_needs_ones(const gnn_mm_params_t *p) {
  return p->bias && (p->df != GNN_DF_WS || p->acc);
}

static int overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) {
  return a < b + bn && b < a + an;
}

int gnn_compile_matmul(const gnn_cfg_t *cfg, const gnn_mm_params_t *p, gnn_prog_t *prog,
                       gnn_mm_plan_t *plan, char *err, size_t errlen) {
  gnn_prog_init(prog);
  if (plan) memset(plan, 0, sizeof *plan);
  gnn_cfg_t chk;
  if (gnn_cfg_init(&chk, cfg->rows, cfg->cols, cfg->depth[0], cfg->depth[1], cfg->depth[2],
                   cfg->addr_w) != 0)
    return ERR("invalid cfg");
  if (p->df > GNN_DF_IS) return ERR("dataflow %u out of range 0..2", p->df);
  if (p->m < 1 || p->m > 65535 || p->k < 1 || p->k > 65535 || p->n < 1 || p->n > 65535)
    return ERR("shape %ux%ux%u: M, K and N must be 1..65535", p->m, p->k, p->n);
  if (p->acc > 1 || p->act > GNN_ACT_RELU || p->bias > 1) return ERR("bad acc, act or bias");
  const uint64_t mem = 1ull << cfg->addr_w, lw = (uint64_t)chk.lw;
  const uint64_t M = p->m, K = p->k, N = p->n;
  struct { const char *name; uint64_t addr, n; int on; } r[5] = {
      {"A", p->a, M * K, 1}, {"B", p->b, K * N, 1}, {"C", p->c, M * N, 1},
      {"the bias", p->bias_addr, N, (int)p->bias}, {"the ones vector", p->ones_addr, lw,
      gnn_mm_needs_ones(p)}};
  for (int i = 0; i < 5; i++)
    if (r[i].on && (r[i].addr >= mem || r[i].n > mem - r[i].addr))
      return ERR("%s at 0x%" PRIx64 " (%" PRIu64 " words) runs past the 2^%d-word DRAM",
                 r[i].name, r[i].addr, r[i].n, cfg->addr_w);
  for (int i = 0; i < 5; i++)
    if (i != 2 && r[i].on && overlaps(p->c, M * N, r[i].addr, r[i].n))
      return ERR("C at 0x%" PRIx64 " overlaps %s at 0x%" PRIx64, p->c, r[i].name, r[i].addr);
  tiler_t t;
  memset(&t, 0, sizeof t);
  t.cfg = &chk;
  t.p = p;
  t.R = (uint64_t)chk.rows, t.C = (uint64_t)chk.cols;
  for (int b = 0; b < 3; b++) t.D[b] = (uint64_t)chk.depth[b];
  t.bias_mm = gnn_mm_needs_ones(p);
  t.ws_pre = p->bias && !t.bias_mm;
  t.lat = p->mem_latency ? p->mem_latency : 100;
  cands_t cs = {NULL, 0, 0};
  const size_t max_insns = p->max_insns ? p->max_insns : (size_t)1 << 24;
  if (choose(&t, &cs, err, errlen) != 0) {
    free(cs.v);
    return -1;
  }
  if (pick(&cs, max_insns, &t) != 0) {
    free(cs.v);
    return ERR("out of memory");
  }
  free(cs.v);
  gen_t g;
  memset(&g, 0, sizeof g);
  g.t = &t;
  g.e.prog = prog;
  g.e.max = max_insns;
  generate(&g);
  if (g.e.full) {
    int oom = prog->n < g.e.max;
    gnn_prog_free(prog);
    if (oom) return ERR("out of memory");
    return ERR("the program needs more than %zu instructions (tiles %" PRIu64 "x%" PRIu64
               "x%" PRIu64 ", %" PRIu64 " steps)", g.e.max, t.Mt, t.Kt, t.Nt, t.steps);
  }
  for (size_t i = 0; i < prog->n; i++) {
    int e = gnn_check(&chk, &prog->insn[i]);
    if (e != GNN_OK) {
      char s[160];
      cutil_seterr(err, errlen, "internal error: instruction %zu (%s) fails with %s", i,
                   gnn_insn_str(&prog->insn[i], s, sizeof s), gnn_err_name(e));
      gnn_prog_free(prog);
      return -1;
    }
  }
  if (plan) {
    plan->mt = (unsigned)t.Mt, plan->kt = (unsigned)t.Kt, plan->nt = (unsigned)t.Nt;
    plan->mtiles = (unsigned)t.MT, plan->ktiles = (unsigned)t.KT, plan->ntiles = (unsigned)t.NT;
    for (int q = 0; q < 3; q++) plan->order[q] = "mnk"[t.ord[q]];
    plan->order[3] = '\0';
    plan->bias_mm = t.bias_mm;
    plan->est_mem_lines = t.mem;
    plan->est_ex_cycles = t.ex;
    plan->est_cycles = t.est;
  }
  return 0;
}

/* ------------------------------------------------------------------ result check */

int gnn_mm_exact(const gnn_mm_params_t *p, const gnn_insn_t *prog, size_t n) {
  if (p->df != GNN_DF_OS) return 1;
  unsigned kmax = 0;
  for (size_t i = 0; i < n; i++) {
    gnn_fields_t f;
    gnn_fields(&prog[i], &f);
    if (f.op == GNN_OP_MATMUL && f.k > kmax) kmax = f.k;
  }
  return kmax >= p->k;
}

static double relu_d(double x) {
  if (isnan(x)) return x;
  return x < 0 || (x == 0 && signbit(x)) ? 0.0 : x;
}

uint64_t gnn_mm_verify(const gnn_mm_params_t *p, int exact, const uint32_t *a, const uint32_t *b,
                       const uint32_t *c_old, const uint32_t *bias, const uint32_t *got,
                       char *msg, size_t msglen) {
  const uint64_t M = p->m, K = p->k, N = p->n;
  uint64_t bad = 0, first_i = 0, first_j = 0;
  uint32_t first_got = 0, first_want = 0;
  double first_ref = 0;
  uint32_t *c = NULL;
  if (exact) {
    c = malloc(M * N * sizeof *c);
    if (!c) {
      cutil_seterr(msg, msglen, "out of memory");
      return M * N;
    }
    for (uint64_t i = 0; i < M; i++)
      for (uint64_t j = 0; j < N; j++) {
        uint32_t old = p->acc ? c_old[i * N + j] : 0;
        if (p->bias) old = p->acc ? gnn_add(old, bias[j]) : bias[j];
        c[i * N + j] = old;
      }
    gnn_matmul_ref(p->df, p->acc || p->bias, p->act, p->m, p->k, p->n, a, b, c);
  }
  for (uint64_t i = 0; i < M; i++)
    for (uint64_t j = 0; j < N; j++) {
      uint32_t g = got[i * N + j], want = 0;
      double ref = 0;
      int ok;
      if (exact) {
        want = c[i * N + j];
        ok = g == want;
      } else {
        double s = 0, mag = 0;
        if (p->acc) s += cutil_f32(c_old[i * N + j]), mag += fabs((double)cutil_f32(c_old[i * N + j]));
        if (p->bias) s += cutil_f32(bias[j]), mag += fabs((double)cutil_f32(bias[j]));
        for (uint64_t k = 0; k < K; k++) {
          double pr = (double)cutil_f32(a[i * K + k]) * (double)cutil_f32(b[k * N + j]);
          s += pr;
          mag += fabs(pr);
        }
        if (p->act == GNN_ACT_RELU) s = relu_d(s);
        ref = s;
        double gv = cutil_f32(g);
        if (isnan(s)) ok = isnan(gv);
        else if (isinf(s)) ok = gv == s;
        else ok = !isnan(gv) && fabs(gv - s) <= 1e-4 * mag + 1e-30;
      }
      if (!ok) {
        if (!bad) first_i = i, first_j = j, first_got = g, first_want = want, first_ref = ref;
        bad++;
      }
    }
  free(c);
  if (bad) {
    if (exact)
      cutil_seterr(msg, msglen,
                   "C[%" PRIu64 "][%" PRIu64 "] = 0x%08" PRIx32 " expected 0x%08" PRIx32
                   " (%" PRIu64 " mismatches, bit-exact)",
                   first_i, first_j, first_got, first_want, bad);
    else
      cutil_seterr(msg, msglen,
                   "C[%" PRIu64 "][%" PRIu64 "] = 0x%08" PRIx32 " (%g) expected %g within 1e-4"
                   " (%" PRIu64 " mismatches)",
                   first_i, first_j, first_got, (double)cutil_f32(first_got), first_ref, bad);
  } else {
    cutil_seterr(msg, msglen, "ok");
  }
  return bad;
}

/* ------------------------------------------------------------------ random data */

uint32_t gnn_rand_fp32(cutil_rng_t *r, unsigned pct_special) {
  uint64_t h = cutil_rng_next(r);
  if (h % 100 < pct_special) {
    static const uint32_t kSpecial[10] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                          0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff812345u,
                                          0x00800000u, 0x80800000u};
    uint32_t s = (uint32_t)(h >> 32) % 14;
    if (s < 10) return kSpecial[s];
    uint32_t sub = (uint32_t)(h >> 8) & 0x007fffffu; /* a subnormal of either sign */
    if (!sub) sub = 1;
    return sub | (s & 1 ? 0x80000000u : 0);
  }
  /* a multiple of 2^-23 in [-1, 1): exact in fp32 */
  int32_t v = (int32_t)((h >> 40) & 0xffffff) - (1 << 23);
  float x = (float)v * (1.0f / 8388608.0f);
  if (v == 0 && (h >> 39 & 1)) x = -0.0f;
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

void gnn_fill_random(uint64_t seed, unsigned pct_special, uint32_t *dst, size_t n) {
  cutil_rng_t r = cutil_rng_seed(seed);
  for (size_t i = 0; i < n; i++) dst[i] = gnn_rand_fp32(&r, pct_special);
}

/* ------------------------------------------------------------------ random streams */

typedef struct {
  const gnn_cfg_t *cfg;
  const gnn_rand_region_t *rg;
  cutil_rng_t r;
  uint64_t D[3], LW, R;
} rz_t;

static uint64_t rz_u(rz_t *z, uint64_t n) { return cutil_rng_uniform(&z->r, n); }

/* A base for `lines` lines inside one random bank of buffer b (lines <= depth). */
static uint64_t rz_base(rz_t *z, int b, uint64_t lines) {
  return rz_u(z, 2) * z->D[b] + rz_u(z, z->D[b] - lines + 1);
}

/* A line count for a buffer of depth d: mostly small. */
static uint64_t rz_lines(rz_t *z, uint64_t d) {
  uint64_t cap = rz_u(z, 10) == 0 ? d : umin(d, 3 * z->LW);
  return 1 + rz_u(z, cap);
}

/* Fields (lsb, width) named by each opcode (gnnerator.h); the other bits are reserved. */
typedef struct {
  int n;
  unsigned char f[10][2];
} fieldset_t;

static const fieldset_t *op_fields(unsigned op) {
  static const fieldset_t kLS = {7, {{0, 4}, {4, 2}, {8, 8}, {16, 16}, {32, 16}, {48, 32},
                                     {80, 32}}};
  static const fieldset_t kMM = {10, {{0, 4}, {4, 2}, {6, 1}, {8, 2}, {16, 16}, {32, 16}, {48, 16},
                                      {64, 16}, {80, 16}, {96, 16}}};
  static const fieldset_t kMA = {6, {{0, 4}, {8, 2}, {16, 16}, {48, 16}, {64, 16}, {96, 16}}};
  static const fieldset_t kAC = {5, {{0, 4}, {8, 2}, {16, 16}, {48, 16}, {96, 16}}};
  static const fieldset_t kCP = {4, {{0, 4}, {16, 16}, {48, 16}, {64, 16}}};
  switch (op) {
    case GNN_OP_LOAD: case GNN_OP_STORE: return &kLS;
    case GNN_OP_MATMUL: return &kMM;
    case GNN_OP_MADD: return &kMA;
    case GNN_OP_ACT: return &kAC;
    default: return &kCP;
  }
}

/* A random reserved bit of op: 0..127. */
static int rz_reserved_bit(rz_t *z, unsigned op) {
  const fieldset_t *s = op_fields(op);
  int free_bits[128], nf = 0;
  for (int b = 0; b < 128; b++) {
    int used = 0;
    for (int i = 0; i < s->n; i++) used |= b >= s->f[i][0] && b < s->f[i][0] + s->f[i][1];
    if (!used) free_bits[nf++] = b;
  }
  return free_bits[rz_u(z, (uint64_t)nf)];
}

/* A DRAM range of n rows of w words with stride inside [base, base + words): fixes stride
 * (shrinks it) and returns the address. */
static uint64_t rz_dram(rz_t *z, uint64_t base, uint64_t words, uint64_t n, uint64_t w,
                        uint64_t *stride) {
  if (n > 1 && (n - 1) * *stride + w > words) *stride = (words - w) / (n - 1);
  uint64_t span = (n - 1) * *stride + w;
  return base + rz_u(z, words - span + 1);
}

static gnn_insn_t rz_load(rz_t *z, unsigned buf, uint64_t n) {
  const gnn_rand_region_t *rg = z->rg;
  uint64_t w = 1 + rz_u(z, z->LW);
  uint64_t stride = rz_u(z, 5) == 0 ? 0 : 1 + rz_u(z, 2 * z->LW);
  int from_out = rz_u(z, 5) == 0;
  uint64_t addr = rz_dram(z, from_out ? rg->out_base : rg->in_base,
                          from_out ? rg->out_words : rg->in_words, n, w, &stride);
  return gnn_enc_load(buf, (unsigned)rz_base(z, (int)buf, n), (unsigned)n, (unsigned)w,
                      (uint32_t)addr, (uint32_t)stride);
}

static gnn_insn_t rz_store(rz_t *z, uint64_t n) {
  uint64_t w = 1 + rz_u(z, z->LW);
  uint64_t stride = rz_u(z, 5) == 0 ? 0 : 1 + rz_u(z, 2 * z->LW);
  uint64_t addr = rz_dram(z, z->rg->out_base, z->rg->out_words, n, w, &stride);
  return gnn_enc_store((unsigned)rz_base(z, GNN_BUF_OUT, n), (unsigned)n, (unsigned)w,
                       (uint32_t)addr, (uint32_t)stride);
}

/* A legal MATMUL, or 0 when no dataflow fits this cfg. */
static int rz_matmul(rz_t *z, gnn_insn_t *out) {
  unsigned df0 = (unsigned)rz_u(z, 3);
  for (unsigned d = 0; d < 3; d++) {
    unsigned df = (df0 + d) % 3;
    uint64_t dim[3];
    uint64_t hi = rz_u(z, 7) == 0 ? 8 * z->LW : 3 * z->R;
    for (int i = 0; i < 3; i++) dim[i] = 1 + rz_u(z, umin(hi, 65535));
    for (;;) {
      unsigned l[3];
      gnn_matmul_lines(z->cfg, df, (unsigned)dim[0], (unsigned)dim[1], (unsigned)dim[2], &l[0],
                       &l[1], &l[2]);
      if (l[0] <= z->D[0] && l[1] <= z->D[1] && l[2] <= z->D[2]) {
        uint64_t in = rz_base(z, 0, l[0]), wt = rz_base(z, 1, l[1]), o = rz_base(z, 2, l[2]);
        *out = gnn_enc_matmul(df, (unsigned)rz_u(z, 2), (unsigned)rz_u(z, 2), (unsigned)dim[0],
                              (unsigned)dim[1], (unsigned)dim[2], (unsigned)in, (unsigned)wt,
                              (unsigned)o);
        return 1;
      }
      int big = 0;
      for (int i = 1; i < 3; i++)
        if (dim[i] > dim[big]) big = i;
      if (dim[big] == 1) break;
      dim[big] = (dim[big] + 1) / 2;
    }
  }
  return 0;
}

/* dst range of n lines in OUT: == src0 (in place) or disjoint from it. */
static uint64_t rz_dst(rz_t *z, uint64_t src0, uint64_t n) {
  if (rz_u(z, 3) == 0) return src0;
  for (int i = 0; i < 16; i++) {
    uint64_t d = rz_base(z, GNN_BUF_OUT, n);
    if (!overlaps(d, n, src0, n)) return d;
  }
  return src0;
}

/* A legal instruction; *op receives its opcode. */
static gnn_insn_t rz_legal(rz_t *z, unsigned *op) {
  uint64_t k = rz_u(z, 100);
  gnn_insn_t in;
  if (k >= 30 && k < 60 && rz_matmul(z, &in)) {
    *op = GNN_OP_MATMUL;
    return in;
  }
  if (k < 60) {
    unsigned buf = (unsigned)rz_u(z, 3);
    *op = GNN_OP_LOAD;
    return rz_load(z, buf, rz_lines(z, z->D[buf]));
  }
  if (k < 75) {
    *op = GNN_OP_STORE;
    return rz_store(z, rz_lines(z, z->D[2]));
  }
  if (k < 85) {
    uint64_t n = rz_lines(z, umin(z->D[0], z->D[2]));
    uint64_t s0 = rz_base(z, GNN_BUF_OUT, n), s1 = rz_base(z, GNN_BUF_IN, n);
    *op = GNN_OP_MADD;
    return gnn_enc_madd((unsigned)rz_u(z, 2), (unsigned)n, (unsigned)s0, (unsigned)s1,
                        (unsigned)rz_dst(z, s0, n));
  }
  if (k < 93) {
    uint64_t n = rz_lines(z, z->D[2]);
    uint64_t s0 = rz_base(z, GNN_BUF_OUT, n);
    *op = GNN_OP_ACT;
    return gnn_enc_act((unsigned)rz_u(z, 2), (unsigned)n, (unsigned)s0,
                       (unsigned)rz_dst(z, s0, n));
  }
  uint64_t n = rz_lines(z, umin(z->D[0], z->D[2]));
  *op = GNN_OP_COPY;
  return gnn_enc_copy((unsigned)n, (unsigned)rz_base(z, GNN_BUF_OUT, n),
                      (unsigned)rz_base(z, GNN_BUF_IN, n));
}

/* A base (absolute line) of a range of `lines` (>= 2) lines of buffer b that leaves its bank. */
static uint64_t rz_cross(rz_t *z, int b, uint64_t lines) {
  uint64_t d = z->D[b];
  return rz_u(z, 2) * d + d - 1 - rz_u(z, umin(lines - 1, d));
}

/* An instruction with error `code`; returns the code it has (code, or RANGE instead of an
 * impossible OVERLAP). */
static int rz_illegal(rz_t *z, int code, gnn_insn_t *in) {
  unsigned op;
  switch (code) {
    case GNN_E_OPCODE: {
      *in = rz_legal(z, &op);
      unsigned v = (unsigned)rz_u(z, 10);
      gnn_set(in, GNN_F_OP, v == 0 ? 0 : v + 6);
      return code;
    }
    case GNN_E_FIELD: {
      *in = rz_legal(z, &op);
      if (rz_u(z, 2) || op == GNN_OP_COPY) {
        int b = rz_reserved_bit(z, op);
        in->w[b / 32] |= 1u << (b % 32);
      } else if (op == GNN_OP_LOAD) {
        gnn_set(in, GNN_F_BUF, 3);
      } else if (op == GNN_OP_STORE) {
        static const unsigned kb[3] = {0, 1, 3};
        gnn_set(in, GNN_F_BUF, kb[rz_u(z, 3)]);
      } else if (op == GNN_OP_MATMUL && rz_u(z, 2)) {
        gnn_set(in, GNN_F_DF, 3);
      } else {
        gnn_set(in, GNN_F_ACT, 2 + (uint32_t)rz_u(z, 2));
      }
      return code;
    }
    case GNN_E_SIZE:
      *in = rz_legal(z, &op);
      if (op == GNN_OP_LOAD || op == GNN_OP_STORE) gnn_set(in, GNN_F_N16, 0);
      else if (op == GNN_OP_MATMUL) {
        uint64_t w = rz_u(z, 3);
        if (w == 0) gnn_set(in, GNN_F_M, 0);
        else if (w == 1) gnn_set(in, GNN_F_K, 0);
        else gnn_set(in, GNN_F_N, 0);
      } else {
        gnn_set(in, GNN_F_M, 0);
      }
      return code;
    case GNN_E_WIDTH: {
      unsigned buf = rz_u(z, 2) ? (unsigned)rz_u(z, 3) : GNN_BUF_OUT;
      uint64_t n = 1 + rz_u(z, umin(z->D[buf], 8));
      *in = buf == GNN_BUF_OUT && rz_u(z, 2) ? rz_store(z, n) : rz_load(z, buf, n);
      gnn_set(in, GNN_F_W, rz_u(z, 2) ? 0 : (uint32_t)(z->LW + 1 + rz_u(z, 255 - z->LW)));
      return code;
    }
    case GNN_E_OVERLAP: {
      const uint64_t d = z->D[2];
      int madd = rz_u(z, 2) && z->D[0] >= 2;
      uint64_t nmax = umin((d + 1) / 2, 8);
      if (madd) nmax = umin(nmax, z->D[0]);
      if (nmax >= 2) {
        uint64_t n = 2 + rz_u(z, nmax - 1), sh = 1 + rz_u(z, n - 1);
        uint64_t lo = rz_u(z, 2) * d + rz_u(z, d - (n + sh) + 1);
        uint64_t s0 = lo, dst = lo + sh;
        if (rz_u(z, 2)) s0 = lo + sh, dst = lo;
        if (madd)
          *in = gnn_enc_madd((unsigned)rz_u(z, 2), (unsigned)n, (unsigned)s0,
                             (unsigned)rz_base(z, GNN_BUF_IN, n), (unsigned)dst);
        else *in = gnn_enc_act((unsigned)rz_u(z, 2), (unsigned)n, (unsigned)s0, (unsigned)dst);
        return code;
      }
    }
    /* fall through */
    default: { /* GNN_E_RANGE */
      uint64_t k = rz_u(z, 4);
      if (k == 1) { /* MATMUL: one range leaves its bank */
        gnn_fields_t f;
        if (rz_matmul(z, in)) {
          gnn_fields(in, &f);
          unsigned l[3];
          gnn_matmul_lines(z->cfg, f.df, f.m, f.k, f.nn, &l[0], &l[1], &l[2]);
          int b0 = (int)rz_u(z, 3);
          for (int i = 0; i < 3; i++) {
            int b = (b0 + i) % 3;
            if (l[b] < 2) continue;
            uint64_t base = rz_cross(z, b, l[b]);
            if (b == 0) gnn_set(in, GNN_F_IN, (uint32_t)base);
            else if (b == 1) gnn_set(in, GNN_F_WT, (uint32_t)base);
            else gnn_set(in, GNN_F_OUT, (uint32_t)base);
            return GNN_E_RANGE;
          }
        }
      }
      if (k == 2) { /* ACT / COPY / MADD: src0 leaves its bank */
        uint64_t n = 2 + rz_u(z, 7);
        uint64_t s0 = rz_cross(z, GNN_BUF_OUT, n);
        uint64_t which = rz_u(z, 3);
        if (which == 0 && n <= z->D[2])
          *in = gnn_enc_act(0, (unsigned)n, (unsigned)s0, (unsigned)s0);
        else if (which == 1 && n <= z->D[0])
          *in = gnn_enc_copy((unsigned)n, (unsigned)s0, (unsigned)rz_base(z, GNN_BUF_IN, n));
        else *in = gnn_enc_act(1, (unsigned)n, (unsigned)s0, (unsigned)s0);
        return GNN_E_RANGE;
      }
      /* LOAD / STORE: the buffer range leaves its bank, or the DRAM range leaves the memory */
      int store = (int)rz_u(z, 2);
      unsigned buf = store ? GNN_BUF_OUT : (unsigned)rz_u(z, 3);
      const uint64_t A = 1ull << z->cfg->addr_w, d = z->D[buf];
      if (k == 0 || (z->LW < 2 && d < 2)) {
        uint64_t n = 2 + rz_u(z, 8);
        uint64_t w = 1 + rz_u(z, z->LW);
        uint64_t line = rz_cross(z, (int)buf, n);
        uint64_t addr = rz_u(z, A - ((n - 1) + w) + 1); /* stride 1 keeps DRAM legal */
        *in = store ? gnn_enc_store((unsigned)line, (unsigned)n, (unsigned)w, (uint32_t)addr, 1)
                    : gnn_enc_load(buf, (unsigned)line, (unsigned)n, (unsigned)w,
                                   (uint32_t)addr, 1);
        return GNN_E_RANGE;
      }
      uint64_t n, w, stride, addr;
      if (z->LW >= 2) {
        n = 1, w = 2 + rz_u(z, z->LW - 1), stride = rz_u(z, 4);
        addr = A - 1 - rz_u(z, w - 1);
      } else {
        n = 2, w = 1, stride = 1 + rz_u(z, 8), addr = A - 1;
      }
      uint64_t line = rz_base(z, (int)buf, n);
      *in = store ? gnn_enc_store((unsigned)line, (unsigned)n, (unsigned)w, (uint32_t)addr,
                                  (uint32_t)stride)
                  : gnn_enc_load(buf, (unsigned)line, (unsigned)n, (unsigned)w, (uint32_t)addr,
                                 (uint32_t)stride);
      return GNN_E_RANGE;
    }
  }
}

int gnn_random_program(const gnn_cfg_t *cfg, uint64_t seed, size_t n, unsigned pct_bad,
                       const gnn_rand_region_t *rg, gnn_prog_t *prog, unsigned char **intent,
                       char *err, size_t errlen) {
  gnn_prog_init(prog);
  if (intent) *intent = NULL;
  gnn_cfg_t chk;
  if (gnn_cfg_init(&chk, cfg->rows, cfg->cols, cfg->depth[0], cfg->depth[1], cfg->depth[2],
                   cfg->addr_w) != 0)
    return ERR("invalid cfg");
  if (pct_bad > 100) return ERR("pct_bad %u out of range 0..100", pct_bad);
  rz_t z;
  memset(&z, 0, sizeof z);
  z.cfg = &chk;
  z.rg = rg;
  z.r = cutil_rng_seed(seed);
  z.LW = (uint64_t)chk.lw;
  z.R = (uint64_t)chk.rows;
  for (int b = 0; b < 3; b++) z.D[b] = (uint64_t)chk.depth[b];
  const uint64_t A = 1ull << chk.addr_w;
  const uint64_t need = umax(umax(z.D[0], z.D[1]), z.D[2]) + 2 * z.LW;
  if (rg->in_words < need || rg->out_words < need)
    return ERR("the random stream's regions need at least %" PRIu64 " words each", need);
  if (rg->in_base >= A || rg->in_words > A - rg->in_base || rg->out_base >= A ||
      rg->out_words > A - rg->out_base)
    return ERR("a region of the random stream runs past the 2^%d-word DRAM", chk.addr_w);
  if (overlaps(rg->in_base, rg->in_words, rg->out_base, rg->out_words))
    return ERR("the input and output regions of the random stream overlap");
  size_t total = n + (rg->init_buffers ? 6 : 0);
  unsigned char *it = NULL;
  if (intent) {
    it = calloc(total ? total : 1, 1);
    if (!it) return ERR("out of memory");
  }
  size_t k = 0;
  int oom = 0;
  if (rg->init_buffers)
    for (unsigned b = 0; b < 3; b++)
      for (unsigned bank = 0; bank < 2; bank++) {
        uint64_t d = z.D[b];
        uint64_t addr = rg->in_base + rz_u(&z, rg->in_words - (d - 1 + z.LW) + 1);
        oom |= gnn_prog_push(prog, gnn_enc_load(b, (unsigned)(bank * d), (unsigned)d,
                                                (unsigned)z.LW, (uint32_t)addr, 1));
        k++;
      }
  for (size_t i = 0; i < n && !oom; i++, k++) {
    gnn_insn_t in;
    unsigned op;
    int code = GNN_OK;
    if (rz_u(&z, 100) < pct_bad) code = rz_illegal(&z, 1 + (int)rz_u(&z, 6), &in);
    else in = rz_legal(&z, &op);
    if (it) it[k] = (unsigned char)code;
    oom |= gnn_prog_push(prog, in);
  }
  if (oom) {
    free(it);
    gnn_prog_free(prog);
    return ERR("out of memory");
  }
  if (intent) *intent = it;
  return 0;
}

/* ------------------------------------------------------------------ workload files */

#define WL_LINE_MAX 1024
#define WL_MAX_TOK 128

int gnn_wl_init(gnn_wl_t *wl, const gnn_cfg_t *cfg) {
  memset(wl, 0, sizeof *wl);
  if (gnn_cfg_init(&wl->cfg, cfg->rows, cfg->cols, cfg->depth[0], cfg->depth[1], cfg->depth[2],
                   cfg->addr_w) != 0 ||
      (cfg->gpes > 0 && (gnn_cfg_graph(&wl->cfg, cfg->gpes, cfg->lanes, cfg->gdepth[0],
                                       cfg->gdepth[1], cfg->gdepth[2]) != 0 ||
                         gnn_cfg_sfus(&wl->cfg, cfg->sfus) != 0))) {
    memset(wl, 0, sizeof *wl);
    return -1;
  }
  return 0;
}

void gnn_wl_free(gnn_wl_t *wl) {
  for (size_t i = 0; i < wl->n_mem; i++) free(wl->mem[i].data);
  free(wl->mem);
  gnn_prog_free(&wl->prog);
  free(wl->check);
  memset(wl, 0, sizeof *wl);
}

static int wl_fits(const gnn_wl_t *wl, uint64_t addr, uint64_t n) {
  const uint64_t A = 1ull << wl->cfg.addr_w;
  return n >= 1 && addr < A && n <= A - addr;
}

int gnn_wl_add_mem(gnn_wl_t *wl, uint64_t addr, const uint32_t *data, uint64_t n) {
  if (!wl_fits(wl, addr, n) || n > SIZE_MAX / sizeof(uint32_t)) return -1;
  if (grow((void **)&wl->mem, &wl->cap_mem, wl->n_mem, sizeof *wl->mem) != 0) return -1;
  uint32_t *d = malloc((size_t)n * sizeof *d);
  if (!d) return -1;
  memcpy(d, data, (size_t)n * sizeof *d);
  wl->mem[wl->n_mem++] = (gnn_wl_mem_t){addr, n, d};
  return 0;
}

int gnn_wl_add_random(gnn_wl_t *wl, uint64_t addr, uint64_t n, uint64_t seed,
                      unsigned pct_special) {
  if (!wl_fits(wl, addr, n) || n > SIZE_MAX / sizeof(uint32_t)) return -1;
  uint32_t *d = malloc((size_t)n * sizeof *d);
  if (!d) return -1;
  gnn_fill_random(seed, pct_special, d, (size_t)n);
  int rc = gnn_wl_add_mem(wl, addr, d, n);
  free(d);
  return rc;
}

int gnn_wl_add_check(gnn_wl_t *wl, uint64_t addr, uint64_t n) {
  if (!wl_fits(wl, addr, n)) return -1;
  if (grow((void **)&wl->check, &wl->cap_check, wl->n_check, sizeof *wl->check) != 0) return -1;
  wl->check[wl->n_check++] = (gnn_wl_region_t){addr, n};
  return 0;
}

gnn_model_t *gnn_wl_model(const gnn_wl_t *wl) {
  gnn_model_t *m = gnn_model_new(&wl->cfg);
  if (!m) return NULL;
  for (size_t i = 0; i < wl->n_mem; i++)
    for (uint64_t j = 0; j < wl->mem[i].n; j++)
      gnn_mem_wr(m, wl->mem[i].addr + j, wl->mem[i].data[j]);
  return m;
}

int gnn_wl_write(FILE *f, const gnn_wl_t *wl, const char *comment) {
  const gnn_cfg_t *c = &wl->cfg;
  fprintf(f, "gnn-workload 1\n");
  while (comment && *comment) {
    const char *nl = strchr(comment, '\n');
    size_t len = nl ? (size_t)(nl - comment) : strlen(comment);
    fprintf(f, "# %.*s\n", (int)len, comment);
    comment += len + (nl != NULL);
  }
  fprintf(f, "cfg %d %d %d %d %d %d\n", c->rows, c->cols, c->depth[0], c->depth[1], c->depth[2],
          c->addr_w);
  if (c->gpes > 0)
    fprintf(f, "gcfg %d %d %d %d %d %d\n", c->gpes, c->lanes, c->gdepth[0], c->gdepth[1],
            c->gdepth[2], c->sfus);
  if (wl->have_shape) {
    const gnn_mm_params_t *s = &wl->shape;
    fprintf(f, "shape %s %u %u %u", gnn_df_name(s->df), s->m, s->k, s->n);
    if (wl->shape_has_ops)
      fprintf(f, " a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64, s->a, s->b, s->c);
    fprintf(f, " acc=%u act=%s", s->acc, s->act ? "relu" : "none");
    if (s->bias) fprintf(f, " bias=0x%" PRIx64, s->bias_addr);
    if (gnn_mm_needs_ones(s)) fprintf(f, " ones=0x%" PRIx64, s->ones_addr);
    fputc('\n', f);
  }
  for (size_t i = 0; i < wl->n_mem; i++) {
    const gnn_wl_mem_t *m = &wl->mem[i];
    fprintf(f, "mem 0x%" PRIx64 " %" PRIu64 "\n", m->addr, m->n);
    for (uint64_t j = 0; j < m->n; j++)
      fprintf(f, "%08" PRIx32 "%c", m->data[j], (j % 8 == 7 || j + 1 == m->n) ? '\n' : ' ');
  }
  for (size_t i = 0; i < wl->prog.n; i++) {
    const uint32_t *w = wl->prog.insn[i].w;
    char s[200];
    fprintf(f, "insn %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "  # %zu %s\n", w[3],
            w[2], w[1], w[0], i, gnn_insn_str(&wl->prog.insn[i], s, sizeof s));
  }
  for (size_t i = 0; i < wl->n_check; i++)
    fprintf(f, "check 0x%" PRIx64 " %" PRIu64 "\n", wl->check[i].addr, wl->check[i].n);
  return ferror(f) ? -1 : 0;
}

typedef struct {
  FILE *f;
  const char *path;
  long line;
  char *err;
  size_t errlen;
  char buf[WL_LINE_MAX];
  char *tok[WL_MAX_TOK];
} wl_reader_t;

#define RD_ERR(rd, ...) \
  (cutil_seterr_line((rd)->err, (rd)->errlen, (rd)->path, (rd)->line, __VA_ARGS__), -1)

static int rd_num(wl_reader_t *rd, const char *tok, const char *what, uint64_t *v) {
  if (cutil_parse_num(tok, v) != 0) return RD_ERR(rd, "bad %s '%s'", what, tok);
  return 0;
}

static int rd_dec(wl_reader_t *rd, const char *tok, const char *what, uint64_t lo, uint64_t hi,
                  uint64_t *v) {
  if (cutil_parse_dec(tok, 0, UINT64_MAX, v) != 0) return RD_ERR(rd, "bad %s '%s'", what, tok);
  if (*v < lo || *v > hi)
    return RD_ERR(rd, "%s %" PRIu64 " out of range %" PRIu64 "..%" PRIu64, what, *v, lo, hi);
  return 0;
}

static int rd_hex32(wl_reader_t *rd, const char *tok, const char *what, uint32_t *v) {
  uint64_t x;
  int rc = cutil_parse_hex(tok, 0xffffffffull, &x);
  if (rc == -1) return RD_ERR(rd, "bad hex %s '%s'", what, tok);
  if (rc == -2) return RD_ERR(rd, "%s '%s' exceeds 32 bits", what, tok);
  *v = (uint32_t)x;
  return 0;
}

static int rd_region(wl_reader_t *rd, gnn_wl_t *wl, const char *kw, uint64_t addr, uint64_t n) {
  if (n == 0) return RD_ERR(rd, "'%s' of 0 words", kw);
  if (!wl_fits(wl, addr, n))
    return RD_ERR(rd, "%s 0x%" PRIx64 " + %" PRIu64 " words runs past the 2^%d-word DRAM", kw,
                  addr, n, wl->cfg.addr_w);
  return 0;
}

static int rd_shape(wl_reader_t *rd, gnn_wl_t *wl, int nt) {
  char **tok = rd->tok;
  gnn_mm_params_t *s = &wl->shape;
  memset(s, 0, sizeof *s);
  if (nt < 5) return RD_ERR(rd, "'shape' takes DF M K N [KEY=VALUE ...]");
  int df = gnn_df_find(tok[1]);
  if (df < 0) return RD_ERR(rd, "unknown dataflow '%s' (os, ws, is)", tok[1]);
  s->df = (unsigned)df;
  uint64_t v[3];
  static const char *const kDim[3] = {"M", "K", "N"};
  for (int i = 0; i < 3; i++)
    if (rd_dec(rd, tok[2 + i], kDim[i], 1, 65535, &v[i])) return -1;
  s->m = (unsigned)v[0], s->k = (unsigned)v[1], s->n = (unsigned)v[2];
  static const char *const kKeys[7] = {"a", "b", "c", "bias", "ones", "acc", "act"};
  unsigned seen = 0;
  for (int i = 5; i < nt; i++) {
    char *eq = strchr(tok[i], '=');
    if (!eq) return RD_ERR(rd, "expected KEY=VALUE, found '%s'", tok[i]);
    *eq = '\0';
    const char *val = eq + 1;
    int key = -1;
    for (int k = 0; k < 7; k++)
      if (!strcmp(tok[i], kKeys[k])) key = k;
    if (key < 0) return RD_ERR(rd, "unknown shape key '%s'", tok[i]);
    if (seen >> key & 1) return RD_ERR(rd, "shape key '%s' given twice", tok[i]);
    seen |= 1u << key;
    uint64_t x;
    if (key <= 4) {
      if (rd_num(rd, val, kKeys[key], &x)) return -1;
      if (x >= (1ull << wl->cfg.addr_w))
        return RD_ERR(rd, "%s=0x%" PRIx64 " beyond the 2^%d-word DRAM", kKeys[key], x,
                      wl->cfg.addr_w);
      uint64_t *dst[5] = {&s->a, &s->b, &s->c, &s->bias_addr, &s->ones_addr};
      *dst[key] = x;
      if (key == 3) s->bias = 1;
    } else if (key == 5) {
      if (strcmp(val, "0") && strcmp(val, "1")) return RD_ERR(rd, "bad acc '%s' (0 or 1)", val);
      s->acc = val[0] == '1';
    } else {
      if (strcmp(val, "none") && strcmp(val, "relu"))
        return RD_ERR(rd, "bad act '%s' (none or relu)", val);
      s->act = !strcmp(val, "relu") ? GNN_ACT_RELU : GNN_ACT_NONE;
    }
  }
  unsigned ops = seen & 7;
  if (ops && ops != 7) return RD_ERR(rd, "shape names some of a=, b=, c= but not all three");
  if (gnn_mm_needs_ones(s) && ops && !(seen >> 4 & 1))
    return RD_ERR(rd, "shape with bias= (%s%s) needs ones=", kDfNames[s->df],
                  s->df == GNN_DF_WS ? ", acc=1" : "");
  if (ops == 7) {
    const uint64_t M = s->m, K = s->k, N = s->n;
    const struct { const char *name; uint64_t addr, n; int on; } r[5] = {
        {"a", s->a, M * K, 1}, {"b", s->b, K * N, 1}, {"c", s->c, M * N, 1},
        {"bias", s->bias_addr, N, (int)s->bias},
        {"ones", s->ones_addr, (uint64_t)wl->cfg.lw, gnn_mm_needs_ones(s)}};
    for (int i = 0; i < 5; i++)
      if (r[i].on && !wl_fits(wl, r[i].addr, r[i].n))
        return RD_ERR(rd, "shape operand %s=0x%" PRIx64 " (%" PRIu64 " words) runs past the "
                      "2^%d-word DRAM", r[i].name, r[i].addr, r[i].n, wl->cfg.addr_w);
  }
  wl->shape_has_ops = ops == 7;
  wl->have_shape = 1;
  return 0;
}

static int is_keyword(const char *t) {
  static const char *const kKw[7] = {"gnn-workload", "cfg", "gcfg", "shape", "mem", "insn",
                                     "check"};
  for (int i = 0; i < 7; i++)
    if (!strcmp(t, kKw[i])) return 1;
  return 0;
}

static int wl_parse(wl_reader_t *rd, gnn_wl_t *wl) {
  char why[64];
  int nt = cutil_read_tokens(rd->f, rd->buf, sizeof rd->buf, rd->tok, WL_MAX_TOK, &rd->line,
                             NULL, why, sizeof why);
  if (nt < 0) return RD_ERR(rd, "%s", why);
  if (nt == 0) {
    cutil_seterr(rd->err, rd->errlen, "%s: empty file (no 'gnn-workload 1' header)", rd->path);
    return -1;
  }
  if (strcmp(rd->tok[0], "gnn-workload") != 0)
    return RD_ERR(rd, "expected the header 'gnn-workload 1', found '%s'", rd->tok[0]);
  if (nt != 2 || strcmp(rd->tok[1], "1") != 0)
    return RD_ERR(rd, "unsupported header (expected 'gnn-workload 1')");
  long cfg_line = 0, shape_line = 0, gcfg_line = 0;
  int pending = 0;             /* inside a mem record's data */
  gnn_wl_mem_t *cur = NULL;
  uint64_t have = 0;
  size_t cap = 0;
  long mem_line = 0;
  for (;;) {
    nt = cutil_read_tokens(rd->f, rd->buf, sizeof rd->buf, rd->tok, WL_MAX_TOK, &rd->line, NULL,
                           why, sizeof why);
    if (nt < 0) return RD_ERR(rd, "%s", why);
    if (pending) {
      if (nt == 0) {
        cutil_seterr(rd->err, rd->errlen,
                     "%s:%ld: truncated mem data: %" PRIu64 " of %" PRIu64 " words (end of file)",
                     rd->path, mem_line, have, cur->n);
        return -1;
      }
      if (is_keyword(rd->tok[0]))
        return RD_ERR(rd, "truncated mem data: %" PRIu64 " of %" PRIu64
                      " words of the mem record of line %ld before '%s'",
                      have, cur->n, mem_line, rd->tok[0]);
      for (int i = 0; i < nt; i++) {
        uint32_t v;
        if (have == cur->n)
          return RD_ERR(rd, "extra data after the %" PRIu64 " words of the mem record of line %ld",
                        cur->n, mem_line);
        if (rd_hex32(rd, rd->tok[i], "word", &v)) return -1;
        if (have == cap) {
          size_t nc = (size_t)umin(cur->n, cap ? (uint64_t)cap * 2 : 4096);
          uint32_t *d = realloc(cur->data, nc * sizeof *d);
          if (!d) return RD_ERR(rd, "out of memory");
          cur->data = d;
          cap = nc;
        }
        cur->data[have++] = v;
      }
      if (have == cur->n) pending = 0;
      continue;
    }
    if (nt == 0) break;
    const char *kw = rd->tok[0];
    char **tok = rd->tok;
    if (!strcmp(kw, "cfg")) {
      if (cfg_line) return RD_ERR(rd, "second 'cfg' line (the first is line %ld)", cfg_line);
      if (nt != 7)
        return RD_ERR(rd, "'cfg' takes 6 fields (R C IN_DEPTH WT_DEPTH OUT_DEPTH ADDR_W), found %d",
                      nt - 1);
      uint64_t v[6];
      static const char *const kF[6] = {"R", "C", "IN_DEPTH", "WT_DEPTH", "OUT_DEPTH", "ADDR_W"};
      for (int i = 0; i < 6; i++)
        if (rd_dec(rd, tok[1 + i], kF[i], 0, 1u << 20, &v[i])) return -1;
      if (gnn_cfg_init(&wl->cfg, (int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4],
                       (int)v[5]) != 0)
        return RD_ERR(rd, "invalid cfg (R, C 1..64; depths 1..32768; ADDR_W 4..32)");
      cfg_line = rd->line;
      continue;
    }
    if (strcmp(kw, "gcfg") && strcmp(kw, "shape") && strcmp(kw, "mem") && strcmp(kw, "insn") &&
        strcmp(kw, "check"))
      return RD_ERR(rd, "unknown keyword '%s'", kw);
    if (!cfg_line) return RD_ERR(rd, "'%s' before the 'cfg' line", kw);
    if (!strcmp(kw, "gcfg")) {
      if (gcfg_line) return RD_ERR(rd, "second 'gcfg' line (the first is line %ld)", gcfg_line);
      if (wl->n_mem || wl->prog.n || wl->n_check)
        return RD_ERR(rd, "'gcfg' after a mem, insn or check line");
      if (nt != 6 && nt != 7)
        return RD_ERR(rd, "'gcfg' takes 5 or 6 fields (P L EDGE_DEPTH IF_DEPTH MF_DEPTH [SFUS]), "
                      "found %d", nt - 1);
      uint64_t v[6] = {0, 0, 0, 0, 0, 1};
      static const char *const kF[6] = {"P", "L", "EDGE_DEPTH", "IF_DEPTH", "MF_DEPTH", "SFUS"};
      for (int i = 0; i < nt - 1; i++)
        if (rd_dec(rd, tok[1 + i], kF[i], 0, 1u << 20, &v[i])) return -1;
      if (gnn_cfg_graph(&wl->cfg, (int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4]) != 0 ||
          gnn_cfg_sfus(&wl->cfg, (int)v[5]) != 0)
        return RD_ERR(rd, "invalid gcfg (P 1..32 and L 1..64 powers of two, P <= max(LW, L); "
                      "depths 1..32768; SFUS 1..P)");
      gcfg_line = rd->line;
      continue;
    }
    if (!strcmp(kw, "shape")) {
      if (shape_line)
        return RD_ERR(rd, "second 'shape' line (the first is line %ld)", shape_line);
      if (rd_shape(rd, wl, nt)) return -1;
      shape_line = rd->line;
    } else if (!strcmp(kw, "mem")) {
      uint64_t addr, n;
      if (nt != 3) return RD_ERR(rd, "'mem' takes 2 fields (ADDR N), found %d", nt - 1);
      if (rd_num(rd, tok[1], "address", &addr) || rd_num(rd, tok[2], "word count", &n)) return -1;
      if (rd_region(rd, wl, "mem", addr, n)) return -1;
      if (grow((void **)&wl->mem, &wl->cap_mem, wl->n_mem, sizeof *wl->mem) != 0)
        return RD_ERR(rd, "out of memory");
      cur = &wl->mem[wl->n_mem++];
      *cur = (gnn_wl_mem_t){addr, n, NULL};
      have = 0, cap = 0, pending = 1, mem_line = rd->line;
    } else if (!strcmp(kw, "insn")) {
      gnn_insn_t in;
      if (nt != 5) return RD_ERR(rd, "'insn' takes 4 hex words (W3 W2 W1 W0), found %d", nt - 1);
      for (int i = 0; i < 4; i++)
        if (rd_hex32(rd, tok[1 + i], "instruction word", &in.w[3 - i])) return -1;
      if (gnn_prog_push(&wl->prog, in)) return RD_ERR(rd, "out of memory");
    } else {
      uint64_t addr, n;
      if (nt != 3) return RD_ERR(rd, "'check' takes 2 fields (ADDR N), found %d", nt - 1);
      if (rd_num(rd, tok[1], "address", &addr) || rd_num(rd, tok[2], "word count", &n)) return -1;
      if (rd_region(rd, wl, "check", addr, n)) return -1;
      if (gnn_wl_add_check(wl, addr, n)) return RD_ERR(rd, "out of memory");
    }
  }
  if (!cfg_line) {
    cutil_seterr(rd->err, rd->errlen, "%s: no 'cfg' line", rd->path);
    return -1;
  }
  if (ferror(rd->f)) return RD_ERR(rd, "read error");
  return 0;
}

int gnn_wl_read(const char *path, gnn_wl_t *wl, char *err, size_t errlen) {
  memset(wl, 0, sizeof *wl);
  wl_reader_t *rd = calloc(1, sizeof *rd);
  if (!rd) return ERR("%s: out of memory", path);
  rd->path = path;
  rd->err = err;
  rd->errlen = errlen;
  rd->f = fopen(path, "r");
  if (!rd->f) {
    cutil_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    free(rd);
    return -1;
  }
  int rc = wl_parse(rd, wl);
  fclose(rd->f);
  free(rd);
  if (rc) gnn_wl_free(wl);
  return rc;
}
