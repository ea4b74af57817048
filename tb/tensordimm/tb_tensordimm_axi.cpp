// tb_tensordimm_axi.cpp -- tensordimm_axi run from C through its driver (sw/tensordimm/
// tdimm_driver.h): the registers over AXI4-Lite (tb/common/tb_axi.h), every core's DFI 1:4 port
// on a DDR4-3200 device model and JEDEC timing checker (cmodel/include/tdimm_ddr4.h), the golden
// model (cmodel/include/tensordimm.h) executing each instruction when the driver has queued it.
// Every retirement's node error code, error mask (cores 0..31), core 0's rows and sequence
// number are checked against the model; at the end every block the DRAM holds, and zero timing
// violations. Build-time node: TB_N TB_LocalAw TB_Ranks TB_ColLoW ... TB_IqDepth TB_RetDepth.
//
//   +workload=<file>  the instructions and memory image of a workload file (sw/tensordimm),
//                     windows set through the driver, instructions pushed as the FIFO has room
//                     (make sim-tensordimm-axi); prints "axi workload: ..."
//   (always)          the register map's errors (the decode: holes and aliases SLVERR), HWCFG,
//                     byte strobes on every rw register, INTR_TEST and irq_o; +n random instructions (every op,
//                     sub-op and type, bad rows, illegal fields; protection windows changed
//                     through the driver between instructions) pushed without waiting, so pushes
//                     into a full FIFO are refused (SLVERR) and retried; an illegal instruction's
//                     error over AXI (ERR_CODE, STATUS.ERROR) followed by a good one; the
//                     instruction FIFO filled with the retire FIFO unread (INSN_FULL, a refused
//                     push, nothing lost); reset with instructions in flight, then more random
//                     instructions.
// Last line: "N passed, N failed".
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include "Vtensordimm_axi.h"
#include "tb_axi.h"
#include "tb_lib.h"
#include "tb_tdimm_stim.h"
#include "tdimm_ddr4.h"
#include "tensordimm.h"
#include "tensordimm/tdimm_driver.h"
#include "tensordimm/tdimm_rt.h"
#include "tensordimm/tensordimm_regs.h"

namespace {

typedef Vtensordimm_axi Top;
const uint64_t kTimeout = 2000000;

struct Pending {
  tdimm_insn_t insn;
  tdimm_result_t res;
  uint64_t id;
};

struct Env {
  TbArgs a;
  TbScore sc{"tensordimm_axi"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxilMaster<Top> axil;
  TbAccelBus<Top> tb;
  tdimm_dev_t dev;
  tdimm_node_t *model = nullptr;
  TdimmDram dram;
  std::deque<Pending> inflight;
  uint64_t seq = 0;          // retirements since the last reset (RET_STATUS.SEQ)
  uint64_t next_id = 0;
  uint64_t node_errs = 0, refusals = 0, retired = 0;
  explicit Env(const TbArgs &args)
      : a(args), sim(args, args.timeout ? args.timeout : 200000000ull), clk(sim),
        axil(clk, &sc, 8, args.gap_pct, args.stall_pct), tb(clk, axil, nullptr) {
    dram.init(TB_Ranks, TB_ColLoW);
    tb.add_step(step, this);
  }
  ~Env() {
    if (model) tdimm_node_free(model);
  }
  accel_bus *bus() { return &tb.bus; }
  // Every cycle: read data in, the DFI commands and write data out into the device models
  // (tb_tensordimm.cpp's Tb::step); a reset re-initializes the devices (banks closed, data kept).
  static void step(void *u, int ph) {
    Env *e = static_cast<Env *>(u);
    Top *t = e->sim.top;
    if (ph == TB_RESET) {
      e->dram.reset();
      for (unsigned c = 0; c < kN; c++) tb_set_bits(t->dfi_rddata_valid_i, c, 1, 0);
    } else if (ph == TB_DRIVE) {
      e->dram.drive(t);
    } else if (ph == TB_SAMPLE) {
      e->dram.sample(t, [](unsigned, uint32_t) {});
    }
  }
  void load(uint64_t gb, const uint32_t *lanes) {
    std::memcpy(tdimm_gblock(model, gb), lanes, 64);
    std::memcpy(tdimm_ddr4_block(dram.dev[gb & (kN - 1)], gb >> kNdLog2), lanes, 64);
  }
  // One retirement read over AXI against the oldest instruction in flight.
  void check_ret(const tdimm_drv_ret_t &r) {
    retired++;
    if (!sc.expect(!inflight.empty(), "a retirement without an instruction", seq)) return;
    Pending &p = inflight.front();
    sc.check("node error (RET_STATUS.ERR)", p.id, p.res.node_err, r.err);
    uint64_t mask = p.res.err_mask[0] & 0xFFFFFFFFull;
    sc.check("error mask (RET_MASK)", p.id, mask, r.mask);
    sc.check("core 0 rows (RET_ROWS)", p.id, p.res.rows[0], r.rows);
    sc.check("retirement sequence number", p.id, seq & 0xFFFF, r.seq);
    if (p.res.node_err) node_errs++;
    if (sc.fail && sc.fail <= 2 && p.res.node_err != r.err) {
      char s[160];
      std::fprintf(stderr, "  insn %" PRIu64 ": %s\n", p.id, tdimm_insn_str(&p.insn, s, sizeof s));
    }
    seq++;
    inflight.pop_front();
  }
  // Queued by the driver: the model executes it now (instructions run in order).
  void pushed(const tdimm_insn_t &in) {
    Pending p;
    p.insn = in;
    p.id = next_id++;
    tdimm_exec(model, &in, &p.res);
    inflight.push_back(p);
  }
  // Pops every retirement waiting; true if any.
  bool collect() {
    tdimm_drv_ret_t r;
    bool any = false;
    int rc;
    while ((rc = tdimm_drv_retire(&dev, &r)) == 1) {
      check_ret(r);
      any = true;
    }
    sc.expect(rc == 0, "retire FIFO read", seq);
    return any;
  }
  // Waits for every instruction in flight to retire.
  void drain(uint64_t id) {
    while (!inflight.empty() && !clk.timed_out()) {
      tdimm_drv_ret_t r;
      int rc = tdimm_drv_wait_retire(&dev, &r, kTimeout);
      if (!sc.check("a retirement comes (DONE interrupt)", id, 1, static_cast<uint64_t>(rc))) return;
      check_ret(r);
    }
  }
  // Sets core c's window through the driver and in the model (node idle).
  void set_window(unsigned c, uint64_t base, uint64_t limit) {
    sc.check("idle before a configuration write", c, 0, static_cast<uint64_t>(tdimm_drv_wait_idle(&dev, kTimeout)));
    sc.check("window written", c, 0, static_cast<uint64_t>(tdimm_drv_set_window(&dev, c, base, limit)));
    tdimm_core_cfg_t cc = tdimm_node_cfg(model)->core[c];
    cc.win_base = base;
    cc.win_limit = limit;
    tdimm_node_set_core(model, c, &cc);
  }
};


// n random instructions pushed as fast as the driver can (a full FIFO refuses the push: retried
// after popping retirements), windows changed now and then with the node idle.
void random_run(Env &e, long n, bool windows) {
  tdimm_insn_t prev, cur;
  bool have_prev = false, have_cur = false;
  long sent = 0;
  while (sent < n && !e.clk.timed_out()) {
    if (windows && !have_cur && tb_chance(2)) {
      e.drain(e.next_id);
      unsigned c = tb_rand() % kN;
      const uint64_t cap = 1ull << kRndAw;
      if (tb_chance(50)) {
        uint64_t b = tb_rand() % (cap / 2);
        e.set_window(c, b, b + tb_rand() % (cap - b + 1));
      } else {
        e.set_window(c, 0, 1ull << kAw);
      }
    }
    if (!have_cur) {
      cur = tdimm_rnd_insn(have_prev ? &prev : nullptr, 10);
      have_cur = true;
    }
    int rc = tdimm_drv_push(&e.dev, &cur);
    if (rc == 0) {
      e.pushed(cur);
      prev = cur;
      have_prev = true;
      have_cur = false;
      sent++;
    } else if (rc == TDIMM_DRV_FULL) {
      e.refusals++;
      tdimm_drv_ret_t r;
      int w = tdimm_drv_wait_retire(&e.dev, &r, kTimeout);   // room comes with a retirement
      if (!e.sc.check("a retirement while the FIFO is full", e.next_id, 1, static_cast<uint64_t>(w))) return;
      e.check_ret(r);
    } else {
      e.sc.check("push", e.next_id, 0, static_cast<uint64_t>(rc));
      return;
    }
    if (tb_chance(30)) e.collect();
  }
  e.drain(e.next_id);
}

void test_registers(Env &e) {
  accel_bus *b = e.bus();
  uint32_t v = 1;
  e.sc.expect(b->read32(b->ctx, 0x80, &v) != 0 && v == 0, "unmapped read: SLVERR, data 0", 0x80);
  e.sc.expect(b->write32(b->ctx, TENSORDIMM__RETIRED_OFFSET, 1) != 0, "write of a read-only counter: SLVERR", 0);
  e.sc.expect(b->write32(b->ctx, TENSORDIMM__QSTATUS_OFFSET, 1) != 0, "write of QSTATUS: SLVERR", 0);
  // the decode (tb_axi.h): every register OKAY, every hole and bit-7 alias SLVERR with data 0
  // and a refused write; the checks below see that the all-ones writes changed nothing
  const uint32_t regs[] = TENSORDIMM__ALL_OFFSETS;
  tb_axil_check_decode(e.axil, e.sc, regs, sizeof regs / sizeof regs[0], TENSORDIMM__MAP_W);
  e.sc.check("HWCFG.N", 0, kN, e.dev.n);
  e.sc.check("HWCFG.LOCALAW", 0, kAw, e.dev.local_aw);
  e.sc.check("HWCFG.RANKS", 0, TB_Ranks, e.dev.ranks);
  e.sc.check("HWCFG.IQDEPTH", 0, TB_IqDepth, e.dev.iq_depth);
  uint32_t q = accel_rd(b, TENSORDIMM__QSTATUS_OFFSET);
  e.sc.check("QSTATUS after reset (INSN_EMPTY, IDLE)", 0,
             TENSORDIMM__QSTATUS__INSN_EMPTY_bm | TENSORDIMM__QSTATUS__IDLE_bm, q);
  e.sc.check("RET_STATUS.VALID after reset", 0, 0, accel_rd(b, TENSORDIMM__RET_STATUS_OFFSET) & 0x100);
  accel_wr(b, TENSORDIMM__INSN2_OFFSET, 0x12345678u);
  e.sc.check("INSN2 reads back", 0, 0x12345678u, accel_rd(b, TENSORDIMM__INSN2_OFFSET));
  e.sc.check("ISSUED after reset", 0, 0, accel_rd(b, TENSORDIMM__ISSUED_OFFSET));
  e.sc.check("a pop with nothing waiting is harmless", 0, 0,
             static_cast<uint64_t>(accel_wr(b, TENSORDIMM__RET_POP_OFFSET, 1)));
  e.sc.check("RETIRED unchanged", 0, 0, accel_rd(b, TENSORDIMM__RETIRED_OFFSET));
  // byte strobes on every rw register without a side effect (INSN4 pushes, CFG.GO writes a
  // core's register), each write read back, and no write reaching another register (tb_axi.h);
  // INTR_ENABLE as the driver set it afterwards (the tests below wait on the DONE interrupt)
  const uint32_t intr_enable = accel_rd(b, TENSORDIMM__INTR_ENABLE_OFFSET);
  const TbRwReg rw[] = {
      {TENSORDIMM__CFG_DATA_OFFSET, 0xFFFFFFFFu, "CFG_DATA (strobed write)"},
      {TENSORDIMM__INSN0_OFFSET, 0xFFFFFFFFu, "INSN0 (strobed write)"},
      {TENSORDIMM__INSN1_OFFSET, 0xFFFFFFFFu, "INSN1 (strobed write)"},
      {TENSORDIMM__INSN2_OFFSET, 0xFFFFFFFFu, "INSN2 (strobed write)"},
      {TENSORDIMM__INSN3_OFFSET, 0xFFFFFFFFu, "INSN3 (strobed write)"},
      {TENSORDIMM__INTR_ENABLE_OFFSET, 0x3u, "INTR_ENABLE (strobed write)"}};
  tb_axil_check_strobes(e.axil, b, e.sc, rw, sizeof rw / sizeof rw[0]);
  // INTR_TEST, INTR_STATUS and irq_o (tb_axi.h)
  const TbIntrRegs intr = {TENSORDIMM__INTR_TEST_OFFSET, TENSORDIMM__INTR_STATUS_OFFSET,
                           TENSORDIMM__INTR_ENABLE_OFFSET, TENSORDIMM__STATUS_OFFSET};
  const uint32_t bits[2] = {TENSORDIMM__INTR_TEST__DONE_bm, TENSORDIMM__INTR_TEST__ERROR_bm};
  tb_axil_check_intr(e.axil, b, e.sc, [&e] { return e.tb.irq(); }, intr, bits, 2);
  e.sc.check("no instruction pushed by the register checks", 0, 0, accel_rd(b, TENSORDIMM__ISSUED_OFFSET));
  accel_wr(b, TENSORDIMM__INTR_ENABLE_OFFSET, intr_enable);
  accel_err_clear(b);
}

// An illegal instruction: its code over AXI (RET_STATUS, ERR_CODE, STATUS.ERROR), then a good one.
void test_error(Env &e) {
  accel_bus *b = e.bus();
  e.drain(e.next_id);
  for (unsigned c = 0; c < kN; c++) e.set_window(c, 0, 1ull << kAw);
  accel_wr(b, TENSORDIMM__CTRL_OFFSET, TENSORDIMM__CTRL__START_bm);   // clears the error status
  e.sc.check("STATUS.ERROR cleared by START", 0, 0, accel_rd(b, TENSORDIMM__STATUS_OFFSET) & 4);
  tdimm_insn_t bad = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, static_cast<uint32_t>(100 * kN),
                                      static_cast<uint32_t>(200 * kN), static_cast<uint32_t>(300 * kN), 4);
  bad.w[0] = (bad.w[0] & ~0xFu) | 7;   // opcode 7
  uint64_t id = e.next_id;
  e.sc.check("push", id, 0, static_cast<uint64_t>(tdimm_drv_push(&e.dev, &bad)));
  e.pushed(bad);
  e.drain(id);
  e.sc.check("ERR_CODE: the node error OPCODE", id, TDIMM_E_OPCODE, accel_rd(b, TENSORDIMM__ERR_CODE_OFFSET) & 0xFF);
  e.sc.check("STATUS.ERROR", id, 4, accel_rd(b, TENSORDIMM__STATUS_OFFSET) & 4);
  tdimm_insn_t good = bad;
  good.w[0] = (good.w[0] & ~0xFu) | TDIMM_OP_REDUCE;
  e.sc.check("push", id + 1, 0, static_cast<uint64_t>(tdimm_drv_push(&e.dev, &good)));
  e.pushed(good);
  e.sc.check("the good instruction is legal (model)", id + 1, 0, e.inflight.back().res.node_err);
  e.drain(id + 1);
}

// The instruction FIFO fills while nobody pops retirements: INSN_FULL, the push is refused
// (SLVERR, ERR_CODE 0x10, REFUSED, ISSUED unchanged), then, with retirements popped, the same
// instruction is pushed again and every instruction retires.
void test_full(Env &e) {
  accel_bus *b = e.bus();
  e.drain(e.next_id);
  tdimm_drv_wait_idle(&e.dev, kTimeout);
  accel_wr(b, TENSORDIMM__CTRL_OFFSET, TENSORDIMM__CTRL__START_bm | TENSORDIMM__CTRL__CLEAR_bm);
  uint32_t iss0 = accel_rd(b, TENSORDIMM__ISSUED_OFFSET);
  int pushed = 0, rc = 0;
  tdimm_insn_t in;
  for (int i = 0; i < 64; i++) {
    in = tdimm_rnd_insn(nullptr, 0);
    in.w[4] = 30;                      // long enough to keep the node busy
    rc = tdimm_drv_push(&e.dev, &in);
    if (rc != 0) break;
    e.pushed(in);
    pushed++;
  }
  uint64_t id = e.next_id;
  e.sc.check("a push into the full FIFO is refused", id, TDIMM_DRV_FULL, static_cast<uint64_t>(rc));
  e.sc.expect(pushed >= TB_IqDepth, "the FIFO filled before the refusal", static_cast<uint64_t>(pushed));
  uint32_t q = accel_rd(b, TENSORDIMM__QSTATUS_OFFSET);
  e.sc.check("QSTATUS.INSN_FULL", id, 1, q & 1);
  e.sc.check("QSTATUS.INSN_LEVEL", id, TB_IqDepth, (q >> 8) & 0xFF);
  // nobody pops: the node stops with the retire FIFO full
  e.sc.check("retire FIFO fills", id, 1,
             static_cast<uint64_t>(accel_poll(b, TENSORDIMM__QSTATUS_OFFSET, 8, 8, kTimeout)));
  q = accel_rd(b, TENSORDIMM__QSTATUS_OFFSET);
  e.sc.check("QSTATUS.RET_FULL", id, 8, q & 8);
  e.sc.check("QSTATUS.RET_LEVEL", id, TB_RetDepth, (q >> 16) & 0xFF);
  e.sc.check("REFUSED counts the refusal", id, 1, accel_rd(b, TENSORDIMM__REFUSED_OFFSET));
  e.sc.check("ISSUED does not count it", id, static_cast<uint32_t>(iss0 + pushed), accel_rd(b, TENSORDIMM__ISSUED_OFFSET));
  bool node_err = false;   // a node error before the refusal would be the first code kept
  for (const Pending &p : e.inflight) node_err = node_err || p.res.node_err != 0;
  if (!node_err)
    e.sc.check("ERR_CODE 0x10 (refused push)", id, TDIMM_DRV_ERR_REFUSED, accel_rd(b, TENSORDIMM__ERR_CODE_OFFSET) & 0xFF);
  e.sc.check("STATUS.ERROR", id, 4, accel_rd(b, TENSORDIMM__STATUS_OFFSET) & 4);
  uint32_t stall = 0;   // the node's next retirement waits on the full retire FIFO
  for (int i = 0; i < 100 && stall == 0; i++) {
    b->idle(b->ctx, 200);
    stall = accel_rd(b, TENSORDIMM__CYC_STALL_OFFSET);
  }
  e.sc.check("CYC_STALL counts the wait on the full retire FIFO", id, 1, stall > 0);
  // the instruction is not lost: INSN0..INSN4 hold it, a second INSN4 write retries it
  e.collect();
  e.sc.check("retry: rewrite of INSN4 queues it", id, 0,
             static_cast<uint64_t>(b->write32(b->ctx, TENSORDIMM__INSN4_OFFSET, in.w[4])));
  e.pushed(in);
  e.drain(id);
  e.sc.check("ISSUED after the retry", id, static_cast<uint32_t>(iss0 + pushed + 1), accel_rd(b, TENSORDIMM__ISSUED_OFFSET));
  e.sc.check("ISSUED == RETIRED", id, accel_rd(b, TENSORDIMM__ISSUED_OFFSET), accel_rd(b, TENSORDIMM__RETIRED_OFFSET));
  accel_wr(b, TENSORDIMM__CTRL_OFFSET, TENSORDIMM__CTRL__CLEAR_bm);
  e.sc.check("CLEAR zeroes REFUSED", id, 0, accel_rd(b, TENSORDIMM__REFUSED_OFFSET));
}

// Reset with instructions queued and running; the DRAM keeps what was written: the model takes
// the DRAM's contents over the outputs of every instruction that had not retired.
void test_reset(Env &e) {
  for (int i = 0; i < 6; i++) {
    tdimm_insn_t in = tdimm_rnd_insn(nullptr, 0);
    if (tdimm_drv_push(&e.dev, &in) != 0) break;
    e.pushed(in);
  }
  e.bus()->idle(e.bus()->ctx, static_cast<unsigned>(tb_rand_range(20, 400)));
  uint64_t id = e.next_id;
  e.clk.reset();
  long partial = 0;
  for (const Pending &p : e.inflight) {
    tdimm_fields_t f = tdimm_dec(&p.insn);
    uint64_t lo = f.out_base >> kNdLog2, n = static_cast<uint64_t>(f.count) * f.k;
    for (unsigned c = 0; c < kN; c++)
      for (uint64_t i = 0; i < n && i < 65536 && lo + i < (1ull << kAw); i++) {
        const uint32_t *d = tdimm_ddr4_peek(e.dram.dev[c], lo + i);
        static const uint32_t zero[16] = {0};
        uint32_t *m = tdimm_block(e.model, c, lo + i);
        if (!d) d = zero;
        if (std::memcmp(m, d, 64) != 0) {
          std::memcpy(m, d, 64);
          partial++;
        }
      }
  }
  for (unsigned c = 0; c < kN; c++) {
    tdimm_core_cfg_t cc = {0, 1ull << kAw, c};
    tdimm_node_set_core(e.model, c, &cc);
  }
  std::printf("tensordimm_axi: reset with %zu instructions in flight (%ld output blocks taken "
              "from the DRAM)\n", e.inflight.size(), partial);
  e.inflight.clear();
  e.seq = 0;
  e.sc.check("driver open after reset", id, 0, static_cast<uint64_t>(tdimm_drv_open(&e.dev, e.bus())));
  accel_bus *b = e.bus();
  e.sc.check("ISSUED after reset", id, 0, accel_rd(b, TENSORDIMM__ISSUED_OFFSET));
  e.sc.check("QSTATUS after reset", id, TENSORDIMM__QSTATUS__INSN_EMPTY_bm | TENSORDIMM__QSTATUS__IDLE_bm,
             accel_rd(b, TENSORDIMM__QSTATUS_OFFSET));
}

void final_check(Env &e) {
  uint64_t viol = 0;
  for (unsigned c = 0; c < kN; c++) {
    viol += tdimm_ddr4_violations(e.dram.dev[c]);
    if (tdimm_ddr4_violations(e.dram.dev[c])) tdimm_ddr4_print_violations(e.dram.dev[c], stderr);
    long bad = 0, blocks = 0;
    struct Ctx {
      Env *e;
      unsigned c;
      long *bad, *blocks;
    } cx = {&e, c, &bad, &blocks};
    tdimm_ddr4_foreach(
        e.dram.dev[c],
        [](void *ctx, uint64_t lb, const uint32_t *data) {
          Ctx *x = static_cast<Ctx *>(ctx);
          (*x->blocks)++;
          const uint32_t *m = tdimm_block(x->e->model, x->c, lb);
          if (std::memcmp(m, data, 64) != 0) {
            if (*x->bad < 4)
              std::fprintf(stderr, "final image: core %u block 0x%" PRIx64 " lane0 model %08x dram %08x\n",
                           x->c, lb, m[0], data[0]);
            (*x->bad)++;
          }
        },
        &cx);
    e.sc.check("final DRAM image (blocks differing)", c, 0, static_cast<uint64_t>(bad));
    e.sc.expect(blocks > 0, "the DRAM holds blocks", c);
  }
  e.sc.check("timing violations", 0, 0, viol);
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tensordimm_axi", 300, &a, {{"workload", "=<file>: a workload file (tdimm_workload)"}});
  Env e(a);
  tdimm_cfg_t cfg;
  tdimm_cfg_default(&cfg, kNdLog2, kAw);
  const char *wl_path = tb_plusarg("workload");
  tdimm_wl_t wl;
  bool have_wl = false;
  if (wl_path) {
    char err[256];
    if (tdimm_wl_read(wl_path, &wl, err, sizeof err) != 0) {
      std::fprintf(stderr, "tb_tensordimm_axi: %s\n", err);
      return 2;
    }
    if (wl.nd_log2 != kNdLog2 || wl.local_aw > kAw) {
      std::fprintf(stderr, "tb_tensordimm_axi: workload is for nodeDim %u, local_aw %u; this build "
                   "has %u cores of 2^%u blocks\n", 1u << wl.nd_log2, wl.local_aw, kN, kAw);
      return 2;
    }
    have_wl = true;
  }
  e.model = tdimm_node_new(&cfg);
  e.clk.reset();
  accel_bus *b = e.bus();
  e.sc.check("driver open (ID, HWCFG)", 0, 0, static_cast<uint64_t>(tdimm_drv_open(&e.dev, b)));
  test_registers(e);

  if (have_wl) {
    tdimm_wl_foreach_block(&wl, [](void *ctx, uint64_t gb, const uint32_t lanes[16]) {
      static_cast<Env *>(ctx)->load(gb, lanes);
    }, &e);
    e.sc.check("nodeDim written (broadcast)", 0, 0,
               static_cast<uint64_t>(tdimm_drv_set_node_dim(&e.dev, kNdLog2)));
    for (unsigned c = 0; c < kN; c++) {
      uint64_t base = wl.cfg.core[c].win_base, limit = wl.cfg.core[c].win_limit;
      if (limit == (1ull << wl.local_aw)) limit = 1ull << kAw;
      if (base != 0 || limit != (1ull << kAw)) e.set_window(c, base, limit);
    }
    accel_counters_clear(b);
    uint64_t c0 = e.clk.now();
    uint64_t errs0 = e.node_errs;
    for (size_t i = 0; i < wl.n_insn && !e.clk.timed_out(); i++) {
      int rc = tdimm_drv_push_wait(&e.dev, &wl.insn[i], kTimeout);
      if (!e.sc.check("workload push", i, 0, static_cast<uint64_t>(rc))) break;
      e.pushed(wl.insn[i]);
      e.collect();
    }
    e.drain(e.next_id);
    uint64_t cyc = e.clk.now() - c0;
    accel_counters_t ac;
    accel_counters_read(b, &ac);
    uint32_t iss = 0, ret = 0, ref = 0;
    tdimm_drv_counts(&e.dev, &iss, &ret, &ref);
    e.sc.check("ISSUED == RETIRED after the workload", 0, iss, ret);
    std::printf("axi workload: %zu insns, %" PRIu64 " errors, %" PRIu64 " cycles (busy=%u stall=%u "
                "issued=%u retired=%u)\n", wl.n_insn, e.node_errs - errs0, cyc, ac.cyc_busy,
                ac.cyc_stall, iss, ret);
  } else {
    tdimm_rnd_memory([&e](uint64_t gb, const uint32_t *v) { e.load(gb, v); });
  }

  if (have_wl) {   // random instructions over the workload's memory would be meaningless
    final_check(e);
  } else {
    random_run(e, a.n, true);
    test_error(e);
    test_full(e);
    test_reset(e);
    random_run(e, a.n / 3 + 1, false);
    final_check(e);
    std::printf("random: %" PRIu64 " retirements, %" PRIu64 " with an error, %" PRIu64
                " refused pushes retried\n", e.retired, e.node_errs, e.refusals);
  }
  e.sc.expect(!e.clk.timed_out(), "finished before the timeout", e.clk.now());
  e.sc.check("register accesses that were expected to succeed", 0, 0, b->errors);
  e.sc.check("AXI4-Lite violations seen by the master", 0, 0, static_cast<uint64_t>(e.axil.violations));
  std::printf("axi: %" PRIu64 " cycles\n", e.clk.now());
  if (have_wl) tdimm_wl_free(&wl);
  return e.sc.finish();
}
