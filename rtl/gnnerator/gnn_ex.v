////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_ex.v
//
// Purpose:   The execute unit (EX) of the Dense Engine: the R x C systolic array (gnn_array) with
//            its skew triangles, the fold sequencer of MATMUL in each dataflow, MADD / ACT / COPY,
//            the output path (a row of fp32 adders, the activation, the word mask) and the drain
//            of output-stationary results (DR), which runs on while EX starts the next fold.
//
//            Timing (cycle 0 = the cycle after start_i; t = cycle within a fold; docs/gnnerator.md
//            has the diagrams). SRAM reads take one cycle.
//            OS fold (i, j), F = K + R + C - 2 cycles: IN line i*K + t and WT line j*K + t are
//              read for t < K; PE(r,c) takes k = t at t+1+r+c; the drain reads column c at
//              K + R + c (old OUT value read the cycle before) and writes it one cycle later,
//              overlapping the next fold. The next fold starts at t = F.
//            WS fold (j, f) / IS fold (i, f), 2R + C + cnt + 1 cycles (cnt = M for WS, N for IS):
//              t < R: preload line f*R + R-1-t (WT for WS, IN for IS), shifted down unskewed,
//              latched at t = R; t = R .. R+cnt-1: stream line t-R (IN for WS, WT for IS) and
//              read its partial sums from OUT (or -0 in the first fold without acc); row m leaves
//              the de-skew at 2R + C + m and is written at 2R + C + m + 1.
//            MADD / ACT: line t read for t < n, written at t + 2; COPY: written at t + 1.
//            last_o is high in EX's last cycle (the issue logic may start the next instruction
//            then). DR is "in flight" while a fold's drain has not yet passed its read stage.
//
// Parameters:
//   Rows, Cols   array size R x C
//   Lw           words per buffer line (max(Rows, Cols))
//   OutDepth     lines per OUT bank (to name the banks of the drains in flight)
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_ex #(
  parameter integer Rows = 1,
  parameter integer Cols = 1,
  parameter integer Lw   = 1,
  parameter integer OutDepth = 64
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             start_i,
  input  wire [127:0]     insn_i,
  output wire             busy_o,
  output wire             last_o,
  output wire             dr_inflight_o,
  output wire [1:0]       dr_banks_o,     // OUT banks of the drains in flight
  output wire             dr_busy_o,      // any drain work left (including the last write)
  // IN buffer: read (stream / preload / MADD), write (COPY)
  output reg              in_re_o,
  output reg  [15:0]      in_raddr_o,
  input  wire [Lw*32-1:0] in_rdata_i,
  output wire             in_we_o,
  output wire [15:0]      in_waddr_o,
  output wire [Lw*32-1:0] in_wdata_o,
  // WT buffer read
  output reg              wt_re_o,
  output reg  [15:0]      wt_raddr_o,
  input  wire [Lw*32-1:0] wt_rdata_i,
  // OUT buffer read (partial sums, old values, MADD/ACT/COPY source) and write
  output reg              out_re_o,
  output reg  [15:0]      out_raddr_o,
  input  wire [Lw*32-1:0] out_rdata_i,
  output wire             out_we_o,
  output wire [15:0]      out_waddr_o,
  output wire [Lw*32-1:0] out_wdata_o
);

  localparam [3:0] OpMatmul = 4'd3, OpMadd = 4'd4, OpCopy = 4'd6;  // else ACT
  localparam [1:0] DfOs = 2'd0, DfWs = 2'd1;
  localparam [31:0] NegZero = 32'h8000_0000, QNaN = 32'h7FC0_0000;
  localparam integer RowsInt = Rows, ColsInt = Cols;
  localparam [17:0] R18 = RowsInt[17:0];
  localparam [17:0] C18 = ColsInt[17:0];
  localparam integer ColW = (Cols > 1) ? $clog2(Cols) : 1;

  // ---------------------------------------------------------------- instruction registers
  reg         busy_q;
  reg [3:0]   op_q;
  reg [1:0]   df_q;
  reg         acc_q, act_q;
  reg [15:0]  m_q, k_q, n_q;           // MATMUL M, K, N
  reg [15:0]  ln_q;                    // MADD/ACT/COPY lines
  reg [15:0]  in_q, wt_q, out_q;       // MATMUL bases; MADD src1 = in_q, dst = out_q
  reg [15:0]  src0_q;

  // reserved bits (checked by gnn_dec) and the high bits of sizes that fit in fewer bits
  wire unused_bits = ^{insn_i[127:112], insn_i[15:9], insn_i[7], os_mvalid[17:8],
                       os_nvalid[17:8]};

  wire os     = (df_q == DfOs);
  wire ws     = (df_q == DfWs);
  wire is_mm  = (op_q == OpMatmul);

  wire [17:0] k18 = {2'b00, k_q}, m18 = {2'b00, m_q}, n18 = {2'b00, n_q};

  // ---------------------------------------------------------------- fold state
  reg [17:0] t_q;                       // cycle within the fold (or within MADD/ACT/COPY)
  reg        later_q;                   // not the first inner block (WS/IS: K block > 0)
  reg [15:0] base_a_q;                  // OS: IN fold base; WS/IS: preload base
  reg [15:0] base_b_q;                  // OS: WT fold base; WS/IS: stream base
  reg [15:0] base_o_q;                  // OS: OUT fold base (i*N + j*C); WS/IS: OUT base
  reg [15:0] base_blk_q;                // OS: OUT base of the m-block (i*N)
  reg [17:0] rem_o_q, rem_i_q;          // remaining rows/columns/K of the outer / inner block

  // Outer / inner loops: OS (i over M by R, j over N by C); WS (j over N by C, f over K by R);
  // IS (i over M by C, f over K by R). A block is the last when what remains fits in it.
  wire [17:0] cnt     = ws ? m18 : n18;                  // WS/IS streamed lines
  wire [17:0] fold_last = os ? (k18 + R18 + C18 - 18'd3) : (R18 + R18 + C18 + cnt);
  wire [17:0] ln18    = {2'b00, ln_q};
  wire [17:0] op_last = is_mm ? fold_last : (op_q == OpCopy) ? ln18 : ln18 + 18'd1;

  wire last_inner = rem_i_q <= (os ? C18 : R18);
  wire last_outer = rem_o_q <= ((os) ? R18 : C18);
  wire at_end     = (t_q == op_last);
  wire ex_last    = busy_q && at_end && (!is_mm || (last_inner && last_outer));
  assign busy_o = busy_q;
  assign last_o = ex_last;

  // valid counts of the current fold
  function automatic [17:0] min18(input [17:0] a, input [17:0] b);
    min18 = (a < b) ? a : b;
  endfunction
  wire [17:0] os_mvalid = min18(rem_o_q, R18);        // OS rows of the m-block
  wire [17:0] os_nvalid = min18(rem_i_q, C18);        // OS columns of the n-block
  wire [17:0] kvalid    = min18(rem_i_q, R18);        // WS/IS rows of the k-block
  wire [17:0] wvalid    = min18(rem_o_q, C18);        // WS: N columns, IS: M columns

  wire [15:0] k16 = k_q, n16 = n_q, m16 = m_q;
  wire [15:0] r16 = R18[15:0], c16 = C18[15:0];

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      op_q     <= 4'd0;
      df_q     <= 2'd0;
      acc_q    <= 1'b0;
      act_q    <= 1'b0;
      m_q      <= 16'd0;
      k_q      <= 16'd0;
      n_q      <= 16'd0;
      ln_q     <= 16'd0;
      in_q     <= 16'd0;
      wt_q     <= 16'd0;
      out_q    <= 16'd0;
      src0_q   <= 16'd0;
      t_q      <= 18'd0;
      later_q  <= 1'b0;
      base_a_q <= 16'd0;
      base_b_q <= 16'd0;
      base_o_q <= 16'd0;
      base_blk_q <= 16'd0;
      rem_o_q  <= 18'd0;
      rem_i_q  <= 18'd0;
    end else if (start_i) begin
      busy_q   <= 1'b1;
      op_q     <= insn_i[3:0];
      df_q     <= (insn_i[3:0] == OpMatmul) ? insn_i[5:4] : df_q;
      acc_q    <= insn_i[6];
      act_q    <= insn_i[8];
      m_q      <= insn_i[31:16];
      k_q      <= insn_i[47:32];
      n_q      <= insn_i[63:48];
      ln_q     <= insn_i[31:16];
      in_q     <= insn_i[79:64];
      wt_q     <= insn_i[95:80];
      out_q    <= insn_i[111:96];
      src0_q   <= insn_i[63:48];
      t_q      <= 18'd0;
      later_q  <= 1'b0;
      base_blk_q <= insn_i[111:96];
      case (insn_i[5:4])
        DfOs: begin
          base_a_q <= insn_i[79:64];
          base_b_q <= insn_i[95:80];
          base_o_q <= insn_i[111:96];
          rem_o_q  <= {2'b00, insn_i[31:16]};   // M
          rem_i_q  <= {2'b00, insn_i[63:48]};   // N
        end
        DfWs: begin
          base_a_q <= insn_i[95:80];            // preload WT
          base_b_q <= insn_i[79:64];            // stream IN
          base_o_q <= insn_i[111:96];
          rem_o_q  <= {2'b00, insn_i[63:48]};   // N
          rem_i_q  <= {2'b00, insn_i[47:32]};   // K
        end
        default: begin
          base_a_q <= insn_i[79:64];            // preload IN
          base_b_q <= insn_i[95:80];            // stream WT
          base_o_q <= insn_i[111:96];
          rem_o_q  <= {2'b00, insn_i[31:16]};   // M
          rem_i_q  <= {2'b00, insn_i[47:32]};   // K
        end
      endcase
    end else if (busy_q) begin
      if (!at_end) begin
        t_q <= t_q + 18'd1;
      end else if (ex_last) begin
        busy_q <= 1'b0;
      end else begin
        // next fold of a MATMUL
        t_q <= 18'd0;
        if (!last_inner) begin
          later_q <= 1'b1;
          if (os) begin
            base_b_q <= base_b_q + k16;                   // next n-block of WT
            base_o_q <= base_o_q + c16;
            rem_i_q  <= rem_i_q - C18;
          end else begin
            base_a_q <= base_a_q + r16;                   // next k-block of the preload
            base_b_q <= base_b_q + (ws ? m16 : n16);      // next k-block of the stream
            rem_i_q  <= rem_i_q - R18;
          end
        end else begin
          later_q <= 1'b0;
          if (os) begin
            base_a_q <= base_a_q + k16;                   // next m-block of IN
            base_b_q <= wt_q;
            base_o_q <= base_blk_q + n16;                    // next m-block of OUT
            base_blk_q <= base_blk_q + n16;
            rem_o_q  <= rem_o_q - R18;
            rem_i_q  <= n18;
          end else begin
            // WS: next n-block (WT by KBR, OUT by M); IS: next m-block (IN by KBR, OUT by N)
            base_a_q <= base_a_q + r16;                      // = block start + KB*R
            base_b_q <= ws ? in_q : wt_q;
            base_o_q <= base_o_q + (ws ? m16 : n16);
            rem_o_q  <= rem_o_q - C18;
            rem_i_q  <= k18;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- phases of the fold
  wire mm_busy  = busy_q && is_mm;
  // OS
  wire os_rd    = mm_busy && os && (t_q < k18);
  // WS / IS
  wire st_pre   = mm_busy && !os && (t_q < R18);
  wire st_rd    = mm_busy && !os && (t_q >= R18) && (t_q < R18 + cnt);
  wire st_shift = mm_busy && !os && (t_q >= 18'd1) && (t_q <= R18);
  wire st_latch = mm_busy && !os && (t_q == R18);
  wire st_mac   = !(st_shift);
  wire [17:0] st_wb_t = R18 + R18 + C18;
  wire st_out   = mm_busy && !os && (t_q >= st_wb_t) && (t_q < st_wb_t + cnt);
  wire init_out = acc_q || later_q;            // partial sums from OUT
  wire last_f   = last_inner;                          // WS/IS: the last k-block applies act
  // MADD / ACT / COPY
  wire el_busy  = busy_q && !is_mm;
  wire el_rd    = el_busy && (t_q < ln18);
  wire el_out   = el_busy && (t_q >= 18'd1) && (t_q <= ln18);

  wire [15:0] t16   = t_q[15:0];
  wire [15:0] pre_l = base_a_q + r16 - 16'd1 - t16;             // preload line, reversed
  wire [15:0] str_l = base_b_q + (t16 - r16);                   // streamed line t-R

  // ---------------------------------------------------------------- drain (OS results)
  // Each fold's drain parameters wait in dp_* from the fold's start until the fold's last
  // element reaches the bottom-left PE (its control word there fires the drain); stage A then
  // issues one column a cycle (old OUT value read), stage B forms the result, stage C writes.
  reg        dp_v_q;
  reg [15:0] dp_line_q;
  reg [7:0]  dp_ncols_q, dp_nrows_q;
  reg        dp_acc_q, dp_act_q;
  reg        da_v_q;
  reg [ColW-1:0] da_col_q;
  reg [15:0] da_line_q;
  reg [7:0]  da_ncols_q, da_nrows_q;
  reg        da_acc_q, da_act_q;
  reg        db_v_q;
  reg [ColW-1:0] db_col_q;
  reg [15:0] db_line_q;
  reg [7:0]  db_ncols_q, db_nrows_q;
  reg        db_acc_q, db_act_q;

  wire [Rows*3-1:0] ctl_skewed;
  wire       fire     = ctl_skewed[(Rows-1)*3] && ctl_skewed[(Rows-1)*3 + 2];  // valid && last
  wire       fold_beg = mm_busy && os && (t_q == 18'd0);
  localparam integer LastCol = Cols - 1;
  wire       da_go    = fire || da_v_q;
  wire [ColW-1:0] da_col  = fire ? {ColW{1'b0}} : da_col_q;
  wire [15:0] da_line = fire ? dp_line_q : da_line_q;
  wire [7:0]  da_ncols = fire ? dp_ncols_q : da_ncols_q;
  wire [7:0]  da_nrows = fire ? dp_nrows_q : da_nrows_q;
  wire        da_acc  = fire ? dp_acc_q : da_acc_q;
  wire        da_act  = fire ? dp_act_q : da_act_q;
  wire [15:0] da_col16 = {{(16-ColW){1'b0}}, da_col};
  wire [15:0] db_col16 = {{(16-ColW){1'b0}}, db_col_q};
  // a drained column holds results when it is below the fold's column count
  wire        da_col_ok = (da_col < da_ncols[ColW-1:0]) || ({24'd0, da_ncols} > LastCol);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dp_v_q <= 1'b0;
      da_v_q <= 1'b0;
      db_v_q <= 1'b0;
    end else begin
      if (fold_beg)  dp_v_q <= 1'b1;
      else if (fire) dp_v_q <= 1'b0;
      da_v_q <= da_go && (da_col != LastCol[ColW-1:0]);
      db_v_q <= da_go;
    end
  end

  always @(posedge clk_i) begin
    if (fold_beg) begin
      dp_line_q  <= base_o_q;
      dp_ncols_q <= os_nvalid[7:0];
      dp_nrows_q <= os_mvalid[7:0];
      dp_acc_q   <= acc_q;
      dp_act_q   <= act_q;
    end
    if (da_go) begin
      da_col_q   <= da_col + 1'b1;
      da_line_q  <= da_line;
      da_ncols_q <= da_ncols;
      da_nrows_q <= da_nrows;
      da_acc_q   <= da_acc;
      da_act_q   <= da_act;
      db_col_q   <= da_col;
      db_line_q  <= da_line;
      db_ncols_q <= da_ncols;
      db_nrows_q <= da_nrows;
      db_acc_q   <= da_acc;
      db_act_q   <= da_act;
    end
  end

  // OUT banks of the drain stages (for the issue logic)
  localparam integer OutDepthInt = OutDepth;
  localparam [16:0]  OutDepth17  = OutDepthInt[16:0];
  function automatic [1:0] bank_mask(input v, input [15:0] line);
    bank_mask = !v ? 2'b00 : ({1'b0, line} >= OutDepth17) ? 2'b10 : 2'b01;
  endfunction
  assign dr_inflight_o = dp_v_q || da_v_q || db_v_q;
  assign dr_banks_o    = bank_mask(dp_v_q, dp_line_q) | bank_mask(da_v_q, da_line_q) |
                         bank_mask(db_v_q, db_line_q);
  assign dr_busy_o     = dr_inflight_o || c_v_q;

  // ---------------------------------------------------------------- buffer reads
  always @(*) begin
    in_re_o     = 1'b0;
    in_raddr_o  = 16'd0;
    wt_re_o     = 1'b0;
    wt_raddr_o  = 16'd0;
    out_re_o    = 1'b0;
    out_raddr_o = 16'd0;
    if (os_rd) begin
      in_re_o    = 1'b1;
      in_raddr_o = base_a_q + t16;
      wt_re_o    = 1'b1;
      wt_raddr_o = base_b_q + t16;
    end
    if (st_pre) begin
      if (ws) begin wt_re_o = 1'b1; wt_raddr_o = pre_l; end
      else    begin in_re_o = 1'b1; in_raddr_o = pre_l; end
    end
    if (st_rd) begin
      if (ws) begin in_re_o = 1'b1; in_raddr_o = str_l; end
      else    begin wt_re_o = 1'b1; wt_raddr_o = str_l; end
      out_re_o    = init_out;
      out_raddr_o = base_o_q + (t16 - r16);
    end
    if (el_rd) begin
      out_re_o    = 1'b1;
      out_raddr_o = src0_q + t16;
      in_re_o     = (op_q == OpMadd);
      in_raddr_o  = in_q + t16;
    end
    if (da_go) begin
      // old value of a column that holds results (a column beyond N lies outside the
      // instruction's OUT range, maybe in the other bank, which another unit may be using)
      out_re_o    = da_acc && da_col_ok;
      out_raddr_o = da_line + da_col16;
    end
  end

  // ---------------------------------------------------------------- the array and its edges
  // OS control word {last, first, valid} of the element read this cycle, aligned with the
  // read data by one register, then skewed like row r's operand.
  reg [2:0] ctl_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ctl_q <= 3'b000;
    else         ctl_q <= {os_rd && (t_q == k18 - 18'd1), os_rd && (t_q == 18'd0), os_rd};
  end
  // the OS control and the first operand enter row r after r cycles
  gnn_skew #(.Lanes(Rows), .Width(3), .Reverse(0), .Reset(1)) u_skew_ctl (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .d_i   ({Rows{ctl_q}}),
    .q_o   (ctl_skewed)
  );
  wire [Rows*32-1:0] a_line = (!os && !ws) ? wt_rdata_i[Rows*32-1:0] : in_rdata_i[Rows*32-1:0];
  wire [Rows*32-1:0] a_skewed;
  gnn_skew #(.Lanes(Rows), .Width(32), .Reverse(0), .Reset(0)) u_skew_a (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .d_i   (a_line),
    .q_o   (a_skewed)
  );
  // top edge: OS weights, WS/IS partial sums (OUT or -0), skewed; a preload goes straight down
  reg init_out_q;
  always @(posedge clk_i) init_out_q <= init_out;
  wire [Cols*32-1:0] v_line = os ? wt_rdata_i[Cols*32-1:0] :
                              init_out_q ? out_rdata_i[Cols*32-1:0] : {Cols{NegZero}};
  wire [Cols*32-1:0] v_skewed;
  gnn_skew #(.Lanes(Cols), .Width(32), .Reverse(0), .Reset(0)) u_skew_v (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .d_i   (v_line),
    .q_o   (v_skewed)
  );
  wire [Cols*32-1:0] pre_line = ws ? wt_rdata_i[Cols*32-1:0] : in_rdata_i[Cols*32-1:0];
  wire [Cols*32-1:0] v_top    = st_shift ? pre_line : v_skewed;

  // row enables of the last k-block
  reg [Rows-1:0] row_en;
  integer r;
  always @(*) begin
    for (r = 0; r < Rows; r = r + 1) row_en[r] = (r < kvalid);
  end

  wire [Cols*32-1:0] v_bottom;
  wire [Rows*32-1:0] drain;
  gnn_array #(.Rows(Rows), .Cols(Cols)) u_array (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .os_i       (os),
    .mac_i      (st_mac),
    .latch_i    (st_latch),
    .row_en_i   (row_en),
    .a_i        (a_skewed),
    .ctl_i      (ctl_skewed),
    .v_i        (v_top),
    .v_o        (v_bottom),
    .drain_col_i(db_col_q),
    .drain_o    (drain)
  );
  wire [Cols*32-1:0] v_deskewed;
  gnn_skew #(.Lanes(Cols), .Width(32), .Reverse(1), .Reset(0)) u_deskew (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .d_i   (v_bottom),
    .q_o   (v_deskewed)
  );

  // ---------------------------------------------------------------- output path
  // Stage B: operands -> (adder) -> activation -> word mask; stage C: the OUT write.
  reg              b_v, b_add, b_selb, b_act;
  reg [15:0]       b_addr;
  reg [Lw-1:0]     b_mask;
  reg [Lw*32-1:0]  b_a, b_b;
  integer          wi;
  always @(*) begin
    b_v    = 1'b0;
    b_add  = 1'b0;
    b_selb = 1'b0;
    b_act  = 1'b0;
    b_addr = 16'd0;
    b_mask = {Lw{1'b0}};
    b_a    = out_rdata_i;
    b_b    = in_rdata_i;
    if (db_v_q) begin                 // OS drain: old (OUT) + column of results
      b_v    = (db_col_q < db_ncols_q[ColW-1:0]) || ({24'd0, db_ncols_q} > LastCol);
      b_add  = db_acc_q;
      b_selb = 1'b1;
      b_act  = db_act_q;
      b_addr = db_line_q + db_col16;
      for (wi = 0; wi < Lw; wi = wi + 1) b_mask[wi] = (wi < db_nrows_q);
      b_b    = {Lw*32{1'b0}};
      b_b[Rows*32-1:0] = drain;
    end else if (st_out) begin        // WS/IS: a row of partial sums or results
      b_v    = 1'b1;
      b_act  = act_q && last_f;
      b_addr = base_o_q + (t16 - r16 - r16 - c16);
      for (wi = 0; wi < Lw; wi = wi + 1) b_mask[wi] = (wi < wvalid);
      b_a    = {Lw*32{1'b0}};
      b_a[Cols*32-1:0] = v_deskewed;
    end else if (el_out && op_q != OpCopy) begin   // MADD / ACT
      b_v    = 1'b1;
      b_add  = (op_q == OpMadd);
      b_act  = act_q;
      b_addr = out_q + t16 - 16'd1;
      b_mask = {Lw{1'b1}};
    end
  end

  reg              c_v_q;
  reg [15:0]       c_addr_q;
  reg [Lw*32-1:0]  c_data_q;
  wire [Lw*32-1:0] b_res;
  genvar gw;
  generate
    for (gw = 0; gw < Lw; gw = gw + 1) begin : gen_lane
      wire [31:0] sum;
      wire        unused_rdy, unused_vld;
      wire [4:0]  unused_flags;
      fp_add #(.ExpW(8), .ManW(23), .Latency(0)) u_add (
        .clk_i      (1'b0),
        .rst_ni     (1'b1),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (b_a[gw*32 +: 32]),
        .b_i        (b_b[gw*32 +: 32]),
        .sub_i      (1'b0),
        .rm_i       (3'd0),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (sum),
        .flags_o    (unused_flags)
      );
      wire [31:0] pre  = b_add ? sum : b_selb ? b_b[gw*32 +: 32] : b_a[gw*32 +: 32];
      wire        nan  = (pre[30:23] == 8'hFF) && (pre[22:0] != 23'd0);
      wire [31:0] relu = nan ? QNaN : pre[31] ? 32'd0 : pre;
      assign b_res[gw*32 +: 32] = !b_mask[gw] ? 32'd0 : b_act ? relu : pre;
    end
  endgenerate

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) c_v_q <= 1'b0;
    else         c_v_q <= b_v;
  end
  always @(posedge clk_i) begin
    c_addr_q <= b_addr;
    c_data_q <= b_res;
  end
  assign out_we_o    = c_v_q;
  assign out_waddr_o = c_addr_q;
  assign out_wdata_o = c_data_q;

  // COPY: OUT line t-1 (read last cycle) into IN line dst + t - 1
  assign in_we_o    = el_out && (op_q == OpCopy);
  assign in_waddr_o = in_q + t16 - 16'd1;
  assign in_wdata_o = out_rdata_i;

endmodule

`default_nettype wire
