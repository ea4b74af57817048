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
//              pass 0  (Hold = 1) packets in progress: an input port whose last flit did not
//                      end its packet offers that VC first, for the outputs it still wants
//              pass 1  non-speculative candidates (active VCs: ns_i, and drops: drop_i) of the
//                      input ports not marked late (late_i)
//              pass 2  non-speculative candidates of every input port (so a late port's flits
//                      take what passes 0 and 1 left: the router marks an input port late to
//                      give the others priority, mesh router SaPrio)
//              pass 3  speculative candidates (heads granted their VCs this cycle: sp_i), on
//                      the input ports and outputs passes 0 to 2 left free; so a speculative
//                      request always loses to a non-speculative one
//            A candidate gets every output it wants that is still free (a multicast flit may get
//            some of its ports now and the rest later); a drop takes the input port only.
//            Hold = 1 (packet-granular allocation, as BookSim's hold_switch_for_packet): a packet
//            that has started keeps its input port and outputs while it has a flit and a
//            credit, so the flits of different packets do not alternate on a link (which delays
//            every packet to the pace of the slowest sharing it); when it has no flit ready
//            others use the free slots.
//            Fairness: the input-port scan starts one port later every cycle, and each input
//            port's VC order rotates past the VC it last sent (Hold = 1: once that VC's packet
//            has ended): every waiting input VC is first in line at its port and its port
//            first in the scan within 5 * V cycles (Hold = 1: packets), plus the cycles its
//            port is held late (the router bounds them: SaPrioWait).
//            The grant is combinational; only the pointers are state.
//
// Parameters:
//   NP   ports (inputs = outputs, >= 1)
//   V    VCs per input port (>= 1)
//   Hold 1: a packet in progress keeps its input port and outputs (pass 0); 0: every flit
//        is allocated on its own (the VC order rotates after every flit)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_sa_greedy #(
  parameter integer NP   = 5,
  parameter integer V    = 4,
  parameter integer Hold = 1,
  // derived: do not set (a different value fails the build)
  parameter integer VcW = (V > 1) ? $clog2(V) : 1
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire [NP*V-1:0]     ns_i,      // input VC p*V+v: non-speculative candidate
  input  wire [NP*V-1:0]     drop_i,    // ... whose flit is dropped (needs no output)
  input  wire [NP*V-1:0]     sp_i,      // ... speculative candidate (its VA granted now)
  input  wire [NP*V*NP-1:0]  want_i,    // outputs input VC i wants at [i*NP +: NP]
  input  wire [NP*V-1:0]     last_i,    // input VC i's front flit ends its packet
  input  wire [NP-1:0]       late_i,    // input port p's requests (but a held packet's) go after the others'
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
    if (Hold < 0 || Hold > 1) begin : gen_check_hold
      `CC_PARAM_FAIL(nnoc_sa_greedy__Hold_must_be_0_or_1)
    end
    if (VcW != ((V > 1) ? $clog2(V) : 1)) begin : gen_check_vc_w
      `CC_PARAM_FAIL(nnoc_sa_greedy__VcW_is_derived_and_must_not_be_set)
    end
  endgenerate

  reg [PW-1:0]     port_ptr_q;
  reg [NP-1:0]     hold_q;         // input port p's last flit (from VC vc_ptr_q) did not end its packet
  reg [NP*VcW-1:0] vc_ptr_q;       // input port p's first VC in its order at [p*VcW +: VcW]

  // The scan runs over rotated copies of the requests (each port's VCs rotated by its VC
  // pointer, then the ports by the port pointer), so its indices are constants: barrel
  // shifters instead of a wide multiplexer per scan step; the results are rotated back.
  wire [NP*V-1:0]    ns_v, drop_v, sp_v;     // VCs rotated within each port
  wire [NP*V*NP-1:0] want_v;
  genvar gp;
  generate
    for (gp = 0; gp < NP; gp = gp + 1) begin : gen_vc_rot
      wire [31:0]        sh  = {{(32-VcW){1'b0}}, vc_ptr_q[gp*VcW +: VcW]};
      wire [31:0]        shw = sh * NPU;
      wire [V-1:0]       unused_ns_hi, unused_drop_hi, unused_sp_hi;   // shifters' upper halves
      wire [V*NP-1:0]    unused_want_hi;
      assign {unused_ns_hi, ns_v[gp*V +: V]}     = {ns_i[gp*V +: V], ns_i[gp*V +: V]} >> sh;
      assign {unused_drop_hi, drop_v[gp*V +: V]} = {drop_i[gp*V +: V], drop_i[gp*V +: V]} >> sh;
      assign {unused_sp_hi, sp_v[gp*V +: V]}     = {sp_i[gp*V +: V], sp_i[gp*V +: V]} >> sh;
      assign {unused_want_hi, want_v[gp*V*NP +: V*NP]} =
          {want_i[gp*V*NP +: V*NP], want_i[gp*V*NP +: V*NP]} >> shw;
    end
  endgenerate
  wire [31:0]          psh   = {{(32-PW){1'b0}}, port_ptr_q};
  wire [NP*V-1:0]      ns_r, drop_r, sp_r;       // ports rotated: scan position 0 first
  wire [NP*V*NP-1:0]   want_r;
  wire [NP*VcW-1:0]    vcp_r;
  wire [NP*V-1:0]      unused_ns_hi, unused_drop_hi, unused_sp_hi;   // shifters' upper halves
  wire [NP*V*NP-1:0]   unused_want_hi;
  wire [NP*VcW-1:0]    unused_vcp_hi;
  assign {unused_ns_hi, ns_r}     = {ns_v, ns_v} >> (psh * VU);
  assign {unused_drop_hi, drop_r} = {drop_v, drop_v} >> (psh * VU);
  assign {unused_sp_hi, sp_r}     = {sp_v, sp_v} >> (psh * VU);
  assign {unused_want_hi, want_r} = {want_v, want_v} >> (psh * VU * NPU);
  assign {unused_vcp_hi, vcp_r}   = {vc_ptr_q, vc_ptr_q} >> (psh * VcW);
  wire [NP-1:0]        hold_r, unused_hold_hi;
  assign {unused_hold_hi, hold_r} = {hold_q, hold_q} >> psh;
  wire [NP-1:0]        late_r, unused_late_hi;
  assign {unused_late_hi, late_r} = {late_i, late_i} >> psh;

  reg [NP-1:0]     sel_v_r, spec_r;        // per scan position (rotated port)
  reg [NP*VcW-1:0] sel_r;
  reg [NP*NP-1:0]  gnt_r;
  reg [NP-1:0]     taken;                  // outputs given away in this cycle
  reg [NP-1:0]     left;                   // wanted outputs of a candidate still free
  reg              cand;
  reg [31:0]       v;
  integer pass, j, k, i;
  always @* begin
    sel_r   = {NP*VcW{1'b0}};
    sel_v_r = {NP{1'b0}};
    spec_r  = {NP{1'b0}};
    gnt_r   = {NP*NP{1'b0}};
    taken   = {NP{1'b0}};
    left    = {NP{1'b0}};
    cand    = 1'b0;
    v       = 32'd0;
    for (pass = 0; pass < 4; pass = pass + 1) begin
      for (j = 0; j < NP; j = j + 1) begin
        for (k = 0; k < V; k = k + 1) begin
          i    = j * V + k;
          left = want_r[i*NP +: NP] & ~taken;
          // (the held VC is first in its port's order: k == 0)
          cand = (pass == 0) ? (Hold != 0 && k == 0 && hold_r[j] && ns_r[i] && left != {NP{1'b0}}) :
                 (pass == 1) ? (!late_r[j] && ns_r[i] && (drop_r[i] || left != {NP{1'b0}})) :
                 (pass == 2) ? (ns_r[i] && (drop_r[i] || left != {NP{1'b0}})) :
                               (sp_r[i] && left != {NP{1'b0}});
          if (!sel_v_r[j] && cand) begin
            v = {{(32-VcW){1'b0}}, vcp_r[j*VcW +: VcW]} + k;   // the VC's own number
            if (v >= VU) v = v - VU;
            sel_v_r[j]          = 1'b1;
            spec_r[j]           = pass == 3;
            sel_r[j*VcW +: VcW] = v[VcW-1:0];
            gnt_r[j*NP +: NP]   = (pass != 0 && drop_r[i]) ? {NP{1'b0}} : left;
            taken               = taken | gnt_r[j*NP +: NP];
          end
        end
      end
    end
  end

  // back to port order
  wire [NP-1:0]     sel_v_hi, spec_hi, unused_sel_v_lo, unused_spec_lo;
  wire [NP*VcW-1:0] sel_hi, unused_sel_lo;
  wire [NP*NP-1:0]  gnt_hi, unused_gnt_lo;
  assign {sel_v_hi, unused_sel_v_lo} = {sel_v_r, sel_v_r} << psh;
  assign {spec_hi, unused_spec_lo}   = {spec_r, spec_r} << psh;
  assign {sel_hi, unused_sel_lo}     = {sel_r, sel_r} << (psh * VcW);
  assign {gnt_hi, unused_gnt_lo}     = {gnt_r, gnt_r} << (psh * NPU);
  always @* begin
    sel_v_o = sel_v_hi;
    spec_o  = spec_hi;
    sel_o   = sel_hi;
    gnt_o   = gnt_hi;
  end

  wire [31:0] port_next = {{(32-PW){1'b0}}, port_ptr_q} + 32'd1;
  // each input port's VC order next cycle: from the VC after the one it sent, or (Hold = 1)
  // from that VC when the flit did not end its packet
  reg [NP*VcW-1:0] vc_ptr_d;
  reg [NP-1:0]     hold_d;
  reg [31:0]       vn;
  integer q;
  always @* begin
    vc_ptr_d = vc_ptr_q;
    vn       = 32'd0;
    hold_d   = {NP{1'b0}};
    for (q = 0; q < NP; q = q + 1) begin
      vn = {{(32-VcW){1'b0}}, sel_o[q*VcW +: VcW]} + 32'd1;
      hold_d[q] = Hold != 0 && sel_v_o[q] && |gnt_o[q*NP +: NP] &&
                  !last_i[q*V + {{(32-VcW){1'b0}}, sel_o[q*VcW +: VcW]}];
      if (hold_d[q]) vc_ptr_d[q*VcW +: VcW] = sel_o[q*VcW +: VcW];
      else if (sel_v_o[q]) vc_ptr_d[q*VcW +: VcW] = (vn >= VU) ? {VcW{1'b0}} : vn[VcW-1:0];
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      port_ptr_q <= {PW{1'b0}};
      vc_ptr_q   <= {NP*VcW{1'b0}};
      hold_q     <= {NP{1'b0}};
    end else begin
      hold_q     <= hold_d;
      port_ptr_q <= (port_next >= NPU) ? {PW{1'b0}} : port_next[PW-1:0];
      vc_ptr_q   <= vc_ptr_d;
    end
  end

endmodule
