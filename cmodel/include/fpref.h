/* fpref.h -- bit-exact IEEE 754 reference for the parameterized float RTL units.
 *
 * Formats are given as {exponent bits, stored fraction bits}; fp16, bfloat16 and fp32 are
 * predefined, and any format with 2 <= ew <= 8 and 1 <= mw <= 23 is accepted (anything else
 * aborts with a message). Operands and results are bit patterns right-aligned in a uint32_t;
 * bits above the format's width (ew + mw + 1) are ignored on input and zero on output.
 *
 * Semantics (ARCHITECTURE.md "Number formats", RISC-V F): IEEE 754 with tininess detected
 * after rounding (UF = tiny && inexact), every NaN result is the canonical quiet NaN (sign 0,
 * quiet bit set, payload 0), any sNaN operand of an arithmetic op raises NV, fma raises NV on
 * inf*0 + anything (even a quiet NaN), exact zero sums are +0 except -0 in RDN, overflow
 * gives OF|NX and inf or the largest finite value depending on the rounding mode. Flags use
 * TestFloat's bit order, and *flags is SET (not ORed) to the operation's flags.
 *
 * Route (how the correctly rounded result is obtained):
 *  - fp32 in RNE/RTZ/RDN/RUP: the host's binary32 arithmetic (x86-64 SSE, tininess after
 *    rounding) under fesetround, flags from fetestexcept, fmaf for fma, sqrtf for sqrt. The
 *    NaN-operand rules (and fma's inf*0 + qNaN, which x86 FMA does NOT flag) are applied
 *    explicitly; NaN results are canonicalized.
 *  - fp16, bf16, other small formats, and fp32 in RMM: the NaN/inf/zero rules are applied
 *    explicitly (they give NV and DZ); finite operands are decoded exactly to double, the op
 *    is done in double under round-toward-zero with FE_INEXACT read back, which is the round-
 *    to-odd of the exact result (the product in fma is exact in double, so fma is one
 *    rounding). Double has 53 >= p + 2 bits for every target precision p <= 24, so rounding
 *    that round-to-odd value once more to the target is correctly rounded (Boldo & Melquiond,
 *    "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd",
 *    IEEE Trans. Computers 57(4), 2008). The final rounding is fpref_round_double: pure
 *    integer code with the target's precision, exponent range, subnormals, all five modes and
 *    the OF/UF/NX flags. With ew <= 8 and p <= 24 no double op can overflow or underflow.
 *  - Conversions: i32 -> fp32 (IEEE modes) is the host conversion under fesetround, otherwise
 *    (double)x (exact) -> fpref_round_double; f -> i32 decodes exactly to double and rounds to
 *    an integer with nearbyint under fesetround (RMM: round half away from zero), then
 *    saturates as RISC-V fcvt.w does; f -> f decodes exactly to double -> fpref_round_double.
 *  - Compare / min / max are integer code on the bit patterns for every format; roundToInt
 *    rounds the exact double with nearbyint under fesetround (RMM: round).
 * No result depends on the caller's rounding mode, and every arithmetic, compare and
 * conversion function returns with the host rounding mode at FE_TONEAREST (the host's sticky
 * exception flags are left as the last host operation set them). The functions are
 * thread-compatible (they change the calling thread's floating-point environment only). */
#ifndef FPREF_H
#define FPREF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RISC-V frm encoding; RMM = round to nearest, ties to max magnitude */
typedef enum { FP_RNE = 0, FP_RTZ = 1, FP_RDN = 2, FP_RUP = 3, FP_RMM = 4 } fp_rm_t;
/* TestFloat bit order */
enum { FP_FLAG_NX = 0x01, FP_FLAG_UF = 0x02, FP_FLAG_OF = 0x04, FP_FLAG_DZ = 0x08, FP_FLAG_NV = 0x10 };
typedef struct { int ew, mw; } fp_fmt_t; /* exponent bits, stored mantissa (fraction) bits */
extern const fp_fmt_t FP_FMT_F16, FP_FMT_BF16, FP_FMT_F32; /* {5,10}, {8,7}, {8,23} */

uint32_t fpref_canonical_nan(fp_fmt_t f); /* 0x7E00, 0x7FC0, 0x7FC00000 */
int fpref_is_nan(fp_fmt_t f, uint32_t a);
int fpref_is_snan(fp_fmt_t f, uint32_t a);

/* Unsigned 32-bit conversions (fpref_u32.c), RISC-V fcvt.s.wu / fcvt.wu.s: f -> u32 gives
 * 0xFFFFFFFF for NaN and +overflow, 0 for negative values that do not round to 0 (and -inf),
 * NV only on those; NX when inexact otherwise. u32 -> f is (double)x -> fpref_round_double. */
uint32_t fpref_u32_to_f(fp_fmt_t f, uint32_t x, fp_rm_t rm, unsigned *flags);
uint32_t fpref_f_to_u32(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags);


/* all ops: operands/results are the bit patterns right-aligned in uint32_t;
 * *flags is SET (not ORed) to the op's flags */
uint32_t fpref_add(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags);
uint32_t fpref_sub(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags);
uint32_t fpref_mul(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags);
uint32_t fpref_fma(fp_fmt_t f, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                   unsigned *flags); /* a*b+c, one rounding */
uint32_t fpref_div(fp_fmt_t f, uint32_t a, uint32_t b, fp_rm_t rm, unsigned *flags);
uint32_t fpref_sqrt(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags);
uint32_t fpref_eq(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags); /* 0/1; quiet: NV only on sNaN */
uint32_t fpref_lt(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags); /* signaling: NV on any NaN */
uint32_t fpref_le(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags);
/* The other three IEEE predicates (TestFloat's <F>_eq_signaling, <F>_lt_quiet, <F>_le_quiet):
 * eq_signaling raises NV on any NaN operand, lt_quiet / le_quiet only on a signaling NaN;
 * unordered compares give 0. */
uint32_t fpref_eq_signaling(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags);
uint32_t fpref_lt_quiet(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags);
uint32_t fpref_le_quiet(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags);
/* RISC-V fmin/fmax (IEEE 754-2019 minimumNumber/maximumNumber): -0 < +0; one NaN -> the
 * other operand; both NaN -> canonical NaN; NV if any sNaN */
uint32_t fpref_min(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags);
uint32_t fpref_max(fp_fmt_t f, uint32_t a, uint32_t b, unsigned *flags);
uint32_t fpref_i32_to_f(fp_fmt_t f, int32_t x, fp_rm_t rm, unsigned *flags);
/* RISC-V fcvt.w: NaN and +overflow -> INT32_MAX, -overflow/-inf -> INT32_MIN, NV only (no NX)
 * on those; NX when inexact otherwise. Overflow is judged on the rounded integer. */
int32_t fpref_f_to_i32(fp_fmt_t f, uint32_t a, fp_rm_t rm, unsigned *flags);
/* IEEE roundToIntegral (TestFloat's <F>_roundToInt, RISC-V Zfa fround / froundnx): a rounded
 * to an integral value of the same format in rm, keeping its sign (-0.25 -> -0 in RNE); zeros,
 * integers and infinities unchanged without flags; NaN -> canonical NaN, NV if sNaN. exact != 0
 * raises NX when the result differs from a (roundToIntegralExact, TestFloat -exact); exact == 0
 * never raises NX (TestFloat -notexact). No OF/UF in any format whose largest finite value is
 * an integer (mw <= bias: fp16, bfloat16, fp32). Route: the exact double of a through nearbyint
 * under fesetround (RMM: round, half away from zero), encoded back exactly. */
uint32_t fpref_round_to_int(fp_fmt_t f, uint32_t a, fp_rm_t rm, int exact, unsigned *flags);
/* NaN -> canonical NaN of `to`, NV if sNaN; widening exact */
uint32_t fpref_f_to_f(fp_fmt_t from, fp_fmt_t to, uint32_t a, fp_rm_t rm, unsigned *flags);
/* The correctly rounded route from an exact-or-round-to-odd double (exported for tests and
 * other models). x_inexact != 0 means the exact value lies strictly between x and the next
 * double away from zero (x may be the round-toward-zero or the round-to-odd result); it acts
 * as a sticky bit below x's last bit. NaN x -> canonical NaN, inf x -> inf, both flag-free.
 * Sets *flags to NX/UF/OF of the rounding. */
uint32_t fpref_round_double(fp_fmt_t f, double x, int x_inexact, fp_rm_t rm, unsigned *flags);

/* Test hooks: the two fp32 routes side by side, so a test can check that they agree
 * (the evidence that the round-to-odd route is correctly rounded). `a`, `b`, `c` are fp32
 * bit patterns, except FPREF_OP_I32_TO_F (a is the int32 as uint32_t) and the result of
 * FPREF_OP_F_TO_I32 (the int32 as uint32_t). Unused operands are ignored. fpref_f32_via_host
 * accepts RNE/RTZ/RDN/RUP only; its f -> i32 is the host's cvtss2si (lrintf, 64-bit result,
 * inexact flag from the hardware) followed by the int32 saturation rules. The public
 * fpref_f_to_i32 uses the exact-double route for every format and mode. */
typedef enum {
  FPREF_OP_ADD, FPREF_OP_SUB, FPREF_OP_MUL, FPREF_OP_FMA, FPREF_OP_DIV, FPREF_OP_SQRT,
  FPREF_OP_I32_TO_F, FPREF_OP_F_TO_I32
} fpref_op_t;
uint32_t fpref_f32_via_host(fpref_op_t op, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                            unsigned *flags);
uint32_t fpref_f32_via_double(fpref_op_t op, uint32_t a, uint32_t b, uint32_t c, fp_rm_t rm,
                              unsigned *flags);

#ifdef __cplusplus
}
#endif

#endif /* FPREF_H */
