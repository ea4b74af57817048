////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_all_top.v  (harness top of the vector checker, not part of the library)
//
// Purpose:   fp_units_top for fp16, bfloat16 and fp32 behind one port list; fmt_i (0 fp16,
//            1 bf16, 2 fp32) routes the valids and readies to one format and selects its
//            outputs, so one binary checks any operation of any format.
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fp_all_top (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire [1:0]    fmt_i,
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

  wire [10:0]  ready   [0:2];
  wire [10:0]  valid   [0:2];
  wire [351:0] result  [0:2];
  wire [54:0]  flags   [0:2];

  // fp16 converts to fp32 and bf16; bf16 to fp32 and fp16; fp32 to fp16 and bf16.
  fp_units_top #(.ExpW(5), .ManW(10), .X1ExpW(8), .X1ManW(23), .X2ExpW(8), .X2ManW(7)) u_f16 (
    .clk_i, .rst_ni, .in_valid_i(fmt_i == 2'd0 ? in_valid_i : 11'd0), .in_ready_o(ready[0]),
    .a_i, .b_i, .c_i, .op_i, .rm_i, .out_valid_o(valid[0]),
    .out_ready_i(fmt_i == 2'd0 ? out_ready_i : 11'd0), .result_o(result[0]), .flags_o(flags[0]));
  fp_units_top #(.ExpW(8), .ManW(7), .X1ExpW(8), .X1ManW(23), .X2ExpW(5), .X2ManW(10)) u_bf16 (
    .clk_i, .rst_ni, .in_valid_i(fmt_i == 2'd1 ? in_valid_i : 11'd0), .in_ready_o(ready[1]),
    .a_i, .b_i, .c_i, .op_i, .rm_i, .out_valid_o(valid[1]),
    .out_ready_i(fmt_i == 2'd1 ? out_ready_i : 11'd0), .result_o(result[1]), .flags_o(flags[1]));
  fp_units_top #(.ExpW(8), .ManW(23), .X1ExpW(5), .X1ManW(10), .X2ExpW(8), .X2ManW(7)) u_f32 (
    .clk_i, .rst_ni, .in_valid_i(fmt_i == 2'd2 ? in_valid_i : 11'd0), .in_ready_o(ready[2]),
    .a_i, .b_i, .c_i, .op_i, .rm_i, .out_valid_o(valid[2]),
    .out_ready_i(fmt_i == 2'd2 ? out_ready_i : 11'd0), .result_o(result[2]), .flags_o(flags[2]));

  wire [1:0] sel = (fmt_i == 2'd3) ? 2'd2 : fmt_i;   // 3 is not a format; reads as fp32
  assign in_ready_o  = ready[sel];
  assign out_valid_o = valid[sel];
  assign result_o    = result[sel];
  assign flags_o     = flags[sel];

endmodule

`default_nettype wire
