////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_cc_hold_check.sv
//
// Purpose:   Formal proof that cc_hold_check flags exactly the breaches of the handshake rule
//            (docs/formal.md). The rule is fv_handshake (observe mode), written from the contract
//            and not from the checker; every input of the checker is free in every cycle (reset
//            too, after the first cycle, which is a reset).
//
//            cc_hold_check stops the simulation ($stop), which Yosys cannot read, so the proof
//            reads a formal view of it (scripts/formal.py, HOLD_CHECK_VIEW): a copy in which
//            each $stop toggles a new register fv_stop_q, so "the checker stopped at the last
//            edge" is "fv_stop_q changed at the last edge". Properties, at every edge:
//              * p_no_false_alarm: the checker stops only at an edge that breaks the rule;
//              * p_catches_all:    every edge that breaks the rule (valid dropped or data
//                changed while a beat was pending, not released, not in reset) stops it.
//
// Parameters:
//   Width   the checker's data width (rtl/common/cc_hold_check.v)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_cc_hold_check #(
  parameter integer Width = 3
) (
  input wire             clk_i,
  input wire             rst_ni,
  input wire             valid_i,
  input wire             ready_i,
  input wire [Width-1:0] data_i,
  input wire             release_i
);

  cc_hold_check #(
    .Width (Width)
  ) u_dut (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .valid_i   (valid_i),
    .ready_i   (ready_i),
    .data_i    (data_i),
    .release_i (release_i)
  );

  // ---------------------------------------------------------------- environment
  // The first cycle is a reset; afterwards reset is free.
  reg f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
  always @* if (f_init_q) assume (!rst_ni);

  // ---------------------------------------------------------------- the rule
  wire f_violation;
  fv_handshake #(
    .Width (Width),
    .Mode  (0)
  ) u_rule (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .valid_i     (valid_i),
    .ready_i     (ready_i),
    .data_i      (data_i),
    .release_i   (release_i),
    .violation_o (f_violation)
  );

  // ---------------------------------------------------------------- properties
  (* fv_probe = "u_dut.fv_stop_q" *) wire f_stop;

  // What happened at the last edge: did the checker stop, did the producer break the rule.
  // Neither is reset: the checker's $stop is not, and an edge in reset breaks no rule.
  reg f_stop_prev_q = 1'b0;
  reg f_violation_q = 1'b0;
  always @(posedge clk_i) begin
    f_stop_prev_q <= f_stop;
    f_violation_q <= f_violation;
  end
  wire f_stopped = f_stop != f_stop_prev_q;

  always @* begin
    if (f_stopped)     p_no_false_alarm: assert (f_violation_q);
    if (f_violation_q) p_catches_all:    assert (f_stopped);
  end

  // Reachability: a breach is flagged; a beat released by release_i is withdrawn unflagged.
  reg f_released_q = 1'b0;
  always @(posedge clk_i) f_released_q <= rst_ni && valid_i && !ready_i && release_i;
  always @* begin
    c_flagged:  cover (f_stopped);
    c_withdraw: cover (rst_ni && f_released_q && !valid_i);
  end

endmodule

`default_nettype wire
