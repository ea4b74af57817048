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
#ifndef SMX_INWIDTH
#define SMX_INWIDTH 8
#endif
#ifndef SMX_INFRAC
#define SMX_INFRAC 2
#endif
#ifndef SMX_RECIPSEG
#define SMX_RECIPSEG 2
#endif

static const int kVec = SMX_VEC;
static const int kSumFrac = SMX_SUMFRAC;
static const int kInWidth = SMX_INWIDTH;
static const int kInFrac = SMX_INFRAC;
static const uint32_t kInMask = (1u << SMX_INWIDTH) - 1;           // one input lane
static const uint32_t kMMask = (1u << (SMX_INWIDTH - SMX_INFRAC + 1)) - 1;  // the max field
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
  c.in_width = kInWidth;
  c.in_frac = kInFrac;
  c.recip_seg_bits = SMX_RECIPSEG;
  return c;
}

// Splits a row into well-formed beats of kVec elements (the last one partial). With
// `garbage`, the unused lanes of a partial beat carry random codes (the unit must ignore them).
static inline void smx_row_beats(const std::vector<int32_t> &x, std::deque<smx_in_beat_t> *q,
                                 smx_rng_t *garbage = nullptr) {
  int n = static_cast<int>(x.size());
  for (int s = 0; s * kVec < n; s++) {
    smx_in_beat_t b{};
    b.cnt = std::min(kVec, n - s * kVec);
    for (int j = 0; j < kVec; j++)
      b.x[j] = j < b.cnt ? x[s * kVec + j]
               : garbage ? static_cast<int32_t>(smx_rng_next(garbage) & kInMask) - (1 << (kInWidth - 1))
                         : 0;
    b.last = (s + 1) * kVec >= n;
    q->push_back(b);
  }
}

static inline std::vector<int32_t> rand_row(int n, smx_rng_t *r) {
  std::vector<int32_t> x(n);
  smx_gen_row(r, static_cast<int>(smx_rng_next(r) % SMX_DIST_COUNT), n, kInWidth, kInFrac, nullptr,
              x.data());
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

#endif  // TB_SMX_ROWS_H
