////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_cc_fifo_sram.sv
//
// Purpose:   Formal proof wrapper of cc_fifo_sram (docs/formal.md): the same contract as
//            cc_fifo with FallThrough=0 (rtl/common/README.md), proved on the cell with its
//            cc_sram_1r1w, whose same-address read-during-write returns X (ReadFirst=0): the
//            proof flow turns that X into a free value in every cycle, so the bypass register
//            must really hide every collided read. Every input is free (reset too, after the
//            first cycle); nothing is assumed about the producer.
//              * fv_queue_model: count_o, in_ready_o = not full, out_valid_o = not empty, no
//                loss / duplication / reordering, a flush empties it;
//              * fv_handshake (asserted) on the output: valid and data hold while stalled,
//                except across a flush.
//            Helper invariants (left out of the seeded-bug runs): pointers in range, write
//            pointer = read pointer + count (mod Depth), the tracked beat in the RAM at read
//            pointer + ahead (mod Depth), and, while the FIFO is not empty, out_data_o (the RAM
//            output register or the bypass register) = the RAM word at the read pointer.
//
// Parameters:
//   Width, Depth   the cell's parameters (rtl/common/cc_fifo_sram.v)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_cc_fifo_sram #(
  parameter integer Width = 3,
  parameter integer Depth = 5
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

  cc_fifo_sram #(
    .Width (Width),
    .Depth (Depth)
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
    .FallThrough (0),
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
  // True facts about the cell's registers that k-induction needs (stored beats are invisible at
  // the ports until they reach the head). The seeded-bug runs leave them out (FV_NO_HELPERS),
  // so a bug must break one of the contract properties above.
  (* fv_probe = "u_dut.wptr_q" *) wire [PtrWidth-1:0] f_wptr;
  (* fv_probe = "u_dut.rptr_q" *) wire [PtrWidth-1:0] f_rptr;
  // Word i of the RAM array at f_mem[i*Width +: Width].
  (* fv_probe = "u_dut.u_ram.mem_q[{i}]", fv_count = "Depth", fv_width = "Width" *)
  wire [Depth*Width-1:0] f_mem;

  // Sums below 2*Depth (both terms are in range when the asserts hold): one subtraction wraps.
  wire [PtrWidth+CntW:0] f_wsum = f_rptr + f_count;
  wire [PtrWidth+CntW:0] f_tsum = f_rptr + f_ahead;
  wire [PtrWidth+CntW:0] f_wexp = (f_wsum >= Depth) ? f_wsum - Depth : f_wsum;
  wire [PtrWidth+CntW:0] f_slot = (f_tsum >= Depth) ? f_tsum - Depth : f_tsum;

  // The words at f_slot and at the read pointer, as muxes over constant indices (a variable
  // part-select would put a multiplication and a shift into the SMT model).
  reg [Width-1:0] f_slot_data;
  reg [Width-1:0] f_head_data;
  integer f_i;
  always @* begin
    f_slot_data = {Width{1'b0}};
    f_head_data = {Width{1'b0}};
    for (f_i = 0; f_i < Depth; f_i = f_i + 1) begin
      if (f_slot == f_i) f_slot_data = f_mem[f_i*Width +: Width];
      if (f_rptr == f_i) f_head_data = f_mem[f_i*Width +: Width];
    end
  end

`ifndef FV_NO_HELPERS
  always @* begin
    inv_rptr_range: assert (f_rptr < Depth);
    inv_wptr_range: assert (f_wptr < Depth);
    inv_wptr_count: assert (f_wptr == f_wexp);
    if (f_tracked) inv_tracked_stored: assert (f_slot_data == f_tdata);
    if (f_count != 0) inv_head_word: assert (out_data == f_head_data);
  end
`endif

  // Reachability: a flush of a non-empty FIFO while a beat leaves; with Depth > 1 a push to the
  // next head address in the cycle the only stored beat is popped (the bypass case with a pop).
  always @* c_flush_while_popped: cover (rst_ni && clr_i && count != 0 && out_valid &&
                                             out_ready_i);
  generate
    if (Depth > 1) begin : gen_cover_bypass
      always @* c_bypass_with_pop: cover (rst_ni && !clr_i && count == 1 && in_valid_i &&
                                            in_ready && out_ready_i);
    end
  endgenerate

endmodule

`default_nettype wire
