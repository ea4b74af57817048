`default_nettype none
// tb_cc_axi_copy_top -- test top of the AXI shell's memory masters (harness tb_cc_axi_copy.cpp):
// a copy engine made of cc_axi_rd_master and cc_axi_wr_master. A command {src, dst, beats}
// starts a read of src and a write of dst at once (both masters take it in the same cycle); the
// read data stream feeds the write data stream directly, so the write side's W backpressure
// reaches RREADY. done_o / done_err_o: the command's last write response (the masters' own).
// rd_data_err_o: a read data beat with an error response moved (the read master's data_err_o).
// wr_err_o: a write response with an error (the write master's err_o).
// Parameters: DataW, MaxBurst, Outstanding as the masters (address 32 bits, ID 0).
module tb_cc_axi_copy_top #(
  parameter integer DataW       = 32,
  parameter integer MaxBurst    = 256,
  parameter integer Outstanding = 4
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               cmd_valid_i,
  output wire               cmd_ready_o,
  input  wire [31:0]        cmd_src_i,
  input  wire [31:0]        cmd_dst_i,
  input  wire [15:0]        cmd_beats_i,
  output wire               done_o,
  output wire               done_err_o,
  output wire               rd_err_o,
  output wire               rd_data_err_o,
  output wire               wr_err_o,
  output wire               busy_o,
  output wire               rd_burst_o,
  output wire               wr_burst_o,
  output wire               m_axi_awvalid_o,
  input  wire               m_axi_awready_i,
  output wire [0:0]         m_axi_awid_o,
  output wire [31:0]        m_axi_awaddr_o,
  output wire [7:0]         m_axi_awlen_o,
  output wire [2:0]         m_axi_awsize_o,
  output wire [1:0]         m_axi_awburst_o,
  output wire               m_axi_awlock_o,
  output wire [3:0]         m_axi_awcache_o,
  output wire [2:0]         m_axi_awprot_o,
  output wire               m_axi_wvalid_o,
  input  wire               m_axi_wready_i,
  output wire [DataW-1:0]   m_axi_wdata_o,
  output wire [DataW/8-1:0] m_axi_wstrb_o,
  output wire               m_axi_wlast_o,
  input  wire               m_axi_bvalid_i,
  output wire               m_axi_bready_o,
  input  wire [0:0]         m_axi_bid_i,
  input  wire [1:0]         m_axi_bresp_i,
  output wire               m_axi_arvalid_o,
  input  wire               m_axi_arready_i,
  output wire [0:0]         m_axi_arid_o,
  output wire [31:0]        m_axi_araddr_o,
  output wire [7:0]         m_axi_arlen_o,
  output wire [2:0]         m_axi_arsize_o,
  output wire [1:0]         m_axi_arburst_o,
  output wire               m_axi_arlock_o,
  output wire [3:0]         m_axi_arcache_o,
  output wire [2:0]         m_axi_arprot_o,
  input  wire               m_axi_rvalid_i,
  output wire               m_axi_rready_o,
  input  wire [0:0]         m_axi_rid_i,
  input  wire [DataW-1:0]   m_axi_rdata_i,
  input  wire [1:0]         m_axi_rresp_i,
  input  wire               m_axi_rlast_i
);
  wire rd_ready, wr_ready, rd_busy, wr_busy, d_valid, d_ready, d_last, d_err;
  wire [DataW-1:0] d;
  wire [1:0] rd_resp, wr_resp;
  // Both masters take the command in the same cycle.
  wire go = cmd_valid_i && rd_ready && wr_ready;
  assign cmd_ready_o = rd_ready && wr_ready;
  wire unused_ok = &{1'b0, d_last, rd_resp, wr_resp};
  assign rd_data_err_o = d_valid && d_ready && d_err;

  cc_axi_rd_master #(
    .AddrW(32), .DataW(DataW), .BeatsW(16), .MaxBurst(MaxBurst), .Outstanding(Outstanding)
  ) u_rd (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cmd_valid_i(go), .cmd_ready_o(rd_ready), .cmd_addr_i(cmd_src_i), .cmd_beats_i(cmd_beats_i),
    .data_valid_o(d_valid), .data_ready_i(d_ready), .data_o(d), .data_last_o(d_last),
    .data_err_o(d_err), .busy_o(rd_busy), .err_o(rd_err_o), .err_resp_o(rd_resp),
    .burst_o(rd_burst_o),
    .m_axi_arvalid_o(m_axi_arvalid_o), .m_axi_arready_i(m_axi_arready_i),
    .m_axi_arid_o(m_axi_arid_o), .m_axi_araddr_o(m_axi_araddr_o), .m_axi_arlen_o(m_axi_arlen_o),
    .m_axi_arsize_o(m_axi_arsize_o), .m_axi_arburst_o(m_axi_arburst_o),
    .m_axi_arlock_o(m_axi_arlock_o), .m_axi_arcache_o(m_axi_arcache_o),
    .m_axi_arprot_o(m_axi_arprot_o), .m_axi_rvalid_i(m_axi_rvalid_i),
    .m_axi_rready_o(m_axi_rready_o), .m_axi_rid_i(m_axi_rid_i), .m_axi_rdata_i(m_axi_rdata_i),
    .m_axi_rresp_i(m_axi_rresp_i), .m_axi_rlast_i(m_axi_rlast_i)
  );

  cc_axi_wr_master #(
    .AddrW(32), .DataW(DataW), .BeatsW(16), .MaxBurst(MaxBurst), .Outstanding(Outstanding)
  ) u_wr (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cmd_valid_i(go), .cmd_ready_o(wr_ready), .cmd_addr_i(cmd_dst_i), .cmd_beats_i(cmd_beats_i),
    .data_valid_i(d_valid), .data_ready_o(d_ready), .data_i(d),
    .busy_o(wr_busy), .done_o(done_o), .done_err_o(done_err_o), .err_o(wr_err_o),
    .err_resp_o(wr_resp), .burst_o(wr_burst_o),
    .m_axi_awvalid_o(m_axi_awvalid_o), .m_axi_awready_i(m_axi_awready_i),
    .m_axi_awid_o(m_axi_awid_o), .m_axi_awaddr_o(m_axi_awaddr_o), .m_axi_awlen_o(m_axi_awlen_o),
    .m_axi_awsize_o(m_axi_awsize_o), .m_axi_awburst_o(m_axi_awburst_o),
    .m_axi_awlock_o(m_axi_awlock_o), .m_axi_awcache_o(m_axi_awcache_o),
    .m_axi_awprot_o(m_axi_awprot_o), .m_axi_wvalid_o(m_axi_wvalid_o),
    .m_axi_wready_i(m_axi_wready_i), .m_axi_wdata_o(m_axi_wdata_o), .m_axi_wstrb_o(m_axi_wstrb_o),
    .m_axi_wlast_o(m_axi_wlast_o), .m_axi_bvalid_i(m_axi_bvalid_i),
    .m_axi_bready_o(m_axi_bready_o), .m_axi_bid_i(m_axi_bid_i), .m_axi_bresp_i(m_axi_bresp_i)
  );
  assign busy_o = rd_busy || wr_busy;
endmodule
`default_nettype wire
