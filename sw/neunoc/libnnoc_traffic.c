/* libnnoc_traffic.c -- streaming reader and writer of Neu-NoC traffic files (format in
 * cmodel/include/neunoc.h; docs/neunoc_workloads.md).
 *
 * The reader holds one line at a time (constant memory whatever the file length).  Every error
 * is one line "<path>:<line>: <reason>" ("<path>: <reason>" when the file cannot be opened).
 * Lexical rules (the writer emits exactly this form):
 *   - '#' starts a comment that runs to the end of the line; blank lines are skipped;
 *   - tokens are separated by spaces, tabs or a CR (CRLF files read the same);
 *   - a line holds at most NNOC_LINE_MAX - 2 characters (enough for a packet of NNOC_MAX_WORDS
 *     32-bit words and a 1024-router dst_mesh);
 *   - decimal numbers take no sign; hex numbers take an optional 0x prefix; the dst_mesh hex
 *     string may have any length (leading zeros allowed) but no bit at or above NR may be set.
 * Checks per pkt line: t nondecreasing; src < NR * K; dst_mesh and dst_pe non-zero and within
 * NR / K bits; tag < 2^tag_w; nwords <= NNOC_MAX_WORDS and exactly nwords words follow; every
 * word < 2^data_w.  The multicast length rule depends on the network's VC depth and is left to
 * nnoc_pkt_check.  After an error, every further nnoc_traffic_next returns -1 with the same
 * reason; after the end, 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "neunoc.h"

#define NNOC_LINE_MAX (NNOC_MAX_WORDS * 11 + 1024)
#define NNOC_MAX_TOK (NNOC_MAX_WORDS + 8)

struct nnoc_traffic {
  FILE *f;
  char path[256];
  long line_no;
  nnoc_cfg_t cfg;
  uint64_t last_t;
  int state; /* 0 reading, 1 end, -1 error */
  char err[512];
  char buf[NNOC_LINE_MAX];
  char *tok[NNOC_MAX_TOK];
};

/* Records "<path>:<line>: <message>" as the reader's error and stops the reader. */
#define set_err(t, ...)                                                               \
  (cutil_seterr_line((t)->err, sizeof(t)->err, (t)->path, (t)->line_no, __VA_ARGS__), \
   (t)->state = -1)

/* Next line with a token split into tokens: the token count, 0 at the end, -1 on an error. */
static int read_tokens(nnoc_traffic_t *t) {
  char why[64];
  int nt = cutil_read_tokens(t->f, t->buf, sizeof t->buf, t->tok, NNOC_MAX_TOK, &t->line_no, NULL,
                             why, sizeof why);
  if (nt < 0) set_err(t, "%s", why);
  return nt;
}

/* Hex with optional 0x, value < 2^bits (bits <= 32): 0, -1 not hex, -2 too large. */
static int parse_hex32(const char *s, int bits, uint32_t *out) {
  uint64_t v;
  int rc = cutil_parse_hex(s, (1ull << bits) - 1, &v);
  if (rc == 0) *out = (uint32_t)v;
  return rc;
}

/* A hex bit string of any length into mask (NNOC_MASK_WORDS words).  -1 not hex, -2 a set bit
 * at or above nbits (*bad receives its index). */
static int parse_mask(const char *s, int nbits, uint32_t *mask, int *bad) {
  memset(mask, 0, sizeof(uint32_t) * NNOC_MASK_WORDS);
  s = cutil_skip_0x(s);
  size_t n = strlen(s);
  if (!n) return -1;
  for (size_t i = 0; i < n; i++)
    if (cutil_hex_digit((unsigned char)s[i]) < 0) return -1;
  for (size_t i = 0; i < n; i++) { /* digit i from the right holds bits 4i .. 4i+3 */
    int d = cutil_hex_digit((unsigned char)s[n - 1 - i]);
    for (int b = 0; b < 4; b++) {
      if (!(d >> b & 1)) continue;
      size_t bit = 4 * i + (size_t)b;
      if (bit >= (size_t)nbits) {
        *bad = bit > 1000000 ? 1000000 : (int)bit;
        return -2;
      }
      mask[bit / 32] |= 1u << (bit % 32);
    }
  }
  return 0;
}

nnoc_traffic_t *nnoc_traffic_open(const char *path, nnoc_cfg_t *cfg, char *err, size_t errlen) {
  nnoc_traffic_t *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  snprintf(t->path, sizeof t->path, "%s", path);
  t->f = fopen(path, "r");
  if (!t->f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    free(t);
    return NULL;
  }
  int nt = read_tokens(t);
  if (nt == 0) {
    snprintf(t->err, sizeof t->err, "%s: empty file (no 'nnoc-traffic 1' header)", path);
    goto fail;
  }
  if (nt < 0) goto fail;
  if (strcmp(t->tok[0], "nnoc-traffic") != 0) {
    set_err(t, "expected the header 'nnoc-traffic 1', found '%s'", t->tok[0]);
    goto fail;
  }
  if (nt != 2 || strcmp(t->tok[1], "1") != 0) {
    set_err(t, "unsupported header (expected 'nnoc-traffic 1')");
    goto fail;
  }
  nt = read_tokens(t);
  if (nt == 0) {
    snprintf(t->err, sizeof t->err, "%s:%ld: no 'net' line", path, t->line_no);
    goto fail;
  }
  if (nt < 0) goto fail;
  if (strcmp(t->tok[0], "net") != 0) {
    set_err(t, "expected 'net <K> <Cols> <Rows>' before any packet, found '%s'", t->tok[0]);
    goto fail;
  }
  uint64_t k, c, r;
  if (nt != 4 || cutil_parse_dec(t->tok[1], 0, 1u << 20, &k) ||
      cutil_parse_dec(t->tok[2], 0, 1u << 20, &c) || cutil_parse_dec(t->tok[3], 0, 1u << 20, &r)) {
    set_err(t, "malformed net line (expected 'net <K> <Cols> <Rows>', decimal)");
    goto fail;
  }
  if (k < 1 || k > NNOC_MAX_K) {
    set_err(t, "K = %" PRIu64 " out of range 1..%d", k, NNOC_MAX_K);
    goto fail;
  }
  if (c < 1 || r < 1 || c * r > NNOC_MAX_ROUTERS) {
    set_err(t, "mesh %" PRIu64 "x%" PRIu64 " out of range (1..%d routers)", c, r,
            NNOC_MAX_ROUTERS);
    goto fail;
  }
  t->cfg = *cfg;
  t->cfg.k = (int)k;
  t->cfg.cols = (int)c;
  t->cfg.rows = (int)r;
  char e[200] = "";
  if (nnoc_cfg_check(&t->cfg, e, sizeof e) != 0) {
    set_err(t, "%s", e[0] ? e : "invalid configuration");
    goto fail;
  }
  *cfg = t->cfg;
  return t;
fail:
  snprintf(err, errlen, "%s", t->err);
  fclose(t->f);
  free(t);
  return NULL;
}

int nnoc_traffic_next(nnoc_traffic_t *t, nnoc_pkt_t *p, char *err, size_t errlen) {
  if (t->state == 1) return 0;
  if (t->state < 0) goto fail;
  int nt = read_tokens(t);
  if (nt == 0) {
    t->state = 1;
    return 0;
  }
  if (nt < 0) goto fail;
  char **tok = t->tok;
  if (!strcmp(tok[0], "net")) {
    set_err(t, "second 'net' line");
    goto fail;
  }
  if (!strcmp(tok[0], "nnoc-traffic")) {
    set_err(t, "second 'nnoc-traffic' header");
    goto fail;
  }
  if (strcmp(tok[0], "pkt") != 0) {
    set_err(t, "unknown line '%s' (expected 'pkt')", tok[0]);
    goto fail;
  }
  if (nt < 7) {
    set_err(t, "pkt line has %d fields, expected 'pkt <t> <src> <dst_mesh> <dst_pe> <tag> "
               "<nwords> [words]'", nt - 1);
    goto fail;
  }
  const nnoc_cfg_t *cfg = &t->cfg;
  int nr = cfg->cols * cfg->rows;
  uint64_t v;
  if (cutil_parse_dec(tok[1], 0, NNOC_MAX_CYCLE, &v)) {
    set_err(t, "bad cycle '%s' (decimal, at most %llu)", tok[1], (unsigned long long)NNOC_MAX_CYCLE);
    goto fail;
  }
  if (v < t->last_t) {
    set_err(t, "cycle %" PRIu64 " before the previous packet's %" PRIu64, v, t->last_t);
    goto fail;
  }
  t->last_t = v;
  p->t = v;
  if (cutil_parse_dec(tok[2], 0, UINT64_MAX, &v)) {
    set_err(t, "bad src '%s' (decimal PE id)", tok[2]);
    goto fail;
  }
  if (v >= (uint64_t)nr * (uint64_t)cfg->k) {
    set_err(t, "src %" PRIu64 " out of range (the network has %d PEs)", v, nr * cfg->k);
    goto fail;
  }
  p->src = (int)v;
  int bad = 0;
  int rc = parse_mask(tok[3], nr, p->dst_mesh, &bad);
  if (rc == -1) {
    set_err(t, "bad dst_mesh '%.40s' (hex)", tok[3]);
    goto fail;
  }
  if (rc == -2) {
    set_err(t, "dst_mesh bit %d set but the mesh has %d routers", bad, nr);
    goto fail;
  }
  int any = 0;
  for (int w = 0; w < NNOC_MASK_WORDS; w++) any |= p->dst_mesh[w] != 0;
  if (!any) {
    set_err(t, "dst_mesh is 0 (no destination router)");
    goto fail;
  }
  rc = parse_hex32(tok[4], cfg->k, &p->dst_pe);
  if (rc == -1) {
    set_err(t, "bad dst_pe '%s' (hex)", tok[4]);
    goto fail;
  }
  if (rc == -2) {
    set_err(t, "dst_pe %s has a bit at or above K = %d", tok[4], cfg->k);
    goto fail;
  }
  if (!p->dst_pe) {
    set_err(t, "dst_pe is 0 (no destination ring position)");
    goto fail;
  }
  if (cutil_parse_dec(tok[5], 0, (1ull << cfg->tag_w) - 1, &v)) {
    set_err(t, "bad tag '%s' (decimal, below 2^%d)", tok[5], cfg->tag_w);
    goto fail;
  }
  p->tag = (uint32_t)v;
  if (cutil_parse_dec(tok[6], 0, NNOC_MAX_WORDS, &v)) {
    set_err(t, "bad nwords '%s' (decimal, 0..%d)", tok[6], NNOC_MAX_WORDS);
    goto fail;
  }
  p->nwords = (int)v;
  if (nt - 7 != p->nwords) {
    set_err(t, "nwords is %d but %d words follow", p->nwords, nt - 7);
    goto fail;
  }
  for (int i = 0; i < p->nwords; i++) {
    rc = parse_hex32(tok[7 + i], cfg->data_w, &p->words[i]);
    if (rc == -1) {
      set_err(t, "bad word %d '%s' (hex)", i, tok[7 + i]);
      goto fail;
    }
    if (rc == -2) {
      set_err(t, "word %d = %s does not fit DataW = %d bits", i, tok[7 + i], cfg->data_w);
      goto fail;
    }
  }
  return 1;
fail:
  snprintf(err, errlen, "%s", t->err);
  return -1;
}

void nnoc_traffic_close(nnoc_traffic_t *t) {
  if (!t) return;
  if (t->f) fclose(t->f);
  free(t);
}

int nnoc_traffic_scan(const char *path, nnoc_cfg_t *cfg, long *npkts, uint64_t *last_t, char *err,
                      size_t errlen) {
  nnoc_traffic_t *t = nnoc_traffic_open(path, cfg, err, errlen);
  if (!t) return -1;
  nnoc_pkt_t *p = malloc(sizeof *p);
  if (!p) {
    snprintf(err, errlen, "%s: out of memory", path);
    nnoc_traffic_close(t);
    return -1;
  }
  int r;
  *npkts = 0;
  *last_t = 0;
  while ((r = nnoc_traffic_next(t, p, err, errlen)) == 1) {
    (*npkts)++;
    *last_t = p->t;
  }
  free(p);
  nnoc_traffic_close(t);
  return r < 0 ? -1 : 0;
}

int nnoc_traffic_write_header(FILE *f, const nnoc_cfg_t *cfg) {
  if (fprintf(f, "nnoc-traffic 1\nnet %d %d %d\n", cfg->k, cfg->cols, cfg->rows) < 0) return -1;
  return ferror(f) ? -1 : 0;
}

int nnoc_traffic_write_pkt(FILE *f, const nnoc_cfg_t *cfg, const nnoc_pkt_t *p) {
  int nr = cfg->cols * cfg->rows;
  int top = (nr + 31) / 32 - 1;
  while (top > 0 && !p->dst_mesh[top]) top--;
  int bad = fprintf(f, "pkt %" PRIu64 " %d %" PRIx32, p->t, p->src, p->dst_mesh[top]) < 0;
  for (int w = top - 1; w >= 0; w--) bad |= fprintf(f, "%08" PRIx32, p->dst_mesh[w]) < 0;
  bad |= fprintf(f, " %" PRIx32 " %" PRIu32 " %d", p->dst_pe, p->tag, p->nwords) < 0;
  for (int i = 0; i < p->nwords; i++) bad |= fprintf(f, " %" PRIx32, p->words[i]) < 0;
  bad |= fputc('\n', f) == EOF;
  return bad || ferror(f) ? -1 : 0;
}
