// tb_smx_rows.h -- Softermax harness helpers shared by the top and unit harnesses: the
// build-time configuration, random rows (sw/softermax workload distributions) and the
// splitting of a row into input beats.
#ifndef TB_SMX_ROWS_H
#define TB_SMX_ROWS_H

#include <algorithm>
#include <deque>
#include <vector>

#include "softermax.h"
#include "softermax/smx_workload.h"

#ifndef SMX_VEC
#define SMX_VEC 16
#endif
#ifndef SMX_MAXLEN
#define SMX_MAXLEN 384
#endif

#ifndef SMX_SUMFRAC
#define SMX_SUMFRAC 6
#endif

static const int kVec = SMX_VEC;
static const int kSumFrac = SMX_SUMFRAC;
static const int kMaxLen = SMX_MAXLEN;
static const int kCntW = [] {  // width of the cnt fields, clog2(Vec + 1)
  int w = 1;
  while ((1 << w) < kVec + 1) w++;
  return w;
}();

// The C model configuration matching the build's parameters.
static inline smx_cfg_t smx_tb_cfg(void) {
  smx_cfg_t c;
  smx_cfg_default(&c, kVec, kMaxLen);
  c.sum_frac = kSumFrac;
  return c;
}

// Splits a row into well-formed beats of kVec elements (the last one partial).
static inline void smx_row_beats(const std::vector<int32_t> &x, std::deque<smx_in_beat_t> *q) {
  int n = static_cast<int>(x.size());
  for (int s = 0; s * kVec < n; s++) {
    smx_in_beat_t b{};
    b.cnt = std::min(kVec, n - s * kVec);
    for (int j = 0; j < b.cnt; j++) b.x[j] = x[s * kVec + j];
    b.last = (s + 1) * kVec >= n;
    q->push_back(b);
  }
}

static inline std::vector<int32_t> rand_row(int n, smx_rng_t *r) {
  std::vector<int32_t> x(n);
  smx_gen_row(r, static_cast<int>(smx_rng_next(r) % SMX_DIST_COUNT), n, 8, 2, nullptr, x.data());
  return x;
}

static inline int rand_len(smx_rng_t *r) {
  uint64_t k = smx_rng_next(r) % 8;
  if (k == 0) return 1 + static_cast<int>(smx_rng_next(r) % kVec);
  if (k == 1) return kMaxLen;
  return 1 + static_cast<int>(smx_rng_next(r) % kMaxLen);
}

#endif  // TB_SMX_ROWS_H
