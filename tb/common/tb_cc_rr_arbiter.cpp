// tb_cc_rr_arbiter.cpp -- Verilator harness for cc_rr_arbiter.
//
// Reference model: a round-robin arbiter with a priority pointer, written as the obvious loop
// (scan from the pointer, wrap around); the pointer moves one past the grantee on ack_i and
// parks on the grantee while a grant waits for ack_i. Cycle by cycle the harness checks gnt_o,
// gnt_idx_o and gnt_valid_o, and that none of them depends on ack_i combinationally.
//
// Requesters:
//   * stream mode: each requester behaves like a valid/ready source (raises its request after
//     a random gap, holds it until granted and acknowledged); ack_i has random backpressure.
//     Here the harness also checks the arbiter contract: a grant is held until ack_i, and a
//     waiting requester sees at most N-1 grants to others (starvation-free, fair);
//   * chaos mode: req_i and ack_i fully random each cycle (a requester may withdraw), which
//     exercises every pointer/request combination against the model;
//   * saturation: all requesters always request and ack_i is always high: the grants must
//     visit 0, 1, ..., N-1 in order, one per cycle.
// A reset is applied in the middle of stream traffic. n = +n acknowledged grants.
#include "Vcc_rr_arbiter.h"
#include "tb_lib.h"


typedef Vcc_rr_arbiter Top;
static const int kN = TB_N;
static const uint32_t kAll = kN >= 32 ? ~0u : ((1u << kN) - 1);

struct Harness {
  TbSim<Top> &sim;
  TbScore &sc;
  int ptr = 0;                  // model priority pointer
  uint32_t req = 0;             // stream mode: requests being held
  long wait[32] = {0};          // grants to others while requester i waits
  int prev_gnt = -1;            // stream mode: grant not acked at the last edge
  long n_ack = 0;

  Harness(TbSim<Top> &s, TbScore &c) : sim(s), sc(c) {}

  int model_grant(uint32_t r) const {
    for (int k = 0; k < kN; k++) {
      int i = (ptr + k) % kN;
      if ((r >> i) & 1) return i;
    }
    return -1;
  }

  // Drives req/ack for one cycle, checks, updates the model. Returns the acked index or -1.
  int step(uint32_t r, bool ack, bool stream) {
    Top *t = sim.top;
    uint64_t id = sim.cycle;
    t->req_i = r;
    t->ack_i = !ack;
    t->eval();
    uint32_t g0 = t->gnt_o, i0 = t->gnt_idx_o, v0 = t->gnt_valid_o;
    t->ack_i = ack;
    t->eval();
    sc.check("gnt_o independent of ack_i", id, g0, t->gnt_o);
    sc.check("gnt_idx_o independent of ack_i", id, i0, t->gnt_idx_o);
    sc.check("gnt_valid_o independent of ack_i", id, v0, t->gnt_valid_o);

    int g = model_grant(r);
    sc.check("gnt_valid_o", id, g >= 0, t->gnt_valid_o);
    sc.check("gnt_o", id, g >= 0 ? (1u << g) : 0u, t->gnt_o);
    sc.check("gnt_idx_o", id, g >= 0 ? g : 0, t->gnt_idx_o);
    if (stream && prev_gnt >= 0) sc.check("grant held until ack_i", id, prev_gnt, g);

    int acked = -1;
    if (g >= 0) {
      if (ack) {
        acked = g;
        ptr = (g + 1) % kN;
        n_ack++;
      } else {
        ptr = g;
      }
    }
    if (stream) {
      prev_gnt = (g >= 0 && !ack) ? g : -1;
      if (acked >= 0) {
        sc.expect(wait[acked] <= kN - 1, "requester waited for more than N-1 other grants", id);
        wait[acked] = 0;
        for (int i = 0; i < kN; i++)
          if (i != acked && ((r >> i) & 1)) wait[i]++;
      }
    }
    sim.tick();
    return acked;
  }

  // Stream-mode cycle: requests arrive after random gaps and are held until acked.
  int stream_step(int arrive_pct, TbStall &stall) {
    for (int i = 0; i < kN; i++)
      if (!((req >> i) & 1) && tb_chance(arrive_pct)) req |= 1u << i;
    bool ack = !stall.next();
    int acked = step(req, ack, true);
    if (acked >= 0) req &= ~(1u << acked);
    return acked;
  }
};

int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "cc_rr_arbiter N%d", kN);
  tb_init(argc, argv, name, 200000, &a);
  TbSim<Top> sim(a, 40 * static_cast<uint64_t>(a.n) + 100000);
  TbScore sc(name);
  Harness h(sim, sc);
  TbStall stall(a.stall_pct);

  sim.top->req_i = 0;
  sim.top->ack_i = 0;
  sim.reset();

  // 1. stream mode with random arrival rates and ack backpressure
  while (h.n_ack < a.n * 4 / 10 && !sim.timed_out) {
    int arrive = tb_rand_range(1, 100 - a.gap_pct / 2);
    for (int i = 0; i < 100 && !sim.timed_out; i++) h.stream_step(arrive, stall);
  }

  // 2. reset with requests pending and a grant waiting (model pointer back to 0)
  sim.reset(2);
  h.ptr = 0;
  h.prev_gnt = -1;
  for (int i = 0; i < kN; i++) h.wait[i] = 0;

  // 3. saturation: strict rotation, one grant per cycle
  long cycles = a.n / 10 < 1000 ? 1000 : a.n / 10;
  int last = -1;
  for (long i = 0; i < cycles && !sim.timed_out; i++) {
    int g = h.step(kAll, true, true);
    if (last >= 0) sc.check("saturated grants rotate", i, (last + 1) % kN, g);
    last = g;
  }

  // 4. chaos (random req/ack) interleaved with more stream traffic
  while (h.n_ack < a.n && !sim.timed_out) {
    for (int i = 0; i < 200 && !sim.timed_out; i++)
      h.step(tb_rand_u32() & kAll & (tb_chance(10) ? 0u : kAll), tb_chance(50), false);
    h.req = 0;
    h.prev_gnt = -1;
    for (int i = 0; i < kN; i++) h.wait[i] = 0;
    int arrive = tb_rand_range(1, 100);
    for (int i = 0; i < 300 && !sim.timed_out; i++) h.stream_step(arrive, stall);
  }

  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("%s: %ld grants acknowledged, %llu cycles\n", name, h.n_ack,
              (unsigned long long)sim.cycle);
  return sc.finish();
}
