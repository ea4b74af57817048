/* gnn_dense.h -- host software of the GNNerator Dense Engine (cmodel/include/gnnerator.h is the
 * engine's definition): the matmul compiler ("tiler"), the DRAM layout helpers of the three
 * dataflows, the random instruction streams of co-simulation, the random fp32 data, the check
 * of a compiled matmul against an independent computation, and the workload file that the
 * harness (tb/gnnerator), the golden-model runner (gnn_run) and the tests share.
 * The tiler's loop orders and the reasons: the comment at the top of libgnn_dense.c.
 *
 * DRAM LAYOUTS (gnnerator.h, LAYOUTS): every operand is a row-major array of fp32 bit patterns
 * at a word address: OS reads A^T (K x M) and B (K x N) and writes C^T (N x M); WS A (M x K),
 * B (K x N), C (M x N); IS A^T (K x M), B^T (N x K), C^T (N x M).  The optional bias is a
 * vector of N words; the "ones" vector is LW words of 1.0f (0x3F800000) (see gnn_mm_params_t).
 *
 * WORKLOAD FILE (text; '#' starts a comment to the end of the line; blank lines skipped; tokens
 * separated by blanks; lines of at most 1022 characters):
 *   gnn-workload 1                              the header, first
 *   cfg R C IN_DEPTH WT_DEPTH OUT_DEPTH ADDR_W  exactly once, before every other record (decimal;
 *                                               checked by gnn_cfg_init)
 *   gcfg P L EDGE_DEPTH IF_DEPTH MF_DEPTH [SFUS]
 *                                               at most once, after cfg and before mem/insn/check:
 *                                               a Graph Engine (gnn_cfg_graph; SFUS, the SFU
 *                                               pool's units, gnn_cfg_sfus: 1 when absent)
 *   shape DF M K N [KEY=VALUE ...]              at most once: the workload is the matmul C = act(
 *                                               A*B [+ C_old] [+ bias]) compiled for dataflow DF
 *                                               (os|ws|is; M, K, N decimal 1..65535); keys (any
 *                                               order, each at most once): a=, b=, c=, bias=,
 *                                               ones= (word addresses), acc=0|1, act=none|relu
 *                                               (defaults 0, none; no bias); a=, b=, c= all or
 *                                               none (gnn_run --check needs them), then every
 *                                               operand below 2^ADDR_W, and ones= wherever
 *                                               gnn_mm_needs_ones()
 *   mem ADDR N                                  N (>= 1) DRAM words from ADDR, given as hex words
 *                                               (hex below 2^32, optional 0x) on the lines
 *                                               that follow, any number per line; the next record
 *                                               starts only after N words
 *   insn W3 W2 W1 W0                            one instruction, hex words, bits 127:0 (W0 =
 *                                               gnn_insn_t.w[0]); not checked (bad instructions
 *                                               are workload content)
 *   check ADDR N                                a DRAM region (N >= 1 words) the harness compares
 *                                               at the end (besides every STORE beat)
 * ADDR is decimal or 0x hex; every region lies below 2^ADDR_W.  mem records apply in file
 * order (a later one overwrites); words no record names are 0.
 * Errors are one line "<path>:<line>: <reason>" ("<path>: <reason>" when no line applies).
 *
 * C11, libc/libm only; no globals; every function is reentrant.
 */
#ifndef GNN_DENSE_H
#define GNN_DENSE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cutil.h"
#include "gnnerator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ programs */
typedef struct {
  gnn_insn_t *insn;
  size_t n, cap;
} gnn_prog_t;

void gnn_prog_init(gnn_prog_t *p);  /* empty */
void gnn_prog_free(gnn_prog_t *p);  /* frees and empties */
int gnn_prog_push(gnn_prog_t *p, gnn_insn_t in); /* 0, or -1 when out of memory */

/* Counts over the instructions that pass gnn_check (others count in `bad` only). */
typedef struct {
  uint64_t insns, bad, loads, stores, matmuls, madds, acts, copies;
  uint64_t graph;                /* valid Graph Engine instructions */
  uint64_t g_rd_words, g_wr_words; /* GLOAD / GSTORE words (EDGE: P a line; IF/MF: n * dim) */
  uint64_t g_rd_lines, g_wr_lines; /* their memory requests (EDGE n; IF/MF n * ceil(dim/L)) */
  uint64_t rd_words, wr_words;   /* LOAD / STORE n*w summed */
  uint64_t rd_lines, wr_lines;   /* LOAD / STORE n summed (memory requests) */
  uint64_t max_matmul_k;         /* largest MATMUL K (0 without MATMUL) */
} gnn_prog_stats_t;
void gnn_prog_stats(const gnn_cfg_t *cfg, const gnn_insn_t *prog, size_t n, gnn_prog_stats_t *st);

/* One-line disassembly, e.g. "LOAD buf=IN line=0 n=4 w=2 addr=0x10 stride=5" (fields shown as
 * decoded, whatever their legality); returns buf. */
char *gnn_insn_str(const gnn_insn_t *in, char *buf, size_t len);
/* "os", "ws", "is" ("?" otherwise); gnn_df_find: the dataflow of a name, or -1. */
const char *gnn_df_name(unsigned df);
int gnn_df_find(const char *name);

/* ------------------------------------------------------------------ DRAM layouts */
/* pack: row-major A (M x K) / B (K x N) / C (M x N) into the dataflow's DRAM array (dst has the
 * same number of words); unpack C: the dataflow's DRAM array of C into row-major M x N. */
void gnn_pack_a(unsigned df, unsigned m, unsigned k, const uint32_t *a, uint32_t *dst);
void gnn_pack_b(unsigned df, unsigned k, unsigned n, const uint32_t *b, uint32_t *dst);
void gnn_pack_c(unsigned df, unsigned m, unsigned n, const uint32_t *c, uint32_t *dst);
void gnn_unpack_c(unsigned df, unsigned m, unsigned n, const uint32_t *src, uint32_t *c);

/* ------------------------------------------------------------------ the compiler */
typedef struct {
  unsigned df;                /* GNN_DF_* */
  unsigned m, k, n;           /* 1..65535 each */
  unsigned acc;               /* 1: C = ... + C_old (C_old read from the C region) */
  unsigned act;               /* GNN_ACT_*, applied once, on the last K chunk */
  unsigned bias;              /* 1: + the bias row (N words at bias_addr) broadcast over M */
  uint64_t a, b, c;           /* DRAM word addresses of A, B, C in the dataflow's layout */
  uint64_t bias_addr;         /* with bias */
  uint64_t ones_addr;         /* LW words of 1.0f: needed when gnn_mm_needs_ones() */
  size_t max_insns;           /* refuse longer programs; 0: 1 << 24 */
  /* Optional: force the tiles (all three nonzero; clipped to M, K, N; an error when they do not
   * fit) and/or the loop order ("nmk", ... outer to inner; NULL: the cheapest).  For tests and
   * experiments; 0 / NULL let the tiler choose. */
  unsigned tile_m, tile_k, tile_n;
  const char *order;
  /* Optional: the read latency (cycles) of the memory the plans are timed for (0: 100, the
   * paper's bench).  The tiler estimates each candidate program's time with the issue rules
   * of gnn_cycles() and keeps the fastest. */
  unsigned mem_latency;
} gnn_mm_params_t;

/* Whether the program needs the ones vector: bias with OS or IS (their OUT lines run along N,
 * so a LOAD cannot broadcast the bias row into them), or bias together with acc in WS.  Then
 * the bias is added by a K = 1 MATMUL (ones x bias row) into the output tile before its first
 * K chunk.  WS bias without acc: the bias row goes into OUT by a LOAD with stride 0. */
int gnn_mm_needs_ones(const gnn_mm_params_t *p);

/* The tiler's choice, for reports. */
typedef struct {
  unsigned mt, kt, nt;            /* tile sizes (the last tile of a dimension may be smaller) */
  unsigned mtiles, ktiles, ntiles;/* ktiles = K chunks: > 1 is a "K split" */
  char order[4];                  /* loop order, outer to inner, e.g. "nmk" */
  int bias_mm;                    /* the bias is added by a K = 1 MATMUL (gnn_mm_needs_ones) */
  uint64_t est_mem_lines;         /* estimated DRAM lines moved (cost model, not gnn_cycles) */
  uint64_t est_ex_cycles;         /* estimated EX cycles (idem) */
  uint64_t est_cycles;            /* estimated cycles of the program (the tiler's timing
                                     estimate at mem_latency; gnn_cycles() is exact) */
} gnn_mm_plan_t;

/* Compiles C = act(A*B [+ C_old] [+ bias]) for cfg into prog (initialized here; free with
 * gnn_prog_free).  plan may be NULL.  0, or -1 with a one-line reason in err (bad parameter,
 * a region beyond 2^addr_w, C overlapping an operand, a cfg too small for the dataflow (WS
 * needs wt_depth >= R, IS in_depth >= R), a program longer than max_insns, no memory).
 * Every instruction of the program passes gnn_check. */
int gnn_compile_matmul(const gnn_cfg_t *cfg, const gnn_mm_params_t *p, gnn_prog_t *prog,
                       gnn_mm_plan_t *plan, char *err, size_t errlen);

/* Independent check of a matmul's result: a (M x K), b (K x N), c_old (M x N, used when
 * p->acc), bias (N, used when p->bias), got (M x N), all row-major fp32 bit patterns.
 * exact: got must equal bit for bit gnn_matmul_ref(df, acc || bias, act) started from
 * old = C_old, the bias row, or gnn_add(C_old, bias) (both).  Otherwise (tolerance): against
 * a double-precision sum, |got - ref| <= 1e-4 * (sum_k |a b| + |c_old| + |bias|) + 1e-30 after
 * act; a NaN reference wants a NaN, an infinite one the same infinity (meant for data in
 * [-1, 1] plus zeros, subnormals, infinities and NaNs; no values near the fp32 range).
 * Returns the number of mismatching elements (0: ok) and describes the first in msg
 * ("C[i][j] = 0x... expected 0x... (N mismatches)"). */
uint64_t gnn_mm_verify(const gnn_mm_params_t *p, int exact, const uint32_t *a, const uint32_t *b,
                       const uint32_t *c_old, const uint32_t *bias, const uint32_t *got,
                       char *msg, size_t msglen);
/* The comparison rule of a compiled program: exact unless the dataflow is OS and the program
 * splits K (a MATMUL with K < p->k): OS adds each chunk's sum to the old value (old + S per
 * chunk), WS and IS continue one fma chain across chunks, so they stay bit-exact. */
int gnn_mm_exact(const gnn_mm_params_t *p, const gnn_insn_t *prog, size_t n);

/* ------------------------------------------------------------------ random data and streams */
/* A random fp32 bit pattern: with probability pct_special % a special value (+-0, +-inf, quiet
 * and signalling NaNs of both signs, subnormals of both signs, the smallest normal), else a
 * multiple of 2^-23 in [-1, 1) of random sign (both zeros possible). */
uint32_t gnn_rand_fp32(cutil_rng_t *r, unsigned pct_special);
/* n words of gnn_rand_fp32 from the stream of seed. */
void gnn_fill_random(uint64_t seed, unsigned pct_special, uint32_t *dst, size_t n);

/* The DRAM the random stream uses: LOADs read [in_base, in_base + in_words) and, one in five,
 * the output region; STOREs write only [out_base, out_base + out_words).  Both regions lie
 * below 2^addr_w, do not overlap and hold at least max(depth) + 2 * LW words each. */
typedef struct {
  uint64_t in_base, in_words, out_base, out_words;
  int init_buffers;   /* 1: the stream starts with LOADs that write every line of both banks
                         of IN, WT and OUT (so no instruction reads an unwritten line) */
} gnn_rand_region_t;

/* A random stream for co-simulation (initialized here): n instructions (after the prologue)
 * of which about pct_bad % are malformed, each error code 1..6 equally likely (code 6 needs
 * out_depth >= 3, else a RANGE error is made instead); the rest legal LOAD/STORE/MATMUL (every
 * dataflow, acc, act; M, K, N mostly 1..3R)/MADD/ACT/COPY with random footprints inside one
 * bank, LOAD/STORE widths 1..LW, stride 0 sometimes.  intent (may be NULL; n_prologue + n
 * entries, malloc'ed, free it) receives the status each instruction was made to have (0 OK).
 * Deterministic per seed (cutil_rng).  0, or -1 with the reason in err (bad region or cfg). */
int gnn_random_program(const gnn_cfg_t *cfg, uint64_t seed, size_t n, unsigned pct_bad,
                       const gnn_rand_region_t *rg, gnn_prog_t *prog, unsigned char **intent,
                       char *err, size_t errlen);

/* ------------------------------------------------------------------ workload files */
typedef struct {
  uint64_t addr, n;
  uint32_t *data;
} gnn_wl_mem_t;

typedef struct {
  uint64_t addr, n;
} gnn_wl_region_t;

typedef struct {
  gnn_cfg_t cfg;
  int have_shape;
  int shape_has_ops;          /* the shape line named a=, b= and c= */
  gnn_mm_params_t shape;      /* df, m, k, n, acc, act, bias, a, b, c, bias_addr, ones_addr */
  gnn_wl_mem_t *mem;
  size_t n_mem, cap_mem;
  gnn_prog_t prog;
  gnn_wl_region_t *check;
  size_t n_check, cap_check;
} gnn_wl_t;

/* An empty workload of cfg (no records): 0, or -1 (wl zeroed) when gnn_cfg_init refuses it. */
int gnn_wl_init(gnn_wl_t *wl, const gnn_cfg_t *cfg);
void gnn_wl_free(gnn_wl_t *wl);
/* Builders: 0, or -1 (a region beyond 2^addr_w, n = 0, out of memory). add_mem copies data. */
int gnn_wl_add_mem(gnn_wl_t *wl, uint64_t addr, const uint32_t *data, uint64_t n);
int gnn_wl_add_check(gnn_wl_t *wl, uint64_t addr, uint64_t n);
/* A mem record of n words of gnn_fill_random(seed, pct_special): random DRAM contents with
 * about pct_special % NaN/Inf/subnormal/zero values of both signs.  0 or -1 (as add_mem). */
int gnn_wl_add_random(gnn_wl_t *wl, uint64_t addr, uint64_t n, uint64_t seed,
                      unsigned pct_special);
/* Reads a workload file: 0, or -1 with the one-line reason in err and wl zeroed. */
int gnn_wl_read(const char *path, gnn_wl_t *wl, char *err, size_t errlen);
/* Writes wl in the form gnn_wl_read reads back to an equal wl; comment (may be NULL, several
 * lines) goes out as "# " lines after the header; each insn carries its disassembly as a
 * comment.  0, or -1 on a write error. */
int gnn_wl_write(FILE *f, const gnn_wl_t *wl, const char *comment);
/* A golden model of wl's cfg with every mem record applied; NULL when out of memory. */
gnn_model_t *gnn_wl_model(const gnn_wl_t *wl);

#ifdef __cplusplus
}
#endif

#endif /* GNN_DENSE_H */
