/* libaccel_shell.c -- the job sequence shared by every block's driver (accel_shell.h). */
#include "accel_shell.h"

int accel_shell_probe(accel_bus *bus, uint32_t block_id) {
  uint32_t id;
  if (bus->read32(bus->ctx, ACCEL_SHELL_ID, &id) != 0) return ACCEL_E_BUS;
  return ((id & 0xFFFFu) == block_id) ? 0 : ACCEL_E_ID;
}

int accel_job_start(accel_bus *bus) {
  if (bus->write32(bus->ctx, ACCEL_SHELL_INTR_STATUS, ACCEL_INTR_DONE | ACCEL_INTR_ERROR) != 0 ||
      bus->write32(bus->ctx, ACCEL_SHELL_INTR_ENABLE, ACCEL_INTR_DONE | ACCEL_INTR_ERROR) != 0 ||
      bus->write32(bus->ctx, ACCEL_SHELL_CTRL, 1u) != 0)
    return ACCEL_E_BUS;
  return 0;
}

int accel_job_wait(accel_bus *bus, uint64_t timeout) {
  uint32_t st, code;
  int irq = bus->wait_irq(bus->ctx, timeout);
  if (bus->read32(bus->ctx, ACCEL_SHELL_STATUS, &st) != 0) return ACCEL_E_BUS;
  if (!irq && !(st & ACCEL_ST_DONE)) return ACCEL_E_TIMEOUT;
  if (bus->read32(bus->ctx, ACCEL_SHELL_ERR_CODE, &code) != 0 ||
      bus->write32(bus->ctx, ACCEL_SHELL_INTR_STATUS, ACCEL_INTR_DONE | ACCEL_INTR_ERROR) != 0)
    return ACCEL_E_BUS;
  if (st & ACCEL_ST_ERROR) return (int)(code & 0x3FFu);
  return (st & ACCEL_ST_DONE) ? 0 : ACCEL_E_TIMEOUT;
}

int accel_counters_read(accel_bus *bus, accel_counters_t *c) {
  if (bus->read32(bus->ctx, ACCEL_SHELL_CYC_BUSY, &c->cyc_busy) != 0 ||
      bus->read32(bus->ctx, ACCEL_SHELL_CYC_STALL, &c->cyc_stall) != 0 ||
      bus->read32(bus->ctx, ACCEL_SHELL_RD_BURSTS, &c->rd_bursts) != 0 ||
      bus->read32(bus->ctx, ACCEL_SHELL_WR_BURSTS, &c->wr_bursts) != 0)
    return ACCEL_E_BUS;
  return 0;
}

int accel_counters_clear(accel_bus *bus) {
  return bus->write32(bus->ctx, ACCEL_SHELL_CTRL, 2u) != 0 ? ACCEL_E_BUS : 0;
}
