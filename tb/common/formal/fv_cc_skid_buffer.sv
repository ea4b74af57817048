////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_cc_skid_buffer.sv
//
// Purpose:   Formal proof wrapper of cc_skid_buffer (docs/formal.md). Its contract is "exactly
//            a 2-deep FIFO with in_ready = not full and out_valid = not empty" whose outputs are
//            registers (rtl/common/README.md), so the same queue model is asserted with Depth=2:
//              * fv_queue_model: in_ready_o = fewer than 2 beats held, out_valid_o = at least
//                one, no loss / duplication / reordering;
//              * fv_handshake (asserted) on the output: valid and data hold while stalled;
//              * the flags come from flops: in_ready_o and out_valid_o equal functions of the
//                model's count, a register, so no input reaches them in the same cycle.
//            Every input is free (reset too, after the first cycle); nothing is assumed about the
//            producer, who may even drop valid or change data while not taken.
//            Helper invariant (left out of the seeded-bug runs): with two beats held, the second
//            (the tracked one, when ahead = 1) is in the skid register.
//
// Parameters:
//   Width   the cell's data width (rtl/common/cc_skid_buffer.v)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_cc_skid_buffer #(
  parameter integer Width = 3
) (
  input wire             clk_i,
  input wire             rst_ni,
  input wire             in_valid_i,
  input wire [Width-1:0] in_data_i,
  input wire             out_ready_i,
  input wire             pick_i
);

  localparam integer CntW = 3;

  wire             in_ready;
  wire             out_valid;
  wire [Width-1:0] out_data;

  cc_skid_buffer #(
    .Width (Width)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data)
  );

  // ---------------------------------------------------------------- environment
  // The first cycle is a reset; afterwards reset is free (reset in flight is covered).
  reg f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
  always @* if (f_init_q) assume (!rst_ni);

  // ---------------------------------------------------------------- properties
  wire f_out_violation;
  fv_handshake #(
    .Width (Width),
    .Mode  (2)
  ) u_out_rule (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .valid_i     (out_valid),
    .ready_i     (out_ready_i),
    .data_i      (out_data),
    .release_i   (1'b0),
    .violation_o (f_out_violation)
  );

  wire [CntW-1:0]  f_count;
  wire             f_tracked;
  wire [CntW-1:0]  f_ahead;
  wire [Width-1:0] f_tdata;

  fv_queue_model #(
    .Width       (Width),
    .Depth       (2),
    .FallThrough (0),
    .CntW        (CntW)
  ) u_model (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clr_i       (1'b0),
    .in_valid_i  (in_valid_i),
    .in_ready_i  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_i (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_i  (out_data),
    .pick_i      (pick_i),
    .count_o     (f_count),
    .tracked_o   (f_tracked),
    .ahead_o     (f_ahead),
    .tdata_o     (f_tdata)
  );

  // ---------------------------------------------------------------- helper invariant
  // The seeded-bug runs leave it out (FV_NO_HELPERS), so a bug must break a contract property.
  (* fv_probe = "u_dut.skid_data_q" *) wire [Width-1:0] f_skid_data;

`ifndef FV_NO_HELPERS
  always @* begin
    if (f_tracked && f_ahead == 1) inv_tracked_in_skid: assert (f_skid_data == f_tdata);
  end
`endif

  // Reachability: the skid register fills while the consumer stalls, and drains in order.
  always @* c_skid_drains: cover (rst_ni && f_count == 2 && out_ready_i && !in_ready);

endmodule

`default_nettype wire
