`default_nettype none
// softermax_fp16_baseline -- fp16 softmax baseline top: a row of fp16 scores in, its base-e
//   softmax probabilities (fp16) out. The conventional unit the Softermax area ratios compare
//   against (the paper's DesignWare fp16 baseline; docs/softermax.md, "fp16 baseline").
//
// Purpose: skid buffer -> softermax_fp16_unnormed -> row buffer -> softermax_fp16_norm -> skid
//   buffer: the same structure as the Softermax top (softermax), with fp16 max, exp, accumulate
//   and divide in place of the integer max, power of two, fixed-point sum and reciprocal.
//   The unnormed unit writes each slice (e values and the max they were computed against) into
//   a slice FIFO and, at the row's end, a summary (d, final max, slice count, error) into a
//   summary FIFO; the normalization unit drains a row once its summary is there. Both FIFOs
//   hold 2 * ceil(MaxLen/Vec) entries so the unnormed unit fills row r+1 while row r is
//   normalized: back-to-back rows stream at Vec elements per cycle without bubbles. Both FIFOs
//   are SRAM-backed (cc_fifo_sram) and map to block RAM.
//   Output slicing equals input slicing (beats of Vec elements, the last one partial).
//   Malformed rows (see softermax_fp16_unnormed) give one beat {cnt 0, last 1, err 1, y 0}.
// Parameters:
//   Vec     lanes (elements per cycle); paper: 16, 32
//   MaxLen  longest legal row in elements; paper workload: 384; sets the row buffer
// Interfaces (valid/ready; a beat moves on valid && ready; valid and data hold until taken):
//   in : in_x_i (Vec x fp16, lane j at [j*16 +: 16]), in_cnt_i, in_last_i
//   out: out_y_o (Vec x fp16, +0 in lanes >= cnt), out_cnt_o, out_last_o, out_err_o
module softermax_fp16_baseline #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  // derived, do not override
  parameter integer CntW = $clog2(Vec + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              in_valid_i,
  output wire              in_ready_o,
  input  wire [Vec*16-1:0] in_x_i,
  input  wire [CntW-1:0]   in_cnt_i,
  input  wire              in_last_i,
  output wire              out_valid_o,
  input  wire              out_ready_i,
  output wire [Vec*16-1:0] out_y_o,
  output wire [CntW-1:0]   out_cnt_o,
  output wire              out_last_o,
  output wire              out_err_o
);
  localparam integer MaxSlices = (MaxLen + Vec - 1) / Vec;
  localparam integer SliceW    = $clog2(MaxSlices + 1);
  localparam integer BufDepth  = 2 * MaxSlices;
  localparam integer InW       = Vec * 16 + CntW + 1;
  localparam integer SlcW      = Vec * 16 + 16 + CntW;
  localparam integer SumW      = 16 + 16 + SliceW + 1;
  localparam integer OutW      = Vec * 16 + CntW + 2;

  // ---------------------------------------------------------------- input register
  wire              s_valid, s_ready;
  wire [Vec*16-1:0] s_x;
  wire [CntW-1:0]   s_cnt;
  wire              s_last;

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

  // ---------------------------------------------------------------- unnormed unit
  wire              un_valid, un_ready;
  wire [Vec*16-1:0] un_e;
  wire [15:0]       un_m;
  wire [CntW-1:0]   un_cnt;
  wire              un_last, un_store, un_err;
  wire [15:0]       un_d;
  wire [SliceW-1:0] un_nslices;

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
    .out_e_o      (un_e),
    .out_m_o      (un_m),
    .out_cnt_o    (un_cnt),
    .out_last_o   (un_last),
    .out_store_o  (un_store),
    .out_d_o      (un_d),
    .out_nslices_o(un_nslices),
    .out_err_o    (un_err)
  );

  // The unnormed unit's output obeys the hold rule (checked here: the FIFO inputs below are
  // qualified by the handshake, so their own checks cannot see it).
  cc_hold_check #(.Width(Vec * 16 + 16 + CntW + 3 + 16 + SliceW)) u_un_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (un_valid),
    .ready_i  (un_ready),
    .data_i   ({un_e, un_m, un_cnt, un_last, un_store, un_err, un_d, un_nslices}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- row buffer
  // A slice moves only when both FIFOs can take it. The FIFO pushes are qualified by that
  // handshake (an internal deviation from "valid never depends on ready": the FIFOs' ready does
  // not depend on valid, so this is loop-free).
  wire slc_in_ready, sum_in_ready;
  assign un_ready = slc_in_ready && sum_in_ready;
  wire un_fire = un_valid && un_ready;

  wire              slc_valid, slc_ready;
  wire [Vec*16-1:0] slc_e;
  wire [15:0]       slc_m;
  wire [CntW-1:0]   slc_cnt;
  wire              sum_valid, sum_ready;
  wire [15:0]       sum_d, sum_m;
  wire [SliceW-1:0] sum_nslices;
  wire              sum_err;
  wire [$clog2(BufDepth+1)-1:0] slc_count, sum_count;
  wire unused_ok = &{1'b0, slc_count, sum_count};  // occupancy is for waveforms only

  cc_fifo_sram #(.Width(SlcW), .Depth(BufDepth)) u_slice_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (un_fire && un_store),
    .in_ready_o (slc_in_ready),
    .in_data_i  ({un_e, un_m, un_cnt}),
    .out_valid_o(slc_valid),
    .out_ready_i(slc_ready),
    .out_data_o ({slc_e, slc_m, slc_cnt}),
    .count_o    (slc_count)
  );

  cc_fifo_sram #(.Width(SumW), .Depth(BufDepth)) u_summary_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (un_fire && un_last),
    .in_ready_o (sum_in_ready),
    .in_data_i  ({un_d, un_m, un_nslices, un_err}),
    .out_valid_o(sum_valid),
    .out_ready_i(sum_ready),
    .out_data_o ({sum_d, sum_m, sum_nslices, sum_err}),
    .count_o    (sum_count)
  );

  // ---------------------------------------------------------------- normalization unit
  wire              n_valid, n_ready;
  wire [Vec*16-1:0] n_y;
  wire [CntW-1:0]   n_cnt;
  wire              n_last, n_err;

  softermax_fp16_norm #(.Vec(Vec), .MaxLen(MaxLen)) u_norm (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .slc_valid_i  (slc_valid),
    .slc_ready_o  (slc_ready),
    .slc_e_i      (slc_e),
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
  // The input hold rule is checked by u_in_skid (cc_hold_check).

endmodule
`default_nettype wire
