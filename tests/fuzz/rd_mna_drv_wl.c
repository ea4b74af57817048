/* rd_mna_drv_wl.c -- fuzz target of the MANNA driver's workload reader mna_drv_wl_read
 * (sw/manna/libmna_driver.c) on a fake device: the configuration is the input's first cfg line
 * when it is valid (else mna_cfg_default), and device memory is a bump allocator over a 32-bit
 * window that keeps no data.  Oracles: an error is one line "in:<line>: ..."; every device-memory
 * write lies inside one allocation; an accepted workload's records are inside their spaces. */
#include <stdlib.h>
#include <string.h>

#include "common/accel_bus.h"
#include "cutil.h"
#include "fz.h"
#include "manna/mna_driver.h"

typedef struct {
  uint64_t next;
  struct {
    uint64_t lo, hi;
  } a[4096];
  int n;
} fake_t;

static uint64_t fake_alloc(void *ctx, size_t bytes, size_t align) {
  fake_t *f = ctx;
  if (!align) align = 64;
  uint64_t at = (f->next + align - 1) & ~(uint64_t)(align - 1);
  if (bytes == 0 || at + bytes > (1ull << 32) || f->n == 4096) return 0;
  f->a[f->n].lo = at, f->a[f->n].hi = at + bytes, f->n++;
  f->next = at + bytes;
  return at;
}

static int fake_write(void *ctx, uint64_t addr, const void *src, size_t n) {
  fake_t *f = ctx;
  (void)src;
  int inside = 0;
  for (int i = 0; i < f->n && !inside; i++) inside = addr >= f->a[i].lo && addr + n <= f->a[i].hi;
  FZ_CHECK(inside, "device write 0x%llx +%zu outside every allocation", (unsigned long long)addr,
           n);
  return 0;
}

static int fake_read(void *ctx, uint64_t addr, void *dst, size_t n) {
  (void)ctx, (void)addr;
  memset(dst, 0, n);
  return 0;
}

/* The input's first "cfg k=v ..." line as a configuration, if valid. */
static void cfg_from_input(const uint8_t *d, size_t n, mna_cfg_t *c) {
  mna_cfg_default(c);
  const uint8_t *p = d, *end = d + n;
  while (p < end) {
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = (size_t)((nl ? nl : end) - p);
    if (len > 4 && len < 512 && !memcmp(p, "cfg ", 4)) {
      char line[512], *tok[16];
      memcpy(line, p, len);
      line[len] = '\0';
      mna_cfg_t t = *c;
      int nt = cutil_tokenize(line, tok, 16, NULL);
      for (int i = 1; i < nt; i++) {
        char *eq = strchr(tok[i], '=');
        uint64_t v;
        if (!eq || cutil_parse_dec(eq + 1, 0, 1u << 30, &v)) continue;
        *eq = 0;
        int *fld = !strcmp(tok[i], "tiles")  ? &t.tiles
                   : !strcmp(tok[i], "emacs") ? &t.emacs
                   : !strcmp(tok[i], "mb")    ? &t.mb_lines
                   : !strcmp(tok[i], "ms")    ? &t.ms_lines
                   : !strcmp(tok[i], "vb")    ? &t.vb_lines
                   : !strcmp(tok[i], "vs")    ? &t.vs_lines
                   : !strcmp(tok[i], "imem")  ? &t.imem_depth
                   : !strcmp(tok[i], "rf")    ? &t.rf_regs
                                              : NULL;
        if (fld) *fld = (int)v;
      }
      if (mna_cfg_check(&t, NULL, 0) == 0) *c = t;
      return;
    }
    if (!nl) break;
    p = nl + 1;
  }
}

static fake_t g_fake;

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  memset(&g_fake, 0, sizeof g_fake);
  g_fake.next = 64;
  accel_bus bus;
  memset(&bus, 0, sizeof bus);
  bus.ctx = &g_fake;
  bus.mem_alloc = fake_alloc;
  bus.mem_write = fake_write;
  bus.mem_read = fake_read;
  mna_dev_t dev;
  memset(&dev, 0, sizeof dev);
  dev.bus = &bus;
  dev.axi_addr_w = 32;
  cfg_from_input(d, n, &dev.cfg);
  mna_drv_wl_t wl;
  char err[512] = "";
  int rc = mna_drv_wl_read(&dev, f, "in", &wl, err, sizeof err);
  fclose(f);
  if (rc != 0) {
    FZ_CHECK(rc == -1 && !strncmp(err, "in:", 3) && !strchr(err, '\n'),
             "refused without a one-line 'in:<line>: ...' reason: %d '%s'", rc, err);
    fz_log("refused: %s\n", err);
    return 0;
  }
  for (size_t i = 0; i < wl.nrec; i++) {
    const mna_drv_rec_t *r = &wl.rec[i];
    if (r->kind == 's') continue;
    uint32_t words = mna_drv_space_words(&dev, r->space);
    FZ_CHECK((uint64_t)r->addr + r->n <= words && r->tile < dev.cfg.tiles,
             "record %zu (%c) beyond its space", i, r->kind);
  }
  fz_log("%zu records\n", wl.nrec);
  mna_drv_wl_free(&wl);
  return 0;
}
