////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tensordimm.v
//
// Purpose:   TensorNode: N TensorDIMM NMP cores (tensordimm_core), one per DIMM, fed by one
//            broadcast TensorISA instruction stream. Global 64-byte block b lives in DIMM
//            b mod N at local block b / N; every core executes each instruction on its own slice
//            (docs/tensordimm.md).
//
//            Broadcast: an instruction is taken when every core has taken it (each core takes
//            it when it is free; a core that took it early does not see it again). Retirement
//            joins: done_valid_o when every core has retired the instruction; done_err_o is the
//            code of the lowest-numbered core with an error (0 if none), done_mask_o has a bit
//            per core with an error, done_rows_o the rows each core wrote (24 bits per core).
//            Configuration: cfg_valid_i writes register cfg_reg_i (tensordimm_core) of core
//            cfg_core_i, or of every core when cfg_core_i = 8'hFF.
//            Each core has its own DFI 1:4 port to its DIMM (core c in slice c of each bus).
//
// Parameters:
//   N             cores = DIMMs = nodeDim (a power of two, 1..128)
//   LocalAw       log2 of each DIMM's capacity in 64-byte blocks (12..27)
//   Ranks         ranks per DIMM (1, 2, 4)
//   ColLoW        address mapping inside a DIMM (tensordimm_core)
//   Depth         slots of queues A and B;  CDepth entries of queue C
//   RqDepth       controller read-queue entries
//   WrHigh, WrLow write-drain watermarks of queue C
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module tensordimm #(
  parameter integer N       = 1,
  parameter integer LocalAw = 16,
  parameter integer Ranks   = 1,
  parameter integer ColLoW  = 1,
  parameter integer Depth   = 8,
  parameter integer CDepth  = 8,
  parameter integer RqDepth = 16,
  parameter integer WrHigh  = 6,
  parameter integer WrLow   = 2
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              cfg_valid_i,
  input  wire [7:0]        cfg_core_i,
  input  wire [1:0]        cfg_reg_i,
  input  wire [31:0]       cfg_data_i,
  input  wire [2:0]        dbg_fault_i,      // test only: tie to 0
  input  wire              insn_valid_i,
  output wire              insn_ready_o,
  input  wire [159:0]      insn_i,
  output wire              done_valid_o,
  input  wire              done_ready_i,
  output reg  [3:0]        done_err_o,
  output wire [N-1:0]      done_mask_o,
  output wire [24*N-1:0]   done_rows_o,
  output wire [N*104-1:0]  dfi_cmd_o,
  output wire [N*512-1:0]  dfi_wrdata_o,
  input  wire [N-1:0]      dfi_rddata_valid_i,
  input  wire [N*512-1:0]  dfi_rddata_i,
  output wire [N-1:0]      wmode_o,
  output wire              busy_o
);
  localparam integer NdLog2 = $clog2(N);

  generate
    if (N < 1 || N > 128 || (1 << NdLog2) != N) begin : gen_check_n
      `CC_PARAM_FAIL(tensordimm__N_must_be_a_power_of_two_1_to_128)
    end
  endgenerate

  cc_hold_check #(.Width(160)) u_insn_hold (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (insn_valid_i),
    .ready_i  (insn_ready_o),
    .data_i   (insn_i),
    .release_i(1'b0)
  );

  reg  [N-1:0] taken_q;
  wire [N-1:0] c_valid = {N{insn_valid_i}} & ~taken_q;
  wire [N-1:0] c_ready, c_done, c_busy;
  wire [4*N-1:0] c_err;
  assign insn_ready_o = &(taken_q | c_ready);
  assign done_valid_o = &c_done;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) taken_q <= {N{1'b0}};
    else if (insn_valid_i && insn_ready_o) taken_q <= {N{1'b0}};
    else taken_q <= taken_q | (c_valid & c_ready);
  end

  genvar c;
  generate
    for (c = 0; c < N; c = c + 1) begin : gen_core
      wire [6:0] unused_tid;
      tensordimm_core #(
        .LocalAw(LocalAw),
        .Ranks  (Ranks),
        .ColLoW (ColLoW),
        .Depth  (Depth),
        .CDepth (CDepth),
        .RqDepth(RqDepth),
        .WrHigh (WrHigh),
        .WrLow  (WrLow),
        .NdLog2 (NdLog2),
        .CoreId (c)
      ) u_core (
        .clk_i             (clk_i),
        .rst_ni            (rst_ni),
        .cfg_valid_i       (cfg_valid_i && (cfg_core_i == 8'hff || cfg_core_i == c)),
        .cfg_reg_i         (cfg_reg_i),
        .cfg_data_i        (cfg_data_i),
        .tid_o             (unused_tid),
        .dbg_fault_i       (dbg_fault_i),
        .insn_valid_i      (c_valid[c]),
        .insn_ready_o      (c_ready[c]),
        .insn_i            (insn_i),
        .done_valid_o      (c_done[c]),
        .done_ready_i      (done_valid_o && done_ready_i),
        .done_err_o        (c_err[4*c +: 4]),
        .done_rows_o       (done_rows_o[24*c +: 24]),
        .dfi_cmd_o         (dfi_cmd_o[104*c +: 104]),
        .dfi_wrdata_o      (dfi_wrdata_o[512*c +: 512]),
        .dfi_rddata_valid_i(dfi_rddata_valid_i[c]),
        .dfi_rddata_i      (dfi_rddata_i[512*c +: 512]),
        .wmode_o           (wmode_o[c]),
        .busy_o            (c_busy[c])
      );
      assign done_mask_o[c] = c_err[4*c +: 4] != 4'd0;
    end
  endgenerate

  integer k;
  always @* begin
    done_err_o = 4'd0;
    for (k = N - 1; k >= 0; k = k - 1)
      if (c_err[4*k +: 4] != 4'd0) done_err_o = c_err[4*k +: 4];
  end
  assign busy_o = |c_busy || |taken_q;
endmodule
`default_nettype wire
