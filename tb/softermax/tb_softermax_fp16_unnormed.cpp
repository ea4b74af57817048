// tb_softermax_fp16_unnormed.cpp -- Verilator harness: softermax_fp16_unnormed at its own ports
// against smx16_unnormed_beat() (the unit-level C model). Every output slice is compared field
// by field (e per lane, m, cnt, last, store, d after every slice, and on the last slice
// nslices, err), under random valid gaps and ready backpressure, over +n rows of random length
// and distribution (tb_smx16_rows.h: special values included) with malformed beats (cnt 0,
// cnt > Vec, short beats before the last, rows over MaxLen), and a reset in mid-row every few
// thousand rows.
#include <deque>
#include <vector>

#include "Vsoftermax_fp16_unnormed.h"
#include "tb_lib.h"
#include "tb_smx16_rows.h"

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_softermax_fp16_unnormed", 50000, &a);
  std::printf("config: Vec=%d MaxLen=%d\n", kVec, kMaxLen);
  TbSim<Vsoftermax_fp16_unnormed> sim(a,
                                     static_cast<uint64_t>(a.n + 100) * (kMaxLen / kVec + 4) * 6);
  Vsoftermax_fp16_unnormed *t = sim.top;
  TbScore score("softermax_fp16_unnormed");
  TbStall gap(a.gap_pct), stall(a.stall_pct);
  smx16_cfg_t cfg = smx16_tb_cfg();
  smx16_unnormed_row_t row;
  smx16_unnormed_row_init(&row);
  smx_rng_t r;
  smx_rng_seed(&r, a.seed);

  std::deque<smx16_in_beat_t> inq;
  std::deque<smx16_slice_t> expq;
  smx16_in_beat_t cur{};
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
      smx16_row_beats(rand_row16(n, &r), &inq, &r);
      if (kind == 1) inq.back().cnt = 0;                                        // empty beat
      if (kind == 2 && inq.size() > 1) inq.front().cnt = static_cast<int>(smx_rng_next(&r) % kVec);
      if (kind == 3 && (1 << kCntW) - 1 > kVec) inq.back().cnt = kVec + 1;       // cnt > Vec
      rows++;
    }
    if (rows >= next_reset && !inq.empty() && !inq.front().last && offered) {
      t->in_valid_i = 0;  // reset in mid-row: RTL and model both forget the row
      sim.reset(2);
      smx16_unnormed_row_init(&row);
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
    for (int j = 0; j < kVec; j++) tb_set_bits(t->in_x_i, j * 16, 16, offered ? cur.x[j] : 0);
    t->in_cnt_i = offered ? static_cast<uint32_t>(cur.cnt) & ((1u << kCntW) - 1) : 0;
    t->in_last_i = offered && cur.last;
    t->out_ready_i = !stall.next();
    t->eval();
    if (offered && t->in_ready_o) {
      smx16_in_beat_t b = cur;
      b.cnt = static_cast<int>(cur.cnt & ((1 << kCntW) - 1));  // what the wires carry
      smx16_slice_t s;
      smx16_unnormed_beat(&cfg, &row, &b, &s);
      expq.push_back(s);
      offered = false;
    }
    if (t->out_valid_o && t->out_ready_i) {
      uint64_t k = id++;
      if (!score.expect(!expq.empty(), "output slice owed", k)) {
        sim.tick();
        continue;
      }
      smx16_slice_t e = expq.front();
      expq.pop_front();
      bool e_ok = true;
      for (int j = 0; j < kVec; j++) e_ok = e_ok && tb_get_bits(t->out_e_o, j * 16, 16) == e.e[j];
      score.expect(e_ok, "e lanes", k);
      score.check("m", k, e.m, t->out_m_o);
      score.check("cnt", k, static_cast<uint32_t>(e.cnt), t->out_cnt_o);
      score.check("last", k, static_cast<uint32_t>(e.last), t->out_last_o);
      score.check("store", k, static_cast<uint32_t>(e.store), t->out_store_o);
      score.check("d", k, e.d, t->out_d_o);  // the running denominator, after every slice
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
