////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_range_track.v
//
// Purpose:   The word ranges [lo, hi) of requests in flight, in issue order (a circular buffer of
//            Entries): push_i adds a range at the tail, pop_i retires the oldest. hit_o: the
//            query range [q_lo_i, q_hi_i) overlaps a range held; full_o: no room for a push;
//            empty_o: nothing held. gnnerator_axi keeps one for its data reads (until their data
//            have all arrived) and one for its writes (until their B response), so a request of
//            one direction waits while it overlaps one of the other. The caller pushes only when
//            not full and pops only when not empty.
//
// Parameters:
//   Entries   ranges held at most (>= 1)
//   AddrW     word-address bits (hi has AddrW + 1: a range may end at 2^AddrW)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_range_track #(
  parameter integer Entries = 8,
  parameter integer AddrW   = 20
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             push_i,
  input  wire [AddrW-1:0] push_lo_i,
  input  wire [AddrW:0]   push_hi_i,
  input  wire             pop_i,
  input  wire [AddrW-1:0] q_lo_i,
  input  wire [AddrW:0]   q_hi_i,
  output wire             hit_o,
  output wire             full_o,
  output wire             empty_o
);

  localparam integer PtrW  = (Entries > 1) ? $clog2(Entries) : 1;
  localparam integer LastI = Entries - 1;
  localparam [PtrW-1:0] Last = LastI[PtrW-1:0];

  reg  [Entries-1:0] v_q;
  reg  [AddrW-1:0]   lo_q [0:Entries-1];
  reg  [AddrW:0]     hi_q [0:Entries-1];
  reg  [PtrW-1:0]    head_q, tail_q;
  wire [Entries-1:0] hit;

  genvar gi;
  generate
    for (gi = 0; gi < Entries; gi = gi + 1) begin : gen_hit
      assign hit[gi] = v_q[gi] && ({1'b0, q_lo_i} < hi_q[gi]) && ({1'b0, lo_q[gi]} < q_hi_i);
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q    <= {Entries{1'b0}};
      head_q <= {PtrW{1'b0}};
      tail_q <= {PtrW{1'b0}};
    end else begin
      if (push_i) begin
        v_q[tail_q] <= 1'b1;
        tail_q <= (tail_q == Last) ? {PtrW{1'b0}} : tail_q + 1'b1;
      end
      if (pop_i) begin
        v_q[head_q] <= 1'b0;
        head_q <= (head_q == Last) ? {PtrW{1'b0}} : head_q + 1'b1;
      end
    end
  end
  // Datapath registers without reset: the valid bits say which entries hold a range.
  always @(posedge clk_i) begin
    if (push_i) begin
      lo_q[tail_q] <= push_lo_i;
      hi_q[tail_q] <= push_hi_i;
    end
  end

  assign hit_o   = |hit;
  assign full_o  = v_q[tail_q];
  assign empty_o = (v_q == {Entries{1'b0}});

endmodule

`default_nettype wire
