// smx_consts.vh -- the Softermax block's number-format constants, named as in the C model's
// headers (cmodel/include/softermax.h, softermax_fp16.h; SMX_U_FRAC is SmxUFrac, ...).
// Included inside module bodies; each module uses the ones it needs (rtl/softermax/lint.vlt).

// Softermax (Table 5.1 of the dissertation, docs/softermax.md)
localparam integer SmxMaxVec = 64;  // SMX_MAX_VEC: most lanes
localparam integer SmxUFrac  = 15;  // SMX_U_FRAC:  unnormed u = 2^(x - m) is Q(1,15)
localparam integer SmxUBits  = 16;  // SMX_U_BITS
localparam integer SmxDInt   = 10;  // SMX_D_INT:   power sum d is Q(10, SumFrac)
localparam integer SmxRqFrac = 7;   // SMX_RQ_FRAC: reciprocal mantissa rq is Q(1,7)
localparam integer SmxRqBits = 8;   // SMX_RQ_BITS
localparam integer SmxYFrac  = 7;   // SMX_Y_FRAC:  output y is Q(1,7)
localparam integer SmxYBits  = 8;   // SMX_Y_BITS
// SMX_P_SHIFT: y = round((u >> (m - m_j)) * rq / 2^(SmxPShift - lz)), since 1/d =
// rq / 2^SmxRqFrac * 2^(lz - (SmxDInt - 1)); 24
localparam integer SmxPShift = SmxUFrac + SmxRqFrac + SmxDInt - 1 - SmxYFrac;

// The fp16 baseline: IEEE binary16
localparam integer Smx16Bits    = 16;  // SMX16_BITS
localparam integer Smx16ExpBits = 5;   // SMX16_EXP_BITS
localparam integer Smx16ManBits = 10;  // SMX16_MAN_BITS
localparam [Smx16Bits-1:0] Smx16PosZero = 16'h0000;  // SMX16_POS_ZERO
localparam [Smx16Bits-1:0] Smx16One     = 16'h3C00;  // SMX16_ONE
localparam [Smx16Bits-1:0] Smx16PosInf  = 16'h7C00;  // SMX16_POS_INF
localparam [Smx16Bits-1:0] Smx16NegInf  = 16'hFC00;  // SMX16_NEG_INF
localparam [Smx16Bits-1:0] Smx16Qnan    = 16'h7E00;  // SMX16_QNAN, the canonical quiet NaN
