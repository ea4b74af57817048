/* tdimm_rt.h -- TensorDIMM runtime: the workload file (memory image + instruction stream) that
 * the harness and the golden model both read, the index-list file, the embedding-layer builder
 * of the paper's four networks (Table 2), the synthetic workloads of the tests and the bench,
 * and the traffic and bytes-to-GPU counts.  Formats and decisions: docs/tensordimm_workloads.md;
 * the ISA, the address mapping and the model: docs/tensordimm.md, cmodel/include/tensordimm.h.
 *
 * Addresses are 64-byte blocks.  A "global" block b lives in core b mod nodeDim at local block
 * b / nodeDim (nodeDim = 1 << nd_log2).  Every error message is one line: file errors
 * "<path>:<line>: <reason>" (or "<path>: <reason>" when no line applies), other errors
 * "<reason>".  C11, libc only; no globals.
 */
#ifndef TDIMM_RT_H
#define TDIMM_RT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensordimm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ data generators */
/* Kinds of a `fill` record. */
enum { TDIMM_FILL_FP32 = 0, TDIMM_FILL_INT32 = 1, TDIMM_FILL_FP32SPECIAL = 2 };

/* The value of lane `lane` (0..15) of global block `gblock` filled with generator `kind` and
 * `seed`: h = cutil_mix64(cutil_mix64(seed) + 16 * gblock + lane), then
 *   fp32        ((int)(h >> 40) - 2^23) / 2^23: uniform on the 2^24 multiples of 2^-23 in
 *               [-1, 1) (exact in fp32; +0 included, never -0)
 *   int32       h >> 32
 *   fp32special g = cutil_mix64(h): when g % 1000 < 100 (10%) special number (g >> 32) % 12 of
 *               {+0, -0, +inf, -inf, qNaN 0x7fc00000, sNaN 0x7f800001, 0x00000001, 0x807fffff,
 *               (h >> 32) & 0x807fffff (a random subnormal), +max 0x7f7fffff, -max 0xff7fffff,
 *               min normal 0x00800000}; else, when g bit 20 is set, the fp32 value above; else
 *               a normal number of random sign and mantissa and exponent 1..254 from h >> 32
 *               (r = h >> 32: (r & 0x807fffff) | (1 + ((r >> 23) & 0xff) % 254) << 23).
 * Returns 0 for an unknown kind. */
uint32_t tdimm_fill_value(unsigned kind, uint64_t seed, uint64_t gblock, unsigned lane);
void tdimm_fill_block(unsigned kind, uint64_t seed, uint64_t gblock, uint32_t lanes[TDIMM_LANES]);
/* "fp32", "int32", "fp32special"; NULL for an unknown kind.  tdimm_fill_kind: the kind of a
 * name, -1 if unknown. */
const char *tdimm_fill_name(unsigned kind);
int tdimm_fill_kind(const char *name);

/* ------------------------------------------------------------------ workload */
/* Memory-init records, applied in file order (a later record overwrites an earlier one), all
 * before the first instruction.  Blocks that no record names are zero. */
enum {
  TDIMM_REC_FILL = 1,  /* `fill`:  nblocks global blocks from gblock by a generator */
  TDIMM_REC_BLOCK = 2, /* `block`: one global block */
  TDIMM_REC_BCAST = 3  /* `bcast`: the same 16 lanes in global blocks gblock .. gblock +
                          nodeDim - 1 (gblock a multiple of nodeDim): the same local block in
                          every core -- how replicated index lists are written */
};

typedef struct {
  unsigned kind;                  /* TDIMM_REC_* */
  unsigned fill;                  /* fill: TDIMM_FILL_* */
  uint64_t gblock;                /* first global block */
  uint64_t nblocks;               /* fill: block count (>= 1); block: 1; bcast: nodeDim */
  uint64_t seed;                  /* fill */
  uint32_t lanes[TDIMM_LANES];    /* block, bcast */
} tdimm_rec_t;

typedef struct {
  unsigned nd_log2, local_aw;     /* nodeDim = 1 << nd_log2; 2^local_aw blocks per core */
  tdimm_cfg_t cfg;                /* the node's configuration: nd_log2, local_aw, per core
                                     tid = core and the window (default [0, 2^local_aw)) */
  size_t n_rec, cap_rec;
  tdimm_rec_t *rec;
  size_t n_insn, cap_insn;
  tdimm_insn_t *insn;
} tdimm_wl_t;

/* An empty workload of a node (no records, no instructions, full windows).  -1 (and wl zeroed)
 * when nd_log2 > 7 or local_aw is outside 4..27. */
int tdimm_wl_init(tdimm_wl_t *wl, unsigned nd_log2, unsigned local_aw);
void tdimm_wl_free(tdimm_wl_t *wl);
/* Global blocks of the node: nodeDim << local_aw. */
uint64_t tdimm_wl_capacity(const tdimm_wl_t *wl);
/* Builders.  Each returns 0, or -1 on a bad argument (core out of range, base > limit, limit
 * beyond the capacity; a record outside the capacity, nblocks 0, unknown fill kind, a bcast
 * block not a multiple of nodeDim) or when out of memory. */
int tdimm_wl_set_window(tdimm_wl_t *wl, unsigned core, uint64_t base, uint64_t limit);
int tdimm_wl_add_fill(tdimm_wl_t *wl, uint64_t gblock, uint64_t nblocks, unsigned kind,
                      uint64_t seed);
int tdimm_wl_add_block(tdimm_wl_t *wl, uint64_t gblock, const uint32_t lanes[TDIMM_LANES]);
int tdimm_wl_add_bcast(tdimm_wl_t *wl, uint64_t gblock, const uint32_t lanes[TDIMM_LANES]);
int tdimm_wl_add_insn(tdimm_wl_t *wl, tdimm_insn_t insn);

/* Reads a workload file (grammar in docs/tensordimm_workloads.md).  0, or -1 with the one-line
 * reason in err ("<path>:<line>: <reason>") and wl zeroed.  Instructions are not checked:
 * illegal ones are workload content (they test the error status). */
int tdimm_wl_read(const char *path, tdimm_wl_t *wl, char *err, size_t errlen);
/* Writes wl in the canonical form (what tdimm_wl_read reads back to an equal wl): the header,
 * `comment` (may be NULL or hold several lines; each goes out as "# <line>"), node, the windows
 * that are not the full memory, the records in order, the instructions (each with its
 * tdimm_insn_str as a comment).  0, or -1 on a write error. */
int tdimm_wl_write(FILE *f, const tdimm_wl_t *wl, const char *comment);

/* Calls fn once per global block per record, in record order (a fill of n blocks: n calls in
 * increasing order; a bcast: nodeDim calls).  The lanes pointer is valid during the call only. */
void tdimm_wl_foreach_block(const tdimm_wl_t *wl,
                            void (*fn)(void *ctx, uint64_t gblock, const uint32_t lanes[16]),
                            void *ctx);
/* A golden-model node configured as wl->cfg with every record applied; NULL when out of
 * memory. */
tdimm_node_t *tdimm_wl_node_new(const tdimm_wl_t *wl);

/* Global block ranges [first, first + n). */
typedef struct { uint64_t first, n; } tdimm_range_t;
/* Every global block the workload can touch, sorted and merged: each record's blocks and each
 * instruction's output range [outputBase, outputBase + count * k * nodeDim) (clipped to the
 * capacity; none for an outputBase that is not a multiple of nodeDim, a count of 0 or k = 0).
 * *out is malloc'ed (free it); returns the range count (0 with *out NULL when there is none
 * or out of memory). */
size_t tdimm_wl_ranges(const tdimm_wl_t *wl, tdimm_range_t **out);
/* Order-dependent 64-bit checksum of the blocks of ranges r[0..n-1], in order: starting from
 * 0x7464696d6d5f7274, per block h = mix64(h ^ gblock), then per lane h = mix64(h + lane).
 * read(ctx, gblock, lanes) fetches a block (so a harness's DRAM models and the golden model
 * checksum the same way). */
uint64_t tdimm_checksum(const tdimm_range_t *r, size_t n,
                        void (*read)(void *ctx, uint64_t gblock, uint32_t lanes[16]),
                        void *ctx);
/* The same over a golden-model node (tdimm_gblock; a block out of range counts as zero). */
uint64_t tdimm_node_checksum(tdimm_node_t *node, const tdimm_range_t *r, size_t n);

/* DRAM blocks one core reads and writes for an instruction that completes without an error:
 * GATHER ceil(count/16) index blocks + count*k table blocks read, count*k written; REDUCE
 * 2*count*k read, count*k written; AVERAGE count*averageNum*k read, count*k written.  Both 0
 * for an instruction with an error of codes 1-5 (opcode, sub-op, type, field, averageNum). */
void tdimm_insn_traffic(const tdimm_insn_t *insn, uint64_t *reads, uint64_t *writes);

/* ------------------------------------------------------------------ index lists */
typedef struct {
  uint64_t rows;                  /* table rows: every index < rows (1 .. 2^32) */
  unsigned lookups, batch;        /* per sample, samples */
  uint32_t *idx;                  /* batch * lookups indices, sample-major: idx[s*lookups + j] */
} tdimm_idx_table_t;

typedef struct {
  unsigned n_tables;
  tdimm_idx_table_t *t;
} tdimm_idx_t;

#define TDIMM_IDX_MAX_TABLES 64
/* Reads an index file: "tdimm-index 1", then per table t = 0, 1, ...
 * "table <t> rows <R> lookups <L> batch <B>" and its B*L indices (whitespace separated, any
 * number per line up to 64).  0, or -1 with err "<path>:<line>: <reason>" (missing file, bad
 * header, out-of-range index, truncated list "table 1: 3199 of 3200 indices", extra data, ...)
 * and ix zeroed. */
int tdimm_idx_read(const char *path, tdimm_idx_t *ix, char *err, size_t errlen);
/* Writes ix in that form, 16 indices a line.  0, or -1 on a write error. */
int tdimm_idx_write(FILE *f, const tdimm_idx_t *ix);
void tdimm_idx_free(tdimm_idx_t *ix);
/* ix with n tables of the given shape and idx arrays allocated (zero): 0 or -1 (bad shape:
 * n_tables 0 or > TDIMM_IDX_MAX_TABLES, rows 0 or > 2^32, lookups or batch 0, batch * lookups
 * > TDIMM_MAX_COUNT; or out of memory). */
int tdimm_idx_alloc(tdimm_idx_t *ix, unsigned n_tables, uint64_t rows, unsigned lookups,
                    unsigned batch);

/* ------------------------------------------------------------------ counts */
typedef struct {
  uint64_t insns;                 /* instructions */
  uint64_t rows_gathered;         /* GATHER rows (count summed) */
  uint64_t blocks_read_per_core;  /* tdimm_insn_traffic summed over the stream */
  uint64_t blocks_written_per_core;
  uint64_t bytes_to_gpu_nmp;      /* embedding layers: bytes the GPU receives with NMP (the
                                     reduced tensors) ... */
  uint64_t bytes_to_gpu_no_nmp;   /* ... and without (every gathered row); 0 for synthetic */
} tdimm_stats_t;

/* insns, rows_gathered and the per-core traffic of wl's instruction stream (the bytes fields
 * are left 0). */
void tdimm_wl_stats(const tdimm_wl_t *wl, tdimm_stats_t *st);

/* ------------------------------------------------------------------ embedding layers */
enum { TDIMM_NET_NCF = 0, TDIMM_NET_YOUTUBE = 1, TDIMM_NET_FOX = 2, TDIMM_NET_FACEBOOK = 3,
       TDIMM_NET_COUNT = 4 };

typedef struct {
  const char *name;               /* "ncf", "youtube", "fox", "facebook" */
  unsigned tables;                /* Table 2: lookup tables */
  unsigned max_reduction;         /* Table 2: max reduction */
  unsigned fc_layers;             /* Table 2: FC/MLP layers (not built) */
  unsigned lookups;               /* lookups per sample per table (1 for NCF) */
  uint64_t rows;                  /* default rows per table */
} tdimm_net_info_t;

const tdimm_net_info_t *tdimm_net_info(unsigned net);  /* NULL if net >= TDIMM_NET_COUNT */
int tdimm_net_find(const char *name);                   /* net id, or -1 */

#define TDIMM_EMB_DIM 512u        /* default embedding dimension (fp32 elements) */

typedef struct {
  unsigned net;                   /* TDIMM_NET_* */
  unsigned batch;                 /* 1..128 (ignored with idx: the file's batch) */
  unsigned dim_x;                 /* dimension = 512 * dim_x, 1..8 */
  unsigned nd_log2;               /* nodeDim = 1 << nd_log2 (0..7) */
  uint64_t rows;                  /* rows per table; 0: the network's (ignored with idx) */
  int pool_sum;                   /* youtube/fox/facebook: sum pooling by a chain of REDUCE
                                     adds instead of one AVERAGE per table */
  uint64_t seed;                  /* the table data's fill seed, and the index draw's */
  const tdimm_idx_t *idx;         /* the index lists, or NULL: uniform random from seed */
  const char *idx_path;           /* the lists' file, named in errors (may be NULL) */
} tdimm_emb_params_t;

#define TDIMM_EMB_MAX_TABLES 8
#define TDIMM_EMB_MAX_RESULTS 8

/* The layout the builder chose (global block addresses) and what it sent where. */
typedef struct {
  unsigned net, batch, dim, dim_x, lookups, n_tables, node_dim, k, local_aw;
  uint64_t rows;                  /* rows per table */
  unsigned row_blocks;            /* dim * 4 / 64 = k * node_dim global blocks per row */
  uint64_t align;                 /* every region starts at a multiple of this (global) */
  uint64_t data_seed;             /* the fp32 fill seed of every table row */
  uint64_t table_base[TDIMM_EMB_MAX_TABLES];
  uint64_t idx_base[TDIMM_EMB_MAX_TABLES];    /* replicated index list of each table */
  uint64_t gather_base[TDIMM_EMB_MAX_TABLES]; /* GATHER output of each table */
  uint32_t gather_rows[TDIMM_EMB_MAX_TABLES];
  unsigned n_results;             /* tensors the GPU receives with NMP */
  uint64_t result_base[TDIMM_EMB_MAX_RESULTS];
  uint32_t result_rows[TDIMM_EMB_MAX_RESULTS];
  const char *result_what[TDIMM_EMB_MAX_RESULTS];
  tdimm_idx_t idx;                /* the index lists used (a copy; freed by tdimm_emb_free) */
  uint64_t end;                   /* first global block after the layout */
  uint64_t distinct_rows;         /* table rows written (filled) */
  tdimm_stats_t st;
} tdimm_emb_t;

/* Builds the embedding layer of p->net into wl (initialized here: free it with tdimm_wl_free)
 * and describes it in lay (free with tdimm_emb_free).  0, or -1 with a one-line reason in err
 * (k = dim*4/64/nodeDim not a whole number >= 1, the tables beyond 2^27 blocks per core or the
 * 32-bit block address, index lists whose table count or lookups differ from the network's, or
 * whose tables differ in batch or rows: "<idx_path>: table 3 has batch 2 but table 0 has 3"). */
int tdimm_emb_build(const tdimm_emb_params_t *p, tdimm_wl_t *wl, tdimm_emb_t *lay, char *err,
                    size_t errlen);
void tdimm_emb_free(tdimm_emb_t *lay);
/* The random index lists of a network (what tdimm_emb_build draws without p->idx): per table
 * batch * lookups indices uniform in [0, rows) from one stream, cutil_rng_seed(cutil_mix64(seed)
 * + net) (so two networks of the same shape draw different rows), tables in order;
 * NCF's tables 2 and 3 (MLP user, item) repeat the lists of tables 0 and 1 (GMF user, item).
 * 0 or -1 (bad shape, out of memory). */
int tdimm_emb_random_idx(unsigned net, unsigned batch, uint64_t rows, uint64_t seed,
                         tdimm_idx_t *ix);

/* ------------------------------------------------------------------ synthetic workloads */
enum { TDIMM_SYN_GATHER = 0, TDIMM_SYN_REDUCE = 1, TDIMM_SYN_AVERAGE = 2, TDIMM_SYN_MIXED = 3,
       TDIMM_SYN_RANDOM = 4 };

typedef struct {
  unsigned op;                    /* TDIMM_SYN_* */
  unsigned nd_log2;
  unsigned local_aw;              /* 0: the smallest that holds the layout (random: 12) */
  uint32_t count;                 /* rows per instruction (random: ignored) */
  unsigned k;                     /* blocks per core per row, 1..255 */
  unsigned avg;                   /* AVERAGE averageNum (average, mixed) */
  unsigned type;                  /* TDIMM_T_FP32 / TDIMM_T_INT32 */
  unsigned subop;                 /* REDUCE sub-op (reduce, mixed) */
  int seq;                        /* gather: indices 0, 1, 2, ... (mod rows) instead of random */
  uint64_t rows;                  /* gather/mixed: table rows; 0: max(count, 65536) */
  unsigned insns;                 /* random: stream length; others: repetitions (>= 1) */
  uint64_t seed;
} tdimm_synth_params_t;

/* Builds a synthetic workload into wl (initialized here).  0 or -1 with the reason in err
 * (does not fit in --local-aw, beyond the 32-bit block address, a bad parameter). */
int tdimm_synth_build(const tdimm_synth_params_t *p, tdimm_wl_t *wl, tdimm_stats_t *st,
                      char *err, size_t errlen);
const char *tdimm_synth_name(unsigned op);     /* "gather", ...; NULL if unknown */
int tdimm_synth_find(const char *name);        /* op, or -1 */

#ifdef __cplusplus
}
#endif

#endif /* TDIMM_RT_H */
