/* test_gnnerator.c -- unit tests of the GNNerator Dense Engine golden model (cmodel/gnnerator),
 * built with ASan/UBSan: the configuration limits, the encoding and field view (hand-computed
 * words and a random round trip of every field), every error code with its check order, the
 * reserved bits of each opcode bit by bit, bank-crossing buffer ranges and the MATMUL line
 * table, the DRAM last-address limit, the buffer/DRAM use of instructions, LOAD (zero fill,
 * stride 0 broadcast) and STORE (write beats), COPY, MADD and ACT (in place and overlap), ReLU
 * and the fp32 arithmetic on special values (hand-computed bit patterns), and MATMUL in each
 * dataflow on odd shapes and four array shapes, packed from DRAM with LOADs in each dataflow's
 * DRAM layout and stored back, compared bit for bit against gnn_matmul_ref and against the
 * test's own fmaf chain; accumulation order (OS adds at the end, WS/IS start the chain), K
 * split over two MATMULs, the +0.0 padding words, NaN/Inf/subnormal inputs.
 * Last line: "N passed, N failed". */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "gnnerator.h"

#include "test_check.h"

#define QNAN 0x7FC00000u
#define PZERO 0x00000000u
#define NZERO 0x80000000u
#define SENT 0xDEADBEEFu  /* sentinel of words that must be overwritten or stay untouched */
#define JUNK 0x7FBADBADu  /* a signaling NaN: where the engine must not read */

/* fp32 constants (bit patterns) */
#define F_1 0x3F800000u
#define F_1_5 0x3FC00000u
#define F_2 0x40000000u
#define F_2_25 0x40100000u
#define F_3 0x40400000u
#define F_3_75 0x40700000u
#define F_HALF 0x3F000000u
#define F_M1 0xBF800000u
#define F_M2 0xC0000000u
#define F_INF 0x7F800000u
#define F_NINF 0xFF800000u
#define F_MAX 0x7F7FFFFFu
#define F_2PM24 0x33800000u  /* 2^-24 */
#define F_2PM25 0x33000000u  /* 2^-25 */
#define F_2PM75 0x1A000000u  /* 2^-75 */
#define F_1_5PM75 0x1A400000u /* 1.5 * 2^-75 */
#define F_1P12 0x3F800800u   /* 1 + 2^-12 */

typedef unsigned long long ull;

/* The test's own arithmetic: the host's fmaf / float add, NaN made canonical. */
static uint32_t tfma(uint32_t a, uint32_t b, uint32_t c) {
  const float r = fmaf(cutil_f32(a), cutil_f32(b), cutil_f32(c));
  return isnan(r) ? QNAN : cutil_f32_bits(r);
}
static uint32_t tadd(uint32_t a, uint32_t b) {
  const float r = cutil_f32(a) + cutil_f32(b);
  return isnan(r) ? QNAN : cutil_f32_bits(r);
}
static uint32_t trelu(uint32_t x) {
  if (isnan(cutil_f32(x))) return QNAN;
  return signbit(cutil_f32(x)) ? PZERO : x;
}

static unsigned cdiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

static gnn_model_t *new_model(int r, int c, int din, int dwt, int dout, int aw) {
  gnn_cfg_t cfg;
  if (gnn_cfg_init(&cfg, r, c, din, dwt, dout, aw) != 0) {
    printf("gnn_cfg_init(%d, %d, %d, %d, %d, %d) failed\n", r, c, din, dwt, dout, aw);
    exit(1);
  }
  gnn_model_t *m = gnn_model_new(&cfg);
  if (!m) {
    printf("gnn_model_new failed\n");
    exit(1);
  }
  return m;
}

static int exec_ok(gnn_model_t *m, gnn_insn_t in) { return gnn_model_exec(m, &in) == GNN_OK; }

/* DRAM rows: n words v, v + step, ... at addr */
static void dram_seq(gnn_model_t *m, uint64_t addr, unsigned n, uint32_t v, uint32_t step) {
  for (unsigned i = 0; i < n; i++) gnn_mem_wr(m, addr + i, v + i * step);
}

/* Fills lines [line, line + n) of buffer buf with v (whole lines), through a stride-0 LOAD of
 * a DRAM row at scratch. */
static void buf_fill(gnn_model_t *m, int buf, unsigned line, unsigned n, uint32_t v,
                     uint64_t scratch) {
  const unsigned lw = (unsigned)gnn_model_cfg(m)->lw;
  dram_seq(m, scratch, lw, v, 0);
  if (!exec_ok(m, gnn_enc_load((unsigned)buf, line, n, lw, (uint32_t)scratch, 0))) {
    printf("buf_fill: LOAD refused\n");
    exit(1);
  }
}

/* ================================================================ configuration */
static void test_cfg(void) {
  gnn_cfg_t c;
  CHECK(gnn_cfg_init(&c, 8, 3, 16, 8, 32, 16) == 0 && c.rows == 8 && c.cols == 3 && c.lw == 8 &&
            c.depth[GNN_BUF_IN] == 16 && c.depth[GNN_BUF_WT] == 8 &&
            c.depth[GNN_BUF_OUT] == 32 && c.addr_w == 16,
        "cfg 8x3");
  CHECK(gnn_cfg_init(&c, 3, 8, 1, 1, 1, 4) == 0 && c.lw == 8, "cfg 3x8 lw");
  CHECK(gnn_cfg_init(&c, 64, 64, 32768, 32768, 32768, 32) == 0 && c.lw == 64, "cfg maxima");
  CHECK(gnn_cfg_init(&c, 1, 1, 1, 1, 1, 4) == 0 && c.lw == 1, "cfg minima");
  const int bad[][6] = {{0, 1, 1, 1, 1, 4},     {65, 1, 1, 1, 1, 4}, {1, 0, 1, 1, 1, 4},
                        {1, 65, 1, 1, 1, 4},    {1, 1, 0, 1, 1, 4},  {1, 1, 32769, 1, 1, 4},
                        {1, 1, 1, 0, 1, 4},     {1, 1, 1, 32769, 1, 4}, {1, 1, 1, 1, 0, 4},
                        {1, 1, 1, 1, 32769, 4}, {1, 1, 1, 1, 1, 3},  {1, 1, 1, 1, 1, 33}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(gnn_cfg_init(&c, bad[i][0], bad[i][1], bad[i][2], bad[i][3], bad[i][4], bad[i][5]) ==
              -1,
          "cfg bad value %zu accepted", i);
  gnn_cfg_paper(&c);
  CHECK(c.rows == 64 && c.cols == 64 && c.lw == 64 && c.depth[0] == 4096 && c.depth[1] == 4096 &&
            c.depth[2] == 4096 && c.addr_w == 32,
        "paper cfg");
  /* 2 MiB per buffer: two banks of 4096 lines of 64 fp32 words */
  CHECK(2ull * c.depth[0] * c.lw * 4 == 2ull << 20, "paper buffer size");
  gnn_model_t *m = gnn_model_new(&c);
  CHECK(m != NULL && gnn_model_cfg(m)->lw == 64 && gnn_model_cfg(m)->addr_w == 32,
        "paper model");
  gnn_model_free(m);
  gnn_cfg_init(&c, 4, 2, 4, 4, 4, 8);
  c.lw = 2;
  CHECK(gnn_model_new(&c) == NULL, "model with lw != max(R, C) refused");
  c.lw = 4;
  c.depth[1] = 0;
  CHECK(gnn_model_new(&c) == NULL, "model with depth 0 refused");
  gnn_model_free(NULL);
}

/* ================================================================ encoding */
static void test_encoding(void) {
  gnn_insn_t i = gnn_enc_load(GNN_BUF_WT, 0x1234, 0xABCD, 0x56, 0x89ABCDEFu, 0x13579BDFu);
  CHECK(i.w[0] == 0x12345611u && i.w[1] == 0xCDEFABCDu && i.w[2] == 0x9BDF89ABu &&
            i.w[3] == 0x00001357u,
        "load words %08x %08x %08x %08x", (unsigned)i.w[0], (unsigned)i.w[1], (unsigned)i.w[2],
        (unsigned)i.w[3]);
  gnn_fields_t f;
  gnn_fields(&i, &f);
  CHECK(f.op == GNN_OP_LOAD && f.buf == 1 && f.w == 0x56 && f.line == 0x1234 && f.n == 0xABCD &&
            f.addr == 0x89ABCDEFu && f.stride == 0x13579BDFu,
        "load fields");
  i = gnn_enc_store(7, 9, 64, 0xFFFFFFFFu, 1);
  CHECK(i.w[0] == 0x00074022u && i.w[1] == 0xFFFF0009u && i.w[2] == 0x0001FFFFu && i.w[3] == 0,
        "store words %08x %08x %08x %08x", (unsigned)i.w[0], (unsigned)i.w[1], (unsigned)i.w[2],
        (unsigned)i.w[3]);
  gnn_fields(&i, &f);
  CHECK(f.op == GNN_OP_STORE && f.buf == GNN_BUF_OUT && f.line == 7 && f.n == 9 && f.w == 64 &&
            f.addr == 0xFFFFFFFFu && f.stride == 1,
        "store fields");
  i = gnn_enc_matmul(GNN_DF_IS, 1, 1, 0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666);
  CHECK(i.w[0] == 0x11110163u && i.w[1] == 0x33332222u && i.w[2] == 0x55554444u &&
            i.w[3] == 0x00006666u,
        "matmul words %08x %08x %08x %08x", (unsigned)i.w[0], (unsigned)i.w[1], (unsigned)i.w[2],
        (unsigned)i.w[3]);
  gnn_fields(&i, &f);
  CHECK(f.op == GNN_OP_MATMUL && f.df == 2 && f.acc == 1 && f.act == 1 && f.m == 0x1111 &&
            f.k == 0x2222 && f.nn == 0x3333 && f.in == 0x4444 && f.wt == 0x5555 &&
            f.out == 0x6666,
        "matmul fields");
  i = gnn_enc_madd(1, 7, 9, 11, 13);
  CHECK(i.w[0] == 0x00070104u && i.w[1] == 0x00090000u && i.w[2] == 11 && i.w[3] == 13,
        "madd words %08x %08x %08x %08x", (unsigned)i.w[0], (unsigned)i.w[1], (unsigned)i.w[2],
        (unsigned)i.w[3]);
  gnn_fields(&i, &f);
  CHECK(f.op == GNN_OP_MADD && f.act == 1 && f.n == 7 && f.src0 == 9 && f.src1 == 11 &&
            f.dst == 13,
        "madd fields n=%u src0=%u src1=%u dst=%u", f.n, f.src0, f.src1, f.dst);
  i = gnn_enc_act(1, 3, 5, 6);
  CHECK(i.w[0] == 0x00030105u && i.w[1] == 0x00050000u && i.w[2] == 0 && i.w[3] == 6,
        "act words");
  gnn_fields(&i, &f);
  CHECK(f.op == GNN_OP_ACT && f.act == 1 && f.n == 3 && f.src0 == 5 && f.dst == 6, "act fields");
  i = gnn_enc_copy(4, 8, 12);
  CHECK(i.w[0] == 0x00040006u && i.w[1] == 0x00080000u && i.w[2] == 12 && i.w[3] == 0,
        "copy words");
  gnn_fields(&i, &f);
  CHECK(f.op == GNN_OP_COPY && f.n == 4 && f.src0 == 8 && f.dst == 12, "copy fields dst=%u",
        f.dst);

  /* values are masked to their fields: nothing leaks into a neighbour or a reserved bit */
  i = gnn_enc_load(7, 0x1FFFF, 0x10001, 0x1FF, 0, 0);
  gnn_fields(&i, &f);
  CHECK(f.buf == 3 && f.line == 0xFFFF && f.n == 1 && f.w == 0xFF && (i.w[0] & 0xC0u) == 0 &&
            f.addr == 0,
        "load masking");
  i = gnn_enc_matmul(7, 3, 7, 0x10000, 0x10000, 0x10000, 0x10000, 0x10000, 0x10000);
  CHECK(i.w[0] == 0x00000373u && i.w[1] == 0 && i.w[2] == 0 && i.w[3] == 0,
        "matmul masking w0=%08x", (unsigned)i.w[0]);
  i = gnn_enc_madd(0xFF, 0x10002, 0x10003, 0x10004, 0x10005);
  CHECK(i.w[0] == 0x00020304u && i.w[1] == 0x00030000u && i.w[2] == 4 && i.w[3] == 5,
        "madd masking");

  /* gnn_get / gnn_set across word boundaries */
  gnn_insn_t z = {{0}};
  gnn_set(&z, 60, 8, 0xA5);
  CHECK(z.w[1] == 0x50000000u && z.w[2] == 0xAu && gnn_get(&z, 60, 8) == 0xA5, "set across w1/w2");
  gnn_set(&z, 96, 32, 0xCAFEF00Du);
  CHECK(z.w[3] == 0xCAFEF00Du && gnn_get(&z, 96, 32) == 0xCAFEF00Du, "set 32 bits at 96");
  gnn_set(&z, 48, 32, 0x12345678u);
  CHECK(z.w[1] == 0x56780000u && z.w[2] == 0x1234u && gnn_get(&z, GNN_F_ADDR) == 0x12345678u,
        "set addr across w1/w2");
  gnn_set(&z, 120, 16, 0xFFFF); /* beyond bit 127: ignored */
  CHECK(z.w[3] == 0xCAFEF00Du && gnn_get(&z, 120, 16) == 0, "out-of-range field ignored");

  /* random round trip of every field through the encoders and the field view */
  cutil_rng_t r = cutil_rng_seed(11);
  int bad = 0;
  for (int t = 0; t < 2000 && !bad; t++) {
    const uint32_t v[9] = {(uint32_t)cutil_rng_next(&r), (uint32_t)cutil_rng_next(&r),
                           (uint32_t)cutil_rng_next(&r), (uint32_t)cutil_rng_next(&r),
                           (uint32_t)cutil_rng_next(&r), (uint32_t)cutil_rng_next(&r),
                           (uint32_t)cutil_rng_next(&r), (uint32_t)cutil_rng_next(&r),
                           (uint32_t)cutil_rng_next(&r)};
    i = gnn_enc_load(v[0], v[1], v[2], v[3], v[4], v[5]);
    gnn_fields(&i, &f);
    bad |= f.op != 1 || f.buf != (v[0] & 3) || f.line != (v[1] & 0xFFFF) ||
           f.n != (v[2] & 0xFFFF) || f.w != (v[3] & 0xFF) || f.addr != v[4] || f.stride != v[5] ||
           (i.w[0] & 0xC0u) || (i.w[3] >> 16);
    i = gnn_enc_store(v[1], v[2], v[3], v[4], v[5]);
    gnn_fields(&i, &f);
    bad |= f.op != 2 || f.buf != 2 || f.line != (v[1] & 0xFFFF) || f.n != (v[2] & 0xFFFF) ||
           f.w != (v[3] & 0xFF) || f.addr != v[4] || f.stride != v[5];
    i = gnn_enc_matmul(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    gnn_fields(&i, &f);
    bad |= f.op != 3 || f.df != (v[0] & 3) || f.acc != (v[1] & 1) || f.act != (v[2] & 3) ||
           f.m != (v[3] & 0xFFFF) || f.k != (v[4] & 0xFFFF) || f.nn != (v[5] & 0xFFFF) ||
           f.in != (v[6] & 0xFFFF) || f.wt != (v[7] & 0xFFFF) || f.out != (v[8] & 0xFFFF) ||
           (i.w[0] & 0xFC80u) || (i.w[3] >> 16);
    i = gnn_enc_madd(v[0], v[1], v[2], v[3], v[4]);
    gnn_fields(&i, &f);
    bad |= f.op != 4 || f.act != (v[0] & 3) || f.n != (v[1] & 0xFFFF) ||
           f.src0 != (v[2] & 0xFFFF) || f.src1 != (v[3] & 0xFFFF) || f.dst != (v[4] & 0xFFFF);
    i = gnn_enc_act(v[0], v[1], v[2], v[3]);
    gnn_fields(&i, &f);
    bad |= f.op != 5 || f.act != (v[0] & 3) || f.n != (v[1] & 0xFFFF) ||
           f.src0 != (v[2] & 0xFFFF) || f.dst != (v[3] & 0xFFFF);
    i = gnn_enc_copy(v[1], v[2], v[3]);
    gnn_fields(&i, &f);
    bad |= f.op != 6 || f.n != (v[1] & 0xFFFF) || f.src0 != (v[2] & 0xFFFF) ||
           f.dst != (v[3] & 0xFFFF);
    if (bad) printf("round trip failed at draw %d\n", t);
  }
  CHECK(!bad, "random encode/decode round trip of every field");

  /* names */
  static const char *const errs[] = {"OK", "OPCODE", "FIELD", "SIZE", "WIDTH", "RANGE",
                                     "OVERLAP"};
  for (int c = 0; c < 7; c++)
    CHECK(!strcmp(gnn_err_name(c), errs[c]), "err name %d: %s", c, gnn_err_name(c));
  CHECK(!strcmp(gnn_err_name(7), "?") && !strcmp(gnn_err_name(-1), "?"), "unknown err name");
  static const char *const ops[] = {"?", "LOAD", "STORE", "MATMUL", "MADD", "ACT", "COPY"};
  for (unsigned c = 0; c < 7; c++)
    CHECK(!strcmp(gnn_op_name(c), ops[c]), "op name %u: %s", c, gnn_op_name(c));
  CHECK(!strcmp(gnn_op_name(7), "?") && !strcmp(gnn_op_name(15), "?"), "unknown op name");
}

/* ================================================================ errors */
#define EXPECT(cfgp, insn, code)                                                            \
  do {                                                                                      \
    const gnn_insn_t in_ = (insn);                                                          \
    const int got_ = gnn_check(cfgp, &in_);                                                 \
    CHECK(got_ == (code), "%s: got %s, want %s", #insn, gnn_err_name(got_),                 \
          gnn_err_name(code));                                                              \
  } while (0)

static gnn_insn_t with_bit(gnn_insn_t i, int bit) {
  i.w[bit / 32] |= 1u << (bit % 32);
  return i;
}

/* the bits each opcode uses, from the field table (inclusive ranges), written out by hand */
typedef struct { int lo, hi; } bits_t;
static int bit_used(const bits_t *u, int b) {
  for (; u->hi >= 0; u++)
    if (b >= u->lo && b <= u->hi) return 1;
  return 0;
}

static void test_reserved_bits(const gnn_cfg_t *c) {
  static const bits_t u_ldst[] = {{0, 5}, {8, 111}, {-1, -1}};
  static const bits_t u_mm[] = {{0, 6}, {8, 9}, {16, 111}, {-1, -1}};
  static const bits_t u_madd[] = {{0, 3}, {8, 9}, {16, 31}, {48, 79}, {96, 111}, {-1, -1}};
  static const bits_t u_act[] = {{0, 3}, {8, 9}, {16, 31}, {48, 63}, {96, 111}, {-1, -1}};
  static const bits_t u_copy[] = {{0, 3}, {16, 31}, {48, 79}, {-1, -1}};
  const struct {
    const char *name;
    gnn_insn_t base;
    const bits_t *used;
    int also_field; /* a used bit that makes a bad field value (buf 3, act 2) */
  } t[] = {
      {"LOAD", gnn_enc_load(GNN_BUF_IN, 0, 1, 1, 0, 0), u_ldst, -1},
      {"STORE", gnn_enc_store(0, 1, 1, 0, 0), u_ldst, 4},
      {"MATMUL", gnn_enc_matmul(GNN_DF_OS, 0, 0, 1, 1, 1, 0, 0, 0), u_mm, 9},
      {"MADD", gnn_enc_madd(0, 1, 0, 0, 0), u_madd, 9},
      {"ACT", gnn_enc_act(0, 1, 0, 0), u_act, 9},
      {"COPY", gnn_enc_copy(1, 0, 0), u_copy, -1},
  };
  for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
    CHECK(gnn_check(c, &t[k].base) == GNN_OK, "%s base instruction valid", t[k].name);
    int wrong = 0, nres = 0;
    for (int b = 4; b < 128; b++) { /* bits 0-3 are the opcode */
      const gnn_insn_t x = with_bit(t[k].base, b);
      const int want_field = !bit_used(t[k].used, b) || b == t[k].also_field;
      const int got = gnn_check(c, &x);
      nres += !bit_used(t[k].used, b);
      if (want_field != (got == GNN_E_FIELD)) {
        if (wrong++ < 4) printf("  %s bit %d: %s\n", t[k].name, b, gnn_err_name(got));
      }
    }
    CHECK(wrong == 0, "%s: reserved bits give FIELD, used bits do not (%d wrong)", t[k].name,
          wrong);
    /* reserved bits counted from the table: LOAD/STORE 18, MATMUL 23, MADD 58, ACT 74, COPY 76 */
    static const int want_res[] = {18, 18, 23, 58, 74, 76};
    CHECK(nres == want_res[k], "%s: %d reserved bits", t[k].name, nres);
  }
}

static void test_errors(void) {
  gnn_cfg_t c;
  gnn_cfg_init(&c, 8, 3, 16, 8, 32, 16); /* LW 8 */
  const gnn_cfg_t *C = &c;

  /* 1 OPCODE, before everything */
  gnn_insn_t z = {{0}};
  EXPECT(C, z, GNN_E_OPCODE);
  for (unsigned op = 7; op < 16; op++) {
    gnn_insn_t x = gnn_enc_copy(1, 0, 0);
    gnn_set(&x, GNN_F_OP, op);
    CHECK(gnn_check(C, &x) == GNN_E_OPCODE, "op %u", op);
  }
  z.w[3] = 0xFFFFFFFFu; /* op 0 with reserved bits */
  EXPECT(C, z, GNN_E_OPCODE);

  /* 2 FIELD */
  test_reserved_bits(C);
  EXPECT(C, gnn_enc_load(3, 0, 1, 1, 0, 0), GNN_E_FIELD);
  for (unsigned b = 0; b < 4; b++) {
    gnn_insn_t x = gnn_enc_store(0, 1, 1, 0, 0);
    gnn_set(&x, GNN_F_BUF, b);
    CHECK(gnn_check(C, &x) == (b == GNN_BUF_OUT ? GNN_OK : GNN_E_FIELD), "STORE buf %u", b);
  }
  EXPECT(C, gnn_enc_matmul(3, 0, 0, 1, 1, 1, 0, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_matmul(0, 0, 2, 1, 1, 1, 0, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_matmul(0, 0, 3, 1, 1, 1, 0, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_madd(2, 1, 0, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_madd(3, 1, 0, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_act(2, 1, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_act(3, 1, 0, 0), GNN_E_FIELD);
  EXPECT(C, gnn_enc_matmul(1, 1, 1, 1, 1, 1, 0, 0, 0), GNN_OK);
  /* FIELD before SIZE, WIDTH, RANGE */
  EXPECT(C, gnn_enc_matmul(3, 0, 0, 0, 0, 0, 0xFFFF, 0xFFFF, 0xFFFF), GNN_E_FIELD);
  EXPECT(C, gnn_enc_load(3, 0xFFFF, 0, 0, 0xFFFFFFFFu, 0), GNN_E_FIELD);
  EXPECT(C, with_bit(gnn_enc_copy(0, 0, 0), 127), GNN_E_FIELD);
  EXPECT(C, gnn_enc_act(2, 2, 0, 1), GNN_E_FIELD); /* also overlapping */

  /* 3 SIZE */
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 0, 1, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 0, 0, 0xFFFFFFFFu, 0), GNN_E_SIZE); /* and w, range */
  EXPECT(C, gnn_enc_store(0, 0, 1, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_madd(0, 0, 0, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_act(0, 0, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_copy(0, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_matmul(0, 0, 0, 0, 1, 1, 0, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_matmul(1, 0, 0, 1, 0, 1, 0, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_matmul(2, 0, 0, 1, 1, 0, 0, 0, 0), GNN_E_SIZE);
  EXPECT(C, gnn_enc_matmul(0, 0, 0, 1, 0, 1, 0xFFFF, 0xFFFF, 0xFFFF), GNN_E_SIZE);

  /* 4 WIDTH */
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 0, 0, 0), GNN_E_WIDTH);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 9, 0, 0), GNN_E_WIDTH);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_store(0, 1, 9, 0, 0), GNN_E_WIDTH);
  EXPECT(C, gnn_enc_store(0, 1, 255, 0, 0), GNN_E_WIDTH);
  /* a LOAD with a bad width and a bad range (buffer and DRAM) reports WIDTH */
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 40, 2, 9, 0xFFFF, 1), GNN_E_WIDTH);

  /* 5 RANGE: buffer ranges must stay inside one bank (IN depth 16, WT 8, OUT 32) */
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 16, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 17, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 15, 2, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 15, 1, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 16, 16, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 17, 16, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 31, 1, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 32, 1, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0xFFFF, 0xFFFF, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_WT, 8, 8, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_WT, 7, 2, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_WT, 16, 1, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_OUT, 32, 32, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_OUT, 31, 2, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_OUT, 64, 1, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_store(32, 32, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_store(31, 2, 8, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_store(63, 1, 8, 0, 0), GNN_OK);
  EXPECT(C, gnn_enc_store(64, 1, 8, 0, 0), GNN_E_RANGE);
  /* MADD: src0 (OUT), src1 (IN), dst (OUT) */
  EXPECT(C, gnn_enc_madd(0, 2, 30, 14, 0), GNN_OK);
  EXPECT(C, gnn_enc_madd(0, 2, 31, 14, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_madd(0, 2, 30, 15, 0), GNN_E_RANGE); /* IN depth 16 */
  EXPECT(C, gnn_enc_madd(0, 2, 30, 14, 31), GNN_E_RANGE);
  EXPECT(C, gnn_enc_madd(0, 2, 0, 30, 0), GNN_OK);       /* IN bank 1 */
  /* RANGE before OVERLAP: dst 31..32 crosses the bank and overlaps src0 30..31 */
  EXPECT(C, gnn_enc_madd(0, 2, 30, 0, 31), GNN_E_RANGE);
  EXPECT(C, gnn_enc_act(0, 2, 30, 31), GNN_E_RANGE);
  EXPECT(C, gnn_enc_act(0, 2, 63, 0), GNN_E_RANGE);
  /* COPY: src0 in OUT (depth 32), dst in IN (depth 16) */
  EXPECT(C, gnn_enc_copy(16, 0, 16), GNN_OK);
  EXPECT(C, gnn_enc_copy(17, 0, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_copy(2, 31, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_copy(2, 0, 15), GNN_E_RANGE);
  EXPECT(C, gnn_enc_copy(2, 20, 20), GNN_OK);

  /* DRAM last word addr + (n-1)*stride + w - 1 < 2^16 */
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 1, 0xFFFF, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 2, 0xFFFF, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 8, 0xFFF8, 0), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 1, 8, 0xFFF9, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 2, 8, 0xFFF0, 8), GNN_OK);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 2, 8, 0xFFF0, 9), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 16, 1, 0xFFFF, 0), GNN_OK); /* stride 0 */
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 16, 1, 0x10000, 0), GNN_E_RANGE);
  EXPECT(C, gnn_enc_load(GNN_BUF_IN, 0, 2, 1, 0, 0xFFFFFFFFu), GNN_E_RANGE);
  EXPECT(C, gnn_enc_store(0, 16, 8, 0xFF08, 16), GNN_OK); /* last = 0xFF08 + 15*16 + 7 */
  EXPECT(C, gnn_enc_store(0, 16, 8, 0xFF09, 16), GNN_E_RANGE);
  {
    gnn_cfg_t c32;
    gnn_cfg_init(&c32, 8, 3, 16, 8, 32, 32);
    EXPECT(&c32, gnn_enc_load(GNN_BUF_IN, 0, 1, 1, 0xFFFFFFFFu, 0), GNN_OK);
    EXPECT(&c32, gnn_enc_load(GNN_BUF_IN, 0, 1, 2, 0xFFFFFFFFu, 0), GNN_E_RANGE); /* no wrap */
    EXPECT(&c32, gnn_enc_load(GNN_BUF_IN, 0, 2, 1, 0x7FFFFFFFu, 0x80000000u), GNN_OK);
    EXPECT(&c32, gnn_enc_load(GNN_BUF_IN, 0, 3, 1, 0x7FFFFFFFu, 0x80000000u), GNN_E_RANGE);
    EXPECT(&c32, gnn_enc_store(0, 16, 8, 0, 0xFFFFFFFFu), GNN_E_RANGE);
  }

  /* 6 OVERLAP: MADD/ACT dst range overlapping src0 range, dst != src0 */
  EXPECT(C, gnn_enc_madd(0, 4, 4, 0, 4), GNN_OK); /* in place */
  EXPECT(C, gnn_enc_madd(0, 4, 4, 0, 5), GNN_E_OVERLAP);
  EXPECT(C, gnn_enc_madd(0, 4, 4, 0, 1), GNN_E_OVERLAP);
  EXPECT(C, gnn_enc_madd(0, 4, 4, 0, 7), GNN_E_OVERLAP);
  EXPECT(C, gnn_enc_madd(0, 4, 4, 0, 0), GNN_OK); /* adjacent */
  EXPECT(C, gnn_enc_madd(0, 4, 4, 0, 8), GNN_OK);
  EXPECT(C, gnn_enc_madd(0, 4, 4, 4, 8), GNN_OK); /* src1 is in IN: no overlap with OUT */
  EXPECT(C, gnn_enc_act(1, 4, 4, 4), GNN_OK);
  EXPECT(C, gnn_enc_act(1, 4, 4, 6), GNN_E_OVERLAP);
  EXPECT(C, gnn_enc_act(1, 4, 6, 4), GNN_E_OVERLAP);
  EXPECT(C, gnn_enc_act(1, 4, 4, 8), GNN_OK);
  EXPECT(C, gnn_enc_copy(4, 4, 5), GNN_OK); /* COPY: two buffers, never OVERLAP */
}

/* The MATMUL "Lines used" table and its RANGE checks at the exact fit. */
static void test_matmul_lines(void) {
  gnn_cfg_t c;
  gnn_cfg_init(&c, 8, 3, 16, 16, 16, 16);
  /* R 8, C 3, M 37, K 5, N 41: KB 1, KBR 8, MBR 5, MBC 13, NBC 14 (by hand) */
  static const unsigned want[3][3] = {{25, 70, 205}, {37, 112, 518}, {104, 41, 533}};
  for (unsigned df = 0; df < 3; df++) {
    unsigned l[3];
    gnn_matmul_lines(&c, df, 37, 5, 41, &l[0], &l[1], &l[2]);
    CHECK(l[0] == want[df][0] && l[1] == want[df][1] && l[2] == want[df][2],
          "df %u lines %u %u %u", df, l[0], l[1], l[2]);
    /* a configuration whose banks hold exactly those lines */
    gnn_cfg_t e;
    gnn_cfg_init(&e, 8, 3, (int)l[0], (int)l[1], (int)l[2], 16);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, 0, 0, 0), GNN_OK);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, l[0], l[1], l[2]), GNN_OK);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, 1, 0, 0), GNN_E_RANGE);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, 0, 1, 0), GNN_E_RANGE);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, 0, 0, 1), GNN_E_RANGE);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, l[0] + 1, 0, 0), GNN_E_RANGE);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, 0, l[1] + 1, 0), GNN_E_RANGE);
    EXPECT(&e, gnn_enc_matmul(df, 0, 0, 37, 5, 41, 0, 0, l[2] + 1), GNN_E_RANGE);
  }
  /* 1x1x1 uses one line of each buffer in every dataflow except WS weights: KBR = R lines */
  for (unsigned df = 0; df < 3; df++) {
    unsigned l[3];
    gnn_matmul_lines(&c, df, 1, 1, 1, &l[0], &l[1], &l[2]);
    const unsigned wt = df == GNN_DF_WS ? 8 : 1, in = df == GNN_DF_IS ? 8 : 1;
    CHECK(l[0] == in && l[1] == wt && l[2] == 1, "df %u 1x1x1 lines %u %u %u", df, l[0], l[1],
          l[2]);
  }
  /* NBC * KBR above 2^32 (R 63, C 1, K = N = 65535): saturated */
  gnn_cfg_init(&c, 63, 1, 16, 16, 16, 16);
  unsigned l[3];
  gnn_matmul_lines(&c, GNN_DF_WS, 1, 65535, 65535, &l[0], &l[1], &l[2]);
  CHECK(l[0] == 1041 && l[1] == 0xFFFFFFFFu && l[2] == 65535, "saturated lines %u %u %u", l[0],
        l[1], l[2]);
  EXPECT(&c, gnn_enc_matmul(GNN_DF_WS, 0, 0, 1, 65535, 65535, 0, 0, 0), GNN_E_RANGE);
}

/* ================================================================ use */
static void test_use(void) {
  gnn_cfg_t c;
  gnn_cfg_init(&c, 8, 3, 16, 8, 32, 16);
  gnn_use_t u;
  gnn_insn_t i = gnn_enc_load(GNN_BUF_WT, 9, 3, 5, 100, 10);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 0 && u.banks == 0x08 && u.dram_lo == 100 && u.dram_hi == 125,
        "load use unit %d banks %#x [%llu, %llu)", u.unit, u.banks, (ull)u.dram_lo,
        (ull)u.dram_hi);
  i = gnn_enc_load(GNN_BUF_IN, 0, 1, 8, 0, 0);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 0 && u.banks == 0x01 && u.dram_lo == 0 && u.dram_hi == 8, "load IN bank 0");
  i = gnn_enc_load(GNN_BUF_OUT, 31, 1, 1, 0xFFFF, 0);
  gnn_use(&c, &i, &u);
  CHECK(u.banks == 0x10 && u.dram_lo == 0xFFFF && u.dram_hi == 0x10000, "load OUT bank 0");
  i = gnn_enc_store(33, 2, 8, 0x200, 0);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 1 && u.banks == 0x20 && u.dram_lo == 0x200 && u.dram_hi == 0x208,
        "store use unit %d banks %#x [%llu, %llu)", u.unit, u.banks, (ull)u.dram_lo,
        (ull)u.dram_hi);
  i = gnn_enc_matmul(GNN_DF_OS, 0, 0, 8, 2, 3, 16, 0, 32); /* IN 2, WT 2, OUT 3 lines */
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 2 && u.banks == 0x26 && u.dram_lo == 0 && u.dram_hi == 0, "matmul banks %#x",
        u.banks);
  i = gnn_enc_matmul(GNN_DF_WS, 1, 0, 4, 9, 3, 0, 8, 0); /* IN 8, WT 16 (KBR) -> bad */
  gnn_use(&c, &i, &u);
  CHECK(gnn_check(&c, &i) == GNN_E_RANGE && u.unit == 2 && u.banks == 0,
        "invalid matmul uses nothing");
  i = gnn_enc_madd(0, 2, 0, 20, 40);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 2 && u.banks == 0x32, "madd banks %#x", u.banks);
  i = gnn_enc_act(1, 1, 33, 33);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 2 && u.banks == 0x20, "act banks %#x", u.banks);
  i = gnn_enc_copy(1, 1, 17);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 2 && u.banks == 0x12, "copy banks %#x", u.banks);
  i = gnn_enc_load(GNN_BUF_IN, 0, 1, 9, 0, 0); /* WIDTH */
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 0 && u.banks == 0 && u.dram_lo == 0 && u.dram_hi == 0, "invalid load");
  gnn_insn_t z = {{0}};
  gnn_use(&c, &z, &u);
  CHECK(u.unit == 2 && u.banks == 0, "bad opcode");
}

/* ================================================================ LOAD / STORE */
static void test_load_store(void) {
  gnn_model_t *m = new_model(8, 3, 16, 8, 32, 16); /* LW 8 */
  CHECK(gnn_mem_rd(m, 0x1234) == 0 && gnn_mem_rd(m, 0x10000) == 0, "unwritten DRAM reads 0");
  gnn_mem_wr(m, 0x10000, 5); /* beyond 2^16: ignored */
  CHECK(gnn_mem_rd(m, 0x10000) == 0 && gnn_buf_rd(m, GNN_BUF_IN, 32, 0) == 0 &&
            gnn_buf_rd(m, GNN_BUF_IN, 0, 8) == 0 && gnn_buf_rd(m, 3, 0, 0) == 0,
        "out-of-range accesses");
  CHECK(gnn_buf_rd(m, GNN_BUF_OUT, 63, 7) == 0, "buffers zeroed at new");
  dram_seq(m, 0x100, 64, 0xA0000000u, 1);
  dram_seq(m, 0x200, 64, 0xB0000000u, 1);

  /* zero fill of words w..LW-1 over a line that held other data */
  buf_fill(m, GNN_BUF_IN, 2, 1, SENT, 0xF000);
  CHECK(exec_ok(m, gnn_enc_load(GNN_BUF_IN, 2, 1, 3, 0x200, 0)), "load w 3");
  int ok = 1;
  for (unsigned j = 0; j < 8; j++)
    ok &= gnn_buf_rd(m, GNN_BUF_IN, 2, j) == (j < 3 ? 0xB0000000u + j : 0u);
  CHECK(ok, "LOAD zero-fills words w..LW-1");

  /* strided rows into WT bank 1 */
  CHECK(exec_ok(m, gnn_enc_load(GNN_BUF_WT, 9, 3, 8, 0x100, 10)), "load stride 10");
  ok = 1;
  for (unsigned i = 0; i < 3; i++)
    for (unsigned j = 0; j < 8; j++)
      ok &= gnn_buf_rd(m, GNN_BUF_WT, 9 + i, j) == 0xA0000000u + i * 10 + j;
  CHECK(ok && gnn_buf_rd(m, GNN_BUF_WT, 8, 0) == 0 && gnn_buf_rd(m, GNN_BUF_WT, 12, 0) == 0,
        "LOAD stride: rows addr + i*stride, nothing else written");

  /* stride 0: one row broadcast (a bias row into OUT) */
  buf_fill(m, GNN_BUF_OUT, 4, 5, SENT, 0xF000);
  CHECK(exec_ok(m, gnn_enc_load(GNN_BUF_OUT, 4, 5, 6, 0x200, 0)), "load stride 0");
  ok = 1;
  for (unsigned i = 0; i < 5; i++)
    for (unsigned j = 0; j < 8; j++)
      ok &= gnn_buf_rd(m, GNN_BUF_OUT, 4 + i, j) == (j < 6 ? 0xB0000000u + j : 0u);
  CHECK(ok, "LOAD stride 0 broadcasts one row, zero-filled");

  /* STORE: DRAM[addr + i*stride + j] = OUT[line+i][j], one beat a line */
  CHECK(exec_ok(m, gnn_enc_load(GNN_BUF_OUT, 40, 3, 8, 0x100, 8)), "load OUT 40..42");
  gnn_mem_wr(m, 0x1005, 0x5E5E5E5Eu);
  CHECK(exec_ok(m, gnn_enc_store(40, 3, 5, 0x1000, 7)), "store");
  ok = 1;
  for (unsigned i = 0; i < 3; i++)
    for (unsigned j = 0; j < 5; j++)
      ok &= gnn_mem_rd(m, 0x1000 + i * 7 + j) == 0xA0000000u + i * 8 + j;
  CHECK(ok, "STORE data in DRAM");
  CHECK(gnn_mem_rd(m, 0x1005) == 0x5E5E5E5Eu && gnn_mem_rd(m, 0x1006) == 0 &&
            gnn_mem_rd(m, 0x1013) == 0,
        "STORE writes only w words a line");
  gnn_beat_t beats[8];
  size_t nb = gnn_model_take_beats(m, beats, 8);
  ok = nb == 3;
  for (unsigned i = 0; ok && i < 3; i++) {
    ok &= beats[i].addr == 0x1000u + i * 7 && beats[i].words == 5;
    for (unsigned j = 0; j < 5; j++) ok &= beats[i].data[j] == 0xA0000000u + i * 8 + j;
  }
  CHECK(ok, "STORE beats: %zu, addr + i*stride, w words, the line's data", nb);
  CHECK(gnn_model_take_beats(m, beats, 8) == 0, "log drained");

  /* STORE stride 0: the lines in order, the last one stays */
  CHECK(exec_ok(m, gnn_enc_store(40, 3, 8, 0x2000, 0)), "store stride 0");
  ok = 1;
  for (unsigned j = 0; j < 8; j++) ok &= gnn_mem_rd(m, 0x2000 + j) == 0xA0000000u + 16 + j;
  CHECK(ok, "STORE stride 0: the last line wins");
  nb = gnn_model_take_beats(m, beats, 8);
  CHECK(nb == 3 && beats[0].addr == 0x2000 && beats[2].addr == 0x2000 &&
            beats[0].data[0] == 0xA0000000u && beats[2].data[0] == 0xA0000010u,
        "stride-0 beats in order");

  /* the log grows and drains in order, a few at a time */
  CHECK(exec_ok(m, gnn_enc_load(GNN_BUF_OUT, 0, 32, 8, 0x100, 1)), "load OUT 0..31");
  for (unsigned r = 0; r < 5; r++)
    CHECK(exec_ok(m, gnn_enc_store(0, 32, 8, 0x3000 + r * 0x400, 8)), "store %u", r);
  CHECK(gnn_model_take_beats(m, NULL, 0) == 0 && gnn_model_take_beats(m, beats, 0) == 0,
        "take 0");
  size_t total = 0;
  ok = 1;
  for (;;) {
    const size_t k = gnn_model_take_beats(m, beats, 7);
    if (k == 0) break;
    ok &= k <= 7;
    for (size_t q = 0; q < k; q++, total++) {
      const unsigned r = (unsigned)(total / 32), line = (unsigned)(total % 32);
      ok &= beats[q].addr == 0x3000u + r * 0x400 + line * 8 && beats[q].words == 8 &&
            beats[q].data[0] == 0xA0000000u + line;
    }
    /* a STORE in the middle of draining appends after the pending beats */
    if (total == 70) CHECK(exec_ok(m, gnn_enc_store(0, 32, 8, 0x3000 + 5 * 0x400, 8)), "store 5");
  }
  CHECK(ok && total == 6 * 32, "beats drained 7 at a time in order (%zu)", total);

  /* an error changes nothing and logs nothing */
  CHECK(gnn_model_exec(m, &(gnn_insn_t){{0}}) == GNN_E_OPCODE, "op 0");
  gnn_insn_t bad = gnn_enc_store(31, 2, 8, 0x5000, 8);
  CHECK(gnn_model_exec(m, &bad) == GNN_E_RANGE && gnn_mem_rd(m, 0x5000) == 0 &&
            gnn_model_take_beats(m, beats, 8) == 0,
        "STORE with an error writes nothing");
  bad = gnn_enc_load(GNN_BUF_IN, 2, 1, 9, 0x100, 0);
  CHECK(gnn_model_exec(m, &bad) == GNN_E_WIDTH && gnn_buf_rd(m, GNN_BUF_IN, 2, 0) == 0xB0000000u,
        "LOAD with an error writes nothing");
  gnn_model_free(m);

  /* a 2^32-word DRAM: sparse, the last word usable */
  m = new_model(4, 4, 4, 4, 4, 32);
  dram_seq(m, 0xFFFFFFFCu, 4, 0x11, 0x11);
  CHECK(gnn_mem_rd(m, 0xFFFFFFFFu) == 0x44 && gnn_mem_rd(m, 0x80000000u) == 0 &&
            gnn_mem_rd(m, 0x100000000ull) == 0,
        "32-bit DRAM ends");
  CHECK(exec_ok(m, gnn_enc_load(GNN_BUF_OUT, 1, 1, 4, 0xFFFFFFFCu, 0)) &&
            exec_ok(m, gnn_enc_store(1, 1, 4, 0x7FFFFFFEu, 0)),
        "load/store at the top of a 32-bit DRAM");
  CHECK(gnn_mem_rd(m, 0x7FFFFFFEu) == 0x11 && gnn_mem_rd(m, 0x80000001u) == 0x44,
        "store across a page boundary");
  gnn_model_free(m);
}

/* ================================================================ COPY, MADD, ACT, arithmetic */
/* OUT/IN line values for the vector tests (LW 4) */
static void put_line(gnn_model_t *m, int buf, unsigned line, const uint32_t v[4]) {
  for (unsigned j = 0; j < 4; j++) gnn_mem_wr(m, 0xE00 + j, v[j]);
  if (!exec_ok(m, gnn_enc_load((unsigned)buf, line, 1, 4, 0xE00, 0))) {
    printf("put_line: LOAD refused\n");
    exit(1);
  }
}
static int line_is(gnn_model_t *m, int buf, unsigned line, const uint32_t v[4]) {
  int ok = 1;
  for (unsigned j = 0; j < 4; j++) {
    const uint32_t g = gnn_buf_rd(m, buf, line, j);
    if (g != v[j]) {
      printf("  buf %d line %u word %u: 0x%08x, want 0x%08x\n", buf, line, j, (unsigned)g,
             (unsigned)v[j]);
      ok = 0;
    }
  }
  return ok;
}

static void test_vector_ops(void) {
  gnn_model_t *m = new_model(4, 4, 8, 8, 8, 12); /* LW 4 */
  const uint32_t a0[4] = {F_1_5, NZERO, PZERO, F_INF};
  const uint32_t b0[4] = {F_2_25, NZERO, NZERO, F_NINF};
  const uint32_t a1[4] = {0x7F800001u, F_1, 0x00000001u, F_1};
  const uint32_t b1[4] = {F_1, F_2PM24, 0x00000001u, 0xFFC12345u};
  const uint32_t a2[4] = {F_M1, NZERO, F_1, 0x80000001u};
  const uint32_t b2[4] = {F_M2, NZERO, F_2, PZERO};
  put_line(m, GNN_BUF_OUT, 0, a0);
  put_line(m, GNN_BUF_OUT, 1, a1);
  put_line(m, GNN_BUF_OUT, 2, a2);
  put_line(m, GNN_BUF_IN, 8, b0);
  put_line(m, GNN_BUF_IN, 9, b1);
  put_line(m, GNN_BUF_IN, 10, b2);

  /* COPY: whole lines, bits unchanged (signaling NaN payload and -0 kept) */
  CHECK(exec_ok(m, gnn_enc_copy(3, 0, 4)), "copy");
  CHECK(line_is(m, GNN_BUF_IN, 4, a0) && line_is(m, GNN_BUF_IN, 5, a1) &&
            line_is(m, GNN_BUF_IN, 6, a2) && line_is(m, GNN_BUF_OUT, 1, a1),
        "COPY OUT -> IN bits unchanged");

  /* MADD, no activation: fp32 add RNE, canonical NaN, subnormals kept */
  CHECK(exec_ok(m, gnn_enc_madd(0, 3, 0, 8, 12)), "madd");
  const uint32_t s0[4] = {F_3_75, NZERO, PZERO, QNAN};        /* -0 + -0 = -0, +0 + -0 = +0 */
  const uint32_t s1[4] = {QNAN, F_1, 0x00000002u, QNAN};       /* sNaN, 1 + 2^-24 tie, NaN */
  const uint32_t s2[4] = {0xC0400000u, NZERO, F_3, 0x80000001u}; /* -3, -0, 3, -2^-149 */
  CHECK(line_is(m, GNN_BUF_OUT, 12, s0) && line_is(m, GNN_BUF_OUT, 13, s1) &&
            line_is(m, GNN_BUF_OUT, 14, s2),
        "MADD sums");
  /* MADD with ReLU */
  CHECK(exec_ok(m, gnn_enc_madd(1, 3, 0, 8, 8)), "madd relu");
  const uint32_t r0[4] = {F_3_75, PZERO, PZERO, QNAN};
  const uint32_t r1[4] = {QNAN, F_1, 0x00000002u, QNAN};
  const uint32_t r2[4] = {PZERO, PZERO, F_3, PZERO};
  CHECK(line_is(m, GNN_BUF_OUT, 8, r0) && line_is(m, GNN_BUF_OUT, 9, r1) &&
            line_is(m, GNN_BUF_OUT, 10, r2),
        "MADD + ReLU");
  /* MADD in place (dst == src0) */
  CHECK(exec_ok(m, gnn_enc_madd(0, 3, 12, 8, 12)), "madd in place");
  const uint32_t p0[4] = {0x40C00000u, NZERO, PZERO, QNAN}; /* 3.75 + 2.25 = 6 */
  const uint32_t p1[4] = {QNAN, F_1, 0x00000003u, QNAN};
  const uint32_t p2[4] = {0xC0A00000u, NZERO, 0x40A00000u, 0x80000001u}; /* -5, -0, 5 */
  CHECK(line_is(m, GNN_BUF_OUT, 12, p0) && line_is(m, GNN_BUF_OUT, 13, p1) &&
            line_is(m, GNN_BUF_OUT, 14, p2),
        "MADD in place");
  /* overlapping dst refused, nothing changes */
  const gnn_insn_t ov = gnn_enc_madd(0, 3, 12, 8, 13);
  CHECK(gnn_model_exec(m, &ov) == GNN_E_OVERLAP && line_is(m, GNN_BUF_OUT, 13, p1) &&
            line_is(m, GNN_BUF_OUT, 14, p2),
        "MADD overlap refused");

  /* ACT: ReLU on the special values */
  const uint32_t x0[4] = {NZERO, 0xFFC12345u, 0x7F800001u, 0x80000001u};
  const uint32_t x1[4] = {F_NINF, F_INF, 0x00000001u, F_M1};
  const uint32_t y0[4] = {PZERO, QNAN, QNAN, PZERO};
  const uint32_t y1[4] = {PZERO, F_INF, 0x00000001u, PZERO};
  put_line(m, GNN_BUF_OUT, 3, x0);
  put_line(m, GNN_BUF_OUT, 4, x1);
  CHECK(exec_ok(m, gnn_enc_act(0, 2, 3, 6)), "act none");
  CHECK(line_is(m, GNN_BUF_OUT, 6, x0) && line_is(m, GNN_BUF_OUT, 7, x1),
        "ACT none: bits unchanged (NaN payloads kept)");
  CHECK(exec_ok(m, gnn_enc_act(1, 2, 3, 3)), "act relu in place");
  CHECK(line_is(m, GNN_BUF_OUT, 3, y0) && line_is(m, GNN_BUF_OUT, 4, y1),
        "ACT ReLU in place: -0, NaN (non-canonical -> canonical), negative subnormal, -inf");
  const gnn_insn_t ov2 = gnn_enc_act(1, 2, 5, 6);
  CHECK(gnn_model_exec(m, &ov2) == GNN_E_OVERLAP && line_is(m, GNN_BUF_OUT, 6, x0) &&
            line_is(m, GNN_BUF_OUT, 7, x1),
        "ACT overlap refused");
  CHECK(exec_ok(m, gnn_enc_act(1, 2, 6, 0)) && line_is(m, GNN_BUF_OUT, 0, y0) &&
            line_is(m, GNN_BUF_OUT, 1, y1),
        "ACT ReLU to another range");
  gnn_model_free(m);

  /* gnn_act, gnn_fma, gnn_add on hand-computed bit patterns */
  CHECK(gnn_act(GNN_ACT_NONE, 0xFFC12345u) == 0xFFC12345u && gnn_act(1, 0xFFC12345u) == QNAN &&
            gnn_act(1, 0x7F800001u) == QNAN && gnn_act(1, NZERO) == PZERO &&
            gnn_act(1, 0x80000001u) == PZERO && gnn_act(1, F_NINF) == PZERO &&
            gnn_act(1, F_INF) == F_INF && gnn_act(1, 0x00000001u) == 0x00000001u &&
            gnn_act(1, F_1_5) == F_1_5,
        "gnn_act");
  CHECK(gnn_fma(F_INF, PZERO, F_1) == QNAN && gnn_fma(PZERO, F_INF, 0x7FC12345u) == QNAN,
        "inf * 0 -> canonical NaN");
  CHECK(gnn_fma(F_1, F_1, 0xFFC12345u) == QNAN && gnn_fma(0x7F800001u, F_1, F_1) == QNAN,
        "NaN operands -> canonical NaN");
  CHECK(gnn_fma(F_2PM75, F_1_5PM75, NZERO) == 0x00000001u, "1.5 * 2^-150 -> 2^-149");
  CHECK(gnn_fma(F_2PM75, F_2PM75, NZERO) == PZERO, "2^-150 ties to +0");
  CHECK(gnn_fma(F_2PM75 | NZERO, F_2PM75, NZERO) == NZERO, "-2^-150 ties to -0");
  CHECK(gnn_fma(0x00000003u, F_HALF, NZERO) == 0x00000002u, "subnormal * 0.5: tie to even");
  CHECK(gnn_fma(PZERO, F_1, NZERO) == PZERO && gnn_fma(F_M1, PZERO, NZERO) == NZERO,
        "-0 is the identity of the chain");
  CHECK(gnn_fma(F_1P12, F_1P12, NZERO) == 0x3F801000u, "(1 + 2^-12)^2 rounded: tie to even");
  CHECK(gnn_fma(F_1P12, F_1P12, F_M1) == 0x3A000400u, "fused: 2^-11 + 2^-24 exact");
  CHECK(gnn_add(0x3F801000u, F_M1) == 0x3A000000u, "add of the rounded product");
  CHECK(gnn_fma(F_MAX, F_2, NZERO) == F_INF, "overflow to inf");
  CHECK(gnn_fma(F_MAX, F_M2, F_INF) == F_INF, "exact product: inf + finite = inf");
  CHECK(gnn_add(F_1, F_2PM24) == F_1 && gnn_add(0x3F800001u, F_2PM24) == 0x3F800002u,
        "add ties to even");
  CHECK(gnn_add(F_INF, F_NINF) == QNAN && gnn_add(NZERO, NZERO) == NZERO &&
            gnn_add(PZERO, NZERO) == PZERO,
        "add specials");
  /* round to nearest even whatever the caller's rounding mode; the mode is given back */
  fesetround(FE_UPWARD);
  const uint32_t up = gnn_add(F_1, F_2PM25), upf = gnn_fma(F_1, F_1, F_2PM25);
  const int mode = fegetround();
  fesetround(FE_TONEAREST);
  CHECK(up == F_1 && upf == F_1 && mode == FE_UPWARD, "RNE under FE_UPWARD (0x%08x 0x%08x)",
        (unsigned)up, (unsigned)upf);
}

/* ================================================================ MATMUL */
/* How a dataflow's operand sits in DRAM (from the header: OS A^T, B, C^T; WS A, B, C;
 * IS A^T, B^T, C^T, all row-major) and the LOADs/STOREs that move it: nblk blocks of `lines`
 * buffer lines, block b at buffer line base + b * blk_lines, words from DRAM row element
 * b * bsz on (w = min(bsz, extent - b * bsz)), one DRAM row a line (row_len words apart). */
typedef struct {
  int transposed;
  unsigned nblk, lines, blk_lines, bsz, extent, row_len;
} plan_t;

static plan_t plan(int R, int C, unsigned df, int mat, unsigned M, unsigned K, unsigned N) {
  const unsigned KB = cdiv(K, (unsigned)R), KBR = KB * (unsigned)R;
  const unsigned r = (unsigned)R, c = (unsigned)C;
  plan_t p;
  switch (df * 3 + (unsigned)mat) {
    /* OS */
    case 0: p = (plan_t){1, cdiv(M, r), K, K, r, M, M}; break;     /* A^T: K rows of M */
    case 1: p = (plan_t){0, cdiv(N, c), K, K, c, N, N}; break;     /* B: K rows of N */
    case 2: p = (plan_t){1, cdiv(M, r), N, N, r, M, M}; break;     /* C^T: N rows of M */
    /* WS */
    case 3: p = (plan_t){0, KB, M, M, r, K, K}; break;             /* A: M rows of K */
    case 4: p = (plan_t){0, cdiv(N, c), K, KBR, c, N, N}; break;   /* B: K rows of N */
    case 5: p = (plan_t){0, cdiv(N, c), M, M, c, N, N}; break;     /* C: M rows of N */
    /* IS */
    case 6: p = (plan_t){1, cdiv(M, c), K, KBR, c, M, M}; break;   /* A^T: K rows of M */
    case 7: p = (plan_t){1, KB, N, N, r, K, K}; break;             /* B^T: N rows of K */
    default: p = (plan_t){1, cdiv(M, c), N, N, c, M, M}; break;    /* C^T: N rows of M */
  }
  return p;
}

/* X (rows x cols, row-major) into DRAM at addr as X or X^T, followed by LW junk words */
static void put_mat(gnn_model_t *m, uint64_t addr, unsigned rows, unsigned cols,
                    const uint32_t *x, int transposed) {
  for (unsigned i = 0; i < rows; i++)
    for (unsigned j = 0; j < cols; j++)
      gnn_mem_wr(m, addr + (transposed ? (uint64_t)j * rows + i : (uint64_t)i * cols + j),
                 x[(size_t)i * cols + j]);
  dram_seq(m, addr + (uint64_t)rows * cols, 64, JUNK, 0);
}
static void get_mat(const gnn_model_t *m, uint64_t addr, unsigned rows, unsigned cols,
                    uint32_t *x, int transposed) {
  for (unsigned i = 0; i < rows; i++)
    for (unsigned j = 0; j < cols; j++)
      x[(size_t)i * cols + j] =
          gnn_mem_rd(m, addr + (transposed ? (uint64_t)j * rows + i : (uint64_t)i * cols + j));
}

/* LOADs (store == 0) or STOREs of an operand; wide: w = LW (reads the neighbours and junk). */
static int move(gnn_model_t *m, const plan_t *p, int buf, unsigned base, uint64_t addr, int wide,
                int store) {
  const unsigned lw = (unsigned)gnn_model_cfg(m)->lw;
  int ok = 1;
  for (unsigned b = 0; b < p->nblk; b++) {
    const unsigned left = p->extent - b * p->bsz, w = wide ? lw : (left < p->bsz ? left : p->bsz);
    const unsigned line = base + b * p->blk_lines;
    const uint32_t a = (uint32_t)(addr + (uint64_t)b * p->bsz);
    const gnn_insn_t in = store ? gnn_enc_store(line, p->lines, w, a, p->row_len)
                                : gnn_enc_load((unsigned)buf, line, p->lines, w, a, p->row_len);
    ok &= gnn_model_exec(m, &in) == GNN_OK;
  }
  return ok;
}

/* OUT lines of a MATMUL, and whether (line, word) holds C[m][n] (the inverse of the layout) */
static unsigned out_lines(int R, int C, unsigned df, unsigned M, unsigned N) {
  return df == GNN_DF_OS ? cdiv(M, (unsigned)R) * N
                         : df == GNN_DF_WS ? cdiv(N, (unsigned)C) * M : cdiv(M, (unsigned)C) * N;
}
static int out_holds(int R, int C, unsigned df, unsigned M, unsigned N, unsigned l, unsigned w,
                     unsigned *mm, unsigned *nn) {
  if (df == GNN_DF_OS) {
    *mm = (l / N) * (unsigned)R + w, *nn = l % N;
    return w < (unsigned)R && *mm < M;
  }
  if (df == GNN_DF_WS) {
    *mm = l % M, *nn = (l / M) * (unsigned)C + w;
    return w < (unsigned)C && *nn < N;
  }
  *mm = (l / N) * (unsigned)C + w, *nn = l % N;
  return w < (unsigned)C && *mm < M;
}

/* The test's own route: the chain of the header with the host's fmaf */
static void own_matmul(unsigned df, unsigned acc, unsigned act, unsigned M, unsigned K,
                       unsigned N, const uint32_t *a, const uint32_t *b, uint32_t *c) {
  for (unsigned i = 0; i < M; i++)
    for (unsigned j = 0; j < N; j++) {
      uint32_t s = df == GNN_DF_OS || !acc ? NZERO : c[i * N + j];
      for (unsigned q = 0; q < K; q++) s = tfma(a[i * K + q], b[q * N + j], s);
      if (df == GNN_DF_OS && acc) s = tadd(c[i * N + j], s);
      c[i * N + j] = act ? trelu(s) : s;
    }
}

#define A_ADDR 0x10000u
#define B_ADDR 0x30000u
#define C_ADDR 0x50000u
#define R_ADDR 0x70000u /* results stored back */
#define S_ADDR 0xFF000u /* scratch */
#define MM_DEPTH 1024
#define IN_BASE 3
#define WT_BASE (MM_DEPTH + 1)
#define OUT_BASE 5

/* Runs one MATMUL on the engine: packs A, B (and old C when acc) from DRAM, prefills the OUT
 * lines around with SENT, executes, checks the OUT range (+0.0 padding, untouched neighbours),
 * stores C back and reads it into c (row-major). Returns 1 when every step was fine. */
static int engine_matmul(int R, int C, unsigned df, unsigned acc, unsigned act, unsigned M,
                         unsigned K, unsigned N, const uint32_t *a, const uint32_t *b,
                         const uint32_t *old, uint32_t *c, int wide) {
  gnn_model_t *m = new_model(R, C, MM_DEPTH, MM_DEPTH, MM_DEPTH, 20);
  const unsigned lw = (unsigned)gnn_model_cfg(m)->lw, ol = out_lines(R, C, df, M, N);
  const plan_t pa = plan(R, C, df, 0, M, K, N), pb = plan(R, C, df, 1, M, K, N),
               pc = plan(R, C, df, 2, M, K, N);
  int ok = 1;
  put_mat(m, A_ADDR, M, K, a, pa.transposed);
  put_mat(m, B_ADDR, K, N, b, pb.transposed);
  /* junk everywhere in the IN/WT lines first: unused words must never be read */
  buf_fill(m, GNN_BUF_IN, 0, MM_DEPTH, JUNK, S_ADDR);
  buf_fill(m, GNN_BUF_WT, MM_DEPTH, MM_DEPTH, JUNK, S_ADDR);
  ok &= move(m, &pa, GNN_BUF_IN, IN_BASE, A_ADDR, wide, 0);
  ok &= move(m, &pb, GNN_BUF_WT, WT_BASE, B_ADDR, wide, 0);
  buf_fill(m, GNN_BUF_OUT, OUT_BASE - 1, ol + 2, SENT, S_ADDR);
  if (acc) {
    put_mat(m, C_ADDR, M, N, old, pc.transposed);
    ok &= move(m, &pc, GNN_BUF_OUT, OUT_BASE, C_ADDR, wide, 0);
  }
  const gnn_insn_t mm = gnn_enc_matmul(df, acc, act, M, K, N, IN_BASE, WT_BASE, OUT_BASE);
  const int st = gnn_model_exec(m, &mm);
  if (st != GNN_OK) printf("  MATMUL refused: %s\n", gnn_err_name(st));
  ok &= st == GNN_OK;
  unsigned lines[3];
  gnn_matmul_lines(gnn_model_cfg(m), df, M, K, N, &lines[0], &lines[1], &lines[2]);
  ok &= lines[2] == ol;
  /* every word of the OUT range: a C element or +0.0; the lines around untouched */
  for (unsigned l = 0; l < ol; l++)
    for (unsigned w = 0; w < lw; w++) {
      unsigned i, j;
      const uint32_t g = gnn_buf_rd(m, GNN_BUF_OUT, OUT_BASE + l, w);
      if (!out_holds(R, C, df, M, N, l, w, &i, &j) && g != PZERO) {
        if (ok) printf("  padding line %u word %u: 0x%08x\n", l, w, (unsigned)g);
        ok = 0;
      }
    }
  for (unsigned w = 0; w < lw; w++)
    ok &= gnn_buf_rd(m, GNN_BUF_OUT, OUT_BASE - 1, w) == SENT &&
          gnn_buf_rd(m, GNN_BUF_OUT, OUT_BASE + ol, w) == SENT;
  /* store C back in the dataflow's DRAM layout: one beat a line */
  ok &= move(m, &pc, GNN_BUF_OUT, OUT_BASE, R_ADDR, 0, 1);
  gnn_beat_t beat;
  size_t nbeats = 0;
  while (gnn_model_take_beats(m, &beat, 1) == 1) nbeats++;
  ok &= nbeats == pc.nblk * pc.lines;
  get_mat(m, R_ADDR, M, N, c, pc.transposed);
  gnn_model_free(m);
  return ok;
}

static uint32_t rand_val(cutil_rng_t *r) {
  /* signs, exponents over 2^-8..2^7 and full mantissas: the roundings matter */
  const uint32_t s = (uint32_t)cutil_rng_below(r, 2) << 31;
  const uint32_t e = 119u + (uint32_t)cutil_rng_below(r, 16);
  return s | e << 23 | ((uint32_t)cutil_rng_next(r) & 0x7FFFFFu);
}

/* rand_val, with one value in 64 special: +-0, +-inf, a NaN with a payload, subnormals */
static uint32_t rand_val_sp(cutil_rng_t *r) {
  static const uint32_t sp[8] = {PZERO, NZERO, F_INF, F_NINF, 0xFFC12345u, 0x00000003u,
                                 0x807FFFFFu, F_2PM75};
  return cutil_rng_below(r, 64) == 0 ? sp[cutil_rng_below(r, 8)] : rand_val(r);
}

static void test_matmul_shapes(void) {
  static const int arr[][2] = {{2, 2}, {4, 4}, {8, 3}, {3, 8}};
  static const unsigned shp[][3] = {{1, 1, 1}, {5, 1, 7}, {37, 3, 2}, {2, 5, 41}, {7, 9, 5},
                                    {13, 17, 11}};
  static const unsigned var[][3] = {{0, 0, 0}, {1, 0, 1}, {0, 1, 1}, {1, 1, 0}}; /* acc act wide */
  static const char *const dfn[3] = {"OS", "WS", "IS"};
  cutil_rng_t r = cutil_rng_seed(7);
  for (size_t ai = 0; ai < 4; ai++)
    for (unsigned df = 0; df < 3; df++) {
      int ok = 1, own_ok = 1;
      for (size_t si = 0; si < 6; si++)
        for (size_t vi = 0; vi < 4; vi++) {
          const unsigned M = shp[si][0], K = shp[si][1], N = shp[si][2];
          const unsigned acc = var[vi][0], act = var[vi][1];
          uint32_t *a = malloc(M * K * 4), *b = malloc(K * N * 4), *old = malloc(M * N * 4),
                   *ref = malloc(M * N * 4), *own = malloc(M * N * 4), *got = malloc(M * N * 4);
          for (unsigned q = 0; q < M * K; q++) a[q] = rand_val_sp(&r);
          for (unsigned q = 0; q < K * N; q++) b[q] = rand_val_sp(&r);
          for (unsigned q = 0; q < M * N; q++) old[q] = rand_val_sp(&r);
          memcpy(ref, old, M * N * 4);
          memcpy(own, old, M * N * 4);
          gnn_matmul_ref(df, acc, act, M, K, N, a, b, ref);
          own_matmul(df, acc, act, M, K, N, a, b, own);
          const int eng = engine_matmul(arr[ai][0], arr[ai][1], df, acc, act, M, K, N, a, b, old,
                                        got, (int)var[vi][2]);
          const int same = !memcmp(got, ref, M * N * 4), same_own = !memcmp(ref, own, M * N * 4);
          if ((!eng || !same) && ok)
            printf("  %dx%d %s M%u K%u N%u acc%u act%u wide%u: engine %s, C %s\n", arr[ai][0],
                   arr[ai][1], dfn[df], M, K, N, acc, act, var[vi][2], eng ? "ok" : "FAILED",
                   same ? "equal" : "differs");
          ok &= eng && same;
          own_ok &= same_own;
          free(a), free(b), free(old), free(ref), free(own), free(got);
        }
      CHECK(ok, "%dx%d %s: MATMUL via DRAM packing == gnn_matmul_ref on odd shapes", arr[ai][0],
            arr[ai][1], dfn[df]);
      CHECK(own_ok, "%dx%d %s: gnn_matmul_ref == the test's fmaf chain", arr[ai][0], arr[ai][1],
            dfn[df]);
    }
}

/* one small MATMUL on every array shape and dataflow with hand-computed results */
static void hand_case(const char *what, unsigned acc, unsigned act, unsigned M, unsigned K,
                      unsigned N, const uint32_t *a, const uint32_t *b, const uint32_t *old,
                      const uint32_t want[3][8]) {
  static const int arr[][2] = {{2, 2}, {3, 8}};
  for (unsigned df = 0; df < 3; df++)
    for (size_t ai = 0; ai < 2; ai++) {
      uint32_t got[8], ref[8];
      const int eng = engine_matmul(arr[ai][0], arr[ai][1], df, acc, act, M, K, N, a, b, old, got,
                                    0);
      memcpy(ref, old ? old : got, M * N * 4);
      gnn_matmul_ref(df, acc, act, M, K, N, a, b, ref);
      int ok = eng;
      for (unsigned q = 0; q < M * N; q++) ok &= got[q] == want[df][q] && ref[q] == want[df][q];
      CHECK(ok, "%s (df %u, %dx%d): got 0x%08x ref 0x%08x want 0x%08x", what, df, arr[ai][0],
            arr[ai][1], (unsigned)got[0], (unsigned)ref[0], (unsigned)want[df][0]);
    }
}

static void test_matmul_special(void) {
  /* accumulation order: A = B = 1 + 2^-12, old C = -1.  The product rounds (tie to even) to
   * 1 + 2^-11; OS adds it to -1: 2^-11 (0x3A000000); WS/IS fuse the whole sum: 2^-11 + 2^-24
   * (0x3A000400) */
  {
    const uint32_t a[1] = {F_1P12}, b[1] = {F_1P12}, old[1] = {F_M1};
    const uint32_t want[3][8] = {{0x3A000000u}, {0x3A000400u}, {0x3A000400u}};
    hand_case("acc order: OS adds at the end, WS/IS start the chain", 1, 0, 1, 1, 1, a, b, old,
              want);
  }
  { /* inf * 0 -> canonical NaN */
    const uint32_t a[2] = {F_1, F_INF}, b[2] = {F_1, PZERO};
    const uint32_t want[3][8] = {{QNAN}, {QNAN}, {QNAN}};
    hand_case("inf * 0", 0, 0, 1, 2, 1, a, b, NULL, want);
  }
  { /* a NaN with a payload in, the canonical NaN out */
    const uint32_t a[1] = {0xFFC12345u}, b[1] = {F_1};
    const uint32_t want[3][8] = {{QNAN}, {QNAN}, {QNAN}};
    hand_case("NaN payload", 0, 0, 1, 1, 1, a, b, NULL, want);
  }
  { /* overflow, then inf - inf: A = [max, -inf], B = [2 1; 1 1]:
     * C[0][0] = fma(-inf, 1, fma(max, 2, -0) = inf) = NaN; C[0][1] = fma(-inf, 1, max) = -inf */
    const uint32_t a[2] = {F_MAX, F_NINF}, b[4] = {F_2, F_1, F_1, F_1};
    const uint32_t want[3][8] = {{QNAN, F_NINF}, {QNAN, F_NINF}, {QNAN, F_NINF}};
    hand_case("overflow, inf - inf", 0, 0, 1, 2, 2, a, b, NULL, want);
  }
  { /* subnormal products: 1.5 * 2^-150 -> 2^-149, 2^-150 -> +0, 3 * 2^-149 * 0.5 -> 2^-148 */
    const uint32_t a[3] = {F_2PM75, F_2PM75, 0x00000003u};
    const uint32_t b[3] = {F_1_5PM75, F_2PM75, F_HALF};
    const uint32_t c[3] = {0x00000001u, PZERO, 0x00000002u};
    for (int q = 0; q < 3; q++) { /* 1x1x1 each */
      const uint32_t want[3][8] = {{c[q]}, {c[q]}, {c[q]}};
      hand_case("subnormal product", 0, 0, 1, 1, 1, &a[q], &b[q], NULL, want);
    }
  }
  { /* the chain starts at -0: a -0 product gives -0, ReLU makes it +0; +0 product +0 */
    const uint32_t a[2] = {F_M1, PZERO}, b[1] = {PZERO};
    const uint32_t want[3][8] = {{NZERO, PZERO}, {NZERO, PZERO}, {NZERO, PZERO}};
    hand_case("-0 chain start", 0, 0, 2, 1, 1, a, b, NULL, want);
    const uint32_t wr[3][8] = {{PZERO, PZERO}, {PZERO, PZERO}, {PZERO, PZERO}};
    hand_case("-0 chain start, ReLU", 0, 1, 2, 1, 1, a, b, NULL, wr);
  }
  { /* by hand on small integers: A = [1 2; 3 4] (2x2), B = [5 6; 7 8] -> [19 22; 43 50] */
    const uint32_t a[4] = {F_1, F_2, F_3, 0x40800000u};
    const uint32_t b[4] = {0x40A00000u, 0x40C00000u, 0x40E00000u, 0x41000000u};
    const uint32_t c[4] = {0x41980000u, 0x41B00000u, 0x422C0000u, 0x42480000u};
    const uint32_t want[3][8] = {{c[0], c[1], c[2], c[3]},
                                 {c[0], c[1], c[2], c[3]},
                                 {c[0], c[1], c[2], c[3]}};
    hand_case("2x2x2 integers", 0, 0, 2, 2, 2, a, b, NULL, want);
  }
}

/* K split over two MATMULs on one model, the second accumulating */
static void test_k_split(void) {
  static const int arr[][2] = {{4, 4}, {3, 8}, {8, 3}};
  cutil_rng_t r = cutil_rng_seed(23);
  const unsigned M = 7, K = 11, N = 6, K1 = 5, K2 = K - K1;
  for (size_t ai = 0; ai < 3; ai++)
    for (unsigned df = 0; df < 3; df++) {
      const int R = arr[ai][0], C = arr[ai][1];
      uint32_t a[7 * 11], b[11 * 6], a1[7 * 5], a2[7 * 6], b1[5 * 6], b2[6 * 6];
      for (unsigned q = 0; q < M * K; q++) a[q] = rand_val(&r);
      for (unsigned q = 0; q < K * N; q++) b[q] = rand_val(&r);
      for (unsigned i = 0; i < M; i++)
        for (unsigned q = 0; q < K; q++) {
          if (q < K1) a1[i * K1 + q] = a[i * K + q];
          else a2[i * K2 + q - K1] = a[i * K + q];
        }
      memcpy(b1, b, sizeof b1);
      memcpy(b2, b + K1 * N, sizeof b2);

      gnn_model_t *m = new_model(R, C, MM_DEPTH, MM_DEPTH, MM_DEPTH, 20);
      const plan_t pa1 = plan(R, C, df, 0, M, K1, N), pb1 = plan(R, C, df, 1, M, K1, N);
      const plan_t pa2 = plan(R, C, df, 0, M, K2, N), pb2 = plan(R, C, df, 1, M, K2, N);
      const plan_t pc = plan(R, C, df, 2, M, K, N);
      unsigned l1[3], l2[3];
      gnn_matmul_lines(gnn_model_cfg(m), df, M, K1, N, &l1[0], &l1[1], &l1[2]);
      gnn_matmul_lines(gnn_model_cfg(m), df, M, K2, N, &l2[0], &l2[1], &l2[2]);
      put_mat(m, A_ADDR, M, K1, a1, pa1.transposed);
      put_mat(m, A_ADDR + 0x8000, M, K2, a2, pa2.transposed);
      put_mat(m, B_ADDR, K1, N, b1, pb1.transposed);
      put_mat(m, B_ADDR + 0x8000, K2, N, b2, pb2.transposed);
      int ok = move(m, &pa1, GNN_BUF_IN, 0, A_ADDR, 0, 0) &&
               move(m, &pa2, GNN_BUF_IN, l1[0], A_ADDR + 0x8000, 0, 0) &&
               move(m, &pb1, GNN_BUF_WT, 0, B_ADDR, 0, 0) &&
               move(m, &pb2, GNN_BUF_WT, l1[1], B_ADDR + 0x8000, 0, 0);
      ok &= exec_ok(m, gnn_enc_matmul(df, 0, 0, M, K1, N, 0, 0, 0));
      ok &= exec_ok(m, gnn_enc_matmul(df, 1, 0, M, K2, N, l1[0], l1[1], 0));
      ok &= move(m, &pc, GNN_BUF_OUT, 0, R_ADDR, 0, 1);
      uint32_t got[7 * 6], whole[7 * 6], two[7 * 6];
      get_mat(m, R_ADDR, M, N, got, pc.transposed);
      gnn_model_free(m);
      gnn_matmul_ref(df, 0, 0, M, K, N, a, b, whole);
      gnn_matmul_ref(df, 0, 0, M, K1, N, a1, b1, two);
      gnn_matmul_ref(df, 1, 0, M, K2, N, a2, b2, two);
      CHECK(ok && !memcmp(got, two, sizeof got),
            "%dx%d df %u: K split == the two-step reference", R, C, df);
      if (df != GNN_DF_OS)
        CHECK(!memcmp(got, whole, sizeof got),
              "%dx%d %s: K split over two MATMULs with acc equals one MATMUL over the whole K",
              R, C, df == GNN_DF_WS ? "WS" : "IS");
      else { /* OS adds the partial sums: here it differs from the one chain somewhere */
        int diff = 0;
        for (unsigned q = 0; q < M * N; q++) diff += got[q] != whole[q];
        CHECK(diff > 0, "%dx%d OS: the K split adds two partial sums (%d of %u differ from "
              "one chain)", R, C, diff, M * N);
      }
    }
}

/* The header's bias use: a bias row broadcast into OUT with a stride-0 LOAD, then an
 * accumulating WS MATMUL (C layout = C row-major: each OUT line is a row chunk of C). */
static void test_bias_ws(void) {
  cutil_rng_t r = cutil_rng_seed(31);
  const int R = 4, C = 3;
  const unsigned M = 5, K = 6, N = 8;
  uint32_t a[5 * 6], b[6 * 8], bias[8], want[5 * 8], got[5 * 8];
  for (unsigned q = 0; q < M * K; q++) a[q] = rand_val(&r);
  for (unsigned q = 0; q < K * N; q++) b[q] = rand_val(&r);
  for (unsigned q = 0; q < N; q++) bias[q] = rand_val(&r);
  for (unsigned i = 0; i < M; i++) memcpy(want + i * N, bias, sizeof bias);
  gnn_matmul_ref(GNN_DF_WS, 1, 1, M, K, N, a, b, want);
  gnn_model_t *m = new_model(R, C, 64, 64, 64, 20);
  const plan_t pa = plan(R, C, GNN_DF_WS, 0, M, K, N), pb = plan(R, C, GNN_DF_WS, 1, M, K, N),
               pc = plan(R, C, GNN_DF_WS, 2, M, K, N);
  put_mat(m, A_ADDR, M, K, a, 0);
  put_mat(m, B_ADDR, K, N, b, 0);
  put_mat(m, C_ADDR, 1, N, bias, 0);
  int ok = move(m, &pa, GNN_BUF_IN, 0, A_ADDR, 0, 0) && move(m, &pb, GNN_BUF_WT, 0, B_ADDR, 0, 0);
  const unsigned cu = (unsigned)C;
  for (unsigned nb = 0; nb < cdiv(N, cu); nb++) /* stride 0: row repeated M times */
    ok &= exec_ok(m, gnn_enc_load(GNN_BUF_OUT, nb * M, M, N - nb * cu < cu ? N - nb * cu : cu,
                                  C_ADDR + nb * cu, 0));
  ok &= exec_ok(m, gnn_enc_matmul(GNN_DF_WS, 1, 1, M, K, N, 0, 0, 0));
  ok &= move(m, &pc, GNN_BUF_OUT, 0, R_ADDR, 0, 1);
  get_mat(m, R_ADDR, M, N, got, 0);
  gnn_model_free(m);
  CHECK(ok && !memcmp(got, want, sizeof got), "WS bias broadcast + accumulate + ReLU");
}

/* ================================================================ reference runner */
static void test_ref(void) {
  gnn_model_t *m = new_model(4, 4, 8, 8, 8, 12);
  dram_seq(m, 0x10, 16, F_1, 0);
  gnn_insn_t prog[5];
  prog[0] = gnn_enc_load(GNN_BUF_IN, 0, 1, 4, 0x10, 0);
  prog[1] = (gnn_insn_t){{0x0000000Fu, 0, 0, 0}};
  prog[2] = gnn_enc_load(GNN_BUF_WT, 0, 1, 4, 0x10, 0);
  prog[3] = gnn_enc_store(0, 1, 0, 0x100, 0);
  prog[4] = gnn_enc_matmul(GNN_DF_OS, 0, 0, 4, 1, 4, 0, 0, 0);
  int st[5] = {-1, -1, -1, -1, -1};
  const int e = gnnerator_ref(m, prog, 5, st);
  CHECK(e == 2 && st[0] == GNN_OK && st[1] == GNN_E_OPCODE && st[2] == GNN_OK &&
            st[3] == GNN_E_WIDTH && st[4] == GNN_OK,
        "gnnerator_ref statuses (%d: %d %d %d %d %d)", e, st[0], st[1], st[2], st[3], st[4]);
  CHECK(gnn_buf_rd(m, GNN_BUF_OUT, 3, 3) == F_1, "program result 1 * 1");
  CHECK(gnnerator_ref(m, prog, 5, NULL) == 2 && gnnerator_ref(m, prog, 0, NULL) == 0,
        "gnnerator_ref without statuses");
  gnn_model_free(m);
}


/* ------------------------------------------------------------------ Graph Engine */
static gnn_model_t *gmodel(int p, int l, int ed, int fd, int md) {
  gnn_cfg_t c;
  if (gnn_cfg_init(&c, 2, 2, 4, 4, 4, 16) != 0 || gnn_cfg_graph(&c, p, l, ed, fd, md) != 0) return NULL;
  return gnn_model_new(&c);
}

static uint32_t f32b(float x) { return cutil_f32_bits(x); }
static int gexec(gnn_model_t *m, gnn_insn_t i) { return gnn_model_exec(m, &i); }
static int gchk(const gnn_cfg_t *c, gnn_insn_t i) { return gnn_check(c, &i); }

static void test_graph_cfg_checks(void) {
  gnn_cfg_t c;
  CHECK(gnn_cfg_init(&c, 2, 2, 4, 4, 4, 16) == 0 && c.gpes == 0 && c.pw == 2, "no graph engine");
  CHECK(gnn_check(&c, &(gnn_insn_t){{GNN_OP_GFILL | 1u << 16, 1, 0, 0}}) == GNN_E_OPCODE,
        "graph opcode without a Graph Engine is OPCODE");
  CHECK(gnn_cfg_graph(&c, 3, 4, 8, 8, 8) != 0, "P 3 refused (power of two)");
  CHECK(gnn_cfg_graph(&c, 4, 6, 8, 8, 8) != 0, "L 6 refused");
  CHECK(gnn_cfg_graph(&c, 8, 4, 8, 8, 8) != 0, "P 8 > max(LW, L) = 4 refused");
  CHECK(gnn_cfg_graph(&c, 4, 8, 8, 8, 0) != 0, "depth 0 refused");
  CHECK(gnn_cfg_graph(&c, 4, 8, 8, 8, 8) == 0 && c.pw == 8 && c.gpes == 4, "P 4 L 8: port 8");
  CHECK(c.sfus == 1 && gnn_cfg_sfus(&c, 0) != 0 && gnn_cfg_sfus(&c, 5) != 0 && c.sfus == 1 &&
            gnn_cfg_sfus(&c, 4) == 0 && c.sfus == 4,
        "SFU pool: 1 unit by default, 1..P");
  gnn_cfg_paper(&c);
  CHECK(c.gpes == 32 && c.lanes == 32 && c.sfus == 8 &&
            (uint64_t)c.gpes * 2 * (c.gdepth[0] * 4ull + (c.gdepth[1] + c.gdepth[2]) * 32ull * 4) ==
                24ull << 20,
        "paper: 24 MiB of graph memory, split equally");
  CHECK(c.gdepth[0] * 4 == c.gdepth[1] * 32 * 4, "paper: edge = feature memory");
  /* error order: FIELD before SIZE before WIDTH before RANGE */
  gnn_cfg_graph(&c, 4, 4, 8, 8, 8);
  c.addr_w = 16;
  gnn_insn_t i = gnn_enc_gload(GNN_MEM_IF, 0, 0, 0, 0, 0);
  CHECK(gnn_check(&c, &i) == GNN_E_SIZE, "n 0 is SIZE (before WIDTH)");
  i = gnn_enc_gload(GNN_MEM_IF, 0, 1, 0, 0, 0);
  CHECK(gnn_check(&c, &i) == GNN_E_WIDTH, "dim 0 is WIDTH");
  i.w[3] |= 1u << 31;
  CHECK(gnn_check(&c, &i) == GNN_E_FIELD, "reserved bit is FIELD first");
  i = gnn_enc_gload(GNN_MEM_EDGE, 0, 1, 1, 0, 0);
  CHECK(gnn_check(&c, &i) == GNN_E_FIELD, "EDGE with dim is FIELD");
  i = gnn_enc_gload(3, 0, 1, 1, 0, 0);
  CHECK(gnn_check(&c, &i) == GNN_E_FIELD, "mem 3 is FIELD");
  i = gnn_enc_gstore(0, 1, 1, 0, 0);
  gnn_set(&i, GNN_G_MEM, GNN_MEM_IF);
  CHECK(gnn_check(&c, &i) == GNN_E_FIELD, "GSTORE of IF is FIELD");
  /* 9 nodes of 5 words: CH 2, ceil(9/4) = 3 rows: 6 lines a GPE; at base 2 of 8-line banks:
     [2, 8) fits bank 0, at base 3 it crosses */
  i = gnn_enc_gload(GNN_MEM_IF, 2, 9, 5, 0, 5);
  CHECK(gnn_check(&c, &i) == GNN_OK, "node block inside bank 0");
  i = gnn_enc_gload(GNN_MEM_IF, 3, 9, 5, 0, 5);
  CHECK(gnn_check(&c, &i) == GNN_E_RANGE, "node block across the banks");
  i = gnn_enc_gload(GNN_MEM_IF, 8, 9, 5, 65536 - 45, 5);
  CHECK(gnn_check(&c, &i) == GNN_OK, "DRAM range ends at 2^16");
  i = gnn_enc_gload(GNN_MEM_IF, 8, 9, 5, 65536 - 44, 5);
  CHECK(gnn_check(&c, &i) == GNN_E_RANGE, "DRAM range past 2^16");
  i = gnn_enc_gload(GNN_MEM_EDGE, 0, 2, 0, 65536 - 8, 4);
  CHECK(gnn_check(&c, &i) == GNN_OK, "EDGE lines of P words end at 2^16");
  i = gnn_enc_gload(GNN_MEM_EDGE, 0, 2, 0, 65536 - 7, 4);
  CHECK(gnn_check(&c, &i) == GNN_E_RANGE, "EDGE past 2^16");
  gnn_grun_t r = {GNN_GM_STREAM, GNN_AP_ADD, 0, GNN_RD_SUM, 0, 0, 0, 0, 8, 0, 8, 0, 4};
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_OK, "stream GRUN ok");
  r.count = 1;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_E_FIELD, "stream with count");
  r.count = 0, r.mode = 2;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_E_FIELD, "mode 2");
  r.mode = GNN_GM_EDGES;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_E_SIZE, "edges with count 0");
  r.count = 9;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_E_RANGE, "9 edge entries");
  r.count = 8, r.if1 = 1;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_E_RANGE, "IF1 across banks");
  r.apply = GNN_AP_MULM;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_OK, "mulm does not read IF1");
  r.sfu = 3;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_E_FIELD, "sfu 3");
  r.sfu = GNN_SF_EXP;
  CHECK(gchk(&c, gnn_enc_grun(&r)) == GNN_OK, "sfu 2 (exp)");
  gnn_use_t u;
  r.sfu = 0;
  i = gnn_enc_grun(&r);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 5 && u.banks == ((1u << 6) | (1u << 8) | (1u << 10)), "GRUN unit and banks");
  i = gnn_enc_gload(GNN_MEM_MF, 8, 9, 5, 100, 5);
  gnn_use(&c, &i, &u);
  CHECK(u.unit == 3 && u.banks == 1u << 11 && u.dram_lo == 100 && u.dram_hi == 145,
        "GLOAD MF unit, bank, DRAM range");
}

static void test_graph_memops(void) {
  gnn_model_t *m = gmodel(4, 4, 8, 8, 8);
  CHECK(m != NULL, "graph model");
  if (!m) return;
  for (unsigned a = 0; a < 256; a++) gnn_mem_wr(m, a, 1000 + a);
  /* 6 nodes of 6 words, stride 7: node v line c in GPE v % 4, line 1 + (v / 4) * 2 + c */
  CHECK(gexec(m, gnn_enc_gload(GNN_MEM_IF, 1, 6, 6, 10, 7)) == GNN_OK,
        "GLOAD IF");
  int ok = 1;
  for (unsigned v = 0; v < 6; v++)
    for (unsigned c = 0; c < 2; c++)
      for (unsigned j = 0; j < 4; j++) {
        const unsigned word = c * 4 + j;
        const uint32_t want = word < 6 ? 1000 + 10 + v * 7 + word : 0;
        ok &= gnn_gmem_rd(m, GNN_MEM_IF, (int)(v % 4), 1 + (v / 4) * 2 + c, j) == want;
      }
  CHECK(ok, "node layout: GPE v %% P, line base + (v/P)*CH + c, zeros beyond dim");
  CHECK(gexec(m, gnn_enc_gload(GNN_MEM_EDGE, 9, 2, 0, 40, 5)) == GNN_OK,
        "GLOAD EDGE");
  ok = 1;
  for (unsigned i = 0; i < 2; i++)
    for (unsigned g = 0; g < 4; g++)
      ok &= gnn_gmem_rd(m, GNN_MEM_EDGE, (int)g, 9 + i, 0) == 1000 + 40 + i * 5 + g;
  CHECK(ok, "EDGE line i word g -> GPE g entry base + i");
  CHECK(gexec(m, gnn_enc_gfill(8, 3, 0xDEADBEEFu)) == GNN_OK, "GFILL");
  ok = 1;
  for (unsigned g = 0; g < 4; g++)
    for (unsigned j = 0; j < 4; j++)
      ok &= gnn_gmem_rd(m, GNN_MEM_MF, (int)g, 10, j) == 0xDEADBEEFu &&
            gnn_gmem_rd(m, GNN_MEM_MF, (int)g, 11, j) == 0;
  CHECK(ok, "GFILL lines [8, 11) of every GPE only");
  /* GSTORE 5 nodes of 3 words from MF 10 (nodes 0..3: line 10 of GPEs 0..3, filled; node 4:
     line 11 of GPE 0, not filled): one beat a node, in order */
  CHECK(gexec(m, gnn_enc_gstore(10, 5, 3, 200, 4)) == GNN_OK, "GSTORE");
  gnn_beat_t b[8];
  const size_t nb = gnn_model_take_beats(m, b, 8);
  CHECK(nb == 5 && b[0].addr == 200 && b[4].addr == 216 && b[4].words == 3 &&
            b[4].data[0] == 0 && b[0].data[2] == 0xDEADBEEFu && gnn_mem_rd(m, 203) == 1203,
        "GSTORE beats");
  /* an error changes nothing */
  gnn_insn_t bad = gnn_enc_gfill(8, 3, 7);
  bad.w[3] = 1;
  CHECK(gnn_model_exec(m, &bad) == GNN_E_FIELD && gnn_gmem_rd(m, GNN_MEM_MF, 0, 8, 0) == 0xDEADBEEFu,
        "malformed GFILL changes nothing");
  gnn_model_free(m);
}

/* The SFU's exp (gnn_exp, "SFU" in gnnerator.h): the special values, the range edges, and within
 * 1 ulp of exp rounded to fp32 (double exp of the float input, flushed below 2^-126 as the unit
 * does) on a sweep of every 4099th fp32 word plus its neighbours of exponent 0..255. */
static void test_sfu_exp(void) {
  CHECK(gnn_exp(0x7FC00000u) == 0x7FC00000u && gnn_exp(0xFF812345u) == 0x7FC00000u &&
            gnn_exp(0x7F800000u) == 0x7F800000u && gnn_exp(0xFF800000u) == 0u,
        "exp: NaN -> canonical NaN, exp(+inf) = +inf, exp(-inf) = +0");
  CHECK(gnn_exp(0u) == f32b(1.0f) && gnn_exp(0x80000000u) == f32b(1.0f) &&
            gnn_exp(0x00000001u) == f32b(1.0f) && gnn_exp(0x807FFFFFu) == f32b(1.0f),
        "exp of zeros and subnormals = 1.0");
  CHECK(gnn_exp(f32b(1.0f)) == 0x402DF854u && gnn_exp(f32b(-1.0f)) == 0x3EBC5AB2u,
        "exp(1) = e and exp(-1) = 1/e, rounded to nearest");
  CHECK(gnn_exp(0x42B17217u) == 0x7F7FFF84u && gnn_exp(0x42B17218u) == 0x7F800000u,
        "88.722832 -> largest result, 88.722839 -> +inf");
  CHECK(gnn_exp(f32b(128.0f)) == 0x7F800000u && gnn_exp(f32b(-128.0f)) == 0u &&
            gnn_exp(f32b(-87.0f)) != 0u && gnn_exp(f32b(-88.0f)) == 0u,
        "|x| >= 128 and the flush below 2^-126");
  CHECK(gnn_sfu(GNN_SF_RELU, f32b(-2.0f)) == 0u && gnn_sfu(GNN_SF_NONE, f32b(-2.0f)) == f32b(-2.0f) &&
            gnn_sfu(GNN_SF_EXP, f32b(0.0f)) == f32b(1.0f),
        "gnn_sfu: none, ReLU, exp");
  long n = 0, off = 0, worst = 0;
  for (uint64_t u = 0; u < (1ull << 32); u += 4099) {
    const uint32_t x = (uint32_t)u;
    if ((x & 0x7F800000u) == 0x7F800000u) continue;
    uint32_t ref = f32b((float)exp((double)cutil_f32(x)));
    if (ref < 0x00800000u) ref = 0u;
    const uint32_t got = gnn_exp(x);
    const long d = labs((long)ref - (long)got);
    n++;
    if (d) off++;
    if (d > worst) worst = d;
  }
  CHECK(n > 1000000 && worst <= 1, "exp within 1 ulp of the rounded exp");
  printf("test_gnnerator: exp sweep %ld inputs, %ld (%.2f%%) one ulp off, worst %ld ulp\n", n,
         off, 100.0 * (double)off / (double)n, worst);
}

static void test_graph_grun(void) {
  gnn_model_t *m = gmodel(2, 2, 16, 16, 16);
  if (!m) return;
  /* IF0 lines: node v (GPE v % 2, line v / 2) = {v + 1, -(v + 1)}; IF1 at 8: {2, 0.5} */
  const float big = 16777216.0f; /* 2^24: 1 + 2^24 rounds to 2^24 */
  for (unsigned v = 0; v < 6; v++) {
    const float x = v == 5 ? big : (float)(v + 1);
    gnn_mem_wr(m, 100 + 2 * v, f32b(x));
    gnn_mem_wr(m, 101 + 2 * v, f32b(-x));
    gnn_mem_wr(m, 200 + 2 * v, f32b(2.0f));
    gnn_mem_wr(m, 201 + 2 * v, f32b(0.5f));
  }
  gexec(m, gnn_enc_gload(GNN_MEM_IF, 0, 6, 2, 100, 2));
  gexec(m, gnn_enc_gload(GNN_MEM_IF, 8, 6, 2, 200, 2));
  /* stream: MF = x0 * x1 (write), then MF = max(MF, relu(x0 + x1)) */
  gnn_grun_t r = {GNN_GM_STREAM, GNN_AP_MUL, 0, GNN_RD_WRITE, 0, 0, 0, 0, 6, 0, 8, 0, 1};
  CHECK(gexec(m, gnn_enc_grun(&r)) == GNN_OK, "stream mul");
  CHECK(gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 0) == f32b(8.0f) &&
            gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 1) == f32b(-2.0f),
        "node 3: {4*2, -4*0.5}");
  const gnn_grun_stats_t st = gnn_model_grun_stats(m);
  CHECK(st.items == 6 && st.cycles == 4 && st.stalls == 0, "stream: 3 nodes a GPE, 3 + 1 cycles");
  r.apply = GNN_AP_ADD, r.sfu = GNN_SF_RELU, r.red = GNN_RD_MAX;
  gexec(m, gnn_enc_grun(&r));
  CHECK(gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 0) == f32b(8.0f) &&
            gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 1) == 0,
        "max(8, relu(6)) = 8, max(-2, relu(-3.5)) = +0");
  /* one SFU unit for two GPEs: one grant a cycle, the GPE of the rotating priority first (GPE 0
     in even cycles, GPE 1 in odd), the other stalls in cycles 0..4: 6 + 1 cycles */
  const gnn_grun_stats_t sf = gnn_model_grun_stats(m);
  CHECK(sf.items == 6 && sf.cycles == 7 && sf.stalls == 5 && sf.sfu_stalls == 5 &&
            sf.lock_stalls == 0,
        "SFU pool of 1: 7 cycles, 5 SFU stalls");
  /* exp through the pool: MF = exp(x0) (write) */
  r.apply = GNN_AP_PASS, r.sfu = GNN_SF_EXP, r.red = GNN_RD_WRITE;
  gexec(m, gnn_enc_grun(&r));
  CHECK(gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 0) == gnn_exp(f32b(4.0f)) &&
            gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 1) == gnn_exp(f32b(-4.0f)) &&
            gnn_gmem_rd(m, GNN_MEM_MF, 0, 0, 0) == gnn_exp(f32b(1.0f)),
        "exp in the SFU pool");
  r.apply = GNN_AP_MUL, r.sfu = 0, r.red = GNN_RD_WRITE; /* back to the MF the mulm check needs */
  gexec(m, gnn_enc_grun(&r));
  r.apply = GNN_AP_ADD, r.sfu = GNN_SF_RELU, r.red = GNN_RD_MAX;
  gexec(m, gnn_enc_grun(&r));
  r.apply = GNN_AP_MULM, r.sfu = 0, r.red = GNN_RD_WRITE;
  gexec(m, gnn_enc_grun(&r));
  CHECK(gnn_gmem_rd(m, GNN_MEM_MF, 1, 1, 0) == f32b(32.0f), "mulm: x0 * MF = 4 * 8");
  /* edges: pull sums in edge order.  Destination 0 (GPE 0) gets 1, 2^24, 1 (nodes 0, 5, 0):
     ((-0 + 1) + 2^24) + 1 = 2^24 + 2 would need exactness; fp32 gives 2^24 (each 1 lost) */
  const uint32_t e[4] = {0u | 0u << 16, 5u | 0u << 16, 0u | 0u << 16, GNN_EDGE_NULL};
  for (unsigned k = 0; k < 4; k++) gnn_mem_wr(m, 300 + 2 * k, e[k]), gnn_mem_wr(m, 301 + 2 * k, GNN_EDGE_NULL);
  gexec(m, gnn_enc_gload(GNN_MEM_EDGE, 0, 4, 0, 300, 2));
  gexec(m, gnn_enc_gfill(0, 3, 0x80000000u));
  gnn_grun_t q = {GNN_GM_EDGES, GNN_AP_PASS, 0, GNN_RD_SUM, 0, 0, 0, 4, 6, 0, 0, 0, 1};
  CHECK(gexec(m, gnn_enc_grun(&q)) == GNN_OK, "edge GRUN");
  CHECK(gnn_gmem_rd(m, GNN_MEM_MF, 0, 0, 0) == f32b(big + 2.0f) ||
            gnn_gmem_rd(m, GNN_MEM_MF, 0, 0, 0) == f32b(big),
        "pull sum");
  CHECK(gnn_gmem_rd(m, GNN_MEM_MF, 0, 0, 0) == gnn_add(gnn_add(gnn_add(0x80000000u, f32b(1)), f32b(big)), f32b(1)),
        "pull sum in edge order");
  /* push conflict: GPE 0 and GPE 1 both add into destination 0 (line 0 of GPE 0's MF).  Cycle 2
     both present, priority GPE 0: granted (x = 1), GPE 1 finds the MF port taken; cycle 3
     priority GPE 1: locked (the line GPE 0 took in cycle 2), GPE 0 goes on with its own line
     (x = 1); cycle 4 GPE 1 still locked; cycles 5, 6 GPE 1 (2^24, then 1); the last write in
     cycle 7: 8 cycles.  The sum in that
     order is 2^24 + 4; in GPE-alternating order (1, 2^24, 1, 1) it would be 2^24. */
  const uint32_t e0[2] = {0u | 0u << 16, 0u | 0u << 16}, e1[2] = {5u | 0u << 16, 0u | 0u << 16};
  for (unsigned k = 0; k < 2; k++) gnn_mem_wr(m, 400 + 2 * k, e0[k]), gnn_mem_wr(m, 401 + 2 * k, e1[k]);
  gexec(m, gnn_enc_gload(GNN_MEM_EDGE, 16, 2, 0, 400, 2));
  gexec(m, gnn_enc_gfill(0, 3, 0x80000000u));
  q.ebase = 16, q.count = 2;
  gexec(m, gnn_enc_grun(&q));
  const gnn_grun_stats_t ps = gnn_model_grun_stats(m);
  const uint32_t one = f32b(1.0f), want = gnn_add(gnn_add(gnn_add(gnn_add(0x80000000u, one), one),
                                                          f32b(big)), one);
  CHECK(want == f32b(big + 4.0f) && want != f32b(big), "the two orders differ");
  CHECK(ps.items == 4 && ps.lock_stalls == 2 && ps.stalls == 3 && ps.cycles == 8 &&
            gnn_gmem_rd(m, GNN_MEM_MF, 0, 0, 0) == want,
        "push conflict: the lock's order (1, 1, 2^24, 1), 3 stalls of which 2 by the lock");
  /* bad edges: skipped and counted */
  const uint64_t before = gnn_model_bad_edges(m);
  gnn_mem_wr(m, 500, 7u | 0u << 16), gnn_mem_wr(m, 501, 0u | 9u << 16);
  gexec(m, gnn_enc_gload(GNN_MEM_EDGE, 20, 1, 0, 500, 2));
  q.ebase = 20, q.count = 1;
  gexec(m, gnn_enc_grun(&q));
  CHECK(gnn_model_bad_edges(m) == before + 2 && gnn_model_grun_stats(m).items == 0 &&
            gnn_gmem_rd(m, GNN_MEM_MF, 0, 0, 0) == want,
        "two bad edges (index 7 and 9 >= nodes 6) counted, nothing changed");
  gnn_model_free(m);
}

int main(void) {
  test_cfg();
  test_sfu_exp();
  test_encoding();
  test_errors();
  test_matmul_lines();
  test_use();
  test_load_store();
  test_vector_ops();
  test_matmul_shapes();
  test_matmul_special();
  test_k_split();
  test_bias_ws();
  test_ref();
  test_graph_cfg_checks();
  test_graph_memops();
  test_graph_grun();
  return CHECK_SUMMARY();
}
