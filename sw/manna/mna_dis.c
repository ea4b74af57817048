/* mna_dis -- the MANNA tile disassembler (syntax: sw/manna/mna_asm.h).
 *   mna_dis [FILE.hex]      (no FILE or "-": standard input)
 * Input: hex words (up to 16 digits, optional 0x), any number a line, '#' comments -- mna_as
 * output -- or a workload file (docs/manna.md, "Workload files"): its `p T ADDR W...` records
 * are disassembled (a "# tile T" line where T changes; other records are skipped).
 * Output: "PC: WORD  DISASSEMBLY" a word (ill-formed words as .word 0x...).
 * Bad arguments or input: one line "mna_dis: <reason>" on stderr, exit status 2. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna/mna_asm.h"

static const char *const kProg = "mna_dis";

#define fail(...) cutil_fail(kProg, __VA_ARGS__) /* one line on stderr, exit status 2 */

static void print_word(unsigned long pc, uint64_t w) {
  char b[64];
  printf("%4lu: %016llx  %s\n", pc, (unsigned long long)w, mna_asm_disasm(w, b, sizeof b));
}

static uint64_t parse_word(const char *path, long line, const char *t) {
  uint64_t w;
  if (cutil_parse_hex(t, ~0ull, &w) || strlen(cutil_skip_0x(t)) > 16)
    fail("%s:%ld: bad word '%s' (expected up to 16 hex digits)", path, line, t);
  return w;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: mna_dis [FILE.hex]\n");
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fail("unknown argument '%s'", argv[i]);
    } else if (path) {
      fail("more than one input file ('%s' and '%s')", path, argv[i]);
    } else {
      path = argv[i];
    }
  }
  FILE *f = path && strcmp(path, "-") ? fopen(path, "r") : stdin;
  const char *name = path && strcmp(path, "-") ? path : "<stdin>";
  if (!f) fail("cannot read %s", path);
  static char buf[1 << 16];
  char *tok[512];
  long line = 0;
  unsigned long pc = 0;
  char why[128];
  char tile[32] = "";
  for (;;) {
    const int nt = cutil_read_tokens(f, buf, sizeof buf, tok, 512, &line, NULL, why, sizeof why);
    if (nt == 0) break;
    if (nt < 0) fail("%s:%ld: %s", name, line, why);
    if (!strcmp(tok[0], "p")) {
      uint64_t addr;
      if (nt < 3 || cutil_parse_num(tok[2], &addr))
        fail("%s:%ld: bad p record (expected p T ADDR HEX64...)", name, line);
      if (strcmp(tile, tok[1])) {
        snprintf(tile, sizeof tile, "%s", tok[1]);
        printf("# tile %s\n", tile);
      }
      for (int k = 3; k < nt; k++) print_word((unsigned long)addr + (unsigned long)(k - 3), parse_word(name, line, tok[k]));
      continue;
    }
    if (!strcmp(tok[0], "cfg") || !strcmp(tok[0], "m") || !strcmp(tok[0], "s") || !strcmp(tok[0], "c"))
      continue;
    for (int k = 0; k < nt; k++) print_word(pc++, parse_word(name, line, tok[k]));
  }
  if (ferror(f)) fail("read error on %s", name);
  if (f != stdin) fclose(f);
  if (fflush(stdout) != 0) fail("write error on stdout");
  return 0;
}
