////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_cc_cam.sv
//
// Purpose:   Formal proof wrapper of cc_cam (docs/formal.md). Every input is free in every cycle
//            (reset too, after the first cycle, which is a reset). A shadow model keeps each
//            entry's valid bit and key as the contract (rtl/common/README.md) says the write
//            port sets them: wr_en_i writes entry wr_idx_i (key always, valid bit = wr_valid_i),
//            an index >= Entries writes nothing, flush_i clears every valid bit and wins over a
//            same-cycle write, reset clears the valid bits; all of it visible after the edge.
//            Properties, for every lookup key (lookup_key_i is free):
//              * p_valid:  valid_o = the model's valid bits;
//              * p_onehot: hit_onehot_o[i] = entry i valid and its key = lookup_key_i
//                (several entries may match; an invalid entry never does);
//              * p_hit:    hit_o = any match;
//              * p_idx:    hit_idx_o = the lowest matching index, 0 without a hit.
//            Helper invariant (left out of the seeded-bug runs): every valid entry's key register
//            holds the model's key.
//
// Parameters:
//   KeyWidth, Entries   the cell's parameters (rtl/common/cc_cam.v)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_cc_cam #(
  parameter integer KeyWidth = 3,
  parameter integer Entries  = 5
) (
  input wire                                             clk_i,
  input wire                                             rst_ni,
  input wire                                             flush_i,
  input wire                                             wr_en_i,
  input wire [((Entries > 1) ? $clog2(Entries) : 1)-1:0] wr_idx_i,
  input wire [KeyWidth-1:0]                              wr_key_i,
  input wire                                             wr_valid_i,
  input wire [KeyWidth-1:0]                              lookup_key_i
);

  localparam integer IdxWidth = (Entries > 1) ? $clog2(Entries) : 1;

  wire                hit;
  wire [IdxWidth-1:0] hit_idx;
  wire [Entries-1:0]  hit_onehot;
  wire [Entries-1:0]  valid;

  cc_cam #(
    .KeyWidth (KeyWidth),
    .Entries  (Entries)
  ) u_dut (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .flush_i      (flush_i),
    .wr_en_i      (wr_en_i),
    .wr_idx_i     (wr_idx_i),
    .wr_key_i     (wr_key_i),
    .wr_valid_i   (wr_valid_i),
    .lookup_key_i (lookup_key_i),
    .hit_o        (hit),
    .hit_idx_o    (hit_idx),
    .hit_onehot_o (hit_onehot),
    .valid_o      (valid)
  );

  // ---------------------------------------------------------------- environment
  // The first cycle is a reset; afterwards reset is free (reset in flight is covered).
  reg f_init_q = 1'b1;
  always @(posedge clk_i) f_init_q <= 1'b0;
  always @* if (f_init_q) assume (!rst_ni);

  // ---------------------------------------------------------------- shadow model
  reg [Entries-1:0]          f_valid_q;
  reg [Entries*KeyWidth-1:0] f_key_q;
  integer f_e;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_valid_q <= {Entries{1'b0}};
    end else begin
      for (f_e = 0; f_e < Entries; f_e = f_e + 1) begin
        if (flush_i)                          f_valid_q[f_e] <= 1'b0;
        else if (wr_en_i && wr_idx_i == f_e)  f_valid_q[f_e] <= wr_valid_i;
      end
    end
  end

  // Keys have no reset (only a valid entry's key means anything).
  always @(posedge clk_i) begin
    for (f_e = 0; f_e < Entries; f_e = f_e + 1) begin
      if (wr_en_i && wr_idx_i == f_e) f_key_q[f_e*KeyWidth +: KeyWidth] <= wr_key_i;
    end
  end

  // Expected lookup: matches, and the lowest one (the loop runs downwards, so the last
  // assignment is the lowest matching index).
  reg [Entries-1:0]  f_match;
  reg [IdxWidth-1:0] f_lowest;
  always @* begin
    f_lowest = {IdxWidth{1'b0}};
    for (f_e = Entries - 1; f_e >= 0; f_e = f_e - 1) begin
      f_match[f_e] = f_valid_q[f_e] && f_key_q[f_e*KeyWidth +: KeyWidth] == lookup_key_i;
      if (f_match[f_e]) f_lowest = f_e;
    end
  end

  // ---------------------------------------------------------------- properties
  always @* begin
    p_valid:  assert (valid == f_valid_q);
    p_onehot: assert (hit_onehot == f_match);
    p_hit:    assert (hit == (|f_match));
    p_idx:    assert (hit_idx == f_lowest);
  end

  // ---------------------------------------------------------------- helper invariant
  // The seeded-bug runs leave it out (FV_NO_HELPERS), so a bug must break a property above.
  // Key register of entry i at f_key[i*KeyWidth +: KeyWidth].
  (* fv_probe = "u_dut.gen_entry[{i}].key_q", fv_count = "Entries", fv_width = "KeyWidth" *)
  wire [Entries*KeyWidth-1:0] f_key;

  reg [Entries-1:0] f_key_differs;
  always @* begin
    for (f_e = 0; f_e < Entries; f_e = f_e + 1) begin
      f_key_differs[f_e] = f_key[f_e*KeyWidth +: KeyWidth] != f_key_q[f_e*KeyWidth +: KeyWidth];
    end
  end

`ifndef FV_NO_HELPERS
  always @* inv_keys: assert ((f_valid_q & f_key_differs) == {Entries{1'b0}});
`endif

  // Reachability: every entry valid, a flush that beats a write of a valid entry, two entries
  // hit at once (when there are two), an out-of-range invalidating write to a full CAM (when
  // the index has spare values).
  always @* begin
    c_all_valid:       cover (rst_ni && valid == {Entries{1'b1}});
    c_flush_and_write: cover (rst_ni && flush_i && wr_en_i && wr_valid_i && wr_idx_i == 0);
  end
  generate
    if (Entries > 1) begin : gen_cover_multi
      always @* c_multi_hit: cover (rst_ni && hit_onehot[0] && hit_onehot[Entries-1]);
    end
    if ((1 << IdxWidth) > Entries) begin : gen_cover_out_of_range
      always @* c_out_of_range: cover (rst_ni && valid == {Entries{1'b1}} && wr_en_i &&
                                       !wr_valid_i && wr_idx_i >= Entries);
    end
  endgenerate

endmodule

`default_nettype wire
