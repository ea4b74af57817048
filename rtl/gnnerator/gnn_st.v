////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_st.v
//
// Purpose:   The store unit (ST) of the Dense Engine: executes one STORE at a time. It reads the
//            output-buffer lines line .. line+n-1 into a 3-entry line FIFO (reads run ahead while
//            the FIFO has room for every read in flight) and offers each line to the memory port
//            as a write of w words at addr + i*stride. busy_o is high from the cycle after
//            start_i until the cycle after the last write is taken.
//
//            Timing without back-pressure: start in cycle t, line i read in t+1+i, offered (and
//            taken) in t+2+i (the FIFO falls through when empty).
//
// Parameters:
//   Lw      words per line
//   AddrW   DRAM word-address bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_st #(
  parameter integer Lw    = 4,
  parameter integer AddrW = 20
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             start_i,
  input  wire [15:0]      line_i,
  input  wire [15:0]      n_i,
  input  wire [7:0]       w_i,
  input  wire [AddrW-1:0] addr_i,
  input  wire [AddrW-1:0] stride_i,   // (modulo 2^AddrW: decode keeps every address in range)
  output wire             busy_o,
  // output-buffer read port
  output wire             re_o,
  output wire [15:0]      raddr_o,
  input  wire [Lw*32-1:0] rdata_i,
  // memory write requests
  output wire             req_valid_o,
  input  wire             req_ready_i,
  output wire [AddrW-1:0] req_addr_o,
  output wire [7:0]       req_words_o,
  output wire [Lw*32-1:0] req_data_o
);

  localparam integer FifoDepth = 3;

  reg             busy_q, pend_q;
  reg [15:0]      line_q, n_q, rd_cnt_q, wr_cnt_q;
  reg [7:0]       w_q;
  reg [AddrW-1:0] addr_q;
  reg [AddrW-1:0] stride_q;
  wire [1:0]      fifo_cnt;
  wire            fifo_in_ready;

  wire req_fire = req_valid_o && req_ready_i;
  wire last_wr  = req_fire && (wr_cnt_q == n_q - 16'd1);
  assign re_o    = busy_q && (rd_cnt_q != n_q) && ({1'b0, fifo_cnt} + {2'b00, pend_q} < 3'd3);
  assign raddr_o = line_q + rd_cnt_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      pend_q   <= 1'b0;
      line_q   <= 16'd0;
      n_q      <= 16'd0;
      rd_cnt_q <= 16'd0;
      wr_cnt_q <= 16'd0;
      w_q      <= 8'd0;
      addr_q   <= {AddrW{1'b0}};
      stride_q <= {AddrW{1'b0}};
    end else if (start_i) begin
      busy_q   <= 1'b1;
      pend_q   <= 1'b0;
      line_q   <= line_i;
      n_q      <= n_i;
      rd_cnt_q <= 16'd0;
      wr_cnt_q <= 16'd0;
      w_q      <= w_i;
      addr_q   <= addr_i;
      stride_q <= stride_i;
    end else begin
      pend_q <= re_o;
      if (re_o) rd_cnt_q <= rd_cnt_q + 16'd1;
      if (req_fire) begin
        wr_cnt_q <= wr_cnt_q + 16'd1;
        addr_q   <= addr_q + stride_q;
      end
      if (last_wr) busy_q <= 1'b0;
    end
  end

  wire unused_in_ready = fifo_in_ready;  // room is reserved before each read
  cc_fifo #(.Width(Lw*32), .Depth(FifoDepth), .FallThrough(1)) u_fifo (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (start_i),
    .in_valid_i (pend_q),
    .in_ready_o (fifo_in_ready),
    .in_data_i  (rdata_i),
    .out_valid_o(req_valid_o),
    .out_ready_i(req_ready_i),
    .out_data_o (req_data_o),
    .count_o    (fifo_cnt)
  );

  assign busy_o      = busy_q;
  assign req_addr_o  = addr_q;
  assign req_words_o = w_q;

endmodule

`default_nettype wire
