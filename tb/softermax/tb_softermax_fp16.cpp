// tb_softermax_fp16.cpp -- Verilator harness: softermax_fp16_baseline top against the C golden
// model (smx16_model_*, bit-exact: every IEEE operation through fpref).
//
// Every output beat is compared with the model, which is fed each input beat at the moment the
// RTL accepts it. Phases (each under random valid gaps and ready backpressure unless stated):
//   1. directed rows: the [2,1,3] example, equal elements, length 1, Vec, Vec+1 and MaxLen, a
//      maximum rising late and on every slice, -inf (masked) scores including a leading
//      all -inf slice and an all -inf row, large negative and positive scores, +-0 and
//      subnormals, NaN and +inf scores
//   2. error rows: cnt 0, cnt > Vec, a short beat before the last, rows over MaxLen; each
//      followed by good rows that must come out right
//   3. random rows (+n=N rows, random lengths, workload distributions converted to fp16, range
//      stress and special values), with a reset in mid-row every few thousand rows
//   4. throughput: 8 rows of MaxLen back to back with no stalls; asserts zero input stalls and
//      zero output bubbles (one slice per cycle), prints cycles per row and latency
// Configuration comes from the build: -GVec/-GMaxLen and -DSMX_VEC/-DSMX_MAXLEN.
#include <cstring>
#include <deque>
#include <vector>

#include "Vsoftermax_fp16_baseline.h"
#include "tb_lib.h"
#include "tb_smx16_rows.h"

struct Harness {
  TbArgs a;
  TbSim<Vsoftermax_fp16_baseline> sim;
  TbScore score{"softermax_fp16_baseline"};
  smx16_cfg_t cfg;
  smx16_model_t *model;
  TbStall in_stall, out_stall;
  std::deque<smx16_in_beat_t> inq;    // beats waiting to be offered
  std::deque<smx16_out_beat_t> expq;  // beats the RTL still owes
  bool offered = false;
  smx16_in_beat_t cur{};
  uint64_t out_beats = 0, in_beats = 0, rows_in = 0;
  // throughput bookkeeping
  uint64_t in_stall_cycles = 0, first_out_cycle = 0, last_out_cycle = 0, first_in_cycle = 0;

  explicit Harness(const TbArgs &args)
      : a(args), sim(args, 0), in_stall(args.gap_pct), out_stall(args.stall_pct) {
    cfg = smx16_tb_cfg();
    model = smx16_model_new(&cfg);
    sim.timeout = static_cast<uint64_t>(a.n + 2000) * (kMaxLen / kVec + 8) * 8 + 200000;
    sim.top->in_valid_i = 0;
    sim.top->out_ready_i = 0;
    sim.reset(4);
  }
  ~Harness() { smx16_model_free(model); }

  smx_rng_t garbage_rng{0x5eed};
  void queue_row(const std::vector<uint16_t> &x) { smx16_row_beats(x, &inq, &garbage_rng); }

  // One clock cycle of driving, sampling and checking.
  void cycle() {
    Vsoftermax_fp16_baseline *t = sim.top;
    if (!offered && !inq.empty() && !in_stall.next()) {
      cur = inq.front();
      inq.pop_front();
      offered = true;
    }
    t->in_valid_i = offered;
    uint32_t cnt_field = static_cast<uint32_t>(cur.cnt) & ((1u << kCntW) - 1);
    for (int j = 0; j < kVec; j++) tb_set_bits(t->in_x_i, j * 16, 16, offered ? cur.x[j] : 0);
    t->in_cnt_i = offered ? cnt_field : 0;
    t->in_last_i = offered ? cur.last : 0;
    t->out_ready_i = !out_stall.next();
    t->eval();
    if (offered && !t->in_ready_o) in_stall_cycles++;
    if (offered && t->in_ready_o) {
      smx16_in_beat_t b = cur;
      b.cnt = static_cast<int>(cnt_field);  // what the wires carry
      if (!in_beats) first_in_cycle = sim.cycle;
      smx16_model_push(model, &b);
      smx16_out_beat_t o;
      while (smx16_model_pop(model, &o)) expq.push_back(o);
      offered = false;
      in_beats++;
      if (b.last) rows_in++;
    }
    if (t->out_valid_o && t->out_ready_i) check_out();
    sim.tick();
  }

  void check_out() {
    Vsoftermax_fp16_baseline *t = sim.top;
    if (!out_beats) first_out_cycle = sim.cycle;
    last_out_cycle = sim.cycle;
    uint64_t id = out_beats++;
    if (expq.empty()) {
      score.expect(false, "unexpected output beat (nothing owed)", id);
      return;
    }
    smx16_out_beat_t e = expq.front();
    expq.pop_front();
    bool ok = t->out_cnt_o == static_cast<uint32_t>(e.cnt) && t->out_last_o == e.last &&
              t->out_err_o == e.err;
    for (int j = 0; j < kVec; j++) ok = ok && tb_get_bits(t->out_y_o, j * 16, 16) == e.y[j];
    if (!score.expect(ok, "output beat differs from the model", id) &&
        score.fail <= score.max_print) {
      std::printf("  expected cnt=%d last=%d err=%d y=", e.cnt, e.last, e.err);
      for (int j = 0; j < kVec; j++) std::printf("%04x ", e.y[j]);
      std::printf("\n  actual   cnt=%u last=%u err=%u y=", (unsigned)t->out_cnt_o,
                  (unsigned)t->out_last_o, (unsigned)t->out_err_o);
      for (int j = 0; j < kVec; j++) std::printf("%04x ", tb_get_bits(t->out_y_o, j * 16, 16));
      std::printf("\n");
    }
  }

  // Runs until every queued beat is in and every owed beat is out, then idles a little to
  // catch extra beats.
  void drain() {
    while ((!inq.empty() || offered || !expq.empty()) && !sim.timed_out) cycle();
    for (int i = 0; i < 40 && !sim.timed_out; i++) cycle();
    score.expect(!sim.timed_out, "drained before the timeout", out_beats);
  }

  void mid_row_reset() {
    sim.top->in_valid_i = 0;
    sim.reset(2);
    smx16_model_reset(model);
    inq.clear();
    expq.clear();
    offered = false;
  }
};

static void directed(Harness &h) {
  const uint16_t ninf = SMX16_NEG_INF;
  h.queue_row(f16_row({2, 1, 3}));                                // the paper's example
  h.queue_row(std::vector<uint16_t>(kMaxLen, smx16_from_double(-1.5)));  // equal, full length
  h.queue_row(std::vector<uint16_t>(kVec, smx16_from_double(7.25)));     // equal, one slice
  h.queue_row(f16_row({-3}));                                     // length 1
  h.queue_row(f16_row({65504}));
  std::vector<uint16_t> late(kMaxLen);                            // max rises at the very end
  for (int i = 0; i < kMaxLen; i++) late[i] = smx16_from_double(-12 + (i * 7) % 40 * 0.1);
  late[kMaxLen - 1] = smx16_from_double(9.5);
  h.queue_row(late);
  std::vector<uint16_t> steps(kMaxLen);                           // max rises on every slice
  for (int i = 0; i < kMaxLen; i++)
    steps[i] = smx16_from_double(-20 + (i / kVec) * 0.75 + (i % 3) * 0.1);
  h.queue_row(steps);
  std::vector<uint16_t> masked(kMaxLen);                          // leading slices all -inf
  for (int i = 0; i < kMaxLen; i++)
    masked[i] = i < kMaxLen / 2 + kVec ? ninf : smx16_from_double(i * 0.01);
  h.queue_row(masked);
  h.queue_row(std::vector<uint16_t>(kVec + 1, ninf));             // all -inf: NaN row
  h.queue_row({ninf, smx16_from_double(-60000), 0, smx16_from_double(-65504)});
  h.queue_row({smx16_from_double(60000), smx16_from_double(59000), 0x7BFF, 0xFBFF});
  h.queue_row({0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x8400});  // zeros, subnormals
  h.queue_row({0x3C00, 0x7E00, 0x4000});                          // NaN score
  h.queue_row({0x3C00, SMX16_POS_INF, 0x4000});                   // +inf score
  smx_rng_t r;
  smx_rng_seed(&r, h.a.seed + 7);
  h.queue_row(rand_row16(kVec, &r));
  h.queue_row(rand_row16(kVec + 1, &r));
  h.queue_row(rand_row16(kMaxLen, &r));
  h.drain();
}

static void error_rows(Harness &h) {
  smx_rng_t r;
  smx_rng_seed(&r, h.a.seed + 11);
  smx16_in_beat_t b{};
  for (int j = 0; j < kVec; j++) b.x[j] = smx16_from_double(j);
  // cnt 0 on a single-beat row
  b.cnt = 0; b.last = 1; h.inq.push_back(b);
  h.queue_row(rand_row16(kVec * 2 + 1, &r));
  // cnt > Vec (only expressible when the count field has spare codes)
  if ((1 << kCntW) - 1 > kVec) {
    b.cnt = kVec + 1; b.last = 1; h.inq.push_back(b);
    h.queue_row(rand_row16(3, &r));
  }
  // a short beat before the last one
  if (kVec > 1) {
    b.cnt = kVec - 1; b.last = 0; h.inq.push_back(b);
    b.cnt = kVec; b.last = 1; h.inq.push_back(b);
    h.queue_row(rand_row16(kVec, &r));
  }
  // rows over MaxLen: by one element, and by more than a slice
  h.queue_row(rand_row16(kMaxLen + 1, &r));
  h.queue_row(rand_row16(kMaxLen + kVec + 1, &r));
  h.queue_row(rand_row16(kMaxLen, &r));
  h.queue_row(rand_row16(1, &r));
  h.drain();
}

static void random_rows(Harness &h) {
  smx_rng_t r;
  smx_rng_seed(&r, h.a.seed);
  long done = 0;
  long next_reset = 500 + static_cast<long>(smx_rng_next(&r) % 2000);
  while (static_cast<long>(h.rows_in) < h.a.n && !h.sim.timed_out) {
    if (h.inq.size() < 4) {
      int n = rand_len(&r);
      if (smx_rng_next(&r) % 100 == 0) n = rand_overlong_len(&r);  // error rows in the mix
      h.queue_row(rand_row16(n, &r));
      done++;
      if (done % 5000 == 0) {  // vary the pressure during the run
        h.in_stall.pct = static_cast<int>(smx_rng_next(&r) % 60);
        h.out_stall.pct = static_cast<int>(smx_rng_next(&r) % 60);
      }
    }
    if (done >= next_reset && !h.inq.empty() && !h.inq.front().last) {
      // reset while a row is half in: the RTL and the model both forget everything
      for (int i = 0; i < 3; i++) h.cycle();
      h.mid_row_reset();
      next_reset = done + 1000 + static_cast<long>(smx_rng_next(&r) % 3000);
      continue;
    }
    h.cycle();
  }
  h.in_stall.pct = h.a.gap_pct;
  h.out_stall.pct = h.a.stall_pct;
  h.drain();
}

static void throughput(Harness &h, const std::vector<std::vector<uint16_t>> &rows,
                       const char *what) {
  h.in_stall.pct = 0;
  h.out_stall.pct = 0;
  h.drain();
  uint64_t beats0 = h.out_beats, in0 = h.in_beats;
  h.in_stall_cycles = 0;
  for (auto &x : rows) h.queue_row(x);
  uint64_t expect_beats = h.inq.size();
  h.in_beats = 0;  // first_in_cycle is taken at the next accepted beat
  h.out_beats = 0;
  h.drain();
  uint64_t span = h.last_out_cycle - h.first_out_cycle + 1;
  uint64_t bubbles = span - expect_beats;
  h.score.expect(h.out_beats == expect_beats, "throughput phase: every beat out", 0);
  h.score.expect(h.in_stall_cycles == 0, "throughput phase: input never stalled", 0);
  h.score.expect(bubbles == 0, "throughput phase: no output bubbles between rows", 0);
  std::printf("throughput %s: %zu rows, %llu beats, %.2f cycles/row, latency %llu cycles, "
              "%llu input stalls, %llu output bubbles\n",
              what, rows.size(), (unsigned long long)expect_beats,
              static_cast<double>(span) / rows.size(),
              (unsigned long long)(h.first_out_cycle - h.first_in_cycle),
              (unsigned long long)h.in_stall_cycles, (unsigned long long)bubbles);
  h.out_beats += beats0;
  h.in_beats += in0;
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_softermax_fp16", 20000, &a);
  std::printf("config: Vec=%d MaxLen=%d\n", kVec, kMaxLen);
  Harness h(a);
  directed(h);
  error_rows(h);
  random_rows(h);
  smx_rng_t r;
  smx_rng_seed(&r, a.seed + 3);
  std::vector<std::vector<uint16_t>> rows;
  for (int i = 0; i < 8; i++) {
    std::vector<double> real(kMaxLen);
    std::vector<int32_t> q(kMaxLen);
    smx_gen_row(&r, SMX_DIST_MIXED, kMaxLen, 24, 16, real.data(), q.data());
    std::vector<uint16_t> x(kMaxLen);
    for (int k = 0; k < kMaxLen; k++) x[k] = smx16_from_double(real[k]);
    rows.push_back(x);
  }
  throughput(h, rows, "MaxLen rows");
  std::printf("rows in: %llu, output beats checked: %llu\n", (unsigned long long)h.rows_in,
              (unsigned long long)h.out_beats);
  return h.score.finish();
}
