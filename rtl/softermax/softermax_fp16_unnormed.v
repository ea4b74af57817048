`default_nettype none
// softermax_fp16_unnormed -- unnormed-softmax unit of the fp16 baseline (the conventional
//   counterpart of softermax_unnormed for the area comparison, docs/softermax.md).
//
// Purpose: takes a row of fp16 scores as slices of Vec elements per cycle and produces, per
//   slice, e_j = exp(x_j - m) against the running max m of the row so far, together with that
//   m; and the running denominator d (fp16) renormalized online to the row's current max:
//     S1  local max: fp_cmp MAX tree over the valid lanes (lanes >= cnt count as -inf); row
//         bookkeeping and error checks (same rules as softermax_unnormed)
//     S2  m_new = max(m_old, local max) (m_old = -inf on a row's first slice); m_sub = m_new,
//         or +0 when m_new = -inf (so an all -inf prefix gives e = 0 instead of -inf - -inf =
//         NaN); x_j - m_sub per lane and m_old - m_sub (fp_add, subtract)
//     S3  softermax_fp16_exp per lane (lanes >= cnt give +0) and for the max difference
//     S4  slice sum: fp_add tree in the fixed order of softermax_fp16_tree
//     S5  d = d_old * exp(m_old - m_sub) + sum (fp_mul, then fp_add: two roundings);
//         d_old = +0 on a row's first slice
//   Every float operation is IEEE binary16, round to nearest even (the fp_* units at Latency 0;
//   these stage registers give the timing). One slice per cycle, back-to-back rows without
//   bubbles; the stages advance like softermax_unnormed's (a stage moves when the next one
//   can take it).
//   Malformed input (cnt 0 or > Vec, cnt < Vec before the last beat, row > MaxLen elements)
//   flags the row (out_err_o on its last slice); slices past MaxLen/Vec are not marked for
//   storage (out_store_o = 0) so a downstream row buffer never overflows.
// Parameters:
//   Vec     lanes (elements per cycle); paper: 16, 32
//   MaxLen  longest legal row in elements; paper workload: 384
// Interfaces: in_* and out_* are valid/ready streams (docs/softermax.md has the contract).
module softermax_fp16_unnormed #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // input slices
  input  wire              in_valid_i,
  output wire              in_ready_o,
  input  wire [Vec*16-1:0] in_x_i,        // fp16, lane j in bits [j*16 +: 16]
  input  wire [CntW-1:0]   in_cnt_i,      // valid lanes 0..cnt-1
  input  wire              in_last_i,     // last slice of the row
  // output slices
  output wire              out_valid_o,
  input  wire              out_ready_i,
  output wire [Vec*16-1:0] out_e_o,       // fp16 exp(x_j - m) per lane, +0 in unused lanes
  output wire [15:0]       out_m_o,       // fp16 running max the slice was computed against
  output wire [CntW-1:0]   out_cnt_o,     // valid lanes (clamped to Vec)
  output wire              out_last_o,
  output wire              out_store_o,   // slice is within MaxLen: keep it
  output wire [15:0]       out_d_o,       // fp16 running denominator after this slice
  output wire [SliceW-1:0] out_nslices_o, // slices of the row kept so far
  output wire              out_err_o      // row malformed so far
);
  localparam [15:0]       NegInf = 16'hFC00;
  localparam [15:0]       PosZero = 16'h0000;

  // ---------------------------------------------------------------- handshake
  reg  v1_q, v2_q, v3_q, v4_q, v5_q;
  wire adv5 = !v5_q || out_ready_i;
  wire adv4 = !v4_q || adv5;
  wire adv3 = !v3_q || adv4;
  wire adv2 = !v2_q || adv3;
  wire adv1 = !v1_q || adv2;
  assign in_ready_o = adv1;
  wire take1 = in_valid_i && adv1;
  wire take2 = v1_q && adv2;
  wire take3 = v2_q && adv3;
  wire take4 = v3_q && adv4;
  wire take5 = v4_q && adv5;

  // Simulation-only check of the producer's side of the input contract.
  cc_hold_check #(.Width(Vec * 16 + CntW + 1)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   ({in_x_i, in_cnt_i, in_last_i}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- S1: local max, bookkeeping
  wire [CntW-1:0]   lanes;
  wire              row_first, err_new, store_new;
  wire [SliceW-1:0] nst_new;
  softermax_row_track #(.Vec(Vec), .MaxLen(MaxLen)) u_row_track (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .take_i (take1),
    .cnt_i  (in_cnt_i),
    .last_i (in_last_i),
    .lanes_o(lanes),
    .first_o(row_first),
    .err_o  (err_new),
    .store_o(store_new),
    .nst_o  (nst_new)
  );

  // lanes at and above cnt enter the max tree as -inf (the identity of max)
  reg [Vec*16-1:0] x_masked;
  integer j;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      x_masked[j*16 +: 16] = (j < lanes) ? in_x_i[j*16 +: 16] : NegInf;
  end

  wire [15:0] lmax;
  softermax_fp16_tree #(.N(Vec), .Op(0)) u_max_tree (
    .in_i (x_masked),
    .out_o(lmax)
  );

  reg [Vec*16-1:0] x1_q;
  reg [CntW-1:0]   cnt1_q;
  reg              last1_q, first1_q, store1_q, err1_q;
  reg [SliceW-1:0] nst1_q;
  reg [15:0]       lmax1_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1_q <= 1'b0;
    else if (adv1) v1_q <= in_valid_i;
  end

  always @(posedge clk_i) begin
    if (take1) begin
      x1_q     <= in_x_i;
      cnt1_q   <= lanes;
      last1_q  <= in_last_i;
      first1_q <= row_first;
      store1_q <= store_new;
      err1_q   <= err_new;
      nst1_q   <= nst_new;
      lmax1_q  <= lmax;
    end
  end

  // ---------------------------------------------------------------- S2: running max, x - m
  reg  [15:0] mrun_q;
  wire [15:0] m_old = first1_q ? NegInf : mrun_q;
  wire [15:0] m_new;
  wire        unused_max_rdy, unused_max_vld;
  wire [4:0]  unused_max_flags;
  fp_cmp #(.ExpW(5), .ManW(10), .Latency(0)) u_run_max (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_max_rdy),
    .a_i        (m_old),
    .b_i        (lmax1_q),
    .op_i       (3'd4),
    .out_valid_o(unused_max_vld),
    .out_ready_i(1'b1),
    .result_o   (m_new),
    .flags_o    (unused_max_flags)
  );
  wire [15:0] m_sub = (m_new == NegInf) ? PosZero : m_new;

  // Lane differences and the max difference: fp_add instances with sub_i = 1. Lane Vec is the
  // max difference m_old - m_sub.
  wire [(Vec+1)*16-1:0] sub_a = {m_old, x1_q};
  wire [(Vec+1)*16-1:0] diff;
  genvar g;
  generate
    for (g = 0; g <= Vec; g = g + 1) begin : gen_sub
      wire       unused_rdy, unused_vld;
      wire [4:0] unused_flags;
      fp_add #(.ExpW(5), .ManW(10), .Latency(0)) u_sub (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (sub_a[g*16 +: 16]),
        .b_i        (m_sub),
        .sub_i      (1'b1),
        .rm_i       (3'd0),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (diff[g*16 +: 16]),
        .flags_o    (unused_flags)
      );
    end
  endgenerate

  reg [(Vec+1)*16-1:0] diff2_q;
  reg [CntW-1:0]       cnt2_q;
  reg                  last2_q, first2_q, store2_q, err2_q;
  reg [SliceW-1:0]     nst2_q;
  reg [15:0]           m2_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2_q <= 1'b0;
    else if (adv2) v2_q <= v1_q;
  end

  always @(posedge clk_i) begin
    if (take2) begin
      mrun_q   <= m_new;
      diff2_q  <= diff;
      cnt2_q   <= cnt1_q;
      last2_q  <= last1_q;
      first2_q <= first1_q;
      store2_q <= store1_q;
      err2_q   <= err1_q;
      nst2_q   <= nst1_q;
      m2_q     <= m_new;
    end
  end

  // ---------------------------------------------------------------- S3: exponentials
  wire [(Vec+1)*16-1:0] ex;
  generate
    for (g = 0; g <= Vec; g = g + 1) begin : gen_exp
      softermax_fp16_exp u_exp (
        .x_i(diff2_q[g*16 +: 16]),
        .y_o(ex[g*16 +: 16])
      );
    end
  endgenerate

  // lanes at and above cnt are +0 (the identity of the sum)
  reg [Vec*16-1:0] e_lane;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      e_lane[j*16 +: 16] = (j < cnt2_q) ? ex[j*16 +: 16] : PosZero;
  end

  reg [Vec*16-1:0] e3_q;
  reg [15:0]       scale3_q;
  reg [CntW-1:0]   cnt3_q;
  reg              last3_q, first3_q, store3_q, err3_q;
  reg [SliceW-1:0] nst3_q;
  reg [15:0]       m3_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v3_q <= 1'b0;
    else if (adv3) v3_q <= v2_q;
  end

  always @(posedge clk_i) begin
    if (take3) begin
      e3_q     <= e_lane;
      scale3_q <= ex[Vec*16 +: 16];
      cnt3_q   <= cnt2_q;
      last3_q  <= last2_q;
      first3_q <= first2_q;
      store3_q <= store2_q;
      err3_q   <= err2_q;
      nst3_q   <= nst2_q;
      m3_q     <= m2_q;
    end
  end

  // ---------------------------------------------------------------- S4: slice sum
  wire [15:0] lsum;
  softermax_fp16_tree #(.N(Vec), .Op(1)) u_sum_tree (
    .in_i (e3_q),
    .out_o(lsum)
  );

  reg [Vec*16-1:0] e4_q;
  reg [15:0]       sum4_q, scale4_q;
  reg [CntW-1:0]   cnt4_q;
  reg              last4_q, first4_q, store4_q, err4_q;
  reg [SliceW-1:0] nst4_q;
  reg [15:0]       m4_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v4_q <= 1'b0;
    else if (adv4) v4_q <= v3_q;
  end

  always @(posedge clk_i) begin
    if (take4) begin
      e4_q     <= e3_q;
      sum4_q   <= lsum;
      scale4_q <= scale3_q;
      cnt4_q   <= cnt3_q;
      last4_q  <= last3_q;
      first4_q <= first3_q;
      store4_q <= store3_q;
      err4_q   <= err3_q;
      nst4_q   <= nst3_q;
      m4_q     <= m3_q;
    end
  end

  // ---------------------------------------------------------------- S5: running denominator
  reg  [15:0] drun_q;
  wire [15:0] d_old = first4_q ? PosZero : drun_q;
  wire [15:0] d_scaled, d_new;
  wire        unused_mul_rdy, unused_mul_vld, unused_add_rdy, unused_add_vld;
  wire [4:0]  unused_mul_flags, unused_add_flags;
  fp_mul #(.ExpW(5), .ManW(10), .Latency(0)) u_d_mul (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_mul_rdy),
    .a_i        (d_old),
    .b_i        (scale4_q),
    .rm_i       (3'd0),
    .out_valid_o(unused_mul_vld),
    .out_ready_i(1'b1),
    .result_o   (d_scaled),
    .flags_o    (unused_mul_flags)
  );
  fp_add #(.ExpW(5), .ManW(10), .Latency(0)) u_d_add (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_add_rdy),
    .a_i        (d_scaled),
    .b_i        (sum4_q),
    .sub_i      (1'b0),
    .rm_i       (3'd0),
    .out_valid_o(unused_add_vld),
    .out_ready_i(1'b1),
    .result_o   (d_new),
    .flags_o    (unused_add_flags)
  );

  reg [Vec*16-1:0] e5_q;
  reg [CntW-1:0]   cnt5_q;
  reg              last5_q, store5_q, err5_q;
  reg [SliceW-1:0] nst5_q;
  reg [15:0]       m5_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v5_q <= 1'b0;
    else if (adv5) v5_q <= v4_q;
  end

  always @(posedge clk_i) begin
    if (take5) begin
      drun_q   <= d_new;
      e5_q     <= e4_q;
      cnt5_q   <= cnt4_q;
      last5_q  <= last4_q;
      store5_q <= store4_q;
      err5_q   <= err4_q;
      nst5_q   <= nst4_q;
      m5_q     <= m4_q;
    end
  end

  assign out_valid_o   = v5_q;
  assign out_e_o       = e5_q;
  assign out_m_o       = m5_q;
  assign out_cnt_o     = cnt5_q;
  assign out_last_o    = last5_q;
  assign out_store_o   = store5_q;
  assign out_d_o       = drun_q;
  assign out_nslices_o = nst5_q;
  assign out_err_o     = err5_q;

endmodule
`default_nettype wire
