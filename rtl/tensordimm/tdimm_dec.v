////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_dec.v
//
// Purpose:   TensorISA decoder and static checker (combinational). Splits a 160-bit instruction
//            into its fields, turns the global bases into this core's local block addresses
//            (base >> log2(nodeDim)) and finds the first error that can be known before any
//            access, in the order of docs/tensordimm.md "Errors": OPCODE, SUBOP, TYPE, FIELD,
//            AVGNUM, ALIGN, then (count > 0 only) CAPACITY, WINDOW and OVERLAP over every
//            contiguous range of the op (REDUCE: in1, in2, out; AVERAGE: in, out; GATHER: the
//            index list and out). GATHER table rows are checked one at a time by tdimm_agu.
//            Ranges are computed in RangeW = 50 bits, so nothing overflows
//            (count * k * averageNum < 2^48, bases < 2^32).
//
// Parameters:
//   LocalAw  log2 of the DIMM's capacity in 64-byte blocks (12..27)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module tdimm_dec #(
  parameter integer LocalAw = 16
) (
  input  wire [159:0]     insn_i,
  input  wire [2:0]       nd_log2_i,     // log2(nodeDim)
  input  wire [LocalAw:0] win_base_i,    // protection window [base, limit) in local blocks
  input  wire [LocalAw:0] win_limit_i,
  output reg  [3:0]       err_o,         // TDIMM_E_* or 0
  output wire [3:0]       op_o,
  output wire [3:0]       subop_o,
  output wire [1:0]       type_o,
  output wire [7:0]       k_o,
  output wire [15:0]      avg_o,         // averageNum (AVERAGE)
  output wire [23:0]      count_o,       // rows
  output wire [31:0]      in1_o,         // local: tableBase / inputBase1 / inputBase
  output wire [31:0]      in2_o,         // local: idxBase / inputBase2
  output wire [31:0]      out_o,         // local: outputBase
  output wire [31:0]      nblk_o,        // output blocks: count * k
  output wire [20:0]      nidx_o         // GATHER index blocks: ceil(count / 16)
);
  // Opcodes, sub-ops, types and error codes of cmodel/include/tensordimm.h.
  localparam [3:0] TdimmOpGather = 4'd1, TdimmOpReduce = 4'd2, TdimmOpAverage = 4'd3;
  localparam [3:0] TdimmSubMin = 4'd4;
  localparam [3:0] TdimmEOpcode = 4'd1, TdimmESubop = 4'd2, TdimmEType = 4'd3,
                   TdimmEField = 4'd4, TdimmEAvgnum = 4'd5, TdimmEAlign = 4'd6,
                   TdimmECapacity = 4'd7, TdimmEWindow = 4'd8, TdimmEOverlap = 4'd9;
  localparam integer RangeW = 50;

  generate
    if (LocalAw < 12 || LocalAw > 27) begin : gen_check_local_aw
      `CC_PARAM_FAIL(tdimm_dec__LocalAw_must_be_12_to_27)
    end
  endgenerate

  wire [31:0] w0 = insn_i[31:0];
  wire [31:0] w1 = insn_i[63:32];
  wire [31:0] w2 = insn_i[95:64];
  wire [31:0] w3 = insn_i[127:96];
  wire [31:0] w4 = insn_i[159:128];

  assign op_o    = w0[3:0];
  assign subop_o = w0[7:4];
  assign type_o  = w0[9:8];
  assign k_o     = w0[23:16];
  assign avg_o   = w2[15:0];
  assign count_o = w4[23:0];

  wire is_g = op_o == TdimmOpGather;
  wire is_r = op_o == TdimmOpReduce;
  wire is_a = op_o == TdimmOpAverage;

  wire rsvd = |w0[15:10] || |w0[31:24];
  wire [31:0] nd_mask = (32'd1 << nd_log2_i) - 32'd1;
  wire align_bad = |(w1 & nd_mask) || (!is_a && |(w2 & nd_mask)) || |(w3 & nd_mask);

  assign in1_o = w1 >> nd_log2_i;
  assign in2_o = w2 >> nd_log2_i;
  assign out_o = w3 >> nd_log2_i;
  assign nblk_o = {8'd0, count_o} * {24'd0, k_o};
  assign nidx_o = {1'b0, count_o[23:4]} + {20'd0, |count_o[3:0]};

  // Range lengths: in1 is the AVERAGE input (count * k * averageNum) or REDUCE input 1; in2 the
  // REDUCE input 2 or the GATHER index list. Everything zero-extended to RangeW bits.
  wire [RangeW-1:0] nblk_x = {{(RangeW-32){1'b0}}, nblk_o};
  wire [RangeW-1:0] avg_x  = {{(RangeW-16){1'b0}}, avg_o};
  wire [RangeW-1:0] nidx_x = {{(RangeW-21){1'b0}}, nidx_o};
  wire [RangeW-1:0] out_len = nblk_x;
  wire [RangeW-1:0] in1_len = is_a ? nblk_x * avg_x : nblk_x;
  wire [RangeW-1:0] in2_len = is_g ? nidx_x : nblk_x;
  wire [RangeW-1:0] in1_s = {{(RangeW-32){1'b0}}, in1_o};
  wire [RangeW-1:0] in2_s = {{(RangeW-32){1'b0}}, in2_o};
  wire [RangeW-1:0] out_s = {{(RangeW-32){1'b0}}, out_o};
  wire [RangeW-1:0] in1_e = in1_s + in1_len, in2_e = in2_s + in2_len, out_e = out_s + out_len;
  wire use_in1 = is_r || is_a;
  wire use_in2 = is_r || is_g;

  wire [RangeW-1:0] cap = {{(RangeW-1){1'b0}}, 1'b1} << LocalAw;
  wire [RangeW-1:0] wb = {{(RangeW-LocalAw-1){1'b0}}, win_base_i};
  wire [RangeW-1:0] wl = {{(RangeW-LocalAw-1){1'b0}}, win_limit_i};
  wire cap_bad = out_e > cap || (use_in1 && in1_e > cap) || (use_in2 && in2_e > cap);
  wire win_bad = out_s < wb || out_e > wl || (use_in1 && (in1_s < wb || in1_e > wl)) ||
                 (use_in2 && (in2_s < wb || in2_e > wl));
  // Output against an input: any intersection, except equal starts (in place) for REDUCE and
  // AVERAGE inputs; the GATHER index list may not be overwritten at all.
  wire ov1 = use_in1 && out_s < in1_e && in1_s < out_e && out_s != in1_s;
  wire ov2 = use_in2 && out_s < in2_e && in2_s < out_e && (out_s != in2_s || is_g);

  always @* begin
    if (!is_g && !is_r && !is_a)                            err_o = TdimmEOpcode;
    else if ((is_r && subop_o > TdimmSubMin) || (!is_r && subop_o != 4'd0))
                                                            err_o = TdimmESubop;
    else if (type_o > 2'd1)                                 err_o = TdimmEType;
    else if (rsvd || k_o == 8'd0 || |w4[31:24])             err_o = TdimmEField;
    else if (is_a && (avg_o == 16'd0 || |w2[31:16]))        err_o = TdimmEAvgnum;
    else if (align_bad)                                     err_o = TdimmEAlign;
    else if (count_o == 24'd0)                              err_o = 4'd0;
    else if (cap_bad)                                       err_o = TdimmECapacity;
    else if (win_bad)                                       err_o = TdimmEWindow;
    else if (ov1 || ov2)                                    err_o = TdimmEOverlap;
    else                                                    err_o = 4'd0;
  end
endmodule
`default_nettype wire
