////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_axil_slave.v
//
// Purpose:   AXI4-Lite slave for control and status registers: turns each AXI4-Lite read or
//            write into one access on a simple register bus (docs/axi_shell.md, "The register
//            bus"), which a block's generated register file (<blk>_regs, scripts/gen_regs.py)
//            answers in the same cycle.
//
//            Contract:
//              * AW and W are taken independently, in either order (AWREADY / WREADY are flops,
//                low while that channel's beat is held or a write response is pending). Once
//                both are held, one write strobe goes out and BVALID rises with the response:
//                OKAY, or SLVERR when the register file refuses the access (reg_err_i).
//              * AR is held (ARREADY low while an address is held or a read response is
//                pending); one read strobe, then RVALID with the data and OKAY or SLVERR (data
//                0 on SLVERR).
//              * Reads and writes alternate when both are ready in the same cycle; reg_we_o and
//                reg_re_o are never high together.
//              * BVALID / RVALID and their payloads hold until BREADY / RREADY.
//              * AxPROT is accepted and ignored; address bits [1:0] are dropped (word access).
//
// Parameters:
//   AddrW   register address bits (byte address; >= 3)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module cc_axil_slave #(
  parameter integer AddrW = 8
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  // AXI4-Lite slave
  input  wire             s_axil_awvalid_i,
  output wire             s_axil_awready_o,
  input  wire [AddrW-1:0] s_axil_awaddr_i,
  input  wire [2:0]       s_axil_awprot_i,
  input  wire             s_axil_wvalid_i,
  output wire             s_axil_wready_o,
  input  wire [31:0]      s_axil_wdata_i,
  input  wire [3:0]       s_axil_wstrb_i,
  output wire             s_axil_bvalid_o,
  input  wire             s_axil_bready_i,
  output wire [1:0]       s_axil_bresp_o,
  input  wire             s_axil_arvalid_i,
  output wire             s_axil_arready_o,
  input  wire [AddrW-1:0] s_axil_araddr_i,
  input  wire [2:0]       s_axil_arprot_i,
  output wire             s_axil_rvalid_o,
  input  wire             s_axil_rready_i,
  output wire [31:0]      s_axil_rdata_o,
  output wire [1:0]       s_axil_rresp_o,
  // register bus
  output wire             reg_we_o,
  output wire             reg_re_o,
  output wire [AddrW-1:0] reg_addr_o,
  output wire [31:0]      reg_wdata_o,
  output wire [3:0]       reg_wstrb_o,
  input  wire [31:0]      reg_rdata_i,
  input  wire             reg_err_i
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (AddrW < 3) begin : gen_check_addrw
      `CC_PARAM_FAIL(cc_axil_slave__AddrW_must_be_at_least_3)
    end
  endgenerate

  localparam [1:0] RespOkay = 2'b00, RespSlvErr = 2'b10;

  reg             aw_q, w_q, ar_q, bvalid_q, rvalid_q, rd_turn_q;
  reg [AddrW-3:0] aw_addr_q, ar_addr_q;    // word addresses
  reg [31:0]      wdata_q, rdata_q;
  reg [3:0]       wstrb_q;
  reg [1:0]       bresp_q, rresp_q;

  // AxPROT is ignored and the byte offset within a word dropped (word accesses only).
  wire unused_ok = &{1'b0, s_axil_awprot_i, s_axil_arprot_i, s_axil_awaddr_i[1:0],
                     s_axil_araddr_i[1:0]};

  wire aw_fire = s_axil_awvalid_i && s_axil_awready_o;
  wire w_fire  = s_axil_wvalid_i && s_axil_wready_o;
  wire ar_fire = s_axil_arvalid_i && s_axil_arready_o;
  wire wr_go   = aw_q && w_q && !bvalid_q;
  wire rd_go   = ar_q && !rvalid_q;
  // Both ready: take the one whose turn it is (alternating), so neither can starve the other.
  wire do_wr   = wr_go && (!rd_go || !rd_turn_q);
  wire do_rd   = rd_go && !do_wr;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_q      <= 1'b0;
      w_q       <= 1'b0;
      ar_q      <= 1'b0;
      bvalid_q  <= 1'b0;
      rvalid_q  <= 1'b0;
      rd_turn_q <= 1'b0;
      bresp_q   <= RespOkay;
      rresp_q   <= RespOkay;
      rdata_q   <= 32'd0;
    end else begin
      if (aw_fire) aw_q <= 1'b1;
      else if (do_wr) aw_q <= 1'b0;
      if (w_fire) w_q <= 1'b1;
      else if (do_wr) w_q <= 1'b0;
      if (ar_fire) ar_q <= 1'b1;
      else if (do_rd) ar_q <= 1'b0;
      if (do_wr) begin
        bvalid_q  <= 1'b1;
        bresp_q   <= reg_err_i ? RespSlvErr : RespOkay;
        rd_turn_q <= 1'b1;
      end else if (s_axil_bready_i) begin
        bvalid_q <= 1'b0;
      end
      if (do_rd) begin
        rvalid_q  <= 1'b1;
        rresp_q   <= reg_err_i ? RespSlvErr : RespOkay;
        rdata_q   <= reg_err_i ? 32'd0 : reg_rdata_i;
        rd_turn_q <= 1'b0;
      end else if (s_axil_rready_i) begin
        rvalid_q <= 1'b0;
      end
    end
  end

  // Datapath registers without reset: aw_q / w_q / ar_q say when they hold a beat.
  always @(posedge clk_i) begin
    if (aw_fire) aw_addr_q <= s_axil_awaddr_i[AddrW-1:2];
    if (ar_fire) ar_addr_q <= s_axil_araddr_i[AddrW-1:2];
    if (w_fire) begin
      wdata_q <= s_axil_wdata_i;
      wstrb_q <= s_axil_wstrb_i;
    end
  end

  assign s_axil_awready_o = !aw_q && !bvalid_q;
  assign s_axil_wready_o  = !w_q && !bvalid_q;
  assign s_axil_arready_o = !ar_q && !rvalid_q;
  assign s_axil_bvalid_o  = bvalid_q;
  assign s_axil_bresp_o   = bresp_q;
  assign s_axil_rvalid_o  = rvalid_q;
  assign s_axil_rdata_o   = rdata_q;
  assign s_axil_rresp_o   = rresp_q;

  assign reg_we_o    = do_wr;
  assign reg_re_o    = do_rd;
  assign reg_addr_o  = {do_rd ? ar_addr_q : aw_addr_q, 2'b00};
  assign reg_wdata_o = wdata_q;
  assign reg_wstrb_o = wstrb_q;
endmodule
`default_nettype wire
