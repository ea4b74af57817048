/* nnoc_driver.h -- driver of neunoc_axi (docs/axi_shell.md, register map docs/regs/neunoc.md)
 * over the bus-access layer (sw/common/accel_bus.h): the same code runs in the Verilator
 * harness (tb/neunoc/tb_neunoc_axi.cpp) and on a board. PE p's AXI4-Stream pair is bus stream
 * port p; a flit travels in the low FlitW bits of a beat. */
#ifndef NNOC_DRIVER_H
#define NNOC_DRIVER_H

#include <stdint.h>

#include "common/accel_shell.h"
#include "neunoc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NNOC_DRV_BLOCK_ID 0x4E4Fu
enum { NNOC_ERR_REPAIR = 0x01, NNOC_ERR_DROP = 0x02 };

typedef struct {
  accel_bus *bus;
  nnoc_cfg_t cfg;   /* k, cols, rows from HWCFG; data_w, tag_w, cnt_w from the caller */
  int np, flit_w;
} nnoc_dev_t;

/* Probes the block and reads its shape; cfg gives data_w, tag_w and cnt_w (not in HWCFG).
 * Fails with ACCEL_E_ID when the hardware's flit width differs from the one cfg implies. */
int nnoc_drv_open(nnoc_dev_t *d, accel_bus *bus, const nnoc_cfg_t *cfg);
int nnoc_drv_enable(nnoc_dev_t *d, int on);
/* Queues the flits of packet p at its source PE's input stream (p->src). Returns the number
 * of flits, or an ACCEL_E_* code. */
int nnoc_drv_send(nnoc_dev_t *d, const nnoc_pkt_t *p);
/* One delivered flit of PE pe: 1 (flit, last = end of packet), 0 none yet, or ACCEL_E_BUS. */
int nnoc_drv_recv(nnoc_dev_t *d, int pe, nnoc_flit_t *f, int *last);
/* Arms DONE and waits until the network has been quiet (docs: neunoc_axi): 0, the ERR_CODE
 * word of an error, or an ACCEL_E_* code. */
int nnoc_drv_drain(nnoc_dev_t *d, uint64_t timeout);

typedef struct {
  uint32_t pe_flits, mesh_flits, drops, repairs, err_pe;
} nnoc_drv_stats_t;
int nnoc_drv_stats(nnoc_dev_t *d, nnoc_drv_stats_t *s);

#ifdef __cplusplus
}
#endif

#endif
