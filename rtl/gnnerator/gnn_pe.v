////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_pe.v
//
// Purpose:   One processing element of the Dense Engine's systolic array: one fp32 fused
//            multiply-add (fp_fma, combinational, one rounding, round to nearest even) and the
//            registers of all three dataflows. Operand a moves left to right (a_q), operand v
//            moves top to bottom (v_q); s_q is the stationary register.
//
//            Output-stationary (os_i = 1): v carries B down, s_q is the accumulator:
//              when ctl_l_i[valid]: s_q <= fma(a_l, v_t, first ? -0 : s_q); on [last] the result
//              is also copied to out_q, where the drain reads it while the next fold runs.
//            Weight/input-stationary (os_i = 0): v carries the partial sum down,
//              v_q <= (mac_i && row_en_i) ? fma(a_l, s_q, v_t) : v_t
//            so a preload (mac_i = 0) shifts lines down the column, latch_i copies v_t into s_q
//            (every row then holds its line), and a disabled row (beyond K in the last fold)
//            passes the partial sum on unchanged.
//
//            The control word ctl = {last, first, valid} travels with a (OS only).
//
// Parameters:
//   Mode   0: every dataflow (the engine's PE); 1: output-stationary only; 2: weight- or
//          input-stationary only (the two differ only in which buffer feeds which edge, so
//          their PE is the same). Modes 1 and 2 are the single-dataflow PEs whose area the
//          bench reports beside Mode 0 (in the paper the dataflow is a design-time choice).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_pe #(
  parameter integer Mode = 0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        os_i,      // 1: output-stationary, 0: weight/input-stationary
  input  wire        mac_i,     // WS/IS: compute (1) or shift a preload down (0)
  input  wire        latch_i,   // WS/IS: s_q <= v_t (end of a preload)
  input  wire        row_en_i,  // WS/IS: this row holds a valid K index in this fold
  input  wire [31:0] a_l_i,     // from the left neighbour (or the row's skew lane)
  input  wire [2:0]  ctl_l_i,   // {last, first, valid} with a_l_i
  input  wire [31:0] v_t_i,     // from the top neighbour (or the column's skew lane)
  output wire [31:0] a_o,
  output wire [2:0]  ctl_o,
  output wire [31:0] v_o,
  output wire [31:0] out_o      // OS: the result of the last finished fold
);

  localparam [31:0] NegZero = 32'h8000_0000;

  reg [31:0] a_q, v_q, s_q, out_q;
  reg [2:0]  ctl_q;

  // the dataflow this cycle: fixed by Mode in the single-dataflow PEs
  wire os = (Mode == 1) ? 1'b1 : (Mode == 2) ? 1'b0 : os_i;
  wire unused_mode = (Mode != 0) & os_i;

  wire [31:0] mul_b = os ? v_t_i : s_q;
  wire [31:0] add_c = os ? (ctl_l_i[1] ? NegZero : s_q) : v_t_i;
  wire [31:0] fma_res;
  wire        unused_rdy, unused_vld;
  wire [4:0]  unused_flags;  // the Dense Engine reports no exception flags (docs/gnnerator.md)

  fp_fma #(.ExpW(8), .ManW(23), .Latency(0)) u_fma (
    .clk_i      (1'b0),     // combinational (Latency 0)
    .rst_ni     (1'b1),
    .in_valid_i (1'b1),
    .in_ready_o (unused_rdy),
    .a_i        (a_l_i),
    .b_i        (mul_b),
    .c_i        (add_c),
    .rm_i       (3'd0),
    .out_valid_o(unused_vld),
    .out_ready_i(1'b1),
    .result_o   (fma_res),
    .flags_o    (unused_flags)
  );

  // Only the control travels reset; the data registers need none (their values are used only
  // behind a valid control bit or a sequencer phase).
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ctl_q <= 3'b000;
    else         ctl_q <= os ? ctl_l_i : 3'b000;
  end

  always @(posedge clk_i) begin
    a_q <= a_l_i;
    if (os) begin
      v_q <= v_t_i;
      if (ctl_l_i[0]) s_q <= fma_res;
      if (ctl_l_i[0] && ctl_l_i[2]) out_q <= fma_res;
    end else begin
      v_q <= (mac_i && row_en_i) ? fma_res : v_t_i;
      if (latch_i) s_q <= v_t_i;
    end
  end

  assign a_o   = a_q;
  assign ctl_o = ctl_q;
  assign v_o   = v_q;
  assign out_o = (Mode == 2) ? 32'd0 : out_q;  // no OS results without OS

endmodule

`default_nettype wire
