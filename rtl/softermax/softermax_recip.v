`default_nettype none
// softermax_recip -- reciprocal of the power sum d for the normalization unit.
//
// Purpose: d (Q(10,SumFrac)) is normalized by its leading-zero count to a mantissa in [1, 2);
//   a linear piece-wise reciprocal on 2^RecipSegBits segments gives 1/mantissa in Q(1,15),
//   rounded half up to the Q(1,7) mantissa rq. Then 1/d = rq/2^7 * 2^(lz - 9).
//   d = 0 cannot occur for a legal row (the element holding the max adds >= 2^-0.75) and is
//   treated as the smallest d, 1 LSB. Combinational, one instance per unit (not per lane).
//   The 15 mantissa bits below the leading one feed the LPW; with SumFrac > 6 the bits below
//   them are dropped (the reciprocal's 8-bit output has far less precision).
// Parameters:
//   RecipSegBits  log2 of the number of LPW segments (2..4; paper: 4 segments)
//   SumFrac       power-sum fraction bits (6..13; paper: 6); d is 10 + SumFrac bits
module softermax_recip #(
  parameter integer RecipSegBits = 2,
  parameter integer SumFrac      = 6,
  // derived, do not override
  parameter integer DWidth       = 10 + SumFrac,
  parameter integer LzW          = $clog2(DWidth)
) (
  input  wire [DWidth-1:0] d_i,   // power sum, Q(10,SumFrac)
  output wire [7:0]        rq_o,  // reciprocal mantissa, Q(1,7), in [0.5, 1]
  output wire [LzW-1:0]    lz_o   // leading zeros of d (0..DWidth-1)
);
  `include "smx_consts.vh"
  `include "softermax_lut.vh"

  localparam integer MF   = SmxUFrac;             // mantissa bits below the leading one, Q(1,15)
  localparam integer RemW = MF - RecipSegBits;
  localparam integer CntW = $clog2(DWidth + 1);
  // rounding r15 (Q(1,15)) to the Q(1,7) mantissa: add half of its LSB
  localparam [SmxUBits-1:0] RqHalf = 1 << (SmxUFrac - SmxRqFrac - 1);

  wire [DWidth-1:0] d_nz = (d_i == {DWidth{1'b0}}) ? {{(DWidth - 1){1'b0}}, 1'b1} : d_i;
  wire [CntW-1:0]   lz_cnt;
  wire              lz_zero;

  cc_lzc #(.Width(DWidth)) u_lzc (
    .in_i  (d_nz),
    .cnt_o (lz_cnt),
    .zero_o(lz_zero)
  );

  wire [DWidth-1:0]      dn   = d_nz << lz_cnt;  // MSB set
  wire [MF-1:0]          frac = dn[DWidth-2 -: MF];
  wire [RecipSegBits-1:0] seg = frac[MF-1:RemW];
  wire [RemW-1:0]        rem  = frac[RemW-1:0];
  wire [3:0]             seg4 = {{(4 - RecipSegBits){1'b0}}, seg};
  wire [RemW+SmxUBits-1:0] prod = smx_rcp_m(RecipSegBits, seg4) * rem;
  wire [SmxUBits-1:0]    r15  = smx_rcp_c(RecipSegBits, seg4) - prod[RemW+SmxUBits-1:RemW];
  wire [SmxUBits-1:0]    rnd  = r15 + RqHalf;  // r15 <= 1.0 - eps, no overflow

  assign rq_o = rnd[SmxUBits-1 -: SmxRqBits];
  assign lz_o = lz_cnt[LzW-1:0];

  // lz_zero and the top bit of lz_cnt are unreachable: d_nz is never zero. dn's leading one
  // and tail, rnd's low byte and prod's low bits are the truncated parts of the computation.
  wire unused_ok = &{1'b0, lz_zero, lz_cnt, rnd[SmxUBits-SmxRqBits-1:0], dn, prod[RemW-1:0]};
endmodule
`default_nettype wire
