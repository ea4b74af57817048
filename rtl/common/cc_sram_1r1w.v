////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_sram_1r1w.v
//
// Purpose:   Inferred simple dual-port RAM on one clock: one write port and one read port, the read
//            data registered (one cycle of latency). It is written so Yosys (and FPGA tools) map it
//            onto block RAM (e.g. iCE40 SB_RAM40_4K) instead of flops, and so it stays a plain
//            array in simulation.
//
//            Read-during-write of the same address is READ-FIRST by default (ReadFirst=1): the
//            read returns the data that was in the array before this cycle's write. A client that
//            needs the new data adds its own bypass register (as cc_fifo_sram does).
//            Some block RAMs leave that collision undefined (iCE40 SB_RAM40_4K, as Yosys models
//            it); there Yosys keeps read-first by adding a delayed-write stage of about 2*Width
//            flops around the BRAM. A client that never uses the collided read can set
//            ReadFirst=0: the collided read then returns X (a don't-care for synthesis, random
//            under Verilator --x-assign unique) and the RAM maps onto the bare BRAM.
//
//            rdata_o holds its value while re_i is low (the output register is enabled by re_i),
//            so a client may read once and use the data for several cycles.
//
//            The array has no reset (BRAM cannot be reset in one cycle): a location reads as
//            unknown until written. Addresses >= Depth (when Depth is not a power of two) are
//            outside the array: such writes are ignored and such reads give unknown data.
//
// Parameters:
//   Width      data bits per word (>= 1)
//   Depth      number of words (>= 1); the address is $clog2(Depth) bits wide, at least 1 bit
//   ReadFirst  1: read-during-write of one address returns the old data (default);
//              0: it returns X (unknown), for clients that never use that read
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_sram_1r1w #(
  parameter integer Width     = 8,
  parameter integer Depth     = 16,
  parameter integer ReadFirst = 1
) (
  input  wire                                          clk_i,
  input  wire                                          we_i,
  input  wire [((Depth > 1) ? $clog2(Depth) : 1)-1:0] waddr_i,
  input  wire [Width-1:0]                              wdata_i,
  input  wire                                          re_i,
  input  wire [((Depth > 1) ? $clog2(Depth) : 1)-1:0] raddr_i,
  output wire [Width-1:0]                              rdata_o
);

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Width < 1) begin : gen_check_width
      `CC_PARAM_FAIL(cc_sram_1r1w__Width_must_be_at_least_1)
    end
    if (Depth < 1) begin : gen_check_depth
      `CC_PARAM_FAIL(cc_sram_1r1w__Depth_must_be_at_least_1)
    end
    if (ReadFirst != 0 && ReadFirst != 1) begin : gen_check_read_first
      `CC_PARAM_FAIL(cc_sram_1r1w__ReadFirst_must_be_0_or_1)
    end
  endgenerate

  reg [Width-1:0] mem_q [0:Depth-1];
  reg [Width-1:0] rdata_q;

  // With non-blocking assignments the read samples the array before the write of the same edge
  // lands, which is the read-first behaviour documented above.
  wire collide = (ReadFirst == 0) && we_i && (waddr_i == raddr_i);

  always @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always @(posedge clk_i) begin
    if (re_i) rdata_q <= collide ? {Width{1'bx}} : mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule

`default_nettype wire
