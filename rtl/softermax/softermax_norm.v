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
//   The row sequencing, the stage control and the output register (lane masking, error
//   beats) are smx_norm_ctrl's (shared with the fp16 baseline's softermax_fp16_norm); this
//   module is the arithmetic.
//   Rows flagged malformed produce a single beat {cnt 0, last 1, err 1, y 0}; their stored
//   slices are consumed and dropped. Lanes >= cnt give y = 0 whatever u they carry.
//   A summary must say nslices >= 1 (softermax_unnormed always does: every row keeps its
//   first slice); a summary of 0 slices is not a legal input.
// Parameters:
//   Vec           lanes, 1..64; MaxLen longest row (>= 1; sets the slice counter width)
//   InWidth/InFrac input format (sets the max width, InWidth - InFrac + 1): InWidth <= 16,
//                 InFrac 2..InWidth-2
//   RecipSegBits  log2 of reciprocal LPW segments, 2..4 (default 2: 4 segments)
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
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // stored slices, in row order
  input  wire                slc_valid_i,
  output wire                slc_ready_o,
  input  wire [Vec*16-1:0]   slc_u_i,      // Q(1,15) per lane
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
  `include "smx_consts.vh"

  localparam integer UW  = SmxUBits;              // one lane of u, Q(1,15)
  localparam integer YW  = SmxYBits;              // one output lane, Q(1,7)
  localparam integer PW  = SmxUBits + SmxRqBits;  // u * rq
  localparam integer ShW = $clog2(PW + 1);        // the final shift, SmxPShift - lz - 1
  localparam integer LzW = $clog2(DWidth);
  localparam integer UShW = $clog2(UW);           // renormalizing shifts 0..UW-1

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (smx_param_check).
  smx_param_check #(
    .Vec(Vec), .MaxLen(MaxLen), .InWidth(InWidth), .InFrac(InFrac),
    .RecipSegBits(RecipSegBits), .SumFrac(SumFrac), .CntW(CntW), .DWidth(DWidth),
    .MWidth(MWidth), .MaxSlices(MaxSlices), .SliceW(SliceW)
  ) u_param_check ();

  // ---------------------------------------------------------------- control
  wire [1:0]        take;
  reg  [Vec*YW-1:0] y_lane;  // N2's result lanes
  smx_norm_ctrl #(
    .Vec(Vec), .MaxLen(MaxLen), .UW(UW), .MW(MWidth), .DW(DWidth), .YW(YW)
  ) u_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .slc_valid_i  (slc_valid_i),
    .slc_ready_o  (slc_ready_o),
    .slc_u_i      (slc_u_i),
    .slc_m_i      (slc_m_i),
    .slc_cnt_i    (slc_cnt_i),
    .sum_valid_i  (sum_valid_i),
    .sum_ready_o  (sum_ready_o),
    .sum_d_i      (sum_d_i),
    .sum_m_i      (sum_m_i),
    .sum_nslices_i(sum_nslices_i),
    .sum_err_i    (sum_err_i),
    .out_valid_o  (out_valid_o),
    .out_ready_i  (out_ready_i),
    .out_y_o      (out_y_o),
    .out_cnt_o    (out_cnt_o),
    .out_last_o   (out_last_o),
    .out_err_o    (out_err_o),
    .take_o       (take),
    .y_i          (y_lane)
  );

  // ---------------------------------------------------------------- N0
  // m_row - m_slice at 32 bits: >= 0 for legal rows; a negative difference only arises in
  // error rows (their output is 0)
  wire [31:0] mdiff = {{(32 - MWidth){sum_m_i[MWidth-1]}}, sum_m_i} -
                      {{(32 - MWidth){slc_m_i[MWidth-1]}}, slc_m_i};
  wire            big   = mdiff[31] || (mdiff >= UW);  // shifts u out entirely
  wire [UShW-1:0] shamt = mdiff[UShW-1:0];

  wire [SmxRqBits-1:0] rq;
  wire [LzW-1:0]       lz;
  softermax_recip #(.RecipSegBits(RecipSegBits), .SumFrac(SumFrac)) u_recip (
    .d_i (sum_d_i),
    .rq_o(rq),
    .lz_o(lz)
  );

  reg [Vec*UW-1:0]    us1_q;
  reg [SmxRqBits-1:0] rq1_q;
  reg [LzW-1:0]       lz1_q;
  integer j;

  always @(posedge clk_i) begin
    if (take[0]) begin
      for (j = 0; j < Vec; j = j + 1)
        us1_q[j*UW +: UW] <= big ? {UW{1'b0}} : (slc_u_i[j*UW +: UW] >> shamt);
      rq1_q <= rq;
      lz1_q <= lz;
    end
  end

  // ---------------------------------------------------------------- N1: multiply
  reg [Vec*PW-1:0] p2_q;
  reg [LzW-1:0]    lz2_q;

  always @(posedge clk_i) begin
    if (take[1]) begin
      for (j = 0; j < Vec; j = j + 1)
        p2_q[j*PW +: PW] <= us1_q[j*UW +: UW] * rq1_q;
      lz2_q <= lz1_q;
    end
  end

  // ---------------------------------------------------------------- N2: scale, round
  // y = round_half_up(p / 2^(SmxPShift - lz)) = ((p >> (SmxPShift - 1 - lz)) + 1) >> 1,
  // saturated to YW bits (lz <= DWidth - 1 <= 22, so the shift is at least 1)
  localparam integer   ShBaseI = SmxPShift - 1;
  localparam [ShW-1:0] ShBase  = ShBaseI[ShW-1:0];
  wire [ShW-1:0] rshift = ShBase - {{(ShW - LzW){1'b0}}, lz2_q};
  reg  [PW-1:0]  q;
  reg  [PW-1:0]  y_full;
  always @* begin
    for (j = 0; j < Vec; j = j + 1) begin
      q = p2_q[j*PW +: PW] >> rshift;
      y_full = {1'b0, q[PW-1:1]} + {{(PW - 1){1'b0}}, q[0]};
      y_lane[j*YW +: YW] = (|y_full[PW-1:YW]) ? {YW{1'b1}} : y_full[YW-1:0];
    end
  end
endmodule
`default_nettype wire
