////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_gdec.v
//
// Purpose:   Decode checks of the Graph Engine instructions (GLOAD 8, GSTORE 9, GFILL 10,
//            GRUN 11; cmodel/include/gnnerator.h, "GRAPH ENGINE"): the error code in the fixed
//            order FIELD, SIZE, WIDTH, RANGE (OPCODE is the caller's: any other opcode), the
//            unit (3 GLD, 4 GST, 5 GEX), the EDGE/IF/MF banks the instruction uses (bits 6..11
//            of the engine's bank mask) and its DRAM range [lo, hi) (GLOAD/GSTORE; empty
//            otherwise). Purely combinational; the model's gnn_gcheck is the same list.
//
// Parameters:
//   Gpes, Lanes        GPEs and lanes (powers of two)
//   EdgeDepth, IfDepth, MfDepth   entries / lines per bank of each GPE's memories
//   AddrW              DRAM word-address bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_gdec #(
  parameter integer Gpes      = 4,
  parameter integer Lanes     = 4,
  parameter integer EdgeDepth = 64,
  parameter integer IfDepth   = 64,
  parameter integer MfDepth   = 64,
  parameter integer AddrW     = 20
) (
  input  wire [127:0]     insn_i,
  output reg  [2:0]       err_o,
  output reg  [2:0]       unit_o,
  output reg  [11:0]      banks_o,
  output reg  [AddrW:0]   dram_lo_o,
  output reg  [AddrW:0]   dram_hi_o
);

  localparam [3:0] OpGload = 4'd8, OpGstore = 4'd9, OpGfill = 4'd10;
  localparam [2:0] EOk = 3'd0, EField = 3'd2, ESize = 3'd3, EWidth = 3'd4, ERange = 3'd5;
  localparam [2:0] UnitGld = 3'd3, UnitGst = 3'd4, UnitGex = 3'd5;
  localparam integer LogP = (Gpes > 1) ? $clog2(Gpes) : 0;
  localparam integer LogL = (Lanes > 1) ? $clog2(Lanes) : 0;
  localparam integer GpesInt = Gpes, LanesInt = Lanes;
  localparam [16:0]  P17 = GpesInt[16:0];
  localparam [8:0]   L9  = LanesInt[8:0];
  localparam [7:0]   P8  = GpesInt[7:0];

  // Reserved bits per opcode (the field tables of gnnerator.h).
  localparam [127:0] RsvMem  = {16'hFFFF, 112'h0} | 128'hC0;
  localparam [127:0] RsvFill = {48'hFFFF_FFFF_FFFF, 64'h0, 16'hFFF0};
  localparam [127:0] RsvRun  = {8'hFF, 104'h0, 16'hC000};

  wire [3:0]  op     = insn_i[3:0];
  wire [1:0]  mem    = insn_i[5:4];     // GLOAD/GSTORE; GRUN mode
  wire [1:0]  apply  = insn_i[7:6];
  wire [1:0]  sfu    = insn_i[9:8];
  wire [7:0]  dim    = insn_i[15:8];
  wire [15:0] base   = insn_i[31:16];   // GLOAD/GSTORE/GFILL base; GRUN ebase
  wire [15:0] n      = insn_i[47:32];   // GLOAD/GSTORE/GFILL n; GRUN count
  wire [15:0] nodes  = insn_i[63:48];
  wire [15:0] if0    = insn_i[79:64];
  wire [15:0] if1    = insn_i[95:80];
  wire [15:0] mf     = insn_i[111:96];
  wire [7:0]  ch     = insn_i[119:112];
  wire [31:0] addr   = insn_i[79:48];
  wire [31:0] stride = insn_i[111:80];
  wire        edges  = (mem == 2'd1);
  wire        use1   = (apply == 2'd1) || (apply == 2'd2);
  wire        stream_bad = !edges && ((base != 16'd0) || (n != 16'd0) || insn_i[12] || insn_i[13]);

  // Lines a GPE holds of a block of `cnt` nodes of `chn` lines each: ceil(cnt / P) * chn.
  function automatic [33:0] blk_lines(input [15:0] cnt, input [7:0] chn);
    reg [16:0] rows;
    begin
      rows      = ({1'b0, cnt} + P17 - 17'd1) >> LogP;
      blk_lines = {17'd0, rows} * {26'd0, chn};
    end
  endfunction
  `include "gnn_bank.vh"

  wire [8:0]  ch_mem  = ({1'b0, dim} + L9 - 9'd1) >> LogL;   // GLOAD/GSTORE lines a node
  wire        unused_bits = ch_mem[8];   // (ch_mem < 256: dim < 256)
  wire [33:0] mem_lines = (mem == 2'd0) ? {18'd0, n} : blk_lines(n, ch_mem[7:0]);
  wire [33:0] run_lines = blk_lines(nodes, ch);
  wire        mem_ok  = (mem == 2'd0) ? gnn_in_bank(base, mem_lines, EdgeDepth) :
                        (mem == 2'd1) ? gnn_in_bank(base, mem_lines, IfDepth) :
                                        gnn_in_bank(base, mem_lines, MfDepth);
  wire        mem_bank = (mem == 2'd0) ? gnn_bank_of(base, EdgeDepth) :
                         (mem == 2'd1) ? gnn_bank_of(base, IfDepth) : gnn_bank_of(base, MfDepth);
  wire        run_ok  = (!edges || gnn_in_bank(base, {18'd0, n}, EdgeDepth)) &&
                        gnn_in_bank(if0, run_lines, IfDepth) &&
                        (!use1 || gnn_in_bank(if1, run_lines, IfDepth)) &&
                        gnn_in_bank(mf, run_lines, MfDepth);

  // DRAM range: [addr, addr + (n-1)*stride + w), w = P (EDGE) or dim.
  wire [7:0]  dram_w   = (mem == 2'd0) ? P8 : dim;
  wire [49:0] addr_x   = {18'd0, addr};
  wire [47:0] dram_span = {32'd0, n - 16'd1} * {16'd0, stride};
  wire [49:0] dram_end = addr_x + {2'b00, dram_span} + {42'd0, dram_w};
  wire        dram_ok  = dram_end <= (50'd1 << AddrW);

  wire b_e = gnn_bank_of(base, EdgeDepth);
  wire b_0 = gnn_bank_of(if0, IfDepth);
  wire b_1 = gnn_bank_of(if1, IfDepth);
  wire b_m = gnn_bank_of(mf, MfDepth);
  wire b_f = gnn_bank_of(base, MfDepth);

  always @(*) begin
    err_o     = EOk;
    unit_o    = UnitGex;
    banks_o   = 12'd0;
    dram_lo_o = {(AddrW+1){1'b0}};
    dram_hi_o = {(AddrW+1){1'b0}};
    if (op == OpGload || op == OpGstore) begin
      unit_o    = (op == OpGload) ? UnitGld : UnitGst;
      dram_lo_o = addr_x[AddrW:0];
      dram_hi_o = dram_end[AddrW:0];
      if ((insn_i & RsvMem) != 128'd0 || mem == 2'd3 || (mem == 2'd0 && dim != 8'd0) ||
          (op == OpGstore && mem != 2'd2))                          err_o = EField;
      else if (n == 16'd0)                                          err_o = ESize;
      else if (mem != 2'd0 && dim == 8'd0)                          err_o = EWidth;
      else if (!mem_ok || !dram_ok)                                 err_o = ERange;
      case (mem)
        2'd0:    banks_o = {4'b0000, mem_bank, !mem_bank, 6'd0};
        2'd1:    banks_o = {2'b00, mem_bank, !mem_bank, 8'd0};
        default: banks_o = {mem_bank, !mem_bank, 10'd0};
      endcase
    end else if (op == OpGfill) begin
      if ((insn_i & RsvFill) != 128'd0)                             err_o = EField;
      else if (n == 16'd0)                                          err_o = ESize;
      else if (!gnn_in_bank(base, {18'd0, n}, MfDepth))                 err_o = ERange;
      banks_o = {b_f, !b_f, 10'd0};
    end else begin  // GRUN
      if ((insn_i & RsvRun) != 128'd0 || mem[1] || (sfu == 2'd3) || stream_bad)
                                                                    err_o = EField;
      else if (nodes == 16'd0 || ch == 8'd0 || (edges && n == 16'd0)) err_o = ESize;
      else if (!run_ok)                                             err_o = ERange;
      banks_o = {b_m, !b_m, use1 & b_1, use1 & !b_1, edges & b_e, edges & !b_e, 6'd0} |
                {2'b00, b_0, !b_0, 8'd0};
    end
  end

endmodule

`default_nettype wire
