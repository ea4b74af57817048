// tb_cc_skid_buffer.cpp -- Verilator harness for cc_skid_buffer.
//
// Reference model: by contract the skid buffer behaves exactly like a 2-entry FIFO with
// in_ready = not full and out_valid = not empty, so the model is a std::deque of at most two
// beats and the check is cycle-accurate: in_ready_o, out_valid_o and out_data_o every cycle.
// Because every output must come straight from a flop, the harness also changes every input
// after the cycle's eval() and checks that no output moved (no combinational path through).
//
// Phases (n = +n output beats): random gaps/stalls (~40%), reset with beats in flight, a
// no-gap/no-stall phase that must move one beat every cycle, then alternating slow-producer /
// slow-consumer bursts until n beats have come out.
#include "Vcc_skid_buffer.h"
#include "tb_lib.h"

#include <deque>


typedef Vcc_skid_buffer Top;
static const int kWidth = TB_Width;
static const uint64_t kMask = kWidth >= 64 ? ~0ull : ((1ull << kWidth) - 1);

struct Harness {
  TbSim<Top> &sim;
  TbScore &sc;
  std::deque<uint64_t> q;
  bool in_valid = false;
  uint64_t in_data = 0;
  long n_in = 0, n_out = 0;

  Harness(TbSim<Top> &s, TbScore &c) : sim(s), sc(c) {}

  bool step(TbStall &gap, TbStall &stall) {
    Top *t = sim.top;
    uint64_t id = sim.cycle;
    if (!in_valid && !gap.next()) {
      in_valid = true;
      in_data = tb_rand() & kMask;
    }
    bool out_ready = !stall.next();

    // Outputs must not depend on this cycle's inputs: evaluate with scrambled inputs first.
    t->in_valid_i = !in_valid;
    t->in_data_i = ~in_data & kMask;
    t->out_ready_i = !out_ready;
    t->eval();
    bool r0 = t->in_ready_o, v0 = t->out_valid_o;
    uint64_t d0 = t->out_data_o & kMask;
    t->in_valid_i = in_valid;
    t->in_data_i = in_data;
    t->out_ready_i = out_ready;
    t->eval();
    sc.check("in_ready_o is registered", id, r0, t->in_ready_o);
    sc.check("out_valid_o is registered", id, v0, t->out_valid_o);
    sc.check("out_data_o is registered", id, d0, t->out_data_o & kMask);

    sc.check("in_ready_o", id, q.size() < 2, t->in_ready_o);
    sc.check("out_valid_o", id, !q.empty(), t->out_valid_o);
    if (!q.empty() && t->out_valid_o) sc.check("out_data_o", id, q.front(), t->out_data_o & kMask);

    bool in_fire = in_valid && t->in_ready_o;
    bool out_fire = t->out_valid_o && out_ready;
    if (out_fire) {
      if (!q.empty()) q.pop_front();
      n_out++;
    }
    if (in_fire) {
      q.push_back(in_data);
      in_valid = false;
      n_in++;
    }
    sim.tick();
    return out_fire;
  }
};

int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "cc_skid_buffer W%d", kWidth);
  tb_init(argc, argv, name, 200000, &a);
  TbSim<Top> sim(a, 40 * static_cast<uint64_t>(a.n) + 100000);
  TbScore sc(name);
  Harness h(sim, sc);
  TbStall gap(a.gap_pct), stall(a.stall_pct), none(0);

  sim.top->in_valid_i = 0;
  sim.top->out_ready_i = 0;
  sim.reset();

  // 1. random gaps and stalls
  while (h.n_out < a.n * 4 / 10 && !sim.timed_out) h.step(gap, stall);

  // 2. reset while both entries are (likely) full and the producer is waiting
  TbStall blocked(100);
  for (int i = 0; i < 4 && !sim.timed_out; i++) h.step(none, blocked);
  sc.check("both entries full before reset", sim.cycle, 2, h.q.size());
  sim.reset(2);
  h.q.clear();
  h.in_valid = false;

  // 3. full throughput: one beat per cycle, the skid entry never needed
  long cycles = a.n / 10 < 1000 ? 1000 : a.n / 10, fires = 0;
  for (long i = 0; i < cycles && !sim.timed_out; i++) fires += h.step(none, none) && i >= 1;
  sc.check("throughput: beats out in no-stall phase", 0, cycles - 1, fires);

  // 4. alternating slow producer / slow consumer
  TbStall slow(80), fast(5);
  while (h.n_out < a.n && !sim.timed_out) {
    int len = tb_rand_range(5, 50);
    bool fill = tb_chance(50);
    for (int i = 0; i < len && !sim.timed_out; i++) h.step(fill ? fast : slow, fill ? slow : fast);
  }

  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("%s: %ld beats in, %ld out, %llu cycles\n", name, h.n_in, h.n_out,
              (unsigned long long)sim.cycle);
  return sc.finish();
}
