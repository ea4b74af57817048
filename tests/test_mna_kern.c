/* test_mna_kern.c -- unit tests of the MANNA NTM kernel library (sw/manna/libmna_kern.c), built
 * with ASan/UBSan: for odd shapes (M_N not a multiple of the tiles or of E, M_M not a multiple of
 * E, partial blocks, several row blocks) on 1, 2 and 4 tiles with E 4 and 8 and every soft-read
 * loop order, the workload file is written, executed on the golden model through the reusable
 * loader mna_wl_load, and every result word (read vectors, content weights of every head, the
 * written memory of every tile) is compared bit for bit with mna_ntm_reference; the four orders
 * give identical bits; the results agree with a double-precision NTM step (relative 1e-4); the
 * c records name the results; the cost model's choice and numbers; the fit errors name the
 * memory; presets; a read-vector reduce in two chunks; the loader's cfg check and record errors.
 * Last line: "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna.h"
#include "manna/mna_kern.h"

#include "test_check.h"

typedef struct {
  int tiles, emacs, mb, ms, vb, vs, imem, rf, rows, cols, hr, hw;
} shape_t;

static mna_ntm_params_t params_of(const shape_t *s, int order, uint64_t seed) {
  mna_ntm_params_t p;
  mna_ntm_params_default(&p);
  p.tiles = s->tiles, p.emacs = s->emacs, p.mb_lines = s->mb, p.ms_lines = s->ms;
  p.vb_lines = s->vb, p.vs_lines = s->vs, p.imem_depth = s->imem, p.rf_regs = s->rf;
  p.rows = s->rows, p.cols = s->cols, p.hr = s->hr, p.hw = s->hw, p.order = order, p.seed = seed;
  return p;
}

/* Runs the workload of p (phases: one run per kernel) on a fresh model; res gets the results.
 * 0 ok. */
static int run_model_ph(const mna_ntm_params_t *p, int phases, mna_ntm_result_t *res,
                        mna_wl_info_t *info_out) {
  char err[256];
  FILE *f = tmpfile();
  if (!f) return -1;
  if (phases ? mna_ntm_workload_phases(p, 1, f, err, sizeof err)
             : mna_ntm_workload(p, f, err, sizeof err)) {
    printf("workload: %s\n", err);
    fclose(f);
    return -1;
  }
  rewind(f);
  mna_t *m = NULL;
  mna_wl_info_t info;
  const int rc = mna_wl_load(&m, NULL, f, "ntm.wl", 200000000ull, &info, err, sizeof err);
  fclose(f);
  if (rc) {
    printf("load: %s\n", err);
    if (m) mna_free(m);
    return -1;
  }
  int bad = info.stopped_error;
  for (int t = 0; t < p->tiles; t++) {
    mna_tile_status_t st;
    mna_tile_status(m, t, &st);
    if (st.status != MNA_ST_DONE) printf("tile %d status %d pc %u\n", t, st.status, st.pc), bad = 1;
  }
  mna_ntm_plan_t pl;
  if (!bad && (mna_ntm_plan(p, &pl, err, sizeof err) || mna_ntm_collect(&pl, m, res))) bad = 1;
  if (info_out) *info_out = info;
  else mna_wl_info_free(&info);
  mna_free(m);
  return bad ? -1 : 0;
}

static int run_model(const mna_ntm_params_t *p, mna_ntm_result_t *res, mna_wl_info_t *info_out) {
  return run_model_ph(p, 0, res, info_out);
}

static size_t first_diff(const uint32_t *a, const uint32_t *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return i;
  return n;
}

/* the NTM step in double precision */
static void check_double(const mna_ntm_params_t *p, const mna_ntm_data_t *d,
                         const mna_ntm_result_t *r, const char *tag) {
  const int N = p->rows, C = p->cols, H = p->hr + p->hw;
  double *w = malloc(sizeof(double) * (size_t)H * N);
  double maxw = 0, maxr = 0, maxm = 0;
  for (int h = 0; h < H; h++) {
    double kn = 0, sum = 0;
    for (int c = 0; c < C; c++) kn += (double)cutil_f32(d->key[h * C + c]) * cutil_f32(d->key[h * C + c]);
    kn = sqrt(kn);
    for (int i = 0; i < N; i++) {
      double dot = 0, nr = 0;
      for (int c = 0; c < C; c++) {
        const double x = cutil_f32(d->M[(size_t)i * C + c]);
        dot += x * cutil_f32(d->key[h * C + c]), nr += x * x;
      }
      w[(size_t)h * N + i] = exp(cutil_f32(d->beta[h]) * dot / (sqrt(nr) * kn + 1e-8));
      sum += w[(size_t)h * N + i];
    }
    for (int i = 0; i < N; i++) {
      w[(size_t)h * N + i] /= sum;
      const double e = fabs(cutil_f32(r->w[(size_t)h * N + i]) - w[(size_t)h * N + i]) / w[(size_t)h * N + i];
      if (e > maxw) maxw = e;
    }
  }
  for (int h = 0; h < p->hr; h++)
    for (int c = 0; c < C; c++) {
      double s = 0, sa = 0;
      for (int i = 0; i < N; i++) {
        const double t = cutil_f32(d->M[(size_t)i * C + c]) * w[(size_t)h * N + i];
        s += t, sa += fabs(t);
      }
      const double e = fabs(cutil_f32(r->r[h * C + c]) - s) / (sa > 0 ? sa : 1);
      if (e > maxr) maxr = e;
    }
  for (int i = 0; i < N; i++)
    for (int c = 0; c < C; c++) {
      double m = cutil_f32(d->M[(size_t)i * C + c]);
      for (int h = 0; h < p->hw; h++) {
        const double wi = w[(size_t)(p->hr + h) * N + i];
        m = m * (1 - wi * cutil_f32(d->erase[h * C + c])) + wi * cutil_f32(d->add[h * C + c]);
      }
      const double e = fabs(cutil_f32(r->Mout[(size_t)i * C + c]) - m) / (fabs(m) > 1 ? fabs(m) : 1);
      if (e > maxm) maxm = e;
    }
  CHECK(maxw < 1e-4 && maxr < 1e-4 && maxm < 1e-4,
        "%s: double-precision error w %.3g r %.3g M %.3g", tag, maxw, maxr, maxm);
  free(w);
}

static void test_shape(const shape_t *s, uint64_t seed) {
  char tag[160];
  snprintf(tag, sizeof tag, "T%d E%d %dx%d hr%d hw%d ms%d vs%d", s->tiles, s->emacs, s->rows,
           s->cols, s->hr, s->hw, s->ms, s->vs);
  mna_ntm_params_t p = params_of(s, MNA_ORDER_AUTO, seed);
  char err[256];
  mna_ntm_plan_t pl;
  if (mna_ntm_plan(&p, &pl, err, sizeof err)) {
    CHECK(0, "%s: plan: %s", tag, err);
    return;
  }
  mna_ntm_data_t d;
  mna_ntm_result_t ref, got[4];
  CHECK(mna_ntm_data_make(&p, &d) == 0 && mna_ntm_result_alloc(&p, &ref) == 0, "%s: alloc", tag);
  CHECK(mna_ntm_reference(&p, &d, &ref) == 0, "%s: reference", tag);
  const size_t nw = (size_t)(p.hr + p.hw) * p.rows, nr = (size_t)p.hr * p.cols,
               nm = (size_t)p.rows * p.cols;
  for (int o = 0; o < 4; o++) {
    mna_ntm_params_t q = p;
    q.order = o;
    mna_ntm_result_alloc(&q, &got[o]);
    mna_wl_info_t info;
    const int rc = run_model(&q, &got[o], &info);
    CHECK(rc == 0, "%s order %d: model run failed", tag, o);
    if (rc) continue;
    /* c records: hr read vectors + per tile (H weights + memory) */
    CHECK(info.ncmp == (size_t)(p.hr + p.tiles * (p.hr + p.hw + 1)) && info.runs == 1,
          "%s order %d: %zu c records, %d runs", tag, o, info.ncmp, info.runs);
    mna_wl_info_free(&info);
    size_t k;
    k = first_diff(got[o].w, ref.w, nw);
    CHECK(k == nw, "%s order %d: w[%zu] model %08x ref %08x", tag, o, k, k < nw ? got[o].w[k] : 0,
          k < nw ? ref.w[k] : 0);
    k = first_diff(got[o].r, ref.r, nr);
    CHECK(k == nr, "%s order %d: r[%zu] model %08x ref %08x", tag, o, k, k < nr ? got[o].r[k] : 0,
          k < nr ? ref.r[k] : 0);
    k = first_diff(got[o].Mout, ref.Mout, nm);
    CHECK(k == nm, "%s order %d: M[%zu] model %08x ref %08x", tag, o, k,
          k < nm ? got[o].Mout[k] : 0, k < nm ? ref.Mout[k] : 0);
    if (o > 0)
      CHECK(!memcmp(got[o].w, got[0].w, nw * 4) && !memcmp(got[o].r, got[0].r, nr * 4) &&
                !memcmp(got[o].Mout, got[0].Mout, nm * 4),
            "%s: order %d bits differ from order 0", tag, o);
  }
  check_double(&p, &d, &ref, tag);
  for (int o = 0; o < 4; o++) mna_ntm_result_free(&got[o]);
  mna_ntm_result_free(&ref);
  mna_ntm_data_free(&d);
}

/* The per-kernel split (mna_ntm_workload_phases): four s records, every tile's kernel k at the
 * same PC, the same bits as the reference in every order. */
static void test_phases(const shape_t *s, uint64_t seed) {
  char tag[160];
  snprintf(tag, sizeof tag, "phases T%d E%d %dx%d hr%d hw%d", s->tiles, s->emacs, s->rows, s->cols,
           s->hr, s->hw);
  mna_ntm_params_t p = params_of(s, MNA_ORDER_AUTO, seed);
  mna_ntm_data_t d;
  mna_ntm_result_t ref;
  CHECK(mna_ntm_data_make(&p, &d) == 0 && mna_ntm_result_alloc(&p, &ref) == 0, "%s: alloc", tag);
  CHECK(mna_ntm_reference(&p, &d, &ref) == 0, "%s: reference", tag);
  const size_t nw = (size_t)(p.hr + p.hw) * p.rows, nr = (size_t)p.hr * p.cols,
               nm = (size_t)p.rows * p.cols;
  for (int o = 0; o < 4; o++) {
    mna_ntm_params_t q = p;
    q.order = o;
    mna_ntm_result_t got;
    mna_ntm_result_alloc(&q, &got);
    mna_wl_info_t info;
    const int rc = run_model_ph(&q, 1, &got, &info);
    CHECK(rc == 0, "%s order %d: model run failed", tag, o);
    if (rc) {
      mna_ntm_result_free(&got);
      continue;
    }
    CHECK(info.runs == MNA_NTM_PHASES, "%s order %d: %d runs", tag, o, info.runs);
    mna_wl_info_free(&info);
    CHECK(!memcmp(got.w, ref.w, nw * 4) && !memcmp(got.r, ref.r, nr * 4) &&
              !memcmp(got.Mout, ref.Mout, nm * 4),
          "%s order %d: bits differ from the reference", tag, o);
    mna_ntm_result_free(&got);
  }
  /* the s records: 0 then three increasing PCs, the same halts in every tile's program */
  FILE *f = tmpfile();
  char err[256], line[4096];
  long pcs[8];
  int ns = 0;
  CHECK(f && mna_ntm_workload_phases(&p, 1, f, err, sizeof err) == 0, "%s: workload", tag);
  if (f) {
    rewind(f);
    while (fgets(line, sizeof line, f))
      if (line[0] == 's' && line[1] == ' ' && ns < 8) pcs[ns++] = strtol(line + 2, NULL, 10);
    fclose(f);
  }
  CHECK(ns == MNA_NTM_PHASES && pcs[0] == 0 && pcs[1] > 0 && pcs[2] > pcs[1] && pcs[3] > pcs[2],
        "%s: %d s records", tag, ns);
  mna_ntm_result_free(&ref);
  mna_ntm_data_free(&d);
}

static void test_costs(void) {
  mna_ntm_params_t p;
  mna_ntm_params_default(&p);
  mna_ntm_cost_t c[4];
  int pick = -9;
  char err[256];
  /* copy on the paper configuration: 64 rows per tile, one plain block: block OS wins (no
   * spills), compute OS (fewer vmm) */
  CHECK(mna_ntm_costs(&p, c, &pick, err, sizeof err) == 0 && pick == MNA_ORDER_OS_OS,
        "copy pick %d", pick);
  CHECK(c[0].mb_lines == c[3].mb_lines && c[0].mb_lines == 64 * 8, "mb lines %ld", c[0].mb_lines);
  CHECK(c[0].vb_w_lines == 2 && c[2].vb_w_lines == 16 && c[0].vb_r_lines == 8 + 16 &&
            c[2].vb_r_lines == 8,
        "copy costs %ld %ld %ld %ld", c[0].vb_w_lines, c[2].vb_w_lines, c[0].vb_r_lines,
        c[2].vb_r_lines);
  CHECK(c[0].vs_w_words == c[1].vs_w_words && c[1].vmm_insns < c[0].vmm_insns, "compute costs");
  /* many row blocks and few column blocks: block IS reads w once */
  p.tiles = 1, p.emacs = 4, p.ms_lines = 64, p.vb_lines = 4096, p.mb_lines = 8192, p.vs_lines = 128;
  p.rows = 128, p.cols = 64;
  CHECK(mna_ntm_costs(&p, c, &pick, err, sizeof err) == 0, "costs: %s", err);
  CHECK(pick == (c[0].buffer_cost < c[2].buffer_cost ? 1 : 3), "pick %d (IS %ld OS %ld)", pick,
        c[0].buffer_cost, c[2].buffer_cost);
  CHECK(c[0].buffer_cost < c[2].buffer_cost && pick == MNA_ORDER_IS_OS,
        "128x64 on 1 tile: IS %ld OS %ld pick %d", c[0].buffer_cost, c[2].buffer_cost, pick);
  mna_ntm_plan_t pl;
  CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == 0 && pl.order == pick, "plan order %d", pl.order);
}

static void test_errors(void) {
  mna_ntm_params_t p;
  char err[256];
  mna_ntm_plan_t pl;
  mna_ntm_params_default(&p);
  p.ms_lines = 32; /* half 16 < 33 */
  CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == -1 && !strncmp(err, "MS too small", 12), "%s", err);
  mna_ntm_params_default(&p);
  CHECK(mna_ntm_preset(&p, "babi", 1) == 0 && mna_ntm_plan(&p, &pl, err, sizeof err) == -1 &&
            !strncmp(err, "VB too small", 12),
        "babi: %s", err);
  CHECK(mna_ntm_preset(&p, "babi", 4) == 0 && p.rows == 1024 && p.cols == 256 && p.hr == 4 &&
            p.hw == 1 && mna_ntm_plan(&p, &pl, err, sizeof err) == 0,
        "babi/4: %s", err);
  CHECK(mna_ntm_preset(&p, "nope", 1) == -1, "unknown preset");
  mna_ntm_params_default(&p);
  p.mb_lines = 100;
  CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == -1 && !strncmp(err, "MB too small", 12), "%s", err);
  mna_ntm_params_default(&p);
  p.vs_lines = 4;
  CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == -1 && !strncmp(err, "VS too small", 12), "%s", err);
  mna_ntm_params_default(&p);
  p.hr = 4, p.rf_regs = 3;
  CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == -1 && !strncmp(err, "RF too small", 12), "%s", err);
  mna_ntm_params_default(&p);
  p.imem_depth = 64;
  FILE *f = tmpfile();
  CHECK(f && mna_ntm_workload(&p, f, err, sizeof err) == -1 && !strncmp(err, "imem too small", 14),
        "%s", err);
  if (f) fclose(f);
  mna_ntm_params_default(&p);
  p.rows = 8;
  CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == -1 && strstr(err, "fewer memory rows"), "%s", err);
}

static void test_loader(void) {
  char err[256];
  mna_wl_info_t info;
  mna_cfg_t c;
  mna_cfg_default(&c);
  mna_t *m = mna_new(&c);
  const char *txt[] = {"cfg tiles=4\n", "cfg tiles=2 bogus=1\n", "m 0 xx 0 1\n", "q 1\n",
                       "m 0 vs 999999 1\n"};
  const char *want[] = {"tiles=4 but the model has 2", "unknown key", "bad space", "unknown record",
                        "bad address"};
  for (int i = 0; i < 5; i++) {
    FILE *f = tmpfile();
    fputs(txt[i], f);
    rewind(f);
    const int rc = mna_wl_load(&m, NULL, f, "x.wl", 1000, &info, err, sizeof err);
    CHECK(rc == -1 && strstr(err, want[i]) && !strncmp(err, "x.wl:1: ", 8), "loader %d: %s", i, err);
    fclose(f);
  }
  /* a small good file: li, sst, halt; compare record */
  FILE *f = tmpfile();
  fputs("# comment\ncfg tiles=2 emacs=4\nm * vs 3 0000002a\np * 0 0800000100000000\ns 0\n"
        "c 1 vs 3 1 x\n",
        f);
  rewind(f);
  const int rc = mna_wl_load(&m, NULL, f, "y.wl", 1000, &info, err, sizeof err);
  fclose(f);
  size_t n;
  const uint32_t *vs = mna_mem(m, 1, MNA_SP_VS, &n);
  CHECK(rc == 0 && info.runs == 1 && info.ncmp == 1 && info.cmp[0].tile == 1 &&
            info.cmp[0].space == MNA_SP_VS && info.cmp[0].addr == 3 && !strcmp(info.cmp[0].name, "x") &&
            vs && vs[3] == 42,
        "loader good: rc %d %s", rc, rc ? err : "");
  mna_wl_info_free(&info);
  mna_free(m);
}

int main(void) {
  static const shape_t shapes[] = {
      /* T  E   mb  ms  vb  vs imem rf rows cols hr hw */
      {1, 4, 128, 16, 96, 32, 512, 8, 13, 10, 1, 1},  /* one tile, kg 1, several blocks */
      {2, 4, 128, 16, 96, 32, 512, 8, 21, 10, 2, 1},  /* 21 rows: 11 + 10 */
      {2, 4, 128, 32, 128, 32, 512, 8, 37, 7, 1, 2},  /* M_M < 2E, 2 write heads */
      {4, 4, 128, 24, 128, 32, 512, 8, 45, 13, 2, 1}, /* 12/11 rows per tile, kg 2 */
      {4, 8, 64, 18, 64, 16, 512, 4, 70, 20, 1, 1},   /* E 8, MS at the padded-group minimum */
      {2, 8, 64, 40, 64, 32, 512, 8, 33, 17, 3, 1},   /* 3 read heads, 17 columns */
      {1, 4, 256, 32, 160, 32, 512, 8, 50, 4, 1, 0},  /* no write head, one column block */
      {2, 4, 64, 16, 128, 20, 512, 8, 9, 40, 2, 1},    /* read-vector reduce in 2 chunks */
      /* the paper configuration with the copy benchmark at full size (Table 4.3) */
      {16, 32, 16384, 128, 256, 32, 1024, 8, 1024, 256, 1, 1},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) test_shape(&shapes[i], 100 + i);
  {
    mna_ntm_params_t p = params_of(&shapes[7], MNA_ORDER_AUTO, 1);
    mna_ntm_plan_t pl;
    char err[256];
    CHECK(mna_ntm_plan(&p, &pl, err, sizeof err) == 0 && pl.red_chunks == 2 && pl.red_lines == 10,
          "chunked reduce: %d chunks of %d", pl.red_chunks, pl.red_lines);
  }
  test_phases(&shapes[1], 7);   /* 2 tiles, 11 + 10 rows */
  test_phases(&shapes[3], 8);   /* 4 tiles, 2 read heads */
  test_phases(&shapes[7], 9);   /* chunked read-vector reduce */
  test_phases(&shapes[4], 10);  /* E 8, MS at its minimum */
  test_costs();
  test_errors();
  test_loader();
  return CHECK_SUMMARY();
}
