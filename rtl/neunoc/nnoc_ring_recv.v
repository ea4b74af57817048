////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_ring_recv.v
//
// Purpose:   Ring router on the receive channel of a local ring: a skid buffer (one cycle pass-
//            through) followed by a fork. A packet goes to this router's PE when its head's
//            dst_pe bit Pos is set, and on down the ring when any higher dst_pe bit is set; the
//            copy passed on has bit Pos cleared (the node clears its bit on arrival, Figure 38).
//            The two copies of a flit may leave in different cycles; the flit leaves the buffer
//            when both are done. A packet for neither (impossible from the mesh side) is
//            dropped.
//
// Parameters:
//   FlitW, SingleBit   as nnoc_mesh_router (SingleBit 0 .. FlitW-3)
//   K, Pos             ring size (>= 1) and this router's position (0 = first after the mesh
//                      router, < K)
//   PeBit              flit bit of dst_pe[0] (dst_pe is [PeBit +: K], below the type field)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_ring_recv #(
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  parameter integer K         = 4,
  parameter integer Pos       = 0,
  parameter integer PeBit     = 4
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [FlitW-1:0] in_flit_i,
  output wire             pe_valid_o,
  input  wire             pe_ready_i,
  output wire [FlitW-1:0] pe_flit_o,
  output wire             dn_valid_o,   // on to the next ring router
  input  wire             dn_ready_i,
  output wire [FlitW-1:0] dn_flit_o
);

  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocHead = 2'd1, NnocTail = 2'd2;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (SingleBit < 0 || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_ring_recv__SingleBit_must_be_0_to_FlitW_minus_3)
    end
    if (K < 1) begin : gen_check_k
      `CC_PARAM_FAIL(nnoc_ring_recv__K_must_be_at_least_1)
    end
    if (K >= 1 && (Pos < 0 || Pos > K - 1)) begin : gen_check_pos
      `CC_PARAM_FAIL(nnoc_ring_recv__Pos_must_be_0_to_K_minus_1)
    end
    if (PeBit < 0 || PeBit + K > FlitW - NnocTypeBits) begin : gen_check_pe_bit
      `CC_PARAM_FAIL(nnoc_ring_recv__PeBit_plus_K_must_be_at_most_FlitW_minus_2)
    end
  endgenerate

  // (K > 0 ? K - 1 : 0): an illegal K = 0 must reach the parameter check instead of stopping the
  // elaboration here.
  localparam [K-1:0] Own   = {{((K > 0) ? K - 1 : 0){1'b0}}, 1'b1} << Pos;
  localparam [K-1:0] Later = ~((Own << 1) - 1'b1);   // bits above Pos

  wire             f_valid;
  wire [FlitW-1:0] f;
  wire             f_pop;
  cc_skid_buffer #(.Width(FlitW)) u_in (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready_o), .in_data_i(in_flit_i),
    .out_valid_o(f_valid), .out_ready_i(f_pop), .out_data_o(f));

  wire         is_head = f[FlitW-1 -: NnocTypeBits] == NnocHead;
  wire         last    = f[FlitW-1 -: NnocTypeBits] == NnocTail || (is_head && f[SingleBit]);
  wire [K-1:0] dst_pe  = f[PeBit +: K];

  // per packet: which copies it needs (decided at the head, kept for its other flits)
  reg  to_pe_q, to_dn_q;
  wire to_pe = is_head ? |(dst_pe & Own)   : to_pe_q;
  wire to_dn = is_head ? |(dst_pe & Later) : to_dn_q;

  reg  pe_done_q, dn_done_q;   // this flit's copy already taken
  wire pe_need = f_valid && to_pe && !pe_done_q;
  wire dn_need = f_valid && to_dn && !dn_done_q;
  wire pe_fire = pe_need && pe_ready_i;
  wire dn_fire = dn_need && dn_ready_i;
  assign f_pop = f_valid && (!pe_need || pe_fire) && (!dn_need || dn_fire);

  assign pe_valid_o = pe_need;
  assign pe_flit_o  = f;
  assign dn_valid_o = dn_need;
  assign dn_flit_o  = is_head ? (f & ~({{(FlitW-K){1'b0}}, Own} << PeBit)) : f;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      to_pe_q   <= 1'b0;
      to_dn_q   <= 1'b0;
      pe_done_q <= 1'b0;
      dn_done_q <= 1'b0;
    end else begin
      if (f_valid && is_head) begin
        to_pe_q <= to_pe;
        to_dn_q <= to_dn;
      end
      if (f_pop) begin
        pe_done_q <= 1'b0;
        dn_done_q <= 1'b0;
        if (last) begin
          to_pe_q <= 1'b0;
          to_dn_q <= 1'b0;
        end
      end else begin
        pe_done_q <= pe_done_q || pe_fire;
        dn_done_q <= dn_done_q || dn_fire;
      end
    end
  end

endmodule
