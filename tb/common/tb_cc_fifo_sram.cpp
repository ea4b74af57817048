// tb_cc_fifo_sram.cpp -- Verilator harness for cc_fifo_sram.
//
// cc_fifo_sram has cc_fifo's ports and, by contract, exactly cc_fifo's cycle behaviour with
// FallThrough=0 (in_ready = not full, out_valid = not empty, one cycle of latency, no bubbles),
// so it is checked by the same cycle-accurate queue-model harness; see tb_cc_fifo.cpp for the
// phases (random gaps/stalls with clr_i, reset in flight, full throughput, fill/drain bursts).
#include "Vcc_fifo_sram.h"
#define TB_FIFO_TOP Vcc_fifo_sram
#define TB_FIFO_NAME "cc_fifo_sram"
#undef TB_FallThrough
#define TB_FallThrough 0
#include "tb_cc_fifo.cpp"
