/* test_tdimm_rt.c -- unit test of the TensorDIMM runtime (sw/tensordimm/libtdimm_rt.c,
 * docs/tensordimm_workloads.md): the fill generators, the workload file writer/reader round
 * trip and every reader error (message and line number), the index-list file and its errors,
 * the layout arithmetic of the embedding layers (k, alignment, replicated index lists, capacity
 * refusals), small NCF / YouTube / Fox / Facebook layers executed on the golden model and
 * checked against a plain C embedding layer (gather + average / sum / product per sample), the
 * traffic and bytes-to-GPU counts, and the synthetic workloads (results, determinism, the error
 * mix of the random stream).
 * Temporary files go to $BUILD (default build/), else /tmp.  VERBOSE=1 prints each expected
 * error message.  Last line: "N passed, N failed".
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutil.h"
#include "tensordimm/tdimm_rt.h"
#include "test_check.h"

static char g_tmp[512];
static int g_verbose;

static const char *tmp_path(const char *tag) {
  const char *dirs[2] = {getenv("BUILD") ? getenv("BUILD") : "build", "/tmp"};
  for (int i = 0; i < 2; i++) {
    snprintf(g_tmp, sizeof g_tmp, "%s/test_tdimm_rt_%ld_%s.txt", dirs[i], (long)getpid(), tag);
    FILE *f = fopen(g_tmp, "w");
    if (!f) continue;
    fclose(f);
    return g_tmp;
  }
  fprintf(stderr, "test_tdimm_rt: cannot write a temporary file\n");
  exit(1);
}

static const char *write_tmp(const char *tag, const char *text) {
  const char *p = tmp_path(tag);
  FILE *f = fopen(p, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "test_tdimm_rt: cannot write %s\n", p);
    exit(1);
  }
  return p;
}


static float f32(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}
static uint32_t u32(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* ---------------------------------------------------------------- fill generators */

static void test_fill(void) {
  int bad_range = 0, bad_grid = 0, neg_zero = 0;
  double sum = 0;
  for (uint64_t b = 0; b < 2000; b++)
    for (unsigned l = 0; l < 16; l++) {
      uint32_t u = tdimm_fill_value(TDIMM_FILL_FP32, 7, b, l);
      float x = f32(u);
      bad_range += !(x >= -1.0f && x < 1.0f);
      bad_grid += x * 8388608.0f != floorf(x * 8388608.0f);
      neg_zero += u == 0x80000000u;
      sum += x;
    }
  CHECK(!bad_range && !bad_grid && !neg_zero, "fp32 fill: %d out of [-1,1), %d off grid, %d -0",
        bad_range, bad_grid, neg_zero);
  CHECK(fabs(sum / 32000) < 0.02, "fp32 fill mean %g", sum / 32000);
  CHECK(tdimm_fill_value(TDIMM_FILL_FP32, 7, 5, 3) == tdimm_fill_value(TDIMM_FILL_FP32, 7, 5, 3),
        "fill deterministic");
  CHECK(tdimm_fill_value(TDIMM_FILL_FP32, 7, 5, 3) != tdimm_fill_value(TDIMM_FILL_FP32, 8, 5, 3),
        "fill depends on the seed");
  /* int32: every bit toggles */
  uint32_t or_ = 0, and_ = ~0u;
  for (uint64_t b = 0; b < 64; b++) {
    uint32_t v = tdimm_fill_value(TDIMM_FILL_INT32, 1, b, 0);
    or_ |= v, and_ &= v;
  }
  CHECK(or_ == ~0u && and_ == 0, "int32 fill bits");
  /* fp32special: ~10% specials, each kind present, the rest finite */
  static const uint32_t want[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                  0x7fc00000u, 0x7f800001u, 0x00000001u, 0x807fffffu,
                                  0x7f7fffffu, 0xff7fffffu, 0x00800000u};
  int seen[11] = {0}, specials = 0, subn = 0, big = 0, n = 0;
  for (uint64_t b = 0; b < 4000; b++)
    for (unsigned l = 0; l < 16; l++, n++) {
      uint32_t u = tdimm_fill_value(TDIMM_FILL_FP32SPECIAL, 3, b, l);
      int sp = 0;
      for (int i = 0; i < 11; i++)
        if (u == want[i]) seen[i]++, sp = 1;
      uint32_t e = u >> 23 & 0xff;
      if (!sp && e == 0) subn++, sp = 1;
      specials += sp;
      big += e > 127 + 10 && e != 255;
    }
  int all = 1;
  for (int i = 0; i < 11; i++) all &= seen[i] > 0;
  CHECK(all, "fp32special: every special value appears");
  CHECK(specials > n * 7 / 100 && specials < n * 13 / 100, "fp32special: %d of %d special",
        specials, n);
  CHECK(subn > 0 && big > n / 10, "fp32special: random subnormals %d, wide exponents %d", subn,
        big);
  CHECK(tdimm_fill_kind("fp32special") == TDIMM_FILL_FP32SPECIAL && tdimm_fill_kind("x") == -1 &&
            !strcmp(tdimm_fill_name(TDIMM_FILL_INT32), "int32") && !tdimm_fill_name(3),
        "fill names");
}

/* ---------------------------------------------------------------- workload file */

static int wl_equal(const tdimm_wl_t *a, const tdimm_wl_t *b) {
  if (a->nd_log2 != b->nd_log2 || a->local_aw != b->local_aw || a->n_rec != b->n_rec ||
      a->n_insn != b->n_insn)
    return 0;
  if (memcmp(&a->cfg, &b->cfg, sizeof a->cfg)) return 0;
  for (size_t i = 0; i < a->n_rec; i++)
    if (memcmp(&a->rec[i], &b->rec[i], sizeof a->rec[i])) return 0;
  for (size_t i = 0; i < a->n_insn; i++)
    if (memcmp(&a->insn[i], &b->insn[i], sizeof a->insn[i])) return 0;
  return 1;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (s) s[n] = 0;
  fclose(f);
  return s;
}

typedef struct {
  uint64_t n, sum;
} cb_acc_t;
static void cb_count(void *ctx, uint64_t g, const uint32_t lanes[16]) {
  cb_acc_t *a = ctx;
  a->n++;
  a->sum += g * 3 + lanes[0] + lanes[15];
}

static void test_wl_roundtrip(void) {
  tdimm_wl_t wl, rd;
  char err[512];
  CHECK(tdimm_wl_init(&wl, 8, 12) == -1 && tdimm_wl_init(&wl, 2, 3) == -1 &&
            tdimm_wl_init(&wl, 2, 28) == -1,
        "wl_init refuses a bad node");
  CHECK(tdimm_wl_init(&wl, 2, 10) == 0, "wl_init");
  CHECK(tdimm_wl_capacity(&wl) == 4096, "capacity %" PRIu64, tdimm_wl_capacity(&wl));
  uint32_t lanes[16];
  for (int i = 0; i < 16; i++) lanes[i] = 0x01010101u * (uint32_t)i + 0xf0000000u;
  CHECK(tdimm_wl_set_window(&wl, 1, 3, 900) == 0 && tdimm_wl_set_window(&wl, 3, 0, 1024) == 0 &&
            tdimm_wl_set_window(&wl, 2, 0, 0) == 0,
        "set_window");
  CHECK(tdimm_wl_set_window(&wl, 4, 0, 1) == -1 && tdimm_wl_set_window(&wl, 0, 5, 4) == -1 &&
            tdimm_wl_set_window(&wl, 0, 0, 1025) == -1,
        "set_window refuses");
  CHECK(tdimm_wl_add_fill(&wl, 0, 100, TDIMM_FILL_FP32, 1) == 0 &&
            tdimm_wl_add_fill(&wl, 200, 50, TDIMM_FILL_INT32, 0xffffffffffffull) == 0 &&
            tdimm_wl_add_fill(&wl, 4000, 96, TDIMM_FILL_FP32SPECIAL, 3) == 0 &&
            tdimm_wl_add_block(&wl, 4095, lanes) == 0 && tdimm_wl_add_bcast(&wl, 4092, lanes) == 0,
        "add records");
  CHECK(tdimm_wl_add_fill(&wl, 4000, 97, 0, 1) == -1 && tdimm_wl_add_fill(&wl, 0, 0, 0, 1) == -1 &&
            tdimm_wl_add_fill(&wl, 0, 1, 3, 1) == -1 &&
            tdimm_wl_add_block(&wl, 4096, lanes) == -1 &&
            tdimm_wl_add_bcast(&wl, 6, lanes) == -1,
        "add records refuses");
  tdimm_wl_add_insn(&wl, tdimm_enc_gather(TDIMM_T_FP32, 2, 0, 64, 128, 17));
  tdimm_wl_add_insn(&wl, tdimm_enc_reduce(TDIMM_SUB_MAX, TDIMM_T_INT32, 1, 4, 8, 12, 3));
  tdimm_wl_add_insn(&wl, tdimm_enc_average(TDIMM_T_FP32, 255, 16, 65535, 20, 0));
  tdimm_insn_t bad = {{0xffffffffu, 1, 2, 3, 0xffffffffu}};
  tdimm_wl_add_insn(&wl, bad);
  char p[512], p2[512];
  snprintf(p, sizeof p, "%s", tmp_path("rt"));
  FILE *f = fopen(p, "w");
  CHECK(f && tdimm_wl_write(f, &wl, "a comment\nsecond line") == 0, "write");
  if (f) fclose(f);
  CHECK(tdimm_wl_read(p, &rd, err, sizeof err) == 0, "read back: %s", err);
  CHECK(wl_equal(&wl, &rd), "round trip equal");
  char *a = slurp(p);
  snprintf(p2, sizeof p2, "%s", tmp_path("rt2"));
  f = fopen(p2, "w");
  if (f) tdimm_wl_write(f, &rd, "a comment\nsecond line"), fclose(f);
  char *b = slurp(p2);
  CHECK(a && b && !strcmp(a, b), "rewrite is byte-identical");
  CHECK(a && strstr(a, "# a comment\n# second line\nnode 2 10\nwindow 1 0x3 0x384\nwindow 2 0x0 "
                       "0x0\nfill 0x0 100 fp32 1\n"),
        "canonical form:\n%s", a ? a : "");
  CHECK(a && strstr(a, "\ninsn ffffffff 1 2 3 ffffffff  # "), "illegal insn written");
  free(a);
  free(b);
  cb_acc_t acc = {0, 0};
  tdimm_wl_foreach_block(&rd, cb_count, &acc);
  CHECK(acc.n == 100 + 50 + 96 + 1 + 4, "foreach_block calls %" PRIu64, acc.n);
  /* ranges: records + the outputs of the legal-looking instructions */
  tdimm_range_t *r;
  size_t nr = tdimm_wl_ranges(&rd, &r);
  /* records [0,100) [200,250) [4000,4096) [4092,4096) [4095]; GATHER out 128 + 17*2*4 = 264:
   * [128,264); REDUCE out [12,24); AVERAGE count 0: none; bad: k 255 count 2^32-1 out 3:
   * not a multiple of 4 -> none */
  CHECK(nr == 3 && r[0].first == 0 && r[0].n == 100 && r[1].first == 128 && r[1].n == 264 - 128 &&
            r[2].first == 4000 && r[2].n == 96,
        "ranges (%zu)", nr);
  free(r);
  /* the node loads what foreach gives */
  tdimm_node_t *node = tdimm_wl_node_new(&rd);
  CHECK(node != NULL, "node");
  if (node) {
    uint32_t *b0 = tdimm_gblock(node, 4093), *b1 = tdimm_block(node, 1, 1023), *b2 =
        tdimm_gblock(node, 201);
    CHECK(b0 && b1 && !memcmp(b0, lanes, 64) && !memcmp(b1, lanes, 64), "bcast into every core");
    CHECK(b2 && b2[5] == tdimm_fill_value(TDIMM_FILL_INT32, 0xffffffffffffull, 201, 5), "fill");
    CHECK(tdimm_node_cfg(node)->core[1].win_base == 3 &&
              tdimm_node_cfg(node)->core[1].win_limit == 900,
          "window into the node");
    tdimm_node_free(node);
  }
  tdimm_wl_free(&rd);
  tdimm_wl_free(&wl);
  remove(p);
  remove(p2);
}

/* The reader must refuse text with exactly "<path>:<line>: <want...>" (want a prefix of the
 * reason) or "<path>: <want...>" when line is 0. */
static void expect_wl_err(const char *text, long line, const char *want) {
  const char *p = write_tmp("bad", text);
  tdimm_wl_t wl;
  char err[512] = "", exp[600];
  int rc = tdimm_wl_read(p, &wl, err, sizeof err);
  if (line) snprintf(exp, sizeof exp, "%s:%ld: %s", p, line, want);
  else snprintf(exp, sizeof exp, "%s: %s", p, want);
  CHECK(rc == -1 && !strncmp(err, exp, strlen(exp)) && !strchr(err, '\n') && wl.n_insn == 0 &&
            wl.rec == NULL,
        "workload error: want '%s', got '%s'", exp, err);
  if (g_verbose) printf("  %s\n", err);
}

#define WH "tdimm-workload 1\n"
#define WN WH "node 3 10\n"

static void test_wl_errors(void) {
  const char *L16 = " 0 1 2 3 4 5 6 7 8 9 a b c d e f\n";
  char buf[512];
  expect_wl_err("", 0, "empty file (no 'tdimm-workload 1' header)");
  expect_wl_err("# just a comment\n\n", 0, "empty file");
  expect_wl_err("tdimm-workload 2\n", 1, "unsupported header");
  expect_wl_err("tdimm-workload\n", 1, "unsupported header");
  expect_wl_err("\nworkload 1\n", 2, "expected the header 'tdimm-workload 1', found 'workload'");
  expect_wl_err(WH, 0, "no 'node' line");
  expect_wl_err(WH "# c\ninsn 1 0 0 0 0\n", 3, "'insn' before the 'node' line");
  expect_wl_err(WH "fill 0 1 fp32 1\n", 2, "'fill' before the 'node' line");
  expect_wl_err(WN "node 3 10\n", 3, "second 'node' line (the first is line 2)");
  expect_wl_err(WH "node 3\n", 2, "'node' takes 2 fields (node <nd_log2> <local_aw>), found 1");
  expect_wl_err(WH "node 8 10\n", 2, "nd_log2 8 out of range 0..7");
  expect_wl_err(WH "node 0 3\n", 2, "local_aw 3 out of range 4..27");
  expect_wl_err(WH "node 0 28\n", 2, "local_aw 28 out of range 4..27");
  expect_wl_err(WH "node x 10\n", 2, "bad nd_log2 'x'");
  expect_wl_err(WH "node -1 10\n", 2, "bad nd_log2 '-1'");
  expect_wl_err(WN "foo 1 2\n", 3, "unknown keyword 'foo'");
  expect_wl_err(WN "window 8 0 10\n", 3, "window core 8 out of range (nodeDim 8)");
  expect_wl_err(WN "window 7 0 0x401\n", 3, "window limit 0x401 beyond the core's 1024 blocks");
  expect_wl_err(WN "window 7 5 4\n", 3, "window base 0x5 above its limit 0x4");
  expect_wl_err(WN "window 7 0 4\nwindow 7 0 5\n", 4, "second window of core 7");
  expect_wl_err(WN "window 7 0\n", 3, "'window' takes 3 fields");
  expect_wl_err(WN "fill 0 8 fp64 1\n", 3, "unknown fill kind 'fp64'");
  expect_wl_err(WN "fill 0 0 fp32 1\n", 3, "fill of 0 blocks");
  expect_wl_err(WN "fill 8000 193 fp32 1\n", 3, "fill 0x1f40 + 193 runs past the node's 8192");
  expect_wl_err(WN "fill 8192 1 fp32 1\n", 3, "fill 0x2000 + 1 runs past");
  expect_wl_err(WN "fill 0 1 fp32 1x\n", 3, "bad seed '1x'");
  expect_wl_err(WN "fill 0 1 fp32\n", 3, "'fill' takes 4 fields");
  snprintf(buf, sizeof buf, WN "block 0x2000%s", L16);
  expect_wl_err(buf, 3, "block 0x2000 beyond the node's 8192 global blocks");
  snprintf(buf, sizeof buf, WN "bcast 0x1ff8%s", L16);
  CHECK(1, "-");
  {
    const char *p = write_tmp("ok", buf);
    tdimm_wl_t wl;
    char err[256];
    CHECK(tdimm_wl_read(p, &wl, err, sizeof err) == 0 && wl.n_rec == 1 && wl.rec[0].nblocks == 8,
          "bcast at the top: %s", err);
    tdimm_wl_free(&wl);
  }
  snprintf(buf, sizeof buf, WN "bcast 12%s", L16);
  expect_wl_err(buf, 3, "bcast block 0xc not a multiple of nodeDim 8");
  expect_wl_err(WN "block 0 1 2 3\n", 3, "'block' takes 17 fields");
  expect_wl_err(WN "block 0 1 2 3 4 5 6 7 8 9 a b c d e f g\n", 3, "bad hex lane 15 'g'");
  expect_wl_err(WN "bcast 0 1 2 3 4 5 6 7 8 9 a b c d e f 100000000\n", 3,
                "lane 15 '100000000' exceeds 32 bits");
  expect_wl_err(WN "insn 1 2 3 4\n", 3, "'insn' takes 5 fields (insn <w0> <w1> <w2> <w3> <w4>), "
                                        "found 4");
  expect_wl_err(WN "insn 1 2 3 4 5 6\n", 3, "'insn' takes 5 fields");
  expect_wl_err(WN "insn 1 2 z3 4 5\n", 3, "bad hex word 2 'z3'");
  expect_wl_err(WN "insn 1 2 3 4 1ffffffff\n", 3, "word 4 '1ffffffff' exceeds 32 bits");
  expect_wl_err(WN "block 0 1 2 3 4 5 6 7 8 9 a b c d e f 0 1 2 3 4 5 6 7 8 9\n", 3,
                "too many fields");
  /* a legal file: comments, CRLF, hex and decimal numbers, illegal instructions */
  {
    const char *p = write_tmp("ok2", "# c\r\ntdimm-workload 1 # hdr\r\n\r\nnode 0x3 10\r\n"
                                     "insn ffffffff ffffffff 0 0 ffffffff\r\nfill 8 0x10 int32 "
                                     "0x10\r\n");
    tdimm_wl_t wl;
    char err[256] = "";
    CHECK(tdimm_wl_read(p, &wl, err, sizeof err) == 0 && wl.n_insn == 1 && wl.n_rec == 1 &&
              wl.rec[0].gblock == 8 && wl.rec[0].nblocks == 16 && wl.rec[0].seed == 16 &&
              wl.insn[0].w[4] == 0xffffffffu,
          "legal file: %s", err);
    tdimm_wl_free(&wl);
  }
  tdimm_wl_t wl;
  char err[256];
  CHECK(tdimm_wl_read("/nonexistent/x.wl", &wl, err, sizeof err) == -1 &&
            !strncmp(err, "/nonexistent/x.wl: cannot open: ", 32),
        "missing file: %s", err);
  remove(tmp_path("bad"));
  remove(tmp_path("ok"));
  remove(tmp_path("ok2"));
}

/* ---------------------------------------------------------------- index lists */

static void expect_idx_err(const char *text, long line, const char *want) {
  const char *p = write_tmp("idx", text);
  tdimm_idx_t ix;
  char err[512] = "", exp[600];
  int rc = tdimm_idx_read(p, &ix, err, sizeof err);
  if (line) snprintf(exp, sizeof exp, "%s:%ld: %s", p, line, want);
  else snprintf(exp, sizeof exp, "%s: %s", p, want);
  CHECK(rc == -1 && !strncmp(err, exp, strlen(exp)) && ix.t == NULL,
        "index error: want '%s', got '%s'", exp, err);
  if (g_verbose) printf("  %s\n", err);
}

#define IH "tdimm-index 1\n"

static void test_idx(void) {
  tdimm_idx_t ix, rd;
  char err[512];
  CHECK(tdimm_idx_alloc(&ix, 2, 1000, 3, 5) == 0, "idx_alloc");
  for (unsigned t = 0; t < 2; t++)
    for (unsigned i = 0; i < 15; i++) ix.t[t].idx[i] = (t * 37 + i * 61) % 1000;
  ix.t[1].rows = 1ull << 32;
  ix.t[1].idx[14] = 0xffffffffu;
  char p[512];
  snprintf(p, sizeof p, "%s", tmp_path("ix"));
  FILE *f = fopen(p, "w");
  CHECK(f && tdimm_idx_write(f, &ix) == 0, "idx write");
  if (f) fclose(f);
  CHECK(tdimm_idx_read(p, &rd, err, sizeof err) == 0, "idx read: %s", err);
  int same = rd.n_tables == 2;
  for (unsigned t = 0; same && t < 2; t++)
    same = rd.t[t].rows == ix.t[t].rows && rd.t[t].lookups == 3 && rd.t[t].batch == 5 &&
           !memcmp(rd.t[t].idx, ix.t[t].idx, 15 * sizeof(uint32_t));
  CHECK(same, "idx round trip");
  tdimm_idx_free(&rd);
  tdimm_idx_free(&ix);
  CHECK(tdimm_idx_alloc(&ix, 0, 10, 1, 1) == -1 && tdimm_idx_alloc(&ix, 1, 0, 1, 1) == -1 &&
            tdimm_idx_alloc(&ix, 1, (1ull << 32) + 1, 1, 1) == -1 &&
            tdimm_idx_alloc(&ix, 1, 10, 4096, 4096) == -1 &&
            tdimm_idx_alloc(&ix, 65, 10, 1, 1) == -1,
        "idx_alloc refuses bad shapes");
  CHECK(tdimm_idx_read("/nonexistent/i.idx", &rd, err, sizeof err) == -1 &&
            !strcmp(err, "/nonexistent/i.idx: cannot open: No such file or directory"),
        "missing index file: %s", err);
  expect_idx_err("", 0, "empty file (no 'tdimm-index 1' header)");
  expect_idx_err("tdimm-index 2\n", 1, "unsupported header (expected 'tdimm-index 1')");
  expect_idx_err("# x\ntdimm-workload 1\n", 2, "expected the header 'tdimm-index 1', found "
                                               "'tdimm-workload'");
  expect_idx_err(IH, 0, "no 'table' line");
  expect_idx_err(IH "1 2 3\n", 2, "index before the first 'table' line");
  expect_idx_err(IH "tables 0\n", 2, "unknown keyword 'tables'");
  expect_idx_err(IH "table 0 rows 10 lookups 1\n", 2,
                 "expected 'table <t> rows <R> lookups <L> batch <B>'");
  expect_idx_err(IH "table 1 rows 10 lookups 1 batch 2\n", 2,
                 "table 1 out of order (expected table 0)");
  expect_idx_err(IH "table 0 rows 0 lookups 1 batch 2\n", 2, "table 0: rows 0 out of range");
  expect_idx_err(IH "table 0 rows 4294967297 lookups 1 batch 2\n", 2,
                 "table 0: rows 4294967297 out of range 1..2^32");
  expect_idx_err(IH "table 0 rows 9 lookups 0 batch 2\n", 2, "table 0: lookups and batch");
  expect_idx_err(IH "table 0 rows 9 lookups 5000 batch 5000\n", 2,
                 "table 0: batch * lookups beyond the GATHER count limit 16777215");
  expect_idx_err(IH "table 0 rows 9x lookups 1 batch 2\n", 2, "bad row count '9x'");
  expect_idx_err(IH "table 0 rows 5000000 lookups 2 batch 2\n1 2\n3 5000000\n", 4,
                 "out-of-range index 5000000 (table 0 has 5000000 rows)");
  expect_idx_err(IH "table 0 rows 10 lookups 2 batch 2\n1 2 3 -4\n", 3, "bad index '-4'");
  expect_idx_err(IH "table 0 rows 10 lookups 2 batch 2\n1 2 3 4 5\n", 3,
                 "extra data after the 4 indices of table 0");
  expect_idx_err(IH "table 0 rows 10 lookups 2 batch 2\n1 2 3 4\n\n# c\n5\n", 6,
                 "extra data after the 4 indices of table 0");
  expect_idx_err(IH "table 0 rows 10 lookups 2 batch 2\n1 2 3\n", 3,
                 "table 0: 3 of 4 indices (end of file)");
  expect_idx_err(IH "table 0 rows 10 lookups 2 batch 2\n1 2 3 4\ntable 1 rows 10 lookups 40 "
                    "batch 80\n1 2\ntable 2 rows 1 lookups 1 batch 1\n0\n",
                 6, "table 1: 2 of 3200 indices before the next 'table' line");
  remove(p);
  remove(tmp_path("idx"));
}

/* ---------------------------------------------------------------- embedding layers */

/* Element e of row `row` of a table at global base tb (rows of rb blocks), as filled. */
static float tab_val(const tdimm_emb_t *lay, unsigned t, uint64_t row, unsigned e) {
  uint64_t g = lay->table_base[t] + row * lay->row_blocks + e / 16;
  return f32(tdimm_fill_value(TDIMM_FILL_FP32, lay->data_seed, g, e % 16));
}

/* Element e of row r of a tensor at global base b in the node. */
static uint32_t node_val(tdimm_node_t *node, const tdimm_emb_t *lay, uint64_t b, uint64_t r,
                         unsigned e) {
  uint32_t *p = tdimm_gblock(node, b + r * lay->row_blocks + e / 16);
  return p ? p[e % 16] : 0xdeadbeefu;
}

/* Builds and runs an embedding layer; checks every output row against a plain C layer. */
static void run_emb(const tdimm_emb_params_t *p, const char *what) {
  tdimm_wl_t wl;
  tdimm_emb_t lay;
  char err[512];
  int rc = tdimm_emb_build(p, &wl, &lay, err, sizeof err);
  CHECK(rc == 0, "%s: build: %s", what, err);
  if (rc) return;
  tdimm_node_t *node = tdimm_wl_node_new(&wl);
  CHECK(node != NULL, "%s: node", what);
  if (!node) return;
  int errs = 0;
  for (size_t i = 0; i < wl.n_insn; i++) errs += tdimm_exec(node, &wl.insn[i], NULL) != TDIMM_OK;
  CHECK(errs == 0, "%s: %d instructions failed", what, errs);
  const unsigned B = lay.batch, L = lay.lookups, D = lay.dim;
  int bad = 0, checked = 0;
  /* every gathered row */
  for (unsigned t = 0; t < lay.n_tables; t++)
    for (unsigned s = 0; s < B; s++)
      for (unsigned j = 0; j < L; j++) {
        uint64_t row = p->pool_sum ? (uint64_t)j * B + s : (uint64_t)s * L + j;
        uint32_t x = lay.idx.t[t].idx[s * L + j];
        for (unsigned e = 0; e < D; e += 37, checked++)
          bad += node_val(node, &lay, lay.gather_base[t], row, e) != u32(tab_val(&lay, t, x, e));
      }
  /* the reduced tensors */
  for (unsigned s = 0; s < B; s++)
    for (unsigned e = 0; e < D; e++) {
      if (p->net == TDIMM_NET_NCF) {
        float gmf =
            tab_val(&lay, 0, lay.idx.t[0].idx[s], e) * tab_val(&lay, 1, lay.idx.t[1].idx[s], e);
        bad += node_val(node, &lay, lay.result_base[0], s, e) != u32(gmf);
        bad += node_val(node, &lay, lay.result_base[1], s, e) !=
               u32(tab_val(&lay, 2, lay.idx.t[2].idx[s], e));
        bad += node_val(node, &lay, lay.result_base[2], s, e) !=
               u32(tab_val(&lay, 3, lay.idx.t[3].idx[s], e));
        checked += 3;
        continue;
      }
      for (unsigned t = 0; t < lay.n_tables; t++) {
        float acc;
        if (p->pool_sum) {
          acc = tab_val(&lay, t, lay.idx.t[t].idx[s * L], e);
          for (unsigned j = 1; j < L; j++)
            acc = acc + tab_val(&lay, t, lay.idx.t[t].idx[s * L + j], e);
        } else {
          acc = 0.0f;
          for (unsigned j = 0; j < L; j++)
            acc = acc + tab_val(&lay, t, lay.idx.t[t].idx[s * L + j], e);
          acc = acc / (float)L;
        }
        bad += node_val(node, &lay, lay.result_base[t], s, e) != u32(acc);
        checked++;
      }
    }
  CHECK(bad == 0 && checked > 0, "%s: %d of %d values differ from the plain C layer", what, bad,
        checked);
  tdimm_node_free(node);
  tdimm_wl_free(&wl);
  tdimm_emb_free(&lay);
}

static void test_emb_layout(void) {
  tdimm_wl_t wl;
  tdimm_emb_t lay;
  char err[512];
  /* YouTube, batch 64, 8 cores: k = 4, the paper's default; counts by hand */
  tdimm_emb_params_t p = {TDIMM_NET_YOUTUBE, 64, 1, 3, 0, 0, 1, NULL, NULL};
  int rc = tdimm_emb_build(&p, &wl, &lay, err, sizeof err);
  CHECK(rc == 0, "youtube: %s", err);
  if (!rc) {
    CHECK(lay.k == 4 && lay.row_blocks == 32 && lay.dim == 512 && lay.rows == 1000000 &&
              lay.batch == 64 && lay.lookups == 50 && lay.n_tables == 2,
          "youtube shape");
    CHECK(lay.align == 128 * 8, "align %" PRIu64, lay.align);
    int aligned = 1;
    for (unsigned t = 0; t < 2; t++)
      aligned &= lay.table_base[t] % lay.align == 0 && lay.idx_base[t] % lay.align == 0 &&
                 lay.gather_base[t] % lay.align == 0 && lay.result_base[t] % lay.align == 0;
    CHECK(aligned, "youtube regions aligned");
    /* table 1: after table 0 (1,000,000 rows x 4 = 4,000,000 local blocks), in 512-block stripe
       1 of an 8192-block period (bank-aware placement): local 4,006,400, global x 8 */
    CHECK(lay.table_base[1] == 8ull * 4006400, "table 1 after table 0, in bank stripe 1");
    /* per table: GATHER 3200 rows: 200 index + 12800 row blocks read, 12800 written; AVERAGE
     * 64 x 50 x 4 read, 256 written */
    CHECK(lay.st.insns == 4 && lay.st.rows_gathered == 6400 &&
              lay.st.blocks_read_per_core == 2 * (200 + 12800 + 12800) &&
              lay.st.blocks_written_per_core == 2 * (12800 + 256),
          "youtube traffic %" PRIu64 " %" PRIu64, lay.st.blocks_read_per_core,
          lay.st.blocks_written_per_core);
    CHECK(lay.st.bytes_to_gpu_no_nmp == 6400ull * 2048 &&
              lay.st.bytes_to_gpu_nmp == 128ull * 2048 &&
              lay.st.bytes_to_gpu_no_nmp == 50 * lay.st.bytes_to_gpu_nmp,
          "youtube bytes to the GPU: factor 50");
    /* local_aw: 2 x 1M rows x 4 blocks = 8M local blocks + the rest -> 2^23 */
    CHECK(lay.local_aw == 23 && wl.local_aw == 23 && wl.nd_log2 == 3, "youtube local_aw %u",
          lay.local_aw);
    /* instructions */
    tdimm_fields_t g = tdimm_dec(&wl.insn[1]), a = tdimm_dec(&wl.insn[2]);
    CHECK(g.op == TDIMM_OP_GATHER && g.k == 4 && g.in_base == lay.table_base[1] &&
              g.aux == lay.idx_base[1] && g.out_base == lay.gather_base[1] && g.count == 3200,
          "youtube GATHER 1");
    CHECK(a.op == TDIMM_OP_AVERAGE && a.k == 4 && a.in_base == lay.gather_base[0] && a.aux == 50 &&
              a.out_base == lay.result_base[0] && a.count == 64,
          "youtube AVERAGE 0");
    /* replicated index list: block i of table 0's list is local idx_base/8 + i in every core */
    tdimm_node_t *node = tdimm_wl_node_new(&wl);
    int ok = node != NULL;
    for (unsigned i = 0; ok && i < 200; i += 7)
      for (unsigned c = 0; c < 8; c++) {
        uint32_t *b = tdimm_block(node, c, lay.idx_base[0] / 8 + i);
        ok &= b && b[5] == lay.idx.t[0].idx[i * 16 + 5] && b[15] == lay.idx.t[0].idx[i * 16 + 15];
        ok &= tdimm_gblock(node, lay.idx_base[0] + (uint64_t)i * 8 + c) == b;
      }
    CHECK(ok, "replicated index lists");
    /* only gathered rows are filled */
    cb_acc_t acc = {0, 0};
    tdimm_wl_foreach_block(&wl, cb_count, &acc);
    CHECK(acc.n == lay.distinct_rows * 32 + 2 * 200 * 8 && lay.distinct_rows <= 6400 &&
              lay.distinct_rows > 6300,
          "filled blocks %" PRIu64 " (distinct rows %" PRIu64 ")", acc.n, lay.distinct_rows);
    tdimm_node_free(node);
    tdimm_wl_free(&wl);
    tdimm_emb_free(&lay);
  }
  /* k over core counts and dimensions */
  static const struct { unsigned nd, dx, k; } ks[] = {{0, 1, 32}, {3, 1, 4}, {5, 1, 1},
                                                      {3, 3, 12}, {5, 8, 8}, {7, 8, 2}};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    tdimm_emb_params_t q = {TDIMM_NET_FOX, 2, ks[i].dx, ks[i].nd, 1000, 0, 1, NULL, NULL};
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == 0 && lay.k == ks[i].k && lay.align % ((uint64_t)lay.k << ks[i].nd) == 0,
          "k for %u cores x%u: %u (%s)", 1u << ks[i].nd, ks[i].dx, lay.k, err);
    if (!rc) tdimm_wl_free(&wl), tdimm_emb_free(&lay);
  }
  /* refusals */
  static const struct {
    unsigned net, batch, dx, nd;
    uint64_t rows;
    int sum;
    const char *want;
  } bad[] = {
      {TDIMM_NET_YOUTUBE, 64, 1, 6, 0, 0, "a row of dimension 512 is 32 blocks, which 64 cores"},
      {TDIMM_NET_FOX, 64, 3, 6, 0, 0, "a row of dimension 1536 is 96 blocks, which 64 cores"},
      {TDIMM_NET_NCF, 64, 8, 3, 0, 0, "ncf at dimension 4096 on 8 cores needs"},
      {TDIMM_NET_NCF, 64, 8, 7, 0, 0, "ncf at dimension 4096 on 128 cores spans"},
      {TDIMM_NET_NCF, 64, 1, 3, 0, 1, "sum pooling applies to youtube, fox and facebook"},
      {TDIMM_NET_YOUTUBE, 0, 1, 3, 0, 0, "batch 0 out of range 1..128"},
      {TDIMM_NET_YOUTUBE, 129, 1, 3, 0, 0, "batch 129 out of range 1..128"},
      {TDIMM_NET_YOUTUBE, 1, 9, 3, 0, 0, "dimension multiplier 9 out of range 1..8"},
      {TDIMM_NET_YOUTUBE, 1, 1, 3, (1ull << 32) + 1, 0, "4294967297 rows: indices are 32-bit"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tdimm_emb_params_t q = {bad[i].net, bad[i].batch, bad[i].dx, bad[i].nd, bad[i].rows,
                            bad[i].sum, 1, NULL, NULL};
    err[0] = 0;
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == -1 && strstr(err, bad[i].want) && wl.insn == NULL && lay.idx.t == NULL,
          "refusal %zu: want '%s', got '%s'", i, bad[i].want, err);
    if (g_verbose) printf("  %s\n", err);
  }
  /* NCF at dimension x8 fits with 128 cores and 1M rows, and with 64 cores too */
  {
    tdimm_emb_params_t q = {TDIMM_NET_NCF, 128, 8, 6, 1000000, 0, 1, NULL, NULL};
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == 0 && lay.k == 4 && lay.local_aw == 24, "ncf x8 64 cores 1M rows: %s (aw %u)", err,
          lay.local_aw);
    if (!rc) {
      /* NCF: users and items shared by GMF and MLP: one index list each */
      CHECK(lay.idx_base[2] == lay.idx_base[0] && lay.idx_base[3] == lay.idx_base[1] &&
                lay.idx_base[0] != lay.idx_base[1],
            "ncf index lists shared");
      CHECK(lay.st.bytes_to_gpu_no_nmp == 4ull * 128 * 16384 &&
                lay.st.bytes_to_gpu_nmp == 3ull * 128 * 16384,
            "ncf bytes: 4 gathered rows per sample without NMP, 3 with");
      tdimm_wl_free(&wl), tdimm_emb_free(&lay);
    }
  }
  /* an index file replaces the random draw; its shape must be the network's */
  {
    tdimm_idx_t ix;
    CHECK(tdimm_emb_random_idx(TDIMM_NET_FACEBOOK, 3, 100, 9, &ix) == 0 && ix.n_tables == 8 &&
              ix.t[7].lookups == 25 && ix.t[7].batch == 3,
          "random idx");
    tdimm_emb_params_t q = {TDIMM_NET_FACEBOOK, 64, 1, 2, 0, 0, 5, &ix, NULL};
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == 0 && lay.batch == 3 && lay.rows == 100 &&
              !memcmp(lay.idx.t[4].idx, ix.t[4].idx, 75 * 4),
          "facebook from an index list: %s", err);
    if (!rc) tdimm_wl_free(&wl), tdimm_emb_free(&lay);
    q.net = TDIMM_NET_YOUTUBE;
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "index lists: 8 tables but youtube has 2"), "%s", err);
    ix.t[3].batch = 2;
    q.net = TDIMM_NET_FACEBOOK;
    q.idx_path = "x.idx";
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == -1 && !strcmp(err, "x.idx: table 3 has batch 2 but table 0 has 3"), "%s", err);
    tdimm_idx_free(&ix);
    CHECK(tdimm_emb_random_idx(TDIMM_NET_NCF, 4, 50, 9, &ix) == 0 && ix.t[0].lookups == 1 &&
              !memcmp(ix.t[2].idx, ix.t[0].idx, 16) && !memcmp(ix.t[3].idx, ix.t[1].idx, 16) &&
              memcmp(ix.t[0].idx, ix.t[1].idx, 16),
          "ncf random idx: MLP lists repeat GMF's");
    ix.t[0].lookups = 2;
    q.net = TDIMM_NET_NCF;
    q.idx = &ix;
    q.idx_path = NULL;
    rc = tdimm_emb_build(&q, &wl, &lay, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "index lists: table 0 has 2 lookups per sample but ncf has 1"),
          "%s", err);
    ix.t[0].lookups = 1;
    tdimm_idx_free(&ix);
  }
  CHECK(tdimm_net_find("fox") == TDIMM_NET_FOX && tdimm_net_find("dlrm") == -1 &&
            tdimm_net_info(TDIMM_NET_FACEBOOK)->tables == 8 &&
            tdimm_net_info(TDIMM_NET_FACEBOOK)->max_reduction == 25 &&
            tdimm_net_info(TDIMM_NET_NCF)->rows == 5000000 && !tdimm_net_info(4),
        "network table");
}

static void test_emb_exec(void) {
  /* small layers on the model against the plain C layer */
  /* NCF with its 5M-row tables (sparse) */
  tdimm_emb_params_t ncf = {TDIMM_NET_NCF, 5, 1, 3, 0, 0, 11, NULL, NULL};
  run_emb(&ncf, "ncf batch 5, 8 cores");
  tdimm_emb_params_t yt = {TDIMM_NET_YOUTUBE, 3, 1, 3, 0, 0, 12, NULL, NULL};
  run_emb(&yt, "youtube batch 3, 8 cores");
  tdimm_emb_params_t yts = {TDIMM_NET_YOUTUBE, 3, 2, 2, 500, 1, 13, NULL, NULL};
  run_emb(&yts, "youtube batch 3, x2, 4 cores, sum pooling");
  tdimm_emb_params_t fox = {TDIMM_NET_FOX, 2, 3, 0, 100, 0, 14, NULL, NULL};
  run_emb(&fox, "fox batch 2, x3, 1 core");
  tdimm_emb_params_t fb = {TDIMM_NET_FACEBOOK, 2, 1, 5, 300, 0, 15, NULL, NULL};
  run_emb(&fb, "facebook batch 2, 32 cores");
  tdimm_emb_params_t fbs = {TDIMM_NET_FACEBOOK, 2, 1, 4, 300, 1, 16, NULL, NULL};
  run_emb(&fbs, "facebook batch 2, 16 cores, sum pooling");
}

/* ---------------------------------------------------------------- synthetic workloads */

static void test_synth(void) {
  tdimm_wl_t wl;
  tdimm_stats_t st;
  char err[512];
  /* reduce: every lane against tdimm_lane_reduce */
  for (unsigned sub = 0; sub <= TDIMM_SUB_MIN; sub++)
    for (unsigned ty = 0; ty < 2; ty++) {
      tdimm_synth_params_t p = {TDIMM_SYN_REDUCE, 2, 0, 21, 3, 1, ty, sub, 0, 0, 2, 5};
      int rc = tdimm_synth_build(&p, &wl, &st, err, sizeof err);
      CHECK(rc == 0 && st.insns == 2 && st.blocks_read_per_core == 2 * 2 * 63 &&
                st.blocks_written_per_core == 2 * 63,
            "reduce build: %s", err);
      if (rc) continue;
      tdimm_node_t *node = tdimm_wl_node_new(&wl);
      tdimm_fields_t f = tdimm_dec(&wl.insn[0]);
      int e = 0, bad = 0;
      for (size_t i = 0; i < wl.n_insn; i++) e += tdimm_exec(node, &wl.insn[i], NULL) != TDIMM_OK;
      for (uint64_t q = 0; q < 21 * 3 * 4; q++)
        for (unsigned l = 0; l < 16; l++) {
          uint32_t a = tdimm_gblock(node, f.in_base + q)[l], b = tdimm_gblock(node, f.aux + q)[l];
          bad += tdimm_gblock(node, f.out_base + q)[l] != tdimm_lane_reduce(sub, ty, a, b);
        }
      CHECK(e == 0 && bad == 0 && f.op == TDIMM_OP_REDUCE && f.subop == sub && f.type == ty &&
                f.k == 3 && f.count == 21,
            "reduce sub %u type %u: %d errors, %d bad lanes", sub, ty, e, bad);
      tdimm_node_free(node);
      tdimm_wl_free(&wl);
    }
  /* average */
  {
    tdimm_synth_params_t p = {TDIMM_SYN_AVERAGE, 1, 0, 9, 2, 7, TDIMM_T_INT32, 0, 0, 0, 0, 6};
    int rc = tdimm_synth_build(&p, &wl, &st, err, sizeof err);
    CHECK(rc == 0 && st.blocks_read_per_core == 9 * 7 * 2 && st.blocks_written_per_core == 18,
          "average build: %s", err);
    if (!rc) {
      tdimm_node_t *node = tdimm_wl_node_new(&wl);
      tdimm_fields_t f = tdimm_dec(&wl.insn[0]);
      int bad = tdimm_exec(node, &wl.insn[0], NULL) != TDIMM_OK;
      for (uint64_t i = 0; i < 9; i++)
        for (uint64_t m = 0; m < 2; m++)
          for (uint64_t c = 0; c < 2; c++)
            for (unsigned l = 0; l < 16; l++) {
              uint32_t v[7];
              for (unsigned j = 0; j < 7; j++)
                v[j] = tdimm_gblock(node, f.in_base + ((i * 7 + j) * 2 + m) * 2 + c)[l];
              bad += tdimm_gblock(node, f.out_base + (i * 2 + m) * 2 + c)[l] !=
                     tdimm_lane_average(TDIMM_T_INT32, v, 7);
            }
      CHECK(bad == 0, "average: %d bad lanes", bad);
      tdimm_node_free(node);
      tdimm_wl_free(&wl);
    }
  }
  /* gather: sequential and random indices, fill of the table */
  for (int seq = 0; seq < 2; seq++) {
    tdimm_synth_params_t p = {TDIMM_SYN_GATHER, 3, 0, 100, 2, 1, 0, 0, seq, seq ? 40 : 0, 1, 7};
    int rc = tdimm_synth_build(&p, &wl, &st, err, sizeof err);
    CHECK(rc == 0 && st.rows_gathered == 100 && st.blocks_read_per_core == 7 + 200 &&
              st.blocks_written_per_core == 200,
          "gather build: %s", err);
    if (rc) continue;
    tdimm_node_t *node = tdimm_wl_node_new(&wl);
    tdimm_fields_t f = tdimm_dec(&wl.insn[0]);
    int bad = tdimm_exec(node, &wl.insn[0], NULL) != TDIMM_OK, zero = 0;
    for (uint64_t r = 0; r < 100; r++) {
      uint32_t x = tdimm_gblock(node, f.aux + (r / 16) * 8)[r % 16];
      if (seq) bad += x != r % 40;
      for (uint64_t q = 0; q < 16; q++) {
        const uint32_t *o = tdimm_gblock(node, f.out_base + r * 16 + q);
        bad += memcmp(o, tdimm_gblock(node, f.in_base + (uint64_t)x * 16 + q), 64) != 0;
        zero += o[0] == 0 && o[1] == 0;
      }
    }
    CHECK(bad == 0 && zero == 0, "gather seq=%d: %d bad, %d zero rows", seq, bad, zero);
    tdimm_node_free(node);
    tdimm_wl_free(&wl);
  }
  /* mixed: three instructions per repetition, all succeed */
  {
    tdimm_synth_params_t p = {TDIMM_SYN_MIXED, 2, 0, 10, 1, 5, 0, TDIMM_SUB_MAX, 0, 0, 3, 8};
    int rc = tdimm_synth_build(&p, &wl, &st, err, sizeof err);
    CHECK(rc == 0 && st.insns == 9 && st.rows_gathered == 150, "mixed build: %s", err);
    if (!rc) {
      tdimm_node_t *node = tdimm_wl_node_new(&wl);
      int e = 0;
      for (size_t i = 0; i < wl.n_insn; i++) e += tdimm_exec(node, &wl.insn[i], NULL) != TDIMM_OK;
      CHECK(e == 0, "mixed: %d errors", e);
      tdimm_node_free(node);
      tdimm_wl_free(&wl);
    }
  }
  /* refusals */
  {
    tdimm_synth_params_t p = {TDIMM_SYN_REDUCE, 3, 10, 1000, 4, 1, 0, 0, 0, 0, 1, 1};
    CHECK(tdimm_synth_build(&p, &wl, &st, err, sizeof err) == -1 &&
              strstr(err, "the reduce workload needs 21504 blocks per core, more than 2^10"),
          "too small: %s", err);
    p.local_aw = 27, p.count = 16000000, p.k = 255, p.nd_log2 = 7;
    CHECK(tdimm_synth_build(&p, &wl, &st, err, sizeof err) == -1 && strstr(err, "more than 2^27"),
          "too big: %s", err);
    tdimm_synth_params_t q = {TDIMM_SYN_RANDOM, 7, 27, 0, 1, 1, 0, 0, 0, 0, 10, 1};
    CHECK(tdimm_synth_build(&q, &wl, &st, err, sizeof err) == -1 &&
              strstr(err, "beyond the 32-bit block address"),
          "random too big: %s", err);
    q.local_aw = 9;
    CHECK(tdimm_synth_build(&q, &wl, &st, err, sizeof err) == -1 && strstr(err, "local_aw 10..27"),
          "random too small: %s", err);
  }
  /* the random stream: deterministic, varied, every error code on the model */
  {
    unsigned long long codes[16] = {0}, ok = 0, inplace = 0, chain = 0, gath_part = 0;
    int ops[4] = {0}, types[2] = {0}, subs[5] = {0}, ks[5] = {0}, count16 = 0, count0 = 0;
    for (unsigned seed = 1; seed <= 6; seed++) {
      tdimm_synth_params_t p = {TDIMM_SYN_RANDOM, seed % 4, 0, 0, 0, 0, 0, 0, 0, 0, 600, seed};
      int rc = tdimm_synth_build(&p, &wl, &st, err, sizeof err);
      CHECK(rc == 0 && wl.n_insn == 600 && wl.local_aw == 12, "random build: %s", err);
      if (rc) continue;
      if (seed == 1) {
        tdimm_wl_t w2;
        tdimm_synth_build(&p, &w2, NULL, err, sizeof err);
        CHECK(wl_equal(&wl, &w2), "random stream deterministic");
        tdimm_wl_free(&w2);
        p.seed = 2;
        tdimm_synth_build(&p, &w2, NULL, err, sizeof err);
        CHECK(memcmp(wl.insn, w2.insn, 10 * sizeof *wl.insn) != 0, "seeds differ");
        tdimm_wl_free(&w2);
      }
      tdimm_node_t *node = tdimm_wl_node_new(&wl);
      tdimm_result_t res;
      tdimm_fields_t prev = {0};
      for (size_t i = 0; i < wl.n_insn; i++) {
        tdimm_fields_t f = tdimm_dec(&wl.insn[i]);
        unsigned e = tdimm_exec(node, &wl.insn[i], &res);
        codes[e & 15]++;
        if (e == TDIMM_OK) {
          ok++;
          ops[f.op]++, types[f.type]++, ks[f.k]++;
          if (f.op == TDIMM_OP_REDUCE) subs[f.subop]++;
          if (f.op != TDIMM_OP_GATHER &&
              (f.out_base == f.in_base || (f.op == TDIMM_OP_REDUCE && f.out_base == f.aux)))
            inplace++;
          if (i && f.in_base == prev.out_base && f.count) chain++;
          count16 += f.count % 16 != 0;
          count0 += f.count == 0;
        }
        if (e == TDIMM_E_CAPACITY && f.op == TDIMM_OP_GATHER && res.rows[0] > 0) gath_part++;
        prev = f;
      }
      tdimm_node_free(node);
      tdimm_wl_free(&wl);
    }
    int all = 1;
    for (unsigned c = 1; c <= 9; c++) all &= codes[c] > 0;
    CHECK(all, "every error code: %llu %llu %llu %llu %llu %llu %llu %llu %llu", codes[1],
          codes[2], codes[3], codes[4], codes[5], codes[6], codes[7], codes[8], codes[9]);
    CHECK(ok > 3600 * 80 / 100 && ok < 3600 * 95 / 100, "random: %llu of 3600 OK", ok);
    CHECK(ops[1] > 900 && ops[2] > 900 && ops[3] > 600 && types[0] > 1000 && types[1] > 1000 &&
              subs[0] && subs[1] && subs[2] && subs[3] && subs[4] && ks[1] && ks[2] && ks[3] &&
              ks[4],
          "random: every op, type, sub-op and k");
    CHECK(inplace > 100 && chain > 300 && count16 > 1000 && count0 > 50 && gath_part > 10,
          "random: in place %llu, chains %llu, counts not a multiple of 16 %d, zero %d, partial "
          "gathers %llu", inplace, chain, count16, count0, gath_part);
  }
  CHECK(tdimm_synth_find("mixed") == TDIMM_SYN_MIXED && tdimm_synth_find("x") == -1 &&
            !strcmp(tdimm_synth_name(TDIMM_SYN_RANDOM), "random"),
        "synth names");
}

/* ---------------------------------------------------------------- traffic, checksum */

static void test_misc(void) {
  uint64_t r, w;
  tdimm_insn_t g = tdimm_enc_gather(0, 3, 0, 0, 0, 17);
  tdimm_insn_traffic(&g, &r, &w);
  CHECK(r == 2 + 51 && w == 51, "gather traffic");
  tdimm_insn_t a = tdimm_enc_average(1, 2, 0, 5, 0, 4);
  tdimm_insn_traffic(&a, &r, &w);
  CHECK(r == 40 && w == 8, "average traffic");
  tdimm_insn_t red = tdimm_enc_reduce(4, 0, 1, 0, 0, 0, 9);
  tdimm_insn_traffic(&red, &r, &w);
  CHECK(r == 18 && w == 9, "reduce traffic");
  tdimm_insn_t bad[4] = {tdimm_enc_average(0, 1, 0, 0, 0, 4), red, red, red};
  bad[1].w[0] |= 1u << 12;
  bad[2].w[0] = (bad[2].w[0] & ~0xf0u) | 0x50u;
  bad[3].w[4] = 1u << 24;
  for (int i = 0; i < 4; i++) {
    tdimm_insn_traffic(&bad[i], &r, &w);
    CHECK(r == 0 && w == 0, "no traffic for illegal %d", i);
  }
  /* the shared encoding (docs/tensordimm.md) */
  tdimm_insn_t e = tdimm_enc_reduce(TDIMM_SUB_MIN, TDIMM_T_INT32, 7, 0x11, 0x22, 0x33, 0x44);
  CHECK(e.w[0] == (2u | 4u << 4 | 1u << 8 | 7u << 16) && e.w[1] == 0x11 && e.w[2] == 0x22 &&
            e.w[3] == 0x33 && e.w[4] == 0x44,
        "encoding w0=%08x", e.w[0]);
  /* checksum: deterministic, sensitive to a lane and to the order */
  tdimm_wl_t wl;
  tdimm_wl_init(&wl, 1, 6);
  tdimm_wl_add_fill(&wl, 10, 20, TDIMM_FILL_INT32, 1);
  tdimm_node_t *node = tdimm_wl_node_new(&wl);
  tdimm_range_t *rg;
  size_t n = tdimm_wl_ranges(&wl, &rg);
  uint64_t h1 = tdimm_node_checksum(node, rg, n), h2 = tdimm_node_checksum(node, rg, n);
  tdimm_gblock(node, 29)[15] ^= 1;
  uint64_t h3 = tdimm_node_checksum(node, rg, n);
  CHECK(n == 1 && h1 == h2 && h1 != h3, "checksum");
  free(rg);
  tdimm_node_free(node);
  tdimm_wl_free(&wl);
}

int main(void) {
  g_verbose = getenv("VERBOSE") && atoi(getenv("VERBOSE")) > 0;
  test_fill();
  test_wl_roundtrip();
  test_wl_errors();
  test_idx();
  test_emb_layout();
  test_emb_exec();
  test_synth();
  test_misc();
  return CHECK_SUMMARY();
}
