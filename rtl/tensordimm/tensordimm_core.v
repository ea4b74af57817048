////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tensordimm_core.v
//
// Purpose:   One TensorDIMM NMP core (the paper's Figure 6): TensorISA decoder and address
//            generator (tdimm_agu), SRAM queues A and B (tdimm_rob) and C (inside tdimm_mc, the
//            write queue), the 16-lane vector ALU (tdimm_alu), the NMP-local DDR4 controller
//            (tdimm_mc) on a DFI 1:4 port, and the configuration registers.
//
//            Configuration registers (cfg_valid_i writes cfg_data_i to register cfg_reg_i; write
//            them between instructions):
//              0 nodeDimLog2  log2(nodeDim), 0..7        reset NdLog2
//              1 tid          this DIMM's id (reported)  reset CoreId
//              2 winBase      protection window base     reset 0
//              3 winLimit     protection window limit    reset 2^LocalAw (the whole DIMM)
//
//            Instruction in: insn_valid_i / insn_ready_o / insn_i (160 bits, docs/tensordimm.md).
//            Retire out: done_valid_o / done_ready_i with the error code and the output rows
//            written; one per instruction, in order. The next instruction starts after the
//            previous one retired.
//
// Parameters:
//   LocalAw       log2 of the DIMM's capacity in 64-byte blocks (12..27)
//   Ranks         ranks per DIMM (1, 2, 4)
//   ColLoW        address mapping: consecutive blocks per bank before the bank group changes
//                 is 2^ColLoW (0..3)
//   Depth         slots of queues A and B (the paper: 8 x 64 B)
//   CDepth        entries of queue C (the write queue; the paper: 8 x 64 B)
//   RqDepth       read-queue entries of the controller (addresses only)
//   WrHigh, WrLow write-drain watermarks of queue C
//   NdLog2        reset value of nodeDimLog2
//   CoreId        reset value of tid
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module tensordimm_core #(
  parameter integer LocalAw = 16,
  parameter integer Ranks   = 1,
  parameter integer ColLoW  = 1,
  parameter integer Depth   = 8,
  parameter integer CDepth  = 8,
  parameter integer RqDepth = 16,
  parameter integer WrHigh  = 6,
  parameter integer WrLow   = 2,
  parameter integer NdLog2  = 0,
  parameter integer CoreId  = 0
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  // configuration
  input  wire            cfg_valid_i,
  input  wire [1:0]      cfg_reg_i,
  input  wire [31:0]     cfg_data_i,
  output wire [6:0]      tid_o,
  input  wire [2:0]      dbg_fault_i,     // test only: tie to 0 (tdimm_mc)
  // instructions
  input  wire            insn_valid_i,
  output wire            insn_ready_o,
  input  wire [159:0]    insn_i,
  output wire            done_valid_o,
  input  wire            done_ready_i,
  output wire [3:0]      done_err_o,
  output wire [23:0]     done_rows_o,
  // DFI 1:4 to the DIMM's DRAM
  output wire [4*26-1:0] dfi_cmd_o,
  output wire [511:0]    dfi_wrdata_o,
  input  wire            dfi_rddata_valid_i,
  input  wire [511:0]    dfi_rddata_i,
  // status
  output wire            wmode_o,
  output wire            busy_o
);
  localparam integer SlotW = Depth > 1 ? $clog2(Depth) : 1;
  localparam integer TagW  = SlotW + 1;
  localparam integer WiW   = 1 + LocalAw + 4 + 24;
  // ALU work FIFO: one item per output block in flight (at most Depth: each holds an A slot) and
  // the end item, so the work FIFO never limits the reads in flight.
  localparam integer WiDepth = Depth + 2;

  generate
    if (NdLog2 < 0 || NdLog2 > 7) begin : gen_check_nd
      `CC_PARAM_FAIL(tensordimm_core__NdLog2_must_be_0_to_7)
    end
    if (CoreId < 0 || CoreId > 127) begin : gen_check_id
      `CC_PARAM_FAIL(tensordimm_core__CoreId_must_be_0_to_127)
    end
  endgenerate

  cc_hold_check #(.Width(160)) u_insn_hold (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .valid_i  (insn_valid_i),
    .ready_i  (insn_ready_o),
    .data_i   (insn_i),
    .release_i(1'b0)
  );

  // ---------------------------------------------------------------- configuration registers
  localparam integer NdI = NdLog2, IdI = CoreId;
  reg [2:0]       nd_log2_q;
  reg [6:0]       tid_q;
  reg [LocalAw:0] win_base_q, win_limit_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nd_log2_q   <= NdI[2:0];
      tid_q       <= IdI[6:0];
      win_base_q  <= {(LocalAw+1){1'b0}};
      win_limit_q <= {1'b1, {LocalAw{1'b0}}};
    end else if (cfg_valid_i) begin
      case (cfg_reg_i)
        2'd0: nd_log2_q <= cfg_data_i[2:0];
        2'd1: tid_q     <= cfg_data_i[6:0];
        2'd2: win_base_q  <= cfg_data_i[LocalAw:0];
        default: win_limit_q <= cfg_data_i[LocalAw:0];
      endcase
    end
  end
  assign tid_o = tid_q;
  wire unused_ok = &{1'b0, cfg_data_i[31:LocalAw+1]};   // the registers use the low bits

  // ---------------------------------------------------------------- address generator
  wire [3:0]         op, subop;
  wire [1:0]         typ;
  wire [15:0]        avg;
  wire               rq_full, rq_push, rq_qsel;
  wire [LocalAw-1:0] rq_addr;
  wire [SlotW-1:0]   rq_slot, a_slot, b_slot;
  wire               a_free, a_alloc, b_free, b_alloc, agu_b_pop;
  wire               a_head_v, b_head_v;
  wire [511:0]       a_head, b_head;
  wire               wi_full, wi_push, wi_end;
  wire [LocalAw-1:0] wi_addr;
  wire [3:0]         wi_err;
  wire [23:0]        wi_rows;
  wire               retire = done_valid_o && done_ready_i;

  tdimm_agu #(.LocalAw(LocalAw), .SlotW(SlotW)) u_agu (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .nd_log2_i     (nd_log2_q),
    .win_base_i    (win_base_q),
    .win_limit_i   (win_limit_q),
    .insn_valid_i  (insn_valid_i),
    .insn_ready_o  (insn_ready_o),
    .insn_i        (insn_i),
    .retire_i      (retire),
    .op_o          (op),
    .subop_o       (subop),
    .type_o        (typ),
    .avg_o         (avg),
    .rq_full_i     (rq_full),
    .rq_push_o     (rq_push),
    .rq_addr_o     (rq_addr),
    .rq_qsel_o     (rq_qsel),
    .rq_slot_o     (rq_slot),
    .a_free_i      (a_free),
    .a_slot_i      (a_slot),
    .a_alloc_o     (a_alloc),
    .b_free_i      (b_free),
    .b_slot_i      (b_slot),
    .b_alloc_o     (b_alloc),
    .b_head_valid_i(b_head_v),
    .b_head_data_i (b_head),
    .b_pop_o       (agu_b_pop),
    .wi_full_i     (wi_full),
    .wi_push_o     (wi_push),
    .wi_end_o      (wi_end),
    .wi_addr_o     (wi_addr),
    .wi_err_o      (wi_err),
    .wi_rows_o     (wi_rows)
  );

  // ---------------------------------------------------------------- queues A and B
  wire               fill;
  wire [TagW-1:0]    fill_tag;
  wire [511:0]       fill_data;
  wire               alu_a_pop, alu_b_pop;
  wire [SlotW:0]     unused_a_cnt, unused_b_cnt;

  tdimm_rob #(.Depth(Depth), .SlotW(SlotW)) u_qa (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .free_o      (a_free),
    .alloc_i     (a_alloc),
    .alloc_slot_o(a_slot),
    .fill_i      (fill && !fill_tag[TagW-1]),
    .fill_slot_i (fill_tag[SlotW-1:0]),
    .fill_data_i (fill_data),
    .head_valid_o(a_head_v),
    .head_data_o (a_head),
    .pop_i       (alu_a_pop),
    .count_o     (unused_a_cnt)
  );

  tdimm_rob #(.Depth(Depth), .SlotW(SlotW)) u_qb (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .free_o      (b_free),
    .alloc_i     (b_alloc),
    .alloc_slot_o(b_slot),
    .fill_i      (fill && fill_tag[TagW-1]),
    .fill_slot_i (fill_tag[SlotW-1:0]),
    .fill_data_i (fill_data),
    .head_valid_o(b_head_v),
    .head_data_o (b_head),
    .pop_i       (alu_b_pop || agu_b_pop),
    .count_o     (unused_b_cnt)
  );

  // ---------------------------------------------------------------- work FIFO and ALU
  wire           wi_v, wi_pop;
  wire [WiW-1:0] wi_q;
  wire           wi_rdy;
  wire [$clog2(WiDepth+1)-1:0] unused_wi_cnt;
  assign wi_full = !wi_rdy;
  cc_fifo #(.Width(WiW), .Depth(WiDepth)) u_wi (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (1'b0),
    .in_valid_i (wi_push),
    .in_ready_o (wi_rdy),
    .in_data_i  ({wi_end, wi_addr, wi_err, wi_rows}),
    .out_valid_o(wi_v),
    .out_ready_i(wi_pop),
    .out_data_o (wi_q),
    .count_o    (unused_wi_cnt)
  );

  wire               c_full, c_push, c_marker;
  wire [LocalAw-1:0] c_addr;
  wire [511:0]       c_data;
  wire [3:0]         c_err;
  wire [23:0]        c_rows;
  tdimm_alu #(.LocalAw(LocalAw)) u_alu (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .op_i      (op),
    .subop_i   (subop),
    .type_i    (typ),
    .avg_i     (avg),
    .wi_valid_i(wi_v),
    .wi_pop_o  (wi_pop),
    .wi_end_i  (wi_q[WiW-1]),
    .wi_addr_i (wi_q[28 +: LocalAw]),
    .wi_err_i  (wi_q[27:24]),
    .wi_rows_i (wi_q[23:0]),
    .a_valid_i (a_head_v),
    .a_data_i  (a_head),
    .a_pop_o   (alu_a_pop),
    .b_valid_i (b_head_v),
    .b_data_i  (b_head),
    .b_pop_o   (alu_b_pop),
    .c_full_i  (c_full),
    .c_push_o  (c_push),
    .c_marker_o(c_marker),
    .c_addr_o  (c_addr),
    .c_data_o  (c_data),
    .c_err_o   (c_err),
    .c_rows_o  (c_rows)
  );

  // ---------------------------------------------------------------- memory controller
  tdimm_mc #(
    .LocalAw(LocalAw),
    .Ranks  (Ranks),
    .ColLoW (ColLoW),
    .RqDepth(RqDepth),
    .CDepth (CDepth),
    .WrHigh (WrHigh),
    .WrLow  (WrLow),
    .TagW   (TagW)
  ) u_mc (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .dbg_fault_i       (dbg_fault_i),
    .rq_full_o         (rq_full),
    .rq_push_i         (rq_push),
    .rq_addr_i         (rq_addr),
    .rq_tag_i          ({rq_qsel, rq_slot}),
    .fill_o            (fill),
    .fill_tag_o        (fill_tag),
    .fill_data_o       (fill_data),
    .c_full_o          (c_full),
    .c_push_i          (c_push),
    .c_marker_i        (c_marker),
    .c_addr_i          (c_addr),
    .c_data_i          (c_data),
    .c_err_i           (c_err),
    .c_rows_i          (c_rows),
    .done_valid_o      (done_valid_o),
    .done_ready_i      (done_ready_i),
    .done_err_o        (done_err_o),
    .done_rows_o       (done_rows_o),
    .dfi_cmd_o         (dfi_cmd_o),
    .dfi_wrdata_o      (dfi_wrdata_o),
    .dfi_rddata_valid_i(dfi_rddata_valid_i),
    .dfi_rddata_i      (dfi_rddata_i),
    .wmode_o           (wmode_o),
    .busy_o            (busy_o)
  );
endmodule
`default_nettype wire
