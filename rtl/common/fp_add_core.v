////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_add_core.v
//
// Purpose:   Adds two finite unpacked operands x = (-1)^sx * mx * 2^(ex - (SW-1)) (same for y)
//            and returns the sum normalized, exact or rounded to odd, ready for fp_round_pack.
//            fp_add uses it on SW = p-bit significands, fp_fma on the 2p-bit exact product and
//            the widened addend, so the alignment, cancellation and sticky rules live in one
//            place.
//
//            Algorithm: the operand with the larger exponent is the anchor; the other one is
//            shifted right by the exponent difference into SW + 3 bits and every bit shifted out
//            is ORed into its LSB (the jam). The difference is formed in SW + 4 bits; a negative
//            difference (possible only when nothing was jammed, i.e. exactly) is negated and
//            flips the sign. A leading-zero count normalizes the result. A jammed result is an odd
//            multiple of its LSB and the exact value lies strictly within one LSB of it, so it is
//            the round-to-odd of the exact sum: fp_round_pack then rounds correctly as long as
//            SW + 4 >= p + 3.
//
//            Zeros: an operand with m = 0 is a zero (its exponent is ignored). An exact zero sum
//            (both zeros, or cancellation) is +0, -0 when both operands are negative, and -0 for
//            opposite signs in round-down mode (IEEE 754 6.3).
//
// Parameters:
//   SW       significand bits of the operands (>= 2)
//   EW       exponent bits, two's complement; must hold ex + 1 without overflow
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_add_core #(
  parameter integer SW = 24,
  parameter integer EW = 11
) (
  input  wire          x_sign_i,
  input  wire [EW-1:0] x_exp_i,
  input  wire [SW-1:0] x_man_i,
  input  wire          y_sign_i,
  input  wire [EW-1:0] y_exp_i,
  input  wire [SW-1:0] y_man_i,
  input  wire [2:0]    rm_i,
  output wire          sign_o,
  output wire [EW-1:0] exp_o,
  output wire [SW+3:0] man_o    // normalized or zero; 0 means an exact zero with sign sign_o
);

  localparam integer RW  = SW + 4;                  // result: carry, SW bits, 3 below
  localparam integer DW  = $clog2(SW + 4) + 1;      // alignment shift 0..SW+3
  localparam integer LzW = $clog2(RW + 1);
  localparam integer  DMaxI = SW + 3;
  localparam [DW-1:0] DMax  = DMaxI[DW-1:0];
  localparam [2:0] FpRdn = 3'd2;                     // FP_RDN of cmodel/include/fpref.h

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (SW < 2) begin : gen_check_sw
      `CC_PARAM_FAIL(fp_add_core__SW_must_be_at_least_2)
    end
    if (EW <= $clog2(SW + 4)) begin : gen_check_ew
      `CC_PARAM_FAIL(fp_add_core__EW_must_exceed_clog2_of_SW_plus_4)
    end
  endgenerate

  wire x_zero = ~|x_man_i;
  wire y_zero = ~|y_man_i;

  // The anchor is the nonzero operand with the larger exponent (x on a tie).
  wire [EW-1:0] diff_xy = x_exp_i - y_exp_i;
  wire          y_bigger = y_zero ? 1'b0 : (x_zero ? 1'b1 : $signed(y_exp_i) > $signed(x_exp_i));
  wire          a_sign = y_bigger ? y_sign_i : x_sign_i;
  wire [EW-1:0] a_exp  = y_bigger ? y_exp_i  : x_exp_i;
  wire [SW-1:0] a_man  = y_bigger ? y_man_i  : x_man_i;
  wire [SW-1:0] b_man  = y_bigger ? x_man_i  : y_man_i;
  wire          b_zero = y_bigger ? x_zero   : y_zero;
  // |ex - ey| as one adder: conditional inversion plus carry-in (a mux of two adders would
  // leave Yosys's SAT-based sharing pass a pair to prove exclusive, per instance).
  wire [EW-1:0] exp_gap   = (diff_xy ^ {EW{y_bigger}}) + {{(EW-1){1'b0}}, y_bigger};

  wire          gap_big = |(exp_gap >> (DW - 1)) || (exp_gap[DW-1:0] > DMax);
  wire [DW-1:0] shamt    = (b_zero || gap_big) ? DMax : exp_gap[DW-1:0];

  // Align b: SW + 3 bits kept, everything below jammed into the LSB.
  wire [2*SW+2:0] b_wide   = {b_man, 3'b000, {SW{1'b0}}} >> shamt;
  wire [SW+2:0]   b_kept   = b_wide[2*SW+2:SW];
  wire            b_sticky = |b_wide[SW-1:0];
  wire [SW+2:0]   b_al     = {b_kept[SW+2:1], b_kept[0] | b_sticky};

  wire          esub = x_sign_i ^ y_sign_i;
  wire [RW-1:0] a_ext = {1'b0, a_man, 3'b000};
  wire [RW-1:0] b_ext = {1'b0, b_al};
  wire [RW-1:0] raw   = a_ext + (b_ext ^ {RW{esub}}) + {{(RW-1){1'b0}}, esub};   // a +- b
  wire          neg   = esub && raw[RW-1];          // |b| > |a|: only when nothing was jammed
  wire [RW-1:0] mag   = (raw ^ {RW{neg}}) + {{(RW-1){1'b0}}, neg};

  wire [LzW-1:0] lz;
  wire           is_zero;
  cc_lzc #(.Width(RW)) u_lzc (.in_i(mag), .cnt_o(lz), .zero_o(is_zero));

  // The sum's MSB weight is 2^(a_exp + 1) at bit RW-1; each leading zero lowers it by one.
  assign man_o  = mag << lz;
  assign exp_o  = a_exp + 1'b1 - {{(EW-LzW){1'b0}}, lz};
  assign sign_o = is_zero ? (esub ? (rm_i == FpRdn) : x_sign_i) : (a_sign ^ neg);

endmodule

`default_nettype wire
