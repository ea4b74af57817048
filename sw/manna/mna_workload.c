/* mna_workload.c -- writes a workload file for the manna harness: one hex word a line.
 *   mna_workload [--n N] [--seed S] [--width W] [-o FILE]
 */
#include <stdio.h>
#include <string.h>

#include "cutil.h"

static const char *const kProg = "mna_workload";

int main(int argc, char **argv) {
  long n = 1000, width = 32;
  long seed = 1;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--n")) n = cutil_opt_long(kProg, "--n", v, 1, 100000000), i++;
    else if (!strcmp(argv[i], "--seed")) seed = cutil_opt_long(kProg, "--seed", v, 0, 1L << 62), i++;
    else if (!strcmp(argv[i], "--width")) width = cutil_opt_long(kProg, "--width", v, 1, 64), i++;
    else if (!strcmp(argv[i], "-o") && v) path = v, i++;
    else cutil_die(kProg, "unknown argument '%s'", argv[i]);
  }
  FILE *f = path ? fopen(path, "w") : stdout;
  if (!f) cutil_die(kProg, "cannot write %s", path);
  cutil_rng_t r = cutil_rng_seed((uint64_t)seed);
  const uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  for (long k = 0; k < n; k++) fprintf(f, "%llx\n", (unsigned long long)(cutil_rng_next(&r) & mask));
  if ((path && fclose(f) != 0) || (!path && fflush(f) != 0)) cutil_die(kProg, "write error");
  return 0;
}
