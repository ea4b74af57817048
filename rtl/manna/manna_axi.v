////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  manna_axi.v
//
// Purpose:   MANNA (manna) as FPGA IP (docs/axi_shell.md, docs/manna.md "AXI top"): registers
//            over AXI4-Lite (rtl/manna/manna_regs.rdl, docs/regs/manna.md), a bulk loader on
//            one AXI4 master that moves words between device memory and the tiles' memories
//            through manna's host port, a host-port mailbox, one level interrupt.
//
//            A job: CTRL.START with STATUS.BUSY low latches JOB_CMD, JOB_ADDR, JOB_COUNT and
//            JOB_DRAM and checks them (0x10 OP 3; 0x11 SPACE 6/7, BCAST with STORE, TILE >=
//            Tiles without BCAST; 0x12 JOB_DRAM not a multiple of 4 or its range beyond
//            2^AxiAddrW; 0x13 JOB_ADDR + JOB_COUNT beyond the space, a RUN PC above 0xFFFF: the
//            job then ends at once with DONE and ERROR and nothing runs).
//              LOAD   one read command of JOB_COUNT words (IMEM: two 32-bit beats a word, the
//                     low word first) from JOB_DRAM; every word becomes one host-port WRITE of
//                     word JOB_ADDR + i of SPACE in TILE (every tile with BCAST). A word with an
//                     RRESP error is not written (the tile keeps its old word; 0xF1).
//              STORE  one write command of the same shape to JOB_DRAM; every word is one host
//                     READ whose response data go out as the W beats (a refused READ stores 0).
//              RUN    a host START at PC JOB_ADDR; then, once every tile has stopped (manna's
//                     idle_o), one STATUS request per tile: a tile that stopped with an error
//                     status s (2..8) sets its TILE_ERR bit and reports 0x20 + s.
//            The job is DONE when its last host response has arrived and (STORE) its last write
//            response. A host response with err 1 (BAD) or 2 (BUSY) reports 0x01 / 0x02; errors
//            do not stop a LOAD or STORE (the streams stay aligned); a refused START ends a RUN.
//            START while BUSY is ignored.
//
//            Mailbox: MBOX_REQ.GO latches one host-port request (MBOX_REQ, MBOX_ADDR,
//            MBOX_DATA_*); it is sent as soon as the port is free (never between the requests of
//            a LOAD or STORE, nor during a RUN's START and STATUS phases; while a RUN waits for
//            the tiles it goes at once), and its response lands in MBOX_RSP, MBOX_RSP_LO/HI. A
//            GO while one is pending is ignored (0x14). A mailbox response with an error
//            reports 0x01 / 0x02 like a job's.
//            The host port carries one request at a time: a request register (valid held until
//            manna takes it) and the owner (job or mailbox) of the one in flight.
//            Counters: CYC_STALL counts busy cycles in which a LOAD waits for read data or a
//            STORE for the write channel; RD_BURSTS / WR_BURSTS the AXI bursts; HOST_REQS the
//            host requests; RUN_CYCLES the last run's cycles.
//
// Parameters:
//   Tiles, Emacs, MbLines, MsLines, VbLines, VsLines, ImemDepth, RfRegs, Transpose, EmacOps,
//   FenceTimeout   as manna
//   AxiAddrW       memory address bits (16..32; JOB_DRAM is 32 bits)
//   AxiIdW         AXI ID bits (the masters use ID 0)
//   AxiDataW       memory data bits: 32 (one word a beat; the host port takes a word every two
//                  cycles at best, so a wider bus would not move data faster)
//   MaxBurst       beats per burst (power of two, <= 256)
//   RdOutstanding, WrOutstanding   AXI bursts in flight per direction
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module manna_axi #(
  parameter integer Tiles         = 2,
  parameter integer Emacs         = 4,
  parameter integer MbLines       = 64,
  parameter integer MsLines       = 32,
  parameter integer VbLines       = 32,
  parameter integer VsLines       = 16,
  parameter integer ImemDepth     = 256,
  parameter integer RfRegs        = 8,
  parameter integer Transpose     = 1,
  parameter integer EmacOps       = 1,
  parameter integer FenceTimeout  = 4096,
  parameter integer AxiAddrW      = 32,
  parameter integer AxiIdW        = 1,
  parameter integer AxiDataW      = 32,
  parameter integer MaxBurst      = 256,
  parameter integer RdOutstanding = 4,
  parameter integer WrOutstanding = 4
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
  // manna's and the masters' own rules are checked by them.
  generate
    if (AxiAddrW < 16 || AxiAddrW > 32) begin : gen_check_addrw
      `CC_PARAM_FAIL(manna_axi__AxiAddrW_must_be_16_to_32)
    end
    if (AxiDataW != 32) begin : gen_check_dataw
      `CC_PARAM_FAIL(manna_axi__AxiDataW_must_be_32)
    end
  endgenerate

  localparam integer BeatsW = 22;
  localparam [1:0]   OpWrite = 2'd0, OpRead = 2'd1, OpStart = 2'd2, OpStatus = 2'd3;
  localparam [1:0]   JLoad = 2'd0, JStore = 2'd1, JRun = 2'd2;
  localparam [2:0]   SIdle = 3'd0, SLoad = 3'd1, SStore = 3'd2, SRStart = 3'd3, SRWait = 3'd4,
                     SRStat = 3'd5;
  localparam [7:0]   ErrOp = 8'h10, ErrField = 8'h11, ErrDram = 8'h12,
                     ErrRange = 8'h13, ErrOverrun = 8'h14, ErrTile = 8'h20, ErrAxiRd = 8'hF1,
                     ErrAxiWr = 8'hF2;
  localparam [4:0]   NTiles = Tiles[4:0];
  localparam integer LastTileI = Tiles - 1;
  localparam [3:0]   LastTile = LastTileI[3:0];
  // the build parameters for HWCFG0..3
  localparam [5:0]   EmacsW = Emacs[5:0], AxiAwW = AxiAddrW[5:0];
  localparam [4:0]   RfW = RfRegs[4:0];
  localparam integer MbLg = $clog2(MbLines), MsLg = $clog2(MsLines), VbLg = $clog2(VbLines),
                     VsLg = $clog2(VsLines);
  localparam [4:0]   MbLgW = MbLg[4:0], MsLgW = MsLg[4:0], VbLgW = VbLg[4:0], VsLgW = VsLg[4:0];
  localparam [16:0]  ImemW = ImemDepth[16:0];
  localparam [31:0]  FenceW = FenceTimeout;
  // words of each space (as manna's host port checks them)
  localparam [31:0]  WImem = ImemDepth, WMb = MbLines * Emacs, WMs = MsLines * Emacs,
                     WVb = VbLines * Emacs, WVs = VsLines * Emacs;
  localparam [63:0]  AxiSpan = 64'd1 << AxiAddrW;

  function [31:0] space_words(input [2:0] s);
    case (s)
      3'd0: space_words = WImem;
      3'd1: space_words = WMb;
      3'd2: space_words = WMs;
      3'd3: space_words = WVb;
      3'd4: space_words = WVs;
      3'd5: space_words = 32'd16;
      default: space_words = 32'd0;
    endcase
  endfunction

  // ---------------------------------------------------------------- registers
  wire        start, clear;
  wire [1:0]  cmd_op, mb_op_r;
  wire        cmd_bc, mb_bc_r, mb_go;
  wire [3:0]  cmd_tile, mb_tile_r;
  wire [2:0]  cmd_sp, mb_sp_r;
  wire [31:0] cfg_addr, cfg_count, cfg_dram, mb_lo_r, mb_hi_r;
  wire [19:0] mb_addr_r;
  reg  [2:0]  st_q;
  reg  [31:0] words_q, run_cyc_q, hreqs_q;
  reg  [15:0] terr_q;
  reg         mb_pend_q, mb_sent_q, mb_valid_q;
  reg  [1:0]  mb_err_q;
  reg  [63:0] mb_rdata_q;
  wire        busy = (st_q != SIdle);
  wire        go, go_ok, job_end, err_any, stall, rd_burst, wr_burst;
  wire [7:0]  err_cd;
  wire [1:0]  err_rs;

  manna_csr #(.AddrW(8)) u_csr (
    .clk_i                 (clk_i),
    .rst_ni                (rst_ni),
    .s_axil_awvalid_i      (s_axil_awvalid_i),
    .s_axil_awready_o      (s_axil_awready_o),
    .s_axil_awaddr_i       (s_axil_awaddr_i),
    .s_axil_awprot_i       (s_axil_awprot_i),
    .s_axil_wvalid_i       (s_axil_wvalid_i),
    .s_axil_wready_o       (s_axil_wready_o),
    .s_axil_wdata_i        (s_axil_wdata_i),
    .s_axil_wstrb_i        (s_axil_wstrb_i),
    .s_axil_bvalid_o       (s_axil_bvalid_o),
    .s_axil_bready_i       (s_axil_bready_i),
    .s_axil_bresp_o        (s_axil_bresp_o),
    .s_axil_arvalid_i      (s_axil_arvalid_i),
    .s_axil_arready_o      (s_axil_arready_o),
    .s_axil_araddr_i       (s_axil_araddr_i),
    .s_axil_arprot_i       (s_axil_arprot_i),
    .s_axil_rvalid_o       (s_axil_rvalid_o),
    .s_axil_rready_i       (s_axil_rready_i),
    .s_axil_rdata_o        (s_axil_rdata_o),
    .s_axil_rresp_o        (s_axil_rresp_o),
    .job_start_o           (start),
    .job_clear_o           (clear),
    .job_busy_i            (busy),
    .job_stall_i           (stall),
    .job_done_i            (job_end || (go && !go_ok)),
    .job_err_i             (err_any),
    .job_err_code_i        (err_cd),
    .job_err_resp_i        (err_rs),
    .job_rd_burst_i        (rd_burst),
    .job_wr_burst_i        (wr_burst),
    .irq_o                 (irq_o),
    .hwcfg0_tiles_i        (NTiles),
    .hwcfg0_emacs_i        (EmacsW),
    .hwcfg0_rf_regs_i      (RfW),
    .hwcfg0_transpose_i    (Transpose != 0),
    .hwcfg0_emac_ops_i     (EmacOps != 0),
    .hwcfg1_mb_lg2_i       (MbLgW),
    .hwcfg1_ms_lg2_i       (MsLgW),
    .hwcfg1_vb_lg2_i       (VbLgW),
    .hwcfg1_vs_lg2_i       (VsLgW),
    .hwcfg2_imem_depth_i   (ImemW),
    .hwcfg2_axi_addr_w_i   (AxiAwW),
    .hwcfg3_fence_timeout_i(FenceW),
    .job_cmd_op_o          (cmd_op),
    .job_cmd_bcast_o       (cmd_bc),
    .job_cmd_tile_o        (cmd_tile),
    .job_cmd_space_o       (cmd_sp),
    .job_addr_val_o        (cfg_addr),
    .job_count_val_o       (cfg_count),
    .job_dram_val_o        (cfg_dram),
    .job_words_val_i       (words_q),
    .tile_err_mask_i       (terr_q),
    .run_cycles_val_i      (run_cyc_q),
    .host_reqs_val_i       (hreqs_q),
    .mbox_req_op_o         (mb_op_r),
    .mbox_req_bcast_o      (mb_bc_r),
    .mbox_req_tile_o       (mb_tile_r),
    .mbox_req_space_o      (mb_sp_r),
    .mbox_req_go_o         (mb_go),
    .mbox_addr_addr_o      (mb_addr_r),
    .mbox_data_lo_val_o    (mb_lo_r),
    .mbox_data_hi_val_o    (mb_hi_r),
    .mbox_rsp_err_i        (mb_err_q),
    .mbox_rsp_valid_i      (mb_valid_q),
    .mbox_rsp_pending_i    (mb_pend_q),
    .mbox_rsp_lo_val_i     (mb_rdata_q[31:0]),
    .mbox_rsp_hi_val_i     (mb_rdata_q[63:32])
  );

  // ---------------------------------------------------------------- checks at START
  // (64-bit arithmetic: no overflow, no zero-width parts)
  wire        cmd_imem  = (cmd_sp == 3'd0);
  wire        cmd_xfer  = (cmd_op == JLoad) || (cmd_op == JStore);
  wire [63:0] dram_end  = {32'd0, cfg_dram} + ({32'd0, cfg_count} << (cmd_imem ? 3 : 2));
  wire [63:0] word_end  = {32'd0, cfg_addr} + {32'd0, cfg_count};
  wire        bad_op    = (cmd_op == 2'd3);
  wire        bad_field = cmd_xfer && ((cmd_sp > 3'd5) || (cmd_op == JStore && cmd_bc) ||
                                       (!cmd_bc && ({1'b0, cmd_tile} >= NTiles)));
  wire        bad_dram  = cmd_xfer && ((|cfg_dram[1:0]) || (dram_end > AxiSpan));
  wire        bad_range = (cmd_xfer && (word_end > {32'd0, space_words(cmd_sp)})) ||
                          ((cmd_op == JRun) && (cfg_addr > 32'h0000FFFF));
  wire        bad_job   = bad_op || bad_field || bad_dram || bad_range;
  wire [7:0]  bad_cd    = bad_op ? ErrOp : bad_field ? ErrField : bad_dram ? ErrDram : ErrRange;
  assign go    = start && !busy;
  assign go_ok = go && !bad_job;
  wire        go_xfer = go_ok && cmd_xfer && (cfg_count != 32'd0);
  wire [BeatsW-1:0] go_beats = cmd_imem ? {cfg_count[BeatsW-2:0], 1'b0} : cfg_count[BeatsW-1:0];

  // the latched job
  reg         j_bc_q, j_imem_q;
  reg  [3:0]  j_tile_q;
  reg  [2:0]  j_sp_q;
  reg  [19:0] wa_q;                 // next word address (LOAD: to write; STORE: to read); RUN: PC
  reg  [BeatsW-1:0] left_q;         // LOAD: beats still to arrive; STORE: words to request
  reg  [3:0]  rt_q;                 // RUN: the tile whose STATUS is next
  reg         rcmd_v_q, wcmd_v_q;   // the masters' commands, held until taken
  reg  [AxiAddrW-1:0] cmd_addr_q;
  reg  [BeatsW-1:0]   cmd_beats_q;

  // ---------------------------------------------------------------- manna and its host port
  wire        hp_req_ready, hp_rsp_valid, hp_idle;
  wire [1:0]  hp_rsp_err;
  wire [63:0] hp_rsp_data;
  reg         hq_v_q;               // the request register (valid held until taken)
  reg  [1:0]  hq_op_q;
  reg         hq_bc_q;
  reg  [3:0]  hq_tile_q;
  reg  [2:0]  hq_sp_q;
  reg  [19:0] hq_addr_q;
  reg  [63:0] hq_data_q;
  reg         hp_out_q;             // a request issued, its response not yet taken
  reg         hp_mb_q;              // ... and it is the mailbox's
  wire        hp_rsp_ready;
  wire        hp_rsp_fire = hp_rsp_valid && hp_rsp_ready;
  wire        job_rsp  = hp_rsp_fire && !hp_mb_q;
  wire        mb_rsp   = hp_rsp_fire && hp_mb_q;

  manna #(
    .Tiles(Tiles), .Emacs(Emacs), .MbLines(MbLines), .MsLines(MsLines), .VbLines(VbLines),
    .VsLines(VsLines), .ImemDepth(ImemDepth), .RfRegs(RfRegs), .Transpose(Transpose),
    .EmacOps(EmacOps), .FenceTimeout(FenceTimeout)
  ) u_manna (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_valid_i(hq_v_q),
    .req_ready_o(hp_req_ready),
    .req_op_i   (hq_op_q),
    .req_bcast_i(hq_bc_q),
    .req_tile_i (hq_tile_q),
    .req_space_i(hq_sp_q),
    .req_addr_i (hq_addr_q),
    .req_data_i (hq_data_q),
    .rsp_valid_o(hp_rsp_valid),
    .rsp_ready_i(hp_rsp_ready),
    .rsp_err_o  (hp_rsp_err),
    .rsp_data_o (hp_rsp_data),
    .idle_o     (hp_idle)
  );

  // ---------------------------------------------------------------- read side (LOAD)
  wire              rd_cmd_ready, rd_valid, rd_err_beat, rd_busy, rd_err, rd_last;
  wire [31:0]       rd_data;
  wire [1:0]        rd_resp;
  reg               half_q, half_err_q;   // IMEM: the low word of an instruction is held
  reg  [31:0]       lo_q;
  // a beat is taken when the request register is free (the low half of an IMEM word always)
  wire              rd_take_ok = (st_q == SLoad) && !hp_out_q && !hq_v_q;
  wire              rd_ready   = rd_take_ok;
  wire              rd_fire    = rd_valid && rd_ready;
  wire              ld_word    = rd_fire && (!j_imem_q || half_q);       // a word is complete
  wire              ld_bad     = rd_err_beat || (j_imem_q && half_err_q);
  wire              ld_issue   = ld_word && !ld_bad;
  wire              ld_skip    = ld_word && ld_bad;

  cc_axi_rd_master #(
    .AddrW(AxiAddrW), .DataW(AxiDataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(RdOutstanding), .IdW(AxiIdW), .Id(0)
  ) u_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (rcmd_v_q),
    .cmd_ready_o    (rd_cmd_ready),
    .cmd_addr_i     (cmd_addr_q),
    .cmd_beats_i    (cmd_beats_q),
    .data_valid_o   (rd_valid),
    .data_ready_i   (rd_ready),
    .data_o         (rd_data),
    .data_last_o    (rd_last),
    .data_err_o     (rd_err_beat),
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
  // the job's end counts beats (left_q) instead
  wire unused_rd = rd_busy ^ rd_last;

  // ---------------------------------------------------------------- write side (STORE)
  wire        wr_cmd_ready, w_ready, wr_busy, wr_done, wr_done_err, wr_err;
  wire [1:0]  wr_resp;
  reg  [63:0] sd_q;                  // the READ response being written out
  reg  [1:0]  sd_n_q;                // its beats still to go (IMEM: 2, else 1)
  reg         wr_done_q;             // the write command's last response has arrived
  wire        w_valid = (sd_n_q != 2'd0);
  wire [31:0] w_data  = (sd_n_q == 2'd1 && j_imem_q) ? sd_q[63:32] : sd_q[31:0];
  wire        w_fire  = w_valid && w_ready;
  wire        st_issue = (st_q == SStore) && (left_q != {BeatsW{1'b0}}) && !hp_out_q &&
                         !hq_v_q && !w_valid;

  cc_axi_wr_master #(
    .AddrW(AxiAddrW), .DataW(AxiDataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(WrOutstanding), .IdW(AxiIdW), .Id(0)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (wcmd_v_q),
    .cmd_ready_o    (wr_cmd_ready),
    .cmd_addr_i     (cmd_addr_q),
    .cmd_beats_i    (cmd_beats_q),
    .data_valid_i   (w_valid),
    .data_ready_o   (w_ready),
    .data_i         (w_data),
    .busy_o         (wr_busy),
    .done_o         (wr_done),
    .done_err_o     (wr_done_err),
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
  // errors are reported per response (wr_err); the job's end waits on wr_done
  wire unused_wr = wr_busy ^ wr_done_err;

  // ---------------------------------------------------------------- host-port requests
  // The job's: LOAD writes, STORE reads, RUN's START and STATUS requests. The mailbox's goes
  // when the port is free and the job is not in a phase that uses it.
  wire rs_issue = (st_q == SRStart) && !hp_out_q && !hq_v_q;
  wire rq_issue = (st_q == SRStat) && !hp_out_q && !hq_v_q;
  wire job_port = (st_q == SLoad) || (st_q == SStore) || (st_q == SRStart) || (st_q == SRStat);
  wire mb_issue = mb_pend_q && !mb_sent_q && !hp_out_q && !hq_v_q && !job_port;
  wire hq_load  = ld_issue || st_issue || rs_issue || rq_issue || mb_issue;
  // the job takes every response at once (a STORE issues its next READ only once the W beats of
  // the previous one have gone)
  assign hp_rsp_ready = hp_out_q && !hq_v_q;

  // the mailbox's request, latched at GO
  reg  [1:0]  mb_op_q;
  reg         mb_bc_q;
  reg  [3:0]  mb_tile_q;
  reg  [2:0]  mb_sp_q;
  reg  [19:0] mb_addr_q;
  reg  [63:0] mb_data_q;
  wire        mb_take    = mb_go && !mb_pend_q;
  wire        mb_overrun = mb_go && mb_pend_q;

  // ---------------------------------------------------------------- job state
  wire        ld_done  = (st_q == SLoad) && (left_q == {BeatsW{1'b0}}) && !hp_out_q && !hq_v_q &&
                         !half_q;
  wire        str_done = (st_q == SStore) && (left_q == {BeatsW{1'b0}}) && !hp_out_q &&
                         !hq_v_q && !w_valid && (wr_done_q || wr_done);
  wire        rs_bad   = job_rsp && (st_q == SRStart) && (hp_rsp_err != 2'd0);
  wire        rw_end   = (st_q == SRWait) && hp_idle && (run_cyc_q != 32'd0);
  wire        rq_last  = job_rsp && (st_q == SRStat) && (rt_q == LastTile);
  wire [3:0]  rsp_st   = hp_rsp_data[3:0];
  wire        tile_bad = job_rsp && (st_q == SRStat) && (hp_rsp_err == 2'd0) &&
                         (rsp_st != 4'd1);
  assign job_end = ld_done || str_done || rs_bad || rq_last;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q       <= SIdle;
      j_bc_q     <= 1'b0;
      j_imem_q   <= 1'b0;
      j_tile_q   <= 4'd0;
      j_sp_q     <= 3'd0;
      wa_q       <= 20'd0;
      left_q     <= {BeatsW{1'b0}};
      rt_q       <= 4'd0;
      rcmd_v_q   <= 1'b0;
      wcmd_v_q   <= 1'b0;
      half_q     <= 1'b0;
      half_err_q <= 1'b0;
      sd_n_q     <= 2'd0;
      wr_done_q  <= 1'b0;
      words_q    <= 32'd0;
      terr_q     <= 16'd0;
      run_cyc_q  <= 32'd0;
      hreqs_q    <= 32'd0;
      hq_v_q     <= 1'b0;
      hp_out_q   <= 1'b0;
      hp_mb_q    <= 1'b0;
      mb_pend_q  <= 1'b0;
      mb_sent_q  <= 1'b0;
      mb_valid_q <= 1'b0;
      mb_err_q   <= 2'd0;
    end else begin
      // ---- job
      if (go) begin
        words_q   <= 32'd0;
        terr_q    <= 16'd0;
        run_cyc_q <= 32'd0;
        rt_q      <= 4'd0;
        half_q    <= 1'b0;
        wr_done_q <= !go_xfer;    // no write command: nothing to wait for
        if (go_ok) begin
          j_bc_q   <= cmd_bc;
          j_imem_q <= cmd_imem;
          j_tile_q <= cmd_tile;
          j_sp_q   <= cmd_sp;
          wa_q     <= cfg_addr[19:0];
          left_q   <= (cmd_op == JLoad) ? go_beats : cfg_count[BeatsW-1:0];
          rcmd_v_q <= go_xfer && (cmd_op == JLoad);
          wcmd_v_q <= go_xfer && (cmd_op == JStore);
          st_q     <= (cmd_op == JLoad) ? SLoad : (cmd_op == JStore) ? SStore : SRStart;
        end
      end else begin
        if (rcmd_v_q && rd_cmd_ready) rcmd_v_q <= 1'b0;
        if (wcmd_v_q && wr_cmd_ready) wcmd_v_q <= 1'b0;
        // LOAD: beats in, words out (one host WRITE each, or skipped on a read error)
        if (rd_fire) begin
          left_q <= left_q - 1'b1;
          if (j_imem_q) begin
            half_q     <= !half_q;
            half_err_q <= half_q ? 1'b0 : rd_err_beat;
          end
        end
        if (ld_word) wa_q <= wa_q + 20'd1;
        if (ld_skip || (job_rsp && st_q == SLoad)) words_q <= words_q + 32'd1;
        // STORE: one host READ a word, its data out as W beats
        if (st_issue) begin
          left_q <= left_q - 1'b1;
          wa_q   <= wa_q + 20'd1;
        end
        if (job_rsp && st_q == SStore) begin
          words_q <= words_q + 32'd1;
          sd_n_q  <= j_imem_q ? 2'd2 : 2'd1;
        end else if (w_fire) begin
          sd_n_q  <= sd_n_q - 2'd1;
        end
        if (wr_done) wr_done_q <= 1'b1;
        // RUN
        if (job_rsp && st_q == SRStart && hp_rsp_err == 2'd0) st_q <= SRWait;
        if (st_q == SRWait) begin
          if (run_cyc_q != 32'hFFFFFFFF) run_cyc_q <= run_cyc_q + 32'd1;
          if (rw_end) st_q <= SRStat;
        end
        if (job_rsp && st_q == SRStat) begin
          rt_q <= rt_q + 4'd1;
          if (tile_bad) terr_q <= terr_q | (16'd1 << rt_q);
        end
        if (job_end) st_q <= SIdle;
      end
      // ---- host port
      if (hq_load) begin
        hq_v_q   <= 1'b1;
        hp_out_q <= 1'b1;
        hp_mb_q  <= mb_issue;
        hreqs_q  <= hreqs_q + 32'd1;
      end else if (hq_v_q && hp_req_ready) begin
        hq_v_q <= 1'b0;
      end
      if (hp_rsp_fire) hp_out_q <= 1'b0;
      if (clear) hreqs_q <= 32'd0;
      // ---- mailbox
      if (mb_take) begin
        mb_pend_q  <= 1'b1;
        mb_sent_q  <= 1'b0;
        mb_valid_q <= 1'b0;
      end
      if (mb_issue) mb_sent_q <= 1'b1;
      if (mb_rsp) begin
        mb_pend_q  <= 1'b0;
        mb_valid_q <= 1'b1;
        mb_err_q   <= hp_rsp_err;
      end
    end
  end

  // Datapath registers without reset: the state above says when they hold something.
  always @(posedge clk_i) begin
    if (go_xfer) begin
      cmd_addr_q  <= cfg_dram[AxiAddrW-1:0];
      cmd_beats_q <= go_beats;
    end
    if (rd_fire && j_imem_q && !half_q) lo_q <= rd_data;
    if (job_rsp && st_q == SStore) sd_q <= hp_rsp_data;
    if (mb_take) begin
      mb_op_q   <= mb_op_r;
      mb_bc_q   <= mb_bc_r;
      mb_tile_q <= mb_tile_r;
      mb_sp_q   <= mb_sp_r;
      mb_addr_q <= mb_addr_r;
      mb_data_q <= {mb_hi_r, mb_lo_r};
    end
    if (mb_rsp) mb_rdata_q <= hp_rsp_data;
    if (hq_load) begin
      if (mb_issue) begin
        hq_op_q   <= mb_op_q;
        hq_bc_q   <= mb_bc_q;
        hq_tile_q <= mb_tile_q;
        hq_sp_q   <= mb_sp_q;
        hq_addr_q <= mb_addr_q;
        hq_data_q <= mb_data_q;
      end else begin
        hq_op_q   <= ld_issue ? OpWrite : st_issue ? OpRead : rs_issue ? OpStart : OpStatus;
        hq_bc_q   <= ld_issue && j_bc_q;
        hq_tile_q <= rq_issue ? rt_q : j_tile_q;
        hq_sp_q   <= j_sp_q;
        hq_addr_q <= wa_q;                         // RUN: the start PC
        hq_data_q <= j_imem_q ? {rd_data, lo_q} : {32'd0, rd_data};
      end
    end
  end

  // ---------------------------------------------------------------- status
  // One error per cycle reaches the status (the first of a job is kept): a job refused at
  // START, else a host response's, a tile's, the read side's, the write side's, an overrun.
  wire hp_bad = hp_rsp_fire && (hp_rsp_err != 2'd0);
  assign err_any = (go && bad_job) || hp_bad || tile_bad || rd_err || wr_err || mb_overrun;
  assign err_cd  = (go && bad_job) ? bad_cd :
                   hp_bad ? {6'd0, hp_rsp_err} :
                   tile_bad ? (ErrTile | {4'd0, rsp_st}) :
                   rd_err ? ErrAxiRd : wr_err ? ErrAxiWr : ErrOverrun;
  assign err_rs  = (go && bad_job) || hp_bad || tile_bad ? 2'b00 :
                   rd_err ? rd_resp : wr_err ? wr_resp : 2'b00;
  assign stall   = ((st_q == SLoad) && rd_take_ok && !rd_valid && (left_q != {BeatsW{1'b0}})) ||
                   ((st_q == SStore) && w_valid && !w_ready) ||
                   ((st_q == SStore) && (left_q == {BeatsW{1'b0}}) && !w_valid && !wr_done_q);

endmodule
`default_nettype wire
