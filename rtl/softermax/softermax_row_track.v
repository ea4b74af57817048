`default_nettype none
// softermax_row_track -- row bookkeeping of the unnormed units (softermax_unnormed and the fp16
// baseline's softermax_fp16_unnormed share it).
//
// Purpose: follows the input beats of a row and tells, for the beat offered now, its valid
//   lanes (cnt clamped to Vec), whether it starts a row, whether the row is malformed so far
//   (a beat with cnt 0 or > Vec, cnt < Vec before the last beat, more than MaxLen elements),
//   whether the slice is within MaxLen/Vec and must be stored, and how many slices of the row
//   are stored including it. The state advances when take_i (the beat is accepted).
// Parameters:
//   Vec      lanes (elements per beat)
//   MaxLen   longest legal row in elements
module softermax_row_track #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              take_i,     // the beat below is accepted at this edge
  input  wire [CntW-1:0]   cnt_i,
  input  wire              last_i,
  output wire [CntW-1:0]   lanes_o,    // cnt clamped to Vec
  output wire              first_o,    // the beat starts a row
  output wire              err_o,      // the row is malformed up to and including this beat
  output wire              store_o,    // the slice is within MaxLen: keep it
  output wire [SliceW-1:0] nst_o       // slices of the row kept, this one included
);
  localparam integer      ElemW    = $clog2(MaxLen + Vec + 2);
  localparam integer      OverLen  = MaxLen + 1;
  localparam [ElemW-1:0]  MaxLenE  = MaxLen[ElemW-1:0];
  localparam [ElemW-1:0]  OverLenE = OverLen[ElemW-1:0];
  localparam [SliceW-1:0] MaxSlicesS = MaxSlices[SliceW-1:0];
  localparam [CntW-1:0]   VecC = Vec[CntW-1:0];

  reg              row_first_q;   // next input beat starts a row
  reg [ElemW-1:0]  row_elems_q;   // elements so far, saturating at MaxLen + 1
  reg              row_err_q;
  reg [SliceW-1:0] row_nst_q;     // slices kept so far

  wire [CntW-1:0]  lanes = (cnt_i > VecC) ? VecC : cnt_i;
  wire beat_bad = (cnt_i == {CntW{1'b0}}) || (cnt_i > VecC) ||
                  (!last_i && (cnt_i != VecC));
  wire [ElemW-1:0] elems_sum = (row_first_q ? {ElemW{1'b0}} : row_elems_q) +
                               {{(ElemW - CntW){1'b0}}, lanes};
  wire             over_len  = elems_sum > MaxLenE;
  wire             err_new   = (!row_first_q && row_err_q) || beat_bad || over_len;
  wire [SliceW-1:0] nst_prev = row_first_q ? {SliceW{1'b0}} : row_nst_q;
  wire             store_new = nst_prev < MaxSlicesS;
  wire [SliceW-1:0] nst_new  = nst_prev + {{(SliceW - 1){1'b0}}, store_new};

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_first_q <= 1'b1;
      row_elems_q <= {ElemW{1'b0}};
      row_err_q   <= 1'b0;
      row_nst_q   <= {SliceW{1'b0}};
    end else if (take_i) begin
      row_first_q <= last_i;
      row_elems_q <= over_len ? OverLenE : elems_sum;
      row_err_q   <= err_new;
      row_nst_q   <= nst_new;
    end
  end

  assign lanes_o = lanes;
  assign first_o = row_first_q;
  assign err_o   = err_new;
  assign store_o = store_new;
  assign nst_o   = nst_new;
endmodule
`default_nettype wire
