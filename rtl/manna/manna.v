////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  manna.v
//
// Purpose:   MANNA: Tiles DiffMem tiles (mna_tile) joined by an H-tree for reduce and broadcast,
//            with a host port standing in for the controller tile (docs/manna.md).
//              H-tree   tile t > 0 hangs below t with its lowest set bit cleared, at the level of
//                       that bit; each link is a pair of 2-deep FIFOs (E words + last), one up
//                       (reduce) and one down (broadcast), flushed by START;
//              fences   a collective starts when every tile has arrived and ends when every tile
//                       has done its part (the AND of the tiles' arrive / part signals);
//              errors   a tile stopped with an error, or collectives of two kinds, abort every
//                       collective (COLL); when some tiles wait at a collective while every other
//                       tile has stopped, a watchdog stops the waiting tiles after FenceTimeout
//                       cycles (TIMEOUT);
//              host     one request at a time, one response each, in order (valid/ready):
//                       WRITE, READ, START, STATUS (docs/manna.md, "Host port").
//
// Parameters:
//   Tiles (1, 2, 4, 8, 16), Emacs, MbLines, MsLines, VbLines, VsLines, ImemDepth, RfRegs,
//   Transpose, EmacOps, FenceTimeout (docs/manna.md, "Parameters")
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module manna #(
  parameter integer Tiles        = 2,
  parameter integer Emacs        = 4,
  parameter integer MbLines      = 64,
  parameter integer MsLines      = 32,
  parameter integer VbLines      = 32,
  parameter integer VsLines      = 16,
  parameter integer ImemDepth    = 256,
  parameter integer RfRegs       = 8,
  parameter integer Transpose    = 1,
  parameter integer EmacOps      = 1,
  parameter integer FenceTimeout = 4096
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // host requests
  input  wire        req_valid_i,
  output wire        req_ready_o,
  input  wire [1:0]  req_op_i,
  input  wire        req_bcast_i,
  input  wire [3:0]  req_tile_i,
  input  wire [2:0]  req_space_i,
  input  wire [19:0] req_addr_i,
  input  wire [63:0] req_data_i,
  // host responses
  output wire        rsp_valid_o,
  input  wire        rsp_ready_i,
  output wire [1:0]  rsp_err_o,
  output wire [63:0] rsp_data_o,
  // every tile stopped (for an interrupt)
  output wire        idle_o
);

  localparam integer DW = Emacs * 32 + 1;
  localparam integer L  = (Tiles > 1) ? $clog2(Tiles) : 0;
  localparam integer Lv = (L > 0) ? L : 1;

  // ---------------------------------------------------------------- parameter checks
  generate
    if (Tiles != 1 && Tiles != 2 && Tiles != 4 && Tiles != 8 && Tiles != 16) begin : gen_ck_t
      `CC_PARAM_FAIL(manna__Tiles_must_be_1_2_4_8_or_16)
    end
    if (Emacs < 2 || Emacs > 32 || (Emacs & (Emacs - 1)) != 0) begin : gen_ck_e
      `CC_PARAM_FAIL(manna__Emacs_must_be_a_power_of_two_2_to_32)
    end
    if (MsLines < 2 || (MsLines & (MsLines - 1)) != 0 || VsLines < 2 ||
        (VsLines & (VsLines - 1)) != 0) begin : gen_ck_sp
      `CC_PARAM_FAIL(manna__MsLines_and_VsLines_must_be_powers_of_two_at_least_2)
    end
    if (MbLines < 2 || (MbLines & (MbLines - 1)) != 0 || VbLines < 2 ||
        (VbLines & (VbLines - 1)) != 0) begin : gen_ck_bf
      `CC_PARAM_FAIL(manna__MbLines_and_VbLines_must_be_powers_of_two_at_least_2)
    end
    if (RfRegs < 2 || RfRegs > 16) begin : gen_ck_rf
      `CC_PARAM_FAIL(manna__RfRegs_must_be_2_to_16)
    end
    if (ImemDepth < 2 || ImemDepth > 65536) begin : gen_ck_im
      `CC_PARAM_FAIL(manna__ImemDepth_must_be_2_to_65536)
    end
    if (MbLines * Emacs > (1 << 20) || VbLines * Emacs > (1 << 20)) begin : gen_ck_host
      `CC_PARAM_FAIL(manna__memories_must_fit_the_20_bit_host_word_address)
    end
  endgenerate

  // ---------------------------------------------------------------- tiles and links
  wire [Tiles-1:0]    t_running, t_arrive, t_kind, t_part, t_progress;
  wire [Tiles*4-1:0]  t_status;
  wire [Tiles*16-1:0] t_count;
  wire [Tiles*16-1:0] t_pc;
  wire [Tiles*32-1:0] t_insns;
  wire [Tiles*64-1:0] t_rdata;
  // per tile: up links and, per level, down links
  wire [Tiles-1:0]       up_tx_v, up_tx_r, up_rx_v, up_rx_r;
  wire [Tiles*DW-1:0]    up_tx_d, up_rx_d;
  wire [Tiles*Lv-1:0]    dn_tx_v, dn_tx_r, dn_rx_v, dn_rx_r;
  wire [Tiles*DW-1:0]    dn_tx_d;
  wire [Tiles*Lv*DW-1:0] dn_rx_d;

  reg         h_we_q, h_re_q, h_start_q;
  reg [Tiles-1:0] h_sel_q;
  reg [2:0]   h_space_q;
  reg [19:0]  h_addr_q;
  reg [63:0]  h_data_q;
  wire        all_arrive = &t_arrive;
  wire        all_part   = &t_part;
  // every tile at a collective: of two kinds, or with different line counts -> COLL everywhere
  reg         cnt_mix;
  always @* begin
    cnt_mix = 1'b0;
    for (i = 1; i < Tiles; i = i + 1)
      if (t_count[i*16 +: 16] != t_count[15:0]) cnt_mix = 1'b1;
  end
  wire        kind_mix   = all_arrive && ((|(t_arrive & t_kind)) && (|(t_arrive & ~t_kind)) ||
                                          cnt_mix);
  reg         err_any;
  reg         timeout_q;
  integer     i;
  always @* begin
    err_any = 1'b0;
    for (i = 0; i < Tiles; i = i + 1)
      if (t_status[i*4 +: 4] >= 4'd2 && t_status[i*4 +: 4] <= 4'd8) err_any = 1'b1;
  end

  genvar gt, gl;
  generate
    for (gt = 0; gt < Tiles; gt = gt + 1) begin : gen_tile
      mna_tile #(
        .Emacs(Emacs), .MbLines(MbLines), .MsLines(MsLines), .VbLines(VbLines),
        .VsLines(VsLines), .ImemDepth(ImemDepth), .RfRegs(RfRegs), .Transpose(Transpose),
        .EmacOps(EmacOps), .Tiles(Tiles), .Lvls(Lv)
      ) u_tile (
        .clk_i(clk_i), .rst_ni(rst_ni), .tile_id_i(gt[3:0]),
        .h_we_i(h_we_q && h_sel_q[gt]), .h_re_i(h_re_q && h_sel_q[gt]),
        .h_space_i(h_space_q), .h_addr_i(h_addr_q), .h_wdata_i(h_data_q),
        .h_rdata_o(t_rdata[gt*64 +: 64]),
        .start_i(h_start_q), .start_pc_i(h_addr_q[15:0]),
        .status_o(t_status[gt*4 +: 4]), .stop_pc_o(t_pc[gt*16 +: 16]),
        .insns_o(t_insns[gt*32 +: 32]), .running_o(t_running[gt]),
        .arrive_o(t_arrive[gt]), .kind_o(t_kind[gt]), .count_o(t_count[gt*16 +: 16]), .all_arrive_i(all_arrive),
        .part_o(t_part[gt]), .all_part_i(all_part), .abort_i(err_any || kind_mix),
        .timeout_i(timeout_q), .progress_o(t_progress[gt]),
        .up_tx_valid_o(up_tx_v[gt]), .up_tx_ready_i(up_tx_r[gt]),
        .up_tx_data_o(up_tx_d[gt*DW +: DW]),
        .up_rx_valid_i(up_rx_v[gt]), .up_rx_ready_o(up_rx_r[gt]),
        .up_rx_data_i(up_rx_d[gt*DW +: DW]),
        .dn_tx_valid_o(dn_tx_v[gt*Lv +: Lv]), .dn_tx_ready_i(dn_tx_r[gt*Lv +: Lv]),
        .dn_tx_data_o(dn_tx_d[gt*DW +: DW]),
        .dn_rx_valid_i(dn_rx_v[gt*Lv +: Lv]), .dn_rx_ready_o(dn_rx_r[gt*Lv +: Lv]),
        .dn_rx_data_i(dn_rx_d[gt*Lv*DW +: Lv*DW])
      );
      // the links below this tile: child gt + 2^l at level l
      for (gl = 0; gl < Lv; gl = gl + 1) begin : gen_child
        if (L > 0 && (gt % (2 << gl)) == 0 && gt + (1 << gl) < Tiles) begin : gen_link
          localparam integer C = gt + (1 << gl);
          wire [1:0] unused_cnt_up, unused_cnt_dn;   // occupancy: not needed
          cc_fifo #(.Width(DW), .Depth(2)) u_up (
            .clk_i(clk_i), .rst_ni(rst_ni), .clr_i(h_start_q),
            .in_valid_i(up_tx_v[C]), .in_ready_o(up_tx_r[C]), .in_data_i(up_tx_d[C*DW +: DW]),
            .out_valid_o(dn_rx_v[gt*Lv + gl]), .out_ready_i(dn_rx_r[gt*Lv + gl]),
            .out_data_o(dn_rx_d[(gt*Lv + gl)*DW +: DW]), .count_o(unused_cnt_up)
          );
          cc_fifo #(.Width(DW), .Depth(2)) u_dn (
            .clk_i(clk_i), .rst_ni(rst_ni), .clr_i(h_start_q),
            .in_valid_i(dn_tx_v[gt*Lv + gl]), .in_ready_o(dn_tx_r[gt*Lv + gl]),
            .in_data_i(dn_tx_d[gt*DW +: DW]),
            .out_valid_o(up_rx_v[C]), .out_ready_i(up_rx_r[C]), .out_data_o(up_rx_d[C*DW +: DW]),
            .count_o(unused_cnt_dn)
          );
        end else begin : gen_nolink
          assign dn_rx_v[gt*Lv + gl] = 1'b0;
          assign dn_rx_d[(gt*Lv + gl)*DW +: DW] = {DW{1'b0}};
          assign dn_tx_r[gt*Lv + gl] = 1'b0;
        end
      end
    end
  endgenerate
  // tile 0 has no parent
  assign up_tx_r[0] = 1'b0;
  assign up_rx_v[0] = 1'b0;
  assign up_rx_d[DW-1:0] = {DW{1'b0}};

  // ---------------------------------------------------------------- fence watchdog
  // counts while some tiles wait to enter a collective and every other tile has stopped
  reg [31:0] wd_q;
  reg        wd_cond;
  always @* begin
    wd_cond = (|t_arrive) && !all_arrive;
    for (i = 0; i < Tiles; i = i + 1)
      if (!t_arrive[i] && t_running[i]) wd_cond = 1'b0;
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wd_q <= 32'd0;
      timeout_q <= 1'b0;
    end else begin
      timeout_q <= 1'b0;
      if (!wd_cond || h_start_q) begin
        wd_q <= 32'd0;
      end else if (wd_q + 32'd1 >= FenceTimeout) begin
        wd_q <= 32'd0;
        timeout_q <= 1'b1;
      end else begin
        wd_q <= wd_q + 32'd1;
      end
    end
  end

  // ---------------------------------------------------------------- host port
  localparam [1:0] OpWrite = 2'd0, OpRead = 2'd1, OpStart = 2'd2, OpStatus = 2'd3;
  localparam [1:0] HIdle = 2'd0, HExec = 2'd1, HRead = 2'd2, HRsp = 2'd3;
  reg [1:0]  hs_q;
  reg [1:0]  op_q;
  reg        bc_q;
  reg [3:0]  tile_q;
  reg [1:0]  rsp_err_q;
  reg [63:0] rsp_data_q;

  localparam [31:0] WImem = ImemDepth, WMb = MbLines * Emacs, WMs = MsLines * Emacs,
                    WVb = VbLines * Emacs, WVs = VsLines * Emacs;
  function [31:0] space_words(input [2:0] s);
    case (s)
      3'd0: space_words = WImem;
      3'd1: space_words = WMb;
      3'd2: space_words = WMs;
      3'd3: space_words = WVb;
      3'd4: space_words = WVs;
      3'd5: space_words = 32'd16;
      default: space_words = 32'd0;
    endcase
  endfunction
  // the selected tile's signals (a tile number >= Tiles selects nothing: caught as BAD)
  reg        sel_running;
  reg [63:0] sel_status;
  reg [63:0] sel_rdata;
  always @* begin
    sel_running = 1'b0;
    sel_status = 64'd0;
    sel_rdata = 64'd0;
    for (i = 0; i < Tiles; i = i + 1) begin
      if (req_tile_i == i[3:0]) sel_running = t_running[i];
      if (tile_q == i[3:0]) begin
        sel_status = {t_insns[i*32 +: 32], t_pc[i*16 +: 16], 12'd0, t_status[i*4 +: 4]};
        sel_rdata = t_rdata[i*64 +: 64];
      end
    end
  end

  wire        req_take = req_valid_i && (hs_q == HIdle);
  wire        any_run  = |t_running;
  localparam [4:0] NTiles = Tiles[4:0];
  wire        tile_ok  = {1'b0, req_tile_i} < NTiles;
  wire        mem_op   = (req_op_i == OpWrite) || (req_op_i == OpRead);
  // bcast counts for WRITE only (READ, STATUS and START ignore it)
  wire        bc_wr = req_bcast_i && req_op_i == OpWrite;
  wire        bad = (mem_op && ({12'd0, req_addr_i} >= space_words(req_space_i))) ||
                    (!bc_wr && req_op_i != OpStart && !tile_ok) ||
                    (req_op_i == OpStart && req_addr_i > 20'hFFFF);
  wire        busy = (mem_op && (bc_wr ? any_run : sel_running)) ||
                     (req_op_i == OpStart && any_run);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hs_q <= HIdle; op_q <= 2'd0; bc_q <= 1'b0; tile_q <= 4'd0; rsp_err_q <= 2'd0;
      rsp_data_q <= 64'd0; h_we_q <= 1'b0; h_re_q <= 1'b0; h_start_q <= 1'b0;
      h_sel_q <= {Tiles{1'b0}}; h_space_q <= 3'd0; h_addr_q <= 20'd0; h_data_q <= 64'd0;
    end else begin
      h_we_q <= 1'b0;
      h_re_q <= 1'b0;
      h_start_q <= 1'b0;
      case (hs_q)
        HIdle: if (req_take) begin
          op_q <= req_op_i; bc_q <= bc_wr; tile_q <= req_tile_i;
          h_space_q <= req_space_i; h_addr_q <= req_addr_i; h_data_q <= req_data_i;
          rsp_data_q <= 64'd0;
          if (bad) begin
            rsp_err_q <= 2'd1;
            hs_q <= HRsp;
          end else if (busy) begin
            rsp_err_q <= 2'd2;
            hs_q <= HRsp;
          end else begin
            rsp_err_q <= 2'd0;
            for (i = 0; i < Tiles; i = i + 1)
              h_sel_q[i] <= bc_wr || (req_tile_i == i[3:0]);
            case (req_op_i)
              OpWrite: begin h_we_q <= 1'b1; hs_q <= HRsp; end
              OpRead:  begin h_re_q <= 1'b1; hs_q <= HExec; end
              OpStart: begin h_start_q <= 1'b1; hs_q <= HRsp; end
              OpStatus: hs_q <= HExec;     // the tile's registers next cycle
              default: hs_q <= HExec;
            endcase
          end
        end
        HExec: begin
          if (op_q == OpRead) begin
            hs_q <= HRead;
          end else begin
            rsp_data_q <= sel_status;
            hs_q <= HRsp;
          end
        end
        HRead: begin
          rsp_data_q <= sel_rdata;
          hs_q <= HRsp;
        end
        default: if (rsp_ready_i) hs_q <= HIdle;   // HRsp
      endcase
    end
  end

  assign req_ready_o = (hs_q == HIdle);
  assign rsp_valid_o = (hs_q == HRsp);
  assign rsp_err_o   = rsp_err_q;
  assign rsp_data_o  = rsp_data_q;
  assign idle_o      = !any_run;

  // the parent link of tile 0 and the child links of leaves do not exist; the request's
  // bcast flag is decided at acceptance; progress is for a future watchdog refinement
  wire unused_links = ^{up_tx_d, dn_tx_d, t_progress, bc_q, up_tx_v, up_rx_r, dn_tx_v, dn_rx_r};

endmodule
