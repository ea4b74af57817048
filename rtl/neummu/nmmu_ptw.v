////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nmmu_ptw.v
//
// Purpose:   One NeuMMU page-table walker with its pending request merging buffer (PRMB) and
//            translation path register (TPreg).
//
//            Walk: on alloc_i the walker takes a VPN and its first request (ID, write, page
//            offset). It reads one 8-byte entry per level through the shared page-table port
//            (mem_req_o until mem_gnt_i, then waits for its tagged response), from L4 down to a
//            leaf: an L1 entry (4 KB page) or an L2 entry with PS set (2 MB page). A non-present
//            entry at any level, or PS in an L4/L3 entry, ends the walk as a not-present fault.
//            W and U are ANDed along the path; each request then gets OK, or a permission fault
//            when U is clear or it is a write and W is clear.
//
//            PRMB: Slots entries after the walker's own request. While the walker is busy and not
//            stale, merge_i appends a request for the same VPN (the PTS decides), as long as the
//            merged count is below cfg_slots_i. When the walk ends the walker answers its own
//            request and then the merged ones in arrival order, one per granted cycle; requests
//            merged while it answers are answered too. It is idle again once every request is
//            answered and its TLB fill (successful, non-stale walks only) is granted.
//
//            TPreg (TpReg = 1 and cfg_tpreg_i): the L4/L3/L2 virtual indices of the last walk and,
//            per level, the table address that entry pointed to with the W/U found so far. A walk
//            whose L4 index (then L3, then L2) matches a valid level starts below it, skipping
//            one, two or three reads. The register is rewritten as the walk reads each level.
//
//            Invalidate (inv_i): a walk in flight becomes stale -- it still answers its requests,
//            but it neither fills the TLB nor records its path, and it takes no more merges --
//            and the TPreg is cleared.
//
// Parameters:
//   Slots    PRMB merge slots (>= 0; 0 = no merging, the baseline IOMMU walker)
//   TpReg    1 = translation path register present, 0 = none
//   IdW      request ID bits (>= 1)
//
//            Field widths, PTE bits and status codes are localparams named after the constants
//            of cmodel/include/neummu.h in UpperCamelCase (NMMU_PTE_PS_BIT = NmmuPtePsBit).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nmmu_ptw #(
  parameter integer Slots = 4,
  parameter integer TpReg = 1,
  parameter integer IdW   = 8
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire [NmmuPpnBits-1:0]   root_ppn_i,
  input  wire [SlotCntW-1:0]      cfg_slots_i,    // merge limit (<= Slots)
  input  wire                     cfg_tpreg_i,
  // allocation of a new walk
  input  wire                     alloc_i,
  input  wire [NmmuVpnBits-1:0]   alloc_vpn_i,
  input  wire [ReqW-1:0]          alloc_req_i,    // {id, write, page offset}
  // merge into this walk
  input  wire                     merge_i,
  input  wire [ReqW-1:0]          merge_req_i,
  output wire                     idle_o,
  output wire                     can_merge_o,
  // page-table read port
  output wire                     mem_req_o,
  output wire [PteAddrW-1:0]      mem_addr_o,     // 8-byte word address (pa[51:3])
  input  wire                     mem_gnt_i,      // read accepted this cycle
  input  wire                     mem_rsp_i,      // response for this walker
  input  wire [NmmuPteBits-1:0]   mem_rdata_i,
  // response (own and merged requests)
  output wire                     rsp_req_o,
  output wire [RspW-1:0]          rsp_o,          // {id, pa[51:0], status[1:0]}
  input  wire                     rsp_gnt_i,
  // TLB fill
  output wire                     fill_req_o,
  output wire [NmmuVpnBits-1:0]   fill_vpn_o,
  output wire [NmmuPpnBits-1:0]   fill_ppn_o,
  output wire                     fill_2m_o,
  output wire                     fill_w_o,
  output wire                     fill_u_o,
  input  wire                     fill_gnt_i,
  // invalidate
  input  wire                     inv_i,
  // events (one-cycle pulses)
  output wire                     ev_walk_o,
  output wire [TpEvW-1:0]         ev_tp_hit_o,    // at walk start: L4, L4+L3, L4+L3+L2 matched
  // accounting (neummu's latency counters): requests held and where the walk is
  output wire [HeldW-1:0]         held_o,         // requests not yet answered (0 when idle)
  output wire                     at_port_o,      // waiting for the page-table read port
  output wire                     at_mem_o        // waiting for a page-table read's data
);

  // ---------------------------------------------------------------- fields (neummu.h)
  localparam integer NmmuVaBits     = 48;  // virtual address bits
  localparam integer NmmuPaBits     = 52;  // physical address bits
  localparam integer NmmuPageShift  = 12;  // 4 KB page offset bits
  localparam integer NmmuPageShift2m = 21; // 2 MB page offset bits
  localparam integer NmmuLevelBits  = 9;   // table index bits per level
  localparam integer NmmuLevels     = 4;   // L4 .. L1
  localparam integer NmmuVpnBits    = NmmuVaBits - NmmuPageShift;  // va[47:12]
  localparam integer NmmuPpnBits    = NmmuPaBits - NmmuPageShift;  // pa[51:12]
  localparam integer NmmuPteBits    = 64;  // one page-table entry
  localparam integer NmmuPteShift   = 3;   // log2 of its bytes
  localparam integer NmmuPtePBit    = 0;   // present
  localparam integer NmmuPteWBit    = 1;   // writable
  localparam integer NmmuPteUBit    = 2;   // user
  localparam integer NmmuPtePsBit   = 7;   // page size (2 MB leaf in an L2 entry)
  localparam integer NmmuStBits     = 2;   // status code
  localparam [NmmuStBits-1:0] NmmuStOk = 2'd0, NmmuStNotPresent = 2'd1, NmmuStPerm = 2'd2;

  localparam integer SlotCntW = $clog2(Slots + 1) > 0 ? $clog2(Slots + 1) : 1;
  localparam integer Depth    = Slots + 1;
  localparam integer CntW     = $clog2(Depth + 1);
  localparam integer HeldW    = CntW;                            // the parent sizes it alike
  localparam integer ReqW     = IdW + 1 + NmmuPageShift;        // {id, write, page offset}
  localparam integer ReqWrBit = NmmuPageShift;
  localparam integer RspW     = IdW + NmmuPaBits + NmmuStBits;  // {id, pa, status}
  localparam integer PteAddrW = NmmuPaBits - NmmuPteShift;      // 8-byte word address
  localparam integer TpEvW    = NmmuLevels - 1;                 // TPreg levels (L4, L3, L2)
  // A 2 MB leaf keeps the low VPN bits (the L1 index) as the low bits of its 4 KB frame.
  localparam integer Lo2mBits = NmmuPageShift2m - NmmuPageShift;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Slots < 0) begin : gen_check_slots
      `CC_PARAM_FAIL(nmmu_ptw__Slots_must_be_at_least_0)
    end
    if (TpReg != 0 && TpReg != 1) begin : gen_check_tp_reg
      `CC_PARAM_FAIL(nmmu_ptw__TpReg_must_be_0_or_1)
    end
    if (IdW < 1) begin : gen_check_id_w
      `CC_PARAM_FAIL(nmmu_ptw__IdW_must_be_at_least_1)
    end
  endgenerate

  localparam [1:0] StIdle = 2'd0, StReq = 2'd1, StWait = 2'd2, StDone = 2'd3;
  localparam [1:0] LvL1 = 2'd0, LvL2 = 2'd1, LvL3 = 2'd2, LvL4 = 2'd3;

  reg [1:0]             state_q;
  reg [NmmuVpnBits-1:0] vpn_q;
  reg                   stale_q;
  reg [1:0]             level_q;      // level of the entry being read
  reg [NmmuPpnBits-1:0] base_q;       // table being read
  reg                   w_q, u_q;     // permissions along the path so far
  reg                   fault_q;      // not-present fault
  reg                   leaf2m_q;
  reg [NmmuPpnBits-1:0] ppn_q;        // leaf frame (4 KB units)
  reg                   fill_pend_q;

  // PRMB (entry 0 is the walker's own request)
  reg [ReqW-1:0] prmb_q [0:Depth-1];
  reg [CntW-1:0] cnt_q;     // entries held
  reg [CntW-1:0] rd_q;      // next entry to answer

  // TPreg
  reg [TpEvW-1:0]         tpv_q;        // valid: [0] L4 entry, [1] L3 entry, [2] L2 entry
  reg [NmmuLevelBits-1:0] tpi4_q, tpi3_q, tpi2_q;
  reg [NmmuPpnBits-1:0]   tpb_q [0:TpEvW-1];  // table the entry points to (L3, L2, L1 table)
  reg [1:0]               tpp_q [0:TpEvW-1];  // {W,U} after that level

  // VPN index of each level: L1 in the low NmmuLevelBits, L4 in the top ones.
  wire [NmmuLevelBits-1:0] a4 = alloc_vpn_i[3*NmmuLevelBits +: NmmuLevelBits];
  wire [NmmuLevelBits-1:0] a3 = alloc_vpn_i[2*NmmuLevelBits +: NmmuLevelBits];
  wire [NmmuLevelBits-1:0] a2 = alloc_vpn_i[1*NmmuLevelBits +: NmmuLevelBits];
  wire tp_on = (TpReg != 0) && cfg_tpreg_i;
  wire m4 = tp_on && tpv_q[0] && tpi4_q == a4;
  wire m3 = m4 && tpv_q[1] && tpi3_q == a3;
  wire m2 = m3 && tpv_q[2] && tpi2_q == a2;

  function [NmmuLevelBits-1:0] idx_of(input [NmmuVpnBits-1:0] vpn, input [1:0] lvl);
    begin
      case (lvl)
        LvL4:    idx_of = vpn[3*NmmuLevelBits +: NmmuLevelBits];
        LvL3:    idx_of = vpn[2*NmmuLevelBits +: NmmuLevelBits];
        LvL2:    idx_of = vpn[1*NmmuLevelBits +: NmmuLevelBits];
        default: idx_of = vpn[0 +: NmmuLevelBits];
      endcase
    end
  endfunction

  wire                   busy     = state_q != StIdle;
  wire [NmmuPteBits-1:0] pte      = mem_rdata_i;
  wire                   pte_p    = pte[NmmuPtePBit];
  wire                   pte_w    = pte[NmmuPteWBit];
  wire                   pte_u    = pte[NmmuPteUBit];
  wire                   pte_ps   = pte[NmmuPtePsBit];
  wire [NmmuPpnBits-1:0] pte_ppn  = pte[NmmuPaBits-1:NmmuPageShift];
  // Ignored PTE bits: 63:52 (NX, available), 11:8 (G, available), 6:3 (PWT, PCD, A, D).
  wire        unused_pte = ^{pte[NmmuPteBits-1:NmmuPaBits], pte[NmmuPageShift-1:NmmuPtePsBit+1],
                             pte[NmmuPtePsBit-1:NmmuPteUBit+1]};
  wire        merged_room = (cnt_q - 1'b1) < {{(CntW - SlotCntW){1'b0}}, cfg_slots_i} &&
                            cnt_q < Depth[CntW-1:0];
  wire        do_merge = merge_i && can_merge_o;

  assign idle_o      = !busy;
  assign can_merge_o = busy && !stale_q && merged_room;
  assign mem_req_o   = state_q == StReq;
  assign mem_addr_o  = {base_q, idx_of(vpn_q, level_q)};
  assign ev_walk_o   = alloc_i && !busy;
  assign ev_tp_hit_o = ev_walk_o ? {m2, m3, m4} : {TpEvW{1'b0}};

  // Response of the entry rd_q.
  wire [ReqW-1:0]          cur      = prmb_q[rd_q[CntW-1:0] < Depth[CntW-1:0] ? rd_q
                                                                               : {CntW{1'b0}}];
  wire [IdW-1:0]           cur_id   = cur[ReqW-1 -: IdW];
  wire                     cur_wr   = cur[ReqWrBit];
  wire [NmmuPageShift-1:0] cur_off  = cur[NmmuPageShift-1:0];
  wire                     perm_bad = !u_q || (cur_wr && !w_q);
  wire [NmmuStBits-1:0]    cur_st   = fault_q  ? NmmuStNotPresent :
                                      perm_bad ? NmmuStPerm : NmmuStOk;
  wire [NmmuPpnBits-1:0]   leaf_ppn = leaf2m_q ?
                                      {ppn_q[NmmuPpnBits-1:Lo2mBits], vpn_q[Lo2mBits-1:0]} : ppn_q;
  wire [NmmuPaBits-1:0]    cur_pa   = (cur_st == NmmuStOk) ? {leaf_ppn, cur_off}
                                                           : {NmmuPaBits{1'b0}};
  assign rsp_req_o = state_q == StDone && rd_q != cnt_q;
  assign held_o    = !busy ? {CntW{1'b0}} : (state_q == StDone) ? cnt_q - rd_q : cnt_q;
  assign at_port_o = state_q == StReq;
  assign at_mem_o  = state_q == StWait;
  assign rsp_o     = {cur_id, cur_pa, cur_st};

  assign fill_req_o = fill_pend_q;
  assign fill_vpn_o = vpn_q;
  assign fill_ppn_o = ppn_q;
  assign fill_2m_o  = leaf2m_q;
  assign fill_w_o   = w_q;
  assign fill_u_o   = u_q;

  // Walk end for the response in hand: leaf, fault, or next level.
  wire end_np   = !pte_p || (pte_ps && (level_q == LvL4 || level_q == LvL3));
  wire end_leaf = pte_p && (level_q == LvL1 || (level_q == LvL2 && pte_ps));

  integer t;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      vpn_q       <= {NmmuVpnBits{1'b0}};
      stale_q     <= 1'b0;
      level_q     <= LvL4;
      base_q      <= {NmmuPpnBits{1'b0}};
      w_q         <= 1'b0;
      u_q         <= 1'b0;
      fault_q     <= 1'b0;
      leaf2m_q    <= 1'b0;
      ppn_q       <= {NmmuPpnBits{1'b0}};
      fill_pend_q <= 1'b0;
      cnt_q       <= {CntW{1'b0}};
      rd_q        <= {CntW{1'b0}};
      tpv_q       <= {TpEvW{1'b0}};
      tpi4_q      <= {NmmuLevelBits{1'b0}};
      tpi3_q      <= {NmmuLevelBits{1'b0}};
      tpi2_q      <= {NmmuLevelBits{1'b0}};
      for (t = 0; t < TpEvW; t = t + 1) begin
        tpb_q[t] <= {NmmuPpnBits{1'b0}};
        tpp_q[t] <= 2'b00;
      end
    end else begin
      case (state_q)
        StIdle: begin
          if (alloc_i) begin
            state_q  <= StReq;
            vpn_q    <= alloc_vpn_i;
            stale_q  <= 1'b0;
            fault_q  <= 1'b0;
            leaf2m_q <= 1'b0;
            cnt_q    <= {{(CntW - 1){1'b0}}, 1'b1};
            rd_q     <= {CntW{1'b0}};
            if (m2) begin
              level_q <= LvL1; base_q <= tpb_q[2]; {w_q, u_q} <= tpp_q[2];
            end else if (m3) begin
              level_q <= LvL2; base_q <= tpb_q[1]; {w_q, u_q} <= tpp_q[1];
            end else if (m4) begin
              level_q <= LvL3; base_q <= tpb_q[0]; {w_q, u_q} <= tpp_q[0];
            end else begin
              level_q <= LvL4; base_q <= root_ppn_i; {w_q, u_q} <= 2'b11;
            end
            // The path below the matched depth belongs to the new walk from now on.
            if (tp_on) begin
              tpi4_q <= a4;
              tpi3_q <= a3;
              tpi2_q <= a2;
              tpv_q  <= {m2, m3, m4};
            end
          end
        end
        StReq: begin
          if (mem_gnt_i) state_q <= StWait;
        end
        StWait: begin
          if (mem_rsp_i) begin
            w_q <= w_q & pte_w;
            u_q <= u_q & pte_u;
            if (end_np) begin
              fault_q <= 1'b1;
              state_q <= StDone;
            end else if (end_leaf) begin
              leaf2m_q    <= level_q == LvL2;
              ppn_q       <= pte_ppn;
              state_q     <= StDone;
              fill_pend_q <= !stale_q;
            end else begin
              level_q <= level_q - 1'b1;
              base_q  <= pte_ppn;
              state_q <= StReq;
              if (tp_on && !stale_q) begin
                // the TPreg entry of this level: 0 for the L4 entry .. 2 for the L2 entry
                tpv_q[LvL4 - level_q]  <= 1'b1;
                tpb_q[LvL4 - level_q]  <= pte_ppn;
                tpp_q[LvL4 - level_q]  <= {w_q & pte_w, u_q & pte_u};
              end
            end
          end
        end
        default: begin // StDone
          if (rsp_gnt_i) rd_q <= rd_q + 1'b1;
          if (fill_gnt_i) fill_pend_q <= 1'b0;
          if (rd_q + {{(CntW - 1){1'b0}}, rsp_gnt_i} == cnt_q + {{(CntW - 1){1'b0}}, do_merge} &&
              !(fill_pend_q && !fill_gnt_i)) state_q <= StIdle;
        end
      endcase
      if (do_merge) cnt_q <= cnt_q + 1'b1;
      if (inv_i) begin
        tpv_q       <= {TpEvW{1'b0}};
        stale_q     <= 1'b1;
        fill_pend_q <= 1'b0;
      end
    end
  end

  // PRMB storage (no reset: qualified by cnt_q).
  always @(posedge clk_i) begin
    if (alloc_i && !busy) prmb_q[0] <= alloc_req_i;
    if (do_merge && cnt_q < Depth[CntW-1:0]) prmb_q[cnt_q] <= merge_req_i;
  end

endmodule

`default_nettype wire
