////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  neummu_axi.v
//
// Purpose:   NeuMMU as FPGA IP (docs/axi_shell.md): translation requests come in on an
//            AXI4-Stream, responses leave on another, and the page-table walkers read page-table
//            entries from memory through the AXI4 master (single 8-byte beats, one ARID, so
//            responses return in order and a queue of walker tags matches them up). Registers
//            (rtl/neummu/neummu_regs.rdl, docs/regs/neummu.md) over AXI4-Lite; one level
//            interrupt. The master never writes (AW and W stay idle, BREADY high).
//
//            Streams:
//              s_axis_req: tdata[47:0] virtual address, tdata[48] write access, tid request ID;
//                          taken only while ENABLE is 1
//              m_axis_rsp: tdata[51:0] physical address (0 on a fault), tdata[53:52] status
//                          (0 OK, 1 not present, 2 permission), tid the request's ID
//
//            Errors: a fault response sets ERR_CODE 0x01 (FAULTS counts them). A page-table
//            address at or above 2^AxiAddrW is not read: the walker gets an empty entry (it
//            faults the request) and ERR_CODE 0x02. An AXI error response gives the walker an
//            empty entry too and ERR_CODE 0xF1 with the RRESP. The first error is kept until
//            the next START.
//            STATUS.BUSY: translations accepted and not yet answered. CTRL.START arms the DONE
//            interrupt: DONE is set at the first cycle after it with no translation in flight.
//            The NeuMMU's configuration (CFG, ROOT_PPN) must hold while translations are in
//            flight, as for neummu; INV drops translations (ALL) or one page (PAGE, at
//            INV_VA).
//
// Parameters:
//   Walkers, Slots, TpReg, TlbEntries, TlbWays, Tlb2M, TlbLatency, IdW   as neummu
//   AxiAddrW    memory address bits (16..52)
//   AxiIdW      AXI ID bits (ID 0 is used)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module neummu_axi #(
  parameter integer Walkers    = 4,
  parameter integer Slots      = 4,
  parameter integer TpReg      = 1,
  parameter integer TlbEntries = 64,
  parameter integer TlbWays    = 4,
  parameter integer Tlb2M      = 8,
  parameter integer TlbLatency = 2,
  parameter integer IdW        = 8,
  parameter integer AxiAddrW   = 32,
  parameter integer AxiIdW     = 1
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // AXI4-Lite slave: registers
  input  wire                s_axil_awvalid_i,
  output wire                s_axil_awready_o,
  input  wire [7:0]          s_axil_awaddr_i,
  input  wire [2:0]          s_axil_awprot_i,
  input  wire                s_axil_wvalid_i,
  output wire                s_axil_wready_o,
  input  wire [31:0]         s_axil_wdata_i,
  input  wire [3:0]          s_axil_wstrb_i,
  output wire                s_axil_bvalid_o,
  input  wire                s_axil_bready_i,
  output wire [1:0]          s_axil_bresp_o,
  input  wire                s_axil_arvalid_i,
  output wire                s_axil_arready_o,
  input  wire [7:0]          s_axil_araddr_i,
  input  wire [2:0]          s_axil_arprot_i,
  output wire                s_axil_rvalid_o,
  input  wire                s_axil_rready_i,
  output wire [31:0]         s_axil_rdata_o,
  output wire [1:0]          s_axil_rresp_o,
  // AXI4 master: page-table reads (the write channels are idle)
  output wire                m_axi_awvalid_o,
  input  wire                m_axi_awready_i,
  output wire [AxiIdW-1:0]   m_axi_awid_o,
  output wire [AxiAddrW-1:0] m_axi_awaddr_o,
  output wire [7:0]          m_axi_awlen_o,
  output wire [2:0]          m_axi_awsize_o,
  output wire [1:0]          m_axi_awburst_o,
  output wire                m_axi_awlock_o,
  output wire [3:0]          m_axi_awcache_o,
  output wire [2:0]          m_axi_awprot_o,
  output wire                m_axi_wvalid_o,
  input  wire                m_axi_wready_i,
  output wire [63:0]         m_axi_wdata_o,
  output wire [7:0]          m_axi_wstrb_o,
  output wire                m_axi_wlast_o,
  input  wire                m_axi_bvalid_i,
  output wire                m_axi_bready_o,
  input  wire [AxiIdW-1:0]   m_axi_bid_i,
  input  wire [1:0]          m_axi_bresp_i,
  output wire                m_axi_arvalid_o,
  input  wire                m_axi_arready_i,
  output wire [AxiIdW-1:0]   m_axi_arid_o,
  output wire [AxiAddrW-1:0] m_axi_araddr_o,
  output wire [7:0]          m_axi_arlen_o,
  output wire [2:0]          m_axi_arsize_o,
  output wire [1:0]          m_axi_arburst_o,
  output wire                m_axi_arlock_o,
  output wire [3:0]          m_axi_arcache_o,
  output wire [2:0]          m_axi_arprot_o,
  input  wire                m_axi_rvalid_i,
  output wire                m_axi_rready_o,
  input  wire [AxiIdW-1:0]   m_axi_rid_i,
  input  wire [63:0]         m_axi_rdata_i,
  input  wire [1:0]          m_axi_rresp_i,
  input  wire                m_axi_rlast_i,
  // AXI4-Stream: translation requests and responses
  input  wire                s_axis_req_tvalid_i,
  output wire                s_axis_req_tready_o,
  input  wire [63:0]         s_axis_req_tdata_i,
  input  wire [IdW-1:0]      s_axis_req_tid_i,
  output wire                m_axis_rsp_tvalid_o,
  input  wire                m_axis_rsp_tready_i,
  output wire [63:0]         m_axis_rsp_tdata_o,
  output wire [IdW-1:0]      m_axis_rsp_tid_o,
  // interrupt
  output wire                irq_o
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the NeuMMU's own rules are checked by neummu.
  generate
    if (AxiAddrW < 16 || AxiAddrW > 52) begin : gen_check_addrw
      `CC_PARAM_FAIL(neummu_axi__AxiAddrW_must_be_16_to_52)
    end
  endgenerate

  localparam integer PaBits   = 52;
  localparam integer VaBits   = 48;
  localparam integer TagW     = (Walkers > 1) ? $clog2(Walkers) : 1;
  localparam integer WalkCntW = $clog2(Walkers + 1);
  localparam integer SlotCntW = ($clog2(Slots + 1) > 0) ? $clog2(Slots + 1) : 1;
  localparam integer RdOut    = (Walkers < 255) ? Walkers : 255;  // reads in flight
  localparam [7:0]   ErrFault = 8'h01, ErrRange = 8'h02, ErrAxiRd = 8'hF1;
  localparam [7:0]   WalkersW = Walkers[7:0];
  localparam [7:0]   SlotsW   = Slots[7:0];
  localparam [15:0]  TlbW     = TlbEntries[15:0];

  // ---------------------------------------------------------------- registers
  // AXI4-Lite, the register file and the common registers (generated: neummu_csr).
  wire        start, clear, enable, inv_all, inv_page, cfg_tpreg;
  wire [7:0]  cfg_walkers, cfg_slots, root_hi;
  wire [31:0] root_lo, inv_lo;
  wire [15:0] inv_hi;
  wire [31:0] st_hits, st_walks, st_merges, st_reads, st_tp_l4, st_tp_l3, st_tp_l2;
  // The accounting counters (docs/neummu.md, "Counters"): stalls by cause and dup walks
  // (STALL_*, DUP_WALKS), request-cycles by place (LAT_*_LO/HI).
  wire [5*32-1:0] acct_stall;
  wire [6*64-1:0] acct_lat;
  reg  [31:0] faults_q;
  reg         armed_q;
  wire        busy, err_any, rd_err, rd_burst;
  wire [7:0]  err_cd;
  wire [1:0]  rd_resp;

  neummu_csr #(.AddrW(8)) u_csr (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .s_axil_awvalid_i   (s_axil_awvalid_i),
    .s_axil_awready_o   (s_axil_awready_o),
    .s_axil_awaddr_i    (s_axil_awaddr_i),
    .s_axil_awprot_i    (s_axil_awprot_i),
    .s_axil_wvalid_i    (s_axil_wvalid_i),
    .s_axil_wready_o    (s_axil_wready_o),
    .s_axil_wdata_i     (s_axil_wdata_i),
    .s_axil_wstrb_i     (s_axil_wstrb_i),
    .s_axil_bvalid_o    (s_axil_bvalid_o),
    .s_axil_bready_i    (s_axil_bready_i),
    .s_axil_bresp_o     (s_axil_bresp_o),
    .s_axil_arvalid_i   (s_axil_arvalid_i),
    .s_axil_arready_o   (s_axil_arready_o),
    .s_axil_araddr_i    (s_axil_araddr_i),
    .s_axil_arprot_i    (s_axil_arprot_i),
    .s_axil_rvalid_o    (s_axil_rvalid_o),
    .s_axil_rready_i    (s_axil_rready_i),
    .s_axil_rdata_o     (s_axil_rdata_o),
    .s_axil_rresp_o     (s_axil_rresp_o),
    .job_start_o        (start),
    .job_clear_o        (clear),
    .job_busy_i         (busy),
    .job_stall_i        (s_axis_req_tvalid_i && !s_axis_req_tready_o),
    .job_done_i         (armed_q && !busy && !start),
    .job_err_i          (err_any),
    .job_err_code_i     (err_cd),
    .job_err_resp_i     (rd_err ? rd_resp : 2'b00),
    .job_rd_burst_i     (rd_burst),
    .job_wr_burst_i     (1'b0),
    .irq_o              (irq_o),
    .cfg_walkers_o      (cfg_walkers),
    .cfg_slots_o        (cfg_slots),
    .cfg_tpreg_o        (cfg_tpreg),
    .root_ppn_lo_val_o  (root_lo),
    .root_ppn_hi_val_o  (root_hi),
    .inv_va_lo_val_o    (inv_lo),
    .inv_va_hi_val_o    (inv_hi),
    .inv_all_o          (inv_all),
    .inv_page_o         (inv_page),
    .enable_val_o       (enable),
    .hits_val_i         (st_hits),
    .walks_val_i        (st_walks),
    .merges_val_i       (st_merges),
    .reads_val_i        (st_reads),
    .tp_l4_val_i        (st_tp_l4),
    .tp_l3_val_i        (st_tp_l3),
    .tp_l2_val_i        (st_tp_l2),
    .faults_val_i       (faults_q),
    .stall_rsp_val_i    (acct_stall[0*32 +: 32]),
    .stall_down_val_i   (acct_stall[1*32 +: 32]),
    .stall_prmb_val_i   (acct_stall[2*32 +: 32]),
    .stall_walk_val_i   (acct_stall[3*32 +: 32]),
    .dup_walks_val_i    (acct_stall[4*32 +: 32]),
    .lat_pipe_lo_val_i  (acct_lat[0*64 +: 32]),
    .lat_pipe_hi_val_i  (acct_lat[0*64 + 32 +: 32]),
    .lat_hol_lo_val_i   (acct_lat[1*64 +: 32]),
    .lat_hol_hi_val_i   (acct_lat[1*64 + 32 +: 32]),
    .lat_port_lo_val_i  (acct_lat[2*64 +: 32]),
    .lat_port_hi_val_i  (acct_lat[2*64 + 32 +: 32]),
    .lat_mem_lo_val_i   (acct_lat[3*64 +: 32]),
    .lat_mem_hi_val_i   (acct_lat[3*64 + 32 +: 32]),
    .lat_ans_lo_val_i   (acct_lat[4*64 +: 32]),
    .lat_ans_hi_val_i   (acct_lat[4*64 + 32 +: 32]),
    .lat_out_lo_val_i   (acct_lat[5*64 +: 32]),
    .lat_out_hi_val_i   (acct_lat[5*64 + 32 +: 32]),
    .hwcfg_walkers_i    (WalkersW),
    .hwcfg_slots_i      (SlotsW),
    .hwcfg_tlb_entries_i(TlbW)
  );

  // ---------------------------------------------------------------- the NeuMMU
  wire                req_valid = s_axis_req_tvalid_i && enable;
  wire                req_ready;
  wire                mem_req_valid, mem_req_ready, mem_rsp_valid;
  wire [PaBits-1:0]   mem_req_addr;
  wire [TagW-1:0]     mem_req_tag, mem_rsp_tag;
  wire [63:0]         mem_rsp_data;
  wire [PaBits-1:0]   rsp_pa;
  wire [1:0]          rsp_status;
  // Run-time walker and slot counts: the register's value, cut to the port's width (a value
  // the port cannot hold means "all", as neummu defines for out-of-range counts).
  wire [WalkCntW-1:0] walkers_in = (cfg_walkers > WalkersW) ? {WalkCntW{1'b0}}
                                                            : cfg_walkers[WalkCntW-1:0];
  wire [SlotCntW-1:0] slots_in   = (cfg_slots > SlotsW) ? SlotsW[SlotCntW-1:0]
                                                        : cfg_slots[SlotCntW-1:0];

  neummu #(
    .Walkers(Walkers), .Slots(Slots), .TpReg(TpReg), .TlbEntries(TlbEntries),
    .TlbWays(TlbWays), .Tlb2M(Tlb2M), .TlbLatency(TlbLatency), .IdW(IdW)
  ) u_mmu (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cfg_root_ppn_i ({root_hi, root_lo}),
    .cfg_walkers_i  (walkers_in),
    .cfg_slots_i    (slots_in),
    .cfg_tpreg_i    (cfg_tpreg),
    .req_valid_i    (req_valid),
    .req_ready_o    (req_ready),
    .req_id_i       (s_axis_req_tid_i),
    .req_va_i       (s_axis_req_tdata_i[VaBits-1:0]),
    .req_write_i    (s_axis_req_tdata_i[VaBits]),
    .rsp_valid_o    (m_axis_rsp_tvalid_o),
    .rsp_ready_i    (m_axis_rsp_tready_i),
    .rsp_id_o       (m_axis_rsp_tid_o),
    .rsp_pa_o       (rsp_pa),
    .rsp_status_o   (rsp_status),
    .mem_req_valid_o(mem_req_valid),
    .mem_req_ready_i(mem_req_ready),
    .mem_req_addr_o (mem_req_addr),
    .mem_req_tag_o  (mem_req_tag),
    .mem_rsp_valid_i(mem_rsp_valid),
    .mem_rsp_tag_i  (mem_rsp_tag),
    .mem_rsp_data_i (mem_rsp_data),
    .inv_i          (inv_all || inv_page),
    .inv_all_i      (inv_all),
    .inv_va_i       ({inv_hi, inv_lo}),
    .stat_clear_i   (clear),
    .stat_hits_o    (st_hits),
    .stat_walks_o   (st_walks),
    .stat_merges_o  (st_merges),
    .stat_reads_o   (st_reads),
    .stat_tp_l4_o   (st_tp_l4),
    .stat_tp_l3_o   (st_tp_l3),
    .stat_tp_l2_o   (st_tp_l2),
    .stat_stall_rsp_o  (acct_stall[0*32 +: 32]),
    .stat_stall_down_o (acct_stall[1*32 +: 32]),
    .stat_stall_prmb_o (acct_stall[2*32 +: 32]),
    .stat_stall_walk_o (acct_stall[3*32 +: 32]),
    .stat_dup_walks_o  (acct_stall[4*32 +: 32]),
    .stat_lat_pipe_o   (acct_lat[0*64 +: 64]),
    .stat_lat_hol_o    (acct_lat[1*64 +: 64]),
    .stat_lat_port_o   (acct_lat[2*64 +: 64]),
    .stat_lat_mem_o    (acct_lat[3*64 +: 64]),
    .stat_lat_ans_o    (acct_lat[4*64 +: 64]),
    .stat_lat_out_o    (acct_lat[5*64 +: 64])
  );
  wire unused_req_data = &{1'b0, s_axis_req_tdata_i[63:VaBits+1]};

  assign s_axis_req_tready_o = req_ready && enable;
  assign m_axis_rsp_tdata_o  = {10'd0, rsp_status, rsp_pa};

  // ---------------------------------------------------------------- page-table reads
  // A read beyond the AXI address range is not issued: its queue entry answers the walker with
  // an empty entry (0) when it reaches the head.
  wire out_of_range = |mem_req_addr[PaBits-1:AxiAddrW];
  wire cmd_ready, rd_valid, rd_err_beat, rd_busy, rd_last;
  wire tagq_valid, tagq_zero;
  wire [TagW-1:0] tagq_tag;
  wire [63:0]     rd_data;
  wire            cmd_fire = mem_req_valid && mem_req_ready;
  // The queue's head answers the walkers: an out-of-range entry at once (no read was issued),
  // an in-range one with its R beat. RREADY is low while an out-of-range entry is at the head,
  // so a later entry's beat waits for it (one answer per cycle, in issue order).
  wire            head_zero = tagq_valid && tagq_zero;
  wire            rd_take   = tagq_valid && !tagq_zero;
  wire            rsp_now   = head_zero || (rd_valid && rd_take);
  wire            unused_tagq = &{1'b0, rd_last, rd_busy};
  wire            unused_tagq_ready;
  wire [$clog2(RdOut + 2)-1:0] unused_tagq_count;

  // An out-of-range entry needs no read (the queue holds at most Walkers entries: one per walker).
  assign mem_req_ready = out_of_range || cmd_ready;

  cc_fifo #(.Width(TagW + 1), .Depth(RdOut + 1)) u_tag_q (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (cmd_fire),
    .in_ready_o (unused_tagq_ready),
    .in_data_i  ({out_of_range, mem_req_tag}),
    .out_valid_o(tagq_valid),
    .out_ready_i(rsp_now),
    .out_data_o ({tagq_zero, tagq_tag}),
    .count_o    (unused_tagq_count)
  );

  cc_axi_rd_master #(
    .AddrW(AxiAddrW), .DataW(64), .BeatsW(16), .MaxBurst(1), .Outstanding(RdOut),
    .IdW(AxiIdW), .Id(0)
  ) u_rd (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_valid_i    (mem_req_valid && !out_of_range),
    .cmd_ready_o    (cmd_ready),
    .cmd_addr_i     (mem_req_addr[AxiAddrW-1:0]),
    .cmd_beats_i    (16'd1),
    .data_valid_o   (rd_valid),
    .data_ready_i   (rd_take),
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

  assign mem_rsp_valid = rsp_now;
  assign mem_rsp_tag   = tagq_tag;
  assign mem_rsp_data  = (tagq_zero || rd_err_beat) ? 64'd0 : rd_data;

  // The write channels are not used.
  assign m_axi_awvalid_o = 1'b0;
  assign m_axi_awid_o    = {AxiIdW{1'b0}};
  assign m_axi_awaddr_o  = {AxiAddrW{1'b0}};
  assign m_axi_awlen_o   = 8'd0;
  assign m_axi_awsize_o  = 3'd3;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_awlock_o  = 1'b0;
  assign m_axi_awcache_o = 4'b0011;
  assign m_axi_awprot_o  = 3'b000;
  assign m_axi_wvalid_o  = 1'b0;
  assign m_axi_wdata_o   = 64'd0;
  assign m_axi_wstrb_o   = 8'd0;
  assign m_axi_wlast_o   = 1'b0;
  assign m_axi_bready_o  = 1'b1;
  wire unused_b = &{1'b0, m_axi_awready_i, m_axi_wready_i, m_axi_bvalid_i, m_axi_bid_i,
                    m_axi_bresp_i};

  // ---------------------------------------------------------------- status
  wire req_fire = s_axis_req_tvalid_i && s_axis_req_tready_o;
  wire rsp_fire = m_axis_rsp_tvalid_o && m_axis_rsp_tready_i;
  wire fault    = rsp_fire && (rsp_status != 2'd0);
  wire range_er = cmd_fire && out_of_range;
  reg  [15:0] inflight_q;
  assign busy = (inflight_q != 16'd0);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q <= 16'd0;
      armed_q    <= 1'b0;
      faults_q   <= 32'd0;
    end else begin
      if (req_fire && !rsp_fire)      inflight_q <= inflight_q + 16'd1;
      else if (!req_fire && rsp_fire) inflight_q <= inflight_q - 16'd1;
      if (start)      armed_q <= 1'b1;
      else if (!busy) armed_q <= 1'b0;
      if (clear)      faults_q <= 32'd0;
      else if (fault) faults_q <= faults_q + 32'd1;
    end
  end

  assign err_any = fault || range_er || rd_err;
  assign err_cd  = rd_err ? ErrAxiRd : range_er ? ErrRange : ErrFault;

endmodule
`default_nettype wire
