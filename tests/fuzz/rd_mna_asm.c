/* rd_mna_asm.c -- fuzz target of the MANNA assembler mna_assemble (sw/manna/libmna_asm.c).
 * Oracles: an error is one line "in:<line>: ..."; an accepted program's every word round-trips
 * through the disassembler (mna_assemble(mna_asm_disasm(w)) == w, inside an open loop as the
 * unit test does), the property sw/manna/mna_asm.h states. */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "manna/mna_asm.h"

#define MAXW 4096

int fz_one(const uint8_t *d, size_t n) {
  char *src = malloc(n + 1);
  if (!src) return -1;
  memcpy(src, d, n);
  src[n] = '\0';
  static uint64_t w[MAXW];
  size_t nw = 0;
  char err[512] = "";
  int rc = mna_assemble(src, "in", w, MAXW, &nw, err, sizeof err);
  free(src);
  if (rc != 0) {
    FZ_CHECK(rc == -1 && !strncmp(err, "in:", 3) && !strchr(err, '\n'),
             "refused without a one-line 'in:<line>: ...' reason: %d '%s'", rc, err);
    fz_log("refused: %s\n", err);
    return 0;
  }
  FZ_CHECK(nw <= MAXW, "%zu words", nw);
  for (size_t i = 0; i < nw; i++) {
    char text[96], s[160];
    uint64_t back[4] = {0, 0, 0, 0};
    size_t bn = 0;
    mna_asm_disasm(w[i], text, sizeof text);
    snprintf(s, sizeof s, "loop s0, @0\n%s\n", text);
    int r = mna_assemble(s, NULL, back, 4, &bn, err, sizeof err);
    FZ_CHECK(r == 0 && bn == 2 && back[1] == w[i],
             "word %zu 0x%016llx disassembles to '%s', which assembles to %s0x%016llx", i,
             (unsigned long long)w[i], text, r ? err : "", (unsigned long long)back[1]);
  }
  fz_log("%zu words\n", nw);
  return 0;
}
