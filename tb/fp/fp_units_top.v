////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_units_top.v  (harness top, not part of the library)
//
// Purpose:   Every float unit of rtl/common for one format (ExpW, ManW), side by side with its own
//            valid/ready pair, so one Verilator model co-simulates all of them. Operands are
//            shared (the harness drives one unit at a time), results are 32-bit right-aligned.
//
//            unit  module                         op_i
//              0   fp_add      Latency 2          [0] subtract
//              1   fp_mul      Latency 2
//              2   fp_fma      Latency 3
//              3   fp_divsqrt  Iterative          [0] sqrt
//              4   fp_divsqrt  unrolled, Lat. 2   [0] sqrt
//              5   fp_cmp      Latency 1          compare/min/max code
//              6   fp_i2f      Latency 1          [0] signed
//              7   fp_f2i      Latency 1          [0] signed
//              8   fp_f2f      to (X1ExpW, X1ManW), Latency 1
//              9   fp_f2f      to (X2ExpW, X2ManW), Latency 0
//             10   fp_rti      Latency 1          [0] exact (NX when inexact)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fp_units_top #(
  parameter ExpW   = 8,
  parameter ManW   = 23,
  parameter X1ExpW = 5,
  parameter X1ManW = 10,
  parameter X2ExpW = 8,
  parameter X2ManW = 7
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire [10:0]   in_valid_i,
  output wire [10:0]   in_ready_o,
  input  wire [31:0]   a_i,
  input  wire [31:0]   b_i,
  input  wire [31:0]   c_i,
  input  wire [2:0]    op_i,
  input  wire [2:0]    rm_i,
  output wire [10:0]   out_valid_o,
  input  wire [10:0]   out_ready_i,
  output wire [351:0]  result_o,
  output wire [54:0]   flags_o
);

  localparam integer W  = ExpW + ManW + 1;
  localparam integer W1 = X1ExpW + X1ManW + 1;
  localparam integer W2 = X2ExpW + X2ManW + 1;

  wire [W-1:0]  a = a_i[W-1:0];
  wire [W-1:0]  b = b_i[W-1:0];
  wire [W-1:0]  c = c_i[W-1:0];
  wire [W-1:0]  res [0:7];
  wire [W-1:0]  res_rti;
  wire [W1-1:0] res_x1;
  wire [W2-1:0] res_x2;
  wire [31:0]   res_int;
  wire          unused_res7 = ^res[7];
  generate
    if (W < 32) begin : gen_unused
      wire unused_hi = ^{a_i[31:W], b_i[31:W], c_i[31:W]};
    end
  endgenerate

  fp_add #(.ExpW(ExpW), .ManW(ManW), .Latency(2)) u_add (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[0]), .in_ready_o(in_ready_o[0]),
    .a_i(a), .b_i(b), .sub_i(op_i[0]), .rm_i,
    .out_valid_o(out_valid_o[0]), .out_ready_i(out_ready_i[0]), .result_o(res[0]),
    .flags_o(flags_o[0*5 +: 5]));
  fp_mul #(.ExpW(ExpW), .ManW(ManW), .Latency(2)) u_mul (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[1]), .in_ready_o(in_ready_o[1]),
    .a_i(a), .b_i(b), .rm_i,
    .out_valid_o(out_valid_o[1]), .out_ready_i(out_ready_i[1]), .result_o(res[1]),
    .flags_o(flags_o[1*5 +: 5]));
  fp_fma #(.ExpW(ExpW), .ManW(ManW), .Latency(3)) u_fma (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[2]), .in_ready_o(in_ready_o[2]),
    .a_i(a), .b_i(b), .c_i(c), .rm_i,
    .out_valid_o(out_valid_o[2]), .out_ready_i(out_ready_i[2]), .result_o(res[2]),
    .flags_o(flags_o[2*5 +: 5]));
  fp_divsqrt #(.ExpW(ExpW), .ManW(ManW), .Iterative(1)) u_divsqrt_iter (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[3]), .in_ready_o(in_ready_o[3]),
    .a_i(a), .b_i(b), .op_i(op_i[0]), .rm_i,
    .out_valid_o(out_valid_o[3]), .out_ready_i(out_ready_i[3]), .result_o(res[3]),
    .flags_o(flags_o[3*5 +: 5]));
  fp_divsqrt #(.ExpW(ExpW), .ManW(ManW), .Iterative(0), .Latency(2)) u_divsqrt_unrolled (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[4]), .in_ready_o(in_ready_o[4]),
    .a_i(a), .b_i(b), .op_i(op_i[0]), .rm_i,
    .out_valid_o(out_valid_o[4]), .out_ready_i(out_ready_i[4]), .result_o(res[4]),
    .flags_o(flags_o[4*5 +: 5]));
  fp_cmp #(.ExpW(ExpW), .ManW(ManW), .Latency(1)) u_cmp (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[5]), .in_ready_o(in_ready_o[5]),
    .a_i(a), .b_i(b), .op_i, .out_valid_o(out_valid_o[5]), .out_ready_i(out_ready_i[5]),
    .result_o(res[5]), .flags_o(flags_o[5*5 +: 5]));
  fp_i2f #(.ExpW(ExpW), .ManW(ManW), .Latency(1)) u_i2f (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[6]), .in_ready_o(in_ready_o[6]),
    .a_i, .signed_i(op_i[0]), .rm_i,
    .out_valid_o(out_valid_o[6]), .out_ready_i(out_ready_i[6]), .result_o(res[6]),
    .flags_o(flags_o[6*5 +: 5]));
  fp_f2i #(.ExpW(ExpW), .ManW(ManW), .Latency(1)) u_f2i (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[7]), .in_ready_o(in_ready_o[7]),
    .a_i(a), .signed_i(op_i[0]), .rm_i,
    .out_valid_o(out_valid_o[7]), .out_ready_i(out_ready_i[7]), .result_o(res_int),
    .flags_o(flags_o[7*5 +: 5]));
  fp_f2f #(.InExpW(ExpW), .InManW(ManW), .OutExpW(X1ExpW), .OutManW(X1ManW), .Latency(1)) u_f2f_x1 (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[8]), .in_ready_o(in_ready_o[8]),
    .a_i(a), .rm_i, .out_valid_o(out_valid_o[8]), .out_ready_i(out_ready_i[8]),
    .result_o(res_x1), .flags_o(flags_o[8*5 +: 5]));
  fp_f2f #(.InExpW(ExpW), .InManW(ManW), .OutExpW(X2ExpW), .OutManW(X2ManW), .Latency(0)) u_f2f_x2 (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[9]), .in_ready_o(in_ready_o[9]),
    .a_i(a), .rm_i, .out_valid_o(out_valid_o[9]), .out_ready_i(out_ready_i[9]),
    .result_o(res_x2), .flags_o(flags_o[9*5 +: 5]));

  fp_rti #(.ExpW(ExpW), .ManW(ManW), .Latency(1)) u_rti (
    .clk_i, .rst_ni, .in_valid_i(in_valid_i[10]), .in_ready_o(in_ready_o[10]),
    .a_i(a), .rm_i, .exact_i(op_i[0]), .out_valid_o(out_valid_o[10]),
    .out_ready_i(out_ready_i[10]), .result_o(res_rti), .flags_o(flags_o[10*5 +: 5]));

  assign res[7] = {W{1'b0}};
  // Results zero-extended to 32 bits.
  genvar u;
  generate
    for (u = 0; u < 11; u = u + 1) begin : gen_res
      localparam integer RW = (u == 7) ? 32 : (u == 8) ? W1 : (u == 9) ? W2 : W;
      wire [RW-1:0] r;
      if (u < 7) begin : gen_same
        assign r = res[u];
      end else if (u == 7) begin : gen_int
        assign r = res_int;
      end else if (u == 8) begin : gen_x1
        assign r = res_x1;
      end else if (u == 9) begin : gen_x2
        assign r = res_x2;
      end else begin : gen_rti
        assign r = res_rti;
      end
      if (RW < 32) begin : gen_pad
        assign result_o[u*32 +: 32] = {{(32-RW){1'b0}}, r};
      end else begin : gen_nopad
        assign result_o[u*32 +: 32] = r;
      end
    end
  endgenerate

endmodule

`default_nettype wire
