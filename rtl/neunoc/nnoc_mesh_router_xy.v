////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_mesh_router_xy.v
//
// Purpose:   nnoc_mesh_router at a fixed position (X, Y) given as parameters, for stand-alone
//            synthesis: the position inputs become constants, so the route masks fold exactly
//            as they do inside a network (neunoc ties every router's position to constants).
//
// Parameters:
//   X, Y        the router's column (0 .. Cols-1) and row (0 .. Rows-1)
//   the rest    as nnoc_mesh_router (which checks them)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_mesh_router_xy #(
  parameter integer Cols      = 2,
  parameter integer Rows      = 2,
  parameter integer X         = 0,
  parameter integer Y         = 0,
  parameter integer V         = 2,
  parameter integer Depth     = 4,
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  parameter integer VaPerPort = 1,
  parameter integer TailFree  = 1,
  parameter integer SpecSa    = 1,
  parameter integer SaGreedy  = 1,
  parameter integer SaHold    = 1,
  parameter integer VcMost    = 1,
  parameter integer SaPrio    = 0,
  parameter integer SaPrioWait = 16,
  parameter integer DstCoord  = 0,
  // derived: do not set (a different value fails the build)
  parameter integer VcW       = (V > 1) ? $clog2(V) : 1,         // VC number width
  parameter integer XW        = (Cols > 1) ? $clog2(Cols) : 1,   // column number width
  parameter integer YW        = (Rows > 1) ? $clog2(Rows) : 1    // row number width
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire [NnocPorts-1:0]       in_valid_i,
  input  wire [NnocPorts*VcW-1:0]   in_vc_i,
  input  wire [NnocPorts*FlitW-1:0] in_flit_i,
  output wire [NnocPorts-1:0]       in_credit_o,
  output wire [NnocPorts*VcW-1:0]   in_credit_vc_o,
  output wire [NnocPorts-1:0]       out_valid_o,
  output wire [NnocPorts*VcW-1:0]   out_vc_o,
  output wire [NnocPorts*FlitW-1:0] out_flit_o,
  input  wire [NnocPorts-1:0]       out_credit_i,
  input  wire [NnocPorts*VcW-1:0]   out_credit_vc_i,
  output wire                       drop_o
);

  localparam integer NnocPorts = 5;   // NNOC_PORTS of cmodel/include/neunoc.h
  localparam [XW-1:0] XPos = X[XW-1:0];
  localparam [YW-1:0] YPos = Y[YW-1:0];

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (X < 0 || X > Cols - 1) begin : gen_check_x
      `CC_PARAM_FAIL(nnoc_mesh_router_xy__X_must_be_0_to_Cols_minus_1)
    end
    if (Y < 0 || Y > Rows - 1) begin : gen_check_y
      `CC_PARAM_FAIL(nnoc_mesh_router_xy__Y_must_be_0_to_Rows_minus_1)
    end
  endgenerate

  nnoc_mesh_router #(.Cols(Cols), .Rows(Rows), .V(V), .Depth(Depth), .FlitW(FlitW),
                     .SingleBit(SingleBit), .VaPerPort(VaPerPort), .TailFree(TailFree),
                     .SpecSa(SpecSa), .SaGreedy(SaGreedy), .SaHold(SaHold),
                     .VcMost(VcMost), .SaPrio(SaPrio), .SaPrioWait(SaPrioWait), .DstCoord(DstCoord)) u_router (
    .clk_i(clk_i), .rst_ni(rst_ni), .x_i(XPos), .y_i(YPos),
    .in_valid_i(in_valid_i), .in_vc_i(in_vc_i), .in_flit_i(in_flit_i),
    .in_credit_o(in_credit_o), .in_credit_vc_o(in_credit_vc_o),
    .out_valid_o(out_valid_o), .out_vc_o(out_vc_o), .out_flit_o(out_flit_o),
    .out_credit_i(out_credit_i), .out_credit_vc_i(out_credit_vc_i), .drop_o(drop_o));

endmodule
