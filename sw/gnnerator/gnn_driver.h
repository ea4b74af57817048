/* gnn_driver.h -- driver of gnnerator_axi (docs/gnnerator.md "AXI top", register map
 * docs/regs/gnnerator.md) over the bus-access layer (sw/common/accel_bus.h): the same code runs
 * in the Verilator harness (tb/gnnerator/tb_gnnerator_axi.cpp) and on a board.
 *
 * A job runs a program from device memory: the driver writes the program (16 bytes an
 * instruction, little-endian words, w[0] first) at an address aligned to the bus width, sets
 * PROG_ADDR, PROG_LEN and DATA_BASE (the device byte address of the engine's DRAM word 0; word w
 * at DATA_BASE + 4 w) and starts it; the job's end raises INTR_STATUS.DONE, the only interrupt
 * the driver enables (an error raises ERROR at once, but the job runs to its end). Then STATUS,
 * ERR_CODE and the job's instruction status (RETIRED, ISSUED, INSN_ERRS, FIRST_ERR) are read. */
#ifndef GNN_DRIVER_H
#define GNN_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "common/accel_shell.h"
#include "gnnerator.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GNN_DRV_BLOCK_ID 0x474Eu
/* ERR_CODE.CODE: 0x01..0x06 the first instruction error of the job (GNN_E_*); these two refuse
 * a job at CTRL.START (nothing runs); 0xF1 / 0xF2 (accel_shell.h) AXI read / write errors. */
enum { GNN_DRV_ERR_PROG_ADDR = 0x10, GNN_DRV_ERR_DATA_BASE = 0x11 };

typedef struct {
  accel_bus *bus;
  gnn_cfg_t cfg;       /* the engine's configuration, from HWCFG0..4 */
  unsigned beat_bytes; /* AXI data bytes a beat: programs are aligned to it */
} gnn_dev_t;

/* The instruction status of the last job. */
typedef struct {
  uint32_t retired;     /* instructions retired (PROG_LEN when the job is done) */
  uint32_t issued;      /* instructions handed to the engine */
  uint32_t insn_errs;   /* instructions with an error (dropped by the engine) */
  unsigned err_seen;    /* bit c - 1: an instruction failed with code c */
  int first_valid;      /* an instruction failed: */
  uint32_t first_index; /*   the first one's index in the program (modulo 2^24) */
  unsigned first_code;  /*   and its code (GNN_E_*) */
} gnn_drv_status_t;

/* Probes the block (ID), reads HWCFG0..4 into d->cfg. 0 or ACCEL_E_*. */
int gnn_drv_open(gnn_dev_t *d, accel_bus *bus);
/* 1 when cfg (e.g. a workload's) is this instance's configuration, else 0. */
int gnn_drv_cfg_matches(const gnn_dev_t *d, const gnn_cfg_t *cfg);

/* The engine's DRAM in device memory: n words from word `word` of the window at data_base.
 * 0 or ACCEL_E_BUS (outside the device memory), ACCEL_E_ARG (past 2^addr_w words). */
int gnn_drv_write_words(gnn_dev_t *d, uint64_t data_base, uint64_t word, const uint32_t *src,
                        size_t n);
int gnn_drv_read_words(gnn_dev_t *d, uint64_t data_base, uint64_t word, uint32_t *dst, size_t n);
/* Writes n instructions at prog_addr (a multiple of d->beat_bytes). 0 or ACCEL_E_*. */
int gnn_drv_write_program(gnn_dev_t *d, uint64_t prog_addr, const gnn_insn_t *prog, size_t n);
/* Allocates device memory for n instructions (mem_alloc, bus-width aligned) and writes them:
 * the program's address, 0 when memory runs out or a copy fails. */
uint64_t gnn_drv_load_program(gnn_dev_t *d, const gnn_insn_t *prog, size_t n);

/* Starts a job: clears INTR_STATUS, enables only the DONE interrupt, writes the job registers
 * and CTRL.START. 0, ACCEL_E_ARG (an address above 32 bits) or ACCEL_E_BUS. */
int gnn_drv_start(gnn_dev_t *d, uint64_t prog_addr, uint32_t n, uint64_t data_base);
/* Waits (timeout in the back end's unit) for the job's end, reads its status into st (may be
 * NULL) and clears INTR_STATUS. 0 (done, no error), the ERR_CODE word (> 0: CODE in bits 7:0,
 * the AXI response in bits 9:8) when the job had an error, ACCEL_E_TIMEOUT or ACCEL_E_BUS. */
int gnn_drv_wait(gnn_dev_t *d, uint64_t timeout, gnn_drv_status_t *st);
/* gnn_drv_start, then gnn_drv_wait. */
int gnn_drv_run(gnn_dev_t *d, uint64_t prog_addr, uint32_t n, uint64_t data_base, uint64_t timeout,
                gnn_drv_status_t *st);
/* The job's instruction status registers. 0 or ACCEL_E_BUS. */
int gnn_drv_status(gnn_dev_t *d, gnn_drv_status_t *st);
/* The engine's counters since reset or CTRL.CLEAR (accel_counters_clear): bad edges the GRUNs
 * skipped, cycles the Graph Engine's compute unit was busy. 0 or ACCEL_E_BUS. */
int gnn_drv_counters(gnn_dev_t *d, uint32_t *bad_edges, uint32_t *gex_cycles);

#ifdef __cplusplus
}
#endif

#endif
