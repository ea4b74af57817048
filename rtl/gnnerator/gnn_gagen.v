////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_gagen.v
//
// Purpose:   Address generator of the Shard Edge Fetch, Shard Feature Fetch and Shard Writeback
//            units (gnn_gld, gnn_gst): the steps of one GLOAD/GSTORE, one memory request each,
//            in the order of gnnerator.h "GRAPH ENGINE":
//              EDGE:  step i < n: DRAM addr + i*stride, P words, EDGE line base + i of every GPE
//              IF/MF: node v < n, line c < CH = ceil(dim/L): DRAM addr + v*stride + c*L,
//                     min(L, dim - c*L) words, GPE v % P, line base + (v/P)*CH + c.
//            Counters only (no multiplier): the next step's values are kept in registers.
//            valid_o while steps remain; step_i (only while valid_o) moves to the next step.
//
// Parameters:
//   Gpes, Lanes   P and L (powers of two)
//   AddrW         DRAM word-address bits
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_gagen #(
  parameter integer Gpes  = 4,
  parameter integer Lanes = 4,
  parameter integer AddrW = 20
) (
  input  wire                     clk_i,
  input  wire                     rst_ni,
  input  wire                     start_i,
  input  wire                     edge_i,     // EDGE mode
  input  wire [15:0]              base_i,
  input  wire [15:0]              n_i,
  input  wire [7:0]               dim_i,
  input  wire [AddrW-1:0]         addr_i,
  input  wire [AddrW-1:0]         stride_i,
  input  wire                     step_i,
  output wire                     valid_o,
  output wire                     last_o,     // the current step is the last one
  output wire [((Gpes > 1) ? $clog2(Gpes) : 1)-1:0] gpe_o,
  output wire [15:0]              line_o,
  output wire [AddrW-1:0]         addr_o,
  output wire [7:0]               words_o
);

  localparam integer GpeW = (Gpes > 1) ? $clog2(Gpes) : 1;
  localparam integer LogL = (Lanes > 1) ? $clog2(Lanes) : 0;
  localparam integer GpesInt = Gpes, LanesInt = Lanes;
  localparam [GpeW-1:0] LastGpe = GpesInt[GpeW-1:0] - 1'b1;
  localparam [7:0]      L8 = LanesInt[7:0];
  localparam [7:0]      P8 = GpesInt[7:0];
  localparam [AddrW-1:0] LAddr = LanesInt[AddrW-1:0];

  reg             busy_q, edge_q;
  reg [15:0]      v_q, n_q, row_q;   // row_q = base + (v/P)*CH
  reg [7:0]       c_q, ch_q, dim_q, rem_q;
  reg [GpeW-1:0]  gpe_q;
  reg [AddrW-1:0] addr_v_q, addr_c_q, stride_q;

  wire [8:0] ch_x = ({1'b0, dim_i} + {1'b0, L8} - 9'd1) >> LogL;
  wire unused_ch = ch_x[8];   // dim < 256: CH < 256
  wire last_c = edge_q || (c_q == ch_q - 8'd1);
  assign last_o = last_c && (v_q == n_q - 16'd1);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      edge_q   <= 1'b0;
      v_q      <= 16'd0;
      n_q      <= 16'd0;
      row_q    <= 16'd0;
      c_q      <= 8'd0;
      ch_q     <= 8'd0;
      dim_q    <= 8'd0;
      rem_q    <= 8'd0;
      gpe_q    <= {GpeW{1'b0}};
      addr_v_q <= {AddrW{1'b0}};
      addr_c_q <= {AddrW{1'b0}};
      stride_q <= {AddrW{1'b0}};
    end else if (start_i) begin
      busy_q   <= 1'b1;
      edge_q   <= edge_i;
      v_q      <= 16'd0;
      n_q      <= n_i;
      row_q    <= base_i;
      c_q      <= 8'd0;
      ch_q     <= ch_x[7:0];
      dim_q    <= dim_i;
      rem_q    <= dim_i;
      gpe_q    <= {GpeW{1'b0}};
      addr_v_q <= addr_i;
      addr_c_q <= addr_i;
      stride_q <= stride_i;
    end else if (step_i && busy_q) begin
      if (last_o) busy_q <= 1'b0;
      if (last_c) begin
        v_q      <= v_q + 16'd1;
        c_q      <= 8'd0;
        rem_q    <= dim_q;
        addr_v_q <= addr_v_q + stride_q;
        addr_c_q <= addr_v_q + stride_q;
        gpe_q    <= (gpe_q == LastGpe) ? {GpeW{1'b0}} : gpe_q + 1'b1;
        if (edge_q)                row_q <= row_q + 16'd1;
        else if (gpe_q == LastGpe) row_q <= row_q + {8'd0, ch_q};
      end else begin
        c_q      <= c_q + 8'd1;
        rem_q    <= rem_q - L8;
        addr_c_q <= addr_c_q + LAddr;
      end
    end
  end

  assign valid_o = busy_q;
  assign gpe_o   = gpe_q;
  assign line_o  = row_q + {8'd0, c_q};
  assign addr_o  = addr_c_q;
  assign words_o = edge_q ? P8 : ((rem_q < L8) ? rem_q : L8);

endmodule

`default_nettype wire
