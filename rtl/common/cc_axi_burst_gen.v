////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_axi_burst_gen.v
//
// Purpose:   Splits a transfer command {address, beats} into AXI4 INCR bursts: at most MaxBurst
//            beats each, none crossing a 4 KB boundary, with at most Outstanding bursts issued
//            and not yet completed. The address side of cc_axi_rd_master and cc_axi_wr_master.
//
//            Contract:
//              * cmd: cmd_addr_i is a byte address aligned to the bus width (DataW/8 bytes);
//                cmd_beats_i >= 1 full-width beats. cmd_ready_o is high when no command is
//                being split (a flop: it never depends on cmd_valid_i). A command with zero
//                beats, or a misaligned address, is the caller's error: the caller checks both
//                (the tops report them as job errors before they reach this cell).
//              * burst: one beat per burst (valid/ready); burst_len_o is AXI's AxLEN (beats - 1);
//                burst_last_o marks the command's final burst. burst_valid_o is low while
//                Outstanding bursts are in flight; it never depends on burst_ready_i.
//              * burst_done_i: one burst completed (last R beat or B response); it may come in
//                the same cycle as a new burst is issued.
//              * busy_o: a command is being split or a burst is in flight.
//
// Parameters:
//   AddrW        address bits (>= 16)
//   DataW        bus data bits, a power of two, 8..1024
//   BeatsW       width of cmd_beats_i (>= 16)
//   MaxBurst     beats per burst, a power of two, 1..256 (AXI4 INCR limit)
//   Outstanding  bursts in flight, 1..255
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"
module cc_axi_burst_gen #(
  parameter integer AddrW       = 32,
  parameter integer DataW       = 64,
  parameter integer BeatsW      = 24,
  parameter integer MaxBurst    = 256,
  parameter integer Outstanding = 4
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              cmd_valid_i,
  output wire              cmd_ready_o,
  input  wire [AddrW-1:0]  cmd_addr_i,
  input  wire [BeatsW-1:0] cmd_beats_i,
  output wire              burst_valid_o,
  input  wire              burst_ready_i,
  output wire [AddrW-1:0]  burst_addr_o,
  output wire [7:0]        burst_len_o,
  output wire              burst_last_o,
  input  wire              burst_done_i,
  output wire              busy_o
);
  // ---------------------------------------------------------------- parameter checks
  // An illegal value stops elaboration with the rule as the message (rtl/common/README.md).
  generate
    if (AddrW < 16) begin : gen_check_addrw
      `CC_PARAM_FAIL(cc_axi_burst_gen__AddrW_must_be_at_least_16)
    end
    if (DataW < 8 || DataW > 1024 || (DataW & (DataW - 1)) != 0) begin : gen_check_dataw
      `CC_PARAM_FAIL(cc_axi_burst_gen__DataW_must_be_a_power_of_two_8_to_1024)
    end
    if (BeatsW < 16) begin : gen_check_beatsw
      `CC_PARAM_FAIL(cc_axi_burst_gen__BeatsW_must_be_at_least_16)
    end
    if (MaxBurst < 1 || MaxBurst > 256 || (MaxBurst & (MaxBurst - 1)) != 0) begin : gen_check_burst
      `CC_PARAM_FAIL(cc_axi_burst_gen__MaxBurst_must_be_a_power_of_two_1_to_256)
    end
    if (Outstanding < 1 || Outstanding > 255) begin : gen_check_outstanding
      `CC_PARAM_FAIL(cc_axi_burst_gen__Outstanding_must_be_1_to_255)
    end
  endgenerate

  localparam integer ByteShift = $clog2(DataW / 8);     // address bits below one beat
  localparam integer PageBeats = 4096 >> ByteShift;     // beats in a 4 KB page (>= 32)
  localparam integer OutW      = $clog2(Outstanding + 1);
  // A burst length in beats (1..256) and the beats to a page end (1..4096) fit in 13 bits;
  // AddrW and BeatsW are at least 16, so every zero-extension below is at least 3 bits wide.
  localparam integer LenW      = 13;
  localparam [LenW-1:0] MaxBurstL  = MaxBurst[LenW-1:0];
  localparam [LenW-1:0] PageBeatsL = PageBeats[LenW-1:0];
  localparam [OutW-1:0] OutMax     = Outstanding[OutW-1:0];

  reg              active_q;
  reg [AddrW-1:0]  addr_q;
  reg [BeatsW-1:0] left_q;      // beats of the command not yet issued
  reg [OutW-1:0]   inflight_q;

  // Beats up to the next 4 KB boundary: the page offset in beats, counted from the page's end.
  wire [LenW-1:0] page_off = {{(LenW - 12 + ByteShift){1'b0}}, addr_q[11:ByteShift]};
  wire [LenW-1:0] to_page  = PageBeatsL - page_off;
  wire [LenW-1:0] cap      = (to_page < MaxBurstL) ? to_page : MaxBurstL;
  // left_q compared against cap without truncating either side
  wire            left_fits = (left_q <= {{(BeatsW - LenW){1'b0}}, cap});
  wire [LenW-1:0] beats    = left_fits ? left_q[LenW-1:0] : cap;

  wire issue = burst_valid_o && burst_ready_i;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q   <= 1'b0;
      inflight_q <= {OutW{1'b0}};
    end else begin
      if (cmd_valid_i && cmd_ready_o) active_q <= 1'b1;
      else if (issue && left_fits)    active_q <= 1'b0;
      if (issue && !burst_done_i)      inflight_q <= inflight_q + 1'b1;
      else if (!issue && burst_done_i) inflight_q <= inflight_q - 1'b1;
    end
  end

  // Datapath registers without reset: active_q says when they hold a command.
  always @(posedge clk_i) begin
    if (cmd_valid_i && cmd_ready_o) begin
      addr_q <= cmd_addr_i;
      left_q <= cmd_beats_i;
    end else if (issue) begin
      addr_q <= addr_q + ({{(AddrW - LenW){1'b0}}, beats} << ByteShift);
      left_q <= left_q - {{(BeatsW - LenW){1'b0}}, beats};
    end
  end

  assign cmd_ready_o   = !active_q;
  assign burst_valid_o = active_q && (inflight_q != OutMax);
  assign burst_addr_o  = addr_q;
  assign burst_len_o   = beats[7:0] - 8'd1;
  assign burst_last_o  = left_fits;
  assign busy_o        = active_q || (inflight_q != {OutW{1'b0}});
endmodule
`default_nettype wire
