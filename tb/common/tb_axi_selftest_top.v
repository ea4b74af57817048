////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tb_axi_selftest_top.v
//
// Purpose:   Test scaffolding for the harness AXI models (tb/common/tb_axi.h), not a library
//            cell: a small "copy engine" with the AXI shell's port names (docs/axi_shell.md).
//            An AXI4-Lite slave with four registers programs an AXI4 master that copies LEN
//            bytes from SRC to DST in INCR bursts of 2^SIZE-byte beats (narrow beats use the
//            byte lanes of their address), and raises irq_o when done.
//
//            Registers (32-bit, byte offsets; any other offset answers SLVERR):
//              0x00 SRC   source address        (2^SIZE aligned)
//              0x04 DST   destination address   (2^SIZE aligned)
//              0x08 LEN   bytes to copy         (a multiple of 2^SIZE)
//              0x0C CTRL  write: [0] START (pulse; ignored while busy), [1] IRQ_CLR (pulse:
//                         clears DONE), [2] IRQ_EN, [5:3] SIZE, [15:8] MAXLEN (burst beats - 1),
//                         [16] WFIRST, [17] BAD_4K, [18] BAD_WLAST, [19] BAD_ARDROP,
//                         [20] BAD_ARCHG;
//                         read: [0] BUSY, [1] DONE, the configuration bits as written,
//                         [24] ERROR (an R or B response was not OKAY), [27:26] its response
//            irq_o = DONE && IRQ_EN.
//
//            The master: a read side issues AR bursts (up to MaxRdOut outstanding, each
//            reserving its beats in a FifoDepth-beat data FIFO) of min(MAXLEN + 1, beats left,
//            beats to the next 4 KB boundary of the source and of the destination) beats; a
//            write side takes the same bursts in order, sends AW and W independently (WFIRST:
//            AW only after the burst's last W beat, which AXI allows), and counts B responses
//            (several write bursts may be outstanding). rready/bready follow an LFSR (the
//            master's choice). The BAD_* bits break the AXI rules on purpose so a harness can
//            check that the memory model counts the violation: BAD_4K does not split at 4 KB,
//            BAD_WLAST puts WLAST one beat early, BAD_ARDROP drops ARVALID every other cycle
//            while ARREADY is low, BAD_ARCHG toggles ARCACHE[0] while ARVALID waits.
//            The AXI4-Lite inputs have cc_hold_check instances: the harness master must hold.
//
// Parameters:
//   AxilAddrW  register address bits (>= 5)
//   AxiAddrW   memory address bits (32)
//   AxiDataW   memory data bits (power of two, 32..1024)
//   AxiIdW     ID bits (>= 1)
//   FifoDepth  data FIFO beats (>= 256, so a 256-beat burst fits)
//   MaxRdOut   outstanding read bursts (1..15)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module tb_axi_selftest_top #(
  parameter integer AxilAddrW = 6,
  parameter integer AxiAddrW  = 32,
  parameter integer AxiDataW  = 64,
  parameter integer AxiIdW    = 2,
  parameter integer FifoDepth = 256,
  parameter integer MaxRdOut  = 4
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // AXI4-Lite slave
  input  wire                  s_axil_awvalid_i,
  output wire                  s_axil_awready_o,
  input  wire [AxilAddrW-1:0]  s_axil_awaddr_i,
  input  wire [2:0]            s_axil_awprot_i,
  input  wire                  s_axil_wvalid_i,
  output wire                  s_axil_wready_o,
  input  wire [31:0]           s_axil_wdata_i,
  input  wire [3:0]            s_axil_wstrb_i,
  output wire                  s_axil_bvalid_o,
  input  wire                  s_axil_bready_i,
  output wire [1:0]            s_axil_bresp_o,
  input  wire                  s_axil_arvalid_i,
  output wire                  s_axil_arready_o,
  input  wire [AxilAddrW-1:0]  s_axil_araddr_i,
  input  wire [2:0]            s_axil_arprot_i,
  output wire                  s_axil_rvalid_o,
  input  wire                  s_axil_rready_i,
  output wire [31:0]           s_axil_rdata_o,
  output wire [1:0]            s_axil_rresp_o,
  // AXI4 master
  output wire                  m_axi_awvalid_o,
  input  wire                  m_axi_awready_i,
  output wire [AxiIdW-1:0]     m_axi_awid_o,
  output wire [AxiAddrW-1:0]   m_axi_awaddr_o,
  output wire [7:0]            m_axi_awlen_o,
  output wire [2:0]            m_axi_awsize_o,
  output wire [1:0]            m_axi_awburst_o,
  output wire                  m_axi_awlock_o,
  output wire [3:0]            m_axi_awcache_o,
  output wire [2:0]            m_axi_awprot_o,
  output wire                  m_axi_wvalid_o,
  input  wire                  m_axi_wready_i,
  output wire [AxiDataW-1:0]   m_axi_wdata_o,
  output wire [AxiDataW/8-1:0] m_axi_wstrb_o,
  output wire                  m_axi_wlast_o,
  input  wire                  m_axi_bvalid_i,
  output wire                  m_axi_bready_o,
  input  wire [AxiIdW-1:0]     m_axi_bid_i,
  input  wire [1:0]            m_axi_bresp_i,
  output wire                  m_axi_arvalid_o,
  input  wire                  m_axi_arready_i,
  output wire [AxiIdW-1:0]     m_axi_arid_o,
  output wire [AxiAddrW-1:0]   m_axi_araddr_o,
  output wire [7:0]            m_axi_arlen_o,
  output wire [2:0]            m_axi_arsize_o,
  output wire [1:0]            m_axi_arburst_o,
  output wire                  m_axi_arlock_o,
  output wire [3:0]            m_axi_arcache_o,
  output wire [2:0]            m_axi_arprot_o,
  input  wire                  m_axi_rvalid_i,
  output wire                  m_axi_rready_o,
  input  wire [AxiIdW-1:0]     m_axi_rid_i,
  input  wire [AxiDataW-1:0]   m_axi_rdata_i,
  input  wire [1:0]            m_axi_rresp_i,
  input  wire                  m_axi_rlast_i,
  // interrupt
  output wire                  irq_o
);

  localparam integer DataBytes = AxiDataW / 8;
  localparam integer LaneW     = $clog2(DataBytes);
  localparam integer CntW      = 16;
  localparam integer FifoInt   = FifoDepth;
  localparam integer RdOutInt  = MaxRdOut;
  localparam [CntW-1:0] FifoCap = FifoInt[CntW-1:0];
  localparam [3:0]      RdOutCap = RdOutInt[3:0];

  // ================================================================ AXI4-Lite slave
  reg                 aw_full_q, w_full_q, bvalid_q, rvalid_q;
  reg [AxilAddrW-1:0] aw_addr_q;
  reg [31:0]          w_data_q, rdata_q;
  reg [3:0]           w_strb_q;
  reg [1:0]           bresp_q, rresp_q;

  // registers
  reg [31:0] src_q, dst_q, len_q;
  reg        irq_en_q, wfirst_q, bad4k_q, badwlast_q, badardrop_q, badarchg_q;
  reg [2:0]  size_q;
  reg [7:0]  maxlen_q;
  reg        busy_q, done_q, err_q;
  reg [1:0]  err_resp_q;

  assign s_axil_awready_o = !aw_full_q && !bvalid_q;
  assign s_axil_wready_o  = !w_full_q && !bvalid_q;
  assign s_axil_bvalid_o  = bvalid_q;
  assign s_axil_bresp_o   = bresp_q;
  assign s_axil_arready_o = !rvalid_q;
  assign s_axil_rvalid_o  = rvalid_q;
  assign s_axil_rdata_o   = rdata_q;
  assign s_axil_rresp_o   = rresp_q;

  wire       do_write = aw_full_q && w_full_q && !bvalid_q;
  wire       w_bad    = |aw_addr_q[AxilAddrW-1:4];
  wire [1:0] w_idx    = aw_addr_q[3:2];
  wire       start    = do_write && !w_bad && w_idx == 2'd3 && w_strb_q[0] && w_data_q[0];
  wire       irq_clr  = do_write && !w_bad && w_idx == 2'd3 && w_strb_q[0] && w_data_q[1];

  wire [31:0] status = {4'd0, err_resp_q, 1'b0, err_q, 3'd0, badarchg_q, badardrop_q,
                        badwlast_q, bad4k_q, wfirst_q, maxlen_q, 2'd0, size_q, irq_en_q,
                        done_q, busy_q};
  wire [AxilAddrW-1:0] ar_addr = s_axil_araddr_i;
  reg  [31:0]          rd_mux;
  always @* begin
    case (ar_addr[3:2])
      2'd0:    rd_mux = src_q;
      2'd1:    rd_mux = dst_q;
      2'd2:    rd_mux = len_q;
      default: rd_mux = status;
    endcase
  end

  // byte-strobed update of a 32-bit register
  function [31:0] strobed(input [31:0] old, input [31:0] val, input [3:0] strb);
    integer b;
    begin
      strobed = old;
      for (b = 0; b < 4; b = b + 1)
        if (strb[b]) strobed[8*b +: 8] = val[8*b +: 8];
    end
  endfunction

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_full_q <= 1'b0;
      w_full_q  <= 1'b0;
      bvalid_q  <= 1'b0;
      rvalid_q  <= 1'b0;
      bresp_q   <= 2'b00;
      rresp_q   <= 2'b00;
      rdata_q   <= 32'd0;
      aw_addr_q <= {AxilAddrW{1'b0}};
      w_data_q  <= 32'd0;
      w_strb_q  <= 4'd0;
      src_q     <= 32'd0;
      dst_q     <= 32'd0;
      len_q     <= 32'd0;
      irq_en_q  <= 1'b0;
      size_q    <= 3'd0;
      maxlen_q  <= 8'd0;
      {badarchg_q, badardrop_q, badwlast_q, bad4k_q, wfirst_q} <= 5'd0;
    end else begin
      if (s_axil_awvalid_i && s_axil_awready_o) begin
        aw_full_q <= 1'b1;
        aw_addr_q <= s_axil_awaddr_i;
      end
      if (s_axil_wvalid_i && s_axil_wready_o) begin
        w_full_q <= 1'b1;
        w_data_q <= s_axil_wdata_i;
        w_strb_q <= s_axil_wstrb_i;
      end
      if (do_write) begin
        aw_full_q <= 1'b0;
        w_full_q  <= 1'b0;
        bvalid_q  <= 1'b1;
        bresp_q   <= w_bad ? 2'b10 : 2'b00;
        if (!w_bad) begin
          case (w_idx)
            2'd0: src_q <= strobed(src_q, w_data_q, w_strb_q);
            2'd1: dst_q <= strobed(dst_q, w_data_q, w_strb_q);
            2'd2: len_q <= strobed(len_q, w_data_q, w_strb_q);
            default: begin
              if (w_strb_q[0]) begin
                irq_en_q <= w_data_q[2];
                size_q   <= w_data_q[5:3];
              end
              if (w_strb_q[1]) maxlen_q <= w_data_q[15:8];
              if (w_strb_q[2])
                {badarchg_q, badardrop_q, badwlast_q, bad4k_q, wfirst_q} <= w_data_q[20:16];
            end
          endcase
        end
      end
      if (bvalid_q && s_axil_bready_i) bvalid_q <= 1'b0;
      if (s_axil_arvalid_i && s_axil_arready_o) begin
        rvalid_q <= 1'b1;
        rdata_q  <= rd_mux;
        rresp_q  <= (|ar_addr[AxilAddrW-1:4]) ? 2'b10 : 2'b00;
      end else if (rvalid_q && s_axil_rready_i) begin
        rvalid_q <= 1'b0;
      end
    end
  end

  // ================================================================ copy engine: read side
  // burst planning (both pointers, so read and write bursts are the same)
  reg [31:0] p_src_q, p_dst_q, p_rem_q;
  reg [8:0]  beats;
  reg [31:0] rem_beats;
  reg [12:0] to4k_s, to4k_d, to4k;
  always @* begin
    rem_beats = p_rem_q >> size_q;
    to4k_s    = (13'd4096 - {1'b0, p_src_q[11:0]}) >> size_q;
    to4k_d    = (13'd4096 - {1'b0, p_dst_q[11:0]}) >> size_q;
    to4k      = bad4k_q ? 13'd4096 : (to4k_s < to4k_d ? to4k_s : to4k_d);
    beats     = {1'b0, maxlen_q} + 9'd1;
    if (to4k < {4'd0, beats}) beats = to4k[8:0];
    if (rem_beats < {23'd0, beats}) beats = rem_beats[8:0];
  end
  wire [31:0] burst_bytes = {23'd0, beats} << size_q;

  reg                ar_valid_q, ar_hide_q, ar_chg_q;
  reg [31:0]         ar_addr_q;
  reg [7:0]          ar_len_q;
  reg [AxiIdW-1:0]   ar_id_q, aw_id_q;
  reg [3:0]          rd_out_q;
  reg [CntW-1:0]     reserved_q;
  reg [15:0]         planned_q, b_got_q;
  reg [LaneW-1:0]    rd_lane_q, w_lane_q;
  reg [15:0]         lfsr_q;

  wire [7:0] nb = 8'd1 << size_q;
  wire       lenq_in_ready, lenq_out_valid;
  wire [7:0] lenq_out;
  wire       ar_fire = m_axi_arvalid_o && m_axi_arready_i;
  wire       r_fire  = m_axi_rvalid_i && m_axi_rready_o;
  wire       w_fire  = m_axi_wvalid_o && m_axi_wready_i;
  wire       b_fire  = m_axi_bvalid_i && m_axi_bready_o;
  wire       plan    = busy_q && p_rem_q != 32'd0 && !ar_valid_q && rd_out_q < RdOutCap &&
                       lenq_in_ready && reserved_q + {7'd0, beats} <= FifoCap;

  assign m_axi_arvalid_o = ar_valid_q && !ar_hide_q;
  assign m_axi_arid_o    = ar_id_q;
  assign m_axi_araddr_o  = ar_addr_q[AxiAddrW-1:0];
  assign m_axi_arlen_o   = ar_len_q;
  assign m_axi_arsize_o  = size_q;
  assign m_axi_arburst_o = 2'b01;
  assign m_axi_arlock_o  = 1'b0;
  assign m_axi_arcache_o = {3'b001, ar_chg_q};
  assign m_axi_arprot_o  = 3'b000;
  assign m_axi_rready_o  = |lfsr_q[1:0];
  assign m_axi_bready_o  = |lfsr_q[3:2];

  // ================================================================ copy engine: write side
  reg              w_active_q, w_sent_q, aw_valid_q, aw_done_q;
  reg [7:0]        w_len_q, w_cnt_q;
  reg [31:0]       w_ptr_q;
  reg [31:0]       m_aw_addr_q;
  wire             fifo_out_valid;
  wire [AxiDataW-1:0] fifo_out;
  wire             lenq_pop = !w_active_q && lenq_out_valid;

  assign m_axi_awvalid_o = aw_valid_q;
  assign m_axi_awid_o    = aw_id_q;
  assign m_axi_awaddr_o  = m_aw_addr_q[AxiAddrW-1:0];
  assign m_axi_awlen_o   = w_len_q;
  assign m_axi_awsize_o  = size_q;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_awlock_o  = 1'b0;
  assign m_axi_awcache_o = 4'b0010;
  assign m_axi_awprot_o  = 3'b000;
  assign m_axi_wvalid_o  = w_active_q && !w_sent_q && fifo_out_valid;
  assign m_axi_wdata_o   = fifo_out << {w_lane_q, 3'b000};
  assign m_axi_wstrb_o   = ~({DataBytes{1'b1}} << nb) << w_lane_q;
  assign m_axi_wlast_o   = (badwlast_q && w_len_q != 8'd0) ? (w_cnt_q == w_len_q - 8'd1)
                                                           : (w_cnt_q == w_len_q);
  wire aw_fire = m_axi_awvalid_o && m_axi_awready_i;
  wire w_end   = w_fire && w_cnt_q == w_len_q;

  // data FIFO: read beats shifted down to lane 0; the reservation keeps it from overflowing
  wire fifo_in_ready;
  wire [$clog2(FifoDepth+1)-1:0] fifo_count;
  cc_fifo #(.Width(AxiDataW), .Depth(FifoDepth), .FallThrough(0)) u_data_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (r_fire),
    .in_ready_o (fifo_in_ready),
    .in_data_i  (m_axi_rdata_i >> {rd_lane_q, 3'b000}),
    .out_valid_o(fifo_out_valid),
    .out_ready_i(w_fire),
    .out_data_o (fifo_out),
    .count_o    (fifo_count)
  );

  // burst lengths from the read side to the write side
  wire [2:0] lenq_count;
  cc_fifo #(.Width(8), .Depth(4), .FallThrough(0)) u_len_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (plan),
    .in_ready_o (lenq_in_ready),
    .in_data_i  (beats[7:0] - 8'd1),
    .out_valid_o(lenq_out_valid),
    .out_ready_i(lenq_pop),
    .out_data_o (lenq_out),
    .count_o    (lenq_count)
  );

  wire finished = busy_q && p_rem_q == 32'd0 && !ar_valid_q && b_got_q == planned_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      done_q     <= 1'b0;
      err_q      <= 1'b0;
      err_resp_q <= 2'b00;
      p_src_q    <= 32'd0;
      p_dst_q    <= 32'd0;
      p_rem_q    <= 32'd0;
      ar_valid_q <= 1'b0;
      ar_hide_q  <= 1'b0;
      ar_chg_q   <= 1'b0;
      ar_addr_q  <= 32'd0;
      ar_len_q   <= 8'd0;
      ar_id_q    <= {AxiIdW{1'b0}};
      aw_id_q    <= {AxiIdW{1'b0}};
      rd_out_q   <= 4'd0;
      reserved_q <= {CntW{1'b0}};
      planned_q  <= 16'd0;
      b_got_q    <= 16'd0;
      rd_lane_q  <= {LaneW{1'b0}};
      w_lane_q   <= {LaneW{1'b0}};
      lfsr_q     <= 16'hACE1;
      w_active_q <= 1'b0;
      w_sent_q   <= 1'b0;
      aw_valid_q <= 1'b0;
      aw_done_q  <= 1'b0;
      w_len_q    <= 8'd0;
      w_cnt_q    <= 8'd0;
      w_ptr_q    <= 32'd0;
      m_aw_addr_q <= 32'd0;
    end else begin
      lfsr_q <= {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[13] ^ lfsr_q[12] ^ lfsr_q[10]};
      // control
      if (irq_clr) done_q <= 1'b0;
      if (start && !busy_q) begin
        busy_q     <= 1'b1;
        done_q     <= 1'b0;
        err_q      <= 1'b0;
        err_resp_q <= 2'b00;
        p_src_q    <= src_q;
        p_dst_q    <= dst_q;
        p_rem_q    <= len_q;
        w_ptr_q    <= dst_q;
        rd_lane_q  <= src_q[LaneW-1:0];
        w_lane_q   <= dst_q[LaneW-1:0];
        planned_q  <= 16'd0;
        b_got_q    <= 16'd0;
      end
      if (finished) begin
        busy_q <= 1'b0;
        done_q <= 1'b1;
      end
      // read side: plan a burst, hold AR until accepted
      if (plan) begin
        ar_valid_q <= 1'b1;
        ar_addr_q  <= p_src_q;
        ar_len_q   <= beats[7:0] - 8'd1;
        p_src_q    <= p_src_q + burst_bytes;
        p_dst_q    <= p_dst_q + burst_bytes;
        p_rem_q    <= p_rem_q - burst_bytes;
        planned_q  <= planned_q + 16'd1;
      end
      if (ar_fire) begin
        ar_valid_q <= 1'b0;
        ar_hide_q  <= 1'b0;
        ar_chg_q   <= 1'b0;
        ar_id_q    <= ar_id_q + 1'b1;
      end else if (ar_valid_q && !m_axi_arready_i) begin
        if (badardrop_q) ar_hide_q <= !ar_hide_q;
        if (badarchg_q) ar_chg_q <= !ar_chg_q;
      end
      rd_out_q <= rd_out_q + {3'd0, plan} - {3'd0, r_fire && m_axi_rlast_i};
      reserved_q <= reserved_q + (plan ? {7'd0, beats} : {CntW{1'b0}}) - {15'd0, w_fire};
      if (r_fire) begin
        rd_lane_q <= rd_lane_q + nb[LaneW-1:0];
        if (m_axi_rresp_i != 2'b00 && !err_q) begin
          err_q      <= 1'b1;
          err_resp_q <= m_axi_rresp_i;
        end
      end
      // write side
      if (lenq_pop) begin
        w_active_q <= 1'b1;
        w_sent_q   <= 1'b0;
        w_len_q    <= lenq_out;
        w_cnt_q    <= 8'd0;
        aw_done_q  <= 1'b0;
        aw_valid_q <= !wfirst_q;
        m_aw_addr_q <= w_ptr_q;
        w_ptr_q    <= w_ptr_q + (({24'd0, lenq_out} + 32'd1) << size_q);
      end
      if (w_fire) begin
        w_cnt_q  <= w_cnt_q + 8'd1;
        w_lane_q <= w_lane_q + nb[LaneW-1:0];
        if (w_end) begin
          w_sent_q <= 1'b1;
          if (wfirst_q && !aw_done_q) aw_valid_q <= 1'b1;
        end
      end
      if (aw_fire) begin
        aw_valid_q <= 1'b0;
        aw_done_q  <= 1'b1;
        aw_id_q    <= aw_id_q + 1'b1;
      end
      if (w_active_q && (w_sent_q || w_end) && (aw_done_q || aw_fire)) w_active_q <= 1'b0;
      if (b_fire) begin
        b_got_q <= b_got_q + 16'd1;
        if (m_axi_bresp_i != 2'b00 && !err_q) begin
          err_q      <= 1'b1;
          err_resp_q <= m_axi_bresp_i;
        end
      end
    end
  end

  assign irq_o = done_q && irq_en_q;

  // ================================================================ checks
  cc_hold_check #(.Width(AxilAddrW + 3)) u_aw_hold_check (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(s_axil_awvalid_i), .ready_i(s_axil_awready_o),
    .data_i({s_axil_awaddr_i, s_axil_awprot_i}), .release_i(1'b0)
  );
  cc_hold_check #(.Width(36)) u_w_hold_check (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(s_axil_wvalid_i), .ready_i(s_axil_wready_o),
    .data_i({s_axil_wdata_i, s_axil_wstrb_i}), .release_i(1'b0)
  );
  cc_hold_check #(.Width(AxilAddrW + 3)) u_ar_hold_check (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(s_axil_arvalid_i), .ready_i(s_axil_arready_o),
    .data_i({s_axil_araddr_i, s_axil_arprot_i}), .release_i(1'b0)
  );

  wire unused_ok = &{1'b0, aw_addr_q[1:0], ar_addr[1:0], m_axi_bid_i, m_axi_rid_i,
                     fifo_in_ready, fifo_count, lenq_count, rem_beats[31:9], to4k[12:9],
                     ar_addr_q[31:AxiAddrW > 31 ? 31 : AxiAddrW], m_aw_addr_q[31:AxiAddrW > 31 ? 31 : AxiAddrW]};

endmodule

`default_nettype wire
