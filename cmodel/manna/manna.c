/* manna.c -- C golden model of manna (see cmodel/include/manna.h). */
#include "manna.h"

int manna_cfg_init(manna_cfg_t *cfg, int width) {
  if (width < 1 || width > 64) return -1;
  cfg->width = width;
  return 0;
}

void manna_ref(const manna_cfg_t *cfg, const uint64_t *in, uint64_t *out, size_t n) {
  const uint64_t mask = cfg->width >= 64 ? ~0ull : ((1ull << cfg->width) - 1);
  for (size_t i = 0; i < n; i++) out[i] = in[i] & mask;
}
