/* gnn_gcomp.h -- the GNNerator GNN compiler (sw/gnnerator; docs/gnnerator.md, "Compiler"):
 * one GNN layer (GCN, GraphSage-mean, GraphSage-Pool) on a graph, compiled for both engines
 * into one instruction stream plus its DRAM image; a double-precision reference of the layer;
 * and random graph instruction streams for co-simulation.
 *
 * THE LAYERS (N(u) includes u: the compiler adds a self loop to every vertex that lacks one;
 * deg(u) = |N(u)|, in-degree after that; all matrices row-major fp32):
 *   GCN        Z = act(A_hat H W), A_hat[u][v] = nrm(u) nrm(v) for v in N(u), nrm = 1/sqrt(deg)
 *              (Kipf's renormalised adjacency).  W is F x H.
 *   GraphSage  Z = act(mean_{v in N(u)} H_v . W1 + H_u . W2): W (2F x H) is W1 (rows 0..F-1)
 *              over W2 (rows F..2F-1): the concatenation [mean | H] times W as two MATMULs.
 *   Pool       P = ReLU(H Wp) (Wp F x F); Z = act(max_{v in N(u)} P_v . W1 + H_u . W2).
 * THE PROGRAM.  Aggregation runs on the Graph Engine one dimension block of B = block_d words
 * at a time (Algorithm 2), shard by shard over the S x S grid (Algorithm 3 or a given n): per
 * shard a GLOAD of its interleaved edge list (Figure 6.3), GLOADs of the source block's
 * features (and GCN's source scale), one edge-mode GRUN, and the destination block's MF lines
 * initialised (GFILL), reloaded or kept, and stored (GSTORE).  GCN's edge convoy is
 * mul(X[src], nrm[src]) + sum, then a stream convoy mulm(nrm[dst], MF); GraphSage's pass + sum,
 * then mulm(1/deg, MF); Pool's pass + max (MF from -inf).  Shard order: destination-stationary
 * (per destination block all source blocks, the source order reversing every column: the
 * S-pattern keeps the turning block on chip) or source-stationary (per source block all
 * destination blocks, partial sums stored and reloaded, the S-pattern keeping the turning
 * destination block).  The Dense Engine (gnn_compile_matmul, weight-stationary) multiplies
 * each aggregated block by its rows of W and accumulates over the blocks (the partial sums of
 * Algorithm 2); its program for block d is interleaved with the graph program of block d + 1,
 * and the in-order issue with its DRAM-range rule (the GNNerator Controller) keeps each
 * consumer behind its producer.  GCN aggregates after the MATMUL (dense first) when H < F. */
#ifndef GNN_GCOMP_H
#define GNN_GCOMP_H

#include <stddef.h>
#include <stdint.h>

#include "gnnerator.h"
#include "gnnerator/gnn_dense.h"
#include "gnnerator/gnn_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The DRAM a random graph stream uses: GLOADs of features read [in_base, +in_words) (and one in
 * 16 the last words of DRAM, ending at word 2^addr_w - 1: the edge of the RANGE check; nothing
 * writes there, so they read 0), GLOADs of edges read [edge_base, +edge_words) (fill it with
 * gnn_random_edges), GSTOREs write [out_base, +out_words).  Each region must hold at least
 * P * max(gdepth) * max(L, P) words. */
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

/* ------------------------------------------------------------------ the GNN compiler */
enum { GNN_NET_GCN = 0, GNN_NET_SAGE = 1, GNN_NET_POOL = 2 };

typedef struct {
  int net;               /* GNN_NET_* */
  unsigned f, h;         /* input and output feature sizes (1..65535) */
  unsigned act;          /* GNN_ACT_* on the layer's output */
  int push;              /* edge layout: 1 push (an edge in its source's GPE), 0 pull */
  int src_stationary;    /* shard order (Table 6.1): 1 source-, 0 destination-stationary */
  unsigned block_d;      /* dimension block (words; Algorithm 2); 0: the whole feature */
  unsigned shard_n;      /* nodes per shard; 0: Algorithm 3 */
  int full;              /* 1: Algorithm 3 sizes the shards for the whole aggregated feature
                            (GNNerator-full: Algorithm 1, no dimension blocking), which the
                            program still moves in block_d slices; 0: for one block */
  int dense_first;       /* GCN: -1 auto (dense first when h < f), 0 aggregate first, 1 dense */
  unsigned mem_latency;  /* for the dense tiler's timing (0: 100) */
} gnn_layer_opts_t;

/* What the compiler did, for reports and tests. */
typedef struct {
  uint32_t n_shard, grid_s;       /* nodes per shard and the grid side S */
  int alg3_step;                  /* 1..3, or 0 when shard_n was given */
  uint64_t shards, edges;         /* non-empty shards; edges after self loops */
  unsigned blocks, block_d, ch;   /* dimension blocks, their width, lines a node */
  uint64_t gruns, gloads_feat, gloads_edge, gstores, gfills, dense_insns, insns;
  uint64_t feat_rd_blocks, feat_wr_blocks; /* node-block feature transfers of the aggregation
                                              passes (one block of n nodes of one feature; the
                                              unit of Table 6.1), summed over dimension blocks */
  uint64_t rd_words, wr_words;    /* DRAM words the program moves (both engines) */
  uint64_t out_addr;              /* Z: N x H row-major */
  uint64_t h_addr, w_addr, wp_addr;
} gnn_layer_info_t;

/* Compiles one layer of o on graph g (vertices 0..nv-1; not modified) with input features x
 * (nv x f) and weights w (GCN f x h, GraphSage/Pool 2f x h) and wp (Pool: f x f; else NULL) for
 * cfg (which needs a Graph Engine) into wl (initialised here: cfg, the DRAM image, the program,
 * a check region over Z).  0, or -1 with a one-line reason in err. */
int gnn_compile_layer(const gnn_cfg_t *cfg, const gnn_graph_t *g, const gnn_layer_opts_t *o,
                      const uint32_t *x, const uint32_t *w, const uint32_t *wp, gnn_wl_t *wl,
                      gnn_layer_info_t *info, char *err, size_t errlen);

/* The layer in double precision from the same fp32 inputs: ref (nv x h) and mag (nv x h, the
 * sum of the magnitudes of the terms of each output, for a relative tolerance). */
int gnn_layer_ref(const gnn_graph_t *g, const gnn_layer_opts_t *o, const uint32_t *x,
                  const uint32_t *w, const uint32_t *wp, double *ref, double *mag);

/* Compares z (nv x h fp32 bits) with the reference: |z - ref| <= 4e-4 * mag + 1e-30 (NaN where
 * the reference is NaN).  Returns the mismatches and describes the first in msg. */
uint64_t gnn_layer_verify(const gnn_graph_t *g, const gnn_layer_opts_t *o, const uint32_t *x,
                          const uint32_t *w, const uint32_t *wp, const uint32_t *z, char *msg,
                          size_t msglen);

#ifdef __cplusplus
}
#endif

#endif /* GNN_GCOMP_H */
