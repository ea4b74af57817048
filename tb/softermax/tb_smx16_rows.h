// tb_smx16_rows.h -- fp16 baseline harness helpers shared by the top and unit harnesses: the
// build-time configuration, random fp16 rows (the sw/softermax workload distributions converted
// to fp16, plus range stress and special values) and the splitting of a row into input beats.
#ifndef TB_SMX16_ROWS_H
#define TB_SMX16_ROWS_H

#include <algorithm>
#include <deque>
#include <vector>

#include "softermax_fp16.h"
#include "softermax/smx_workload.h"

#ifndef SMX_VEC
#define SMX_VEC 16
#endif
#ifndef SMX_MAXLEN
#define SMX_MAXLEN 384
#endif

static const int kVec = SMX_VEC;
static const int kMaxLen = SMX_MAXLEN;
static const int kCntW = [] {  // width of the cnt fields, clog2(Vec + 1)
  int w = 1;
  while ((1 << w) < kVec + 1) w++;
  return w;
}();

static inline smx16_cfg_t smx16_tb_cfg(void) {
  smx16_cfg_t c;
  c.vec = kVec;
  c.max_len = kMaxLen;
  return c;
}

// Splits a row into well-formed beats of kVec elements (the last one partial). With
// `garbage`, the unused lanes of a partial beat carry random codes (the unit must ignore them).
static inline void smx16_row_beats(const std::vector<uint16_t> &x, std::deque<smx16_in_beat_t> *q,
                                   smx_rng_t *garbage = nullptr) {
  int n = static_cast<int>(x.size());
  for (int s = 0; s * kVec < n; s++) {
    smx16_in_beat_t b{};
    b.cnt = std::min(kVec, n - s * kVec);
    for (int j = 0; j < kVec; j++)
      b.x[j] = j < b.cnt ? x[s * kVec + j]
               : garbage ? static_cast<uint16_t>(smx_rng_next(garbage))
                         : 0;
    b.last = (s + 1) * kVec >= n;
    q->push_back(b);
  }
}

// A random fp16 row: scores from one of the workload distributions (Q(8,16) before the fp16
// rounding, so mantissas are full), mostly at their natural attention-like scale, some rows
// scaled down (many equal-ish values) or up (large differences: exp underflow, big maxima), and
// now and then special values: masked (-inf) positions, +-0, subnormals, huge magnitudes, and
// rarely a NaN or +inf (those rows come out NaN, bit-exactly like the model).
static inline std::vector<uint16_t> rand_row16(int n, smx_rng_t *r) {
  std::vector<double> real(n);
  std::vector<int32_t> q(n);
  smx_gen_row(r, static_cast<int>(smx_rng_next(r) % SMX_DIST_COUNT), n, 24, 16, real.data(),
              q.data());
  static const double kScale[8] = {1, 1, 1, 1, 0.01, 0.125, 4, 64};
  double scale = kScale[smx_rng_next(r) % 8];
  std::vector<uint16_t> x(n);
  for (int i = 0; i < n; i++) x[i] = smx16_from_double(real[i] * scale);
  uint64_t k = smx_rng_next(r) % 64;
  if (k < 8) {  // attention masks: a run or scattered positions at -inf
    int a = static_cast<int>(smx_rng_next(r) % n), b = static_cast<int>(smx_rng_next(r) % n);
    if (a > b) std::swap(a, b);
    bool run = k < 4;
    for (int i = 0; i < n; i++)
      if (run ? (i >= a && i <= b) : smx_rng_next(r) % 3 == 0) x[i] = SMX16_NEG_INF;
  } else if (k < 10) {  // every position masked: d = 0, the row is NaN
    std::fill(x.begin(), x.end(), static_cast<uint16_t>(SMX16_NEG_INF));
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

static inline std::vector<uint16_t> f16_row(std::initializer_list<double> v) {
  std::vector<uint16_t> x;
  for (double d : v) x.push_back(smx16_from_double(d));
  return x;
}

#endif  // TB_SMX16_ROWS_H
