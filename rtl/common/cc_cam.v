////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_cam.v
//
// Purpose:   Small content-addressable memory in flops (TLB tags, merge buffers, scoreboards).
//            Entries are written by index; a lookup compares lookup_key_i against every valid
//            entry in parallel, combinationally, and reports all matches and the lowest one.
//
//            Timing: the lookup sees the entries as stored at the last edge; a write or flush
//            in the current cycle becomes visible to lookups in the next cycle.
//            Write port: when wr_en_i is high, entry wr_idx_i gets key wr_key_i and valid bit
//            wr_valid_i (wr_valid_i=0 invalidates that entry; its key is written anyway and is
//            ignored). wr_idx_i >= Entries (non-power-of-two Entries) writes nothing.
//            flush_i invalidates every entry and wins over a write in the same cycle.
//            Lookup: hit_onehot_o has a bit per matching valid entry (several entries may hold
//            the same key; the CAM does not prevent it), hit_o = |hit_onehot_o, hit_idx_o = the
//            lowest matching index (0 when there is no hit). Keys of invalid entries never match.
//            Reset invalidates every entry; keys have no reset.
//
// Parameters:
//   KeyWidth   bits per key (>= 1)
//   Entries    number of entries (>= 1, any value); indices are $clog2(Entries) bits, at least 1
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module cc_cam #(
  parameter integer KeyWidth = 16,
  parameter integer Entries  = 8
) (
  input  wire                                             clk_i,
  input  wire                                             rst_ni,
  input  wire                                             flush_i,
  input  wire                                             wr_en_i,
  input  wire [((Entries > 1) ? $clog2(Entries) : 1)-1:0] wr_idx_i,
  input  wire [KeyWidth-1:0]                              wr_key_i,
  input  wire                                             wr_valid_i,
  input  wire [KeyWidth-1:0]                              lookup_key_i,
  output wire                                             hit_o,
  output reg  [((Entries > 1) ? $clog2(Entries) : 1)-1:0] hit_idx_o,
  output wire [Entries-1:0]                               hit_onehot_o,
  output wire [Entries-1:0]                               valid_o
);

  localparam integer IdxWidth = (Entries > 1) ? $clog2(Entries) : 1;

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (KeyWidth < 1) begin : gen_check_key_width
      `CC_PARAM_FAIL(cc_cam__KeyWidth_must_be_at_least_1)
    end
    if (Entries < 1) begin : gen_check_entries
      `CC_PARAM_FAIL(cc_cam__Entries_must_be_at_least_1)
    end
  endgenerate

  reg [Entries-1:0] valid_q;

  genvar g;
  generate
    for (g = 0; g < Entries; g = g + 1) begin : gen_entry
      localparam integer        EntryInt = g;
      localparam [IdxWidth-1:0] EntryIdx = EntryInt[IdxWidth-1:0];

      reg [KeyWidth-1:0] key_q;
      wire               sel = wr_en_i && (wr_idx_i == EntryIdx);

      // Key flops have no reset: the valid bit says whether the key means anything.
      always @(posedge clk_i) begin
        if (sel) key_q <= wr_key_i;
      end

      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)      valid_q[g] <= 1'b0;
        else if (flush_i) valid_q[g] <= 1'b0;
        else if (sel)     valid_q[g] <= wr_valid_i;
      end

      assign hit_onehot_o[g] = valid_q[g] && (key_q == lookup_key_i);
    end
  endgenerate

  assign hit_o   = |hit_onehot_o;
  assign valid_o = valid_q;

  // Lowest matching index: x & -x keeps only the lowest set bit, then the one-hot is encoded
  // by OR-ing indices, which avoids an Entries-deep priority mux chain.
  wire [Entries-1:0] hit_lowest = hit_onehot_o & (-hit_onehot_o);

  integer i;
  always @* begin
    hit_idx_o = {IdxWidth{1'b0}};
    for (i = 0; i < Entries; i = i + 1) begin
      if (hit_lowest[i]) hit_idx_o = hit_idx_o | i[IdxWidth-1:0];
    end
  end

endmodule

`default_nettype wire
