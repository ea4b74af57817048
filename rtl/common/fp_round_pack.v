////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_round_pack.v
//
// Purpose:   The one rounding step shared by every float unit: rounds the value
//              (-1)^sign_i * man_i * 2^(exp_i - (InW - 1))
//            to the IEEE format (ExpW, ManW) in rounding mode rm_i and packs it, with subnormal
//            results, overflow to infinity or the largest finite value, and the OF, UF and NX
//            flags (tininess is detected after rounding, UF = tiny && inexact).
//
//            Contract with the caller: man_i is normalized (man_i[InW-1] = 1) or zero, and it is
//            either the exact value or its round-to-odd at InW bits (the caller ORs every bit it
//            dropped into man_i[0]). InW >= ManW + 3 leaves two bits between the result's LSB and
//            that sticky LSB, which makes one rounding of the round-to-odd value equal to the
//            correct rounding of the exact value (Boldo & Melquiond, IEEE TC 2008). A zero
//            man_i packs to a signed zero with no flags; the caller chooses its sign.
//
//            Rounding modes (RISC-V frm encoding): 0 RNE, 1 RTZ, 2 RDN, 3 RUP, 4 RMM (nearest,
//            ties away from zero). Codes 5..7 are reserved: every unit answers them with the
//            canonical NaN (INT32_MAX for fp_f2i) and NV, so this module never sees them used.
//            Flags are in TestFloat order {NV, DZ, OF, UF, NX}; NV and DZ are always 0 here.
//
// Parameters:
//   ExpW, ManW   result format
//   InW          man_i bits (>= ManW + 3)
//   EW           exp_i bits, two's complement; exp_i + bias must not overflow EW bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_round_pack #(
  parameter integer ExpW = 8,
  parameter integer ManW = 23,
  parameter integer InW  = ManW + 3,
  parameter integer EW   = ExpW + 3
) (
  input  wire               sign_i,
  input  wire [EW-1:0]      exp_i,
  input  wire [InW-1:0]     man_i,
  input  wire [2:0]         rm_i,
  output wire [ExpW+ManW:0] result_o,
  output wire [4:0]         flags_o
);

  localparam integer P     = ManW + 1;                 // precision
  localparam integer BiasI = (1 << (ExpW - 1)) - 1;
  localparam integer MaxBI = (1 << ExpW) - 2;          // largest biased exponent of a finite value
  localparam integer ShW   = $clog2(InW + 1) + 1;      // denormalization shift 0..InW
  localparam [EW-1:0] Bias = BiasI[EW-1:0];
  localparam [EW-1:0] MaxB = MaxBI[EW-1:0];
  localparam [ShW-1:0] ShMax = InW[ShW-1:0];
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RTZ, FP_FLAG_OF, ...).
  localparam [2:0] FpRtz = 3'd1, FpRdn = 3'd2, FpRup = 3'd3, FpRmm = 3'd4;
  localparam [4:0] FpFlagNx = 5'h01, FpFlagUf = 5'h02, FpFlagOf = 5'h04;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_round_pack__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_round_pack__ManW_must_be_at_least_2)
    end
    if (InW < ManW + 3) begin : gen_check_in_w
      `CC_PARAM_FAIL(fp_round_pack__InW_must_be_at_least_ManW_plus_3)
    end
    if (EW < ExpW + 2) begin : gen_check_ew
      `CC_PARAM_FAIL(fp_round_pack__EW_must_be_at_least_ExpW_plus_2)
    end
    if (EW <= $clog2(InW + 1)) begin : gen_check_ew_shift
      `CC_PARAM_FAIL(fp_round_pack__EW_must_exceed_clog2_of_InW_plus_1)
    end
  endgenerate

  // Biased exponent of the leading one; <= 0 means the result is below the smallest normal.
  wire [EW-1:0] eb     = exp_i + Bias;
  wire          normal = !eb[EW-1] && |eb;
  wire          eb_zero = ~|eb;
  wire          man_nz = |man_i;

  // Shift right by 1 - eb for a subnormal result, all bits beyond InW collapse into sticky.
  wire [EW-1:0]  sub_amt = {{(EW-1){1'b0}}, 1'b1} - eb;
  wire           sub_big = |(sub_amt >> (ShW - 1)) || (sub_amt[ShW-1:0] > ShMax);
  wire [ShW-1:0] shift   = normal ? {ShW{1'b0}} : (sub_big ? ShMax : sub_amt[ShW-1:0]);
  wire [2*InW-1:0] shifted = {man_i, {InW{1'b0}}} >> shift;
  wire [InW-1:0]   m_sh    = shifted[2*InW-1:InW];
  wire             lost    = |shifted[InW-1:0];

  wire [P-1:0] keep = m_sh[InW-1 -: P];
  wire         rnd  = m_sh[InW-P-1];
  wire         stk  = |m_sh[InW-P-2:0] || lost;
  wire         inexact = rnd || stk;

  function automatic round_up(input [2:0] rm, input sign, input lsb, input r, input s);
    case (rm)
      FpRtz:   round_up = 1'b0;
      FpRdn:   round_up = sign && (r || s);
      FpRup:   round_up = !sign && (r || s);
      FpRmm:   round_up = r;
      default: round_up = r && (s || lsb);
    endcase
  endfunction

  wire inc = round_up(rm_i, sign_i, keep[0], rnd, stk);

  // Packing trick: the hidden bit of keep carries into the exponent field, so a subnormal that
  // rounds up to 2^emin and the largest finite value that rounds up to infinity need no cases.
  // Both fit ExpW + ManW bits whenever eb <= MaxB; above that ovf overrides the result.
  wire [ExpW+ManW-1:0] base = normal ?
                              ({eb[ExpW-1:0] - 1'b1, {ManW{1'b0}}} + {{(ExpW-1){1'b0}}, keep}) :
                              {{(ExpW-1){1'b0}}, keep};
  wire [ExpW+ManW-1:0] rounded = base + {{(ExpW+ManW-1){1'b0}}, inc};

  wire ovf = man_nz && (($signed(eb) > $signed(MaxB)) || (&rounded[ExpW+ManW-1:ManW]));

  // Tininess after rounding: only eb = 0 can round up to 2^emin (at full precision P).
  wire inc_u = round_up(rm_i, sign_i, man_i[InW-P], man_i[InW-P-1], |man_i[InW-P-2:0]);
  wire tiny  = eb[EW-1] || (eb_zero && !(&man_i[InW-1 -: P] && inc_u));

  // Overflow goes to infinity unless the mode rounds toward zero for this sign.
  wire ovf_to_max = (rm_i == FpRtz) || (rm_i == FpRdn && !sign_i) || (rm_i == FpRup && sign_i);
  wire [ExpW+ManW-1:0] inf_mag = {{ExpW{1'b1}}, {ManW{1'b0}}};
  wire [ExpW+ManW-1:0] max_mag = {{(ExpW-1){1'b1}}, 1'b0, {ManW{1'b1}}};

  assign result_o = {sign_i, !man_nz ? {(ExpW+ManW){1'b0}} :
                             ovf ? (ovf_to_max ? max_mag : inf_mag) : rounded};
  assign flags_o  = ({5{ovf}} & FpFlagOf) | ({5{man_nz && tiny && inexact && !ovf}} & FpFlagUf) |
                    ({5{(inexact && man_nz) || ovf}} & FpFlagNx);

endmodule

`default_nettype wire
