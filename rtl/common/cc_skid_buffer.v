////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_skid_buffer.v
//
// Purpose:   Two-entry skid buffer (a "spill register") that registers a valid/ready stream in
//            both directions at full throughput: in_ready_o and out_valid_o/out_data_o come
//            straight from flops, so neither the forward valid/data path nor the backward ready
//            path crosses the buffer combinationally. This is the cell used at every registered
//            stream boundary of the library.
//
//            Structure: a main output register (out_*_q) and a skid register. While the consumer
//            takes every beat the skid register stays empty and beats flow through the main
//            register at one per cycle. When the consumer stalls, the producer may still have
//            been told "ready" for one more beat (ready is one cycle old): that beat lands in the
//            skid register and in_ready_o drops until the skid register drains into the main
//            register.
//
//            Handshake contract (a beat moves when valid && ready at the rising edge):
//              * in_ready_o  = skid register empty (flop); independent of every input this cycle.
//              * out_valid_o = main register full (flop); out_data_o is a flop too.
//              * Latency one cycle; throughput one beat per cycle; behaves exactly like a 2-deep
//                FIFO with in_ready = not full and out_valid = not empty.
//              * Beats are never dropped or duplicated; order is kept.
//
// Parameters:
//   Width    data bits per beat (>= 1)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_skid_buffer #(
  parameter integer Width = 8
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
      `CC_PARAM_FAIL(cc_skid_buffer__Width_must_be_at_least_1)
    end
  endgenerate

  reg             out_valid_q, out_valid_d;
  reg [Width-1:0] out_data_q, out_data_d;
  reg             in_ready_q, in_ready_d;   // high while the skid register is empty
  reg [Width-1:0] skid_data_q;
  reg             skid_load;

  wire in_fire  = in_valid_i && in_ready_q;
  wire out_fire = out_valid_q && out_ready_i;

  always @* begin
    out_valid_d = out_valid_q;
    out_data_d  = out_data_q;
    in_ready_d  = in_ready_q;
    skid_load   = 1'b0;
    if (!out_valid_q || out_fire) begin
      // The main register is free at the edge: refill it, from the skid register first (it
      // holds the older beat; in_ready_q is low then, so no new beat arrives this cycle).
      if (!in_ready_q) begin
        out_valid_d = 1'b1;
        out_data_d  = skid_data_q;
        in_ready_d  = 1'b1;
      end else begin
        out_valid_d = in_fire;
        if (in_fire) out_data_d = in_data_i;
      end
    end else if (in_fire) begin
      // Main register stays occupied: the beat accepted on the strength of last cycle's ready
      // goes into the skid register, and ready drops.
      skid_load  = 1'b1;
      in_ready_d = 1'b0;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      in_ready_q  <= 1'b1;
    end else begin
      out_valid_q <= out_valid_d;
      in_ready_q  <= in_ready_d;
    end
  end

  // Data registers without reset: the valid/ready flops say when they hold a beat.
  always @(posedge clk_i) begin
    out_data_q <= out_data_d;
    if (skid_load) skid_data_q <= in_data_i;
  end

  assign in_ready_o  = in_ready_q;
  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;

  // Simulation-only check of the producer's side of the contract (synthesizes to nothing).
  cc_hold_check #(.Width(Width)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_q),
    .data_i   (in_data_i),
    .release_i(1'b0)
  );

endmodule

`default_nettype wire
