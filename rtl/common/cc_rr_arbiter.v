////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_rr_arbiter.v
//
// Purpose:   Round-robin arbiter for N requesters. The grant is combinational from req_i and a
//            priority pointer ptr_q: requester ptr_q has the highest priority, then ptr_q+1, and
//            so on cyclically. The pointer only advances when the grant is taken:
//              * ack_i high (the granted requester's transfer happened this cycle): the pointer
//                moves to one past the granted requester, so it now has the lowest priority.
//              * ack_i low with a grant pending: the pointer parks on the granted requester
//                (lock-in). Without this, a requester between the pointer and the grantee that
//                raises its request later would take the grant away before it was used, and an
//                arbitrated valid/ready stream would change its data while valid && !ready.
//                With it, the grant holds steady until acknowledged as long as the grantee
//                keeps requesting.
//            Every requester that holds its request is granted within N grants (starvation-free):
//            the pointer only moves forward, past the grantee.
//
//            Contract: gnt_o is one-hot or zero, gnt_valid_o = |req_i, gnt_idx_o is the index of
//            the granted requester (0 when none). ack_i is ignored while nothing is granted.
//            There is no combinational path from ack_i to any output.
//
// Parameters:
//   N        number of requesters (>= 1, any value); gnt_idx_o has $clog2(N) bits, at least 1
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_rr_arbiter #(
  parameter integer N = 4
) (
  input  wire                                 clk_i,
  input  wire                                 rst_ni,
  input  wire [N-1:0]                         req_i,
  input  wire                                 ack_i,
  output wire [N-1:0]                         gnt_o,
  output reg  [((N > 1) ? $clog2(N) : 1)-1:0] gnt_idx_o,
  output wire                                 gnt_valid_o
);

  localparam integer IdxWidth = (N > 1) ? $clog2(N) : 1;
  localparam integer        LastInt = N - 1;
  localparam [IdxWidth-1:0] LastIdx = LastInt[IdxWidth-1:0];

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (N < 1) begin : gen_check_n
      `CC_PARAM_FAIL(cc_rr_arbiter__N_must_be_at_least_1)
    end
  endgenerate

  reg [IdxWidth-1:0] ptr_q, ptr_d;

  // Requests at or above the pointer win over the ones below it (which have wrapped around);
  // within each group the lowest index wins. x & -x isolates the lowest set bit, so the whole
  // arbiter is two masks, one adder-like carry chain and a mux, not an N-deep priority loop.
  wire [N-1:0] upper_mask = {N{1'b1}} << ptr_q;
  wire [N-1:0] req_upper  = req_i & upper_mask;
  wire [N-1:0] req_sel    = (|req_upper) ? req_upper : req_i;

  assign gnt_o       = req_sel & (-req_sel);
  assign gnt_valid_o = |req_i;

  // One-hot to index: OR together the indices of the (at most one) set bits.
  integer i;
  always @* begin
    gnt_idx_o = {IdxWidth{1'b0}};
    for (i = 0; i < N; i = i + 1) begin
      if (gnt_o[i]) gnt_idx_o = gnt_idx_o | i[IdxWidth-1:0];
    end
  end

  always @* begin
    ptr_d = ptr_q;
    if (gnt_valid_o) begin
      if (ack_i) ptr_d = (gnt_idx_o == LastIdx) ? {IdxWidth{1'b0}} : gnt_idx_o + 1'b1;
      else       ptr_d = gnt_idx_o;
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= {IdxWidth{1'b0}};
    else         ptr_q <= ptr_d;
  end

endmodule

`default_nettype wire
