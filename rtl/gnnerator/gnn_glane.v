////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_glane.v
//
// Purpose:   One lane of a Graph Processing Element's stream convoy (cmodel/include/gnnerator.h,
//            GRUN): Apply unit a = pass x0 | fma(x0, 1.0, x1) (add) | fma(x0, x1, -0) (mul) |
//            fma(x0, m, -0) (mulm: m is the MF line's old value), out to the SFU pool
//            (gnn_sfu, through gnn_gex's crossbar), whose f comes back to the
//            Reduce unit r = f (write) | m + f (sum,
//            as fma(m, 1.0, f): the same rounding as an add) | max(m, f) | min(m, f) (NaN in
//            either gives the canonical NaN; -0 < +0). Combinational: two fp32 fused
//            multiply-adds (fp_fma, Latency 0, round to nearest even, canonical NaN).
//
// Parameters: none.
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_glane (
  input  wire [1:0]  apply_i,
  input  wire [1:0]  red_i,
  input  wire [31:0] x0_i,
  input  wire [31:0] x1_i,
  input  wire [31:0] m_i,
  output wire [31:0] a_o,    // Apply's result, to the SFU (or straight back as f_i)
  input  wire [31:0] f_i,    // the SFU's result
  output wire [31:0] r_o
);

  localparam [31:0] One = 32'h3F80_0000, NegZero = 32'h8000_0000, QNaN = 32'h7FC0_0000;

  wire [31:0] ap_b = (apply_i == 2'd1) ? One : (apply_i == 2'd3) ? m_i : x1_i;
  wire [31:0] ap_c = (apply_i == 2'd1) ? x1_i : NegZero;
  wire [31:0] ap_res, sum_res;
  wire        unused_r0, unused_v0, unused_r1, unused_v1;
  wire [4:0]  unused_f0, unused_f1;  // no exception flags (docs/gnnerator.md)

  fp_fma #(.ExpW(8), .ManW(23), .Latency(0)) u_apply (
    .clk_i(1'b0), .rst_ni(1'b1), .in_valid_i(1'b1), .in_ready_o(unused_r0),
    .a_i(x0_i), .b_i(ap_b), .c_i(ap_c), .rm_i(3'd0),
    .out_valid_o(unused_v0), .out_ready_i(1'b1), .result_o(ap_res), .flags_o(unused_f0)
  );

  assign a_o = (apply_i == 2'd0) ? x0_i : ap_res;
  wire [31:0] f = f_i;

  fp_fma #(.ExpW(8), .ManW(23), .Latency(0)) u_reduce (
    .clk_i(1'b0), .rst_ni(1'b1), .in_valid_i(1'b1), .in_ready_o(unused_r1),
    .a_i(m_i), .b_i(One), .c_i(f), .rm_i(3'd0),
    .out_valid_o(unused_v1), .out_ready_i(1'b1), .result_o(sum_res), .flags_o(unused_f1)
  );

  // max / min: the order of the sign-magnitude codes (negative codes inverted)
  wire        f_nan = (f[30:23] == 8'hFF) && (f[22:0] != 23'd0);
  wire        m_nan = (m_i[30:23] == 8'hFF) && (m_i[22:0] != 23'd0);
  wire [31:0] kf = f[31] ? ~f : (f | NegZero);
  wire [31:0] km = m_i[31] ? ~m_i : (m_i | NegZero);
  wire        f_big = kf > km;
  wire [31:0] mx = (f_nan || m_nan) ? QNaN : (f_big ? f : m_i);
  wire [31:0] mn = (f_nan || m_nan) ? QNaN : (f_big ? m_i : f);

  assign r_o = (red_i == 2'd0) ? f : (red_i == 2'd1) ? sum_res : (red_i == 2'd2) ? mx : mn;

endmodule

`default_nettype wire
