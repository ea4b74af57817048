// tb_axi_selftest.cpp -- self-test of the harness AXI models (tb/common/tb_axi.h) and of the
// accel_bus layer's harness back end, on the copy engine tb/common/tb_axi_selftest_top.v.
//
// The test is a C-style driver (copy_run below) that only sees an accel_bus, as a block's
// driver in sw/<blk>/ would:
//   1. registers: read back, byte strobes, SLVERR at offsets with no register, a local DECERR
//      beyond the register window; the AXI4-Lite master's AW/W order must have been random;
//   2. +n random copy jobs (beat size 1..bus width, bursts of 1..256 beats, lengths up to
//      12 KB across 4 KB boundaries, W before AW in half the jobs, irq or STATUS polling,
//      buffers from mem_alloc or placed at random), each checked byte for byte with guard
//      bytes around the destination; random AR/AW/W/R/B stalls and gaps (+stall, +gap);
//   3. error windows: a read or a write in a SLVERR window, a read beyond the memory (DECERR)
//      end the job with ERROR and the response, and a refused write leaves memory unchanged;
//   4. the streams: a loopback step (host queue -> host queue with random stalls) moved by
//      stream_send/stream_recv; an unknown port is -1;
//   5. the memory model's checker: each BAD_* mode of the top, and each corruption of the top's
//      outputs by a hook that runs before the memory's (strobes outside the lanes, AW/W valid
//      dropped or payload changed while waiting), must be counted as its violation (on a
//      scratch scoreboard), while the legal runs above counted none;
//   6. coverage of the model: 256-beat bursts, narrow bursts, several outstanding bursts per
//      direction, W beats ahead of their AW; the memory idle at the end.
// Last line: "N passed, N failed".
#include "Vtb_axi_selftest_top.h"
#include "tb_axi.h"

typedef Vtb_axi_selftest_top Top;
typedef TbAxiMem<Top> Mem;

static const unsigned kDataBytes = TB_AxiDataW / 8;
static const size_t kMemBytes = 1u << 20;

enum { R_SRC = 0x0, R_DST = 0x4, R_LEN = 0x8, R_CTRL = 0xC };
enum {
  C_START = 1u << 0, C_IRQ_CLR = 1u << 1, C_IRQ_EN = 1u << 2, C_WFIRST = 1u << 16,
  C_BAD_4K = 1u << 17, C_BAD_WLAST = 1u << 18, C_BAD_ARDROP = 1u << 19, C_BAD_ARCHG = 1u << 20,
  S_BUSY = 1u << 0, S_DONE = 1u << 1, S_ERROR = 1u << 24
};

static unsigned log2u(unsigned v) {
  unsigned l = 0;
  while ((1u << l) < v) l++;
  return l;
}

// ---------------------------------------------------------------- the "driver" (accel_bus only)
// Copies len bytes from src to dst in 2^size-byte beats and bursts of at most maxlen + 1 beats.
// Returns the final CTRL/STATUS value, or 0 when the engine did not finish in time.
static uint32_t copy_run(accel_bus *bus, uint32_t src, uint32_t dst, uint32_t len, unsigned size,
                         unsigned maxlen, uint32_t flags, uint64_t timeout) {
  uint32_t cfg = (size << 3) | (maxlen << 8) | flags;
  accel_wr(bus, R_SRC, src);
  accel_wr(bus, R_DST, dst);
  accel_wr(bus, R_LEN, len);
  accel_wr(bus, R_CTRL, cfg | C_START);
  if (flags & C_IRQ_EN) {
    if (bus->wait_irq(bus->ctx, timeout) != 1) return 0;
  } else if (accel_poll(bus, R_CTRL, S_BUSY | S_DONE, S_DONE, timeout) != 1) {
    return 0;
  }
  uint32_t st = accel_rd(bus, R_CTRL);
  accel_wr(bus, R_CTRL, cfg | C_IRQ_CLR);
  return st;
}

// Corrupts the master's outputs after eval, before the memory samples them (registered before
// the memory). Only while the memory's ready is low, so no beat is lost or altered when taken.
// The same for the AXI4-Lite slave's outputs (registered before the master), which the master
// checks.
enum { X_NONE, X_WSTRB, X_AW_DROP, X_AW_CHANGE, X_W_DROP, X_W_CHANGE, X_R_CHANGE, X_B_DROP,
       X_R_SPURIOUS };
struct Corrupt {
  Top *t;
  int mode;
  bool aw_waited, w_waited, b_waited;  // valid && !ready in the previous cycle
};
static void corrupt_step(void *user, int phase) {
  Corrupt *c = static_cast<Corrupt *>(user);
  Top *t = c->t;
  if (phase == TB_DRIVE) return;
  if (phase == TB_RESET || c->mode == X_NONE) {
    c->aw_waited = c->w_waited = c->b_waited = false;
    return;
  }
  bool b_hold = t->s_axil_bvalid_o && !t->s_axil_bready_i;
  bool aw_hold = t->m_axi_awvalid_o && !t->m_axi_awready_i;
  bool w_hold = t->m_axi_wvalid_o && !t->m_axi_wready_i;
  switch (c->mode) {
    case X_WSTRB:
      if (t->m_axi_wvalid_o)
        for (unsigned i = 0; i < kDataBytes; i++) tb_axi_set_bit(t->m_axi_wstrb_o, i, true);
      break;
    case X_AW_DROP:
      if (aw_hold && c->aw_waited) t->m_axi_awvalid_o = 0, aw_hold = false;
      break;
    case X_AW_CHANGE:
      if (aw_hold && !c->aw_waited) t->m_axi_awaddr_o ^= 0x40;
      break;
    case X_W_DROP:
      if (w_hold && c->w_waited) t->m_axi_wvalid_o = 0, w_hold = false;
      break;
    case X_W_CHANGE:
      if (w_hold && !c->w_waited) tb_axi_set_byte(t->m_axi_wdata_o, 0, tb_axi_byte(t->m_axi_wdata_o, 0) ^ 1);
      break;
    case X_R_CHANGE:
      if (t->s_axil_rvalid_o && !t->s_axil_rready_i) t->s_axil_rdata_o ^= 1;
      break;
    case X_B_DROP:
      if (b_hold && c->b_waited) t->s_axil_bvalid_o = 0, b_hold = false;
      break;
    case X_R_SPURIOUS:
      if (t->s_axil_wvalid_i && !t->s_axil_rready_i) t->s_axil_rvalid_o = 1;
      break;
  }
  c->b_waited = b_hold;
  c->aw_waited = aw_hold;
  c->w_waited = w_hold;
}

struct Env {
  TbScore *sc;
  Mem *mem;
  TbAccelBus<Top> *ab;
  accel_bus *bus;
  TbStreamQ *lb_in, *lb_out;  // loopback streams
};

// Loopback "block": moves one beat per cycle from the send queue to the receive queue.
static void loopback_step(void *user, int phase) {
  Env *e = static_cast<Env *>(user);
  if (phase == TB_DRIVE) {
    e->lb_in->src_valid();
    e->lb_out->sink_ready();
  } else if (phase == TB_SAMPLE) {
    if (e->lb_in->valid && e->lb_out->ready) {
      TbStreamBeat b = e->lb_in->front();
      e->lb_in->src_taken();
      e->lb_out->sink_take(b.data, b.id, b.last);
    }
  } else {
    e->lb_in->valid = false;
  }
}

static void test_registers(Env &e, TbAxilMaster<Top> &axil) {
  accel_bus *bus = e.bus;
  accel_err_clear(bus);
  for (int i = 0; i < 40; i++) {
    uint32_t v[3] = {tb_rand_u32(), tb_rand_u32(), tb_rand_u32()};
    for (int r = 0; r < 3; r++) accel_wr(bus, 4 * r, v[r]);
    for (int r = 0; r < 3; r++) e.sc->check("register read back", 4 * r, v[r], accel_rd(bus, 4 * r));
  }
  e.sc->check("no bus error on registers", 0, 0, bus->errors);
  // byte strobes through the BFM directly
  accel_wr(bus, R_SRC, 0x11223344);
  e.sc->check("strobed write response", 0, TB_AXI_OKAY, axil.write32(R_SRC, 0xAABBCCDD, 0x5));
  e.sc->check("strobed write merges bytes", 0, 0x11BB33DD, accel_rd(bus, R_SRC));
  // offsets without a register: SLVERR, recorded by the helpers
  uint32_t v = 0;
  e.sc->check("read of 0x10 fails", 0x10, (uint64_t)-1, (uint64_t)bus->read32(bus->ctx, 0x10, &v));
  e.sc->check("read of 0x10 is SLVERR", 0x10, TB_AXI_SLVERR, e.ab->last_resp);
  e.sc->check("write of 0x3C fails", 0x3C, (uint64_t)-1, (uint64_t)bus->write32(bus->ctx, 0x3C, 1));
  e.sc->check("write of 0x3C is SLVERR", 0x3C, TB_AXI_SLVERR, e.ab->last_resp);
  accel_err_clear(bus);
  accel_rd(bus, 0x20);
  accel_wr(bus, 0x24, 5);
  e.sc->check("helpers count bus errors", 0, 2, bus->errors);
  e.sc->check("first error offset", 0, 0x20, bus->err_off);
  e.sc->check("first error was a read", 0, 0, bus->err_write);
  // beyond the AxilAddrW-bit window: refused before the bus (DECERR)
  uint64_t c0 = bus->now(bus->ctx);
  e.sc->check("read beyond the window fails", 0, (uint64_t)-1,
              (uint64_t)bus->read32(bus->ctx, 1u << TB_AxilAddrW, &v));
  e.sc->check("read beyond the window is DECERR", 0, TB_AXI_DECERR, e.ab->last_resp);
  e.sc->check("a local DECERR takes no cycle", 0, c0, bus->now(bus->ctx));
  accel_err_clear(bus);
}

// One random copy job, checked byte for byte.
static void copy_job(Env &e, long j, const TbArgs &a) {
  accel_bus *bus = e.bus;
  unsigned size = tb_rand_range(0, log2u(kDataBytes)), nb = 1u << size;
  uint32_t len = nb * tb_rand_range(0, 12 * 1024 / nb);
  if (tb_chance(10)) len = nb * tb_rand_range(0, 4);
  unsigned maxlen = tb_chance(30) ? 255 : tb_rand_range(0, 255);
  if (tb_chance(20)) maxlen = tb_rand_range(0, 3);
  uint32_t flags = (tb_chance(50) ? C_WFIRST : 0) | (tb_chance(50) ? C_IRQ_EN : 0);
  uint64_t src, dst;
  if (tb_chance(30)) {
    e.ab->alloc_reset(0x1000);
    src = bus->mem_alloc(bus->ctx, len ? len : 1, nb);
    dst = bus->mem_alloc(bus->ctx, len + 128, 64) + 64 + nb * tb_rand_range(0, 32 / nb);
    e.sc->expect(src != 0 && dst != 0 && src % nb == 0 && dst % nb == 0, "mem_alloc", j);
  } else {
    src = 0x1000 + nb * tb_rand_range(0, (0x60000 - 0x1000) / nb);
    dst = 0x80000 + nb * tb_rand_range(0, (0x60000) / nb);
  }
  std::vector<uint8_t> data(len + 1), before(len + 128), after(len + 128);
  for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<uint8_t>(tb_rand());
  bus->mem_write(bus->ctx, src, data.data(), len);
  for (size_t i = 0; i < before.size(); i++) before[i] = static_cast<uint8_t>(tb_rand());
  bus->mem_write(bus->ctx, dst - 64, before.data(), before.size());

  uint32_t st = copy_run(bus, (uint32_t)src, (uint32_t)dst, len, size, maxlen, flags,
                         200000 + 40ull * len);
  e.sc->check("job finished with DONE, not BUSY/ERROR", j, S_DONE, st & (S_BUSY | S_DONE | S_ERROR));
  e.sc->check("irq low after IRQ_CLR", j, 0, e.ab->irq());
  bus->mem_read(bus->ctx, dst - 64, after.data(), after.size());
  long bad = 0, first = -1;
  for (size_t i = 0; i < after.size(); i++) {
    bool in = i >= 64 && i < 64 + len;
    uint8_t want = in ? data[i - 64] : before[i];
    if (after[i] != want && bad++ == 0) first = (long)i - 64;
  }
  if (!e.sc->check("destination bytes wrong", j, 0, bad))
    std::printf("  job %ld: src 0x%llx dst 0x%llx len %u size %u maxlen %u flags 0x%x; first bad "
                "byte at dst%+ld\n", j, (unsigned long long)src, (unsigned long long)dst, len, size,
                maxlen, flags, first);
  e.sc->check("no bus error in the job", j, 0, bus->errors);
  accel_err_clear(bus);
  (void)a;
}

static void error_jobs(Env &e) {
  accel_bus *bus = e.bus;
  const uint32_t win = 0xF8000;
  e.mem->add_slverr(win, win + 0x1000);
  uint8_t buf[256], chk[256];
  for (int i = 0; i < 256; i++) buf[i] = static_cast<uint8_t>(i * 7 + 3);
  std::memset(chk, 0x5a, sizeof chk);
  // read from the window
  const unsigned sz = log2u(kDataBytes) < 3 ? log2u(kDataBytes) : 3, burst = 16u << sz;
  uint32_t st = copy_run(bus, win + 0x100, 0x90000, 256, sz, 15, C_IRQ_EN, 100000);
  e.sc->check("read in SLVERR window: ERROR", 1, S_DONE | S_ERROR, st & (S_DONE | S_ERROR));
  e.sc->check("read in SLVERR window: response", 1, TB_AXI_SLVERR, (st >> 26) & 3);
  // write into the window: refused, memory unchanged
  bus->mem_write(bus->ctx, win + 0x200, buf, sizeof buf);
  bus->mem_write(bus->ctx, 0x91000, chk, sizeof chk);
  st = copy_run(bus, 0x91000, win + 0x200, 256, 2, 7, 0, 100000);
  e.sc->check("write in SLVERR window: ERROR", 2, S_DONE | S_ERROR, st & (S_DONE | S_ERROR));
  e.sc->check("write in SLVERR window: response", 2, TB_AXI_SLVERR, (st >> 26) & 3);
  bus->mem_read(bus->ctx, win + 0x200, chk, sizeof chk);
  e.sc->expect(std::memcmp(buf, chk, sizeof buf) == 0, "SLVERR write leaves memory unchanged", 2);
  // read beyond the memory
  st = copy_run(bus, kMemBytes - 64, 0x92000, 128, sz, 15, C_IRQ_EN, 100000);
  e.sc->check("read beyond memory: ERROR", 3, S_DONE | S_ERROR, st & (S_DONE | S_ERROR));
  e.sc->check("read beyond memory: response", 3, TB_AXI_DECERR, (st >> 26) & 3);
  // read bursts of 16 beats: 256 bytes in the window, then (split at the 4 KB boundary) 64 OKAY
  // bytes and 64 beyond the memory; writes: 8 bursts of 8 4-byte beats in the window
  e.sc->check("error bursts counted (reads)", 3, 256 / burst + (64 + burst - 1) / burst, e.mem->rd_errors);
  e.sc->check("error bursts counted (writes)", 3, 8, e.mem->wr_errors);
  e.mem->slverr.clear();
  accel_err_clear(bus);
}

static void stream_test(Env &e) {
  accel_bus *bus = e.bus;
  const int n = 300;
  int sent = 0, got = 0, bad = 0;
  uint64_t d;
  unsigned id;
  int last;
  e.sc->check("stream_send to no port", 0, (uint64_t)-1, (uint64_t)bus->stream_send(bus->ctx, 1, 0, 0, 0));
  e.sc->check("stream_recv from no port", 0, (uint64_t)-1,
              (uint64_t)bus->stream_recv(bus->ctx, 1, &d, &id, &last));
  e.sc->check("stream_recv of an empty stream", 0, 0, bus->stream_recv(bus->ctx, 0, &d, &id, &last));
  for (long guard = 0; got < n && guard < 100000; guard++) {
    if (sent < n && tb_chance(60)) {
      bus->stream_send(bus->ctx, 0, 0x1234567800000000ull + sent, sent % 16, sent % 8 == 7);
      sent++;
    }
    int r = bus->stream_recv(bus->ctx, 0, &d, &id, &last);
    if (r == 1) {
      bad += d != 0x1234567800000000ull + got || id != (unsigned)got % 16 || last != (got % 8 == 7);
      got++;
    }
  }
  e.sc->check("stream beats back", 0, n, got);
  e.sc->check("stream beats in order, intact", 0, 0, bad);
}

// One job of a BAD_* mode on a scratch scoreboard: the violation must be counted.
static void bad_job(Env &e, const char *what, uint32_t flags, int kind, uint32_t src, uint32_t len,
                    unsigned size, unsigned maxlen) {
  TbScore scratch("deliberate violation (expected)");
  scratch.max_print = 1;  // one example message per mode
  TbScore *keep = e.mem->sc;
  e.mem->sc = &scratch;
  long before = e.mem->viol[kind], total = e.mem->violations;
  uint32_t st = copy_run(e.bus, src, 0xA0000, len, size, maxlen, flags, 200000);
  e.mem->sc = keep;
  e.sc->check("BAD job finished", kind, S_DONE, st & (S_BUSY | S_DONE));
  char msg[96];
  std::snprintf(msg, sizeof msg, "%s counted by the memory model", what);
  e.sc->expect(e.mem->viol[kind] > before, msg, kind);
  std::snprintf(msg, sizeof msg, "%s: nothing else counted", what);
  e.sc->check(msg, kind, e.mem->violations - total, e.mem->viol[kind] - before);
  accel_err_clear(e.bus);
}

// Register traffic with the slave's outputs corrupted: the master must count a violation.
static void lite_bad(Env &e, TbAxilMaster<Top> &axil, Corrupt &c, const char *what, int mode) {
  TbScore scratch("deliberate violation (expected)");
  scratch.max_print = 1;
  TbScore *keep = axil.sc;
  long before = axil.violations;
  int stall = axil.stall.pct;
  axil.sc = &scratch;
  axil.stall.pct = 60;
  c.mode = mode;
  for (int i = 0; i < 50; i++) {
    accel_wr(e.bus, R_DST, tb_rand_u32());
    accel_rd(e.bus, R_DST);
  }
  c.mode = X_NONE;
  e.bus->idle(e.bus->ctx, 2);
  axil.sc = keep;
  axil.stall.pct = stall;
  char msg[96];
  std::snprintf(msg, sizeof msg, "%s counted by the AXI4-Lite master", what);
  e.sc->expect(axil.violations > before, msg, mode);
  accel_err_clear(e.bus);
}

int main(int argc, char **argv) {
  TbArgs a;
  char name[64];
  std::snprintf(name, sizeof name, "axi_selftest D%d", TB_AxiDataW);
  tb_init(argc, argv, name, 100, &a);
  TbSim<Top> sim(a, 50000000);
  TbScore sc(name);
  TbCycle<Top> clk(sim);
  Corrupt corrupt = {sim.top, X_NONE, false, false, false};
  clk.add(corrupt_step, &corrupt);
  TbAxilMaster<Top> axil(clk, &sc, TB_AxilAddrW, a.gap_pct, a.stall_pct);
  Mem mem(clk, &sc, kMemBytes, a.stall_pct, a.gap_pct);
  mem.fill_random();
  TbAccelBus<Top> ab(clk, axil, &mem);
  TbStreamQ lb_in(a.gap_pct), lb_out(a.stall_pct);
  Env e = {&sc, &mem, &ab, &ab.bus, &lb_in, &lb_out};
  ab.add_send_port(&lb_in);
  ab.add_recv_port(&lb_out);
  ab.add_step(loopback_step, &e);
  clk.reset();

  test_registers(e, axil);
  // the bump allocator
  accel_bus *bus = e.bus;
  ab.alloc_reset(0x1000);
  sc.check("mem_alloc first", 0, 0x1000, bus->mem_alloc(bus->ctx, 10, 0));
  sc.check("mem_alloc aligned", 0, 0x1100, bus->mem_alloc(bus->ctx, 10, 256));
  sc.check("mem_alloc too big", 0, 0, bus->mem_alloc(bus->ctx, kMemBytes, 8));
  sc.check("mem_alloc bad align", 0, 0, bus->mem_alloc(bus->ctx, 8, 24));
  sc.check("mem_write beyond", 0, (uint64_t)-1, (uint64_t)bus->mem_write(bus->ctx, kMemBytes - 2, "abcd", 4));

  for (long j = 0; j < a.n && !sim.timed_out; j++) copy_job(e, j, a);
  error_jobs(e);
  stream_test(e);
  sc.check("no protocol violation in legal traffic", 0, 0, mem.violations + axil.violations);

  // the checker must catch each broken rule
  const unsigned s2 = log2u(kDataBytes) < 3 ? log2u(kDataBytes) : 3;
  bad_job(e, "4 KB crossing", C_BAD_4K, Mem::V_4K, 0x3F80, 0x200, s2, 63);
  bad_job(e, "early WLAST", C_BAD_WLAST, Mem::V_WLAST, 0x5000, 0x200, s2, 15);
  mem.ar_stall.pct = 90;
  bad_job(e, "ARVALID dropped", C_BAD_ARDROP, Mem::V_AR_DROP, 0x6000, 0x400, s2, 7);
  bad_job(e, "AR payload changed", C_BAD_ARCHG, Mem::V_AR_CHANGE, 0x7000, 0x400, s2, 7);
  mem.ar_stall.pct = a.stall_pct;
  mem.set_stall(60);
  const struct { const char *what; int mode, kind; unsigned size; } xs[] = {
      {"WSTRB outside the lanes", X_WSTRB, Mem::V_WSTRB, 0},
      {"AWVALID dropped", X_AW_DROP, Mem::V_AW_DROP, s2},
      {"AW payload changed", X_AW_CHANGE, Mem::V_AW_CHANGE, s2},
      {"WVALID dropped", X_W_DROP, Mem::V_W_DROP, s2},
      {"W payload changed", X_W_CHANGE, Mem::V_W_CHANGE, s2}};
  for (const auto &x : xs) {
    corrupt.mode = x.mode;
    bad_job(e, x.what, 0, x.kind, 0xB000, 0x800, x.size, 7);
    corrupt.mode = X_NONE;
  }
  mem.set_stall(a.stall_pct);
  lite_bad(e, axil, corrupt, "RDATA changed before RREADY", X_R_CHANGE);
  lite_bad(e, axil, corrupt, "BVALID dropped before BREADY", X_B_DROP);
  lite_bad(e, axil, corrupt, "RVALID during a write", X_R_SPURIOUS);
  if (kDataBytes < 128) bad_job(e, "AxSIZE wider than the bus", 0, Mem::V_SIZE, 0x8000, 0x100, log2u(kDataBytes) + 1, 3);

  ab.s_idle(&ab, 100);
  mem.check_idle("at the end");
  sc.expect(mem.rd_max_len == 255 && mem.wr_max_len == 255, "256-beat bursts seen", 0);
  sc.expect(mem.narrow > 0, "narrow bursts seen", 0);
  sc.expect(mem.rd_max_out >= 2 && mem.wr_max_out >= 2, "several bursts outstanding per direction", 0);
  sc.expect(mem.w_early > 0, "W beats ahead of their AW", 0);
  if (a.gap_pct > 0)
    sc.expect(axil.aw_first > 0 && axil.w_first > 0 && axil.aw_w_same > 0,
              "AXI4-Lite AW before W, W before AW, and together", 0);
  sc.expect(!sim.timed_out, "no timeout", sim.cycle);
  mem.report(name);
  std::printf("%s: (every violation above comes from the deliberate BAD_*/corruption jobs)\n", name);
  std::printf("%s: AXI4-Lite %ld writes %ld reads (AW first %ld, W first %ld, together %ld); "
              "max outstanding rd %zu wr %zu; %llu cycles\n", name, axil.writes, axil.reads,
              axil.aw_first, axil.w_first, axil.aw_w_same, mem.rd_max_out, mem.wr_max_out,
              (unsigned long long)sim.cycle);
  return sc.finish();
}
