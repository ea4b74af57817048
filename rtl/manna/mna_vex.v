////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_vex.v
//
// Purpose:   The eMAC array of a MANNA tile: E eMACs (one fp32 fused multiply-add each, used
//            once per cycle) with their register files, executing the compute instructions of
//            docs/manna.md one at a time for the control unit:
//              vmm      plain vector-matrix product (soft read): one Matrix-Scratchpad line per
//                       cycle, a Vector-Scratchpad word broadcast to every eMAC;
//              vmm t    transposed product (key similarity) on a padded group of E rows: eMAC j
//                       reads only its own bank j; the partial sums move one eMAC to the right
//                       over the lateral links every step and are realigned at the end (Fig.
//                       4.5 steps 4 and 5); the sq forms square the matrix word (norms);
//              swr      soft write of rows: t = fma(-w, e, 1); m = m * t; m = fma(w, a, m),
//                       three eMAC operations per row;
//              el.OP    element-wise add/sub/mul/fma on Vector-Scratchpad lines (the map
//                       operation when an operand is a broadcast scalar); one read of the
//                       scratchpad per vector operand;
//              rfz, rfld, rfst   register file moves.
//            add, sub and mul are the fused multiply-add with a constant operand: a + b =
//            fma(a, 1, b), a - b = fma(a, 1, -b), a * b = fma(a, b, -0), each exactly the IEEE
//            operation.
//
//            Ablation variants (timing only, the same bits): Transpose = 0 takes E cycles per
//            step of vmm t (the column's E words are in one bank: one read per cycle);
//            EmacOps = 0 (plain MACs) takes 3 cycles for every element-wise operation that is
//            not a multiply-add (el.add/sub/mul per line, the multiply of swr per row).
//
// Parameters:
//   Emacs (E, power of two), RfRegs, MsAW, VsAW (line address widths), Transpose, EmacOps
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module mna_vex #(
  parameter integer Emacs     = 2,
  parameter integer RfRegs    = 8,
  parameter integer MsAW      = 5,
  parameter integer VsAW      = 4,
  parameter integer Transpose = 1,
  parameter integer EmacOps   = 1
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  input  wire                  start_i,
  input  wire [5:0]            op_i,
  input  wire [5:0]            flags_i,
  input  wire [31:0]           a_i, b_i, c_i, d_i,   // address operands
  input  wire [31:0]           sc_i, sd_i,           // el scalar operands
  input  wire [15:0]           n_i,
  input  wire [3:0]            ra_i, rc_i, rd_i,
  output wire                  done_o,
  // Matrix-Scratchpad port B
  output wire [Emacs-1:0]      ms_re_o,
  output wire [Emacs*MsAW-1:0] ms_raddr_o,
  input  wire [Emacs*32-1:0]   ms_rdata_i,
  output wire [Emacs-1:0]      ms_we_o,
  output wire [Emacs*MsAW-1:0] ms_waddr_o,
  output wire [Emacs*32-1:0]   ms_wdata_o,
  // Vector-Scratchpad port B (shared with the SFU, the collective unit and the host: each
  // drives zeros while idle)
  output wire [Emacs-1:0]      vs_re_o,
  output wire [Emacs*VsAW-1:0] vs_raddr_o,
  input  wire [Emacs*32-1:0]   vs_rdata_i,
  output wire [Emacs-1:0]      vs_we_o,
  output wire [Emacs*VsAW-1:0] vs_waddr_o,
  output wire [Emacs*32-1:0]   vs_wdata_o
);

  `include "mna_defs.vh"

  localparam integer E  = Emacs;
  localparam integer LE = $clog2(Emacs);
  localparam [31:0] One = 32'h3F80_0000, NegZero = 32'h8000_0000;

  // kinds
  localparam [2:0] KVmm = 3'd0, KVmmT = 3'd1, KSwr = 3'd2, KEl = 3'd3, KRfz = 3'd4,
                   KRfld = 3'd5, KRfst = 3'd6;

  reg        busy_q;
  reg [2:0]  kind_q;
  reg [5:0]  fl_q;
  reg [31:0] a_q, b_q, c_q, d_q, sc_q, sd_q;
  reg [15:0] n_q, k_q;          // items, current item (issue side)
  reg [3:0]  ra_q, rc_q, rd_q;
  reg [2:0]  ph_q;              // phase within an item (issue side)
  reg        issuing_q;         // items left to issue
  reg        cv_q;              // compute valid: an item's last read was issued last cycle
  reg [15:0] ck_q;              // the item being computed
  reg [2:0]  cph_q;             // swr: compute phase
  reg [LE-1:0] vbank_q;         // bank of the broadcast word read last cycle
  reg [1:0]  rdj_q;             // el: which operand the last read was (0 a, 1 b, 2 c)
  reg        rdv_q;             // el: a read was issued last cycle
  reg        done_q;

  wire [E*RfRegs*32-1:0] rf_flat;    // the register files: lane j, register r at (j*RfRegs+r)*32
  // flat vectors (lane j at j*32; operand q of lane j at (q*E + j)*32): Icarus's @* reads
  // whole arrays, these it reads per slice
  reg [E*32-1:0]   acc_q;
  reg [3*E*32-1:0] opnd_q;           // el operands; swr: [0] m, [1] t
  reg [31:0] w_q;                   // swr: the row's weight

  wire [1:0] elop = fl_q[1:0];
  wire       el_bs = fl_q[2], el_cs = fl_q[3];
  // el: reads per line and cycles per line
  wire [2:0] el_nr = 3'd1 + {2'd0, !el_bs} + {2'd0, (elop == 2'd3) && !el_cs};
  wire [2:0] el_p  = (EmacOps == 0 && elop != 2'd3 && el_nr < 3'd3) ? 3'd3 : el_nr;
  wire [2:0] swr_p = (EmacOps == 0) ? 3'd5 : 3'd3;
  wire [15:0] vt_steps = (Transpose == 0) ? E[15:0] : 16'd1;
  reg  [15:0] stall_q;          // vmm t, Transpose = 0: cycles left in the step

  // the el operand each phase reads: phase p reads operand sel(p)
  function [1:0] el_sel(input [2:0] p);
    begin
      if (p == 3'd0) el_sel = 2'd0;
      else if (p == 3'd1) el_sel = !el_bs ? 2'd1 : 2'd2;
      else el_sel = 2'd2;
    end
  endfunction

  // ---------------------------------------------------------------- issue side (reads)
  wire [31:0] k32 = {16'd0, k_q};
  reg  [E-1:0]        ms_re, vs_re;
  reg  [E*MsAW-1:0]   ms_ra;
  reg  [E*VsAW-1:0]   vs_ra;
  reg                 rd_now;     // this cycle issues the last read of item k_q
  reg  [31:0]         vword;      // VS word address of the broadcast read
  reg                 vs_bc;      // this cycle reads that word
  integer jr;
  reg [31:0] rr, lr;
  always @* begin
    ms_re = {E{1'b0}}; vs_re = {E{1'b0}}; ms_ra = {E*MsAW{1'b0}}; vs_ra = {E*VsAW{1'b0}};
    rd_now = 1'b0; vword = 32'd0; lr = 32'd0; rr = 32'd0; vs_bc = 1'b0;
    if (issuing_q) begin
      case (kind_q)
        // vmm: line i of the block (plain), or the line of row (j - c) mod E in bank j (t)
        KVmm, KVmmT: if (stall_q == 16'd0) begin
          rd_now = 1'b1;
          vword = c_q + k32;
          vs_bc = !fl_q[1];
          for (jr = 0; jr < E; jr = jr + 1) begin
            rr = (jr - k32) & (E - 1);
            lr = (kind_q == KVmmT) ? b_q + rr + ((rr + k32) >> LE) : b_q + k32;
            ms_re[jr] = 1'b1;
            ms_ra[jr*MsAW +: MsAW] = lr[MsAW-1:0];
          end
        end
        KSwr: if (ph_q == 3'd0) begin
          rd_now = 1'b1;
          vword = b_q + k32;
          vs_bc = 1'b1;
          for (jr = 0; jr < E; jr = jr + 1) begin
            ms_re[jr] = 1'b1;
            lr = a_q + k32;
            ms_ra[jr*MsAW +: MsAW] = lr[MsAW-1:0];
          end
        end
        KEl: if (ph_q < el_nr) begin
          rd_now = (ph_q == el_nr - 3'd1);
          case (el_sel(ph_q))
            2'd0: lr = b_q + k32;
            2'd1: lr = c_q + k32;
            default: lr = d_q + k32;
          endcase
          for (jr = 0; jr < E; jr = jr + 1) begin
            vs_re[jr] = 1'b1;
            vs_ra[jr*VsAW +: VsAW] = lr[VsAW-1:0];
          end
        end
        KRfld: begin
          rd_now = 1'b1;
          for (jr = 0; jr < E; jr = jr + 1) begin
            vs_re[jr] = 1'b1;
            vs_ra[jr*VsAW +: VsAW] = b_q[VsAW-1:0];
          end
        end
        default: ;
      endcase
      // the word broadcast to every eMAC (vmm's vector, swr's weight): one bank of the line
      if (vs_bc) begin
        vs_re[vword[LE-1:0]] = 1'b1;
        lr = vword >> LE;
        vs_ra[vword[LE-1:0]*VsAW +: VsAW] = lr[VsAW-1:0];
      end
    end
  end

  // ---------------------------------------------------------------- compute side (eMACs)
  wire [31:0] vsw = vs_rdata_i[vbank_q*32 +: 32];   // the broadcast word read last cycle
  reg  [31:0] fa [0:E-1], fb [0:E-1], fc [0:E-1];
  wire [E*32-1:0]   fr;
  reg  [3*E*32-1:0] elv;                            // el operand values this cycle
  reg  [31:0] wv;                                   // swr weight this cycle
  integer jc;
  // el operand values: the latched ones, or the one arriving from the scratchpad this cycle
  integer qe, je;
  always @* begin
    for (qe = 0; qe < 3; qe = qe + 1)
      for (je = 0; je < E; je = je + 1)
        elv[(qe*E + je)*32 +: 32] = (rdv_q && kind_q == KEl && {30'd0, rdj_q} == qe) ?
                                    vs_rdata_i[je*32 +: 32] : opnd_q[(qe*E + je)*32 +: 32];
  end
  always @* begin
    wv = (cv_q && kind_q == KSwr && cph_q == 3'd1) ? vsw : w_q;
    for (jc = 0; jc < E; jc = jc + 1) begin
      fa[jc] = 32'd0; fb[jc] = 32'd0; fc[jc] = 32'd0;
      case (kind_q)
        KVmm: begin
          fa[jc] = ms_rdata_i[jc*32 +: 32];
          fb[jc] = fl_q[1] ? ms_rdata_i[jc*32 +: 32] : vsw;
          fc[jc] = acc_q[(jc)*32 +: 32];
        end
        KVmmT: begin
          fa[jc] = ms_rdata_i[jc*32 +: 32];
          fb[jc] = fl_q[1] ? ms_rdata_i[jc*32 +: 32] : vsw;
          fc[jc] = (ck_q == 16'd0) ? acc_q[(jc)*32 +: 32] : acc_q[((jc + E - 1) % E)*32 +: 32];
        end
        KSwr: begin
          if (cph_q == 3'd1) begin          // t = fma(-w, e, 1)
            fa[jc] = {~wv[31], wv[30:0]};
            fb[jc] = rf_flat[(jc*RfRegs + {28'd0, rc_q})*32 +: 32];
            fc[jc] = One;
          end else if (cph_q == 3'd2) begin // m = m * t
            fa[jc] = opnd_q[((0)*E + jc)*32 +: 32];
            fb[jc] = opnd_q[((1)*E + jc)*32 +: 32];
            fc[jc] = NegZero;
          end else begin                    // m = fma(w, a, m)
            fa[jc] = wv;
            fb[jc] = rf_flat[(jc*RfRegs + {28'd0, rd_q})*32 +: 32];
            fc[jc] = opnd_q[((0)*E + jc)*32 +: 32];
          end
        end
        default: begin                      // KEl
          fa[jc] = elv[((0)*E + jc)*32 +: 32];
          case (elop)
            2'd0: begin fb[jc] = One; fc[jc] = el_bs ? sc_q : elv[((1)*E + jc)*32 +: 32]; end
            2'd1: begin
              fb[jc] = One;
              fc[jc] = el_bs ? {~sc_q[31], sc_q[30:0]} : {~elv[((1)*E + jc)*32 + 31], elv[((1)*E + jc)*32 +: 31]};
            end
            2'd2: begin fb[jc] = el_bs ? sc_q : elv[((1)*E + jc)*32 +: 32]; fc[jc] = NegZero; end
            default: begin
              fb[jc] = el_bs ? sc_q : elv[((1)*E + jc)*32 +: 32];
              fc[jc] = el_cs ? sd_q : elv[((2)*E + jc)*32 +: 32];
            end
          endcase
        end
      endcase
    end
  end

  genvar gl;
  generate
    for (gl = 0; gl < E; gl = gl + 1) begin : gen_emac
      // combinational: one operation per cycle, no handshake; the tile keeps no flags
      wire       unused_rdy, unused_vld;
      wire [4:0] unused_flags;
      fp_fma #(.ExpW(8), .ManW(23), .Latency(0)) u_fma (
        .clk_i      (clk_i),
        .rst_ni     (rst_ni),
        .in_valid_i (1'b1),
        .in_ready_o (unused_rdy),
        .a_i        (fa[gl]),
        .b_i        (fb[gl]),
        .c_i        (fc[gl]),
        .rm_i       (3'd0),
        .out_valid_o(unused_vld),
        .out_ready_i(1'b1),
        .result_o   (fr[(gl)*32 +: 32]),
        .flags_o    (unused_flags)
      );
    end
  endgenerate

  // writes
  reg  [E-1:0]      ms_we, vs_we;
  reg  [E*MsAW-1:0] ms_wa;
  reg  [E*VsAW-1:0] vs_wa;
  reg  [E*32-1:0]   ms_wd, vs_wd;
  integer jw;
  reg [31:0] lw;
  always @* begin
    lw = 32'd0;
    ms_we = {E{1'b0}}; vs_we = {E{1'b0}}; ms_wa = {E*MsAW{1'b0}}; vs_wa = {E*VsAW{1'b0}};
    ms_wd = {E*32{1'b0}}; vs_wd = {E*32{1'b0}};
    if (cv_q && kind_q == KSwr && cph_q == 3'd0) begin
      for (jw = 0; jw < E; jw = jw + 1) begin
        lw = a_q + {16'd0, ck_q};
        ms_we[jw] = 1'b1;
        ms_wa[jw*MsAW +: MsAW] = lw[MsAW-1:0];
        ms_wd[jw*32 +: 32] = fr[(jw)*32 +: 32];
      end
    end
    if (cv_q && kind_q == KEl) begin
      for (jw = 0; jw < E; jw = jw + 1) begin
        lw = a_q + {16'd0, ck_q};
        vs_we[jw] = 1'b1;
        vs_wa[jw*VsAW +: VsAW] = lw[VsAW-1:0];
        vs_wd[jw*32 +: 32] = fr[(jw)*32 +: 32];
      end
    end
    if (busy_q && kind_q == KRfst) begin
      for (jw = 0; jw < E; jw = jw + 1) begin
        vs_we[jw] = 1'b1;
        vs_wa[jw*VsAW +: VsAW] = b_q[VsAW-1:0];
        vs_wd[jw*32 +: 32] = rf_flat[(jw*RfRegs + {28'd0, ra_q})*32 +: 32];
      end
    end
  end

  // ---------------------------------------------------------------- register files
  // one write port: rfz (zeros), rfld (the line read last cycle), the end of vmm (the
  // accumulators; vmm t rotated back by N - 1 lanes: the realigning shift)
  wire vmm_end = busy_q && (kind_q == KVmm || kind_q == KVmmT) && !issuing_q && !cv_q &&
                 stall_q == 16'd0;
  wire rf_we = busy_q && !start_i && (kind_q == KRfz || (kind_q == KRfld && !issuing_q) || vmm_end);
  reg [31:0] rf_wd [0:E-1];
  integer jf;
  always @* begin
    for (jf = 0; jf < E; jf = jf + 1) begin
      if (kind_q == KRfz) rf_wd[jf] = 32'd0;
      else if (kind_q == KRfld) rf_wd[jf] = vs_rdata_i[jf*32 +: 32];
      else if (kind_q == KVmm) rf_wd[jf] = acc_q[(jf)*32 +: 32];
      else rf_wd[jf] = acc_q[((jf + {16'd0, n_q} - 1) % E)*32 +: 32];
    end
  end
  genvar gj, gr;
  generate
    for (gj = 0; gj < E; gj = gj + 1) begin : gen_rf_lane
      for (gr = 0; gr < RfRegs; gr = gr + 1) begin : gen_rf_reg
        reg [31:0] rf_q;
        always @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) rf_q <= 32'd0;
          else if (rf_we && {28'd0, ra_q} == gr) rf_q <= rf_wd[gj];
        end
        assign rf_flat[(gj*RfRegs + gr)*32 +: 32] = rf_q;
      end
    end
  endgenerate

  // ---------------------------------------------------------------- sequencing
  // An item's compute happens the cycle after its last read (cv_q); swr then takes two more
  // phases (cph_q 1 -> 2 -> 0 with the write), overlapping the next row's read.
  wire last_item = (k_q + 16'd1 == n_q);
  integer t;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0; kind_q <= KVmm; fl_q <= 6'd0;
      a_q <= 32'd0; b_q <= 32'd0; c_q <= 32'd0; d_q <= 32'd0; sc_q <= 32'd0; sd_q <= 32'd0;
      n_q <= 16'd0; k_q <= 16'd0; ra_q <= 4'd0; rc_q <= 4'd0; rd_q <= 4'd0; ph_q <= 3'd0;
      issuing_q <= 1'b0; cv_q <= 1'b0; ck_q <= 16'd0; cph_q <= 3'd0; vbank_q <= {LE{1'b0}};
      rdj_q <= 2'd0; rdv_q <= 1'b0; done_q <= 1'b0; stall_q <= 16'd0;
      w_q <= 32'd0;
      acc_q <= {E*32{1'b0}};
      opnd_q <= {3*E*32{1'b0}};
    end else begin
      done_q <= 1'b0;
      rdv_q <= 1'b0;
      if (start_i) begin
        busy_q <= 1'b1;
        fl_q <= flags_i;
        a_q <= a_i; b_q <= b_i; c_q <= c_i; d_q <= d_i; sc_q <= sc_i; sd_q <= sd_i;
        n_q <= n_i; k_q <= 16'd0; ph_q <= 3'd0;
        ra_q <= ra_i; rc_q <= rc_i; rd_q <= rd_i;
        cv_q <= 1'b0; cph_q <= 3'd0; stall_q <= 16'd0;
        issuing_q <= 1'b1;
        case (op_i)
          OpVmm:  kind_q <= flags_i[0] ? KVmmT : KVmm;
          OpSwr:  kind_q <= KSwr;
          OpEl:   kind_q <= KEl;
          OpRfz:  kind_q <= KRfz;
          OpRfld: kind_q <= KRfld;
          default: kind_q <= KRfst;
        endcase
        if (op_i == OpVmm)
          for (t = 0; t < E; t = t + 1) acc_q[(t)*32 +: 32] <= rf_flat[(t*RfRegs + {28'd0, ra_i})*32 +: 32];
      end else if (busy_q) begin
        case (kind_q)
          KRfz: begin
            busy_q <= 1'b0; done_q <= 1'b1; issuing_q <= 1'b0;
          end
          KRfst: begin
            busy_q <= 1'b0; done_q <= 1'b1; issuing_q <= 1'b0;
          end
          KRfld: begin
            if (issuing_q) begin
              issuing_q <= 1'b0;
            end else begin
              busy_q <= 1'b0; done_q <= 1'b1;
            end
          end
          KVmm, KVmmT: begin
            // issue
            cv_q <= rd_now;
            if (rd_now) begin
              ck_q <= k_q;
              vbank_q <= vword[LE-1:0];
              k_q <= k_q + 16'd1;
              if (last_item) issuing_q <= 1'b0;
              if (kind_q == KVmmT) stall_q <= vt_steps - 16'd1;
            end else if (stall_q != 16'd0) begin
              stall_q <= stall_q - 16'd1;
            end
            // compute
            if (cv_q) begin
              for (t = 0; t < E; t = t + 1) acc_q[(t)*32 +: 32] <= fr[(t)*32 +: 32];
            end
            // finish: the last compute happened last cycle
            if (!issuing_q && !cv_q && stall_q == 16'd0) begin
              busy_q <= 1'b0; done_q <= 1'b1;
            end
          end
          KSwr: begin
            // issue a row every swr_p cycles: phase 0 reads
            if (issuing_q) begin
              if (ph_q == swr_p - 3'd1) begin
                ph_q <= 3'd0;
                k_q <= k_q + 16'd1;
                if (last_item) issuing_q <= 1'b0;
              end else begin
                ph_q <= ph_q + 3'd1;
              end
            end
            if (issuing_q && ph_q == 3'd0) begin
              cv_q <= 1'b1; ck_q <= k_q; cph_q <= 3'd1; vbank_q <= vword[LE-1:0];
            end else if (cv_q) begin
              case (cph_q)
                3'd1: begin
                  w_q <= wv;
                  for (t = 0; t < E; t = t + 1) begin
                    opnd_q[((0)*E + t)*32 +: 32] <= ms_rdata_i[t*32 +: 32];
                    opnd_q[((1)*E + t)*32 +: 32] <= fr[(t)*32 +: 32];
                  end
                  cph_q <= 3'd2;
                end
                3'd2: begin
                  for (t = 0; t < E; t = t + 1) opnd_q[((0)*E + t)*32 +: 32] <= fr[(t)*32 +: 32];
                  cph_q <= (swr_p == 3'd3) ? 3'd0 : 3'd3;
                end
                3'd3: cph_q <= 3'd4;
                3'd4: cph_q <= 3'd0;
                default: begin            // 0: the add and the write happened this cycle
                  cv_q <= 1'b0;
                  if (!issuing_q) begin busy_q <= 1'b0; done_q <= 1'b1; end
                end
              endcase
            end
          end
          default: begin                  // KEl
            if (issuing_q) begin
              if (ph_q < el_nr) begin
                rdv_q <= 1'b1;
                rdj_q <= el_sel(ph_q);
              end
              if (ph_q == el_p - 3'd1) begin
                ph_q <= 3'd0;
                k_q <= k_q + 16'd1;
                if (last_item) issuing_q <= 1'b0;
              end else begin
                ph_q <= ph_q + 3'd1;
              end
            end
            // latch arriving operands
            for (t = 0; t < E; t = t + 1) begin
              opnd_q[((0)*E + t)*32 +: 32] <= elv[((0)*E + t)*32 +: 32];
              opnd_q[((1)*E + t)*32 +: 32] <= elv[((1)*E + t)*32 +: 32];
              opnd_q[((2)*E + t)*32 +: 32] <= elv[((2)*E + t)*32 +: 32];
            end
            // an item completes its reads at phase el_p - 1: compute next cycle
            cv_q <= issuing_q && (ph_q == el_p - 3'd1);
            if (issuing_q && ph_q == el_p - 3'd1) ck_q <= k_q;
            if (cv_q && !issuing_q) begin busy_q <= 1'b0; done_q <= 1'b1; end
          end
        endcase
      end
    end
  end

  // address temporaries are cut to each memory's width; flags 5:4 are not defined for these
  // instructions (the control unit refuses them)
  wire unused_vex = ^{lr, lw, fl_q[5:4]};

  assign done_o     = done_q;
  assign ms_re_o    = ms_re;
  assign ms_raddr_o = ms_ra;
  assign ms_we_o    = ms_we;
  assign ms_waddr_o = ms_wa;
  assign ms_wdata_o = ms_wd;
  assign vs_re_o    = vs_re;
  assign vs_raddr_o = vs_ra;
  assign vs_we_o    = vs_we;
  assign vs_waddr_o = vs_wa;
  assign vs_wdata_o = vs_wd;

endmodule
