/* mna_ntm.c -- the NTM kernel compiler of MANNA (docs/manna_kernels.md): writes the workload
 * file of one NTM memory step (key similarity, content weighting, soft read, soft write) for one
 * configuration and one memory shape.
 *
 *   mna_ntm [--tiles T] [--emacs E] [--mb L] [--ms L] [--vb L] [--vs L] [--imem N] [--rf R]
 *           [--rows MN] [--cols MM] [--hr H] [--hw H] [--order auto|0..3] [--seed S]
 *           [--preset copy|rptcopy|recall|ngram|sort|babi [--scale K]] [--costs] [--asm T]
 *           [--phases] [-o FILE]
 *
 * Defaults: the paper configuration (16 tiles, 32 eMACs, MB 16384, MS 128, VB 256, VS 32 lines,
 * imem 1024, rf 8) and the copy shape 1024x256, 1 read / 1 write head. --preset sets rows, cols,
 * hr, hw from Table 4.3 (after --scale K divides both dimensions); explicit --rows/--cols/--hr/
 * --hw override it. --costs prints the soft-read cost model of the four loop orders (stdout) and
 * writes no workload; --asm T writes tile T's assembly text instead of the workload. --phases
 * writes the step as four runs, one per kernel (a halt after each kernel, one `s PC` record each:
 * per-kernel cycle counts from the harness). Bad input: one line "mna_ntm: <reason>" on stderr and exit status 2.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "mna_kern.h"

static const char *const kProg = "mna_ntm";

#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 1, 2)))
#endif
static void bad(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", kProg);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

static long num(const char *opt, const char *v, long lo, long hi) {
  uint64_t x;
  if (!v) bad("%s needs a value", opt);
  if (cutil_parse_dec(v, 0, UINT64_MAX, &x)) bad("%s: '%s' is not a decimal number", opt, v);
  if (x < (uint64_t)lo || x > (uint64_t)hi) bad("%s: %s out of range %ld..%ld", opt, v, lo, hi);
  return (long)x;
}

int main(int argc, char **argv) {
  mna_ntm_params_t p;
  mna_ntm_params_default(&p);
  const char *path = "-", *preset = NULL;
  long scale = 1, rows = -1, cols = -1, hr = -1, hw = -1;
  int costs = 0, phases = 0;
  long asm_tile = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && (++i, 1))
    if (OPT("--tiles")) p.tiles = (int)num(a, v, 1, 16);
    else if (OPT("--emacs")) p.emacs = (int)num(a, v, 2, 32);
    else if (OPT("--mb")) p.mb_lines = (int)num(a, v, 2, 1 << 20);
    else if (OPT("--ms")) p.ms_lines = (int)num(a, v, 2, 1 << 20);
    else if (OPT("--vb")) p.vb_lines = (int)num(a, v, 2, 1 << 20);
    else if (OPT("--vs")) p.vs_lines = (int)num(a, v, 2, 1 << 20);
    else if (OPT("--imem")) p.imem_depth = (int)num(a, v, 1, 65536);
    else if (OPT("--rf")) p.rf_regs = (int)num(a, v, 2, 16);
    else if (OPT("--rows")) rows = num(a, v, 1, 1 << 24);
    else if (OPT("--cols")) cols = num(a, v, 1, 1 << 20);
    else if (OPT("--hr")) hr = num(a, v, 1, 7);
    else if (OPT("--hw")) hw = num(a, v, 0, 8);
    else if (OPT("--seed")) p.seed = (uint64_t)num(a, v, 0, (long)(~0ul >> 1));
    else if (OPT("--scale")) scale = num(a, v, 1, 1 << 20);
    else if (OPT("--order")) {
      if (!v) bad("--order needs a value");
      p.order = !strcmp(v, "auto") ? MNA_ORDER_AUTO : (int)num("--order", v, 0, 3);
    } else if (OPT("--preset")) {
      if (!v) bad("--preset needs a value");
      preset = v;
    } else if (OPT("-o")) {
      if (!v) bad("-o needs a value");
      path = v;
    } else if (OPT("--asm")) asm_tile = num(a, v, 0, 15);
    else if (!strcmp(a, "--costs")) costs = 1;
    else if (!strcmp(a, "--phases")) phases = 1;
    else bad("unknown argument '%s'", a);
#undef OPT
  }
  if (preset && mna_ntm_preset(&p, preset, (int)scale))
    bad("--preset: unknown benchmark '%s' (copy, rptcopy, recall, ngram, sort, babi)", preset);
  if (!preset && scale != 1) bad("--scale needs --preset");
  if (rows > 0) p.rows = (int)rows;
  if (cols > 0) p.cols = (int)cols;
  if (hr > 0) p.hr = (int)hr;
  if (hw >= 0) p.hw = (int)hw;
  char err[256];
  if (costs) {
    mna_ntm_cost_t c[4];
    int pick;
    if (mna_ntm_costs(&p, c, &pick, err, sizeof err)) bad("%s", err);
    static const char *const on[4] = {"IS/IS", "IS/OS", "OS/IS", "OS/OS"};
    printf("order block/compute  vb_w_lines vb_r_lines buffer_cost  vs_w_words vs_r_words "
           "spad_cost  vmm_insns mb_lines\n");
    for (int o = 0; o < 4; o++)
      printf("%d     %-13s %10ld %10ld %11ld %11ld %10ld %9ld %10ld %8ld%s\n", o, on[o],
             c[o].vb_w_lines, c[o].vb_r_lines, c[o].buffer_cost, c[o].vs_w_words,
             c[o].vs_r_words, c[o].spad_cost, c[o].vmm_insns, c[o].mb_lines,
             o == pick ? "  <- chosen" : "");
    return 0;
  }
  mna_ntm_plan_t pl;
  if (mna_ntm_plan(&p, &pl, err, sizeof err)) bad("%s", err);
  FILE *f = cutil_open_out(kProg, path);
  if (asm_tile >= 0) {
    if (asm_tile >= p.tiles) bad("--asm: tile %ld out of range 0..%d", asm_tile, p.tiles - 1);
    char *src = mna_ntm_program(&p, &pl, (int)asm_tile);
    if (!src) bad("out of memory");
    fputs(src, f);
    free(src);
    cutil_close_out(kProg, f, path, ferror(f));
    return 0;
  }
  const int rc = mna_ntm_workload_phases(&p, phases, f, err, sizeof err);
  if (rc) {
    if (strcmp(path, "-")) fclose(f), remove(path);
    bad("%s", err);
  }
  cutil_close_out(kProg, f, path, 0);
  return 0;
}
