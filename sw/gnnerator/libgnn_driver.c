/* libgnn_driver.c -- driver of gnnerator_axi (gnn_driver.h). */
#include "gnn_driver.h"

#include "gnnerator_regs.h"

/* The generated map's common registers are the shell's. */
_Static_assert(GNNERATOR__CTRL_OFFSET == ACCEL_SHELL_CTRL, "shell map");
_Static_assert(GNNERATOR__STATUS_OFFSET == ACCEL_SHELL_STATUS, "shell map");
_Static_assert(GNNERATOR__ERR_CODE_OFFSET == ACCEL_SHELL_ERR_CODE, "shell map");
_Static_assert(GNNERATOR__INTR_STATUS_OFFSET == ACCEL_SHELL_INTR_STATUS, "shell map");
_Static_assert(GNNERATOR__INTR_ENABLE_OFFSET == ACCEL_SHELL_INTR_ENABLE, "shell map");
_Static_assert(GNNERATOR__WR_BURSTS_OFFSET == ACCEL_SHELL_WR_BURSTS, "shell map");
_Static_assert(GNNERATOR__ID__BLOCK_reset == GNN_DRV_BLOCK_ID, "block id");

#define RD(off, v) (d->bus->read32(d->bus->ctx, (off), (v)) != 0)
#define WR(off, v) (d->bus->write32(d->bus->ctx, (off), (v)) != 0)
#define FIELD(v, reg, f) (((v) & GNNERATOR__##reg##__##f##_bm) >> GNNERATOR__##reg##__##f##_bp)

enum { CHUNK_WORDS = 256 }; /* host copies go through a small buffer of little-endian bytes */


int gnn_drv_open(gnn_dev_t *d, accel_bus *bus) {
  uint32_t h0, h1, h2, h3, h4;
  int rc;
  d->bus = bus;
  if ((rc = accel_shell_probe(bus, GNN_DRV_BLOCK_ID)) != 0) return rc;
  if (RD(GNNERATOR__HWCFG0_OFFSET, &h0) || RD(GNNERATOR__HWCFG1_OFFSET, &h1) ||
      RD(GNNERATOR__HWCFG2_OFFSET, &h2) || RD(GNNERATOR__HWCFG3_OFFSET, &h3) ||
      RD(GNNERATOR__HWCFG4_OFFSET, &h4))
    return ACCEL_E_BUS;
  if (gnn_cfg_init(&d->cfg, (int)FIELD(h0, HWCFG0, ROWS), (int)FIELD(h0, HWCFG0, COLS),
                   (int)FIELD(h2, HWCFG2, IN_DEPTH), (int)FIELD(h2, HWCFG2, WT_DEPTH),
                   (int)FIELD(h3, HWCFG3, OUT_DEPTH), (int)FIELD(h1, HWCFG1, ADDRW)) != 0)
    return ACCEL_E_ID;
  if (FIELD(h0, HWCFG0, GPES) != 0 &&
      (gnn_cfg_graph(&d->cfg, (int)FIELD(h0, HWCFG0, GPES), (int)FIELD(h0, HWCFG0, LANES),
                     (int)FIELD(h3, HWCFG3, EDGE_DEPTH), (int)FIELD(h4, HWCFG4, IF_DEPTH),
                     (int)FIELD(h4, HWCFG4, MF_DEPTH)) != 0 ||
       gnn_cfg_sfus(&d->cfg, (int)FIELD(h1, HWCFG1, SFUS)) != 0))
    return ACCEL_E_ID;
  d->beat_bytes = FIELD(h1, HWCFG1, BEAT_BYTES);
  if (d->beat_bytes < 16 || (d->beat_bytes & (d->beat_bytes - 1)) != 0 ||
      FIELD(h1, HWCFG1, PW) != (uint32_t)d->cfg.pw)
    return ACCEL_E_ID;
  return 0;
}

int gnn_drv_cfg_matches(const gnn_dev_t *d, const gnn_cfg_t *c) {
  const gnn_cfg_t *h = &d->cfg;
  if (c->rows != h->rows || c->cols != h->cols || c->addr_w != h->addr_w || c->gpes != h->gpes)
    return 0;
  for (int i = 0; i < 3; i++)
    if (c->depth[i] != h->depth[i]) return 0;
  if (h->gpes == 0) return 1;
  for (int i = 0; i < 3; i++)
    if (c->gdepth[i] != h->gdepth[i]) return 0;
  return c->lanes == h->lanes && c->sfus == h->sfus;
}

static int window_ok(const gnn_dev_t *d, uint64_t word, size_t n) {
  const uint64_t words = 1ull << d->cfg.addr_w;
  return word <= words && (uint64_t)n <= words - word;
}

int gnn_drv_write_words(gnn_dev_t *d, uint64_t data_base, uint64_t word, const uint32_t *src,
                        size_t n) {
  unsigned char buf[4 * CHUNK_WORDS];
  if (!window_ok(d, word, n)) return ACCEL_E_ARG;
  while (n > 0) {
    size_t k = n < CHUNK_WORDS ? n : CHUNK_WORDS;
    for (size_t i = 0; i < k; i++) accel_put_le32(buf + 4 * i, src[i]);
    if (d->bus->mem_write(d->bus->ctx, data_base + 4 * word, buf, 4 * k) != 0) return ACCEL_E_BUS;
    src += k, word += k, n -= k;
  }
  return 0;
}

int gnn_drv_read_words(gnn_dev_t *d, uint64_t data_base, uint64_t word, uint32_t *dst, size_t n) {
  unsigned char buf[4 * CHUNK_WORDS];
  if (!window_ok(d, word, n)) return ACCEL_E_ARG;
  while (n > 0) {
    size_t k = n < CHUNK_WORDS ? n : CHUNK_WORDS;
    if (d->bus->mem_read(d->bus->ctx, data_base + 4 * word, buf, 4 * k) != 0) return ACCEL_E_BUS;
    for (size_t i = 0; i < k; i++) dst[i] = accel_get_le32(buf + 4 * i);
    dst += k, word += k, n -= k;
  }
  return 0;
}

int gnn_drv_write_program(gnn_dev_t *d, uint64_t prog_addr, const gnn_insn_t *prog, size_t n) {
  unsigned char buf[16 * 64];
  if (d->beat_bytes == 0 || prog_addr % d->beat_bytes != 0) return ACCEL_E_ARG;
  while (n > 0) {
    size_t k = n < 64 ? n : 64;
    for (size_t i = 0; i < k; i++)
      for (int w = 0; w < GNN_INSN_WORDS; w++) accel_put_le32(buf + 16 * i + 4 * w, prog[i].w[w]);
    if (d->bus->mem_write(d->bus->ctx, prog_addr, buf, 16 * k) != 0) return ACCEL_E_BUS;
    prog += k, prog_addr += 16 * k, n -= k;
  }
  return 0;
}

uint64_t gnn_drv_load_program(gnn_dev_t *d, const gnn_insn_t *prog, size_t n) {
  /* at least one beat, so that an empty program has an address too */
  size_t bytes = n * 16 < d->beat_bytes ? d->beat_bytes : n * 16;
  uint64_t a = d->bus->mem_alloc(d->bus->ctx, bytes, d->beat_bytes < 64 ? 64 : d->beat_bytes);
  if (a == 0 || gnn_drv_write_program(d, a, prog, n) != 0) return 0;
  return a;
}

int gnn_drv_start(gnn_dev_t *d, uint64_t prog_addr, uint32_t n, uint64_t data_base) {
  if (prog_addr > 0xFFFFFFFFull || data_base > 0xFFFFFFFFull) return ACCEL_E_ARG;
  if (WR(GNNERATOR__INTR_STATUS_OFFSET, ACCEL_INTR_DONE | ACCEL_INTR_ERROR) ||
      WR(GNNERATOR__INTR_ENABLE_OFFSET, ACCEL_INTR_DONE) ||
      WR(GNNERATOR__PROG_ADDR_OFFSET, (uint32_t)prog_addr) || WR(GNNERATOR__PROG_LEN_OFFSET, n) ||
      WR(GNNERATOR__DATA_BASE_OFFSET, (uint32_t)data_base) ||
      WR(GNNERATOR__CTRL_OFFSET, GNNERATOR__CTRL__START_bm))
    return ACCEL_E_BUS;
  return 0;
}

int gnn_drv_status(gnn_dev_t *d, gnn_drv_status_t *st) {
  uint32_t e, f;
  if (RD(GNNERATOR__RETIRED_OFFSET, &st->retired) || RD(GNNERATOR__ISSUED_OFFSET, &st->issued) ||
      RD(GNNERATOR__INSN_ERRS_OFFSET, &e) || RD(GNNERATOR__FIRST_ERR_OFFSET, &f))
    return ACCEL_E_BUS;
  st->insn_errs = FIELD(e, INSN_ERRS, COUNT);
  st->err_seen = FIELD(e, INSN_ERRS, SEEN);
  st->first_valid = FIELD(f, FIRST_ERR, VALID) != 0;
  st->first_index = FIELD(f, FIRST_ERR, INDEX);
  st->first_code = FIELD(f, FIRST_ERR, CODE);
  return 0;
}

int gnn_drv_wait(gnn_dev_t *d, uint64_t timeout, gnn_drv_status_t *st) {
  uint32_t s, code;
  /* a back end without an interrupt returns 0 at once: then poll STATUS.DONE */
  if (!d->bus->wait_irq(d->bus->ctx, timeout) &&
      accel_poll(d->bus, GNNERATOR__STATUS_OFFSET, ACCEL_ST_DONE, ACCEL_ST_DONE, timeout) < 0)
    return ACCEL_E_BUS;
  if (RD(GNNERATOR__STATUS_OFFSET, &s)) return ACCEL_E_BUS;
  if (!(s & ACCEL_ST_DONE) || (s & ACCEL_ST_BUSY)) return ACCEL_E_TIMEOUT;
  if (RD(GNNERATOR__ERR_CODE_OFFSET, &code) ||
      WR(GNNERATOR__INTR_STATUS_OFFSET, ACCEL_INTR_DONE | ACCEL_INTR_ERROR))
    return ACCEL_E_BUS;
  if (st && gnn_drv_status(d, st) != 0) return ACCEL_E_BUS;
  return (s & ACCEL_ST_ERROR) ? (int)(code & 0x3FFu) : 0;
}

int gnn_drv_run(gnn_dev_t *d, uint64_t prog_addr, uint32_t n, uint64_t data_base, uint64_t timeout,
                gnn_drv_status_t *st) {
  int rc = gnn_drv_start(d, prog_addr, n, data_base);
  return rc ? rc : gnn_drv_wait(d, timeout, st);
}

int gnn_drv_counters(gnn_dev_t *d, uint32_t *bad_edges, uint32_t *gex_cycles) {
  if (RD(GNNERATOR__BAD_EDGES_OFFSET, bad_edges) || RD(GNNERATOR__GEX_CYCLES_OFFSET, gex_cycles))
    return ACCEL_E_BUS;
  return 0;
}
