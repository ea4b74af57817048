`default_nettype none
// softermax_fp16_unnormed -- unnormed-softmax unit of the fp16 baseline (the conventional
//   counterpart of softermax_unnormed for the area comparison, docs/softermax.md).
//
// Purpose: takes a row of fp16 scores as slices of Vec elements per cycle and produces, per
//   slice, e_j = exp(x_j - m) against the running max m of the row so far, together with that
//   m; and the running denominator d (fp16) renormalized online to the row's current max:
//     S1  local max: fp_cmp MAX tree over the valid lanes (lanes >= cnt count as -inf); row
//         bookkeeping and error checks (same rules as softermax_unnormed)
//     S2  m_new = max(m_old, local max) (m_old = -inf on a row's first slice); m_sub = m_new,
//         or +0 when m_new = -inf (so an all -inf prefix gives e = 0 instead of -inf - -inf =
//         NaN); x_j - m_sub per lane and m_old - m_sub (fp_add, subtract)
//     S3  softermax_fp16_exp per lane (lanes >= cnt give +0) and for the max difference
//     S4  slice sum: fp_add tree in the fixed order of softermax_fp16_tree
//     S5  d = d_old * exp(m_old - m_sub) + sum (fp_mul, then fp_add: two roundings);
//         d_old = +0 on a row's first slice
//   Every float operation is IEEE binary16, round to nearest even (softermax_fp16_op: the
//   fp_* units at Latency 0; these stage registers give the timing). One slice per cycle,
//   back-to-back rows without bubbles. The row bookkeeping, the stage control and the fields
//   that travel with each slice are smx_unnormed_ctrl's, shared with softermax_unnormed; this
//   module is the arithmetic.
//   Malformed input (cnt 0 or > Vec, cnt < Vec before the last beat, row > MaxLen elements)
//   flags the row (out_err_o on its last slice); slices past MaxLen/Vec are not marked for
//   storage (out_store_o = 0) so a downstream row buffer never overflows.
// Parameters:
//   Vec     lanes (elements per cycle), 1..64; paper: 16, 32
//   MaxLen  longest legal row in elements (>= 1); paper workload: 384
// Interfaces: in_* and out_* are valid/ready streams (docs/softermax.md has the contract).
module softermax_fp16_unnormed #(
  parameter integer Vec    = 16,
  parameter integer MaxLen = 384,
  // derived, do not override
  parameter integer CntW      = $clog2(Vec + 1),
  parameter integer MaxSlices = (MaxLen < 1) ? 1 : (MaxLen + Vec - 1) / Vec,
  parameter integer SliceW    = $clog2(MaxSlices + 1)
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // input slices
  input  wire              in_valid_i,
  output wire              in_ready_o,
  input  wire [Vec*16-1:0] in_x_i,        // fp16, lane j in bits [j*16 +: 16]
  input  wire [CntW-1:0]   in_cnt_i,      // valid lanes 0..cnt-1
  input  wire              in_last_i,     // last slice of the row
  // output slices
  output wire              out_valid_o,
  input  wire              out_ready_i,
  output wire [Vec*16-1:0] out_e_o,       // fp16 exp(x_j - m) per lane, +0 in unused lanes
  output wire [15:0]       out_m_o,       // fp16 running max the slice was computed against
  output wire [CntW-1:0]   out_cnt_o,     // valid lanes (clamped to Vec)
  output wire              out_last_o,
  output wire              out_store_o,   // slice is within MaxLen: keep it
  output wire [15:0]       out_d_o,       // fp16 running denominator after this slice
  output wire [SliceW-1:0] out_nslices_o, // slices of the row kept so far
  output wire              out_err_o      // row malformed so far
);
  `include "smx_consts.vh"

  localparam integer FW     = Smx16Bits;  // one fp16 value
  localparam integer Stages = 5;
  localparam integer OpMax = 0, OpAdd = 1, OpSub = 2, OpMul = 3;  // softermax_fp16_op

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (smx_param_check).
  smx_param_check #(
    .Vec(Vec), .MaxLen(MaxLen), .CntW(CntW), .MaxSlices(MaxSlices),
    .SliceW(SliceW)
  ) u_param_check ();

  // ---------------------------------------------------------------- control
  wire [CntW-1:0]        lanes;
  wire [Stages-1:0]      take, first;
  wire [Stages*CntW-1:0] cnt;
  smx_unnormed_ctrl #(.Vec(Vec), .MaxLen(MaxLen), .XW(FW), .Stages(Stages)) u_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_valid_i   (in_valid_i),
    .in_ready_o   (in_ready_o),
    .in_x_i       (in_x_i),
    .in_cnt_i     (in_cnt_i),
    .in_last_i    (in_last_i),
    .out_valid_o  (out_valid_o),
    .out_ready_i  (out_ready_i),
    .out_cnt_o    (out_cnt_o),
    .out_last_o   (out_last_o),
    .out_store_o  (out_store_o),
    .out_nslices_o(out_nslices_o),
    .out_err_o    (out_err_o),
    .lanes_o      (lanes),
    .take_o       (take),
    .cnt_o        (cnt),
    .first_o      (first)
  );
  wire [CntW-1:0] cnt2 = cnt[1*CntW +: CntW];  // valid lanes of the slice in S2

  // ---------------------------------------------------------------- S1: local max
  // lanes at and above cnt enter the max tree as -inf (the identity of max)
  reg [Vec*FW-1:0] x_masked;
  integer j;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      x_masked[j*FW +: FW] = (j < lanes) ? in_x_i[j*FW +: FW] : Smx16NegInf;
  end

  wire [FW-1:0] lmax;
  softermax_fp16_tree #(.N(Vec), .Op(0)) u_max_tree (
    .in_i (x_masked),
    .out_o(lmax)
  );

  reg [Vec*FW-1:0] x1_q;
  reg [FW-1:0]     lmax1_q;

  always @(posedge clk_i) begin
    if (take[0]) begin
      x1_q    <= in_x_i;
      lmax1_q <= lmax;
    end
  end

  // ---------------------------------------------------------------- S2: running max, x - m
  reg  [FW-1:0] mrun_q;
  wire [FW-1:0] m_old = first[0] ? Smx16NegInf : mrun_q;
  wire [FW-1:0] m_new;
  softermax_fp16_op #(.Op(OpMax)) u_run_max (
    .a_i(m_old),
    .b_i(lmax1_q),
    .y_o(m_new)
  );
  wire [FW-1:0] m_sub = (m_new == Smx16NegInf) ? Smx16PosZero : m_new;

  // Lane differences and the max difference: lane Vec is the max difference m_old - m_sub.
  wire [(Vec+1)*FW-1:0] sub_a = {m_old, x1_q};
  wire [(Vec+1)*FW-1:0] diff;
  genvar g;
  generate
    for (g = 0; g <= Vec; g = g + 1) begin : gen_sub
      softermax_fp16_op #(.Op(OpSub)) u_sub (
        .a_i(sub_a[g*FW +: FW]),
        .b_i(m_sub),
        .y_o(diff[g*FW +: FW])
      );
    end
  endgenerate

  reg [(Vec+1)*FW-1:0] diff2_q;
  reg [FW-1:0]         m2_q;

  always @(posedge clk_i) begin
    if (take[1]) begin
      mrun_q  <= m_new;
      diff2_q <= diff;
      m2_q    <= m_new;
    end
  end

  // ---------------------------------------------------------------- S3: exponentials
  wire [(Vec+1)*FW-1:0] ex;
  generate
    for (g = 0; g <= Vec; g = g + 1) begin : gen_exp
      softermax_fp16_exp u_exp (
        .x_i(diff2_q[g*FW +: FW]),
        .y_o(ex[g*FW +: FW])
      );
    end
  endgenerate

  // lanes at and above cnt are +0 (the identity of the sum)
  reg [Vec*FW-1:0] e_lane;
  always @* begin
    for (j = 0; j < Vec; j = j + 1)
      e_lane[j*FW +: FW] = (j < cnt2) ? ex[j*FW +: FW] : Smx16PosZero;
  end

  reg [Vec*FW-1:0] e3_q;
  reg [FW-1:0]     scale3_q, m3_q;

  always @(posedge clk_i) begin
    if (take[2]) begin
      e3_q     <= e_lane;
      scale3_q <= ex[Vec*FW +: FW];
      m3_q     <= m2_q;
    end
  end

  // ---------------------------------------------------------------- S4: slice sum
  wire [FW-1:0] lsum;
  softermax_fp16_tree #(.N(Vec), .Op(1)) u_sum_tree (
    .in_i (e3_q),
    .out_o(lsum)
  );

  reg [Vec*FW-1:0] e4_q;
  reg [FW-1:0]     sum4_q, scale4_q, m4_q;

  always @(posedge clk_i) begin
    if (take[3]) begin
      e4_q     <= e3_q;
      sum4_q   <= lsum;
      scale4_q <= scale3_q;
      m4_q     <= m3_q;
    end
  end

  // ---------------------------------------------------------------- S5: running denominator
  reg  [FW-1:0] drun_q;
  wire [FW-1:0] d_old = first[3] ? Smx16PosZero : drun_q;
  wire [FW-1:0] d_scaled, d_new;
  softermax_fp16_op #(.Op(OpMul)) u_d_mul (
    .a_i(d_old),
    .b_i(scale4_q),
    .y_o(d_scaled)
  );
  softermax_fp16_op #(.Op(OpAdd)) u_d_add (
    .a_i(d_scaled),
    .b_i(sum4_q),
    .y_o(d_new)
  );

  reg [Vec*FW-1:0] e5_q;
  reg [FW-1:0]     m5_q;

  always @(posedge clk_i) begin
    if (take[4]) begin
      drun_q <= d_new;
      e5_q   <= e4_q;
      m5_q   <= m4_q;
    end
  end

  assign out_e_o = e5_q;
  assign out_m_o = m5_q;
  assign out_d_o = drun_q;

  // the control's fields of the stages that need none here
  wire unused_ok = &{1'b0, first[2:1], first[4], cnt[0 +: CntW], cnt[2*CntW +: 3 * CntW]};
endmodule
`default_nettype wire
