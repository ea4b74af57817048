/* mna_randprog -- random MANNA workload files (sw/manna/mna_rand.h: what is generated and the
 * rules that keep the programs valid; docs/manna.md, "Workload files").
 *   mna_randprog [--tiles T] [--emacs E] [--mb L] [--ms L] [--vb L] [--vs L] [--imem D] [--rf R]
 *                [--seed S] [--insns N] [--errors P] [--runs 1|2] [--fence C] [--verbose] [-o FILE]
 * Defaults: 2 tiles, E = 4, MB 64, MS 16, VB 16, VS 8 lines, IMEM 256, RF 4; seed 1, 200
 * instruction slots, 0% errors, 1 run, fence timeout 4096 cycles (the build's FenceTimeout:
 * below 1024 every tile runs one program), stdout (FILE "-" too).
 * Summary on stderr with --verbose: "mna_randprog: programs=shared|per-tile|shared+error-tile words=.. dyn=..
 * colls=.. error_tile=.. injected=..".
 * Bad arguments: one line "mna_randprog: <reason>" on stderr, exit status 2. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna/mna_rand.h"

static const char *const kProg = "mna_randprog";

#define fail(...) cutil_fail(kProg, __VA_ARGS__) /* one line on stderr, exit status 2 */

/* The decimal value of option opt in lo..hi (digits only). */
static long opt_num(const char *opt, const char *v, long lo, long hi) {
  uint64_t x;
  if (!v) fail("%s needs a value", opt);
  if (cutil_parse_dec(v, 0, ~0ull, &x)) fail("%s: '%s' is not a decimal number", opt, v);
  if (x < (uint64_t)lo || x > (uint64_t)hi) fail("%s: %s out of range %ld..%ld", opt, v, lo, hi);
  return (long)x;
}

int main(int argc, char **argv) {
  mna_rand_cfg_t c;
  mna_rand_opt_t o;
  mna_rand_cfg_default(&c);
  mna_rand_opt_default(&o);
  const char *path = NULL;
  int verbose = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--tiles")) c.tiles = (int)opt_num(a, v, 1, 16);
    else if (!strcmp(a, "--emacs")) c.emacs = (int)opt_num(a, v, 2, 32);
    else if (!strcmp(a, "--mb")) c.mb_lines = (int)opt_num(a, v, 2, 1 << 20);
    else if (!strcmp(a, "--ms")) c.ms_lines = (int)opt_num(a, v, 2, 1 << 20);
    else if (!strcmp(a, "--vb")) c.vb_lines = (int)opt_num(a, v, 2, 1 << 20);
    else if (!strcmp(a, "--vs")) c.vs_lines = (int)opt_num(a, v, 2, 1 << 20);
    else if (!strcmp(a, "--imem")) c.imem_depth = (int)opt_num(a, v, 64, 65536);
    else if (!strcmp(a, "--rf")) c.rf_regs = (int)opt_num(a, v, 2, 16);
    else if (!strcmp(a, "--seed")) {
      uint64_t x;
      if (!v) fail("--seed needs a value");
      if (cutil_parse_num(v, &x)) fail("--seed: '%s' is not a number", v);
      o.seed = x;
    } else if (!strcmp(a, "--insns")) o.insns = opt_num(a, v, 1, 1000000);
    else if (!strcmp(a, "--errors")) o.errors = (int)opt_num(a, v, 0, 100);
    else if (!strcmp(a, "--runs")) o.runs = (int)opt_num(a, v, 1, 2);
    else if (!strcmp(a, "--fence")) o.fence = opt_num(a, v, 1, 0xFFFFFFFFL);
    else if (!strcmp(a, "-o")) {
      if (!v) fail("-o needs a value");
      path = v;
    } else if (!strcmp(a, "--verbose")) {
      verbose = 1;
      continue;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("usage: mna_randprog [--tiles T] [--emacs E] [--mb L] [--ms L] [--vb L] [--vs L] [--imem D]\n"
             "                    [--rf R] [--seed S] [--insns N] [--errors P] [--runs 1|2] [--fence C] [--verbose]\n"
             "                    [-o FILE]\n");
      return 0;
    } else fail("unknown argument '%s'", a);
    i++;
  }
  char err[256];
  if (mna_rand_cfg_check(&c, err, sizeof err)) fail("%s", err);
  FILE *f = path && strcmp(path, "-") ? fopen(path, "w") : stdout;
  if (!f) fail("cannot write %s", path);
  mna_rand_info_t info;
  if (mna_rand_write(f, &c, &o, &info, err, sizeof err)) fail("%s", err);
  const int werr = ferror(f);
  if ((f != stdout ? fclose(f) : fflush(f)) != 0 || werr)
    fail("write error on %s", f != stdout ? path : "stdout");
  if (verbose)
    fprintf(stderr, "%s: programs=%s words=%ld dyn=%ld colls=%ld error_tile=%d injected=%ld\n", kProg,
            info.per_tile ? "per-tile" : info.error_tile >= 0 ? "shared+error-tile" : "shared", info.max_words, info.max_dyn, info.colls,
            info.error_tile, info.injected);
  return 0;
}
