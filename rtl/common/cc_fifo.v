////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_fifo.v
//
// Purpose:   Synchronous FIFO with flop storage (a register array), for shallow queues where
//            block RAM would be wasted. Any Depth >= 1 works: the pointers wrap explicitly at
//            Depth-1 instead of relying on a power-of-two overflow.
//
//            Handshake contract (a beat moves when valid && ready at the rising edge):
//              * in_ready_o  = FIFO not full. It never depends on in_valid_i, and a pop in the
//                same cycle does not make room for a push into a full FIFO (keeps the path from
//                out_ready_i to in_ready_o free).
//              * out_valid_o = FIFO not empty (FallThrough=0: straight from the count register).
//                It never depends on out_ready_i.
//              * FallThrough=1: while the FIFO is empty, in_valid_i/in_data_i are passed to
//                out_valid_o/out_data_o combinationally, and a beat taken by the consumer in
//                that same cycle is never stored (zero latency). This adds a combinational path
//                from the input to the output stream.
//              * clr_i: synchronous flush. At the edge where clr_i is high every stored beat is
//                dropped, including a beat accepted on the input in that cycle; a beat popped in
//                that cycle was taken by the consumer and is therefore not lost. A beat passed
//                through in FallThrough mode and taken in the clr_i cycle is delivered too.
//              * count_o = number of stored beats (a fall-through beat is never counted).
//
// Parameters:
//   Width        data bits per beat (>= 1)
//   Depth        number of entries (>= 1); Depth=1 gives half throughput when FallThrough=0,
//                because a full FIFO does not accept while it is being popped
//   FallThrough  0: registered output (one cycle from input to output);
//                1: an empty FIFO passes the input beat to the output in the same cycle
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_fifo #(
  parameter integer Width       = 8,
  parameter integer Depth       = 4,
  parameter integer FallThrough = 0
) (
  input  wire                         clk_i,
  input  wire                         rst_ni,
  input  wire                         clr_i,
  input  wire                         in_valid_i,
  output wire                         in_ready_o,
  input  wire [Width-1:0]             in_data_i,
  output wire                         out_valid_o,
  input  wire                         out_ready_i,
  output wire [Width-1:0]             out_data_o,
  output wire [$clog2(Depth+1)-1:0]   count_o
);

  localparam integer PtrWidth = (Depth > 1) ? $clog2(Depth) : 1;
  localparam integer CntWidth = $clog2(Depth + 1);
  // Sized copies of the integer parameters (the part-selects keep the lint width-clean).
  localparam integer        LastInt  = Depth - 1;
  localparam integer        DepthInt = Depth;
  localparam [PtrWidth-1:0] LastPtr  = LastInt[PtrWidth-1:0];
  localparam [CntWidth-1:0] DepthCnt = DepthInt[CntWidth-1:0];

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Width < 1) begin : gen_check_width
      `CC_PARAM_FAIL(cc_fifo__Width_must_be_at_least_1)
    end
    if (Depth < 1) begin : gen_check_depth
      `CC_PARAM_FAIL(cc_fifo__Depth_must_be_at_least_1)
    end
    if (FallThrough != 0 && FallThrough != 1) begin : gen_check_fall_through
      `CC_PARAM_FAIL(cc_fifo__FallThrough_must_be_0_or_1)
    end
  endgenerate

  reg [Width-1:0]    mem_q [0:Depth-1];
  reg [PtrWidth-1:0] wptr_q, wptr_d;
  reg [PtrWidth-1:0] rptr_q, rptr_d;
  reg [CntWidth-1:0] count_q, count_d;

  wire full  = (count_q == DepthCnt);
  wire empty = (count_q == {CntWidth{1'b0}});
  // In fall-through mode a beat offered to an empty FIFO is visible at the output right away;
  // if the consumer takes it in this cycle it bypasses the storage completely.
  wire pass  = (FallThrough != 0) && empty && in_valid_i;

  assign in_ready_o  = !full;
  assign out_valid_o = !empty || pass;
  assign out_data_o  = ((FallThrough != 0) && empty) ? in_data_i : mem_q[rptr_q];
  assign count_o     = count_q;

  wire push = in_valid_i && !full && !(pass && out_ready_i);
  wire pop  = !empty && out_ready_i;

  always @* begin
    wptr_d  = wptr_q;
    rptr_d  = rptr_q;
    count_d = count_q;
    if (clr_i) begin
      wptr_d  = {PtrWidth{1'b0}};
      rptr_d  = {PtrWidth{1'b0}};
      count_d = {CntWidth{1'b0}};
    end else begin
      if (push) wptr_d = (wptr_q == LastPtr) ? {PtrWidth{1'b0}} : wptr_q + 1'b1;
      if (pop)  rptr_d = (rptr_q == LastPtr) ? {PtrWidth{1'b0}} : rptr_q + 1'b1;
      if (push && !pop) count_d = count_q + 1'b1;
      if (pop && !push) count_d = count_q - 1'b1;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= {PtrWidth{1'b0}};
      rptr_q  <= {PtrWidth{1'b0}};
      count_q <= {CntWidth{1'b0}};
    end else begin
      wptr_q  <= wptr_d;
      rptr_q  <= rptr_d;
      count_q <= count_d;
    end
  end

  // Storage has no reset: only the pointers say which entries hold data.
  always @(posedge clk_i) begin
    if (push) mem_q[wptr_q] <= in_data_i;
  end

  // Simulation-only check of the producer's side of the contract (synthesizes to nothing).
  cc_hold_check #(.Width(Width)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   (in_data_i),
    .release_i(clr_i)
  );

endmodule

`default_nettype wire
