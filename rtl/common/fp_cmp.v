////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_cmp.v
//
// Purpose:   IEEE float comparisons and min/max. op_i:
//              0 EQ   result 1/0; quiet: NV only for a signaling NaN operand (compareQuietEqual)
//              1 LT   result 1/0; signaling: NV for any NaN operand (compareSignalingLess)
//              2 LE   result 1/0; signaling
//              3 MIN  RISC-V fmin (IEEE 754-2019 minimumNumber): -0 < +0; one NaN operand gives
//                     the other operand; two NaNs give the canonical NaN; NV for a signaling NaN
//              4 MAX  likewise
//              5 EQ   signaling: NV for any NaN operand (compareSignalingEqual)
//              6 LT   quiet: NV only for a signaling NaN (compareQuietLess)
//              7 LE   quiet
//            Codes 0..2 are RISC-V's feq/flt/fle; 5..7 are the other three IEEE predicates
//            (TestFloat's eq_signaling, lt_quiet, le_quiet). Compare results are 0/1 in the LSB
//            of result_o; unordered (NaN) compares are 0. Every code is defined.
//            One operation per cycle, Latency cycles (cc_pipe).
//
// Parameters:
//   ExpW, ManW   format (8/23 fp32, 5/10 fp16, 8/7 bfloat16)
//   Latency      register stages (0 = combinational)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_cmp #(
  parameter integer ExpW    = 8,
  parameter integer ManW    = 23,
  parameter integer Latency = 0
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               in_valid_i,
  output wire               in_ready_o,
  input  wire [ExpW+ManW:0] a_i,
  input  wire [ExpW+ManW:0] b_i,
  input  wire [2:0]         op_i,
  output wire               out_valid_o,
  input  wire               out_ready_i,
  output wire [ExpW+ManW:0] result_o,
  output wire [4:0]         flags_o
);

  localparam integer W = ExpW + ManW + 1;
  localparam [W-1:0] QNaN = {1'b0, {ExpW{1'b1}}, 1'b1, {(ManW-1){1'b0}}};
  // op_i codes (listed in the header above; cmodel/include/fpref.h has no names for them).
  localparam [2:0] OpEq = 3'd0, OpLt = 3'd1, OpLe = 3'd2, OpMin = 3'd3, OpMax = 3'd4,
                   OpEqSig = 3'd5, OpLtQuiet = 3'd6, OpLeQuiet = 3'd7;
  localparam [4:0] FpFlagNv = 5'h10;    // FP_FLAG_NV of cmodel/include/fpref.h

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_cmp__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_cmp__ManW_must_be_at_least_2)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_cmp__Latency_must_be_at_least_0)
    end
  endgenerate

  wire         a_sign = a_i[W-1];
  wire         b_sign = b_i[W-1];
  wire [W-2:0] a_mag  = a_i[W-2:0];
  wire [W-2:0] b_mag  = b_i[W-2:0];
  wire         a_nan  = &a_i[W-2:ManW] && |a_i[ManW-1:0];
  wire         b_nan  = &b_i[W-2:ManW] && |b_i[ManW-1:0];
  wire         a_snan = a_nan && !a_i[ManW-1];
  wire         b_snan = b_nan && !b_i[ManW-1];
  wire         any_nan  = a_nan || b_nan;
  wire         any_snan = a_snan || b_snan;
  wire         both_zero = ~|a_mag && ~|b_mag;

  // Sign-magnitude order with -0 < +0 (the total order min/max need) ...
  wire lt_total = (a_sign != b_sign) ? a_sign
                                     : (a_sign ? (a_mag > b_mag) : (a_mag < b_mag));
  // ... and the IEEE order, where -0 == +0.
  wire eq = (a_i == b_i) || both_zero;
  wire lt = lt_total && !both_zero;

  reg [W-1:0] result;
  reg [4:0]   flags;
  always @* begin
    result = {W{1'b0}};
    flags  = {5{any_snan}} & FpFlagNv;
    case (op_i)
      OpLt, OpLtQuiet: result[0] = lt && !any_nan;
      OpLe, OpLeQuiet: result[0] = (lt || eq) && !any_nan;
      OpMin, OpMax: begin
        if (a_nan && b_nan)  result = QNaN;
        else if (a_nan)      result = b_i;
        else if (b_nan)      result = a_i;
        else                 result = (lt_total == (op_i == OpMin)) ? a_i : b_i;
      end
      OpEq, OpEqSig:   result[0] = eq && !any_nan;
      default:         result    = {W{1'b0}};   // unreachable: every code is listed
    endcase
    // The signaling predicates raise NV for any NaN operand (the quiet ones and min/max only
    // for a signaling NaN, the default above).
    if (op_i == OpLt || op_i == OpLe || op_i == OpEqSig) flags = {5{any_nan}} & FpFlagNv;
  end

  cc_pipe #(.Width(W + 5), .Depth(Latency)) u_pipe (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i({result, flags}),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));

endmodule

`default_nettype wire
