/* softermax.h -- bit-exact golden model of the Softermax block (rtl/softermax).
 *
 * Number formats (Table 5.1 of the dissertation, decisions in docs/softermax.md):
 *   input x        signed, in_width bits, in_frac fraction bits   (default Q(6,2), 8 bits)
 *   running max m  integer, in_width - in_frac + 1 bits signed   (ceil(31.75) = 32 needs it)
 *   unnormed u     Q(1,15) unsigned, 16 bits
 *   power sum d    Q(10,sum_frac) unsigned, 10 + sum_frac bits, saturating (paper: Q(10,6))
 *   reciprocal     mantissa Q(1,7) (8 bits) with a power-of-two exponent from the lzc of d
 *   output y       Q(1,7) unsigned, 8 bits, saturating
 * Every narrowing step is defined in docs/softermax.md and followed here and in the RTL.
 *
 * Two levels of API:
 *   - unit functions mirroring the hardware sub-units (pow2, recip, one slice of the unnormed
 *     unit, one slice of the normalization unit);
 *   - a stream model (smx_model_*) that takes input beats exactly as the RTL top does,
 *     including malformed ones, and yields the output beats the RTL must produce;
 *   - softermax_ref(): one well-formed row in, probabilities out.
 */
#ifndef SOFTERMAX_H
#define SOFTERMAX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMX_MAX_VEC 64
#define SMX_U_FRAC 15 /* unnormed Q(1,15) */
#define SMX_D_INT 10 /* power sum integer bits: Q(10, sum_frac) */
#define SMX_Y_FRAC 7 /* output Q(1,7) */

typedef struct {
  int vec;            /* lanes per slice (elements per cycle), 1..SMX_MAX_VEC */
  int max_len;        /* longest legal row, elements */
  int in_width;       /* input width, bits (default 8) */
  int in_frac;        /* input fraction bits (default 2; >= 2) */
  int recip_seg_bits; /* log2 of reciprocal LPW segments (default 2: 4 segments; 2..4) */
  int sum_frac;       /* power-sum fraction bits (default 6, the paper's Q(10,6); 6..13) */
} smx_cfg_t;

/* Defaults of the paper (Q(6,2) in, 4-segment reciprocal) with the given vec and max_len. */
void smx_cfg_default(smx_cfg_t *cfg, int vec, int max_len);
/* 0 when the configuration is supported, -1 otherwise. */
int smx_cfg_check(const smx_cfg_t *cfg);

/* ---- sub-units ---- */
/* ceil(x) as an integer (IntMax's per-element step). */
int32_t smx_ceil_int(const smx_cfg_t *cfg, int32_t x);
/* 2^(t / 2^in_frac) for t <= 0, Q(1,15). */
uint16_t smx_pow2(const smx_cfg_t *cfg, int32_t t);
/* Reciprocal of the power sum: 1/d = rq/2^7 * 2^(lz - 9) with lz the leading zeros of d in
 * its 10 + sum_frac bits. */
void smx_recip(const smx_cfg_t *cfg, uint32_t d, uint8_t *rq, int *lz);
/* One output element: (u >> shift) * rq, scaled by lz, rounded half up, saturated. */
uint8_t smx_norm_elem(uint16_t u, int32_t shift, uint8_t rq, int lz);

/* Running state of the unnormed unit for one row. */
typedef struct {
  int first;     /* next slice starts a row */
  int32_t m;     /* running integer max */
  uint32_t d;    /* running power sum, Q(10, sum_frac) */
} smx_unnormed_state_t;

/* One slice through the unnormed unit: lanes >= cnt are ignored (u = 0). Updates the state
 * and returns the slice's u values and the max they were computed against. */
void smx_unnormed_slice(const smx_cfg_t *cfg, smx_unnormed_state_t *st, const int32_t *x,
                        int cnt, uint16_t *u, int32_t *m_slice);

/* ---- stream model (what the RTL top does, beat by beat) ---- */
typedef struct {
  int32_t x[SMX_MAX_VEC];
  int cnt;   /* valid lanes 0..cnt-1; legal: 1..vec, and vec on every beat but the last */
  int last;  /* last beat of the row */
} smx_in_beat_t;

/* The unnormed unit at its ports (softermax_unnormed): row bookkeeping, error checks and the
 * slice computation of one input beat. */
typedef struct {
  smx_unnormed_state_t st;
  long nelems;  /* elements of the row so far, saturating at max_len + 1 */
  int nslices;  /* slices of the row kept so far */
  int err;      /* row malformed so far */
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

/* The normalization unit at its ports (softermax_norm): one stored slice of a row whose
 * summary is (d, m_row). y lanes >= cnt are 0. */
void smx_norm_slice(const smx_cfg_t *cfg, const uint16_t *u, int cnt, int32_t m_slice,
                    int32_t m_row, uint32_t d, uint8_t *y);

typedef struct {
  uint8_t y[SMX_MAX_VEC]; /* lanes >= cnt are 0 */
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

/* Row statistics of the last completed row (for tests and benches). */
typedef struct {
  int32_t m;   /* final integer max */
  uint32_t d;  /* final power sum, Q(10, sum_frac) */
  uint8_t rq;  /* reciprocal mantissa, Q(1,7) */
  int lz;      /* leading zeros of d */
} smx_row_stats_t;

/* One well-formed row of n elements (1 <= n <= max_len): y[0..n-1]. Returns 0, or -1 when
 * n is out of range (y untouched). stats may be NULL. */
int softermax_ref(const smx_cfg_t *cfg, const int32_t *x, int n, uint8_t *y,
                  smx_row_stats_t *stats);

#ifdef __cplusplus
}
#endif
#endif
