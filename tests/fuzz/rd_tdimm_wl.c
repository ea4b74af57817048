/* rd_tdimm_wl.c -- fuzz target of the TensorDIMM workload reader tdimm_wl_read (sw/tensordimm/
 * libtdimm_rt.c).  Oracles: an error is one line naming the file; an accepted workload is
 * written back (tdimm_wl_write), the copy reads back, and writing that gives the same bytes (the
 * header's promise: tdimm_wl_read reads tdimm_wl_write's form back to an equal workload). */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "tensordimm/tdimm_rt.h"

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  char in[4352], pa[4352], pb[4352], err[600] = "";
  snprintf(in, sizeof in, "%s", path);
  tdimm_wl_t wl, w2;
  if (tdimm_wl_read(in, &wl, err, sizeof err) != 0) {
    FZ_CHECK(err[0] && !strchr(err, '\n') && strstr(err, in), "refused without a one-line reason "
             "naming the file: '%s'", err);
    fz_log("refused: %s\n", err);
    return 0;
  }
  FILE *f = fopen(fz_path("a", pa, sizeof pa), "w");
  FZ_CHECK(f && tdimm_wl_write(f, &wl, NULL) == 0 && fclose(f) == 0, "write failed");
  FZ_CHECK(tdimm_wl_read(pa, &w2, err, sizeof err) == 0,
           "the written workload does not read back: %s", err);
  f = fopen(fz_path("b", pb, sizeof pb), "w");
  FZ_CHECK(f && tdimm_wl_write(f, &w2, NULL) == 0 && fclose(f) == 0, "write failed");
  FZ_CHECK(fz_same_files("a", "b"), "write(read(write(wl))) differs from write(wl)");
  fz_log("loaded: %zu records, %zu instructions\n", wl.n_rec, wl.n_insn);
  tdimm_wl_free(&w2);
  tdimm_wl_free(&wl);
  return 0;
}
