`default_nettype none
// softermax_recip -- reciprocal of the power sum d for the normalization unit.
//
// Purpose: d (Q(10,6)) is normalized by its leading-zero count to a mantissa in [1, 2);
//   a linear piece-wise reciprocal on 2^RecipSegBits segments gives 1/mantissa in Q(1,15),
//   rounded half up to the Q(1,7) mantissa rq. Then 1/d = rq/2^7 * 2^(lz - 9).
//   d = 0 cannot occur for a legal row (the element holding the max adds >= 2^-0.75) and is
//   treated as the smallest d, 1 LSB. Combinational, one instance per unit (not per lane).
// Parameters:
//   RecipSegBits  log2 of the number of LPW segments (2..4; paper: 4 segments)
module softermax_recip #(
  parameter integer RecipSegBits = 2
) (
  input  wire [15:0] d_i,   // power sum, Q(10,6)
  output wire [7:0]  rq_o,  // reciprocal mantissa, Q(1,7), in [0.5, 1]
  output wire [3:0]  lz_o   // leading zeros of d (0..15)
);
  localparam integer RemW = 15 - RecipSegBits;

  `include "softermax_lut.vh"

  wire [15:0] d_nz = (d_i == 16'd0) ? 16'd1 : d_i;
  wire [4:0]  lz_cnt;
  wire        lz_zero;

  cc_lzc #(.Width(16)) u_lzc (
    .in_i  (d_nz),
    .cnt_o (lz_cnt),
    .zero_o(lz_zero)
  );

  wire [15:0]            dn   = d_nz << lz_cnt[3:0];  // bit 15 set
  wire [RecipSegBits-1:0] seg = dn[14:RemW];
  wire [RemW-1:0]        rem  = dn[RemW-1:0];
  wire [3:0]             seg4 = {{(4 - RecipSegBits){1'b0}}, seg};
  wire [RemW+15:0]       prod = smx_rcp_m(RecipSegBits, seg4) * rem;
  wire [15:0]            r15  = smx_rcp_c(RecipSegBits, seg4) - prod[RemW+15:RemW];
  wire [15:0]            rnd  = r15 + 16'd128;  // r15 <= 1.0 - eps, no overflow

  assign rq_o = rnd[15:8];
  assign lz_o = lz_cnt[3:0];

  // lz_zero and lz_cnt[4] are unreachable: d_nz is never zero.
  // prod[RemW-1:0] is the truncated part of the interpolation.
  wire unused_ok = &{1'b0, lz_zero, lz_cnt[4], rnd[7:0], dn[15], prod[RemW-1:0]};
endmodule
`default_nettype wire
