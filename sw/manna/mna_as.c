/* mna_as -- the MANNA tile assembler (syntax and errors: sw/manna/mna_asm.h).
 *   mna_as [-o OUT.hex] FILE.s      (FILE "-": standard input)
 * Writes one 16-digit hex word a line (stdout by default; OUT "-" is stdout too).
 * Bad arguments or input: one line "mna_as: <reason>" on stderr, exit status 2
 * (assembly errors as "mna_as: FILE:LINE: what is wrong (what was expected)"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna/mna_asm.h"

static const char *const kProg = "mna_as";
#define MAX_WORDS (1u << 20)

#define fail(...) cutil_fail(kProg, __VA_ARGS__) /* one line on stderr, exit status 2 */

static char *read_all(const char *path) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) fail("cannot read %s", path);
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  if (!b) fail("out of memory");
  for (;;) {
    if (n + 4096 + 1 > cap) {
      char *q = realloc(b, cap *= 2);
      if (!q) fail("out of memory");
      b = q;
    }
    const size_t r = fread(b + n, 1, cap - n - 1, f);
    n += r;
    if (r == 0) break;
  }
  const int bad = ferror(f);
  if (f != stdin) fclose(f);
  if (bad) fail("read error on %s", path);
  if (memchr(b, 0, n)) fail("%s: not a text file (a NUL byte)", path);
  b[n] = 0;
  return b;
}

int main(int argc, char **argv) {
  const char *in = NULL, *outp = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc) fail("-o needs a value");
      outp = argv[++i];
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: mna_as [-o OUT.hex] FILE.s\n");
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fail("unknown argument '%s'", argv[i]);
    } else if (in) {
      fail("more than one input file ('%s' and '%s')", in, argv[i]);
    } else {
      in = argv[i];
    }
  }
  if (!in) fail("no input file (usage: mna_as [-o OUT.hex] FILE.s)");
  char *src = read_all(in);
  uint64_t *w = malloc(MAX_WORDS * sizeof *w);
  if (!w) fail("out of memory");
  size_t n = 0;
  char err[512];
  if (mna_assemble(src, strcmp(in, "-") ? in : "<stdin>", w, MAX_WORDS, &n, err, sizeof err))
    fail("%s", err);
  FILE *f = outp && strcmp(outp, "-") ? fopen(outp, "w") : stdout;
  if (!f) fail("cannot write %s", outp);
  for (size_t k = 0; k < n; k++) fprintf(f, "%016llx\n", (unsigned long long)w[k]);
  const int werr = ferror(f);
  if ((f != stdout ? fclose(f) : fflush(f)) != 0 || werr)
    fail("write error on %s", f != stdout ? outp : "stdout");
  free(w);
  free(src);
  return 0;
}
