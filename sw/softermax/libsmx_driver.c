/* libsmx_driver.c -- driver of softermax_axi (smx_driver.h). */
#include "smx_driver.h"

#include <stdlib.h>
#include <string.h>

#include "softermax_regs.h"

/* The generated map's common registers are the shell's. */
_Static_assert(SOFTERMAX__CTRL_OFFSET == ACCEL_SHELL_CTRL, "shell map");
_Static_assert(SOFTERMAX__WR_BURSTS_OFFSET == ACCEL_SHELL_WR_BURSTS, "shell map");
_Static_assert(SOFTERMAX__ID__BLOCK_reset == SMX_DRV_BLOCK_ID, "block id");

int smx_drv_open(smx_dev_t *d, accel_bus *bus) {
  uint32_t hw;
  int rc;
  d->bus = bus;
  if ((rc = accel_shell_probe(bus, SMX_DRV_BLOCK_ID)) != 0) return rc;
  if (bus->read32(bus->ctx, SOFTERMAX__HWCFG_OFFSET, &hw) != 0) return ACCEL_E_BUS;
  d->vec = (hw & SOFTERMAX__HWCFG__VEC_bm) >> SOFTERMAX__HWCFG__VEC_bp;
  d->max_len = (hw & SOFTERMAX__HWCFG__MAXLEN_bm) >> SOFTERMAX__HWCFG__MAXLEN_bp;
  return d->vec ? 0 : ACCEL_E_ID;
}

int smx_drv_run(smx_dev_t *d, const smx_job_t *j, uint64_t timeout) {
  accel_bus *b = d->bus;
  if (j->src > 0xFFFFFFFFu || j->dst > 0xFFFFFFFFu) return ACCEL_E_ARG;
  if (b->write32(b->ctx, SOFTERMAX__SRC_ADDR_OFFSET, (uint32_t)j->src) != 0 ||
      b->write32(b->ctx, SOFTERMAX__DST_ADDR_OFFSET, (uint32_t)j->dst) != 0 ||
      b->write32(b->ctx, SOFTERMAX__ROWS_OFFSET, j->rows) != 0 ||
      b->write32(b->ctx, SOFTERMAX__LEN_OFFSET, j->len) != 0 ||
      b->write32(b->ctx, SOFTERMAX__SRC_STRIDE_OFFSET, j->src_stride) != 0 ||
      b->write32(b->ctx, SOFTERMAX__DST_STRIDE_OFFSET, j->dst_stride) != 0)
    return ACCEL_E_BUS;
  int rc = accel_job_start(b);
  return rc ? rc : accel_job_wait(b, timeout);
}

int smx_drv_softmax(smx_dev_t *d, const int8_t *scores, uint8_t *probs, uint32_t rows,
                    uint32_t len, uint64_t timeout) {
  accel_bus *b = d->bus;
  if (len == 0 || rows == 0) return ACCEL_E_ARG;
  uint32_t stride = (len + d->vec - 1) / d->vec * d->vec;
  size_t bytes = (size_t)stride * rows;
  uint64_t src = b->mem_alloc(b->ctx, bytes, 4096);
  uint64_t dst = b->mem_alloc(b->ctx, bytes, 4096);
  if (!src || !dst) return ACCEL_E_ARG;
  uint8_t *buf = (uint8_t *)calloc(bytes, 1);
  if (!buf) return ACCEL_E_ARG;
  for (uint32_t r = 0; r < rows; r++) memcpy(buf + (size_t)r * stride, scores + (size_t)r * len, len);
  int rc = b->mem_write(b->ctx, src, buf, bytes) != 0 ? ACCEL_E_BUS : 0;
  if (!rc) {
    smx_job_t j = {src, dst, rows, len, stride, stride};
    rc = smx_drv_run(d, &j, timeout);
  }
  if (!rc && b->mem_read(b->ctx, dst, buf, bytes) != 0) rc = ACCEL_E_BUS;
  if (!rc)
    for (uint32_t r = 0; r < rows; r++) memcpy(probs + (size_t)r * len, buf + (size_t)r * stride, len);
  free(buf);
  return rc;
}
