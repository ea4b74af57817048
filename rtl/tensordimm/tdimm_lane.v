////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_lane.v
//
// Purpose:   One 32-bit lane of the NMP core's vector ALU (combinational): the REDUCE sub-ops
//            and the AVERAGE accumulation step.
//              avg_i = 0 (REDUCE): r = a op b; fp32 add/sub/mul correctly rounded (RNE), max/min
//                                  IEEE maximumNumber/minimumNumber (fp_cmp: -0 < +0, one NaN
//                                  gives the other operand); int32 add/sub/mul wrapping (low 32
//                                  bits), max/min signed
//              avg_i = 1 (AVERAGE): r = a + b (a the running sum, b the input block's lane)
//            Float NaN results are the canonical quiet NaN (the float units'). Flags are not
//            architectural and are dropped.
//
// Parameters: none
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module tdimm_lane (
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [3:0]  subop_i,   // TDIMM_SUB_*
  input  wire [1:0]  type_i,    // TDIMM_T_FP32 / TDIMM_T_INT32
  input  wire        avg_i,
  output reg  [31:0] r_o
);
  localparam [3:0] TdimmSubAdd = 4'd0, TdimmSubSub = 4'd1, TdimmSubMul = 4'd2,
                   TdimmSubMax = 4'd3;
  localparam [1:0] TdimmTInt32 = 2'd1;
  localparam [2:0] FpRne = 3'd0, FpCmpMin = 3'd3, FpCmpMax = 3'd4;

  wire        unused_rdy0, unused_rdy1, unused_rdy2, unused_vld0, unused_vld1, unused_vld2;
  wire [4:0]  unused_flags0, unused_flags1, unused_flags2;
  wire [31:0] f_add, f_mul, f_cmp;
  wire        sub = !avg_i && subop_i == TdimmSubSub;

  fp_add #(.ExpW(8), .ManW(23), .Latency(0)) u_add (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_rdy0),
    .a_i        (a_i),
    .b_i        (b_i),
    .sub_i      (sub),
    .rm_i       (FpRne),
    .out_valid_o(unused_vld0),
    .out_ready_i(1'b1),
    .result_o   (f_add),
    .flags_o    (unused_flags0)
  );

  fp_mul #(.ExpW(8), .ManW(23), .Latency(0)) u_mul (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_rdy1),
    .a_i        (a_i),
    .b_i        (b_i),
    .rm_i       (FpRne),
    .out_valid_o(unused_vld1),
    .out_ready_i(1'b1),
    .result_o   (f_mul),
    .flags_o    (unused_flags1)
  );

  fp_cmp #(.ExpW(8), .ManW(23), .Latency(0)) u_cmp (
    .clk_i      (1'b0),
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_rdy2),
    .a_i        (a_i),
    .b_i        (b_i),
    .op_i       (subop_i == TdimmSubMax ? FpCmpMax : FpCmpMin),
    .out_valid_o(unused_vld2),
    .out_ready_i(1'b1),
    .result_o   (f_cmp),
    .flags_o    (unused_flags2)
  );

  wire [31:0] i_add = a_i + b_i;
  wire [31:0] i_sub = a_i - b_i;
  wire [31:0] i_mul = a_i * b_i;                       // low 32 bits: wrapping
  wire        a_lt  = $signed(a_i) < $signed(b_i);
  wire [31:0] i_max = a_lt ? b_i : a_i;
  wire [31:0] i_min = a_lt ? a_i : b_i;

  always @* begin
    if (type_i == TdimmTInt32) begin
      if (avg_i) r_o = i_add;
      else case (subop_i)
        TdimmSubAdd: r_o = i_add;
        TdimmSubSub: r_o = i_sub;
        TdimmSubMul: r_o = i_mul;
        TdimmSubMax: r_o = i_max;
        default:     r_o = i_min;
      endcase
    end else begin
      if (avg_i) r_o = f_add;
      else case (subop_i)
        TdimmSubAdd, TdimmSubSub: r_o = f_add;
        TdimmSubMul:              r_o = f_mul;
        default:                  r_o = f_cmp;
      endcase
    end
  end
endmodule
`default_nettype wire
