////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_gst.v
//
// Purpose:   Shard Writeback (GSTORE): steps through the node block's MF lines (gnn_gagen),
//            reads each from its GPE's MF memory (one cycle of latency) and writes it to DRAM
//            as one request of min(L, dim - c*L) words. The read data, address and word count
//            wait in a 3-entry fall-through FIFO; a read is issued only when the FIFO has room
//            for it, so the memory port's back-pressure never loses data. Busy until the last
//            write request is taken.
//
// Parameters:
//   Gpes, Lanes   P and L (powers of two)
//   Pw            words of the memory port (>= Lanes)
//   AddrW         DRAM word-address bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_gst #(
  parameter integer Gpes  = 4,
  parameter integer Lanes = 4,
  parameter integer Pw    = 4,
  parameter integer AddrW = 20
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire                start_i,
  input  wire [127:0]        insn_i,
  output wire                busy_o,
  // MF read of GPE rgpe_o (data the next cycle, from that GPE)
  output wire                re_o,
  output wire [((Gpes > 1) ? $clog2(Gpes) : 1)-1:0] rgpe_o,
  output wire [15:0]         raddr_o,
  input  wire [Gpes*Lanes*32-1:0] rdata_i,
  output wire                req_valid_o,
  input  wire                req_ready_i,
  output wire [AddrW-1:0]    req_addr_o,
  output wire [7:0]          req_words_o,
  output wire [Pw*32-1:0]    req_data_o
);

  localparam integer GpeW = (Gpes > 1) ? $clog2(Gpes) : 1;
  localparam integer FifoDepth = 3;
  localparam integer EntW = AddrW + 8 + Lanes*32;
  wire unused_insn = ^insn_i;   // the GSTORE fields only (gnn_gdec checked the rest)

  reg             busy_q, pend_q;
  reg [GpeW-1:0]  pend_gpe_q;
  reg [AddrW-1:0] pend_addr_q;
  reg [7:0]       pend_words_q;
  reg [24:0]      n_left_q;        // write requests still to be taken
  wire [1:0]      fifo_cnt;
  wire            fifo_in_ready;

  wire            g_valid, unused_g_last;
  wire [AddrW-1:0] g_addr;
  wire [7:0]      g_words;
  wire            req_fire = req_valid_o && req_ready_i;
  assign re_o = g_valid && ({1'b0, fifo_cnt} + {2'b00, pend_q} < 3'd3);

  gnn_gagen #(.Gpes(Gpes), .Lanes(Lanes), .AddrW(AddrW)) u_agen (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (start_i),
    .edge_i  (1'b0),
    .base_i  (insn_i[31:16]),
    .n_i     (insn_i[47:32]),
    .dim_i   (insn_i[15:8]),
    .addr_i  (insn_i[48 +: AddrW]),
    .stride_i(insn_i[80 +: AddrW]),
    .step_i  (re_o),
    .valid_o (g_valid),
    .last_o  (unused_g_last),
    .gpe_o   (rgpe_o),
    .line_o  (raddr_o),
    .addr_o  (g_addr),
    .words_o (g_words)
  );

  // Requests a GSTORE makes: n * CH (counted down as they are taken).
  localparam integer LogL = (Lanes > 1) ? $clog2(Lanes) : 0;
  localparam integer LanesInt = Lanes;
  localparam [8:0]   L9 = LanesInt[8:0];
  wire [8:0]  ch_x  = ({1'b0, insn_i[15:8]} + L9 - 9'd1) >> LogL;
  wire [24:0] total = {9'd0, insn_i[47:32]} * {16'd0, ch_x};

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q       <= 1'b0;
      pend_q       <= 1'b0;
      pend_gpe_q   <= {GpeW{1'b0}};
      pend_addr_q  <= {AddrW{1'b0}};
      pend_words_q <= 8'd0;
      n_left_q     <= 25'd0;
    end else if (start_i) begin
      busy_q   <= 1'b1;
      pend_q   <= 1'b0;
      n_left_q <= total;
    end else begin
      pend_q       <= re_o;
      pend_gpe_q   <= rgpe_o;
      pend_addr_q  <= g_addr;
      pend_words_q <= g_words;
      if (req_fire) begin
        n_left_q <= n_left_q - 25'd1;
        if (n_left_q == 25'd1) busy_q <= 1'b0;
      end
    end
  end

  wire [EntW-1:0] f_out;
  wire unused_in_ready = fifo_in_ready;  // room is reserved before each read
  cc_fifo #(.Width(EntW), .Depth(FifoDepth), .FallThrough(1)) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (start_i),
    .in_valid_i (pend_q),
    .in_ready_o (fifo_in_ready),
    .in_data_i  ({pend_addr_q, pend_words_q, rdata_i[pend_gpe_q*Lanes*32 +: Lanes*32]}),
    .out_valid_o(req_valid_o),
    .out_ready_i(req_ready_i),
    .out_data_o (f_out),
    .count_o    (fifo_cnt)
  );

  assign busy_o      = busy_q;
  assign req_addr_o  = f_out[EntW-1 -: AddrW];
  assign req_words_o = f_out[Lanes*32 +: 8];
  generate
    if (Pw > Lanes) begin : gen_pad
      assign req_data_o = {{(Pw-Lanes)*32{1'b0}}, f_out[Lanes*32-1:0]};
    end else begin : gen_nopad
      assign req_data_o = f_out[Lanes*32-1:0];
    end
  endgenerate

endmodule

`default_nettype wire
