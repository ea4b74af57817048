// tb_softermax_fp16_exp.cpp -- Verilator harness: softermax_fp16_exp against smx16_exp() for
// every one of the 65536 fp16 inputs (exhaustive), plus a tally of how far the RTL is from the
// correctly rounded e^x (the bound itself is asserted by tests/test_softermax_fp16.c).
// softermax_fp16_exp is combinational: TbSim needs clk_i/rst_ni, so the harness adds dummy
// members and uses tick() only to advance time for the waveform.
#include <cmath>

#include "Vsoftermax_fp16_exp.h"
#include "softermax_fp16.h"
#include "tb_lib.h"

struct Top : Vsoftermax_fp16_exp {
  uint8_t clk_i = 0, rst_ni = 1;
  explicit Top(VerilatedContext *c) : Vsoftermax_fp16_exp(c) {}
};

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_softermax_fp16_exp", 65536, &a);
  TbSim<Top> sim(a, (1ull << 16) + 1000);
  TbScore score("softermax_fp16_exp");
  long not_cr = 0;
  for (uint32_t x = 0; x < 65536 && !sim.timed_out; x++) {
    sim.top->x_i = static_cast<uint16_t>(x);
    sim.top->eval();
    uint16_t e = smx16_exp(static_cast<uint16_t>(x));
    score.check("y_o", x, e, sim.top->y_o);
    double xd = smx16_to_double(static_cast<uint16_t>(x));
    if (!std::isnan(xd) && smx16_from_double(std::exp(xd)) != sim.top->y_o) not_cr++;
    sim.tick();
  }
  score.expect(!sim.timed_out, "no timeout", sim.cycle);
  std::printf("softermax_fp16_exp: 65536 inputs checked against the model, %ld not correctly "
              "rounded\n", not_cr);
  return score.finish();
}
