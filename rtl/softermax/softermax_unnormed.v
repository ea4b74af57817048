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
//   The row bookkeeping, the stage control and the fields that travel with each slice are
//   smx_unnormed_ctrl's (shared with the fp16 baseline's softermax_fp16_unnormed); this module
//   is the arithmetic.
//   Malformed input (cnt 0 or > Vec, cnt < Vec before the last beat, row > MaxLen elements)
//   flags the row (out_err_o on its last slice); slices past MaxLen/Vec are not marked for
//   storage (out_store_o = 0) so a downstream row buffer never overflows.
// Parameters:
//   Vec      lanes (elements per cycle), 1..64; paper: 16, 32
//   MaxLen   longest legal row in elements (>= 1); paper workload: 384
//   InWidth  input width, <= 16; InFrac input fraction bits, 2..InWidth-2 (default Q(6,2))
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
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
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
  `include "smx_consts.vh"

  localparam integer UW     = SmxUBits;                 // one lane of u, Q(1,15)
  localparam integer Stages = 4;
  localparam integer SumW   = UW + $clog2(Vec + 1);
  localparam integer ShW    = $clog2(DWidth + 1);       // shift amounts 0..DWidth
  localparam integer Drop   = SmxUFrac - SumFrac;       // fraction bits dropped from sum u
  localparam [MWidth-1:0] MMin = {1'b1, {(MWidth - 1){1'b0}}};  // below any ceil(x)

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (smx_param_check).
  smx_param_check #(
    .Vec(Vec), .MaxLen(MaxLen), .InWidth(InWidth), .InFrac(InFrac), .SumFrac(SumFrac),
    .CntW(CntW), .DWidth(DWidth), .MWidth(MWidth), .MaxSlices(MaxSlices), .SliceW(SliceW)
  ) u_param_check ();

  // ---------------------------------------------------------------- control
  wire [CntW-1:0]        lanes;
  wire [Stages-1:0]      take, first;
  wire [Stages*CntW-1:0] cnt;
  smx_unnormed_ctrl #(.Vec(Vec), .MaxLen(MaxLen), .XW(InWidth), .Stages(Stages)) u_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_valid_i   (in_valid_i),
    .in_ready_o   (in_ready_o),
    .in_x_i       (in_x_i),
    .in_cnt_i     (in_cnt_i),
    .in_last_i    (in_last_i),
    .out_valid_o  (out_valid_o),
    .out_ready_i  (out_ready_i),
    .out_cnt_o    (out_cnt_o),
    .out_last_o   (out_last_o),
    .out_store_o  (out_store_o),
    .out_nslices_o(out_nslices_o),
    .out_err_o    (out_err_o),
    .lanes_o      (lanes),
    .take_o       (take),
    .cnt_o        (cnt),
    .first_o      (first)
  );
  wire [CntW-1:0] cnt2 = cnt[1*CntW +: CntW];  // valid lanes of the slice in S2

  // ---------------------------------------------------------------- S1: IntMax
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
  reg [MWidth-1:0]      lmax1_q;

  always @(posedge clk_i) begin
    if (take[0]) begin
      x1_q    <= in_x_i;
      lmax1_q <= lmax;
    end
  end

  // ---------------------------------------------------------------- S2: running max
  reg  [MWidth-1:0] mrun_q;
  wire [MWidth-1:0] m_new = (first[0] || ($signed(lmax1_q) > $signed(mrun_q))) ? lmax1_q : mrun_q;
  // m_new - m_old, in [0, 2^MWidth - 1] on every slice but a row's first (m_new >= m_old), at
  // MdW bits: one more than the max, and at least ShW so that it compares against DWidth
  localparam integer MdW = (MWidth + 1 > ShW) ? MWidth + 1 : ShW;
  wire [MdW-1:0]    mdiff = {{(MdW - MWidth){m_new[MWidth-1]}}, m_new} -
                            {{(MdW - MWidth){mrun_q[MWidth-1]}}, mrun_q};
  localparam [ShW-1:0] ShAll  = DWidth[ShW-1:0];  // shifts d out entirely
  localparam [MdW-1:0] DWidthM = DWidth[MdW-1:0];
  wire [ShW-1:0]    shift_new = (first[0] || (mdiff >= DWidthM)) ? ShAll : mdiff[ShW-1:0];

  reg [Vec*InWidth-1:0] x2_q;
  reg [MWidth-1:0]      m2_q;
  reg [ShW-1:0]         shift2_q;

  always @(posedge clk_i) begin
    if (take[1]) begin
      mrun_q   <= m_new;
      x2_q     <= x1_q;
      m2_q     <= m_new;
      shift2_q <= shift_new;
    end
  end

  // ---------------------------------------------------------------- S3: power of two
  wire [Vec*UW-1:0] u_lane;
  genvar g;
  generate
    for (g = 0; g < Vec; g = g + 1) begin : gen_lane
      wire [UW-1:0] u_raw;
      softermax_pow2 #(.InWidth(InWidth), .InFrac(InFrac)) u_pow2 (
        .x_i(x2_q[g*InWidth +: InWidth]),
        .m_i(m2_q),
        .u_o(u_raw)
      );
      assign u_lane[g*UW +: UW] = (g < cnt2) ? u_raw : {UW{1'b0}};
    end
  endgenerate

  reg [Vec*UW-1:0] u3_q;
  reg [MWidth-1:0] m3_q;
  reg [ShW-1:0]    shift3_q;

  always @(posedge clk_i) begin
    if (take[2]) begin
      u3_q     <= u_lane;
      m3_q     <= m2_q;
      shift3_q <= shift2_q;
    end
  end

  // ---------------------------------------------------------------- S4: reduction, power sum
  reg [SumW-1:0] lsum;
  integer k;
  always @* begin
    lsum = {SumW{1'b0}};
    for (k = 0; k < Vec; k = k + 1) lsum = lsum + {{(SumW - UW){1'b0}}, u3_q[k*UW +: UW]};
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

  reg [Vec*UW-1:0] u4_q;
  reg [MWidth-1:0] m4_q;

  always @(posedge clk_i) begin
    if (take[3]) begin
      drun_q <= d_new;
      u4_q   <= u3_q;
      m4_q   <= m3_q;
    end
  end

  assign out_u_o = u4_q;
  assign out_m_o = m4_q;
  assign out_d_o = drun_q;

  // rounded-off fraction bits; the control's fields of the stages that need none here
  wire unused_ok = &{1'b0, lsum_r[Drop-1:0], d_half[0], first[Stages-1:1],
                     cnt[0 +: CntW], cnt[2*CntW +: (Stages - 2) * CntW]};
endmodule
`default_nettype wire
