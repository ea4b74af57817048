// tb_tensordimm.cpp -- Verilator harness of the TensorNode (rtl/tensordimm/tensordimm.v) against
// the golden model (cmodel/tensordimm) with one DDR4-3200 device model and JEDEC timing checker
// per DIMM (cmodel/tensordimm/tdimm_ddr4.c) on each core's DFI 1:4 port.
//
// Modes:
//   (default)          +n random instructions over small memories (every op, sub-op, type,
//                      k 1..3, counts 0..40, averageNum 1..6, in-place and read-after-write
//                      chains, GATHER index lists with bad rows, illegal fields, protection
//                      windows changed between instructions), random instruction gaps (+gap)
//                      and retire backpressure (+stall), a random refresh phase, and one reset
//                      in the middle of an instruction (+reset=0 turns it off)
//   +workload=FILE     the instructions and memory image of a workload file (sw/tensordimm)
//   +dir[=1]           directed tests (tb_tdimm_directed below)
//   +fault=F           dbg_fault_i = F (1 tRCD, 2 tFAW, 3 read CAS spacing, 4 refresh): passes
//                      when the timing checker reports violations (data is not checked)
// Checks: every instruction's node status, error mask and per-core rows against the model;
// every output block of every instruction (when it retires) and, at the end, every block the
// DRAM holds against the model; zero timing violations. Prints a statistics line
// ("tensordimm: ...") for the bench and the main job, and the result line.
// Build parameters: TB_N, TB_LocalAw, TB_Ranks, TB_ColLoW, TB_Depth, TB_CDepth, TB_RqDepth,
// TB_WrHigh, TB_WrLow (rtl/tensordimm/block.toml).
#include "Vtensordimm.h"
#include "tb_lib.h"

#include <cinttypes>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "tb_tdimm_stim.h"
#include "tdimm_ddr4.h"
#include "tensordimm/tdimm_rt.h"
#include "tensordimm.h"

typedef Vtensordimm Top;

struct Pending {        // an instruction sent to the RTL, with the model's outcome
  tdimm_insn_t insn;
  tdimm_result_t res;
  uint64_t id;
  // output ranges (local, per core all equal) and the old contents, for the reset check
  uint64_t out_lo, out_n;
};

struct Tb {
  TbSim<Top> *sim;
  Top *t;
  TbScore *sc;
  tdimm_node_t *model;
  TdimmDram dram;
  int fault = 0;
  uint64_t blocks_checked = 0;
  uint64_t busy_cycles = 0;               // cycles with an instruction in the node
  uint64_t wmode_cycles = 0;
  uint64_t switches = 0;                  // read-write turnarounds on the data bus (RD<->WR)
  std::vector<int> last_cas;              // per core: 2 RD, 3 WR, 0 none yet

  // One clock: drive read data, sample the DFI port into the devices, rising edge.
  void step() {
    dram.drive(t);
    t->eval();
    dram.sample(t, [this](unsigned c, uint32_t cmd) {
      const int op = static_cast<int>(cmd >> 23);
      if (op == TDIMM_DDR4_RD || op == TDIMM_DDR4_WR) {
        if (last_cas[c] && last_cas[c] != op) switches++;
        last_cas[c] = op;
      }
    });
    for (unsigned c = 0; c < kN; c++)
      if (t->wmode_o >> c & 1) wmode_cycles++;
    if (t->busy_o) busy_cycles++;
    sim->tick();
  }
  // Asynchronous reset of the RTL; the devices re-initialize (banks closed, data kept).
  void reset() {
    t->rst_ni = 0;
    t->eval();
    for (int i = 0; i < 3; i++) sim->tick();
    t->rst_ni = 1;
    t->eval();
    dram.reset();
  }
  // Loads global block b into the model and the device of its core.
  void load(uint64_t gb, const uint32_t *lanes) {
    std::memcpy(tdimm_gblock(model, gb), lanes, 64);
    std::memcpy(tdimm_ddr4_block(dram.dev[gb & (kN - 1)], gb >> kNdLog2), lanes, 64);
  }
  // Compares local block lb of core c (device against model).
  bool cmp_block(unsigned c, uint64_t lb, uint64_t id) {
    const uint32_t *m = tdimm_block(model, c, lb);
    const uint32_t *d = tdimm_ddr4_peek(dram.dev[c], lb);
    static const uint32_t zero[16] = {0};
    if (!d) d = zero;
    blocks_checked++;
    for (unsigned l = 0; l < 16; l++)
      if (m[l] != d[l]) {
        char what[96];
        std::snprintf(what, sizeof what, "core %u block 0x%" PRIx64 " lane %u", c, lb, l);
        sc->check(what, id, m[l], d[l]);
        return false;
      }
    sc->check("block", id, 0, 0);
    return true;
  }
  void cfg_write(unsigned core, unsigned reg, uint32_t data) {
    t->cfg_valid_i = 1;
    t->cfg_core_i = core;
    t->cfg_reg_i = reg;
    t->cfg_data_i = data;
    step();
    t->cfg_valid_i = 0;
  }
};

static void load_cb(void *ctx, uint64_t gb, const uint32_t lanes[16]) {
  static_cast<Tb *>(ctx)->load(gb, lanes);
}
struct FinalCtx {
  Tb *tb;
  unsigned core;
  long bad;
};
static void final_cb(void *ctx, uint64_t lb, const uint32_t *data) {
  FinalCtx *f = static_cast<FinalCtx *>(ctx);
  const uint32_t *m = tdimm_block(f->tb->model, f->core, lb);
  if (std::memcmp(m, data, 64) != 0) {
    if (f->bad < 4)
      std::fprintf(stderr, "final image: core %u block 0x%" PRIx64 " lane0 model %08x dram %08x\n",
                   f->core, lb, m[0], data[0]);
    f->bad++;
  }
}

// Output range of an instruction in local blocks (nothing for a count of 0 or a decode error).
static void out_range(const tdimm_insn_t &in, uint64_t *lo, uint64_t *n) {
  tdimm_fields_t f = tdimm_dec(&in);
  *lo = f.out_base >> kNdLog2;
  *n = (uint64_t)f.count * f.k;
  if (*n > (1ull << kAw)) *n = 0;
}

// ---------------------------------------------------------------- directed tests
// Core 0's view (every core runs the same; bases are global = local * N). Memory: index blocks
// at local 0..4, a table at local 1024, data above; core 0's protection window [0, 3584).
// Each instruction carries the status it is meant to produce: the model must agree (this checks
// the test) and the RTL must match the model (status, rows, every output block).
struct Directed {
  tdimm_insn_t in;
  unsigned intent;
};
static const uint64_t kDirWin = 3584, kDirTable = 1024;
static void directed_memory(Tb &tb) {
  for (uint64_t lb = 0; lb < (1ull << kRndAw); lb++)
    for (unsigned c = 0; c < kN; c++) {
      uint32_t v[16];
      for (unsigned l = 0; l < 16; l++) {
        if (lb < 5) v[l] = (uint32_t)(lb * 16 + l) % 40;       // rows 0..39
        else if (lb & 1) v[l] = tb_rand_u32();
        else {
          float x = (float)(tb_rand_unit() * 8.0 - 4.0);
          std::memcpy(&v[l], &x, 4);
        }
      }
      if (lb == 2) v[5] = (uint32_t)((1ull << kAw) - kDirTable + 5);   // row beyond the DIMM
      if (lb == 3) v[7] = (uint32_t)(kDirWin + 10 - kDirTable);   // row outside the window
      if (lb == 4) v[3] = (uint32_t)(2048 + 5 - kDirTable);    // row inside the output
      tb.load(lb * kN + c, v);
    }
}
static std::vector<Directed> directed_insns() {
  const uint32_t N = kN;
  auto g = [N](uint64_t lb) { return (uint32_t)(lb * N); };
  std::vector<Directed> d;
  const uint32_t T = g(kDirTable), O = g(2048);
  // GATHER: k = 1, k = 3 with a count that is not a multiple of 16, int32
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(0), O, 16), TDIMM_OK});
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 3, T, g(0), O, 21), TDIMM_OK});
  d.push_back({tdimm_enc_gather(TDIMM_T_INT32, 2, T, g(0), O, 33), TDIMM_OK});
  // bad rows in the middle: CAPACITY at row 5, WINDOW at row 7, OVERLAP at row 3
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(2), O, 20), TDIMM_E_CAPACITY});
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(0), O, 4), TDIMM_OK});
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(3), O, 16), TDIMM_E_WINDOW});
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(4), O, 16), TDIMM_E_OVERLAP});
  // REDUCE: every sub-op and type, k = 2
  for (unsigned ty = 0; ty < 2; ty++)
    for (unsigned so = 0; so < 5; so++)
      d.push_back({tdimm_enc_reduce(so, ty, 2, g(1100), g(1300), g(2500 + 20 * so), 5), TDIMM_OK});
  // AVERAGE: averageNum 1, 3; int32 (negative sums truncate toward zero); k = 2
  d.push_back({tdimm_enc_average(TDIMM_T_FP32, 1, g(1101), 1, g(2700), 7), TDIMM_OK});
  d.push_back({tdimm_enc_average(TDIMM_T_FP32, 2, g(1200), 3, g(2720), 5), TDIMM_OK});
  d.push_back({tdimm_enc_average(TDIMM_T_INT32, 2, g(1201), 4, g(2740), 5), TDIMM_OK});
  // read after write through memory: REDUCE writes 2800.., AVERAGE and GATHER read it back
  d.push_back({tdimm_enc_reduce(TDIMM_SUB_MUL, TDIMM_T_FP32, 1, g(1400), g(1500), g(2800), 30), TDIMM_OK});
  d.push_back({tdimm_enc_average(TDIMM_T_FP32, 1, g(2800), 3, g(2900), 10), TDIMM_OK});
  d.push_back({tdimm_enc_gather(TDIMM_T_FP32, 1, g(2800), g(0), g(2950), 30), TDIMM_OK});
  // in place
  d.push_back({tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, g(1600), g(1700), g(1600), 20), TDIMM_OK});
  d.push_back({tdimm_enc_average(TDIMM_T_FP32, 1, g(1800), 4, g(1800), 8), TDIMM_OK});
  d.push_back({tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, g(1600), g(1600), g(3000), 0), TDIMM_OK});
  // every decode error, each followed by a good instruction
  tdimm_insn_t x = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, g(1100), g(1300), g(3100), 4);
  const Directed good = {x, TDIMM_OK};
  auto bad = [&](tdimm_insn_t in, unsigned e) { d.push_back({in, e}); d.push_back(good); };
  tdimm_insn_t y = x; y.w[0] &= ~0xFu; bad(y, TDIMM_E_OPCODE);
  y = x; y.w[0] = (y.w[0] & ~0xFu) | 7; bad(y, TDIMM_E_OPCODE);
  bad(tdimm_enc_reduce(5, TDIMM_T_FP32, 1, g(1100), g(1300), g(3100), 4), TDIMM_E_SUBOP);
  y = tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(0), O, 4); y.w[0] |= 1u << 4; bad(y, TDIMM_E_SUBOP);
  bad(tdimm_enc_reduce(TDIMM_SUB_ADD, 2, 1, g(1100), g(1300), g(3100), 4), TDIMM_E_TYPE);
  y = x; y.w[0] |= 1u << 12; bad(y, TDIMM_E_FIELD);
  y = x; y.w[0] |= 1u << 30; bad(y, TDIMM_E_FIELD);
  bad(tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 0, g(1100), g(1300), g(3100), 4), TDIMM_E_FIELD);
  y = x; y.w[4] = 1u << 24; bad(y, TDIMM_E_FIELD);
  bad(tdimm_enc_average(TDIMM_T_FP32, 1, g(1200), 0, g(3100), 4), TDIMM_E_AVGNUM);
  y = tdimm_enc_average(TDIMM_T_FP32, 1, g(1200), 1, g(3100), 4); y.w[2] = 0x10000; bad(y, TDIMM_E_AVGNUM);
  bad(tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, g(1100), g(1300), g((1ull << kAw) - 2), 4), TDIMM_E_CAPACITY);
  bad(tdimm_enc_average(TDIMM_T_FP32, 1, g(kDirWin - 8), 4, g(3100), 4), TDIMM_E_WINDOW);
  bad(tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, g(1100), g(1300), g(1302), 4), TDIMM_E_OVERLAP);
  bad(tdimm_enc_gather(TDIMM_T_FP32, 1, T, g(0), g(0), 4), TDIMM_E_OVERLAP);   // same start
  return d;
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_tensordimm", 2000, &a,
          {{"workload", "=<file>: a workload file (sw/tensordimm)"},
           {"dir", "[=1]: the directed tests"},
           {"fault", "=F: seeded DDR4 fault (1 tRCD, 2 tFAW, 3 read CAS spacing, 4 refresh)"},
           {"reset", "=0|1: random test, a reset mid-instruction (default 1)"}});
  const char *wl_path = tb_plusarg("workload");
  const bool directed = tb_plusarg_flag("dir", false);
  const bool do_reset = !wl_path && !directed && tb_plusarg_flag("reset", true);
  const bool windows = !wl_path && !directed;

  Tb tb;
  TbSim<Top> sim(a, 1ull << 40);   // the real timeout is set once the workload is known
  TbScore sc("tensordimm");
  tb.sim = &sim;
  tb.t = sim.top;
  tb.sc = &sc;
  tb.fault = static_cast<int>(tb_plusarg_num("fault", 0, 4, 0));
  tb.last_cas.assign(kN, 0);
  if (!tb.dram.init(TB_Ranks, TB_ColLoW)) {
    std::fprintf(stderr, "tb_tensordimm: bad DDR4 parameters\n");
    return 2;
  }

  // ---- the instruction stream and the memory image
  tdimm_cfg_t cfg;
  tdimm_cfg_default(&cfg, kNdLog2, kAw);
  std::vector<tdimm_insn_t> insns;
  tdimm_wl_t wl;
  bool have_wl = false;
  if (wl_path) {
    char err[256];
    if (tdimm_wl_read(wl_path, &wl, err, sizeof err) != 0) {
      std::fprintf(stderr, "tb_tensordimm: %s\n", err);
      return 2;
    }
    have_wl = true;
    if (wl.nd_log2 != kNdLog2 || wl.local_aw > kAw) {
      std::fprintf(stderr, "tb_tensordimm: workload is for nodeDim %u, local_aw %u; this build has "
                   "%u cores of 2^%u blocks\n", 1u << wl.nd_log2, wl.local_aw, kN, kAw);
      return 2;
    }
    for (unsigned c = 0; c < kN; c++) {   // the build's capacity; the workload's windows
      cfg.core[c] = wl.cfg.core[c];
      if (cfg.core[c].win_limit == (1ull << wl.local_aw) && wl.local_aw < kAw)
        cfg.core[c].win_limit = 1ull << kAw;
    }
    insns.assign(wl.insn, wl.insn + wl.n_insn);
  }
  std::vector<Directed> dirs;
  if (directed) {
    dirs = directed_insns();
    for (const Directed &x : dirs) insns.push_back(x.in);
    cfg.core[0].win_limit = kDirWin;
  }
  tb.model = tdimm_node_new(&cfg);
  if (!tb.model) {
    std::fprintf(stderr, "tb_tensordimm: model: bad configuration\n");
    return 2;
  }
  Top *t = sim.top;
  t->dbg_fault_i = tb.fault;
  t->cfg_valid_i = 0;
  t->insn_valid_i = 0;
  t->done_ready_i = 0;
  tb.reset();
  if (have_wl) {
    tdimm_wl_foreach_block(&wl, load_cb, &tb);
    for (unsigned c = 0; c < kN; c++) {
      if (cfg.core[c].win_base != 0) tb.cfg_write(c, 2, (uint32_t)cfg.core[c].win_base);
      if (cfg.core[c].win_limit != (1ull << kAw)) tb.cfg_write(c, 3, (uint32_t)cfg.core[c].win_limit);
    }
  } else if (directed) {
    directed_memory(tb);
    tb.cfg_write(0, 3, (uint32_t)kDirWin);
  } else {
    tdimm_rnd_memory([&tb](uint64_t gb, const uint32_t *v) { tb.load(gb, v); });
  }
  const bool listed = have_wl || directed;   // a fixed instruction list
  const long n_insn = listed ? (long)insns.size() : a.n;
  sim.timeout = a.timeout ? a.timeout : 200000 + 2000ull * (uint64_t)n_insn;
  if (have_wl) {   // a workload's own size: bounded by its DRAM traffic
    tdimm_stats_t st;
    tdimm_wl_stats(&wl, &st);
    if (!a.timeout) sim.timeout = 200000 + 40 * (st.blocks_read_per_core + st.blocks_written_per_core) +
                                  2000ull * st.insns;
  }

  // random refresh phase: idle for up to a quarter of tREFI first
  if (!have_wl) {
    unsigned idle = tb_rand() % (12480 / 4 / 4);
    for (unsigned i = 0; i < idle; i++) tb.step();
  }
  for (unsigned c = 0; c < kN; c++) tdimm_ddr4_stats_clear(tb.dram.dev[c]);

  TbStall gap(have_wl ? 0 : a.gap_pct), stall(have_wl ? 0 : a.stall_pct);
  std::deque<Pending> inflight;
  long sent = 0, retired = 0;
  bool valid = false;
  tdimm_insn_t cur;
  std::memset(&cur, 0, sizeof cur);
  const tdimm_insn_t *prev = nullptr;
  tdimm_insn_t prev_insn;
  long reset_at = do_reset ? n_insn / 2 : -1;
  long reset_cycles = 0;
  bool did_reset = false;
  bool check_now = false;
  Pending just_retired;
  std::memset(&just_retired, 0, sizeof just_retired);
  uint64_t node_errs = 0;
  const uint64_t start = sim.cycle;

  while (retired < n_insn && !sim.timed_out) {
    // protection windows change between instructions (the node idle), now and then
    if (windows && !valid && inflight.empty() && sent < n_insn && tb_chance(1)) {
      unsigned c = tb_rand() % kN;
      tdimm_core_cfg_t cc = tdimm_node_cfg(tb.model)->core[c];
      const uint64_t cap = 1ull << kRndAw;
      if (tb_chance(50)) {
        cc.win_base = tb_rand() % (cap / 2);
        cc.win_limit = cc.win_base + tb_rand() % (cap - cc.win_base + 1);
      } else {
        cc.win_base = 0;
        cc.win_limit = 1ull << kAw;
      }
      tdimm_node_set_core(tb.model, c, &cc);
      tb.cfg_write(c, 2, (uint32_t)cc.win_base);
      tb.cfg_write(c, 3, (uint32_t)cc.win_limit);
    }
    if (!valid && sent < n_insn && !gap.next()) {
      cur = listed ? insns[sent] : tdimm_rnd_insn(prev, 8);
      valid = true;
    }
    t->insn_valid_i = valid;
    for (int w = 0; w < 5; w++) tb_set_bits(t->insn_i, 32 * w, 32, cur.w[w]);
    t->done_ready_i = !stall.next();
    t->eval();
    const bool take = valid && t->insn_ready_o;
    const bool ret = t->done_valid_o && t->done_ready_i;
    if (ret) {
      if (inflight.empty()) {
        sc.expect(false, "a retirement without an instruction", retired);
      } else {
        Pending &p = inflight.front();
        if (!tb.fault) {
          sc.check("node error", p.id, p.res.node_err, t->done_err_o);
          uint64_t mask = 0;
          for (unsigned c = 0; c < kN; c++) {
            if (p.res.err[c]) mask |= 1ull << c;
            sc.check("rows", p.id, p.res.rows[c], tb_get_bits(t->done_rows_o, 24 * c, 24));
          }
          sc.check("error mask", p.id, mask, tb_get_bits(t->done_mask_o, 0, kN > 32 ? 32 : kN));
          if (sc.fail && sc.fail <= 2) {
            char s[160];
            std::fprintf(stderr, "  insn %" PRIu64 ": %s\n", p.id, tdimm_insn_str(&p.insn, s, sizeof s));
          }
        }
        if (directed && p.id < dirs.size())
          sc.check("status the directed test intends (model)", p.id, dirs[p.id].intent,
                   p.res.node_err);
        if (p.res.node_err) node_errs++;
        just_retired = p;
        check_now = !tb.fault;
        inflight.pop_front();
      }
      retired++;
    }
    if (take) {
      Pending p;
      p.insn = cur;
      p.id = (uint64_t)sent;
      out_range(cur, &p.out_lo, &p.out_n);
      tdimm_exec(tb.model, &cur, &p.res);
      inflight.push_back(p);
      prev_insn = cur;
      prev = &prev_insn;
      valid = false;
      sent++;
    }
    tb.step();
    // output blocks of the instruction that retired: its writes have all reached the DRAM, and
    // the next instruction starts only now
    if (check_now) {
      check_now = false;
      for (unsigned c = 0; c < kN; c++)
        for (uint64_t i = 0; i < just_retired.out_n && i < 65536; i++)
          if (just_retired.out_lo + i < (1ull << kAw) &&
              !tb.cmp_block(c, just_retired.out_lo + i, just_retired.id) && sc.fail <= 2) {
            char s[160];
            std::fprintf(stderr, "  insn %" PRIu64 ": %s\n", just_retired.id,
                         tdimm_insn_str(&just_retired.insn, s, sizeof s));
          }
    }
    // reset in the middle of an instruction
    if (!did_reset && reset_at >= 0 && sent > reset_at && !inflight.empty() && t->busy_o &&
        tb_chance(20)) {
      did_reset = true;
      Pending p = inflight.front();
      tb.reset();
      reset_cycles = (long)sim.cycle;
      // Every output block the aborted instruction wrote holds the model's final value; copy the
      // DRAM into the model over the output range (the rest of memory is unchanged), and the
      // configuration registers are back at their reset values.
      long partial = 0;
      for (unsigned c = 0; c < kN; c++) {
        for (uint64_t i = 0; i < p.out_n && p.out_lo + i < (1ull << kAw); i++) {
          const uint32_t *d = tdimm_ddr4_peek(tb.dram.dev[c], p.out_lo + i);
          uint32_t *m = tdimm_block(tb.model, c, p.out_lo + i);
          static const uint32_t zero[16] = {0};
          if (!d) d = zero;
          if (std::memcmp(m, d, 64) != 0) {
            std::memcpy(m, d, 64);
            partial++;
          }
        }
        tdimm_core_cfg_t cc = {0, 1ull << kAw, c};
        tdimm_node_set_core(tb.model, c, &cc);
      }
      std::printf("tensordimm: reset in instruction %" PRIu64 " at cycle %ld (%ld output blocks "
                  "not yet written)\n", p.id, reset_cycles, partial);
      sc.expect(true, "reset mid-instruction", p.id);
      inflight.clear();
      valid = false;
      retired = sent;
    }
  }
  // drain the last cycles, then compare the whole DRAM image with the model
  for (int i = 0; i < 20; i++) tb.step();
  const uint64_t cycles = sim.cycle - start;
  sc.expect(!sim.timed_out, "finished before the timeout", sim.cycle);

  tdimm_ddr4_stats_t tot;
  std::memset(&tot, 0, sizeof tot);
  uint64_t viol = 0;
  for (unsigned c = 0; c < kN; c++) {
    tdimm_ddr4_stats_t s;
    tdimm_ddr4_stats(tb.dram.dev[c], &s);
    tot.bus_busy_clocks += s.bus_busy_clocks;
    tot.ref_clocks += s.ref_clocks;
    tot.clocks += s.clocks;
    tot.rd += s.rd;
    tot.wr += s.wr;
    tot.act += s.act;
    tot.pre += s.pre + s.prea;
    tot.ref += s.ref;
    tot.row_hits += s.row_hits;
    tot.row_misses += s.row_misses;
    tot.row_conflicts += s.row_conflicts;
    viol += tdimm_ddr4_violations(tb.dram.dev[c]);
    if (tdimm_ddr4_violations(tb.dram.dev[c]) && !tb.fault) tdimm_ddr4_print_violations(tb.dram.dev[c], stderr);
  }
  if (tb.fault) {
    std::printf("tensordimm: fault %d: %" PRIu64 " timing violations\n", tb.fault, viol);
    if (viol) tdimm_ddr4_print_violations(tb.dram.dev[0], stdout);
    sc.expect(viol > 0, "the timing checker caught the injected controller fault", tb.fault);
  } else {
    sc.check("timing violations", 0, 0, viol);
    for (unsigned c = 0; c < kN; c++) {
      FinalCtx f = {&tb, c, 0};
      tdimm_ddr4_foreach(tb.dram.dev[c], final_cb, &f);
      sc.check("final DRAM image (blocks differing)", c, 0, f.bad);
    }
  }
  std::printf("tensordimm: insns=%ld errors=%" PRIu64 " cycles=%" PRIu64 " busy=%" PRIu64
              " clocks=%" PRIu64 " bus_busy=%" PRIu64 " ref_clocks=%" PRIu64 " rd=%" PRIu64
              " wr=%" PRIu64 " act=%" PRIu64 " pre=%" PRIu64 " ref=%" PRIu64 " hits=%" PRIu64
              " misses=%" PRIu64 " conflicts=%" PRIu64 " wmode=%" PRIu64 " switches=%" PRIu64
              " cores=%u util=%.4f\n",
              retired, node_errs, cycles, tb.busy_cycles, tot.clocks, tot.bus_busy_clocks,
              tot.ref_clocks, tot.rd, tot.wr, tot.act, tot.pre, tot.ref, tot.row_hits,
              tot.row_misses, tot.row_conflicts, tb.wmode_cycles, tb.switches, kN,
              tot.clocks ? (double)tot.bus_busy_clocks / (double)tot.clocks : 0.0);
  tdimm_node_free(tb.model);
  if (have_wl) tdimm_wl_free(&wl);
  return sc.finish();
}
