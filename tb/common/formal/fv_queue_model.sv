////////////////////////////////////////////////////////////////////////////////////////////////////
//
// Filename:  fv_queue_model.sv
//
// Purpose:   Formal reference for a first-in first-out stream cell (cc_fifo, cc_fifo_sram,
//            cc_skid_buffer; docs/formal.md). It watches the cell's two stream ports and asserts
//            the behaviour of a queue of capacity Depth:
//              * count_o: beats accepted and not yet delivered (a beat passed straight through
//                an empty FallThrough queue is never counted); a flush (clr_i) empties it;
//              * in_ready_i = not full, out_valid_i = not empty (or, with FallThrough, the
//                input beat of an empty queue), so neither depends on the other side's ready;
//              * order and integrity, by tracking one beat: when pick_i (a free input of the
//                proof) is high at the edge where a beat is accepted, the model remembers its
//                data and how many stored beats are ahead of it (ahead_o). Each delivery moves
//                it one place forward; when it is at the head the cell must show it on
//                out_data_i, and the delivery that finds it at the head must be it. As the proof
//                holds for every choice of the tracked beat, the n-th beat delivered is the n-th
//                beat accepted: none is lost, duplicated or reordered, and none is made up
//                (a delivery needs a counted beat).
//            tracked_o, ahead_o and tdata_o let the wrapper state where the tracked beat must
//            sit inside the cell (the helper invariants that make the proof inductive).
//
//            Formal-only (Yosys read_verilog -formal); not synthesizable RTL.
//
// Parameters:
//   Width        data bits per beat (>= 1)
//   Depth        capacity of the queue (>= 1)
//   FallThrough  1: an empty queue shows its input beat on the output in the same cycle, and a
//                beat taken then is never stored (cc_fifo FallThrough=1); 0: it does not
//   CntW         width of the model's counts; by default one bit more than the cell's count,
//                so that a cell that overfills is seen as such
//
////////////////////////////////////////////////////////////////////////////////////////////////////
`default_nettype none

module fv_queue_model #(
  parameter integer Width       = 8,
  parameter integer Depth       = 4,
  parameter integer FallThrough = 0,
  parameter integer CntW        = $clog2(Depth + 1) + 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             clr_i,
  input  wire             in_valid_i,
  input  wire             in_ready_i,
  input  wire [Width-1:0] in_data_i,
  input  wire             out_valid_i,
  input  wire             out_ready_i,
  input  wire [Width-1:0] out_data_i,
  input  wire             pick_i,
  output wire [CntW-1:0]  count_o,
  output wire             tracked_o,
  output wire [CntW-1:0]  ahead_o,
  output wire [Width-1:0] tdata_o
);

  localparam integer        DepthInt = Depth;
  localparam [CntW-1:0]     DepthCnt = DepthInt[CntW-1:0];

  wire in_fire  = in_valid_i && in_ready_i;
  wire out_fire = out_valid_i && out_ready_i;

  reg [CntW-1:0]  count_q;
  reg             tracked_q;
  reg [CntW-1:0]  ahead_q;
  reg [Width-1:0] tdata_q;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q   <= {CntW{1'b0}};
      tracked_q <= 1'b0;
    end else begin
      // A beat taken in a clr_i cycle was delivered; one accepted in it is dropped.
      if (clr_i) count_q <= {CntW{1'b0}};
      else       count_q <= count_q + {{(CntW-1){1'b0}}, in_fire} - {{(CntW-1){1'b0}}, out_fire};
      if (tracked_q) begin
        // The delivery at the head is the tracked beat (asserted below): tracking ends there.
        if (out_fire && ahead_q == {CntW{1'b0}}) tracked_q <= 1'b0;
        else if (clr_i)                         tracked_q <= 1'b0;
        else if (out_fire)                      ahead_q   <= ahead_q - 1'b1;
      end else if (pick_i && in_fire && !clr_i && !(count_q == {CntW{1'b0}} && out_fire)) begin
        // Beats ahead of it after this edge: the stored ones, less one delivered now.
        tracked_q <= 1'b1;
        ahead_q   <= count_q - {{(CntW-1){1'b0}}, out_fire};
      end
    end
  end

  // The tracked beat's data is only read while tracked_q is set.
  always @(posedge clk_i) begin
    if (!tracked_q) tdata_q <= in_data_i;
  end

  assign count_o   = count_q;
  assign tracked_o = tracked_q;
  assign ahead_o   = ahead_q;
  assign tdata_o   = tdata_q;

  always @* begin
    // Occupancy and the two flags that follow from it.
    p_count_bound:     assert (count_q <= DepthCnt);
    p_ready_not_full:  assert (in_ready_i == (count_q != DepthCnt));
    p_valid_not_empty: assert (out_valid_i == (count_q != {CntW{1'b0}} ||
                                               (FallThrough != 0 && in_valid_i)));
    // An empty queue can only deliver the beat offered in this very cycle.
    if (count_q == {CntW{1'b0}} && out_valid_i) p_pass_data: assert (out_data_i == in_data_i);
    // The tracked beat is stored, and shown when it is at the head.
    if (tracked_q) begin
      p_tracked_stored: assert (ahead_q < count_q);
      if (ahead_q == {CntW{1'b0}}) p_tracked_head: assert (out_valid_i && out_data_i == tdata_q);
    end
  end

  // Reachability (yosys-smtbmc -c): the proof is not vacuous.
  always @* begin
    c_full: cover (count_q == DepthCnt);
    c_tracked_out_of_full: cover (tracked_q && out_fire && ahead_q == {CntW{1'b0}} &&
                                  count_q == DepthCnt);
  end

endmodule

`default_nettype wire
