////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnnerator.v
//
// Purpose:   GNNerator Dense Engine (docs/gnnerator.md): an R x C fp32 systolic array with the
//            dataflow (output-, weight- or input-stationary) chosen per MATMUL instruction;
//            double-buffered input, weight and output buffers; the activation unit on the output
//            path; output to DRAM (STORE) or back to the input buffer (COPY).
//
//            Instructions (128 bits, cmodel/include/gnnerator.h) enter through a FIFO, are decoded
//            (gnn_dec) into a head register and issue in order, one a cycle, to three units: LD
//            (gnn_ld: LOAD), ST (gnn_st: STORE) and EX (gnn_ex: MATMUL, MADD, ACT, COPY, and the
//            OS drain DR). The head waits while its unit is busy, while another unit in flight
//            uses one of its buffer banks, or (LOAD against STORE) while their DRAM ranges
//            overlap; so loads of the next tile and stores of the last result overlap the
//            array. Every instruction gives one status beat when it issues (0 or its error code;
//            an instruction with an error is dropped). idle_o: nothing queued or in flight.
//
//            With Gpes > 0 the Graph Engine (gnn_graph) joins: GLOAD, GSTORE, GFILL and GRUN
//            issue in the same order to its units GLD, GST and GEX under the same rules (their
//            banks: EDGE, IF, MF), so the issue logic is the GNNerator Controller: a graph load
//            of features waits for the dense STOREs of them (dense first), a dense LOAD of
//            aggregated features for their GSTORE (graph first); two store units never write
//            overlapping DRAM ranges at once. bad_edges_o counts the GRUNs' bad edges,
//            gex_cycles_o the cycles GEX was busy (the model's GRUN TIMING, checked by the
//            harness on every run).
//
//            Memory port: one request a cycle (read or write) of up to Pw contiguous words at a
//            word address; read data come back in order (fixed latency in the harness model) and
//            are always taken. LD, ST, GLD and GST share the port round-robin (cc_rr_arbiter); a
//            granted request is held until taken; a FIFO of owners routes the read data.
//
// Parameters:
//   Rows, Cols                 systolic array R x C (paper: 64 x 64); a line is max(R, C) words
//   InDepth, WtDepth, OutDepth lines per bank of each buffer (paper: 4096 lines of 64 words =
//                              1 MiB a bank, 2 MiB a buffer, 6 MiB in all)
//   AddrW                      DRAM word-address bits (4..32)
//   QDepth                     instruction FIFO entries
//   LdTags                     reads in flight at most (full speed needs >= the memory latency)
//   Gpes                       Graph Engine GPEs: 0 (none: a Dense Engine alone) or a power of
//                              two up to 32 (paper: 32)
//   Lanes                      lanes of a GPE (a power of two; paper 32)
//   Sfus                       units of the Graph Engine's shared SFU pool, each of Lanes lanes
//                              (1..Gpes; the paper configuration's: 8)
//   EdgeDepth, IfDepth, MfDepth  entries / lines per bank of each GPE's EDGE, IF and MF memory
//                              (paper: 32768, 1024, 1024: 24 MiB in all)
//   Pw (derived)               port words: max(Lw, Lanes) with a Graph Engine, else Lw
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module gnnerator #(
  parameter integer Rows     = 4,
  parameter integer Cols     = 4,
  parameter integer InDepth  = 64,
  parameter integer WtDepth  = 64,
  parameter integer OutDepth = 64,
  parameter integer AddrW    = 20,
  parameter integer QDepth   = 4,
  parameter integer LdTags   = 128,
  parameter integer Gpes     = 0,
  parameter integer Lanes    = 4,
  parameter integer Sfus     = 1,
  parameter integer EdgeDepth = 64,
  parameter integer IfDepth  = 64,
  parameter integer MfDepth  = 64
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  // instructions
  input  wire             insn_valid_i,
  output wire             insn_ready_o,
  input  wire [127:0]     insn_data_i,
  // one status beat per instruction, in order (no back-pressure)
  output wire             status_valid_o,
  output wire [2:0]       status_err_o,
  output wire             idle_o,
  output wire [31:0]      bad_edges_o,
  output wire [31:0]      gex_cycles_o,   // cycles GEX has been busy (GRUN, GFILL); wraps
  // memory port
  output wire             mem_req_valid_o,
  input  wire             mem_req_ready_i,
  output wire             mem_req_we_o,
  output wire [AddrW-1:0] mem_req_addr_o,
  output wire [7:0]       mem_req_words_o,
  output wire [(((Gpes > 0) && (Lanes > ((Rows > Cols) ? Rows : Cols))) ? Lanes :
                ((Rows > Cols) ? Rows : Cols))*32-1:0] mem_req_wdata_o,
  input  wire             mem_rsp_valid_i,
  input  wire [(((Gpes > 0) && (Lanes > ((Rows > Cols) ? Rows : Cols))) ? Lanes :
                ((Rows > Cols) ? Rows : Cols))*32-1:0] mem_rsp_data_i
);

  // ---------------------------------------------------------------- parameter checks
  generate
    if (Rows < 1 || Rows > 64) begin : gen_check_rows
      `CC_PARAM_FAIL(gnnerator__Rows_must_be_1_to_64)
    end
    if (Cols < 1 || Cols > 64) begin : gen_check_cols
      `CC_PARAM_FAIL(gnnerator__Cols_must_be_1_to_64)
    end
    if (InDepth < 1 || InDepth > 32768 || WtDepth < 1 || WtDepth > 32768 ||
        OutDepth < 1 || OutDepth > 32768) begin : gen_check_depth
      `CC_PARAM_FAIL(gnnerator__Depths_must_be_1_to_32768)
    end
    if (AddrW < 4 || AddrW > 32) begin : gen_check_addr_w
      `CC_PARAM_FAIL(gnnerator__AddrW_must_be_4_to_32)
    end
    if (QDepth < 1) begin : gen_check_qdepth
      `CC_PARAM_FAIL(gnnerator__QDepth_must_be_at_least_1)
    end
    if (LdTags < 2) begin : gen_check_ld_tags
      `CC_PARAM_FAIL(gnnerator__LdTags_must_be_at_least_2)
    end
    if (Gpes != 0 && Gpes != 1 && Gpes != 2 && Gpes != 4 && Gpes != 8 && Gpes != 16 &&
        Gpes != 32) begin : gen_check_gpes
      `CC_PARAM_FAIL(gnnerator__Gpes_must_be_0_or_a_power_of_two_up_to_32)
    end
    if (Gpes > 0 && (Lanes < 1 || Lanes > 64 || (Lanes & (Lanes - 1)) != 0)) begin : gen_check_lanes
      `CC_PARAM_FAIL(gnnerator__Lanes_must_be_a_power_of_two_up_to_64)
    end
    if (Gpes > 0 && (EdgeDepth < 1 || EdgeDepth > 32768 || IfDepth < 1 || IfDepth > 32768 ||
                     MfDepth < 1 || MfDepth > 32768)) begin : gen_check_gdepth
      `CC_PARAM_FAIL(gnnerator__Graph_depths_must_be_1_to_32768)
    end
    if (Gpes > 0 && (Sfus < 1 || Sfus > Gpes)) begin : gen_check_sfus
      `CC_PARAM_FAIL(gnnerator__Sfus_must_be_1_to_Gpes)
    end
    if (Gpes > ((Lanes > ((Rows > Cols) ? Rows : Cols)) ? Lanes : ((Rows > Cols) ? Rows : Cols)))
    begin : gen_check_pw
      `CC_PARAM_FAIL(gnnerator__Gpes_must_not_exceed_the_port_words)
    end
  endgenerate

  localparam integer Lw = (Rows > Cols) ? Rows : Cols;   // words a line
  localparam integer Pw = ((Gpes > 0) && (Lanes > Lw)) ? Lanes : Lw;  // words of the port
  localparam [2:0] UnitLd = 3'd0, UnitSt = 3'd1, UnitEx = 3'd2, UnitGld = 3'd3, UnitGst = 3'd4,
                   UnitGex = 3'd5;
  localparam [3:0] OpMatmul = 4'd3;

  // ---------------------------------------------------------------- instruction FIFO
  wire         q_valid;
  wire [127:0] q_data;
  wire         q_pop;
  wire [$clog2(QDepth+1)-1:0] unused_q_count;
  cc_fifo #(.Width(128), .Depth(QDepth), .FallThrough(0)) u_queue (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (insn_valid_i),
    .in_ready_o (insn_ready_o),
    .in_data_i  (insn_data_i),
    .out_valid_o(q_valid),
    .out_ready_i(q_pop),
    .out_data_o (q_data),
    .count_o    (unused_q_count)
  );

  // ---------------------------------------------------------------- decode into the head
  wire [2:0]       dd_err;
  wire [1:0]       dd_unit;
  wire [5:0]       dd_banks;
  wire [AddrW:0]   dd_lo, dd_hi;
  gnn_dec #(.Rows(Rows), .Cols(Cols), .InDepth(InDepth), .WtDepth(WtDepth), .OutDepth(OutDepth),
            .AddrW(AddrW)) u_dec (
    .insn_i   (q_data),
    .err_o    (dd_err),
    .unit_o   (dd_unit),
    .banks_o  (dd_banks),
    .dram_lo_o(dd_lo),
    .dram_hi_o(dd_hi)
  );
  // graph opcodes 8..11 (without a Graph Engine gnn_dec calls them OPCODE errors)
  wire [2:0]       gd_err, gd_unit;
  wire [11:0]      gd_banks;
  wire [AddrW:0]   gd_lo, gd_hi;
  wire             is_g = (Gpes > 0) && (q_data[3:2] == 2'b10);
  generate
    if (Gpes > 0) begin : gen_gdec
      gnn_gdec #(.Gpes(Gpes), .Lanes(Lanes), .EdgeDepth(EdgeDepth), .IfDepth(IfDepth),
                 .MfDepth(MfDepth), .AddrW(AddrW)) u_gdec (
        .insn_i   (q_data),
        .err_o    (gd_err),
        .unit_o   (gd_unit),
        .banks_o  (gd_banks),
        .dram_lo_o(gd_lo),
        .dram_hi_o(gd_hi)
      );
    end else begin : gen_no_gdec
      assign gd_err = 3'd0;
      assign gd_unit = 3'd0;
      assign gd_banks = 12'd0;
      assign gd_lo = {(AddrW+1){1'b0}};
      assign gd_hi = {(AddrW+1){1'b0}};
    end
  endgenerate
  wire [2:0]       d_err   = is_g ? gd_err : dd_err;
  wire [2:0]       d_unit  = is_g ? gd_unit : {1'b0, dd_unit};
  wire [11:0]      d_banks = is_g ? gd_banks : {6'd0, dd_banks};
  wire [AddrW:0]   d_lo    = is_g ? gd_lo : dd_lo;
  wire [AddrW:0]   d_hi    = is_g ? gd_hi : dd_hi;

  reg          h_v_q;
  reg [127:0]  h_insn_q;
  reg [2:0]    h_err_q;
  reg [2:0]    h_unit_q;
  reg [11:0]   h_banks_q;
  reg [AddrW:0] h_lo_q, h_hi_q;
  wire         issue;
  assign q_pop = q_valid && (!h_v_q || issue);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    h_v_q <= 1'b0;
    else if (q_pop) h_v_q <= 1'b1;
    else if (issue) h_v_q <= 1'b0;
  end
  always @(posedge clk_i) begin
    if (q_pop) begin
      h_insn_q  <= q_data;
      h_err_q   <= d_err;
      h_unit_q  <= d_unit;
      h_banks_q <= d_banks;
      h_lo_q    <= d_lo;
      h_hi_q    <= d_hi;
    end
  end

  // ---------------------------------------------------------------- units in flight
  wire ld_busy, st_busy, ex_busy, ex_last, dr_inflight, dr_busy;
  wire gld_busy, gst_busy, gex_busy;
  wire [5:0]  ld_pend;
  wire [11:0] gld_pend;
  wire [1:0]  dr_banks;
  reg  [5:0]  ld_banks_q, st_banks_q, ex_banks_q;
  reg  [11:0] gld_banks_q, gst_banks_q, gex_banks_q;
  reg  [AddrW:0] ld_lo_q, ld_hi_q, st_lo_q, st_hi_q, gld_lo_q, gld_hi_q, gst_lo_q, gst_hi_q;

  wire ex_inflight = ex_busy && !ex_last;
  wire h_ok    = (h_err_q == 3'd0);
  wire h_os_mm = (h_insn_q[3:0] == OpMatmul) && (h_insn_q[5:4] == 2'd0);
  wire [11:0] ex_use  = {6'd0, ex_inflight ? ex_banks_q : 6'd0};
  wire [11:0] ld_use  = {6'd0, (ld_busy ? ld_banks_q : 6'd0) | ld_pend};
  wire [11:0] st_use  = {6'd0, st_busy ? st_banks_q : 6'd0};
  wire [11:0] dr_use  = {6'd0, dr_inflight ? {dr_banks, 4'b0000} : 6'd0};
  wire [11:0] gld_use = (gld_busy ? gld_banks_q : 12'd0) | gld_pend;
  wire [11:0] gst_use = gst_busy ? gst_banks_q : 12'd0;
  wire [11:0] gex_use = gex_busy ? gex_banks_q : 12'd0;
  // the head's DRAM range against a unit's in flight
  wire ov_st  = st_busy && (h_lo_q < st_hi_q) && (st_lo_q < h_hi_q);
  wire ov_ld  = ld_busy && (h_lo_q < ld_hi_q) && (ld_lo_q < h_hi_q);
  wire ov_gst = gst_busy && (h_lo_q < gst_hi_q) && (gst_lo_q < h_hi_q);
  wire ov_gld = gld_busy && (h_lo_q < gld_hi_q) && (gld_lo_q < h_hi_q);

  // banks the other units in flight use, per unit of the head (a unit never waits for itself:
  // a LOAD may follow a LOAD whose data are still arriving, both written in order)
  wire [11:0] dense_use  = ex_use | dr_use;
  wire [11:0] graph_use  = gld_use | gst_use | gex_use;
  wire [11:0] not_ld     = st_use | dense_use | graph_use;
  wire [11:0] not_st     = ld_use | dense_use | graph_use;
  wire [11:0] not_gld    = ld_use | st_use | dense_use | gst_use | gex_use;
  wire [11:0] not_gst    = ld_use | st_use | dense_use | gld_use | gex_use;
  wire [11:0] not_gex    = ld_use | st_use | dense_use | gld_use | gst_use;
  wire [11:0] not_ex     = ld_use | st_use | graph_use;

  reg can_go;
  always @(*) begin
    case (h_unit_q)
      UnitLd:  can_go = !ld_busy && !ov_st && !ov_gst && ((h_banks_q & not_ld) == 12'd0);
      UnitSt:  can_go = !st_busy && !ov_ld && !ov_gld && !ov_gst &&
                        ((h_banks_q & not_st) == 12'd0);
      UnitGld: can_go = !gld_busy && !ov_st && !ov_gst && ((h_banks_q & not_gld) == 12'd0);
      UnitGst: can_go = !gst_busy && !ov_ld && !ov_gld && !ov_st &&
                        ((h_banks_q & not_gst) == 12'd0);
      UnitGex: can_go = !gex_busy && ((h_banks_q & not_gex) == 12'd0);
      default: can_go = (!ex_busy || ex_last) && (h_os_mm || !dr_inflight) &&
                        ((h_banks_q & not_ex) == 12'd0);
    endcase
  end
  assign issue = h_v_q && (!h_ok || can_go);
  wire go_ld  = issue && h_ok && (h_unit_q == UnitLd);
  wire go_st  = issue && h_ok && (h_unit_q == UnitSt);
  wire go_ex  = issue && h_ok && (h_unit_q == UnitEx);
  wire go_gld = issue && h_ok && (h_unit_q == UnitGld);
  wire go_gst = issue && h_ok && (h_unit_q == UnitGst);
  wire go_gex = issue && h_ok && (h_unit_q == UnitGex);

  always @(posedge clk_i) begin
    if (go_ld) begin ld_banks_q <= h_banks_q[5:0]; ld_lo_q <= h_lo_q; ld_hi_q <= h_hi_q; end
    if (go_st) begin st_banks_q <= h_banks_q[5:0]; st_lo_q <= h_lo_q; st_hi_q <= h_hi_q; end
    if (go_ex) ex_banks_q <= h_banks_q[5:0];
    if (go_gld) begin gld_banks_q <= h_banks_q; gld_lo_q <= h_lo_q; gld_hi_q <= h_hi_q; end
    if (go_gst) begin gst_banks_q <= h_banks_q; gst_lo_q <= h_lo_q; gst_hi_q <= h_hi_q; end
    if (go_gex) gex_banks_q <= h_banks_q;
  end

  assign status_valid_o = issue;
  assign status_err_o   = h_err_q;
  assign idle_o = !q_valid && !h_v_q && !ld_busy && (ld_pend == 6'd0) && !st_busy && !ex_busy &&
                  !dr_busy && !gld_busy && (gld_pend == 12'd0) && !gst_busy && !gex_busy;

  // ---------------------------------------------------------------- units
  wire             ld_req_v, ld_req_rdy, ld_we, ld_rsp_v;
  wire [AddrW-1:0] ld_req_addr;
  wire [7:0]       ld_req_words;
  wire [1:0]       ld_wbuf;
  wire [15:0]      ld_waddr;
  wire [Lw*32-1:0] ld_wdata;
  gnn_ld #(.Lw(Lw), .AddrW(AddrW), .Tags(LdTags)) u_ld (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (go_ld),
    .bank_i     (h_banks_q[5:0]),
    .line_i     (h_insn_q[31:16]),
    .n_i        (h_insn_q[47:32]),
    .w_i        (h_insn_q[15:8]),
    .addr_i     (h_insn_q[48 +: AddrW]),
    .stride_i   (h_insn_q[80 +: AddrW]),
    .busy_o     (ld_busy),
    .pend_banks_o(ld_pend),
    .req_valid_o(ld_req_v),
    .req_ready_i(ld_req_rdy),
    .req_addr_o (ld_req_addr),
    .req_words_o(ld_req_words),
    .rsp_valid_i(ld_rsp_v),
    .rsp_data_i (mem_rsp_data_i[Lw*32-1:0]),
    .we_o       (ld_we),
    .wbuf_o     (ld_wbuf),
    .waddr_o    (ld_waddr),
    .wdata_o    (ld_wdata)
  );

  wire             st_re, st_req_v, st_req_rdy;
  wire [15:0]      st_raddr;
  wire [Lw*32-1:0] st_rdata, st_req_data;
  wire [AddrW-1:0] st_req_addr;
  wire [7:0]       st_req_words;
  gnn_st #(.Lw(Lw), .AddrW(AddrW)) u_st (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (go_st),
    .line_i     (h_insn_q[31:16]),
    .n_i        (h_insn_q[47:32]),
    .w_i        (h_insn_q[15:8]),
    .addr_i     (h_insn_q[48 +: AddrW]),
    .stride_i   (h_insn_q[80 +: AddrW]),
    .busy_o     (st_busy),
    .re_o       (st_re),
    .raddr_o    (st_raddr),
    .rdata_i    (st_rdata),
    .req_valid_o(st_req_v),
    .req_ready_i(st_req_rdy),
    .req_addr_o (st_req_addr),
    .req_words_o(st_req_words),
    .req_data_o (st_req_data)
  );

  wire             ex_in_re, ex_wt_re, ex_out_re, ex_in_we, ex_out_we;
  wire [15:0]      ex_in_raddr, ex_wt_raddr, ex_out_raddr, ex_in_waddr, ex_out_waddr;
  wire [Lw*32-1:0] ex_in_rdata, ex_wt_rdata, ex_out_rdata, ex_in_wdata, ex_out_wdata;
  gnn_ex #(.Rows(Rows), .Cols(Cols), .Lw(Lw), .OutDepth(OutDepth)) u_ex (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (go_ex),
    .insn_i       (h_insn_q),
    .busy_o       (ex_busy),
    .last_o       (ex_last),
    .dr_inflight_o(dr_inflight),
    .dr_banks_o   (dr_banks),
    .dr_busy_o    (dr_busy),
    .in_re_o      (ex_in_re),
    .in_raddr_o   (ex_in_raddr),
    .in_rdata_i   (ex_in_rdata),
    .in_we_o      (ex_in_we),
    .in_waddr_o   (ex_in_waddr),
    .in_wdata_o   (ex_in_wdata),
    .wt_re_o      (ex_wt_re),
    .wt_raddr_o   (ex_wt_raddr),
    .wt_rdata_i   (ex_wt_rdata),
    .out_re_o     (ex_out_re),
    .out_raddr_o  (ex_out_raddr),
    .out_rdata_i  (ex_out_rdata),
    .out_we_o     (ex_out_we),
    .out_waddr_o  (ex_out_waddr),
    .out_wdata_o  (ex_out_wdata)
  );

  // ---------------------------------------------------------------- buffers
  wire [Lw*32-1:0] unused_in_r1, unused_wt_r1;
  gnn_buf #(.Depth(InDepth), .Lw(Lw)) u_in_buf (
    .clk_i(clk_i),
    .r0_en_i(ex_in_re), .r0_addr_i(ex_in_raddr), .r0_data_o(ex_in_rdata),
    .r1_en_i(1'b0), .r1_addr_i(16'd0), .r1_data_o(unused_in_r1),
    .w0_en_i(ld_we && ld_wbuf == 2'd0), .w0_addr_i(ld_waddr), .w0_data_i(ld_wdata),
    .w1_en_i(ex_in_we), .w1_addr_i(ex_in_waddr), .w1_data_i(ex_in_wdata)
  );
  gnn_buf #(.Depth(WtDepth), .Lw(Lw)) u_wt_buf (
    .clk_i(clk_i),
    .r0_en_i(ex_wt_re), .r0_addr_i(ex_wt_raddr), .r0_data_o(ex_wt_rdata),
    .r1_en_i(1'b0), .r1_addr_i(16'd0), .r1_data_o(unused_wt_r1),
    .w0_en_i(ld_we && ld_wbuf == 2'd1), .w0_addr_i(ld_waddr), .w0_data_i(ld_wdata),
    .w1_en_i(1'b0), .w1_addr_i(16'd0), .w1_data_i({Lw*32{1'b0}})
  );
  gnn_buf #(.Depth(OutDepth), .Lw(Lw)) u_out_buf (
    .clk_i(clk_i),
    .r0_en_i(ex_out_re), .r0_addr_i(ex_out_raddr), .r0_data_o(ex_out_rdata),
    .r1_en_i(st_re), .r1_addr_i(st_raddr), .r1_data_o(st_rdata),
    .w0_en_i(ld_we && ld_wbuf == 2'd2), .w0_addr_i(ld_waddr), .w0_data_i(ld_wdata),
    .w1_en_i(ex_out_we), .w1_addr_i(ex_out_waddr), .w1_data_i(ex_out_wdata)
  );

  // ---------------------------------------------------------------- Graph Engine
  wire             gld_req_v, gld_req_rdy, gst_req_v, gst_req_rdy, gld_rsp_v;
  wire [AddrW-1:0] gld_req_addr, gst_req_addr;
  wire [7:0]       gld_req_words, gst_req_words;
  wire [Pw*32-1:0] gst_req_data;
  generate
    if (Gpes > 0) begin : gen_graph
      gnn_graph #(.Gpes(Gpes), .Lanes(Lanes), .Sfus(Sfus), .EdgeDepth(EdgeDepth), .IfDepth(IfDepth),
                  .MfDepth(MfDepth), .Pw(Pw), .AddrW(AddrW), .Tags(LdTags)) u_graph (
        .clk_i         (clk_i),
        .rst_ni        (rst_ni),
        .insn_i        (h_insn_q),
        .banks_i       (h_banks_q),
        .go_gld_i      (go_gld),
        .go_gst_i      (go_gst),
        .go_gex_i      (go_gex),
        .gld_busy_o    (gld_busy),
        .gld_pend_o    (gld_pend),
        .gst_busy_o    (gst_busy),
        .gex_busy_o    (gex_busy),
        .bad_edges_o   (bad_edges_o),
        .ld_req_valid_o(gld_req_v),
        .ld_req_ready_i(gld_req_rdy),
        .ld_req_addr_o (gld_req_addr),
        .ld_req_words_o(gld_req_words),
        .ld_rsp_valid_i(gld_rsp_v),
        .ld_rsp_data_i (mem_rsp_data_i),
        .st_req_valid_o(gst_req_v),
        .st_req_ready_i(gst_req_rdy),
        .st_req_addr_o (gst_req_addr),
        .st_req_words_o(gst_req_words),
        .st_req_data_o (gst_req_data)
      );
    end else begin : gen_no_graph
      assign gld_busy = 1'b0;
      assign gld_pend = 12'd0;
      assign gst_busy = 1'b0;
      assign gex_busy = 1'b0;
      assign bad_edges_o = 32'd0;
      assign gld_req_v = 1'b0;
      assign gld_req_addr = {AddrW{1'b0}};
      assign gld_req_words = 8'd0;
      assign gst_req_v = 1'b0;
      assign gst_req_addr = {AddrW{1'b0}};
      assign gst_req_words = 8'd0;
      assign gst_req_data = {Pw*32{1'b0}};
      wire unused_g = ^{gld_req_rdy, gst_req_rdy, gld_rsp_v, go_gld, go_gst, go_gex,
                        gld_banks_q, gst_banks_q, gex_banks_q, gld_lo_q, gld_hi_q, gst_lo_q,
                        gst_hi_q, gd_err, gd_unit, gd_banks, gd_lo, gd_hi};
    end
  endgenerate

  reg [31:0] gex_cyc_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)       gex_cyc_q <= 32'd0;
    else if (gex_busy) gex_cyc_q <= gex_cyc_q + 32'd1;
  end
  assign gex_cycles_o = gex_cyc_q;

  // ---------------------------------------------------------------- memory port arbiter
  // Round-robin over LD, ST, GLD, GST (cc_rr_arbiter: the grant holds until taken). With the
  // Dense Engine alone it alternates LD and ST as before the Graph Engine joined.
  wire [3:0] arb_req = {gst_req_v, gld_req_v, st_req_v, ld_req_v};
  wire [3:0] arb_gnt;
  wire [1:0] unused_arb_idx;
  wire       unused_arb_valid;
  wire       fire = mem_req_valid_o && mem_req_ready_i;
  cc_rr_arbiter #(.N(4)) u_arb (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (arb_req),
    .ack_i      (fire),
    .gnt_o      (arb_gnt),
    .gnt_idx_o  (unused_arb_idx),
    .gnt_valid_o(unused_arb_valid)
  );
  wire [Pw*32-1:0] st_data_pw;
  generate
    if (Pw > Lw) begin : gen_st_pad
      assign st_data_pw = {{(Pw-Lw)*32{1'b0}}, st_req_data};
    end else begin : gen_st_nopad
      assign st_data_pw = st_req_data;
    end
  endgenerate
  assign mem_req_valid_o = |arb_req;
  assign mem_req_we_o    = arb_gnt[1] | arb_gnt[3];
  assign mem_req_addr_o  = arb_gnt[3] ? gst_req_addr : arb_gnt[2] ? gld_req_addr :
                           arb_gnt[1] ? st_req_addr : ld_req_addr;
  assign mem_req_words_o = arb_gnt[3] ? gst_req_words : arb_gnt[2] ? gld_req_words :
                           arb_gnt[1] ? st_req_words : ld_req_words;
  // write data only with a write granted (zero for a read): the whole request holds while it
  // waits, as the hold check below asserts
  assign mem_req_wdata_o = arb_gnt[3] ? gst_req_data : arb_gnt[1] ? st_data_pw : {Pw*32{1'b0}};
  assign ld_req_rdy      = mem_req_ready_i && arb_gnt[0];
  assign st_req_rdy      = mem_req_ready_i && arb_gnt[1];
  assign gld_req_rdy     = mem_req_ready_i && arb_gnt[2];
  assign gst_req_rdy     = mem_req_ready_i && arb_gnt[3];

  // owner of each read in flight (responses come back in order): 1 GLD, 0 LD
  wire owner, owner_v, unused_owner_rdy;
  wire [$clog2(2*LdTags+1)-1:0] unused_owner_count;
  generate
    if (Gpes > 0) begin : gen_owner
      cc_fifo_sram #(.Width(1), .Depth(2*LdTags)) u_owner (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .clr_i      (1'b0),
        .in_valid_i (fire && !mem_req_we_o),
        .in_ready_o (unused_owner_rdy),   // each reader holds at most LdTags in flight
        .in_data_i  (arb_gnt[2]),
        .out_valid_o(owner_v),
        .out_ready_i(mem_rsp_valid_i),
        .out_data_o (owner),
        .count_o    (unused_owner_count)
      );
    end else begin : gen_no_owner
      assign owner = 1'b0;
      assign owner_v = 1'b1;
      assign unused_owner_rdy = 1'b1;
      assign unused_owner_count = {$clog2(2*LdTags+1){1'b0}};
    end
  endgenerate
  assign ld_rsp_v  = mem_rsp_valid_i && owner_v && !owner;
  assign gld_rsp_v = mem_rsp_valid_i && owner_v && owner;

`ifndef SYNTHESIS
  // handshake hold rule on the memory request (docs/conventions.md)
  cc_hold_check #(.Width(1 + AddrW + 8 + Pw*32)) u_hold_req (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(mem_req_valid_o),
    .ready_i(mem_req_ready_i),
    .data_i ({mem_req_we_o, mem_req_addr_o, mem_req_words_o, mem_req_wdata_o}),
    .release_i(1'b0)
  );
`endif

endmodule

`default_nettype wire
