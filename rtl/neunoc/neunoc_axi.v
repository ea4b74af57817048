////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  neunoc_axi.v
//
// Purpose:   Neu-NoC as FPGA IP (docs/axi_shell.md): every PE port of the network is an
//            AXI4-Stream pair, s_axis_pe (flits from PE p into the network) and m_axis_pe
//            (flits delivered to PE p), flattened over the NP PEs: PE p's stream is bit p of
//            tvalid/tready/tlast and bits [p*TW +: TW] of tdata. A flit sits in tdata[FlitW-1:0]
//            (format: cmodel/include/neunoc.h; the bits above are 0 out and ignored in).
//            m_axis_pe tlast marks a packet's last flit (a tail, or a single-flit head).
//            Registers (rtl/neunoc/neunoc_regs.rdl, docs/regs/neunoc.md) over AXI4-Lite; one
//            level interrupt. There is no memory port.
//
//            ENABLE gates the inputs (tready low while 0); outputs always drain.
//            STATUS.BUSY: a flit moved on any PE stream, or a delivered flit waits, within the
//            last QuietCycles cycles. The network keeps no count of flits inside it (multicast
//            copies them), so "idle" is a quiet period longer than a packet's trip through an
//            unloaded network; a blocked output keeps it busy. CTRL.START arms the DONE
//            interrupt: DONE is set at the first cycle after it with BUSY low.
//            Errors: a PE stream repaired by its guard (ERR_CODE 0x01, ERR_PE bit p sticky,
//            PE_REPAIRS counts), a router dropping the flits of a head with no destination
//            (0x02, DROPS counts). CTRL.CLEAR zeroes the counters and ERR_PE; PE_FLITS and
//            MESH_FLITS are the network's free-running counters.
//
// Parameters:
//   K, Cols, Rows, V, Depth, DataW, TagW, CntW, Pack, DstCoord   as neunoc
//   QuietCycles   cycles without stream activity after which the network counts as idle
//   the rest      derived widths, do not set (TW: FlitW rounded up to whole bytes)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module neunoc_axi #(
  parameter integer K           = 4,
  parameter integer Cols        = 2,
  parameter integer Rows        = 2,
  parameter integer V           = 2,
  parameter integer Depth       = 8,
  parameter integer DataW       = 16,
  parameter integer TagW        = 8,
  parameter integer CntW        = 4,
  parameter integer Pack        = 1,
  parameter integer DstCoord    = 0,
  parameter integer QuietCycles = 64,
  parameter integer NR     = Cols * Rows,
  parameter integer NP     = NR * K,
  parameter integer RIdW   = (NR > 1) ? $clog2(NR) : 1,
  parameter integer PIdW   = (K > 1) ? $clog2(K) : 1,
  parameter integer DstW   = (DstCoord != 0) ? ((Cols > 1) ? $clog2(Cols) : 1) +
                                               ((Rows > 1) ? $clog2(Rows) : 1) : NR,
  parameter integer HdrW   = DstW + K + RIdW + PIdW + TagW + 1,
  parameter integer PW     = (DataW > HdrW) ? ((DataW > CntW) ? DataW : CntW)
                                           : ((HdrW > CntW) ? HdrW : CntW),
  parameter integer FlitW  = PW + 2,
  parameter integer TW     = (FlitW + 7) / 8 * 8
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  // AXI4-Lite slave: registers
  input  wire               s_axil_awvalid_i,
  output wire               s_axil_awready_o,
  input  wire [7:0]         s_axil_awaddr_i,
  input  wire [2:0]         s_axil_awprot_i,
  input  wire               s_axil_wvalid_i,
  output wire               s_axil_wready_o,
  input  wire [31:0]        s_axil_wdata_i,
  input  wire [3:0]         s_axil_wstrb_i,
  output wire               s_axil_bvalid_o,
  input  wire               s_axil_bready_i,
  output wire [1:0]         s_axil_bresp_o,
  input  wire               s_axil_arvalid_i,
  output wire               s_axil_arready_o,
  input  wire [7:0]         s_axil_araddr_i,
  input  wire [2:0]         s_axil_arprot_i,
  output wire               s_axil_rvalid_o,
  input  wire               s_axil_rready_i,
  output wire [31:0]        s_axil_rdata_o,
  output wire [1:0]         s_axil_rresp_o,
  // AXI4-Stream: one stream pair per PE, flattened
  input  wire [NP-1:0]      s_axis_pe_tvalid_i,
  output wire [NP-1:0]      s_axis_pe_tready_o,
  input  wire [NP*TW-1:0]   s_axis_pe_tdata_i,
  output wire [NP-1:0]      m_axis_pe_tvalid_o,
  input  wire [NP-1:0]      m_axis_pe_tready_i,
  output wire [NP*TW-1:0]   m_axis_pe_tdata_o,
  output wire [NP-1:0]      m_axis_pe_tlast_o,
  // interrupt
  output wire               irq_o
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md);
  // the network's own rules (and its derived widths) are checked by neunoc.
  generate
    if (TW != (FlitW + 7) / 8 * 8) begin : gen_check_tw
      `CC_PARAM_FAIL(neunoc_axi__TW_is_derived_do_not_set)
    end
    if (NP > 32) begin : gen_check_np
      `CC_PARAM_FAIL(neunoc_axi__at_most_32_PEs_ERR_PE_is_one_register)
    end
    if (QuietCycles < 1 || QuietCycles > 65535) begin : gen_check_quiet
      `CC_PARAM_FAIL(neunoc_axi__QuietCycles_must_be_1_to_65535)
    end
  endgenerate

  localparam [7:0]  ErrRepair = 8'h01, ErrDrop = 8'h02;
  localparam [7:0]  KW = K[7:0], ColsW = Cols[7:0], RowsW = Rows[7:0], FlitWW = FlitW[7:0];
  localparam [15:0] Quiet = QuietCycles[15:0];

  // ---------------------------------------------------------------- registers
  // AXI4-Lite, the register file and the common registers (generated: neunoc_csr).
  wire        start, clear, enable, busy, err_drop;
  wire [31:0] st_pe_flits, st_mesh_flits, st_hop_flits, st_eject_flits;
  reg  [31:0] drops_q, repairs_q, err_pe_q;
  reg         armed_q;
  wire [NP-1:0] err_pe;

  neunoc_csr #(.AddrW(8)) u_csr (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .s_axil_awvalid_i(s_axil_awvalid_i),
    .s_axil_awready_o(s_axil_awready_o),
    .s_axil_awaddr_i (s_axil_awaddr_i),
    .s_axil_awprot_i (s_axil_awprot_i),
    .s_axil_wvalid_i (s_axil_wvalid_i),
    .s_axil_wready_o (s_axil_wready_o),
    .s_axil_wdata_i  (s_axil_wdata_i),
    .s_axil_wstrb_i  (s_axil_wstrb_i),
    .s_axil_bvalid_o (s_axil_bvalid_o),
    .s_axil_bready_i (s_axil_bready_i),
    .s_axil_bresp_o  (s_axil_bresp_o),
    .s_axil_arvalid_i(s_axil_arvalid_i),
    .s_axil_arready_o(s_axil_arready_o),
    .s_axil_araddr_i (s_axil_araddr_i),
    .s_axil_arprot_i (s_axil_arprot_i),
    .s_axil_rvalid_o (s_axil_rvalid_o),
    .s_axil_rready_i (s_axil_rready_i),
    .s_axil_rdata_o  (s_axil_rdata_o),
    .s_axil_rresp_o  (s_axil_rresp_o),
    .job_start_o     (start),
    .job_clear_o     (clear),
    .job_busy_i      (busy),
    .job_stall_i     (|(m_axis_pe_tvalid_o & ~m_axis_pe_tready_i)),
    .job_done_i      (armed_q && !busy && !start),
    .job_err_i       ((|err_pe) || err_drop),
    .job_err_code_i  ((|err_pe) ? ErrRepair : ErrDrop),
    .job_err_resp_i  (2'b00),
    .job_rd_burst_i  (1'b0),
    .job_wr_burst_i  (1'b0),
    .irq_o           (irq_o),
    .enable_val_o    (enable),
    .pe_flits_val_i  (st_pe_flits),
    .mesh_flits_val_i(st_mesh_flits),
    .drops_val_i     (drops_q),
    .pe_repairs_val_i(repairs_q),
    .err_pe_val_i    (err_pe_q),
    .hwcfg_k_i       (KW),
    .hwcfg_cols_i    (ColsW),
    .hwcfg_rows_i    (RowsW),
    .hwcfg_flitw_i   (FlitWW)
  );

  // ---------------------------------------------------------------- the network
  wire [NP*FlitW-1:0] in_flit, out_flit;
  wire [NP-1:0]       in_ready;
  genvar p;
  generate
    for (p = 0; p < NP; p = p + 1) begin : gen_pe
      wire [FlitW-1:0] of = out_flit[p*FlitW +: FlitW];
      assign in_flit[p*FlitW +: FlitW]          = s_axis_pe_tdata_i[p*TW +: FlitW];
      assign m_axis_pe_tdata_o[p*TW +: FlitW] = of;
      if (TW > FlitW) begin : gen_pad
        assign m_axis_pe_tdata_o[p*TW + FlitW +: TW - FlitW] = {(TW - FlitW){1'b0}};
        wire unused_pad = &{1'b0, s_axis_pe_tdata_i[p*TW + FlitW +: TW - FlitW]};
      end
      // tail (10), or head (01) with the single-flit bit
      assign m_axis_pe_tlast_o[p] = (of[FlitW-1:FlitW-2] == 2'b10) ||
                                    ((of[FlitW-1:FlitW-2] == 2'b01) && of[HdrW-1]);
    end
  endgenerate

  neunoc #(
    .K(K), .Cols(Cols), .Rows(Rows), .V(V), .Depth(Depth), .DataW(DataW), .TagW(TagW),
    .CntW(CntW), .Pack(Pack), .DstCoord(DstCoord)
  ) u_noc (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .pe_in_valid_i    (s_axis_pe_tvalid_i & {NP{enable}}),
    .pe_in_ready_o    (in_ready),
    .pe_in_flit_i     (in_flit),
    .pe_out_valid_o   (m_axis_pe_tvalid_o),
    .pe_out_ready_i   (m_axis_pe_tready_i),
    .pe_out_flit_o    (out_flit),
    .err_pe_o         (err_pe),
    .err_drop_o       (err_drop),
    .stat_pe_flits_o  (st_pe_flits),
    .stat_mesh_flits_o(st_mesh_flits),
    .stat_hop_flits_o (st_hop_flits),
    .stat_eject_flits_o(st_eject_flits)
  );
  // The link and ejection counts are for the harness's energy estimate (docs/neunoc.md); the
  // register map does not carry them, so synthesis drops their counters here.
  wire unused_energy_stats = ^{st_hop_flits, st_eject_flits};
  assign s_axis_pe_tready_o = in_ready & {NP{enable}};

  // ---------------------------------------------------------------- status
  wire        activity = (|(s_axis_pe_tvalid_i & s_axis_pe_tready_o)) || (|m_axis_pe_tvalid_o);
  reg  [15:0] quiet_q;        // cycles since the last activity, saturating at QuietCycles
  reg  [31:0] err_pe_w;        // err_pe widened to the register
  integer     i;
  always @* begin
    err_pe_w = 32'd0;
    for (i = 0; i < NP; i = i + 1) err_pe_w[i] = err_pe[i];
  end
  assign busy = (quiet_q != Quiet);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      quiet_q   <= Quiet;
      armed_q   <= 1'b0;
      drops_q   <= 32'd0;
      repairs_q <= 32'd0;
      err_pe_q  <= 32'd0;
    end else begin
      if (activity)     quiet_q <= 16'd0;
      else if (busy)    quiet_q <= quiet_q + 16'd1;
      if (start)        armed_q <= 1'b1;
      else if (!busy)   armed_q <= 1'b0;
      if (clear) begin
        drops_q   <= 32'd0;
        repairs_q <= 32'd0;
        err_pe_q  <= 32'd0;
      end else begin
        if (err_drop)  drops_q   <= drops_q + 32'd1;
        if (|err_pe)   repairs_q <= repairs_q + 32'd1;
        err_pe_q <= err_pe_q | err_pe_w;
      end
    end
  end

endmodule
`default_nettype wire
