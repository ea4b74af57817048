////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  neummu.v
//
// Purpose:   NeuMMU top: translates NPU DMA virtual addresses (48-bit, x86-64 4-level tables,
//            4 KB and 2 MB pages) to physical addresses. Structure (docs/neummu.md):
//
//              req --> [lookup stage: TLB] --> [TlbLatency-1 stages] --> [decision stage]
//                                                                         | hit: response
//                                                                         | miss, PTS hit with
//                                                                         |   a free slot: merge
//                                                                         | miss: new walk on the
//                                                                         |   lowest idle walker
//                                                                         | else: stall
//              Walkers x (nmmu_ptw: PRMB + TPreg) --rr--> page-table read port (tag = walker)
//                                                --rr--> response port (with the TLB hits)
//                                                --rr--> TLB fill
//
//            Requests are accepted in order, one per cycle; responses leave in any order, each
//            with its request's ID. Nothing is dropped: when no walker or merge slot is free,
//            req_ready_o stays low. Status: 0 OK, 1 not-present fault, 2 permission fault (the PA
//            is 0 on a fault). A response of the page-table port is taken in the cycle it
//            arrives (there is no ready; each walker has at most one read outstanding).
//
//            Run-time configuration (hold steady while requests are in flight):
//              cfg_root_ppn_i  L4 table frame (pa[51:12]); invalidate all after changing it
//              cfg_walkers_i   walkers in use (1..Walkers; 0 or more than Walkers = all)
//              cfg_slots_i     merge slots per walker in use (0 = no merging; above Slots =
//                              Slots)
//              cfg_tpreg_i     translation path registers in use (TpReg = 1 only)
//
//            Invalidate: inv_i (one cycle) drops all translations (inv_all_i) or those of the
//            page holding inv_va_i, clears every TPreg and makes every walk in flight stale (it
//            answers its requests but neither fills the TLB nor takes merges). A request
//            accepted after the edge at which inv_i is high sees the page tables as they are
//            then; requests accepted before it may see the old or the new tables.
//
// Parameters (checked at elaboration; an illegal value fails the build naming the rule):
//   Walkers     page-table walkers (>= 1)
//   Slots       PRMB merge slots per walker (>= 0)
//   TpReg       1 = translation path register per walker, 0 = none
//   TlbEntries  4 KB TLB entries (power of two, >= TlbWays)
//   TlbWays     associativity of the 4 KB TLB (power of two)
//   Tlb2M       2 MB TLB entries (fully associative, >= 1)
//   TlbLatency  cycles from request acceptance to the decision (>= 1; paper: 5)
//   IdW         request ID bits (>= 1)
//   RspLanes    response streams (>= 1): up to RspLanes translations leave per cycle, from
//               different sources (the hit path, walkers); 1 = the single port of the paper's
//               configuration as this library first built it (docs/neummu.md, "Response lanes")
//
//            Field widths, bit positions and status codes are localparams named after the
//            constants of cmodel/include/neummu.h in UpperCamelCase (NMMU_VA_BITS = NmmuVaBits).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module neummu #(
  parameter integer Walkers    = 4,
  parameter integer Slots      = 4,
  parameter integer TpReg      = 1,
  parameter integer TlbEntries = 64,
  parameter integer TlbWays    = 4,
  parameter integer Tlb2M      = 8,
  parameter integer TlbLatency = 2,
  parameter integer IdW        = 8,
  parameter integer RspLanes   = 1
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  // configuration
  input  wire [NmmuPpnBits-1:0]  cfg_root_ppn_i,
  input  wire [WalkCntW-1:0]     cfg_walkers_i,
  input  wire [SlotCntW-1:0]     cfg_slots_i,
  input  wire                    cfg_tpreg_i,
  // translation requests
  input  wire                    req_valid_i,
  output wire                    req_ready_o,
  input  wire [IdW-1:0]          req_id_i,
  input  wire [NmmuVaBits-1:0]   req_va_i,
  input  wire                    req_write_i,
  // translation responses
  // translation responses: RspLanes streams (lane k in bits [k*W +: W] of each field)
  output wire [RspLanes-1:0]            rsp_valid_o,
  input  wire [RspLanes-1:0]            rsp_ready_i,
  output wire [RspLanes*IdW-1:0]        rsp_id_o,
  output wire [RspLanes*NmmuPaBits-1:0] rsp_pa_o,
  output wire [RspLanes*NmmuStBits-1:0] rsp_status_o,
  // page-table memory read port (8-byte reads)
  output wire                    mem_req_valid_o,
  input  wire                    mem_req_ready_i,
  output wire [NmmuPaBits-1:0]   mem_req_addr_o,
  output wire [TagW-1:0]         mem_req_tag_o,
  input  wire                    mem_rsp_valid_i,
  input  wire [TagW-1:0]         mem_rsp_tag_i,
  input  wire [NmmuPteBits-1:0]  mem_rsp_data_i,
  // invalidate
  input  wire                    inv_i,
  input  wire                    inv_all_i,
  input  wire [NmmuVaBits-1:0]   inv_va_i,
  // restarts every counter below: in a cycle with stat_clear_i each counter takes only that
  // cycle's increment (the accounting identities hold across a clear when no request is in
  // flight)
  input  wire                    stat_clear_i,
  // event counters (wrap at 2^32)
  output reg  [31:0]             stat_hits_o,     // TLB hits
  output reg  [31:0]             stat_walks_o,    // walks started
  output reg  [31:0]             stat_merges_o,   // requests merged into a walk in flight
  output reg  [31:0]             stat_reads_o,    // page-table reads issued
  output reg  [31:0]             stat_tp_l4_o,    // walks whose TPreg matched L4
  output reg  [31:0]             stat_tp_l3_o,    //   ... L4 and L3
  output reg  [31:0]             stat_tp_l2_o,    //   ... L4, L3 and L2
  // Accounting (docs/neummu.md, "Counters"). Cycles the requester offered a request that was
  // not taken, by what blocked the decision stage (their sum is every such cycle):
  output reg  [31:0]             stat_stall_rsp_o,  // a hit waits: the lanes answer walks
  output reg  [31:0]             stat_stall_down_o, // a hit waits: the response buffer is full
  output reg  [31:0]             stat_stall_prmb_o, // a miss waits: its page's walk has no free
                                                    //   merge slot, no walker idle
  output reg  [31:0]             stat_stall_walk_o, // a miss waits: no walk of its page (a stale
                                                    //   walk counts as none: the invalidate
                                                    //   cleared the PTS), no walker idle
  output reg  [31:0]             stat_dup_walks_o,  // walks started for a page another walk holds
  // Request-cycles (every cycle, the requests accepted and not yet answered, by where they are;
  // the sum over the counters is the sum of every request's latency):
  output reg  [63:0]             stat_lat_pipe_o,   // lookup pipeline, moving
  output reg  [63:0]             stat_lat_hol_o,    // lookup pipeline, blocked by its head
  output reg  [63:0]             stat_lat_port_o,   // in a walk waiting for the read port
  output reg  [63:0]             stat_lat_mem_o,    // in a walk waiting for page-table data
  output reg  [63:0]             stat_lat_ans_o,    // walk done, waiting for the response port
  output reg  [63:0]             stat_lat_out_o     // in the response buffer
);

  // ---------------------------------------------------------------- fields (neummu.h)
  localparam integer NmmuVaBits      = 48;  // virtual address bits
  localparam integer NmmuPaBits      = 52;  // physical address bits
  localparam integer NmmuPageShift   = 12;  // 4 KB page offset bits
  localparam integer NmmuVpnBits     = NmmuVaBits - NmmuPageShift;  // va[47:12]
  localparam integer NmmuPpnBits     = NmmuPaBits - NmmuPageShift;  // pa[51:12]
  localparam integer NmmuLevels      = 4;   // L4 .. L1
  localparam integer NmmuPteBits     = 64;  // one page-table entry
  localparam integer NmmuPteShift    = 3;   // log2 of its bytes: the read port takes pa[51:3]
  localparam integer NmmuStBits      = 2;   // status code
  localparam [NmmuStBits-1:0] NmmuStOk = 2'd0, NmmuStPerm = 2'd2;  // NMMU_ST_OK, NMMU_ST_PERM

  localparam integer TagW     = (Walkers > 1) ? $clog2(Walkers) : 1;
  localparam integer WalkCntW = $clog2(Walkers + 1);
  localparam integer SlotCntW = ($clog2(Slots + 1) > 0) ? $clog2(Slots + 1) : 1;
  localparam integer PteAddrW = NmmuPaBits - NmmuPteShift;   // 8-byte word address of an entry
  localparam integer TpEvW    = NmmuLevels - 1;              // TPreg levels (L4, L3, L2)
  localparam integer HeldW    = $clog2(Slots + 2);           // nmmu_ptw's requests held
  localparam integer SumW     = $clog2(Walkers * (Slots + 1) + 1) + 1;  // > HeldW
  localparam integer FrontW   = $clog2(TlbLatency + 1) + 1;  // the lookup pipeline's requests
  // A request in flight: {id, write, page offset}; the write bit sits above the page offset.
  localparam integer ReqW     = IdW + 1 + NmmuPageShift;
  localparam integer ReqWrBit = NmmuPageShift;
  // A response: {id, pa, status}.
  localparam integer RspW     = IdW + NmmuPaBits + NmmuStBits;
  // A TLB lookup result: {hit, ppn, w, u}, u at bit 0.
  localparam integer LkUBit   = 0;
  localparam integer LkWBit   = 1;
  localparam integer LkPpnLsb = 2;
  localparam integer LkHitBit = LkPpnLsb + NmmuPpnBits;
  localparam integer LkResW   = LkHitBit + 1;
  // The decision stage's word: {req, vpn, lookup result}.
  localparam integer LkW      = ReqW + NmmuVpnBits + LkResW;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Walkers < 1) begin : gen_check_walkers
      `CC_PARAM_FAIL(neummu__Walkers_must_be_at_least_1)
    end
    if (Slots < 0) begin : gen_check_slots
      `CC_PARAM_FAIL(neummu__Slots_must_be_at_least_0)
    end
    if (TpReg != 0 && TpReg != 1) begin : gen_check_tp_reg
      `CC_PARAM_FAIL(neummu__TpReg_must_be_0_or_1)
    end
    if (TlbEntries < 1 || (TlbEntries & (TlbEntries - 1)) != 0) begin : gen_check_tlb_entries
      `CC_PARAM_FAIL(neummu__TlbEntries_must_be_a_power_of_2)
    end
    if (TlbWays < 1 || (TlbWays & (TlbWays - 1)) != 0) begin : gen_check_tlb_ways
      `CC_PARAM_FAIL(neummu__TlbWays_must_be_a_power_of_2)
    end
    if (TlbEntries < TlbWays) begin : gen_check_tlb_sets
      `CC_PARAM_FAIL(neummu__TlbEntries_must_be_at_least_TlbWays)
    end
    if (Tlb2M < 1) begin : gen_check_tlb_2m
      `CC_PARAM_FAIL(neummu__Tlb2M_must_be_at_least_1)
    end
    if (TlbLatency < 1) begin : gen_check_tlb_latency
      `CC_PARAM_FAIL(neummu__TlbLatency_must_be_at_least_1)
    end
    if (IdW < 1) begin : gen_check_id_w
      `CC_PARAM_FAIL(neummu__IdW_must_be_at_least_1)
    end
    if (RspLanes < 1) begin : gen_check_rsp_lanes
      `CC_PARAM_FAIL(neummu__RspLanes_must_be_at_least_1)
    end
  endgenerate

  // The page offset of an invalidate address does not matter.
  wire unused_inv_off = ^inv_va_i[NmmuPageShift-1:0];

  // Simulation-only check of the requester's side of the request stream (valid and data hold
  // until accepted; an invalidate does not release a request).
  cc_hold_check #(.Width(IdW + NmmuVaBits + 1)) u_req_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (req_valid_i),
    .ready_i  (req_ready_o),
    .data_i   ({req_id_i, req_va_i, req_write_i}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- configuration
  localparam [WalkCntW-1:0] AllWalkers = Walkers[WalkCntW-1:0];
  localparam [SlotCntW-1:0] AllSlots   = Slots[SlotCntW-1:0];
  wire [WalkCntW-1:0] n_walkers = (cfg_walkers_i == {WalkCntW{1'b0}} || cfg_walkers_i > AllWalkers)
                                  ? AllWalkers : cfg_walkers_i;
  wire [SlotCntW-1:0] n_slots   = (cfg_slots_i > AllSlots) ? AllSlots : cfg_slots_i;
  wire                tp_en     = (TpReg != 0) && cfg_tpreg_i;
  reg  [Walkers-1:0]  en_mask;
  integer e;
  always @* begin
    for (e = 0; e < Walkers; e = e + 1) en_mask[e] = e < n_walkers;
  end

  // ---------------------------------------------------------------- lookup stage
  reg            s1_valid_q;
  reg [ReqW-1:0] s1_req_q;
  reg [NmmuVpnBits-1:0] s1_vpn_q;
  wire           s1_ready;
  assign req_ready_o = !s1_valid_q || s1_ready;
  wire req_take = req_valid_i && req_ready_o;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s1_valid_q <= 1'b0;
    else if (req_ready_o) s1_valid_q <= req_valid_i;
  end
  always @(posedge clk_i) begin
    if (req_take) begin
      s1_req_q <= {req_id_i, req_write_i, req_va_i[NmmuPageShift-1:0]};
      s1_vpn_q <= req_va_i[NmmuVaBits-1:NmmuPageShift];
    end
  end

  wire                   tlb_hit, tlb_w, tlb_u;
  wire [NmmuPpnBits-1:0] tlb_ppn;
  wire                   fill_v;
  wire [NmmuVpnBits-1:0] fill_vpn;
  wire [NmmuPpnBits-1:0] fill_ppn;
  wire                   fill_2m, fill_w, fill_u;
  nmmu_tlb #(.Entries(TlbEntries), .Ways(TlbWays), .Entries2M(Tlb2M)) u_tlb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .rd_vpn_i   (req_va_i[NmmuVaBits-1:NmmuPageShift]),
    .cmp_vpn_i  (s1_vpn_q),
    .hit_o      (tlb_hit),
    .ppn_o      (tlb_ppn),
    .w_o        (tlb_w),
    .u_o        (tlb_u),
    .fill_i     (fill_v),
    .fill_vpn_i (fill_vpn),
    .fill_ppn_i (fill_ppn),
    .fill_2m_i  (fill_2m),
    .fill_w_i   (fill_w),
    .fill_u_i   (fill_u),
    .inv_i      (inv_i),
    .inv_all_i  (inv_all_i),
    .inv_vpn_i  (inv_va_i[NmmuVaBits-1:NmmuPageShift])
  );

  // The lookup result is taken in the first cycle after the read and held while the stage
  // stalls (the stream into the latency stages must not change while it waits). A held hit
  // may outlive an invalidate and a held miss may miss a fill: both are allowed (the request
  // was accepted before the invalidate; a miss only costs a walk).
  reg               s1_fresh_q;
  reg  [LkResW-1:0] s1_lk_q;
  wire [LkResW-1:0] s1_lk = s1_fresh_q ? {tlb_hit, tlb_ppn, tlb_w, tlb_u} : s1_lk_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s1_fresh_q <= 1'b0;
    else         s1_fresh_q <= req_take;
  end
  always @(posedge clk_i) begin
    if (s1_fresh_q) s1_lk_q <= {tlb_hit, tlb_ppn, tlb_w, tlb_u};
  end

  // ---------------------------------------------------------------- hit latency
  wire           d_valid;
  wire           d_ready;
  wire [LkW-1:0] d_data;
  cc_pipe #(.Width(LkW), .Depth(TlbLatency - 1)) u_lat (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (s1_valid_q),
    .in_ready_o  (s1_ready),
    .in_data_i   ({s1_req_q, s1_vpn_q, s1_lk}),
    .out_valid_o (d_valid),
    .out_ready_i (d_ready),
    .out_data_o  (d_data)
  );
  wire [ReqW-1:0]        d_req = d_data[LkW-1 -: ReqW];
  wire [NmmuVpnBits-1:0] d_vpn = d_data[LkResW +: NmmuVpnBits];
  wire                   d_hit = d_data[LkHitBit];
  wire [NmmuPpnBits-1:0] d_ppn = d_data[LkPpnLsb +: NmmuPpnBits];
  wire                   d_w   = d_data[LkWBit];
  wire                   d_u   = d_data[LkUBit];
  wire                   d_wr  = d_req[ReqWrBit];
  wire [NmmuStBits-1:0]  d_st  = (!d_u || (d_wr && !d_w)) ? NmmuStPerm : NmmuStOk;
  wire [RspW-1:0]        d_rsp = {d_req[ReqW-1 -: IdW],
                                  (d_st == NmmuStOk) ? {d_ppn, d_req[NmmuPageShift-1:0]}
                                                     : {NmmuPaBits{1'b0}},
                                  d_st};

  // ---------------------------------------------------------------- decision
  wire [Walkers-1:0] w_idle, w_can_merge, pts_match;
  wire [Walkers-1:0] merge_ok = pts_match & w_can_merge & en_mask;
  wire [Walkers-1:0] idle_ok  = w_idle & en_mask;
  wire [Walkers-1:0] merge_sel = merge_ok & (-merge_ok);
  wire [Walkers-1:0] alloc_sel = idle_ok & (-idle_ok);
  wire               d_miss    = d_valid && !d_hit;
  wire               do_merge  = d_miss && |merge_ok;
  wire               do_alloc  = d_miss && !(|merge_ok) && |idle_ok;
  wire               hit_gnt;
  assign d_ready = d_hit ? hit_gnt : (do_merge || do_alloc);

  nmmu_pts #(.N(Walkers)) u_pts (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .lk_vpn_i  (d_vpn),
    .match_o   (pts_match),
    .set_i     (do_alloc ? alloc_sel : {Walkers{1'b0}}),
    .set_vpn_i (d_vpn),
    .clr_i     (w_idle),
    .inv_i     (inv_i)
  );

  // ---------------------------------------------------------------- walkers
  wire [Walkers-1:0] w_mem_req, w_rsp_req, w_fill_req;
  wire [Walkers-1:0] mem_gnt, fill_gnt;
  wire [Walkers-1:0] w_walk;
  wire [PteAddrW-1:0]    w_addr [0:Walkers-1];
  wire [RspW-1:0]        w_rsp  [0:Walkers-1];
  wire [NmmuVpnBits-1:0] w_fvpn [0:Walkers-1];
  wire [NmmuPpnBits-1:0] w_fppn [0:Walkers-1];
  wire [Walkers-1:0]     w_f2m, w_fw, w_fu;
  wire [TpEvW*Walkers-1:0] w_tp;
  wire [HeldW*Walkers-1:0] w_held;
  wire [Walkers-1:0]     w_at_port, w_at_mem;
  wire               mem_ack;
  wire [Walkers:0]   rsp_taken;   // answers taken this cycle, by requester (response lanes)

  genvar g;
  generate
    for (g = 0; g < Walkers; g = g + 1) begin : gen_walker
      nmmu_ptw #(.Slots(Slots), .TpReg(TpReg), .IdW(IdW)) u_ptw (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .root_ppn_i  (cfg_root_ppn_i),
        .cfg_slots_i (n_slots),
        .cfg_tpreg_i (tp_en),
        .alloc_i     (do_alloc && alloc_sel[g]),
        .alloc_vpn_i (d_vpn),
        .alloc_req_i (d_req),
        .merge_i     (do_merge && merge_sel[g]),
        .merge_req_i (d_req),
        .idle_o      (w_idle[g]),
        .can_merge_o (w_can_merge[g]),
        .mem_req_o   (w_mem_req[g]),
        .mem_addr_o  (w_addr[g]),
        .mem_gnt_i   (mem_gnt[g] && mem_ack),
        .mem_rsp_i   (mem_rsp_valid_i && mem_rsp_tag_i == g),
        .mem_rdata_i (mem_rsp_data_i),
        .rsp_req_o   (w_rsp_req[g]),
        .rsp_o       (w_rsp[g]),
        .rsp_gnt_i   (rsp_taken[g]),
        .fill_req_o  (w_fill_req[g]),
        .fill_vpn_o  (w_fvpn[g]),
        .fill_ppn_o  (w_fppn[g]),
        .fill_2m_o   (w_f2m[g]),
        .fill_w_o    (w_fw[g]),
        .fill_u_o    (w_fu[g]),
        .fill_gnt_i  (fill_gnt[g]),
        .inv_i       (inv_i),
        .ev_walk_o   (w_walk[g]),
        .ev_tp_hit_o (w_tp[TpEvW*g +: TpEvW]),
        .held_o      (w_held[HeldW*g +: HeldW]),
        .at_port_o   (w_at_port[g]),
        .at_mem_o    (w_at_mem[g])
      );
    end
  endgenerate

  // ---------------------------------------------------------------- page-table read port
  wire [TagW-1:0] mem_idx;
  wire            mem_any;
  cc_rr_arbiter #(.N(Walkers)) u_mem_arb (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (w_mem_req),
    .ack_i       (mem_ack),
    .gnt_o       (mem_gnt),
    .gnt_idx_o   (mem_idx),
    .gnt_valid_o (mem_any)
  );
  wire                mem_in_ready;
  wire [PteAddrW-1:0] mem_word;
  assign mem_ack = mem_any && mem_in_ready;
  cc_skid_buffer #(.Width(PteAddrW + TagW)) u_mem_skid (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (mem_any),
    .in_ready_o  (mem_in_ready),
    .in_data_i   ({w_addr[mem_idx], mem_idx}),
    .out_valid_o (mem_req_valid_o),
    .out_ready_i (mem_req_ready_i),
    .out_data_o  ({mem_word, mem_req_tag_o})
  );
  assign mem_req_addr_o = {mem_word, {NmmuPteShift{1'b0}}};

  // ---------------------------------------------------------------- response lanes
  // Requesters: the hit path (index Walkers) and every walker with an answer. Lane k grants,
  // round-robin, one requester that no lane below it took this cycle; each lane has its own
  // skid buffer. A walker answers at most one request per cycle, on one lane.
  localparam integer NReq = Walkers + 1;
  wire [NReq-1:0]     rsp_req_all = {d_valid && d_hit, w_rsp_req};
  wire [RspLanes-1:0] lane_in_ready;
  genvar k;
  generate
    for (k = 0; k < RspLanes; k = k + 1) begin : gen_lane
      localparam integer RTagW = $clog2(NReq);
      wire [NReq-1:0]  took_in;    // requesters taken by the lanes below this one
      wire [NReq-1:0]  took_out;   // ... and by this one
      wire [NReq-1:0]  gnt;
      wire [RTagW-1:0] idx;
      wire             any, in_ready;
      if (k == 0) begin : gen_first
        assign took_in = {NReq{1'b0}};
      end else begin : gen_next
        assign took_in = gen_lane[k-1].took_out;
      end
      cc_rr_arbiter #(.N(NReq)) u_arb (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .req_i       (rsp_req_all & ~took_in),
        .ack_i       (any && in_ready),
        .gnt_o       (gnt),
        .gnt_idx_o   (idx),
        .gnt_valid_o (any)
      );
      assign took_out = took_in | ((any && in_ready) ? gnt : {NReq{1'b0}});
      assign lane_in_ready[k] = in_ready;
      // The top index (the hit path) is decoded from the grant vector.
      wire [RspW-1:0] sel = gnt[Walkers] ? d_rsp : w_rsp[idx[TagW-1:0]];
      wire unused_idx_top = ^idx;
      cc_skid_buffer #(.Width(RspW)) u_skid (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .in_valid_i  (any && in_ready),   // offered only when it is taken at once: a
        .in_ready_o  (in_ready),          // requester another lane takes never leaves a
        .in_data_i   (sel),               // waiting offer behind (in_ready is a flop)
        .out_valid_o (rsp_valid_o[k]),
        .out_ready_i (rsp_ready_i[k]),
        .out_data_o  ({rsp_id_o[IdW*k +: IdW], rsp_pa_o[NmmuPaBits*k +: NmmuPaBits],
                       rsp_status_o[NmmuStBits*k +: NmmuStBits]})
      );
    end
  endgenerate
  // Answers taken this cycle, by requester (each on at most one lane).
  assign rsp_taken = gen_lane[RspLanes-1].took_out;
  assign hit_gnt = rsp_taken[Walkers];

  // ---------------------------------------------------------------- TLB fill
  wire [TagW-1:0] fill_idx;
  cc_rr_arbiter #(.N(Walkers)) u_fill_arb (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (w_fill_req),
    .ack_i       (1'b1),
    .gnt_o       (fill_gnt),
    .gnt_idx_o   (fill_idx),
    .gnt_valid_o (fill_v)
  );
  assign fill_vpn = w_fvpn[fill_idx];
  assign fill_ppn = w_fppn[fill_idx];
  assign fill_2m  = w_f2m[fill_idx];
  assign fill_w   = w_fw[fill_idx];
  assign fill_u   = w_fu[fill_idx];

  // ---------------------------------------------------------------- accounting
  // Why the decision stage's head does not move (one cause at most; none when it moves).
  wire hol      = d_valid && !d_ready;
  wire hol_down = hol && d_hit && !(|lane_in_ready);
  wire hol_rsp  = hol && d_hit && (|lane_in_ready);
  wire page_walked = |(pts_match & en_mask);   // a walk of the head's page is in flight
  wire hol_prmb = hol && !d_hit && page_walked;
  wire hol_walk = hol && !d_hit && !page_walked;
  wire dma_stall = req_valid_i && !req_ready_o;

  // Requests in the lookup pipeline (the lookup stage, the latency stages and the decision
  // stage); with TlbLatency stages of one request each it never exceeds TlbLatency.
  reg [FrontW-1:0] front_q;
  wire d_take = d_valid && d_ready;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) front_q <= {FrontW{1'b0}};
    else front_q <= front_q + {{(FrontW - 1){1'b0}}, req_take} - {{(FrontW - 1){1'b0}}, d_take};
  end

  // Requests held by the walkers, by the phase of their walk.
  reg [SumW-1:0] held_port, held_mem, held_ans, held_one;
  integer h;
  always @* begin
    held_port = {SumW{1'b0}};
    held_mem  = {SumW{1'b0}};
    held_ans  = {SumW{1'b0}};
    for (h = 0; h < Walkers; h = h + 1) begin
      held_one = {{(SumW - HeldW){1'b0}}, w_held[HeldW*h +: HeldW]};
      if (w_at_port[h])     held_port = held_port + held_one;
      else if (w_at_mem[h]) held_mem  = held_mem + held_one;
      else                  held_ans  = held_ans + held_one;
    end
  end
  // Responses in the skid buffers: each lane's output register, and its skid register when it
  // is full.
  localparam integer OutW = $clog2(2 * RspLanes + 1) + 1;
  reg [OutW-1:0] out_held;
  integer o;
  always @* begin
    out_held = {OutW{1'b0}};
    for (o = 0; o < RspLanes; o = o + 1)
      out_held = out_held + {{(OutW - 1){1'b0}}, rsp_valid_o[o]} +
                 {{(OutW - 1){1'b0}}, !lane_in_ready[o]};
  end

  // ---------------------------------------------------------------- counters
  reg [TpEvW-1:0] tp_ev;    // [0] L4, [1] L4+L3, [2] L4+L3+L2 matched
  integer t;
  always @* begin
    tp_ev = {TpEvW{1'b0}};
    for (t = 0; t < Walkers; t = t + 1) tp_ev = tp_ev | w_tp[TpEvW*t +: TpEvW];
  end
  // the counters' values to add to: all zero while stat_clear_i
  wire [63:0] keep = {64{!stat_clear_i}};
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_hits_o   <= 32'd0;
      stat_walks_o  <= 32'd0;
      stat_merges_o <= 32'd0;
      stat_reads_o  <= 32'd0;
      stat_tp_l4_o  <= 32'd0;
      stat_tp_l3_o  <= 32'd0;
      stat_tp_l2_o  <= 32'd0;
      stat_stall_rsp_o  <= 32'd0;
      stat_stall_down_o <= 32'd0;
      stat_stall_prmb_o <= 32'd0;
      stat_stall_walk_o <= 32'd0;
      stat_dup_walks_o  <= 32'd0;
      stat_lat_pipe_o   <= 64'd0;
      stat_lat_hol_o    <= 64'd0;
      stat_lat_port_o   <= 64'd0;
      stat_lat_mem_o    <= 64'd0;
      stat_lat_ans_o    <= 64'd0;
      stat_lat_out_o    <= 64'd0;
    end else begin
      // each counter adds its increment to its value, or to zero while stat_clear_i
      stat_stall_rsp_o  <= (stat_stall_rsp_o & keep[31:0])  + {31'd0, dma_stall && hol_rsp};
      stat_stall_down_o <= (stat_stall_down_o & keep[31:0]) + {31'd0, dma_stall && hol_down};
      stat_stall_prmb_o <= (stat_stall_prmb_o & keep[31:0]) + {31'd0, dma_stall && hol_prmb};
      stat_stall_walk_o <= (stat_stall_walk_o & keep[31:0]) + {31'd0, dma_stall && hol_walk};
      stat_dup_walks_o  <= (stat_dup_walks_o & keep[31:0])  + {31'd0, do_alloc && page_walked};
      stat_lat_hol_o  <= (stat_lat_hol_o & keep)  + (hol ? {{(64 - FrontW){1'b0}}, front_q} : 64'd0);
      stat_lat_pipe_o <= (stat_lat_pipe_o & keep) + (hol ? 64'd0 : {{(64 - FrontW){1'b0}}, front_q});
      stat_lat_port_o <= (stat_lat_port_o & keep) + {{(64 - SumW){1'b0}}, held_port};
      stat_lat_mem_o  <= (stat_lat_mem_o & keep)  + {{(64 - SumW){1'b0}}, held_mem};
      stat_lat_ans_o  <= (stat_lat_ans_o & keep)  + {{(64 - SumW){1'b0}}, held_ans};
      stat_lat_out_o  <= (stat_lat_out_o & keep)  + {{(64 - OutW){1'b0}}, out_held};
      stat_hits_o   <= (stat_hits_o & keep[31:0])   + {31'd0, d_valid && d_hit && hit_gnt};
      stat_walks_o  <= (stat_walks_o & keep[31:0])  + {31'd0, |w_walk};
      stat_merges_o <= (stat_merges_o & keep[31:0]) + {31'd0, do_merge};
      stat_reads_o  <= (stat_reads_o & keep[31:0])  + {31'd0, mem_ack};
      stat_tp_l4_o  <= (stat_tp_l4_o & keep[31:0])  + {31'd0, tp_ev[0]};
      stat_tp_l3_o  <= (stat_tp_l3_o & keep[31:0])  + {31'd0, tp_ev[1]};
      stat_tp_l2_o  <= (stat_tp_l2_o & keep[31:0])  + {31'd0, tp_ev[2]};
    end
  end

endmodule

`default_nettype wire
