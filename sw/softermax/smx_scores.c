/* smx_scores -- writes rows of attention scores for Softermax, one row a line, as input codes
 * (signed integers of the input format, Q(6,2) by default: code = round(score * 4)).
 *
 * usage: smx_scores [--dist gauss|peaked|heavy|uniform|mixed] [--rows N] [--len L]
 *                   [--seed S] [--in-width W] [--in-frac F]
 * Bad arguments: one-line error on stderr, exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "softermax/smx_workload.h"

#define PROG "smx_scores"

int main(int argc, char **argv) {
  long rows = 16, len = 384, seed = 1, width = 8, frac = 2;
  int dist = SMX_DIST_MIXED;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--dist") && v) {
      dist = smx_dist_from_name(v);
      if (dist < 0) cutil_fail(PROG, "--dist: '%s' is not a distribution (gauss peaked heavy uniform mixed)", v);
    } else if (!strcmp(a, "--rows")) {
      rows = (long)cutil_opt_u64(PROG, a, v, 1, 100000000);
    } else if (!strcmp(a, "--len")) {
      len = (long)cutil_opt_u64(PROG, a, v, 1, 1 << 20);
    } else if (!strcmp(a, "--seed")) {
      seed = (long)cutil_opt_u64(PROG, a, v, 0, 0x7fffffffL);
    } else if (!strcmp(a, "--in-width")) {
      width = (long)cutil_opt_u64(PROG, a, v, 4, 16);
    } else if (!strcmp(a, "--in-frac")) {
      frac = (long)cutil_opt_u64(PROG, a, v, 2, 8);
    } else {
      cutil_fail(PROG, "unknown or incomplete argument '%s'", a);
    }
    i++;
  }
  if (frac + 2 > width) {
    fprintf(stderr, "smx_scores: --in-frac %ld leaves no integer bits in --in-width %ld\n", frac, width);
    return 2;
  }
  int32_t *q = malloc(sizeof(int32_t) * (size_t)len);
  if (!q) {
    fprintf(stderr, "smx_scores: out of memory\n");
    return 1;
  }
  smx_rng_t r;
  smx_rng_seed(&r, (uint64_t)seed);
  for (long k = 0; k < rows; k++) {
    smx_gen_row(&r, dist, (int)len, (int)width, (int)frac, NULL, q);
    for (long i = 0; i < len; i++) printf(i ? " %d" : "%d", q[i]);
    putchar('\n');
  }
  free(q);
  return 0;
}
