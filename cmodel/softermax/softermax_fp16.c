/* softermax_fp16.c -- bit-exact golden model of the fp16 softmax baseline
 * (rtl/softermax/softermax_fp16_*.v); see cmodel/include/softermax_fp16.h and
 * docs/softermax.md ("fp16 baseline") for the operation order. Every IEEE operation goes
 * through fpref (round to nearest even), the exponential is the RTL's integer algorithm. */
#include "softermax_fp16.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fpref.h"
#include "softermax_fp16_lut.h"

#define F16 FP_FMT_F16

int smx16_cfg_check(const smx16_cfg_t *cfg) {
  if (cfg->vec < 1 || cfg->vec > SMX16_MAX_VEC) return -1;
  if (cfg->max_len < 1) return -1;
  return 0;
}

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
  uint16_t a[SMX16_MAX_VEC];
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
void smx16_unnormed_slice(const smx16_cfg_t *cfg, smx16_unnormed_state_t *st, const uint16_t *x,
                          int cnt, uint16_t *e, uint16_t *m_slice) {
  int vec = cfg->vec;
  uint16_t lanes[SMX16_MAX_VEC];
  for (int j = 0; j < vec; j++) lanes[j] = j < cnt ? x[j] : SMX16_NEG_INF;
  uint16_t lmax = smx16_max_tree(lanes, vec);
  uint16_t m_old = st->first ? SMX16_NEG_INF : st->m;
  uint16_t d_old = st->first ? SMX16_POS_ZERO : st->d;
  uint16_t m_new = f_max(m_old, lmax);
  uint16_t m_sub = m_new == SMX16_NEG_INF ? SMX16_POS_ZERO : m_new;
  for (int j = 0; j < vec; j++) e[j] = j < cnt ? smx16_exp(f_sub(x[j], m_sub)) : SMX16_POS_ZERO;
  uint16_t scale = smx16_exp(f_sub(m_old, m_sub));
  st->d = f_add(f_mul(d_old, scale), smx16_sum_tree(e, vec));
  st->m = m_new;
  st->first = 0;
  *m_slice = m_new;
}

void smx16_norm_slice(const smx16_cfg_t *cfg, const uint16_t *e, int cnt, uint16_t m_slice,
                      uint16_t m_row, uint16_t d, uint16_t *y) {
  uint16_t s = smx16_exp(f_sub(m_slice, m_row));
  for (int j = 0; j < cfg->vec; j++) y[j] = j < cnt ? f_div(f_mul(e[j], s), d) : SMX16_POS_ZERO;
}

void smx16_unnormed_row_init(smx16_unnormed_row_t *row) {
  row->st.first = 1;
  row->st.m = SMX16_NEG_INF;
  row->st.d = SMX16_POS_ZERO;
  row->nelems = 0;
  row->nslices = 0;
  row->err = 0;
}

void smx16_unnormed_beat(const smx16_cfg_t *c, smx16_unnormed_row_t *row,
                         const smx16_in_beat_t *in, smx16_slice_t *out) {
  int max_slices = (c->max_len + c->vec - 1) / c->vec;
  int cnt = in->cnt;
  if (cnt < 1 || cnt > c->vec || (!in->last && cnt != c->vec)) row->err = 1;
  int lanes = cnt < 0 ? 0 : (cnt > c->vec ? c->vec : cnt);
  row->nelems += lanes;
  if (row->nelems > c->max_len) {
    row->err = 1;
    row->nelems = (long)c->max_len + 1;
  }
  smx16_unnormed_slice(c, &row->st, in->x, lanes, out->e, &out->m);
  out->cnt = lanes;
  out->last = in->last;
  out->store = row->nslices < max_slices;
  row->nslices += out->store;
  out->d = row->st.d;
  out->nslices = row->nslices;
  out->err = row->err;
  if (in->last) smx16_unnormed_row_init(row);
}

/* ---- stream model ---- */
typedef struct {
  uint16_t e[SMX16_MAX_VEC];
  uint16_t m;
  int cnt;
} slice_t;

struct smx16_model {
  smx16_cfg_t cfg;
  smx16_unnormed_row_t un;
  slice_t *row; /* stored slices of the current row (at most max_slices) */
  int max_slices;
  smx16_out_beat_t *out; /* ring of pending output beats */
  int out_cap, out_head, out_count;
};

smx16_model_t *smx16_model_new(const smx16_cfg_t *cfg) {
  if (smx16_cfg_check(cfg)) return NULL;
  smx16_model_t *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->cfg = *cfg;
  m->max_slices = (cfg->max_len + cfg->vec - 1) / cfg->vec;
  m->row = calloc((size_t)m->max_slices, sizeof(slice_t));
  m->out_cap = m->max_slices + 1;
  m->out = calloc((size_t)m->out_cap, sizeof(smx16_out_beat_t));
  if (!m->row || !m->out) {
    smx16_model_free(m);
    return NULL;
  }
  smx16_model_reset(m);
  return m;
}

void smx16_model_free(smx16_model_t *m) {
  if (!m) return;
  free(m->row);
  free(m->out);
  free(m);
}

void smx16_model_reset(smx16_model_t *m) {
  smx16_unnormed_row_init(&m->un);
  m->out_head = 0;
  m->out_count = 0;
}

static smx16_out_beat_t *out_slot(smx16_model_t *m) {
  smx16_out_beat_t *o = &m->out[(m->out_head + m->out_count) % m->out_cap];
  m->out_count++;
  memset(o, 0, sizeof(*o));
  return o;
}

void smx16_model_push(smx16_model_t *m, const smx16_in_beat_t *in) {
  smx16_slice_t s;
  smx16_unnormed_beat(&m->cfg, &m->un, in, &s);
  if (s.store) {
    slice_t *sl = &m->row[s.nslices - 1];
    memcpy(sl->e, s.e, sizeof(sl->e));
    sl->m = s.m;
    sl->cnt = s.cnt;
  }
  if (!s.last) return;
  /* row complete: one output beat per stored slice, or a single error beat */
  if (s.err) {
    smx16_out_beat_t *o = out_slot(m);
    o->last = 1;
    o->err = 1;
    return;
  }
  for (int k = 0; k < s.nslices; k++) {
    smx16_out_beat_t *o = out_slot(m);
    const slice_t *sl = &m->row[k];
    o->cnt = sl->cnt;
    o->last = k == s.nslices - 1;
    smx16_norm_slice(&m->cfg, sl->e, sl->cnt, sl->m, s.m, s.d, o->y);
  }
}

int smx16_model_pop(smx16_model_t *m, smx16_out_beat_t *out) {
  if (!m->out_count) return 0;
  *out = m->out[m->out_head];
  m->out_head = (m->out_head + 1) % m->out_cap;
  m->out_count--;
  return 1;
}

int smx16_model_pending(const smx16_model_t *m) { return m->out_count; }

int softermax_fp16_ref(const smx16_cfg_t *cfg, const uint16_t *x, int n, uint16_t *y,
                       uint16_t *d, uint16_t *m) {
  if (smx16_cfg_check(cfg) || n < 1 || n > cfg->max_len) return -1;
  int vec = cfg->vec;
  int ns = (n + vec - 1) / vec;
  uint16_t *e = malloc(sizeof(uint16_t) * (size_t)ns * (size_t)vec);
  uint16_t *ms = malloc(sizeof(uint16_t) * (size_t)ns);
  if (!e || !ms) {
    free(e);
    free(ms);
    return -1;
  }
  smx16_unnormed_state_t st = {1, SMX16_NEG_INF, SMX16_POS_ZERO};
  for (int s = 0; s < ns; s++) {
    int cnt = n - s * vec < vec ? n - s * vec : vec;
    smx16_unnormed_slice(cfg, &st, x + s * vec, cnt, e + s * vec, &ms[s]);
  }
  uint16_t ys[SMX16_MAX_VEC];
  for (int s = 0; s < ns; s++) {
    int cnt = n - s * vec < vec ? n - s * vec : vec;
    smx16_norm_slice(cfg, e + s * vec, cnt, ms[s], st.m, st.d, ys);
    memcpy(y + s * vec, ys, sizeof(uint16_t) * (size_t)cnt);
  }
  if (d) *d = st.d;
  if (m) *m = st.m;
  free(e);
  free(ms);
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
