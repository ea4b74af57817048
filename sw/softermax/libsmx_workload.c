/* libsmx_workload.c -- attention-score row generator (see smx_workload.h). */
#include "smx_workload.h"

#include <math.h>
#include <string.h>

static const char *const names[SMX_DIST_COUNT] = {"gauss", "peaked", "heavy", "uniform", "mixed"};

int smx_dist_from_name(const char *name) {
  for (int i = 0; i < SMX_DIST_COUNT; i++)
    if (!strcmp(name, names[i])) return i;
  return -1;
}

const char *smx_dist_name(int dist) {
  return (dist >= 0 && dist < SMX_DIST_COUNT) ? names[dist] : "?";
}

static int32_t quant(double v, int in_width, int in_frac) {
  double s = floor(v * (double)(1 << in_frac) + 0.5);
  double hi = (double)((1 << (in_width - 1)) - 1), lo = -(double)(1 << (in_width - 1));
  if (s > hi) s = hi;
  if (s < lo) s = lo;
  return (int32_t)s;
}

void smx_gen_row(smx_rng_t *r, int dist, int n, int in_width, int in_frac, double *real,
                 int32_t *q) {
  if (dist == SMX_DIST_MIXED) dist = (int)(smx_rng_next(r) % 3);
  double sigma = 1.0 + 3.0 * smx_rng_unit(r);
  double lap = 0.5 + 2.0 * smx_rng_unit(r);
  double offset = 4.0 * (smx_rng_unit(r) - 0.5); /* scores are not centred on 0 */
  int spikes = 1 + (int)(smx_rng_next(r) % 4);
  for (int i = 0; i < n; i++) {
    double v;
    switch (dist) {
      case SMX_DIST_GAUSS: v = offset + sigma * smx_rng_normal(r); break;
      case SMX_DIST_PEAKED: v = offset + 1.5 * smx_rng_normal(r); break;
      case SMX_DIST_HEAVY: {
        double u = smx_rng_unit(r) - 0.5;
        v = offset - lap * (u < 0 ? -1.0 : 1.0) * log(1.0 - 2.0 * fabs(u) + 1e-300);
        break;
      }
      default: {
        int32_t code = (int32_t)(smx_rng_next(r) % (1u << in_width)) - (1 << (in_width - 1));
        v = (double)code / (double)(1 << in_frac);
        break;
      }
    }
    if (real) real[i] = v;
    q[i] = quant(v, in_width, in_frac);
  }
  if (dist == SMX_DIST_PEAKED) {
    for (int k = 0; k < spikes && n > 0; k++) {
      int i = (int)(smx_rng_next(r) % (uint64_t)n);
      double v = offset + 4.0 + 8.0 * smx_rng_unit(r);
      if (real) real[i] = v;
      q[i] = quant(v, in_width, in_frac);
    }
  }
  if (real) /* the reference sees what the unit sees */
    for (int i = 0; i < n; i++) real[i] = (double)q[i] / (double)(1 << in_frac);
}
