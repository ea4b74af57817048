/* accel_shell.h -- the common part of every block's driver: the shell's registers (offsets
 * 0x00-0x3F of every <blk>_axi, docs/axi_shell.md "Common registers") and the job sequence
 * (start, wait for the interrupt, read the status). Block drivers (sw/<blk>/, *_driver.h) add
 * their own registers, from the header generated out of the block's SystemRDL description
 * (sw/<blk>/<blk>_regs.h); each checks at compile time that its generated offsets of the
 * common registers are these. */
#ifndef ACCEL_SHELL_H
#define ACCEL_SHELL_H

#include <stdint.h>

#include "accel_bus.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  ACCEL_SHELL_ID = 0x00,          /* BLOCK[15:0], VERSION[31:16] */
  ACCEL_SHELL_CTRL = 0x04,        /* START[0], CLEAR[1] (write 1; read 0) */
  ACCEL_SHELL_STATUS = 0x08,      /* BUSY[0], DONE[1], ERROR[2] */
  ACCEL_SHELL_ERR_CODE = 0x0C,    /* CODE[7:0], RESP[9:8] */
  ACCEL_SHELL_INTR_STATUS = 0x10, /* DONE[0], ERROR[1], write 1 to clear */
  ACCEL_SHELL_INTR_ENABLE = 0x14,
  ACCEL_SHELL_INTR_TEST = 0x18,
  ACCEL_SHELL_CYC_BUSY = 0x20,
  ACCEL_SHELL_CYC_STALL = 0x24,
  ACCEL_SHELL_RD_BURSTS = 0x28,
  ACCEL_SHELL_WR_BURSTS = 0x2C
};

enum { ACCEL_ST_BUSY = 1u, ACCEL_ST_DONE = 2u, ACCEL_ST_ERROR = 4u };
enum { ACCEL_INTR_DONE = 1u, ACCEL_INTR_ERROR = 2u };
/* The shell's own error codes (ERR_CODE.CODE); 0x01-0xEF are the block's. */
enum { ACCEL_ERR_AXI_RD = 0xF1, ACCEL_ERR_AXI_WR = 0xF2 };
/* Driver-side failures, returned as negative values by accel_job_* */
enum { ACCEL_E_BUS = -1, ACCEL_E_TIMEOUT = -2, ACCEL_E_ID = -3, ACCEL_E_ARG = -4 };

typedef struct {
  uint32_t cyc_busy, cyc_stall, rd_bursts, wr_bursts;
} accel_counters_t;

/* Reads ID and checks BLOCK; 0, ACCEL_E_ID (another block answers) or ACCEL_E_BUS. */
int accel_shell_probe(accel_bus *bus, uint32_t block_id);
/* Clears the interrupt status, enables both interrupt causes and writes CTRL.START. */
int accel_job_start(accel_bus *bus);
/* Waits for the interrupt (timeout in the back end's unit), then reads STATUS and ERR_CODE and
 * clears the interrupt status. Returns 0 (DONE without ERROR), the ERR_CODE word (> 0: CODE in
 * bits 7:0, the AXI response in bits 9:8) when the job ended with an error, ACCEL_E_TIMEOUT
 * when neither came, or ACCEL_E_BUS on a register access error. */
int accel_job_wait(accel_bus *bus, uint64_t timeout);
int accel_counters_read(accel_bus *bus, accel_counters_t *c);
int accel_counters_clear(accel_bus *bus);

#ifdef __cplusplus
}
#endif

#endif
