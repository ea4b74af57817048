/* rd_mna_wl.c -- fuzz target of the MANNA workload loader mna_wl_load (sw/manna/libmna_kern.c),
 * which reads a workload file into the golden model and runs its programs (at most 20000
 * instructions a tile per run here; mna_cycles allows 10^9).  Oracle: an error is one line
 * "in:<line>: ...". */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "manna/mna_kern.h"

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  mna_t *m = NULL;
  mna_wl_info_t info;
  char err[512] = "";
  int rc = mna_wl_load(&m, NULL, f, "in", 20000, &info, err, sizeof err);
  fclose(f);
  if (rc != 0) {
    FZ_CHECK(rc == -1 && !strncmp(err, "in:", 3) && !strchr(err, '\n'),
             "refused without a one-line 'in:<line>: ...' reason: %d '%s'", rc, err);
    fz_log("refused: %s\n", err);
  } else {
    FZ_CHECK(info.ncmp == 0 || info.cmp != NULL, "compare ranges lost");
    fz_log("loaded: %d runs, %llu cycles\n", info.runs, (unsigned long long)info.total_cycles);
    mna_wl_info_free(&info);
  }
  if (m) mna_free(m);
  return 0;
}
