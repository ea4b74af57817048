/* libnnoc_driver.c -- driver of neunoc_axi (nnoc_driver.h). */
#include "nnoc_driver.h"

#include <stdlib.h>
#include <string.h>

#include "neunoc_regs.h"

_Static_assert(NEUNOC__CTRL_OFFSET == ACCEL_SHELL_CTRL, "shell map");
_Static_assert(NEUNOC__WR_BURSTS_OFFSET == ACCEL_SHELL_WR_BURSTS, "shell map");
_Static_assert(NEUNOC__ID__BLOCK_reset == NNOC_DRV_BLOCK_ID, "block id");

int nnoc_drv_open(nnoc_dev_t *d, accel_bus *bus, const nnoc_cfg_t *cfg) {
  uint32_t hw;
  int rc;
  d->bus = bus;
  d->cfg = *cfg;
  if ((rc = accel_shell_probe(bus, NNOC_DRV_BLOCK_ID)) != 0) return rc;
  if (bus->read32(bus->ctx, NEUNOC__HWCFG_OFFSET, &hw) != 0) return ACCEL_E_BUS;
  d->cfg.k = (int)((hw & NEUNOC__HWCFG__K_bm) >> NEUNOC__HWCFG__K_bp);
  d->cfg.cols = (int)((hw & NEUNOC__HWCFG__COLS_bm) >> NEUNOC__HWCFG__COLS_bp);
  d->cfg.rows = (int)((hw & NEUNOC__HWCFG__ROWS_bm) >> NEUNOC__HWCFG__ROWS_bp);
  int fw = (int)((hw & NEUNOC__HWCFG__FLITW_bm) >> NEUNOC__HWCFG__FLITW_bp);
  char err[128];
  if (nnoc_cfg_check(&d->cfg, err, sizeof err) != 0) return ACCEL_E_ID;
  d->np = nnoc_pes(&d->cfg);
  d->flit_w = nnoc_flit_w(&d->cfg);
  return (d->flit_w == fw && d->flit_w <= 64) ? 0 : ACCEL_E_ID;
}

int nnoc_drv_enable(nnoc_dev_t *d, int on) {
  return d->bus->write32(d->bus->ctx, NEUNOC__ENABLE_OFFSET, on ? 1u : 0u) ? ACCEL_E_BUS : 0;
}

static uint64_t flit_bits(const nnoc_flit_t *f) { return f->w[0] | ((uint64_t)f->w[1] << 32); }

int nnoc_drv_send(nnoc_dev_t *d, const nnoc_pkt_t *p) {
  if (p->src < 0 || p->src >= d->np || p->nwords < 0 || p->nwords > NNOC_MAX_WORDS)
    return ACCEL_E_ARG;
  int max = p->nwords + 2;
  nnoc_flit_t *fl = (nnoc_flit_t *)malloc((size_t)max * sizeof *fl);
  if (!fl) return ACCEL_E_ARG;
  int n = nnoc_pkt_flits(&d->cfg, p, fl, max), rc = n > 0 ? n : ACCEL_E_ARG;
  for (int i = 0; i < n && rc > 0; i++)
    if (d->bus->stream_send(d->bus->ctx, (unsigned)p->src, flit_bits(&fl[i]), 0, i == n - 1))
      rc = ACCEL_E_BUS;
  free(fl);
  return rc;
}

int nnoc_drv_recv(nnoc_dev_t *d, int pe, nnoc_flit_t *f, int *last) {
  uint64_t data;
  unsigned id;
  int k = d->bus->stream_recv(d->bus->ctx, (unsigned)pe, &data, &id, last);
  if (k <= 0) return k < 0 ? ACCEL_E_BUS : 0;
  memset(f, 0, sizeof *f);
  uint64_t mask = d->flit_w == 64 ? ~0ull : ((1ull << d->flit_w) - 1);
  data &= mask;
  f->w[0] = (uint32_t)data;
  if (NNOC_FLIT_WORDS > 1) f->w[1] = (uint32_t)(data >> 32);
  return 1;
}

int nnoc_drv_drain(nnoc_dev_t *d, uint64_t timeout) {
  int rc = accel_job_start(d->bus);
  return rc ? rc : accel_job_wait(d->bus, timeout);
}

int nnoc_drv_stats(nnoc_dev_t *d, nnoc_drv_stats_t *s) {
  accel_bus *b = d->bus;
  if (b->read32(b->ctx, NEUNOC__PE_FLITS_OFFSET, &s->pe_flits) != 0 ||
      b->read32(b->ctx, NEUNOC__MESH_FLITS_OFFSET, &s->mesh_flits) != 0 ||
      b->read32(b->ctx, NEUNOC__DROPS_OFFSET, &s->drops) != 0 ||
      b->read32(b->ctx, NEUNOC__PE_REPAIRS_OFFSET, &s->repairs) != 0 ||
      b->read32(b->ctx, NEUNOC__ERR_PE_OFFSET, &s->err_pe) != 0)
    return ACCEL_E_BUS;
  return 0;
}
