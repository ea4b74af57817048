/* test_mna_asm.c -- unit tests of the MANNA host tools (sw/manna): the assembler and disassembler
 * (libmna_asm.c) and the random workload generator (libmna_rand.c), built with ASan/UBSan.
 *  - hand-computed encodings of every mnemonic and flag word;
 *  - the round trip assemble(disasm(w)) == w on every opcode with random fields (the test's own
 *    table of the fields each instruction uses), on random 64-bit words (ill-formed ones as
 *    .word), and the well-formedness rules (unused fields, flags, imm, a-fields >= 8, sfu FN 7,
 *    el c operand);
 *  - every assembler error class with its line number, one line "file:line: ... (expected ...)";
 *  - the loop end-PC fill (nested loops, labels, the explicit @END form, 4 levels);
 *  - random workloads of several configurations: record syntax (cfg, m, p, s), every memory word
 *    of every tile written, every program word well-formed with RF registers < rf (errors 0),
 *    and a control-only interpreter of docs/manna.md (scalar registers, address generators, the
 *    loop stack; counts, FIELD/LOOP/ADDR checks, vmm t N <= E) that runs every tile's program:
 *    every valid tile halts within 10^6 instructions without an error and all tiles execute the
 *    same collective sequence; with errors, the other tiles stay valid and the error tile stops
 *    with an error in most seeds.
 * Last line: "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna/mna_asm.h"
#include "manna/mna_rand.h"
#include "manna_isa.h"

#include "test_check.h"

typedef unsigned long long ull;

/* Assembles src; returns the word count, or -1 (err holds the message). */
static long as(const char *src, uint64_t *w, size_t max, char *err, size_t errlen) {
  size_t n = 0;
  if (mna_assemble(src, "t.s", w, max, &n, err, errlen)) return -1;
  return (long)n;
}

/* ---------------------------------------------------------------- hand encodings */
static void test_encodings(void) {
  const struct {
    const char *src;
    uint64_t w;
  } k[] = {
      {"nop", 0},
      {"halt", mna_enc(MNA_OP_HALT, 0, 0, 0, 0, 0, 0, 0)},
      {"li s1, 0x3f800000", mna_enc(MNA_OP_LI, 1, 0, 0, 0, 0, 0, 0x3F800000u)},
      {"li s1, 1.0f", mna_enc(MNA_OP_LI, 1, 0, 0, 0, 0, 0, 0x3F800000u)},
      {"li s2, -1.5f", mna_enc(MNA_OP_LI, 2, 0, 0, 0, 0, 0, 0xBFC00000u)},
      {"li s3, -5", mna_enc(MNA_OP_LI, 3, 0, 0, 0, 0, 0, 0xFFFFFFFBu)},
      {"li s15, 4294967295", mna_enc(MNA_OP_LI, 15, 0, 0, 0, 0, 0, 0xFFFFFFFFu)},
      {"li s4, -2147483648", mna_enc(MNA_OP_LI, 4, 0, 0, 0, 0, 0, 0x80000000u)},
      {"li s5, -0x10", mna_enc(MNA_OP_LI, 5, 0, 0, 0, 0, 0, 0xFFFFFFF0u)},
      {"li s6, inff", mna_enc(MNA_OP_LI, 6, 0, 0, 0, 0, 0, 0x7F800000u)},
      {"li s6, 0.0f", mna_enc(MNA_OP_LI, 6, 0, 0, 0, 0, 0, 0)},
      {"li s6, -0.0f", mna_enc(MNA_OP_LI, 6, 0, 0, 0, 0, 0, 0x80000000u)},
      {"addi s1, s2, 12", mna_enc(MNA_OP_ADDI, 1, 2, 0, 0, 0, 0, 12)},
      {"addi s1, s1, -1", mna_enc(MNA_OP_ADDI, 1, 1, 0, 0, 0, 0, 0xFFFFFFFFu)},
      {"loop s3, @17", mna_enc(MNA_OP_LOOP, 3, 0, 0, 0, 0, 0, 17)},
      {"agen a1, 0, s2, s3", mna_enc(MNA_OP_AGEN, 1, 0, 2, 3, 0, 0, 0)},
      {"agen a7, 15, s15, s0", mna_enc(MNA_OP_AGEN, 7, 15, 15, 0, 0, 0, 0)},
      {"dmat a0, a1, s2, s3", mna_enc(MNA_OP_DMAT, 0, 1, 2, 3, 0, 0, 0)},
      {"dmat a0, a1, s2, s3 pad", mna_enc(MNA_OP_DMAT, 0, 1, 2, 3, 0, MNA_FL_PAD, 0)},
      {"dmat a0, a1, s2, s3 store pad", mna_enc(MNA_OP_DMAT, 0, 1, 2, 3, 0, 3, 0)},
      {"dma a4, a5, s6 store", mna_enc(MNA_OP_DMA, 4, 5, 6, 0, 0, MNA_FL_STORE, 0)},
      {"vmm r1, a2, a3, s4", mna_enc(MNA_OP_VMM, 1, 2, 3, 4, 0, 0, 0)},
      {"vmm r1, a2, a3, s4 t", mna_enc(MNA_OP_VMM, 1, 2, 3, 4, 0, MNA_FL_T, 0)},
      {"vmm r15, a2, a3, s4 t sq", mna_enc(MNA_OP_VMM, 15, 2, 3, 4, 0, 3, 0)},
      {"vmm r1, a2, a3, s4 sq", mna_enc(MNA_OP_VMM, 1, 2, 3, 4, 0, MNA_FL_SQ, 0)},
      {"swr a0, a1, r2, r3, s4", mna_enc(MNA_OP_SWR, 0, 1, 2, 3, 4, 0, 0)},
      {"el.add a0, a1, a2, s3", mna_enc(MNA_OP_EL, 0, 1, 2, 0, 3, MNA_EL_ADD, 0)},
      {"el.sub a0, a1, s9, s3", mna_enc(MNA_OP_EL, 0, 1, 9, 0, 3, MNA_EL_SUB | MNA_FL_BS, 0)},
      {"el.mul a7, a6, a5, s15", mna_enc(MNA_OP_EL, 7, 6, 5, 0, 15, MNA_EL_MUL, 0)},
      {"el.fma a0, a1, a2, a3, s4", mna_enc(MNA_OP_EL, 0, 1, 2, 3, 4, MNA_EL_FMA, 0)},
      {"el.fma a0, a1, s2, a3, s4", mna_enc(MNA_OP_EL, 0, 1, 2, 3, 4, MNA_EL_FMA | MNA_FL_BS, 0)},
      {"el.fma a0, a1, a2, s13, s4", mna_enc(MNA_OP_EL, 0, 1, 2, 13, 4, MNA_EL_FMA | MNA_FL_CS, 0)},
      {"el.fma a0, a1, s12, s13, s4", mna_enc(MNA_OP_EL, 0, 1, 12, 13, 4, 3 | MNA_FL_BS | MNA_FL_CS, 0)},
      {"rfz r7", mna_enc(MNA_OP_RFZ, 7, 0, 0, 0, 0, 0, 0)},
      {"rfld r1, a2", mna_enc(MNA_OP_RFLD, 1, 2, 0, 0, 0, 0, 0)},
      {"rfst r1, a2", mna_enc(MNA_OP_RFST, 1, 2, 0, 0, 0, 0, 0)},
      {"sfu.exp a0, a1, s2", mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, MNA_SFU_EXP, 0)},
      {"sfu.recip a0, a1, s2", mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, MNA_SFU_RECIP, 0)},
      {"sfu.sqrt a0, a1, s2", mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, MNA_SFU_SQRT, 0)},
      {"sfu.relu a0, a1, s2", mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, MNA_SFU_RELU, 0)},
      {"sfu.sigmoid a0, a1, s2", mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, MNA_SFU_SIGMOID, 0)},
      {"sfu.sum a0, a1, s2", mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, MNA_SFU_SUM, 0)},
      {"sfu.dot a0, a1, a2, s3", mna_enc(MNA_OP_SFU, 0, 1, 2, 3, 0, MNA_SFU_DOT, 0)},
      {"sld s1, a2", mna_enc(MNA_OP_SLD, 1, 2, 0, 0, 0, 0, 0)},
      {"sst s1, a2", mna_enc(MNA_OP_SST, 1, 2, 0, 0, 0, 0, 0)},
      {"reduce a0, s1", mna_enc(MNA_OP_REDUCE, 0, 1, 0, 0, 0, 0, 0)},
      {"bcast a3, s9", mna_enc(MNA_OP_BCAST, 3, 9, 0, 0, 0, 0, 0)},
      {".word 0x1c00000000000001", 0x1c00000000000001ull},
      {"  lbl:  dma a0 a1 s2   # blanks instead of commas", mna_enc(MNA_OP_DMA, 0, 1, 2, 0, 0, 0, 0)},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint64_t w[4];
    char err[256];
    const long n = as(k[i].src, w, 4, err, sizeof err);
    CHECK(n == 1 && w[0] == k[i].w, "'%s': n=%ld w=%016llx want %016llx (%s)", k[i].src, n,
          n > 0 ? (ull)w[0] : 0ull, (ull)k[i].w, n < 0 ? err : "");
  }
  /* disassembly text of a few words */
  char b[64];
  CHECK(!strcmp(mna_asm_disasm(mna_enc(MNA_OP_LOOP, 3, 0, 0, 0, 0, 0, 17), b, sizeof b), "loop s3, @17"), "%s", b);
  CHECK(!strcmp(mna_asm_disasm(mna_enc(MNA_OP_LI, 1, 0, 0, 0, 0, 0, 0xFFFFFFFBu), b, sizeof b), "li s1, -5"), "%s", b);
  CHECK(!strcmp(mna_asm_disasm(mna_enc(MNA_OP_LI, 1, 0, 0, 0, 0, 0, 0x3F800000u), b, sizeof b),
                "li s1, 0x3f800000"), "%s", b);
  CHECK(!strcmp(mna_asm_disasm(mna_enc(MNA_OP_DMAT, 0, 1, 2, 3, 0, 3, 0), b, sizeof b),
                "dmat a0, a1, s2, s3 pad store"), "%s", b);
  CHECK(!strcmp(mna_asm_disasm(mna_enc(MNA_OP_EL, 0, 1, 12, 13, 4, 15, 0), b, sizeof b),
                "el.fma a0, a1, s12, s13, s4"), "%s", b);
  CHECK(!strcmp(mna_asm_disasm(0x1c00000000000001ull, b, sizeof b), ".word 0x1c00000000000001"), "%s", b);
  /* a short buffer is cut, NUL-terminated */
  char s4[5];
  mna_asm_disasm(mna_enc(MNA_OP_HALT, 0, 0, 0, 0, 0, 0, 0), s4, sizeof s4);
  CHECK(!strcmp(s4, "halt"), "%s", s4);
}

/* ---------------------------------------------------------------- round trip */
/* The test's own view of the fields: kinds per field A B C D F ('-' unused, 's', 'a', 'r', 'l'
 * level, 'x' a-or-s with its flag), the flag bits allowed beyond the variant, imm use. */
typedef struct {
  unsigned op, flags;
  const char *f; /* 5 kinds */
  unsigned optflags;
  int imm;
} tspec_t;

static const tspec_t kSpec[] = {
    {MNA_OP_NOP, 0, "-----", 0, 0},     {MNA_OP_HALT, 0, "-----", 0, 0},
    {MNA_OP_LI, 0, "s----", 0, 1},      {MNA_OP_ADDI, 0, "ss---", 0, 1},
    {MNA_OP_LOOP, 0, "s----", 0, 1},    {MNA_OP_ENDLOOP, 0, "-----", 0, 0},
    {MNA_OP_AGEN, 0, "alss-", 0, 0},    {MNA_OP_DMAT, 0, "aass-", 3, 0},
    {MNA_OP_DMA, 0, "aas--", 2, 0},     {MNA_OP_VMM, 0, "raas-", 3, 0},
    {MNA_OP_SWR, 0, "aarrs", 0, 0},     {MNA_OP_EL, 0, "aax-s", 0, 0},
    {MNA_OP_EL, 1, "aax-s", 0, 0},      {MNA_OP_EL, 2, "aax-s", 0, 0},
    {MNA_OP_EL, 3, "aaxxs", 0, 0},      {MNA_OP_RFZ, 0, "r----", 0, 0},
    {MNA_OP_RFLD, 0, "ra---", 0, 0},    {MNA_OP_RFST, 0, "ra---", 0, 0},
    {MNA_OP_SFU, 0, "aa-s-", 0, 0},     {MNA_OP_SFU, 1, "aa-s-", 0, 0},
    {MNA_OP_SFU, 2, "aa-s-", 0, 0},     {MNA_OP_SFU, 3, "aa-s-", 0, 0},
    {MNA_OP_SFU, 4, "aa-s-", 0, 0},     {MNA_OP_SFU, 5, "aa-s-", 0, 0},
    {MNA_OP_SFU, 6, "aaas-", 0, 0},     {MNA_OP_SLD, 0, "sa---", 0, 0},
    {MNA_OP_SST, 0, "sa---", 0, 0},     {MNA_OP_REDUCE, 0, "as---", 0, 0},
    {MNA_OP_BCAST, 0, "as---", 0, 0},
};
#define NSPEC (sizeof kSpec / sizeof kSpec[0])

/* assemble(disasm(w)) inside an open loop (so that endloop has one): the word after the loop */
static int round_trip(uint64_t w, uint64_t *back, char *text, size_t tn) {
  char src[160], err[256];
  uint64_t out[4];
  mna_asm_disasm(w, text, tn);
  snprintf(src, sizeof src, "loop s0, @0\n%s\n", text);
  const long n = as(src, out, 4, err, sizeof err);
  if (n != 2) {
    snprintf(text, tn, "%s", err);
    return -1;
  }
  *back = out[1];
  return 0;
}

static void test_round_trip(void) {
  cutil_rng_t r = cutil_rng_seed(7);
  int bad = 0, ok = 0;
  for (size_t i = 0; i < NSPEC; i++) {
    const tspec_t *s = &kSpec[i];
    for (int k = 0; k < 300; k++) {
      unsigned fv[5] = {0, 0, 0, 0, 0}, flags = s->flags;
      for (int f = 0; f < 5; f++) {
        const char c = s->f[f];
        if (c == '-') continue;
        if (c == 'a') fv[f] = (unsigned)cutil_rng_below(&r, 8);
        else if (c == 'x') {
          if (cutil_rng_below(&r, 2)) {
            flags |= f == 2 ? MNA_FL_BS : MNA_FL_CS;
            fv[f] = (unsigned)cutil_rng_below(&r, 16);
          } else {
            fv[f] = (unsigned)cutil_rng_below(&r, 8);
          }
        } else fv[f] = (unsigned)cutil_rng_below(&r, 16);
      }
      flags |= (unsigned)cutil_rng_next(&r) & s->optflags;
      uint32_t imm = 0;
      if (s->imm) {
        const unsigned m = (unsigned)cutil_rng_below(&r, 4);
        imm = m == 0 ? (uint32_t)cutil_rng_below(&r, 70000) : m == 1 ? (uint32_t)-(int32_t)cutil_rng_below(&r, 70000)
                                                                   : (uint32_t)cutil_rng_next(&r);
      }
      const uint64_t w = mna_enc(s->op, fv[0], fv[1], fv[2], fv[3], fv[4], flags, imm);
      char text[300];
      uint64_t back = ~w;
      const int wf = mna_asm_wellformed(w);
      const int rc = round_trip(w, &back, text, sizeof text);
      if (!wf || rc || back != w || !strncmp(text, ".word", 5)) {
        if (bad++ < 10)
          CHECK(0, "round trip of %016llx (op %02x): wf=%d rc=%d '%s' -> %016llx", (ull)w, s->op, wf, rc,
                text, (ull)back);
      } else ok++;
      /* a nonzero unused field, undefined flag or unused imm makes it ill-formed */
      for (int f = 0; f < 5; f++)
        if (s->f[f] == '-') {
          const uint64_t x = w | (uint64_t)(1 + cutil_rng_below(&r, 15)) << (54 - 4 * f);
          CHECK(!mna_asm_wellformed(x), "unused field %d set: %016llx well-formed", f, (ull)x);
        }
      const unsigned used = s->flags | s->optflags | (strchr(s->f, 'x') ? MNA_FL_BS : 0) |
                            (s->f[3] == 'x' ? MNA_FL_CS : 0) |
                            (s->op == MNA_OP_EL ? 3u : s->op == MNA_OP_SFU ? 7u : 0u);
      for (unsigned bit = 0; bit < 6; bit++)
        if (!((used >> bit) & 1)) {
          const uint64_t x = w | (1ull << (32 + bit));
          CHECK(!mna_asm_wellformed(x), "flag bit %u set: %016llx well-formed", bit, (ull)x);
        }
      if (!s->imm) CHECK(!mna_asm_wellformed(w | 1), "imm set: %016llx well-formed", (ull)(w | 1));
      for (int f = 0; f < 5; f++)
        if (s->f[f] == 'a' || (s->f[f] == 'x' && !(flags & (f == 2 ? MNA_FL_BS : MNA_FL_CS)))) {
          const uint64_t x = (w & ~(0xFull << (54 - 4 * f))) | (uint64_t)(8 + cutil_rng_below(&r, 8)) << (54 - 4 * f);
          CHECK(!mna_asm_wellformed(x), "a-field %d >= 8: %016llx well-formed", f, (ull)x);
        }
    }
  }
  CHECK(bad == 0, "%d round-trip failures (%d ok)", bad, ok);
  /* sfu FN 7, el add/sub/mul with a c operand or bit3, undefined opcodes */
  CHECK(!mna_asm_wellformed(mna_enc(MNA_OP_SFU, 0, 1, 0, 2, 0, 7, 0)), "sfu FN 7");
  CHECK(!mna_asm_wellformed(mna_enc(MNA_OP_SFU, 0, 1, 3, 2, 0, MNA_SFU_SUM, 0)), "sfu.sum with C");
  CHECK(!mna_asm_wellformed(mna_enc(MNA_OP_EL, 0, 1, 2, 3, 4, MNA_EL_ADD, 0)), "el.add with D");
  CHECK(!mna_asm_wellformed(mna_enc(MNA_OP_EL, 0, 1, 2, 0, 4, MNA_EL_MUL | MNA_FL_CS, 0)), "el.mul bit3");
  int undefined = 0;
  for (unsigned op = 0; op < 64; op++) {
    int def = 0;
    for (size_t i = 0; i < NSPEC; i++) def |= kSpec[i].op == op;
    CHECK(mna_asm_op_defined(op) == def, "opcode %02x defined=%d", op, def);
    if (!def) {
      undefined++;
      CHECK(!mna_asm_wellformed((uint64_t)op << 58), "undefined opcode %02x well-formed", op);
    }
  }
  CHECK(undefined == 64 - 20, "%d undefined opcodes", undefined);
  /* random words: every one round-trips (ill-formed ones through .word) */
  int rbad = 0, nwf = 0;
  for (int k = 0; k < 20000; k++) {
    uint64_t w = cutil_rng_next(&r);
    if (k & 1) { /* more well-formed ones: a defined opcode, fewer flags, fields and imm */
      w = (w & ((1ull << 58) - 1)) | (uint64_t)kSpec[cutil_rng_below(&r, NSPEC)].op << 58;
      if (cutil_rng_below(&r, 2)) w &= ~(0x38ull << 32);
      if (cutil_rng_below(&r, 2)) w &= ~0xFFFFFFFFull;
      if (cutil_rng_below(&r, 2)) w &= ~(0xFull << 38);
      if (cutil_rng_below(&r, 2)) w &= ~(0xFull << 42);
      if (cutil_rng_below(&r, 2)) w &= ~(0x8ull << 54 | 0x8ull << 50 | 0x8ull << 46);
    }
    char text[300];
    uint64_t back = ~w;
    const int rc = round_trip(w, &back, text, sizeof text);
    nwf += mna_asm_wellformed(w);
    if ((rc || back != w) && rbad++ < 5) CHECK(0, "random word %016llx: '%s' -> %016llx", (ull)w, text, (ull)back);
  }
  CHECK(rbad == 0 && nwf > 100, "%d random-word round-trip failures, %d well-formed", rbad, nwf);
}

/* ---------------------------------------------------------------- errors */
static void test_errors(void) {
  static const struct {
    const char *src;
    const char *want; /* substring of the message, after "t.s:<line>: " */
    int line;
  } k[] = {
      {"nop\nfoo s1\n", "unknown mnemonic 'foo'", 2},
      {"nop\n\nli s1\n", "wrong operand count for li: 1 (expected li sA, imm)", 3},
      {"dmat a0, a1, s2\n", "wrong operand count for dmat", 1},
      {"halt s1\n", "wrong operand count for halt", 1},
      {"dmat a0, a1, s2, s3, foo\n", "unexpected operand 'foo'", 1},
      {"dmat a0, a1, s2, s3 pad pad\n", "flag 'pad' given twice", 1},
      {"li s16, 1\n", "bad register 's16' (expected s0..s15)", 1},
      {"agen a8, 0, s1, s2\n", "bad register 'a8' (expected a0..a7)", 1},
      {"vmm r16, a0, a1, s2\n", "bad register 'r16' (expected r0..r15)", 1},
      {"vmm s1, a0, a1, s2\n", "bad operand 's1' for vmm (expected an RF register", 1},
      {"el.add a0, a1, r2, s3\n", "bad operand 'r2' for el.add (expected a0..a7 or s0..s15)", 1},
      {"li s1, 0x100000000\n", "immediate '0x100000000' out of range (expected -2147483648..4294967295)", 1},
      {"li s1, -2147483649\n", "out of range", 1},
      {"li s1, 12abc\n", "bad immediate '12abc'", 1},
      {"li s1, 1.5\n", "bad immediate '1.5'", 1},
      {"li s1, 1e39f\n", "fp32 literal '1e39f' out of range", 1},
      {"agen a0, 16, s1, s2\n", "level '16' out of range (expected 0..15)", 1},
      {"agen a0, x, s1, s2\n", "bad level 'x'", 1},
      {"loop s1, 17\n", "bad loop end '17' (expected @PC or @label)", 1},
      {"loop s1, @nowhere\nendloop\n", "undefined label 'nowhere'", 1},
      {"nop\nendloop\n", "endloop without loop", 2},
      {"nop\nloop s1\nloop s2\nendloop\n", "loop without endloop", 2},
      {"loop s1\nloop s1\nloop s1\nloop s1\nloop s1\n", "loop nesting deeper than 4 levels", 5},
      {"a:\nb: nop\na: nop\n", "duplicate label 'a'", 3},
      {"1x: nop\n", "bad label '1x'", 1},
      {".word\n", "wrong operand count for .word", 1},
      {".word 0x10000000000000000\n", "bad .word value", 1},
      {"li s1,, 2\n", "empty operand", 1},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    uint64_t w[16];
    char err[256], pre[32];
    err[0] = 0;
    const long n = as(k[i].src, w, 16, err, sizeof err);
    snprintf(pre, sizeof pre, "t.s:%d: ", k[i].line);
    CHECK(n == -1 && !strncmp(err, pre, strlen(pre)) && strstr(err, k[i].want) && !strchr(err, '\n') &&
              strstr(err, "(expected"),
          "error case %zu: got '%s', want '%s%s'", i, err, pre, k[i].want);
  }
  /* program longer than max */
  uint64_t w[2];
  char err[256];
  CHECK(as("nop\nnop\nnop\n", w, 2, err, sizeof err) == -1 && strstr(err, "t.s:3: program longer than 2 words"),
        "%s", err);
  /* a line longer than 1023 characters */
  char *big = malloc(2100);
  memset(big, ' ', 2000);
  strcpy(big + 2000, "nop\n");
  CHECK(as(big, w, 2, err, sizeof err) == -1 && strstr(err, "t.s:1: line too long"), "%s", err);
  free(big);
  /* no file name: "line N:" */
  size_t n;
  CHECK(mna_assemble("\nfoo\n", NULL, w, 2, &n, err, sizeof err) == -1 && !strncmp(err, "line 2: unknown", 15),
        "%s", err);
}

/* ---------------------------------------------------------------- loops */
static void test_loops(void) {
  uint64_t w[32];
  char err[256];
  const char *src =
      "start:\n"            /* 0 */
      "  li s1, 3\n"        /* 0 */
      "  loop s1          # outer\n" /* 1: end 9 */
      "    loop s1\n"     /* 2: end 5 */
      "      nop\n"       /* 3 */
      "    endloop\n"     /* 4 */
      "    loop s2\n"     /* 5: end 8 */
      "      nop\n"       /* 6 */
      "    endloop\n"     /* 7 */
      "  endloop\n"       /* 8 */
      "again: loop s3, @start\n" /* 9: explicit, label 0 */
      "  loop s3, @again\n"      /* 10: explicit */
      "  loop s4 ; implicit inside explicit ones\n" /* 11: end 13 */
      "  endloop\n"       /* 12 */
      "  loop s5, @99\n"  /* 13 */
      "halt\n";           /* 14 */
  const long n = as(src, w, 32, err, sizeof err);
  CHECK(n == 15, "loop program: n=%ld %s", n, n < 0 ? err : "");
  if (n == 15) {
    CHECK(mna_imm(w[1]) == 9 && mna_imm(w[2]) == 5 && mna_imm(w[5]) == 8, "end PCs %u %u %u",
          mna_imm(w[1]), mna_imm(w[2]), mna_imm(w[5]));
    CHECK(mna_imm(w[9]) == 0 && mna_imm(w[10]) == 9 && mna_imm(w[11]) == 13 && mna_imm(w[13]) == 99,
          "explicit/label end PCs %u %u %u %u", mna_imm(w[9]), mna_imm(w[10]), mna_imm(w[11]), mna_imm(w[13]));
    CHECK(mna_op(w[4]) == MNA_OP_ENDLOOP && w[4] == mna_enc(MNA_OP_ENDLOOP, 0, 0, 0, 0, 0, 0, 0), "endloop word");
    /* the disassembly of the whole program reassembles to the same words */
    char *txt = malloc(4096);
    size_t len = 0;
    for (long i = 0; i < n; i++) {
      char b[64];
      len += (size_t)snprintf(txt + len, 4096 - len, "%s\n", mna_asm_disasm(w[i], b, sizeof b));
    }
    uint64_t w2[32];
    const long n2 = as(txt, w2, 32, err, sizeof err);
    CHECK(n2 == n && !memcmp(w, w2, sizeof(uint64_t) * (size_t)n), "disassembly reassembles (%s)", n2 < 0 ? err : "");
    free(txt);
  }
  /* exactly 4 levels are fine */
  CHECK(as("loop s1\nloop s1\nloop s1\nloop s1\nendloop\nendloop\nendloop\nendloop\nloop s1\nendloop\n", w, 32, err,
           sizeof err) == 10 && mna_imm(w[0]) == 8 && mna_imm(w[3]) == 5 && mna_imm(w[8]) == 10,
        "4 levels: %s", err);
  /* an explicit loop counts toward the depth */
  CHECK(as("loop s1, @0\nloop s1\nloop s1\nloop s1\nloop s1\n", w, 32, err, sizeof err) == -1 &&
            strstr(err, "t.s:5: loop nesting"), "%s", err);
}

/* ---------------------------------------------------------------- random workloads */
#define MAXT 16
typedef struct {
  mna_rand_cfg_t c;
  int have_cfg;
  uint64_t *imem[MAXT];
  uint8_t *written[MAXT][4]; /* mb ms vb vs: word written by an m record */
  long lines[4];
} wl_t;

typedef struct {
  int status; /* 1 DONE, else an error code */
  long pc, insns;
  unsigned coll_op[4096];
  uint32_t coll_lines[4096];
  long ncoll;
} run_t;

/* Control-only interpreter of one tile (docs/manna.md): scalar registers (sk: known bits; sld
 * makes a register unknown), address generators, the loop stack; no data.  An unknown value used
 * as a count or address fails the test (status -1). */
typedef struct {
  uint32_t s[16];
  uint16_t sk;
} regs_t;

static int range_ok(uint64_t lo, uint64_t len, uint64_t size) { return lo + len <= size; }

static void run_tile(const wl_t *wl, int t, long start, regs_t *R, run_t *out, char *why, size_t wn) {
  const mna_rand_cfg_t *c = &wl->c;
  const uint64_t E = (uint64_t)c->emacs, msw = (uint64_t)c->ms_lines * E, vsw = (uint64_t)c->vs_lines * E;
  uint32_t base[8] = {0}, stride[8] = {0};
  unsigned level[8] = {0};
  struct {
    uint32_t count, idx;
    long start;
  } lp[4];
  int depth = 0;
  long pc = start;
  out->ncoll = 0;
  out->insns = 0;
  why[0] = 0;
#define STOP(code, ...)                 \
  do {                                  \
    out->status = code;                 \
    out->pc = pc;                       \
    snprintf(why, wn, __VA_ARGS__);     \
    return;                             \
  } while (0)
  for (;;) {
    if (pc >= c->imem_depth) STOP(MNA_ST_PC, "pc %ld", pc);
    if (out->insns > 1000000) STOP(-1, "more than 10^6 instructions");
    const uint64_t w = wl->imem[t][pc];
    const unsigned op = mna_op(w), A = mna_fa(w), B = mna_fb(w), C = mna_fc(w), D = mna_fd(w), F = mna_ff(w);
    const unsigned fl = mna_flags(w);
    if (!mna_asm_op_defined(op)) STOP(MNA_ST_OPCODE, "opcode %02x", op);
    if (!mna_asm_wellformed(w)) STOP(MNA_ST_FIELD, "ill-formed %016llx", (ull)w);
    /* value of a scalar register as a count/address source */
#define SV(r, dst)                                                                 \
  do {                                                                             \
    if ((r) != 0 && !((R->sk >> (r)) & 1)) STOP(-1, "unknown s%u used at %ld", (unsigned)(r), pc); \
    dst = (r) == 0 ? 0 : R->s[r];                                                  \
  } while (0)
#define AV(a) ((uint64_t)(uint32_t)(base[a] + stride[a] * (level[a] < (unsigned)depth ? lp[level[a]].idx : 0)))
#define CNT(r, dst)                                                       \
  do {                                                                    \
    SV(r, dst);                                                           \
    if (dst > MNA_MAX_COUNT) STOP(MNA_ST_FIELD, "count %u", (unsigned)dst); \
  } while (0)
#define RFCHK(r) \
  if ((r) >= (unsigned)c->rf_regs) STOP(MNA_ST_FIELD, "r%u", (unsigned)(r))
    uint32_t n = 0, v = 0;
    long next = pc + 1;
    switch (op) {
      case MNA_OP_NOP: break;
      case MNA_OP_HALT: out->insns++; out->status = MNA_ST_DONE; out->pc = pc; return;
      case MNA_OP_LI:
        if (A) R->s[A] = mna_imm(w), R->sk |= (uint16_t)(1u << A);
        break;
      case MNA_OP_ADDI:
        if (A) {
          const int known = B == 0 || ((R->sk >> B) & 1);
          R->s[A] = (B ? R->s[B] : 0) + mna_imm(w);
          if (known) R->sk |= (uint16_t)(1u << A);
          else R->sk &= (uint16_t)~(1u << A);
        }
        break;
      case MNA_OP_LOOP:
        CNT(A, n);
        if (depth == 4) STOP(MNA_ST_LOOP, "loop overflow");
        if (n == 0) next = (long)mna_imm(w);
        else lp[depth].count = n, lp[depth].idx = 0, lp[depth++].start = pc + 1;
        break;
      case MNA_OP_ENDLOOP:
        if (depth == 0) STOP(MNA_ST_LOOP, "endloop without loop");
        if (++lp[depth - 1].idx < lp[depth - 1].count) next = lp[depth - 1].start;
        else depth--;
        break;
      case MNA_OP_AGEN: {
        uint32_t b, s;
        SV(C, b);
        SV(D, s);
        base[A] = b, stride[A] = s, level[A] = B;
        break;
      }
      case MNA_OP_DMAT: {
        uint32_t rows, mbs;
        CNT(C, rows);
        if (!rows) break;
        SV(D, mbs);
        const uint64_t last = (fl & MNA_FL_PAD) ? (uint64_t)(rows - 1) * (E + 1) + E - 1 : (uint64_t)rows * E - 1;
        if (!range_ok(AV(A) * E, last + 1, msw)) STOP(MNA_ST_ADDR, "dmat MS");
        if (AV(B) + (uint64_t)(rows - 1) * mbs >= (uint64_t)c->mb_lines) STOP(MNA_ST_ADDR, "dmat MB");
        break;
      }
      case MNA_OP_DMA:
        CNT(C, n);
        if (n && (!range_ok(AV(A), n, (uint64_t)c->vs_lines) || !range_ok(AV(B), n, (uint64_t)c->vb_lines)))
          STOP(MNA_ST_ADDR, "dma");
        break;
      case MNA_OP_VMM:
        RFCHK(A);
        CNT(D, n);
        if ((fl & MNA_FL_T) && n > E) STOP(MNA_ST_FIELD, "vmm t N > E");
        if (n) {
          const uint64_t ml = (fl & MNA_FL_T) ? E + (E + n - 2) / E : n;
          if (!range_ok(AV(B), ml, (uint64_t)c->ms_lines) || !range_ok(AV(C), n, vsw)) STOP(MNA_ST_ADDR, "vmm");
        }
        break;
      case MNA_OP_SWR:
        RFCHK(C);
        RFCHK(D);
        CNT(F, n);
        if (n && (!range_ok(AV(A), n, (uint64_t)c->ms_lines) || !range_ok(AV(B), n, vsw))) STOP(MNA_ST_ADDR, "swr");
        break;
      case MNA_OP_EL:
        CNT(F, n);
        if (n && (!range_ok(AV(A), n, (uint64_t)c->vs_lines) || !range_ok(AV(B), n, (uint64_t)c->vs_lines) ||
                  (!(fl & MNA_FL_BS) && !range_ok(AV(C), n, (uint64_t)c->vs_lines)) ||
                  ((fl & 3) == 3 && !(fl & MNA_FL_CS) && !range_ok(AV(D), n, (uint64_t)c->vs_lines))))
          STOP(MNA_ST_ADDR, "el");
        break;
      case MNA_OP_RFZ: RFCHK(A); break;
      case MNA_OP_RFLD:
      case MNA_OP_RFST:
        RFCHK(A);
        if (!range_ok(AV(B), 1, (uint64_t)c->vs_lines)) STOP(MNA_ST_ADDR, "rfld/rfst");
        break;
      case MNA_OP_SFU: {
        CNT(D, n);
        const unsigned fn = fl & 7;
        if (n && (!range_ok(AV(A), fn >= MNA_SFU_SUM ? 1 : n, vsw) || !range_ok(AV(B), n, vsw) ||
                  (fn == MNA_SFU_DOT && !range_ok(AV(C), n, vsw))))
          STOP(MNA_ST_ADDR, "sfu");
        break;
      }
      case MNA_OP_SLD:
      case MNA_OP_SST:
        if (!range_ok(AV(B), 1, vsw)) STOP(MNA_ST_ADDR, "sld/sst");
        if (op == MNA_OP_SLD && A) R->sk &= (uint16_t)~(1u << A);
        break;
      case MNA_OP_REDUCE:
      case MNA_OP_BCAST:
        CNT(B, n);
        if (n && !range_ok(AV(A), n, (uint64_t)c->vs_lines)) STOP(MNA_ST_ADDR, "collective");
        if (out->ncoll < 4096) out->coll_op[out->ncoll] = op, out->coll_lines[out->ncoll++] = n;
        break;
      default: STOP(-1, "unhandled opcode %02x", op);
    }
    (void)v;
    out->insns++;
    pc = next;
  }
#undef STOP
#undef SV
#undef AV
#undef CNT
#undef RFCHK
}

/* Parses a workload text and runs its `s` records; returns the number of syntax errors. */
typedef struct {
  int runs;
  int error_stops; /* error tile runs that stopped with an error */
  int valid_fail;  /* valid tiles that did not halt cleanly, collective mismatches */
  int bad_words;   /* ill-formed words or RF fields >= rf in valid tiles' programs (static) */
  long max_insns;
} wl_result_t;

static int rf_field_ok(uint64_t w, int rf) {
  switch (mna_op(w)) {
    case MNA_OP_VMM:
    case MNA_OP_RFZ:
    case MNA_OP_RFLD:
    case MNA_OP_RFST: return mna_fa(w) < (unsigned)rf;
    case MNA_OP_SWR: return mna_fc(w) < (unsigned)rf && mna_fd(w) < (unsigned)rf;
    default: return 1;
  }
}

static int check_workload(char *text, const mna_rand_info_t *info, wl_result_t *res, const char *tag) {
  wl_t wl;
  memset(&wl, 0, sizeof wl);
  memset(res, 0, sizeof *res);
  int syntax = 0;
  static run_t runs[MAXT];
  regs_t regs[MAXT];
  memset(regs, 0, sizeof regs);
  for (int t = 0; t < MAXT; t++) regs[t].sk = 0xFFFF;
  uint8_t loaded[MAXT][65536 / 8];
  memset(loaded, 0, sizeof loaded);
  long line = 0;
  for (char *p = text; *p;) {
    char *eol = strchr(p, '\n');
    if (eol) *eol = 0;
    line++;
    char *tok[64];
    int more;
    const int nt = cutil_tokenize(p, tok, 64, &more);
    p = eol ? eol + 1 : p + strlen(p);
#define SYN(...)                                  \
  do {                                            \
    if (syntax++ < 5) {                           \
      printf("%s line %ld: ", tag, line);         \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
    }                                             \
    continue;                                     \
  } while (0)
    if (nt == 0) continue;
    if (more) SYN("too many fields");
    if (!strcmp(tok[0], "cfg")) {
      if (wl.have_cfg || nt != 9) SYN("bad cfg");
      static const char *const keys[8] = {"tiles=", "emacs=", "mb=", "ms=", "vb=", "vs=", "imem=", "rf="};
      int *dst[8] = {&wl.c.tiles, &wl.c.emacs, &wl.c.mb_lines, &wl.c.ms_lines, &wl.c.vb_lines, &wl.c.vs_lines,
                     &wl.c.imem_depth, &wl.c.rf_regs};
      int okc = 1;
      for (int k = 0; k < 8; k++) {
        uint64_t v;
        if (strncmp(tok[1 + k], keys[k], strlen(keys[k])) || cutil_parse_dec(tok[1 + k] + strlen(keys[k]), 1, 1 << 20, &v))
          okc = 0;
        else *dst[k] = (int)v;
      }
      if (!okc || mna_rand_cfg_check(&wl.c, NULL, 0)) SYN("bad cfg values");
      wl.have_cfg = 1;
      wl.lines[0] = wl.c.mb_lines, wl.lines[1] = wl.c.ms_lines, wl.lines[2] = wl.c.vb_lines, wl.lines[3] = wl.c.vs_lines;
      for (int t = 0; t < wl.c.tiles; t++) {
        wl.imem[t] = calloc((size_t)wl.c.imem_depth, sizeof(uint64_t));
        for (int k = 0; k < 4; k++) wl.written[t][k] = calloc((size_t)(wl.lines[k] * wl.c.emacs), 1);
      }
      continue;
    }
    if (!wl.have_cfg) SYN("record before cfg");
    int t0 = 0, t1 = 0;
    if (!strcmp(tok[0], "m") || !strcmp(tok[0], "p")) {
      uint64_t tv;
      if (nt < 2) SYN("short record");
      if (!strcmp(tok[1], "*")) t0 = 0, t1 = wl.c.tiles - 1;
      else if (cutil_parse_dec(tok[1], 0, (uint64_t)wl.c.tiles - 1, &tv)) SYN("bad tile '%s'", tok[1]);
      else t0 = t1 = (int)tv;
    }
    if (!strcmp(tok[0], "m")) {
      static const char *const sp[4] = {"mb", "ms", "vb", "vs"};
      int k = -1;
      uint64_t addr;
      for (int j = 0; j < 4; j++)
        if (nt > 2 && !strcmp(tok[2], sp[j])) k = j;
      if (nt < 5 || k < 0 || cutil_parse_dec(tok[3], 0, 1u << 20, &addr)) SYN("bad m record");
      const uint64_t words = (uint64_t)(wl.lines[k] * wl.c.emacs);
      int okm = 1;
      for (int j = 4; j < nt; j++) {
        uint64_t v;
        if (strlen(tok[j]) != 8 || cutil_parse_hex(tok[j], 0xFFFFFFFFu, &v) || addr + (uint64_t)(j - 4) >= words) okm = 0;
        else
          for (int t = t0; t <= t1; t++) wl.written[t][k][addr + (uint64_t)(j - 4)]++;
      }
      if (!okm) SYN("bad m word");
    } else if (!strcmp(tok[0], "p")) {
      uint64_t addr;
      if (nt < 4 || cutil_parse_dec(tok[2], 0, (uint64_t)wl.c.imem_depth - 1, &addr)) SYN("bad p record");
      int okp = 1;
      for (int j = 3; j < nt; j++) {
        uint64_t v;
        const uint64_t a = addr + (uint64_t)(j - 3);
        if (strlen(tok[j]) != 16 || cutil_parse_hex(tok[j], ~0ull, &v) || a >= (uint64_t)wl.c.imem_depth) {
          okp = 0;
          continue;
        }
        for (int t = t0; t <= t1; t++) {
          wl.imem[t][a] = v;
          loaded[t][a / 8] |= (uint8_t)(1u << (a % 8));
          if (t != info->error_tile && (!mna_asm_wellformed(v) || !rf_field_ok(v, wl.c.rf_regs))) {
            if (res->bad_words++ < 3) {
              char b[64];
              printf("%s: tile %d word %llu %016llx '%s' ill-formed or RF >= %d\n", tag, t, (ull)a, (ull)v,
                     mna_asm_disasm(v, b, sizeof b), wl.c.rf_regs);
            }
          }
        }
      }
      if (!okp) SYN("bad p word");
    } else if (!strcmp(tok[0], "s")) {
      uint64_t pc;
      if (nt != 2 || cutil_parse_dec(tok[1], 0, (uint64_t)wl.c.imem_depth - 1, &pc)) SYN("bad s record");
      res->runs++;
      for (int t = 0; t < wl.c.tiles; t++) {
        char why[128];
        run_tile(&wl, t, (long)pc, &regs[t], &runs[t], why, sizeof why);
        if (runs[t].insns > res->max_insns) res->max_insns = runs[t].insns;
        if (t == info->error_tile) {
          if (runs[t].status != MNA_ST_DONE && runs[t].status >= 0) res->error_stops++;
          else if (runs[t].status < 0) {
            res->valid_fail++;
            printf("%s: error tile %d run %d: interpreter: %s (pc %ld)\n", tag, t, res->runs, why, runs[t].pc);
          }
          /* after an error the registers of every tile are not what the generator assumed */
        } else if (runs[t].status != MNA_ST_DONE) {
          if (res->valid_fail++ < 3)
            printf("%s: tile %d run %d stopped with %d at pc %ld: %s\n", tag, t, res->runs, runs[t].status,
                   runs[t].pc, why);
        }
      }
      /* every tile executed the same collectives (the error tile a prefix: it runs the others'
       * program up to its error) */
      const int ref = info->error_tile == 0 ? 1 : 0;
      for (int t = 0; t < wl.c.tiles && wl.c.tiles > 1; t++) {
        if (t == ref) continue;
        if (t == info->error_tile) {
          const int prefix = runs[t].ncoll <= runs[ref].ncoll &&
                             !memcmp(runs[t].coll_op, runs[ref].coll_op, sizeof(unsigned) * (size_t)runs[t].ncoll) &&
                             !memcmp(runs[t].coll_lines, runs[ref].coll_lines, sizeof(uint32_t) * (size_t)runs[t].ncoll);
          if (!prefix && res->valid_fail++ < 3)
            printf("%s: error tile %d collectives are not a prefix of tile %d's\n", tag, t, ref);
          continue;
        }
        const int same = runs[t].ncoll == runs[ref].ncoll &&
                         !memcmp(runs[t].coll_op, runs[ref].coll_op, sizeof(unsigned) * (size_t)runs[ref].ncoll) &&
                         !memcmp(runs[t].coll_lines, runs[ref].coll_lines, sizeof(uint32_t) * (size_t)runs[ref].ncoll);
        if (!same && res->valid_fail++ < 3)
          printf("%s: tile %d collectives differ from tile %d (%ld vs %ld)\n", tag, t, ref, runs[t].ncoll,
                 runs[ref].ncoll);
      }
    } else if (!strcmp(tok[0], "c")) {
      continue;
    } else {
      SYN("unknown record '%s'", tok[0]);
    }
#undef SYN
  }
  if (!wl.have_cfg) syntax++;
  /* every word of every memory of every tile written exactly once */
  for (int t = 0; t < wl.c.tiles && wl.have_cfg; t++)
    for (int k = 0; k < 4; k++) {
      long miss = 0;
      for (long a = 0; a < wl.lines[k] * wl.c.emacs; a++) miss += wl.written[t][k][a] != 1;
      if (miss && syntax++ < 5) printf("%s: tile %d space %d: %ld words not written once\n", tag, t, k, miss);
    }
  for (int t = 0; t < MAXT; t++) {
    free(wl.imem[t]);
    for (int k = 0; k < 4; k++) free(wl.written[t][k]);
  }
  return syntax;
}

static void test_random_workloads(void) {
  static const mna_rand_cfg_t cfgs[] = {
      /* tiles E mb ms vb vs imem rf */
      {2, 4, 64, 16, 16, 8, 256, 4},   {1, 8, 128, 32, 32, 16, 256, 8}, {4, 4, 64, 16, 16, 8, 256, 4},
      {4, 8, 256, 64, 64, 32, 1024, 8}, {2, 2, 8, 2, 2, 2, 64, 2},       {16, 32, 64, 40, 16, 8, 512, 16},
      {8, 16, 32, 20, 8, 4, 300, 3},
  };
  const int ncfg = (int)(sizeof cfgs / sizeof cfgs[0]);
  long total_runs = 0, shared = 0, per_tile = 0, colls = 0, dyn = 0;
  for (int ci = 0; ci < ncfg; ci++)
    for (int seed = 1; seed <= 16; seed++)
      for (int runs = 1; runs <= 2; runs++) {
        mna_rand_opt_t o;
        mna_rand_opt_default(&o);
        o.seed = (uint64_t)(seed * 100 + ci);
        o.runs = runs;
        o.insns = seed % 4 == 0 ? 1000 : 200;
        if (seed % 5 == 0) o.fence = 256; /* shared programs only */
        mna_rand_info_t info;
        char err[256], tag[64];
        size_t len = 0;
        char *text = mna_rand_string(&cfgs[ci], &o, &len, &info, err, sizeof err);
        snprintf(tag, sizeof tag, "cfg %d seed %d runs %d", ci, (int)o.seed, runs);
        CHECK(text != NULL && strlen(text) == len, "%s: %s", tag, text ? "length" : err);
        if (!text) continue;
        CHECK(info.error_tile == -1 && info.injected == 0, "%s: errors without --errors", tag);
        CHECK(o.fence >= 1024 || !info.per_tile, "%s: per-tile programs with fence %ld", tag, o.fence);
        CHECK(info.max_words <= cfgs[ci].imem_depth, "%s: %ld words > imem", tag, info.max_words);
        /* the same seed gives the same text */
        size_t len2 = 0;
        char *again = mna_rand_string(&cfgs[ci], &o, &len2, NULL, err, sizeof err);
        CHECK(again && len2 == len && !memcmp(again, text, len), "%s: not reproducible", tag);
        free(again);
        wl_result_t res;
        const int syn = check_workload(text, &info, &res, tag); /* (cuts text into tokens) */
        CHECK(syn == 0, "%s: %d syntax problems", tag, syn);
        CHECK(res.runs == runs, "%s: %d runs", tag, res.runs);
        CHECK(res.bad_words == 0, "%s: %d ill-formed words", tag, res.bad_words);
        CHECK(res.valid_fail == 0, "%s: %d tiles did not halt cleanly", tag, res.valid_fail);
        CHECK(res.max_insns <= 1000000 / (cfgs[ci].tiles * runs) && res.max_insns <= info.max_dyn + 1,
              "%s: %ld instructions executed (generator said %ld)", tag, res.max_insns, info.max_dyn);
        total_runs += res.runs;
        shared += !info.per_tile;
        per_tile += info.per_tile;
        colls += info.colls;
        dyn += res.max_insns;
        free(text);
      }
  CHECK(shared > 10 && per_tile > 10 && colls > 100, "variety: shared %ld per-tile %ld collectives %ld", shared,
        per_tile, colls);
  printf("random workloads: %ld runs, %ld shared + %ld per-tile, %ld collectives, %ld instructions (max/tile summed)\n",
         total_runs, shared, per_tile, colls, dyn);

  /* with errors: the other tiles stay valid; the error tile stops with an error in most seeds */
  int stops = 0, tried = 0;
  for (int ci = 0; ci < ncfg; ci++)
    for (int seed = 1; seed <= 10; seed++) {
      mna_rand_opt_t o;
      mna_rand_opt_default(&o);
      o.seed = (uint64_t)(seed * 7 + ci * 1000);
      o.errors = seed <= 5 ? 5 : 30;
      o.runs = 1 + (seed & 1);
      mna_rand_info_t info;
      char err[256], tag[64];
      char *text = mna_rand_string(&cfgs[ci], &o, NULL, &info, err, sizeof err);
      snprintf(tag, sizeof tag, "errors cfg %d seed %d", ci, (int)o.seed);
      CHECK(text != NULL, "%s: %s", tag, err);
      if (!text) continue;
      CHECK(info.error_tile >= 0 && info.error_tile < cfgs[ci].tiles && !info.per_tile,
            "%s: error tile %d per_tile %d", tag, info.error_tile, info.per_tile);
      wl_result_t res;
      const int syn = check_workload(text, &info, &res, tag);
      CHECK(syn == 0 && res.bad_words == 0, "%s: syntax %d bad words %d", tag, syn, res.bad_words);
      /* the first run: every tile but the error tile halts cleanly; the second run starts from
       * registers the generator treats as unknown, so it is checked the same way */
      CHECK(res.valid_fail == 0, "%s: %d valid tiles failed", tag, res.valid_fail);
      tried++;
      stops += res.error_stops > 0;
      free(text);
    }
  CHECK(stops * 10 >= tried * 7, "error tile stopped with an error in %d of %d workloads", stops, tried);
  printf("error workloads: the error tile stopped with an error in %d of %d\n", stops, tried);

  /* bad configurations and options */
  mna_rand_cfg_t c;
  mna_rand_opt_t o;
  char err[256];
  mna_rand_cfg_default(&c);
  mna_rand_opt_default(&o);
  c.emacs = 6;
  CHECK(mna_rand_string(&c, &o, NULL, NULL, err, sizeof err) == NULL && strstr(err, "emacs"), "%s", err);
  mna_rand_cfg_default(&c);
  c.ms_lines = 15;
  CHECK(mna_rand_string(&c, &o, NULL, NULL, err, sizeof err) == NULL && strstr(err, "ms"), "%s", err);
  mna_rand_cfg_default(&c);
  c.tiles = 3;
  CHECK(mna_rand_string(&c, &o, NULL, NULL, err, sizeof err) == NULL && strstr(err, "tiles"), "%s", err);
  mna_rand_cfg_default(&c);
  o.runs = 3;
  CHECK(mna_rand_string(&c, &o, NULL, NULL, err, sizeof err) == NULL && strstr(err, "runs"), "%s", err);
}

int main(void) {
  test_encodings();
  test_round_trip();
  test_errors();
  test_loops();
  test_random_workloads();
  return CHECK_SUMMARY();
}
