////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_lzc.v
//
// Purpose:   Combinational leading-zero counter: cnt_o is the number of zero bits above the most
//            significant one of in_i (counted from bit Width-1 down), Width when in_i is zero;
//            zero_o flags in_i == 0. Used for float normalization and priority encoding.
//
//            Structure: a balanced binary tree, log2 deep, so it synthesizes to a short mux tree
//            instead of a Width-deep priority chain. The input is padded on the LSB side to
//            P = 2^$clog2(Width+1) leaves with a single one just below in_i[0] (then zeros), so
//            the padded vector always holds a one, the count of an all-zero input comes out as
//            Width without a special case, and non-power-of-two Widths need no other handling.
//            Synthesis folds the constant padding away.
//
//            Tree nodes are numbered like a heap: node 1 is the root, node k has children 2k
//            (the more significant half) and 2k+1, leaves are nodes P..2P-1 (P is the MSB of the
//            padded vector). Each inner node covering 2*H leaves produces
//              v = v(left) | v(right)                     (the subtree holds a one)
//              c = v(left) ? c(left) : H | c(right)       (its leading zeros; c(right) < H)
//
// Parameters:
//   Width    input bits (>= 1, any value); cnt_o has $clog2(Width+1) bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_lzc #(
  parameter integer Width = 16
) (
  input  wire [Width-1:0]           in_i,
  output wire [$clog2(Width+1)-1:0] cnt_o,
  output wire                       zero_o
);

  localparam integer Levels = $clog2(Width + 1);   // tree depth, also the count width
  localparam integer Leaves = 1 << Levels;         // P in the description above, > Width

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Width < 1) begin : gen_check_width
      `CC_PARAM_FAIL(cc_lzc__Width_must_be_at_least_1)
    end
  endgenerate

  generate
    if (Width == 1) begin : gen_bit
      // One bit needs no tree (and a 1-bit count vector cannot be split below).
      assign cnt_o = ~in_i;
    end else begin : gen_tree
      // v of nodes 2..2P-1 (the root's v is always 1 and not built); c of inner nodes 1..P-1.
      // v and c are split into bits for Verilator (rtl/common/lint.vlt, split_var): the tree only
      // looks circular at whole-vector granularity.
      wire [2*Leaves-1:2]           v;
      wire [Leaves*Levels-1:Levels] c;

      genvar d, j;
      // Leaves: in_i MSB first, then a one, then zeros.
      for (j = 0; j < Leaves; j = j + 1) begin : gen_leaf
        if (j < Width) begin : gen_in
          assign v[Leaves+j] = in_i[Width-1-j];
        end else if (j == Width) begin : gen_one
          assign v[Leaves+j] = 1'b1;
        end else begin : gen_zero
          assign v[Leaves+j] = 1'b0;
        end
      end

      for (d = 0; d < Levels; d = d + 1) begin : gen_level
        for (j = 0; j < (1 << d); j = j + 1) begin : gen_node
          localparam integer      Node    = (1 << d) + j;
          localparam integer      HalfInt = Leaves >> (d + 1);   // leaves under each child
          localparam [Levels-1:0] Half    = HalfInt[Levels-1:0];

          wire [Levels-1:0] c_left;
          wire [Levels-1:0] c_right;
          if (d == Levels - 1) begin : gen_bottom
            // Children are leaves: a leaf has no leading zeros below it.
            assign c_left  = {Levels{1'b0}};
            assign c_right = {Levels{1'b0}};
          end else begin : gen_inner
            assign c_left  = c[2*Node*Levels +: Levels];
            assign c_right = c[(2*Node+1)*Levels +: Levels];
          end

          assign c[Node*Levels +: Levels] = v[2*Node] ? c_left : (Half | c_right);
          if (Node > 1) begin : gen_v
            assign v[Node] = v[2*Node] | v[2*Node+1];
          end
        end
      end

      // The root only looks at its left child's v; the right child's v (node 3) feeds nothing.
      wire unused_v3 = v[3];

      assign cnt_o = c[Levels +: Levels];
    end
  endgenerate

  assign zero_o = ~|in_i;

endmodule

`default_nettype wire
