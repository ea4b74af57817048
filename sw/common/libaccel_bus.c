/* libaccel_bus.c -- the driver helpers of the bus-access layer and its /dev/mem back end
 * (sw/common/accel_bus.h, docs/axi_drivers.md).  C11 + POSIX (open, mmap, clock_gettime). */
#define _POSIX_C_SOURCE 200809L

#include "accel_bus.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ================================================================ helpers */

static void note_err(accel_bus *bus, uint32_t off, int write) {
  if (bus->errors++ == 0) {
    bus->err_off = off;
    bus->err_write = write;
  }
}

uint32_t accel_rd(accel_bus *bus, uint32_t off) {
  uint32_t v = 0;
  if (!bus || !bus->read32) return 0;
  if (bus->read32(bus->ctx, off, &v) != 0) {
    note_err(bus, off, 0);
    return 0;
  }
  return v;
}

int accel_wr(accel_bus *bus, uint32_t off, uint32_t val) {
  if (!bus || !bus->write32) return -1;
  if (bus->write32(bus->ctx, off, val) != 0) {
    note_err(bus, off, 1);
    return -1;
  }
  return 0;
}

int accel_poll(accel_bus *bus, uint32_t off, uint32_t mask, uint32_t value, uint64_t timeout) {
  if (!bus || !bus->read32) return -1;
  uint64_t t0 = bus->now ? bus->now(bus->ctx) : 0, polls = 0;
  for (;;) {
    uint32_t v = 0;
    if (bus->read32(bus->ctx, off, &v) != 0) {
      note_err(bus, off, 0);
      return -1;
    }
    if ((v & mask) == value) return 1;
    uint64_t spent = bus->now ? bus->now(bus->ctx) - t0 : ++polls;
    if (spent >= timeout) return 0;
    if (bus->idle) bus->idle(bus->ctx, 1);
  }
}

void accel_err_clear(accel_bus *bus) {
  if (!bus) return;
  bus->errors = 0;
  bus->err_off = 0;
  bus->err_write = 0;
}

/* ================================================================ the /dev/mem back end */

typedef struct {
  int fd;
  void *regs_map;  /* page-aligned mapping and its length */
  size_t regs_map_len;
  volatile uint8_t *regs; /* regs_base inside it */
  size_t regs_size;
  void *mem_map;
  size_t mem_map_len;
  volatile uint8_t *mem;
  uint64_t mem_base;
  size_t mem_size;
  size_t next; /* bump allocator: first free byte, as an offset into the buffer window */
  int irq_set;
  uint32_t irq_off, irq_mask;
} devmem_ctx;

static int dm_read32(void *ctx, uint32_t off, uint32_t *val) {
  devmem_ctx *c = (devmem_ctx *)ctx;
  if (!c || !val || (off & 3u) || (size_t)off + 4 > c->regs_size) {
    errno = EINVAL;
    return -1;
  }
  *val = *(volatile uint32_t *)(c->regs + off);
  return 0;
}

static int dm_write32(void *ctx, uint32_t off, uint32_t val) {
  devmem_ctx *c = (devmem_ctx *)ctx;
  if (!c || (off & 3u) || (size_t)off + 4 > c->regs_size) {
    errno = EINVAL;
    return -1;
  }
  *(volatile uint32_t *)(c->regs + off) = val;
  return 0;
}

static uint64_t dm_mem_alloc(void *ctx, size_t bytes, size_t align) {
  devmem_ctx *c = (devmem_ctx *)ctx;
  if (align == 0) align = 64;
  if (!c || bytes == 0 || (align & (align - 1)) != 0) {
    errno = EINVAL;
    return 0;
  }
  uint64_t a = c->mem_base + c->next, mask = (uint64_t)align - 1;
  if (c->mem_size == 0 || a > UINT64_MAX - mask) {
    errno = ENOMEM;
    return 0;
  }
  a = (a + mask) & ~mask;
  if (a == 0) a = align; /* 0 means "out of memory": never hand it out */
  uint64_t start = a - c->mem_base;
  if (start > c->mem_size || bytes > c->mem_size - start) {
    errno = ENOMEM;
    return 0;
  }
  c->next = (size_t)(start + bytes);
  return a;
}

/* Offset of [addr, addr + n) inside the buffer window, or -1. */
static int dm_window(const devmem_ctx *c, uint64_t addr, size_t n, size_t *at) {
  if (!c || addr < c->mem_base) return -1;
  uint64_t o = addr - c->mem_base;
  if (o > c->mem_size || n > c->mem_size - o) return -1;
  *at = (size_t)o;
  return 0;
}

/* Device memory: aligned 32-bit accesses, bytes at the edges (the window keeps the physical
 * address's alignment, so the device pointer's alignment is the bus address's). */
static int dm_mem_write(void *ctx, uint64_t addr, const void *src, size_t n) {
  devmem_ctx *c = (devmem_ctx *)ctx;
  size_t at;
  if ((n && !src) || dm_window(c, addr, n, &at) != 0) {
    errno = EINVAL;
    return -1;
  }
  volatile uint8_t *d = c->mem + at;
  const uint8_t *s = (const uint8_t *)src;
  while (n && ((uintptr_t)d & 3u)) {
    *d++ = *s++;
    n--;
  }
  for (; n >= 4; n -= 4, d += 4, s += 4) {
    uint32_t w;
    memcpy(&w, s, 4);
    *(volatile uint32_t *)d = w;
  }
  while (n--) *d++ = *s++;
  return 0;
}

static int dm_mem_read(void *ctx, uint64_t addr, void *dst, size_t n) {
  devmem_ctx *c = (devmem_ctx *)ctx;
  size_t at;
  if ((n && !dst) || dm_window(c, addr, n, &at) != 0) {
    errno = EINVAL;
    return -1;
  }
  const volatile uint8_t *s = c->mem + at;
  uint8_t *d = (uint8_t *)dst;
  while (n && ((uintptr_t)s & 3u)) {
    *d++ = *s++;
    n--;
  }
  for (; n >= 4; n -= 4, d += 4, s += 4) {
    uint32_t w = *(const volatile uint32_t *)s;
    memcpy(d, &w, 4);
  }
  while (n--) *d++ = *s++;
  return 0;
}

static uint64_t dm_now(void *ctx) {
  (void)ctx;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

static void dm_idle(void *ctx, unsigned us) {
  (void)ctx;
  struct timespec t = {(time_t)(us / 1000000u), (long)(us % 1000000u) * 1000L};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

static int dm_wait_irq(void *ctx, uint64_t timeout) {
  devmem_ctx *c = (devmem_ctx *)ctx;
  if (!c || !c->irq_set) return 0;
  uint64_t t0 = dm_now(ctx);
  for (;;) {
    uint32_t v = 0;
    if (dm_read32(ctx, c->irq_off, &v) == 0 && (v & c->irq_mask)) return 1;
    if (dm_now(ctx) - t0 >= timeout) return 0;
    dm_idle(ctx, 1);
  }
}

static int dm_stream_send(void *ctx, unsigned port, uint64_t data, unsigned id, int last) {
  (void)ctx, (void)port, (void)data, (void)id, (void)last;
  errno = ENODEV;
  return -1;
}

static int dm_stream_recv(void *ctx, unsigned port, uint64_t *data, unsigned *id, int *last) {
  (void)ctx, (void)port, (void)data, (void)id, (void)last;
  errno = ENODEV;
  return -1;
}

/* Maps [base, base + size) of fd with page-aligned mmap arguments. */
static int map_window(int fd, uint64_t base, size_t size, void **map, size_t *len,
                      volatile uint8_t **p) {
  long pg = sysconf(_SC_PAGESIZE);
  uint64_t page = pg > 0 ? (uint64_t)pg : 4096u;
  uint64_t pbase = base & ~(page - 1), delta = base - pbase;
  uint64_t off_max = ~(uint64_t)0 >> (65 - 8 * sizeof(off_t));
  if (pbase > off_max || size > SIZE_MAX - delta) {
    errno = EOVERFLOW;
    return -1;
  }
  *len = (size_t)delta + size;
  void *m = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)pbase);
  if (m == MAP_FAILED) return -1;
  *map = m;
  *p = (volatile uint8_t *)m + delta;
  return 0;
}

int accel_bus_devmem_open(accel_bus *bus, const char *path, uint64_t regs_base, size_t regs_size,
                          uint64_t mem_base, size_t mem_size) {
  if (!bus) {
    errno = EINVAL;
    return -1;
  }
  memset(bus, 0, sizeof *bus);
  if (regs_size < 4) {
    errno = EINVAL;
    return -1;
  }
  if (regs_base > UINT64_MAX - regs_size || (mem_size && mem_base > UINT64_MAX - mem_size)) {
    errno = EOVERFLOW;
    return -1;
  }
  devmem_ctx *c = (devmem_ctx *)calloc(1, sizeof *c);
  if (!c) return -1; /* errno ENOMEM */
  c->fd = open(path ? path : "/dev/mem", O_RDWR | O_SYNC);
  if (c->fd < 0) goto fail;
  struct stat st;
  if (fstat(c->fd, &st) != 0) goto fail;
  if (S_ISREG(st.st_mode)) {
    /* a mapping beyond a file's end would fault (SIGBUS) on access */
    uint64_t fsize = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    if (regs_base + regs_size > fsize || (mem_size && mem_base + mem_size > fsize)) {
      errno = ENXIO;
      goto fail;
    }
  }
  if (map_window(c->fd, regs_base, regs_size, &c->regs_map, &c->regs_map_len, &c->regs) != 0)
    goto fail;
  c->regs_size = regs_size;
  if (mem_size) {
    if (map_window(c->fd, mem_base, mem_size, &c->mem_map, &c->mem_map_len, &c->mem) != 0)
      goto fail;
    c->mem_base = mem_base;
    c->mem_size = mem_size;
  }
  bus->ctx = c;
  bus->read32 = dm_read32;
  bus->write32 = dm_write32;
  bus->mem_alloc = dm_mem_alloc;
  bus->mem_write = dm_mem_write;
  bus->mem_read = dm_mem_read;
  bus->wait_irq = dm_wait_irq;
  bus->stream_send = dm_stream_send;
  bus->stream_recv = dm_stream_recv;
  bus->idle = dm_idle;
  bus->now = dm_now;
  return 0;
fail : {
  int e = errno;
  if (c->regs_map) munmap(c->regs_map, c->regs_map_len);
  if (c->fd >= 0) close(c->fd);
  free(c);
  errno = e;
  return -1;
}
}

static devmem_ctx *dm_of(accel_bus *bus) {
  if (!bus || bus->read32 != dm_read32 || !bus->ctx) {
    errno = EINVAL;
    return NULL;
  }
  return (devmem_ctx *)bus->ctx;
}

int accel_bus_devmem_set_irq(accel_bus *bus, uint32_t status_off, uint32_t mask) {
  devmem_ctx *c = dm_of(bus);
  if (!c) return -1;
  if (mask == 0 || (status_off & 3u) || (size_t)status_off + 4 > c->regs_size) {
    errno = EINVAL;
    return -1;
  }
  c->irq_set = 1;
  c->irq_off = status_off;
  c->irq_mask = mask;
  return 0;
}

int accel_bus_devmem_close(accel_bus *bus) {
  devmem_ctx *c = dm_of(bus);
  if (!c) return -1;
  munmap(c->regs_map, c->regs_map_len);
  if (c->mem_map) munmap(c->mem_map, c->mem_map_len);
  close(c->fd);
  free(c);
  memset(bus, 0, sizeof *bus);
  return 0;
}
