/* smx_driver.h -- driver of softermax_axi (docs/axi_shell.md, register map docs/regs/softermax.md)
 * over the bus-access layer (sw/common/accel_bus.h): the same code runs in the Verilator
 * harness (tb/softermax/tb_softermax_axi.cpp) and on a board (/dev/mem back end). */
#ifndef SMX_DRIVER_H
#define SMX_DRIVER_H

#include <stdint.h>

#include "common/accel_shell.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMX_DRV_BLOCK_ID 0x5317u
/* Block error codes (ERR_CODE.CODE) */
enum { SMX_ERR_LEN = 0x01, SMX_ERR_ALIGN = 0x02, SMX_ERR_ROW = 0x03 };

typedef struct {
  accel_bus *bus;
  unsigned vec;      /* HWCFG.VEC: lanes = bytes per bus beat */
  unsigned max_len;  /* HWCFG.MAXLEN */
} smx_dev_t;

/* Probes the block (ID) and reads its configuration. 0 or an ACCEL_E_* code. */
int smx_drv_open(smx_dev_t *d, accel_bus *bus);

typedef struct {
  uint64_t src, dst;           /* device byte addresses (multiples of vec) */
  uint32_t rows, len;          /* rows of len int8 scores */
  uint32_t src_stride, dst_stride; /* bytes between rows (multiples of vec) */
} smx_job_t;

/* Programs and starts one job, waits up to timeout for its end: 0, the ERR_CODE word (> 0)
 * or an ACCEL_E_* code (accel_job_wait). */
int smx_drv_run(smx_dev_t *d, const smx_job_t *job, uint64_t timeout);

/* Whole rows from host to host: copies rows x len scores (row-major, int8 codes Q(6,2)) into
 * device memory (rows padded to the bus width), runs the job and copies the probabilities
 * (Q(1,7) codes) back into probs (rows x len). Returns as smx_drv_run, or ACCEL_E_ARG when
 * device memory runs out. */
int smx_drv_softmax(smx_dev_t *d, const int8_t *scores, uint8_t *probs, uint32_t rows,
                    uint32_t len, uint64_t timeout);

#ifdef __cplusplus
}
#endif

#endif
