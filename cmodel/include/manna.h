/* manna.h -- C golden model of MANNA DiffMem tiles (rtl/manna): E eMAC units per tile, banked
 * double-buffered scratchpads (MB, MS, VB, VS), the DMAT transpose unit, the serial SFU and the
 * H-tree reduce/broadcast between 1..16 tiles, driven through the host port.
 * docs/manna.md is the specification (ISA, semantics, errors, host port, collectives, the exp
 * sequence); manna_isa.h holds the encoding.
 *
 * The model is functional and bit exact: transfers take effect immediately (the hazard rules
 * make that equal to the RTL's overlapped execution), tiles run one at a time and meet at the
 * collectives.  fp32 arithmetic is the host's (float ops and fmaf, round to nearest even,
 * -ffp-contract=off), every NaN result is made the canonical 0x7FC00000.
 *
 * Configuration limits (mna_cfg_check): tiles 1, 2, 4, 8, 16; emacs a power of two 2..32; every
 * memory >= 2 lines and at most 2^20 words (the host port's 20-bit address); ms_lines and
 * vs_lines even; imem_depth 1..65536 (the STATUS word's 16-bit PC); rf_regs 2..16; transpose and
 * emac_ops 0/1; fence_timeout >= 1.
 *
 * Collectives in the functional model: a tile that reaches a reduce/bcast (its fields and range
 * checked) waits; when every tile waits, the collective is performed (all the same kind and
 * count) or aborted (kinds or counts differ: every tile stops with COLL).  When some tiles wait
 * and all the others have stopped, the waiting tiles stop with COLL if a stopped tile has an
 * error status (2..8), else with TIMEOUT.  The model has no clock: it does not time out a
 * collective while another tile is still running (the RTL would after fence_timeout cycles).
 */
#ifndef MANNA_H
#define MANNA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "manna_isa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int tiles;            /* 1,2,4,8,16 */
  int emacs;            /* E: power of two 2..32 */
  int mb_lines, ms_lines, vb_lines, vs_lines; /* lines of E words; ms_lines, vs_lines even, all >= 2 */
  int imem_depth;       /* 64-bit instruction words per tile, >= 1 */
  int rf_regs;          /* 2..16 */
  int transpose;        /* 0/1: timing only, ignored by the functional model */
  int emac_ops;         /* 0/1: timing only */
  uint32_t fence_timeout;
} mna_cfg_t;

/* A small config: tiles 2, emacs 4, mb 64, ms 32, vb 32, vs 16, imem 256, rf 8, transpose 1,
 * emac_ops 1, fence 4096. */
void mna_cfg_default(mna_cfg_t *cfg);
/* 0 ok, -1 with a one-line reason in err (err may be NULL). */
int mna_cfg_check(const mna_cfg_t *cfg, char *err, size_t errlen);

typedef struct mna mna_t;
/* NULL if cfg invalid or out of memory; all memories zero, sregs/RF zero, status IDLE. */
mna_t *mna_new(const mna_cfg_t *cfg);
void mna_free(mna_t *m);
const mna_cfg_t *mna_cfg(const mna_t *m);

/* One host-port request (docs/manna.md "Host port"); returns the response err
 * (MNA_RSP_OK/BAD/BUSY), *rdata (may be NULL) gets the response data (0 unless READ/STATUS ok).
 * tile is ignored for START; bcast=1 with WRITE writes every tile (bcast is ignored by the other
 * ops).  Checks: op 0..3; WRITE/READ: tile (unless bcast WRITE), space 0..5 and addr below the
 * space's size, else BAD; then BUSY if a target tile is in RUN.  STATUS: tile, else BAD.
 * START: BUSY if any tile is in RUN; addr (the start PC) is not checked (a PC >= imem_depth stops
 * the tiles with PC at the first fetch).  WRITE takes data's low 32 bits (all 64 for IMEM);
 * writes to s0 are ignored, s0 reads 0. */
int mna_host(mna_t *m, int op, int bcast, int tile, int space, uint32_t addr, uint64_t data,
             uint64_t *rdata);

/* Runs every tile in RUN until each has stopped (DONE or an error). Returns 0, or -1 if some
 * tile would execute more than max_insns instructions in this call (then every still-running
 * tile is left in RUN; a later mna_run goes on from there). */
int mna_run(mna_t *m, uint64_t max_insns);

typedef struct {
  int status;            /* MNA_ST_* */
  uint32_t pc;           /* the stopping instruction's PC (while RUN: the next one's) */
  uint32_t insns;        /* instructions completed since START */
  int abort_valid;       /* 1 when the tile stopped with COLL/TIMEOUT inside a collective */
  uint32_t abort_line, abort_lines; /* that collective's VS destination range (lines) */
} mna_tile_status_t;
void mna_tile_status(const mna_t *m, int tile, mna_tile_status_t *st);

/* Direct read-only view of a tile's memory for comparisons: words of MB/MS/VB/VS (uint32_t),
 * sreg (16 words).  NULL (and *nwords 0) for a bad tile or space (IMEM: use mna_imem). */
const uint32_t *mna_mem(const mna_t *m, int tile, int space, size_t *nwords);
const uint64_t *mna_imem(const mna_t *m, int tile, size_t *nwords);

/* Optional per-instruction trace to f (NULL = off): "tile T pc P <disassembly>\n" (T, P decimal),
 * one line per fetched instruction, before it executes. */
void mna_set_trace(mna_t *m, FILE *f);

/* Disassembly of one word, e.g. "vmm r1, a2, a3, s4 t" (also used by sw/manna/mna_dis): the
 * syntax of docs/manna.md; unknown opcodes and words that are a FIELD error in every
 * configuration (a non-zero unused field, flag or imm, an address generator field >= 8, sfu FN 7)
 * print as ".word 0x%016llx" (16 lower-case hex digits).  Returns buf (n >= 1; truncated to n). */
char *mna_disasm(uint64_t w, char *buf, size_t n);

/* fp helpers of the spec, exported for tests and the kernel library: */
uint32_t mna_fp_exp(uint32_t x);      /* the exp sequence of docs/manna.md bit for bit */
uint32_t mna_fp_sigmoid(uint32_t x);  /* the SFU sigmoid: 1 / (exp(-x) + 1) */
uint32_t mna_fp_fma(uint32_t a, uint32_t b, uint32_t c);  /* fmaf, canonical NaN */
uint32_t mna_fp_add(uint32_t a, uint32_t b), mna_fp_sub(uint32_t a, uint32_t b),
    mna_fp_mul(uint32_t a, uint32_t b), mna_fp_div(uint32_t a, uint32_t b), mna_fp_sqrt(uint32_t a);

/* ---------------------------------------------------------------- cycle model (mna_cycle.c)
 * mna_run_cycles runs like mna_run (the same functional result: it is mna_run with an event hook)
 * and predicts the RTL's cycle counts for this run (rtl/manna at the configuration's parameters,
 * transpose and emac_ops included): every tile's control unit FETCH -> DECODE -> EXEC (3 cycles
 * an instruction), the hazard waits on pending DMAT/DMA transfers, the background transfer
 * engines (n + 2 cycles busy), the eMAC array, the serial SFU with its iterative divider (data
 * dependent: special operands are faster), the collectives (entry barrier, the H-tree links with
 * their 2-deep FIFOs, exit barrier; COLL aborts and the fence watchdog's TIMEOUT), and a stop
 * waiting for the transfer engines.
 * Call it right after a START (every tile of the run in RUN, from its start PC; memories as the
 * host left them). tile_cycles (an array of cfg.tiles, may be NULL) gets for each tile the cycles
 * it spent in RUN, counted from the cycle of its first FETCH (the cycle after the START request's
 * response): the tile's status leaves RUN at the end of cycle tile_cycles[t] - 1; 0 for a tile
 * that was not in RUN. run_cycles (may be NULL) gets the run's cycles as tb/manna/tb_manna.cpp
 * counts them without host stalls or gaps (from the START response to every tile stopped): the
 * maximum of tile_cycles plus MNA_CYCLES_HOST_OFFSET.
 * Returns 0, or -1 when mna_run returns -1 (an instruction budget exceeded; the counts are then
 * not valid) or the cycle model runs out of memory. */
#define MNA_CYCLES_HOST_OFFSET 0
int mna_run_cycles(mna_t *m, uint64_t max_insns, uint64_t *tile_cycles, uint64_t *run_cycles);

#ifdef __cplusplus
}
#endif

#endif /* MANNA_H */
