/* manna.c -- C golden model of MANNA DiffMem tiles (see cmodel/include/manna.h, docs/manna.md). */
#include "manna.h"

#include "cutil.h"
#include "mna_hook.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define QNAN 0x7FC00000u
#define MAX_TILES 16

/* ---------------------------------------------------------------- fp32 helpers */
static float f32(uint32_t u) { return cutil_f32(u); }
/* the bits of a result, any NaN canonical */
static uint32_t bits(float f) { return isnan(f) ? QNAN : cutil_f32_bits(f); }

uint32_t mna_fp_add(uint32_t a, uint32_t b) { return bits(f32(a) + f32(b)); }
uint32_t mna_fp_sub(uint32_t a, uint32_t b) { return bits(f32(a) - f32(b)); }
uint32_t mna_fp_mul(uint32_t a, uint32_t b) { return bits(f32(a) * f32(b)); }
uint32_t mna_fp_div(uint32_t a, uint32_t b) { return bits(f32(a) / f32(b)); }
uint32_t mna_fp_sqrt(uint32_t a) { return bits(sqrtf(f32(a))); }
uint32_t mna_fp_fma(uint32_t a, uint32_t b, uint32_t c) {
  return bits(fmaf(f32(a), f32(b), f32(c)));
}

/* 2^k for -126 <= k <= 127, from bits */
static float pow2f(int k) { return f32((uint32_t)(k + 127) << 23); }

uint32_t mna_fp_exp(uint32_t xb) {
  const float x = f32(xb);
  if (isnan(x)) return QNAN;
  if (x > f32(0x42B17218u)) return 0x7F800000u; /* 88.72283935546875 */
  if (x < -104.0f) return 0;
  const float t = x * f32(0x3FB8AA3Bu);        /* log2(e) */
  const int n = (int)nearbyintf(t);             /* ties to even (default rounding mode) */
  const float f = (float)n;
  float r = fmaf(f, f32(0xBF317200u), x);       /* -ln2_hi */
  r = fmaf(f, f32(0xB5BFBE8Eu), r);             /* -ln2_lo */
  float p = f32(0x3AB60B61u);                   /* 1/720 */
  p = fmaf(p, r, f32(0x3C088889u));             /* 1/120 */
  p = fmaf(p, r, f32(0x3D2AAAABu));             /* 1/24 */
  p = fmaf(p, r, f32(0x3E2AAAABu));             /* 1/6 */
  p = fmaf(p, r, f32(0x3F000000u));             /* 1/2 */
  p = fmaf(p, r, 1.0f);
  p = fmaf(p, r, 1.0f);
  const int n1 = n >= 0 ? n / 2 : -((1 - n) / 2); /* n >> 1, arithmetic (floor(n / 2)) */
  const int n2 = n - n1;
  const float y1 = p * pow2f(n1);
  return bits(y1 * pow2f(n2));
}

uint32_t mna_fp_sigmoid(uint32_t x) {
  const uint32_t e = mna_fp_exp(x ^ 0x80000000u);
  const uint32_t s = mna_fp_add(e, 0x3F800000u);
  return mna_fp_div(0x3F800000u, s);
}

static uint32_t fp_relu(uint32_t x) {
  if (isnan(f32(x))) return QNAN;
  return (x & 0x80000000u) ? 0 : x;
}

/* ---------------------------------------------------------------- configuration */
void mna_cfg_default(mna_cfg_t *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->tiles = 2;
  cfg->emacs = 4;
  cfg->mb_lines = 64;
  cfg->ms_lines = 32;
  cfg->vb_lines = 32;
  cfg->vs_lines = 16;
  cfg->imem_depth = 256;
  cfg->rf_regs = 8;
  cfg->transpose = 1;
  cfg->emac_ops = 1;
  cfg->fence_timeout = 4096;
}

static int seterr(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

#define MAX_WORDS (1L << 20)

int mna_cfg_check(const mna_cfg_t *c, char *err, size_t errlen) {
  if (!c) return seterr(err, errlen, "no configuration");
  if (c->tiles != 1 && c->tiles != 2 && c->tiles != 4 && c->tiles != 8 && c->tiles != 16)
    return seterr(err, errlen, "tiles %d: must be 1, 2, 4, 8 or 16", c->tiles);
  if (c->emacs < 2 || c->emacs > 32 || (c->emacs & (c->emacs - 1)))
    return seterr(err, errlen, "emacs %d: must be a power of two 2..32", c->emacs);
  const struct {
    const char *name;
    int lines, even;
  } mems[4] = {{"mb_lines", c->mb_lines, 0},
               {"ms_lines", c->ms_lines, 1},
               {"vb_lines", c->vb_lines, 0},
               {"vs_lines", c->vs_lines, 1}};
  for (int i = 0; i < 4; i++) {
    if (mems[i].lines < 2 || (long)mems[i].lines * c->emacs > MAX_WORDS)
      return seterr(err, errlen, "%s %d: must be >= 2 and at most 2^20 words", mems[i].name,
                    mems[i].lines);
    if (mems[i].even && (mems[i].lines & 1))
      return seterr(err, errlen, "%s %d: must be even", mems[i].name, mems[i].lines);
  }
  if (c->imem_depth < 1 || c->imem_depth > 65536)
    return seterr(err, errlen, "imem_depth %d: must be 1..65536", c->imem_depth);
  if (c->rf_regs < 2 || c->rf_regs > 16)
    return seterr(err, errlen, "rf_regs %d: must be 2..16", c->rf_regs);
  if ((c->transpose != 0 && c->transpose != 1) || (c->emac_ops != 0 && c->emac_ops != 1))
    return seterr(err, errlen, "transpose and emac_ops must be 0 or 1");
  if (c->fence_timeout < 1) return seterr(err, errlen, "fence_timeout must be >= 1");
  return 0;
}

/* ---------------------------------------------------------------- state */
enum { W_NONE = 0, W_REDUCE = 1, W_BCAST = 2 };

typedef struct {
  uint64_t *imem;
  uint32_t *mem[5];               /* by space: [MB], [MS], [VB], [VS]; [0] unused */
  uint32_t sreg[MNA_SREGS];
  uint32_t *rf;                   /* rf[reg * E + lane] */
  uint32_t lcount[MNA_LOOP_LEVELS], lidx[MNA_LOOP_LEVELS], lstart[MNA_LOOP_LEVELS];
  int depth;
  uint32_t abase[MNA_AGENS], astride[MNA_AGENS];
  unsigned alevel[MNA_AGENS];
  int status;
  uint32_t pc, insns;
  int wait;                       /* W_*: waiting in a collective at pc */
  uint32_t wait_line, wait_lines;
  int abort_valid;
  uint32_t abort_line, abort_lines;
} tile_t;

struct mna {
  mna_cfg_t cfg;
  size_t words[6]; /* by space (IMEM: 64-bit words, SREG: 16) */
  FILE *trace;
  mna_hook_fn hook;               /* the cycle model's event hook (mna_hook.h), NULL = off */
  void *hook_ctx;
  tile_t t[MAX_TILES];
};

const mna_cfg_t *mna_cfg(const mna_t *m) { return &m->cfg; }

void mna_free(mna_t *m) {
  if (!m) return;
  for (int i = 0; i < MAX_TILES; i++) {
    free(m->t[i].imem);
    for (int s = 1; s <= 4; s++) free(m->t[i].mem[s]);
    free(m->t[i].rf);
  }
  free(m);
}

mna_t *mna_new(const mna_cfg_t *cfg) {
  if (mna_cfg_check(cfg, NULL, 0) != 0) return NULL;
  mna_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->cfg = *cfg;
  const size_t e = (size_t)cfg->emacs;
  m->words[MNA_SP_IMEM] = (size_t)cfg->imem_depth;
  m->words[MNA_SP_MB] = (size_t)cfg->mb_lines * e;
  m->words[MNA_SP_MS] = (size_t)cfg->ms_lines * e;
  m->words[MNA_SP_VB] = (size_t)cfg->vb_lines * e;
  m->words[MNA_SP_VS] = (size_t)cfg->vs_lines * e;
  m->words[MNA_SP_SREG] = MNA_SREGS;
  for (int i = 0; i < cfg->tiles; i++) {
    tile_t *t = &m->t[i];
    t->imem = calloc(m->words[MNA_SP_IMEM], sizeof *t->imem);
    t->rf = calloc((size_t)cfg->rf_regs * e, sizeof *t->rf);
    int ok = t->imem && t->rf;
    for (int s = 1; s <= 4; s++) {
      t->mem[s] = calloc(m->words[s], sizeof *t->mem[s]);
      ok = ok && t->mem[s];
    }
    if (!ok) {
      mna_free(m);
      return NULL;
    }
    t->status = MNA_ST_IDLE;
  }
  return m;
}

void mna_set_trace(mna_t *m, FILE *f) { m->trace = f; }

void mna_set_hook(mna_t *m, mna_hook_fn fn, void *ctx) {
  m->hook = fn;
  m->hook_ctx = ctx;
}

/* Reports one event to the hook (mna_hook.h), if any. */
static void hook_ev(const mna_t *m, int kind, int tile, int status, uint32_t pc, uint64_t word,
                    uint32_t cnt, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  if (!m->hook) return;
  const mna_event_t ev = {kind, tile, status, pc, word, cnt, a, b, c, d};
  m->hook(m->hook_ctx, &ev);
}

const uint32_t *mna_mem(const mna_t *m, int tile, int space, size_t *nwords) {
  if (nwords) *nwords = 0;
  if (!m || tile < 0 || tile >= m->cfg.tiles || space < MNA_SP_MB || space > MNA_SP_SREG)
    return NULL;
  if (nwords) *nwords = m->words[space];
  return space == MNA_SP_SREG ? m->t[tile].sreg : m->t[tile].mem[space];
}

const uint64_t *mna_imem(const mna_t *m, int tile, size_t *nwords) {
  if (nwords) *nwords = 0;
  if (!m || tile < 0 || tile >= m->cfg.tiles) return NULL;
  if (nwords) *nwords = m->words[MNA_SP_IMEM];
  return m->t[tile].imem;
}

void mna_tile_status(const mna_t *m, int tile, mna_tile_status_t *st) {
  memset(st, 0, sizeof *st);
  if (!m || tile < 0 || tile >= m->cfg.tiles) return;
  const tile_t *t = &m->t[tile];
  st->status = t->status;
  st->pc = t->pc;
  st->insns = t->insns;
  st->abort_valid = t->abort_valid;
  st->abort_line = t->abort_line;
  st->abort_lines = t->abort_lines;
}

/* ---------------------------------------------------------------- host port */
static void start_tile(tile_t *t, uint32_t pc) {
  t->pc = pc;
  t->status = MNA_ST_RUN;
  t->insns = 0;
  t->depth = 0;
  memset(t->lcount, 0, sizeof t->lcount);
  memset(t->lidx, 0, sizeof t->lidx);
  memset(t->lstart, 0, sizeof t->lstart);
  memset(t->abase, 0, sizeof t->abase);
  memset(t->astride, 0, sizeof t->astride);
  memset(t->alevel, 0, sizeof t->alevel);
  t->wait = W_NONE;
  t->wait_line = t->wait_lines = 0;
  t->abort_valid = 0;
  t->abort_line = t->abort_lines = 0;
}

int mna_host(mna_t *m, int op, int bcast, int tile, int space, uint32_t addr, uint64_t data,
             uint64_t *rdata) {
  if (rdata) *rdata = 0;
  const int nt = m->cfg.tiles;
  switch (op) {
    case MNA_HOST_START:
      if (addr > 0xFFFFu) return MNA_RSP_BAD; /* the PC is 16 bits */
      for (int i = 0; i < nt; i++)
        if (m->t[i].status == MNA_ST_RUN) return MNA_RSP_BUSY;
      for (int i = 0; i < nt; i++) start_tile(&m->t[i], addr);
      return MNA_RSP_OK;
    case MNA_HOST_STATUS:
      if (tile < 0 || tile >= nt) return MNA_RSP_BAD;
      if (rdata)
        *rdata = mna_status_word(m->t[tile].insns, m->t[tile].pc, (unsigned)m->t[tile].status);
      return MNA_RSP_OK;
    case MNA_HOST_WRITE:
    case MNA_HOST_READ: {
      const int all = op == MNA_HOST_WRITE && bcast;
      if (!all && (tile < 0 || tile >= nt)) return MNA_RSP_BAD;
      if (space < MNA_SP_IMEM || space > MNA_SP_SREG) return MNA_RSP_BAD;
      if (addr > 0xFFFFFu || addr >= m->words[space]) return MNA_RSP_BAD;
      const int lo = all ? 0 : tile, hi = all ? nt : tile + 1;
      for (int i = lo; i < hi; i++)
        if (m->t[i].status == MNA_ST_RUN) return MNA_RSP_BUSY;
      for (int i = lo; i < hi; i++) {
        tile_t *t = &m->t[i];
        if (op == MNA_HOST_READ) {
          uint64_t v;
          if (space == MNA_SP_IMEM) v = t->imem[addr];
          else if (space == MNA_SP_SREG) v = t->sreg[addr];
          else v = t->mem[space][addr];
          if (rdata) *rdata = v;
        } else if (space == MNA_SP_IMEM) {
          t->imem[addr] = data;
        } else if (space == MNA_SP_SREG) {
          if (addr != 0) t->sreg[addr] = (uint32_t)data;
        } else {
          t->mem[space][addr] = (uint32_t)data;
        }
      }
      return MNA_RSP_OK;
    }
    default:
      return MNA_RSP_BAD;
  }
}

/* ---------------------------------------------------------------- decoding */
/* Field uses of an instruction. */
enum { U_NONE = 0, U_S = 1, U_A = 2, U_R = 3, U_ANY = 4 }; /* sreg, agen, rf reg, any 0..15 */

typedef struct {
  unsigned op, f[5], flags; /* f: A, B, C, D, F */
  uint32_t imm;
  int use[5];
  int uses_imm;
  unsigned flag_mask;
} dec_t;

/* Decodes w and checks what does not depend on the configuration: returns 0, MNA_ST_OPCODE or
 * MNA_ST_FIELD. */
static int decode(uint64_t w, dec_t *d) {
  memset(d, 0, sizeof *d);
  d->op = mna_op(w);
  d->f[0] = mna_fa(w);
  d->f[1] = mna_fb(w);
  d->f[2] = mna_fc(w);
  d->f[3] = mna_fd(w);
  d->f[4] = mna_ff(w);
  d->flags = mna_flags(w);
  d->imm = mna_imm(w);
  int *u = d->use;
  switch (d->op) {
    case MNA_OP_NOP:
    case MNA_OP_HALT:
    case MNA_OP_ENDLOOP:
      break;
    case MNA_OP_LI:
    case MNA_OP_LOOP:
      u[0] = U_S;
      d->uses_imm = 1;
      break;
    case MNA_OP_ADDI:
      u[0] = u[1] = U_S;
      d->uses_imm = 1;
      break;
    case MNA_OP_AGEN:
      u[0] = U_A, u[1] = U_ANY, u[2] = u[3] = U_S;
      break;
    case MNA_OP_DMAT:
      u[0] = u[1] = U_A, u[2] = u[3] = U_S;
      d->flag_mask = MNA_FL_PAD | MNA_FL_STORE;
      break;
    case MNA_OP_DMA:
      u[0] = u[1] = U_A, u[2] = U_S;
      d->flag_mask = MNA_FL_STORE;
      break;
    case MNA_OP_VMM:
      u[0] = U_R, u[1] = u[2] = U_A, u[3] = U_S;
      d->flag_mask = MNA_FL_T | MNA_FL_SQ;
      break;
    case MNA_OP_SWR:
      u[0] = u[1] = U_A, u[2] = u[3] = U_R, u[4] = U_S;
      break;
    case MNA_OP_EL:
      u[0] = u[1] = U_A, u[4] = U_S;
      d->flag_mask = 0xF;
      u[2] = (d->flags & MNA_FL_BS) ? U_S : U_A;
      if ((d->flags & 3) == MNA_EL_FMA) {
        u[3] = (d->flags & MNA_FL_CS) ? U_S : U_A;
      } else {
        d->flag_mask = 0x7; /* bit3 must be 0, D unused */
      }
      break;
    case MNA_OP_RFZ:
      u[0] = U_R;
      break;
    case MNA_OP_RFLD:
    case MNA_OP_RFST:
      u[0] = U_R, u[1] = U_A;
      break;
    case MNA_OP_SFU:
      u[0] = u[1] = U_A, u[3] = U_S;
      d->flag_mask = 0x7;
      if ((d->flags & 7) == MNA_SFU_DOT) u[2] = U_A;
      break;
    case MNA_OP_SLD:
    case MNA_OP_SST:
      u[0] = U_S, u[1] = U_A;
      break;
    case MNA_OP_REDUCE:
    case MNA_OP_BCAST:
      u[0] = U_A, u[1] = U_S;
      break;
    default:
      return MNA_ST_OPCODE;
  }
  for (int i = 0; i < 5; i++) {
    if (u[i] == U_NONE && d->f[i] != 0) return MNA_ST_FIELD;
    if (u[i] == U_A && d->f[i] >= MNA_AGENS) return MNA_ST_FIELD;
  }
  if (d->flags & ~d->flag_mask) return MNA_ST_FIELD;
  if (!d->uses_imm && d->imm != 0) return MNA_ST_FIELD;
  if (d->op == MNA_OP_SFU && (d->flags & 7) == 7) return MNA_ST_FIELD;
  return 0;
}

/* ---------------------------------------------------------------- disassembly */
typedef struct {
  char *p;
  size_t n, len;
} sbuf_t;

static void sb(sbuf_t *b, const char *fmt, ...) {
  if (b->len + 1 >= b->n) return;
  va_list ap;
  va_start(ap, fmt);
  const int k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
  va_end(ap);
  if (k > 0) b->len += (size_t)k;
  if (b->len >= b->n) b->len = b->n - 1;
}

/* operand i of d as its register name */
static void opnd(sbuf_t *b, const dec_t *d, int i, const char *sep) {
  static const char pre[] = {'?', 's', 'a', 'r', '?'};
  sb(b, "%s%c%u", sep, pre[d->use[i]], d->f[i]);
}

/* li/addi immediates (as sw/manna prints them): decimal below 65536, negative decimal from
 * -65535, else 0x%08x */
static void imm_text(sbuf_t *b, uint32_t v) {
  if (v < 0x10000u) sb(b, "%u", (unsigned)v);
  else if (v >= 0xFFFF0001u) sb(b, "-%u", (unsigned)(0u - v));
  else sb(b, "0x%08x", (unsigned)v);
}

char *mna_disasm(uint64_t w, char *buf, size_t n) {
  if (!buf || n == 0) return buf;
  buf[0] = 0;
  sbuf_t b = {buf, n, 0};
  dec_t d;
  if (decode(w, &d) != 0) {
    sb(&b, ".word 0x%016llx", (unsigned long long)w);
    return buf;
  }
  static const char *const elop[4] = {"add", "sub", "mul", "fma"};
  static const char *const sfufn[7] = {"exp", "recip", "sqrt", "relu", "sigmoid", "sum", "dot"};
  switch (d.op) {
    case MNA_OP_NOP: sb(&b, "nop"); break;
    case MNA_OP_HALT: sb(&b, "halt"); break;
    case MNA_OP_ENDLOOP: sb(&b, "endloop"); break;
    case MNA_OP_LI: sb(&b, "li s%u, ", d.f[0]), imm_text(&b, d.imm); break;
    case MNA_OP_ADDI: sb(&b, "addi s%u, s%u, ", d.f[0], d.f[1]), imm_text(&b, d.imm); break;
    case MNA_OP_LOOP: sb(&b, "loop s%u, @%lu", d.f[0], (unsigned long)d.imm); break;
    case MNA_OP_AGEN: sb(&b, "agen a%u, %u, s%u, s%u", d.f[0], d.f[1], d.f[2], d.f[3]); break;
    case MNA_OP_DMAT:
      sb(&b, "dmat a%u, a%u, s%u, s%u%s%s", d.f[0], d.f[1], d.f[2], d.f[3],
         (d.flags & MNA_FL_PAD) ? " pad" : "", (d.flags & MNA_FL_STORE) ? " store" : "");
      break;
    case MNA_OP_DMA:
      sb(&b, "dma a%u, a%u, s%u%s", d.f[0], d.f[1], d.f[2],
         (d.flags & MNA_FL_STORE) ? " store" : "");
      break;
    case MNA_OP_VMM:
      sb(&b, "vmm r%u, a%u, a%u, s%u%s%s", d.f[0], d.f[1], d.f[2], d.f[3],
         (d.flags & MNA_FL_T) ? " t" : "", (d.flags & MNA_FL_SQ) ? " sq" : "");
      break;
    case MNA_OP_SWR:
      sb(&b, "swr a%u, a%u, r%u, r%u, s%u", d.f[0], d.f[1], d.f[2], d.f[3], d.f[4]);
      break;
    case MNA_OP_EL:
      sb(&b, "el.%s", elop[d.flags & 3]);
      opnd(&b, &d, 0, " ");
      opnd(&b, &d, 1, ", ");
      opnd(&b, &d, 2, ", ");
      if ((d.flags & 3) == MNA_EL_FMA) opnd(&b, &d, 3, ", ");
      opnd(&b, &d, 4, ", ");
      break;
    case MNA_OP_RFZ: sb(&b, "rfz r%u", d.f[0]); break;
    case MNA_OP_RFLD: sb(&b, "rfld r%u, a%u", d.f[0], d.f[1]); break;
    case MNA_OP_RFST: sb(&b, "rfst r%u, a%u", d.f[0], d.f[1]); break;
    case MNA_OP_SFU:
      sb(&b, "sfu.%s a%u, a%u, ", sfufn[d.flags & 7], d.f[0], d.f[1]);
      if ((d.flags & 7) == MNA_SFU_DOT) sb(&b, "a%u, ", d.f[2]);
      sb(&b, "s%u", d.f[3]);
      break;
    case MNA_OP_SLD: sb(&b, "sld s%u, a%u", d.f[0], d.f[1]); break;
    case MNA_OP_SST: sb(&b, "sst s%u, a%u", d.f[0], d.f[1]); break;
    case MNA_OP_REDUCE: sb(&b, "reduce a%u, s%u", d.f[0], d.f[1]); break;
    case MNA_OP_BCAST: sb(&b, "bcast a%u, s%u", d.f[0], d.f[1]); break;
    default: break;
  }
  return buf;
}

/* ---------------------------------------------------------------- execution */
static uint32_t sreg(const tile_t *t, unsigned i) { return i ? t->sreg[i] : 0; }
static void set_sreg(tile_t *t, unsigned i, uint32_t v) {
  if (i) t->sreg[i] = v;
}
static uint32_t agen(const tile_t *t, unsigned a) {
  const unsigned l = t->alevel[a];
  const uint32_t idx = (l < MNA_LOOP_LEVELS && (int)l < t->depth) ? t->lidx[l] : 0;
  return t->abase[a] + t->astride[a] * idx;
}
/* words [first, first + n) inside a memory of size words (n >= 1) */
static int in_range(uint64_t first, uint64_t n, size_t size) { return first + n <= (uint64_t)size; }

/* Executes one instruction of tile ti (status RUN, not waiting). Returns 1 when the tile now waits
 * in a collective (pc unchanged, not counted), else 0. */
static int step(mna_t *m, int ti) {
  tile_t *t = &m->t[ti];
  const mna_cfg_t *c = &m->cfg;
  const uint32_t E = (uint32_t)c->emacs;
  if (t->pc >= (uint32_t)c->imem_depth) {
    hook_ev(m, MNA_EV_INSN, ti, MNA_ST_PC, t->pc, 0, 0, 0, 0, 0, 0);
    t->status = MNA_ST_PC;
    return 0;
  }
  const uint64_t w = t->imem[t->pc];
  if (m->trace) {
    char dis[96];
    fprintf(m->trace, "tile %d pc %lu %s\n", ti, (unsigned long)t->pc, mna_disasm(w, dis, sizeof dis));
  }
  dec_t d;
  int err = decode(w, &d);
  if (err) {
    hook_ev(m, MNA_EV_INSN, ti, err, t->pc, w, 0, 0, 0, 0, 0);
    t->status = err;
    return 0;
  }
  /* configuration-dependent field checks: RF registers, counts */
  for (int i = 0; i < 5; i++)
    if (d.use[i] == U_R && d.f[i] >= (unsigned)c->rf_regs) err = MNA_ST_FIELD;
  unsigned cnt_field = 16; /* the count's field index, 16 = none */
  switch (d.op) {
    case MNA_OP_LOOP: cnt_field = 0; break;
    case MNA_OP_DMAT: case MNA_OP_DMA: cnt_field = 2; break;
    case MNA_OP_VMM: case MNA_OP_SFU: cnt_field = 3; break;
    case MNA_OP_SWR: case MNA_OP_EL: cnt_field = 4; break;
    case MNA_OP_REDUCE: case MNA_OP_BCAST: cnt_field = 1; break;
    default: break;
  }
  const uint32_t cnt = cnt_field < 5 ? sreg(t, d.f[cnt_field]) : 0;
  if (cnt > MNA_MAX_COUNT) err = MNA_ST_FIELD;
  if (d.op == MNA_OP_VMM && (d.flags & MNA_FL_T) && cnt > E) err = MNA_ST_FIELD;
  if (err) {
    hook_ev(m, MNA_EV_INSN, ti, err, t->pc, w, 0, 0, 0, 0, 0);
    t->status = err;
    return 0;
  }
  /* LOOP */
  if ((d.op == MNA_OP_LOOP && t->depth >= MNA_LOOP_LEVELS) ||
      (d.op == MNA_OP_ENDLOOP && t->depth == 0)) {
    hook_ev(m, MNA_EV_INSN, ti, MNA_ST_LOOP, t->pc, w, 0, 0, 0, 0, 0);
    t->status = MNA_ST_LOOP;
    return 0;
  }
  /* ADDR: the address values and ranges (count 0: no check, nothing done) */
  const uint32_t A = d.use[0] == U_A ? agen(t, d.f[0]) : 0;
  const uint32_t B = d.use[1] == U_A ? agen(t, d.f[1]) : 0;
  const uint32_t C = d.use[2] == U_A ? agen(t, d.f[2]) : 0;
  const uint32_t D = d.use[3] == U_A ? agen(t, d.f[3]) : 0;
  const size_t mbw = m->words[MNA_SP_MB], msw = m->words[MNA_SP_MS], vbw = m->words[MNA_SP_VB],
               vsw = m->words[MNA_SP_VS];
  const uint64_t n = cnt, e = E;
  int ok = 1;
  switch (d.op) {
    case MNA_OP_DMAT:
      if (n) {
        const uint64_t stride = sreg(t, d.f[3]);
        const uint64_t last = (d.flags & MNA_FL_PAD) ? (n - 1) * (e + 1) + e - 1 : n * e - 1;
        ok = in_range((uint64_t)A * e, last + 1, msw) &&
             in_range(((uint64_t)B + (n - 1) * stride) * e, e, mbw);
      }
      break;
    case MNA_OP_DMA:
      if (n) ok = in_range((uint64_t)A * e, n * e, vsw) && in_range((uint64_t)B * e, n * e, vbw);
      break;
    case MNA_OP_VMM:
      if (n) {
        const uint64_t lines = (d.flags & MNA_FL_T) ? e + (e + n - 2) / e : n;
        ok = in_range((uint64_t)B * e, lines * e, msw);
        if (!(d.flags & MNA_FL_SQ)) ok = ok && in_range(C, n, vsw);
      }
      break;
    case MNA_OP_SWR:
      if (n) ok = in_range((uint64_t)A * e, n * e, msw) && in_range(B, n, vsw);
      break;
    case MNA_OP_EL:
      if (n) {
        ok = in_range((uint64_t)A * e, n * e, vsw) && in_range((uint64_t)B * e, n * e, vsw);
        if (d.use[2] == U_A) ok = ok && in_range((uint64_t)C * e, n * e, vsw);
        if (d.use[3] == U_A) ok = ok && in_range((uint64_t)D * e, n * e, vsw);
      }
      break;
    case MNA_OP_RFLD:
    case MNA_OP_RFST:
      ok = in_range((uint64_t)B * e, e, vsw);
      break;
    case MNA_OP_SFU:
      if (n) {
        const unsigned fn = d.flags & 7;
        ok = in_range(A, (fn == MNA_SFU_SUM || fn == MNA_SFU_DOT) ? 1 : n, vsw) &&
             in_range(B, n, vsw);
        if (fn == MNA_SFU_DOT) ok = ok && in_range(C, n, vsw);
      }
      break;
    case MNA_OP_SLD:
    case MNA_OP_SST:
      ok = in_range(B, 1, vsw);
      break;
    case MNA_OP_REDUCE:
    case MNA_OP_BCAST:
      if (n) ok = in_range((uint64_t)A * e, n * e, vsw);
      break;
    default:
      break;
  }
  if (!ok) {
    hook_ev(m, MNA_EV_INSN, ti, MNA_ST_ADDR, t->pc, w, cnt, A, B, C, D);
    t->status = MNA_ST_ADDR;
    return 0;
  }
  hook_ev(m, MNA_EV_INSN, ti, 0, t->pc, w, cnt, A, B, C, D);
  /* execute */
  uint32_t *ms = t->mem[MNA_SP_MS], *vs = t->mem[MNA_SP_VS];
  uint32_t *mb = t->mem[MNA_SP_MB], *vb = t->mem[MNA_SP_VB];
  uint32_t next = t->pc + 1;
  switch (d.op) {
    case MNA_OP_NOP:
      break;
    case MNA_OP_HALT:
      t->status = MNA_ST_DONE;
      t->insns++;
      return 0;
    case MNA_OP_LI:
      set_sreg(t, d.f[0], d.imm);
      break;
    case MNA_OP_ADDI:
      set_sreg(t, d.f[0], sreg(t, d.f[1]) + d.imm);
      break;
    case MNA_OP_LOOP:
      if (cnt == 0) {
        next = d.imm;
      } else {
        t->lcount[t->depth] = cnt;
        t->lidx[t->depth] = 0;
        t->lstart[t->depth] = t->pc + 1;
        t->depth++;
      }
      break;
    case MNA_OP_ENDLOOP: {
      const int top = t->depth - 1;
      t->lidx[top]++;
      if (t->lidx[top] < t->lcount[top]) next = t->lstart[top];
      else t->depth--;
      break;
    }
    case MNA_OP_AGEN:
      t->abase[d.f[0]] = sreg(t, d.f[2]);
      t->astride[d.f[0]] = sreg(t, d.f[3]);
      t->alevel[d.f[0]] = d.f[1];
      break;
    case MNA_OP_DMAT: {
      const uint32_t stride = sreg(t, d.f[3]);
      const int pad = (d.flags & MNA_FL_PAD) != 0, store = (d.flags & MNA_FL_STORE) != 0;
      for (uint64_t i = 0; i < n; i++) {
        uint32_t *pm = mb + ((uint64_t)B + i * stride) * e;
        uint32_t *ps = ms + (uint64_t)A * e + i * (pad ? e + 1 : e);
        if (store) memcpy(pm, ps, e * sizeof *pm);
        else memcpy(ps, pm, e * sizeof *pm);
      }
      break;
    }
    case MNA_OP_DMA:
      for (uint64_t i = 0; i < n; i++) {
        uint32_t *pb = vb + ((uint64_t)B + i) * e, *ps = vs + ((uint64_t)A + i) * e;
        if (d.flags & MNA_FL_STORE) memcpy(pb, ps, e * sizeof *pb);
        else memcpy(ps, pb, e * sizeof *pb);
      }
      break;
    case MNA_OP_VMM: {
      uint32_t *r = t->rf + (size_t)d.f[0] * e;
      const int sq = (d.flags & MNA_FL_SQ) != 0;
      if (d.flags & MNA_FL_T) {
        for (uint64_t col = 0; col < n; col++)
          for (uint64_t row = 0; row < e; row++) {
            const uint32_t mv = ms[(uint64_t)B * e + row * (e + 1) + col];
            r[row] = mna_fp_fma(mv, sq ? mv : vs[C + col], r[row]);
          }
      } else {
        for (uint64_t i = 0; i < n; i++)
          for (uint64_t j = 0; j < e; j++) {
            const uint32_t mv = ms[((uint64_t)B + i) * e + j];
            r[j] = mna_fp_fma(mv, sq ? mv : vs[C + i], r[j]);
          }
      }
      break;
    }
    case MNA_OP_SWR: {
      const uint32_t *er = t->rf + (size_t)d.f[2] * e, *ad = t->rf + (size_t)d.f[3] * e;
      for (uint64_t i = 0; i < n; i++) {
        const uint32_t wv = vs[B + i];
        uint32_t *row = ms + ((uint64_t)A + i) * e;
        for (uint64_t j = 0; j < e; j++) {
          const uint32_t tt = mna_fp_fma(wv ^ 0x80000000u, er[j], 0x3F800000u);
          const uint32_t mm = mna_fp_mul(row[j], tt);
          row[j] = mna_fp_fma(wv, ad[j], mm);
        }
      }
      break;
    }
    case MNA_OP_EL: {
      const unsigned opc = d.flags & 3;
      const int bs = d.use[2] == U_S, cs = d.use[3] == U_S;
      const uint32_t bsv = bs ? sreg(t, d.f[2]) : 0, csv = cs ? sreg(t, d.f[3]) : 0;
      uint32_t res[32];
      for (uint64_t k = 0; k < n; k++) {
        for (uint64_t j = 0; j < e; j++) {
          const uint32_t a = vs[((uint64_t)B + k) * e + j];
          const uint32_t bv = bs ? bsv : vs[((uint64_t)C + k) * e + j];
          switch (opc) {
            case MNA_EL_ADD: res[j] = mna_fp_add(a, bv); break;
            case MNA_EL_SUB: res[j] = mna_fp_sub(a, bv); break;
            case MNA_EL_MUL: res[j] = mna_fp_mul(a, bv); break;
            default: {
              const uint32_t cv = cs ? csv : vs[((uint64_t)D + k) * e + j];
              res[j] = mna_fp_fma(a, bv, cv);
              break;
            }
          }
        }
        memcpy(vs + ((uint64_t)A + k) * e, res, e * sizeof *res);
      }
      break;
    }
    case MNA_OP_RFZ:
      memset(t->rf + (size_t)d.f[0] * e, 0, e * sizeof *t->rf);
      break;
    case MNA_OP_RFLD:
      memcpy(t->rf + (size_t)d.f[0] * e, vs + (uint64_t)B * e, e * sizeof *t->rf);
      break;
    case MNA_OP_RFST:
      memcpy(vs + (uint64_t)B * e, t->rf + (size_t)d.f[0] * e, e * sizeof *t->rf);
      break;
    case MNA_OP_SFU: {
      const unsigned fn = d.flags & 7;
      if (n == 0) break;
      if (fn == MNA_SFU_SUM || fn == MNA_SFU_DOT) {
        uint32_t acc = 0;
        for (uint64_t i = 0; i < n; i++)
          acc = fn == MNA_SFU_SUM ? mna_fp_add(acc, vs[B + i])
                                  : mna_fp_fma(vs[B + i], vs[C + i], acc);
        vs[A] = acc;
      } else {
        for (uint64_t i = 0; i < n; i++) {
          const uint32_t x = vs[B + i];
          uint32_t y;
          switch (fn) {
            case MNA_SFU_EXP: y = mna_fp_exp(x); break;
            case MNA_SFU_RECIP: y = mna_fp_div(0x3F800000u, x); break;
            case MNA_SFU_SQRT: y = mna_fp_sqrt(x); break;
            case MNA_SFU_RELU: y = fp_relu(x); break;
            default: y = mna_fp_sigmoid(x); break;
          }
          vs[A + i] = y;
        }
      }
      break;
    }
    case MNA_OP_SLD:
      set_sreg(t, d.f[0], vs[B]);
      break;
    case MNA_OP_SST:
      vs[B] = sreg(t, d.f[0]);
      break;
    case MNA_OP_REDUCE:
    case MNA_OP_BCAST:
      if (c->tiles > 1) {
        t->wait = d.op == MNA_OP_REDUCE ? W_REDUCE : W_BCAST;
        t->wait_line = A;
        t->wait_lines = cnt;
        return 1;
      }
      break;
    default:
      break;
  }
  t->insns++;
  t->pc = next;
  return 0;
}

/* Stops the waiting tile t with status st inside its collective. */
static void abort_wait(tile_t *t, int st) {
  t->status = st;
  t->abort_valid = 1;
  t->abort_line = t->wait_line;
  t->abort_lines = t->wait_lines;
  t->wait = W_NONE;
}

/* Every tile waits in a collective: performs it or aborts it. */
static void collective(mna_t *m) {
  const int nt = m->cfg.tiles;
  const size_t e = (size_t)m->cfg.emacs;
  int same = 1;
  for (int i = 1; i < nt; i++)
    if (m->t[i].wait != m->t[0].wait || m->t[i].wait_lines != m->t[0].wait_lines) same = 0;
  hook_ev(m, MNA_EV_COLL, -1, same ? 0 : MNA_ST_COLL, 0, 0, 0, 0, 0, 0, 0);
  if (!same) {
    for (int i = 0; i < nt; i++) abort_wait(&m->t[i], MNA_ST_COLL);
    return;
  }
  const size_t words = (size_t)m->t[0].wait_lines * e;
  if (words) {
    if (m->t[0].wait == W_REDUCE) {
      for (int l = 1; l < nt; l <<= 1) /* level lg l: receivers t with bits <= lg l clear */
        for (int r = 0; r + l < nt; r += 2 * l) {
          uint32_t *dst = m->t[r].mem[MNA_SP_VS] + (size_t)m->t[r].wait_line * e;
          const uint32_t *src = m->t[r + l].mem[MNA_SP_VS] + (size_t)m->t[r + l].wait_line * e;
          for (size_t k = 0; k < words; k++) dst[k] = mna_fp_add(dst[k], src[k]);
        }
    } else {
      const uint32_t *src = m->t[0].mem[MNA_SP_VS] + (size_t)m->t[0].wait_line * e;
      for (int i = 1; i < nt; i++)
        memcpy(m->t[i].mem[MNA_SP_VS] + (size_t)m->t[i].wait_line * e, src, words * sizeof *src);
    }
  }
  for (int i = 0; i < nt; i++) {
    tile_t *t = &m->t[i];
    t->wait = W_NONE;
    t->insns++;
    t->pc++;
  }
}

int mna_run(mna_t *m, uint64_t max_insns) {
  const int nt = m->cfg.tiles;
  uint64_t done[MAX_TILES] = {0};
  for (;;) {
    for (int i = 0; i < nt; i++) {
      tile_t *t = &m->t[i];
      while (t->status == MNA_ST_RUN && t->wait == W_NONE) {
        if (done[i] >= max_insns) return -1;
        const uint32_t before = t->insns;
        if (step(m, i)) break;
        done[i] += t->insns - before;
      }
    }
    int waiting = 0, errors = 0;
    for (int i = 0; i < nt; i++) {
      const tile_t *t = &m->t[i];
      if (t->status == MNA_ST_RUN) waiting++;
      else if (t->status >= MNA_ST_OPCODE && t->status <= MNA_ST_TIMEOUT) errors++;
    }
    if (waiting == 0) return 0;
    if (waiting == nt) {
      for (int i = 0; i < nt; i++)
        if (done[i] >= max_insns) return -1;
      collective(m);
      for (int i = 0; i < nt; i++) done[i]++;
      continue;
    }
    for (int i = 0; i < nt; i++)
      if (m->t[i].status == MNA_ST_RUN) {
        const int st = errors ? MNA_ST_COLL : MNA_ST_TIMEOUT;
        hook_ev(m, MNA_EV_ABORT, i, st, m->t[i].pc, 0, 0, 0, 0, 0, 0);
        abort_wait(&m->t[i], st);
      }
    return 0;
  }
}
