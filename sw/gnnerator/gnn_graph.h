/* gnn_graph.h -- graph data of the GNNerator Graph Engine compiler (sw/gnnerator): the graph,
 * a generator with the statistics of the paper's citation graphs, readers of edge-list, CSR and
 * Planetoid/LINQS files, the writers, two-dimensional sharding (Section 3.4.2), COUNT_EDGES
 * and the nodes-per-shard choice of Algorithm 3 (Section 6.4.1), the per-GPE and interleaved
 * shard edge lists (Figure 6.3) and the shard-order costs of Table 6.1.  Code and the reasons
 * of each choice: libgnn_graph.c.
 *
 * THE GRAPH.  nv vertices 0..nv-1 (1 <= nv <= 2^31) and ne directed edges src[k] -> dst[k]:
 * aggregation gathers features from src into dst.  An undirected graph stores both directions.
 *
 * DUPLICATES AND SELF LOOPS (every reader): a directed edge that occurs more than once in a file
 * is kept once; the number of extra copies dropped is `dups`.  Self loops v -> v in a file are
 * kept as given and counted in `self_loops`.  Every reader returns its edges sorted by
 * (dst, src), as the generator does.
 *
 * FILE FORMATS (text; errors are one line "<path>:<line>: <reason>", or "<path>: <reason>"
 * when no line applies; a NUL byte in a line is an error):
 *   edge list   an optional header line "# nv N" (a comment whose first word is "nv", before
 *               the first edge; N in 1..2^31), then one edge "SRC DST" per line (decimal ids
 *               below 2^31, blank-separated); '#' starts a comment to the end of the line;
 *               blank lines are skipped; lines of at most 1022 characters.  Without the header
 *               nv = largest id + 1, and a file without edges is refused; with it every id is
 *               below N and a file without edges is a graph of N isolated vertices.
 *   CSR         "csr NV NE" (NV in 1..2^31), then NV + 1 row offsets (0 first, never
 *               decreasing, NE last) and NE column ids (below NV), decimal, any number per
 *               line; '#' comments and blank lines as above; nothing after the last id.
 *               ROW r LISTS THE SOURCES OF DESTINATION r (its in-edges): the edges
 *               col[k] -> r for k in [off[r], off[r + 1]) -- the order a pull aggregation
 *               reads them in.
 *   Planetoid   the raw LINQS pair PREFIX.content + PREFIX.cites, as Cora and Citeseer are
 *               distributed: content lines "PAPER_ID F_1 ... F_F LABEL" (blank-separated,
 *               F from the first line and the same on every line, features exactly "0" or "1",
 *               paper ids and labels any strings without blanks, ids unique); vertex i is the
 *               paper of the i-th content line; labels are numbered in order of first
 *               appearance.  Cites lines "CITED_ID CITING_ID": the citation is the edge
 *               citing -> cited and the graph is made undirected by adding cited -> citing
 *               (a paper citing itself gives one self loop).  A cites id missing from the
 *               content file is an error naming it, or with drop_missing the line is skipped
 *               and counted in `dropped`.  No '#' comments in these files; content lines up to
 *               1 MiB, cites lines up to 1022 characters.
 *
 * SHARDS (Section 3.4.2, Figure 3.5).  With n nodes per shard the grid has S = ceil(nv / n) rows
 * and columns; shard (U, V) holds the edges with src in [U n, (U + 1) n) and dst in
 * [V n, (V + 1) n).  Local ids: src_local = src - U n, dst_local = dst - V n.  A shard's edges
 * are spread over the P Graph Processing Elements by the local id of the vertex the GPE owns:
 * pull (aggregation at the destination) GPE = dst_local % P, push GPE = src_local % P.
 * COUNT_EDGES(n) = max over shards of max over GPEs of the edges of that shard on that GPE:
 * the entries each GPE's edge SRAM must hold (the interleaved list pads every GPE's list of a
 * shard to that shard's longest one, so that is also what the padded layout needs).
 *
 * C11, libc/libm only; no globals; every function is reentrant.
 */
#ifndef GNN_GRAPH_H
#define GNN_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gnnerator.h" /* GNN_EDGE_NULL, the edge word (EDGE WORD) */

#ifdef __cplusplus
extern "C" {
#endif

#define GNN_GRAPH_MAX_NV (1u << 31)          /* vertices; ids are below 2^31 */
#define GNN_GRAPH_MAX_GEN_NE (1ull << 31)    /* the generator's largest ne */
#define GNN_SHARD_MAX_N 65535u               /* largest n of a shard list (16-bit local ids,
                                                0xFFFF never a real one) */

typedef struct {
  uint32_t nv;            /* vertices */
  uint64_t ne;            /* directed edges */
  uint32_t *src, *dst;    /* ne entries each: the edge src[k] -> dst[k] */
  uint64_t dups;          /* readers: duplicate directed edges merged away */
  uint64_t self_loops;    /* edges v -> v among the ne */
  uint64_t dropped;       /* Planetoid with drop_missing: cites lines skipped */
  uint32_t feat;          /* Planetoid: features per vertex (F); 0 otherwise */
  uint32_t *x;            /* Planetoid: nv x feat fp32 bit patterns, row-major (0 -> 0x00000000,
                             1 -> 0x3F800000); NULL otherwise */
  uint32_t nclass;        /* Planetoid: distinct labels */
  uint32_t *label;        /* Planetoid: label of each vertex (0..nclass-1); NULL otherwise */
} gnn_graph_t;

void gnn_graph_init(gnn_graph_t *g);   /* empty graph (all zero) */
void gnn_graph_free(gnn_graph_t *g);   /* frees and empties */

/* ------------------------------------------------------------------ generator */
/* The statistics of a preset ("cora" 2708 / 10556 / 1433, "citeseer" 3327 / 9104 / 3703,
 * "pubmed" 19717 / 88648 / 500: vertices, directed edges, features): 0, or -1 for an unknown
 * name (outputs untouched).  Any output pointer may be NULL. */
int gnn_graph_preset(const char *name, uint32_t *nv, uint64_t *ne, uint32_t *feat);

/* A random undirected graph with a heavy-tailed (power-law) degree distribution, stored as
 * both directions: ne (even, at most nv (nv - 1) and 2^31) directed edges = ne / 2 distinct
 * unordered pairs, no self loops, no duplicates, sorted by (dst, src).  Chung-Lu style: vertex
 * of rank i has weight (i + 1)^(-1 / (gamma - 1)), gamma = 2.7; the ranks are shuffled over the
 * ids.  Deterministic for (nv, ne, seed).  0, or -1 with the reason in err (g zeroed). */
int gnn_graph_gen(gnn_graph_t *g, uint32_t nv, uint64_t ne, uint64_t seed, char *err,
                  size_t errlen);

/* ------------------------------------------------------------------ readers and writers */
/* Each: 0, or -1 with the one-line reason in err and g zeroed (formats: above). */
int gnn_graph_read_edges(gnn_graph_t *g, const char *path, char *err, size_t errlen);
int gnn_graph_read_csr(gnn_graph_t *g, const char *path, char *err, size_t errlen);
int gnn_graph_read_planetoid(gnn_graph_t *g, const char *prefix, int drop_missing, char *err,
                             size_t errlen);

/* The edge list (with its "# nv N" header) and the CSR form of g, in the formats the readers
 * read back to the same graph (CSR rows keep the edge order of g within each destination).
 * 0, or -1 on a write error (ferror). */
int gnn_graph_write_edges(const gnn_graph_t *g, FILE *f);
int gnn_graph_write_csr(const gnn_graph_t *g, FILE *f);

/* ------------------------------------------------------------------ helpers */
/* Adds v -> v for every vertex without one (GCN and GraphSage aggregate over N(u) + u); the
 * result is sorted by (dst, src) and self_loops = nv.  Returns the number added, or -1 when out
 * of memory (g unchanged). */
int64_t gnn_graph_add_self_loops(gnn_graph_t *g);
/* Stable sort of the edges by (dst, src) (by_dst) or (src, dst).  0, or -1 when out of memory
 * (g unchanged). */
int gnn_graph_sort(gnn_graph_t *g, int by_dst);
/* In- and out-degrees: nv entries each (either may be NULL); self loops count once in each. */
void gnn_graph_degrees(const gnn_graph_t *g, uint64_t *in, uint64_t *out);

typedef struct {
  uint64_t max_in, max_out;  /* largest in- and out-degree */
  uint64_t isolated;         /* vertices without any edge (in or out; a self loop counts) */
} gnn_graph_stats_t;
/* 0, or -1 when out of memory. */
int gnn_graph_stats(const gnn_graph_t *g, gnn_graph_stats_t *st);

/* ------------------------------------------------------------------ sharding */
/* Grid side S = ceil(nv / n) (n >= 1). */
uint32_t gnn_graph_grid_side(uint32_t nv, uint32_t n);

typedef struct {
  uint32_t s;              /* grid side */
  uint64_t nonempty;       /* shards holding at least one edge */
  uint64_t max_shard;      /* edges of the fullest shard */
  uint64_t count_edges;    /* COUNT_EDGES: max over shards and GPEs of one GPE's edges */
  uint64_t words;          /* entries of the padded lists: sum over shards of P x (its
                              longest GPE list) */
} gnn_shard_stats_t;
/* Shard statistics for n >= 1 nodes per shard and p >= 1 GPEs (push: by source, else pull).
 * 0, or -1 (n or p is 0, out of memory). */
int gnn_graph_shard_stats(const gnn_graph_t *g, uint32_t n, unsigned p, int push,
                          gnn_shard_stats_t *st);
/* COUNT_EDGES (above); UINT64_MAX when n or p is 0 or out of memory. */
uint64_t gnn_graph_count_edges(const gnn_graph_t *g, uint32_t n, unsigned p, int push);

/* Algorithm 3: the number of nodes per shard.  Capacities are totals over the P GPEs; half of
 * each SRAM is usable (double buffering).  A node of a dimension block takes
 * block_d * elem_bytes bytes per resident feature. */
typedef struct {
  unsigned p;              /* GPEs (1..65535) */
  unsigned block_d;        /* words of a dimension block (>= 1) */
  unsigned if_feat;        /* input features resident (>= 1) */
  unsigned of_feat;        /* modified (output) features resident (>= 1) */
  unsigned elem_bytes;     /* bytes per element; 0: 4 (fp32) */
  uint64_t imem_bytes;     /* input-feature SRAM, all GPEs */
  uint64_t omem_bytes;     /* modified-feature SRAM, all GPEs */
  uint64_t emax;           /* edge entries of ONE GPE's edge SRAM */
  int push;                /* COUNT_EDGES for push (else pull) */
} gnn_alg3_params_t;

typedef struct {
  int step;                /* 1 capacity, 2 sampled connectivity, 3 worst case */
  uint64_t n_cap;          /* nodes the feature SRAMs hold (multiple of p) */
  uint64_t emax_usable;    /* emax / 2 */
  uint32_t n1, n2;         /* the candidates of steps 1 and 2 (n2 = 0: step 2 not tried) */
  uint64_t e1, e2;         /* their COUNT_EDGES */
  uint32_t n_shard;        /* the answer */
  uint64_t e_shard;        /* COUNT_EDGES of the answer */
} gnn_alg3_result_t;

/* N_shard (a multiple of p), or 0 with the reason in err: a bad parameter, feature SRAMs that
 * hold fewer than p nodes, an edge SRAM whose usable half holds fewer than p entries (then not
 * even the worst case of p nodes fits), out of memory.  res (may be NULL) gets the details. */
uint32_t gnn_graph_nodes_per_shard(const gnn_graph_t *g, const gnn_alg3_params_t *prm,
                                   gnn_alg3_result_t *res, char *err, size_t errlen);

/* ------------------------------------------------------------------ shard edge lists */
/* The packed edge word of a GPE edge list. */
static inline uint32_t gnn_edge_pack(uint32_t src_local, uint32_t dst_local) {
  return (src_local & 0xFFFFu) | (dst_local & 0xFFFFu) << 16;
}

typedef struct {
  uint32_t u, v;           /* sources [u n, (u + 1) n), destinations [v n, (v + 1) n) */
  uint64_t ne;             /* edges of the shard */
  uint64_t len;            /* entries of each GPE list after padding (longest real list) */
  uint64_t off;            /* first entry in gpe_list and in inter (p * len entries each) */
} gnn_shard_t;

typedef struct {
  uint32_t n, s;           /* nodes per shard, grid side */
  unsigned p;
  int push;
  uint64_t nshards;        /* non-empty shards, sorted by (u, v); empty ones are not listed */
  gnn_shard_t *shard;
  uint64_t *cnt;           /* real edges of GPE g in shard i: cnt[i * p + g] */
  uint32_t *gpe_list;      /* GPE g's list of shard i: gpe_list[shard[i].off + g * len + j],
                              j < len, real entries first, then GNN_EDGE_NULL */
  uint32_t *inter;         /* interleaved (Figure 6.3b): inter[shard[i].off + k] is entry k / p
                              of GPE k % p's padded list */
  uint64_t words;          /* entries of gpe_list (= of inter) */
  uint64_t count_edges;    /* max over shards of len = COUNT_EDGES */
} gnn_shards_t;

/* Builds the shard lists of g for n (1..GNN_SHARD_MAX_N) nodes per shard and p (1..65535)
 * GPEs.  Within a GPE list: pull by dst_local, push by src_local, ties in the order of the
 * edges in g.  0, or -1 with the reason in err (sh zeroed). */
int gnn_shards_build(const gnn_graph_t *g, uint32_t n, unsigned p, int push, gnn_shards_t *sh,
                     char *err, size_t errlen);
void gnn_shards_free(gnn_shards_t *sh);
/* Index of shard (u, v) in sh->shard, or -1 when it is empty. */
int64_t gnn_shards_find(const gnn_shards_t *sh, uint32_t u, uint32_t v);

/* ------------------------------------------------------------------ Table 6.1 */
/* Off-chip transfers of node-block features (one block of n nodes of one feature) for a pass
 * over the S x S grid in the S-pattern, I input features resident; edge traffic excluded.
 *   source-stationary:      reads S I + (S - 1) S - S + 1,   writes S^2 - S + 1
 *   destination-stationary: reads (S^2 - S + 1) I,           writes S
 * S = 0 gives 0 and 0.  Either pointer may be NULL. */
void gnn_cost_src_stationary(uint64_t s, uint64_t i, uint64_t *reads, uint64_t *writes);
void gnn_cost_dst_stationary(uint64_t s, uint64_t i, uint64_t *reads, uint64_t *writes);

#ifdef __cplusplus
}
#endif

#endif /* GNN_GRAPH_H */
