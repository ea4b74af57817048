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

#include "softermax/smx_workload.h"

static int parse_long(const char *s, long lo, long hi, long *out) {
  char *end;
  long v = strtol(s, &end, 0);
  if (!*s || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  long rows = 16, len = 384, seed = 1, width = 8, frac = 2;
  int dist = SMX_DIST_MIXED;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0;
    if (!strcmp(a, "--dist") && v) {
      dist = smx_dist_from_name(v);
      bad = dist < 0;
    } else if (!strcmp(a, "--rows") && v) {
      bad = parse_long(v, 1, 100000000, &rows);
    } else if (!strcmp(a, "--len") && v) {
      bad = parse_long(v, 1, 1 << 20, &len);
    } else if (!strcmp(a, "--seed") && v) {
      bad = parse_long(v, 0, 0x7fffffffL, &seed);
    } else if (!strcmp(a, "--in-width") && v) {
      bad = parse_long(v, 4, 16, &width);
    } else if (!strcmp(a, "--in-frac") && v) {
      bad = parse_long(v, 2, 8, &frac);
    } else {
      fprintf(stderr, "smx_scores: unknown or incomplete argument '%s'\n", a);
      return 2;
    }
    if (bad) {
      fprintf(stderr, "smx_scores: bad value '%s' for %s\n", v, a);
      return 2;
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
