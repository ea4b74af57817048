////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_div_lane.v
//
// Purpose:   The division at the end of AVERAGE, one lane: q = sum / averageNum.
//              fp32:  fp_divsqrt (iterative, one quotient bit per cycle) by the fp32 value of
//                     averageNum (exact: averageNum < 2^16), correctly rounded (RNE)
//              int32: signed division truncating toward zero (C's '/'), by a restoring
//                     shift-subtract of |sum| by averageNum, 32 cycles, then the sign
//            Handshake: start_i while idle_o starts a division; done_o rises when the quotient
//            is ready and holds it (q_o) until ack_i. Flags are not architectural.
//
// Parameters: none
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module tdimm_div_lane (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        start_i,
  output wire        idle_o,
  input  wire        int_i,      // 1: int32, 0: fp32
  input  wire [31:0] sum_i,
  input  wire [15:0] avg_i,      // averageNum (>= 1)
  input  wire [31:0] avg_f_i,    // averageNum as fp32
  output wire        done_o,
  output wire [31:0] q_o,
  input  wire        ack_i
);
  localparam [2:0] FpRne = 3'd0;

  // ---------------------------------------------------------------- fp32
  wire        f_rdy, f_vld;
  wire [31:0] f_q;
  wire [4:0]  unused_flags;
  fp_divsqrt #(.ExpW(8), .ManW(23), .Iterative(1)) u_fdiv (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (start_i && !int_i),
    .in_ready_o (f_rdy),
    .a_i        (sum_i),
    .b_i        (avg_f_i),
    .op_i       (1'b0),
    .rm_i       (FpRne),
    .out_valid_o(f_vld),
    .out_ready_i(ack_i),
    .result_o   (f_q),
    .flags_o    (unused_flags)
  );

  // ---------------------------------------------------------------- int32
  reg        i_busy_q, i_done_q, neg_q;
  reg [5:0]  cnt_q;
  reg [31:0] dvd_q;      // dividend bits shifting out at the top, quotient bits in at the bottom
  reg [16:0] rem_q;
  reg [15:0] d_q;
  wire [16:0] trial = {rem_q[15:0], dvd_q[31]};
  wire        fits  = trial >= {1'b0, d_q};

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      i_busy_q <= 1'b0;
      i_done_q <= 1'b0;
      neg_q    <= 1'b0;
      cnt_q    <= 6'd0;
      dvd_q    <= 32'd0;
      rem_q    <= 17'd0;
      d_q      <= 16'd0;
    end else if (start_i && int_i) begin
      i_busy_q <= 1'b1;
      neg_q    <= sum_i[31];
      dvd_q    <= sum_i[31] ? 32'd0 - sum_i : sum_i;   // |INT32_MIN| = 2^31 fits unsigned
      rem_q    <= 17'd0;
      d_q      <= avg_i;
      cnt_q    <= 6'd0;
    end else if (i_busy_q) begin
      rem_q <= fits ? trial - {1'b0, d_q} : trial;
      dvd_q <= {dvd_q[30:0], fits};
      cnt_q <= cnt_q + 6'd1;
      if (cnt_q == 6'd31) begin
        i_busy_q <= 1'b0;
        i_done_q <= 1'b1;
      end
    end else if (i_done_q && ack_i) begin
      i_done_q <= 1'b0;
    end
  end
  wire [31:0] i_q = neg_q ? 32'd0 - dvd_q : dvd_q;

  assign idle_o = f_rdy && !f_vld && !i_busy_q && !i_done_q;
  assign done_o = f_vld || i_done_q;
  assign q_o    = i_done_q ? i_q : f_q;
  wire unused_ok = &{1'b0, rem_q[16]};
endmodule
`default_nettype wire
