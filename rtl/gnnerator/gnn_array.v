////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_array.v
//
// Purpose:   The R x C systolic array of gnn_pe. Row r takes its a operand and control at the
//            left edge (a_i lane r, already skewed by the caller), column c its v operand at the
//            top (v_i lane c). v_o is the bottom row's v register (WS/IS partial sums), and
//            drain_o the OS results of column drain_col_i (one word per row): the drain reads
//            one column a cycle while the next fold runs.
//
// Parameters:
//   Rows, Cols   array size R x C
//   PeMode       gnn_pe Mode: 0 every dataflow; 1 OS only; 2 WS/IS only (area study)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_array #(
  parameter integer Rows = 1,
  parameter integer Cols = 1,
  parameter integer PeMode = 0
) (
  input  wire                      clk_i,
  input  wire                      rst_ni,
  input  wire                      os_i,
  input  wire                      mac_i,
  input  wire                      latch_i,
  input  wire [Rows-1:0]           row_en_i,
  input  wire [Rows*32-1:0]        a_i,
  input  wire [Rows*3-1:0]         ctl_i,
  input  wire [Cols*32-1:0]        v_i,
  output wire [Cols*32-1:0]        v_o,
  input  wire [((Cols > 1) ? $clog2(Cols) : 1)-1:0] drain_col_i,
  output wire [Rows*32-1:0]        drain_o
);

  // Horizontal and vertical links: a_h[r][c] enters PE(r,c) from the left; v_v[r][c] enters it
  // from the top. Flattened: index r*(Cols+1)+c and r*Cols+c.
  wire [31:0] a_h   [0:Rows*(Cols+1)-1];
  wire [2:0]  ctl_h [0:Rows*(Cols+1)-1];
  wire [31:0] v_v   [0:(Rows+1)*Cols-1];
  wire [31:0] res   [0:Rows*Cols-1];

  localparam integer ColW = (Cols > 1) ? $clog2(Cols) : 1;
  wire [31:0] drain_col = {{(32-ColW){1'b0}}, drain_col_i};

  genvar r, c;
  generate
    for (r = 0; r < Rows; r = r + 1) begin : gen_left
      assign a_h[r*(Cols+1)]   = a_i[r*32 +: 32];
      assign ctl_h[r*(Cols+1)] = ctl_i[r*3 +: 3];
    end
    for (c = 0; c < Cols; c = c + 1) begin : gen_top
      assign v_v[c]                 = v_i[c*32 +: 32];
      assign v_o[c*32 +: 32]        = v_v[Rows*Cols + c];
    end
    for (r = 0; r < Rows; r = r + 1) begin : gen_row
      for (c = 0; c < Cols; c = c + 1) begin : gen_col
        gnn_pe #(.Mode(PeMode)) u_pe (
          .clk_i   (clk_i),
          .rst_ni  (rst_ni),
          .os_i    (os_i),
          .mac_i   (mac_i),
          .latch_i (latch_i),
          .row_en_i(row_en_i[r]),
          .a_l_i   (a_h[r*(Cols+1) + c]),
          .ctl_l_i (ctl_h[r*(Cols+1) + c]),
          .v_t_i   (v_v[r*Cols + c]),
          .a_o     (a_h[r*(Cols+1) + c + 1]),
          .ctl_o   (ctl_h[r*(Cols+1) + c + 1]),
          .v_o     (v_v[(r+1)*Cols + c]),
          .out_o   (res[r*Cols + c])
        );
      end
      assign drain_o[r*32 +: 32] = res[r*Cols + drain_col];
    end
  endgenerate

endmodule

`default_nettype wire
