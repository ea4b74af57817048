////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_xfer.v
//
// Purpose:   A transfer engine of a MANNA tile: moves whole lines between a buffer (Matrix- or
//            Vector-Buffer) and a scratchpad (Matrix- or Vector-Scratchpad), one line per cycle,
//            in the background of the control unit (docs/manna.md, "Transfers").
//              DMAT (Pad = 1): rows i = 0..n-1, buffer line buf + i * stride; scratchpad line
//                sp + i (plain) or, padded, word sp*E + i*(E+1) + j: the line is rotated by
//                i mod E banks and lands on E different banks, so a later read along a column
//                of E rows is free of bank conflicts (Fig. 4.5, step 3).
//              DMA (Pad = 0): lines i: buffer line buf + i, scratchpad line sp + i.
//            store = 0 moves buffer -> scratchpad, 1 the reverse. Two-stage pipeline: read line i
//            while line i-1 (read the cycle before) is written.
//
// Parameters:
//   Banks   E (power of two)
//   BufAW   buffer line address width;  SpAW   scratchpad line address width
//   Pad     1: the padded layout is supported (DMAT); 0: plain only (DMA)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module mna_xfer #(
  parameter integer Banks = 2,
  parameter integer BufAW = 6,
  parameter integer SpAW  = 5,
  parameter integer Pad   = 1
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire                   start_i,
  input  wire [31:0]            sp_i,        // scratchpad line
  input  wire [31:0]            buf_i,       // buffer line
  input  wire [31:0]            stride_i,    // buffer stride in lines (DMA: 1)
  input  wire [15:0]            n_i,
  input  wire                   pad_i,
  input  wire                   store_i,
  input  wire [1:0]             halves_i,    // scratchpad halves touched (for the hazard check)
  output wire                   busy_o,
  output wire [1:0]             halves_o,
  // buffer port
  output wire [Banks-1:0]       bf_re_o,
  output wire [Banks*BufAW-1:0] bf_raddr_o,
  input  wire [Banks*32-1:0]    bf_rdata_i,
  output wire [Banks-1:0]       bf_we_o,
  output wire [Banks*BufAW-1:0] bf_waddr_o,
  output wire [Banks*32-1:0]    bf_wdata_o,
  // scratchpad port
  output wire [Banks-1:0]       sp_re_o,
  output wire [Banks*SpAW-1:0]  sp_raddr_o,
  input  wire [Banks*32-1:0]    sp_rdata_i,
  output wire [Banks-1:0]       sp_we_o,
  output wire [Banks*SpAW-1:0]  sp_waddr_o,
  output wire [Banks*32-1:0]    sp_wdata_o
);

  localparam integer E  = Banks;
  localparam integer LE = $clog2(Banks);

  reg        busy_q, pad_q, store_q;
  reg [1:0]  halves_q;
  reg [15:0] n_q, i_q;                 // rows, next row to read
  reg [31:0] sp_q, stride_q;
  reg [31:0] buf_line_q;               // buffer line of row i_q
  // stage 2: the row read last cycle
  reg        v2_q;
  reg [15:0] i2_q;
  reg [31:0] buf2_q;

  wire rd = busy_q && (i_q < n_q);

  // scratchpad line of word j of row i, and the bank that word lands on
  function [31:0] sp_line(input [15:0] i, input [31:0] b);
    reg [31:0] w;
    reg [31:0] j;
    begin
      if (Pad != 0 && pad_q) begin
        j = (b - {16'd0, i}) & (E - 1);                     // the word of row i in bank b
        w = (sp_q << LE) + {16'd0, i} * (E + 1) + j;
        sp_line = w >> LE;
      end else begin
        sp_line = sp_q + {16'd0, i};
      end
    end
  endfunction
  // rotation of row i: bank b holds word (b - i) mod E
  function [Banks*32-1:0] rot_in(input [Banks*32-1:0] x, input [15:0] i);   // line -> banks
    integer b;
    reg [31:0] j;
    begin
      for (b = 0; b < E; b = b + 1) begin
        j = (Pad != 0 && pad_q) ? ((b - {16'd0, i}) & (E - 1)) : b;
        rot_in[b*32 +: 32] = x[j*32 +: 32];
      end
    end
  endfunction
  function [Banks*32-1:0] rot_out(input [Banks*32-1:0] x, input [15:0] i);  // banks -> line
    integer j;
    reg [31:0] b;
    begin
      for (j = 0; j < E; j = j + 1) begin
        b = (Pad != 0 && pad_q) ? ((j + {16'd0, i}) & (E - 1)) : j;
        rot_out[j*32 +: 32] = x[b*32 +: 32];
      end
    end
  endfunction

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      pad_q <= 1'b0;
      store_q <= 1'b0;
      halves_q <= 2'b00;
      n_q <= 16'd0;
      i_q <= 16'd0;
      sp_q <= 32'd0;
      stride_q <= 32'd0;
      buf_line_q <= 32'd0;
      v2_q <= 1'b0;
      i2_q <= 16'd0;
      buf2_q <= 32'd0;
    end else begin
      v2_q <= rd;
      if (rd) begin
        i2_q <= i_q;
        buf2_q <= buf_line_q;
        i_q <= i_q + 16'd1;
        buf_line_q <= buf_line_q + stride_q;
      end
      if (busy_q && !rd && !v2_q) busy_q <= 1'b0;
      if (start_i) begin
        busy_q <= 1'b1;
        pad_q <= pad_i;
        store_q <= store_i;
        halves_q <= halves_i;
        n_q <= n_i;
        i_q <= 16'd0;
        sp_q <= sp_i;
        stride_q <= stride_i;
        buf_line_q <= buf_i;
      end
    end
  end

  genvar gb;
  generate
    for (gb = 0; gb < Banks; gb = gb + 1) begin : gen_bank
      wire [31:0] rl = sp_line(i_q, gb);
      wire [31:0] wl = sp_line(i2_q, gb);
      wire        unused_lines = ^{rl, wl};    // cut to the scratchpad's address width
      // load: read the buffer line, write the scratchpad banks
      assign bf_re_o[gb] = rd && !store_q;
      assign bf_raddr_o[gb*BufAW +: BufAW] = buf_line_q[BufAW-1:0];
      assign sp_we_o[gb] = v2_q && !store_q;
      assign sp_waddr_o[gb*SpAW +: SpAW] = wl[SpAW-1:0];
      // store: read the scratchpad banks, write the buffer line
      assign sp_re_o[gb] = rd && store_q;
      assign sp_raddr_o[gb*SpAW +: SpAW] = rl[SpAW-1:0];
      assign bf_we_o[gb] = v2_q && store_q;
      assign bf_waddr_o[gb*BufAW +: BufAW] = buf2_q[BufAW-1:0];
    end
  endgenerate
  assign sp_wdata_o = rot_in(bf_rdata_i, i2_q);
  assign bf_wdata_o = rot_out(sp_rdata_i, i2_q);

  wire unused_buf = ^buf2_q;      // cut to the buffer's address width

  assign busy_o   = busy_q;
  assign halves_o = halves_q;

endmodule
