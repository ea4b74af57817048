/* test_gnn_dense.c -- unit test of the GNNerator Dense Engine host software
 * (sw/gnnerator/libgnn_dense.c, gnn_dense.h), built with ASan/UBSan:
 *   - the DRAM layouts (pack/unpack against the LAYOUTS table by hand);
 *   - the compiler: each dataflow on five cfgs (2x2 depth 8, 4x4/16, 8x3/32, 3x8/64,
 *     16x16/256) and shapes 1x1x1, odd, K = 1, tall, wide, K beyond the banks (K split) and
 *     M, N beyond them (m/n splits), with acc, bias and ReLU: every instruction passes
 *     gnn_check, reads only the operands and writes only C, both banks are used when there is
 *     more than one tile, the program runs without an error on the golden model, and C is
 *     bit-exact against gnn_matmul_ref (OS with a K split: within 1e-4 of a double reference);
 *     special values (NaN, Inf, subnormals, signed zeros) bit-exact too; every loop order and
 *     forced small tiles (partial sums stored and loaded back); the refusals;
 *   - the random stream: every malformed instruction has the error it was made for and every
 *     error code shows over a few seeds, legal ones pass gnn_check and stay in their regions,
 *     same seed same stream, the model agrees with gnn_check;
 *   - the workload file: write/read round trip, every reader error with its line number.
 * Temporary files go to $BUILD (default build/), else /tmp.  VERBOSE=1 prints the tiler's
 * plans and each expected reader error.  Last line: "N passed, N failed".
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutil.h"
#include "gnnerator/gnn_dense.h"
#include "test_check.h"

typedef struct {
  int verbose;
  char tmp[512];
} ctx_t;

static const char *tmp_path(ctx_t *cx, const char *tag) {
  const char *dirs[2] = {getenv("BUILD") ? getenv("BUILD") : "build", "/tmp"};
  for (int i = 0; i < 2; i++) {
    snprintf(cx->tmp, sizeof cx->tmp, "%s/test_gnn_dense_%ld_%s.txt", dirs[i], (long)getpid(),
             tag);
    FILE *f = fopen(cx->tmp, "w");
    if (!f) continue;
    fclose(f);
    return cx->tmp;
  }
  fprintf(stderr, "test_gnn_dense: cannot write a temporary file\n");
  exit(1);
}

static void *xcalloc(uint64_t n) {
  void *p = calloc((size_t)(n ? n : 1), sizeof(uint32_t));
  if (!p) {
    fprintf(stderr, "test_gnn_dense: out of memory\n");
    exit(1);
  }
  return p;
}

static void cfg_of(gnn_cfg_t *cfg, int r, int c, int d, int aw) {
  if (gnn_cfg_init(cfg, r, c, d, d, d, aw) != 0) {
    fprintf(stderr, "test_gnn_dense: bad cfg %dx%d/%d\n", r, c, d);
    exit(1);
  }
}

/* ------------------------------------------------------------------ layouts */

static void test_layouts(void) {
  /* A 2x3: a[i][j] = 10 i + j; OS/IS A^T (3x2), WS A */
  uint32_t a[6], d[6], b[6], c[6];
  for (int i = 0; i < 6; i++) a[i] = (uint32_t)(10 * (i / 3) + i % 3);
  gnn_pack_a(GNN_DF_OS, 2, 3, a, d);
  const uint32_t at[6] = {0, 10, 1, 11, 2, 12};
  CHECK(!memcmp(d, at, sizeof d), "OS packs A^T");
  gnn_pack_a(GNN_DF_IS, 2, 3, a, d);
  CHECK(!memcmp(d, at, sizeof d), "IS packs A^T");
  gnn_pack_a(GNN_DF_WS, 2, 3, a, d);
  CHECK(!memcmp(d, a, sizeof d), "WS packs A");
  /* B 3x2: OS/WS B, IS B^T */
  for (int i = 0; i < 6; i++) b[i] = (uint32_t)(10 * (i / 2) + i % 2);
  gnn_pack_b(GNN_DF_IS, 3, 2, b, d);
  const uint32_t bt[6] = {0, 10, 20, 1, 11, 21};
  CHECK(!memcmp(d, bt, sizeof d), "IS packs B^T");
  gnn_pack_b(GNN_DF_OS, 3, 2, b, d);
  CHECK(!memcmp(d, b, sizeof d), "OS packs B");
  /* C 2x3: OS/IS C^T, WS C; unpack inverts pack */
  for (unsigned df = 0; df < 3; df++) {
    gnn_pack_c(df, 2, 3, a, d);
    CHECK(!memcmp(d, df == GNN_DF_WS ? a : at, sizeof d), "pack C df %u", df);
    gnn_unpack_c(df, 2, 3, d, c);
    CHECK(!memcmp(c, a, sizeof c), "unpack C df %u", df);
  }
  CHECK(!strcmp(gnn_df_name(2), "is") && gnn_df_find("ws") == 1 && gnn_df_find("x") < 0 &&
            !strcmp(gnn_df_name(7), "?"),
        "dataflow names");
}

/* ------------------------------------------------------------------ compiler */

typedef struct {
  unsigned mt, kt, nt;
  const char *order;
} force_t;

/* Compiles and runs one matmul; checks everything the header promises.  expect_k: 1 a K
 * split is required, 0 forbidden, -1 either; expect_mn likewise for more than one m- or
 * n-tile; fo (may be NULL) forces tiles and/or the loop order. */
static void run_mm(ctx_t *cx, const gnn_cfg_t *cfg, unsigned df, unsigned M, unsigned K,
                   unsigned N, unsigned acc, unsigned act, unsigned bias, unsigned special,
                   int expect_k, int expect_mn, const force_t *fo, uint64_t seed) {
  char tag[160];
  snprintf(tag, sizeof tag, "%dx%d/%d %s %ux%ux%u acc=%u act=%u bias=%u sp=%u%s%s", cfg->rows,
           cfg->cols, cfg->depth[0], gnn_df_name(df), M, K, N, acc, act, bias, special,
           fo ? " order=" : "", fo && fo->order ? fo->order : "");
  const uint64_t MK = (uint64_t)M * K, KN = (uint64_t)K * N, MN = (uint64_t)M * N;
  gnn_mm_params_t p;
  memset(&p, 0, sizeof p);
  p.df = df, p.m = M, p.k = K, p.n = N, p.acc = acc, p.act = act, p.bias = bias;
  /* odd, unaligned bases */
  p.a = 3, p.b = p.a + MK + 7, p.c = p.b + KN + 1, p.bias_addr = p.c + MN + 2;
  p.ones_addr = p.bias_addr + N + 5;
  const uint64_t end = p.ones_addr + (uint64_t)cfg->lw;
  if (fo) p.tile_m = fo->mt, p.tile_k = fo->kt, p.tile_n = fo->nt, p.order = fo->order;
  gnn_prog_t prog;
  gnn_mm_plan_t plan;
  char err[400];
  int rc = gnn_compile_matmul(cfg, &p, &prog, &plan, err, sizeof err);
  CHECK(rc == 0, "%s: compile: %s", tag, err);
  if (rc) return;
  if (cx->verbose)
    printf("plan %s: tile %ux%ux%u tiles %u/%u/%u order %s%s insns %zu est mem %" PRIu64
           " ex %" PRIu64 "\n",
           tag, plan.mt, plan.kt, plan.nt, plan.mtiles, plan.ktiles, plan.ntiles, plan.order,
           plan.bias_mm ? " bias-matmul" : "", prog.n, plan.est_mem_lines, plan.est_ex_cycles);
  if (expect_k >= 0) CHECK((plan.ktiles > 1) == expect_k, "%s: K split %u", tag, plan.ktiles);
  if (expect_mn >= 0)
    CHECK((plan.mtiles * plan.ntiles > 1) == expect_mn, "%s: m/n tiles %u %u", tag, plan.mtiles,
          plan.ntiles);
  if (fo && fo->order) CHECK(!strcmp(plan.order, fo->order), "%s: order %s", tag, plan.order);
  CHECK(plan.bias_mm == gnn_mm_needs_ones(&p), "%s: bias_mm", tag);
  /* static properties of every instruction */
  int bad_check = 0, bad_region = 0, bank1 = 0, bad_bank = 0;
  unsigned mm_all = 0;
  int last_bank[3] = {-1, -1, -1}; /* banks of the most recent MATMUL */
  size_t last_mm = 0;
  for (size_t i = 0; i < prog.n; i++)
    if (gnn_get(&prog.insn[i], GNN_F_OP) == GNN_OP_MATMUL) last_mm = i;
  uint64_t rd = 0, wr = 0;
  for (size_t i = 0; i < prog.n; i++) {
    const gnn_insn_t *in = &prog.insn[i];
    if (gnn_check(cfg, in) != GNN_OK) {
      if (!bad_check++) {
        char s[200];
        CHECK(0, "%s: insn %zu %s fails %s", tag, i, gnn_insn_str(in, s, sizeof s),
              gnn_err_name(gnn_check(cfg, in)));
      }
      continue;
    }
    gnn_fields_t f;
    gnn_fields(in, &f);
    if (f.op == GNN_OP_LOAD || f.op == GNN_OP_STORE) {
      uint64_t lo = f.addr, hi = f.addr + (uint64_t)(f.n - 1) * f.stride + f.w;
      int ok;
      if (f.op == GNN_OP_STORE) ok = lo >= p.c && hi <= p.c + MN, wr += (uint64_t)f.n * f.w;
      else {
        ok = (lo >= p.a && hi <= p.a + MK) || (lo >= p.b && hi <= p.b + KN) ||
             (lo >= p.c && hi <= p.c + MN) ||
             (bias && lo >= p.bias_addr && hi <= p.bias_addr + N) ||
             (plan.bias_mm && lo >= p.ones_addr && hi <= p.ones_addr + (uint64_t)cfg->lw);
        rd += (uint64_t)f.n * f.w;
      }
      if (!ok && !bad_region++) {
        char s[200];
        CHECK(0, "%s: insn %zu %s leaves the operand regions", tag, i,
              gnn_insn_str(in, s, sizeof s));
      }
      if (f.op == GNN_OP_LOAD && f.line >= (unsigned)cfg->depth[f.buf]) bank1 = 1;
      /* double buffering: a LOAD or STORE never touches a bank the MATMUL before it uses
       * (but the STOREs of the last tile, after the last MATMUL) */
      unsigned b = f.op == GNN_OP_LOAD ? f.buf : GNN_BUF_OUT;
      if (b < 3 && i < last_mm && last_bank[b] == (int)(f.line / (unsigned)cfg->depth[b]) &&
          !bad_bank++) {
        char s[200];
        CHECK(0, "%s: insn %zu %s uses the bank of the MATMUL before it", tag, i,
              gnn_insn_str(in, s, sizeof s));
      }
    } else if (f.op == GNN_OP_MATMUL) {
      CHECK(f.df == df, "%s: MATMUL dataflow", tag);
      if (f.in >= (unsigned)cfg->depth[0] || f.wt >= (unsigned)cfg->depth[1] ||
          f.out >= (unsigned)cfg->depth[2])
        bank1 = 1;
      mm_all++;
      last_bank[0] = (int)(f.in / (unsigned)cfg->depth[0]);
      last_bank[1] = (int)(f.wt / (unsigned)cfg->depth[1]);
      last_bank[2] = (int)(f.out / (unsigned)cfg->depth[2]);
    } else {
      CHECK(0, "%s: unexpected %s", tag, gnn_op_name(f.op));
    }
  }
  CHECK(!bad_check && !bad_region && !bad_bank,
        "%s: %d failing, %d out-of-region, %d same-bank instructions", tag, bad_check, bad_region,
        bad_bank);
  const unsigned tiles = plan.mtiles * plan.ntiles * plan.ktiles;
  CHECK(tiles == 1 || bank1, "%s: %u tiles but bank 1 unused", tag, tiles);
  CHECK(mm_all == tiles + (plan.bias_mm ? plan.mtiles * plan.ntiles : 0),
        "%s: %u MATMULs for %u tiles", tag, mm_all, tiles);
  gnn_prog_stats_t st;
  gnn_prog_stats(cfg, prog.insn, prog.n, &st);
  CHECK(st.bad == 0 && st.rd_words == rd && st.wr_words == wr && st.matmuls == mm_all,
        "%s: stats", tag);
  /* every C word written exactly once per visit; at least once */
  CHECK(wr >= MN, "%s: %" PRIu64 " words stored for %" PRIu64, tag, wr, MN);
  /* data */
  cutil_rng_t r = cutil_rng_seed(seed);
  uint32_t *a = xcalloc(MK), *b = xcalloc(KN), *c0 = xcalloc(MN), *bi = xcalloc(N);
  uint32_t *t = xcalloc(MK > KN ? (MK > MN ? MK : MN) : (KN > MN ? KN : MN)), *got = xcalloc(MN);
  for (uint64_t i = 0; i < MK; i++) a[i] = gnn_rand_fp32(&r, special);
  for (uint64_t i = 0; i < KN; i++) b[i] = gnn_rand_fp32(&r, special);
  for (uint64_t i = 0; i < MN; i++) c0[i] = gnn_rand_fp32(&r, special);
  for (uint64_t i = 0; i < N; i++) bi[i] = gnn_rand_fp32(&r, special);
  gnn_model_t *m = gnn_model_new(cfg);
  CHECK(m != NULL, "%s: model", tag);
  if (!m) goto out;
  gnn_pack_a(df, M, K, a, t);
  for (uint64_t i = 0; i < MK; i++) gnn_mem_wr(m, p.a + i, t[i]);
  gnn_pack_b(df, K, N, b, t);
  for (uint64_t i = 0; i < KN; i++) gnn_mem_wr(m, p.b + i, t[i]);
  gnn_pack_c(df, M, N, c0, t);
  for (uint64_t i = 0; i < MN; i++) gnn_mem_wr(m, p.c + i, acc ? t[i] : 0x7fa5a5a5u);
  for (uint64_t i = 0; i < N; i++) gnn_mem_wr(m, p.bias_addr + i, bi[i]);
  for (int i = 0; i < cfg->lw; i++) gnn_mem_wr(m, p.ones_addr + (uint64_t)i, 0x3f800000u);
  gnn_mem_wr(m, end, 0x12345678u); /* a guard word after the layout */
  int errs = 0;
  for (size_t i = 0; i < prog.n; i++) errs += gnn_model_exec(m, &prog.insn[i]) != GNN_OK;
  CHECK(errs == 0, "%s: %d instructions failed on the model", tag, errs);
  int untouched = gnn_mem_rd(m, end) == 0x12345678u && gnn_mem_rd(m, p.c - 1) == 0 &&
                  gnn_mem_rd(m, p.c + MN) == 0;
  gnn_pack_a(df, M, K, a, t);
  for (uint64_t i = 0; i < MK; i++) untouched &= gnn_mem_rd(m, p.a + i) == t[i];
  CHECK(untouched, "%s: memory outside C changed", tag);
  for (uint64_t i = 0; i < MN; i++) t[i] = gnn_mem_rd(m, p.c + i);
  gnn_unpack_c(df, M, N, t, got);
  int exact = gnn_mm_exact(&p, prog.insn, prog.n);
  CHECK(exact == !(df == GNN_DF_OS && plan.ktiles > 1), "%s: exact=%d with %u K chunks", tag,
        exact, plan.ktiles);
  char msg[300];
  uint64_t nbad = gnn_mm_verify(&p, exact, a, b, c0, bi, got, msg, sizeof msg);
  CHECK(nbad == 0, "%s: %s", tag, msg);
  if (!exact && special == 0) {
    /* the tolerance check is not vacuous: a wrong element is caught */
    got[MN / 2] ^= 0x40000000u;
    CHECK(gnn_mm_verify(&p, 0, a, b, c0, bi, got, msg, sizeof msg) == 1, "%s: tolerance", tag);
  }
  gnn_model_free(m);
out:
  free(a), free(b), free(c0), free(bi), free(t), free(got);
  gnn_prog_free(&prog);
}

static void test_compiler(ctx_t *cx) {
  static const int kCfg[5][3] = {{2, 2, 8}, {4, 4, 16}, {8, 3, 32}, {3, 8, 64}, {16, 16, 256}};
  /* acc, act, bias */
  static const unsigned kFlags[4][3] = {{0, 0, 0}, {1, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  uint64_t seed = 1;
  for (int ci = 0; ci < 5; ci++) {
    gnn_cfg_t cfg;
    cfg_of(&cfg, kCfg[ci][0], kCfg[ci][1], kCfg[ci][2], 24);
    const unsigned R = (unsigned)cfg.rows, C = (unsigned)cfg.cols, D = (unsigned)cfg.depth[0];
    const unsigned L = (unsigned)cfg.lw;
    for (unsigned df = 0; df < 3; df++) {
      /* K beyond what one bank holds with a 1-wide tile: OS D lines of K, WS D blocks of R
       * (IN) and D/R blocks (WT), IS D/R blocks; 3 D is beyond all of them */
      const unsigned kbig = 3 * D + 1;
      /* M and N whose output tile exceeds one OUT bank in every dataflow */
      const unsigned mbig = 2 * L + 1, nbig = D + 1;
      const struct { unsigned m, k, n; int ek, emn; } sh[8] = {
          {1, 1, 1, 0, 0},           {5, 7, 3, -1, -1},      {9, 1, 7, 0, -1},
          {3 * L + 1, 5, 3, -1, -1}, {3, 5, 3 * L + 2, -1, -1}, {7, kbig, 5, 1, -1},
          {mbig, 3, nbig, -1, 1},    {2 * R + 1, 2 * D + 3, 2 * C + 1, 1, -1}};
      for (int si = 0; si < 8; si++)
        for (int fl = 0; fl < 4; fl++) {
          /* keep the 16x16 runs small: the big shapes with one flag set only */
          if (ci == 4 && si >= 5 && fl != 3) continue;
          run_mm(cx, &cfg, df, sh[si].m, sh[si].k, sh[si].n, kFlags[fl][0], kFlags[fl][1],
                 kFlags[fl][2], 0, fl == 0 ? sh[si].ek : -1, fl == 0 ? sh[si].emn : -1, NULL,
                 seed++);
        }
      /* special values: bit-exact where no OS K split; the tolerance with one */
      run_mm(cx, &cfg, df, 2 * R + 1, 2 * C + 3, C + 2, 1, 1, 1, 15, -1, -1, NULL, seed++);
      run_mm(cx, &cfg, df, 5, kbig, 3, 0, 0, 1, 10, 1, -1, NULL, seed++);
    }
  }
  /* every loop order with forced small tiles: partial sums out and back, bias, acc, act */
  static const char *const kOrd[6] = {"nmk", "mnk", "nkm", "mkn", "knm", "kmn"};
  gnn_cfg_t cfg;
  cfg_of(&cfg, 4, 4, 16, 20);
  for (unsigned df = 0; df < 3; df++)
    for (int o = 0; o < 6; o++)
      for (int fl = 0; fl < 4; fl++) {
        force_t fo = {df == GNN_DF_WS ? 3u : 4u, df == GNN_DF_OS ? 3u : 4u,
                      df == GNN_DF_IS ? 3u : 4u, kOrd[o]};
        run_mm(cx, &cfg, df, 13, 11, 9, kFlags[fl][0], kFlags[fl][1], kFlags[fl][2],
               fl == 3 ? 5 : 0, 1, 1, &fo, seed++);
      }
  /* order only, and a tile that is the whole problem (one step, no bank 1) */
  force_t fo_ord = {0, 0, 0, "kmn"};
  run_mm(cx, &cfg, GNN_DF_WS, 30, 40, 20, 1, 0, 1, 0, -1, -1, &fo_ord, seed++);
  force_t fo_all = {5, 3, 2, NULL};
  run_mm(cx, &cfg, GNN_DF_OS, 5, 3, 2, 0, 1, 0, 0, 0, 0, &fo_all, seed++);
  /* a cfg with unequal depths and a 1x1 array */
  gnn_cfg_t c2;
  CHECK(gnn_cfg_init(&c2, 3, 5, 7, 40, 9, 22) == 0, "cfg 3x5 7/40/9");
  for (unsigned df = 0; df < 3; df++)
    for (int fl = 0; fl < 4; fl++)
      run_mm(cx, &c2, df, 17, 23, 19, kFlags[fl][0], kFlags[fl][1], kFlags[fl][2], 0, -1, -1,
             NULL, seed++);
  CHECK(gnn_cfg_init(&c2, 1, 1, 1, 1, 2, 20) == 0, "cfg 1x1 1/1/2");
  for (unsigned df = 0; df < 3; df++) run_mm(cx, &c2, df, 3, 4, 2, 1, 1, 0, 0, 1, 1, NULL, seed++);
}


/* Cycle budgets (schedule regressions): an 8x8 array, depth 256, read latency 10; the exact
 * cycle model's count over the standard systolic formula plus the fill (the first tile's load)
 * must stay under a bound measured with the tiler of this version (+1 %), and the tiler's own
 * estimate (plan.est_cycles) within 1 % of the exact count. */
static void test_cycle_budget(void) {
  static const struct { unsigned df, m, k, n; double bound; } kB[] = {
      {GNN_DF_OS, 100, 60, 24, 1.02},  {GNN_DF_OS, 300, 200, 40, 1.011},
      {GNN_DF_OS, 200, 300, 100, 1.056}, {GNN_DF_OS, 500, 120, 16, 1.011},
      {GNN_DF_WS, 100, 60, 24, 1.067}, {GNN_DF_WS, 300, 200, 40, 1.10},
      {GNN_DF_WS, 200, 300, 100, 1.026}, {GNN_DF_WS, 500, 120, 16, 1.087},
      {GNN_DF_IS, 100, 60, 24, 1.08},  {GNN_DF_IS, 300, 200, 40, 1.06},
      {GNN_DF_IS, 200, 300, 100, 1.036}, {GNN_DF_IS, 500, 120, 16, 1.09}};
  gnn_cfg_t cfg;
  cfg_of(&cfg, 8, 8, 256, 24);
  for (size_t i = 0; i < sizeof kB / sizeof kB[0]; i++) {
    const uint64_t M = kB[i].m, K = kB[i].k, N = kB[i].n, R = 8, C = 8;
    gnn_mm_params_t p;
    memset(&p, 0, sizeof p);
    p.df = kB[i].df, p.m = kB[i].m, p.k = kB[i].k, p.n = kB[i].n, p.mem_latency = 10;
    p.a = 0, p.b = M * K, p.c = p.b + K * N;
    gnn_prog_t prog;
    gnn_mm_plan_t plan;
    char err[300];
    int rc = gnn_compile_matmul(&cfg, &p, &prog, &plan, err, sizeof err);
    CHECK(rc == 0, "budget %s %ux%ux%u: %s", gnn_df_name(p.df), p.m, p.k, p.n, err);
    if (rc) continue;
    gnn_memtiming_t mt = {10};
    gnn_cyc_stats_t st;
    CHECK(gnn_cycles(&cfg, &mt, prog.insn, prog.n, &st) == 0, "budget: gnn_cycles");
    uint64_t f;
    if (p.df == GNN_DF_OS) f = ((M + R - 1) / R) * ((N + C - 1) / C) * (K + R + C - 2);
    else if (p.df == GNN_DF_WS) f = ((K + R - 1) / R) * ((N + C - 1) / C) * (2 * R + C + M - 2);
    else f = ((K + R - 1) / R) * ((M + C - 1) / C) * (2 * R + C + N - 2);
    const double ratio = (double)st.cycles / (double)(f + st.first_ex);
    const double dev = fabs((double)plan.est_cycles - (double)st.cycles) / (double)st.cycles;
    CHECK(ratio <= kB[i].bound, "budget %s %ux%ux%u: %" PRIu64 " cycles, ratio %.4f > %.3f (tile "
          "%ux%ux%u %s)", gnn_df_name(p.df), p.m, p.k, p.n, st.cycles, ratio, kB[i].bound,
          plan.mt, plan.kt, plan.nt, plan.order);
    CHECK(dev <= 0.01, "budget %s %ux%ux%u: estimate %" PRIu64 " vs %" PRIu64 " cycles",
          gnn_df_name(p.df), p.m, p.k, p.n, plan.est_cycles, st.cycles);
    gnn_prog_free(&prog);
  }
}

static void expect_refusal(const gnn_cfg_t *cfg, const gnn_mm_params_t *p, const char *want,
                           const char *what) {
  gnn_prog_t prog;
  char err[400] = "";
  int rc = gnn_compile_matmul(cfg, p, &prog, NULL, err, sizeof err);
  CHECK(rc == -1 && strstr(err, want) && prog.n == 0 && !strchr(err, '\n'),
        "%s: rc %d err '%s' (want '%s')", what, rc, err, want);
  if (rc == 0) gnn_prog_free(&prog);
}

static void test_refusals(void) {
  gnn_cfg_t cfg;
  cfg_of(&cfg, 4, 4, 16, 12);
  gnn_mm_params_t p;
  memset(&p, 0, sizeof p);
  p.df = GNN_DF_OS, p.m = 8, p.k = 8, p.n = 8, p.a = 0, p.b = 64, p.c = 128;
  gnn_mm_params_t q = p;
  q.df = 3;
  expect_refusal(&cfg, &q, "dataflow 3 out of range", "df 3");
  q = p, q.m = 0;
  expect_refusal(&cfg, &q, "must be 1..65535", "M 0");
  q = p, q.n = 65536;
  expect_refusal(&cfg, &q, "must be 1..65535", "N 65536");
  q = p, q.act = 2;
  expect_refusal(&cfg, &q, "bad acc, act or bias", "act 2");
  q = p, q.c = 4090;
  expect_refusal(&cfg, &q, "C at 0xffa (64 words) runs past the 2^12-word DRAM", "C past DRAM");
  q = p, q.c = 60;
  expect_refusal(&cfg, &q, "C at 0x3c overlaps A", "C over A");
  q = p, q.bias = 1, q.bias_addr = 200, q.ones_addr = 130;
  expect_refusal(&cfg, &q, "overlaps the ones vector", "C over ones");
  q = p, q.bias = 1, q.bias_addr = 4095;
  expect_refusal(&cfg, &q, "the bias at 0xfff (8 words) runs past", "bias past DRAM");
  q = p, q.tile_m = 4;
  expect_refusal(&cfg, &q, "give all three tile sizes or none", "partial tile");
  q = p, q.k = 20, q.b = 256, q.c = 512, q.tile_m = 8, q.tile_k = 20, q.tile_n = 8;
  expect_refusal(&cfg, &q, "tile 8x20x8 does not fit", "big tile");
  q = p, q.order = "mmk";
  expect_refusal(&cfg, &q, "bad loop order 'mmk'", "bad order");
  gnn_cfg_t wide;
  cfg_of(&wide, 4, 4, 16, 16);
  q = p, q.m = 64, q.k = 64, q.n = 64, q.a = 0, q.b = 4096, q.c = 8192, q.max_insns = 20;
  expect_refusal(&wide, &q, "needs more than 20 instructions", "max_insns");
  /* WS needs R lines of WT, IS R lines of IN */
  gnn_cfg_t small;
  CHECK(gnn_cfg_init(&small, 16, 4, 8, 8, 8, 12) == 0, "cfg 16x4/8");
  q = p, q.df = GNN_DF_WS;
  expect_refusal(&small, &q, "the ws dataflow does not fit this cfg", "WS R > depth");
  q = p, q.df = GNN_DF_IS;
  expect_refusal(&small, &q, "the is dataflow does not fit this cfg", "IS R > depth");
  gnn_cfg_t bad = cfg;
  bad.rows = 65;
  expect_refusal(&bad, &p, "invalid cfg", "bad cfg");
  /* gnn_mm_needs_ones */
  q = p, q.bias = 1;
  CHECK(gnn_mm_needs_ones(&q), "OS bias needs ones");
  q.df = GNN_DF_IS;
  CHECK(gnn_mm_needs_ones(&q), "IS bias needs ones");
  q.df = GNN_DF_WS;
  CHECK(!gnn_mm_needs_ones(&q), "WS bias without acc: stride-0 LOAD");
  q.acc = 1;
  CHECK(gnn_mm_needs_ones(&q), "WS bias with acc needs ones");
  q.bias = 0;
  CHECK(!gnn_mm_needs_ones(&q), "no bias no ones");
  /* the WS stride-0 bias LOAD */
  q = p, q.df = GNN_DF_WS, q.bias = 1, q.bias_addr = 300;
  gnn_prog_t prog;
  char err[300];
  int stride0 = 0;
  if (gnn_compile_matmul(&cfg, &q, &prog, NULL, err, sizeof err) == 0) {
    for (size_t i = 0; i < prog.n; i++) {
      gnn_fields_t f;
      gnn_fields(&prog.insn[i], &f);
      stride0 |= f.op == GNN_OP_LOAD && f.buf == GNN_BUF_OUT && f.stride == 0 && f.addr == 300;
    }
    gnn_prog_free(&prog);
  }
  CHECK(stride0, "WS bias: stride-0 LOAD into OUT");
}

/* ------------------------------------------------------------------ random streams */

static void test_random(void) {
  static const int kCfg[4][3] = {{4, 4, 16}, {2, 2, 8}, {8, 3, 32}, {3, 8, 64}};
  unsigned seen[7] = {0};
  int stride0 = 0, full_w = 0, dfs = 0, accs = 0, acts = 0, ops = 0;
  for (int s = 1; s <= 4; s++) {
    gnn_cfg_t cfg;
    cfg_of(&cfg, kCfg[s - 1][0], kCfg[s - 1][1], kCfg[s - 1][2], 16);
    const uint64_t words = 1024;
    gnn_rand_region_t rg = {100, words, 100 + words + 50, words, 1};
    gnn_prog_t prog, again, other;
    unsigned char *intent = NULL;
    char err[300];
    int rc = gnn_random_program(&cfg, (uint64_t)s, 3000, 12, &rg, &prog, &intent, err, sizeof err);
    CHECK(rc == 0, "random %d: %s", s, err);
    if (rc) continue;
    CHECK(prog.n == 3006, "random %d: %zu instructions", s, prog.n);
    int mism = 0, region = 0, model_mism = 0;
    unsigned nbad = 0;
    gnn_model_t *m = gnn_model_new(&cfg);
    for (size_t i = 0; i < prog.n; i++) {
      int e = gnn_check(&cfg, &prog.insn[i]);
      if (e != intent[i] && !mism++) {
        char str[200];
        CHECK(0, "random %d insn %zu %s: check %s, made for %s", s, i,
              gnn_insn_str(&prog.insn[i], str, sizeof str), gnn_err_name(e),
              gnn_err_name(intent[i]));
      }
      if (m && gnn_model_exec(m, &prog.insn[i]) != e) model_mism++;
      if (e) {
        seen[e]++, nbad++;
        continue;
      }
      gnn_fields_t f;
      gnn_fields(&prog.insn[i], &f);
      ops |= 1 << f.op;
      if (f.op == GNN_OP_LOAD || f.op == GNN_OP_STORE) {
        uint64_t lo = f.addr, hi = f.addr + (uint64_t)(f.n - 1) * f.stride + f.w;
        int in_in = lo >= rg.in_base && hi <= rg.in_base + rg.in_words;
        int in_out = lo >= rg.out_base && hi <= rg.out_base + rg.out_words;
        if (f.op == GNN_OP_STORE ? !in_out : !(in_in || in_out)) region++;
        stride0 |= f.stride == 0 && f.n > 1;
        full_w |= f.w == (unsigned)cfg.lw;
      }
      if (f.op == GNN_OP_MATMUL) dfs |= 1 << f.df, accs |= 1 << f.acc, acts |= 1 << f.act;
    }
    gnn_model_free(m);
    CHECK(!mism && !region && !model_mism, "random %d: %d intent, %d region, %d model mismatches",
          s, mism, region, model_mism);
    CHECK(nbad > 3000 * 6 / 100 && nbad < 3000 * 18 / 100, "random %d: %u malformed of 3000", s,
          nbad);
    /* the prologue writes every line of both banks of every buffer */
    for (unsigned b = 0; b < 3; b++)
      for (unsigned bank = 0; bank < 2; bank++) {
        gnn_fields_t f;
        gnn_fields(&prog.insn[b * 2 + bank], &f);
        CHECK(f.op == GNN_OP_LOAD && f.buf == b && f.line == bank * (unsigned)cfg.depth[b] &&
                  f.n == (unsigned)cfg.depth[b] && f.w == (unsigned)cfg.lw,
              "random %d: prologue %u/%u", s, b, bank);
      }
    rc = gnn_random_program(&cfg, (uint64_t)s, 3000, 12, &rg, &again, NULL, err, sizeof err);
    CHECK(rc == 0 && again.n == prog.n &&
              !memcmp(again.insn, prog.insn, prog.n * sizeof *prog.insn),
          "random %d: same seed, same stream", s);
    rc = gnn_random_program(&cfg, (uint64_t)s + 100, 3000, 12, &rg, &other, NULL, err, sizeof err);
    CHECK(rc == 0 && memcmp(other.insn + 6, prog.insn + 6, 100 * sizeof *prog.insn),
          "random %d: another seed, another stream", s);
    gnn_prog_free(&prog), gnn_prog_free(&again), gnn_prog_free(&other);
    free(intent);
  }
  for (int e = 1; e <= 6; e++)
    CHECK(seen[e] > 20, "error %s seen %u times", gnn_err_name(e), seen[e]);
  CHECK(stride0 && full_w, "stride 0 and full-width LOAD/STORE");
  CHECK(dfs == 7 && accs == 3 && acts == 3, "MATMUL dataflows %x acc %x act %x", dfs, accs, acts);
  CHECK(ops == 0x7e, "every opcode legal at least once (%x)", ops);
  /* no malformed ones at 0 %, all malformed at 100 %; refusals */
  gnn_cfg_t cfg;
  cfg_of(&cfg, 4, 4, 16, 16);
  gnn_rand_region_t rg = {0, 512, 512, 512, 0};
  gnn_prog_t prog;
  unsigned char *intent;
  char err[300];
  int bad = 0;
  if (gnn_random_program(&cfg, 9, 500, 0, &rg, &prog, &intent, err, sizeof err) == 0) {
    for (size_t i = 0; i < prog.n; i++)
      bad += gnn_check(&cfg, &prog.insn[i]) != GNN_OK || intent[i];
    CHECK(prog.n == 500 && bad == 0, "0%% malformed: %d bad", bad);
    gnn_prog_free(&prog);
    free(intent);
  } else {
    CHECK(0, "random 0%%: %s", err);
  }
  bad = 0;
  if (gnn_random_program(&cfg, 9, 500, 100, &rg, &prog, NULL, err, sizeof err) == 0) {
    for (size_t i = 0; i < prog.n; i++) bad += gnn_check(&cfg, &prog.insn[i]) != GNN_OK;
    CHECK(bad == 500, "100%% malformed: %d bad", bad);
    gnn_prog_free(&prog);
  }
  gnn_rand_region_t small = {0, 20, 512, 512, 0};
  CHECK(gnn_random_program(&cfg, 1, 5, 0, &small, &prog, NULL, err, sizeof err) == -1 &&
            strstr(err, "need at least 24 words"),
        "small region refused: %s", err);
  gnn_rand_region_t ovl = {0, 512, 500, 512, 0};
  CHECK(gnn_random_program(&cfg, 1, 5, 0, &ovl, &prog, NULL, err, sizeof err) == -1 &&
            strstr(err, "overlap"),
        "overlapping regions refused: %s", err);
  gnn_rand_region_t past = {0, 512, 65536 - 100, 512, 0};
  CHECK(gnn_random_program(&cfg, 1, 5, 0, &past, &prog, NULL, err, sizeof err) == -1 &&
            strstr(err, "runs past"),
        "region past DRAM refused: %s", err);
  CHECK(gnn_random_program(&cfg, 1, 5, 101, &rg, &prog, NULL, err, sizeof err) == -1,
        "pct_bad 101 refused");
  /* random data: specials at the rate asked, values in [-1, 1) otherwise */
  cutil_rng_t r = cutil_rng_seed(5);
  int special = 0, out = 0, negz = 0, nan = 0, inf = 0, sub = 0;
  for (int i = 0; i < 20000; i++) {
    uint32_t u = gnn_rand_fp32(&r, 10);
    float x;
    memcpy(&x, &u, sizeof x);
    int spc = isnan(x) || isinf(x) || (x != 0 && fabsf(x) < 1.2e-38f) || u == 0x00800000u ||
              u == 0x80800000u;
    special += spc || u == 0 || u == 0x80000000u;
    out += !spc && !(x >= -1.0f && x < 1.0f);
    negz |= u == 0x80000000u, nan |= isnan(x), inf |= isinf(x);
    sub |= x != 0 && fabsf(x) < 1.17e-38f;
  }
  CHECK(special > 1700 && special < 2300 && !out && negz && nan && inf && sub,
        "gnn_rand_fp32: %d specials of 20000, %d out of range", special, out);
  uint32_t d1[64], d2[64];
  gnn_fill_random(3, 0, d1, 64);
  gnn_fill_random(3, 0, d2, 64);
  CHECK(!memcmp(d1, d2, sizeof d1), "gnn_fill_random deterministic");
}

/* ------------------------------------------------------------------ workload files */

static int wl_equal(const gnn_wl_t *x, const gnn_wl_t *y) {
  if (memcmp(&x->cfg, &y->cfg, sizeof x->cfg) || x->have_shape != y->have_shape ||
      x->shape_has_ops != y->shape_has_ops || x->n_mem != y->n_mem || x->prog.n != y->prog.n ||
      x->n_check != y->n_check)
    return 0;
  if (x->have_shape) {
    const gnn_mm_params_t *a = &x->shape, *b = &y->shape;
    if (a->df != b->df || a->m != b->m || a->k != b->k || a->n != b->n || a->acc != b->acc ||
        a->act != b->act || a->bias != b->bias || a->a != b->a || a->b != b->b || a->c != b->c ||
        (a->bias && a->bias_addr != b->bias_addr) ||
        (gnn_mm_needs_ones(a) && a->ones_addr != b->ones_addr))
      return 0;
  }
  for (size_t i = 0; i < x->n_mem; i++)
    if (x->mem[i].addr != y->mem[i].addr || x->mem[i].n != y->mem[i].n ||
        memcmp(x->mem[i].data, y->mem[i].data, (size_t)x->mem[i].n * 4))
      return 0;
  for (size_t i = 0; i < x->n_check; i++)
    if (x->check[i].addr != y->check[i].addr || x->check[i].n != y->check[i].n) return 0;
  return !x->prog.n || !memcmp(x->prog.insn, y->prog.insn, x->prog.n * sizeof *x->prog.insn);
}

static const char *write_text(ctx_t *cx, const char *tag, const char *text) {
  const char *p = tmp_path(cx, tag);
  FILE *f = fopen(p, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "test_gnn_dense: cannot write %s\n", p);
    exit(1);
  }
  return p;
}

static void test_workload(ctx_t *cx) {
  gnn_cfg_t cfg;
  if (gnn_cfg_init(&cfg, 3, 5, 8, 16, 32, 14) != 0) exit(1);
  gnn_wl_t wl, back;
  CHECK(gnn_wl_init(&wl, &cfg) == 0, "wl init");
  wl.have_shape = 1, wl.shape_has_ops = 1;
  wl.shape.df = GNN_DF_IS, wl.shape.m = 3, wl.shape.k = 4, wl.shape.n = 5;
  wl.shape.acc = 1, wl.shape.act = 1, wl.shape.bias = 1;
  wl.shape.a = 0x10, wl.shape.b = 0x20, wl.shape.c = 0x40, wl.shape.bias_addr = 0x60;
  wl.shape.ones_addr = 0x70;
  uint32_t d[100];
  gnn_fill_random(7, 20, d, 100);
  CHECK(gnn_wl_add_mem(&wl, 0, d, 100) == 0 && gnn_wl_add_mem(&wl, 90, d, 17) == 0 &&
            gnn_wl_add_mem(&wl, 16383, d + 5, 1) == 0,
        "add mem");
  CHECK(gnn_wl_add_mem(&wl, 16383, d, 2) == -1 && gnn_wl_add_mem(&wl, 5, d, 0) == -1,
        "add mem refusals");
  CHECK(gnn_wl_add_random(&wl, 200, 30, 9, 50) == 0 && wl.n_mem == 4 && wl.mem[3].n == 30 &&
            gnn_wl_add_random(&wl, 16380, 5, 9, 0) == -1,
        "add random");
  {
    uint32_t e[30];
    gnn_fill_random(9, 50, e, 30);
    CHECK(!memcmp(e, wl.mem[3].data, sizeof e), "add random = gnn_fill_random");
  }
  CHECK(gnn_wl_add_check(&wl, 0x40, 15) == 0 && gnn_wl_add_check(&wl, 1, 16383) == 0 &&
            gnn_wl_add_check(&wl, 1, 16384) == -1,
        "add check");
  gnn_rand_region_t rg = {0, 4096, 4096, 4096, 1};
  char err[400];
  CHECK(gnn_random_program(&cfg, 3, 200, 20, &rg, &wl.prog, NULL, err, sizeof err) == 0,
        "program: %s", err);
  const char *p = tmp_path(cx, "rt");
  char path[512];
  snprintf(path, sizeof path, "%s", p);
  FILE *f = fopen(path, "w");
  CHECK(f && gnn_wl_write(f, &wl, "a comment\nof two lines") == 0 && fclose(f) == 0, "write");
  int rc = gnn_wl_read(path, &back, err, sizeof err);
  CHECK(rc == 0, "read back: %s", err);
  if (!rc) {
    CHECK(wl_equal(&wl, &back), "round trip equal");
    gnn_model_t *m = gnn_wl_model(&back);
    CHECK(m && gnn_mem_rd(m, 89) == d[89] && gnn_mem_rd(m, 90) == d[0] &&
              gnn_mem_rd(m, 106) == d[16] && gnn_mem_rd(m, 107) == 0 &&
              gnn_mem_rd(m, 16383) == d[5],
          "model image: later records win, the rest 0");
    gnn_model_free(m);
    gnn_wl_free(&back);
  }
  /* a shape without operands; comments, CRLF, several words a line, 0x prefixes */
  const char *ok = write_text(cx, "ok",
                              "# hdr\r\ngnn-workload 1   # v1\r\n\r\ncfg 4 4 16 16 16 8\r\n"
                              "shape ws 2 3 4\r\nmem 0x10 5\r\n0x1 2 3\r\n"
                              "fFfFfFfF 00000000\r\ncheck 0 256\r\n"
                              "insn 0 0 0 0x1\r\n");
  rc = gnn_wl_read(ok, &back, err, sizeof err);
  CHECK(rc == 0 && back.have_shape && !back.shape_has_ops && back.shape.df == GNN_DF_WS &&
            back.n_mem == 1 && back.mem[0].addr == 16 && back.mem[0].data[3] == 0xffffffffu &&
            back.n_check == 1 && back.check[0].n == 256 && back.prog.n == 1 &&
            back.prog.insn[0].w[0] == 1 && back.prog.insn[0].w[3] == 0,
        "hand-written file: %s", err);
  if (!rc) gnn_wl_free(&back);
  gnn_wl_free(&wl);
  gnn_cfg_t badcfg = cfg;
  badcfg.depth[1] = 0;
  CHECK(gnn_wl_init(&wl, &badcfg) == -1, "wl init refuses a bad cfg");

  /* reader errors: the message and its line */
  static const struct { const char *text, *want; } kBad[] = {
      {"", ": empty file"},
      {"gnn-workload 2\n", ":1: unsupported header"},
      {"gnn-workload\n", ":1: unsupported header"},
      {"workload 1\n", ":1: expected the header 'gnn-workload 1', found 'workload'"},
      {"gnn-workload 1\n", ": no 'cfg' line"},
      {"gnn-workload 1\nmem 0 1\n0\n", ":2: 'mem' before the 'cfg' line"},
      {"gnn-workload 1\ninsn 0 0 0 1\n", ":2: 'insn' before the 'cfg' line"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\n#\ncfg 4 4 16 16 16 8\n",
       ":4: second 'cfg' line (the first is line 2)"},
      {"gnn-workload 1\ncfg 65 4 16 16 16 8\n", ":2: invalid cfg"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 3\n", ":2: invalid cfg"},
      {"gnn-workload 1\ncfg 4 4 16 16 0 8\n", ":2: invalid cfg"},
      {"gnn-workload 1\ncfg 4 4 x 16 16 8\n", ":2: bad IN_DEPTH 'x'"},
      {"gnn-workload 1\ncfg 4 4 -1 16 16 8\n", ":2: bad IN_DEPTH '-1'"},
      {"gnn-workload 1\ncfg 4 4 99999999999999999999 16 16 8\n", ":2: bad IN_DEPTH"},
      {"gnn-workload 1\ncfg 4 4 16 16 16\n", ":2: 'cfg' takes 6 fields"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nload 1\n", ":3: unknown keyword 'load'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 250 8\n",
       ":3: mem 0xfa + 8 words runs past the 2^8-word DRAM"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 256 1\n", ":3: mem 0x100 + 1 words runs past"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 0\n", ":3: 'mem' of 0 words"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem -1 2\n", ":3: bad address '-1'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0x 2\n", ":3: bad address '0x'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 2x\n", ":3: bad word count '2x'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 4\n1 2 3\n",
       ":3: truncated mem data: 3 of 4 words (end of file)"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 4\n1 2\ninsn 0 0 0 1\n",
       ":5: truncated mem data: 2 of 4 words of the mem record of line 3 before 'insn'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 4\n1 2\ncheck 0 1\n",
       ":5: truncated mem data: 2 of 4 words of the mem record of line 3 before 'check'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 2\n1 2 3\n",
       ":4: extra data after the 2 words of the mem record of line 3"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 1\nxyz\n", ":4: bad hex word 'xyz'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 1\n123456789\n",
       ":4: word '123456789' exceeds 32 bits"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\ninsn 1 2 3\n", ":3: 'insn' takes 4 hex words"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\ninsn 1 2 3 g\n", ":3: bad hex instruction word 'g'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\ninsn 1 2 3 100000000\n",
       ":3: instruction word '100000000' exceeds 32 bits"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\ncheck 0 1000\n",
       ":3: check 0x0 + 1000 words runs past the 2^8-word DRAM"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\ncheck 0\n", ":3: 'check' takes 2 fields"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape xs 1 1 1\n", ":3: unknown dataflow 'xs'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 0 1 1\n", ":3: M 0 out of range 1..65535"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 65536 1\n",
       ":3: K 65536 out of range 1..65535"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1\n", ":3: 'shape' takes DF M K N"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1\nshape os 1 1 1\n",
       ":4: second 'shape' line (the first is line 3)"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 foo=1\n",
       ":3: unknown shape key 'foo'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 acc\n",
       ":3: expected KEY=VALUE, found 'acc'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 acc=2\n", ":3: bad acc '2'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 act=tanh\n", ":3: bad act 'tanh'"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 acc=1 acc=0\n",
       ":3: shape key 'acc' given twice"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 a=0\n",
       ":3: shape names some of a=, b=, c= but not all three"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 1 1 1 a=0 b=1 c=999\n",
       ":3: c=0x3e7 beyond the 2^8-word DRAM"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape os 16 16 1 a=1 b=0 c=2\n",
       ":3: shape operand a=0x1 (256 words) runs past the 2^8-word DRAM"},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape is 1 1 1 a=0 b=1 c=2 bias=3\n",
       ":3: shape with bias= (is) needs ones="},
      {"gnn-workload 1\ncfg 4 4 16 16 16 8\nshape ws 1 1 1 a=0 b=1 c=2 bias=3 acc=1\n",
       ":3: shape with bias= (ws, acc=1) needs ones="},
  };
  for (size_t i = 0; i < sizeof kBad / sizeof kBad[0]; i++) {
    const char *bp = write_text(cx, "bad", kBad[i].text);
    char want[300];
    snprintf(want, sizeof want, "%s%s", bp, kBad[i].want);
    gnn_wl_t w;
    err[0] = '\0';
    rc = gnn_wl_read(bp, &w, err, sizeof err);
    CHECK(rc == -1 && !strncmp(err, want, strlen(want)) && !strchr(err, '\n') && w.n_mem == 0 &&
              w.prog.n == 0,
          "bad file %zu: got '%s', want '%s'", i, err, want);
    if (cx->verbose) printf("reader error: %s\n", err);
    if (rc == 0) gnn_wl_free(&w);
  }
  /* a line too long, an unreadable path */
  {
    char *big = malloc(3000);
    if (big) {
      strcpy(big, "gnn-workload 1\ncfg 4 4 16 16 16 8\nmem 0 200\n");
      size_t n = strlen(big);
      for (int i = 0; i < 280; i++) n += (size_t)sprintf(big + n, "%08x ", i);
      big[n++] = '\n';
      big[n] = '\0';
      const char *bp = write_text(cx, "bad", big);
      gnn_wl_t w;
      rc = gnn_wl_read(bp, &w, err, sizeof err);
      CHECK(rc == -1 && strstr(err, ":4: line longer than 1022 characters"), "long line: %s", err);
      free(big);
    }
    gnn_wl_t w;
    rc = gnn_wl_read("/nonexistent/dir/x.wl", &w, err, sizeof err);
    CHECK(rc == -1 && strstr(err, "/nonexistent/dir/x.wl: cannot open: "), "missing file: %s",
          err);
  }
  remove(tmp_path(cx, "rt"));
  remove(tmp_path(cx, "ok"));
  remove(tmp_path(cx, "bad"));
}

int main(void) {
  ctx_t cx;
  memset(&cx, 0, sizeof cx);
  cx.verbose = getenv("VERBOSE") && atoi(getenv("VERBOSE")) > 0;
  test_layouts();
  test_refusals();
  test_compiler(&cx);
  test_cycle_budget();
  test_random();
  test_workload(&cx);
  return CHECK_SUMMARY();
}
