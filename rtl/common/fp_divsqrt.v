////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fp_divsqrt.v
//
// Purpose:   IEEE float divide (op_i = 0: a / b) and square root (op_i = 1: sqrt(a), b ignored),
//            correctly rounded in rm_i, subnormals in and out, flags {NV, DZ, OF, UF, NX}.
//            A NaN result is the canonical quiet NaN. NV on a signaling NaN operand, 0/0,
//            inf/inf and the root of a negative nonzero value (sqrt(-0) = -0); DZ on finite
//            nonzero / 0.
//
//            Algorithm: radix-2 restoring digit recurrence on the normalized significands
//            (fp_unpack), Q = p + 2 result bits plus a sticky bit from the final remainder,
//            then fp_round_pack. Division: the dividend is pre-doubled when ma < mb so the
//            quotient lies in [1, 2). Square root: the exponent is made even by doubling the
//            significand, and the integer root of M * 2^(p+3) is formed two radicand bits per
//            step. Both share one step: compare the partial remainder with a trial value
//            (the divisor, or 4 * root + 1), subtract when it fits, shift.
//
//            Iterative = 1: one result bit per cycle, a sequential unit with valid/ready:
//              in_ready_o is high while idle; an accepted operation takes Q + 1 cycles to
//              out_valid_o (special operands 1 cycle); the result and flags hold until
//              out_ready_i. One operation in flight.
//            Iterative = 0: all Q steps unrolled in logic, one operation per cycle through
//              cc_pipe with Latency stages (cc_pipe's handshake contract).
//
// Parameters:
//   ExpW, ManW   format (8/23 fp32, 5/10 fp16, 8/7 bfloat16)
//   Iterative    1 sequential (small), 0 unrolled (one per cycle)
//   Latency      register stages of the unrolled form (ignored when Iterative = 1)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module fp_divsqrt #(
  parameter integer ExpW      = 8,
  parameter integer ManW      = 23,
  parameter integer Iterative = 1,
  parameter integer Latency   = 1
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire               in_valid_i,
  output wire               in_ready_o,
  input  wire [ExpW+ManW:0] a_i,
  input  wire [ExpW+ManW:0] b_i,
  input  wire               op_i,
  input  wire [2:0]         rm_i,
  output wire               out_valid_o,
  input  wire               out_ready_i,
  output wire [ExpW+ManW:0] result_o,
  output wire [4:0]         flags_o
);

  localparam integer W  = ExpW + ManW + 1;
  localparam integer EW = ExpW + 3;
  localparam integer P  = ManW + 1;
  localparam integer Q  = P + 2;          // result bits before the sticky
  localparam integer RW = Q + 4;          // partial remainder
  localparam integer CW = $clog2(Q + 1);  // step counter
  localparam [W-1:0] QNaN = {1'b0, {ExpW{1'b1}}, 1'b1, {(ManW-1){1'b0}}};
  // Rounding mode and flag names of cmodel/include/fpref.h (FP_RMM, FP_FLAG_NV, FP_FLAG_DZ).
  localparam [2:0] FpRmm    = 3'd4;     // the last rounding mode; 5..7 are reserved
  localparam [4:0] FpFlagDz = 5'h08, FpFlagNv = 5'h10;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (ExpW < 2 || ExpW > 30) begin : gen_check_exp_w
      `CC_PARAM_FAIL(fp_divsqrt__ExpW_must_be_2_to_30)
    end
    if (ManW < 2) begin : gen_check_man_w
      `CC_PARAM_FAIL(fp_divsqrt__ManW_must_be_at_least_2)
    end
    if (ExpW >= 2 && ExpW <= 30 && ManW > (1 << ExpW)) begin : gen_check_exp_range
      `CC_PARAM_FAIL(fp_divsqrt__ManW_must_be_at_most_2_pow_ExpW)
    end
    if (Iterative != 0 && Iterative != 1) begin : gen_check_iterative
      `CC_PARAM_FAIL(fp_divsqrt__Iterative_must_be_0_or_1)
    end
    if (Latency < 0) begin : gen_check_latency
      `CC_PARAM_FAIL(fp_divsqrt__Latency_must_be_at_least_0)
    end
  endgenerate

  // ---------------------------------------------------------------- operands and specials
  wire          a_sign, b_sign, a_zero, b_zero, a_inf, b_inf, a_nan, b_nan, a_snan, b_snan;
  wire [EW-1:0] a_exp, b_exp;
  wire [P-1:0]  a_man, b_man;
  fp_unpack #(.ExpW(ExpW), .ManW(ManW), .EW(EW)) u_unpack_a (
    .a_i(a_i), .sign_o(a_sign), .exp_o(a_exp), .man_o(a_man),
    .zero_o(a_zero), .inf_o(a_inf), .nan_o(a_nan), .snan_o(a_snan));
  fp_unpack #(.ExpW(ExpW), .ManW(ManW), .EW(EW)) u_unpack_b (
    .a_i(b_i), .sign_o(b_sign), .exp_o(b_exp), .man_o(b_man),
    .zero_o(b_zero), .inf_o(b_inf), .nan_o(b_nan), .snan_o(b_snan));

  reg         special;      // the result is decided by the operand classes alone
  reg [W-1:0] spec_result;
  reg [4:0]   spec_flags;
  always @* begin
    special     = 1'b1;
    spec_result = QNaN;
    spec_flags  = 5'b00000;
    if (rm_i > FpRmm) begin
      spec_flags = FpFlagNv;        // reserved rounding mode: canonical NaN, NV
    end else if (!op_i) begin
      if (a_nan || b_nan) begin
        spec_flags = {5{a_snan || b_snan}} & FpFlagNv;
      end else if ((a_inf && b_inf) || (a_zero && b_zero)) begin
        spec_flags = FpFlagNv;
      end else if (a_inf || b_zero) begin
        spec_result = {a_sign ^ b_sign, {ExpW{1'b1}}, {ManW{1'b0}}};
        spec_flags  = {5{b_zero && !a_inf}} & FpFlagDz;
      end else if (a_zero || b_inf) begin
        spec_result = {a_sign ^ b_sign, {(W-1){1'b0}}};
      end else begin
        special = 1'b0;
      end
    end else begin
      if (a_nan) begin
        spec_flags = {5{a_snan}} & FpFlagNv;
      end else if (a_zero) begin
        spec_result = a_i;                      // sqrt(+-0) = +-0
      end else if (a_sign) begin
        spec_flags = FpFlagNv;
      end else if (a_inf) begin
        spec_result = a_i;
      end else begin
        special = 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- recurrence set-up
  // Division: quotient of the (possibly doubled) dividend by mb, Q bits, in [1, 2).
  wire          a_lt_b   = a_man < b_man;
  wire [RW-1:0] div_rem0 = a_lt_b ? {{(RW-P-1){1'b0}}, a_man, 1'b0} : {{(RW-P){1'b0}}, a_man};
  wire [EW-1:0] div_exp  = a_exp - b_exp - {{(EW-1){1'b0}}, a_lt_b};
  // Square root: even exponent, radicand M * 2^(p+3) in 2Q bits, consumed two bits per step.
  wire          odd_exp  = a_exp[0];
  wire [2*Q-1:0] sqrt_x0 = odd_exp ? {a_man, {(P+4){1'b0}}} : {1'b0, a_man, {(P+3){1'b0}}};
  wire [EW-1:0] sqrt_exp = {a_exp[EW-1], a_exp[EW-1:1]};      // floor(ea / 2)

  wire          init_sign = op_i ? 1'b0 : (a_sign ^ b_sign);
  wire [EW-1:0] init_exp  = op_i ? sqrt_exp : div_exp;
  wire [RW-1:0] init_rem  = op_i ? {RW{1'b0}} : div_rem0;
  wire [2*Q-1:0] init_x   = op_i ? sqrt_x0 : {2*Q{1'b0}};

  // One recurrence step: returns {rem', x', q'} for the operation.
  function automatic [RW+2*Q+Q-1:0] step(input sq, input [RW-1:0] rem, input [2*Q-1:0] x,
                                         input [Q-1:0] q, input [P-1:0] divisor);
    reg [RW-1:0] r, t, r2;
    reg [RW:0]   diff;          // one subtractor gives both the compare and the new remainder
    reg          ge;
    begin
      if (sq) begin
        r = {rem[RW-3:0], x[2*Q-1:2*Q-2]};
        t = {{(RW-Q-2){1'b0}}, q, 2'b01};
      end else begin
        r = rem;
        t = {{(RW-P){1'b0}}, divisor};
      end
      diff = {1'b0, r} - {1'b0, t};
      ge   = !diff[RW];
      r2   = ge ? diff[RW-1:0] : r;
      step = {sq ? r2 : {r2[RW-2:0], 1'b0}, x << 2, q[Q-2:0], ge};
    end
  endfunction

  // ---------------------------------------------------------------- rounding (shared)
  wire          rp_sign;
  wire [EW-1:0] rp_exp;
  wire [Q-1:0]  rp_q;
  wire          rp_sticky;
  wire [2:0]    rp_rm;
  wire [W-1:0]  rp_result;
  wire [4:0]    rp_flags;
  fp_round_pack #(.ExpW(ExpW), .ManW(ManW), .InW(Q + 1), .EW(EW)) u_round (
    .sign_i(rp_sign), .exp_i(rp_exp), .man_i({rp_q, rp_sticky}), .rm_i(rp_rm),
    .result_o(rp_result), .flags_o(rp_flags));

  generate
    if (Iterative != 0) begin : gen_iter
      // ------------------------------------------------------------ sequential form
      localparam [1:0] Idle = 2'd0, Busy = 2'd1, Done = 2'd2;
      localparam [CW-1:0] Steps = Q[CW-1:0];
      reg [1:0]     state_q;
      reg [CW-1:0]  count_q;
      reg           op_q, sign_q, special_q;
      reg [EW-1:0]  exp_q;
      reg [RW-1:0]  rem_q;
      reg [2*Q-1:0] x_q;
      reg [Q-1:0]   q_q;
      reg [P-1:0]   divisor_q;
      reg [2:0]     rm_q;
      reg [W-1:0]   spec_result_q;
      reg [4:0]     spec_flags_q;

      wire [RW+3*Q-1:0] nxt = step(op_q, rem_q, x_q, q_q, divisor_q);

      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          state_q <= Idle;
          count_q <= {CW{1'b0}};
        end else begin
          case (state_q)
            Idle: if (in_valid_i) begin
              state_q <= special ? Done : Busy;
              count_q <= Steps;
            end
            Busy: begin
              count_q <= count_q - 1'b1;
              if (count_q == 1) state_q <= Done;
            end
            Done: if (out_ready_i) state_q <= Idle;
            default: state_q <= Idle;
          endcase
        end
      end

      // Datapath registers: loaded on accept, stepped while busy (no reset needed).
      always @(posedge clk_i) begin
        if (state_q == Idle && in_valid_i) begin
          op_q          <= op_i;
          sign_q        <= init_sign;
          special_q     <= special;
          exp_q         <= init_exp;
          rem_q         <= init_rem;
          x_q           <= init_x;
          q_q           <= {Q{1'b0}};
          divisor_q     <= b_man;
          rm_q          <= rm_i;
          spec_result_q <= spec_result;
          spec_flags_q  <= spec_flags;
        end else if (state_q == Busy) begin
          {rem_q, x_q, q_q} <= nxt;
        end
      end

      assign rp_sign     = sign_q;
      assign rp_exp      = exp_q;
      assign rp_q        = q_q;
      assign rp_sticky   = |rem_q;
      assign rp_rm       = rm_q;
      assign in_ready_o  = state_q == Idle;
      assign out_valid_o = state_q == Done;
      assign result_o    = special_q ? spec_result_q : rp_result;
      assign flags_o     = special_q ? spec_flags_q : rp_flags;

      // Simulation-only check of the producer's side of the input contract (the unrolled form
      // has it in cc_pipe).
      cc_hold_check #(.Width(2 * W + 4)) u_in_hold_check (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .valid_i  (in_valid_i),
        .ready_i  (in_ready_o),
        .data_i   ({a_i, b_i, op_i, rm_i}),
        .release_i(1'b0)
      );
    end else begin : gen_unrolled
      // ------------------------------------------------------------ unrolled form
      reg [RW+3*Q-1:0] acc;
      integer i;
      always @* begin
        acc = {init_rem, init_x, {Q{1'b0}}};
        for (i = 0; i < Q; i = i + 1) begin
          acc = step(op_i, acc[RW+3*Q-1:3*Q], acc[3*Q-1:Q], acc[Q-1:0], b_man);
        end
      end

      assign rp_sign   = init_sign;
      assign rp_exp    = init_exp;
      assign rp_q      = acc[Q-1:0];
      assign rp_sticky = |acc[RW+3*Q-1:3*Q];
      assign rp_rm     = rm_i;

      cc_pipe #(.Width(W + 5), .Depth(Latency)) u_pipe (
        .clk_i(clk_i), .rst_ni(rst_ni),
        .in_valid_i(in_valid_i), .in_ready_o(in_ready_o),
        .in_data_i(special ? {spec_result, spec_flags} : {rp_result, rp_flags}),
        .out_valid_o(out_valid_o), .out_ready_i(out_ready_i), .out_data_o({result_o, flags_o}));
    end
  endgenerate

endmodule

`default_nettype wire
