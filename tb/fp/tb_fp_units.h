// tb_fp_units.h -- drives the float units of fp_units_top (one format) or fp_all_top (all
// formats, fmt_i select) and checks every result and flag against the C reference (fpref.h).
//
// The unit numbering follows tb/fp/fp_units_top.v. An FpOp is one operation; FpDriver streams
// operations into one unit with random input gaps and output backpressure, keeps the expected
// results in a queue and compares each output beat, in order, as it leaves.
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "fpref.h"
#include "tb_lib.h"

enum FpUnit {
  U_ADD = 0, U_MUL, U_FMA, U_DIVSQRT, U_DIVSQRT_UNROLLED, U_CMP, U_I2F, U_F2I, U_F2F_X1, U_F2F_X2,
  U_RTI, U_COUNT
};
static const char *const kUnitName[U_COUNT] = {"add", "mul", "fma", "divsqrt", "divsqrt_unrolled",
                                               "cmp", "i2f", "f2i", "f2f_x1", "f2f_x2", "rti"};

// Formats: 0 fp16, 1 bf16, 2 fp32; X1/X2 are the two conversion targets of each format, as
// instantiated by the harness tops.
static const fp_fmt_t kFmt[3] = {{5, 10}, {8, 7}, {8, 23}};
static const char *const kFmtName[3] = {"f16", "bf16", "f32"};
static const int kX1[3] = {2, 2, 0};
static const int kX2[3] = {1, 0, 1};

struct FpOp {
  int unit;
  uint32_t a, b, c;
  // add: 1 = sub; divsqrt: 1 = sqrt; cmp: 0 eq 1 lt 2 le 3 min 4 max 5 eq_signaling 6 lt_quiet
  // 7 le_quiet; cvt: 1 = signed; rti: 1 = exact
  int op;
  int rm;  // 0..4, 5..7 reserved (clean error)
  // Vector checker: the expected result comes from the vector file instead of fpref.
  bool has_expected = false;
  uint32_t exp_value = 0;
  unsigned exp_flags = 0;
  long line = 0;
  unsigned flag_mask = 0x1F;  // flags compared (TestFloat -notexact drops NX of to-int)
};

struct FpResult {
  uint32_t value;
  unsigned flags;
};

static inline int fp_width(int fmt) { return kFmt[fmt].ew + kFmt[fmt].mw + 1; }

// The reference for one operation of format fmt.
static inline FpResult fp_reference(int fmt, const FpOp &o) {
  const fp_fmt_t f = kFmt[fmt];
  FpResult r{0, 0};
  const fp_rm_t rm = static_cast<fp_rm_t>(o.rm);
  if (o.rm > 4 && o.unit != U_CMP) {  // reserved rounding mode
    r.flags = FP_FLAG_NV;
    if (o.unit == U_F2I) r.value = (o.op & 1) ? 0x7FFFFFFFu : 0xFFFFFFFFu;
    else if (o.unit == U_F2F_X1) r.value = fpref_canonical_nan(kFmt[kX1[fmt]]);
    else if (o.unit == U_F2F_X2) r.value = fpref_canonical_nan(kFmt[kX2[fmt]]);
    else r.value = fpref_canonical_nan(f);
    return r;
  }
  switch (o.unit) {
    case U_ADD:
      r.value = o.op & 1 ? fpref_sub(f, o.a, o.b, rm, &r.flags) : fpref_add(f, o.a, o.b, rm, &r.flags);
      break;
    case U_MUL: r.value = fpref_mul(f, o.a, o.b, rm, &r.flags); break;
    case U_FMA: r.value = fpref_fma(f, o.a, o.b, o.c, rm, &r.flags); break;
    case U_DIVSQRT:
    case U_DIVSQRT_UNROLLED:
      r.value = o.op & 1 ? fpref_sqrt(f, o.a, rm, &r.flags) : fpref_div(f, o.a, o.b, rm, &r.flags);
      break;
    case U_CMP:
      switch (o.op) {
        case 0: r.value = fpref_eq(f, o.a, o.b, &r.flags); break;
        case 1: r.value = fpref_lt(f, o.a, o.b, &r.flags); break;
        case 2: r.value = fpref_le(f, o.a, o.b, &r.flags); break;
        case 3: r.value = fpref_min(f, o.a, o.b, &r.flags); break;
        case 4: r.value = fpref_max(f, o.a, o.b, &r.flags); break;
        case 5: r.value = fpref_eq_signaling(f, o.a, o.b, &r.flags); break;
        case 6: r.value = fpref_lt_quiet(f, o.a, o.b, &r.flags); break;
        default: r.value = fpref_le_quiet(f, o.a, o.b, &r.flags); break;
      }
      break;
    case U_RTI: r.value = fpref_round_to_int(f, o.a, rm, o.op & 1, &r.flags); break;
    case U_I2F:
      r.value = o.op & 1 ? fpref_i32_to_f(f, static_cast<int32_t>(o.a), rm, &r.flags)
                         : fpref_u32_to_f(f, o.a, rm, &r.flags);
      break;
    case U_F2I:
      r.value = o.op & 1 ? static_cast<uint32_t>(fpref_f_to_i32(f, o.a, rm, &r.flags))
                         : fpref_f_to_u32(f, o.a, rm, &r.flags);
      break;
    case U_F2F_X1: r.value = fpref_f_to_f(f, kFmt[kX1[fmt]], o.a, rm, &r.flags); break;
    case U_F2F_X2: r.value = fpref_f_to_f(f, kFmt[kX2[fmt]], o.a, rm, &r.flags); break;
    default: break;
  }
  return r;
}

static inline std::string fp_op_text(int fmt, const FpOp &o) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %s op=%d rm=%d a=%08X b=%08X c=%08X", kFmtName[fmt],
                kUnitName[o.unit], o.op, o.rm, o.a, o.b, o.c);
  return buf;
}

// Streams operations through one unit of a harness top T (ports of fp_units_top).
template <class T>
class FpDriver {
 public:
  FpDriver(TbSim<T> &sim, TbScore &sc, const TbArgs &a, int fmt)
      : sim_(sim), sc_(sc), fmt_(fmt), gap_(a.gap_pct), stall_(a.stall_pct) {}

  void set_format(int fmt) { fmt_ = fmt; }

  long checked = 0;
  long mismatches_printed = 0;
  bool verbose = false;  // print every mismatch with its operation
  // Vector checker (tb/fp_vectors): judges and reports each result itself (TestFloat's rules and
  // format) and returns true when it passes; the driver then only counts.
  bool (*judge)(void *ctx, const FpOp &o, uint32_t value, unsigned flags) = nullptr;
  void *judge_ctx = nullptr;
  long max_fail = 0;  // run() stops once the score has this many failures (0: no limit)
  bool limit_reached() const { return max_fail > 0 && sc_.fail >= max_fail; }

  void set_pressure(int gap, int stall) { gap_.pct = gap; stall_.pct = stall; }

  // Runs ops (all on one unit) to completion, checking each result in order; returns the
  // cycles it took.
  uint64_t run(const std::vector<FpOp> &ops) {
    if (ops.empty()) return 0;
    const uint64_t start = sim_.cycle;
    const int u = ops[0].unit;
    const uint32_t bit = 1u << u;
    size_t next = 0;
    std::deque<size_t> inflight;
    uint64_t idle = 0;
    bool offered = false;
    while ((next < ops.size() || !inflight.empty()) && !sim_.timed_out && !limit_reached()) {
      T *t = sim_.top;
      // Hold rule: an offered operation stays offered (same operands) until it is taken.
      const bool offer = next < ops.size() && (offered || !gap_.next());
      offered = offer;
      if (offer) {
        const FpOp &o = ops[next];
        t->a_i = o.a; t->b_i = o.b; t->c_i = o.c;
        t->op_i = o.op; t->rm_i = o.rm;
      }
      t->in_valid_i = offer ? bit : 0;
      t->out_ready_i = stall_.next() ? 0 : bit;
      t->eval();
      const bool in_fire = offer && (t->in_ready_o & bit);
      const bool out_fire = (t->out_valid_o & bit) && (t->out_ready_i & bit);
      if (in_fire) {  // first: a Latency 0 unit answers in the same cycle
        inflight.push_back(next++);
        offered = false;
      }
      if (out_fire) {
        if (inflight.empty()) {
          sc_.expect(false, "output with no operation in flight", sim_.cycle);
        } else {
          compare(ops[inflight.front()], tb_get_bits(t->result_o, u * 32, 32),
                  tb_get_bits(t->flags_o, u * 5, 5));
          inflight.pop_front();
        }
        idle = 0;
      } else if (++idle > 1000) {
        sc_.expect(false, "unit stopped answering", sim_.cycle);
        return sim_.cycle - start;
      }
      sim_.tick();
    }
    sim_.top->in_valid_i = 0;
    return sim_.cycle - start;
  }

  // Reset with operations in flight: everything in flight is dropped and no output may appear.
  void reset_midway(const std::vector<FpOp> &ops) {
    T *t = sim_.top;
    const int u = ops[0].unit;
    const uint32_t bit = 1u << u;
    t->out_ready_i = 0;
    for (size_t i = 0, k = 0; k < 3 && i < ops.size(); k++) {  // hold until taken
      t->a_i = ops[i].a; t->b_i = ops[i].b; t->c_i = ops[i].c;
      t->op_i = ops[i].op; t->rm_i = ops[i].rm;
      t->in_valid_i = bit;
      t->eval();
      if (t->in_ready_o & bit) i++;
      sim_.tick();
    }
    t->in_valid_i = 0;
    sim_.reset(2);
    t->eval();
    sc_.expect((t->out_valid_o & bit) == 0, "no output right after a mid-operation reset", sim_.cycle);
    for (int i = 0; i < 40; i++) {
      t->out_ready_i = bit;
      sim_.tick();
      sc_.expect((t->out_valid_o & bit) == 0, "no stale output after reset", sim_.cycle);
    }
  }

 private:
  void compare(const FpOp &o, uint32_t value, unsigned flags) {
    flags &= o.flag_mask;
    checked++;
    if (judge) {
      if (judge(judge_ctx, o, value, flags)) sc_.pass++;
      else sc_.fail++;
      return;
    }
    const FpResult e = o.has_expected ? FpResult{o.exp_value, o.exp_flags} : fp_reference(fmt_, o);
    const bool ok = e.value == value && e.flags == flags;
    if (ok) {
      sc_.pass++;
      return;
    }
    sc_.fail++;
    if (verbose || sc_.fail <= sc_.max_print)
      std::printf("MISMATCH%s%.0ld %s: expected %08X flags %02X, got %08X flags %02X\n",
                  o.line ? " line " : "", o.line, fp_op_text(fmt_, o).c_str(), e.value, e.flags,
                  value, flags);
  }

  TbSim<T> &sim_;
  TbScore &sc_;
  int fmt_;
  TbStall gap_, stall_;
};
