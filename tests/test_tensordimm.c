/* test_tensordimm.c -- unit tests of the TensorDIMM golden model (cmodel/tensordimm), built
 * with ASan/UBSan: the TensorISA encoding and its text, the REDUCE and AVERAGE lane arithmetic
 * (fp32 and int32) against hand-computed values, GATHER / REDUCE / AVERAGE on a node (k = 1 and
 * k > 1, counts that are not a multiple of 16, in place), every error code with the check order
 * when two apply, the GATHER row errors in mid-instruction, a 4-core node with a per-core
 * error, the DRAM mapping round trips, the sparse storage at a capacity of 2^27 blocks, and the
 * stream reference tensordimm_ref.  Last line: "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "tensordimm.h"

#include "test_check.h"

typedef unsigned long long ull;

#define QNAN 0x7FC00000u
#define PZERO 0x00000000u
#define NZERO 0x80000000u
#define SENT 0xDEADBEEFu /* sentinel of blocks that must stay untouched */

/* fp32 constants used below (bit patterns) */
#define F_1 0x3F800000u    /* 1.0 */
#define F_1_5 0x3FC00000u  /* 1.5 */
#define F_2 0x40000000u    /* 2.0 */
#define F_2_25 0x40100000u /* 2.25 */
#define F_3 0x40400000u    /* 3.0 */
#define F_3_5 0x40600000u  /* 3.5 */
#define F_3_75 0x40700000u /* 3.75 */
#define F_M1 0xBF800000u   /* -1.0 */
#define F_M2 0xC0000000u   /* -2.0 */
#define F_M4 0xC0800000u   /* -4.0 */
#define F_M6 0xC0C00000u   /* -6.0 */
#define F_INF 0x7F800000u
#define F_NINF 0xFF800000u
#define F_2P24 0x4B800000u  /* 2^24 */
#define F_M2P24 0xCB800000u /* -2^24 */

/* small exact integers as fp32 (0..2^24): built from the bits, not from the host's float */
static uint32_t fint(uint32_t v) {
  if (v == 0) return 0;
  unsigned e = 31;
  while (!(v >> e)) e--;
  return (127u + e) << 23 | ((v << (23 - e)) & 0x7FFFFFu);
}

static tdimm_node_t *new_node(unsigned nd_log2, unsigned aw) {
  tdimm_cfg_t cfg;
  tdimm_cfg_default(&cfg, nd_log2, aw);
  tdimm_node_t *n = tdimm_node_new(&cfg);
  if (!n) {
    printf("tdimm_node_new(%u, %u) failed\n", nd_log2, aw);
    exit(1);
  }
  return n;
}
static tdimm_node_t *new_node_cfg(const tdimm_cfg_t *cfg) {
  tdimm_node_t *n = tdimm_node_new(cfg);
  if (!n) {
    printf("tdimm_node_new failed\n");
    exit(1);
  }
  return n;
}

/* writes lane values of core 0's local block lb: v + l * step */
static void set_blk(tdimm_node_t *n, unsigned core, uint64_t lb, uint32_t v, uint32_t step) {
  uint32_t *p = tdimm_block(n, core, lb);
  for (unsigned l = 0; l < TDIMM_LANES; l++) p[l] = v + l * step;
}
static uint32_t lane(tdimm_node_t *n, unsigned core, uint64_t lb, unsigned l) {
  return tdimm_block(n, core, lb)[l];
}
/* 1 if every lane of blocks [lb, lb + cnt) of core is v */
static int all_lanes(tdimm_node_t *n, unsigned core, uint64_t lb, uint64_t cnt, uint32_t v) {
  for (uint64_t b = lb; b < lb + cnt; b++)
    for (unsigned l = 0; l < TDIMM_LANES; l++)
      if (tdimm_block(n, core, b)[l] != v) return 0;
  return 1;
}
static void fill(tdimm_node_t *n, unsigned core, uint64_t lb, uint64_t cnt, uint32_t v) {
  for (uint64_t b = lb; b < lb + cnt; b++) set_blk(n, core, b, v, 0);
}

/* ================================================================ encoding, text */
static void test_encoding(void) {
  tdimm_insn_t i = tdimm_enc_reduce(TDIMM_SUB_MAX, TDIMM_T_FP32, 1, 0x40, 0x80, 0xc0, 5);
  CHECK(i.w[0] == 0x00010032u && i.w[1] == 0x40 && i.w[2] == 0x80 && i.w[3] == 0xc0 &&
            i.w[4] == 5,
        "reduce encoding w0=0x%08x", (unsigned)i.w[0]);
  i = tdimm_enc_gather(TDIMM_T_INT32, 255, 1, 2, 3, 0xFFFFFF);
  CHECK(i.w[0] == 0x00FF0101u && i.w[4] == 0xFFFFFF, "gather encoding w0=0x%08x",
        (unsigned)i.w[0]);
  i = tdimm_enc_average(TDIMM_T_FP32, 7, 0x10, 50, 0x20, 3);
  CHECK(i.w[0] == 0x00070003u && i.w[2] == 50, "average encoding w0=0x%08x", (unsigned)i.w[0]);
  i = tdimm_enc(TDIMM_OP_REDUCE, 4, 1, 9, 0xAAAAAAAAu, 0xBBBBBBBBu, 0xCCCCCCCCu, 0xDDDDDDDDu);
  CHECK(i.w[0] == 0x00090142u, "generic encoding");
  tdimm_fields_t f = tdimm_dec(&i);
  CHECK(f.op == 2 && f.subop == 4 && f.type == 1 && f.k == 9 && !f.rsvd && f.in_base == 0xAAAAAAAAu &&
            f.aux == 0xBBBBBBBBu && f.out_base == 0xCCCCCCCCu && f.count == 0xDDDDDDDDu,
        "decode fields");
  i.w[0] |= 1u << 10;
  CHECK(tdimm_dec(&i).rsvd, "reserved bit 10 decoded");
  i.w[0] = 0x80000000u | 0x00010002u;
  CHECK(tdimm_dec(&i).rsvd, "reserved bit 31 decoded");

  char buf[160];
  i = tdimm_enc_reduce(TDIMM_SUB_MAX, TDIMM_T_FP32, 1, 0x40, 0x80, 0xc0, 5);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "REDUCE.max.fp32 k=1 in1=0x40 in2=0x80 out=0xc0 count=5"), "str: %s", buf);
  i = tdimm_enc_reduce(TDIMM_SUB_SUB, TDIMM_T_INT32, 3, 0, 0x1000, 0xffffffffu, 16777215);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "REDUCE.sub.int32 k=3 in1=0x0 in2=0x1000 out=0xffffffff count=16777215"),
        "str: %s", buf);
  i = tdimm_enc_gather(TDIMM_T_FP32, 2, 0x100, 0x20, 0x200, 20);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "GATHER.fp32 k=2 table=0x100 idx=0x20 out=0x200 count=20"), "str: %s", buf);
  i = tdimm_enc_average(TDIMM_T_INT32, 1, 0x0, 50, 0x400, 3);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "AVERAGE.int32 k=1 in=0x0 avg=50 out=0x400 count=3"), "str: %s", buf);
  i = tdimm_enc(15, 0, 0, 1, 0, 0, 0, 0);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "ILLEGAL w0=0x0001000f"), "str: %s", buf);
  i = tdimm_enc(0, 3, 1, 0, 0, 0, 0, 0);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "ILLEGAL w0=0x00000130"), "str: %s", buf);
  i = tdimm_enc(TDIMM_OP_REDUCE, 9, 2, 1, 1, 2, 3, 4);
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "REDUCE.sub9.type2 k=1 in1=0x1 in2=0x2 out=0x3 count=4"), "str: %s", buf);
  i = tdimm_enc(TDIMM_OP_GATHER, 1, 0, 1, 1, 2, 3, 4);
  i.w[0] |= 0x01000400u;
  tdimm_insn_str(&i, buf, sizeof buf);
  CHECK(!strcmp(buf, "GATHER.sub1.fp32 k=1 table=0x1 idx=0x2 out=0x3 count=4 rsvd=0x1000400"),
        "str: %s", buf);
  char small[8];
  memset(small, 'x', sizeof small);
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, 0, 0, 0, 0);
  tdimm_insn_str(&i, small, sizeof small);
  CHECK(!strcmp(small, "REDUCE."), "truncated str: %s", small);

  static const char *const names[] = {"OK",    "OPCODE",   "SUBOP",  "TYPE",   "FIELD",
                                      "AVGNUM", "ALIGN", "CAPACITY", "WINDOW", "OVERLAP"};
  for (unsigned c = 0; c < 10; c++)
    CHECK(!strcmp(tdimm_err_name(c), names[c]), "err name %u: %s", c, tdimm_err_name(c));
  CHECK(!strcmp(tdimm_err_name(10), "?") && !strcmp(tdimm_err_name(TDIMM_E_BADCALL), "?"),
        "unknown err name");
}

/* ================================================================ lane arithmetic */
#define LR(s, t, a, b, want)                                                                \
  do {                                                                                      \
    uint32_t got_ = tdimm_lane_reduce(s, t, a, b);                                          \
    CHECK(got_ == (uint32_t)(want), "reduce %s(0x%08x, 0x%08x) = 0x%08x, want 0x%08x", #s,  \
          (unsigned)(a), (unsigned)(b), (unsigned)got_, (unsigned)(want));                  \
  } while (0)

static void test_lane_reduce(void) {
  const unsigned F = TDIMM_T_FP32, I = TDIMM_T_INT32;
  /* fp32 add / sub / mul */
  LR(TDIMM_SUB_ADD, F, F_1_5, F_2_25, F_3_75);
  LR(TDIMM_SUB_SUB, F, F_1, F_3, F_M2);
  LR(TDIMM_SUB_MUL, F, F_1_5, F_M4, F_M6);
  LR(TDIMM_SUB_SUB, F, F_1, F_1, PZERO);               /* x - x = +0 in RNE */
  LR(TDIMM_SUB_ADD, F, NZERO, NZERO, NZERO);           /* -0 + -0 = -0 */
  LR(TDIMM_SUB_ADD, F, 0x00000001u, 0x00000001u, 0x00000002u); /* subnormals kept */
  LR(TDIMM_SUB_MUL, F, 0x00800000u, 0x3F000000u, 0x00400000u); /* 2^-126 * 0.5: subnormal */
  LR(TDIMM_SUB_ADD, F, 0x3F800000u, 0x33800000u, 0x3F800000u); /* 1 + 2^-24: tie to even */
  LR(TDIMM_SUB_ADD, F, 0x3F800001u, 0x33800000u, 0x3F800002u); /* tie to even, upward */
  LR(TDIMM_SUB_MUL, F, 0x7F7FFFFFu, F_2, F_INF);                /* overflow */
  /* NaNs: canonical */
  LR(TDIMM_SUB_ADD, F, F_INF, F_NINF, QNAN);
  LR(TDIMM_SUB_MUL, F, F_INF, PZERO, QNAN);
  LR(TDIMM_SUB_ADD, F, 0xFFC12345u, F_1, QNAN);
  LR(TDIMM_SUB_SUB, F, F_1, 0x7F800001u, QNAN); /* sNaN */
  /* max / min: -0 < +0, one NaN gives the other operand, two NaNs the canonical NaN */
  LR(TDIMM_SUB_MAX, F, NZERO, PZERO, PZERO);
  LR(TDIMM_SUB_MAX, F, PZERO, NZERO, PZERO);
  LR(TDIMM_SUB_MIN, F, NZERO, PZERO, NZERO);
  LR(TDIMM_SUB_MIN, F, PZERO, NZERO, NZERO);
  LR(TDIMM_SUB_MAX, F, F_M1, F_M2, F_M1);
  LR(TDIMM_SUB_MIN, F, F_M1, F_M2, F_M2);
  LR(TDIMM_SUB_MAX, F, 0xFFC12345u, F_2, F_2);
  LR(TDIMM_SUB_MIN, F, F_1, 0x7F800001u, F_1);
  LR(TDIMM_SUB_MAX, F, 0x7FC00001u, 0xFF800001u, QNAN);
  LR(TDIMM_SUB_MIN, F, F_NINF, F_M1, F_NINF);
  /* int32: wrapping, signed max/min */
  LR(TDIMM_SUB_ADD, I, 0x7FFFFFFFu, 1, 0x80000000u);
  LR(TDIMM_SUB_ADD, I, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFEu);
  LR(TDIMM_SUB_SUB, I, 0x80000000u, 1, 0x7FFFFFFFu);
  LR(TDIMM_SUB_SUB, I, 5, 7, 0xFFFFFFFEu);
  LR(TDIMM_SUB_MUL, I, 0x10000u, 0x10000u, 0);
  LR(TDIMM_SUB_MUL, I, 0xFFFFFFFDu, 5, 0xFFFFFFF1u); /* -3 * 5 = -15 */
  LR(TDIMM_SUB_MUL, I, 0x12345678u, 0x10u, 0x23456780u);
  LR(TDIMM_SUB_MUL, I, 0x80000000u, 0xFFFFFFFFu, 0x80000000u); /* INT32_MIN * -1 wraps */
  LR(TDIMM_SUB_MAX, I, 0xFFFFFFFFu, 1, 1);
  LR(TDIMM_SUB_MAX, I, 0x80000000u, 0x7FFFFFFFu, 0x7FFFFFFFu);
  LR(TDIMM_SUB_MIN, I, 0xFFFFFFFFu, 1, 0xFFFFFFFFu);
  LR(TDIMM_SUB_MIN, I, 0x80000000u, 0x7FFFFFFFu, 0x80000000u);
}

#define LA(t, want, ...)                                                                    \
  do {                                                                                      \
    const uint32_t v_[] = {__VA_ARGS__};                                                    \
    uint32_t got_ = tdimm_lane_average(t, v_, (unsigned)(sizeof v_ / sizeof v_[0]));        \
    CHECK(got_ == (uint32_t)(want), "average(%s) = 0x%08x, want 0x%08x", #__VA_ARGS__,      \
          (unsigned)got_, (unsigned)(want));                                                \
  } while (0)

static void test_lane_average(void) {
  const unsigned F = TDIMM_T_FP32, I = TDIMM_T_INT32;
  LA(I, 0xFFFFFFFDu, 0xFFFFFFFDu, 0xFFFFFFFCu); /* (-3 + -4) / 2 = -3 (toward zero) */
  LA(I, 3, 7, 0);                               /* 7 / 2 = 3 */
  LA(I, 0xFFFFFFFEu, 0xFFFFFFF9u, 0, 0);        /* -7 / 3 = -2 */
  LA(I, 0xFFFFFFFFu, 0xFFFFFFFBu, 0, 0);        /* -5 / 3 = -1 */
  LA(I, 0xFFFFFFFFu, 0xFFFFFFFBu, 0, 0, 0);     /* -5 / 4 = -1 */
  LA(I, 0xFFFFFFFBu, 0xFFFFFFFBu);              /* avg 1 */
  LA(I, 0x80000000u, 0x80000000u);              /* INT32_MIN / 1 */
  LA(I, 0xC0000000u, 0x7FFFFFFFu, 1);           /* sum wraps to INT32_MIN, / 2 */
  LA(I, 10, 10, 10, 10);
  LA(F, PZERO, NZERO);                          /* +0 + -0 = +0 */
  LA(F, PZERO, NZERO, NZERO);
  LA(F, F_1_5, F_1, F_2);
  LA(F, 0x3FAAAAABu, F_1, F_1, F_2);            /* 4/3 rounded to nearest */
  LA(F, QNAN, F_INF, F_NINF);
  LA(F, QNAN, 0xFFC12345u);                     /* NaN canonicalized */
  LA(F, F_INF, 0x7F7FFFFFu, 0x7F7FFFFFu);       /* sum overflows to inf, inf / 2 = inf */
  /* order: 0 + 1 + 2^24 = 2^24 (tie to even), - 2^24 = 0 -> 0 (not 1/3) */
  LA(F, PZERO, F_1, F_2P24, F_M2P24);
  LA(F, 0x3EAAAAABu, F_2P24, F_M2P24, F_1);      /* the other order: 1/3 */
  uint32_t v[65535];
  for (unsigned j = 0; j < 65535; j++) v[j] = 0xFFFFFFFFu; /* -1 */
  CHECK(tdimm_lane_average(I, v, 65535) == 0xFFFFFFFFu, "int32 average of 65535 x -1");
  for (unsigned j = 0; j < 65535; j++) v[j] = F_3;
  CHECK(tdimm_lane_average(F, v, 65535) == F_3, "fp32 average of 65535 x 3.0");
}

/* ================================================================ REDUCE on a node */
static void test_reduce(void) {
  tdimm_node_t *n = new_node(0, 10);
  tdimm_result_t res;
  /* int32 add, k = 1, count 5: in1 block q lane l = 16q + l, in2 = 1000q - l */
  for (unsigned q = 0; q < 5; q++) {
    set_blk(n, 0, 0x40 + q, 16 * q, 1);
    set_blk(n, 0, 0x80 + q, 1000 * q, (uint32_t)-1);
  }
  fill(n, 0, 0xc0, 6, SENT);
  tdimm_insn_t i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_INT32, 1, 0x40, 0x80, 0xc0, 5);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.err[0] == 0 && res.rows[0] == 5 &&
            res.node_err == 0 && res.err_mask[0] == 0 && res.err_mask[1] == 0,
        "reduce add ok");
  int bad = 0;
  for (unsigned q = 0; q < 5; q++)
    for (unsigned l = 0; l < 16; l++) bad += lane(n, 0, 0xc0 + q, l) != 1016 * q;
  CHECK(!bad, "reduce add int32 values (%d wrong)", bad);
  CHECK(all_lanes(n, 0, 0xc5, 1, SENT), "reduce: block after the output untouched");
  CHECK(lane(n, 0, 0x40 + 4, 15) == 16 * 4 + 15, "reduce: input unchanged");

  /* int32 sub with k = 2, count 3 (6 blocks): in1 - in2 = 16q + l - (1000q - l) */
  i = tdimm_enc_reduce(TDIMM_SUB_SUB, TDIMM_T_INT32, 2, 0x40, 0x80, 0x100, 3);
  for (unsigned q = 0; q < 6; q++) {
    set_blk(n, 0, 0x40 + q, 16 * q, 1);
    set_blk(n, 0, 0x80 + q, 1000 * q, (uint32_t)-1);
  }
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 3, "reduce sub k=2 ok, rows 3");
  bad = 0;
  for (unsigned q = 0; q < 6; q++)
    for (unsigned l = 0; l < 16; l++)
      bad += lane(n, 0, 0x100 + q, l) != (uint32_t)(16 * q + l) - (uint32_t)(1000 * q - l);
  CHECK(!bad, "reduce sub k=2 values (%d wrong)", bad);
  CHECK(lane(n, 0, 0x105, 3) == (uint32_t)-4914, "reduce sub k=2 one lane (83 - 4997): 0x%x",
        lane(n, 0, 0x105, 3));

  /* fp32 max, min, mul, sub on special values, one block: lanes hold pairs */
  static const uint32_t a[16] = {NZERO, PZERO, 0xFFC12345u, F_1, QNAN, F_M1, F_INF, F_1,
                                 0x00000001u, F_1_5, F_2, F_3, F_M4, PZERO, F_NINF, F_2};
  static const uint32_t b[16] = {PZERO, NZERO, F_2, 0x7F800001u, 0xFFC00000u, F_M2, F_NINF,
                                 F_1, 0x00000001u, F_2_25, F_M1, F_3, F_1_5, PZERO, F_M1, F_2};
  static const uint32_t want_max[16] = {PZERO, PZERO, F_2, F_1, QNAN, F_M1, F_INF, F_1,
                                        0x00000001u, F_2_25, F_2, F_3, F_1_5, PZERO, F_M1, F_2};
  static const uint32_t want_min[16] = {NZERO, NZERO, F_2, F_1, QNAN, F_M2, F_NINF, F_1,
                                        0x00000001u, F_1_5, F_M1, F_3, F_M4, PZERO, F_NINF, F_2};
  static const uint32_t want_add[16] = {PZERO, PZERO, QNAN, QNAN, QNAN, 0xC0400000u, QNAN, F_2,
                                        0x00000002u, F_3_75, F_1, 0x40C00000u, 0xC0200000u,
                                        PZERO, F_NINF, 0x40800000u};
  static const uint32_t want_mul[16] = {NZERO, NZERO, QNAN, QNAN, QNAN, F_2, F_NINF, F_1,
                                        PZERO, 0x40580000u, F_M2, 0x41100000u, F_M6, PZERO,
                                        F_INF, 0x40800000u};
  static const uint32_t want_sub[16] = {NZERO, PZERO, QNAN, QNAN, QNAN, F_1, F_INF, PZERO,
                                        PZERO, 0xBF400000u, F_3, PZERO, 0xC0B00000u, PZERO,
                                        0xFF800000u, PZERO};
  const uint32_t *wants[5] = {want_add, want_sub, want_mul, want_max, want_min};
  memcpy(tdimm_block(n, 0, 0x200), a, sizeof a);
  memcpy(tdimm_block(n, 0, 0x201), b, sizeof b);
  for (unsigned s = 0; s <= TDIMM_SUB_MIN; s++) {
    i = tdimm_enc_reduce(s, TDIMM_T_FP32, 1, 0x200, 0x201, 0x210 + s, 1);
    CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK, "fp32 reduce subop %u ok", s);
    for (unsigned l = 0; l < 16; l++)
      CHECK(lane(n, 0, 0x210 + s, l) == wants[s][l], "fp32 reduce subop %u lane %u: 0x%08x, want 0x%08x",
            s, l, lane(n, 0, 0x210 + s, l), wants[s][l]);
  }

  /* in place: out == in1 (mul by 2), then out == in2 (in1 - in2), then all three equal */
  for (unsigned q = 0; q < 4; q++) {
    set_blk(n, 0, 0x300 + q, 10 * q, 1);
    set_blk(n, 0, 0x310 + q, 2, 0);
  }
  i = tdimm_enc_reduce(TDIMM_SUB_MUL, TDIMM_T_INT32, 2, 0x300, 0x310, 0x300, 2);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 2, "in-place reduce (out = in1)");
  bad = 0;
  for (unsigned q = 0; q < 4; q++)
    for (unsigned l = 0; l < 16; l++) bad += lane(n, 0, 0x300 + q, l) != 2 * (10 * q + l);
  CHECK(!bad, "in-place reduce values (%d wrong)", bad);
  i = tdimm_enc_reduce(TDIMM_SUB_SUB, TDIMM_T_INT32, 1, 0x300, 0x310, 0x310, 4);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK, "in-place reduce (out = in2)");
  bad = 0;
  for (unsigned q = 0; q < 4; q++)
    for (unsigned l = 0; l < 16; l++) bad += lane(n, 0, 0x310 + q, l) != 2 * (10 * q + l) - 2;
  CHECK(!bad, "in-place reduce out = in2 values (%d wrong)", bad);
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_INT32, 1, 0x310, 0x310, 0x310, 4);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK && lane(n, 0, 0x313, 5) == 2 * (2 * 35 - 2),
        "in-place reduce, all three bases equal: %u", lane(n, 0, 0x313, 5));
  /* in1 and in2 may overlap each other (both are only read) */
  i = tdimm_enc_reduce(TDIMM_SUB_SUB, TDIMM_T_INT32, 1, 0x300, 0x301, 0x320, 3);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK && lane(n, 0, 0x322, 0) == (uint32_t)-20,
        "overlapping inputs: 0x%x", lane(n, 0, 0x322, 0));
  tdimm_node_free(n);
}

/* ================================================================ AVERAGE on a node */
static void test_average(void) {
  tdimm_node_t *n = new_node(0, 10);
  tdimm_result_t res;
  /* int32, k = 1, avg 2, count 2: out0 = (-(l+3) + -(l+4)) / 2 = -(l+3); out1 = (l + l+1)/2 = l */
  for (unsigned l = 0; l < 16; l++) {
    tdimm_block(n, 0, 0)[l] = (uint32_t)-(int32_t)(l + 3);
    tdimm_block(n, 0, 1)[l] = (uint32_t)-(int32_t)(l + 4);
    tdimm_block(n, 0, 2)[l] = l;
    tdimm_block(n, 0, 3)[l] = l + 1;
  }
  fill(n, 0, 0x40, 3, SENT);
  tdimm_insn_t i = tdimm_enc_average(TDIMM_T_INT32, 1, 0, 2, 0x40, 2);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 2, "average int32 ok");
  int bad = 0;
  for (unsigned l = 0; l < 16; l++)
    bad += lane(n, 0, 0x40, l) != (uint32_t)-(int32_t)(l + 3) || lane(n, 0, 0x41, l) != l;
  CHECK(!bad, "average int32 values (%d wrong)", bad);
  CHECK(lane(n, 0, 0x40, 4) == (uint32_t)-7, "-15/2 = -7: 0x%x", lane(n, 0, 0x40, 4));
  CHECK(all_lanes(n, 0, 0x42, 1, SENT), "average: block after the output untouched");

  /* fp32, k = 2, avg 3, count 2: input block b holds b; out[i*k+m] = mean_j (6i + 2j + m)
   * = 6i + m + 2 -> 2, 3, 8, 9 */
  for (unsigned b = 0; b < 12; b++) fill(n, 0, 0x100 + b, 1, fint(b));
  i = tdimm_enc_average(TDIMM_T_FP32, 2, 0x100, 3, 0x140, 2);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 2, "average fp32 k=2 ok");
  CHECK(all_lanes(n, 0, 0x140, 1, fint(2)) && all_lanes(n, 0, 0x141, 1, fint(3)) &&
            all_lanes(n, 0, 0x142, 1, fint(8)) && all_lanes(n, 0, 0x143, 1, fint(9)),
        "average fp32 k=2 values 0x%x 0x%x 0x%x 0x%x", lane(n, 0, 0x140, 0), lane(n, 0, 0x141, 0),
        lane(n, 0, 0x142, 0), lane(n, 0, 0x143, 0));

  /* averageNum 1: a copy, except -0 -> +0 and NaNs canonical */
  uint32_t *p = tdimm_block(n, 0, 0x180);
  for (unsigned l = 0; l < 16; l++) p[l] = fint(l);
  p[0] = NZERO;
  p[1] = 0xFFC12345u;
  p[2] = F_3_5;
  p[3] = 0x00000001u;
  p[4] = F_NINF;
  i = tdimm_enc_average(TDIMM_T_FP32, 1, 0x180, 1, 0x190, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK, "average avg 1 ok");
  CHECK(lane(n, 0, 0x190, 0) == PZERO && lane(n, 0, 0x190, 1) == QNAN &&
            lane(n, 0, 0x190, 2) == F_3_5 && lane(n, 0, 0x190, 3) == 0x00000001u &&
            lane(n, 0, 0x190, 4) == F_NINF && lane(n, 0, 0x190, 15) == fint(15),
        "average avg 1: 0x%x 0x%x 0x%x", lane(n, 0, 0x190, 0), lane(n, 0, 0x190, 1),
        lane(n, 0, 0x190, 2));
  i = tdimm_enc_average(TDIMM_T_INT32, 1, 0x180, 1, 0x191, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK && lane(n, 0, 0x191, 0) == NZERO &&
            lane(n, 0, 0x191, 1) == 0xFFC12345u,
        "average int32 avg 1 is a copy");

  /* in place, int32 k = 1, avg 2, count 3: blocks b = 10b + l -> 5, 25, 45 (+ l); 3..5 kept */
  for (unsigned b = 0; b < 6; b++) set_blk(n, 0, 0x200 + b, 10 * b, 1);
  i = tdimm_enc_average(TDIMM_T_INT32, 1, 0x200, 2, 0x200, 3);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 3, "in-place average ok");
  bad = 0;
  static const uint32_t want_ip[6] = {5, 25, 45, 30, 40, 50};
  for (unsigned b = 0; b < 6; b++)
    for (unsigned l = 0; l < 16; l++) bad += lane(n, 0, 0x200 + b, l) != want_ip[b] + l;
  CHECK(!bad, "in-place average values (%d wrong)", bad);
  /* in place, k = 2, avg 3, count 2, fp32: same as the k = 2 case above */
  for (unsigned b = 0; b < 12; b++) fill(n, 0, 0x220 + b, 1, fint(b));
  i = tdimm_enc_average(TDIMM_T_FP32, 2, 0x220, 3, 0x220, 2);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK && all_lanes(n, 0, 0x220, 1, fint(2)) &&
            all_lanes(n, 0, 0x221, 1, fint(3)) && all_lanes(n, 0, 0x222, 1, fint(8)) &&
            all_lanes(n, 0, 0x223, 1, fint(9)) && all_lanes(n, 0, 0x224, 1, fint(4)) &&
            all_lanes(n, 0, 0x22B, 1, fint(11)),
        "in-place average k=2");
  tdimm_node_free(n);
}

/* ================================================================ GATHER on a node */
static void test_gather(void) {
  tdimm_node_t *n = new_node(0, 12);
  tdimm_result_t res;
  /* k = 1, count 20: table at 0x100 (block 0x100 + x holds 100x + l), indices x_r = 7r mod 50
   * in blocks 0x10, 0x11 (lanes 4..15 of 0x11 hold garbage that is never used) */
  for (unsigned x = 0; x < 50; x++) set_blk(n, 0, 0x100 + x, 100 * x, 1);
  fill(n, 0, 0x10, 2, 0xFFFFFFFFu);
  for (unsigned r = 0; r < 20; r++) tdimm_block(n, 0, 0x10 + r / 16)[r % 16] = (7 * r) % 50;
  fill(n, 0, 0x200, 21, SENT);
  tdimm_insn_t i = tdimm_enc_gather(TDIMM_T_FP32, 1, 0x100, 0x10, 0x200, 20);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 20, "gather k=1 ok (%s, rows %u)",
        tdimm_err_name(res.node_err), (unsigned)res.rows[0]);
  int bad = 0;
  for (unsigned r = 0; r < 20; r++)
    for (unsigned l = 0; l < 16; l++) bad += lane(n, 0, 0x200 + r, l) != 100 * ((7 * r) % 50) + l;
  CHECK(!bad, "gather k=1 values (%d wrong)", bad);
  CHECK(lane(n, 0, 0x200 + 19, 0) == 100 * 33, "row 19 = table row 33");
  CHECK(all_lanes(n, 0, 0x214, 1, SENT), "gather: block after the output untouched");

  /* k = 3, count 5, int32 type (a bit copy): table at 0x400, block 0x400 + b holds b*16 + l;
   * indices 4, 0, 9, 4, 1 */
  for (unsigned b = 0; b < 30; b++) set_blk(n, 0, 0x400 + b, 16 * b, 1);
  static const uint32_t ix[5] = {4, 0, 9, 4, 1};
  for (unsigned r = 0; r < 5; r++) tdimm_block(n, 0, 0x20)[r] = ix[r];
  i = tdimm_enc_gather(TDIMM_T_INT32, 3, 0x400, 0x20, 0x500, 5);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 5, "gather k=3 ok");
  bad = 0;
  for (unsigned r = 0; r < 5; r++)
    for (unsigned m = 0; m < 3; m++)
      for (unsigned l = 0; l < 16; l++)
        bad += lane(n, 0, 0x500 + 3 * r + m, l) != 16 * (3 * ix[r] + m) + l;
  CHECK(!bad, "gather k=3 values (%d wrong)", bad);
  CHECK(lane(n, 0, 0x500 + 3 * 2 + 2, 1) == 16 * 29 + 1, "gather k=3 row 2 block 2");

  /* count 33 crosses three index blocks; NaN payloads are copied bit for bit */
  for (unsigned r = 0; r < 48; r++) tdimm_block(n, 0, 0x30 + r / 16)[r % 16] = r % 3;
  set_blk(n, 0, 0x600, 0xFFC12345u, 0);
  set_blk(n, 0, 0x601, NZERO, 0);
  set_blk(n, 0, 0x602, 0x7F800001u, 0);
  i = tdimm_enc_gather(TDIMM_T_FP32, 1, 0x600, 0x30, 0x700, 33);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 33 &&
            all_lanes(n, 0, 0x700 + 30, 1, 0xFFC12345u) &&
            all_lanes(n, 0, 0x700 + 31, 1, NZERO) && all_lanes(n, 0, 0x700 + 32, 1, 0x7F800001u),
        "gather count 33: bit copies");
  /* table overlapping the index list is fine (only read) */
  fill(n, 0, 0x800, 1, 0);
  tdimm_block(n, 0, 0x800)[0] = 0;
  tdimm_block(n, 0, 0x800)[1] = 0;
  i = tdimm_enc_gather(TDIMM_T_FP32, 1, 0x800, 0x800, 0x810, 2);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_OK && lane(n, 0, 0x811, 0) == 0,
        "gather table = index list");
  tdimm_node_free(n);
}

/* ================================================================ errors */
static void expect_err(tdimm_node_t *n, const tdimm_insn_t *i, unsigned want, uint32_t want_rows,
                       const char *what) {
  tdimm_result_t res;
  unsigned e = tdimm_exec(n, i, &res);
  CHECK(e == want && res.err[0] == want && res.rows[0] == want_rows &&
            res.err_mask[0] == (want ? 1u : 0u),
        "%s: got %s rows %u, want %s rows %u", what, tdimm_err_name(e), (unsigned)res.rows[0],
        tdimm_err_name(want), (unsigned)want_rows);
  unsigned d = tdimm_decode_check(tdimm_node_cfg(n), 0, i);
  CHECK(d == want, "%s: decode check %s", what, tdimm_err_name(d));
}

static void test_errors(void) {
  tdimm_cfg_t cfg;
  tdimm_cfg_default(&cfg, 0, 10);
  cfg.core[0].win_base = 0x100;
  cfg.core[0].win_limit = 0x300;
  tdimm_node_t *n = new_node_cfg(&cfg);
  tdimm_insn_t i;
  const unsigned F = TDIMM_T_FP32, I = TDIMM_T_INT32;
  fill(n, 0, 0x100, 0x200, SENT);

  /* OPCODE */
  i = tdimm_enc(0, 0, 0, 1, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_OPCODE, 0, "op 0");
  i = tdimm_enc(4, 0, 0, 1, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_OPCODE, 0, "op 4");
  i = tdimm_enc(15, 9, 3, 0, 0x101, 0, 0, 1u << 24); /* everything else wrong too */
  i.w[0] |= 0xFF00FC00u;
  expect_err(n, &i, TDIMM_E_OPCODE, 0, "op 15 before every other error");
  /* SUBOP */
  i = tdimm_enc(TDIMM_OP_REDUCE, 5, 0, 1, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_SUBOP, 0, "reduce subop 5");
  i = tdimm_enc(TDIMM_OP_REDUCE, 15, 0, 1, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_SUBOP, 0, "reduce subop 15");
  i = tdimm_enc(TDIMM_OP_GATHER, 1, 0, 1, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_SUBOP, 0, "gather subop 1");
  i = tdimm_enc(TDIMM_OP_AVERAGE, 3, 0, 1, 0x100, 1, 0x120, 1);
  expect_err(n, &i, TDIMM_E_SUBOP, 0, "average subop 3");
  i = tdimm_enc(TDIMM_OP_REDUCE, 6, 2, 0, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_SUBOP, 0, "subop before type and field");
  /* TYPE */
  i = tdimm_enc(TDIMM_OP_REDUCE, 4, 2, 1, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_TYPE, 0, "type 2");
  i = tdimm_enc(TDIMM_OP_GATHER, 0, 3, 0, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_TYPE, 0, "type 3 before field (k 0)");
  /* FIELD */
  static const uint32_t rsvd_bits[] = {1u << 10, 1u << 15, 1u << 24, 1u << 31};
  for (unsigned b = 0; b < 4; b++) {
    i = tdimm_enc_reduce(TDIMM_SUB_ADD, F, 1, 0x100, 0x110, 0x120, 1);
    i.w[0] |= rsvd_bits[b];
    expect_err(n, &i, TDIMM_E_FIELD, 0, "reserved bit");
  }
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, F, 0, 0x100, 0x110, 0x120, 1);
  expect_err(n, &i, TDIMM_E_FIELD, 0, "k 0");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, F, 1, 0x100, 0x110, 0x120, 1u << 24);
  expect_err(n, &i, TDIMM_E_FIELD, 0, "count 2^24");
  i = tdimm_enc_gather(F, 1, 0x100, 0x110, 0x120, 0xFFFFFFFFu);
  expect_err(n, &i, TDIMM_E_FIELD, 0, "count 2^32-1");
  i = tdimm_enc_average(F, 0, 0x100, 0, 0x120, 1);
  expect_err(n, &i, TDIMM_E_FIELD, 0, "field before avgnum");
  /* AVGNUM */
  i = tdimm_enc_average(F, 1, 0x100, 0, 0x120, 1);
  expect_err(n, &i, TDIMM_E_AVGNUM, 0, "averageNum 0");
  i = tdimm_enc_average(I, 1, 0x100, 0x10000, 0x120, 1);
  expect_err(n, &i, TDIMM_E_AVGNUM, 0, "averageNum 2^16");
  i = tdimm_enc_average(I, 1, 0x100, 0x10000, 0x120, 0);
  expect_err(n, &i, TDIMM_E_AVGNUM, 0, "averageNum 2^16 with count 0");
  i = tdimm_enc_average(I, 1, 0x100, 0xFFFF, 0x120, 0);
  expect_err(n, &i, TDIMM_OK, 0, "averageNum 65535, count 0");

  /* CAPACITY (2^10 blocks): end beyond 1024; end == 1024 is in range */
  tdimm_node_t *big = new_node(0, 10);
  fill(big, 0, 0x3F0, 16, SENT);
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x3FC, 0x3F0, 0x3F8, 4);
  expect_err(big, &i, TDIMM_OK, 4, "range ending at capacity");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x3FD, 0x3F0, 0x3F4, 4);
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "reduce in1 past capacity");
  CHECK(all_lanes(big, 0, 0x3F4, 4, SENT), "capacity error: output untouched");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x3F0, 0x3F0, 0x3FD, 4);
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "reduce out past capacity");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x3F0, 0xFFFFFFF0u, 0x3F4, 1);
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "reduce in2 far past capacity");
  i = tdimm_enc_average(I, 255, 0, 0xFFFF, 0x3F0, 1);
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "average input range avg*k past capacity");
  i = tdimm_enc_average(I, 255, 0, 0xFFFF, 0x3F0, 0xFFFFFF);
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "average huge ranges (no overflow)");
  i = tdimm_enc_gather(F, 1, 0, 0x3F8, 0x300, 0x81); /* index list [0x3F8, 0x401) */
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "gather index list past capacity");
  i = tdimm_enc_gather(F, 1, 0, 0x3F8, 0x300, 0x80); /* index list [0x3F8, 0x400) */
  CHECK(tdimm_decode_check(tdimm_node_cfg(big), 0, &i) == TDIMM_OK,
        "gather index list ending at capacity passes");
  i = tdimm_enc_gather(F, 1, 0, 0x300, 0x3F8, 9); /* out [0x3F8, 0x401) */
  expect_err(big, &i, TDIMM_E_CAPACITY, 0, "gather output past capacity");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x3FD, 0x3F0, 0x3F4, 0);
  expect_err(big, &i, TDIMM_OK, 0, "capacity not checked with count 0");
  tdimm_node_free(big);

  /* WINDOW [0x100, 0x300) */
  fill(n, 0, 0x2F0, 16, SENT);
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x100, 0x110, 0x2FC, 4);
  expect_err(n, &i, TDIMM_OK, 4, "output ending at win_limit");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x100, 0x110, 0x2FD, 4);
  expect_err(n, &i, TDIMM_E_WINDOW, 0, "output past win_limit");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0xFF, 0x110, 0x2F0, 4);
  expect_err(n, &i, TDIMM_E_WINDOW, 0, "in1 below win_base");
  CHECK(all_lanes(n, 0, 0x2F0, 4, SENT), "window error: output untouched");
  i = tdimm_enc_average(F, 2, 0x200, 0x100, 0x2F0, 1);
  expect_err(n, &i, TDIMM_E_WINDOW, 0, "average input past win_limit");
  i = tdimm_enc_gather(F, 1, 0, 0x80, 0x2F0, 1);
  expect_err(n, &i, TDIMM_E_WINDOW, 0, "gather index list below win_base");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x3FD, 0x110, 0x2F0, 4);
  expect_err(n, &i, TDIMM_E_CAPACITY, 0, "capacity before window");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x80, 0x80, 0x80, 4);
  expect_err(n, &i, TDIMM_E_WINDOW, 0, "window before overlap/in place");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x80, 0x120, 0x121, 4);
  expect_err(n, &i, TDIMM_E_WINDOW, 0, "window before overlap");

  /* OVERLAP */
  fill(n, 0, 0x200, 16, SENT);
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x200, 0x280, 0x201, 4);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "reduce out = in1 + 1");
  CHECK(all_lanes(n, 0, 0x200, 16, SENT), "overlap error: nothing written");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x280, 0x203, 0x200, 4);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "reduce in2 inside out");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x280, 0x204, 0x200, 4);
  expect_err(n, &i, TDIMM_OK, 4, "reduce in2 right after out");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 2, 0x200, 0x280, 0x200, 2);
  expect_err(n, &i, TDIMM_OK, 2, "reduce in place");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 2, 0x200, 0x1FF, 0x200, 2);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "reduce in place on in1 but in2 overlaps");
  i = tdimm_enc_average(I, 1, 0x200, 2, 0x201, 2);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "average out = in + 1");
  i = tdimm_enc_average(I, 1, 0x201, 2, 0x200, 2);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "average out = in - 1");
  i = tdimm_enc_average(I, 2, 0x200, 3, 0x200, 2);
  expect_err(n, &i, TDIMM_OK, 2, "average in place");
  i = tdimm_enc_gather(F, 1, 0x100, 0x200, 0x200, 1);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "gather out = index list (equal starts)");
  i = tdimm_enc_gather(F, 1, 0x100, 0x210, 0x200, 17);
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "gather index list inside out");
  i = tdimm_enc_gather(F, 2, 0x100, 0x200, 0x1F0, 9); /* out [0x1F0, 0x202) */
  expect_err(n, &i, TDIMM_E_OVERLAP, 0, "gather out reaching the index list");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x200, 0x280, 0x201, 0);
  expect_err(n, &i, TDIMM_OK, 0, "overlap not checked with count 0");
  tdimm_node_free(n);

  /* ALIGN (nodeDim 4) */
  n = new_node(2, 10);
  tdimm_result_t res;
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x41, 0x80, 0xC0, 1);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_E_ALIGN && res.err_mask[0] == 0xF, "align in1");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x40, 0x82, 0xC0, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_ALIGN, "align in2");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x40, 0x80, 0xC3, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_ALIGN, "align out");
  i = tdimm_enc_gather(F, 1, 0x42, 0x80, 0xC0, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_ALIGN, "align table");
  i = tdimm_enc_gather(F, 1, 0x40, 0x81, 0xC0, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_ALIGN, "align index list");
  i = tdimm_enc_average(F, 1, 0x40, 3, 0xC0, 1); /* averageNum is not an address */
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[3] == 1, "average: odd averageNum ok");
  i = tdimm_enc_average(F, 1, 0x40, 0, 0xC1, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_AVGNUM, "avgnum before align");
  i = tdimm_enc_average(F, 1, 0x42, 2, 0xC0, 0);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_E_ALIGN && res.rows[0] == 0, "align with count 0");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, I, 1, 0x41, 0x41, 0x41, 100000);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_ALIGN, "align before capacity");
  tdimm_node_free(n);

  /* GATHER row errors: k = 2, table T = 0x80, index list 0x1F0, out [0x200, 0x214) (count 10),
   * window [0x100, 0x300), capacity 0x400.  Good rows X = 0x40 + r lie in [0x100, 0x180) and
   * table block b holds 16b + l.  Row r uses blocks [0x80 + 2X, 0x82 + 2X). */
  tdimm_cfg_default(&cfg, 0, 10);
  cfg.core[0].win_base = 0x100;
  cfg.core[0].win_limit = 0x300;
  n = new_node_cfg(&cfg);
  for (unsigned b = 0x100; b < 0x200; b++) set_blk(n, 0, b, 16 * b, 1);
  static const struct {
    uint32_t x;
    unsigned r, want;
    const char *what;
  } rc[] = {
      {0x0, 0, TDIMM_E_WINDOW, "row 0 below win_base"},
      {0x140, 4, TDIMM_E_WINDOW, "row starting at win_limit"},
      {0x13F, 4, TDIMM_OK, "row ending at win_limit"},
      {0x1BF, 6, TDIMM_E_WINDOW, "row ending at capacity, outside the window"},
      {0x1C0, 6, TDIMM_E_CAPACITY, "row past capacity (and window): capacity first"},
      {0xFFFFFFFFu, 9, TDIMM_E_CAPACITY, "index 2^32-1 at the last row (no overflow)"},
      {0x7FFFFFFFu, 3, TDIMM_E_CAPACITY, "index 2^31-1"},
      {0xC0, 7, TDIMM_E_OVERLAP, "row at the output's first block"},
      {0xC9, 2, TDIMM_E_OVERLAP, "row at the output's last row"},
      {0xCA, 2, TDIMM_OK, "row right after the output"},
      {0xBF, 5, TDIMM_OK, "row right before the output"},
  };
  for (unsigned t = 0; t < sizeof rc / sizeof rc[0]; t++) {
    fill(n, 0, 0x200, 0x14, SENT);
    fill(n, 0, 0x214, 1, SENT);
    uint32_t *ib = tdimm_block(n, 0, 0x1F0);
    for (unsigned r = 0; r < 16; r++) ib[r] = 0x40 + r;
    ib[rc[t].r] = rc[t].x;
    i = tdimm_enc_gather(I, 2, 0x80, 0x1F0, 0x200, 10);
    tdimm_result_t res;
    unsigned e = tdimm_exec(n, &i, &res);
    const uint32_t want_rows = rc[t].want ? rc[t].r : 10;
    CHECK(e == rc[t].want && res.err[0] == rc[t].want && res.rows[0] == want_rows &&
              res.err_mask[0] == (rc[t].want ? 1u : 0u),
          "gather row error (%s): got %s rows %u, want %s rows %u", rc[t].what, tdimm_err_name(e),
          (unsigned)res.rows[0], tdimm_err_name(rc[t].want), (unsigned)want_rows);
    CHECK(tdimm_decode_check(&cfg, 0, &i) == TDIMM_OK, "gather row error (%s): decode ok",
          rc[t].what);
    int bad = 0;
    for (unsigned r = 0; r < want_rows; r++) {
      if (r == rc[t].r) continue; /* an OK special row: its table blocks are checked below */
      for (unsigned m = 0; m < 2; m++)
        for (unsigned l = 0; l < 16; l++)
          bad += lane(n, 0, 0x200 + 2 * r + m, l) != 16 * (0x80 + 2 * (0x40 + r) + m) + l;
    }
    CHECK(!bad, "gather row error (%s): rows before written (%d wrong)", rc[t].what, bad);
    CHECK(all_lanes(n, 0, 0x200 + 2 * want_rows, 2 * (10 - want_rows) + 1, SENT),
          "gather row error (%s): rows %u.. untouched", rc[t].what, (unsigned)want_rows);
    if (rc[t].want == TDIMM_OK) {
      const uint64_t src = 0x80 + 2ull * rc[t].x;
      int same = 1;
      for (unsigned m = 0; m < 2; m++)
        for (unsigned l = 0; l < 16; l++)
          same &= lane(n, 0, 0x200 + 2 * rc[t].r + m, l) == lane(n, 0, src + m, l);
      CHECK(same, "gather (%s): the special row copied", rc[t].what);
    }
  }
  /* the cores' rows-done with exec_core directly */
  uint32_t rows = 77;
  tdimm_block(n, 0, 0x1F0)[3] = 0xC0;
  CHECK(tdimm_exec_core(n, 0, &i, &rows) == TDIMM_E_OVERLAP && rows == 3, "exec_core rows %u",
        (unsigned)rows);
  CHECK(tdimm_exec_core(n, 0, &i, NULL) == TDIMM_E_OVERLAP, "exec_core rows NULL");
  CHECK(tdimm_exec_core(n, 1, &i, &rows) == TDIMM_E_BADCALL && rows == 0, "exec_core bad core");
  CHECK(tdimm_decode_check(&cfg, 1, &i) == TDIMM_E_BADCALL, "decode_check bad core");
  tdimm_node_free(n);
}

/* ================================================================ multi-core node */
static void test_multicore(void) {
  /* nodeDim 4, 2^8 blocks per core; core 1's window [0, 0x20) excludes the outputs */
  tdimm_cfg_t cfg;
  tdimm_cfg_default(&cfg, 2, 8);
  cfg.core[1].win_limit = 0x20;
  tdimm_node_t *n = new_node_cfg(&cfg);
  CHECK(tdimm_node_cfg(n)->core[1].win_limit == 0x20 && tdimm_node_cfg(n)->core[3].tid == 3 &&
            tdimm_node_cfg(n)->core[2].win_limit == 256,
        "cfg copied");
  CHECK(tdimm_gblock(n, 0x41) == tdimm_block(n, 1, 0x10) && tdimm_gblock(n, 0x3FF) ==
            tdimm_block(n, 3, 0xFF) && tdimm_gblock(n, 0x400) == NULL &&
            tdimm_block(n, 4, 0) == NULL && tdimm_block(n, 0, 0x100) == NULL,
        "global to local mapping");
  /* GATHER k = 1, count 4: table at global 0x40 (local 0x10), index list global 0x20 (local 8,
   * replicated), out global 0x100 (local 0x40).  Core c's table row x holds 1000c + 10x + l.
   * Core 3's index list has a bad index at row 2 (past capacity). */
  for (unsigned c = 0; c < 4; c++) {
    for (unsigned x = 0; x < 8; x++) set_blk(n, c, 0x10 + x, 1000 * c + 10 * x, 1);
    uint32_t *ib = tdimm_gblock(n, 0x20 + c);
    static const uint32_t ix[4] = {3, 7, 0, 3};
    for (unsigned r = 0; r < 4; r++) ib[r] = ix[r];
    fill(n, c, 0x40, 5, SENT);
  }
  tdimm_gblock(n, 0x20 + 3)[2] = 0x100;
  tdimm_insn_t i = tdimm_enc_gather(TDIMM_T_FP32, 1, 0x40, 0x20, 0x100, 4);
  tdimm_result_t res;
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_E_WINDOW && res.node_err == TDIMM_E_WINDOW &&
            res.err_mask[0] == 0xA && res.err_mask[1] == 0,
        "node: err %s mask 0x%llx", tdimm_err_name(res.node_err), (ull)res.err_mask[0]);
  CHECK(res.err[0] == 0 && res.rows[0] == 4 && res.err[1] == TDIMM_E_WINDOW && res.rows[1] == 0 &&
            res.err[2] == 0 && res.rows[2] == 4 && res.err[3] == TDIMM_E_CAPACITY &&
            res.rows[3] == 2,
        "per core: %s/%u %s/%u %s/%u %s/%u", tdimm_err_name(res.err[0]), (unsigned)res.rows[0],
        tdimm_err_name(res.err[1]), (unsigned)res.rows[1], tdimm_err_name(res.err[2]),
        (unsigned)res.rows[2], tdimm_err_name(res.err[3]), (unsigned)res.rows[3]);
  /* outputs: global out block 0x100 + 4r + c */
  static const uint32_t ix[4] = {3, 7, 0, 3};
  int bad = 0;
  for (unsigned r = 0; r < 4; r++)
    for (unsigned l = 0; l < 16; l++) {
      bad += tdimm_gblock(n, 0x100 + 4 * r + 0)[l] != 10 * ix[r] + l;
      bad += tdimm_gblock(n, 0x100 + 4 * r + 2)[l] != 2000 + 10 * ix[r] + l;
      bad += tdimm_gblock(n, 0x100 + 4 * r + 1)[l] != SENT;
      bad += tdimm_gblock(n, 0x100 + 4 * r + 3)[l] != (r < 2 ? 3000 + 10 * ix[r] + l : SENT);
    }
  CHECK(!bad, "multi-core gather outputs (%d wrong)", bad);
  CHECK(tdimm_exec_core(n, 2, &i, NULL) == TDIMM_OK, "core 2 alone");

  /* cores 2 and 3 fail with OVERLAP at different rows (table rows x = 0x30, 0x31 are local
   * blocks 0x40, 0x41: the output); core 1's window now admits everything */
  cfg.core[1].win_limit = 0x100;
  tdimm_node_free(n);
  n = new_node_cfg(&cfg);
  for (unsigned c = 0; c < 4; c++) {
    uint32_t *ib = tdimm_gblock(n, 0x20 + c);
    for (unsigned r = 0; r < 4; r++) ib[r] = r;
  }
  tdimm_gblock(n, 0x20 + 3)[1] = 0x30;
  tdimm_gblock(n, 0x20 + 2)[3] = 0x31;
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_E_OVERLAP && res.err_mask[0] == 0xC &&
            res.rows[3] == 1 && res.rows[2] == 3 && res.rows[0] == 4,
        "node: cores 2, 3 overlap: mask 0x%llx", (ull)res.err_mask[0]);

  /* REDUCE over global addresses: in1 global 0x40 + 4q + c, in2 0x80 + ..., out 0xC0 + ... */
  for (unsigned q = 0; q < 3; q++)
    for (unsigned c = 0; c < 4; c++) {
      fill(n, c, 0x10 + q, 1, 100 * c + q);
      fill(n, c, 0x20 + q, 1, 7);
    }
  i = tdimm_enc_reduce(TDIMM_SUB_MUL, TDIMM_T_INT32, 1, 0x40, 0x80, 0xC0, 3);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.err_mask[0] == 0 && res.rows[1] == 3,
        "node reduce ok");
  bad = 0;
  for (unsigned g = 0xC0; g < 0xCC; g++)
    bad += tdimm_gblock(n, g)[9] != 7 * (100 * (g & 3) + ((g - 0xC0) >> 2));
  CHECK(!bad, "node reduce values (%d wrong)", bad);
  CHECK(tdimm_exec_core(n, 4, &i, NULL) == TDIMM_E_BADCALL, "core 4 of 4");
  tdimm_node_free(n);

  /* 128 cores: the error mask's second word */
  tdimm_cfg_default(&cfg, 7, 4);
  cfg.core[100].win_base = 1;
  cfg.core[127].win_base = 1;
  n = new_node_cfg(&cfg);
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_FP32, 1, 0, 0, 0, 1);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_E_WINDOW && res.err_mask[0] == 0 &&
            res.err_mask[1] == (1ull << 36 | 1ull << 63) && res.err[100] == TDIMM_E_WINDOW &&
            res.err[99] == 0,
        "128 cores: mask 0x%llx 0x%llx", (ull)res.err_mask[1], (ull)res.err_mask[0]);
  tdimm_node_free(n);
}

/* ================================================================ DRAM mapping */
static void test_map(void) {
  /* hand cases, ColLoW 1, RankW 1: | row | rank | bank 2 | col_hi 6 | bg 2 | col_lo 1 | */
  tdimm_dram_addr_t a = tdimm_map(1, 1, 1);
  CHECK(a.col == 1 && a.bg == 0 && a.bank == 0 && a.rank == 0 && a.row == 0, "map 1");
  a = tdimm_map(2, 1, 1);
  CHECK(a.col == 0 && a.bg == 1, "map 2 -> bg 1");
  a = tdimm_map(8, 1, 1);
  CHECK(a.col == 2 && a.bg == 0 && a.bank == 0, "map 8 -> col 2");
  a = tdimm_map(512, 1, 1);
  CHECK(a.bank == 1 && a.bg == 0 && a.col == 0, "map 512 -> bank 1");
  a = tdimm_map(2048, 1, 1);
  CHECK(a.rank == 1 && a.bank == 0 && a.col == 0, "map 2048 -> rank 1");
  a = tdimm_map(4096 * 5 + 4095, 1, 1);
  CHECK(a.row == 5 && a.col == 127 && a.rank == 1 && a.bank == 3 && a.bg == 3, "map all ones");
  a = tdimm_map(2048, 1, 0);
  CHECK(a.row == 1 && a.col == 0, "rank_w 0: row at bit 11");
  a = tdimm_map(0x7FFFFFF, 1, 2);
  CHECK(a.row == 0x3FFF && a.rank == 3 && a.col == 127, "rank_w 2, 2^27-1: row at bit 13");
  a = tdimm_map(0x25A, 0, 0); /* 0b10_0101_1010: bg 2, col 0b10110 = 22, bank 1 */
  CHECK(a.bg == 2 && a.bank == 1 && a.col == 22 && a.rank == 0, "col_lo_w 0");
  a = tdimm_map(0x5A, 7, 0); /* col_lo 0x5A, then bg at bits 7..8, bank at 9..10 */
  CHECK(a.col == 0x5A && a.bg == 0 && a.bank == 0 && a.row == 0 && tdimm_map(0x80, 7, 0).bg == 1 &&
            tdimm_map(0x200, 7, 0).bank == 1 && tdimm_map(1u << 11, 7, 0).row == 1,
        "col_lo_w 7");
  /* round trips for every width */
  cutil_rng_t rng = cutil_rng_seed(1);
  int bad = 0;
  for (unsigned clw = 0; clw <= 7; clw++)
    for (unsigned rw = 0; rw <= 2; rw++)
      for (unsigned t = 0; t < 2000; t++) {
        uint64_t b = cutil_rng_next(&rng) & ((1ull << 27) - 1);
        if (t < 16) b = t == 15 ? (1ull << 27) - 1 : t;
        tdimm_dram_addr_t d = tdimm_map(b, clw, rw);
        bad += tdimm_unmap(d, clw, rw) != b;
        bad += d.col > 127 || d.bg > 3 || d.bank > 3 || d.rank >= (1u << rw);
        bad += (d.col & ((1u << clw) - 1)) != (b & ((1u << clw) - 1));
        bad += d.row != (b >> (11 + rw));
        tdimm_dram_addr_t e = {(unsigned)(cutil_rng_next(&rng) & ((1u << rw) - 1)),
                               (unsigned)(cutil_rng_next(&rng) & 3),
                               (unsigned)(cutil_rng_next(&rng) & 3),
                               (unsigned)(cutil_rng_next(&rng) & 0xFFFF),
                               (unsigned)(cutil_rng_next(&rng) & 127)};
        tdimm_dram_addr_t f = tdimm_map(tdimm_unmap(e, clw, rw), clw, rw);
        bad += f.rank != e.rank || f.bg != e.bg || f.bank != e.bank || f.row != e.row ||
               f.col != e.col;
      }
  CHECK(!bad, "map/unmap round trips (%d wrong)", bad);
  /* sequential blocks: 2^ColLoW in one bank, then the next bank group; after 4 groups the next
     columns of the same rows (512 blocks = 4 rows of 128 columns in one bank of each group), then
     the next bank, then the next rank */
  CHECK(tdimm_map(0, 2, 1).bg == 0 && tdimm_map(3, 2, 1).bg == 0 && tdimm_map(4, 2, 1).bg == 1 &&
            tdimm_map(16, 2, 1).col == 4 && tdimm_map(16, 2, 1).bank == 0 &&
            tdimm_map(511, 2, 1).bank == 0 && tdimm_map(512, 2, 1).bank == 1 &&
            tdimm_map(2048, 2, 1).rank == 1 && tdimm_map(4096, 2, 1).row == 1,
        "sequential order");
}

/* ================================================================ sparse storage */
static void test_sparse(void) {
  tdimm_cfg_t cfg;
  tdimm_cfg_default(&cfg, 0, 27);
  CHECK(cfg.core[0].win_base == 0 && cfg.core[0].win_limit == (1ull << 27) &&
            cfg.core[5].tid == 5 && cfg.core[127].win_limit == (1ull << 27),
        "cfg default");
  tdimm_node_t *n = new_node_cfg(&cfg);
  const uint64_t last = (1ull << 27) - 1;
  CHECK(tdimm_node_chunks(n) == 0, "fresh node holds no chunk");
  CHECK(tdimm_block(n, 0, last + 1) == NULL && tdimm_gblock(n, last + 1) == NULL,
        "block 2^27 out of range");
  uint32_t *p = tdimm_block(n, 0, last);
  CHECK(p != NULL && p[15] == 0 && tdimm_node_chunks(n) == 1, "last block: one chunk");
  set_blk(n, 0, last, 100, 1);
  tdimm_insn_t i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_INT32, 1, (uint32_t)last,
                                    (uint32_t)last, (uint32_t)last, 1);
  tdimm_result_t res;
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && lane(n, 0, last, 15) == 230,
        "in-place reduce on the last block: %u", lane(n, 0, last, 15));
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_INT32, 1, (uint32_t)last, (uint32_t)last,
                       (uint32_t)last, 2);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_CAPACITY, "two blocks from the last: capacity");
  i = tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_INT32, 1, 0, 0xFFFFFFF0u, 0x100, 1);
  CHECK(tdimm_exec(n, &i, NULL) == TDIMM_E_CAPACITY, "32-bit base beyond 2^27: capacity");
  /* reads of untouched memory read zeros and allocate nothing; the output allocates its chunk */
  i = tdimm_enc_reduce(TDIMM_SUB_SUB, TDIMM_T_INT32, 4, 0x10000, 0x4000000, 0x7000000, 64);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 64 &&
            tdimm_node_chunks(n) == 1 + 256 / 16, /* chunks of 16 blocks */
        "untouched reads allocate nothing (%zu chunks)", tdimm_node_chunks(n));
  CHECK(all_lanes(n, 0, 0x7000000, 256, 0), "zeros written");
  i = tdimm_enc_gather(TDIMM_T_FP32, 255, 0x5000000, 0x6000000, 0x3000000, 0xFFFFFF);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_E_CAPACITY, "big gather: output past capacity");
  i = tdimm_enc_gather(TDIMM_T_FP32, 3, 0x5000000, 0x6000000, 0x3000000, 1000);
  CHECK(tdimm_exec(n, &i, &res) == TDIMM_OK && res.rows[0] == 1000 &&
            tdimm_node_chunks(n) == 17 + (3000 + 15) / 16,
        "gather of zero indices from an untouched table (%zu chunks)", tdimm_node_chunks(n));
  tdimm_node_free(n);

  /* 128 cores of 2^27 blocks each */
  tdimm_cfg_default(&cfg, 7, 27);
  n = new_node_cfg(&cfg);
  p = tdimm_gblock(n, (1ull << 34) - 1);
  CHECK(p != NULL && p == tdimm_block(n, 127, last) && tdimm_node_chunks(n) == 1,
        "128 x 2^27: the last global block");
  tdimm_node_free(n);

  /* bad configurations */
  tdimm_cfg_default(&cfg, 8, 10);
  CHECK(tdimm_node_new(&cfg) == NULL, "nd_log2 8 refused");
  tdimm_cfg_default(&cfg, 0, 3);
  CHECK(tdimm_node_new(&cfg) == NULL, "local_aw 3 refused");
  tdimm_cfg_default(&cfg, 0, 28);
  CHECK(tdimm_node_new(&cfg) == NULL, "local_aw 28 refused");
  CHECK(tdimm_node_new(NULL) == NULL, "NULL cfg refused");
  tdimm_cfg_default(&cfg, 3, 4);
  n = new_node_cfg(&cfg);
  CHECK(tdimm_block(n, 7, 15) != NULL && tdimm_block(n, 7, 16) == NULL &&
            tdimm_block(n, 8, 0) == NULL && tdimm_node_chunks(n) == 1,
        "smallest capacity, 8 cores");
  tdimm_node_free(n);
  tdimm_node_free(NULL);
}

/* ================================================================ stream reference */
static void test_ref(void) {
  tdimm_node_t *n = new_node(1, 8);
  for (unsigned c = 0; c < 2; c++) fill(n, c, 0, 4, 3 + c);
  const tdimm_insn_t s[4] = {
      tdimm_enc_reduce(TDIMM_SUB_ADD, TDIMM_T_INT32, 1, 0, 0, 8, 4),    /* 6, 8 at local 4.. */
      tdimm_enc(0, 0, 0, 1, 0, 0, 0, 1),                                /* OPCODE */
      tdimm_enc_average(TDIMM_T_INT32, 2, 0, 2, 16, 1),                 /* local 8, 9 */
      tdimm_enc_reduce(TDIMM_SUB_MUL, TDIMM_T_INT32, 1, 8, 16, 24, 2),  /* local 12, 13 */
  };
  tdimm_result_t res;
  memset(&res, 0xAB, sizeof res);
  CHECK(tensordimm_ref(n, s, 4, &res) == 1 && res.node_err == 0 && res.rows[1] == 2 &&
            res.err_mask[0] == 0,
        "stream: 1 error, last result");
  /* core 0: in 3 -> sum 6 at 4..7; average of blocks (0,2),(1,3) = 3 at 8, 9; 6*3 = 18 */
  CHECK(lane(n, 0, 4, 0) == 6 && lane(n, 1, 7, 15) == 8 && lane(n, 0, 8, 3) == 3 &&
            lane(n, 1, 9, 3) == 4 && lane(n, 0, 12, 0) == 18 && lane(n, 1, 13, 7) == 32,
        "stream values %u %u %u %u %u %u", lane(n, 0, 4, 0), lane(n, 1, 7, 15), lane(n, 0, 8, 3),
        lane(n, 1, 9, 3), lane(n, 0, 12, 0), lane(n, 1, 13, 7));
  memset(&res, 0xAB, sizeof res);
  CHECK(tensordimm_ref(n, s, 0, &res) == 0 && res.node_err == 0 && res.rows[0] == 0,
        "empty stream");
  CHECK(tensordimm_ref(n, s + 1, 1, NULL) == 1, "stream without result");
  tdimm_node_free(n);
}

int main(void) {
  test_encoding();
  test_lane_reduce();
  test_lane_average();
  test_reduce();
  test_average();
  test_gather();
  test_errors();
  test_multicore();
  test_map();
  test_sparse();
  test_ref();
  return CHECK_SUMMARY();
}
