/* test_mna_cycle.c -- unit tests of the MANNA cycle model (mna_run_cycles,
 * cmodel/manna/mna_cycle.c), built with ASan/UBSan. Small directed workloads (the workload-file
 * format of docs/manna.md) whose run cycles were measured on the RTL (tb/manna/tb_manna.cpp with
 * +stall=0 +gap=0; the Transpose = 0 / EmacOps = 0 variants on the RTL under Icarus Verilog): the
 * pipeline, hazards on pending dmat/dma, vmm/vmm t/swr/el/rf moves (and their ablation variants),
 * every SFU function on special and normal inputs with overlapping ranges, sld/sst, reduce/bcast
 * on 2 and 16 tiles (0..16 lines), the COLL aborts (count and kind mismatch, another tile's
 * error), the fence TIMEOUT (also behind a pending transfer), PC errors. Each workload is also run
 * through mna_run on a second instance: statuses and every memory word must be identical.
 * Last line: "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manna.h"

#include "test_check.h"

static const char wl_halt[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p * 0 0400000000000000\n"
    "s 0\n";

static const char wl_haz[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p * 0 0840000000000008 0880000000000001 08c0000000000004 1810000000000000\n"
    "p * 4 1850c00000000000 2000480000000000 28400c0000000000 2040c80100000000\n"
    "p * 8 28840c0100000000 2400400000000000 304444c300000000 3c80000000000000\n"
    "p * 12 2c00484000000000 6008000000000000 644c000000000000 6000000000000000\n"
    "p * 16 0400000000000000\n"
    "s 0\n";

static const char wl_vexmix[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p * 0 0840000000000001 0880000000000002 08c0000000000003 0900000000000004\n"
    "p * 4 0a00000000000008 0a4000003f800000 0a80000040000000 1810000000000000\n"
    "p * 8 1851000000000000 1892000000000000 18c0040000000000 2002040100000000\n"
    "p * 12 2481000000000000 110000000000001f 2840d00100000000 2880cc0300000000\n"
    "p * 16 28cc080000000000 304840c000000000 304a408500000000 3086804600000000\n"
    "p * 20 3044848300000000 3046484700000000 3084a8cb00000000 304a690f00000000\n"
    "p * 24 3044808200000000 2cc048c000000000 3c44000000000000 3888000000000000\n"
    "p * 28 2081040000000000 2c80484000000000 1400000000000000 0400000000000000\n"
    "s 0\n";

static const char wl_exp[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "m * vs 0 7fc00000 7f800000 ff800000 00000000 80000000 42c80000 c2c80000 43480000\n"
    "m * vs 8 c3480000 00000001 42b17218 42b17219 3f800000 bf800000 c2d00000 c2d00001\n"
    "m * vs 16 42d00001 c2b17218 c2b17300 7fa00001 ffc00000 00400000 40000000 c0000000\n"
    "m * vs 24 3c000000 bc000000 42b17217 42b17100 c2cfffff 42cfffff 5f000000 df000000\n"
    "p * 0 0840000000000020 0880000000000000 08c0000000000020 0900000000000001\n"
    "p * 4 1810800000000000 1850c00000000000 1891000000000000 4440040000000000\n"
    "p * 8 4480040000000000 4408040000000000 0400000000000000\n"
    "s 0\n";

static const char wl_recip[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "m * vs 0 7fc00000 7f800000 ff800000 00000000 80000000 42c80000 c2c80000 43480000\n"
    "m * vs 8 c3480000 00000001 42b17218 42b17219 3f800000 bf800000 c2d00000 c2d00001\n"
    "m * vs 16 42d00001 c2b17218 c2b17300 7fa00001 ffc00000 00400000 40000000 c0000000\n"
    "m * vs 24 3c000000 bc000000 42b17217 42b17100 c2cfffff 42cfffff 5f000000 df000000\n"
    "p * 0 0840000000000020 0880000000000000 08c0000000000020 0900000000000001\n"
    "p * 4 1810800000000000 1850c00000000000 1891000000000000 4440040100000000\n"
    "p * 8 4480040100000000 4408040100000000 0400000000000000\n"
    "s 0\n";

static const char wl_sqrt[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "m * vs 0 7fc00000 7f800000 ff800000 00000000 80000000 42c80000 c2c80000 43480000\n"
    "m * vs 8 c3480000 00000001 42b17218 42b17219 3f800000 bf800000 c2d00000 c2d00001\n"
    "m * vs 16 42d00001 c2b17218 c2b17300 7fa00001 ffc00000 00400000 40000000 c0000000\n"
    "m * vs 24 3c000000 bc000000 42b17217 42b17100 c2cfffff 42cfffff 5f000000 df000000\n"
    "p * 0 0840000000000020 0880000000000000 08c0000000000020 0900000000000001\n"
    "p * 4 1810800000000000 1850c00000000000 1891000000000000 4440040200000000\n"
    "p * 8 4480040200000000 4408040200000000 0400000000000000\n"
    "s 0\n";

static const char wl_sigmoid[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "m * vs 0 7fc00000 7f800000 ff800000 00000000 80000000 42c80000 c2c80000 43480000\n"
    "m * vs 8 c3480000 00000001 42b17218 42b17219 3f800000 bf800000 c2d00000 c2d00001\n"
    "m * vs 16 42d00001 c2b17218 c2b17300 7fa00001 ffc00000 00400000 40000000 c0000000\n"
    "m * vs 24 3c000000 bc000000 42b17217 42b17100 c2cfffff 42cfffff 5f000000 df000000\n"
    "p * 0 0840000000000020 0880000000000000 08c0000000000020 0900000000000001\n"
    "p * 4 1810800000000000 1850c00000000000 1891000000000000 4440040400000000\n"
    "p * 8 4480040400000000 4408040400000000 0400000000000000\n"
    "s 0\n";

static const char wl_dot[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "m * vs 0 7fc00000 7f800000 ff800000 00000000 80000000 42c80000 c2c80000 43480000\n"
    "m * vs 8 c3480000 00000001 42b17218 42b17219 3f800000 bf800000 c2d00000 c2d00001\n"
    "m * vs 16 42d00001 c2b17218 c2b17300 7fa00001 ffc00000 00400000 40000000 c0000000\n"
    "m * vs 24 3c000000 bc000000 42b17217 42b17100 c2cfffff 42cfffff 5f000000 df000000\n"
    "p * 0 0840000000000020 08c0000000000020 1810000000000000 1850c00000000000\n"
    "p * 4 4440440600000000 5544000000000000 5940000000000000 0400000000000000\n"
    "s 0\n";

static const char wl_timeout[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p 0 0 0840000000000002 1810000000000000 6004000000000000 0400000000000000\n"
    "p 1 0 0840000000000003 0400000000000000\n"
    "s 0\n";

static const char wl_timeout_dma[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p 0 0 0840000000000002 1810000000000000 6004000000000000 0400000000000000\n"
    "p 1 0 084000000000000a 1810000000000000 2400400000000000 0400000000000000\n"
    "s 0\n";

static const char wl_coll[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p 0 0 0840000000000001 0880000000000009 1810000000000000 2400800000000000\n"
    "p 0 4 6004000000000000 0400000000000000\n"
    "p 1 0 0840000000000002 1810000000000000 0000000000000000 0000000000000000\n"
    "p 1 4 0000000000000000 6004000000000000 0400000000000000\n"
    "s 0\n"
    "p 1 0 0840000000000001 1810000000000000 6404000000000000 0400000000000000\n"
    "s 0\n"
    "p 0 0 0840000000000001 0880000000000009 1810000000000000 2400800000000000\n"
    "p 0 4 fc00000000000000\n"
    "s 0\n"
    "p 1 0 0840000000000002 1810000000000000 6004000000000000 0400000000000000\n"
    "s 0\n"
    "p 0 0 0840000000000001 1810000000000000 6404000000000000 0400000000000000\n"
    "p 1 0 0840000000000001 1810000000000000 6404000000000000 0400000000000000\n"
    "s 0\n";

static const char wl_pc[] =
    "cfg tiles=2 emacs=4 mb=64 ms=32 vb=64 vs=16 imem=512 rf=8\n"
    "p * 510 0000000000000000 0000000000000000\n"
    "s 510\n"
    "s 511\n"
    "s 512\n";

static const char wl_t16[] =
    "cfg tiles=16 emacs=2 mb=32 ms=16 vb=32 vs=16 imem=512 rf=4\n"
    "p * 0 0840000000000001 0880000000000005 08c0000000000010 1810000000000000\n"
    "p * 4 1850800000000000 6004000000000000 6448000000000000 600c000000000000\n"
    "p * 8 6400000000000000 6000000000000000 640c000000000000 0400000000000000\n"
    "s 0\n";

typedef struct {
  const char *name;
  const char *wl;
  int transpose, emac_ops;
  uint64_t cycles[8]; /* the RTL's run cycles, one per `s` record */
  int runs;
} case_t;

static const case_t cases[] = {
    {"halt", wl_halt, 1, 1, {4}, 1},
    {"hazards: dmat/dma waits, vmm, vmm t, el, rfst, swr, reduce, bcast", wl_haz, 1, 1, {154}, 1},
    {"hazards, Transpose = 0", wl_haz, 0, 1, {165}, 1},
    {"hazards, EmacOps = 0", wl_haz, 1, 0, {170}, 1},
    {"hazards, Transpose = 0, EmacOps = 0", wl_haz, 0, 0, {181}, 1},
    {"vmm t/sq, vmm, every el form, swr, rf moves in a loop", wl_vexmix, 1, 1, {612}, 1},
    {"vmm t/sq, vmm, every el form, swr, rf moves, Transpose = 0", wl_vexmix, 0, 1, {688}, 1},
    {"vmm t/sq, vmm, every el form, swr, rf moves, EmacOps = 0", wl_vexmix, 1, 0, {688}, 1},
    {"vmm t/sq, vmm, every el form, swr, rf moves, both variants", wl_vexmix, 0, 0, {764}, 1},
    {"sfu.exp on special and normal inputs, overlapping ranges", wl_exp, 1, 1, {733}, 1},
    {"sfu.recip", wl_recip, 1, 1, {1167}, 1},
    {"sfu.sqrt", wl_sqrt, 1, 1, {881}, 1},
    {"sfu.sigmoid", wl_sigmoid, 1, 1, {1529}, 1},
    {"sfu.dot, sld, sst", wl_dot, 1, 1, {161}, 1},
    {"TIMEOUT: tile 1 halts, tile 0 waits in reduce", wl_timeout, 1, 1, {268}, 1},
    {"TIMEOUT: the halt waits for a dma", wl_timeout_dma, 1, 1, {281}, 1},
    {"COLL: count, kind mismatch; an error (twice); then bcast", wl_coll, 1, 1,
     {27, 27, 27, 27, 22}, 5},
    {"PC: nops to the end of IMEM; start at the last word; start past it", wl_pc, 1, 1,
     {8, 5, 2}, 3},
    {"16 tiles: reduce and bcast of 1, 5, 16 and 0 lines", wl_t16, 1, 1, {286}, 1},
};

/* Splits s in place at sep (runs of it) into at most max tokens; returns the count. */
static int split(char *s, char sep, char **tok, int max) {
  int n = 0;
  while (*s && n < max) {
    while (*s == sep) *s++ = 0;
    if (!*s) break;
    tok[n++] = s;
    while (*s && *s != sep) s++;
  }
  return n;
}

static int space_of(const char *s) {
  if (!strcmp(s, "mb")) return MNA_SP_MB;
  if (!strcmp(s, "ms")) return MNA_SP_MS;
  if (!strcmp(s, "vb")) return MNA_SP_VB;
  if (!strcmp(s, "vs")) return MNA_SP_VS;
  if (!strcmp(s, "sreg")) return MNA_SP_SREG;
  return -1;
}

/* Runs one case: the workload on two instances, one through mna_run_cycles (checked against the
 * RTL's cycles), one through mna_run (the same functional result). */
static void run_case(const case_t *c) {
  mna_cfg_t cfg;
  mna_cfg_default(&cfg);
  cfg.transpose = c->transpose;
  cfg.emac_ops = c->emac_ops;
  cfg.fence_timeout = 256; /* the harnesses' FenceTimeout */
  char *text = malloc(strlen(c->wl) + 1);
  if (!text) abort();
  strcpy(text, c->wl);
  mna_t *m = NULL, *ref = NULL;
  int run = 0;
  char *lines[64];
  const int nl = split(text, '\n', lines, 64);
  for (int li = 0; li < nl; li++) {
    char *tok[16];
    const int nt = split(lines[li], ' ', tok, 16);
    if (nt == 0) continue;
    if (!strcmp(tok[0], "cfg")) {
      for (int i = 1; i < nt; i++) {
        char key[16];
        int v;
        if (sscanf(tok[i], "%15[a-z]=%d", key, &v) != 2) continue;
        if (!strcmp(key, "tiles")) cfg.tiles = v;
        else if (!strcmp(key, "emacs")) cfg.emacs = v;
        else if (!strcmp(key, "mb")) cfg.mb_lines = v;
        else if (!strcmp(key, "ms")) cfg.ms_lines = v;
        else if (!strcmp(key, "vb")) cfg.vb_lines = v;
        else if (!strcmp(key, "vs")) cfg.vs_lines = v;
        else if (!strcmp(key, "imem")) cfg.imem_depth = v;
        else if (!strcmp(key, "rf")) cfg.rf_regs = v;
      }
      m = mna_new(&cfg);
      ref = mna_new(&cfg);
      CHECK(m && ref, "%s: mna_new", c->name);
      if (!m || !ref) break;
      continue;
    }
    if (!m || !ref) break;
    const int bc = nt > 1 && !strcmp(tok[1], "*");
    const int tile = bc ? 0 : (nt > 1 ? atoi(tok[1]) : 0);
    if (tok[0][0] == 'p' || tok[0][0] == 'm') {
      const int sp = tok[0][0] == 'p' ? MNA_SP_IMEM : space_of(tok[2]);
      const int first = tok[0][0] == 'p' ? 3 : 4;
      const uint32_t addr = (uint32_t)strtoul(tok[first - 1], NULL, 0);
      for (int i = first; i < nt; i++) {
        const uint64_t v = strtoull(tok[i], NULL, 16);
        const uint32_t a = addr + (uint32_t)(i - first);
        CHECK(mna_host(m, MNA_HOST_WRITE, bc, tile, sp, a, v, NULL) == MNA_RSP_OK &&
                  mna_host(ref, MNA_HOST_WRITE, bc, tile, sp, a, v, NULL) == MNA_RSP_OK,
              "%s: write", c->name);
      }
    } else if (tok[0][0] == 's') {
      const uint32_t pc = (uint32_t)strtoul(tok[1], NULL, 0);
      mna_host(m, MNA_HOST_START, 0, 0, 0, pc, 0, NULL);
      mna_host(ref, MNA_HOST_START, 0, 0, 0, pc, 0, NULL);
      uint64_t tc[16], rc = 0;
      const int r = mna_run_cycles(m, 1000000, tc, &rc);
      CHECK(r == 0 && mna_run(ref, 1000000) == 0, "%s: run %d ends", c->name, run + 1);
      CHECK(run < c->runs && rc == c->cycles[run], "%s: run %d: %llu cycles, the RTL's %llu",
            c->name, run + 1, (unsigned long long)rc,
            (unsigned long long)(run < c->runs ? c->cycles[run] : 0));
      uint64_t most = 0;
      for (int i = 0; i < cfg.tiles; i++) most = tc[i] > most ? tc[i] : most;
      CHECK(rc == most + MNA_CYCLES_HOST_OFFSET, "%s: run cycles = the last tile's", c->name);
      for (int i = 0; i < cfg.tiles; i++) {
        mna_tile_status_t a, b;
        mna_tile_status(m, i, &a);
        mna_tile_status(ref, i, &b);
        CHECK(a.status == b.status && a.pc == b.pc && a.insns == b.insns,
              "%s: run %d tile %d status as mna_run's", c->name, run + 1, i);
        CHECK(a.status != MNA_ST_RUN && tc[i] > 0, "%s: tile %d stopped", c->name, i);
      }
      run++;
    }
  }
  CHECK(run == c->runs, "%s: %d runs", c->name, run);
  /* the functional result is mna_run's, word for word */
  for (int i = 0; m && ref && i < cfg.tiles; i++)
    for (int sp = MNA_SP_MB; sp <= MNA_SP_SREG; sp++) {
      size_t n1 = 0, n2 = 0;
      const uint32_t *a = mna_mem(m, i, sp, &n1), *b = mna_mem(ref, i, sp, &n2);
      CHECK(a && b && n1 == n2 && memcmp(a, b, n1 * sizeof *a) == 0,
            "%s: tile %d space %d as mna_run's", c->name, i, sp);
    }
  mna_free(m);
  mna_free(ref);
  free(text);
}

/* Tiles that were not started count 0 cycles; NULL outputs are allowed; the budget fails. */
static void test_api(void) {
  mna_cfg_t cfg;
  mna_cfg_default(&cfg);
  mna_t *m = mna_new(&cfg);
  CHECK(m != NULL, "mna_new");
  if (!m) return;
  uint64_t tc[2] = {7, 7}, rc = 7;
  CHECK(mna_run_cycles(m, 10, tc, &rc) == 0 && tc[0] == 0 && tc[1] == 0 &&
            rc == MNA_CYCLES_HOST_OFFSET,
        "no tile in RUN: 0 cycles");
  /* a loop of 100 nops: over a budget of 50 instructions */
  const uint64_t prog[] = {mna_enc(MNA_OP_LI, 1, 0, 0, 0, 0, 0, 100),
                           mna_enc(MNA_OP_LOOP, 1, 0, 0, 0, 0, 0, 4),
                           mna_enc(MNA_OP_NOP, 0, 0, 0, 0, 0, 0, 0),
                           mna_enc(MNA_OP_ENDLOOP, 0, 0, 0, 0, 0, 0, 0),
                           mna_enc(MNA_OP_HALT, 0, 0, 0, 0, 0, 0, 0)};
  for (uint32_t i = 0; i < 5; i++) mna_host(m, MNA_HOST_WRITE, 1, 0, MNA_SP_IMEM, i, prog[i], NULL);
  mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL);
  CHECK(mna_run_cycles(m, 50, NULL, NULL) == -1, "budget exceeded: -1");
  mna_run(m, 1000);
  mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL);
  /* li, loop: 3 cycles each; 100 x (nop + endloop) 6; halt: 3 + the stop cycle */
  CHECK(mna_run_cycles(m, 1000, NULL, &rc) == 0 && rc == 3 + 3 + 600 + 4, "loop: %llu cycles",
        (unsigned long long)rc);
  mna_free(m);
}

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
  test_api();
  return CHECK_SUMMARY();
}
