/* softermax_fp16.c -- the arithmetic of the fp16 softmax baseline
 * (rtl/softermax/softermax_fp16_*.v), bit-exact: max, exp, sum and divide. The row
 * bookkeeping, stream model and row loop it plugs into are Softermax's (smx_stream.c); see
 * cmodel/include/softermax_fp16.h and docs/softermax.md ("fp16 baseline") for the operation
 * order. Every IEEE operation goes through fpref (round to nearest even), the exponential is
 * the RTL's integer algorithm. */
#include "softermax_fp16.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fpref.h"
#include "softermax_fp16_lut.h"

#define F16 FP_FMT_F16

/* ---- fp16 helpers and the IEEE operations of the datapath (flags are not used) ---- */
double smx16_to_double(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, f = h & 1023;
  double v;
  if (e == 31)
    v = f ? NAN : INFINITY;
  else if (e == 0)
    v = ldexp((double)f, -24);
  else
    v = ldexp((double)(1024 + f), e - 25);
  return s ? -v : v;
}

uint16_t smx16_from_double(double v) {
  unsigned fl;
  return (uint16_t)fpref_round_double(F16, v, 0, FP_RNE, &fl);
}

static uint16_t f_max(uint16_t a, uint16_t b) {
  unsigned fl;
  return (uint16_t)fpref_max(F16, a, b, &fl);
}
static uint16_t f_add(uint16_t a, uint16_t b) {
  unsigned fl;
  return (uint16_t)fpref_add(F16, a, b, FP_RNE, &fl);
}
static uint16_t f_sub(uint16_t a, uint16_t b) {
  unsigned fl;
  return (uint16_t)fpref_sub(F16, a, b, FP_RNE, &fl);
}
static uint16_t f_mul(uint16_t a, uint16_t b) {
  unsigned fl;
  return (uint16_t)fpref_mul(F16, a, b, FP_RNE, &fl);
}
static uint16_t f_div(uint16_t a, uint16_t b) {
  unsigned fl;
  return (uint16_t)fpref_div(F16, a, b, FP_RNE, &fl);
}

/* ---- exponential (softermax_fp16_exp.v, step by step) ---- */
uint16_t smx16_exp(uint16_t x) {
  int sign = x >> 15, ef = (x >> 10) & 31, fr = x & 1023;
  if (ef == 31 && fr) return SMX16_QNAN;
  if (ef >= 20) return sign ? SMX16_POS_ZERO : SMX16_POS_INF; /* |x| >= 32, infinities */
  uint64_t sig = (uint64_t)((ef ? 1024 : 0) | fr);
  int es = ef ? ef : 1;                             /* x = sig * 2^(es - 25) */
  uint64_t prod = sig * (uint64_t)SMX16_EXP_LOG2E;  /* x * log2(e) * 2^(25 - es + LF) */
  int sh = 25 + SMX16_EXP_LF - SMX16_EXP_TF - es;   /* to TF fraction bits, truncating */
  int64_t tmag = (int64_t)(prod >> sh);
  int64_t t = sign ? -tmag : tmag;
  int64_t n = t >= 0 ? t >> SMX16_EXP_TF : -((-t - 1) >> SMX16_EXP_TF) - 1; /* floor(t) */
  uint32_t f = (uint32_t)(t - n * (1 << SMX16_EXP_TF));                      /* in [0, 1) */
  int rw = SMX16_EXP_TF - SMX16_EXP_KB;
  uint32_t k = f >> rw, r = f & ((1u << rw) - 1u);
  uint64_t y = smx16_exp_c[k] + (((uint64_t)smx16_exp_m[k] * r) >> rw); /* Q(1,YF), in [1, 2) */
  /* y * 2^(n - YF) is exact in double; fp_round_pack's rounding is the correct rounding */
  return smx16_from_double(ldexp((double)y, (int)n - SMX16_EXP_YF));
}

/* ---- fixed-order trees ---- */
static uint16_t tree(const uint16_t *v, int n, uint16_t (*op)(uint16_t, uint16_t)) {
  uint16_t a[SMX_MAX_VEC];
  memcpy(a, v, sizeof(uint16_t) * (size_t)n);
  while (n > 1) {
    int m = 0;
    for (int i = 0; i + 1 < n; i += 2) a[m++] = op(a[i], a[i + 1]);
    if (n & 1) a[m++] = a[n - 1];
    n = m;
  }
  return a[0];
}

uint16_t smx16_max_tree(const uint16_t *v, int n) { return tree(v, n, f_max); }
uint16_t smx16_sum_tree(const uint16_t *v, int n) { return tree(v, n, f_add); }

/* ---- units ---- */
void smx16_unnormed_slice(const smx_cfg_t *cfg, smx_unnormed_state_t *st, const int32_t *x,
                          int cnt, uint16_t *e, int32_t *m_slice) {
  int vec = cfg->vec;
  uint16_t lanes[SMX_MAX_VEC];
  for (int j = 0; j < vec; j++) lanes[j] = j < cnt ? (uint16_t)x[j] : SMX16_NEG_INF;
  uint16_t lmax = smx16_max_tree(lanes, vec);
  uint16_t m_old = st->first ? SMX16_NEG_INF : (uint16_t)st->m;
  uint16_t d_old = st->first ? SMX16_POS_ZERO : (uint16_t)st->d;
  uint16_t m_new = f_max(m_old, lmax);
  uint16_t m_sub = m_new == SMX16_NEG_INF ? SMX16_POS_ZERO : m_new;
  for (int j = 0; j < vec; j++)
    e[j] = j < cnt ? smx16_exp(f_sub((uint16_t)x[j], m_sub)) : SMX16_POS_ZERO;
  uint16_t scale = smx16_exp(f_sub(m_old, m_sub));
  st->d = f_add(f_mul(d_old, scale), smx16_sum_tree(e, vec));
  st->m = m_new;
  st->first = 0;
  *m_slice = m_new;
}

void smx16_norm_slice(const smx_cfg_t *cfg, const uint16_t *e, int cnt, int32_t m_slice,
                      int32_t m_row, uint32_t d, uint16_t *y) {
  uint16_t s = smx16_exp(f_sub((uint16_t)m_slice, (uint16_t)m_row));
  for (int j = 0; j < cfg->vec; j++)
    y[j] = j < cnt ? f_div(f_mul(e[j], s), (uint16_t)d) : SMX16_POS_ZERO;
}

int softermax_fp16_ref(const smx_cfg_t *cfg, const uint16_t *x, int n, uint16_t *y,
                       uint16_t *d, uint16_t *m) {
  if (cfg->fmt != SMX_FMT_FP16 || smx_cfg_check(cfg) || n < 1 || n > cfg->max_len) return -1;
  int32_t *x32 = malloc(sizeof(int32_t) * (size_t)n);
  smx_unnormed_state_t fin;
  if (!x32) return -1;
  for (int i = 0; i < n; i++) x32[i] = x[i];
  int rc = smx_row_ref(cfg, x32, n, y, &fin);
  free(x32);
  if (rc) return -1;
  if (d) *d = (uint16_t)fin.d;
  if (m) *m = (uint16_t)fin.m;
  return 0;
}

void smx16_softmax_f64(const uint16_t *x, int n, double *p) {
  double mx = -INFINITY, s = 0.0;
  int has_nan = 0;
  for (int i = 0; i < n; i++) {
    double v = smx16_to_double(x[i]);
    if (v != v) has_nan = 1;
    else if (v > mx) mx = v;
  }
  for (int i = 0; i < n; i++) {
    p[i] = exp(smx16_to_double(x[i]) - mx); /* NaN for -inf - -inf and for NaN scores */
    s += p[i];
  }
  for (int i = 0; i < n; i++) p[i] = has_nan ? NAN : p[i] / s;
}
