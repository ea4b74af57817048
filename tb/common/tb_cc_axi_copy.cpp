// tb_cc_axi_copy.cpp -- the AXI shell's memory masters (cc_axi_rd_master, cc_axi_wr_master,
// cc_axi_burst_gen) in a copy engine (tb_cc_axi_copy_top.v) against the AXI4 memory model of
// tb/common/tb_axi.h (random backpressure on every channel, random latencies, protocol checked:
// 4 KB crossings, lengths, WLAST, valid/payload holding). Build-time: TB_DataW, TB_MaxBurst,
// TB_Outstanding.
//   +n random copies of 1..2000 beats from random bus-aligned addresses (many cross 4 KB and
//   need bursts of MaxBurst), queued back to back; each destination checked byte for byte at its
//   done_o, the bursts counted against the split rule; SLVERR on a read (rd_err_o and the data
//   stream's error flag, per beat) and on a write (done_err_o: an error in a middle burst, in the
//   last beat only, and in a copy of one burst; err_o once per error response) followed by good
//   copies; reset in the middle of copies.
// Last line: "N passed, N failed".
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <vector>

#include "Vtb_cc_axi_copy_top.h"
#include "tb_axi.h"
#include "tb_lib.h"

namespace {

typedef Vtb_cc_axi_copy_top Top;
const uint64_t kMem = 8u << 20, kDstBase = 4u << 20;
const unsigned kBB = TB_DataW / 8;

struct Copy {
  uint64_t src, dst;
  unsigned beats;
  bool expect_rd_err, expect_wr_err;
  long id;
};

struct Env {
  TbArgs a;
  TbScore sc{"cc_axi_copy"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxiMem<Top> mem;
  std::deque<Copy> pending, inflight;
  long rd_bursts = 0, wr_bursts = 0, rd_errs = 0, rd_data_errs = 0, wr_errs = 0, exp_rd = 0,
       exp_wr = 0, done = 0;
  uint64_t dst_next = kDstBase;
  explicit Env(const TbArgs &args)
      : a(args), sim(args, 200000000ull), clk(sim), mem(clk, &sc, kMem, args.stall_pct, args.gap_pct) {
    clk.add(step, this);
  }
  static void step(void *u, int ph) {
    Env *e = static_cast<Env *>(u);
    Top *t = e->sim.top;
    if (ph == TB_RESET) {
      t->cmd_valid_i = 0;
    } else if (ph == TB_DRIVE) {
      t->cmd_valid_i = !e->pending.empty();
      if (!e->pending.empty()) {
        t->cmd_src_i = static_cast<uint32_t>(e->pending.front().src);
        t->cmd_dst_i = static_cast<uint32_t>(e->pending.front().dst);
        t->cmd_beats_i = e->pending.front().beats;
      }
    } else if (ph == TB_SAMPLE) {
      if (t->cmd_valid_i && t->cmd_ready_o) {
        e->inflight.push_back(e->pending.front());
        e->pending.pop_front();
      }
      e->rd_bursts += t->rd_burst_o;
      e->wr_bursts += t->wr_burst_o;
      e->rd_errs += t->rd_err_o;
      e->rd_data_errs += t->rd_data_err_o;
      e->wr_errs += t->wr_err_o;
      if (t->done_o) e->finish_one(t->done_err_o);
    }
  }
  void finish_one(bool err) {
    if (!sc.expect(!inflight.empty(), "done_o only for a copy in flight", 0)) return;
    Copy c = inflight.front();
    inflight.pop_front();
    done++;
    sc.check("done_err_o (write error response in the copy)", static_cast<uint64_t>(c.id), c.expect_wr_err, err);
    if (c.expect_rd_err || c.expect_wr_err) return;
    size_t n = static_cast<size_t>(c.beats) * kBB;
    std::vector<uint8_t> s(n), d(n);
    mem.read(c.src, s.data(), n);
    mem.read(c.dst, d.data(), n);
    sc.expect(s == d, "destination equals source", static_cast<uint64_t>(c.id));
  }
};

void queue_copy(Env &e, long id, unsigned beats, bool rd_err = false, bool wr_err = false) {
  Copy c;
  size_t n = static_cast<size_t>(beats) * kBB;
  c.src = (tb_rand() % (kDstBase - n - 4096)) & ~static_cast<uint64_t>(kBB - 1);
  if (tb_chance(30)) c.src = ((c.src | 4095) + 1) - kBB * tb_rand_range(1, 8);
  if (e.dst_next + n + 8192 > kMem) e.dst_next = kDstBase;
  c.dst = e.dst_next + kBB * tb_rand_range(0, 4096 / kBB);
  e.dst_next = c.dst + n;
  c.beats = beats;
  c.expect_rd_err = rd_err;
  c.expect_wr_err = wr_err;
  c.id = id;
  e.exp_rd += tb_axi_bursts(c.src, beats, kBB, TB_MaxBurst);
  e.exp_wr += tb_axi_bursts(c.dst, beats, kBB, TB_MaxBurst);
  e.pending.push_back(c);
}

bool run_until_idle(Env &e) {
  uint64_t t0 = e.clk.now();
  while ((!e.pending.empty() || !e.inflight.empty() || e.sim.top->busy_o) && !e.clk.timed_out()) {
    e.clk.cycle();
    if (e.clk.now() - t0 > 50000000ull) break;
  }
  return e.pending.empty() && e.inflight.empty();
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "cc_axi_copy", 2000, &a);
  Env e(a);
  e.mem.fill_random();
  e.clk.reset();
  long id = 0;
  // random copies, queued in groups so several are in flight
  while (id < a.n) {
    int group = static_cast<int>(tb_rand_range(1, 6));
    for (int g = 0; g < group && id < a.n; g++)
      queue_copy(e, id++, tb_chance(20) ? tb_rand_range(1, 8) : tb_rand_range(1, 2000));
    e.sc.expect(run_until_idle(e), "every copy completes", static_cast<uint64_t>(id));
  }
  e.sc.check("AR bursts = the split rule's count (4 KB, MaxBurst)", 0, static_cast<uint64_t>(e.exp_rd),
             static_cast<uint64_t>(e.rd_bursts));
  e.sc.check("AW bursts = the split rule's count", 0, static_cast<uint64_t>(e.exp_wr),
             static_cast<uint64_t>(e.wr_bursts));
  e.sc.check("no data beat of a good copy flagged as an error", 0, 0,
             static_cast<uint64_t>(e.rd_data_errs));
  e.sc.check("no write response of a good copy flagged as an error", 0, 0,
             static_cast<uint64_t>(e.wr_errs));
  // a SLVERR on a read, then on a write; each followed by good copies
  {
    queue_copy(e, id, 300, true, false);
    const Copy &c = e.pending.back();
    e.mem.add_slverr(c.src + kBB * 10, c.src + kBB * 20);
    long errs0 = e.rd_errs, data_errs0 = e.rd_data_errs;
    e.sc.expect(run_until_idle(e), "a copy with a read error completes", static_cast<uint64_t>(id));
    e.sc.check("rd_err_o once per error beat", static_cast<uint64_t>(id), 10, static_cast<uint64_t>(e.rd_errs - errs0));
    e.sc.check("data_err_o on exactly the error beats of the data stream", static_cast<uint64_t>(id), 10,
               static_cast<uint64_t>(e.rd_data_errs - data_errs0));
    e.mem.slverr.clear();
    id++;
    queue_copy(e, id++, 500);
    queue_copy(e, id, 300, false, true);
    const Copy &w = e.pending.back();
    e.mem.add_slverr(w.dst + kBB * 100, w.dst + kBB * 101);
    e.sc.expect(run_until_idle(e), "a copy with a write error completes", static_cast<uint64_t>(id));
    e.mem.slverr.clear();
    id++;
    // the error in the last beat only: done_err_o comes from the last B response itself, not
    // from an error an earlier burst left behind
    queue_copy(e, id, 300, false, true);
    const Copy &wl = e.pending.back();
    e.mem.add_slverr(wl.dst + kBB * 299, wl.dst + kBB * 300);
    e.sc.expect(run_until_idle(e), "a copy with an error in its last beat completes", static_cast<uint64_t>(id));
    e.mem.slverr.clear();
    id++;
    // a copy of one burst (8 beats from the start of a 4 KB page) with a write error
    queue_copy(e, id, 8, false, true);
    Copy &w1 = e.pending.back();
    w1.dst = (w1.dst + 4095) & ~static_cast<uint64_t>(4095);
    e.dst_next = w1.dst + 8 * kBB + 4096;
    e.mem.add_slverr(w1.dst, w1.dst + 8 * kBB);
    e.sc.expect(run_until_idle(e), "a one-burst copy with a write error completes", static_cast<uint64_t>(id));
    e.mem.slverr.clear();
    id++;
    // each of the three windows lies in one burst: one error response each
    e.sc.check("err_o once per write response with an error", static_cast<uint64_t>(id), 3,
               static_cast<uint64_t>(e.wr_errs));
    for (int k = 0; k < 5; k++) queue_copy(e, id++, tb_rand_range(1, 2000));
    e.sc.expect(run_until_idle(e), "good copies after the errors", static_cast<uint64_t>(id));
  }
  // reset in the middle of copies, then good copies
  {
    for (int k = 0; k < 4; k++) queue_copy(e, id++, tb_rand_range(500, 2000));
    for (int k = 0; k < 300; k++) e.clk.cycle();
    e.clk.reset();
    e.pending.clear();
    e.inflight.clear();
    e.sc.check("busy_o after reset", 0, 0, e.sim.top->busy_o);
    for (int k = 0; k < 5; k++) queue_copy(e, id++, tb_rand_range(1, 2000));
    e.sc.expect(run_until_idle(e), "good copies after reset", static_cast<uint64_t>(id));
  }
  e.sc.check("AXI protocol violations seen by the memory model", 0, 0, static_cast<uint64_t>(e.mem.violations));
  std::printf("copies: %ld done, %ld AR / %ld AW bursts, %" PRIu64 " cycles\n", e.done, e.rd_bursts,
              e.wr_bursts, e.clk.now());
  return e.sc.finish();
}
