////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_dec.v
//
// Purpose:   Static decode of one 128-bit Dense Engine instruction (combinational): the error
//            code of the first failing check (cmodel/include/gnnerator.h, ERRORS: OPCODE,
//            FIELD, SIZE, WIDTH, RANGE, OVERLAP), the unit that executes it (LD, ST, EX), the
//            buffer banks it touches (bit b: IN bank 0/1 = bits 0/1, WT 2/3, OUT 4/5) and, for
//            LOAD/STORE, the DRAM word range [lo, hi) for the LOAD/STORE ordering check.
//
// Parameters:
//   Rows, Cols                 array size (LW = max(Rows, Cols) words a line)
//   InDepth, WtDepth, OutDepth lines per bank of each buffer
//   AddrW                      DRAM word-address bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_dec #(
  parameter integer Rows     = 4,
  parameter integer Cols     = 4,
  parameter integer InDepth  = 64,
  parameter integer WtDepth  = 64,
  parameter integer OutDepth = 64,
  parameter integer AddrW    = 20
) (
  input  wire [127:0]     insn_i,
  output reg  [2:0]       err_o,
  output reg  [1:0]       unit_o,    // 0 LD, 1 ST, 2 EX
  output reg  [5:0]       banks_o,
  output reg  [AddrW:0]   dram_lo_o,
  output reg  [AddrW:0]   dram_hi_o
);

  localparam integer Lw = (Rows > Cols) ? Rows : Cols;
  localparam [3:0] OpLoad = 4'd1, OpStore = 4'd2, OpMatmul = 4'd3, OpMadd = 4'd4, OpAct = 4'd5,
                   OpCopy = 4'd6;
  localparam [2:0] EOk = 3'd0, EOpcode = 3'd1, EField = 3'd2, ESize = 3'd3, EWidth = 3'd4,
                   ERange = 3'd5, EOverlap = 3'd6;
  localparam [1:0] UnitLd = 2'd0, UnitSt = 2'd1, UnitEx = 2'd2;
  localparam [1:0] DfOs = 2'd0, DfWs = 2'd1;

  // Reserved-bit masks per opcode (bits an opcode does not name must be 0).
  localparam [127:0] RsvLdSt  = {16'hFFFF, 112'h0} | 128'hC0;
  localparam [127:0] RsvMatmul = {16'hFFFF, 112'h0} | 128'hFC80;
  localparam [127:0] RsvMadd  = {16'hFFFF, 16'h0, 16'hFFFF, 32'h0, 16'hFFFF, 16'h0, 16'hFCF0};
  localparam [127:0] RsvAct   = {16'hFFFF, 16'h0, 16'hFFFF, 16'hFFFF, 16'h0, 16'hFFFF, 16'h0,
                                 16'hFCF0};
  localparam [127:0] RsvCopy  = {48'hFFFF_FFFF_FFFF, 16'h0, 16'h0, 16'hFFFF, 16'h0, 16'hFFF0};

  wire [3:0]  op     = insn_i[3:0];
  wire [1:0]  bufsel = insn_i[5:4];
  wire [1:0]  df     = insn_i[5:4];
  wire        act_hi = insn_i[9];       // act 2 and 3 are reserved
  wire [7:0]  w      = insn_i[15:8];
  wire [15:0] f16    = insn_i[31:16];   // LOAD/STORE line; MATMUL M; MADD/ACT/COPY n
  wire [15:0] f32    = insn_i[47:32];   // LOAD/STORE n; MATMUL K
  wire [15:0] f48    = insn_i[63:48];   // MATMUL N; MADD/ACT/COPY src0
  wire [15:0] f64    = insn_i[79:64];   // MATMUL in; MADD src1; COPY dst
  wire [15:0] f80    = insn_i[95:80];   // MATMUL wt
  wire [15:0] f96    = insn_i[111:96];  // MATMUL out; MADD/ACT dst
  wire [31:0] addr   = insn_i[79:48];
  wire [31:0] stride = insn_i[111:80];

  wire [31:0] rows32 = Rows;
  wire [31:0] cols32 = Cols;
  wire [33:0] R34 = {2'b00, rows32};
  wire [33:0] C34 = {2'b00, cols32};
  wire [33:0] m_x = {18'd0, f16};
  wire [33:0] k_x = {18'd0, f32};
  wire [33:0] n_x = {18'd0, f48};

  // Ceiling divisions of the MATMUL sizes by the array sides: a shift when the side is a power
  // of two, a division by the constant otherwise (generate: only one is built).
  localparam integer LogR = (Rows > 1) ? $clog2(Rows) : 0;
  localparam integer LogC = (Cols > 1) ? $clog2(Cols) : 0;
  wire [33:0] kb, mbr, mbc, nbc;
  generate
    if ((1 << LogR) == Rows) begin : gen_rdiv_shift
      assign kb  = (k_x + R34 - 34'd1) >> LogR;
      assign mbr = (m_x + R34 - 34'd1) >> LogR;
    end else begin : gen_rdiv
      assign kb  = (k_x + R34 - 34'd1) / R34;
      assign mbr = (m_x + R34 - 34'd1) / R34;
    end
    if ((1 << LogC) == Cols) begin : gen_cdiv_shift
      assign mbc = (m_x + C34 - 34'd1) >> LogC;
      assign nbc = (n_x + C34 - 34'd1) >> LogC;
    end else begin : gen_cdiv
      assign mbc = (m_x + C34 - 34'd1) / C34;
      assign nbc = (n_x + C34 - 34'd1) / C34;
    end
  endgenerate
  wire [33:0] kbr = kb * R34;

  // Lines of each buffer a MATMUL uses (gnnerator.h, LAYOUTS): 16 x 16 (and 16 x 17) bit
  // products, as narrow as the operands (the quotients fit 16 bits, KB*R 17).
  wire [15:0] kb16 = kb[15:0], mbr16 = mbr[15:0], mbc16 = mbc[15:0], nbc16 = nbc[15:0];
  wire [16:0] kbr17 = kbr[16:0];
  wire unused_q = ^{kb[33:16], mbr[33:16], mbc[33:16], nbc[33:16], kbr[33:17]};
  reg [32:0] in_l, wt_l, out_l;
  always @(*) begin
    case (df)
      DfOs: begin
        in_l  = {17'd0, mbr16} * {17'd0, f32};
        wt_l  = {17'd0, nbc16} * {17'd0, f32};
        out_l = {17'd0, mbr16} * {17'd0, f48};
      end
      DfWs: begin
        in_l  = {17'd0, kb16} * {17'd0, f16};
        wt_l  = {17'd0, nbc16} * {16'd0, kbr17};
        out_l = {17'd0, nbc16} * {17'd0, f16};
      end
      default: begin
        in_l  = {17'd0, mbc16} * {16'd0, kbr17};
        wt_l  = {17'd0, kb16} * {17'd0, f48};
        out_l = {17'd0, mbc16} * {17'd0, f48};
      end
    endcase
  end
  wire [33:0] in_lines = {1'b0, in_l}, wt_lines = {1'b0, wt_l}, out_lines = {1'b0, out_l};

  `include "gnn_bank.vh"

  wire [33:0] n_lines = {18'd0, f16};  // MADD/ACT/COPY
  wire [33:0] src0_x  = {18'd0, f48};
  wire [33:0] dst_x   = {18'd0, f96};
  wire        overlap = (f96 != f48) && (dst_x < src0_x + n_lines) && (src0_x < dst_x + n_lines);

  // DRAM range of a LOAD/STORE: [addr, addr + (n-1)*stride + w).
  wire [49:0] addr_x   = {18'd0, addr};
  wire [47:0] dram_span = {32'd0, f32 - 16'd1} * {16'd0, stride};  // (n-1) * stride: 16 x 32
  wire [49:0] dram_end = addr_x + {2'b00, dram_span} + {42'd0, w};
  wire        dram_ok  = dram_end <= (50'd1 << AddrW);

  localparam integer LwInt = Lw;
  localparam [7:0]   LwW   = LwInt[7:0];
  wire        ld_depth_ok = (bufsel == 2'd0) ? gnn_in_bank(f16, {18'd0, f32}, InDepth) :
                            (bufsel == 2'd1) ? gnn_in_bank(f16, {18'd0, f32}, WtDepth) :
                                               gnn_in_bank(f16, {18'd0, f32}, OutDepth);
  wire        ld_bank     = (bufsel == 2'd0) ? gnn_bank_of(f16, InDepth) :
                            (bufsel == 2'd1) ? gnn_bank_of(f16, WtDepth) :
                                               gnn_bank_of(f16, OutDepth);
  wire        b_in  = gnn_bank_of(f64, InDepth);
  wire        b_wt  = gnn_bank_of(f80, WtDepth);
  wire        b_out = gnn_bank_of(f96, OutDepth);
  wire        b_src = gnn_bank_of(f48, OutDepth);

  always @(*) begin
    err_o     = EOk;
    unit_o    = UnitEx;
    banks_o   = 6'd0;
    dram_lo_o = addr_x[AddrW:0];
    dram_hi_o = dram_end[AddrW:0];
    case (op)
      OpLoad, OpStore: begin
        unit_o = (op == OpLoad) ? UnitLd : UnitSt;
        if ((insn_i & RsvLdSt) != 128'd0 || bufsel == 2'd3 ||
            (op == OpStore && bufsel != 2'd2))                 err_o = EField;
        else if (f32 == 16'd0)                                  err_o = ESize;
        else if (w == 8'd0 || w > LwW)                          err_o = EWidth;
        else if (!ld_depth_ok || !dram_ok)                      err_o = ERange;
        case (bufsel)
          2'd0:    banks_o = {4'b0000, ld_bank, !ld_bank};
          2'd1:    banks_o = {2'b00, ld_bank, !ld_bank, 2'b00};
          default: banks_o = {ld_bank, !ld_bank, 4'b0000};
        endcase
      end
      OpMatmul: begin
        if ((insn_i & RsvMatmul) != 128'd0 || df == 2'd3 || act_hi) err_o = EField;
        else if (f16 == 16'd0 || f32 == 16'd0 || f48 == 16'd0)      err_o = ESize;
        else if (!gnn_in_bank(f64, in_lines, InDepth) || !gnn_in_bank(f80, wt_lines, WtDepth) ||
                 !gnn_in_bank(f96, out_lines, OutDepth))                 err_o = ERange;
        banks_o = {b_out, !b_out, b_wt, !b_wt, b_in, !b_in};
      end
      OpMadd, OpAct: begin
        if ((insn_i & ((op == OpMadd) ? RsvMadd : RsvAct)) != 128'd0 || act_hi) err_o = EField;
        else if (f16 == 16'd0)                                              err_o = ESize;
        else if (!gnn_in_bank(f48, n_lines, OutDepth) ||
                 (op == OpMadd && !gnn_in_bank(f64, n_lines, InDepth)) ||
                 !gnn_in_bank(f96, n_lines, OutDepth))                          err_o = ERange;
        else if (overlap)                                                   err_o = EOverlap;
        banks_o = {b_out | b_src, !b_out | !b_src, 2'b00,
                   (op == OpMadd) & b_in, (op == OpMadd) & !b_in};
      end
      OpCopy: begin
        if ((insn_i & RsvCopy) != 128'd0)                                   err_o = EField;
        else if (f16 == 16'd0)                                              err_o = ESize;
        else if (!gnn_in_bank(f48, n_lines, OutDepth) ||
                 !gnn_in_bank(f64, n_lines, InDepth))                 err_o = ERange;
        banks_o = {b_src, !b_src, 2'b00, b_in, !b_in};
      end
      default: err_o = EOpcode;
    endcase
  end

endmodule

`default_nettype wire
