/* test_manna.c -- unit tests of the MANNA DiffMem tile golden model (cmodel/manna), built with
 * ASan/UBSan: the configuration limits, the disassembly syntax, the host port (bad op, tile,
 * space and address, BUSY while RUN, broadcast writes, s0, the STATUS word), every instruction
 * (li, addi, loops nested and of count 0 with address generators, dmat plain/padded load and
 * store, dma, vmm plain and transposed with and without sq on odd shapes against the test's own
 * fmaf loops, swr, el with vector and scalar operands and overlapping lines, rfz/rfld/rfst, every
 * SFU function, sld/sst), every error code and the check order (each followed by a good program
 * on the same instance), the exp sequence against double exp (sweep, special values, clamps),
 * reduce and bcast on 1..16 tiles with per-tile ranges against the H-tree pairing computed here,
 * the collective aborts (COLL after another tile's error, count or kind mismatch; TIMEOUT after
 * an early halt), the instruction budget of mna_run, START, and the trace.
 * Last line: "N passed, N failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna.h"

#include "test_check.h"

#define QNAN 0x7FC00000u
#define F_1 0x3F800000u
#define F_2 0x40000000u
#define F_M1 0xBF800000u
#define F_INF 0x7F800000u
#define F_NINF 0xFF800000u
#define SNAN 0x7FA00001u

typedef unsigned long long ull;

/* ---------------------------------------------------------------- the test's own arithmetic */
static uint32_t canon(float r) { return isnan(r) ? QNAN : cutil_f32_bits(r); }
static uint32_t tfma(uint32_t a, uint32_t b, uint32_t c) {
  return canon(fmaf(cutil_f32(a), cutil_f32(b), cutil_f32(c)));
}
static uint32_t tadd(uint32_t a, uint32_t b) { return canon(cutil_f32(a) + cutil_f32(b)); }
static uint32_t tsub(uint32_t a, uint32_t b) { return canon(cutil_f32(a) - cutil_f32(b)); }
static uint32_t tmul(uint32_t a, uint32_t b) { return canon(cutil_f32(a) * cutil_f32(b)); }

static uint32_t rnd_f(cutil_rng_t *r) {
  return cutil_f32_bits((float)(cutil_rng_unit(r) * 4.0 - 2.0));
}

/* ---------------------------------------------------------------- instructions */
static uint64_t I(unsigned op, unsigned a, unsigned b, unsigned c, unsigned d, unsigned f,
                  unsigned fl, uint32_t imm) {
  return mna_enc(op, a, b, c, d, f, fl, imm);
}
static uint64_t i_nop(void) { return I(MNA_OP_NOP, 0, 0, 0, 0, 0, 0, 0); }
static uint64_t i_halt(void) { return I(MNA_OP_HALT, 0, 0, 0, 0, 0, 0, 0); }
static uint64_t i_li(unsigned s, uint32_t v) { return I(MNA_OP_LI, s, 0, 0, 0, 0, 0, v); }
static uint64_t i_addi(unsigned s, unsigned b, uint32_t v) { return I(MNA_OP_ADDI, s, b, 0, 0, 0, 0, v); }
static uint64_t i_loop(unsigned s, uint32_t end) { return I(MNA_OP_LOOP, s, 0, 0, 0, 0, 0, end); }
static uint64_t i_endloop(void) { return I(MNA_OP_ENDLOOP, 0, 0, 0, 0, 0, 0, 0); }
static uint64_t i_agen(unsigned a, unsigned l, unsigned sc, unsigned sd) {
  return I(MNA_OP_AGEN, a, l, sc, sd, 0, 0, 0);
}
static uint64_t i_dmat(unsigned a, unsigned b, unsigned sc, unsigned sd, unsigned fl) {
  return I(MNA_OP_DMAT, a, b, sc, sd, 0, fl, 0);
}
static uint64_t i_dma(unsigned a, unsigned b, unsigned sc, unsigned fl) {
  return I(MNA_OP_DMA, a, b, sc, 0, 0, fl, 0);
}
static uint64_t i_vmm(unsigned r, unsigned a, unsigned b, unsigned sd, unsigned fl) {
  return I(MNA_OP_VMM, r, a, b, sd, 0, fl, 0);
}
static uint64_t i_swr(unsigned a, unsigned b, unsigned rc, unsigned rd, unsigned sf) {
  return I(MNA_OP_SWR, a, b, rc, rd, sf, 0, 0);
}
static uint64_t i_el(unsigned op, unsigned d, unsigned a, unsigned x, unsigned y, unsigned sf,
                     unsigned fl) {
  return I(MNA_OP_EL, d, a, x, y, sf, op | fl, 0);
}
static uint64_t i_rfz(unsigned r) { return I(MNA_OP_RFZ, r, 0, 0, 0, 0, 0, 0); }
static uint64_t i_rfld(unsigned r, unsigned a) { return I(MNA_OP_RFLD, r, a, 0, 0, 0, 0, 0); }
static uint64_t i_rfst(unsigned r, unsigned a) { return I(MNA_OP_RFST, r, a, 0, 0, 0, 0, 0); }
static uint64_t i_sfu(unsigned fn, unsigned a, unsigned b, unsigned c, unsigned sd) {
  return I(MNA_OP_SFU, a, b, c, sd, 0, fn, 0);
}
static uint64_t i_sld(unsigned s, unsigned a) { return I(MNA_OP_SLD, s, a, 0, 0, 0, 0, 0); }
static uint64_t i_sst(unsigned s, unsigned a) { return I(MNA_OP_SST, s, a, 0, 0, 0, 0, 0); }
static uint64_t i_reduce(unsigned a, unsigned s) { return I(MNA_OP_REDUCE, a, s, 0, 0, 0, 0, 0); }
static uint64_t i_bcast(unsigned a, unsigned s) { return I(MNA_OP_BCAST, a, s, 0, 0, 0, 0, 0); }

/* a program under construction */
typedef struct {
  uint64_t w[1024];
  int n;
} pb_t;
static void put(pb_t *p, uint64_t w) { p->w[p->n++] = w; }
/* a[a] = constant v, through scalar register st */
static void cagen(pb_t *p, unsigned a, unsigned st, uint32_t v) {
  put(p, i_li(st, v));
  put(p, i_agen(a, 4, st, 0));
}

/* ---------------------------------------------------------------- model helpers */
static mna_t *mk(int tiles, int emacs) {
  mna_cfg_t c;
  mna_cfg_default(&c);
  c.tiles = tiles;
  c.emacs = emacs;
  mna_t *m = mna_new(&c);
  if (!m) {
    printf("mna_new(tiles %d, emacs %d) failed\n", tiles, emacs);
    exit(1);
  }
  return m;
}
static void wr(mna_t *m, int tile, int sp, uint32_t addr, uint64_t v) {
  if (mna_host(m, MNA_HOST_WRITE, 0, tile, sp, addr, v, NULL) != MNA_RSP_OK) {
    printf("host write tile %d space %d addr %u refused\n", tile, sp, (unsigned)addr);
    exit(1);
  }
}
static uint32_t rd(mna_t *m, int tile, int sp, uint32_t addr) {
  uint64_t v = 0;
  if (mna_host(m, MNA_HOST_READ, 0, tile, sp, addr, 0, &v) != MNA_RSP_OK) {
    printf("host read tile %d space %d addr %u refused\n", tile, sp, (unsigned)addr);
    exit(1);
  }
  return (uint32_t)v;
}
/* loads p into tile (-1: every tile, by broadcast writes) */
static void load(mna_t *m, int tile, const pb_t *p) {
  for (int i = 0; i < p->n; i++) {
    if (mna_host(m, MNA_HOST_WRITE, tile < 0, tile < 0 ? 0 : tile, MNA_SP_IMEM, (uint32_t)i, p->w[i],
                 NULL) != MNA_RSP_OK) {
      printf("imem write refused\n");
      exit(1);
    }
  }
}
static int run(mna_t *m) {
  if (mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL) != MNA_RSP_OK) return -100;
  return mna_run(m, 1000000);
}
static mna_tile_status_t tst(const mna_t *m, int tile) {
  mna_tile_status_t s;
  mna_tile_status(m, tile, &s);
  return s;
}
/* loads p into every tile, runs, returns tile 0's status */
static int go(mna_t *m, const pb_t *p) {
  load(m, -1, p);
  if (run(m) != 0) return -1;
  return tst(m, 0).status;
}

/* ================================================================ configuration */
static void test_cfg(void) {
  mna_cfg_t c;
  char err[128];
  mna_cfg_default(&c);
  CHECK(c.tiles == 2 && c.emacs == 4 && c.mb_lines == 64 && c.ms_lines == 32 && c.vb_lines == 32 &&
            c.vs_lines == 16 && c.imem_depth == 256 && c.rf_regs == 8 && c.transpose == 1 &&
            c.emac_ops == 1 && c.fence_timeout == 4096,
        "default cfg");
  CHECK(mna_cfg_check(&c, err, sizeof err) == 0, "default cfg valid");
  static const struct {
    int field, value;
  } bad[] = {{0, 3}, {0, 0}, {0, 32}, {1, 1}, {1, 3}, {1, 64}, {2, 1}, {3, 31}, {3, 0}, {4, 1},
             {5, 15}, {6, 0}, {6, 65537}, {7, 1}, {7, 17}, {8, 2}, {9, -1}, {2, 1 << 19}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mna_cfg_default(&c);
    int *f[] = {&c.tiles, &c.emacs, &c.mb_lines, &c.ms_lines, &c.vb_lines,
                &c.vs_lines, &c.imem_depth, &c.rf_regs, &c.transpose, &c.emac_ops};
    *f[bad[i].field] = bad[i].value;
    err[0] = 0;
    CHECK(mna_cfg_check(&c, err, sizeof err) == -1 && err[0] != 0, "bad cfg %zu accepted", i);
    CHECK(mna_new(&c) == NULL, "mna_new of bad cfg %zu", i);
  }
  mna_cfg_default(&c);
  c.fence_timeout = 0;
  CHECK(mna_cfg_check(&c, NULL, 0) == -1, "fence 0");
  mna_cfg_default(&c);
  c.tiles = 16;
  c.emacs = 32;
  c.mb_lines = 16384;
  c.ms_lines = 128;
  c.vb_lines = 256;
  c.vs_lines = 32;
  c.imem_depth = 1024;
  CHECK(mna_cfg_check(&c, err, sizeof err) == 0, "paper cfg: %s", err);
  mna_t *m = mna_new(&c);
  CHECK(m != NULL, "paper model");
  size_t nw = 0;
  CHECK(m && mna_mem(m, 15, MNA_SP_MB, &nw) != NULL && nw == 16384u * 32, "paper MB words");
  CHECK(m && mna_mem(m, 16, MNA_SP_MB, &nw) == NULL && nw == 0, "mem of bad tile");
  CHECK(m && mna_mem(m, 0, MNA_SP_IMEM, &nw) == NULL, "mem of IMEM");
  CHECK(m && mna_imem(m, 3, &nw) != NULL && nw == 1024, "imem view");
  CHECK(m && tst(m, 5).status == MNA_ST_IDLE, "new model IDLE");
  mna_free(m);
  mna_free(NULL);
}

/* ================================================================ disassembly */
static void test_disasm(void) {
  char b[96];
  static const struct {
    uint64_t w;
    const char *s;
  } t[] = {
      {0, "nop"},
      {1ull << 58, "halt"},
      {0x0800000000000000ull | (1ull << 54) | 0x3f800000u, "li s1, 0x3f800000"},
      {0, NULL},
  };
  for (int i = 0; t[i].s; i++)
    CHECK(!strcmp(mna_disasm(t[i].w, b, sizeof b), t[i].s), "disasm %d: '%s'", i, b);
  static const struct {
    uint64_t w;
    const char *s;
  } u[] = {
      {0, "nop"},
      {0, "halt"},
      {0, "li s1, 0x3f800000"},
      {0, "addi s1, s2, 12"},
      {0, "addi s1, s2, -3"},
      {0, "addi s1, s2, 0x80000000"},
      {0, "li s2, 65535"},
      {0, "li s3, -65535"},
      {0, "li s4, 0x00010000"},
      {0, "loop s3, @17"},
      {0, "endloop"},
      {0, "agen a1, 0, s2, s3"},
      {0, "agen a7, 15, s0, s15"},
      {0, "dmat a0, a1, s2, s3 pad store"},
      {0, "dmat a0, a1, s2, s3"},
      {0, "dma a0, a1, s2 store"},
      {0, "dma a4, a5, s6"},
      {0, "vmm r1, a2, a3, s4 t sq"},
      {0, "vmm r1, a2, a3, s4 t"},
      {0, "vmm r0, a0, a0, s0"},
      {0, "swr a0, a1, r2, r3, s4"},
      {0, "el.add a0, a1, a2, s5"},
      {0, "el.mul a0, a1, s7, s5"},
      {0, "el.sub a3, a1, a2, s5"},
      {0, "el.fma a0, a1, a2, a3, s5"},
      {0, "el.fma a0, a1, s2, s3, s5"},
      {0, "el.fma a0, a1, a2, s13, s5"},
      {0, "rfz r1"},
      {0, "rfld r1, a2"},
      {0, "rfst r1, a2"},
      {0, "sfu.exp a0, a1, s2"},
      {0, "sfu.recip a0, a1, s2"},
      {0, "sfu.sqrt a0, a1, s2"},
      {0, "sfu.relu a0, a1, s2"},
      {0, "sfu.sigmoid a0, a1, s2"},
      {0, "sfu.sum a0, a1, s2"},
      {0, "sfu.dot a0, a1, a2, s3"},
      {0, "sld s1, a2"},
      {0, "sst s1, a2"},
      {0, "reduce a0, s1"},
      {0, "bcast a0, s1"},
  };
  const uint64_t w[] = {
      i_nop(), i_halt(), i_li(1, 0x3f800000), i_addi(1, 2, 12), i_addi(1, 2, (uint32_t)-3),
      i_addi(1, 2, 0x80000000u), i_li(2, 65535), i_li(3, (uint32_t)-65535), i_li(4, 0x10000),
      i_loop(3, 17), i_endloop(), i_agen(1, 0, 2, 3), i_agen(7, 15, 0, 15),
      i_dmat(0, 1, 2, 3, 3), i_dmat(0, 1, 2, 3, 0), i_dma(0, 1, 2, 2), i_dma(4, 5, 6, 0),
      i_vmm(1, 2, 3, 4, 3), i_vmm(1, 2, 3, 4, 1), i_vmm(0, 0, 0, 0, 0), i_swr(0, 1, 2, 3, 4),
      i_el(MNA_EL_ADD, 0, 1, 2, 0, 5, 0), i_el(MNA_EL_MUL, 0, 1, 7, 0, 5, MNA_FL_BS),
      i_el(MNA_EL_SUB, 3, 1, 2, 0, 5, 0), i_el(MNA_EL_FMA, 0, 1, 2, 3, 5, 0),
      i_el(MNA_EL_FMA, 0, 1, 2, 3, 5, MNA_FL_BS | MNA_FL_CS),
      i_el(MNA_EL_FMA, 0, 1, 2, 13, 5, MNA_FL_CS), i_rfz(1), i_rfld(1, 2), i_rfst(1, 2),
      i_sfu(0, 0, 1, 0, 2), i_sfu(1, 0, 1, 0, 2), i_sfu(2, 0, 1, 0, 2), i_sfu(3, 0, 1, 0, 2),
      i_sfu(4, 0, 1, 0, 2), i_sfu(5, 0, 1, 0, 2), i_sfu(6, 0, 1, 2, 3), i_sld(1, 2), i_sst(1, 2),
      i_reduce(0, 1), i_bcast(0, 1)};
  CHECK(sizeof w / sizeof w[0] == sizeof u / sizeof u[0], "disasm table sizes");
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    CHECK(!strcmp(mna_disasm(w[i], b, sizeof b), u[i].s), "disasm '%s' != '%s'", b, u[i].s);
  /* ill-formed words */
  const uint64_t bad[] = {
      I(0x07, 0, 0, 0, 0, 0, 0, 0),          /* opcode */
      I(0x3F, 0, 0, 0, 0, 0, 0, 0),
      I(MNA_OP_NOP, 1, 0, 0, 0, 0, 0, 0),    /* unused field */
      I(MNA_OP_HALT, 0, 0, 0, 0, 0, 0, 1),   /* imm */
      I(MNA_OP_LI, 1, 1, 0, 0, 0, 0, 5),
      i_agen(8, 0, 1, 2),                    /* agen field >= 8 */
      i_dmat(0, 9, 1, 2, 0),
      i_dmat(0, 1, 2, 3, 4),                 /* flag */
      i_dma(0, 1, 2, 1),
      i_vmm(1, 2, 3, 4, 4),
      i_el(MNA_EL_ADD, 0, 1, 2, 1, 5, 0),    /* el add with D */
      i_el(MNA_EL_ADD, 0, 1, 2, 0, 5, MNA_FL_CS),
      i_el(MNA_EL_ADD, 0, 1, 9, 0, 5, 0),    /* vector b in a9 */
      i_sfu(7, 0, 1, 0, 2),                  /* FN 7 */
      i_sfu(0, 0, 1, 2, 2),                  /* C with exp */
      I(MNA_OP_SFU, 0, 1, 0, 2, 0, 8, 0),
      i_reduce(8, 1),
      I(MNA_OP_RFZ, 1, 1, 0, 0, 0, 0, 0),
      I(MNA_OP_SWR, 0, 1, 2, 3, 4, 1, 0),
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char want[40];
    snprintf(want, sizeof want, ".word 0x%016llx", (ull)bad[i]);
    CHECK(!strcmp(mna_disasm(bad[i], b, sizeof b), want), "disasm bad %zu: '%s'", i, b);
  }
  char small[6];
  CHECK(!strcmp(mna_disasm(i_halt(), small, sizeof small), "halt"), "small buf");
  CHECK(!strcmp(mna_disasm(i_endloop(), small, sizeof small), "endlo"), "truncated");
}

/* ================================================================ host port */
static void test_host(void) {
  mna_t *m = mk(2, 4);
  uint64_t v = 7;
  CHECK(mna_host(m, 4, 0, 0, MNA_SP_MB, 0, 0, &v) == MNA_RSP_BAD && v == 0, "bad op");
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, 2, MNA_SP_MB, 0, 1, NULL) == MNA_RSP_BAD, "bad tile");
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, -1, MNA_SP_MB, 0, 1, NULL) == MNA_RSP_BAD, "bad tile -1");
  CHECK(mna_host(m, MNA_HOST_READ, 0, 2, MNA_SP_MB, 0, 0, &v) == MNA_RSP_BAD, "bad tile read");
  CHECK(mna_host(m, MNA_HOST_STATUS, 0, 2, 0, 0, 0, &v) == MNA_RSP_BAD, "bad tile status");
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, 0, 6, 0, 1, NULL) == MNA_RSP_BAD, "bad space 6");
  CHECK(mna_host(m, MNA_HOST_READ, 0, 0, 7, 0, 0, &v) == MNA_RSP_BAD, "bad space 7");
  const uint32_t sizes[6] = {256, 64 * 4, 32 * 4, 32 * 4, 16 * 4, 16};
  for (int sp = 0; sp < 6; sp++) {
    CHECK(mna_host(m, MNA_HOST_WRITE, 0, 1, sp, sizes[sp], 1, NULL) == MNA_RSP_BAD,
          "bad addr space %d", sp);
    CHECK(mna_host(m, MNA_HOST_READ, 0, 1, sp, sizes[sp], 0, &v) == MNA_RSP_BAD,
          "bad read addr space %d", sp);
    CHECK(mna_host(m, MNA_HOST_WRITE, 0, 1, sp, sizes[sp] - 1, 0x1234567890ABCDEFull, NULL) ==
              MNA_RSP_OK,
          "last addr space %d", sp);
    CHECK(mna_host(m, MNA_HOST_READ, 0, 1, sp, sizes[sp] - 1, 0, &v) == MNA_RSP_OK &&
              v == (sp == MNA_SP_IMEM ? 0x1234567890ABCDEFull : 0x90ABCDEFull),
          "read back space %d: %llx", sp, (ull)v);
    CHECK(mna_host(m, MNA_HOST_READ, 0, 0, sp, sizes[sp] - 1, 0, &v) == MNA_RSP_OK && v == 0,
          "other tile untouched space %d", sp);
  }
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, 0, MNA_SP_MB, 0x100000u, 1, NULL) == MNA_RSP_BAD,
        "addr beyond 20 bits");
  /* s0 */
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, 0, MNA_SP_SREG, 0, 5, NULL) == MNA_RSP_OK &&
            rd(m, 0, MNA_SP_SREG, 0) == 0,
        "s0 write ignored");
  /* broadcast write */
  CHECK(mna_host(m, MNA_HOST_WRITE, 1, 7, MNA_SP_VS, 3, 0xABCu, NULL) == MNA_RSP_OK &&
            rd(m, 0, MNA_SP_VS, 3) == 0xABC && rd(m, 1, MNA_SP_VS, 3) == 0xABC,
        "bcast write");
  size_t nw;
  const uint32_t *vs1 = mna_mem(m, 1, MNA_SP_VS, &nw);
  CHECK(vs1 && nw == 64 && vs1[3] == 0xABC, "mem view");
  const uint32_t *sr = mna_mem(m, 1, MNA_SP_SREG, &nw);
  CHECK(sr && nw == 16 && sr[15] == 0x90ABCDEFu, "sreg view");
  /* STATUS of an idle tile */
  CHECK(mna_host(m, MNA_HOST_STATUS, 0, 1, 0, 0, 0, &v) == MNA_RSP_OK && v == 0, "status idle");
  /* BUSY while RUN */
  pb_t p = {.n = 0};
  put(&p, i_li(1, 3));
  put(&p, i_nop());
  put(&p, i_halt());
  load(m, -1, &p);
  CHECK(mna_host(m, MNA_HOST_START, 0, 9, 0, 0, 0, NULL) == MNA_RSP_OK, "start");
  CHECK(tst(m, 0).status == MNA_ST_RUN && tst(m, 1).status == MNA_ST_RUN, "RUN after start");
  v = 1;
  CHECK(mna_host(m, MNA_HOST_READ, 0, 0, MNA_SP_VS, 0, 0, &v) == MNA_RSP_BUSY && v == 0, "read busy");
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, 1, MNA_SP_MB, 0, 0, NULL) == MNA_RSP_BUSY, "write busy");
  CHECK(mna_host(m, MNA_HOST_WRITE, 1, 0, MNA_SP_IMEM, 0, 0, NULL) == MNA_RSP_BUSY, "bcast busy");
  CHECK(mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL) == MNA_RSP_BUSY, "start busy");
  CHECK(mna_host(m, MNA_HOST_WRITE, 0, 1, MNA_SP_MB, 1u << 20, 0, NULL) == MNA_RSP_BAD,
        "bad before busy");
  CHECK(mna_host(m, MNA_HOST_STATUS, 0, 1, 0, 0, 0, &v) == MNA_RSP_OK &&
            v == mna_status_word(0, 0, MNA_ST_RUN),
        "status while running %llx", (ull)v);
  CHECK(mna_run(m, 100) == 0, "run");
  CHECK(mna_host(m, MNA_HOST_STATUS, 0, 1, 0, 0, 0, &v) == MNA_RSP_OK &&
            v == ((3ull << 32) | (2u << 16) | MNA_ST_DONE),
        "status done %llx", (ull)v);
  CHECK(rd(m, 1, MNA_SP_SREG, 1) == 3, "li ran");
  mna_free(m);
}

/* ================================================================ scalar, loops, agens */
static void test_scalar_loops(void) {
  mna_t *m = mk(1, 4);
  pb_t p = {.n = 0};
  put(&p, i_li(1, 0xFFFFFFFEu));
  put(&p, i_addi(2, 1, 5));          /* wraps: 3 */
  put(&p, i_addi(3, 2, (uint32_t)-10));
  put(&p, i_li(0, 77));              /* s0 ignores writes */
  put(&p, i_addi(4, 0, 9));
  cagen(&p, 1, 5, 7);
  put(&p, i_sst(2, 1));              /* VS[7] = 3 */
  put(&p, i_sld(6, 1));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "scalar program");
  CHECK(rd(m, 0, MNA_SP_SREG, 2) == 3 && rd(m, 0, MNA_SP_SREG, 3) == (uint32_t)-7 &&
            rd(m, 0, MNA_SP_SREG, 0) == 0 && rd(m, 0, MNA_SP_SREG, 4) == 9 &&
            rd(m, 0, MNA_SP_VS, 7) == 3 && rd(m, 0, MNA_SP_SREG, 6) == 3,
        "scalar results");
  CHECK(tst(m, 0).insns == 10 && tst(m, 0).pc == 9, "insns %u pc %u", tst(m, 0).insns, tst(m, 0).pc);

  /* nested loops with address generators: outer 3 (level 0), inner 4 (level 1), a zero loop */
  p.n = 0;
  put(&p, i_li(1, 0));               /* counter */
  put(&p, i_li(2, 3));
  put(&p, i_li(3, 4));
  put(&p, i_li(4, 1));
  put(&p, i_li(5, 16));
  put(&p, i_li(6, 4));
  put(&p, i_agen(1, 1, 0, 4));       /* a1 = idx1 */
  put(&p, i_agen(2, 0, 5, 4));       /* a2 = 16 + idx0 */
  put(&p, i_agen(3, 0, 0, 6));       /* a3 = 4 * idx0 (+ idx1 via a separate test below) */
  put(&p, i_agen(4, 2, 5, 4));       /* level 2 never active: 16 */
  const int outer = p.n;
  put(&p, i_loop(2, 0));             /* 10 */
  put(&p, i_loop(3, 0));             /* 11 */
  put(&p, i_addi(1, 1, 1));
  put(&p, i_sst(1, 1));              /* VS[idx1] = counter (last outer wins) */
  put(&p, i_loop(0, 0));             /* count 0: skip to after its endloop */
  const int zl = p.n - 1;
  put(&p, i_li(7, 0xDEAD));
  put(&p, i_endloop());
  p.w[zl] = i_loop(0, (uint32_t)p.n);
  put(&p, i_endloop());
  p.w[outer + 1] = i_loop(3, (uint32_t)p.n);
  put(&p, i_sst(1, 2));              /* VS[16 + idx0] = counter */
  put(&p, i_sld(8, 4));              /* s8 = VS[16] (a4 constant) */
  put(&p, i_addi(9, 8, 0));
  put(&p, i_endloop());
  p.w[outer] = i_loop(2, (uint32_t)p.n);
  put(&p, i_sst(1, 3));              /* loops inactive: a3 = 0 -> VS[0] */
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "loop program status %d", tst(m, 0).status);
  CHECK(rd(m, 0, MNA_SP_SREG, 1) == 12 && rd(m, 0, MNA_SP_SREG, 7) == 0, "loop counter %u",
        rd(m, 0, MNA_SP_SREG, 1));
  CHECK(rd(m, 0, MNA_SP_VS, 0) == 12 && rd(m, 0, MNA_SP_VS, 1) == 10 &&
            rd(m, 0, MNA_SP_VS, 2) == 11 && rd(m, 0, MNA_SP_VS, 3) == 12,
        "inner agen %u %u %u %u", rd(m, 0, MNA_SP_VS, 0), rd(m, 0, MNA_SP_VS, 1),
        rd(m, 0, MNA_SP_VS, 2), rd(m, 0, MNA_SP_VS, 3));
  CHECK(rd(m, 0, MNA_SP_VS, 16) == 4 && rd(m, 0, MNA_SP_VS, 17) == 8 && rd(m, 0, MNA_SP_VS, 18) == 12,
        "outer agen");
  /* the four-level limit: 4 nested loops are fine, a fifth is LOOP */
  p.n = 0;
  put(&p, i_li(1, 2));
  for (int k = 0; k < 4; k++) put(&p, i_loop(1, 0));
  put(&p, i_addi(2, 2, 1));
  for (int k = 0; k < 4; k++) put(&p, i_endloop());
  for (int k = 0; k < 4; k++) p.w[1 + k] = i_loop(1, (uint32_t)(p.n - k));
  put(&p, i_halt());
  wr(m, 0, MNA_SP_SREG, 2, 0);
  CHECK(go(m, &p) == MNA_ST_DONE && rd(m, 0, MNA_SP_SREG, 2) == 16, "4 nested loops");
  /* START cleared the address generators: a1 (set by the previous program) is 0 now */
  p.n = 0;
  put(&p, i_li(1, 0x55));
  put(&p, i_sst(1, 1));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE && rd(m, 0, MNA_SP_VS, 0) == 0x55, "start clears agens");
  /* START at a PC */
  p.n = 0;
  put(&p, i_li(1, 1));
  put(&p, i_halt());
  put(&p, i_li(1, 2));
  put(&p, i_halt());
  load(m, 0, &p);
  CHECK(mna_host(m, MNA_HOST_START, 0, 0, 0, 2, 0, NULL) == MNA_RSP_OK && mna_run(m, 10) == 0 &&
            rd(m, 0, MNA_SP_SREG, 1) == 2 && tst(m, 0).pc == 3 && tst(m, 0).insns == 2,
        "start pc");
  mna_free(m);
}

/* ================================================================ errors */
/* runs p on tile 0 of m, expects status st at pc, then a good program on the same instance */
static void expect_err(mna_t *m, const pb_t *p, int st, uint32_t pc, const char *what) {
  const uint32_t sent = rd(m, 0, MNA_SP_VS, 60);
  const int r = go(m, p);
  const mna_tile_status_t s = tst(m, 0);
  CHECK(r == st && s.pc == pc && s.insns == pc && !s.abort_valid,
        "%s: status %d pc %u insns %u (want %d at %u)", what, r, s.pc, s.insns, st, pc);
  CHECK(rd(m, 0, MNA_SP_VS, 60) == sent, "%s: erring instruction had an effect", what);
  pb_t g = {.n = 0};
  put(&g, i_li(13, 0x1234 + pc));
  put(&g, i_halt());
  CHECK(go(m, &g) == MNA_ST_DONE && rd(m, 0, MNA_SP_SREG, 13) == 0x1234 + pc,
        "%s: good program afterwards", what);
}

/* a program: prefix (agen a5 -> VS word/line 60 / 15, s1 = 1, s2 = 70000, a1 = 0xFFFFFFF0, s3 =
 * 4 count) then the instruction w */
static void err_prog(pb_t *p, uint64_t w) {
  p->n = 0;
  cagen(p, 5, 10, 60);      /* word 60 */
  cagen(p, 6, 10, 15);      /* line 15 (last line of VS, 16 lines) */
  put(p, i_li(1, 1));
  put(p, i_li(2, 70000));
  cagen(p, 1, 10, 0xFFFFFFF0u);
  put(p, i_li(3, 4));
  put(p, i_li(4, 5));
  put(p, i_li(11, 0x3F800000));
  put(p, w);
  put(p, i_halt());
}

static void test_errors(void) {
  mna_t *m = mk(1, 4);
  wr(m, 0, MNA_SP_VS, 60, 0x600DF00Du);
  pb_t p;
  const uint32_t at = 11; /* PC of the instruction under test in err_prog */
  static const struct {
    uint64_t w;
    int st;
    const char *what;
  } cases[] = {
      {0x07ull << 58, MNA_ST_OPCODE, "opcode 7"},
      {(0x3Full << 58) | 1, MNA_ST_OPCODE, "opcode 3f"},
      {(0x10ull << 58) | (1ull << 54), MNA_ST_OPCODE, "opcode before field"},
      {(uint64_t)MNA_OP_NOP << 58 | 1, MNA_ST_FIELD, "nop imm"},
      {(uint64_t)MNA_OP_HALT << 58 | (1ull << 38), MNA_ST_FIELD, "halt F"},
      {(uint64_t)MNA_OP_LI << 58 | (1ull << 54) | (1ull << 32), MNA_ST_FIELD, "li flag"},
      {(uint64_t)MNA_OP_ENDLOOP << 58 | (1ull << 50), MNA_ST_FIELD, "endloop field before LOOP"},
      {(uint64_t)MNA_OP_AGEN << 58 | (9ull << 54), MNA_ST_FIELD, "agen a9"},
      {(uint64_t)MNA_OP_SST << 58 | (1ull << 54) | (8ull << 50), MNA_ST_FIELD, "sst a8"},
      {(uint64_t)MNA_OP_RFZ << 58 | (8ull << 54), MNA_ST_FIELD, "rfz r8 (rf 8)"},
      {(uint64_t)MNA_OP_SWR << 58 | (15ull << 42), MNA_ST_FIELD, "swr rD 15"},
      {(uint64_t)MNA_OP_VMM << 58 | (3ull << 46) | (4ull << 42) | (4ull << 32), MNA_ST_FIELD, "vmm flag 4"},
      {(uint64_t)MNA_OP_VMM << 58 | (4ull << 42) | (1ull << 32), MNA_ST_FIELD, "vmm t N=5 > E"},
      {(uint64_t)MNA_OP_SFU << 58 | (7ull << 32) | (3ull << 42), MNA_ST_FIELD, "sfu fn 7"},
      {(uint64_t)MNA_OP_SFU << 58 | (1ull << 46) | (3ull << 42), MNA_ST_FIELD, "sfu exp with C"},
      {(uint64_t)MNA_OP_EL << 58 | (1ull << 42) | (3ull << 38), MNA_ST_FIELD, "el add with D"},
      {(uint64_t)MNA_OP_EL << 58 | (3ull << 38) | (8ull << 32), MNA_ST_FIELD, "el add bit3"},
      {(uint64_t)MNA_OP_EL << 58 | (3ull << 38) | (16ull << 32), MNA_ST_FIELD, "el bit4"},
      {(uint64_t)MNA_OP_EL << 58 | (2ull << 38), MNA_ST_FIELD, "el count 70000"},
      {(uint64_t)MNA_OP_LOOP << 58 | (2ull << 54) | 20, MNA_ST_FIELD, "loop count 70000"},
      {(uint64_t)MNA_OP_DMA << 58 | (1ull << 54) | (2ull << 46), MNA_ST_FIELD, "count before addr"},
      {(uint64_t)MNA_OP_ENDLOOP << 58, MNA_ST_LOOP, "endloop without loop"},
      {(uint64_t)MNA_OP_SLD << 58 | (7ull << 54) | (1ull << 50), MNA_ST_ADDR, "sld wrapped agen"},
      {(uint64_t)MNA_OP_SST << 58 | (7ull << 54) | (1ull << 50), MNA_ST_ADDR, "sst"},
      {(uint64_t)MNA_OP_RFLD << 58 | (1ull << 50), MNA_ST_ADDR, "rfld"},
      {(uint64_t)MNA_OP_RFST << 58 | (5ull << 50), MNA_ST_ADDR, "rfst line 60"},
      {(uint64_t)MNA_OP_EL << 58 | (6ull << 54) | (6ull << 50) | (11ull << 46) | (3ull << 38) | (4ull << 32),
       MNA_ST_ADDR, "el 4 lines from 15"},
      {(uint64_t)MNA_OP_EL << 58 | (6ull << 50) | (11ull << 46) | (3ull << 42) | (3ull << 38) | (15ull << 32),
       MNA_ST_ADDR, "el fma a out"},
      {(uint64_t)MNA_OP_SFU << 58 | (5ull << 54) | (4ull << 42), MNA_ST_ADDR, "sfu exp 60..64"},
      {(uint64_t)MNA_OP_SFU << 58 | (5ull << 50) | (4ull << 42) | (5ull << 32), MNA_ST_ADDR, "sfu sum 60..64"},
      {(uint64_t)MNA_OP_DMA << 58 | (6ull << 54) | (3ull << 46), MNA_ST_ADDR, "dma vs"},
      {(uint64_t)MNA_OP_DMAT << 58 | (1ull << 50) | (3ull << 46), MNA_ST_ADDR, "dmat mb"},
      {(uint64_t)MNA_OP_VMM << 58 | (5ull << 46) | (4ull << 42), MNA_ST_ADDR, "vmm vs 60..64"},
      {(uint64_t)MNA_OP_SWR << 58 | (1ull << 54) | (3ull << 38), MNA_ST_ADDR, "swr ms"},
      {(uint64_t)MNA_OP_REDUCE << 58 | (6ull << 54) | (3ull << 50), MNA_ST_ADDR, "reduce 1 tile"},
      {(uint64_t)MNA_OP_BCAST << 58 | (1ull << 54) | (1ull << 50), MNA_ST_ADDR, "bcast 1 tile"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    err_prog(&p, cases[i].w);
    expect_err(m, &p, cases[i].st, at, cases[i].what);
  }
  /* count 0: nothing happens, no address check (but field checks still apply) */
  err_prog(&p, i_el(MNA_EL_ADD, 1, 1, 1, 0, 0, 0));
  CHECK(go(m, &p) == MNA_ST_DONE, "el count 0 with bad addresses");
  err_prog(&p, i_dmat(1, 1, 0, 2, MNA_FL_PAD));
  CHECK(go(m, &p) == MNA_ST_DONE, "dmat count 0");
  err_prog(&p, i_sfu(MNA_SFU_SUM, 5, 1, 0, 0));
  CHECK(go(m, &p) == MNA_ST_DONE && rd(m, 0, MNA_SP_VS, 60) == 0x600DF00Du, "sum count 0 writes nothing");
  /* vmm sq reads no VS word: its VS operand is not range checked (a1 = 0xFFFFFFF0) */
  err_prog(&p, i_vmm(0, 0, 1, 3, MNA_FL_SQ));
  CHECK(go(m, &p) == MNA_ST_DONE, "vmm sq ignores the VS operand");
  err_prog(&p, i_vmm(0, 0, 1, 3, MNA_FL_SQ | MNA_FL_T));
  CHECK(go(m, &p) == MNA_ST_DONE, "vmm t sq ignores the VS operand");
  err_prog(&p, i_vmm(0, 0, 1, 3, MNA_FL_T));
  expect_err(m, &p, MNA_ST_ADDR, at, "vmm t VS operand");
  err_prog(&p, i_vmm(9, 1, 1, 0, 0));
  expect_err(m, &p, MNA_ST_FIELD, at, "vmm r9 with count 0");
  /* the erring instruction has no effect: li with a bad field */
  err_prog(&p, i_li(12, 5) | (1ull << 50));
  wr(m, 0, MNA_SP_SREG, 12, 99);
  expect_err(m, &p, MNA_ST_FIELD, at, "li with B");
  CHECK(rd(m, 0, MNA_SP_SREG, 12) == 99, "li with B wrote");
  /* address checks near the edge that pass: el on line 15 only, sfu exp on 60..63 */
  err_prog(&p, i_el(MNA_EL_FMA, 6, 6, 11, 11, 1, MNA_FL_BS | MNA_FL_CS));
  CHECK(go(m, &p) == MNA_ST_DONE, "el last line ok");
  err_prog(&p, i_sfu(MNA_SFU_RELU, 5, 5, 0, 3));
  CHECK(go(m, &p) == MNA_ST_DONE, "sfu last words ok");
  /* loop: a fifth level */
  p.n = 0;
  put(&p, i_li(1, 2));
  for (int k = 0; k < 5; k++) put(&p, i_loop(1, 30));
  expect_err(m, &p, MNA_ST_LOOP, 5, "fifth loop level");
  /* a fifth level with count 0 is LOOP as well */
  p.n = 0;
  put(&p, i_li(1, 2));
  for (int k = 0; k < 4; k++) put(&p, i_loop(1, 30));
  put(&p, i_loop(0, 30));
  expect_err(m, &p, MNA_ST_LOOP, 5, "fifth loop level, count 0");
  /* PC: running off the end of IMEM */
  p.n = 0;
  for (int k = 0; k < 256; k++) put(&p, i_nop());
  expect_err(m, &p, MNA_ST_PC, 256, "pc off the end");
  /* loop count 0 jumping beyond IMEM */
  p.n = 0;
  put(&p, i_loop(0, 300));
  {
    const int r = go(m, &p);
    CHECK(r == MNA_ST_PC && tst(m, 0).pc == 300 && tst(m, 0).insns == 1, "loop jump out: %d", r);
  }
  /* START at a PC beyond IMEM */
  CHECK(mna_host(m, MNA_HOST_START, 0, 0, 0, 256, 0, NULL) == MNA_RSP_OK && mna_run(m, 10) == 0 &&
            tst(m, 0).status == MNA_ST_PC && tst(m, 0).pc == 256 && tst(m, 0).insns == 0,
        "start beyond imem");
  /* the instruction budget */
  p.n = 0;
  put(&p, i_li(1, 1000));
  put(&p, i_loop(1, 4));
  put(&p, i_nop());
  put(&p, i_endloop());
  put(&p, i_halt());
  load(m, 0, &p);
  CHECK(mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL) == MNA_RSP_OK, "start budget");
  CHECK(mna_run(m, 100) == -1 && tst(m, 0).status == MNA_ST_RUN && tst(m, 0).insns == 100,
        "budget exceeded: insns %u", tst(m, 0).insns);
  CHECK(mna_host(m, MNA_HOST_READ, 0, 0, MNA_SP_VS, 0, 0, NULL) == MNA_RSP_BUSY, "busy after budget");
  CHECK(mna_run(m, 1903) == 0 && tst(m, 0).status == MNA_ST_DONE && tst(m, 0).insns == 2003,
        "continued: insns %u", tst(m, 0).insns);
  CHECK(mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL) == MNA_RSP_OK && mna_run(m, 2003) == 0,
        "exact budget");
  CHECK(mna_host(m, MNA_HOST_START, 0, 0, 0, 0, 0, NULL) == MNA_RSP_OK && mna_run(m, 2002) == -1 &&
            mna_run(m, 1) == 0,
        "budget one short");
  mna_free(m);
}

/* ================================================================ transfers, vmm, swr */
static void test_dmat_vmm(void) {
  const int E = 8;
  mna_cfg_t c;
  mna_cfg_default(&c);
  c.tiles = 1;
  c.emacs = E;
  c.mb_lines = 64;
  c.ms_lines = 32;
  c.vs_lines = 16;
  mna_t *m = mna_new(&c);
  cutil_rng_t r = cutil_rng_seed(11);
  uint32_t mb[64][8];
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < E; j++) {
      mb[i][j] = rnd_f(&r);
      wr(m, 0, MNA_SP_MB, (uint32_t)(i * E + j), mb[i][j]);
    }
  uint32_t vs[16 * 8];
  for (int i = 0; i < 16 * E; i++) {
    vs[i] = rnd_f(&r);
    wr(m, 0, MNA_SP_VS, (uint32_t)i, vs[i]);
  }
  /* plain dmat: 5 rows of MB from line 3 stride 7 -> MS line 2; padded: 8 rows from line 1
   * stride 3 -> MS line 16 */
  pb_t p = {.n = 0};
  cagen(&p, 0, 10, 2);
  cagen(&p, 1, 10, 3);
  put(&p, i_li(2, 5));
  put(&p, i_li(3, 7));
  put(&p, i_dmat(0, 1, 2, 3, 0));
  cagen(&p, 2, 10, 16);
  cagen(&p, 3, 10, 1);
  put(&p, i_li(4, 8));
  put(&p, i_li(5, 3));
  put(&p, i_dmat(2, 3, 4, 5, MNA_FL_PAD));
  /* plain vmm: r1 = M(rows 2..6 of MS) ^T v, v = VS words 9..13, in two parts (3 + 2) */
  put(&p, i_rfz(1));
  cagen(&p, 4, 10, 9);
  put(&p, i_li(6, 3));
  put(&p, i_vmm(1, 0, 4, 6, 0));
  cagen(&p, 0, 10, 5);
  cagen(&p, 4, 10, 12);
  put(&p, i_li(6, 2));
  put(&p, i_vmm(1, 0, 4, 6, 0));
  cagen(&p, 7, 10, 10);
  put(&p, i_rfst(1, 7));                   /* VS line 10 */
  /* plain sq over the 5 rows */
  cagen(&p, 0, 10, 2);
  put(&p, i_rfld(2, 7));                   /* start from the previous result */
  put(&p, i_vmm(2, 0, 4, 2, MNA_FL_SQ));
  cagen(&p, 7, 10, 11);
  put(&p, i_rfst(2, 7));
  /* transposed N = 5 with v = VS words 3..7, N = 8 (E) with v = words 20..27, sq N = 3 */
  put(&p, i_rfz(3));
  cagen(&p, 4, 10, 3);
  put(&p, i_vmm(3, 2, 4, 2, MNA_FL_T));
  cagen(&p, 7, 10, 12);
  put(&p, i_rfst(3, 7));
  put(&p, i_rfz(4));
  cagen(&p, 4, 10, 20);
  put(&p, i_vmm(4, 2, 4, 4, MNA_FL_T));
  cagen(&p, 7, 10, 13);
  put(&p, i_rfst(4, 7));
  put(&p, i_rfz(5));
  put(&p, i_li(6, 3));
  put(&p, i_vmm(5, 2, 4, 6, MNA_FL_T | MNA_FL_SQ));
  cagen(&p, 7, 10, 14);
  put(&p, i_rfst(5, 7));
  /* dmat store: padded MS 16.. back to MB line 40 stride 2; plain MS 2.. to MB line 60 stride 1 */
  cagen(&p, 3, 10, 40);
  put(&p, i_li(5, 2));
  put(&p, i_dmat(2, 3, 4, 5, MNA_FL_PAD | MNA_FL_STORE));
  cagen(&p, 3, 10, 59);
  put(&p, i_li(5, 1));
  put(&p, i_dmat(0, 3, 2, 5, MNA_FL_STORE));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "dmat/vmm program: %d pc %u", tst(m, 0).status, tst(m, 0).pc);
  size_t nw;
  const uint32_t *ms = mna_mem(m, 0, MNA_SP_MS, &nw);
  const uint32_t *vsm = mna_mem(m, 0, MNA_SP_VS, &nw);
  const uint32_t *mbm = mna_mem(m, 0, MNA_SP_MB, &nw);
  int bad = 0;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < E; j++) bad += ms[(2 + i) * E + j] != mb[3 + 7 * i][j];
  CHECK(bad == 0, "plain dmat layout");
  bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < E; j++) bad += ms[16 * E + i * (E + 1) + j] != mb[1 + 3 * i][j];
  CHECK(bad == 0, "padded dmat layout");
  /* plain vmm reference */
  uint32_t ref[8], ref2[8];
  for (int j = 0; j < E; j++) {
    uint32_t a = 0;
    for (int i = 0; i < 5; i++) a = tfma(ms[(2 + i) * E + j], vs[9 + i], a);
    ref[j] = a;
    uint32_t s = a;
    for (int i = 0; i < 5; i++) s = tfma(ms[(2 + i) * E + j], ms[(2 + i) * E + j], s);
    ref2[j] = s;
  }
  bad = 0;
  for (int j = 0; j < E; j++) bad += vsm[10 * E + j] != ref[j] || vsm[11 * E + j] != ref2[j];
  CHECK(bad == 0, "plain vmm / sq against fmaf loop");
  /* transposed references: element (r, c) = MS word 16E + r(E+1) + c = mb[1 + 3r][c] */
  bad = 0;
  for (int rr = 0; rr < E; rr++) {
    uint32_t a = 0, b = 0, q = 0;
    for (int cc = 0; cc < 5; cc++) a = tfma(mb[1 + 3 * rr][cc], vs[3 + cc], a);
    for (int cc = 0; cc < 8; cc++) b = tfma(mb[1 + 3 * rr][cc], vs[20 + cc], b);
    for (int cc = 0; cc < 3; cc++) q = tfma(mb[1 + 3 * rr][cc], mb[1 + 3 * rr][cc], q);
    bad += vsm[12 * E + rr] != a || vsm[13 * E + rr] != b || vsm[14 * E + rr] != q;
  }
  CHECK(bad == 0, "transposed vmm / sq against fmaf loop");
  bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < E; j++) bad += mbm[(40 + 2 * i) * E + j] != mb[1 + 3 * i][j];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < E; j++) bad += mbm[(59 + i) * E + j] != mb[3 + 7 * i][j];
  CHECK(bad == 0, "dmat store");
  /* range of transposed vmm and padded dmat (MS has 32 lines): a group at line 23 with N = 8
   * uses lines 23..31, a padded dmat of 8 rows at 23 ends at word 23E + 7(E+1) + 7 = 254: ok */
  p.n = 0;
  put(&p, i_li(4, 8));
  cagen(&p, 2, 10, 23);
  put(&p, i_vmm(3, 2, 0, 4, MNA_FL_T));
  put(&p, i_dmat(2, 0, 4, 0, MNA_FL_PAD));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "transposed range at 23: %d", tst(m, 0).status);
  static const struct {
    uint32_t n;
    uint64_t w;
    int st;
  } rc[] = {{8, 0, MNA_ST_ADDR}, {7, 0, MNA_ST_ADDR}, {1, 0, MNA_ST_DONE}, {8, 1, MNA_ST_ADDR},
            {7, 1, MNA_ST_DONE}};
  for (size_t k = 0; k < sizeof rc / sizeof rc[0]; k++) {
    /* at line 24: vmm t N needs 24 + 7 + (8 + N - 2) div 8 <= 31; dmat pad N rows ends at word
     * 192 + (N-1)*9 + 7 <= 255 */
    p.n = 0;
    put(&p, i_li(4, rc[k].n));
    cagen(&p, 2, 10, 24);
    put(&p, rc[k].w ? i_dmat(2, 0, 4, 0, MNA_FL_PAD) : i_vmm(3, 2, 0, 4, MNA_FL_T));
    put(&p, i_halt());
    CHECK(go(m, &p) == rc[k].st && tst(m, 0).pc == (rc[k].st == MNA_ST_DONE ? 4u : 3u),
          "range case %zu: %d", k, tst(m, 0).status);
  }
  mna_free(m);
}

static void test_swr_dma_el(void) {
  const int E = 4;
  mna_t *m = mk(1, E);
  cutil_rng_t r = cutil_rng_seed(5);
  uint32_t ms0[32 * 4], vs0[16 * 4];
  for (int i = 0; i < 32 * E; i++) wr(m, 0, MNA_SP_MS, (uint32_t)i, ms0[i] = rnd_f(&r));
  for (int i = 0; i < 16 * E; i++) wr(m, 0, MNA_SP_VS, (uint32_t)i, vs0[i] = rnd_f(&r));
  vs0[21] = 0x3F800000u; /* w = 1: full erase */
  wr(m, 0, MNA_SP_VS, 21, vs0[21]);
  /* swr: 6 rows at MS line 3, w = VS words 19..24, erase = RF r1 <- VS line 0, add = r2 <- line 1 */
  pb_t p = {.n = 0};
  cagen(&p, 0, 10, 0);
  put(&p, i_rfld(1, 0));
  cagen(&p, 0, 10, 1);
  put(&p, i_rfld(2, 0));
  cagen(&p, 0, 10, 3);
  cagen(&p, 1, 10, 19);
  put(&p, i_li(3, 6));
  put(&p, i_swr(0, 1, 1, 2, 3));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "swr program");
  size_t nw;
  const uint32_t *ms = mna_mem(m, 0, MNA_SP_MS, &nw);
  int bad = 0;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < E; j++) {
      uint32_t want = ms0[i * E + j];
      if (i >= 3 && i < 9) {
        const uint32_t w = vs0[19 + i - 3];
        const uint32_t t = tfma(w ^ 0x80000000u, vs0[j], F_1);
        want = tfma(w, vs0[E + j], tmul(want, t));
      }
      bad += ms[i * E + j] != want;
    }
  CHECK(bad == 0, "swr against C loop");
  /* dma: VB lines 5..8 <- VS lines 2..5 (store), then VS lines 10..13 <- VB 5..8 */
  p.n = 0;
  cagen(&p, 0, 10, 2);
  cagen(&p, 1, 10, 5);
  put(&p, i_li(3, 4));
  put(&p, i_dma(0, 1, 3, MNA_FL_STORE));
  cagen(&p, 0, 10, 10);
  put(&p, i_dma(0, 1, 3, 0));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "dma program");
  bad = 0;
  for (int i = 0; i < 4 * E; i++)
    bad += rd(m, 0, MNA_SP_VB, (uint32_t)(5 * E + i)) != vs0[2 * E + i] ||
           rd(m, 0, MNA_SP_VS, (uint32_t)(10 * E + i)) != vs0[2 * E + i];
  CHECK(bad == 0, "dma");
  for (int i = 0; i < 16 * E; i++) wr(m, 0, MNA_SP_VS, (uint32_t)i, vs0[i] = rnd_f(&r));
  /* el: vector add/sub/mul, scalar mul, fma vv/vs/sv/ss; 2 lines each from lines 0,2,4 into 6.. */
  const uint32_t sc = 0x3FC00000u, sc2 = 0xC0200000u; /* 1.5, -2.5 */
  p.n = 0;
  put(&p, i_li(11, sc));
  put(&p, i_li(12, sc2));
  cagen(&p, 0, 10, 0);
  cagen(&p, 1, 10, 2);
  cagen(&p, 2, 10, 4);
  put(&p, i_li(3, 1));
  put(&p, i_li(4, 2));
  static const struct {
    unsigned op, fl;
  } ops[8] = {{MNA_EL_ADD, 0}, {MNA_EL_SUB, 0}, {MNA_EL_MUL, 0}, {MNA_EL_MUL, MNA_FL_BS},
              {MNA_EL_FMA, 0}, {MNA_EL_FMA, MNA_FL_BS}, {MNA_EL_FMA, MNA_FL_CS},
              {MNA_EL_FMA, MNA_FL_BS | MNA_FL_CS}};
  for (int k = 0; k < 8; k++) {
    /* destination: VS line 6 + k for op k, one line (count s3) except op 0 (2 lines at 6 is
     * fine only for k=0: use one line each) */
    cagen(&p, 5, 10, (uint32_t)(6 + k));
    const unsigned x = (ops[k].fl & MNA_FL_BS) ? 11 : 1, y = ops[k].op == MNA_EL_FMA
                                                                ? ((ops[k].fl & MNA_FL_CS) ? 12 : 2)
                                                                : 0;
    put(&p, i_el(ops[k].op, 5, 0, x, y, 3, ops[k].fl));
  }
  /* line-sequential overlap: lines 14, 15 = lines 13 + 1.0 (cascaded) */
  put(&p, i_li(13, F_1));
  cagen(&p, 5, 10, 14);
  cagen(&p, 6, 10, 13);
  put(&p, i_el(MNA_EL_ADD, 5, 6, 13, 0, 4, MNA_FL_BS));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "el program: %d at %u", tst(m, 0).status, tst(m, 0).pc);
  bad = 0;
  for (int j = 0; j < E; j++) {
    const uint32_t a = vs0[j], b = vs0[2 * E + j], cc = vs0[4 * E + j];
    const uint32_t want[8] = {tadd(a, b),    tsub(a, b),       tmul(a, b),      tmul(a, sc),
                              tfma(a, b, cc), tfma(a, sc, cc), tfma(a, b, sc2), tfma(a, sc, sc2)};
    for (int k = 0; k < 8; k++) {
      const uint32_t got = rd(m, 0, MNA_SP_VS, (uint32_t)((6 + k) * E + j));
      if (got != want[k]) {
        bad++;
        printf("  el op %d lane %d: %08x want %08x\n", k, j, got, want[k]);
      }
    }
    const uint32_t l13 = rd(m, 0, MNA_SP_VS, (uint32_t)(13 * E + j));
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(14 * E + j)) != tadd(l13, F_1);
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(15 * E + j)) != tadd(tadd(l13, F_1), F_1);
  }
  CHECK(bad == 0, "el ops against C");
  /* el in place (d = a) with NaN/inf: canonical NaN */
  wr(m, 0, MNA_SP_VS, 0, SNAN);
  wr(m, 0, MNA_SP_VS, 1, F_INF);
  wr(m, 0, MNA_SP_VS, 2, 0x80000000u);
  wr(m, 0, MNA_SP_VS, 3, F_1);
  wr(m, 0, MNA_SP_VS, 4, F_1);
  wr(m, 0, MNA_SP_VS, 5, F_NINF);
  wr(m, 0, MNA_SP_VS, 6, 0);
  wr(m, 0, MNA_SP_VS, 7, 0xFFC00001u);
  p.n = 0;
  cagen(&p, 0, 10, 0);
  cagen(&p, 1, 10, 1);
  put(&p, i_li(3, 1));
  put(&p, i_el(MNA_EL_ADD, 0, 0, 1, 0, 3, 0));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE && rd(m, 0, MNA_SP_VS, 0) == QNAN && rd(m, 0, MNA_SP_VS, 1) == QNAN &&
            rd(m, 0, MNA_SP_VS, 2) == 0 && rd(m, 0, MNA_SP_VS, 3) == QNAN,
        "el specials %08x %08x %08x %08x", rd(m, 0, MNA_SP_VS, 0), rd(m, 0, MNA_SP_VS, 1),
        rd(m, 0, MNA_SP_VS, 2), rd(m, 0, MNA_SP_VS, 3));
  mna_free(m);
}

/* ================================================================ SFU and exp */
static uint32_t ulp_dist(uint32_t a, uint32_t b) {
  /* both non-negative finite */
  return a > b ? a - b : b - a;
}

static void test_exp(void) {
  CHECK(mna_fp_exp(QNAN) == QNAN && mna_fp_exp(SNAN) == QNAN && mna_fp_exp(0xFFC00000u) == QNAN,
        "exp NaN");
  CHECK(mna_fp_exp(F_INF) == F_INF && mna_fp_exp(F_NINF) == 0, "exp inf");
  CHECK(mna_fp_exp(0) == F_1 && mna_fp_exp(0x80000000u) == F_1, "exp 0 = %08x", mna_fp_exp(0));
  CHECK(mna_fp_exp(0x42B17219u) == F_INF && mna_fp_exp(0x7F7FFFFFu) == F_INF, "exp overflow clamp");
  /* at the clamp itself the sequence overflows, as the correctly rounded exp does
   * (e^88.72283935546875 > FLT_MAX + ulp/2); the float below is finite */
  CHECK(mna_fp_exp(0x42B17218u) == F_INF && expf(cutil_f32(0x42B17218u)) == INFINITY,
        "exp at 88.72283935546875: %08x", mna_fp_exp(0x42B17218u));
  const uint32_t top = mna_fp_exp(0x42B17217u);
  CHECK(top < F_INF && ulp_dist(top, cutil_f32_bits((float)exp((double)cutil_f32(0x42B17217u)))) <= 3,
        "exp below the clamp: %08x", top);
  CHECK(mna_fp_exp(0xC2D00001u) == 0 && mna_fp_exp(0xFF7FFFFFu) == 0, "exp underflow clamp");
  CHECK(mna_fp_exp(0xC2D00000u) <= 1, "exp(-104) = %08x", mna_fp_exp(0xC2D00000u));
  CHECK(mna_fp_exp(F_1) == 0x402DF854u, "exp(1) = %08x", mna_fp_exp(F_1));
  /* tiny arguments: 1 */
  CHECK(mna_fp_exp(1) == F_1 && mna_fp_exp(0x80000001u) == F_1, "exp(tiny)");
  /* sweep: every 97th bit pattern of [-104, 88.72] */
  uint32_t worst = 0, worst_x = 0, worst_sub = 0, over2 = 0;
  long n = 0;
  for (uint64_t u = 0; u <= 0xC2D00000u; u += 997) {
    const uint32_t x = (uint32_t)u;
    if (x > 0x42B17218u && x < 0x80000000u) {
      u = 0x80000000u - 997;
      continue;
    }
    const uint32_t y = mna_fp_exp(x);
    const double e = exp((double)cutil_f32(x));
    const uint32_t w = cutil_f32_bits((float)e);
    const uint32_t d = ulp_dist(y, w);
    if (e >= 1.17549435e-38) {
      if (d > worst) worst = d, worst_x = x;
      over2 += d > 2;
    } else if (d > worst_sub) {
      worst_sub = d;
    }
    n++;
  }
  /* The spec's sequence (a degree-6 Taylor polynomial on |r| <= ln2/2, r rounded once) is
   * within 3 ulp of the correctly rounded exp; 3 ulp occurs for about 4 in 10^6 arguments
   * (a sweep of every third pattern: 0.04% at 2 ulp, 2709 of 7.5e8 at 3, none above). */
  CHECK(worst <= 3, "exp worst %u ulp at %08x", worst, worst_x);
  CHECK(over2 * 1000 < (uint32_t)n, "exp: %u of %ld results more than 2 ulp off", over2, n);
  CHECK(worst_sub <= 2, "exp subnormal results worst %u", worst_sub);
  CHECK(n > 1000000, "sweep size %ld", n);
  /* sigmoid */
  CHECK(mna_fp_sigmoid(0) == 0x3F000000u, "sigmoid(0)");
}

static void test_sfu(void) {
  mna_t *m = mk(1, 4);
  cutil_rng_t r = cutil_rng_seed(7);
  uint32_t in[24];
  const uint32_t spec[] = {0, 0x80000000u, F_1, F_M1, F_INF, F_NINF, SNAN, 0x00000001u,
                           0x40800000u, 0xC1200000u};
  for (int i = 0; i < 24; i++) in[i] = i < 10 ? spec[i] : rnd_f(&r);
  for (int i = 0; i < 24; i++) wr(m, 0, MNA_SP_VS, (uint32_t)i, in[i]);
  pb_t p = {.n = 0};
  put(&p, i_li(1, 12));
  cagen(&p, 0, 10, 0);
  cagen(&p, 1, 10, 12);
  cagen(&p, 2, 10, 24);
  cagen(&p, 3, 10, 36);
  cagen(&p, 4, 10, 48);
  put(&p, i_sfu(MNA_SFU_EXP, 2, 0, 0, 1));
  put(&p, i_sfu(MNA_SFU_RECIP, 3, 0, 0, 1));
  put(&p, i_sfu(MNA_SFU_SQRT, 4, 0, 0, 1));
  cagen(&p, 5, 10, 60);
  cagen(&p, 6, 10, 61);
  put(&p, i_sfu(MNA_SFU_SUM, 5, 1, 0, 1));     /* sum of words 12..23 */
  put(&p, i_sfu(MNA_SFU_DOT, 6, 0, 1, 1));     /* dot of 0..11 with 12..23 */
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "sfu program 1: %d", tst(m, 0).status);
  int bad = 0;
  uint32_t sum = 0, dot = 0;
  for (int i = 0; i < 12; i++) {
    const uint32_t x = in[i];
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(24 + i)) != mna_fp_exp(x);
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(36 + i)) != canon(1.0f / cutil_f32(x));
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(48 + i)) != canon(sqrtf(cutil_f32(x)));
    sum = tadd(sum, in[12 + i]);
    dot = tfma(in[i], in[12 + i], dot);
  }
  CHECK(bad == 0, "exp/recip/sqrt");
  CHECK(rd(m, 0, MNA_SP_VS, 60) == sum && rd(m, 0, MNA_SP_VS, 61) == dot, "sum %08x dot %08x",
        rd(m, 0, MNA_SP_VS, 60), rd(m, 0, MNA_SP_VS, 61));
  CHECK(rd(m, 0, MNA_SP_VS, 36) == F_INF && rd(m, 0, MNA_SP_VS, 37) == F_NINF &&
            rd(m, 0, MNA_SP_VS, 40) == 0 && rd(m, 0, MNA_SP_VS, 42) == QNAN,
        "recip specials");
  CHECK(rd(m, 0, MNA_SP_VS, 49) == 0x80000000u && rd(m, 0, MNA_SP_VS, 51) == QNAN &&
            rd(m, 0, MNA_SP_VS, 52) == F_INF && rd(m, 0, MNA_SP_VS, 56) == F_2,
        "sqrt specials");
  /* relu, sigmoid; a sum of one -0 is +0 */
  for (int i = 0; i < 24; i++) wr(m, 0, MNA_SP_VS, (uint32_t)i, in[i]);
  p.n = 0;
  put(&p, i_li(1, 12));
  cagen(&p, 0, 10, 0);
  cagen(&p, 2, 10, 24);
  cagen(&p, 3, 10, 36);
  put(&p, i_sfu(MNA_SFU_RELU, 2, 0, 0, 1));
  put(&p, i_sfu(MNA_SFU_SIGMOID, 3, 0, 0, 1));
  cagen(&p, 5, 10, 60);
  cagen(&p, 6, 10, 1);
  put(&p, i_li(7, 1));
  put(&p, i_sfu(MNA_SFU_SUM, 5, 6, 0, 7));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "sfu program 2");
  bad = 0;
  for (int i = 0; i < 12; i++) {
    const uint32_t x = in[i];
    const uint32_t relu = isnan(cutil_f32(x)) ? QNAN : (x >> 31) ? 0 : x;
    const uint32_t e = mna_fp_exp(x ^ 0x80000000u);
    const uint32_t sg = canon(1.0f / (cutil_f32(e) + 1.0f));
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(24 + i)) != relu;
    bad += rd(m, 0, MNA_SP_VS, (uint32_t)(36 + i)) != sg;
  }
  CHECK(bad == 0, "relu/sigmoid");
  CHECK(rd(m, 0, MNA_SP_VS, 25) == 0 && rd(m, 0, MNA_SP_VS, 28) == F_INF &&
            rd(m, 0, MNA_SP_VS, 29) == 0 && rd(m, 0, MNA_SP_VS, 30) == QNAN,
        "relu specials");
  CHECK(rd(m, 0, MNA_SP_VS, 36) == 0x3F000000u && rd(m, 0, MNA_SP_VS, 40) == F_1 &&
            rd(m, 0, MNA_SP_VS, 41) == 0 && rd(m, 0, MNA_SP_VS, 42) == QNAN,
        "sigmoid specials");
  CHECK(rd(m, 0, MNA_SP_VS, 60) == 0, "sum(-0) = +0");
  /* word-sequential overlap: exp from word 0 into word 1, 3 words: cascaded */
  wr(m, 0, MNA_SP_VS, 0, 0xBF000000u); /* -0.5 */
  p.n = 0;
  put(&p, i_li(1, 3));
  cagen(&p, 0, 10, 0);
  cagen(&p, 1, 10, 1);
  put(&p, i_sfu(MNA_SFU_EXP, 1, 0, 0, 1));
  put(&p, i_halt());
  CHECK(go(m, &p) == MNA_ST_DONE, "sfu overlap");
  const uint32_t e1 = mna_fp_exp(0xBF000000u), e2 = mna_fp_exp(e1), e3 = mna_fp_exp(e2);
  CHECK(rd(m, 0, MNA_SP_VS, 1) == e1 && rd(m, 0, MNA_SP_VS, 2) == e2 && rd(m, 0, MNA_SP_VS, 3) == e3,
        "sfu word-sequential");
  mna_free(m);
}

/* ================================================================ collectives */
static void test_collectives(void) {
  const int E = 4, VSW = 16 * 4;
  cutil_rng_t r = cutil_rng_seed(99);
  for (int T = 1; T <= 16; T *= 2) {
    mna_t *m = mk(T, E);
    static uint32_t v[16][64];
    for (int t = 0; t < T; t++) {
      for (int i = 0; i < VSW; i++) wr(m, t, MNA_SP_VS, (uint32_t)i, v[t][i] = rnd_f(&r));
      wr(m, t, MNA_SP_SREG, 2, (uint32_t)(t % 3)); /* each tile's own reduce line */
    }
    pb_t p = {.n = 0};
    put(&p, i_agen(0, 4, 2, 0));
    put(&p, i_li(3, 3));
    put(&p, i_reduce(0, 3));
    cagen(&p, 1, 10, 10);
    put(&p, i_li(4, 2));
    put(&p, i_bcast(1, 4));
    put(&p, i_bcast(1, 0));   /* count 0: a fence that moves nothing */
    put(&p, i_reduce(1, 0));
    put(&p, i_halt());
    load(m, -1, &p);
    CHECK(run(m) == 0, "T=%d run", T);
    /* expected: reduce over the H-tree pairing, then tile 0's lines 10, 11 everywhere */
    for (int l = 1; l < T; l <<= 1)
      for (int rv = 0; rv + l < T; rv += 2 * l)
        for (int k = 0; k < 3 * E; k++) {
          uint32_t *dst = &v[rv][(rv % 3) * E + k];
          *dst = tadd(*dst, v[rv + l][((rv + l) % 3) * E + k]);
        }
    for (int t = 1; t < T; t++)
      for (int k = 0; k < 2 * E; k++) v[t][10 * E + k] = v[0][10 * E + k];
    int bad = 0, st = 0;
    for (int t = 0; t < T; t++) {
      const mna_tile_status_t s = tst(m, t);
      st += s.status != MNA_ST_DONE || s.insns != (uint32_t)p.n || s.pc != (uint32_t)p.n - 1 ||
            s.abort_valid;
      size_t nw;
      const uint32_t *vs = mna_mem(m, t, MNA_SP_VS, &nw);
      for (int i = 0; i < VSW; i++) bad += vs[i] != v[t][i];
    }
    CHECK(st == 0, "T=%d statuses", T);
    CHECK(bad == 0, "T=%d reduce/bcast results (%d words differ)", T, bad);
    mna_free(m);
  }
}

/* loads per-tile programs */
static void load_each(mna_t *m, int T, pb_t *p) {
  for (int t = 0; t < T; t++) load(m, t, &p[t]);
}

static void test_coll_abort(void) {
  const int T = 4;
  mna_t *m = mk(T, 4);
  static pb_t p[4];
  /* (a) tile 2 hits a bad opcode before the reduce: the others stop with COLL */
  for (int t = 0; t < T; t++) {
    p[t].n = 0;
    put(&p[t], i_li(3, 2));
    cagen(&p[t], 0, 10, (uint32_t)(4 + t));
    put(&p[t], t == 2 ? (0x07ull << 58) : i_nop());
    put(&p[t], i_reduce(0, 3));
    put(&p[t], i_halt());
  }
  load_each(m, T, p);
  CHECK(run(m) == 0, "abort run a");
  for (int t = 0; t < T; t++) {
    const mna_tile_status_t s = tst(m, t);
    if (t == 2)
      CHECK(s.status == MNA_ST_OPCODE && s.pc == 3 && !s.abort_valid, "a: erring tile %d", s.status);
    else
      CHECK(s.status == MNA_ST_COLL && s.pc == 4 && s.insns == 4 && s.abort_valid &&
                s.abort_line == (uint32_t)(4 + t) && s.abort_lines == 2,
            "a: tile %d status %d pc %u abort %d %u %u", t, s.status, s.pc, s.abort_valid,
            s.abort_line, s.abort_lines);
  }
  /* (b) tile 1 halts early: the others TIMEOUT */
  p[1].w[3] = i_halt();
  p[2].w[3] = i_nop();
  load_each(m, T, p);
  CHECK(run(m) == 0, "abort run b");
  for (int t = 0; t < T; t++) {
    const mna_tile_status_t s = tst(m, t);
    if (t == 1)
      CHECK(s.status == MNA_ST_DONE && s.pc == 3, "b: halted tile");
    else
      CHECK(s.status == MNA_ST_TIMEOUT && s.pc == 4 && s.abort_valid && s.abort_line == (uint32_t)(4 + t) &&
                s.abort_lines == 2,
            "b: tile %d status %d", t, s.status);
  }
  /* (c) tile 1 halts, tile 3 has an error at the reduce itself (ADDR): the others COLL */
  p[3].w[1] = i_li(10, 15);
  load_each(m, T, p);
  CHECK(run(m) == 0, "abort run c");
  CHECK(tst(m, 3).status == MNA_ST_ADDR && tst(m, 3).pc == 4 && !tst(m, 3).abort_valid, "c: tile 3");
  CHECK(tst(m, 0).status == MNA_ST_COLL && tst(m, 2).status == MNA_ST_COLL &&
            tst(m, 1).status == MNA_ST_DONE,
        "c: others COLL");
  /* (d) count mismatch: every tile COLL */
  p[1].w[3] = i_nop();
  p[3].w[1] = i_li(10, 7);
  p[3].w[0] = i_li(3, 1);
  load_each(m, T, p);
  CHECK(run(m) == 0, "abort run d");
  int bad = 0;
  for (int t = 0; t < T; t++) {
    const mna_tile_status_t s = tst(m, t);
    bad += s.status != MNA_ST_COLL || s.pc != 4 || !s.abort_valid ||
           s.abort_line != (uint32_t)(t == 3 ? 7 : 4 + t) || s.abort_lines != (t == 3 ? 1u : 2u);
  }
  CHECK(bad == 0, "d: count mismatch");
  /* (e) kind mismatch (tile 0 bcast): every tile COLL */
  p[3].w[0] = i_li(3, 2);
  p[0].w[4] = i_bcast(0, 3);
  load_each(m, T, p);
  CHECK(run(m) == 0, "abort run e");
  bad = 0;
  for (int t = 0; t < T; t++) bad += tst(m, t).status != MNA_ST_COLL || !tst(m, t).abort_valid;
  CHECK(bad == 0, "e: kind mismatch");
  /* (f) an error between two collectives: the first completes, the second aborts */
  p[0].w[4] = i_reduce(0, 3);
  for (int t = 0; t < T; t++) {
    p[t].n = 5;
    put(&p[t], t == 1 ? i_sfu(7, 0, 0, 0, 0) : i_nop());
    put(&p[t], i_bcast(0, 3));
    put(&p[t], i_halt());
  }
  load_each(m, T, p);
  CHECK(run(m) == 0, "abort run f");
  bad = 0;
  for (int t = 0; t < T; t++) {
    const mna_tile_status_t s = tst(m, t);
    if (t == 1) bad += s.status != MNA_ST_FIELD || s.pc != 5 || s.insns != 5;
    else bad += s.status != MNA_ST_COLL || s.pc != 6 || s.insns != 6 || !s.abort_valid;
  }
  CHECK(bad == 0, "f: second collective aborted");
  /* (g) a good program afterwards on the same instance */
  for (int t = 0; t < T; t++) {
    p[t].w[5] = i_nop();
    wr(m, t, MNA_SP_VS, 16, 0x3F800000u); /* line 4, word 0 of tile 0's range */
    wr(m, t, MNA_SP_VS, 20, 0x3F800000u);
    wr(m, t, MNA_SP_VS, 24, 0x3F800000u);
    wr(m, t, MNA_SP_VS, 28, 0x3F800000u);
  }
  load_each(m, T, p);
  CHECK(run(m) == 0, "run g");
  bad = 0;
  for (int t = 0; t < T; t++) bad += tst(m, t).status != MNA_ST_DONE || tst(m, t).insns != 8;
  CHECK(bad == 0, "g: good program after aborts");
  mna_free(m);
}

/* ================================================================ trace */
static void test_trace(void) {
  mna_t *m = mk(2, 4);
  FILE *f = tmpfile();
  if (!f) {
    CHECK(0, "tmpfile");
    mna_free(m);
    return;
  }
  pb_t p = {.n = 0};
  put(&p, i_li(1, 5));
  put(&p, i_halt());
  mna_set_trace(m, f);
  CHECK(go(m, &p) == MNA_ST_DONE, "trace run");
  mna_set_trace(m, NULL);
  rewind(f);
  char line[4][128] = {{0}};
  for (int i = 0; i < 4; i++)
    if (!fgets(line[i], sizeof line[i], f)) break;
  CHECK(!strcmp(line[0], "tile 0 pc 0 li s1, 5\n") && !strcmp(line[1], "tile 0 pc 1 halt\n") &&
            !strcmp(line[2], "tile 1 pc 0 li s1, 5\n") && !strcmp(line[3], "tile 1 pc 1 halt\n"),
        "trace lines '%s' '%s'", line[0], line[3]);
  fclose(f);
  mna_free(m);
}

int main(void) {
  test_cfg();
  test_disasm();
  test_host();
  test_scalar_loops();
  test_errors();
  test_dmat_vmm();
  test_swr_dma_el();
  test_exp();
  test_sfu();
  test_collectives();
  test_coll_abort();
  test_trace();
  return CHECK_SUMMARY();
}
