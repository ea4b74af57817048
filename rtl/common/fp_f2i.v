////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_f2i.v
//
// Purpose:   IEEE float to 32-bit integer, rounded in rm_i (RISC-V fcvt.w / fcvt.wu semantics):
//            signed_i = 1 gives int32, 0 gives uint32. Out-of-range values saturate and raise
//            NV only: NaN and +overflow give INT32_MAX (uint32: 0xFFFFFFFF), -overflow and -inf
//            give INT32_MIN (uint32: 0); NX when in range and inexact (TestFloat's exact mode).
//            One operation per cycle, Latency cycles (cc_pipe).
//
//            Datapath: the normalized significand is shifted left by e + 1 into a 32 + p bit
//            fixed-point word (for -1 <= e <= 31) whose top 32 bits are the integer part and
//            whose next bit and the OR of the rest are round and sticky; smaller magnitudes are
//            all sticky, larger ones overflow.
//
// Parameters:
//   ExpW, ManW   operand format (8/23 fp32, 5/10 fp16, 8/7 bfloat16)
//   Latency      register stages (0 = combinational)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_f2i #(
  parameter integer ExpW    = 8,
  parameter integer ManW    = 23,
  parameter integer Latency = 1
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               in_valid_i,
  output wire               in_ready_o,
  input  wire [ExpW+ManW:0] a_i,
  input  wire               signed_i,
  input  wire [2:0]         rm_i,
  output wire               out_valid_o,
  input  wire               out_ready_i,
  output wire [31:0]        result_o,
  output wire [4:0]         flags_o
);

  localparam integer P  = ManW + 1;
  localparam integer EW = (ExpW + 3 > 8) ? ExpW + 3 : 8;   // holds 32 and the smallest exponent
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RTZ, FP_FLAG_NV, ...), the
  // saturation values of <stdint.h> (INT32_MAX, INT32_MIN, UINT32_MAX).
  localparam [2:0]  FpRtz = 3'd1, FpRdn = 3'd2, FpRup = 3'd3, FpRmm = 3'd4;
  localparam [4:0]  FpFlagNx = 5'h01, FpFlagNv = 5'h10;
  localparam [31:0] Int32Max = 32'h7FFF_FFFF, Int32Min = 32'h8000_0000, Uint32Max = 32'hFFFF_FFFF;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_f2i__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_f2i__ManW_must_be_at_least_2)
    end
    if (ExpW >= 2 && ExpW <= 30 && ManW > (1 << ExpW)) begin : gen_check_exp_range
      `CC_PARAM_FAIL(fp_f2i__ManW_must_be_at_most_2_pow_ExpW)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_f2i__Latency_must_be_at_least_0)
    end
  endgenerate

  wire          sign, zero, inf, nan, snan;
  wire [EW-1:0] exp;
  wire [P-1:0]  man;
  fp_unpack #(.ExpW(ExpW), .ManW(ManW), .EW(EW)) u_unpack (
    .a_i(a_i), .sign_o(sign), .exp_o(exp), .man_o(man),
    .zero_o(zero), .inf_o(inf), .nan_o(nan), .snan_o(snan));

  // e + 1 in 0..32 lands the value in the fixed-point word; below: |x| < 0.5; above: >= 2^32.
  wire [EW-1:0]  k     = exp + 1'b1;
  wire           tiny  = k[EW-1];
  wire           huge  = !k[EW-1] && (k > 32);
  wire [32+P-1:0] fixw = {{32{1'b0}}, man} << k[5:0];
  wire [31:0]    ipart = tiny ? 32'd0 : fixw[32+P-1:P];
  wire           rnd   = !tiny && fixw[P-1];
  wire           stk   = tiny ? !zero : |fixw[P-2:0];
  wire           inexact = rnd || stk;

  reg inc;
  always @* begin
    case (rm_i)
      FpRtz:   inc = 1'b0;
      FpRdn:   inc = sign && inexact;
      FpRup:   inc = !sign && inexact;
      FpRmm:   inc = rnd;
      default: inc = rnd && (stk || ipart[0]);
    endcase
  end
  wire [32:0] imag = {1'b0, ipart} + {32'd0, inc};

  // Range after rounding: int32 [-2^31, 2^31 - 1], uint32 [0, 2^32 - 1] (-0.x rounding to 0
  // is in range).
  wire over_s = sign ? (imag > {1'b0, Int32Min}) : (imag > {1'b0, Int32Max});
  wire over_u = sign ? (imag != 33'd0) : imag[32];
  wire bad_rm  = rm_i > FpRmm;      // reserved rounding mode: NV and the NaN result
  wire invalid = bad_rm || nan || inf || huge || (signed_i ? over_s : over_u);

  wire [31:0] sat_pos = signed_i ? Int32Max : Uint32Max;
  wire [31:0] sat_neg = signed_i ? Int32Min : 32'h0000_0000;
  wire [31:0] value   = (imag[31:0] ^ {32{sign}}) + {31'd0, sign};   // negate if sign

  wire [31:0] result = !invalid ? value : ((sign && !nan && !bad_rm) ? sat_neg : sat_pos);
  wire [4:0]  flags  = invalid ? FpFlagNv : ({5{inexact}} & FpFlagNx);
  wire        unused_snan = snan;

  cc_pipe #(.Width(32 + 5), .Depth(Latency)) u_pipe (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i({result, flags}),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));

endmodule

`default_nettype wire
