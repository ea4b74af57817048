/* mna_driver.h -- driver of manna_axi (docs/manna.md "AXI top", register map docs/regs/manna.md)
 * over the bus-access layer (sw/common/accel_bus.h): the same code runs in the Verilator harness
 * (tb/manna/tb_manna_axi.cpp) and on a board.
 *
 * Jobs (one at a time; each ends with INTR_STATUS.DONE, the only interrupt the driver enables):
 *   LOAD   count words from device memory at `dram` into words addr.. of `space` in `tile` (or
 *          every tile: bcast); IMEM words are 64 bits (8 bytes, the low word first), the others
 *          32 bits (4 bytes, little-endian)
 *   STORE  the same range of one tile back to device memory
 *   RUN    START every tile at `pc`; the job ends when every tile has stopped (TILE_ERR: the
 *          tiles that stopped with an error)
 * A job's result: 0, the ERR_CODE word (> 0: CODE in bits 7:0, the AXI response in bits 9:8:
 * MNA_DRV_ERR_*, 0x20 + status for a tile error, ACCEL_ERR_AXI_RD/WR), or ACCEL_E_* (< 0).
 *
 * The mailbox sends any single host-port request (docs/manna.md "Host port") and returns its
 * response (mna_drv_host).
 *
 * Workloads (docs/manna.md "Workload files"): mna_drv_wl_read parses a file against the device's
 * configuration and puts every p / m record's words into device memory (and reserves device
 * memory for every c range); mna_drv_wl_run then replays it through the AXI top: a LOAD job per
 * p / m record, a RUN job per s record, and after the last record a STORE job per c range (per
 * tile for `c *`), so that the results are in device memory at each c record's `dram`. */
#ifndef MNA_DRIVER_H
#define MNA_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/accel_shell.h"
#include "manna.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MNA_DRV_BLOCK_ID 0x4D41u
/* ERR_CODE.CODE of manna_axi (besides ACCEL_ERR_AXI_RD / _WR) */
enum {
  MNA_DRV_ERR_BAD = 0x01,     /* a host-port response BAD */
  MNA_DRV_ERR_BUSY = 0x02,    /* a host-port response BUSY */
  MNA_DRV_ERR_OP = 0x10,      /* JOB_CMD.OP 3 (refused at START) */
  MNA_DRV_ERR_FIELD = 0x11,   /* SPACE 6/7, BCAST with STORE, TILE >= tiles (refused) */
  MNA_DRV_ERR_DRAM = 0x12,    /* JOB_DRAM misaligned or its range beyond 2^AxiAddrW (refused) */
  MNA_DRV_ERR_RANGE = 0x13,   /* JOB_ADDR + JOB_COUNT beyond the space, PC > 0xFFFF (refused) */
  MNA_DRV_ERR_OVERRUN = 0x14, /* a mailbox GO while a request was pending (ignored) */
  MNA_DRV_ERR_TILE = 0x20     /* + status: a tile stopped a RUN with that error status */
};
enum { MNA_DRV_LOAD = 0, MNA_DRV_STORE = 1, MNA_DRV_RUN = 2 };

typedef struct {
  accel_bus *bus;
  mna_cfg_t cfg;       /* the instance's configuration, from HWCFG0..3 */
  unsigned axi_addr_w; /* AXI address bits: device addresses below 2^axi_addr_w */
} mna_dev_t;

/* The status of the last job. */
typedef struct {
  uint32_t words;      /* LOAD / STORE: words moved (JOB_WORDS) */
  uint32_t tile_err;   /* RUN: bit t: tile t stopped with an error (TILE_ERR) */
  uint32_t run_cycles; /* RUN: cycles from START to every tile stopped (RUN_CYCLES) */
} mna_drv_job_t;

/* Probes the block (ID), reads HWCFG0..3 into d->cfg. 0 or ACCEL_E_*. */
int mna_drv_open(mna_dev_t *d, accel_bus *bus);
/* 1 when cfg (e.g. a workload's) has this instance's tiles, emacs, memories, imem and rf. */
int mna_drv_cfg_matches(const mna_dev_t *d, const mna_cfg_t *cfg);
/* Words of a space of this instance (0 for a bad space). */
uint32_t mna_drv_space_words(const mna_dev_t *d, int space);

/* Starts a job (clears INTR_STATUS, enables the DONE interrupt, writes JOB_* and CTRL.START).
 * 0, ACCEL_E_ARG (dram above 32 bits) or ACCEL_E_BUS. */
int mna_drv_start(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                  uint32_t count, uint64_t dram);
/* mna_drv_start without its CTRL.START: the job's registers written, to be started later. */
int mna_drv_prepare(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                    uint32_t count, uint64_t dram);
/* Waits for the job's end (timeout in the back end's unit), reads its status into st (may be
 * NULL), clears INTR_STATUS: 0, the ERR_CODE word, ACCEL_E_TIMEOUT or ACCEL_E_BUS. */
int mna_drv_wait(mna_dev_t *d, uint64_t timeout, mna_drv_job_t *st);
/* start + wait */
int mna_drv_job(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                uint32_t count, uint64_t dram, uint64_t timeout, mna_drv_job_t *st);
int mna_drv_load(mna_dev_t *d, int bcast, int tile, int space, uint32_t addr, uint32_t count,
                 uint64_t dram, uint64_t timeout);
int mna_drv_store(mna_dev_t *d, int tile, int space, uint32_t addr, uint32_t count,
                  uint64_t dram, uint64_t timeout);
int mna_drv_run(mna_dev_t *d, uint32_t pc, uint64_t timeout, mna_drv_job_t *st);

/* One host-port request through the mailbox: waits (timeout) for its response; returns the
 * response err (MNA_RSP_OK / BAD / BUSY) with its data in *rdata (may be NULL), or ACCEL_E_*. */
int mna_drv_host(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                 uint64_t data, uint64_t *rdata, uint64_t timeout);
/* mna_drv_host in two halves, for a request posted while something else goes on: _post writes
 * the request and its GO (0 or ACCEL_E_BUS); _result waits (timeout) for the response and returns
 * as mna_drv_host does. */
int mna_drv_host_post(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                      uint64_t data);
int mna_drv_host_result(mna_dev_t *d, uint64_t *rdata, uint64_t timeout);

/* Device memory: n 32-bit words (4 bytes each) or 64-bit words (8 bytes each, low word first),
 * little-endian. 0 or ACCEL_E_BUS. */
int mna_drv_mem_write32(mna_dev_t *d, uint64_t dram, const uint32_t *src, size_t n);
int mna_drv_mem_read32(mna_dev_t *d, uint64_t dram, uint32_t *dst, size_t n);
int mna_drv_mem_write64(mna_dev_t *d, uint64_t dram, const uint64_t *src, size_t n);
int mna_drv_mem_read64(mna_dev_t *d, uint64_t dram, uint64_t *dst, size_t n);

/* Zeroes IMEM, MB, MS, VB and VS of every tile (bcast LOADs from a zeroed device buffer).
 * 0, the first job's nonzero result, or ACCEL_E_*. */
int mna_drv_zero_all(mna_dev_t *d, uint64_t timeout);

/* ---- workloads */
typedef struct {
  char kind;      /* 'p', 'm', 's', 'c' */
  int tile;       /* -1: every tile ('*') */
  int space;      /* MNA_SP_* ('p': IMEM) */
  uint32_t addr;  /* first word ('s': the start PC) */
  uint32_t n;     /* words */
  uint64_t dram;  /* p / m: the words in device memory; c: where the STORE puts them (tile t of
                     a '*' range at dram + 4 n t) */
  char name[32];  /* c: the range's name ("" if none) */
} mna_drv_rec_t;

typedef struct {
  mna_cfg_t cfg;       /* the device's */
  mna_drv_rec_t *rec;  /* in file order (malloc'd) */
  size_t nrec, ncmp, nruns;
} mna_drv_wl_t;

typedef struct {
  size_t jobs;         /* jobs run */
  int runs;            /* RUN jobs */
  uint32_t tile_err;   /* OR of the runs' TILE_ERR */
  uint64_t run_cycles; /* sum of the runs' RUN_CYCLES */
  int first_rc;        /* the first nonzero job result (0: none) */
} mna_drv_wl_result_t;

/* Parses f (fname for messages) for device d: cfg must match the device; tiles, spaces and
 * ranges are checked. Device memory is taken with the bus's mem_alloc. 0, or -1 with
 * "fname:line: reason" in err. */
int mna_drv_wl_read(mna_dev_t *d, FILE *f, const char *fname, mna_drv_wl_t *wl, char *err,
                    size_t errlen);
void mna_drv_wl_free(mna_drv_wl_t *wl);
/* Replays wl (see above); every job runs even after an error. 0 when every job returned 0, the
 * first nonzero job result (> 0: an ERR_CODE word), or ACCEL_E_* (< 0: stops at once). */
int mna_drv_wl_run(mna_dev_t *d, const mna_drv_wl_t *wl, uint64_t timeout,
                   mna_drv_wl_result_t *res);

#ifdef __cplusplus
}
#endif

#endif
