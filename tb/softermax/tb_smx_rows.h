// tb_smx_rows.h -- Softermax harness helpers shared by the top and unit harnesses of both
// number formats: the build-time configuration, random rows (the sw/softermax workload
// distributions) and the splitting of a row into input beats.
//
// One harness source serves a unit level in both formats; the format comes from the top the
// harness is built for (rtl/softermax/block.toml): Softermax's tops have an input format
// (TB_InWidth, TB_InFrac, TB_SumFrac), the fp16 baseline's tops have none. SMX_FP16 is 1 for
// the baseline. The C model is one (softermax.h), its cfg.fmt set to match; rows are vectors
// of input codes (Softermax: signed Q(InWidth - InFrac, InFrac) codes; fp16: bit patterns).
#ifndef TB_SMX_ROWS_H
#define TB_SMX_ROWS_H

#include <algorithm>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <vector>

#include "softermax.h"
#include "softermax_fp16.h"
#include "softermax/smx_workload.h"

#ifdef TB_InWidth
#define SMX_FP16 0
#else
#define SMX_FP16 1
#endif

// Build parameters: TB_<Param> for every integer parameter of the top (rtl/softermax/block.toml).
static const int kVec = TB_Vec;
static const int kMaxLen = TB_MaxLen;
static const int kCntW = [] {  // width of the cnt fields, clog2(Vec + 1)
  int w = 1;
  while ((1 << w) < kVec + 1) w++;
  return w;
}();
#if SMX_FP16
static const int kInWidth = SMX16_BITS;   // one input lane
static const int kUWidth = SMX16_BITS;    // one lane of the unnormed unit's output
static const int kOutWidth = SMX16_BITS;  // one output lane
static const int kMWidth = SMX16_BITS;    // the max field
#define SMX_OUT_U out_e_o                 // the unnormed unit's lane values, e = exp(x - m)
#define SMX_SLC_U slc_e_i
#else
static const int kSumFrac = TB_SumFrac;
static const int kInWidth = TB_InWidth;
static const int kInFrac = TB_InFrac;
static const int kUWidth = SMX_U_BITS;
static const int kOutWidth = SMX_Y_BITS;
static const int kMWidth = TB_InWidth - TB_InFrac + 1;
#define SMX_OUT_U out_u_o                 // u = 2^(x - m)
#define SMX_SLC_U slc_u_i
#endif
static const uint32_t kInMask = (1u << kInWidth) - 1;
static const uint32_t kMMask = (1u << kMWidth) - 1;

typedef std::vector<int32_t> SmxRow;  // one row of input codes

// The C model configuration matching the build's parameters.
static inline smx_cfg_t smx_tb_cfg(void) {
  smx_cfg_t c;
#if SMX_FP16
  smx16_cfg_default(&c, kVec, kMaxLen);
#else
  smx_cfg_default(&c, kVec, kMaxLen);
  c.sum_frac = kSumFrac;
  c.in_width = kInWidth;
  c.in_frac = kInFrac;
#ifdef TB_RecipSegBits
  c.recip_seg_bits = TB_RecipSegBits;
#endif  // else a top without a reciprocal (the unnormed unit): the model default, unused
#endif
  return c;
}

// The harness's first lines: the build configuration.
static inline void smx_tb_print_config(void) {
#if SMX_FP16
  std::printf("config: Vec=%d MaxLen=%d\n", kVec, kMaxLen);
#else
  std::printf("config: Vec=%d MaxLen=%d SumFrac=%d\n", kVec, kMaxLen, kSumFrac);
#endif
}

// A random input code (the unused lanes of a partial beat carry them).
static inline int32_t smx_garbage_code(smx_rng_t *r) {
#if SMX_FP16
  return static_cast<uint16_t>(smx_rng_next(r));
#else
  return static_cast<int32_t>(smx_rng_next(r) & kInMask) - (1 << (kInWidth - 1));
#endif
}

// Splits a row into well-formed beats of kVec elements (the last one partial). With
// `garbage`, the unused lanes of a partial beat carry random codes (the unit must ignore them).
static inline void smx_row_beats(const SmxRow &x, std::deque<smx_in_beat_t> *q,
                                 smx_rng_t *garbage = nullptr) {
  int n = static_cast<int>(x.size());
  for (int s = 0; s * kVec < n; s++) {
    smx_in_beat_t b{};
    b.cnt = std::min(kVec, n - s * kVec);
    for (int j = 0; j < kVec; j++)
      b.x[j] = j < b.cnt ? x[s * kVec + j] : garbage ? smx_garbage_code(garbage) : 0;
    b.last = (s + 1) * kVec >= n;
    q->push_back(b);
  }
}

#if SMX_FP16
// A random fp16 row: scores from one of the workload distributions (Q(8,16) before the fp16
// rounding, so mantissas are full), mostly at their natural attention-like scale, some rows
// scaled down (many equal-ish values) or up (large differences: exp underflow, big maxima), and
// now and then special values: masked (-inf) positions, +-0, subnormals, huge magnitudes, and
// rarely a NaN or +inf (those rows come out NaN, bit-exactly like the model).
static inline SmxRow rand_row(int n, smx_rng_t *r) {
  std::vector<double> real(n);
  std::vector<int32_t> q(n);
  smx_gen_row(r, static_cast<int>(smx_rng_next(r) % SMX_DIST_COUNT), n, 24, 16, real.data(),
              q.data());
  static const double kScale[8] = {1, 1, 1, 1, 0.01, 0.125, 4, 64};
  double scale = kScale[smx_rng_next(r) % 8];
  SmxRow x(n);
  for (int i = 0; i < n; i++) x[i] = smx16_from_double(real[i] * scale);
  uint64_t k = smx_rng_next(r) % 64;
  if (k < 8) {  // attention masks: a run or scattered positions at -inf
    int a = static_cast<int>(smx_rng_next(r) % n), b = static_cast<int>(smx_rng_next(r) % n);
    if (a > b) std::swap(a, b);
    bool run = k < 4;
    for (int i = 0; i < n; i++)
      if (run ? (i >= a && i <= b) : smx_rng_next(r) % 3 == 0) x[i] = SMX16_NEG_INF;
  } else if (k < 10) {  // every position masked: d = 0, the row is NaN
    std::fill(x.begin(), x.end(), static_cast<int32_t>(SMX16_NEG_INF));
  } else if (k < 14) {  // zeros, subnormals and huge magnitudes
    static const uint16_t kSpecial[8] = {0x0000, 0x8000, 0x0001, 0x83FF,
                                         0x7BFF, 0xFBFF, 0x7800, 0xF000};
    int m = 1 + static_cast<int>(smx_rng_next(r) % 4);
    for (int i = 0; i < m; i++) x[smx_rng_next(r) % n] = kSpecial[smx_rng_next(r) % 8];
  } else if (k == 14) {  // NaN or +inf: IEEE propagation
    x[smx_rng_next(r) % n] = smx_rng_next(r) % 2 ? 0x7E01 : SMX16_POS_INF;
  }
  return x;
}

static inline SmxRow f16_row(std::initializer_list<double> v) {
  SmxRow x;
  for (double d : v) x.push_back(smx16_from_double(d));
  return x;
}
#else
// A random row of one of the workload distributions in the build's input format.
static inline SmxRow rand_row(int n, smx_rng_t *r) {
  SmxRow x(n);
  smx_gen_row(r, static_cast<int>(smx_rng_next(r) % SMX_DIST_COUNT), n, kInWidth, kInFrac, nullptr,
              x.data());
  return x;
}
#endif

static inline int rand_len(smx_rng_t *r) {
  uint64_t k = smx_rng_next(r) % 8;
  if (k == 0) return 1 + static_cast<int>(smx_rng_next(r) % kVec);
  if (k == 1) return kMaxLen;
  return 1 + static_cast<int>(smx_rng_next(r) % kMaxLen);
}

// A row length over MaxLen: half of them by exactly one element, the rest by up to 2 slices.
static inline int rand_overlong_len(smx_rng_t *r) {
  return kMaxLen + 1 + (smx_rng_next(r) % 2 ? 0 : static_cast<int>(smx_rng_next(r) % (2 * kVec)));
}

#endif  // TB_SMX_ROWS_H
