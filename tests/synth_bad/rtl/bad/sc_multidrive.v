// Seeded fault for the synthesis check: two continuous assignments drive the same net.
module sc_multidrive (
  input  wire a_i,
  input  wire b_i,
  output wire y_o
);
  assign y_o = a_i;
  assign y_o = b_i;
endmodule
