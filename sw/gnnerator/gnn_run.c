/* gnn_run -- executes a GNNerator Dense Engine workload file (sw/gnnerator/gnn_dense.h) on the
 * golden model (cmodel/gnnerator): the reference the harness co-simulates against, and the
 * check of the compiler (gnn_workload).
 *
 * usage: gnn_run [--verbose] [--check] [--cycles [--lat L]] WORKLOAD
 *   prints (per instruction with --verbose: "insn <i> <disassembly> -> <STATUS>") the line
 *     gnn_run: insns=N ok=N errors=N beats=N [<ERROR>=<count> ...]
 *   (beats: DRAM write beats of the STOREs, gnn_model_take_beats), then
 *   --cycles: "cycles=N busy_ex=N rd_lines=N wr_lines=N" from gnn_cycles() with read data L
 *     cycles after each request (--lat 1..1000, default 10);
 *   --check: with a shape line naming a=, b= and c=, the final C region against an independent
 *     computation from the initial image (gnn_mm_verify): bit-exact against gnn_matmul_ref,
 *     unless the program splits K in OS (gnn_mm_exact), then within 1e-4 relative to the sum
 *     of the terms' magnitudes (for data in [-1, 1] plus zeros, subnormals, infinities, NaNs).
 *     Prints "check ok (bit-exact)" or "check ok (tolerance 1e-4)"; a mismatch is one line
 *     "gnn_run: check failed: C[i][j] = ..." on stderr and exit status 1.  Without a shape line
 *     (or one without operands) it prints "check skipped (...)".
 * A bad file or argument: one line on stderr ("gnn_run: <path>:<line>: <reason>"), exit 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "gnnerator/gnn_dense.h"

static const char *const kProg = "gnn_run";

static uint32_t *read_region(const gnn_model_t *m, uint64_t addr, uint64_t n) {
  uint32_t *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  if (!d) cutil_die(kProg, "out of memory");
  for (uint64_t i = 0; i < n; i++) d[i] = gnn_mem_rd(m, addr + i);
  return d;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int verbose = 0, check = 0, cycles = 0;
  long lat = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--verbose")) verbose = 1;
    else if (!strcmp(a, "--check")) check = 1;
    else if (!strcmp(a, "--cycles")) cycles = 1;
    else if (!strcmp(a, "--lat"))
      lat = cutil_opt_long(kProg, a, i + 1 < argc ? argv[i + 1] : NULL, 1, 1000), i++;
    else if (a[0] == '-' && a[1]) cutil_fail(kProg, "unknown argument '%s'", a);
    else if (path) cutil_fail(kProg, "unexpected argument '%s' (one workload file)", a);
    else path = a;
  }
  if (!path) cutil_fail(kProg, "usage: gnn_run [--verbose] [--check] [--cycles [--lat L]] WORKLOAD");
  if (lat >= 0 && !cycles) cutil_fail(kProg, "--lat applies to --cycles only");
  gnn_wl_t wl;
  char err[512];
  if (gnn_wl_read(path, &wl, err, sizeof err) != 0) cutil_fail(kProg, "%s", err);
  gnn_model_t *m = gnn_wl_model(&wl);
  if (!m) cutil_die(kProg, "out of memory loading %s", path);
  const gnn_mm_params_t *s = &wl.shape;
  const int do_check = check && wl.have_shape && wl.shape_has_ops;
  const uint64_t M = s->m, K = s->k, N = s->n;
  uint32_t *a = NULL, *b = NULL, *c_old = NULL, *bias = NULL;
  if (do_check) {
    uint32_t *t = read_region(m, s->a, M * K);
    a = malloc((size_t)(M * K) * sizeof *a);
    b = malloc((size_t)(K * N) * sizeof *b);
    c_old = malloc((size_t)(M * N) * sizeof *c_old);
    if (!a || !b || !c_old) cutil_die(kProg, "out of memory");
    /* A and B back to row-major: pack is a permutation, so invert it by index */
    for (uint64_t i = 0; i < M; i++)
      for (uint64_t j = 0; j < K; j++) a[i * K + j] = t[s->df == GNN_DF_WS ? i * K + j : j * M + i];
    free(t);
    t = read_region(m, s->b, K * N);
    for (uint64_t i = 0; i < K; i++)
      for (uint64_t j = 0; j < N; j++) b[i * N + j] = t[s->df == GNN_DF_IS ? j * K + i : i * N + j];
    free(t);
    t = read_region(m, s->c, M * N);
    gnn_unpack_c(s->df, s->m, s->n, t, c_old);
    free(t);
    if (s->bias) bias = read_region(m, s->bias_addr, N);
  }
  unsigned long long per_code[16] = {0}, ok = 0, beats = 0;
  gnn_beat_t bt[4];
  for (size_t i = 0; i < wl.prog.n; i++) {
    int e = gnn_model_exec(m, &wl.prog.insn[i]);
    if (e == GNN_OK) ok++;
    else per_code[e & 15]++;
    beats += gnn_model_take_beats(m, bt, 4);
    if (verbose) {
      char str[200];
      printf("insn %zu %s -> %s\n", i, gnn_insn_str(&wl.prog.insn[i], str, sizeof str),
             gnn_err_name(e));
    }
  }
  printf("%s: insns=%zu ok=%llu errors=%llu beats=%llu", kProg, wl.prog.n, ok,
         (unsigned long long)wl.prog.n - ok, beats);
  for (int c = 1; c < 16; c++)
    if (per_code[c]) printf(" %s=%llu", gnn_err_name(c), per_code[c]);
  putchar('\n');
  if (cycles) {
    gnn_memtiming_t mt = {lat < 0 ? 10 : (int)lat};
    gnn_cyc_stats_t st;
    if (gnn_cycles(&wl.cfg, &mt, wl.prog.insn, wl.prog.n, &st) != 0)
      cutil_fail(kProg, "the cycle model refused the program");
    printf("cycles=%" PRIu64 " busy_ex=%" PRIu64 " rd_lines=%" PRIu64 " wr_lines=%" PRIu64 "\n",
           st.cycles, st.busy_ex, st.rd_lines, st.wr_lines);
  }
  int rc = 0;
  if (check && !do_check) {
    printf("check skipped (%s)\n", wl.have_shape ? "the shape line names no operands"
                                                 : "no shape line");
  } else if (do_check) {
    uint32_t *t = read_region(m, s->c, M * N), *got = malloc((size_t)(M * N) * sizeof *got);
    if (!got) cutil_die(kProg, "out of memory");
    gnn_unpack_c(s->df, s->m, s->n, t, got);
    free(t);
    const int exact = gnn_mm_exact(s, wl.prog.insn, wl.prog.n);
    char msg[300];
    if (gnn_mm_verify(s, exact, a, b, c_old, bias, got, msg, sizeof msg) != 0) {
      fflush(stdout);
      fprintf(stderr, "%s: check failed: %s\n", kProg, msg);
      rc = 1;
    } else {
      printf("check ok (%s)\n", exact ? "bit-exact" : "tolerance 1e-4");
    }
    free(got);
  }
  free(a);
  free(b);
  free(c_old);
  free(bias);
  gnn_model_free(m);
  gnn_wl_free(&wl);
  if (fflush(stdout) != 0) cutil_die(kProg, "write error on stdout");
  return rc;
}
