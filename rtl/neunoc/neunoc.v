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
//            10 tail, 11 PP), payload below. Head payload: destination router(s) [DstW-1:0]
//            (DstCoord = 0: dst_mesh bit string, DstW = NR; 1: column and row of one router,
//            DstW = XW + YW), dst_pe [DstW +: K], src router, src ring position, tag, single (bit
//            HdrW-1). Body/tail: data word in [DataW-1:0].
//
// Parameters (checked at elaboration; an illegal value fails the build naming the rule):
//   K           PEs per local ring (>= 1; 1 = plain mesh)
//   Cols, Rows  mesh size (n x m, >= 1 each)
//   V, Depth    virtual channels per mesh port (>= 1) and flits per VC (>= 2); a multicast
//               packet must fit in one VC (nnoc_pe_guard enforces it)
//   DataW       data word bits; TagW: tag bits; CntW: PP counter bits (>= 1 each)
//   Pack        1: zero-flit packing/unpacking at each ring/mesh boundary; 0: none
//   VaPerPort, TailFree, SpecSa, SaGreedy, SaHold, VcMost  mesh router microarchitecture
//               (nnoc_mesh_router; 1 = the conventional VC router's choice, 0 = the simpler
//               first design; docs/neunoc.md)
//   SaPrio, SaPrioWait  input-port priority in switch allocation (nnoc_mesh_router): 2 = the
//               local port first (Neu-NoC: it is the ring's channel, the network's bottleneck),
//               1 = through traffic first (set it for plain meshes, K = 1), 0 = equal; a
//               lower-priority port is equal again after SaPrioWait cycles lost in a row
//   EjWhole     1: the ejection queue streams whole packets first (nnoc_eject WholeFirst)
//   RingFair    1: send-ring routers share the channel equally among the ring's PEs
//               (nnoc_ring_send Fair); 0: in-flight flits always win (the paper's rule)
//   DstCoord    0: heads carry a bit string of destination routers (XY multicast; the flit
//               grows with the mesh: NR bits); 1: heads carry one router's coordinates
//               (unicast between routers, the conventional mesh header: XW + YW bits), for the
//               plain-mesh baselines of large networks (docs/neunoc.md, "Destination field")
//   the rest    derived widths, do not set (a different value fails the build)
//
//            Ports and flit fields are named as in cmodel/include/neunoc.h (NNOC_PORT_E =
//            NnocPortE). Each mesh position is one nnoc_tile (router and its local port's ring).
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
  parameter integer SaHold    = 1,
  parameter integer VcMost    = 1,
  parameter integer SaPrio    = 2,
  parameter integer SaPrioWait = 16,
  parameter integer EjWhole   = 1,
  parameter integer RingFair  = 1,
  parameter integer DstCoord  = 0,
  parameter integer NR     = Cols * Rows,
  parameter integer NP     = NR * K,
  parameter integer RIdW   = (NR > 1) ? $clog2(NR) : 1,
  parameter integer PIdW   = (K > 1) ? $clog2(K) : 1,
  parameter integer DstW   = (DstCoord != 0) ? ((Cols > 1) ? $clog2(Cols) : 1) +
                                               ((Rows > 1) ? $clog2(Rows) : 1) : NR,
  parameter integer HdrW   = DstW + K + RIdW + PIdW + TagW + 1,
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
  output wire [31:0]        stat_mesh_flits_o, // flits sent into the mesh (after packing)
  output wire [31:0]        stat_hop_flits_o,  // flits sent over mesh links (router to router)
  output wire [31:0]        stat_eject_flits_o // flits the routers sent to their local ports
);

  localparam integer VcW       = (V > 1) ? $clog2(V) : 1;
  localparam integer SingleBit = HdrW - 1;
  // Mesh router ports (cmodel/include/neunoc.h: NNOC_PORT_E ... NNOC_PORT_S; the local port,
  // NNOC_PORT_L = 0, is inside nnoc_tile).
  localparam integer NnocPortE = 1, NnocPortW = 2, NnocPortN = 3, NnocPortS = 4;
  localparam integer NnocTypeBits = 2;   // NNOC_TYPE_BITS: the flit type above the payload
  // The derived parameters, recomputed: they must not be set.
  localparam integer NRD   = Cols * Rows;
  localparam integer RIdWD = (NRD > 1) ? $clog2(NRD) : 1;
  localparam integer PIdWD = (K > 1) ? $clog2(K) : 1;
  localparam integer DstWD = (DstCoord != 0) ? ((Cols > 1) ? $clog2(Cols) : 1) +
                                               ((Rows > 1) ? $clog2(Rows) : 1) : NRD;
  localparam integer HdrWD = DstWD + K + RIdWD + PIdWD + TagW + 1;
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
    if (DstCoord != 0 && DstCoord != 1) begin : gen_check_dst_coord
      `CC_PARAM_FAIL(neunoc__DstCoord_must_be_0_or_1)
    end
    if (NR != NRD || NP != NRD * K || RIdW != RIdWD || PIdW != PIdWD || DstW != DstWD ||
        HdrW != HdrWD || PW != PWD || FlitW != PWD + NnocTypeBits) begin : gen_check_derived
      `CC_PARAM_FAIL(neunoc__NR_NP_RIdW_PIdW_DstW_HdrW_PW_FlitW_are_derived_and_must_not_be_set)
    end
  endgenerate

  // ---------------------------------------------------------------- mesh wires
  // Link of router r's mesh port p (NnocPortE .. NnocPortS) at [r*4 + p - 1] (times VcW or
  // FlitW for the vectors); the local port is inside the tile.
  localparam integer NL = 4;
  wire [NR*NL-1:0]       rin_valid,  rin_credit,  rout_valid,  rout_credit;
  wire [NR*NL*VcW-1:0]   rin_vc,     rin_cr_vc,   rout_vc,     rout_cr_vc;
  wire [NR*NL*FlitW-1:0] rin_flit,   rout_flit;
  wire [NR-1:0]          drop;
  localparam integer StatW = $clog2(K + 1);
  wire [NR*StatW-1:0]    stat_pe;
  wire [NR-1:0]          stat_mesh, stat_eject;
  wire [NR*3-1:0]        stat_link;

  localparam integer XW = (Cols > 1) ? $clog2(Cols) : 1;
  localparam integer YW = (Rows > 1) ? $clog2(Rows) : 1;

  // Each tile's delivered flits, gathered into pe_out_flit_o by the loop below.
  wire [K*FlitW-1:0]     tile_out_flit [0:NR-1];

  genvar gr, gp;
  generate
    for (gr = 0; gr < NR; gr = gr + 1) begin : gen_router
      localparam integer X   = gr % Cols;
      localparam integer Y   = gr / Cols;

      // ---- mesh links: ports east, west, north, south; the neighbour's opposite port
      for (gp = NnocPortE; gp <= NnocPortS; gp = gp + 1) begin : gen_link
        localparam integer HasN = (gp == NnocPortE) ? ((X < Cols - 1) ? 1 : 0) :
                                  (gp == NnocPortW) ? ((X > 0) ? 1 : 0) :
                                  (gp == NnocPortN) ? ((Y < Rows - 1) ? 1 : 0) : ((Y > 0) ? 1 : 0);
        localparam integer Nb   = (gp == NnocPortE) ? gr + 1 : (gp == NnocPortW) ? gr - 1 :
                                  (gp == NnocPortN) ? gr + Cols : gr - Cols;
        localparam integer Opp  = (gp == NnocPortE) ? NnocPortW : (gp == NnocPortW) ? NnocPortE :
                                  (gp == NnocPortN) ? NnocPortS : NnocPortN;
        localparam integer Lnk  = gr * NL + gp - 1;    // this port's link
        localparam integer Nbl  = Nb * NL + Opp - 1;   // the neighbour's link back
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

      localparam [XW-1:0] XPos = X[XW-1:0];
      localparam [YW-1:0] YPos = Y[YW-1:0];
      // only when K >= 1, so K = 0 fails naming this module's rule, not the tile's port widths
      if (K >= 1) begin : gen_tile
        nnoc_tile #(.K(K), .Cols(Cols), .Rows(Rows), .V(V), .Depth(Depth), .FlitW(FlitW),
                    .SingleBit(SingleBit), .DstCoord(DstCoord), .DstW(DstW), .CntW(CntW),
                    .Pack(Pack),
                    .VaPerPort(VaPerPort), .TailFree(TailFree), .SpecSa(SpecSa),
                    .SaGreedy(SaGreedy), .SaHold(SaHold), .VcMost(VcMost), .SaPrio(SaPrio),
                    .SaPrioWait(SaPrioWait), .EjWhole(EjWhole), .RingFair(RingFair), .XW(XW), .YW(YW), .VcW(VcW),
                    .StatW(StatW))
          u_tile (
          .clk_i(clk_i), .rst_ni(rst_ni), .x_i(XPos), .y_i(YPos),
          .pe_in_valid_i  (pe_in_valid_i [gr*K       +: K]),
          .pe_in_ready_o  (pe_in_ready_o [gr*K       +: K]),
          .pe_in_flit_i   (pe_in_flit_i  [gr*K*FlitW +: K*FlitW]),
          .pe_out_valid_o (pe_out_valid_o[gr*K       +: K]),
          .pe_out_ready_i (pe_out_ready_i[gr*K       +: K]),
          .pe_out_flit_o  (tile_out_flit[gr]),
          .err_pe_o       (err_pe_o      [gr*K       +: K]),
          .in_valid_i     (rin_valid  [gr*NL       +: NL]),
          .in_vc_i        (rin_vc     [gr*NL*VcW   +: NL*VcW]),
          .in_flit_i      (rin_flit   [gr*NL*FlitW +: NL*FlitW]),
          .in_credit_o    (rin_credit [gr*NL       +: NL]),
          .in_credit_vc_o (rin_cr_vc  [gr*NL*VcW   +: NL*VcW]),
          .out_valid_o    (rout_valid [gr*NL       +: NL]),
          .out_vc_o       (rout_vc    [gr*NL*VcW   +: NL*VcW]),
          .out_flit_o     (rout_flit  [gr*NL*FlitW +: NL*FlitW]),
          .out_credit_i   (rout_credit[gr*NL       +: NL]),
          .out_credit_vc_i(rout_cr_vc [gr*NL*VcW   +: NL*VcW]),
          .drop_o         (drop[gr]),
          .stat_pe_o      (stat_pe[gr*StatW +: StatW]),
          .stat_mesh_o    (stat_mesh[gr]),
          .stat_link_o    (stat_link[gr*3 +: 3]),
          .stat_eject_o   (stat_eject[gr]));
      end
    end
  endgenerate

  assign err_drop_o = |drop;

  // One procedural loop rather than a slice of the port per tile: Verilator 5.006 (DFG) rebuilds
  // a bus driven by NR slices as a chain of NR wide concatenations, quadratic in NR (a fifth of
  // a 24 x 24 mesh's simulation time); the loop copies each slice once.
  reg [NP*FlitW-1:0] pe_out_flit_all;
  integer t;
  always @* begin
    for (t = 0; t < NR; t = t + 1) pe_out_flit_all[t*K*FlitW +: K*FlitW] = tile_out_flit[t];
  end
  assign pe_out_flit_o = pe_out_flit_all;

  // ---------------------------------------------------------------- statistics
  // Event counts for the energy estimate and the zero-flit figures (docs/neunoc.md): flits
  // taken from the PEs, flits injected into the mesh, flits sent over mesh links, flits the
  // routers delivered to their local ports. Each wraps at 2^32.
  reg [31:0] pe_flits_q, mesh_flits_q, hop_flits_q, eject_flits_q;
  reg [31:0] pe_now, mesh_now, hop_now, eject_now;
  integer i;
  always @* begin
    pe_now    = 32'd0;
    mesh_now  = 32'd0;
    hop_now   = 32'd0;
    eject_now = 32'd0;
    for (i = 0; i < NR; i = i + 1) begin
      pe_now    = pe_now + {{(32-StatW){1'b0}}, stat_pe[i*StatW +: StatW]};
      mesh_now  = mesh_now + {31'd0, stat_mesh[i]};
      hop_now   = hop_now + {29'd0, stat_link[i*3 +: 3]};
      eject_now = eject_now + {31'd0, stat_eject[i]};
    end
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pe_flits_q    <= 32'd0;
      mesh_flits_q  <= 32'd0;
      hop_flits_q   <= 32'd0;
      eject_flits_q <= 32'd0;
    end else begin
      pe_flits_q    <= pe_flits_q + pe_now;
      mesh_flits_q  <= mesh_flits_q + mesh_now;
      hop_flits_q   <= hop_flits_q + hop_now;
      eject_flits_q <= eject_flits_q + eject_now;
    end
  end
  assign stat_pe_flits_o    = pe_flits_q;
  assign stat_mesh_flits_o  = mesh_flits_q;
  assign stat_hop_flits_o   = hop_flits_q;
  assign stat_eject_flits_o = eject_flits_q;

endmodule
