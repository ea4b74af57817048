////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_fifo_sram.v
//
// Purpose:   Synchronous FIFO whose storage is a cc_sram_1r1w (synchronous-read RAM), so that
//            deep queues land in block RAM. The head beat is shown at the output without a pop
//            (show-ahead), with one beat in and one beat out per cycle and no bubbles.
//
//            How the synchronous read keeps up: the RAM is read every cycle at rptr_d, the read
//            pointer *after* this cycle's pop, so the word under the head is in the RAM output
//            register at the next edge. A word written in the same
//            cycle to that same address would come back stale (or undefined: the RAM is used
//            with ReadFirst=0); for that case the written data is caught in a bypass register
//            and shown instead of the RAM output. Every word the
//            head can point at was therefore written at least one edge before it is shown, which
//            is why out_valid_o can simply be "count != 0" and out_data_o is always correct
//            while out_valid_o is high.
//
//            Handshake contract (a beat moves when valid && ready at the rising edge):
//              * in_ready_o  = FIFO not full (registered count; no dependence on in_valid_i or
//                on out_ready_i: a full FIFO being popped accepts again one cycle later).
//              * out_valid_o = FIFO not empty (registered; no dependence on out_ready_i).
//                Latency from input to output is one cycle.
//              * clr_i: synchronous flush; all stored beats and a beat accepted in the clr_i
//                cycle are dropped; a beat popped in the clr_i cycle is delivered.
//              * count_o = number of stored beats.
//
// Parameters:
//   Width    data bits per beat (>= 1)
//   Depth    number of entries (>= 1, any value); full throughput needs Depth >= 2
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_fifo_sram #(
  parameter integer Width = 8,
  parameter integer Depth = 16
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
      `CC_PARAM_FAIL(cc_fifo_sram__Width_must_be_at_least_1)
    end
    if (Depth < 1) begin : gen_check_depth
      `CC_PARAM_FAIL(cc_fifo_sram__Depth_must_be_at_least_1)
    end
  endgenerate

  reg [PtrWidth-1:0] wptr_q, wptr_d;
  reg [PtrWidth-1:0] rptr_q, rptr_d;
  reg [CntWidth-1:0] count_q, count_d;
  reg                byp_valid_q;
  reg [Width-1:0]    byp_data_q;
  wire [Width-1:0]   ram_rdata;

  wire full  = (count_q == DepthCnt);
  wire empty = (count_q == {CntWidth{1'b0}});
  wire push  = in_valid_i && !full;
  wire pop   = !empty && out_ready_i;

  assign in_ready_o  = !full;
  assign out_valid_o = !empty;
  assign out_data_o  = byp_valid_q ? byp_data_q : ram_rdata;
  assign count_o     = count_q;

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

  // The word written this cycle is the next head exactly when its address is rptr_d; the RAM
  // (read-first) would return the old contents for it, so remember the new data instead.
  wire byp_d = push && !clr_i && (wptr_q == rptr_d);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q      <= {PtrWidth{1'b0}};
      rptr_q      <= {PtrWidth{1'b0}};
      count_q     <= {CntWidth{1'b0}};
      byp_valid_q <= 1'b0;
    end else begin
      wptr_q      <= wptr_d;
      rptr_q      <= rptr_d;
      count_q     <= count_d;
      byp_valid_q <= byp_d;
    end
  end

  // Data register without reset: byp_valid_q says when it is used.
  always @(posedge clk_i) begin
    if (byp_d) byp_data_q <= in_data_i;
  end

  // Read every cycle: the output register then always holds mem[rptr_q] as of the last edge.
  // The bypass register covers the only read-during-write this FIFO can use, so the RAM may leave
  // that collision undefined (ReadFirst=0), which maps onto any block RAM without extra logic.
  cc_sram_1r1w #(
    .Width     (Width),
    .Depth     (Depth),
    .ReadFirst (0)
  ) u_ram (
    .clk_i   (clk_i),
    .we_i    (push),
    .waddr_i (wptr_q),
    .wdata_i (in_data_i),
    .re_i    (1'b1),
    .raddr_i (rptr_d),
    .rdata_o (ram_rdata)
  );

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
