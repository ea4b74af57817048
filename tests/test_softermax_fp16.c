/* test_softermax_fp16.c -- unit tests of the fp16 softmax baseline model (built with
 * ASan/UBSan). The exponential is checked exhaustively against exp() in double; rows are
 * checked against the float64 softmax of the same fp16 scores and against outcomes the
 * definition fixes (1/n for equal rows, exact zeros for -inf scores, NaN rules, error beats).
 * Last line: "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "softermax_fp16.h"
#include "softermax/smx_workload.h"

#include "test_check.h"

static int is_nan16(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }

/* fp16 ulp at the binade of |v| (subnormal range: 2^-24) */
static double ulp16(double v) {
  int e;
  frexp(fabs(v), &e); /* |v| in [2^(e-1), 2^e) */
  return ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10);
}

/* Error of an fp16 result y against the real value v, in ulps of v's binade (inf when y is
 * infinite and v is not, or y is NaN). */
static double ulp_err(uint16_t y, double v) {
  double yd = smx16_to_double(y);
  if (isnan(yd) || isinf(yd)) return isinf(v) && yd == v ? 0.0 : INFINITY;
  if (isinf(v)) return INFINITY;
  return fabs(yd - v) / ulp16(v);
}

/* ---- the exponential, every input ---- */
static void test_exp_exhaustive(void) {
  double max_ulp = 0;
  int worst = -1, not_cr = 0, nan_ok = 1, nfinite = 0, mono = 1;
  uint16_t prev = 0;
  for (int b = 0; b < 65536; b++) {
    uint16_t x = (uint16_t)b, y = smx16_exp(x);
    double xd = smx16_to_double(x);
    if (isnan(xd)) {
      nan_ok &= y == SMX16_QNAN;
      continue;
    }
    double v = exp(xd);
    uint16_t cr = smx16_from_double(v); /* the correctly rounded result */
    nfinite++;
    if (y != cr) {
      not_cr++;
      /* above the overflow threshold (65520) the correct result is inf: an infinite y is
       * only right there, which y == cr already covers */
      double err = ulp_err(y, v);
      if (err > max_ulp) {
        max_ulp = err;
        worst = b;
      }
    }
  }
  /* monotone: walk x upwards (-inf .. -0, then +0 .. +inf), y must never decrease */
  for (int i = 0; i < 2 * 0x7C01; i++) {
    uint16_t x = (uint16_t)(i < 0x7C01 ? 0xFC00 - i : i - 0x7C01);
    uint16_t y = smx16_exp(x);
    if (i && y < prev) mono = 0;
    prev = y;
  }
  printf("exp: %d non-NaN inputs, max error %.4f ulp (input 0x%04x), %d not correctly rounded\n",
         nfinite, max_ulp, worst & 0xFFFF, not_cr);
  CHECK(nan_ok, "every NaN gives the canonical NaN 0x7E00");
  CHECK(max_ulp <= 1.0, "exp within 1 ulp everywhere (max %.4f)", max_ulp);
  /* the design's measured figure (docs/softermax.md): 0.516 ulp, 212 results one ulp off */
  CHECK(max_ulp < 0.52, "exp within 0.52 ulp (max %.4f)", max_ulp);
  CHECK(not_cr <= 212, "at most 212 of 63490 results not correctly rounded (%d)", not_cr);
  CHECK(mono, "exp is monotone");
}

static void test_exp_directed(void) {
  CHECK(smx16_exp(0x0000) == SMX16_ONE, "e^+0 = 1");
  CHECK(smx16_exp(0x8000) == SMX16_ONE, "e^-0 = 1");
  CHECK(smx16_exp(0x0001) == SMX16_ONE, "e^(smallest subnormal) = 1");
  CHECK(smx16_exp(SMX16_POS_INF) == SMX16_POS_INF, "e^+inf = +inf");
  CHECK(smx16_exp(SMX16_NEG_INF) == SMX16_POS_ZERO, "e^-inf = +0");
  CHECK(smx16_exp(0x7C01) == SMX16_QNAN && smx16_exp(0xFE00) == SMX16_QNAN, "NaN -> 0x7E00");
  CHECK(smx16_exp(0x3C00) == 0x4170, "e^1 = 2.719 (0x4170), got 0x%04x", smx16_exp(0x3C00));
  CHECK(smx16_exp(0xBC00) == 0x35E3, "e^-1 = 0.3679 (0x35e3), got 0x%04x", smx16_exp(0xBC00));
  /* thresholds: 11.0859375 (0x498B) is the largest x with a finite e^x (65248, 0x7BF7);
   * 11.09375 (0x498C) overflows; -17.328125 is the last x whose e^x rounds up to 2^-24 */
  CHECK(smx16_exp(0x498B) == 0x7BF7 && smx16_exp(0x498C) == SMX16_POS_INF,
        "overflow at 11.09 (0x%04x, 0x%04x)", smx16_exp(0x498B), smx16_exp(0x498C));
  CHECK(smx16_exp(0xCC55) == 0x0001 && smx16_exp(0xCC56) == SMX16_POS_ZERO,
        "underflow at -17.33 (0x%04x, 0x%04x)", smx16_exp(0xCC55), smx16_exp(0xCC56));
  CHECK(smx16_exp(0xD000) == SMX16_POS_ZERO && smx16_exp(0x5000) == SMX16_POS_INF,
        "|x| = 32 saturates");
  CHECK(smx16_exp(0xFBFF) == SMX16_POS_ZERO && smx16_exp(0x7BFF) == SMX16_POS_INF,
        "|x| = 65504 saturates");
}

/* ---- fixed tree order ---- */
static void test_trees(void) {
  /* 1 + 2^-11 ties to 1.0 (even): the order of the adds decides the result */
  uint16_t a[3] = {SMX16_ONE, 0x1000, 0x1000}; /* 1, 2^-11, 2^-11 */
  uint16_t b[3] = {0x1000, 0x1000, SMX16_ONE};
  CHECK(smx16_sum_tree(a, 3) == SMX16_ONE, "(1 + 2^-11) + 2^-11 = 1 (got 0x%04x)",
        smx16_sum_tree(a, 3));
  CHECK(smx16_sum_tree(b, 3) == 0x3C01, "(2^-11 + 2^-11) + 1 = 1 + 2^-10 (got 0x%04x)",
        smx16_sum_tree(b, 3));
  uint16_t c[4] = {SMX16_ONE, 0x1000, 0x1000, 0x0000}; /* pairs (0,1), (2,3) */
  CHECK(smx16_sum_tree(c, 4) == SMX16_ONE, "((1 + 2^-11) + (2^-11 + 0)) = 1");
  uint16_t m[5] = {SMX16_NEG_INF, 0xC000, 0x7E00, 0x8000, 0x0000};
  CHECK(smx16_max_tree(m, 5) == 0x0000, "max ignores NaN, +0 > -0 (got 0x%04x)",
        smx16_max_tree(m, 5));
}

/* ---- rows ---- */
static uint16_t h(double v) { return smx16_from_double(v); }

/* max error of a row against the float64 softmax, in ulps of each p (p >= 2^-14) and absolute */
static void row_err(const uint16_t *x, const uint16_t *y, int n, double *ulps, double *abs_err) {
  double *p = malloc(sizeof(double) * (size_t)n);
  smx16_softmax_f64(x, n, p);
  *ulps = 0;
  *abs_err = 0;
  for (int i = 0; i < n; i++) {
    double yd = smx16_to_double(y[i]);
    double ae = fabs(yd - p[i]);
    if (!(ae <= *abs_err)) *abs_err = ae; /* NaN propagates */
    if (p[i] >= ldexp(1.0, -14)) {
      double u = ae / ulp16(p[i]);
      if (!(u <= *ulps)) *ulps = u;
    }
  }
  free(p);
}

static void test_paper_example(void) {
  uint16_t x[3] = {h(2), h(1), h(3)};
  for (int vec = 1; vec <= 16; vec++) {
    smx_cfg_t c;
    smx16_cfg_default(&c, vec, 384);
    uint16_t y[3], d, m;
    CHECK(softermax_fp16_ref(&c, x, 3, y, &d, &m) == 0, "ref accepts the row");
    CHECK(m == h(3), "vec %d: m = 3", vec);
    CHECK(fabs(smx16_to_double(d) - (exp(-1) + exp(-2) + 1)) <= 2 * ulp16(1.5), "vec %d: d = %g",
          vec, smx16_to_double(d));
    double ulps, ae;
    row_err(x, y, 3, &ulps, &ae);
    CHECK(ulps <= 2.0, "vec %d: [2,1,3] within 2 ulp of float64 (%.2f)", vec, ulps);
  }
}

static void test_rows(void) {
  enum { N = 2048 };
  uint16_t *x = calloc(N, sizeof(uint16_t)), *y = calloc(N, sizeof(uint16_t));
  smx_cfg_t c;
  smx16_cfg_default(&c, 16, N);
  uint16_t d, m;
  double ulps, ae;
  /* equal elements: 1/n (exactly 1.0 for n = 1) */
  for (int n = 1; n <= N; n = n < 16 ? n + 1 : n * 2 + 1) {
    for (int i = 0; i < n; i++) x[i] = h(-3.5);
    softermax_fp16_ref(&c, x, n, y, &d, &m);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= y[i] == y[0];
    CHECK(ok && ulp_err(y[0], 1.0 / n) <= 1.0, "equal row of %d: y = 1/n (0x%04x)", n, y[0]);
    CHECK(n > 1 || y[0] == SMX16_ONE, "one element: y = 1.0 exactly");
  }
  /* lengths 1, Vec, Vec + 1, MaxLen at Vec 16, MaxLen 384 on a realistic row */
  smx_rng_t r;
  smx_rng_seed(&r, 3);
  double real[384];
  int32_t q[384];
  smx_gen_row(&r, SMX_DIST_GAUSS, 384, 24, 16, real, q);
  for (int i = 0; i < 384; i++) x[i] = h(real[i]);
  int lens[4] = {1, 16, 17, 384};
  smx_cfg_t c384;
  smx16_cfg_default(&c384, 16, 384);
  for (int k = 0; k < 4; k++) {
    CHECK(softermax_fp16_ref(&c384, x, lens[k], y, NULL, NULL) == 0, "length %d accepted", lens[k]);
    row_err(x, y, lens[k], &ulps, &ae);
    CHECK(ulps <= 12.0 && ae < 2e-3, "length %d: %.2f ulp, abs %.2e", lens[k], ulps, ae);
  }
  CHECK(softermax_fp16_ref(&c384, x, 0, y, NULL, NULL) == -1, "n = 0 refused");
  CHECK(softermax_fp16_ref(&c384, x, 385, y, NULL, NULL) == -1, "n > max_len refused");

  /* -inf scores give exact zeros; the others are the softmax of the rest */
  for (int i = 0; i < 40; i++) x[i] = i % 3 ? SMX16_NEG_INF : h(i * 0.25);
  softermax_fp16_ref(&c, x, 40, y, NULL, NULL);
  int zeros = 1, finite = 1;
  for (int i = 0; i < 40; i++) {
    if (i % 3) zeros &= y[i] == SMX16_POS_ZERO;
    else finite &= !is_nan16(y[i]) && y[i] != 0;
  }
  CHECK(zeros && finite, "-inf scores give +0, the rest a finite softmax");
  /* a leading slice of only -inf (causal-mask style): no NaN, thanks to m_sub = +0 */
  for (int i = 0; i < 40; i++) x[i] = i < 20 ? SMX16_NEG_INF : h(1.0 - i * 0.125);
  softermax_fp16_ref(&c, x, 40, y, &d, &m);
  row_err(x, y, 40, &ulps, &ae);
  CHECK(y[0] == 0 && y[19] == 0 && ulps <= 4.0, "leading -inf slices: zeros, then %.2f ulp", ulps);
  /* only -inf: 0/0 = NaN, like the float64 softmax */
  for (int i = 0; i < 20; i++) x[i] = SMX16_NEG_INF;
  softermax_fp16_ref(&c, x, 20, y, &d, &m);
  CHECK(y[0] == SMX16_QNAN && y[19] == SMX16_QNAN && d == 0 && m == SMX16_NEG_INF,
        "all -inf row: canonical NaN, d = 0");
  /* large negative and large positive scores */
  x[0] = h(-60000);
  x[1] = h(0);
  x[2] = h(-65504);
  softermax_fp16_ref(&c, x, 3, y, NULL, NULL);
  CHECK(y[0] == 0 && y[1] == SMX16_ONE && y[2] == 0, "[-60000, 0, -65504] -> [0, 1, 0]");
  x[0] = h(60000);
  x[1] = h(59000);
  x[2] = h(65504);
  x[3] = h(-65504); /* 65504 - (-65504) overflows the subtraction: exp(-inf) = 0 */
  softermax_fp16_ref(&c, x, 4, y, NULL, NULL);
  CHECK(y[0] == 0 && y[1] == 0 && y[2] == SMX16_ONE && y[3] == 0, "large positive scores");
  /* a max that rises across slices, late */
  for (int i = 0; i < 100; i++) x[i] = h(-8.0 + i * 0.1);
  softermax_fp16_ref(&c, x, 100, y, NULL, NULL);
  row_err(x, y, 100, &ulps, &ae);
  CHECK(ulps <= 8.0, "rising max: %.2f ulp", ulps);
  /* NaN scores poison the row (the float64 softmax too) */
  x[5] = SMX16_QNAN;
  softermax_fp16_ref(&c, x, 100, y, NULL, NULL);
  CHECK(is_nan16(y[0]) && is_nan16(y[99]), "a NaN score gives NaN outputs");
  free(x);
  free(y);
}

/* Accuracy on attention-like rows of 384 (the bench's workload) at Vec 16. */
static void test_accuracy(void) {
  smx_cfg_t c;
  smx16_cfg_default(&c, 16, 384);
  smx_rng_t r;
  smx_rng_seed(&r, 5);
  double real[384], worst_ulp = 0, worst_abs = 0, sum_abs = 0;
  int32_t q[384];
  uint16_t x[384], y[384];
  double p[384];
  long cnt = 0;
  for (int row = 0; row < 500; row++) {
    smx_gen_row(&r, SMX_DIST_MIXED, 384, 24, 16, real, q);
    for (int i = 0; i < 384; i++) x[i] = h(real[i]);
    softermax_fp16_ref(&c, x, 384, y, NULL, NULL);
    smx16_softmax_f64(x, 384, p);
    double u, a;
    row_err(x, y, 384, &u, &a);
    worst_ulp = u > worst_ulp ? u : worst_ulp;
    worst_abs = a > worst_abs ? a : worst_abs;
    for (int i = 0; i < 384; i++, cnt++) sum_abs += fabs(smx16_to_double(y[i]) - p[i]);
  }
  printf("accuracy (500 mixed rows of 384, Vec 16): max %.2f ulp, max abs %.3e, mean abs %.3e\n",
         worst_ulp, worst_abs, sum_abs / cnt);
  /* Two fp16 effects bound the error (docs/softermax.md, "fp16 baseline"): x - m is rounded
   * (2^-8 absolute for |x - m| in [8, 16): 0.4% on a small e_j), and d ~ 1 of a peaked row
   * swamps the small e_j it accumulates over 24 slices (terms below 2^-11 vanish; 15.7 ulp /
   * 5.1e-3 absolute worst when written, at p = 0.987). The bounds keep a margin over that. */
  CHECK(worst_ulp <= 20.0, "max error %.2f ulp", worst_ulp);
  CHECK(worst_abs < 8e-3 && sum_abs / cnt < 5e-6, "abs error max %.2e mean %.2e", worst_abs,
        sum_abs / cnt);
}

/* The stream model agrees with softermax_fp16_ref on well-formed rows and flags malformed ones. */
static void test_stream(void) {
  smx_cfg_t c;
  smx16_cfg_default(&c, 4, 10);
  smx_model_t *m = smx_model_new(&c);
  smx_in_beat_t b;
  smx_out_beat_t o;
  uint16_t x[10], y[10];
  for (int i = 0; i < 10; i++) x[i] = h(i * 0.7 - 3);
  softermax_fp16_ref(&c, x, 10, y, NULL, NULL);
  for (int s = 0; s < 3; s++) {
    memset(&b, 0, sizeof(b));
    b.cnt = s < 2 ? 4 : 2;
    b.last = s == 2;
    for (int j = 0; j < b.cnt; j++) b.x[j] = x[4 * s + j];
    b.x[3] = s == 2 ? (int32_t)SMX16_QNAN : b.x[3]; /* an unused lane's content is ignored */
    smx_model_push(m, &b);
  }
  CHECK(smx_model_pending(m) == 3, "three output beats for 10 elements at vec 4");
  int same = 1;
  for (int s = 0; s < 3; s++) {
    smx_model_pop(m, &o);
    same &= o.cnt == (s < 2 ? 4 : 2) && o.last == (s == 2) && !o.err;
    for (int j = 0; j < 4; j++) same &= o.y[j] == (j < o.cnt ? y[4 * s + j] : 0);
  }
  CHECK(same, "stream model equals softermax_fp16_ref, unused lanes 0");
  /* malformed: cnt 0; cnt > vec; short non-last beat; over max_len */
  memset(&b, 0, sizeof(b));
  b.last = 1;
  smx_model_push(m, &b);
  CHECK(smx_model_pop(m, &o) && o.err && o.last && o.cnt == 0, "cnt 0 gives one error beat");
  b.cnt = 5;
  smx_model_push(m, &b);
  CHECK(smx_model_pop(m, &o) && o.err && !smx_model_pending(m), "cnt > vec");
  b.cnt = 2;
  b.last = 0;
  smx_model_push(m, &b);
  b.cnt = 4;
  b.last = 1;
  smx_model_push(m, &b);
  CHECK(smx_model_pop(m, &o) && o.err && !smx_model_pending(m), "short beat before the last");
  b.cnt = 4;
  b.last = 0;
  for (int i = 0; i < 2; i++) smx_model_push(m, &b);
  b.cnt = 3; /* 11 elements: one over */
  b.last = 1;
  smx_model_push(m, &b);
  CHECK(smx_model_pop(m, &o) && o.err && !smx_model_pending(m), "11 elements > max_len 10");
  /* and it keeps working */
  b.cnt = 1;
  b.x[0] = h(12);
  smx_model_push(m, &b);
  CHECK(smx_model_pop(m, &o) && !o.err && o.cnt == 1 && o.y[0] == SMX16_ONE,
        "good row after errors");
  /* reset drops a partial row */
  b.cnt = 4;
  b.last = 0;
  smx_model_push(m, &b);
  smx_model_reset(m);
  b.cnt = 2;
  b.last = 1;
  b.x[0] = b.x[1] = h(1);
  smx_model_push(m, &b);
  CHECK(smx_model_pop(m, &o) && !o.err && o.y[0] == 0x3800 && o.y[1] == 0x3800,
        "after a reset: [1, 1] -> [0.5, 0.5]");
  smx_model_free(m);
  smx_cfg_t bad;
  smx16_cfg_default(&bad, 0, 10);
  CHECK(smx_model_new(&bad) == NULL, "bad configuration refused");
  bad.vec = 65;
  CHECK(smx_cfg_check(&bad) == -1, "vec above 64 refused");
}

int main(void) {
  test_exp_exhaustive();
  test_exp_directed();
  test_trees();
  test_paper_example();
  test_rows();
  test_accuracy();
  test_stream();
  return CHECK_SUMMARY();
}
