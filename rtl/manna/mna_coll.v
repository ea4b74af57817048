////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_coll.v
//
// Purpose:   The H-tree router side of a MANNA tile: executes `reduce` and `bcast` (docs/manna.md,
//            "Collectives") over this tile's links, one Vector-Scratchpad line per cycle.
//              entry   the tile arrives (arrive_o) and waits until every tile has arrived
//                      (all_arrive_i): a collective starts in all tiles together;
//              reduce  for l = 0, 1, ...: if bit l of TileId is set, send lines A..A+n-1 to the
//                      parent (up_tx) and stop; else, if the child TileId + 2^l exists, receive
//                      its lines (dn_rx[l]) and add them into the own lines (own + received);
//              bcast   a tile other than 0 receives the lines from its parent (up_rx) into its
//                      own; then it sends them to its children, highest level first (dn_tx[l]);
//              exit    the tile reports its part done (part_o) and waits until every tile has
//                      (all_part_i), so a collective ends in all tiles together.
//            Every line beat carries a last flag: a receiver whose count disagrees stops with
//            COLL (mismatch_o). abort_i (any tile stopped with an error, or collectives of two
//            kinds) stops a waiting or working collective with COLL; timeout_i (the top's fence
//            watchdog) with TIMEOUT.
//
// Parameters:
//   Emacs (E), VsAW, Tiles (1, 2, 4, 8, 16), Lvls (= lg Tiles, at least 1 for the ports); the
//   tile's number is an input (tile_id_i) so that every tile is the same module
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module mna_coll #(
  parameter integer Emacs     = 2,
  parameter integer VsAW   = 4,
  parameter integer Tiles  = 2,
  parameter integer Lvls   = 1
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  input  wire [3:0]             tile_id_i,      // this tile's number (a constant)
  input  wire                   clr_i,          // START: forget any collective
  input  wire                   start_i,
  input  wire                   bcast_i,        // 0 reduce, 1 bcast
  input  wire [31:0]            line_i,
  input  wire [15:0]            n_i,
  output wire                   done_o,
  output wire [3:0]             err_o,          // with done_o: 0, COLL or TIMEOUT
  // barrier and abort (the top)
  output wire                   arrive_o,
  output wire                   kind_o,         // with arrive_o: 1 bcast
  output wire [15:0]            count_o,        // with arrive_o: the line count
  input  wire                   all_arrive_i,
  output wire                   part_o,
  input  wire                   all_part_i,
  input  wire                   abort_i,
  input  wire                   timeout_i,
  output wire                   progress_o,     // a line moved this cycle
  // links, E words + last
  output wire                   up_tx_valid_o,
  input  wire                   up_tx_ready_i,
  output wire [Emacs*32:0]      up_tx_data_o,
  input  wire                   up_rx_valid_i,
  output wire                   up_rx_ready_o,
  input  wire [Emacs*32:0]      up_rx_data_i,
  output wire [Lvls-1:0]        dn_tx_valid_o,
  input  wire [Lvls-1:0]        dn_tx_ready_i,
  output wire [Emacs*32:0]      dn_tx_data_o,   // the same data to every child; valid per level
  input  wire [Lvls-1:0]        dn_rx_valid_i,
  output wire [Lvls-1:0]        dn_rx_ready_o,
  input  wire [Lvls*(Emacs*32+1)-1:0] dn_rx_data_i,
  // Vector-Scratchpad port B
  output wire [Emacs-1:0]       vs_re_o,
  output wire [Emacs*VsAW-1:0]  vs_raddr_o,
  input  wire [Emacs*32-1:0]    vs_rdata_i,
  output wire [Emacs-1:0]       vs_we_o,
  output wire [Emacs*VsAW-1:0]  vs_waddr_o,
  output wire [Emacs*32-1:0]    vs_wdata_o
);

  localparam integer E  = Emacs;
  localparam integer DW = Emacs * 32 + 1;
  localparam integer L  = (Tiles > 1) ? $clog2(Tiles) : 0;
  wire [4:0] Tid = {1'b0, tile_id_i};

  localparam [2:0] SIdle = 3'd0, SArrive = 3'd1, SLevel = 3'd2, SRecv = 3'd3, SSend = 3'd4,
                   SPart = 3'd5;

  reg [2:0]  st_q;
  reg        bc_q;
  reg [31:0] line_q;
  reg [15:0] n_q;
  reg [4:0]  lvl_q;             // current level
  reg [15:0] k_q;               // lines received / reads issued
  reg [15:0] sent_q;            // lines sent
  reg        rv_q;              // a read was issued last cycle (send: its data is on vs_rdata_i)
  reg        wr_q;              // reduce receive: add line k_q-1 (read last cycle)
  reg [E*32-1:0] rx_q;          // reduce receive: the received words of that line
  reg [15:0] wline_q;
  reg        done_q;
  reg [3:0]  err_q;

  // the level's role
  wire [4:0]  lvl_bit = 5'd1 << lvl_q;
  wire        is_sender_r = (Tid & lvl_bit) != 5'd0;                       // reduce: send up
  wire [5:0]  child = {1'b0, Tid} + {1'b0, lvl_bit};
  localparam [5:0] NT6 = Tiles[5:0];
  wire        has_child = ((Tid & (lvl_bit - 5'd1)) == 5'd0) && !is_sender_r &&
                          (child < NT6);
  // bcast: the levels below the lowest set bit of TileId (tile 0: all), highest first
  wire [4:0]  low_lvl;          // index of the lowest set bit (L for tile 0)
  assign low_lvl = (Tid == 5'd0) ? L[4:0] : (Tid[0] ? 5'd0 : Tid[1] ? 5'd1 : Tid[2] ? 5'd2 :
                   Tid[3] ? 5'd3 : 5'd4);

  wire [3:0]  lsel = lvl_q[3:0];
  // the child link of the current level (levels >= Lvls have none)
  reg          dn_v;
  reg [DW-1:0] dn_d;
  integer q;
  always @* begin
    dn_v = 1'b0;
    dn_d = {DW{1'b0}};
    for (q = 0; q < Lvls; q = q + 1) begin
      if ({28'd0, lsel} == q) begin
        dn_v = dn_rx_valid_i[q];
        dn_d = dn_rx_data_i[q*DW +: DW];
      end
    end
  end
  wire        rx_valid = bc_q ? up_rx_valid_i : dn_v;
  wire [DW-1:0] rx_data = bc_q ? up_rx_data_i : dn_d;
  wire        rx_last_ok = rx_data[DW-1] == (k_q + 16'd1 == n_q);

  // receive: accept a beat when it is there (reduce: also read the own line)
  wire recv_take = (st_q == SRecv) && rx_valid && k_q < n_q;
  // send: the data of the read issued last cycle is offered; the next read is issued when the
  // offer is taken (or nothing is offered)
  wire tx_valid = (st_q == SSend) && rv_q;
  reg  dn_r;
  integer q2;
  always @* begin
    dn_r = 1'b0;
    for (q2 = 0; q2 < Lvls; q2 = q2 + 1) if ({28'd0, lsel} == q2) dn_r = dn_tx_ready_i[q2];
  end
  wire tx_ready = bc_q ? dn_r : up_tx_ready_i;
  wire tx_take  = tx_valid && tx_ready;
  wire send_rd  = (st_q == SSend) && (k_q < n_q) && (!rv_q || tx_take);

  // the add of reduce: own (read last cycle) + received
  wire [E*32-1:0] sum_w;
  genvar gl;
  generate
    for (gl = 0; gl < E; gl = gl + 1) begin : gen_add
      wire       unused_rdy, unused_vld;   // combinational: no handshake, no flags kept
      wire [4:0] unused_flags;
      fp_fma #(.ExpW(8), .ManW(23), .Latency(0)) u_add (
        .clk_i(clk_i), .rst_ni(rst_ni), .in_valid_i(1'b1), .in_ready_o(unused_rdy),
        .a_i(vs_rdata_i[gl*32 +: 32]), .b_i(32'h3F80_0000), .c_i(rx_q[gl*32 +: 32]),
        .rm_i(3'd0), .out_valid_o(unused_vld), .out_ready_i(1'b1), .result_o(sum_w[(gl)*32 +: 32]),
        .flags_o(unused_flags)
      );
    end
  endgenerate

  // scratchpad port
  reg [E-1:0] re, we;
  reg [E*VsAW-1:0] ra, wa;
  reg [E*32-1:0] wd;
  reg [31:0] lr, lw;
  integer j;
  always @* begin
    re = {E{1'b0}}; we = {E{1'b0}}; ra = {E*VsAW{1'b0}}; wa = {E*VsAW{1'b0}};
    wd = {E*32{1'b0}};
    lr = line_q + {16'd0, k_q};
    lw = line_q + {16'd0, (bc_q ? k_q : wline_q)};
    for (j = 0; j < E; j = j + 1) begin
      if ((recv_take && !bc_q) || send_rd) begin
        re[j] = 1'b1;
        ra[j*VsAW +: VsAW] = lr[VsAW-1:0];
      end
      if (recv_take && bc_q) begin
        we[j] = 1'b1;
        wa[j*VsAW +: VsAW] = lw[VsAW-1:0];
        wd[j*32 +: 32] = rx_data[j*32 +: 32];
      end else if (wr_q) begin
        we[j] = 1'b1;
        wa[j*VsAW +: VsAW] = lw[VsAW-1:0];
        wd[j*32 +: 32] = sum_w[(j)*32 +: 32];
      end
    end
  end

  // the next level with work, from level lv up (reduce) or down (bcast)
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SIdle; bc_q <= 1'b0; line_q <= 32'd0; n_q <= 16'd0; lvl_q <= 5'd0;
      k_q <= 16'd0; sent_q <= 16'd0; rv_q <= 1'b0; wr_q <= 1'b0; rx_q <= {E*32{1'b0}};
      wline_q <= 16'd0; done_q <= 1'b0; err_q <= 4'd0;
    end else begin
      done_q <= 1'b0;
      wr_q <= 1'b0;
      if (clr_i) begin
        st_q <= SIdle;
        rv_q <= 1'b0;
      end else if (st_q != SIdle && (abort_i || timeout_i)) begin
        st_q <= SIdle;
        rv_q <= 1'b0;
        done_q <= 1'b1;
        err_q <= abort_i ? 4'd7 : 4'd8;
      end else begin
        case (st_q)
          SIdle: if (start_i) begin
            bc_q <= bcast_i; line_q <= line_i; n_q <= n_i; err_q <= 4'd0;
            st_q <= SArrive;
          end
          SArrive: if (all_arrive_i) begin
            k_q <= 16'd0; sent_q <= 16'd0;
            if (bc_q) begin
              if (Tid == 5'd0) begin
                lvl_q <= L[4:0];
                st_q <= SLevel;
              end else begin
                lvl_q <= low_lvl;
                st_q <= SRecv;        // from the parent
              end
            end else begin
              lvl_q <= 5'd0;
              st_q <= SLevel;
            end
          end
          SLevel: begin
            // pick this level's role
            k_q <= 16'd0; sent_q <= 16'd0;
            if (bc_q) begin
              // sending down: levels low_lvl-1 .. 0 (tile 0: L-1 .. 0)
              if (lvl_q == 5'd0 || n_q == 16'd0) begin
                st_q <= SPart;
              end else begin
                lvl_q <= lvl_q - 5'd1;
                if ({1'b0, Tid} + {1'b0, (5'd1 << (lvl_q - 5'd1))} < NT6) st_q <= SSend;
              end
            end else begin
              if (lvl_q + 5'd1 > L[4:0] || n_q == 16'd0) st_q <= SPart;   // past the top
              else if (is_sender_r) st_q <= SSend;
              else if (has_child) st_q <= SRecv;
              else lvl_q <= lvl_q + 5'd1;
            end
          end
          SRecv: begin
            if (recv_take) begin
              if (!rx_last_ok) begin
                st_q <= SIdle;
                done_q <= 1'b1;
                err_q <= 4'd7;
              end else begin
                k_q <= k_q + 16'd1;
                if (!bc_q) begin
                  wr_q <= 1'b1;
                  wline_q <= k_q;
                  rx_q <= rx_data[E*32-1:0];
                end
              end
            end
            if (k_q == n_q && !wr_q) begin
              // bcast: the parent's lines are in; now the children. reduce: next level
              if (bc_q) begin
                st_q <= SLevel;
              end else begin
                lvl_q <= lvl_q + 5'd1;
                st_q <= SLevel;
              end
            end
          end
          SSend: begin
            if (send_rd) k_q <= k_q + 16'd1;
            if (tx_take) sent_q <= sent_q + 16'd1;
            rv_q <= send_rd || (rv_q && !tx_take);
            if (tx_take && sent_q + 16'd1 == n_q) begin
              rv_q <= 1'b0;
              if (bc_q) st_q <= SLevel;
              else st_q <= SPart;        // a reduce sender leaves after its send
            end
          end
          SPart: if (all_part_i) begin
            st_q <= SIdle;
            done_q <= 1'b1;
            err_q <= 4'd0;
          end
          default: st_q <= SIdle;
        endcase
      end
    end
  end

  wire [DW-1:0] tx_data = {(sent_q + 16'd1 == n_q), vs_rdata_i};
  assign up_tx_valid_o = tx_valid && !bc_q;
  assign up_tx_data_o  = tx_data;
  assign dn_tx_data_o  = tx_data;
  genvar gv;
  generate
    for (gv = 0; gv < Lvls; gv = gv + 1) begin : gen_lvl
      assign dn_tx_valid_o[gv] = tx_valid && bc_q && (lsel == gv);
      assign dn_rx_ready_o[gv] = (st_q == SRecv) && !bc_q && (lsel == gv) && (k_q < n_q);
    end
  endgenerate
  assign up_rx_ready_o = (st_q == SRecv) && bc_q && (k_q < n_q);

  wire unused_coll = ^{lr, lw};   // cut to the scratchpad's address width

  assign done_o     = done_q;
  assign err_o      = err_q;
  assign arrive_o   = (st_q == SArrive);
  assign kind_o     = bc_q;
  assign count_o    = n_q;
  assign part_o     = (st_q == SPart);
  assign progress_o = recv_take || tx_take;
  assign vs_re_o    = re;
  assign vs_raddr_o = ra;
  assign vs_we_o    = we;
  assign vs_waddr_o = wa;
  assign vs_wdata_o = wd;

endmodule
