////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_gld.v
//
// Purpose:   Shard Edge Fetch and Shard Feature Fetch (GLOAD): steps through the instruction's
//            DRAM lines (gnn_gagen) and issues one read request a cycle; each request's
//            destination (memory, GPE, line, words) waits in a tag FIFO for its data, which come
//            back in order. EDGE: word g of the response goes to GPE g's EDGE memory. IF/MF: the
//            response's first `words` words (the rest +0) go to one GPE's line. Busy while
//            requests remain; pend_banks_o keeps the written bank from other units until the
//            last response has arrived, so the next GLOAD can issue while data are in flight.
//
// Parameters:
//   Gpes, Lanes   P and L (powers of two)
//   Pw            words of the memory port (>= Lanes, >= Gpes)
//   AddrW         DRAM word-address bits
//   Tags          reads in flight at most
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_gld #(
  parameter integer Gpes  = 4,
  parameter integer Lanes = 4,
  parameter integer Pw    = 4,
  parameter integer AddrW = 20,
  parameter integer Tags  = 128
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             start_i,
  input  wire [127:0]     insn_i,
  input  wire [11:0]      bank_i,      // one-hot (bits 6..11): the bank this GLOAD writes
  output wire             busy_o,
  output wire [11:0]      pend_banks_o,
  output wire             req_valid_o,
  input  wire             req_ready_i,
  output wire [AddrW-1:0] req_addr_o,
  output wire [7:0]       req_words_o,
  input  wire             rsp_valid_i,
  input  wire [Pw*32-1:0] rsp_data_i,
  // writes: EDGE to every GPE (word g to GPE g), IF/MF to GPE wgpe_o
  output wire             we_o,
  output wire [1:0]       wmem_o,
  output wire [((Gpes > 1) ? $clog2(Gpes) : 1)-1:0] wgpe_o,
  output wire [15:0]      wline_o,
  output wire [Pw*32-1:0] wdata_o
);

  localparam integer GpeW = (Gpes > 1) ? $clog2(Gpes) : 1;
  localparam integer TagW = 6 + 2 + GpeW + 16 + 8;

  reg        busy_q;
  reg [1:0]  mem_q;
  reg [5:0]  bank_q;

  wire            g_valid, g_last;
  wire [GpeW-1:0] g_gpe;
  wire [15:0]     g_line;
  wire [7:0]      g_words;
  wire            tag_in_ready, tag_v;
  wire [TagW-1:0] tag;

  assign req_valid_o = busy_q && g_valid && tag_in_ready;
  wire req_fire = req_valid_o && req_ready_i;
  wire rsp_fire = rsp_valid_i && tag_v;

  gnn_gagen #(.Gpes(Gpes), .Lanes(Lanes), .AddrW(AddrW)) u_agen (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (start_i),
    .edge_i  (insn_i[5:4] == 2'd0),
    .base_i  (insn_i[31:16]),
    .n_i     (insn_i[47:32]),
    .dim_i   (insn_i[15:8]),
    .addr_i  (insn_i[48 +: AddrW]),
    .stride_i(insn_i[80 +: AddrW]),
    .step_i  (req_fire),
    .valid_o (g_valid),
    .last_o  (g_last),
    .gpe_o   (g_gpe),
    .line_o  (g_line),
    .addr_o  (req_addr_o),
    .words_o (g_words)
  );
  assign req_words_o = g_words;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      mem_q  <= 2'd0;
      bank_q <= 6'd0;
    end else if (start_i) begin
      busy_q <= 1'b1;
      mem_q  <= insn_i[5:4];
      bank_q <= bank_i[11:6];
    end else if (req_fire && g_last) begin
      busy_q <= 1'b0;
    end
  end

  wire [$clog2(Tags+1)-1:0] unused_tag_count;
  cc_fifo_sram #(.Width(TagW), .Depth(Tags)) u_tags (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (req_fire),
    .in_ready_o (tag_in_ready),
    .in_data_i  ({bank_q, mem_q, g_gpe, g_line, g_words}),
    .out_valid_o(tag_v),
    .out_ready_i(rsp_valid_i),
    .out_data_o (tag),
    .count_o    (unused_tag_count)
  );
  wire [5:0] t_bank = tag[TagW-1 -: 6];
  // the fields of GLOAD only (gnn_gdec checked the rest); bank_i: the graph banks only
  wire unused_insn = ^{insn_i, bank_i[5:0]};
  wire [7:0] t_w    = tag[7:0];

  wire [5:0] pend6;
  gnn_pend #(.Banks(6), .Max(Tags)) u_pend (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .inc_i     (req_fire),
    .inc_bank_i(bank_q),
    .dec_i     (rsp_fire),
    .dec_bank_i(t_bank),
    .pend_o    (pend6)
  );
  assign pend_banks_o = {pend6, 6'd0};

  genvar i;
  generate
    for (i = 0; i < Pw; i = i + 1) begin : gen_word
      assign wdata_o[i*32 +: 32] = ({24'd0, t_w} > i) ? rsp_data_i[i*32 +: 32] : 32'd0;
    end
  endgenerate

  assign busy_o  = busy_q;
  assign we_o    = rsp_fire;
  assign wmem_o  = tag[TagW-7 -: 2];
  assign wgpe_o  = tag[24 +: GpeW];
  assign wline_o = tag[8 +: 16];

endmodule

`default_nettype wire
