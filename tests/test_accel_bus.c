/* test_accel_bus.c -- unit tests of the bus-access layer (sw/common/accel_bus.h), built with
 * ASan/UBSan: the /dev/mem back end opened on a temporary file instead of /dev/mem:
 *   - registers: write/read at a window that is not page aligned, the bytes land at
 *     regs_base + off in the file, unaligned and out-of-window offsets are bus errors;
 *   - memory: host copies of every alignment and length land at the right file offsets, reads
 *     return them, copies outside the window fail;
 *   - the bump allocator: alignment (default 64, powers of two), bad alignments and sizes,
 *     exhaustion (ENOMEM, and the allocator keeps working after a refused request), a window
 *     at address 0 never hands out 0, no buffer window;
 *   - wait_irq: 0 without a status register; with one, 1 when the bit is set, 0 after the
 *     timeout when not; streams are -1 (ENODEV);
 *   - the helpers: accel_rd/accel_wr record the first error, accel_poll matches and times out;
 *   - bad arguments: NULL bus, tiny register window, a missing file, windows beyond the file's
 *     end, overflowing windows, close twice, set_irq on a bus that is not devmem.
 * Last line: "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/accel_bus.h"

#include "test_check.h"

enum { FILE_SIZE = 0x10000, REGS_BASE = 0x1010, REGS_SIZE = 0x40, MEM_BASE = 0x4000,
       MEM_SIZE = 0x2000 };

static char path[64];

static int make_file(void) {
  strcpy(path, "/tmp/test_accel_bus_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  if (ftruncate(fd, FILE_SIZE) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static uint32_t file_u32(int fd, off_t at) {
  uint32_t v = 0;
  if (pread(fd, &v, 4, at) != 4) return 0xdeadbeefu;
  return v;
}

static void test_regs(int fd) {
  accel_bus b;
  CHECK(accel_bus_devmem_open(&b, path, REGS_BASE, REGS_SIZE, MEM_BASE, MEM_SIZE) == 0,
        "open on a file (errno %d)", errno);
  for (uint32_t off = 0; off < REGS_SIZE; off += 4)
    CHECK(b.write32(b.ctx, off, 0x11111111u * (off / 4 + 1) ^ 0xa5000000u) == 0, "write32 %u", off);
  int ok = 1;
  for (uint32_t off = 0; off < REGS_SIZE; off += 4) {
    uint32_t v = 0, want = 0x11111111u * (off / 4 + 1) ^ 0xa5000000u;
    ok &= b.read32(b.ctx, off, &v) == 0 && v == want;
    ok &= file_u32(fd, REGS_BASE + off) == want;
  }
  CHECK(ok, "registers read back and sit at regs_base + off in the file");
  uint32_t v = 7;
  CHECK(b.read32(b.ctx, 2, &v) == -1 && v == 7, "unaligned read is a bus error");
  CHECK(b.write32(b.ctx, 1, 0) == -1, "unaligned write is a bus error");
  CHECK(b.read32(b.ctx, REGS_SIZE, &v) == -1, "read past the window is a bus error");
  CHECK(b.write32(b.ctx, 0xfffffffcu, 0) == -1, "write far past the window is a bus error");
  CHECK(b.read32(b.ctx, 0, NULL) == -1, "read32 with a NULL value pointer");

  /* helpers */
  CHECK(accel_wr(&b, 8, 0x1234) == 0 && accel_rd(&b, 8) == 0x1234 && b.errors == 0,
        "accel_wr / accel_rd");
  CHECK(accel_rd(&b, REGS_SIZE + 4) == 0 && b.errors == 1 && b.err_off == REGS_SIZE + 4 &&
            b.err_write == 0, "accel_rd records the error");
  CHECK(accel_wr(&b, 3, 0) == -1 && b.errors == 2 && b.err_off == REGS_SIZE + 4,
        "accel_wr counts, the first error is kept");
  accel_err_clear(&b);
  CHECK(accel_wr(&b, REGS_SIZE, 0) == -1 && b.errors == 1 && b.err_write == 1, "write error");
  accel_err_clear(&b);
  CHECK(accel_poll(&b, 8, 0xff00, 0x1200, 1000) == 1, "accel_poll matches at once");
  uint64_t t0 = b.now(b.ctx);
  CHECK(accel_poll(&b, 8, 0xff, 0x00, 2000) == 0, "accel_poll times out");
  uint64_t dt = b.now(b.ctx) - t0;
  CHECK(dt >= 2000 && dt < 2000000, "accel_poll timeout measured in us (%llu)",
        (unsigned long long)dt);
  CHECK(accel_poll(&b, REGS_SIZE, 1, 1, 10) == -1 && b.errors == 1, "accel_poll bus error");
  CHECK(accel_rd(NULL, 0) == 0 && accel_wr(NULL, 0, 0) == -1 && accel_poll(NULL, 0, 0, 0, 0) == -1,
        "helpers on a NULL bus");

  /* interrupt and streams */
  CHECK(b.wait_irq(b.ctx, 100000) == 0, "wait_irq without a status register returns 0");
  CHECK(accel_bus_devmem_set_irq(&b, 0x10, 0) == -1 && errno == EINVAL, "set_irq mask 0");
  CHECK(accel_bus_devmem_set_irq(&b, 0x12, 1) == -1 && errno == EINVAL, "set_irq unaligned");
  CHECK(accel_bus_devmem_set_irq(&b, REGS_SIZE, 1) == -1 && errno == EINVAL, "set_irq outside");
  CHECK(accel_bus_devmem_set_irq(&b, 0x10, 0x2) == 0, "set_irq");
  accel_wr(&b, 0x10, 0x1);
  t0 = b.now(b.ctx);
  CHECK(b.wait_irq(b.ctx, 3000) == 0, "wait_irq: other bit set, times out");
  CHECK(b.now(b.ctx) - t0 >= 3000, "wait_irq waited the timeout");
  accel_wr(&b, 0x10, 0x3);
  CHECK(b.wait_irq(b.ctx, 1000000) == 1, "wait_irq: status bit set");
  uint64_t d = 0;
  unsigned id = 0;
  int last = 0;
  errno = 0;
  CHECK(b.stream_send(b.ctx, 0, 1, 0, 1) == -1 && errno == ENODEV, "stream_send is -1");
  errno = 0;
  CHECK(b.stream_recv(b.ctx, 0, &d, &id, &last) == -1 && errno == ENODEV, "stream_recv is -1");
  t0 = b.now(b.ctx);
  b.idle(b.ctx, 500);
  CHECK(b.now(b.ctx) - t0 >= 500, "idle sleeps");

  CHECK(accel_bus_devmem_close(&b) == 0, "close");
  CHECK(accel_bus_devmem_close(&b) == -1 && errno == EINVAL, "close twice");
  CHECK(b.read32 == NULL && b.ctx == NULL, "closed bus is zeroed");
}

static void test_mem(int fd) {
  accel_bus b;
  CHECK(accel_bus_devmem_open(&b, path, REGS_BASE, REGS_SIZE, MEM_BASE, MEM_SIZE) == 0, "open");
  /* copies of every start alignment and length 0..19 */
  uint8_t src[64], dst[64], file[64];
  int ok = 1;
  for (unsigned a = 0; a < 8; a++)
    for (size_t n = 0; n < 20; n++) {
      for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(a * 31 + n * 7 + i * 13 + 1);
      uint64_t addr = MEM_BASE + 0x100 + a;
      memset(dst, 0xee, sizeof dst);
      ok &= b.mem_write(b.ctx, addr, src, n) == 0;
      ok &= b.mem_read(b.ctx, addr, dst, n) == 0;
      ok &= memcmp(src, dst, n) == 0 && dst[n] == 0xee;
      ok &= pread(fd, file, n, (off_t)(addr)) == (ssize_t)n && memcmp(src, file, n) == 0;
    }
  CHECK(ok, "mem_write/mem_read of every alignment and length land in the file");
  CHECK(b.mem_write(b.ctx, MEM_BASE + MEM_SIZE - 4, src, 4) == 0, "copy ending at the window end");
  CHECK(b.mem_write(b.ctx, MEM_BASE + MEM_SIZE - 4, src, 5) == -1, "copy past the window end");
  CHECK(b.mem_read(b.ctx, MEM_BASE - 1, dst, 2) == -1, "copy before the window");
  CHECK(b.mem_read(b.ctx, UINT64_MAX, dst, 2) == -1, "copy at 2^64 - 1");
  CHECK(b.mem_read(b.ctx, MEM_BASE, dst, SIZE_MAX) == -1, "copy of SIZE_MAX bytes");
  CHECK(b.mem_write(b.ctx, MEM_BASE, NULL, 4) == -1 && errno == EINVAL, "NULL source");
  CHECK(b.mem_read(b.ctx, MEM_BASE, NULL, 0) == 0, "empty copy with NULL");

  /* allocator */
  uint64_t a1 = b.mem_alloc(b.ctx, 10, 0);
  uint64_t a2 = b.mem_alloc(b.ctx, 1, 1);
  uint64_t a3 = b.mem_alloc(b.ctx, 100, 256);
  uint64_t a4 = b.mem_alloc(b.ctx, 4, 4096);
  CHECK(a1 == MEM_BASE, "first allocation at the window base (%llx)", (unsigned long long)a1);
  CHECK(a2 == MEM_BASE + 10, "align 1 packs (%llx)", (unsigned long long)a2);
  CHECK(a3 == MEM_BASE + 0x100, "align 256 (%llx)", (unsigned long long)a3);
  CHECK(a4 == MEM_BASE + 0x1000, "align 4096 (%llx)", (unsigned long long)a4);
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, 8, 3) == 0 && errno == EINVAL, "align 3 refused");
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, 0, 8) == 0 && errno == EINVAL, "0 bytes refused");
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, MEM_SIZE, 8) == 0 && errno == ENOMEM, "too big: ENOMEM");
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, SIZE_MAX, 8) == 0 && errno == ENOMEM, "SIZE_MAX: ENOMEM");
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, 8, (size_t)1 << 62) == 0 && errno == ENOMEM, "huge alignment");
  uint64_t a5 = b.mem_alloc(b.ctx, MEM_SIZE - 0x1004, 4);
  CHECK(a5 == MEM_BASE + 0x1004, "the rest of the window after a refusal (%llx)",
        (unsigned long long)a5);
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, 1, 1) == 0 && errno == ENOMEM, "exhausted");
  CHECK(b.mem_write(b.ctx, a5, src, MEM_SIZE - 0x1004 < sizeof src ? 4 : sizeof src) == 0,
        "allocated memory is writable");
  accel_bus_devmem_close(&b);

  /* a window at address 0: 0 is never handed out */
  CHECK(accel_bus_devmem_open(&b, path, REGS_BASE, REGS_SIZE, 0, 0x100) == 0, "open at 0");
  uint64_t z = b.mem_alloc(b.ctx, 16, 16);
  CHECK(z == 16, "window at 0: first allocation skips address 0 (%llx)", (unsigned long long)z);
  CHECK(b.mem_alloc(b.ctx, 0x100 - 32, 16) == 32, "window at 0: the rest");
  accel_bus_devmem_close(&b);

  /* no buffer window */
  CHECK(accel_bus_devmem_open(&b, path, 0, 4, 0, 0) == 0, "open without a buffer window");
  errno = 0;
  CHECK(b.mem_alloc(b.ctx, 1, 1) == 0 && errno == ENOMEM, "no buffer window: no allocation");
  CHECK(b.mem_write(b.ctx, 0, src, 1) == -1, "no buffer window: no copy");
  CHECK(b.mem_read(b.ctx, 0, dst, 0) == 0, "no buffer window: empty copy at 0");
  accel_bus_devmem_close(&b);
}

static void test_bad_args(void) {
  accel_bus b, other;
  memset(&other, 0, sizeof other);
  errno = 0;
  CHECK(accel_bus_devmem_open(NULL, path, 0, 4, 0, 0) == -1 && errno == EINVAL, "NULL bus");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, path, 0, 0, 0, 0) == -1 && errno == EINVAL, "no registers");
  CHECK(b.read32 == NULL, "a failed open leaves no functions");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, path, 0, 3, 0, 0) == -1 && errno == EINVAL, "3-byte registers");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, "/nonexistent/accel", 0, 4, 0, 0) == -1 && errno == ENOENT,
        "missing file: ENOENT");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, path, FILE_SIZE - 4, 8, 0, 0) == -1 && errno == ENXIO,
        "registers past the file's end: ENXIO");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, path, 0, 4, FILE_SIZE, 1) == -1 && errno == ENXIO,
        "memory past the file's end: ENXIO");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, path, UINT64_MAX - 2, 4, 0, 0) == -1 && errno == EOVERFLOW,
        "register window wraps: EOVERFLOW");
  errno = 0;
  CHECK(accel_bus_devmem_open(&b, path, 0, 4, UINT64_MAX, 2) == -1 && errno == EOVERFLOW,
        "memory window wraps: EOVERFLOW");
  errno = 0;
  CHECK(accel_bus_devmem_close(NULL) == -1 && errno == EINVAL, "close NULL");
  errno = 0;
  CHECK(accel_bus_devmem_close(&other) == -1 && errno == EINVAL, "close a bus never opened");
  errno = 0;
  CHECK(accel_bus_devmem_set_irq(&other, 0, 1) == -1 && errno == EINVAL, "set_irq not devmem");
}

int main(void) {
  int fd = make_file();
  CHECK(fd >= 0, "temporary file");
  if (fd >= 0) {
    test_regs(fd);
    test_mem(fd);
    test_bad_args();
    close(fd);
    unlink(path);
  }
  return CHECK_SUMMARY();
}
