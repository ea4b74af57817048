/* gnn_workload -- writes GNNerator Dense Engine workload files (format: sw/gnnerator/gnn_dense.h)
 * for the harness (tb/gnnerator), the golden-model runner (gnn_run) and the bench.
 *
 * usage: gnn_workload --df os|ws|is --m M --k K --n N [--act none|relu] [--acc] [--bias]
 *          [CFG] [--addr-w A] [--special PCT] [--seed S] [--summary] [-o FILE|-]
 *   or:  gnn_workload --random N [--bad PCT] [CFG] [--addr-w A] [--special PCT] [--seed S]
 *          [--summary] [-o FILE|-]
 *   CFG: --rows R --cols C --depth D (all three; D lines per bank of every buffer) or --paper
 *        (64 x 64, 4096 lines, 32-bit addresses); default 4 x 4, depth 16.
 * A matmul workload: random A (M x K), B (K x N) (and C_old with --acc, the bias row with
 * --bias) with --special % special values (default 0), packed in the dataflow's DRAM layout
 * (A, B, C, bias, ones: each region 64-word aligned from address 0), C without --acc filled
 * with 0x7fa5a5a5 (a NaN the program must overwrite), the compiled program
 * (gnn_compile_matmul), a shape line and the check region C.
 * A random workload: --random N instructions (gnn_random_program, --bad % malformed, default
 * 5; after the 6 LOADs that write every buffer line) over an input and an output region of
 * random data (--special default 5 %), the output region as the check region.
 * --addr-w: DRAM address bits (4..32; default the larger of 16 and what the layout needs;
 * --paper: 32).  --seed: 0..2^62 (default 1).  Without -o and --summary the workload goes to
 * stdout; --summary prints one line on stdout:
 *   df=<os|ws|is|random> m=M k=K n=N insns=N matmuls=N loads=N stores=N rd_words=N wr_words=N
 *   [tile=MtxKtxNt order=<loops> kchunks=N]
 * Bad arguments: one line "gnn_workload: <reason>" on stderr, exit status 2.  The output is a
 * function of the arguments only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "gnnerator/gnn_dense.h"

static const char *const kProg = "gnn_workload";

#define ALIGN 64u

static uint64_t align_up(uint64_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

static int bits_for(uint64_t words) {
  int b = 0;
  while (b < 64 && (1ull << b) < words) b++;
  return b;
}

static void *xmalloc(uint64_t words) {
  void *p = malloc((size_t)(words ? words : 1) * sizeof(uint32_t));
  if (!p) cutil_die(kProg, "out of memory");
  return p;
}

static void add_mem(gnn_wl_t *wl, uint64_t addr, const uint32_t *d, uint64_t n) {
  if (gnn_wl_add_mem(wl, addr, d, n) != 0) cutil_die(kProg, "out of memory");
}

int main(int argc, char **argv) {
  const char *df_s = NULL, *act_s = NULL, *out = NULL;
  long m = 0, k = 0, n = 0, rows = 0, cols = 0, depth = 0, addr_w = 0, special = -1, bad = -1;
  long random_n = -1;
  long seed = 1;
  int acc = 0, bias = 0, paper = 0, summary = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = 1;
    if (!strcmp(a, "--df")) {
      if (!v) cutil_fail(kProg, "--df needs a value");
      df_s = v;
    } else if (!strcmp(a, "--m")) {
      m = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--k")) {
      k = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--n")) {
      n = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--act")) {
      if (!v) cutil_fail(kProg, "--act needs a value");
      act_s = v;
    } else if (!strcmp(a, "--acc")) {
      acc = 1, takes = 0;
    } else if (!strcmp(a, "--bias")) {
      bias = 1, takes = 0;
    } else if (!strcmp(a, "--rows")) {
      rows = cutil_opt_long(kProg, a, v, 1, 64);
    } else if (!strcmp(a, "--cols")) {
      cols = cutil_opt_long(kProg, a, v, 1, 64);
    } else if (!strcmp(a, "--depth")) {
      depth = cutil_opt_long(kProg, a, v, 1, 32768);
    } else if (!strcmp(a, "--paper")) {
      paper = 1, takes = 0;
    } else if (!strcmp(a, "--addr-w")) {
      addr_w = cutil_opt_long(kProg, a, v, 4, 32);
    } else if (!strcmp(a, "--special")) {
      special = cutil_opt_long(kProg, a, v, 0, 100);
    } else if (!strcmp(a, "--seed")) {
      seed = cutil_opt_long(kProg, a, v, 0, 1L << 62);
    } else if (!strcmp(a, "--random")) {
      random_n = cutil_opt_long(kProg, a, v, 0, 10000000);
    } else if (!strcmp(a, "--bad")) {
      bad = cutil_opt_long(kProg, a, v, 0, 100);
    } else if (!strcmp(a, "--summary")) {
      summary = 1, takes = 0;
    } else if (!strcmp(a, "-o")) {
      if (!v) cutil_fail(kProg, "-o needs a value");
      out = v;
    } else {
      cutil_fail(kProg, "unknown argument '%s'", a);
    }
    i += takes;
  }
  const int is_random = random_n >= 0;
  if (!is_random && !df_s) cutil_fail(kProg, "give --df os|ws|is with --m, --k, --n, or --random N");
  if (is_random && (df_s || m || k || n || act_s || acc || bias))
    cutil_fail(kProg, "--random excludes --df, --m, --k, --n, --act, --acc and --bias");
  if (!is_random && bad >= 0) cutil_fail(kProg, "--bad applies to --random only");
  int df = -1;
  unsigned act = GNN_ACT_NONE;
  if (!is_random) {
    df = gnn_df_find(df_s);
    if (df < 0) cutil_fail(kProg, "--df: '%s' is not os, ws or is", df_s);
    if (!m || !k || !n) cutil_fail(kProg, "--df needs --m, --k and --n");
    if (act_s) {
      if (!strcmp(act_s, "relu")) act = GNN_ACT_RELU;
      else if (strcmp(act_s, "none")) cutil_fail(kProg, "--act: '%s' is not none or relu", act_s);
    }
  }
  int ncfg = !!rows + !!cols + !!depth;
  if (ncfg && ncfg < 3) cutil_fail(kProg, "give --rows, --cols and --depth together");
  if (ncfg && paper) cutil_fail(kProg, "--paper excludes --rows, --cols and --depth");
  gnn_cfg_t cfg;
  if (paper) gnn_cfg_paper(&cfg);
  else if (gnn_cfg_init(&cfg, ncfg ? (int)rows : 4, ncfg ? (int)cols : 4, ncfg ? (int)depth : 16,
                        ncfg ? (int)depth : 16, ncfg ? (int)depth : 16, 16) != 0)
    cutil_fail(kProg, "invalid cfg");
  const uint64_t lw = (uint64_t)cfg.lw;

  gnn_wl_t wl;
  char err[512], line[512], comment[1024];
  if (!is_random) {
    gnn_mm_params_t p;
    memset(&p, 0, sizeof p);
    p.df = (unsigned)df, p.m = (unsigned)m, p.k = (unsigned)k, p.n = (unsigned)n;
    p.acc = (unsigned)acc, p.act = act, p.bias = (unsigned)bias;
    const uint64_t M = p.m, K = p.k, N = p.n;
    p.a = 0;
    p.b = align_up(p.a + M * K);
    p.c = align_up(p.b + K * N);
    uint64_t end = p.c + M * N;
    if (bias) p.bias_addr = align_up(end), end = p.bias_addr + N;
    if (gnn_mm_needs_ones(&p)) p.ones_addr = align_up(end), end = p.ones_addr + lw;
    int need = bits_for(end);
    if (!addr_w) addr_w = paper ? 32 : (need > 16 ? need : 16);
    if (need > addr_w)
      cutil_fail(kProg, "the layout needs %" PRIu64 " words, more than 2^%ld", end, addr_w);
    cfg.addr_w = (int)addr_w;
    if (gnn_wl_init(&wl, &cfg) != 0) cutil_fail(kProg, "invalid cfg");
    gnn_mm_plan_t plan;
    if (gnn_compile_matmul(&cfg, &p, &wl.prog, &plan, err, sizeof err) != 0)
      cutil_fail(kProg, "%s", err);
    const unsigned sp = special < 0 ? 0u : (unsigned)special;
    cutil_rng_t r = cutil_rng_seed((uint64_t)seed);
    uint64_t most = M * K > K * N ? M * K : K * N;
    if (M * N > most) most = M * N;
    if (lw > most) most = lw;
    uint32_t *x = xmalloc(M * K), *y = xmalloc(most);
    for (uint64_t i = 0; i < M * K; i++) x[i] = gnn_rand_fp32(&r, sp);
    gnn_pack_a(p.df, p.m, p.k, x, y);
    add_mem(&wl, p.a, y, M * K);
    free(x);
    x = xmalloc(K * N);
    for (uint64_t i = 0; i < K * N; i++) x[i] = gnn_rand_fp32(&r, sp);
    gnn_pack_b(p.df, p.k, p.n, x, y);
    add_mem(&wl, p.b, y, K * N);
    free(x);
    x = xmalloc(M * N);
    for (uint64_t i = 0; i < M * N; i++) x[i] = acc ? gnn_rand_fp32(&r, sp) : 0x7fa5a5a5u;
    gnn_pack_c(p.df, p.m, p.n, x, y);
    add_mem(&wl, p.c, y, M * N);
    free(x);
    if (bias) {
      for (uint64_t i = 0; i < N; i++) y[i] = gnn_rand_fp32(&r, sp);
      add_mem(&wl, p.bias_addr, y, N);
    }
    if (gnn_mm_needs_ones(&p)) {
      for (uint64_t i = 0; i < lw; i++) y[i] = 0x3f800000u;
      add_mem(&wl, p.ones_addr, y, lw);
    }
    free(y);
    if (gnn_wl_add_check(&wl, p.c, M * N) != 0) cutil_die(kProg, "out of memory");
    wl.have_shape = 1;
    wl.shape_has_ops = 1;
    wl.shape = p;
    gnn_prog_stats_t st;
    gnn_prog_stats(&cfg, wl.prog.insn, wl.prog.n, &st);
    snprintf(line, sizeof line,
             "df=%s m=%ld k=%ld n=%ld insns=%" PRIu64 " matmuls=%" PRIu64 " loads=%" PRIu64
             " stores=%" PRIu64 " rd_words=%" PRIu64 " wr_words=%" PRIu64
             " tile=%ux%ux%u order=%s kchunks=%u",
             df_s, m, k, n, st.insns, st.matmuls, st.loads, st.stores, st.rd_words, st.wr_words,
             plan.mt, plan.kt, plan.nt, plan.order, plan.ktiles);
    snprintf(comment, sizeof comment,
             "matmul C = %sA*B%s%s%s on a %dx%d array, depths %d/%d/%d, seed %ld, special %u%%\n"
             "summary %s\n"
             "DRAM: A 0x%" PRIx64 ", B 0x%" PRIx64 ", C 0x%" PRIx64,
             act ? "relu(" : "", acc ? " + C_old" : "", bias ? " + bias" : "", act ? ")" : "",
             cfg.rows, cfg.cols, cfg.depth[0], cfg.depth[1], cfg.depth[2], seed, sp, line, p.a,
             p.b, p.c);
  } else {
    uint64_t maxd = 0;
    for (int b = 0; b < 3; b++)
      if ((uint64_t)cfg.depth[b] > maxd) maxd = (uint64_t)cfg.depth[b];
    uint64_t words = align_up(maxd + 4 * lw);
    if (words < 1024) words = 1024;
    gnn_rand_region_t rg = {0, words, words, words, 1};
    int need = bits_for(2 * words);
    if (!addr_w) addr_w = paper ? 32 : (need > 16 ? need : 16);
    if (need > addr_w)
      cutil_fail(kProg, "the random stream needs %" PRIu64 " words, more than 2^%ld", 2 * words,
                addr_w);
    cfg.addr_w = (int)addr_w;
    if (gnn_wl_init(&wl, &cfg) != 0) cutil_fail(kProg, "invalid cfg");
    const unsigned pb = bad < 0 ? 5u : (unsigned)bad, sp = special < 0 ? 5u : (unsigned)special;
    if (gnn_random_program(&cfg, (uint64_t)seed, (size_t)random_n, pb, &rg, &wl.prog, NULL, err,
                           sizeof err) != 0)
      cutil_fail(kProg, "%s", err);
    if (gnn_wl_add_random(&wl, 0, 2 * words, cutil_mix64((uint64_t)seed), sp) != 0)
      cutil_die(kProg, "out of memory");
    if (gnn_wl_add_check(&wl, rg.out_base, rg.out_words) != 0) cutil_die(kProg, "out of memory");
    gnn_prog_stats_t st;
    gnn_prog_stats(&cfg, wl.prog.insn, wl.prog.n, &st);
    snprintf(line, sizeof line,
             "df=random m=0 k=0 n=0 insns=%" PRIu64 " matmuls=%" PRIu64 " loads=%" PRIu64
             " stores=%" PRIu64 " rd_words=%" PRIu64 " wr_words=%" PRIu64 " bad=%" PRIu64,
             st.insns, st.matmuls, st.loads, st.stores, st.rd_words, st.wr_words, st.bad);
    snprintf(comment, sizeof comment,
             "random stream of %ld instructions (+6 buffer initialization LOADs), %u%% malformed,"
             " seed %ld, special %u%%\nsummary %s\n"
             "DRAM: input region 0x0 + %" PRIu64 ", output region 0x%" PRIx64 " + %" PRIu64,
             random_n, pb, seed, sp, line, words, words, words);
  }
  if (out || !summary) {
    const char *path = out ? out : "-";
    FILE *f = cutil_open_out(kProg, path);
    cutil_close_out(kProg, f, path, gnn_wl_write(f, &wl, comment));
  }
  gnn_wl_free(&wl);
  if (summary) {
    printf("%s\n", line);
    if (fflush(stdout) != 0) cutil_die(kProg, "write error on stdout");
  }
  return 0;
}
