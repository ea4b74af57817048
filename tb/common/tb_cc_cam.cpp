// tb_cc_cam.cpp -- Verilator harness for cc_cam.
//
// Reference model: arrays of keys and valid bits written by index; flush_i clears every valid
// bit and wins over a same-cycle write; reset clears every valid bit. Lookups are combinational
// against the state of the last edge. Every cycle the harness checks valid_o, hit_o,
// hit_onehot_o and hit_idx_o (lowest match) for the cycle's lookup key, and once more for a
// second key with the write inputs changed, to show that a write is not visible before the
// edge.
//
// Keys come from a small pool (so duplicates and multi-hits happen) with some fully random
// keys (misses); writes set or clear valid bits at random; flush_i and a reset are applied in
// the middle of the run. n = +n lookups checked.
#include "Vcc_cam.h"
#include "tb_lib.h"


typedef Vcc_cam Top;
static const int kKeyWidth = TB_KeyWidth;
static const int kEntries = TB_Entries;
static const uint64_t kKeyMask = kKeyWidth >= 64 ? ~0ull : ((1ull << kKeyWidth) - 1);
static const int kIdxWidth = kEntries > 1 ? 32 - __builtin_clz(kEntries - 1) : 1;

struct Harness {
  TbSim<Top> &sim;
  TbScore &sc;
  uint64_t key[64] = {0};
  bool valid[64] = {false};
  uint64_t pool[6];
  long n_lookups = 0, n_hits = 0, n_multi = 0;

  Harness(TbSim<Top> &s, TbScore &c) : sim(s), sc(c) {
    for (int i = 0; i < 6; i++) pool[i] = tb_rand() & kKeyMask;
  }

  uint64_t pick_key() { return tb_chance(80) ? pool[tb_rand_range(0, 5)] : tb_rand() & kKeyMask; }

  void check_lookup(uint64_t k, uint64_t id) {
    Top *t = sim.top;
    t->lookup_key_i = k;
    t->eval();
    uint64_t onehot = 0, vmask = 0;
    for (int i = 0; i < kEntries; i++) {
      if (valid[i]) vmask |= 1ull << i;
      if (valid[i] && key[i] == k) onehot |= 1ull << i;
    }
    int lowest = onehot ? __builtin_ctzll(onehot) : 0;
    sc.check("valid_o", id, vmask, t->valid_o);
    sc.check("hit_onehot_o", id, onehot, t->hit_onehot_o);
    sc.check("hit_o", id, onehot != 0, t->hit_o);
    sc.check("hit_idx_o", id, lowest, t->hit_idx_o);
    n_lookups++;
    n_hits += onehot != 0;
    n_multi += (onehot & (onehot - 1)) != 0;
  }

  void step(int wr_pct, int flush_pct) {
    Top *t = sim.top;
    uint64_t id = sim.cycle;
    bool wr = tb_chance(wr_pct);
    // Indices past Entries (non-power-of-two Entries) must write nothing.
    uint32_t idx = tb_rand_range(0, (1u << kIdxWidth) - 1);
    uint64_t k = pick_key();
    bool v = tb_chance(75);
    bool flush = tb_chance(flush_pct);
    // Lookup with a different write on the write port first: the write is not visible yet.
    t->flush_i = !flush;
    t->wr_en_i = 1;
    t->wr_idx_i = idx;
    t->wr_key_i = pick_key();
    t->wr_valid_i = 1;
    check_lookup(pick_key(), id);
    t->flush_i = flush;
    t->wr_en_i = wr;
    t->wr_key_i = k;
    t->wr_valid_i = v;
    check_lookup(pick_key(), id);
    if (flush) {
      for (int i = 0; i < kEntries; i++) valid[i] = false;
    } else if (wr && static_cast<int>(idx) < kEntries) {
      key[idx] = k;
      valid[idx] = v;
    }
    sim.tick();
  }
};

int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "cc_cam K%d E%d", kKeyWidth, kEntries);
  tb_init(argc, argv, name, 200000, &a);
  TbSim<Top> sim(a, 10 * static_cast<uint64_t>(a.n) + 100000);
  TbScore sc(name);
  Harness h(sim, sc);

  sim.top->flush_i = 0;
  sim.top->wr_en_i = 0;
  sim.reset();

  // 1. writes at the producer rate (1-gap), rare flushes
  while (h.n_lookups < a.n / 2 && !sim.timed_out) h.step(100 - a.gap_pct, 1);

  // 2. reset with entries valid, then lookups right after it must all miss
  sim.reset(2);
  for (int i = 0; i < kEntries; i++) h.valid[i] = false;
  for (int i = 0; i < 4; i++) h.step(0, 0);

  // 3. a denser mix: write-heavy bursts, read-only bursts, more flushes
  while (h.n_lookups < a.n && !sim.timed_out) {
    int wr = tb_chance(50) ? 90 : 5;
    for (int i = 0; i < 100 && !sim.timed_out; i++) h.step(wr, 2);
  }

  sc.expect(h.n_hits > 0 && h.n_multi > 0, "hits and multi-hits were exercised", 0);
  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("%s: %ld lookups, %ld hits, %ld multi-hits, %llu cycles\n", name, h.n_lookups,
              h.n_hits, h.n_multi, (unsigned long long)sim.cycle);
  return sc.finish();
}
