/* softermax.c -- Softermax's arithmetic (rtl/softermax/softermax_{unnormed,norm,pow2,recip}.v),
 * bit-exact: the integer max, power of two, fixed-point power sum and reciprocal. The row
 * bookkeeping, stream model and row loop it plugs into are in smx_stream.c; see
 * cmodel/include/softermax.h and docs/softermax.md for every format and rounding decision. */
#include "softermax.h"

#include <stdlib.h>
#include <string.h>

#include "softermax_lut.h"

void smx_cfg_default(smx_cfg_t *cfg, int vec, int max_len) {
  cfg->fmt = SMX_FMT_INT;
  cfg->vec = vec;
  cfg->max_len = max_len;
  cfg->in_width = 8;
  cfg->in_frac = 2;
  cfg->recip_seg_bits = 2;
  cfg->sum_frac = 6;
}

void smx16_cfg_default(smx_cfg_t *cfg, int vec, int max_len) {
  smx_cfg_default(cfg, vec, max_len);
  cfg->fmt = SMX_FMT_FP16;
}

int smx_cfg_check(const smx_cfg_t *cfg) {
  if (cfg->fmt != SMX_FMT_INT && cfg->fmt != SMX_FMT_FP16) return -1;
  if (cfg->vec < 1 || cfg->vec > SMX_MAX_VEC) return -1;
  if (cfg->max_len < 1) return -1;
  if (cfg->fmt == SMX_FMT_FP16) return 0; /* the rest is Softermax's number format */
  if (cfg->in_frac < 2 || cfg->in_frac > 8) return -1;
  if (cfg->in_width < cfg->in_frac + 2 || cfg->in_width > 16) return -1;
  if (cfg->recip_seg_bits < 2 || cfg->recip_seg_bits > 4) return -1;
  if (cfg->sum_frac < 6 || cfg->sum_frac > 13) return -1;
  return 0;
}

/* Arithmetic shift right of a negative or positive int (floor division by 2^s). */
static int32_t asr(int32_t v, int s) { return v >= 0 ? v >> s : -(int32_t)((-(int64_t)v - 1) >> s) - 1; }

int32_t smx_ceil_int(const smx_cfg_t *cfg, int32_t x) {
  return asr(x + (1 << cfg->in_frac) - 1, cfg->in_frac);
}

uint16_t smx_pow2(const smx_cfg_t *cfg, int32_t t) {
  int f = cfg->in_frac;
  int32_t ip = asr(t, f);                      /* floor(t), <= 0 */
  uint32_t fr = (uint32_t)(t - ip * (1 << f)); /* fraction, 0 .. 2^f - 1 */
  uint32_t seg = fr >> (f - 2);
  uint32_t rem = fr & ((1u << (f - 2)) - 1u);
  uint32_t lpw = smx_pow_c[seg] + ((smx_pow_m[seg] * rem) >> (f - 2));
  int32_t sh = -ip;
  return sh >= 16 ? 0 : (uint16_t)(lpw >> sh); /* truncate */
}

static int dwidth(const smx_cfg_t *cfg) { return SMX_D_INT + cfg->sum_frac; }

void smx_recip(const smx_cfg_t *cfg, uint32_t d, uint8_t *rq, int *lz) {
  int s = cfg->recip_seg_bits, dw = dwidth(cfg);
  uint32_t dd = d ? d : 1; /* d is never 0 for a legal row; 0 is treated as the smallest d */
  int z = 0;
  while (!(dd & (1u << (dw - 1 - z)))) z++;
  /* the 15 mantissa bits below the leading one (dw >= 16, so none is lost but the tail) */
  uint32_t frac = ((dd << z) >> (dw - 16)) & 0x7FFFu;
  uint32_t seg = frac >> (15 - s);
  uint32_t rem = frac & ((1u << (15 - s)) - 1u);
  uint32_t r15 = smx_rcp_c[s - 2][seg] - ((smx_rcp_m[s - 2][seg] * rem) >> (15 - s));
  int drop = 15 - SMX_RQ_FRAC; /* Q(1,15) -> Q(1,7), round half up */
  *rq = (uint8_t)((r15 + (1u << (drop - 1))) >> drop);
  *lz = z;
}

uint8_t smx_norm_elem(uint16_t u, int32_t shift, uint8_t rq, int lz) {
  uint32_t us = shift >= SMX_U_BITS ? 0 : (uint32_t)u >> shift;
  uint32_t prod = us * rq;     /* Q(2,22) */
  int sh = SMX_P_SHIFT - lz;   /* 1 .. 24 (lz <= 23) */
  uint32_t q = prod >> (sh - 1);
  uint32_t y = (q + 1) >> 1;   /* round half up */
  uint32_t ymax = (1u << SMX_Y_BITS) - 1u;
  return (uint8_t)(y > ymax ? ymax : y);
}

void smx_unnormed_slice(const smx_cfg_t *cfg, smx_unnormed_state_t *st, const int32_t *x,
                        int cnt, uint16_t *u, int32_t *m_slice) {
  int32_t mmin = -(1 << (cfg->in_width - cfg->in_frac));
  int32_t lmax = mmin;
  for (int j = 0; j < cnt && j < cfg->vec; j++) {
    int32_t c = smx_ceil_int(cfg, x[j]);
    if (c > lmax) lmax = c;
  }
  int32_t m_new = st->first ? lmax : (lmax > st->m ? lmax : st->m);
  int dw = dwidth(cfg);
  int32_t shift = st->first ? dw : m_new - st->m;
  uint32_t lsum = 0;
  for (int j = 0; j < cfg->vec; j++) {
    u[j] = j < cnt ? smx_pow2(cfg, x[j] - m_new * (1 << cfg->in_frac)) : 0;
    lsum += u[j];
  }
  /* Q(.,15) -> Q(.,6) and the renormalizing shift both round half up: truncation biases the
   * power sum low by up to one LSB per slice (docs/softermax.md, "Rounding"). */
  int fd = SMX_U_FRAC - cfg->sum_frac; /* fraction bits dropped */
  uint32_t lsum_d = (lsum + (1u << (fd - 1))) >> fd;
  uint32_t dsh = shift >= dw ? 0
                 : shift == 0 ? st->d
                              : (((uint32_t)st->d >> (shift - 1)) + 1u) >> 1;
  uint32_t d = dsh + lsum_d;
  uint32_t dmax = (1u << dw) - 1u;
  st->d = d > dmax ? dmax : d;
  st->m = m_new;
  st->first = 0;
  *m_slice = m_new;
}

void smx_norm_slice(const smx_cfg_t *cfg, const uint16_t *u, int cnt, int32_t m_slice,
                    int32_t m_row, uint32_t d, uint16_t *y) {
  uint8_t rq;
  int lz;
  smx_recip(cfg, d, &rq, &lz);
  for (int j = 0; j < cfg->vec; j++) y[j] = j < cnt ? smx_norm_elem(u[j], m_row - m_slice, rq, lz) : 0;
}

int softermax_ref(const smx_cfg_t *cfg, const int32_t *x, int n, uint8_t *y,
                  smx_row_stats_t *stats) {
  if (cfg->fmt != SMX_FMT_INT || smx_cfg_check(cfg) || n < 1 || n > cfg->max_len) return -1;
  uint16_t *y16 = malloc(sizeof(uint16_t) * (size_t)n);
  smx_unnormed_state_t fin;
  if (!y16 || smx_row_ref(cfg, x, n, y16, &fin)) {
    free(y16);
    return -1;
  }
  for (int i = 0; i < n; i++) y[i] = (uint8_t)y16[i];
  if (stats) {
    stats->m = fin.m;
    stats->d = fin.d;
    smx_recip(cfg, fin.d, &stats->rq, &stats->lz);
  }
  free(y16);
  return 0;
}
