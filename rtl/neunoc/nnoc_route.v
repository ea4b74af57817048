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
//   Cols, Rows  mesh size (routers), Cols * Rows >= 1
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module nnoc_route #(
  parameter Cols = 2,
  parameter Rows = 2,
  parameter XW   = (Cols > 1) ? $clog2(Cols) : 1,   // derived: column number width, do not set
  parameter YW   = (Rows > 1) ? $clog2(Rows) : 1    // derived: row number width, do not set
) (
  input  wire [XW-1:0]          x_i,     // this router's column
  input  wire [YW-1:0]          y_i,     // this router's row
  input  wire [Cols*Rows-1:0]   dst_i,
  output wire [4:0]             port_o,  // bit 0 local, 1 east, 2 west, 3 north, 4 south
  output wire [5*Cols*Rows-1:0] sub_o    // port p's destinations at [p*NR +: NR]
);

  localparam integer NR = Cols * Rows;

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
      // (nothing is west of column 0); Verilator's UNSIGNED/CMPCONST notes say just that.
      /* verilator lint_off UNSIGNED */
      /* verilator lint_off CMPCONST */
      assign mask_e[r] = Rx > x_i;
      assign mask_w[r] = Rx < x_i;
      assign mask_n[r] = Rx == x_i && Ry > y_i;
      assign mask_s[r] = Rx == x_i && Ry < y_i;
      /* verilator lint_on CMPCONST */
      /* verilator lint_on UNSIGNED */
    end
  endgenerate

  assign sub_o  = {dst_i & mask_s, dst_i & mask_n, dst_i & mask_w, dst_i & mask_e, dst_i & mask_l};
  assign port_o = {|(dst_i & mask_s), |(dst_i & mask_n), |(dst_i & mask_w), |(dst_i & mask_e),
                   |(dst_i & mask_l)};

endmodule
