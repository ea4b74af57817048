// tb_manna.cpp -- Verilator harness of manna against its C model (cmodel/manna).
//
// +n random beats under random input gaps (+gap) and output backpressure (+stall), a reset
// with beats in flight half way; or, with +workload=FILE (one hex word a line), the file's words.
// Every output beat is checked against the model's queue; the last line is the result line.
// Build parameters: TB_Width (from rtl/manna/block.toml).
#include "Vmanna.h"
#include "tb_lib.h"

#include <cinttypes>
#include <deque>
#include <vector>

#include "manna.h"

typedef Vmanna Top;

static bool read_words(const char *path, std::vector<uint64_t> *w) {
  FILE *f = std::fopen(path, "r");
  if (!f) return false;
  char line[64];
  while (std::fgets(line, sizeof line, f)) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(line, &end, 16);
    if (end == line) {
      std::fclose(f);
      return false;
    }
    w->push_back(v);
  }
  std::fclose(f);
  return true;
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_manna", 100000, &a);
  manna_cfg_t cfg;
  if (manna_cfg_init(&cfg, TB_Width) != 0) return 2;
  std::vector<uint64_t> words;
  const char *wl = tb_plusarg("workload");
  if (wl && !read_words(wl, &words)) {
    std::fprintf(stderr, "tb_manna: cannot read workload %s\n", wl);
    return 2;
  }
  const long n = wl ? static_cast<long>(words.size()) : a.n;
  TbSim<Top> sim(a, 100 + 50ull * static_cast<uint64_t>(n));
  TbScore sc("manna");
  TbStall gap(a.gap_pct), stall(a.stall_pct);
  Top *t = sim.top;
  sim.reset();
  std::deque<uint64_t> expect;
  long sent = 0, got = 0;
  bool valid = false, did_reset = false;
  uint64_t data = 0;
  const uint64_t start = sim.cycle;
  while (got < n && !sim.timed_out) {
    if (!wl && !did_reset && sent >= n / 2 && !expect.empty()) {  // reset with beats in flight
      did_reset = true;
      sim.reset();
      sent -= static_cast<long>(expect.size());
      expect.clear();
      valid = false;
    }
    if (!valid && sent < n && !gap.next()) {
      valid = true;
      uint64_t x = wl ? words[sent] : tb_rand(), y;
      manna_ref(&cfg, &x, &y, 1);
      data = y;
    }
    t->in_valid_i = valid;
    t->in_data_i = data;
    t->out_ready_i = !stall.next();
    t->eval();
    if (t->out_valid_o && t->out_ready_i) {
      sc.expect(!expect.empty(), "no beat without an input", got);
      if (!expect.empty()) {
        sc.check("out_data_o", got, expect.front(), t->out_data_o);
        expect.pop_front();
      }
      got++;
    }
    if (valid && t->in_ready_o) {
      expect.push_back(data);
      valid = false;
      sent++;
    }
    sim.tick();
  }
  if (wl) std::printf("manna: workload beats=%ld cycles=%" PRIu64 "\n", got, sim.cycle - start);
  sc.expect(!sim.timed_out, "finished before the timeout", sim.cycle);
  return sc.finish();
}
