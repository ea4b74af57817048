// mna_defs.vh -- opcodes and status codes of the MANNA tile ISA (docs/manna.md; the C side is
// cmodel/include/manna_isa.h). Included inside modules.
localparam [5:0] OpNop = 6'h00, OpHalt = 6'h01, OpLi = 6'h02, OpAddi = 6'h03, OpLoop = 6'h04,
                 OpEndloop = 6'h05, OpAgen = 6'h06, OpDmat = 6'h08, OpDma = 6'h09,
                 OpVmm = 6'h0A, OpSwr = 6'h0B, OpEl = 6'h0C, OpRfz = 6'h0D, OpRfld = 6'h0E,
                 OpRfst = 6'h0F, OpSfu = 6'h11, OpSld = 6'h15, OpSst = 6'h16,
                 OpReduce = 6'h18, OpBcast = 6'h19;
localparam [3:0] StIdle = 4'd0, StDone = 4'd1, StOpcode = 4'd2, StField = 4'd3, StAddr = 4'd4,
                 StLoop = 4'd5, StPc = 4'd6, StColl = 4'd7, StTimeout = 4'd8, StRun = 4'd15;
