// tb_softermax_unnormed.cpp -- Verilator harness: an unnormed unit at its own ports against
// smx_unnormed_beat() (the unit-level C model), for both number formats (tb_smx_rows.h):
// softermax_unnormed (u = 2^(x - m), Q(1,15)) and softermax_fp16_unnormed (e = exp(x - m),
// fp16). Every output slice is compared field by field (u or e per lane, m, cnt, last, store,
// d after every slice, and on the last slice nslices, err), under random valid gaps and ready
// backpressure, over +n rows of random length and distribution (fp16: special values
// included) with malformed beats (cnt 0, cnt > Vec, short beats before the last, rows over
// MaxLen), and a reset in mid-row every few thousand rows.
#include <deque>
#include <vector>

#include "tb_lib.h"
#include "tb_smx_rows.h"
#if SMX_FP16
#include "Vsoftermax_fp16_unnormed.h"
typedef Vsoftermax_fp16_unnormed Vtop;
static const char kTop[] = "softermax_fp16_unnormed", kTb[] = "tb_softermax_fp16_unnormed";
#else
#include "Vsoftermax_unnormed.h"
typedef Vsoftermax_unnormed Vtop;
static const char kTop[] = "softermax_unnormed", kTb[] = "tb_softermax_unnormed";
#endif

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, kTb, 50000, &a);
  smx_tb_print_config();
  TbSim<Vtop> sim(a, static_cast<uint64_t>(a.n + 100) * (kMaxLen / kVec + 4) * 6);
  Vtop *t = sim.top;
  TbScore score(kTop);
  TbStall gap(a.gap_pct), stall(a.stall_pct);
  smx_cfg_t cfg = smx_tb_cfg();
  smx_unnormed_row_t row;
  smx_unnormed_row_init(&row);
  smx_rng_t r;
  smx_rng_seed(&r, a.seed);

  std::deque<smx_in_beat_t> inq;
  std::deque<smx_slice_t> expq;
  smx_in_beat_t cur{};
  bool offered = false;
  long rows = 0, next_reset = 3000;
  uint64_t id = 0;
  t->in_valid_i = 0;
  t->out_ready_i = 0;
  sim.reset(4);

  while ((rows < a.n || !inq.empty() || offered || !expq.empty()) && !sim.timed_out) {
    if (inq.empty() && rows < a.n) {
      int n = rand_len(&r);
      uint64_t kind = smx_rng_next(&r) % 50;
      if (kind == 0) n = rand_overlong_len(&r);
      smx_row_beats(rand_row(n, &r), &inq, &r);
      if (kind == 1) inq.back().cnt = 0;                                        // empty beat
      if (kind == 2 && inq.size() > 1) inq.front().cnt = static_cast<int>(smx_rng_next(&r) % kVec);
      if (kind == 3 && (1 << kCntW) - 1 > kVec) inq.back().cnt = kVec + 1;       // cnt > Vec
      rows++;
    }
    if (rows >= next_reset && !inq.empty() && !inq.front().last && offered) {
      t->in_valid_i = 0;  // reset in mid-row: RTL and model both forget the row
      sim.reset(2);
      smx_unnormed_row_init(&row);
      inq.clear();
      expq.clear();
      offered = false;
      next_reset = rows + 2000 + static_cast<long>(smx_rng_next(&r) % 3000);
      continue;
    }
    if (!offered && !inq.empty() && !gap.next()) {
      cur = inq.front();
      inq.pop_front();
      offered = true;
    }
    t->in_valid_i = offered;
    for (int j = 0; j < kVec; j++)
      tb_set_bits(t->in_x_i, j * kInWidth, kInWidth,
                  offered ? static_cast<uint32_t>(cur.x[j]) & kInMask : 0);
    t->in_cnt_i = offered ? static_cast<uint32_t>(cur.cnt) & ((1u << kCntW) - 1) : 0;
    t->in_last_i = offered && cur.last;
    t->out_ready_i = !stall.next();
    t->eval();
    if (offered && t->in_ready_o) {
      smx_in_beat_t b = cur;
      b.cnt = static_cast<int>(cur.cnt & ((1 << kCntW) - 1));  // what the wires carry
      smx_slice_t s;
      smx_unnormed_beat(&cfg, &row, &b, &s);
      expq.push_back(s);
      offered = false;
    }
    if (t->out_valid_o && t->out_ready_i) {
      uint64_t k = id++;
      if (!score.expect(!expq.empty(), "output slice owed", k)) {
        sim.tick();
        continue;
      }
      smx_slice_t e = expq.front();
      expq.pop_front();
      bool u_ok = true;
      for (int j = 0; j < kVec; j++)
        u_ok = u_ok && tb_get_bits(t->SMX_OUT_U, j * kUWidth, kUWidth) == e.u[j];
      score.expect(u_ok, SMX_FP16 ? "e lanes" : "u lanes", k);
      score.check("m", k, static_cast<uint32_t>(e.m) & kMMask, t->out_m_o);
      score.check("cnt", k, static_cast<uint32_t>(e.cnt), t->out_cnt_o);
      score.check("last", k, static_cast<uint32_t>(e.last), t->out_last_o);
      score.check("store", k, static_cast<uint32_t>(e.store), t->out_store_o);
      score.check("d", k, e.d, t->out_d_o);  // the running sum, after every slice
      if (e.last) {
        score.check("nslices", k, static_cast<uint32_t>(e.nslices), t->out_nslices_o);
        score.check("err", k, static_cast<uint32_t>(e.err), t->out_err_o);
      }
    }
    sim.tick();
  }
  for (int i = 0; i < 20; i++) {  // nothing more may come out
    t->in_valid_i = 0;
    t->out_ready_i = 1;
    t->eval();
    score.expect(!t->out_valid_o, "no extra output slice", id);
    sim.tick();
  }
  score.expect(!sim.timed_out, "finished before the timeout", id);
  std::printf("rows: %ld, slices checked: %llu\n", rows, (unsigned long long)id);
  return score.finish();
}
