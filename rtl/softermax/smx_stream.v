`default_nettype none
`include "cc_param_check.vh"
// smx_stream -- the streaming structure of both Softermax tops: softermax (Fp16 = 0) and the
//   fp16 baseline softermax_fp16_baseline (Fp16 = 1) are this module with their own units.
//
// Purpose: skid buffer -> unnormed unit -> row buffer -> normalization unit -> skid buffer.
//   The unnormed unit writes each slice (its lane values and the max they were computed
//   against) into the row buffer (smx_row_buffer: a slice FIFO and a summary FIFO of
//   2 * ceil(MaxLen/Vec) entries each, block RAM) and, at the row's end, a summary (d, final
//   max, slice count, error); the normalization unit drains a row once its summary is there,
//   while the unnormed unit fills the next: back-to-back rows stream at Vec elements per cycle
//   without bubbles. One structure for both number formats, so that the area ratios of the
//   paper compare like with like:
//     Fp16 = 0  softermax_unnormed / softermax_norm: Q(InWidth-InFrac, InFrac) scores in,
//               u Q(1,15), integer max, d Q(10,SumFrac), y Q(1,7) out
//     Fp16 = 1  softermax_fp16_unnormed / softermax_fp16_norm: fp16 in, e, max and d fp16,
//               y fp16 out (InWidth, InFrac, RecipSegBits and SumFrac unused)
//   Output slicing equals input slicing (beats of Vec elements, the last one partial).
//   Malformed rows give one beat {cnt 0, last 1, err 1, y 0}.
// Parameters:
//   Fp16          the number format (above), 0 or 1
//   Vec, MaxLen   lanes and longest legal row
//   InWidth, InFrac, RecipSegBits, SumFrac  Softermax's formats (softermax has the ranges)
//   (derived: XW, YW, MW, DW, the bits of an input lane, an output lane, a max and a power
//   sum: InWidth, 8, InWidth - InFrac + 1 and 10 + SumFrac for Softermax, 16 for fp16)
// Interfaces (valid/ready; a beat moves on valid && ready; valid and data hold until taken):
//   in : in_x_i (Vec x XW, lane j at [j*XW +: XW]), in_cnt_i, in_last_i
//   out: out_y_o (Vec x YW, 0 in lanes >= cnt), out_cnt_o, out_last_o, out_err_o
module smx_stream #(
  parameter integer Fp16         = 0,
  parameter integer Vec          = 16,
  parameter integer MaxLen       = 384,
  parameter integer InWidth      = 8,
  parameter integer InFrac       = 2,
  parameter integer RecipSegBits = 2,
  parameter integer SumFrac      = 6,
  // derived, do not override
  parameter integer XW   = (Fp16 != 0) ? 16 : InWidth,
  parameter integer YW   = (Fp16 != 0) ? 16 : 8,
  parameter integer MW   = (Fp16 != 0) ? 16 : InWidth - InFrac + 1,
  parameter integer DW   = (Fp16 != 0) ? 16 : 10 + SumFrac,
  parameter integer CntW = $clog2(Vec + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              in_valid_i,
  output wire              in_ready_o,
  input  wire [Vec*XW-1:0] in_x_i,
  input  wire [CntW-1:0]   in_cnt_i,
  input  wire              in_last_i,
  output wire              out_valid_o,
  input  wire              out_ready_i,
  output wire [Vec*YW-1:0] out_y_o,
  output wire [CntW-1:0]   out_cnt_o,
  output wire              out_last_o,
  output wire              out_err_o
);
  `include "smx_consts.vh"

  localparam integer UW        = SmxUBits;  // one lane of a slice (u Q(1,15) or e fp16)
  localparam integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec;
  localparam integer SliceW    = $clog2(MaxSlices + 1);
  localparam integer InW       = Vec * XW + CntW + 1;
  localparam integer SlcW      = Vec * UW + MW + CntW;
  localparam integer SumW      = DW + MW + SliceW + 1;
  localparam integer OutW      = Vec * YW + CntW + 2;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Fp16 < 0 || Fp16 > 1) begin : gen_check_fp16
      `CC_PARAM_FAIL(smx_stream__Fp16_must_be_0_or_1)
    end
    if ((Fp16 != 0 && (XW != Smx16Bits || YW != Smx16Bits || MW != Smx16Bits ||
                       DW != Smx16Bits)) ||
        (Fp16 == 0 && (XW != InWidth || YW != SmxYBits || MW != InWidth - InFrac + 1 ||
                       DW != SmxDInt + SumFrac)) ||
        CntW != $clog2(Vec + 1)) begin : gen_check_derived
      `CC_PARAM_FAIL(smx_stream__XW_YW_MW_DW_CntW_are_derived_and_must_not_be_set)
    end
  endgenerate

  // ---------------------------------------------------------------- input register
  wire              s_valid, s_ready;
  wire [Vec*XW-1:0] s_x;
  wire [CntW-1:0]   s_cnt;
  wire              s_last;

  // (its cc_hold_check checks the input port's hold rule)
  cc_skid_buffer #(.Width(InW)) u_in_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .in_data_i  ({in_x_i, in_cnt_i, in_last_i}),
    .out_valid_o(s_valid),
    .out_ready_i(s_ready),
    .out_data_o ({s_x, s_cnt, s_last})
  );

  // ---------------------------------------------------------------- the format's units
  // unnormed unit out, row buffer in
  wire              un_valid, un_ready;
  wire [Vec*UW-1:0] un_u;
  wire [MW-1:0]     un_m;
  wire [CntW-1:0]   un_cnt;
  wire              un_last, un_store, un_err;
  wire [DW-1:0]     un_d;
  wire [SliceW-1:0] un_nslices;
  // row buffer out, normalization unit in
  wire              slc_valid, slc_ready;
  wire [Vec*UW-1:0] slc_u;
  wire [MW-1:0]     slc_m;
  wire [CntW-1:0]   slc_cnt;
  wire              sum_valid, sum_ready;
  wire [DW-1:0]     sum_d;
  wire [MW-1:0]     sum_m;
  wire [SliceW-1:0] sum_nslices;
  wire              sum_err;
  // normalization unit out
  wire              n_valid, n_ready;
  wire [Vec*YW-1:0] n_y;
  wire [CntW-1:0]   n_cnt;
  wire              n_last, n_err;

  generate
    if (Fp16 == 0) begin : gen_smx
      softermax_unnormed #(
        .Vec(Vec), .MaxLen(MaxLen), .InWidth(InWidth), .InFrac(InFrac), .SumFrac(SumFrac)
      ) u_unnormed (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .in_valid_i   (s_valid),
        .in_ready_o   (s_ready),
        .in_x_i       (s_x),
        .in_cnt_i     (s_cnt),
        .in_last_i    (s_last),
        .out_valid_o  (un_valid),
        .out_ready_i  (un_ready),
        .out_u_o      (un_u),
        .out_m_o      (un_m),
        .out_cnt_o    (un_cnt),
        .out_last_o   (un_last),
        .out_store_o  (un_store),
        .out_d_o      (un_d),
        .out_nslices_o(un_nslices),
        .out_err_o    (un_err)
      );
      softermax_norm #(
        .Vec(Vec), .MaxLen(MaxLen), .InWidth(InWidth), .InFrac(InFrac),
        .RecipSegBits(RecipSegBits), .SumFrac(SumFrac)
      ) u_norm (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .slc_valid_i  (slc_valid),
        .slc_ready_o  (slc_ready),
        .slc_u_i      (slc_u),
        .slc_m_i      (slc_m),
        .slc_cnt_i    (slc_cnt),
        .sum_valid_i  (sum_valid),
        .sum_ready_o  (sum_ready),
        .sum_d_i      (sum_d),
        .sum_m_i      (sum_m),
        .sum_nslices_i(sum_nslices),
        .sum_err_i    (sum_err),
        .out_valid_o  (n_valid),
        .out_ready_i  (n_ready),
        .out_y_o      (n_y),
        .out_cnt_o    (n_cnt),
        .out_last_o   (n_last),
        .out_err_o    (n_err)
      );
    end else begin : gen_fp16
      softermax_fp16_unnormed #(.Vec(Vec), .MaxLen(MaxLen)) u_unnormed (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .in_valid_i   (s_valid),
        .in_ready_o   (s_ready),
        .in_x_i       (s_x),
        .in_cnt_i     (s_cnt),
        .in_last_i    (s_last),
        .out_valid_o  (un_valid),
        .out_ready_i  (un_ready),
        .out_e_o      (un_u),
        .out_m_o      (un_m),
        .out_cnt_o    (un_cnt),
        .out_last_o   (un_last),
        .out_store_o  (un_store),
        .out_d_o      (un_d),
        .out_nslices_o(un_nslices),
        .out_err_o    (un_err)
      );
      softermax_fp16_norm #(.Vec(Vec), .MaxLen(MaxLen)) u_norm (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .slc_valid_i  (slc_valid),
        .slc_ready_o  (slc_ready),
        .slc_e_i      (slc_u),
        .slc_m_i      (slc_m),
        .slc_cnt_i    (slc_cnt),
        .sum_valid_i  (sum_valid),
        .sum_ready_o  (sum_ready),
        .sum_d_i      (sum_d),
        .sum_m_i      (sum_m),
        .sum_nslices_i(sum_nslices),
        .sum_err_i    (sum_err),
        .out_valid_o  (n_valid),
        .out_ready_i  (n_ready),
        .out_y_o      (n_y),
        .out_cnt_o    (n_cnt),
        .out_last_o   (n_last),
        .out_err_o    (n_err)
      );
    end
  endgenerate

  // ---------------------------------------------------------------- row buffer
  smx_row_buffer #(.SlcW(SlcW), .SumW(SumW), .Depth(2 * MaxSlices)) u_row_buffer (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (un_valid),
    .in_ready_o (un_ready),
    .in_store_i (un_store),
    .in_last_i  (un_last),
    .in_slc_i   ({un_u, un_m, un_cnt}),
    .in_sum_i   ({un_d, un_m, un_nslices, un_err}),
    .slc_valid_o(slc_valid),
    .slc_ready_i(slc_ready),
    .slc_o      ({slc_u, slc_m, slc_cnt}),
    .sum_valid_o(sum_valid),
    .sum_ready_i(sum_ready),
    .sum_o      ({sum_d, sum_m, sum_nslices, sum_err})
  );

  // ---------------------------------------------------------------- output register
  cc_skid_buffer #(.Width(OutW)) u_out_skid (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (n_valid),
    .in_ready_o (n_ready),
    .in_data_i  ({n_y, n_cnt, n_last, n_err}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o ({out_y_o, out_cnt_o, out_last_o, out_err_o})
  );
endmodule
`default_nettype wire
