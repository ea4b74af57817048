/* test_fpref.c -- unit tests of the IEEE float reference (fpref.h), built with ASan/UBSan.
 *
 *  1. Directed cases per format (fp16, bf16, fp32): every expected pattern and flag set is
 *     derived by hand from IEEE 754 / RISC-V rules and written as a literal.
 *  2. Route cross-check for fp32: the round-to-odd-through-double route must equal the host
 *     binary32 route (SSE under fesetround) for 2,000,000 random operand sets per op, each in
 *     all four IEEE rounding modes.
 *  3. Independent references for the other formats and for RMM: a brute-force rounding
 *     (neighbour search in a table of every value of the format; comparisons against exact
 *     midpoints) checks fpref_round_double and, through operations whose exact result is a
 *     double, add/sub/mul/fma/div end to end in all five modes; on x86 with F16C the
 *     hardware fp16 conversion checks fp16 arithmetic (fp32 op + one conversion, which is
 *     innocuous double rounding since 24 >= 2*11 + 2) and conversions.
 *  4. fp16 exhaustive sanity: f16 -> f32 -> f16 identity, sqrt(a*a) = |a| where a*a exact,
 *     bf16 <-> f16 round trips.
 *  5. roundToInt: every fp16 and bfloat16 value in all five modes, exact and not, against
 *     floor/ceil of the exact value and each mode's rule; fp32 against the host's rintf under
 *     fesetround (roundf for RMM). The compare variants (eq_signaling, lt_quiet, le_quiet) with
 *     eq/lt/le/min/max against double compares.
 * Last line: "N passed, N failed"; exit status 1 on any failure. */
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cutil.h"
#include "fpref.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

static long npass, nfail;
static int nprinted;
#define MAXPRINT 40

static void report_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report_fail(const char *fmt, ...) {
  nfail++;
  if (nprinted++ >= MAXPRINT) return;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

/* Flags are preset to a junk value so that "SET, not ORed" is checked too. */
static unsigned F;
#define NX FP_FLAG_NX
#define UF FP_FLAG_UF
#define OF FP_FLAG_OF
#define DZ FP_FLAG_DZ
#define NV FP_FLAG_NV
static const char *RMN[] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};

static void check_eq(int line, const char *what, uint32_t got, unsigned gotf, uint32_t want,
                     unsigned wantf) {
  if (got == want && gotf == wantf && fegetround() == FE_TONEAREST) {
    npass++;
  } else {
    report_fail("line %d: %s: got %08X flags %02X, want %08X flags %02X%s", line, what, got, gotf,
                want, wantf, fegetround() == FE_TONEAREST ? "" : " (rounding mode not restored)");
    fesetround(FE_TONEAREST);
  }
}
#define CK(expr, want, wantf)                                                      \
  do {                                                                             \
    F = 0xE0;                                                                      \
    uint32_t g_ = (uint32_t)(expr);                                                \
    check_eq(__LINE__, #expr, g_, F, (uint32_t)(want), (unsigned)(wantf));         \
  } while (0)
/* the same expression in the five modes rm = RNE, RTZ, RDN, RUP, RMM */
#define CK5(expr, w0, f0, w1, f1, w2, f2, w3, f3, w4, f4)                          \
  do {                                                                             \
    const uint32_t w_[5] = {w0, w1, w2, w3, w4};                                   \
    const unsigned f_[5] = {f0, f1, f2, f3, f4};                                   \
    for (int r_ = 0; r_ < 5; r_++) {                                               \
      fp_rm_t rm = (fp_rm_t)r_;                                                    \
      char d_[200];                                                                \
      (void)rm;                                                                \
      F = 0xE0;                                                                    \
      uint32_t g_ = (uint32_t)(expr);                                              \
      snprintf(d_, sizeof d_, "%s [%s]", #expr, RMN[r_]);                          \
      check_eq(__LINE__, d_, g_, F, w_[r_], f_[r_]);                               \
    }                                                                              \
  } while (0)
/* all five modes give the same */
#define CKA(expr, want, wantf) CK5(expr, want, wantf, want, wantf, want, wantf, want, wantf, want, wantf)

/* ------------------------------------------------------------------ hand-derived constants */
typedef struct {
  const char *name;
  fp_fmt_t f;
  uint32_t S;                                /* sign bit */
  uint32_t one, two, three, four, half, onehalf, twohalf; /* 1, 2, 3, 4, 0.5, 1.5, 2.5 */
  uint32_t hulp1;                            /* 2^-(mw+1): half an ulp of 1 */
  uint32_t one_p1, one_p2;                   /* 1 + ulp, 1 + 2 ulp */
  uint32_t minsub, twominsub, maxsub, minnorm, maxnorm, inf, cnan, snan, nqnan_pl, nsnan;
  uint32_t maxsub_x2;                        /* 2 * maxsub (exact, normal) */
  uint32_t pow2_mw;                          /* 2^mw: minsub * 2^mw = minnorm */
  uint32_t hulp_max, qulp_max;               /* 2^(emax-mw-1), 2^(emax-mw-2) */
  uint32_t mid_a, mid_b;                     /* mid_a*mid_b = 2^emin - 2^(emin-mw-1) (a tie) */
  uint32_t fma_r, fma_r_up;                  /* fma(1+u, 1+u, -1) = 2u + u^2: RNE/RTZ, RUP */
  uint32_t sqrt2_rne, sqrt2_rup;
  uint32_t third_rne, third_rtz;             /* 1/3 */
  uint32_t seven;
} K;

static const K KF16 = {
    "f16", {5, 10}, 0x8000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x3800, 0x3E00, 0x4100,
    0x1000, 0x3C01, 0x3C02,
    0x0001, 0x0002, 0x03FF, 0x0400, 0x7BFF, 0x7C00, 0x7E00, 0x7C01, 0xFE01, 0xFD00,
    0x07FE, 0x6400, 0x4C00, 0x4800, 0x1DC0, 0x2190, 0x1800, 0x1801, 0x3DA8, 0x3DA9,
    0x3555, 0x3555, 0x4700};
static const K KBF16 = {
    "bf16", {8, 7}, 0x8000, 0x3F80, 0x4000, 0x4040, 0x4080, 0x3F00, 0x3FC0, 0x4020,
    0x3B80, 0x3F81, 0x3F82,
    0x0001, 0x0002, 0x007F, 0x0080, 0x7F7F, 0x7F80, 0x7FC0, 0x7F81, 0xFFC1, 0xFFA0,
    0x00FE, 0x4300, 0x7B00, 0x7A80, 0x1FF0, 0x2008, 0x3C80, 0x3C81, 0x3FB5, 0x3FB6,
    0x3EAB, 0x3EAA, 0x40E0};
static const K KF32 = {
    "f32", {8, 23}, 0x80000000, 0x3F800000, 0x40000000, 0x40400000, 0x40800000, 0x3F000000,
    0x3FC00000, 0x40200000,
    0x33800000, 0x3F800001, 0x3F800002,
    0x00000001, 0x00000002, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000,
    0x7F800001, 0xFFC00001, 0xFFA00000,
    0x00FFFFFE, 0x4B000000, 0x73000000, 0x72800000, 0x1FFFF000, 0x20000800, 0x34800000,
    0x34800001, 0x3FB504F3, 0x3FB504F4, 0x3EAAAAAB, 0x3EAAAAAA,
    0x40E00000};

static void directed_arith(const K *k) {
  const fp_fmt_t f = k->f;
  const uint32_t S = k->S, Z = 0, NZ = S;
  printf("directed %s\n", k->name);
  CK(fpref_canonical_nan(f), k->cnan, 0xE0);
  CK(fpref_is_nan(f, k->snan) && fpref_is_snan(f, k->snan) && fpref_is_nan(f, k->nqnan_pl) &&
         !fpref_is_snan(f, k->nqnan_pl) && !fpref_is_nan(f, k->inf) && fpref_is_snan(f, k->nsnan),
     1, 0xE0);
  /* 1 + 1 */
  CKA(fpref_add(f, k->one, k->one, rm, &F), k->two, 0);
  /* ties at 1 + ulp/2: even is 1 (down) / even is 1+2ulp (up); RMM away */
  CK5(fpref_add(f, k->one, k->hulp1, rm, &F), k->one, NX, k->one, NX, k->one, NX, k->one_p1, NX,
      k->one_p1, NX);
  CK5(fpref_add(f, k->one_p1, k->hulp1, rm, &F), k->one_p2, NX, k->one_p1, NX, k->one_p1, NX,
      k->one_p2, NX, k->one_p2, NX);
  CK5(fpref_sub(f, S | k->one, k->hulp1, rm, &F), S | k->one, NX, S | k->one, NX, S | k->one_p1,
      NX, S | k->one, NX, S | k->one_p1, NX);
  /* exact zeros */
  CK5(fpref_add(f, Z, NZ, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CK5(fpref_add(f, NZ, Z, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CKA(fpref_add(f, NZ, NZ, rm, &F), NZ, 0);
  CKA(fpref_add(f, Z, Z, rm, &F), Z, 0);
  CKA(fpref_sub(f, NZ, Z, rm, &F), NZ, 0);
  CK5(fpref_sub(f, Z, Z, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CK5(fpref_sub(f, k->three, k->three, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CK5(fpref_add(f, S | k->minsub, k->minsub, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CK5(fpref_fma(f, k->one, Z, NZ, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CKA(fpref_fma(f, S | k->one, Z, NZ, rm, &F), NZ, 0);
  CK5(fpref_fma(f, k->one, k->one, S | k->one, rm, &F), Z, 0, Z, 0, NZ, 0, Z, 0, Z, 0);
  CKA(fpref_mul(f, Z, S | k->one, rm, &F), NZ, 0);
  /* subnormals */
  CKA(fpref_add(f, k->minsub, k->minsub, rm, &F), k->twominsub, 0); /* exact subnormal: no UF */
  CKA(fpref_sub(f, k->minnorm, k->minsub, rm, &F), k->maxsub, 0);
  CKA(fpref_mul(f, k->minsub, k->pow2_mw, rm, &F), k->minnorm, 0);
  CKA(fpref_mul(f, k->maxsub, k->two, rm, &F), k->maxsub_x2, 0);
  CKA(fpref_div(f, k->maxsub_x2, k->two, rm, &F), k->maxsub, 0);
  CK5(fpref_mul(f, k->minsub, k->half, rm, &F), Z, NX | UF, Z, NX | UF, Z, NX | UF, k->minsub,
      NX | UF, k->minsub, NX | UF);
  CK5(fpref_mul(f, S | k->minsub, k->half, rm, &F), NZ, NX | UF, NZ, NX | UF, S | k->minsub,
      NX | UF, NZ, NX | UF, S | k->minsub, NX | UF);
  /* tininess after rounding: maxsub * (1+ulp) = 2^emin - 2^(emin-2mw) rounds up to 2^emin
   * (not tiny, NX only) in RNE/RUP/RMM; RTZ/RDN stay at maxsub and are tiny (UF) */
  CK5(fpref_mul(f, k->maxsub, k->one_p1, rm, &F), k->minnorm, NX, k->maxsub, NX | UF, k->maxsub,
      NX | UF, k->minnorm, NX, k->minnorm, NX);
  CK5(fpref_mul(f, S | k->maxsub, k->one_p1, rm, &F), S | k->minnorm, NX, S | k->maxsub, NX | UF,
      S | k->minnorm, NX, S | k->maxsub, NX | UF, S | k->minnorm, NX);
  /* ... whereas 2^emin - 2^(emin-mw-1) is a p-bit number (tiny) that ties up to 2^emin: UF */
  CK5(fpref_mul(f, k->mid_a, k->mid_b, rm, &F), k->minnorm, NX | UF, k->maxsub, NX | UF, k->maxsub,
      NX | UF, k->minnorm, NX | UF, k->minnorm, NX | UF);
  /* overflow */
  CK5(fpref_add(f, k->maxnorm, k->maxnorm, rm, &F), k->inf, OF | NX, k->maxnorm, OF | NX,
      k->maxnorm, OF | NX, k->inf, OF | NX, k->inf, OF | NX);
  CK5(fpref_add(f, S | k->maxnorm, S | k->maxnorm, rm, &F), S | k->inf, OF | NX, S | k->maxnorm,
      OF | NX, S | k->inf, OF | NX, S | k->maxnorm, OF | NX, S | k->inf, OF | NX);
  CK5(fpref_add(f, k->maxnorm, k->hulp_max, rm, &F), k->inf, OF | NX, k->maxnorm, NX, k->maxnorm,
      NX, k->inf, OF | NX, k->inf, OF | NX);
  CK5(fpref_add(f, k->maxnorm, k->qulp_max, rm, &F), k->maxnorm, NX, k->maxnorm, NX, k->maxnorm,
      NX, k->inf, OF | NX, k->maxnorm, NX);
  CK5(fpref_mul(f, S | k->maxnorm, k->two, rm, &F), S | k->inf, OF | NX, S | k->maxnorm, OF | NX,
      S | k->inf, OF | NX, S | k->maxnorm, OF | NX, S | k->inf, OF | NX);
  CKA(fpref_sub(f, k->maxnorm, k->maxnorm, FP_RNE, &F), Z, 0);
  /* fma is one rounding: (1+u)^2 - 1 = 2u + u^2 */
  CK5(fpref_fma(f, k->one_p1, k->one_p1, S | k->one, rm, &F), k->fma_r, NX, k->fma_r, NX,
      k->fma_r, NX, k->fma_r_up, NX, k->fma_r_up, NX);
  CKA(fpref_fma(f, k->two, k->three, k->one, rm, &F), k->seven, 0);
  /* sqrt */
  CKA(fpref_sqrt(f, S | k->one, rm, &F), k->cnan, NV);
  CKA(fpref_sqrt(f, NZ, rm, &F), NZ, 0);
  CKA(fpref_sqrt(f, Z, rm, &F), Z, 0);
  CKA(fpref_sqrt(f, k->inf, rm, &F), k->inf, 0);
  CKA(fpref_sqrt(f, S | k->inf, rm, &F), k->cnan, NV);
  CKA(fpref_sqrt(f, S | k->minsub, rm, &F), k->cnan, NV);
  CKA(fpref_sqrt(f, k->four, rm, &F), k->two, 0);
  CK5(fpref_sqrt(f, k->two, rm, &F), k->sqrt2_rne, NX, k->sqrt2_rne, NX, k->sqrt2_rne, NX,
      k->sqrt2_rup, NX, k->sqrt2_rne, NX);
  CKA(fpref_sqrt(f, k->snan, rm, &F), k->cnan, NV);
  CKA(fpref_sqrt(f, k->nqnan_pl, rm, &F), k->cnan, 0);
  /* division */
  CKA(fpref_div(f, k->one, Z, rm, &F), k->inf, DZ);
  CKA(fpref_div(f, S | k->one, Z, rm, &F), S | k->inf, DZ);
  CKA(fpref_div(f, k->one, NZ, rm, &F), S | k->inf, DZ);
  CKA(fpref_div(f, Z, Z, rm, &F), k->cnan, NV);
  CKA(fpref_div(f, k->inf, S | k->inf, rm, &F), k->cnan, NV);
  CKA(fpref_div(f, k->inf, Z, rm, &F), k->inf, 0);
  CKA(fpref_div(f, Z, k->inf, rm, &F), Z, 0);
  CKA(fpref_div(f, S | k->one, k->inf, rm, &F), NZ, 0);
  CKA(fpref_div(f, k->three, k->three, rm, &F), k->one, 0);
  CK5(fpref_div(f, k->one, k->three, rm, &F), k->third_rne, NX, k->third_rtz, NX, k->third_rtz, NX,
      k->third_rtz + 1, NX, k->third_rne, NX);
  CK5(fpref_div(f, k->minsub, k->two, rm, &F), Z, NX | UF, Z, NX | UF, Z, NX | UF, k->minsub,
      NX | UF, k->minsub, NX | UF);
  CKA(fpref_div(f, k->snan, Z, rm, &F), k->cnan, NV);
  /* invalid and NaNs */
  CKA(fpref_sub(f, k->inf, k->inf, rm, &F), k->cnan, NV);
  CKA(fpref_add(f, k->inf, S | k->inf, rm, &F), k->cnan, NV);
  CKA(fpref_add(f, k->inf, k->inf, rm, &F), k->inf, 0);
  CKA(fpref_sub(f, k->inf, k->maxnorm, rm, &F), k->inf, 0);
  CKA(fpref_mul(f, k->inf, NZ, rm, &F), k->cnan, NV);
  CKA(fpref_mul(f, S | k->inf, k->minsub, rm, &F), S | k->inf, 0);
  CKA(fpref_fma(f, k->inf, Z, k->cnan, rm, &F), k->cnan, NV);  /* RISC-V: NV even with qNaN c */
  CKA(fpref_fma(f, NZ, S | k->inf, k->nqnan_pl, rm, &F), k->cnan, NV);
  CKA(fpref_fma(f, Z, k->inf, k->one, rm, &F), k->cnan, NV);
  CKA(fpref_fma(f, k->inf, k->one, S | k->inf, rm, &F), k->cnan, NV);
  CKA(fpref_fma(f, k->one, S | k->inf, k->inf, rm, &F), k->cnan, NV);
  CKA(fpref_fma(f, k->inf, k->one, k->inf, rm, &F), k->inf, 0);
  CKA(fpref_fma(f, k->one, k->maxnorm, S | k->inf, rm, &F), S | k->inf, 0);
  CKA(fpref_fma(f, k->one, k->one, k->nqnan_pl, rm, &F), k->cnan, 0);
  CKA(fpref_fma(f, k->nqnan_pl, Z, k->inf, rm, &F), k->cnan, 0);
  CKA(fpref_fma(f, k->snan, k->one, k->one, rm, &F), k->cnan, NV);
  CKA(fpref_fma(f, k->one, k->one, k->nsnan, rm, &F), k->cnan, NV);
  CKA(fpref_fma(f, k->inf, Z, k->snan, rm, &F), k->cnan, NV);
  CKA(fpref_add(f, k->snan, k->one, rm, &F), k->cnan, NV);
  CKA(fpref_add(f, k->one, k->nsnan, rm, &F), k->cnan, NV);
  CKA(fpref_add(f, k->nqnan_pl, k->one, rm, &F), k->cnan, 0);
  CKA(fpref_sub(f, k->inf, k->nqnan_pl, rm, &F), k->cnan, 0);
  CKA(fpref_mul(f, k->nsnan, k->nqnan_pl, rm, &F), k->cnan, NV);
  CKA(fpref_mul(f, k->cnan, Z, rm, &F), k->cnan, 0);
  CKA(fpref_div(f, k->nqnan_pl, Z, rm, &F), k->cnan, 0);
}

static void directed_cvt_cmp(const K *k) {
  const fp_fmt_t f = k->f;
  const uint32_t S = k->S, Z = 0, NZ = S;
  const uint32_t IMAX = 0x7FFFFFFF, IMIN = 0x80000000, M1 = 0xFFFFFFFF;
  /* f -> i32 */
  CK5(fpref_f_to_i32(f, k->twohalf, rm, &F), 2, NX, 2, NX, 2, NX, 3, NX, 3, NX);
  CK5(fpref_f_to_i32(f, S | k->twohalf, rm, &F), (uint32_t)-2, NX, (uint32_t)-2, NX, (uint32_t)-3,
      NX, (uint32_t)-2, NX, (uint32_t)-3, NX);
  CK5(fpref_f_to_i32(f, k->half, rm, &F), 0, NX, 0, NX, 0, NX, 1, NX, 1, NX);
  CK5(fpref_f_to_i32(f, S | k->half, rm, &F), 0, NX, 0, NX, M1, NX, 0, NX, M1, NX);
  CK5(fpref_f_to_i32(f, k->onehalf, rm, &F), 2, NX, 1, NX, 1, NX, 2, NX, 2, NX);
  CK5(fpref_f_to_i32(f, S | k->onehalf, rm, &F), (uint32_t)-2, NX, M1, NX, (uint32_t)-2, NX, M1,
      NX, (uint32_t)-2, NX);
  CK5(fpref_f_to_i32(f, k->minsub, rm, &F), 0, NX, 0, NX, 0, NX, 1, NX, 0, NX);
  CK5(fpref_f_to_i32(f, S | k->minsub, rm, &F), 0, NX, 0, NX, M1, NX, 0, NX, 0, NX);
  CKA(fpref_f_to_i32(f, k->three, rm, &F), 3, 0);
  CKA(fpref_f_to_i32(f, NZ, rm, &F), 0, 0);
  CKA(fpref_f_to_i32(f, k->cnan, rm, &F), IMAX, NV);
  CKA(fpref_f_to_i32(f, k->nqnan_pl, rm, &F), IMAX, NV);
  CKA(fpref_f_to_i32(f, k->nsnan, rm, &F), IMAX, NV);
  CKA(fpref_f_to_i32(f, k->inf, rm, &F), IMAX, NV);
  CKA(fpref_f_to_i32(f, S | k->inf, rm, &F), IMIN, NV);
  CKA(fpref_f_to_i32(f, k->maxnorm, rm, &F), f.ew == 5 ? 65504u : IMAX, f.ew == 5 ? 0 : NV);
  CKA(fpref_f_to_i32(f, S | k->maxnorm, rm, &F), f.ew == 5 ? (uint32_t)-65504 : IMIN, f.ew == 5 ? 0 : NV);
  /* i32 -> f */
  CKA(fpref_i32_to_f(f, 0, rm, &F), Z, 0);
  CKA(fpref_i32_to_f(f, -1, rm, &F), S | k->one, 0);
  CKA(fpref_i32_to_f(f, 3, rm, &F), k->three, 0);
  /* compare */
  CK(fpref_eq(f, Z, NZ, &F), 1, 0);
  CK(fpref_lt(f, NZ, Z, &F), 0, 0);
  CK(fpref_le(f, NZ, Z, &F), 1, 0);
  CK(fpref_le(f, Z, NZ, &F), 1, 0);
  CK(fpref_lt(f, S | k->one, S | k->half, &F), 1, 0);
  CK(fpref_lt(f, S | k->half, S | k->one, &F), 0, 0);
  CK(fpref_lt(f, S | k->inf, k->inf, &F), 1, 0);
  CK(fpref_lt(f, S | k->minsub, Z, &F), 1, 0);
  CK(fpref_le(f, k->maxnorm, k->inf, &F), 1, 0);
  CK(fpref_le(f, k->inf, k->maxnorm, &F), 0, 0);
  CK(fpref_eq(f, k->one, k->one, &F), 1, 0);
  CK(fpref_eq(f, k->one, k->one_p1, &F), 0, 0);
  CK(fpref_eq(f, k->cnan, k->cnan, &F), 0, 0);
  CK(fpref_eq(f, k->nqnan_pl, k->one, &F), 0, 0);
  CK(fpref_eq(f, k->snan, k->snan, &F), 0, NV);
  CK(fpref_eq(f, k->one, k->nsnan, &F), 0, NV);
  CK(fpref_lt(f, k->cnan, k->one, &F), 0, NV);
  CK(fpref_lt(f, k->one, k->nqnan_pl, &F), 0, NV);
  CK(fpref_le(f, k->cnan, k->cnan, &F), 0, NV);
  CK(fpref_le(f, k->snan, k->inf, &F), 0, NV);
  /* the quiet / signaling variants: eq_signaling NV on any NaN, lt_quiet / le_quiet on sNaN */
  CK(fpref_eq_signaling(f, Z, NZ, &F), 1, 0);
  CK(fpref_eq_signaling(f, k->one, k->one_p1, &F), 0, 0);
  CK(fpref_eq_signaling(f, k->cnan, k->cnan, &F), 0, NV);
  CK(fpref_eq_signaling(f, k->one, k->nqnan_pl, &F), 0, NV);
  CK(fpref_eq_signaling(f, k->snan, k->one, &F), 0, NV);
  CK(fpref_lt_quiet(f, NZ, Z, &F), 0, 0);
  CK(fpref_lt_quiet(f, S | k->inf, k->minsub, &F), 1, 0);
  CK(fpref_lt_quiet(f, k->cnan, k->one, &F), 0, 0);
  CK(fpref_lt_quiet(f, k->one, k->nqnan_pl, &F), 0, 0);
  CK(fpref_lt_quiet(f, k->one, k->nsnan, &F), 0, NV);
  CK(fpref_le_quiet(f, Z, NZ, &F), 1, 0);
  CK(fpref_le_quiet(f, k->inf, k->maxnorm, &F), 0, 0);
  CK(fpref_le_quiet(f, k->cnan, k->cnan, &F), 0, 0);
  CK(fpref_le_quiet(f, k->snan, k->inf, &F), 0, NV);
  /* roundToInt, exact (NX when the value changes) and not exact (never NX) */
  CK5(fpref_round_to_int(f, k->twohalf, rm, 1, &F), k->two, NX, k->two, NX, k->two, NX, k->three,
      NX, k->three, NX);
  CK5(fpref_round_to_int(f, S | k->twohalf, rm, 1, &F), S | k->two, NX, S | k->two, NX,
      S | k->three, NX, S | k->two, NX, S | k->three, NX);
  CK5(fpref_round_to_int(f, k->onehalf, rm, 1, &F), k->two, NX, k->one, NX, k->one, NX, k->two,
      NX, k->two, NX);
  CK5(fpref_round_to_int(f, k->half, rm, 1, &F), Z, NX, Z, NX, Z, NX, k->one, NX, k->one, NX);
  CK5(fpref_round_to_int(f, S | k->half, rm, 1, &F), NZ, NX, NZ, NX, S | k->one, NX, NZ, NX,
      S | k->one, NX);
  CK5(fpref_round_to_int(f, S | k->half, rm, 0, &F), NZ, 0, NZ, 0, S | k->one, 0, NZ, 0,
      S | k->one, 0);
  CK5(fpref_round_to_int(f, k->minsub, rm, 1, &F), Z, NX, Z, NX, Z, NX, k->one, NX, Z, NX);
  CK5(fpref_round_to_int(f, S | k->minsub, rm, 0, &F), NZ, 0, NZ, 0, S | k->one, 0, NZ, 0, NZ, 0);
  CK5(fpref_round_to_int(f, k->one_p1, rm, 1, &F), k->one, NX, k->one, NX, k->one, NX, k->two, NX,
      k->one, NX);
  CKA(fpref_round_to_int(f, k->three, rm, 1, &F), k->three, 0);
  CKA(fpref_round_to_int(f, S | k->seven, rm, 1, &F), S | k->seven, 0);
  CKA(fpref_round_to_int(f, NZ, rm, 1, &F), NZ, 0);
  CKA(fpref_round_to_int(f, Z, rm, 1, &F), Z, 0);
  CKA(fpref_round_to_int(f, k->maxnorm, rm, 1, &F), k->maxnorm, 0);
  CKA(fpref_round_to_int(f, S | k->inf, rm, 1, &F), S | k->inf, 0);
  CKA(fpref_round_to_int(f, k->nqnan_pl, rm, 1, &F), k->cnan, 0);
  CKA(fpref_round_to_int(f, k->nsnan, rm, 0, &F), k->cnan, NV);
  /* min / max */
  CK(fpref_min(f, NZ, Z, &F), NZ, 0);
  CK(fpref_min(f, Z, NZ, &F), NZ, 0);
  CK(fpref_max(f, NZ, Z, &F), Z, 0);
  CK(fpref_max(f, Z, NZ, &F), Z, 0);
  CK(fpref_min(f, k->cnan, k->one, &F), k->one, 0);
  CK(fpref_max(f, S | k->two, k->nqnan_pl, &F), S | k->two, 0);
  CK(fpref_min(f, k->snan, k->one, &F), k->one, NV);
  CK(fpref_max(f, k->three, k->nsnan, &F), k->three, NV);
  CK(fpref_min(f, k->cnan, k->nqnan_pl, &F), k->cnan, 0);
  CK(fpref_max(f, k->nqnan_pl, k->nqnan_pl, &F), k->cnan, 0);
  CK(fpref_max(f, k->snan, k->nsnan, &F), k->cnan, NV);
  CK(fpref_min(f, S | k->inf, k->one, &F), S | k->inf, 0);
  CK(fpref_max(f, S | k->inf, k->one, &F), k->one, 0);
  CK(fpref_min(f, S | k->one, S | k->two, &F), S | k->two, 0);
  CK(fpref_max(f, S | k->one, S | k->two, &F), S | k->one, 0);
  CK(fpref_min(f, k->minsub, NZ, &F), NZ, 0);
  CK(fpref_max(f, S | k->minsub, Z, &F), Z, 0);
}

static void directed_specific(void) {
  const fp_fmt_t H = FP_FMT_F16, B = FP_FMT_BF16, W = FP_FMT_F32;
  const uint32_t IMAX = 0x7FFFFFFF, IMIN = 0x80000000;
  printf("directed conversions\n");
  /* f32 -> i32 at the edges of the int32 range */
  CKA(fpref_f_to_i32(W, 0x4F000000, rm, &F), IMAX, NV);        /* 2^31 */
  CKA(fpref_f_to_i32(W, 0xCF000000, rm, &F), IMIN, 0);         /* -2^31 */
  CKA(fpref_f_to_i32(W, 0x4EFFFFFF, rm, &F), 2147483520u, 0);  /* 2^31 - 128 */
  CKA(fpref_f_to_i32(W, 0xCF000001, rm, &F), IMIN, NV);        /* -2^31 - 256 */
  CKA(fpref_f_to_i32(B, 0x4F00, rm, &F), IMAX, NV);
  CKA(fpref_f_to_i32(B, 0xCF00, rm, &F), IMIN, 0);
  CKA(fpref_f_to_i32(B, 0x4EFF, rm, &F), 2139095040u, 0);      /* 2^31 - 2^23 */
  CKA(fpref_f_to_i32(W, 0x4B000001, rm, &F), 8388609u, 0);     /* 2^23 + 1 */
  CK5(fpref_f_to_i32(W, 0x4AFFFFFF, rm, &F), 8388608u, NX, 8388607u, NX, 8388607u, NX, 8388608u,
      NX, 8388608u, NX);                                         /* 2^23 - 0.5 */
  CK5(fpref_f_to_i32(W, 0x3F7FFFFF, rm, &F), 1, NX, 0, NX, 0, NX, 1, NX, 1, NX);
  /* i32 -> f */
  CKA(fpref_i32_to_f(W, INT32_MIN, rm, &F), 0xCF000000, 0);
  CKA(fpref_i32_to_f(B, INT32_MIN, rm, &F), 0xCF00, 0);
  CK5(fpref_i32_to_f(H, INT32_MIN, rm, &F), 0xFC00, OF | NX, 0xFBFF, OF | NX, 0xFC00, OF | NX,
      0xFBFF, OF | NX, 0xFC00, OF | NX);
  CK5(fpref_i32_to_f(W, 16777217, rm, &F), 0x4B800000, NX, 0x4B800000, NX, 0x4B800000, NX,
      0x4B800001, NX, 0x4B800001, NX);
  CK5(fpref_i32_to_f(W, 16777219, rm, &F), 0x4B800002, NX, 0x4B800001, NX, 0x4B800001, NX,
      0x4B800002, NX, 0x4B800002, NX);
  CK5(fpref_i32_to_f(W, -16777217, rm, &F), 0xCB800000, NX, 0xCB800000, NX, 0xCB800001, NX,
      0xCB800000, NX, 0xCB800001, NX);
  CK5(fpref_i32_to_f(W, INT32_MAX, rm, &F), 0x4F000000, NX, 0x4EFFFFFF, NX, 0x4EFFFFFF, NX,
      0x4F000000, NX, 0x4F000000, NX);
  CK5(fpref_i32_to_f(H, 65505, rm, &F), 0x7BFF, NX, 0x7BFF, NX, 0x7BFF, NX, 0x7C00, OF | NX,
      0x7BFF, NX);
  CK5(fpref_i32_to_f(H, 65520, rm, &F), 0x7C00, OF | NX, 0x7BFF, NX, 0x7BFF, NX, 0x7C00, OF | NX,
      0x7C00, OF | NX);
  CK5(fpref_i32_to_f(H, -65520, rm, &F), 0xFC00, OF | NX, 0xFBFF, NX, 0xFC00, OF | NX, 0xFBFF, NX,
      0xFC00, OF | NX);
  CKA(fpref_i32_to_f(H, 65504, rm, &F), 0x7BFF, 0);
  CK5(fpref_i32_to_f(H, 2049, rm, &F), 0x6800, NX, 0x6800, NX, 0x6800, NX, 0x6801, NX, 0x6801, NX);
  CK5(fpref_i32_to_f(B, 257, rm, &F), 0x4380, NX, 0x4380, NX, 0x4380, NX, 0x4381, NX, 0x4381, NX);
  CK5(fpref_i32_to_f(B, 259, rm, &F), 0x4382, NX, 0x4381, NX, 0x4381, NX, 0x4382, NX, 0x4382, NX);
  /* f32 -> f16 at the boundaries */
  CK5(fpref_f_to_f(W, H, 0x477FF000, rm, &F), 0x7C00, OF | NX, 0x7BFF, NX, 0x7BFF, NX, 0x7C00,
      OF | NX, 0x7C00, OF | NX);                                /* 65520: ties to even = 2^16 */
  CK5(fpref_f_to_f(W, H, 0x477FEFFF, rm, &F), 0x7BFF, NX, 0x7BFF, NX, 0x7BFF, NX, 0x7C00, OF | NX,
      0x7BFF, NX);
  CK5(fpref_f_to_f(W, H, 0x3F801000, rm, &F), 0x3C00, NX, 0x3C00, NX, 0x3C00, NX, 0x3C01, NX,
      0x3C01, NX);                                              /* 1 + 2^-11 */
  CK5(fpref_f_to_f(W, H, 0x3F803000, rm, &F), 0x3C02, NX, 0x3C01, NX, 0x3C01, NX, 0x3C02, NX,
      0x3C02, NX);                                              /* 1 + 3*2^-11 */
  CKA(fpref_f_to_f(W, H, 0x3F801001, FP_RNE, &F), 0x3C01, NX);
  CKA(fpref_f_to_f(W, H, 0x33800000, rm, &F), 0x0001, 0);       /* 2^-24 */
  CK5(fpref_f_to_f(W, H, 0x33000000, rm, &F), 0x0000, NX | UF, 0x0000, NX | UF, 0x0000, NX | UF,
      0x0001, NX | UF, 0x0001, NX | UF);                        /* 2^-25 */
  CK5(fpref_f_to_f(W, H, 0xB3000001, rm, &F), 0x8001, NX | UF, 0x8000, NX | UF, 0x8001, NX | UF,
      0x8000, NX | UF, 0x8001, NX | UF);
  CK5(fpref_f_to_f(W, H, 0x387FFFF0, rm, &F), 0x0400, NX, 0x03FF, NX | UF, 0x03FF, NX | UF, 0x0400,
      NX, 0x0400, NX);                                          /* 2^-14 - 2^-34 */
  CK5(fpref_f_to_f(W, H, 0x387FE000, rm, &F), 0x0400, NX | UF, 0x03FF, NX | UF, 0x03FF, NX | UF,
      0x0400, NX | UF, 0x0400, NX | UF);                        /* 2^-14 - 2^-25 (tiny tie) */
  CKA(fpref_f_to_f(W, H, 0x38800000, rm, &F), 0x0400, 0);
  CKA(fpref_f_to_f(W, H, 0x7F800001, rm, &F), 0x7E00, NV);
  CKA(fpref_f_to_f(W, H, 0xFFC00000, rm, &F), 0x7E00, 0);
  CKA(fpref_f_to_f(W, H, 0xFF800000, rm, &F), 0xFC00, 0);
  CKA(fpref_f_to_f(W, H, 0x80000000, rm, &F), 0x8000, 0);
  CK5(fpref_f_to_f(W, H, 0x00000001, rm, &F), 0x0000, NX | UF, 0x0000, NX | UF, 0x0000, NX | UF,
      0x0001, NX | UF, 0x0000, NX | UF);
  CK5(fpref_f_to_f(W, H, 0x7F7FFFFF, rm, &F), 0x7C00, OF | NX, 0x7BFF, OF | NX, 0x7BFF, OF | NX,
      0x7C00, OF | NX, 0x7C00, OF | NX);
  /* f32 -> bf16 */
  CK5(fpref_f_to_f(W, B, 0x3F808000, rm, &F), 0x3F80, NX, 0x3F80, NX, 0x3F80, NX, 0x3F81, NX,
      0x3F81, NX);
  CK5(fpref_f_to_f(W, B, 0x3F818000, rm, &F), 0x3F82, NX, 0x3F81, NX, 0x3F81, NX, 0x3F82, NX,
      0x3F82, NX);
  CK5(fpref_f_to_f(W, B, 0xBF808001, rm, &F), 0xBF81, NX, 0xBF80, NX, 0xBF81, NX, 0xBF80, NX,
      0xBF81, NX);
  CK5(fpref_f_to_f(W, B, 0x7F7FFFFF, rm, &F), 0x7F80, OF | NX, 0x7F7F, NX, 0x7F7F, NX, 0x7F80,
      OF | NX, 0x7F80, OF | NX);
  CK5(fpref_f_to_f(W, B, 0x7F7F8000, rm, &F), 0x7F80, OF | NX, 0x7F7F, NX, 0x7F7F, NX, 0x7F80,
      OF | NX, 0x7F80, OF | NX);
  CK5(fpref_f_to_f(W, B, 0x7F7F7FFF, rm, &F), 0x7F7F, NX, 0x7F7F, NX, 0x7F7F, NX, 0x7F80, OF | NX,
      0x7F7F, NX);
  CK5(fpref_f_to_f(W, B, 0x00008000, rm, &F), 0x0000, NX | UF, 0x0000, NX | UF, 0x0000, NX | UF,
      0x0001, NX | UF, 0x0001, NX | UF);                        /* 2^-134: tie at bf16 min sub */
  CK5(fpref_f_to_f(W, B, 0x00018000, rm, &F), 0x0002, NX | UF, 0x0001, NX | UF, 0x0001, NX | UF,
      0x0002, NX | UF, 0x0002, NX | UF);
  CK5(fpref_f_to_f(W, B, 0x007FFFFF, rm, &F), 0x0080, NX, 0x007F, NX | UF, 0x007F, NX | UF, 0x0080,
      NX, 0x0080, NX);
  CK5(fpref_f_to_f(W, B, 0x007F8000, rm, &F), 0x0080, NX | UF, 0x007F, NX | UF, 0x007F, NX | UF,
      0x0080, NX | UF, 0x0080, NX | UF);
  CKA(fpref_f_to_f(W, B, 0x00010000, rm, &F), 0x0001, 0);
  CKA(fpref_f_to_f(W, B, 0x7F800001, rm, &F), 0x7FC0, NV);
  CKA(fpref_f_to_f(W, B, 0xFFC00000, rm, &F), 0x7FC0, 0);
  CKA(fpref_f_to_f(W, B, 0xC0490FDB, FP_RNE, &F), 0xC049, NX);  /* -pi */
  /* widening is exact */
  CKA(fpref_f_to_f(H, W, 0x0001, rm, &F), 0x33800000, 0);
  CKA(fpref_f_to_f(H, W, 0x03FF, rm, &F), 0x387FC000, 0);
  CKA(fpref_f_to_f(H, W, 0xFBFF, rm, &F), 0xC77FE000, 0);
  CKA(fpref_f_to_f(H, W, 0x7C00, rm, &F), 0x7F800000, 0);
  CKA(fpref_f_to_f(H, W, 0x7C01, rm, &F), 0x7FC00000, NV);
  CKA(fpref_f_to_f(H, W, 0xFE00, rm, &F), 0x7FC00000, 0);
  CKA(fpref_f_to_f(B, W, 0x0001, rm, &F), 0x00010000, 0);
  CKA(fpref_f_to_f(B, W, 0xC049, rm, &F), 0xC0490000, 0);
  CKA(fpref_f_to_f(B, W, 0x7F81, rm, &F), 0x7FC00000, NV);
  /* bf16 <-> f16 */
  CKA(fpref_f_to_f(B, H, 0x3F80, rm, &F), 0x3C00, 0);
  CKA(fpref_f_to_f(B, H, 0x477F, rm, &F), 0x7BF8, 0);           /* 65280 */
  CK5(fpref_f_to_f(B, H, 0x4780, rm, &F), 0x7C00, OF | NX, 0x7BFF, OF | NX, 0x7BFF, OF | NX,
      0x7C00, OF | NX, 0x7C00, OF | NX);                        /* 65536 */
  CKA(fpref_f_to_f(B, H, 0x3380, rm, &F), 0x0001, 0);           /* 2^-24 */
  CK5(fpref_f_to_f(B, H, 0x3300, rm, &F), 0x0000, NX | UF, 0x0000, NX | UF, 0x0000, NX | UF, 0x0001,
      NX | UF, 0x0001, NX | UF);                                /* 2^-25 */
  CK5(fpref_f_to_f(B, H, 0x0001, rm, &F), 0x0000, NX | UF, 0x0000, NX | UF, 0x0000, NX | UF, 0x0001,
      NX | UF, 0x0000, NX | UF);
  CKA(fpref_f_to_f(B, H, 0xFF80, rm, &F), 0xFC00, 0);
  CKA(fpref_f_to_f(B, H, 0xFF81, rm, &F), 0x7E00, NV);
  CKA(fpref_f_to_f(H, B, 0x3C00, rm, &F), 0x3F80, 0);
  CK5(fpref_f_to_f(H, B, 0x3C01, rm, &F), 0x3F80, NX, 0x3F80, NX, 0x3F80, NX, 0x3F81, NX, 0x3F80, NX);
  CK5(fpref_f_to_f(H, B, 0x7BFF, rm, &F), 0x4780, NX, 0x477F, NX, 0x477F, NX, 0x4780, NX, 0x4780, NX);
  CK5(fpref_f_to_f(H, B, 0x3C04, rm, &F), 0x3F80, NX, 0x3F80, NX, 0x3F80, NX, 0x3F81, NX, 0x3F81, NX);
  CK5(fpref_f_to_f(H, B, 0x3C02, rm, &F), 0x3F80, NX, 0x3F80, NX, 0x3F80, NX, 0x3F81, NX, 0x3F80, NX);
  CKA(fpref_f_to_f(H, B, 0x0001, rm, &F), 0x3380, 0);
  CKA(fpref_f_to_f(H, B, 0xFC00, rm, &F), 0xFF80, 0);
  CKA(fpref_f_to_f(H, B, 0x7D00, rm, &F), 0x7FC0, NV);
  /* RISC-V frm/format edge: upper bits of the operand word are ignored */
  CK(fpref_add(H, 0xFFFF3C00, 0x12343C00, FP_RNE, &F), 0x4000, 0);
  /* the caller's rounding mode does not leak in, and round-to-nearest is left behind */
  fesetround(FE_UPWARD);
  CK(fpref_add(W, 0x3F800000, 0x33800000, FP_RNE, &F), 0x3F800000, NX);
  fesetround(FE_DOWNWARD);
  CK(fpref_add(H, 0x3C00, 0x1000, FP_RMM, &F), 0x3C01, NX);
  fesetround(FE_TOWARDZERO);
  CK(fpref_f_to_i32(W, 0x3FC00000, FP_RNE, &F), 2, NX);
  fesetround(FE_UPWARD);
  CK(fpref_i32_to_f(W, 16777217, FP_RNE, &F), 0x4B800000, NX);
  fesetround(FE_UPWARD);
  CK(fpref_f_to_f(W, H, 0x3F801000, FP_RNE, &F), 0x3C00, NX);
  fesetround(FE_DOWNWARD);
  CK(fpref_lt(B, 0x3F80, 0x4000, &F), 1, 0);
  fesetround(FE_UPWARD);
  CK(fpref_add(W, 0x7FC00000, 0x3F800000, FP_RNE, &F), 0x7FC00000, 0);
  fesetround(FE_UPWARD);
  CK(fpref_round_double(H, 1.0 + 0x1p-11, 0, FP_RNE, &F), 0x3C00, NX);
  /* a flags pointer of NULL is accepted */
  CK(fpref_add(H, 0x3C00, 0x3C00, FP_RNE, NULL), 0x4000, 0xE0);
  /* fp32 specifics of the route */
  CK5(fpref_fma(W, 0x3F800001, 0x3F800001, 0xBF800002, rm, &F), 0x28800000, 0, 0x28800000, 0,
      0x28800000, 0, 0x28800000, 0, 0x28800000, 0);             /* (1+u)^2 - (1+2u) = u^2 = 2^-46 */
  CK5(fpref_mul(W, 0x3F800001, 0x3F800001, rm, &F), 0x3F800002, NX, 0x3F800002, NX, 0x3F800002, NX,
      0x3F800003, NX, 0x3F800002, NX);
  CK5(fpref_add(W, 0x4B7FFFFF, 0x3F000000, rm, &F), 0x4B800000, NX, 0x4B7FFFFF, NX, 0x4B7FFFFF, NX,
      0x4B800000, NX, 0x4B800000, NX);                          /* 2^24 - 1 + 0.5: tie, odd */
  CK5(fpref_add(W, 0x4B7FFFFE, 0x3F000000, rm, &F), 0x4B7FFFFE, NX, 0x4B7FFFFE, NX, 0x4B7FFFFE, NX,
      0x4B7FFFFF, NX, 0x4B7FFFFF, NX);                          /* 2^24 - 2 + 0.5: tie, even */
}

/* ------------------------------------------------------------------ random numbers */
static cutil_rng_t g_rng; /* cutil_rng_seed(1), set by main */
static uint64_t rnd64(void) { return cutil_rng_next(&g_rng); }
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((uint64_t)rnd32() * n) >> 32); }

/* random pattern biased toward the special exponents and fractions */
static uint32_t rnd_pat(fp_fmt_t f) {
  const uint32_t eall = (1u << f.ew) - 1, fm = (1u << f.mw) - 1;
  const int bias = (int)(eall >> 1);
  int ei;
  uint32_t e, m;
  switch (rndn(16)) {
    case 0: case 1: ei = 0; break;
    case 2: ei = 1 + (int)rndn(2); break;
    case 3: ei = (int)eall - 1 - (int)rndn(2); break;
    case 4: ei = (int)eall; break;
    case 5: case 6: ei = bias - 2 + (int)rndn(5); break;
    default: ei = (int)rndn(eall + 1); break;
  }
  e = ei < 0 ? 0u : ei > (int)eall ? eall : (uint32_t)ei;
  switch (rndn(10)) {
    case 0: m = 0; break;
    case 1: m = fm; break;
    case 2: m = fm - (rndn(4) & fm); break;
    case 3: m = rndn(4) & fm; break;
    case 4: m = 1u << rndn((uint32_t)f.mw); break;
    default: m = rnd32() & fm; break;
  }
  if (e == eall && rndn(4)) m = 0; /* keep NaNs to a few percent */
  return (rnd32() & 1u) << (f.ew + f.mw) | e << f.mw | m;
}
/* a pattern close to x: same or adjacent exponent, nearby fraction, random sign */
static uint32_t rnd_near(fp_fmt_t f, uint32_t x) {
  const uint32_t eall = (1u << f.ew) - 1, fm = (1u << f.mw) - 1;
  int e = (int)((x >> f.mw) & eall) + (int)rndn(3) - 1;
  if (e < 0) e = 0;
  if (e > (int)eall - 1) e = (int)eall - 1;
  uint32_t m = x & fm;
  switch (rndn(4)) {
    case 0: m = (m + rndn(8) - 4) & fm; break;
    case 1: m = m ^ (rnd32() & ((1u << rndn((uint32_t)f.mw + 1)) - 1)); break;
    case 2: break;
    default: m = rnd32() & fm; break;
  }
  return (rnd32() & 1u) << (f.ew + f.mw) | (uint32_t)e << f.mw | m;
}
static uint32_t fb(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static float bf(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}
/* nudge a finite fp32 pattern by a few ulps (stays finite or becomes the neighbour) */
static uint32_t nudge32(uint32_t x) {
  if ((x & 0x7F800000) == 0x7F800000) return x;
  int32_t d = (int32_t)rndn(7) - 3;
  uint32_t mag = x & 0x7FFFFFFF;
  if (d < 0 && mag < (uint32_t)-d) return x;
  mag = (uint32_t)((int32_t)mag + d);
  if (mag >= 0x7F800000) mag = 0x7F7FFFFF;
  return (x & 0x80000000) | mag;
}
/* an exponent so that a*b lands near 2^-126 or near 2^128 (or anywhere) */
static uint32_t partner_exp(uint32_t a, int target) {
  int ea = (int)((a >> 23) & 0xFF);
  int eb = target - ea + 254 + (int)rndn(5) - 2;
  if (eb < 0) eb = 0;
  if (eb > 254) eb = 254;
  return (rnd32() & 0x807FFFFF) | (uint32_t)eb << 23;
}

static int32_t rnd_i32(void) {
  switch (rndn(6)) {
    case 0: return (int32_t)rnd32();
    case 1: return (int32_t)rndn(1u << 20) - (1 << 19);
    case 2: {
      int k = (int)rndn(31);
      int32_t v = (int32_t)((1u << k) + rndn(9) - 4);
      return rndn(2) ? v : -v;
    }
    case 3: return INT32_MIN + (int32_t)rndn(300);
    case 4: return INT32_MAX - (int32_t)rndn(300);
    default: {
      uint32_t r = rnd32() >> rndn(32);
      return rndn(2) ? (int32_t)r : -(int32_t)(r >> 1);
    }
  }
}
static uint32_t rnd_f32_for_int(void) {
  switch (rndn(4)) {
    case 0: { /* around an integer or a half-integer */
      float v = (float)(rnd_i32() >> rndn(16));
      volatile float r = v + (rndn(2) ? 0.5f : 0.0f);
      return nudge32(fb(r));
    }
    case 1: /* magnitude 2^-2 .. 2^33 */
      return (rnd32() & 0x807FFFFF) | (125u + rndn(36)) << 23;
    case 2: return nudge32(0x4F000000 | (rnd32() & 0x80000000)); /* +-2^31 */
    default: return rnd_pat(FP_FMT_F32);
  }
}

/* ------------------------------------------------------------------ fp32 route cross-check */
static const char *OPN[] = {"add", "sub", "mul", "fma", "div", "sqrt", "i32_to_f", "f_to_i32"};

static void cross_check_f32(long n) {
  for (int op = FPREF_OP_ADD; op <= FPREF_OP_F_TO_I32; op++) {
    clock_t t0 = clock();
    long bad = 0, cmp = 0;
    for (long i = 0; i < n; i++) {
      uint32_t a = rnd_pat(FP_FMT_F32), b = rnd_pat(FP_FMT_F32), c = rnd_pat(FP_FMT_F32);
      int mode = (int)rndn(8);
      switch (op) {
        case FPREF_OP_ADD: case FPREF_OP_SUB:
          if (mode < 3) b = rnd_near(FP_FMT_F32, a);            /* cancellation */
          else if (mode == 3) { /* near the overflow threshold */
            a = (a & 0x807FFFFF) | (252u + rndn(3)) << 23;
            b = rnd_near(FP_FMT_F32, a);
          }
          else if (mode == 4) b = (a & 0x807FFFFF) | (rndn(256) << 23);
          break;
        case FPREF_OP_MUL: case FPREF_OP_DIV:
          if (op == FPREF_OP_MUL) {
            if (mode < 2) b = partner_exp(a, -126);     /* product near 2^-126 */
            else if (mode == 2) b = partner_exp(a, 127); /* product near the overflow */
          } else {
            int ea = (int)((a >> 23) & 0xFF), eb = -1;
            if (mode < 2) eb = ea + 126 + (int)rndn(5) - 2;        /* quotient near 2^-126 */
            else if (mode == 2) eb = ea - 127 + (int)rndn(5) - 2;  /* quotient near 2^128 */
            if (eb >= 0) b = (b & 0x807FFFFF) | (uint32_t)(eb > 254 ? 254 : eb) << 23;
            if (mode == 3) { /* a = q*b nudged: quotients close to representable values */
              volatile float q = bf(rnd_pat(FP_FMT_F32)), vb = bf(b), pr = q * vb;
              a = nudge32(fb(pr));
            }
          }
          break;
        case FPREF_OP_FMA:
          if (mode < 3) { /* c ~ -a*b: cancellation */
            volatile float va = bf(a), vb = bf(b), pr = va * vb;
            c = nudge32(fb(pr)) ^ 0x80000000u;
            if (rndn(2)) c = rnd_near(FP_FMT_F32, c);
          } else if (mode == 3) {
            b = partner_exp(a, -126);
            c = rnd_pat(FP_FMT_F32) & 0x80FFFFFF;                 /* tiny c */
          } else if (mode == 4) {
            b = partner_exp(a, 127);
            c = rnd_near(FP_FMT_F32, 0x7F000000);
          }
          break;
        case FPREF_OP_SQRT:
          a &= 0x7FFFFFFF;
          if (rndn(8) == 0) a |= 0x80000000;
          if (mode < 3) {
            volatile float r = bf(rnd_pat(FP_FMT_F32) & 0x7FFFFFFF), sq = r * r;
            a = nudge32(fb(sq));
          }
          break;
        case FPREF_OP_I32_TO_F: a = (uint32_t)rnd_i32(); break;
        case FPREF_OP_F_TO_I32: a = rnd_f32_for_int(); break;
      }
      for (int rm = FP_RNE; rm <= FP_RUP; rm++) {
        unsigned fh = 0xE0, fd = 0xE0;
        uint32_t h = fpref_f32_via_host((fpref_op_t)op, a, b, c, (fp_rm_t)rm, &fh);
        uint32_t d = fpref_f32_via_double((fpref_op_t)op, a, b, c, (fp_rm_t)rm, &fd);
        cmp++;
        if (h != d || fh != fd) {
          bad++;
          report_fail("f32 %s [%s] a=%08X b=%08X c=%08X: host %08X/%02X, round-to-odd %08X/%02X",
                      OPN[op], RMN[rm], a, b, c, h, fh, d, fd);
        } else {
          npass++;
        }
      }
    }
    printf("cross-check f32 %-8s: %ld operand sets x 4 modes, %ld mismatches (%.1f s)\n", OPN[op],
           n, bad, (double)(clock() - t0) / CLOCKS_PER_SEC);
    (void)cmp;
  }
}

/* ------------------------------------------------------------------ brute-force rounding */
/* Neighbour search in a table of every non-negative finite value of a small format, or the
 * host's binary32 round-toward-zero conversion for fp32; rounding decided by comparing the
 * (value, sticky) pair with the exact midpoint of the two neighbours. */
typedef struct {
  fp_fmt_t f;
  uint32_t n;       /* number of non-negative finite patterns (= pattern of +inf) */
  double *v;        /* v[i] = value of pattern i (small formats only) */
  double ovf;       /* 2^(emax+1) */
  double minnorm;   /* 2^emin */
  double lastsub;   /* 2^emin - 2^(emin-p): the largest p-bit number below 2^emin */
} btab_t;

static btab_t btab_make(fp_fmt_t f) {
  btab_t t;
  int bias = (1 << (f.ew - 1)) - 1;
  t.f = f;
  t.n = ((1u << f.ew) - 1) << f.mw;
  t.v = NULL;
  if (f.ew + f.mw <= 16) {
    t.v = malloc(sizeof(double) * t.n);
    for (uint32_t i = 0; i < t.n; i++) {
      uint32_t e = i >> f.mw, m = i & ((1u << f.mw) - 1);
      t.v[i] = e ? ldexp((double)(m | (1u << f.mw)), (int)e - bias - f.mw)
                 : ldexp((double)m, 1 - bias - f.mw);
    }
  }
  t.ovf = ldexp(1.0, bias + 1);
  t.minnorm = ldexp(1.0, 1 - bias);
  t.lastsub = t.minnorm - ldexp(1.0, 1 - bias - (f.mw + 1));
  return t;
}
static double btab_val(const btab_t *t, uint32_t i) {
  if (i >= t->n) return t->ovf;
  if (t->v) return t->v[i];
  return (double)bf(i); /* fp32 */
}
static uint32_t btab_floor(const btab_t *t, double ax) { /* largest i with value(i) <= ax < ovf */
  if (t->v) {
    uint32_t lo = 0, hi = t->n - 1;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo + 1) / 2;
      if (t->v[mid] <= ax) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  volatile double vx = ax;
  volatile float r;
  fesetround(FE_TOWARDZERO);
  r = (float)vx;
  fesetround(FE_TONEAREST);
  return fb(r);
}
/* does (ax, sticky), strictly between lo and hi (or equal to lo with sticky), round to hi? */
static int brute_up(double ax, int sticky, double lo, double hi, int lo_odd, unsigned s,
                    fp_rm_t rm) {
  double mid = (lo + hi) / 2; /* exact: lo and hi have few bits */
  int above = ax > mid || (ax == mid && sticky), at = ax == mid && !sticky;
  switch (rm) {
    case FP_RNE: return above || (at && lo_odd);
    case FP_RMM: return above || at;
    case FP_RTZ: return 0;
    case FP_RDN: return s != 0;
    case FP_RUP: return s == 0;
  }
  return 0;
}
static uint32_t brute_round(const btab_t *t, double x, int sticky, fp_rm_t rm, unsigned *flags) {
  const fp_fmt_t f = t->f;
  unsigned s = signbit(x) != 0;
  uint32_t sb = s ? 1u << (f.ew + f.mw) : 0, inf = t->n, maxf = t->n - 1;
  double ax = fabs(x);
  *flags = 0;
  if (ax == 0 && !sticky) return sb;
  int ovf = 0;
  uint32_t idx = 0;
  if (ax >= t->ovf) {
    ovf = 1;
  } else {
    uint32_t i = btab_floor(t, ax);
    double lo = btab_val(t, i);
    if (ax == lo && !sticky) return sb | i;
    double hi = btab_val(t, i + 1);
    idx = i + (uint32_t)brute_up(ax, sticky, lo, hi, (int)(i & 1), s, rm);
    if (idx >= t->n) ovf = 1;
  }
  if (ovf) {
    int to_inf = rm == FP_RNE || rm == FP_RMM || (rm == FP_RUP && !s) || (rm == FP_RDN && s);
    *flags = OF | NX;
    return sb | (to_inf ? inf : maxf);
  }
  int tiny = ax < t->minnorm;
  if (tiny && (ax > t->lastsub || (ax == t->lastsub && sticky)) &&
      brute_up(ax, sticky, t->lastsub, t->minnorm, 1, s, rm))
    tiny = 0; /* the unbounded-exponent rounding reaches 2^emin */
  *flags = NX | (tiny ? UF : 0);
  return sb | idx;
}

static double rnd_double_near(const btab_t *t) {
  const fp_fmt_t f = t->f;
  int bias = (1 << (f.ew - 1)) - 1;
  double x;
  switch (rndn(4)) {
    case 0: { /* any value from just below the smallest subnormal to beyond the overflow */
      int e = 1 - bias - f.mw - 3 + (int)rndn((uint32_t)(2 * bias + f.mw + 6));
      x = ldexp(1.0 + ldexp((double)(rnd64() >> 11), -53), e);
      if (rndn(2)) x = ldexp(floor(ldexp(x, f.mw + 3 - e)), e - f.mw - 3); /* few bits */
      break;
    }
    default: { /* a value of the format, a midpoint, or a neighbouring double of either */
      uint32_t i = rndn(t->n);
      double lo = btab_val(t, i), hi = btab_val(t, i + 1);
      x = rndn(2) ? lo : (lo + hi) / 2;
      int k = (int)rndn(5);
      if (k == 1) x = nextafter(x, 0.0);
      if (k == 2) x = nextafter(x, INFINITY);
      break;
    }
  }
  return rndn(2) ? -x : x;
}

static void check_round_double(fp_fmt_t f, const char *name, long n) {
  btab_t t = btab_make(f);
  long bad = 0;
  for (long i = 0; i < n; i++) {
    double x = rnd_double_near(&t);
    int sticky = (int)rndn(2);
    if (rndn(64) == 0) x = rndn(2) ? 0.0 : -0.0;
    for (int rm = 0; rm < 5; rm++) {
      unsigned fw, fg = 0xE0;
      uint32_t w = brute_round(&t, x, sticky, (fp_rm_t)rm, &fw);
      uint32_t g = fpref_round_double(f, x, sticky, (fp_rm_t)rm, &fg);
      if (g != w || fg != fw) {
        bad++;
        report_fail("%s round_double(%a, sticky %d) [%s]: got %08X/%02X want %08X/%02X", name, x,
                    sticky, RMN[rm], g, fg, w, fw);
      } else {
        npass++;
      }
    }
  }
  printf("round_double %-5s vs brute force: %ld values x 5 modes, %ld mismatches\n", name, n, bad);
  free(t.v);
}

/* add/sub/mul/fma/div whose exact result is a double (checked with FE_INEXACT), against the
 * brute-force rounding of that exact result, in all five modes; finite operands only. */
static int exact_double_op(int op, double x, double y, double z, double *r) {
  volatile double vx = x, vy = y, vz = z, vr = 0;
  feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
    case FPREF_OP_ADD: vr = vx + vy; break;
    case FPREF_OP_SUB: vr = vx - vy; break;
    case FPREF_OP_MUL: vr = vx * vy; break;
    case FPREF_OP_FMA: vr = vx * vy; vr = vr + vz; break;
    case FPREF_OP_DIV: vr = vx / vy; break;
  }
  *r = vr;
  return fetestexcept(FE_INEXACT | FE_UNDERFLOW | FE_OVERFLOW) == 0;
}
static uint32_t rnd_finite(fp_fmt_t f) {
  uint32_t x;
  do x = rnd_pat(f); while (((x >> f.mw) & ((1u << f.ew) - 1)) == (1u << f.ew) - 1);
  return x;
}
static double val_of(const btab_t *t, uint32_t x) {
  uint32_t mag = x & ((1u << (t->f.ew + t->f.mw)) - 1);
  double v = btab_val(t, mag);
  return (x >> (t->f.ew + t->f.mw)) ? -v : v;
}
static void check_exact_ops(fp_fmt_t f, const char *name, long n) {
  btab_t t = btab_make(f);
  long bad = 0, used = 0;
  uint32_t S = 1u << (f.ew + f.mw);
  for (int op = FPREF_OP_ADD; op <= FPREF_OP_DIV; op++) {
    for (long i = 0; i < n; i++) {
      uint32_t a = rnd_finite(f), b = rnd_finite(f), c = rnd_finite(f);
      if (op != FPREF_OP_MUL && rndn(2)) b = rnd_near(f, a);
      if (op == FPREF_OP_FMA && rndn(2)) { /* c near -a*b */
        unsigned fl;
        c = fpref_round_double(f, -val_of(&t, a) * val_of(&t, b), 0, FP_RTZ, &fl);
        if (fl & OF) continue;
        if (rndn(2)) c = rnd_near(f, c);
      }
      if (op == FPREF_OP_DIV && rndn(2)) { /* a = b * (small odd) * 2^k: quotients with ties */
        unsigned fl;
        double q = ldexp((double)(2 * rndn(8) + 1), (int)rndn(2 * (1 << (f.ew - 1)) + f.mw) - (1 << (f.ew - 1)) - f.mw - 2);
        a = fpref_round_double(f, val_of(&t, b) * q, 0, FP_RNE, &fl);
        if (fl) continue;
      }
      double x = val_of(&t, a), y = val_of(&t, b), z = val_of(&t, c), r;
      if (op == FPREF_OP_DIV && y == 0) continue;
      if (!exact_double_op(op, x, y, z, &r)) continue;
      used++;
      for (int rm = 0; rm < 5; rm++) {
        unsigned fw, fg = 0xE0;
        uint32_t w;
        if (r == 0 && op != FPREF_OP_MUL && op != FPREF_OP_DIV) {
          /* exact zero sum: same-sign zero addends keep the sign, otherwise +0 (-0 in RDN) */
          double p = op == FPREF_OP_FMA ? x * y : x;
          double q = op == FPREF_OP_FMA ? z : (op == FPREF_OP_SUB ? -y : y);
          int both0 = p == 0 && q == 0, same = signbit(p) == signbit(q);
          w = (both0 && same) ? (signbit(p) ? S : 0) : (rm == FP_RDN ? S : 0);
          fw = 0;
        } else {
          w = brute_round(&t, r, 0, (fp_rm_t)rm, &fw);
        }
        uint32_t g = 0;
        switch (op) {
          case FPREF_OP_ADD: g = fpref_add(f, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_SUB: g = fpref_sub(f, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_MUL: g = fpref_mul(f, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_FMA: g = fpref_fma(f, a, b, c, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_DIV: g = fpref_div(f, a, b, (fp_rm_t)rm, &fg); break;
        }
        if (g != w || fg != fw) {
          bad++;
          report_fail("%s %s [%s] a=%X b=%X c=%X: got %X/%02X want %X/%02X", name, OPN[op], RMN[rm],
                      a, b, c, g, fg, w, fw);
        } else {
          npass++;
        }
      }
    }
  }
  printf("exact-result ops %-5s vs brute force: %ld cases x 5 modes, %ld mismatches\n", name, used,
         bad);
  free(t.v);
}

/* eq/lt/le/min/max on random patterns against double comparisons of the exact values */
static void check_cmp_random(fp_fmt_t f, const char *name, long n) {
  btab_t t = btab_make(f);
  const uint32_t eall = (1u << f.ew) - 1, q = 1u << (f.mw - 1);
  long bad = 0;
  for (long i = 0; i < n; i++) {
    uint32_t a = rnd_pat(f), b = rndn(4) ? rnd_pat(f) : rndn(2) ? a : a ^ (1u << (f.ew + f.mw));
    if (rndn(4) == 0) b = rnd_near(f, a);
    int na = ((a >> f.mw) & eall) == eall && (a & (q * 2 - 1)), sa = na && !(a & q);
    int nb = ((b >> f.mw) & eall) == eall && (b & (q * 2 - 1)), sb = nb && !(b & q);
    double x = na ? 0 : val_of(&t, a), y = nb ? 0 : val_of(&t, b);
    uint32_t w[8];
    unsigned wf[8];
    int nan = na || nb;
    w[0] = !nan && x == y;
    wf[0] = (sa || sb) ? NV : 0;
    w[1] = !nan && x < y;
    w[2] = !nan && x <= y;
    wf[1] = wf[2] = nan ? NV : 0;
    if (na && nb) w[3] = w[4] = eall << f.mw | q;
    else if (na) w[3] = w[4] = b;
    else if (nb) w[3] = w[4] = a;
    else if (x == y) { /* identical patterns, or zeros of either sign: -0 < +0 */
      w[3] = signbit(x) ? a : b;
      w[4] = signbit(x) ? b : a;
    } else {
      w[3] = x < y ? a : b;
      w[4] = x < y ? b : a;
    }
    wf[3] = wf[4] = (sa || sb) ? NV : 0;
    /* eq_signaling, lt_quiet, le_quiet: the same values, the other NV rule */
    w[5] = w[0];
    w[6] = w[1];
    w[7] = w[2];
    wf[5] = nan ? NV : 0;
    wf[6] = wf[7] = (sa || sb) ? NV : 0;
    unsigned g_f[8] = {0xE0, 0xE0, 0xE0, 0xE0, 0xE0, 0xE0, 0xE0, 0xE0};
    uint32_t g[8] = {fpref_eq(f, a, b, &g_f[0]), fpref_lt(f, a, b, &g_f[1]),
                     fpref_le(f, a, b, &g_f[2]), fpref_min(f, a, b, &g_f[3]),
                     fpref_max(f, a, b, &g_f[4]), fpref_eq_signaling(f, a, b, &g_f[5]),
                     fpref_lt_quiet(f, a, b, &g_f[6]), fpref_le_quiet(f, a, b, &g_f[7])};
    static const char *cn[8] = {"eq", "lt", "le", "min", "max", "eq_signaling", "lt_quiet",
                                "le_quiet"};
    for (int k = 0; k < 8; k++) {
      if (g[k] != w[k] || g_f[k] != wf[k]) {
        bad++;
        report_fail("%s %s(%X, %X): got %X/%02X want %X/%02X", name, cn[k], a, b, g[k], g_f[k], w[k],
                    wf[k]);
      } else {
        npass++;
      }
    }
  }
  printf("eq/lt/le/min/max/eq_signaling/lt_quiet/le_quiet %-5s vs double compare: %ld pairs, %ld "
         "mismatches\n", name, n, bad);
  free(t.v);
}

/* ------------------------------------------------------------------ roundToInt */
/* The exact value of a finite pattern, from its fields with ldexp (not fpref's decode). */
static double dec_fields(fp_fmt_t f, uint32_t a) {
  const uint32_t e = (a >> f.mw) & ((1u << f.ew) - 1), m = a & ((1u << f.mw) - 1);
  const int bias = (1 << (f.ew - 1)) - 1;
  double v = ldexp((double)(e ? m | (1u << f.mw) : m), (e ? (int)e : 1) - bias - f.mw);
  return (a >> (f.ew + f.mw)) & 1 ? -v : v;
}
/* The expected roundToInt from floor / ceil of the exact value and the mode's rule. */
static uint32_t rti_expected(fp_fmt_t f, uint32_t a, int rm, int exact, unsigned *flags) {
  const uint32_t eall = (1u << f.ew) - 1, q = 1u << (f.mw - 1), sgn = 1u << (f.ew + f.mw);
  *flags = 0;
  if (((a >> f.mw) & eall) == eall) { /* inf unchanged, NaN canonical (NV if signaling) */
    if (!(a & (2 * q - 1))) return a;
    if (!(a & q)) *flags = NV;
    return eall << f.mw | q;
  }
  const double x = dec_fields(f, a), lo = floor(x), hi = ceil(x);
  if (lo == hi) return a;
  const double d = x - lo; /* in (0, 1), exact */
  double r;
  switch (rm) {
    case FP_RTZ: r = x > 0 ? lo : hi; break;
    case FP_RDN: r = lo; break;
    case FP_RUP: r = hi; break;
    case FP_RMM: r = d < 0.5 ? lo : d > 0.5 ? hi : (x < 0 ? lo : hi); break;
    default: r = d < 0.5 ? lo : d > 0.5 ? hi : (fmod(lo, 2.0) == 0.0 ? lo : hi); break;
  }
  if (exact) *flags = NX;
  if (r == 0.0) return a & sgn;
  unsigned fl;
  return fpref_i32_to_f(f, (int32_t)r, FP_RTZ, &fl); /* |r| <= 2^(mw+1): exact */
}
static void check_rti_16bit(fp_fmt_t f, const char *name) {
  long bad = 0;
  for (uint32_t a = 0; a < 0x10000; a++)
    for (int rm = 0; rm < 5; rm++)
      for (int exact = 0; exact < 2; exact++) {
        unsigned wf, gf = 0xE0;
        const uint32_t w = rti_expected(f, a, rm, exact, &wf);
        const uint32_t g = fpref_round_to_int(f, a, (fp_rm_t)rm, exact, &gf);
        if (g != w || gf != wf) {
          bad++;
          report_fail("%s roundToInt(%04X) [%s, exact %d]: got %04X/%02X want %04X/%02X", name, a,
                      RMN[rm], exact, g, gf, w, wf);
        } else {
          npass++;
        }
      }
  printf("roundToInt %-4s exhaustive (5 modes, exact and not) vs floor/ceil: %ld mismatches\n",
         name, bad);
}
/* fp32: against the host's rintf under fesetround (FE_INEXACT gives NX) and roundf for RMM, on
 * operands biased toward integers and half-integers */
static void check_rti_f32(long n) {
  static const int kFe[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  long bad = 0;
  for (long i = 0; i < n; i++) {
    const uint32_t a = rnd_f32_for_int();
    const int exact = (int)rndn(2);
    for (int rm = 0; rm < 5; rm++) {
      volatile float va = bf(a), vr;
      int ex = 0;
      if (rm == FP_RMM) {
        vr = roundf(va);
        ex = (vr != va) ? FE_INEXACT : 0;
      } else {
        fesetround(kFe[rm]);
        feclearexcept(FE_ALL_EXCEPT);
        vr = rintf(va);
        ex = fetestexcept(FE_INEXACT | FE_INVALID);
        fesetround(FE_TONEAREST);
      }
      uint32_t w = fb(vr);
      unsigned wf = ((ex & FE_INVALID) ? NV : 0u) | ((exact && (ex & FE_INEXACT)) ? NX : 0u);
      if (isnan(va)) {
        w = 0x7FC00000;
        wf = ((a & 0x00400000) == 0) ? NV : 0u; /* roundf sets no flag: the rule, explicitly */
      }
      unsigned gf = 0xE0;
      const uint32_t g = fpref_round_to_int(FP_FMT_F32, a, (fp_rm_t)rm, exact, &gf);
      if (g != w || gf != wf) {
        bad++;
        report_fail("f32 roundToInt(%08X) [%s, exact %d]: got %08X/%02X, host %08X/%02X", a,
                    RMN[rm], exact, g, gf, w, wf);
      } else {
        npass++;
      }
    }
  }
  printf("roundToInt f32 vs host rintf/roundf: %ld operands x 5 modes, %ld mismatches\n", n, bad);
}

/* sqrt and division never produce an exact tie in the normal range, so RMM == RNE for sqrt */
static void check_sqrt_rmm(fp_fmt_t f, const char *name, long n) {
  long bad = 0;
  for (long i = 0; i < n; i++) {
    uint32_t a = rnd_pat(f) & ((1u << (f.ew + f.mw)) - 1);
    unsigned f1 = 0xE0, f2 = 0xE0;
    uint32_t r1 = fpref_sqrt(f, a, FP_RNE, &f1), r2 = fpref_sqrt(f, a, FP_RMM, &f2);
    if (r1 != r2 || f1 != f2) {
      bad++;
      report_fail("%s sqrt(%X): RNE %X/%02X, RMM %X/%02X", name, a, r1, f1, r2, f2);
    } else {
      npass++;
    }
  }
  printf("sqrt RMM == RNE %-5s: %ld cases, %ld mismatches\n", name, n, bad);
}

/* ------------------------------------------------------------------ fp16 via x86 F16C */
#if HAVE_X86
__attribute__((target("f16c"))) static float h2f(uint16_t h) {
  return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h)));
}
__attribute__((target("f16c"))) static uint16_t f2h_cur(float x) { /* current MXCSR mode */
  return (uint16_t)_mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(x), _MM_FROUND_CUR_DIRECTION), 0);
}
static int fe_of(int rm) {
  static const int m[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  return m[rm];
}
static unsigned fl_of(int ex) {
  return ((ex & FE_INEXACT) ? NX : 0u) | ((ex & FE_UNDERFLOW) ? UF : 0u) |
         ((ex & FE_OVERFLOW) ? OF : 0u) | ((ex & FE_DIVBYZERO) ? DZ : 0u) |
         ((ex & FE_INVALID) ? NV : 0u);
}
static int h_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF); }
static int h_snan(uint16_t h) { return h_nan(h) && !(h & 0x200); }
/* fp16 op = fp32 op (exact or innocuously rounded) + one F16C conversion in the same mode */
static uint16_t f16c_op(int op, uint16_t a, uint16_t b, int rm, unsigned *flags) {
  if (h_nan(a) || (op != FPREF_OP_SQRT && h_nan(b))) {
    *flags = (h_snan(a) || (op != FPREF_OP_SQRT && h_snan(b))) ? NV : 0;
    return 0x7E00;
  }
  volatile float va = h2f(a), vb = h2f(b), vr = 0;
  fesetround(fe_of(rm));
  feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
    case FPREF_OP_ADD: vr = va + vb; break;
    case FPREF_OP_SUB: vr = va - vb; break;
    case FPREF_OP_MUL: vr = va * vb; break;
    case FPREF_OP_DIV: vr = va / vb; break;
    case FPREF_OP_SQRT: vr = sqrtf(va); break;
  }
  int e1 = fetestexcept(FE_ALL_EXCEPT);
  feclearexcept(FE_ALL_EXCEPT);
  uint16_t h = f2h_cur(vr);
  int e2 = fetestexcept(FE_ALL_EXCEPT);
  fesetround(FE_TONEAREST);
  unsigned f1 = fl_of(e1), f2 = fl_of(e2);
  *flags = f1 | f2;
  /* a rounding in the fp32 op leaves the result inexact even if the conversion is exact; the
   * result is then tiny iff it is below 2^-14 (it is its own unbounded-exponent rounding) */
  if ((f1 & NX) && !(f2 & NX) && (h & 0x7FFF) < 0x0400) *flags |= UF;
  if (h_nan(h)) h = 0x7E00;
  return h;
}
static void check_f16c(long n) {
  static const int ops[5] = {FPREF_OP_ADD, FPREF_OP_SUB, FPREF_OP_MUL, FPREF_OP_DIV, FPREF_OP_SQRT};
  const fp_fmt_t H = FP_FMT_F16;
  long bad = 0;
  for (int k = 0; k < 5; k++) {
    int op = ops[k];
    for (long i = 0; i < n; i++) {
      uint32_t a = rnd_pat(H), b = rnd_pat(H);
      if (op == FPREF_OP_SQRT && rndn(8)) a &= 0x7FFF;
      if ((op == FPREF_OP_ADD || op == FPREF_OP_SUB) && rndn(2)) b = rnd_near(H, a);
      for (int rm = 0; rm < 4; rm++) {
        unsigned fw, fg = 0xE0;
        uint32_t w = f16c_op(op, (uint16_t)a, (uint16_t)b, rm, &fw), g = 0;
        switch (op) {
          case FPREF_OP_ADD: g = fpref_add(H, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_SUB: g = fpref_sub(H, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_MUL: g = fpref_mul(H, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_DIV: g = fpref_div(H, a, b, (fp_rm_t)rm, &fg); break;
          case FPREF_OP_SQRT: g = fpref_sqrt(H, a, (fp_rm_t)rm, &fg); break;
        }
        if (g != w || fg != fw) {
          bad++;
          report_fail("f16 %s [%s] a=%04X b=%04X: got %04X/%02X, F16C %04X/%02X", OPN[op], RMN[rm],
                      a, b, g, fg, w, fw);
        } else {
          npass++;
        }
      }
    }
  }
  /* f32 -> f16 conversion against the hardware, all four modes */
  for (long i = 0; i < 4 * n; i++) {
    uint32_t x = rndn(2) ? rnd_pat(FP_FMT_F32) : (rnd32() & 0x807FFFFF) | (100u + rndn(45)) << 23;
    for (int rm = 0; rm < 4; rm++) {
      unsigned fw, fg = 0xE0;
      uint32_t w, g = fpref_f_to_f(FP_FMT_F32, H, x, (fp_rm_t)rm, &fg);
      if ((x & 0x7F800000) == 0x7F800000 && (x & 0x7FFFFF)) {
        w = 0x7E00;
        fw = (x & 0x400000) ? 0 : NV;
      } else {
        volatile float vx = bf(x);
        fesetround(fe_of(rm));
        feclearexcept(FE_ALL_EXCEPT);
        w = f2h_cur(vx);
        fw = fl_of(fetestexcept(FE_ALL_EXCEPT));
        fesetround(FE_TONEAREST);
      }
      if (g != w || fg != fw) {
        bad++;
        report_fail("f32_to_f16 [%s] %08X: got %04X/%02X, F16C %04X/%02X", RMN[rm], x, g, fg, w, fw);
      } else {
        npass++;
      }
    }
  }
  /* f16 -> f32, exhaustive */
  for (uint32_t a = 0; a < 0x10000; a++) {
    unsigned fg = 0xE0, fw = h_snan((uint16_t)a) ? NV : 0;
    uint32_t g = fpref_f_to_f(H, FP_FMT_F32, a, FP_RNE, &fg);
    uint32_t w = h_nan((uint16_t)a) ? 0x7FC00000 : fb(h2f((uint16_t)a));
    if (g != w || fg != fw) {
      bad++;
      report_fail("f16_to_f32 %04X: got %08X/%02X, F16C %08X/%02X", a, g, fg, w, fw);
    } else {
      npass++;
    }
  }
  printf("f16 vs x86 F16C: %ld operand sets x 5 ops x 4 modes, %ld f32->f16, 65536 f16->f32: %ld mismatches\n",
         n, 4 * n, bad);
}
#endif

/* ------------------------------------------------------------------ exhaustive sanity */
static void exhaustive_f16(void) {
  const fp_fmt_t H = FP_FMT_F16, B = FP_FMT_BF16, W = FP_FMT_F32;
  long bad = 0, sq = 0, rt = 0;
  for (uint32_t a = 0; a < 0x10000; a++) {
    int nan = (a & 0x7C00) == 0x7C00 && (a & 0x3FF), snan = nan && !(a & 0x200);
    /* f16 -> f32 -> f16 */
    unsigned f1 = 0xE0, f2 = 0xE0;
    uint32_t w = fpref_f_to_f(H, W, a, FP_RNE, &f1);
    uint32_t h = fpref_f_to_f(W, H, w, FP_RNE, &f2);
    if (h != (nan ? 0x7E00 : a) || f1 != (snan ? NV : 0u) || f2 != 0) {
      bad++;
      report_fail("f16 %04X -> f32 %08X/%02X -> f16 %04X/%02X", a, w, f1, h, f2);
    } else {
      npass++;
    }
    /* bf16 -> f32 is a 16-bit shift */
    w = fpref_f_to_f(B, W, a, FP_RNE, &f1);
    int bnan = (a & 0x7F80) == 0x7F80 && (a & 0x7F);
    if (w != (bnan ? 0x7FC00000 : a << 16) || f1 != ((bnan && !(a & 0x40)) ? NV : 0u)) {
      bad++;
      report_fail("bf16 %04X -> f32 %08X/%02X", a, w, f1);
    } else {
      npass++;
    }
    /* f16 -> bf16 -> f16 and bf16 -> f16 -> bf16 whenever the first step is exact */
    for (int dir = 0; dir < 2; dir++) {
      fp_fmt_t x = dir ? B : H, y = dir ? H : B;
      uint32_t m = fpref_f_to_f(x, y, a, FP_RNE, &f1);
      if (f1 == 0 && !fpref_is_nan(x, a)) {
        for (int rm = 0; rm < 5; rm++) {
          uint32_t back = fpref_f_to_f(y, x, m, (fp_rm_t)rm, &f2);
          rt++;
          if (back != a || f2 != 0) {
            bad++;
            report_fail("%s %04X -> %04X -> %04X/%02X [%s]", dir ? "bf16" : "f16", a, m, back, f2,
                        RMN[rm]);
          } else {
            npass++;
          }
        }
      }
    }
    /* sqrt(a*a) = |a| whenever a*a is exact */
    uint32_t p = fpref_mul(H, a, a, FP_RNE, &f1);
    if (!nan && f1 == 0) {
      for (int rm = 0; rm < 5; rm++) {
        uint32_t s = fpref_sqrt(H, p, (fp_rm_t)rm, &f2);
        sq++;
        if (s != (a & 0x7FFF) || f2 != 0) {
          bad++;
          report_fail("f16 sqrt(%04X * %04X = %04X) = %04X/%02X [%s]", a, a, p, s, f2, RMN[rm]);
        } else {
          npass++;
        }
      }
    }
  }
  printf("f16 exhaustive: 65536 f16->f32->f16 and bf16->f32, %ld bf16<->f16 round trips, %ld sqrt(a*a): %ld mismatches\n",
         rt, sq, bad);
}

int main(int argc, char **argv) {
  long n = 2000000; /* operand sets per op in the fp32 route cross-check */
  if (argc > 1) n = atol(argv[1]);
  g_rng = cutil_rng_seed(1);
  clock_t t0 = clock();
  directed_arith(&KF16);
  directed_arith(&KBF16);
  directed_arith(&KF32);
  directed_cvt_cmp(&KF16);
  directed_cvt_cmp(&KBF16);
  directed_cvt_cmp(&KF32);
  directed_specific();
  printf("directed: %ld passed, %ld failed\n", npass, nfail);
  exhaustive_f16();
  static const fp_fmt_t small[] = {{5, 10}, {8, 7}, {5, 2}, {4, 3}, {3, 1}, {2, 1}, {6, 9}};
  static const char *small_n[] = {"f16", "bf16", "e5m2", "e4m3", "e3m1", "e2m1", "e6m9"};
  for (int i = 0; i < 7; i++) check_round_double(small[i], small_n[i], 100000);
  check_round_double(FP_FMT_F32, "f32", 300000);
  for (int i = 0; i < 4; i++) check_exact_ops(small[i], small_n[i], 60000);
  check_exact_ops(FP_FMT_F32, "f32", 150000);
  for (int i = 0; i < 3; i++) check_cmp_random(small[i], small_n[i], 100000);
  check_cmp_random(FP_FMT_F32, "f32", 200000);
  check_rti_16bit(FP_FMT_F16, "f16");
  check_rti_16bit(FP_FMT_BF16, "bf16");
  check_rti_f32(300000);
  check_sqrt_rmm(FP_FMT_F16, "f16", 100000);
  check_sqrt_rmm(FP_FMT_BF16, "bf16", 100000);
  check_sqrt_rmm(FP_FMT_F32, "f32", 100000);
#if HAVE_X86
  if (__builtin_cpu_supports("f16c")) check_f16c(200000);
  else printf("f16 vs x86 F16C: skipped (no F16C)\n");
#endif
  cross_check_f32(n);
  printf("total time %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
  printf("%ld passed, %ld failed\n", npass, nfail);
  return nfail ? 1 : 0;
}
