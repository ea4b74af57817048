/* manna.h -- C golden model of manna (MANNA DiffMem tiles: eMAC units, banked double-buffered scratchpads, DMAT transpose unit, SFU, H-tree reduce/broadcast).
 * Scaffold made by scripts/new_block.py: the model of a pass-through of Width-bit words.
 */
#ifndef MANNA_H
#define MANNA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int width; /* data width in bits, 1..64 (the RTL's Width) */
} manna_cfg_t;

/* The model of one build: cfg->width = width. Returns 0, or -1 for a width outside 1..64. */
int manna_cfg_init(manna_cfg_t *cfg, int width);

/* Clock-free reference: out[i] = in[i] masked to the width, for n words. */
void manna_ref(const manna_cfg_t *cfg, const uint64_t *in, uint64_t *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* MANNA_H */
