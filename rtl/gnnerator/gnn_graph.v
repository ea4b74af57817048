////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_graph.v
//
// Purpose:   GNNerator Graph Engine (docs/gnnerator.md, "Graph Engine"): its three units -- GLD
//            (Shard Edge / Feature Fetch, gnn_gld), GST (Shard Writeback, gnn_gst) and GEX
//            (Shard Compute with the Graph Engine controller, gnn_gex) -- and every GPE's three
//            double-buffered memories: EDGE (one edge word a line), IF (input features, two
//            copies so both feature fetchers read in one cycle) and MF (modified features).
//            The engine top (gnnerator) issues instructions to the units and keeps any two
//            units off one bank, so each bank port goes to the unit that addresses it.
//
// Parameters:
//   Gpes, Lanes                    P GPEs of L lanes (powers of two; paper 32 x 32)
//   Sfus                           units of the shared SFU pool (1..Gpes; paper config 8)
//   EdgeDepth, IfDepth, MfDepth    entries / lines per bank of each GPE's memories
//   Pw                             words of the memory port (>= Lanes, >= Gpes)
//   AddrW                          DRAM word-address bits
//   Tags                           GLD reads in flight at most
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_graph #(
  parameter integer Gpes      = 4,
  parameter integer Lanes     = 4,
  parameter integer Sfus      = 1,
  parameter integer EdgeDepth = 64,
  parameter integer IfDepth   = 64,
  parameter integer MfDepth   = 64,
  parameter integer Pw        = 4,
  parameter integer AddrW     = 20,
  parameter integer Tags      = 128
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire [127:0]     insn_i,
  input  wire [11:0]      banks_i,
  input  wire             go_gld_i,
  input  wire             go_gst_i,
  input  wire             go_gex_i,
  output wire             gld_busy_o,
  output wire [11:0]      gld_pend_o,
  output wire             gst_busy_o,
  output wire             gex_busy_o,
  output wire [31:0]      bad_edges_o,
  // GLD reads
  output wire             ld_req_valid_o,
  input  wire             ld_req_ready_i,
  output wire [AddrW-1:0] ld_req_addr_o,
  output wire [7:0]       ld_req_words_o,
  input  wire             ld_rsp_valid_i,
  input  wire [Pw*32-1:0] ld_rsp_data_i,
  // GST writes
  output wire             st_req_valid_o,
  input  wire             st_req_ready_i,
  output wire [AddrW-1:0] st_req_addr_o,
  output wire [7:0]       st_req_words_o,
  output wire [Pw*32-1:0] st_req_data_o
);

  localparam integer GpeW = (Gpes > 1) ? $clog2(Gpes) : 1;
  localparam integer LW   = Lanes * 32;

  // ---------------------------------------------------------------- units
  wire            w_en;
  wire [1:0]      w_mem;
  wire [GpeW-1:0] w_gpe;
  wire [15:0]     w_line;
  wire [Pw*32-1:0] w_data;
  gnn_gld #(.Gpes(Gpes), .Lanes(Lanes), .Pw(Pw), .AddrW(AddrW), .Tags(Tags)) u_gld (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .start_i     (go_gld_i),
    .insn_i      (insn_i),
    .bank_i      (banks_i),
    .busy_o      (gld_busy_o),
    .pend_banks_o(gld_pend_o),
    .req_valid_o (ld_req_valid_o),
    .req_ready_i (ld_req_ready_i),
    .req_addr_o  (ld_req_addr_o),
    .req_words_o (ld_req_words_o),
    .rsp_valid_i (ld_rsp_valid_i),
    .rsp_data_i  (ld_rsp_data_i),
    .we_o        (w_en),
    .wmem_o      (w_mem),
    .wgpe_o      (w_gpe),
    .wline_o     (w_line),
    .wdata_o     (w_data)
  );

  wire              st_re;
  wire [GpeW-1:0]   st_rgpe;
  wire [15:0]       st_raddr;
  wire [Gpes*LW-1:0] st_rdata;
  gnn_gst #(.Gpes(Gpes), .Lanes(Lanes), .Pw(Pw), .AddrW(AddrW)) u_gst (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (go_gst_i),
    .insn_i     (insn_i),
    .busy_o     (gst_busy_o),
    .re_o       (st_re),
    .rgpe_o     (st_rgpe),
    .raddr_o    (st_raddr),
    .rdata_i    (st_rdata),
    .req_valid_o(st_req_valid_o),
    .req_ready_i(st_req_ready_i),
    .req_addr_o (st_req_addr_o),
    .req_words_o(st_req_words_o),
    .req_data_o (st_req_data_o)
  );

  wire [Gpes-1:0]      e_re, f0_re, f1_re, m_re, m_we;
  wire [Gpes*16-1:0]   e_raddr, f0_raddr, f1_raddr, m_raddr, m_waddr;
  wire [Gpes*32-1:0]   e_rdata;
  wire [Gpes*LW-1:0]   f0_rdata, f1_rdata, m_rdata, m_wdata;
  gnn_gex #(.Gpes(Gpes), .Lanes(Lanes), .Sfus(Sfus)) u_gex (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (go_gex_i),
    .insn_i     (insn_i),
    .busy_o     (gex_busy_o),
    .bad_edges_o(bad_edges_o),
    .e_re_o     (e_re),
    .e_raddr_o  (e_raddr),
    .e_rdata_i  (e_rdata),
    .f0_re_o    (f0_re),
    .f0_raddr_o (f0_raddr),
    .f0_rdata_i (f0_rdata),
    .f1_re_o    (f1_re),
    .f1_raddr_o (f1_raddr),
    .f1_rdata_i (f1_rdata),
    .m_re_o     (m_re),
    .m_raddr_o  (m_raddr),
    .m_rdata_i  (m_rdata),
    .m_we_o     (m_we),
    .m_waddr_o  (m_waddr),
    .m_wdata_o  (m_wdata)
  );

  // ---------------------------------------------------------------- memories of each GPE
  genvar g;
  generate
    for (g = 0; g < Gpes; g = g + 1) begin : gen_gpe
      localparam integer GInt = g;
      wire to_me  = w_en && (w_gpe == GInt[GpeW-1:0]);
      wire [31:0] unused_e_r1;
      wire [LW-1:0] unused_f0_r1, unused_f1_r1;
      gnn_buf #(.Depth(EdgeDepth), .Lw(1)) u_edge (
        .clk_i(clk_i),
        .r0_en_i(e_re[g]), .r0_addr_i(e_raddr[g*16 +: 16]), .r0_data_o(e_rdata[g*32 +: 32]),
        .r1_en_i(1'b0), .r1_addr_i(16'd0), .r1_data_o(unused_e_r1),
        .w0_en_i(w_en && w_mem == 2'd0), .w0_addr_i(w_line), .w0_data_i(w_data[g*32 +: 32]),
        .w1_en_i(1'b0), .w1_addr_i(16'd0), .w1_data_i(32'd0)
      );
      gnn_buf #(.Depth(IfDepth), .Lw(Lanes)) u_if0 (
        .clk_i(clk_i),
        .r0_en_i(f0_re[g]), .r0_addr_i(f0_raddr[g*16 +: 16]), .r0_data_o(f0_rdata[g*LW +: LW]),
        .r1_en_i(1'b0), .r1_addr_i(16'd0), .r1_data_o(unused_f0_r1),
        .w0_en_i(to_me && w_mem == 2'd1), .w0_addr_i(w_line), .w0_data_i(w_data[LW-1:0]),
        .w1_en_i(1'b0), .w1_addr_i(16'd0), .w1_data_i({LW{1'b0}})
      );
      gnn_buf #(.Depth(IfDepth), .Lw(Lanes)) u_if1 (
        .clk_i(clk_i),
        .r0_en_i(f1_re[g]), .r0_addr_i(f1_raddr[g*16 +: 16]), .r0_data_o(f1_rdata[g*LW +: LW]),
        .r1_en_i(1'b0), .r1_addr_i(16'd0), .r1_data_o(unused_f1_r1),
        .w0_en_i(to_me && w_mem == 2'd1), .w0_addr_i(w_line), .w0_data_i(w_data[LW-1:0]),
        .w1_en_i(1'b0), .w1_addr_i(16'd0), .w1_data_i({LW{1'b0}})
      );
      gnn_buf #(.Depth(MfDepth), .Lw(Lanes)) u_mf (
        .clk_i(clk_i),
        .r0_en_i(m_re[g]), .r0_addr_i(m_raddr[g*16 +: 16]), .r0_data_o(m_rdata[g*LW +: LW]),
        .r1_en_i(st_re && st_rgpe == GInt[GpeW-1:0]), .r1_addr_i(st_raddr),
        .r1_data_o(st_rdata[g*LW +: LW]),
        .w0_en_i(to_me && w_mem == 2'd2), .w0_addr_i(w_line), .w0_data_i(w_data[LW-1:0]),
        .w1_en_i(m_we[g]), .w1_addr_i(m_waddr[g*16 +: 16]), .w1_data_i(m_wdata[g*LW +: LW])
      );
    end
  endgenerate

  wire unused_w = ^w_data;

endmodule

`default_nettype wire
