////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_pe_guard.v
//
// Purpose:   Checks the flit stream a PE injects and repairs it, so a faulty PE cannot wedge
//            the network. Whatever it sees, the network receives only well-formed packets
//            (head, then bodies and a tail, or a head-only packet) that obey the multicast
//            length rule. Each repair pulses err_o for one cycle:
//              * a body, tail or PP flit outside a packet: dropped
//              * a PP flit inside a packet (PEs send unpacked data): dropped
//              * a head with no destination router (an empty bit string, or coordinates off
//                the mesh) or no destination PE: the whole packet is dropped (up to its tail,
//                or up to the next head)
//              * a head inside a packet (the tail is missing): a zero-word tail closes the
//                open packet first, then the head starts its own
//              * a multicast packet (more than one destination router) longer than Depth
//                flits: its Depth-th flit leaves as the tail and the rest is dropped
//            Well-formed packets pass unchanged with no added latency (combinational).
//
// Parameters:
//   FlitW, SingleBit   as nnoc_mesh_router; SingleBit above the destination fields and
//                      below the type field (DstW + K .. FlitW-3)
//   Cols, Rows         mesh size (>= 1 each; NR = Cols * Rows routers)
//   DstCoord           head destination field as nnoc_mesh_router: 0 = dst_mesh bit string
//                      [NR-1:0] (DstW = NR), 1 = one router's coordinates, column in [XW-1:0]
//                      and row above (DstW = XW + YW; never a multicast)
//   K                  PEs per ring (>= 1): dst_pe [DstW +: K]
//   Depth              VC depth (the multicast length limit, in flits; >= 2: a head and a tail)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_pe_guard #(
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  parameter integer Cols      = 2,
  parameter integer Rows      = 2,
  parameter integer DstCoord  = 0,
  parameter integer K         = 4,
  parameter integer Depth     = 4
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [FlitW-1:0] in_flit_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [FlitW-1:0] out_flit_o,
  output wire             err_o
);

  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocBody = 2'd0, NnocHead = 2'd1, NnocTail = 2'd2, NnocPp = 2'd3;
  localparam integer CntW = $clog2(Depth + 1);
  localparam integer NR   = Cols * Rows;
  localparam integer XW   = (Cols > 1) ? $clog2(Cols) : 1;
  localparam integer YW   = (Rows > 1) ? $clog2(Rows) : 1;
  localparam integer DstW = (DstCoord != 0) ? XW + YW : NR;
  localparam integer LastSlotI = Depth - 1;        // flits sent before a multicast's forced tail
  localparam [CntW-1:0] LastSlot = LastSlotI[CntW-1:0];

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Cols < 1 || Rows < 1) begin : gen_check_mesh
      `CC_PARAM_FAIL(nnoc_pe_guard__Cols_and_Rows_must_be_at_least_1)
    end
    if (DstCoord < 0 || DstCoord > 1) begin : gen_check_dst_coord
      `CC_PARAM_FAIL(nnoc_pe_guard__DstCoord_must_be_0_or_1)
    end
    if (K < 1) begin : gen_check_k
      `CC_PARAM_FAIL(nnoc_pe_guard__K_must_be_at_least_1)
    end
    if (SingleBit < DstW + K || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_pe_guard__SingleBit_must_be_DstW_plus_K_to_FlitW_minus_3)
    end
    if (Depth < 2) begin : gen_check_depth
      `CC_PARAM_FAIL(nnoc_pe_guard__Depth_must_be_at_least_2)
    end
  endgenerate

  reg            in_pkt_q;   // a packet is open downstream
  reg            drop_q;     // dropping the rest of a packet
  reg            mc_q;       // the open packet is a multicast
  reg [CntW-1:0] cnt_q;      // flits of the open packet sent so far

  wire [NnocTypeBits-1:0] ty = in_flit_i[FlitW-1 -: NnocTypeBits];
  wire [K-1:0]  dpe     = in_flit_i[DstW +: K];
  wire          single  = in_flit_i[SingleBit];
  wire          no_router;   // the head names no router of the mesh
  wire          multi;       // the head names more than one router
  generate
    if (DstCoord == 0) begin : gen_string
      wire [NR-1:0] dmesh = in_flit_i[NR-1:0];
      assign no_router = dmesh == {NR{1'b0}};
      assign multi     = (dmesh & (dmesh - 1'b1)) != {NR{1'b0}};
    end else begin : gen_coord
      localparam integer LastColI = Cols - 1;
      localparam integer LastRowI = Rows - 1;
      localparam [XW-1:0] LastCol = LastColI[XW-1:0];
      localparam [YW-1:0] LastRow = LastRowI[YW-1:0];
      // constant when Cols or Rows is a power of two (rtl/neunoc/lint.vlt)
      assign no_router = in_flit_i[XW-1:0] > LastCol || in_flit_i[XW +: YW] > LastRow;
      assign multi     = 1'b0;
    end
  endgenerate
  wire          no_dest = no_router || dpe == {K{1'b0}};

  // what to do with the input flit this cycle
  wire head_in_pkt = ty == NnocHead && in_pkt_q && !drop_q;   // close the open packet first
  wire stray       = !in_pkt_q && ty != NnocHead;             // outside a packet
  wire pp_in_pkt   = in_pkt_q && !drop_q && ty == NnocPp;
  wire bad_head    = ty == NnocHead && !head_in_pkt && no_dest;
  wire dropping    = drop_q && ty != NnocHead;                // rest of a dropped packet
  wire force_tail  = in_pkt_q && !drop_q && mc_q && ty == NnocBody && cnt_q == LastSlot;
  wire discard     = stray || pp_in_pkt || bad_head || dropping;

  wire [FlitW-1:0] zero_tail = {NnocTail, {(FlitW-NnocTypeBits){1'b0}}};
  assign out_valid_o = in_valid_i && !discard;
  assign out_flit_o  = head_in_pkt ? zero_tail :
                       force_tail  ? {NnocTail, in_flit_i[FlitW-NnocTypeBits-1:0]} : in_flit_i;
  assign in_ready_o  = discard || (out_ready_i && !head_in_pkt);
  wire   take        = in_valid_i && in_ready_o;
  wire   sent        = out_valid_o && out_ready_i;
  assign err_o       = in_valid_i && (stray || pp_in_pkt || (bad_head && in_ready_o) ||
                                      (head_in_pkt && out_ready_i) || (force_tail && out_ready_i));

  // Simulation-only check of the PE's side of the input stream (every pe_in_* port of neunoc):
  // even a faulty PE must hold a flit until it is taken.
  cc_hold_check #(.Width(FlitW)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   (in_flit_i),
    .release_i(1'b0)
  );

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_pkt_q <= 1'b0;
      drop_q   <= 1'b0;
      mc_q     <= 1'b0;
      cnt_q    <= {CntW{1'b0}};
    end else if (sent && head_in_pkt) begin
      in_pkt_q <= 1'b0;                       // the head is taken next cycle
    end else if (take) begin
      if (ty == NnocHead) begin
        in_pkt_q <= !single;
        drop_q   <= bad_head && !single;
        mc_q     <= multi;
        cnt_q    <= {{(CntW-1){1'b0}}, 1'b1};
      end else if (force_tail) begin
        drop_q   <= 1'b1;                     // the packet is closed; drop its remainder
        cnt_q    <= cnt_q + 1'b1;
      end else if (dropping && ty == NnocTail) begin
        in_pkt_q <= 1'b0;
        drop_q   <= 1'b0;
      end else if (sent) begin
        cnt_q    <= cnt_q + 1'b1;
        if (ty == NnocTail) in_pkt_q <= 1'b0;
      end
    end
  end

endmodule
