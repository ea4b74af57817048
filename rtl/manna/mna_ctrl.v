////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  mna_ctrl.v
//
// Purpose:   Instruction memory and control unit of a MANNA DiffMem tile (docs/manna.md): fetches
//            and decodes one 64-bit instruction at a time, runs the scalar registers, the
//            4-level hardware loop stack and the 8 address generators, checks every instruction
//            (OPCODE, FIELD, LOOP, ADDR, in that order) before it has any effect, applies the
//            hazard rule (an instruction waits while a pending transfer touches a half of MS or
//            VS that it touches), and issues:
//              dmat, dma                   to the transfer engines, which run in the background;
//              vmm, swr, el, rfz/ld/st     to the eMAC array (mna_vex), waiting for it;
//              sfu, sld, sst               to the SFU (mna_sfu), waiting for it;
//              reduce, bcast               to the collective unit (mna_coll), waiting for it.
//            A stop (halt or an error) waits for the transfer engines to go idle, then sets the
//            status that the host reads.
//
//            Pipeline: FETCH (IMEM read) -> DECODE (operand values: scalar registers, address
//            generators = base + stride * loop index) -> EXEC (checks, hazard wait, issue).
//
// Parameters:
//   Emacs, MbLines, MsLines, VbLines, VsLines, ImemDepth, RfRegs   the tile's (docs/manna.md)
//   *AW   address widths of the memories (lines), IAW of IMEM
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module mna_ctrl #(
  parameter integer Emacs     = 4,
  parameter integer MbLines   = 64,
  parameter integer MsLines   = 32,
  parameter integer VbLines   = 32,
  parameter integer VsLines   = 16,
  parameter integer ImemDepth = 256,
  parameter integer RfRegs    = 8,
  parameter integer IAW       = 8
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // host side
  input  wire            imem_re_i,       // host read of IMEM (tile stopped): imem_rdata_o next cycle
  output wire [63:0]     imem_rdata_o,
  input  wire            imem_we_i,
  input  wire [IAW-1:0]  imem_waddr_i,    // also the host's read address
  input  wire [63:0]     imem_wdata_i,
  input  wire            sreg_we_i,       // host write of a scalar register (tile stopped)
  input  wire [3:0]      sreg_addr_i,
  input  wire [31:0]     sreg_wdata_i,
  output wire [31:0]     sreg_rdata_o,    // combinational read at sreg_addr_i
  input  wire            start_i,         // START: pc = start_pc_i, status RUN
  input  wire [15:0]     start_pc_i,
  output wire [3:0]      status_o,
  output wire [15:0]     stop_pc_o,
  output wire [31:0]     insns_o,
  output wire            running_o,
  // issue to the units: the operand values of the instruction in EXEC
  output wire [5:0]      x_op_o,
  output wire [5:0]      x_flags_o,
  output wire [31:0]     x_a_o,           // address values of fields A..D (address generators)
  output wire [31:0]     x_b_o,
  output wire [31:0]     x_c_o,
  output wire [31:0]     x_d_o,
  output wire [31:0]     x_sc_o,          // scalar register values of fields C, D (el scalars)
  output wire [31:0]     x_sd_o,
  output wire [31:0]     x_stride_o,      // dmat: MB stride (field D's scalar register)
  output wire [15:0]     x_n_o,           // the count
  output wire [3:0]      x_ra_o,          // register fields A, C, D (RF registers)
  output wire [3:0]      x_rc_o,
  output wire [3:0]      x_rd_o,
  output wire [31:0]     x_sa_o,          // sst: scalar register A's value
  output wire            dmat_start_o,
  input  wire            dmat_busy_i,
  input  wire [1:0]      dmat_ms_halves_i,  // halves of MS the pending dmat touches
  output wire            dma_start_o,
  input  wire            dma_busy_i,
  input  wire [1:0]      dma_vs_halves_i,
  output wire            vex_start_o,
  input  wire            vex_done_i,
  output wire            sfu_start_o,
  input  wire            sfu_done_i,
  input  wire [31:0]     sfu_sld_i,       // sld's word, with sfu_done_i
  output wire            coll_start_o,
  input  wire            coll_done_i,
  input  wire [3:0]      coll_err_i,      // with coll_done_i: 0, COLL or TIMEOUT
  output wire [1:0]      x_ms_halves_o,   // halves the issued instruction touches (for engines)
  output wire [1:0]      x_vs_halves_o
);

  `include "mna_defs.vh"

  localparam integer LE  = $clog2(Emacs);
  // sizes in lines / words, wide for the range checks
  function [48:0] w49(input [31:0] x);   // zero-extend a size (a constant function)
    w49 = {17'd0, x};
  endfunction
  localparam [31:0] E32 = Emacs;
  localparam [48:0] MsL = w49(MsLines);
  localparam [48:0] MbL = w49(MbLines);
  localparam [48:0] VbL = w49(VbLines);
  localparam [48:0] VsL = w49(VsLines);
  localparam [48:0] E49 = w49(Emacs);
  localparam [48:0] VsW = VsL * E49;
  localparam [48:0] MsHalf = MsL >> 1;
  localparam [48:0] VsHalf = VsL >> 1;
  localparam [31:0] Imem32 = ImemDepth, Rf32 = RfRegs;

  // ---------------------------------------------------------------- state
  localparam [2:0] SIdle = 3'd0, SFetch = 3'd1, SDec = 3'd2, SExec = 3'd3, SWait = 3'd4,
                   SStop = 3'd5;
  reg [2:0]  st_q;
  reg [15:0] pc_q;
  reg        pc_hi_q;     // the PC is past 2^16 - 1 (a 32-bit jump target, or + 1 after 65535):
                          // always a PC error; pc_q holds its low 16 bits, as the status reports
  reg [3:0]  status_q, stop_code_q;
  reg [15:0] stop_pc_q;
  reg [31:0] insns_q;
  reg [31:0] sreg_q [1:15];
  // loop stack
  reg [2:0]  depth_q;
  reg [15:0] lp_cnt_q [0:3];
  reg [15:0] lp_idx_q [0:3];
  reg [15:0] lp_pc_q  [0:3];
  // address generators
  reg [31:0] ag_base_q [0:7];
  reg [31:0] ag_str_q  [0:7];
  reg [3:0]  ag_lvl_q  [0:7];

  // ---------------------------------------------------------------- instruction memory
  wire [63:0] iw;
  wire        pc_ok = !pc_hi_q && ({16'd0, pc_q} < Imem32);
  cc_sram_1r1w #(.Width(64), .Depth(ImemDepth)) u_imem (
    .clk_i  (clk_i),
    .we_i   (imem_we_i),
    .waddr_i(imem_waddr_i),
    .wdata_i(imem_wdata_i),
    .re_i   (st_q == SFetch || imem_re_i),
    .raddr_i(imem_re_i ? imem_waddr_i : pc_q[IAW-1:0]),
    .rdata_o(iw)
  );

  // ---------------------------------------------------------------- decode (DECODE stage)
  wire [3:0] d_fa = iw[57:54], d_fb = iw[53:50], d_fc = iw[49:46], d_fd = iw[45:42],
             d_ff = iw[41:38];

  function [31:0] sreg_val(input [3:0] r);
    sreg_val = (r == 4'd0) ? 32'd0 : sreg_q[r];
  endfunction
  function [15:0] lvl_idx(input [3:0] l);
    lvl_idx = (l < 4'd4 && {1'b0, l[2:0]} < {1'b0, depth_q}) ? lp_idx_q[l[1:0]] : 16'd0;
  endfunction
  function [31:0] ag_val(input [2:0] f);
    ag_val = ag_base_q[f] + ag_str_q[f] * {16'd0, lvl_idx(ag_lvl_q[f])};
  endfunction

  // registered operands of the instruction in EXEC
  reg [63:0] x_iw_q;
  reg [15:0] x_pc_q;
  reg [31:0] x_a_q, x_b_q, x_c_q, x_d_q;           // agen values
  reg [31:0] x_sa_q, x_sb_q, x_sc_q, x_sd_q, x_sf_q; // sreg values
  always @(posedge clk_i) begin
    if (st_q == SDec) begin
      x_iw_q <= iw;
      x_pc_q <= pc_q;
      x_a_q  <= ag_val(d_fa[2:0]);
      x_b_q  <= ag_val(d_fb[2:0]);
      x_c_q  <= ag_val(d_fc[2:0]);
      x_d_q  <= ag_val(d_fd[2:0]);
      x_sa_q <= sreg_val(d_fa);
      x_sb_q <= sreg_val(d_fb);
      x_sc_q <= sreg_val(d_fc);
      x_sd_q <= sreg_val(d_fd);
      x_sf_q <= sreg_val(d_ff);
    end
  end

  // ---------------------------------------------------------------- checks (EXEC stage)
  wire [5:0]  op  = x_iw_q[63:58];
  wire [3:0]  fa  = x_iw_q[57:54], fb = x_iw_q[53:50], fc = x_iw_q[49:46], fd = x_iw_q[45:42],
              ff  = x_iw_q[41:38];
  wire [5:0]  fl  = x_iw_q[37:32];
  wire [31:0] imm = x_iw_q[31:0];

  // which fields each opcode uses (1 = may be non-zero)
  reg        known, use_a, use_b, use_c, use_d, use_f, use_imm;
  reg [5:0]  fl_ok;
  reg        ag_a, ag_b, ag_c, ag_d;      // fields that name address generators
  reg        rf_a, rf_c, rf_d;            // fields that name RF registers
  reg [31:0] cnt_v;                       // the count operand's value
  reg        has_cnt;
  always @* begin
    known = 1'b1; use_a = 1'b0; use_b = 1'b0; use_c = 1'b0; use_d = 1'b0; use_f = 1'b0;
    use_imm = 1'b0; fl_ok = 6'd0; ag_a = 1'b0; ag_b = 1'b0; ag_c = 1'b0; ag_d = 1'b0;
    rf_a = 1'b0; rf_c = 1'b0; rf_d = 1'b0; cnt_v = 32'd0; has_cnt = 1'b0;
    case (op)
      OpNop, OpHalt, OpEndloop: ;
      OpLi:   begin use_a = 1'b1; use_imm = 1'b1; end
      OpAddi: begin use_a = 1'b1; use_b = 1'b1; use_imm = 1'b1; end
      OpLoop: begin use_a = 1'b1; use_imm = 1'b1; cnt_v = x_sa_q; has_cnt = 1'b1; end
      OpAgen: begin use_a = 1'b1; use_b = 1'b1; use_c = 1'b1; use_d = 1'b1; ag_a = 1'b1; end
      OpDmat: begin
        use_a = 1'b1; use_b = 1'b1; use_c = 1'b1; use_d = 1'b1; fl_ok = 6'h03;
        ag_a = 1'b1; ag_b = 1'b1; cnt_v = x_sc_q; has_cnt = 1'b1;
      end
      OpDma: begin
        use_a = 1'b1; use_b = 1'b1; use_c = 1'b1; fl_ok = 6'h02; ag_a = 1'b1; ag_b = 1'b1;
        cnt_v = x_sc_q; has_cnt = 1'b1;
      end
      OpVmm: begin
        use_a = 1'b1; use_b = 1'b1; use_c = 1'b1; use_d = 1'b1; fl_ok = 6'h03;
        rf_a = 1'b1; ag_b = 1'b1; ag_c = 1'b1; cnt_v = x_sd_q; has_cnt = 1'b1;
      end
      OpSwr: begin
        use_a = 1'b1; use_b = 1'b1; use_c = 1'b1; use_d = 1'b1; use_f = 1'b1;
        ag_a = 1'b1; ag_b = 1'b1; rf_c = 1'b1; rf_d = 1'b1; cnt_v = x_sf_q; has_cnt = 1'b1;
      end
      OpEl: begin
        use_a = 1'b1; use_b = 1'b1; use_c = 1'b1; use_f = 1'b1; ag_a = 1'b1; ag_b = 1'b1;
        ag_c = !fl[2];
        use_d = (fl[1:0] == 2'd3);
        ag_d = (fl[1:0] == 2'd3) && !fl[3];
        fl_ok = (fl[1:0] == 2'd3) ? 6'h0F : 6'h07;
        cnt_v = x_sf_q; has_cnt = 1'b1;
      end
      OpRfz:  begin use_a = 1'b1; rf_a = 1'b1; end
      OpRfld, OpRfst: begin use_a = 1'b1; use_b = 1'b1; rf_a = 1'b1; ag_b = 1'b1; end
      OpSfu: begin
        use_a = 1'b1; use_b = 1'b1; use_c = (fl[2:0] == 3'd6); use_d = 1'b1; fl_ok = 6'h07;
        ag_a = 1'b1; ag_b = 1'b1; ag_c = (fl[2:0] == 3'd6); cnt_v = x_sd_q; has_cnt = 1'b1;
      end
      OpSld, OpSst: begin use_a = 1'b1; use_b = 1'b1; ag_b = 1'b1; end
      OpReduce, OpBcast: begin
        use_a = 1'b1; use_b = 1'b1; ag_a = 1'b1; cnt_v = x_sb_q; has_cnt = 1'b1;
      end
      default: known = 1'b0;
    endcase
  end

  wire [15:0] n = cnt_v[15:0];
  wire field_bad =
      (!use_a && fa != 4'd0) || (!use_b && fb != 4'd0) || (!use_c && fc != 4'd0) ||
      (!use_d && fd != 4'd0) || (!use_f && ff != 4'd0) || (!use_imm && imm != 32'd0) ||
      ((fl & ~fl_ok) != 6'd0) ||
      (ag_a && fa[3]) || (ag_b && fb[3]) || (ag_c && fc[3]) || (ag_d && fd[3]) ||
      (rf_a && {28'd0, fa} >= Rf32) || (rf_c && {28'd0, fc} >= Rf32) ||
      (rf_d && {28'd0, fd} >= Rf32) ||
      (has_cnt && cnt_v > 32'd65535) ||
      (op == OpVmm && fl[0] && {16'd0, n} > E32) ||
      (op == OpSfu && fl[2:0] == 3'd7);
  wire loop_bad = (op == OpLoop && depth_q == 3'd4) ||
                  (op == OpEndloop && depth_q == 3'd0);

  // address ranges: [lo, hi] of each operand in lines (or words for VS word operands)
  wire [48:0] a49 = {17'd0, x_a_q}, b49 = {17'd0, x_b_q}, c49 = {17'd0, x_c_q},
              d49 = {17'd0, x_d_q};
  wire [48:0] n49 = {33'd0, n};
  wire [48:0] nm1 = n49 - 49'd1;
  // dmat: MS lines touched (plain / padded), MB lines
  wire [48:0] dm_ms_hi = fl[0] ? a49 + ((nm1 * (E49 + 49'd1) + (E49 - 49'd1)) >> LE) : a49 + nm1;
  wire [48:0] dm_mb_hi = b49 + nm1 * {17'd0, x_sd_q};
  // vmm: MS lines, VS words
  wire [48:0] vm_ms_hi = fl[0] ? b49 + (E49 - 49'd1) + ((E49 + n49 - 49'd2) >> LE) : b49 + nm1;
  reg addr_bad;
  reg [48:0] ms_lo, ms_hi, vs_lo, vs_hi;   // line ranges for the hazard check
  reg        ms_use, vs_use;
  always @* begin
    addr_bad = 1'b0; ms_use = 1'b0; vs_use = 1'b0;
    ms_lo = 49'd0; ms_hi = 49'd0; vs_lo = 49'd0; vs_hi = 49'd0;
    if (n != 16'd0 || !has_cnt) begin
      case (op)
        OpDmat: begin
          addr_bad = (dm_ms_hi >= MsL) || (dm_mb_hi >= MbL);
          ms_use = 1'b1; ms_lo = a49; ms_hi = dm_ms_hi;
        end
        OpDma: begin
          addr_bad = (a49 + nm1 >= VsL) || (b49 + nm1 >= VbL);
          vs_use = 1'b1; vs_lo = a49; vs_hi = a49 + nm1;
        end
        OpVmm: begin
          // sq reads no Vector-Scratchpad word: its VS operand is not checked
          addr_bad = (vm_ms_hi >= MsL) || (!fl[1] && c49 + nm1 >= VsW);
          ms_use = 1'b1; ms_lo = b49; ms_hi = vm_ms_hi;
          vs_use = !fl[1]; vs_lo = c49 >> LE; vs_hi = (c49 + nm1) >> LE;
        end
        OpSwr: begin
          addr_bad = (a49 + nm1 >= MsL) || (b49 + nm1 >= VsW);
          ms_use = 1'b1; ms_lo = a49; ms_hi = a49 + nm1;
          vs_use = 1'b1; vs_lo = b49 >> LE; vs_hi = (b49 + nm1) >> LE;
        end
        OpEl: begin
          addr_bad = (a49 + nm1 >= VsL) || (b49 + nm1 >= VsL) ||
                     (!fl[2] && c49 + nm1 >= VsL) ||
                     (fl[1:0] == 2'd3 && !fl[3] && d49 + nm1 >= VsL);
          vs_use = 1'b1; vs_lo = 49'd0; vs_hi = VsL - 49'd1;   // conservatively both halves
        end
        OpRfld, OpRfst: begin
          addr_bad = (b49 >= VsL);
          vs_use = 1'b1; vs_lo = b49; vs_hi = b49;
        end
        OpSfu: begin
          addr_bad = ((fl[2:0] == 3'd5 || fl[2:0] == 3'd6) ? (a49 >= VsW) : (a49 + nm1 >= VsW)) ||
                     (b49 + nm1 >= VsW) || (fl[2:0] == 3'd6 && c49 + nm1 >= VsW);
          vs_use = 1'b1; vs_lo = 49'd0; vs_hi = VsL - 49'd1;
        end
        OpSld, OpSst: begin
          addr_bad = (b49 >= VsW);
          vs_use = 1'b1; vs_lo = b49 >> LE; vs_hi = b49 >> LE;
        end
        OpReduce, OpBcast: begin
          addr_bad = (a49 + nm1 >= VsL);
          vs_use = 1'b1; vs_lo = a49; vs_hi = a49 + nm1;
        end
        default: ;
      endcase
    end
  end
  wire [1:0] ms_halves = ms_use ? {ms_hi >= MsHalf, ms_lo < MsHalf} : 2'b00;
  wire [1:0] vs_halves = vs_use ? {vs_hi >= VsHalf, vs_lo < VsHalf} : 2'b00;
  // a count of 0 does nothing (a collective of 0 lines is still a fence)
  wire       zero_cnt  = has_cnt && n == 16'd0 && op != OpLoop && op != OpReduce && op != OpBcast;
  wire [3:0] err_code  = !known ? StOpcode : field_bad ? StField : loop_bad ? StLoop :
                         addr_bad ? StAddr : 4'd0;

  // hazards: pending transfers on the halves this instruction touches; a transfer waits for
  // its engine
  wire is_dmat = (op == OpDmat), is_dma = (op == OpDma);
  wire hazard = !zero_cnt && (
      ((ms_halves & dmat_ms_halves_i) != 2'b00 && dmat_busy_i && !is_dmat) ||
      ((vs_halves & dma_vs_halves_i) != 2'b00 && dma_busy_i && !is_dma) ||
      (is_dmat && dmat_busy_i) || (is_dma && dma_busy_i));

  wire is_vex  = (op == OpVmm || op == OpSwr || op == OpEl || op == OpRfz || op == OpRfld ||
                  op == OpRfst);
  wire is_sfu  = (op == OpSfu || op == OpSld || op == OpSst);
  wire is_coll = (op == OpReduce || op == OpBcast);
  wire issue   = (st_q == SExec) && err_code == 4'd0 && !hazard && !zero_cnt;

  assign dmat_start_o = issue && is_dmat;
  assign dma_start_o  = issue && is_dma;
  assign vex_start_o  = issue && is_vex;
  assign sfu_start_o  = issue && is_sfu;
  assign coll_start_o = issue && is_coll;

  assign x_op_o = op;
  assign x_flags_o = fl;
  assign x_a_o = x_a_q;
  assign x_b_o = x_b_q;
  assign x_c_o = x_c_q;
  assign x_d_o = x_d_q;
  assign x_sc_o = x_sc_q;
  assign x_sd_o = x_sd_q;
  assign x_sa_o = x_sa_q;
  assign x_stride_o = x_sd_q;
  assign x_n_o = n;
  assign x_ra_o = fa;
  assign x_rc_o = fc;
  assign x_rd_o = fd;
  assign x_ms_halves_o = ms_halves;
  assign x_vs_halves_o = vs_halves;

  // ---------------------------------------------------------------- sequencing
  wire engines_idle = !dmat_busy_i && !dma_busy_i;
  wire [15:0] pc_next = x_pc_q + 16'd1;
  integer i;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SIdle;
      pc_q <= 16'd0;
      pc_hi_q <= 1'b0;
      status_q <= StIdle;
      stop_code_q <= StIdle;
      stop_pc_q <= 16'd0;
      insns_q <= 32'd0;
      depth_q <= 3'd0;
      for (i = 1; i < 16; i = i + 1) sreg_q[i] <= 32'd0;
      for (i = 0; i < 4; i = i + 1) begin
        lp_cnt_q[i] <= 16'd0;
        lp_idx_q[i] <= 16'd0;
        lp_pc_q[i] <= 16'd0;
      end
      for (i = 0; i < 8; i = i + 1) begin
        ag_base_q[i] <= 32'd0;
        ag_str_q[i] <= 32'd0;
        ag_lvl_q[i] <= 4'd0;
      end
    end else begin
      if (sreg_we_i && sreg_addr_i != 4'd0) sreg_q[sreg_addr_i] <= sreg_wdata_i;
      case (st_q)
        SIdle: ;
        SFetch: begin
          if (!pc_ok) begin
            stop_code_q <= StPc;
            stop_pc_q <= pc_q;
            st_q <= SStop;
          end else begin
            st_q <= SDec;
          end
        end
        SDec: st_q <= SExec;
        SExec: begin
          if (err_code != 4'd0) begin
            stop_code_q <= err_code;
            stop_pc_q <= x_pc_q;
            st_q <= SStop;
          end else if (!hazard) begin
            pc_q <= pc_next;
            pc_hi_q <= (x_pc_q == 16'hFFFF);
            st_q <= SFetch;
            if (!(is_vex || is_sfu || is_coll) || zero_cnt) insns_q <= insns_q + 32'd1;
            if (!zero_cnt && (is_vex || is_sfu || is_coll)) st_q <= SWait;
            case (op)
              OpHalt: begin
                stop_code_q <= StDone;
                stop_pc_q <= x_pc_q;
                st_q <= SStop;
              end
              OpLi:   if (fa != 4'd0) sreg_q[fa] <= imm;
              OpAddi: if (fa != 4'd0) sreg_q[fa] <= x_sb_q + imm;
              OpLoop: begin
                if (n == 16'd0) begin
                  pc_q <= imm[15:0];
                  pc_hi_q <= |imm[31:16];
                end else begin
                  lp_cnt_q[depth_q[1:0]] <= n;
                  lp_idx_q[depth_q[1:0]] <= 16'd0;
                  lp_pc_q[depth_q[1:0]] <= pc_next;
                  depth_q <= depth_q + 3'd1;
                end
              end
              OpEndloop: begin
                if (lp_idx_q[depth_q[1:0] - 2'd1] + 16'd1 < lp_cnt_q[depth_q[1:0] - 2'd1]) begin
                  lp_idx_q[depth_q[1:0] - 2'd1] <= lp_idx_q[depth_q[1:0] - 2'd1] + 16'd1;
                  pc_q <= lp_pc_q[depth_q[1:0] - 2'd1];
                  pc_hi_q <= 1'b0;
                end else begin
                  depth_q <= depth_q - 3'd1;
                end
              end
              OpAgen: begin
                ag_base_q[fa[2:0]] <= x_sc_q;
                ag_str_q[fa[2:0]] <= x_sd_q;
                ag_lvl_q[fa[2:0]] <= fb;
              end
              default: ;
            endcase
          end
        end
        SWait: begin
          if (vex_done_i || sfu_done_i) begin
            insns_q <= insns_q + 32'd1;
            st_q <= SFetch;
            if (op == OpSld && fa != 4'd0) sreg_q[fa] <= sfu_sld_i;
          end else if (coll_done_i) begin
            if (coll_err_i != 4'd0) begin
              stop_code_q <= coll_err_i;
              stop_pc_q <= x_pc_q;
              st_q <= SStop;
            end else begin
              insns_q <= insns_q + 32'd1;
              st_q <= SFetch;
            end
          end
        end
        SStop: begin
          if (engines_idle) begin
            status_q <= stop_code_q;
            st_q <= SIdle;
          end
        end
        default: st_q <= SIdle;
      endcase
      if (start_i) begin
        st_q <= SFetch;
        pc_q <= start_pc_i;
        pc_hi_q <= 1'b0;
        status_q <= StRun;
        insns_q <= 32'd0;
        depth_q <= 3'd0;
        for (i = 0; i < 8; i = i + 1) begin
          ag_base_q[i] <= 32'd0;
          ag_str_q[i] <= 32'd0;
          ag_lvl_q[i] <= 4'd0;
        end
      end
    end
  end

  assign imem_rdata_o = iw;
  assign status_o     = status_q;
  assign stop_pc_o    = stop_pc_q;
  assign insns_o      = insns_q;
  assign running_o    = (status_q == StRun);
  assign sreg_rdata_o = sreg_val(sreg_addr_i);

endmodule
