////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_mesh_router.v
//
// Purpose:   Input-buffered wormhole mesh router with V virtual channels per port, credit flow
//            control, XY routing and multicast forking (docs/neunoc.md, "Mesh router").
//            Five ports, each a flit link in (valid, VC, flit) with a credit return, and a flit
//            link out with credits coming back: 0 local, 1 east, 2 west, 3 north, 4 south.
//
//            Pipeline of a head flit (one hop = 3 cycles; bodies and tails 2):
//              BW/RC  the flit is written into its VC's FIFO; a head's output ports (nnoc_route
//                     on its destination bit string) are registered with it.
//              VA     one head per cycle (round-robin over all input VCs) is given one output VC
//                     on every port it needs at once, or none: only when each of those ports has
//                     a free VC (not allocated and holding no flits, i.e. all credits back).
//              SA/ST  separable switch allocation: each input port picks one of its active VCs
//                     (round-robin), each output port picks one of the inputs asking for it
//                     (round-robin); granted flits go through the crossbar into the output
//                     register, which drives the link. A multicast flit leaves its FIFO once
//                     every port it needs has sent it (ports may send it in different cycles).
//            A head leaving on a port carries only the destinations that port serves.
//
//            Why the "free = empty" VC rule: a VC then holds flits of one packet only, so a
//            head is always the first flit of an empty FIFO (routing at write time), and a
//            multicast packet that fits in one VC (1 + words <= Depth, the network's rule)
//            always drains into the VCs it was given. With all-or-none VC allocation no
//            multicast waits while holding output VCs, and under XY routing every wait is for a
//            channel later in X-then-Y order: the network is deadlock-free. Unicast packets
//            may be longer than a VC (plain wormhole).
//
//            A head whose destination string is empty (no port) is dropped with its packet
//            (drop_o pulses per flit); the network guard (nnoc_pe_guard) keeps such heads out.
//
//            The router's position is an input (x_i, y_i; constants in a network) rather than a
//            parameter, so all routers of a mesh are one module: Verilator compiles it once
//            (no_inline in rtl/neunoc/lint.vlt), which keeps large meshes quick to build.
//            nnoc_mesh_router_xy ties the position to parameters for stand-alone synthesis.
//
// Parameters:
//   Cols, Rows  mesh size (>= 1 each; NR = Cols * Rows routers)
//   V           virtual channels per port (>= 1)
//   Depth       flits per VC FIFO (>= 2)
//   FlitW       flit width: type in [FlitW-1:FlitW-2], destination string in [NR-1:0]
//   SingleBit   bit of a head flit that marks a head-only packet (NR .. FlitW-3: above the
//               destination string, below the type)
//
//            Ports and flit types are numbered as in cmodel/include/neunoc.h (NNOC_PORT_E =
//            NnocPortE, NNOC_HEAD = NnocHead, ...).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_mesh_router #(
  parameter integer Cols      = 2,
  parameter integer Rows      = 2,
  parameter integer V         = 2,
  parameter integer Depth     = 4,
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  // derived: do not set (a different value fails the build)
  parameter integer VcW       = (V > 1) ? $clog2(V) : 1,         // VC number width
  parameter integer XW        = (Cols > 1) ? $clog2(Cols) : 1,   // column number width
  parameter integer YW        = (Rows > 1) ? $clog2(Rows) : 1    // row number width
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire [XW-1:0]      x_i,              // this router's column (a constant)
  input  wire [YW-1:0]      y_i,              // this router's row (a constant)
  input  wire [NnocPorts-1:0]       in_valid_i,
  input  wire [NnocPorts*VcW-1:0]   in_vc_i,
  input  wire [NnocPorts*FlitW-1:0] in_flit_i,
  output wire [NnocPorts-1:0]       in_credit_o,     // one flit of VC in_credit_vc_o left its FIFO
  output wire [NnocPorts*VcW-1:0]   in_credit_vc_o,
  output wire [NnocPorts-1:0]       out_valid_o,
  output wire [NnocPorts*VcW-1:0]   out_vc_o,
  output wire [NnocPorts*FlitW-1:0] out_flit_o,
  input  wire [NnocPorts-1:0]       out_credit_i,
  input  wire [NnocPorts*VcW-1:0]   out_credit_vc_i,
  output wire                       drop_o
);

  localparam integer NnocPorts = 5;                    // NNOC_PORTS: L, E, W, N, S
  localparam integer PortIdW   = $clog2(NnocPorts);    // an input port's number
  localparam integer NR  = Cols * Rows;
  localparam integer NI  = NnocPorts * V;              // input VCs
  // V as an unsigned 32-bit value for the run-time VC indexes (port * V + vc): with the signed
  // integer V, Yosys builds a wider write decoder for alloc_q (+10% generic cells).
  localparam [31:0] VcsU = V;
  localparam integer CrW = $clog2(Depth + 1);
  localparam [CrW-1:0] CrFull = Depth[CrW-1:0];
  localparam [1:0] StIdle = 2'd0, StWaitVa = 2'd1, StActive = 2'd2;
  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocHead = 2'd1, NnocTail = 2'd2;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Cols < 1) begin : gen_check_cols
      `CC_PARAM_FAIL(nnoc_mesh_router__Cols_must_be_at_least_1)
    end
    if (Rows < 1) begin : gen_check_rows
      `CC_PARAM_FAIL(nnoc_mesh_router__Rows_must_be_at_least_1)
    end
    if (V < 1) begin : gen_check_v
      `CC_PARAM_FAIL(nnoc_mesh_router__V_must_be_at_least_1)
    end
    if (Depth < 2) begin : gen_check_depth
      `CC_PARAM_FAIL(nnoc_mesh_router__Depth_must_be_at_least_2)
    end
    if (SingleBit < NR || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_mesh_router__SingleBit_must_be_Cols_times_Rows_to_FlitW_minus_3)
    end
    if (VcW != ((V > 1) ? $clog2(V) : 1) || XW != ((Cols > 1) ? $clog2(Cols) : 1) ||
        YW != ((Rows > 1) ? $clog2(Rows) : 1)) begin : gen_check_derived
      `CC_PARAM_FAIL(nnoc_mesh_router__VcW_XW_YW_are_derived_and_must_not_be_set)
    end
  endgenerate

  // ---------------------------------------------------------------- port masks (constants)
  wire [NnocPorts*NR-1:0] port_mask;
  wire [NnocPorts-1:0]    unused_mask_ports;
  nnoc_route #(.Cols(Cols), .Rows(Rows)) u_masks (
    .x_i(x_i), .y_i(y_i), .dst_i({NR{1'b1}}), .port_o(unused_mask_ports), .sub_o(port_mask));

  // ---------------------------------------------------------------- output side state
  reg  [NI*CrW-1:0]    credit_q;      // output VC w of port o at [(o*V + w)*CrW +: CrW]
  reg  [NI-1:0]        alloc_q;       // output VC w of port o owned by a packet
  wire [NI-1:0]        vc_free;
  wire [NnocPorts-1:0] port_free;
  reg  [VcW-1:0]       first_free [0:NnocPorts-1];

  genvar go, gw, gi, gp;
  generate
    for (go = 0; go < NnocPorts; go = go + 1) begin : gen_free
      for (gw = 0; gw < V; gw = gw + 1) begin : gen_vc
        assign vc_free[go*V+gw] = !alloc_q[go*V+gw] && credit_q[(go*V+gw)*CrW +: CrW] == CrFull;
      end
      assign port_free[go] = |vc_free[go*V +: V];
    end
  endgenerate

  integer fo, fw;
  always @* begin
    for (fo = 0; fo < NnocPorts; fo = fo + 1) begin
      first_free[fo] = {VcW{1'b0}};
      for (fw = V - 1; fw >= 0; fw = fw - 1) begin
        if (vc_free[fo*V+fw]) first_free[fo] = fw[VcW-1:0];
      end
    end
  end

  // ---------------------------------------------------------------- input VCs
  wire [NI-1:0]       fifo_valid;
  wire [NI*FlitW-1:0] fifo_flit;
  wire [NI-1:0]       fifo_pop;
  reg  [1:0]          state_q [0:NI-1];
  reg  [NnocPorts-1:0] route_q [0:NI-1];
  reg  [NnocPorts-1:0] sent_q  [0:NI-1];
  // VC i's output VC on port o at [(i*NnocPorts + o)*VcW +: VcW]
  reg  [NI*NnocPorts*VcW-1:0]   ovc_q;
  // nnoc_route of each input port's incoming flit: port p's at [p*NnocPorts +: NnocPorts]
  wire [NnocPorts*NnocPorts-1:0] in_route;

  generate
    for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_in_route
      wire [NnocPorts*NR-1:0] unused_sub;
      nnoc_route #(.Cols(Cols), .Rows(Rows)) u_route (
        .x_i(x_i), .y_i(y_i), .dst_i(in_flit_i[gp*FlitW +: NR]),
        .port_o(in_route[gp*NnocPorts +: NnocPorts]), .sub_o(unused_sub));
    end
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_vc_fifo
      wire push = in_valid_i[gi/V] && in_vc_i[(gi/V)*VcW +: VcW] == vc_of(gi);
      wire unused_in_ready;
      wire [$clog2(Depth+1)-1:0] unused_count;
      cc_fifo #(.Width(FlitW), .Depth(Depth)) u_fifo (
        .clk_i(clk_i), .rst_ni(rst_ni), .clr_i(1'b0),
        .in_valid_i(push), .in_ready_o(unused_in_ready),
        .in_data_i(in_flit_i[(gi/V)*FlitW +: FlitW]),
        .out_valid_o(fifo_valid[gi]), .out_ready_i(fifo_pop[gi]),
        .out_data_o(fifo_flit[gi*FlitW +: FlitW]), .count_o(unused_count));
    end
  endgenerate

  // Zero-extended copies of narrow indices, so index arithmetic is 32 bits wide on both sides.
  function automatic integer ext_vc(input [VcW-1:0] v);
    ext_vc = {{(32-VcW){1'b0}}, v};
  endfunction
  function automatic [VcW-1:0] vc_of(input integer i);  // VC number of input VC index i
    integer t;  // only its low VcW bits are the VC number (i % V < V; lint.vlt waives the rest)
    begin
      t = i % V;
      vc_of = t[VcW-1:0];
    end
  endfunction

  function automatic is_last(input [FlitW-1:0] f);
    is_last = f[FlitW-1 -: NnocTypeBits] == NnocTail ||
              (f[FlitW-1 -: NnocTypeBits] == NnocHead && f[SingleBit]);
  endfunction

  // ---------------------------------------------------------------- VC allocation
  wire [NI-1:0] va_req;
  wire [NI-1:0] unused_va_gnt;
  wire [((NI > 1) ? $clog2(NI) : 1)-1:0] va_idx;
  wire          va_valid;
  wire [31:0]   va_idx_i = {{(32 - ((NI > 1) ? $clog2(NI) : 1)){1'b0}}, va_idx};
  generate
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_va_req
      assign va_req[gi] = state_q[gi] == StWaitVa &&
                          (route_q[gi] & ~port_free) == {NnocPorts{1'b0}};
    end
  endgenerate
  cc_rr_arbiter #(.N(NI)) u_va_arb (
    .clk_i(clk_i), .rst_ni(rst_ni), .req_i(va_req), .ack_i(va_valid),
    .gnt_o(unused_va_gnt), .gnt_idx_o(va_idx), .gnt_valid_o(va_valid));

  // ---------------------------------------------------------------- switch allocation
  // credit_ok[i*NnocPorts + o]: VC i's output VC on port o has room for one flit
  reg  [NI*NnocPorts-1:0] credit_ok;
  integer ci, co;
  always @* begin
    for (ci = 0; ci < NI; ci = ci + 1) begin
      for (co = 0; co < NnocPorts; co = co + 1) begin
        credit_ok[ci*NnocPorts+co] =
            credit_q[(co*VcsU + ext_vc(ovc_q[(ci*NnocPorts+co)*VcW +: VcW]))*CrW +: CrW] !=
            {CrW{1'b0}};
      end
    end
  end

  wire [NI-1:0] sa_cand;     // active VC with a flit that can use at least one port now
  wire [NI-1:0] drop_cand;   // active VC whose head had no destination
  generate
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_sa_cand
      assign drop_cand[gi] = state_q[gi] == StActive && fifo_valid[gi] &&
                             route_q[gi] == {NnocPorts{1'b0}};
      assign sa_cand[gi] = state_q[gi] == StActive && fifo_valid[gi] &&
                           ((|(route_q[gi] & ~sent_q[gi] & credit_ok[gi*NnocPorts +: NnocPorts])) ||
                            drop_cand[gi]);
    end
  endgenerate

  wire [VcW-1:0]           in_sel   [0:NnocPorts-1];  // VC chosen by each input port
  wire [NnocPorts-1:0]     in_sel_v;
  wire [NnocPorts-1:0]     in_gnt_any;      // an output took input port p's flit this cycle
  wire [NnocPorts-1:0]     in_req_o [0:NnocPorts-1];  // [o][p]: input p's VC asks for output o
  wire [NnocPorts*PortIdW-1:0] out_src;     // input port granted by output o, PortIdW bits each
  wire [NnocPorts-1:0]     out_gnt_v;

  generate
    for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_sa_in
      wire [V-1:0]         unused_gnt;
      wire [VcW-1:0]       idx;
      wire [NnocPorts-1:0] want;
      wire                 is_drop;
      cc_rr_arbiter #(.N(V)) u_in_arb (
        .clk_i(clk_i), .rst_ni(rst_ni), .req_i(sa_cand[gp*V +: V]),
        .ack_i(in_gnt_any[gp] || is_drop),
        .gnt_o(unused_gnt), .gnt_idx_o(idx), .gnt_valid_o(in_sel_v[gp]));
      assign in_sel[gp] = idx;
      assign is_drop = in_sel_v[gp] && drop_cand[gp*VcsU + ext_vc(idx)];
      assign want = in_sel_v[gp] ?
                    (route_q[gp*VcsU + ext_vc(idx)] & ~sent_q[gp*VcsU + ext_vc(idx)] &
                     credit_ok[(gp*VcsU + ext_vc(idx))*NnocPorts +: NnocPorts]) : {NnocPorts{1'b0}};
      for (go = 0; go < NnocPorts; go = go + 1) begin : gen_req
        assign in_req_o[go][gp] = want[go];
      end
    end
    for (go = 0; go < NnocPorts; go = go + 1) begin : gen_sa_out
      wire [NnocPorts-1:0] unused_gnt;
      cc_rr_arbiter #(.N(NnocPorts)) u_out_arb (
        .clk_i(clk_i), .rst_ni(rst_ni), .req_i(in_req_o[go]), .ack_i(out_gnt_v[go]),
        .gnt_o(unused_gnt), .gnt_idx_o(out_src[go*PortIdW +: PortIdW]),
        .gnt_valid_o(out_gnt_v[go]));
    end
  endgenerate

  // granted[p]: outputs that took input p's flit this cycle
  reg [NnocPorts-1:0] granted [0:NnocPorts-1];
  integer gp2, go2;
  always @* begin
    for (gp2 = 0; gp2 < NnocPorts; gp2 = gp2 + 1) granted[gp2] = {NnocPorts{1'b0}};
    for (go2 = 0; go2 < NnocPorts; go2 = go2 + 1) begin
      if (out_gnt_v[go2]) granted[out_src[go2*PortIdW +: PortIdW]][go2] = 1'b1;
    end
  end
  generate
    for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_gnt_any
      assign in_gnt_any[gp] = |granted[gp];
    end
  endgenerate

  // pop: the chosen VC's flit has now been sent on every port it needs (or is dropped)
  wire [NI-1:0] vc_granted;
  generate
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_pop
      wire chosen = in_sel_v[gi/V] && in_sel[gi/V] == vc_of(gi);
      assign vc_granted[gi] = chosen && |granted[gi/V];
      assign fifo_pop[gi] = chosen && (drop_cand[gi] ||
                            (|granted[gi/V] && (sent_q[gi] | granted[gi/V]) == route_q[gi]));
    end
  endgenerate

  // ---------------------------------------------------------------- input VC state
  integer si, sp;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ovc_q <= {NI*NnocPorts*VcW{1'b0}};
      for (si = 0; si < NI; si = si + 1) begin
        state_q[si] <= StIdle;
        route_q[si] <= {NnocPorts{1'b0}};
        sent_q[si]  <= {NnocPorts{1'b0}};
      end
    end else begin
      for (si = 0; si < NI; si = si + 1) begin
        // a head arrives only in an empty, idle VC (the upstream allocates empty VCs only)
        if (state_q[si] == StIdle && in_valid_i[si/V] && in_vc_i[(si/V)*VcW +: VcW] == vc_of(si) &&
            in_flit_i[(si/V)*FlitW + FlitW - 1 -: NnocTypeBits] == NnocHead) begin
          state_q[si] <= StWaitVa;
          route_q[si] <= in_route[(si/V)*NnocPorts +: NnocPorts];
        end
        if (va_valid && va_idx_i == si) begin
          state_q[si] <= StActive;
          for (sp = 0; sp < NnocPorts; sp = sp + 1) begin
            if (route_q[si][sp]) ovc_q[(si*NnocPorts+sp)*VcW +: VcW] <= first_free[sp];
          end
        end
        if (fifo_pop[si]) begin
          sent_q[si] <= {NnocPorts{1'b0}};
          if (is_last(fifo_flit[si*FlitW +: FlitW])) state_q[si] <= StIdle;
        end else if (vc_granted[si]) begin
          sent_q[si] <= sent_q[si] | granted[si/V];
        end
      end
    end
  end

  // ---------------------------------------------------------------- output registers, credits
  reg [NnocPorts-1:0]       out_valid_q;
  reg [NnocPorts*VcW-1:0]   out_vc_q;
  reg [NnocPorts*FlitW-1:0] out_flit_q;
  reg [NnocPorts-1:0]       cr_valid_q;
  reg [NnocPorts*VcW-1:0]   cr_vc_q;

  wire [NnocPorts*FlitW-1:0] xbar_flit;
  wire [NnocPorts*VcW-1:0]   xbar_vc;
  generate
    for (go = 0; go < NnocPorts; go = go + 1) begin : gen_xbar
      wire [31:0] src_p = {{(32-PortIdW){1'b0}}, out_src[go*PortIdW +: PortIdW]};
      wire [31:0] src   = src_p * VcsU + ext_vc(in_sel[out_src[go*PortIdW +: PortIdW]]);
      wire [FlitW-1:0] f = fifo_flit[src*FlitW +: FlitW];
      assign xbar_vc[go*VcW +: VcW] = ovc_q[(src*NnocPorts+go)*VcW +: VcW];
      // a head carries on only the destinations this port serves
      assign xbar_flit[go*FlitW +: FlitW] = (f[FlitW-1 -: NnocTypeBits] == NnocHead) ?
          {f[FlitW-1:NR], f[NR-1:0] & port_mask[go*NR +: NR]} : f;
    end
  endgenerate

  integer ro, rw;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= {NnocPorts{1'b0}};
      cr_valid_q  <= {NnocPorts{1'b0}};
      alloc_q     <= {NI{1'b0}};
      credit_q    <= {NI{CrFull}};
    end else begin
      out_valid_q <= out_gnt_v;
      for (ro = 0; ro < NnocPorts; ro = ro + 1) begin
        cr_valid_q[ro] <= |fifo_pop[ro*V +: V];
        for (rw = 0; rw < V; rw = rw + 1) begin
          // credit: minus a flit sent, plus a flit the next router took out of its FIFO
          credit_q[(ro*V+rw)*CrW +: CrW] <= credit_q[(ro*V+rw)*CrW +: CrW]
              - {{(CrW-1){1'b0}}, out_gnt_v[ro] && xbar_vc[ro*VcW +: VcW] == vc_of(rw)}
              + {{(CrW-1){1'b0}}, out_credit_i[ro] && out_credit_vc_i[ro*VcW +: VcW] == vc_of(rw)};
          if (out_gnt_v[ro] && xbar_vc[ro*VcW +: VcW] == vc_of(rw) &&
              is_last(xbar_flit[ro*FlitW +: FlitW])) begin
            alloc_q[ro*V+rw] <= 1'b0;
          end
        end
      end
      if (va_valid) begin
        for (ro = 0; ro < NnocPorts; ro = ro + 1) begin
          if (route_q[va_idx][ro]) alloc_q[ro*VcsU + ext_vc(first_free[ro])] <= 1'b1;
        end
      end
    end
  end

  integer cp, cv;
  always @(posedge clk_i) begin
    out_vc_q   <= xbar_vc;
    out_flit_q <= xbar_flit;
    for (cp = 0; cp < NnocPorts; cp = cp + 1) begin
      cr_vc_q[cp*VcW +: VcW] <= {VcW{1'b0}};
      for (cv = 0; cv < V; cv = cv + 1) begin
        if (fifo_pop[cp*V+cv]) cr_vc_q[cp*VcW +: VcW] <= cv[VcW-1:0];
      end
    end
  end

  assign out_valid_o    = out_valid_q;
  assign out_vc_o       = out_vc_q;
  assign out_flit_o     = out_flit_q;
  assign in_credit_o    = cr_valid_q;
  assign in_credit_vc_o = cr_vc_q;
  assign drop_o         = |(fifo_pop & drop_cand);

endmodule
