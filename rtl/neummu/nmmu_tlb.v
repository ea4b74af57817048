////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nmmu_tlb.v
//
// Purpose:   The NeuMMU TLB: a set-associative array of 4 KB translations (tags and data in
//            inferred SRAM, one cc_sram_1r1w per way, valid bits in flops) beside a small fully
//            associative array of 2 MB translations in flops. A lookup looks in both.
//
//            Lookup timing: the SRAMs read the set of rd_vpn_i at every edge; in the next cycle
//            the result for cmp_vpn_i (the VPN read at that edge) is valid: valid bits and 2 MB
//            entries are flops read directly, and a fill written into the set read at the same
//            edge (the SRAM returns the old word) is remembered and turns the lookup into a
//            miss -- a miss only costs a walk, never a wrong translation. The result is only
//            meaningful in that first cycle; the user holds it if it needs it longer.
//
//            Fill: one translation per cycle, always accepted. A 4 KB fill goes into the first
//            invalid way of its set, else into the way named by a round-robin victim counter
//            that advances on every 4 KB fill that finds its set full (replacement: round robin
//            across the whole array). A 2 MB fill takes the first invalid 2 MB entry, else the
//            entry named by its own round-robin counter. Fills do not look for an existing copy
//            of the same page (walks that raced for one page may leave duplicates; the lowest
//            hitting way wins and all copies hold the same translation).
//
//            Invalidate (inv_i): all entries (inv_all_i), or the translations of one VA:
//            every way of the VA's 4 KB set (no tag compare is needed to be safe) and every
//            2 MB entry whose 2 MB page contains the VA. An invalidate wins over a fill in the
//            same cycle.
//
// Parameters:
//   Entries    4 KB entries (power of two, >= Ways)
//   Ways       associativity of the 4 KB array (power of two, divides Entries)
//   Entries2M  2 MB entries (>= 1)
//
//            Address field widths are localparams named after the constants of
//            cmodel/include/neummu.h in UpperCamelCase (NMMU_VPN_BITS = NmmuVpnBits).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nmmu_tlb #(
  parameter integer Entries   = 64,
  parameter integer Ways      = 4,
  parameter integer Entries2M = 8
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // lookup
  input  wire [NmmuVpnBits-1:0] rd_vpn_i,   // VPN whose set is read at this edge (va[47:12])
  input  wire [NmmuVpnBits-1:0] cmp_vpn_i,  // VPN read at the previous edge, compared this cycle
  output wire                   hit_o,
  output wire [NmmuPpnBits-1:0] ppn_o,      // physical page (4 KB) of cmp_vpn_i
  output wire                   w_o,        // effective W / U of the translation
  output wire                   u_o,
  // fill
  input  wire                   fill_i,
  input  wire [NmmuVpnBits-1:0] fill_vpn_i,
  input  wire [NmmuPpnBits-1:0] fill_ppn_i, // 4 KB frame; of a 2 MB page: the 2 MB frame (8:0 zero)
  input  wire                   fill_2m_i,
  input  wire                   fill_w_i,
  input  wire                   fill_u_i,
  // invalidate
  input  wire                   inv_i,
  input  wire                   inv_all_i,
  input  wire [NmmuVpnBits-1:0] inv_vpn_i
);

  // ---------------------------------------------------------------- fields (neummu.h)
  localparam integer NmmuVaBits      = 48;  // virtual address bits
  localparam integer NmmuPaBits      = 52;  // physical address bits
  localparam integer NmmuPageShift   = 12;  // 4 KB page offset bits
  localparam integer NmmuPageShift2m = 21;  // 2 MB page offset bits
  localparam integer NmmuVpnBits     = NmmuVaBits - NmmuPageShift;  // va[47:12]
  localparam integer NmmuPpnBits     = NmmuPaBits - NmmuPageShift;  // pa[51:12]
  // A 2 MB page: its VPN/PPN lose the low Lo2mBits (the L1 index); tag va[47:21], frame pa[51:21].
  localparam integer Lo2mBits        = NmmuPageShift2m - NmmuPageShift;
  localparam integer Tag2mW          = NmmuVaBits - NmmuPageShift2m;
  localparam integer Ppn2mW          = NmmuPaBits - NmmuPageShift2m;

  localparam integer Sets     = Entries / Ways;
  localparam integer SetW     = (Sets > 1) ? $clog2(Sets) : 1;
  localparam integer IdxBits  = (Sets > 1) ? $clog2(Sets) : 0;
  localparam integer WayW     = (Ways > 1) ? $clog2(Ways) : 1;
  localparam integer TagW     = NmmuVpnBits - IdxBits;
  // A 4 KB way's word: {tag, ppn, w, u}, u at bit 0.
  localparam integer WordUBit   = 0;
  localparam integer WordWBit   = 1;
  localparam integer WordPpnLsb = 2;
  localparam integer WordTagLsb = WordPpnLsb + NmmuPpnBits;
  localparam integer WordW      = WordTagLsb + TagW;
  localparam integer E2W      = (Entries2M > 1) ? $clog2(Entries2M) : 1;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (Entries < 1 || (Entries & (Entries - 1)) != 0) begin : gen_check_entries
      `CC_PARAM_FAIL(nmmu_tlb__Entries_must_be_a_power_of_2)
    end
    if (Ways < 1 || (Ways & (Ways - 1)) != 0) begin : gen_check_ways
      `CC_PARAM_FAIL(nmmu_tlb__Ways_must_be_a_power_of_2)
    end
    if (Entries < Ways) begin : gen_check_sets
      `CC_PARAM_FAIL(nmmu_tlb__Entries_must_be_at_least_Ways)
    end
    if (Entries2M < 1) begin : gen_check_entries_2m
      `CC_PARAM_FAIL(nmmu_tlb__Entries2M_must_be_at_least_1)
    end
  endgenerate

  // The set index is the low VPN bits (0 for a single set); the other bits are the tag.
  function [SetW-1:0] set_of(input [SetW-1:0] vpn_low);
    begin
      set_of = (Sets > 1) ? vpn_low : {SetW{1'b0}};
    end
  endfunction

  // ---------------------------------------------------------------- 4 KB array
  reg  [Entries-1:0] valid_q;
  wire [SetW-1:0]    rd_set   = set_of(rd_vpn_i[SetW-1:0]);
  wire [SetW-1:0]    cmp_set  = set_of(cmp_vpn_i[SetW-1:0]);
  wire [SetW-1:0]    fill_set = set_of(fill_vpn_i[SetW-1:0]);
  wire [SetW-1:0]    inv_set  = set_of(inv_vpn_i[SetW-1:0]);
  // rd_vpn_i only selects the set to read.
  wire               unused_rd_tag = ^rd_vpn_i[NmmuVpnBits-1:SetW];
  // With fewer than 512 sets some of inv_vpn_i[8:0] select neither a set nor a 2 MB page.
  wire               unused_inv = ^inv_vpn_i;
  wire [TagW-1:0]    cmp_tag  = cmp_vpn_i[NmmuVpnBits-1 -: TagW];

  // Victim choice for a 4 KB fill: the first invalid way of the set, else the round-robin way.
  reg  [WayW-1:0] rr_q;
  reg  [WayW-1:0] victim;
  wire [31:0]     victim32 = {{(32 - WayW){1'b0}}, victim};
  reg             set_full;
  integer v;
  always @* begin
    victim   = rr_q;
    set_full = 1'b1;
    for (v = Ways - 1; v >= 0; v = v - 1) begin
      if (!valid_q[fill_set * Ways + v]) begin
        victim   = v[WayW-1:0];
        set_full = 1'b0;
      end
    end
  end

  wire fill4_we = fill_i && !fill_2m_i && !inv_i;
  // A fill written into the set read at this same edge: the SRAM output is the old word.
  reg  collide_q;
  wire [WordW-1:0] fill_word = {fill_vpn_i[NmmuVpnBits-1 -: TagW], fill_ppn_i, fill_w_i, fill_u_i};

  wire [Ways-1:0] way_hit;
  wire [Ways*WordW-1:0] way_words;
  genvar g;
  generate
    for (g = 0; g < Ways; g = g + 1) begin : gen_way
      wire [WordW-1:0] rdata;
      cc_sram_1r1w #(.Width(WordW), .Depth(Sets), .ReadFirst(1)) u_sram (
        .clk_i   (clk_i),
        .we_i    (fill4_we && victim == g),
        .waddr_i (fill_set),
        .wdata_i (fill_word),
        .re_i    (1'b1),
        .raddr_i (rd_set),
        .rdata_o (rdata)
      );
      assign way_words[g*WordW +: WordW] = rdata;
      assign way_hit[g]  = valid_q[cmp_set * Ways + g] && rdata[WordW-1 -: TagW] == cmp_tag &&
                           !collide_q;
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) collide_q <= 1'b0;
    else         collide_q <= fill4_we && fill_set == rd_set;
  end

  integer k;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= {Entries{1'b0}};
      rr_q    <= {WayW{1'b0}};
    end else begin
      if (fill4_we) begin
        valid_q[fill_set * Ways + victim32] <= 1'b1;
        if (set_full) rr_q <= (Ways > 1) ? rr_q + 1'b1 : rr_q;
      end
      if (inv_i) begin
        if (inv_all_i) valid_q <= {Entries{1'b0}};
        else begin
          for (k = 0; k < Ways; k = k + 1) valid_q[inv_set * Ways + k] <= 1'b0;
        end
      end
    end
  end

  // Lowest hitting way.
  reg [WordW-1:0] hit4_word;
  reg             hit4;
  integer h;
  always @* begin
    hit4      = 1'b0;
    hit4_word = {WordW{1'b0}};
    for (h = Ways - 1; h >= 0; h = h - 1) begin
      if (way_hit[h]) begin
        hit4      = 1'b1;
        hit4_word = way_words[h*WordW +: WordW];
      end
    end
  end

  // ---------------------------------------------------------------- 2 MB array (flops)
  reg [Entries2M-1:0] v2_q;
  reg [Entries2M*Tag2mW-1:0] tag2_q;    // va[47:21] per entry
  reg [Entries2M*Ppn2mW-1:0] ppn2_q;    // pa[51:21] per entry
  reg [Entries2M*2-1:0]      perm2_q;   // {W,U} per entry
  reg [E2W-1:0]       rr2_q;

  reg [E2W-1:0] victim2;
  reg           full2;
  integer j;
  always @* begin
    victim2 = rr2_q;
    full2   = 1'b1;
    for (j = Entries2M - 1; j >= 0; j = j - 1) begin
      if (!v2_q[j]) begin
        victim2 = j[E2W-1:0];
        full2   = 1'b0;
      end
    end
  end

  wire fill2_we = fill_i && fill_2m_i && !inv_i;
  localparam integer Last2Int = Entries2M - 1;
  localparam [E2W-1:0] Last2 = Last2Int[E2W-1:0];
  integer e;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v2_q  <= {Entries2M{1'b0}};
      rr2_q <= {E2W{1'b0}};
    end else begin
      if (fill2_we) begin
        v2_q[victim2] <= 1'b1;
        if (full2) rr2_q <= (rr2_q == Last2) ? {E2W{1'b0}} : rr2_q + 1'b1;
      end
      if (inv_i) begin
        for (e = 0; e < Entries2M; e = e + 1) begin
          if (inv_all_i || tag2_q[e*Tag2mW +: Tag2mW] == inv_vpn_i[NmmuVpnBits-1:Lo2mBits]) begin
            v2_q[e] <= 1'b0;
          end
        end
      end
    end
  end

  // Tag and data registers need no reset (qualified by v2_q).
  always @(posedge clk_i) begin
    if (fill2_we) begin
      tag2_q[victim2*Tag2mW +: Tag2mW] <= fill_vpn_i[NmmuVpnBits-1:Lo2mBits];
      ppn2_q[victim2*Ppn2mW +: Ppn2mW] <= fill_ppn_i[NmmuPpnBits-1:Lo2mBits];
      perm2_q[victim2*2 +: 2]  <= {fill_w_i, fill_u_i};
    end
  end

  reg              hit2;
  reg [Ppn2mW-1:0] hit2_ppn;
  reg [1:0]        hit2_perm;
  integer m;
  always @* begin
    hit2      = 1'b0;
    hit2_ppn  = {Ppn2mW{1'b0}};
    hit2_perm = 2'b00;
    for (m = Entries2M - 1; m >= 0; m = m - 1) begin
      if (v2_q[m] && tag2_q[m*Tag2mW +: Tag2mW] == cmp_vpn_i[NmmuVpnBits-1:Lo2mBits]) begin
        hit2      = 1'b1;
        hit2_ppn  = ppn2_q[m*Ppn2mW +: Ppn2mW];
        hit2_perm = perm2_q[m*2 +: 2];
      end
    end
  end

  // ---------------------------------------------------------------- result
  wire   unused_hit4_tag = ^hit4_word[WordW-1:WordTagLsb];
  assign hit_o = hit4 || hit2;
  assign ppn_o = hit4 ? hit4_word[WordPpnLsb +: NmmuPpnBits] : {hit2_ppn, cmp_vpn_i[Lo2mBits-1:0]};
  assign w_o   = hit4 ? hit4_word[WordWBit] : hit2_perm[1];
  assign u_o   = hit4 ? hit4_word[WordUBit] : hit2_perm[0];

endmodule

`default_nettype wire
