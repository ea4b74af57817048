/* tensordimm.c -- C golden model of TensorDIMM (cmodel/include/tensordimm.h,
 * docs/tensordimm.md): the TensorISA encoding, the lane arithmetic, the sparse per-core memory,
 * the decode checks and the sequential execution of GATHER / REDUCE / AVERAGE on a TensorNode,
 * and the DRAM address mapping. */
#include "tensordimm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpref.h"

/* ------------------------------------------------------------------ encoding */
#define W0_RSVD_MASK 0xFF00FC00u

tdimm_insn_t tdimm_enc(unsigned op, unsigned subop, unsigned type, unsigned k, uint32_t in_base,
                       uint32_t aux, uint32_t out_base, uint32_t count) {
  tdimm_insn_t i;
  i.w[0] = (uint32_t)(op & 0xFu) | (uint32_t)(subop & 0xFu) << 4 | (uint32_t)(type & 3u) << 8 |
           (uint32_t)(k & 0xFFu) << 16;
  i.w[1] = in_base;
  i.w[2] = aux;
  i.w[3] = out_base;
  i.w[4] = count;
  return i;
}

tdimm_insn_t tdimm_enc_gather(unsigned type, unsigned k, uint32_t table_base, uint32_t idx_base,
                              uint32_t out_base, uint32_t count) {
  return tdimm_enc(TDIMM_OP_GATHER, 0, type, k, table_base, idx_base, out_base, count);
}

tdimm_insn_t tdimm_enc_reduce(unsigned subop, unsigned type, unsigned k, uint32_t in1,
                              uint32_t in2, uint32_t out_base, uint32_t count) {
  return tdimm_enc(TDIMM_OP_REDUCE, subop, type, k, in1, in2, out_base, count);
}

tdimm_insn_t tdimm_enc_average(unsigned type, unsigned k, uint32_t in_base, uint32_t avg_num,
                               uint32_t out_base, uint32_t count) {
  return tdimm_enc(TDIMM_OP_AVERAGE, 0, type, k, in_base, avg_num, out_base, count);
}

tdimm_fields_t tdimm_dec(const tdimm_insn_t *insn) {
  tdimm_fields_t f;
  uint32_t w0 = insn->w[0];
  f.op = w0 & 0xFu;
  f.subop = (w0 >> 4) & 0xFu;
  f.type = (w0 >> 8) & 3u;
  f.k = (w0 >> 16) & 0xFFu;
  f.rsvd = (w0 & W0_RSVD_MASK) != 0;
  f.in_base = insn->w[1];
  f.aux = insn->w[2];
  f.out_base = insn->w[3];
  f.count = insn->w[4];
  return f;
}

static const char *const kSubName[5] = {"add", "sub", "mul", "max", "min"};

char *tdimm_insn_str(const tdimm_insn_t *insn, char *buf, size_t n) {
  if (!buf || n == 0) return buf;
  tdimm_fields_t f = tdimm_dec(insn);
  if (f.op < TDIMM_OP_GATHER || f.op > TDIMM_OP_AVERAGE) {
    snprintf(buf, n, "ILLEGAL w0=0x%08x", (unsigned)insn->w[0]);
    return buf;
  }
  static const char *const kOpName[4] = {"", "GATHER", "REDUCE", "AVERAGE"};
  char sub[16] = "", type[16];
  if (f.op == TDIMM_OP_REDUCE && f.subop <= TDIMM_SUB_MIN)
    snprintf(sub, sizeof sub, ".%s", kSubName[f.subop]);
  else if (f.op == TDIMM_OP_REDUCE || f.subop != 0)
    snprintf(sub, sizeof sub, ".sub%u", f.subop);
  if (f.type == TDIMM_T_FP32) snprintf(type, sizeof type, "fp32");
  else if (f.type == TDIMM_T_INT32) snprintf(type, sizeof type, "int32");
  else snprintf(type, sizeof type, "type%u", f.type);
  char rsvd[24] = "";
  if (f.rsvd) snprintf(rsvd, sizeof rsvd, " rsvd=0x%x", (unsigned)(insn->w[0] & W0_RSVD_MASK));
  const unsigned in = (unsigned)f.in_base, aux = (unsigned)f.aux, out = (unsigned)f.out_base,
                 cnt = (unsigned)f.count;
  switch (f.op) {
    case TDIMM_OP_GATHER:
      snprintf(buf, n, "%s%s.%s k=%u table=0x%x idx=0x%x out=0x%x count=%u%s", kOpName[f.op], sub,
               type, f.k, in, aux, out, cnt, rsvd);
      break;
    case TDIMM_OP_REDUCE:
      snprintf(buf, n, "%s%s.%s k=%u in1=0x%x in2=0x%x out=0x%x count=%u%s", kOpName[f.op], sub,
               type, f.k, in, aux, out, cnt, rsvd);
      break;
    default:
      snprintf(buf, n, "%s%s.%s k=%u in=0x%x avg=%u out=0x%x count=%u%s", kOpName[f.op], sub,
               type, f.k, in, aux, out, cnt, rsvd);
      break;
  }
  return buf;
}

const char *tdimm_err_name(unsigned code) {
  static const char *const kNames[10] = {"OK",    "OPCODE",   "SUBOP",  "TYPE",   "FIELD",
                                         "AVGNUM", "ALIGN", "CAPACITY", "WINDOW", "OVERLAP"};
  return code < 10 ? kNames[code] : "?";
}

/* ------------------------------------------------------------------ lane arithmetic */
uint32_t tdimm_lane_reduce(unsigned subop, unsigned type, uint32_t a, uint32_t b) {
  if (type == TDIMM_T_FP32) {
    switch (subop) {
      case TDIMM_SUB_ADD: return fpref_add(FP_FMT_F32, a, b, FP_RNE, NULL);
      case TDIMM_SUB_SUB: return fpref_sub(FP_FMT_F32, a, b, FP_RNE, NULL);
      case TDIMM_SUB_MUL: return fpref_mul(FP_FMT_F32, a, b, FP_RNE, NULL);
      case TDIMM_SUB_MAX: return fpref_max(FP_FMT_F32, a, b, NULL);
      case TDIMM_SUB_MIN: return fpref_min(FP_FMT_F32, a, b, NULL);
      default: return 0;
    }
  }
  if (type == TDIMM_T_INT32) {
    const int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (subop) {
      case TDIMM_SUB_ADD: return a + b;
      case TDIMM_SUB_SUB: return a - b;
      case TDIMM_SUB_MUL: return a * b; /* uint32_t: wraps, no UB */
      case TDIMM_SUB_MAX: return sa >= sb ? a : b;
      case TDIMM_SUB_MIN: return sa <= sb ? a : b;
      default: return 0;
    }
  }
  return 0;
}

/* AVERAGE accumulation step (acc + v) and final division by n >= 1. */
static uint32_t avg_add(unsigned type, uint32_t acc, uint32_t v) {
  return type == TDIMM_T_FP32 ? fpref_add(FP_FMT_F32, acc, v, FP_RNE, NULL) : acc + v;
}
static uint32_t avg_div(unsigned type, uint32_t acc, uint32_t n) {
  if (type == TDIMM_T_FP32) /* (float)n is exact for n < 2^24 (averageNum < 2^16) */
    return fpref_div(FP_FMT_F32, acc, fpref_u32_to_f(FP_FMT_F32, n, FP_RNE, NULL), FP_RNE, NULL);
  /* int32: C division truncates toward zero; in 64 bits nothing overflows */
  return (uint32_t)(int32_t)((int64_t)(int32_t)acc / (int64_t)n);
}

uint32_t tdimm_lane_average(unsigned type, const uint32_t *vals, unsigned n) {
  if (n == 0 || type > TDIMM_T_INT32) return 0;
  uint32_t acc = 0; /* +0.0f / int 0 */
  for (unsigned j = 0; j < n; j++) acc = avg_add(type, acc, vals[j]);
  return avg_div(type, acc, n);
}

/* ------------------------------------------------------------------ sparse memory */
/* A core's memory: top[t] -> l2 table of chunk pointers -> chunk of 2^chunk_log2 blocks. */
#define CHUNK_LOG2_MAX 4u   /* 16 blocks = 1 KiB: random gathers touch one chunk a row */
#define L2_LOG2_MAX    10u

struct tdimm_node {
  tdimm_cfg_t cfg;
  unsigned nd;                          /* nodeDim */
  unsigned chunk_log2, l2_log2, top_log2;
  uint32_t ***top;                      /* [nd << top_log2] l2 tables (NULL until used) */
  size_t chunks;                        /* chunks allocated */
  uint32_t zero[TDIMM_LANES];           /* what an untouched block reads */
};

void tdimm_cfg_default(tdimm_cfg_t *cfg, unsigned nd_log2, unsigned local_aw) {
  memset(cfg, 0, sizeof *cfg);
  cfg->nd_log2 = nd_log2;
  cfg->local_aw = local_aw;
  const uint64_t cap = local_aw < 64 ? 1ull << local_aw : 0;
  for (unsigned c = 0; c < 128; c++) {
    cfg->core[c].win_base = 0;
    cfg->core[c].win_limit = cap;
    cfg->core[c].tid = c;
  }
}

tdimm_node_t *tdimm_node_new(const tdimm_cfg_t *cfg) {
  if (!cfg || cfg->nd_log2 > 7 || cfg->local_aw < 4 || cfg->local_aw > 27) return NULL;
  tdimm_node_t *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->cfg = *cfg;
  n->nd = 1u << cfg->nd_log2;
  unsigned aw = cfg->local_aw;
  n->chunk_log2 = aw < CHUNK_LOG2_MAX ? aw : CHUNK_LOG2_MAX;
  aw -= n->chunk_log2;
  n->l2_log2 = aw < L2_LOG2_MAX ? aw : L2_LOG2_MAX;
  n->top_log2 = aw - n->l2_log2; /* 0..13 */
  n->top = calloc((size_t)n->nd << n->top_log2, sizeof *n->top);
  if (!n->top) {
    free(n);
    return NULL;
  }
  return n;
}

void tdimm_node_free(tdimm_node_t *node) {
  if (!node) return;
  const size_t ntop = (size_t)node->nd << node->top_log2, nl2 = (size_t)1 << node->l2_log2;
  for (size_t t = 0; t < ntop; t++) {
    if (!node->top[t]) continue;
    for (size_t i = 0; i < nl2; i++) free(node->top[t][i]);
    free(node->top[t]);
  }
  free(node->top);
  free(node);
}

const tdimm_cfg_t *tdimm_node_cfg(const tdimm_node_t *node) { return &node->cfg; }

int tdimm_node_set_core(tdimm_node_t *node, unsigned core, const tdimm_core_cfg_t *cc) {
  if (!node || !cc || core >= node->nd) return -1;
  const uint64_t cap = 1ull << node->cfg.local_aw;
  if (cc->win_base > cap || cc->win_limit > cap) return -1;
  node->cfg.core[core] = *cc;
  return 0;
}

size_t tdimm_node_chunks(const tdimm_node_t *node) { return node ? node->chunks : 0; }

static uint64_t capacity(const tdimm_node_t *node) { return 1ull << node->cfg.local_aw; }

/* The chunk slot of (core, lb), allocating the l2 table when `alloc`; NULL when absent. */
static uint32_t **chunk_slot(tdimm_node_t *node, unsigned core, uint64_t lb, int alloc) {
  const uint64_t ci = lb >> node->chunk_log2;
  const size_t t = ((size_t)core << node->top_log2) + (size_t)(ci >> node->l2_log2);
  if (!node->top[t]) {
    if (!alloc) return NULL;
    node->top[t] = calloc((size_t)1 << node->l2_log2, sizeof *node->top[t]);
    if (!node->top[t]) return NULL;
  }
  return &node->top[t][ci & ((1ull << node->l2_log2) - 1)];
}

uint32_t *tdimm_block(tdimm_node_t *node, unsigned core, uint64_t local_block) {
  if (!node || core >= node->nd || local_block >= capacity(node)) return NULL;
  uint32_t **slot = chunk_slot(node, core, local_block, 1);
  if (!slot) return NULL;
  if (!*slot) {
    *slot = calloc((size_t)TDIMM_LANES << node->chunk_log2, sizeof **slot);
    if (!*slot) return NULL;
    node->chunks++;
  }
  return *slot + (size_t)TDIMM_LANES * (size_t)(local_block & ((1ull << node->chunk_log2) - 1));
}

uint32_t *tdimm_gblock(tdimm_node_t *node, uint64_t global_block) {
  if (!node) return NULL;
  return tdimm_block(node, (unsigned)(global_block & (node->nd - 1)),
                     global_block >> node->cfg.nd_log2);
}

/* Instruction reads: an untouched block reads zero without allocating (lb checked in range). */
static const uint32_t *rd_block(tdimm_node_t *node, unsigned core, uint64_t lb) {
  uint32_t **slot = chunk_slot(node, core, lb, 0);
  if (!slot || !*slot) return node->zero;
  return *slot + (size_t)TDIMM_LANES * (size_t)(lb & ((1ull << node->chunk_log2) - 1));
}
/* Instruction writes (lb checked in range); out of memory is fatal. */
static uint32_t *wr_block(tdimm_node_t *node, unsigned core, uint64_t lb) {
  uint32_t *p = tdimm_block(node, core, lb);
  if (!p) {
    fprintf(stderr, "tensordimm model: out of memory\n");
    abort();
  }
  return p;
}

/* ------------------------------------------------------------------ decode checks */
typedef struct { uint64_t start, end; } range_t;

typedef struct {
  tdimm_fields_t f;
  range_t in[2];   /* static input ranges: GATHER idx list; REDUCE in1, in2; AVERAGE in */
  unsigned n_in;
  range_t out;
  uint64_t l_table; /* GATHER: local table base */
} plan_t;

static int intersects(range_t a, range_t b) { return a.start < b.end && b.start < a.end; }

/* Codes 1..9 for core `core` (static ranges only); fills p. count == 0 passes after 1..6. */
static unsigned decode(const tdimm_cfg_t *cfg, unsigned core, const tdimm_insn_t *insn,
                       plan_t *p) {
  tdimm_fields_t f = tdimm_dec(insn);
  memset(p, 0, sizeof *p);
  p->f = f;
  if (f.op < TDIMM_OP_GATHER || f.op > TDIMM_OP_AVERAGE) return TDIMM_E_OPCODE;
  if (f.op == TDIMM_OP_REDUCE ? f.subop > TDIMM_SUB_MIN : f.subop != 0) return TDIMM_E_SUBOP;
  if (f.type > TDIMM_T_INT32) return TDIMM_E_TYPE;
  if (f.rsvd || f.k == 0 || f.count > TDIMM_MAX_COUNT) return TDIMM_E_FIELD;
  if (f.op == TDIMM_OP_AVERAGE && (f.aux == 0 || f.aux > TDIMM_MAX_AVG)) return TDIMM_E_AVGNUM;
  const unsigned sh = cfg->nd_log2;
  const uint32_t am = (1u << sh) - 1;
  if ((f.in_base & am) || (f.op != TDIMM_OP_AVERAGE && (f.aux & am)) || (f.out_base & am))
    return TDIMM_E_ALIGN;
  if (f.count == 0) return TDIMM_OK;

  const uint64_t k = f.k, cnt = f.count;
  const uint64_t l_in = f.in_base >> sh, l_aux = f.aux >> sh, l_out = f.out_base >> sh;
  p->out.start = l_out;
  p->out.end = l_out + cnt * k;
  switch (f.op) {
    case TDIMM_OP_GATHER:
      p->l_table = l_in;
      p->in[0].start = l_aux;
      p->in[0].end = l_aux + (cnt + TDIMM_LANES - 1) / TDIMM_LANES;
      p->n_in = 1;
      break;
    case TDIMM_OP_REDUCE:
      p->in[0].start = l_in;
      p->in[0].end = l_in + cnt * k;
      p->in[1].start = l_aux;
      p->in[1].end = l_aux + cnt * k;
      p->n_in = 2;
      break;
    default:
      p->in[0].start = l_in;
      p->in[0].end = l_in + cnt * (uint64_t)f.aux * k;
      p->n_in = 1;
      break;
  }
  const uint64_t cap = 1ull << cfg->local_aw;
  const tdimm_core_cfg_t *cc = &cfg->core[core];
  if (p->out.end > cap) return TDIMM_E_CAPACITY;
  for (unsigned i = 0; i < p->n_in; i++)
    if (p->in[i].end > cap) return TDIMM_E_CAPACITY;
  if (p->out.start < cc->win_base || p->out.end > cc->win_limit) return TDIMM_E_WINDOW;
  for (unsigned i = 0; i < p->n_in; i++)
    if (p->in[i].start < cc->win_base || p->in[i].end > cc->win_limit) return TDIMM_E_WINDOW;
  for (unsigned i = 0; i < p->n_in; i++) {
    const int in_place = f.op != TDIMM_OP_GATHER && p->in[i].start == p->out.start;
    if (intersects(p->out, p->in[i]) && !in_place) return TDIMM_E_OVERLAP;
  }
  return TDIMM_OK;
}

unsigned tdimm_decode_check(const tdimm_cfg_t *cfg, unsigned core, const tdimm_insn_t *insn) {
  plan_t p;
  if (!cfg || !insn || cfg->nd_log2 > 7 || cfg->local_aw < 4 || cfg->local_aw > 27 ||
      core >= 1u << cfg->nd_log2)
    return TDIMM_E_BADCALL;
  return decode(cfg, core, insn, &p);
}

/* ------------------------------------------------------------------ execution */
static unsigned exec_gather(tdimm_node_t *node, unsigned core, const plan_t *p, uint32_t *rows) {
  const uint64_t k = p->f.k, cap = capacity(node);
  const tdimm_core_cfg_t *cc = &node->cfg.core[core];
  for (uint32_t r = 0; r < p->f.count; r++) {
    const uint32_t x = rd_block(node, core, p->in[0].start + r / TDIMM_LANES)[r % TDIMM_LANES];
    const range_t row = {p->l_table + (uint64_t)x * k, p->l_table + (uint64_t)x * k + k};
    unsigned e = TDIMM_OK;
    if (row.end > cap) e = TDIMM_E_CAPACITY;
    else if (row.start < cc->win_base || row.end > cc->win_limit) e = TDIMM_E_WINDOW;
    else if (intersects(row, p->out)) e = TDIMM_E_OVERLAP;
    if (e != TDIMM_OK) {
      *rows = r;
      return e;
    }
    for (uint64_t m = 0; m < k; m++) {
      uint32_t tmp[TDIMM_LANES];
      memcpy(tmp, rd_block(node, core, row.start + m), sizeof tmp);
      memcpy(wr_block(node, core, p->out.start + (uint64_t)r * k + m), tmp, sizeof tmp);
    }
  }
  *rows = p->f.count;
  return TDIMM_OK;
}

static void exec_reduce(tdimm_node_t *node, unsigned core, const plan_t *p) {
  const uint64_t n = p->out.end - p->out.start;
  for (uint64_t q = 0; q < n; q++) {
    uint32_t a[TDIMM_LANES], b[TDIMM_LANES];
    memcpy(a, rd_block(node, core, p->in[0].start + q), sizeof a);
    memcpy(b, rd_block(node, core, p->in[1].start + q), sizeof b);
    for (unsigned l = 0; l < TDIMM_LANES; l++)
      a[l] = tdimm_lane_reduce(p->f.subop, p->f.type, a[l], b[l]);
    memcpy(wr_block(node, core, p->out.start + q), a, sizeof a);
  }
}

static void exec_average(tdimm_node_t *node, unsigned core, const plan_t *p) {
  const uint64_t k = p->f.k, avg = p->f.aux;
  for (uint64_t i = 0; i < p->f.count; i++) {
    for (uint64_t m = 0; m < k; m++) {
      uint32_t acc[TDIMM_LANES] = {0};
      for (uint64_t j = 0; j < avg; j++) {
        const uint32_t *in = rd_block(node, core, p->in[0].start + (i * avg + j) * k + m);
        for (unsigned l = 0; l < TDIMM_LANES; l++) acc[l] = avg_add(p->f.type, acc[l], in[l]);
      }
      for (unsigned l = 0; l < TDIMM_LANES; l++) acc[l] = avg_div(p->f.type, acc[l], (uint32_t)avg);
      memcpy(wr_block(node, core, p->out.start + i * k + m), acc, sizeof acc);
    }
  }
}

unsigned tdimm_exec_core(tdimm_node_t *node, unsigned core, const tdimm_insn_t *insn,
                         uint32_t *rows) {
  uint32_t dummy;
  if (!rows) rows = &dummy;
  *rows = 0;
  if (!node || !insn || core >= node->nd) return TDIMM_E_BADCALL;
  plan_t p;
  unsigned e = decode(&node->cfg, core, insn, &p);
  if (e != TDIMM_OK || p.f.count == 0) return e;
  switch (p.f.op) {
    case TDIMM_OP_GATHER: return exec_gather(node, core, &p, rows);
    case TDIMM_OP_REDUCE: exec_reduce(node, core, &p); break;
    default: exec_average(node, core, &p); break;
  }
  *rows = p.f.count;
  return TDIMM_OK;
}

unsigned tdimm_exec(tdimm_node_t *node, const tdimm_insn_t *insn, tdimm_result_t *res) {
  tdimm_result_t local;
  if (!res) res = &local;
  memset(res, 0, sizeof *res);
  if (!node || !insn) return 0;
  for (unsigned c = 0; c < node->nd; c++) {
    unsigned e = tdimm_exec_core(node, c, insn, &res->rows[c]);
    res->err[c] = e;
    if (e != TDIMM_OK) {
      if (res->node_err == TDIMM_OK) res->node_err = e;
      res->err_mask[c >> 6] |= 1ull << (c & 63);
    }
  }
  return res->node_err;
}

unsigned tensordimm_ref(tdimm_node_t *node, const tdimm_insn_t *insns, size_t n,
                        tdimm_result_t *res_last) {
  unsigned bad = 0;
  if (res_last) memset(res_last, 0, sizeof *res_last);
  for (size_t i = 0; i < n; i++)
    if (tdimm_exec(node, &insns[i], i + 1 == n ? res_last : NULL) != TDIMM_OK) bad++;
  return bad;
}

/* ------------------------------------------------------------------ DRAM mapping */
tdimm_dram_addr_t tdimm_map(uint64_t local_block, unsigned col_lo_w, unsigned rank_w) {
  if (col_lo_w > 7) col_lo_w = 7;
  if (rank_w > 2) rank_w = 2;
  tdimm_dram_addr_t a;
  uint64_t b = local_block;
  const unsigned col_lo = (unsigned)(b & ((1u << col_lo_w) - 1));
  b >>= col_lo_w;
  a.bg = (unsigned)(b & 3);
  b >>= 2;
  const unsigned col_hi = (unsigned)(b & ((1u << (7 - col_lo_w)) - 1));
  b >>= 7 - col_lo_w;
  a.bank = (unsigned)(b & 3);
  b >>= 2;
  a.rank = (unsigned)(b & ((1u << rank_w) - 1));
  b >>= rank_w;
  a.row = (unsigned)b;
  a.col = col_hi << col_lo_w | col_lo;
  return a;
}

uint64_t tdimm_unmap(tdimm_dram_addr_t a, unsigned col_lo_w, unsigned rank_w) {
  if (col_lo_w > 7) col_lo_w = 7;
  if (rank_w > 2) rank_w = 2;
  const uint64_t col_lo = a.col & ((1u << col_lo_w) - 1);
  const uint64_t col_hi = (a.col >> col_lo_w) & ((1u << (7 - col_lo_w)) - 1);
  uint64_t b = a.row;
  b = b << rank_w | (a.rank & ((1u << rank_w) - 1));
  b = b << 2 | (a.bank & 3);
  b = b << (7 - col_lo_w) | col_hi;
  b = b << 2 | (a.bg & 3);
  b = b << col_lo_w | col_lo;
  return b;
}
