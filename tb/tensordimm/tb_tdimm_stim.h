// tb_tdimm_stim.h -- what the TensorDIMM harnesses (tb_tensordimm.cpp, tb_tensordimm_axi.cpp)
// share: the node's geometry from the build parameters, the random instruction stream and its
// memory image, and the DFI 1:4 connection of each core to its DDR4 device model.
//
// Random streams work in the first 2^kRndAw blocks of each DIMM (small memories: overlaps,
// read-after-write and bad rows are frequent): local blocks [0, 64) hold index lists (indices
// < 256, about 1% beyond), the rest data (fp32 in [-2, 2) in even blocks with ~10% specials,
// int32 words in odd ones). Bases are global (local * N), so aligned to nodeDim unless made bad
// on purpose.
#ifndef TB_TDIMM_STIM_H
#define TB_TDIMM_STIM_H

#include <cstdint>
#include <cstring>
#include <vector>

#include "tb_lib.h"
#include "tdimm_ddr4.h"
#include "tensordimm.h"

static const unsigned kN = TB_N;
static const unsigned kNdLog2 = (kN >= 128) ? 7 : (kN >= 64) ? 6 : (kN >= 32) ? 5 : (kN >= 16) ? 4
                                : (kN >= 8) ? 3 : (kN >= 4) ? 2 : (kN >= 2) ? 1 : 0;
static const unsigned kAw = TB_LocalAw;
static const unsigned kRndAw = TB_LocalAw < 13 ? TB_LocalAw : 13;
static const uint64_t kIdxBlocks = 64;

// Global base of a random local block in [lo, hi).
static inline uint32_t tdimm_rnd_base(uint64_t lo, uint64_t hi) {
  return static_cast<uint32_t>((lo + tb_rand() % (hi - lo)) << kNdLog2);
}

// One random instruction: every op, sub-op and type, k 1..3, counts 0..40, averageNum 1..6,
// in place and reading the previous instruction's output (prev may be null); with err_pct > 0
// also index lists read from data (bad rows), tables at the end of the memory, and in err_pct
// percent of the instructions an illegal field or range of every kind.
static inline tdimm_insn_t tdimm_rnd_insn(const tdimm_insn_t *prev, int err_pct) {
  const uint64_t cap = 1ull << kRndAw;
  unsigned k = 1 + tb_rand() % 3, type = tb_rand() % 2, count = tb_rand() % 41;
  if (tb_chance(5)) count = 0;
  tdimm_insn_t in;
  unsigned op = 1 + tb_rand() % 3;
  uint32_t out = tdimm_rnd_base(kIdxBlocks, cap - 128);
  if (op == TDIMM_OP_GATHER) {
    uint32_t idx = tdimm_rnd_base(0, kIdxBlocks - 3);
    if (err_pct && tb_chance(10)) idx = tdimm_rnd_base(kIdxBlocks, cap - 8);   // data as indices
    uint32_t table = tdimm_rnd_base(kIdxBlocks, cap - 256 * k - 8);
    if (err_pct && tb_chance(5)) table = tdimm_rnd_base(cap - 300, cap - 8);   // rows past the end
    in = tdimm_enc_gather(type, k, table, idx, out, count);
  } else if (op == TDIMM_OP_REDUCE) {
    uint32_t a = tdimm_rnd_base(kIdxBlocks, cap - 128), b = tdimm_rnd_base(kIdxBlocks, cap - 128);
    if (tb_chance(15)) out = a;                                  // in place
    if (prev && tb_chance(20)) a = prev->w[3];                   // read the previous output
    in = tdimm_enc_reduce(tb_rand() % 5, type, k, a, b, out, count);
  } else {
    unsigned avg = 1 + tb_rand() % 6;
    uint32_t a = tdimm_rnd_base(kIdxBlocks, cap - 40 * 3 * 6 - 8);
    if (tb_chance(15)) out = a;
    if (prev && tb_chance(20)) a = prev->w[3];
    in = tdimm_enc_average(type, k, a, avg, out, count);
  }
  switch (err_pct && tb_chance(err_pct) ? tb_rand() % 9 : 99) {
    case 0: in.w[0] = (in.w[0] & ~0xFu) | (tb_chance(50) ? 0 : 4 + tb_rand() % 12); break;
    case 1: in.w[0] |= (5 + tb_rand() % 11) << 4; break;
    case 2: in.w[0] |= 2u << 8; break;
    case 3: in.w[0] |= 1u << (10 + tb_rand() % 6); break;
    case 4: in.w[0] &= ~0xFF0000u; break;                        // k = 0
    case 5: in.w[4] |= 1u << 24; break;
    case 6: if (op == TDIMM_OP_AVERAGE) in.w[2] = tb_chance(50) ? 0 : 0x10001; break;
    case 7: if (kN > 1) in.w[1] += 1; break;                     // misaligned
    case 8: in.w[3] = static_cast<uint32_t>(((1ull << kAw) - 2) << kNdLog2); break;   // past the end
    default: break;
  }
  return in;
}

// The random memory image: calls load(global block, lanes) for every block of [0, 2^kRndAw) of
// every core.
template <class Load>
static inline void tdimm_rnd_memory(Load load) {
  const uint64_t cap = 1ull << kRndAw;
  static const uint32_t sp[] = {0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                0x7F800001u, 0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu, 1};
  for (uint64_t lb = 0; lb < cap; lb++)
    for (unsigned c = 0; c < kN; c++) {
      uint32_t v[16];
      for (unsigned l = 0; l < 16; l++) {
        if (lb < kIdxBlocks) v[l] = tb_chance(1) ? 200 + tb_rand_u32() % 10000 : tb_rand_u32() % 256;
        else if (tb_chance(10)) v[l] = sp[tb_rand() % 10];
        else if (lb & 1) v[l] = tb_rand_u32();
        else {
          float x = static_cast<float>(tb_rand_unit() * 4.0 - 2.0);
          std::memcpy(&v[l], &x, 4);
        }
      }
      load(lb * kN + c, v);
    }
}

// The DFI 1:4 ports of every core and one DDR4 device model per core.
struct TdimmDram {
  std::vector<tdimm_ddr4_t *> dev;
  std::vector<bool> rd_v;                    // read data to drive this cycle, per core
  std::vector<std::vector<uint32_t>> rd_d;
  bool init(unsigned ranks, unsigned col_lo_w) {
    tdimm_ddr4_params_t p;
    tdimm_ddr4_params_default(&p, ranks);
    rd_v.assign(kN, false);
    rd_d.assign(kN, std::vector<uint32_t>(16, 0));
    for (unsigned c = 0; c < kN; c++) {
      tdimm_ddr4_t *d = tdimm_ddr4_new(&p, col_lo_w);
      if (!d) return false;
      dev.push_back(d);
    }
    return true;
  }
  ~TdimmDram() {
    for (tdimm_ddr4_t *d : dev) tdimm_ddr4_free(d);
  }
  // The controller left reset: the DRAM re-initializes (banks closed, reads dropped, data kept).
  void reset() {
    for (unsigned c = 0; c < kN; c++) {
      tdimm_ddr4_reset(dev[c]);
      rd_v[c] = false;
    }
  }
  // Before eval(): this cycle's read data.
  template <class T>
  void drive(T *t) {
    for (unsigned c = 0; c < kN; c++) {
      tb_set_bits(t->dfi_rddata_valid_i, c, 1, rd_v[c] ? 1 : 0);
      for (unsigned l = 0; l < 16; l++) tb_set_bits(t->dfi_rddata_i, 512 * c + 32 * l, 32, rd_d[c][l]);
    }
  }
  // After eval(): this cycle's commands and write data into the devices (checked there), and
  // the read data of the next cycle. on_cmd(core, cmd) sees every phase's command word.
  template <class T, class OnCmd>
  void sample(T *t, OnCmd on_cmd) {
    for (unsigned c = 0; c < kN; c++) {
      uint32_t cmd[4], wd[16];
      for (unsigned p = 0; p < 4; p++) {
        cmd[p] = tb_get_bits(t->dfi_cmd_o, 104 * c + 26 * p, 26);
        on_cmd(c, cmd[p]);
      }
      for (unsigned l = 0; l < 16; l++) wd[l] = tb_get_bits(t->dfi_wrdata_o, 512 * c + 32 * l, 32);
      rd_v[c] = tdimm_ddr4_cycle(dev[c], cmd, wd, rd_d[c].data()) != 0;
    }
  }
};

#endif  // TB_TDIMM_STIM_H
