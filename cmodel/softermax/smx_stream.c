/* smx_stream.c -- the skeleton both Softermax models share (cmodel/include/softermax.h): the
 * row bookkeeping and error checks of the unnormed unit at its ports, the stream model (row
 * buffer and output sequencing of the RTL tops softermax and softermax_fp16_baseline) and the
 * row loop of the references. The arithmetic is the format's (cfg->fmt): softermax.c for
 * Softermax, softermax_fp16.c for the fp16 baseline. */
#include <stdlib.h>
#include <string.h>

#include "softermax.h"
#include "softermax_fp16.h"

/* ---- the format's arithmetic ---- */
static void unnormed_slice(const smx_cfg_t *cfg, smx_unnormed_state_t *st, const int32_t *x,
                           int cnt, uint16_t *u, int32_t *m_slice) {
  if (cfg->fmt == SMX_FMT_FP16)
    smx16_unnormed_slice(cfg, st, x, cnt, u, m_slice);
  else
    smx_unnormed_slice(cfg, st, x, cnt, u, m_slice);
}

static void norm_slice(const smx_cfg_t *cfg, const uint16_t *u, int cnt, int32_t m_slice,
                       int32_t m_row, uint32_t d, uint16_t *y) {
  if (cfg->fmt == SMX_FMT_FP16)
    smx16_norm_slice(cfg, u, cnt, m_slice, m_row, d, y);
  else
    smx_norm_slice(cfg, u, cnt, m_slice, m_row, d, y);
}

static int max_slices(const smx_cfg_t *c) { return (c->max_len + c->vec - 1) / c->vec; }

/* ---- the unnormed unit at its ports ---- */
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
  int cnt = in->cnt;
  if (cnt < 1 || cnt > c->vec || (!in->last && cnt != c->vec)) row->err = 1;
  int lanes = cnt < 0 ? 0 : (cnt > c->vec ? c->vec : cnt);
  row->nelems += lanes;
  if (row->nelems > c->max_len) {
    row->err = 1;
    row->nelems = (long)c->max_len + 1;
  }
  unnormed_slice(c, &row->st, in->x, lanes, out->u, &out->m);
  out->cnt = lanes;
  out->last = in->last;
  out->store = row->nslices < max_slices(c);
  row->nslices += out->store;
  out->d = row->st.d;
  out->nslices = row->nslices;
  out->err = row->err;
  if (in->last) smx_unnormed_row_init(row);
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
  slice_t *row;        /* stored slices of the current row (at most max_slices) */
  smx_out_beat_t *out; /* ring of pending output beats */
  int out_cap, out_head, out_count;
};

smx_model_t *smx_model_new(const smx_cfg_t *cfg) {
  if (smx_cfg_check(cfg)) return NULL;
  smx_model_t *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->cfg = *cfg;
  m->row = calloc((size_t)max_slices(cfg), sizeof(slice_t));
  m->out_cap = max_slices(cfg) + 1;
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
    norm_slice(&m->cfg, sl->u, sl->cnt, sl->m, s.m, s.d, o->y);
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

/* ---- one well-formed row: every slice through the unnormed unit, then every slice through
 * the normalization unit against the row's final (m, d) ---- */
int smx_row_ref(const smx_cfg_t *cfg, const int32_t *x, int n, uint16_t *y,
                smx_unnormed_state_t *fin) {
  if (smx_cfg_check(cfg) || n < 1 || n > cfg->max_len) return -1;
  int vec = cfg->vec;
  int ns = (n + vec - 1) / vec;
  uint16_t *u = malloc(sizeof(uint16_t) * (size_t)ns * (size_t)vec);
  int32_t *ms = malloc(sizeof(int32_t) * (size_t)ns);
  if (!u || !ms) {
    free(u);
    free(ms);
    return -1;
  }
  smx_unnormed_state_t st = {1, 0, 0};
  for (int s = 0; s < ns; s++) {
    int cnt = n - s * vec < vec ? n - s * vec : vec;
    unnormed_slice(cfg, &st, x + s * vec, cnt, u + s * vec, &ms[s]);
  }
  uint16_t ys[SMX_MAX_VEC];
  for (int s = 0; s < ns; s++) {
    int cnt = n - s * vec < vec ? n - s * vec : vec;
    norm_slice(cfg, u + s * vec, cnt, ms[s], st.m, st.d, ys);
    memcpy(y + s * vec, ys, sizeof(uint16_t) * (size_t)cnt);
  }
  if (fin) *fin = st;
  free(u);
  free(ms);
  return 0;
}
