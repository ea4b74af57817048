`default_nettype none
// smx_norm_ctrl -- row sequencing and output stage of the normalization units
//   (softermax_norm and the fp16 baseline's softermax_fp16_norm share it).
//
// Purpose: everything of a normalization unit but its arithmetic: the two input ports'
//   handshakes and hold checks, the row sequencing (a row's summary is taken with its last
//   stored slice: slices are counted against the summary's slice count), the stage control of
//   smx_pipe_ctrl over the unit's three stages N0 -> N1 -> N2 and the fields that travel with
//   each slice (cnt, last, error), and the output register: lanes >= cnt are forced to 0, a row
//   flagged malformed collapses to one beat {cnt 0, last 1, err 1, y 0} (its other slices are
//   consumed and dropped). The unit's datapath loads its N0 and N1 registers with take_o[0]
//   and take_o[1] and hands the lanes it computes in N2 (from its N1 registers) to y_i.
//   A summary must say nslices >= 1 (the unnormed units always do).
// Parameters:
//   Vec     lanes
//   MaxLen  longest row (sets the slice counter width)
//   UW      bits of one lane of a stored slice; MW of a max; DW of a power sum / denominator
//           (the input ports' payloads, checked here for the hold rule only)
//   YW      bits of one output lane
module smx_norm_ctrl #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  parameter integer UW     = 16,
  parameter integer MW     = 7,
  parameter integer DW     = 16,
  parameter integer YW     = 8,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // the unit's ports: stored slices, in row order
  input  wire              slc_valid_i,
  output wire              slc_ready_o,
  input  wire [Vec*UW-1:0] slc_u_i,
  input  wire [MW-1:0]     slc_m_i,
  input  wire [CntW-1:0]   slc_cnt_i,
  // row summaries, one per row
  input  wire              sum_valid_i,
  output wire              sum_ready_o,
  input  wire [DW-1:0]     sum_d_i,
  input  wire [MW-1:0]     sum_m_i,
  input  wire [SliceW-1:0] sum_nslices_i,
  input  wire              sum_err_i,
  // probabilities
  output wire              out_valid_o,
  input  wire              out_ready_i,
  output wire [Vec*YW-1:0] out_y_o,
  output wire [CntW-1:0]   out_cnt_o,
  output wire              out_last_o,
  output wire              out_err_o,
  // the unit's datapath
  output wire [1:0]        take_o,    // a slice enters N0 / N1 at the next edge
  input  wire [Vec*YW-1:0] y_i        // the N2 result lanes of the slice in N1
);
  localparam integer Stages = 3;
  // Side fields, from the low bits: err, last, cnt.
  localparam integer SideW = CntW + 2;
  localparam integer LastB = 1;
  localparam integer CntB  = 2;
  localparam integer N1B   = SideW;       // the slice in N1 (its results are computed in N2)
  localparam integer OutB  = 2 * SideW;   // the output register

  // Simulation-only checks of the producers' side of the input contracts.
  cc_hold_check #(.Width(Vec * UW + MW + CntW)) u_slc_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (slc_valid_i),
    .ready_i  (slc_ready_o),
    .data_i   ({slc_u_i, slc_m_i, slc_cnt_i}),
    .release_i(1'b0)
  );
  cc_hold_check #(.Width(DW + MW + SliceW + 1)) u_sum_hold_check (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (sum_valid_i),
    .ready_i  (sum_ready_o),
    .data_i   ({sum_d_i, sum_m_i, sum_nslices_i, sum_err_i}),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- row sequencing
  reg                     drop_q;  // the output register holds a dropped slice of an error row
  wire [Stages-1:0]       valid, adv, take;
  wire [Stages*SideW-1:0] side;
  reg  [SliceW-1:0]       idx_q;   // slices of the current row already taken
  wire [SliceW-1:0]       idx_inc = idx_q + {{(SliceW - 1){1'b0}}, 1'b1};
  wire                    row_end = (idx_inc == sum_nslices_i);
  wire                    slc_in_ready;
  assign slc_ready_o = sum_valid_i && slc_in_ready;
  assign sum_ready_o = take[0] && row_end;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) idx_q <= {SliceW{1'b0}};
    else if (take[0]) idx_q <= row_end ? {SliceW{1'b0}} : idx_inc;
  end

  smx_pipe_ctrl #(.Stages(Stages), .SideW(SideW)) u_pipe (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .in_valid_i (slc_valid_i && sum_valid_i),
    .in_ready_o (slc_in_ready),
    .side_i     ({slc_cnt_i, row_end, sum_err_i}),
    .out_ready_i(drop_q || out_ready_i),
    .valid_o    (valid),
    .adv_o      (adv),
    .take_o     (take),
    .side_o     (side)
  );

  // ---------------------------------------------------------------- output register
  wire [CntW-1:0] cnt_n1  = side[N1B + CntB +: CntW];
  wire            last_n1 = side[N1B + LastB];
  wire            err_n1  = side[N1B];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) drop_q <= 1'b0;
    else if (adv[2]) drop_q <= valid[1] && err_n1 && !last_n1;
  end

  // lanes at and above cnt are forced to 0
  reg [Vec*YW-1:0] y_masked;
  integer j;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      y_masked[j*YW +: YW] = (j < cnt_n1) ? y_i[j*YW +: YW] : {YW{1'b0}};
  end

  // an error row's beat: y 0, cnt 0
  reg [Vec*YW-1:0] y_q;
  reg [CntW-1:0]   cnt_q;
  always @(posedge clk_i) begin
    if (take[2]) begin
      y_q   <= err_n1 ? {(Vec * YW){1'b0}} : y_masked;
      cnt_q <= err_n1 ? {CntW{1'b0}} : cnt_n1;
    end
  end

  assign take_o      = take[1:0];
  assign out_valid_o = valid[2] && !drop_q;
  assign out_y_o     = y_q;
  assign out_cnt_o   = cnt_q;
  assign out_last_o  = side[OutB + LastB];
  assign out_err_o   = side[OutB];

  // N0's fields only move on; the output register's cnt is cnt_q
  wire unused_ok = &{1'b0, side[0 +: SideW], side[OutB + CntB +: CntW], valid[0], adv[1:0]};
endmodule
`default_nettype wire
