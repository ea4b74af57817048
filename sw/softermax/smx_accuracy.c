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

#include "softermax.h"
#include "softermax/smx_workload.h"

int main(int argc, char **argv) {
  long rows = 2000, len = 384, vec = 16, seed = 1, sum_frac = 6;
  for (int i = 1; i < argc; i += 2) {
    long *dst = !strcmp(argv[i], "--rows") ? &rows
                : !strcmp(argv[i], "--len") ? &len
                : !strcmp(argv[i], "--vec") ? &vec
                : !strcmp(argv[i], "--seed") ? &seed
                : !strcmp(argv[i], "--sum-frac") ? &sum_frac : NULL;
    char *end = NULL;
    if (!dst || i + 1 >= argc || (*dst = strtol(argv[i + 1], &end, 0), *end) || *dst < 0) {
      fprintf(stderr, "smx_accuracy: bad argument '%s'\n", argv[i]);
      return 2;
    }
  }
  smx_cfg_t cfg;
  smx_cfg_default(&cfg, (int)vec, (int)len);
  cfg.sum_frac = (int)sum_frac;
  if (smx_cfg_check(&cfg) || rows < 1) {
    fprintf(stderr, "smx_accuracy: unsupported configuration\n");
    return 2;
  }
  double *real = malloc(sizeof(double) * (size_t)len), *p = malloc(sizeof(double) * (size_t)len);
  int32_t *x = malloc(sizeof(int32_t) * (size_t)len);
  uint8_t *y = malloc((size_t)len);
  if (!real || !p || !x || !y) return 1;
  printf("dist\trows\tmean_abs_err_lsb\tmax_abs_err_lsb\tmean_kl_nats\tmax_kl_nats"
         "\tideal_mean_abs_err_lsb\tideal_max_abs_err_lsb\tideal_mean_kl_nats\n");
  uint8_t *yi = malloc((size_t)len);
  if (!yi) return 1;
  static const int dists[] = {SMX_DIST_GAUSS, SMX_DIST_PEAKED, SMX_DIST_HEAVY, SMX_DIST_MIXED};
  for (unsigned k = 0; k < sizeof(dists) / sizeof(dists[0]); k++) {
    smx_rng_t r;
    smx_rng_seed(&r, (uint64_t)seed + k);
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
