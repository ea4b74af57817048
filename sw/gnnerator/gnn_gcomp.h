/* gnn_gcomp.h -- host software of the GNNerator Graph Engine (cmodel/include/gnnerator.h,
 * "GRAPH ENGINE"; docs/gnnerator.md): random graph instruction streams for co-simulation.
 * (The GNN compiler joins this header as it lands.) */
#ifndef GNN_GCOMP_H
#define GNN_GCOMP_H

#include <stddef.h>
#include <stdint.h>

#include "gnnerator.h"
#include "gnnerator/gnn_dense.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The DRAM a random graph stream uses: GLOADs of features read [in_base, +in_words), GLOADs of
 * edges read [edge_base, +edge_words) (fill it with gnn_random_edges), GSTOREs write
 * [out_base, +out_words).  Each region must hold at least P * max(gdepth) * max(L, P) words. */
typedef struct {
  uint64_t in_base, in_words, edge_base, edge_words, out_base, out_words;
  int init_memories;  /* 1: a prologue of GLOADs writes every line of both banks of EDGE, IF and
                         MF of every GPE (nothing reads an unwritten line) */
} gnn_grand_region_t;

/* Largest local node index (+1) of gnn_random_edges' edges: GRUNs pick nodes in 1..this + 8, so
 * some edges are bad (an index >= nodes). */
#define GNN_RAND_NODES 40u

/* n edge words: about pct_null % null edges (0xFFFFFFFF), the rest (src, dst) with indices below
 * GNN_RAND_NODES, skewed so a few destinations are hot (push conflicts). */
void gnn_random_edges(uint64_t seed, unsigned pct_null, uint32_t *dst, size_t n);

/* A random graph stream (appended to prog): n instructions after the prologue, about pct_bad %
 * malformed (codes OPCODE, FIELD, SIZE, WIDTH, RANGE equally likely), the rest legal GLOAD
 * (EDGE, IF, MF), GSTORE, GFILL and GRUN (both modes, every apply/SFU/reduce, f0sel/f1sel, 1..3
 * lines a node) inside one bank each.  cfg must have a Graph Engine.  Deterministic per seed.
 * 0, or -1 with the reason in err. */
int gnn_random_gprogram(const gnn_cfg_t *cfg, uint64_t seed, size_t n, unsigned pct_bad,
                        const gnn_grand_region_t *rg, gnn_prog_t *prog, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* GNN_GCOMP_H */
