////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_route.v
//
// Purpose:   XY multicast route of one mesh router (combinational). A head's destination bit
//            string dst_i (bit r = mesh router r = y * Cols + x) is split into the destinations
//            each output port serves under XY routing, seen from router (X, Y):
//              east  : routers in columns x > X          west : columns x < X
//              north : column X, rows y > Y              south: column X, rows y < Y
//              local : router (X, Y) itself
//            port_o[p] is set when port p serves at least one destination. The copy a port sends
//            carries only that port's destinations (sub_o), so no branch of the multicast tree
//            ever turns back to a destination another branch serves: every destination is
//            reached exactly once. The router's position comes in on x_i/y_i (tied to constants
//            in a network, so synthesis folds the masks into AND/OR logic; as ports they let
//            every router of a mesh be one module, which Verilator compiles once).
//
// Parameters:
//   Cols, Rows  mesh size (routers), each >= 1
//
//            Ports are numbered as in cmodel/include/neunoc.h (NNOC_PORT_L = NnocPortL, ...).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_route #(
  parameter integer Cols = 2,
  parameter integer Rows = 2,
  // derived: do not set (a different value fails the build)
  parameter integer XW   = (Cols > 1) ? $clog2(Cols) : 1,        // column number width
  parameter integer YW   = (Rows > 1) ? $clog2(Rows) : 1         // row number width
) (
  input  wire [XW-1:0]          x_i,     // this router's column
  input  wire [YW-1:0]          y_i,     // this router's row
  input  wire [Cols*Rows-1:0]   dst_i,
  output wire [NnocPorts-1:0]           port_o,  // bit 0 local, 1 east, 2 west, 3 north, 4 south
  output wire [NnocPorts*Cols*Rows-1:0] sub_o    // port p's destinations at [p*NR +: NR]
);

  localparam integer NnocPorts = 5;   // NNOC_PORTS: L, E, W, N, S in that order
  localparam integer NR = Cols * Rows;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Cols < 1) begin : gen_check_cols
      `CC_PARAM_FAIL(nnoc_route__Cols_must_be_at_least_1)
    end
    if (Rows < 1) begin : gen_check_rows
      `CC_PARAM_FAIL(nnoc_route__Rows_must_be_at_least_1)
    end
    if (XW != ((Cols > 1) ? $clog2(Cols) : 1) ||
        YW != ((Rows > 1) ? $clog2(Rows) : 1)) begin : gen_check_xw_yw
      `CC_PARAM_FAIL(nnoc_route__XW_and_YW_are_derived_and_must_not_be_set)
    end
  endgenerate

  wire [NR-1:0] mask_l, mask_e, mask_w, mask_n, mask_s;

  genvar r;
  generate
    for (r = 0; r < NR; r = r + 1) begin : gen_mask
      localparam integer RxI = r % Cols;
      localparam integer RyI = r / Cols;
      localparam [XW-1:0] Rx = RxI[XW-1:0];
      localparam [YW-1:0] Ry = RyI[YW-1:0];
      assign mask_l[r] = Rx == x_i && Ry == y_i;
      // The comparisons against column/row 0 or the last column/row are constant by design
      // (nothing is west of column 0): rtl/neunoc/lint.vlt waives Verilator's UNSIGNED and
      // CMPCONST notes on them.
      assign mask_e[r] = Rx > x_i;
      assign mask_w[r] = Rx < x_i;
      assign mask_n[r] = Rx == x_i && Ry > y_i;
      assign mask_s[r] = Rx == x_i && Ry < y_i;
    end
  endgenerate

  assign sub_o  = {dst_i & mask_s, dst_i & mask_n, dst_i & mask_w, dst_i & mask_e, dst_i & mask_l};
  assign port_o = {|(dst_i & mask_s), |(dst_i & mask_n), |(dst_i & mask_w), |(dst_i & mask_e),
                   |(dst_i & mask_l)};

endmodule
