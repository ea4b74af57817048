`default_nettype none
// softermax_pow2 -- one lane of the power-of-two unit: u = 2^(x - m), Q(1,15).
//
// Purpose: x - m (<= 0 by construction, since m is the running integer max) is split into
//   floor (an integer <= 0) and a fraction in [0, 1). The fraction picks one of 4 linear
//   piece-wise segments of 2^f; with 2 input fraction bits the fraction *is* the segment, so
//   the LPW degenerates to the 4-entry c LUT. Wider fractions use c + m * rem (general path).
//   The LPW result is shifted right by -floor (truncating); shifts >= 16 give 0.
//   Combinational; the caller registers.
// Parameters:
//   InWidth  input width in bits (signed, two's complement)
//   InFrac   input fraction bits, 2 .. InWidth - 2; default Q(6,2)
module softermax_pow2 #(
  parameter integer InWidth = 8,
  parameter integer InFrac  = 2
) (
  input  wire [InWidth-1:0]      x_i,  // signed input, InFrac fraction bits
  input  wire [InWidth-InFrac:0] m_i,  // signed integer max (InWidth-InFrac+1 bits)
  output wire [15:0]             u_o   // 2^(x-m), Q(1,15)
);
  `include "smx_consts.vh"
  `include "softermax_lut.vh"

  localparam integer UW     = SmxUBits;              // u, Q(1,15)
  localparam integer UShW   = $clog2(UW);            // shifts that keep a bit of u
  localparam integer MWidth = InWidth - InFrac + 1;
  localparam integer TWidth = InWidth + 2;           // holds x - m*2^InFrac
  localparam integer IWidth = TWidth - InFrac;       // integer part of t

  wire [TWidth-1:0] x_ext = {{2{x_i[InWidth-1]}}, x_i};
  wire [TWidth-1:0] m_ext = {m_i[MWidth-1], m_i, {InFrac{1'b0}}};
  wire [TWidth-1:0] t     = x_ext - m_ext;
  // floor(t) is the upper bits in two's complement; the shift is its negation.
  wire [IWidth-1:0] shift = {IWidth{1'b0}} - t[TWidth-1:InFrac];
  wire [1:0]        seg   = t[InFrac-1:InFrac-2];
  wire [UW-1:0]     lpw;

  generate
    if (InFrac == 2) begin : gen_lut_only
      assign lpw = smx_pow_c(seg);
    end else begin : gen_lpw
      localparam integer RemW = InFrac - 2;
      wire [RemW-1:0]    rem  = t[RemW-1:0];
      wire [RemW+UW-1:0] prod = smx_pow_m(seg) * rem;
      // c + m*rem never exceeds 2^16 - 1 (see the LUT generator), so 16 bits hold the sum.
      assign lpw = smx_pow_c(seg) + prod[RemW+UW-1:RemW];
    end
  endgenerate

  // 2^-16 and smaller truncate to 0 in Q(1,15). Compared at 32 bits: IWidth can be as narrow
  // as 4 (InFrac = InWidth - 2), where a 16 of IWidth bits would wrap to 0.
  wire [31:0] shift32   = {{(32 - IWidth){1'b0}}, shift};
  wire        big_shift = (shift32 >= UW);
  assign u_o = big_shift ? {UW{1'b0}} : (lpw >> shift[UShW-1:0]);
endmodule
`default_nettype wire
