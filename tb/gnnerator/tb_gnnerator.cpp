// tb_gnnerator.cpp -- Verilator harness of the GNNerator Dense Engine (rtl/gnnerator/gnnerator.v)
// against its golden model (cmodel/gnnerator) and its cycle model.
//
// Each instruction is executed by the model when the harness hands it to the RTL; then
//   * every status beat (one per instruction, in order) is compared with the model's status,
//   * every DRAM write the RTL makes is compared with the model's STORE beat log, in order
//     (address, word count, every word),
//   * at the end, the check regions of a workload (or the whole memory image written by a random
//     stream) are compared word by word.
// The memory port model: one request accepted a cycle (random refusals with +stall=P), read data
// +lat=L cycles after acceptance (default 10), in order; reads and writes take effect when
// accepted. Bytes are counted.
//
// Runs:
//   +workload=FILE    a workload file (sw/gnnerator/gnn_dense.h): memory image, program, checks.
//                     With +stall=0 +gap=0 the cycle count must equal gnn_cycles() exactly.
//   (default)         +n=N random instructions (gnn_random_program) over a random memory image,
//                     random instruction gaps (+gap) and memory back-pressure (+stall), with a
//                     reset in mid-stream (+reset=0 turns it off) after which both sides are
//                     re-initialised (memory image, a scrub of every buffer line) and go on; at
//                     the end every OUT line is stored and compared.
//   +bad=P            percentage of malformed instructions in the random stream (default 5).
//   +special=P        percentage of special values (NaN, inf, subnormal, zeros) in its data.
//   +dump=FILE        write the random stream and its memory image as a workload file.
//   +reset_at=C       (with +workload) reset at cycle C of the program, then run it again.
//   With a Graph Engine (TB_Gpes > 0) the random stream interleaves a random graph stream
//   (gnn_random_gprogram: GLOAD/GSTORE/GFILL/GRUN, edges from an edge region) with the dense one;
//   after it every MF line is stored too, and the bad-edge count is compared.  The DRAM writes
//   of the two store units are matched to the model's beats of their own engine (their ranges
//   never overlap while both are in flight).
// Build parameters: TB_Rows, TB_Cols, TB_InDepth, TB_WtDepth, TB_OutDepth, TB_AddrW, TB_QDepth,
// TB_Gpes, TB_Lanes, TB_Sfus, TB_EdgeDepth, TB_IfDepth, TB_MfDepth.
#include "Vgnnerator.h"
#include "tb_lib.h"

#include <cinttypes>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <vector>

#include "gnnerator.h"
#include "gnnerator/gnn_dense.h"
#include "gnnerator/gnn_gcomp.h"
#include "tb_gnn_stream.h"  // the DRAM map, the random stream, the flush programs

typedef Vgnnerator Top;

static const int kLw = TB_Rows > TB_Cols ? TB_Rows : TB_Cols;
static const int kPw = (TB_Gpes > 0 && TB_Lanes > kLw) ? TB_Lanes : kLw;  // words of the port

// ---------------------------------------------------------------- sparse DRAM of the harness
struct Dram {
  std::unordered_map<uint64_t, std::vector<uint32_t>> pages;  // 4096-word pages
  uint32_t rd(uint64_t a) const {
    auto it = pages.find(a >> 12);
    return it == pages.end() ? 0u : it->second[a & 4095];
  }
  void wr(uint64_t a, uint32_t v) {
    auto &p = pages[a >> 12];
    if (p.empty()) p.assign(4096, 0u);
    p[a & 4095] = v;
  }
};

struct Rsp {
  uint64_t due;
  uint32_t data[64];
};

struct Bench {
  Top *t;
  TbSim<Top> *sim;
  TbScore *sc;
  gnn_cfg_t cfg;
  gnn_model_t *model = nullptr;
  Dram mem;
  std::deque<Rsp> rsp;
  std::deque<int> status_exp;   // model statuses of instructions handed to the RTL
  std::deque<std::pair<long, gnn_beat_t>> beats_exp[2];  // model writes: dense, graph (with the
                                                         // instruction's number)
  long insn_sent = 0, insn_done = 0, beats = 0, errors = 0;
  long err_hist[8] = {0};
  uint64_t gex_cycles = 0;      // the model's GRUN / GFILL cycles (GRUN TIMING)
  uint64_t rd_bytes = 0, wr_bytes = 0, rd_lines = 0, wr_lines = 0;
  int lat = 10;
  TbStall stall{0};
};

static void set_insn(Top *t, const gnn_insn_t &in) {
  for (int i = 0; i < 4; i++) t->insn_data_i[i] = in.w[i];
}

// The memory port for this cycle: offer a response, decide acceptance. Call after inputs are set
// and eval'd; returns whether a request is accepted at the coming edge (the caller ticks).
static void mem_cycle(Bench *b) {
  Top *t = b->t;
  const uint64_t now = b->sim->cycle;
  bool rsp_v = !b->rsp.empty() && b->rsp.front().due <= now;
  t->mem_rsp_valid_i = rsp_v;
  if (rsp_v)
    for (int w = 0; w < kPw; w++)
      tb_set_bits(t->mem_rsp_data_i, 32 * w, 32, b->rsp.front().data[w]);
  t->mem_req_ready_i = !b->stall.next();
  t->eval();
  if (rsp_v) b->rsp.pop_front();
  if (!(t->mem_req_valid_o && t->mem_req_ready_i)) return;
  const uint64_t addr = t->mem_req_addr_o;
  const unsigned words = t->mem_req_words_o;
  b->sc->expect(words >= 1 && words <= (unsigned)kPw, "request word count in 1..Pw", now);
  if (t->mem_req_we_o) {
    // the engine whose next expected write has this address (the older one if both have it)
    auto &d = b->beats_exp[0], &g = b->beats_exp[1];
    const bool dm = !d.empty() && d.front().second.addr == addr;
    const bool gm = !g.empty() && g.front().second.addr == addr;
    auto *q = (dm && (!gm || d.front().first < g.front().first)) ? &d
              : gm                                               ? &g
              : !d.empty()                                       ? &d
                                                                 : &g;
    gnn_beat_t exp;
    size_t got = q->empty() ? 0 : 1;
    if (got) exp = q->front().second, q->pop_front();
    b->sc->expect(got == 1, "a DRAM write the model also makes", now);
    if (got == 1) {
      b->sc->check("write address", b->beats, exp.addr, addr);
      b->sc->check("write words", b->beats, exp.words, words);
      for (unsigned w = 0; w < words && w < exp.words; w++)
        b->sc->check("write data", b->beats * 64 + w, exp.data[w],
                     tb_get_bits(t->mem_req_wdata_o, 32 * (int)w, 32));
    }
    for (unsigned w = 0; w < words; w++)
      b->mem.wr(addr + w, tb_get_bits(t->mem_req_wdata_o, 32 * (int)w, 32));
    b->beats++;
    b->wr_lines++;
    b->wr_bytes += 4ull * words;
  } else {
    Rsp r;
    r.due = now + (uint64_t)b->lat;
    std::memset(r.data, 0, sizeof r.data);
    for (unsigned w = 0; w < words; w++) r.data[w] = b->mem.rd(addr + w);
    b->rsp.push_back(r);
    b->rd_lines++;
    b->rd_bytes += 4ull * words;
  }
}

// Status beats of this cycle (sampled after eval).
static void status_cycle(Bench *b) {
  Top *t = b->t;
  if (!t->status_valid_o) return;
  b->sc->expect(!b->status_exp.empty(), "a status beat for an instruction that was sent",
                b->sim->cycle);
  if (!b->status_exp.empty()) {
    b->sc->check("status", b->insn_done, (uint64_t)b->status_exp.front(), t->status_err_o);
    if (b->status_exp.front() != 0) {
      b->errors++;
      b->err_hist[b->status_exp.front() & 7]++;
    }
    b->status_exp.pop_front();
  }
  b->insn_done++;
}

// Moves the model's new DRAM writes to the queue of their engine.
static void take_model_beats(Bench *b, bool graph) {
  gnn_beat_t bt;
  while (gnn_model_take_beats(b->model, &bt, 1) == 1)
    b->beats_exp[graph ? 1 : 0].emplace_back(b->insn_sent, bt);
}

// Runs a program through the RTL: instructions handed over with random gaps (gap %), the model
// executing each as it is taken. stop_after >= 0: return after that many instructions were
// taken (for a reset in mid-stream) without waiting for idle. Returns cycles from the first
// offered instruction to idle.
static uint64_t run_program(Bench *b, const gnn_insn_t *prog, size_t n, TbStall *gap,
                            long stop_after = -1, int extra_cycles = 0,
                            uint64_t stop_cycle = 0) {
  Top *t = b->t;
  size_t i = 0;
  const uint64_t start = b->sim->cycle;
  bool valid = false;
  long taken = 0;
  while (!b->sim->timed_out) {
    if (!valid && i < n && !gap->next()) valid = true;
    t->insn_valid_i = valid;
    if (valid) set_insn(t, prog[i]);
    mem_cycle(b);
    status_cycle(b);
    if (valid && t->insn_ready_o) {
      const int st = gnn_model_exec(b->model, &prog[i]);
      b->status_exp.push_back(st);
      const unsigned op = prog[i].w[0] & 0xFu;
      take_model_beats(b, op >= GNN_OP_GLOAD);
      if (st == GNN_OK && (op == GNN_OP_GRUN || op == GNN_OP_GFILL))
        b->gex_cycles += gnn_model_grun_stats(b->model).cycles;
      b->insn_sent++;
      i++;
      taken++;
      valid = false;
    }
    const bool idle = t->idle_o && i == n && !valid;
    b->sim->tick();
    if (stop_after >= 0 && taken >= stop_after) {
      for (int k = 0; k < extra_cycles; k++) {
        t->insn_valid_i = 0;
        mem_cycle(b);
        status_cycle(b);
        b->sim->tick();
      }
      return b->sim->cycle - start;
    }
    if (idle) break;
    if (stop_cycle && b->sim->cycle - start >= stop_cycle) return b->sim->cycle - start;
  }
  t->insn_valid_i = 0;
  return b->sim->cycle - start;
}

static void fresh_state(Bench *b, const gnn_wl_t *wl) {
  if (b->model) gnn_model_free(b->model);
  b->model = gnn_model_new(&b->cfg);
  b->mem.pages.clear();
  for (size_t r = 0; r < wl->n_mem; r++)
    for (size_t k = 0; k < wl->mem[r].n; k++) {
      b->mem.wr(wl->mem[r].addr + k, wl->mem[r].data[k]);
      gnn_mem_wr(b->model, wl->mem[r].addr + k, wl->mem[r].data[k]);
    }
  b->rsp.clear();
  b->status_exp.clear();
  b->beats_exp[0].clear();
  b->beats_exp[1].clear();
  b->gex_cycles = 0;
  gnn_beat_t junk[16];
  while (gnn_model_take_beats(b->model, junk, 16) > 0) {
  }
}

// LOADs of zeros into every line of every bank (from a DRAM region the caller keeps zero).
static std::vector<gnn_insn_t> scrub_program(const gnn_cfg_t *cfg, uint32_t zero_addr) {
  std::vector<gnn_insn_t> p;
  for (int buf = 0; buf < 3; buf++)
    for (int bank = 0; bank < 2; bank++)
      p.push_back(gnn_enc_load((unsigned)buf, (unsigned)(bank * cfg->depth[buf]),
                               (unsigned)cfg->depth[buf], (unsigned)cfg->lw, zero_addr, 0));
  return p;
}

static void compare_region(Bench *b, uint64_t addr, uint64_t n, const char *what) {
  for (uint64_t k = 0; k < n; k++)
    b->sc->check(what, addr + k, gnn_mem_rd(b->model, addr + k), b->mem.rd(addr + k));
}

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_gnnerator", 2000, &a,
          {{"workload", "=<file>: a workload file (sw/gnnerator)"},
           {"lat", "=L: memory read latency (cycles, default 10)"},
           {"bad", "=P: random stream, percent malformed instructions (default 5)"},
           {"special", "=P: random stream, percent special values (default 5)"},
           {"reset", "=0|1: random stream, a reset mid-stream (default 1)"},
           {"dump", "=<file>: write the random stream as a workload file"},
           {"reset_at", "=C: with +workload, reset at cycle C and run again"}});
  Bench b;
  if (gnn_cfg_init(&b.cfg, TB_Rows, TB_Cols, TB_InDepth, TB_WtDepth, TB_OutDepth, TB_AddrW) != 0 ||
      (TB_Gpes > 0 && (gnn_cfg_graph(&b.cfg, TB_Gpes, TB_Lanes, TB_EdgeDepth, TB_IfDepth,
                                     TB_MfDepth) != 0 ||
                       gnn_cfg_sfus(&b.cfg, TB_Sfus) != 0))) {
    std::fprintf(stderr, "tb_gnnerator: bad build configuration\n");
    return 2;
  }
  b.lat = static_cast<int>(tb_plusarg_num("lat", 1, 100000, 10));
  const int bad_pct = static_cast<int>(tb_plusarg_num("bad", 0, 100, 5));
  const bool do_reset = tb_plusarg_flag("reset", true);
  TbScore sc("gnnerator");
  b.sc = &sc;
  b.stall.pct = a.stall_pct;
  TbStall gap(a.gap_pct);

  const char *wlpath = tb_plusarg("workload");
  gnn_wl_t wl;
  char err[256];
  if (wlpath) {
    if (gnn_wl_read(wlpath, &wl, err, sizeof err) != 0) {
      std::fprintf(stderr, "tb_gnnerator: %s\n", err);
      return 2;
    }
    if (wl.cfg.rows != TB_Rows || wl.cfg.cols != TB_Cols || wl.cfg.depth[0] != TB_InDepth ||
        wl.cfg.depth[1] != TB_WtDepth || wl.cfg.depth[2] != TB_OutDepth ||
        wl.cfg.addr_w != TB_AddrW || wl.cfg.gpes != TB_Gpes ||
        (TB_Gpes > 0 && (wl.cfg.lanes != TB_Lanes || wl.cfg.gdepth[0] != TB_EdgeDepth ||
                         wl.cfg.gdepth[1] != TB_IfDepth || wl.cfg.gdepth[2] != TB_MfDepth ||
                         wl.cfg.sfus != TB_Sfus))) {
      std::fprintf(stderr, "tb_gnnerator: %s is for another configuration than this build\n",
                   wlpath);
      return 2;
    }
  } else {
    // a random stream over a random memory image (tb_gnn_stream.h)
    const int special = static_cast<int>(tb_plusarg_num("special", 0, 100, 5));
    if (!tb_gnn_random_stream(&b.cfg, a.seed, (size_t)a.n, (unsigned)bad_pct, (unsigned)special,
                              &wl, err, sizeof err)) {
      std::fprintf(stderr, "tb_gnnerator: cannot make the random stream: %s\n", err);
      return 2;
    }
  }
  if (const char *v = tb_plusarg("dump")) {  // the random stream as a workload file, to replay
    if (!*v) tb_fail("+dump needs a file name");
    FILE *df = std::fopen(v, "w");
    if (!df || gnn_wl_write(df, &wl, "tb_gnnerator +dump") != 0 || std::fclose(df) != 0) {
      std::fprintf(stderr, "tb_gnnerator: cannot write %s\n", v);
      return 2;
    }
  }
  const uint64_t timeout = 200000 + 2000ull * (uint64_t)wl.prog.n *
                                        (uint64_t)(TB_Rows + TB_Cols + 8) * (a.stall_pct + 10) / 10;
  TbSim<Top> sim(a, timeout);
  b.t = sim.top;
  b.sim = &sim;
  sim.reset();
  fresh_state(&b, &wl);

  uint64_t cycles = 0;
  const long reset_at = static_cast<long>(tb_plusarg_num("reset_at", 0, 1ull << 40, 0));
  if (wlpath && reset_at > 0) {
    // reset in the middle of the program (e.g. inside a tile), then run it again from the start
    // on a fresh memory image: the engine must come back clean
    run_program(&b, wl.prog.insn, wl.prog.n, &gap, -1, 0, (uint64_t)reset_at);
    sc.expect(!sim.top->idle_o, "the reset lands while the engine is busy", sim.cycle);
    sim.reset();
    fresh_state(&b, &wl);
  }
  if (wlpath) {
    cycles = run_program(&b, wl.prog.insn, wl.prog.n, &gap);
    for (size_t r = 0; r < wl.n_check; r++)
      compare_region(&b, wl.check[r].addr, wl.check[r].n, "check region");
  } else {
    // zero region for the scrub and a flush region: above everything the stream touches
    std::vector<gnn_insn_t> scrub = scrub_program(&b.cfg, (uint32_t)kZero);
    size_t done = 0;
    if (do_reset && wl.prog.n > 8) {
      // reset in mid-stream: half the stream, then a random wait into whatever is running
      const size_t half = wl.prog.n / 2;
      run_program(&b, wl.prog.insn, half, &gap, (long)half, (int)tb_rand_range(0, 60));
      sim.reset();
      fresh_state(&b, &wl);
      run_program(&b, scrub.data(), scrub.size(), &gap);
      if (TB_Gpes > 0) {  // the graph prologue writes every line of the graph memories again
        std::vector<gnn_insn_t> gscrub;
        for (size_t k = 0; k < wl.prog.n && gscrub.size() < 6; k++)
          if ((wl.prog.insn[k].w[0] & 0xFu) >= GNN_OP_GLOAD) gscrub.push_back(wl.prog.insn[k]);
        run_program(&b, gscrub.data(), gscrub.size(), &gap);
      }
      done = half;
    }
    run_program(&b, wl.prog.insn + done, wl.prog.n - done, &gap);
    std::vector<gnn_insn_t> flush = tb_gnn_out_flush(&b.cfg, (uint32_t)kFlush);
    run_program(&b, flush.data(), flush.size(), &gap);
    const uint64_t fl = 2ull * (uint64_t)b.cfg.depth[GNN_BUF_OUT] * (uint64_t)b.cfg.lw;
    compare_region(&b, kFlush, fl, "OUT buffer flush");
    compare_region(&b, kOutBase, kOutWords, "output region");
    if (TB_Gpes > 0) {
      std::vector<gnn_insn_t> gflush = tb_gnn_mf_flush(&b.cfg, (uint32_t)kGFlush);
      run_program(&b, gflush.data(), gflush.size(), &gap);
      const uint64_t gl = 2ull * (uint64_t)b.cfg.gpes * (uint64_t)b.cfg.gdepth[GNN_MEM_MF] *
                          (uint64_t)b.cfg.lanes;
      compare_region(&b, kGFlush, gl, "MF flush");
      compare_region(&b, kGOutBase, kGOutWords, "graph output region");
    }
  }
  gnn_beat_t left;
  sc.expect(gnn_model_take_beats(b.model, &left, 1) == 0 && b.beats_exp[0].empty() &&
                b.beats_exp[1].empty(),
            "no model write left unmade", sim.cycle);
  sc.check("bad edges", 0, (uint32_t)gnn_model_bad_edges(b.model), sim.top->bad_edges_o);
  // the Graph Engine's compute unit is never held by the rest of the engine: its busy cycles
  // are the model's GRUN TIMING exactly, under any back-pressure
  sc.check("GEX busy cycles against the model", 0, (uint32_t)b.gex_cycles, sim.top->gex_cycles_o);
  sc.expect(b.status_exp.empty(), "a status beat for every instruction", sim.cycle);
  sc.expect(!sim.timed_out, "finished before the timeout", sim.cycle);

  // traffic model: the words and requests the program's valid instructions move, exactly
  if (wlpath && reset_at <= 0) {
    gnn_prog_stats_t ts;
    gnn_prog_stats(&b.cfg, wl.prog.insn, wl.prog.n, &ts);
    sc.check("DRAM words read against the program", 0, 4 * (ts.rd_words + ts.g_rd_words),
             b.rd_bytes);
    sc.check("DRAM words written against the program", 0, 4 * (ts.wr_words + ts.g_wr_words),
             b.wr_bytes);
    sc.check("read requests against the program", 0, ts.rd_lines + ts.g_rd_lines, b.rd_lines);
    sc.check("write requests against the program", 0, ts.wr_lines + ts.g_wr_lines, b.wr_lines);
  }

  // cycle model: exact when nothing stalls
  gnn_memtiming_t mt;
  mt.latency = b.lat;
  gnn_cyc_stats_t cs;
  std::memset(&cs, 0, sizeof cs);
  const bool exact = wlpath && a.stall_pct == 0 && a.gap_pct == 0;
  // with graph instructions, GEX's lengths come from running the program on a fresh model
  std::vector<uint64_t> gex_len(wl.prog.n ? wl.prog.n : 1, 0);
  if (wlpath && TB_Gpes > 0) {
    gnn_model_t *lm = gnn_wl_model(&wl);
    if (lm) {
      gnn_model_gex_lengths(lm, wl.prog.insn, wl.prog.n, 0, gex_len.data(), nullptr);
      gnn_model_free(lm);
    }
  }
  if (wlpath &&
      gnn_prog_cycles(&b.cfg, &mt, wl.prog.insn, wl.prog.n, TB_Gpes > 0 ? gex_len.data() : NULL,
                      &cs) == 0 &&
      exact)
    sc.check("cycles against the cycle model (gnn_prog_cycles)", 0, cs.cycles, cycles);
  const double peak = (double)TB_Rows * TB_Cols * (double)cycles;
  gnn_prog_stats_t ps;
  gnn_prog_stats(&b.cfg, wl.prog.insn, wl.prog.n, &ps);
  std::printf("gnnerator: ops matmul=%" PRIu64 " madd=%" PRIu64 " act=%" PRIu64 " copy=%" PRIu64
              " load=%" PRIu64 " store=%" PRIu64 " errors by code", ps.matmuls, ps.madds, ps.acts,
              ps.copies, ps.loads, ps.stores);
  for (int e = 1; e <= 6; e++) std::printf(" %s=%ld", gnn_err_name(e), b.err_hist[e]);
  std::printf("\n");
  if (TB_Gpes > 0) {
    long nop[16] = {0};
    for (size_t k = 0; k < wl.prog.n; k++) nop[wl.prog.insn[k].w[0] & 0xFu]++;
    std::printf("gnnerator: graph gload=%ld gstore=%ld gfill=%ld grun=%ld bad_edges=%" PRIu64
                " gex_cycles=%" PRIu64 "\n",
                nop[GNN_OP_GLOAD], nop[GNN_OP_GSTORE], nop[GNN_OP_GFILL], nop[GNN_OP_GRUN],
                gnn_model_bad_edges(b.model), b.gex_cycles);
  }
  std::printf("gnnerator: insns=%ld errors=%ld cycles=%" PRIu64 " model_cycles=%" PRIu64
              " macs=%" PRIu64 " util=%.4f rd_bytes=%" PRIu64 " wr_bytes=%" PRIu64
              " beats=%ld\n",
              b.insn_sent, b.errors, cycles, cs.cycles, cs.macs,
              peak > 0 ? (double)cs.macs / peak : 0.0, b.rd_bytes, b.wr_bytes, b.beats);
  gnn_model_free(b.model);
  gnn_wl_free(&wl);
  return sc.finish();
}
