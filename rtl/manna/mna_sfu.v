////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_sfu.v
//
// Purpose:   The Special Function Unit of a MANNA tile, beside the Vector-Scratchpad (docs/manna.md,
//            "SFU"): serial, one Vector-Scratchpad word at a time, one fp32 operation per cycle
//            on its own fused multiply-add plus an iterative divider / square root:
//              exp      the documented sequence (range checks; t = x log2 e; n = rint(t) by the
//                       1.5 * 2^23 addition; two-part ln 2 reduction; degree-6 polynomial by
//                       Horner; two exact power-of-two scalings), 13 operations;
//              recip    1 / x, sqrt: correctly rounded (fp_divsqrt, 27 cycles);
//              relu;    sigmoid: 1 / (exp(-x) + 1);
//              sum      the accumulator: acc + x, ascending, from +0 (one word written);
//              dot      acc = fma(a, b, acc), ascending, from +0 (one word written);
//              sld/sst  one word from / to a scalar register.
//            add/mul are the fused multiply-add with a constant operand (exact IEEE results).
//
// Parameters:
//   Emacs (E, the Vector-Scratchpad's banks), VsAW (its line address width)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module mna_sfu #(
  parameter integer Emacs     = 2,
  parameter integer VsAW  = 4
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  input  wire                  start_i,
  input  wire [5:0]            op_i,        // OpSfu, OpSld or OpSst
  input  wire [2:0]            fn_i,
  input  wire [31:0]           a_i, b_i, c_i,   // word addresses: d, a, b (sld/sst: b_i)
  input  wire [15:0]           n_i,
  input  wire [31:0]           sval_i,      // sst: the scalar register's value
  output wire                  done_o,
  output wire [31:0]           sld_o,       // sld: the word, with done_o
  output wire [Emacs-1:0]      vs_re_o,
  output wire [Emacs*VsAW-1:0] vs_raddr_o,
  input  wire [Emacs*32-1:0]   vs_rdata_i,
  output wire [Emacs-1:0]      vs_we_o,
  output wire [Emacs*VsAW-1:0] vs_waddr_o,
  output wire [Emacs*32-1:0]   vs_wdata_o
);

  `include "mna_defs.vh"

  localparam integer E  = Emacs;
  localparam integer LE = $clog2(Emacs);

  localparam [31:0] One = 32'h3F80_0000, NegZero = 32'h8000_0000, PInf = 32'h7F80_0000,
                    QNaN = 32'h7FC0_0000, Half = 32'h3F00_0000,
                    L2e = 32'h3FB8_AA3B, Magic = 32'h4B40_0000, NegMagic = 32'hCB40_0000,
                    NLn2Hi = 32'hBF31_7200, NLn2Lo = 32'hB5BF_BE8E,
                    C720 = 32'h3AB6_0B61, C120 = 32'h3C08_8889, C24 = 32'h3D2A_AAAB,
                    C6 = 32'h3E2A_AAAB, ExpHi = 32'h42B1_7218, ExpLoMag = 32'h42D0_0000;

  // states
  localparam [3:0] SIdle = 4'd0, SRdA = 4'd1, SRdB = 4'd2, SGo = 4'd3, SExp = 4'd4,
                   SDivIn = 4'd5, SDivOut = 4'd6, SSig = 4'd7, SWr = 4'd8, SFin = 4'd9;

  reg [3:0]  st_q;
  reg [5:0]  op_q;
  reg [2:0]  fn_q;
  reg [31:0] d_q, a_q, b_q, sval_q;
  reg [15:0] n_q, i_q;
  reg [31:0] x_q, y_q, acc_q;     // operand, second operand / result, accumulator
  reg [3:0]  step_q;              // exp step
  reg [31:0] t_q, r_q, fn_f_q;    // exp temporaries
  reg [8:0]  nint_q;              // exp: n (signed)
  reg [LE-1:0] bank_q;
  reg        sig_q;               // sigmoid: the exp is of -x, then + 1 and the division
  reg        done_q;
  reg [31:0] sld_q;

  wire [31:0] rword = vs_rdata_i[bank_q*32 +: 32];

  // ---------------------------------------------------------------- the fused multiply-add
  reg  [31:0] fa, fb, fc;
  wire [31:0] fr;
  wire       unused_rdy, unused_vld;     // combinational: no handshake
  wire [4:0] unused_flags, unused_dv_flags;  // the tile keeps no exception flags
  fp_fma #(.ExpW(8), .ManW(23), .Latency(0)) u_fma (
    .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(1'b1), .in_ready_o(unused_rdy), .a_i(fa),
    .b_i(fb), .c_i(fc), .rm_i(3'd0), .out_valid_o(unused_vld), .out_ready_i(1'b1),
    .result_o(fr), .flags_o(unused_flags)
  );

  // 2^k for k in -75..64 as fp32 bits
  function [31:0] pow2(input [7:0] k);   // k + 127 fits 8 bits for k in -75..64
    reg [7:0] e;
    begin
      e = k + 8'd127;
      pow2 = {1'b0, e, 23'd0};
    end
  endfunction
  wire [8:0] n1 = {nint_q[8], nint_q[8:1]};          // n >> 1, arithmetic
  wire [8:0] n2 = nint_q - n1;

  always @* begin
    fa = 32'd0; fb = 32'd0; fc = NegZero;
    case (st_q)
      SFin: begin
        if (fn_q == 3'd5) begin fa = acc_q; fb = One; fc = x_q; end           // sum
        else if (fn_q == 3'd6) begin fa = x_q; fb = y_q; fc = acc_q; end      // dot
      end
      SExp: begin
        case (step_q)
          4'd1:  begin fa = x_q;    fb = L2e;  fc = NegZero; end   // t = x log2 e
          4'd2:  begin fa = t_q;    fb = One;  fc = Magic;   end   // t + 1.5 * 2^23
          4'd3:  begin fa = t_q;    fb = One;  fc = NegMagic; end  // n as a float
          4'd4:  begin fa = fn_f_q; fb = NLn2Hi; fc = x_q;   end
          4'd5:  begin fa = fn_f_q; fb = NLn2Lo; fc = r_q;   end
          4'd6:  begin fa = C720;   fb = r_q;  fc = C120;    end
          4'd7:  begin fa = y_q;    fb = r_q;  fc = C24;     end
          4'd8:  begin fa = y_q;    fb = r_q;  fc = C6;      end
          4'd9:  begin fa = y_q;    fb = r_q;  fc = Half;    end
          4'd10: begin fa = y_q;    fb = r_q;  fc = One;     end
          4'd11: begin fa = y_q;    fb = r_q;  fc = One;     end
          4'd12: begin fa = y_q;    fb = pow2(n1[7:0]); fc = NegZero; end
          default: begin fa = y_q;  fb = pow2(n2[7:0]); fc = NegZero; end   // 13
        endcase
      end
      SSig: begin fa = y_q; fb = One; fc = One; end                    // exp(-x) + 1
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- divide / square root
  reg         dv_valid;
  wire        dv_ready, dv_out_valid;
  wire [31:0] dv_res;
  reg  [31:0] dv_a, dv_b;
  reg         dv_op;
  always @* begin
    dv_valid = (st_q == SDivIn);
    dv_op = (fn_q == 3'd2);
    dv_a = (fn_q == 3'd2) ? x_q : One;
    dv_b = (fn_q == 3'd2) ? 32'd0 : ((fn_q == 3'd4) ? y_q : x_q);
  end
  fp_divsqrt #(.ExpW(8), .ManW(23), .Iterative(1)) u_div (
    .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(dv_valid), .in_ready_o(dv_ready),
    .a_i(dv_a), .b_i(dv_b), .op_i(dv_op), .rm_i(3'd0), .out_valid_o(dv_out_valid),
    .out_ready_i(st_q == SDivOut), .result_o(dv_res), .flags_o(unused_dv_flags)
  );

  // exp's special inputs
  wire x_nan  = (x_q[30:23] == 8'hFF) && (x_q[22:0] != 23'd0);
  wire x_big  = !x_q[31] && (x_q[30:0] > ExpHi[30:0]);
  wire x_tiny = x_q[31] && (x_q[30:0] > ExpLoMag[30:0]);

  // ---------------------------------------------------------------- scratchpad port
  reg [E-1:0]      re, we;
  reg [E*VsAW-1:0] ra, wa;
  reg [E*32-1:0]   wd;
  reg [31:0]       ww, wl;
  wire one_out = (fn_q == 3'd5 || fn_q == 3'd6);
  always @* begin
    re = {E{1'b0}}; we = {E{1'b0}}; ra = {E*VsAW{1'b0}}; wa = {E*VsAW{1'b0}};
    wd = {E*32{1'b0}}; ww = 32'd0; wl = 32'd0;
    if (st_q == SRdA || st_q == SRdB) begin
      ww = (st_q == SRdA) ? a_q + {16'd0, i_q} : b_q + {16'd0, i_q};
      wl = ww >> LE;
      re[ww[LE-1:0]] = 1'b1;
      ra[ww[LE-1:0]*VsAW +: VsAW] = wl[VsAW-1:0];
    end
    if (st_q == SWr) begin
      ww = (op_q == OpSst || one_out) ? d_q : d_q + {16'd0, i_q};
      wl = ww >> LE;
      we[ww[LE-1:0]] = 1'b1;
      wa[ww[LE-1:0]*VsAW +: VsAW] = wl[VsAW-1:0];
      wd[ww[LE-1:0]*32 +: 32] = (op_q == OpSst) ? sval_q : one_out ? acc_q : y_q;
    end
  end

  // ---------------------------------------------------------------- sequencing
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SIdle; op_q <= 6'd0; fn_q <= 3'd0; d_q <= 32'd0; a_q <= 32'd0; b_q <= 32'd0;
      sval_q <= 32'd0; n_q <= 16'd0; i_q <= 16'd0; x_q <= 32'd0; y_q <= 32'd0; acc_q <= 32'd0;
      step_q <= 4'd0; t_q <= 32'd0; r_q <= 32'd0; fn_f_q <= 32'd0; nint_q <= 9'd0;
      bank_q <= {LE{1'b0}}; sig_q <= 1'b0; done_q <= 1'b0; sld_q <= 32'd0;
    end else begin
      done_q <= 1'b0;
      case (st_q)
        SIdle: if (start_i) begin
          op_q <= op_i; fn_q <= fn_i; n_q <= n_i; i_q <= 16'd0; acc_q <= 32'd0;
          sval_q <= sval_i;
          if (op_i == OpSfu) begin
            d_q <= a_i; a_q <= b_i; b_q <= c_i; st_q <= SRdA;
          end else if (op_i == OpSld) begin
            a_q <= b_i; n_q <= 16'd1; st_q <= SRdA;
          end else begin                        // sst
            d_q <= b_i; st_q <= SWr;
          end
        end
        SRdA: begin
          bank_q <= (a_q[LE-1:0] + i_q[LE-1:0]);
          st_q <= (op_q == OpSfu && fn_q == 3'd6) ? SRdB : SGo;
        end
        SRdB: begin
          x_q <= rword;
          bank_q <= (b_q[LE-1:0] + i_q[LE-1:0]);
          st_q <= SGo;
        end
        SGo: begin
          if (op_q == OpSld) begin
            sld_q <= rword;
            st_q <= SFin;
          end else begin
            // x: the word read last cycle (dot: a was latched, b arrives now)
            if (fn_q == 3'd6) begin
              y_q <= rword;
            end else begin
              x_q <= rword;
            end
            case (fn_q)
              3'd0: begin st_q <= SExp; step_q <= 4'd0; sig_q <= 1'b0; end
              3'd4: begin
                st_q <= SExp; step_q <= 4'd0; sig_q <= 1'b1;
              end
              3'd1, 3'd2: st_q <= SDivIn;
              3'd3: begin
                y_q <= ((rword[30:23] == 8'hFF) && (rword[22:0] != 23'd0)) ? QNaN :
                       rword[31] ? 32'd0 : rword;
                st_q <= SWr;
              end
              default: st_q <= SFin;          // sum, dot: the accumulate happens in SFin's
            endcase                           // first visit (below)
          end
        end
        SExp: begin
          case (step_q)
            4'd0: begin
              if (sig_q) x_q <= {~x_q[31], x_q[30:0]};
              step_q <= 4'd1;
            end
            default: ;
          endcase
          if (step_q == 4'd1) begin
            if (x_nan) begin y_q <= QNaN; st_q <= sig_q ? SSig : SWr; end
            else if (x_big) begin y_q <= PInf; st_q <= sig_q ? SSig : SWr; end
            else if (x_tiny) begin y_q <= 32'd0; st_q <= sig_q ? SSig : SWr; end
            else begin t_q <= fr; step_q <= 4'd2; end
          end
          if (step_q == 4'd2) begin t_q <= fr; nint_q <= fr[8:0]; step_q <= 4'd3; end
          if (step_q == 4'd3) begin fn_f_q <= fr; step_q <= 4'd4; end
          if (step_q == 4'd4 || step_q == 4'd5) begin r_q <= fr; step_q <= step_q + 4'd1; end
          if (step_q >= 4'd6 && step_q <= 4'd12) begin y_q <= fr; step_q <= step_q + 4'd1; end
          if (step_q == 4'd13) begin y_q <= fr; st_q <= sig_q ? SSig : SWr; end
        end
        SSig: begin y_q <= fr; st_q <= SDivIn; end
        SDivIn: if (dv_ready) st_q <= SDivOut;
        SDivOut: if (dv_out_valid) begin y_q <= dv_res; st_q <= SWr; end
        SWr: begin
          if (op_q == OpSst) begin
            st_q <= SIdle; done_q <= 1'b1;
          end else if (one_out || i_q + 16'd1 == n_q) begin
            st_q <= SIdle; done_q <= 1'b1;
          end else begin
            i_q <= i_q + 16'd1;
            st_q <= SRdA;
          end
        end
        SFin: begin
          if (op_q == OpSld) begin
            st_q <= SIdle; done_q <= 1'b1;
          end else begin
            acc_q <= fr;
            if (i_q + 16'd1 == n_q) begin
              st_q <= SWr;
            end else begin
              i_q <= i_q + 16'd1;
              st_q <= SRdA;
            end
          end
        end
        default: st_q <= SIdle;
      endcase
    end
  end

  wire unused_sfu = ^{wl, n1[8], n2[8]};  // address cut to the scratchpad; pow2 takes k's 8 bits

  assign done_o     = done_q;
  assign sld_o      = sld_q;
  assign vs_re_o    = re;
  assign vs_raddr_o = ra;
  assign vs_we_o    = we;
  assign vs_waddr_o = wa;
  assign vs_wdata_o = wd;

endmodule
