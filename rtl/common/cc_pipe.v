////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_pipe.v
//
// Purpose:   Depth-stage pipeline register for a valid/ready stream with one global enable: the
//            whole pipeline advances when its last stage is empty or the consumer takes it. It
//            gives a combinational datapath (the float units) a latency parameter; synthesis
//            retiming can move the stages into the logic in front of it.
//
//            Handshake contract (a beat moves when valid && ready at the rising edge):
//              * Depth = 0: a wire (out = in, in_ready_o = out_ready_i).
//              * Depth > 0: out_valid_o/out_data_o are flops; in_ready_o = !out_valid_o ||
//                out_ready_i (combinational from out_ready_i), so bubbles inside the pipeline
//                are squeezed out only when the output moves -- a full pipeline with a stalled
//                consumer holds every beat. Throughput one beat per cycle, latency Depth.
//              * Beats are never dropped or duplicated; order is kept; a stage holds its data
//                while the pipeline is stalled.
//
// Parameters:
//   Width    data bits per beat (>= 1)
//   Depth    register stages (>= 0)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_pipe #(
  parameter integer Width = 8,
  parameter integer Depth = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [Width-1:0] in_data_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [Width-1:0] out_data_o
);

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Width < 1) begin : gen_check_width
      `CC_PARAM_FAIL(cc_pipe__Width_must_be_at_least_1)
    end
    if (Depth < 0) begin : gen_check_depth
      `CC_PARAM_FAIL(cc_pipe__Depth_must_be_at_least_0)
    end
  endgenerate

  generate
    if (Depth == 0) begin : gen_wire
      assign out_valid_o = in_valid_i;
      assign out_data_o  = in_data_i;
      assign in_ready_o  = out_ready_i;

      // Simulation-only check of the producer's side of the input contract (clk_i and rst_ni
      // clock only this checker: a wire has no stages).
      cc_hold_check #(.Width(Width)) u_in_hold_check (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .valid_i  (in_valid_i),
        .ready_i  (out_ready_i),
        .data_i   (in_data_i),
        .release_i(1'b0)
      );
    end else begin : gen_regs
      reg [Depth-1:0] valid_q;
      reg [Width-1:0] data_q [0:Depth-1];
      wire            advance = !valid_q[Depth-1] || out_ready_i;

      genvar s;
      for (s = 0; s < Depth; s = s + 1) begin : gen_stage
        wire             prev_valid = (s == 0) ? in_valid_i : valid_q[(s == 0) ? 0 : s - 1];
        wire [Width-1:0] prev_data  = (s == 0) ? in_data_i  : data_q[(s == 0) ? 0 : s - 1];

        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            valid_q[s] <= 1'b0;
          end else if (advance) begin
            valid_q[s] <= prev_valid;
          end
        end

        // Data flops carry no reset; they load only when the pipeline advances.
        always @(posedge clk_i) begin
          if (advance) begin
            data_q[s] <= prev_data;
          end
        end
      end

      // Simulation-only check of the producer's side of the input contract.
      cc_hold_check #(.Width(Width)) u_in_hold_check (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .valid_i  (in_valid_i),
        .ready_i  (advance),
        .data_i   (in_data_i),
        .release_i(1'b0)
      );

      assign in_ready_o  = advance;
      assign out_valid_o = valid_q[Depth-1];
      assign out_data_o  = data_q[Depth-1];
    end
  endgenerate

endmodule

`default_nettype wire
