////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  tdimm_agu.v
//
// Purpose:   Address generator of the NMP core. Takes one TensorISA instruction at a time
//            (decoded and statically checked by tdimm_dec), issues its 64-byte reads to the
//            memory controller's read queue in program order, allocating a slot of queue A or B
//            for each, and pushes one work item per output block (its local write address) and
//            one end item (error code, rows done) into the ALU's work FIFO.
//
//            Read order (docs/tensordimm.md "Address mapping"):
//              REDUCE   A: in1 + q, B: in2 + q, for q = 0 .. count*k-1
//              AVERAGE  A: in + (i*avg + j)*k + m, for i, m, j (j innermost)
//              GATHER   index blocks idx + i into B (prefetched as far as B has slots); then for
//                       each index X (B's head, lane r mod 16) the k blocks table + X*k + m into
//                       A, after checking the row (CAPACITY, WINDOW, OVERLAP with the output).
//            A bad GATHER row ends the instruction: rows 0..r-1 have been issued (and will be
//            written), nothing after; the index blocks still in flight are drained from B.
//
//            One instruction at a time: the next is accepted after retire_i (its last write has
//            been issued to DRAM), so a read never passes a write of an older instruction.
//
// Parameters:
//   LocalAw  log2 of the DIMM's capacity in 64-byte blocks (12..27)
//   SlotW    slot number width of queues A and B
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
`include "cc_param_check.vh"

module tdimm_agu #(
  parameter integer LocalAw = 16,
  parameter integer SlotW   = 3
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  // configuration
  input  wire [2:0]         nd_log2_i,
  input  wire [LocalAw:0]   win_base_i,
  input  wire [LocalAw:0]   win_limit_i,
  // instruction in
  input  wire               insn_valid_i,
  output wire               insn_ready_o,
  input  wire [159:0]       insn_i,
  input  wire               retire_i,       // the current instruction retired
  // the current instruction, for the ALU
  output wire [3:0]         op_o,
  output wire [3:0]         subop_o,
  output wire [1:0]         type_o,
  output wire [15:0]        avg_o,
  // read queue of the memory controller
  input  wire               rq_full_i,
  output wire               rq_push_o,
  output wire [LocalAw-1:0] rq_addr_o,
  output wire               rq_qsel_o,      // 0 queue A, 1 queue B
  output wire [SlotW-1:0]   rq_slot_o,
  // queues A and B: allocation, and B's head for the GATHER index blocks
  input  wire               a_free_i,
  input  wire [SlotW-1:0]   a_slot_i,
  output wire               a_alloc_o,
  input  wire               b_free_i,
  input  wire [SlotW-1:0]   b_slot_i,
  output wire               b_alloc_o,
  input  wire               b_head_valid_i,
  input  wire [511:0]       b_head_data_i,
  output wire               b_pop_o,
  // ALU work FIFO
  input  wire               wi_full_i,
  output wire               wi_push_o,
  output wire               wi_end_o,
  output wire [LocalAw-1:0] wi_addr_o,
  output wire [3:0]         wi_err_o,
  output wire [23:0]        wi_rows_o
);
  localparam [3:0] TdimmOpGather = 4'd1, TdimmOpReduce = 4'd2, TdimmOpAverage = 4'd3;
  localparam [3:0] TdimmECapacity = 4'd7, TdimmEWindow = 4'd8, TdimmEOverlap = 4'd9;
  localparam [2:0] SIdle = 3'd0, SRun = 3'd1, SDrain = 3'd2, SEnd = 3'd3, SWait = 3'd4;
  localparam integer RowW = 42;   // table + X * k + k < 2^42

  generate
    if (LocalAw < 12 || LocalAw > 27) begin : gen_check_local_aw
      `CC_PARAM_FAIL(tdimm_agu__LocalAw_must_be_12_to_27)
    end
  endgenerate

  // ---------------------------------------------------------------- decode
  wire [3:0]  d_err, d_op, d_subop;
  wire [1:0]  d_type;
  wire [7:0]  d_k;
  wire [15:0] d_avg;
  wire [23:0] d_count;
  wire [31:0] d_in1, d_in2, d_out, d_nblk;
  wire [20:0] d_nidx;
  tdimm_dec #(.LocalAw(LocalAw)) u_dec (
    .insn_i     (insn_i),
    .nd_log2_i  (nd_log2_i),
    .win_base_i (win_base_i),
    .win_limit_i(win_limit_i),
    .err_o      (d_err),
    .op_o       (d_op),
    .subop_o    (d_subop),
    .type_o     (d_type),
    .k_o        (d_k),
    .avg_o      (d_avg),
    .count_o    (d_count),
    .in1_o      (d_in1),
    .in2_o      (d_in2),
    .out_o      (d_out),
    .nblk_o     (d_nblk),
    .nidx_o     (d_nidx)
  );

  // ---------------------------------------------------------------- state
  reg [2:0]  state_q;
  reg [3:0]  op_q, subop_q, err_q;
  reg [1:0]  type_q;
  reg [7:0]  k_q, gm_q, m_q;
  reg [15:0] avg_q, j_q;
  reg [23:0] count_q, rows_q, r_q, i_q;
  reg [23:0] stride_q;                 // averageNum * k
  reg [31:0] in1_q, in2_q, out_q, nblk_q, q_q, out_ctr_q, addr_q, rowbase_q;
  reg [20:0] nidx_q, idx_iss_q, idx_pop_q;
  reg        ph_q;

  wire is_g = op_q == TdimmOpGather;
  wire is_r = op_q == TdimmOpReduce;
  wire is_a = op_q == TdimmOpAverage;
  wire run  = state_q == SRun;

  assign insn_ready_o = state_q == SIdle;
  wire accept = insn_valid_i && insn_ready_o;

  assign op_o    = op_q;
  assign subop_o = subop_q;
  assign type_o  = type_q;
  assign avg_o   = avg_q;

  // ---------------------------------------------------------------- GATHER row check
  wire [31:0]     x_idx    = b_head_data_i[{r_q[3:0], 5'd0} +: 32];
  wire [RowW-1:0] row_s    = {{(RowW-32){1'b0}}, in1_q} +
                             {{(RowW-40){1'b0}}, {8'd0, x_idx} * {32'd0, k_q}};
  wire [RowW-1:0] row_e    = row_s + {{(RowW-8){1'b0}}, k_q};
  wire [RowW-1:0] out_s    = {{(RowW-32){1'b0}}, out_q};
  wire [RowW-1:0] out_e    = out_s + {{(RowW-32){1'b0}}, nblk_q};
  wire [RowW-1:0] cap      = {{(RowW-1){1'b0}}, 1'b1} << LocalAw;
  wire [RowW-1:0] wb       = {{(RowW-LocalAw-1){1'b0}}, win_base_i};
  wire [RowW-1:0] wl       = {{(RowW-LocalAw-1){1'b0}}, win_limit_i};
  wire            row_cap  = row_e > cap;
  wire            row_win  = row_s < wb || row_e > wl;
  wire            row_ov   = row_s < out_e && out_s < row_e;
  wire            row_bad  = gm_q == 8'd0 && (row_cap || row_win || row_ov);
  wire [3:0]      row_err  = row_cap ? TdimmECapacity : row_win ? TdimmEWindow : TdimmEOverlap;
  wire [RowW-1:0] row_addr = row_s + {{(RowW-8){1'b0}}, gm_q};

  // ---------------------------------------------------------------- issue
  // GATHER: an index prefetch into B wins over a row read (one read per cycle).
  wire g_pf   = run && is_g && idx_iss_q != nidx_q && b_free_i && !rq_full_i;
  wire g_row  = run && is_g && !g_pf && b_head_valid_i && a_free_i && !rq_full_i && !wi_full_i;
  wire g_fail = g_row && row_bad;
  wire g_iss  = g_row && !row_bad;
  wire g_last = gm_q == k_q - 8'd1;
  wire r_a    = run && is_r && !ph_q && a_free_i && !rq_full_i;
  wire r_b    = run && is_r && ph_q && b_free_i && !rq_full_i && !wi_full_i;
  wire a_jl   = j_q == avg_q - 16'd1;
  wire a_iss  = run && is_a && a_free_i && !rq_full_i && (!a_jl || !wi_full_i);

  assign rq_push_o = g_pf || g_iss || r_a || r_b || a_iss;
  assign rq_qsel_o = g_pf || r_b;
  assign rq_slot_o = rq_qsel_o ? b_slot_i : a_slot_i;
  wire [31:0] rd_addr = g_pf  ? in2_q + {11'd0, idx_iss_q} :
                        r_a   ? in1_q + q_q :
                        r_b   ? in2_q + q_q :
                        a_iss ? addr_q : row_addr[31:0];
  assign rq_addr_o = rd_addr[LocalAw-1:0];
  assign a_alloc_o = g_iss || r_a || a_iss;
  assign b_alloc_o = g_pf || r_b;

  // Index block consumed after the last block of its last row.
  wire g_pop_run   = g_iss && g_last && (r_q[3:0] == 4'hf || r_q == count_q - 24'd1);
  wire g_pop_drain = state_q == SDrain && idx_pop_q != idx_iss_q && b_head_valid_i;
  assign b_pop_o = g_pop_run || g_pop_drain;

  wire blk_push = g_iss || r_b || (a_iss && a_jl);
  wire end_push = state_q == SEnd && !wi_full_i;
  assign wi_push_o = blk_push || end_push;
  assign wi_end_o  = state_q == SEnd;
  assign wi_addr_o = out_ctr_q[LocalAw-1:0];
  assign wi_err_o  = err_q;
  assign wi_rows_o = rows_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= SIdle;
      op_q      <= 4'd0;
      subop_q   <= 4'd0;
      type_q    <= 2'd0;
      err_q     <= 4'd0;
      k_q       <= 8'd0;
      avg_q     <= 16'd0;
      count_q   <= 24'd0;
      rows_q    <= 24'd0;
      stride_q  <= 24'd0;
      in1_q     <= 32'd0;
      in2_q     <= 32'd0;
      out_q     <= 32'd0;
      nblk_q    <= 32'd0;
      nidx_q    <= 21'd0;
      q_q       <= 32'd0;
      out_ctr_q <= 32'd0;
      addr_q    <= 32'd0;
      rowbase_q <= 32'd0;
      r_q       <= 24'd0;
      i_q       <= 24'd0;
      gm_q      <= 8'd0;
      m_q       <= 8'd0;
      j_q       <= 16'd0;
      idx_iss_q <= 21'd0;
      idx_pop_q <= 21'd0;
      ph_q      <= 1'b0;
    end else begin
      case (state_q)
        SIdle: if (accept) begin
          op_q      <= d_op;
          subop_q   <= d_subop;
          type_q    <= d_type;
          k_q       <= d_k;
          avg_q     <= d_avg;
          count_q   <= d_count;
          stride_q  <= {8'd0, d_avg} * {16'd0, d_k};
          in1_q     <= d_in1;
          in2_q     <= d_in2;
          out_q     <= d_out;
          nblk_q    <= d_nblk;
          nidx_q    <= d_nidx;
          err_q     <= d_err;
          rows_q    <= d_err != 4'd0 ? 24'd0 : d_count;
          q_q       <= 32'd0;
          out_ctr_q <= d_out;
          addr_q    <= d_in1;
          rowbase_q <= d_in1;
          r_q       <= 24'd0;
          i_q       <= 24'd0;
          gm_q      <= 8'd0;
          m_q       <= 8'd0;
          j_q       <= 16'd0;
          idx_iss_q <= 21'd0;
          idx_pop_q <= 21'd0;
          ph_q      <= 1'b0;
          state_q   <= (d_err != 4'd0 || d_count == 24'd0) ? SEnd : SRun;
        end
        SRun: begin
          // GATHER
          if (g_pf) idx_iss_q <= idx_iss_q + 21'd1;
          if (g_pop_run) idx_pop_q <= idx_pop_q + 21'd1;
          if (g_fail) begin
            err_q   <= row_err;
            rows_q  <= r_q;
            state_q <= SDrain;
          end
          if (g_iss) begin
            out_ctr_q <= out_ctr_q + 32'd1;
            if (g_last) begin
              gm_q <= 8'd0;
              r_q  <= r_q + 24'd1;
              if (r_q == count_q - 24'd1) state_q <= SDrain;
            end else begin
              gm_q <= gm_q + 8'd1;
            end
          end
          // REDUCE
          if (r_a) ph_q <= 1'b1;
          if (r_b) begin
            ph_q      <= 1'b0;
            q_q       <= q_q + 32'd1;
            out_ctr_q <= out_ctr_q + 32'd1;
            if (q_q == nblk_q - 32'd1) state_q <= SEnd;
          end
          // AVERAGE
          if (a_iss) begin
            if (!a_jl) begin
              j_q    <= j_q + 16'd1;
              addr_q <= addr_q + {24'd0, k_q};
            end else begin
              j_q       <= 16'd0;
              out_ctr_q <= out_ctr_q + 32'd1;
              if (m_q != k_q - 8'd1) begin
                m_q    <= m_q + 8'd1;
                addr_q <= rowbase_q + {24'd0, m_q} + 32'd1;
              end else begin
                m_q       <= 8'd0;
                i_q       <= i_q + 24'd1;
                rowbase_q <= rowbase_q + {8'd0, stride_q};
                addr_q    <= rowbase_q + {8'd0, stride_q};
                if (i_q == count_q - 24'd1) state_q <= SEnd;
              end
            end
          end
        end
        SDrain: begin
          if (g_pop_drain) idx_pop_q <= idx_pop_q + 21'd1;
          else if (idx_pop_q == idx_iss_q) state_q <= SEnd;
        end
        SEnd: if (end_push) state_q <= SWait;
        SWait: if (retire_i) state_q <= SIdle;
        default: state_q <= SIdle;
      endcase
    end
  end
endmodule
`default_nettype wire
