////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_sfu.v
//
// Purpose:   One fp32 lane of a Special Function Unit of the Graph Engine's shared SFU pool
//            (cmodel/include/gnnerator.h, "SFU"; the model's gnn_sfu bit for bit):
//            op 1 ReLU (NaN -> canonical NaN, sign set -> +0), op 2 exp, op 0 (and 3, which the
//            decoder refuses) passes x. exp is integer arithmetic: t = |x| log2(e) in fixed
//            point (the 24-bit significand times a 40-bit constant, shifted by the exponent),
//            split into n + f; 2^f from a 256-entry table (gnn_exp_lut.vh, generated with the
//            model's copy) times 1 + u + u^2/2 for the last 24 bits of f; rounded to nearest
//            even; results >= 2^128 -> +inf, below 2^-126 -> +0. Within 1 ulp of exp.
//            Combinational (four integer multipliers: 24x40, 24x32, 24x24, 31x33): the area
//            that makes the SFU a shared pool rather than a part of every GPE.
//
// Parameters: none.
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_sfu (
  input  wire [1:0]  op_i,
  input  wire [31:0] x_i,
  output wire [31:0] y_o
);

  `include "gnn_exp_lut.vh"

  localparam [31:0] One = 32'h3F80_0000, PInf = 32'h7F80_0000, QNaN = 32'h7FC0_0000;

  wire       s = x_i[31];
  wire [7:0] e = x_i[30:23];
  wire       x_nan = (e == 8'hFF) && (x_i[22:0] != 23'd0);

  // ReLU (as the Dense Engine's ACT)
  wire [31:0] relu = x_nan ? QNaN : s ? 32'd0 : x_i;

  // exp: t = |x| log2(e), 56 fraction bits
  wire [63:0] prod = {40'd0, 1'b1, x_i[22:0]} * {24'd0, GnnExpL2e};
  wire [7:0]  sh   = 8'd133 - e;                   // used for e in 1..133 only
  wire [63:0] t    = prod >> sh;
  wire [55:0] t_fr = t[55:0];
  wire        fr_nz = (t_fr != 56'd0);
  wire [9:0]  ip   = {2'b00, t[63:56]};
  wire [9:0]  n0   = !s ? ip : fr_nz ? (~ip) : (10'd0 - ip);   // ~ip = -(ip + 1)
  wire [55:0] f    = (s && fr_nz) ? (56'd0 - t_fr) : t_fr;     // 2^56 - fr, modulo 2^56
  // 2^f = TAB[i] * e^u, u = r ln 2
  wire [7:0]  i    = f[55:48];
  wire [55:0] ur   = {32'd0, f[47:24]} * {24'd0, GnnExpLn2};
  wire [23:0] u    = ur[55:32];
  wire [47:0] uu   = {24'd0, u} * {24'd0, u};
  wire [32:0] p    = 33'h1_0000_0000 + {9'd0, u} + {18'd0, uu[47:33]};
  wire [63:0] mm   = {33'd0, gnn_exp_lut(i)} * {31'd0, p};
  wire        top  = mm[63];
  wire [23:0] sig  = top ? mm[63:40] : mm[62:39];
  wire        grd  = top ? mm[39] : mm[38];
  wire        stk  = top ? (mm[38:0] != 39'd0) : (mm[37:0] != 38'd0);
  wire [24:0] sig_r = {1'b0, sig} + {24'd0, grd && (stk || sig[0])};
  wire [9:0]  n2   = n0 + {9'd0, top} + {9'd0, sig_r[24]};
  wire [9:0]  be   = n2 + 10'd127;                 // biased exponent, two's complement
  wire [22:0] frac = sig_r[24] ? 23'd0 : sig_r[22:0];
  wire        be_neg = be[9];
  wire        be_big = !be[9] && (be[8:0] >= 9'd255);
  wire [31:0] expv = be_big ? PInf : (be_neg || be == 10'd0) ? 32'd0 : {1'b0, be[7:0], frac};
  // below the fixed-point results (sig_r[23] is the hidden bit)
  wire        unused = ^{ur[31:0], uu[32:0], f[23:0], sig_r[23]};

  wire [31:0] exp_y = (e == 8'hFF) ? (x_nan ? QNaN : s ? 32'd0 : PInf) :
                      (e == 8'd0)  ? One :
                      (e >= 8'd134) ? (s ? 32'd0 : PInf) : expv;

  assign y_o = (op_i == 2'd1) ? relu : (op_i == 2'd2) ? exp_y : x_i;

endmodule

`default_nettype wire
