////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_mc.v
//
// Purpose:   NMP-local DDR4 memory controller of one TensorDIMM (one DIMM, 1/2/4 ranks of 16
//            banks in 4 bank groups), on a DFI 1:4 style port: the core clock is a quarter of
//            the DRAM clock, and each core cycle carries four command slots (phases 0..3, one
//            per DRAM clock) and at most one 64-byte burst of data (one CAS per core cycle is the
//            full bus).
//
//            Queues: a read queue (RqDepth entries: local block, tag; kept in age order) and
//            queue C, the write queue (CDepth entries: local block, 64 bytes; drained in order;
//            an end marker of an instruction retires it when it reaches the head).
//            Policy: open row. Each core cycle the scheduler picks up to one CAS (the oldest
//            row hit that DDR4 timing allows in this cycle: reads in read mode, the head of C in
//            write mode), one ACT (oldest request to a precharged bank) or REF, and one PRE
//            (oldest request to a bank open on another row, unless a queued request still hits
//            that row and it is not the oldest) or PREA, and gives each the earliest phase its
//            timing allows, on distinct phases. Write mode starts when C holds WrHigh entries
//            (or the read queue is empty) and ends at WrLow (or C empty): writes drain in
//            batches, so read-write turnarounds are paid once per batch.
//            Refresh: each rank every tREFI (ranks staggered); a due rank takes no new ACT or CAS,
//            is precharged (PREA) and refreshed (REF), and rests tRFC.
//            Timing: every constraint is a down-counter in DRAM clocks from the start of the
//            current core cycle ("allowed at phase p if counter <= p"): per bank ACT (tRC, tRP,
//            tRFC), CAS (tRCD), PRE (tRAS, tRTP, write recovery); per bank group RD and WR
//            (tCCD_S/L, tWTR_S/L, read-to-write, rank switch tRTRS), ACT (tRRD_L); per rank
//            tRRD_S and the last four ACTs (tFAW).
//            dbg_fault_i (test only, tie to 0) disables one rule so the harness can show that
//            the independent timing checker catches it: 1 tRCD, 2 tFAW, 3 read CAS spacing
//            (tCCD, tWTR), 4 refresh.
//
//            Read data comes back in RD order (dfi_rddata_valid_i); the tag of each RD waits in
//            a FIFO and steers the data to its slot of queue A or B (fill_*).
//            DFI outputs are registered: the commands decided in cycle c are driven in c + 1.
//
// Parameters:
//   LocalAw       log2 of the DIMM's capacity in 64-byte blocks (12..27)
//   Ranks         1, 2 or 4
//   ColLoW        low column bits below the bank group in the block address (0..3)
//   RqDepth       read queue entries (2..32)
//   CDepth        queue C (write queue) entries (2..64)
//   WrHigh, WrLow write-drain watermarks (1 <= WrLow < WrHigh <= CDepth)
//   TagW          read tag width (queue select + slot)
//   TCl .. TRtrs  DDR4 timing in DRAM clocks (DDR4-3200AA defaults, docs/tensordimm.md)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module tdimm_mc #(
  parameter integer LocalAw = 16,
  parameter integer Ranks   = 1,
  parameter integer ColLoW  = 1,
  parameter integer RqDepth = 16,
  parameter integer CDepth  = 8,
  parameter integer WrHigh  = 6,
  parameter integer WrLow   = 2,
  parameter integer TagW    = 4,
  parameter integer TCl     = 22,
  parameter integer TCwl    = 16,
  parameter integer TRcd    = 22,
  parameter integer TRp     = 22,
  parameter integer TRas    = 52,
  parameter integer TRc     = 74,
  parameter integer TCcdS   = 4,
  parameter integer TCcdL   = 8,
  parameter integer TRrdS   = 4,
  parameter integer TRrdL   = 8,
  parameter integer TFaw    = 34,
  parameter integer TWr     = 24,
  parameter integer TWtrS   = 4,
  parameter integer TWtrL   = 12,
  parameter integer TRtp    = 12,
  parameter integer TRfc    = 560,
  parameter integer TRefi   = 12480,
  parameter integer TRtrs   = 2
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire [2:0]         dbg_fault_i,
  // read requests (tdimm_agu)
  output wire               rq_full_o,
  input  wire               rq_push_i,
  input  wire [LocalAw-1:0] rq_addr_i,
  input  wire [TagW-1:0]    rq_tag_i,
  // read data to queues A/B
  output wire               fill_o,
  output wire [TagW-1:0]    fill_tag_o,
  output wire [511:0]       fill_data_o,
  // queue C push (tdimm_alu)
  output wire               c_full_o,
  input  wire               c_push_i,
  input  wire               c_marker_i,
  input  wire [LocalAw-1:0] c_addr_i,
  input  wire [511:0]       c_data_i,
  input  wire [3:0]         c_err_i,
  input  wire [23:0]        c_rows_i,
  // retirement
  output wire               done_valid_o,
  input  wire               done_ready_i,
  output wire [3:0]         done_err_o,
  output wire [23:0]        done_rows_o,
  // DFI 1:4
  output wire [4*26-1:0]    dfi_cmd_o,
  output wire [511:0]       dfi_wrdata_o,
  input  wire               dfi_rddata_valid_i,
  input  wire [511:0]       dfi_rddata_i,
  // status (counters for the bench)
  output wire               wmode_o,
  output wire               busy_o
);
  // ---------------------------------------------------------------- derived
  localparam integer RankW = Ranks == 4 ? 2 : Ranks == 2 ? 1 : 0;
  localparam integer BkW   = 4 + RankW;            // flat bank index {rank, bg, bank}
  localparam integer NB    = 16 * Ranks;
  localparam integer NG    = 4 * Ranks;            // bank groups (flat {rank, bg})
  localparam integer RowW  = LocalAw - 11 - RankW;
  localparam integer TW    = 11;                   // timer width (tRFC + 3 < 2^11)
  localparam integer LA    = CDepth < 8 ? CDepth : 8;   // queue C window (write CAS, ACT, PRE)
  localparam integer NS    = RqDepth + LA;
  localparam integer RqW   = $clog2(RqDepth + 1);
  localparam integer RqIW  = $clog2(RqDepth);
  localparam integer CW    = $clog2(CDepth + 1);
  localparam integer CPW   = $clog2(CDepth) < 1 ? 1 : $clog2(CDepth);
  localparam integer CLastI = CDepth - 1;
  localparam [CPW-1:0] CLast = CLastI[CPW-1:0];
  localparam [CW-1:0] WrHighC = WrHigh[CW-1:0];
  localparam [CW-1:0] WrLowC  = WrLow[CW-1:0];
  localparam integer SW    = $clog2(NS) < 1 ? 1 : $clog2(NS);
  // command-to-command spacings (DRAM clocks)
  localparam integer TBurst   = 4;
  localparam integer RdToWr   = TCl + TBurst + 2 - TCwl;
  localparam integer WrToRdL  = TCwl + TBurst + TWtrL;
  localparam integer WrToRdS  = TCwl + TBurst + TWtrS;
  localparam integer WrToRdR  = TCwl + TBurst + TRtrs - TCl;   // other rank (may be <= 0)
  localparam integer RankSw   = TBurst + TRtrs;                // same CAS type, other rank
  localparam integer WrToPre  = TCwl + TBurst + TWr;
  localparam [2:0] CmdAct = 3'd1, CmdRd = 3'd2, CmdWr = 3'd3, CmdPre = 3'd4,
                   CmdPrea = 3'd5, CmdRef = 3'd6;

  generate
    if (LocalAw < 12 + RankW || LocalAw > 27 + RankW || RowW > 17) begin : gen_check_local_aw
      `CC_PARAM_FAIL(tdimm_mc__LocalAw_must_leave_1_to_17_row_bits)
    end
    if (Ranks != 1 && Ranks != 2 && Ranks != 4) begin : gen_check_ranks
      `CC_PARAM_FAIL(tdimm_mc__Ranks_must_be_1_2_or_4)
    end
    if (ColLoW < 0 || ColLoW > 3) begin : gen_check_col_lo
      `CC_PARAM_FAIL(tdimm_mc__ColLoW_must_be_0_to_3)
    end
    if (RqDepth < 2 || RqDepth > 32) begin : gen_check_rq
      `CC_PARAM_FAIL(tdimm_mc__RqDepth_must_be_2_to_32)
    end
    if (CDepth < 2 || CDepth > 64) begin : gen_check_c
      `CC_PARAM_FAIL(tdimm_mc__CDepth_must_be_2_to_64)
    end
    if (WrLow < 1 || WrLow >= WrHigh || WrHigh > CDepth) begin : gen_check_wm
      `CC_PARAM_FAIL(tdimm_mc__watermarks_must_be_1_le_WrLow_lt_WrHigh_le_CDepth)
    end
  endgenerate

  // ---------------------------------------------------------------- address fields
  // Local block address, from the LSB (docs/tensordimm.md "Inside a DIMM"):
  //   col_lo (ColLoW) | bank group (2) | col_hi (7 - ColLoW) | bank (2) | rank (RankW) | row
  function [BkW-1:0] f_bank(input [LocalAw-1:0] a);  // {rank, bg, bank}
    reg [31:0] x, y;
    begin
      x = {{(32-LocalAw){1'b0}}, a} >> ColLoW;      // bg in x[1:0]
      y = {{(32-LocalAw){1'b0}}, a} >> 9;           // bank in y[1:0], rank above
      x = {y[29:2], x[1:0], y[1:0]};
      f_bank = x[BkW-1:0];
    end
  endfunction
  function [16:0] f_row(input [LocalAw-1:0] a);
    reg [31:0] x;
    begin
      x = {{(32-LocalAw){1'b0}}, a} >> (11 + RankW);
      f_row = x[16:0];
    end
  endfunction
  function [6:0] f_col(input [LocalAw-1:0] a);
    reg [31:0] x, hi, lo;
    begin
      x  = {{(32-LocalAw){1'b0}}, a};
      hi = (x >> (2 + ColLoW)) & ((32'd1 << (7 - ColLoW)) - 32'd1);
      lo = x & ((32'd1 << ColLoW) - 32'd1);
      x  = (hi << ColLoW) | lo;
      f_col = x[6:0];
    end
  endfunction
  function [1:0] f_rank_of_bank(input [BkW-1:0] b);
    reg [7:0] x;
    begin
      x = {{(8-BkW){1'b0}}, b} >> 4;
      f_rank_of_bank = x[1:0];
    end
  endfunction
  function [BkW-3:0] f_grp(input [BkW-1:0] b);   // flat bank group {rank, bg}
    reg [BkW-1:0] x;
    begin
      x = b >> 2;
      f_grp = x[BkW-3:0];
    end
  endfunction
  // A constraint "not before phase p + t of this cycle", as a counter for the next cycle.
  function [TW-1:0] cons(input [1:0] p, input integer t);
    integer v;
    begin
      v = t - 4 + {30'd0, p};
      cons = v > 0 ? v[TW-1:0] : {TW{1'b0}};
    end
  endfunction
  function [TW-1:0] mx(input [TW-1:0] a, input [TW-1:0] b);
    mx = a > b ? a : b;
  endfunction
  function [TW-1:0] dec4(input [TW-1:0] v);
    dec4 = v > 4 ? v - 4 : {TW{1'b0}};
  endfunction

  // ---------------------------------------------------------------- state
  reg [NB*TW-1:0] t_act_q;
  reg [NB*TW-1:0] t_cas_q;
  reg [NB*TW-1:0] t_pre_q;
  reg [NB-1:0]      open_q;
  reg [NB*17-1:0] row_q;
  reg [NG*TW-1:0] t_rd_q;
  reg [NG*TW-1:0] t_wr_q;
  reg [NG*TW-1:0] t_rrdl_q;
  // Rank-level state is sized for 4 ranks (indexed by a 2-bit rank); ranks >= Ranks stay idle.
  reg [4*TW-1:0] t_rrds_q;
  reg [16*TW-1:0] faw_q;
  reg [4*16-1:0] ref_cnt_q;
  reg [3:0]         refpend_q;

  reg [RqDepth*LocalAw-1:0] rq_addr_q;
  reg [RqDepth*TagW-1:0] rq_tag_q;
  reg [RqW-1:0]     rq_cnt_q;

  reg [511:0]       c_data_q  [0:CDepth-1];
  reg [CDepth*LocalAw-1:0] c_addr_q;
  reg [CDepth-1:0] c_mk_q;
  reg [CDepth-1:0] c_iss_q;          // written to DRAM, waiting to leave the head
  reg [CDepth*4-1:0] c_err_q;
  reg [CDepth*24-1:0] c_rows_q;
  reg [CPW-1:0]     c_hp_q, c_tp_q;
  reg [CW-1:0]      c_cnt_q;

  reg               wmode_q;
  reg               done_q;
  reg [3:0]         done_err_q;
  reg [23:0]        done_rows_q;
  reg [4*26-1:0]    dfi_cmd_q;
  reg [511:0]       dfi_wrdata_q;

  // ---------------------------------------------------------------- candidates
  // Slots 0..RqDepth-1: the read queue (age order); RqDepth..NS-1: queue C from its head.
  reg [NS-1:0]  s_v;            // holds a request
  reg [NS*BkW-1:0] s_bk;
  reg [NS*17-1:0] s_row;
  reg [NS*LocalAw-1:0] s_addr;
  reg [LA*CPW-1:0] c_idx;

  always @* begin : p_cand
    integer s, i;
    reg [31:0] ci;
    for (s = 0; s < NS; s = s + 1) begin
      s_v[s] = 1'b0;
      s_addr[(s)*LocalAw +: LocalAw] = {LocalAw{1'b0}};
    end
    for (s = 0; s < RqDepth; s = s + 1) begin
      s_v[s] = s < rq_cnt_q;
      s_addr[(s)*LocalAw +: LocalAw] = rq_addr_q[(s)*LocalAw +: LocalAw];
    end
    for (i = 0; i < LA; i = i + 1) begin
      ci = {{(32-CPW){1'b0}}, c_hp_q} + i;
      if (ci >= CDepth) ci = ci - CDepth;
      c_idx[(i)*CPW +: CPW] = ci[CPW-1:0];
      s_v[RqDepth+i] = i < c_cnt_q && !c_mk_q[c_idx[(i)*CPW +: CPW]] &&
                       !c_iss_q[c_idx[(i)*CPW +: CPW]];
      s_addr[(RqDepth+i)*LocalAw +: LocalAw] = c_addr_q[(c_idx[(i)*CPW +: CPW])*LocalAw +: LocalAw];
    end
    for (s = 0; s < NS; s = s + 1) begin
      s_bk[(s)*BkW +: BkW]  = f_bank(s_addr[(s)*LocalAw +: LocalAw]);
      s_row[(s)*17 +: 17] = f_row(s_addr[(s)*LocalAw +: LocalAw]);
    end
  end

  // Per slot: row hit / bank closed; per bank: a queued request hits its open row.
  reg [NS-1:0] s_hit, s_closed;
  reg [NB-1:0] wanted;
  always @* begin : p_hit
    integer s;
    wanted = {NB{1'b0}};
    for (s = 0; s < NS; s = s + 1) begin
      s_hit[s]    = s_v[s] && open_q[s_bk[(s)*BkW +: BkW]] && row_q[(s_bk[(s)*BkW +: BkW])*17 +: 17] == s_row[(s)*17 +: 17];
      s_closed[s] = s_v[s] && !open_q[s_bk[(s)*BkW +: BkW]];
      if (s_hit[s]) wanted[s_bk[(s)*BkW +: BkW]] = 1'b1;
    end
  end

  // Rank-level: earliest ACT by tFAW, every bank closed, latest PRE/ACT timers.
  reg [4*TW-1:0] faw_min;
  reg [4*2-1:0] faw_idx;
  reg [4*TW-1:0] rk_pre_max;   // PREA: over the open banks
  reg [4*TW-1:0] rk_act_max;   // REF: over every bank
  reg [3:0]    rk_any_open;
  always @* begin : p_rank
    integer r, i, b;
    for (r = 0; r < 4; r = r + 1) begin
      faw_min[(r)*TW +: TW] = {TW{1'b0}};
      faw_idx[(r)*2 +: 2] = 2'd0;
      rk_pre_max[(r)*TW +: TW] = {TW{1'b0}};
      rk_act_max[(r)*TW +: TW] = {TW{1'b0}};
      rk_any_open[r] = 1'b0;
    end
    for (r = 0; r < Ranks; r = r + 1) begin
      faw_min[(r)*TW +: TW] = faw_q[(4*r)*TW +: TW];
      faw_idx[(r)*2 +: 2] = 2'd0;
      for (i = 1; i < 4; i = i + 1)
        if (faw_q[(4*r+i)*TW +: TW] < faw_min[(r)*TW +: TW]) begin
          faw_min[(r)*TW +: TW] = faw_q[(4*r+i)*TW +: TW];
          faw_idx[(r)*2 +: 2] = i[1:0];
        end
      if (dbg_fault_i == 3'd2) faw_min[(r)*TW +: TW] = {TW{1'b0}};
      rk_pre_max[(r)*TW +: TW] = {TW{1'b0}};
      rk_act_max[(r)*TW +: TW] = {TW{1'b0}};
      rk_any_open[r] = 1'b0;
      for (b = 16 * r; b < 16 * r + 16; b = b + 1) begin
        rk_act_max[(r)*TW +: TW] = mx(rk_act_max[(r)*TW +: TW], t_act_q[(b)*TW +: TW]);
        if (open_q[b]) begin
          rk_any_open[r] = 1'b1;
          rk_pre_max[(r)*TW +: TW] = mx(rk_pre_max[(r)*TW +: TW], t_pre_q[(b)*TW +: TW]);
        end
      end
    end
  end

  // ---------------------------------------------------------------- scheduler
  wire c_head_mk = c_cnt_q != 0 && c_mk_q[c_hp_q];
  reg          cas_go, cas_wr;
  reg [1:0]    cas_p;
  reg [BkW-1:0] cas_b;
  reg [SW-1:0] cas_s;

  reg          act_go, ref_go;
  reg [1:0]    act_p;
  reg [BkW-1:0] act_b;
  reg [16:0]   act_row;
  reg [1:0]    ref_r;
  reg          pre_go, prea_go;
  reg [1:0]    pre_p;
  reg [BkW-1:0] pre_b;
  reg [1:0]    prea_r;
  reg [TW-1:0] e_act, e_pre;
  reg          act_found, pre_found, oldest;
  reg [TW-1:0] pa, pp;

  always @* begin : p_sched
    integer s, r, i, pass;
    reg [TW-1:0] e;
    reg [1:0] rk;
    reg [BkW-3:0] gi;
    e = {TW{1'b0}};
    rk = 2'd0;
    gi = {(BkW-2){1'b0}};
    oldest = 1'b0;
    pa = {TW{1'b0}};
    pp = {TW{1'b0}};
    act_go = 1'b0;
    act_p = 2'd0;
    pre_go = 1'b0;
    pre_p = 2'd0;
    // CAS
    cas_go = 1'b0;
    cas_wr = 1'b0;
    cas_p  = 2'd0;
    cas_b  = {BkW{1'b0}};
    cas_s  = {SW{1'b0}};
    if (!wmode_q) begin
      for (s = RqDepth - 1; s >= 0; s = s - 1) begin
        rk = f_rank_of_bank(s_bk[(s)*BkW +: BkW]);
        gi = f_grp(s_bk[(s)*BkW +: BkW]);
        e = mx(dbg_fault_i == 3'd1 ? {TW{1'b0}} : t_cas_q[(s_bk[(s)*BkW +: BkW])*TW +: TW],
               dbg_fault_i == 3'd3 ? {TW{1'b0}} : t_rd_q[(gi)*TW +: TW]);
        if (s_hit[s] && !refpend_q[rk] && e < 4) begin
          cas_go = 1'b1;
          cas_p  = e[1:0];
          cas_b  = s_bk[(s)*BkW +: BkW];
          cas_s  = s[SW-1:0];
        end
      end
    end else begin
      // write mode: the oldest write in the window of queue C that hits and may go (writes of
      // one instruction never overlap, so they may leave C out of order; the end marker stays
      // behind them)
      for (s = NS - 1; s >= RqDepth; s = s - 1) begin
        rk = f_rank_of_bank(s_bk[(s)*BkW +: BkW]);
        gi = f_grp(s_bk[(s)*BkW +: BkW]);
        e = mx(dbg_fault_i == 3'd1 ? {TW{1'b0}} : t_cas_q[(s_bk[(s)*BkW +: BkW])*TW +: TW],
               t_wr_q[(gi)*TW +: TW]);
        if (s_hit[s] && !refpend_q[rk] && e < 4) begin
          cas_go = 1'b1;
          cas_wr = 1'b1;
          cas_p  = e[1:0];
          cas_b  = s_bk[(s)*BkW +: BkW];
          cas_s  = s[SW-1:0];
        end
      end
    end

    // ACT slot: REF of a due rank whose banks are closed, else the oldest request to a closed
    // bank of the current mode's queue.
    ref_go = 1'b0;
    ref_r  = 2'd0;
    act_found = 1'b0;
    e_act = {TW{1'b0}};
    act_b = {BkW{1'b0}};
    act_row = 17'd0;
    for (r = Ranks - 1; r >= 0; r = r - 1)
      if (refpend_q[r] && !rk_any_open[r] && rk_act_max[(r)*TW +: TW] < 4) begin
        act_found = 1'b1;
        ref_r = r[1:0];
        e_act = rk_act_max[(r)*TW +: TW];
      end
    ref_go = act_found;
    // Two passes: the other mode's queue first, then the current one's, so the current mode's
    // oldest request wins and the other queue's banks are opened while this one has nothing to
    // open (reads prepare their rows during a write batch and the other way round).
    if (!act_found) begin
      for (pass = 0; pass < 2; pass = pass + 1)
        for (s = NS - 1; s >= 0; s = s - 1) begin
          rk = f_rank_of_bank(s_bk[(s)*BkW +: BkW]);
          gi = f_grp(s_bk[(s)*BkW +: BkW]);
          e = mx(mx(t_act_q[(s_bk[(s)*BkW +: BkW])*TW +: TW], t_rrds_q[(rk)*TW +: TW]),
                 mx(t_rrdl_q[(gi)*TW +: TW], faw_min[(rk)*TW +: TW]));
          if ((((s < RqDepth) != wmode_q) == (pass == 1)) && s_closed[s] && !refpend_q[rk] &&
              e < 4) begin
            act_found = 1'b1;
            e_act = e;
            act_b = s_bk[(s)*BkW +: BkW];
            act_row = s_row[(s)*17 +: 17];
          end
        end
    end
    // PRE slot: PREA of a due rank with open banks, else the oldest request to a bank open on
    // another row whose row no queued request wants (or that is the oldest request).
    prea_go = 1'b0;
    prea_r  = 2'd0;
    pre_found = 1'b0;
    e_pre = {TW{1'b0}};
    pre_b = {BkW{1'b0}};
    for (r = Ranks - 1; r >= 0; r = r - 1)
      if (refpend_q[r] && rk_any_open[r] && rk_pre_max[(r)*TW +: TW] < 4) begin
        pre_found = 1'b1;
        prea_r = r[1:0];
        e_pre = rk_pre_max[(r)*TW +: TW];
      end
    prea_go = pre_found;
    // Only the current mode's queue closes rows: the other mode's requests would close the
    // rows the current batch is streaming through (a write stream's next columns).
    if (!pre_found) begin
      for (pass = 1; pass < 2; pass = pass + 1)
        for (s = NS - 1; s >= 0; s = s - 1) begin
          rk = f_rank_of_bank(s_bk[(s)*BkW +: BkW]);
          oldest = pass == 1 && (wmode_q ? s == RqDepth : s == 0);
          if ((((s < RqDepth) != wmode_q) == (pass == 1)) && s_v[s] &&
              open_q[s_bk[(s)*BkW +: BkW]] &&
              row_q[(s_bk[(s)*BkW +: BkW])*17 +: 17] != s_row[(s)*17 +: 17] &&
              (!wanted[s_bk[(s)*BkW +: BkW]] || oldest) && !refpend_q[rk] &&
              t_pre_q[(s_bk[(s)*BkW +: BkW])*TW +: TW] < 4 &&
              !(cas_go && cas_b == s_bk[(s)*BkW +: BkW])) begin
            pre_found = 1'b1;
            e_pre = t_pre_q[(s_bk[(s)*BkW +: BkW])*TW +: TW];
            pre_b = s_bk[(s)*BkW +: BkW];
          end
        end
    end

    // Phases: the CAS first, then the ACT slot, then the PRE slot, each at its earliest
    // free phase.
    pa = e_act;
    if (cas_go && pa == {{(TW-2){1'b0}}, cas_p}) pa = pa + 1;
    act_go = act_found && pa < 4;
    act_p  = pa[1:0];
    pp = e_pre;
    for (i = 0; i < 2; i = i + 1)
      if ((cas_go && pp == {{(TW-2){1'b0}}, cas_p}) || (act_go && pp == {{(TW-2){1'b0}}, act_p}))
        pp = pp + 1;
    if (cas_go && pp == {{(TW-2){1'b0}}, cas_p}) pp = pp + 1;
    pre_go = pre_found && pp < 4;
    pre_p  = pp[1:0];
    ref_go  = ref_go && act_go;
    prea_go = prea_go && pre_go;
  end

  // ---------------------------------------------------------------- DFI command word
  reg [4*26-1:0] cmd_d;
  reg [BkW-1:0] cb;
  always @* begin
    cmd_d = {4*26{1'b0}};
    cb = {BkW{1'b0}};
    if (cas_go) begin
      cb = cas_b;
      cmd_d[26*cas_p +: 26] = {cas_wr ? CmdWr : CmdRd, f_rank_of_bank(cb), cb[3:2], cb[1:0],
                               10'd0, f_col(s_addr[(cas_s)*LocalAw +: LocalAw])};
    end
    if (act_go) begin
      if (ref_go) cmd_d[26*act_p +: 26] = {CmdRef, ref_r, 4'd0, 17'd0};
      else begin
        cb = act_b;
        cmd_d[26*act_p +: 26] = {CmdAct, f_rank_of_bank(cb), cb[3:2], cb[1:0], act_row};
      end
    end
    if (pre_go) begin
      if (prea_go) cmd_d[26*pre_p +: 26] = {CmdPrea, prea_r, 4'd0, 17'd0};
      else begin
        cb = pre_b;
        cmd_d[26*pre_p +: 26] = {CmdPre, f_rank_of_bank(cb), cb[3:2], cb[1:0], 17'd0};
      end
    end
  end

  // ---------------------------------------------------------------- queues
  wire rd_go  = cas_go && !cas_wr;
  wire wr_go  = cas_go && cas_wr;
  wire rd_hit = |s_hit[RqDepth-1:0];   // a queued read hits an open row
  wire wr_hit = |s_hit[NS-1:RqDepth];   // a queued write does
  wire mk_pop = c_head_mk && !done_q;
  wire c_pop  = (c_cnt_q != 0 && c_iss_q[c_hp_q]) || mk_pop;
  // queue C entry of the write issued this cycle
  reg [31:0] wr_slot;
  always @* begin
    wr_slot = {{(32-SW){1'b0}}, cas_s} - RqDepth;
    if (wr_slot >= LA) wr_slot = 32'd0;
  end
  wire [CPW-1:0] wr_idx = c_idx[(wr_slot[3:0])*CPW +: CPW];
  assign rq_full_o = rq_cnt_q == RqDepth[RqW-1:0];
  assign c_full_o  = c_cnt_q == CDepth[CW-1:0];

  // read tags wait for their data in RD order
  wire tag_rdy, tag_valid;
  wire [TagW-1:0] tag_head;
  wire [4:0] unused_tag_cnt;
  cc_fifo #(.Width(TagW), .Depth(16)) u_tags (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (rd_go),
    .in_ready_o (tag_rdy),
    .in_data_i  (rq_tag_q[(cas_s[RqIW-1:0])*TagW +: TagW]),
    .out_valid_o(tag_valid),
    .out_ready_i(dfi_rddata_valid_i),
    .out_data_o (tag_head),
    .count_o    (unused_tag_cnt)
  );
  assign fill_o      = dfi_rddata_valid_i;
  assign fill_tag_o  = tag_head;
  assign fill_data_o = dfi_rddata_i;

  // ---------------------------------------------------------------- registers


  always @(posedge clk_i or negedge rst_ni) begin : p_regs
    integer s, i, b, r, g, rv;
    reg [RqW-1:0] rq_n;
    reg [31:0] src;
    reg [1:0] rk;
    reg [31:0] gi;
    if (!rst_ni) begin
      for (b = 0; b < NB; b = b + 1) begin
        t_act_q[(b)*TW +: TW] <= {TW{1'b0}};
        t_cas_q[(b)*TW +: TW] <= {TW{1'b0}};
        t_pre_q[(b)*TW +: TW] <= {TW{1'b0}};
        row_q[(b)*17 +: 17]   <= 17'd0;
      end
      open_q <= {NB{1'b0}};
      for (g = 0; g < NG; g = g + 1) begin
        t_rd_q[(g)*TW +: TW]   <= {TW{1'b0}};
        t_wr_q[(g)*TW +: TW]   <= {TW{1'b0}};
        t_rrdl_q[(g)*TW +: TW] <= {TW{1'b0}};
      end
      for (r = 0; r < 4; r = r + 1) begin
        t_rrds_q[(r)*TW +: TW]  <= {TW{1'b0}};
        rv = TRefi * (r + 1) / Ranks;
        ref_cnt_q[(r)*16 +: 16] <= rv[15:0];
      end
      for (i = 0; i < 16; i = i + 1) faw_q[(i)*TW +: TW] <= {TW{1'b0}};
      refpend_q <= 4'd0;
      for (s = 0; s < RqDepth; s = s + 1) begin
        rq_addr_q[(s)*LocalAw +: LocalAw] <= {LocalAw{1'b0}};
        rq_tag_q[(s)*TagW +: TagW]  <= {TagW{1'b0}};
      end
      rq_cnt_q <= {RqW{1'b0}};
      for (i = 0; i < CDepth; i = i + 1) begin
        c_addr_q[(i)*LocalAw +: LocalAw] <= {LocalAw{1'b0}};
        c_mk_q[i]   <= 1'b0;
        c_iss_q[i]  <= 1'b0;
        c_err_q[(i)*4 +: 4]  <= 4'd0;
        c_rows_q[(i)*24 +: 24] <= 24'd0;
      end
      c_hp_q  <= {CPW{1'b0}};
      c_tp_q  <= {CPW{1'b0}};
      c_cnt_q <= {CW{1'b0}};
      wmode_q <= 1'b0;
      done_q  <= 1'b0;
      done_err_q  <= 4'd0;
      done_rows_q <= 24'd0;
      dfi_cmd_q   <= {4*26{1'b0}};
    end else begin
      // ---- bank timers and state
      for (b = 0; b < NB; b = b + 1) begin
        rk = f_rank_of_bank(b[BkW-1:0]);
        t_act_q[(b)*TW +: TW] <= mx(dec4(t_act_q[(b)*TW +: TW]),
                      mx(act_go && !ref_go && act_b == b[BkW-1:0] ? cons(act_p, TRc) : {TW{1'b0}},
                      mx(pre_go && !prea_go && pre_b == b[BkW-1:0] ? cons(pre_p, TRp) : {TW{1'b0}},
                      mx(prea_go && prea_r == rk && open_q[b] ? cons(pre_p, TRp) : {TW{1'b0}},
                         ref_go && ref_r == rk ? cons(act_p, TRfc) : {TW{1'b0}}))));
        t_cas_q[(b)*TW +: TW] <= mx(dec4(t_cas_q[(b)*TW +: TW]),
                         act_go && !ref_go && act_b == b[BkW-1:0] ? cons(act_p, TRcd) : {TW{1'b0}});
        t_pre_q[(b)*TW +: TW] <= mx(dec4(t_pre_q[(b)*TW +: TW]),
                      mx(act_go && !ref_go && act_b == b[BkW-1:0] ? cons(act_p, TRas) : {TW{1'b0}},
                         cas_go && cas_b == b[BkW-1:0] ? cons(cas_p, cas_wr ? WrToPre : TRtp)
                                              : {TW{1'b0}}));
        if (act_go && !ref_go && act_b == b[BkW-1:0]) begin
          open_q[b] <= 1'b1;
          row_q[(b)*17 +: 17]  <= act_row;
        end
        if ((pre_go && !prea_go && pre_b == b[BkW-1:0]) || (prea_go && prea_r == rk)) open_q[b] <= 1'b0;
      end
      // ---- bank-group timers (g = {rank, bg})
      for (g = 0; g < NG; g = g + 1) begin
        rk = g[3:2];
        gi = {{(32-BkW){1'b0}}, cas_b} >> 2;
        if (!cas_go)
          begin
            t_rd_q[(g)*TW +: TW] <= dec4(t_rd_q[(g)*TW +: TW]);
            t_wr_q[(g)*TW +: TW] <= dec4(t_wr_q[(g)*TW +: TW]);
          end
        else if (!cas_wr) begin
          t_rd_q[(g)*TW +: TW] <= mx(dec4(t_rd_q[(g)*TW +: TW]),
                          cons(cas_p, g == gi ? TCcdL :
                                      rk == f_rank_of_bank(cas_b) ? TCcdS : RankSw));
          t_wr_q[(g)*TW +: TW] <= mx(dec4(t_wr_q[(g)*TW +: TW]), cons(cas_p, RdToWr));
        end else begin
          t_rd_q[(g)*TW +: TW] <= mx(dec4(t_rd_q[(g)*TW +: TW]),
                          cons(cas_p, g == gi ? WrToRdL :
                                      rk == f_rank_of_bank(cas_b) ? WrToRdS : WrToRdR));
          t_wr_q[(g)*TW +: TW] <= mx(dec4(t_wr_q[(g)*TW +: TW]),
                          cons(cas_p, g == gi ? TCcdL :
                                      rk == f_rank_of_bank(cas_b) ? TCcdS : RankSw));
        end
        gi = {{(32-BkW){1'b0}}, act_b} >> 2;
        t_rrdl_q[(g)*TW +: TW] <= mx(dec4(t_rrdl_q[(g)*TW +: TW]),
                          act_go && !ref_go && g == gi ? cons(act_p, TRrdL) : {TW{1'b0}});
      end
      // ---- rank timers, tFAW window, refresh
      for (r = 0; r < Ranks; r = r + 1) begin
        rk = f_rank_of_bank(act_b);
        t_rrds_q[(r)*TW +: TW] <= mx(dec4(t_rrds_q[(r)*TW +: TW]),
                          act_go && !ref_go && rk == r[1:0] ? cons(act_p, TRrdS) : {TW{1'b0}});
        for (i = 0; i < 4; i = i + 1)
          faw_q[(4*r+i)*TW +: TW] <= act_go && !ref_go && rk == r[1:0] && faw_idx[(r)*2 +: 2] == i[1:0] ?
                          cons(act_p, TFaw) : dec4(faw_q[(4*r+i)*TW +: TW]);
        if (ref_go && ref_r == r[1:0]) begin
          refpend_q[r] <= 1'b0;
        end else if (ref_cnt_q[(r)*16 +: 16] <= 16'd4 && !refpend_q[r] && dbg_fault_i != 3'd4) begin
          refpend_q[r] <= 1'b1;
        end
        if (ref_cnt_q[(r)*16 +: 16] <= 16'd4 && !refpend_q[r] && dbg_fault_i != 3'd4)
          ref_cnt_q[(r)*16 +: 16] <= ref_cnt_q[(r)*16 +: 16] + TRefi[15:0] - 16'd4;
        else if (ref_cnt_q[(r)*16 +: 16] > 16'd4)
          ref_cnt_q[(r)*16 +: 16] <= ref_cnt_q[(r)*16 +: 16] - 16'd4;
      end
      // ---- read queue: remove the served entry (collapse), append the new one
      for (s = 0; s < RqDepth; s = s + 1) begin
        src = (rd_go && s >= cas_s) ? s + 1 : s;
        if (src < RqDepth) begin
          rq_addr_q[(s)*LocalAw +: LocalAw] <= rq_addr_q[(src)*LocalAw +: LocalAw];
          rq_tag_q[(s)*TagW +: TagW]  <= rq_tag_q[(src)*TagW +: TagW];
        end
      end
      rq_n = rq_cnt_q - {{(RqW-1){1'b0}}, rd_go};
      if (rq_push_i) begin
        for (s = 0; s < RqDepth; s = s + 1)
          if (s[RqW-1:0] == rq_n) begin
            rq_addr_q[(s)*LocalAw +: LocalAw] <= rq_addr_i;
            rq_tag_q[(s)*TagW +: TagW]  <= rq_tag_i;
          end
      end
      rq_cnt_q <= rq_n + {{(RqW-1){1'b0}}, rq_push_i};
      // ---- queue C
      if (c_push_i) begin
        c_addr_q[(c_tp_q)*LocalAw +: LocalAw] <= c_addr_i;
        c_mk_q[c_tp_q]   <= c_marker_i;
        c_iss_q[c_tp_q]  <= 1'b0;
        c_err_q[(c_tp_q)*4 +: 4]  <= c_err_i;
        c_rows_q[(c_tp_q)*24 +: 24] <= c_rows_i;
        c_tp_q <= c_tp_q == CLast ? {CPW{1'b0}} : c_tp_q + 1'b1;
      end
      if (wr_go) c_iss_q[wr_idx] <= 1'b1;
      if (c_pop) c_hp_q <= c_hp_q == CLast ? {CPW{1'b0}} : c_hp_q + 1'b1;
      c_cnt_q <= c_cnt_q + {{(CW-1){1'b0}}, c_push_i} - {{(CW-1){1'b0}}, c_pop};
      // ---- write mode
      // Also switch early when the current mode has no row hit to serve and the other has
      // (random reads waiting for their ACTs leave the bus to a batch of writes).
      if (!wmode_q)
        wmode_q <= c_cnt_q >= WrHighC || (c_cnt_q != 0 && rq_cnt_q == 0) ||
                   (c_cnt_q >= WrLowC && !rd_hit && wr_hit);
      else
        wmode_q <= !(c_cnt_q == 0 || (c_cnt_q <= WrLowC && rq_cnt_q != 0) ||
                     (c_cnt_q < WrHighC && !wr_hit && rd_hit));
      // ---- retirement
      if (mk_pop) begin
        done_q      <= 1'b1;
        done_err_q  <= c_err_q[(c_hp_q)*4 +: 4];
        done_rows_q <= c_rows_q[(c_hp_q)*24 +: 24];
      end else if (done_q && done_ready_i) begin
        done_q <= 1'b0;
      end
      dfi_cmd_q <= cmd_d;
    end
  end

  always @(posedge clk_i) begin
    if (c_push_i) c_data_q[c_tp_q] <= c_data_i;
    dfi_wrdata_q <= c_data_q[wr_idx];
  end

  assign dfi_cmd_o    = dfi_cmd_q;
  assign dfi_wrdata_o = dfi_wrdata_q;
  assign done_valid_o = done_q;
  assign done_err_o   = done_err_q;
  assign done_rows_o  = done_rows_q;
  assign wmode_o      = wmode_q;
  assign busy_o       = rq_cnt_q != 0 || c_cnt_q != 0 || tag_valid;

`ifndef SYNTHESIS
  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (rd_go && !tag_rdy) begin
        $display("%m: ERROR at %0t: read tag FIFO overflow", $time);
        $stop;
      end
      if (dfi_rddata_valid_i && !tag_valid) begin
        $display("%m: ERROR at %0t: read data without a read", $time);
        $stop;
      end
      if ((rq_push_i && rq_full_o) || (c_push_i && c_full_o)) begin
        $display("%m: ERROR at %0t: push into a full queue", $time);
        $stop;
      end
    end
  end
`endif
endmodule
`default_nettype wire
