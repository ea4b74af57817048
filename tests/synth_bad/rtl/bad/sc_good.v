// Control case for the synthesis check: a clean register, which must pass.
module sc_good (
  input  wire clk_i,
  input  wire d_i,
  output reg  q_o
);
  always @(posedge clk_i) q_o <= d_i;
endmodule
