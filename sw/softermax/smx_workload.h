/* smx_workload.h -- attention-score workloads for Softermax (host side).
 *
 * Rows of pre-softmax attention scores drawn from distributions that resemble what BERT-like
 * models produce after the 1/sqrt(d_k) scaling, quantized to the unit's input format
 * (Q(6,2) by default, saturating, round to nearest). See docs/softermax.md for the choice.
 */
#ifndef SMX_WORKLOAD_H
#define SMX_WORKLOAD_H

#include <stdint.h>

#include "cutil.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SMX_DIST_GAUSS = 0,  /* N(0, sigma), sigma uniform in [1, 4] per row */
  SMX_DIST_PEAKED,     /* N(0, 1.5) plus 1..4 spikes 4..12 above: attention to a few tokens */
  SMX_DIST_HEAVY,      /* Laplace, scale uniform in [0.5, 2.5]: heavy tails */
  SMX_DIST_UNIFORM,    /* every input code equally likely (stress, not realistic) */
  SMX_DIST_MIXED,      /* each row picks one of the three realistic kinds above */
  SMX_DIST_COUNT
} smx_dist_t;

/* The project's random stream (cmodel/include/cutil.h): splitmix64, a seed run through
 * cutil_rng_seed so that neighbouring seeds give independent streams. */
typedef cutil_rng_t smx_rng_t;

static inline void smx_rng_seed(smx_rng_t *r, uint64_t seed) { *r = cutil_rng_seed(seed); }
static inline uint64_t smx_rng_next(smx_rng_t *r) { return cutil_rng_next(r); }
static inline double smx_rng_unit(smx_rng_t *r) { return cutil_rng_unit(r); }     /* [0,1) */
static inline double smx_rng_normal(smx_rng_t *r) { return cutil_rng_normal(r); } /* N(0,1) */

/* Name <-> kind ("gauss", "peaked", "heavy", "uniform", "mixed"); -1 when unknown. */
int smx_dist_from_name(const char *name);
const char *smx_dist_name(int dist);

/* Fills real[0..n-1] (may be NULL) with the real-valued scores and q[0..n-1] with the same
 * scores quantized to in_width bits with in_frac fraction bits (saturating). */
void smx_gen_row(smx_rng_t *r, int dist, int n, int in_width, int in_frac, double *real,
                 int32_t *q);

#ifdef __cplusplus
}
#endif
#endif
