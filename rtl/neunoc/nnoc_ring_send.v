////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_ring_send.v
//
// Purpose:   Ring router on the send channel of a local ring (Figure 36b): merges the flits in
//            flight from the upstream ring router with the packets its PE injects, towards the
//            mesh router. Allocation is per packet (wormhole, flits of two packets never mix)
//            and flits in flight win: at a packet boundary the upstream packet goes first, and
//            the PE's packet goes when no upstream flit is waiting (once offered, a head is not
//            taken back, so an upstream flit arriving a cycle later waits for that packet).
//            With Fair = 1 in-flight flits win only until Pos upstream packets have won against
//            a waiting PE packet; then the PE's packet goes first. Ring position Pos has Pos
//            PEs upstream, so under saturation every PE of the ring gets the same share of the
//            channel (with Fair = 0, the paper's rule, the PEs nearest the mesh router wait for
//            gaps in everyone else's traffic and their queues grow first).
//            The output is a skid buffer: one cycle pass-through, with registered valid and
//            ready in both directions. Both inputs have the hold checker (cc_hold_check).
//
// Parameters:
//   FlitW, SingleBit   flit width and head-only bit (as nnoc_mesh_router; SingleBit below the
//                      type field, 0 .. FlitW-3)
//   Pos                ring position (0 .. 255): PEs upstream of this one
//   Fair               1: the PE's packet goes first after Pos contested upstream wins; 0: in-
//                      flight flits always win (the paper)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_ring_send #(
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  parameter integer Pos       = 0,
  parameter integer Fair      = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             up_valid_i,    // in flight from the upstream ring router
  output wire             up_ready_o,
  input  wire [FlitW-1:0] up_flit_i,
  input  wire             pe_valid_i,    // injected by this router's PE
  output wire             pe_ready_o,
  input  wire [FlitW-1:0] pe_flit_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [FlitW-1:0] out_flit_o
);

  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocHead = 2'd1, NnocTail = 2'd2;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (SingleBit < 0 || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_ring_send__SingleBit_must_be_0_to_FlitW_minus_3)
    end
    if (Pos < 0 || Pos > 255) begin : gen_check_pos
      `CC_PARAM_FAIL(nnoc_ring_send__Pos_must_be_0_to_255)
    end
    if (Fair < 0 || Fair > 1) begin : gen_check_fair
      `CC_PARAM_FAIL(nnoc_ring_send__Fair_must_be_0_or_1)
    end
  endgenerate
  localparam [1:0] OwnNone = 2'd0, OwnUp = 2'd1, OwnPe = 2'd2;

  localparam integer WonW = 8;
  localparam [WonW-1:0] Quota = Pos[WonW-1:0];

  reg  [1:0]      own_q;   // input whose packet is passing (OwnNone at a packet boundary)
  reg  [WonW-1:0] won_q;   // upstream packets that went first while the PE's packet waited
  wire            pe_turn = Fair != 0 && pe_valid_i && won_q == Quota;   // won_q stops at Quota
  wire [1:0]      own = (own_q != OwnNone) ? own_q : ((up_valid_i && !pe_turn) ? OwnUp : OwnPe);
  wire            choose = own_q == OwnNone && (up_valid_i || pe_valid_i);   // boundary decision

  wire             sel_valid = (own == OwnUp) ? up_valid_i : pe_valid_i;
  wire [FlitW-1:0] sel_flit  = (own == OwnUp) ? up_flit_i : pe_flit_i;
  wire             skid_ready;
  wire             fire = sel_valid && skid_ready;
  wire             last = sel_flit[FlitW-1 -: NnocTypeBits] == NnocTail ||
                          (sel_flit[FlitW-1 -: NnocTypeBits] == NnocHead && sel_flit[SingleBit]);

  assign up_ready_o = own == OwnUp && skid_ready;
  assign pe_ready_o = own == OwnPe && skid_ready;

  // A flit offered to the output buffer stays offered until taken (the stream contract), so
  // the choice made at a packet boundary is kept from the first cycle its head is offered.
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)         own_q <= OwnNone;
    else if (fire)       own_q <= last ? OwnNone : own;
    else if (sel_valid)  own_q <= own;
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) won_q <= {WonW{1'b0}};
    else if (choose && own == OwnPe) won_q <= {WonW{1'b0}};
    else if (choose && pe_valid_i && won_q != Quota) won_q <= won_q + 1'b1;
  end

  // Simulation-only checks of the producers' side of both input streams (the output buffer checks
  // only the selected one).
  cc_hold_check #(.Width(FlitW)) u_up_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (up_valid_i),
    .ready_i  (up_ready_o),
    .data_i   (up_flit_i),
    .release_i(1'b0)
  );
  cc_hold_check #(.Width(FlitW)) u_pe_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (pe_valid_i),
    .ready_i  (pe_ready_o),
    .data_i   (pe_flit_i),
    .release_i(1'b0)
  );

  cc_skid_buffer #(.Width(FlitW)) u_out (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(sel_valid), .in_ready_o(skid_ready), .in_data_i(sel_flit),
    .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o(out_flit_o));

endmodule
