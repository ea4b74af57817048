// tb_neummu.cpp -- NeuMMU co-simulation against the C model (cmodel/neummu) and directed tests.
//
//   +test=random (default)  +n translations over a random page-table image with 4 KB and 2 MB
//                           pages, holes and permission faults at every level; random memory
//                           latency (+latlo/+lathi), read-port and response backpressure
//                           (+stall), request gaps (+gap); occasional remaps with one-VA or
//                           full invalidates (+inv=0 disables) and one reset mid-run (+reset=0
//                           disables). Every response is checked by ID against nmmu_translate;
//                           none may be missing, unknown or duplicated.
//   +test=<name>            one directed test (see the table at the end of this file).
//
// Ordering rule checked across an invalidate: a request accepted at or after the edge where
// inv_i is high must see the new tables; one accepted before may see the old or the new ones.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "tb_nmmu_env.h"


namespace {

struct Outst {
  uint64_t va;
  bool wr;
  std::vector<std::pair<uint64_t, int>> ok;  // acceptable (pa, status)
};

// Scoreboard of requests in flight, by ID.
struct Checker {
  nmmu_mem_t *mem;
  TbScore &sc;
  std::map<uint32_t, Outst> outst;
  std::vector<uint32_t> free_ids;
  long checked = 0;
  Checker(nmmu_mem_t *m, TbScore &s) : mem(m), sc(s) { reset_ids(); }
  void reset_ids() {
    outst.clear();
    free_ids.clear();
    for (uint32_t i = 0; i < (1u << TB_IdW); i++) free_ids.push_back((1u << TB_IdW) - 1 - i);
  }
  bool has_id() const { return !free_ids.empty(); }
  uint32_t take_id() {
    uint32_t i = free_ids.back();
    free_ids.pop_back();
    return i;
  }
  void issue(uint32_t id, uint64_t va, bool wr) {
    nmmu_xlat_t x = nmmu_translate(mem, va, wr);
    outst[id] = Outst{va, wr, {{x.pa, x.status}}};
  }
  // The tables changed and an invalidate is sent: requests in flight may see either version.
  void on_inv() {
    for (auto &kv : outst) {
      nmmu_xlat_t x = nmmu_translate(mem, kv.second.va, kv.second.wr);
      kv.second.ok.push_back({x.pa, x.status});
    }
  }
  void on_rsp(const MmuRsp &r) {
    auto it = outst.find(r.id);
    if (it == outst.end()) {
      sc.expect(false, "response with an unknown or already answered id", r.id);
      return;
    }
    const Outst &o = it->second;
    bool good = false;
    for (auto &e : o.ok) good |= e.first == r.pa && e.second == r.status;
    if (!good) {
      sc.check("status", r.id, (uint64_t)o.ok.back().second, (uint64_t)r.status);
      sc.check("pa", r.id, o.ok.back().first, r.pa);
      if (sc.fail <= 8)
        std::printf("  id %u va %012" PRIx64 " %s: got pa %013" PRIx64 " st %d\n", r.id, o.va,
                    o.wr ? "write" : "read", r.pa, r.status);
    } else {
      sc.expect(true, "translation", r.id);
    }
    checked++;
    outst.erase(it);
    free_ids.push_back(r.id);
  }
};

// ------------------------------------------------------------------ random page tables
struct RandImage {
  std::vector<uint64_t> pages;    // VAs (4 KB granules) to draw requests from
  std::vector<uint64_t> leaves4;  // mapped 4 KB pages (remap candidates)
  std::vector<uint64_t> leaves2;  // mapped 2 MB pages
  uint64_t frame() { return (tb_rand() & 0xFFFFFFFFFull) << 12; }  // any 52-bit PA frame
};

void build_random(PtBuilder &pb, RandImage &ri) {
  const unsigned l4s[3] = {0, 3, 511};
  for (unsigned a : l4s) {
    for (unsigned b = 0; b < 4; b++) {
      for (unsigned c = 0; c < 6; c++) {
        uint64_t base = ((uint64_t)a << 39) | ((uint64_t)b << 30) | ((uint64_t)c << 21);
        if (a == 511) base |= 0xFFFF000000000000ull;  // canonical upper half (bits 63:48 ignored)
        uint32_t kind = tb_rand_range(0, 99);
        if (kind < 15) {
          uint64_t fl = (tb_chance(80) ? NMMU_PTE_W : 0) | (tb_chance(95) ? NMMU_PTE_U : 0);
          pb.map2m(base, ((tb_rand() & 0x7FFFFFFull) << 21), fl);
          ri.leaves2.push_back(base);
          for (int k = 0; k < 8; k++) ri.pages.push_back(base + ((uint64_t)tb_rand_range(0, 511) << 12));
        } else if (kind < 22) {
          // L2 entry not present (table_for created the tables above it)
          pb.set_entry(base, 2, 0);
          ri.pages.push_back(base + ((uint64_t)tb_rand_range(0, 511) << 12));
        } else {
          for (unsigned d = 0; d < 48; d++) {
            uint64_t va = base | ((uint64_t)d << 12);
            if (tb_chance(85)) {
              uint64_t fl = (tb_chance(90) ? NMMU_PTE_W : 0) | (tb_chance(97) ? NMMU_PTE_U : 0);
              pb.map4k(va, ri.frame(), fl);
              ri.leaves4.push_back(va);
            }
            ri.pages.push_back(va);
          }
        }
      }
      // upper-level variety: a read-only L3 entry, a supervisor-only one, a 1 GB (PS) one,
      // a missing one
      uint64_t l3va = ((uint64_t)a << 39) | ((uint64_t)b << 30);
      if (a == 511) l3va |= 0xFFFF000000000000ull;
      uint32_t k3 = tb_rand_range(0, 9);
      uint64_t e = pb.get_entry(l3va, 3);
      if (k3 == 0) pb.set_entry(l3va, 3, e & ~NMMU_PTE_W);
      if (k3 == 1) pb.set_entry(l3va, 3, e & ~NMMU_PTE_U);
      if (k3 == 2) pb.set_entry(l3va, 3, e | NMMU_PTE_PS);
      if (k3 == 3) pb.set_entry(l3va, 3, e & ~NMMU_PTE_P);
    }
  }
  // never-mapped L4 slots
  for (int k = 0; k < 16; k++) ri.pages.push_back((uint64_t)tb_rand_range(100, 200) << 39);
}

// ------------------------------------------------------------------ random co-simulation
int run_random(const TbArgs &a) {
  TbScore sc("neummu random");
  nmmu_mem_t *mem = nmmu_mem_new();
  PtBuilder pb(mem);
  RandImage ri;
  build_random(pb, ri);
  MmuEnv env(a, ~0ull, mem);
  env.lat_lo = static_cast<uint32_t>(tb_plusarg_num("latlo", 1, 100000, 1));
  env.lat_hi = static_cast<uint32_t>(tb_plusarg_num("lathi", env.lat_lo, 100000, std::max<uint32_t>(60, env.lat_lo)));
  env.mem_stall_pct = a.stall_pct;
  env.rsp_stall_pct = a.stall_pct;
  const bool do_inv = tb_plusarg_flag("inv", true);
  const bool do_reset = tb_plusarg_flag("reset", true);
  unsigned cfg_w = static_cast<unsigned>(tb_plusarg_num("walkers", 0, TB_Walkers, 0));
  unsigned cfg_s = static_cast<unsigned>(tb_plusarg_num("slots", 0, TB_Slots, TB_Slots));
  unsigned cfg_t = static_cast<unsigned>(tb_plusarg_num("tpreg", 0, 1, 1));
  env.config(cfg_w, cfg_s, cfg_t);
  env.reset();

  Checker ck(mem, sc);
  std::vector<MmuRsp> rsps;
  long issued = 0;
  bool offer = false;
  uint32_t oid = 0;
  uint64_t ova = 0;
  bool owr = false;
  uint64_t hot = ri.pages[0];
  bool reset_done = !do_reset;
  long invs = 0, remaps = 0;
  const uint64_t limit = (uint64_t)a.n * 400 + 200000;
  while ((issued < a.n || !ck.outst.empty() || offer) && env.sim.cycle < limit) {
    if (!offer && issued < a.n && ck.has_id() && !tb_chance(a.gap_pct)) {
      // locality: half of the requests go to the current hot page (merges, TLB hits)
      if (tb_chance(8)) hot = ri.pages[tb_rand_range(0, (uint32_t)ri.pages.size() - 1)];
      uint64_t pg = tb_chance(55) ? hot : ri.pages[tb_rand_range(0, (uint32_t)ri.pages.size() - 1)];
      ova = pg | tb_rand_range(0, 4095);
      owr = tb_chance(30);
      oid = ck.take_id();
      offer = true;
    }
    bool inv = false, inv_all = false;
    uint64_t inv_va = 0;
    if (do_inv && tb_chance(1) && tb_chance(2)) {
      // remap a leaf (one-VA invalidate) or an upper entry (invalidate all)
      uint32_t k = tb_rand_range(0, 9);
      if (k < 6 && !ri.leaves4.empty()) {
        uint64_t va = ri.leaves4[tb_rand_range(0, (uint32_t)ri.leaves4.size() - 1)];
        uint64_t e = pb.get_entry(va, 1);
        uint64_t ne = tb_chance(70) ? ((e & ~NMMU_PTE_FRAME) | ri.frame()) : (e ^ NMMU_PTE_W);
        if (tb_chance(10)) ne &= ~NMMU_PTE_P;
        pb.set_entry(va, 1, ne);
        inv_va = va | tb_rand_range(0, 4095);
        inv_all = tb_chance(20);
      } else if (k < 8 && !ri.leaves2.empty()) {
        uint64_t va = ri.leaves2[tb_rand_range(0, (uint32_t)ri.leaves2.size() - 1)];
        uint64_t e = pb.get_entry(va, 2);
        pb.set_entry(va, 2, (e & ~NMMU_PTE_FRAME_2M) | ((tb_rand() & 0x7FFFFFFull) << 21));
        inv_va = va | tb_rand_range(0, (1u << 21) - 1);
      } else {
        uint64_t va = ri.pages[tb_rand_range(0, (uint32_t)ri.pages.size() - 1)];
        int lvl = (int)tb_rand_range(2, 3);
        uint64_t e = pb.get_entry(va, lvl);
        pb.set_entry(va, lvl, e ^ (tb_chance(50) ? NMMU_PTE_W : NMMU_PTE_U));
        inv_all = true;
      }
      inv = true;
      remaps++;
      ck.on_inv();
    }
    if (!reset_done && issued >= a.n / 2 && !ck.outst.empty()) {
      // reset with walks in flight: their requests are never answered
      env.reset();
      env.config(cfg_w, cfg_s, cfg_t);
      ck.reset_ids();
      offer = false;
      reset_done = true;
      continue;
    }
    rsps.clear();
    bool took = env.step(offer, oid, ova, owr, rsps, inv, inv_all, inv_va);
    invs += inv;
    if (took) {
      ck.issue(oid, ova, owr);
      issued++;
      offer = false;
    }
    for (auto &r : rsps) ck.on_rsp(r);
  }
  sc.expect(ck.outst.empty(), "every request answered (none missing)", ck.outst.size());
  sc.expect(!offer && issued >= a.n, "every request accepted", (uint64_t)issued);
  Vneummu *t = env.top;
  sc.expect(env.reads == t->stat_reads_o, "page-table reads counted = reads on the port", env.reads);
  sc.expect(t->stat_reads_o <= 4ull * t->stat_walks_o, "reads <= 4 x walks", t->stat_reads_o);
  if (cfg_s == 0) sc.check("no merges with cfg_slots = 0", 0, 0, t->stat_merges_o);
  std::printf("random: %ld translations checked, %" PRIu64 " cycles, %ld invalidates (%ld remaps); "
              "since reset: walks %u merges %u hits %u reads %u tp l4/l3/l2 %u/%u/%u\n",
              ck.checked, env.sim.cycle, invs, remaps, t->stat_walks_o, t->stat_merges_o,
              t->stat_hits_o, t->stat_reads_o, t->stat_tp_l4_o, t->stat_tp_l3_o, t->stat_tp_l2_o);
  nmmu_mem_free(mem);
  return sc.finish();
}

// ------------------------------------------------------------------ directed tests
struct Dir {
  TbScore sc;
  nmmu_mem_t *mem;
  PtBuilder pb;
  MmuEnv env;
  Checker ck;
  std::vector<MmuRsp> last;  // responses of the last batch, in arrival order
  Dir(const TbArgs &a, const char *name)
      : sc(name), mem(nmmu_mem_new()), pb(mem), env(a, 2000000, mem), ck(mem, sc) {
    env.lat_lo = env.lat_hi = 50;
  }
  ~Dir() { nmmu_mem_free(mem); }
  void start(unsigned w = 0, unsigned s = TB_Slots, unsigned t = 1) {
    env.config(w, s, t);
    env.reset();
  }
  // Issues the requests back to back (waiting only for ready) and runs until all are answered.
  // Returns the number of cycles the request port was not ready while a request was offered.
  uint64_t batch(const std::vector<std::pair<uint64_t, bool>> &reqs, uint64_t max = 200000) {
    last.clear();
    size_t i = 0;
    bool offer = false;
    uint32_t id = 0;
    uint64_t blocked = 0, t0 = env.sim.cycle;
    std::vector<MmuRsp> rs;
    while ((i < reqs.size() || offer || !ck.outst.empty()) && env.sim.cycle - t0 < max) {
      if (!offer && i < reqs.size()) {
        id = ck.take_id();
        offer = true;
      }
      rs.clear();
      bool took = env.step(offer, id, offer ? reqs[i].first : 0, offer && reqs[i].second, rs);
      if (offer && !took) blocked++;
      if (took) {
        ck.issue(id, reqs[i].first, reqs[i].second);
        i++;
        offer = false;
      }
      for (auto &r : rs) {
        last.push_back(r);
        ck.on_rsp(r);
      }
    }
    sc.expect(ck.outst.empty(), "batch answered", i);
    return blocked;
  }
  uint64_t one(uint64_t va, bool wr = false) {
    batch({{va, wr}});
    return last.empty() ? ~0ull : last[0].pa;
  }
  int st() const { return last.empty() ? -1 : last[0].status; }
  void idle(int n) {
    std::vector<MmuRsp> rs;
    for (int k = 0; k < n; k++) env.step(false, 0, 0, false, rs);
    for (auto &r : rs) sc.expect(false, "no response while idle", r.id);
  }
  Vneummu *t() { return env.top; }
};

const uint64_t VA0 = 0x0000123456789000ull;  // L4 36, L3 89, L2 179, L1 393 (arbitrary)

int t_hit(const TbArgs &a) {
  Dir d(a, "neummu hit");
  d.pb.map4k(VA0, 0xABCDE000);
  d.start();
  d.one(VA0 + 0x123);
  uint32_t r0 = d.t()->stat_reads_o;
  d.sc.check("first access walks all 4 levels", 0, 4, r0);
  d.sc.check("pa", 0, 0xABCDE123, d.one(VA0 + 0x123));
  d.sc.check("second access: no read", 0, r0, d.t()->stat_reads_o);
  d.sc.check("second access: TLB hit", 0, 1, d.t()->stat_hits_o);
  return d.sc.finish();
}

// stat_clear_i restarts every counter (docs/neummu.md, "Counters"): all read 0 after a clear
// with nothing in flight, and count again from there.
int t_stat_clear(const TbArgs &a) {
  Dir d(a, "neummu stat clear");
  d.pb.map4k(VA0, 0x33333000);
  d.pb.map4k(VA0 + 0x1000, 0x33334000);
  d.start();
  auto idle = [&](int n) {
    std::vector<MmuRsp> rs;
    for (int i = 0; i < n; i++) d.env.step(false, 0, 0, false, rs);
    d.sc.check("no response while idle", 0, 0, rs.size());
  };
  auto all = [&]() -> uint64_t {
    auto *t = d.t();
    return (uint64_t)t->stat_hits_o + t->stat_walks_o + t->stat_merges_o + t->stat_reads_o +
           t->stat_tp_l4_o + t->stat_tp_l3_o + t->stat_tp_l2_o + t->stat_stall_rsp_o +
           t->stat_stall_down_o + t->stat_stall_prmb_o + t->stat_stall_walk_o +
           t->stat_dup_walks_o + t->stat_lat_pipe_o + t->stat_lat_hol_o + t->stat_lat_port_o +
           t->stat_lat_mem_o + t->stat_lat_ans_o + t->stat_lat_out_o;
  };
  d.batch({{VA0, false}});
  idle(8);
  d.sc.check("walks before the clear", 0, 1, d.t()->stat_walks_o);
  d.sc.expect(d.t()->stat_lat_mem_o > 0, "table-memory request-cycles before the clear",
              d.t()->stat_lat_mem_o);
  d.t()->stat_clear_i = 1;
  idle(1);
  d.t()->stat_clear_i = 0;
  d.sc.check("every counter after a clear", 0, 0, all());
  idle(4);
  d.sc.check("every counter a few idle cycles later", 0, 0, all());
  d.batch({{VA0 + 16, false}, {VA0 + 0x1000, false}});
  idle(8);
  d.sc.check("hits after the clear", 0, 1, d.t()->stat_hits_o);
  d.sc.check("walks after the clear", 0, 1, d.t()->stat_walks_o);
  d.sc.expect(d.t()->stat_reads_o >= 1 && d.t()->stat_reads_o <= 4,
              "1..4 page-table reads after the clear", d.t()->stat_reads_o);
  d.sc.expect(d.t()->stat_lat_pipe_o + d.t()->stat_lat_hol_o > 0,
              "lookup request-cycles after the clear", 0);
  return d.sc.finish();
}

int t_merge(const TbArgs &a) {
  Dir d(a, "neummu merge");
  d.pb.map4k(VA0, 0x11111000);
  d.start();
  d.batch({{VA0, false}, {VA0 + 8, true}, {VA0 + 16, false}});
  d.sc.check("walks", 0, TB_Slots >= 2 ? 1 : 3 - TB_Slots, d.t()->stat_walks_o);
  d.sc.check("merges", 0, TB_Slots >= 2 ? 2 : TB_Slots, d.t()->stat_merges_o);
  d.sc.check("answers", 0, 3, d.last.size());
  // every walk after the first starts while the first is in flight (its PRMB full): duplicates
  d.sc.check("duplicate walks = walks - 1", 0, d.t()->stat_walks_o - 1, d.t()->stat_dup_walks_o);
  // the walker answers its own request first, then the merged ones in order
  if (TB_Slots >= 2 && d.last.size() == 3) {
    d.sc.check("pa order 0", 0, 0x11111000, d.last[0].pa);
    d.sc.check("pa order 2", 0, 0x11111010, d.last[2].pa);
  }
  return d.sc.finish();
}

// A walker's PRMB takes as many merges as cfg_slots allows (+slots=N, default all Slots; 0 is
// the IOMMU mode, no merging): of cfg_slots + 2 requests to one page, the first walks, the next
// cfg_slots merge and the last starts a second walk.
int t_prmb_full(const TbArgs &a) {
  Dir d(a, "neummu prmb full");
  const unsigned slots = static_cast<unsigned>(tb_plusarg_num("slots", 0, TB_Slots, TB_Slots));
  d.pb.map4k(VA0, 0x22222000);
  d.env.lat_lo = d.env.lat_hi = 300;
  d.start(0, slots);
  std::vector<std::pair<uint64_t, bool>> r;
  for (unsigned k = 0; k < slots + 2; k++) r.push_back({VA0 + 8 * k, false});
  d.batch(r);
  d.sc.check("a full PRMB starts a second walk", 0, 2, d.t()->stat_walks_o);
  d.sc.check("merges = cfg_slots", 0, slots, d.t()->stat_merges_o);
  d.sc.check("answers", 0, slots + 2, d.last.size());
  d.sc.check("the second walk is a duplicate (the first holds the page)", 0, 1,
             d.t()->stat_dup_walks_o);
  return d.sc.finish();
}

int t_walkers_busy(const TbArgs &a) {
  Dir d(a, "neummu walkers busy");
  d.env.lat_lo = d.env.lat_hi = 200;
  std::vector<std::pair<uint64_t, bool>> r;
  for (int k = 0; k <= TB_Walkers; k++) {
    d.pb.map4k(VA0 + ((uint64_t)k << 12), 0x30000000 + ((uint64_t)k << 12));
    r.push_back({VA0 + ((uint64_t)k << 12), false});
  }
  // The extra request waits (in the lookup pipeline, then at the port) for a walker: its answer
  // comes after two full 4-level walks at 200 cycles per read.
  d.start(0, 0, 0);
  uint64_t t0 = d.env.sim.cycle;
  d.batch(r);
  d.sc.check("walks", 0, TB_Walkers + 1, d.t()->stat_walks_o);
  d.sc.expect(d.last.back().cycle - t0 >= 1600, "extra walk waits for a free walker",
              d.last.back().cycle - t0);
  d.sc.expect(d.last[TB_Walkers - 1].cycle - t0 < 1000, "the first Walkers walks overlap",
              d.last[TB_Walkers - 1].cycle - t0);
  // more requests than the lookup pipeline holds: the request port itself is held off
  for (int k = TB_Walkers + 1; k < TB_Walkers + 8; k++) {
    d.pb.map4k(VA0 + ((uint64_t)k << 12), 0x30000000 + ((uint64_t)k << 12));
    r.push_back({VA0 + ((uint64_t)k << 12), false});
  }
  d.start(0, 0, 0);
  uint64_t blocked = d.batch(r);
  d.sc.expect(blocked >= 700, "request port held off while every walker is busy", blocked);
  // run-time limit of walkers: with 1 walker, 2 distinct pages take two walks in series
  d.start(1, 0, 0);
  t0 = d.env.sim.cycle;
  d.batch({r[0], r[1]});
  d.sc.expect(d.last.back().cycle - t0 >= 1600, "cfg_walkers=1 serializes walks",
              d.last.back().cycle - t0);
  return d.sc.finish();
}

int t_tpreg(const TbArgs &a) {
  Dir d(a, "neummu tpreg");
  const uint64_t P = VA0;
  const uint64_t pages[5] = {P, P + (1ull << 12), P + (1ull << 21), P + (1ull << 30), P + (1ull << 39)};
  const unsigned exp_reads[5] = {4, 1, 2, 3, 4};
  for (int k = 0; k < 5; k++) d.pb.map4k(pages[k], 0x40000000 + ((uint64_t)k << 12));
  for (int on = 1; on >= 0; on--) {
    d.start(1, TB_Slots, (unsigned)on);
    for (int k = 0; k < 5; k++) {
      uint32_t r0 = d.t()->stat_reads_o;
      d.sc.check("pa", k, 0x40000000 + ((uint64_t)k << 12), d.one(pages[k]));
      d.sc.check(on ? "reads with TPreg" : "reads without TPreg", k,
                 on && TB_TpReg ? exp_reads[k] : 4, d.t()->stat_reads_o - r0);
    }
    const bool tp = on && TB_TpReg;
    d.sc.check("tag hits L4", on, tp ? 3 : 0, d.t()->stat_tp_l4_o);
    d.sc.check("tag hits L3", on, tp ? 2 : 0, d.t()->stat_tp_l3_o);
    d.sc.check("tag hits L2", on, tp ? 1 : 0, d.t()->stat_tp_l2_o);
  }
  return d.sc.finish();
}

int t_page2m(const TbArgs &a) {
  Dir d(a, "neummu 2m page");
  const uint64_t V = 0x00007F0000200000ull, PA = 0x000ABCDE00000000ull;
  d.pb.map2m(V, PA);
  d.start();
  d.sc.check("pa", 0, PA + 0x12345, d.one(V + 0x12345));
  d.sc.check("reads (L4, L3, L2)", 0, 3, d.t()->stat_reads_o);
  d.sc.check("other 4 KB of the page: pa", 1, PA + 0x1FF008, d.one(V + 0x1FF008));
  d.sc.check("other 4 KB of the page: 2 MB TLB hit", 1, 1, d.t()->stat_hits_o);
  d.sc.check("no more reads", 1, 3, d.t()->stat_reads_o);
  return d.sc.finish();
}

int t_faults(const TbArgs &a) {
  Dir d(a, "neummu faults");
  const uint64_t G = 0x0000200000000000ull;  // L4 index 64
  uint64_t v[10];
  for (int k = 0; k < 10; k++) v[k] = G + ((uint64_t)k << 30);  // one L3 entry each
  d.pb.map4k(v[0], 0x50000000);
  d.pb.map4k(v[1], 0x50001000);
  d.pb.set_entry(v[1], 1, 0);                                   // L1 not present
  d.pb.map4k(v[2], 0x50002000);
  d.pb.set_entry(v[2], 2, 0);                                   // L2 not present
  d.pb.map4k(v[3], 0x50003000);
  d.pb.set_entry(v[3], 3, 0);                                   // L3 not present
  d.pb.map4k(v[4], 0x50004000);
  d.pb.set_entry(v[4], 3, d.pb.get_entry(v[4], 3) | NMMU_PTE_PS);  // 1 GB page: unsupported
  d.pb.map4k(v[5], 0x50005000, NMMU_PTE_W);                     // U clear at L1
  d.pb.map4k(v[6], 0x50006000);
  d.pb.set_entry(v[6], 2, d.pb.get_entry(v[6], 2) & ~NMMU_PTE_U);  // U clear at L2
  d.pb.map4k(v[7], 0x50007000, NMMU_PTE_U);                     // read-only page
  d.pb.map4k(v[8], 0x50008000);
  d.pb.set_entry(v[8], 3, d.pb.get_entry(v[8], 3) & ~NMMU_PTE_W);  // read-only L3 entry
  const uint64_t unmapped_l4 = 0x0000300000000000ull;
  struct { uint64_t va; bool wr; int st; } c[] = {
      {v[1], false, 1}, {v[2], false, 1}, {v[3], false, 1}, {v[4], false, 1},
      {unmapped_l4, false, 1}, {v[5], false, 2}, {v[6], true, 2}, {v[7], true, 2},
      {v[7], false, 0}, {v[8], true, 2}, {v[8], false, 0}, {v[0], true, 0}};
  d.start();
  for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
    uint64_t pa = d.one(c[k].va + 0x10, c[k].wr);
    d.sc.check("status", k, (uint64_t)c[k].st, (uint64_t)d.st());
    if (c[k].st) d.sc.check("pa of a fault is 0", k, 0, pa);
  }
  // faults are not cached: map the missing page and ask again without an invalidate
  d.pb.set_entry(v[1], 1, 0x50001000 | NMMU_PTE_P | NMMU_PTE_W | NMMU_PTE_U);
  d.sc.check("mapped after a fault", 0, 0x50001010, d.one(v[1] + 0x10));
  // a permission fault of a write does not stop reads to the same (cached) page
  d.sc.check("read of a read-only page", 0, 0x50007010, d.one(v[7] + 0x10));
  // nor is a fault of an unchanged table cached: the same unmapped page asked twice in a row
  // walks twice, and the second walk is no duplicate (the first one has ended: no walk of the
  // page is in flight, DUP_WALKS counts only walks that start beside one)
  for (int k = 0; k < 2; k++) {
    uint32_t w0 = d.t()->stat_walks_o;
    d.one(unmapped_l4 + 0x20 + 8 * k);
    d.sc.check("unmapped page asked again: status", k, 1, (uint64_t)d.st());
    d.sc.check("unmapped page asked again: it walks", k, 1, d.t()->stat_walks_o - w0);
  }
  d.sc.check("no duplicate walks (one request at a time)", 0, 0, d.t()->stat_dup_walks_o);
  d.sc.check("no stall for a page being walked (one request at a time)", 0, 0,
             d.t()->stat_stall_prmb_o);
  return d.sc.finish();
}

int t_inv(const TbArgs &a) {
  Dir d(a, "neummu invalidate");
  const uint64_t A = VA0, B = VA0 + (7ull << 12), C = 0x0000400000000000ull;
  d.pb.map4k(A, 0x60000000);
  d.pb.map4k(B, 0x60001000);
  d.pb.map2m(C, 0x0000001000000000ull);
  d.env.lat_lo = d.env.lat_hi = 100;
  d.start();
  // 1. TLB entries: cache B and C, remap both, one-VA invalidates, then ask again
  d.one(B);
  d.one(C + 0x5000);
  d.pb.map4k(B, 0x61001000);
  d.pb.map2m(C, 0x0000002000000000ull);
  std::vector<MmuRsp> rs;
  d.env.step(false, 0, 0, false, rs, true, false, B + 0x777);
  d.env.step(false, 0, 0, false, rs, true, false, C + 0x1FFFFF);
  d.sc.check("B after one-VA invalidate", 0, 0x61001000, d.one(B));
  d.sc.check("C (2 MB) after one-VA invalidate", 0, 0x0000002000005000ull, d.one(C + 0x5000));
  // 2. invalidate while a walk is in flight: the walk has read the old leaf, its answer may be
  //    old, but it must not fill the TLB; a request after the invalidate sees the new leaf.
  d.start();
  uint32_t id = d.ck.take_id();
  bool took = false;
  while (!took) took = d.env.step(true, id, A, false, rs);
  d.ck.issue(id, A, false);
  while (d.env.reads < 4) d.env.step(false, 0, 0, false, rs);  // leaf read accepted
  d.pb.map4k(A, 0x62000000);
  d.ck.on_inv();
  d.env.step(false, 0, 0, false, rs, true, true, 0);
  for (auto &r : rs) d.ck.on_rsp(r);
  d.batch({});
  d.sc.check("walk in flight answers the old translation", 0, 0x60000000,
             rs.empty() ? d.last.at(0).pa : rs[0].pa);
  d.sc.check("after invalidate all: new translation", 0, 0x62000000, d.one(A));
  d.sc.check("... and it walked again", 0, 2, d.t()->stat_walks_o);
  // 3. a merge after the invalidate does not join the stale walk
  d.start();
  took = false;
  id = d.ck.take_id();
  while (!took) took = d.env.step(true, id, A, false, rs);
  d.ck.issue(id, A, false);
  while (d.env.reads < 2) d.env.step(false, 0, 0, false, rs);
  d.pb.map4k(A, 0x63000000);
  d.ck.on_inv();
  d.env.step(false, 0, 0, false, rs, true, false, A);
  d.batch({{A, false}});
  d.sc.check("post-invalidate request walks on its own", 0, 2, d.t()->stat_walks_o);
  d.sc.check("post-invalidate request sees the new leaf", 0, 0x63000000, d.last.back().pa);
  return d.sc.finish();
}

// The TLB's read/fill collision guard (nmmu_tlb, "Lookup timing"): an invalidated entry leaves
// its old tag and frame in the way's SRAM; the refill of the same page writes that way while a
// lookup of the same set reads it at the same edge (the SRAM returns the old word) and the
// valid bit turns on at that edge. The lookup must then miss, not hit the old frame. Map,
// access, invalidate, remap, then requests to the page every cycle across the refill: every
// response is the new frame. Several memory latencies and start offsets move the refill edge.
int t_refill(const TbArgs &a) {
  Dir d(a, "neummu tlb refill");
  uint64_t frame = 0x64000000;
  long rounds = 0;
  uint64_t blocked = 0;
  for (uint32_t lat = 1; lat <= 8; lat++) {
    for (int skew = 0; skew < 3; skew++) {
      d.env.lat_lo = d.env.lat_hi = lat;
      d.pb.map4k(VA0, frame);
      d.start();
      d.sc.check("first access: the old frame", 0, frame, d.one(VA0));
      frame += 0x1000;
      d.pb.map4k(VA0, frame);
      d.ck.on_inv();
      std::vector<MmuRsp> rs;
      d.env.step(false, 0, 0, false, rs, true, false, VA0 + 0x40);
      d.idle(skew);
      std::vector<std::pair<uint64_t, bool>> r;
      for (int k = 0; k < 24; k++) r.push_back({VA0 + 8 * static_cast<uint64_t>(k), false});
      blocked += d.batch(r);  // offered every cycle; the port may hold one back (PRMB full)
      d.sc.check("answers", lat, r.size(), d.last.size());
      for (const auto &x : d.last)
        d.sc.check("after invalidate and remap: the new frame", x.id, frame, x.pa & ~0xFFFull);
      rounds++;
    }
  }
  std::printf("tlb refill: %ld rounds, %" PRIu64 " request-cycles held back\n", rounds, blocked);
  return d.sc.finish();
}

// TLB replacement (nmmu_tlb's header, docs/neummu.md "Decisions"): a 4 KB fill takes the first
// invalid way of its set, else the way named by a round-robin counter shared by every set that
// advances on each 4 KB fill finding its set full; a 2 MB fill takes the first invalid 2 MB entry,
// else the entry of the 2 MB array's own round-robin counter, which advances alike (both counters
// start at 0 after reset). A reference model of that policy predicts which request of a
// seeded sequence hits and which walks: one request at a time (no walks race, no duplicate
// fills), 2 MB pages over twice the 2 MB entries, and 4 KB pages over twice the ways of two sets.
struct TlbRef {
  unsigned ways, rr = 0;
  std::vector<std::vector<std::pair<bool, uint64_t>>> sets;  // (valid, tag) per way
  TlbRef(unsigned nsets, unsigned nways)
      : ways(nways), sets(nsets, std::vector<std::pair<bool, uint64_t>>(nways, {false, 0})) {}
  // Looks tag up in its set; a miss fills it (the walk's fill). Returns true on a hit.
  bool access(unsigned set, uint64_t tag) {
    auto &w = sets[set];
    for (auto &e : w)
      if (e.first && e.second == tag) return true;
    unsigned victim = rr;
    bool full = true;
    for (unsigned k = 0; k < ways; k++)
      if (!w[k].first) {
        victim = k;
        full = false;
        break;
      }
    w[victim] = {true, tag};
    if (full) rr = (rr + 1) % ways;
    return false;
  }
};

int t_tlb_replace(const TbArgs &a) {
  Dir d(a, "neummu tlb replacement");
  d.env.lat_lo = d.env.lat_hi = 3;
  const unsigned sets = TB_TlbEntries / TB_TlbWays;
  // 2 MB pages: tags va[47:21] of one L2 table's entries
  const uint64_t V2 = 0x0000200000000000ull;
  const unsigned n2 = 2 * TB_Tlb2M + 1;
  for (unsigned k = 0; k < n2; k++)
    d.pb.map2m(V2 + ((uint64_t)k << 21), 0x0000004000000000ull + ((uint64_t)k << 21));
  // 4 KB pages: sets 1 and 2 (set = VPN mod sets), 2 x ways + 1 tags each, in one 2 MB region
  const uint64_t V4 = 0x0000100000000000ull;
  const unsigned n4 = 2 * TB_TlbWays + 1;
  std::vector<uint64_t> p4;
  for (unsigned s = 1; s <= 2; s++)
    for (unsigned j = 0; j < n4; j++) p4.push_back(V4 + (((uint64_t)j * sets + s % sets) << 12));
  for (size_t k = 0; k < p4.size(); k++) d.pb.map4k(p4[k], 0x58000000 + ((uint64_t)k << 12));
  d.start();
  TlbRef m2(1, TB_Tlb2M), m4(sets, TB_TlbWays);
  long hits = 0, walks = 0;
  const int n = 12 * (TB_Tlb2M + 2 * TB_TlbWays);
  for (int i = 0; i < n; i++) {
    uint64_t va;
    bool exp_hit;
    if (tb_chance(50)) {
      unsigned k = tb_rand_range(0, n2 - 1);
      va = V2 + ((uint64_t)k << 21) + ((uint64_t)tb_rand_range(0, 511) << 12);
      exp_hit = m2.access(0, va >> 21);
    } else {
      va = p4[tb_rand_range(0, (uint32_t)p4.size() - 1)];
      const uint64_t vpn = va >> 12;
      exp_hit = m4.access((unsigned)(vpn % sets), vpn / sets);
    }
    const uint32_t h0 = d.t()->stat_hits_o, w0 = d.t()->stat_walks_o;
    d.one(va + 0x18);  // the answer is checked against the model (nmmu_translate)
    d.sc.check("TLB hit as the replacement policy predicts", i, exp_hit ? 1 : 0,
               d.t()->stat_hits_o - h0);
    d.sc.check("walk on a predicted miss", i, exp_hit ? 0 : 1, d.t()->stat_walks_o - w0);
    (exp_hit ? hits : walks)++;
  }
  std::printf("tlb replacement: %d requests, %ld hits, %ld walks\n", n, hits, walks);
  d.sc.expect(hits > n / 8 && walks > n / 8, "the sequence mixes hits and evictions", hits);
  return d.sc.finish();
}

int t_reset(const TbArgs &a) {
  Dir d(a, "neummu reset mid-walk");
  for (int k = 0; k < 8; k++) d.pb.map4k(VA0 + ((uint64_t)k << 12), 0x70000000 + ((uint64_t)k << 12));
  d.env.lat_lo = d.env.lat_hi = 80;
  d.start();
  std::vector<MmuRsp> rs;
  int sent = 0;
  for (int c = 0; c < 150; c++) {
    bool offer = sent < 6;
    if (d.env.step(offer, (uint32_t)sent, VA0 + ((uint64_t)sent << 12), false, rs)) sent++;
  }
  d.sc.expect(rs.empty(), "no answer before the reset", rs.size());
  d.start();  // reset with walks in flight; their reads are dropped
  d.ck.reset_ids();
  d.idle(1000);
  d.sc.check("walks after reset", 0, 0, d.t()->stat_walks_o);
  std::vector<std::pair<uint64_t, bool>> r;
  for (int k = 0; k < 8; k++) r.push_back({VA0 + ((uint64_t)k << 12) + 4, false});
  d.batch(r);
  d.sc.check("answers after reset", 0, 8, d.last.size());
  return d.sc.finish();
}

int t_bad_mem_rsp(const TbArgs &a) {
  Dir d(a, "neummu spurious page-table response");
  d.pb.map4k(VA0, 0x78000000);
  d.start();
  // a response nobody asked for (every walker idle) is ignored
  d.t()->mem_rsp_valid_i = 1;
  d.t()->mem_rsp_tag_i = 0;
  d.t()->mem_rsp_data_i = 0xFFFFFFFFFFFFFFFFull;
  d.env.sim.tick();
  d.t()->mem_rsp_valid_i = 0;
  d.idle(10);
  d.sc.check("no walk", 0, 0, d.t()->stat_walks_o);
  d.sc.check("translation after it", 0, 0x78000000, d.one(VA0));
  return d.sc.finish();
}

int t_cfg_clamp(const TbArgs &a) {
  Dir d(a, "neummu configuration clamp");
  d.pb.map4k(VA0, 0x7A000000);
  d.env.lat_lo = d.env.lat_hi = 200;
  // cfg_slots above Slots acts as Slots; cfg_walkers above Walkers acts as all walkers
  d.start(TB_Walkers + 1, TB_Slots + 1, 1);
  std::vector<std::pair<uint64_t, bool>> r;
  for (int k = 0; k < TB_Slots + 2; k++) r.push_back({VA0 + 8 * k, false});
  d.batch(r);
  d.sc.check("merges (clamped to Slots)", 0, TB_Slots, d.t()->stat_merges_o);
  d.sc.check("walks", 0, TB_Slots > 0 ? 2 : TB_Slots + 2, d.t()->stat_walks_o);
  // cfg_walkers = 0 means every walker: Walkers distinct pages walk at once without a stall
  std::vector<std::pair<uint64_t, bool>> w;
  for (int k = 0; k < TB_Walkers; k++) {
    d.pb.map4k(VA0 + ((uint64_t)(k + 1) << 12), 0x7B000000 + ((uint64_t)k << 12));
    w.push_back({VA0 + ((uint64_t)(k + 1) << 12), false});
  }
  d.start(0, 0, 0);
  d.sc.expect(d.batch(w) < 100, "cfg_walkers=0: all walkers in use", 0);
  return d.sc.finish();
}

}  // namespace

int main(int argc, char **argv) {
  TbArgs a;
  tb_init(argc, argv, "tb_neummu", 100000, &a,
          {{"test", "=<name>: a directed test (default random)"},
           {"latlo", "=N: random test, shortest memory latency (cycles)"},
           {"lathi", "=N: random test, longest memory latency (cycles)"},
           {"inv", "=0|1: random test, TLB invalidations (default 1)"},
           {"reset", "=0|1: random test, a reset in the run (default 1)"},
           {"walkers", "=N: random test, walkers enabled (0 all)"},
           {"slots", "=N: random and prmb_full tests, merge slots per walker"},
           {"tpreg", "=0|1: random test, translation-path register"}});
  const char *t = tb_plusarg("test");
  std::string name = t ? t : "random";
  struct { const char *n; int (*f)(const TbArgs &); } tests[] = {
      {"random", run_random}, {"hit", t_hit}, {"merge", t_merge}, {"prmb_full", t_prmb_full},
      {"walkers_busy", t_walkers_busy}, {"tpreg", t_tpreg}, {"page2m", t_page2m},
      {"faults", t_faults}, {"inv", t_inv}, {"reset", t_reset}, {"bad_mem_rsp", t_bad_mem_rsp},
      {"cfg_clamp", t_cfg_clamp}, {"stat_clear", t_stat_clear}, {"refill", t_refill},
      {"tlb_replace", t_tlb_replace}};
  for (auto &e : tests)
    if (name == e.n) return e.f(a);
  std::fprintf(stderr, "tb_neummu: unknown +test=%s\n", name.c_str());
  return 2;
}
