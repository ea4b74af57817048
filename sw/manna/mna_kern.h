/* mna_kern.h -- the NTM kernel library of MANNA (docs/manna_kernels.md): one NTM memory step
 * (key similarity, content weighting, soft read, soft write) compiled into per-tile programs for
 * one configuration and one memory shape, written as a workload file (docs/manna.md, "Workload
 * files"); the C reference of the same step in the same float order; the soft-read loop-order
 * cost model (Figure 4.3); and a loader of workload files into the golden model.
 *
 *   mna_ntm_plan(p, plan, err)        blocking, memory layouts, loop order; -1 with a one-line
 *                                     reason naming the memory (or parameter) that is too small
 *   mna_ntm_costs(p, cost, pick, err) the cost model of the four soft-read loop orders
 *   mna_ntm_program(p, plan, t, ...)  the assembly text of tile t (malloc'd)
 *   mna_ntm_data_make(p, d)           the seeded inputs (M, keys, strengths, erase, add)
 *   mna_ntm_workload(p, out, err)     the complete workload file (cfg, p, m, s 0, c records)
 *   mna_ntm_reference(p, d, res)      the expected results, computed in C in the kernels' order
 *   mna_ntm_collect(plan, m, res)     the same results read back from a model after the run
 *   mna_wl_load(&m, base, f, ...)     executes a workload file on the golden model
 */
#ifndef MNA_KERN_H
#define MNA_KERN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "manna.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MNA_NTM_MAX_TILES 16

/* Soft-read loop orders: the four columns of Figure 4.3 (block loop x compute loop). */
enum {
  MNA_ORDER_AUTO = -1,
  MNA_ORDER_IS_IS = 0, /* block input stationary,  compute input stationary */
  MNA_ORDER_IS_OS = 1, /* block input stationary,  compute output stationary */
  MNA_ORDER_OS_IS = 2, /* block output stationary, compute input stationary */
  MNA_ORDER_OS_OS = 3  /* block output stationary, compute output stationary */
};

typedef struct {
  /* configuration (docs/manna.md "Parameters") */
  int tiles, emacs, mb_lines, ms_lines, vb_lines, vs_lines, imem_depth, rf_regs;
  /* NTM shape: memory rows x columns (M_N x M_M), read and write heads */
  int rows, cols, hr, hw;
  int order;     /* MNA_ORDER_AUTO or 0..3 */
  uint64_t seed; /* inputs */
} mna_ntm_params_t;

/* The paper configuration (16 tiles, 32 eMACs, MB 16384, MS 128, VB 256, VS 32, imem 1024, rf 8)
 * with the copy shape (1024 x 256, 1/1), order auto, seed 1. */
void mna_ntm_params_default(mna_ntm_params_t *p);

/* Table 4.3 presets: "copy", "rptcopy", "recall", "ngram", "sort", "babi"; the shape divided by
 * scale (>= 1; each dimension at least 1). 0, or -1 for an unknown name. */
int mna_ntm_preset(mna_ntm_params_t *p, const char *name, int scale);

typedef struct {
  int E, L, H, hr, hw, rows, cols, tiles;
  int n[MNA_NTM_MAX_TILES];    /* rows held by tile t (the first rows % tiles take one more) */
  int row0[MNA_NTM_MAX_TILES]; /* first global row of tile t */
  int nmax;                    /* n[0] */
  int half_ms;                 /* MS lines per half */
  /* key similarity: padded groups of E rows x one column block */
  int kg, kbn;                           /* groups per block, rows per block (kg * E) */
  int kblocks[MNA_NTM_MAX_TILES], kblocks_max;
  /* soft read / soft write: plain blocks of pbn rows (pbl lines of w) x one column block */
  int pbn, pbl;
  int pblocks[MNA_NTM_MAX_TILES], pblocks_max;
  int nw;       /* lines of a per-row vector of tile 0: ceil(nmax / E) */
  int nwk, nwp; /* VB lines per head of the dot/norm vectors and of the weights */
  /* VB layout (lines) */
  int vb_k, vb_ea, vb_dot, vb_w, vb_r, vb_used;
  /* VS layout: phase area [0, vs_area) lines; MISC from line vs_misc */
  int vs_area, vs_misc, vs_sums, sums_lines;
  int vs_tk, vs_tg, vs_tp, vs_flag, vs_beta, vs_kn; /* word addresses */
  int ks_kl, ks_acc;                                /* lines */
  int cw_tv, cw_dv, cw_tv_lines;
  int sr_ws, sr_rs;
  int sw_ws, sw_eas;
  int red_lines, red_chunks; /* read-vector reduce: chunks of red_lines lines */
  int mb_used;               /* MB lines of tile 0 (nmax * L) */
  int order;                 /* the soft-read loop order used (auto resolved) */
} mna_ntm_plan_t;

/* 0, or -1 with a one-line reason ("VS too small: ..."). */
int mna_ntm_plan(const mna_ntm_params_t *p, mna_ntm_plan_t *plan, char *err, size_t errlen);

/* The soft-read cost model of one tile (tile 0, the largest) per loop order. */
typedef struct {
  long vb_w_lines;  /* VB -> VS lines of w (block loop: buffer traffic) */
  long vb_r_lines;  /* VB <-> VS lines of r partial sums (zero fill, fill, spill, final store) */
  long vs_w_words;  /* VS -> eMAC reads of w words (compute loop: scratchpad traffic) */
  long vs_r_words;  /* VS <-> RF words of r partial sums (rfld/rfst) */
  long mb_lines;    /* MB -> MS lines (invariant) */
  long vmm_insns;   /* vmm instructions issued (tie-break of the compute order) */
  long buffer_cost; /* vb_w_lines + vb_r_lines: decides the block order */
  long spad_cost;   /* vs_w_words + vs_r_words: decides the compute order */
} mna_ntm_cost_t;
/* cost[0..3] per order; *pick = the order the compiler chooses (block order by buffer_cost, ties
 * to output stationary; then compute order by spad_cost, ties by vmm_insns, then output
 * stationary). 0, or -1 when the shape does not fit (err). */
int mna_ntm_costs(const mna_ntm_params_t *p, mna_ntm_cost_t cost[4], int *pick, char *err,
                  size_t errlen);

/* Assembly text of tile t's program (malloc'd, NUL-terminated; caller frees); NULL on no memory. */
char *mna_ntm_program(const mna_ntm_params_t *p, const mna_ntm_plan_t *plan, int tile);

typedef struct {
  int rows, cols, hr, hw;
  uint32_t *M;      /* rows x cols, row-major, fp32 bits */
  uint32_t *key;    /* (hr + hw) x cols: heads 0..hr-1 read, hr.. write */
  uint32_t *beta;   /* hr + hw */
  uint32_t *erase;  /* hw x cols */
  uint32_t *add;    /* hw x cols */
} mna_ntm_data_t;
/* 0, or -1 (no memory). M, key, add uniform in [-1, 1), erase in [0, 1), beta in [1, 5). */
int mna_ntm_data_make(const mna_ntm_params_t *p, mna_ntm_data_t *d);
void mna_ntm_data_free(mna_ntm_data_t *d);

typedef struct {
  uint32_t *w;    /* (hr + hw) x rows: content weights, global row order */
  uint32_t *r;    /* hr x cols: read vectors */
  uint32_t *Mout; /* rows x cols: the memory after the soft write */
} mna_ntm_result_t;
int mna_ntm_result_alloc(const mna_ntm_params_t *p, mna_ntm_result_t *r);
void mna_ntm_result_free(mna_ntm_result_t *r);

/* The reference (docs/manna_kernels.md, "Float order"). 0, or -1 (bad shape). */
int mna_ntm_reference(const mna_ntm_params_t *p, const mna_ntm_data_t *d, mna_ntm_result_t *res);

/* Reads the results out of a model that ran the workload of p (tile 0's VB read vectors, every
 * tile's VB weights and MB rows). 0, or -1 (the model's configuration does not match). */
int mna_ntm_collect(const mna_ntm_plan_t *plan, const mna_t *m, mna_ntm_result_t *res);

/* The workload file of p. 0, or -1 with err (shape does not fit, program too long for imem,
 * write error). */
int mna_ntm_workload(const mna_ntm_params_t *p, FILE *out, char *err, size_t errlen);

/* The same step in MNA_NTM_PHASES runs (phases != 0): a halt ends each kernel (key similarity,
 * content weighting, soft read, soft write) and the file has one `s PC` record per kernel, every
 * tile's kernel k starting at the same PC (the shorter programs padded with nop after their
 * halts); START keeps the scalar registers, RF and memories, so the results are the same bits.
 * The harness reports each run's cycles: per-kernel cycle counts. phases = 0: mna_ntm_workload. */
#define MNA_NTM_PHASES 4
int mna_ntm_workload_phases(const mna_ntm_params_t *p, int phases, FILE *out, char *err,
                            size_t errlen);

/* ---- workload files (docs/manna.md "Workload files") on the golden model ---- */
typedef struct {
  int tile, space; /* MNA_SP_* */
  uint32_t addr, len;
  char name[32];
} mna_wl_cmp_t;
typedef struct {
  mna_cfg_t cfg;      /* from the cfg record (other fields from base) */
  mna_wl_cmp_t *cmp;  /* the c records, in file order (malloc'd) */
  size_t ncmp;
  int runs;           /* s records executed */
  int stopped_error;  /* 1 when some tile ended a run with an error status */
  /* the cycle model's count of each run (mna_run_cycles; the first MNA_WL_MAX_RUNS runs) and
     of all runs */
#define MNA_WL_MAX_RUNS 16
  uint64_t run_cycles[MNA_WL_MAX_RUNS];
  uint64_t total_cycles;
} mna_wl_info_t;
/* Executes the workload f on *m: cfg (when *m is NULL a model is made from the cfg record, the
 * fields the record does not name from base, or mna_cfg_default when base is NULL; when *m is
 * set the record must match its configuration), p and m records through the host port, s: START
 * and mna_run_cycles (at most max_insns instructions per tile; the same results as mna_run, and
 * the cycle model's counts in info), c records collected into info.
 * 0, or -1 with "fname:line: reason" in err. info->cmp is malloc'd: mna_wl_info_free. */
int mna_wl_load(mna_t **m, const mna_cfg_t *base, FILE *f, const char *fname,
                uint64_t max_insns, mna_wl_info_t *info, char *err, size_t errlen);
void mna_wl_info_free(mna_wl_info_t *info);

#ifdef __cplusplus
}
#endif

#endif /* MNA_KERN_H */
