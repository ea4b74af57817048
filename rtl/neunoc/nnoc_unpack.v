////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_unpack.v
//
// Purpose:   Zero-flit unpacking at the mesh-to-ring boundary: a PP flit (type 2'b11) whose
//            payload counts n zero words leaves as n body flits with a zero word, one per cycle;
//            every other flit passes unchanged. A PP flit with n = 0 (never made by nnoc_pack)
//            is consumed with no output.
//
//            Contract: valid/ready streams; the PP flit is taken from the input together with
//            the last zero body it stands for.
//
// Parameters:
//   FlitW, CntW   as nnoc_pack
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_unpack #(
  parameter integer FlitW = 24,
  parameter integer CntW  = 4
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [FlitW-1:0] in_flit_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [FlitW-1:0] out_flit_o
);

  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocBody = 2'd0, NnocPp = 2'd3;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (CntW < 1 || CntW > FlitW - NnocTypeBits) begin : gen_check_cnt_w
      `CC_PARAM_FAIL(nnoc_unpack__CntW_must_be_1_to_FlitW_minus_2)
    end
  endgenerate

  reg  [CntW-1:0] done_q;  // zero bodies of the current PP flit already sent
  wire            is_pp  = in_flit_i[FlitW-1 -: NnocTypeBits] == NnocPp;
  wire [CntW-1:0] n      = in_flit_i[CntW-1:0];
  wire            empty  = is_pp && n == {CntW{1'b0}};
  wire            last0  = done_q + 1'b1 == n;   // this zero body is the PP flit's last

  assign out_valid_o = in_valid_i && !empty;
  assign out_flit_o  = is_pp ? {NnocBody, {(FlitW-NnocTypeBits){1'b0}}} : in_flit_i;  // word 0
  assign in_ready_o  = empty || (out_ready_i && (!is_pp || last0));

  // Simulation-only check of the producer's side of the input stream.
  cc_hold_check #(.Width(FlitW)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   (in_flit_i),
    .release_i(1'b0)
  );

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q <= {CntW{1'b0}};
    end else if (in_valid_i && is_pp && !empty && out_ready_i) begin
      done_q <= last0 ? {CntW{1'b0}} : done_q + 1'b1;
    end
  end

endmodule
