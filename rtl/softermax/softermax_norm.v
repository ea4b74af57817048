`default_nettype none
// softermax_norm -- Softermax Normalization unit (dissertation Fig. 5.3b, Sec. 5.3.2).
//
// Purpose: for each stored slice of a row, renormalizes the unnormed values to the row's
//   final max by a right shift (the max is an integer, so 2^(m_j - m) is a shift) and
//   multiplies by the reciprocal of the power sum: y = (u >> (m - m_j)) * rq * 2^(lz - 24),
//   rounded half up and saturated to Q(1,7).
//   It waits for the row's summary (d, final m, slice count, error) and then consumes one
//   slice per cycle:
//     N0  renormalize shift per lane; reciprocal of d (one LPW unit, shared by all lanes)
//     N1  integer multiply per lane
//     N2  scale by 2^(lz-24), round, saturate; error rows collapse to one error beat
//   Rows flagged malformed produce a single beat {cnt 0, last 1, err 1, y 0}; their stored
//   slices are consumed and dropped. Lanes >= cnt give y = 0 whatever u they carry.
//   A summary must say nslices >= 1 (softermax_unnormed always does: every row keeps its
//   first slice); a summary of 0 slices is not a legal input.
// Parameters:
//   Vec           lanes; MaxLen longest row (sets the slice counter width)
//   InWidth/InFrac input format (sets the max width, InWidth - InFrac + 1)
//   RecipSegBits  log2 of reciprocal LPW segments (default 2: 4 segments)
//   SumFrac       power-sum fraction bits (6..13; paper: 6)
module softermax_norm #(
  parameter integer Vec          = 16,
  parameter integer MaxLen       = 384,
  parameter integer InWidth      = 8,
  parameter integer InFrac       = 2,
  parameter integer RecipSegBits = 2,
  parameter integer SumFrac      = 6,
  // derived, do not override
  parameter integer DWidth    = 10 + SumFrac,
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MWidth    = InWidth - InFrac + 1,
  parameter integer MaxSlices = (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // stored slices, in row order
  input  wire                slc_valid_i,
  output wire                slc_ready_o,
  input  wire [Vec*16-1:0]   slc_u_i,
  input  wire [MWidth-1:0]   slc_m_i,
  input  wire [CntW-1:0]     slc_cnt_i,
  // row summaries, one per row
  input  wire                sum_valid_i,
  output wire                sum_ready_o,
  input  wire [DWidth-1:0]   sum_d_i,
  input  wire [MWidth-1:0]   sum_m_i,
  input  wire [SliceW-1:0]   sum_nslices_i,
  input  wire                sum_err_i,
  // probabilities
  output wire                out_valid_o,
  input  wire                out_ready_i,
  output wire [Vec*8-1:0]    out_y_o,      // Q(1,7) per lane
  output wire [CntW-1:0]     out_cnt_o,
  output wire                out_last_o,
  output wire                out_err_o
);
  reg  v1_q, v2_q, v3_q;
  reg  drop3_q;
  wire adv3 = !v3_q || drop3_q || out_ready_i;
  wire adv2 = !v2_q || adv3;
  wire adv1 = !v1_q || adv2;

  // Simulation-only checks of the producers' side of the input contracts.
  cc_hold_check #(.Width(Vec * 16 + MWidth + CntW)) u_slc_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (slc_valid_i),
    .ready_i  (slc_ready_o),
    .data_i   ({slc_u_i, slc_m_i, slc_cnt_i}),
    .release_i(1'b0)
  );
  cc_hold_check #(.Width(DWidth + MWidth + SliceW + 1)) u_sum_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (sum_valid_i),
    .ready_i  (sum_ready_o),
    .data_i   ({sum_d_i, sum_m_i, sum_nslices_i, sum_err_i}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- N0
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

  // m_row - m_slice at 32 bits: >= 0 for legal rows; a negative difference only arises in
  // error rows (their output is 0)
  wire [31:0] mdiff = {{(32 - MWidth){sum_m_i[MWidth-1]}}, sum_m_i} -
                      {{(32 - MWidth){slc_m_i[MWidth-1]}}, slc_m_i};
  wire        big   = mdiff[31] || (mdiff >= 32'd16);
  wire [3:0]  shamt = mdiff[3:0];

  localparam integer LzW = $clog2(DWidth);
  wire [7:0]     rq;
  wire [LzW-1:0] lz;
  softermax_recip #(.RecipSegBits(RecipSegBits), .SumFrac(SumFrac)) u_recip (
    .d_i (sum_d_i),
    .rq_o(rq),
    .lz_o(lz)
  );

  reg [Vec*16-1:0] us1_q;
  reg [7:0]        rq1_q;
  reg [LzW-1:0]    lz1_q;
  reg [CntW-1:0]   cnt1_q;
  reg              last1_q, err1_q;
  integer j;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v1_q <= 1'b0;
    else if (adv1) v1_q <= slc_valid_i && sum_valid_i;
  end

  always @(posedge clk_i) begin
    if (take1) begin
      for (j = 0; j < Vec; j = j + 1)
        us1_q[j*16 +: 16] <= big ? 16'd0 : (slc_u_i[j*16 +: 16] >> shamt);
      rq1_q   <= rq;
      lz1_q   <= lz;
      cnt1_q  <= slc_cnt_i;
      last1_q <= row_end;
      err1_q  <= sum_err_i;
    end
  end

  // ---------------------------------------------------------------- N1: multiply
  reg [Vec*24-1:0] p2_q;
  reg [LzW-1:0]    lz2_q;
  reg [CntW-1:0]   cnt2_q;
  reg              last2_q, err2_q;
  wire             take2 = v1_q && adv2;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2_q <= 1'b0;
    else if (adv2) v2_q <= v1_q;
  end

  always @(posedge clk_i) begin
    if (take2) begin
      for (j = 0; j < Vec; j = j + 1)
        p2_q[j*24 +: 24] <= us1_q[j*16 +: 16] * rq1_q;
      lz2_q   <= lz1_q;
      cnt2_q  <= cnt1_q;
      last2_q <= last1_q;
      err2_q  <= err1_q;
    end
  end

  // ---------------------------------------------------------------- N2: scale, round
  // y = round_half_up(p / 2^(24 - lz)) = ((p >> (23 - lz)) + 1) >> 1, saturated to 8 bits
  // (lz <= DWidth - 1 <= 22, so the shift is at least 1)
  wire [4:0]   rshift = 5'd23 - {{(5 - LzW){1'b0}}, lz2_q};
  reg  [Vec*8-1:0] y_lane;
  reg  [23:0]  q;
  reg  [23:0]  y_full;
  always @* begin
    for (j = 0; j < Vec; j = j + 1) begin
      q = p2_q[j*24 +: 24] >> rshift;
      y_full = {1'b0, q[23:1]} + {23'd0, q[0]};
      y_lane[j*8 +: 8] = (|y_full[23:8]) ? 8'hFF : y_full[7:0];
    end
  end

  reg [Vec*8-1:0] y3_q;
  reg [CntW-1:0]  cnt3_q;
  reg             last3_q, err3_q;
  wire            take3 = v2_q && adv3;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v3_q    <= 1'b0;
      drop3_q <= 1'b0;
    end else if (adv3) begin
      v3_q    <= v2_q;
      drop3_q <= v2_q && err2_q && !last2_q;
    end
  end

  // lanes at and above cnt are forced to 0
  reg [Vec*8-1:0] y_masked;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      y_masked[j*8 +: 8] = (j < cnt2_q) ? y_lane[j*8 +: 8] : 8'd0;
  end

  always @(posedge clk_i) begin
    if (take3) begin
      y3_q    <= err2_q ? {(Vec * 8){1'b0}} : y_masked;
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
