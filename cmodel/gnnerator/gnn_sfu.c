/* gnn_sfu.c -- the Graph Engine's Special Function Unit (GRUN sfu; cmodel/include/gnnerator.h,
 * "SFU"): ReLU and exp, bit for bit as rtl/gnnerator/gnn_sfu.v. exp is integer arithmetic on
 * a 256-entry table (gnn_exp_lut.h, generated with the RTL's copy by sw/gnnerator/gen_gnn_exp_lut.py),
 * so it does not depend on the host's libm. */
#include "gnn_exp_lut.h"
#include "gnnerator.h"

#define ONE 0x3F800000u
#define PINF 0x7F800000u
#define QNAN 0x7FC00000u

uint32_t gnn_exp(uint32_t x) {
  const unsigned s = x >> 31, e = (x >> 23) & 0xFFu;
  const uint64_t fr_mask = (UINT64_C(1) << 56) - 1;
  if (e == 0xFFu) return (x & 0x007FFFFFu) ? QNAN : s ? 0u : PINF;
  if (e == 0u) return ONE;                 /* zero and subnormal x: exp = 1.0 */
  if (e >= 134u) return s ? 0u : PINF;     /* |x| >= 128 */
  /* t = |x| * log2(e) with 56 fraction bits: the 24-bit significand times L2E (40 bits) fits
   * 64 bits, then scaled by x's exponent (truncated) */
  const uint64_t m = (uint64_t)((x & 0x007FFFFFu) | 0x00800000u);
  const unsigned sh = 133u - e;
  const uint64_t t = sh >= 64u ? 0u : (m * GNN_EXP_L2E) >> sh;
  int n = (int)(t >> 56);                  /* t = n + f, f in [0, 1) */
  uint64_t f = t & fr_mask;
  if (s) {
    if (f) n = -n - 1, f = (UINT64_C(1) << 56) - f;
    else n = -n;
  }
  /* 2^f = TAB[i] * 2^r, r < 2^-8: 2^r = e^u ~ 1 + u + u^2/2 with u = r ln 2 (Q0.32) */
  const unsigned i = (unsigned)(f >> 48);
  const uint64_t r = (f >> 24) & 0xFFFFFFu;
  const uint64_t u = (r * GNN_EXP_LN2) >> 32;
  const uint64_t p = (UINT64_C(1) << 32) + u + ((u * u) >> 33); /* Q1.32 */
  const uint64_t mm = (uint64_t)gnn_exp_lut[i] * p;               /* Q2.62 */
  const int top = (int)(mm >> 63);
  const unsigned drop = 39u + (unsigned)top;
  uint64_t sig = mm >> drop;                                      /* 24 bits: 1.xxx */
  const uint64_t rem = mm & ((UINT64_C(1) << drop) - 1), half = UINT64_C(1) << (drop - 1);
  n += top;
  if (rem > half || (rem == half && (sig & 1u))) sig++;           /* round to nearest even */
  if (sig >> 24) sig >>= 1, n++;
  const int be = n + 127;
  if (be >= 255) return PINF;
  if (be <= 0) return 0u;                                         /* below 2^-126: +0 */
  return ((uint32_t)be << 23) | (uint32_t)(sig & 0x007FFFFFu);
}

uint32_t gnn_sfu(unsigned sfu, uint32_t x) {
  if (sfu == GNN_SF_EXP) return gnn_exp(x);
  return gnn_act(sfu == GNN_SF_RELU ? GNN_ACT_RELU : GNN_ACT_NONE, x);
}
