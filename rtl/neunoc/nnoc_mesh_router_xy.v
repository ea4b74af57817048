////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_mesh_router_xy.v
//
// Purpose:   nnoc_mesh_router at a fixed position (X, Y) given as parameters, for stand-alone
//            synthesis: the position inputs become constants, so the route masks fold exactly
//            as they do inside a network (neunoc ties every router's position to constants).
//
// Parameters:
//   X, Y        the router's column and row
//   the rest    as nnoc_mesh_router
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module nnoc_mesh_router_xy #(
  parameter Cols      = 2,
  parameter Rows      = 2,
  parameter X         = 0,
  parameter Y         = 0,
  parameter V         = 2,
  parameter Depth     = 4,
  parameter FlitW     = 24,
  parameter SingleBit = 20,
  parameter VcW       = (V > 1) ? $clog2(V) : 1,       // derived: VC number width, do not set
  parameter XW        = (Cols > 1) ? $clog2(Cols) : 1, // derived: column number width, do not set
  parameter YW        = (Rows > 1) ? $clog2(Rows) : 1  // derived: row number width, do not set
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire [4:0]         in_valid_i,
  input  wire [5*VcW-1:0]   in_vc_i,
  input  wire [5*FlitW-1:0] in_flit_i,
  output wire [4:0]         in_credit_o,
  output wire [5*VcW-1:0]   in_credit_vc_o,
  output wire [4:0]         out_valid_o,
  output wire [5*VcW-1:0]   out_vc_o,
  output wire [5*FlitW-1:0] out_flit_o,
  input  wire [4:0]         out_credit_i,
  input  wire [5*VcW-1:0]   out_credit_vc_i,
  output wire               drop_o
);

  localparam [XW-1:0] XPos = X;
  localparam [YW-1:0] YPos = Y;

  nnoc_mesh_router #(.Cols(Cols), .Rows(Rows), .V(V), .Depth(Depth), .FlitW(FlitW),
                     .SingleBit(SingleBit)) u_router (
    .clk_i(clk_i), .rst_ni(rst_ni), .x_i(XPos), .y_i(YPos),
    .in_valid_i(in_valid_i), .in_vc_i(in_vc_i), .in_flit_i(in_flit_i),
    .in_credit_o(in_credit_o), .in_credit_vc_o(in_credit_vc_o),
    .out_valid_o(out_valid_o), .out_vc_o(out_vc_o), .out_flit_o(out_flit_o),
    .out_credit_i(out_credit_i), .out_credit_vc_i(out_credit_vc_i), .drop_o(drop_o));

endmodule
