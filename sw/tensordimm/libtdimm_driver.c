/* libtdimm_driver.c -- driver of tensordimm_axi (tdimm_driver.h). */
#include "tdimm_driver.h"

#include "tensordimm_regs.h"

_Static_assert(TENSORDIMM__CTRL_OFFSET == ACCEL_SHELL_CTRL, "shell map");
_Static_assert(TENSORDIMM__INTR_STATUS_OFFSET == ACCEL_SHELL_INTR_STATUS, "shell map");
_Static_assert(TENSORDIMM__WR_BURSTS_OFFSET == ACCEL_SHELL_WR_BURSTS, "shell map");
_Static_assert(TENSORDIMM__ID__BLOCK_reset == TDIMM_DRV_BLOCK_ID, "block id");

#define RD(off, v) (d->bus->read32(d->bus->ctx, (off), (v)) != 0)
#define WR(off, v) (d->bus->write32(d->bus->ctx, (off), (v)) != 0)

static uint32_t field(uint32_t v, uint32_t bm, unsigned bp) { return (v & bm) >> bp; }

int tdimm_drv_open(tdimm_dev_t *d, accel_bus *bus) {
  uint32_t hw;
  int rc;
  d->bus = bus;
  if ((rc = accel_shell_probe(bus, TDIMM_DRV_BLOCK_ID)) != 0) return rc;
  if (RD(TENSORDIMM__HWCFG_OFFSET, &hw)) return ACCEL_E_BUS;
  d->n = field(hw, TENSORDIMM__HWCFG__N_bm, TENSORDIMM__HWCFG__N_bp);
  d->local_aw = field(hw, TENSORDIMM__HWCFG__LOCALAW_bm, TENSORDIMM__HWCFG__LOCALAW_bp);
  d->ranks = field(hw, TENSORDIMM__HWCFG__RANKS_bm, TENSORDIMM__HWCFG__RANKS_bp);
  d->iq_depth = field(hw, TENSORDIMM__HWCFG__IQDEPTH_bm, TENSORDIMM__HWCFG__IQDEPTH_bp);
  if (d->n < 1 || d->n > 128 || (d->n & (d->n - 1)) != 0 || d->iq_depth == 0) return ACCEL_E_ID;
  /* only DONE (one per retirement) raises the interrupt the driver waits on */
  if (WR(TENSORDIMM__INTR_ENABLE_OFFSET, TENSORDIMM__INTR_ENABLE__DONE_bm)) return ACCEL_E_BUS;
  return 0;
}

int tdimm_drv_wait_idle(tdimm_dev_t *d, uint64_t timeout) {
  int rc = accel_poll(d->bus, TENSORDIMM__QSTATUS_OFFSET, TENSORDIMM__QSTATUS__IDLE_bm,
                      TENSORDIMM__QSTATUS__IDLE_bm, timeout);
  return rc == 1 ? 0 : rc == 0 ? ACCEL_E_TIMEOUT : ACCEL_E_BUS;
}

int tdimm_drv_cfg_write(tdimm_dev_t *d, unsigned core, unsigned reg, uint32_t data) {
  if (reg > 3 || core > 0xFF || (core != 0xFF && core >= d->n)) return ACCEL_E_ARG;
  if (WR(TENSORDIMM__CFG_DATA_OFFSET, data) ||
      WR(TENSORDIMM__CFG_OFFSET, TENSORDIMM__CFG__GO_bm | (reg << TENSORDIMM__CFG__REG_bp) |
                                     (core << TENSORDIMM__CFG__CORE_bp)))
    return ACCEL_E_BUS;
  return 0;
}

int tdimm_drv_set_node_dim(tdimm_dev_t *d, unsigned nd_log2) {
  if (nd_log2 > 7) return ACCEL_E_ARG;
  return tdimm_drv_cfg_write(d, 0xFF, 0, nd_log2);
}

int tdimm_drv_set_window(tdimm_dev_t *d, unsigned core, uint64_t base, uint64_t limit) {
  if (base > limit || limit > (1ull << d->local_aw)) return ACCEL_E_ARG;
  int rc = tdimm_drv_cfg_write(d, core, 2, (uint32_t)base);
  return rc ? rc : tdimm_drv_cfg_write(d, core, 3, (uint32_t)limit);
}

int tdimm_drv_push(tdimm_dev_t *d, const tdimm_insn_t *insn) {
  if (WR(TENSORDIMM__INSN0_OFFSET, insn->w[0]) || WR(TENSORDIMM__INSN1_OFFSET, insn->w[1]) ||
      WR(TENSORDIMM__INSN2_OFFSET, insn->w[2]) || WR(TENSORDIMM__INSN3_OFFSET, insn->w[3]))
    return ACCEL_E_BUS;
  /* INSN4 is writable: its only SLVERR is the refusal of a push into a full FIFO */
  return WR(TENSORDIMM__INSN4_OFFSET, insn->w[4]) ? TDIMM_DRV_FULL : 0;
}

int tdimm_drv_push_wait(tdimm_dev_t *d, const tdimm_insn_t *insn, uint64_t timeout) {
  for (;;) {
    int rc = accel_poll(d->bus, TENSORDIMM__QSTATUS_OFFSET, TENSORDIMM__QSTATUS__INSN_FULL_bm, 0,
                        timeout);
    if (rc != 1) return rc == 0 ? ACCEL_E_TIMEOUT : ACCEL_E_BUS;
    rc = tdimm_drv_push(d, insn);
    if (rc != TDIMM_DRV_FULL) return rc;
  }
}

int tdimm_drv_retire(tdimm_dev_t *d, tdimm_drv_ret_t *r) {
  uint32_t st, mask, rows;
  if (RD(TENSORDIMM__RET_STATUS_OFFSET, &st)) return ACCEL_E_BUS;
  if (!(st & TENSORDIMM__RET_STATUS__VALID_bm)) return 0;
  if (RD(TENSORDIMM__RET_MASK_OFFSET, &mask) || RD(TENSORDIMM__RET_ROWS_OFFSET, &rows) ||
      WR(TENSORDIMM__RET_POP_OFFSET, TENSORDIMM__RET_POP__POP_bm))
    return ACCEL_E_BUS;
  r->err = field(st, TENSORDIMM__RET_STATUS__ERR_bm, TENSORDIMM__RET_STATUS__ERR_bp);
  r->seq = field(st, TENSORDIMM__RET_STATUS__SEQ_bm, TENSORDIMM__RET_STATUS__SEQ_bp);
  r->mask = mask;
  r->rows = rows;
  return 1;
}

int tdimm_drv_wait_retire(tdimm_dev_t *d, tdimm_drv_ret_t *r, uint64_t timeout) {
  for (;;) {
    int rc = tdimm_drv_retire(d, r);
    if (rc != 0) return rc;
    /* clear DONE, then look again: a retirement after the clear raises it anew */
    if (WR(TENSORDIMM__INTR_STATUS_OFFSET, TENSORDIMM__INTR_STATUS__DONE_bm)) return ACCEL_E_BUS;
    rc = tdimm_drv_retire(d, r);
    if (rc != 0) return rc;
    if (!d->bus->wait_irq(d->bus->ctx, timeout)) return ACCEL_E_TIMEOUT;
  }
}

int tdimm_drv_counts(tdimm_dev_t *d, uint32_t *issued, uint32_t *retired, uint32_t *refused) {
  if (RD(TENSORDIMM__ISSUED_OFFSET, issued) || RD(TENSORDIMM__RETIRED_OFFSET, retired) ||
      RD(TENSORDIMM__REFUSED_OFFSET, refused))
    return ACCEL_E_BUS;
  return 0;
}
