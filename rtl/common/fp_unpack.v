////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_unpack.v
//
// Purpose:   Classifies an IEEE binary float and normalizes its significand, so the arithmetic
//            units never see a subnormal: a finite nonzero value is
//              (-1)^sign_o * man_o * 2^(exp_o - ManW),   man_o[ManW] = 1,
//            with exp_o a signed (unbiased) exponent that goes below emin for subnormal inputs
//            (the leading-zero count of the fraction is moved from the significand into the
//            exponent). Zero gives man_o = 0; infinities and NaNs are flagged and their man_o /
//            exp_o are don't-care for the caller.
//
// Parameters:
//   ExpW     exponent field bits (fp32 8, fp16 5, bfloat16 8)
//   ManW     stored fraction bits (fp32 23, fp16 10, bfloat16 7)
//   EW       width of the signed exponent output; >= ExpW + 2 holds every normalized subnormal
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_unpack #(
  parameter integer ExpW = 8,
  parameter integer ManW = 23,
  parameter integer EW   = ExpW + 2
) (
  input  wire [ExpW+ManW:0] a_i,
  output wire               sign_o,
  output wire [EW-1:0]      exp_o,
  output wire [ManW:0]      man_o,
  output wire               zero_o,
  output wire               inf_o,
  output wire               nan_o,
  output wire               snan_o
);

  localparam integer LzW   = $clog2(ManW + 2);
  localparam integer BiasI = (1 << (ExpW - 1)) - 1;
  localparam integer EminI = 1 - BiasI;
  // Exponents are EW-bit two's complement vectors; the arithmetic below is modulo 2^EW.
  localparam [EW-1:0] Bias = BiasI[EW-1:0];
  localparam [EW-1:0] Emin = EminI[EW-1:0];

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_unpack__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_unpack__ManW_must_be_at_least_2)
    end
    if (ExpW >= 2 && ExpW <= 30 && ManW > (1 << ExpW)) begin : gen_check_exp_range
      `CC_PARAM_FAIL(fp_unpack__ManW_must_be_at_most_2_pow_ExpW)
    end
    if (EW < ExpW + 2) begin : gen_check_ew
      `CC_PARAM_FAIL(fp_unpack__EW_must_be_at_least_ExpW_plus_2)
    end
  endgenerate

  wire [ExpW-1:0] field = a_i[ManW +: ExpW];
  wire [ManW-1:0] frac  = a_i[ManW-1:0];
  wire            field_zero = ~|field;
  wire            field_ones = &field;
  wire [ManW:0]   sig = {~field_zero, frac};

  wire [LzW-1:0] lz;
  wire           unused_zero;
  cc_lzc #(.Width(ManW + 1)) u_lzc (.in_i(sig), .cnt_o(lz), .zero_o(unused_zero));

  // Subnormals have the exponent of the smallest normal (1 - Bias) before normalization.
  wire [EW-1:0] exp_raw = field_zero ? Emin : {{(EW-ExpW){1'b0}}, field} - Bias;

  assign sign_o = a_i[ExpW+ManW];
  assign man_o  = sig << lz;
  assign exp_o  = exp_raw - {{(EW-LzW){1'b0}}, lz};
  assign zero_o = field_zero && ~|frac;
  assign inf_o  = field_ones && ~|frac;
  assign nan_o  = field_ones && |frac;
  assign snan_o = field_ones && |frac && !frac[ManW-1];

endmodule

`default_nettype wire
