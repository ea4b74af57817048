////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_cc_rr_arbiter.sv
//
// Purpose:   Formal proof wrapper of cc_rr_arbiter (docs/formal.md). req_i and ack_i are free
//            in every cycle (reset too, after the first cycle, which is a reset); requesters need
//            not hold their requests. Properties, from the cell's contract (rtl/common/README.md):
//              * p_onehot, p_subset: gnt_o is one-hot or zero and only to a requester;
//              * p_valid, p_grant_if_any: gnt_valid_o = |req_i, and a grant whenever any request;
//              * p_idx: gnt_idx_o is the index of the grant (0 without one);
//              * p_priority: the grant goes to the first requester at or after the priority
//                pointer, cyclically, where the pointer (a reference model here) moves to one
//                past the grantee on ack_i, parks on the grantee without it, and ignores ack_i
//                while nothing is granted;
//              * p_lock_in: a grant not acknowledged stays with its requester in the next cycle
//                while it still requests, whoever else raises a request;
//              * p_no_starve, p_bounded_wait: for any requester f_r (a free constant), while it
//                holds its request, at most N-1 acknowledged grants go to others, and after N-1
//                of them it is the one granted. With ack_i high in every cycle (a consumer that
//                is always ready) that is a grant within N cycles.
//            Helper invariants (left out of the seeded-bug runs): the cell's pointer equals the
//            model's and is in range, and the waiting count plus the pointer's cyclic distance
//            to f_r is at most N-1 (each grant to another moves the pointer past it, towards f_r).
//
// Parameters:
//   N   number of requesters (rtl/common/cc_rr_arbiter.v)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_cc_rr_arbiter #(
  parameter integer N = 4
) (
  input wire         clk_i,
  input wire         rst_ni,
  input wire [N-1:0] req_i,
  input wire         ack_i
);

  localparam integer IdxWidth = (N > 1) ? $clog2(N) : 1;
  localparam integer DistW    = IdxWidth + 1;
  localparam integer CntW     = $clog2(N + 1) + 1;

  wire [N-1:0]          gnt;
  wire [IdxWidth-1:0]   gnt_idx;
  wire                  gnt_valid;

  cc_rr_arbiter #(
    .N (N)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_i       (req_i),
    .ack_i       (ack_i),
    .gnt_o       (gnt),
    .gnt_idx_o   (gnt_idx),
    .gnt_valid_o (gnt_valid)
  );

  // ---------------------------------------------------------------- environment
  // The first cycle is a reset; afterwards reset is free (reset in flight is covered).
  reg f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
  always @* if (f_init_q) assume (!rst_ni);

  // The requester watched for starvation: any one, the same for the whole trace.
  (* anyconst *) reg [IdxWidth-1:0] f_r;
  always @* assume (f_r < N);

  // ---------------------------------------------------------------- reference model
  // Cyclic distance from a to b (both < N): how many places b is after a.
  function automatic [DistW-1:0] dist(input [IdxWidth-1:0] a, input [IdxWidth-1:0] b);
    dist = (b >= a) ? b - a : b + N - a;
  endfunction

  // Expected grant: rotate the requests so that bit 0 is the pointer's requester, take the
  // lowest set bit (the nearest requester at or after the pointer) and rotate back.
  reg  [IdxWidth-1:0] f_ptr_q;
  wire [2*N-1:0]      f_rot = {req_i, req_i} >> f_ptr_q;
  reg                 f_found;
  reg  [DistW-1:0]    f_near;
  integer             f_k;
  always @* begin
    f_found = 1'b0;
    f_near  = {DistW{1'b0}};
    for (f_k = 0; f_k < N; f_k = f_k + 1) begin
      if (!f_found && f_rot[f_k]) begin
        f_found = 1'b1;
        f_near  = f_k;
      end
    end
  end
  wire [DistW-1:0]    f_sum     = f_ptr_q + f_near;
  wire [IdxWidth-1:0] f_exp_idx = (f_sum >= N) ? f_sum - N : f_sum;
  wire [N-1:0]        f_exp_gnt = f_found ? ({{(N-1){1'b0}}, 1'b1} << f_exp_idx) : {N{1'b0}};

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)       f_ptr_q <= {IdxWidth{1'b0}};
    else if (f_found)  f_ptr_q <= !ack_i ? f_exp_idx :
                                  (f_exp_idx == N - 1) ? {IdxWidth{1'b0}} : f_exp_idx + 1'b1;
  end

  // ---------------------------------------------------------------- properties
  always @* begin
    p_onehot:       assert ((gnt & (gnt - 1'b1)) == {N{1'b0}});
    p_subset:       assert ((gnt & ~req_i) == {N{1'b0}});
    p_valid:        assert (gnt_valid == (|req_i));
    p_grant_if_any: assert ((gnt != {N{1'b0}}) == (|req_i));
    if (gnt_valid) p_idx:    assert (gnt == ({{(N-1){1'b0}}, 1'b1} << gnt_idx));
    else           p_idx_0:  assert (gnt_idx == {IdxWidth{1'b0}});
    p_priority:     assert (gnt == f_exp_gnt);
  end

  // Lock-in: a grant left unacknowledged at the last edge.
  reg                f_lock_q;
  reg [IdxWidth-1:0] f_lock_idx_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_lock_q <= 1'b0;
    else         f_lock_q <= gnt_valid && !ack_i;
  end
  always @(posedge clk_i) f_lock_idx_q <= gnt_idx;
  always @* begin
    if (f_lock_q && req_i[f_lock_idx_q]) p_lock_in: assert (gnt_valid && gnt_idx == f_lock_idx_q);
  end

  // Starvation: acknowledged grants to others while f_r holds its request (0 when it does not
  // request, or after its own acknowledged grant).
  reg [CntW-1:0] f_wait_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                                  f_wait_q <= {CntW{1'b0}};
    else if (!req_i[f_r] || (gnt[f_r] && ack_i))  f_wait_q <= {CntW{1'b0}};
    else if (gnt_valid && ack_i)                  f_wait_q <= f_wait_q + 1'b1;
  end
  always @* begin
    p_no_starve: assert (f_wait_q <= N - 1);
    if (req_i[f_r] && f_wait_q == N - 1) p_bounded_wait: assert (gnt[f_r]);
  end

  // ---------------------------------------------------------------- helper invariants
  // The seeded-bug runs leave them out (FV_NO_HELPERS), so a bug must break a property above.
  (* fv_probe = "u_dut.ptr_q" *) wire [IdxWidth-1:0] f_ptr;

`ifndef FV_NO_HELPERS
  always @* begin
    inv_ptr_range: assert (f_ptr < N);
    inv_ptr_model: assert (f_ptr == f_ptr_q);
    inv_wait_dist: assert (f_wait_q + dist(f_ptr, f_r) <= N - 1);
  end
`endif

  // Reachability: the starvation bound is reached (it is tight), and (N > 1) a lock-in while
  // another requester waits.
  always @* c_wait_bound: cover (rst_ni && req_i[f_r] && f_wait_q == N - 1);
  generate
    if (N > 1) begin : gen_cover_lock_in
      always @* c_lock_in: cover (rst_ni && f_lock_q && req_i[f_lock_idx_q] &&
                                  (req_i & ~gnt) != {N{1'b0}});
    end
  endgenerate

endmodule

`default_nettype wire
