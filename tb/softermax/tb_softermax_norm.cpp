// tb_softermax_norm.cpp -- Verilator harness: a normalization unit at its own ports, for both
// number formats (tb_smx_rows.h): softermax_norm and softermax_fp16_norm. The slice and
// summary streams are made by the unit-level C model of the unnormed unit (smx_unnormed_beat)
// from random rows, malformed ones included; the expected probabilities come from the stream
// model (smx_model_*). Both input streams get independent random valid gaps, the output random
// ready backpressure; a reset in mid-row every few thousand rows.
// +ready_after_valid: the consumer raises ready only in the cycle after it has seen valid (legal
// under the handshake contract: ready may wait for valid). A unit whose output stage waited for
// ready while holding a beat it will never show (a dropped slice of a malformed row) would
// deadlock here; the run must still finish (issue 22, finding 9).
#include <deque>
#include <vector>

#include "tb_lib.h"
#include "tb_smx_rows.h"
#if SMX_FP16
#include "Vsoftermax_fp16_norm.h"
typedef Vsoftermax_fp16_norm Vtop;
static const char kTop[] = "softermax_fp16_norm", kTb[] = "tb_softermax_fp16_norm";
#else
#include "Vsoftermax_norm.h"
typedef Vsoftermax_norm Vtop;
static const char kTop[] = "softermax_norm", kTb[] = "tb_softermax_norm";
#endif

struct Summary {
  uint32_t d;
  int32_t m;
  int nslices;
  int err;
};

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, kTb, 50000, &a,
          {{"ready_after_valid", ": the output's ready rises only after valid was seen"}});
  const bool ready_after_valid = tb_plusarg_flag("ready_after_valid", false);
  bool seen_valid = false;  // the consumer saw out_valid_o in an earlier cycle
  smx_tb_print_config();
  TbSim<Vtop> sim(a, static_cast<uint64_t>(a.n + 100) * (kMaxLen / kVec + 4) * 6);
  Vtop *t = sim.top;
  TbScore score(kTop);
  TbStall slc_gap(a.gap_pct), sum_gap(a.gap_pct), stall(a.stall_pct);
  smx_cfg_t cfg = smx_tb_cfg();
  smx_unnormed_row_t row;
  smx_unnormed_row_init(&row);
  smx_model_t *model = smx_model_new(&cfg);
  smx_rng_t r;
  smx_rng_seed(&r, a.seed);

  std::deque<smx_slice_t> slcq;
  std::deque<Summary> sumq;
  std::deque<smx_out_beat_t> expq;
  long rows = 0, next_reset = 3000;
  uint64_t id = 0;
  t->slc_valid_i = 0;
  t->sum_valid_i = 0;
  t->out_ready_i = 0;
  sim.reset(4);

  auto make_row = [&]() {
    int n = rand_len(&r);
    uint64_t kind = smx_rng_next(&r) % 40;
    if (kind == 0) n = rand_overlong_len(&r);
    std::deque<smx_in_beat_t> beats;
    smx_row_beats(rand_row(n, &r), &beats, &r);
    if (kind == 1) beats.back().cnt = 0;
    for (auto &b : beats) {
      smx_slice_t s;
      smx_unnormed_beat(&cfg, &row, &b, &s);
      if (s.store) {
        for (int j = s.cnt; j < kVec; j++)  // unused lanes carry garbage the unit must ignore
          s.u[j] = static_cast<uint16_t>(smx_rng_next(&r));
        slcq.push_back(s);
      }
      if (s.last) sumq.push_back({s.d, s.m, s.nslices, s.err});
      smx_model_push(model, &b);
    }
    smx_out_beat_t o;
    while (smx_model_pop(model, &o)) expq.push_back(o);
    rows++;
  };

  bool slc_on = false, sum_on = false;
  while ((rows < a.n || !expq.empty()) && !sim.timed_out) {
    if (slcq.size() < 2 * static_cast<size_t>(kMaxLen / kVec + 1) && rows < a.n) make_row();
    if (rows >= next_reset && sim.cycle % 7 == 0) {
      // reset while slices are in flight: drop everything on both sides
      t->slc_valid_i = 0;
      t->sum_valid_i = 0;
      sim.reset(2);
      slcq.clear();
      sumq.clear();
      expq.clear();
      smx_unnormed_row_init(&row);
      smx_model_reset(model);
      slc_on = sum_on = false;
      seen_valid = false;
      next_reset = rows + 2000 + static_cast<long>(smx_rng_next(&r) % 3000);
      continue;
    }
    // valid, once raised, holds until taken
    if (!slc_on) slc_on = !slcq.empty() && !slc_gap.next();
    if (!sum_on) sum_on = !sumq.empty() && !sum_gap.next();
    t->slc_valid_i = slc_on;
    t->sum_valid_i = sum_on;
    if (slc_on) {
      const smx_slice_t &s = slcq.front();
      for (int j = 0; j < kVec; j++) tb_set_bits(t->SMX_SLC_U, j * kUWidth, kUWidth, s.u[j]);
      t->slc_m_i = static_cast<uint32_t>(s.m) & kMMask;
      t->slc_cnt_i = static_cast<uint32_t>(s.cnt);
    }
    if (sum_on) {
      const Summary &s = sumq.front();
      t->sum_d_i = s.d;
      t->sum_m_i = static_cast<uint32_t>(s.m) & kMMask;
      t->sum_nslices_i = static_cast<uint32_t>(s.nslices);
      t->sum_err_i = s.err;
    }
    t->out_ready_i = (!ready_after_valid || seen_valid) && !stall.next();
    t->eval();
    if (slc_on && t->slc_ready_o) {
      slcq.pop_front();
      slc_on = false;
    }
    if (sum_on && t->sum_ready_o) {
      sumq.pop_front();
      sum_on = false;
    }
    if (t->out_valid_o && t->out_ready_i) {
      uint64_t k = id++;
      if (score.expect(!expq.empty(), "output beat owed", k)) {
        smx_out_beat_t e = expq.front();
        expq.pop_front();
        bool ok = t->out_cnt_o == static_cast<uint32_t>(e.cnt) && t->out_last_o == e.last &&
                  t->out_err_o == e.err;
        for (int j = 0; j < kVec; j++)
          ok = ok && tb_get_bits(t->out_y_o, j * kOutWidth, kOutWidth) == e.y[j];
        score.expect(ok, "output beat differs from the model", k);
      }
    }
    seen_valid = t->out_valid_o && !t->out_ready_i;
    sim.tick();
  }
  for (int i = 0; i < 20; i++) {  // nothing more may come out
    t->slc_valid_i = 0;
    t->sum_valid_i = 0;
    t->out_ready_i = 1;
    t->eval();
    score.expect(!t->out_valid_o || !expq.empty(), "no extra output beat", id);
    sim.tick();
  }
  score.expect(!sim.timed_out, "finished before the timeout", id);
  std::printf("rows: %ld, beats checked: %llu\n", rows, (unsigned long long)id);
  smx_model_free(model);
  return score.finish();
}
