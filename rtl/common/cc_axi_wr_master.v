////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_axi_wr_master.v
//
// Purpose:   AXI4 write master: writes commands of {address, beats} to memory as INCR bursts
//            (cc_axi_burst_gen: at most MaxBurst beats, never across a 4 KB boundary, at most
//            Outstanding bursts without a write response) from a data stream, full-width beats
//            with every byte strobe set.
//
//            Contract:
//              * cmd: as cc_axi_burst_gen (bus-aligned address, beats >= 1). The address of a
//                burst may go out before its data (AXI allows either order); W beats follow the
//                bursts in issue order, WLAST on each burst's last beat.
//              * data: the command's beats in order (valid/ready). data_ready_o is WREADY while
//                a burst's length is known (its AW was issued): the slave's backpressure goes
//                straight to the producer.
//              * done_o: one cycle when the last write response of a command arrives (the data
//                is then in memory); done_err_o says whether any response of the command was
//                SLVERR or DECERR.
//              * err_o: one cycle per error response, err_resp_o its BRESP.
//              * burst_o: one cycle per AW handshake (for a bursts counter).
//              BREADY is always high (responses are only counted).
//
// Parameters:
//   AddrW, DataW, BeatsW, MaxBurst, Outstanding   as cc_axi_burst_gen
//   IdW   AWID bits; Id the AWID used for every burst
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module cc_axi_wr_master #(
  parameter integer AddrW       = 32,
  parameter integer DataW       = 64,
  parameter integer BeatsW      = 24,
  parameter integer MaxBurst    = 256,
  parameter integer Outstanding = 4,
  parameter integer IdW         = 1,
  parameter integer Id          = 0
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  // commands
  input  wire               cmd_valid_i,
  output wire               cmd_ready_o,
  input  wire [AddrW-1:0]   cmd_addr_i,
  input  wire [BeatsW-1:0]  cmd_beats_i,
  // data
  input  wire               data_valid_i,
  output wire               data_ready_o,
  input  wire [DataW-1:0]   data_i,
  // status
  output wire               busy_o,
  output wire               done_o,
  output wire               done_err_o,
  output wire               err_o,
  output wire [1:0]         err_resp_o,
  output wire               burst_o,
  // AXI4 write address, data and response channels
  output wire               m_axi_awvalid_o,
  input  wire               m_axi_awready_i,
  output wire [IdW-1:0]     m_axi_awid_o,
  output wire [AddrW-1:0]   m_axi_awaddr_o,
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
  input  wire [IdW-1:0]     m_axi_bid_i,
  input  wire [1:0]         m_axi_bresp_i
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the address-side rules are cc_axi_burst_gen's.
  generate
    if (IdW < 1 || Id < 0 || Id >= (1 << IdW)) begin : gen_check_id
      `CC_PARAM_FAIL(cc_axi_wr_master__Id_must_fit_in_IdW_bits)
    end
  endgenerate

  localparam integer SizeI = $clog2(DataW / 8);
  localparam [2:0]   Size  = SizeI[2:0];   // AxSIZE: bytes per beat, log2

  wire       aw_fire = m_axi_awvalid_o && m_axi_awready_i;
  wire       bfire   = m_axi_bvalid_i;           // BREADY is always high
  wire       aw_last;
  wire [7:0] aw_len;
  // Not needed: the queues cannot fill (see below), and one AWID keeps the responses in order.
  wire                               unused_len_ready, unused_last_ready;
  wire [$clog2(Outstanding + 1)-1:0] unused_len_count, unused_last_count;
  wire [IdW-1:0]                     unused_bid = m_axi_bid_i;

  cc_axi_burst_gen #(
    .AddrW(AddrW), .DataW(DataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(Outstanding)
  ) u_burst (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .cmd_valid_i  (cmd_valid_i),
    .cmd_ready_o  (cmd_ready_o),
    .cmd_addr_i   (cmd_addr_i),
    .cmd_beats_i  (cmd_beats_i),
    .burst_valid_o(m_axi_awvalid_o),
    .burst_ready_i(m_axi_awready_i),
    .burst_addr_o (m_axi_awaddr_o),
    .burst_len_o  (aw_len),
    .burst_last_o (aw_last),
    .burst_done_i (bfire),
    .busy_o       (busy_o)
  );

  // Lengths of issued bursts for the W side, and which bursts end a command for the B side.
  // At most Outstanding bursts lack a response, so neither queue fills while one is issued.
  wire       w_valid;
  wire [7:0] w_len;
  wire       w_fire = m_axi_wvalid_o && m_axi_wready_i;
  reg  [7:0] w_beat_q;                           // beat index within the current burst
  wire       w_end  = w_fire && (w_beat_q == w_len);

  cc_fifo #(.Width(8), .Depth(Outstanding)) u_len_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (aw_fire),
    .in_ready_o (unused_len_ready),
    .in_data_i  (aw_len),
    .out_valid_o(w_valid),
    .out_ready_i(w_end),
    .out_data_o (w_len),
    .count_o    (unused_len_count)
  );

  wire b_last_valid, b_last;
  cc_fifo #(.Width(1), .Depth(Outstanding)) u_last_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (aw_fire),
    .in_ready_o (unused_last_ready),
    .in_data_i  (aw_last),
    .out_valid_o(b_last_valid),
    .out_ready_i(bfire),
    .out_data_o (b_last),
    .count_o    (unused_last_count)
  );

  reg cmd_err_q;   // an error response seen in the current command
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_beat_q  <= 8'd0;
      cmd_err_q <= 1'b0;
    end else begin
      if (w_end)       w_beat_q <= 8'd0;
      else if (w_fire) w_beat_q <= w_beat_q + 8'd1;
      if (bfire) cmd_err_q <= (b_last_valid && b_last) ? 1'b0 : (cmd_err_q || m_axi_bresp_i[1]);
    end
  end

  assign m_axi_awid_o    = Id[IdW-1:0];
  assign m_axi_awlen_o   = aw_len;
  assign m_axi_awsize_o  = Size;
  assign m_axi_awburst_o = 2'b01;    // INCR
  assign m_axi_awlock_o  = 1'b0;
  assign m_axi_awcache_o = 4'b0011;  // normal, non-cacheable, bufferable
  assign m_axi_awprot_o  = 3'b000;   // unprivileged, secure, data
  assign m_axi_wvalid_o  = data_valid_i && w_valid;
  assign m_axi_wdata_o   = data_i;
  assign m_axi_wstrb_o   = {(DataW / 8){1'b1}};
  assign m_axi_wlast_o   = (w_beat_q == w_len);
  assign m_axi_bready_o  = 1'b1;
  assign data_ready_o    = m_axi_wready_i && w_valid;

  assign done_o     = bfire && b_last_valid && b_last;
  assign done_err_o = cmd_err_q || m_axi_bresp_i[1];
  assign err_o      = bfire && m_axi_bresp_i[1];
  assign err_resp_o = m_axi_bresp_i;
  assign burst_o    = aw_fire;
endmodule
`default_nettype wire
