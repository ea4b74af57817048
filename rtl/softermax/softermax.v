`default_nettype none
// softermax -- Softermax top: a row of scores in, its base-2 softmax probabilities out.
//
// Purpose: skid buffer -> softermax_unnormed -> row buffer -> softermax_norm -> skid buffer.
//   The unnormed unit writes each slice (u values and the max they were computed against)
//   into the row buffer (smx_row_buffer: a slice FIFO and a summary FIFO of 2 * MaxLen/Vec
//   entries each, block RAM) and, at the row's end, a summary (d, final max, slice count,
//   error); the normalization unit drains a row once its summary is there, while the unnormed
//   unit fills the next: back-to-back rows stream at Vec elements per cycle without bubbles.
//   The structure is smx_stream's, shared with the fp16 baseline's top
//   (softermax_fp16_baseline); the units share their control (smx_unnormed_ctrl,
//   smx_norm_ctrl).
//   Output slicing equals input slicing (beats of Vec elements, the last one partial).
//   Malformed rows (see softermax_unnormed) give one beat {cnt 0, last 1, err 1, y 0}.
// Parameters:
//   Vec           lanes (elements per cycle), 1..64; paper: 16, 32
//   MaxLen        longest legal row in elements (>= 1); paper workload: 384
//   InWidth       input width, <= 16; InFrac input fraction bits, 2..InWidth-2 (Q(6,2))
//   RecipSegBits  log2 of reciprocal LPW segments, 2..4
//   SumFrac       power-sum fraction bits, 6..13 (paper: Q(10,6))
//   (softermax_unnormed / softermax_norm have the details.)
// Interfaces (valid/ready; a beat moves on valid && ready; valid and data hold until taken):
//   in : in_x_i (Vec x InWidth, lane j at [j*InWidth +: InWidth]), in_cnt_i, in_last_i
//   out: out_y_o (Vec x 8, Q(1,7)), out_cnt_o, out_last_o, out_err_o
module softermax #(
  parameter integer Vec          = 16,
  parameter integer MaxLen       = 384,
  parameter integer InWidth      = 8,
  parameter integer InFrac       = 2,
  parameter integer RecipSegBits = 2,
  parameter integer SumFrac      = 6,
  // derived, do not override
  parameter integer CntW = $clog2(Vec + 1)
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   in_valid_i,
  output wire                   in_ready_o,
  input  wire [Vec*InWidth-1:0] in_x_i,
  input  wire [CntW-1:0]        in_cnt_i,
  input  wire                   in_last_i,
  output wire                   out_valid_o,
  input  wire                   out_ready_i,
  output wire [Vec*8-1:0]       out_y_o,
  output wire [CntW-1:0]        out_cnt_o,
  output wire                   out_last_o,
  output wire                   out_err_o
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (smx_param_check).
  smx_param_check #(
    .Vec(Vec), .MaxLen(MaxLen), .InWidth(InWidth), .InFrac(InFrac),
    .RecipSegBits(RecipSegBits), .SumFrac(SumFrac), .CntW(CntW)
  ) u_param_check ();

  smx_stream #(
    .Fp16(0), .Vec(Vec), .MaxLen(MaxLen), .InWidth(InWidth), .InFrac(InFrac),
    .RecipSegBits(RecipSegBits), .SumFrac(SumFrac)
  ) u_stream (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .in_x_i     (in_x_i),
    .in_cnt_i   (in_cnt_i),
    .in_last_i  (in_last_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_y_o    (out_y_o),
    .out_cnt_o  (out_cnt_o),
    .out_last_o (out_last_o),
    .out_err_o  (out_err_o)
  );
endmodule
`default_nettype wire
