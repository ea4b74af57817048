// tb_gnn_sfu.cpp -- Verilator harness for gnn_sfu, one lane of the Graph Engine's SFU pool.
//
// Reference: the golden model's gnn_sfu (cmodel/gnnerator/gnn_sfu.c), bit for bit. Inputs: for
// every exponent (0..255) and sign, the significands 0, 1, all ones and 16 random ones; the
// edges of exp's ranges (overflow to +inf near 88.72, the flush to +0 near -87.34, |x| near 128,
// tiny x); then +n random words (uniform bits, so every exponent) and +n words uniform in
// [-100, 100). Every input goes through op 0..3 (3, refused by the decoder, passes x).
// gnn_sfu is combinational: TbSim needs clk_i/rst_ni, so the harness adds dummy members and
// uses tick() only to advance time.
#include "Vgnn_sfu.h"
#include "tb_lib.h"

#include <cstring>

#include "gnnerator.h"

struct Top : Vgnn_sfu {
  uint8_t clk_i = 0, rst_ni = 1;
  explicit Top(VerilatedContext *c) : Vgnn_sfu(c) {}
};

static long g_n = 0;

static void check(TbSim<Top> &sim, TbScore &sc, uint32_t x) {
  for (unsigned op = 0; op < 4; op++) {
    sim.top->op_i = op;
    sim.top->x_i = x;
    sim.top->eval();
    const uint32_t exp = op == 3 ? x : gnn_sfu(op, x);
    sc.check(op == 2 ? "exp" : op == 1 ? "relu" : "pass", x, exp, sim.top->y_o);
  }
  g_n++;
  sim.tick();
}

static uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "gnn_sfu", 200000, &a);
  TbSim<Top> sim(a, 4ull * static_cast<uint64_t>(a.n) + 100000);
  TbScore sc("gnn_sfu");

  for (uint32_t s = 0; s < 2; s++)
    for (uint32_t e = 0; e < 256; e++) {
      const uint32_t hi = s << 31 | e << 23;
      check(sim, sc, hi);
      check(sim, sc, hi | 1u);
      check(sim, sc, hi | 0x7FFFFFu);
      for (int r = 0; r < 16; r++) check(sim, sc, hi | (uint32_t)(tb_rand() & 0x7FFFFFu));
    }
  // the edges: 88.7228 (the last finite result), -87.3365 (2^-126), +-128, 2^-25
  static const uint32_t kEdge[] = {0x42B17217u, 0x42B17218u, 0xC2AEAC50u, 0xC2AEAC4Fu,
                                   0xC2AEAC51u, 0x43000000u, 0xC3000000u, 0x42FFFFFFu,
                                   0xC2FFFFFFu, 0x33000000u, 0xB3000000u, 0x33800000u};
  for (uint32_t x : kEdge)
    for (int d = -64; d <= 64; d++) check(sim, sc, x + (uint32_t)d);
  for (long i = 0; i < a.n && !sim.timed_out; i++) check(sim, sc, (uint32_t)tb_rand());
  for (long i = 0; i < a.n && !sim.timed_out; i++)
    check(sim, sc, bits((float)((int)tb_rand_range(0, 2000000) - 1000000) * 1e-4f));

  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("gnn_sfu: %ld inputs checked, each through ReLU, exp and pass\n", g_n);
  return sc.finish();
}
