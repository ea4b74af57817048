/* softermax_fp16.h -- bit-exact golden model of the fp16 softmax baseline
 * (rtl/softermax/softermax_fp16_*.v), the conventional unit the Softermax area ratios compare
 * against (docs/softermax.md, "fp16 baseline").
 *
 * Every value is an IEEE binary16 bit pattern in a uint16_t. Every IEEE operation (max, add,
 * subtract, multiply, divide) is done by the float reference cmodel/include/fpref.h in round
 * to nearest even, exactly as the RTL's fp_* units do it; the exponential is the RTL's integer
 * algorithm (smx16_exp), and reductions follow the RTL's fixed tree order.
 *
 * Per row, slices of vec elements, lanes 0..cnt-1 valid (docs/softermax.md has the details):
 *   lmax   = max tree over the lanes (lanes >= cnt are -inf)
 *   m_new  = max(m_old, lmax)                      m_old = -inf, d_old = +0 on a row's first slice
 *   m_sub  = m_new, or +0 when m_new = -inf        (an all -inf prefix gives e = 0, not NaN)
 *   e_j    = exp(x_j - m_sub)                      (lanes >= cnt: +0)
 *   d_new  = d_old * exp(m_old - m_sub) + sum tree(e)
 *   y_j    = (e_j * exp(m_slice - m_row)) / d      m_slice = the slice's m_new, m_row = the row's
 *
 * Three levels of API, as softermax.h: unit functions (exp, trees, one slice of each unit), a
 * stream model (smx16_model_*) that takes input beats exactly as the RTL top does (malformed
 * ones included), and softermax_fp16_ref() for one well-formed row; plus a float64 softmax
 * (smx16_softmax_f64) to measure the fp16 unit's accuracy.
 */
#ifndef SOFTERMAX_FP16_H
#define SOFTERMAX_FP16_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMX16_MAX_VEC 64
#define SMX16_POS_ZERO 0x0000u
#define SMX16_ONE 0x3C00u
#define SMX16_POS_INF 0x7C00u
#define SMX16_NEG_INF 0xFC00u
#define SMX16_QNAN 0x7E00u /* canonical quiet NaN */

typedef struct {
  int vec;     /* lanes per slice, 1..SMX16_MAX_VEC */
  int max_len; /* longest legal row, elements */
} smx16_cfg_t;

/* 0 when the configuration is supported, -1 otherwise. */
int smx16_cfg_check(const smx16_cfg_t *cfg);

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

/* ---- sub-units ---- */
/* Running state of the unnormed unit for one row. */
typedef struct {
  int first;  /* next slice starts a row */
  uint16_t m; /* running max */
  uint16_t d; /* running denominator */
} smx16_unnormed_state_t;

/* One slice through the unnormed unit: lanes >= cnt are ignored (e = +0). Updates the state
 * and returns the slice's e values and the max they were computed against (m_new). */
void smx16_unnormed_slice(const smx16_cfg_t *cfg, smx16_unnormed_state_t *st, const uint16_t *x,
                          int cnt, uint16_t *e, uint16_t *m_slice);

/* One stored slice through the normalization unit for a row with summary (d, m_row):
 * y_j = (e_j * exp(m_slice - m_row)) / d for j < cnt, +0 above. */
void smx16_norm_slice(const smx16_cfg_t *cfg, const uint16_t *e, int cnt, uint16_t m_slice,
                      uint16_t m_row, uint16_t d, uint16_t *y);

/* ---- stream model (what the RTL does, beat by beat) ---- */
typedef struct {
  uint16_t x[SMX16_MAX_VEC];
  int cnt;  /* valid lanes 0..cnt-1; legal: 1..vec, and vec on every beat but the last */
  int last; /* last beat of the row */
} smx16_in_beat_t;

/* The unnormed unit at its ports (softermax_fp16_unnormed): row bookkeeping and error checks
 * (same rules as softermax_unnormed) and the slice computation of one input beat. */
typedef struct {
  smx16_unnormed_state_t st;
  long nelems; /* elements of the row so far, saturating at max_len + 1 */
  int nslices; /* slices of the row kept so far */
  int err;     /* row malformed so far */
} smx16_unnormed_row_t;

typedef struct {
  uint16_t e[SMX16_MAX_VEC]; /* +0 in lanes >= cnt */
  uint16_t m;                /* max the slice was computed against (m_new) */
  int cnt;                   /* valid lanes, clamped to vec */
  int last;
  int store;                 /* slice within max_len: kept by the row buffer */
  uint16_t d;                /* running denominator after this slice */
  int nslices;               /* slices kept so far, this one included */
  int err;                   /* row malformed so far, this beat included */
} smx16_slice_t;

void smx16_unnormed_row_init(smx16_unnormed_row_t *row); /* also after a row's last beat */
void smx16_unnormed_beat(const smx16_cfg_t *cfg, smx16_unnormed_row_t *row,
                         const smx16_in_beat_t *in, smx16_slice_t *out);

typedef struct {
  uint16_t y[SMX16_MAX_VEC]; /* +0 in lanes >= cnt */
  int cnt;
  int last;
  int err; /* malformed row: a single beat {cnt 0, last 1, err 1, y 0} */
} smx16_out_beat_t;

typedef struct smx16_model smx16_model_t;
smx16_model_t *smx16_model_new(const smx16_cfg_t *cfg);
void smx16_model_free(smx16_model_t *m);
void smx16_model_reset(smx16_model_t *m); /* drops a partial row and pending output */
void smx16_model_push(smx16_model_t *m, const smx16_in_beat_t *in);
int smx16_model_pop(smx16_model_t *m, smx16_out_beat_t *out); /* 1 when a beat was returned */
int smx16_model_pending(const smx16_model_t *m);              /* output beats waiting */

/* One well-formed row of n elements (1 <= n <= max_len) through the fp16 unit: y[0..n-1].
 * Returns 0, or -1 when n or the configuration is out of range (y untouched). d and m (may be
 * NULL) receive the row's final denominator and max. */
int softermax_fp16_ref(const smx16_cfg_t *cfg, const uint16_t *x, int n, uint16_t *y,
                       uint16_t *d, uint16_t *m);

/* Float64 softmax of the same fp16 scores: p_j = exp(x_j - max) / sum_k exp(x_k - max), the
 * accuracy reference (NaN in, or a row of only -inf, gives NaN like the fp16 unit). */
void smx16_softmax_f64(const uint16_t *x, int n, double *p);

#ifdef __cplusplus
}
#endif
#endif
