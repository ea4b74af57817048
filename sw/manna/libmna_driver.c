/* libmna_driver.c -- driver of manna_axi (mna_driver.h). */
#include "mna_driver.h"

#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna_regs.h"

/* The generated map's common registers are the shell's. */
_Static_assert(MANNA__CTRL_OFFSET == ACCEL_SHELL_CTRL, "shell map");
_Static_assert(MANNA__STATUS_OFFSET == ACCEL_SHELL_STATUS, "shell map");
_Static_assert(MANNA__ERR_CODE_OFFSET == ACCEL_SHELL_ERR_CODE, "shell map");
_Static_assert(MANNA__INTR_STATUS_OFFSET == ACCEL_SHELL_INTR_STATUS, "shell map");
_Static_assert(MANNA__INTR_ENABLE_OFFSET == ACCEL_SHELL_INTR_ENABLE, "shell map");
_Static_assert(MANNA__WR_BURSTS_OFFSET == ACCEL_SHELL_WR_BURSTS, "shell map");
_Static_assert(MANNA__ID__BLOCK_reset == MNA_DRV_BLOCK_ID, "block id");

#define RD(off, v) (d->bus->read32(d->bus->ctx, (off), (v)) != 0)
#define WR(off, v) (d->bus->write32(d->bus->ctx, (off), (v)) != 0)
#define FIELD(v, reg, f) (((v) & MANNA__##reg##__##f##_bm) >> MANNA__##reg##__##f##_bp)
#define SET(reg, f, v) (((uint32_t)(v) << MANNA__##reg##__##f##_bp) & MANNA__##reg##__##f##_bm)

enum { CHUNK = 256 }; /* host copies go through a small buffer of little-endian bytes */


int mna_drv_open(mna_dev_t *d, accel_bus *bus) {
  uint32_t h0, h1, h2, h3;
  int rc;
  d->bus = bus;
  if ((rc = accel_shell_probe(bus, MNA_DRV_BLOCK_ID)) != 0) return rc;
  if (RD(MANNA__HWCFG0_OFFSET, &h0) || RD(MANNA__HWCFG1_OFFSET, &h1) ||
      RD(MANNA__HWCFG2_OFFSET, &h2) || RD(MANNA__HWCFG3_OFFSET, &h3))
    return ACCEL_E_BUS;
  mna_cfg_default(&d->cfg);
  d->cfg.tiles = (int)FIELD(h0, HWCFG0, TILES);
  d->cfg.emacs = (int)FIELD(h0, HWCFG0, EMACS);
  d->cfg.rf_regs = (int)FIELD(h0, HWCFG0, RF_REGS);
  d->cfg.transpose = (int)FIELD(h0, HWCFG0, TRANSPOSE);
  d->cfg.emac_ops = (int)FIELD(h0, HWCFG0, EMAC_OPS);
  d->cfg.mb_lines = 1 << FIELD(h1, HWCFG1, MB_LG2);
  d->cfg.ms_lines = 1 << FIELD(h1, HWCFG1, MS_LG2);
  d->cfg.vb_lines = 1 << FIELD(h1, HWCFG1, VB_LG2);
  d->cfg.vs_lines = 1 << FIELD(h1, HWCFG1, VS_LG2);
  d->cfg.imem_depth = (int)FIELD(h2, HWCFG2, IMEM_DEPTH);
  d->cfg.fence_timeout = h3;
  d->axi_addr_w = FIELD(h2, HWCFG2, AXI_ADDR_W);
  if (mna_cfg_check(&d->cfg, NULL, 0) != 0 || d->axi_addr_w < 16 || d->axi_addr_w > 32)
    return ACCEL_E_ID;
  return 0;
}

int mna_drv_cfg_matches(const mna_dev_t *d, const mna_cfg_t *c) {
  const mna_cfg_t *h = &d->cfg;
  return c->tiles == h->tiles && c->emacs == h->emacs && c->mb_lines == h->mb_lines &&
         c->ms_lines == h->ms_lines && c->vb_lines == h->vb_lines && c->vs_lines == h->vs_lines &&
         c->imem_depth == h->imem_depth && c->rf_regs == h->rf_regs;
}

uint32_t mna_drv_space_words(const mna_dev_t *d, int space) {
  const mna_cfg_t *c = &d->cfg;
  switch (space) {
    case MNA_SP_IMEM: return (uint32_t)c->imem_depth;
    case MNA_SP_MB: return (uint32_t)(c->mb_lines * c->emacs);
    case MNA_SP_MS: return (uint32_t)(c->ms_lines * c->emacs);
    case MNA_SP_VB: return (uint32_t)(c->vb_lines * c->emacs);
    case MNA_SP_VS: return (uint32_t)(c->vs_lines * c->emacs);
    case MNA_SP_SREG: return 16;
    default: return 0;
  }
}

/* ---------------------------------------------------------------- jobs */

int mna_drv_prepare(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                    uint32_t count, uint64_t dram) {
  if (dram > 0xFFFFFFFFull) return ACCEL_E_ARG;
  const uint32_t cmd = SET(JOB_CMD, OP, op) | SET(JOB_CMD, BCAST, bcast != 0) |
                       SET(JOB_CMD, TILE, tile) | SET(JOB_CMD, SPACE, space);
  if (WR(MANNA__INTR_STATUS_OFFSET, ACCEL_INTR_DONE | ACCEL_INTR_ERROR) ||
      WR(MANNA__INTR_ENABLE_OFFSET, ACCEL_INTR_DONE) || WR(MANNA__JOB_CMD_OFFSET, cmd) ||
      WR(MANNA__JOB_ADDR_OFFSET, addr) || WR(MANNA__JOB_COUNT_OFFSET, count) ||
      WR(MANNA__JOB_DRAM_OFFSET, (uint32_t)dram))
    return ACCEL_E_BUS;
  return 0;
}

int mna_drv_start(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                  uint32_t count, uint64_t dram) {
  int rc = mna_drv_prepare(d, op, bcast, tile, space, addr, count, dram);
  if (rc) return rc;
  return WR(MANNA__CTRL_OFFSET, MANNA__CTRL__START_bm) ? ACCEL_E_BUS : 0;
}

int mna_drv_wait(mna_dev_t *d, uint64_t timeout, mna_drv_job_t *st) {
  uint32_t s, code;
  /* a back end without an interrupt returns 0 at once: then poll STATUS.DONE */
  if (!d->bus->wait_irq(d->bus->ctx, timeout) &&
      accel_poll(d->bus, MANNA__STATUS_OFFSET, ACCEL_ST_DONE, ACCEL_ST_DONE, timeout) < 0)
    return ACCEL_E_BUS;
  if (RD(MANNA__STATUS_OFFSET, &s)) return ACCEL_E_BUS;
  if (!(s & ACCEL_ST_DONE) || (s & ACCEL_ST_BUSY)) return ACCEL_E_TIMEOUT;
  if (RD(MANNA__ERR_CODE_OFFSET, &code) ||
      WR(MANNA__INTR_STATUS_OFFSET, ACCEL_INTR_DONE | ACCEL_INTR_ERROR))
    return ACCEL_E_BUS;
  if (st && (RD(MANNA__JOB_WORDS_OFFSET, &st->words) || RD(MANNA__TILE_ERR_OFFSET, &st->tile_err) ||
             RD(MANNA__RUN_CYCLES_OFFSET, &st->run_cycles)))
    return ACCEL_E_BUS;
  return (s & ACCEL_ST_ERROR) ? (int)(code & 0x3FFu) : 0;
}

int mna_drv_job(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                uint32_t count, uint64_t dram, uint64_t timeout, mna_drv_job_t *st) {
  int rc = mna_drv_start(d, op, bcast, tile, space, addr, count, dram);
  return rc ? rc : mna_drv_wait(d, timeout, st);
}

int mna_drv_load(mna_dev_t *d, int bcast, int tile, int space, uint32_t addr, uint32_t count,
                 uint64_t dram, uint64_t timeout) {
  return mna_drv_job(d, MNA_DRV_LOAD, bcast, tile, space, addr, count, dram, timeout, NULL);
}

int mna_drv_store(mna_dev_t *d, int tile, int space, uint32_t addr, uint32_t count,
                  uint64_t dram, uint64_t timeout) {
  return mna_drv_job(d, MNA_DRV_STORE, 0, tile, space, addr, count, dram, timeout, NULL);
}

int mna_drv_run(mna_dev_t *d, uint32_t pc, uint64_t timeout, mna_drv_job_t *st) {
  return mna_drv_job(d, MNA_DRV_RUN, 0, 0, 0, pc, 0, 0, timeout, st);
}

/* ---------------------------------------------------------------- mailbox */

int mna_drv_host_post(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                      uint64_t data) {
  const uint32_t req = SET(MBOX_REQ, OP, op) | SET(MBOX_REQ, BCAST, bcast != 0) |
                       SET(MBOX_REQ, TILE, tile) | SET(MBOX_REQ, SPACE, space);
  if (WR(MANNA__MBOX_ADDR_OFFSET, addr & MANNA__MBOX_ADDR__ADDR_bm) ||
      WR(MANNA__MBOX_DATA_LO_OFFSET, (uint32_t)data) ||
      WR(MANNA__MBOX_DATA_HI_OFFSET, (uint32_t)(data >> 32)) || WR(MANNA__MBOX_REQ_OFFSET, req) ||
      WR(MANNA__MBOX_REQ_OFFSET, req | MANNA__MBOX_REQ__GO_bm))
    return ACCEL_E_BUS;
  return 0;
}

int mna_drv_host(mna_dev_t *d, int op, int bcast, int tile, int space, uint32_t addr,
                 uint64_t data, uint64_t *rdata, uint64_t timeout) {
  int rc = mna_drv_host_post(d, op, bcast, tile, space, addr, data);
  return rc ? rc : mna_drv_host_result(d, rdata, timeout);
}

int mna_drv_host_result(mna_dev_t *d, uint64_t *rdata, uint64_t timeout) {
  uint32_t r, lo, hi;
  const int p = accel_poll(d->bus, MANNA__MBOX_RSP_OFFSET,
                           MANNA__MBOX_RSP__VALID_bm | MANNA__MBOX_RSP__PENDING_bm,
                           MANNA__MBOX_RSP__VALID_bm, timeout);
  if (p < 0) return ACCEL_E_BUS;
  if (p == 0) return ACCEL_E_TIMEOUT;
  if (RD(MANNA__MBOX_RSP_OFFSET, &r) || RD(MANNA__MBOX_RSP_LO_OFFSET, &lo) ||
      RD(MANNA__MBOX_RSP_HI_OFFSET, &hi))
    return ACCEL_E_BUS;
  if (rdata) *rdata = (uint64_t)hi << 32 | lo;
  return (int)FIELD(r, MBOX_RSP, ERR);
}

/* ---------------------------------------------------------------- device memory */

int mna_drv_mem_write32(mna_dev_t *d, uint64_t dram, const uint32_t *src, size_t n) {
  unsigned char buf[4 * CHUNK];
  while (n > 0) {
    size_t k = n < CHUNK ? n : CHUNK;
    for (size_t i = 0; i < k; i++) accel_put_le32(buf + 4 * i, src[i]);
    if (d->bus->mem_write(d->bus->ctx, dram, buf, 4 * k) != 0) return ACCEL_E_BUS;
    src += k, dram += 4 * k, n -= k;
  }
  return 0;
}

int mna_drv_mem_read32(mna_dev_t *d, uint64_t dram, uint32_t *dst, size_t n) {
  unsigned char buf[4 * CHUNK];
  while (n > 0) {
    size_t k = n < CHUNK ? n : CHUNK;
    if (d->bus->mem_read(d->bus->ctx, dram, buf, 4 * k) != 0) return ACCEL_E_BUS;
    for (size_t i = 0; i < k; i++) dst[i] = accel_get_le32(buf + 4 * i);
    dst += k, dram += 4 * k, n -= k;
  }
  return 0;
}

int mna_drv_mem_write64(mna_dev_t *d, uint64_t dram, const uint64_t *src, size_t n) {
  unsigned char buf[8 * CHUNK];
  while (n > 0) {
    size_t k = n < CHUNK ? n : CHUNK;
    for (size_t i = 0; i < k; i++) {
      accel_put_le32(buf + 8 * i, (uint32_t)src[i]);
      accel_put_le32(buf + 8 * i + 4, (uint32_t)(src[i] >> 32));
    }
    if (d->bus->mem_write(d->bus->ctx, dram, buf, 8 * k) != 0) return ACCEL_E_BUS;
    src += k, dram += 8 * k, n -= k;
  }
  return 0;
}

int mna_drv_mem_read64(mna_dev_t *d, uint64_t dram, uint64_t *dst, size_t n) {
  unsigned char buf[8 * CHUNK];
  while (n > 0) {
    size_t k = n < CHUNK ? n : CHUNK;
    if (d->bus->mem_read(d->bus->ctx, dram, buf, 8 * k) != 0) return ACCEL_E_BUS;
    for (size_t i = 0; i < k; i++)
      dst[i] = (uint64_t)accel_get_le32(buf + 8 * i + 4) << 32 | accel_get_le32(buf + 8 * i);
    dst += k, dram += 8 * k, n -= k;
  }
  return 0;
}

int mna_drv_zero_all(mna_dev_t *d, uint64_t timeout) {
  uint32_t most = 0;
  for (int sp = MNA_SP_IMEM; sp <= MNA_SP_VS; sp++) {
    uint32_t b = mna_drv_space_words(d, sp) * (sp == MNA_SP_IMEM ? 8u : 4u);
    if (b > most) most = b;
  }
  const uint64_t z = d->bus->mem_alloc(d->bus->ctx, most, 64);
  if (z == 0) return ACCEL_E_ARG;
  unsigned char buf[1024];
  memset(buf, 0, sizeof buf);
  for (uint32_t off = 0; off < most; off += (uint32_t)sizeof buf) {
    uint32_t k = most - off < sizeof buf ? most - off : (uint32_t)sizeof buf;
    if (d->bus->mem_write(d->bus->ctx, z + off, buf, k) != 0) return ACCEL_E_BUS;
  }
  for (int sp = MNA_SP_IMEM; sp <= MNA_SP_VS; sp++) {
    int rc = mna_drv_load(d, 1, 0, sp, 0, mna_drv_space_words(d, sp), z, timeout);
    if (rc) return rc;
  }
  return 0;
}

/* ---------------------------------------------------------------- workloads */

static int space_of(const char *s) {
  static const char *const names[] = {"imem", "mb", "ms", "vb", "vs", "sreg"};
  for (int i = 0; i < 6; i++)
    if (!strcmp(s, names[i])) return i;
  return -1;
}

void mna_drv_wl_free(mna_drv_wl_t *wl) {
  free(wl->rec);
  wl->rec = NULL;
  wl->nrec = wl->ncmp = wl->nruns = 0;
}

int mna_drv_wl_read(mna_dev_t *d, FILE *f, const char *fname, mna_drv_wl_t *wl, char *err,
                    size_t errlen) {
  enum { LINE = 1 << 17, MAXTOK = 1 << 14 };
  char why[128];
  long ln = 0;
  size_t cap = 0;
  int rc = -1;
  memset(wl, 0, sizeof *wl);
  wl->cfg = d->cfg;
  char *line = malloc(LINE);
  char **tok = malloc(MAXTOK * sizeof *tok);
  uint32_t *w32 = malloc(MAXTOK * sizeof *w32);
  uint64_t *w64 = malloc(MAXTOK * sizeof *w64);
#define LERR(...)                                                  \
  do {                                                             \
    cutil_seterr_line(err, errlen, fname, ln, __VA_ARGS__);        \
    goto out;                                                      \
  } while (0)
  if (!line || !tok || !w32 || !w64) LERR("out of memory");
  for (;;) {
    const int nt = cutil_read_tokens(f, line, LINE, tok, MAXTOK, &ln, NULL, why, sizeof why);
    if (nt == 0) break;
    if (nt < 0) LERR("%s", why);
    const char *k = tok[0];
    uint64_t v, addr, n;
    if (!strcmp(k, "cfg")) {
      mna_cfg_t c = d->cfg;
      for (int i = 1; i < nt; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq) LERR("cfg: '%s' is not key=value", tok[i]);
        *eq = 0;
        if (cutil_parse_dec(eq + 1, 0, 1u << 30, &v)) LERR("cfg: bad value of %s", tok[i]);
        int *fld = !strcmp(tok[i], "tiles")  ? &c.tiles
                   : !strcmp(tok[i], "emacs") ? &c.emacs
                   : !strcmp(tok[i], "mb")    ? &c.mb_lines
                   : !strcmp(tok[i], "ms")    ? &c.ms_lines
                   : !strcmp(tok[i], "vb")    ? &c.vb_lines
                   : !strcmp(tok[i], "vs")    ? &c.vs_lines
                   : !strcmp(tok[i], "imem")  ? &c.imem_depth
                   : !strcmp(tok[i], "rf")    ? &c.rf_regs
                                              : NULL;
        if (!fld) LERR("cfg: unknown key '%s'", tok[i]);
        *fld = (int)v;
      }
      if (!mna_drv_cfg_matches(d, &c)) LERR("cfg: the file is for another configuration");
      continue;
    }
    mna_drv_rec_t r;
    memset(&r, 0, sizeof r);
    r.kind = k[0];
    if (strlen(k) != 1 || !strchr("pmsc", r.kind)) LERR("unknown record '%s'", k);
    if (r.kind == 's') {
      if (nt != 2 || cutil_parse_num(tok[1], &v) || v > 0xFFFF) LERR("s: bad start PC");
      r.addr = (uint32_t)v;
      wl->nruns++;
    } else {
      const int first = r.kind == 'p' ? 3 : 4;
      if (r.kind == 'c' ? (nt < 5 || nt > 6) : nt < first + 1)
        LERR("%c: wrong number of fields", r.kind);
      if (!strcmp(tok[1], "*")) r.tile = -1;
      else if (cutil_parse_dec(tok[1], 0, (uint64_t)d->cfg.tiles - 1, &v)) LERR("bad tile '%s'", tok[1]);
      else r.tile = (int)v;
      r.space = r.kind == 'p' ? MNA_SP_IMEM : space_of(tok[2]);
      if (r.space < 0 || (r.kind == 'm' && r.space == MNA_SP_IMEM)) LERR("bad space '%s'", tok[2]);
      if (cutil_parse_dec(tok[first - 1], 0, 0xFFFFFu, &addr)) LERR("bad address '%s'", tok[first - 1]);
      r.addr = (uint32_t)addr;
      const uint32_t sw = mna_drv_space_words(d, r.space);
      if (r.kind == 'c') {
        if (cutil_parse_dec(tok[4], 0, 0x100000u, &n)) LERR("c: bad length '%s'", tok[4]);
        if (nt == 6) snprintf(r.name, sizeof r.name, "%s", tok[5]);
      } else {
        n = (uint64_t)(nt - first);
      }
      r.n = (uint32_t)n;
      if (addr + n > sw) LERR("%c: words %llu..%llu beyond the space (%u words)", r.kind,
                              (unsigned long long)addr, (unsigned long long)(addr + n - 1), sw);
      const int wide = r.space == MNA_SP_IMEM;
      const size_t tiles = r.kind == 'c' && r.tile < 0 ? (size_t)d->cfg.tiles : 1;
      const size_t bytes = (size_t)n * (wide ? 8 : 4) * tiles;
      if (n > 0 && !(r.dram = d->bus->mem_alloc(d->bus->ctx, bytes, 64)))
        LERR("device memory full");
      if (r.kind != 'c') {
        for (int i = first; i < nt; i++) {
          if (cutil_parse_hex(tok[i], wide ? ~0ull : 0xFFFFFFFFull, &v)) LERR("bad word '%s'", tok[i]);
          if (wide) w64[i - first] = v;
          else w32[i - first] = (uint32_t)v;
        }
        if ((wide ? mna_drv_mem_write64(d, r.dram, w64, n) : mna_drv_mem_write32(d, r.dram, w32, n)) != 0)
          LERR("device memory write failed");
      } else {
        wl->ncmp++;
      }
    }
    if (wl->nrec == cap) {
      cap = cap ? 2 * cap : 64;
      mna_drv_rec_t *nr = realloc(wl->rec, cap * sizeof *nr);
      if (!nr) LERR("out of memory");
      wl->rec = nr;
    }
    wl->rec[wl->nrec++] = r;
  }
  rc = 0;
#undef LERR
out:
  free(line);
  free(tok);
  free(w32);
  free(w64);
  if (rc) mna_drv_wl_free(wl);
  return rc;
}

static int note(mna_drv_wl_result_t *res, int rc) {
  res->jobs++;
  if (rc > 0 && res->first_rc == 0) res->first_rc = rc;
  return rc;
}

int mna_drv_wl_run(mna_dev_t *d, const mna_drv_wl_t *wl, uint64_t timeout,
                   mna_drv_wl_result_t *res) {
  memset(res, 0, sizeof *res);
  for (size_t i = 0; i < wl->nrec; i++) {
    const mna_drv_rec_t *r = &wl->rec[i];
    int rc = 0;
    if (r->kind == 'p' || r->kind == 'm') {
      rc = note(res, mna_drv_load(d, r->tile < 0, r->tile < 0 ? 0 : r->tile, r->space, r->addr,
                                  r->n, r->dram, timeout));
    } else if (r->kind == 's') {
      mna_drv_job_t st;
      memset(&st, 0, sizeof st);
      rc = note(res, mna_drv_run(d, r->addr, timeout, &st));
      res->runs++;
      res->tile_err |= st.tile_err;
      res->run_cycles += st.run_cycles;
    }
    if (rc < 0) return rc;
  }
  for (size_t i = 0; i < wl->nrec; i++) {
    const mna_drv_rec_t *r = &wl->rec[i];
    if (r->kind != 'c' || r->n == 0) continue;
    const int t0 = r->tile < 0 ? 0 : r->tile, t1 = r->tile < 0 ? d->cfg.tiles - 1 : r->tile;
    const uint64_t step = (uint64_t)r->n * (r->space == MNA_SP_IMEM ? 8 : 4);
    for (int t = t0; t <= t1; t++) {
      int rc = note(res, mna_drv_store(d, t, r->space, r->addr, r->n,
                                       r->dram + step * (uint64_t)(t - t0), timeout));
      if (rc < 0) return rc;
    }
  }
  return res->first_rc;
}
