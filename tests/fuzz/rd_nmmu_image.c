/* rd_nmmu_image.c -- fuzz target of the NeuMMU page-table image reader nmmu_mem_load
 * (cmodel/neummu/nmmu_ptimg.c).  Oracles: a refused image gives a one-line reason; an accepted
 * one saves (nmmu_mem_save) to a file that loads back to the same words and saves to the same
 * bytes, and the walker (nmmu_translate) runs on it for a few addresses. */
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "fz.h"
#include "neummu.h"

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  char err[512] = "", pa[4352], pb[4352];
  nmmu_mem_t *m = nmmu_mem_load(path, err, sizeof err);
  if (!m) {
    FZ_CHECK(err[0] && !strchr(err, '\n'), "refused without a one-line reason: '%s'", err);
    fz_log("refused: %s\n", err);
    return 0;
  }
  FZ_CHECK(nmmu_mem_save(m, fz_path("a", pa, sizeof pa)) == 0, "nmmu_mem_save failed");
  nmmu_mem_t *m2 = nmmu_mem_load(pa, err, sizeof err);
  FZ_CHECK(m2 != NULL, "a saved image does not load: %s", err);
  FZ_CHECK(nmmu_mem_words(m2) == nmmu_mem_words(m) && nmmu_mem_root(m2) == nmmu_mem_root(m),
           "the reloaded image differs: %zu words root %llx, was %zu root %llx",
           nmmu_mem_words(m2), (unsigned long long)nmmu_mem_root(m2), nmmu_mem_words(m),
           (unsigned long long)nmmu_mem_root(m));
  FZ_CHECK(nmmu_mem_save(m2, fz_path("b", pb, sizeof pb)) == 0, "nmmu_mem_save failed");
  FZ_CHECK(fz_same_files("a", "b"), "save(load(save(image))) differs from save(image)");
  uint64_t h = cutil_mix64(n);
  for (int i = 0; i < 8; i++) {
    h = cutil_mix64(h + (uint64_t)i);
    uint64_t va = i < 2 ? (uint64_t)i << 28 : h & ((1ull << 48) - 1);
    nmmu_xlat_t x = nmmu_translate(m, va, i & 1);
    FZ_CHECK(x.levels >= 1 && x.levels <= 4, "translate 0x%llx: %d levels",
             (unsigned long long)va, x.levels);
  }
  fz_log("loaded: %zu words\n", nmmu_mem_words(m));
  nmmu_mem_free(m2);
  nmmu_mem_free(m);
  return 0;
}
