// tb_nmmu_env.h -- the NeuMMU harness environment shared by the co-simulation / directed harness
// (tb_neummu.cpp) and the NPU performance model (tb_neummu_npu.cpp):
//   * a page-table builder on top of the model's sparse memory (tb_nmmu_pt.h),
//   * the page-table memory behind the RTL's read port: every accepted read is answered after a
//     latency drawn from [lat_lo, lat_hi] (values sampled when the read is accepted), at most one
//     response per cycle, out of order across tags, with random backpressure on the request,
//   * one clock cycle of the DUT with a request offered, responses collected.
#ifndef TB_NMMU_ENV_H
#define TB_NMMU_ENV_H

#include <cstdint>
#include <queue>
#include <vector>

#include "Vneummu.h"
#include "neummu.h"
#include "tb_lib.h"
#include "tb_nmmu_pt.h"

// Response lanes of the build (the RspLanes parameter; harnesses without it have one).
#ifndef TB_RspLanes
#define TB_RspLanes 1
#endif


struct MmuRsp {
  uint32_t id;
  uint64_t pa;
  int status;
  uint64_t cycle;
};

class MmuEnv {
 public:
  TbSim<Vneummu> sim;
  Vneummu *top;
  nmmu_mem_t *mem;
  uint32_t lat_lo = 100, lat_hi = 100;  // page-table read latency, cycles
  int mem_stall_pct = 0;                 // read-port backpressure
  int rsp_stall_pct = 0;                 // response-port backpressure (each lane on its own)
  uint64_t reads = 0;                    // reads accepted since the last reset
  uint64_t reads_total = 0;

  MmuEnv(const TbArgs &a, uint64_t timeout, nmmu_mem_t *m) : sim(a, timeout), top(sim.top), mem(m) {
    config(0, 0, 1);
    idle_inputs();
  }
  void config(unsigned walkers, unsigned slots, unsigned tpreg) {
    top->cfg_root_ppn_i = nmmu_mem_root(mem) >> 12;
    top->cfg_walkers_i = walkers;
    top->cfg_slots_i = slots;
    top->cfg_tpreg_i = tpreg;
  }
  void idle_inputs() {
    top->req_valid_i = 0;
    top->rsp_ready_i = 0;
    top->mem_req_ready_i = 0;
    top->mem_rsp_valid_i = 0;
    top->inv_i = 0;
    top->stat_clear_i = 0;
  }
  void reset() {
    idle_inputs();
    while (!pend.empty()) pend.pop();
    reads = 0;
    sim.reset();
  }
  bool idle_mem() const { return pend.empty(); }

  // One cycle. Offers a request when `valid`; returns true when it was accepted. Responses that
  // left the DUT this cycle are appended to `out`. inv: one-cycle invalidate this cycle.
  bool step(bool valid, uint32_t id, uint64_t va, bool wr, std::vector<MmuRsp> &out,
            bool inv = false, bool inv_all = false, uint64_t inv_va = 0) {
    top->req_valid_i = valid;
    top->req_id_i = id;
    top->req_va_i = va & ((1ull << 48) - 1);
    top->req_write_i = wr;
    top->inv_i = inv;
    top->inv_all_i = inv_all;
    top->inv_va_i = inv_va & ((1ull << 48) - 1);
    for (int l = 0; l < TB_RspLanes; l++)
      tb_set_bits(top->rsp_ready_i, l, 1, !(rsp_stall_pct > 0 && tb_chance(rsp_stall_pct)));
    top->mem_req_ready_i = !(mem_stall_pct > 0 && tb_chance(mem_stall_pct));
    // at most one page-table response per cycle: the earliest due one
    top->mem_rsp_valid_i = 0;
    if (!pend.empty() && pend.top().due <= sim.cycle) {
      const Pend &p = pend.top();
      top->mem_rsp_valid_i = 1;
      top->mem_rsp_tag_i = p.tag;
      top->mem_rsp_data_i = p.data;
      pend.pop();
    }
    top->eval();
    const bool req_take = valid && top->req_ready_o;
    // responses leaving this cycle, lane 0 first
    MmuRsp r[TB_RspLanes];
    int nr = 0;
    for (int l = 0; l < TB_RspLanes; l++) {
      if (!(tb_get_bits(top->rsp_valid_o, l, 1) && tb_get_bits(top->rsp_ready_i, l, 1))) continue;
      const int pa_lsb = l * 52;
      const uint64_t pa = tb_get_bits(top->rsp_pa_o, pa_lsb, 32) |
                          (uint64_t)tb_get_bits(top->rsp_pa_o, pa_lsb + 32, 20) << 32;
      r[nr++] = {tb_get_bits(top->rsp_id_o, l * TB_IdW, TB_IdW), pa,
                 (int)tb_get_bits(top->rsp_status_o, l * 2, 2), sim.cycle};
    }
    const bool mem_take = top->mem_req_valid_o && top->mem_req_ready_i;
    const uint64_t maddr = top->mem_req_addr_o;
    const uint32_t mtag = top->mem_req_tag_o;
    const uint64_t now = sim.cycle;
    sim.tick();
    for (int i = 0; i < nr; i++) out.push_back(r[i]);
    if (mem_take) {
      reads++;
      reads_total++;
      const uint32_t lat = lat_lo == lat_hi ? lat_lo : tb_rand_range(lat_lo, lat_hi);
      pend.push(Pend{now + lat, seq++, mtag, nmmu_mem_read(mem, maddr)});
    }
    return req_take;
  }

 private:
  struct Pend {
    uint64_t due, seq;
    uint32_t tag;
    uint64_t data;
    bool operator<(const Pend &o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };
  std::priority_queue<Pend> pend;
  uint64_t seq = 0;
};

#endif
