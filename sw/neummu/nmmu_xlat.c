/* nmmu_xlat -- loads a NeuMMU memory image (neummu.h; written by nmmu_ptgen) and translates
 * virtual addresses with the golden model: a quick look at what the harness will expect.
 *
 * usage: nmmu_xlat <image> [r|w]:<hex va> ...      translate the given requests
 *        nmmu_xlat <image> -                        requests from stdin, one a line:
 *                                                   'r <hex va>' or 'w <hex va>' ('#' comments)
 *        nmmu_xlat <image>                          only load the image and summarize it
 *
 * Output, one line a request:  <r|w> <va> ok <pa> <4k|2m> levels <n>
 *                          or  <r|w> <va> not-present levels <n>
 *                          or  <r|w> <va> perm-fault <4k|2m> levels <n>
 * and on stderr a summary ("<image>: root 0x.., N words").  A bad image, argument or request
 * line: one-line error on stderr, exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "neummu.h"

#define PROG "nmmu_xlat"

/* Hex VA with an optional 0x prefix: at most 16 digits. */
static int parse_hex(const char *s, uint64_t *v) {
  return strlen(cutil_skip_0x(s)) > 16 ? -1 : cutil_parse_hex(s, UINT64_MAX, v);
}

static void show(const nmmu_mem_t *m, uint64_t va, int wr) {
  nmmu_xlat_t r = nmmu_translate(m, va, wr);
  const char *c = wr ? "w" : "r";
  if (r.status == NMMU_ST_OK)
    printf("%s 0x%llx ok 0x%llx %s levels %d\n", c, (unsigned long long)va,
           (unsigned long long)r.pa, r.page_2m ? "2m" : "4k", r.levels);
  else if (r.status == NMMU_ST_NOT_PRESENT)
    printf("%s 0x%llx not-present levels %d\n", c, (unsigned long long)va, r.levels);
  else
    printf("%s 0x%llx perm-fault %s levels %d\n", c, (unsigned long long)va,
           r.page_2m ? "2m" : "4k", r.levels);
}

int main(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: " PROG " <image> [r|w]:<hex va> ... | " PROG " <image> -\n");
    return 0;
  }
  if (argc < 2) {
    fprintf(stderr, PROG ": expected <image> [requests] (see --help)\n");
    return 2;
  }
  /* requests are checked before the (possibly large) image is loaded */
  for (int i = 2; i < argc; i++) {
    uint64_t va;
    const char *a = argv[i];
    if (!strcmp(a, "-") && argc == 3) continue;
    if (!((a[0] == 'r' || a[0] == 'w') && a[1] == ':' && parse_hex(a + 2, &va) == 0)) {
      fprintf(stderr, PROG ": bad request '%s' (expected r:<hex va> or w:<hex va>)\n", a);
      return 2;
    }
  }
  char err[512];
  nmmu_mem_t *m = nmmu_mem_load(argv[1], err, sizeof err);
  if (!m) {
    fprintf(stderr, PROG ": %s\n", err);
    return 2;
  }
  fprintf(stderr, PROG ": %s: root 0x%llx, %zu words\n", argv[1],
          (unsigned long long)nmmu_mem_root(m), nmmu_mem_words(m));
  int rc = 0;
  if (argc == 3 && !strcmp(argv[2], "-")) {
    char line[256], why[64];
    long ln = 0;
    int got;
    while ((got = cutil_read_line(stdin, line, sizeof line, &ln, why, sizeof why)) != 0) {
      if (got < 0) {
        fprintf(stderr, PROG ": <stdin>:%ld: %s\n", ln, why);
        rc = 2;
        break;
      }
      char *tok[2];
      int more;
      int n = cutil_tokenize(line, tok, 2, &more);
      if (n == 0) continue;
      uint64_t va;
      if (n != 2 || more || (strcmp(tok[0], "r") && strcmp(tok[0], "w")) ||
          parse_hex(tok[1], &va) < 0) {
        fprintf(stderr, PROG ": <stdin>:%ld: expected 'r <hex va>' or 'w <hex va>'\n", ln);
        rc = 2;
        break;
      }
      show(m, va, tok[0][0] == 'w');
    }
  } else {
    for (int i = 2; i < argc; i++) {
      uint64_t va;
      parse_hex(argv[i] + 2, &va);
      show(m, va, argv[i][0] == 'w');
    }
  }
  nmmu_mem_free(m);
  return rc;
}
