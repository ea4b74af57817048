/* softermax.c -- bit-exact golden model of rtl/softermax (see cmodel/include/softermax.h
 * and docs/softermax.md for every format and rounding decision). */
#include "softermax.h"

#include <stdlib.h>
#include <string.h>

#include "softermax_lut.h"

void smx_cfg_default(smx_cfg_t *cfg, int vec, int max_len) {
  cfg->vec = vec;
  cfg->max_len = max_len;
  cfg->in_width = 8;
  cfg->in_frac = 2;
  cfg->recip_seg_bits = 2;
  cfg->sum_frac = 6;
}

int smx_cfg_check(const smx_cfg_t *cfg) {
  if (cfg->vec < 1 || cfg->vec > SMX_MAX_VEC) return -1;
  if (cfg->max_len < 1) return -1;
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
  *rq = (uint8_t)((r15 + (1u << 7)) >> 8); /* round half up to Q(1,7) */
  *lz = z;
}

uint8_t smx_norm_elem(uint16_t u, int32_t shift, uint8_t rq, int lz) {
  uint32_t us = shift >= 16 ? 0 : (uint32_t)u >> shift;
  uint32_t prod = us * rq;     /* Q(2,22) */
  int sh = 24 - lz;            /* 1 .. 24 (lz <= 23) */
  uint32_t q = prod >> (sh - 1);
  uint32_t y = (q + 1) >> 1;   /* round half up */
  return (uint8_t)(y > 255 ? 255 : y);
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

/* ---- unit-level models ---- */
void smx_unnormed_row_init(smx_unnormed_row_t *row) {
  row->st.first = 1;
  row->st.m = 0;
  row->st.d = 0;
  row->nelems = 0;
  row->nslices = 0;
  row->err = 0;
}

void smx_unnormed_beat(const smx_cfg_t *c, smx_unnormed_row_t *row, const smx_in_beat_t *in,
                       smx_slice_t *out) {
  int max_slices = (c->max_len + c->vec - 1) / c->vec;
  int cnt = in->cnt;
  if (cnt < 1 || cnt > c->vec || (!in->last && cnt != c->vec)) row->err = 1;
  int lanes = cnt < 0 ? 0 : (cnt > c->vec ? c->vec : cnt);
  row->nelems += lanes;
  if (row->nelems > c->max_len) {
    row->err = 1;
    row->nelems = (long)c->max_len + 1;
  }
  smx_unnormed_slice(c, &row->st, in->x, lanes, out->u, &out->m);
  out->cnt = lanes;
  out->last = in->last;
  out->store = row->nslices < max_slices;
  row->nslices += out->store;
  out->d = row->st.d;
  out->nslices = row->nslices;
  out->err = row->err;
  if (in->last) smx_unnormed_row_init(row);
}

void smx_norm_slice(const smx_cfg_t *cfg, const uint16_t *u, int cnt, int32_t m_slice,
                    int32_t m_row, uint32_t d, uint8_t *y) {
  uint8_t rq;
  int lz;
  smx_recip(cfg, d, &rq, &lz);
  for (int j = 0; j < cfg->vec; j++) y[j] = j < cnt ? smx_norm_elem(u[j], m_row - m_slice, rq, lz) : 0;
}

/* ---- stream model ---- */
typedef struct {
  uint16_t u[SMX_MAX_VEC];
  int32_t m;
  int cnt;
} slice_t;

struct smx_model {
  smx_cfg_t cfg;
  smx_unnormed_row_t un;
  slice_t *row;      /* stored slices of the current row (at most max_slices) */
  int max_slices;
  smx_out_beat_t *out; /* ring of pending output beats */
  int out_cap, out_head, out_count;
};

smx_model_t *smx_model_new(const smx_cfg_t *cfg) {
  if (smx_cfg_check(cfg)) return NULL;
  smx_model_t *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->cfg = *cfg;
  m->max_slices = (cfg->max_len + cfg->vec - 1) / cfg->vec;
  m->row = calloc((size_t)m->max_slices, sizeof(slice_t));
  m->out_cap = m->max_slices + 1;
  m->out = calloc((size_t)m->out_cap, sizeof(smx_out_beat_t));
  if (!m->row || !m->out) {
    smx_model_free(m);
    return NULL;
  }
  smx_model_reset(m);
  return m;
}

void smx_model_free(smx_model_t *m) {
  if (!m) return;
  free(m->row);
  free(m->out);
  free(m);
}

void smx_model_reset(smx_model_t *m) {
  smx_unnormed_row_init(&m->un);
  m->out_head = 0;
  m->out_count = 0;
}

static smx_out_beat_t *out_slot(smx_model_t *m) {
  smx_out_beat_t *o = &m->out[(m->out_head + m->out_count) % m->out_cap];
  m->out_count++;
  memset(o, 0, sizeof(*o));
  return o;
}

void smx_model_push(smx_model_t *m, const smx_in_beat_t *in) {
  smx_slice_t s;
  smx_unnormed_beat(&m->cfg, &m->un, in, &s);
  if (s.store) {
    slice_t *sl = &m->row[s.nslices - 1];
    memcpy(sl->u, s.u, sizeof(sl->u));
    sl->m = s.m;
    sl->cnt = s.cnt;
  }
  if (!s.last) return;
  /* row complete: one output beat per stored slice, or a single error beat */
  if (s.err) {
    smx_out_beat_t *o = out_slot(m);
    o->last = 1;
    o->err = 1;
    return;
  }
  for (int k = 0; k < s.nslices; k++) {
    smx_out_beat_t *o = out_slot(m);
    const slice_t *sl = &m->row[k];
    o->cnt = sl->cnt;
    o->last = k == s.nslices - 1;
    smx_norm_slice(&m->cfg, sl->u, sl->cnt, sl->m, s.m, s.d, o->y);
  }
}

int smx_model_pop(smx_model_t *m, smx_out_beat_t *out) {
  if (!m->out_count) return 0;
  *out = m->out[m->out_head];
  m->out_head = (m->out_head + 1) % m->out_cap;
  m->out_count--;
  return 1;
}

int smx_model_pending(const smx_model_t *m) { return m->out_count; }

int softermax_ref(const smx_cfg_t *cfg, const int32_t *x, int n, uint8_t *y,
                  smx_row_stats_t *stats) {
  if (smx_cfg_check(cfg) || n < 1 || n > cfg->max_len) return -1;
  smx_unnormed_state_t st = {1, 0, 0};
  int vec = cfg->vec;
  int ns = (n + vec - 1) / vec;
  uint16_t *u = malloc(sizeof(uint16_t) * (size_t)ns * (size_t)vec);
  int32_t *ms = malloc(sizeof(int32_t) * (size_t)ns);
  if (!u || !ms) {
    free(u);
    free(ms);
    return -1;
  }
  for (int s = 0; s < ns; s++) {
    int cnt = n - s * vec < vec ? n - s * vec : vec;
    smx_unnormed_slice(cfg, &st, x + s * vec, cnt, u + s * vec, &ms[s]);
  }
  uint8_t rq;
  int lz;
  smx_recip(cfg, st.d, &rq, &lz);
  for (int i = 0; i < n; i++) y[i] = smx_norm_elem(u[i], st.m - ms[i / vec], rq, lz);
  if (stats) {
    stats->m = st.m;
    stats->d = st.d;
    stats->rq = rq;
    stats->lz = lz;
  }
  free(u);
  free(ms);
  return 0;
}
