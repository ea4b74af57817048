`default_nettype none
`include "cc_param_check.vh"
// softermax_fp16_op -- one IEEE binary16 operation of the fp16 baseline, combinational:
//   y = a op b, round to nearest even.
//
// Purpose: the fp16 baseline's units (softermax_fp16_unnormed, _norm, _tree) use the library's
//   IEEE units (rtl/common/fp_*) as plain combinational operators: Latency 0 inside the units'
//   own stage registers, the stream handshake tied off, round to nearest even, flags unused
//   (the softmax ignores them). This wrapper is that one instantiation, for every operator:
//     Op = 0  max   fp_cmp MAX (IEEE maximumNumber: a NaN operand gives the other, -0 < +0)
//     Op = 1  a + b fp_add
//     Op = 2  a - b fp_add (sub_i)
//     Op = 3  a * b fp_mul
//     Op = 4  a / b fp_divsqrt (division, unrolled: Iterative = 0)
// Parameters:
//   Op  the operation, 0..4 (above)
module softermax_fp16_op #(
  parameter integer Op = 1
) (
  input  wire [15:0] a_i,
  input  wire [15:0] b_i,
  output wire [15:0] y_o
);
  `include "smx_consts.vh"

  localparam integer OpMax = 0, OpAdd = 1, OpSub = 2, OpMul = 3, OpDiv = 4;
  localparam [2:0]   FpRne    = 3'd0;  // FP_RNE of cmodel/include/fpref.h
  localparam [2:0]   FpCmpMax = 3'd4;  // fp_cmp's op_i for MAX

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Op < OpMax || Op > OpDiv) begin : gen_check_op
      `CC_PARAM_FAIL(softermax_fp16_op__Op_must_be_0_to_4)
    end
  endgenerate

  wire       unused_rdy, unused_vld;  // the tied-off handshake
  wire [4:0] unused_flags;
  generate
    if (Op == OpMax) begin : gen_max
      fp_cmp #(.ExpW(Smx16ExpBits), .ManW(Smx16ManBits), .Latency(0)) u_op (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (a_i),
        .b_i        (b_i),
        .op_i       (FpCmpMax),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (y_o),
        .flags_o    (unused_flags)
      );
    end else if (Op == OpAdd || Op == OpSub) begin : gen_add
      fp_add #(.ExpW(Smx16ExpBits), .ManW(Smx16ManBits), .Latency(0)) u_op (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (a_i),
        .b_i        (b_i),
        .sub_i      (Op == OpSub),
        .rm_i       (FpRne),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (y_o),
        .flags_o    (unused_flags)
      );
    end else if (Op == OpMul) begin : gen_mul
      fp_mul #(.ExpW(Smx16ExpBits), .ManW(Smx16ManBits), .Latency(0)) u_op (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (a_i),
        .b_i        (b_i),
        .rm_i       (FpRne),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (y_o),
        .flags_o    (unused_flags)
      );
    end else begin : gen_div
      fp_divsqrt #(.ExpW(Smx16ExpBits), .ManW(Smx16ManBits), .Iterative(0), .Latency(0)) u_op (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (a_i),
        .b_i        (b_i),
        .op_i       (1'b0),
        .rm_i       (FpRne),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (y_o),
        .flags_o    (unused_flags)
      );
    end
  endgenerate
endmodule
`default_nettype wire
