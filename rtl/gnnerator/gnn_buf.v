////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_buf.v
//
// Purpose:   One double-buffered Dense Engine buffer (input, weight or output): two banks of Depth
//            lines of Lw fp32 words, each a 1R1W SRAM (cc_sram_1r1w, one cycle of read latency).
//            Line addresses are global, 0 .. 2*Depth-1 (bank = addr >= Depth). Two read clients
//            and two write clients share the banks: the issue logic never lets two units in
//            flight touch the same bank, so each bank's port goes to whichever client addresses
//            it (client 0 first). A client's read data comes from the bank it read last.
//
// Parameters:
//   Depth   lines per bank
//   Lw      words per line
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_buf #(
  parameter integer Depth = 64,
  parameter integer Lw    = 4
) (
  input  wire             clk_i,
  input  wire             r0_en_i,
  input  wire [15:0]      r0_addr_i,
  output wire [Lw*32-1:0] r0_data_o,
  input  wire             r1_en_i,
  input  wire [15:0]      r1_addr_i,
  output wire [Lw*32-1:0] r1_data_o,
  input  wire             w0_en_i,
  input  wire [15:0]      w0_addr_i,
  input  wire [Lw*32-1:0] w0_data_i,
  input  wire             w1_en_i,
  input  wire [15:0]      w1_addr_i,
  input  wire [Lw*32-1:0] w1_data_i
);

  localparam integer Aw = (Depth > 1) ? $clog2(Depth) : 1;
  localparam integer DepthInt = Depth;
  localparam [16:0]  Depth17 = DepthInt[16:0];

  // bank and index of a global line address
  function automatic bank_of(input [15:0] a);
    bank_of = {1'b0, a} >= Depth17;
  endfunction
  // (index = a - Depth in bank 1: exact modulo 2^Aw, as the index is below Depth <= 2^Aw)
  function automatic [Aw-1:0] idx_of(input [15:0] a);
    idx_of = bank_of(a) ? (a[Aw-1:0] - Depth17[Aw-1:0]) : a[Aw-1:0];
  endfunction

  wire            r0_bank = bank_of(r0_addr_i), r1_bank = bank_of(r1_addr_i);
  wire            w0_bank = bank_of(w0_addr_i), w1_bank = bank_of(w1_addr_i);
  reg             r0_sel_q, r1_sel_q;
  wire [Lw*32-1:0] rdata [0:1];

  always @(posedge clk_i) begin
    if (r0_en_i) r0_sel_q <= r0_bank;
    if (r1_en_i) r1_sel_q <= r1_bank;
  end

  genvar b;
  generate
    for (b = 0; b < 2; b = b + 1) begin : gen_bank
      wire r0_hit = r0_en_i && (r0_bank == b[0]);
      wire r1_hit = r1_en_i && (r1_bank == b[0]);
      wire w0_hit = w0_en_i && (w0_bank == b[0]);
      wire w1_hit = w1_en_i && (w1_bank == b[0]);
      cc_sram_1r1w #(.Width(Lw*32), .Depth(Depth)) u_sram (
        .clk_i  (clk_i),
        .we_i   (w0_hit || w1_hit),
        .waddr_i(w0_hit ? idx_of(w0_addr_i) : idx_of(w1_addr_i)),
        .wdata_i(w0_hit ? w0_data_i : w1_data_i),
        .re_i   (r0_hit || r1_hit),
        .raddr_i(r0_hit ? idx_of(r0_addr_i) : idx_of(r1_addr_i)),
        .rdata_o(rdata[b])
      );
`ifndef SYNTHESIS
      // the issue logic gives a bank to one unit at a time: two clients on one port is a bug
      always @(posedge clk_i) begin
        if ((r0_hit && r1_hit) || (w0_hit && w1_hit)) begin
          $display("%m: ERROR at %0t: two clients on one port of bank %0d", $time, b);
          $stop;
        end
      end
`endif
    end
  endgenerate

  assign r0_data_o = rdata[r0_sel_q];
  assign r1_data_o = rdata[r1_sel_q];

endmodule

`default_nettype wire
