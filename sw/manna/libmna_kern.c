/* libmna_kern.c -- the NTM kernel library of MANNA (sw/manna/mna_kern.h, docs/manna_kernels.md). */
#include "mna_kern.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "mna_asm.h"

#define DIVUP(a, b) (((a) + (b)-1) / (b))
#define F_ONE 0x3F800000u
#define F_EPS 0x322BCC77u /* 1e-8f */
#define KC 15             /* agen level: constant */

/* ------------------------------------------------------------------ parameters */
void mna_ntm_params_default(mna_ntm_params_t *p) {
  memset(p, 0, sizeof *p);
  p->tiles = 16, p->emacs = 32, p->mb_lines = 16384, p->ms_lines = 128, p->vb_lines = 256;
  p->vs_lines = 32, p->imem_depth = 1024, p->rf_regs = 8;
  p->rows = 1024, p->cols = 256, p->hr = 1, p->hw = 1;
  p->order = MNA_ORDER_AUTO, p->seed = 1;
}

int mna_ntm_preset(mna_ntm_params_t *p, const char *name, int scale) {
  static const struct {
    const char *name;
    int rows, cols, hr, hw;
  } tab[] = {{"copy", 1024, 256, 1, 1}, {"rptcopy", 512, 512, 1, 1}, {"recall", 1024, 64, 1, 1},
             {"ngram", 1024, 128, 1, 1}, {"sort", 512, 128, 1, 4}, {"babi", 4096, 1024, 4, 1}};
  if (scale < 1) return -1;
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(name, tab[i].name)) {
      p->rows = tab[i].rows / scale, p->cols = tab[i].cols / scale;
      if (p->rows < 1) p->rows = 1;
      if (p->cols < 1) p->cols = 1;
      p->hr = tab[i].hr, p->hw = tab[i].hw;
      return 0;
    }
  return -1;
}

/* ------------------------------------------------------------------ plan and cost model */
static int ispow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

static void costs_of(const mna_ntm_plan_t *pl, mna_ntm_cost_t c[4]) {
  const long nb = pl->pblocks[0], n = pl->nmax, L = pl->L, hr = pl->hr, E = pl->E;
  for (int o = 0; o < 4; o++) {
    const int bis = o < 2, cis = (o & 1) == 0;
    mna_ntm_cost_t *k = &c[o];
    memset(k, 0, sizeof *k);
    k->vb_w_lines = (bis ? 1 : L) * hr * pl->pbl * nb;
    k->vb_r_lines = bis ? hr * L + 2 * hr * L * nb : hr * L;
    k->vs_w_words = hr * n * L;
    k->vs_r_words = bis ? 2 * hr * E * L * nb : hr * E * L;
    k->mb_lines = n * L;
    k->vmm_insns = cis ? hr * L * n : hr * L * nb;
    k->buffer_cost = k->vb_w_lines + k->vb_r_lines;
    k->spad_cost = k->vs_w_words + k->vs_r_words;
  }
}

static int pick_order(const mna_ntm_cost_t c[4]) {
  /* block order first (buffer transfers; ties to output stationary) */
  const int bos = c[MNA_ORDER_IS_OS].buffer_cost >= c[MNA_ORDER_OS_OS].buffer_cost;
  const mna_ntm_cost_t *ci = &c[bos ? MNA_ORDER_OS_IS : MNA_ORDER_IS_IS];
  const mna_ntm_cost_t *co = &c[bos ? MNA_ORDER_OS_OS : MNA_ORDER_IS_OS];
  int cis = ci->spad_cost < co->spad_cost ||
            (ci->spad_cost == co->spad_cost && ci->vmm_insns < co->vmm_insns);
  return (bos ? 2 : 0) + (cis ? 0 : 1);
}

int mna_ntm_plan(const mna_ntm_params_t *p, mna_ntm_plan_t *pl, char *err, size_t errlen) {
  memset(pl, 0, sizeof *pl);
  if (p->tiles < 1 || p->tiles > MNA_NTM_MAX_TILES || !ispow2(p->tiles))
    return cutil_seterr(err, errlen, "tiles %d: must be 1, 2, 4, 8 or 16", p->tiles), -1;
  if (p->emacs < 2 || p->emacs > 32 || !ispow2(p->emacs))
    return cutil_seterr(err, errlen, "emacs %d: must be a power of two 2..32", p->emacs), -1;
  if (p->rf_regs < 2 || p->rf_regs > 16)
    return cutil_seterr(err, errlen, "rf %d: must be 2..16", p->rf_regs), -1;
  if (p->ms_lines < 2 || (p->ms_lines & 1) || p->vs_lines < 2 || (p->vs_lines & 1))
    return cutil_seterr(err, errlen, "ms and vs must be even and >= 2 lines"), -1;
  if (p->mb_lines < 2 || p->vb_lines < 2 || p->imem_depth < 1)
    return cutil_seterr(err, errlen, "mb and vb must be >= 2 lines, imem >= 1 word"), -1;
  if (p->cols < 1 || p->rows < 1)
    return cutil_seterr(err, errlen, "shape %dx%d: rows and cols must be >= 1", p->rows, p->cols),
           -1;
  if (p->rows < p->tiles)
    return cutil_seterr(err, errlen, "rows %d: fewer memory rows than tiles (%d)", p->rows,
                        p->tiles),
           -1;
  if (p->hr < 1 || p->hr > 7)
    return cutil_seterr(err, errlen, "hr %d: read heads must be 1..7", p->hr), -1;
  if (p->hw < 0 || p->hw > 8)
    return cutil_seterr(err, errlen, "hw %d: write heads must be 0..8", p->hw), -1;
  if (p->order < MNA_ORDER_AUTO || p->order > 3)
    return cutil_seterr(err, errlen, "order %d: must be auto or 0..3", p->order), -1;
  const int E = p->emacs, T = p->tiles;
  pl->E = E, pl->tiles = T, pl->rows = p->rows, pl->cols = p->cols, pl->hr = p->hr;
  pl->hw = p->hw, pl->H = p->hr + p->hw, pl->L = DIVUP(p->cols, E);
  const int L = pl->L, H = pl->H;
  for (int t = 0, r0 = 0; t < T; t++) {
    pl->n[t] = p->rows / T + (t < p->rows % T);
    pl->row0[t] = r0, r0 += pl->n[t];
  }
  pl->nmax = pl->n[0];
  if (p->rf_regs < (p->hr > 2 ? p->hr : 2))
    return cutil_seterr(err, errlen,
                        "RF too small: soft read keeps %d partial sums (one register per read "
                        "head), rf is %d",
                        p->hr, p->rf_regs),
           -1;
  pl->half_ms = p->ms_lines / 2;
  if (pl->half_ms < E + 1)
    return cutil_seterr(err, errlen,
                        "MS too small: a padded group of %d rows needs %d lines per half, MS has "
                        "%d lines (%d per half)",
                        E, E + 1, p->ms_lines, pl->half_ms),
           -1;
  pl->kg = pl->half_ms / (E + 1), pl->kbn = pl->kg * E;
  pl->pbl = pl->half_ms / E, pl->pbn = pl->pbl * E;
  for (int t = 0; t < T; t++) {
    pl->kblocks[t] = DIVUP(pl->n[t], pl->kbn);
    pl->pblocks[t] = DIVUP(pl->n[t], pl->pbn);
  }
  pl->kblocks_max = pl->kblocks[0], pl->pblocks_max = pl->pblocks[0];
  pl->nw = DIVUP(pl->nmax, E);
  pl->nwk = pl->kblocks_max * pl->kg, pl->nwp = pl->pblocks_max * pl->pbl;
  /* MB */
  pl->mb_used = pl->nmax * L;
  if ((long)pl->mb_used > p->mb_lines)
    return cutil_seterr(err, errlen,
                        "MB too small: %d rows of %d lines (%d columns) need %d lines, MB has %d",
                        pl->nmax, L, p->cols, pl->mb_used, p->mb_lines),
           -1;
  /* VB */
  pl->vb_k = 0;
  pl->vb_ea = pl->vb_k + H * L;
  pl->vb_dot = pl->vb_ea + 2 * p->hw * L;
  pl->vb_w = pl->vb_dot + (H + 1) * pl->nwk;
  pl->vb_r = pl->vb_w + H * pl->nwp;
  pl->vb_used = pl->vb_r + p->hr * L;
  if (pl->vb_used > p->vb_lines)
    return cutil_seterr(err, errlen,
                        "VB too small: keys %d + erase/add %d + dot/norm %d + weights %d + read "
                        "vectors %d = %d lines, VB has %d",
                        H * L, 2 * p->hw * L, (H + 1) * pl->nwk, H * pl->nwp, p->hr * L,
                        pl->vb_used, p->vb_lines),
           -1;
  /* VS: MISC at the top */
  pl->sums_lines = DIVUP(H, E);
  const int words = 2 * pl->kblocks_max + pl->pblocks_max + 1 + L + H + 1;
  const int misc = pl->sums_lines + DIVUP(words, E);
  pl->vs_area = p->vs_lines - misc;
  pl->vs_misc = pl->vs_area;
  pl->vs_sums = pl->vs_misc;
  int w = (pl->vs_misc + pl->sums_lines) * E;
  pl->vs_tk = w, w += pl->kblocks_max;
  pl->vs_tg = w, w += pl->kblocks_max;
  pl->vs_tp = w, w += pl->pblocks_max + 1;
  pl->vs_flag = w, w += L;
  pl->vs_beta = w, w += H;
  pl->vs_kn = w, w += 1;
  const int need_ks = H + (H + 1) * pl->kg;
  pl->cw_tv_lines = L > pl->nw ? L : pl->nw;
  const int need_cw = pl->cw_tv_lines + pl->nw;
  const int need_sr = p->hr * pl->pbl + p->hr;
  const int need_sw = p->hw * pl->pbl + 2 * p->hw;
  struct {
    const char *what;
    int need;
  } nd[] = {{"key similarity (keys + accumulators)", need_ks},
            {"content weighting (staged key/norms + one weight vector)", need_cw},
            {"soft read (weight block + read partials)", need_sr},
            {"soft write (weight block + erase/add lines)", need_sw},
            {"reduce", 1}};
  for (size_t i = 0; i < sizeof nd / sizeof nd[0]; i++)
    if (nd[i].need > pl->vs_area)
      return cutil_seterr(err, errlen,
                          "VS too small: %s needs %d lines, %d free beside %d lines of tables/"
                          "sums (VS has %d)",
                          nd[i].what, nd[i].need, pl->vs_area < 0 ? 0 : pl->vs_area, misc,
                          p->vs_lines),
             -1;
  pl->ks_kl = 0, pl->ks_acc = H;
  pl->cw_tv = 0, pl->cw_dv = pl->cw_tv_lines;
  pl->sr_ws = 0, pl->sr_rs = p->hr * pl->pbl;
  pl->sw_ws = 0, pl->sw_eas = p->hw * pl->pbl;
  const int rl = p->hr * L;
  for (int c = rl < pl->vs_area ? rl : pl->vs_area; c >= 1; c--)
    if (rl % c == 0) {
      pl->red_lines = c, pl->red_chunks = rl / c;
      break;
    }
  mna_ntm_cost_t cost[4];
  costs_of(pl, cost);
  pl->order = p->order == MNA_ORDER_AUTO ? pick_order(cost) : p->order;
  return 0;
}

int mna_ntm_costs(const mna_ntm_params_t *p, mna_ntm_cost_t cost[4], int *pick, char *err,
                  size_t errlen) {
  mna_ntm_plan_t pl;
  if (mna_ntm_plan(p, &pl, err, errlen)) return -1;
  costs_of(&pl, cost);
  if (pick) *pick = pick_order(cost);
  return 0;
}

/* ------------------------------------------------------------------ program emission */
typedef struct {
  char *buf;
  size_t len, cap;
  int d; /* loop depth = the level the next loop gets */
  int oom;
  unsigned char elided[8]; /* elided[level]: a count-1 leaf loop emitted without loop/endloop */
} em_t;

CUTIL_PRINTF(2, 3) static void E_(em_t *e, const char *fmt, ...) {
  if (e->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int k = vsnprintf(e->buf + e->len, e->cap - e->len, fmt, ap);
    va_end(ap);
    if (k < 0) {
      e->oom = 1;
      return;
    }
    if ((size_t)k + 2 < e->cap - e->len) {
      e->len += (size_t)k;
      e->buf[e->len++] = '\n';
      e->buf[e->len] = 0;
      return;
    }
    const size_t nc = e->cap * 2 + 256;
    char *nb = realloc(e->buf, nc);
    if (!nb) {
      e->oom = 1;
      return;
    }
    e->buf = nb, e->cap = nc;
  }
}
static void li(em_t *e, int s, long v) { E_(e, "li s%d, %ld", s, v); }
static int loop_(em_t *e, int s) {
  E_(e, "loop s%d", s);
  e->elided[e->d] = 0;
  return e->d++;
}
/* A leaf loop (no loop inside) of a known count through register s: a count of 1 emits the body
 * alone (generators of its level then read index 0, as in the only iteration). */
static int loopc(em_t *e, int s, long count) {
  if (count == 1) {
    e->elided[e->d] = 1;
    return e->d++;
  }
  li(e, s, count);
  return loop_(e, s);
}
static void endl(em_t *e) {
  e->d--;
  if (!e->elided[e->d]) E_(e, "endloop");
}
/* a = constant value v (through scalar tmp) */
static void agc(em_t *e, int a, int tmp, long v) {
  if (v == 0) {
    E_(e, "agen a%d, %d, s0, s0", a, KC);
    return;
  }
  li(e, tmp, v);
  E_(e, "agen a%d, %d, s%d, s0", a, KC, tmp);
}
/* a = v + stride(sreg) * idx(level) with v through tmp */
static void agl(em_t *e, int a, int lvl, int tmp, long v, int sstride) {
  li(e, tmp, v);
  E_(e, "agen a%d, %d, s%d, s%d", a, lvl, tmp, sstride);
}
static void swap_halves(em_t *e) {
  E_(e, "addi s6, s4, 0");
  E_(e, "addi s4, s5, 0");
  E_(e, "addi s5, s6, 0");
}

/* Registers: s1 = 1, s2 = E, s3 = L throughout; s4 = current MS half, s5 = other half, s6 swap
 * temp; s7.. per kernel; s12, s13, s14 temporaries (s14 mostly loop counts, captured at the loop
 * instruction). */

/* Key similarity: for rb: for cb: padded block (rb, cb) of kg groups; ACC lines in VS. */
static void ks_body(em_t *e, const mna_ntm_plan_t *pl) {
  const int E = pl->E, H = pl->H, G = pl->kg;
  int d = e->d;
  /* stage line cb of every key: VS KL + h <- VB s10 + h*L */
  agl(e, 1, d, 12, pl->ks_kl, 1);
  E_(e, "agen a2, %d, s10, s3", d);
  loopc(e, 14, H);
  E_(e, "dma a1, a2, s1");
  endl(e);
  li(e, 11, pl->ks_acc);
  li(e, 12, E + 1);
  E_(e, "agen a0, %d, s4, s12", d);
  agl(e, 6, d, 12, pl->ks_acc + H * G, 1);
  li(e, 12, (long)pl->ks_kl * E); /* s12 stays the key word base inside the group loop */
  E_(e, "agen a7, %d, s12, s0", KC);
  li(e, 13, G);
  loop_(e, 8); /* groups of the block */
  E_(e, "rfld r0, a6");
  E_(e, "vmm r0, a0, a7, s2 t sq");
  E_(e, "rfst r0, a6");
  E_(e, "agen a1, %d, s11, s13", d + 1);
  E_(e, "agen a2, %d, s12, s2", d + 1);
  loopc(e, 14, H); /* heads */
  E_(e, "rfld r0, a1");
  E_(e, "vmm r0, a0, a2, s2 t");
  E_(e, "rfst r0, a1");
  endl(e);
  E_(e, "addi s11, s11, 1");
  endl(e);
}

static void emit_ks(em_t *e, const mna_ntm_plan_t *pl, int t) {
  const int H = pl->H, G = pl->kg, L = pl->L;
  E_(e, "# ---- key similarity: %d blocks of %d padded groups x %d column blocks", pl->kblocks[t],
     G, L);
  li(e, 4, 0);
  li(e, 5, pl->half_ms);
  li(e, 9, 0);
  li(e, 15, pl->vb_dot);
  li(e, 14, pl->kblocks[t]);
  const int l0 = loop_(e, 14);
  agl(e, 0, l0, 12, pl->vs_tk, 1);
  E_(e, "sld s7, a0");
  agl(e, 0, l0, 12, pl->vs_tg, 1);
  E_(e, "sld s8, a0");
  E_(e, "rfz r0");
  agl(e, 1, e->d, 12, pl->ks_acc, 1);
  li(e, 14, (H + 1) * G);
  loop_(e, 14);
  E_(e, "rfst r0, a1");
  endl(e);
  li(e, 10, pl->vb_k);
  E_(e, "agen a2, %d, s4, s0", KC);
  E_(e, "agen a3, %d, s9, s0", KC);
  E_(e, "dmat a2, a3, s7, s3 pad");
  li(e, 14, L);
  const int l1 = loop_(e, 14);
  agl(e, 0, l1, 12, pl->vs_flag, 1);
  E_(e, "sld s13, a0");
  E_(e, "addi s12, s9, 1");
  E_(e, "agen a2, %d, s5, s0", KC);
  E_(e, "agen a3, %d, s12, s0", KC);
  loop_(e, 13);
  E_(e, "dmat a2, a3, s7, s3 pad");
  endl(e);
  ks_body(e, pl);
  swap_halves(e);
  E_(e, "addi s9, s9, 1");
  E_(e, "addi s10, s10, 1");
  endl(e);
  /* accumulators -> VB dot/norm vectors */
  li(e, 13, G);
  agl(e, 1, e->d, 12, pl->ks_acc, 13);
  li(e, 12, pl->nwk);
  E_(e, "agen a2, %d, s15, s12", e->d);
  loopc(e, 14, H + 1);
  E_(e, "dma a1, a2, s13 store");
  endl(e);
  E_(e, "addi s15, s15, %d", G);
  E_(e, "addi s9, s9, %d", pl->kbn * L - L);
  endl(e);
}

static void emit_cw(em_t *e, const mna_ntm_plan_t *pl, int t) {
  const int E = pl->E, H = pl->H;
  const int n = pl->n[t], nw = DIVUP(n, E);
  E_(e, "# ---- content weighting");
  li(e, 8, n);
  li(e, 9, nw);
  li(e, 10, pl->cols);
  E_(e, "li s7, 0x%08x", F_EPS);
  /* ||M_i|| = sqrt(sum of squares), in place in VB */
  agc(e, 5, 12, pl->cw_tv);
  agc(e, 6, 12, (long)pl->cw_tv * E);
  agc(e, 7, 12, pl->vb_dot + H * pl->nwk);
  E_(e, "dma a5, a7, s9");
  E_(e, "sfu.sqrt a6, a6, s8");
  E_(e, "dma a5, a7, s9 store");
  int lv = e->d;
  E_(e, "agen a0, %d, s0, s3", lv); /* keys at VB line 0 */
  li(e, 13, pl->nwk);
  agl(e, 1, lv, 12, pl->vb_dot, 13);
  li(e, 13, pl->nwp);
  agl(e, 2, lv, 12, pl->vb_w, 13);
  agl(e, 3, lv, 12, pl->vs_beta, 1);
  agl(e, 4, lv, 12, (long)pl->vs_sums * E, 1);
  loopc(e, 14, H);
  agc(e, 5, 12, pl->cw_tv);
  agc(e, 6, 12, (long)pl->cw_tv * E);
  E_(e, "dma a5, a0, s3");
  agc(e, 7, 12, pl->vs_kn);
  E_(e, "sfu.dot a7, a6, a6, s10");
  E_(e, "sfu.sqrt a7, a7, s1");
  E_(e, "sld s13, a7");
  agc(e, 7, 12, pl->vb_dot + H * pl->nwk);
  E_(e, "dma a5, a7, s9");
  E_(e, "el.fma a5, a5, s13, s7, s9");
  E_(e, "sfu.recip a6, a6, s8");
  agc(e, 7, 12, pl->cw_dv);
  E_(e, "dma a7, a1, s9");
  E_(e, "el.mul a7, a7, a5, s9");
  E_(e, "sld s13, a3");
  E_(e, "el.mul a7, a7, s13, s9");
  agc(e, 5, 12, (long)pl->cw_dv * E);
  E_(e, "sfu.exp a5, a5, s8");
  E_(e, "sfu.sum a4, a5, s8");
  E_(e, "dma a7, a2, s9 store");
  endl(e);
  agc(e, 0, 12, pl->vs_sums);
  li(e, 14, pl->sums_lines);
  E_(e, "reduce a0, s14");
  E_(e, "bcast a0, s14");
  agc(e, 0, 12, (long)pl->vs_sums * E);
  li(e, 14, H);
  E_(e, "sfu.recip a0, a0, s14");
  lv = e->d;
  li(e, 13, pl->nwp);
  agl(e, 2, lv, 12, pl->vb_w, 13);
  agl(e, 4, lv, 12, (long)pl->vs_sums * E, 1);
  agc(e, 7, 12, pl->cw_dv);
  loopc(e, 14, H);
  E_(e, "dma a7, a2, s9");
  E_(e, "sld s13, a4");
  E_(e, "el.mul a7, a7, s13, s9");
  E_(e, "dma a7, a2, s9 store");
  endl(e);
}

/* w block of nh heads: VS ws + h*pbl <- VB s15 + h*nwp, pbl lines */
static void stage_w(em_t *e, const mna_ntm_plan_t *pl, int ws, int nh) {
  const int d = e->d;
  li(e, 13, pl->pbl);
  agl(e, 1, d, 12, ws, 13);
  li(e, 12, pl->nwp);
  E_(e, "agen a2, %d, s15, s12", d);
  loopc(e, 14, nh);
  E_(e, "dma a1, a2, s13");
  endl(e);
}

/* read partials: VS rs + h <-> VB s10 + h*L */
static void r_xfer(em_t *e, const mna_ntm_plan_t *pl, int store) {
  const int d = e->d;
  agl(e, 1, d, 12, pl->sr_rs, 1);
  E_(e, "agen a2, %d, s10, s3", d);
  loopc(e, 14, pl->hr);
  E_(e, "dma a1, a2, s1%s", store ? " store" : "");
  endl(e);
}
static void r_rf(em_t *e, const mna_ntm_plan_t *pl, int store) {
  for (int h = 0; h < pl->hr; h++) {
    agc(e, 1, 12, pl->sr_rs + h);
    E_(e, "%s r%d, a1", store ? "rfst" : "rfld", h);
  }
}

/* the compute loop on the plain block at s4 (rows s7), w of head h at VS word (ws*E + h*pbn) */
static void sr_compute(em_t *e, const mna_ntm_plan_t *pl, int cis) {
  const int E = pl->E, wsw = pl->sr_ws * E;
  if (!cis) { /* output stationary: for h: the block's rows in one vmm */
    E_(e, "agen a0, %d, s4, s0", KC);
    for (int h = 0; h < pl->hr; h++) {
      agc(e, 1, 12, wsw + (long)h * pl->pbn);
      E_(e, "vmm r%d, a0, a1, s7", h);
    }
  } else { /* input stationary: for i: for h: one row */
    const int d = e->d;
    E_(e, "agen a0, %d, s4, s1", d);
    for (int h = 0; h < pl->hr; h++) agl(e, 1 + h, d, 12, wsw + (long)h * pl->pbn, 1);
    loop_(e, 7);
    for (int h = 0; h < pl->hr; h++) E_(e, "vmm r%d, a0, a%d, s1", h, 1 + h);
    endl(e);
  }
}

static void plain_prefetch_flag(em_t *e, const mna_ntm_plan_t *pl, int lcb) {
  agl(e, 0, lcb, 12, pl->vs_flag, 1);
  E_(e, "sld s13, a0");
  E_(e, "addi s12, s9, 1");
  E_(e, "agen a2, %d, s5, s0", KC);
  E_(e, "agen a3, %d, s12, s0", KC);
  loop_(e, 13);
  E_(e, "dmat a2, a3, s7, s3");
  endl(e);
}
static void plain_first(em_t *e) {
  E_(e, "agen a2, %d, s4, s0", KC);
  E_(e, "agen a3, %d, s9, s0", KC);
  E_(e, "dmat a2, a3, s7, s3");
}

static void emit_sr(em_t *e, const mna_ntm_plan_t *pl, int t) {
  const int L = pl->L, bis = pl->order < 2, cis = (pl->order & 1) == 0;
  static const char *const on[4] = {"block IS, compute IS", "block IS, compute OS",
                                    "block OS, compute IS", "block OS, compute OS"};
  E_(e, "# ---- soft read, order %d (%s): %d blocks of %d rows x %d column blocks", pl->order,
     on[pl->order], pl->pblocks[t], pl->pbn, L);
  if (bis) {
    /* r partials in VB start at +0 */
    E_(e, "rfz r0");
    agc(e, 1, 12, pl->sr_rs);
    E_(e, "rfst r0, a1");
    agl(e, 2, e->d, 12, pl->vb_r, 1);
    loopc(e, 14, pl->hr * L);
    E_(e, "dma a1, a2, s1 store");
    endl(e);
    li(e, 9, 0);
    li(e, 15, pl->vb_w);
    li(e, 14, pl->pblocks[t]);
    const int l0 = loop_(e, 14);
    agl(e, 0, l0, 12, pl->vs_tp, 1);
    E_(e, "sld s7, a0");
    stage_w(e, pl, pl->sr_ws, pl->hr);
    plain_first(e);
    li(e, 10, pl->vb_r);
    li(e, 14, L);
    const int l1 = loop_(e, 14);
    plain_prefetch_flag(e, pl, l1);
    r_xfer(e, pl, 0);
    r_rf(e, pl, 0);
    sr_compute(e, pl, cis);
    r_rf(e, pl, 1);
    r_xfer(e, pl, 1);
    swap_halves(e);
    E_(e, "addi s9, s9, 1");
    E_(e, "addi s10, s10, 1");
    endl(e);
    E_(e, "addi s9, s9, %d", pl->pbn * L - L);
    E_(e, "addi s15, s15, %d", pl->pbl);
    endl(e);
  } else {
    li(e, 8, 0);
    li(e, 10, pl->vb_r);
    li(e, 14, L);
    loop_(e, 14);
    for (int h = 0; h < pl->hr; h++) E_(e, "rfz r%d", h);
    agc(e, 0, 12, pl->vs_tp);
    E_(e, "sld s7, a0");
    E_(e, "addi s9, s8, 0");
    plain_first(e);
    li(e, 15, pl->vb_w);
    li(e, 11, pl->vs_tp + 1);
    li(e, 14, pl->pblocks[t]);
    loop_(e, 14);
    E_(e, "agen a0, %d, s11, s0", KC);
    E_(e, "sld s6, a0"); /* rows of the next block (0 after the last: no transfer) */
    E_(e, "addi s12, s9, %d", pl->pbn * L);
    E_(e, "agen a2, %d, s5, s0", KC);
    E_(e, "agen a3, %d, s12, s0", KC);
    E_(e, "dmat a2, a3, s6, s3");
    stage_w(e, pl, pl->sr_ws, pl->hr);
    sr_compute(e, pl, cis);
    E_(e, "addi s7, s6, 0");
    swap_halves(e);
    E_(e, "addi s9, s9, %d", pl->pbn * L);
    E_(e, "addi s15, s15, %d", pl->pbl);
    E_(e, "addi s11, s11, 1");
    endl(e);
    r_rf(e, pl, 1);
    r_xfer(e, pl, 1);
    E_(e, "addi s8, s8, 1");
    E_(e, "addi s10, s10, 1");
    endl(e);
  }
  E_(e, "# ---- read vectors: reduce over tiles, %d chunks of %d lines", pl->red_chunks,
     pl->red_lines);
  agc(e, 0, 12, 0);
  li(e, 13, pl->red_lines);
  agl(e, 1, e->d, 12, pl->vb_r, 13);
  loopc(e, 14, pl->red_chunks);
  E_(e, "dma a0, a1, s13");
  E_(e, "reduce a0, s13");
  E_(e, "dma a0, a1, s13 store");
  endl(e);
}

static void emit_sw(em_t *e, const mna_ntm_plan_t *pl, int t) {
  const int L = pl->L, E = pl->E, hw = pl->hw;
  if (hw == 0) return;
  E_(e, "# ---- soft write: %d blocks of %d rows x %d column blocks, %d heads", pl->pblocks[t],
     pl->pbn, L, hw);
  li(e, 9, 0);
  li(e, 15, pl->vb_w + pl->hr * pl->nwp);
  li(e, 14, pl->pblocks[t]);
  const int l0 = loop_(e, 14);
  agl(e, 0, l0, 12, pl->vs_tp, 1);
  E_(e, "sld s7, a0");
  stage_w(e, pl, pl->sw_ws, hw);
  plain_first(e);
  li(e, 10, pl->vb_ea);
  li(e, 14, L);
  const int l1 = loop_(e, 14);
  plain_prefetch_flag(e, pl, l1);
  int d = e->d;
  agl(e, 1, d, 12, pl->sw_eas, 1);
  E_(e, "agen a2, %d, s10, s3", d);
  loopc(e, 14, 2 * hw);
  E_(e, "dma a1, a2, s1");
  endl(e);
  li(e, 13, 2);
  agl(e, 1, d, 12, pl->sw_eas, 13);
  agl(e, 2, d, 12, pl->sw_eas + 1, 13);
  li(e, 13, pl->pbn);
  agl(e, 3, d, 12, (long)pl->sw_ws * E, 13);
  E_(e, "agen a0, %d, s4, s0", KC);
  loopc(e, 14, hw);
  E_(e, "rfld r0, a1");
  E_(e, "rfld r1, a2");
  E_(e, "swr a0, a3, r0, r1, s7");
  endl(e);
  E_(e, "agen a3, %d, s9, s0", KC);
  E_(e, "dmat a0, a3, s7, s3 store");
  swap_halves(e);
  E_(e, "addi s9, s9, 1");
  E_(e, "addi s10, s10, 1");
  endl(e);
  E_(e, "addi s9, s9, %d", pl->pbn * L - L);
  E_(e, "addi s15, s15, %d", pl->pbl);
  endl(e);
}

/* ---- peephole: drop an `li` whose register already holds the value and an `agen` that sets the
 * triple its generator already has. Known values flow through straight-line code; a register or
 * generator written anywhere in a loop body is unknown at the loop's head (later iterations) and
 * after its endloop (the body may have run 0 or more times). */
typedef struct {
  int ok;
  long v;
} kv_t;
typedef struct {
  int ok, lvl;
  long base, stride;
} ka_t;

static int parse_reg(const char *s, char c) {
  return s[0] == c && s[1] >= '0' && s[1] <= '9' ? atoi(s + 1) : -1;
}

/* the registers (bits 0..15) and generators (bits 16..23) written by the lines [i, end of the
 * loop that starts after line i) */
static unsigned written_in_body(char **ln, int nl, int i) {
  unsigned w = 0;
  for (int k = i + 1, depth = 1; k < nl && depth > 0; k++) {
    char op[16] = "", a[16] = "";
    sscanf(ln[k], "%15s %15[^,]", op, a);
    if (!strcmp(op, "loop")) depth++;
    else if (!strcmp(op, "endloop")) depth--;
    else if (!strcmp(op, "li") || !strcmp(op, "addi") || !strcmp(op, "sld")) {
      const int r = parse_reg(a, 's');
      if (r >= 0 && r < 16) w |= 1u << r;
    } else if (!strcmp(op, "agen")) {
      const int r = parse_reg(a, 'a');
      if (r >= 0 && r < 8) w |= 1u << (16 + r);
    }
  }
  return w;
}

static char *peephole(char *src) {
  const size_t srclen = strlen(src);
  int nl = 0, cap = 256;
  char **ln = malloc((size_t)cap * sizeof *ln);
  if (!ln) return src;
  for (char *p = src; *p;) {
    if (nl == cap) {
      char **n2 = realloc(ln, (size_t)(cap *= 2) * sizeof *ln);
      if (!n2) return free(ln), src;
      ln = n2;
    }
    ln[nl++] = p;
    char *q = strchr(p, '\n');
    if (!q) break;
    *q = 0, p = q + 1;
  }
  char *out = malloc(srclen + (size_t)nl + 2);
  kv_t sv[16];
  ka_t av[8];
  struct {
    kv_t sv[16];
    ka_t av[8];
  } stk[8];
  int sp = 0;
  size_t ol = 0;
  if (!out) return free(ln), src;
  memset(sv, 0, sizeof sv), memset(av, 0, sizeof av);
  sv[0].ok = 1, sv[0].v = 0;
  for (int i = 0; i < nl; i++) {
    char op[16] = "", f1[16] = "", f2[16] = "", f3[16] = "", f4[16] = "";
    int drop = 0;
    const int nf = sscanf(ln[i], "%15s %15[^,], %15[^,], %15[^,], %15s", op, f1, f2, f3, f4);
    if (nf >= 1 && op[0] != '#') {
      if (!strcmp(op, "li") && nf >= 3) {
        const int r = parse_reg(f1, 's');
        const long v = strtol(f2, NULL, 0);
        if (r > 0 && sv[r].ok && sv[r].v == v) drop = 1;
        else if (r > 0) sv[r].ok = 1, sv[r].v = v;
      } else if (!strcmp(op, "addi") && nf >= 4) {
        const int r = parse_reg(f1, 's'), b = parse_reg(f2, 's');
        const long v = strtol(f3, NULL, 0);
        if (r > 0) {
          sv[r].ok = b >= 0 && sv[b].ok;
          sv[r].v = sv[r].ok ? (long)(uint32_t)(sv[b].v + v) : 0;
        }
      } else if (!strcmp(op, "sld") && nf >= 2) {
        const int r = parse_reg(f1, 's');
        if (r > 0) sv[r].ok = 0;
      } else if (!strcmp(op, "agen") && nf >= 5) {
        const int a = parse_reg(f1, 'a'), lv = atoi(f2), b = parse_reg(f3, 's'),
                  st = parse_reg(f4, 's');
        if (a >= 0 && a < 8 && b >= 0 && st >= 0) {
          const int ok = sv[b].ok && sv[st].ok;
          if (ok && av[a].ok && av[a].lvl == lv && av[a].base == sv[b].v &&
              av[a].stride == sv[st].v)
            drop = 1;
          else
            av[a].ok = ok, av[a].lvl = lv, av[a].base = sv[b].v, av[a].stride = sv[st].v;
        }
      } else if (!strcmp(op, "loop") && sp < 8) {
        const unsigned w = written_in_body(ln, nl, i);
        for (int r = 1; r < 16; r++)
          if (w >> r & 1) sv[r].ok = 0;
        for (int a = 0; a < 8; a++)
          if (w >> (16 + a) & 1) av[a].ok = 0;
        memcpy(stk[sp].sv, sv, sizeof sv), memcpy(stk[sp].av, av, sizeof av), sp++;
      } else if (!strcmp(op, "endloop") && sp > 0) {
        sp--;
        memcpy(sv, stk[sp].sv, sizeof sv), memcpy(av, stk[sp].av, sizeof av);
      } else if (!strcmp(op, "halt")) {
        /* a phase boundary (mna_ntm_workload_phases): START clears the generators, the scalar
         * registers keep their values */
        memset(av, 0, sizeof av);
      }
    }
    if (!drop) {
      const size_t k = strlen(ln[i]);
      memcpy(out + ol, ln[i], k);
      ol += k;
      out[ol++] = '\n';
    }
  }
  out[ol] = 0;
  free(ln), free(src);
  return out;
}

/* phases: a halt after each kernel (docs/manna_kernels.md, "Phases") */
static char *program_of(const mna_ntm_params_t *p, const mna_ntm_plan_t *pl, int t, int phases) {
  em_t e = {0};
  e.cap = 4096;
  e.buf = malloc(e.cap);
  if (!e.buf) return NULL;
  e.buf[0] = 0;
  E_(&e, "# NTM step, tile %d of %d: rows %d..%d of %dx%d, %d read / %d write heads, E=%d", t,
     pl->tiles, pl->row0[t], pl->row0[t] + pl->n[t] - 1, pl->rows, pl->cols, pl->hr, pl->hw,
     pl->E);
  (void)p;
  li(&e, 1, 1);
  li(&e, 2, pl->E);
  li(&e, 3, pl->L);
  emit_ks(&e, pl, t);
  if (phases) E_(&e, "halt");
  emit_cw(&e, pl, t);
  if (phases) E_(&e, "halt");
  emit_sr(&e, pl, t);
  if (phases) E_(&e, "halt");
  emit_sw(&e, pl, t);
  E_(&e, "halt");
  if (e.oom) {
    free(e.buf);
    return NULL;
  }
  return peephole(e.buf);
}

char *mna_ntm_program(const mna_ntm_params_t *p, const mna_ntm_plan_t *pl, int t) {
  return program_of(p, pl, t, 0);
}

/* Inserts pad[k] `nop` lines after the k-th `halt` line of src (k < MNA_NTM_PHASES - 1). */
static char *pad_phases(char *src, const size_t pad[MNA_NTM_PHASES]) {
  size_t extra = 0;
  for (int k = 0; k < MNA_NTM_PHASES; k++) extra += pad[k] * 4;
  char *out = malloc(strlen(src) + extra + 1);
  if (!out) return free(src), NULL;
  size_t ol = 0;
  int k = 0;
  for (char *q = src; *q;) {
    char *nl = strchr(q, '\n');
    const size_t n = nl ? (size_t)(nl - q) + 1 : strlen(q);
    memcpy(out + ol, q, n);
    ol += n;
    if (!strncmp(q, "halt", 4) && k < MNA_NTM_PHASES - 1) {
      for (size_t i = 0; i < pad[k]; i++) memcpy(out + ol, "nop\n", 4), ol += 4;
      k++;
    }
    q += n;
  }
  out[ol] = 0;
  free(src);
  return out;
}

/* ------------------------------------------------------------------ data and reference */
static uint32_t rnd(cutil_rng_t *r, float lo, float hi) {
  return cutil_f32_bits(lo + (hi - lo) * (float)cutil_rng_unit(r));
}

int mna_ntm_data_make(const mna_ntm_params_t *p, mna_ntm_data_t *d) {
  memset(d, 0, sizeof *d);
  const size_t R = (size_t)p->rows, C = (size_t)p->cols, H = (size_t)(p->hr + p->hw);
  d->rows = p->rows, d->cols = p->cols, d->hr = p->hr, d->hw = p->hw;
  d->M = malloc(R * C * 4);
  d->key = malloc(H * C * 4 + 4);
  d->beta = malloc(H * 4 + 4);
  d->erase = malloc((size_t)p->hw * C * 4 + 4);
  d->add = malloc((size_t)p->hw * C * 4 + 4);
  if (!d->M || !d->key || !d->beta || !d->erase || !d->add) return mna_ntm_data_free(d), -1;
  cutil_rng_t r = cutil_rng_seed(p->seed);
  for (size_t i = 0; i < R * C; i++) d->M[i] = rnd(&r, -1.0f, 1.0f);
  for (size_t i = 0; i < H * C; i++) d->key[i] = rnd(&r, -1.0f, 1.0f);
  for (size_t i = 0; i < H; i++) d->beta[i] = rnd(&r, 1.0f, 5.0f);
  for (size_t i = 0; i < (size_t)p->hw * C; i++) d->erase[i] = rnd(&r, 0.0f, 1.0f);
  for (size_t i = 0; i < (size_t)p->hw * C; i++) d->add[i] = rnd(&r, -1.0f, 1.0f);
  return 0;
}

void mna_ntm_data_free(mna_ntm_data_t *d) {
  free(d->M), free(d->key), free(d->beta), free(d->erase), free(d->add);
  memset(d, 0, sizeof *d);
}

int mna_ntm_result_alloc(const mna_ntm_params_t *p, mna_ntm_result_t *r) {
  memset(r, 0, sizeof *r);
  r->w = calloc((size_t)(p->hr + p->hw) * (size_t)p->rows + 1, 4);
  r->r = calloc((size_t)p->hr * (size_t)p->cols + 1, 4);
  r->Mout = calloc((size_t)p->rows * (size_t)p->cols + 1, 4);
  if (!r->w || !r->r || !r->Mout) return mna_ntm_result_free(r), -1;
  return 0;
}
void mna_ntm_result_free(mna_ntm_result_t *r) {
  free(r->w), free(r->r), free(r->Mout);
  memset(r, 0, sizeof *r);
}

/* The H-tree reduce of docs/manna.md: S(t, 2s) = S(t, s) + S(t + s, s), own value first. */
static uint32_t htree(const uint32_t *v, int t, int size) {
  if (size == 1) return v[t];
  return mna_fp_add(htree(v, t, size / 2), htree(v, t + size / 2, size / 2));
}

int mna_ntm_reference(const mna_ntm_params_t *p, const mna_ntm_data_t *d, mna_ntm_result_t *res) {
  mna_ntm_plan_t pl;
  char err[256];
  /* only the shape matters: plan with generous memories */
  mna_ntm_params_t q = *p;
  q.mb_lines = q.vb_lines = 1 << 24, q.ms_lines = 2 * (q.emacs + 1), q.vs_lines = 1 << 22;
  q.rf_regs = 16, q.imem_depth = 1 << 20;
  if (mna_ntm_plan(&q, &pl, err, sizeof err)) return -1;
  const int E = pl.E, L = pl.L, H = pl.H, C = p->cols, T = pl.tiles, LE = L * E;
  uint32_t *kpad = calloc((size_t)H * LE, 4), *nrm = malloc((size_t)p->rows * 4);
  uint32_t *ev = malloc((size_t)H * p->rows * 4 + 4), *part = malloc((size_t)T * 4);
  uint32_t *rp = malloc((size_t)T * C * 4 + 4), *kn = malloc((size_t)H * 4 + 4);
  uint32_t *inv = malloc((size_t)H * 4 + 4);
  if (!kpad || !nrm || !ev || !part || !rp || !kn || !inv) {
    free(kpad), free(nrm), free(ev), free(part), free(rp), free(kn), free(inv);
    return -1;
  }
  for (int h = 0; h < H; h++) {
    memcpy(kpad + (size_t)h * LE, d->key + (size_t)h * C, (size_t)C * 4);
    uint32_t acc = 0; /* sfu.dot over M_M words, +0 first */
    for (int c = 0; c < C; c++) acc = mna_fp_fma(d->key[(size_t)h * C + c], d->key[(size_t)h * C + c], acc);
    kn[h] = mna_fp_sqrt(acc);
  }
  /* key similarity and the exponentials: per row, padded columns included (vmm t over E) */
  for (int i = 0; i < p->rows; i++) {
    const uint32_t *m = d->M + (size_t)i * C;
    uint32_t sq = 0;
    for (int c = 0; c < LE; c++) {
      const uint32_t x = c < C ? m[c] : 0;
      sq = mna_fp_fma(x, x, sq);
    }
    nrm[i] = mna_fp_sqrt(sq);
    for (int h = 0; h < H; h++) {
      uint32_t dot = 0;
      for (int c = 0; c < LE; c++) dot = mna_fp_fma(c < C ? m[c] : 0, kpad[(size_t)h * LE + c], dot);
      const uint32_t den = mna_fp_fma(nrm[i], kn[h], F_EPS);
      const uint32_t cosv = mna_fp_mul(dot, mna_fp_div(F_ONE, den));
      ev[(size_t)h * p->rows + i] = mna_fp_exp(mna_fp_mul(cosv, d->beta[h]));
    }
  }
  /* softmax: sum per tile ascending from +0, H-tree reduce, reciprocal, scale */
  for (int h = 0; h < H; h++) {
    for (int t = 0; t < T; t++) {
      uint32_t s = 0;
      for (int i = 0; i < pl.n[t]; i++) s = mna_fp_add(s, ev[(size_t)h * p->rows + pl.row0[t] + i]);
      part[t] = s;
    }
    inv[h] = mna_fp_div(F_ONE, htree(part, 0, T));
    for (int i = 0; i < p->rows; i++)
      res->w[(size_t)h * p->rows + i] = mna_fp_mul(ev[(size_t)h * p->rows + i], inv[h]);
  }
  /* soft read: per tile fma chain over its rows ascending from +0, then the H-tree */
  for (int h = 0; h < p->hr; h++) {
    for (int t = 0; t < T; t++)
      for (int c = 0; c < C; c++) {
        uint32_t acc = 0;
        for (int i = pl.row0[t]; i < pl.row0[t] + pl.n[t]; i++)
          acc = mna_fp_fma(d->M[(size_t)i * C + c], res->w[(size_t)h * p->rows + i], acc);
        rp[(size_t)t * C + c] = acc;
      }
    for (int c = 0; c < C; c++) {
      for (int t = 0; t < T; t++) part[t] = rp[(size_t)t * C + c];
      res->r[(size_t)h * C + c] = htree(part, 0, T);
    }
  }
  /* soft write: per element, write heads ascending, erase then add */
  for (int i = 0; i < p->rows; i++)
    for (int c = 0; c < C; c++) {
      uint32_t m = d->M[(size_t)i * C + c];
      for (int h = 0; h < p->hw; h++) {
        const uint32_t w = res->w[(size_t)(p->hr + h) * p->rows + i];
        const uint32_t tt = mna_fp_fma(w ^ 0x80000000u, d->erase[(size_t)h * C + c], F_ONE);
        m = mna_fp_mul(m, tt);
        m = mna_fp_fma(w, d->add[(size_t)h * C + c], m);
      }
      res->Mout[(size_t)i * C + c] = m;
    }
  free(kpad), free(nrm), free(ev), free(part), free(rp), free(kn), free(inv);
  return 0;
}

int mna_ntm_collect(const mna_ntm_plan_t *pl, const mna_t *m, mna_ntm_result_t *res) {
  const mna_cfg_t *cf = mna_cfg(m);
  const int E = pl->E, C = pl->cols;
  if (cf->tiles != pl->tiles || cf->emacs != E) return -1;
  size_t nvb, nmb;
  for (int t = 0; t < pl->tiles; t++) {
    const uint32_t *vb = mna_mem(m, t, MNA_SP_VB, &nvb), *mb = mna_mem(m, t, MNA_SP_MB, &nmb);
    if (!vb || !mb || nvb < (size_t)pl->vb_used * E || nmb < (size_t)pl->mb_used * E) return -1;
    for (int h = 0; h < pl->H; h++)
      for (int i = 0; i < pl->n[t]; i++)
        res->w[(size_t)h * pl->rows + pl->row0[t] + i] = vb[(size_t)(pl->vb_w + h * pl->nwp) * E + i];
    for (int i = 0; i < pl->n[t]; i++)
      for (int c = 0; c < C; c++)
        res->Mout[(size_t)(pl->row0[t] + i) * C + c] = mb[(size_t)i * pl->L * E + c];
    if (t == 0)
      for (int h = 0; h < pl->hr; h++)
        for (int c = 0; c < C; c++)
          res->r[(size_t)h * C + c] = vb[(size_t)(pl->vb_r + h * pl->L) * E + c];
  }
  return 0;
}

/* ------------------------------------------------------------------ workload file */
static void put_words(FILE *f, const char *tile, const char *space, size_t addr,
                      const uint32_t *w, size_t n) {
  for (size_t i = 0; i < n; i += 16) {
    fprintf(f, "m %s %s %zu", tile, space, addr + i);
    for (size_t k = i; k < n && k < i + 16; k++) fprintf(f, " %08x", w[k]);
    fputc('\n', f);
  }
}

int mna_ntm_workload(const mna_ntm_params_t *p, FILE *out, char *err, size_t errlen) {
  return mna_ntm_workload_phases(p, 0, out, err, errlen);
}

/* the PCs that follow the halts in code[0, n) (at most MNA_NTM_PHASES); their count */
static int halt_pcs(const uint64_t *code, size_t n, size_t pc[MNA_NTM_PHASES]) {
  int k = 0;
  for (size_t i = 0; i < n; i++)
    if ((code[i] >> 58) == 0x01 && k < MNA_NTM_PHASES) pc[k++] = i + 1;
  return k;
}

int mna_ntm_workload_phases(const mna_ntm_params_t *p, int phases, FILE *out, char *err,
                            size_t errlen) {
  mna_ntm_plan_t pl;
  if (mna_ntm_plan(p, &pl, err, errlen)) return -1;
  const int E = pl.E, L = pl.L, C = p->cols, H = pl.H, T = pl.tiles;
  const size_t LE = (size_t)L * E;
  mna_ntm_data_t d;
  if (mna_ntm_data_make(p, &d)) return cutil_seterr(err, errlen, "out of memory"), -1;
  uint64_t *code = malloc((size_t)p->imem_depth * 8 + 8);
  size_t zn = (size_t)p->mb_lines;
  if ((size_t)p->vb_lines > zn) zn = (size_t)p->vb_lines;
  if ((size_t)p->ms_lines > zn) zn = (size_t)p->ms_lines;
  if ((size_t)p->vs_lines > zn) zn = (size_t)p->vs_lines;
  zn *= (size_t)E;
  uint32_t *buf = calloc(zn + LE + 16, 4);
  int rc = -1;
  if (!code || !buf) {
    cutil_seterr(err, errlen, "out of memory");
    goto done;
  }
  static const char *const on[4] = {"block IS / compute IS", "block IS / compute OS",
                                    "block OS / compute IS", "block OS / compute OS"};
  fprintf(out, "# NTM step on MANNA (sw/manna/mna_ntm, docs/manna_kernels.md): memory %dx%d, "
               "%d read / %d write heads, seed %llu\n",
          p->rows, C, p->hr, p->hw, (unsigned long long)p->seed);
  fprintf(out, "# soft-read loop order %d (%s)%s; key-similarity blocks %d rows, plain blocks %d "
               "rows\n",
          pl.order, on[pl.order], p->order == MNA_ORDER_AUTO ? " chosen by the cost model" : "",
          pl.kbn, pl.pbn);
  fprintf(out, "cfg tiles=%d emacs=%d mb=%d ms=%d vb=%d vs=%d imem=%d rf=%d\n", p->tiles, E,
          p->mb_lines, p->ms_lines, p->vb_lines, p->vs_lines, p->imem_depth, p->rf_regs);
  /* phases: every tile's phase k starts at the same PC start[k] (START takes one PC for every
   * tile), so the shorter programs get `nop`s after their halts */
  size_t start[MNA_NTM_PHASES] = {0}, pad[MNA_NTM_PHASES] = {0};
  size_t tpc[MNA_NTM_MAX_TILES][MNA_NTM_PHASES];
  if (phases) {
    for (int t = 0; t < T; t++) {
      char *src = program_of(p, &pl, t, 1);
      char aerr[256];
      size_t n = 0;
      if (!src) {
        cutil_seterr(err, errlen, "out of memory");
        goto done;
      }
      /* assembled without the imem limit's effect on the measurement: a long program is
       * reported below, after padding */
      const int ar = mna_assemble(src, "ntm_phases", code, (size_t)p->imem_depth, &n, aerr,
                                  sizeof aerr);
      free(src);
      if (ar || halt_pcs(code, n, tpc[t]) != MNA_NTM_PHASES) {
        cutil_seterr(err, errlen, ar && strstr(aerr, "longer")
                                      ? "imem too small: the program of tile %d does not fit in %d words"
                                      : "internal: phases of tile %d (imem %d)",
                     t, p->imem_depth);
        goto done;
      }
      for (int k = 0; k < MNA_NTM_PHASES; k++)
        if (tpc[t][k] > start[k]) start[k] = tpc[t][k];
    }
  }
  for (int t = 0; t < T; t++) {
    char *src = program_of(p, &pl, t, phases);
    if (src && phases) {
      /* phase k+1 starts after the k-th halt: pad so that it starts at start[k] */
      size_t shift = 0;
      for (int k = 0; k + 1 < MNA_NTM_PHASES; k++) {
        pad[k] = start[k] - (tpc[t][k] + shift);
        shift += pad[k];
      }
      src = pad_phases(src, pad);
    }
    if (!src) {
      cutil_seterr(err, errlen, "out of memory");
      goto done;
    }
    char name[32], aerr[256];
    size_t n = 0;
    snprintf(name, sizeof name, "ntm_tile%d", t);
    const int ar = mna_assemble(src, name, code, (size_t)p->imem_depth, &n, aerr, sizeof aerr);
    free(src);
    if (!ar && phases) {
      size_t got[MNA_NTM_PHASES];
      if (halt_pcs(code, n, got) != MNA_NTM_PHASES || memcmp(got, start, (MNA_NTM_PHASES - 1) * sizeof got[0])) {
        cutil_seterr(err, errlen, "internal: phase start PCs of tile %d", t);
        goto done;
      }
    }
    if (ar) {
      if (strstr(aerr, "longer"))
        cutil_seterr(err, errlen, "imem too small: the program of tile %d does not fit in %d words",
                     t, p->imem_depth);
      else
        cutil_seterr(err, errlen, "internal: %s", aerr);
      goto done;
    }
    fprintf(out, "# tile %d: %zu instruction words\n", t, n);
    for (size_t i = 0; i < n; i += 8) {
      fprintf(out, "p %d %zu", t, i);
      for (size_t k = i; k < n && k < i + 8; k++) fprintf(out, " %016llx", (unsigned long long)code[k]);
      fputc('\n', out);
    }
  }
  /* every memory word a program may read is written: zeros first, then the data */
  memset(buf, 0, (zn + LE) * 4);
  fprintf(out, "# zero fill\n");
  put_words(out, "*", "ms", 0, buf, (size_t)p->ms_lines * E);
  put_words(out, "*", "vs", 0, buf, (size_t)p->vs_lines * E);
  put_words(out, "*", "vb", 0, buf, (size_t)pl.vb_used * E);
  fprintf(out, "# keys, erase and add vectors (VB, head-major, rows of %d lines)\n", L);
  for (int h = 0; h < H; h++) {
    memset(buf, 0, LE * 4);
    memcpy(buf, d.key + (size_t)h * C, (size_t)C * 4);
    put_words(out, "*", "vb", (size_t)(pl.vb_k + h * L) * E, buf, LE);
  }
  for (int h = 0; h < p->hw; h++)
    for (int j = 0; j < 2; j++) {
      memset(buf, 0, LE * 4);
      memcpy(buf, (j ? d.add : d.erase) + (size_t)h * C, (size_t)C * 4);
      put_words(out, "*", "vb", (size_t)(pl.vb_ea + (2 * h + j) * L) * E, buf, LE);
    }
  fprintf(out, "# strengths beta (VS)\n");
  put_words(out, "*", "vs", (size_t)pl.vs_beta, d.beta, (size_t)H);
  for (int t = 0; t < T; t++) {
    char ts[16];
    snprintf(ts, sizeof ts, "%d", t);
    fprintf(out, "# tile %d: block tables (VS) and memory rows %d..%d (MB)\n", t, pl.row0[t],
            pl.row0[t] + pl.n[t] - 1);
    const size_t tw = (size_t)(pl.vs_beta - pl.vs_tk);
    memset(buf, 0, tw * 4);
    for (int b = 0; b < pl.kblocks[t]; b++) {
      const int rows = pl.n[t] - b * pl.kbn < pl.kbn ? pl.n[t] - b * pl.kbn : pl.kbn;
      buf[b] = (uint32_t)rows;
      buf[pl.vs_tg - pl.vs_tk + b] = (uint32_t)DIVUP(rows, E);
    }
    for (int b = 0; b < pl.pblocks[t]; b++)
      buf[pl.vs_tp - pl.vs_tk + b] =
          (uint32_t)(pl.n[t] - b * pl.pbn < pl.pbn ? pl.n[t] - b * pl.pbn : pl.pbn);
    for (int c = 0; c + 1 < L; c++) buf[pl.vs_flag - pl.vs_tk + c] = 1;
    put_words(out, ts, "vs", (size_t)pl.vs_tk, buf, tw);
    memset(buf, 0, (size_t)pl.mb_used * E * 4);
    for (int i = 0; i < pl.n[t]; i++)
      memcpy(buf + (size_t)i * LE, d.M + (size_t)(pl.row0[t] + i) * C, (size_t)C * 4);
    put_words(out, ts, "mb", 0, buf, (size_t)pl.n[t] * LE);
  }
  if (phases) {
    fprintf(out, "# phases: key similarity, content weighting, soft read, soft write\n");
    fprintf(out, "s 0\n");
    for (int k = 0; k + 1 < MNA_NTM_PHASES; k++) fprintf(out, "s %zu\n", start[k]);
  } else {
    fprintf(out, "s 0\n");
  }
  for (int h = 0; h < p->hr; h++)
    fprintf(out, "c 0 vb %zu %d r%d\n", (size_t)(pl.vb_r + h * L) * E, C, h);
  for (int t = 0; t < T; t++) {
    for (int h = 0; h < H; h++)
      fprintf(out, "c %d vb %zu %d w%d_t%d\n", t, (size_t)(pl.vb_w + h * pl.nwp) * E, pl.n[t], h, t);
    fprintf(out, "c %d mb 0 %zu M_t%d\n", t, (size_t)pl.n[t] * LE, t);
  }
  if (ferror(out)) {
    cutil_seterr(err, errlen, "write error");
    goto done;
  }
  rc = 0;
done:
  free(code), free(buf);
  mna_ntm_data_free(&d);
  return rc;
}

/* ------------------------------------------------------------------ workload loader */
static int space_of(const char *s) {
  static const char *const n[] = {"imem", "mb", "ms", "vb", "vs", "sreg"};
  for (int i = 0; i < 6; i++)
    if (!strcmp(s, n[i])) return i;
  return -1;
}

void mna_wl_info_free(mna_wl_info_t *info) {
  free(info->cmp);
  info->cmp = NULL, info->ncmp = 0;
}

int mna_wl_load(mna_t **mp, const mna_cfg_t *base, FILE *f, const char *fname,
                uint64_t max_insns, mna_wl_info_t *info, char *err, size_t errlen) {
  enum { MAXTOK = 64 };
  char line[2048], why[128];
  char *tok[MAXTOK];
  long ln = 0;
  size_t cap = 0;
  int have_cfg = 0;
  memset(info, 0, sizeof *info);
  if (base) info->cfg = *base;
  else mna_cfg_default(&info->cfg);
#define LERR(...) (cutil_seterr_line(err, errlen, fname, ln, __VA_ARGS__), mna_wl_info_free(info), -1)
  for (;;) {
    const int nt = cutil_read_tokens(f, line, sizeof line, tok, MAXTOK, &ln, NULL, why, sizeof why);
    if (nt == 0) break;
    if (nt < 0) return LERR("%s", why);
    const char *k = tok[0];
    if (!strcmp(k, "cfg")) {
      mna_cfg_t c = *mp ? *mna_cfg(*mp) : info->cfg;
      for (int i = 1; i < nt; i++) {
        char *eq = strchr(tok[i], '=');
        uint64_t v;
        if (!eq) return LERR("cfg: '%s' is not key=value", tok[i]);
        *eq = 0;
        if (cutil_parse_dec(eq + 1, 0, 1u << 30, &v)) return LERR("cfg: bad value of %s", tok[i]);
        int *fld = !strcmp(tok[i], "tiles")  ? &c.tiles
                   : !strcmp(tok[i], "emacs") ? &c.emacs
                   : !strcmp(tok[i], "mb")    ? &c.mb_lines
                   : !strcmp(tok[i], "ms")    ? &c.ms_lines
                   : !strcmp(tok[i], "vb")    ? &c.vb_lines
                   : !strcmp(tok[i], "vs")    ? &c.vs_lines
                   : !strcmp(tok[i], "imem")  ? &c.imem_depth
                   : !strcmp(tok[i], "rf")    ? &c.rf_regs
                                              : NULL;
        if (!fld) return LERR("cfg: unknown key '%s'", tok[i]);
        if (*mp && *fld != (int)v)
          return LERR("cfg: %s=%d but the model has %d", tok[i], (int)v, *fld);
        *fld = (int)v;
      }
      if (!*mp) {
        char ce[160];
        if (mna_cfg_check(&c, ce, sizeof ce)) return LERR("cfg: %s", ce);
        if (!(*mp = mna_new(&c))) return LERR("cfg: cannot make the model");
      }
      info->cfg = *mna_cfg(*mp);
      have_cfg = 1;
      continue;
    }
    if (!*mp) {
      if (!(*mp = mna_new(&info->cfg))) return LERR("cannot make the model");
      have_cfg = 1;
    }
    (void)have_cfg;
    if (!strcmp(k, "p") || !strcmp(k, "m")) {
      const int isp = k[0] == 'p', first = isp ? 3 : 4;
      if (nt < first + 1) return LERR("%s: too few fields", k);
      const int all = !strcmp(tok[1], "*");
      uint64_t tile = 0, addr, v;
      if (!all && cutil_parse_dec(tok[1], 0, MNA_NTM_MAX_TILES - 1, &tile))
        return LERR("bad tile '%s'", tok[1]);
      const int sp = isp ? MNA_SP_IMEM : space_of(tok[2]);
      if (sp < 0 || (!isp && sp == MNA_SP_IMEM)) return LERR("bad space '%s'", tok[2]);
      if (cutil_parse_dec(tok[first - 1], 0, 0xFFFFFu, &addr)) return LERR("bad address '%s'", tok[first - 1]);
      for (int i = first; i < nt; i++) {
        if (cutil_parse_hex(tok[i], isp ? ~0ull : 0xFFFFFFFFull, &v)) return LERR("bad word '%s'", tok[i]);
        const int r = mna_host(*mp, MNA_HOST_WRITE, all, (int)tile, sp,
                               (uint32_t)(addr + (uint64_t)(i - first)), v, NULL);
        if (r != MNA_RSP_OK)
          return LERR("host write refused (%s) at %s %llu", r == MNA_RSP_BAD ? "bad address" : "busy",
                      isp ? "imem" : tok[2], (unsigned long long)(addr + (uint64_t)(i - first)));
      }
    } else if (!strcmp(k, "s")) {
      uint64_t pc;
      if (nt != 2 || cutil_parse_num(tok[1], &pc) || pc > 0xFFFF) return LERR("s: bad start PC");
      if (mna_host(*mp, MNA_HOST_START, 0, 0, 0, (uint32_t)pc, 0, NULL) != MNA_RSP_OK)
        return LERR("s: START refused");
      uint64_t cyc = 0;
      if (mna_run_cycles(*mp, max_insns, NULL, &cyc))
        return LERR("s: more than %llu instructions in a tile", (unsigned long long)max_insns);
      if (info->runs < MNA_WL_MAX_RUNS) info->run_cycles[info->runs] = cyc;
      info->total_cycles += cyc;
      info->runs++;
      for (int t = 0; t < mna_cfg(*mp)->tiles; t++) {
        mna_tile_status_t st;
        mna_tile_status(*mp, t, &st);
        if (st.status != MNA_ST_DONE) info->stopped_error = 1;
      }
    } else if (!strcmp(k, "c")) {
      uint64_t tile, addr, len;
      if (nt < 5 || nt > 6) return LERR("c: expected 'c T SPACE ADDR LEN [name]'");
      const int sp = space_of(tok[2]);
      if (cutil_parse_dec(tok[1], 0, MNA_NTM_MAX_TILES - 1, &tile) || sp < 0 ||
          cutil_parse_dec(tok[3], 0, 0xFFFFFu, &addr) || cutil_parse_dec(tok[4], 0, 0x100000u, &len))
        return LERR("c: bad field");
      if (info->ncmp == cap) {
        cap = cap ? cap * 2 : 16;
        mna_wl_cmp_t *nc = realloc(info->cmp, cap * sizeof *nc);
        if (!nc) return LERR("out of memory");
        info->cmp = nc;
      }
      mna_wl_cmp_t *c = &info->cmp[info->ncmp++];
      c->tile = (int)tile, c->space = sp, c->addr = (uint32_t)addr, c->len = (uint32_t)len;
      snprintf(c->name, sizeof c->name, "%s", nt == 6 ? tok[5] : "");
    } else {
      return LERR("unknown record '%s'", k);
    }
  }
#undef LERR
  return 0;
}
