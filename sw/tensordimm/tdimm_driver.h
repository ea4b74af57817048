/* tdimm_driver.h -- driver of tensordimm_axi (docs/tensordimm.md "AXI top", register map
 * docs/regs/tensordimm.md) over the bus-access layer (sw/common/accel_bus.h): the same code runs
 * in the Verilator harness (tb/tensordimm/tb_tensordimm_axi.cpp) and on a board.
 * Instructions go through the instruction FIFO (INSN0..INSN4; the write of INSN4 pushes),
 * retirements come back through the retire FIFO (RET_STATUS/RET_MASK/RET_ROWS, RET_POP). The
 * driver enables only the DONE interrupt (one per retirement) and waits on it. */
#ifndef TDIMM_DRIVER_H
#define TDIMM_DRIVER_H

#include <stdint.h>

#include "common/accel_shell.h"
#include "tensordimm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDIMM_DRV_BLOCK_ID 0x5444u
/* ERR_CODE.CODE: 0x01..0x09 an instruction retired with that node error (TDIMM_E_*);
 * TDIMM_DRV_ERR_REFUSED an INSN4 write was refused because the instruction FIFO was full. */
enum { TDIMM_DRV_ERR_REFUSED = 0x10 };
/* tdimm_drv_push's answer when the instruction FIFO was full (nothing queued). */
enum { TDIMM_DRV_FULL = 1 };

typedef struct {
  accel_bus *bus;
  unsigned n;          /* cores (HWCFG.N) */
  unsigned local_aw;   /* log2 blocks per DIMM (HWCFG.LOCALAW) */
  unsigned ranks;      /* HWCFG.RANKS */
  unsigned iq_depth;   /* instruction FIFO entries (HWCFG.IQDEPTH) */
} tdimm_dev_t;

/* One retirement: the node error code (0 = OK), the error mask of cores 0..31, the rows core 0
 * wrote, the retirement's sequence number (modulo 2^16). */
typedef struct {
  unsigned err;
  uint32_t mask;
  uint32_t rows;
  unsigned seq;
} tdimm_drv_ret_t;

/* Probes the block (ID), reads HWCFG, enables the DONE interrupt. 0 or ACCEL_E_*. */
int tdimm_drv_open(tdimm_dev_t *d, accel_bus *bus);
/* Waits (timeout in the back end's unit) until the node is idle (QSTATUS.IDLE: no instruction
 * queued or in the node, no retirement unread): 0, ACCEL_E_TIMEOUT or ACCEL_E_BUS. */
int tdimm_drv_wait_idle(tdimm_dev_t *d, uint64_t timeout);
/* Writes configuration register reg (0 nodeDimLog2, 1 tid, 2 winBase, 3 winLimit) of core
 * (0xFF: every core). Call only while idle. 0 or ACCEL_E_*. */
int tdimm_drv_cfg_write(tdimm_dev_t *d, unsigned core, unsigned reg, uint32_t data);
/* nodeDim = 2^nd_log2 on every core; the protection window [base, limit) of one core (local
 * blocks). Call only while idle. */
int tdimm_drv_set_node_dim(tdimm_dev_t *d, unsigned nd_log2);
int tdimm_drv_set_window(tdimm_dev_t *d, unsigned core, uint64_t base, uint64_t limit);
/* Pushes one instruction: 0 queued, TDIMM_DRV_FULL (the FIFO was full: the block refused the
 * push with SLVERR, nothing queued; retry), or ACCEL_E_BUS. */
int tdimm_drv_push(tdimm_dev_t *d, const tdimm_insn_t *insn);
/* Pushes one instruction, waiting while the FIFO is full (QSTATUS.INSN_FULL) up to timeout:
 * 0, ACCEL_E_TIMEOUT or ACCEL_E_BUS. */
int tdimm_drv_push_wait(tdimm_dev_t *d, const tdimm_insn_t *insn, uint64_t timeout);
/* Pops the oldest retirement: 1 (r filled), 0 none waiting, ACCEL_E_BUS. */
int tdimm_drv_retire(tdimm_dev_t *d, tdimm_drv_ret_t *r);
/* Waits for the next retirement (the DONE interrupt) and pops it: 1, ACCEL_E_TIMEOUT or
 * ACCEL_E_BUS. */
int tdimm_drv_wait_retire(tdimm_dev_t *d, tdimm_drv_ret_t *r, uint64_t timeout);
/* The instruction counters: pushed (ISSUED), retired (RETIRED), refused pushes (REFUSED). */
int tdimm_drv_counts(tdimm_dev_t *d, uint32_t *issued, uint32_t *retired, uint32_t *refused);

#ifdef __cplusplus
}
#endif

#endif
