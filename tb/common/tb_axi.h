// tb_axi.h -- AXI simulation models for Verilator harnesses of the AXI shell tops
// (docs/axi_shell.md port names; docs/axi_drivers.md is the guide). Header only.
//
//   TbCycle<T>          the per-cycle scheduler: every agent (and the harness's own "step"
//                       functions) registers a hook; cycle() calls each hook's DRIVE phase (set
//                       inputs), eval()s, calls each SAMPLE phase (handshakes), then ticks.
//                       Every model below advances time only through cycle(), so the memory
//                       keeps serving and the streams keep moving while a driver polls.
//   TbAxilMaster<T,P>   AXI4-Lite master BFM on s_axil_*: read32/write32 (blocking; they run
//                       cycles until the response). AW and W each wait a random number of
//                       cycles (TbStall gap) before valid rises, so they come in either order
//                       or together; bready/rready are random (TbStall stall). Valid and
//                       payload are held until ready (the reference master); idle payload is
//                       random. Checks the slave: no B before both AW and W handshakes, no R
//                       before AR, B/R held (valid and payload) until accepted.
//   TbMemStore          a flat byte array with host-side read/write (zero time)
//   TbAxiMem<T,P>       AXI4 slave memory on m_axi_* over a TbMemStore: random AR/AW/W ready
//                       backpressure, R after a random latency with random gaps, B after a
//                       random latency (independent of bready), several outstanding bursts per
//                       direction answered in order, W beats before their AW buffered (legal),
//                       FIXED/INCR/WRAP bursts, any size up to the bus width (narrow beats on
//                       their byte lanes, the other lanes of R carry random bytes), SLVERR in
//                       error windows, DECERR beyond the memory. It checks the master and counts
//                       each violation (and fails the scoreboard with a message): a burst
//                       crossing 4 KB, len > 255 (INCR) / > 15 (FIXED), bad WRAP length or
//                       alignment, size wider than the bus, burst type 3, WLAST not exactly on
//                       the last beat, WSTRB outside the beat's lanes, AR/AW/W valid dropped
//                       or payload changed while valid && !ready.
//   TbStreamQ           a queue of AXI-Stream beats {data, id, last} with TbStall gaps, which a
//                       block's harness binds to its own s_axis_*/m_axis_* ports in its step.
//   TbAccelBus<T,P>     an accel_bus (sw/common/accel_bus.h) over all of these, so a C driver
//                       runs unchanged in the harness.
//
// Binding a top: the models read the ports through a binding struct P with one static
// accessor per signal. TbAxilPorts<T> (prefix s_axil_) and TbAxiPorts<T> (prefix m_axi_) are
// the shell's; TB_AXIL_PORTS(Name, prefix) / TB_AXI_PORTS(Name, prefix) make others.
// Data ports of any width work (scalar or VlWide); the bus width is the data port's size.
#ifndef TB_AXI_H
#define TB_AXI_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include "common/accel_bus.h"
#include "tb_lib.h"

// ================================================================ the per-cycle scheduler
enum { TB_DRIVE = 0, TB_SAMPLE = 1, TB_RESET = 2 };
typedef void (*TbStepFn)(void *user, int phase);

template <class T>
struct TbCycle {
  struct Hook {
    TbStepFn fn;
    void *user;
  };
  TbSim<T> &sim;
  std::vector<Hook> hooks;
  explicit TbCycle(TbSim<T> &s) : sim(s) {}
  // Hooks run in registration order in each phase.
  void add(TbStepFn fn, void *user) { hooks.push_back(Hook{fn, user}); }
  // One clock cycle: DRIVE, eval, SAMPLE, tick. False once the simulation has timed out.
  bool cycle() {
    for (size_t i = 0; i < hooks.size(); i++) hooks[i].fn(hooks[i].user, TB_DRIVE);
    sim.top->eval();
    for (size_t i = 0; i < hooks.size(); i++) hooks[i].fn(hooks[i].user, TB_SAMPLE);
    return sim.tick();
  }
  // RESET phase (agents drop their state and drive idle inputs), then TbSim::reset.
  void reset(int cycles = 3) {
    for (size_t i = 0; i < hooks.size(); i++) hooks[i].fn(hooks[i].user, TB_RESET);
    sim.top->eval();
    sim.reset(cycles);
  }
  uint64_t now() const { return sim.cycle; }
  bool timed_out() const { return sim.timed_out; }
};

// ================================================================ port bindings
#define TB_AXI_PORT_(fn, sig) \
  static auto fn(T *t)->decltype((t->sig)) { return t->sig; }

#define TB_AXIL_PORTS(Name, pfx)                                                              \
  template <class T>                                                                        \
  struct Name {                                                                             \
    TB_AXI_PORT_(awvalid, pfx##awvalid_i) TB_AXI_PORT_(awready, pfx##awready_o)             \
    TB_AXI_PORT_(awaddr, pfx##awaddr_i) TB_AXI_PORT_(awprot, pfx##awprot_i)                 \
    TB_AXI_PORT_(wvalid, pfx##wvalid_i) TB_AXI_PORT_(wready, pfx##wready_o)                 \
    TB_AXI_PORT_(wdata, pfx##wdata_i) TB_AXI_PORT_(wstrb, pfx##wstrb_i)                     \
    TB_AXI_PORT_(bvalid, pfx##bvalid_o) TB_AXI_PORT_(bready, pfx##bready_i)                 \
    TB_AXI_PORT_(bresp, pfx##bresp_o) TB_AXI_PORT_(arvalid, pfx##arvalid_i)                 \
    TB_AXI_PORT_(arready, pfx##arready_o) TB_AXI_PORT_(araddr, pfx##araddr_i)               \
    TB_AXI_PORT_(arprot, pfx##arprot_i) TB_AXI_PORT_(rvalid, pfx##rvalid_o)                 \
    TB_AXI_PORT_(rready, pfx##rready_i) TB_AXI_PORT_(rdata, pfx##rdata_o)                   \
    TB_AXI_PORT_(rresp, pfx##rresp_o)                                                       \
  };

#define TB_AXI_PORTS(Name, pfx)                                                               \
  template <class T>                                                                        \
  struct Name {                                                                             \
    TB_AXI_PORT_(awvalid, pfx##awvalid_o) TB_AXI_PORT_(awready, pfx##awready_i)             \
    TB_AXI_PORT_(awid, pfx##awid_o) TB_AXI_PORT_(awaddr, pfx##awaddr_o)                     \
    TB_AXI_PORT_(awlen, pfx##awlen_o) TB_AXI_PORT_(awsize, pfx##awsize_o)                   \
    TB_AXI_PORT_(awburst, pfx##awburst_o) TB_AXI_PORT_(awlock, pfx##awlock_o)               \
    TB_AXI_PORT_(awcache, pfx##awcache_o) TB_AXI_PORT_(awprot, pfx##awprot_o)               \
    TB_AXI_PORT_(wvalid, pfx##wvalid_o) TB_AXI_PORT_(wready, pfx##wready_i)                 \
    TB_AXI_PORT_(wdata, pfx##wdata_o) TB_AXI_PORT_(wstrb, pfx##wstrb_o)                     \
    TB_AXI_PORT_(wlast, pfx##wlast_o) TB_AXI_PORT_(bvalid, pfx##bvalid_i)                   \
    TB_AXI_PORT_(bready, pfx##bready_o) TB_AXI_PORT_(bid, pfx##bid_i)                       \
    TB_AXI_PORT_(bresp, pfx##bresp_i) TB_AXI_PORT_(arvalid, pfx##arvalid_o)                 \
    TB_AXI_PORT_(arready, pfx##arready_i) TB_AXI_PORT_(arid, pfx##arid_o)                   \
    TB_AXI_PORT_(araddr, pfx##araddr_o) TB_AXI_PORT_(arlen, pfx##arlen_o)                   \
    TB_AXI_PORT_(arsize, pfx##arsize_o) TB_AXI_PORT_(arburst, pfx##arburst_o)               \
    TB_AXI_PORT_(arlock, pfx##arlock_o) TB_AXI_PORT_(arcache, pfx##arcache_o)               \
    TB_AXI_PORT_(arprot, pfx##arprot_o) TB_AXI_PORT_(rvalid, pfx##rvalid_i)                 \
    TB_AXI_PORT_(rready, pfx##rready_o) TB_AXI_PORT_(rid, pfx##rid_i)                       \
    TB_AXI_PORT_(rdata, pfx##rdata_i) TB_AXI_PORT_(rresp, pfx##rresp_i)                     \
    TB_AXI_PORT_(rlast, pfx##rlast_i)                                                       \
  };

TB_AXIL_PORTS(TbAxilPorts, s_axil_)
TB_AXI_PORTS(TbAxiPorts, m_axi_)

// Byte and bit access on data/strobe ports of any width.
template <class P>
inline uint32_t tb_axi_byte(const P &p, unsigned i) {
  return static_cast<uint32_t>(static_cast<uint64_t>(p) >> (8 * i)) & 0xffu;
}
template <std::size_t N>
inline uint32_t tb_axi_byte(const VlWide<N> &p, unsigned i) {
  return (p[i / 4] >> (8 * (i % 4))) & 0xffu;
}
template <class P>
inline void tb_axi_set_byte(P &p, unsigned i, uint32_t v) {
  uint64_t m = 0xffull << (8 * i);
  p = static_cast<P>((static_cast<uint64_t>(p) & ~m) | ((static_cast<uint64_t>(v & 0xff)) << (8 * i)));
}
template <std::size_t N>
inline void tb_axi_set_byte(VlWide<N> &p, unsigned i, uint32_t v) {
  uint32_t sh = 8 * (i % 4);
  p[i / 4] = (p[i / 4] & ~(0xffu << sh)) | ((v & 0xffu) << sh);
}
template <class P>
inline bool tb_axi_bit(const P &p, unsigned i) {
  return (static_cast<uint64_t>(p) >> i) & 1;
}
template <std::size_t N>
inline bool tb_axi_bit(const VlWide<N> &p, unsigned i) {
  return (p[i / 32] >> (i % 32)) & 1;
}
template <class P>
inline void tb_axi_set_bit(P &p, unsigned i, bool v) {
  uint64_t m = 1ull << i;
  p = static_cast<P>(v ? (static_cast<uint64_t>(p) | m) : (static_cast<uint64_t>(p) & ~m));
}
template <std::size_t N>
inline void tb_axi_set_bit(VlWide<N> &p, unsigned i, bool v) {
  if (v)
    p[i / 32] |= 1u << (i % 32);
  else
    p[i / 32] &= ~(1u << (i % 32));
}

// A protocol violation: counted by the caller, printed (first 8) through the scoreboard.
inline void tb_axi_violation(TbScore *sc, long *count, uint64_t cycle, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
inline void tb_axi_violation(TbScore *sc, long *count, uint64_t cycle, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  (*count)++;
  if (sc)
    sc->expect(false, msg, cycle);
  else if (*count <= 8)
    std::fprintf(stderr, "AXI violation at cycle %llu: %s\n", (unsigned long long)cycle, msg);
}

enum { TB_AXI_OKAY = 0, TB_AXI_EXOKAY = 1, TB_AXI_SLVERR = 2, TB_AXI_DECERR = 3 };

// ================================================================ AXI4-Lite master
template <class T, class P = TbAxilPorts<T>>
struct TbAxilMaster {
  enum { NONE, WRITE, READ };
  TbCycle<T> &clk;
  TbScore *sc;
  int addr_bits;           // the slave's address width (AxilAddrW; the port must be this wide):
                           // a wider address is a local DECERR
  TbStall gap, stall;      // valid delay / bready, rready low (percent of cycles)
  uint64_t op_timeout;     // cycles one access may take (0: only the simulation's timeout)
  // the access in flight
  int op = NONE;
  uint32_t addr = 0, data = 0, strb = 0;
  bool aw_v = false, w_v = false, ar_v = false;
  bool aw_done = false, w_done = false, ar_done = false, done = false;
  bool bready = false, rready = false;
  int resp = 0;
  uint32_t rdata = 0;
  // the slave's B/R holding
  bool b_wait = false, r_wait = false;
  uint32_t b_snap = 0, r_snap = 0, r_snap_resp = 0;
  // statistics
  long writes = 0, reads = 0, aw_first = 0, w_first = 0, aw_w_same = 0, violations = 0;

  TbAxilMaster(TbCycle<T> &c, TbScore *s, int addr_w = 32, int gap_pct = 30, int stall_pct = 30)
      : clk(c), sc(s), addr_bits(addr_w), gap(gap_pct), stall(stall_pct), op_timeout(100000) {
    clk.add(hook, this);
  }
  static void hook(void *u, int ph) {
    TbAxilMaster *m = static_cast<TbAxilMaster *>(u);
    if (ph == TB_DRIVE) m->drive();
    else if (ph == TB_SAMPLE) m->sample();
    else m->reset();
  }
  uint32_t mask() const { return addr_bits >= 32 ? ~0u : (1u << addr_bits) - 1; }

  void reset() {
    op = NONE;
    aw_v = w_v = ar_v = bready = rready = false;
    b_wait = r_wait = false;
    T *t = clk.sim.top;
    P::awvalid(t) = 0;
    P::wvalid(t) = 0;
    P::arvalid(t) = 0;
    P::bready(t) = 0;
    P::rready(t) = 0;
    P::awaddr(t) = 0;
    P::araddr(t) = 0;
    P::awprot(t) = 0;
    P::arprot(t) = 0;
    P::wdata(t) = 0;
    P::wstrb(t) = 0;
  }

  void drive() {
    T *t = clk.sim.top;
    if (op == WRITE) {
      if (!aw_done && !aw_v && !gap.next()) aw_v = true;
      if (!w_done && !w_v && !gap.next()) w_v = true;
    }
    if (op == READ && !ar_done && !ar_v && !gap.next()) ar_v = true;
    P::awvalid(t) = aw_v;
    P::awaddr(t) = (aw_v ? addr : tb_rand_u32()) & mask();
    P::awprot(t) = 0;
    P::wvalid(t) = w_v;
    P::wdata(t) = w_v ? data : tb_rand_u32();
    P::wstrb(t) = (w_v ? strb : tb_rand_u32()) & 0xf;
    P::arvalid(t) = ar_v;
    P::araddr(t) = (ar_v ? addr : tb_rand_u32()) & mask();
    P::arprot(t) = 0;
    bready = op == WRITE && !done && !stall.next();
    rready = op == READ && !done && !stall.next();
    P::bready(t) = bready;
    P::rready(t) = rready;
  }

  void sample() {
    T *t = clk.sim.top;
    uint64_t cyc = clk.now();
    bool bv = P::bvalid(t), rv = P::rvalid(t);
    uint32_t br = P::bresp(t), rd = P::rdata(t), rr = P::rresp(t);
    // the slave's side of the contract
    if (b_wait && (!bv || br != b_snap))
      tb_axi_violation(sc, &violations, cyc, "AXI4-Lite slave: BVALID dropped or BRESP changed before BREADY");
    if (r_wait && (!rv || rd != r_snap || rr != r_snap_resp))
      tb_axi_violation(sc, &violations, cyc, "AXI4-Lite slave: RVALID dropped or RDATA/RRESP changed before RREADY");
    if (bv && !b_wait && !(op == WRITE && aw_done && w_done && !done))
      tb_axi_violation(sc, &violations, cyc, "AXI4-Lite slave: BVALID before the AW and W handshakes of a write");
    if (rv && !r_wait && !(op == READ && ar_done && !done))
      tb_axi_violation(sc, &violations, cyc, "AXI4-Lite slave: RVALID without an accepted AR");
    b_wait = bv && !bready;
    r_wait = rv && !rready;
    b_snap = br;
    r_snap = rd;
    r_snap_resp = rr;
    // handshakes (B/R first: they must follow the address/data handshakes of earlier cycles)
    if (op == WRITE && bv && bready && aw_done && w_done && !done) {
      resp = static_cast<int>(br);
      done = true;
    }
    if (op == READ && rv && rready && ar_done && !done) {
      resp = static_cast<int>(rr);
      rdata = rd;
      done = true;
    }
    bool awf = aw_v && P::awready(t), wf = w_v && P::wready(t);
    if (awf && wf) aw_w_same++;
    else if (awf && !w_done) aw_first++;
    else if (wf && !aw_done) w_first++;
    if (awf) aw_v = false, aw_done = true;
    if (wf) w_v = false, w_done = true;
    if (ar_v && P::arready(t)) ar_v = false, ar_done = true;
  }

  // Runs cycles until the access completes: its response (TB_AXI_*), or -1 on a timeout.
  int run() {
    uint64_t t0 = clk.now();
    while (!done) {
      if (clk.timed_out() || (op_timeout && clk.now() - t0 > op_timeout)) {
        if (!clk.timed_out())  // (after the simulation's timeout the harness reports that)
          tb_axi_violation(sc, &violations, clk.now(), "AXI4-Lite: no response to a %s of 0x%x",
                           op == WRITE ? "write" : "read", addr);
        op = NONE;
        aw_v = w_v = ar_v = false;
        return -1;
      }
      clk.cycle();
    }
    op = NONE;
    return resp;
  }
  int write32(uint32_t a, uint32_t d, uint32_t s = 0xf) {
    if (a & ~mask()) return TB_AXI_DECERR;
    op = WRITE;
    addr = a, data = d, strb = s & 0xf;
    aw_done = w_done = done = false;
    writes++;
    return run();
  }
  int read32(uint32_t a, uint32_t *d) {
    if (a & ~mask()) return TB_AXI_DECERR;
    op = READ;
    addr = a;
    ar_done = done = false;
    reads++;
    int r = run();
    if (r >= 0 && d) *d = rdata;
    return r;
  }
};

// ================================================================ memory
struct TbMemStore {
  std::vector<uint8_t> m;
  explicit TbMemStore(size_t bytes) : m(bytes, 0) {}
  uint64_t size() const { return m.size(); }
  bool in(uint64_t a, size_t n) const { return a <= m.size() && n <= m.size() - a; }
  bool write(uint64_t a, const void *src, size_t n) {
    if (!in(a, n) || (n && !src)) return false;
    if (n) std::memcpy(&m[a], src, n);
    return true;
  }
  bool read(uint64_t a, void *dst, size_t n) const {
    if (!in(a, n) || (n && !dst)) return false;
    if (n) std::memcpy(dst, &m[a], n);
    return true;
  }
  void fill_random() {
    for (size_t i = 0; i < m.size(); i++) m[i] = static_cast<uint8_t>(tb_rand());
  }
};

// INCR bursts a master owes for `beats` full beats of `bytes` bytes from addr when it splits at
// every 4 KB boundary and after max_burst beats (the rule of cc_axi_burst_gen): the reference
// count a harness compares the master's bursts with.
inline unsigned tb_axi_bursts(uint64_t addr, uint64_t beats, unsigned bytes, unsigned max_burst) {
  unsigned n = 0;
  while (beats) {
    uint64_t to_page = (4096 - (addr & 4095)) / bytes;
    uint64_t b = beats < to_page ? beats : to_page;
    if (b > max_burst) b = max_burst;
    addr += b * bytes;
    beats -= b;
    n++;
  }
  return n;
}

// Address of beat i of an AXI burst (AXI4 A3.4.1).
inline uint64_t tb_axi_beat_addr(uint64_t addr, unsigned len, unsigned size, unsigned burst,
                                 unsigned i) {
  uint64_t nb = 1ull << size, aligned = addr & ~(nb - 1);
  if (burst == 0 || i == 0) return addr;
  if (burst == 2) {  // WRAP
    uint64_t total = nb * (len + 1), lower = aligned & ~(total - 1);
    return lower + ((aligned - lower + i * nb) % total);
  }
  return aligned + i * nb;
}

template <class T, class P = TbAxiPorts<T>>
struct TbAxiMem : TbMemStore {
  enum {
    V_4K, V_LEN, V_SIZE, V_BURST, V_WRAP, V_WLAST, V_WSTRB,
    V_AR_DROP, V_AR_CHANGE, V_AW_DROP, V_AW_CHANGE, V_W_DROP, V_W_CHANGE, V_N
  };
  struct Burst {
    uint64_t addr;
    unsigned len, size, burst, id, lock, cache, prot;
    uint64_t ready_at;  // first cycle its response may start (R data, or B)
    unsigned beat;      // beats done
    int resp;           // B: worst response of its beats
    bool operator!=(const Burst &o) const {
      return addr != o.addr || len != o.len || size != o.size || burst != o.burst || id != o.id ||
             lock != o.lock || cache != o.cache || prot != o.prot;
    }
  };
  struct WBeat {
    std::vector<uint8_t> data, strb;
    bool last;
    bool operator!=(const WBeat &o) const {
      return data != o.data || strb != o.strb || last != o.last;
    }
  };
  struct Window {
    uint64_t lo, hi;
  };

  TbCycle<T> &clk;
  TbScore *sc;
  unsigned db;  // bus bytes
  unsigned db_log2;
  // knobs
  TbStall ar_stall, aw_stall, w_stall;  // ready low
  TbStall r_gap, b_gap;                 // valid low before a beat
  unsigned rd_lat_min = 1, rd_lat_max = 12, wr_lat_min = 0, wr_lat_max = 8;
  size_t max_rd = 8, max_wr = 8, max_wbuf = 512;  // outstanding bursts / W beats ahead of AW
  std::vector<Window> slverr;                      // SLVERR windows [lo, hi)
  // state
  std::deque<Burst> rq, awq, bq;
  std::deque<WBeat> wbuf;
  bool ar_rdy = false, aw_rdy = false, w_rdy = false, r_v = false, b_v = false;
  std::vector<uint8_t> r_bytes;
  int r_resp = 0;
  bool ar_wait = false, aw_wait = false, w_wait = false;
  Burst ar_snap{}, aw_snap{};
  WBeat w_snap, w_cur;
  // counters
  long rd_bursts = 0, rd_beats = 0, rd_bytes = 0, rd_errors = 0;
  long wr_bursts = 0, wr_beats = 0, wr_bytes = 0, wr_errors = 0;
  long viol[V_N] = {};
  long violations = 0;
  // coverage of what the master did
  unsigned rd_max_len = 0, wr_max_len = 0;  // longest AxLEN seen
  size_t rd_max_out = 0, wr_max_out = 0;    // most bursts outstanding at once
  long w_early = 0;                         // W beats accepted with no AW to take them
  long narrow = 0;                          // bursts with AxSIZE below the bus width

  TbAxiMem(TbCycle<T> &c, TbScore *s, size_t bytes, int stall_pct = 30, int gap_pct = 30)
      : TbMemStore(bytes), clk(c), sc(s), ar_stall(stall_pct), aw_stall(stall_pct),
        w_stall(stall_pct), r_gap(gap_pct), b_gap(gap_pct) {
    db = sizeof(P::rdata(c.sim.top));
    db_log2 = 0;
    while ((1u << db_log2) < db) db_log2++;
    r_bytes.assign(db, 0);
    clk.add(hook, this);
  }
  static void hook(void *u, int ph) {
    TbAxiMem *m = static_cast<TbAxiMem *>(u);
    if (ph == TB_DRIVE) m->drive();
    else if (ph == TB_SAMPLE) m->sample();
    else m->reset();
  }
  void add_slverr(uint64_t lo, uint64_t hi) { slverr.push_back(Window{lo, hi}); }
  void set_stall(int pct) { ar_stall.pct = aw_stall.pct = w_stall.pct = pct; }
  void set_gap(int pct) { r_gap.pct = b_gap.pct = pct; }
  bool idle() const {
    return rq.empty() && awq.empty() && bq.empty() && wbuf.empty() && !r_v && !b_v;
  }

  // Response of the bytes [lo, hi).
  int resp_of(uint64_t lo, uint64_t hi) const {
    if (hi > size()) return TB_AXI_DECERR;
    for (size_t i = 0; i < slverr.size(); i++)
      if (lo < slverr[i].hi && slverr[i].lo < hi) return TB_AXI_SLVERR;
    return TB_AXI_OKAY;
  }
  void fail(int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4))) {
    char msg[224];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    viol[kind]++;
    tb_axi_violation(sc, &violations, clk.now(), "AXI master: %s", msg);
  }
  // The burst rules at the address handshake.
  void check_burst(const Burst &b, const char *ch) {
    uint64_t nb = 1ull << b.size;
    unsigned long long a = b.addr;
    if (b.size > db_log2)
      fail(V_SIZE, "%sSIZE %u wider than the %u-byte bus (%sADDR 0x%llx)", ch, b.size, db, ch, a);
    if (b.burst == 3) fail(V_BURST, "%sBURST 3 (reserved) at 0x%llx", ch, a);
    if (b.len > 255) fail(V_LEN, "%sLEN %u > 255 at 0x%llx", ch, b.len, a);
    if (b.burst == 0 && b.len > 15) fail(V_LEN, "FIXED burst %sLEN %u > 15 at 0x%llx", ch, b.len, a);
    if (b.burst == 2 && ((b.len != 1 && b.len != 3 && b.len != 7 && b.len != 15) || (a & (nb - 1))))
      fail(V_WRAP, "WRAP burst %sLEN %u at 0x%llx (needs 2/4/8/16 beats, a size-aligned address)",
           ch, b.len, a);
    if (b.burst == 1) {
      uint64_t last = (b.addr & ~(nb - 1)) + nb * (b.len + 1) - 1;
      if ((b.addr >> 12) != (last >> 12))
        fail(V_4K, "%s burst crosses a 4 KB boundary: %sADDR 0x%llx %sLEN %u %sSIZE %u", ch, ch, a,
             ch, b.len, ch, b.size);
    }
  }
  // Bytes [lo, hi) of beat i (the beat's part of its size-aligned container, clipped to the bus).
  void beat_range(const Burst &b, unsigned i, uint64_t *lo, uint64_t *hi) const {
    unsigned size = b.size > db_log2 ? db_log2 : b.size;
    uint64_t nb = 1ull << size;
    *lo = tb_axi_beat_addr(b.addr, b.len, size, b.burst, i);
    *hi = (*lo & ~(nb - 1)) + nb;
  }

  void reset() {
    rq.clear(), awq.clear(), bq.clear(), wbuf.clear();
    ar_rdy = aw_rdy = w_rdy = r_v = b_v = false;
    ar_wait = aw_wait = w_wait = false;
    T *t = clk.sim.top;
    P::arready(t) = 0;
    P::awready(t) = 0;
    P::wready(t) = 0;
    P::rvalid(t) = 0;
    P::bvalid(t) = 0;
    P::rlast(t) = 0;
    P::rresp(t) = 0;
    P::bresp(t) = 0;
    P::rid(t) = 0;
    P::bid(t) = 0;
  }

  void drive() {
    T *t = clk.sim.top;
    uint64_t now = clk.now();
    ar_rdy = rq.size() < max_rd && !ar_stall.next();
    aw_rdy = awq.size() + bq.size() < max_wr && !aw_stall.next();
    w_rdy = wbuf.size() < max_wbuf && !w_stall.next();
    P::arready(t) = ar_rdy;
    P::awready(t) = aw_rdy;
    P::wready(t) = w_rdy;
    // R: the next beat of the oldest burst once its latency has passed
    if (!r_v && !rq.empty() && rq.front().ready_at <= now && !r_gap.next()) {
      const Burst &b = rq.front();
      uint64_t lo, hi;
      beat_range(b, b.beat, &lo, &hi);
      r_resp = resp_of(lo, hi);
      for (unsigned i = 0; i < db; i++) r_bytes[i] = static_cast<uint8_t>(tb_rand());
      for (uint64_t a = lo; a < hi; a++) {
        if (r_resp == TB_AXI_OKAY) r_bytes[a % db] = m[a];
        rd_bytes++;
      }
      r_v = true;
    }
    P::rvalid(t) = r_v;
    if (r_v) {
      const Burst &b = rq.front();
      for (unsigned i = 0; i < db; i++) tb_axi_set_byte(P::rdata(t), i, r_bytes[i]);
      P::rresp(t) = r_resp;
      P::rid(t) = b.id;
      P::rlast(t) = b.beat == b.len;
    } else {
      for (unsigned i = 0; i < db; i++) tb_axi_set_byte(P::rdata(t), i, tb_rand_u32());
      P::rlast(t) = tb_chance(50);
    }
    // B
    if (!b_v && !bq.empty() && bq.front().ready_at <= now && !b_gap.next()) b_v = true;
    P::bvalid(t) = b_v;
    if (b_v) {
      P::bid(t) = bq.front().id;
      P::bresp(t) = bq.front().resp;
    }
  }

  Burst ar_payload(T *t) const {
    Burst b{};
    b.addr = static_cast<uint64_t>(P::araddr(t));
    b.len = P::arlen(t), b.size = P::arsize(t), b.burst = P::arburst(t), b.id = P::arid(t);
    b.lock = P::arlock(t), b.cache = P::arcache(t), b.prot = P::arprot(t);
    return b;
  }
  Burst aw_payload(T *t) const {
    Burst b{};
    b.addr = static_cast<uint64_t>(P::awaddr(t));
    b.len = P::awlen(t), b.size = P::awsize(t), b.burst = P::awburst(t), b.id = P::awid(t);
    b.lock = P::awlock(t), b.cache = P::awcache(t), b.prot = P::awprot(t);
    return b;
  }
  void w_payload(T *t, WBeat *w) const {
    w->data.resize(db);
    w->strb.resize(db);
    for (unsigned i = 0; i < db; i++) {
      w->data[i] = static_cast<uint8_t>(tb_axi_byte(P::wdata(t), i));
      w->strb[i] = tb_axi_bit(P::wstrb(t), i);
    }
    w->last = P::wlast(t);
  }

  // Applies W beats to the oldest AW while both are there.
  void apply_writes() {
    while (!awq.empty() && !wbuf.empty()) {
      Burst &b = awq.front();
      const WBeat &w = wbuf.front();
      uint64_t lo, hi;
      beat_range(b, b.beat, &lo, &hi);
      int r = resp_of(lo, hi);
      for (unsigned i = 0; i < db; i++) {
        if (!w.strb[i]) continue;
        // the lane's byte address within this beat's container
        uint64_t a = (lo & ~static_cast<uint64_t>(db - 1)) + i;
        if (a < lo || a >= hi) {
          fail(V_WSTRB, "WSTRB lane %u set outside beat %u of the burst at 0x%llx (bytes 0x%llx..0x%llx)",
               i, b.beat, (unsigned long long)b.addr, (unsigned long long)lo,
               (unsigned long long)hi - 1);
          continue;
        }
        if (r == TB_AXI_OKAY) m[a] = w.data[i];
        wr_bytes++;
      }
      if (w.last != (b.beat == b.len))
        fail(V_WLAST, "WLAST %s on beat %u of %u (AWADDR 0x%llx)", w.last ? "set" : "missing",
             b.beat, b.len + 1, (unsigned long long)b.addr);
      if (r > b.resp) b.resp = r;
      wr_beats++;
      wbuf.pop_front();
      if (b.beat++ == b.len) {
        b.ready_at = clk.now() + 1 + tb_rand_range(wr_lat_min, wr_lat_max);
        if (b.resp != TB_AXI_OKAY) wr_errors++;
        bq.push_back(b);
        awq.pop_front();
      }
    }
  }

  void sample() {
    T *t = clk.sim.top;
    uint64_t now = clk.now();
    bool arv = P::arvalid(t), awv = P::awvalid(t), wv = P::wvalid(t);
    // valid/payload held until ready
    if (ar_wait) {
      if (!arv) fail(V_AR_DROP, "ARVALID dropped before ARREADY (ARADDR 0x%llx)",
                     (unsigned long long)ar_snap.addr);
      else if (ar_payload(t) != ar_snap)
        fail(V_AR_CHANGE, "AR payload changed while ARVALID && !ARREADY (ARADDR 0x%llx)",
             (unsigned long long)ar_snap.addr);
    }
    if (aw_wait) {
      if (!awv) fail(V_AW_DROP, "AWVALID dropped before AWREADY (AWADDR 0x%llx)",
                     (unsigned long long)aw_snap.addr);
      else if (aw_payload(t) != aw_snap)
        fail(V_AW_CHANGE, "AW payload changed while AWVALID && !AWREADY (AWADDR 0x%llx)",
             (unsigned long long)aw_snap.addr);
    }
    if (wv) w_payload(t, &w_cur);
    if (w_wait) {
      if (!wv) fail(V_W_DROP, "WVALID dropped before WREADY");
      else if (w_cur != w_snap) fail(V_W_CHANGE, "W payload changed while WVALID && !WREADY");
    }
    ar_wait = arv && !ar_rdy;
    aw_wait = awv && !aw_rdy;
    w_wait = wv && !w_rdy;
    if (ar_wait) ar_snap = ar_payload(t);
    if (aw_wait) aw_snap = aw_payload(t);
    if (w_wait) w_snap = w_cur;
    // responses taken
    if (r_v && P::rready(t)) {
      Burst &b = rq.front();
      r_v = false;
      rd_beats++;
      if (r_resp != TB_AXI_OKAY) b.resp = r_resp;
      if (b.beat++ == b.len) {
        rd_bursts++;
        if (b.resp != TB_AXI_OKAY) rd_errors++;
        rq.pop_front();
      }
    }
    if (b_v && P::bready(t)) {
      b_v = false;
      wr_bursts++;
      bq.pop_front();
    }
    // requests accepted
    if (arv && ar_rdy) {
      Burst b = ar_payload(t);
      check_burst(b, "AR");
      b.ready_at = now + 1 + tb_rand_range(rd_lat_min, rd_lat_max);
      b.beat = 0;
      b.resp = TB_AXI_OKAY;
      rq.push_back(b);
      if (b.len > rd_max_len) rd_max_len = b.len;
      if (rq.size() > rd_max_out) rd_max_out = rq.size();
      if (b.size < db_log2) narrow++;
    }
    if (awv && aw_rdy) {
      Burst b = aw_payload(t);
      check_burst(b, "AW");
      b.beat = 0;
      b.resp = TB_AXI_OKAY;
      awq.push_back(b);
      if (b.len > wr_max_len) wr_max_len = b.len;
      if (b.size < db_log2) narrow++;
    }
    if (wv && w_rdy) {
      if (awq.empty()) w_early++;
      wbuf.push_back(w_cur);
    }
    if (awq.size() + bq.size() > wr_max_out) wr_max_out = awq.size() + bq.size();
    apply_writes();
  }

  // End of a test: nothing outstanding (a W beat without its AW, a burst not answered).
  void check_idle(const char *when) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "AXI memory idle %s (%zu AR, %zu AW, %zu W beats, %zu B pending)",
                  when, rq.size(), awq.size(), wbuf.size(), bq.size());
    if (sc) sc->expect(idle(), msg, clk.now());
  }
  void report(const char *name) const {
    std::printf("%s: AXI memory: reads %ld bursts %ld beats %ld bytes (%ld errors), writes %ld "
                "bursts %ld beats %ld bytes (%ld errors), %ld protocol violations\n",
                name, rd_bursts, rd_beats, rd_bytes, rd_errors, wr_bursts, wr_beats, wr_bytes,
                wr_errors, violations);
  }
};

// ================================================================ streams
struct TbStreamBeat {
  uint64_t data;
  unsigned id;
  int last;
};

// A host-side queue of stream beats. As a source (host -> DUT), in the step's DRIVE phase:
//   t->s_axis_x_tvalid_i = q.src_valid(); if (q.valid) { tdata = q.front().data; ... }
// and in SAMPLE: if (q.valid && t->s_axis_x_tready_o) q.src_taken();
// As a sink (DUT -> host), DRIVE: t->m_axis_y_tready_i = q.sink_ready();
// SAMPLE: if (t->m_axis_y_tvalid_o && q.ready) q.sink_take(tdata, tid, tlast);
struct TbStreamQ {
  std::deque<TbStreamBeat> q;
  TbStall stall;    // source: % cycles valid waits before a beat; sink: % cycles ready is low
  size_t cap = 0;   // sink: ready low while the queue holds cap beats (0: unbounded)
  bool valid = false, ready = false;
  long beats = 0;
  explicit TbStreamQ(int pct = 0) : stall(pct) {}
  void push(uint64_t d, unsigned id, int last) { q.push_back(TbStreamBeat{d, id, last}); }
  bool pop(TbStreamBeat *b) {
    if (q.empty()) return false;
    *b = q.front();
    q.pop_front();
    return true;
  }
  bool src_valid() {
    if (!valid && !q.empty() && !stall.next()) valid = true;
    return valid;
  }
  const TbStreamBeat &front() const { return q.front(); }
  void src_taken() {
    q.pop_front();
    valid = false;
    beats++;
  }
  bool sink_ready() {
    ready = !(cap && q.size() >= cap) && !stall.next();
    return ready;
  }
  void sink_take(uint64_t d, unsigned id, int last) {
    push(d, id, last);
    beats++;
  }
  void clear() {
    q.clear();
    valid = ready = false;
  }
};

// ================================================================ register checks
// A read-write register of a block's register file, for tb_axil_check_strobes.
struct TbRwReg {
  uint32_t off;      // byte offset
  uint32_t fields;   // the bits that exist (the others read 0)
  const char *name;  // for the score's messages
};

// AXI4-Lite byte strobes on read-write registers (docs/axi_shell.md, "Register semantics"):
// every strobe pattern 0..15 is written to each register twice, first with every bit inverted
// (a write that is lost or lands in the wrong byte shows, even in a 1-bit field), then with
// random data. Each write must answer OKAY and read back (through the accel_bus) as exactly the
// strobed bytes changed; at the end every register still holds its own last value (a write to
// one register changed no other). Leaves each register as its last write made it.
template <class T, class P>
void tb_axil_check_strobes(TbAxilMaster<T, P> &axil, accel_bus *b, TbScore &sc,
                           const TbRwReg *regs, size_t n) {
  std::vector<uint32_t> last(n);
  for (size_t i = 0; i < n; i++) {
    const TbRwReg &r = regs[i];
    uint32_t &val = last[i];
    val = accel_rd(b, r.off);
    for (int pass = 0; pass < 2; pass++) {
      for (uint32_t strb = 0; strb < 16; strb++) {
        const uint32_t d = pass == 0 ? ~val : tb_rand_u32();
        uint32_t bytes = 0;
        for (int k = 0; k < 4; k++)
          if (strb >> k & 1) bytes |= 0xFFu << (8 * k);
        val = ((val & ~bytes) | (d & bytes)) & r.fields;
        sc.check("strobed write: OKAY", strb, TB_AXI_OKAY,
                 static_cast<uint64_t>(axil.write32(r.off, d, strb)));
        if (!sc.check(r.name, strb, val, accel_rd(b, r.off)))
          std::printf("  %s: wrote 0x%08x with strobes 0x%x\n", r.name, d, strb);
      }
    }
  }
  for (size_t i = 0; i < n; i++)
    sc.check("rw register unchanged by the writes to the others", regs[i].off, last[i],
             accel_rd(b, regs[i].off));
}

// The interrupt registers of a block's shell (docs/axi_shell.md): INTR_TEST (singlepulse),
// INTR_STATUS (write 1 to clear), INTR_ENABLE, and STATUS, which INTR_TEST must not touch.
struct TbIntrRegs {
  uint32_t test, status, enable, job_status;
};

// The interrupt contract, for each cause bit in turn: INTR_TEST without byte 0's strobe sets
// nothing (every such strobe pattern); with it, the bit sets exactly that INTR_STATUS bit,
// INTR_TEST reads 0 and STATUS is unchanged; irq (a callable giving irq_o) stays low while the
// cause is not enabled and is high a few cycles after it is; a write of 1 to INTR_STATUS without
// byte 0's strobe keeps the bit, with it clears it, and irq falls. Starts by disabling and
// clearing every cause; leaves them so.
template <class T, class P, class Irq>
void tb_axil_check_intr(TbAxilMaster<T, P> &axil, accel_bus *b, TbScore &sc, Irq irq,
                        const TbIntrRegs &r, const uint32_t *bits, size_t n) {
  uint32_t all = 0;
  for (size_t i = 0; i < n; i++) all |= bits[i];
  accel_wr(b, r.enable, 0);
  accel_wr(b, r.status, all);
  sc.check("INTR_STATUS cleared by writing 1", 0, 0, accel_rd(b, r.status));
  const uint32_t job_status = accel_rd(b, r.job_status);
  for (uint32_t strb = 0; strb < 16; strb += 2) {
    axil.write32(r.test, 0xFFFFFFFFu, strb);
    sc.check("INTR_TEST without byte 0's strobe: no bit set", strb, 0, accel_rd(b, r.status));
  }
  for (size_t i = 0; i < n; i++) {
    const uint32_t bit = bits[i];
    accel_wr(b, r.test, bit);
    sc.check("INTR_TEST sets that INTR_STATUS bit only", bit, bit, accel_rd(b, r.status));
    sc.check("INTR_TEST reads 0", bit, 0, accel_rd(b, r.test));
    sc.check("STATUS unchanged by INTR_TEST", bit, job_status, accel_rd(b, r.job_status));
    b->idle(b->ctx, 3);
    sc.check("irq_o low while the cause is not enabled", bit, 0, irq());
    accel_wr(b, r.enable, bit);
    b->idle(b->ctx, 3);
    sc.check("irq_o high once the cause is enabled", bit, 1, irq());
    axil.write32(r.status, 0xFFFFFFFFu, 0xE);
    sc.check("INTR_STATUS write 1 without byte 0's strobe: kept", bit, bit, accel_rd(b, r.status));
    accel_wr(b, r.status, bit);
    sc.check("INTR_STATUS bit cleared by writing 1", bit, 0, accel_rd(b, r.status));
    b->idle(b->ctx, 3);
    sc.check("irq_o low once the bit is cleared", bit, 0, irq());
    accel_wr(b, r.enable, 0);
  }
}

// The register decode (docs/axi_shell.md, "Register semantics"): every register of regs (n byte
// offsets, the whole map) reads OKAY; every other word of the map's 2^map_w bytes, and every
// register's address with one bit set above the map (bits map_w up to the slave's address width,
// axil.addr_bits), reads SLVERR with data 0 and refuses a write (SLVERR). A decode that lost a
// register, or that maps a word twice or ignores the high address bits, fails here. The
// refused writes write all ones; each of the nkept rw registers kept must read afterwards as it
// did before (no refused write reached it).
template <class T, class P>
void tb_axil_check_decode(TbAxilMaster<T, P> &axil, TbScore &sc, const uint32_t *regs, size_t n,
                          int map_w, const TbRwReg *kept = nullptr, size_t nkept = 0) {
  std::vector<uint32_t> before(nkept);
  for (size_t i = 0; i < nkept; i++) axil.read32(kept[i].off, &before[i]);
  auto mapped = [&](uint32_t a) {
    for (size_t i = 0; i < n; i++)
      if (regs[i] == a) return true;
    return false;
  };
  auto refused = [&](uint32_t a, const char *what) {
    uint32_t d = 0xDEADBEEFu;
    sc.check(what, a, TB_AXI_SLVERR, static_cast<uint64_t>(axil.read32(a, &d)));
    sc.check("unmapped read: data 0", a, 0, d);
    sc.check("unmapped write: SLVERR", a, TB_AXI_SLVERR, static_cast<uint64_t>(axil.write32(a, 0xFFFFFFFFu)));
  };
  for (uint32_t a = 0; a < (1u << map_w); a += 4) {
    if (mapped(a)) {
      uint32_t d;
      sc.check("register read: OKAY", a, TB_AXI_OKAY, static_cast<uint64_t>(axil.read32(a, &d)));
    } else {
      refused(a, "read of a word between registers: SLVERR");
    }
  }
  for (size_t i = 0; i < n; i++)
    for (int bit = map_w; bit < axil.addr_bits; bit++)
      refused(regs[i] | (1u << bit), "read above the map (a register's alias): SLVERR");
  for (size_t i = 0; i < nkept; i++) {
    uint32_t d = 0;
    axil.read32(kept[i].off, &d);
    sc.check(kept[i].name, kept[i].off, before[i], d);
  }
}

// CTRL.START's byte strobe: with the block idle, START (start_bm, in byte 0) written with each
// strobe pattern starts a job, whose DONE event (done_bm of INTR_STATUS, cleared before each
// write) comes at once, exactly when byte 0's strobe is set. Leaves INTR_STATUS cleared.
template <class T, class P>
void tb_axil_check_start_strobe(TbAxilMaster<T, P> &axil, accel_bus *b, TbScore &sc, uint32_t ctrl,
                                uint32_t start_bm, uint32_t intr_status, uint32_t done_bm) {
  for (uint32_t strb = 0; strb < 16; strb++) {
    accel_wr(b, intr_status, 0xFFFFFFFFu);
    axil.write32(ctrl, start_bm, strb);
    b->idle(b->ctx, 8);
    sc.check("CTRL.START starts a job (DONE event) exactly with byte 0's strobe", strb,
             (strb & 1) ? done_bm : 0, accel_rd(b, intr_status) & done_bm);
  }
  accel_wr(b, intr_status, 0xFFFFFFFFu);
}

// ================================================================ accel_bus over the models
template <class T, class LP = TbAxilPorts<T>>
struct TbAccelBus {
  TbCycle<T> &clk;
  TbAxilMaster<T, LP> &axil;
  TbMemStore *mem;                     // may be NULL (no memory: mem_* fail)
  accel_bus bus;
  std::vector<TbStreamQ *> tx, rx;     // stream_send ports (host -> DUT), stream_recv ports
  uint64_t alloc_base = 0x1000, alloc_next = 0x1000;
  int last_resp = 0;                   // response of the last read32/write32

  TbAccelBus(TbCycle<T> &c, TbAxilMaster<T, LP> &m, TbMemStore *mm) : clk(c), axil(m), mem(mm) {
    std::memset(&bus, 0, sizeof bus);
    bus.ctx = this;
    bus.read32 = s_read32;
    bus.write32 = s_write32;
    bus.mem_alloc = s_mem_alloc;
    bus.mem_write = s_mem_write;
    bus.mem_read = s_mem_read;
    bus.wait_irq = s_wait_irq;
    bus.stream_send = s_stream_send;
    bus.stream_recv = s_stream_recv;
    bus.idle = s_idle;
    bus.now = s_now;
  }
  unsigned add_send_port(TbStreamQ *q) { tx.push_back(q); return unsigned(tx.size() - 1); }
  unsigned add_recv_port(TbStreamQ *q) { rx.push_back(q); return unsigned(rx.size() - 1); }
  // The harness's per-cycle function: drives its own ports (streams) in every cycle.
  void add_step(TbStepFn fn, void *user) { clk.add(fn, user); }
  void alloc_reset(uint64_t base = 0x1000) { alloc_base = alloc_next = base; }
  bool irq() const { return clk.sim.top->irq_o; }

  static TbAccelBus *self(void *c) { return static_cast<TbAccelBus *>(c); }
  static int s_read32(void *c, uint32_t off, uint32_t *val) {
    TbAccelBus *b = self(c);
    uint32_t v = 0;
    b->last_resp = b->axil.read32(off, &v);
    if (val) *val = v;
    return b->last_resp == TB_AXI_OKAY ? 0 : -1;
  }
  static int s_write32(void *c, uint32_t off, uint32_t val) {
    TbAccelBus *b = self(c);
    b->last_resp = b->axil.write32(off, val);
    return b->last_resp == TB_AXI_OKAY ? 0 : -1;
  }
  static uint64_t s_mem_alloc(void *c, size_t bytes, size_t align) {
    TbAccelBus *b = self(c);
    if (align == 0) align = 64;
    if (!b->mem || bytes == 0 || (align & (align - 1))) return 0;
    uint64_t a = (b->alloc_next + align - 1) & ~static_cast<uint64_t>(align - 1);
    if (a == 0) a = align;
    if (a < b->alloc_next || a > b->mem->size() || bytes > b->mem->size() - a) return 0;
    b->alloc_next = a + bytes;
    return a;
  }
  static int s_mem_write(void *c, uint64_t addr, const void *src, size_t n) {
    TbAccelBus *b = self(c);
    return b->mem && b->mem->write(addr, src, n) ? 0 : -1;
  }
  static int s_mem_read(void *c, uint64_t addr, void *dst, size_t n) {
    TbAccelBus *b = self(c);
    return b->mem && b->mem->read(addr, dst, n) ? 0 : -1;
  }
  static int s_wait_irq(void *c, uint64_t timeout) {
    TbAccelBus *b = self(c);
    for (uint64_t i = 0;; i++) {
      if (b->irq()) return 1;
      if (i >= timeout || b->clk.timed_out()) return 0;
      b->clk.cycle();
    }
  }
  static int s_stream_send(void *c, unsigned port, uint64_t data, unsigned id, int last) {
    TbAccelBus *b = self(c);
    if (port >= b->tx.size()) return -1;
    b->tx[port]->push(data, id, last);
    return 0;
  }
  static int s_stream_recv(void *c, unsigned port, uint64_t *data, unsigned *id, int *last) {
    TbAccelBus *b = self(c);
    if (port >= b->rx.size() || b->clk.timed_out()) return -1;
    TbStreamBeat x;
    if (!b->rx[port]->pop(&x)) {
      b->clk.cycle();
      if (!b->rx[port]->pop(&x)) return 0;
    }
    if (data) *data = x.data;
    if (id) *id = x.id;
    if (last) *last = x.last;
    return 1;
  }
  static void s_idle(void *c, unsigned cycles) {
    TbAccelBus *b = self(c);
    for (unsigned i = 0; i < cycles && !b->clk.timed_out(); i++) b->clk.cycle();
  }
  static uint64_t s_now(void *c) { return self(c)->clk.now(); }
};

#endif  // TB_AXI_H
