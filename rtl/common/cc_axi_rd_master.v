////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_axi_rd_master.v
//
// Purpose:   AXI4 read master: reads commands of {address, beats} from memory as INCR bursts
//            (cc_axi_burst_gen: at most MaxBurst beats, never across a 4 KB boundary, at most
//            Outstanding bursts in flight) and delivers the data as a stream, in command order.
//
//            Contract:
//              * cmd: as cc_axi_burst_gen (bus-aligned address, beats >= 1). A new command is
//                taken as soon as the previous one's bursts are all issued, so the next
//                command's addresses overlap the current one's data.
//              * data: one beat per R beat, in order (one ARID: the slave keeps them in order);
//                data_last_o marks the last beat of a command; data_err_o is high on a beat
//                whose RRESP was SLVERR or DECERR (its data is whatever the slave returned).
//                data_valid_o is RVALID and RREADY is data_ready_i: the consumer's
//                backpressure goes straight to the slave (no buffering here).
//              * err_o: one cycle per beat with an error response, err_resp_o its RRESP.
//              * burst_o: one cycle per AR handshake (for a bursts counter).
//
// Parameters:
//   AddrW, DataW, BeatsW, MaxBurst, Outstanding   as cc_axi_burst_gen
//   IdW   ARID bits; Id the ARID used for every burst
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module cc_axi_rd_master #(
  parameter integer AddrW       = 32,
  parameter integer DataW       = 64,
  parameter integer BeatsW      = 24,
  parameter integer MaxBurst    = 256,
  parameter integer Outstanding = 4,
  parameter integer IdW         = 1,
  parameter integer Id          = 0
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // commands
  input  wire              cmd_valid_i,
  output wire              cmd_ready_o,
  input  wire [AddrW-1:0]  cmd_addr_i,
  input  wire [BeatsW-1:0] cmd_beats_i,
  // data
  output wire              data_valid_o,
  input  wire              data_ready_i,
  output wire [DataW-1:0]  data_o,
  output wire              data_last_o,
  output wire              data_err_o,
  // status
  output wire              busy_o,
  output wire              err_o,
  output wire [1:0]        err_resp_o,
  output wire              burst_o,
  // AXI4 read address and data channels
  output wire              m_axi_arvalid_o,
  input  wire              m_axi_arready_i,
  output wire [IdW-1:0]    m_axi_arid_o,
  output wire [AddrW-1:0]  m_axi_araddr_o,
  output wire [7:0]        m_axi_arlen_o,
  output wire [2:0]        m_axi_arsize_o,
  output wire [1:0]        m_axi_arburst_o,
  output wire              m_axi_arlock_o,
  output wire [3:0]        m_axi_arcache_o,
  output wire [2:0]        m_axi_arprot_o,
  input  wire              m_axi_rvalid_i,
  output wire              m_axi_rready_o,
  input  wire [IdW-1:0]    m_axi_rid_i,
  input  wire [DataW-1:0]  m_axi_rdata_i,
  input  wire [1:0]        m_axi_rresp_i,
  input  wire              m_axi_rlast_i
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the address-side rules are cc_axi_burst_gen's.
  generate
    if (IdW < 1 || Id < 0 || Id >= (1 << IdW)) begin : gen_check_id
      `CC_PARAM_FAIL(cc_axi_rd_master__Id_must_fit_in_IdW_bits)
    end
  endgenerate

  localparam integer SizeI = $clog2(DataW / 8);
  localparam [2:0]   Size  = SizeI[2:0];   // AxSIZE: bytes per beat, log2

  wire rfire = m_axi_rvalid_i && m_axi_rready_o;
  wire done  = rfire && m_axi_rlast_i;
  wire ar_last;
  wire last_valid, last_flag;
  // Not needed: the queue cannot fill (see below), and one ARID keeps the responses in order.
  wire                             unused_last_ready;
  wire [$clog2(Outstanding + 1)-1:0] unused_last_count;
  wire [IdW-1:0]                   unused_rid = m_axi_rid_i;

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
    .burst_valid_o(m_axi_arvalid_o),
    .burst_ready_i(m_axi_arready_i),
    .burst_addr_o (m_axi_araddr_o),
    .burst_len_o  (m_axi_arlen_o),
    .burst_last_o (ar_last),
    .burst_done_i (done),
    .busy_o       (busy_o)
  );

  // Which bursts end a command, in issue order; the burst generator never has more than
  // Outstanding in flight, so the queue never fills while a burst is being issued.
  cc_fifo #(.Width(1), .Depth(Outstanding)) u_last_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (m_axi_arvalid_o && m_axi_arready_i),
    .in_ready_o (unused_last_ready),
    .in_data_i  (ar_last),
    .out_valid_o(last_valid),
    .out_ready_i(done),
    .out_data_o (last_flag),
    .count_o    (unused_last_count)
  );

  assign m_axi_arid_o    = Id[IdW-1:0];
  assign m_axi_arsize_o  = Size;
  assign m_axi_arburst_o = 2'b01;    // INCR
  assign m_axi_arlock_o  = 1'b0;
  assign m_axi_arcache_o = 4'b0011;  // normal, non-cacheable, bufferable
  assign m_axi_arprot_o  = 3'b000;   // unprivileged, secure, data
  assign m_axi_rready_o  = data_ready_i;

  assign data_valid_o = m_axi_rvalid_i;
  assign data_o       = m_axi_rdata_i;
  assign data_last_o  = m_axi_rlast_i && last_valid && last_flag;
  assign data_err_o   = m_axi_rresp_i[1];
  assign err_o        = rfire && m_axi_rresp_i[1];
  assign err_resp_o   = m_axi_rresp_i;
  assign burst_o      = m_axi_arvalid_o && m_axi_arready_i;
endmodule
`default_nettype wire
