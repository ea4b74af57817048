/* smx_accuracy -- accuracy of the Softermax model (bit-exact with the RTL) against float64
 * base-2 softmax of the same quantized scores.
 *
 * usage: smx_accuracy [--rows N] [--len L] [--vec V] [--seed S] [--sum-frac F]
 * For each score distribution prints one tab-separated line:
 *   dist rows mean_abs_err_lsb max_abs_err_lsb mean_kl_nats max_kl_nats ideal_mean_abs_err_lsb
 *   ideal_max_abs_err_lsb ideal_mean_kl_nats
 * Errors are |y - 128 * p| in output LSBs (Q(1,7)); KL(p || q) with q_i = max(y_i, 0.5) /
 * sum_j max(y_j, 0.5) (outputs that round to 0 count as half an LSB so KL stays finite).
 * The ideal_* columns apply the same metrics to round(128 p), the best any 8-bit Q(1,7)
 * output can do: the difference is what the datapath (not the output format) costs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "softermax.h"
#include "softermax/smx_workload.h"

#define PROG "smx_accuracy"

int main(int argc, char **argv) {
  long rows = 2000, len = 384, vec = 16, sum_frac = 6;
  uint64_t seed = 1;
  /* every value is bounded here, before any cast to int or allocation */
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--rows")) rows = (long)cutil_opt_u64(PROG, a, v, 1, 100000000);
    else if (!strcmp(a, "--len")) len = (long)cutil_opt_u64(PROG, a, v, 1, 1 << 20);
    else if (!strcmp(a, "--vec")) vec = (long)cutil_opt_u64(PROG, a, v, 1, 1 << 20);
    else if (!strcmp(a, "--seed")) seed = cutil_opt_u64(PROG, a, v, 0, UINT64_MAX - 8);
    else if (!strcmp(a, "--sum-frac")) sum_frac = (long)cutil_opt_u64(PROG, a, v, 0, 64);
    else cutil_fail(PROG, "unknown argument '%s' (--rows --len --vec --seed --sum-frac)", a);
  }
  smx_cfg_t cfg;
  smx_cfg_default(&cfg, (int)vec, (int)len);
  cfg.sum_frac = (int)sum_frac;
  if (smx_cfg_check(&cfg)) cutil_fail(PROG, "unsupported configuration (--vec %ld --len %ld --sum-frac %ld)", vec, len, sum_frac);
  double *real = malloc(sizeof(double) * (size_t)len), *p = malloc(sizeof(double) * (size_t)len);
  int32_t *x = malloc(sizeof(int32_t) * (size_t)len);
  uint8_t *y = malloc((size_t)len);
  if (!real || !p || !x || !y) cutil_die(PROG, "out of memory");
  printf("dist\trows\tmean_abs_err_lsb\tmax_abs_err_lsb\tmean_kl_nats\tmax_kl_nats"
         "\tideal_mean_abs_err_lsb\tideal_max_abs_err_lsb\tideal_mean_kl_nats\n");
  uint8_t *yi = malloc((size_t)len);
  if (!yi) cutil_die(PROG, "out of memory");
  static const int dists[] = {SMX_DIST_GAUSS, SMX_DIST_PEAKED, SMX_DIST_HEAVY, SMX_DIST_MIXED};
  for (unsigned k = 0; k < sizeof(dists) / sizeof(dists[0]); k++) {
    smx_rng_t r;
    smx_rng_seed(&r, seed + k);
    double sum_err = 0, max_err = 0, sum_kl = 0, max_kl = 0, isum_err = 0, imax_err = 0,
           isum_kl = 0;
    for (long row = 0; row < rows; row++) {
      smx_gen_row(&r, dists[k], (int)len, 8, 2, real, x);
      softermax_ref(&cfg, x, (int)len, y, NULL);
      double mx = real[0], s = 0, qs = 0, kl = 0, iqs = 0, ikl = 0;
      for (long i = 1; i < len; i++) mx = real[i] > mx ? real[i] : mx;
      for (long i = 0; i < len; i++) s += (p[i] = pow(2.0, real[i] - mx));
      for (long i = 0; i < len; i++) {
        p[i] /= s;
        double v = floor(128.0 * p[i] + 0.5);
        yi[i] = (uint8_t)(v > 255 ? 255 : v);
        qs += y[i] ? y[i] : 0.5;
        iqs += yi[i] ? yi[i] : 0.5;
      }
      for (long i = 0; i < len; i++) {
        double e = fabs(y[i] - 128.0 * p[i]);
        sum_err += e;
        max_err = e > max_err ? e : max_err;
        double q = (y[i] ? y[i] : 0.5) / qs;
        double qi = (yi[i] ? yi[i] : 0.5) / iqs;
        double ei = fabs(yi[i] - 128.0 * p[i]);
        isum_err += ei;
        imax_err = ei > imax_err ? ei : imax_err;
        if (p[i] > 0) {
          kl += p[i] * log(p[i] / q);
          ikl += p[i] * log(p[i] / qi);
        }
      }
      isum_kl += ikl;
      sum_kl += kl;
      max_kl = kl > max_kl ? kl : max_kl;
    }
    double ne = (double)rows * (double)len;
    printf("%s\t%ld\t%.4f\t%.3f\t%.5f\t%.5f\t%.4f\t%.3f\t%.5f\n", smx_dist_name(dists[k]), rows,
           sum_err / ne, max_err, sum_kl / (double)rows, max_kl, isum_err / ne, imax_err,
           isum_kl / (double)rows);
  }
  free(real);
  free(p);
  free(x);
  free(y);
  free(yi);
  return 0;
}
