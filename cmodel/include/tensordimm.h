/* tensordimm.h -- golden model of TensorDIMM (rtl/tensordimm) and the formats its runtime,
 * harnesses and tests share: the TensorISA encoding, the error codes, the address mapping.
 * docs/tensordimm.md has the same definitions with the reasons.
 *
 * A TensorNode is n_cores NMP cores (one per DIMM); global 64-byte block b lives in DIMM
 * b mod nodeDim at local block b / nodeDim (nodeDim = 1 << nd_log2 = n_cores).  The model holds
 * every core's local memory (2^local_aw blocks of 16 32-bit lanes) and executes instructions as
 * the sequential pseudo-code of the paper's Figure 9, with this library's errors.
 *
 * Storage is sparse: a core's memory is allocated in zeroed chunks of 16 blocks (fewer when
 * the capacity is smaller) on the first access through tdimm_block / tdimm_gblock or the first
 * write of an instruction; an instruction's reads of never-written blocks read zeros without
 * allocating.  A capacity of 2^27 blocks (8 GiB) per core costs only what is touched.
 *
 * The clock-free reference function is tensordimm_ref (a stream of instructions, in order).
 */
#ifndef TENSORDIMM_H
#define TENSORDIMM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ encoding */
#define TDIMM_INSN_WORDS 5      /* 160-bit instruction: w[0] = bits 31:0 */
#define TDIMM_LANES      16     /* 32-bit lanes per 64-byte block */
#define TDIMM_MAX_COUNT  ((1u << 24) - 1)
#define TDIMM_MAX_AVG    0xFFFFu
#define TDIMM_MAX_K      255u

enum { TDIMM_OP_GATHER = 1, TDIMM_OP_REDUCE = 2, TDIMM_OP_AVERAGE = 3 };
enum { TDIMM_SUB_ADD = 0, TDIMM_SUB_SUB = 1, TDIMM_SUB_MUL = 2, TDIMM_SUB_MAX = 3,
       TDIMM_SUB_MIN = 4 };
enum { TDIMM_T_FP32 = 0, TDIMM_T_INT32 = 1 };

/* Error codes, in the order they are checked (the first that applies is reported). */
enum {
  TDIMM_OK = 0,
  TDIMM_E_OPCODE = 1,   /* op not 1..3 */
  TDIMM_E_SUBOP = 2,    /* REDUCE sub-op > 4, or a nonzero sub-op on GATHER/AVERAGE */
  TDIMM_E_TYPE = 3,     /* type > 1 */
  TDIMM_E_FIELD = 4,    /* reserved bit set, k = 0, Count >= 2^24 */
  TDIMM_E_AVGNUM = 5,   /* AVERAGE with averageNum 0 or >= 2^16 (AUX bits 31:16 set) */
  TDIMM_E_ALIGN = 6,    /* a base the op uses is not a multiple of nodeDim */
  TDIMM_E_CAPACITY = 7, /* an access at or beyond 2^local_aw */
  TDIMM_E_WINDOW = 8,   /* an access outside [win_base, win_limit) */
  TDIMM_E_OVERLAP = 9   /* output range overlaps an input range (not in place), or a
                           GATHER table row lies in the instruction's output range */
};
/* Not an instruction status: tdimm_exec_core's answer to a call with a core outside the node
 * (or a NULL argument); nothing is executed.  tdimm_err_name gives "?". */
#define TDIMM_E_BADCALL 15u

typedef struct { uint32_t w[TDIMM_INSN_WORDS]; } tdimm_insn_t;

/* Field view of an instruction (no checks: any value the fields hold). */
typedef struct {
  unsigned op, subop, type, k;
  unsigned rsvd;       /* nonzero if any reserved bit of w0 is set */
  uint32_t in_base;    /* w1: tableBase / inputBase1 / inputBase */
  uint32_t aux;        /* w2: idxBase / inputBase2 / averageNum */
  uint32_t out_base;   /* w3 */
  uint32_t count;      /* w4 */
} tdimm_fields_t;

tdimm_insn_t tdimm_enc(unsigned op, unsigned subop, unsigned type, unsigned k, uint32_t in_base,
                       uint32_t aux, uint32_t out_base, uint32_t count);
tdimm_insn_t tdimm_enc_gather(unsigned type, unsigned k, uint32_t table_base, uint32_t idx_base,
                              uint32_t out_base, uint32_t count);
tdimm_insn_t tdimm_enc_reduce(unsigned subop, unsigned type, unsigned k, uint32_t in1,
                              uint32_t in2, uint32_t out_base, uint32_t count);
tdimm_insn_t tdimm_enc_average(unsigned type, unsigned k, uint32_t in_base, uint32_t avg_num,
                               uint32_t out_base, uint32_t count);
tdimm_fields_t tdimm_dec(const tdimm_insn_t *insn);
/* One-line text of an instruction into buf (at most n bytes, always terminated when n > 0);
 * returns buf.  Addresses in hex, k, averageNum and count in decimal:
 *   "REDUCE.max.fp32 k=1 in1=0x40 in2=0x80 out=0xc0 count=5"
 *   "GATHER.fp32 k=2 table=0x0 idx=0x100 out=0x200 count=20"
 *   "AVERAGE.int32 k=1 in=0x0 avg=50 out=0x400 count=3"
 *   "ILLEGAL w0=0x0000000f"                 (op not 1..3)
 * An illegal sub-op prints as "sub<n>" (REDUCE.sub9.fp32, GATHER.sub1.fp32), an illegal type
 * as "type<n>", and set reserved bits of w0 append " rsvd=0x<w0 & 0xff00fc00>". */
char *tdimm_insn_str(const tdimm_insn_t *insn, char *buf, size_t n);
const char *tdimm_err_name(unsigned code);   /* "OK", "OPCODE", ... ; "?" when unknown */

/* ------------------------------------------------------------------ lane arithmetic */
/* One lane of REDUCE (fp32 or int32 bit patterns); subop/type must be legal. */
uint32_t tdimm_lane_reduce(unsigned subop, unsigned type, uint32_t a, uint32_t b);
/* One lane of AVERAGE over vals[0..n-1] (n >= 1): acc = 0; acc += vals[j] in order; acc / n. */
uint32_t tdimm_lane_average(unsigned type, const uint32_t *vals, unsigned n);

/* ------------------------------------------------------------------ node model */
typedef struct {
  uint64_t win_base, win_limit;   /* protection window [base, limit) in local blocks */
  unsigned tid;
} tdimm_core_cfg_t;

typedef struct {
  unsigned nd_log2;               /* nodeDim = 1 << nd_log2 = number of cores (0..7) */
  unsigned local_aw;              /* capacity 2^local_aw blocks per core (4..27) */
  tdimm_core_cfg_t core[128];
} tdimm_cfg_t;

typedef struct tdimm_node tdimm_node_t;

/* Per-core outcome of one instruction, and the node's combination. */
typedef struct {
  unsigned err[128];              /* per core: TDIMM_OK or the code */
  uint32_t rows[128];             /* per core: output rows written (count on success) */
  unsigned node_err;              /* code of the lowest-numbered core with an error, else 0 */
  uint64_t err_mask[2];           /* bit c: core c reported an error */
} tdimm_result_t;

/* The default configuration: nd_log2 and local_aw as given, every core (all 128 entries)
 * with the whole memory as its window (win_base 0, win_limit 2^local_aw) and tid = c.
 * Values are stored as given (tdimm_node_new validates them). */
void tdimm_cfg_default(tdimm_cfg_t *cfg, unsigned nd_log2, unsigned local_aw);

/* A node with every core's memory zeroed and cfg copied; NULL on a bad cfg (nd_log2 > 7,
 * local_aw outside 4..27) or out of memory.  The windows are used as given (the capacity check
 * comes before the window check, so a win_limit above 2^local_aw acts as 2^local_aw). */
tdimm_node_t *tdimm_node_new(const tdimm_cfg_t *cfg);
void tdimm_node_free(tdimm_node_t *node);
const tdimm_cfg_t *tdimm_node_cfg(const tdimm_node_t *node);
/* Sets core c's configuration registers (window, tid), as a write of the core's registers does;
 * -1 if c >= nodeDim or the window is not within 0..2^local_aw, else 0. */
int tdimm_node_set_core(tdimm_node_t *node, unsigned core, const tdimm_core_cfg_t *cc);
/* Core c's local block (16 lanes); NULL if out of range (core >= nodeDim, local_block >=
 * 2^local_aw) or out of memory. Writable: the backdoor the runtime and harness use to load
 * tables and index lists (allocates the block's chunk on first access). */
uint32_t *tdimm_block(tdimm_node_t *node, unsigned core, uint64_t local_block);
/* Global block b (core b mod nodeDim, local b >> nd_log2); NULL if out of range. */
uint32_t *tdimm_gblock(tdimm_node_t *node, uint64_t global_block);
/* Executes one instruction on every core; fills res (may be NULL). Returns res->node_err. */
unsigned tdimm_exec(tdimm_node_t *node, const tdimm_insn_t *insn, tdimm_result_t *res);
/* One core only (what the RTL of a single core does): error code, *rows = rows written
 * (rows may be NULL).  TDIMM_E_BADCALL (nothing done) for core >= nodeDim. */
unsigned tdimm_exec_core(tdimm_node_t *node, unsigned core, const tdimm_insn_t *insn,
                         uint32_t *rows);
/* The decode-time checks of core `core` under cfg (error codes 1..9 in their order: fields,
 * alignment, then CAPACITY/WINDOW/OVERLAP of the static ranges), without the GATHER table
 * rows; TDIMM_OK if none applies (a count of 0 passes after codes 1..6).  This is the status
 * the RTL decoder reports before any access; TDIMM_E_BADCALL for a bad cfg (as tdimm_node_new)
 * or core >= nodeDim. */
unsigned tdimm_decode_check(const tdimm_cfg_t *cfg, unsigned core, const tdimm_insn_t *insn);
/* Chunks of memory allocated over all cores (for tests of the sparse storage). */
size_t tdimm_node_chunks(const tdimm_node_t *node);

/* The clock-free reference (docs/conventions.md): executes insns[0..n-1] in order on node
 * (tdimm_exec each), copies the last instruction's result to res_last (may be NULL; zeroed
 * when n == 0), and returns the number of instructions whose node status was not TDIMM_OK. */
unsigned tensordimm_ref(tdimm_node_t *node, const tdimm_insn_t *insns, size_t n,
                        tdimm_result_t *res_last);

/* ------------------------------------------------------------------ DRAM mapping */
/* Local block -> DRAM coordinates of a DIMM (docs/tensordimm.md, "Inside a DIMM"):
 * from the LSB: col_lo (col_lo_w bits) | bank group (2) | bank (2) | rank (rank_w) |
 * col_hi (7 - col_lo_w) | row.  col = col_hi << col_lo_w | col_lo is the block column 0..127. */
/* col_lo_w 0..7 and rank_w 0..2 (larger values are clamped to 7 and 2); row holds every
 * address bit above col_hi (local_block >> (11 + rank_w)). */
typedef struct { unsigned rank, bg, bank, row, col; } tdimm_dram_addr_t;
tdimm_dram_addr_t tdimm_map(uint64_t local_block, unsigned col_lo_w, unsigned rank_w);
uint64_t tdimm_unmap(tdimm_dram_addr_t a, unsigned col_lo_w, unsigned rank_w);

#ifdef __cplusplus
}
#endif

#endif /* TENSORDIMM_H */
