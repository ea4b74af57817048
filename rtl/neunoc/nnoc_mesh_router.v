////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_mesh_router.v
//
// Purpose:   Input-buffered wormhole mesh router with V virtual channels per port, credit flow
//            control, XY routing and multicast forking (docs/neunoc.md, "Mesh router").
//            Five ports, each a flit link in (valid, VC, flit) with a credit return, and a flit
//            link out with credits coming back: 0 local, 1 east, 2 west, 3 north, 4 south.
//
//            Pipeline of a head flit (one hop = 2 cycles with SpecSa = 1, 3 with SpecSa = 0;
//            bodies and tails 2):
//              BW/RC  the flit is written into its VC's FIFO with its output ports (nnoc_route on
//                     a head's destination bit string), so a VC may hold packets back to back.
//              VA     a head at the front of a VC whose previous packet has gone asks for one
//                     output VC on every port it needs at once, or none (nnoc_va_alloc: greedy
//                     in rotating order, one VC per output port per cycle with VaPerPort = 1,
//                     one head per router per cycle with VaPerPort = 0; the head first in line
//                     keeps its place until granted).
//              SA/ST  switch allocation: a greedy maximal matching of input VCs to outputs
//                     (nnoc_sa_greedy, SaGreedy = 1), or separable input-first round-robin
//                     arbiters (SaGreedy = 0); with SaHold = 1 a packet in progress keeps its
//                     input port and outputs first (its flits do not alternate with another
//                     packet's on a link); with SaPrio = 1 the local input's other requests
//                     go after through traffic's, with SaPrio = 2 the through inputs' after
//                     the local input's (until they have lost SaPrioWait cycles in a row);
//                     granted flits go through the crossbar into the
//                     output register, which drives the link. With SpecSa = 1 a head asks in
//                     the cycle of its VA (speculatively: used only if VA grants it, and below
//                     every non-speculative request). A multicast flit leaves its FIFO once
//                     every port it needs has sent it (ports may send in different cycles).
//            A head leaving on a port carries only the destinations that port serves.
//
//            Output VCs (see "output side state"): a multicast head takes only empty VCs (no
//            owner, all credits back), so a packet that fits in one VC (1 + words <= Depth,
//            the network's rule) always drains out of the fork: no fork ever blocks. With
//            all-or-none VC allocation no multicast waits while holding output VCs, and under
//            XY routing every wait is for a channel later in X-then-Y order: the network is
//            deadlock-free. A unicast head takes a VC whose last packet's tail has left
//            (TailFree = 1, conventional credit-based reuse) or only an empty one (TailFree =
//            0). Unicast packets may be longer than a VC (plain wormhole).
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
//   DstCoord    head destination field (cmodel/include/neunoc.h): 0 = bit string of the NR
//               routers in [NR-1:0] (XY multicast, nnoc_route; each copy carries only its
//               port's destinations); 1 = one router's coordinates in [XW+YW-1:0] (unicast,
//               nnoc_route_coord; heads pass unchanged). DstW = NR or XW + YW.
//   FlitW       flit width: type in [FlitW-1:FlitW-2], destination field in [DstW-1:0]
//   SingleBit   bit of a head flit that marks a head-only packet (DstW .. FlitW-3: above the
//               destination field, below the type)
//   VaPerPort   1: VC allocation grants one VC per output port per cycle; 0: one head per cycle
//   TailFree    1: a unicast head may take an output VC once the previous packet's tail has
//               left it; 0: only once the VC is empty downstream (all credits back)
//   SpecSa      1: heads request the switch speculatively in their VA cycle (2-cycle hops)
//   SaHold      1 (with SaGreedy = 1): a packet that has started keeps its input port and
//               outputs in switch allocation until its tail (nnoc_sa_greedy Hold); 0: each flit
//               is allocated on its own
//   SaGreedy    1: switch allocation is a greedy maximal matching (nnoc_sa_greedy); 0: a
//               separable input-first allocator of round-robin arbiters
//   VcMost      1: a unicast head takes, of the output VCs it may take, the one with the most
//               credits (the emptiest downstream buffer; the lowest on a tie); 0: the lowest
//               empty VC, else the lowest idle one
//   SaPrio      input-port priority in switch allocation (with SaGreedy = 1): 0 = every input
//               port equal; 1 = through traffic (E, W, N, S inputs) before the local input (plain
//               meshes); 2 = the local input before through traffic (Neu-NoC, where the local
//               port is the ring's channel and the network's bottleneck; docs/neunoc.md). A held
//               packet's flits keep their place (pass 0) either way.
//   SaPrioWait  1 .. 255: a lower-priority input port competes as an equal once it has lost
//               this many cycles in a row, until it sends (so no input port is starved)
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
  parameter integer VaPerPort = 1,
  parameter integer TailFree  = 1,
  parameter integer SpecSa    = 1,
  parameter integer SaGreedy  = 1,
  parameter integer SaHold    = 1,
  parameter integer VcMost    = 1,
  parameter integer SaPrio    = 0,
  parameter integer SaPrioWait = 16,
  parameter integer DstCoord  = 0,
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
  localparam integer DstW = (DstCoord != 0) ? XW + YW : NR;   // head destination field
  localparam integer NI  = NnocPorts * V;              // input VCs
  // V as an unsigned 32-bit value for the run-time VC indexes (port * V + vc): with the signed
  // integer V, Yosys builds a wider write decoder for alloc_q (+10% generic cells).
  localparam [31:0] VcsU = V;
  localparam integer CrW = $clog2(Depth + 1);
  localparam [CrW-1:0] CrFull = Depth[CrW-1:0];
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
    if (DstCoord < 0 || DstCoord > 1) begin : gen_check_dst_coord
      `CC_PARAM_FAIL(nnoc_mesh_router__DstCoord_must_be_0_or_1)
    end
    if (SingleBit < DstW || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_mesh_router__SingleBit_must_be_above_the_destination_field_to_FlitW_minus_3)
    end
    if (VaPerPort < 0 || VaPerPort > 1 || TailFree < 0 || TailFree > 1 || SpecSa < 0 ||
        SpecSa > 1 || SaGreedy < 0 || SaGreedy > 1 || SaHold < 0 || SaHold > 1 || VcMost < 0 ||
        VcMost > 1) begin : gen_check_modes
      `CC_PARAM_FAIL(nnoc_mesh_router__VaPerPort_TailFree_SpecSa_SaGreedy_SaHold_VcMost_must_be_0_or_1)
    end
    if (SaPrio < 0 || SaPrio > 2) begin : gen_check_sa_prio
      `CC_PARAM_FAIL(nnoc_mesh_router__SaPrio_must_be_0_1_or_2)
    end
    if (SaPrioWait < 1 || SaPrioWait > 255) begin : gen_check_sa_prio_wait
      `CC_PARAM_FAIL(nnoc_mesh_router__SaPrioWait_must_be_1_to_255)
    end
    if (VcW != ((V > 1) ? $clog2(V) : 1) || XW != ((Cols > 1) ? $clog2(Cols) : 1) ||
        YW != ((Rows > 1) ? $clog2(Rows) : 1)) begin : gen_check_derived
      `CC_PARAM_FAIL(nnoc_mesh_router__VcW_XW_YW_are_derived_and_must_not_be_set)
    end
  endgenerate

  // ---------------------------------------------------------------- port masks (constants)
  // The routers each output port serves (bit-string heads only: a copy keeps those bits).
  wire [NnocPorts*NR-1:0] port_mask;
  generate
    if (DstCoord == 0) begin : gen_port_mask
      wire [NnocPorts-1:0] unused_mask_ports;
      nnoc_route #(.Cols(Cols), .Rows(Rows)) u_masks (
        .x_i(x_i), .y_i(y_i), .dst_i({NR{1'b1}}), .port_o(unused_mask_ports), .sub_o(port_mask));
    end else begin : gen_no_port_mask
      assign port_mask = {(NnocPorts*NR){1'b1}};
      wire unused_port_mask = &port_mask;
    end
  endgenerate

  // ---------------------------------------------------------------- output side state
  // An output VC is "empty" when no packet owns it and all its credits are back (the
  // downstream FIFO is empty), "idle" when no packet owns it and it has room for a flit.
  // A multicast head (more than one port) needs empty VCs, so its whole packet (at most Depth
  // flits, the network's rule) drains into them whatever happens downstream: a fork never
  // blocks. A unicast head needs an idle VC with TailFree = 1 (a VC is reused as soon as the
  // tail of its last packet has left, as in conventional credit-based routers), an empty one
  // with TailFree = 0. Among the VCs it may take, a unicast head takes the one with the most
  // credits (VcMost = 1: an empty one if any, else the one whose downstream buffer has the
  // most room, so a packet rarely queues behind another), or the lowest empty one, else the
  // lowest idle one (VcMost = 0). A multicast head takes the lowest empty VC of each port.
  reg  [NI*CrW-1:0]    credit_q;      // output VC w of port o at [(o*V + w)*CrW +: CrW]
  reg  [NI-1:0]        alloc_q;       // output VC w of port o owned by a packet
  wire [NI-1:0]        vc_empty;
  wire [NI-1:0]        vc_idle;
  wire [NnocPorts-1:0] port_empty;    // the port has an empty VC (what a multicast needs)
  wire [NnocPorts-1:0] port_uni;      // the port has a VC a unicast head may take
  reg  [NnocPorts*VcW-1:0] first_empty;   // port o's VC to give at [o*VcW +: VcW]
  reg  [NnocPorts*VcW-1:0] first_uni;

  genvar go, gw, gi, gp;
  generate
    for (go = 0; go < NnocPorts; go = go + 1) begin : gen_free
      for (gw = 0; gw < V; gw = gw + 1) begin : gen_vc
        assign vc_empty[go*V+gw] = !alloc_q[go*V+gw] && credit_q[(go*V+gw)*CrW +: CrW] == CrFull;
        assign vc_idle[go*V+gw]  = !alloc_q[go*V+gw] &&
                                   credit_q[(go*V+gw)*CrW +: CrW] != {CrW{1'b0}};
      end
      assign port_empty[go] = |vc_empty[go*V +: V];
      assign port_uni[go]   = (TailFree != 0) ? |vc_idle[go*V +: V] : port_empty[go];
    end
  endgenerate

  integer fo, fw;
  reg [CrW-1:0] best_cr;
  always @* begin
    for (fo = 0; fo < NnocPorts; fo = fo + 1) begin
      first_empty[fo*VcW +: VcW] = {VcW{1'b0}};
      first_uni[fo*VcW +: VcW]   = {VcW{1'b0}};
      best_cr = {CrW{1'b0}};
      for (fw = 0; fw < V; fw = fw + 1) begin
        if (vc_idle[fo*V+fw] && TailFree != 0 &&
            (VcMost != 0 ? credit_q[(fo*V+fw)*CrW +: CrW] > best_cr : best_cr == {CrW{1'b0}})) begin
          first_uni[fo*VcW +: VcW] = fw[VcW-1:0];
          best_cr = credit_q[(fo*V+fw)*CrW +: CrW];
        end
      end
      for (fw = V - 1; fw >= 0; fw = fw - 1) begin
        if (vc_empty[fo*V+fw]) begin
          first_empty[fo*VcW +: VcW] = fw[VcW-1:0];
          first_uni[fo*VcW +: VcW]   = fw[VcW-1:0];
        end
      end
    end
  end

  // ---------------------------------------------------------------- input VCs
  // Each FIFO entry carries its flit and, for a head, the head's output ports (RC at write
  // time: nnoc_route on the destination string), so a VC may hold packets back to back.
  localparam integer EntW = FlitW + NnocPorts;
  wire [NI-1:0]                 fifo_valid;
  wire [NI*FlitW-1:0]           fifo_flit;
  wire [NI*NnocPorts-1:0]       fifo_route;    // the front head's ports (valid for a head)
  wire [NI-1:0]                 fifo_pop;
  reg  [NI-1:0]                 active_q;      // the VC's packet owns its output VCs
  reg  [NnocPorts-1:0]          route_q [0:NI-1];
  reg  [NnocPorts-1:0]          sent_q  [0:NI-1];
  // VC i's output VC on port o at [(i*NnocPorts + o)*VcW +: VcW]
  reg  [NI*NnocPorts*VcW-1:0]   ovc_q;
  // nnoc_route of each input port's incoming flit: port p's at [p*NnocPorts +: NnocPorts]
  wire [NnocPorts*NnocPorts-1:0] in_route;

  generate
    for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_in_route
      if (DstCoord == 0) begin : gen_string
        wire [NnocPorts*NR-1:0] unused_sub;
        nnoc_route #(.Cols(Cols), .Rows(Rows)) u_route (
          .x_i(x_i), .y_i(y_i), .dst_i(in_flit_i[gp*FlitW +: NR]),
          .port_o(in_route[gp*NnocPorts +: NnocPorts]), .sub_o(unused_sub));
      end else begin : gen_coord
        nnoc_route_coord #(.Cols(Cols), .Rows(Rows)) u_route (
          .x_i(x_i), .y_i(y_i), .dst_i(in_flit_i[gp*FlitW +: DstW]),
          .port_o(in_route[gp*NnocPorts +: NnocPorts]));
      end
    end
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_vc_fifo
      wire push = in_valid_i[gi/V] && in_vc_i[(gi/V)*VcW +: VcW] == vc_of(gi);
      wire unused_in_ready;
      wire [$clog2(Depth+1)-1:0] unused_count;
      wire [EntW-1:0] ent;
      cc_fifo #(.Width(EntW), .Depth(Depth)) u_fifo (
        .clk_i(clk_i), .rst_ni(rst_ni), .clr_i(1'b0),
        .in_valid_i(push), .in_ready_o(unused_in_ready),
        .in_data_i({in_route[(gi/V)*NnocPorts +: NnocPorts], in_flit_i[(gi/V)*FlitW +: FlitW]}),
        .out_valid_o(fifo_valid[gi]), .out_ready_i(fifo_pop[gi]),
        .out_data_o(ent), .count_o(unused_count));
      assign fifo_flit[gi*FlitW +: FlitW]          = ent[FlitW-1:0];
      assign fifo_route[gi*NnocPorts +: NnocPorts] = ent[EntW-1:FlitW];
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

  function automatic is_multi(input [NnocPorts-1:0] r);   // more than one port
    is_multi = (r & (r - {{(NnocPorts-1){1'b0}}, 1'b1})) != {NnocPorts{1'b0}};
  endfunction

  // ---------------------------------------------------------------- VC allocation
  // A head waits at the front of an input VC whose previous packet has gone (not active).
  wire [NI-1:0] head_wait;
  wire [NI-1:0] head_ok;     // every port it needs has a VC of its kind free now
  wire [NI-1:0] va_gnt;
  generate
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_va_req
      wire [NnocPorts-1:0] r = fifo_route[gi*NnocPorts +: NnocPorts];
      assign head_wait[gi] = !active_q[gi] && fifo_valid[gi] &&
                             fifo_flit[gi*FlitW + FlitW - 1 -: NnocTypeBits] == NnocHead;
      assign head_ok[gi] = (r & ~(is_multi(r) ? port_empty : port_uni)) == {NnocPorts{1'b0}};
    end
  endgenerate
  generate
    if (V >= 1) begin : gen_va   // (V < 1 fails the parameter check above, naming the rule)
      nnoc_va_alloc #(.N(NI), .P(NnocPorts), .PerPort(VaPerPort)) u_va (
        .clk_i(clk_i), .rst_ni(rst_ni), .wait_i(head_wait), .ok_i(head_ok), .need_i(fifo_route),
        .gnt_o(va_gnt));
    end
  endgenerate

  // The output VC each port gives this cycle (at most one grant per port), and to which kind.
  reg [NnocPorts-1:0] va_port;                 // port o gives a VC this cycle
  reg [VcW-1:0]       va_vc [0:NnocPorts-1];   // ... this one
  integer vi, vo;
  always @* begin
    va_port = {NnocPorts{1'b0}};
    for (vo = 0; vo < NnocPorts; vo = vo + 1) va_vc[vo] = first_uni[vo*VcW +: VcW];
    for (vi = 0; vi < NI; vi = vi + 1) begin
      if (va_gnt[vi]) begin
        va_port = va_port | fifo_route[vi*NnocPorts +: NnocPorts];
        if (is_multi(fifo_route[vi*NnocPorts +: NnocPorts])) begin
          for (vo = 0; vo < NnocPorts; vo = vo + 1) begin
            if (fifo_route[vi*NnocPorts + vo]) va_vc[vo] = first_empty[vo*VcW +: VcW];
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- switch allocation
  // The ports a VC's front flit still has to go to, and whether it may use each now:
  // active VCs ask for ports whose output VC has a credit (non-speculative); with SpecSa = 1 a
  // waiting head whose VCs are free asks too, in the cycle of its VC allocation
  // (speculative): it goes only if the allocation grants it, and loses to every
  // non-speculative request at both stages of the switch allocator.
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

  wire [NI-1:0] ns_cand;     // active VC with a flit that can use at least one port now
  wire [NI-1:0] sp_cand;     // waiting head whose VCs are free (speculative request)
  wire [NI-1:0] drop_cand;   // active VC whose head had no destination
  wire [NI*NnocPorts-1:0] vc_want;   // ports VC i asks for
  wire [NI*NnocPorts-1:0] vc_route;  // all ports of VC i's packet
  generate
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_sa_cand
      assign vc_route[gi*NnocPorts +: NnocPorts] = active_q[gi] ? route_q[gi] :
                                                   fifo_route[gi*NnocPorts +: NnocPorts];
      assign drop_cand[gi] = active_q[gi] && fifo_valid[gi] && route_q[gi] == {NnocPorts{1'b0}};
      assign vc_want[gi*NnocPorts +: NnocPorts] = active_q[gi] ?
          (route_q[gi] & ~sent_q[gi] & credit_ok[gi*NnocPorts +: NnocPorts]) :
          fifo_route[gi*NnocPorts +: NnocPorts];
      assign ns_cand[gi] = active_q[gi] && fifo_valid[gi] &&
                           ((|vc_want[gi*NnocPorts +: NnocPorts]) || drop_cand[gi]);
      assign sp_cand[gi] = (SpecSa != 0) && head_wait[gi] && head_ok[gi] &&
                           (|fifo_route[gi*NnocPorts +: NnocPorts]);
    end
  endgenerate

  wire [VcW-1:0]           in_sel   [0:NnocPorts-1];  // VC chosen by each input port
  wire [NnocPorts-1:0]     in_sel_v;
  wire [NnocPorts-1:0]     in_spec;         // ... and its request is speculative
  wire [NnocPorts*NnocPorts-1:0] gnt_mat;   // outputs that take input port p's flit now
  wire [NnocPorts-1:0]     is_drop;         // input port p drops its chosen VC's flit

  generate
    if (SaGreedy == 0) begin : gen_sa_sep
      // Separable, input first: each input port picks one VC (round-robin, non-speculative
      // candidates first), each output port one of the inputs asking for it (round-robin,
      // non-speculative first). A speculative grant is used only if the head got its VCs in
      // the same cycle; otherwise the output stays idle this cycle.
      wire [NnocPorts-1:0]     in_gnt_any;      // an output took input port p's flit
      wire [NnocPorts-1:0]     in_va_gnt;       // input p's chosen VC got its VCs this cycle
      wire [NnocPorts-1:0]     in_req_o [0:NnocPorts-1];  // [o][p]: input p asks for output o
      for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_sa_in
        wire [V-1:0]         unused_ns_gnt, unused_sp_gnt;
        wire [VcW-1:0]       ns_idx, sp_idx;
        wire                 ns_v, sp_v;
        wire [NnocPorts-1:0] want;
        cc_rr_arbiter #(.N(V)) u_in_arb (
          .clk_i(clk_i), .rst_ni(rst_ni), .req_i(ns_cand[gp*V +: V]),
          .ack_i(in_gnt_any[gp] || is_drop[gp]),
          .gnt_o(unused_ns_gnt), .gnt_idx_o(ns_idx), .gnt_valid_o(ns_v));
        cc_rr_arbiter #(.N(V)) u_in_spec_arb (
          .clk_i(clk_i), .rst_ni(rst_ni), .req_i(sp_cand[gp*V +: V]),
          .ack_i(in_gnt_any[gp] && !ns_v),
          .gnt_o(unused_sp_gnt), .gnt_idx_o(sp_idx), .gnt_valid_o(sp_v));
        assign in_sel[gp]    = ns_v ? ns_idx : sp_idx;
        assign in_sel_v[gp]  = ns_v || sp_v;
        assign in_spec[gp]   = !ns_v && sp_v;
        assign in_va_gnt[gp] = va_gnt[gp*VcsU + ext_vc(in_sel[gp])];
        assign is_drop[gp]   = ns_v && drop_cand[gp*VcsU + ext_vc(ns_idx)];
        assign want = in_sel_v[gp] ?
                      vc_want[(gp*VcsU + ext_vc(in_sel[gp]))*NnocPorts +: NnocPorts] :
                      {NnocPorts{1'b0}};
        for (go = 0; go < NnocPorts; go = go + 1) begin : gen_req
          assign in_req_o[go][gp] = want[go];
        end
        assign in_gnt_any[gp] = |gnt_mat[gp*NnocPorts +: NnocPorts];
      end
      for (go = 0; go < NnocPorts; go = go + 1) begin : gen_sa_out
        wire [NnocPorts-1:0] unused_ns_gnt, unused_sp_gnt;
        wire [NnocPorts-1:0] ns_req = in_req_o[go] & ~in_spec;
        wire [NnocPorts-1:0] sp_req = in_req_o[go] & in_spec;
        wire [PortIdW-1:0]   ns_src, sp_src;
        wire                 ns_v, sp_v;
        wire                 fire = ns_v || (sp_v && in_va_gnt[sp_src]);
        cc_rr_arbiter #(.N(NnocPorts)) u_out_arb (
          .clk_i(clk_i), .rst_ni(rst_ni), .req_i(ns_req), .ack_i(ns_v),
          .gnt_o(unused_ns_gnt), .gnt_idx_o(ns_src), .gnt_valid_o(ns_v));
        cc_rr_arbiter #(.N(NnocPorts)) u_out_spec_arb (
          .clk_i(clk_i), .rst_ni(rst_ni), .req_i(sp_req), .ack_i(fire && !ns_v),
          .gnt_o(unused_sp_gnt), .gnt_idx_o(sp_src), .gnt_valid_o(sp_v));
        for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_mat
          assign gnt_mat[gp*NnocPorts + go] = fire && (ns_v ? ns_src : sp_src) == gp[PortIdW-1:0];
        end
      end
    end else if (V >= 1) begin : gen_sa_greedy
      // Greedy maximal matching (nnoc_sa_greedy); a speculative head is a candidate only when
      // its VA succeeds in this cycle, so no output slot is spent on a failed speculation.
      wire [NnocPorts*VcW-1:0] sel;
      wire [NI-1:0]            fifo_last;   // the VC's front flit ends its packet
      for (gi = 0; gi < NI; gi = gi + 1) begin : gen_last
        assign fifo_last[gi] = is_last(fifo_flit[gi*FlitW +: FlitW]);
      end
      // SaPrio: the lower-priority input ports' requests go after the others' (late) until
      // they have lost SaPrioWait cycles in a row; wait_q[p] counts the cycles in which input
      // port p had a non-speculative candidate and sent nothing (it stops at SaPrioWait)
      localparam [NnocPorts-1:0] LowPorts = (SaPrio == 1) ? 5'b00001 :    // the local input
                                            (SaPrio == 2) ? 5'b11110 :    // E, W, N, S inputs
                                                            5'b00000;
      localparam [7:0] WaitMax = SaPrioWait[7:0];
      reg  [7:0]           wait_q [0:NnocPorts-1];
      wire [NnocPorts-1:0] late;
      integer wp;
      for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_late
        assign late[gp] = LowPorts[gp] && wait_q[gp] < WaitMax;
      end
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          for (wp = 0; wp < NnocPorts; wp = wp + 1) wait_q[wp] <= 8'd0;
        end else begin
          for (wp = 0; wp < NnocPorts; wp = wp + 1) begin
            if (!(|ns_cand[wp*V +: V]) || in_sel_v[wp]) wait_q[wp] <= 8'd0;
            else if (late[wp]) wait_q[wp] <= wait_q[wp] + 8'd1;
          end
        end
      end
      nnoc_sa_greedy #(.NP(NnocPorts), .V(V), .Hold(SaHold)) u_sa (
        .clk_i(clk_i), .rst_ni(rst_ni), .ns_i(ns_cand), .drop_i(drop_cand),
        .sp_i(sp_cand & va_gnt), .want_i(vc_want), .last_i(fifo_last),
        .late_i(late), .sel_o(sel),
        .sel_v_o(in_sel_v),
        .spec_o(in_spec), .gnt_o(gnt_mat));
      for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_sel
        assign in_sel[gp]  = sel[gp*VcW +: VcW];
        assign is_drop[gp] = in_sel_v[gp] && !in_spec[gp] &&
                             drop_cand[gp*VcsU + ext_vc(in_sel[gp])];
      end
    end
  endgenerate

  // granted[p]: outputs that took input p's flit this cycle; per output the input it took
  // (out_src), whether it sends (out_gnt_v) and whether that flit was a speculative head
  wire [NnocPorts-1:0]         granted [0:NnocPorts-1];
  reg  [NnocPorts*PortIdW-1:0] out_src;
  reg  [NnocPorts-1:0]         out_gnt_v;
  reg  [NnocPorts-1:0]         out_spec;
  integer gp2, go2;
  always @* begin
    out_src   = {NnocPorts*PortIdW{1'b0}};
    out_gnt_v = {NnocPorts{1'b0}};
    out_spec  = {NnocPorts{1'b0}};
    for (go2 = 0; go2 < NnocPorts; go2 = go2 + 1) begin
      for (gp2 = 0; gp2 < NnocPorts; gp2 = gp2 + 1) begin
        if (gnt_mat[gp2*NnocPorts + go2]) begin
          out_src[go2*PortIdW +: PortIdW] = gp2[PortIdW-1:0];
          out_gnt_v[go2] = 1'b1;
          out_spec[go2]  = in_spec[gp2];
        end
      end
    end
  end
  generate
    for (gp = 0; gp < NnocPorts; gp = gp + 1) begin : gen_granted
      assign granted[gp] = gnt_mat[gp*NnocPorts +: NnocPorts];
    end
  endgenerate

  // pop: the chosen VC's flit has now been sent on every port it needs (or is dropped)
  wire [NI-1:0] vc_granted;
  generate
    for (gi = 0; gi < NI; gi = gi + 1) begin : gen_pop
      wire chosen = in_sel_v[gi/V] && in_sel[gi/V] == vc_of(gi);
      wire [NnocPorts-1:0] done = (active_q[gi] ? sent_q[gi] : {NnocPorts{1'b0}}) | granted[gi/V];
      assign vc_granted[gi] = chosen && |granted[gi/V];
      assign fifo_pop[gi] = chosen && (is_drop[gi/V] ||
                            (|granted[gi/V] && done == vc_route[gi*NnocPorts +: NnocPorts]));
    end
  endgenerate

  // ---------------------------------------------------------------- input VC state
  integer si, sp;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ovc_q    <= {NI*NnocPorts*VcW{1'b0}};
      active_q <= {NI{1'b0}};
      for (si = 0; si < NI; si = si + 1) begin
        route_q[si] <= {NnocPorts{1'b0}};
        sent_q[si]  <= {NnocPorts{1'b0}};
      end
    end else begin
      for (si = 0; si < NI; si = si + 1) begin
        if (va_gnt[si]) begin
          active_q[si] <= 1'b1;
          route_q[si]  <= fifo_route[si*NnocPorts +: NnocPorts];
          for (sp = 0; sp < NnocPorts; sp = sp + 1) begin
            if (fifo_route[si*NnocPorts + sp]) ovc_q[(si*NnocPorts+sp)*VcW +: VcW] <= va_vc[sp];
          end
        end
        if (fifo_pop[si]) begin
          sent_q[si] <= {NnocPorts{1'b0}};
          if (is_last(fifo_flit[si*FlitW +: FlitW])) active_q[si] <= 1'b0;
        end else if (vc_granted[si]) begin
          sent_q[si] <= (active_q[si] ? sent_q[si] : {NnocPorts{1'b0}}) | granted[si/V];
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
      // a speculative head goes on the VC its port gives it in this cycle
      assign xbar_vc[go*VcW +: VcW] = out_spec[go] ? va_vc[go] :
                                                     ovc_q[(src*NnocPorts+go)*VcW +: VcW];
      // a bit-string head carries on only the destinations this port serves
      if (DstCoord == 0) begin : gen_sub
        assign xbar_flit[go*FlitW +: FlitW] = (f[FlitW-1 -: NnocTypeBits] == NnocHead) ?
            {f[FlitW-1:NR], f[NR-1:0] & port_mask[go*NR +: NR]} : f;
      end else begin : gen_pass
        assign xbar_flit[go*FlitW +: FlitW] = f;
      end
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
          // owned from its allocation until its packet's last flit is sent (both in one
          // cycle for a single-flit head sent speculatively)
          alloc_q[ro*V+rw] <= (alloc_q[ro*V+rw] ||
                               (va_port[ro] && va_vc[ro] == vc_of(rw))) &&
                              !(out_gnt_v[ro] && xbar_vc[ro*VcW +: VcW] == vc_of(rw) &&
                                is_last(xbar_flit[ro*FlitW +: FlitW]));
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
