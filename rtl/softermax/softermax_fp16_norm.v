`default_nettype none
// softermax_fp16_norm -- normalization unit of the fp16 baseline (the conventional counterpart
//   of softermax_norm for the area comparison, docs/softermax.md).
//
// Purpose: for each stored slice of a row, renormalizes the values e_j = exp(x_j - m_slice) to
//   the row's final max and divides by the row's denominator:
//     y_j = (e_j * exp(m_slice - m_row)) / d
//   It waits for the row's summary (d, final m, slice count, error) and then consumes one
//   slice per cycle:
//     N0  m_slice - m_row (fp_add, subtract) and its exponential (softermax_fp16_exp), once per
//         slice and shared by the lanes
//     N1  e_j * scale per lane (fp_mul)
//     N2  / d per lane (fp_divsqrt, unrolled: Iterative = 0, one division per cycle); lanes
//         >= cnt give +0 whatever e they carry; error rows collapse to one error beat
//   Every float operation is IEEE binary16, round to nearest even (the fp_* units at Latency 0;
//   these stage registers give the timing). Rows flagged malformed produce a single beat
//   {cnt 0, last 1, err 1, y 0}; their stored slices are consumed and dropped.
//   A summary must say nslices >= 1 (softermax_fp16_unnormed always does).
// Parameters:
//   Vec     lanes; MaxLen longest row (sets the slice counter width)
module softermax_fp16_norm #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // stored slices, in row order
  input  wire              slc_valid_i,
  output wire              slc_ready_o,
  input  wire [Vec*16-1:0] slc_e_i,        // fp16 exp(x_j - m_slice)
  input  wire [15:0]       slc_m_i,        // fp16 max the slice was computed against
  input  wire [CntW-1:0]   slc_cnt_i,
  // row summaries, one per row
  input  wire              sum_valid_i,
  output wire              sum_ready_o,
  input  wire [15:0]       sum_d_i,        // fp16 denominator
  input  wire [15:0]       sum_m_i,        // fp16 final max of the row
  input  wire [SliceW-1:0] sum_nslices_i,
  input  wire              sum_err_i,
  // probabilities
  output wire              out_valid_o,
  input  wire              out_ready_i,
  output wire [Vec*16-1:0] out_y_o,        // fp16 per lane, +0 in lanes >= cnt
  output wire [CntW-1:0]   out_cnt_o,
  output wire              out_last_o,
  output wire              out_err_o
);
  reg  v1_q, v2_q, v3_q;
  reg  drop3_q;
  wire adv3 = !v3_q || drop3_q || out_ready_i;
  wire adv2 = !v2_q || adv3;
  wire adv1 = !v1_q || adv2;

  // Simulation-only checks of the producers' side of the input contracts.
  cc_hold_check #(.Width(Vec * 16 + 16 + CntW)) u_slc_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (slc_valid_i),
    .ready_i  (slc_ready_o),
    .data_i   ({slc_e_i, slc_m_i, slc_cnt_i}),
    .release_i(1'b0)
  );
  cc_hold_check #(.Width(16 + 16 + SliceW + 1)) u_sum_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (sum_valid_i),
    .ready_i  (sum_ready_o),
    .data_i   ({sum_d_i, sum_m_i, sum_nslices_i, sum_err_i}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- N0: exp(m_slice - m_row)
  reg  [SliceW-1:0] idx_q;  // slices of the current row already taken
  wire [SliceW-1:0] idx_inc = idx_q + {{(SliceW - 1){1'b0}}, 1'b1};
  wire              row_end = (idx_inc == sum_nslices_i);
  wire              take1   = slc_valid_i && sum_valid_i && adv1;
  assign slc_ready_o = sum_valid_i && adv1;
  assign sum_ready_o = take1 && row_end;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) idx_q <= {SliceW{1'b0}};
    else if (take1) idx_q <= row_end ? {SliceW{1'b0}} : idx_inc;
  end

  wire [15:0] mdiff, scale;
  wire        unused_sub_rdy, unused_sub_vld;
  wire [4:0]  unused_sub_flags;
  fp_add #(.ExpW(5), .ManW(10), .Latency(0)) u_mdiff (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_sub_rdy),
    .a_i        (slc_m_i),
    .b_i        (sum_m_i),
    .sub_i      (1'b1),
    .rm_i       (3'd0),
    .out_valid_o(unused_sub_vld),
    .out_ready_i(1'b1),
    .result_o   (mdiff),
    .flags_o    (unused_sub_flags)
  );
  softermax_fp16_exp u_scale_exp (
    .x_i(mdiff),
    .y_o(scale)
  );

  reg [Vec*16-1:0] e1_q;
  reg [15:0]       scale1_q, d1_q;
  reg [CntW-1:0]   cnt1_q;
  reg              last1_q, err1_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1_q <= 1'b0;
    else if (adv1) v1_q <= slc_valid_i && sum_valid_i;
  end

  always @(posedge clk_i) begin
    if (take1) begin
      e1_q     <= slc_e_i;
      scale1_q <= scale;
      d1_q     <= sum_d_i;
      cnt1_q   <= slc_cnt_i;
      last1_q  <= row_end;
      err1_q   <= sum_err_i;
    end
  end

  // ---------------------------------------------------------------- N1: multiply
  wire [Vec*16-1:0] prod;
  genvar g;
  generate
    for (g = 0; g < Vec; g = g + 1) begin : gen_mul
      wire       unused_rdy, unused_vld;
      wire [4:0] unused_flags;
      fp_mul #(.ExpW(5), .ManW(10), .Latency(0)) u_mul (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (e1_q[g*16 +: 16]),
        .b_i        (scale1_q),
        .rm_i       (3'd0),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (prod[g*16 +: 16]),
        .flags_o    (unused_flags)
      );
    end
  endgenerate

  reg [Vec*16-1:0] p2_q;
  reg [15:0]       d2_q;
  reg [CntW-1:0]   cnt2_q;
  reg              last2_q, err2_q;
  wire             take2 = v1_q && adv2;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2_q <= 1'b0;
    else if (adv2) v2_q <= v1_q;
  end

  always @(posedge clk_i) begin
    if (take2) begin
      p2_q    <= prod;
      d2_q    <= d1_q;
      cnt2_q  <= cnt1_q;
      last2_q <= last1_q;
      err2_q  <= err1_q;
    end
  end

  // ---------------------------------------------------------------- N2: divide
  wire [Vec*16-1:0] quo;
  generate
    for (g = 0; g < Vec; g = g + 1) begin : gen_div
      wire       unused_rdy, unused_vld;
      wire [4:0] unused_flags;
      fp_divsqrt #(.ExpW(5), .ManW(10), .Iterative(0), .Latency(0)) u_div (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (p2_q[g*16 +: 16]),
        .b_i        (d2_q),
        .op_i       (1'b0),
        .rm_i       (3'd0),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (quo[g*16 +: 16]),
        .flags_o    (unused_flags)
      );
    end
  endgenerate

  // lanes at and above cnt are forced to +0
  reg [Vec*16-1:0] y_masked;
  integer j;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      y_masked[j*16 +: 16] = (j < cnt2_q) ? quo[j*16 +: 16] : 16'h0000;
  end

  reg [Vec*16-1:0] y3_q;
  reg [CntW-1:0]   cnt3_q;
  reg              last3_q, err3_q;
  wire             take3 = v2_q && adv3;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v3_q    <= 1'b0;
      drop3_q <= 1'b0;
    end else if (adv3) begin
      v3_q    <= v2_q;
      drop3_q <= v2_q && err2_q && !last2_q;
    end
  end

  always @(posedge clk_i) begin
    if (take3) begin
      y3_q    <= err2_q ? {(Vec * 16){1'b0}} : y_masked;
      cnt3_q  <= err2_q ? {CntW{1'b0}} : cnt2_q;
      last3_q <= last2_q;
      err3_q  <= err2_q;
    end
  end

  assign out_valid_o = v3_q && !drop3_q;
  assign out_y_o     = y3_q;
  assign out_cnt_o   = cnt3_q;
  assign out_last_o  = last3_q;
  assign out_err_o   = err3_q;

endmodule
`default_nettype wire
