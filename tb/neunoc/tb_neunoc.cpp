// tb_neunoc.cpp -- Neu-NoC network co-simulation against the C model (cmodel/neunoc) and
// directed tests. Build-time network: TB_K TB_Cols TB_Rows TB_V TB_Depth TB_DataW TB_TagW
// TB_CntW TB_Pack TB_DstCoord ..., from the build's -G parameters (rtl/neunoc/block.toml).
// With coordinate heads (DstCoord = 1) a packet goes to one router: the random tests make no
// multi-router multicast (+mc/+mcmax and +test=multicast are refused), and the guard test sends
// heads whose column or row is off the mesh.
//
//   +test=random (default)  +n packets of random traffic: every PE injects at +rate (per mille
//                           per cycle) packets of 0..+maxlen words (multicast ones at most
//                           Depth-1), +mc percent multicast to 2..+mcmax routers with random
//                           ring positions, words with zero runs (+zeros percent), random valid
//                           gaps (+gap) and sink backpressure (+stall). Injection then stops
//                           and the network must drain completely.
//   +traffic=<file>         the packets of a traffic file (sw/neunoc/nnoc_traffic) injected at
//                           their creation cycles (source queues are unbounded).
//   +test=<name>            a directed test (table at the end of this file).
//
// Every delivered packet is checked against nnoc_delivery() of a packet that the network still
// owes that PE (same source and tag, same flits); flits of one packet must arrive contiguously,
// head first. At the end nothing may be owed (none missing), and no packet may arrive twice.
// Prints "noc: ..." statistics (latency from creation and from injection, flits) before the
// result line.
#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vneunoc.h"
#include "neunoc.h"
#include "tb_lib.h"


namespace {

nnoc_cfg_t g_cfg;
int g_fw, g_np, g_nr;

// ---------------------------------------------------------------- flit <-> port bits
template <class T>
void put_flit(T &port, int idx, const nnoc_flit_t &f) {
  for (int b = 0; b < g_fw; b += 32) {
    int w = std::min(32, g_fw - b);
    tb_set_bits(port, idx * g_fw + b, w, f.w[b / 32]);
  }
}
template <class T>
nnoc_flit_t get_flit(const T &port, int idx) {
  nnoc_flit_t f;
  std::memset(&f, 0, sizeof f);
  for (int b = 0; b < g_fw; b += 32) {
    int w = std::min(32, g_fw - b);
    f.w[b / 32] = tb_get_bits(port, idx * g_fw + b, w);
  }
  return f;
}
template <class T>
void set_bit(T &port, int i, bool v) {
  tb_set_bits(port, i, 1, v ? 1u : 0u);
}
template <class T>
bool get_bit(const T &port, int i) {
  return tb_get_bits(port, i, 1) != 0;
}

bool flits_equal(const nnoc_flit_t *a, const nnoc_flit_t *b, int n) {
  for (int i = 0; i < n; i++) {
    if (std::memcmp(a[i].w, b[i].w, sizeof a[i].w) != 0) return false;
  }
  return true;
}

std::string flit_hex(const nnoc_flit_t &f) {
  std::string s;
  char buf[16];
  for (int w = (g_fw - 1) / 32; w >= 0; w--) {
    std::snprintf(buf, sizeof buf, "%08x", f.w[w]);
    s += buf;
  }
  return s;
}

// ---------------------------------------------------------------- the network environment
struct Owed {          // one delivery the network owes a PE
  long pkt;            // index into Env::pkts
  std::vector<nnoc_flit_t> flits;
};

struct PktInfo {
  uint64_t t_create;
  uint64_t t_inject = 0;  // cycle the head entered the network
  int ndest = 0;
  int delivered = 0;
  uint64_t t_done = 0;    // cycle of the last delivery's tail handshake
};

struct Env {
  TbArgs a;
  TbSim<Vneunoc> sim;
  TbScore sc;
  TbStall gap, stall;
  std::vector<PktInfo> pkts;
  std::vector<std::deque<std::pair<long, std::vector<nnoc_flit_t>>>> srcq;  // per source PE
  std::vector<size_t> src_pos;                 // next flit of the front packet
  std::vector<std::vector<nnoc_flit_t>> rx;    // flits of the packet arriving at each PE
  std::multimap<uint64_t, Owed> owed;          // key: (dest PE, src PE, tag)
  long owed_count = 0, delivered = 0, dup_or_unknown = 0;
  double lat_sum = 0, net_lat_sum = 0;
  uint64_t lat_max = 0;
  long err_pulses = 0, drop_pulses = 0;
  // Ring-router passes of all added packets (K > 1; the energy estimate): a flit from ring
  // position q passes the send ring's positions q .. K-1, and in every destination ring the
  // receive ring's positions 0 .. the highest destination position (rings forward a flit only
  // while destinations remain downstream). Counted from the packets, as the path is fixed.
  uint64_t ring_passes = 0;
  // Measurement window (traffic runs: +warmup, +measure): packets created in [win_lo, win_hi)
  // are the measured ones (their latency, per source too); deliveries and flits that arrive in
  // the window give the accepted throughput.
  uint64_t win_lo = 0, win_hi = UINT64_MAX;
  long win_created = 0, win_deliv = 0, win_flits = 0, m_count = 0;
  double m_lat_sum = 0;
  std::vector<double> src_lat_sum;
  std::vector<long> src_count;
  std::vector<int> gap_hold;                   // per PE: keep valid once raised (no withdraw)
  std::vector<uint64_t> src_taken;             // per PE: flits the network took from it
  std::vector<bool> stall_now;
  bool sinks_ready_always = false;
  // Directed tests: a PE's sink held off (ready low) whatever the stall setting, and a PE's
  // source stopped after src_limit flits (a packet held half-sent).
  std::vector<bool> sink_hold;
  std::vector<uint64_t> src_limit;

  Env(const TbArgs &args, uint64_t timeout, const char *name)
      : a(args), sim(args, timeout), sc(name), gap(args.gap_pct), stall(args.stall_pct) {
    srcq.resize(g_np);
    src_pos.assign(g_np, 0);
    src_lat_sum.assign(g_np, 0.0);
    src_count.assign(g_np, 0);
    rx.resize(g_np);
    gap_hold.assign(g_np, 0);
    src_taken.assign(g_np, 0);
    stall_now.assign(g_np, false);
    sink_hold.assign(g_np, false);
    src_limit.assign(g_np, UINT64_MAX);
    sim.reset();
    // The network is posedge-only and every step() evaluates after driving its inputs and
    // before sampling, so the falling edge needs no evaluation of its own (a third fewer).
    sim.eval_on_fall = false;
  }

  static uint64_t key(int dest, int src, uint32_t tag) {
    return (static_cast<uint64_t>(dest) << 40) | (static_cast<uint64_t>(src) << 20) | tag;
  }

  // Queues p at its source and records what each destination is owed.
  long add(const nnoc_pkt_t &p) {
    char err[160];
    if (nnoc_pkt_check(&g_cfg, &p, TB_Depth, err, sizeof err) != 0) {
      std::fprintf(stderr, "noc: packet refused by the model: %s\n", err);
      std::exit(2);
    }
    long id = static_cast<long>(pkts.size());
    PktInfo pi;
    pi.t_create = p.t;
    std::vector<nnoc_flit_t> fl(p.nwords + 1);
    int n = nnoc_pkt_flits(&g_cfg, &p, fl.data(), static_cast<int>(fl.size()));
    fl.resize(n);
    std::vector<int> dests(g_np);
    int nd = nnoc_dests(&g_cfg, &p, dests.data(), g_np);
    pi.ndest = nd;
    if (g_cfg.k > 1 && p.dst_pe != 0) {
      uint64_t recv_len = 32u - static_cast<uint64_t>(__builtin_clz(p.dst_pe));  // highest position + 1
      uint64_t rings = static_cast<uint64_t>(nnoc_mask_popcount(p.dst_mesh, g_nr));
      ring_passes += static_cast<uint64_t>(n) *
                     (static_cast<uint64_t>(g_cfg.k - p.src % g_cfg.k) + rings * recv_len);
    }
    if (in_window(p.t)) win_created++;
    pkts.push_back(pi);
    for (int i = 0; i < nd; i++) {
      Owed o;
      o.pkt = id;
      o.flits.resize(p.nwords + 1);
      int m = nnoc_delivery(&g_cfg, &p, dests[i], o.flits.data(), static_cast<int>(o.flits.size()));
      o.flits.resize(m);
      owed.emplace(key(dests[i], p.src, p.tag), o);
      owed_count++;
    }
    srcq[p.src].emplace_back(id, fl);
    return id;
  }

  bool in_window(uint64_t t) const { return t >= win_lo && t < win_hi; }

  bool busy() const {
    if (owed_count > 0) return true;
    for (auto &q : srcq)
      if (!q.empty()) return true;
    return false;
  }

  // One cycle: drive sources and sinks, sample handshakes, clock edge.
  void step() {
    Vneunoc *t = sim.top;
    for (int i = 0; i < g_np; i++) {
      bool v = false;
      if (!srcq[i].empty() && srcq[i].front().first >= 0 && src_taken[i] < src_limit[i] &&
          pkts[srcq[i].front().first].t_create <= sim.cycle) {
        if (gap_hold[i] || !gap.next()) {
          v = true;
          gap_hold[i] = 1;
          put_flit(t->pe_in_flit_i, i, srcq[i].front().second[src_pos[i]]);
        }
      }
      set_bit(t->pe_in_valid_i, i, v);
      stall_now[i] = sink_hold[i] || (sinks_ready_always ? false : stall.next());
      set_bit(t->pe_out_ready_i, i, !stall_now[i]);
    }
    t->eval();
    for (int i = 0; i < g_np; i++) {
      if (get_bit(t->pe_in_valid_i, i) && get_bit(t->pe_in_ready_o, i)) {
        auto &front = srcq[i].front();
        if (src_pos[i] == 0) pkts[front.first].t_inject = sim.cycle;
        src_taken[i]++;
        gap_hold[i] = 0;
        if (++src_pos[i] == front.second.size()) {
          src_pos[i] = 0;
          srcq[i].pop_front();
        }
      }
      if (get_bit(t->pe_out_valid_o, i) && get_bit(t->pe_out_ready_i, i)) receive(i, get_flit(t->pe_out_flit_o, i));
      if (get_bit(t->err_pe_o, i)) err_pulses++;
    }
    if (t->err_drop_o) drop_pulses++;
    sim.tick();
  }

  void receive(int pe, const nnoc_flit_t &f) {
    int ty = nnoc_flit_type(&g_cfg, &f);
    auto &cur = rx[pe];
    if (cur.empty() && ty != NNOC_HEAD) {
      sc.expect(false, "packet starts with a head flit", static_cast<uint64_t>(pe));
      return;
    }
    if (!cur.empty() && ty == NNOC_HEAD) {
      sc.expect(false, "flits of one packet arrive contiguously (head inside a packet)", static_cast<uint64_t>(pe));
      cur.clear();
    }
    cur.push_back(f);
    if (in_window(sim.cycle)) win_flits++;
    nnoc_pkt_t h;
    int single = nnoc_head_decode(&g_cfg, &cur[0], &h);
    if (!(single || ty == NNOC_TAIL)) return;
    int src = static_cast<int>(h.src);
    auto range = owed.equal_range(key(pe, src, h.tag));
    bool found = false;
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second.flits.size() == cur.size() && flits_equal(it->second.flits.data(), cur.data(), static_cast<int>(cur.size()))) {
        PktInfo &pi = pkts[it->second.pkt];
        uint64_t lat = sim.cycle - pi.t_create;
        lat_sum += static_cast<double>(lat);
        net_lat_sum += static_cast<double>(sim.cycle - pi.t_inject);
        lat_max = std::max(lat_max, lat);
        if (in_window(sim.cycle)) win_deliv++;
        if (in_window(pi.t_create)) {
          m_count++;
          m_lat_sum += static_cast<double>(lat);
          src_lat_sum[src] += static_cast<double>(lat);
          src_count[src]++;
        }
        pi.delivered++;
        pi.t_done = sim.cycle;
        owed.erase(it);
        owed_count--;
        delivered++;
        found = true;
        break;
      }
    }
    if (!sc.expect(found, "delivered packet matches one the model owes this PE", static_cast<uint64_t>(pe))) {
      dup_or_unknown++;
      if (dup_or_unknown <= 4) {
        std::printf("  PE %d got %zu flits from src %d tag %u; head %s\n", pe, cur.size(), src, h.tag,
                    flit_hex(cur[0]).c_str());
        for (auto it = range.first; it != range.second; ++it)
          std::printf("    owed: %zu flits, head %s\n", it->second.flits.size(), flit_hex(it->second.flits[0]).c_str());
      }
    }
    cur.clear();
  }

  // Runs until nothing is queued or owed (true), or `limit` cycles pass (false).
  bool drain(uint64_t limit) {
    uint64_t end = sim.cycle + limit;
    while (busy() && sim.cycle < end && !sim.timed_out) step();
    return !busy();
  }

  void report(const char *what) {
    std::printf("noc: %s cycles=%" PRIu64 " packets=%zu delivered=%ld avg_lat=%.2f avg_net_lat=%.2f max_lat=%" PRIu64
                " pe_flits=%u mesh_flits=%u hop_flits=%u eject_flits=%u ring_passes=%" PRIu64
                " err_pulses=%ld drops=%ld\n",
                what, sim.cycle, pkts.size(), delivered, delivered ? lat_sum / delivered : 0.0,
                delivered ? net_lat_sum / delivered : 0.0, lat_max, sim.top->stat_pe_flits_o,
                sim.top->stat_mesh_flits_o, sim.top->stat_hop_flits_o, sim.top->stat_eject_flits_o,
                ring_passes, err_pulses, drop_pulses);
  }

  // The measurement window's figures: offered and accepted load (packets, deliveries and flits
  // per PE per cycle), the measured packets' mean latency, and fairness: the worst source's mean
  // latency over the mean of all measured packets.
  void report_window() {
    double span = static_cast<double>(win_hi - win_lo) * g_np;
    double mean = m_count ? m_lat_sum / static_cast<double>(m_count) : 0.0;
    double worst = 0;
    int worst_pe = -1;
    for (int i = 0; i < g_np; i++) {
      if (!src_count[i]) continue;
      double m = src_lat_sum[i] / static_cast<double>(src_count[i]);
      if (m > worst) worst = m, worst_pe = i;
    }
    std::printf("noc: window lo=%" PRIu64 " hi=%" PRIu64 " offered=%.5f accepted=%.5f accepted_flits=%.5f"
                " m_pkts=%ld m_lat=%.2f src_worst_lat=%.2f src_worst_pe=%d fairness=%.3f\n",
                win_lo, win_hi, win_created / span, win_deliv / span, win_flits / span, m_count, mean, worst,
                worst_pe, mean > 0 ? worst / mean : 0.0);
  }

  // Final checks shared by every test: nothing owed, no stray flits, no half packets; with
  // well-formed traffic (every test but guard) the PE flit counter (stat_pe_flits_o: flits taken
  // from the PEs, after the guards, which pass such traffic unchanged) equals the flits the
  // harness handed over.
  bool pe_stat_exact = true;
  void final_checks() {
    if (pe_stat_exact) {
      uint64_t taken = 0;
      for (uint64_t n : src_taken) taken += n;
      sc.check("stat_pe_flits_o = flits taken from the PEs", 0, taken & 0xffffffffu, sim.top->stat_pe_flits_o);
    }
    sc.expect(owed_count == 0, "every owed delivery arrived (none missing)", static_cast<uint64_t>(owed_count));
    long partial = 0;
    for (auto &r : rx) partial += !r.empty();
    sc.expect(partial == 0, "no PE is left with half a packet", static_cast<uint64_t>(partial));
    long short_pkts = 0;
    for (auto &p : pkts) short_pkts += p.delivered != p.ndest;
    sc.expect(short_pkts == 0, "every packet reached each of its destinations exactly once", static_cast<uint64_t>(short_pkts));
  }
};

// ---------------------------------------------------------------- packet makers
uint32_t g_tag[NNOC_MAX_ROUTERS * NNOC_MAX_K];

void pkt_init(nnoc_pkt_t &p, uint64_t t, int src) {
  std::memset(&p, 0, offsetof(nnoc_pkt_t, words));
  p.t = t;
  p.src = src;
  p.tag = g_tag[src]++ & ((1u << TB_TagW) - 1);
}

void fill_words(nnoc_pkt_t &p, int n, int zero_pct) {
  p.nwords = n;
  uint32_t mask = (TB_DataW >= 32) ? 0xffffffffu : ((1u << TB_DataW) - 1);
  int i = 0;
  while (i < n) {
    if (tb_chance(zero_pct)) {  // a run of zeros, sometimes longer than the PP counter
      int run = static_cast<int>(tb_rand_range(1, tb_chance(20) ? 40 : 6));
      for (int j = 0; j < run && i < n; j++) p.words[i++] = 0;
    } else {
      uint32_t w = tb_rand_u32() & mask;
      p.words[i++] = w ? w : 1;
    }
  }
}

// Queues a packet created at cycle t from PE src to the PEs dst_pe (bit mask) of router dst_r,
// with n words (zero_pct as fill_words); returns its index in e.pkts.
long add_packet(Env &e, nnoc_pkt_t &p, uint64_t t, int src, int dst_r, uint32_t dst_pe, int n, int zero_pct) {
  pkt_init(p, t, src);
  nnoc_mask_set(p.dst_mesh, dst_r, 1);
  p.dst_pe = dst_pe;
  fill_words(p, n, zero_pct);
  return e.add(p);
}

int rand_router() { return static_cast<int>(tb_rand_range(0, g_nr - 1)); }
uint32_t rand_pe_mask() {
  uint32_t m = 0;
  while (!m) m = tb_rand_u32() & ((TB_K >= 32) ? 0xffffffffu : ((1u << TB_K) - 1));
  if (tb_chance(50)) m = 1u << tb_rand_range(0, TB_K - 1);  // often a single PE
  return m;
}

// ---------------------------------------------------------------- +test=random / +traffic
int run_random(const TbArgs &a) {
  const long rate = static_cast<long>(tb_plusarg_num("rate", 1, 1000, 30));  // per mille per PE per cycle
  const long maxlen = static_cast<long>(tb_plusarg_num("maxlen", 0, NNOC_MAX_WORDS - 1, 3 * TB_Depth));
  const long mc = static_cast<long>(tb_plusarg_num("mc", 0, 100, 30));
  const long mcmax = static_cast<long>(tb_plusarg_num("mcmax", 2, NNOC_MAX_ROUTERS, std::max(2, g_nr)));
  const long zeros = static_cast<long>(tb_plusarg_num("zeros", 0, 100, 30));
  if (g_cfg.dst_coord && (tb_plusarg("mc") || tb_plusarg("mcmax"))) {
    std::fprintf(stderr, "noc: +mc/+mcmax need bit-string heads (this build has DstCoord = 1: one "
                         "destination router per packet)\n");
    return 2;
  }
  Env e(a, 400ull * a.n + 200000, "neunoc random");
  nnoc_pkt_t *p = new nnoc_pkt_t;
  long made = 0;
  uint64_t t = 0;
  while (made < a.n && !e.sim.timed_out) {
    // keep the source queues short: generate the next cycle's packets just in time
    for (int s = 0; s < g_np && made < a.n; s++) {
      if (static_cast<long>(tb_rand_range(0, 999)) >= rate) continue;
      pkt_init(*p, t, s);
      // coordinate heads (DstCoord = 1) name one router: multicast only within its ring
      bool multi = !g_cfg.dst_coord && g_nr > 1 && tb_chance(static_cast<int>(mc));
      if (multi) {
        int nd = static_cast<int>(tb_rand_range(2, static_cast<uint32_t>(std::min<long>(mcmax, g_nr))));
        while (nnoc_mask_popcount(p->dst_mesh, g_nr) < nd) nnoc_mask_set(p->dst_mesh, rand_router(), 1);
        fill_words(*p, static_cast<int>(tb_rand_range(0, TB_Depth - 1)), static_cast<int>(zeros));
      } else {
        nnoc_mask_set(p->dst_mesh, rand_router(), 1);
        fill_words(*p, static_cast<int>(tb_rand_range(0, static_cast<uint32_t>(maxlen))), static_cast<int>(zeros));
      }
      p->dst_pe = rand_pe_mask();
      e.add(*p);
      made++;
    }
    t++;
    while (e.sim.cycle < t && !e.sim.timed_out) e.step();
  }
  delete p;
  bool drained = e.drain(2000000);
  e.sc.expect(drained, "the network drains when injection stops", e.sim.cycle);
  e.sc.expect(e.err_pulses == 0 && e.drop_pulses == 0, "well-formed traffic raises no error", static_cast<uint64_t>(e.err_pulses));
  e.final_checks();
  e.report("random");
  return e.sc.finish();
}

int run_traffic(const TbArgs &a, const char *path) {
  const long max_pkts = static_cast<long>(tb_plusarg_num("max_pkts", 0, 1ull << 40, 0));
  const bool sink_stall = tb_plusarg_flag("sink_stall", false);
  const long warm = static_cast<long>(tb_plusarg_num("warmup", 0, 1ull << 40, 0));
  const long meas = static_cast<long>(tb_plusarg_num("measure", 0, 1ull << 40, 0));
  char err[256];
  nnoc_cfg_t fc = g_cfg;
  // The whole file is read before the simulation: a malformed line is reported at once, not
  // when the simulation reaches it, and a packet beyond the time limit before any is run.
  long npkts;
  uint64_t last_t;
  if (nnoc_traffic_scan(path, &fc, &npkts, &last_t, err, sizeof err) != 0) tb_fail("%s", err);
  if (fc.k != g_cfg.k || fc.cols != g_cfg.cols || fc.rows != g_cfg.rows)
    tb_fail("%s: net %d %d %d does not match this build (%d %d %d)", path, fc.k, fc.cols, fc.rows, g_cfg.k,
            g_cfg.cols, g_cfg.rows);
  const uint64_t limit = a.timeout ? a.timeout : 50000000ull;
  if (last_t >= limit)
    tb_fail("%s: the last packet is created at cycle %llu, after the time limit of %llu cycles (+timeout)", path,
            static_cast<unsigned long long>(last_t), static_cast<unsigned long long>(limit));
  nnoc_traffic_t *tf = nnoc_traffic_open(path, &fc, err, sizeof err);
  if (!tf) tb_fail("%s", err);
  Env e(a, limit, "neunoc traffic");
  e.sinks_ready_always = !sink_stall;
  if (meas > 0) {
    e.win_lo = static_cast<uint64_t>(warm);
    e.win_hi = static_cast<uint64_t>(warm + meas);
  }
  nnoc_pkt_t *p = new nnoc_pkt_t;
  int r;
  long n = 0;
  while ((r = nnoc_traffic_next(tf, p, err, sizeof err)) == 1) {
    while (e.sim.cycle + 1 < p->t && !e.sim.timed_out) e.step();  // inject on time
    e.add(*p);
    if (max_pkts && ++n >= max_pkts) break;
  }
  nnoc_traffic_close(tf);
  delete p;
  if (r < 0) {
    std::fprintf(stderr, "noc: %s\n", err);
    return 2;
  }
  bool drained = e.drain(e.sim.timeout);
  e.sc.expect(drained, "the network delivers the whole trace", e.sim.cycle);
  e.final_checks();
  e.report("traffic");
  if (meas > 0) e.report_window();
  return e.sc.finish();
}

// ---------------------------------------------------------------- directed tests
// The environment of a directed test; steady: sources without valid gaps, sinks always ready
// (otherwise the +gap and +stall of the command line).
struct Directed {
  TbArgs a;
  Env e;
  Directed(const TbArgs &args, const char *name, bool steady) : a(args), e(args, 5000000, name) {
    if (steady) {
      e.gap.pct = 0;
      e.sinks_ready_always = true;
    }
  }
};

// A directed test that needs `cols` mesh columns or more: false (and one line) on a narrower build.
bool has_cols(int cols, const char *test) {
  if (TB_Cols >= cols) return true;
  std::fprintf(stderr, "noc: +test=%s needs %d columns or more\n", test, cols);
  return false;
}

int pe_of(int r, int pos) { return r * TB_K + pos; }
int router_xy(int x, int y) { return y * TB_Cols + x; }
int hops(int a, int b) {
  return std::abs(a % TB_Cols - b % TB_Cols) + std::abs(a / TB_Cols - b / TB_Cols);
}

// Zero-load latency of the pipeline (docs/neunoc.md, "Latency"): head handshake at the source
// PE to tail handshake at the destination PE, L data words, H mesh hops.
long analytic_latency(int src_pos, int dst_pos, int h, int words) {
  long ring_in = (TB_K > 1) ? (TB_K - src_pos) : 0;
  long ring_out = (TB_K > 1) ? (2 + dst_pos) : 1;
  long per_router = TB_SpecSa ? 2 : 3;  // a head's cycles per router (docs/neunoc.md, Latency)
  return ring_in + 1 + per_router * (h + 1) + ring_out + words;
}

// single flit, long packets, every turn, zero-load latency
int run_latency(const TbArgs &a) {
  Directed d(a, "neunoc latency", true);
  Env &e = d.e;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  long lengths[] = {0, 1, 2, 5, 3L * TB_Depth + 3};
  for (int s = 0; s < g_nr; s++) {
    for (int dr = 0; dr < g_nr; dr++) {
      for (long len : lengths) {
        int sp = static_cast<int>(tb_rand_range(0, TB_K - 1)), dp = static_cast<int>(tb_rand_range(0, TB_K - 1));
        long id = add_packet(e, *p, e.sim.cycle, pe_of(s, sp), dr, 1u << dp, static_cast<int>(len), 0);
        uint64_t t0 = e.sim.cycle;
        if (!e.drain(10000)) {
          e.sc.expect(false, "single packet delivered", static_cast<uint64_t>(id));
          break;
        }
        long lat = static_cast<long>(e.sim.cycle - 1 - t0);  // tail handshake happened in the last step
        long exp = analytic_latency(sp, dp, hops(s, dr), static_cast<int>(len));
        char what[96];
        std::snprintf(what, sizeof what, "zero-load latency r%d.%d -> r%d.%d len %ld", s, sp, dr, dp, len);
        e.sc.check(what, static_cast<uint64_t>(id), static_cast<uint64_t>(exp), static_cast<uint64_t>(lat));
        for (int k = 0; k < 8; k++) e.step();  // let credits return: next packet sees an idle network
      }
    }
  }
  delete p;
  e.final_checks();
  e.report("latency");
  return e.sc.finish();
}

// Two long packets into one output port at once (docs/neunoc.md, "Switch allocation"): PE 0 of
// router 1 and PE 0 of router 0, both to PE 0 of the last router of row 0, created in the same
// cycle. Router 1's head reaches the shared port (router 1's east output; its local output
// when there are two columns) first. With packet hold (SaHold = 1, SaGreedy = 1) that packet
// keeps the port to its tail and arrives at its zero-load latency; flit by flit (the other
// builds) the two packets alternate on the port and the first is slowed too.
int run_hold(const TbArgs &a) {
  Directed d(a, "neunoc hold", true);
  Env &e = d.e;
  if (!has_cols(2, "hold")) return 2;
  const int len = 3 * TB_Depth + 3, dr = TB_Cols - 1;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  long id[2];
  long exp[2];
  uint64_t t0 = e.sim.cycle;
  for (int i = 0; i < 2; i++) {
    int sr = 1 - i;   // router 1 first
    id[i] = add_packet(e, *p, t0, pe_of(sr, 0), dr, 1u, len, 0);
    exp[i] = analytic_latency(0, 0, hops(sr, dr), len);
  }
  delete p;
  if (!e.drain(100000)) e.sc.expect(false, "both packets delivered", 2);
  long extra[2];
  for (int i = 0; i < 2; i++)
    extra[i] = static_cast<long>(e.pkts[id[i]].t_done - t0) - exp[i];
  int first = e.pkts[id[0]].t_done <= e.pkts[id[1]].t_done ? 0 : 1;
  std::printf("noc: hold first=router %d extra=%ld cycles, second extra=%ld cycles (SaHold %d, SaGreedy %d)\n",
              1 - first, extra[first], extra[1 - first], TB_SaHold, TB_SaGreedy);
  if (TB_SaHold && TB_SaGreedy) {
    e.sc.check("first packet through the shared port: cycles over its zero-load latency (hold: none)",
               static_cast<uint64_t>(id[first]), 0, static_cast<uint64_t>(extra[first]));
  } else {
    e.sc.expect(extra[first] > 0, "flit-by-flit allocation: the first packet is slowed by the second",
                static_cast<uint64_t>(extra[first]));
  }
  e.final_checks();
  e.report("hold");
  return e.sc.finish();
}

// Input-port priority against starvation (docs/neunoc.md, "Switch allocation"). Phase 1: PE 0
// of router 0 streams 40 packets back to back to router 2, filling router 1's east output from
// its west input; 60 cycles in, PE 0 of router 1 sends one packet the same way (from router 1's
// local input). Phase 2 swaps the roles: router 1's PE streams, router 0's PE sends one packet
// through router 1. In every build the single packet is not starved: it arrives before the
// stream ends, within the switch allocator's bound over its zero-load latency (SaPrioWait
// cycles when its input port has the lower priority, SaPrio; then at most NP x V packets ahead
// of it once it competes as an equal, nnoc_sa_greedy; plus the packet in progress).
// (Priority orders non-speculative requests only: a stream's next head reaches router 1 just as
// the previous tail leaves and asks speculatively, so the waiting packet usually takes the port
// at the first packet boundary whatever the priority.)
int run_inject(const TbArgs &a) {
  Directed d(a, "neunoc inject", true);
  Env &e = d.e;
  if (!has_cols(3, "inject")) return 2;
  const int len = 5, nstream = 40, dr = 2, np = 5;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  for (int phase = 1; phase <= 2; phase++) {
    const int stream_r = phase == 1 ? 0 : 1, single_r = 1 - stream_r;
    // the single packet's input port at router 1: local (phase 1) or west (phase 2)
    const bool low = TB_SaGreedy && ((phase == 1 && TB_SaPrio == 1) || (phase == 2 && TB_SaPrio == 2));
    uint64_t t0 = e.sim.cycle;
    long last_stream = -1;
    for (int i = 0; i < nstream; i++) last_stream = add_packet(e, *p, t0, pe_of(stream_r, 0), dr, 1u, len, 0);
    const uint64_t t1 = t0 + 60;   // the stream fills router 1's east output by then
    // to a PE of router 2 other than the stream's (K > 1)
    long id = add_packet(e, *p, t1, pe_of(single_r, 0), dr, TB_K > 1 ? 2u : 1u, len, 0);
    if (!e.drain(100000)) {
      e.sc.expect(false, "every packet delivered", static_cast<uint64_t>(nstream + 1));
      break;
    }
    long zero = analytic_latency(0, TB_K > 1 ? 1 : 0, hops(single_r, dr), len);
    long extra = static_cast<long>(e.pkts[id].t_done - t1) - zero;
    long bound = (low ? TB_SaPrioWait : 0) + static_cast<long>(np * TB_V + 1) * (len + 1);
    std::printf("noc: inject phase %d (%s packet against a %s stream) extra=%ld cycles over zero-load "
                "%ld, bound %ld (SaPrio %d, SaGreedy %d)\n", phase, phase == 1 ? "local" : "through",
                phase == 1 ? "through" : "local", extra, zero, bound, TB_SaPrio, TB_SaGreedy);
    e.sc.expect(e.pkts[id].t_done < e.pkts[last_stream].t_done,
                "the single packet arrives before the stream ends (not starved)", static_cast<uint64_t>(phase));
    e.sc.expect(extra <= bound, "the single packet's wait is within the allocator's bound",
                static_cast<uint64_t>(extra));
    for (int k = 0; k < 8; k++) e.step();  // credits back: the next phase starts on an idle network
  }
  delete p;
  e.final_checks();
  e.report("inject");
  return e.sc.finish();
}

// Whole packets first at ejection (EjWhole = 1; docs/neunoc.md, "Mesh router": nnoc_eject
// streams first a VC that holds a whole packet, its last flit arrived, when any does). PE 0 of
// the last router of row 0 (X) stops taking flits; P0 (PE 0 of router 0 -> X, 3 words) is
// committed at X's ejection queue and waits there. P1 (PE 0 of router 1 -> X, 6 words) is
// sent half (its source stops after the head and two words), then P2 (a PE of row 1 -> X, one
// word) arrives whole on the other VC (P1 owns its VC until its tail passes). X takes flits
// again: after P0 the queue must stream P2 (whole) before P1 (still arriving), so P2 arrives
// while P1's source is still stopped. With round-robin only (EjWhole = 0) P1 may go first and
// block the queue until its source resumes.
int run_ejwhole(const TbArgs &a) {
  Directed d(a, "neunoc ejwhole", true);
  Env &e = d.e;
  if (!has_cols(3, "ejwhole")) return 2;
  if (TB_Rows < 2) {
    std::fprintf(stderr, "noc: +test=ejwhole needs 2 rows or more\n");
    return 2;
  }
  const int dr = TB_Cols - 1, x = pe_of(dr, 0);
  const int sa = pe_of(0, 0), sb = pe_of(1, 0), sc = pe_of(router_xy(0, 1), 0);
  nnoc_pkt_t *p = new nnoc_pkt_t;
  e.sink_hold[x] = true;
  long p0 = add_packet(e, *p, e.sim.cycle, sa, dr, 1u, 3, 0);
  for (int c = 0; c < 100; c++) e.step();
  e.src_limit[sb] = e.src_taken[sb] + 3;   // head and two words of P1
  long p1 = add_packet(e, *p, e.sim.cycle, sb, dr, 1u, 6, 0);
  for (int c = 0; c < 100; c++) e.step();
  long p2 = add_packet(e, *p, e.sim.cycle, sc, dr, 1u, 1, 0);
  for (int c = 0; c < 100; c++) e.step();
  e.sc.check("nothing delivered to X while its sink is stopped", 0, 0, static_cast<uint64_t>(e.delivered));
  e.sink_hold[x] = false;
  for (int c = 0; c < 300; c++) e.step();
  std::printf("noc: ejwhole delivered P0 %d at %" PRIu64 ", P1 %d, P2 %d at %" PRIu64 " (EjWhole %d)\n",
              e.pkts[p0].delivered, e.pkts[p0].t_done, e.pkts[p1].delivered, e.pkts[p2].delivered,
              e.pkts[p2].t_done, TB_EjWhole);
  e.sc.check("P0 delivered once X takes flits", static_cast<uint64_t>(p0), 1, static_cast<uint64_t>(e.pkts[p0].delivered));
  if (TB_EjWhole)
    e.sc.check("whole packet first: P2 delivered while P1 is still arriving", static_cast<uint64_t>(p2), 1,
               static_cast<uint64_t>(e.pkts[p2].delivered));
  e.sc.check("P1 not delivered while its source is stopped", static_cast<uint64_t>(p1), 0,
             static_cast<uint64_t>(e.pkts[p1].delivered));
  e.src_limit[sb] = UINT64_MAX;
  bool ok = e.drain(100000);
  e.sc.expect(ok, "every packet delivered once P1's source resumes", 3);
  delete p;
  e.final_checks();
  e.report("ejwhole");
  return e.sc.finish();
}

// VC allocation is fair between inputs (docs/neunoc.md, "Mesh router"; nnoc_va_alloc: the
// pointer moves past each grantee, so two heads that keep waiting for one output port are granted
// in turn). Two streams of 16 packets to one PE (X, PE 0 of the last router of row 0) enter its
// router from two input ports, west (from PE 0 of router 0) and north (from PE 0 of the router
// above), while X takes a flit only one cycle in four: the local output's VCs are scarce and
// heads of both inputs wait for them. Each stream gets its share: when the first stream has
// all its packets delivered, the other has at least half of its own.
int run_vafair(const TbArgs &a) {
  Directed d(a, "neunoc vafair", true);
  Env &e = d.e;
  if (!has_cols(2, "vafair")) return 2;
  if (TB_Rows < 2 || g_cfg.dst_coord) {
    std::fprintf(stderr, "noc: +test=vafair needs 2 rows or more and bit-string heads\n");
    return 2;
  }
  const int dr = TB_Cols - 1, x = pe_of(dr, 0), n = 16, len = 6;
  const int src[2] = {pe_of(0, 0), pe_of(router_xy(TB_Cols - 1, 1), 0)};
  nnoc_pkt_t *p = new nnoc_pkt_t;
  std::vector<long> ids[2];
  for (int i = 0; i < n; i++)
    for (int s = 0; s < 2; s++) ids[s].push_back(add_packet(e, *p, e.sim.cycle, src[s], dr, 1u, len, 0));
  delete p;
  auto done = [&](int s) {
    int c = 0;
    for (long id : ids[s]) c += e.pkts[id].delivered;
    return c;
  };
  int first = -1, other = 0;
  while (e.busy() && !e.sim.timed_out && e.sim.cycle < 200000) {
    e.sink_hold[x] = (e.sim.cycle % 4) != 0;
    e.step();
    if (first < 0)
      for (int s = 0; s < 2; s++)
        if (done(s) == n) {
          first = s;
          other = done(1 - s);
          break;
        }
  }
  e.sink_hold[x] = false;
  std::printf("noc: vafair stream %d (from PE %d) done first, the other had %d of %d delivered\n", first,
              first >= 0 ? src[first] : -1, other, n);
  e.sc.expect(first >= 0, "both streams delivered", 0);
  e.sc.expect(other >= n / 2, "VC allocation shares the output: the other stream has half its packets", static_cast<uint64_t>(other));
  e.final_checks();
  e.report("vafair");
  return e.sc.finish();
}

// Input-port priority between two streams (docs/neunoc.md, "Switch allocation", SaPrio): a
// through stream (PE 0 of router 0, entering router 1 from the west) and a local stream (a PE of
// router 1) of 20 packets each, to router 2, created together; router 1's east output is their
// shared port. SaPrio = 1 (the plain meshes): the through stream goes first, so it has all its
// packets delivered before the local stream; SaPrio = 2 (Neu-NoC): the local input goes first,
// so the local stream is delivered first; SaPrio = 0: both are delivered.
int run_prio(const TbArgs &a) {
  Directed d(a, "neunoc prio", true);
  Env &e = d.e;
  if (!has_cols(3, "prio")) return 2;
  const int dr = 2, n = 20, len = 3;
  const int src[2] = {pe_of(0, 0), pe_of(1, 0)};   // through, local
  nnoc_pkt_t *p = new nnoc_pkt_t;
  std::vector<long> ids[2];
  for (int i = 0; i < n; i++)
    for (int s = 0; s < 2; s++)
      ids[s].push_back(add_packet(e, *p, e.sim.cycle, src[s], dr, TB_K > 1 ? (1u << s) : 1u, len, 0));
  delete p;
  uint64_t t_end[2] = {0, 0};
  while (e.busy() && !e.sim.timed_out && e.sim.cycle < 100000) {
    e.step();
    for (int s = 0; s < 2; s++) {
      int c = 0;
      for (long id : ids[s]) c += e.pkts[id].delivered;
      if (c == n && !t_end[s]) t_end[s] = e.sim.cycle;
    }
  }
  std::printf("noc: prio through stream done at %" PRIu64 ", local stream at %" PRIu64 " (SaPrio %d, SaGreedy %d)\n",
              t_end[0], t_end[1], TB_SaPrio, TB_SaGreedy);
  e.sc.expect(t_end[0] && t_end[1], "both streams delivered", 0);
  if (TB_SaPrio == 1)
    e.sc.expect(t_end[0] < t_end[1], "SaPrio 1: the through stream is delivered first", t_end[0]);
  if (TB_SaPrio == 2)
    e.sc.expect(t_end[1] < t_end[0], "SaPrio 2: the local stream is delivered first", t_end[1]);
  e.final_checks();
  e.report("prio");
  return e.sc.finish();
}

// Injection VC choice (docs/neunoc.md, nnoc_inject: an empty VC first, else with TailFree = 1
// the VC with the most credits when VcMost = 1). Router 0's local output is blocked: two packets
// from routers 1 and 3 (PE 0) to PE 1 of router 0 are sent half (their sources stop after the
// head and a word), so they own both of its VCs. PE 0 of router 0 then sends A0 (5 words) to PE 2
// of router 0: it takes VC 0 and waits in the router's local input, holding 6 of the VC's Depth
// credits. Then A1 (10 words, on the empty VC 1) and B (2 words) to routers 1 and 2, queued
// back to back: B's head finds VC 1 still holding A1's last flits but with more credits than
// VC 0, so it follows A1 and is delivered while A0 still waits (with the lowest VC that has a
// credit it would wait behind A0). The held sources then resume and everything drains.
int run_vcmost(const TbArgs &a) {
  Directed d(a, "neunoc vcmost", true);
  Env &e = d.e;
  if (!has_cols(3, "vcmost")) return 2;
  if (TB_Rows < 2 || TB_K < 3 || TB_V != 2 || !TB_VcMost || !TB_TailFree) {
    std::fprintf(stderr, "noc: +test=vcmost needs 2 rows, K >= 3, V = 2, VcMost = 1 and TailFree = 1\n");
    return 2;
  }
  const int s = pe_of(0, 0), h1 = pe_of(1, 0), h3 = pe_of(router_xy(0, 1), 0);
  nnoc_pkt_t *p = new nnoc_pkt_t;
  e.src_limit[h1] = e.src_taken[h1] + 2;
  e.src_limit[h3] = e.src_taken[h3] + 2;
  add_packet(e, *p, e.sim.cycle, h1, 0, 2u, 6, 0);
  add_packet(e, *p, e.sim.cycle, h3, 0, 2u, 6, 0);
  for (int c = 0; c < 100; c++) e.step();
  long a0 = add_packet(e, *p, e.sim.cycle, s, 0, 4u, 5, 0);
  for (int c = 0; c < 100; c++) e.step();
  long a1 = add_packet(e, *p, e.sim.cycle, s, 1, 1u, 10, 0);
  long b = add_packet(e, *p, e.sim.cycle, s, 2, 1u, 2, 0);
  for (int c = 0; c < 300; c++) e.step();
  e.sc.check("A0 waits while router 0's local output is held", static_cast<uint64_t>(a0), 0,
             static_cast<uint64_t>(e.pkts[a0].delivered));
  e.sc.check("A1 delivered", static_cast<uint64_t>(a1), 1, static_cast<uint64_t>(e.pkts[a1].delivered));
  e.sc.check("B takes the VC with the most credits (behind A1, not A0): delivered", static_cast<uint64_t>(b), 1,
             static_cast<uint64_t>(e.pkts[b].delivered));
  e.src_limit[h1] = e.src_limit[h3] = UINT64_MAX;
  bool ok = e.drain(100000);
  e.sc.expect(ok, "everything drains once the held sources resume", 5);
  delete p;
  e.final_checks();
  e.report("vcmost");
  return e.sc.finish();
}

// multicast to every router and every PE, including the source's own ring, and to many sets
int run_multicast(const TbArgs &a) {
  if (g_cfg.dst_coord) {
    std::fprintf(stderr, "noc: +test=multicast needs bit-string heads (this build has DstCoord = 1: "
                         "one destination router per packet)\n");
    return 2;
  }
  Directed d(a, "neunoc multicast", false);
  Env &e = d.e;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  uint32_t all_pe = (TB_K >= 32) ? 0xffffffffu : ((1u << TB_K) - 1);
  for (int s = 0; s < g_np; s++) {  // broadcast from every PE
    pkt_init(*p, e.sim.cycle, s);
    for (int r = 0; r < g_nr; r++) nnoc_mask_set(p->dst_mesh, r, 1);
    p->dst_pe = all_pe;
    fill_words(*p, TB_Depth - 1, 30);
    e.add(*p);
  }
  for (int i = 0; i < 400; i++) {  // random sets that always include the source's own ring
    int s = static_cast<int>(tb_rand_range(0, g_np - 1));
    pkt_init(*p, e.sim.cycle, s);
    nnoc_mask_set(p->dst_mesh, s / TB_K, 1);
    for (int r = 0; r < g_nr; r++)
      if (tb_chance(40)) nnoc_mask_set(p->dst_mesh, r, 1);
    p->dst_pe = rand_pe_mask();
    fill_words(*p, static_cast<int>(tb_rand_range(0, TB_Depth - 1)), 30);
    e.add(*p);
  }
  delete p;
  bool ok = e.drain(2000000);
  e.sc.expect(ok, "all multicasts delivered", e.sim.cycle);
  e.final_checks();
  long copies = 0;
  for (auto &pi : e.pkts) copies += pi.ndest;
  e.sc.expect(copies > 2L * static_cast<long>(e.pkts.size()), "multicast packets have many destinations", static_cast<uint64_t>(copies));
  e.report("multicast");
  return e.sc.finish();
}

// zero runs at the start, at the end (zero tail), longer than the counter, and packing counts
int run_zeros(const TbArgs &a) {
  Directed d(a, "neunoc zeros", true);
  Env &e = d.e;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  const int cntmax = (1 << TB_CntW) - 1;
  std::vector<std::vector<uint32_t>> cases = {
      {0, 0, 0, 7, 9},                      // run at the start
      {5, 6, 0, 0, 0},                      // run before a zero tail (the tail stays a tail)
      {3, 0},                               // zero tail alone after data
      {0},                                  // a one-word packet of zero
      {0, 0},                               // a run of one, then a zero tail
  };
  std::vector<uint32_t> longrun(1, 1);
  for (int i = 0; i < 2 * cntmax + 3; i++) longrun.push_back(0);  // longer than the counter
  longrun.push_back(2);
  cases.push_back(longrun);
  std::vector<uint32_t> allzero(3 * cntmax + 1, 0);
  cases.push_back(allzero);
  uint32_t mesh_before = 0;
  for (auto &c : cases) {
    pkt_init(*p, e.sim.cycle, 0);
    nnoc_mask_set(p->dst_mesh, g_nr - 1, 1);
    p->dst_pe = 1;
    p->nwords = static_cast<int>(c.size());
    for (size_t i = 0; i < c.size(); i++) p->words[i] = c[i];
    e.add(*p);
    mesh_before = e.sim.top->stat_mesh_flits_o;
    bool ok = e.drain(100000);
    e.sc.expect(ok, "zero-run packet delivered", static_cast<uint64_t>(c.size()));
    for (int k = 0; k < 4; k++) e.step();
    uint32_t on_mesh = e.sim.top->stat_mesh_flits_o - mesh_before;
    e.sc.check("flits entering the mesh = model's packed length", c.size(),
               static_cast<uint64_t>(nnoc_mesh_flits(&g_cfg, p, TB_Pack)), on_mesh);
  }
  delete p;
  e.final_checks();
  e.report("zeros");
  return e.sc.finish();
}

// VC exhaustion and credit return: many sources flood one PE whose sink stops for a long time,
// then resumes; afterwards a second wave must pass through the same VCs.
int run_vc_full(const TbArgs &a) {
  Directed d(a, "neunoc vc_full", false);
  Env &e = d.e;
  e.gap.pct = 0;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  int dst = g_nr - 1;
  for (int wave = 0; wave < 2; wave++) {
    for (int s = 0; s < g_np; s++) {
      for (int k = 0; k < 6; k++) {
        pkt_init(*p, e.sim.cycle, s);
        nnoc_mask_set(p->dst_mesh, dst, 1);
        p->dst_pe = 1;
        fill_words(*p, static_cast<int>(tb_rand_range(1, 2 * TB_Depth)), 20);
        e.add(*p);
      }
    }
    e.stall.pct = 100;  // the sink holds ready low: every VC on the way fills up
    for (int c = 0; c < 3000; c++) e.step();
    e.sc.expect(e.owed_count > 0, "a stopped sink holds traffic back (nothing is dropped)", static_cast<uint64_t>(e.owed_count));
    e.stall.pct = a.stall_pct;
    bool ok = e.drain(1000000);
    e.sc.expect(ok, "traffic resumes and drains once the sink takes flits again", static_cast<uint64_t>(wave));
  }
  delete p;
  e.final_checks();
  e.report("vc_full");
  return e.sc.finish();
}

// Credit depth (issue 22, finding 9): with every sink stopped, a source that keeps offering
// packets of Depth flits (nonzero words: packing leaves them whole) fills every VC buffer on its
// path to the full credit depth. A destination one mesh hop further adds one router input port
// to the path -- V VC FIFOs of Depth flits, all of them counted by the upstream router's
// credits (flits on the link register are counted too) -- so the flits the network takes from
// the source before it stops grow by exactly V x Depth per hop. A router that kept one credit
// back (sending only with two or more) takes fewer (15 of 16 in neunoc_small: the mutant of
// issue 22's finding 9, which only the 4-deep latency test caught). The destinations run along
// row 0, then up the last column (X hops, then Y hops), from PE 0 of router 0.
int run_fill(const TbArgs &a) {
  Directed d(a, "neunoc fill", false);
  Env &e = d.e;
  e.gap.pct = 0;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  const int src = pe_of(0, 0);
  std::vector<uint64_t> held;
  for (int h = 0; h <= TB_Cols - 1 + TB_Rows - 1; h++) {
    int dr = h < TB_Cols ? router_xy(h, 0) : router_xy(TB_Cols - 1, h - (TB_Cols - 1));
    e.stall.pct = 100;  // every sink holds ready low
    uint64_t before = e.src_taken[src], last = before;
    int quiet = 0;
    while (quiet < 500 && !e.sim.timed_out) {  // until the source has made no progress for a while
      if (e.srcq[src].size() < 2) add_packet(e, *p, e.sim.cycle, src, dr, 1u, TB_Depth - 1, 0);
      e.step();
      quiet = e.src_taken[src] == last ? quiet + 1 : 0;
      last = e.src_taken[src];
    }
    held.push_back(last - before);
    std::printf("noc: fill %d hop(s) to router %d: %" PRIu64 " flits held\n", h, dr, last - before);
    e.stall.pct = 0;
    bool ok = e.drain(1000000);
    e.sc.expect(ok, "traffic drains once the sinks take flits again", static_cast<uint64_t>(h));
    if (h > 0) {
      char what[96];
      std::snprintf(what, sizeof what, "flits held by one more hop (%d -> %d): V x Depth", h - 1, h);
      e.sc.check(what, static_cast<uint64_t>(h), static_cast<uint64_t>(TB_V) * TB_Depth,
                 held[h] - held[h - 1]);
    }
  }
  delete p;
  e.final_checks();
  e.report("fill");
  return e.sc.finish();
}

// Ring injection under contention: every PE of one ring sends at once. RingFair = 0 (the
// paper): in-flight flits win, but once the upstream PEs are done every PE's packets get
// through. RingFair = 1: every PE gets an equal share of the send channel, so all finish
// within a round of one packet per PE of each other.
int run_ring(const TbArgs &a) {
  Directed d(a, "neunoc ring", true);
  Env &e = d.e;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  for (int k = 0; k < 20; k++) {
    for (int pos = 0; pos < TB_K; pos++) {
      add_packet(e, *p, e.sim.cycle, pe_of(0, pos), g_nr - 1, (TB_K >= 32) ? 0xffffffffu : ((1u << TB_K) - 1), 4, 0);
    }
  }
  std::vector<uint64_t> t_done(TB_K, 0);
  while (e.busy() && !e.sim.timed_out) {
    e.step();
    for (int pos = 0; pos < TB_K; pos++)
      if (!t_done[pos] && e.srcq[pe_of(0, pos)].empty()) t_done[pos] = e.sim.cycle;
  }
  if (TB_RingFair) {
    // 20 packets of 5 flits from each PE share one channel: equal shares end together, within
    // two rounds of one packet per PE (a round is 5 K cycles)
    uint64_t lo = *std::min_element(t_done.begin(), t_done.end());
    uint64_t hi = *std::max_element(t_done.begin(), t_done.end());
    e.sc.check("fair send ring: every PE finishes within two rounds of the others (cycles apart <= 10 K)",
               0, 1, static_cast<uint64_t>(hi - lo <= 10ull * TB_K));
  } else {
    // In-flight flits win over injection, so a ring position can only inject while nothing
    // comes from upstream: with every PE offering all the time, position 0 finishes first, ...
    for (int pos = 1; pos < TB_K; pos++)
      e.sc.expect(t_done[pos - 1] < t_done[pos], "ring position p finishes injecting before p+1",
                  static_cast<uint64_t>(pos));
  }
  e.final_checks();
  e.report("ring");
  delete p;
  return e.sc.finish();
}

// Malformed PE streams: each is repaired or dropped with err_pe_o, and good packets still pass.
int run_guard(const TbArgs &a) {
  Directed d(a, "neunoc guard", true);
  Env &e = d.e;
  e.pe_stat_exact = false;   // raw flits, some dropped or repaired by the guards
  Vneunoc *t = e.sim.top;
  nnoc_pkt_t *p = new nnoc_pkt_t;
  int src = 0;
  for (int i = 0; i < g_np; i++) {  // ports start random (randReset): drive every one
    set_bit(t->pe_out_ready_i, i, true);
    set_bit(t->pe_in_valid_i, i, false);
  }
  auto send_raw = [&](const std::vector<nnoc_flit_t> &fl) {
    long errs = 0;
    for (auto &f : fl) {
      int spins = 0;
      for (;;) {
        set_bit(t->pe_in_valid_i, src, true);
        put_flit(t->pe_in_flit_i, src, f);
        t->eval();
        bool took = get_bit(t->pe_in_ready_o, src);
        errs += get_bit(t->err_pe_o, src);
        for (int i = 0; i < g_np; i++)
          if (get_bit(t->pe_out_valid_o, i)) e.receive(i, get_flit(t->pe_out_flit_o, i));
        e.sim.tick();
        if (took || ++spins > 1000) break;
      }
    }
    set_bit(t->pe_in_valid_i, src, false);
    return errs;
  };
  auto flits_of = [&](const nnoc_pkt_t &q) {
    std::vector<nnoc_flit_t> fl(q.nwords + 1);
    fl.resize(nnoc_pkt_flits(&g_cfg, &q, fl.data(), static_cast<int>(fl.size())));
    return fl;
  };
  auto good = [&](int len) {
    pkt_init(*p, 0, src);
    nnoc_mask_set(p->dst_mesh, g_nr - 1, 1);
    p->dst_pe = 1;
    fill_words(*p, len, 0);
  };
  // 1: a body and a PP outside a packet are dropped
  good(2);
  std::vector<nnoc_flit_t> fl = flits_of(*p);
  nnoc_flit_t body = fl[1], pp = fl[1];
  pp.w[(g_fw - 1) / 32] |= 3u << ((g_fw - 2) % 32);
  long errs = send_raw({body, pp});
  e.sc.check("stray body and PP flits: one error each", 1, 2, static_cast<uint64_t>(errs));
  // 2: a head with no destination router: the packet is dropped. Bit-string heads: an empty
  // string; coordinate heads: a column, then a row, off the mesh (when the field can hold one).
  good(3);
  fl = flits_of(*p);
  if (!g_cfg.dst_coord) {
    nnoc_mask_set(p->dst_mesh, g_nr - 1, 0);
    nnoc_flit_t bad_head;
    nnoc_head_encode(&g_cfg, p, &bad_head);
    fl[0] = bad_head;
    errs = send_raw(fl);
    e.sc.check("no-destination head: one error, packet dropped", 2, 1, static_cast<uint64_t>(errs));
  } else {
    int xw = nnoc_x_w(&g_cfg), yw = nnoc_dst_w(&g_cfg) - xw;
    bool x_off = (1 << xw) > TB_Cols, y_off = (1 << yw) > TB_Rows;
    e.sc.expect(x_off || y_off, "the guard test needs a column or row count that is not a power of two", 2);
    const uint32_t dst_mask = (1u << (xw + yw)) - 1;   // the destination field: bits [xw+yw-1:0]
    if (x_off) {
      fl[0].w[0] = (fl[0].w[0] & ~dst_mask) | static_cast<uint32_t>(TB_Cols);            // x = Cols, y = 0
      errs = send_raw(fl);
      e.sc.check("head with its column off the mesh: one error, packet dropped", 2, 1, static_cast<uint64_t>(errs));
    }
    if (y_off) {
      fl[0].w[0] = (fl[0].w[0] & ~dst_mask) | static_cast<uint32_t>(TB_Rows) << xw;      // x = 0, y = Rows
      errs = send_raw(fl);
      e.sc.check("head with its row off the mesh: one error, packet dropped", 2, 1, static_cast<uint64_t>(errs));
    }
  }
  // 3: a head inside a packet: the open packet is closed by a zero tail, the new one passes
  good(3);
  std::vector<nnoc_flit_t> open = flits_of(*p);
  nnoc_pkt_t truncated = *p;
  truncated.nwords = 2;  // head, body, [missing tail] -> head, body, zero tail
  truncated.words[1] = 0;
  e.add(truncated);
  e.srcq[src].clear();  // expectations only; the raw flits are driven below
  open.pop_back();
  open.pop_back();
  good(2);
  std::vector<nnoc_flit_t> next = flits_of(*p);
  e.add(*p);
  e.srcq[src].clear();
  std::vector<nnoc_flit_t> seq = open;
  seq.insert(seq.end(), next.begin(), next.end());
  errs = send_raw(seq);
  e.sc.check("head inside a packet: one error", 3, 1, static_cast<uint64_t>(errs));
  // 4: a multicast longer than a VC is cut to Depth flits (its last one a tail)
  if (g_nr > 1 && !g_cfg.dst_coord) {
    pkt_init(*p, 0, src);
    nnoc_mask_set(p->dst_mesh, 0, 1);
    nnoc_mask_set(p->dst_mesh, g_nr - 1, 1);
    p->dst_pe = 1;
    fill_words(*p, TB_Depth + 4, 0);
    fl = flits_of(*p);
    nnoc_pkt_t cut = *p;
    cut.nwords = TB_Depth - 1;
    e.add(cut);
    e.srcq[src].clear();
    errs = send_raw(fl);
    e.sc.check("overlong multicast: one error", 4, 1, static_cast<uint64_t>(errs));
  }
  // 5: the network keeps working: random traffic afterwards
  for (int i = 0; i < 200; i++) {
    pkt_init(*p, e.sim.cycle, static_cast<int>(tb_rand_range(0, g_np - 1)));
    nnoc_mask_set(p->dst_mesh, rand_router(), 1);
    p->dst_pe = rand_pe_mask();
    fill_words(*p, static_cast<int>(tb_rand_range(0, TB_Depth - 1)), 30);
    e.add(*p);
  }
  bool ok = e.drain(1000000);
  e.sc.expect(ok, "traffic after the errors is delivered", e.sim.cycle);
  delete p;
  e.final_checks();
  e.report("guard");
  return e.sc.finish();
}

// Saturation: every PE injects far beyond what the network carries for +n cycles, then stops;
// the network must deliver everything (no deadlock, nothing lost).
int run_saturate(const TbArgs &a) {
  Env e(a, 20000000, "neunoc saturate");
  nnoc_pkt_t *p = new nnoc_pkt_t;
  for (uint64_t c = 0; c < static_cast<uint64_t>(a.n) && !e.sim.timed_out; c++) {
    for (int s = 0; s < g_np; s++) {
      if (e.srcq[s].size() >= 4) continue;  // keep every source backlogged
      pkt_init(*p, e.sim.cycle, s);
      if (tb_chance(40) && g_nr > 1 && !g_cfg.dst_coord) {
        for (int k = 0; k < 3; k++) nnoc_mask_set(p->dst_mesh, rand_router(), 1);
        fill_words(*p, static_cast<int>(tb_rand_range(0, TB_Depth - 1)), 30);
      } else {
        nnoc_mask_set(p->dst_mesh, rand_router(), 1);
        fill_words(*p, static_cast<int>(tb_rand_range(0, 3 * TB_Depth)), 30);
      }
      p->dst_pe = rand_pe_mask();
      e.add(*p);
    }
    e.step();
  }
  delete p;
  bool ok = e.drain(5000000);
  e.sc.expect(ok, "a saturated network drains completely when injection stops", e.sim.cycle);
  e.final_checks();
  e.report("saturate");
  return e.sc.finish();
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_neunoc", 20000, &a,
          {{"test", "=<name>: a directed test (default random)"},
           {"traffic", "=<file>: inject a traffic file's packets"},
           {"rate", "=R: random test, packets per mille per PE per cycle"},
           {"maxlen", "=N: random test, longest packet (words)"},
           {"mc", "=P: random test, percent multicast"},
           {"mcmax", "=N: random test, most routers per multicast"},
           {"zeros", "=P: random test, percent zero words"},
           {"max_pkts", "=N: traffic, stop after N packets (0 all)"},
           {"sink_stall", "[=0|1]: traffic, sinks stall at +stall"},
           {"warmup", "=N: traffic, measurement window start (cycles)"},
           {"measure", "=N: traffic, measurement window length (cycles)"}});
  g_cfg.k = TB_K;
  g_cfg.cols = TB_Cols;
  g_cfg.rows = TB_Rows;
  g_cfg.data_w = TB_DataW;
  g_cfg.tag_w = TB_TagW;
  g_cfg.cnt_w = TB_CntW;
  g_cfg.dst_coord = TB_DstCoord;
  char err[160];
  if (nnoc_cfg_check(&g_cfg, err, sizeof err) != 0) {
    std::fprintf(stderr, "noc: build configuration: %s\n", err);
    return 2;
  }
  g_fw = nnoc_flit_w(&g_cfg);
  g_np = nnoc_pes(&g_cfg);
  g_nr = nnoc_routers(&g_cfg);
  const char *traffic = tb_plusarg("traffic");
  if (traffic) return run_traffic(a, traffic);
  const char *test = tb_plusarg("test");
  std::string t = test ? test : "random";
  if (t == "random") return run_random(a);
  if (t == "latency") return run_latency(a);
  if (t == "multicast") return run_multicast(a);
  if (t == "zeros") return run_zeros(a);
  if (t == "vc_full") return run_vc_full(a);
  if (t == "fill") return run_fill(a);
  if (t == "ring") return run_ring(a);
  if (t == "guard") return run_guard(a);
  if (t == "saturate") return run_saturate(a);
  if (t == "hold") return run_hold(a);
  if (t == "inject") return run_inject(a);
  if (t == "ejwhole") return run_ejwhole(a);
  if (t == "vafair") return run_vafair(a);
  if (t == "prio") return run_prio(a);
  if (t == "vcmost") return run_vcmost(a);
  std::fprintf(stderr, "noc: unknown +test=%s (random latency multicast zeros vc_full fill ring guard saturate "
                       "hold inject ejwhole vafair prio vcmost)\n",
               t.c_str());
  return 2;
}
