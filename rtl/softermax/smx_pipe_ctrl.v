`default_nettype none
// smx_pipe_ctrl -- stage control of the Softermax units' pipelines: which stage holds a beat,
//   which stage moves at the next edge, and the side fields that travel with each beat.
//
// Purpose: the elastic pipeline every unit of the block uses (softermax_unnormed, _norm and
//   their fp16 counterparts, through smx_unnormed_ctrl / smx_norm_ctrl). Stage s (0 = the
//   first) advances when it is empty or the stage after it advances (the last stage: when the
//   consumer takes it): adv[s] = !valid[s] || adv[s+1], adv[Stages-1] = !valid[Stages-1] ||
//   out_ready_i. So a stalled output fills the bubbles in front of it, one beat moves per
//   stage and cycle, and in_ready_o = adv[0] depends on out_ready_i combinationally.
//   take_o[s] (a beat enters stage s: valid_o[s-1] && adv_o[s], stage 0: in_valid_i && adv_o[0])
//   is the load enable of the datapath registers of stage s, which the unit keeps itself.
//   side_i enters stage 0 with the beat and moves along with it: stage s holds it at
//   side_o[s*SideW +: SideW]. The valid flags are reset, the side registers are not.
// Parameters:
//   Stages  pipeline stages (>= 1)
//   SideW   bits of side fields carried with each beat (>= 1)
module smx_pipe_ctrl #(
  parameter integer Stages = 4,
  parameter integer SideW  = 1
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     in_valid_i,
  output wire                     in_ready_o,
  input  wire [SideW-1:0]         side_i,
  input  wire                     out_ready_i,
  output wire [Stages-1:0]        valid_o,   // stage s holds a beat
  output wire [Stages-1:0]        adv_o,     // stage s loads at the next edge
  output wire [Stages-1:0]        take_o,    // a beat enters stage s at the next edge
  output wire [Stages*SideW-1:0]  side_o     // stage s's side fields at [s*SideW +: SideW]
);
  reg  [Stages-1:0] v_q;
  reg  [Stages-1:0] adv, take;
  wire [Stages:0]   v_in = {v_q, in_valid_i};  // the valid flag entering stage s: v_in[s]
  integer s;

  always @* begin
    adv[Stages-1] = !v_q[Stages-1] || out_ready_i;
    for (s = Stages - 2; s >= 0; s = s - 1) adv[s] = !v_q[s] || adv[s+1];
    for (s = 0; s < Stages; s = s + 1) take[s] = v_in[s] && adv[s];
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= {Stages{1'b0}};
    end else begin
      for (s = 0; s < Stages; s = s + 1)
        if (adv[s]) v_q[s] <= v_in[s];
    end
  end

  reg  [Stages*SideW-1:0]     side_q;
  wire [(Stages+1)*SideW-1:0] side_in = {side_q, side_i};  // entering stage s: [s*SideW +: SideW]
  always @(posedge clk_i) begin
    for (s = 0; s < Stages; s = s + 1)
      if (take_o[s]) side_q[s*SideW +: SideW] <= side_in[s*SideW +: SideW];
  end

  assign in_ready_o = adv[0];
  assign valid_o    = v_q;
  assign adv_o      = adv;
  assign take_o     = take;
  assign side_o     = side_q;

  // the top parts of side_in and v_in are the last stage's, which feeds no further stage
  wire unused_ok = &{1'b0, side_in[Stages*SideW +: SideW], v_in[Stages]};
endmodule
`default_nettype wire
