////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_spad.v
//
// Purpose:   One banked tile memory of MANNA (Matrix-/Vector-Buffer or -Scratchpad): Banks banks
//            of 32-bit words, each bank split into Halves physical RAMs (cc_sram_1r1w) so that a
//            transfer engine and the compute side work on different halves in the same cycle
//            (the double buffering of docs/manna.md). Two ports, each with an independent line
//            address per bank:
//              port A  the transfer engine (DMAT or DMA),
//              port B  the compute side (eMACs, SFU, collectives) and the host.
//            Per half and bank, port A wins when it addresses that half; the control unit's
//            hazard rule keeps the two ports on different halves, so nothing is lost.
//            Reads return one cycle later (rdata of a port is from the half that port addressed).
//            A read of the line a port writes in the same cycle returns the new word
//            (write-first): a client pipeline that writes line k while it reads line k+1 sees
//            program order.
//
// Parameters:
//   Banks   banks (E, the line width in words)
//   Lines   lines in all (Lines / Halves per physical RAM)
//   Halves  1 or 2; with 2, half = the line address's top bit (line >= Lines / 2)
//   AW      line address width (>= clog2(Lines))
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module mna_spad #(
  parameter integer Banks  = 2,
  parameter integer Lines  = 16,
  parameter integer Halves = 2,
  parameter integer AW     = 4
) (
  input  wire                 clk_i,
  input  wire [Banks-1:0]     a_re_i,
  input  wire [Banks*AW-1:0]  a_raddr_i,
  output wire [Banks*32-1:0]  a_rdata_o,
  input  wire [Banks-1:0]     a_we_i,
  input  wire [Banks*AW-1:0]  a_waddr_i,
  input  wire [Banks*32-1:0]  a_wdata_i,
  input  wire [Banks-1:0]     b_re_i,
  input  wire [Banks*AW-1:0]  b_raddr_i,
  output wire [Banks*32-1:0]  b_rdata_o,
  input  wire [Banks-1:0]     b_we_i,
  input  wire [Banks*AW-1:0]  b_waddr_i,
  input  wire [Banks*32-1:0]  b_wdata_i
);

  localparam integer HL  = Lines / Halves;                 // lines per physical RAM
  localparam integer HAW = (HL > 1) ? $clog2(HL) : 1;

  generate
    if (Halves != 1 && Halves != 2) begin : gen_check_halves
      `CC_PARAM_FAIL(mna_spad__Halves_must_be_1_or_2)
    end
    if (Halves == 2 && (Lines % 2) != 0) begin : gen_check_even
      `CC_PARAM_FAIL(mna_spad__Lines_must_be_even_with_two_halves)
    end
    if ((1 << AW) < Lines) begin : gen_check_aw
      `CC_PARAM_FAIL(mna_spad__AW_too_small_for_Lines)
    end
  endgenerate

  genvar gb, gh;
  generate
    for (gb = 0; gb < Banks; gb = gb + 1) begin : gen_bank
      wire [AW-1:0] ara = a_raddr_i[gb*AW +: AW];
      wire [AW-1:0] awa = a_waddr_i[gb*AW +: AW];
      wire [AW-1:0] bra = b_raddr_i[gb*AW +: AW];
      wire [AW-1:0] bwa = b_waddr_i[gb*AW +: AW];
      // the half each access addresses, and the line within it
      wire ar_h = (Halves == 2) && (ara >= HL[AW-1:0]);
      wire aw_h = (Halves == 2) && (awa >= HL[AW-1:0]);
      wire br_h = (Halves == 2) && (bra >= HL[AW-1:0]);
      wire bw_h = (Halves == 2) && (bwa >= HL[AW-1:0]);
      wire [AW-1:0] ara_l = ar_h ? ara - HL[AW-1:0] : ara;
      wire [AW-1:0] awa_l = aw_h ? awa - HL[AW-1:0] : awa;
      wire [AW-1:0] bra_l = br_h ? bra - HL[AW-1:0] : bra;
      wire [AW-1:0] bwa_l = bw_h ? bwa - HL[AW-1:0] : bwa;
      wire [31:0] rd_h [0:1];
      reg a_h_q, b_h_q;
      // write-first bypass per port
      reg a_byp_q, b_byp_q;
      reg [31:0] a_bypd_q, b_bypd_q;
      always @(posedge clk_i) begin
        if (a_re_i[gb]) begin
          a_h_q    <= ar_h;
          a_byp_q  <= (a_we_i[gb] && awa == ara) || (b_we_i[gb] && bwa == ara);
          a_bypd_q <= (a_we_i[gb] && awa == ara) ? a_wdata_i[gb*32 +: 32] : b_wdata_i[gb*32 +: 32];
        end
        if (b_re_i[gb]) begin
          b_h_q    <= br_h;
          b_byp_q  <= (a_we_i[gb] && awa == bra) || (b_we_i[gb] && bwa == bra);
          b_bypd_q <= (a_we_i[gb] && awa == bra) ? a_wdata_i[gb*32 +: 32] : b_wdata_i[gb*32 +: 32];
        end
      end
      for (gh = 0; gh < 2; gh = gh + 1) begin : gen_half
        if (gh < Halves) begin : gen_ram
          wire a_r = a_re_i[gb] && (ar_h == (gh == 1));
          wire a_w = a_we_i[gb] && (aw_h == (gh == 1));
          wire b_r = b_re_i[gb] && (br_h == (gh == 1));
          wire b_w = b_we_i[gb] && (bw_h == (gh == 1));
          wire [AW-1:0] ra = a_r ? ara_l : bra_l;
          wire [AW-1:0] wa = a_w ? awa_l : bwa_l;
          wire          unused_addr = ^{ra, wa};   // the top bit selects the half
          cc_sram_1r1w #(.Width(32), .Depth(HL)) u_ram (
            .clk_i  (clk_i),
            .we_i   (a_w || b_w),
            .waddr_i(wa[HAW-1:0]),
            .wdata_i(a_w ? a_wdata_i[gb*32 +: 32] : b_wdata_i[gb*32 +: 32]),
            .re_i   (a_r || b_r),
            .raddr_i(ra[HAW-1:0]),
            .rdata_o(rd_h[gh])
          );
        end else begin : gen_none
          assign rd_h[gh] = 32'd0;
        end
      end
      assign a_rdata_o[gb*32 +: 32] = a_byp_q ? a_bypd_q : rd_h[a_h_q];
      assign b_rdata_o[gb*32 +: 32] = b_byp_q ? b_bypd_q : rd_h[b_h_q];
    end
  endgenerate

endmodule
