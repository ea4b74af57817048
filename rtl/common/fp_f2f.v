////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_f2f.v
//
// Purpose:   Conversion between IEEE float formats (fp32 <-> fp16, fp32 <-> bfloat16,
//            fp16 <-> bfloat16, ...): correctly rounded in rm_i when narrowing, exact when
//            widening; subnormals in and out; OF/UF/NX from the rounding; a NaN gives the
//            canonical quiet NaN of the result format, NV when it was signaling.
//            One operation per cycle, Latency cycles (cc_pipe).
//
// Parameters:
//   InExpW, InManW     operand format
//   OutExpW, OutManW   result format
//   Latency            register stages (0 = combinational)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_f2f #(
  parameter integer InExpW  = 8,
  parameter integer InManW  = 23,
  parameter integer OutExpW = 5,
  parameter integer OutManW = 10,
  parameter integer Latency = 1
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     in_valid_i,
  output wire                     in_ready_o,
  input  wire [InExpW+InManW:0]   a_i,
  input  wire [2:0]               rm_i,
  output wire                     out_valid_o,
  input  wire                     out_ready_i,
  output wire [OutExpW+OutManW:0] result_o,
  output wire [4:0]               flags_o
);

  localparam integer WO  = OutExpW + OutManW + 1;
  localparam integer PI  = InManW + 1;
  localparam integer EW  = ((InExpW > OutExpW) ? InExpW : OutExpW) + 3;
  localparam integer Pad = (OutManW + 4 > PI) ? OutManW + 4 - PI : 0;
  localparam [WO-1:0] QNaN = {1'b0, {OutExpW{1'b1}}, 1'b1, {(OutManW-1){1'b0}}};
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RMM, FP_FLAG_NV).
  localparam [2:0] FpRmm    = 3'd4;     // the last rounding mode; 5..7 are reserved
  localparam [4:0] FpFlagNv = 5'h10;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (InExpW < 2 || InExpW > 30) begin : gen_check_in_exp_w
      `CC_PARAM_FAIL(fp_f2f__InExpW_must_be_2_to_30)
    end
    if (InManW < 2) begin : gen_check_in_man_w
      `CC_PARAM_FAIL(fp_f2f__InManW_must_be_at_least_2)
    end
    if (InExpW >= 2 && InExpW <= 30 && InManW > (1 << InExpW)) begin : gen_check_in_exp_range
      `CC_PARAM_FAIL(fp_f2f__InManW_must_be_at_most_2_pow_InExpW)
    end
    if (OutExpW < 2 || OutExpW > 30) begin : gen_check_out_exp_w
      `CC_PARAM_FAIL(fp_f2f__OutExpW_must_be_2_to_30)
    end
    if (OutManW < 2) begin : gen_check_out_man_w
      `CC_PARAM_FAIL(fp_f2f__OutManW_must_be_at_least_2)
    end
    if (OutExpW >= 2 && OutExpW <= 30 && OutManW > (1 << OutExpW)) begin : gen_check_out_exp_range
      `CC_PARAM_FAIL(fp_f2f__OutManW_must_be_at_most_2_pow_OutExpW)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_f2f__Latency_must_be_at_least_0)
    end
  endgenerate

  wire          sign, zero, inf, nan, snan;
  wire [EW-1:0] exp;
  wire [PI-1:0] man;
  fp_unpack #(.ExpW(InExpW), .ManW(InManW), .EW(EW)) u_unpack (
    .a_i(a_i), .sign_o(sign), .exp_o(exp), .man_o(man),
    .zero_o(zero), .inf_o(inf), .nan_o(nan), .snan_o(snan));

  wire [WO-1:0] rp_result;
  wire [4:0]    rp_flags;
  generate
    if (Pad > 0) begin : gen_pad
      fp_round_pack #(.ExpW(OutExpW), .ManW(OutManW), .InW(PI + Pad), .EW(EW)) u_round (
        .sign_i(sign), .exp_i(exp), .man_i({man, {Pad{1'b0}}}), .rm_i(rm_i),
        .result_o(rp_result), .flags_o(rp_flags));
    end else begin : gen_nopad
      fp_round_pack #(.ExpW(OutExpW), .ManW(OutManW), .InW(PI), .EW(EW)) u_round (
        .sign_i(sign), .exp_i(exp), .man_i(man), .rm_i(rm_i),
        .result_o(rp_result), .flags_o(rp_flags));
    end
  endgenerate

  // Zeros need no case: a zero significand packs to a signed zero.
  // A reserved rounding mode (5..7) is a clean error: canonical NaN and NV.
  wire          bad_rm = rm_i > FpRmm;
  wire [WO-1:0] result = (nan || bad_rm) ? QNaN
                       : (inf ? {sign, {OutExpW{1'b1}}, {OutManW{1'b0}}} : rp_result);
  wire [4:0]    flags  = bad_rm ? FpFlagNv : nan ? ({5{snan}} & FpFlagNv)
                                           : (inf ? 5'b00000 : rp_flags);
  wire          unused_zero = zero;

  cc_pipe #(.Width(WO + 5), .Depth(Latency)) u_pipe (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i({result, flags}),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));

endmodule

`default_nettype wire
