/* fpref_u32.c -- unsigned 32-bit integer conversions of the float reference (fpref.h):
 * uint32 -> float and float -> uint32 with RISC-V fcvt.s.wu / fcvt.wu.s semantics.
 *
 * Route: every uint32 and every finite value of the supported formats is exact in double, so
 * u32 -> f is fpref_round_double of an exact double, and f -> u32 rounds the exact double to an
 * integer in the requested mode (nearbyint under fesetround; RMM: round half away from zero)
 * and then applies the range rules: NaN and +overflow give 0xFFFFFFFF, negative values that do
 * not round to zero (and -inf) give 0, both with NV only; otherwise NX when inexact. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>

#include "fpref.h"

/* Exact value of a finite pattern of format f (sign, biased exponent, fraction). */
static double decode_exact(fp_fmt_t f, uint32_t a) {
  const uint32_t frac = a & ((1u << f.mw) - 1);
  const uint32_t e = (a >> f.mw) & ((1u << f.ew) - 1);
  const int bias = (1 << (f.ew - 1)) - 1;
  double m = e ? (double)(frac | (1u << f.mw)) : (double)frac;
  double v = ldexp(m, (e ? (int)e : 1) - bias - f.mw);
  return ((a >> (f.ew + f.mw)) & 1) ? -v : v;
}

uint32_t fpref_u32_to_f(fp_fmt_t f, uint32_t x, fp_rm_t rm, unsigned *flags) {
  return fpref_round_double(f, (double)x, 0, rm, flags);
}

uint32_t fpref_f_to_u32(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags) {
  const uint32_t emask = (1u << f.ew) - 1;
  const uint32_t frac = a & ((1u << f.mw) - 1);
  const int neg = (a >> (f.ew + f.mw)) & 1;
  *flags = 0;
  if ((unsigned)rm > FP_RMM) {  /* reserved rounding mode: treated like a NaN operand */
    *flags = FP_FLAG_NV;
    return 0xFFFFFFFFu;
  }
  if (((a >> f.mw) & emask) == emask) {  /* inf or NaN */
    *flags = FP_FLAG_NV;
    return (frac || !neg) ? 0xFFFFFFFFu : 0;
  }
  volatile double x = decode_exact(f, a);
  volatile double r;
  if (rm == FP_RMM) {
    r = round(x);
  } else {
    static const int kMode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    fesetround(kMode[rm]);
    r = nearbyint(x);
    fesetround(FE_TONEAREST);
  }
  if (r < 0.0) {
    *flags = FP_FLAG_NV;
    return 0;
  }
  if (r > 4294967295.0) {
    *flags = FP_FLAG_NV;
    return 0xFFFFFFFFu;
  }
  if (r != x) *flags = FP_FLAG_NX;
  return (uint32_t)r;
}
