// tb_cc_sram_1r1w.cpp -- Verilator harness for cc_sram_1r1w.
//
// Reference model: an array plus a model of the registered read port (read-first: a read
// samples the array before the same edge's write; rdata holds while re_i is low). Each cycle
// the harness checks rdata_o against the model. Array words that were never written hold
// random values in the RTL (no reset, Verilator randReset) and are not compared until written.
//
// Traffic: random writes and reads, with a bias towards read address == write address in the
// same cycle (the read-during-write case) and towards a small hot set of addresses; a phase
// of reads only (rdata hold with re_i low is checked throughout); every address written and
// read back; n = +n reads checked. The RAM has no reset port; TbSim needs one, so the harness
// adds a dummy rst_ni member (the contents must simply be unaffected).
#include "Vcc_sram_1r1w.h"
#include "tb_lib.h"

#include <vector>


static const int kWidth = TB_Width;
static const uint32_t kDepth = TB_Depth;
static const uint64_t kMask = kWidth >= 64 ? ~0ull : ((1ull << kWidth) - 1);

// TbSim drives rst_ni; this RAM has none (its array is never reset).
struct Top : Vcc_sram_1r1w {
  uint8_t rst_ni = 1;
  explicit Top(VerilatedContext *c) : Vcc_sram_1r1w(c) {}
};

struct Harness {
  TbSim<Top> &sim;
  TbScore &sc;
  std::vector<uint64_t> mem = std::vector<uint64_t>(kDepth, 0);
  std::vector<bool> known = std::vector<bool>(kDepth, false);
  uint64_t rdata = 0;        // model of the output register
  bool rdata_known = false;
  long n_reads = 0, n_collide = 0;

  Harness(TbSim<Top> &s, TbScore &c) : sim(s), sc(c) {}

  // Half the addresses from a 4-word hot set starting at `hot`, half uniform.
  uint32_t pick(uint32_t hot) {
    return tb_chance(50) ? (hot + tb_rand_range(0, 3)) % kDepth : tb_rand_range(0, kDepth - 1);
  }

  void step(bool we, uint32_t waddr, uint64_t wdata, bool re, uint32_t raddr) {
    Top *t = sim.top;
    t->we_i = we;
    t->waddr_i = waddr;
    t->wdata_i = wdata;
    t->re_i = re;
    t->raddr_i = raddr;
    t->eval();
    if (re) {  // read-first: sample before the write lands
      rdata = mem[raddr];
      rdata_known = known[raddr];
      n_reads++;
      if (we && waddr == raddr) n_collide++;
    }
    if (we) {
      mem[waddr] = wdata;
      known[waddr] = true;
    }
    sim.tick();
    if (rdata_known) sc.check("rdata_o", sim.cycle, rdata, t->rdata_o & kMask);
  }
};

int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "cc_sram_1r1w W%d D%u", kWidth, kDepth);
  tb_init(argc, argv, name, 200000, &a);
  TbSim<Top> sim(a, 40 * static_cast<uint64_t>(a.n) + 100000);
  TbScore sc(name);
  Harness h(sim, sc);

  // 1. random traffic: the write rate is 1-gap, the read rate 1-stall; a third of the cycles
  // read the address being written, and half the addresses come from a 4-word hot set.
  uint32_t hot = tb_rand_range(0, kDepth - 1);
  while (h.n_reads < a.n * 9 / 10 && !sim.timed_out) {
    uint32_t wa = h.pick(hot);
    uint32_t ra = tb_chance(33) ? wa : h.pick(hot);
    h.step(!tb_chance(a.gap_pct), wa, tb_rand() & kMask, !tb_chance(a.stall_pct), ra);
    if (tb_chance(1)) hot = tb_rand_range(0, kDepth - 1);
  }

  // 2. write every word, then read every word back (also in reverse) with no gaps.
  for (uint32_t i = 0; i < kDepth; i++) h.step(true, i, tb_rand() & kMask, false, 0);
  for (uint32_t i = 0; i < kDepth; i++) h.step(false, 0, 0, true, i);
  for (uint32_t i = kDepth; i-- > 0;) h.step(tb_chance(50), tb_rand_range(0, kDepth - 1),
                                             tb_rand() & kMask, true, i);

  // 3. reads only, then idle cycles: rdata_o must hold its last value while re_i is low.
  while (h.n_reads < a.n && !sim.timed_out)
    h.step(false, 0, 0, !tb_chance(70), tb_rand_range(0, kDepth - 1));
  for (int i = 0; i < 50; i++)
    h.step(tb_chance(50), tb_rand_range(0, kDepth - 1), tb_rand() & kMask, false, 0);

  sc.expect(h.n_collide > 0, "read-during-write of the same address was exercised", 0);
  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("%s: %ld reads (%ld read-during-write), %llu cycles\n", name, h.n_reads,
              h.n_collide, (unsigned long long)sim.cycle);
  return sc.finish();
}
