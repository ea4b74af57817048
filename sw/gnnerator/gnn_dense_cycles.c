/* gnn_dense_cycles.c -- the Dense Engine cycle study of one matmul shape: compiles C = A * B with
 * the tiler (gnn_compile_matmul) and runs the cycle model (gnn_cycles, exact against the RTL
 * where the RTL simulates) on the program. No data: the cycle model needs only the program, so
 * the paper's 64 x 64 engine and whole-graph shapes run in seconds.
 *
 *   gnn_dense_cycles --df os|ws|is --m M --k K --n N [--paper | --rows R --cols C --depth D]
 *                    [--addr-w A] [--lat L] [--act none|relu]
 *
 * One line on stdout:
 *   df= m= k= n= rows= cols= lat= insns= cycles= formula= fill= tail= util= formula_util=
 *   ratio= rd_bytes= wr_bytes= ktiles=
 * formula is the standard systolic cycle count of the dataflow (docs/gnnerator.md):
 *   OS ceil(M/R) ceil(N/C) (K + R + C - 2); WS ceil(K/R) ceil(N/C) (2R + C + M - 2);
 *   IS ceil(K/R) ceil(M/C) (2R + C + N - 2);
 * fill: cycles before EX starts (the first tile's loads); tail: cycles after EX's last (the last
 * stores); util = M K N / (R C cycles); formula_util the same over formula cycles; ratio =
 * cycles / (formula + fill).
 */
#include <stdio.h>
#include <string.h>

#include "cutil.h"
#include "gnnerator/gnn_dense.h"

static const char *const kProg = "gnn_dense_cycles";

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

int main(int argc, char **argv) {
  int df = -1;
  long m = 0, k = 0, n = 0, rows = 64, cols = 64, depth = 4096, addr_w = 32, lat = 100;
  unsigned act = GNN_ACT_NONE;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--df")) {
      if (!v || (df = gnn_df_find(v)) < 0) cutil_fail(kProg, "--df wants os, ws or is");
      i++;
    } else if (!strcmp(argv[i], "--m")) m = cutil_opt_long(kProg, "--m", v, 1, 65535), i++;
    else if (!strcmp(argv[i], "--k")) k = cutil_opt_long(kProg, "--k", v, 1, 65535), i++;
    else if (!strcmp(argv[i], "--n")) n = cutil_opt_long(kProg, "--n", v, 1, 65535), i++;
    else if (!strcmp(argv[i], "--rows")) rows = cutil_opt_long(kProg, "--rows", v, 1, 64), i++;
    else if (!strcmp(argv[i], "--cols")) cols = cutil_opt_long(kProg, "--cols", v, 1, 64), i++;
    else if (!strcmp(argv[i], "--depth"))
      depth = cutil_opt_long(kProg, "--depth", v, 1, 32768), i++;
    else if (!strcmp(argv[i], "--addr-w"))
      addr_w = cutil_opt_long(kProg, "--addr-w", v, 4, 32), i++;
    else if (!strcmp(argv[i], "--lat")) lat = cutil_opt_long(kProg, "--lat", v, 1, 100000), i++;
    else if (!strcmp(argv[i], "--paper")) rows = 64, cols = 64, depth = 4096, addr_w = 32;
    else if (!strcmp(argv[i], "--act")) {
      if (v && !strcmp(v, "none")) act = GNN_ACT_NONE;
      else if (v && !strcmp(v, "relu")) act = GNN_ACT_RELU;
      else cutil_fail(kProg, "--act wants none or relu");
      i++;
    } else cutil_fail(kProg, "unknown argument '%s'", argv[i]);
  }
  if (df < 0 || !m || !k || !n) cutil_fail(kProg, "give --df, --m, --k and --n");
  gnn_cfg_t cfg;
  if (gnn_cfg_init(&cfg, (int)rows, (int)cols, (int)depth, (int)depth, (int)depth, (int)addr_w))
    cutil_fail(kProg, "bad configuration");
  gnn_mm_params_t p;
  memset(&p, 0, sizeof p);
  p.df = (unsigned)df;
  p.m = (unsigned)m;
  p.k = (unsigned)k;
  p.n = (unsigned)n;
  p.act = act;
  const uint64_t mk = (uint64_t)m * (uint64_t)k, kn = (uint64_t)k * (uint64_t)n;
  p.a = 0;
  p.b = mk;
  p.c = mk + kn;
  if (p.c + (uint64_t)m * (uint64_t)n > (1ull << addr_w))
    cutil_fail(kProg, "A, B and C do not fit in 2^%ld words of DRAM", addr_w);
  gnn_prog_t prog;
  gnn_mm_plan_t plan;
  char err[256];
  if (gnn_compile_matmul(&cfg, &p, &prog, &plan, err, sizeof err) != 0) cutil_fail(kProg, "%s", err);
  gnn_memtiming_t mt;
  mt.latency = (int)lat;
  gnn_cyc_stats_t st;
  if (gnn_cycles(&cfg, &mt, prog.insn, prog.n, &st) != 0) cutil_fail(kProg, "cycle model failed");
  const uint64_t R = (uint64_t)rows, C = (uint64_t)cols;
  uint64_t formula;
  if (df == GNN_DF_OS) formula = cdiv((uint64_t)m, R) * cdiv((uint64_t)n, C) * ((uint64_t)k + R + C - 2);
  else if (df == GNN_DF_WS)
    formula = cdiv((uint64_t)k, R) * cdiv((uint64_t)n, C) * (2 * R + C + (uint64_t)m - 2);
  else formula = cdiv((uint64_t)k, R) * cdiv((uint64_t)m, C) * (2 * R + C + (uint64_t)n - 2);
  const double macs = (double)m * (double)k * (double)n;
  printf("df=%s m=%ld k=%ld n=%ld rows=%ld cols=%ld lat=%ld insns=%zu cycles=%llu formula=%llu "
         "fill=%llu tail=%llu util=%.4f formula_util=%.4f ratio=%.4f rd_bytes=%llu wr_bytes=%llu "
         "ktiles=%u\n",
         gnn_df_name((unsigned)df), m, k, n, rows, cols, lat, prog.n,
         (unsigned long long)st.cycles, (unsigned long long)formula,
         (unsigned long long)st.first_ex, (unsigned long long)(st.cycles - 1 - st.last_ex),
         macs / ((double)R * (double)C * (double)st.cycles),
         macs / ((double)R * (double)C * (double)formula),
         (double)st.cycles / (double)(formula + st.first_ex), (unsigned long long)st.rd_bytes,
         (unsigned long long)st.wr_bytes, plan.ktiles);
  gnn_prog_free(&prog);
  return 0;
}
