/* nmmu_driver.h -- driver of neummu_axi (docs/axi_shell.md, register map docs/regs/neummu.md)
 * over the bus-access layer (sw/common/accel_bus.h): the same code runs in the Verilator
 * harness (tb/neummu/tb_neummu_axi.cpp) and on a board. Translation requests and responses
 * travel on the block's AXI4-Stream pair (bus stream port 0). */
#ifndef NMMU_DRIVER_H
#define NMMU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "common/accel_shell.h"
#include "neummu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NMMU_DRV_BLOCK_ID 0x4E33u
enum { NMMU_ERR_FAULT = 0x01, NMMU_ERR_RANGE = 0x02 };

typedef struct {
  accel_bus *bus;
  unsigned walkers, slots, tlb_entries; /* HWCFG */
  unsigned window;                      /* translations kept in flight (<= 2^IdW) */
} nmmu_dev_t;

int nmmu_drv_open(nmmu_dev_t *d, accel_bus *bus, unsigned window);
/* Copies the page-table image into device memory at its physical addresses: every table page
 * it uses is zeroed, then every nonzero word written (the image must have been built inside
 * the device's memory window, e.g. with nmmu_build's pt_base in it). */
int nmmu_drv_load_tables(nmmu_dev_t *d, const nmmu_mem_t *img);
/* Points the walkers at root_pa, sets walkers / merge slots / TPreg in use, drops every cached
 * translation and enables the request stream. */
int nmmu_drv_config(nmmu_dev_t *d, uint64_t root_pa, unsigned walkers, unsigned slots, int tpreg);

/* Translates n requests (va[i], is_write[i]) through the stream, at most d->window in flight,
 * and returns pa[i] and status[i] (NMMU_ST_*) in request order. Writes CTRL.START first (it
 * clears the error status and arms DONE) and waits for DONE once all answers are in. Returns
 * 0; the ERR_CODE word (> 0) of the batch's first error: NMMU_ERR_FAULT when a request faulted
 * (the statuses say which; an answer, not a failure), NMMU_ERR_RANGE, or an AXI read error
 * (0xF1, response in bits 9:8); or an ACCEL_E_* code (timeout: no response for timeout idle
 * steps). */
int nmmu_drv_translate(nmmu_dev_t *d, const uint64_t *va, const uint8_t *is_write, size_t n,
                       uint64_t *pa, uint8_t *status, uint64_t timeout);

typedef struct {
  uint32_t hits, walks, merges, reads, tp_l4, tp_l3, tp_l2, faults;
} nmmu_drv_stats_t;
int nmmu_drv_stats(nmmu_dev_t *d, nmmu_drv_stats_t *s);

/* The accounting counters (docs/neummu.md, "Counters"): DMA stall cycles by cause, duplicate
 * walks, and request-cycles by place (64-bit; read them with no translation in flight, e.g. after
 * nmmu_drv_translate returns, for consistent halves). CTRL.CLEAR (accel_counters_clear) zeroes
 * them with the event counters. Returns 0 or ACCEL_E_BUS. */
typedef struct {
  uint32_t stall_rsp, stall_down, stall_prmb, stall_walk, dup_walks;
  uint64_t lat_pipe, lat_hol, lat_port, lat_mem, lat_ans, lat_out;
} nmmu_drv_acct_t;
int nmmu_drv_acct(nmmu_dev_t *d, nmmu_drv_acct_t *a);

#ifdef __cplusplus
}
#endif

#endif
