// tb_neunoc_axi.cpp -- neunoc_axi run from C through its driver (sw/neunoc/nnoc_driver.h): the
// registers over AXI4-Lite (tb/common/tb_axi.h), every PE port an AXI4-Stream pair with random
// gaps and backpressure. Every delivered packet is checked against nnoc_delivery() of a packet
// the network still owes that PE; at the end nothing may be owed and nothing may arrive twice.
// Build-time network: TB_K TB_Cols TB_Rows TB_V TB_Depth TB_DataW TB_TagW TB_CntW TB_Pack.
//
//   +traffic=<file>   the packets of a traffic file (sw/neunoc/nnoc_traffic), queued at their
//                     sources in file order (make sim-neunoc-axi)
//   (always)          +n random packets (unicast and multicast, zero runs in the data); the
//                     register map's errors; ENABLE gating; a malformed PE stream (a stray body
//                     flit: ERR_CODE 0x01, ERR_PE, PE_REPAIRS exact, DROPS 0) followed by good
//                     traffic; CLEAR; CYC_STALL 0 with always-ready sinks, counting at a stopped one;
//                     the DONE interrupt once the network is quiet; reset with packets in flight
//                     followed by good traffic. The shell registers: STATUS/INTR_STATUS 0 after
//                     reset, byte strobes, INTR_TEST, write-1-to-clear, irq_o; START while busy
//                     (status kept, DONE only once quiet) and when idle (status cleared); the
//                     decode (holes and aliases SLVERR); START only with byte 0's strobe.
// Last line: "N passed, N failed".
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "Vneunoc_axi.h"
#include "neunoc.h"
#include "neunoc/neunoc_regs.h"
#include "neunoc/nnoc_driver.h"
#include "tb_axi.h"
#include "tb_lib.h"

namespace {

typedef Vneunoc_axi Top;
const uint64_t kTimeout = 2000000;

struct Env {
  TbArgs a;
  TbScore sc{"neunoc_axi"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxilMaster<Top> axil;
  TbAccelBus<Top> tb;
  std::vector<TbStreamQ *> tx, rx;
  nnoc_dev_t dev;
  nnoc_cfg_t cfg;
  int np, fw, tw;
  explicit Env(const TbArgs &args)
      : a(args), sim(args, 2000000000ull), clk(sim), axil(clk, &sc, 8, args.gap_pct, args.stall_pct),
        tb(clk, axil, nullptr) {
    cfg.k = TB_K;
    cfg.cols = TB_Cols;
    cfg.rows = TB_Rows;
    cfg.data_w = TB_DataW;
    cfg.tag_w = TB_TagW;
    cfg.cnt_w = TB_CntW;
    cfg.dst_coord = TB_DstCoord;
    np = nnoc_pes(&cfg);
    fw = nnoc_flit_w(&cfg);
    tw = (fw + 7) / 8 * 8;
    for (int p = 0; p < np; p++) {
      tx.push_back(new TbStreamQ(args.gap_pct));
      rx.push_back(new TbStreamQ(args.stall_pct));
      tb.add_send_port(tx.back());
      tb.add_recv_port(rx.back());
    }
    tb.add_step(step, this);
  }
  ~Env() {
    for (auto *q : tx) delete q;
    for (auto *q : rx) delete q;
  }
  accel_bus *bus() { return &tb.bus; }
  static void put(Top *t, int p, int tw, int fw, uint64_t v) {
    for (int b = 0; b < fw; b += 32) {
      int w = fw - b < 32 ? fw - b : 32;
      tb_set_bits(t->s_axis_pe_tdata_i, p * tw + b, w, static_cast<uint32_t>(v >> b));
    }
  }
  static uint64_t get(Top *t, int p, int tw, int fw) {
    uint64_t v = 0;
    for (int b = 0; b < fw; b += 32) {
      int w = fw - b < 32 ? fw - b : 32;
      v |= static_cast<uint64_t>(tb_get_bits(t->m_axis_pe_tdata_o, p * tw + b, w)) << b;
    }
    return v;
  }
  static void step(void *u, int ph) {
    Env *e = static_cast<Env *>(u);
    Top *t = e->sim.top;
    for (int p = 0; p < e->np; p++) {
      TbStreamQ &s = *e->tx[p], &r = *e->rx[p];
      if (ph == TB_RESET) {
        s.valid = false;
        tb_set_bits(t->s_axis_pe_tvalid_i, p, 1, 0);
        tb_set_bits(t->m_axis_pe_tready_i, p, 1, 0);
      } else if (ph == TB_DRIVE) {
        bool v = s.src_valid();
        tb_set_bits(t->s_axis_pe_tvalid_i, p, 1, v);
        put(t, p, e->tw, e->fw, v ? s.front().data : tb_rand());
        tb_set_bits(t->m_axis_pe_tready_i, p, 1, r.sink_ready());
      } else if (ph == TB_SAMPLE) {
        if (s.valid && tb_get_bits(t->s_axis_pe_tready_o, p, 1)) s.src_taken();
        if (tb_get_bits(t->m_axis_pe_tvalid_o, p, 1) && r.ready)
          r.sink_take(get(t, p, e->tw, e->fw), 0, static_cast<int>(tb_get_bits(t->m_axis_pe_tlast_o, p, 1)));
      }
    }
  }
};

uint64_t flit_u64(const nnoc_flit_t &f) { return f.w[0] | (static_cast<uint64_t>(f.w[1]) << 32); }

// What the network owes each PE, and the packets arriving there.
struct Ledger {
  std::multimap<int, std::vector<uint64_t>> owed;   // key: destination PE
  std::vector<std::vector<uint64_t>> partial;       // flits of the packet arriving at each PE
  long owed_count = 0, delivered = 0, unknown = 0, bad_last = 0;
  explicit Ledger(int np) : partial(np) {}
  bool add(Env &e, const nnoc_pkt_t &p) {
    int pes[NNOC_MAX_ROUTERS * NNOC_MAX_K];
    int nd = nnoc_dests(&e.cfg, &p, pes, NNOC_MAX_ROUTERS * NNOC_MAX_K);
    if (nd <= 0) return false;
    std::vector<nnoc_flit_t> fl(static_cast<size_t>(p.nwords) + 2);
    for (int i = 0; i < nd; i++) {
      int m = nnoc_delivery(&e.cfg, &p, pes[i], fl.data(), static_cast<int>(fl.size()));
      std::vector<uint64_t> v;
      for (int j = 0; j < m; j++) v.push_back(flit_u64(fl[j]));
      owed.insert({pes[i], v});
      owed_count++;
    }
    return true;
  }
  // Moves every received flit into packets and matches complete ones.
  void collect(Env &e) {
    for (int p = 0; p < e.np; p++) {
      nnoc_flit_t f;
      int last;
      while (nnoc_drv_recv(&e.dev, p, &f, &last) == 1) {
        partial[p].push_back(flit_u64(f));
        if (!last) continue;
        auto range = owed.equal_range(p);
        bool found = false;
        for (auto it = range.first; it != range.second; ++it)
          if (it->second == partial[p]) {
            owed.erase(it);
            owed_count--;
            delivered++;
            found = true;
            break;
          }
        if (!e.sc.expect(found, "delivered packet (TLAST-delimited) equals one the model owes this PE", p))
          unknown++;
        partial[p].clear();
      }
    }
  }
  // Runs cycles until nothing is owed (or timeout cycles without progress).
  bool drain(Env &e) {
    uint64_t quiet = 0;
    long last = -1;
    while (owed_count > 0 && quiet < 20000 && !e.clk.timed_out()) {
      collect(e);
      if (delivered != last) {
        last = delivered;
        quiet = 0;
      } else {
        quiet++;
      }
    }
    collect(e);
    return owed_count == 0;
  }
};

bool rand_pkt(Env &e, nnoc_pkt_t *p) {
  std::memset(p, 0, sizeof *p);
  int nr = nnoc_routers(&e.cfg);
  p->src = static_cast<int>(tb_rand_range(0, static_cast<uint32_t>(e.np - 1)));
  bool mc = tb_chance(20);
  if (mc) {
    for (int r = 0; r < nr; r++)
      if (tb_chance(50)) nnoc_mask_set(p->dst_mesh, r, 1);
    p->dst_pe = tb_rand_range(1, (1u << e.cfg.k) - 1);
  } else {
    nnoc_mask_set(p->dst_mesh, static_cast<int>(tb_rand_range(0, static_cast<uint32_t>(nr - 1))), 1);
    p->dst_pe = 1u << tb_rand_range(0, static_cast<uint32_t>(e.cfg.k - 1));
  }
  p->tag = tb_rand_range(0, (1u << e.cfg.tag_w) - 1);
  p->nwords = static_cast<int>(tb_rand_range(0, mc ? TB_Depth - 1 : 9));
  uint32_t dmask = e.cfg.data_w >= 32 ? 0xFFFFFFFFu : ((1u << e.cfg.data_w) - 1);
  for (int i = 0; i < p->nwords; i++) p->words[i] = tb_chance(30) ? 0 : (tb_rand_u32() & dmask);
  char err[128];
  return nnoc_pkt_check(&e.cfg, p, TB_Depth, err, sizeof err) == 0;
}

long random_traffic(Env &e, Ledger &lg, long n, uint64_t id) {
  nnoc_pkt_t p;
  long sent = 0;
  while (sent < n) {
    if (!rand_pkt(e, &p)) continue;
    lg.add(e, p);
    e.sc.expect(nnoc_drv_send(&e.dev, &p) > 0, "packet queued", id);
    sent++;
    if (sent % 64 == 0) lg.collect(e);
  }
  e.sc.expect(lg.drain(e), "every owed delivery arrived", id);
  return sent;
}

void test_registers(Env &e) {
  accel_bus *b = e.bus();
  uint32_t v = 1;
  e.sc.expect(b->read32(b->ctx, 0x80, &v) != 0 && v == 0, "unmapped read: SLVERR, data 0", 0x80);
  e.sc.expect(b->write32(b->ctx, NEUNOC__DROPS_OFFSET, 1) != 0, "write of a read-only counter: SLVERR", 0);
  uint32_t hw = accel_rd(b, NEUNOC__HWCFG_OFFSET);
  e.sc.check("HWCFG.K", 0, TB_K, hw & 0xFF);
  e.sc.check("HWCFG.COLS", 0, TB_Cols, (hw >> 8) & 0xFF);
  e.sc.check("HWCFG.ROWS", 0, TB_Rows, (hw >> 16) & 0xFF);
  e.sc.check("HWCFG.FLITW", 0, static_cast<uint64_t>(e.fw), hw >> 24);
  e.sc.check("ENABLE after reset", 0, 0, accel_rd(b, NEUNOC__ENABLE_OFFSET));
  accel_err_clear(b);
}

// The shell registers' promised behaviour (docs/axi_shell.md, "Register semantics";
// rtl/neunoc/neunoc_regs.rdl; the DONE rule of rtl/neunoc/neunoc_axi.v): after reset STATUS and
// INTR_STATUS are 0 and stay 0 while nothing is started (DONE needs a CTRL.START); byte strobes
// per byte on every rw register (every pattern); a write without byte 0's strobe starts,
// clears, tests and acknowledges nothing; INTR_TEST sets INTR_STATUS's bit (irq_o once enabled)
// and reads 0. Runs with ENABLE = 0 and an empty network.
void test_shell_regs(Env &e, uint64_t id) {
  accel_bus *b = e.bus();
  b->idle(b->ctx, 20);
  e.sc.check("STATUS after reset and 20 idle cycles (no START: no DONE)", id, 0, accel_rd(b, NEUNOC__STATUS_OFFSET));
  e.sc.check("INTR_STATUS after reset and 20 idle cycles", id, 0, accel_rd(b, NEUNOC__INTR_STATUS_OFFSET));
  e.sc.check("ERR_CODE after reset", id, 0, accel_rd(b, NEUNOC__ERR_CODE_OFFSET));
  e.sc.check("irq_o after reset", id, 0, e.tb.irq());
  const TbRwReg rw[] = {
      {NEUNOC__INTR_ENABLE_OFFSET, 0x3, "INTR_ENABLE (strobed write)"},
      {NEUNOC__ENABLE_OFFSET, 0x1, "ENABLE (strobed write)"}};
  tb_axil_check_strobes(e.axil, b, e.sc, rw, sizeof rw / sizeof rw[0]);
  for (const TbRwReg &r : rw) accel_wr(b, r.off, 0);
  // CTRL without byte 0's strobe: no START (STATUS stays 0: no DONE), no CLEAR (CYC_BUSY is
  // not counting with an idle network, so check the counters through STATUS/DONE only)
  for (uint32_t strb = 0; strb < 16; strb += 2) {
    e.axil.write32(NEUNOC__CTRL_OFFSET, 0xFFFFFFFFu, strb);
    b->idle(b->ctx, 4);
    e.sc.check("CTRL.START without byte 0's strobe: no DONE", strb, 0, accel_rd(b, NEUNOC__STATUS_OFFSET));
  }
  // INTR_TEST, INTR_STATUS and irq_o (tb_axi.h)
  const TbIntrRegs intr = {NEUNOC__INTR_TEST_OFFSET, NEUNOC__INTR_STATUS_OFFSET,
                           NEUNOC__INTR_ENABLE_OFFSET, NEUNOC__STATUS_OFFSET};
  const uint32_t bits[2] = {NEUNOC__INTR_TEST__DONE_bm, NEUNOC__INTR_TEST__ERROR_bm};
  tb_axil_check_intr(e.axil, b, e.sc, [&e] { return e.tb.irq(); }, intr, bits, 2);
  // the decode: every register OKAY, every hole and alias (address bit 7) SLVERR; the refused
  // all-ones writes change no rw register
  const uint32_t regs[] = NEUNOC__ALL_OFFSETS;
  tb_axil_check_decode(e.axil, e.sc, regs, sizeof regs / sizeof regs[0], NEUNOC__MAP_W);
  for (const TbRwReg &r : rw) e.sc.check(r.name, id, 0, accel_rd(b, r.off));
  // CTRL.START needs byte 0's strobe (the network is idle and quiet: DONE at once)
  tb_axil_check_start_strobe(e.axil, b, e.sc, NEUNOC__CTRL_OFFSET, NEUNOC__CTRL__START_bm,
                             NEUNOC__INTR_STATUS_OFFSET, NEUNOC__INTR_STATUS__DONE_bm);
  accel_err_clear(b);
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "neunoc_axi", 4000, &a, {{"traffic", "=<file>: send a traffic file's packets"}});
  Env e(a);
  e.clk.reset();
  accel_bus *b = e.bus();
  e.sc.check("driver open (ID, HWCFG, flit width)", 0, 0,
             static_cast<uint64_t>(nnoc_drv_open(&e.dev, b, &e.cfg)));
  test_registers(e);
  uint64_t id = 0;
  test_shell_regs(e, ++id);

  // ENABLE = 0: nothing enters
  {
    Ledger lg(e.np);
    nnoc_pkt_t p;
    while (!rand_pkt(e, &p)) {
    }
    lg.add(e, p);
    nnoc_drv_send(&e.dev, &p);
    b->idle(b->ctx, 300);
    e.sc.expect(!e.tx[p.src]->q.empty(), "no flit taken while ENABLE is 0", ++id);
    nnoc_drv_enable(&e.dev, 1);
    e.sc.expect(lg.drain(e), "the packet is delivered once enabled", id);
  }

  const char *tf_path = tb_plusarg("traffic");
  if (tf_path) {
    char err[256];
    nnoc_cfg_t fc = e.cfg;
    nnoc_traffic_t *tf = nnoc_traffic_open(tf_path, &fc, err, sizeof err);
    if (!e.sc.expect(tf != nullptr, "traffic file opens", 0)) {
      std::printf("%s\n", err);
      return e.sc.finish();
    }
    e.sc.expect(fc.k == e.cfg.k && fc.cols == e.cfg.cols && fc.rows == e.cfg.rows,
                "traffic file's network is the harness's", 0);
    Ledger lg(e.np);
    nnoc_pkt_t p;
    int r;
    long n = 0;
    uint64_t c0 = e.clk.now();
    accel_counters_clear(b);
    while ((r = nnoc_traffic_next(tf, &p, err, sizeof err)) == 1) {
      lg.add(e, p);
      nnoc_drv_send(&e.dev, &p);
      if (++n % 64 == 0) lg.collect(e);
    }
    e.sc.expect(r == 0, "traffic file well formed", static_cast<uint64_t>(n));
    nnoc_traffic_close(tf);
    e.sc.expect(lg.drain(e), "the network delivers the whole trace", static_cast<uint64_t>(n));
    e.sc.check("network quiet: DONE without error", ++id, 0, static_cast<uint64_t>(nnoc_drv_drain(&e.dev, kTimeout)));
    nnoc_drv_stats_t s;
    nnoc_drv_stats(&e.dev, &s);
    std::printf("axi workload: %ld packets, %ld deliveries, %" PRIu64 " cycles (pe_flits=%u mesh_flits=%u)\n",
                n, lg.delivered, e.clk.now() - c0, s.pe_flits, s.mesh_flits);
  }

  // random traffic
  {
    Ledger lg(e.np);
    long n = random_traffic(e, lg, a.n, ++id);
    e.sc.check("network quiet: DONE without error", id, 0, static_cast<uint64_t>(nnoc_drv_drain(&e.dev, kTimeout)));
    std::printf("random: %ld packets, %ld deliveries\n", n, lg.delivered);
  }

  // a malformed stream: a stray body flit at PE 0 (no head before it), then good traffic
  {
    accel_counters_clear(b);
    accel_wr(b, NEUNOC__CTRL_OFFSET, NEUNOC__CTRL__CLEAR_bm);
    accel_job_start(b);   // clears the error status
    uint64_t stray = (0ull << (e.fw - 2)) | 0x5;   // type 00 (body)
    b->stream_send(b->ctx, 0, stray, 0, 1);
    b->idle(b->ctx, 200);
    e.sc.check("STATUS.ERROR after a stray flit", ++id, 4, accel_rd(b, NEUNOC__STATUS_OFFSET) & 4);
    e.sc.check("ERR_CODE 0x01 (a PE stream repaired)", id, NNOC_ERR_REPAIR, accel_rd(b, NEUNOC__ERR_CODE_OFFSET) & 0xFF);
    e.sc.check("ERR_PE bit 0", id, 1, accel_rd(b, NEUNOC__ERR_PE_OFFSET) & 1);
    e.sc.check("PE_REPAIRS counts it, once", id, 1, accel_rd(b, NEUNOC__PE_REPAIRS_OFFSET));
    // the PE guard dropped the flit: no router ever sees a flit without a destination
    e.sc.check("DROPS (a PE guard's repair is no router drop)", id, 0, accel_rd(b, NEUNOC__DROPS_OFFSET));
    Ledger lg(e.np);
    random_traffic(e, lg, 200, ++id);
    e.sc.check("PE_REPAIRS after good traffic", id, 1, accel_rd(b, NEUNOC__PE_REPAIRS_OFFSET));
    b->stream_send(b->ctx, 0, stray, 0, 1);   // a second repair
    b->idle(b->ctx, 200);
    e.sc.check("PE_REPAIRS counts a second repair", id, 2, accel_rd(b, NEUNOC__PE_REPAIRS_OFFSET));
    accel_wr(b, NEUNOC__CTRL_OFFSET, NEUNOC__CTRL__CLEAR_bm);
    e.sc.check("CLEAR zeroes ERR_PE", id, 0, accel_rd(b, NEUNOC__ERR_PE_OFFSET));
    e.sc.check("CLEAR zeroes PE_REPAIRS", id, 0, accel_rd(b, NEUNOC__PE_REPAIRS_OFFSET));
    e.sc.check("CLEAR leaves DROPS 0", id, 0, accel_rd(b, NEUNOC__DROPS_OFFSET));
  }

  // CYC_STALL counts the busy cycles in which a PE output holds a flit its sink does not take:
  // none while every sink takes every flit, though the network is busy
  {
    for (auto *q : e.rx) q->stall.pct = 0;
    accel_counters_clear(b);
    accel_job_start(b);   // clears the repairs' error status
    Ledger lg(e.np);
    random_traffic(e, lg, 100, ++id);
    e.sc.check("network quiet: DONE without error", id, 0, static_cast<uint64_t>(nnoc_drv_drain(&e.dev, kTimeout)));
    e.sc.expect(accel_rd(b, NEUNOC__CYC_BUSY_OFFSET) > 0, "CYC_BUSY counts the traffic's cycles", id);
    e.sc.check("CYC_STALL with every sink always ready", id, 0, accel_rd(b, NEUNOC__CYC_STALL_OFFSET));
    for (auto *q : e.rx) q->stall.pct = a.stall_pct;
  }

  // START with the network busy (rtl/neunoc/neunoc_csr.v: START starts a new job's status only
  // with the block idle; neunoc_axi.v: START arms DONE, set at the first cycle after it with BUSY
  // low). A delivered packet held by a stopped sink keeps the network busy.
  {
    const uint32_t st_busy = NEUNOC__STATUS__BUSY_bm, st_done = NEUNOC__STATUS__DONE_bm,
                   st_err = NEUNOC__STATUS__ERROR_bm;
    b->idle(b->ctx, 200);   // quiet for longer than QuietCycles
    accel_wr(b, NEUNOC__INTR_STATUS_OFFSET, 3);
    accel_wr(b, NEUNOC__CTRL_OFFSET, NEUNOC__CTRL__START_bm);
    b->idle(b->ctx, 4);
    e.sc.check("START when idle: STATUS DONE at once", ++id, st_done, accel_rd(b, NEUNOC__STATUS_OFFSET));
    e.sc.check("START when idle: INTR_STATUS DONE", id, 1, accel_rd(b, NEUNOC__INTR_STATUS_OFFSET));
    uint64_t stray = 0x5;   // type 00 (body) at PE 0: repaired, ERR_CODE 0x01
    b->stream_send(b->ctx, 0, stray, 0, 1);
    b->idle(b->ctx, 200);
    e.sc.check("a stray flit after DONE: STATUS DONE and ERROR", id, st_done | st_err, accel_rd(b, NEUNOC__STATUS_OFFSET));
    e.sc.check("the error sets INTR_STATUS.ERROR", id, NEUNOC__INTR_STATUS__ERROR_bm,
               accel_rd(b, NEUNOC__INTR_STATUS_OFFSET) & NEUNOC__INTR_STATUS__ERROR_bm);
    const int dst = e.np - 1;
    e.rx[dst]->stall.pct = 100;   // the sink of PE dst takes nothing
    nnoc_pkt_t p;
    std::memset(&p, 0, sizeof p);
    p.src = 0;
    nnoc_mask_set(p.dst_mesh, dst / e.cfg.k, 1);
    p.dst_pe = 1u << (dst % e.cfg.k);
    p.tag = 7;
    p.nwords = 2;
    p.words[0] = 0x12;
    p.words[1] = 0x34;
    Ledger lg(e.np);
    lg.add(e, p);
    const uint32_t stall0 = accel_rd(b, NEUNOC__CYC_STALL_OFFSET);
    nnoc_drv_send(&e.dev, &p);
    b->idle(b->ctx, 200);
    e.sc.check("a delivered flit held at a stopped sink: STATUS BUSY", id, st_busy | st_done | st_err,
               accel_rd(b, NEUNOC__STATUS_OFFSET));
    e.sc.expect(accel_rd(b, NEUNOC__CYC_STALL_OFFSET) - stall0 >= 100,
                "CYC_STALL counts the cycles a stopped sink holds a flit", id);
    accel_wr(b, NEUNOC__INTR_STATUS_OFFSET, 3);
    accel_wr(b, NEUNOC__INTR_ENABLE_OFFSET, NEUNOC__INTR_ENABLE__DONE_bm);
    accel_wr(b, NEUNOC__CTRL_OFFSET, NEUNOC__CTRL__START_bm);
    b->idle(b->ctx, 100);
    e.sc.check("START while busy: STATUS unchanged", id, st_busy | st_done | st_err, accel_rd(b, NEUNOC__STATUS_OFFSET));
    e.sc.check("START while busy: ERR_CODE kept", id, NNOC_ERR_REPAIR, accel_rd(b, NEUNOC__ERR_CODE_OFFSET) & 0xFF);
    e.sc.check("START while busy: no DONE interrupt while busy", id, 0, accel_rd(b, NEUNOC__INTR_STATUS_OFFSET));
    e.rx[dst]->stall.pct = a.stall_pct;
    e.sc.expect(lg.drain(e), "the held packet is delivered once the sink takes flits", id);
    uint64_t c0 = e.clk.now(), t_done = 0;
    while (e.clk.now() - c0 < 1000 && !t_done) {
      b->idle(b->ctx, 1);
      if (e.tb.irq()) t_done = e.clk.now();
    }
    e.sc.expect(t_done != 0, "the armed DONE interrupt comes once the network is quiet", id);
    e.sc.check("DONE after the armed START: INTR_STATUS DONE", id, 1, accel_rd(b, NEUNOC__INTR_STATUS_OFFSET));
    accel_wr(b, NEUNOC__INTR_STATUS_OFFSET, 3);
    accel_wr(b, NEUNOC__INTR_ENABLE_OFFSET, 0);
    accel_wr(b, NEUNOC__CTRL_OFFSET, NEUNOC__CTRL__START_bm);   // idle: clears ERROR
    b->idle(b->ctx, 4);
    e.sc.check("START when idle clears ERROR and ERR_CODE", id, st_done, accel_rd(b, NEUNOC__STATUS_OFFSET));
    e.sc.check("START when idle: ERR_CODE 0", id, 0, accel_rd(b, NEUNOC__ERR_CODE_OFFSET));
    accel_wr(b, NEUNOC__INTR_STATUS_OFFSET, 3);
  }

  // reset with packets in flight, then good traffic
  {
    nnoc_pkt_t p;
    for (int i = 0; i < 50; i++)
      if (rand_pkt(e, &p)) nnoc_drv_send(&e.dev, &p);
    b->idle(b->ctx, tb_rand_range(10, 100));
    e.clk.reset();
    for (int q = 0; q < e.np; q++) {
      e.tx[q]->clear();
      e.rx[q]->clear();
    }
    e.sc.check("ENABLE after reset", ++id, 0, accel_rd(b, NEUNOC__ENABLE_OFFSET));
    b->idle(b->ctx, 20);
    e.sc.check("STATUS after reset (no START: no DONE)", id, 0, accel_rd(b, NEUNOC__STATUS_OFFSET));
    e.sc.check("INTR_STATUS after reset", id, 0, accel_rd(b, NEUNOC__INTR_STATUS_OFFSET));
    nnoc_drv_enable(&e.dev, 1);
    Ledger lg(e.np);
    random_traffic(e, lg, 300, ++id);
    e.sc.check("network quiet after reset and traffic: DONE without error", id, 0,
               static_cast<uint64_t>(nnoc_drv_drain(&e.dev, kTimeout)));
  }
  e.sc.check("register accesses that were expected to succeed", 0, 0, b->errors);
  e.sc.check("AXI4-Lite violations seen by the master", 0, 0, static_cast<uint64_t>(e.axil.violations));
  std::printf("axi: %" PRIu64 " cycles\n", e.clk.now());
  return e.sc.finish();
}
