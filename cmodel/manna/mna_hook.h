/* mna_hook.h -- private event hook of the MANNA golden model (cmodel/manna/manna.c), used by the
 * cycle model (cmodel/manna/mna_cycle.c). Not part of the public API (cmodel/include/manna.h).
 *
 * With a hook set, mna_run reports, in its own execution order:
 *   MNA_EV_INSN   every fetched instruction of a tile, after its checks and before it has any
 *                 effect (the model's memories still hold the values it reads): status 0 when it
 *                 executes (a reduce/bcast on more than one tile: the tile now waits), else the
 *                 status it stops the tile with (OPCODE..PC; PC: word is 0); cnt is the count
 *                 operand's value (0 when the instruction has none), a..d the values of the
 *                 address generators named by fields A..D (0 where a field is not one);
 *   MNA_EV_COLL   every tile waits in a collective: status 0 it was performed, MNA_ST_COLL it was
 *                 aborted (kinds or counts differ); tile -1;
 *   MNA_EV_ABORT  a tile waiting in a collective stops with status COLL or TIMEOUT (some tiles
 *                 wait, every other tile has stopped).
 * The hook must not change the model. */
#ifndef MNA_HOOK_H
#define MNA_HOOK_H

#include <stdint.h>

#include "manna.h"

enum { MNA_EV_INSN = 0, MNA_EV_COLL = 1, MNA_EV_ABORT = 2 };

typedef struct {
  int kind;       /* MNA_EV_* */
  int tile;
  int status;
  uint32_t pc;
  uint64_t word;
  uint32_t cnt;
  uint32_t a, b, c, d;
} mna_event_t;

typedef void (*mna_hook_fn)(void *ctx, const mna_event_t *ev);

/* fn NULL: no hook. */
void mna_set_hook(mna_t *m, mna_hook_fn fn, void *ctx);

#endif /* MNA_HOOK_H */
