// tb_neummu_axi.cpp -- neummu_axi run from C through its driver (sw/neummu/nmmu_driver.h) over the
// simulated bus (tb/common/tb_axi.h): AXI4-Lite registers, page-table walks served by the AXI4
// memory model (random backpressure and latency, protocol checked), translation requests and
// responses on the AXI4-Streams with random gaps and backpressure. Every response is checked
// against the golden model (nmmu_translate on the same tables). Build-time configuration:
// TB_Walkers, TB_Slots, TB_IdW, ... (rtl/neummu/block.toml, [harness.neummu_axi*]).
//
//   +workload=<trace> +image=<image>   the transfers of a DMA trace (sw/neummu/nmmu_trace) on the
//                                      tables of its image (nmmu_ptgen), copied into the memory
//                                      by the driver (make sim-neummu-axi); +max=N caps them
//   (always)   +n random translations on random tables (4 KB and 2 MB pages, holes, read-only
//              pages), in batches with random in-flight windows; the register map's errors, byte
//              strobes (every strobe pattern on every rw register), INTR_TEST and irq_o, the
//              decode (every hole SLVERR), START only with byte 0's strobe, START
//              while a translation is in flight (the status is kept), the CFG.SLOTS clamp (merges
//              and walks of one page's requests), FAULTS and the other counters against the model;
//              single-page (4 KB and 2 MB) and full invalidation after a table change; ENABLE gating; an AXI
//              SLVERR on a table read and a table beyond the AXI address range (the walk faults,
//              ERR_CODE says why) followed by good batches; a reset in the middle of a batch.
// Last line: "N passed, N failed".
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "Vneummu_axi.h"
#include "neummu.h"
#include "neummu/neummu_regs.h"
#include "neummu/nmmu_driver.h"
#include "neummu/nmmu_trace.h"
#include "tb_axi.h"
#include "tb_lib.h"
#include "tb_nmmu_pt.h"

namespace {

typedef Vneummu_axi Top;
const uint64_t kMemBytes = 64u << 20;
const uint64_t kTimeout = 200000;

struct Env {
  TbArgs a;
  TbScore sc{"neummu_axi"};
  TbSim<Top> sim;
  TbCycle<Top> clk;
  TbAxilMaster<Top> axil;
  TbAxiMem<Top> mem;
  TbAccelBus<Top> tb;
  TbStreamQ req, rsp;
  nmmu_dev_t dev;
  explicit Env(const TbArgs &args)
      : a(args), sim(args, 2000000000ull), clk(sim), axil(clk, &sc, 8, args.gap_pct, args.stall_pct),
        mem(clk, &sc, kMemBytes, args.stall_pct, args.gap_pct), tb(clk, axil, &mem),
        req(args.gap_pct), rsp(args.stall_pct) {
    tb.add_send_port(&req);
    tb.add_recv_port(&rsp);
    tb.add_step(step, this);
  }
  accel_bus *bus() { return &tb.bus; }
  // The streams: request source and response sink on the top's AXI4-Stream ports.
  static void step(void *u, int ph) {
    Env *e = static_cast<Env *>(u);
    Top *t = e->sim.top;
    if (ph == TB_RESET) {
      e->req.valid = false;
      t->s_axis_req_tvalid_i = 0;
      t->m_axis_rsp_tready_i = 0;
    } else if (ph == TB_DRIVE) {
      t->s_axis_req_tvalid_i = e->req.src_valid();
      if (e->req.valid) {
        t->s_axis_req_tdata_i = e->req.front().data;
        t->s_axis_req_tid_i = e->req.front().id;
      } else {
        t->s_axis_req_tdata_i = tb_rand();  // idle payload: anything
      }
      t->m_axis_rsp_tready_i = e->rsp.sink_ready();
    } else if (ph == TB_SAMPLE) {
      if (e->req.valid && t->s_axis_req_tready_o) e->req.src_taken();
      if (t->m_axis_rsp_tvalid_o && e->rsp.ready) e->rsp.sink_take(t->m_axis_rsp_tdata_o, t->m_axis_rsp_tid_o, 1);
    }
  }
};

// Translates va[] through the driver and checks every answer against the model on img.
// Returns the driver's result.
int check_batch(Env &e, const nmmu_mem_t *img, const std::vector<uint64_t> &va,
                const std::vector<uint8_t> &wr, uint64_t id) {
  size_t n = va.size();
  std::vector<uint64_t> pa(n, ~0ull);
  std::vector<uint8_t> st(n, 0xFF);
  int rc = nmmu_drv_translate(&e.dev, va.data(), wr.data(), n, pa.data(), st.data(), kTimeout);
  bool any_fault = false;
  long bad = 0;
  for (size_t i = 0; i < n; i++) {
    nmmu_xlat_t x = nmmu_translate(img, va[i], wr[i]);
    any_fault |= x.status != NMMU_ST_OK;
    bool ok = pa[i] == x.pa && st[i] == x.status;
    if (!e.sc.expect(ok, "response (pa, status) equals the model's", id) && bad++ < 4)
      std::printf("  batch %" PRIu64 " request %zu va 0x%" PRIx64 " %c: expected pa 0x%" PRIx64
                  " status %d, got pa 0x%" PRIx64 " status %d\n", id, i, va[i], wr[i] ? 'w' : 'r',
                  x.pa, x.status, pa[i], st[i]);
  }
  int want = any_fault ? NMMU_ERR_FAULT : 0;
  e.sc.check("batch result (0, or 0x01 when a request faulted)", id, static_cast<uint64_t>(want),
             static_cast<uint64_t>(rc));
  return rc;
}

// Random tables: a few 4 KB regions (some pages left out, some read-only) and 2 MB pages.
struct RandTables {
  nmmu_mem_t *mem;
  std::vector<uint64_t> vas;   // mapped page VAs (4 KB granularity samples)
  RandTables() : mem(nmmu_mem_new()) {
    PtBuilder pb(mem, 0x100000);
    uint64_t frame = 0x200000000ull;
    for (int r = 0; r < 6; r++) {
      uint64_t base = (static_cast<uint64_t>(tb_rand_range(1, 0x7FFF)) << 30) |
                      (static_cast<uint64_t>(tb_rand_range(0, 511)) << 21);
      if (tb_chance(30)) {
        uint64_t fl = tb_chance(30) ? NMMU_PTE_U : (NMMU_PTE_W | NMMU_PTE_U);
        pb.map2m(base, frame << 1, fl);
        frame += 0x200000;
        for (int k = 0; k < 8; k++) vas.push_back(base + (static_cast<uint64_t>(tb_rand_range(0, 511)) << 12));
      } else {
        int pages = static_cast<int>(tb_rand_range(4, 64));
        for (int k = 0; k < pages; k++) {
          uint64_t va = base + (static_cast<uint64_t>(k) << 12);
          if (!tb_chance(10)) pb.map4k(va, frame, tb_chance(20) ? NMMU_PTE_U : (NMMU_PTE_W | NMMU_PTE_U));
          frame += 0x1000;
          vas.push_back(va);
        }
      }
    }
  }
  ~RandTables() { nmmu_mem_free(mem); }
  uint64_t random_va() {
    if (tb_chance(3)) return tb_rand() & 0xFFFFFFFFF000ull;   // mostly unmapped
    return vas[tb_rand_range(0, static_cast<uint32_t>(vas.size() - 1))] | tb_rand_range(0, 4095);
  }
};

void make_batch(RandTables &t, size_t n, std::vector<uint64_t> *va, std::vector<uint8_t> *wr) {
  va->resize(n);
  wr->resize(n);
  for (size_t i = 0; i < n; i++) {
    (*va)[i] = t.random_va();
    (*wr)[i] = tb_chance(30);
  }
}

void load_and_config(Env &e, const nmmu_mem_t *img) {
  e.sc.check("tables copied into memory", 0, 0, static_cast<uint64_t>(nmmu_drv_load_tables(&e.dev, img)));
  e.sc.check("configuration", 0, 0,
             static_cast<uint64_t>(nmmu_drv_config(&e.dev, nmmu_mem_root(img), 0, 0xFF, 1)));
}

void test_registers(Env &e) {
  accel_bus *b = e.bus();
  uint32_t v = 1;
  e.sc.expect(b->read32(b->ctx, 0xFC, &v) != 0 && v == 0, "unmapped read: SLVERR, data 0", 0xFC);
  e.sc.expect(b->write32(b->ctx, NEUMMU__HITS_OFFSET, 5) != 0, "write of a read-only counter: SLVERR", 0);
  e.sc.check("INV reads 0", 0, 0, accel_rd(b, NEUMMU__INV_OFFSET));
  uint32_t hw = accel_rd(b, NEUMMU__HWCFG_OFFSET);
  e.sc.check("HWCFG.WALKERS", 0, TB_Walkers, hw & 0xFF);
  e.sc.check("HWCFG.SLOTS", 0, TB_Slots, (hw >> 8) & 0xFF);
  e.sc.check("HWCFG.TLB_ENTRIES", 0, TB_TlbEntries, hw >> 16);
  e.sc.check("CFG reset value (all walkers, all slots, TPreg)", 0, 0x1FF00, accel_rd(b, NEUMMU__CFG_OFFSET));
  // Byte strobes are honoured per byte (docs/axi_shell.md, "Register semantics"): a write
  // changes exactly the bytes whose strobe is set; every strobe pattern on every rw register,
  // each write read back against that rule (fields that do not exist read as 0).
  const TbRwReg rw[] = {
      {NEUMMU__CFG_OFFSET, 0x1FFFF, "CFG"},
      {NEUMMU__ROOT_PPN_LO_OFFSET, 0xFFFFFFFF, "ROOT_PPN_LO"},
      {NEUMMU__ROOT_PPN_HI_OFFSET, 0xFF, "ROOT_PPN_HI"},
      {NEUMMU__INV_VA_LO_OFFSET, 0xFFFFFFFF, "INV_VA_LO"},
      {NEUMMU__INV_VA_HI_OFFSET, 0xFFFF, "INV_VA_HI"},
      {NEUMMU__INTR_ENABLE_OFFSET, 0x3, "INTR_ENABLE"},
      {NEUMMU__ENABLE_OFFSET, 0x1, "ENABLE"}};
  tb_axil_check_strobes(e.axil, b, e.sc, rw, sizeof rw / sizeof rw[0]);
  accel_wr(b, NEUMMU__CFG_OFFSET, 0x1FF00);
  accel_wr(b, NEUMMU__ENABLE_OFFSET, 0);
  // INTR_TEST (singlepulse) sets INTR_STATUS's bit as the event would; the bit raises irq_o when
  // enabled (one cycle later) and is cleared by writing 1 to it; without its strobe nothing.
  const TbIntrRegs intr = {NEUMMU__INTR_TEST_OFFSET, NEUMMU__INTR_STATUS_OFFSET,
                           NEUMMU__INTR_ENABLE_OFFSET, NEUMMU__STATUS_OFFSET};
  const uint32_t bits[2] = {NEUMMU__INTR_TEST__ERROR_bm, NEUMMU__INTR_TEST__DONE_bm};
  tb_axil_check_intr(e.axil, b, e.sc, [&e] { return e.tb.irq(); }, intr, bits, 2);
  // the decode: every register OKAY, every hole SLVERR (the map fills the 8 address bits: no
  // alias); the refused all-ones writes change no rw register
  const uint32_t regs[] = NEUMMU__ALL_OFFSETS;
  tb_axil_check_decode(e.axil, e.sc, regs, sizeof regs / sizeof regs[0], NEUMMU__MAP_W, rw,
                       sizeof rw / sizeof rw[0]);
  // CTRL.START needs byte 0's strobe (nothing in flight: DONE at once)
  tb_axil_check_start_strobe(e.axil, b, e.sc, NEUMMU__CTRL_OFFSET, NEUMMU__CTRL__START_bm,
                             NEUMMU__INTR_STATUS_OFFSET, NEUMMU__INTR_STATUS__DONE_bm);
  accel_err_clear(b);
}

// CTRL.START with a translation in flight (neummu_csr: START starts a new job's status only with
// the block idle) leaves STATUS.DONE/ERROR and ERR_CODE as they are; START when idle clears them
// and DONE comes at once (nothing in flight). FAULTS counts the faulted answers.
void test_start_busy(Env &e, uint64_t &id) {
  accel_bus *b = e.bus();
  RandTables t;
  load_and_config(e, t.mem);
  uint64_t va_bad = 0, va_ok = 0;  // an unmapped page (its L4 entry is empty), a mapped one
  for (uint64_t k = 1; k < 256 && !va_bad; k++)
    if (nmmu_translate(t.mem, k << 39, 0).status == NMMU_ST_NOT_PRESENT) va_bad = k << 39;
  for (uint64_t v : t.vas)
    if (!va_ok && nmmu_translate(t.mem, v, 0).status == NMMU_ST_OK) va_ok = v;
  e.sc.expect(va_bad && va_ok, "an unmapped and a mapped page", va_ok);
  const uint32_t st_busy = NEUMMU__STATUS__BUSY_bm, st_done = NEUMMU__STATUS__DONE_bm,
                 st_err = NEUMMU__STATUS__ERROR_bm;
  auto wait = [&](size_t rsps) {
    for (uint64_t c = 0; c < kTimeout && e.rsp.q.size() < rsps; c++) b->idle(b->ctx, 1);
    e.sc.check("answers received", ++id, rsps, e.rsp.q.size());
  };
  const uint32_t is_done = NEUMMU__INTR_STATUS__DONE_bm, is_err = NEUMMU__INTR_STATUS__ERROR_bm;
  accel_wr(b, NEUMMU__INTR_STATUS_OFFSET, is_done | is_err);
  accel_wr(b, NEUMMU__CTRL_OFFSET, NEUMMU__CTRL__START_bm);
  b->idle(b->ctx, 4);
  e.sc.check("START when idle: STATUS DONE (nothing in flight)", id, st_done, accel_rd(b, NEUMMU__STATUS_OFFSET));
  e.sc.check("START when idle: ERR_CODE 0", id, 0, accel_rd(b, NEUMMU__ERR_CODE_OFFSET));
  // the job's events reach INTR_STATUS: DONE when it completes, ERROR with its first error
  e.sc.check("DONE sets INTR_STATUS.DONE (not ERROR)", id, is_done, accel_rd(b, NEUMMU__INTR_STATUS_OFFSET));
  accel_wr(b, NEUMMU__INTR_STATUS_OFFSET, is_done | is_err);
  const uint32_t f0 = accel_rd(b, NEUMMU__FAULTS_OFFSET);
  e.rsp.cap = 1;  // the sink takes one answer and then holds off the stream
  b->stream_send(b->ctx, 0, va_bad, 1, 1);
  wait(1);
  if (!e.rsp.q.empty()) {
    e.sc.check("unmapped page: status not present", id, NMMU_ST_NOT_PRESENT, (e.rsp.q[0].data >> 52) & 3);
    e.sc.check("unmapped page: pa 0", id, 0, e.rsp.q[0].data & 0xFFFFFFFFFFFFFull);
  }
  e.sc.check("a fault: STATUS DONE and ERROR", id, st_done | st_err, accel_rd(b, NEUMMU__STATUS_OFFSET));
  e.sc.check("a fault: ERR_CODE 0x01", id, NMMU_ERR_FAULT, accel_rd(b, NEUMMU__ERR_CODE_OFFSET));
  e.sc.check("a fault sets INTR_STATUS.ERROR", id, is_err, accel_rd(b, NEUMMU__INTR_STATUS_OFFSET) & is_err);
  e.sc.check("FAULTS counts the fault", id, f0 + 1, accel_rd(b, NEUMMU__FAULTS_OFFSET));
  b->stream_send(b->ctx, 0, va_ok, 2, 1);
  for (uint64_t c = 0; c < kTimeout && !e.req.q.empty(); c++) b->idle(b->ctx, 1);
  b->idle(b->ctx, 100);  // taken; its answer cannot leave
  e.sc.check("a translation in flight: STATUS BUSY", id, st_busy | st_done | st_err, accel_rd(b, NEUMMU__STATUS_OFFSET));
  accel_wr(b, NEUMMU__CTRL_OFFSET, NEUMMU__CTRL__START_bm);
  b->idle(b->ctx, 4);
  e.sc.check("START while busy: STATUS unchanged", id, st_busy | st_done | st_err, accel_rd(b, NEUMMU__STATUS_OFFSET));
  e.sc.check("START while busy: ERR_CODE kept", id, NMMU_ERR_FAULT, accel_rd(b, NEUMMU__ERR_CODE_OFFSET));
  e.rsp.cap = 0;
  wait(2);
  if (e.rsp.q.size() == 2) {
    nmmu_xlat_t x = nmmu_translate(t.mem, va_ok, 0);
    e.sc.check("the held answer: pa", id, x.pa, e.rsp.q[1].data & 0xFFFFFFFFFFFFFull);
    e.sc.check("the held answer: status", id, static_cast<uint64_t>(x.status), (e.rsp.q[1].data >> 52) & 3);
  }
  b->idle(b->ctx, 4);
  e.sc.check("answered: STATUS DONE and still ERROR", id, st_done | st_err, accel_rd(b, NEUMMU__STATUS_OFFSET));
  e.sc.check("FAULTS: one fault", id, f0 + 1, accel_rd(b, NEUMMU__FAULTS_OFFSET));
  accel_wr(b, NEUMMU__CTRL_OFFSET, NEUMMU__CTRL__START_bm);
  b->idle(b->ctx, 4);
  e.sc.check("START when idle: error status cleared", id, st_done, accel_rd(b, NEUMMU__STATUS_OFFSET));
  e.sc.check("START when idle: ERR_CODE cleared", id, 0, accel_rd(b, NEUMMU__ERR_CODE_OFFSET));
  e.rsp.clear();
  accel_wr(b, NEUMMU__INTR_STATUS_OFFSET, 3);
  e.sc.check("register accesses that were expected to succeed", id, 0, b->errors);
  accel_err_clear(b);
}

// CFG.SLOTS: merge slots per walker in use, 0 = none, more than HWCFG.SLOTS = all of them
// (docs/regs/neummu.md). Slots + 2 requests to one page not in the TLB, sent together while every
// table read takes 200 cycles: the first walks, the next min(CFG.SLOTS, Slots) merge into its walk,
// the next starts a walk of its own beside it (a duplicate walk), and so on.
void test_slots_clamp(Env &e, uint64_t &id) {
  RandTables t;
  load_and_config(e, t.mem);
  uint64_t page = 0;
  for (uint64_t v : t.vas)
    if (!page && nmmu_translate(t.mem, v, 0).status == NMMU_ST_OK) page = v;
  const unsigned lat_min = e.mem.rd_lat_min, lat_max = e.mem.rd_lat_max, window = e.dev.window;
  e.mem.rd_lat_min = e.mem.rd_lat_max = 200;
  // above HWCFG.SLOTS: by one, the next power of two and one more (their low bits, the width
  // of neummu's cfg_slots_i, read 0 and 1), and the reset value
  unsigned p2 = 1;
  while (p2 <= TB_Slots) p2 <<= 1;
  const unsigned cfgs[] = {TB_Slots, TB_Slots + 1, p2, p2 + 1, 0xFF, 1, 0};
  for (unsigned cs : cfgs) {
    if (cs > 0xFF) continue;
    const unsigned eff = cs > TB_Slots ? TB_Slots : cs;
    // Slots + 2 requests, fewer when they would need more walks than there are walkers
    const unsigned n = std::min<unsigned>(TB_Slots + 2, TB_Walkers * (eff + 1));
    const unsigned walks = (n + eff) / (eff + 1);
    nmmu_drv_config(&e.dev, nmmu_mem_root(t.mem), 0, cs, 1);  // also drops every translation
    e.sc.check("CTRL.CLEAR", cs, 0, static_cast<uint64_t>(accel_counters_clear(e.bus())));
    e.dev.window = n;
    std::vector<uint64_t> va;
    for (unsigned k = 0; k < n; k++) va.push_back(page + 8 * k);
    check_batch(e, t.mem, va, std::vector<uint8_t>(n, 0), ++id);
    nmmu_drv_stats_t s;
    nmmu_drv_acct_t c;
    nmmu_drv_stats(&e.dev, &s);
    nmmu_drv_acct(&e.dev, &c);
    e.sc.check("CFG.SLOTS: walks", cs, walks, s.walks);
    e.sc.check("CFG.SLOTS: merges (CFG.SLOTS clamped to HWCFG.SLOTS)", cs, n - walks, s.merges);
    e.sc.check("CFG.SLOTS: every walk after the first a duplicate", cs, walks - 1, c.dup_walks);
  }
  e.mem.rd_lat_min = lat_min;
  e.mem.rd_lat_max = lat_max;
  e.dev.window = window;
  nmmu_drv_config(&e.dev, nmmu_mem_root(t.mem), 0, 0xFF, 1);
}

void test_tables(Env &e, uint64_t &id) {
  RandTables t;
  load_and_config(e, t.mem);
  std::vector<uint64_t> va;
  std::vector<uint8_t> wr;
  long done = 0;
  while (done < e.a.n) {
    size_t n = tb_rand_range(1, 300);
    e.dev.window = tb_rand_range(1, 1u << (TB_IdW < 8 ? TB_IdW : 8));
    make_batch(t, n, &va, &wr);
    check_batch(e, t.mem, va, wr, ++id);
    done += static_cast<long>(n);
    if (tb_chance(10)) {   // change a mapping: unmap a page (or remap it) and invalidate it
      uint64_t v = t.vas[tb_rand_range(0, static_cast<uint32_t>(t.vas.size() - 1))];
      nmmu_xlat_t x = nmmu_translate(t.mem, v, 0);
      if (x.status == NMMU_ST_OK) {
        // a 4 KB leaf, or a 2 MB one (moved to another 2 MB frame; the invalidate names any VA
        // inside the page: INV_VA_HI's bits take part in the 2 MB tag compare)
        PtBuilder pb(t.mem, nmmu_mem_root(t.mem));
        const int lvl = x.page_2m ? 2 : 1;
        uint64_t epa = pb.entry_pa(pb.table_for(v, lvl), v, lvl);
        uint64_t nv = x.page_2m ? nmmu_mem_read(t.mem, epa) ^ (1ull << 22)
                    : tb_chance(50) ? 0 : ((x.pa ^ 0x7000) & NMMU_PTE_FRAME) | NMMU_PTE_P | NMMU_PTE_W | NMMU_PTE_U;
        nmmu_mem_write(t.mem, epa, nv);
        e.mem.write(epa, &nv, 8);
        const uint64_t iva = x.page_2m ? (v & ~0x1FFFFFull) | tb_rand_range(0, 0x1FFFFF) : v;
        accel_wr(e.bus(), NEUMMU__INV_VA_LO_OFFSET, static_cast<uint32_t>(iva));
        accel_wr(e.bus(), NEUMMU__INV_VA_HI_OFFSET, static_cast<uint32_t>(iva >> 32));
        accel_wr(e.bus(), NEUMMU__INV_OFFSET, NEUMMU__INV__PAGE_bm);
        std::vector<uint64_t> one(4, v);
        std::vector<uint8_t> rw(4, 0);
        check_batch(e, t.mem, one, rw, ++id);
      }
    }
  }
  nmmu_drv_stats_t s;
  nmmu_drv_stats(&e.dev, &s);
  e.sc.expect(s.walks > 0 && s.reads >= s.walks, "counters: walks, and at least one read a walk", s.walks);
  std::printf("random: %ld translations; hits %u walks %u merges %u reads %u faults %u\n", done,
              s.hits, s.walks, s.merges, s.reads, s.faults);
}

// CTRL.CLEAR zeroes the event and accounting counters, which then count one batch exactly:
// every translation is a hit, a walk or a merge, and each spends at least a cycle in the MMU.
void test_counters(Env &e, uint64_t &id) {
  RandTables t;
  load_and_config(e, t.mem);
  auto zero = [&](const char *when) {
    nmmu_drv_stats_t s;
    nmmu_drv_acct_t c;
    e.sc.check("counters read", 0, 0, static_cast<uint64_t>(nmmu_drv_stats(&e.dev, &s)));
    e.sc.check("accounting counters read", 0, 0, static_cast<uint64_t>(nmmu_drv_acct(&e.dev, &c)));
    const uint64_t sum = static_cast<uint64_t>(s.hits) + s.walks + s.merges + s.reads + s.tp_l4 +
                         s.tp_l3 + s.tp_l2 + s.faults + c.stall_rsp + c.stall_down + c.stall_prmb +
                         c.stall_walk + c.dup_walks + c.lat_pipe + c.lat_hol + c.lat_port +
                         c.lat_mem + c.lat_ans + c.lat_out;
    e.sc.check(when, 0, 0, sum);
  };
  std::vector<uint64_t> va;
  std::vector<uint8_t> wr;
  make_batch(t, 50, &va, &wr);
  check_batch(e, t.mem, va, wr, ++id);
  e.sc.check("CTRL.CLEAR", 0, 0, static_cast<uint64_t>(accel_counters_clear(e.bus())));
  zero("every counter after CTRL.CLEAR");
  const size_t n = 400;
  make_batch(t, n, &va, &wr);
  check_batch(e, t.mem, va, wr, ++id);
  nmmu_drv_stats_t s;
  nmmu_drv_acct_t c;
  nmmu_drv_stats(&e.dev, &s);
  nmmu_drv_acct(&e.dev, &c);
  e.sc.check("hits + walks + merges since the clear = translations", 0, n,
             static_cast<uint64_t>(s.hits) + s.walks + s.merges);
  uint64_t faults = 0;  // the faulted answers of the batch, by the model
  for (size_t i = 0; i < n; i++) faults += nmmu_translate(t.mem, va[i], wr[i]).status != NMMU_ST_OK;
  e.sc.expect(faults > 0, "the batch has faults", faults);
  e.sc.check("FAULTS since the clear = the batch's faulted translations", 0, faults, s.faults);
  const uint64_t lat = c.lat_pipe + c.lat_hol + c.lat_port + c.lat_mem + c.lat_ans + c.lat_out;
  e.sc.expect(lat >= n, "request-cycles since the clear >= translations", lat);
  e.sc.expect(s.walks == 0 || c.lat_mem > 0, "walks spend cycles waiting for table data", c.lat_mem);
  std::printf("counters: %zu translations, hits %u walks %u merges %u; request-cycles %" PRIu64
              " (table memory %" PRIu64 "); stalls rsp/down/prmb/walk %u/%u/%u/%u\n", n, s.hits,
              s.walks, s.merges, lat, c.lat_mem, c.stall_rsp, c.stall_down, c.stall_prmb,
              c.stall_walk);
  e.sc.check("CTRL.CLEAR", 0, 0, static_cast<uint64_t>(accel_counters_clear(e.bus())));
  zero("every counter after a second CTRL.CLEAR");
}

void test_enable_and_errors(Env &e, uint64_t &id) {
  accel_bus *b = e.bus();
  RandTables t;
  load_and_config(e, t.mem);
  // ENABLE = 0: a request waits; ENABLE = 1: it is answered
  accel_wr(b, NEUMMU__ENABLE_OFFSET, 0);
  b->stream_send(b->ctx, 0, t.vas[0], 0, 1);
  b->idle(b->ctx, 200);
  e.sc.expect(e.rsp.q.empty() && !e.req.q.empty(), "no request taken while ENABLE is 0", id);
  accel_wr(b, NEUMMU__ENABLE_OFFSET, 1);
  b->idle(b->ctx, 2000);
  e.sc.check("the request is answered once enabled", id, 1, e.rsp.q.size());
  e.rsp.clear();
  std::vector<uint64_t> va;
  std::vector<uint8_t> wr;
  // SLVERR on the root table: every walk reads an empty entry and faults, ERR_CODE 0xF1 RESP 2
  uint64_t root = nmmu_mem_root(t.mem);
  e.mem.slverr.push_back({root, root + 4096});
  accel_wr(b, NEUMMU__INV_OFFSET, NEUMMU__INV__ALL_bm);
  make_batch(t, 20, &va, &wr);
  {
    std::vector<uint64_t> pa(va.size());
    std::vector<uint8_t> st(va.size());
    int rc = nmmu_drv_translate(&e.dev, va.data(), wr.data(), va.size(), pa.data(), st.data(), kTimeout);
    e.sc.check("SLVERR on a table read: ERR_CODE 0xF1, RESP 2", ++id, 0x2F1, static_cast<uint64_t>(rc));
    long nf = 0;
    for (size_t i = 0; i < st.size(); i++) nf += st[i] == NMMU_ST_NOT_PRESENT && pa[i] == 0;
    e.sc.check("every walk through the failing table faults (not present, pa 0)", id, va.size(), nf);
  }
  e.mem.slverr.clear();
  accel_wr(b, NEUMMU__INV_OFFSET, NEUMMU__INV__ALL_bm);
  make_batch(t, 50, &va, &wr);
  check_batch(e, t.mem, va, wr, ++id);
  // a root beyond the AXI address range (2^32): no read, every walk faults, ERR_CODE 0x02
  nmmu_drv_config(&e.dev, 0x100000000000ull, 0, 0xFF, 1);
  make_batch(t, 10, &va, &wr);
  {
    std::vector<uint64_t> pa(va.size());
    std::vector<uint8_t> st(va.size());
    uint32_t reads0 = accel_rd(b, NEUMMU__RD_BURSTS_OFFSET);
    long mem_reads0 = e.mem.rd_bursts;
    int rc = nmmu_drv_translate(&e.dev, va.data(), wr.data(), va.size(), pa.data(), st.data(), kTimeout);
    e.sc.check("table beyond the AXI range: ERR_CODE 0x02", ++id, NMMU_ERR_RANGE, static_cast<uint64_t>(rc));
    long nf = 0;
    for (size_t i = 0; i < st.size(); i++) nf += st[i] == NMMU_ST_NOT_PRESENT;
    e.sc.check("every walk beyond the range faults", id, va.size(), nf);
    e.sc.check("no AXI read for a table beyond the range (memory model)", id, 0,
               static_cast<uint64_t>(e.mem.rd_bursts - mem_reads0));
    e.sc.check("no AXI read for a table beyond the range (RD_BURSTS)", id, reads0,
               accel_rd(b, NEUMMU__RD_BURSTS_OFFSET));
  }
  nmmu_drv_config(&e.dev, root, 0, 0xFF, 1);
  make_batch(t, 50, &va, &wr);
  check_batch(e, t.mem, va, wr, ++id);
  // walker / slot limits at run time (1 walker, no merging, no TPreg)
  nmmu_drv_config(&e.dev, root, 1, 0, 0);
  make_batch(t, 100, &va, &wr);
  check_batch(e, t.mem, va, wr, ++id);
  nmmu_drv_config(&e.dev, root, 0, 0xFF, 1);
  // reset in the middle of a batch: requests in flight are lost, the block works after it
  for (int i = 0; i < 40; i++) b->stream_send(b->ctx, 0, t.random_va(), static_cast<unsigned>(i), 1);
  b->idle(b->ctx, tb_rand_range(5, 80));
  e.clk.reset();
  e.req.clear();
  e.rsp.clear();
  e.sc.check("STATUS after reset", id, 0, accel_rd(b, NEUMMU__STATUS_OFFSET));
  e.sc.check("ENABLE after reset", id, 0, accel_rd(b, NEUMMU__ENABLE_OFFSET));
  nmmu_drv_config(&e.dev, root, 0, 0xFF, 1);
  make_batch(t, 100, &va, &wr);
  check_batch(e, t.mem, va, wr, ++id);
  e.sc.check("register accesses that were expected to succeed", id, 0, b->errors);
  accel_err_clear(b);
}

int run_workload(Env &e, const char *trace, const char *image, uint64_t &id) {
  char err[256];
  nmmu_mem_t *img = nmmu_mem_load(image, err, sizeof err);
  if (!e.sc.expect(img != nullptr, "image file loads", 0)) {
    std::printf("%s\n", err);
    return 1;
  }
  nmmu_trace_reader_t rd;
  if (!e.sc.expect(nmmu_trace_open(&rd, trace) == 0, "trace file opens", 0)) {
    std::printf("%s\n", rd.err);
    nmmu_mem_free(img);
    return 1;
  }
  std::vector<uint64_t> va;
  std::vector<uint8_t> wr;
  const long max = static_cast<long>(tb_plusarg_num("max", 0, 1ull << 40, 0));
  nmmu_event_t ev;
  int k;
  while ((k = nmmu_trace_next(&rd, &ev)) != 0 && (!max || static_cast<long>(va.size()) < max)) {
    if (k == NMMU_EV_ERROR) {
      e.sc.expect(false, "trace well formed", static_cast<uint64_t>(rd.line_no));
      std::printf("%s\n", rd.err);
      break;
    }
    if (k == NMMU_EV_XFER) {
      va.push_back(ev.va);
      wr.push_back(static_cast<uint8_t>(ev.is_write != 0));
    }
  }
  nmmu_trace_close(&rd);
  load_and_config(e, img);
  uint64_t c0 = e.clk.now();
  e.dev.window = 1u << (TB_IdW < 8 ? TB_IdW : 8);
  check_batch(e, img, va, wr, ++id);
  uint64_t cyc = e.clk.now() - c0;
  nmmu_drv_stats_t s;
  nmmu_drv_stats(&e.dev, &s);
  std::printf("axi workload: %zu translations, %" PRIu64 " cycles (%.2f cycles/translation); hits %u "
              "walks %u merges %u table reads %u faults %u\n", va.size(), cyc,
              static_cast<double>(cyc) / (va.empty() ? 1 : va.size()), s.hits, s.walks, s.merges,
              s.reads, s.faults);
  nmmu_mem_free(img);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "neummu_axi", 20000, &a,
          {{"workload", "=<file>: a trace (nmmu_trace)"}, {"image", "=<file>: its page-table image"},
           {"max", "=N: at most N accesses of the trace (0 all)"}});
  Env e(a);
  e.clk.reset();
  e.sc.check("driver open (ID, HWCFG)", 0, 0, static_cast<uint64_t>(nmmu_drv_open(&e.dev, e.bus(), 64)));
  uint64_t id = 0;
  const char *trace = tb_plusarg("workload");
  const char *image = tb_plusarg("image");
  if (trace && image) {
    if (run_workload(e, trace, image, id) != 0) return e.sc.finish();
  }
  test_registers(e);
  test_start_busy(e, id);
  test_enable_and_errors(e, id);
  test_slots_clamp(e, id);
  test_tables(e, id);
  test_counters(e, id);
  e.sc.check("AXI protocol violations seen by the memory model", 0, 0, static_cast<uint64_t>(e.mem.violations));
  e.sc.check("AXI4-Lite violations seen by the master", 0, 0, static_cast<uint64_t>(e.axil.violations));
  std::printf("axi: %" PRIu64 " batches, %" PRIu64 " cycles; memory: %ld read bursts\n", id,
              e.clk.now(), e.mem.rd_bursts);
  return e.sc.finish();
}
