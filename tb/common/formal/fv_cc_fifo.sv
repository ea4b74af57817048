////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_cc_fifo.sv
//
// Purpose:   Formal proof wrapper of cc_fifo (docs/formal.md). Every input of the cell is a
//            free input of the proof (reset too, after the first cycle, which is a reset); the
//            properties are:
//              * fv_queue_model: count_o, in_ready_o = not full, out_valid_o = not empty (or the
//                fall-through beat), no loss / duplication / reordering, a flush empties it;
//              * fv_handshake (asserted) on the output: out_valid_o and out_data_o hold while
//                the consumer stalls, except across a flush;
//              * with FallThrough=1 the producer is assumed to keep the same rule (the empty
//                FIFO shows its input on its output, so the output can only hold if the input
//                does); with FallThrough=0 nothing is assumed about the producer.
//            Helper invariants about the cell's registers make the proof inductive: both
//            pointers in range, write pointer = read pointer + count (mod Depth), and the
//            tracked beat stored at read pointer + ahead (mod Depth). The (* fv_probe *) wires
//            are connected to those registers by scripts/formal.py after flattening.
//
// Parameters:
//   Width, Depth, FallThrough   the cell's parameters (rtl/common/cc_fifo.v)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_cc_fifo #(
  parameter integer Width       = 3,
  parameter integer Depth       = 4,
  parameter integer FallThrough = 0
) (
  input wire             clk_i,
  input wire             rst_ni,
  input wire             clr_i,
  input wire             in_valid_i,
  input wire [Width-1:0] in_data_i,
  input wire             out_ready_i,
  input wire             pick_i
);

  localparam integer PtrWidth = (Depth > 1) ? $clog2(Depth) : 1;
  localparam integer CntWidth = $clog2(Depth + 1);
  localparam integer CntW     = CntWidth + 1;

  wire                in_ready;
  wire                out_valid;
  wire [Width-1:0]    out_data;
  wire [CntWidth-1:0] count;

  cc_fifo #(
    .Width       (Width),
    .Depth       (Depth),
    .FallThrough (FallThrough)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clr_i       (clr_i),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready),
    .in_data_i   (in_data_i),
    .out_valid_o (out_valid),
    .out_ready_i (out_ready_i),
    .out_data_o  (out_data),
    .count_o     (count)
  );

  // ---------------------------------------------------------------- environment
  // The first cycle is a reset; afterwards reset is free (reset in flight is covered).
  reg f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
  always @* if (f_init_q) assume (!rst_ni);

  // Producer: bound by the handshake rule only where the output is the input (FallThrough).
  wire f_in_violation;
  fv_handshake #(
    .Width (Width),
    .Mode  ((FallThrough != 0) ? 1 : 0)
  ) u_in_rule (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .valid_i     (in_valid_i),
    .ready_i     (in_ready),
    .data_i      (in_data_i),
    .release_i   (clr_i),
    .violation_o (f_in_violation)
  );

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
    .release_i   (clr_i),
    .violation_o (f_out_violation)
  );

  wire [CntW-1:0]  f_count;
  wire             f_tracked;
  wire [CntW-1:0]  f_ahead;
  wire [Width-1:0] f_tdata;

  fv_queue_model #(
    .Width       (Width),
    .Depth       (Depth),
    .FallThrough (FallThrough),
    .CntW        (CntW)
  ) u_model (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clr_i       (clr_i),
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

  always @* p_count: assert ({1'b0, count} == f_count);

  // ---------------------------------------------------------------- helper invariants
  // True facts about the cell's registers that k-induction needs (a FIFO's stored beats are
  // invisible at its ports until they reach the head). The seeded-bug runs leave them out
  // (FV_NO_HELPERS), so a bug must break one of the contract properties above.
  (* fv_probe = "u_dut.wptr_q" *) wire [PtrWidth-1:0] f_wptr;
  (* fv_probe = "u_dut.rptr_q" *) wire [PtrWidth-1:0] f_rptr;
  // Entry i of the storage array at f_mem[i*Width +: Width].
  (* fv_probe = "u_dut.mem_q[{i}]", fv_count = "Depth", fv_width = "Width" *)
  wire [Depth*Width-1:0] f_mem;

  // Sums below 2*Depth (both terms are in range when the asserts hold): one subtraction wraps.
  wire [PtrWidth+CntW:0] f_wsum = f_rptr + f_count;
  wire [PtrWidth+CntW:0] f_tsum = f_rptr + f_ahead;
  wire [PtrWidth+CntW:0] f_wexp = (f_wsum >= Depth) ? f_wsum - Depth : f_wsum;
  wire [PtrWidth+CntW:0] f_slot = (f_tsum >= Depth) ? f_tsum - Depth : f_tsum;

  // The entry at f_slot, as a mux over constant indices (f_mem[f_slot*Width +: Width] would put
  // a bit-vector multiplication and a shift into the SMT model).
  reg [Width-1:0] f_slot_data;
  integer f_i;
  always @* begin
    f_slot_data = {Width{1'b0}};
    for (f_i = 0; f_i < Depth; f_i = f_i + 1) begin
      if (f_slot == f_i) f_slot_data = f_mem[f_i*Width +: Width];
    end
  end

`ifndef FV_NO_HELPERS
  always @* begin
    inv_rptr_range: assert (f_rptr < Depth);
    inv_wptr_range: assert (f_wptr < Depth);
    inv_wptr_count: assert (f_wptr == f_wexp);
    if (f_tracked) inv_tracked_stored: assert (f_slot_data == f_tdata);
  end
`endif

  // Reachability: a flush of a non-empty FIFO while a beat leaves, and the fall-through path.
  always @* c_flush_while_popped: cover (rst_ni && clr_i && count != 0 && out_valid &&
                                             out_ready_i);
  generate
    if (FallThrough != 0) begin : gen_cover_ft
      always @* c_fall_through: cover (rst_ni && count == 0 && in_valid_i && out_ready_i);
    end
  endgenerate

endmodule

`default_nettype wire
