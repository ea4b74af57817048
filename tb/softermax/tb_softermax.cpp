// tb_softermax.cpp -- Verilator harness: a Softermax stream top against the C golden model,
// for both number formats (tb_smx_rows.h): softermax (Softermax) and softermax_fp16_baseline
// (the fp16 baseline; bit-exact, every IEEE operation through fpref).
//
// Every output beat is compared with the stream model (smx_model_*), which is fed each input
// beat at the moment the RTL accepts it. Phases (each under random valid gaps and ready
// backpressure unless stated):
//   1. directed rows: the [2,1,3] example of Sec. 5.2.3, equal elements, a maximum rising late
//      and on every slice, length 1, Vec, Vec+1 and MaxLen; Softermax: all-minimum rows and
//      power-sum saturation (when MaxLen >= 1024); fp16: -inf (masked) scores including a
//      leading all -inf slice and an all -inf row, large negative and positive scores, +-0
//      and subnormals, NaN and +inf scores
//   2. error rows: cnt 0, cnt > Vec, a short beat before the last, rows over MaxLen; each
//      followed by good rows that must come out right
//   3. random rows (+n=N rows, random lengths and score distributions; fp16: converted to
//      fp16 with range stress, special values and 1% over-long rows), with a reset in mid-row
//      every few thousand rows
//   4. throughput: 8 rows of MaxLen back to back with no stalls; asserts zero input stalls
//      and zero output bubbles, prints cycles per row and latency
// With +workload=<file> (rows of input codes, one a line, e.g. from sw/softermax/smx_scores)
// the harness instead runs that file's rows with no stalls and prints cycles per row.
// Configuration comes from the build: -G<Param> and the matching -DTB_<Param>
// (rtl/softermax/block.toml).
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "tb_lib.h"
#include "tb_smx_rows.h"
#if SMX_FP16
#include "Vsoftermax_fp16_baseline.h"
typedef Vsoftermax_fp16_baseline Vtop;
static const char kTop[] = "softermax_fp16_baseline", kTb[] = "tb_softermax_fp16";
#else
#include "Vsoftermax.h"
typedef Vsoftermax Vtop;
static const char kTop[] = "softermax", kTb[] = "tb_softermax";
#endif
// An input code's range (the workload file is checked against it).
static const long kCodeMin = SMX_FP16 ? 0 : -(1L << (kInWidth - 1));
static const long kCodeMax = SMX_FP16 ? static_cast<long>(kInMask) : (1L << (kInWidth - 1)) - 1;

struct Harness {
  TbArgs a;
  TbSim<Vtop> sim;
  TbScore score{kTop};
  smx_cfg_t cfg;
  smx_model_t *model;
  TbStall in_stall, out_stall;
  std::deque<smx_in_beat_t> inq;         // beats waiting to be offered
  std::deque<smx_out_beat_t> expq;       // beats the RTL still owes
  bool offered = false;
  smx_in_beat_t cur{};
  uint64_t out_beats = 0, in_beats = 0, rows_in = 0;
  // throughput bookkeeping
  uint64_t in_stall_cycles = 0, first_out_cycle = 0, last_out_cycle = 0, first_in_cycle = 0;

  explicit Harness(const TbArgs &args)
      : a(args), sim(args, 0), in_stall(args.gap_pct), out_stall(args.stall_pct) {
    cfg = smx_tb_cfg();
    model = smx_model_new(&cfg);
    sim.timeout = static_cast<uint64_t>(a.n + 2000) * (kMaxLen / kVec + 8) * 8 + 200000;
    sim.top->in_valid_i = 0;
    sim.top->out_ready_i = 0;
    sim.reset(4);
  }
  ~Harness() { smx_model_free(model); }

  smx_rng_t garbage_rng{0x5eed};
  void queue_row(const SmxRow &x) { smx_row_beats(x, &inq, &garbage_rng); }

  // One clock cycle of driving, sampling and checking.
  void cycle() {
    Vtop *t = sim.top;
    if (!offered && !inq.empty() && !in_stall.next()) {
      cur = inq.front();
      inq.pop_front();
      offered = true;
    }
    t->in_valid_i = offered;
    uint32_t cnt_field = static_cast<uint32_t>(cur.cnt) & ((1u << kCntW) - 1);
    for (int j = 0; j < kVec; j++)
      tb_set_bits(t->in_x_i, j * kInWidth, kInWidth,
                  offered ? static_cast<uint32_t>(cur.x[j]) & kInMask : 0);
    t->in_cnt_i = offered ? cnt_field : 0;
    t->in_last_i = offered ? cur.last : 0;
    t->out_ready_i = !out_stall.next();
    t->eval();
    if (offered && !t->in_ready_o) in_stall_cycles++;
    if (offered && t->in_ready_o) {
      smx_in_beat_t b = cur;
      b.cnt = static_cast<int>(cnt_field);  // what the wires carry
      if (!in_beats) first_in_cycle = sim.cycle;
      smx_model_push(model, &b);
      smx_out_beat_t o;
      while (smx_model_pop(model, &o)) expq.push_back(o);
      offered = false;
      in_beats++;
      if (b.last) rows_in++;
    }
    if (t->out_valid_o && t->out_ready_i) check_out();
    sim.tick();
  }

  void check_out() {
    Vtop *t = sim.top;
    if (!out_beats) first_out_cycle = sim.cycle;
    last_out_cycle = sim.cycle;
    uint64_t id = out_beats++;
    if (expq.empty()) {
      score.expect(false, "unexpected output beat (nothing owed)", id);
      return;
    }
    smx_out_beat_t e = expq.front();
    expq.pop_front();
    bool ok = t->out_cnt_o == static_cast<uint32_t>(e.cnt) && t->out_last_o == e.last &&
              t->out_err_o == e.err;
    for (int j = 0; j < kVec; j++)
      ok = ok && tb_get_bits(t->out_y_o, j * kOutWidth, kOutWidth) == e.y[j];
    if (!score.expect(ok, "output beat differs from the model", id) &&
        score.fail <= score.max_print) {
      const char *sep = SMX_FP16 ? " " : "";
      std::printf("  expected cnt=%d last=%d err=%d y=", e.cnt, e.last, e.err);
      for (int j = 0; j < kVec; j++) std::printf("%0*x%s", kOutWidth / 4, e.y[j], sep);
      std::printf("\n  actual   cnt=%u last=%u err=%u y=", (unsigned)t->out_cnt_o,
                  (unsigned)t->out_last_o, (unsigned)t->out_err_o);
      for (int j = 0; j < kVec; j++)
        std::printf("%0*x%s", kOutWidth / 4, tb_get_bits(t->out_y_o, j * kOutWidth, kOutWidth),
                    sep);
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
    smx_model_reset(model);
    inq.clear();
    expq.clear();
    offered = false;
  }
};

#if SMX_FP16
static void directed(Harness &h) {
  const uint16_t ninf = SMX16_NEG_INF;
  h.queue_row(f16_row({2, 1, 3}));                                // the paper's example
  h.queue_row(SmxRow(kMaxLen, smx16_from_double(-1.5)));          // equal, full length
  h.queue_row(SmxRow(kVec, smx16_from_double(7.25)));             // equal, one slice
  h.queue_row(f16_row({-3}));                                     // length 1
  h.queue_row(f16_row({65504}));
  SmxRow late(kMaxLen);                                           // max rises at the very end
  for (int i = 0; i < kMaxLen; i++) late[i] = smx16_from_double(-12 + (i * 7) % 40 * 0.1);
  late[kMaxLen - 1] = smx16_from_double(9.5);
  h.queue_row(late);
  SmxRow steps(kMaxLen);                                          // max rises on every slice
  for (int i = 0; i < kMaxLen; i++)
    steps[i] = smx16_from_double(-20 + (i / kVec) * 0.75 + (i % 3) * 0.1);
  h.queue_row(steps);
  SmxRow masked(kMaxLen);                                         // leading slices all -inf
  for (int i = 0; i < kMaxLen; i++)
    masked[i] = i < kMaxLen / 2 + kVec ? ninf : smx16_from_double(i * 0.01);
  h.queue_row(masked);
  h.queue_row(SmxRow(kVec + 1, ninf));                            // all -inf: NaN row
  h.queue_row({ninf, smx16_from_double(-60000), 0, smx16_from_double(-65504)});
  h.queue_row({smx16_from_double(60000), smx16_from_double(59000), 0x7BFF, 0xFBFF});
  h.queue_row({0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x8400});  // zeros, subnormals
  h.queue_row({0x3C00, 0x7E00, 0x4000});                          // NaN score
  h.queue_row({0x3C00, SMX16_POS_INF, 0x4000});                   // +inf score
  smx_rng_t r;
  smx_rng_seed(&r, h.a.seed + 7);
  h.queue_row(rand_row(kVec, &r));
  h.queue_row(rand_row(kVec + 1, &r));
  h.queue_row(rand_row(kMaxLen, &r));
  h.drain();
}

static int32_t lane_code(int j) { return smx16_from_double(j); }  // the value j

// A row of the throughput phase: attention-like scores (the mixed distribution) in fp16.
static SmxRow throughput_row(smx_rng_t *r) {
  std::vector<double> real(kMaxLen);
  std::vector<int32_t> q(kMaxLen);
  smx_gen_row(r, SMX_DIST_MIXED, kMaxLen, 24, 16, real.data(), q.data());
  SmxRow x(kMaxLen);
  for (int k = 0; k < kMaxLen; k++) x[k] = smx16_from_double(real[k]);
  return x;
}
#else
static void directed(Harness &h) {
  h.queue_row({8, 4, 12});                              // [2, 1, 3] in Q(6,2)
  h.queue_row(SmxRow(kMaxLen, 0));                      // equal elements, full length
  h.queue_row(SmxRow(kVec, 37));                        // equal, one slice
  h.queue_row(SmxRow(kMaxLen, -128));                   // all minimum
  h.queue_row({-128});                                  // length 1
  h.queue_row({127});
  SmxRow late(kMaxLen);                                 // max rises at the very end
  for (int i = 0; i < kMaxLen; i++) late[i] = -120 + (i * 7) % 40;
  late[kMaxLen - 1] = 127;
  h.queue_row(late);
  SmxRow steps(kMaxLen);                                // max rises on every slice
  for (int i = 0; i < kMaxLen; i++) steps[i] = -128 + (i / kVec) * 4 + (i % 3);
  h.queue_row(steps);
  smx_rng_t r;
  smx_rng_seed(&r, h.a.seed + 7);
  h.queue_row(rand_row(kVec, &r));
  h.queue_row(rand_row(kVec + 1, &r));
  h.queue_row(rand_row(kMaxLen, &r));
  if (kMaxLen >= 1024) {                                // power sum reaches 1023.98 and saturates
    h.queue_row(SmxRow(kMaxLen, 5));
    SmxRow sat(kMaxLen, 5);
    sat[kMaxLen - 1] = 40;                              // late max renormalizes a saturated sum
    h.queue_row(sat);
  }
  h.drain();
}

static int32_t lane_code(int j) { return j; }

static SmxRow throughput_row(smx_rng_t *r) { return rand_row(kMaxLen, r); }
#endif

static void error_rows(Harness &h) {
  smx_rng_t r;
  smx_rng_seed(&r, h.a.seed + 11);
  smx_in_beat_t b{};
  for (int j = 0; j < kVec; j++) b.x[j] = lane_code(j);
  // cnt 0 on a single-beat row
  b.cnt = 0; b.last = 1; h.inq.push_back(b);
  h.queue_row(rand_row(kVec * 2 + 1, &r));
  // cnt > Vec (only expressible when the count field has spare codes)
  if ((1 << kCntW) - 1 > kVec) {
    b.cnt = kVec + 1; b.last = 1; h.inq.push_back(b);
    h.queue_row(rand_row(3, &r));
  }
  // a short beat before the last one
  if (kVec > 1) {
    b.cnt = kVec - 1; b.last = 0; h.inq.push_back(b);
    b.cnt = kVec; b.last = 1; h.inq.push_back(b);
    h.queue_row(rand_row(kVec, &r));
  }
  // rows over MaxLen: by one element, and by more than a slice
  h.queue_row(rand_row(kMaxLen + 1, &r));
  h.queue_row(rand_row(kMaxLen + kVec + 1, &r));
  h.queue_row(rand_row(kMaxLen, &r));
  h.queue_row(rand_row(1, &r));
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
      if (SMX_FP16 && smx_rng_next(&r) % 100 == 0) n = rand_overlong_len(&r);  // error rows
      h.queue_row(rand_row(n, &r));
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

static void throughput(Harness &h, const std::vector<SmxRow> &rows, const char *what) {
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

static bool read_workload(const char *path, std::vector<SmxRow> *rows) {
  FILE *f = std::fopen(path, "r");
  if (!f) {
    std::printf("cannot open workload %s\n", path);
    return false;
  }
  SmxRow row;
  int c, lineno = 1;
  std::string tok;
  bool ok = true;
  auto flush_tok = [&]() {
    if (tok.empty()) return;
    char *end;
    long v = std::strtol(tok.c_str(), &end, 10);
    if (*end || v < kCodeMin || v > kCodeMax) {
      std::printf("workload %s:%d: bad score code '%s'\n", path, lineno, tok.c_str());
      ok = false;
    }
    row.push_back(static_cast<int32_t>(v));
    tok.clear();
  };
  while ((c = std::fgetc(f)) != EOF && ok) {
    if (c == '\n') {
      flush_tok();
      if (!row.empty()) {
        if (static_cast<int>(row.size()) > kMaxLen) {
          std::printf("workload %s:%d: row of %zu > MaxLen %d\n", path, lineno, row.size(), kMaxLen);
          ok = false;
        }
        rows->push_back(row);
      }
      row.clear();
      lineno++;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      flush_tok();
    } else {
      tok.push_back(static_cast<char>(c));
    }
  }
  flush_tok();
  if (!row.empty()) rows->push_back(row);
  std::fclose(f);
  return ok && !rows->empty();
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, kTb, 20000, &a, {{"workload", "=<file>: rows of a score file (smx_scores)"}});
  smx_tb_print_config();
  Harness h(a);
  const char *wl = tb_plusarg("workload");
  if (wl && *wl) {
    std::vector<SmxRow> rows;
    if (!read_workload(wl, &rows)) {
      h.score.expect(false, "workload file readable and well formed", 0);
      return h.score.finish();
    }
    throughput(h, rows, "workload");
    std::printf("workload: %zu rows checked against the model\n", rows.size());
    return h.score.finish();
  }
  directed(h);
  error_rows(h);
  random_rows(h);
  smx_rng_t r;
  smx_rng_seed(&r, a.seed + 3);
  std::vector<SmxRow> rows;
  for (int i = 0; i < 8; i++) rows.push_back(throughput_row(&r));
  throughput(h, rows, "MaxLen rows");
  std::printf("rows in: %llu, output beats checked: %llu\n", (unsigned long long)h.rows_in,
              (unsigned long long)h.out_beats);
  return h.score.finish();
}
