/* softermax.h -- bit-exact golden models of the Softermax block (rtl/softermax): Softermax
 * itself and the fp16 softmax baseline it is compared against (softermax_fp16.h).
 *
 * One skeleton serves both (cmodel/softermax/smx_stream.c): the row bookkeeping and error
 * checks of the unnormed unit, the row buffer and output sequencing of the stream model, and
 * the row loop of the reference. smx_cfg_t.fmt picks the arithmetic: SMX_FMT_INT, Softermax's
 * integer max, power of two, fixed-point sum and reciprocal (below); SMX_FMT_FP16, the fp16
 * max, exp, sum and divide of the baseline (softermax_fp16.h). The shared types carry both:
 *
 *   value         Softermax (SMX_FMT_INT)                          fp16 baseline (SMX_FMT_FP16)
 *   x  (input)    signed Q(in_width - in_frac, in_frac) code       fp16 bit pattern
 *   u  (slice)    unnormed 2^(x - m), Q(1,15)                      e = exp(x - m), fp16
 *   m  (max)      integer, in_width - in_frac + 1 bits signed      fp16 bit pattern
 *   d  (sum)      Q(10,sum_frac), 10 + sum_frac bits, saturating   fp16 bit pattern
 *   y  (output)   Q(1,7), 8 bits, saturating                       fp16 bit pattern
 *
 * Softermax's formats (Table 5.1 of the dissertation, decisions in docs/softermax.md): input
 * default Q(6,2); the running max needs one more integer bit than the input (ceil(31.75) =
 * 32); the reciprocal of d is a Q(1,7) mantissa with a power-of-two exponent from the lzc of d.
 * Every narrowing step is defined in docs/softermax.md and followed here and in the RTL.
 *
 * Three levels of API:
 *   - unit functions mirroring the hardware sub-units (pow2, recip, one slice of the unnormed
 *     unit, one slice of the normalization unit; the fp16 ones in softermax_fp16.h);
 *   - the units at their ports (smx_unnormed_beat) and a stream model (smx_model_*) that takes
 *     input beats exactly as the RTL top does, including malformed ones, and yields the output
 *     beats the RTL must produce;
 *   - softermax_ref() / softermax_fp16_ref(): one well-formed row in, probabilities out.
 */
#ifndef SOFTERMAX_H
#define SOFTERMAX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMX_MAX_VEC 64
#define SMX_U_FRAC 15  /* unnormed u: Q(1,15) */
#define SMX_U_BITS 16
#define SMX_D_INT 10   /* power sum integer bits: Q(10, sum_frac) */
#define SMX_RQ_FRAC 7  /* reciprocal mantissa: Q(1,7), in [0.5, 1] */
#define SMX_RQ_BITS 8
#define SMX_Y_FRAC 7   /* output y: Q(1,7) */
#define SMX_Y_BITS 8
/* y = round((u >> (m - m_j)) * rq / 2^(SMX_P_SHIFT - lz)) (24 - lz): 1/d = rq/2^7 * 2^(lz - 9) */
#define SMX_P_SHIFT (SMX_U_FRAC + SMX_RQ_FRAC + SMX_D_INT - 1 - SMX_Y_FRAC)

enum { SMX_FMT_INT = 0, SMX_FMT_FP16 = 1 };

typedef struct {
  int fmt;            /* SMX_FMT_INT (Softermax) or SMX_FMT_FP16 (the baseline: vec, max_len) */
  int vec;            /* lanes per slice (elements per cycle), 1..SMX_MAX_VEC */
  int max_len;        /* longest legal row, elements */
  int in_width;       /* input width, bits (default 8) */
  int in_frac;        /* input fraction bits (default 2; >= 2) */
  int recip_seg_bits; /* log2 of reciprocal LPW segments (default 2: 4 segments; 2..4) */
  int sum_frac;       /* power-sum fraction bits (default 6, the paper's Q(10,6); 6..13) */
} smx_cfg_t;

/* Softermax with the paper's defaults (Q(6,2) in, 4-segment reciprocal, Q(10,6) sum). */
void smx_cfg_default(smx_cfg_t *cfg, int vec, int max_len);
/* The fp16 baseline (the Softermax-only fields keep their defaults and are unused). */
void smx16_cfg_default(smx_cfg_t *cfg, int vec, int max_len);
/* 0 when the configuration is supported, -1 otherwise. */
int smx_cfg_check(const smx_cfg_t *cfg);

/* ---- Softermax sub-units ---- */
/* ceil(x) as an integer (IntMax's per-element step). */
int32_t smx_ceil_int(const smx_cfg_t *cfg, int32_t x);
/* 2^(t / 2^in_frac) for t <= 0, Q(1,15). */
uint16_t smx_pow2(const smx_cfg_t *cfg, int32_t t);
/* Reciprocal of the power sum: 1/d = rq/2^7 * 2^(lz - 9) with lz the leading zeros of d in
 * its 10 + sum_frac bits. */
void smx_recip(const smx_cfg_t *cfg, uint32_t d, uint8_t *rq, int *lz);
/* One output element: (u >> shift) * rq, scaled by lz, rounded half up, saturated. */
uint8_t smx_norm_elem(uint16_t u, int32_t shift, uint8_t rq, int lz);

/* Running state of the unnormed unit for one row (m and d mean nothing while first). */
typedef struct {
  int first;  /* next slice starts a row */
  int32_t m;  /* running max */
  uint32_t d; /* running power sum / denominator */
} smx_unnormed_state_t;

/* One slice through Softermax's unnormed unit: lanes >= cnt are ignored (u = 0). Updates the
 * state and returns the slice's u values and the max they were computed against. (The fp16
 * counterparts, smx16_unnormed_slice / smx16_norm_slice, take the same arguments.) */
void smx_unnormed_slice(const smx_cfg_t *cfg, smx_unnormed_state_t *st, const int32_t *x,
                        int cnt, uint16_t *u, int32_t *m_slice);

/* One stored slice through Softermax's normalization unit for a row whose summary is
 * (d, m_row): y = Q(1,7) codes, lanes >= cnt 0. */
void smx_norm_slice(const smx_cfg_t *cfg, const uint16_t *u, int cnt, int32_t m_slice,
                    int32_t m_row, uint32_t d, uint16_t *y);

/* ---- the units at their ports and the stream model (what the RTL does, beat by beat) ---- */
typedef struct {
  int32_t x[SMX_MAX_VEC];
  int cnt;  /* valid lanes 0..cnt-1; legal: 1..vec, and vec on every beat but the last */
  int last; /* last beat of the row */
} smx_in_beat_t;

/* The unnormed unit at its ports (softermax_unnormed, softermax_fp16_unnormed): row
 * bookkeeping, error checks and the slice computation of one input beat. */
typedef struct {
  smx_unnormed_state_t st;
  long nelems; /* elements of the row so far, saturating at max_len + 1 */
  int nslices; /* slices of the row kept so far */
  int err;     /* row malformed so far */
} smx_unnormed_row_t;

typedef struct {
  uint16_t u[SMX_MAX_VEC]; /* 0 in lanes >= cnt */
  int32_t m;               /* max the slice was computed against */
  int cnt;                 /* valid lanes, clamped to vec */
  int last;
  int store;               /* slice within max_len: kept by the row buffer */
  uint32_t d;              /* running power sum after this slice */
  int nslices;             /* slices kept so far, this one included */
  int err;                 /* row malformed so far, this beat included */
} smx_slice_t;

void smx_unnormed_row_init(smx_unnormed_row_t *row); /* also after a row's last beat */
void smx_unnormed_beat(const smx_cfg_t *cfg, smx_unnormed_row_t *row, const smx_in_beat_t *in,
                       smx_slice_t *out);

typedef struct {
  uint16_t y[SMX_MAX_VEC]; /* lanes >= cnt are 0 */
  int cnt;
  int last;
  int err; /* malformed row: a single beat {cnt 0, last 1, err 1, y 0} */
} smx_out_beat_t;

typedef struct smx_model smx_model_t;
smx_model_t *smx_model_new(const smx_cfg_t *cfg);
void smx_model_free(smx_model_t *m);
void smx_model_reset(smx_model_t *m);       /* drops a partial row and pending output */
void smx_model_push(smx_model_t *m, const smx_in_beat_t *in);
int smx_model_pop(smx_model_t *m, smx_out_beat_t *out); /* 1 when a beat was returned */
int smx_model_pending(const smx_model_t *m);              /* output beats waiting */

/* ---- one well-formed row ---- */
/* The row loop of both formats: n elements (1 <= n <= max_len) in, y[0..n-1] out; fin (may
 * be NULL) receives the final state (m, d). Returns 0, or -1 when n or the configuration is
 * out of range (y untouched). */
int smx_row_ref(const smx_cfg_t *cfg, const int32_t *x, int n, uint16_t *y,
                smx_unnormed_state_t *fin);

/* Row statistics of the last completed row (for tests and benches). */
typedef struct {
  int32_t m;   /* final integer max */
  uint32_t d;  /* final power sum, Q(10, sum_frac) */
  uint8_t rq;  /* reciprocal mantissa, Q(1,7) */
  int lz;      /* leading zeros of d */
} smx_row_stats_t;

/* Softermax (cfg->fmt SMX_FMT_INT): one well-formed row of n elements (1 <= n <= max_len):
 * y[0..n-1]. Returns 0, or -1 when n is out of range (y untouched). stats may be NULL. */
int softermax_ref(const smx_cfg_t *cfg, const int32_t *x, int n, uint8_t *y,
                  smx_row_stats_t *stats);

#ifdef __cplusplus
}
#endif
#endif
