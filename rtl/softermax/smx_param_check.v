`default_nettype none
`include "cc_param_check.vh"
// smx_param_check -- the elaboration-time parameter checks of every Softermax top.
//
// Purpose: each top of the block (softermax, softermax_unnormed, softermax_norm and the fp16
//   baseline's softermax_fp16_baseline, _unnormed, _norm) instantiates this module with its
//   parameters; an illegal value stops elaboration with the rule as the message, in the
//   library's portable idiom (rtl/common/README.md, "Parameters and their checks"): the
//   instance of a module that does not exist, named after the rule (Icarus, Yosys), or an
//   elaboration-time $fatal (Verilator, which looks every instance up before it evaluates a
//   generate condition). The parameters mean the same in every top of the block, so the rules
//   are named after the block: softermax__<rule>. A top without one of the format parameters
//   leaves it at its default (which passes); the derived parameters of the top (declared
//   "derived, do not override") are handed in to be checked against their definition, -1
//   where the top has no such parameter. No ports, no logic.
// Parameters:
//   Vec, MaxLen                             lanes 1..64; longest legal row >= 1
//   InWidth, InFrac, RecipSegBits, SumFrac  Softermax's formats: InWidth <= 16, InFrac
//                                           2..InWidth-2, RecipSegBits 2..4, SumFrac 6..13
//   CntW, DWidth, MWidth, MaxSlices, SliceW the top's derived parameters (or -1)
module smx_param_check #(
  parameter integer Vec          = 16,
  parameter integer MaxLen       = 384,
  parameter integer InWidth      = 8,
  parameter integer InFrac       = 2,
  parameter integer RecipSegBits = 2,
  parameter integer SumFrac      = 6,
  parameter integer CntW         = -1,
  parameter integer DWidth       = -1,
  parameter integer MWidth       = -1,
  parameter integer MaxSlices    = -1,
  parameter integer SliceW       = -1
) ();
  `include "smx_consts.vh"

  // the derived parameters' definitions (the tops' parameter lists; MaxSlices is at least 1 so
  // that an illegal MaxLen elaborates far enough to reach its rule)
  localparam integer ExpCntW      = $clog2(Vec + 1);
  localparam integer ExpDWidth    = SmxDInt + SumFrac;
  localparam integer ExpMWidth    = InWidth - InFrac + 1;
  localparam integer ExpMaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec;
  localparam integer ExpSliceW    = $clog2(ExpMaxSlices + 1);

  generate
    if (Vec < 1 || Vec > SmxMaxVec) begin : gen_check_vec
      `CC_PARAM_FAIL(softermax__Vec_must_be_1_to_64)
    end
    if (MaxLen < 1) begin : gen_check_max_len
      `CC_PARAM_FAIL(softermax__MaxLen_must_be_at_least_1)
    end
    if (InWidth > 16) begin : gen_check_in_width
      `CC_PARAM_FAIL(softermax__InWidth_must_be_at_most_16)
    end
    if (InFrac < 2 || InFrac > InWidth - 2) begin : gen_check_in_frac
      `CC_PARAM_FAIL(softermax__InFrac_must_be_2_to_InWidth_minus_2)
    end
    if (RecipSegBits < 2 || RecipSegBits > 4) begin : gen_check_recip_seg_bits
      `CC_PARAM_FAIL(softermax__RecipSegBits_must_be_2_to_4)
    end
    if (SumFrac < 6 || SumFrac > 13) begin : gen_check_sum_frac
      `CC_PARAM_FAIL(softermax__SumFrac_must_be_6_to_13)
    end
    if (CntW >= 0 && CntW != ExpCntW) begin : gen_check_cnt_w
      `CC_PARAM_FAIL(softermax__CntW_is_derived_and_must_not_be_set)
    end
    if (DWidth >= 0 && DWidth != ExpDWidth) begin : gen_check_d_width
      `CC_PARAM_FAIL(softermax__DWidth_is_derived_and_must_not_be_set)
    end
    if (MWidth >= 0 && MWidth != ExpMWidth) begin : gen_check_m_width
      `CC_PARAM_FAIL(softermax__MWidth_is_derived_and_must_not_be_set)
    end
    if (MaxSlices >= 0 && MaxSlices != ExpMaxSlices) begin : gen_check_max_slices
      `CC_PARAM_FAIL(softermax__MaxSlices_is_derived_and_must_not_be_set)
    end
    if (SliceW >= 0 && SliceW != ExpSliceW) begin : gen_check_slice_w
      `CC_PARAM_FAIL(softermax__SliceW_is_derived_and_must_not_be_set)
    end
  endgenerate
endmodule
`default_nettype wire
