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
//   Every float operation is IEEE binary16, round to nearest even (softermax_fp16_op: the
//   fp_* units at Latency 0; these stage registers give the timing). The row sequencing, the
//   stage control and the output register (lane masking, error beats) are smx_norm_ctrl's,
//   shared with softermax_norm; this module is the arithmetic. Rows flagged malformed produce
//   a single beat {cnt 0, last 1, err 1, y 0}; their stored slices are consumed and dropped.
//   A summary must say nslices >= 1 (softermax_fp16_unnormed always does).
// Parameters:
//   Vec     lanes, 1..64; MaxLen longest row (>= 1; sets the slice counter width)
module softermax_fp16_norm #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
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
  `include "smx_consts.vh"

  localparam integer FW = Smx16Bits;  // one fp16 value
  localparam integer OpSub = 2, OpMul = 3, OpDiv = 4;  // softermax_fp16_op

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (smx_param_check).
  smx_param_check #(
    .Vec(Vec), .MaxLen(MaxLen), .CntW(CntW), .MaxSlices(MaxSlices),
    .SliceW(SliceW)
  ) u_param_check ();

  // ---------------------------------------------------------------- control
  wire [1:0]        take;
  wire [Vec*FW-1:0] quo;  // N2's result lanes
  smx_norm_ctrl #(.Vec(Vec), .MaxLen(MaxLen), .UW(FW), .MW(FW), .DW(FW), .YW(FW)) u_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .slc_valid_i  (slc_valid_i),
    .slc_ready_o  (slc_ready_o),
    .slc_u_i      (slc_e_i),
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
    .y_i          (quo)
  );

  // ---------------------------------------------------------------- N0: exp(m_slice - m_row)
  wire [FW-1:0] mdiff, scale;
  softermax_fp16_op #(.Op(OpSub)) u_mdiff (
    .a_i(slc_m_i),
    .b_i(sum_m_i),
    .y_o(mdiff)
  );
  softermax_fp16_exp u_scale_exp (
    .x_i(mdiff),
    .y_o(scale)
  );

  reg [Vec*FW-1:0] e1_q;
  reg [FW-1:0]     scale1_q, d1_q;

  always @(posedge clk_i) begin
    if (take[0]) begin
      e1_q     <= slc_e_i;
      scale1_q <= scale;
      d1_q     <= sum_d_i;
    end
  end

  // ---------------------------------------------------------------- N1: multiply
  wire [Vec*FW-1:0] prod;
  genvar g;
  generate
    for (g = 0; g < Vec; g = g + 1) begin : gen_mul
      softermax_fp16_op #(.Op(OpMul)) u_mul (
        .a_i(e1_q[g*FW +: FW]),
        .b_i(scale1_q),
        .y_o(prod[g*FW +: FW])
      );
    end
  endgenerate

  reg [Vec*FW-1:0] p2_q;
  reg [FW-1:0]     d2_q;

  always @(posedge clk_i) begin
    if (take[1]) begin
      p2_q <= prod;
      d2_q <= d1_q;
    end
  end

  // ---------------------------------------------------------------- N2: divide
  generate
    for (g = 0; g < Vec; g = g + 1) begin : gen_div
      softermax_fp16_op #(.Op(OpDiv)) u_div (
        .a_i(p2_q[g*FW +: FW]),
        .b_i(d2_q),
        .y_o(quo[g*FW +: FW])
      );
    end
  endgenerate
endmodule
`default_nettype wire
