`default_nettype none
// smx_row_buffer -- the row buffer between the unnormed and the normalization unit of the
//   Softermax tops (softermax and the fp16 baseline's softermax_fp16_baseline share it).
//
// Purpose: the unnormed unit's output stream goes into two FIFOs: every slice it marks for
//   storage (in_store_i) into the slice FIFO, and on a row's last slice (in_last_i) the row's
//   summary into the summary FIFO; the normalization unit drains a row once its summary is
//   there. A slice moves only when both FIFOs can take it (in_ready_o); the FIFO pushes are
//   qualified by that handshake, an internal deviation from "valid never depends on ready"
//   that is loop-free because the FIFOs' ready does not depend on their valid. Both FIFOs are
//   SRAM-backed (cc_fifo_sram) and map to block RAM; with Depth = 2 * ceil(MaxLen/Vec) the
//   unnormed unit fills row r+1 while row r is normalized, so back-to-back rows stream at one
//   slice per cycle without bubbles. The input stream's hold rule is checked here (the FIFO
//   inputs are qualified by the handshake, so their own checks cannot see it).
// Parameters:
//   SlcW   bits of a stored slice ({lanes, max, cnt})
//   SumW   bits of a row summary ({d, max, slice count, error})
//   Depth  entries of each FIFO
module smx_row_buffer #(
  parameter integer SlcW  = 32,
  parameter integer SumW  = 32,
  parameter integer Depth = 48
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  // the unnormed unit's output slices
  input  wire            in_valid_i,
  output wire            in_ready_o,
  input  wire            in_store_i,  // the slice is kept
  input  wire            in_last_i,   // the row's last slice: in_sum_i is its summary
  input  wire [SlcW-1:0] in_slc_i,
  input  wire [SumW-1:0] in_sum_i,
  // to the normalization unit
  output wire            slc_valid_o,
  input  wire            slc_ready_i,
  output wire [SlcW-1:0] slc_o,
  output wire            sum_valid_o,
  input  wire            sum_ready_i,
  output wire [SumW-1:0] sum_o
);
  cc_hold_check #(.Width(SlcW + 2 + SumW)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   ({in_slc_i, in_store_i, in_last_i, in_sum_i}),
    .release_i(1'b0)
  );

  wire slc_in_ready, sum_in_ready;
  assign in_ready_o = slc_in_ready && sum_in_ready;
  wire in_fire = in_valid_i && in_ready_o;

  wire [$clog2(Depth+1)-1:0] slc_count, sum_count;
  wire unused_ok = &{1'b0, slc_count, sum_count};  // occupancy is for waveforms only

  cc_fifo_sram #(.Width(SlcW), .Depth(Depth)) u_slice_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (in_fire && in_store_i),
    .in_ready_o (slc_in_ready),
    .in_data_i  (in_slc_i),
    .out_valid_o(slc_valid_o),
    .out_ready_i(slc_ready_i),
    .out_data_o (slc_o),
    .count_o    (slc_count)
  );

  cc_fifo_sram #(.Width(SumW), .Depth(Depth)) u_summary_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (in_fire && in_last_i),
    .in_ready_o (sum_in_ready),
    .in_data_i  (in_sum_i),
    .out_valid_o(sum_valid_o),
    .out_ready_i(sum_ready_i),
    .out_data_o (sum_o),
    .count_o    (sum_count)
  );
endmodule
`default_nettype wire
