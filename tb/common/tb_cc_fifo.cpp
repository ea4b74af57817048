// tb_cc_fifo.cpp -- Verilator harness for cc_fifo (and, included from tb_cc_fifo_sram.cpp, for
// cc_fifo_sram, which has the same ports and the same cycle behaviour as cc_fifo with
// FallThrough=0).
//
// Reference model: a std::deque of the stored beats. The harness is cycle-accurate: every cycle
// it checks in_ready_o, out_valid_o, out_data_o (when valid) and count_o against the model, and
// that in_ready_o does not depend on in_valid_i and out_valid_o does not depend on out_ready_i.
//
// Phases (n = +n output beats in total):
//   1. random valid gaps (+gap) and ready stalls (+stall) with an occasional clr_i, ~40% of n;
//   2. reset in the middle of traffic (asserted while beats are in flight);
//   3. no gaps, no stalls: full throughput (one beat per cycle; Depth=1 without fall-through:
//      one every second cycle), checked over the whole phase;
//   4. bursty phases (long fill with a slow consumer, long drain with a slow producer) so the
//      FIFO runs full and empty repeatedly, with clr_i, until n beats have come out.
// Parameters come from the -G flags through -DTB_<Param> (rtl/common/block.toml).
#ifndef TB_FIFO_TOP
#include "Vcc_fifo.h"
#define TB_FIFO_TOP Vcc_fifo
#define TB_FIFO_NAME "cc_fifo"
#endif
#include "tb_lib.h"

#include <deque>


static const int kWidth = TB_Width;
static const unsigned kDepth = TB_Depth;
static const bool kFt = TB_FallThrough != 0;
static const uint64_t kMask = kWidth >= 64 ? ~0ull : ((1ull << kWidth) - 1);

typedef TB_FIFO_TOP Top;

struct Harness {
  TbSim<Top> &sim;
  TbScore &sc;
  std::deque<uint64_t> q;     // model: stored beats, oldest first
  bool in_valid = false;      // producer state: a beat offered and not yet taken
  uint64_t in_data = 0;
  bool prev_out_wait = false; // last edge had out_valid && !out_ready (hold rule check)
  uint64_t prev_out_data = 0;
  long n_in = 0, n_out = 0;

  Harness(TbSim<Top> &s, TbScore &c) : sim(s), sc(c) {}

  // One clock cycle. gap/stall decide whether a new beat is offered and whether the consumer
  // is ready; clr drives clr_i. Returns true when a beat came out.
  bool step(TbStall &gap, TbStall &stall, bool clr) {
    Top *t = sim.top;
    uint64_t id = sim.cycle;
    if (!in_valid && !gap.next()) {
      in_valid = true;
      in_data = tb_rand() & kMask;
    }
    bool out_ready = !stall.next();
    t->in_valid_i = in_valid;
    t->in_data_i = in_data;
    t->out_ready_i = out_ready;
    t->clr_i = clr;
    t->eval();

    // Combinational independence required by the contract.
    bool rdy = t->in_ready_o, vld = t->out_valid_o;
    t->in_valid_i = !in_valid;
    t->out_ready_i = !out_ready;
    t->eval();
    sc.check("in_ready_o independent of in_valid_i", id, rdy, t->in_ready_o);
    if (!kFt) sc.check("out_valid_o independent of in_valid_i", id, vld, t->out_valid_o);
    t->in_valid_i = in_valid;
    t->out_ready_i = out_ready;
    t->eval();
    sc.check("out_valid_o independent of out_ready_i", id, vld, t->out_valid_o);

    bool pass = kFt && q.empty() && in_valid;
    bool exp_valid = !q.empty() || pass;
    sc.check("in_ready_o", id, q.size() < kDepth, t->in_ready_o);
    sc.check("out_valid_o", id, exp_valid, t->out_valid_o);
    sc.check("count_o", id, q.size(), t->count_o);
    if (exp_valid && t->out_valid_o)
      sc.check("out_data_o", id, pass ? in_data : q.front(), t->out_data_o & kMask);
    if (prev_out_wait) {
      sc.expect(t->out_valid_o, "out_valid_o dropped while waiting for out_ready_i", id);
      if (t->out_valid_o)
        sc.check("out_data_o held while waiting", id, prev_out_data, t->out_data_o & kMask);
    }

    bool in_fire = in_valid && t->in_ready_o;
    bool out_fire = t->out_valid_o && out_ready;
    prev_out_wait = t->out_valid_o && !out_ready && !clr;
    prev_out_data = t->out_data_o & kMask;

    bool consumed_pass = false;
    if (out_fire) {
      if (q.empty()) consumed_pass = true;  // fall-through beat, never stored
      else q.pop_front();
      n_out++;
    }
    if (clr) q.clear();  // a beat accepted in the clr_i cycle is dropped as well
    else if (in_fire && !consumed_pass) q.push_back(in_data);
    if (in_fire) {
      in_valid = false;
      n_in++;
    }
    sim.tick();
    return out_fire;
  }

  void mid_reset() {
    // Reset while the FIFO holds data and the producer has a beat pending.
    sim.top->clr_i = 0;
    sim.reset(2);
    q.clear();
    in_valid = false;
    prev_out_wait = false;
    sim.top->eval();
    sc.check("count_o after reset", sim.cycle, 0, sim.top->count_o);
    sc.check("in_ready_o after reset", sim.cycle, 1, sim.top->in_ready_o);
  }
};

int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "%s W%d D%u FT%d", TB_FIFO_NAME, kWidth, kDepth, kFt);
  tb_init(argc, argv, name, 200000, &a);
  TbSim<Top> sim(a, 40 * static_cast<uint64_t>(a.n) + 100000);
  TbScore sc(name);
  Harness h(sim, sc);
  TbStall gap(a.gap_pct), stall(a.stall_pct), none(0);

  sim.top->in_valid_i = 0;
  sim.top->out_ready_i = 0;
  sim.top->clr_i = 0;
  sim.reset();

  // 1. random gaps and stalls with occasional flushes
  long target = a.n * 4 / 10;
  while (h.n_out < target && !sim.timed_out) h.step(gap, stall, tb_chance(1));

  // 2. reset with data in flight: fill a little first so there is something to lose
  for (unsigned i = 0; i < 3 * kDepth && !sim.timed_out; i++) h.step(none, stall, false);
  h.mid_reset();

  // 3. full throughput: producer always valid, consumer always ready
  long cycles = a.n / 10 < 1000 ? 1000 : a.n / 10;
  long warm = kDepth + 2, fires = 0;
  for (long i = 0; i < cycles && !sim.timed_out; i++) {
    bool f = h.step(none, none, false);
    if (i >= warm) fires += f;
  }
  if (kDepth >= 2 || kFt) {
    sc.check("throughput: beats out in no-stall phase", 0, cycles - warm, fires);
  } else {
    // A full 1-entry FIFO does not accept while popped: one beat every second cycle.
    long d = 2 * fires - (cycles - warm);
    sc.expect(d >= -1 && d <= 1, "throughput: one beat per two cycles in no-stall phase", 0);
  }

  // 4. bursts that fill and drain the FIFO completely
  TbStall slow(90), fast(5);
  while (h.n_out < a.n && !sim.timed_out) {
    int len = tb_rand_range(20, 200);
    bool fill = tb_chance(50);
    for (int i = 0; i < len && !sim.timed_out; i++)
      h.step(fill ? fast : slow, fill ? slow : fast, tb_chance(1) && tb_chance(20));
  }

  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("%s: %ld beats in, %ld out, %llu cycles\n", name, h.n_in, h.n_out,
              (unsigned long long)sim.cycle);
  return sc.finish();
}
