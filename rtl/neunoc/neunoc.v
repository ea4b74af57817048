////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  neunoc.v
//
// Purpose:   Neu-NoC network top (Figure 35): a Cols x Rows mesh of nnoc_mesh_router with one
//            local ring of K PEs on every router's local port; K = 1 is the plain 2D mesh
//            baseline built from the same router (the PE sits on the local port).
//
//            Path of a packet from PE p of router r (docs/neunoc.md has the picture):
//              PE -> nnoc_pe_guard -> nnoc_ring_send[p] -> ... -> nnoc_ring_send[K-1]
//                 -> nnoc_pack (Pack = 1) -> nnoc_inject -> router r, local port
//              mesh, XY routing, multicast forks
//              router, local port -> nnoc_eject -> nnoc_unpack (Pack = 1)
//                 -> nnoc_ring_recv[0] -> ... -> nnoc_ring_recv[K-1] -> PEs
//            The send channel runs from ring position 0 to K-1 and ends at the mesh router, the
//            receive channel starts at the mesh router and runs from 0 to K-1: the two channels
//            of Figure 36a meet at the mesh router, which also turns packets for the source's
//            own ring around (local in to local out).
//
//            Flit format (cmodel/include/neunoc.h): type [FlitW-1:FlitW-2] (01 head, 00 body,
//            10 tail, 11 PP), payload below. Head payload: dst_mesh [NR-1:0], dst_pe [NR +: K],
//            src router, src ring position, tag, single (bit HdrW-1). Body/tail: data word in
//            [DataW-1:0].
//
// Parameters (checked at elaboration; an illegal value fails the build naming the rule):
//   K           PEs per local ring (>= 1; 1 = plain mesh)
//   Cols, Rows  mesh size (n x m, >= 1 each)
//   V, Depth    virtual channels per mesh port (>= 1) and flits per VC (>= 2); a multicast
//               packet must fit in one VC (nnoc_pe_guard enforces it)
//   DataW       data word bits; TagW: tag bits; CntW: PP counter bits (>= 1 each)
//   Pack        1: zero-flit packing/unpacking at each ring/mesh boundary; 0: none
//   VaPerPort, TailFree, SpecSa, SaGreedy  mesh router microarchitecture (nnoc_mesh_router; 1 = the
//               conventional VC router's choice, 0 = the simpler first design; docs/neunoc.md)
//   RingFair    1: send-ring routers share the channel equally among the ring's PEs
//               (nnoc_ring_send Fair); 0: in-flight flits always win (the paper's rule)
//   the rest    derived widths, do not set (a different value fails the build)
//
//            Ports and flit fields are named as in cmodel/include/neunoc.h (NNOC_PORT_E =
//            NnocPortE, NNOC_PORTS = NnocPorts).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module neunoc #(
  parameter integer K      = 4,
  parameter integer Cols   = 2,
  parameter integer Rows   = 2,
  parameter integer V      = 2,
  parameter integer Depth  = 8,
  parameter integer DataW  = 16,
  parameter integer TagW   = 8,
  parameter integer CntW   = 4,
  parameter integer Pack   = 1,
  parameter integer VaPerPort = 1,
  parameter integer TailFree  = 1,
  parameter integer SpecSa    = 1,
  parameter integer SaGreedy  = 1,
  parameter integer RingFair  = 1,
  parameter integer NR     = Cols * Rows,
  parameter integer NP     = NR * K,
  parameter integer RIdW   = (NR > 1) ? $clog2(NR) : 1,
  parameter integer PIdW   = (K > 1) ? $clog2(K) : 1,
  parameter integer HdrW   = NR + K + RIdW + PIdW + TagW + 1,
  parameter integer PW     = (DataW > HdrW) ? ((DataW > CntW) ? DataW : CntW)
                                           : ((HdrW > CntW) ? HdrW : CntW),
  parameter integer FlitW  = PW + 2          // the payload and the type (NNOC_TYPE_BITS)
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire [NP-1:0]      pe_in_valid_i,
  output wire [NP-1:0]      pe_in_ready_o,
  input  wire [NP*FlitW-1:0] pe_in_flit_i,
  output wire [NP-1:0]      pe_out_valid_o,
  input  wire [NP-1:0]      pe_out_ready_i,
  output wire [NP*FlitW-1:0] pe_out_flit_o,
  output wire [NP-1:0]      err_pe_o,          // a PE's stream was repaired (nnoc_pe_guard)
  output wire               err_drop_o,        // a router dropped a flit of a no-destination head
  output wire [31:0]        stat_pe_flits_o,   // flits taken from the PEs (after the guards)
  output wire [31:0]        stat_mesh_flits_o  // flits sent into the mesh (after packing)
);

  localparam integer VcW       = (V > 1) ? $clog2(V) : 1;
  localparam integer SingleBit = HdrW - 1;
  // Mesh router ports (cmodel/include/neunoc.h: NNOC_PORTS, NNOC_PORT_L ... NNOC_PORT_S).
  localparam integer NnocPorts = 5;
  localparam integer NnocPortL = 0, NnocPortE = 1, NnocPortW = 2, NnocPortN = 3, NnocPortS = 4;
  localparam integer NnocTypeBits = 2;   // NNOC_TYPE_BITS: the flit type above the payload
  // The derived parameters, recomputed: they must not be set.
  localparam integer NRD   = Cols * Rows;
  localparam integer RIdWD = (NRD > 1) ? $clog2(NRD) : 1;
  localparam integer PIdWD = (K > 1) ? $clog2(K) : 1;
  localparam integer HdrWD = NRD + K + RIdWD + PIdWD + TagW + 1;
  localparam integer PWD   = (DataW > HdrWD) ? ((DataW > CntW) ? DataW : CntW)
                                             : ((HdrWD > CntW) ? HdrWD : CntW);

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (K < 1) begin : gen_check_k
      `CC_PARAM_FAIL(neunoc__K_must_be_at_least_1)
    end
    if (Cols < 1) begin : gen_check_cols
      `CC_PARAM_FAIL(neunoc__Cols_must_be_at_least_1)
    end
    if (Rows < 1) begin : gen_check_rows
      `CC_PARAM_FAIL(neunoc__Rows_must_be_at_least_1)
    end
    if (V < 1) begin : gen_check_v
      `CC_PARAM_FAIL(neunoc__V_must_be_at_least_1)
    end
    if (Depth < 2) begin : gen_check_depth
      `CC_PARAM_FAIL(neunoc__Depth_must_be_at_least_2)
    end
    if (DataW < 1) begin : gen_check_data_w
      `CC_PARAM_FAIL(neunoc__DataW_must_be_at_least_1)
    end
    if (TagW < 1) begin : gen_check_tag_w
      `CC_PARAM_FAIL(neunoc__TagW_must_be_at_least_1)
    end
    if (CntW < 1) begin : gen_check_cnt_w
      `CC_PARAM_FAIL(neunoc__CntW_must_be_at_least_1)
    end
    if (Pack != 0 && Pack != 1) begin : gen_check_pack
      `CC_PARAM_FAIL(neunoc__Pack_must_be_0_or_1)
    end
    if (NR != NRD || NP != NRD * K || RIdW != RIdWD || PIdW != PIdWD || HdrW != HdrWD ||
        PW != PWD || FlitW != PWD + NnocTypeBits) begin : gen_check_derived
      `CC_PARAM_FAIL(neunoc__NR_NP_RIdW_PIdW_HdrW_PW_FlitW_are_derived_and_must_not_be_set)
    end
  endgenerate

  // ---------------------------------------------------------------- mesh wires
  // Link of router r's port p at [r*NnocPorts + p] (times VcW or FlitW for the vectors).
  wire [NR*NnocPorts-1:0]       rin_valid,  rin_credit,  rout_valid,  rout_credit;
  wire [NR*NnocPorts*VcW-1:0]   rin_vc,     rin_cr_vc,   rout_vc,     rout_cr_vc;
  wire [NR*NnocPorts*FlitW-1:0] rin_flit,   rout_flit;
  wire [NR-1:0]         drop;

  // ---------------------------------------------------------------- local side, per router
  wire [NR-1:0]         to_mesh_valid,  to_mesh_ready;    // stream into nnoc_inject
  wire [NR*FlitW-1:0]   to_mesh_flit;
  wire [NR-1:0]         from_mesh_valid, from_mesh_ready; // stream out of nnoc_eject/unpack
  wire [NR*FlitW-1:0]   from_mesh_flit;
  wire [NP-1:0]         guard_valid, guard_ready;
  wire [NP*FlitW-1:0]   guard_flit;

  genvar gr, gp, gk;
  generate
    for (gk = 0; gk < NP; gk = gk + 1) begin : gen_guard
      nnoc_pe_guard #(.FlitW(FlitW), .SingleBit(SingleBit), .NR(NR), .K(K), .Depth(Depth)) u_guard (
        .clk_i(clk_i), .rst_ni(rst_ni),
        .in_valid_i(pe_in_valid_i[gk]), .in_ready_o(pe_in_ready_o[gk]),
        .in_flit_i(pe_in_flit_i[gk*FlitW +: FlitW]),
        .out_valid_o(guard_valid[gk]), .out_ready_i(guard_ready[gk]),
        .out_flit_o(guard_flit[gk*FlitW +: FlitW]), .err_o(err_pe_o[gk]));
    end

    for (gr = 0; gr < NR; gr = gr + 1) begin : gen_router
      localparam integer X   = gr % Cols;
      localparam integer Y   = gr / Cols;
      localparam integer Loc = gr * NnocPorts + NnocPortL;   // this router's local-port link

      // ---- send channel: PEs -> ring -> (pack) -> inject
      wire [K:0]         s_valid, s_ready;   // s_*[j]: into ring_send[j] from upstream
      wire [(K+1)*FlitW-1:0] s_flit;
      assign s_valid[0] = 1'b0;
      assign s_flit[0 +: FlitW] = {FlitW{1'b0}};
      if (K == 1) begin : gen_no_ring_send
        assign s_valid[1] = guard_valid[gr];
        assign s_flit[FlitW +: FlitW] = guard_flit[gr*FlitW +: FlitW];
        assign guard_ready[gr] = s_ready[1];
        assign s_ready[0] = 1'b0;
        wire unused_s0 = s_ready[0] | s_valid[0] | (|s_flit[0 +: FlitW]);
      end else begin : gen_ring_send
        wire unused_s0 = s_ready[0];   // nothing feeds ring position 0 from upstream
        for (gp = 0; gp < K; gp = gp + 1) begin : gen_send
          nnoc_ring_send #(.FlitW(FlitW), .SingleBit(SingleBit), .Pos(gp), .Fair(RingFair))
            u_send (
            .clk_i(clk_i), .rst_ni(rst_ni),
            .up_valid_i(s_valid[gp]), .up_ready_o(s_ready[gp]),
            .up_flit_i(s_flit[gp*FlitW +: FlitW]),
            .pe_valid_i(guard_valid[gr*K+gp]), .pe_ready_o(guard_ready[gr*K+gp]),
            .pe_flit_i(guard_flit[(gr*K+gp)*FlitW +: FlitW]),
            .out_valid_o(s_valid[gp+1]), .out_ready_i(s_ready[gp+1]),
            .out_flit_o(s_flit[(gp+1)*FlitW +: FlitW]));
        end
      end

      wire             pk_valid, pk_ready;
      wire [FlitW-1:0] pk_flit;
      if (Pack != 0) begin : gen_pack
        nnoc_pack #(.FlitW(FlitW), .CntW(CntW)) u_pack (
          .clk_i(clk_i), .rst_ni(rst_ni),
          .in_valid_i(s_valid[K]), .in_ready_o(s_ready[K]), .in_flit_i(s_flit[K*FlitW +: FlitW]),
          .out_valid_o(pk_valid), .out_ready_i(pk_ready), .out_flit_o(pk_flit));
      end else begin : gen_no_pack
        assign pk_valid   = s_valid[K];
        assign s_ready[K] = pk_ready;
        assign pk_flit    = s_flit[K*FlitW +: FlitW];
      end
      assign to_mesh_valid[gr] = pk_valid && pk_ready;
      assign to_mesh_flit[gr*FlitW +: FlitW] = pk_flit;
      assign to_mesh_ready[gr] = pk_ready;

      nnoc_inject #(.V(V), .Depth(Depth), .FlitW(FlitW), .SingleBit(SingleBit),
                    .TailFree(TailFree)) u_inject (
        .clk_i(clk_i), .rst_ni(rst_ni),
        .in_valid_i(pk_valid), .in_ready_o(pk_ready), .in_flit_i(pk_flit),
        .out_valid_o(rin_valid[Loc]), .out_vc_o(rin_vc[Loc*VcW +: VcW]),
        .out_flit_o(rin_flit[Loc*FlitW +: FlitW]),
        .credit_i(rin_credit[Loc]), .credit_vc_i(rin_cr_vc[Loc*VcW +: VcW]));

      // ---- receive channel: eject -> (unpack) -> ring -> PEs
      wire             ej_valid, ej_ready;
      wire [FlitW-1:0] ej_flit;
      nnoc_eject #(.V(V), .Depth(Depth), .FlitW(FlitW), .SingleBit(SingleBit)) u_eject (
        .clk_i(clk_i), .rst_ni(rst_ni),
        .in_valid_i(rout_valid[Loc]), .in_vc_i(rout_vc[Loc*VcW +: VcW]),
        .in_flit_i(rout_flit[Loc*FlitW +: FlitW]),
        .credit_o(rout_credit[Loc]), .credit_vc_o(rout_cr_vc[Loc*VcW +: VcW]),
        .out_valid_o(ej_valid), .out_ready_i(ej_ready), .out_flit_o(ej_flit));

      wire             up_valid, up_ready;
      wire [FlitW-1:0] up_flit;
      if (Pack != 0) begin : gen_unpack
        nnoc_unpack #(.FlitW(FlitW), .CntW(CntW)) u_unpack (
          .clk_i(clk_i), .rst_ni(rst_ni),
          .in_valid_i(ej_valid), .in_ready_o(ej_ready), .in_flit_i(ej_flit),
          .out_valid_o(up_valid), .out_ready_i(up_ready), .out_flit_o(up_flit));
      end else begin : gen_no_unpack
        assign up_valid = ej_valid;
        assign ej_ready = up_ready;
        assign up_flit  = ej_flit;
      end
      assign from_mesh_valid[gr] = up_valid;
      assign from_mesh_ready[gr] = up_ready;
      assign from_mesh_flit[gr*FlitW +: FlitW] = up_flit;

      if (K == 1) begin : gen_no_ring_recv
        assign pe_out_valid_o[gr] = up_valid;
        assign up_ready = pe_out_ready_i[gr];
        assign pe_out_flit_o[gr*FlitW +: FlitW] = up_flit;
      end else begin : gen_ring_recv
        wire [K:0]             r_valid, r_ready;
        wire [(K+1)*FlitW-1:0] r_flit;
        assign r_valid[0] = up_valid;
        assign up_ready   = r_ready[0];
        assign r_flit[0 +: FlitW] = up_flit;
        assign r_ready[K] = 1'b0;   // nothing is passed beyond the last ring router
        for (gp = 0; gp < K; gp = gp + 1) begin : gen_recv
          nnoc_ring_recv #(.FlitW(FlitW), .SingleBit(SingleBit), .K(K), .Pos(gp), .PeBit(NR))
          u_recv (
            .clk_i(clk_i), .rst_ni(rst_ni),
            .in_valid_i(r_valid[gp]), .in_ready_o(r_ready[gp]),
            .in_flit_i(r_flit[gp*FlitW +: FlitW]),
            .pe_valid_o(pe_out_valid_o[gr*K+gp]), .pe_ready_i(pe_out_ready_i[gr*K+gp]),
            .pe_flit_o(pe_out_flit_o[(gr*K+gp)*FlitW +: FlitW]),
            .dn_valid_o(r_valid[gp+1]), .dn_ready_i(r_ready[gp+1]),
            .dn_flit_o(r_flit[(gp+1)*FlitW +: FlitW]));
        end
        wire unused_r = r_valid[K] | (|r_flit[K*FlitW +: FlitW]);
      end

      // ---- mesh links: ports east, west, north, south; the neighbour's opposite port
      for (gp = NnocPortE; gp <= NnocPortS; gp = gp + 1) begin : gen_link
        localparam integer HasN = (gp == NnocPortE) ? ((X < Cols - 1) ? 1 : 0) :
                                  (gp == NnocPortW) ? ((X > 0) ? 1 : 0) :
                                  (gp == NnocPortN) ? ((Y < Rows - 1) ? 1 : 0) : ((Y > 0) ? 1 : 0);
        localparam integer Nb   = (gp == NnocPortE) ? gr + 1 : (gp == NnocPortW) ? gr - 1 :
                                  (gp == NnocPortN) ? gr + Cols : gr - Cols;
        localparam integer Opp  = (gp == NnocPortE) ? NnocPortW : (gp == NnocPortW) ? NnocPortE :
                                  (gp == NnocPortN) ? NnocPortS : NnocPortN;
        localparam integer Lnk  = gr * NnocPorts + gp;   // this port's link
        localparam integer Nbl  = Nb * NnocPorts + Opp;  // the neighbour's link back
        if (HasN != 0) begin : gen_nb
          assign rin_valid[Lnk]                = rout_valid[Nbl];
          assign rin_vc[Lnk*VcW +: VcW]        = rout_vc[Nbl*VcW +: VcW];
          assign rin_flit[Lnk*FlitW +: FlitW]  = rout_flit[Nbl*FlitW +: FlitW];
          assign rout_credit[Lnk]              = rin_credit[Nbl];
          assign rout_cr_vc[Lnk*VcW +: VcW]    = rin_cr_vc[Nbl*VcW +: VcW];
        end else begin : gen_edge
          assign rin_valid[Lnk]                = 1'b0;
          assign rin_vc[Lnk*VcW +: VcW]        = {VcW{1'b0}};
          assign rin_flit[Lnk*FlitW +: FlitW]  = {FlitW{1'b0}};
          assign rout_credit[Lnk]              = 1'b0;
          assign rout_cr_vc[Lnk*VcW +: VcW]    = {VcW{1'b0}};
          // XY routing never sends off the mesh edge
          wire unused_edge = rout_valid[Lnk] | (|rout_vc[Lnk*VcW +: VcW]) |
                             (|rout_flit[Lnk*FlitW +: FlitW]) | rin_credit[Lnk] |
                             (|rin_cr_vc[Lnk*VcW +: VcW]);
        end
      end

      localparam integer XW = (Cols > 1) ? $clog2(Cols) : 1;
      localparam integer YW = (Rows > 1) ? $clog2(Rows) : 1;
      localparam [XW-1:0] XPos = X[XW-1:0];
      localparam [YW-1:0] YPos = Y[YW-1:0];
      nnoc_mesh_router #(.Cols(Cols), .Rows(Rows), .V(V), .Depth(Depth),
                         .FlitW(FlitW), .SingleBit(SingleBit), .VaPerPort(VaPerPort),
                         .TailFree(TailFree), .SpecSa(SpecSa), .SaGreedy(SaGreedy))
        u_router (
        .clk_i(clk_i), .rst_ni(rst_ni), .x_i(XPos), .y_i(YPos),
        .in_valid_i     (rin_valid  [gr*NnocPorts       +: NnocPorts]),
        .in_vc_i        (rin_vc     [gr*NnocPorts*VcW   +: NnocPorts*VcW]),
        .in_flit_i      (rin_flit   [gr*NnocPorts*FlitW +: NnocPorts*FlitW]),
        .in_credit_o    (rin_credit [gr*NnocPorts       +: NnocPorts]),
        .in_credit_vc_o (rin_cr_vc  [gr*NnocPorts*VcW   +: NnocPorts*VcW]),
        .out_valid_o    (rout_valid [gr*NnocPorts       +: NnocPorts]),
        .out_vc_o       (rout_vc    [gr*NnocPorts*VcW   +: NnocPorts*VcW]),
        .out_flit_o     (rout_flit  [gr*NnocPorts*FlitW +: NnocPorts*FlitW]),
        .out_credit_i   (rout_credit[gr*NnocPorts       +: NnocPorts]),
        .out_credit_vc_i(rout_cr_vc [gr*NnocPorts*VcW   +: NnocPorts*VcW]),
        .drop_o         (drop[gr]));
    end
  endgenerate

  assign err_drop_o = |drop;

  // ---------------------------------------------------------------- statistics
  reg [31:0] pe_flits_q, mesh_flits_q;
  reg [31:0] pe_now, mesh_now;
  integer i;
  always @* begin
    pe_now   = 32'd0;
    mesh_now = 32'd0;
    for (i = 0; i < NP; i = i + 1) pe_now = pe_now + {31'd0, guard_valid[i] && guard_ready[i]};
    for (i = 0; i < NR; i = i + 1) mesh_now = mesh_now + {31'd0, to_mesh_valid[i]};
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pe_flits_q   <= 32'd0;
      mesh_flits_q <= 32'd0;
    end else begin
      pe_flits_q   <= pe_flits_q + pe_now;
      mesh_flits_q <= mesh_flits_q + mesh_now;
    end
  end
  assign stat_pe_flits_o   = pe_flits_q;
  assign stat_mesh_flits_o = mesh_flits_q;

  wire unused_local = (|to_mesh_ready) | (|to_mesh_flit) | (|from_mesh_valid) |
                      (|from_mesh_ready) | (|from_mesh_flit);

endmodule
