// tb_manna_axi.cpp -- manna_axi run from C through its driver (sw/manna/mna_driver.h) over the
// simulated bus (tb/common/tb_axi.h: AXI4-Lite master BFM, AXI4 memory model with random
// backpressure and latency that checks the master's protocol), against the golden model
// (cmodel/include/manna.h), which executes the same host requests and runs.
//
//   +workload=<file>  a workload file (docs/manna.md "Workload files"): the device is reset and
//                     zeroed (bcast LOADs), the file read into device memory (mna_drv_wl_read)
//                     and replayed through the AXI top (mna_drv_wl_run: LOAD jobs, RUN jobs, the
//                     c ranges STOREd back), the model runs it (mna_wl_load); then the driver's
//                     result, every tile's STATUS word (through the mailbox) and the c ranges in
//                     device memory (or, without c records, every memory word of every tile,
//                     stored back by STORE jobs) against the model. Prints "axi workload: ...".
//   (otherwise)       the register map (ID, HWCFG, SLVERR on unmapped and read-only registers,
//                     byte strobes); the mailbox (+n/10 random host requests, malformed ones too,
//                     against the model); LOAD/STORE round trips of random ranges of every space
//                     (bcast too); every error path, each followed by a good job: job commands
//                     refused at START (0x10-0x13, nothing read or written), a mailbox overrun
//                     (0x14), host-port BAD / BUSY through the mailbox and through a LOAD into
//                     running tiles (0x02), RRESP SLVERR and DECERR on a LOAD (the word not
//                     written; IMEM too), BRESP SLVERR on a STORE, a program that stops with an
//                     error (0x2s, TILE_ERR), START while a RUN is busy (ignored); the mailbox
//                     at a job's edges (a GO during a LOAD of random length, and just before a
//                     RUN's START: answered in that order, as the model); reset in the middle of
//                     a RUN and of a LOAD; then +n random programs (mna_rand, 2 runs, some with
//                     bad instructions) as workloads.
// Build-time configuration: TB_Tiles, TB_Emacs, ... TB_AxiAddrW (rtl/manna/block.toml).
// Last line: "N passed, N failed".
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Vmanna_axi.h"
#include "manna.h"
#include "manna/manna_regs.h"
#include "manna/mna_asm.h"
#include "manna/mna_driver.h"
#include "manna/mna_rand.h"
#include "tb_axi.h"
#include "tb_lib.h"

namespace {

typedef Vmanna_axi Top;
const uint64_t kMemBytes = 4ull << 20;  // device memory of the AXI model
const uint64_t kArena = 0x10000;        // device allocations from here on
const uint64_t kJobTimeout = 5000000;   // cycles a job may take

struct Env {
  TbArgs a;
  TbScore sc{"manna_axi"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxilMaster<Top> axil;
  TbAxiMem<Top> mem;
  TbAccelBus<Top> tb;
  mna_dev_t dev;
  mna_cfg_t cfg;
  mna_t *model = nullptr;
  uint64_t jobs = 0, words = 0, runs = 0, workloads = 0, err_jobs = 0;
  explicit Env(const TbArgs &args)
      : a(args),
        sim(args, 2000000000ull),
        clk(sim),
        axil(clk, &sc, 8, args.gap_pct, args.stall_pct),
        mem(clk, &sc, kMemBytes, args.stall_pct, args.gap_pct),
        tb(clk, axil, &mem) {
    tb.alloc_reset(kArena);
  }
  ~Env() {
    if (model) mna_free(model);
  }
  accel_bus *bus() { return &tb.bus; }
  uint64_t alloc(size_t bytes) {
    uint64_t x = tb.bus.mem_alloc(tb.bus.ctx, bytes, 64);
    if (!x) {
      tb.alloc_reset(kArena);
      x = tb.bus.mem_alloc(tb.bus.ctx, bytes, 64);
    }
    return x;
  }
};

uint32_t swords(const Env &e, int sp) { return mna_drv_space_words(&e.dev, sp); }
uint32_t rd(Env &e, uint32_t off) { return accel_rd(e.bus(), off); }

// A fresh device (reset, driver open) and model, every memory word zero on both sides.
void fresh(Env &e) {
  e.clk.reset();
  e.sc.check("driver open after reset", e.jobs, 0,
             static_cast<uint64_t>(mna_drv_open(&e.dev, e.bus())));
  if (e.model) mna_free(e.model);
  e.model = mna_new(&e.cfg);
  e.sc.check("zero every memory (bcast LOADs)", e.jobs, 0,
             static_cast<uint64_t>(mna_drv_zero_all(&e.dev, kJobTimeout)));
  e.jobs += 5;
}

// Every tile's STATUS word through the mailbox against the model's.
void compare_status(Env &e, const char *what) {
  for (int t = 0; t < e.cfg.tiles; t++) {
    uint64_t got = 0, exp = 0;
    const int rc = mna_drv_host(&e.dev, MNA_HOST_STATUS, 0, t, 0, 0, 0, &got, kJobTimeout);
    mna_host(e.model, MNA_HOST_STATUS, 0, t, 0, 0, 0, &exp);
    e.sc.check("mailbox STATUS response", static_cast<uint64_t>(t), 0, static_cast<uint64_t>(rc));
    if (!e.sc.check(what, static_cast<uint64_t>(t), exp, got))
      std::printf("  tile %d: status word expected 0x%016" PRIx64 " got 0x%016" PRIx64 "\n", t,
                  exp, got);
  }
}

// Words [addr, addr + n) of a space of a tile: STOREd into device memory, against the model.
// skip_abort: leave out the VS range of an aborted collective (docs/manna.md).
void compare_range(Env &e, int tile, int sp, uint32_t addr, uint32_t n, const char *what) {
  if (n == 0) return;
  const bool wide = sp == MNA_SP_IMEM;
  const uint64_t buf = e.alloc(static_cast<size_t>(n) * 8);
  const int rc = mna_drv_store(&e.dev, tile, sp, addr, n, buf, kJobTimeout);
  e.jobs++;
  e.sc.check("STORE for a comparison", e.jobs, 0, static_cast<uint64_t>(rc));
  mna_tile_status_t st;
  mna_tile_status(e.model, tile, &st);
  uint64_t bad = 0;
  size_t nw = 0;
  std::vector<uint64_t> got(n);
  if (wide) {
    mna_drv_mem_read64(&e.dev, buf, got.data(), n);
  } else {
    std::vector<uint32_t> g32(n);
    mna_drv_mem_read32(&e.dev, buf, g32.data(), n);
    for (uint32_t i = 0; i < n; i++) got[i] = g32[i];
  }
  const uint32_t *m32 = wide ? nullptr : mna_mem(e.model, tile, sp, &nw);
  const uint64_t *m64 = wide ? mna_imem(e.model, tile, &nw) : nullptr;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t w = addr + i;
    if (sp == MNA_SP_VS && st.abort_valid) {
      const uint32_t line = w / static_cast<uint32_t>(e.cfg.emacs);
      if (line >= st.abort_line && line < st.abort_line + st.abort_lines) continue;
    }
    const uint64_t exp = w < nw ? (wide ? m64[w] : m32[w]) : 0;
    if (exp != got[i]) {
      if (bad < 4)
        std::printf("  %s: tile %d space %d word %u expected 0x%" PRIx64 " got 0x%" PRIx64 "\n",
                    what, tile, sp, w, exp, got[i]);
      bad++;
    }
  }
  e.words += n;
  e.sc.check(what, static_cast<uint64_t>(tile * 8 + sp), 0, bad);
}

void compare_all(Env &e, const char *what) {
  for (int t = 0; t < e.cfg.tiles; t++)
    for (int sp = MNA_SP_MB; sp <= MNA_SP_SREG; sp++) compare_range(e, t, sp, 0, swords(e, sp), what);
}

// A workload (file text in f) on a fresh device and model. Returns false when it cannot be read.
bool workload(Env &e, FILE *f, const char *name, bool print) {
  fresh(e);
  mna_drv_wl_t wl;
  char err[256];
  const uint64_t c0 = e.clk.now();
  if (mna_drv_wl_read(&e.dev, f, name, &wl, err, sizeof err) != 0) {
    std::fprintf(stderr, "tb_manna_axi: %s\n", err);
    return false;
  }
  // the model replays the same records (the words from device memory)
  int exp_rc = 0, mruns = 0;
  uint32_t exp_mask = 0;
  for (size_t i = 0; i < wl.nrec; i++) {
    const mna_drv_rec_t &r = wl.rec[i];
    if (r.kind == 'p' || r.kind == 'm') {
      std::vector<uint64_t> v(r.n);
      if (r.space == MNA_SP_IMEM) {
        mna_drv_mem_read64(&e.dev, r.dram, v.data(), r.n);
      } else {
        std::vector<uint32_t> w(r.n);
        mna_drv_mem_read32(&e.dev, r.dram, w.data(), r.n);
        for (uint32_t k = 0; k < r.n; k++) v[k] = w[k];
      }
      for (uint32_t k = 0; k < r.n; k++)
        mna_host(e.model, MNA_HOST_WRITE, r.tile < 0, r.tile < 0 ? 0 : r.tile, r.space, r.addr + k,
                 v[k], nullptr);
    } else if (r.kind == 's') {
      mna_host(e.model, MNA_HOST_START, 0, 0, 0, r.addr, 0, nullptr);
      if (mna_run(e.model, 100000000ull) != 0) e.sc.expect(false, "model run ends", i);
      mruns++;
      int first = 0;
      for (int t = 0; t < e.cfg.tiles; t++) {
        mna_tile_status_t st;
        mna_tile_status(e.model, t, &st);
        if (st.status != MNA_ST_DONE) {
          exp_mask |= 1u << t;
          if (!first) first = MNA_DRV_ERR_TILE | st.status;
        }
      }
      if (!exp_rc) exp_rc = first;
    }
  }
  accel_counters_clear(e.bus());
  mna_drv_wl_result_t res;
  const int rc = mna_drv_wl_run(&e.dev, &wl, kJobTimeout, &res);
  e.jobs += res.jobs;
  e.runs += static_cast<uint64_t>(res.runs);
  e.workloads++;
  e.sc.check("workload runs", e.workloads, static_cast<uint64_t>(mruns),
             static_cast<uint64_t>(res.runs));
  e.sc.check("workload result (0, or 0x20 + the first tile error status)", e.workloads,
             static_cast<uint64_t>(exp_rc), static_cast<uint64_t>(rc));
  e.sc.check("workload TILE_ERR (every run's)", e.workloads, exp_mask, res.tile_err);
  if (rc) e.err_jobs++;
  compare_status(e, "tile STATUS after the workload");
  uint64_t cmp_words = 0;
  if (wl.ncmp == 0) {
    compare_all(e, "memory word after the workload");
  } else {
    for (size_t i = 0; i < wl.nrec; i++) {
      const mna_drv_rec_t &r = wl.rec[i];
      if (r.kind != 'c' || r.n == 0) continue;
      const bool wide = r.space == MNA_SP_IMEM;
      const int t0 = r.tile < 0 ? 0 : r.tile, t1 = r.tile < 0 ? e.cfg.tiles - 1 : r.tile;
      for (int t = t0; t <= t1; t++) {
        const uint64_t at = r.dram + static_cast<uint64_t>(r.n) * (wide ? 8 : 4) * (t - t0);
        size_t nw = 0;
        const uint32_t *m32 = wide ? nullptr : mna_mem(e.model, t, r.space, &nw);
        const uint64_t *m64 = wide ? mna_imem(e.model, t, &nw) : nullptr;
        std::vector<uint64_t> got(r.n);
        if (wide) {
          mna_drv_mem_read64(&e.dev, at, got.data(), r.n);
        } else {
          std::vector<uint32_t> g(r.n);
          mna_drv_mem_read32(&e.dev, at, g.data(), r.n);
          for (uint32_t k = 0; k < r.n; k++) got[k] = g[k];
        }
        uint64_t bad = 0;
        for (uint32_t k = 0; k < r.n; k++) {
          const uint32_t w = r.addr + k;
          const uint64_t exp = w < nw ? (wide ? m64[w] : m32[w]) : 0;
          if (exp != got[k]) {
            if (bad < 4)
              std::printf("  c range %s tile %d word %u: expected 0x%" PRIx64 " got 0x%" PRIx64 "\n",
                          r.name, t, w, exp, got[k]);
            bad++;
          }
        }
        cmp_words += r.n;
        e.sc.check("c range in device memory against the model", i, 0, bad);
      }
    }
  }
  e.words += cmp_words;
  if (wl.ncmp == 0) cmp_words = static_cast<uint64_t>(e.cfg.tiles) *
                                (swords(e, MNA_SP_MB) + swords(e, MNA_SP_MS) + swords(e, MNA_SP_VB) +
                                 swords(e, MNA_SP_VS) + swords(e, MNA_SP_SREG));
  if (print) {
    accel_counters_t ac;
    accel_counters_read(e.bus(), &ac);
    std::printf("axi workload: %d runs, %zu jobs, result 0x%x, tile_err 0x%x, run cycles %" PRIu64
                ", %" PRIu64 " words compared, %" PRIu64 " cycles (busy=%u stall=%u rd_bursts=%u "
                "wr_bursts=%u host_reqs=%u)\n",
                res.runs, res.jobs, rc, res.tile_err, res.run_cycles, cmp_words,
                e.clk.now() - c0, ac.cyc_busy, ac.cyc_stall, ac.rd_bursts, ac.wr_bursts,
                rd(e, MANNA__HOST_REQS_OFFSET));
  }
  mna_drv_wl_free(&wl);
  return true;
}

// ------------------------------------------------------------------ directed tests

// LOAD of random words into [addr, addr + n) of a space (bcast or one tile), mirrored on the
// model; returns the driver's result.
int load_random(Env &e, int bcast, int tile, int sp, uint32_t addr, uint32_t n, int exp_rc = 0,
                uint64_t *at = nullptr, std::vector<uint64_t> *vals = nullptr) {
  const bool wide = sp == MNA_SP_IMEM;
  std::vector<uint64_t> v(n);
  for (uint32_t i = 0; i < n; i++) v[i] = wide ? tb_rand() : tb_rand_u32();
  const uint64_t buf = e.alloc(static_cast<size_t>(n) * 8 + 8);
  if (wide) {
    mna_drv_mem_write64(&e.dev, buf, v.data(), n);
  } else {
    std::vector<uint32_t> w(v.begin(), v.end());
    mna_drv_mem_write32(&e.dev, buf, w.data(), n);
  }
  if (at) *at = buf;
  if (vals) *vals = v;
  mna_drv_job_t st;
  std::memset(&st, 0, sizeof st);
  const long rb0 = e.mem.rd_bursts;
  const int rc = mna_drv_job(&e.dev, MNA_DRV_LOAD, bcast, tile, sp, addr, n, buf, kJobTimeout, &st);
  e.jobs++;
  if (exp_rc >= 0) {
    e.sc.check("LOAD result", e.jobs, static_cast<uint32_t>(exp_rc), static_cast<uint32_t>(rc));
    e.sc.check("LOAD JOB_WORDS", e.jobs, n, st.words);
    e.sc.check("LOAD read bursts", e.jobs,
               n ? tb_axi_bursts(buf, static_cast<uint64_t>(n) * (wide ? 2 : 1), 4, 256) : 0,
               static_cast<uint64_t>(e.mem.rd_bursts - rb0));
  }
  if (exp_rc == 0)
    for (uint32_t i = 0; i < n; i++)
      mna_host(e.model, MNA_HOST_WRITE, bcast, tile, sp, addr + i, v[i], nullptr);
  return rc;
}

void test_registers(Env &e) {
  accel_bus *b = e.bus();
  uint32_t v = 1;
  e.sc.check("ID.BLOCK", 0, MNA_DRV_BLOCK_ID, rd(e, MANNA__ID_OFFSET) & 0xFFFF);
  e.sc.expect(b->read32(b->ctx, 0x8C, &v) != 0 && v == 0, "unmapped read: SLVERR, data 0", 0x8C);
  e.sc.expect(b->read32(b->ctx, 0xFC, &v) != 0, "unmapped read at the top: SLVERR", 0xFC);
  e.sc.expect(b->write32(b->ctx, 0x1C, 1) != 0, "unmapped write: SLVERR", 0x1C);
  e.sc.expect(b->write32(b->ctx, 0x90, 1) != 0, "unmapped write past the map: SLVERR", 0x90);
  // the decode (tb_axi.h): every register OKAY, every hole (and alias above the map) SLVERR with
  // data 0 and a refused write; the checks below see that the all-ones writes changed nothing
  const uint32_t regs[] = MANNA__ALL_OFFSETS;
  tb_axil_check_decode(e.axil, e.sc, regs, sizeof regs / sizeof regs[0], MANNA__MAP_W);
  const uint32_t h0 = rd(e, MANNA__HWCFG0_OFFSET);
  e.sc.expect(b->write32(b->ctx, MANNA__HWCFG0_OFFSET, 0) != 0, "write of HWCFG0: SLVERR", 0);
  e.sc.expect(b->write32(b->ctx, MANNA__JOB_WORDS_OFFSET, 5) != 0, "write of JOB_WORDS: SLVERR", 0);
  e.sc.expect(b->write32(b->ctx, MANNA__MBOX_RSP_OFFSET, 5) != 0, "write of MBOX_RSP: SLVERR", 0);
  e.sc.check("HWCFG0 unchanged by the write", 0, h0, rd(e, MANNA__HWCFG0_OFFSET));
  e.sc.check("HWCFG tiles", 0, TB_Tiles, e.dev.cfg.tiles);
  e.sc.check("HWCFG emacs", 0, TB_Emacs, e.dev.cfg.emacs);
  e.sc.check("HWCFG mb", 0, TB_MbLines, e.dev.cfg.mb_lines);
  e.sc.check("HWCFG ms", 0, TB_MsLines, e.dev.cfg.ms_lines);
  e.sc.check("HWCFG vb", 0, TB_VbLines, e.dev.cfg.vb_lines);
  e.sc.check("HWCFG vs", 0, TB_VsLines, e.dev.cfg.vs_lines);
  e.sc.check("HWCFG imem", 0, TB_ImemDepth, e.dev.cfg.imem_depth);
  e.sc.check("HWCFG rf", 0, TB_RfRegs, e.dev.cfg.rf_regs);
  e.sc.check("HWCFG transpose", 0, TB_Transpose, e.dev.cfg.transpose);
  e.sc.check("HWCFG emac_ops", 0, TB_EmacOps, e.dev.cfg.emac_ops);
  e.sc.check("HWCFG fence", 0, TB_FenceTimeout, e.dev.cfg.fence_timeout);
  e.sc.check("HWCFG axi addr w", 0, TB_AxiAddrW, e.dev.axi_addr_w);
  accel_wr(b, MANNA__JOB_DRAM_OFFSET, 0x12345678u);
  e.tb.axil.write32(MANNA__JOB_DRAM_OFFSET, 0x0000AB00u, 0x2);
  e.sc.check("byte strobes: one byte of JOB_DRAM", 0, 0x1234AB78u, rd(e, MANNA__JOB_DRAM_OFFSET));
  e.sc.check("STATUS after the zeroing jobs: DONE", 0, ACCEL_ST_DONE, rd(e, MANNA__STATUS_OFFSET));
  accel_err_clear(b);
  // a good job after the refused writes
  load_random(e, 0, 0, MNA_SP_MB, 3, 17);
  compare_range(e, 0, MNA_SP_MB, 0, 32, "MB after a good job");
}

// Random host requests through the mailbox (malformed ones too) against the model.
void test_mailbox(Env &e, long n) {
  for (long i = 0; i < n && !e.clk.timed_out(); i++) {
    int op = tb_chance(50) ? MNA_HOST_WRITE : tb_chance(70) ? MNA_HOST_READ : MNA_HOST_STATUS;
    const int bcast = tb_chance(15);
    const int tile = tb_chance(85) ? static_cast<int>(tb_rand_range(0, TB_Tiles - 1))
                                   : static_cast<int>(tb_rand_range(0, 15));
    const int sp = tb_chance(90) ? static_cast<int>(tb_rand_range(0, 5))
                                 : static_cast<int>(tb_rand_range(0, 7));
    const uint32_t sz = sp <= 5 ? swords(e, sp) : 16;
    const uint32_t addr = tb_chance(90) ? tb_rand_range(0, sz - 1) : tb_rand_u32() & 0xFFFFF;
    const uint64_t data = tb_rand();
    uint64_t got = 0, exp = 0;
    const int rc = mna_drv_host(&e.dev, op, bcast, tile, sp, addr, data, &got, kJobTimeout);
    const int mrc = mna_host(e.model, op, bcast, tile, sp, addr, data, &exp);
    e.sc.check("mailbox response err", static_cast<uint64_t>(i), static_cast<uint64_t>(mrc),
               static_cast<uint64_t>(rc));
    if (op != MNA_HOST_WRITE) e.sc.check("mailbox response data", static_cast<uint64_t>(i), exp, got);
    if (mrc != 0) {
      // a response error raises ERROR with its code (0x01 BAD, 0x02 BUSY)
      e.sc.check("ERR_CODE of a mailbox error", static_cast<uint64_t>(i),
                 static_cast<uint64_t>(mrc), rd(e, MANNA__ERR_CODE_OFFSET) & 0xFF);
      e.sc.check("STATUS.ERROR of a mailbox error", static_cast<uint64_t>(i), ACCEL_ST_ERROR,
                 rd(e, MANNA__STATUS_OFFSET) & ACCEL_ST_ERROR);
    }
  }
  compare_all(e, "memory after the mailbox requests");
}

// LOAD / STORE round trips of random ranges of every space.
void test_roundtrip(Env &e, int reps) {
  for (int r = 0; r < reps && !e.clk.timed_out(); r++) {
    const int sp = static_cast<int>(tb_rand_range(0, 5));
    const uint32_t sz = swords(e, sp);
    const uint32_t addr = tb_rand_range(0, sz - 1);
    const uint32_t n = tb_chance(10) ? 0 : tb_rand_range(1, sz - addr);
    const int bcast = tb_chance(30);
    const int tile = static_cast<int>(tb_rand_range(0, TB_Tiles - 1));
    load_random(e, bcast, tile, sp, addr, n);
    compare_range(e, tile, sp, 0, sz, "space after a LOAD");
  }
}

// A job refused at START: its code, DONE and ERROR at once, nothing read or written.
void refused(Env &e, const char *what, int op, int bcast, int tile, int sp, uint32_t addr,
             uint32_t count, uint64_t dram, int code) {
  const long rb = e.mem.rd_bursts, wb = e.mem.wr_bursts;
  const uint32_t hr = rd(e, MANNA__HOST_REQS_OFFSET);
  mna_drv_job_t st;
  const int rc = mna_drv_job(&e.dev, op, bcast, tile, sp, addr, count, dram, kJobTimeout, &st);
  e.jobs++;
  e.err_jobs++;
  e.sc.check(what, e.jobs, static_cast<uint64_t>(code), static_cast<uint64_t>(rc));
  e.sc.check("refused: nothing read or written", e.jobs, 0,
             static_cast<uint64_t>(e.mem.rd_bursts - rb + e.mem.wr_bursts - wb));
  e.sc.check("refused: no host request", e.jobs, hr, rd(e, MANNA__HOST_REQS_OFFSET));
  e.sc.check("refused: STATUS DONE and ERROR, not BUSY", e.jobs, ACCEL_ST_DONE | ACCEL_ST_ERROR,
             rd(e, MANNA__STATUS_OFFSET));
}

void test_bad_commands(Env &e) {
  const uint64_t buf = e.alloc(4096);
  const uint32_t mb = swords(e, MNA_SP_MB);
  refused(e, "OP 3: 0x10", 3, 0, 0, MNA_SP_MB, 0, 4, buf, MNA_DRV_ERR_OP);
  refused(e, "STORE with BCAST: 0x11", MNA_DRV_STORE, 1, 0, MNA_SP_MB, 0, 4, buf, MNA_DRV_ERR_FIELD);
  refused(e, "SPACE 6: 0x11", MNA_DRV_LOAD, 0, 0, 6, 0, 4, buf, MNA_DRV_ERR_FIELD);
  refused(e, "SPACE 7: 0x11", MNA_DRV_STORE, 0, 0, 7, 0, 4, buf, MNA_DRV_ERR_FIELD);
  refused(e, "TILE >= Tiles: 0x11", MNA_DRV_LOAD, 0, TB_Tiles, MNA_SP_MB, 0, 4, buf, MNA_DRV_ERR_FIELD);
  refused(e, "JOB_DRAM misaligned: 0x12", MNA_DRV_LOAD, 0, 0, MNA_SP_MB, 0, 4, buf + 2, MNA_DRV_ERR_DRAM);
  if (TB_AxiAddrW < 32)
    refused(e, "JOB_DRAM range beyond 2^AxiAddrW: 0x12", MNA_DRV_STORE, 0, 0, MNA_SP_MB, 0, 4,
            (1ull << TB_AxiAddrW) - 8, MNA_DRV_ERR_DRAM);
  refused(e, "range beyond the space: 0x13", MNA_DRV_LOAD, 1, 0, MNA_SP_MB, mb - 3, 4, buf, MNA_DRV_ERR_RANGE);
  refused(e, "address beyond the space: 0x13", MNA_DRV_STORE, 0, 0, MNA_SP_SREG, 0x100000, 1, buf, MNA_DRV_ERR_RANGE);
  refused(e, "huge count: its DRAM range beyond 2^32 (0x12)", MNA_DRV_LOAD, 0, 0, MNA_SP_IMEM, 0,
          0xFFFFFFFFu, buf, MNA_DRV_ERR_DRAM);
  refused(e, "count past the space: 0x13", MNA_DRV_LOAD, 0, 0, MNA_SP_SREG, 0, 17, buf, MNA_DRV_ERR_RANGE);
  refused(e, "RUN PC above 0xFFFF: 0x13", MNA_DRV_RUN, 0, 0, 0, 0x10000, 0, 0, MNA_DRV_ERR_RANGE);
  // a good job after the refusals; ERR_CODE cleared by its START
  load_random(e, 1, 0, MNA_SP_VB, 5, 40);
  e.sc.check("ERR_CODE cleared by START", e.jobs, 0, rd(e, MANNA__ERR_CODE_OFFSET));
  compare_range(e, TB_Tiles - 1, MNA_SP_VB, 0, swords(e, MNA_SP_VB), "VB after the refusals");
}

// RRESP SLVERR / DECERR on a LOAD (the word is not written), BRESP SLVERR on a STORE.
void test_bus_errors(Env &e) {
  // SLVERR on word k of a MB LOAD: every other word written, word k keeps its old value
  const uint32_t n = 24, k = 9;
  std::vector<uint64_t> v(n);
  for (auto &x : v) x = tb_rand_u32();
  uint64_t buf = e.alloc(n * 4 + 64);
  std::vector<uint32_t> w(v.begin(), v.end());
  mna_drv_mem_write32(&e.dev, buf, w.data(), n);
  e.mem.add_slverr(buf + 4 * k, buf + 4 * k + 4);
  mna_drv_job_t st;
  int rc = mna_drv_job(&e.dev, MNA_DRV_LOAD, 0, 0, MNA_SP_MB, 7, n, buf, kJobTimeout, &st);
  e.mem.slverr.clear();
  e.jobs++;
  e.err_jobs++;
  e.sc.check("RRESP SLVERR on a LOAD: 0xF1, SLVERR", e.jobs,
             ACCEL_ERR_AXI_RD | (TB_AXI_SLVERR << 8), static_cast<uint64_t>(rc));
  e.sc.check("RRESP SLVERR: every word counted", e.jobs, n, st.words);
  for (uint32_t i = 0; i < n; i++)
    if (i != k) mna_host(e.model, MNA_HOST_WRITE, 0, 0, MNA_SP_MB, 7 + i, v[i], nullptr);
  compare_range(e, 0, MNA_SP_MB, 0, swords(e, MNA_SP_MB), "MB after an RRESP error");
  // the same on IMEM: an error in either half drops the instruction
  const uint32_t ni = 6;
  std::vector<uint64_t> vi(ni);
  for (auto &x : vi) x = tb_rand();
  buf = e.alloc(ni * 8 + 64);
  mna_drv_mem_write64(&e.dev, buf, vi.data(), ni);
  e.mem.add_slverr(buf + 8 * 2 + 4, buf + 8 * 2 + 8);  // the high half of instruction 2
  e.mem.add_slverr(buf + 8 * 4, buf + 8 * 4 + 4);      // the low half of instruction 4
  rc = mna_drv_job(&e.dev, MNA_DRV_LOAD, 1, 0, MNA_SP_IMEM, 11, ni, buf, kJobTimeout, &st);
  e.mem.slverr.clear();
  e.jobs++;
  e.err_jobs++;
  e.sc.check("RRESP SLVERR on an IMEM LOAD: 0xF1", e.jobs, ACCEL_ERR_AXI_RD | (TB_AXI_SLVERR << 8),
             static_cast<uint64_t>(rc));
  for (uint32_t i = 0; i < ni; i++)
    if (i != 2 && i != 4) mna_host(e.model, MNA_HOST_WRITE, 1, 0, MNA_SP_IMEM, 11 + i, vi[i], nullptr);
  compare_range(e, TB_Tiles - 1, MNA_SP_IMEM, 0, 32, "IMEM after an RRESP error");
  // DECERR: a LOAD whose words run past the end of the device memory
  rc = mna_drv_job(&e.dev, MNA_DRV_LOAD, 0, 0, MNA_SP_VS, 0, 8, kMemBytes - 16, kJobTimeout, &st);
  e.jobs++;
  e.err_jobs++;
  e.sc.check("DECERR past the memory: 0xF1, DECERR", e.jobs, ACCEL_ERR_AXI_RD | (TB_AXI_DECERR << 8),
             static_cast<uint64_t>(rc));
  {
    std::vector<uint32_t> tail(4);
    mna_drv_mem_read32(&e.dev, kMemBytes - 16, tail.data(), 4);
    for (uint32_t i = 0; i < 4; i++) mna_host(e.model, MNA_HOST_WRITE, 0, 0, MNA_SP_VS, i, tail[i], nullptr);
  }
  compare_range(e, 0, MNA_SP_VS, 0, swords(e, MNA_SP_VS), "VS after a DECERR");
  // BRESP SLVERR on a STORE: the refused beats keep device memory as it was
  const uint32_t ns = 32;
  buf = e.alloc(ns * 4 + 64);
  std::vector<uint32_t> before(ns);
  for (auto &x : before) x = tb_rand_u32();
  mna_drv_mem_write32(&e.dev, buf, before.data(), ns);
  e.mem.add_slverr(buf + 4 * 5, buf + 4 * 7);
  rc = mna_drv_job(&e.dev, MNA_DRV_STORE, 0, 0, MNA_SP_MB, 7, ns, buf, kJobTimeout, &st);
  e.mem.slverr.clear();
  e.jobs++;
  e.err_jobs++;
  e.sc.check("BRESP SLVERR on a STORE: 0xF2, SLVERR", e.jobs,
             ACCEL_ERR_AXI_WR | (TB_AXI_SLVERR << 8), static_cast<uint64_t>(rc));
  std::vector<uint32_t> got(ns);
  mna_drv_mem_read32(&e.dev, buf, got.data(), ns);
  size_t nw = 0;
  const uint32_t *m = mna_mem(e.model, 0, MNA_SP_MB, &nw);
  uint64_t bad = 0;
  for (uint32_t i = 0; i < ns; i++) bad += got[i] != ((i == 5 || i == 6) ? before[i] : m[7 + i]);
  e.sc.check("STORE with BRESP errors: the other words stored", e.jobs, 0, bad);
  // a good job after the bus errors
  load_random(e, 0, TB_Tiles - 1, MNA_SP_MS, 0, swords(e, MNA_SP_MS));
  compare_range(e, TB_Tiles - 1, MNA_SP_MS, 0, swords(e, MNA_SP_MS), "MS after the bus errors");
}

std::vector<uint64_t> assemble(Env &e, const char *src) {
  std::vector<uint64_t> w(256);
  size_t n = 0;
  char err[200];
  if (mna_assemble(src, "tb", w.data(), w.size(), &n, err, sizeof err) != 0) {
    std::fprintf(stderr, "tb_manna_axi: %s\n", err);
    e.sc.expect(false, "test program assembles", 0);
    n = 0;
  }
  w.resize(n);
  return w;
}

// Loads a program into IMEM of tile t (-1: every tile) from PC 0, model too.
void load_prog(Env &e, int tile, const std::vector<uint64_t> &p) {
  const uint64_t buf = e.alloc(p.size() * 8 + 8);
  mna_drv_mem_write64(&e.dev, buf, p.data(), p.size());
  const int rc = mna_drv_load(&e.dev, tile < 0, tile < 0 ? 0 : tile, MNA_SP_IMEM, 0,
                              static_cast<uint32_t>(p.size()), buf, kJobTimeout);
  e.jobs++;
  e.sc.check("program LOAD", e.jobs, 0, static_cast<uint64_t>(rc));
  for (size_t i = 0; i < p.size(); i++)
    mna_host(e.model, MNA_HOST_WRITE, tile < 0, tile < 0 ? 0 : tile, MNA_SP_IMEM,
             static_cast<uint32_t>(i), p[i], nullptr);
}

// The model's RUN at pc: returns the driver's expected result (0, or 0x20 + the lowest stopped
// tile's status), *mask the expected TILE_ERR.
int model_run(Env &e, uint32_t pc, uint32_t *mask) {
  mna_host(e.model, MNA_HOST_START, 0, 0, 0, pc, 0, nullptr);
  mna_run(e.model, 100000000ull);
  int exp = 0;
  *mask = 0;
  for (int t = 0; t < e.cfg.tiles; t++) {
    mna_tile_status_t st;
    mna_tile_status(e.model, t, &st);
    if (st.status != MNA_ST_DONE) {
      *mask |= 1u << t;
      if (!exp) exp = MNA_DRV_ERR_TILE | st.status;
    }
  }
  return exp;
}

// RUN at pc, model too; checks the result against the model's statuses.
int run(Env &e, uint32_t pc, const char *what) {
  uint32_t mask = 0;
  const int exp = model_run(e, pc, &mask);
  mna_drv_job_t js;
  std::memset(&js, 0, sizeof js);
  const int rc = mna_drv_run(&e.dev, pc, kJobTimeout, &js);
  e.jobs++;
  e.runs++;
  if (rc) e.err_jobs++;
  e.sc.check(what, e.jobs, static_cast<uint64_t>(exp), static_cast<uint64_t>(rc));
  e.sc.check("TILE_ERR", e.jobs, mask, js.tile_err);
  e.sc.expect(js.run_cycles > 0, "RUN_CYCLES counts the run", e.jobs);
  compare_status(e, "tile STATUS after a RUN");
  return rc;
}

// A program that stops with an error; then a good one; START while a RUN is busy.
void test_program_errors(Env &e) {
  const std::vector<uint64_t> halt = assemble(e, "li s1, 7\nhalt\n");
  load_prog(e, -1, halt);
  std::vector<uint64_t> bad = halt;
  bad[1] = 0xFC00000000000000ull;  // opcode 0x3F: undefined
  load_prog(e, TB_Tiles - 1, bad);
  run(e, 0, "a tile stops with OPCODE: 0x22");
  std::vector<uint64_t> pcerr(halt.size(), 0);  // nops to the end of IMEM: PC in one tile
  load_prog(e, 0, pcerr);
  run(e, 0, "tiles stop with errors: the lowest tile's code");
  load_prog(e, -1, halt);
  run(e, 0, "a good RUN after the errors");
  // a long run; START while it is busy is ignored
  const std::vector<uint64_t> spin =
      assemble(e, "li s1, 60\nloop s1\nloop s1\nendloop\nendloop\nli s2, 5\nhalt\n");
  load_prog(e, -1, spin);
  mna_host(e.model, MNA_HOST_START, 0, 0, 0, 0, 0, nullptr);
  mna_run(e.model, 100000000ull);
  e.sc.check("RUN started", e.jobs, 0,
             static_cast<uint64_t>(mna_drv_start(&e.dev, MNA_DRV_RUN, 0, 0, 0, 0, 0, 0)));
  e.tb.bus.idle(e.tb.bus.ctx, 300);
  e.sc.check("BUSY during the run", e.jobs, ACCEL_ST_BUSY, rd(e, MANNA__STATUS_OFFSET) & ACCEL_ST_BUSY);
  // the mailbox works while the run waits for the tiles: STATUS says RUN, a READ is BUSY
  uint64_t sw = 0;
  int hrc = mna_drv_host(&e.dev, MNA_HOST_STATUS, 0, 0, 0, 0, 0, &sw, kJobTimeout);
  e.sc.check("mailbox STATUS during a run", e.jobs, 0, static_cast<uint64_t>(hrc));
  e.sc.check("tile status RUN during a run", e.jobs, MNA_ST_RUN, sw & 0xF);
  hrc = mna_drv_host(&e.dev, MNA_HOST_READ, 0, 0, MNA_SP_MB, 0, 0, &sw, kJobTimeout);
  e.sc.check("mailbox READ of a running tile: BUSY", e.jobs, MNA_RSP_BUSY, static_cast<uint64_t>(hrc));
  accel_wr(e.bus(), MANNA__JOB_CMD_OFFSET, MNA_DRV_LOAD);
  accel_wr(e.bus(), MANNA__CTRL_OFFSET, MANNA__CTRL__START_bm);  // ignored: busy
  mna_drv_job_t js;
  const int rc = mna_drv_wait(&e.dev, kJobTimeout, &js);
  e.jobs++;
  e.runs++;
  e.sc.check("the run after a START while busy: the mailbox's BUSY (0x02)", e.jobs,
             MNA_DRV_ERR_BUSY, static_cast<uint64_t>(rc));
  e.sc.check("no tile error in the long run", e.jobs, 0, js.tile_err);
  e.sc.expect(js.run_cycles > 10000, "RUN_CYCLES of the long run", js.run_cycles);
  compare_status(e, "tile STATUS after the long run");
  compare_range(e, 0, MNA_SP_SREG, 0, 16, "SREG after the long run");
}

// Host-port BUSY through a LOAD: tiles started by the mailbox, a LOAD into them is refused word
// by word (0x02, nothing written); a mailbox overrun (0x14).
void test_host_busy(Env &e) {
  const std::vector<uint64_t> spin =
      assemble(e, "li s1, 40\nloop s1\nloop s1\nendloop\nendloop\nhalt\n");
  load_prog(e, -1, spin);
  int hrc = mna_drv_host(&e.dev, MNA_HOST_START, 0, 0, 0, 0, 0, nullptr, kJobTimeout);
  e.sc.check("mailbox START", e.jobs, 0, static_cast<uint64_t>(hrc));
  mna_host(e.model, MNA_HOST_START, 0, 0, 0, 0, 0, nullptr);
  mna_run(e.model, 100000000ull);
  const uint64_t buf = e.alloc(64 * 4);
  mna_drv_job_t st;
  int rc = mna_drv_job(&e.dev, MNA_DRV_LOAD, 1, 0, MNA_SP_VB, 0, 64, buf, kJobTimeout, &st);
  e.jobs++;
  e.err_jobs++;
  e.sc.check("LOAD into running tiles: BUSY (0x02)", e.jobs, MNA_DRV_ERR_BUSY, static_cast<uint64_t>(rc));
  e.sc.check("LOAD into running tiles: every word answered", e.jobs, 64, st.words);
  // wait for the tiles (mailbox STATUS until tile 0 has stopped)
  for (int i = 0; i < 2000 && !e.clk.timed_out(); i++) {
    uint64_t sw = 0;
    mna_drv_host(&e.dev, MNA_HOST_STATUS, 0, TB_Tiles - 1, 0, 0, 0, &sw, kJobTimeout);
    if ((sw & 0xF) != MNA_ST_RUN) break;
    e.tb.bus.idle(e.tb.bus.ctx, 500);
  }
  e.tb.bus.idle(e.tb.bus.ctx, 50);
  compare_status(e, "tile STATUS after a mailbox START");
  compare_range(e, 0, MNA_SP_VB, 0, swords(e, MNA_SP_VB), "VB after a refused LOAD");
  // mailbox overrun: a long LOAD holds the host port, a GO waits, a second GO is refused
  const uint32_t n = swords(e, MNA_SP_MB);
  std::vector<uint32_t> v(n);
  for (auto &x : v) x = tb_rand_u32();
  const uint64_t lb = e.alloc(n * 4);
  mna_drv_mem_write32(&e.dev, lb, v.data(), n);
  e.sc.check("long LOAD started", e.jobs, 0,
             static_cast<uint64_t>(mna_drv_start(&e.dev, MNA_DRV_LOAD, 0, 0, MNA_SP_MB, 0, n, lb)));
  accel_wr(e.bus(), MANNA__MBOX_REQ_OFFSET, MNA_HOST_STATUS | MANNA__MBOX_REQ__GO_bm);
  e.sc.check("mailbox pending during a LOAD", e.jobs, MANNA__MBOX_RSP__PENDING_bm,
             rd(e, MANNA__MBOX_RSP_OFFSET) & MANNA__MBOX_RSP__PENDING_bm);
  accel_wr(e.bus(), MANNA__MBOX_REQ_OFFSET, MNA_HOST_READ | MANNA__MBOX_REQ__GO_bm);
  rc = mna_drv_wait(&e.dev, kJobTimeout, &st);
  e.jobs++;
  e.err_jobs++;
  e.sc.check("mailbox overrun during a LOAD: 0x14", e.jobs, MNA_DRV_ERR_OVERRUN, static_cast<uint64_t>(rc));
  for (uint32_t i = 0; i < n; i++) mna_host(e.model, MNA_HOST_WRITE, 0, 0, MNA_SP_MB, i, v[i], nullptr);
  accel_poll(e.bus(), MANNA__MBOX_RSP_OFFSET, MANNA__MBOX_RSP__PENDING_bm, 0, kJobTimeout);
  uint64_t exp = 0;
  mna_host(e.model, MNA_HOST_STATUS, 0, 0, 0, 0, 0, &exp);
  const uint64_t got = static_cast<uint64_t>(rd(e, MANNA__MBOX_RSP_HI_OFFSET)) << 32 |
                       rd(e, MANNA__MBOX_RSP_LO_OFFSET);
  e.sc.check("the first mailbox request answered", e.jobs, exp, got);
  e.sc.check("MBOX_RSP: VALID, OK", e.jobs, MANNA__MBOX_RSP__VALID_bm, rd(e, MANNA__MBOX_RSP_OFFSET));
  compare_range(e, 0, MNA_SP_MB, 0, n, "MB after the overrun");
}

// A mailbox request's answer (mna_drv_host_result) against the model's: err and, but for a
// WRITE, data.
void mbox_check(Env &e, const char *what, uint64_t i, int mrc, uint64_t exp, bool has_data) {
  uint64_t got = 0;
  const int rc = mna_drv_host_result(&e.dev, &got, kJobTimeout);
  e.sc.check("mailbox answered", i, 1, static_cast<uint64_t>(rc >= 0));
  e.sc.check(what, i, static_cast<uint64_t>(mrc), static_cast<uint64_t>(rc));
  if (has_data) e.sc.check(what, i, exp, got);
}

// The mailbox next to a job's edges, where it shares the host port with the job (job_port):
// a GO during a LOAD (at a random moment, sometimes after its end) waits for the LOAD and READs
// the loaded word; a GO just before a RUN's START (0-4 idle cycles between) goes first, so the
// tile is not yet running: a READ is answered (not BUSY), a WRITE lands before the program,
// STATUS is the last run's; the RUN's result and TILE_ERR as the model's. The model executes
// the requests in that order. (The GO and START of one cycle, which could put the request into
// the RUN's SRStart, are two register writes: they cannot coincide.)
void test_mbox_job_edges(Env &e, int reps) {
  const std::vector<uint64_t> prog = assemble(e, "li s1, 7\nli s2, 9\nhalt\n");
  load_prog(e, -1, prog);
  const uint32_t mbw = swords(e, MNA_SP_MB);
  for (int r = 0; r < reps && !e.clk.timed_out(); r++) {
    const uint64_t i = static_cast<uint64_t>(r);
    // LOAD, the GO while it runs
    const int tile = static_cast<int>(tb_rand_range(0, TB_Tiles - 1));
    const uint32_t n = tb_rand_range(1, mbw);
    const uint32_t w = tb_chance(50) ? n - 1 : tb_rand_range(0, n - 1);
    std::vector<uint32_t> v(n);
    for (auto &x : v) x = tb_rand_u32();
    const uint64_t buf = e.alloc(n * 4);
    mna_drv_mem_write32(&e.dev, buf, v.data(), n);
    e.sc.check("LOAD started", i, 0,
               static_cast<uint64_t>(mna_drv_start(&e.dev, MNA_DRV_LOAD, 0, tile, MNA_SP_MB, 0, n, buf)));
    e.tb.bus.idle(e.tb.bus.ctx, tb_rand_range(0, 6 * n));
    mna_drv_host_post(&e.dev, MNA_HOST_READ, 0, tile, MNA_SP_MB, w, 0);
    mna_drv_job_t st;
    e.sc.check("LOAD with a mailbox GO in it", i, 0,
               static_cast<uint64_t>(mna_drv_wait(&e.dev, kJobTimeout, &st)));
    e.sc.check("LOAD JOB_WORDS", i, n, st.words);
    e.jobs++;
    for (uint32_t k = 0; k < n; k++)
      mna_host(e.model, MNA_HOST_WRITE, 0, tile, MNA_SP_MB, k, v[k], nullptr);
    uint64_t exp = 0;
    int mrc = mna_host(e.model, MNA_HOST_READ, 0, tile, MNA_SP_MB, w, 0, &exp);
    mbox_check(e, "mailbox READ posted during a LOAD: the loaded word", i, mrc, exp, true);
    // RUN, the GO just before its START
    const int op = tb_chance(40) ? MNA_HOST_READ : tb_chance(50) ? MNA_HOST_WRITE : MNA_HOST_STATUS;
    const int sp = tb_chance(50) ? MNA_SP_MB : MNA_SP_SREG;
    const int mt = static_cast<int>(tb_rand_range(0, TB_Tiles - 1));
    const uint32_t ma = tb_rand_range(0, swords(e, sp) - 1);
    const uint64_t md = tb_rand_u32();
    mna_drv_prepare(&e.dev, MNA_DRV_RUN, 0, 0, 0, 0, 0, 0);
    mna_drv_host_post(&e.dev, op, 0, mt, sp, ma, md);
    if (tb_chance(50)) e.tb.bus.idle(e.tb.bus.ctx, tb_rand_range(1, 4));
    accel_wr(e.bus(), MANNA__CTRL_OFFSET, MANNA__CTRL__START_bm);
    mrc = mna_host(e.model, op, 0, mt, sp, ma, md, &exp);
    uint32_t mask = 0;
    const int xrc = model_run(e, 0, &mask);
    mna_drv_job_t js;
    std::memset(&js, 0, sizeof js);
    e.sc.check("RUN with a mailbox GO just before its START", i, static_cast<uint64_t>(xrc),
               static_cast<uint64_t>(mna_drv_wait(&e.dev, kJobTimeout, &js)));
    e.sc.check("TILE_ERR", i, mask, js.tile_err);
    e.jobs++;
    e.runs++;
    mbox_check(e, "mailbox request posted before a RUN's START: answered before it", i, mrc, exp,
               op != MNA_HOST_WRITE);
  }
  compare_status(e, "tile STATUS after the mailbox at job edges");
  for (int t = 0; t < TB_Tiles; t++) {
    compare_range(e, t, MNA_SP_MB, 0, mbw, "MB after the mailbox at job edges");
    compare_range(e, t, MNA_SP_SREG, 0, 16, "SREG after the mailbox at job edges");
  }
}

// Reset in the middle of a RUN and of a LOAD; then a good job.
void test_reset(Env &e) {
  const std::vector<uint64_t> spin =
      assemble(e, "li s1, 100\nloop s1\nloop s1\nendloop\nendloop\nhalt\n");
  for (int k = 0; k < 2; k++) {
    fresh(e);
    if (k == 0) {
      load_prog(e, -1, spin);
      mna_drv_start(&e.dev, MNA_DRV_RUN, 0, 0, 0, 0, 0, 0);
    } else {
      const uint64_t buf = e.alloc(swords(e, MNA_SP_MB) * 4);
      mna_drv_start(&e.dev, MNA_DRV_LOAD, 1, 0, MNA_SP_MB, 0, swords(e, MNA_SP_MB), buf);
    }
    e.tb.bus.idle(e.tb.bus.ctx, tb_rand_range(30, 400));
    e.sc.check("BUSY before the reset", static_cast<uint64_t>(k), ACCEL_ST_BUSY,
               rd(e, MANNA__STATUS_OFFSET) & ACCEL_ST_BUSY);
    e.clk.reset();
    e.sc.check("driver open after reset", static_cast<uint64_t>(k), 0,
               static_cast<uint64_t>(mna_drv_open(&e.dev, e.bus())));
    e.sc.check("STATUS after reset", static_cast<uint64_t>(k), 0, rd(e, MANNA__STATUS_OFFSET));
    e.sc.check("MBOX_RSP after reset", static_cast<uint64_t>(k), 0, rd(e, MANNA__MBOX_RSP_OFFSET));
    e.mem.check_idle("after the reset");
  }
  fresh(e);
  load_random(e, 1, 0, MNA_SP_VS, 0, swords(e, MNA_SP_VS));
  compare_range(e, 0, MNA_SP_VS, 0, swords(e, MNA_SP_VS), "VS after the resets");
}

void random_workloads(Env &e, long n) {
  mna_rand_cfg_t rc;
  mna_rand_cfg_default(&rc);
  rc.tiles = TB_Tiles, rc.emacs = TB_Emacs, rc.mb_lines = TB_MbLines, rc.ms_lines = TB_MsLines;
  rc.vb_lines = TB_VbLines, rc.vs_lines = TB_VsLines, rc.imem_depth = TB_ImemDepth;
  rc.rf_regs = TB_RfRegs;
  for (long i = 0; i < n && !e.clk.timed_out(); i++) {
    mna_rand_opt_t o;
    mna_rand_opt_default(&o);
    o.insns = 150;
    o.runs = 2;
    o.errors = (i % 3 == 2) ? 5 : 0;
    o.fence = TB_FenceTimeout;
    o.seed = e.a.seed * 1000 + static_cast<uint64_t>(i);
    size_t len = 0;
    char err[200];
    char *txt = mna_rand_string(&rc, &o, &len, nullptr, err, sizeof err);
    if (!txt) {
      std::fprintf(stderr, "tb_manna_axi: mna_rand: %s\n", err);
      e.sc.expect(false, "random workload made", static_cast<uint64_t>(i));
      return;
    }
    FILE *f = fmemopen(txt, len, "r");
    e.sc.expect(f && workload(e, f, "random", false), "random workload ran", static_cast<uint64_t>(i));
    if (f) std::fclose(f);
    std::free(txt);
  }
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "manna_axi", 4, &a, {{"workload", "=<file>: a workload file (mna_workload)"}});
  Env e(a);
  mna_cfg_default(&e.cfg);
  e.cfg.tiles = TB_Tiles;
  e.cfg.emacs = TB_Emacs;
  e.cfg.mb_lines = TB_MbLines;
  e.cfg.ms_lines = TB_MsLines;
  e.cfg.vb_lines = TB_VbLines;
  e.cfg.vs_lines = TB_VsLines;
  e.cfg.imem_depth = TB_ImemDepth;
  e.cfg.rf_regs = TB_RfRegs;
  e.cfg.transpose = TB_Transpose;
  e.cfg.emac_ops = TB_EmacOps;
  e.cfg.fence_timeout = TB_FenceTimeout;
  e.clk.reset();
  accel_bus *b = e.bus();
  e.sc.check("driver open (ID, HWCFG)", 0, 0, static_cast<uint64_t>(mna_drv_open(&e.dev, b)));
  e.sc.check("the driver's cfg is the build's", 0, 1,
             static_cast<uint64_t>(mna_drv_cfg_matches(&e.dev, &e.cfg)));
  const char *wl_path = tb_plusarg("workload");
  if (wl_path) {
    FILE *f = std::fopen(wl_path, "r");
    if (!f) {
      std::fprintf(stderr, "tb_manna_axi: cannot open %s\n", wl_path);
      return 2;
    }
    const bool ok = workload(e, f, wl_path, true);
    std::fclose(f);
    if (!ok) return 2;
  } else {
    fresh(e);
    test_registers(e);
    test_mailbox(e, 200);
    test_roundtrip(e, 12);
    test_bad_commands(e);
    test_bus_errors(e);
    fresh(e);
    test_program_errors(e);
    test_host_busy(e);
    test_mbox_job_edges(e, 12);
    test_reset(e);
    random_workloads(e, a.n);
  }
  e.sc.expect(!e.clk.timed_out(), "finished before the timeout", e.clk.now());
  e.sc.check("register accesses that were expected to succeed", 0, 0, b->errors);
  e.sc.check("AXI protocol violations", 0, 0,
             static_cast<uint64_t>(e.mem.violations + e.axil.violations));
  e.mem.report("manna_axi");
  std::printf("manna_axi: %" PRIu64 " jobs (%" PRIu64 " with an error), %" PRIu64 " runs, %" PRIu64
              " workloads, %" PRIu64 " words compared, %" PRIu64 " cycles\n",
              e.jobs, e.err_jobs, e.runs, e.workloads, e.words, e.clk.now());
  return e.sc.finish();
}
