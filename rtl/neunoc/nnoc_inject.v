////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_inject.v
//
// Purpose:   Stream-to-link adapter in front of a mesh router's local input: takes a valid/ready
//            flit stream (one packet after another) and drives the router's credit-flow-
//            controlled input link. Each packet gets one of the V virtual channels at its head:
//            the lowest VC that holds no flits downstream (all Depth credits back), else, with
//            TailFree = 1, a VC with room for a flit (its previous packet's tail has left: the
//            routers' rule for a unicast, nnoc_mesh_router): the one with the most credits
//            (VcMost = 1, the lowest on a tie) or the lowest (VcMost = 0). Bodies and the tail
//            follow on that VC as credits allow. The link output is registered.
//
//            Contract: in_ready_o depends on in_flit_i (a head needs a free VC, any other flit a
//            credit on the packet's VC); a flit moves when in_valid_i && in_ready_o.
//
// Parameters:
//   V, Depth    virtual channels (>= 1) and flits per VC (>= 1) of the router input this drives
//   FlitW       flit width (type in the top two bits)
//   SingleBit   head bit marking a head-only packet (0 .. FlitW-3)
//   TailFree    1: a head may take a VC that still holds flits downstream; 0: empty VCs only
//   VcMost      1: of the VCs with room, the one with the most credits; 0: the lowest
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_inject #(
  parameter integer V         = 2,
  parameter integer Depth     = 4,
  parameter integer FlitW     = 24,
  parameter integer SingleBit = 20,
  parameter integer TailFree  = 1,
  parameter integer VcMost    = 1,
  // derived: do not set (a different value fails the build)
  parameter integer VcW       = (V > 1) ? $clog2(V) : 1          // VC number width
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [FlitW-1:0] in_flit_i,
  output wire             out_valid_o,
  output wire [VcW-1:0]   out_vc_o,
  output wire [FlitW-1:0] out_flit_o,
  input  wire             credit_i,
  input  wire [VcW-1:0]   credit_vc_i
);

  localparam integer CrW = $clog2(Depth + 1);
  localparam [CrW-1:0] CrFull = Depth[CrW-1:0];
  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocHead = 2'd1, NnocTail = 2'd2;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (V < 1) begin : gen_check_v
      `CC_PARAM_FAIL(nnoc_inject__V_must_be_at_least_1)
    end
    if (Depth < 1) begin : gen_check_depth
      `CC_PARAM_FAIL(nnoc_inject__Depth_must_be_at_least_1)
    end
    if (SingleBit < 0 || SingleBit > FlitW - NnocTypeBits - 1) begin : gen_check_single_bit
      `CC_PARAM_FAIL(nnoc_inject__SingleBit_must_be_0_to_FlitW_minus_3)
    end
    if (TailFree < 0 || TailFree > 1 || VcMost < 0 || VcMost > 1) begin : gen_check_modes
      `CC_PARAM_FAIL(nnoc_inject__TailFree_VcMost_must_be_0_or_1)
    end
    if (VcW != ((V > 1) ? $clog2(V) : 1)) begin : gen_check_vc_w
      `CC_PARAM_FAIL(nnoc_inject__VcW_is_derived_and_must_not_be_set)
    end
  endgenerate

  reg [V*CrW-1:0] credit_q;
  reg [VcW-1:0]   cur_q;       // VC of the packet in progress
  reg             out_valid_q;
  reg [VcW-1:0]   out_vc_q;
  reg [FlitW-1:0] out_flit_q;

  wire is_head = in_flit_i[FlitW-1 -: NnocTypeBits] == NnocHead;
  wire is_last = in_flit_i[FlitW-1 -: NnocTypeBits] == NnocTail ||
                 (is_head && in_flit_i[SingleBit]);

  reg [VcW-1:0] free_vc;
  reg           free_any;
  reg [CrW-1:0] best;     // credits of free_vc
  integer v;
  always @* begin
    free_vc  = {VcW{1'b0}};
    free_any = 1'b0;
    best     = {CrW{1'b0}};
    if (TailFree != 0) begin
      for (v = 0; v < V; v = v + 1) begin
        if (VcMost != 0 ? credit_q[v*CrW +: CrW] > best
                        : best == {CrW{1'b0}} && credit_q[v*CrW +: CrW] != {CrW{1'b0}}) begin
          free_vc  = v[VcW-1:0];
          free_any = 1'b1;
          best = credit_q[v*CrW +: CrW];
        end
      end
    end
    for (v = V - 1; v >= 0; v = v - 1) begin   // an empty VC first
      if (credit_q[v*CrW +: CrW] == CrFull) begin
        free_vc  = v[VcW-1:0];
        free_any = 1'b1;
      end
    end
  end

  wire [CrW-1:0] cur_credit = credit_q[cur_q*CrW +: CrW];
  assign in_ready_o = is_head ? free_any : cur_credit != {CrW{1'b0}};
  wire           fire = in_valid_i && in_ready_o;
  wire [VcW-1:0] vc   = is_head ? free_vc : cur_q;

  // Simulation-only check of the producer's side of the input stream.
  cc_hold_check #(.Width(FlitW)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   (in_flit_i),
    .release_i(1'b0)
  );

  integer c;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_q    <= {V{CrFull}};
      cur_q       <= {VcW{1'b0}};
      out_valid_q <= 1'b0;
    end else begin
      out_valid_q <= fire;
      if (fire && is_head && !is_last) cur_q <= free_vc;
      for (c = 0; c < V; c = c + 1) begin
        credit_q[c*CrW +: CrW] <= credit_q[c*CrW +: CrW]
            - {{(CrW-1){1'b0}}, fire && vc == c[VcW-1:0]}
            + {{(CrW-1){1'b0}}, credit_i && credit_vc_i == c[VcW-1:0]};
      end
    end
  end

  always @(posedge clk_i) begin
    out_vc_q   <= vc;
    out_flit_q <= in_flit_i;
  end

  assign out_valid_o = out_valid_q;
  assign out_vc_o    = out_vc_q;
  assign out_flit_o  = out_flit_q;

endmodule
