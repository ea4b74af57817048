////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  gnn_gex.v
//
// Purpose:   Shard Compute unit of the Graph Engine with its controller: runs GRUN (one stream
//            convoy over a shard or a node block) and GFILL on P Graph Processing Elements of L
//            lanes (cmodel/include/gnnerator.h, "GRAPH ENGINE" and "GRUN TIMING"; the model's
//            exec_grun is this unit cycle for cycle).
//
//            Each GPE's Edge Fetcher walks its EDGE memory one entry ahead (the SRAM's read
//            register is the look-ahead) and presents one item (edge, line c) a cycle to the
//            arbiter; stream mode presents nodes g, g+P, ... The Input Feature Fetchers read
//            IF0/IF1 of the GPE holding node x0/x1 through the broadcast crossbar (one line a
//            cycle per memory port: GPEs asking for the same line share it), the Modified
//            Feature Fetcher read-modify-writes the MF line of node d's GPE through the MF
//            crossbar (one a cycle per memory). The arbiter visits the GPEs from a priority that
//            rotates every cycle and grants a GPE all it asks for or nothing. The lock (a CAM
//            of one entry per MF memory) holds the line granted the cycle before, whose write
//            is still under way; the GPE that owns it goes on with its own result register
//            (pull's pinned destination), any other GPE waits. With an SFU op (ReLU, exp) a
//            GPE also needs a unit of the shared SFU pool (Sfus units of L gnn_sfu lanes): the
//            same rotating-priority arbiter gives the i-th GPE it grants unit i and grants at
//            most Sfus GPEs a cycle; one crossbar takes each unit's GPE's Apply results in, one
//            takes its results back to that GPE's Reduce. Granted in cycle k: the SRAMs read in
//            k; in k+1 the lanes (gnn_glane, Apply -> SFU pool -> Reduce) compute and MF is
//            written.
//
//            Null edges (0xFFFFFFFF) are skipped; an edge with a node index >= nodes is a bad
//            edge: skipped and counted in bad_edges_o (wraps at 2^32).
//
// Parameters:
//   Gpes, Lanes   P and L (powers of two)
//   Sfus          S units of the SFU pool, 1..Gpes
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module gnn_gex #(
  parameter integer Gpes  = 4,
  parameter integer Lanes = 4,
  parameter integer Sfus  = 1
) (
  input  wire                      clk_i,
  input  wire                      rst_ni,
  input  wire                      start_i,
  input  wire [127:0]              insn_i,
  output wire                      busy_o,
  output wire [31:0]               bad_edges_o,
  // per GPE memory ports (GPE g: bits [g*W +: W])
  output reg  [Gpes-1:0]           e_re_o,
  output reg  [Gpes*16-1:0]        e_raddr_o,
  input  wire [Gpes*32-1:0]        e_rdata_i,
  output reg  [Gpes-1:0]           f0_re_o,
  output reg  [Gpes*16-1:0]        f0_raddr_o,
  input  wire [Gpes*Lanes*32-1:0]  f0_rdata_i,
  output reg  [Gpes-1:0]           f1_re_o,
  output reg  [Gpes*16-1:0]        f1_raddr_o,
  input  wire [Gpes*Lanes*32-1:0]  f1_rdata_i,
  output reg  [Gpes-1:0]           m_re_o,
  output reg  [Gpes*16-1:0]        m_raddr_o,
  input  wire [Gpes*Lanes*32-1:0]  m_rdata_i,
  output reg  [Gpes-1:0]           m_we_o,
  output reg  [Gpes*16-1:0]        m_waddr_o,
  output reg  [Gpes*Lanes*32-1:0]  m_wdata_o
);

  localparam integer GpeW = (Gpes > 1) ? $clog2(Gpes) : 1;
  localparam integer LogP = (Gpes > 1) ? $clog2(Gpes) : 0;
  localparam integer LW   = Lanes * 32;
  localparam integer SlotW = (Sfus > 1) ? $clog2(Sfus) : 1;
  localparam integer SfusInt = Sfus;
  localparam [SlotW:0] SfusN = SfusInt[SlotW:0];
  localparam integer GpesInt = Gpes;
  localparam [16:0]  P17 = GpesInt[16:0];
  localparam [3:0]   OpGfill = 4'd10;
  localparam [GpeW-1:0] PMask = GpesInt[GpeW-1:0] - 1'b1;   // P is a power of two

  // ---------------------------------------------------------------- the instruction
  reg        run_q, fill_q;
  reg        edges_q, f0sel_q, f1sel_q, use1_q, rdm_q;
  reg [1:0]  apply_q, red_q, sfu_q;
  reg [15:0] ebase_q, count_q, nodes_q, if0_q, if1_q, mf_q;
  reg [7:0]  ch_q;
  reg [15:0] fill_line_q, fill_left_q;
  reg [31:0] fill_val_q;
  reg [GpeW-1:0] ptr_q;   // the GPE with the highest priority this cycle
  reg [31:0] bad_q;
  wire unused_insn = ^insn_i;   // the GRUN / GFILL fields only (gnn_gdec checked the rest)

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      edges_q <= 1'b0; f0sel_q <= 1'b0; f1sel_q <= 1'b0; use1_q <= 1'b0;
      rdm_q   <= 1'b0; apply_q <= 2'd0; red_q   <= 2'd0; sfu_q <= 2'd0;
      ebase_q <= 16'd0; count_q <= 16'd0; nodes_q <= 16'd0; if0_q <= 16'd0; if1_q <= 16'd0;
      mf_q    <= 16'd0; ch_q    <= 8'd0;  fill_val_q <= 32'd0;
    end else if (start_i) begin
      edges_q <= insn_i[5:4] == 2'd1;
      apply_q <= insn_i[7:6];
      use1_q  <= insn_i[7:6] == 2'd1 || insn_i[7:6] == 2'd2;
      sfu_q   <= insn_i[9:8];
      red_q   <= insn_i[11:10];
      rdm_q   <= insn_i[11:10] != 2'd0 || insn_i[7:6] == 2'd3;   // reduce or mulm reads MF
      f0sel_q <= insn_i[12];
      f1sel_q <= insn_i[13];
      ebase_q <= insn_i[31:16];
      count_q <= insn_i[47:32];
      nodes_q <= insn_i[63:48];
      if0_q   <= insn_i[79:64];
      if1_q   <= insn_i[95:80];
      mf_q    <= insn_i[111:96];
      ch_q    <= insn_i[119:112];
      fill_val_q <= insn_i[79:48];
    end
  end

  // ---------------------------------------------------------------- per-GPE walk
  wire [Gpes-1:0]      present, g_done, is_bad;
  wire [Gpes*GpeW-1:0] m0, m1, md;
  wire [Gpes*16-1:0]   l0, l1, ld;
  reg  [Gpes-1:0]      grant, locked;
  reg  [Gpes-1:0]      s1_v, s1_fwd;
  reg  [Gpes*GpeW-1:0] s1_m0, s1_m1, s1_md;
  reg  [Gpes*16-1:0]   s1_ld;
  reg  [Gpes*GpeW-1:0] lk_gpe_q;    // the lock: per MF memory, the line granted last cycle
  reg  [Gpes*16-1:0]   lk_line_q;
  reg  [Gpes-1:0]      lk_v_q;

  genvar g;
  generate
    for (g = 0; g < Gpes; g = g + 1) begin : gen_gpe
      localparam integer GInt = g;
      localparam [GpeW-1:0] GId = GInt[GpeW-1:0];
      reg [15:0] rd_q;
      reg        nxv_q, curv_q;
      reg [31:0] cur_q;
      reg [7:0]  c_q;
      reg [16:0] v_q;       // stream mode: the node, g + j*P

      wire [15:0] src  = cur_q[15:0];
      wire [15:0] dst  = cur_q[31:16];
      wire        null_e = (cur_q == 32'hFFFF_FFFF);
      wire        bad  = curv_q && !null_e && ((src >= nodes_q) || (dst >= nodes_q));
      wire        pres = edges_q ? (curv_q && !null_e && !bad) : (v_q < {1'b0, nodes_q});
      wire        grt  = grant[g];
      wire        done_cur = curv_q && (!pres || (grt && (c_q == ch_q - 8'd1)));
      wire        take = nxv_q && (!curv_q || done_cur);
      wire        re   = run_q && edges_q && (rd_q < count_q) && (!nxv_q || take);

      wire [15:0] x0 = !edges_q ? v_q[15:0] : f0sel_q ? dst : src;
      wire [15:0] x1 = !edges_q ? v_q[15:0] : f1sel_q ? dst : src;
      wire [15:0] xd = !edges_q ? v_q[15:0] : dst;
      wire [15:0] r0 = x0 >> LogP, r1 = x1 >> LogP, rdd = xd >> LogP;
      wire [23:0] p0 = {8'd0, r0} * {16'd0, ch_q};
      wire [23:0] p1 = {8'd0, r1} * {16'd0, ch_q};
      wire [23:0] pd = {8'd0, rdd} * {16'd0, ch_q};
      wire unused_p = ^{p0[23:16], p1[23:16], pd[23:16]};  // decode keeps the lines < 2^16

      assign present[g] = run_q && pres;
      assign is_bad[g]  = run_q && edges_q && bad;
      assign m0[g*GpeW +: GpeW] = x0[GpeW-1:0] & {GpeW{Gpes > 1}};
      assign m1[g*GpeW +: GpeW] = x1[GpeW-1:0] & {GpeW{Gpes > 1}};
      assign md[g*GpeW +: GpeW] = xd[GpeW-1:0] & {GpeW{Gpes > 1}};
      assign l0[g*16 +: 16] = if0_q + p0[15:0] + {8'd0, c_q};
      assign l1[g*16 +: 16] = if1_q + p1[15:0] + {8'd0, c_q};
      assign ld[g*16 +: 16] = mf_q + pd[15:0] + {8'd0, c_q};
      assign g_done[g] = edges_q ? (rd_q == count_q && !nxv_q && !curv_q)
                                 : (v_q >= {1'b0, nodes_q});

      always @(*) begin
        e_re_o[g]             = re;
        e_raddr_o[g*16 +: 16] = ebase_q + rd_q;
      end

      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          rd_q   <= 16'd0;
          nxv_q  <= 1'b0;
          curv_q <= 1'b0;
          cur_q  <= 32'd0;
          c_q    <= 8'd0;
          v_q    <= 17'd0;
        end else if (start_i) begin
          rd_q   <= 16'd0;
          nxv_q  <= 1'b0;
          curv_q <= 1'b0;
          c_q    <= 8'd0;
          v_q    <= {{(17-GpeW){1'b0}}, GId};
        end else if (run_q && edges_q) begin
          if (take) begin
            cur_q  <= e_rdata_i[g*32 +: 32];
            curv_q <= 1'b1;
            c_q    <= 8'd0;
          end else if (done_cur) begin
            curv_q <= 1'b0;
          end else if (grt) begin
            c_q <= c_q + 8'd1;
          end
          if (re)        nxv_q <= 1'b1;
          else if (take) nxv_q <= 1'b0;
          if (re)        rd_q  <= rd_q + 16'd1;
        end else if (run_q && grt) begin
          if (c_q == ch_q - 8'd1) begin
            c_q <= 8'd0;
            v_q <= v_q + P17;
          end else begin
            c_q <= c_q + 8'd1;
          end
        end
      end

      // lock: d's MF line was granted last cycle to another GPE
      wire [GpeW-1:0] mdg = md[g*GpeW +: GpeW];
      always @(*) begin
        locked[g] = lk_v_q[mdg] && (lk_line_q[mdg*16 +: 16] == ld[g*16 +: 16]) &&
                    (lk_gpe_q[mdg*GpeW +: GpeW] != GId);
      end
    end
  endgenerate

  // ---------------------------------------------------------------- arbiter and crossbars
  reg [Gpes-1:0]    t0_v, t1_v, tm_v;
  reg [Gpes*16-1:0] t0_l, t1_l;
  reg [GpeW-1:0]    gi, a0, a1, ad;
  reg               ok;
  reg [SlotW:0]     nsfu;             // SFU units granted so far this cycle
  reg [Gpes*SlotW-1:0]  slot;         // a granted GPE's SFU unit
  reg [Sfus*GpeW-1:0]   unit_gpe;     // an SFU unit's GPE
  wire              need_sfu = (sfu_q != 2'd0);
  integer i;
  always @(*) begin
    grant = {Gpes{1'b0}};
    nsfu  = {(SlotW+1){1'b0}};
    slot  = {Gpes*SlotW{1'b0}};
    unit_gpe = {Sfus*GpeW{1'b0}};
    t0_v  = {Gpes{1'b0}};
    t1_v  = {Gpes{1'b0}};
    tm_v  = {Gpes{1'b0}};
    t0_l  = {Gpes*16{1'b0}};
    t1_l  = {Gpes*16{1'b0}};
    gi = {GpeW{1'b0}}; a0 = {GpeW{1'b0}}; a1 = {GpeW{1'b0}}; ad = {GpeW{1'b0}}; ok = 1'b0;
    for (i = 0; i < Gpes; i = i + 1) begin
      gi = (ptr_q + i[GpeW-1:0]) & PMask;
      a0 = m0[gi*GpeW +: GpeW];
      a1 = m1[gi*GpeW +: GpeW];
      ad = md[gi*GpeW +: GpeW];
      ok = present[gi] && !locked[gi] && !tm_v[ad] && (!need_sfu || nsfu < SfusN) &&
           (!t0_v[a0] || t0_l[a0*16 +: 16] == l0[gi*16 +: 16]) &&
           (!use1_q || !t1_v[a1] || t1_l[a1*16 +: 16] == l1[gi*16 +: 16]);
      if (ok) begin
        grant[gi] = 1'b1;
        t0_v[a0] = 1'b1;
        t0_l[a0*16 +: 16] = l0[gi*16 +: 16];
        if (use1_q) begin
          t1_v[a1] = 1'b1;
          t1_l[a1*16 +: 16] = l1[gi*16 +: 16];
        end
        tm_v[ad] = 1'b1;
        if (need_sfu) begin
          slot[gi*SlotW +: SlotW] = nsfu[SlotW-1:0];
          unit_gpe[nsfu[SlotW-1:0]*GpeW +: GpeW] = gi;
          nsfu = nsfu + 1'b1;
        end
      end
    end
  end

  // memory read ports: the granted GPEs' lines (equal on a shared IF port, one on an MF port)
  integer q, k;
  always @(*) begin
    f0_re_o = t0_v;
    f1_re_o = t1_v;
    m_re_o  = tm_v & {Gpes{rdm_q}};
    f0_raddr_o = t0_l;
    f1_raddr_o = t1_l;
    m_raddr_o  = {Gpes*16{1'b0}};
    for (q = 0; q < Gpes; q = q + 1)
      for (k = 0; k < Gpes; k = k + 1)
        if (grant[k] && md[k*GpeW +: GpeW] == q[GpeW-1:0])
          m_raddr_o[q*16 +: 16] = ld[k*16 +: 16];
  end

  // ---------------------------------------------------------------- stage 1: lanes and write
  wire [Gpes*LW-1:0] res, ap;
  wire [Sfus*LW-1:0] sfu_y;
  reg  [Gpes*LW-1:0] res_q;   // each GPE's last result (its pinned destination's value)
  reg  [Gpes*SlotW-1:0] s1_slot;
  reg  [Sfus*GpeW-1:0]  s1_unit_gpe;
  genvar k2;
  generate
    // the SFU pool: unit k takes the Apply results of the GPE it was granted to (crossbar in)
    for (k2 = 0; k2 < Sfus; k2 = k2 + 1) begin : gen_sfu
      wire [GpeW-1:0] ug = s1_unit_gpe[k2*GpeW +: GpeW];
      wire [LW-1:0]   ax = ap[ug*LW +: LW];
      genvar j;
      for (j = 0; j < Lanes; j = j + 1) begin : gen_lane
        gnn_sfu u_sfu (
          .op_i(sfu_q),
          .x_i (ax[j*32 +: 32]),
          .y_o (sfu_y[k2*LW + j*32 +: 32])
        );
      end
    end
  endgenerate
  generate
    for (g = 0; g < Gpes; g = g + 1) begin : gen_lanes
      wire [GpeW-1:0] s0 = s1_m0[g*GpeW +: GpeW];
      wire [GpeW-1:0] s1 = s1_m1[g*GpeW +: GpeW];
      wire [GpeW-1:0] sd = s1_md[g*GpeW +: GpeW];
      wire [LW-1:0] x0 = f0_rdata_i[s0*LW +: LW];
      wire [LW-1:0] x1 = f1_rdata_i[s1*LW +: LW];
      wire [LW-1:0] mo = s1_fwd[g] ? res_q[g*LW +: LW] : m_rdata_i[sd*LW +: LW];
      // the SFU's results back to this GPE's Reduce (crossbar out), or Apply's straight on
      wire [SlotW-1:0] su = s1_slot[g*SlotW +: SlotW];
      wire [LW-1:0] fx = (sfu_q == 2'd0) ? ap[g*LW +: LW] : sfu_y[su*LW +: LW];
      genvar j;
      for (j = 0; j < Lanes; j = j + 1) begin : gen_lane
        gnn_glane u_lane (
          .apply_i(apply_q),
          .red_i  (red_q),
          .x0_i   (x0[j*32 +: 32]),
          .x1_i   (x1[j*32 +: 32]),
          .m_i    (mo[j*32 +: 32]),
          .a_o    (ap[g*LW + j*32 +: 32]),
          .f_i    (fx[j*32 +: 32]),
          .r_o    (res[g*LW + j*32 +: 32])
        );
      end
      always @(posedge clk_i) begin
        if (s1_v[g]) res_q[g*LW +: LW] <= res[g*LW +: LW];
      end
    end
  endgenerate

  integer w;
  always @(*) begin
    m_we_o    = {Gpes{1'b0}};
    m_waddr_o = {Gpes*16{1'b0}};
    m_wdata_o = {Gpes*LW{1'b0}};
    if (fill_q) begin
      m_we_o    = {Gpes{1'b1}};
      m_waddr_o = {Gpes{fill_line_q}};
      m_wdata_o = {Gpes*Lanes{fill_val_q}};
    end else begin
      for (w = 0; w < Gpes; w = w + 1)
        if (s1_v[w]) begin
          m_we_o[s1_md[w*GpeW +: GpeW]] = 1'b1;
          m_waddr_o[s1_md[w*GpeW +: GpeW]*16 +: 16] = s1_ld[w*16 +: 16];
          m_wdata_o[s1_md[w*GpeW +: GpeW]*LW +: LW] = res[w*LW +: LW];
        end
    end
  end

  // ---------------------------------------------------------------- control
  wire all_done = &g_done;
  wire run_end  = run_q && all_done && (s1_v == {Gpes{1'b0}});
  reg  [5:0] nbad;
  integer b;
  always @(*) begin
    nbad = 6'd0;
    for (b = 0; b < Gpes; b = b + 1) nbad = nbad + {5'd0, is_bad[b]};
  end

  integer e;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q       <= 1'b0;
      fill_q      <= 1'b0;
      fill_line_q <= 16'd0;
      fill_left_q <= 16'd0;
      ptr_q       <= {GpeW{1'b0}};
      bad_q       <= 32'd0;
      s1_v        <= {Gpes{1'b0}};
      s1_fwd      <= {Gpes{1'b0}};
      lk_v_q      <= {Gpes{1'b0}};
    end else begin
      bad_q <= bad_q + {26'd0, nbad};
      if (start_i) begin
        run_q       <= insn_i[3:0] != OpGfill;
        fill_q      <= insn_i[3:0] == OpGfill;
        fill_line_q <= insn_i[31:16];
        fill_left_q <= insn_i[47:32];
        ptr_q       <= {GpeW{1'b0}};
      end else begin
        if (run_end) run_q <= 1'b0;
        ptr_q <= (ptr_q + 1'b1) & PMask;
        if (fill_q) begin
          fill_line_q <= fill_line_q + 16'd1;
          fill_left_q <= fill_left_q - 16'd1;
          if (fill_left_q == 16'd1) fill_q <= 1'b0;
        end
      end
      s1_v   <= grant;
      lk_v_q <= tm_v;
      for (e = 0; e < Gpes; e = e + 1)
        s1_fwd[e] <= grant[e] && s1_v[e] && (s1_md[e*GpeW +: GpeW] == md[e*GpeW +: GpeW]) &&
                     (s1_ld[e*16 +: 16] == ld[e*16 +: 16]);
    end
  end

  integer u;
  always @(posedge clk_i) begin
    s1_m0 <= m0;
    s1_m1 <= m1;
    s1_slot <= slot;
    s1_unit_gpe <= unit_gpe;
    s1_md <= md;
    s1_ld <= ld;
    for (u = 0; u < Gpes; u = u + 1)
      if (grant[u]) begin
        lk_gpe_q[md[u*GpeW +: GpeW]*GpeW +: GpeW] <= u[GpeW-1:0];
        lk_line_q[md[u*GpeW +: GpeW]*16 +: 16]    <= ld[u*16 +: 16];
      end
  end

  assign busy_o      = (run_q && !run_end) || fill_q;
  assign bad_edges_o = bad_q;

endmodule

`default_nettype wire
