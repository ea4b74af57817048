////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_va_alloc.v
//
// Purpose:   VC allocator of nnoc_mesh_router: a greedy matcher in rotating priority order.
//            Requester i (an input VC whose head waits: wait_i) needs one output VC on every
//            port of need_i[i] at once (all or none: a multicast head needs several); ok_i[i]
//            says each of those ports has an output VC of the kind it needs free now.
//            Scanning the requesters from the priority pointer on, each with ok is granted when
//            none of its ports has been given away earlier in the scan; so every output port
//            gives at most one VC per cycle, and with PerPort = 1 up to one head per output port
//            is granted in a cycle. PerPort = 0 grants at most one head per cycle.
//            Fairness: the requester at the pointer keeps the pointer until it is granted, so
//            it is first in every scan: a unicast head (one port) is granted in the first cycle
//            its port has a free VC. The pointer then moves past it (or, when the pointer's
//            requester does not wait, past the first grantee of the scan).
//            Decision: the first in line does not reserve its ports against later requesters.
//            A reservation makes a head wait for ports it does not need (a unicast behind a
//            multicast that needs an earlier port in X-then-Y order), which breaks the channel
//            order that makes the network deadlock-free (the multicast test deadlocked with it).
//            So a multicast head, which needs a VC on every one of its ports in the same cycle,
//            may wait while unicast heads take VCs it needs one port at a time; it is not
//            starved as long as its ports' VCs are sometimes free together (every packet drains).
//            A requester with no ports (need 0: a head to be dropped) is granted when scanned.
//            The grant is combinational; only the pointer is state.
//
// Parameters:
//   N        requesters (>= 1)
//   P        resources (output ports) per requester mask (>= 1)
//   PerPort  1: one grant per output port per cycle; 0: one grant per cycle
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_va_alloc #(
  parameter integer N       = 4,
  parameter integer P       = 5,
  parameter integer PerPort = 1
) (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire [N-1:0]   wait_i,      // requester i has a head waiting for output VCs
  input  wire [N-1:0]   ok_i,        // ... and every port it needs has a free VC now
  input  wire [N*P-1:0] need_i,      // requester i's ports at [i*P +: P]
  output reg  [N-1:0]   gnt_o
);

  localparam integer IdxW = (N > 1) ? $clog2(N) : 1;
  localparam [31:0]  NU   = N;

  generate
    if (N < 1) begin : gen_check_n
      `CC_PARAM_FAIL(nnoc_va_alloc__N_must_be_at_least_1)
    end
    if (P < 1) begin : gen_check_p
      `CC_PARAM_FAIL(nnoc_va_alloc__P_must_be_at_least_1)
    end
    if (PerPort != 0 && PerPort != 1) begin : gen_check_per_port
      `CC_PARAM_FAIL(nnoc_va_alloc__PerPort_must_be_0_or_1)
    end
  endgenerate

  localparam [31:0]  PU   = P;

  reg [IdxW-1:0] ptr_q;

  // The scan runs over the requesters rotated so that the pointer's comes first: two barrel
  // shifters in and one out, and a scan with constant indices (a scan that indexes the
  // requesters by pointer + j builds a wide multiplexer per step).
  wire [31:0]      shift_need = {{(32-IdxW){1'b0}}, ptr_q} * PU;
  wire [N-1:0]     w_rot, o_rot;                 // rotated: index 0 is the pointer's
  wire [N*P-1:0]   n_rot;
  wire [N-1:0]     unused_w_hi, unused_o_hi;     // the shifters' upper halves
  wire [N*P-1:0]   unused_n_hi;
  assign {unused_w_hi, w_rot} = {wait_i, wait_i} >> ptr_q;
  assign {unused_o_hi, o_rot} = {ok_i, ok_i} >> ptr_q;
  assign {unused_n_hi, n_rot} = {need_i, need_i} >> shift_need;

  reg [N-1:0]    g_rot;
  reg [IdxW-1:0] first;     // scan position of the first grantee
  reg            any;
  reg [P-1:0]    taken;
  integer j;
  always @* begin
    g_rot = {N{1'b0}};
    taken = {P{1'b0}};
    any   = 1'b0;
    first = {IdxW{1'b0}};
    for (j = 0; j < N; j = j + 1) begin
      if (w_rot[j] && o_rot[j] && (n_rot[j*P +: P] & taken) == {P{1'b0}} &&
          (PerPort == 1 || !any)) begin
        g_rot[j] = 1'b1;
        taken    = taken | n_rot[j*P +: P];
        if (!any) first = j[IdxW-1:0];
        any = 1'b1;
      end
    end
  end

  wire [N-1:0] gnt_hi, unused_gnt_lo;
  assign {gnt_hi, unused_gnt_lo} = {g_rot, g_rot} << ptr_q;
  always @* gnt_o = gnt_hi;

  // past the first grantee, unless the pointer's requester still waits
  wire [31:0]      next = {{(32-IdxW){1'b0}}, ptr_q} + {{(32-IdxW){1'b0}}, first} + 32'd1;
  wire [31:0]      next_m = (next >= NU) ? next - NU : next;
  wire [IdxW-1:0]  ptr_d;
  wire [31-IdxW:0] unused_next_hi;               // below N, so zero
  assign {unused_next_hi, ptr_d} = next_m;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= {IdxW{1'b0}};
    else if (any && !(w_rot[0] && !g_rot[0])) ptr_q <= ptr_d;
  end

endmodule
