////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tensordimm_axi.v
//
// Purpose:   The TensorNode (tensordimm) as FPGA IP (docs/axi_shell.md, docs/tensordimm.md
//            "AXI top"): registers over AXI4-Lite (rtl/tensordimm/tensordimm_regs.rdl,
//            docs/regs/tensordimm.md), an instruction FIFO in front of the node's instruction
//            port, a retire FIFO behind its retire port, its configuration port as a register
//            write, one level interrupt. The DRAM is on the DIMMs, not on AXI: every core's DFI
//            1:4 port is a top-level port (core c in slice c), as on tensordimm.
//
//            Instructions: software writes INSN0..INSN4; the write of INSN4 pushes the 160 bits
//            {INSN4, .., INSN0} into the instruction FIFO (IqDepth entries). The push is taken
//            when the write completes (the rising edge of BVALID, after the register file
//            stored INSN4). A write of INSN4 while the FIFO is full (QSTATUS.INSN_FULL) is
//            refused: BRESP is SLVERR, nothing is queued, ERR_CODE 0x10, REFUSED counts it;
//            the INSN registers keep the instruction, so a second write of INSN4 retries it.
//            Retirements: each instruction the node retires enters the retire FIFO (RetDepth
//            entries; the node waits when it is full) as {node error code, error mask of cores
//            0..31, core 0's rows, sequence number}; RET_STATUS/RET_MASK/RET_ROWS show the
//            oldest, RET_POP drops it. ISSUED and RETIRED count pushes and retirements.
//            Configuration: a write of CFG with GO = 1 drives the node's cfg port (CFG.CORE,
//            CFG.REG, CFG_DATA) for one cycle; software writes it only while QSTATUS.IDLE.
//
//            Shell (job interface of tensordimm_csr): STATUS.BUSY while an instruction is
//            queued or in the node; every retirement raises DONE (INTR_STATUS.DONE: the
//            interrupt of a driver waiting for retirements); a retirement with a node error
//            (ERR_CODE 0x01..0x09, its code) or a refused push (0x10) raises ERROR, the first
//            code is kept until CTRL.START (which, with the node idle, clears DONE, ERROR and
//            ERR_CODE; instructions do not need it). CYC_STALL counts cycles in which the node
//            waits on a full retire FIFO; RD_BURSTS counts instructions taken by the node,
//            WR_BURSTS retirements. CTRL.CLEAR zeroes them and REFUSED.
//
// Parameters:
//   N, LocalAw, Ranks, ColLoW, Depth, CDepth, RqDepth, WrHigh, WrLow   as tensordimm
//   IqDepth    instruction FIFO entries (1..127)
//   RetDepth   retire FIFO entries (1..127)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module tensordimm_axi #(
  parameter integer N        = 1,
  parameter integer LocalAw  = 16,
  parameter integer Ranks    = 1,
  parameter integer ColLoW   = 1,
  parameter integer Depth    = 8,
  parameter integer CDepth   = 8,
  parameter integer RqDepth  = 16,
  parameter integer WrHigh   = 6,
  parameter integer WrLow    = 2,
  parameter integer IqDepth  = 4,
  parameter integer RetDepth = 4
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // AXI4-Lite slave: registers
  input  wire              s_axil_awvalid_i,
  output wire              s_axil_awready_o,
  input  wire [7:0]        s_axil_awaddr_i,
  input  wire [2:0]        s_axil_awprot_i,
  input  wire              s_axil_wvalid_i,
  output wire              s_axil_wready_o,
  input  wire [31:0]       s_axil_wdata_i,
  input  wire [3:0]        s_axil_wstrb_i,
  output wire              s_axil_bvalid_o,
  input  wire              s_axil_bready_i,
  output wire [1:0]        s_axil_bresp_o,
  input  wire              s_axil_arvalid_i,
  output wire              s_axil_arready_o,
  input  wire [7:0]        s_axil_araddr_i,
  input  wire [2:0]        s_axil_arprot_i,
  output wire              s_axil_rvalid_o,
  input  wire              s_axil_rready_i,
  output wire [31:0]       s_axil_rdata_o,
  output wire [1:0]        s_axil_rresp_o,
  // DFI 1:4 per core (core c in slice c), to its DIMM
  output wire [N*104-1:0]  dfi_cmd_o,
  output wire [N*512-1:0]  dfi_wrdata_o,
  input  wire [N-1:0]      dfi_rddata_valid_i,
  input  wire [N*512-1:0]  dfi_rddata_i,
  output wire [N-1:0]      wmode_o,
  // interrupt
  output wire              irq_o
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the node's own rules are checked by tensordimm.
  generate
    if (IqDepth < 1 || IqDepth > 127) begin : gen_check_iq
      `CC_PARAM_FAIL(tensordimm_axi__IqDepth_must_be_1_to_127)
    end
    if (RetDepth < 1 || RetDepth > 127) begin : gen_check_ret
      `CC_PARAM_FAIL(tensordimm_axi__RetDepth_must_be_1_to_127)
    end
  endgenerate

  localparam [7:0]  ErrRefused = 8'h10;
  localparam [5:0]  Insn4Word  = 6'h14;            // INSN4 at 0x50
  localparam [1:0]  RespOkay = 2'b00, RespSlvErr = 2'b10;
  localparam integer IqCw  = $clog2(IqDepth + 1);
  localparam integer RetCw = $clog2(RetDepth + 1);
  localparam integer RetW  = 4 + 32 + 24 + 16;      // {seq, rows, mask, err}
  localparam [7:0]  NW = N[7:0], AwW = LocalAw[7:0], IqW = IqDepth[7:0];
  localparam [3:0]  RanksW = Ranks[3:0];

  // ---------------------------------------------------------------- registers
  wire        start, clear, busy, ret_pop, cfg_go;
  wire [31:0] insn_w0, insn_w1, insn_w2, insn_w3, insn_w4, cfg_data;
  wire [7:0]  cfg_core;
  wire [1:0]  cfg_reg, csr_bresp;
  wire        iq_in_ready, iq_valid, node_insn_ready;
  wire [159:0] iq_data;
  wire [IqCw-1:0] iq_count;
  wire        ret_in_ready, ret_valid;
  wire [RetW-1:0] ret_data;
  wire [RetCw-1:0] ret_count;
  wire        done_valid;
  wire [3:0]  done_err;
  wire [N-1:0] done_mask;
  wire [24*N-1:0] done_rows;
  wire        node_busy;
  reg  [31:0] issued_q, retired_q, refused_q;
  reg         aw_insn4_q, bvalid_q, refuse_q;

  wire push_try = s_axil_bvalid_o && !bvalid_q && aw_insn4_q && (csr_bresp == RespOkay);
  wire refuse   = push_try && !iq_in_ready;
  wire push     = push_try && iq_in_ready;
  wire retire   = done_valid && ret_in_ready;
  wire take     = iq_valid && node_insn_ready;
  wire [1:0] bresp_w = (s_axil_bvalid_o && !bvalid_q) ? (refuse ? RespSlvErr : csr_bresp)
                                                    : (refuse_q ? RespSlvErr : csr_bresp);
  assign s_axil_bresp_o = bresp_w;

  tensordimm_csr #(.AddrW(8)) u_csr (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .s_axil_awvalid_i    (s_axil_awvalid_i),
    .s_axil_awready_o    (s_axil_awready_o),
    .s_axil_awaddr_i     (s_axil_awaddr_i),
    .s_axil_awprot_i     (s_axil_awprot_i),
    .s_axil_wvalid_i     (s_axil_wvalid_i),
    .s_axil_wready_o     (s_axil_wready_o),
    .s_axil_wdata_i      (s_axil_wdata_i),
    .s_axil_wstrb_i      (s_axil_wstrb_i),
    .s_axil_bvalid_o     (s_axil_bvalid_o),
    .s_axil_bready_i     (s_axil_bready_i),
    .s_axil_bresp_o      (csr_bresp),
    .s_axil_arvalid_i    (s_axil_arvalid_i),
    .s_axil_arready_o    (s_axil_arready_o),
    .s_axil_araddr_i     (s_axil_araddr_i),
    .s_axil_arprot_i     (s_axil_arprot_i),
    .s_axil_rvalid_o     (s_axil_rvalid_o),
    .s_axil_rready_i     (s_axil_rready_i),
    .s_axil_rdata_o      (s_axil_rdata_o),
    .s_axil_rresp_o      (s_axil_rresp_o),
    .job_start_o         (start),
    .job_clear_o         (clear),
    .job_busy_i          (busy),
    .job_stall_i         (done_valid && !ret_in_ready),
    .job_done_i          (retire),
    .job_err_i           (refuse || (retire && done_err != 4'd0)),
    .job_err_code_i      (refuse ? ErrRefused : {4'd0, done_err}),
    .job_err_resp_i      (2'b00),
    .job_rd_burst_i      (take),
    .job_wr_burst_i      (retire),
    .irq_o               (irq_o),
    .insn0_val_o         (insn_w0),
    .insn1_val_o         (insn_w1),
    .insn2_val_o         (insn_w2),
    .insn3_val_o         (insn_w3),
    .insn4_val_o         (insn_w4),
    .qstatus_insn_full_i (!iq_in_ready),
    .qstatus_insn_empty_i(!iq_valid),
    .qstatus_ret_valid_i (ret_valid),
    .qstatus_ret_full_i  (!ret_in_ready),
    .qstatus_idle_i      (!busy && !ret_valid),
    .qstatus_insn_level_i({{(8 - IqCw){1'b0}}, iq_count}),
    .qstatus_ret_level_i ({{(8 - RetCw){1'b0}}, ret_count}),
    .ret_status_err_i    (ret_data[3:0]),
    .ret_status_valid_i  (ret_valid),
    .ret_status_seq_i    (ret_data[75:60]),
    .ret_mask_val_i      (ret_data[35:4]),
    .ret_rows_val_i      (ret_data[59:36]),
    .ret_pop_pop_o       (ret_pop),
    .issued_val_i        (issued_q),
    .retired_val_i       (retired_q),
    .refused_val_i       (refused_q),
    .cfg_data_val_o      (cfg_data),
    .cfg_core_o          (cfg_core),
    .cfg_reg_o           (cfg_reg),
    .cfg_go_o            (cfg_go),
    .hwcfg_n_i           (NW),
    .hwcfg_localaw_i     (AwW),
    .hwcfg_ranks_i       (RanksW),
    .hwcfg_iqdepth_i     (IqW)
  );
  // CTRL.START only clears the status (in tensordimm_csr); instructions run as they come.
  wire unused_start = start;

  // ---------------------------------------------------------------- instruction FIFO
  cc_fifo #(.Width(160), .Depth(IqDepth)) u_iq (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (push),
    .in_ready_o (iq_in_ready),
    .in_data_i  ({insn_w4, insn_w3, insn_w2, insn_w1, insn_w0}),
    .out_valid_o(iq_valid),
    .out_ready_i(node_insn_ready),
    .out_data_o (iq_data),
    .count_o    (iq_count)
  );

  // ---------------------------------------------------------------- the node
  tensordimm #(
    .N(N), .LocalAw(LocalAw), .Ranks(Ranks), .ColLoW(ColLoW), .Depth(Depth), .CDepth(CDepth),
    .RqDepth(RqDepth), .WrHigh(WrHigh), .WrLow(WrLow)
  ) u_node (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .cfg_valid_i       (cfg_go),
    .cfg_core_i        (cfg_core),
    .cfg_reg_i         (cfg_reg),
    .cfg_data_i        (cfg_data),
    .dbg_fault_i       (3'd0),
    .insn_valid_i      (iq_valid),
    .insn_ready_o      (node_insn_ready),
    .insn_i            (iq_data),
    .done_valid_o      (done_valid),
    .done_ready_i      (ret_in_ready),
    .done_err_o        (done_err),
    .done_mask_o       (done_mask),
    .done_rows_o       (done_rows),
    .dfi_cmd_o         (dfi_cmd_o),
    .dfi_wrdata_o      (dfi_wrdata_o),
    .dfi_rddata_valid_i(dfi_rddata_valid_i),
    .dfi_rddata_i      (dfi_rddata_i),
    .wmode_o           (wmode_o),
    .busy_o            (node_busy)
  );
  assign busy = iq_valid || node_busy || done_valid;

  // ---------------------------------------------------------------- retire FIFO
  wire [31:0] mask32;
  generate
    if (N >= 32) begin : gen_mask_wide
      assign mask32 = done_mask[31:0];
      if (N > 32) begin : gen_mask_rest
        wire unused_mask = &{1'b0, done_mask[N-1:32]};
      end
    end else begin : gen_mask_narrow
      assign mask32 = {{(32 - N){1'b0}}, done_mask};
    end
    if (N > 1) begin : gen_rows_rest
      wire unused_rows = &{1'b0, done_rows[24*N-1:24]};
    end
  endgenerate

  cc_fifo #(.Width(RetW), .Depth(RetDepth)) u_ret (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (done_valid),
    .in_ready_o (ret_in_ready),
    .in_data_i  ({retired_q[15:0], done_rows[23:0], mask32, done_err}),
    .out_valid_o(ret_valid),
    .out_ready_i(ret_pop),
    .out_data_o (ret_data),
    .count_o    (ret_count)
  );

  // ---------------------------------------------------------------- push detection, counters
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_insn4_q <= 1'b0;
      bvalid_q   <= 1'b0;
      refuse_q   <= 1'b0;
      issued_q   <= 32'd0;
      retired_q  <= 32'd0;
      refused_q  <= 32'd0;
    end else begin
      // one write at a time: the address of the write whose response comes next
      if (s_axil_awvalid_i && s_axil_awready_o)
        aw_insn4_q <= (s_axil_awaddr_i[7:2] == Insn4Word);
      bvalid_q <= s_axil_bvalid_o;
      if (s_axil_bvalid_o && !bvalid_q) refuse_q <= refuse;
      if (push)   issued_q  <= issued_q + 32'd1;
      if (retire) retired_q <= retired_q + 32'd1;
      if (clear)       refused_q <= 32'd0;
      else if (refuse) refused_q <= refused_q + 32'd1;
    end
  end

endmodule
`default_nettype wire
