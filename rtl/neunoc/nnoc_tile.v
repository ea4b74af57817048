////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_tile.v
//
// Purpose:   One mesh position of Neu-NoC (neunoc.v): the mesh router with everything on its
//            local port -- K PE guards, the send ring (or the single PE when K = 1), zero-flit
//            packing, the injection queue, the ejection queue, unpacking and the receive ring.
//            The tile's outside is the PEs' streams and the router's four mesh links.
//
//            Why a module: every tile of a network is the same module with the same parameters
//            (the position is an input, as for the router), so a simulator or a hierarchical
//            flow handles it once: the bench networks Verilate the tile as one hierarchical
//            block (rtl/neunoc/block.toml, `hier`), so a 24 x 24 mesh builds in minutes
//            (docs/neunoc.md, "Build time of large networks"). It adds no logic and no cycle.
//
// Parameters (neunoc.v checks them; this module is not used on its own):
//   K, Cols, Rows, V, Depth, CntW, Pack, VaPerPort, TailFree, SpecSa, SaGreedy, SaHold, VcMost,
//   SaPrio, SaPrioWait, EjWhole, RingFair
//               as in neunoc.v
//   FlitW, SingleBit  the network's flit width and head-only bit (neunoc.v derives them)
//   DstCoord    head destination field, as in neunoc.v (0 = router bit string, 1 = coordinates)
//   DstW        its width (NR or XW + YW): the PE bits of a destination start there
//   XW, YW      widths of the position inputs
//   StatW       width of stat_pe_o (counts up to K)
//
// Ports: mesh links in the router's port order without the local port: index 0 = east,
//        1 = west, 2 = north, 3 = south (NnocPortE - 1 ...).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module nnoc_tile #(
  parameter integer K         = 4,
  parameter integer Cols      = 2,
  parameter integer Rows      = 2,
  parameter integer V         = 2,
  parameter integer Depth     = 8,
  parameter integer FlitW     = 26,
  parameter integer SingleBit = 23,
  parameter integer DstCoord  = 0,
  parameter integer DstW      = 4,
  parameter integer CntW      = 4,
  parameter integer Pack      = 1,
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
  parameter integer XW        = 1,
  parameter integer YW        = 1,
  parameter integer VcW       = 1,
  parameter integer StatW     = 3
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire [XW-1:0]       x_i,
  input  wire [YW-1:0]       y_i,
  // PEs of this position's ring (PE k of the ring at index k)
  input  wire [K-1:0]        pe_in_valid_i,
  output wire [K-1:0]        pe_in_ready_o,
  input  wire [K*FlitW-1:0]  pe_in_flit_i,
  output wire [K-1:0]        pe_out_valid_o,
  input  wire [K-1:0]        pe_out_ready_i,
  output wire [K*FlitW-1:0]  pe_out_flit_o,
  output wire [K-1:0]        err_pe_o,
  // mesh links: east, west, north, south
  input  wire [3:0]          in_valid_i,
  input  wire [4*VcW-1:0]    in_vc_i,
  input  wire [4*FlitW-1:0]  in_flit_i,
  output wire [3:0]          in_credit_o,
  output wire [4*VcW-1:0]    in_credit_vc_o,
  output wire [3:0]          out_valid_o,
  output wire [4*VcW-1:0]    out_vc_o,
  output wire [4*FlitW-1:0]  out_flit_o,
  input  wire [3:0]          out_credit_i,
  input  wire [4*VcW-1:0]    out_credit_vc_i,
  output wire                drop_o,
  output wire [StatW-1:0]    stat_pe_o,     // PE flits taken (after the guards) this cycle
  output wire                stat_mesh_o,   // a flit went into the injection queue this cycle
  output wire [2:0]          stat_link_o,   // flits the router sent on mesh links this cycle
  output wire                stat_eject_o   // a flit the router sent on its local port
);

  // The router's local-port link (port 0) stays inside the tile.
  wire             loc_in_valid,  loc_in_credit,  loc_out_valid,  loc_out_credit;
  wire [VcW-1:0]   loc_in_vc,     loc_in_cr_vc,   loc_out_vc,     loc_out_cr_vc;
  wire [FlitW-1:0] loc_in_flit,   loc_out_flit;

  // ---------------------------------------------------------------- PE guards
  wire [K-1:0]       guard_valid, guard_ready;
  wire [K*FlitW-1:0] guard_flit;

  genvar gp;
  generate
    for (gp = 0; gp < K; gp = gp + 1) begin : gen_guard
      nnoc_pe_guard #(.FlitW(FlitW), .SingleBit(SingleBit), .Cols(Cols), .Rows(Rows),
                      .DstCoord(DstCoord), .K(K), .Depth(Depth)) u_guard (
        .clk_i(clk_i), .rst_ni(rst_ni),
        .in_valid_i(pe_in_valid_i[gp]), .in_ready_o(pe_in_ready_o[gp]),
        .in_flit_i(pe_in_flit_i[gp*FlitW +: FlitW]),
        .out_valid_o(guard_valid[gp]), .out_ready_i(guard_ready[gp]),
        .out_flit_o(guard_flit[gp*FlitW +: FlitW]), .err_o(err_pe_o[gp]));
    end

    // ---------------------------------------------------------------- send channel
    // PEs -> ring -> (pack) -> inject; s_*[j] goes into ring_send[j] from upstream.
    wire [K:0]             s_valid, s_ready;
    wire [(K+1)*FlitW-1:0] s_flit;
    assign s_valid[0] = 1'b0;
    assign s_flit[0 +: FlitW] = {FlitW{1'b0}};
    if (K == 1) begin : gen_no_ring_send
      assign s_valid[1] = guard_valid[0];
      assign s_flit[FlitW +: FlitW] = guard_flit[0 +: FlitW];
      assign guard_ready[0] = s_ready[1];
      assign s_ready[0] = 1'b0;
      wire unused_s0 = s_ready[0] | s_valid[0] | (|s_flit[0 +: FlitW]);
    end else begin : gen_ring_send
      wire unused_s0 = s_ready[0];   // nothing feeds ring position 0 from upstream
      for (gp = 0; gp < K; gp = gp + 1) begin : gen_send
        nnoc_ring_send #(.FlitW(FlitW), .SingleBit(SingleBit), .Pos(gp), .Fair(RingFair)) u_send (
          .clk_i(clk_i), .rst_ni(rst_ni),
          .up_valid_i(s_valid[gp]), .up_ready_o(s_ready[gp]),
          .up_flit_i(s_flit[gp*FlitW +: FlitW]),
          .pe_valid_i(guard_valid[gp]), .pe_ready_o(guard_ready[gp]),
          .pe_flit_i(guard_flit[gp*FlitW +: FlitW]),
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
    assign stat_mesh_o = pk_valid && pk_ready;

    nnoc_inject #(.V(V), .Depth(Depth), .FlitW(FlitW), .SingleBit(SingleBit),
                  .TailFree(TailFree), .VcMost(VcMost)) u_inject (
      .clk_i(clk_i), .rst_ni(rst_ni),
      .in_valid_i(pk_valid), .in_ready_o(pk_ready), .in_flit_i(pk_flit),
      .out_valid_o(loc_in_valid), .out_vc_o(loc_in_vc), .out_flit_o(loc_in_flit),
      .credit_i(loc_in_credit), .credit_vc_i(loc_in_cr_vc));

    // ---------------------------------------------------------------- receive channel
    // eject -> (unpack) -> ring -> PEs
    wire             ej_valid, ej_ready;
    wire [FlitW-1:0] ej_flit;
    nnoc_eject #(.V(V), .Depth(Depth), .FlitW(FlitW), .SingleBit(SingleBit),
                 .WholeFirst(EjWhole)) u_eject (
      .clk_i(clk_i), .rst_ni(rst_ni),
      .in_valid_i(loc_out_valid), .in_vc_i(loc_out_vc), .in_flit_i(loc_out_flit),
      .credit_o(loc_out_credit), .credit_vc_o(loc_out_cr_vc),
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

    if (K == 1) begin : gen_no_ring_recv
      assign pe_out_valid_o[0] = up_valid;
      assign up_ready = pe_out_ready_i[0];
      assign pe_out_flit_o[0 +: FlitW] = up_flit;
    end else begin : gen_ring_recv
      wire [K:0]             r_valid, r_ready;
      wire [(K+1)*FlitW-1:0] r_flit;
      assign r_valid[0] = up_valid;
      assign up_ready   = r_ready[0];
      assign r_flit[0 +: FlitW] = up_flit;
      assign r_ready[K] = 1'b0;   // nothing is passed beyond the last ring router
      for (gp = 0; gp < K; gp = gp + 1) begin : gen_recv
        nnoc_ring_recv #(.FlitW(FlitW), .SingleBit(SingleBit), .K(K), .Pos(gp), .PeBit(DstW))
        u_recv (
          .clk_i(clk_i), .rst_ni(rst_ni),
          .in_valid_i(r_valid[gp]), .in_ready_o(r_ready[gp]),
          .in_flit_i(r_flit[gp*FlitW +: FlitW]),
          .pe_valid_o(pe_out_valid_o[gp]), .pe_ready_i(pe_out_ready_i[gp]),
          .pe_flit_o(pe_out_flit_o[gp*FlitW +: FlitW]),
          .dn_valid_o(r_valid[gp+1]), .dn_ready_i(r_ready[gp+1]),
          .dn_flit_o(r_flit[(gp+1)*FlitW +: FlitW]));
      end
      wire unused_r = r_valid[K] | (|r_flit[K*FlitW +: FlitW]);
    end
  endgenerate

  // ---------------------------------------------------------------- statistics
  reg [StatW-1:0] pe_now;
  integer i;
  always @* begin
    pe_now = {StatW{1'b0}};
    for (i = 0; i < K; i = i + 1) pe_now = pe_now + {{(StatW-1){1'b0}}, guard_valid[i] && guard_ready[i]};
  end
  assign stat_pe_o    = pe_now;
  assign stat_link_o  = {2'b00, out_valid_o[0]} + {2'b00, out_valid_o[1]} +
                        {2'b00, out_valid_o[2]} + {2'b00, out_valid_o[3]};
  assign stat_eject_o = loc_out_valid;

  // ---------------------------------------------------------------- the router
  nnoc_mesh_router #(.Cols(Cols), .Rows(Rows), .V(V), .Depth(Depth),
                     .FlitW(FlitW), .SingleBit(SingleBit), .VaPerPort(VaPerPort),
                     .TailFree(TailFree), .SpecSa(SpecSa), .SaGreedy(SaGreedy), .SaHold(SaHold),
                     .VcMost(VcMost), .SaPrio(SaPrio), .SaPrioWait(SaPrioWait), .DstCoord(DstCoord))
    u_router (
    .clk_i(clk_i), .rst_ni(rst_ni), .x_i(x_i), .y_i(y_i),
    .in_valid_i     ({in_valid_i,      loc_in_valid}),
    .in_vc_i        ({in_vc_i,         loc_in_vc}),
    .in_flit_i      ({in_flit_i,       loc_in_flit}),
    .in_credit_o    ({in_credit_o,     loc_in_credit}),
    .in_credit_vc_o ({in_credit_vc_o,  loc_in_cr_vc}),
    .out_valid_o    ({out_valid_o,     loc_out_valid}),
    .out_vc_o       ({out_vc_o,        loc_out_vc}),
    .out_flit_o     ({out_flit_o,      loc_out_flit}),
    .out_credit_i   ({out_credit_i,    loc_out_credit}),
    .out_credit_vc_i({out_credit_vc_i, loc_out_cr_vc}),
    .drop_o         (drop_o));

endmodule
