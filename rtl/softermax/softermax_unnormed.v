`default_nettype none
// softermax_unnormed -- Softermax Unnormed Softmax unit (dissertation Fig. 5.3a, Sec. 5.3.1).
//
// Purpose: takes a row of scores as slices of Vec elements per cycle and produces, per slice,
//   the unnormed values u_j = 2^(x_j - m) (Q(1,15)) computed against the running integer max m
//   of the row so far, together with that m; and, on the row's last slice, the power sum
//   d (Q(10,SumFrac), saturating) renormalized online to the row's final max.
//   Pipeline, one slice per cycle, back-to-back rows without bubbles:
//     S1  IntMax: ceil per lane, max over the valid lanes; row bookkeeping and error checks
//     S2  running max m_new = max(m, local max); shift = m_new - m (16 on a row's first slice)
//     S3  power of two per lane against m_new
//     S4  reduction tree; d = sat(round(d >> shift) + round_Q6(sum u))
//   Malformed input (cnt 0 or > Vec, cnt < Vec before the last beat, row > MaxLen elements)
//   flags the row (out_err_o on its last slice); slices past MaxLen/Vec are not marked for
//   storage (out_store_o = 0) so a downstream row buffer never overflows.
// Parameters:
//   Vec      lanes (elements per cycle); paper: 16, 32
//   MaxLen   longest legal row in elements; paper workload: 384
//   InWidth  input width; InFrac input fraction bits (default Q(6,2))
//   SumFrac  power-sum fraction bits, 6..13 (paper: Q(10,6)); d is 10 + SumFrac bits wide
// Interfaces: in_* and out_* are valid/ready streams (docs/softermax.md has the contract).
module softermax_unnormed #(
  parameter integer Vec     = 16,
  parameter integer MaxLen  = 384,
  parameter integer InWidth = 8,
  parameter integer InFrac  = 2,
  parameter integer SumFrac = 6,
  // derived, do not override
  parameter integer DWidth    = 10 + SumFrac,
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MWidth    = InWidth - InFrac + 1,
  parameter integer MaxSlices = (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // input slices
  input  wire                   in_valid_i,
  output wire                   in_ready_o,
  input  wire [Vec*InWidth-1:0] in_x_i,      // lane j in bits [j*InWidth +: InWidth]
  input  wire [CntW-1:0]        in_cnt_i,    // valid lanes 0..cnt-1
  input  wire                   in_last_i,   // last slice of the row
  // output slices
  output wire                   out_valid_o,
  input  wire                   out_ready_i,
  output wire [Vec*16-1:0]      out_u_o,     // Q(1,15) per lane, 0 in unused lanes
  output wire [MWidth-1:0]      out_m_o,     // integer max the slice was computed against
  output wire [CntW-1:0]        out_cnt_o,   // valid lanes (clamped to Vec)
  output wire                   out_last_o,
  output wire                   out_store_o, // slice is within MaxLen: keep it
  output wire [DWidth-1:0]      out_d_o,     // running power sum after this slice
  output wire [SliceW-1:0]      out_nslices_o, // slices of the row kept so far
  output wire                   out_err_o    // row malformed so far
);
  localparam integer SumW  = 16 + $clog2(Vec + 1);
  localparam integer ShW   = $clog2(DWidth + 1);     // shift amounts 0..DWidth
  localparam integer Drop  = 15 - SumFrac;           // fraction bits dropped from sum u
  localparam [MWidth-1:0] MMin = {1'b1, {(MWidth - 1){1'b0}}};  // below any ceil(x)

  // ---------------------------------------------------------------- handshake
  reg  v1_q, v2_q, v3_q, v4_q;
  wire adv4 = !v4_q || out_ready_i;
  wire adv3 = !v3_q || adv4;
  wire adv2 = !v2_q || adv3;
  wire adv1 = !v1_q || adv2;
  assign in_ready_o = adv1;
  wire take1 = in_valid_i && adv1;
  wire take2 = v1_q && adv2;
  wire take3 = v2_q && adv3;
  wire take4 = v3_q && adv4;

  // Simulation-only check of the producer's side of the input contract.
  cc_hold_check #(.Width(Vec * InWidth + CntW + 1)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   ({in_x_i, in_cnt_i, in_last_i}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- S1: IntMax, bookkeeping
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

  // ceil(x) per valid lane and the max over them; MMin when no lane is valid
  reg [MWidth-1:0] lmax;
  integer j;
  always @* begin
    lmax = MMin;
    for (j = 0; j < Vec; j = j + 1) begin
      if (j < lanes) begin
        if ($signed(smx_ceil(in_x_i[j*InWidth +: InWidth])) > $signed(lmax))
          lmax = smx_ceil(in_x_i[j*InWidth +: InWidth]);
      end
    end
  end

  // ceil(x / 2^InFrac) as an MWidth-bit signed integer: floor, plus one if any fraction bit
  function automatic [MWidth-1:0] smx_ceil(input [InWidth-1:0] x);
    smx_ceil = {x[InWidth-1], x[InWidth-1:InFrac]} +
               {{(MWidth - 1){1'b0}}, |x[InFrac-1:0]};
  endfunction

  reg [Vec*InWidth-1:0] x1_q;
  reg [CntW-1:0]        cnt1_q;
  reg                   last1_q, first1_q, store1_q, err1_q;
  reg [SliceW-1:0]      nst1_q;
  reg [MWidth-1:0]      lmax1_q;

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

  // ---------------------------------------------------------------- S2: running max
  reg  [MWidth-1:0] mrun_q;
  wire [MWidth-1:0] m_new = (first1_q || ($signed(lmax1_q) > $signed(mrun_q))) ? lmax1_q : mrun_q;
  // m_new - m_old (>= 0), at 32 bits so narrow max formats compare correctly against DWidth
  wire [31:0]       mdiff = {{(32 - MWidth){m_new[MWidth-1]}}, m_new} -
                            {{(32 - MWidth){mrun_q[MWidth-1]}}, mrun_q};
  localparam [ShW-1:0] ShAll = DWidth[ShW-1:0];  // shifts d out entirely
  wire [ShW-1:0]    shift_new = (first1_q || (mdiff >= DWidth)) ? ShAll : mdiff[ShW-1:0];

  reg [Vec*InWidth-1:0] x2_q;
  reg [CntW-1:0]        cnt2_q;
  reg                   last2_q, store2_q, err2_q;
  reg [SliceW-1:0]      nst2_q;
  reg [MWidth-1:0]      m2_q;
  reg [ShW-1:0]         shift2_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v2_q <= 1'b0;
    else if (adv2) v2_q <= v1_q;
  end

  always @(posedge clk_i) begin
    if (take2) begin
      mrun_q   <= m_new;
      x2_q     <= x1_q;
      cnt2_q   <= cnt1_q;
      last2_q  <= last1_q;
      store2_q <= store1_q;
      err2_q   <= err1_q;
      nst2_q   <= nst1_q;
      m2_q     <= m_new;
      shift2_q <= shift_new;
    end
  end

  // ---------------------------------------------------------------- S3: power of two
  wire [Vec*16-1:0] u_lane;
  genvar g;
  generate
    for (g = 0; g < Vec; g = g + 1) begin : gen_lane
      wire [15:0] u_raw;
      softermax_pow2 #(.InWidth(InWidth), .InFrac(InFrac)) u_pow2 (
        .x_i(x2_q[g*InWidth +: InWidth]),
        .m_i(m2_q),
        .u_o(u_raw)
      );
      assign u_lane[g*16 +: 16] = (g < cnt2_q) ? u_raw : 16'd0;
    end
  endgenerate

  reg [Vec*16-1:0] u3_q;
  reg [CntW-1:0]   cnt3_q;
  reg              last3_q, store3_q, err3_q;
  reg [SliceW-1:0] nst3_q;
  reg [MWidth-1:0] m3_q;
  reg [ShW-1:0]    shift3_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v3_q <= 1'b0;
    else if (adv3) v3_q <= v2_q;
  end

  always @(posedge clk_i) begin
    if (take3) begin
      u3_q     <= u_lane;
      cnt3_q   <= cnt2_q;
      last3_q  <= last2_q;
      store3_q <= store2_q;
      err3_q   <= err2_q;
      nst3_q   <= nst2_q;
      m3_q     <= m2_q;
      shift3_q <= shift2_q;
    end
  end

  // ---------------------------------------------------------------- S4: reduction, power sum
  reg [SumW-1:0] lsum;
  integer k;
  always @* begin
    lsum = {SumW{1'b0}};
    for (k = 0; k < Vec; k = k + 1) lsum = lsum + {{(SumW - 16){1'b0}}, u3_q[k*16 +: 16]};
  end

  // Renormalize d by the max increase, rounding half up: ((d >> (s-1)) + 1) >> 1; s = DWidth
  // (and a row's first slice) gives 0.
  reg  [DWidth-1:0] drun_q;
  wire [ShW-1:0]    sh_m1     = shift3_q - {{(ShW - 1){1'b0}}, 1'b1};
  wire [DWidth:0]   d_half    = {1'b0, drun_q >> sh_m1} + {{DWidth{1'b0}}, 1'b1};
  wire [DWidth-1:0] d_shifted = (shift3_q == ShAll) ? {DWidth{1'b0}} :
                                (shift3_q == {ShW{1'b0}}) ? drun_q : d_half[DWidth:1];
  // Q(.,15) -> Q(.,SumFrac): round half up (add 2^(Drop-1), drop Drop bits), then add and
  // saturate to DWidth bits. lsum + 2^(Drop-1) cannot overflow SumW bits (lsum <= Vec *
  // (2^16 - 1)), and the rounded sum has SumW - Drop < DWidth bits for Vec <= 64.
  localparam integer LsW = SumW - Drop;
  wire [SumW-1:0]   lsum_r = lsum + {{(SumW - Drop){1'b0}}, 1'b1, {(Drop - 1){1'b0}}};
  wire [LsW-1:0]    lsum_d = lsum_r[SumW-1:Drop];
  wire [DWidth:0]   d_sum  = {1'b0, d_shifted} + {{(DWidth + 1 - LsW){1'b0}}, lsum_d};
  wire [DWidth-1:0] d_new  = d_sum[DWidth] ? {DWidth{1'b1}} : d_sum[DWidth-1:0];

  reg [Vec*16-1:0] u4_q;
  reg [CntW-1:0]   cnt4_q;
  reg              last4_q, store4_q, err4_q;
  reg [SliceW-1:0] nst4_q;
  reg [MWidth-1:0] m4_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v4_q <= 1'b0;
    else if (adv4) v4_q <= v3_q;
  end

  always @(posedge clk_i) begin
    if (take4) begin
      drun_q   <= d_new;
      u4_q     <= u3_q;
      cnt4_q   <= cnt3_q;
      last4_q  <= last3_q;
      store4_q <= store3_q;
      err4_q   <= err3_q;
      nst4_q   <= nst3_q;
      m4_q     <= m3_q;
    end
  end

  assign out_valid_o   = v4_q;
  assign out_u_o       = u4_q;
  assign out_m_o       = m4_q;
  assign out_cnt_o     = cnt4_q;
  assign out_last_o    = last4_q;
  assign out_store_o   = store4_q;
  assign out_d_o       = drun_q;
  assign out_nslices_o = nst4_q;
  assign out_err_o     = err4_q;

  wire unused_ok = &{1'b0, lsum_r[Drop-1:0], d_half[0]};  // rounded-off fraction bits
endmodule
`default_nettype wire
