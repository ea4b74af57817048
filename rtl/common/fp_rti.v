////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_rti.v
//
// Purpose:   IEEE float round to an integral value in the same format (IEEE 754
//            roundToIntegral*, TestFloat's <F>_roundToInt, RISC-V Zfa fround / froundnx),
//            rounded in rm_i. exact_i = 1 raises NX when the result differs from the operand
//            (roundToIntegralExact, froundnx); exact_i = 0 never raises NX (fround). The result
//            keeps the operand's sign (-0.25 rounds to -0 in RNE, -0.75 to -1 in RNE and to -0
//            in RTZ); integers, zeros and infinities pass unchanged with no flag; a NaN gives the
//            canonical NaN, with NV for a signaling NaN. No OF or UF: every finite value of the
//            format rounds to a finite integer of the format (the parameter check below).
//            Reserved rounding modes 5..7 give the canonical NaN and NV (a clean error).
//            One operation per cycle, Latency cycles (cc_pipe).
//
//            Datapath: on the raw fields, no normalization. With E the biased exponent,
//            E >= Bias + ManW is already integral; E < Bias (|a| < 1) rounds to 0 or 1 with the
//            operand's sign; otherwise the ManW + Bias - E fraction bits below the binary point
//            are cleared, the first of them is the round bit, the rest are sticky, and a
//            round-up adds one unit of the integer grid to the pattern, where a carry out of the
//            fraction moves into the exponent field (1.11b * 2^1 -> 1.0b * 2^2).
//
// Parameters:
//   ExpW, ManW   format (8/23 fp32, 5/10 fp16, 8/7 bfloat16)
//   Latency      register stages (0 = combinational)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_rti #(
  parameter integer ExpW    = 8,
  parameter integer ManW    = 23,
  parameter integer Latency = 1
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               in_valid_i,
  output wire               in_ready_o,
  input  wire [ExpW+ManW:0] a_i,
  input  wire [2:0]         rm_i,
  input  wire               exact_i,
  output wire               out_valid_o,
  input  wire               out_ready_i,
  output wire [ExpW+ManW:0] result_o,
  output wire [4:0]         flags_o
);

  localparam integer W     = ExpW + ManW + 1;
  localparam integer BiasI = (1 << (ExpW - 1)) - 1;
  localparam integer IntEI = BiasI + ManW;              // from here on every value is integral
  localparam integer ShW   = $clog2(ManW + 1);          // fraction bits below the point: 1..ManW
  localparam [ExpW-1:0] Bias   = BiasI[ExpW-1:0];
  localparam [ExpW-1:0] HalfE  = Bias - 1'b1;            // biased exponent of [0.5, 1)
  localparam [ExpW:0]   IntE   = IntEI[ExpW:0];
  localparam [W-1:0]    QNaN   = {1'b0, {ExpW{1'b1}}, 1'b1, {(ManW-1){1'b0}}};
  localparam [W-2:0]    OneMag = {Bias, {ManW{1'b0}}};
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RTZ, FP_FLAG_NV, ...).
  localparam [2:0] FpRtz = 3'd1, FpRdn = 3'd2, FpRup = 3'd3, FpRmm = 3'd4;
  localparam [4:0] FpFlagNx = 5'h01, FpFlagNv = 5'h10;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_rti__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_rti__ManW_must_be_at_least_2)
    end
    // The largest finite value must be an integer (its biased exponent 2*Bias >= Bias + ManW),
    // so that no rounding leaves the format: fp16 10 <= 15, bfloat16 7 <= 127, fp32 23 <= 127.
    if (ExpW >= 2 && ExpW <= 30 && ManW > (1 << (ExpW - 1)) - 1) begin : gen_check_int_range
      `CC_PARAM_FAIL(fp_rti__ManW_must_be_at_most_the_exponent_bias)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_rti__Latency_must_be_at_least_0)
    end
  endgenerate

  wire            sign = a_i[W-1];
  wire [ExpW-1:0] e    = a_i[ManW +: ExpW];
  wire [ManW-1:0] f    = a_i[ManW-1:0];
  wire            nan  = &e && |f;
  wire            snan = nan && !f[ManW-1];
  wire            zero = ~|e && ~|f;
  wire            big  = {1'b0, e} >= IntE;              // integral already (or inf / NaN)
  wire            lt_one = e < Bias;                     // |a| < 1 (zeros and subnormals too)

  // ---- 1 <= |a| < 2^ManW: fb = IntE - e fraction bits lie below the binary point (1..ManW).
  wire [ExpW:0]   fb_full = IntE - {1'b0, e};
  wire [ShW-1:0]  fb      = fb_full[ShW-1:0];
  wire            unused_fb_hi = ^fb_full[ExpW:ShW];     // zero whenever fb is used
  wire [ManW:0]   unit    = {{ManW{1'b0}}, 1'b1} << fb;  // 2^fb: one step of the integer grid
  wire [ManW-1:0] below   = unit[ManW-1:0] - 1'b1;       // the fb bits below the point
  wire [ManW-1:0] half    = unit[ManW:1];                // 2^(fb-1): the round bit
  wire            rnd     = |(f & half);
  wire            stk     = |(f & below & ~half);
  // LSB of the integer part: the hidden one when fb = ManW (|a| in [1, 2)), else f[fb].
  wire            lsb     = unit[ManW] || |(f & unit[ManW-1:0]);

  reg up_mid, up_small;
  always @* begin
    case (rm_i)
      FpRtz:   up_mid = 1'b0;
      FpRdn:   up_mid = sign && (rnd || stk);
      FpRup:   up_mid = !sign && (rnd || stk);
      FpRmm:   up_mid = rnd;
      default: up_mid = rnd && (stk || lsb);
    endcase
    // |a| < 1, nonzero: 0.5 < |a| rounds to 1 in RNE, 0.5 <= |a| in RMM; the directed modes
    // go to 1 when they round away from zero for this sign.
    case (rm_i)
      FpRtz:   up_small = 1'b0;
      FpRdn:   up_small = sign;
      FpRup:   up_small = !sign;
      FpRmm:   up_small = (e == HalfE);
      default: up_small = (e == HalfE) && |f;
    endcase
  end

  wire [W-2:0] trunc   = {e, f & ~below};
  wire [W-2:0] mid_mag = trunc + (up_mid ? {{(ExpW-1){1'b0}}, unit} : {(W-1){1'b0}});
  wire [W-2:0] sml_mag = up_small ? OneMag : {(W-1){1'b0}};

  wire bad_rm  = rm_i > FpRmm;                       // reserved rounding mode: NaN and NV
  wire inexact = !big && !zero && (lt_one || rnd || stk);

  wire [W-1:0] result = (bad_rm || nan) ? QNaN :
                        (big || zero)   ? a_i :
                        {sign, lt_one ? sml_mag : mid_mag};
  wire [4:0]   flags  = (bad_rm || snan) ? FpFlagNv :
                        ({5{exact_i && inexact && !nan}} & FpFlagNx);

  cc_pipe #(.Width(W + 5), .Depth(Latency)) u_pipe (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i({result, flags}),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));

endmodule

`default_nettype wire
