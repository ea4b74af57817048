////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_fma.v
//
// Purpose:   IEEE fused multiply-add, result = a * b + c with one rounding in rm_i, subnormals
//            in and out, flags {NV, DZ, OF, UF, NX}. A NaN result is the canonical quiet NaN. NV
//            on a signaling NaN operand, on inf * 0 (also when c is a quiet NaN, the RISC-V rule)
//            and on inf - inf. Negated forms (a*b - c, -(a*b) + c) are formed by flipping sign
//            bits of the operands outside. One operation per cycle, Latency cycles.
//
//            Datapath: the exact 2p-bit product (normalized by at most one bit) and the addend
//            widened to 2p bits go through fp_add_core (the same align/add/jam/normalize as
//            fp_add, at twice the width), then fp_round_pack -- one rounding of a round-to-odd
//            value at 2p + 4 bits, hence correctly rounded.
//
// Parameters:
//   ExpW, ManW   format (8/23 fp32, 5/10 fp16, 8/7 bfloat16)
//   Latency      register stages (0 = combinational)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_fma #(
  parameter integer ExpW    = 8,
  parameter integer ManW    = 23,
  parameter integer Latency = 2
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               in_valid_i,
  output wire               in_ready_o,
  input  wire [ExpW+ManW:0] a_i,
  input  wire [ExpW+ManW:0] b_i,
  input  wire [ExpW+ManW:0] c_i,
  input  wire [2:0]         rm_i,
  output wire               out_valid_o,
  input  wire               out_ready_i,
  output wire [ExpW+ManW:0] result_o,
  output wire [4:0]         flags_o
);

  localparam integer W  = ExpW + ManW + 1;
  localparam integer EW = ExpW + 3;
  localparam integer P  = ManW + 1;
  localparam [W-1:0] QNaN = {1'b0, {ExpW{1'b1}}, 1'b1, {(ManW-1){1'b0}}};
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RMM, FP_FLAG_NV).
  localparam [2:0] FpRmm    = 3'd4;     // the last rounding mode; 5..7 are reserved
  localparam [4:0] FpFlagNv = 5'h10;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_fma__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_fma__ManW_must_be_at_least_2)
    end
    if (ExpW >= 2 && ExpW <= 30 && ManW > (1 << ExpW)) begin : gen_check_exp_range
      `CC_PARAM_FAIL(fp_fma__ManW_must_be_at_most_2_pow_ExpW)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_fma__Latency_must_be_at_least_0)
    end
  endgenerate

  wire          a_sign, b_sign, c_sign;
  wire          a_zero, b_zero, c_zero, a_inf, b_inf, c_inf;
  wire          a_nan, b_nan, c_nan, a_snan, b_snan, c_snan;
  wire [EW-1:0] a_exp, b_exp, c_exp;
  wire [P-1:0]  a_man, b_man, c_man;
  fp_unpack #(.ExpW(ExpW), .ManW(ManW), .EW(EW)) u_unpack_a (
    .a_i(a_i), .sign_o(a_sign), .exp_o(a_exp), .man_o(a_man),
    .zero_o(a_zero), .inf_o(a_inf), .nan_o(a_nan), .snan_o(a_snan));
  fp_unpack #(.ExpW(ExpW), .ManW(ManW), .EW(EW)) u_unpack_b (
    .a_i(b_i), .sign_o(b_sign), .exp_o(b_exp), .man_o(b_man),
    .zero_o(b_zero), .inf_o(b_inf), .nan_o(b_nan), .snan_o(b_snan));
  fp_unpack #(.ExpW(ExpW), .ManW(ManW), .EW(EW)) u_unpack_c (
    .a_i(c_i), .sign_o(c_sign), .exp_o(c_exp), .man_o(c_man),
    .zero_o(c_zero), .inf_o(c_inf), .nan_o(c_nan), .snan_o(c_snan));

  // Exact product, leading one moved to the top bit.
  wire           p_sign = a_sign ^ b_sign;
  wire [2*P-1:0] prod   = a_man * b_man;
  wire [2*P-1:0] p_man  = prod[2*P-1] ? prod : {prod[2*P-2:0], 1'b0};
  wire [EW-1:0]  p_exp  = a_exp + b_exp + {{(EW-1){1'b0}}, prod[2*P-1]};

  wire          s_sign;
  wire [EW-1:0] s_exp;
  wire [2*P+3:0] s_man;
  fp_add_core #(.SW(2 * P), .EW(EW)) u_core (
    .x_sign_i(p_sign), .x_exp_i(p_exp), .x_man_i(p_man),
    .y_sign_i(c_sign), .y_exp_i(c_exp), .y_man_i({c_man, {P{1'b0}}}),
    .rm_i(rm_i), .sign_o(s_sign), .exp_o(s_exp), .man_o(s_man));

  wire [W-1:0] rp_result;
  wire [4:0]   rp_flags;
  fp_round_pack #(.ExpW(ExpW), .ManW(ManW), .InW(2 * P + 4), .EW(EW)) u_round (
    .sign_i(s_sign), .exp_i(s_exp), .man_i(s_man), .rm_i(rm_i),
    .result_o(rp_result), .flags_o(rp_flags));

  wire inf_times_zero = (a_inf && b_zero) || (a_zero && b_inf);
  wire p_inf          = a_inf || b_inf;

  reg [W-1:0] result;
  reg [4:0]   flags;
  always @* begin
    result = rp_result;
    flags  = rp_flags;
    if (rm_i > FpRmm) begin
      result = QNaN;              // reserved rounding mode: clean error
      flags  = FpFlagNv;
    end else if (a_nan || b_nan || c_nan || inf_times_zero) begin
      result = QNaN;
      flags  = {5{a_snan || b_snan || c_snan || inf_times_zero}} & FpFlagNv;
    end else if (p_inf && c_inf && (p_sign != c_sign)) begin
      result = QNaN;
      flags  = FpFlagNv;
    end else if (p_inf || c_inf) begin
      result = {p_inf ? p_sign : c_sign, {ExpW{1'b1}}, {ManW{1'b0}}};
      flags  = 5'b00000;
    end
  end
  wire unused_zero = c_zero;

  cc_pipe #(.Width(W + 5), .Depth(Latency)) u_pipe (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i({result, flags}),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));

endmodule

`default_nettype wire
