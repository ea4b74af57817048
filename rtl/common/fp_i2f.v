////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_i2f.v
//
// Purpose:   32-bit integer to IEEE float: signed_i = 1 reads a_i as two's complement (int32),
//            0 as unsigned (uint32). Correctly rounded in rm_i (only formats narrower than 32
//            significant bits ever round); OF when the value exceeds the format (int32 to fp16
//            above 65519 in RNE), NX when inexact; 0 gives +0. One operation per cycle,
//            Latency cycles (cc_pipe).
//
// Parameters:
//   ExpW, ManW   result format (8/23 fp32, 5/10 fp16, 8/7 bfloat16)
//   Latency      register stages (0 = combinational)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_i2f #(
  parameter integer ExpW    = 8,
  parameter integer ManW    = 23,
  parameter integer Latency = 1
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               in_valid_i,
  output wire               in_ready_o,
  input  wire [31:0]        a_i,
  input  wire               signed_i,
  input  wire [2:0]         rm_i,
  output wire               out_valid_o,
  input  wire               out_ready_i,
  output wire [ExpW+ManW:0] result_o,
  output wire [4:0]         flags_o
);

  localparam integer W  = ExpW + ManW + 1;
  localparam integer EW = (ExpW + 3 > 8) ? ExpW + 3 : 8;   // holds 31 + bias
  localparam integer IW = (ManW + 3 > 32) ? ManW + 3 : 32; // rounding input width
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RMM, FP_FLAG_NV).
  localparam [2:0] FpRmm    = 3'd4;     // the last rounding mode; 5..7 are reserved
  localparam [4:0] FpFlagNv = 5'h10;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_i2f__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_i2f__ManW_must_be_at_least_2)
    end
    if (ExpW >= 2 && ExpW <= 30 && ManW > (1 << ExpW)) begin : gen_check_exp_range
      `CC_PARAM_FAIL(fp_i2f__ManW_must_be_at_most_2_pow_ExpW)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_i2f__Latency_must_be_at_least_0)
    end
  endgenerate

  wire        sign = signed_i && a_i[31];
  wire [31:0] mag  = (a_i ^ {32{sign}}) + {31'd0, sign};   // |INT32_MIN| = 2^31 fits unsigned

  wire [5:0] lz;
  wire       unused_zero;
  cc_lzc #(.Width(32)) u_lzc (.in_i(mag), .cnt_o(lz), .zero_o(unused_zero));

  wire [31:0]   norm = mag << lz;
  wire [IW-1:0] man  = {norm, {(IW-32){1'b0}}};
  wire [EW-1:0] exp  = 31 - {{(EW-6){1'b0}}, lz};

  wire [W-1:0] rp_result;
  wire [4:0]   rp_flags;
  fp_round_pack #(.ExpW(ExpW), .ManW(ManW), .InW(IW), .EW(EW)) u_round (
    .sign_i(sign), .exp_i(exp), .man_i(man), .rm_i(rm_i),
    .result_o(rp_result), .flags_o(rp_flags));

  // A reserved rounding mode (5..7) is a clean error: canonical NaN and NV.
  localparam [W-1:0] QNaN = {1'b0, {ExpW{1'b1}}, 1'b1, {(ManW-1){1'b0}}};
  wire         bad_rm = rm_i > FpRmm;
  wire [W-1:0] result = bad_rm ? QNaN : rp_result;
  wire [4:0]   flags  = bad_rm ? FpFlagNv : rp_flags;

  cc_pipe #(.Width(W + 5), .Depth(Latency)) u_pipe (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i({result, flags}),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));

endmodule

`default_nettype wire
