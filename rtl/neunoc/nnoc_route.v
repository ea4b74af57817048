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
//            reached exactly once. The masks are constants of (X, Y), so this is AND/OR logic.
//
// Parameters:
//   Cols, Rows  mesh size (routers), Cols * Rows >= 1
//   X, Y        this router's column and row
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module nnoc_route #(
  parameter Cols = 2,
  parameter Rows = 2,
  parameter X    = 0,
  parameter Y    = 0
) (
  input  wire [Cols*Rows-1:0]   dst_i,
  output wire [4:0]             port_o,  // bit 0 local, 1 east, 2 west, 3 north, 4 south
  output wire [5*Cols*Rows-1:0] sub_o    // port p's destinations at [p*NR +: NR]
);

  localparam integer NR = Cols * Rows;

  wire [NR-1:0] mask_l, mask_e, mask_w, mask_n, mask_s;

  genvar r;
  generate
    for (r = 0; r < NR; r = r + 1) begin : gen_mask
      assign mask_l[r] = (r % Cols) == X && (r / Cols) == Y;
      assign mask_e[r] = (r % Cols) > X;
      assign mask_w[r] = (r % Cols) < X;
      assign mask_n[r] = (r % Cols) == X && (r / Cols) > Y;
      assign mask_s[r] = (r % Cols) == X && (r / Cols) < Y;
    end
  endgenerate

  assign sub_o  = {dst_i & mask_s, dst_i & mask_n, dst_i & mask_w, dst_i & mask_e, dst_i & mask_l};
  assign port_o = {|(dst_i & mask_s), |(dst_i & mask_n), |(dst_i & mask_w), |(dst_i & mask_e),
                   |(dst_i & mask_l)};

endmodule
