////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  cc_job_ctrl.v
//
// Purpose:   The status side of the AXI shell, shared by every <blk>_axi top: the STATUS and
//            ERR_CODE registers' values, the level interrupt and the
//            performance counters of the common register map (docs/axi_shell.md, "Common
//            registers").
//
//            Contract:
//              * start_i (a job starts) clears DONE, ERROR and the error code; a done_i or err_i
//                in the same cycle (a job refused at its start) counts for the new job.
//              * done_i: the job ended (one cycle): DONE rises (the register file sets
//                INTR_STATUS.DONE from the same pulse).
//              * err_i: an error (one cycle) with its code and, for bus errors, AXI response:
//                ERROR rises (the register file sets INTR_STATUS.ERROR), and the first
//                error's code and response are kept until the next start (later errors do not
//                overwrite them).
//              * busy_i, stall_i: levels counted into CYC_BUSY / CYC_STALL (stall_i counts only
//                while busy_i); rd_burst_i / wr_burst_i: pulses counted into RD_BURSTS /
//                WR_BURSTS. Counters wrap at 2^32; clear_i (CTRL.CLEAR) zeroes them.
//              * irq_o = |(intr_status_i & intr_enable_i), registered (one cycle later).
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none
module cc_job_ctrl (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        start_i,
  input  wire        clear_i,
  input  wire        busy_i,
  input  wire        stall_i,
  input  wire        done_i,
  input  wire        err_i,
  input  wire [7:0]  err_code_i,
  input  wire [1:0]  err_resp_i,
  input  wire        rd_burst_i,
  input  wire        wr_burst_i,
  input  wire [1:0]  intr_status_i,   // {ERROR, DONE}
  input  wire [1:0]  intr_enable_i,
  // register values
  output wire        status_done_o,
  output wire        status_error_o,
  output wire [7:0]  err_code_o,
  output wire [1:0]  err_resp_o,
  output reg  [31:0] cyc_busy_o,
  output reg  [31:0] cyc_stall_o,
  output reg  [31:0] rd_bursts_o,
  output reg  [31:0] wr_bursts_o,
  output wire        irq_o
);
  reg       done_q, error_q, irq_q;
  reg [7:0] code_q;
  reg [1:0] resp_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q      <= 1'b0;
      error_q     <= 1'b0;
      code_q      <= 8'd0;
      resp_q      <= 2'd0;
      irq_q       <= 1'b0;
      cyc_busy_o  <= 32'd0;
      cyc_stall_o <= 32'd0;
      rd_bursts_o <= 32'd0;
      wr_bursts_o <= 32'd0;
    end else begin
      if (start_i) begin
        // A job that ends in the cycle it starts (a refused job) reports at once.
        done_q  <= done_i;
        error_q <= err_i;
        code_q  <= err_i ? err_code_i : 8'd0;
        resp_q  <= err_i ? err_resp_i : 2'd0;
      end else begin
        if (done_i) done_q <= 1'b1;
        if (err_i) begin
          error_q <= 1'b1;
          if (!error_q) begin
            code_q <= err_code_i;
            resp_q <= err_resp_i;
          end
        end
      end
      irq_q <= |(intr_status_i & intr_enable_i);
      if (clear_i) begin
        cyc_busy_o  <= 32'd0;
        cyc_stall_o <= 32'd0;
        rd_bursts_o <= 32'd0;
        wr_bursts_o <= 32'd0;
      end else begin
        if (busy_i)            cyc_busy_o  <= cyc_busy_o + 32'd1;
        if (busy_i && stall_i) cyc_stall_o <= cyc_stall_o + 32'd1;
        if (rd_burst_i)        rd_bursts_o <= rd_bursts_o + 32'd1;
        if (wr_burst_i)        wr_bursts_o <= wr_bursts_o + 32'd1;
      end
    end
  end

  assign status_done_o    = done_q;
  assign status_error_o   = error_q;
  assign err_code_o       = code_q;
  assign err_resp_o       = resp_q;
  assign irq_o            = irq_q;
endmodule
`default_nettype wire
