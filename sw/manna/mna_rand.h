/* mna_rand.h -- random workload files for the MANNA DiffMem tiles (docs/manna.md, "Workload
 * files"): the co-simulation stimulus of the harness (tb/manna) and the golden model.
 *
 * A workload is: a `cfg` line; random initial contents of every word of MB, MS, VB and VS of
 * every tile (`m` records; fp32 values, 99% uniform in [-2, 2], 1% special: +-0, +-inf, quiet and
 * signaling NaNs, subnormals, large numbers, the largest finite); the program(s) (`p` records:
 * one program for every tile `*`, or one per tile) and `s 0`; with runs = 2 a second program
 * loaded at address 0 and a second `s 0` (scalar registers, RF and memories carry over).
 *
 * PROGRAMS: opt->insns instruction slots (each one instruction of any kind with the `li`/`agen`
 * set-up of its operands, a loop opening, or a collective), then every open loop closed and
 * `halt`.  Valid operands: every address range of docs/manna.md lies inside its memory for every
 * loop index (the generator tracks the value of every scalar register and address generator,
 * and a register that a loop body has read as a count/address source is never changed later in
 * that body, so each iteration sees the same set-up); counts 0..8 lines (vmm t: N <= E); RF
 * registers < rf_regs; loops of count 0..3 nested at most 3 deep with bodies of 1..6 slots;
 * agens indexed by loop levels (strides of either sign) or constant.  A program fits imem_depth
 * and executes at most 10^6 / (tiles * runs) instructions per tile and run.
 * Collectives (reduce/bcast) are the same sequence with the same line counts in every tile.
 * With one program for all tiles (every tile runs the same instructions: the same timing) they
 * may sit in loops.  Independent per-tile programs (chosen by the seed when tiles > 1, errors
 * are 0 and opt->fence >= 1024) put them at loop depth 0 and keep each tile's estimated work
 * between two collectives below fence / 2 cycles (generous per-instruction bounds), so that a
 * valid program cannot hit the fence timeout.
 *
 * ERRORS (opt->errors = P percent): every tile but one runs one shared program; the error tile
 * (chosen by the seed) runs the same program (the same timing up to its error) except that each
 * instruction slot is replaced with probability P% by a bad one: an undefined opcode; a FIELD error
 * (a nonzero unused field, flag or imm, an a-register field >= 8, sfu FN 7, el c operand, an RF
 * register >= rf_regs); a count > 65535; an address range outside its memory (just past the
 * end, or 2^27.. / 2^32 - 16.. values); loop overflow (loops pushed up to a fifth level); endloop
 * without loop (at depth 0).  The other tiles' program stays valid.
 */
#ifndef MNA_RAND_H
#define MNA_RAND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The build configuration (docs/manna.md, "Parameters"). */
typedef struct {
  int tiles;      /* 1, 2, 4, 8, 16 */
  int emacs;      /* E: a power of two 2..32 */
  int mb_lines;   /* >= 2 (every memory at most 2^20 words) */
  int ms_lines;   /* even, >= 2 */
  int vb_lines;   /* >= 2 */
  int vs_lines;   /* even, >= 2 */
  int imem_depth; /* 64..65536 */
  int rf_regs;    /* 2..16 */
} mna_rand_cfg_t;

typedef struct {
  long insns;    /* instruction slots per program, 1..1000000 (default 200) */
  int errors;    /* percent 0..100 (default 0) */
  int runs;      /* 1 or 2 (default 1) */
  uint64_t seed; /* default 1 */
  long fence;    /* the build's FenceTimeout (cycles; default 4096): per-tile programs keep
                    their estimated work between collectives below fence / 2, and are made only
                    when fence >= 1024 */
} mna_rand_opt_t;

/* What a generation made (for tests and the tool's summary). */
typedef struct {
  int per_tile;   /* 1: an independent program per tile, 0: one program for all (`p *`) */
  int error_tile; /* the tile with bad instructions (its own `p` records after the shared
                     program), -1 without errors */
  long injected;  /* bad instructions written */
  long max_words; /* longest program (words) */
  long max_dyn;   /* most instructions one tile executes in one run (without errors) */
  long colls;     /* collective instructions per program (static) */
} mna_rand_info_t;

/* The paper-like small default: 2 tiles, E = 4, MB 64, MS 16, VB 16, VS 8 lines, IMEM 256, RF 4. */
void mna_rand_cfg_default(mna_rand_cfg_t *c);
void mna_rand_opt_default(mna_rand_opt_t *o);
/* 0, or -1 with the reason ("emacs: 3 is not a power of two 2..32", ...). */
int mna_rand_cfg_check(const mna_rand_cfg_t *c, char *err, size_t errlen);

/* Writes the workload to f. 0, or -1 with err (bad configuration/options, write error).
 * info may be NULL. */
int mna_rand_write(FILE *f, const mna_rand_cfg_t *c, const mna_rand_opt_t *o,
                   mna_rand_info_t *info, char *err, size_t errlen);
/* The same text in a malloc'd NUL-terminated buffer (*len its length; the caller frees it), or
 * NULL with err. */
char *mna_rand_string(const mna_rand_cfg_t *c, const mna_rand_opt_t *o, size_t *len,
                      mna_rand_info_t *info, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* MNA_RAND_H */
