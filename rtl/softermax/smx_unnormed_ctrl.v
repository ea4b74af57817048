`default_nettype none
// smx_unnormed_ctrl -- row bookkeeping and beat sequencing of the unnormed units
//   (softermax_unnormed and the fp16 baseline's softermax_fp16_unnormed share it).
//
// Purpose: everything of an unnormed unit but its arithmetic: the input port's handshake and
//   hold check, the row bookkeeping of softermax_row_track (valid lanes, row start, malformed
//   rows, slices kept within MaxLen), the stage control of smx_pipe_ctrl and the side fields
//   that travel with each slice down the unit's Stages stages (cnt, last, row start, store,
//   error, slices kept) to its output port. The unit keeps its own datapath registers and
//   loads them with take_o; it reads the valid lanes of the offered beat (lanes_o) and, per
//   stage s, the slice's lane count (cnt_o[s*CntW +: CntW]) and row start (first_o[s]).
// Parameters:
//   Vec      lanes (elements per beat)
//   MaxLen   longest legal row in elements
//   XW       bits of one input lane (Softermax: InWidth; fp16: 16)
//   Stages   pipeline stages of the unit (>= 1)
module smx_unnormed_ctrl #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  parameter integer XW     = 8,
  parameter integer Stages = 4,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // the unit's input port
  input  wire                   in_valid_i,
  output wire                   in_ready_o,
  input  wire [Vec*XW-1:0]      in_x_i,        // only checked for the hold rule here
  input  wire [CntW-1:0]        in_cnt_i,
  input  wire                   in_last_i,
  // the unit's output port, but for its datapath fields
  output wire                   out_valid_o,
  input  wire                   out_ready_i,
  output wire [CntW-1:0]        out_cnt_o,     // valid lanes (clamped to Vec)
  output wire                   out_last_o,
  output wire                   out_store_o,   // slice is within MaxLen: keep it
  output wire [SliceW-1:0]      out_nslices_o, // slices of the row kept so far
  output wire                   out_err_o,     // row malformed so far
  // to the unit's datapath
  output wire [CntW-1:0]        lanes_o,       // valid lanes of the beat offered now
  output wire [Stages-1:0]      take_o,        // a slice enters stage s at the next edge
  output wire [Stages*CntW-1:0] cnt_o,         // valid lanes of the slice in stage s
  output wire [Stages-1:0]      first_o        // the slice in stage s starts a row
);
  // Side fields, from the low bits: nslices, err, store, first, last, cnt.
  localparam integer SideW   = SliceW + 4 + CntW;
  localparam integer ErrB    = SliceW;
  localparam integer StoreB  = SliceW + 1;
  localparam integer FirstB  = SliceW + 2;
  localparam integer LastB   = SliceW + 3;
  localparam integer CntB    = SliceW + 4;
  localparam integer OutB    = (Stages - 1) * SideW;  // the last stage's fields in side

  // Simulation-only check of the producer's side of the input contract.
  cc_hold_check #(.Width(Vec * XW + CntW + 1)) u_in_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (in_valid_i),
    .ready_i  (in_ready_o),
    .data_i   ({in_x_i, in_cnt_i, in_last_i}),
    .release_i(1'b0)
  );

  wire [CntW-1:0]   lanes;
  wire              row_first, err_new, store_new;
  wire [SliceW-1:0] nst_new;
  softermax_row_track #(.Vec(Vec), .MaxLen(MaxLen)) u_row_track (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .take_i (take_o[0]),
    .cnt_i  (in_cnt_i),
    .last_i (in_last_i),
    .lanes_o(lanes),
    .first_o(row_first),
    .err_o  (err_new),
    .store_o(store_new),
    .nst_o  (nst_new)
  );

  wire [Stages-1:0]       valid, adv;
  wire [Stages*SideW-1:0] side;
  smx_pipe_ctrl #(.Stages(Stages), .SideW(SideW)) u_pipe (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (in_valid_i),
    .in_ready_o (in_ready_o),
    .side_i     ({lanes, in_last_i, row_first, store_new, err_new, nst_new}),
    .out_ready_i(out_ready_i),
    .valid_o    (valid),
    .adv_o      (adv),
    .take_o     (take_o),
    .side_o     (side)
  );

  genvar g;
  generate
    for (g = 0; g < Stages; g = g + 1) begin : gen_stage
      assign cnt_o[g*CntW +: CntW] = side[g*SideW + CntB +: CntW];
      assign first_o[g]            = side[g*SideW + FirstB];
    end
  endgenerate

  assign lanes_o       = lanes;
  assign out_valid_o   = valid[Stages-1];
  assign out_cnt_o     = side[OutB + CntB +: CntW];
  assign out_last_o    = side[OutB + LastB];
  assign out_store_o   = side[OutB + StoreB];
  assign out_nslices_o = side[OutB +: SliceW];
  assign out_err_o     = side[OutB + ErrB];

  // the earlier stages' last, store, error and slice count only move on; the stage advances
  // are the take enables' business
  wire unused_ok = &{1'b0, side, valid[Stages-2:0], adv};
endmodule
`default_nettype wire
