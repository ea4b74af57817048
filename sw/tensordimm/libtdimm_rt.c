/* libtdimm_rt.c -- TensorDIMM runtime (tdimm_rt.h): workload and index-list files, the
 * embedding layers of the paper's Table 2, synthetic workloads, traffic counts.
 * Formats and decisions: docs/tensordimm_workloads.md.
 *
 * Lexical rules of both files (the writers emit exactly this form):
 *   - '#' starts a comment that runs to the end of the line; blank lines are skipped; tokens are
 *     separated by blanks (CRLF files read the same);
 *   - workload lines hold at most WL_LINE_MAX - 2 characters, index lines IDX_LINE_MAX - 2 and
 *     at most IDX_MAX_TOK numbers;
 *   - addresses, counts, seeds and indices are decimal or 0x hex (cutil_parse_num); block lanes
 *     and instruction words are 32-bit hex with an optional 0x (cutil_parse_hex).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "tensordimm/tdimm_rt.h"

#define WL_LINE_MAX 1024
#define WL_MAX_TOK 24
#define IDX_LINE_MAX 2048
#define IDX_MAX_TOK 64

/* ------------------------------------------------------------------ small helpers */

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }
/* Bank-aware placement (docs/tensordimm.md, "Inside a DIMM": bank at local bits 9..10, rank
 * above): region j starts at the first position >= cur whose 512-block stripe is j mod 16 of an
 * 8192-block period, so the regions an instruction streams through at once (REDUCE's inputs and
 * output, AVERAGE's input and output) sit in different banks and their rows do not evict each
 * other. When the alignment a does not divide 512 the region is only aligned. */
static uint64_t align_up(uint64_t x, uint64_t a);
static uint64_t place(uint64_t cur, uint64_t a, unsigned j) {
  if (512 % a != 0) return align_up(cur, a);
  uint64_t pos = cur - cur % 8192 + (uint64_t)(j % 16) * 512;
  if (pos < cur) pos += 8192;
  return pos;
}
static uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}
static unsigned ceil_log2(uint64_t x) {
  unsigned l = 0;
  while (l < 64 && (1ull << l) < x) l++;
  return l;
}
static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}
static int cmp_range(const void *a, const void *b) {
  const tdimm_range_t *x = a, *y = b;
  return x->first < y->first ? -1 : x->first > y->first;
}
static int grow(void **p, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 64;
  void *q = realloc(*p, nc * elem);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

/* ------------------------------------------------------------------ data generators */

static const uint32_t kSpecials[12] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                       0x7fc00000u, 0x7f800001u, 0x00000001u, 0x807fffffu,
                                       0x00000000u /* random subnormal */, 0x7f7fffffu,
                                       0xff7fffffu, 0x00800000u};

static uint32_t fp32_unit(uint64_t h) {
  float x = (float)((int32_t)(h >> 40) - (1 << 23)) * (1.0f / 8388608.0f);
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

uint32_t tdimm_fill_value(unsigned kind, uint64_t seed, uint64_t gblock, unsigned lane) {
  uint64_t h = cutil_mix64(cutil_mix64(seed) + 16 * gblock + lane);
  switch (kind) {
    case TDIMM_FILL_FP32: return fp32_unit(h);
    case TDIMM_FILL_INT32: return (uint32_t)(h >> 32);
    case TDIMM_FILL_FP32SPECIAL: {
      uint64_t g = cutil_mix64(h);
      if (g % 1000 < 100) {
        unsigned s = (unsigned)((g >> 32) % 12);
        if (s == 8) return (uint32_t)(h >> 32) & 0x807fffffu; /* a random subnormal (or 0) */
        return kSpecials[s];
      }
      if (g >> 20 & 1) return fp32_unit(h);
      uint32_t r = (uint32_t)(h >> 32);
      uint32_t e = 1 + (r >> 23 & 0xff) % 254; /* exponent 1..254 */
      return (r & 0x807fffffu) | e << 23;
    }
    default: return 0;
  }
}

void tdimm_fill_block(unsigned kind, uint64_t seed, uint64_t gblock, uint32_t lanes[TDIMM_LANES]) {
  for (unsigned l = 0; l < TDIMM_LANES; l++) lanes[l] = tdimm_fill_value(kind, seed, gblock, l);
}

static const char *const kFillNames[3] = {"fp32", "int32", "fp32special"};

const char *tdimm_fill_name(unsigned kind) { return kind < 3 ? kFillNames[kind] : NULL; }

int tdimm_fill_kind(const char *name) {
  for (int i = 0; i < 3; i++)
    if (!strcmp(name, kFillNames[i])) return i;
  return -1;
}

/* ------------------------------------------------------------------ workload: building */

int tdimm_wl_init(tdimm_wl_t *wl, unsigned nd_log2, unsigned local_aw) {
  memset(wl, 0, sizeof *wl);
  if (nd_log2 > 7 || local_aw < 4 || local_aw > 27) return -1;
  wl->nd_log2 = nd_log2;
  wl->local_aw = local_aw;
  wl->cfg.nd_log2 = nd_log2;
  wl->cfg.local_aw = local_aw;
  for (unsigned c = 0; c < 128; c++) {
    wl->cfg.core[c].tid = c;
    wl->cfg.core[c].win_base = 0;
    wl->cfg.core[c].win_limit = 1ull << local_aw;
  }
  return 0;
}

void tdimm_wl_free(tdimm_wl_t *wl) {
  free(wl->rec);
  free(wl->insn);
  memset(wl, 0, sizeof *wl);
}

uint64_t tdimm_wl_capacity(const tdimm_wl_t *wl) {
  return (uint64_t)1 << (wl->nd_log2 + wl->local_aw);
}

int tdimm_wl_set_window(tdimm_wl_t *wl, unsigned core, uint64_t base, uint64_t limit) {
  if (core >= (1u << wl->nd_log2) || base > limit || limit > (1ull << wl->local_aw)) return -1;
  wl->cfg.core[core].win_base = base;
  wl->cfg.core[core].win_limit = limit;
  return 0;
}

static tdimm_rec_t *new_rec(tdimm_wl_t *wl) {
  if (grow((void **)&wl->rec, &wl->cap_rec, wl->n_rec, sizeof *wl->rec) != 0) return NULL;
  tdimm_rec_t *r = &wl->rec[wl->n_rec++];
  memset(r, 0, sizeof *r);
  return r;
}

int tdimm_wl_add_fill(tdimm_wl_t *wl, uint64_t gblock, uint64_t nblocks, unsigned kind,
                      uint64_t seed) {
  uint64_t cap = tdimm_wl_capacity(wl);
  if (kind > TDIMM_FILL_FP32SPECIAL || nblocks == 0 || gblock >= cap || nblocks > cap - gblock)
    return -1;
  tdimm_rec_t *r = new_rec(wl);
  if (!r) return -1;
  r->kind = TDIMM_REC_FILL;
  r->fill = kind;
  r->gblock = gblock;
  r->nblocks = nblocks;
  r->seed = seed;
  return 0;
}

int tdimm_wl_add_block(tdimm_wl_t *wl, uint64_t gblock, const uint32_t lanes[TDIMM_LANES]) {
  if (gblock >= tdimm_wl_capacity(wl)) return -1;
  tdimm_rec_t *r = new_rec(wl);
  if (!r) return -1;
  r->kind = TDIMM_REC_BLOCK;
  r->gblock = gblock;
  r->nblocks = 1;
  memcpy(r->lanes, lanes, sizeof r->lanes);
  return 0;
}

int tdimm_wl_add_bcast(tdimm_wl_t *wl, uint64_t gblock, const uint32_t lanes[TDIMM_LANES]) {
  uint64_t nd = 1ull << wl->nd_log2;
  if (gblock % nd || gblock >= tdimm_wl_capacity(wl)) return -1;
  tdimm_rec_t *r = new_rec(wl);
  if (!r) return -1;
  r->kind = TDIMM_REC_BCAST;
  r->gblock = gblock;
  r->nblocks = nd;
  memcpy(r->lanes, lanes, sizeof r->lanes);
  return 0;
}

int tdimm_wl_add_insn(tdimm_wl_t *wl, tdimm_insn_t insn) {
  if (grow((void **)&wl->insn, &wl->cap_insn, wl->n_insn, sizeof *wl->insn) != 0) return -1;
  wl->insn[wl->n_insn++] = insn;
  return 0;
}

/* ------------------------------------------------------------------ workload: applying */

void tdimm_wl_foreach_block(const tdimm_wl_t *wl,
                            void (*fn)(void *ctx, uint64_t gblock, const uint32_t lanes[16]),
                            void *ctx) {
  uint32_t lanes[TDIMM_LANES];
  for (size_t i = 0; i < wl->n_rec; i++) {
    const tdimm_rec_t *r = &wl->rec[i];
    if (r->kind == TDIMM_REC_FILL) {
      for (uint64_t b = r->gblock; b < r->gblock + r->nblocks; b++) {
        tdimm_fill_block(r->fill, r->seed, b, lanes);
        fn(ctx, b, lanes);
      }
    } else if (r->kind == TDIMM_REC_BLOCK) {
      fn(ctx, r->gblock, r->lanes);
    } else if (r->kind == TDIMM_REC_BCAST) {
      for (uint64_t b = r->gblock; b < r->gblock + r->nblocks; b++) fn(ctx, b, r->lanes);
    }
  }
}

static void load_node_block(void *ctx, uint64_t gblock, const uint32_t lanes[16]) {
  uint32_t *d = tdimm_gblock((tdimm_node_t *)ctx, gblock);
  if (d) memcpy(d, lanes, TDIMM_LANES * sizeof *d);
}

tdimm_node_t *tdimm_wl_node_new(const tdimm_wl_t *wl) {
  tdimm_node_t *node = tdimm_node_new(&wl->cfg);
  if (node) tdimm_wl_foreach_block(wl, load_node_block, node);
  return node;
}

size_t tdimm_wl_ranges(const tdimm_wl_t *wl, tdimm_range_t **out) {
  *out = NULL;
  size_t n = 0, cap = 0;
  tdimm_range_t *r = NULL;
  uint64_t gcap = tdimm_wl_capacity(wl), nd = 1ull << wl->nd_log2;
  for (size_t i = 0; i < wl->n_rec + wl->n_insn; i++) {
    uint64_t first, len;
    if (i < wl->n_rec) {
      first = wl->rec[i].gblock;
      len = wl->rec[i].nblocks;
    } else {
      tdimm_fields_t f = tdimm_dec(&wl->insn[i - wl->n_rec]);
      if (f.out_base % nd || f.count == 0 || f.k == 0 || f.out_base >= gcap) continue;
      first = f.out_base;
      len = (uint64_t)f.count * f.k * nd; /* < 2^32 * 2^8 * 2^7: no overflow */
      if (len > gcap - first) len = gcap - first;
    }
    if (grow((void **)&r, &cap, n, sizeof *r) != 0) {
      free(r);
      return 0;
    }
    r[n].first = first;
    r[n].n = len;
    n++;
  }
  if (!n) return 0;
  qsort(r, n, sizeof *r, cmp_range);
  size_t m = 0;
  for (size_t i = 1; i < n; i++) {
    if (r[i].first <= r[m].first + r[m].n) {
      uint64_t end = r[i].first + r[i].n;
      if (end > r[m].first + r[m].n) r[m].n = end - r[m].first;
    } else {
      r[++m] = r[i];
    }
  }
  *out = r;
  return m + 1;
}

uint64_t tdimm_checksum(const tdimm_range_t *r, size_t n,
                        void (*read)(void *ctx, uint64_t gblock, uint32_t lanes[16]),
                        void *ctx) {
  uint64_t h = 0x7464696d6d5f7274ull;
  uint32_t lanes[TDIMM_LANES];
  for (size_t i = 0; i < n; i++)
    for (uint64_t b = r[i].first; b < r[i].first + r[i].n; b++) {
      read(ctx, b, lanes);
      h = cutil_mix64(h ^ b);
      for (unsigned l = 0; l < TDIMM_LANES; l++) h = cutil_mix64(h + lanes[l]);
    }
  return h;
}

static void read_node_block(void *ctx, uint64_t gblock, uint32_t lanes[16]) {
  const uint32_t *s = tdimm_gblock((tdimm_node_t *)ctx, gblock);
  if (s) memcpy(lanes, s, TDIMM_LANES * sizeof *s);
  else memset(lanes, 0, TDIMM_LANES * sizeof *lanes);
}

uint64_t tdimm_node_checksum(tdimm_node_t *node, const tdimm_range_t *r, size_t n) {
  return tdimm_checksum(r, n, read_node_block, node);
}

void tdimm_insn_traffic(const tdimm_insn_t *insn, uint64_t *reads, uint64_t *writes) {
  tdimm_fields_t f = tdimm_dec(insn);
  *reads = *writes = 0;
  if (f.op < TDIMM_OP_GATHER || f.op > TDIMM_OP_AVERAGE) return;
  if (f.op == TDIMM_OP_REDUCE ? f.subop > TDIMM_SUB_MIN : f.subop != 0) return;
  if (f.type > TDIMM_T_INT32 || f.rsvd || f.k == 0 || f.count > TDIMM_MAX_COUNT) return;
  if (f.op == TDIMM_OP_AVERAGE && (f.aux == 0 || f.aux > TDIMM_MAX_AVG)) return;
  uint64_t rows = (uint64_t)f.count * f.k;
  *writes = rows;
  if (f.op == TDIMM_OP_GATHER) *reads = ((uint64_t)f.count + 15) / 16 + rows;
  else if (f.op == TDIMM_OP_REDUCE) *reads = 2 * rows;
  else *reads = rows * f.aux;
}

void tdimm_wl_stats(const tdimm_wl_t *wl, tdimm_stats_t *st) {
  memset(st, 0, sizeof *st);
  st->insns = wl->n_insn;
  for (size_t i = 0; i < wl->n_insn; i++) {
    uint64_t r, w;
    tdimm_insn_traffic(&wl->insn[i], &r, &w);
    st->blocks_read_per_core += r;
    st->blocks_written_per_core += w;
    tdimm_fields_t f = tdimm_dec(&wl->insn[i]);
    if (w && f.op == TDIMM_OP_GATHER) st->rows_gathered += f.count;
  }
}

/* ------------------------------------------------------------------ workload: writing */

int tdimm_wl_write(FILE *f, const tdimm_wl_t *wl, const char *comment) {
  fprintf(f, "tdimm-workload 1\n");
  while (comment && *comment) {
    const char *nl = strchr(comment, '\n');
    size_t len = nl ? (size_t)(nl - comment) : strlen(comment);
    fprintf(f, "# %.*s\n", (int)len, comment);
    comment += len + (nl != NULL);
  }
  fprintf(f, "node %u %u\n", wl->nd_log2, wl->local_aw);
  for (unsigned c = 0; c < (1u << wl->nd_log2); c++) {
    const tdimm_core_cfg_t *w = &wl->cfg.core[c];
    if (w->win_base != 0 || w->win_limit != (1ull << wl->local_aw))
      fprintf(f, "window %u 0x%" PRIx64 " 0x%" PRIx64 "\n", c, w->win_base, w->win_limit);
  }
  for (size_t i = 0; i < wl->n_rec; i++) {
    const tdimm_rec_t *r = &wl->rec[i];
    if (r->kind == TDIMM_REC_FILL) {
      fprintf(f, "fill 0x%" PRIx64 " %" PRIu64 " %s %" PRIu64 "\n", r->gblock, r->nblocks,
              tdimm_fill_name(r->fill), r->seed);
    } else {
      fprintf(f, "%s 0x%" PRIx64, r->kind == TDIMM_REC_BLOCK ? "block" : "bcast", r->gblock);
      for (unsigned l = 0; l < TDIMM_LANES; l++) fprintf(f, " %" PRIx32, r->lanes[l]);
      fputc('\n', f);
    }
  }
  for (size_t i = 0; i < wl->n_insn; i++) {
    char s[160];
    const uint32_t *w = wl->insn[i].w;
    fprintf(f, "insn %" PRIx32 " %" PRIx32 " %" PRIx32 " %" PRIx32 " %" PRIx32 "  # %s\n", w[0],
            w[1], w[2], w[3], w[4], tdimm_insn_str(&wl->insn[i], s, sizeof s));
  }
  return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ workload: reading */

typedef struct {
  FILE *f;
  const char *path;
  long line;
  char *err;
  size_t errlen;
  char buf[WL_LINE_MAX];
  char *tok[WL_MAX_TOK];
} wl_reader_t;

#define WL_ERR(rd, ...) \
  (cutil_seterr_line((rd)->err, (rd)->errlen, (rd)->path, (rd)->line, __VA_ARGS__), -1)

/* A number (decimal or 0x hex) into *v; -1 with "bad <what> '<tok>'" otherwise. */
static int wl_num(wl_reader_t *rd, const char *tok, const char *what, uint64_t *v) {
  if (cutil_parse_num(tok, v) != 0) return WL_ERR(rd, "bad %s '%s'", what, tok);
  return 0;
}

static int wl_hex32(wl_reader_t *rd, const char *tok, const char *what, int i, uint32_t *v) {
  uint64_t x;
  int rc = cutil_parse_hex(tok, 0xffffffffull, &x);
  if (rc == -1) return WL_ERR(rd, "bad hex %s %d '%s'", what, i, tok);
  if (rc == -2) return WL_ERR(rd, "%s %d '%s' exceeds 32 bits", what, i, tok);
  *v = (uint32_t)x;
  return 0;
}

static int wl_fields(wl_reader_t *rd, int nt, int want, const char *form) {
  if (nt != want + 1)
    return WL_ERR(rd, "'%s' takes %d fields (%s), found %d", rd->tok[0], want, form, nt - 1);
  return 0;
}

static int wl_parse(wl_reader_t *rd, tdimm_wl_t *wl) {
  char why[64];
  int nt = cutil_read_tokens(rd->f, rd->buf, sizeof rd->buf, rd->tok, WL_MAX_TOK, &rd->line, NULL,
                             why, sizeof why);
  if (nt < 0) return WL_ERR(rd, "%s", why);
  if (nt == 0) {
    cutil_seterr(rd->err, rd->errlen, "%s: empty file (no 'tdimm-workload 1' header)", rd->path);
    return -1;
  }
  if (strcmp(rd->tok[0], "tdimm-workload") != 0)
    return WL_ERR(rd, "expected the header 'tdimm-workload 1', found '%s'", rd->tok[0]);
  if (nt != 2 || strcmp(rd->tok[1], "1") != 0)
    return WL_ERR(rd, "unsupported header (expected 'tdimm-workload 1')");
  long node_line = 0;
  uint64_t win_set[2] = {0, 0};
  uint64_t gcap = 0, nd = 1;
  for (;;) {
    nt = cutil_read_tokens(rd->f, rd->buf, sizeof rd->buf, rd->tok, WL_MAX_TOK, &rd->line, NULL,
                           why, sizeof why);
    if (nt == 0) break;
    if (nt < 0) return WL_ERR(rd, "%s", why);
    const char *kw = rd->tok[0];
    char **tok = rd->tok;
    if (!strcmp(kw, "node")) {
      if (node_line) return WL_ERR(rd, "second 'node' line (the first is line %ld)", node_line);
      if (wl_fields(rd, nt, 2, "node <nd_log2> <local_aw>")) return -1;
      uint64_t a, b;
      if (wl_num(rd, tok[1], "nd_log2", &a) || wl_num(rd, tok[2], "local_aw", &b)) return -1;
      if (a > 7) return WL_ERR(rd, "nd_log2 %" PRIu64 " out of range 0..7", a);
      if (b < 4 || b > 27) return WL_ERR(rd, "local_aw %" PRIu64 " out of range 4..27", b);
      tdimm_wl_init(wl, (unsigned)a, (unsigned)b);
      node_line = rd->line;
      gcap = tdimm_wl_capacity(wl);
      nd = 1ull << a;
      continue;
    }
    if (strcmp(kw, "window") && strcmp(kw, "fill") && strcmp(kw, "block") &&
        strcmp(kw, "bcast") && strcmp(kw, "insn"))
      return WL_ERR(rd, "unknown keyword '%s'", kw);
    if (!node_line) return WL_ERR(rd, "'%s' before the 'node' line", kw);
    int rc = 0;
    if (!strcmp(kw, "window")) {
      uint64_t c, base, limit;
      if (wl_fields(rd, nt, 3, "window <core> <base> <limit>") ||
          wl_num(rd, tok[1], "core", &c) || wl_num(rd, tok[2], "window base", &base) ||
          wl_num(rd, tok[3], "window limit", &limit))
        return -1;
      if (c >= nd)
        return WL_ERR(rd, "window core %" PRIu64 " out of range (nodeDim %" PRIu64 ")", c, nd);
      if (win_set[c >> 6] >> (c & 63) & 1) return WL_ERR(rd, "second window of core %" PRIu64, c);
      if (limit > (1ull << wl->local_aw))
        return WL_ERR(rd, "window limit 0x%" PRIx64 " beyond the core's %" PRIu64 " blocks",
                      limit, (uint64_t)1 << wl->local_aw);
      if (base > limit)
        return WL_ERR(rd, "window base 0x%" PRIx64 " above its limit 0x%" PRIx64, base, limit);
      win_set[c >> 6] |= 1ull << (c & 63);
      rc = tdimm_wl_set_window(wl, (unsigned)c, base, limit);
    } else if (!strcmp(kw, "fill")) {
      uint64_t g, n, seed;
      if (wl_fields(rd, nt, 4, "fill <global_block> <nblocks> <kind> <seed>") ||
          wl_num(rd, tok[1], "block address", &g) || wl_num(rd, tok[2], "block count", &n))
        return -1;
      int kind = tdimm_fill_kind(tok[3]);
      if (kind < 0) return WL_ERR(rd, "unknown fill kind '%s' (fp32, int32, fp32special)", tok[3]);
      if (wl_num(rd, tok[4], "seed", &seed)) return -1;
      if (n == 0) return WL_ERR(rd, "fill of 0 blocks");
      if (g >= gcap || n > gcap - g)
        return WL_ERR(rd, "fill 0x%" PRIx64 " + %" PRIu64 " runs past the node's %" PRIu64
                      " global blocks", g, n, gcap);
      rc = tdimm_wl_add_fill(wl, g, n, (unsigned)kind, seed);
    } else if (!strcmp(kw, "block") || !strcmp(kw, "bcast")) {
      uint64_t g;
      uint32_t lanes[TDIMM_LANES];
      if (wl_fields(rd, nt, 17, kw[1] == 'l' ? "block <global_block> <16 hex lanes>"
                                             : "bcast <global_block> <16 hex lanes>") ||
          wl_num(rd, tok[1], "block address", &g))
        return -1;
      for (int l = 0; l < TDIMM_LANES; l++)
        if (wl_hex32(rd, tok[2 + l], "lane", l, &lanes[l])) return -1;
      if (g >= gcap)
        return WL_ERR(rd, "block 0x%" PRIx64 " beyond the node's %" PRIu64 " global blocks", g,
                      gcap);
      if (kw[1] == 'l') {
        rc = tdimm_wl_add_block(wl, g, lanes);
      } else {
        if (g % nd)
          return WL_ERR(rd, "bcast block 0x%" PRIx64 " not a multiple of nodeDim %" PRIu64, g,
                        nd);
        rc = tdimm_wl_add_bcast(wl, g, lanes);
      }
    } else { /* insn */
      tdimm_insn_t in;
      if (wl_fields(rd, nt, 5, "insn <w0> <w1> <w2> <w3> <w4>")) return -1;
      for (int i = 0; i < TDIMM_INSN_WORDS; i++)
        if (wl_hex32(rd, tok[1 + i], "word", i, &in.w[i])) return -1;
      rc = tdimm_wl_add_insn(wl, in);
    }
    if (rc) return WL_ERR(rd, "out of memory");
  }
  if (!node_line) {
    cutil_seterr(rd->err, rd->errlen, "%s: no 'node' line", rd->path);
    return -1;
  }
  if (ferror(rd->f)) return WL_ERR(rd, "read error");
  return 0;
}

int tdimm_wl_read(const char *path, tdimm_wl_t *wl, char *err, size_t errlen) {
  memset(wl, 0, sizeof *wl);
  wl_reader_t *rd = calloc(1, sizeof *rd);
  if (!rd) {
    cutil_seterr(err, errlen, "%s: out of memory", path);
    return -1;
  }
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
  if (rc) tdimm_wl_free(wl);
  return rc;
}

/* ------------------------------------------------------------------ index lists */

void tdimm_idx_free(tdimm_idx_t *ix) {
  if (ix->t)
    for (unsigned i = 0; i < ix->n_tables; i++) free(ix->t[i].idx);
  free(ix->t);
  memset(ix, 0, sizeof *ix);
}

static int idx_shape_ok(uint64_t rows, unsigned lookups, unsigned batch) {
  return rows >= 1 && rows <= (1ull << 32) && lookups >= 1 && batch >= 1 &&
         (uint64_t)lookups * batch <= TDIMM_MAX_COUNT;
}

/* Appends one table (indices zeroed) to ix: 0 or -1 (out of memory). */
static int idx_add_table(tdimm_idx_t *ix, uint64_t rows, unsigned lookups, unsigned batch) {
  tdimm_idx_table_t *t = realloc(ix->t, (ix->n_tables + 1) * sizeof *t);
  if (!t) return -1;
  ix->t = t;
  t = &ix->t[ix->n_tables];
  t->idx = calloc((size_t)lookups * batch, sizeof *t->idx);
  if (!t->idx) return -1;
  t->rows = rows;
  t->lookups = lookups;
  t->batch = batch;
  ix->n_tables++;
  return 0;
}

int tdimm_idx_alloc(tdimm_idx_t *ix, unsigned n_tables, uint64_t rows, unsigned lookups,
                    unsigned batch) {
  memset(ix, 0, sizeof *ix);
  if (n_tables == 0 || n_tables > TDIMM_IDX_MAX_TABLES || !idx_shape_ok(rows, lookups, batch))
    return -1;
  for (unsigned i = 0; i < n_tables; i++)
    if (idx_add_table(ix, rows, lookups, batch) != 0) {
      tdimm_idx_free(ix);
      return -1;
    }
  return 0;
}

int tdimm_idx_write(FILE *f, const tdimm_idx_t *ix) {
  fprintf(f, "tdimm-index 1\n");
  for (unsigned i = 0; i < ix->n_tables; i++) {
    const tdimm_idx_table_t *t = &ix->t[i];
    fprintf(f, "table %u rows %" PRIu64 " lookups %u batch %u\n", i, t->rows, t->lookups,
            t->batch);
    size_t n = (size_t)t->lookups * t->batch;
    for (size_t j = 0; j < n; j++)
      fprintf(f, "%" PRIu32 "%c", t->idx[j], (j % 16 == 15 || j == n - 1) ? '\n' : ' ');
  }
  return ferror(f) ? -1 : 0;
}

typedef struct {
  FILE *f;
  const char *path;
  long line;
  char *err;
  size_t errlen;
  char buf[IDX_LINE_MAX];
  char *tok[IDX_MAX_TOK];
} idx_reader_t;

static int idx_parse(idx_reader_t *rd, tdimm_idx_t *ix) {
  char why[64];
  int nt = cutil_read_tokens(rd->f, rd->buf, sizeof rd->buf, rd->tok, IDX_MAX_TOK, &rd->line,
                             NULL, why, sizeof why);
  if (nt < 0) return WL_ERR(rd, "%s", why);
  if (nt == 0) {
    cutil_seterr(rd->err, rd->errlen, "%s: empty file (no 'tdimm-index 1' header)", rd->path);
    return -1;
  }
  if (strcmp(rd->tok[0], "tdimm-index") != 0)
    return WL_ERR(rd, "expected the header 'tdimm-index 1', found '%s'", rd->tok[0]);
  if (nt != 2 || strcmp(rd->tok[1], "1") != 0)
    return WL_ERR(rd, "unsupported header (expected 'tdimm-index 1')");
  size_t have = 0, need = 0;
  for (;;) {
    nt = cutil_read_tokens(rd->f, rd->buf, sizeof rd->buf, rd->tok, IDX_MAX_TOK, &rd->line, NULL,
                           why, sizeof why);
    if (nt < 0) return WL_ERR(rd, "%s", why);
    int is_table = nt > 0 && !strcmp(rd->tok[0], "table");
    if ((nt == 0 || is_table) && ix->n_tables && have < need)
      return WL_ERR(rd, "table %u: %zu of %zu indices%s", ix->n_tables - 1, have, need,
                    nt == 0 ? " (end of file)" : " before the next 'table' line");
    if (nt == 0) break;
    if (is_table) {
      char **tok = rd->tok;
      uint64_t t, rows, lookups, batch;
      if (nt != 8 || strcmp(tok[2], "rows") || strcmp(tok[4], "lookups") ||
          strcmp(tok[6], "batch"))
        return WL_ERR(rd, "expected 'table <t> rows <R> lookups <L> batch <B>'");
      if (cutil_parse_num(tok[1], &t) != 0) return WL_ERR(rd, "bad table number '%s'", tok[1]);
      if (t != ix->n_tables)
        return WL_ERR(rd, "table %" PRIu64 " out of order (expected table %u)", t, ix->n_tables);
      if (ix->n_tables >= TDIMM_IDX_MAX_TABLES)
        return WL_ERR(rd, "more than %d tables", TDIMM_IDX_MAX_TABLES);
      if (cutil_parse_num(tok[3], &rows) != 0) return WL_ERR(rd, "bad row count '%s'", tok[3]);
      if (cutil_parse_num(tok[5], &lookups) != 0)
        return WL_ERR(rd, "bad lookup count '%s'", tok[5]);
      if (cutil_parse_num(tok[7], &batch) != 0) return WL_ERR(rd, "bad batch '%s'", tok[7]);
      if (rows == 0 || rows > (1ull << 32))
        return WL_ERR(rd, "table %" PRIu64 ": rows %" PRIu64 " out of range 1..2^32", t, rows);
      if (lookups == 0 || batch == 0)
        return WL_ERR(rd, "table %" PRIu64 ": lookups and batch must be at least 1", t);
      if (lookups > TDIMM_MAX_COUNT || batch > TDIMM_MAX_COUNT ||
          lookups * batch > TDIMM_MAX_COUNT)
        return WL_ERR(rd, "table %" PRIu64 ": batch * lookups beyond the GATHER count limit %u",
                      t, TDIMM_MAX_COUNT);
      if (idx_add_table(ix, rows, (unsigned)lookups, (unsigned)batch) != 0)
        return WL_ERR(rd, "out of memory");
      have = 0;
      need = (size_t)(lookups * batch);
      continue;
    }
    if (!ix->n_tables) {
      if (cutil_parse_num(rd->tok[0], &(uint64_t){0}) != 0)
        return WL_ERR(rd, "unknown keyword '%s'", rd->tok[0]);
      return WL_ERR(rd, "index before the first 'table' line");
    }
    tdimm_idx_table_t *tb = &ix->t[ix->n_tables - 1];
    for (int i = 0; i < nt; i++) {
      uint64_t v;
      if (cutil_parse_num(rd->tok[i], &v) != 0) return WL_ERR(rd, "bad index '%s'", rd->tok[i]);
      if (have == need)
        return WL_ERR(rd, "extra data after the %zu indices of table %u", need,
                      ix->n_tables - 1);
      if (v >= tb->rows)
        return WL_ERR(rd, "out-of-range index %" PRIu64 " (table %u has %" PRIu64 " rows)", v,
                      ix->n_tables - 1, tb->rows);
      tb->idx[have++] = (uint32_t)v;
    }
  }
  if (!ix->n_tables) {
    cutil_seterr(rd->err, rd->errlen, "%s: no 'table' line", rd->path);
    return -1;
  }
  if (ferror(rd->f)) return WL_ERR(rd, "read error");
  return 0;
}

int tdimm_idx_read(const char *path, tdimm_idx_t *ix, char *err, size_t errlen) {
  memset(ix, 0, sizeof *ix);
  idx_reader_t *rd = calloc(1, sizeof *rd);
  if (!rd) {
    cutil_seterr(err, errlen, "%s: out of memory", path);
    return -1;
  }
  rd->path = path;
  rd->err = err;
  rd->errlen = errlen;
  rd->f = fopen(path, "r");
  if (!rd->f) {
    cutil_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    free(rd);
    return -1;
  }
  int rc = idx_parse(rd, ix);
  fclose(rd->f);
  free(rd);
  if (rc) tdimm_idx_free(ix);
  return rc;
}

/* ------------------------------------------------------------------ networks */

/* Table 2 of the paper, with this library's lookups per sample and table sizes
 * (docs/tensordimm_workloads.md gives the sources). */
static const tdimm_net_info_t kNets[TDIMM_NET_COUNT] = {
    {"ncf", 4, 2, 4, 1, 5000000},
    {"youtube", 2, 50, 4, 50, 1000000},
    {"fox", 2, 50, 1, 50, 1000000},
    {"facebook", 8, 25, 6, 25, 1000000},
};

const tdimm_net_info_t *tdimm_net_info(unsigned net) {
  return net < TDIMM_NET_COUNT ? &kNets[net] : NULL;
}

int tdimm_net_find(const char *name) {
  for (int i = 0; i < TDIMM_NET_COUNT; i++)
    if (!strcmp(name, kNets[i].name)) return i;
  return -1;
}

int tdimm_emb_random_idx(unsigned net, unsigned batch, uint64_t rows, uint64_t seed,
                         tdimm_idx_t *ix) {
  const tdimm_net_info_t *ni = tdimm_net_info(net);
  memset(ix, 0, sizeof *ix);
  if (!ni || tdimm_idx_alloc(ix, ni->tables, rows, ni->lookups, batch) != 0) return -1;
  cutil_rng_t r = cutil_rng_seed(cutil_mix64(seed) + net); /* the stream of (seed, network) */
  size_t n = (size_t)ni->lookups * batch;
  for (unsigned t = 0; t < ni->tables; t++) {
    if (net == TDIMM_NET_NCF && t >= 2) {
      memcpy(ix->t[t].idx, ix->t[t - 2].idx, n * sizeof *ix->t[t].idx);
      continue;
    }
    for (size_t j = 0; j < n; j++) ix->t[t].idx[j] = (uint32_t)cutil_rng_uniform(&r, rows);
  }
  return 0;
}

void tdimm_emb_free(tdimm_emb_t *lay) { tdimm_idx_free(&lay->idx); }

/* Adds fill records for the distinct rows of idx[0..n-1] of a table at global base tb, rows
 * of rb global blocks: one record per run of consecutive rows.  Returns the distinct row count,
 * or -1 when out of memory. */
static int64_t fill_rows(tdimm_wl_t *wl, const uint32_t *idx, size_t n, uint64_t tb, uint64_t rb,
                         unsigned kind, uint64_t seed) {
  uint32_t *s = malloc((n ? n : 1) * sizeof *s);
  if (!s) return -1;
  memcpy(s, idx, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_u32);
  int64_t distinct = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    uint64_t last = s[i];
    distinct++;
    while (j < n && (s[j] == last || s[j] == last + 1)) {
      if (s[j] != last) distinct++;
      last = s[j++];
    }
    if (tdimm_wl_add_fill(wl, tb + (uint64_t)s[i] * rb, (last - s[i] + 1) * rb, kind, seed)) {
      free(s);
      return -1;
    }
    i = j;
  }
  free(s);
  return distinct;
}

/* Writes an index list (n entries) as replicated blocks at global base ib. */
static int put_idx_list(tdimm_wl_t *wl, const uint32_t *idx, size_t n, uint64_t ib) {
  uint64_t nd = 1ull << wl->nd_log2;
  for (size_t b = 0; b * 16 < n; b++) {
    uint32_t lanes[TDIMM_LANES] = {0};
    for (size_t j = 0; j < 16 && b * 16 + j < n; j++) lanes[j] = idx[b * 16 + j];
    if (tdimm_wl_add_bcast(wl, ib + b * nd, lanes)) return -1;
  }
  return 0;
}

#define ERR(...) (cutil_seterr(err, errlen, __VA_ARGS__), -1)
#define SERR(...) cutil_seterr(err, errlen, __VA_ARGS__)

int tdimm_emb_build(const tdimm_emb_params_t *p, tdimm_wl_t *wl, tdimm_emb_t *lay, char *err,
                    size_t errlen) {
  memset(wl, 0, sizeof *wl);
  memset(lay, 0, sizeof *lay);
  const tdimm_net_info_t *ni = tdimm_net_info(p->net);
  if (!ni) return ERR("unknown network %u", p->net);
  if (p->dim_x < 1 || p->dim_x > 8)
    return ERR("dimension multiplier %u out of range 1..8", p->dim_x);
  if (p->nd_log2 > 7) return ERR("nodeDim 2^%u beyond 128 cores", p->nd_log2);
  if (p->pool_sum && p->net == TDIMM_NET_NCF)
    return ERR("sum pooling applies to youtube, fox and facebook (ncf has one lookup per table)");
  const unsigned T = ni->tables, L = ni->lookups, N = 1u << p->nd_log2;
  lay->net = p->net;
  lay->dim_x = p->dim_x;
  lay->dim = TDIMM_EMB_DIM * p->dim_x;
  lay->row_blocks = lay->dim * 4 / 64;
  lay->node_dim = N;
  lay->n_tables = T;
  lay->lookups = L;
  lay->data_seed = p->seed;
  if (lay->row_blocks % N)
    return ERR("a row of dimension %u is %u blocks, which %u cores cannot split into k >= 1 "
               "whole blocks each", lay->dim, lay->row_blocks, N);
  const unsigned k = lay->k = lay->row_blocks / N;
  /* the index lists */
  if (p->idx) {
    const tdimm_idx_t *ix = p->idx;
    const char *src = p->idx_path ? p->idx_path : "index lists";
    if (ix->n_tables != T)
      return ERR("%s: %u tables but %s has %u", src, ix->n_tables, ni->name, T);
    for (unsigned t = 0; t < T; t++) {
      if (ix->t[t].lookups != L)
        return ERR("%s: table %u has %u lookups per sample but %s has %u", src, t,
                   ix->t[t].lookups, ni->name, L);
      if (ix->t[t].batch != ix->t[0].batch)
        return ERR("%s: table %u has batch %u but table 0 has %u", src, t, ix->t[t].batch,
                   ix->t[0].batch);
      if (ix->t[t].rows != ix->t[0].rows)
        return ERR("%s: table %u has %" PRIu64 " rows but table 0 has %" PRIu64, src, t,
                   ix->t[t].rows, ix->t[0].rows);
    }
    if (tdimm_idx_alloc(&lay->idx, T, ix->t[0].rows, L, ix->t[0].batch) != 0)
      return ERR("out of memory");
    for (unsigned t = 0; t < T; t++)
      memcpy(lay->idx.t[t].idx, ix->t[t].idx, (size_t)L * ix->t[0].batch * sizeof(uint32_t));
  } else {
    uint64_t rows = p->rows ? p->rows : ni->rows;
    if (p->batch < 1 || p->batch > 128) return ERR("batch %u out of range 1..128", p->batch);
    if (rows > (1ull << 32)) return ERR("%" PRIu64 " rows: indices are 32-bit", rows);
    if (tdimm_emb_random_idx(p->net, p->batch, rows, p->seed, &lay->idx) != 0)
      return ERR("out of memory");
  }
  const unsigned B = lay->batch = lay->idx.t[0].batch;
  const uint64_t R = lay->rows = lay->idx.t[0].rows;
  const size_t n = (size_t)B * L; /* gathered rows per table */
  /* the index lists in memory order: sample-major, or lookup-major for the REDUCE chain */
  uint32_t *mem[TDIMM_EMB_MAX_TABLES] = {0};
  int same[TDIMM_EMB_MAX_TABLES];
  int rc = -1;
  for (unsigned t = 0; t < T; t++) {
    mem[t] = malloc(n * sizeof *mem[t]);
    if (!mem[t]) {
      SERR("out of memory");
      goto out;
    }
    for (unsigned s = 0; s < B; s++)
      for (unsigned j = 0; j < L; j++)
        mem[t][p->pool_sum ? (size_t)j * B + s : (size_t)s * L + j] = lay->idx.t[t].idx[s * L + j];
    same[t] = (int)t;
    for (unsigned u = 0; u < t; u++)
      if (!memcmp(mem[u], mem[t], n * sizeof *mem[t])) {
        same[t] = (int)u;
        break;
      }
  }
  /* the layout, in local blocks of every core: tables, index lists, GATHER outputs, results */
  {
    const uint64_t A = 128 / gcd64(k, 128) * k; /* lcm(k, 128) local blocks */
    uint64_t cur = 0;
    uint64_t tl[TDIMM_EMB_MAX_TABLES], il[TDIMM_EMB_MAX_TABLES], gl[TDIMM_EMB_MAX_TABLES];
    uint64_t rl[TDIMM_EMB_MAX_RESULTS];
    unsigned j = 0;   /* region number: its bank stripe (place) */
    for (unsigned t = 0; t < T; t++)
      tl[t] = place(cur, A, j++), cur = align_up(tl[t] + R * k, A);
    for (unsigned t = 0; t < T; t++)
      if (same[t] == (int)t) il[t] = place(cur, A, j++), cur = align_up(il[t] + (n + 15) / 16, A);
      else il[t] = il[same[t]];
    for (unsigned t = 0; t < T; t++)
      gl[t] = place(cur, A, j++), cur = align_up(gl[t] + (uint64_t)n * k, A);
    const unsigned NR = p->net == TDIMM_NET_NCF ? 1 : T; /* result regions */
    for (unsigned r = 0; r < NR; r++)
      rl[r] = place(cur, A, j++), cur = align_up(rl[r] + (uint64_t)B * k, A);
    unsigned aw = ceil_log2(cur);
    if (aw < 4) aw = 4;
    if (aw > 27) {
      SERR("%s at dimension %u on %u cores needs %" PRIu64 " blocks per core (%u tables of "
          "%" PRIu64 " rows x %u blocks per core) but a core holds at most 2^27: use more "
          "cores or fewer rows", ni->name, lay->dim, N, cur, T, R, k);
      goto out;
    }
    lay->local_aw = aw;
    lay->align = A * N;
    lay->end = cur * N;
    if (lay->end > (1ull << 32)) {
      SERR("%s at dimension %u on %u cores spans %" PRIu64 " global blocks, beyond the 32-bit "
          "block address: use fewer rows", ni->name, lay->dim, N, lay->end);
      goto out;
    }
    for (unsigned t = 0; t < T; t++) {
      lay->table_base[t] = tl[t] * N;
      lay->idx_base[t] = il[t] * N;
      lay->gather_base[t] = gl[t] * N;
      lay->gather_rows[t] = (uint32_t)n;
    }
    if (p->net == TDIMM_NET_NCF) {
      lay->n_results = 3;
      lay->result_base[0] = rl[0] * N, lay->result_what[0] = "GMF user x item (REDUCE mul)";
      lay->result_base[1] = lay->gather_base[2], lay->result_what[1] = "MLP user rows (GATHER)";
      lay->result_base[2] = lay->gather_base[3], lay->result_what[2] = "MLP item rows (GATHER)";
      for (unsigned r = 0; r < 3; r++) lay->result_rows[r] = B;
    } else {
      lay->n_results = T;
      for (unsigned t = 0; t < T; t++) {
        lay->result_base[t] = rl[t] * N;
        lay->result_rows[t] = B;
        lay->result_what[t] = p->pool_sum ? "sum pooling (REDUCE add chain)"
                                          : "mean pooling (AVERAGE)";
      }
    }
  }
  if (tdimm_wl_init(wl, p->nd_log2, lay->local_aw) != 0) {
    SERR("bad node");
    goto out;
  }
  /* memory image: the gathered table rows, the index lists */
  for (unsigned t = 0; t < T; t++) {
    int64_t d = fill_rows(wl, lay->idx.t[t].idx, n, lay->table_base[t], lay->row_blocks,
                          TDIMM_FILL_FP32, p->seed);
    if (d < 0) {
      SERR("out of memory");
      goto out;
    }
    lay->distinct_rows += (uint64_t)d;
    if (same[t] == (int)t && put_idx_list(wl, mem[t], n, lay->idx_base[t])) {
      SERR("out of memory");
      goto out;
    }
  }
  /* the instructions: every GATHER, then the reductions */
  for (unsigned t = 0; t < T; t++)
    if (tdimm_wl_add_insn(wl, tdimm_enc_gather(TDIMM_T_FP32, k, (uint32_t)lay->table_base[t],
                                               (uint32_t)lay->idx_base[t],
                                               (uint32_t)lay->gather_base[t], (uint32_t)n))) {
      SERR("out of memory");
      goto out;
    }
  if (p->net == TDIMM_NET_NCF) {
    if (tdimm_wl_add_insn(wl, tdimm_enc_reduce(TDIMM_SUB_MUL, TDIMM_T_FP32, k,
                                               (uint32_t)lay->gather_base[0],
                                               (uint32_t)lay->gather_base[1],
                                               (uint32_t)lay->result_base[0], B))) {
      SERR("out of memory");
      goto out;
    }
  } else {
    const uint64_t step = (uint64_t)B * lay->row_blocks; /* one lookup's rows, lookup-major */
    for (unsigned t = 0; t < T; t++) {
      const uint32_t g = (uint32_t)lay->gather_base[t], o = (uint32_t)lay->result_base[t];
      if (!p->pool_sum) {
        if (tdimm_wl_add_insn(wl, tdimm_enc_average(TDIMM_T_FP32, k, g, L, o, B))) {
          SERR("out of memory");
          goto out;
        }
        continue;
      }
      for (unsigned j = 1; j < L; j++)
        if (tdimm_wl_add_insn(wl, tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, k,
                                                   j == 1 ? g : o, (uint32_t)(g + j * step), o,
                                                   B))) {
          SERR("out of memory");
          goto out;
        }
    }
  }
  tdimm_wl_stats(wl, &lay->st);
  {
    const uint64_t row_bytes = (uint64_t)lay->dim * 4;
    for (unsigned t = 0; t < T; t++) lay->st.bytes_to_gpu_no_nmp += (uint64_t)n * row_bytes;
    for (unsigned r = 0; r < lay->n_results; r++)
      lay->st.bytes_to_gpu_nmp += (uint64_t)lay->result_rows[r] * row_bytes;
  }
  rc = 0;
out:
  for (unsigned t = 0; t < T; t++) free(mem[t]);
  if (rc) {
    tdimm_wl_free(wl);
    tdimm_emb_free(lay);
  }
  return rc;
}

/* ------------------------------------------------------------------ synthetic workloads */

static const char *const kSynNames[5] = {"gather", "reduce", "average", "mixed", "random"};

const char *tdimm_synth_name(unsigned op) { return op < 5 ? kSynNames[op] : NULL; }

int tdimm_synth_find(const char *name) {
  for (int i = 0; i < 5; i++)
    if (!strcmp(name, kSynNames[i])) return i;
  return -1;
}

/* A bump allocator of local blocks: every region starts at a multiple of a. */
typedef struct {
  uint64_t cur, a;
  unsigned j;   /* regions taken */
} bump_t;

static uint64_t take(bump_t *b, uint64_t n) {
  uint64_t base = place(b->cur, b->a, b->j++);
  b->cur = align_up(base + (n ? n : 1), b->a);
  return base;
}

/* The node of a synthetic layout of `end` local blocks: the given local_aw or the smallest. */
static int synth_node(const tdimm_synth_params_t *p, uint64_t end, tdimm_wl_t *wl, char *err,
                      size_t errlen) {
  unsigned aw = p->local_aw;
  if (!aw) {
    aw = ceil_log2(end);
    if (aw < 4) aw = 4;
  }
  if (aw < 4 || aw > 27) return ERR("local_aw %u out of range 4..27", aw);
  if (end > (1ull << aw))
    return ERR("the %s workload needs %" PRIu64 " blocks per core, more than 2^%u",
               kSynNames[p->op], end, aw);
  if ((end << p->nd_log2) > (1ull << 32))
    return ERR("the %s workload spans %" PRIu64 " global blocks, beyond the 32-bit block address",
               kSynNames[p->op], end << p->nd_log2);
  if (tdimm_wl_init(wl, p->nd_log2, aw) != 0) return ERR("bad node");
  return 0;
}

/* gather, reduce, average, mixed */
static int synth_ops(const tdimm_synth_params_t *p, tdimm_wl_t *wl, char *err, size_t errlen) {
  const uint64_t N = 1ull << p->nd_log2, k = p->k, n = p->count;
  const unsigned reps = p->insns ? p->insns : 1;
  if (p->k < 1 || p->k > TDIMM_MAX_K) return ERR("k %u out of range 1..%u", p->k, TDIMM_MAX_K);
  if (p->count > TDIMM_MAX_COUNT) return ERR("count %u beyond %u", p->count, TDIMM_MAX_COUNT);
  if (p->type > TDIMM_T_INT32) return ERR("bad type %u", p->type);
  if (p->subop > TDIMM_SUB_MIN) return ERR("bad sub-op %u", p->subop);
  const int need_avg = p->op == TDIMM_SYN_AVERAGE || p->op == TDIMM_SYN_MIXED;
  if (need_avg && (p->avg < 1 || p->avg > TDIMM_MAX_AVG))
    return ERR("averageNum %u out of range 1..%u", p->avg, TDIMM_MAX_AVG);
  const uint64_t ng = p->op == TDIMM_SYN_MIXED ? n * p->avg : n; /* rows gathered */
  if (p->op == TDIMM_SYN_MIXED && ng > TDIMM_MAX_COUNT)
    return ERR("count * avg = %" PRIu64 " beyond the GATHER count limit %u", ng,
               TDIMM_MAX_COUNT);
  const uint64_t R = p->rows ? p->rows : (ng > 65536 ? ng : 65536);
  if (R > (1ull << 32)) return ERR("%" PRIu64 " rows: indices are 32-bit", R);
  const unsigned fk = p->type == TDIMM_T_INT32 ? TDIMM_FILL_INT32 : TDIMM_FILL_FP32;
  bump_t b = {0, 128 / gcd64(k, 128) * k, 0};
  uint64_t idx = 0, tab = 0, in1 = 0, in2 = 0, g = 0, av = 0, out = 0;
  switch (p->op) {
    case TDIMM_SYN_GATHER:
      idx = take(&b, (n + 15) / 16), out = take(&b, n * k), tab = take(&b, R * k);
      break;
    case TDIMM_SYN_REDUCE:
      in1 = take(&b, n * k), in2 = take(&b, n * k), out = take(&b, n * k);
      break;
    case TDIMM_SYN_AVERAGE:
      in1 = take(&b, n * p->avg * k), out = take(&b, n * k);
      break;
    default: /* mixed */
      idx = take(&b, (ng + 15) / 16), g = take(&b, ng * k), av = take(&b, n * k);
      in2 = take(&b, n * k), out = take(&b, n * k), tab = take(&b, R * k);
      break;
  }
  if (synth_node(p, b.cur, wl, err, errlen)) return -1;
  int rc = -1;
  uint32_t *ix = NULL;
  if (p->op == TDIMM_SYN_GATHER || p->op == TDIMM_SYN_MIXED) {
    ix = malloc((ng ? ng : 1) * sizeof *ix);
    if (!ix) goto oom;
    cutil_rng_t r = cutil_rng_seed(p->seed);
    for (uint64_t i = 0; i < ng; i++)
      ix[i] = (uint32_t)(p->seq ? i % R : cutil_rng_uniform(&r, R));
    if (R <= 2 * ng) {
      if (tdimm_wl_add_fill(wl, tab * N, R * k * N, fk, p->seed)) goto oom;
    } else if (fill_rows(wl, ix, ng, tab * N, k * N, fk, p->seed) < 0) {
      goto oom;
    }
    if (put_idx_list(wl, ix, ng, idx * N)) goto oom;
  }
  if (p->op == TDIMM_SYN_REDUCE && n && tdimm_wl_add_fill(wl, in1 * N, n * k * N, fk, p->seed))
    goto oom;
  if ((p->op == TDIMM_SYN_REDUCE || p->op == TDIMM_SYN_MIXED) && n &&
      tdimm_wl_add_fill(wl, in2 * N, n * k * N, fk, p->seed + 1))
    goto oom;
  if (p->op == TDIMM_SYN_AVERAGE && n &&
      tdimm_wl_add_fill(wl, in1 * N, n * p->avg * k * N, fk, p->seed))
    goto oom;
  for (unsigned i = 0; i < reps; i++) {
    const unsigned ty = p->type, kk = p->k;
    const uint32_t c = (uint32_t)n;
    int e = 0;
    switch (p->op) {
      case TDIMM_SYN_GATHER:
        e = tdimm_wl_add_insn(wl, tdimm_enc_gather(ty, kk, (uint32_t)(tab * N),
                                                   (uint32_t)(idx * N), (uint32_t)(out * N), c));
        break;
      case TDIMM_SYN_REDUCE:
        e = tdimm_wl_add_insn(wl, tdimm_enc_reduce(p->subop, ty, kk, (uint32_t)(in1 * N),
                                                   (uint32_t)(in2 * N), (uint32_t)(out * N), c));
        break;
      case TDIMM_SYN_AVERAGE:
        e = tdimm_wl_add_insn(wl, tdimm_enc_average(ty, kk, (uint32_t)(in1 * N), p->avg,
                                                    (uint32_t)(out * N), c));
        break;
      default:
        e = tdimm_wl_add_insn(wl, tdimm_enc_gather(ty, kk, (uint32_t)(tab * N),
                                                   (uint32_t)(idx * N), (uint32_t)(g * N),
                                                   (uint32_t)ng)) ||
            tdimm_wl_add_insn(wl, tdimm_enc_average(ty, kk, (uint32_t)(g * N), p->avg,
                                                    (uint32_t)(av * N), c)) ||
            tdimm_wl_add_insn(wl, tdimm_enc_reduce(p->subop, ty, kk, (uint32_t)(av * N),
                                                   (uint32_t)(in2 * N), (uint32_t)(out * N), c));
        break;
    }
    if (e) goto oom;
  }
  rc = 0;
  goto done;
oom:
  SERR("out of memory");
done:
  free(ix);
  return rc;
}

/* ---- the random stream (what the RTL harness co-simulates) ---- */

/* Local memory of every core: [0, RZ_IDX) holds RZ_LISTS index lists of RZ_LIST_BLOCKS blocks
 * (RZ_LIST_BLOCKS * 16 indices each, values < RZ_ROWS); the data zone [RZ_IDX, cap) holds
 * tables, inputs and outputs. */
#define RZ_LISTS 16
#define RZ_LIST_BLOCKS 4
#define RZ_IDX (RZ_LISTS * RZ_LIST_BLOCKS)
#define RZ_ROWS 64
#define RZ_BAD_LISTS 2 /* lists 14 and 15 hold one out-of-range index each */
#define RZ_MAX_COUNT 40
#define RZ_MAX_K 4
#define RZ_MAX_AVG 8

typedef struct {
  cutil_rng_t r;
  uint64_t cap, N; /* local blocks per core, nodeDim */
  tdimm_wl_t *wl;
  int have_prev;
  uint64_t prev_out, prev_len; /* local output range of the previous instruction */
} rz_t;

static uint64_t rz_u(rz_t *z, uint64_t n) { return cutil_rng_uniform(&z->r, n); }

/* A random local base of a range of len blocks inside the data zone (len <= cap - RZ_IDX). */
static uint64_t rz_range(rz_t *z, uint64_t len) {
  return RZ_IDX + rz_u(z, z->cap - RZ_IDX - len + 1);
}

static int rz_disjoint(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
  return a + alen <= b || b + blen <= a;
}

/* An output range of len blocks disjoint from the ranges av[0..nav-1] (pairs base, len);
 * a few tries, then whatever the last draw was (an occasional OVERLAP). */
static uint64_t rz_out(rz_t *z, uint64_t len, const uint64_t *av, int nav) {
  uint64_t o = 0;
  for (int t = 0; t < 16; t++) {
    o = rz_range(z, len);
    int ok = 1;
    for (int i = 0; i < nav; i++) ok &= rz_disjoint(o, len, av[2 * i], av[2 * i + 1]);
    if (ok) break;
  }
  return o;
}

/* Sets bits [lo, lo + w) of word w0 to v. */
static void rz_set(tdimm_insn_t *in, unsigned lo, unsigned w, uint32_t v) {
  uint32_t m = ((1u << w) - 1) << lo;
  in->w[0] = (in->w[0] & ~m) | (v << lo & m);
}

static tdimm_insn_t rz_legal(rz_t *z, int chain) {
  const uint64_t N = z->N;
  unsigned op = (unsigned)rz_u(z, 95);
  op = op < 35 ? TDIMM_OP_GATHER : op < 70 ? TDIMM_OP_REDUCE : TDIMM_OP_AVERAGE;
  unsigned k = 1 + (unsigned)rz_u(z, RZ_MAX_K), type = (unsigned)rz_u(z, 2);
  uint64_t c = rz_u(z, 25) == 0 ? 0 : 1 + rz_u(z, RZ_MAX_COUNT);
  tdimm_insn_t in;
  if (op == TDIMM_OP_GATHER) {
    uint64_t il = rz_u(z, 33) == 0 ? rz_range(z, RZ_LIST_BLOCKS)      /* garbage indices */
                                   : RZ_LIST_BLOCKS * rz_u(z, RZ_LISTS);
    uint64_t span = (uint64_t)RZ_ROWS * k, t;
    if (chain && z->have_prev && z->prev_out + span <= z->cap) t = z->prev_out;
    else t = rz_range(z, span);
    uint64_t len = c * k, o;
    if (rz_u(z, 12) == 0 && c) { /* output among the table's rows: OVERLAP at a row */
      o = t + rz_u(z, RZ_ROWS) * k;
      if (o + len > z->cap) o = z->cap - len;
    } else {
      uint64_t av[4] = {t, span, il, RZ_LIST_BLOCKS};
      o = rz_out(z, len, av, 2);
    }
    in = tdimm_enc_gather(type, k, (uint32_t)(t * N), (uint32_t)(il * N), (uint32_t)(o * N),
                          (uint32_t)c);
    z->prev_out = o, z->prev_len = len;
  } else if (op == TDIMM_OP_REDUCE) {
    unsigned sub = (unsigned)rz_u(z, 5);
    uint64_t len = c * k;
    uint64_t i1 = chain && z->have_prev && z->prev_out + len <= z->cap ? z->prev_out
                                                                        : rz_range(z, len);
    uint64_t i2 = rz_range(z, len), o;
    if (rz_u(z, 5) == 0) {
      o = rz_u(z, 2) ? i1 : i2; /* in place */
    } else {
      uint64_t av[4] = {i1, len, i2, len};
      o = rz_out(z, len, av, 2);
    }
    in = tdimm_enc_reduce(sub, type, k, (uint32_t)(i1 * N), (uint32_t)(i2 * N),
                          (uint32_t)(o * N), (uint32_t)c);
    z->prev_out = o, z->prev_len = len;
  } else {
    unsigned avg = 1 + (unsigned)rz_u(z, RZ_MAX_AVG);
    while (c && c * avg * k > z->cap - RZ_IDX) c--;
    uint64_t ilen = c * avg * k, len = c * k;
    uint64_t i1 = chain && z->have_prev && z->prev_out + ilen <= z->cap ? z->prev_out
                                                                         : rz_range(z, ilen);
    uint64_t o;
    if (rz_u(z, 5) == 0) {
      o = i1; /* in place */
    } else {
      uint64_t av[2] = {i1, ilen};
      o = rz_out(z, len, av, 1);
    }
    in = tdimm_enc_average(type, k, (uint32_t)(i1 * N), avg, (uint32_t)(o * N), (uint32_t)c);
    z->prev_out = o, z->prev_len = len;
  }
  z->have_prev = 1;
  return in;
}

/* An instruction with error `kind` (1..9 = TDIMM_E_OPCODE..TDIMM_E_OVERLAP).  Built from a
 * legal one; the error checked first is usually, not always, `kind`. */
static tdimm_insn_t rz_illegal(rz_t *z, unsigned kind) {
  const uint64_t N = z->N;
  int have = z->have_prev;
  uint64_t po = z->prev_out, pl = z->prev_len;
  tdimm_insn_t in = rz_legal(z, 0);
  z->have_prev = have, z->prev_out = po, z->prev_len = pl; /* it writes nothing */
  tdimm_fields_t f = tdimm_dec(&in);
  if (f.count < 2) in.w[4] = f.count = 2 + (uint32_t)rz_u(z, 20);
  switch (kind) {
    case TDIMM_E_OPCODE: {
      unsigned v = (unsigned)rz_u(z, 13);
      rz_set(&in, 0, 4, v == 0 ? 0 : v + 3);
      break;
    }
    case TDIMM_E_SUBOP:
      rz_set(&in, 4, 4, f.op == TDIMM_OP_REDUCE ? 5 + (uint32_t)rz_u(z, 11)
                                                : 1 + (uint32_t)rz_u(z, 15));
      break;
    case TDIMM_E_TYPE: rz_set(&in, 8, 2, 2 + (uint32_t)rz_u(z, 2)); break;
    case TDIMM_E_FIELD:
      switch (rz_u(z, 4)) {
        case 0: in.w[0] |= 1u << (10 + rz_u(z, 6)); break;
        case 1: in.w[0] |= 1u << (24 + rz_u(z, 8)); break;
        case 2: rz_set(&in, 16, 8, 0); break;
        default: in.w[4] |= (uint32_t)(1 + rz_u(z, 255)) << 24; break;
      }
      break;
    case TDIMM_E_AVGNUM:
      rz_set(&in, 0, 4, TDIMM_OP_AVERAGE);
      rz_set(&in, 4, 4, 0);
      in.w[2] = rz_u(z, 2) ? 0 : 0x10000u + (uint32_t)rz_u(z, 0xffff0000u);
      break;
    case TDIMM_E_ALIGN:
      if (N > 1) {
        unsigned w = f.op == TDIMM_OP_AVERAGE ? (rz_u(z, 2) ? 1 : 3) : 1 + (unsigned)rz_u(z, 3);
        in.w[w] += 1 + (uint32_t)rz_u(z, N - 1);
        break;
      }
      /* fall through - one core: every base is aligned */
    case TDIMM_E_CAPACITY:
    case TDIMM_E_WINDOW: {
      /* the output range runs past the capacity, or past a windowed core's limit, or (a
       * window with a nonzero base) the first input starts at local block 0: a read, so the
       * cores without a window do not overwrite the index lists */
      uint64_t len = (uint64_t)in.w[4] * f.k, o = z->cap - 1 - rz_u(z, len - 1);
      if (kind == TDIMM_E_WINDOW) {
        for (unsigned c = 0; c < N; c++) {
          const tdimm_core_cfg_t *w = &z->wl->cfg.core[c];
          if (w->win_limit < z->cap && w->win_limit >= len) {
            o = w->win_limit - 1 - rz_u(z, len - 1);
            break;
          }
          if (w->win_base > 0) {
            in.w[1] = 0;
            return in;
          }
        }
      }
      in.w[3] = (uint32_t)(o * N);
      break;
    }
    default: /* TDIMM_E_OVERLAP: the output overlaps an input, not in place */
      if (f.op == TDIMM_OP_GATHER) in.w[3] = in.w[2] + (uint32_t)(rz_u(z, 2) * N);
      else in.w[3] = in.w[1] + (uint32_t)((1 + rz_u(z, f.k * in.w[4] - 1)) * N);
      break;
  }
  return in;
}

static int synth_random(const tdimm_synth_params_t *p, tdimm_wl_t *wl, char *err,
                        size_t errlen) {
  unsigned aw = p->local_aw ? p->local_aw : 12;
  if (aw < 10 || aw > 27) return ERR("the random stream needs local_aw 10..27, not %u", aw);
  if (aw + p->nd_log2 > 32)
    return ERR("the random stream's %u cores of 2^%u blocks are beyond the 32-bit block address",
               1u << p->nd_log2, aw);
  if (tdimm_wl_init(wl, p->nd_log2, aw) != 0) return ERR("bad node");
  rz_t z = {cutil_rng_seed(p->seed), 1ull << aw, 1ull << p->nd_log2, wl, 0, 0, 0};
  const uint64_t N = z.N, gcap = z.cap * N;
  /* memory: 8 chunks of fp32 (40%), int32 (30%) or fp32special (30%) data */
  for (uint64_t c = 0; c < 8; c++) {
    uint64_t r = rz_u(&z, 10);
    unsigned kind = r < 4 ? TDIMM_FILL_FP32 : r < 7 ? TDIMM_FILL_INT32 : TDIMM_FILL_FP32SPECIAL;
    if (tdimm_wl_add_fill(wl, c * gcap / 8, gcap / 8, kind, cutil_rng_next(&z.r))) goto oom;
  }
  /* the index lists; the last RZ_BAD_LISTS hold one index beyond any table */
  for (unsigned l = 0; l < RZ_LISTS; l++) {
    uint32_t v[RZ_LIST_BLOCKS * 16];
    for (unsigned j = 0; j < RZ_LIST_BLOCKS * 16; j++) v[j] = (uint32_t)rz_u(&z, RZ_ROWS);
    if (l >= RZ_LISTS - RZ_BAD_LISTS)
      v[rz_u(&z, RZ_MAX_COUNT)] = rz_u(&z, 2) ? 0xffffffffu : (uint32_t)(z.cap + rz_u(&z, z.cap));
    if (put_idx_list(wl, v, RZ_LIST_BLOCKS * 16, (uint64_t)l * RZ_LIST_BLOCKS * N)) goto oom;
  }
  /* windows: each core with probability 1/8 loses a few blocks at the bottom and the top */
  for (unsigned c = 0; c < N; c++)
    if (rz_u(&z, 8) == 0 && tdimm_wl_set_window(wl, c, rz_u(&z, 3), z.cap - rz_u(&z, 24)))
      goto oom;
  /* the stream: ~5% illegal (every error kind), the rest GATHER/REDUCE/AVERAGE with in-place
   * outputs and read-after-write chains */
  unsigned n = p->insns ? p->insns : 200;
  for (unsigned i = 0; i < n; i++) {
    tdimm_insn_t in;
    if (rz_u(&z, 100) < 5) in = rz_illegal(&z, 1 + (unsigned)rz_u(&z, 9));
    else in = rz_legal(&z, rz_u(&z, 10) < 3);
    if (tdimm_wl_add_insn(wl, in)) goto oom;
  }
  return 0;
oom:
  tdimm_wl_free(wl);
  return ERR("out of memory");
}

int tdimm_synth_build(const tdimm_synth_params_t *p, tdimm_wl_t *wl, tdimm_stats_t *st,
                      char *err, size_t errlen) {
  memset(wl, 0, sizeof *wl);
  if (st) memset(st, 0, sizeof *st);
  if (p->nd_log2 > 7) return ERR("nodeDim 2^%u beyond 128 cores", p->nd_log2);
  int rc;
  if (p->op == TDIMM_SYN_RANDOM) rc = synth_random(p, wl, err, errlen);
  else if (p->op < TDIMM_SYN_RANDOM) rc = synth_ops(p, wl, err, errlen);
  else return ERR("unknown synthetic op %u", p->op);
  if (rc) {
    tdimm_wl_free(wl);
    return -1;
  }
  if (st) tdimm_wl_stats(wl, st);
  return 0;
}
