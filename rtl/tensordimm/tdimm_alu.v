////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_alu.v
//
// Purpose:   The NMP core's 16-lane vector ALU. It takes one work item per output block from the
//            address generator (the block's local write address) and the input blocks from the
//            heads of queues A and B, and pushes the result with its address into queue C:
//              GATHER   C = A (a bit copy)
//              REDUCE   C = A op B per lane (tdimm_lane)
//              AVERAGE  acc = +0 (int 0); acc = acc + A_j for j = 0..averageNum-1 in that order
//                       (one A block per cycle); then acc / averageNum in 16 tdimm_div_lane
//                       (the next output's sums accumulate while it divides)
//            An end item (error code, rows done) becomes a marker in C once every output of the
//            instruction has been pushed; the memory controller retires the instruction when the
//            marker reaches the head of C.
//            One block per cycle; AVERAGE outputs at most one per division time (about 27 cycles
//            for fp32, 33 for int32), so averageNum below that is ALU-bound (docs/tensordimm.md).
//
// Parameters:
//   LocalAw  log2 of the DIMM's capacity in 64-byte blocks
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module tdimm_alu #(
  parameter integer LocalAw = 16
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  // the current instruction (tdimm_agu)
  input  wire [3:0]         op_i,
  input  wire [3:0]         subop_i,
  input  wire [1:0]         type_i,
  input  wire [15:0]        avg_i,
  // work FIFO
  input  wire               wi_valid_i,
  output wire               wi_pop_o,
  input  wire               wi_end_i,
  input  wire [LocalAw-1:0] wi_addr_i,
  input  wire [3:0]         wi_err_i,
  input  wire [23:0]        wi_rows_i,
  // queues A and B (heads)
  input  wire               a_valid_i,
  input  wire [511:0]       a_data_i,
  output wire               a_pop_o,
  input  wire               b_valid_i,
  input  wire [511:0]       b_data_i,
  output wire               b_pop_o,
  // queue C (push)
  input  wire               c_full_i,
  output wire               c_push_o,
  output wire               c_marker_o,
  output wire [LocalAw-1:0] c_addr_o,
  output wire [511:0]       c_data_o,
  output wire [3:0]         c_err_o,
  output wire [23:0]        c_rows_o
);
  localparam [3:0] TdimmOpGather = 4'd1, TdimmOpReduce = 4'd2, TdimmOpAverage = 4'd3;
  localparam [1:0] TdimmTInt32 = 2'd1;

  wire is_g = op_i == TdimmOpGather;
  wire is_r = op_i == TdimmOpReduce;
  wire is_a = op_i == TdimmOpAverage;

  reg [511:0]       acc_q;
  reg [15:0]        j_q;
  reg               div_busy_q;
  reg [LocalAw-1:0] div_addr_q;

  // averageNum as fp32 (exact): 2^e * 1.f with e the position of its leading one
  reg [31:0] avg_f;
  reg [38:0] avg_sh;
  integer e;
  always @* begin
    avg_f  = 32'd0;
    avg_sh = 39'd0;
    for (e = 0; e < 16; e = e + 1)
      if (avg_i[e]) begin
        avg_sh = {avg_i, 23'd0} >> e;
        avg_f  = {1'b0, 8'd127 + e[7:0], avg_sh[22:0]};
      end
  end

  // ---------------------------------------------------------------- lanes
  wire        first = j_q == 16'd0;
  wire [511:0] lane_r;
  wire [15:0]  d_idle, d_done;
  wire [511:0] d_q;
  wire         j_last = j_q == avg_i - 16'd1;
  wire         d_all_idle = &d_idle && !div_busy_q;
  wire         d_all_done = &d_done;
  wire         d_out   = div_busy_q && d_all_done && !c_full_i;
  wire         avg_acc = is_a && a_valid_i && !j_last;
  wire         avg_div = is_a && a_valid_i && j_last && wi_valid_i && !wi_end_i && d_all_idle;
  genvar l;
  generate
    for (l = 0; l < 16; l = l + 1) begin : gen_lane
      wire [31:0] x = is_a ? (first ? 32'd0 : acc_q[32*l +: 32]) : a_data_i[32*l +: 32];
      wire [31:0] y = is_a ? a_data_i[32*l +: 32] : b_data_i[32*l +: 32];
      tdimm_lane u_lane (
        .a_i    (x),
        .b_i    (y),
        .subop_i(subop_i),
        .type_i (type_i),
        .avg_i  (is_a),
        .r_o    (lane_r[32*l +: 32])
      );
      tdimm_div_lane u_div (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .start_i(avg_div),
        .idle_o (d_idle[l]),
        .int_i  (type_i == TdimmTInt32),
        .sum_i  (lane_r[32*l +: 32]),
        .avg_i  (avg_i),
        .avg_f_i(avg_f),
        .done_o (d_done[l]),
        .q_o    (d_q[32*l +: 32]),
        .ack_i  (d_out)
      );
    end
  endgenerate

  // ---------------------------------------------------------------- issue (one C push a cycle)
  wire blk      = wi_valid_i && !wi_end_i && !c_full_i && !d_out;
  wire g_go     = is_g && blk && a_valid_i;
  wire r_go     = is_r && blk && a_valid_i && b_valid_i;
  wire end_go   = wi_valid_i && wi_end_i && !div_busy_q && !c_full_i;

  assign wi_pop_o   = g_go || r_go || avg_div || end_go;
  assign a_pop_o    = g_go || r_go || avg_acc || avg_div;
  assign b_pop_o    = r_go;
  assign c_push_o   = d_out || g_go || r_go || end_go;
  assign c_marker_o = end_go && !d_out;
  assign c_addr_o   = d_out ? div_addr_q : wi_addr_i;
  assign c_data_o   = d_out ? d_q : g_go ? a_data_i : lane_r;
  assign c_err_o    = wi_err_i;
  assign c_rows_o   = wi_rows_i;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q      <= 512'd0;
      j_q        <= 16'd0;
      div_busy_q <= 1'b0;
      div_addr_q <= {LocalAw{1'b0}};
    end else begin
      if (avg_acc) begin
        acc_q <= lane_r;
        j_q   <= j_q + 16'd1;
      end
      if (avg_div) begin
        j_q        <= 16'd0;
        div_busy_q <= 1'b1;
        div_addr_q <= wi_addr_i;
      end else if (d_out) begin
        div_busy_q <= 1'b0;
      end
    end
  end
endmodule
`default_nettype wire
