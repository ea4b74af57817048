////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_skew.v
//
// Purpose:   The skew (or de-skew) triangle at an edge of the systolic array: lane i of a line is
//            delayed by i cycles (Reverse = 0: feeding the array, so element i meets the wave
//            front of row or column i) or by Lanes-1-i cycles (Reverse = 1: the bottom edge,
//            so the words of one output line leave together). Lanes*(Lanes-1)/2 registers of
//            Width bits; lane 0 (Reverse = 0) is a wire.
//
// Parameters:
//   Lanes     number of lanes (array rows or columns)
//   Width     bits per lane
//   Reverse   0: delay i; 1: delay Lanes-1-i
//   Reset     1: the registers reset to 0 (control lanes); 0: no reset (data)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_skew #(
  parameter integer Lanes   = 4,
  parameter integer Width   = 32,
  parameter integer Reverse = 0,
  parameter integer Reset   = 0
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire [Lanes*Width-1:0] d_i,
  output wire [Lanes*Width-1:0] q_o
);

  wire unused_ports = clk_i & rst_ni;  // clk_i unused with one lane, rst_ni unless Reset = 1

  genvar i, j;
  generate
    for (i = 0; i < Lanes; i = i + 1) begin : gen_lane
      localparam integer Delay = (Reverse != 0) ? (Lanes - 1 - i) : i;
      if (Delay == 0) begin : gen_wire
        assign q_o[i*Width +: Width] = d_i[i*Width +: Width];
      end else begin : gen_regs
        reg [Width-1:0] sr_q [0:Delay-1];
        for (j = 0; j < Delay; j = j + 1) begin : gen_stage
          wire [Width-1:0] d = (j == 0) ? d_i[i*Width +: Width] : sr_q[(j == 0) ? 0 : j-1];
          if (Reset != 0) begin : gen_rst
            always @(posedge clk_i or negedge rst_ni) begin
              if (!rst_ni) sr_q[j] <= {Width{1'b0}};
              else         sr_q[j] <= d;
            end
          end else begin : gen_nrst
            always @(posedge clk_i) sr_q[j] <= d;
          end
        end
        assign q_o[i*Width +: Width] = sr_q[Delay-1];
      end
    end
  endgenerate

endmodule

`default_nettype wire
