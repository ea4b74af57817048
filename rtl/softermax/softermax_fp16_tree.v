`default_nettype none
// softermax_fp16_tree -- fixed-order reduction tree of N fp16 values: the max or the sum.
//
// Purpose: the reductions of the fp16 softmax baseline. Float addition is not associative, so
//   the order is part of the definition (the C model, smx16_max_tree / smx16_sum_tree, follows
//   it): level by level, element 2i is combined with element 2i+1 (op(v[2i], v[2i+1]), lane 2i
//   as the first operand) and an odd last element passes to the next level unchanged; $clog2(N)
//   levels. For N = 16 that is ((v0+v1)+(v2+v3))+((v4+v5)+(v6+v7)) + ...; for N = 3,
//   (v0+v1)+v2. The operators are the shared IEEE units (softermax_fp16_op), round to nearest
//   even:
//     Op = 0  fp_cmp MAX (IEEE maximumNumber: a NaN operand gives the other one, -0 < +0)
//     Op = 1  fp_add
//   Combinational; the caller registers. Flags are dropped.
// Parameters:
//   N   number of inputs (>= 1)
//   Op  0 max, 1 sum
module softermax_fp16_tree #(
  parameter integer N  = 16,
  parameter integer Op = 0
) (
  input  wire [N*16-1:0] in_i,   // element j at [j*16 +: 16]
  output wire [15:0]     out_o
);
  // elements at level l
  function integer tree_n(input integer n0, input integer l);
    integer i;
    begin
      tree_n = n0;
      for (i = 0; i < l; i = i + 1) tree_n = (tree_n + 1) / 2;
    end
  endfunction

  localparam integer Levels = (N > 1) ? $clog2(N) : 0;

  // One bus per level (level 0 is the input, level Levels the result); a level reads the one
  // before it by its generate-block name, which keeps the levels separate signals.
  genvar l, i;
  generate
    for (l = 0; l <= Levels; l = l + 1) begin : gen_level
      wire [tree_n(N, l)*16-1:0] lv;
      if (l == 0) begin : gen_in
        assign lv = in_i;
      end else begin : gen_ops
        for (i = 0; i < tree_n(N, l); i = i + 1) begin : gen_node
          if (2 * i + 1 < tree_n(N, l - 1)) begin : gen_op
            softermax_fp16_op #(.Op(Op == 0 ? 0 : 1)) u_op (
              .a_i(gen_level[l-1].lv[2*i*16 +: 16]),
              .b_i(gen_level[l-1].lv[(2*i+1)*16 +: 16]),
              .y_o(lv[i*16 +: 16])
            );
          end else begin : gen_pass
            assign lv[i*16 +: 16] = gen_level[l-1].lv[2*i*16 +: 16];
          end
        end
      end
    end
  endgenerate

  assign out_o = gen_level[Levels].lv;
endmodule
`default_nettype wire
