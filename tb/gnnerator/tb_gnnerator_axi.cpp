// tb_gnnerator_axi.cpp -- gnnerator_axi run from C through its driver (sw/gnnerator/gnn_driver.h)
// over the simulated bus (tb/common/tb_axi.h: AXI4-Lite master BFM, AXI4 memory model with
// random backpressure and latency that checks the master's protocol), against the golden model
// (cmodel/include/gnnerator.h), which executes every program the driver runs. After every job:
// the driver's result (0 or the ERR_CODE word), RETIRED, ISSUED, INSN_ERRS (count and codes
// seen), FIRST_ERR (index and code) against the model's statuses; every word of the engine's
// DRAM window against the model's DRAM; the guard bytes around the window untouched; BAD_EDGES
// and GEX_CYCLES against the model's bad edges and GRUN TIMING; RD_BURSTS / WR_BURSTS against
// the memory model's bursts. Build-time configuration: TB_Rows, TB_Cols, TB_InDepth, ... TB_Gpes,
// TB_Lanes, TB_Sfus, TB_EdgeDepth, TB_IfDepth, TB_MfDepth, TB_AxiAddrW (block.toml).
//
//   +workload=<file>  a workload file (sw/gnnerator: gnn_workload, gnn_layer): its memory image
//                     written into the window, its program run as one job, its check regions
//                     and the whole window compared (make sim-gnnerator-axi); prints
//                     "axi workload: ..."
//   (otherwise)       the register map (ID, HWCFG, SLVERR on unmapped and read-only registers);
//                     +n random instructions (the dense random stream interleaved with the graph
//                     one, +bad=P % malformed) over a random memory image, run as jobs of random
//                     length from programs at random bus-aligned addresses, the window at a
//                     random word-aligned base, then every OUT and MF line stored and compared;
//                     the counters' CLEAR; then every error path, each followed by a good job:
//                     illegal instructions (ERR_CODE, FIRST_ERR, INSN_ERRS, the rest of the
//                     program runs), PROG_ADDR / DATA_BASE refused at START, an RRESP error on an
//                     instruction fetch (the beat's instructions dropped as OPCODE), on a data
//                     read and DECERR past the memory, a BRESP error on a store, START while
//                     busy (ignored), reset in the middle of a job.
// Last line: "N passed, N failed".
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "Vgnnerator_axi.h"
#include "gnnerator.h"
#include "gnnerator/gnn_dense.h"
#include "gnnerator/gnn_driver.h"
#include "gnnerator/gnn_gcomp.h"
#include "gnnerator/gnnerator_regs.h"
#include "tb_axi.h"
#include "tb_gnn_stream.h"  // the random streams' DRAM map, the stream, the flush programs
#include "tb_lib.h"

namespace {

typedef Vgnnerator_axi Top;
const uint64_t kMemBytes = 12ull << 20;    // device memory of the AXI model
const uint64_t kWords = 1ull << TB_AddrW;  // the engine's DRAM window, in words
const uint64_t kWinBase = 0x100000;        // the window starts at kWinBase + 4 r
const uint64_t kGuard = 4096;              // guard bytes on both sides of the window
const uint64_t kProgArena = 0x100000 + 4 * kWords + 0x10000;  // programs from here on
const uint64_t kJobTimeout = 4000000;                         // cycles a job may take

struct Env {
  TbArgs a;
  TbScore sc{"gnnerator_axi"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxilMaster<Top> axil;
  TbAxiMem<Top> mem;
  TbAccelBus<Top> tb;
  gnn_dev_t dev;
  gnn_cfg_t cfg;
  gnn_model_t *model = nullptr;
  uint64_t base = kWinBase;  // DATA_BASE
  uint64_t jobs = 0, insns = 0, insn_errs = 0, bus_err_jobs = 0, job_cycles = 0;
  uint32_t rd_bursts0 = 0, wr_bursts0 = 0;
  explicit Env(const TbArgs &args)
      : a(args),
        sim(args, 400000000ull),
        clk(sim),
        axil(clk, &sc, 8, args.gap_pct, args.stall_pct),
        mem(clk, &sc, kMemBytes, args.stall_pct, args.gap_pct),
        tb(clk, axil, &mem) {
    tb.alloc_reset(kProgArena);
  }
  ~Env() {
    if (model) gnn_model_free(model);
  }
  accel_bus *bus() { return &tb.bus; }
};

// What the model says about a program.
struct Expect {
  uint32_t errs = 0, seen = 0, first_idx = 0, first_code = 0;
  bool first = false;
  uint64_t gex = 0, bad = 0;
};

Expect model_run(Env &e, const gnn_insn_t *p, size_t n) {
  Expect x;
  const uint64_t bad0 = gnn_model_bad_edges(e.model);
  for (size_t i = 0; i < n; i++) {
    const int st = gnn_model_exec(e.model, &p[i]);
    const unsigned op = p[i].w[0] & 0xFu;
    if (st != GNN_OK) {
      x.errs++;
      x.seen |= 1u << (st - 1);
      if (!x.first) x.first = true, x.first_idx = static_cast<uint32_t>(i), x.first_code = st;
    } else if (op == GNN_OP_GRUN || op == GNN_OP_GFILL) {
      x.gex += gnn_model_grun_stats(e.model).cycles;
    }
  }
  gnn_beat_t junk[16];  // the model's STORE log is not used here (the memory is compared)
  while (gnn_model_take_beats(e.model, junk, 16) > 0) {
  }
  x.bad = gnn_model_bad_edges(e.model) - bad0;
  return x;
}

// A program in device memory at a bus-aligned address with a random offset of beats (so
// fetches start anywhere in a 4 KB page).
uint64_t put_program(Env &e, const gnn_insn_t *p, size_t n) {
  const size_t pad = e.dev.beat_bytes * tb_rand_range(0, 300);
  uint64_t a = e.tb.bus.mem_alloc(e.tb.bus.ctx, n * 16 + pad + 64, e.dev.beat_bytes);
  if (!a) {
    e.tb.alloc_reset(kProgArena);
    a = e.tb.bus.mem_alloc(e.tb.bus.ctx, n * 16 + pad + 64, e.dev.beat_bytes);
  }
  e.sc.expect(a != 0, "device memory for the program", n);
  a += pad;
  e.sc.check("program written", n, 0,
             static_cast<uint64_t>(gnn_drv_write_program(&e.dev, a, p, n)));
  return a;
}

// Every word of the window against the model; the guards around it.
void compare_window(Env &e, uint64_t id, const char *what) {
  std::vector<uint32_t> got(kWords);
  e.sc.check("window read", id, 0,
             static_cast<uint64_t>(gnn_drv_read_words(&e.dev, e.base, 0, got.data(), kWords)));
  uint64_t bad = 0;
  for (uint64_t w = 0; w < kWords; w++) {
    const uint32_t m = gnn_mem_rd(e.model, w);
    if (m != got[w]) {
      if (bad < 4)
        std::printf("  %s (job %" PRIu64 "): word 0x%" PRIx64 " expected 0x%08x got 0x%08x\n", what,
                    id, w, m, got[w]);
      bad++;
    }
  }
  e.sc.check(what, id, 0, bad);
  uint8_t g[kGuard];
  bool ok = e.mem.read(e.base - kGuard, g, kGuard);
  for (uint64_t i = 0; ok && i < kGuard; i++) ok = g[i] == static_cast<uint8_t>(0x5A ^ i);
  e.sc.expect(ok, "guard below the window untouched", id);
  ok = e.mem.read(e.base + 4 * kWords, g, kGuard);
  for (uint64_t i = 0; ok && i < kGuard; i++) ok = g[i] == static_cast<uint8_t>(0xA5 ^ i);
  e.sc.expect(ok, "guard above the window untouched", id);
}

// A fresh model and window: zeros, the guards, then the regions of wl.
void fresh_image(Env &e, const gnn_wl_t *wl) {
  if (e.model) gnn_model_free(e.model);
  e.model = wl ? gnn_wl_model(wl) : gnn_model_new(&e.cfg);
  std::vector<uint8_t> z(4 * kWords, 0);
  e.mem.write(e.base, z.data(), z.size());
  uint8_t g[kGuard];
  for (uint64_t i = 0; i < kGuard; i++) g[i] = static_cast<uint8_t>(0x5A ^ i);
  e.mem.write(e.base - kGuard, g, kGuard);
  for (uint64_t i = 0; i < kGuard; i++) g[i] = static_cast<uint8_t>(0xA5 ^ i);
  e.mem.write(e.base + 4 * kWords, g, kGuard);
  if (wl)
    for (size_t r = 0; r < wl->n_mem; r++)
      e.sc.check("memory image written", r, 0,
                 static_cast<uint64_t>(gnn_drv_write_words(&e.dev, e.base, wl->mem[r].addr,
                                                           wl->mem[r].data, wl->mem[r].n)));
}

// One job: the model runs the program, the driver runs it on the RTL; checks the result, the
// status registers and the counters (and, with check_mem, the whole window). exp_code: the
// ERR_CODE word expected when the job has a bus error (0: the model's first instruction error).
// prog_addr: where the program already is (0: put_program places it).
int job(Env &e, const gnn_insn_t *p, size_t n, bool check_mem = true, int exp_code = 0,
        const Expect *given = nullptr, uint64_t prog_addr = 0) {
  const uint64_t id = e.jobs++;
  Expect x = given ? *given : model_run(e, p, n);
  const uint64_t pa = prog_addr ? prog_addr : put_program(e, p, n);
  accel_bus *b = e.bus();
  accel_counters_t c0, c1;
  uint32_t be0 = 0, gx0 = 0, be1 = 0, gx1 = 0;
  accel_counters_read(b, &c0);
  gnn_drv_counters(&e.dev, &be0, &gx0);
  const long rdb0 = e.mem.rd_bursts, wrb0 = e.mem.wr_bursts;
  const uint64_t t0 = e.clk.now();
  gnn_drv_status_t st;
  std::memset(&st, 0, sizeof st);
  const int rc = gnn_drv_run(&e.dev, pa, static_cast<uint32_t>(n), e.base, kJobTimeout, &st);
  e.job_cycles += e.clk.now() - t0;
  const int want = exp_code ? exp_code : static_cast<int>(x.first_code);
  if (!e.sc.check("job result (0, or the ERR_CODE word)", id, static_cast<uint32_t>(want),
                  static_cast<uint32_t>(rc)))
    std::printf("  job %" PRIu64 ": %zu instructions, driver returned %d\n", id, n, rc);
  e.sc.check("RETIRED", id, n, st.retired);
  e.sc.check("ISSUED", id, n, st.issued);
  e.sc.check("INSN_ERRS.COUNT", id, x.errs, st.insn_errs);
  e.sc.check("INSN_ERRS.SEEN", id, x.seen, st.err_seen);
  e.sc.check("FIRST_ERR.VALID", id, x.first, static_cast<uint64_t>(st.first_valid));
  if (x.first) {
    e.sc.check("FIRST_ERR.INDEX", id, x.first_idx, st.first_index);
    e.sc.check("FIRST_ERR.CODE", id, x.first_code, st.first_code);
  }
  accel_counters_read(b, &c1);
  gnn_drv_counters(&e.dev, &be1, &gx1);
  if (!exp_code || (exp_code & 0xFF) != ACCEL_ERR_AXI_RD) {  // garbage data: edges unknown
    e.sc.check("BAD_EDGES against the model", id, x.bad, static_cast<uint32_t>(be1 - be0));
    e.sc.check("GEX_CYCLES against the model's GRUN timing", id, x.gex,
               static_cast<uint32_t>(gx1 - gx0));
  }
  e.sc.check("RD_BURSTS against the memory's bursts", id,
             static_cast<uint32_t>(e.mem.rd_bursts - rdb0), c1.rd_bursts - c0.rd_bursts);
  e.sc.check("WR_BURSTS against the memory's bursts", id,
             static_cast<uint32_t>(e.mem.wr_bursts - wrb0), c1.wr_bursts - c0.wr_bursts);
  e.sc.expect(c1.cyc_busy - c0.cyc_busy > 0 || n == 0, "CYC_BUSY counts the job", id);
  e.mem.check_idle("after a job");
  e.insns += n;
  e.insn_errs += x.errs;
  if (check_mem) compare_window(e, id, "window against the model");
  return rc;
}

// A random stream (dense, and graph with a Graph Engine) over a random image, as tb_gnnerator.
bool random_stream(Env &e, uint64_t seed, long n, unsigned bad, gnn_wl_t *wl) {
  char err[256];
  if (!tb_gnn_random_stream(&e.cfg, seed, static_cast<size_t>(n), bad, 5, wl, err, sizeof err)) {
    std::fprintf(stderr, "tb_gnnerator_axi: cannot make the random stream: %s\n", err);
    return false;
  }
  return true;
}

// Stores every OUT line (and every MF line of every GPE) into the flush areas.
std::vector<gnn_insn_t> flush_program(const gnn_cfg_t *c) {
  std::vector<gnn_insn_t> p = tb_gnn_out_flush(c, static_cast<uint32_t>(kFlush));
  if (c->gpes > 0) {
    const std::vector<gnn_insn_t> g = tb_gnn_mf_flush(c, static_cast<uint32_t>(kGFlush));
    p.insert(p.end(), g.begin(), g.end());
  }
  return p;
}

// The random stream as jobs of random length (state carries over from job to job), then the
// buffers flushed and compared.
void random_jobs(Env &e, uint64_t seed, long n, unsigned bad) {
  gnn_wl_t wl;
  if (!random_stream(e, seed, n, bad, &wl)) {
    e.sc.expect(false, "random stream made", 0);
    return;
  }
  fresh_image(e, &wl);
  size_t i = 0;
  while (i < wl.prog.n && !e.clk.timed_out()) {
    size_t len = tb_chance(20) ? tb_rand_range(1, 4) : tb_rand_range(20, 120);
    if (len > wl.prog.n - i) len = wl.prog.n - i;
    job(e, wl.prog.insn + i, len);
    i += len;
  }
  std::vector<gnn_insn_t> fl = flush_program(&e.cfg);
  job(e, fl.data(), fl.size());
  gnn_wl_free(&wl);
}

void test_registers(Env &e) {
  accel_bus *b = e.bus();
  uint32_t v = 1;
  e.sc.check("ID.BLOCK", 0, GNN_DRV_BLOCK_ID, accel_rd(b, GNNERATOR__ID_OFFSET) & 0xFFFF);
  e.sc.expect(b->read32(b->ctx, 0x78, &v) != 0 && v == 0, "unmapped read: SLVERR, data 0", 0x78);
  e.sc.expect(b->read32(b->ctx, 0xFC, &v) != 0, "unmapped read at the top: SLVERR", 0xFC);
  e.sc.expect(b->write32(b->ctx, 0x1C, 1) != 0, "unmapped write: SLVERR", 0x1C);
  // the decode (tb_axi.h): every register OKAY, every hole (and alias above the map) SLVERR with
  // data 0 and a refused write; the checks below see that the all-ones writes changed nothing
  const uint32_t regs[] = GNNERATOR__ALL_OFFSETS;
  tb_axil_check_decode(e.axil, e.sc, regs, sizeof regs / sizeof regs[0], GNNERATOR__MAP_W);
  const uint32_t h0 = accel_rd(b, GNNERATOR__HWCFG0_OFFSET);
  e.sc.expect(b->write32(b->ctx, GNNERATOR__HWCFG0_OFFSET, 0) != 0, "write of HWCFG0: SLVERR", 0);
  e.sc.expect(b->write32(b->ctx, GNNERATOR__RETIRED_OFFSET, 5) != 0, "write of RETIRED: SLVERR", 0);
  e.sc.check("HWCFG0 unchanged by the write", 0, h0, accel_rd(b, GNNERATOR__HWCFG0_OFFSET));
  e.sc.check("HWCFG rows", 0, TB_Rows, e.dev.cfg.rows);
  e.sc.check("HWCFG cols", 0, TB_Cols, e.dev.cfg.cols);
  e.sc.check("HWCFG in depth", 0, TB_InDepth, e.dev.cfg.depth[0]);
  e.sc.check("HWCFG out depth", 0, TB_OutDepth, e.dev.cfg.depth[2]);
  e.sc.check("HWCFG addr_w", 0, TB_AddrW, e.dev.cfg.addr_w);
  e.sc.check("HWCFG gpes", 0, TB_Gpes, e.dev.cfg.gpes);
  if (TB_Gpes > 0) {
    e.sc.check("HWCFG lanes", 0, TB_Lanes, e.dev.cfg.lanes);
    e.sc.check("HWCFG sfus", 0, TB_Sfus, e.dev.cfg.sfus);
    e.sc.check("HWCFG edge depth", 0, TB_EdgeDepth, e.dev.cfg.gdepth[0]);
    e.sc.check("HWCFG mf depth", 0, TB_MfDepth, e.dev.cfg.gdepth[2]);
  }
  e.sc.expect(
      e.dev.beat_bytes >= 16 && e.dev.beat_bytes >= 4u * static_cast<unsigned>(e.dev.cfg.pw),
      "HWCFG1.BEAT_BYTES holds a port line and an instruction", e.dev.beat_bytes);
  e.sc.check("the driver's cfg is the build's", 0, 1,
             static_cast<uint64_t>(gnn_drv_cfg_matches(&e.dev, &e.cfg)));
  accel_wr(b, GNNERATOR__DATA_BASE_OFFSET, 0x12345678u);
  e.tb.axil.write32(GNNERATOR__DATA_BASE_OFFSET, 0x0000AB00u, 0x2);
  e.sc.check("byte strobes: one byte of DATA_BASE", 0, 0x1234AB78u,
             accel_rd(b, GNNERATOR__DATA_BASE_OFFSET));
  e.sc.check("STATUS after reset", 0, 0, accel_rd(b, GNNERATOR__STATUS_OFFSET));
  accel_err_clear(b);
}

// A small LOAD/STORE program of the dense engine over the in region (all valid).
std::vector<gnn_insn_t> small_program(const gnn_cfg_t *c, uint32_t src, uint32_t dst) {
  const unsigned lw = static_cast<unsigned>(c->lw),
                 d = static_cast<unsigned>(c->depth[GNN_BUF_OUT]);
  std::vector<gnn_insn_t> p;
  for (unsigned k = 0; k < 4; k++) {
    const unsigned w = 1 + (k % lw);
    p.push_back(gnn_enc_load(GNN_BUF_OUT, k * 2 % d, 2, w, src + 37 * k, 3 + k));
    p.push_back(gnn_enc_store(k * 2 % d, 2, w, dst + 41 * k, 5 + k));
  }
  return p;
}

// Reads and writes of the same words close together, where AXI alone would not keep the
// engine's order (its port: a request takes effect when taken): read after write (a LOAD of the
// lines a STORE has just written: the read waits for the write's response) and write after
// read (a STORE from another bank over the lines a LOAD is still reading: the write waits for
// the read's data). Each pair at its own address and word offset; the window compared exactly.
void test_hazards(Env &e) {
  const unsigned lw = static_cast<unsigned>(e.cfg.lw),
                 d = static_cast<unsigned>(e.cfg.depth[GNN_BUF_OUT]);
  std::vector<uint32_t> data(4096);
  gnn_fill_random(e.a.seed + 77, 0, data.data(), data.size());
  gnn_drv_write_words(&e.dev, e.base, 40000, data.data(), data.size());
  for (size_t k = 0; k < data.size(); k++) gnn_mem_wr(e.model, 40000 + k, data[k]);
  for (int rep = 0; rep < 2; rep++) {
    // the second round with slow writes and fast reads: a read would overtake a write
    const int aw = e.mem.aw_stall.pct, w = e.mem.w_stall.pct, ar = e.mem.ar_stall.pct;
    const unsigned lat = e.mem.rd_lat_max;
    if (rep == 1)
      e.mem.aw_stall.pct = e.mem.w_stall.pct = 85, e.mem.ar_stall.pct = 0, e.mem.rd_lat_max = 2;
    std::vector<gnn_insn_t> p;
    for (unsigned i = 0; i < 40; i++) {
      const uint32_t src = 40000 + 97 * i + rep, raw = 50000 + 64 * i + (i % 7),
                     war = 40000 + 97 * i + 50;
      const unsigned wd = 1 + (i % lw);
      // RAW: line 0 of bank 0 to raw, then raw into line d (bank 1) and on to raw + 32
      p.push_back(gnn_enc_load(GNN_BUF_OUT, 0, 1, wd, src, 1));
      p.push_back(gnn_enc_store(0, 1, wd, raw, 1));
      p.push_back(gnn_enc_load(GNN_BUF_OUT, d, 1, lw, raw, 1));
      p.push_back(gnn_enc_store(d, 1, lw, raw + 32, 1));
      // WAR: war into line 1 of bank 0; bank 1's line over war; line 1 (war's old words) to
      // raw + 48
      p.push_back(gnn_enc_load(GNN_BUF_OUT, 1, 1, lw, war, 1));
      p.push_back(gnn_enc_store(d, 1, lw, war, 1));
      p.push_back(gnn_enc_store(1, 1, lw, raw + 48, 1));
    }
    const int rc = job(e, p.data(), p.size());
    e.sc.check("read/write ordering job", 6, 0, static_cast<uint64_t>(rc));
    e.mem.aw_stall.pct = aw, e.mem.w_stall.pct = w, e.mem.ar_stall.pct = ar, e.mem.rd_lat_max = lat;
  }
}

// Illegal instructions: the job reports the first (ERR_CODE, FIRST_ERR), counts them, and the
// rest of the program runs; then a good job with ERR_CODE cleared.
void test_bad_insn(Env &e) {
  fresh_image(e, nullptr);
  std::vector<uint32_t> data(512);
  gnn_fill_random(e.a.seed + 99, 0, data.data(), data.size());
  gnn_drv_write_words(&e.dev, e.base, 100, data.data(), data.size());
  for (size_t k = 0; k < data.size(); k++) gnn_mem_wr(e.model, 100 + k, data[k]);
  std::vector<gnn_insn_t> p = small_program(&e.cfg, 100, 2000);
  gnn_insn_t op7 = p[1];
  op7.w[0] = (op7.w[0] & ~0xFu) | 7u;  // OPCODE
  gnn_insn_t field = gnn_enc_store(0, 1, 1, 3000, 1);
  field.w[0] |= 1u << 7;  // a reserved bit: FIELD
  gnn_insn_t range = gnn_enc_load(GNN_BUF_IN, 0, 2, 1, static_cast<uint32_t>(kWords - 1), 1);
  p.insert(p.begin() + 3, op7);
  p.insert(p.begin() + 5, field);
  p.push_back(range);  // a DRAM range past 2^AddrW
  int rc = job(e, p.data(), p.size());
  e.sc.check("ERR_CODE: OPCODE (the first)", 1, GNN_E_OPCODE, static_cast<uint64_t>(rc));
  e.sc.check("STATUS: DONE and ERROR", 1, ACCEL_ST_DONE | ACCEL_ST_ERROR,
             accel_rd(e.bus(), GNNERATOR__STATUS_OFFSET));
  std::vector<gnn_insn_t> g = small_program(&e.cfg, 120, 2600);
  rc = job(e, g.data(), g.size());
  e.sc.check("a good job after the errors", 1, 0, static_cast<uint64_t>(rc));
  e.sc.check("ERR_CODE cleared by START", 1, 0, accel_rd(e.bus(), GNNERATOR__ERR_CODE_OFFSET));
}

// Job registers refused at START: nothing is read, DONE and ERROR at once; then a good job.
void test_refused(Env &e) {
  accel_bus *b = e.bus();
  std::vector<gnn_insn_t> g = small_program(&e.cfg, 140, 3200);
  const uint64_t pa = put_program(e, g.data(), g.size());
  const long rd0 = e.mem.rd_bursts;
  gnn_drv_status_t st;
  int rc = gnn_drv_run(&e.dev, pa + 4, static_cast<uint32_t>(g.size()), e.base, kJobTimeout, &st);
  e.sc.check("PROG_ADDR not bus aligned: 0x10", 2, GNN_DRV_ERR_PROG_ADDR,
             static_cast<uint64_t>(rc));
  e.sc.check("nothing retired", 2, 0, st.retired);
  rc = gnn_drv_run(&e.dev, 1ull << TB_AxiAddrW, 1, e.base, kJobTimeout, &st);
  e.sc.check("PROG_ADDR beyond 2^AxiAddrW: 0x10", 2, GNN_DRV_ERR_PROG_ADDR,
             static_cast<uint64_t>(rc));
  rc = gnn_drv_run(&e.dev, pa, static_cast<uint32_t>(g.size()), e.base + 2, kJobTimeout, &st);
  e.sc.check("DATA_BASE not word aligned: 0x11", 2, GNN_DRV_ERR_DATA_BASE,
             static_cast<uint64_t>(rc));
  e.sc.check("nothing read", 2, 0, static_cast<uint64_t>(e.mem.rd_bursts - rd0));
  e.sc.check("BUSY low after a refused job", 2, 0, accel_rd(b, GNNERATOR__STATUS_OFFSET) & 1);
  rc = job(e, g.data(), g.size());
  e.sc.check("a good job after the refusals", 2, 0, static_cast<uint64_t>(rc));
  rc = job(e, g.data(), 0);
  e.sc.check("an empty program ends at once", 2, 0, static_cast<uint64_t>(rc));
}

// An RRESP error on an instruction fetch: the beat's instructions become opcode 0 (dropped as
// OPCODE by the engine), the others run; ERR_CODE 0xF1 with SLVERR.
void test_fetch_error(Env &e) {
  std::vector<gnn_insn_t> g = small_program(&e.cfg, 160, 3800);
  const unsigned k = e.dev.beat_bytes / 16;  // instructions a beat
  const size_t bad_first = 2 * k;            // the third beat
  const uint64_t pa = put_program(e, g.data(), g.size());
  std::vector<gnn_insn_t> seen = g;
  for (size_t i = bad_first; i < bad_first + k && i < g.size(); i++)
    std::memset(&seen[i], 0, sizeof seen[i]);
  Expect x = model_run(e, seen.data(), seen.size());
  e.mem.add_slverr(pa + 16 * bad_first, pa + 16 * bad_first + 1);
  // run the program where put_program left it: job() would place it elsewhere
  gnn_drv_status_t st;
  int rc = gnn_drv_run(&e.dev, pa, static_cast<uint32_t>(g.size()), e.base, kJobTimeout, &st);
  e.mem.slverr.clear();
  e.sc.check("fetch error: ERR_CODE 0xF1, RESP SLVERR", 3, ACCEL_ERR_AXI_RD | (TB_AXI_SLVERR << 8),
             static_cast<uint64_t>(rc));
  e.sc.check("fetch error: every instruction retired", 3, g.size(), st.retired);
  e.sc.check("fetch error: the beat's instructions dropped", 3, x.errs, st.insn_errs);
  e.sc.check("fetch error: the first of them", 3, bad_first, st.first_index);
  e.sc.check("fetch error: as OPCODE", 3, GNN_E_OPCODE, st.first_code);
  e.bus_err_jobs++;
  compare_window(e, 3, "window after a fetch error");
  int rc2 = job(e, g.data(), g.size());
  e.sc.check("a good job after the fetch error", 3, 0, static_cast<uint64_t>(rc2));
}

// An RRESP error on a data read (SLVERR in the window, and DECERR past the memory's end) and a
// BRESP error on a store: reported, the job runs to its end, the next job is exact.
void test_data_errors(Env &e) {
  // SLVERR on the words a LOAD reads: the loaded line is garbage, so only a store of other
  // lines follows; the result in memory is exact.
  const unsigned lw = static_cast<unsigned>(e.cfg.lw);
  std::vector<gnn_insn_t> p;
  p.push_back(gnn_enc_load(GNN_BUF_IN, 0, 4, lw, 5000, lw));
  p.push_back(gnn_enc_load(GNN_BUF_OUT, 0, 3, lw, 100, lw));
  p.push_back(gnn_enc_store(0, 3, lw, 6000, lw));
  e.mem.add_slverr(e.base + 4 * 5004, e.base + 4 * 5005);
  int rc = job(e, p.data(), p.size(), true, ACCEL_ERR_AXI_RD | (TB_AXI_SLVERR << 8));
  e.mem.slverr.clear();
  e.bus_err_jobs++;
  // BRESP SLVERR on one bus beat of a store: the words of that beat stay as they were (the
  // memory refuses the whole beat), the others are written
  std::vector<gnn_insn_t> s;
  s.push_back(gnn_enc_load(GNN_BUF_OUT, 0, 4, lw, 200, lw));
  s.push_back(gnn_enc_store(0, 4, lw, 7000, lw));
  std::vector<uint32_t> before(4 * lw);
  gnn_drv_read_words(&e.dev, e.base, 7000, before.data(), before.size());
  Expect x = model_run(e, s.data(), s.size());
  const uint64_t bb = e.dev.beat_bytes;
  const uint64_t wlo = (e.base + 4 * (7000 + lw)) / bb * bb, whi = wlo + bb;
  for (size_t i = 0; i < before.size(); i++) {
    const uint64_t at = e.base + 4 * (7000 + i);
    if (at >= wlo && at < whi) gnn_mem_wr(e.model, 7000 + i, before[i]);
  }
  e.mem.add_slverr(wlo, whi);
  rc = job(e, s.data(), s.size(), true, ACCEL_ERR_AXI_WR | (TB_AXI_SLVERR << 8), &x);
  e.mem.slverr.clear();
  e.bus_err_jobs++;
  (void)rc;
  // DECERR: a window whose words past 4096 lie beyond the memory
  const uint64_t base_save = e.base;
  e.base = kMemBytes - 4 * 4096;
  gnn_model_t *m_save = e.model;
  e.model = gnn_model_new(&e.cfg);
  std::vector<gnn_insn_t> d;
  d.push_back(gnn_enc_load(GNN_BUF_OUT, 0, 2, lw, 4094, 2));  // the second line is past the end
  d.push_back(gnn_enc_store(0, 2, lw, 4094, 8));              // and so is the second store
  Expect xd = model_run(e, d.data(), d.size());
  rc = job(e, d.data(), d.size(), false, ACCEL_ERR_AXI_RD | (TB_AXI_DECERR << 8), &xd);
  gnn_model_free(e.model);
  e.model = m_save;
  e.base = base_save;
  e.bus_err_jobs++;
  std::vector<gnn_insn_t> g = small_program(&e.cfg, 180, 4400);
  rc = job(e, g.data(), g.size());
  e.sc.check("a good job after the bus errors", 4, 0, static_cast<uint64_t>(rc));
}

// START while a job runs is ignored; reset in the middle of a job, then a good job.
void test_busy_and_reset(Env &e) {
  accel_bus *b = e.bus();
  gnn_wl_t wl;
  if (!random_stream(e, e.a.seed * 7 + 5, 200, 0, &wl)) return;
  fresh_image(e, &wl);
  Expect x = model_run(e, wl.prog.insn, wl.prog.n);
  const uint64_t pa = put_program(e, wl.prog.insn, wl.prog.n);
  gnn_drv_start(&e.dev, pa, static_cast<uint32_t>(wl.prog.n), e.base);
  b->idle(b->ctx, 200);
  e.sc.check("BUSY during the job", 5, 1, accel_rd(b, GNNERATOR__STATUS_OFFSET) & 1);
  accel_wr(b, GNNERATOR__PROG_LEN_OFFSET, 1);
  accel_wr(b, GNNERATOR__CTRL_OFFSET, GNNERATOR__CTRL__START_bm);  // ignored
  gnn_drv_status_t st;
  int rc = gnn_drv_wait(&e.dev, kJobTimeout, &st);
  e.sc.check("the job after a START while busy", 5, x.first_code, static_cast<uint64_t>(rc));
  e.sc.check("RETIRED: the first job's length", 5, wl.prog.n, st.retired);
  compare_window(e, 5, "window after a START while busy");
  // reset in the middle of the same program
  const uint64_t pb = put_program(e, wl.prog.insn, wl.prog.n);
  gnn_drv_start(&e.dev, pb, static_cast<uint32_t>(wl.prog.n), e.base);
  b->idle(b->ctx, tb_rand_range(50, 1500));
  e.sc.check("BUSY before the reset", 5, 1, accel_rd(b, GNNERATOR__STATUS_OFFSET) & 1);
  e.clk.reset();
  e.sc.check("driver open after reset", 5, 0, static_cast<uint64_t>(gnn_drv_open(&e.dev, b)));
  e.sc.check("STATUS after reset", 5, 0, accel_rd(b, GNNERATOR__STATUS_OFFSET));
  e.sc.check("RETIRED after reset", 5, 0, accel_rd(b, GNNERATOR__RETIRED_OFFSET));
  e.mem.check_idle("after the reset");
  gnn_wl_free(&wl);
  random_jobs(e, e.a.seed * 7 + 6, 150, 10);
}

void run_workload(Env &e, const char *path) {
  gnn_wl_t wl;
  char err[256];
  if (gnn_wl_read(path, &wl, err, sizeof err) != 0) {
    std::fprintf(stderr, "tb_gnnerator_axi: %s\n", err);
    std::exit(2);
  }
  if (!gnn_drv_cfg_matches(&e.dev, &wl.cfg)) {
    std::fprintf(stderr, "tb_gnnerator_axi: %s is for another configuration than this build\n",
                 path);
    std::exit(2);
  }
  fresh_image(e, &wl);
  accel_counters_clear(e.bus());
  const uint64_t c0 = e.clk.now();
  const uint64_t err0 = e.insn_errs;
  const uint64_t pa = gnn_drv_load_program(&e.dev, wl.prog.insn, wl.prog.n);
  e.sc.expect(pa != 0, "program loaded (gnn_drv_load_program)", wl.prog.n);
  job(e, wl.prog.insn, wl.prog.n, true, 0, nullptr, pa);
  for (size_t r = 0; r < wl.n_check; r++) {
    std::vector<uint32_t> got(wl.check[r].n);
    gnn_drv_read_words(&e.dev, e.base, wl.check[r].addr, got.data(), got.size());
    uint64_t bad = 0;
    for (size_t k = 0; k < got.size(); k++)
      bad += got[k] != gnn_mem_rd(e.model, wl.check[r].addr + k);
    e.sc.check("check region", r, 0, bad);
  }
  accel_counters_t ac;
  accel_counters_read(e.bus(), &ac);
  uint32_t be = 0, gx = 0;
  gnn_drv_counters(&e.dev, &be, &gx);
  std::printf("axi workload: %zu insns, %" PRIu64 " errors, %" PRIu64
              " cycles (busy=%u stall=%u "
              "rd_bursts=%u wr_bursts=%u bad_edges=%u gex_cycles=%u)\n",
              wl.prog.n, e.insn_errs - err0, e.clk.now() - c0, ac.cyc_busy, ac.cyc_stall,
              ac.rd_bursts, ac.wr_bursts, be, gx);
  gnn_wl_free(&wl);
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "gnnerator_axi", 300, &a, {{"bad", "=P: percent of malformed jobs in the random test"},
                                                {"workload", "=<file>: a workload file (gnn_workload)"}});
  Env e(a);
  if (gnn_cfg_init(&e.cfg, TB_Rows, TB_Cols, TB_InDepth, TB_WtDepth, TB_OutDepth, TB_AddrW) != 0 ||
      (TB_Gpes > 0 &&
       (gnn_cfg_graph(&e.cfg, TB_Gpes, TB_Lanes, TB_EdgeDepth, TB_IfDepth, TB_MfDepth) != 0 ||
        gnn_cfg_sfus(&e.cfg, TB_Sfus) != 0))) {
    std::fprintf(stderr, "tb_gnnerator_axi: bad build configuration\n");
    return 2;
  }
  const unsigned bad = static_cast<unsigned>(tb_plusarg_num("bad", 0, 100, 10));
  e.clk.reset();
  accel_bus *b = e.bus();
  e.sc.check("driver open (ID, HWCFG)", 0, 0, static_cast<uint64_t>(gnn_drv_open(&e.dev, b)));
  e.base = kWinBase + 4 * tb_rand_range(0, 63);
  const char *wl_path = tb_plusarg("workload");
  if (wl_path) {
    run_workload(e, wl_path);
  } else {
    test_registers(e);
    random_jobs(e, a.seed, a.n, bad);
    accel_counters_clear(b);
    uint32_t be = 1, gx = 1;
    gnn_drv_counters(&e.dev, &be, &gx);
    e.sc.check("CLEAR zeroes BAD_EDGES", 0, 0, be);
    e.sc.check("CLEAR zeroes GEX_CYCLES", 0, 0, gx);
    test_bad_insn(e);
    test_hazards(e);
    test_refused(e);
    test_fetch_error(e);
    test_data_errors(e);
    test_busy_and_reset(e);
  }
  e.sc.expect(!e.clk.timed_out(), "finished before the timeout", e.clk.now());
  e.sc.check("register accesses that were expected to succeed", 0, 0, b->errors);
  e.sc.check("AXI protocol violations", 0, 0,
             static_cast<uint64_t>(e.mem.violations + e.axil.violations));
  e.mem.report("gnnerator_axi");
  std::printf("gnnerator_axi: %" PRIu64 " jobs, %" PRIu64 " instructions (%" PRIu64
              " with an error), %" PRIu64 " jobs with a bus error, %" PRIu64
              " job cycles, "
              "%" PRIu64 " cycles in all; AXI: rd_max_out=%zu wr_max_out=%zu w_early=%ld\n",
              e.jobs, e.insns, e.insn_errs, e.bus_err_jobs, e.job_cycles, e.clk.now(),
              e.mem.rd_max_out, e.mem.wr_max_out, e.mem.w_early);
  return e.sc.finish();
}
