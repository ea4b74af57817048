/* test_nmmu_trace.c -- tests of the NPU DMA trace reader (sw/neummu/libnmmu_trace.c) and of
 * traces written by nmmu_trace (docs/neummu_workloads.md).
 *
 * usage: test_nmmu_trace                      built-in reader tests: a well-formed trace read
 *                                             event by event, then malformed traces that must
 *                                             each fail to open or give NMMU_EV_ERROR with a
 *                                             one-line reason naming the line
 *        test_nmmu_trace <trace> [xfer]       reads the whole trace and checks its invariants:
 *                                             every transaction 1..xfer bytes (default 4096),
 *                                             inside one 4 KB page, inside one mapped segment of
 *                                             the trace's layout and outside its holes, writes
 *                                             only to rw segments; at least one layer; every
 *                                             layer has a tile and a scale >= 1.  Prints the
 *                                             trace statistics (layers, tiles, transactions,
 *                                             bytes, distinct 4 KB pages, pages per tile).
 * VERBOSE=1 prints each malformed trace's error message.
 * Temporary files go to $BUILD (default build/), else /tmp.
 * Last line: "N passed, N failed"; exit status 1 on any failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "neummu/nmmu_trace.h"

static int g_pass, g_fail;

static void check(int ok, const char *what) {
  if (ok) {
    g_pass++;
  } else {
    g_fail++;
    if (g_fail <= 20) printf("FAIL: %s\n", what);
  }
}

/* ---------------------------------------------------------------- built-in reader tests */

static char g_tmp[512];

/* A temporary file of len bytes of text (which may hold NUL bytes). */
static const char *write_tmp_n(const char *text, size_t len) {
  const char *dirs[2] = {getenv("BUILD") ? getenv("BUILD") : "build", "/tmp"};
  for (int i = 0; i < 2; i++) {
    snprintf(g_tmp, sizeof g_tmp, "%s/test_nmmu_trace_%ld.txt", dirs[i], (long)getpid());
    FILE *f = fopen(g_tmp, "w");
    if (!f) continue;
    fwrite(text, 1, len, f);
    if (fclose(f) == 0) return g_tmp;
  }
  fprintf(stderr, "test_nmmu_trace: cannot write a temporary file\n");
  exit(1);
}

static const char *write_tmp(const char *text) { return write_tmp_n(text, strlen(text)); }

#define HDR "nmmu-trace 1\npage 4k\nseg w 0x200000 2097152 4k ro\nseg a 0x600000 4096 4k rw\n"

/* The trace must fail: either at open or with NMMU_EV_ERROR before the end.  The reason must
 * be one line and contain want (e.g. "line 7"). */
static void expect_fail_n(const char *name, const char *text, size_t len, const char *want) {
  char what[640];
  const char *path = write_tmp_n(text, len);
  nmmu_trace_reader_t r;
  nmmu_event_t ev;
  int failed = 0;
  if (nmmu_trace_open(&r, path) != 0) {
    failed = 1;
  } else {
    for (int i = 0; i < 100000; i++) {
      int k = nmmu_trace_next(&r, &ev);
      if (k == NMMU_EV_ERROR) {
        failed = 1;
        /* sticky: the next call fails the same way */
        char first[256];
        memcpy(first, r.err, sizeof first);
        int k2 = nmmu_trace_next(&r, &ev);
        snprintf(what, sizeof what, "%s: error is sticky", name);
        check(k2 == NMMU_EV_ERROR && !strcmp(first, r.err), what);
        break;
      }
      if (k == NMMU_EV_END) break;
    }
  }
  if (getenv("VERBOSE") && strcmp(getenv("VERBOSE"), "0")) printf("  %-28s %s\n", name, r.err);
  snprintf(what, sizeof what, "%s: rejected (err '%s')", name, r.err);
  check(failed, what);
  snprintf(what, sizeof what, "%s: reason '%s' is one line containing '%s'", name, r.err, want);
  check(failed && r.err[0] && !strchr(r.err, '\n') && strstr(r.err, want) != NULL, what);
  nmmu_trace_close(&r);
  unlink(path);
}

static void expect_fail(const char *name, const char *text, const char *want) {
  expect_fail_n(name, text, strlen(text), want);
}

static void test_good(void) {
  const char *text =
      "# a comment line\n"
      "\n"
      "nmmu-trace 1   # header\n"
      "page 2m\n"
      "seg w 0x200000 4194304 2m ro\n"
      "seg a 0x800000 4194304 2m rw\r\n"
      "hole 0xa00000 2097152\n"
      "layer conv1 1\n"
      "tile 300\n"
      "r 0x200000 512\n"
      "  r\t200200   3584 \n"
      "w 0x800ff0 16\n"
      "\n"
      "tile 0\n"
      "layer fc_2 2.5\n"
      "tile 4294967295\n"
      "r 0xfffffffff000 1\n";
  const char *path = write_tmp(text);
  nmmu_trace_reader_t r;
  nmmu_event_t ev;
  int ok = nmmu_trace_open(&r, path) == 0;
  check(ok, "good: opens");
  if (!ok) {
    printf("  err: %s\n", r.err);
    return;
  }
  check(r.page_2m == 1, "good: page 2m");
  check(r.layout.nsegs == 2 && r.layout.nholes == 1, "good: 2 segments and 1 hole");
  check(r.layout.nsegs == 2 && !strcmp(r.layout.segs[0].name, "w") && r.layout.segs[0].read_only &&
            r.layout.segs[1].va == 0x800000 && !r.layout.segs[1].read_only,
        "good: segment fields");
  const struct {
    int kind;
    const char *name;
    double scale;
    uint64_t cyc, va;
    uint32_t bytes;
    int wr;
  } want[] = {
      {NMMU_EV_LAYER, "conv1", 1.0, 0, 0, 0, 0},
      {NMMU_EV_TILE, "", 0, 300, 0, 0, 0},
      {NMMU_EV_XFER, "", 0, 0, 0x200000, 512, 0},
      {NMMU_EV_XFER, "", 0, 0, 0x200200, 3584, 0},
      {NMMU_EV_XFER, "", 0, 0, 0x800ff0, 16, 1},
      {NMMU_EV_TILE, "", 0, 0, 0, 0, 0},
      {NMMU_EV_LAYER, "fc_2", 2.5, 0, 0, 0, 0},
      {NMMU_EV_TILE, "", 0, NMMU_MAX_TILE_CYCLES, 0, 0, 0},
      {NMMU_EV_XFER, "", 0, 0, 0xfffffffff000ull, 1, 0},
      {NMMU_EV_END, "", 0, 0, 0, 0, 0},
      {NMMU_EV_END, "", 0, 0, 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    char what[640];
    int k = nmmu_trace_next(&r, &ev);
    int same = k == want[i].kind && ev.kind == k;
    if (same && k == NMMU_EV_LAYER) same = !strcmp(ev.name, want[i].name) && ev.scale == want[i].scale;
    if (same && k == NMMU_EV_TILE) same = ev.compute_cycles == want[i].cyc;
    if (same && k == NMMU_EV_XFER)
      same = ev.va == want[i].va && ev.bytes == want[i].bytes && ev.is_write == want[i].wr;
    snprintf(what, sizeof what, "good: event %zu (kind %d, err '%s')", i, k, r.err);
    check(same, what);
  }
  check(r.line_no == 17, "good: line count 17 at the end");
  nmmu_trace_close(&r);
  nmmu_trace_close(&r); /* closing twice is harmless */
  unlink(path);

  /* a trace with a header and layout but no layer: opens, then ends */
  path = write_tmp(HDR);
  ok = nmmu_trace_open(&r, path) == 0;
  check(ok && nmmu_trace_next(&r, &ev) == NMMU_EV_END, "good: header-only trace ends at once");
  if (ok) nmmu_trace_close(&r);
  unlink(path);

  /* a line of exactly the maximum length (1022 characters) is accepted */
  char big[2048];
  int n = snprintf(big, sizeof big, HDR "layer l 1\ntile 1\nr 0x200000 64");
  while (n < (int)strlen(HDR) + 16 + 1022 - 1) big[n++] = ' ';
  big[n++] = '\n';
  big[n] = 0;
  path = write_tmp(big);
  ok = nmmu_trace_open(&r, path) == 0;
  int k1 = ok ? nmmu_trace_next(&r, &ev) : -9;
  int k2 = ok ? nmmu_trace_next(&r, &ev) : -9;
  int k3 = ok ? nmmu_trace_next(&r, &ev) : -9;
  check(k1 == NMMU_EV_LAYER && k2 == NMMU_EV_TILE && k3 == NMMU_EV_XFER, "good: 1022-character line");
  if (ok) nmmu_trace_close(&r);
  unlink(path);
}

static void test_bad(void) {
  nmmu_trace_reader_t r;
  check(nmmu_trace_open(&r, "/nonexistent/dir/trace.txt") != 0 && strstr(r.err, "/nonexistent/dir/trace.txt"),
        "missing file: open fails naming the path");
  nmmu_trace_close(&r);

  expect_fail("empty file", "", "empty");
  expect_fail("comments only", "# nothing\n\n", "empty");
  expect_fail("no header", "page 4k\nnmmu-trace 1\n", "line 1");
  expect_fail("header version 2", "nmmu-trace 2\n", "line 1");
  expect_fail("header extra field", "nmmu-trace 1 x\n", "line 1");
  expect_fail("bad page size", "nmmu-trace 1\npage 8k\n", "line 2");
  expect_fail("page twice", "nmmu-trace 1\npage 4k\npage 2m\n", "line 3");
  expect_fail("bad seg line", "nmmu-trace 1\nseg w 0x200000\n", "line 2");
  expect_fail("seg bad page", "nmmu-trace 1\nseg w 0x200000 4096 1g ro\n", "line 2");
  expect_fail("overlapping segs",
              "nmmu-trace 1\nseg a 0x200000 8192 4k ro\nseg b 0x201000 4096 4k rw\nlayer l 1\n",
              "layout");
  expect_fail("unknown header line", "nmmu-trace 1\nfoo 1\n", "line 2");
  expect_fail("tile before layer (header)", HDR "tile 5\n", "line 5");
  expect_fail("xfer before layer", HDR "r 0x200000 64\n", "line 5");
  expect_fail("xfer before tile", HDR "layer l 1\nr 0x200000 64\n", "line 6");
  expect_fail("zero bytes", HDR "layer l 1\ntile 1\nr 0x200000 0\n", "line 7");
  expect_fail("4097 bytes", HDR "layer l 1\ntile 1\nr 0x200000 4097\n", "line 7");
  expect_fail("crosses 4 KB", HDR "layer l 1\ntile 1\nr 0x200000 64\nw 0x200ff0 32\n", "line 8");
  expect_fail("negative bytes", HDR "layer l 1\ntile 1\nr 0x200000 -64\n", "line 7");
  expect_fail("hex bytes", HDR "layer l 1\ntile 1\nr 0x200000 0x40\n", "line 7");
  expect_fail("bad hex va", HDR "layer l 1\ntile 1\nr 0xZZ 64\n", "line 7");
  expect_fail("empty hex va", HDR "layer l 1\ntile 1\nr 0x 64\n", "line 7");
  expect_fail("va beyond 48 bits", HDR "layer l 1\ntile 1\nr 0x1000000000000 64\n", "line 7");
  expect_fail("xfer missing field", HDR "layer l 1\ntile 1\nw 0x200000\n", "line 7");
  expect_fail("xfer extra field", HDR "layer l 1\ntile 1\nr 0x200000 64 9\n", "line 7");
  expect_fail("tile negative", HDR "layer l 1\ntile -5\n", "line 6");
  expect_fail("tile not a number", HDR "layer l 1\ntile 12abc\n", "line 6");
  expect_fail("tile overflow", HDR "layer l 1\ntile 18446744073709551616\n", "line 6");
  expect_fail("tile 2^64 - 1", HDR "layer l 1\ntile 18446744073709551615\n", "line 6: bad compute cycles");
  expect_fail("tile 2^32", HDR "layer l 1\ntile 4294967296\n", "line 6: bad compute cycles");
  expect_fail("tile missing", HDR "layer l 1\ntile\n", "line 6");
  expect_fail("scale zero", HDR "layer l 0\n", "line 5");
  expect_fail("scale negative", HDR "layer l -2\n", "line 5");
  expect_fail("scale nan", HDR "layer l nan\n", "line 5");
  expect_fail("scale inf", HDR "layer l inf\n", "line 5");
  expect_fail("scale junk", HDR "layer l 1.5x\n", "line 5");
  expect_fail("scale missing", HDR "layer l\n", "line 5");
  expect_fail("layer name too long",
              HDR "layer abcdefghijabcdefghijabcdefghij12 1\n", "line 5");
  expect_fail("seg after layer", HDR "layer l 1\nseg b 0x800000 4096 4k rw\n", "line 6");
  expect_fail("hole after layer", HDR "layer l 1\nhole 0x200000 4096\n", "line 6");
  expect_fail("page after layer", HDR "layer l 1\npage 4k\n", "line 6");
  expect_fail("second header", HDR "layer l 1\nnmmu-trace 1\n", "line 6");
  expect_fail("unknown line", HDR "layer l 1\ntile 1\nx 1 2\n", "line 7");
  expect_fail("too many fields", HDR "layer l 1\ntile 1 2 3 4 5 6 7 8 9\n", "line 6");
  char big[2100];
  int n = snprintf(big, sizeof big, HDR "layer l 1\ntile 1\nr 0x200000 64");
  while (n < (int)sizeof big - 2) big[n++] = ' ';
  big[n++] = '\n';
  big[n] = 0;
  expect_fail("line too long", big, "line 7");
  /* a NUL byte is an error of its line (it would silently cut the line short) */
  static const char nul[] = HDR "layer l 1\ntile 1\nr 0x200000 64\0 junk\nr 0x200040 64\n";
  expect_fail_n("NUL byte", nul, sizeof nul - 1, "line 7: NUL byte in column 14");
  /* an error late in a file reports its own line number */
  char lng[8192];
  n = snprintf(lng, sizeof lng, HDR "layer l 1\ntile 1\n");
  for (int i = 0; i < 100; i++) n += snprintf(lng + n, sizeof lng - (size_t)n, "r 0x%x 64\n", 0x200000 + 64 * i);
  snprintf(lng + n, sizeof lng - (size_t)n, "r 0x200000 5000\n");
  expect_fail("late error", lng, "line 107");
}

/* ---------------------------------------------------------------- trace file checks */

/* Growable open-addressing set of 64-bit keys with a generation stamp: an entry counts only
 * when its stamp is the set's current generation, so clearing is one increment. */
typedef struct {
  uint64_t *key;
  uint32_t *gen;
  size_t cap, n;
  uint32_t cur;
} set_t;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

static void set_init(set_t *s) {
  s->cap = 1024;
  s->n = 0;
  s->cur = 1;
  s->key = calloc(s->cap, sizeof *s->key);
  s->gen = calloc(s->cap, sizeof *s->gen);
  if (!s->key || !s->gen) exit(1);
}

static int set_add(set_t *s, uint64_t k);

static void set_grow(set_t *s) {
  set_t t;
  t.cap = s->cap * 2;
  t.n = 0;
  t.cur = 1;
  t.key = calloc(t.cap, sizeof *t.key);
  t.gen = calloc(t.cap, sizeof *t.gen);
  if (!t.key || !t.gen) exit(1);
  for (size_t i = 0; i < s->cap; i++)
    if (s->gen[i] == s->cur) set_add(&t, s->key[i]);
  free(s->key);
  free(s->gen);
  *s = t;
}

/* 1 when k was new. */
static int set_add(set_t *s, uint64_t k) {
  if (2 * (s->n + 1) > s->cap) set_grow(s);
  size_t i = mix(k) & (s->cap - 1);
  while (s->gen[i] == s->cur) {
    if (s->key[i] == k) return 0;
    i = (i + 1) & (s->cap - 1);
  }
  s->key[i] = k;
  s->gen[i] = s->cur;
  s->n++;
  return 1;
}

static void set_clear(set_t *s) {
  s->cur++;
  s->n = 0;
}

static int check_file(const char *path, uint32_t xfer) {
  nmmu_trace_reader_t r;
  if (nmmu_trace_open(&r, path) != 0) {
    printf("FAIL: open: %s\n", r.err);
    g_fail++;
    return 1;
  }
  check(r.layout.nsegs > 0, "layout has segments");
  uint64_t layers = 0, tiles = 0, wb_tiles = 0, nr = 0, nw = 0, rbytes = 0, wbytes = 0;
  uint64_t cycles = 0, max_tile_pages = 0, sum_tile_pages = 0, data_tiles = 0;
  double wcycles = 0, scale = 1;
  uint64_t layer_tiles = 0, tile_xfers = 0;
  char lname[NMMU_NAME_LEN] = "";
  set_t pages, tpages;
  set_init(&pages);
  set_init(&tpages);
  nmmu_event_t ev;
  int k;
  char what[640];
  const nmmu_seg_t *last = NULL;
  while ((k = nmmu_trace_next(&r, &ev)) != NMMU_EV_END && k != NMMU_EV_ERROR) {
    if (k == NMMU_EV_LAYER || k == NMMU_EV_TILE) {
      if (tiles && tile_xfers) {
        sum_tile_pages += tpages.n;
        data_tiles++;
        if (tpages.n > max_tile_pages) max_tile_pages = tpages.n;
      }
      set_clear(&tpages);
      tile_xfers = 0;
    }
    if (k == NMMU_EV_LAYER) {
      if (layers) {
        snprintf(what, sizeof what, "layer %s has a tile", lname);
        check(layer_tiles > 0, what);
      }
      layers++;
      layer_tiles = 0;
      scale = ev.scale;
      snprintf(lname, sizeof lname, "%s", ev.name);
      snprintf(what, sizeof what, "layer %s: scale %g >= 1", lname, ev.scale);
      check(ev.scale >= 1.0, what);
    } else if (k == NMMU_EV_TILE) {
      tiles++;
      layer_tiles++;
      if (ev.compute_cycles == 0) wb_tiles++;
      cycles += ev.compute_cycles;
      wcycles += (double)ev.compute_cycles * scale;
    } else {
      tile_xfers++;
      if (ev.is_write) {
        nw++;
        wbytes += ev.bytes;
      } else {
        nr++;
        rbytes += ev.bytes;
      }
      set_add(&pages, ev.va >> 12);
      set_add(&tpages, ev.va >> 12);
      int ok = ev.bytes >= 1 && ev.bytes <= xfer && (ev.va & 4095) + ev.bytes <= 4096;
      const nmmu_seg_t *sg = NULL;
      if (last && ev.va >= last->va && ev.va + ev.bytes <= last->va + last->bytes) {
        sg = last;
      } else {
        for (size_t i = 0; i < r.layout.nsegs; i++) {
          const nmmu_seg_t *s = &r.layout.segs[i];
          uint64_t pg = s->page_2m ? (2ull << 20) : 4096ull;
          uint64_t len = (s->bytes + pg - 1) / pg * pg;
          if (ev.va >= s->va && ev.va + ev.bytes <= s->va + len) sg = s;
        }
      }
      last = sg;
      ok = ok && sg != NULL && !(ev.is_write && sg->read_only);
      for (size_t i = 0; ok && i < r.layout.nholes; i++)
        if (ev.va < r.layout.holes[i].va + r.layout.holes[i].bytes &&
            r.layout.holes[i].va < ev.va + ev.bytes)
          ok = 0;
      if (!ok) {
        snprintf(what, sizeof what, "line %ld: %c 0x%" PRIx64 " %u (layer %s): size <= %u, one page, in a %s segment",
                 r.line_no, ev.is_write ? 'w' : 'r', ev.va, ev.bytes, lname, xfer,
                 ev.is_write ? "rw" : "mapped");
      }
      check(ok, what);
    }
  }
  if (tiles && tile_xfers) {
    sum_tile_pages += tpages.n;
    data_tiles++;
    if (tpages.n > max_tile_pages) max_tile_pages = tpages.n;
  }
  snprintf(what, sizeof what, "trace read to the end (%s)", k == NMMU_EV_ERROR ? r.err : "ok");
  check(k == NMMU_EV_END, what);
  check(layers > 0, "trace has a layer");
  if (layers) {
    snprintf(what, sizeof what, "layer %s has a tile", lname);
    check(layer_tiles > 0, what);
  }
  check(nr > 0, "trace has read transactions");
  printf("stats: layers %" PRIu64 " tiles %" PRIu64 " (compute 0: %" PRIu64 ") reads %" PRIu64
         " writes %" PRIu64 " MB %.2f (read %.2f, write %.2f) pages4k %zu max_pages_per_tile %" PRIu64
         " avg_pages_per_tile %.0f compute %" PRIu64 " weighted_compute %.0f\n",
         layers, tiles, wb_tiles, nr, nw, (double)(rbytes + wbytes) / 1048576.0, rbytes / 1048576.0,
         wbytes / 1048576.0, pages.n, max_tile_pages,
         data_tiles ? (double)sum_tile_pages / (double)data_tiles : 0.0, cycles, wcycles);
  free(pages.key);
  free(pages.gen);
  free(tpages.key);
  free(tpages.gen);
  nmmu_trace_close(&r);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 3) {
    fprintf(stderr, "usage: test_nmmu_trace [<trace file> [xfer]]\n");
    return 2;
  }
  if (argc >= 2) {
    long xfer = 4096;
    if (argc == 3) {
      char *end;
      xfer = strtol(argv[2], &end, 10);
      if (*end || xfer < 1 || xfer > 4096) {
        fprintf(stderr, "test_nmmu_trace: bad xfer '%s'\n", argv[2]);
        return 2;
      }
    }
    check_file(argv[1], (uint32_t)xfer);
  } else {
    test_good();
    test_bad();
  }
  printf("%d passed, %d failed\n", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
