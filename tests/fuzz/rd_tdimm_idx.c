/* rd_tdimm_idx.c -- fuzz target of the TensorDIMM index-list reader tdimm_idx_read (sw/tensordimm/
 * libtdimm_rt.c).  Oracles: an error is one line naming the file; every index read is below its
 * table's rows; an accepted file is written back (tdimm_idx_write), the copy reads back, and
 * writing that gives the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "tensordimm/tdimm_rt.h"

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  char in[4352], pa[4352], pb[4352], err[600] = "";
  snprintf(in, sizeof in, "%s", path);
  tdimm_idx_t ix, i2;
  if (tdimm_idx_read(in, &ix, err, sizeof err) != 0) {
    FZ_CHECK(err[0] && !strchr(err, '\n') && strstr(err, in), "refused without a one-line reason "
             "naming the file: '%s'", err);
    fz_log("refused: %s\n", err);
    return 0;
  }
  for (unsigned t = 0; t < ix.n_tables; t++) {
    const tdimm_idx_table_t *tb = &ix.t[t];
    for (uint64_t i = 0; i < (uint64_t)tb->batch * tb->lookups; i++)
      FZ_CHECK(tb->idx[i] < tb->rows, "table %u index %llu: %u >= rows %llu", t,
               (unsigned long long)i, tb->idx[i], (unsigned long long)tb->rows);
  }
  FILE *f = fopen(fz_path("a", pa, sizeof pa), "w");
  FZ_CHECK(f && tdimm_idx_write(f, &ix) == 0 && fclose(f) == 0, "write failed");
  FZ_CHECK(tdimm_idx_read(pa, &i2, err, sizeof err) == 0, "the written list does not read back: %s",
           err);
  f = fopen(fz_path("b", pb, sizeof pb), "w");
  FZ_CHECK(f && tdimm_idx_write(f, &i2) == 0 && fclose(f) == 0, "write failed");
  FZ_CHECK(fz_same_files("a", "b"), "write(read(write(ix))) differs from write(ix)");
  fz_log("loaded: %u tables\n", ix.n_tables);
  tdimm_idx_free(&i2);
  tdimm_idx_free(&ix);
  return 0;
}
