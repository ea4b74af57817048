////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_ld.v
//
// Purpose:   The load unit (LD) of the Dense Engine. A LOAD asks the memory port for the n lines
//            addr + i*stride (i = 0..n-1, one request a cycle while the port takes them); each
//            request leaves a tag (bank, buffer line, width) in an in-order tag FIFO, and each
//            read response (in order) is written into the line its tag names, with the words
//            w..Lw-1 set to +0.0. The unit takes the next LOAD as soon as the last request of the
//            current one is taken, while its responses are still on their way: loads stream
//            back to back and the memory latency is paid once, not per LOAD.
//
//            busy_o: a LOAD is still sending requests (from the cycle after start_i to the
//            cycle after its last request is taken; registered). pend_banks_o: the buffer banks
//            that still wait for responses (bit b as the issue logic numbers them: IN 0/1,
//            WT 2/3, OUT 4/5), from per-bank counters of requests taken and not yet answered.
//
// Parameters:
//   Lw      words per line
//   AddrW   DRAM word-address bits
//   Tags    requests in flight at most (the tag FIFO; the port idles when it is full, so full
//           speed needs Tags >= the memory latency in cycles)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_ld #(
  parameter integer Lw    = 4,
  parameter integer AddrW = 20,
  parameter integer Tags  = 128
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             start_i,
  input  wire [5:0]       bank_i,      // one-hot: the bank this LOAD writes
  input  wire [15:0]      line_i,
  input  wire [15:0]      n_i,
  input  wire [7:0]       w_i,
  input  wire [AddrW-1:0] addr_i,
  input  wire [AddrW-1:0] stride_i,    // (modulo 2^AddrW: decode keeps every address in range)
  output wire             busy_o,
  output wire [5:0]       pend_banks_o,
  // memory requests (read) and responses (in order, always taken)
  output wire             req_valid_o,
  input  wire             req_ready_i,
  output wire [AddrW-1:0] req_addr_o,
  output wire [7:0]       req_words_o,
  input  wire             rsp_valid_i,
  input  wire [Lw*32-1:0] rsp_data_i,
  // buffer write port
  output wire             we_o,
  output wire [1:0]       wbuf_o,
  output wire [15:0]      waddr_o,
  output wire [Lw*32-1:0] wdata_o
);

  localparam integer TagW = 6 + 16 + 8;

  reg             busy_q;
  reg [5:0]       bank_q;
  reg [15:0]      line_q, n_q, req_cnt_q;
  reg [7:0]       w_q;
  reg [AddrW-1:0] addr_q, stride_q;

  wire            tag_in_ready, tag_v;
  wire [TagW-1:0] tag;
  wire [$clog2(Tags+1)-1:0] unused_tag_count;
  wire [5:0]      t_bank = tag[TagW-1 -: 6];
  wire [15:0]     t_line = tag[8 +: 16];
  wire [7:0]      t_w    = tag[7:0];

  assign req_valid_o = busy_q && tag_in_ready;
  wire req_fire = req_valid_o && req_ready_i;
  wire last_req = req_fire && (req_cnt_q == n_q - 16'd1);
  wire rsp_fire = rsp_valid_i && tag_v;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q    <= 1'b0;
      bank_q    <= 6'd0;
      line_q    <= 16'd0;
      n_q       <= 16'd0;
      req_cnt_q <= 16'd0;
      w_q       <= 8'd0;
      addr_q    <= {AddrW{1'b0}};
      stride_q  <= {AddrW{1'b0}};
    end else if (start_i) begin
      busy_q    <= 1'b1;
      bank_q    <= bank_i;
      line_q    <= line_i;
      n_q       <= n_i;
      req_cnt_q <= 16'd0;
      w_q       <= w_i;
      addr_q    <= addr_i;
      stride_q  <= stride_i;
    end else if (req_fire) begin
      req_cnt_q <= req_cnt_q + 16'd1;
      addr_q    <= addr_q + stride_q;
      if (last_req) busy_q <= 1'b0;
    end
  end

  cc_fifo_sram #(.Width(TagW), .Depth(Tags)) u_tags (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (req_fire),
    .in_ready_o (tag_in_ready),
    .in_data_i  ({bank_q, line_q + req_cnt_q, w_q}),
    .out_valid_o(tag_v),
    .out_ready_i(rsp_valid_i),
    .out_data_o (tag),
    .count_o    (unused_tag_count)
  );

  // responses still to come, per bank
  gnn_pend #(.Banks(6), .Max(Tags)) u_pend (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .inc_i     (req_fire),
    .inc_bank_i(bank_q),
    .dec_i     (rsp_fire),
    .dec_bank_i(t_bank),
    .pend_o    (pend_banks_o)
  );

  assign busy_o      = busy_q;
  assign req_addr_o  = addr_q;
  assign req_words_o = w_q;

  // the words of a line beyond w are +0.0
  genvar i;
  generate
    for (i = 0; i < Lw; i = i + 1) begin : gen_word
      assign wdata_o[i*32 +: 32] = ({24'd0, t_w} > i) ? rsp_data_i[i*32 +: 32] : 32'd0;
    end
  endgenerate

  assign we_o    = rsp_fire;
  assign wbuf_o  = t_bank[1:0] != 2'b00 ? 2'd0 : t_bank[3:2] != 2'b00 ? 2'd1 : 2'd2;
  assign waddr_o = t_line;

endmodule

`default_nettype wire
