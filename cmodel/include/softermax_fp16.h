/* softermax_fp16.h -- the arithmetic of the fp16 softmax baseline
 * (rtl/softermax/softermax_fp16_*.v), the conventional unit the Softermax area ratios compare
 * against (docs/softermax.md, "fp16 baseline"). Its configuration, row bookkeeping, stream
 * model and row loop are Softermax's (softermax.h) with cfg->fmt = SMX_FMT_FP16
 * (smx16_cfg_default): the shared types carry fp16 bit patterns in x, u (= e), m, d and y.
 *
 * Every IEEE operation (max, add, subtract, multiply, divide) is done by the float reference
 * cmodel/include/fpref.h in round to nearest even, exactly as the RTL's fp_* units do it; the
 * exponential is the RTL's integer algorithm (smx16_exp), and reductions follow the RTL's
 * fixed tree order.
 *
 * Per row, slices of vec elements, lanes 0..cnt-1 valid (docs/softermax.md has the details):
 *   lmax   = max tree over the lanes (lanes >= cnt are -inf)
 *   m_new  = max(m_old, lmax)                      m_old = -inf, d_old = +0 on a row's first slice
 *   m_sub  = m_new, or +0 when m_new = -inf        (an all -inf prefix gives e = 0, not NaN)
 *   e_j    = exp(x_j - m_sub)                      (lanes >= cnt: +0)
 *   d_new  = d_old * exp(m_old - m_sub) + sum tree(e)
 *   y_j    = (e_j * exp(m_slice - m_row)) / d      m_slice = the slice's m_new, m_row = the row's
 */
#ifndef SOFTERMAX_FP16_H
#define SOFTERMAX_FP16_H

#include <stdint.h>

#include "softermax.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMX16_BITS 16     /* binary16: sign, 5 exponent bits, 10 fraction bits */
#define SMX16_EXP_BITS 5
#define SMX16_MAN_BITS 10
#define SMX16_POS_ZERO 0x0000u
#define SMX16_ONE 0x3C00u
#define SMX16_POS_INF 0x7C00u
#define SMX16_NEG_INF 0xFC00u
#define SMX16_QNAN 0x7E00u /* canonical quiet NaN */

/* ---- fp16 helpers ---- */
double smx16_to_double(uint16_t h);   /* exact */
uint16_t smx16_from_double(double v); /* round to nearest even (fpref) */

/* e^x, bit-exact with softermax_fp16_exp.v. */
uint16_t smx16_exp(uint16_t x);

/* The fixed reduction order of the RTL: a pairwise tree, level by level; at each level
 * element 2i is combined with 2i+1 (op(v[2i], v[2i+1])) and an odd last element passes
 * through unchanged to the next level. n >= 1. max: fp_cmp MAX (IEEE maximumNumber); sum:
 * fp_add, round to nearest even. */
uint16_t smx16_max_tree(const uint16_t *v, int n);
uint16_t smx16_sum_tree(const uint16_t *v, int n);

/* ---- sub-units (the arguments of smx_unnormed_slice / smx_norm_slice, fp16 patterns) ---- */
/* One slice through the unnormed unit: lanes >= cnt are ignored (e = +0). Updates the state
 * and returns the slice's e values and the max they were computed against (m_new). */
void smx16_unnormed_slice(const smx_cfg_t *cfg, smx_unnormed_state_t *st, const int32_t *x,
                          int cnt, uint16_t *e, int32_t *m_slice);

/* One stored slice through the normalization unit for a row with summary (d, m_row):
 * y_j = (e_j * exp(m_slice - m_row)) / d for j < cnt, +0 above. */
void smx16_norm_slice(const smx_cfg_t *cfg, const uint16_t *e, int cnt, int32_t m_slice,
                      int32_t m_row, uint32_t d, uint16_t *y);

/* One well-formed row of n elements (1 <= n <= max_len) through the fp16 unit (cfg->fmt
 * SMX_FMT_FP16): y[0..n-1]. Returns 0, or -1 when n or the configuration is out of range
 * (y untouched). d and m (may be NULL) receive the row's final denominator and max. */
int softermax_fp16_ref(const smx_cfg_t *cfg, const uint16_t *x, int n, uint16_t *y,
                       uint16_t *d, uint16_t *m);

/* Float64 softmax of the same fp16 scores: p_j = exp(x_j - max) / sum_k exp(x_k - max), the
 * accuracy reference (NaN in, or a row of only -inf, gives NaN like the fp16 unit). */
void smx16_softmax_f64(const uint16_t *x, int n, double *p);

#ifdef __cplusplus
}
#endif
#endif
