////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_pend.v
//
// Purpose:   Read responses still to come, counted per buffer bank, for a load unit whose
//            requests have all been issued (busy low) while their data are still in flight: the
//            issue logic keeps other units off a bank until its count is 0. inc_i counts a
//            request for bank inc_bank_i (one-hot), dec_i a response for dec_bank_i.
//
// Parameters:
//   Banks   banks counted
//   Max     responses in flight at most (the load unit's tags)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_pend #(
  parameter integer Banks = 6,
  parameter integer Max   = 128
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             inc_i,
  input  wire [Banks-1:0] inc_bank_i,
  input  wire             dec_i,
  input  wire [Banks-1:0] dec_bank_i,
  output wire [Banks-1:0] pend_o
);

  localparam integer CntW = $clog2(Max + 1);

  genvar b;
  generate
    for (b = 0; b < Banks; b = b + 1) begin : gen_bank
      reg [CntW-1:0] cnt_q;
      wire inc = inc_i && inc_bank_i[b];
      wire dec = dec_i && dec_bank_i[b];
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)          cnt_q <= {CntW{1'b0}};
        else if (inc && !dec) cnt_q <= cnt_q + 1'b1;
        else if (dec && !inc) cnt_q <= cnt_q - 1'b1;
      end
      assign pend_o[b] = (cnt_q != {CntW{1'b0}});
    end
  endgenerate

endmodule

`default_nettype wire
