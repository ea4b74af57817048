////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_sa_greedy.v
//
// Purpose:   Switch allocator of nnoc_mesh_router (SaGreedy = 1): a maximal matching of input
//            VCs to output ports, found greedily in rotating priority order. A separable
//            allocator lets every input port pick one VC before the outputs choose, so an input
//            whose pick loses stays idle even when another of its VCs wants a free output;
//            here each input port, in turn, takes its first VC (round-robin among its VCs) that
//            can still use an output no earlier input took in this cycle.
//              pass 1  non-speculative candidates (active VCs: ns_i, and drops: drop_i)
//              pass 2  speculative candidates (heads granted their VCs this cycle: sp_i), on
//                      the input ports and outputs pass 1 left free; so a speculative request
//                      always loses to a non-speculative one
//            A candidate gets every output it wants that is still free (a multicast flit may get
//            some of its ports now and the rest later); a drop takes the input port only.
//            Fairness: the input-port scan starts one port later every cycle, and each input
//            port's VC order rotates past the VC it last sent: every waiting input VC is first
//            in line at its port and its port first in the scan within 5 * V cycles.
//            The grant is combinational; only the pointers are state.
//
// Parameters:
//   NP   ports (inputs = outputs, >= 1)
//   V    VCs per input port (>= 1)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_sa_greedy #(
  parameter integer NP  = 5,
  parameter integer V   = 4,
  // derived: do not set (a different value fails the build)
  parameter integer VcW = (V > 1) ? $clog2(V) : 1
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire [NP*V-1:0]     ns_i,      // input VC p*V+v: non-speculative candidate
  input  wire [NP*V-1:0]     drop_i,    // ... whose flit is dropped (needs no output)
  input  wire [NP*V-1:0]     sp_i,      // ... speculative candidate (its VA granted now)
  input  wire [NP*V*NP-1:0]  want_i,    // outputs input VC i wants at [i*NP +: NP]
  output reg  [NP*VcW-1:0]   sel_o,     // VC each input port sends from
  output reg  [NP-1:0]       sel_v_o,   // ... the input port sends (or drops) this cycle
  output reg  [NP-1:0]       spec_o,    // ... its VC's request was speculative
  output reg  [NP*NP-1:0]    gnt_o      // outputs given to input port p at [p*NP +: NP]
);

  localparam integer PW  = (NP > 1) ? $clog2(NP) : 1;
  localparam [31:0]  NPU = NP;
  localparam [31:0]  VU  = V;

  generate
    if (NP < 1) begin : gen_check_np
      `CC_PARAM_FAIL(nnoc_sa_greedy__NP_must_be_at_least_1)
    end
    if (V < 1) begin : gen_check_v
      `CC_PARAM_FAIL(nnoc_sa_greedy__V_must_be_at_least_1)
    end
    if (VcW != ((V > 1) ? $clog2(V) : 1)) begin : gen_check_vc_w
      `CC_PARAM_FAIL(nnoc_sa_greedy__VcW_is_derived_and_must_not_be_set)
    end
  endgenerate

  reg [PW-1:0]     port_ptr_q;
  reg [NP*VcW-1:0] vc_ptr_q;       // input port p's first VC in its order at [p*VcW +: VcW]

  reg [NP-1:0] taken;              // outputs given away in this cycle
  reg [NP-1:0] left;               // wanted outputs of a candidate still free
  reg          cand;
  reg [31:0]   p, v, i;
  integer pass, j, k;
  always @* begin
    sel_o   = {NP*VcW{1'b0}};
    sel_v_o = {NP{1'b0}};
    spec_o  = {NP{1'b0}};
    gnt_o   = {NP*NP{1'b0}};
    taken   = {NP{1'b0}};
    left    = {NP{1'b0}};
    cand    = 1'b0;
    for (pass = 0; pass < 2; pass = pass + 1) begin
      for (j = 0; j < NP; j = j + 1) begin
        p = {{(32-PW){1'b0}}, port_ptr_q} + j;
        if (p >= NPU) p = p - NPU;
        for (k = 0; k < V; k = k + 1) begin
          v = {{(32-VcW){1'b0}}, vc_ptr_q[p*VcW +: VcW]} + k;
          if (v >= VU) v = v - VU;
          i = p * VU + v;
          left = want_i[i*NP +: NP] & ~taken;
          cand = (pass == 0) ? (ns_i[i] && (drop_i[i] || left != {NP{1'b0}})) :
                               (sp_i[i] && left != {NP{1'b0}});
          if (!sel_v_o[p] && cand) begin
            sel_v_o[p]              = 1'b1;
            spec_o[p]               = pass == 1;
            sel_o[p*VcW +: VcW]     = v[VcW-1:0];
            gnt_o[p*NP +: NP]       = (pass == 0 && drop_i[i]) ? {NP{1'b0}} : left;
            taken                   = taken | gnt_o[p*NP +: NP];
          end
        end
      end
    end
  end

  wire [31:0] port_next = {{(32-PW){1'b0}}, port_ptr_q} + 32'd1;
  // each input port's VC order next cycle: from the VC after the one it sent
  reg [NP*VcW-1:0] vc_ptr_d;
  reg [31:0]       vn;
  integer q;
  always @* begin
    vc_ptr_d = vc_ptr_q;
    vn       = 32'd0;
    for (q = 0; q < NP; q = q + 1) begin
      vn = {{(32-VcW){1'b0}}, sel_o[q*VcW +: VcW]} + 32'd1;
      if (sel_v_o[q]) vc_ptr_d[q*VcW +: VcW] = (vn >= VU) ? {VcW{1'b0}} : vn[VcW-1:0];
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      port_ptr_q <= {PW{1'b0}};
      vc_ptr_q   <= {NP*VcW{1'b0}};
    end else begin
      port_ptr_q <= (port_next >= NPU) ? {PW{1'b0}} : port_next[PW-1:0];
      vc_ptr_q   <= vc_ptr_d;
    end
  end

endmodule
