////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  regs_tb.v
//
// Purpose:   Icarus testbench of a generated register file (scripts/gen_regs.py): it drives
//            neummu_regs, whose map has every field kind, through the register bus of
//            docs/axi_shell.md and checks the register semantics: reset values, rw fields with
//            byte strobes, SLVERR (reg_err_o) on an unmapped address and on a write to a
//            read-only register (no side effect), singlepulse fields (one-cycle pulse, read as 0),
//            woclr + hwset fields (set wins over a clear in the same cycle), hardware-written
//            fields read back as driven, constants (ID). A second instance with AddrW = 9 checks
//            that address bits above the map must be zero. Run by tests/test_regs_gen.py; the last
//            line is 'N passed, N failed'.
//
//            Bus timing: inputs change at the falling edge, reg_rdata_o/reg_err_o are sampled
//            1 time unit later (combinational), writes take effect at the rising edge.
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module regs_tb;

  // Offsets of neummu_regs (rtl/neummu/neummu_regs.rdl)
  localparam [8:0] AId = 9'h000, ACtrl = 9'h004, AStatus = 9'h008, AErrCode = 9'h00C;
  localparam [8:0] AIntrStatus = 9'h010, AIntrEnable = 9'h014, AIntrTest = 9'h018;
  localparam [8:0] ACycBusy = 9'h020, ACycStall = 9'h024, ARdBursts = 9'h028;
  localparam [8:0] AWrBursts = 9'h02C, ACfg = 9'h040, ARootLo = 9'h044, ARootHi = 9'h048;
  localparam [8:0] AInvLo = 9'h04C, AInvHi = 9'h050, AInv = 9'h054, AEnable = 9'h058;
  localparam [8:0] AHits = 9'h05C, AWalks = 9'h060, AMerges = 9'h064, AReads = 9'h068;
  localparam [8:0] ATpL4 = 9'h06C, ATpL3 = 9'h070, ATpL2 = 9'h074, AFaults = 9'h078;
  localparam [8:0] AHwcfg = 9'h07C;
  // the accounting counters: STALL_RSP .. DUP_WALKS, LAT_PIPE_LO .. LAT_OUT_HI, 17 words
  localparam [8:0] AAcct = 9'h080, AAfterMap = 9'h0C4;
  localparam integer NAcct = 17;
  localparam [31:0] IdValue = 32'h0001_4E33;

  reg         clk = 1'b0;
  reg         rst_n = 1'b0;
  reg         we = 1'b0;
  reg         re = 1'b0;
  reg  [8:0]  addr = 9'h0;
  reg  [31:0] wdata = 32'h0;
  reg  [3:0]  wstrb = 4'h0;
  wire [31:0] rdata;
  wire        err;
  wire [31:0] rdata9;
  wire        err9;

  // hardware-written inputs
  reg         st_busy = 1'b0, st_done = 1'b0, st_error = 1'b0;
  reg  [7:0]  ec_code = 8'h0;
  reg  [1:0]  ec_resp = 2'h0;
  reg         is_done_set = 1'b0, is_error_set = 1'b0;
  reg  [31:0] cyc_busy = 32'h0, cyc_stall = 32'h0, rd_bursts = 32'h0, wr_bursts = 32'h0;
  reg  [31:0] hits = 32'h0, walks = 32'h0, merges = 32'h0, reads = 32'h0;
  reg  [31:0] tp_l4 = 32'h0, tp_l3 = 32'h0, tp_l2 = 32'h0, faults = 32'h0;
  reg  [7:0]  hw_walkers = 8'h0, hw_slots = 8'h0;
  reg  [15:0] hw_tlb = 16'h0;
  reg  [NAcct*32-1:0] acct = {NAcct*32{1'b0}};

  // outputs
  wire        ctrl_start, ctrl_clear, is_done, is_error, ie_done, ie_error, it_done, it_error;
  wire [7:0]  cfg_walkers, cfg_slots;
  wire        cfg_tpreg;
  wire [31:0] root_lo, inv_lo;
  wire [7:0]  root_hi;
  wire [15:0] inv_hi;
  wire        inv_all, inv_page, enable;
  // every output of the register file (the "side effects")
  wire [115:0] outs = {ctrl_start, ctrl_clear, is_done, is_error, ie_done, ie_error, it_done,
                       it_error, cfg_walkers, cfg_slots, cfg_tpreg, root_lo, root_hi, inv_lo,
                       inv_hi, inv_all, inv_page, enable};

  always #5 clk = ~clk;

  neummu_regs u_dut (
    .clk_i(clk), .rst_ni(rst_n),
    .reg_we_i(we), .reg_re_i(re), .reg_addr_i(addr[7:0]), .reg_wdata_i(wdata),
    .reg_wstrb_i(wstrb), .reg_rdata_o(rdata), .reg_err_o(err),
    .ctrl_start_o(ctrl_start), .ctrl_clear_o(ctrl_clear),
    .status_busy_i(st_busy), .status_done_i(st_done), .status_error_i(st_error),
    .err_code_code_i(ec_code), .err_code_resp_i(ec_resp),
    .intr_status_done_set_i(is_done_set), .intr_status_done_o(is_done),
    .intr_status_error_set_i(is_error_set), .intr_status_error_o(is_error),
    .intr_enable_done_o(ie_done), .intr_enable_error_o(ie_error),
    .intr_test_done_o(it_done), .intr_test_error_o(it_error),
    .cyc_busy_val_i(cyc_busy), .cyc_stall_val_i(cyc_stall), .rd_bursts_val_i(rd_bursts),
    .wr_bursts_val_i(wr_bursts),
    .cfg_walkers_o(cfg_walkers), .cfg_slots_o(cfg_slots), .cfg_tpreg_o(cfg_tpreg),
    .root_ppn_lo_val_o(root_lo), .root_ppn_hi_val_o(root_hi),
    .inv_va_lo_val_o(inv_lo), .inv_va_hi_val_o(inv_hi),
    .inv_all_o(inv_all), .inv_page_o(inv_page), .enable_val_o(enable),
    .hits_val_i(hits), .walks_val_i(walks), .merges_val_i(merges), .reads_val_i(reads),
    .tp_l4_val_i(tp_l4), .tp_l3_val_i(tp_l3), .tp_l2_val_i(tp_l2), .faults_val_i(faults),
    .stall_rsp_val_i(acct[0*32 +: 32]), .stall_down_val_i(acct[1*32 +: 32]),
    .stall_prmb_val_i(acct[2*32 +: 32]), .stall_walk_val_i(acct[3*32 +: 32]),
    .dup_walks_val_i(acct[4*32 +: 32]),
    .lat_pipe_lo_val_i(acct[5*32 +: 32]), .lat_pipe_hi_val_i(acct[6*32 +: 32]),
    .lat_hol_lo_val_i(acct[7*32 +: 32]), .lat_hol_hi_val_i(acct[8*32 +: 32]),
    .lat_port_lo_val_i(acct[9*32 +: 32]), .lat_port_hi_val_i(acct[10*32 +: 32]),
    .lat_mem_lo_val_i(acct[11*32 +: 32]), .lat_mem_hi_val_i(acct[12*32 +: 32]),
    .lat_ans_lo_val_i(acct[13*32 +: 32]), .lat_ans_hi_val_i(acct[14*32 +: 32]),
    .lat_out_lo_val_i(acct[15*32 +: 32]), .lat_out_hi_val_i(acct[16*32 +: 32]),
    .hwcfg_walkers_i(hw_walkers), .hwcfg_slots_i(hw_slots), .hwcfg_tlb_entries_i(hw_tlb)
  );

  // The same map with two extra address bits; same accesses, outputs left open except the bus.
  neummu_regs #(.AddrW(9)) u_dut9 (
    .clk_i(clk), .rst_ni(rst_n),
    .reg_we_i(we), .reg_re_i(re), .reg_addr_i(addr), .reg_wdata_i(wdata),
    .reg_wstrb_i(wstrb), .reg_rdata_o(rdata9), .reg_err_o(err9),
    .ctrl_start_o(), .ctrl_clear_o(),
    .status_busy_i(st_busy), .status_done_i(st_done), .status_error_i(st_error),
    .err_code_code_i(ec_code), .err_code_resp_i(ec_resp),
    .intr_status_done_set_i(is_done_set), .intr_status_done_o(),
    .intr_status_error_set_i(is_error_set), .intr_status_error_o(),
    .intr_enable_done_o(), .intr_enable_error_o(),
    .intr_test_done_o(), .intr_test_error_o(),
    .cyc_busy_val_i(cyc_busy), .cyc_stall_val_i(cyc_stall), .rd_bursts_val_i(rd_bursts),
    .wr_bursts_val_i(wr_bursts),
    .cfg_walkers_o(), .cfg_slots_o(), .cfg_tpreg_o(),
    .root_ppn_lo_val_o(), .root_ppn_hi_val_o(),
    .inv_va_lo_val_o(), .inv_va_hi_val_o(),
    .inv_all_o(), .inv_page_o(), .enable_val_o(),
    .hits_val_i(hits), .walks_val_i(walks), .merges_val_i(merges), .reads_val_i(reads),
    .tp_l4_val_i(tp_l4), .tp_l3_val_i(tp_l3), .tp_l2_val_i(tp_l2), .faults_val_i(faults),
    .stall_rsp_val_i(acct[0*32 +: 32]), .stall_down_val_i(acct[1*32 +: 32]),
    .stall_prmb_val_i(acct[2*32 +: 32]), .stall_walk_val_i(acct[3*32 +: 32]),
    .dup_walks_val_i(acct[4*32 +: 32]),
    .lat_pipe_lo_val_i(acct[5*32 +: 32]), .lat_pipe_hi_val_i(acct[6*32 +: 32]),
    .lat_hol_lo_val_i(acct[7*32 +: 32]), .lat_hol_hi_val_i(acct[8*32 +: 32]),
    .lat_port_lo_val_i(acct[9*32 +: 32]), .lat_port_hi_val_i(acct[10*32 +: 32]),
    .lat_mem_lo_val_i(acct[11*32 +: 32]), .lat_mem_hi_val_i(acct[12*32 +: 32]),
    .lat_ans_lo_val_i(acct[13*32 +: 32]), .lat_ans_hi_val_i(acct[14*32 +: 32]),
    .lat_out_lo_val_i(acct[15*32 +: 32]), .lat_out_hi_val_i(acct[16*32 +: 32]),
    .hwcfg_walkers_i(hw_walkers), .hwcfg_slots_i(hw_slots), .hwcfg_tlb_entries_i(hw_tlb)
  );

  integer npass = 0;
  integer nfail = 0;
  integer k;
  reg [115:0] snap;

  task chk(input ok, input [8*44-1:0] what, input [31:0] got, input [31:0] exp);
    begin
      if (ok) begin
        npass = npass + 1;
      end else begin
        nfail = nfail + 1;
        if (nfail <= 20) $display("FAIL %0s: got %h expected %h", what, got, exp);
      end
    end
  endtask

  // One write; returns at the falling edge after the write edge (the cycle a pulse is high).
  task wr(input [8:0] a, input [31:0] d, input [3:0] s, input exp_err);
    begin
      @(negedge clk);
      addr = a; wdata = d; wstrb = s; we = 1'b1;
      #1;
      chk(err === exp_err, "write: reg_err_o", {31'h0, err}, {31'h0, exp_err});
      if (a[8] == 1'b0)
        chk(err9 === exp_err, "write: reg_err_o (AddrW=9)", {31'h0, err9}, {31'h0, exp_err});
      @(negedge clk);
      we = 1'b0; wdata = 32'h0; wstrb = 4'h0;
    end
  endtask

  // One read, checks reg_rdata_o and reg_err_o.
  task rd(input [8:0] a, input [31:0] exp, input exp_err);
    begin
      @(negedge clk);
      addr = a; re = 1'b1;
      #1;
      chk(rdata === exp, "read: reg_rdata_o", rdata, exp);
      chk(err === exp_err, "read: reg_err_o", {31'h0, err}, {31'h0, exp_err});
      chk(rdata9 === rdata && err9 === err, "read: AddrW=9 instance agrees", rdata9, rdata);
      @(negedge clk);
      re = 1'b0;
    end
  endtask

  // A refused write: SLVERR, and no output of the register file changes (also no pulse).
  task wr_refused(input [8:0] a);
    begin
      snap = outs;
      wr(a, 32'hFFFF_FFFF, 4'hF, 1'b1);
      chk(outs === snap, "refused write: outputs unchanged", 32'h0, 32'h0);
      @(negedge clk);
      chk(outs === snap, "refused write: outputs unchanged later", 32'h0, 32'h0);
    end
  endtask

  initial begin
    // ------------------------------------------------------------ reset values
    hw_walkers = 8'h04; hw_slots = 8'h08; hw_tlb = 16'h0040;
    repeat (3) @(negedge clk);
    chk(outs === {16'h0, 8'hFF, 1'b1, 91'h0},
        "outputs in reset (only CFG.SLOTS = 0xFF, CFG.TPREG = 1)", 32'h0, 32'h0);
    rst_n = 1'b1;
    chk(err === 1'b0, "no access: no error", {31'h0, err}, 32'h0);
    rd(AId, IdValue, 1'b0);
    rd(ACfg, 32'h0001_FF00, 1'b0);
    rd(AIntrStatus, 32'h0, 1'b0);
    rd(AIntrEnable, 32'h0, 1'b0);
    rd(ARootLo, 32'h0, 1'b0);
    rd(ARootHi, 32'h0, 1'b0);
    rd(AInvLo, 32'h0, 1'b0);
    rd(AInvHi, 32'h0, 1'b0);
    rd(AEnable, 32'h0, 1'b0);
    rd(AStatus, 32'h0, 1'b0);

    // ------------------------------------------------------------ constants
    wr_refused(AId);
    rd(AId, IdValue, 1'b0);

    // ------------------------------------------------------------ rw with byte strobes
    wr(ARootLo, 32'h1234_5678, 4'hF, 1'b0);
    rd(ARootLo, 32'h1234_5678, 1'b0);
    chk(root_lo === 32'h1234_5678, "ROOT_PPN_LO output", root_lo, 32'h1234_5678);
    wr(ARootLo, 32'hAABB_CCDD, 4'b1010, 1'b0);
    rd(ARootLo, 32'hAA34_CC78, 1'b0);
    wr(ARootLo, 32'h0, 4'h0, 1'b0);
    rd(ARootLo, 32'hAA34_CC78, 1'b0);
    wr(ARootLo, 32'h0, 4'b0001, 1'b0);
    rd(ARootLo, 32'hAA34_CC00, 1'b0);
    wr(ACfg, 32'hFFFF_FFFF, 4'b0001, 1'b0);
    rd(ACfg, 32'h0001_FFFF, 1'b0);
    wr(ACfg, 32'h0, 4'b0100, 1'b0);
    rd(ACfg, 32'h0000_FFFF, 1'b0);
    wr(ACfg, 32'hFFFF_FFFF, 4'b1000, 1'b0);
    rd(ACfg, 32'h0000_FFFF, 1'b0);
    wr(ACfg, 32'hFFFF_FFFF, 4'hF, 1'b0);
    rd(ACfg, 32'h0001_FFFF, 1'b0);
    chk({cfg_tpreg, cfg_slots, cfg_walkers} === 17'h1FFFF, "CFG outputs",
        {15'h0, cfg_tpreg, cfg_slots, cfg_walkers}, 32'h0001_FFFF);
    wr(ACfg, 32'h0000_0302, 4'hF, 1'b0);
    chk({cfg_tpreg, cfg_slots, cfg_walkers} === 17'h00302, "CFG outputs",
        {15'h0, cfg_tpreg, cfg_slots, cfg_walkers}, 32'h0000_0302);
    wr(ARootHi, 32'hFFFF_FFFF, 4'hF, 1'b0);
    rd(ARootHi, 32'h0000_00FF, 1'b0);
    wr(AInvLo, 32'hDEAD_BEEF, 4'hF, 1'b0);
    rd(AInvLo, 32'hDEAD_BEEF, 1'b0);
    wr(AInvHi, 32'hFFFF_FFFF, 4'b0010, 1'b0);
    rd(AInvHi, 32'h0000_FF00, 1'b0);
    chk(inv_hi === 16'hFF00, "INV_VA_HI output", {16'h0, inv_hi}, 32'h0000_FF00);
    wr(AEnable, 32'hFFFF_FFFF, 4'hF, 1'b0);
    rd(AEnable, 32'h1, 1'b0);
    chk(enable === 1'b1, "ENABLE output", {31'h0, enable}, 32'h1);
    wr(AIntrEnable, 32'h2, 4'hF, 1'b0);
    rd(AIntrEnable, 32'h2, 1'b0);
    chk({ie_error, ie_done} === 2'b10, "INTR_ENABLE outputs", {30'h0, ie_error, ie_done}, 32'h2);

    // ------------------------------------------------------------ SLVERR, no side effect
    rd(9'h01C, 32'h0, 1'b1);
    rd(9'h030, 32'h0, 1'b1);
    rd(9'h03C, 32'h0, 1'b1);
    rd(AAfterMap, 32'h0, 1'b1);
    wr_refused(AAfterMap);
    wr_refused(AAcct);
    wr_refused(AAcct + 9'd64);
    wr_refused(9'h01C);
    wr_refused(9'h030);
    wr_refused(9'h03C);
    wr_refused(AStatus);
    wr_refused(AErrCode);
    wr_refused(ACycBusy);
    wr_refused(AHits);
    wr_refused(AFaults);
    wr_refused(AHwcfg);
    rd(ACfg, 32'h0000_0302, 1'b0);
    rd(ARootLo, 32'hAA34_CC00, 1'b0);
    // address bits above the map (AddrW = 9 instance only: the 8-bit one aliases)
    @(negedge clk);
    addr = 9'h140; re = 1'b1;
    #1;
    chk(err9 === 1'b1 && rdata9 === 32'h0, "read above the map: SLVERR (AddrW=9)", rdata9, 32'h0);
    re = 1'b0; we = 1'b1; wdata = 32'hFFFF_FFFF; wstrb = 4'hF;
    #1;
    chk(err9 === 1'b1, "write above the map: SLVERR (AddrW=9)", {31'h0, err9}, 32'h1);
    we = 1'b0;   // (not clocked in: the 8-bit instance would write CFG)
    addr = 9'h040;
    #1;
    chk(err === 1'b0 && err9 === 1'b0, "idle bus: no SLVERR", {30'h0, err, err9}, 32'h0);

    // ------------------------------------------------------------ singlepulse
    chk({ctrl_start, ctrl_clear} === 2'b00, "CTRL pulses idle", {30'h0, ctrl_start, ctrl_clear},
        32'h0);
    wr(ACtrl, 32'h1, 4'hF, 1'b0);
    chk({ctrl_start, ctrl_clear} === 2'b10, "CTRL.START pulse, cycle 1",
        {30'h0, ctrl_start, ctrl_clear}, 32'h2);
    @(negedge clk);
    chk({ctrl_start, ctrl_clear} === 2'b00, "CTRL.START pulse over after 1 cycle",
        {30'h0, ctrl_start, ctrl_clear}, 32'h0);
    wr(ACtrl, 32'h3, 4'hF, 1'b0);
    chk({ctrl_start, ctrl_clear} === 2'b11, "CTRL.START+CLEAR pulse",
        {30'h0, ctrl_start, ctrl_clear}, 32'h3);
    @(negedge clk);
    chk({ctrl_start, ctrl_clear} === 2'b00, "CTRL pulses over", {30'h0, ctrl_start, ctrl_clear},
        32'h0);
    wr(ACtrl, 32'h3, 4'h0, 1'b0);
    chk({ctrl_start, ctrl_clear} === 2'b00, "CTRL write without strobe: no pulse",
        {30'h0, ctrl_start, ctrl_clear}, 32'h0);
    wr(ACtrl, 32'hFFFF_FFFC, 4'hF, 1'b0);
    chk({ctrl_start, ctrl_clear} === 2'b00, "CTRL write of 0s: no pulse",
        {30'h0, ctrl_start, ctrl_clear}, 32'h0);
    rd(ACtrl, 32'h0, 1'b0);
    wr(AInv, 32'h2, 4'hF, 1'b0);
    chk({inv_page, inv_all} === 2'b10, "INV.PAGE pulse", {30'h0, inv_page, inv_all}, 32'h2);
    @(negedge clk);
    chk({inv_page, inv_all} === 2'b00, "INV pulse over", {30'h0, inv_page, inv_all}, 32'h0);
    wr(AInv, 32'h1, 4'hF, 1'b0);
    chk({inv_page, inv_all} === 2'b01, "INV.ALL pulse", {30'h0, inv_page, inv_all}, 32'h1);
    rd(AInv, 32'h0, 1'b0);
    chk({inv_page, inv_all} === 2'b00, "INV pulse over", {30'h0, inv_page, inv_all}, 32'h0);
    wr(AIntrTest, 32'h2, 4'hF, 1'b0);
    chk({it_error, it_done} === 2'b10, "INTR_TEST.ERROR pulse", {30'h0, it_error, it_done}, 32'h2);
    @(negedge clk);
    chk({it_error, it_done} === 2'b00, "INTR_TEST pulse over", {30'h0, it_error, it_done}, 32'h0);
    rd(AIntrTest, 32'h0, 1'b0);

    // ------------------------------------------------------------ woclr + hwset
    rd(AIntrStatus, 32'h0, 1'b0);
    @(negedge clk);
    is_done_set = 1'b1;
    @(negedge clk);
    is_done_set = 1'b0;
    chk({is_error, is_done} === 2'b01, "INTR_STATUS.DONE set by hw", {30'h0, is_error, is_done},
        32'h1);
    rd(AIntrStatus, 32'h1, 1'b0);
    wr(AIntrStatus, 32'h2, 4'hF, 1'b0);
    rd(AIntrStatus, 32'h1, 1'b0);
    wr(AIntrStatus, 32'h1, 4'h0, 1'b0);
    rd(AIntrStatus, 32'h1, 1'b0);
    wr(AIntrStatus, 32'h0, 4'hF, 1'b0);
    rd(AIntrStatus, 32'h1, 1'b0);
    wr(AIntrStatus, 32'h1, 4'hF, 1'b0);
    rd(AIntrStatus, 32'h0, 1'b0);
    chk({is_error, is_done} === 2'b00, "INTR_STATUS cleared by write 1", {30'h0, is_error, is_done},
        32'h0);
    @(negedge clk);
    is_done_set = 1'b1; is_error_set = 1'b1;
    @(negedge clk);
    is_error_set = 1'b0;
    rd(AIntrStatus, 32'h3, 1'b0);
    // clear both while DONE is set again in the same cycle: set wins, ERROR clears
    @(negedge clk);
    is_done_set = 1'b1;
    addr = AIntrStatus; wdata = 32'h3; wstrb = 4'hF; we = 1'b1;
    @(negedge clk);
    we = 1'b0; is_done_set = 1'b0;
    chk({is_error, is_done} === 2'b01, "set wins over clear", {30'h0, is_error, is_done}, 32'h1);
    rd(AIntrStatus, 32'h1, 1'b0);
    wr(AIntrStatus, 32'h1, 4'hF, 1'b0);
    rd(AIntrStatus, 32'h0, 1'b0);

    // ------------------------------------------------------------ hardware-written fields
    st_busy = 1'b1; st_done = 1'b0; st_error = 1'b1;
    ec_code = 8'hA5; ec_resp = 2'h2;
    cyc_busy = 32'h1111_0001; cyc_stall = 32'h2222_0002; rd_bursts = 32'h3333_0003;
    wr_bursts = 32'h4444_0004; hits = 32'h5555_0005; walks = 32'h6666_0006;
    merges = 32'h7777_0007; reads = 32'h8888_0008; tp_l4 = 32'h9999_0009;
    tp_l3 = 32'hAAAA_000A; tp_l2 = 32'hBBBB_000B; faults = 32'hCCCC_000C;
    rd(AStatus, 32'h5, 1'b0);
    rd(AErrCode, 32'h2A5, 1'b0);
    rd(ACycBusy, 32'h1111_0001, 1'b0);
    rd(ACycStall, 32'h2222_0002, 1'b0);
    rd(ARdBursts, 32'h3333_0003, 1'b0);
    rd(AWrBursts, 32'h4444_0004, 1'b0);
    rd(AHits, 32'h5555_0005, 1'b0);
    rd(AWalks, 32'h6666_0006, 1'b0);
    rd(AMerges, 32'h7777_0007, 1'b0);
    rd(AReads, 32'h8888_0008, 1'b0);
    rd(ATpL4, 32'h9999_0009, 1'b0);
    rd(ATpL3, 32'hAAAA_000A, 1'b0);
    rd(ATpL2, 32'hBBBB_000B, 1'b0);
    rd(AFaults, 32'hCCCC_000C, 1'b0);
    rd(AHwcfg, 32'h0040_0804, 1'b0);
    for (k = 0; k < NAcct; k = k + 1) acct[k*32 +: 32] = 32'hD000_0000 | (k << 8) | k;
    for (k = 0; k < NAcct; k = k + 1)
      rd(AAcct + 4 * k, 32'hD000_0000 | (k << 8) | k, 1'b0);
    hits = 32'hFFFF_FFFF; st_busy = 1'b0; st_done = 1'b1; st_error = 1'b0; ec_resp = 2'h3;
    rd(AHits, 32'hFFFF_FFFF, 1'b0);
    rd(AStatus, 32'h2, 1'b0);
    rd(AErrCode, 32'h3A5, 1'b0);

    // ------------------------------------------------------------ reset in the middle
    @(negedge clk);
    rst_n = 1'b0;
    #1;
    chk(outs === {16'h0, 8'hFF, 1'b1, 91'h0}, "asynchronous reset", 32'h0, 32'h0);
    @(negedge clk);
    rst_n = 1'b1;
    rd(ACfg, 32'h0001_FF00, 1'b0);
    rd(AId, IdValue, 1'b0);

    $display("%0d passed, %0d failed", npass, nfail);
    $finish;
  end

  initial begin
    #100000;
    $display("FAIL timeout");
    $display("%0d passed, %0d failed", npass, nfail + 1);
    $finish;
  end

endmodule

`default_nettype wire
