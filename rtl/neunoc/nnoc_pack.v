////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nnoc_pack.v
//
// Purpose:   Zero-flit packing at the ring-to-mesh boundary (Section 3.5.2.3): every run of
//            consecutive body flits whose data word is zero leaves as PP flits (type 2'b11)
//            whose payload counts the zero words, greedily: full PP flits of CntMax = 2^CntW-1
//            words, then one for the rest. Heads, tails and non-zero bodies pass unchanged;
//            a tail is never packed, even when its word is zero (it closes the packet).
//
//            A run is counted without emitting anything; the PP flit leaves when the run ends
//            (the next flit is not a zero body: that flit waits one cycle behind the PP flit)
//            or when the counter is full (the PP flit leaves in the same cycle as the zero
//            body that starts the next run is counted).
//
//            Contract: valid/ready streams; out_valid_o/out_flit_o depend on the input this
//            cycle and on the run counter; out_flit_o is stable while out_valid_o && !out_ready_i.
//
// Parameters:
//   FlitW       flit width: type [FlitW-1:FlitW-2], payload below
//   CntW        PP counter bits (>= 1, <= FlitW - 2: the count sits in the payload)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nnoc_pack #(
  parameter integer FlitW = 24,
  parameter integer CntW  = 4
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             in_valid_i,
  output wire             in_ready_o,
  input  wire [FlitW-1:0] in_flit_i,
  output wire             out_valid_o,
  input  wire             out_ready_i,
  output wire [FlitW-1:0] out_flit_o
);

  // Flit type field and codes, named as in cmodel/include/neunoc.h (NNOC_TYPE_BITS,
  // NNOC_HEAD, ...).
  localparam integer NnocTypeBits = 2;
  localparam [NnocTypeBits-1:0] NnocBody = 2'd0, NnocPp = 2'd3;
  // (CntW > 0 ? CntW : 1): an illegal CntW = 0 must reach the parameter check below instead of
  // stopping the elaboration here.
  localparam [CntW-1:0] CntMax = {((CntW > 0) ? CntW : 1){1'b1}};

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (CntW < 1 || CntW > FlitW - NnocTypeBits) begin : gen_check_cnt_w
      `CC_PARAM_FAIL(nnoc_pack__CntW_must_be_1_to_FlitW_minus_2)
    end
  endgenerate

  reg  [CntW-1:0] cnt_q;   // zero bodies counted and not yet sent
  wire zero_body = in_flit_i[FlitW-1 -: NnocTypeBits] == NnocBody &&
                   in_flit_i[FlitW-NnocTypeBits-1:0] == {(FlitW-NnocTypeBits){1'b0}};
  wire have_run  = cnt_q != {CntW{1'b0}};
  wire [FlitW-1:0] pp_flit = {NnocPp, {(FlitW-NnocTypeBits){1'b0}}} | {{(FlitW-CntW){1'b0}}, cnt_q};

  // emit_pp: the PP flit of the counted run goes out this cycle instead of the input flit
  wire emit_pp = in_valid_i && have_run && (!zero_body || cnt_q == CntMax);
  assign out_valid_o = emit_pp || (in_valid_i && !zero_body);
  assign out_flit_o  = emit_pp ? pp_flit : in_flit_i;
  // a zero body is taken into the counter unless the full counter must leave first and cannot;
  // any other flit is taken once no run is pending and the output takes it
  assign in_ready_o  = zero_body ? (cnt_q != CntMax || out_ready_i) : (!have_run && out_ready_i);

  // Simulation-only check of the producer's side of the input stream.
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
      cnt_q <= {CntW{1'b0}};
    end else if (in_valid_i && zero_body && in_ready_o) begin
      cnt_q <= (cnt_q == CntMax) ? {{(CntW-1){1'b0}}, 1'b1} : cnt_q + 1'b1;
    end else if (emit_pp && out_ready_i) begin
      cnt_q <= {CntW{1'b0}};
    end
  end

endmodule
