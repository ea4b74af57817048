////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_handshake.sv
//
// Purpose:   The library's stream handshake rule (docs/conventions.md, "Handshake contract"),
//            written once for the formal proofs (docs/formal.md): once a producer raises valid
//            and the beat is not taken (valid && !ready at the edge), valid stays high and data
//            stays the same at the next edge; the beat is taken when valid && ready. The rule is
//            lifted for a cycle in which release_i is high (a synchronous flush frees the
//            producer) and by reset.
//
//            It is written from the rule, not from cc_hold_check: it remembers the beat that is
//            pending (offered and not taken) and its data, and violation_o says that the beat
//            seen in this cycle breaks the promise. The proof of cc_hold_check compares the two.
//
//            Mode chooses how the rule is used:
//              0  observe only: violation_o for a property module (the cc_hold_check proof);
//              1  assume it: the stream is driven by the proof's environment (a cell's input);
//              2  assert it: the stream is driven by the design under proof (a cell's output).
//
//            Formal-only (Yosys read_verilog -formal); not synthesizable RTL.
//
// Parameters:
//   Width  data bits per beat (>= 1)
//   Mode   0 observe, 1 assume, 2 assert (above)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_handshake #(
  parameter integer Width = 8,
  parameter integer Mode  = 0
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire             ready_i,
  input  wire [Width-1:0] data_i,
  input  wire             release_i,
  output wire             violation_o
);

  // A beat is pending after an edge at which it was offered and not taken (and not released).
  reg             pend_q;
  reg [Width-1:0] pend_data_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) pend_q <= 1'b0;
    else         pend_q <= valid_i && !ready_i && !release_i;
  end

  // Only the data of a pending beat is kept: the promise is about that beat, not about the
  // previous cycle's bus value in general.
  always @(posedge clk_i) begin
    if (valid_i && !ready_i) pend_data_q <= data_i;
  end

  assign violation_o = rst_ni && pend_q && (!valid_i || data_i != pend_data_q);

  generate
    if (Mode == 1) begin : gen_assume
      always @* a_hold: assume (!violation_o);
    end else if (Mode == 2) begin : gen_assert
      always @* p_hold: assert (!violation_o);
    end
  endgenerate

endmodule

`default_nettype wire
