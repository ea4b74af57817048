/* libmna_asm.c -- assembler and disassembler of the MANNA tile ISA (sw/manna/mna_asm.h has the
 * syntax and the rules).  One table describes every mnemonic: its opcode, the flag bits that
 * name the variant (el OP, sfu FN), its operands in order with the field each one fills, and its
 * optional flag words.  The disassembler decodes a word through the same table and re-encodes
 * the operands it found: a word is well-formed exactly when that gives the word back. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna/mna_asm.h"

/* Operand kinds: s scalar register, a address generator, r RF register, l agen level 0..15,
 * i imm32, x an a- or s-register (flag bit2 in field C, bit3 in field D), e optional loop end.
 * Fields: A B C D F, I = imm32. */
typedef struct {
  const char *name;
  unsigned op, flags, vmask; /* base flags and the flag bits that select the variant */
  const char *kinds, *fields;
  const char *optname[2];
  unsigned optbit[2];
  const char *syntax;
} insn_t;

static const insn_t kInsns[] = {
    {"nop", MNA_OP_NOP, 0, 0, "", "", {0, 0}, {0, 0}, "nop"},
    {"halt", MNA_OP_HALT, 0, 0, "", "", {0, 0}, {0, 0}, "halt"},
    {"li", MNA_OP_LI, 0, 0, "si", "AI", {0, 0}, {0, 0}, "li sA, imm"},
    {"addi", MNA_OP_ADDI, 0, 0, "ssi", "ABI", {0, 0}, {0, 0}, "addi sA, sB, imm"},
    {"loop", MNA_OP_LOOP, 0, 0, "se", "AI", {0, 0}, {0, 0}, "loop sA [, @end]"},
    {"endloop", MNA_OP_ENDLOOP, 0, 0, "", "", {0, 0}, {0, 0}, "endloop"},
    {"agen", MNA_OP_AGEN, 0, 0, "alss", "ABCD", {0, 0}, {0, 0}, "agen aA, level, sC, sD"},
    {"dmat", MNA_OP_DMAT, 0, 0, "aass", "ABCD", {"pad", "store"}, {MNA_FL_PAD, MNA_FL_STORE},
     "dmat aA, aB, sC, sD [pad] [store]"},
    {"dma", MNA_OP_DMA, 0, 0, "aas", "ABC", {"store", 0}, {MNA_FL_STORE, 0}, "dma aA, aB, sC [store]"},
    {"vmm", MNA_OP_VMM, 0, 0, "raas", "ABCD", {"t", "sq"}, {MNA_FL_T, MNA_FL_SQ},
     "vmm rA, aB, aC, sD [t] [sq]"},
    {"swr", MNA_OP_SWR, 0, 0, "aarrs", "ABCDF", {0, 0}, {0, 0}, "swr aA, aB, rC, rD, sF"},
    {"el.add", MNA_OP_EL, MNA_EL_ADD, 3, "aaxs", "ABCF", {0, 0}, {0, 0}, "el.add aA, aB, aC|sC, sF"},
    {"el.sub", MNA_OP_EL, MNA_EL_SUB, 3, "aaxs", "ABCF", {0, 0}, {0, 0}, "el.sub aA, aB, aC|sC, sF"},
    {"el.mul", MNA_OP_EL, MNA_EL_MUL, 3, "aaxs", "ABCF", {0, 0}, {0, 0}, "el.mul aA, aB, aC|sC, sF"},
    {"el.fma", MNA_OP_EL, MNA_EL_FMA, 3, "aaxxs", "ABCDF", {0, 0}, {0, 0},
     "el.fma aA, aB, aC|sC, aD|sD, sF"},
    {"rfz", MNA_OP_RFZ, 0, 0, "r", "A", {0, 0}, {0, 0}, "rfz rA"},
    {"rfld", MNA_OP_RFLD, 0, 0, "ra", "AB", {0, 0}, {0, 0}, "rfld rA, aB"},
    {"rfst", MNA_OP_RFST, 0, 0, "ra", "AB", {0, 0}, {0, 0}, "rfst rA, aB"},
    {"sfu.exp", MNA_OP_SFU, MNA_SFU_EXP, 7, "aas", "ABD", {0, 0}, {0, 0}, "sfu.exp aA, aB, sD"},
    {"sfu.recip", MNA_OP_SFU, MNA_SFU_RECIP, 7, "aas", "ABD", {0, 0}, {0, 0}, "sfu.recip aA, aB, sD"},
    {"sfu.sqrt", MNA_OP_SFU, MNA_SFU_SQRT, 7, "aas", "ABD", {0, 0}, {0, 0}, "sfu.sqrt aA, aB, sD"},
    {"sfu.relu", MNA_OP_SFU, MNA_SFU_RELU, 7, "aas", "ABD", {0, 0}, {0, 0}, "sfu.relu aA, aB, sD"},
    {"sfu.sigmoid", MNA_OP_SFU, MNA_SFU_SIGMOID, 7, "aas", "ABD", {0, 0}, {0, 0},
     "sfu.sigmoid aA, aB, sD"},
    {"sfu.sum", MNA_OP_SFU, MNA_SFU_SUM, 7, "aas", "ABD", {0, 0}, {0, 0}, "sfu.sum aA, aB, sD"},
    {"sfu.dot", MNA_OP_SFU, MNA_SFU_DOT, 7, "aaas", "ABCD", {0, 0}, {0, 0}, "sfu.dot aA, aB, aC, sD"},
    {"sld", MNA_OP_SLD, 0, 0, "sa", "AB", {0, 0}, {0, 0}, "sld sA, aB"},
    {"sst", MNA_OP_SST, 0, 0, "sa", "AB", {0, 0}, {0, 0}, "sst sA, aB"},
    {"reduce", MNA_OP_REDUCE, 0, 0, "as", "AB", {0, 0}, {0, 0}, "reduce aA, sB"},
    {"bcast", MNA_OP_BCAST, 0, 0, "as", "AB", {0, 0}, {0, 0}, "bcast aA, sB"},
};
#define NINSNS (sizeof kInsns / sizeof kInsns[0])

static const insn_t *find_mnemonic(const char *s) {
  for (size_t i = 0; i < NINSNS; i++)
    if (!strcmp(kInsns[i].name, s)) return &kInsns[i];
  return NULL;
}

static const insn_t *find_word(uint64_t w) {
  const unsigned op = mna_op(w), fl = mna_flags(w);
  for (size_t i = 0; i < NINSNS; i++)
    if (kInsns[i].op == op && (fl & kInsns[i].vmask) == kInsns[i].flags) return &kInsns[i];
  return NULL;
}

int mna_asm_op_defined(unsigned op) {
  for (size_t i = 0; i < NINSNS; i++)
    if (kInsns[i].op == op) return 1;
  return 0;
}

/* ---------------------------------------------------------------- encoding helpers */
typedef struct {
  unsigned f[5]; /* A B C D F */
  unsigned flags;
  uint32_t imm;
} enc_t;

static unsigned *field_slot(enc_t *e, char fld) {
  switch (fld) {
    case 'A': return &e->f[0];
    case 'B': return &e->f[1];
    case 'C': return &e->f[2];
    case 'D': return &e->f[3];
    default: return &e->f[4];
  }
}

static unsigned xbit(char fld) { return fld == 'C' ? MNA_FL_BS : MNA_FL_CS; }

static uint64_t encode(const insn_t *in, const enc_t *e) {
  return mna_enc(in->op, e->f[0], e->f[1], e->f[2], e->f[3], e->f[4], e->flags, e->imm);
}

/* ---------------------------------------------------------------- disassembler */
static void fmt_imm(char *b, size_t n, uint32_t v) {
  if (v < 0x10000u) snprintf(b, n, "%u", (unsigned)v);
  else if (v >= 0xFFFF0001u) snprintf(b, n, "-%u", (unsigned)(0u - v));
  else snprintf(b, n, "0x%08x", (unsigned)v);
}

/* Decodes w into text (when buf) and reports whether it is well-formed. */
static int decode(uint64_t w, char *buf, size_t n) {
  const insn_t *in = find_word(w);
  if (!in) return 0;
  const unsigned fl = mna_flags(w);
  const unsigned raw[5] = {mna_fa(w), mna_fb(w), mna_fc(w), mna_fd(w), mna_ff(w)};
  enc_t e = {{0, 0, 0, 0, 0}, in->flags, 0};
  char text[128];
  size_t len = (size_t)snprintf(text, sizeof text, "%s", in->name);
  for (size_t k = 0; in->kinds[k]; k++) {
    const char kind = in->kinds[k], fld = in->fields[k];
    char op[24];
    if (fld == 'I') {
      e.imm = mna_imm(w);
      if (kind == 'e') snprintf(op, sizeof op, "@%u", (unsigned)e.imm);
      else fmt_imm(op, sizeof op, e.imm);
    } else {
      unsigned *slot = field_slot(&e, fld);
      const unsigned v = raw[slot - e.f];
      char reg = kind == 'x' ? ((fl & xbit(fld)) ? 's' : 'a') : kind;
      if (kind == 'x' && reg == 's') e.flags |= xbit(fld);
      if (reg == 'a' && v >= MNA_AGENS) return 0;
      *slot = v;
      if (reg == 'l') snprintf(op, sizeof op, "%u", v);
      else snprintf(op, sizeof op, "%c%u", reg, v);
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", k ? ", " : " ", op);
  }
  for (int k = 0; k < 2; k++)
    if (in->optname[k] && (fl & in->optbit[k])) {
      e.flags |= in->optbit[k];
      len += (size_t)snprintf(text + len, sizeof text - len, " %s", in->optname[k]);
    }
  if (encode(in, &e) != w) return 0;
  if (buf) snprintf(buf, n, "%s", text);
  return 1;
}

char *mna_asm_disasm(uint64_t w, char *buf, size_t n) {
  if (!buf || !n) return buf;
  if (!decode(w, buf, n)) snprintf(buf, n, ".word 0x%016llx", (unsigned long long)w);
  return buf;
}

int mna_asm_wellformed(uint64_t w) { return decode(w, NULL, 0); }

/* ---------------------------------------------------------------- assembler */
#define LINE_MAX_CHARS 1023
#define MAX_TOKS 16

typedef struct {
  char name[64];
  uint32_t pc;
} label_t;

typedef struct {
  char name[64];
  size_t at; /* the word to patch */
  long line;
} fixup_t;

typedef struct {
  const char *fname;
  long line;
  char *err;
  size_t errlen;
  label_t *labels;
  size_t nlabels, caplabels;
  fixup_t *fix;
  size_t nfix, capfix;
} asm_t;

/* Sets the error message "fname:line: ..." and returns -1. */
static int aerr(asm_t *a, const char *fmt, ...) CUTIL_PRINTF(2, 3);
static int aerr(asm_t *a, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cutil_seterr_line(a->err, a->errlen, a->fname, a->line, "%s", msg);
  return -1;
}
#define AERR aerr

static int grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap * 2 : 16;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * size);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

static int is_ident(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '.'))
      return 0;
  return 1;
}

static const label_t *find_label(const asm_t *a, const char *name) {
  for (size_t i = 0; i < a->nlabels; i++)
    if (!strcmp(a->labels[i].name, name)) return &a->labels[i];
  return NULL;
}

/* A register operand: prefix c ('s', 'a' or 'r') and 0..hi. */
static int parse_reg(const char *t, char c, unsigned hi, unsigned *v) {
  uint64_t x;
  if (t[0] != c || t[1] == '+' || cutil_parse_dec(t + 1, 0, hi, &x)) return -1;
  if (t[1] == '0' && t[2]) return -1; /* no leading zeros: s01 */
  *v = (unsigned)x;
  return 0;
}

static const char *reg_range(char c) {
  return c == 's' ? "s0..s15" : c == 'a' ? "a0..a7" : "r0..r15";
}

/* imm32: integer -2^31..2^32-1 or an fp32 literal with an f suffix. */
static int parse_imm(asm_t *a, const char *t, uint32_t *out) {
  const int neg = t[0] == '-';
  const char *u = t + neg;
  const size_t len = strlen(t);
  const int hex = u[0] == '0' && (u[1] == 'x' || u[1] == 'X');
  if (!hex && len > 1 && (t[len - 1] == 'f' || t[len - 1] == 'F')) {
    char num[64];
    if (len - 1 >= sizeof num) return AERR(a, "bad fp32 literal '%s' (expected e.g. 1.5f)", t);
    memcpy(num, t, len - 1);
    num[len - 1] = 0;
    const char c0 = u[0];
    if (!((c0 >= '0' && c0 <= '9') || c0 == '.' || c0 == 'i' || c0 == 'n'))
      return AERR(a, "bad fp32 literal '%s' (expected e.g. 1.5f)", t);
    char *end;
    errno = 0;
    const float f = strtof(num, &end);
    if (*end || end == num) return AERR(a, "bad fp32 literal '%s' (expected e.g. 1.5f)", t);
    if (isinf(f) && c0 != 'i')
      return AERR(a, "fp32 literal '%s' out of range (expected a magnitude below 3.4e38)", t);
    *out = cutil_f32_bits(f);
    return 0;
  }
  uint64_t v;
  if (!*u || *u == '+' || *u == '-' || cutil_parse_num(u, &v))
    return AERR(a, "bad immediate '%s' (expected an integer, 0x hex or an fp32 literal like 1.5f)", t);
  if ((neg && v > 0x80000000ull) || v > 0xFFFFFFFFull)
    return AERR(a, "immediate '%s' out of range (expected -2147483648..4294967295)", t);
  *out = neg ? (uint32_t)(0u - (uint32_t)v) : (uint32_t)v;
  return 0;
}

typedef struct {
  size_t pc;
  long line;
  int implicit;
} open_loop_t;

/* Splits the operand text at commas and blanks into toks; an empty operand is an error. */
static int split_operands(asm_t *a, char *s, char **toks, int *nt) {
  *nt = 0;
  while (*s == ' ' || *s == '\t') s++;
  if (!*s) return 0;
  for (;;) {
    char *comma = strchr(s, ',');
    if (comma) *comma = 0;
    char *tk[MAX_TOKS];
    int more = 0;
    const int k = cutil_tokenize(s, tk, MAX_TOKS, &more);
    if (k == 0) return AERR(a, "empty operand (expected an operand between commas)");
    if (more || *nt + k > MAX_TOKS) return AERR(a, "too many operands (expected at most %d)", MAX_TOKS);
    for (int i = 0; i < k; i++) toks[(*nt)++] = tk[i];
    if (!comma) return 0;
    s = comma + 1;
  }
}

static int assemble_insn(asm_t *a, const insn_t *in, char **tok, int nt, uint64_t *w, int *implicit,
                         const char **label_ref) {
  enc_t e = {{0, 0, 0, 0, 0}, in->flags, 0};
  const int nkinds = (int)strlen(in->kinds);
  const int optional_end = nkinds && in->kinds[nkinds - 1] == 'e';
  /* trailing flag words */
  while (nt > 0) {
    int hit = -1;
    for (int k = 0; k < 2; k++)
      if (in->optname[k] && !strcmp(tok[nt - 1], in->optname[k])) hit = k;
    if (hit < 0) break;
    if (e.flags & in->optbit[hit])
      return AERR(a, "flag '%s' given twice (expected %s)", in->optname[hit], in->syntax);
    e.flags |= in->optbit[hit];
    nt--;
  }
  const int need = nkinds - optional_end;
  if (nt < need || nt > nkinds) {
    if (nt > nkinds && in->optname[0])
      return AERR(a, "unexpected operand '%s' for %s (expected %s)", tok[nkinds], in->name, in->syntax);
    return AERR(a, "wrong operand count for %s: %d (expected %s)", in->name, nt, in->syntax);
  }
  *implicit = optional_end && nt == need;
  *label_ref = NULL;
  for (int k = 0; k < nt; k++) {
    const char kind = in->kinds[k], fld = in->fields[k];
    const char *t = tok[k];
    if (kind == 'i') {
      if (parse_imm(a, t, &e.imm)) return -1;
      continue;
    }
    if (kind == 'e') {
      uint64_t v;
      if (t[0] != '@' || !t[1]) return AERR(a, "bad loop end '%s' (expected @PC or @label)", t);
      if (is_ident(t + 1)) {
        *label_ref = t + 1;
        continue;
      }
      if (cutil_parse_num(t + 1, &v) || v > 0xFFFFFFFFull)
        return AERR(a, "bad loop end '%s' (expected @PC with PC 0..4294967295, or @label)", t);
      e.imm = (uint32_t)v;
      continue;
    }
    unsigned *slot = field_slot(&e, fld), v;
    if (kind == 'l') {
      uint64_t x;
      if (cutil_parse_num(t, &x)) return AERR(a, "bad level '%s' (expected a number 0..15)", t);
      if (x > 15) return AERR(a, "level '%s' out of range (expected 0..15)", t);
      *slot = (unsigned)x;
      continue;
    }
    char reg = kind;
    if (kind == 'x') {
      reg = t[0] == 's' ? 's' : 'a';
      if (t[0] != 's' && t[0] != 'a')
        return AERR(a, "bad operand '%s' for %s (expected a0..a7 or s0..s15)", t, in->name);
    }
    if (parse_reg(t, reg, reg == 'a' ? 7 : 15, &v)) {
      if (t[0] == reg)
        return AERR(a, "bad register '%s' (expected %s)", t, reg_range(reg));
      return AERR(a, "bad operand '%s' for %s (expected %s register %s)", t, in->name,
                  reg == 's' ? "a scalar" : reg == 'a' ? "an address" : "an RF", reg_range(reg));
    }
    if (kind == 'x' && reg == 's') e.flags |= xbit(fld);
    *slot = v;
  }
  *w = encode(in, &e);
  return 0;
}

int mna_assemble(const char *src, const char *fname, uint64_t *out, size_t max, size_t *n,
                 char *err, size_t errlen) {
  asm_t a;
  memset(&a, 0, sizeof a);
  a.fname = fname;
  a.err = err;
  a.errlen = errlen;
  if (err && errlen) err[0] = 0;
  open_loop_t stack[MNA_LOOP_LEVELS];
  int depth = 0, rc = -1;
  size_t pc = 0;
  *n = 0;
  const char *p = src ? src : "";
  char line[LINE_MAX_CHARS + 2];
  while (*p) {
    const char *eol = strchr(p, '\n');
    const size_t len = eol ? (size_t)(eol - p) : strlen(p);
    a.line++;
    if (len > LINE_MAX_CHARS) {
      AERR(&a, "line too long (expected at most %d characters)", LINE_MAX_CHARS);
      goto out;
    }
    memcpy(line, p, len);
    line[len] = 0;
    p += len + (eol ? 1 : 0);
    for (char *c = line; *c; c++)
      if (*c == '#' || *c == ';') {
        *c = 0;
        break;
      }
    char *s = line;
    /* labels */
    for (;;) {
      while (*s == ' ' || *s == '\t' || *s == '\r') s++;
      char *q = s;
      while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != ':' && *q != ',') q++;
      if (*q != ':') break;
      *q = 0;
      if (!is_ident(s) || strlen(s) >= sizeof a.labels[0].name) {
        AERR(&a, "bad label '%s' (expected a name of letters, digits, '_' and '.', at most 63)", s);
        goto out;
      }
      if (find_label(&a, s)) {
        AERR(&a, "duplicate label '%s' (expected each label defined once)", s);
        goto out;
      }
      if (grow((void **)&a.labels, &a.caplabels, a.nlabels + 1, sizeof(label_t))) {
        AERR(&a, "out of memory");
        goto out;
      }
      memcpy(a.labels[a.nlabels].name, s, strlen(s) + 1);
      a.labels[a.nlabels++].pc = (uint32_t)pc;
      s = q + 1;
    }
    /* mnemonic */
    char *m = s;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r') s++;
    if (*s) *s++ = 0;
    if (!*m) continue;
    const insn_t *in = find_mnemonic(m);
    if (!in && strcmp(m, ".word")) {
      AERR(&a, "unknown mnemonic '%s' (expected an instruction of docs/manna.md or .word)", m);
      goto out;
    }
    char *tok[MAX_TOKS];
    int nt;
    if (split_operands(&a, s, tok, &nt)) goto out;
    if (!in) { /* .word */
      if (nt == 0) {
        AERR(&a, "wrong operand count for .word: 0 (expected .word value [, value ...])");
        goto out;
      }
      for (int k = 0; k < nt; k++) {
        uint64_t v;
        const char *t = tok[k];
        if (t[0] == '-' || t[0] == '+' || cutil_parse_num(t, &v)) {
          AERR(&a, "bad .word value '%s' (expected decimal or 0x hex below 2^64)", t);
          goto out;
        }
        if (pc >= max) {
          AERR(&a, "program longer than %zu words (expected at most %zu)", max, max);
          goto out;
        }
        out[pc++] = v;
      }
      continue;
    }
    uint64_t w = 0;
    int implicit = 0;
    const char *lref = NULL;
    if (assemble_insn(&a, in, tok, nt, &w, &implicit, &lref)) goto out;
    if (pc >= max) {
      AERR(&a, "program longer than %zu words (expected at most %zu)", max, max);
      goto out;
    }
    if (in->op == MNA_OP_LOOP) {
      if (depth >= MNA_LOOP_LEVELS) {
        AERR(&a, "loop nesting deeper than %d levels (expected at most %d nested loops)",
             MNA_LOOP_LEVELS, MNA_LOOP_LEVELS);
        goto out;
      }
      stack[depth].pc = pc;
      stack[depth].line = a.line;
      stack[depth++].implicit = implicit;
      if (lref) {
        if (grow((void **)&a.fix, &a.capfix, a.nfix + 1, sizeof(fixup_t))) {
          AERR(&a, "out of memory");
          goto out;
        }
        if (strlen(lref) >= sizeof a.fix[0].name) {
          AERR(&a, "bad label '%s' (expected at most 63 characters)", lref);
          goto out;
        }
        memcpy(a.fix[a.nfix].name, lref, strlen(lref) + 1);
        a.fix[a.nfix].at = pc;
        a.fix[a.nfix++].line = a.line;
      }
    } else if (in->op == MNA_OP_ENDLOOP) {
      if (depth == 0) {
        AERR(&a, "endloop without loop (expected a loop before it)");
        goto out;
      }
      depth--;
      if (stack[depth].implicit)
        out[stack[depth].pc] |= (uint64_t)(uint32_t)(pc + 1); /* imm was 0 */
    }
    out[pc++] = w;
  }
  for (int d = 0; d < depth; d++)
    if (stack[d].implicit) {
      a.line = stack[d].line;
      AERR(&a, "loop without endloop (expected an endloop for this loop before the end)");
      goto out;
    }
  for (size_t i = 0; i < a.nfix; i++) {
    const label_t *l = find_label(&a, a.fix[i].name);
    if (!l) {
      a.line = a.fix[i].line;
      AERR(&a, "undefined label '%s' (expected a label defined in the program)", a.fix[i].name);
      goto out;
    }
    out[a.fix[i].at] |= l->pc;
  }
  *n = pc;
  rc = 0;
out:
  free(a.labels);
  free(a.fix);
  return rc;
}
