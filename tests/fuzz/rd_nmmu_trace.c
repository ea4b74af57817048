/* rd_nmmu_trace.c -- fuzz target of the NeuMMU DMA trace reader (sw/neummu/libnmmu_trace.c):
 * nmmu_trace_open, then nmmu_trace_next to the end or the first error.  Oracles: every event
 * obeys the format's rules (a transaction of 1..4096 bytes inside one 4 KB page, below 2^48, in a
 * tile; a tile in a layer; a positive finite scale), an error has a one-line reason and repeats,
 * and after the end the reader keeps returning the end. */
#include <math.h>
#include <string.h>

#include "fz.h"
#include "neummu/nmmu_trace.h"

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  nmmu_trace_reader_t r;
  if (nmmu_trace_open(&r, path) != 0) {
    FZ_CHECK(r.err[0] && !strchr(r.err, '\n'), "open refused without a one-line reason");
    fz_log("refused: %s\n", r.err);
    return 0;
  }
  FZ_CHECK(nmmu_layout_check(&r.layout, NULL, 0) == 0,
           "an accepted trace's layout fails its check");
  int in_layer = 0, in_tile = 0;
  long events = 0;
  nmmu_event_t ev;
  for (;;) {
    int k = nmmu_trace_next(&r, &ev);
    if (k == NMMU_EV_END) {
      FZ_CHECK(nmmu_trace_next(&r, &ev) == NMMU_EV_END, "no second end");
      break;
    }
    if (k == NMMU_EV_ERROR) {
      FZ_CHECK(r.err[0] && !strchr(r.err, '\n'), "error without a one-line reason");
      char first[sizeof r.err];
      memcpy(first, r.err, sizeof first);
      FZ_CHECK(nmmu_trace_next(&r, &ev) == NMMU_EV_ERROR && !strcmp(first, r.err),
               "an error does not repeat");
      fz_log("error: %s\n", r.err);
      break;
    }
    events++;
    if (k == NMMU_EV_LAYER) {
      FZ_CHECK(isfinite(ev.scale) && ev.scale > 0 && strlen(ev.name) < NMMU_NAME_LEN, "bad layer");
      in_layer = 1, in_tile = 0;
    } else if (k == NMMU_EV_TILE) {
      FZ_CHECK(in_layer && ev.compute_cycles <= NMMU_MAX_TILE_CYCLES, "bad tile");
      in_tile = 1;
    } else {
      FZ_CHECK(k == NMMU_EV_XFER, "unknown event %d", k);
      FZ_CHECK(in_tile && ev.bytes >= 1 && ev.bytes <= 4096 && !(ev.va >> 48) &&
                   (ev.va & 4095) + ev.bytes <= 4096,
               "bad transaction 0x%llx +%u", (unsigned long long)ev.va, ev.bytes);
    }
  }
  fz_log("%ld events\n", events);
  nmmu_trace_close(&r);
  return 0;
}
