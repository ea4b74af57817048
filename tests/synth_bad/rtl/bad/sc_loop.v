// Seeded fault for the synthesis check: a combinational loop (x depends on itself).
module sc_loop (
  input  wire a_i,
  output wire y_o
);
  wire x;
  assign x   = a_i ^ x;
  assign y_o = x;
endmodule
