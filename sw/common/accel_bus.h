/* accel_bus.h -- the bus-access layer every block driver (sw/<blk>/) is written against, so the
 * same C driver runs in a Verilator harness and on a board (docs/axi_drivers.md).
 *
 * A back end fills one accel_bus: a context pointer and a table of functions.
 *   read32 / write32   one 32-bit access to the block's AXI4-Lite register window (byte offset);
 *                      0 ok, -1 bus error (SLVERR/DECERR, or an offset outside the window)
 *   mem_alloc          device (bus) address of `bytes` bytes aligned to `align` (a power of two;
 *                      0 means 64) in memory the block's AXI4 master can reach; 0 = out of memory
 *                      or bad arguments (errno ENOMEM / EINVAL).  A bump allocator: nothing is
 *                      freed until the back end is closed.  Address 0 is never handed out.
 *   mem_write/mem_read host copies to/from device memory: 0 ok, -1 outside the memory window
 *   wait_irq           1 once the interrupt is high, 0 when `timeout` passed first
 *                      (harness: clock cycles; board: microseconds)
 *   stream_send        queue one AXI-Stream beat for input stream `port`: 0 queued, -1 no such
 *                      port
 *   stream_recv        take one beat of output stream `port`: 1 got a beat, 0 none yet (the
 *                      harness lets one cycle pass then, so a polling loop makes progress),
 *                      -1 no such port
 *   idle               let time pass (harness: cycles; board: microseconds)
 *   now                optional (may be NULL): the back end's time in its unit; accel_poll uses
 *                      it for its timeout
 *
 * Back ends: the Verilator harness (TbAccelBus in tb/common/tb_axi.h) and /dev/mem (below).
 *
 * Helpers (libaccel_bus.c)
 *   accel_rd(bus, off)        read32; on a bus error returns 0 and records it (see errors)
 *   accel_wr(bus, off, v)     write32; returns its status and records an error
 *   accel_poll(bus, off, mask, value, timeout)  reads off until (reg & mask) == value: 1 matched,
 *                             0 timed out (timeout in the back end's unit, measured with now();
 *                             a back end without now() counts one unit per poll), -1 bus error
 *   accel_err_clear(bus)      forgets the recorded errors
 *   The bus records the errors of accel_rd/accel_wr/accel_poll in `errors` (how many since the
 *   last clear), `err_off` and `err_write` (the offset and direction of the first one), so a
 *   driver may do a whole sequence of accesses and check once.
 *
 * The /dev/mem back end (board, or any file in tests)
 *   accel_bus_devmem_open(bus, path, regs_base, regs_size, mem_base, mem_size)
 *       maps [regs_base, regs_base + regs_size) of `path` (NULL: "/dev/mem") as the register
 *       window and [mem_base, mem_base + mem_size) as the buffer window: a physically contiguous
 *       region the block's AXI master reaches at the same addresses (e.g. a reserved-memory
 *       node); mem_size 0: no buffer window.  Bases need not be page aligned.  0 ok; -1 with
 *       errno (EINVAL bad arguments, EOVERFLOW a window beyond 64-bit/off_t, ENXIO a regular
 *       file shorter than a window, or open/mmap's errno); the bus is left unusable then.
 *       Device memory is copied with aligned 32-bit accesses (bytes at the edges): safe on
 *       uncached device mappings, which fault on unaligned or wide accesses on some CPUs.
 *   accel_bus_devmem_set_irq(bus, status_off, mask)
 *       wait_irq polls the register at status_off until (reg & mask) != 0 (for a block:
 *       INTR_STATUS, offset 0x10).  Until this is called, wait_irq returns 0 at once: a driver
 *       then polls STATUS itself.  0 ok, -1 EINVAL (not a devmem bus, bad offset, mask 0).
 *   accel_bus_devmem_close(bus)  unmaps and closes; 0 ok, -1 EINVAL (not an open devmem bus).
 *   Streams are not modelled: stream_send/stream_recv return -1 (errno ENODEV).  On a board a
 *   block's AXI-Stream ports are wired to an AXI-Stream FIFO or a DMA engine, which has its own
 *   driver.
 */
#ifndef ACCEL_BUS_H
#define ACCEL_BUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct accel_bus {
  void *ctx;
  int      (*read32)(void *ctx, uint32_t off, uint32_t *val);
  int      (*write32)(void *ctx, uint32_t off, uint32_t val);
  uint64_t (*mem_alloc)(void *ctx, size_t bytes, size_t align);
  int      (*mem_write)(void *ctx, uint64_t addr, const void *src, size_t n);
  int      (*mem_read)(void *ctx, uint64_t addr, void *dst, size_t n);
  int      (*wait_irq)(void *ctx, uint64_t timeout);
  int      (*stream_send)(void *ctx, unsigned port, uint64_t data, unsigned id, int last);
  int      (*stream_recv)(void *ctx, unsigned port, uint64_t *data, unsigned *id, int *last);
  void     (*idle)(void *ctx, unsigned cycles_or_us);
  uint64_t (*now)(void *ctx);  /* optional (NULL) */
  /* errors recorded by accel_rd / accel_wr / accel_poll */
  unsigned errors;    /* bus errors since the last accel_err_clear */
  uint32_t err_off;   /* offset of the first of them */
  int      err_write; /* 1: the first was a write */
} accel_bus;

uint32_t accel_rd(accel_bus *bus, uint32_t off);
int accel_wr(accel_bus *bus, uint32_t off, uint32_t val);
int accel_poll(accel_bus *bus, uint32_t off, uint32_t mask, uint32_t value, uint64_t timeout);
void accel_err_clear(accel_bus *bus);

int accel_bus_devmem_open(accel_bus *bus, const char *path, uint64_t regs_base, size_t regs_size,
                          uint64_t mem_base, size_t mem_size);
int accel_bus_devmem_set_irq(accel_bus *bus, uint32_t status_off, uint32_t mask);
int accel_bus_devmem_close(accel_bus *bus);

/* 32-bit little-endian words in a byte buffer (the device memory's byte order), for drivers that
   stage host copies through the bus's mem_write / mem_read. */
static inline void accel_put_le32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}
static inline uint32_t accel_get_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#ifdef __cplusplus
}
#endif

#endif
