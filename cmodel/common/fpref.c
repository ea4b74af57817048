/* fpref.c -- bit-exact IEEE 754 reference for the parameterized float RTL units.
 * See fpref.h for the semantics and the route. Every host floating-point operation reads its
 * operands from volatile objects and writes its result to a volatile object, so the compiler
 * can neither constant-fold it nor move it across fesetround / feclearexcept / fetestexcept
 * (and the library is also meant to be built with -frounding-math). */
#include "fpref.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const fp_fmt_t FP_FMT_F16 = {5, 10};
const fp_fmt_t FP_FMT_BF16 = {8, 7};
const fp_fmt_t FP_FMT_F32 = {8, 23};

/* ------------------------------------------------------------------ argument checks */
static void check_fmt(fp_fmt_t f) {
  if (f.ew < 2 || f.ew > 8 || f.mw < 1 || f.mw > 23) {
    fprintf(stderr, "fpref: unsupported format {ew=%d, mw=%d} (need 2<=ew<=8, 1<=mw<=23)\n", f.ew,
            f.mw);
    abort();
  }
}
static void check_rm(fp_rm_t rm) {
  if ((unsigned)rm > (unsigned)FP_RMM) {
    fprintf(stderr, "fpref: invalid rounding mode %d\n", (int)rm);
    abort();
  }
}

/* ------------------------------------------------------------------ bit-level helpers */
static uint32_t fmt_mask(fp_fmt_t f) { return (uint32_t)((1ull << (1 + f.ew + f.mw)) - 1); }
static uint32_t sign_bit(fp_fmt_t f) { return 1u << (f.ew + f.mw); }
static uint32_t exp_all1(fp_fmt_t f) { return (1u << f.ew) - 1; }
static uint32_t frac_mask(fp_fmt_t f) { return (1u << f.mw) - 1; }
static uint32_t quiet_bit(fp_fmt_t f) { return 1u << (f.mw - 1); }
static uint32_t inf_bits(fp_fmt_t f) { return exp_all1(f) << f.mw; }
static uint32_t max_finite(fp_fmt_t f) { return ((exp_all1(f) - 1) << f.mw) | frac_mask(f); }
static int bias_of(fp_fmt_t f) { return (1 << (f.ew - 1)) - 1; }

static unsigned sgn_of(fp_fmt_t f, uint32_t a) { return (a >> (f.ew + f.mw)) & 1u; }
static uint32_t exp_of(fp_fmt_t f, uint32_t a) { return (a >> f.mw) & exp_all1(f); }
static uint32_t frac_of(fp_fmt_t f, uint32_t a) { return a & frac_mask(f); }
static int is_nan(fp_fmt_t f, uint32_t a) { return exp_of(f, a) == exp_all1(f) && frac_of(f, a) != 0; }
static int is_snan(fp_fmt_t f, uint32_t a) { return is_nan(f, a) && !(a & quiet_bit(f)); }
static int is_inf(fp_fmt_t f, uint32_t a) { return exp_of(f, a) == exp_all1(f) && frac_of(f, a) == 0; }
static int is_zero(fp_fmt_t f, uint32_t a) { return (a & (sign_bit(f) - 1)) == 0; }

uint32_t fpref_canonical_nan(fp_fmt_t f) {
  check_fmt(f);
  return inf_bits(f) | quiet_bit(f);
}
int fpref_is_nan(fp_fmt_t f, uint32_t a) {
  check_fmt(f);
  return is_nan(f, a & fmt_mask(f));
}
int fpref_is_snan(fp_fmt_t f, uint32_t a) {
  check_fmt(f);
  return is_snan(f, a & fmt_mask(f));
}

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static double dfrom(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}
static uint32_t fbits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static float ffrom(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}
static int msb64(uint64_t x) { /* x != 0 */
  int n = 0;
  while (x >>= 1) n++;
  return n;
}

/* Exact value of a (non-NaN) pattern as a double, built bit by bit (no host arithmetic).
 * A NaN pattern gives a quiet double NaN (callers handle NaN operands before this). */
static double decode(fp_fmt_t f, uint32_t a) {
  uint64_t s = (uint64_t)sgn_of(f, a) << 63;
  uint32_t e = exp_of(f, a), m = frac_of(f, a);
  if (e == exp_all1(f)) return dfrom(s | 0x7FF0000000000000ull | (m ? 0x0008000000000000ull : 0));
  if (e == 0 && m == 0) return dfrom(s);
  uint64_t sig = e ? (m | (1ull << f.mw)) : m;               /* value = sig * 2^exp2 */
  int exp2 = (e ? (int)e : 1) - bias_of(f) - f.mw;
  int hb = msb64(sig);                                      /* value in [2^(exp2+hb), 2^(exp2+hb+1)) */
  uint64_t frac52 = (sig << (52 - hb)) & 0x000FFFFFFFFFFFFFull;
  return dfrom(s | ((uint64_t)(exp2 + hb + 1023) << 52) | frac52);
}

/* ------------------------------------------------------------------ the final rounding */
/* q = m >> sh rounded by rm (sticky_in: a nonzero tail below bit 0 of m); m < 2^54. */
static uint64_t round_shift(uint64_t m, int sh, int sticky_in, unsigned sign, fp_rm_t rm,
                            int *inexact) {
  uint64_t q, rb = 0;
  int st;
  if (sh > 60) sh = 60; /* every bit of m is below the round bit either way */
  if (sh == 0) {
    q = m;
    st = sticky_in != 0;
  } else {
    q = m >> sh;
    rb = (m >> (sh - 1)) & 1u;
    st = (m & ((1ull << (sh - 1)) - 1)) != 0 || sticky_in;
  }
  *inexact = rb || st;
  int up = 0;
  switch (rm) {
    case FP_RNE: up = rb && (st || (q & 1u)); break;
    case FP_RTZ: up = 0; break;
    case FP_RDN: up = *inexact && sign; break;
    case FP_RUP: up = *inexact && !sign; break;
    case FP_RMM: up = rb != 0; break;
  }
  return q + (uint64_t)up;
}

static uint32_t overflow_result(fp_fmt_t f, unsigned s, fp_rm_t rm, unsigned *flags) {
  uint32_t sb = s ? sign_bit(f) : 0;
  int to_inf;
  switch (rm) {
    case FP_RTZ: to_inf = 0; break;
    case FP_RDN: to_inf = s; break;
    case FP_RUP: to_inf = !s; break;
    default: to_inf = 1; break;
  }
  *flags = FP_FLAG_OF | FP_FLAG_NX;
  return sb | (to_inf ? inf_bits(f) : max_finite(f));
}

static uint32_t round_double(fp_fmt_t f, double x, int x_inexact, fp_rm_t rm, unsigned *flags) {
  uint64_t u = dbits(x);
  unsigned s = (unsigned)(u >> 63);
  int de = (int)((u >> 52) & 0x7FF);
  uint64_t df = u & 0x000FFFFFFFFFFFFFull;
  uint32_t sb = s ? sign_bit(f) : 0;
  *flags = 0;
  if (de == 0x7FF) return df ? inf_bits(f) | quiet_bit(f) : sb | inf_bits(f);

  uint64_t m; /* |x| = m * 2^(E-52), m in [2^52, 2^53) */
  int E;
  if (de != 0) {
    m = df | (1ull << 52);
    E = de - 1023;
  } else if (df != 0) {
    int hb = msb64(df);
    m = df << (52 - hb);
    E = -1074 + hb - 52;
  } else if (!x_inexact) {
    return sb; /* exact zero */
  } else {
    m = 0; /* a nonzero tail below the smallest double: far below every target's range */
    E = -2000;
  }

  const int p = f.mw + 1, bias = bias_of(f), emin = 1 - bias, emax = bias;
  int inex;
  /* rounding to p bits with unbounded exponent range */
  uint64_t q = round_shift(m, 53 - p, x_inexact, s, rm, &inex);
  int Er = E;
  if (q >> p) { /* carried to 2^p */
    q >>= 1;
    Er++;
  }
  if (E >= emin) { /* normal (or overflow) */
    if (Er > emax) return overflow_result(f, s, rm, flags);
    *flags = inex ? FP_FLAG_NX : 0;
    return sb | ((uint32_t)(Er + bias) << f.mw) | ((uint32_t)q & frac_mask(f));
  }
  /* below 2^emin: tininess after rounding means the unbounded rounding stayed below 2^emin */
  int tiny = Er < emin;
  uint64_t qs = round_shift(m, 53 - p + (emin - E), x_inexact, s, rm, &inex); /* <= 2^mw */
  *flags = (inex ? FP_FLAG_NX : 0) | (tiny && inex ? FP_FLAG_UF : 0);
  return sb | (uint32_t)qs; /* qs == 2^mw encodes 2^emin (exponent field 1) */
}

/* ------------------------------------------------------------------ host environment */
static int fe_mode(fp_rm_t rm) {
  switch (rm) {
    case FP_RTZ: return FE_TOWARDZERO;
    case FP_RDN: return FE_DOWNWARD;
    case FP_RUP: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}
/* Switch to `mode` (no call when it is already current) / back to round-to-nearest. */
static void enter_mode(int mode) {
  if (fegetround() != mode) fesetround(mode);
}
static void leave_mode(int mode) {
  if (mode != FE_TONEAREST) fesetround(FE_TONEAREST);
}
/* Every public entry point returns through this, so the caller always gets round-to-nearest
 * back, even from paths that are pure integer code (results never depend on the caller's
 * mode: every host op runs under a mode set here). */
static uint32_t ret_rn(uint32_t v) {
  if (fegetround() != FE_TONEAREST) fesetround(FE_TONEAREST);
  return v;
}
static unsigned fe_flags(int ex) {
  return ((ex & FE_INEXACT) ? FP_FLAG_NX : 0u) | ((ex & FE_UNDERFLOW) ? FP_FLAG_UF : 0u) |
         ((ex & FE_OVERFLOW) ? FP_FLAG_OF : 0u) | ((ex & FE_DIVBYZERO) ? FP_FLAG_DZ : 0u) |
         ((ex & FE_INVALID) ? FP_FLAG_NV : 0u);
}

uint32_t fpref_round_double(fp_fmt_t f, double x, int x_inexact, fp_rm_t rm, unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  check_rm(rm);
  return ret_rn(round_double(f, x, x_inexact, rm, flags ? flags : &dummy));
}

/* ------------------------------------------------------------------ round-to-odd route */
enum { DOP_ADD, DOP_MUL, DOP_DIV, DOP_SQRT, DOP_FMA };

/* The double op under round-toward-zero, returned as its round-to-odd value; *inexact from
 * FE_INEXACT. Operands are exact decodings of ew <= 8, p <= 24 values (|x| in
 * [2^-149, 2^128)), so products lie in [2^-298, 2^256), quotients in [2^-277, 2^277), sums
 * of such are multiples of 2^-298: nothing here can overflow or underflow in double, and
 * the product in fma (<= 48 significant bits) is exact. */
static double dop_ro(int op, double x, double y, double z, int *inexact) {
  volatile double vx = x, vy = y, vz = z, vp, vr = 0;
  int ex;
  fesetround(FE_TOWARDZERO);
  feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
    case DOP_ADD: vr = vx + vy; break;
    case DOP_MUL: vr = vx * vy; break;
    case DOP_DIV: vr = vx / vy; break;
    case DOP_SQRT: vr = sqrt(vx); break;
    case DOP_FMA:
      vp = vx * vy;
      if (fetestexcept(FE_INEXACT)) {
        fesetround(FE_TONEAREST);
        fprintf(stderr, "fpref: internal error: inexact product in fma\n");
        abort();
      }
      vr = vp + vz;
      break;
  }
  ex = fetestexcept(FE_ALL_EXCEPT);
  fesetround(FE_TONEAREST);
  if (ex & (FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID | FE_DIVBYZERO)) {
    fprintf(stderr, "fpref: internal error: unexpected double exception 0x%x\n", ex);
    abort();
  }
  *inexact = (ex & FE_INEXACT) != 0;
  double r = vr;
  if (*inexact) r = dfrom(dbits(r) | 1u); /* round to odd: force the significand LSB */
  return r;
}

static uint32_t dbl_is_zero(double r) { return (dbits(r) << 1) == 0; }

static uint32_t gen_nan(fp_fmt_t f, int nv, unsigned *flags) {
  *flags = nv ? FP_FLAG_NV : 0;
  return inf_bits(f) | quiet_bit(f);
}

/* a + b (sub passes b with its sign flipped) */
static uint32_t gen_add(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  if (is_nan(f, a) || is_nan(f, b)) return gen_nan(f, is_snan(f, a) || is_snan(f, b), flags);
  if (is_inf(f, a) && is_inf(f, b) && sgn_of(f, a) != sgn_of(f, b)) return gen_nan(f, 1, flags);
  *flags = 0;
  if (is_inf(f, a)) return a;
  if (is_inf(f, b)) return b;
  int inex;
  double r = dop_ro(DOP_ADD, decode(f, a), decode(f, b), 0.0, &inex);
  if (dbl_is_zero(r)) { /* exact zero: same-sign zeros keep the sign, else +0 (-0 in RDN) */
    unsigned neg = (is_zero(f, a) && is_zero(f, b) && sgn_of(f, a) == sgn_of(f, b))
                       ? sgn_of(f, a) : (rm == FP_RDN);
    return neg ? sign_bit(f) : 0;
  }
  return round_double(f, r, inex, rm, flags);
}

static uint32_t gen_mul(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  if (is_nan(f, a) || is_nan(f, b)) return gen_nan(f, is_snan(f, a) || is_snan(f, b), flags);
  if ((is_inf(f, a) && is_zero(f, b)) || (is_zero(f, a) && is_inf(f, b))) return gen_nan(f, 1, flags);
  uint32_t sb = (sgn_of(f, a) ^ sgn_of(f, b)) ? sign_bit(f) : 0;
  *flags = 0;
  if (is_inf(f, a) || is_inf(f, b)) return sb | inf_bits(f);
  if (is_zero(f, a) || is_zero(f, b)) return sb;
  int inex;
  double r = dop_ro(DOP_MUL, decode(f, a), decode(f, b), 0.0, &inex);
  return round_double(f, r, inex, rm, flags);
}

static uint32_t gen_div(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  if (is_nan(f, a) || is_nan(f, b)) return gen_nan(f, is_snan(f, a) || is_snan(f, b), flags);
  if ((is_inf(f, a) && is_inf(f, b)) || (is_zero(f, a) && is_zero(f, b))) return gen_nan(f, 1, flags);
  uint32_t sb = (sgn_of(f, a) ^ sgn_of(f, b)) ? sign_bit(f) : 0;
  *flags = 0;
  if (is_inf(f, a)) return sb | inf_bits(f);
  if (is_inf(f, b)) return sb;
  if (is_zero(f, b)) {
    *flags = FP_FLAG_DZ;
    return sb | inf_bits(f);
  }
  if (is_zero(f, a)) return sb;
  int inex;
  double r = dop_ro(DOP_DIV, decode(f, a), decode(f, b), 0.0, &inex);
  return round_double(f, r, inex, rm, flags);
}

static uint32_t gen_sqrt(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags) {
  if (is_nan(f, a)) return gen_nan(f, is_snan(f, a), flags);
  *flags = 0;
  if (is_zero(f, a)) return a; /* sqrt(+-0) = +-0 */
  if (sgn_of(f, a)) return gen_nan(f, 1, flags);
  if (is_inf(f, a)) return a;
  int inex;
  double r = dop_ro(DOP_SQRT, decode(f, a), 0.0, 0.0, &inex);
  return round_double(f, r, inex, rm, flags);
}

static uint32_t gen_fma(fp_fmt_t f, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                        unsigned *flags) {
  if (is_snan(f, a) || is_snan(f, b) || is_snan(f, c)) return gen_nan(f, 1, flags);
  if ((is_inf(f, a) && is_zero(f, b)) || (is_zero(f, a) && is_inf(f, b)))
    return gen_nan(f, 1, flags); /* RISC-V: even when c is a quiet NaN */
  if (is_nan(f, a) || is_nan(f, b) || is_nan(f, c)) return gen_nan(f, 0, flags);
  unsigned sp = sgn_of(f, a) ^ sgn_of(f, b), sc = sgn_of(f, c);
  *flags = 0;
  if (is_inf(f, a) || is_inf(f, b)) {
    if (is_inf(f, c) && sc != sp) return gen_nan(f, 1, flags);
    return (sp ? sign_bit(f) : 0) | inf_bits(f);
  }
  if (is_inf(f, c)) return c;
  int inex;
  double r = dop_ro(DOP_FMA, decode(f, a), decode(f, b), decode(f, c), &inex);
  if (dbl_is_zero(r)) {
    int pz = is_zero(f, a) || is_zero(f, b);
    unsigned neg = (pz && is_zero(f, c) && sp == sc) ? sp : (rm == FP_RDN);
    return neg ? sign_bit(f) : 0;
  }
  return round_double(f, r, inex, rm, flags);
}

static int32_t gen_f_to_i32(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags) {
  if (is_nan(f, a)) {
    *flags = FP_FLAG_NV;
    return INT32_MAX;
  }
  volatile double vx = decode(f, a), vr;
  if (rm == FP_RMM) {
    vr = round(vx); /* half away from zero, exact, independent of the rounding mode */
  } else {
    enter_mode(fe_mode(rm));
    vr = nearbyint(vx);
    leave_mode(fe_mode(rm));
  }
  double r = vr, x = vx;
  if (r > 2147483647.0) {
    *flags = FP_FLAG_NV;
    return INT32_MAX;
  }
  if (r < -2147483648.0) {
    *flags = FP_FLAG_NV;
    return INT32_MIN;
  }
  *flags = r != x ? FP_FLAG_NX : 0;
  return (int32_t)r;
}

/* roundToInt: the exact double of a rounded to an integer by the host (nearbyint under
 * fesetround, round() for RMM: both keep the sign of a zero result), encoded back exactly. */
static uint32_t gen_round_to_int(fp_fmt_t f, uint32_t a, fp_rm_t rm, int exact, unsigned *flags) {
  if (is_nan(f, a)) return gen_nan(f, is_snan(f, a), flags);
  *flags = 0;
  if (is_inf(f, a) || is_zero(f, a)) return a;
  volatile double vx = decode(f, a), vr;
  if (rm == FP_RMM) {
    vr = round(vx);
  } else {
    enter_mode(fe_mode(rm));
    vr = nearbyint(vx);
    leave_mode(fe_mode(rm));
  }
  double r = vr, x = vx;
  unsigned fl;
  uint32_t z = round_double(f, r, 0, FP_RTZ, &fl); /* an integer of magnitude <= 2^(mw+1) */
  if (r == 0.0) z = sgn_of(f, a) ? sign_bit(f) : 0;  /* round_double keeps -0; made explicit */
  *flags = (exact && r != x ? FP_FLAG_NX : 0) | (fl & (FP_FLAG_OF | FP_FLAG_UF));
  return z;
}

static uint32_t gen_f_to_f(fp_fmt_t from, fp_fmt_t to, uint32_t a, fp_rm_t rm, unsigned *flags) {
  if (is_nan(from, a)) return gen_nan(to, is_snan(from, a), flags);
  return round_double(to, decode(from, a), 0, rm, flags);
}

static uint32_t gen_op(fp_fmt_t f, fpref_op_t op, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                       unsigned *flags) {
  switch (op) {
    case FPREF_OP_ADD: return gen_add(f, a, b, rm, flags);
    case FPREF_OP_SUB: return gen_add(f, a, b ^ sign_bit(f), rm, flags);
    case FPREF_OP_MUL: return gen_mul(f, a, b, rm, flags);
    case FPREF_OP_FMA: return gen_fma(f, a, b, c, rm, flags);
    case FPREF_OP_DIV: return gen_div(f, a, b, rm, flags);
    case FPREF_OP_SQRT: return gen_sqrt(f, a, rm, flags);
    case FPREF_OP_I32_TO_F: return round_double(f, (double)(int32_t)a, 0, rm, flags);
    case FPREF_OP_F_TO_I32: return (uint32_t)gen_f_to_i32(f, a, rm, flags);
  }
  fprintf(stderr, "fpref: invalid op %d\n", (int)op);
  abort();
}

/* ------------------------------------------------------------------ host fp32 route */
static uint32_t host_f32(fpref_op_t op, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                         unsigned *flags) {
  const fp_fmt_t f = FP_FMT_F32;
  /* NaN operands: explicit rules, the host's propagation and fma flagging are not used */
  switch (op) {
    case FPREF_OP_ADD: case FPREF_OP_SUB: case FPREF_OP_MUL: case FPREF_OP_DIV:
      if (is_nan(f, a) || is_nan(f, b)) return gen_nan(f, is_snan(f, a) || is_snan(f, b), flags);
      break;
    case FPREF_OP_SQRT:
      if (is_nan(f, a)) return gen_nan(f, is_snan(f, a), flags);
      break;
    case FPREF_OP_FMA:
      if (is_snan(f, a) || is_snan(f, b) || is_snan(f, c)) return gen_nan(f, 1, flags);
      if ((is_inf(f, a) && is_zero(f, b)) || (is_zero(f, a) && is_inf(f, b)))
        return gen_nan(f, 1, flags); /* x86 FMA returns the qNaN c without flagging */
      if (is_nan(f, a) || is_nan(f, b) || is_nan(f, c)) return gen_nan(f, 0, flags);
      break;
    case FPREF_OP_F_TO_I32:
      if (is_nan(f, a)) {
        *flags = FP_FLAG_NV;
        return (uint32_t)INT32_MAX;
      }
      break;
    case FPREF_OP_I32_TO_F: break;
  }
  volatile float va = ffrom(a), vb = ffrom(b), vc = ffrom(c), vr = 0;
  volatile int32_t vi = (int32_t)a;
  volatile long vl = 0;
  int ex;
  enter_mode(fe_mode(rm));
  feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
    case FPREF_OP_ADD: vr = va + vb; break;
    case FPREF_OP_SUB: vr = va - vb; break;
    case FPREF_OP_MUL: vr = va * vb; break;
    case FPREF_OP_FMA: vr = fmaf(va, vb, vc); break;
    case FPREF_OP_DIV: vr = va / vb; break;
    case FPREF_OP_SQRT: vr = sqrtf(va); break;
    case FPREF_OP_I32_TO_F: vr = (float)vi; break;
    case FPREF_OP_F_TO_I32: vl = lrintf(va); break; /* cvtss2si: rounds by mode, flags NX */
  }
  ex = fetestexcept(FE_ALL_EXCEPT);
  leave_mode(fe_mode(rm));
  *flags = fe_flags(ex);
  if (op == FPREF_OP_F_TO_I32) {
    long l = vl;
    /* NV here: |a| >= 2^63 or inf, the 64-bit conversion is out of range */
    if ((ex & FE_INVALID) || l > INT32_MAX || l < INT32_MIN) {
      *flags = FP_FLAG_NV;
      return sgn_of(f, a) ? (uint32_t)INT32_MIN : (uint32_t)INT32_MAX;
    }
    return (uint32_t)(int32_t)l;
  }
  uint32_t r = fbits(vr);
  if (is_nan(f, r)) r = inf_bits(f) | quiet_bit(f);
  return r;
}

uint32_t fpref_f32_via_host(fpref_op_t op, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                            unsigned *flags) {
  unsigned dummy;
  check_rm(rm);
  if (rm == FP_RMM) {
    fprintf(stderr, "fpref: the host route has no RMM\n");
    abort();
  }
  if ((unsigned)op > (unsigned)FPREF_OP_F_TO_I32) {
    fprintf(stderr, "fpref: invalid op %d\n", (int)op);
    abort();
  }
  return ret_rn(host_f32(op, a, b, c, rm, flags ? flags : &dummy));
}

uint32_t fpref_f32_via_double(fpref_op_t op, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                              unsigned *flags) {
  unsigned dummy;
  check_rm(rm);
  return ret_rn(gen_op(FP_FMT_F32, op, a, b, c, rm, flags ? flags : &dummy));
}

/* ------------------------------------------------------------------ public arithmetic */
static int use_host(fp_fmt_t f, fp_rm_t rm) { return f.ew == 8 && f.mw == 23 && rm != FP_RMM; }

static uint32_t dispatch(fp_fmt_t f, fpref_op_t op, uint32_t a, uint32_t b, uint32_t c,
                         fp_rm_t rm, unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  check_rm(rm);
  if (!flags) flags = &dummy;
  uint32_t m = fmt_mask(f);
  if (use_host(f, rm)) return ret_rn(host_f32(op, a & m, b & m, c & m, rm, flags));
  return ret_rn(gen_op(f, op, a & m, b & m, c & m, rm, flags));
}

uint32_t fpref_add(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  return dispatch(f, FPREF_OP_ADD, a, b, 0, rm, flags);
}
uint32_t fpref_sub(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  return dispatch(f, FPREF_OP_SUB, a, b, 0, rm, flags);
}
uint32_t fpref_mul(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  return dispatch(f, FPREF_OP_MUL, a, b, 0, rm, flags);
}
uint32_t fpref_fma(fp_fmt_t f, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm, unsigned *flags) {
  return dispatch(f, FPREF_OP_FMA, a, b, c, rm, flags);
}
uint32_t fpref_div(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags) {
  return dispatch(f, FPREF_OP_DIV, a, b, 0, rm, flags);
}
uint32_t fpref_sqrt(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags) {
  return dispatch(f, FPREF_OP_SQRT, a, 0, 0, rm, flags);
}
uint32_t fpref_i32_to_f(fp_fmt_t f, int32_t x, fp_rm_t rm, unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  check_rm(rm);
  if (!flags) flags = &dummy;
  if (use_host(f, rm)) return ret_rn(host_f32(FPREF_OP_I32_TO_F, (uint32_t)x, 0, 0, rm, flags));
  return ret_rn(round_double(f, (double)x, 0, rm, flags)); /* (double)x is exact */
}
int32_t fpref_f_to_i32(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  check_rm(rm);
  return (int32_t)ret_rn((uint32_t)gen_f_to_i32(f, a & fmt_mask(f), rm, flags ? flags : &dummy));
}
uint32_t fpref_round_to_int(fp_fmt_t f, uint32_t a, fp_rm_t rm, int exact, unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  check_rm(rm);
  return ret_rn(gen_round_to_int(f, a & fmt_mask(f), rm, exact, flags ? flags : &dummy));
}
uint32_t fpref_f_to_f(fp_fmt_t from, fp_fmt_t to, uint32_t a, fp_rm_t rm, unsigned *flags) {
  unsigned dummy;
  check_fmt(from);
  check_fmt(to);
  check_rm(rm);
  return ret_rn(gen_f_to_f(from, to, a & fmt_mask(from), rm, flags ? flags : &dummy));
}

/* ------------------------------------------------------------------ compare / min / max */
/* Total order key of a non-NaN pattern with -0 == +0. */
static int64_t order_key(fp_fmt_t f, uint32_t a) {
  int64_t mag = (int64_t)(a & (sign_bit(f) - 1));
  return sgn_of(f, a) ? -mag : mag;
}

/* One IEEE predicate: rel 0 EQ, 1 LT, 2 LE; signaling: NV for any NaN operand, quiet: NV only
 * for a signaling NaN. Unordered (a NaN operand) gives 0. */
enum { REL_EQ, REL_LT, REL_LE };
static uint32_t cmp_rel(fp_fmt_t f, uint32_t a, uint32_t b, int rel, int signaling,
                        unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  if (!flags) flags = &dummy;
  a &= fmt_mask(f);
  b &= fmt_mask(f);
  *flags = 0;
  if (is_nan(f, a) || is_nan(f, b)) {
    if (signaling || is_snan(f, a) || is_snan(f, b)) *flags = FP_FLAG_NV;
    return 0;
  }
  const int64_t ka = order_key(f, a), kb = order_key(f, b);
  return rel == REL_EQ ? ka == kb : rel == REL_LT ? ka < kb : ka <= kb;
}
uint32_t fpref_eq(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(cmp_rel(f, a, b, REL_EQ, 0, flags));
}
uint32_t fpref_lt(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(cmp_rel(f, a, b, REL_LT, 1, flags));
}
uint32_t fpref_le(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(cmp_rel(f, a, b, REL_LE, 1, flags));
}
uint32_t fpref_eq_signaling(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(cmp_rel(f, a, b, REL_EQ, 1, flags));
}
uint32_t fpref_lt_quiet(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(cmp_rel(f, a, b, REL_LT, 0, flags));
}
uint32_t fpref_le_quiet(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(cmp_rel(f, a, b, REL_LE, 0, flags));
}
static uint32_t minmax(fp_fmt_t f, uint32_t a, uint32_t b, int want_max, unsigned *flags) {
  unsigned dummy;
  check_fmt(f);
  if (!flags) flags = &dummy;
  a &= fmt_mask(f);
  b &= fmt_mask(f);
  *flags = (is_snan(f, a) || is_snan(f, b)) ? FP_FLAG_NV : 0;
  if (is_nan(f, a) && is_nan(f, b)) return inf_bits(f) | quiet_bit(f);
  if (is_nan(f, a)) return b;
  if (is_nan(f, b)) return a;
  int64_t ka = order_key(f, a), kb = order_key(f, b);
  if (ka == kb) /* equal values: identical patterns, or +0/-0 where -0 < +0 */
    return want_max ? (sgn_of(f, a) ? b : a) : (sgn_of(f, a) ? a : b);
  return (want_max ? ka > kb : ka < kb) ? a : b;
}
uint32_t fpref_min(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(minmax(f, a, b, 0, flags));
}
uint32_t fpref_max(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags) {
  return ret_rn(minmax(f, a, b, 1, flags));
}
