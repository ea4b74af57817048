`default_nettype none
`include "cc_param_check.vh"
// manna -- MANNA DiffMem tiles: eMAC units, banked double-buffered scratchpads, DMAT transpose unit, SFU, H-tree reduce/broadcast.
//
// Purpose: scaffold made by scripts/new_block.py -- a registered valid/ready pass-through
//   (cc_skid_buffer) standing in for the block until its design replaces it. The C model
//   (cmodel/manna) and the harness (tb/manna) check it bit for bit.
// Parameters:
//   Width  data width in bits (1..64)
module manna #(
  parameter integer Width = 32
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [Width-1:0] in_data_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [Width-1:0] out_data_o
);
  // Parameter check at elaboration (rtl/common/cc_param_check.vh): an illegal value stops all
  // three tools (Verilator, Icarus, Yosys) with the rule as the message.
  if (Width < 1 || Width > 64) begin : gen_check_width
    `CC_PARAM_FAIL(manna__Width_must_be_1_to_64)
  end

  cc_hold_check #(.Width(Width)) u_in_hold (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   (in_data_i),
    .release_i(1'b0)
  );

  cc_skid_buffer #(.Width(Width)) u_buf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .in_data_i  (in_data_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o (out_data_o)
  );
endmodule
`default_nettype wire
