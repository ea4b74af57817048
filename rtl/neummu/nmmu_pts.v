////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  nmmu_pts.v
//
// Purpose:   Pending translation scoreboard: one fully associative entry per walker, holding the
//            VPN that walker is translating. A lookup returns the match vector against every
//            valid entry (combinational, entries as of the last edge); the request stage ANDs it
//            with the walkers that still have a free merge slot. An entry is written when its
//            walker is allocated and cleared when the walker goes idle or an invalidate arrives
//            (a stale walk takes no merges). Several entries may hold the same VPN (a new walk is
//            started for a VPN whose walker has no free slot).
//
// Parameters:
//   N        entries (= walkers, >= 1)
//
//            NmmuVpnBits is NMMU_VPN_BITS of cmodel/include/neummu.h.
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module nmmu_pts #(
  parameter integer N = 4
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire [NmmuVpnBits-1:0] lk_vpn_i,
  output wire [N-1:0]           match_o,
  input  wire [N-1:0]           set_i,       // walker allocated this cycle (one-hot or zero)
  input  wire [NmmuVpnBits-1:0] set_vpn_i,
  input  wire [N-1:0]           clr_i,       // walker idle
  input  wire                   inv_i        // clear every entry (wins over set_i)
);

  localparam integer NmmuVpnBits = 36;   // va[47:12]

  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (N < 1) begin : gen_check_n
      `CC_PARAM_FAIL(nmmu_pts__N_must_be_at_least_1)
    end
  endgenerate

  reg [N-1:0]             valid_q;
  reg [NmmuVpnBits-1:0]   vpn_q [0:N-1];

  genvar g;
  generate
    for (g = 0; g < N; g = g + 1) begin : gen_entry
      assign match_o[g] = valid_q[g] && vpn_q[g] == lk_vpn_i;
      always @(posedge clk_i) begin
        if (set_i[g]) vpn_q[g] <= set_vpn_i;
      end
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    valid_q <= {N{1'b0}};
    else if (inv_i) valid_q <= {N{1'b0}};
    else            valid_q <= (valid_q & ~clr_i) | set_i;
  end

endmodule

`default_nettype wire
