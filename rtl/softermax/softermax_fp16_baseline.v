`default_nettype none
// softermax_fp16_baseline -- fp16 softmax baseline top: a row of fp16 scores in, its base-e
//   softmax probabilities (fp16) out. The conventional unit the Softermax area ratios compare
//   against (the paper's DesignWare fp16 baseline; docs/softermax.md, "fp16 baseline").
//
// Purpose: skid buffer -> softermax_fp16_unnormed -> row buffer -> softermax_fp16_norm -> skid
//   buffer: the Softermax top's structure (smx_stream, shared with softermax, so the area
//   ratios compare like with like), with fp16 max, exp, accumulate and divide in place of the
//   integer max, power of two, fixed-point sum and reciprocal. The unnormed unit writes each
//   slice (e values and the max they were computed against) into the row buffer and, at the
//   row's end, a summary (d, final max, slice count, error); the normalization unit drains a
//   row once its summary is there, while the unnormed unit fills the next: back-to-back rows
//   stream at Vec elements per cycle without bubbles.
//   Output slicing equals input slicing (beats of Vec elements, the last one partial).
//   Malformed rows (see softermax_fp16_unnormed) give one beat {cnt 0, last 1, err 1, y 0}.
// Parameters:
//   Vec     lanes (elements per cycle), 1..64; paper: 16, 32
//   MaxLen  longest legal row in elements (>= 1); paper workload: 384; sets the row buffer
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
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (smx_param_check).
  smx_param_check #(
    .Vec(Vec), .MaxLen(MaxLen), .CntW(CntW)
  ) u_param_check ();

  smx_stream #(.Fp16(1), .Vec(Vec), .MaxLen(MaxLen)) u_stream (
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
