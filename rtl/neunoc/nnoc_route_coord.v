////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_route_coord.v
//
// Purpose:   XY unicast route of one mesh router from a head's destination coordinates
//            (combinational; the networks built with DstCoord = 1, cmodel/include/neunoc.h). The
//            head names one destination router (x, y); seen from router (X, Y) it leaves by
//              east  : x > X             west : x < X
//              north : x = X, y > Y      south: x = X, y < Y
//              local : x = X, y = Y
//            Coordinates off the mesh (x >= Cols or y >= Rows) select no port, as an empty
//            destination string does in nnoc_route: the router drops the packet (nnoc_pe_guard
//            never lets such a head in). The head travels unchanged: a unicast packet has nothing
//            to split, so this route needs no per-port destination subsets.
//
// Parameters:
//   Cols, Rows  mesh size (routers), each >= 1
//   the rest    derived widths, do not set (a different value fails the build)
//
//            Ports are numbered as in cmodel/include/neunoc.h (NNOC_PORT_L = NnocPortL, ...).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_route_coord #(
  parameter integer Cols = 2,
  parameter integer Rows = 2,
  // derived: do not set (a different value fails the build)
  parameter integer XW   = (Cols > 1) ? $clog2(Cols) : 1,        // column number width
  parameter integer YW   = (Rows > 1) ? $clog2(Rows) : 1         // row number width
) (
  input  wire [XW-1:0]        x_i,     // this router's column
  input  wire [YW-1:0]        y_i,     // this router's row
  input  wire [XW+YW-1:0]     dst_i,   // the destination: column in [XW-1:0], row above
  output wire [NnocPorts-1:0] port_o   // one-hot (or zero): bit 0 local, 1 east, 2 west, 3 north, 4 south
);

  localparam integer NnocPorts = 5;   // NNOC_PORTS: L, E, W, N, S in that order
  localparam integer LastColI = Cols - 1;
  localparam integer LastRowI = Rows - 1;
  localparam [XW-1:0] LastCol = LastColI[XW-1:0];
  localparam [YW-1:0] LastRow = LastRowI[YW-1:0];

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Cols < 1) begin : gen_check_cols
      `CC_PARAM_FAIL(nnoc_route_coord__Cols_must_be_at_least_1)
    end
    if (Rows < 1) begin : gen_check_rows
      `CC_PARAM_FAIL(nnoc_route_coord__Rows_must_be_at_least_1)
    end
    if (XW != ((Cols > 1) ? $clog2(Cols) : 1) ||
        YW != ((Rows > 1) ? $clog2(Rows) : 1)) begin : gen_check_xw_yw
      `CC_PARAM_FAIL(nnoc_route_coord__XW_and_YW_are_derived_and_must_not_be_set)
    end
  endgenerate

  wire [XW-1:0] dx = dst_i[XW-1:0];
  wire [YW-1:0] dy = dst_i[XW +: YW];
  // With Cols or Rows a power of two the bound is the field's maximum, so the comparison is
  // constant by design (rtl/neunoc/lint.vlt waives Verilator's note on it).
  wire on_mesh = dx <= LastCol && dy <= LastRow;

  assign port_o = on_mesh ? {dx == x_i && dy < y_i, dx == x_i && dy > y_i, dx < x_i, dx > x_i,
                             dx == x_i && dy == y_i}
                          : {NnocPorts{1'b0}};

endmodule
