`default_nettype none
// softermax_fp16_exp -- one lane of the fp16 baseline's exponential: y = e^x, fp16 in, fp16 out.
//
// Purpose: the base-e exponential of the fp16 softmax baseline (docs/softermax.md, "fp16
//   baseline"), an integer algorithm with one rounding at the end:
//     special   NaN -> canonical NaN 0x7E00; +inf -> +inf; -inf -> +0; |x| >= 32 -> +inf or
//               +0 by sign (e^32 overflows fp16, e^-32 is below half the smallest subnormal)
//     fixed     x = sig * 2^(es - 25), sig = {hidden bit, fraction} (11 bits), es = the
//               exponent field, 1 for subnormals: every |x| < 32 is exact in Q(6,24) and
//               needs no conversion step, because the product below is formed on sig first
//     t         t = x * log2(e): sig * round(log2(e) * 2^28) (11 x 29 bits), shifted right
//               by 33 - es to 20 fraction bits (truncating the magnitude), negated for x < 0
//     split     n = floor(t) (7 bits, -47..46), f = t - n in [0, 1) (20 bits)
//     2^f       64 segments: k = top 6 bits of f, r = the other 14; the minimax line of 2^f on
//               the segment, y = c[k] + (m[k] * r) >> 14 (truncating), Q(1,18) in [1, 2);
//               segment 0 keeps the chord so y >= 1 always (no renormalization)
//     round     y * 2^(n - 18) to fp16 by fp_round_pack (round to nearest even): exponent n,
//               subnormal results shifted with rounding, overflow to +inf, underflow to +0
//   Accuracy (exhaustive over all 65536 inputs against exp() in double, tests/
//   test_softermax_fp16.c): at most 0.516 ulp from the exact e^x, 212 results not correctly
//   rounded, every special case exact. The constants come from sw/softermax/gen_softermax_lut.py
//   (softermax_fp16_lut.vh), the same source as the C model (smx16_exp()).
//   Combinational; the caller registers. Flags are not produced (the softmax ignores them).
// Parameters: none (fp16 only; widths and constants are in softermax_fp16_lut.vh).
module softermax_fp16_exp (
  input  wire [15:0] x_i,  // fp16
  output wire [15:0] y_o   // fp16, e^x
);
  `include "smx_consts.vh"
  `include "softermax_fp16_lut.vh"

  localparam integer EB    = Smx16ExpBits;       // exponent field bits
  localparam integer MB    = Smx16ManBits;       // fraction field bits
  localparam integer SigW  = MB + 1;             // significand with the hidden bit
  localparam integer Bias  = (1 << (EB - 1)) - 1;
  // |x| >= 2^5 = 32 (exponent field >= Bias + 5, infinities included): e^x saturates
  localparam integer SatI  = Bias + 5;
  localparam [EB-1:0] SatField = SatI[EB-1:0];
  localparam [EB-1:0] OneField = 1;              // the exponent of subnormals
  localparam integer LogW  = ExpLf + 1;          // log2(e) constant bits
  localparam integer PW    = SigW + LogW;        // sig * log2(e)
  localparam integer TW    = 6 + ExpTf;          // |t| < 32 * log2(e) < 64
  localparam integer RW    = ExpTf - ExpKb;      // interpolation bits below the segment index
  localparam integer ShW   = 6;
  // x = sig * 2^(es - Bias - MB): the alignment shift is ShBase - es (es >= 1)
  localparam integer ShBaseI = Bias + MB + ExpLf - ExpTf;
  localparam [ShW-1:0] ShBase = ShBaseI[ShW-1:0];

  wire          x_sign = x_i[EB+MB];
  wire [EB-1:0] efield = x_i[EB+MB-1:MB];
  wire [MB-1:0] frac   = x_i[MB-1:0];
  wire          is_nan = (&efield) && (|frac);
  wire          big    = efield >= SatField;  // |x| >= 32: the result saturates

  wire [SigW-1:0] sig = {|efield, frac};
  wire [EB-1:0]   es  = (efield == {EB{1'b0}}) ? OneField : efield;

  // The 11-bit significand is multiplied before the alignment shift, so the product is small
  // (11 x 29) and x still enters exactly.
  wire [PW-1:0]  prod  = {{LogW{1'b0}}, sig} * {{SigW{1'b0}}, ExpLog2e};
  wire [ShW-1:0] sh    = ShBase - {1'b0, es};
  wire [PW-1:0]  tfull = prod >> sh;
  wire [TW-1:0]  tmag  = tfull[TW-1:0];
  wire [TW:0]    t     = x_sign ? ({(TW + 1){1'b0}} - {1'b0, tmag}) : {1'b0, tmag};

  wire [TW-ExpTf:0] n   = t[TW:ExpTf];           // floor(t), two's complement
  wire [ExpKb-1:0]  k   = t[ExpTf-1:RW];         // segment of f = t - n
  wire [RW-1:0]     rem = t[RW-1:0];             // position inside the segment

  wire [ExpMw+RW-1:0] slope = {{RW{1'b0}}, smx16_exp_m(k)} * {{ExpMw{1'b0}}, rem};
  wire [ExpYf:0]      y     = smx16_exp_c(k) + {{(ExpYf + 1 - ExpMw){1'b0}}, slope[ExpMw+RW-1:RW]};

  // y * 2^(n - ExpYf): fp_round_pack reads man_i as man * 2^(exp - (InW - 1)).
  wire [Smx16Bits-1:0] rp_result;
  wire [4:0]           rp_flags;
  fp_round_pack #(.ExpW(EB), .ManW(MB), .InW(ExpYf + 1), .EW(8)) u_round (
    .sign_i  (1'b0),
    .exp_i   ({{(8 - (TW - ExpTf + 1)){n[TW-ExpTf]}}, n}),
    .man_i   (y),
    .rm_i    (3'd0),
    .result_o(rp_result),
    .flags_o (rp_flags)
  );

  assign y_o = is_nan ? Smx16Qnan : big ? (x_sign ? Smx16PosZero : Smx16PosInf) : rp_result;

  // bits above |t| only matter for |x| >= 32 (saturated); the interpolation's truncated bits;
  // flags are not part of this unit's interface
  wire unused_ok = &{1'b0, tfull[PW-1:TW], slope[RW-1:0], rp_flags};
endmodule
`default_nettype wire
