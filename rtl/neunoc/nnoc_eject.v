////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_eject.v
//
// Purpose:   Link-to-stream adapter behind a mesh router's local output: the V virtual-channel
//            FIFOs the router's credits count (Depth flits each), and a packet serializer that
//            streams one whole packet at a time onto a valid/ready flit stream (the ring or the
//            PE sees packets back to back, never interleaved). A packet is picked round-robin
//            among the VCs whose front flit is a head; with WholeFirst = 1 among those that
//            hold the packet's last flit already, when any does (a packet still arriving would
//            stall the stream for its missing flits while whole packets wait behind it). Its VC
//            is then drained to the tail while the other VCs keep filling and are held back by
//            credits. Credits return one cycle after a flit leaves its FIFO.
//
//            The packets of one VC arrive one after another, each to its tail before the next
//            head (the router gives a VC to a new packet only once the previous tail has left),
//            so the front of a VC that is not being streamed is always a head, and that packet
//            is whole exactly when the VC holds a last flit.
//
// Parameters:
//   V, Depth, FlitW, SingleBit   as nnoc_mesh_router (V >= 1, Depth >= 1, SingleBit 0 .. FlitW-3)
//   WholeFirst  1: whole packets first (above); 0: round-robin among all VCs with a head
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_eject #(
  parameter integer V         = 2,
  parameter integer Depth     = 4,
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  parameter integer WholeFirst = 1,
  // derived: do not set (a different value fails the build)
  parameter integer VcW       = (V > 1) ? $clog2(V) : 1          // VC number width
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  input  wire [VcW-1:0]   in_vc_i,
  input  wire [FlitW-1:0] in_flit_i,
  output wire             credit_o,
  output wire [VcW-1:0]   credit_vc_o,
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
    if (V < 1) begin : gen_check_v
      `CC_PARAM_FAIL(nnoc_eject__V_must_be_at_least_1)
    end
    if (Depth < 1) begin : gen_check_depth
      `CC_PARAM_FAIL(nnoc_eject__Depth_must_be_at_least_1)
    end
    if (SingleBit < 0 || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_eject__SingleBit_must_be_0_to_FlitW_minus_3)
    end
    if (WholeFirst < 0 || WholeFirst > 1) begin : gen_check_whole_first
      `CC_PARAM_FAIL(nnoc_eject__WholeFirst_must_be_0_or_1)
    end
    if (VcW != ((V > 1) ? $clog2(V) : 1)) begin : gen_check_vc_w
      `CC_PARAM_FAIL(nnoc_eject__VcW_is_derived_and_must_not_be_set)
    end
  endgenerate

  function automatic is_last(input [FlitW-1:0] f);   // a tail or a head-only packet
    is_last = f[FlitW-1 -: NnocTypeBits] == NnocTail ||
              (f[FlitW-1 -: NnocTypeBits] == NnocHead && f[SingleBit]);
  endfunction

  wire [V-1:0]       vc_valid;
  wire [V*FlitW-1:0] vc_flit;
  wire [V-1:0]       vc_pop;

  genvar g;
  generate
    for (g = 0; g < V; g = g + 1) begin : gen_vc
      localparam [VcW-1:0] VcNum = g;
      wire unused_ready;
      wire [$clog2(Depth+1)-1:0] unused_count;
      cc_fifo #(.Width(FlitW), .Depth(Depth)) u_fifo (
        .clk_i(clk_i), .rst_ni(rst_ni), .clr_i(1'b0),
        .in_valid_i(in_valid_i && in_vc_i == VcNum), .in_ready_o(unused_ready),
        .in_data_i(in_flit_i),
        .out_valid_o(vc_valid[g]), .out_ready_i(vc_pop[g]), .out_data_o(vc_flit[g*FlitW +: FlitW]),
        .count_o(unused_count));
    end
  endgenerate

  // A packet is committed when its head is first offered (the arbiter's pointer moves then):
  // the offer may not change while the consumer is not ready (the stream contract), even when
  // a whole packet arrives meanwhile.
  reg             busy_q;   // streaming the packet of VC cur_q (its head offered)
  reg [VcW-1:0]   cur_q;
  wire [V-1:0]    unused_gnt;
  wire [VcW-1:0]  arb_idx;
  wire            arb_valid;
  wire            fire;

  // Whole packets: lasts_q counts the last flits (tail or head-only) in each VC's FIFO.
  localparam integer LastW = $clog2(Depth + 1);
  wire              in_last = is_last(in_flit_i);
  wire              last;          // the flit streamed now ends its packet
  reg  [V*LastW-1:0] lasts_q;
  wire [V-1:0]      whole;         // the VC's front packet has all its flits here
  integer lv;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) lasts_q <= {V*LastW{1'b0}};
    else begin
      for (lv = 0; lv < V; lv = lv + 1) begin
        lasts_q[lv*LastW +: LastW] <= lasts_q[lv*LastW +: LastW]
            + {{(LastW-1){1'b0}}, in_valid_i && in_last && in_vc_i == lv[VcW-1:0]}
            - {{(LastW-1){1'b0}}, vc_pop[lv] && last};
      end
    end
  end
  generate
    for (g = 0; g < V; g = g + 1) begin : gen_whole
      assign whole[g] = vc_valid[g] && lasts_q[g*LastW +: LastW] != {LastW{1'b0}};
    end
  endgenerate
  wire [V-1:0] req = (WholeFirst != 0 && |whole) ? whole : vc_valid;

  cc_rr_arbiter #(.N(V)) u_arb (
    .clk_i(clk_i), .rst_ni(rst_ni), .req_i(busy_q ? {V{1'b0}} : req), .ack_i(!busy_q && arb_valid),
    .gnt_o(unused_gnt), .gnt_idx_o(arb_idx), .gnt_valid_o(arb_valid));

  wire [VcW-1:0]   sel  = busy_q ? cur_q : arb_idx;
  wire [FlitW-1:0] flit = vc_flit[sel*FlitW +: FlitW];
  assign           last = is_last(flit);
  assign out_valid_o = busy_q ? vc_valid[cur_q] : arb_valid;
  assign out_flit_o  = flit;
  assign fire        = out_valid_o && out_ready_i;
  assign vc_pop      = fire ? ({{(V-1){1'b0}}, 1'b1} << sel) : {V{1'b0}};

  reg           cr_q;
  reg [VcW-1:0] cr_vc_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cur_q  <= {VcW{1'b0}};
      cr_q   <= 1'b0;
    end else begin
      cr_q <= fire;
      if (out_valid_o) begin      // offered (busy, or committing now): done at its last flit
        busy_q <= !(fire && last);
        cur_q  <= sel;
      end
    end
  end
  always @(posedge clk_i) cr_vc_q <= sel;

  assign credit_o    = cr_q;
  assign credit_vc_o = cr_vc_q;

endmodule
