`default_nettype none
`include "cc_param_check.vh"
// cc_hold_check -- simulation-only checker of the producer's side of a valid/ready stream.
//
// Purpose: once a beat is offered (valid_i) and not taken (!ready_i), it must stay valid with
//   the same data at the next edge, unless release_i (e.g. a synchronous flush) frees it.
//   A violation prints the instance path and stops the simulation. The body is under
//   `ifndef SYNTHESIS, so the cell synthesizes to nothing; every streaming cell instantiates it
//   on its input port instead of repeating the check.
// Parameters:
//   Width  data width in bits
module cc_hold_check #(
  parameter integer Width = 8
) (
  input wire             clk_i,
  input wire             rst_ni,
  input wire             valid_i,
  input wire             ready_i,
  input wire [Width-1:0] data_i,
  input wire             release_i  // a held beat may be withdrawn this cycle
);

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Width < 1) begin : gen_check_width
      `CC_PARAM_FAIL(cc_hold_check__Width_must_be_at_least_1)
    end
  endgenerate

`ifndef SYNTHESIS
  reg             wait_q;
  reg [Width-1:0] data_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wait_q <= 1'b0;
    end else begin
      if (wait_q && (!valid_i || data_i !== data_q)) begin
        $display("%m: ERROR at %0t: valid/data changed while waiting for ready", $time);
        $stop;
      end
      wait_q <= valid_i && !ready_i && !release_i;
    end
  end
  always @(posedge clk_i) data_q <= data_i;
`else
  wire unused_ok = &{1'b0, clk_i, rst_ni, valid_i, ready_i, data_i, release_i};
`endif
endmodule
`default_nettype wire
