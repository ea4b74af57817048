// Seeded fault for the synthesis check (tests/synth.list, yosys_check_catches): a
// combinational always block that does not assign q on every path infers a latch.
module sc_latch (
  input  wire en_i,
  input  wire d_i,
  output reg  q_o
);
  always @(*) begin
    if (en_i) q_o = d_i;
  end
endmodule
