////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  softermax_axi.v
//
// Purpose:   Softermax as FPGA IP (docs/axi_shell.md): a job reads ROWS score rows of LEN int8
//            elements (Q(6,2)) from memory through the AXI4 master, runs them through the
//            softermax top, and writes the probabilities (Q(1,7) bytes) back, one output row
//            per input row. Registers (rtl/softermax/softermax_regs.rdl, docs/regs/softermax.md)
//            over AXI4-Lite; one level interrupt.
//
//            Memory layout: row r's scores at SRC_ADDR + r * SRC_STRIDE, its probabilities at
//            DST_ADDR + r * DST_STRIDE, LEN bytes each, read and written as whole bus beats of
//            Vec bytes (the bytes of the last beat past LEN are read and ignored, and written
//            with the unit's padding: 0). Addresses and strides must be multiples of Vec.
//
//            A job: CTRL.START with STATUS.BUSY low latches the job registers and checks them
//            (error 0x01: LEN is 0 or above MaxLen; 0x02: an address or stride is not a
//            multiple of Vec; the job then ends at once with STATUS.ERROR). Read commands
//            (one per row) run ahead of the unit; write commands follow the rows out. The job
//            is done when the last row's write responses are in. An AXI error response sets
//            ERR_CODE 0xF1 (read) / 0xF2 (write) with its RRESP/BRESP; the job still runs to
//            its end (the rows stay aligned). START while BUSY is ignored.
//
// Parameters:
//   Vec, MaxLen, RecipSegBits, SumFrac   as softermax (InWidth 8, InFrac 2: int8 scores);
//                                        Vec a power of two, 4..128 (bus width Vec bytes)
//   AxiAddrW      memory address bits (16..64)
//   AxiIdW        AXI ID bits (the master uses ID 0 on both directions)
//   MaxBurst      beats per burst (power of two, <= 256)
//   RdOutstanding, WrOutstanding   bursts in flight per direction
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module softermax_axi #(
  parameter integer Vec           = 16,
  parameter integer MaxLen        = 384,
  parameter integer RecipSegBits  = 2,
  parameter integer SumFrac       = 6,
  parameter integer AxiAddrW      = 32,
  parameter integer AxiIdW        = 1,
  parameter integer MaxBurst      = 256,
  parameter integer RdOutstanding = 4,
  parameter integer WrOutstanding = 4,
  // derived, do not override
  parameter integer AxiDataW      = Vec * 8
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // AXI4-Lite slave: registers
  input  wire                  s_axil_awvalid_i,
  output wire                  s_axil_awready_o,
  input  wire [7:0]            s_axil_awaddr_i,
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
  input  wire [7:0]            s_axil_araddr_i,
  input  wire [2:0]            s_axil_arprot_i,
  output wire                  s_axil_rvalid_o,
  input  wire                  s_axil_rready_i,
  output wire [31:0]           s_axil_rdata_o,
  output wire [1:0]            s_axil_rresp_o,
  // AXI4 master: memory
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
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the unit's and the masters' own rules are checked by them.
  generate
    if (Vec < 4 || Vec > 128 || (Vec & (Vec - 1)) != 0) begin : gen_check_vec
      `CC_PARAM_FAIL(softermax_axi__Vec_must_be_a_power_of_two_4_to_128)
    end
    if (AxiAddrW < 16 || AxiAddrW > 64) begin : gen_check_addrw
      `CC_PARAM_FAIL(softermax_axi__AxiAddrW_must_be_16_to_64)
    end
    if (AxiDataW != Vec * 8) begin : gen_check_dataw
      `CC_PARAM_FAIL(softermax_axi__AxiDataW_is_derived_do_not_set)
    end
  endgenerate

  localparam integer CntW      = $clog2(Vec + 1);
  localparam integer VecShift  = $clog2(Vec);        // log2 of the bytes per beat
  localparam integer BeatsW    = 16;                 // a row's beats (LEN <= 65535)
  localparam [7:0]   ErrLen    = 8'h01, ErrAlign = 8'h02, ErrRow = 8'h03;
  localparam [7:0]   ErrAxiRd  = 8'hF1, ErrAxiWr = 8'hF2;
  localparam [15:0]  MaxLenW   = MaxLen[15:0];
  localparam [7:0]   VecW      = Vec[7:0];

  // ---------------------------------------------------------------- registers
  // AXI4-Lite, the register file and the common registers (generated: softermax_csr).
  wire        start, unused_clear;
  wire [31:0] cfg_src, cfg_dst, cfg_rows, cfg_src_stride, cfg_dst_stride;
  wire [15:0] cfg_len;
  reg         busy_q;
  wire        job_end, go, go_ok, err_any, rd_burst, wr_burst, stall;
  wire [7:0]  err_cd;
  wire [1:0]  err_rs;

  softermax_csr #(.AddrW(8)) u_csr (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .s_axil_awvalid_i  (s_axil_awvalid_i),
    .s_axil_awready_o  (s_axil_awready_o),
    .s_axil_awaddr_i   (s_axil_awaddr_i),
    .s_axil_awprot_i   (s_axil_awprot_i),
    .s_axil_wvalid_i   (s_axil_wvalid_i),
    .s_axil_wready_o   (s_axil_wready_o),
    .s_axil_wdata_i    (s_axil_wdata_i),
    .s_axil_wstrb_i    (s_axil_wstrb_i),
    .s_axil_bvalid_o   (s_axil_bvalid_o),
    .s_axil_bready_i   (s_axil_bready_i),
    .s_axil_bresp_o    (s_axil_bresp_o),
    .s_axil_arvalid_i  (s_axil_arvalid_i),
    .s_axil_arready_o  (s_axil_arready_o),
    .s_axil_araddr_i   (s_axil_araddr_i),
    .s_axil_arprot_i   (s_axil_arprot_i),
    .s_axil_rvalid_o   (s_axil_rvalid_o),
    .s_axil_rready_i   (s_axil_rready_i),
    .s_axil_rdata_o    (s_axil_rdata_o),
    .s_axil_rresp_o    (s_axil_rresp_o),
    .job_start_o       (start),
    .job_clear_o       (unused_clear),
    .job_busy_i        (busy_q),
    .job_stall_i       (stall),
    .job_done_i        (job_end || (go && !go_ok)),
    .job_err_i         (err_any),
    .job_err_code_i    (err_cd),
    .job_err_resp_i    (err_rs),
    .job_rd_burst_i    (rd_burst),
    .job_wr_burst_i    (wr_burst),
    .irq_o             (irq_o),
    .src_addr_val_o    (cfg_src),
    .dst_addr_val_o    (cfg_dst),
    .rows_val_o        (cfg_rows),
    .len_val_o         (cfg_len),
    .src_stride_val_o  (cfg_src_stride),
    .dst_stride_val_o  (cfg_dst_stride),
    .hwcfg_vec_i       (VecW),
    .hwcfg_beat_bytes_i(VecW),
    .hwcfg_maxlen_i    (MaxLenW)
  );

  // ---------------------------------------------------------------- job control
  reg  [AxiAddrW-1:0] rd_addr_q, wr_addr_q, src_stride_q, dst_stride_q;
  reg  [31:0]         rd_left_q, wr_left_q, done_left_q;   // rows to read / write / complete
  reg  [15:0]         len_q;
  wire [BeatsW-1:0]   beats = (len_q + {8'd0, VecW} - 16'd1) >> VecShift;

  // Checks of the job registers at START.
  wire mis_src = |cfg_src[VecShift-1:0];
  wire mis_dst = |cfg_dst[VecShift-1:0];
  wire mis_ss  = |cfg_src_stride[VecShift-1:0];
  wire mis_ds  = |cfg_dst_stride[VecShift-1:0];
  wire bad_len = (cfg_len == 16'd0) || (cfg_len > MaxLenW);
  wire bad_al  = mis_src || mis_dst || mis_ss || mis_ds;
  assign go    = start && !busy_q;
  assign go_ok = go && !bad_len && !bad_al;

  wire rd_cmd_valid = busy_q && (rd_left_q != 32'd0);
  wire wr_cmd_valid = busy_q && (wr_left_q != 32'd0);
  wire rd_cmd_ready, wr_cmd_ready, wr_done;
  wire rd_cmd_fire  = rd_cmd_valid && rd_cmd_ready;
  wire wr_cmd_fire  = wr_cmd_valid && wr_cmd_ready;
  assign job_end    = busy_q && ((done_left_q == 32'd0) ||
                                 (wr_done && (done_left_q == 32'd1)));

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      rd_left_q   <= 32'd0;
      wr_left_q   <= 32'd0;
      done_left_q <= 32'd0;
    end else begin
      if (go_ok) begin
        busy_q      <= 1'b1;
        rd_left_q   <= cfg_rows;
        wr_left_q   <= cfg_rows;
        done_left_q <= cfg_rows;
      end else begin
        if (job_end) busy_q <= 1'b0;
        if (rd_cmd_fire) rd_left_q <= rd_left_q - 32'd1;
        if (wr_cmd_fire) wr_left_q <= wr_left_q - 32'd1;
        if (wr_done && done_left_q != 32'd0) done_left_q <= done_left_q - 32'd1;
      end
    end
  end

  // Datapath registers without reset: busy_q says when they hold a job.
  always @(posedge clk_i) begin
    if (go_ok) begin
      rd_addr_q    <= cfg_src[AxiAddrW-1:0];
      wr_addr_q    <= cfg_dst[AxiAddrW-1:0];
      src_stride_q <= cfg_src_stride[AxiAddrW-1:0];
      dst_stride_q <= cfg_dst_stride[AxiAddrW-1:0];
      len_q        <= cfg_len;
    end else begin
      if (rd_cmd_fire) rd_addr_q <= rd_addr_q + src_stride_q;
      if (wr_cmd_fire) wr_addr_q <= wr_addr_q + dst_stride_q;
    end
  end

  // ---------------------------------------------------------------- memory -> unit -> memory
  wire                in_valid, in_ready, in_last, in_err;
  wire [AxiDataW-1:0] in_x;
  wire                out_valid, out_ready, out_last, out_err;
  wire [AxiDataW-1:0] out_y;
  wire [CntW-1:0]     out_cnt;
  wire                rd_busy, wr_busy, rd_err, wr_err;
  wire [1:0]          rd_resp, wr_resp;
  wire                unused_done_err;

  cc_axi_rd_master #(
    .AddrW(AxiAddrW), .DataW(AxiDataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(RdOutstanding), .IdW(AxiIdW), .Id(0)
  ) u_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (rd_cmd_valid),
    .cmd_ready_o    (rd_cmd_ready),
    .cmd_addr_i     (rd_addr_q),
    .cmd_beats_i    (beats),
    .data_valid_o   (in_valid),
    .data_ready_i   (in_ready),
    .data_o         (in_x),
    .data_last_o    (in_last),
    .data_err_o     (in_err),
    .busy_o         (rd_busy),
    .err_o          (rd_err),
    .err_resp_o     (rd_resp),
    .burst_o        (rd_burst),
    .m_axi_arvalid_o(m_axi_arvalid_o),
    .m_axi_arready_i(m_axi_arready_i),
    .m_axi_arid_o   (m_axi_arid_o),
    .m_axi_araddr_o (m_axi_araddr_o),
    .m_axi_arlen_o  (m_axi_arlen_o),
    .m_axi_arsize_o (m_axi_arsize_o),
    .m_axi_arburst_o(m_axi_arburst_o),
    .m_axi_arlock_o (m_axi_arlock_o),
    .m_axi_arcache_o(m_axi_arcache_o),
    .m_axi_arprot_o (m_axi_arprot_o),
    .m_axi_rvalid_i (m_axi_rvalid_i),
    .m_axi_rready_o (m_axi_rready_o),
    .m_axi_rid_i    (m_axi_rid_i),
    .m_axi_rdata_i  (m_axi_rdata_i),
    .m_axi_rresp_i  (m_axi_rresp_i),
    .m_axi_rlast_i  (m_axi_rlast_i)
  );

  // The last beat of a row carries ((LEN - 1) mod Vec) + 1 elements, every other beat Vec.
  wire [CntW-1:0] last_cnt = {1'b0, len_q[VecShift-1:0] - 1'b1} + 1'b1;
  wire [CntW-1:0] in_cnt   = in_last ? last_cnt : VecW[CntW-1:0];
  wire            unused_in_err = in_err;   // counted through rd_err (ERR_CODE 0xF1)

  softermax #(
    .Vec(Vec), .MaxLen(MaxLen), .InWidth(8), .InFrac(2), .RecipSegBits(RecipSegBits),
    .SumFrac(SumFrac)
  ) u_unit (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid),
    .in_ready_o (in_ready),
    .in_x_i     (in_x),
    .in_cnt_i   (in_cnt),
    .in_last_i  (in_last),
    .out_valid_o(out_valid),
    .out_ready_i(out_ready),
    .out_y_o    (out_y),
    .out_cnt_o  (out_cnt),
    .out_last_o (out_last),
    .out_err_o  (out_err)
  );
  wire [CntW-1:0] unused_out_cnt  = out_cnt;
  wire            unused_out_last = out_last;

  cc_axi_wr_master #(
    .AddrW(AxiAddrW), .DataW(AxiDataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(WrOutstanding), .IdW(AxiIdW), .Id(0)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (wr_cmd_valid),
    .cmd_ready_o    (wr_cmd_ready),
    .cmd_addr_i     (wr_addr_q),
    .cmd_beats_i    (beats),
    .data_valid_i   (out_valid),
    .data_ready_o   (out_ready),
    .data_i         (out_y),
    .busy_o         (wr_busy),
    .done_o         (wr_done),
    .done_err_o     (unused_done_err),
    .err_o          (wr_err),
    .err_resp_o     (wr_resp),
    .burst_o        (wr_burst),
    .m_axi_awvalid_o(m_axi_awvalid_o),
    .m_axi_awready_i(m_axi_awready_i),
    .m_axi_awid_o   (m_axi_awid_o),
    .m_axi_awaddr_o (m_axi_awaddr_o),
    .m_axi_awlen_o  (m_axi_awlen_o),
    .m_axi_awsize_o (m_axi_awsize_o),
    .m_axi_awburst_o(m_axi_awburst_o),
    .m_axi_awlock_o (m_axi_awlock_o),
    .m_axi_awcache_o(m_axi_awcache_o),
    .m_axi_awprot_o (m_axi_awprot_o),
    .m_axi_wvalid_o (m_axi_wvalid_o),
    .m_axi_wready_i (m_axi_wready_i),
    .m_axi_wdata_o  (m_axi_wdata_o),
    .m_axi_wstrb_o  (m_axi_wstrb_o),
    .m_axi_wlast_o  (m_axi_wlast_o),
    .m_axi_bvalid_i (m_axi_bvalid_i),
    .m_axi_bready_o (m_axi_bready_o),
    .m_axi_bid_i    (m_axi_bid_i),
    .m_axi_bresp_i  (m_axi_bresp_i)
  );
  wire unused_busy = rd_busy ^ wr_busy;   // job_end waits for the last write response instead

  // ---------------------------------------------------------------- status
  // One error per cycle reaches the status: a job error at START, else the unit's, else the
  // read side's, else the write side's (the first of a job is kept).
  wire       row_err = out_valid && out_ready && out_err;
  assign err_any = (go && (bad_len || bad_al)) || row_err || rd_err || wr_err;
  assign err_cd  = (go && bad_len) ? ErrLen : (go && bad_al) ? ErrAlign :
                       row_err ? ErrRow : rd_err ? ErrAxiRd : ErrAxiWr;
  assign err_rs  = (go || row_err) ? 2'b00 : rd_err ? rd_resp : wr_resp;
  assign stall   = !(in_valid && in_ready) && !(out_valid && out_ready);

endmodule
`default_nettype wire
