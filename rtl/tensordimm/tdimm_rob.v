////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_rob.v
//
// Purpose:   SRAM queue A or B of the NMP core: Depth slots of one 64-byte block, used as a
//            reorder buffer. The address generator allocates the slot at the tail when it issues
//            a read (alloc_i; the slot number is alloc_slot_o); the memory controller may serve
//            reads out of order, so returning data fills its slot by number (fill_i); the ALU
//            pops in allocation order once the head slot is filled. So the consumer sees blocks
//            in program order whatever order DRAM returned them.
//
//            Contract: alloc_i only while free_o (a slot is free); fill_i only for an allocated,
//            unfilled slot; pop_i only while head_valid_o. A slot freed by pop_i is free at the
//            next edge (free_o does not look at pop_i, keeping pop off the allocation path).
//            The storage is a register array read combinationally at the head (Depth is small:
//            8 by default; Yosys maps it to LUT RAM or flops).
//
// Parameters:
//   Depth    slots (2..64)
//   SlotW    slot number width (>= clog2(Depth))
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module tdimm_rob #(
  parameter integer Depth = 8,
  parameter integer SlotW = 3
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  output wire             free_o,
  input  wire             alloc_i,
  output wire [SlotW-1:0] alloc_slot_o,
  input  wire             fill_i,
  input  wire [SlotW-1:0] fill_slot_i,
  input  wire [511:0]     fill_data_i,
  output wire             head_valid_o,
  output wire [511:0]     head_data_o,
  input  wire             pop_i,
  output wire [SlotW:0]   count_o          // allocated slots
);
  generate
    if (Depth < 2 || Depth > 64) begin : gen_check_depth
      `CC_PARAM_FAIL(tdimm_rob__Depth_must_be_2_to_64)
    end
    if ((1 << SlotW) < Depth) begin : gen_check_slot_w
      `CC_PARAM_FAIL(tdimm_rob__SlotW_must_hold_Depth_minus_1)
    end
  endgenerate

  localparam integer     LastInt = Depth - 1;
  localparam [SlotW-1:0] Last    = LastInt[SlotW-1:0];

  reg [511:0]     mem_q [0:Depth-1];
  reg [Depth-1:0] filled_q;
  reg [SlotW-1:0] wp_q, rp_q;
  reg [SlotW:0]   cnt_q;

  assign free_o       = cnt_q != Depth[SlotW:0];
  assign alloc_slot_o = wp_q;
  assign head_valid_o = cnt_q != 0 && filled_q[rp_q];
  assign head_data_o  = mem_q[rp_q];
  assign count_o      = cnt_q;

  always @(posedge clk_i) begin
    if (fill_i) mem_q[fill_slot_i] <= fill_data_i;
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      filled_q <= {Depth{1'b0}};
      wp_q     <= {SlotW{1'b0}};
      rp_q     <= {SlotW{1'b0}};
      cnt_q    <= {(SlotW+1){1'b0}};
    end else begin
      if (fill_i) filled_q[fill_slot_i] <= 1'b1;
      if (pop_i) begin
        filled_q[rp_q] <= 1'b0;
        rp_q <= rp_q == Last ? {SlotW{1'b0}} : rp_q + 1'b1;
      end
      if (alloc_i) wp_q <= wp_q == Last ? {SlotW{1'b0}} : wp_q + 1'b1;
      cnt_q <= cnt_q + {{SlotW{1'b0}}, alloc_i} - {{SlotW{1'b0}}, pop_i};
    end
  end

`ifndef SYNTHESIS
  // Contract checks (simulation only).
  always @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (alloc_i && !free_o) begin
        $display("%m: ERROR at %0t: alloc while full", $time);
        $stop;
      end
      if (pop_i && !head_valid_o) begin
        $display("%m: ERROR at %0t: pop of an unfilled head", $time);
        $stop;
      end
      if (fill_i && filled_q[fill_slot_i]) begin
        $display("%m: ERROR at %0t: fill of a filled slot", $time);
        $stop;
      end
    end
  end
`endif
endmodule
`default_nettype wire
