/* fp_gen_vectors.c -- test vectors in Berkeley TestFloat's testfloat_gen text format, with the
 * expected results computed by the float reference (cmodel/include/fpref.h).
 *
 *   fp_gen_vectors <function> [-rnear_even|-rminMag|-rmin|-rmax|-rnear_maxMag]
 *                  [-seed N] [-n N] [-notexact|-exact] [-tininessafter]
 *
 * Functions (TestFloat names; min/max and everything bf16 are our extension):
 *   <F>_add <F>_sub <F>_mul <F>_mulAdd <F>_div <F>_sqrt <F>_eq <F>_lt <F>_le <F>_eq_signaling
 *   <F>_lt_quiet <F>_le_quiet <F>_min <F>_max <F>_roundToInt
 *   <F>_to_i32 i32_to_<F> <F>_to_ui32 ui32_to_<F> <F>_to_<G>   with F, G in f16, bf16, f32 (F != G)
 * Output: one case per line, the operands, the expected result and the flags, separated by
 * single spaces: floats in uppercase hex zero-padded to the format width (4 digits for
 * f16/bf16, 8 for f32), i32/ui32 as 8 hex digits (two's complement), compare results as 1/0, the
 * flags as 2 hex digits in TestFloat's order (NV 10, DZ 08, OF 04, UF 02, NX 01).
 * Semantics are RISC-V's (see fpref.h): canonical NaN results, tininess after rounding, fma
 * inf*0 + qNaN invalid, saturating float-to-int (ui32: NaN/+overflow -> FFFFFFFF, negative
 * values that do not round to 0 -> 0, fpref_u32.c). -exact / -notexact as in testfloat_gen, with
 * its default -notexact: roundToInt and the conversions to integer raise inexact only with
 * -exact. -tininessafter is accepted and changes nothing; -tininessbefore and -rodd are refused
 * (exit status 2) for the functions whose results they would change (the reference has
 * neither), and ignored for the others, as testfloat_gen ignores them.
 * Cases: every combination of a list of ~22 special operands of the format (+-0, +-min and
 * max subnormal, +-min normal, +-1, +-max normal, +-inf, qNaN, sNaN, 1+ulp, the half-ulp of
 * 1 and of the largest value, 1.5, 1-ulp/2, -3; conversions add the values that round at the
 * destination's ties, overflow and underflow boundaries), then -n random cases (default 1000,
 * at most 10^9, seeded by -seed, default 1) biased toward special exponents, cancellation in
 * add/sub/fma, and values near integers for conversions.
 * Bad arguments: a one-line message on stderr and exit status 2. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "fpref.h"

typedef enum { K_AB, K_ABC, K_A, K_CMP, K_F2I, K_I2F, K_F2F, K_RTI } kind_t;
typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_DIV, OP_SQRT, OP_EQ, OP_LT, OP_LE, OP_EQS, OP_LTQ, OP_LEQ,
  OP_MIN, OP_MAX, OP_RTI, OP_F2I, OP_I2F, OP_F2U, OP_U2F, OP_F2F
} op_t;

typedef struct {
  const char *name;
  fp_fmt_t f;
  int digits;
} fmtinfo_t;
static const fmtinfo_t kFmts[] = {{"f16", {5, 10}, 4}, {"bf16", {8, 7}, 4}, {"f32", {8, 23}, 8}};
#define NFMTS 3

static const struct {
  const char *name;
  op_t op;
  kind_t kind;
} kOps[] = {
    {"add", OP_ADD, K_AB}, {"sub", OP_SUB, K_AB}, {"mul", OP_MUL, K_AB},
    {"mulAdd", OP_FMA, K_ABC}, {"div", OP_DIV, K_AB}, {"sqrt", OP_SQRT, K_A},
    {"eq", OP_EQ, K_CMP}, {"lt", OP_LT, K_CMP}, {"le", OP_LE, K_CMP},
    {"eq_signaling", OP_EQS, K_CMP}, {"lt_quiet", OP_LTQ, K_CMP}, {"le_quiet", OP_LEQ, K_CMP},
    {"min", OP_MIN, K_AB}, {"max", OP_MAX, K_AB}, {"roundToInt", OP_RTI, K_RTI},
};
#define NOPS (sizeof kOps / sizeof kOps[0])

typedef struct {
  op_t op;
  kind_t kind;
  const fmtinfo_t *a; /* operand format (NULL for i32) */
  const fmtinfo_t *z; /* result format (NULL for i32 / bool) */
  fp_rm_t rm;
  int exact;          /* -exact: roundToInt and to-integer conversions raise inexact */
} job_t;

static void usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "fp_gen_vectors: %s%s%s (usage: fp_gen_vectors <function> "
                  "[-rnear_even|-rminMag|-rmin|-rmax|-rnear_maxMag] [-notexact|-exact] "
                  "[-seed N] [-n N])\n",
          msg, arg ? ": " : "", arg ? arg : "");
  exit(2);
}

static const fmtinfo_t *find_fmt(const char *s, size_t len) {
  for (int i = 0; i < NFMTS; i++)
    if (strlen(kFmts[i].name) == len && !strncmp(kFmts[i].name, s, len)) return &kFmts[i];
  return NULL;
}

static int parse_function(const char *s, job_t *j) {
  const char *us = strchr(s, '_');
  if (!us) return 0;
  if (!strncmp(s, "i32_to_", 7) || !strncmp(s, "ui32_to_", 8)) { /* [u]i32_to_<F> */
    const char *fs = s + (s[0] == 'u' ? 8 : 7);
    j->a = NULL;
    j->z = find_fmt(fs, strlen(fs));
    j->op = s[0] == 'u' ? OP_U2F : OP_I2F;
    j->kind = K_I2F;
    return j->z != NULL;
  }
  j->a = find_fmt(s, (size_t)(us - s));
  if (!j->a) return 0;
  const char *rest = us + 1;
  if (!strncmp(rest, "to_", 3)) {
    rest += 3;
    if (!strcmp(rest, "i32") || !strcmp(rest, "ui32")) {
      j->z = NULL;
      j->op = rest[0] == 'u' ? OP_F2U : OP_F2I;
      j->kind = K_F2I;
      return 1;
    }
    j->z = find_fmt(rest, strlen(rest));
    j->op = OP_F2F;
    j->kind = K_F2F;
    return j->z != NULL && j->z != j->a;
  }
  for (size_t i = 0; i < NOPS; i++) {
    if (!strcmp(rest, kOps[i].name)) {
      j->op = kOps[i].op;
      j->kind = kOps[i].kind;
      j->z = (j->kind == K_CMP) ? NULL : j->a;
      return 1;
    }
  }
  return 0;
}

/* The most random cases of one run (-n): about 30 GB of vector lines. */
#define MAX_CASES 1000000000ull

static unsigned long long parse_count(const char *opt, const char *v, unsigned long long max) {
  if (!v) usage_error("missing value for", opt);
  if (*v < '0' || *v > '9') usage_error("bad number", v);
  errno = 0;
  char *end;
  unsigned long long x = strtoull(v, &end, 10);
  if (errno || *end) usage_error("bad number", v);
  if (x > max) {
    fprintf(stderr, "fp_gen_vectors: %s %s: out of range (expected 0..%llu)\n", opt, v, max);
    exit(2);
  }
  return x;
}

/* ------------------------------------------------------------------ random numbers */
static cutil_rng_t g_rng; /* cutil_rng_seed(-seed) */
static uint32_t rnd32(void) { return (uint32_t)(cutil_rng_next(&g_rng) >> 32); }
static uint32_t rndn(uint32_t n) { return (uint32_t)(((uint64_t)rnd32() * n) >> 32); }

static uint32_t rnd_pat(fp_fmt_t f) {
  const int eall = (1 << f.ew) - 1, bias = eall >> 1;
  const uint32_t fm = (1u << f.mw) - 1;
  int e;
  uint32_t m;
  switch (rndn(16)) {
    case 0: case 1: e = 0; break;
    case 2: e = 1 + (int)rndn(2); break;
    case 3: e = eall - 1 - (int)rndn(2); break;
    case 4: e = eall; break;
    case 5: case 6: e = bias - 2 + (int)rndn(5); break;
    default: e = (int)rndn((uint32_t)eall + 1); break;
  }
  switch (rndn(10)) {
    case 0: m = 0; break;
    case 1: m = fm; break;
    case 2: m = fm - (rndn(4) & fm); break;
    case 3: m = rndn(4) & fm; break;
    case 4: m = 1u << rndn((uint32_t)f.mw); break;
    default: m = rnd32() & fm; break;
  }
  if (e == eall && rndn(4)) m = 0; /* NaNs a few percent */
  return (rnd32() & 1u) << (f.ew + f.mw) | (uint32_t)e << f.mw | m;
}
/* same or adjacent exponent, nearby fraction, random sign: cancellation in add/sub/fma */
static uint32_t rnd_near(fp_fmt_t f, uint32_t x) {
  const int eall = (1 << f.ew) - 1;
  const uint32_t fm = (1u << f.mw) - 1;
  int e = (int)((x >> f.mw) & (uint32_t)eall) + (int)rndn(3) - 1;
  if (e < 0) e = 0;
  if (e > eall - 1) e = eall - 1;
  uint32_t m = x & fm;
  switch (rndn(4)) {
    case 0: m = (m + rndn(8) - 4) & fm; break;
    case 1: m ^= rnd32() & ((1u << rndn((uint32_t)f.mw + 1)) - 1); break;
    case 2: break;
    default: m = rnd32() & fm; break;
  }
  return (rnd32() & 1u) << (f.ew + f.mw) | (uint32_t)e << f.mw | m;
}
static int32_t rnd_i32(void) {
  switch (rndn(5)) {
    case 0: return (int32_t)rnd32();
    case 1: {
      int32_t v = (int32_t)((1u << rndn(31)) + rndn(9) - 4);
      return rndn(2) ? v : -v;
    }
    case 2: return rndn(2) ? INT32_MIN + (int32_t)rndn(300) : INT32_MAX - (int32_t)rndn(300);
    default: {
      uint32_t r = rnd32() >> rndn(32);
      return rndn(2) ? (int32_t)(r >> 1) : -(int32_t)(r >> 1);
    }
  }
}
/* a float operand for a conversion to integer: mostly magnitudes 2^-2 .. 2^33 */
static uint32_t rnd_for_int(fp_fmt_t f) {
  const int bias = (1 << (f.ew - 1)) - 1, eall = (1 << f.ew) - 1;
  if (rndn(4) == 0) return rnd_pat(f);
  const int ehi = bias + 33 < eall - 1 ? bias + 33 : eall - 1;
  int e = bias - 2 + (int)rndn((uint32_t)(ehi - bias + 3));
  uint32_t m = rnd32() & ((1u << f.mw) - 1);
  if (rndn(2)) { /* few fraction bits below the binary point: halves and near-halves */
    int ub = e - bias; /* fraction bits above the binary point */
    if (ub >= 0 && ub < f.mw) {
      int low = f.mw - ub; /* fraction bits below the binary point */
      uint32_t keep = ~((1u << (low > 1 ? low - 1 : 0)) - 1);
      m &= keep;
      if (rndn(2)) m += rndn(3) - 1;
      m &= (1u << f.mw) - 1;
    }
  }
  return (rnd32() & 1u) << (f.ew + f.mw) | (uint32_t)e << f.mw | m;
}

/* ------------------------------------------------------------------ directed operands */
static int add_unique(uint32_t *list, int n, uint32_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return n;
  list[n] = v;
  return n + 1;
}
/* ~22 special patterns of a format */
static int specials(fp_fmt_t f, uint32_t *out) {
  const uint32_t S = 1u << (f.ew + f.mw), fm = (1u << f.mw) - 1, E = ((1u << f.ew) - 1) << f.mw;
  const uint32_t B = (1u << (f.ew - 1)) - 1, one = B << f.mw, maxn = (E - (1u << f.mw)) | fm;
  const uint32_t pm[] = {0, 1, fm, 1u << f.mw, one, maxn, E};
  int n = 0;
  for (unsigned i = 0; i < sizeof pm / sizeof pm[0]; i++) {
    n = add_unique(out, n, pm[i]);
    n = add_unique(out, n, S | pm[i]);
  }
  n = add_unique(out, n, E | (1u << (f.mw - 1)));        /* canonical qNaN */
  n = add_unique(out, n, E | 1u);                        /* sNaN */
  n = add_unique(out, n, one | 1u);                      /* 1 + ulp */
  n = add_unique(out, n, (B - (uint32_t)f.mw - 1) << f.mw); /* 2^-(mw+1): 1 + it is a tie */
  n = add_unique(out, n, one | (1u << (f.mw - 1)));      /* 1.5 */
  n = add_unique(out, n, (2 * B - (uint32_t)f.mw - 1) << f.mw); /* half an ulp of max */
  n = add_unique(out, n, ((B - 1) << f.mw) | fm);        /* 1 - ulp/2 */
  n = add_unique(out, n, S | ((B + 1) << f.mw) | (1u << (f.mw - 1))); /* -3 */
  return n;
}
/* a double as a pattern of f (rounded toward zero; exact when representable), and the
 * pattern one ulp above it in magnitude */
static int add_value(fp_fmt_t f, uint32_t *list, int n, double v) {
  unsigned fl;
  uint32_t p = fpref_round_double(f, v, 0, FP_RTZ, &fl);
  n = add_unique(list, n, p);
  if ((p & ((1u << (f.ew + f.mw)) - 1)) < (((1u << f.ew) - 2) << f.mw | ((1u << f.mw) - 1)))
    n = add_unique(list, n, p + 1);
  return n;
}
/* values that round at the ties / overflow / underflow of a destination format */
static int boundary_values(fp_fmt_t src, fp_fmt_t dst, uint32_t *list, int n) {
  const int bias = (1 << (dst.ew - 1)) - 1, emin = 1 - bias;
  const double maxv = ldexp(2.0 - ldexp(1.0, -dst.mw), bias), hulpmax = ldexp(1.0, bias - dst.mw - 1);
  const double v[] = {
      maxv + hulpmax, maxv + hulpmax / 2, ldexp(1.0, bias + 1),
      1.0 + ldexp(1.0, -dst.mw - 1), 1.0 + 3 * ldexp(1.0, -dst.mw - 1),
      ldexp(1.0, emin - dst.mw - 1), ldexp(3.0, emin - dst.mw - 1),
      ldexp(1.0, emin) - ldexp(1.0, emin - dst.mw - 1), ldexp(1.0, emin) - ldexp(1.0, emin - dst.mw - 2),
  };
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
    n = add_value(src, list, n, v[i]);
    n = add_value(src, list, n, -v[i]);
  }
  return n;
}
static int int_boundary_values(fp_fmt_t src, uint32_t *list, int n) {
  const double v[] = {0.5,          2.5,          3.5,          2147483648.0, 2147483520.0,
                      2147483647.5, 65504.0,      1e9,          4294967295.5, 4294967296.0,
                      4294967040.0};
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
    n = add_value(src, list, n, v[i]);
    n = add_value(src, list, n, -v[i]);
  }
  n = add_value(src, list, n, -2147483904.0);
  return n;
}
/* roundToInt: the ties and near-ties at small integers, the largest non-integers and the
 * smallest values that are integers (2^mw), both signs */
static int rti_values(fp_fmt_t src, uint32_t *list, int n) {
  const double ulp1 = ldexp(1.0, -src.mw), big = ldexp(1.0, src.mw);
  const double v[] = {0.25, 0.75, 1.5, 1.0 + ulp1, 2.0 - ulp1, 0.5 - ulp1 / 2, 0.5 + ulp1,
                      5.5, 6.5, big - 0.5, big / 2 + 0.5, big};
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
    n = add_value(src, list, n, v[i]);
    n = add_value(src, list, n, -v[i]);
  }
  return n;
}
static const uint32_t kUInts[] = {0, 1, 2, 3, 255, 257, 259, 2049, 65504, 65505, 65519, 65520,
                                   16777215, 16777217, 16777219, 0x7FFFFFFF, 0x80000000,
                                   0x80000001, 0x800000C0, 0xFFFFFF7F, 0xFFFFFF80, 0xFFFFFFFE,
                                   0xFFFFFFFF};
static const int32_t kInts[] = {0, 1, -1, 2, 3, -3, 255, 257, 259, 2049, 2051, 65504, 65505, 65519,
                                65520, -65520, 16777215, 16777217, 16777219, -16777217,
                                1073741824, 2147483584, 2147483583, INT32_MAX, INT32_MIN,
                                INT32_MIN + 1};

/* ------------------------------------------------------------------ one case */
static void hex(uint32_t v, int digits, char sep) {
  printf(digits == 4 ? "%04X" : "%08X", (unsigned)v);
  putchar(sep);
}
static void emit(const job_t *j, uint32_t a, uint32_t b, uint32_t c) {
  unsigned fl = 0;
  uint32_t z = 0;
  const fp_fmt_t f = j->a ? j->a->f : j->z->f;
  switch (j->op) {
    case OP_ADD: z = fpref_add(f, a, b, j->rm, &fl); break;
    case OP_SUB: z = fpref_sub(f, a, b, j->rm, &fl); break;
    case OP_MUL: z = fpref_mul(f, a, b, j->rm, &fl); break;
    case OP_FMA: z = fpref_fma(f, a, b, c, j->rm, &fl); break;
    case OP_DIV: z = fpref_div(f, a, b, j->rm, &fl); break;
    case OP_SQRT: z = fpref_sqrt(f, a, j->rm, &fl); break;
    case OP_EQ: z = fpref_eq(f, a, b, &fl); break;
    case OP_LT: z = fpref_lt(f, a, b, &fl); break;
    case OP_LE: z = fpref_le(f, a, b, &fl); break;
    case OP_EQS: z = fpref_eq_signaling(f, a, b, &fl); break;
    case OP_LTQ: z = fpref_lt_quiet(f, a, b, &fl); break;
    case OP_LEQ: z = fpref_le_quiet(f, a, b, &fl); break;
    case OP_RTI: z = fpref_round_to_int(f, a, j->rm, j->exact, &fl); break;
    case OP_MIN: z = fpref_min(f, a, b, &fl); break;
    case OP_MAX: z = fpref_max(f, a, b, &fl); break;
    case OP_F2I: z = (uint32_t)fpref_f_to_i32(f, a, j->rm, &fl); break;
    case OP_I2F: z = fpref_i32_to_f(f, (int32_t)a, j->rm, &fl); break;
    case OP_F2U: z = fpref_f_to_u32(f, a, j->rm, &fl); break;
    case OP_U2F: z = fpref_u32_to_f(f, a, j->rm, &fl); break;
    case OP_F2F: z = fpref_f_to_f(f, j->z->f, a, j->rm, &fl); break;
  }
  /* -notexact: a conversion to integer never raises inexact (TestFloat's exact = false) */
  if ((j->op == OP_F2I || j->op == OP_F2U) && !j->exact) fl &= ~(unsigned)FP_FLAG_NX;
  const int da = j->a ? j->a->digits : 8;
  hex(a, da, ' ');
  if (j->kind == K_AB || j->kind == K_ABC || j->kind == K_CMP) hex(b, da, ' ');
  if (j->kind == K_ABC) hex(c, da, ' ');
  if (j->kind == K_CMP) printf("%u ", (unsigned)z);
  else hex(z, j->z ? j->z->digits : 8, ' ');
  printf("%02X\n", fl);
}

int main(int argc, char **argv) {
  job_t j;
  const char *func = NULL;
  unsigned long long seed = 1, n = 1000;
  int rodd = 0, tiny_before = 0;
  j.rm = FP_RNE;
  j.exact = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (s[0] != '-') {
      if (func) usage_error("more than one function", s);
      func = s;
    } else if (!strcmp(s, "-rnear_even")) j.rm = FP_RNE, rodd = 0;
    else if (!strcmp(s, "-rminMag")) j.rm = FP_RTZ, rodd = 0;
    else if (!strcmp(s, "-rmin")) j.rm = FP_RDN, rodd = 0;
    else if (!strcmp(s, "-rmax")) j.rm = FP_RUP, rodd = 0;
    else if (!strcmp(s, "-rnear_maxMag")) j.rm = FP_RMM, rodd = 0;
    else if (!strcmp(s, "-rodd")) rodd = 1;
    else if (!strcmp(s, "-exact")) j.exact = 1;
    else if (!strcmp(s, "-notexact")) j.exact = 0;
    else if (!strcmp(s, "-tininessafter")) tiny_before = 0;
    else if (!strcmp(s, "-tininessbefore")) tiny_before = 1;
    else if (!strcmp(s, "-seed")) seed = parse_count(s, i + 1 < argc ? argv[++i] : NULL, UINT64_MAX);
    else if (!strcmp(s, "-n")) n = parse_count(s, i + 1 < argc ? argv[++i] : NULL, MAX_CASES);
    else usage_error("unknown option", s);
  }
  if (!func) usage_error("no function given", NULL);
  if (!parse_function(func, &j)) usage_error("unknown function", func);
  {
    /* TestFloat's attributes: which functions round, and which can be tiny and inexact */
    const fp_fmt_t fa = j.a ? j.a->f : FP_FMT_F32, fz = j.z ? j.z->f : fa;
    const int exact_op = j.kind == K_CMP || j.op == OP_MIN || j.op == OP_MAX ||
                         (j.kind == K_F2F && fz.mw >= fa.mw && fz.ew >= fa.ew);
    const int tiny_op = j.op == OP_MUL || j.op == OP_FMA ||
                        (j.kind == K_F2F && (fz.ew < fa.ew || (fz.ew == fa.ew && fz.mw < fa.mw)));
    if (rodd && !exact_op) usage_error("-rodd is not supported (no round-to-odd mode)", func);
    if (tiny_before && tiny_op)
      usage_error("-tininessbefore is not supported (tininess is detected after rounding)", func);
  }
  g_rng = cutil_rng_seed(seed);

  static char buf[1 << 16];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
  const fp_fmt_t fa = j.a ? j.a->f : FP_FMT_F32;
  uint32_t sp[192];
  int ns = 0;
  switch (j.kind) {
    case K_I2F:
      if (j.op == OP_U2F)
        for (unsigned i = 0; i < sizeof kUInts / sizeof kUInts[0]; i++) sp[ns++] = kUInts[i];
      else
        for (unsigned i = 0; i < sizeof kInts / sizeof kInts[0]; i++) sp[ns++] = (uint32_t)kInts[i];
      break;
    case K_F2I:
      ns = specials(fa, sp);
      ns = int_boundary_values(fa, sp, ns);
      break;
    case K_RTI:
      ns = specials(fa, sp);
      ns = int_boundary_values(fa, sp, ns);
      ns = rti_values(fa, sp, ns);
      break;
    case K_F2F:
      ns = specials(fa, sp);
      ns = boundary_values(fa, j.z->f, sp, ns);
      break;
    default: ns = specials(fa, sp); break;
  }
  /* directed: every combination of the specials */
  for (int x = 0; x < ns; x++) {
    if (j.kind == K_AB || j.kind == K_CMP) {
      for (int y = 0; y < ns; y++) emit(&j, sp[x], sp[y], 0);
    } else if (j.kind == K_ABC) {
      for (int y = 0; y < ns; y++)
        for (int w = 0; w < ns; w++) emit(&j, sp[x], sp[y], sp[w]);
    } else {
      emit(&j, sp[x], 0, 0);
    }
  }
  /* random */
  for (unsigned long long i = 0; i < n; i++) {
    uint32_t a, b = 0, c = 0;
    switch (j.kind) {
      case K_I2F:
        a = (uint32_t)rnd_i32();
        if (j.op == OP_U2F && rndn(2)) a = rnd32() >> rndn(32); /* unsigned magnitudes */
        break;
      case K_F2I: case K_RTI: a = rnd_for_int(fa); break;
      case K_A:
        a = rnd_pat(fa);
        if (rndn(8)) a &= (1u << (fa.ew + fa.mw)) - 1; /* mostly non-negative sqrt operands */
        break;
      default:
        a = rnd_pat(fa);
        b = rnd_pat(fa);
        c = rnd_pat(fa);
        if ((j.op == OP_ADD || j.op == OP_SUB || j.kind == K_CMP || j.op == OP_MIN ||
             j.op == OP_MAX) && rndn(2))
          b = rnd_near(fa, a);
        if (j.kind == K_ABC && rndn(2)) { /* c near -a*b */
          unsigned fl;
          c = fpref_mul(fa, a, b, FP_RTZ, &fl) ^ (1u << (fa.ew + fa.mw));
          if (rndn(2)) c = rnd_near(fa, c);
        }
        break;
    }
    emit(&j, a, b, c);
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "fp_gen_vectors: write error on standard output\n");
    return 1;
  }
  return 0;
}
