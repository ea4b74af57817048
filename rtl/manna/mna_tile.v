////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_tile.v
//
// Purpose:   One MANNA DiffMem tile (Section 4.2.2, docs/manna.md): the control unit with its
//            instruction memory (mna_ctrl), the Matrix-Buffer and the double-buffered
//            Matrix-Scratchpad joined by the DMAT unit, the Vector-Buffer and the
//            double-buffered Vector-Scratchpad joined by the DMA unit (both mna_xfer), the E
//            eMACs with their register files (mna_vex), the SFU (mna_sfu) and the H-tree router
//            side for reduce and broadcast (mna_coll). The host reaches every memory and the
//            scalar registers while the tile is stopped.
//
//            Port B of the Vector-Scratchpad is shared by the eMACs, the SFU, the collective
//            unit and the host: only one of them is active at a time (compute instructions
//            complete in order; the host is refused while the tile runs), and each drives
//            zeros while idle, so the port is their OR.
//
// Parameters:
//   Emacs, MbLines, MsLines, VbLines, VsLines, ImemDepth, RfRegs, Transpose, EmacOps
//   (docs/manna.md, "Parameters"); Tiles, Lvls: the H-tree's size (the tile's number is the
//   input tile_id_i)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module mna_tile #(
  parameter integer Emacs     = 4,
  parameter integer MbLines   = 64,
  parameter integer MsLines   = 32,
  parameter integer VbLines   = 32,
  parameter integer VsLines   = 16,
  parameter integer ImemDepth = 256,
  parameter integer RfRegs    = 8,
  parameter integer Transpose = 1,
  parameter integer EmacOps   = 1,
  parameter integer Tiles     = 2,
  parameter integer Lvls      = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [3:0]  tile_id_i,      // this tile's number in the H-tree (a constant)
  // host
  input  wire        h_we_i,
  input  wire        h_re_i,
  input  wire [2:0]  h_space_i,
  input  wire [19:0] h_addr_i,       // word address (IMEM: instruction index)
  input  wire [63:0] h_wdata_i,
  output wire [63:0] h_rdata_o,      // the cycle after h_re_i (IMEM: 64 bits; else 32)
  input  wire        start_i,
  input  wire [15:0] start_pc_i,
  output wire [3:0]  status_o,
  output wire [15:0] stop_pc_o,
  output wire [31:0] insns_o,
  output wire        running_o,
  // collectives
  output wire        arrive_o,
  output wire        kind_o,
  output wire [15:0] count_o,
  input  wire        all_arrive_i,
  output wire        part_o,
  input  wire        all_part_i,
  input  wire        abort_i,
  input  wire        timeout_i,
  output wire        progress_o,
  output wire                   up_tx_valid_o,
  input  wire                   up_tx_ready_i,
  output wire [Emacs*32:0]      up_tx_data_o,
  input  wire                   up_rx_valid_i,
  output wire                   up_rx_ready_o,
  input  wire [Emacs*32:0]      up_rx_data_i,
  output wire [Lvls-1:0]        dn_tx_valid_o,
  input  wire [Lvls-1:0]        dn_tx_ready_i,
  output wire [Emacs*32:0]      dn_tx_data_o,
  input  wire [Lvls-1:0]        dn_rx_valid_i,
  output wire [Lvls-1:0]        dn_rx_ready_o,
  input  wire [Lvls*(Emacs*32+1)-1:0] dn_rx_data_i
);

  `include "mna_defs.vh"

  localparam integer E     = Emacs;
  localparam integer LE    = $clog2(Emacs);
  localparam integer MbAW  = $clog2(MbLines);
  localparam integer MsAW  = $clog2(MsLines);
  localparam integer VbAW  = $clog2(VbLines);
  localparam integer VsAW  = $clog2(VsLines);
  localparam integer IAW   = (ImemDepth > 1) ? $clog2(ImemDepth) : 1;

  // ---------------------------------------------------------------- control unit
  wire [5:0]  x_op, x_flags;
  wire [31:0] x_a, x_b, x_c, x_d, x_sc, x_sd, x_stride, x_sa;
  wire [15:0] x_n;
  wire [3:0]  x_ra, x_rc, x_rd;
  wire        dmat_start, dma_start, vex_start, sfu_start, coll_start;
  wire        dmat_busy, dma_busy, vex_done, sfu_done, coll_done;
  wire [1:0]  dmat_halves, dma_halves, x_ms_halves, x_vs_halves;
  wire [31:0] sfu_sld, sreg_rdata;
  wire [3:0]  coll_err;
  wire        running;
  wire [63:0] imem_rdata;

  wire h_imem = (h_space_i == 3'd0);
  wire h_sreg = (h_space_i == 3'd5);

  mna_ctrl #(
    .Emacs(Emacs), .MbLines(MbLines), .MsLines(MsLines), .VbLines(VbLines), .VsLines(VsLines),
    .ImemDepth(ImemDepth), .RfRegs(RfRegs), .IAW(IAW)
  ) u_ctrl (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .imem_re_i(h_re_i && h_imem), .imem_rdata_o(imem_rdata),
    .imem_we_i(h_we_i && h_imem), .imem_waddr_i(h_addr_i[IAW-1:0]), .imem_wdata_i(h_wdata_i),
    .sreg_we_i(h_we_i && h_sreg), .sreg_addr_i(h_addr_i[3:0]), .sreg_wdata_i(h_wdata_i[31:0]),
    .sreg_rdata_o(sreg_rdata),
    .start_i(start_i), .start_pc_i(start_pc_i), .status_o(status_o), .stop_pc_o(stop_pc_o),
    .insns_o(insns_o), .running_o(running),
    .x_op_o(x_op), .x_flags_o(x_flags), .x_a_o(x_a), .x_b_o(x_b), .x_c_o(x_c), .x_d_o(x_d),
    .x_sc_o(x_sc), .x_sd_o(x_sd), .x_stride_o(x_stride), .x_n_o(x_n), .x_ra_o(x_ra),
    .x_rc_o(x_rc), .x_rd_o(x_rd), .x_sa_o(x_sa),
    .dmat_start_o(dmat_start), .dmat_busy_i(dmat_busy), .dmat_ms_halves_i(dmat_halves),
    .dma_start_o(dma_start), .dma_busy_i(dma_busy), .dma_vs_halves_i(dma_halves),
    .vex_start_o(vex_start), .vex_done_i(vex_done),
    .sfu_start_o(sfu_start), .sfu_done_i(sfu_done), .sfu_sld_i(sfu_sld),
    .coll_start_o(coll_start), .coll_done_i(coll_done), .coll_err_i(coll_err),
    .x_ms_halves_o(x_ms_halves), .x_vs_halves_o(x_vs_halves)
  );
  assign running_o = running;

  // ---------------------------------------------------------------- host word access
  // a word address -> bank and line; the read data is picked the next cycle
  wire [31:0] h_line = {12'd0, h_addr_i} >> LE;
  wire [LE-1:0] h_bank = h_addr_i[LE-1:0];
  reg  [LE-1:0] h_bank_q;
  reg  [2:0]    h_space_q;
  always @(posedge clk_i) begin
    if (h_re_i) begin
      h_bank_q <= h_bank;
      h_space_q <= h_space_i;
    end
  end
  function [E-1:0] onehot(input [LE-1:0] b);
    onehot = {{(E-1){1'b0}}, 1'b1} << b;
  endfunction
  function [E*32-1:0] rep(input [31:0] w);
    integer q;
    for (q = 0; q < E; q = q + 1) rep[q*32 +: 32] = w;
  endfunction
  function [E*20-1:0] repa(input [19:0] a);
    integer q;
    for (q = 0; q < E; q = q + 1) repa[q*20 +: 20] = a;
  endfunction
  wire [E*20-1:0] h_la = repa(h_line[19:0]);
  wire [E*32-1:0] h_wd = rep(h_wdata_i[31:0]);
  wire [E-1:0]    h_oh = onehot(h_bank);
  wire            unused_hline = ^h_line[31:20];   // the host address is 20 bits

  // ---------------------------------------------------------------- memories
  wire [E-1:0]      mbA_re, mbA_we, msA_re, msA_we, vbA_re, vbA_we, vsA_re, vsA_we;
  wire [E*MbAW-1:0] mbA_ra, mbA_wa;
  wire [E*MsAW-1:0] msA_ra, msA_wa;
  wire [E*VbAW-1:0] vbA_ra, vbA_wa;
  wire [E*VsAW-1:0] vsA_ra, vsA_wa;
  wire [E*32-1:0]   mbA_rd, mbA_wd, msA_rd, msA_wd, vbA_rd, vbA_wd, vsA_rd, vsA_wd;
  wire [E*32-1:0]   mbB_rd, msB_rd, vbB_rd, vsB_rd;

  // port B drivers
  wire [E-1:0]      vx_ms_re, vx_ms_we, vx_vs_re, vx_vs_we, sf_vs_re, sf_vs_we, cl_vs_re, cl_vs_we;
  wire [E*MsAW-1:0] vx_ms_ra, vx_ms_wa;
  wire [E*VsAW-1:0] vx_vs_ra, vx_vs_wa, sf_vs_ra, sf_vs_wa, cl_vs_ra, cl_vs_wa;
  wire [E*32-1:0]   vx_ms_wd, vx_vs_wd, sf_vs_wd, cl_vs_wd;

  // host strobes per memory, and its addresses cut to each memory's width
  function [E*MbAW-1:0] cut_mb(input [E*20-1:0] a);
    integer q;
    for (q = 0; q < E; q = q + 1) cut_mb[q*MbAW +: MbAW] = a[q*20 +: MbAW];
  endfunction
  function [E*MsAW-1:0] cut_ms(input [E*20-1:0] a);
    integer q;
    for (q = 0; q < E; q = q + 1) cut_ms[q*MsAW +: MsAW] = a[q*20 +: MsAW];
  endfunction
  function [E*VbAW-1:0] cut_vb(input [E*20-1:0] a);
    integer q;
    for (q = 0; q < E; q = q + 1) cut_vb[q*VbAW +: VbAW] = a[q*20 +: VbAW];
  endfunction
  function [E*VsAW-1:0] cut_vs(input [E*20-1:0] a);
    integer q;
    for (q = 0; q < E; q = q + 1) cut_vs[q*VsAW +: VsAW] = a[q*20 +: VsAW];
  endfunction
  wire [E-1:0] h_mb_re = (h_re_i && h_space_i == 3'd1) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_mb_we = (h_we_i && h_space_i == 3'd1) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_ms_re = (h_re_i && h_space_i == 3'd2) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_ms_we = (h_we_i && h_space_i == 3'd2) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_vb_re = (h_re_i && h_space_i == 3'd3) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_vb_we = (h_we_i && h_space_i == 3'd3) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_vs_re = (h_re_i && h_space_i == 3'd4) ? h_oh : {E{1'b0}};
  wire [E-1:0] h_vs_we = (h_we_i && h_space_i == 3'd4) ? h_oh : {E{1'b0}};
  wire         h_any   = h_re_i || h_we_i;

  mna_spad #(.Banks(E), .Lines(MbLines), .Halves(1), .AW(MbAW)) u_mb (
    .clk_i(clk_i),
    .a_re_i(mbA_re), .a_raddr_i(mbA_ra), .a_rdata_o(mbA_rd),
    .a_we_i(mbA_we), .a_waddr_i(mbA_wa), .a_wdata_i(mbA_wd),
    .b_re_i(h_mb_re), .b_raddr_i(cut_mb(h_la)), .b_rdata_o(mbB_rd),
    .b_we_i(h_mb_we), .b_waddr_i(cut_mb(h_la)), .b_wdata_i(h_wd)
  );
  mna_spad #(.Banks(E), .Lines(VbLines), .Halves(1), .AW(VbAW)) u_vb (
    .clk_i(clk_i),
    .a_re_i(vbA_re), .a_raddr_i(vbA_ra), .a_rdata_o(vbA_rd),
    .a_we_i(vbA_we), .a_waddr_i(vbA_wa), .a_wdata_i(vbA_wd),
    .b_re_i(h_vb_re), .b_raddr_i(cut_vb(h_la)), .b_rdata_o(vbB_rd),
    .b_we_i(h_vb_we), .b_waddr_i(cut_vb(h_la)), .b_wdata_i(h_wd)
  );
  mna_spad #(.Banks(E), .Lines(MsLines), .Halves(2), .AW(MsAW)) u_ms (
    .clk_i(clk_i),
    .a_re_i(msA_re), .a_raddr_i(msA_ra), .a_rdata_o(msA_rd),
    .a_we_i(msA_we), .a_waddr_i(msA_wa), .a_wdata_i(msA_wd),
    .b_re_i(vx_ms_re | h_ms_re),
    .b_raddr_i(h_any ? cut_ms(h_la) : vx_ms_ra), .b_rdata_o(msB_rd),
    .b_we_i(vx_ms_we | h_ms_we),
    .b_waddr_i(h_any ? cut_ms(h_la) : vx_ms_wa),
    .b_wdata_i(h_any ? h_wd : vx_ms_wd)
  );
  mna_spad #(.Banks(E), .Lines(VsLines), .Halves(2), .AW(VsAW)) u_vs (
    .clk_i(clk_i),
    .a_re_i(vsA_re), .a_raddr_i(vsA_ra), .a_rdata_o(vsA_rd),
    .a_we_i(vsA_we), .a_waddr_i(vsA_wa), .a_wdata_i(vsA_wd),
    .b_re_i(vx_vs_re | sf_vs_re | cl_vs_re | h_vs_re),
    .b_raddr_i(h_any ? cut_vs(h_la) : (vx_vs_ra | sf_vs_ra | cl_vs_ra)), .b_rdata_o(vsB_rd),
    .b_we_i(vx_vs_we | sf_vs_we | cl_vs_we | h_vs_we),
    .b_waddr_i(h_any ? cut_vs(h_la) : (vx_vs_wa | sf_vs_wa | cl_vs_wa)),
    .b_wdata_i(h_any ? h_wd : (vx_vs_wd | sf_vs_wd | cl_vs_wd))
  );

  // host read data: the word of the bank read last cycle
  reg [31:0] h_rd;
  always @* begin
    case (h_space_q)
      3'd1: h_rd = mbB_rd[h_bank_q*32 +: 32];
      3'd2: h_rd = msB_rd[h_bank_q*32 +: 32];
      3'd3: h_rd = vbB_rd[h_bank_q*32 +: 32];
      3'd4: h_rd = vsB_rd[h_bank_q*32 +: 32];
      default: h_rd = 32'd0;
    endcase
  end
  // scalar registers are read combinationally: registered here to the same one-cycle timing
  reg [31:0] h_sreg_q;
  always @(posedge clk_i) if (h_re_i) h_sreg_q <= sreg_rdata;
  assign h_rdata_o = (h_space_q == 3'd0) ? imem_rdata :
                     {32'd0, (h_space_q == 3'd5) ? h_sreg_q : h_rd};

  // ---------------------------------------------------------------- DMAT and DMA
  mna_xfer #(.Banks(E), .BufAW(MbAW), .SpAW(MsAW), .Pad(1)) u_dmat (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(dmat_start),
    .sp_i(x_a), .buf_i(x_b), .stride_i(x_stride), .n_i(x_n), .pad_i(x_flags[0]),
    .store_i(x_flags[1]), .halves_i(x_ms_halves), .busy_o(dmat_busy), .halves_o(dmat_halves),
    .bf_re_o(mbA_re), .bf_raddr_o(mbA_ra), .bf_rdata_i(mbA_rd),
    .bf_we_o(mbA_we), .bf_waddr_o(mbA_wa), .bf_wdata_o(mbA_wd),
    .sp_re_o(msA_re), .sp_raddr_o(msA_ra), .sp_rdata_i(msA_rd),
    .sp_we_o(msA_we), .sp_waddr_o(msA_wa), .sp_wdata_o(msA_wd)
  );
  mna_xfer #(.Banks(E), .BufAW(VbAW), .SpAW(VsAW), .Pad(0)) u_dma (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(dma_start),
    .sp_i(x_a), .buf_i(x_b), .stride_i(32'd1), .n_i(x_n), .pad_i(1'b0),
    .store_i(x_flags[1]), .halves_i(x_vs_halves), .busy_o(dma_busy), .halves_o(dma_halves),
    .bf_re_o(vbA_re), .bf_raddr_o(vbA_ra), .bf_rdata_i(vbA_rd),
    .bf_we_o(vbA_we), .bf_waddr_o(vbA_wa), .bf_wdata_o(vbA_wd),
    .sp_re_o(vsA_re), .sp_raddr_o(vsA_ra), .sp_rdata_i(vsA_rd),
    .sp_we_o(vsA_we), .sp_waddr_o(vsA_wa), .sp_wdata_o(vsA_wd)
  );

  // ---------------------------------------------------------------- eMACs, SFU, router
  mna_vex #(
    .Emacs(E), .RfRegs(RfRegs), .MsAW(MsAW), .VsAW(VsAW), .Transpose(Transpose),
    .EmacOps(EmacOps)
  ) u_vex (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(vex_start), .op_i(x_op), .flags_i(x_flags),
    .a_i(x_a), .b_i(x_b), .c_i(x_c), .d_i(x_d), .sc_i(x_sc), .sd_i(x_sd), .n_i(x_n),
    .ra_i(x_ra), .rc_i(x_rc), .rd_i(x_rd), .done_o(vex_done),
    .ms_re_o(vx_ms_re), .ms_raddr_o(vx_ms_ra), .ms_rdata_i(msB_rd),
    .ms_we_o(vx_ms_we), .ms_waddr_o(vx_ms_wa), .ms_wdata_o(vx_ms_wd),
    .vs_re_o(vx_vs_re), .vs_raddr_o(vx_vs_ra), .vs_rdata_i(vsB_rd),
    .vs_we_o(vx_vs_we), .vs_waddr_o(vx_vs_wa), .vs_wdata_o(vx_vs_wd)
  );

  mna_sfu #(.Emacs(E), .VsAW(VsAW)) u_sfu (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(sfu_start), .op_i(x_op), .fn_i(x_flags[2:0]),
    .a_i(x_a), .b_i(x_b), .c_i(x_c), .n_i(x_n), .sval_i(x_sa), .done_o(sfu_done),
    .sld_o(sfu_sld),
    .vs_re_o(sf_vs_re), .vs_raddr_o(sf_vs_ra), .vs_rdata_i(vsB_rd),
    .vs_we_o(sf_vs_we), .vs_waddr_o(sf_vs_wa), .vs_wdata_o(sf_vs_wd)
  );

  mna_coll #(.Emacs(E), .VsAW(VsAW), .Tiles(Tiles), .Lvls(Lvls)) u_coll (
    .clk_i(clk_i), .rst_ni(rst_ni), .tile_id_i(tile_id_i), .clr_i(start_i), .start_i(coll_start),
    .bcast_i(x_op == OpBcast), .line_i(x_a), .n_i(x_n), .done_o(coll_done), .err_o(coll_err),
    .arrive_o(arrive_o), .kind_o(kind_o), .count_o(count_o), .all_arrive_i(all_arrive_i), .part_o(part_o),
    .all_part_i(all_part_i), .abort_i(abort_i), .timeout_i(timeout_i), .progress_o(progress_o),
    .up_tx_valid_o(up_tx_valid_o), .up_tx_ready_i(up_tx_ready_i), .up_tx_data_o(up_tx_data_o),
    .up_rx_valid_i(up_rx_valid_i), .up_rx_ready_o(up_rx_ready_o), .up_rx_data_i(up_rx_data_i),
    .dn_tx_valid_o(dn_tx_valid_o), .dn_tx_ready_i(dn_tx_ready_i), .dn_tx_data_o(dn_tx_data_o),
    .dn_rx_valid_i(dn_rx_valid_i), .dn_rx_ready_o(dn_rx_ready_o), .dn_rx_data_i(dn_rx_data_i),
    .vs_re_o(cl_vs_re), .vs_raddr_o(cl_vs_ra), .vs_rdata_i(vsB_rd),
    .vs_we_o(cl_vs_we), .vs_waddr_o(cl_vs_wa), .vs_wdata_o(cl_vs_wd)
  );

endmodule
