/* gnnerator.c -- C golden model of the GNNerator Dense Engine (cmodel/include/gnnerator.h,
 * docs/gnnerator.md): the configuration, the dense ISA encoding and field view, the decode
 * checks (ERRORS, in their order), the buffer and DRAM use of an instruction (for the issue
 * rules), the bit-exact arithmetic (fp32 fma / add, RNE, canonical NaN, ReLU), the LAYOUTS of
 * each dataflow, and the functional model: three double-buffered on-chip buffers, a sparse
 * DRAM of 2^addr_w words and the log of STORE write beats.  The cycle model (gnn_cycles,
 * gnn_matmul_cycles) lives in gnn_cycle.c. */
#include "cutil.h"
#include "gnn_graph_int.h"
#include "gnnerator.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QNAN 0x7FC00000u /* the canonical NaN */
#define NZERO 0x80000000u

static void die(const char *what) {
  fprintf(stderr, "gnnerator model: %s\n", what);
  abort();
}

/* ------------------------------------------------------------------ configuration */
static int cfg_valid(const gnn_cfg_t *c) {
  if (!c || c->rows < 1 || c->rows > 64 || c->cols < 1 || c->cols > 64) return 0;
  if (c->lw != (c->rows > c->cols ? c->rows : c->cols)) return 0;
  for (int b = 0; b < 3; b++)
    if (c->depth[b] < 1 || c->depth[b] > 32768) return 0;
  if (c->gpes != 0) {
    if (c->gpes < 1 || c->gpes > 32 || c->lanes < 1 || c->lanes > 64) return 0;
    if ((c->gpes & (c->gpes - 1)) || (c->lanes & (c->lanes - 1))) return 0; /* powers of two */
    if (c->pw != (c->lw > c->lanes ? c->lw : c->lanes) || c->gpes > c->pw) return 0;
    if (c->sfus < 1 || c->sfus > c->gpes) return 0;
    for (int b = 0; b < 3; b++)
      if (c->gdepth[b] < 1 || c->gdepth[b] > 32768) return 0;
  } else if (c->pw != c->lw) {
    return 0;
  }
  return c->addr_w >= 4 && c->addr_w <= 32;
}

int gnn_cfg_init(gnn_cfg_t *cfg, int rows, int cols, int in_depth, int wt_depth, int out_depth,
                 int addr_w) {
  if (!cfg) return -1;
  gnn_cfg_t c;
  memset(&c, 0, sizeof c);
  c.rows = rows;
  c.cols = cols;
  c.lw = rows > cols ? rows : cols;
  c.depth[GNN_BUF_IN] = in_depth;
  c.depth[GNN_BUF_WT] = wt_depth;
  c.depth[GNN_BUF_OUT] = out_depth;
  c.addr_w = addr_w;
  c.pw = c.lw;
  if (!cfg_valid(&c)) return -1;
  *cfg = c;
  return 0;
}

int gnn_cfg_graph(gnn_cfg_t *cfg, int gpes, int lanes, int e_depth, int f_depth, int m_depth) {
  if (!cfg) return -1;
  gnn_cfg_t c = *cfg;
  c.gpes = gpes;
  c.lanes = lanes;
  c.gdepth[GNN_MEM_EDGE] = e_depth;
  c.gdepth[GNN_MEM_IF] = f_depth;
  c.gdepth[GNN_MEM_MF] = m_depth;
  c.pw = c.lw > lanes ? c.lw : lanes;
  c.sfus = 1;
  if (gpes < 1 || !cfg_valid(&c)) return -1;
  *cfg = c;
  return 0;
}

int gnn_cfg_sfus(gnn_cfg_t *cfg, int sfus) {
  if (!cfg || cfg->gpes < 1) return -1;
  gnn_cfg_t c = *cfg;
  c.sfus = sfus;
  if (!cfg_valid(&c)) return -1;
  *cfg = c;
  return 0;
}

void gnn_cfg_paper(gnn_cfg_t *cfg) {
  (void)gnn_cfg_init(cfg, 64, 64, 4096, 4096, 4096, 32);
  (void)gnn_cfg_graph(cfg, 32, 32, 32768, 1024, 1024);
  (void)gnn_cfg_sfus(cfg, 8);
}

/* ------------------------------------------------------------------ encoding */
uint32_t gnn_get(const gnn_insn_t *in, int lsb, int width) {
  if (!in || lsb < 0 || width < 1 || width > 32 || lsb + width > 32 * GNN_INSN_WORDS) return 0;
  const int wi = lsb / 32, off = lsb % 32;
  uint64_t v = in->w[wi];
  if (wi + 1 < GNN_INSN_WORDS) v |= (uint64_t)in->w[wi + 1] << 32;
  return (uint32_t)((v >> off) & ((1ull << width) - 1));
}

void gnn_set(gnn_insn_t *in, int lsb, int width, uint32_t v) {
  if (!in || lsb < 0 || width < 1 || width > 32 || lsb + width > 32 * GNN_INSN_WORDS) return;
  const int wi = lsb / 32, off = lsb % 32;
  const uint64_t mask = ((1ull << width) - 1) << off;
  uint64_t x = in->w[wi];
  if (wi + 1 < GNN_INSN_WORDS) x |= (uint64_t)in->w[wi + 1] << 32;
  x = (x & ~mask) | (((uint64_t)v << off) & mask);
  in->w[wi] = (uint32_t)x;
  if (wi + 1 < GNN_INSN_WORDS) in->w[wi + 1] = (uint32_t)(x >> 32);
}

void gnn_fields(const gnn_insn_t *in, gnn_fields_t *f) {
  memset(f, 0, sizeof *f);
  f->op = gnn_get(in, GNN_F_OP);
  f->buf = gnn_get(in, GNN_F_BUF);
  f->df = gnn_get(in, GNN_F_DF);
  f->acc = gnn_get(in, GNN_F_ACC);
  f->act = gnn_get(in, GNN_F_ACT);
  f->w = gnn_get(in, GNN_F_W);
  f->line = gnn_get(in, GNN_F_LINE);
  f->addr = gnn_get(in, GNN_F_ADDR);
  f->stride = gnn_get(in, GNN_F_STRIDE);
  f->m = gnn_get(in, GNN_F_M);
  f->k = gnn_get(in, GNN_F_K);
  f->nn = gnn_get(in, GNN_F_N);
  f->in = gnn_get(in, GNN_F_IN);
  f->wt = gnn_get(in, GNN_F_WT);
  f->out = gnn_get(in, GNN_F_OUT);
  /* MADD/ACT/COPY: n in the M field; src0 = N field, src1 = in, dst = out (COPY: in) */
  const int vec = f->op == GNN_OP_MADD || f->op == GNN_OP_ACT || f->op == GNN_OP_COPY;
  f->n = vec ? f->m : gnn_get(in, GNN_F_N16);
  f->src0 = f->nn;
  f->src1 = f->in;
  f->dst = f->op == GNN_OP_COPY ? f->in : f->out;
}

gnn_insn_t gnn_enc_load(unsigned buf, unsigned line, unsigned n, unsigned w, uint32_t addr,
                        uint32_t stride) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_LOAD);
  gnn_set(&i, GNN_F_BUF, buf);
  gnn_set(&i, GNN_F_W, w);
  gnn_set(&i, GNN_F_LINE, line);
  gnn_set(&i, GNN_F_N16, n);
  gnn_set(&i, GNN_F_ADDR, addr);
  gnn_set(&i, GNN_F_STRIDE, stride);
  return i;
}

gnn_insn_t gnn_enc_store(unsigned line, unsigned n, unsigned w, uint32_t addr, uint32_t stride) {
  gnn_insn_t i = gnn_enc_load(GNN_BUF_OUT, line, n, w, addr, stride);
  gnn_set(&i, GNN_F_OP, GNN_OP_STORE);
  return i;
}

gnn_insn_t gnn_enc_matmul(unsigned df, unsigned acc, unsigned act, unsigned m, unsigned k,
                          unsigned n, unsigned in, unsigned wt, unsigned out) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_MATMUL);
  gnn_set(&i, GNN_F_DF, df);
  gnn_set(&i, GNN_F_ACC, acc);
  gnn_set(&i, GNN_F_ACT, act);
  gnn_set(&i, GNN_F_M, m);
  gnn_set(&i, GNN_F_K, k);
  gnn_set(&i, GNN_F_N, n);
  gnn_set(&i, GNN_F_IN, in);
  gnn_set(&i, GNN_F_WT, wt);
  gnn_set(&i, GNN_F_OUT, out);
  return i;
}

gnn_insn_t gnn_enc_madd(unsigned act, unsigned n, unsigned src0, unsigned src1, unsigned dst) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_MADD);
  gnn_set(&i, GNN_F_ACT, act);
  gnn_set(&i, GNN_F_M, n);
  gnn_set(&i, GNN_F_N, src0);
  gnn_set(&i, GNN_F_IN, src1);
  gnn_set(&i, GNN_F_OUT, dst);
  return i;
}

gnn_insn_t gnn_enc_act(unsigned act, unsigned n, unsigned src0, unsigned dst) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_ACT);
  gnn_set(&i, GNN_F_ACT, act);
  gnn_set(&i, GNN_F_M, n);
  gnn_set(&i, GNN_F_N, src0);
  gnn_set(&i, GNN_F_OUT, dst);
  return i;
}

gnn_insn_t gnn_enc_copy(unsigned n, unsigned src0, unsigned dst) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_COPY);
  gnn_set(&i, GNN_F_M, n);
  gnn_set(&i, GNN_F_N, src0);
  gnn_set(&i, GNN_F_IN, dst);
  return i;
}

const char *gnn_err_name(int code) {
  static const char *const kNames[7] = {"OK",    "OPCODE", "FIELD",  "SIZE",
                                        "WIDTH", "RANGE",  "OVERLAP"};
  return code >= 0 && code < 7 ? kNames[code] : "?";
}

const char *gnn_op_name(unsigned op) {
  static const char *const kNames[12] = {"?",    "LOAD",  "STORE",  "MATMUL", "MADD",  "ACT",
                                         "COPY", "?",     "GLOAD",  "GSTORE", "GFILL", "GRUN"};
  return op < 12 ? kNames[op] : "?";
}

/* ------------------------------------------------------------------ decode checks */
/* The bits an opcode uses (the field table); every other bit is reserved and must be 0. */
static gnn_insn_t used_bits(unsigned op) {
  gnn_insn_t u = {{0}};
  gnn_set(&u, GNN_F_OP, 0xFu);
  switch (op) {
    case GNN_OP_LOAD:
    case GNN_OP_STORE:
      gnn_set(&u, GNN_F_BUF, ~0u);
      gnn_set(&u, GNN_F_W, ~0u);
      gnn_set(&u, GNN_F_LINE, ~0u);
      gnn_set(&u, GNN_F_N16, ~0u);
      gnn_set(&u, GNN_F_ADDR, ~0u);
      gnn_set(&u, GNN_F_STRIDE, ~0u);
      break;
    case GNN_OP_MATMUL:
      gnn_set(&u, GNN_F_DF, ~0u);
      gnn_set(&u, GNN_F_ACC, ~0u);
      gnn_set(&u, GNN_F_ACT, ~0u);
      gnn_set(&u, GNN_F_M, ~0u);
      gnn_set(&u, GNN_F_K, ~0u);
      gnn_set(&u, GNN_F_N, ~0u);
      gnn_set(&u, GNN_F_IN, ~0u);
      gnn_set(&u, GNN_F_WT, ~0u);
      gnn_set(&u, GNN_F_OUT, ~0u);
      break;
    case GNN_OP_MADD:
      gnn_set(&u, GNN_F_ACT, ~0u);
      gnn_set(&u, GNN_F_M, ~0u);   /* n */
      gnn_set(&u, GNN_F_N, ~0u);   /* src0 */
      gnn_set(&u, GNN_F_IN, ~0u);  /* src1 */
      gnn_set(&u, GNN_F_OUT, ~0u); /* dst */
      break;
    case GNN_OP_ACT:
      gnn_set(&u, GNN_F_ACT, ~0u);
      gnn_set(&u, GNN_F_M, ~0u);
      gnn_set(&u, GNN_F_N, ~0u);
      gnn_set(&u, GNN_F_OUT, ~0u);
      break;
    case GNN_OP_COPY:
      gnn_set(&u, GNN_F_M, ~0u);
      gnn_set(&u, GNN_F_N, ~0u);
      gnn_set(&u, GNN_F_IN, ~0u); /* dst */
      break;
    default: break;
  }
  return u;
}

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* The "Lines used" table, in 64 bits (NBC * KBR can exceed 32 bits for R = 63, C = 1). */
static void matmul_lines64(const gnn_cfg_t *cfg, unsigned df, uint64_t m, uint64_t k, uint64_t n,
                           uint64_t lines[3]) {
  const uint64_t r = (uint64_t)cfg->rows, c = (uint64_t)cfg->cols;
  const uint64_t kb = ceil_div(k, r), kbr = kb * r;
  const uint64_t mbr = ceil_div(m, r), mbc = ceil_div(m, c), nbc = ceil_div(n, c);
  switch (df) {
    case GNN_DF_OS:
      lines[0] = mbr * k, lines[1] = nbc * k, lines[2] = mbr * n;
      break;
    case GNN_DF_WS:
      lines[0] = kb * m, lines[1] = nbc * kbr, lines[2] = nbc * m;
      break;
    case GNN_DF_IS:
      lines[0] = mbc * kbr, lines[1] = kb * n, lines[2] = mbc * n;
      break;
    default:
      lines[0] = lines[1] = lines[2] = 0;
      break;
  }
}

/* Counts above UINT_MAX (only possible for R = 63 with C = 1 and huge K, N) saturate. */
void gnn_matmul_lines(const gnn_cfg_t *cfg, unsigned df, unsigned m, unsigned k, unsigned n,
                      unsigned *in_lines, unsigned *wt_lines, unsigned *out_lines) {
  uint64_t l[3];
  matmul_lines64(cfg, df, m, k, n, l);
  unsigned *dst[3] = {in_lines, wt_lines, out_lines};
  for (int b = 0; b < 3; b++)
    if (dst[b]) *dst[b] = l[b] > UINT_MAX ? UINT_MAX : (unsigned)l[b];
}

/* A buffer range [base, base + lines) of buffer buf. */
typedef struct { int buf; uint64_t base, lines; } brange_t;

/* The buffer ranges of an instruction in the order they are checked; returns their number. */
static int insn_ranges(const gnn_cfg_t *cfg, const gnn_fields_t *f, brange_t r[3]) {
  switch (f->op) {
    case GNN_OP_LOAD:
    case GNN_OP_STORE:
      r[0] = (brange_t){f->op == GNN_OP_LOAD ? (int)f->buf : GNN_BUF_OUT, f->line, f->n};
      return 1;
    case GNN_OP_MATMUL: {
      uint64_t l[3];
      matmul_lines64(cfg, f->df, f->m, f->k, f->nn, l);
      r[0] = (brange_t){GNN_BUF_IN, f->in, l[0]};
      r[1] = (brange_t){GNN_BUF_WT, f->wt, l[1]};
      r[2] = (brange_t){GNN_BUF_OUT, f->out, l[2]};
      return 3;
    }
    case GNN_OP_MADD:
      r[0] = (brange_t){GNN_BUF_OUT, f->src0, f->n};
      r[1] = (brange_t){GNN_BUF_IN, f->src1, f->n};
      r[2] = (brange_t){GNN_BUF_OUT, f->dst, f->n};
      return 3;
    case GNN_OP_ACT:
      r[0] = (brange_t){GNN_BUF_OUT, f->src0, f->n};
      r[1] = (brange_t){GNN_BUF_OUT, f->dst, f->n};
      return 2;
    case GNN_OP_COPY:
      r[0] = (brange_t){GNN_BUF_OUT, f->src0, f->n};
      r[1] = (brange_t){GNN_BUF_IN, f->dst, f->n};
      return 2;
    default: return 0;
  }
}

/* Inside one bank (lines >= 1). */
static int range_ok(const gnn_cfg_t *cfg, const brange_t *r) {
  const uint64_t d = (uint64_t)cfg->depth[r->buf];
  return r->base + r->lines <= 2 * d && r->base / d == (r->base + r->lines - 1) / d;
}

/* Last DRAM word of a LOAD/STORE (n >= 1, w >= 1): addr + (n-1)*stride + w - 1, no wrap. */
static uint64_t dram_last(const gnn_fields_t *f) {
  return (uint64_t)f->addr + (uint64_t)(f->n - 1) * f->stride + f->w - 1;
}

int gnn_check(const gnn_cfg_t *cfg, const gnn_insn_t *in) {
  gnn_fields_t f;
  gnn_fields(in, &f);
  /* 1 OPCODE (graph opcodes: gnn_graph.c) */
  if (f.op >= GNN_OP_GLOAD && f.op <= GNN_OP_GRUN) return gnn_gcheck(cfg, in);
  if (f.op < GNN_OP_LOAD || f.op > GNN_OP_COPY) return GNN_E_OPCODE;
  /* 2 FIELD */
  const gnn_insn_t used = used_bits(f.op);
  for (int i = 0; i < GNN_INSN_WORDS; i++)
    if (in->w[i] & ~used.w[i]) return GNN_E_FIELD;
  if (f.op == GNN_OP_LOAD && f.buf == 3) return GNN_E_FIELD;
  if (f.op == GNN_OP_STORE && f.buf != GNN_BUF_OUT) return GNN_E_FIELD;
  if (f.op == GNN_OP_MATMUL && f.df == 3) return GNN_E_FIELD;
  if ((f.op == GNN_OP_MATMUL || f.op == GNN_OP_MADD || f.op == GNN_OP_ACT) && f.act >= 2)
    return GNN_E_FIELD;
  /* 3 SIZE */
  if (f.op == GNN_OP_MATMUL ? (f.m == 0 || f.k == 0 || f.nn == 0) : f.n == 0) return GNN_E_SIZE;
  /* 4 WIDTH */
  const int ldst = f.op == GNN_OP_LOAD || f.op == GNN_OP_STORE;
  if (ldst && (f.w == 0 || f.w > (unsigned)cfg->lw)) return GNN_E_WIDTH;
  /* 5 RANGE: buffer ranges in order, then DRAM */
  brange_t r[3];
  const int nr = insn_ranges(cfg, &f, r);
  for (int i = 0; i < nr; i++)
    if (!range_ok(cfg, &r[i])) return GNN_E_RANGE;
  if (ldst && dram_last(&f) >= 1ull << cfg->addr_w) return GNN_E_RANGE;
  /* 6 OVERLAP */
  if ((f.op == GNN_OP_MADD || f.op == GNN_OP_ACT) && f.dst != f.src0 &&
      f.dst < f.src0 + f.n && f.src0 < f.dst + f.n)
    return GNN_E_OVERLAP;
  return GNN_OK;
}

/* An instruction with an error is not executed: it uses no bank and no DRAM. */
void gnn_use(const gnn_cfg_t *cfg, const gnn_insn_t *in, gnn_use_t *u) {
  gnn_fields_t f;
  gnn_fields(in, &f);
  memset(u, 0, sizeof *u);
  u->unit = f.op == GNN_OP_LOAD ? 0 : f.op == GNN_OP_STORE ? 1 : 2;
  if (gnn_check(cfg, in) != GNN_OK) return;
  if (f.op >= GNN_OP_GLOAD) {
    gnn_guse(cfg, in, u);
    return;
  }
  brange_t r[3];
  const int nr = insn_ranges(cfg, &f, r);
  for (int i = 0; i < nr; i++)
    u->banks |= 1u << (2 * r[i].buf + (int)(r[i].base / (uint64_t)cfg->depth[r[i].buf]));
  if (f.op == GNN_OP_LOAD || f.op == GNN_OP_STORE) {
    u->dram_lo = f.addr;
    u->dram_hi = dram_last(&f) + 1;
  }
}

/* ------------------------------------------------------------------ arithmetic */

/* The host's binary32 arithmetic (correctly rounded fmaf, -ffp-contract=off) in the current
 * rounding mode; the public entry points make sure it is round to nearest even. */
static uint32_t fma_rne(uint32_t a, uint32_t b, uint32_t c) {
  const float r = fmaf(cutil_f32(a), cutil_f32(b), cutil_f32(c));
  return isnan(r) ? QNAN : cutil_f32_bits(r);
}
static uint32_t add_rne(uint32_t a, uint32_t b) {
  const float r = cutil_f32(a) + cutil_f32(b);
  return isnan(r) ? QNAN : cutil_f32_bits(r);
}

/* Sets the host rounding mode to nearest-even; returns the mode to give back. */
static int rne_enter(void) {
  const int rm = fegetround();
  if (rm != FE_TONEAREST) fesetround(FE_TONEAREST);
  return rm;
}
static void rne_leave(int rm) {
  if (rm != FE_TONEAREST) fesetround(rm);
}

uint32_t gnn_fma(uint32_t a, uint32_t b, uint32_t c) {
  const int rm = rne_enter();
  const uint32_t r = fma_rne(a, b, c);
  rne_leave(rm);
  return r;
}

uint32_t gnn_add(uint32_t a, uint32_t b) {
  const int rm = rne_enter();
  const uint32_t r = add_rne(a, b);
  rne_leave(rm);
  return r;
}

uint32_t gnn_act(unsigned act, uint32_t x) {
  if (act != GNN_ACT_RELU) return x;
  if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu)) return QNAN;
  return (x & 0x80000000u) ? 0u : x;
}

/* C = A * B in the engine's order (row-major operands), in the current rounding mode. */
static void matmul_rows(unsigned df, unsigned acc, unsigned act, unsigned m, unsigned k,
                        unsigned n, const uint32_t *a, const uint32_t *b, uint32_t *c) {
  for (size_t i = 0; i < m; i++) {
    const uint32_t *arow = a + i * k;
    for (size_t j = 0; j < n; j++) {
      uint32_t *cij = c + i * n + j;
      /* OS: the chain starts at -0 and the old value is added at the end;
       * WS, IS: the chain starts at the old value */
      uint32_t s = (acc && df != GNN_DF_OS) ? *cij : NZERO;
      for (size_t q = 0; q < k; q++) s = fma_rne(arow[q], b[q * n + j], s);
      if (acc && df == GNN_DF_OS) s = add_rne(*cij, s);
      *cij = gnn_act(act, s);
    }
  }
}

void gnn_matmul_ref(unsigned df, unsigned acc, unsigned act, unsigned m, unsigned k, unsigned n,
                    const uint32_t *a, const uint32_t *b, uint32_t *c) {
  const int rm = rne_enter();
  matmul_rows(df, acc, act, m, k, n, a, b, c);
  rne_leave(rm);
}

/* ------------------------------------------------------------------ layouts */
enum { MAT_A, MAT_B, MAT_C };

/* The shape of one MATMUL on an R x C array. */
typedef struct { unsigned df, r, c, m, k, n, kbr; } mm_geom_t;

static mm_geom_t mm_geom(const gnn_cfg_t *cfg, const gnn_fields_t *f) {
  mm_geom_t g;
  g.df = f->df;
  g.r = (unsigned)cfg->rows;
  g.c = (unsigned)cfg->cols;
  g.m = f->m;
  g.k = f->k;
  g.n = f->nn;
  g.kbr = (unsigned)ceil_div(g.k, g.r) * g.r;
  return g;
}

/* Where element X[i][j] (X = A, B or C) sits: buffer line relative to the instruction's base,
 * and word (the LAYOUTS table; i, j = m, k for A, k, n for B, m, n for C). */
static void mm_loc(const mm_geom_t *g, int mat, unsigned i, unsigned j, size_t *line,
                   unsigned *word) {
  const size_t R = g->r, C = g->c, M = g->m, K = g->k, N = g->n, KBR = g->kbr;
  size_t l;
  unsigned w;
  if (g->df == GNN_DF_OS) {
    switch (mat) {
      case MAT_A: l = (i / R) * K + j, w = i % g->r; break; /* (m/R)*K + k,    m%R */
      case MAT_B: l = (j / C) * K + i, w = j % g->c; break; /* (n/C)*K + k,    n%C */
      default: l = (i / R) * N + j, w = i % g->r; break;    /* (m/R)*N + n,    m%R */
    }
  } else if (g->df == GNN_DF_WS) {
    switch (mat) {
      case MAT_A: l = (j / R) * M + i, w = j % g->r; break;   /* (k/R)*M + m,    k%R */
      case MAT_B: l = (j / C) * KBR + i, w = j % g->c; break; /* (n/C)*KBR + k,  n%C */
      default: l = (j / C) * M + i, w = j % g->c; break;      /* (n/C)*M + m,    n%C */
    }
  } else { /* GNN_DF_IS */
    switch (mat) {
      case MAT_A: l = (i / C) * KBR + j, w = i % g->c; break; /* (m/C)*KBR + k,  m%C */
      case MAT_B: l = (i / R) * N + j, w = i % g->r; break;   /* (k/R)*N + n,    k%R */
      default: l = (i / C) * N + j, w = i % g->c; break;      /* (m/C)*N + n,    m%C */
    }
  }
  *line = l;
  *word = w;
}

/* ------------------------------------------------------------------ functional model */
/* DRAM: top[t] -> table of 2^l2_log2 page pointers -> page of 2^pg_log2 words. */
#define PG_LOG2_MAX 12u /* 4096 words */
#define L2_LOG2_MAX 10u

typedef struct {
  gnn_beat_t *v;
  size_t head, len, cap; /* pending beats are v[head .. len) */
} beat_log_t;

struct gnn_model {
  gnn_cfg_t cfg;
  size_t lw;
  uint32_t *buf[3]; /* [2 * depth * lw] words each, line l at buf + l * lw */
  unsigned pg_log2, l2_log2, top_log2;
  uint32_t ***top;
  beat_log_t log;
  gnn_gstate_t *g; /* the Graph Engine's memories (NULL when cfg.gpes = 0) */
};

gnn_model_t *gnn_model_new(const gnn_cfg_t *cfg) {
  if (!cfg_valid(cfg)) return NULL;
  gnn_model_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->cfg = *cfg;
  m->lw = (size_t)cfg->lw;
  unsigned aw = (unsigned)cfg->addr_w;
  m->pg_log2 = aw < PG_LOG2_MAX ? aw : PG_LOG2_MAX;
  aw -= m->pg_log2;
  m->l2_log2 = aw < L2_LOG2_MAX ? aw : L2_LOG2_MAX;
  m->top_log2 = aw - m->l2_log2; /* 0..10 */
  m->top = calloc((size_t)1 << m->top_log2, sizeof *m->top);
  int ok = m->top != NULL;
  for (int b = 0; b < 3 && ok; b++) {
    m->buf[b] = calloc(2 * (size_t)cfg->depth[b] * m->lw, sizeof *m->buf[b]);
    ok = m->buf[b] != NULL;
  }
  if (ok && cfg->gpes > 0) {
    m->g = gnn_gstate_new(cfg);
    ok = m->g != NULL;
  }
  if (!ok) {
    gnn_model_free(m);
    return NULL;
  }
  return m;
}

void gnn_model_free(gnn_model_t *m) {
  if (!m) return;
  if (m->top) {
    const size_t ntop = (size_t)1 << m->top_log2, nl2 = (size_t)1 << m->l2_log2;
    for (size_t t = 0; t < ntop; t++) {
      if (!m->top[t]) continue;
      for (size_t i = 0; i < nl2; i++) free(m->top[t][i]);
      free(m->top[t]);
    }
    free(m->top);
  }
  for (int b = 0; b < 3; b++) free(m->buf[b]);
  gnn_gstate_free(m->g);
  free(m->log.v);
  free(m);
}

const gnn_cfg_t *gnn_model_cfg(const gnn_model_t *m) { return &m->cfg; }

/* The page holding addr (< 2^addr_w), allocated when `alloc`; NULL when absent. */
static uint32_t *dram_page(const gnn_model_t *m, uint64_t addr, int alloc) {
  const uint64_t pi = addr >> m->pg_log2;
  const size_t t = (size_t)(pi >> m->l2_log2), i = (size_t)(pi & ((1ull << m->l2_log2) - 1));
  if (!m->top[t]) {
    if (!alloc) return NULL;
    m->top[t] = calloc((size_t)1 << m->l2_log2, sizeof *m->top[t]);
    if (!m->top[t]) die("out of memory");
  }
  if (!m->top[t][i]) {
    if (!alloc) return NULL;
    m->top[t][i] = calloc((size_t)1 << m->pg_log2, sizeof *m->top[t][i]);
    if (!m->top[t][i]) die("out of memory");
  }
  return m->top[t][i];
}

/* Words at or beyond 2^addr_w read 0; writes there are ignored. */
uint32_t gnn_mem_rd(const gnn_model_t *m, uint64_t addr) {
  if (addr >> m->cfg.addr_w) return 0;
  const uint32_t *p = dram_page(m, addr, 0);
  return p ? p[addr & ((1ull << m->pg_log2) - 1)] : 0;
}

void gnn_mem_wr(gnn_model_t *m, uint64_t addr, uint32_t v) {
  if (addr >> m->cfg.addr_w) return;
  dram_page(m, addr, 1)[addr & ((1ull << m->pg_log2) - 1)] = v;
}

/* Line `line` of buffer b (line < 2 * depth). */
static uint32_t *buf_line(gnn_model_t *m, int b, uint64_t line) {
  return m->buf[b] + (size_t)line * m->lw;
}

/* Words outside the buffer read 0. */
uint32_t gnn_buf_rd(const gnn_model_t *m, int buf, unsigned line, unsigned word) {
  if (buf < 0 || buf > 2 || line >= 2u * (unsigned)m->cfg.depth[buf] || word >= m->lw) return 0;
  return m->buf[buf][(size_t)line * m->lw + word];
}

void gnn_model_log_beat(gnn_model_t *m, uint64_t addr, unsigned words, const uint32_t *data) {
  beat_log_t *l = &m->log;
  if (l->len == l->cap && l->head > 0) { /* drop the beats already taken */
    memmove(l->v, l->v + l->head, (l->len - l->head) * sizeof *l->v);
    l->len -= l->head;
    l->head = 0;
  }
  if (l->len == l->cap) {
    const size_t cap = l->cap ? 2 * l->cap : 64;
    gnn_beat_t *v = realloc(l->v, cap * sizeof *v);
    if (!v) die("out of memory");
    l->v = v;
    l->cap = cap;
  }
  gnn_beat_t *b = &l->v[l->len++];
  memset(b, 0, sizeof *b);
  b->addr = addr;
  b->words = words;
  memcpy(b->data, data, words * sizeof *data);
}

/* Copies up to max of the pending beats (oldest first) to out, removes them from the log and
 * returns how many were copied; the rest stay for the next call. */
size_t gnn_model_take_beats(gnn_model_t *m, gnn_beat_t *out, size_t max) {
  beat_log_t *l = &m->log;
  size_t k = l->len - l->head;
  if (!out) max = 0;
  if (k > max) k = max;
  if (k) memcpy(out, l->v + l->head, k * sizeof *out);
  l->head += k;
  if (l->head == l->len) l->head = l->len = 0;
  return k;
}

static void exec_load(gnn_model_t *m, const gnn_fields_t *f) {
  for (uint64_t i = 0; i < f->n; i++) {
    uint32_t *dst = buf_line(m, (int)f->buf, f->line + i);
    const uint64_t a = f->addr + i * f->stride;
    for (size_t j = 0; j < m->lw; j++) dst[j] = j < f->w ? gnn_mem_rd(m, a + j) : 0u;
  }
}

static void exec_store(gnn_model_t *m, const gnn_fields_t *f) {
  for (uint64_t i = 0; i < f->n; i++) {
    const uint32_t *src = buf_line(m, GNN_BUF_OUT, f->line + i);
    const uint64_t a = f->addr + i * f->stride;
    for (unsigned j = 0; j < f->w; j++) gnn_mem_wr(m, a + j, src[j]);
    gnn_model_log_beat(m, a, f->w, src);
  }
}

static void *xmalloc_words(size_t words) {
  void *p = malloc(words ? words * sizeof(uint32_t) : 1);
  if (!p) die("out of memory");
  return p;
}

static void exec_matmul(gnn_model_t *m, const gnn_fields_t *f) {
  const mm_geom_t g = mm_geom(&m->cfg, f);
  uint64_t lines[3];
  matmul_lines64(&m->cfg, f->df, f->m, f->k, f->nn, lines);
  uint32_t *a = xmalloc_words((size_t)g.m * g.k), *b = xmalloc_words((size_t)g.k * g.n),
           *c = xmalloc_words((size_t)g.m * g.n);
  size_t line;
  unsigned word;
  for (unsigned i = 0; i < g.m; i++)
    for (unsigned j = 0; j < g.k; j++) {
      mm_loc(&g, MAT_A, i, j, &line, &word);
      a[(size_t)i * g.k + j] = buf_line(m, GNN_BUF_IN, f->in + line)[word];
    }
  for (unsigned i = 0; i < g.k; i++)
    for (unsigned j = 0; j < g.n; j++) {
      mm_loc(&g, MAT_B, i, j, &line, &word);
      b[(size_t)i * g.n + j] = buf_line(m, GNN_BUF_WT, f->wt + line)[word];
    }
  if (f->acc)
    for (unsigned i = 0; i < g.m; i++)
      for (unsigned j = 0; j < g.n; j++) {
        mm_loc(&g, MAT_C, i, j, &line, &word);
        c[(size_t)i * g.n + j] = buf_line(m, GNN_BUF_OUT, f->out + line)[word];
      }
  matmul_rows(f->df, f->acc, f->act, g.m, g.k, g.n, a, b, c);
  /* whole OUT lines: the words that hold no C element become +0.0 */
  memset(buf_line(m, GNN_BUF_OUT, f->out), 0, (size_t)lines[2] * m->lw * sizeof(uint32_t));
  for (unsigned i = 0; i < g.m; i++)
    for (unsigned j = 0; j < g.n; j++) {
      mm_loc(&g, MAT_C, i, j, &line, &word);
      buf_line(m, GNN_BUF_OUT, f->out + line)[word] = c[(size_t)i * g.n + j];
    }
  free(a);
  free(b);
  free(c);
}

/* MADD (src1 != NULL) and ACT, line by line: dst is src0 or disjoint from it. */
static void exec_vec(gnn_model_t *m, const gnn_fields_t *f, int madd) {
  for (uint64_t i = 0; i < f->n; i++) {
    const uint32_t *s0 = buf_line(m, GNN_BUF_OUT, f->src0 + i);
    const uint32_t *s1 = madd ? buf_line(m, GNN_BUF_IN, f->src1 + i) : NULL;
    uint32_t *d = buf_line(m, GNN_BUF_OUT, f->dst + i);
    for (size_t j = 0; j < m->lw; j++)
      d[j] = gnn_act(f->act, madd ? add_rne(s0[j], s1[j]) : s0[j]);
  }
}

int gnn_model_exec(gnn_model_t *m, const gnn_insn_t *in) {
  const int e = gnn_check(&m->cfg, in);
  if (e != GNN_OK) return e;
  gnn_fields_t f;
  gnn_fields(in, &f);
  const int rm = rne_enter();
  switch (f.op) {
    case GNN_OP_LOAD: exec_load(m, &f); break;
    case GNN_OP_STORE: exec_store(m, &f); break;
    case GNN_OP_MATMUL: exec_matmul(m, &f); break;
    case GNN_OP_MADD: exec_vec(m, &f, 1); break;
    case GNN_OP_ACT: exec_vec(m, &f, 0); break;
    case GNN_OP_GLOAD:
    case GNN_OP_GSTORE:
    case GNN_OP_GFILL:
    case GNN_OP_GRUN: gnn_gexec(m, m->g, in); break;
    default: /* GNN_OP_COPY: whole lines, bits unchanged */
      memcpy(buf_line(m, GNN_BUF_IN, f.dst), buf_line(m, GNN_BUF_OUT, f.src0),
             (size_t)f.n * m->lw * sizeof(uint32_t));
      break;
  }
  rne_leave(rm);
  return GNN_OK;
}

uint32_t gnn_gmem_rd(const gnn_model_t *m, int mem, int gpe, unsigned line, unsigned word) {
  return gnn_gstate_rd(m->g, mem, gpe, line, word);
}

uint64_t gnn_model_bad_edges(const gnn_model_t *m) { return gnn_gstate_bad_edges(m->g); }

gnn_grun_stats_t gnn_model_grun_stats(const gnn_model_t *m) { return gnn_gstate_stats(m->g); }

size_t gnn_model_gex_lengths(gnn_model_t *m, const gnn_insn_t *prog, size_t n, int skip_dense,
                             uint64_t *gex_len, gnn_grun_stats_t *sum) {
  size_t errors = 0;
  for (size_t i = 0; i < n; i++) {
    const unsigned op = gnn_get(&prog[i], GNN_F_OP);
    gex_len[i] = 0;
    if (skip_dense && op < GNN_OP_GLOAD) continue;
    if (gnn_model_exec(m, &prog[i]) != GNN_OK) {
      errors++;
    } else if (op == GNN_OP_GRUN || op == GNN_OP_GFILL) {
      const gnn_grun_stats_t s = gnn_model_grun_stats(m);
      gex_len[i] = s.cycles;
      if (sum) {
        sum->cycles += s.cycles, sum->items += s.items, sum->stalls += s.stalls;
        sum->lock_stalls += s.lock_stalls, sum->sfu_stalls += s.sfu_stalls;
        sum->bad_edges += s.bad_edges;
      }
    }
  }
  return errors;
}

int gnnerator_ref(gnn_model_t *m, const gnn_insn_t *prog, size_t n, int *status) {
  int errors = 0;
  for (size_t i = 0; i < n; i++) {
    const int e = gnn_model_exec(m, &prog[i]);
    if (status) status[i] = e;
    if (e != GNN_OK) errors++;
  }
  return errors;
}
