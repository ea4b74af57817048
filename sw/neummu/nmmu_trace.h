/* nmmu_trace.h -- the NPU DMA trace: the translation requests of an NPU running a DNN, tile by
 * tile, as written by nmmu_trace (sw/neummu/nmmu_trace.c) and read by the NeuMMU performance
 * harness (tb/neummu) through the streaming reader below (sw/neummu/libnmmu_trace.c).
 *
 * File format (text; '#' starts a comment; blank lines ignored):
 *   nmmu-trace 1                     first non-comment line
 *   page <4k|2m>                     page size the layout was built with (informational)
 *   seg ... / hole ...               the address-space layout (neummu.h), before any layer
 *   layer <name> <scale>             a layer starts; scale (a decimal > 0) is the factor by
 *                                    which this layer's sampled tiles stand for the whole
 *                                    layer (total tiles / tiles written; 1 when not sampled)
 *   tile <compute_cycles>            a tile starts: its memory phase is the transactions that
 *                                    follow, then the NPU computes for compute_cycles
 *                                    (decimal, at most NMMU_MAX_TILE_CYCLES = 2^32 - 1)
 *   r <hex va> <bytes>               one DMA read transaction = one translation request
 *   w <hex va> <bytes>               one DMA write transaction = one translation request
 * A transaction is 1..4096 bytes and never crosses a 4 KB boundary.  Every r/w line belongs
 * to the last tile line; a tile belongs to the last layer line.  Write transactions of a
 * tile are the write-back of the previous tile's outputs (they do not gate its compute).
 */
#ifndef NMMU_TRACE_H
#define NMMU_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "neummu.h"

/* A tile's largest compute time: far above any tile of the traces the tools make (the largest
 * is under 10^7 cycles), and small enough that a harness's sums of tiles stay exact. */
#define NMMU_MAX_TILE_CYCLES 0xffffffffull

#ifdef __cplusplus
extern "C" {
#endif

enum {
  NMMU_EV_END = 0,   /* end of file */
  NMMU_EV_LAYER = 1, /* name, scale */
  NMMU_EV_TILE = 2,  /* compute_cycles */
  NMMU_EV_XFER = 3,  /* va, bytes, is_write */
  NMMU_EV_ERROR = -1 /* malformed line: reason in the reader's err */
};

typedef struct {
  int kind;
  char name[NMMU_NAME_LEN];
  double scale;
  uint64_t compute_cycles;
  uint64_t va;
  uint32_t bytes;
  int is_write;
} nmmu_event_t;

typedef struct {
  FILE *f;
  long line_no;
  int page_2m;           /* from the 'page' line */
  nmmu_layout_t layout;  /* seg/hole lines read so far (all of them once the first layer
                            line has been read) */
  int in_layer, in_tile;
  char err[256];
} nmmu_trace_reader_t;

/* Opens path and reads the header up to (not including) the first layer line.  Returns 0,
 * or -1 with a one-line reason in r->err (missing file, missing header, bad layout line,
 * layout that fails nmmu_layout_check). */
int nmmu_trace_open(nmmu_trace_reader_t *r, const char *path);
/* Next event.  NMMU_EV_ERROR (reason with the line number in r->err) on a malformed line,
 * an r/w line before any tile, a tile before any layer, a transaction that is empty, longer
 * than 4096 bytes or crosses a 4 KB boundary, or a layout line after the first layer. */
int nmmu_trace_next(nmmu_trace_reader_t *r, nmmu_event_t *ev);
void nmmu_trace_close(nmmu_trace_reader_t *r);

#ifdef __cplusplus
}
#endif

#endif
