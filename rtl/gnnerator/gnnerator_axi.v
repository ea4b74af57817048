////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnnerator_axi.v
//
// Purpose:   GNNerator (gnnerator) as FPGA IP (docs/axi_shell.md, docs/gnnerator.md "AXI top"):
//            registers over AXI4-Lite (rtl/gnnerator/gnnerator_regs.rdl, docs/regs/gnnerator.md),
//            the engine's instruction stream fetched from memory, its word-addressed memory port
//            on one AXI4 master, one level interrupt.
//
//            A job: CTRL.START with STATUS.BUSY low latches PROG_ADDR, PROG_LEN and DATA_BASE
//            and checks them (error 0x10: PROG_ADDR not a multiple of the bus width or beyond
//            2^AxiAddrW; 0x11: DATA_BASE not a multiple of 4 or beyond; the job then ends at
//            once with STATUS.ERROR and nothing runs). The program (PROG_LEN instructions of 16
//            bytes, instruction i at PROG_ADDR + 16 i, bits 31:0 at the lowest address) is read
//            through the read master into a fetch buffer of FetchDepth bus beats (a fetch is
//            issued only for beats the buffer has room for, so its data never wait on the bus)
//            and handed to the engine's instruction queue in order. Every status beat of the
//            engine counts in RETIRED; an instruction with an error (the engine drops it and goes
//            on) counts in INSN_ERRS, the first one's index and code are kept in FIRST_ERR, and
//            its code (0x01-0x06) is reported through ERR_CODE / STATUS.ERROR / INTR_STATUS.ERROR
//            unless an earlier error of the job holds ERR_CODE. The job is DONE when every
//            instruction has retired, the engine is idle and every write has its response.
//
//            Memory port: the engine's request of `words` (1..Pw) words at word address a is the
//            byte range DATA_BASE + 4a .. + 4 words - 1: one AXI command of one or two bus beats
//            (two when the range crosses a beat boundary). Reads: the beats come back in order,
//            are shifted down to word 0 and the words past `words` are zeroed (as the engine's
//            port model returns them); a read answer is one registered response beat to the
//            engine (the engine always takes it). Writes: the words go out shifted to their byte
//            lanes with WSTRB set on exactly their bytes (cc_axi_wr_master's all-ones strobe is
//            replaced), so neighbouring words are never written.
//            Ordering: the engine's port semantics is that a request takes effect when the port
//            takes it; AXI has no order between its read and write channels. So a read is held
//            while it overlaps a write that has no B response yet, and a write while it
//            overlaps a read whose data have not all arrived (two trackers of the word ranges in
//            flight, RdCmds and WrCmds entries); requests of one direction stay in order (one
//            AXI ID a direction). A request crossing 2^AxiAddrW wraps.
//
//            Bus errors do not stop a job: an RRESP error on a data read delivers the beat as
//            the slave returned it; on an instruction fetch every instruction of the beat is
//            replaced by zero (opcode 0: the engine drops it with OPCODE), so a corrupted program
//            never runs; BRESP errors are counted only. The first error's code (0xF1 / 0xF2 and
//            the response) is kept in ERR_CODE. START while BUSY is ignored.
//            Counters: CYC_STALL counts busy cycles in which a memory request waits (a full
//            queue or an overlap) or the engine waits for an instruction; RD_BURSTS and
//            WR_BURSTS the AXI bursts (instruction fetches included); BAD_EDGES and GEX_CYCLES
//            are the engine's counters since reset or the last CTRL.CLEAR.
//
// Parameters:
//   Rows, Cols, InDepth, WtDepth, OutDepth, AddrW, QDepth, LdTags, Gpes, Lanes, Sfus,
//   EdgeDepth, IfDepth, MfDepth    as gnnerator (Pw = its memory port words)
//   AxiAddrW       memory address bits (16..32; the address registers are 32 bits)
//   AxiIdW         AXI ID bits (the masters use ID 0 on both directions)
//   AxiDataW       memory data bits: a power of two, 128..1024, >= 32 Pw (default: the smallest
//                  such); one beat holds AxiDataW / 128 instructions
//   MaxBurst       beats per burst of an instruction fetch (power of two, <= 256)
//   RdOutstanding, WrOutstanding   AXI bursts in flight per direction
//   RdCmds         read commands in flight (instruction fetches and data reads; the read range
//                  tracker holds the data reads)
//   WrCmds         write commands without their B response (the write range tracker, the W
//                  data queue)
//   FetchDepth     instruction fetch buffer in bus beats (1..255)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module gnnerator_axi #(
  parameter integer Rows          = 4,
  parameter integer Cols          = 4,
  parameter integer InDepth       = 64,
  parameter integer WtDepth       = 64,
  parameter integer OutDepth      = 64,
  parameter integer AddrW         = 20,
  parameter integer QDepth        = 4,
  parameter integer LdTags        = 128,
  parameter integer Gpes          = 0,
  parameter integer Lanes         = 4,
  parameter integer Sfus          = 1,
  parameter integer EdgeDepth     = 64,
  parameter integer IfDepth       = 64,
  parameter integer MfDepth       = 64,
  parameter integer AxiAddrW      = 32,
  parameter integer AxiIdW        = 1,
  parameter integer AxiDataW      =
    (32 * (((Gpes > 0) && (Lanes > ((Rows > Cols) ? Rows : Cols))) ? Lanes :
           ((Rows > Cols) ? Rows : Cols)) <= 128) ? 128 :
    (32 * (((Gpes > 0) && (Lanes > ((Rows > Cols) ? Rows : Cols))) ? Lanes :
           ((Rows > Cols) ? Rows : Cols)) <= 256) ? 256 :
    (32 * (((Gpes > 0) && (Lanes > ((Rows > Cols) ? Rows : Cols))) ? Lanes :
           ((Rows > Cols) ? Rows : Cols)) <= 512) ? 512 : 1024,
  parameter integer MaxBurst      = 256,
  parameter integer RdOutstanding = 8,
  parameter integer WrOutstanding = 8,
  parameter integer RdCmds        = 8,
  parameter integer WrCmds        = 8,
  parameter integer FetchDepth    = 8
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
  // AXI4 master: memory (program and data)
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
  localparam integer Lw = (Rows > Cols) ? Rows : Cols;
  localparam integer Pw = ((Gpes > 0) && (Lanes > Lw)) ? Lanes : Lw;   // engine port words

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the engine's and the masters' own rules are checked by them.
  generate
    if (AxiAddrW < 16 || AxiAddrW > 32) begin : gen_check_addrw
      `CC_PARAM_FAIL(gnnerator_axi__AxiAddrW_must_be_16_to_32)
    end
    if (AxiDataW < 128 || AxiDataW > 1024 || (AxiDataW & (AxiDataW - 1)) != 0)
    begin : gen_check_dataw
      `CC_PARAM_FAIL(gnnerator_axi__AxiDataW_must_be_a_power_of_two_128_to_1024)
    end
    if (AxiDataW < 32 * Pw) begin : gen_check_pw
      `CC_PARAM_FAIL(gnnerator_axi__AxiDataW_must_hold_the_port_words)
    end
    if (RdCmds < 1 || WrCmds < 1) begin : gen_check_cmds
      `CC_PARAM_FAIL(gnnerator_axi__RdCmds_and_WrCmds_must_be_at_least_1)
    end
    if (FetchDepth < 1 || FetchDepth > 255) begin : gen_check_fetch
      `CC_PARAM_FAIL(gnnerator_axi__FetchDepth_must_be_1_to_255)
    end
  endgenerate

  localparam integer Bb      = AxiDataW / 8;            // bytes a beat
  localparam integer OffW    = $clog2(Bb);              // byte offset bits in a beat (4..7)
  localparam integer WoffW   = OffW - 2;                // word offset bits in a beat
  localparam integer K       = AxiDataW / 128;          // instructions a beat
  localparam integer KW      = (K > 1) ? $clog2(K) : 1;
  localparam integer BeatsW  = 16;
  localparam integer OwnW    = 1 + WoffW + 8;           // {fetch, word offset, words}
  localparam integer ReqW    = 1 + AddrW + 8 + Pw * 32; // {we, addr, words, wdata}
  localparam integer WqW     = 1 + 2 * (AxiDataW + Bb); // {two beats, hi strb, hi, lo strb, lo}
  localparam integer FqCw    = $clog2(FetchDepth + 1);
  localparam integer KLastI  = K - 1;
  localparam integer FetchHI = (FetchDepth + 1) / 2;
  localparam [31:0]  KM1      = KLastI[31:0];
  localparam [15:0]  BbW      = Bb[15:0];
  localparam [8:0]   FetchD9  = FetchDepth[8:0];
  localparam [8:0]   FetchH9  = FetchHI[8:0];
  localparam [7:0]   ErrProg  = 8'h10, ErrBase = 8'h11, ErrAxiRd = 8'hF1, ErrAxiWr = 8'hF2;
  // the build parameters for HWCFG0..4
  localparam [7:0]   RowsW = Rows[7:0], ColsW = Cols[7:0], GpesW = Gpes[7:0],
                     LanesW = Lanes[7:0], AddrWW = AddrW[7:0], PwW = Pw[7:0], BbB = Bb[7:0],
                     SfusW = Sfus[7:0];
  localparam [15:0]  InD = InDepth[15:0], WtD = WtDepth[15:0], OutD = OutDepth[15:0],
                     EdgeD = EdgeDepth[15:0], IfD = IfDepth[15:0], MfD = MfDepth[15:0];

  // ---------------------------------------------------------------- registers
  wire        start, clear;
  wire [31:0] cfg_prog, cfg_len, cfg_base;
  reg         busy_q;
  reg  [31:0] len_q, retired_q, issued_q;
  reg  [31:0] base_q;
  reg  [23:0] err_cnt_q, first_idx_q;
  reg  [6:0]  seen_q;
  reg  [2:0]  first_code_q;
  reg         first_v_q;
  reg  [31:0] be_base_q, gex_base_q;
  wire [31:0] eng_bad_edges, eng_gex_cycles;
  wire        job_end, go, go_ok, err_any, stall, rd_burst, wr_burst;
  wire [7:0]  err_cd;
  wire [1:0]  err_rs;

  gnnerator_csr #(.AddrW(8)) u_csr (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .s_axil_awvalid_i    (s_axil_awvalid_i),
    .s_axil_awready_o    (s_axil_awready_o),
    .s_axil_awaddr_i     (s_axil_awaddr_i),
    .s_axil_awprot_i     (s_axil_awprot_i),
    .s_axil_wvalid_i     (s_axil_wvalid_i),
    .s_axil_wready_o     (s_axil_wready_o),
    .s_axil_wdata_i      (s_axil_wdata_i),
    .s_axil_wstrb_i      (s_axil_wstrb_i),
    .s_axil_bvalid_o     (s_axil_bvalid_o),
    .s_axil_bready_i     (s_axil_bready_i),
    .s_axil_bresp_o      (s_axil_bresp_o),
    .s_axil_arvalid_i    (s_axil_arvalid_i),
    .s_axil_arready_o    (s_axil_arready_o),
    .s_axil_araddr_i     (s_axil_araddr_i),
    .s_axil_arprot_i     (s_axil_arprot_i),
    .s_axil_rvalid_o     (s_axil_rvalid_o),
    .s_axil_rready_i     (s_axil_rready_i),
    .s_axil_rdata_o      (s_axil_rdata_o),
    .s_axil_rresp_o      (s_axil_rresp_o),
    .job_start_o         (start),
    .job_clear_o         (clear),
    .job_busy_i          (busy_q),
    .job_stall_i         (stall),
    .job_done_i          (job_end || (go && !go_ok)),
    .job_err_i           (err_any),
    .job_err_code_i      (err_cd),
    .job_err_resp_i      (err_rs),
    .job_rd_burst_i      (rd_burst),
    .job_wr_burst_i      (wr_burst),
    .irq_o               (irq_o),
    .prog_addr_val_o     (cfg_prog),
    .prog_len_val_o      (cfg_len),
    .data_base_val_o     (cfg_base),
    .retired_val_i       (retired_q),
    .issued_val_i        (issued_q),
    .insn_errs_count_i   (err_cnt_q),
    .insn_errs_seen_i    (seen_q),
    .first_err_index_i   (first_idx_q),
    .first_err_code_i    (first_code_q),
    .first_err_valid_i   (first_v_q),
    .bad_edges_val_i     (eng_bad_edges - be_base_q),
    .gex_cycles_val_i    (eng_gex_cycles - gex_base_q),
    .hwcfg0_rows_i       (RowsW),
    .hwcfg0_cols_i       (ColsW),
    .hwcfg0_gpes_i       (GpesW),
    .hwcfg0_lanes_i      (LanesW),
    .hwcfg1_addrw_i      (AddrWW),
    .hwcfg1_pw_i         (PwW),
    .hwcfg1_beat_bytes_i (BbB),
    .hwcfg1_sfus_i       (SfusW),
    .hwcfg2_in_depth_i   (InD),
    .hwcfg2_wt_depth_i   (WtD),
    .hwcfg3_out_depth_i  (OutD),
    .hwcfg3_edge_depth_i (EdgeD),
    .hwcfg4_if_depth_i   (IfD),
    .hwcfg4_mf_depth_i   (MfD)
  );

  // Checks of the job registers at START (addresses as 64-bit values: no zero-width parts).
  wire [63:0] prog64   = {32'd0, cfg_prog};
  wire [63:0] base64   = {32'd0, cfg_base};
  wire        bad_prog = (|cfg_prog[OffW-1:0]) || ((prog64 >> AxiAddrW) != 64'd0);
  wire        bad_base = (|cfg_base[1:0]) || ((base64 >> AxiAddrW) != 64'd0);
  assign go    = start && !busy_q;
  assign go_ok = go && !bad_prog && !bad_base;

  // ---------------------------------------------------------------- the engine
  wire             insn_valid, insn_ready;
  wire [127:0]     insn_data;
  wire             st_valid, eng_idle;
  wire [2:0]       st_err;
  wire             req_valid, req_ready, req_we;
  wire [AddrW-1:0] req_addr;
  wire [7:0]       req_words;
  wire [Pw*32-1:0] req_wdata;
  reg              rsp_v_q;
  reg  [Pw*32-1:0] rsp_d_q;

  gnnerator #(
    .Rows(Rows), .Cols(Cols), .InDepth(InDepth), .WtDepth(WtDepth), .OutDepth(OutDepth),
    .AddrW(AddrW), .QDepth(QDepth), .LdTags(LdTags), .Gpes(Gpes), .Lanes(Lanes),
    .Sfus(Sfus), .EdgeDepth(EdgeDepth), .IfDepth(IfDepth), .MfDepth(MfDepth)
  ) u_core (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .insn_valid_i   (insn_valid),
    .insn_ready_o   (insn_ready),
    .insn_data_i    (insn_data),
    .status_valid_o (st_valid),
    .status_err_o   (st_err),
    .idle_o         (eng_idle),
    .bad_edges_o    (eng_bad_edges),
    .gex_cycles_o   (eng_gex_cycles),
    .mem_req_valid_o(req_valid),
    .mem_req_ready_i(req_ready),
    .mem_req_we_o   (req_we),
    .mem_req_addr_o (req_addr),
    .mem_req_words_o(req_words),
    .mem_req_wdata_o(req_wdata),
    .mem_rsp_valid_i(rsp_v_q),
    .mem_rsp_data_i (rsp_d_q)
  );

  // The engine's request through a skid buffer: its ready is a flop, the checks below start
  // from registers. (The engine holds the whole request while it waits, write data included:
  // zero for a read.)
  wire             rq_valid, rq_take, rq_we;
  wire [AddrW-1:0] rq_addr;
  wire [7:0]       rq_words;
  wire [Pw*32-1:0] rq_wdata;
  cc_skid_buffer #(.Width(ReqW)) u_req (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (req_valid),
    .in_ready_o (req_ready),
    .in_data_i  ({req_we, req_addr, req_words, req_wdata}),
    .out_valid_o(rq_valid),
    .out_ready_i(rq_take),
    .out_data_o ({rq_we, rq_addr, rq_words, rq_wdata})
  );

  // Byte address of the request, its place in the bus beat, one or two beats.
  wire [63:0]          rq_byte64 = {32'd0, base_q} + {{(62 - AddrW){1'b0}}, rq_addr, 2'b00};
  wire [AxiAddrW-1:0]  rq_byte   = rq_byte64[AxiAddrW-1:0];
  wire [AxiAddrW-1:0]  rq_beat_addr = {rq_byte[AxiAddrW-1:OffW], {OffW{1'b0}}};
  wire [WoffW-1:0]     rq_woff   = rq_byte[OffW-1:2];
  wire [15:0]          rq_end    = {{(16 - OffW){1'b0}}, rq_byte[OffW-1:0]} +
                                   {6'd0, rq_words, 2'b00};
  wire                 rq_two    = rq_end > BbW;
  wire [63:0]          rq_hi64   = {{(64 - AddrW){1'b0}}, rq_addr} + {56'd0, rq_words};
  wire [AddrW:0]       rq_hi     = rq_hi64[AddrW:0];   // the decoder keeps it <= 2^AddrW
  wire [63:AxiAddrW]   unused_byte64 = rq_byte64[63:AxiAddrW];
  wire [63:AddrW+1]    unused_hi64   = rq_hi64[63:AddrW+1];

  // ---------------------------------------------------------------- range trackers
  // Word ranges [lo, hi) of the data reads whose data have not all arrived (RdCmds entries) and
  // of the writes without their B response (WrCmds entries), each a circular buffer in issue
  // order; a request that overlaps a range of the other direction waits.
  wire rt_push, rt_pop, wt_push, wt_pop;
  wire rd_hazard, wr_hazard, wt_full, wt_empty, unused_rt_full, unused_rt_empty;
  gnn_range_track #(.Entries(RdCmds), .AddrW(AddrW)) u_rd_track (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .push_i   (rt_push),
    .push_lo_i(rq_addr),
    .push_hi_i(rq_hi),
    .pop_i    (rt_pop),
    .q_lo_i   (rq_addr),
    .q_hi_i   (rq_hi),
    .hit_o    (wr_hazard),        // a write waits for these reads' data
    .full_o   (unused_rt_full),   // the owner FIFO (RdCmds) bounds the reads in flight
    .empty_o  (unused_rt_empty)
  );
  gnn_range_track #(.Entries(WrCmds), .AddrW(AddrW)) u_wr_track (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .push_i   (wt_push),
    .push_lo_i(rq_addr),
    .push_hi_i(rq_hi),
    .pop_i    (wt_pop),
    .q_lo_i   (rq_addr),
    .q_hi_i   (rq_hi),
    .hit_o    (rd_hazard),        // a read waits for these writes' responses
    .full_o   (wt_full),
    .empty_o  (wt_empty)
  );

  // ---------------------------------------------------------------- instruction fetch
  // fb_left_q: program beats not yet asked for; fb_infl_q: beats asked for, not yet arrived.
  // A fetch asks for at most the room of the fetch buffer, at least half of it (or the rest).
  reg  [32:0]         fb_left_q;
  reg  [AxiAddrW-1:0] fb_addr_q;
  reg  [8:0]          fb_infl_q;
  wire [FqCw-1:0]     fq_count;
  wire [8:0]          fb_room = FetchD9 - {{(9 - FqCw){1'b0}}, fq_count} - fb_infl_q;
  wire                fb_short = fb_left_q < {24'd0, fb_room};
  wire [8:0]          fb_chunk = fb_short ? fb_left_q[8:0] : fb_room;
  wire                fetch_want = busy_q && (fb_left_q != 33'd0) && (fb_room != 9'd0) &&
                                   (fb_short || (fb_room >= FetchH9));

  // ---------------------------------------------------------------- read side
  wire                own_in_ready, own_valid;
  wire [OwnW-1:0]     own_data;
  wire [$clog2(RdCmds+1)-1:0] unused_own_count;
  wire                rd_cmd_ready;
  wire                rdq_valid = rq_valid && !rq_we && !rd_hazard;   // a data read may go
  wire                rd_cmd_valid = own_in_ready && (fetch_want || rdq_valid);
  wire                rd_cmd_fire  = rd_cmd_valid && rd_cmd_ready;
  wire                fetch_fire   = rd_cmd_fire && fetch_want;
  wire                rdq_fire     = rd_cmd_fire && !fetch_want;
  wire [AxiAddrW-1:0] rd_cmd_addr  = fetch_want ? fb_addr_q : rq_beat_addr;
  wire [BeatsW-1:0]   rd_cmd_beats = fetch_want ? {7'd0, fb_chunk} : (rq_two ? 16'd2 : 16'd1);

  wire                rd_valid, rd_last, rd_err_beat, rd_busy, rd_err;
  wire [AxiDataW-1:0] rd_data;
  wire [1:0]          rd_resp;

  cc_axi_rd_master #(
    .AddrW(AxiAddrW), .DataW(AxiDataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(RdOutstanding), .IdW(AxiIdW), .Id(0)
  ) u_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (rd_cmd_valid),
    .cmd_ready_o    (rd_cmd_ready),
    .cmd_addr_i     (rd_cmd_addr),
    .cmd_beats_i    (rd_cmd_beats),
    .data_valid_o   (rd_valid),
    .data_ready_i   (1'b1),
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
  wire unused_rd_busy = rd_busy;   // the job's end waits on the owner queue instead

  // Owner of each read command in flight, in issue order: an instruction fetch, or a data
  // read with its word offset in the first beat and its word count.
  cc_fifo #(.Width(OwnW), .Depth(RdCmds)) u_own (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (rd_cmd_fire),
    .in_ready_o (own_in_ready),
    .in_data_i  ({fetch_want, fetch_want ? {WoffW{1'b0}} : rq_woff,
                  fetch_want ? 8'd0 : rq_words}),
    .out_valid_o(own_valid),
    .out_ready_i(rd_valid && rd_last),
    .out_data_o (own_data),
    .count_o    (unused_own_count)
  );
  wire             own_fetch = own_data[OwnW-1];
  wire [WoffW-1:0] own_woff  = own_data[8 +: WoffW];
  wire [7:0]       own_words = own_data[7:0];

  // Data reads: the first beat of a two-beat read waits in stash_q; the last beat makes the
  // answer: the words from the offset on, those past the word count zeroed.
  reg                   stash_v_q;
  reg  [AxiDataW-1:0]   stash_q;
  wire                  rd_dbeat = rd_valid && !own_fetch;
  wire [2*AxiDataW-1:0] rd_pair  = stash_v_q ? {rd_data, stash_q} : {{AxiDataW{1'b0}}, rd_data};
  wire [2*AxiDataW-1:0] rd_shift = rd_pair >> {own_woff, 5'd0};
  wire [Pw*32-1:0]      rd_mask;
  genvar gi;
  generate
    for (gi = 0; gi < Pw; gi = gi + 1) begin : gen_rd_mask
      localparam [7:0] WordIdx = gi;
      assign rd_mask[gi*32 +: 32] = {32{own_words > WordIdx}};
    end
  endgenerate
  wire [2*AxiDataW-Pw*32-1:0] unused_rd_shift = rd_shift[2*AxiDataW-1:Pw*32];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stash_v_q <= 1'b0;
      rsp_v_q   <= 1'b0;
    end else begin
      rsp_v_q <= rd_dbeat && rd_last;
      if (rd_dbeat) stash_v_q <= !rd_last;
    end
  end
  always @(posedge clk_i) begin
    if (rd_dbeat && !rd_last) stash_q <= rd_data;
    if (rd_dbeat && rd_last)  rsp_d_q <= rd_shift[Pw*32-1:0] & rd_mask;
  end
  wire unused_rd_err_beat = rd_err_beat && !own_fetch;   // reported through rd_err (0xF1)

  // ---------------------------------------------------------------- instruction buffer
  // Fetched beats (a beat with an RRESP error holds zeros: opcode 0, dropped by the engine as
  // OPCODE); the engine takes the beat's instructions in order, the last beat's past PROG_LEN
  // are dropped.
  wire                fq_valid, fq_pop;
  wire [AxiDataW-1:0] fq_data;
  wire                unused_fq_ready;   // the fetch asks only for beats the buffer has room for
  wire                fbeat = rd_valid && own_fetch;
  cc_fifo #(.Width(AxiDataW), .Depth(FetchDepth)) u_fetch (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (fbeat),
    .in_ready_o (unused_fq_ready),
    .in_data_i  (rd_err_beat ? {AxiDataW{1'b0}} : rd_data),
    .out_valid_o(fq_valid),
    .out_ready_i(fq_pop),
    .out_data_o (fq_data),
    .count_o    (fq_count)
  );

  assign insn_valid = busy_q && fq_valid && (issued_q != len_q);
  wire insn_fire  = insn_valid && insn_ready;
  generate
    if (K > 1) begin : gen_split
      reg [KW-1:0] idx_q;
      localparam [KW-1:0] KLast = KLastI[KW-1:0];
      wire insn_last = (issued_q + 32'd1) == len_q;   // the program's last instruction
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)        idx_q <= {KW{1'b0}};
        else if (go_ok)     idx_q <= {KW{1'b0}};
        else if (insn_fire) idx_q <= (idx_q == KLast || insn_last) ? {KW{1'b0}} : idx_q + 1'b1;
      end
      assign insn_data = fq_data[idx_q*128 +: 128];
      assign fq_pop    = insn_fire && (idx_q == KLast || insn_last);
    end else begin : gen_nosplit
      assign insn_data = fq_data;
      assign fq_pop    = insn_fire;
    end
  endgenerate

  // ---------------------------------------------------------------- write side
  // W data of a request: its words shifted to their byte lanes over two beats, the strobes of
  // exactly its bytes.
  wire [Pw*4-1:0] rq_wmask;
  generate
    for (gi = 0; gi < Pw; gi = gi + 1) begin : gen_wr_mask
      localparam [7:0] WordIdx = gi;
      assign rq_wmask[gi*4 +: 4] = {4{rq_words > WordIdx}};
    end
  endgenerate
  wire [2*AxiDataW-1:0] wr_pair = {{(2 * AxiDataW - Pw * 32){1'b0}}, rq_wdata} <<
                                  {rq_woff, 5'd0};
  wire [2*Bb-1:0]       wr_strb = {{(2 * Bb - Pw * 4){1'b0}}, rq_wmask} << {rq_woff, 2'd0};

  wire wq_in_ready, wr_cmd_ready;
  wire wr_cmd_valid = rq_valid && rq_we && !wr_hazard && !wt_full && wq_in_ready;
  wire wr_cmd_fire  = wr_cmd_valid && wr_cmd_ready;
  wire [$clog2(WrCmds+1)-1:0] unused_wq_count;
  wire           wq_valid;
  wire [WqW-1:0] wq_data;
  reg            wbeat_q;                      // 1: the second beat of the head entry
  wire           wq_two = wq_data[WqW-1];
  wire [AxiDataW-1:0] w_data = wbeat_q ? wq_data[Bb + AxiDataW +: AxiDataW]
                                       : wq_data[0 +: AxiDataW];
  wire [Bb-1:0]       w_strb = wbeat_q ? wq_data[Bb + 2 * AxiDataW +: Bb]
                                       : wq_data[AxiDataW +: Bb];
  wire           w_ready;
  wire           w_fire = wq_valid && w_ready;
  wire           wq_pop = w_fire && (wbeat_q || !wq_two);

  cc_fifo #(.Width(WqW), .Depth(WrCmds)) u_wq (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (wr_cmd_fire),
    .in_ready_o (wq_in_ready),
    .in_data_i  ({rq_two, wr_strb[Bb +: Bb], wr_pair[AxiDataW +: AxiDataW], wr_strb[0 +: Bb],
                  wr_pair[0 +: AxiDataW]}),
    .out_valid_o(wq_valid),
    .out_ready_i(wq_pop),
    .out_data_o (wq_data),
    .count_o    (unused_wq_count)
  );
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     wbeat_q <= 1'b0;
    else if (w_fire) wbeat_q <= !wbeat_q && wq_two;
  end

  wire                wr_busy, wr_done, wr_err;
  wire                unused_done_err;
  wire [1:0]          wr_resp;
  wire [Bb-1:0]       unused_wstrb;
  cc_axi_wr_master #(
    .AddrW(AxiAddrW), .DataW(AxiDataW), .BeatsW(BeatsW), .MaxBurst(MaxBurst),
    .Outstanding(WrOutstanding), .IdW(AxiIdW), .Id(0)
  ) u_wr (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (wr_cmd_valid),
    .cmd_ready_o    (wr_cmd_ready),
    .cmd_addr_i     (rq_beat_addr),
    .cmd_beats_i    (rq_two ? 16'd2 : 16'd1),
    .data_valid_i   (wq_valid),
    .data_ready_o   (w_ready),
    .data_i         (w_data),
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
    .m_axi_wstrb_o  (unused_wstrb),
    .m_axi_wlast_o  (m_axi_wlast_o),
    .m_axi_bvalid_i (m_axi_bvalid_i),
    .m_axi_bready_o (m_axi_bready_o),
    .m_axi_bid_i    (m_axi_bid_i),
    .m_axi_bresp_i  (m_axi_bresp_i)
  );
  // the strobes of the W beat's own bytes, from the same queue entry as its data
  assign m_axi_wstrb_o = w_strb;
  wire unused_wr_busy = wr_busy;   // the job's end waits on the write tracker instead

  // The request leaves the skid buffer with its command; the trackers follow the commands.
  assign rq_take = rdq_fire || wr_cmd_fire;
  assign rt_push = rdq_fire;
  assign rt_pop  = rd_dbeat && rd_last;
  assign wt_push = wr_cmd_fire;
  assign wt_pop  = wr_done;

  // ---------------------------------------------------------------- job state
  wire [32:0] len_beats = ({1'b0, cfg_len} + {1'b0, KM1}) >> $clog2(K);
  wire        st_bad    = st_valid && (st_err != 3'd0);
  assign job_end = busy_q && (retired_q == len_q) && eng_idle && !rq_valid && !rsp_v_q &&
                   !own_valid && !fq_valid && wt_empty;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= 1'b0;
      len_q        <= 32'd0;
      retired_q    <= 32'd0;
      issued_q     <= 32'd0;
      err_cnt_q    <= 24'd0;
      seen_q       <= 7'd0;
      first_v_q    <= 1'b0;
      first_idx_q  <= 24'd0;
      first_code_q <= 3'd0;
      fb_left_q    <= 33'd0;
      fb_infl_q    <= 9'd0;
      be_base_q    <= 32'd0;
      gex_base_q   <= 32'd0;
    end else begin
      if (go) begin
        busy_q       <= go_ok;
        len_q        <= go_ok ? cfg_len : 32'd0;
        retired_q    <= 32'd0;
        issued_q     <= 32'd0;
        err_cnt_q    <= 24'd0;
        seen_q       <= 7'd0;
        first_v_q    <= 1'b0;
        first_idx_q  <= 24'd0;
        first_code_q <= 3'd0;
        fb_left_q    <= go_ok ? len_beats : 33'd0;
      end else begin
        if (job_end) busy_q <= 1'b0;
        if (st_valid) retired_q <= retired_q + 32'd1;
        if (insn_fire) issued_q <= issued_q + 32'd1;
        if (st_bad) begin
          if (err_cnt_q != 24'hFFFFFF) err_cnt_q <= err_cnt_q + 24'd1;
          seen_q <= seen_q | (7'd1 << (st_err - 3'd1));
          if (!first_v_q) begin
            first_v_q    <= 1'b1;
            first_idx_q  <= retired_q[23:0];
            first_code_q <= st_err;
          end
        end
        if (fetch_fire) fb_left_q <= fb_left_q - {24'd0, fb_chunk};
      end
      fb_infl_q <= fb_infl_q + (fetch_fire ? fb_chunk : 9'd0) - {8'd0, fbeat};
      if (clear) begin
        be_base_q  <= eng_bad_edges;
        gex_base_q <= eng_gex_cycles;
      end
    end
  end
  // Datapath registers without reset: busy_q says when they hold a job.
  always @(posedge clk_i) begin
    if (go_ok) begin
      base_q    <= cfg_base;
      fb_addr_q <= cfg_prog[AxiAddrW-1:0];
    end else if (fetch_fire) begin
      fb_addr_q <= fb_addr_q + ({{(AxiAddrW - 9){1'b0}}, fb_chunk} << OffW);
    end
  end

  // ---------------------------------------------------------------- status
  // One error per cycle reaches the status (the first of a job is kept): a job error at START,
  // else the read side's, the write side's, an instruction's.
  assign err_any = (go && (bad_prog || bad_base)) || rd_err || wr_err || st_bad;
  assign err_cd  = (go && bad_prog) ? ErrProg : (go && bad_base) ? ErrBase :
                   rd_err ? ErrAxiRd : wr_err ? ErrAxiWr : {5'd0, st_err};
  assign err_rs  = go ? 2'b00 : rd_err ? rd_resp : wr_err ? wr_resp : 2'b00;
  assign stall   = (rq_valid && !rq_take) ||
                   (insn_ready && !insn_valid && (issued_q != len_q));

endmodule
`default_nettype wire
