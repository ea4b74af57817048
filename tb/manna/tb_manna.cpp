// tb_manna.cpp -- Verilator harness of the MANNA top (rtl/manna/manna.v) against its golden model
// (cmodel/manna, cmodel/include/manna.h).
//
// +workload=FILE   a workload file (docs/manna.md, "Workload files": cfg, p, m, s, c records).
//                  Every record becomes host-port requests, sent to the RTL (under random request
//                  gaps +gap and response backpressure +stall) and to the model; every response
//                  is compared (err and data). Before the first record every memory word of every
//                  tile is written with zero (both sides), so unwritten words agree.
//                  After each `s PC` (START, then the run to the end) the harness compares every
//                  tile's STATUS word (status, stopping PC, instruction count); after the last
//                  run it compares the `c` ranges, or every memory word of every tile (less the
//                  destination range of an aborted collective, docs/manna.md).
// +reset=1         reset the RTL in the middle of the first run (at a random cycle), then replay
//                  the whole file from the beginning on the RTL and a fresh model.
// +busy=1          while a run is in flight, send WRITE/READ requests: each must be refused with
//                  BUSY (err 2) and change nothing.
// +hostbad=N       N random malformed host requests (bad tile, space, address, bcast read) before
//                  the workload, each compared with the model's response.
// +cycles=1        run the model through its cycle model (mna_run_cycles, the same functional
//                  result) and, for every run without host stalls or gaps (+stall=0 +gap=0) and
//                  without +busy probes, compare the run's cycles with the model's prediction.
// Build parameters: TB_Tiles, TB_Emacs, TB_MbLines, ... (rtl/manna/block.toml).
#include "Vmanna.h"
#include "tb_lib.h"

#include <cinttypes>
#include <cstring>
#include <string>
#include <vector>

#include "cutil.h"
#include "manna.h"

typedef Vmanna Top;

struct Rec {
  char kind;                // 'p', 'm', 's', 'c'
  int tile;                 // -1: every tile
  int space;
  uint32_t addr;
  std::vector<uint64_t> words;
  uint32_t len;
};

static int space_of(const char *s) {
  if (!std::strcmp(s, "mb")) return MNA_SP_MB;
  if (!std::strcmp(s, "ms")) return MNA_SP_MS;
  if (!std::strcmp(s, "vb")) return MNA_SP_VB;
  if (!std::strcmp(s, "vs")) return MNA_SP_VS;
  if (!std::strcmp(s, "sreg")) return MNA_SP_SREG;
  if (!std::strcmp(s, "imem")) return MNA_SP_IMEM;
  return -1;
}

static uint32_t space_words(const mna_cfg_t &c, int sp) {
  switch (sp) {
    case MNA_SP_IMEM: return static_cast<uint32_t>(c.imem_depth);
    case MNA_SP_MB: return static_cast<uint32_t>(c.mb_lines * c.emacs);
    case MNA_SP_MS: return static_cast<uint32_t>(c.ms_lines * c.emacs);
    case MNA_SP_VB: return static_cast<uint32_t>(c.vb_lines * c.emacs);
    case MNA_SP_VS: return static_cast<uint32_t>(c.vs_lines * c.emacs);
    case MNA_SP_SREG: return 16;
    default: return 0;
  }
}

// The workload file (docs/manna.md), checked as strictly as the driver's reader
// (sw/manna/libmna_driver.c): every number in range, every record's words inside its space;
// an error is one line "<path>:<line>: <what>" and the harness exits with status 2.
static bool parse_workload(const char *path, const mna_cfg_t &cfg, std::vector<Rec> *recs) {
  FILE *f = std::fopen(path, "r");
  if (!f) tb_fail("%s: cannot open", path);
  std::vector<char> buf(1 << 17);
  std::vector<char *> tok(1 << 14);
  char why[128];
  long no = 0;
  for (;;) {
    const int nt = cutil_read_tokens(f, buf.data(), buf.size(), tok.data(), static_cast<int>(tok.size()), &no,
                                     nullptr, why, sizeof why);
    if (nt == 0) break;
    if (nt < 0) tb_fail("%s:%ld: %s", path, no, why);
    uint64_t v;
    if (!std::strcmp(tok[0], "cfg")) {
      for (int i = 1; i < nt; i++) {
        char *eq = std::strchr(tok[i], '=');
        if (!eq) tb_fail("%s:%ld: cfg: '%s' is not key=value", path, no, tok[i]);
        *eq = 0;
        if (cutil_parse_dec(eq + 1, 0, 1u << 30, &v)) tb_fail("%s:%ld: cfg: bad value of %s", path, no, tok[i]);
        long want = !std::strcmp(tok[i], "tiles") ? cfg.tiles
                    : !std::strcmp(tok[i], "emacs") ? cfg.emacs
                    : !std::strcmp(tok[i], "mb")    ? cfg.mb_lines
                    : !std::strcmp(tok[i], "ms")    ? cfg.ms_lines
                    : !std::strcmp(tok[i], "vb")    ? cfg.vb_lines
                    : !std::strcmp(tok[i], "vs")    ? cfg.vs_lines
                    : !std::strcmp(tok[i], "imem")  ? cfg.imem_depth
                    : !std::strcmp(tok[i], "rf")    ? cfg.rf_regs
                                                    : -1;
        if (want < 0) tb_fail("%s:%ld: cfg: unknown key '%s'", path, no, tok[i]);
        if (static_cast<uint64_t>(want) != v)
          tb_fail("%s:%ld: the file is for %s=%llu, this build has %ld", path, no, tok[i],
                  static_cast<unsigned long long>(v), want);
      }
      continue;
    }
    Rec r{};
    r.kind = tok[0][0];
    if (std::strlen(tok[0]) != 1 || !std::strchr("pmsc", r.kind)) tb_fail("%s:%ld: unknown record '%s'", path, no, tok[0]);
    if (r.kind == 's') {
      // a start PC beyond the instruction memory is legal input: the RTL's PC error (err_pc)
      if (nt != 2 || cutil_parse_num(tok[1], &v) || v > 0xFFFF)
        tb_fail("%s:%ld: s: bad start PC (expected 's <pc>', pc 0..65535)", path, no);
      r.addr = static_cast<uint32_t>(v);
      recs->push_back(r);
      continue;
    }
    const int first = r.kind == 'p' ? 3 : 4;
    if (r.kind == 'c' ? (nt < 5 || nt > 6) : nt < first + 1) tb_fail("%s:%ld: %c: wrong number of fields", path, no, r.kind);
    if (!std::strcmp(tok[1], "*")) r.tile = -1;
    else if (cutil_parse_dec(tok[1], 0, static_cast<uint64_t>(cfg.tiles) - 1, &v))
      tb_fail("%s:%ld: bad tile '%s' (expected 0..%d or *)", path, no, tok[1], cfg.tiles - 1);
    else r.tile = static_cast<int>(v);
    r.space = r.kind == 'p' ? MNA_SP_IMEM : space_of(tok[2]);
    if (r.space < 0 || (r.kind == 'm' && r.space == MNA_SP_IMEM)) tb_fail("%s:%ld: bad space '%s'", path, no, tok[2]);
    uint64_t addr, n;
    if (cutil_parse_dec(tok[first - 1], 0, 0xFFFFFu, &addr)) tb_fail("%s:%ld: bad address '%s'", path, no, tok[first - 1]);
    r.addr = static_cast<uint32_t>(addr);
    if (r.kind == 'c') {
      if (cutil_parse_dec(tok[4], 0, 0x100000u, &n)) tb_fail("%s:%ld: c: bad length '%s'", path, no, tok[4]);
      r.len = static_cast<uint32_t>(n);
    } else {
      n = static_cast<uint64_t>(nt - first);
      const uint64_t max = r.space == MNA_SP_IMEM ? ~0ull : 0xFFFFFFFFull;
      for (int i = first; i < nt; i++) {
        if (cutil_parse_hex(tok[i], max, &v)) tb_fail("%s:%ld: bad word '%s'", path, no, tok[i]);
        r.words.push_back(v);
      }
    }
    const uint32_t sw = space_words(cfg, r.space);
    if (addr + n > sw)
      tb_fail("%s:%ld: %c: words %llu..%llu beyond the space (%u words)", path, no, r.kind,
              static_cast<unsigned long long>(addr), static_cast<unsigned long long>(addr + n - 1), sw);
    recs->push_back(r);
  }
  std::fclose(f);
  return true;
}

// ------------------------------------------------------------------ the RTL side of the host port
struct Host {
  TbSim<Top> *sim;
  TbStall gap, stall;
  uint64_t busy_cycles = 0;
  Host(TbSim<Top> *s, int gap_pct, int stall_pct) : sim(s), gap(gap_pct), stall(stall_pct) {}
  // One request, waits for its response. Returns false on timeout.
  bool req(int op, int bcast, int tile, int space, uint32_t addr, uint64_t data, int *err,
           uint64_t *rdata, bool *idle_at_accept = nullptr) {
    Top *t = sim->top;
    while (gap.next()) {
      t->req_valid_i = 0;
      t->rsp_ready_i = 0;
      sim->tick();
      if (sim->timed_out) return false;
    }
    t->req_valid_i = 1;
    t->req_op_i = op;
    t->req_bcast_i = bcast;
    t->req_tile_i = tile & 15;
    t->req_space_i = space & 7;
    t->req_addr_i = addr & 0xFFFFF;
    t->req_data_i = data;
    t->rsp_ready_i = 0;
    for (;;) {
      t->eval();
      if (t->req_ready_o) break;
      sim->tick();
      if (sim->timed_out) return false;
    }
    if (idle_at_accept) *idle_at_accept = t->idle_o;
    sim->tick();
    t->req_valid_i = 0;
    for (;;) {
      t->rsp_ready_i = !stall.next();
      t->eval();
      if (t->rsp_valid_o && t->rsp_ready_i) {
        *err = t->rsp_err_o;
        *rdata = t->rsp_data_o;
        sim->tick();
        t->rsp_ready_i = 0;
        return true;
      }
      sim->tick();
      if (sim->timed_out) return false;
    }
  }
};


int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_manna", 1, &a,
          {{"workload", "=<file>: a workload file (required)"},
           {"reset", "[=0|1]: reset mid-run, then replay (default 0)"},
           {"busy", "[=0|1]: requests while a run is in flight must be refused (default 0)"},
           {"hostbad", "=N: N malformed host requests first (default 0)"},
           {"cycles", "[=0|1]: compare the run's cycles with the model's prediction (default 0)"}});
  mna_cfg_t cfg;
  mna_cfg_default(&cfg);
  cfg.tiles = TB_Tiles;
  cfg.emacs = TB_Emacs;
  cfg.mb_lines = TB_MbLines;
  cfg.ms_lines = TB_MsLines;
  cfg.vb_lines = TB_VbLines;
  cfg.vs_lines = TB_VsLines;
  cfg.imem_depth = TB_ImemDepth;
  cfg.rf_regs = TB_RfRegs;
  cfg.transpose = TB_Transpose;
  cfg.emac_ops = TB_EmacOps;
  cfg.fence_timeout = TB_FenceTimeout;
  char why[200];
  if (mna_cfg_check(&cfg, why, sizeof why) != 0) {
    std::fprintf(stderr, "tb_manna: bad build configuration: %s\n", why);
    return 2;
  }
  const char *wl = tb_plusarg("workload");
  if (!wl || !*wl) tb_fail("+workload=FILE is required");
  std::vector<Rec> recs;
  if (!parse_workload(wl, cfg, &recs)) return 2;
  const bool do_reset = tb_plusarg_flag("reset", false);
  const bool do_busy = tb_plusarg_flag("busy", false);
  const bool do_cycles = tb_plusarg_flag("cycles", false);
  // the prediction is of a run whose end is seen at once: no host stalls, gaps or busy probes
  const bool cycles_exact = do_cycles && a.stall_pct == 0 && a.gap_pct == 0 && !do_busy;
  long cycle_runs = 0, cycle_exact = 0;
  const long hostbad = static_cast<long>(tb_plusarg_num("hostbad", 0, 1000000, 0));

  TbSim<Top> sim(a, a.timeout ? a.timeout : 50000000ull);
  TbScore sc("manna");
  Top *t = sim.top;
  Host host(&sim, a.gap_pct, a.stall_pct);
  t->req_valid_i = 0;
  t->rsp_ready_i = 0;
  sim.reset();

  uint64_t total_cycles = 0, total_insns = 0;
  int runs = 0;
  long reqs = 0;
  bool reset_pending = do_reset;

  for (int pass = 0; pass < 2; pass++) {
    mna_t *m = mna_new(&cfg);
    if (!m) {
      std::fprintf(stderr, "tb_manna: mna_new failed\n");
      return 2;
    }
    bool restart = false;
    // one request to both sides, compared
    auto both = [&](int op, int bcast, int tile, int space, uint32_t addr, uint64_t data,
                    const char *what) -> bool {
      int err = 0;
      uint64_t rd = 0, mrd = 0;
      if (!host.req(op, bcast, tile, space, addr, data, &err, &rd)) return false;
      int merr = mna_host(m, op, bcast, tile, space, addr, data, &mrd);
      reqs++;
      sc.check(what, static_cast<uint64_t>(reqs), static_cast<uint64_t>(merr),
               static_cast<uint64_t>(err));
      if (op == MNA_HOST_READ || op == MNA_HOST_STATUS)
        sc.check(what, static_cast<uint64_t>(reqs), mrd, rd);
      return true;
    };
    // zero every memory word (both sides)
    for (int sp = MNA_SP_IMEM; sp <= MNA_SP_VS && !sim.timed_out; sp++)
      for (uint32_t w = 0; w < space_words(cfg, sp) && !sim.timed_out; w++)
        both(MNA_HOST_WRITE, 1, 0, sp, w, 0, "zero fill");
    // malformed host requests
    for (long i = 0; i < hostbad && !sim.timed_out; i++) {
      int op = static_cast<int>(tb_rand_range(0, 3));
      int bcast = tb_chance(20);
      int tile = static_cast<int>(tb_rand_range(0, 15));
      int space = static_cast<int>(tb_rand_range(0, 7));
      uint32_t addr = tb_chance(50) ? tb_rand_range(0, 64) : tb_rand_u32() & 0xFFFFF;
      if (op == MNA_HOST_START) op = MNA_HOST_READ;   // START is exercised by the runs
      both(op, bcast, tile, space, addr, tb_rand(), "host request");
    }
    std::vector<Rec> checks;
    for (size_t ri = 0; ri < recs.size() && !sim.timed_out && !restart; ri++) {
      const Rec &r = recs[ri];
      if (r.kind == 'p' || r.kind == 'm') {
        for (size_t i = 0; i < r.words.size(); i++)
          both(MNA_HOST_WRITE, r.tile < 0, r.tile < 0 ? 0 : r.tile, r.space,
               r.addr + static_cast<uint32_t>(i), r.words[i], "write");
      } else if (r.kind == 'c') {
        checks.push_back(r);
      } else if (r.kind == 's') {
        int err = 0;
        uint64_t rd = 0;
        if (!host.req(MNA_HOST_START, 0, 0, 0, r.addr, 0, &err, &rd)) break;
        int merr = mna_host(m, MNA_HOST_START, 0, 0, 0, r.addr, 0, nullptr);
        sc.check("START", ri, static_cast<uint64_t>(merr), static_cast<uint64_t>(err));
        uint64_t t0 = sim.cycle;
        uint64_t reset_at = reset_pending ? t0 + 20 + tb_rand_range(0, 400) : 0;
        uint64_t pred = 0;
        const int mrc = do_cycles ? mna_run_cycles(m, 100000000ull, nullptr, &pred)
                                  : mna_run(m, 100000000ull);
        if (mrc != 0) {
          std::fprintf(stderr, "tb_manna: the model ran past 10^8 instructions\n");
          sc.expect(false, "model run ends", ri);
        }
        // wait for every tile to stop (optionally probing with refused requests)
        t->eval();
        while (!t->idle_o && !sim.timed_out) {
          if (reset_pending && sim.cycle >= reset_at) break;
          if (do_busy && tb_chance(5)) {
            bool idle = false;
            int e2 = 0;
            uint64_t d2 = 0;
            int op = tb_chance(50) ? MNA_HOST_WRITE : MNA_HOST_READ;
            int sp = static_cast<int>(tb_rand_range(MNA_SP_MB, MNA_SP_VS));
            host.req(op, 0, static_cast<int>(tb_rand_range(0, static_cast<uint32_t>(cfg.tiles - 1))),
                     sp, 0, 0xDEADBEEF, &e2, &d2, &idle);
            // a request taken while every tile still runs must be refused
            if (!idle) sc.check("BUSY while running", sim.cycle, MNA_RSP_BUSY, static_cast<uint64_t>(e2));
            continue;
          }
          sim.tick();
          t->eval();
        }
        if (reset_pending && !t->idle_o) {
          std::printf("manna: reset at cycle %" PRIu64 " of the run, then the file again\n",
                      sim.cycle - t0);
          sim.reset();
          reset_pending = false;
          restart = true;
          break;
        }
        reset_pending = false;
        uint64_t cyc = sim.cycle - t0;
        total_cycles += cyc;
        runs++;
        // statuses
        for (int ti = 0; ti < cfg.tiles; ti++) {
          int err = 0;
          uint64_t rd = 0, mrd = 0;
          host.req(MNA_HOST_STATUS, 0, ti, 0, 0, 0, &err, &rd);
          mna_host(m, MNA_HOST_STATUS, 0, ti, 0, 0, 0, &mrd);
          char what[48];
          std::snprintf(what, sizeof what, "tile %d status", ti);
          if (!sc.check(what, ri, mrd, rd)) {
            mna_tile_status_t st;
            mna_tile_status(m, ti, &st);
            std::fprintf(stderr, "  (model: status %d pc %u insns %u; rtl: status %u pc %u insns %u)\n",
                         st.status, st.pc, st.insns, static_cast<unsigned>(rd & 15),
                         static_cast<unsigned>((rd >> 16) & 0xFFFF), static_cast<unsigned>(rd >> 32));
          }
          total_insns += rd >> 32;
        }
        std::printf("manna: run %d start=%u cycles=%" PRIu64 "\n", runs, r.addr, cyc);
        if (cycles_exact) {
          cycle_runs++;
          if (sc.check("run cycles (cycle model)", static_cast<uint64_t>(runs), pred, cyc))
            cycle_exact++;
        }
      }
    }
    if (restart) {
      mna_free(m);
      continue;
    }
    // final comparison
    std::vector<Rec> ranges = checks;
    if (ranges.empty()) {
      for (int ti = 0; ti < cfg.tiles; ti++)
        for (int sp = MNA_SP_MB; sp <= MNA_SP_SREG; sp++) {
          Rec c{};
          c.kind = 'c';
          c.tile = ti;
          c.space = sp;
          c.addr = 0;
          c.len = space_words(cfg, sp);
          ranges.push_back(c);
        }
    }
    long words = 0;
    for (const Rec &c : ranges) {
      int t_lo = c.tile < 0 ? 0 : c.tile, t_hi = c.tile < 0 ? cfg.tiles - 1 : c.tile;
      for (int ti = t_lo; ti <= t_hi && !sim.timed_out; ti++) {
        mna_tile_status_t st;
        mna_tile_status(m, ti, &st);
        size_t nw = 0;
        const uint32_t *mem = mna_mem(m, ti, c.space, &nw);
        for (uint32_t w = c.addr; w < c.addr + c.len && !sim.timed_out; w++) {
          if (c.space == MNA_SP_VS && st.abort_valid) {
            uint32_t line = w / static_cast<uint32_t>(cfg.emacs);
            if (line >= st.abort_line && line < st.abort_line + st.abort_lines) continue;
          }
          int err = 0;
          uint64_t rd = 0;
          if (!host.req(MNA_HOST_READ, 0, ti, c.space, w, 0, &err, &rd)) break;
          uint64_t exp = (mem && w < nw) ? mem[w] : 0;
          char what[64];
          std::snprintf(what, sizeof what, "tile %d space %d word %u", ti, c.space, w);
          sc.check(what, w, exp, rd);
          words++;
        }
      }
    }
    std::printf("manna: compared %ld words\n", words);
    mna_free(m);
    break;
  }
  if (cycles_exact)
    std::printf("manna: cycle model exact on %ld of %ld runs\n", cycle_exact, cycle_runs);
  std::printf("manna: runs=%d insns=%" PRIu64 " requests=%ld cycles=%" PRIu64 "\n", runs,
              total_insns, reqs, total_cycles);
  sc.expect(!sim.timed_out, "finished before the timeout", sim.cycle);
  return sc.finish();
}
