// tb_fp.cpp -- Verilator harness for the float units of rtl/common, one format per build
// (the format comes from the build's ExpW/ManW, TB_ExpW/TB_ManW; top fp_units_top).
//
// Every unit gets, in order:
//   1. directed operands: all pairs (all triples for fma) of the format's special values --
//      signed zeros, smallest/largest subnormals and normals, +-1, ties, infinities, quiet and
//      signaling NaNs -- in all five rounding modes and every op code (all eight compare
//      codes, exact and not for roundToInt), plus the reserved rounding modes (clean error:
//      canonical NaN and NV, then normal operation);
//   2. +n random operations (default 1,000,000) in random rounding modes, operands biased
//      toward the special exponents, toward cancellation (add, fma) and rounding ties;
//   3. with +exhaustive (16-bit formats): every value through every unary operation (sqrt in
//      both divider forms, to int32/uint32, to both other formats, roundToInt exact and not) in
//      all five rounding modes;
//   4. a reset with operations in flight, after which the unit must come back clean.
// +unit=<name>[,<name>...] restricts the run to those units (names in tb_fp_units.h).
#include "Vfp_units_top.h"
#include "tb_fp_units.h"

// The build's format, from the parameters the RTL was built with (rtl/common/block.toml).
#if TB_ExpW == 5 && TB_ManW == 10
#define FP_FMT 0
#elif TB_ExpW == 8 && TB_ManW == 7
#define FP_FMT 1
#elif TB_ExpW == 8 && TB_ManW == 23
#define FP_FMT 2
#else
#error "tb_fp: ExpW/ManW is none of fp16, bfloat16, fp32"
#endif

using Top = Vfp_units_top;
static const int kF = FP_FMT;

// Special operand patterns of a format.
static std::vector<uint32_t> specials(int fmt) {
  const fp_fmt_t f = kFmt[fmt];
  const uint32_t sign = 1u << (f.ew + f.mw);
  const uint32_t exp1 = 1u << f.mw;                       // smallest normal
  const uint32_t inf = ((1u << f.ew) - 1) << f.mw;
  const uint32_t one = ((1u << (f.ew - 1)) - 1) << f.mw;
  const uint32_t fmask = exp1 - 1;
  std::vector<uint32_t> pos = {0, 1, fmask, exp1, exp1 | 1, inf - exp1 + fmask /*max*/, inf - 1 - fmask + fmask,
                               one, one | 1, one | (1u << (f.mw - 1)), one + exp1 /*2*/, one - exp1 + fmask,
                               inf, inf | (1u << (f.mw - 1)) /*qNaN*/, inf | 1 /*sNaN*/, exp1 + fmask};
  std::vector<uint32_t> v;
  for (uint32_t p : pos) { v.push_back(p); v.push_back(p | sign); }
  return v;
}

static uint32_t rand_operand(int fmt) {
  const fp_fmt_t f = kFmt[fmt];
  const uint32_t w = f.ew + f.mw + 1;
  const uint32_t mask = w == 32 ? 0xFFFFFFFFu : (1u << w) - 1;
  const uint32_t emax = (1u << f.ew) - 1;
  const uint32_t bias = (1u << (f.ew - 1)) - 1;
  uint32_t sign = tb_rand_u32() & 1, e, frac = tb_rand_u32() & ((1u << f.mw) - 1);
  const int r = tb_rand_range(0, 99);
  if (r < 8) {
    static std::vector<uint32_t> sp = specials(fmt);
    return sp[tb_rand_range(0, sp.size() - 1)];
  } else if (r < 40) {
    static const int kBiasedE[] = {0, 0, 1, 2, -1, -2, -3, 3};  // near emin/emax (negative: from the top)
    int k = kBiasedE[tb_rand_range(0, 7)];
    e = k >= 0 ? k : emax + k;
    if (r < 16) e = bias + tb_rand_range(0, 6) - 3;
  } else {
    e = tb_rand_range(0, emax);
  }
  if (tb_chance(20)) frac = tb_chance(50) ? (frac & ~0xFFu) : (frac | 0xFFu);  // rounding runs
  return ((sign << (w - 1)) | (e << f.mw) | frac) & mask;
}

static uint32_t rand_int() {
  uint32_t v = tb_rand_u32();
  int bits = tb_rand_range(0, 32);
  if (bits < 32) v &= (1u << bits) - 1;
  if (tb_chance(30)) v = -v;
  return v;
}

static FpOp rand_op(int unit) {
  const fp_fmt_t f = kFmt[kF];
  const uint32_t sign = 1u << (f.ew + f.mw);
  FpOp o{unit, rand_operand(kF), rand_operand(kF), rand_operand(kF), 0, (int)tb_rand_range(0, 4)};
  switch (unit) {
    case U_ADD:
      o.op = tb_rand_u32() & 1;
      if (tb_chance(30)) {  // near cancellation: b close to +-a
        o.b = (o.a ^ (tb_chance(50) ? sign : 0)) + tb_rand_range(0, 8) - 4;
        o.b &= (sign << 1) - 1;
      }
      break;
    case U_FMA:
      if (tb_chance(30)) {  // c close to -(a*b)
        unsigned fl;
        o.c = (fpref_mul(f, o.a, o.b, FP_RNE, &fl) ^ sign) + tb_rand_range(0, 8) - 4;
        o.c &= (sign << 1) - 1;
      }
      break;
    case U_DIVSQRT:
    case U_DIVSQRT_UNROLLED: o.op = tb_rand_u32() & 1; break;
    case U_CMP:
      o.op = tb_rand_range(0, 7);
      if (tb_chance(25)) o.b = o.a ^ (tb_chance(50) ? 1 : 0);
      break;
    case U_I2F: o.a = rand_int(); o.op = tb_rand_u32() & 1; break;
    case U_RTI:
      o.op = tb_rand_u32() & 1;
      if (tb_chance(60)) {  // magnitudes 2^-2 .. 2^(ManW+1): every rounding position, and above
        const uint32_t bias = (1u << (f.ew - 1)) - 1;
        uint32_t e = bias - 2 + tb_rand_range(0, f.mw + 3);
        o.a = (o.a & (sign | ((1u << f.mw) - 1))) | (e << f.mw);
      }
      break;
    case U_F2I:
      o.op = tb_rand_u32() & 1;
      if (tb_chance(50)) {  // magnitudes around the integer range
        const uint32_t bias = (1u << (f.ew - 1)) - 1;
        uint32_t e = bias + tb_rand_range(0, 33 < (1u << f.ew) - 2 - bias ? 33 : (1u << f.ew) - 2 - bias);
        o.a = (o.a & (sign | ((1u << f.mw) - 1))) | (e << f.mw);
      }
      break;
    default: break;
  }
  return o;
}


int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "fp_units %s", kFmtName[kF]);
  tb_init(argc, argv, name, 1000000, &a,
          {{"unit", "=<name>: only this unit"}, {"exhaustive", ": every input of the 16-bit formats"}});
  const char *only = tb_plusarg("unit");
  const bool exhaustive = tb_plusarg_flag("exhaustive", false);
  TbSim<Top> sim(a, ~0ull);
  TbScore sc(name);
  FpDriver<Top> drv(sim, sc, a, kF);
  sim.reset();

  const std::vector<uint32_t> sp = specials(kF);
  for (int u = 0; u < U_COUNT; u++) {
    if (only && *only && ("," + std::string(only) + ",").find("," + std::string(kUnitName[u]) + ",") == std::string::npos)
      continue;
    const long before = drv.checked;
    // Long iterative operations: allow for them in the timeout.
    sim.timeout = sim.cycle + (uint64_t)(a.n + 200000) * (u == U_DIVSQRT ? 40 : 4) + 10000000;

    // 1. directed
    std::vector<FpOp> ops;
    const int nops = u == U_ADD ? 2 : (u == U_DIVSQRT || u == U_DIVSQRT_UNROLLED) ? 2
                   : u == U_CMP ? 8 : (u == U_I2F || u == U_F2I || u == U_RTI) ? 2 : 1;
    for (int rm = 0; rm < 5; rm++)
      for (int op = 0; op < nops; op++)
        for (uint32_t x : sp)
          for (uint32_t y : sp) {
            if (u == U_FMA) {
              for (uint32_t z : sp) ops.push_back({u, x, y, z, op, rm});
            } else if (u == U_I2F) {
              ops.push_back({u, (x << 16) ^ y, 0, 0, op, rm});
            } else {
              ops.push_back({u, x, y, 0, op, rm});
            }
          }
    // Reserved rounding modes are clean errors, and the unit keeps working (fp_cmp has no
    // rounding mode and no reserved op code).
    for (int rm = 5; rm < 8; rm++) ops.push_back({u, sp[7 * 2], sp[8 * 2], sp[7 * 2], 0, rm});
    ops.push_back(rand_op(u));
    drv.run(ops);

    // 2. random
    const long chunk = 4096;
    for (long done = 0; done < a.n && !sim.timed_out; done += chunk) {
      ops.clear();
      for (long i = 0; i < chunk && done + i < a.n; i++) ops.push_back(rand_op(u));
      const uint64_t cycles = drv.run(ops);
      // Without gaps and backpressure a pipelined unit takes one operation per cycle.
      if (a.stall_pct == 0 && a.gap_pct == 0 && u != U_DIVSQRT)
        sc.expect(cycles <= ops.size() + 4, "one operation per cycle at full rate", sim.cycle);
    }

    // 3. exhaustive unary operations of the 16-bit formats
    if (exhaustive && fp_width(kF) == 16) {
      const bool unary = u == U_DIVSQRT || u == U_DIVSQRT_UNROLLED || u == U_F2I ||
                         u == U_F2F_X1 || u == U_F2F_X2 || u == U_RTI;
      for (int rm = 0; rm < 5 && unary; rm++)
        for (int op = 0; op < 2; op++) {
          if ((u == U_F2F_X1 || u == U_F2F_X2) && op) continue;
          ops.clear();
          for (uint32_t x = 0; x < 65536; x++)
            ops.push_back({u, x, 0, 0, (u == U_DIVSQRT || u == U_DIVSQRT_UNROLLED) ? 1 : op, rm});
          drv.run(ops);
        }
    }

    // 4. reset with operations in flight, then a short clean run.
    ops.clear();
    for (int i = 0; i < 64; i++) ops.push_back(rand_op(u));
    drv.reset_midway(ops);
    drv.run(ops);

    std::printf("%s %-16s %ld operations checked\n", name, kUnitName[u], drv.checked - before);
  }
  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  return sc.finish();
}
