// gnn_bank.vh -- the bank checks of a double-buffered memory of 2 x depth lines (bank = line /
// depth), shared by the decoders of both engines (gnn_dec, gnn_gdec). Included inside a module.
//   gnn_in_bank(first, lines, depth): [first, first + lines) (lines >= 1) lies inside one bank
//   gnn_bank_of(first, depth):        the bank of line `first` (first < 2 x depth)
  function automatic gnn_in_bank(input [15:0] first, input [33:0] lines, input integer depth);
    reg [33:0] f, last, dep;
    reg [31:0] d32;
    begin
      f           = {18'd0, first};
      d32         = depth;
      dep         = {2'b00, d32};
      last        = f + lines - 34'd1;
      gnn_in_bank = (last < (dep << 1)) && ((f < dep) == (last < dep));
    end
  endfunction
  function automatic gnn_bank_of(input [15:0] first, input integer depth);
    reg [31:0] d32;
    begin
      d32         = depth;
      gnn_bank_of = {16'd0, first} >= d32;
    end
  endfunction
