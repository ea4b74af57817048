/* test_gnn_graph.c -- unit test of the GNNerator graph library (sw/gnnerator/libgnn_graph.c,
 * gnn_graph.h), built with ASan/UBSan:
 *   - the generator: the presets' exact counts, determinism per seed, symmetry, (dst, src)
 *     order, no duplicates or self loops, a heavy tail (max degree >= 10 x the mean), small and
 *     complete graphs (the uniform fallbacks), the refusals, and the time of Pubmed (generation,
 *     COUNT_EDGES and the shard lists well under a second);
 *   - the readers on good files (comments, header, duplicates merged and counted, self loops
 *     kept, empty CSR rows, Planetoid string ids, labels and features, drop_missing) and on
 *     every bad-file case, each with its exact one-line message and line number;
 *   - write-then-read round trips (edge list and CSR, a generated graph and a Planetoid one);
 *   - add_self_loops, sort, degrees, statistics;
 *   - sharding on a hand-made graph: shard membership, COUNT_EDGES for pull and push and several
 *     n and p (numbers worked by hand in the comments), the per-GPE lists, their order (pull by
 *     dst then edge order, push by src), the null padding and the interleaved list;
 *   - Algorithm 3: each of its three outcomes and its refusals on hand-worked examples;
 *   - Table 6.1 against a walk of the S-pattern that counts the transfers, for S = 1..8 and
 *     I = 1..4, and the paper's conclusion (DST better at I = 1, equal at 2, SRC better above).
 * Temporary files go to $BUILD/gnnerator_graph (default build/).  VERBOSE=1 prints each
 * expected reader error.  Last line: "N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cutil.h"
#include "gnnerator/gnn_graph.h"
#include "test_check.h"

static int verbose;
static char tmpdir[256];

/* A path in the temporary directory (one of four rotating buffers). */
static const char *tpath(const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/t%ld_%s", tmpdir, (long)getpid(), name);
  return buf[k];
}

/* The files put() wrote, removed at the end. */
static char written[64][512];
static int nwritten;

static void put(const char *path, const char *data, size_t len) {
  int known = 0;
  for (int i = 0; i < nwritten; i++) known |= !strcmp(written[i], path);
  if (!known && nwritten < 64) snprintf(written[nwritten++], sizeof written[0], "%s", path);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "test_gnn_graph: cannot write %s\n", path);
    exit(1);
  }
}

static void puts_file(const char *path, const char *text) { put(path, text, strlen(text)); }

static int graph_equal(const gnn_graph_t *a, const gnn_graph_t *b) {
  if (a->nv != b->nv || a->ne != b->ne) return 0;
  for (uint64_t k = 0; k < a->ne; k++)
    if (a->src[k] != b->src[k] || a->dst[k] != b->dst[k]) return 0;
  return 1;
}

/* g has exactly the edges of the list "s0 d0 s1 d1 ..." in this order. */
static int has_edges(const gnn_graph_t *g, const uint32_t *sd, uint64_t n) {
  if (g->ne != n) return 0;
  for (uint64_t k = 0; k < n; k++)
    if (g->src[k] != sd[2 * k] || g->dst[k] != sd[2 * k + 1]) return 0;
  return 1;
}

static void make_graph(gnn_graph_t *g, uint32_t nv, const uint32_t *sd, uint64_t n) {
  gnn_graph_init(g);
  g->nv = nv;
  g->ne = n;
  g->src = malloc((size_t)(n ? n : 1) * sizeof *g->src);
  g->dst = malloc((size_t)(n ? n : 1) * sizeof *g->dst);
  if (!g->src || !g->dst) exit(1);
  for (uint64_t k = 0; k < n; k++) g->src[k] = sd[2 * k], g->dst[k] = sd[2 * k + 1];
}

/* ------------------------------------------------------------------ generator */

/* Structural checks of a generated graph; returns 1 when all hold. */
static int gen_ok(const gnn_graph_t *g, uint32_t nv, uint64_t ne, const char *tag) {
  int ok = g->nv == nv && g->ne == ne && g->dups == 0 && g->self_loops == 0;
  CHECK(ok, "%s: nv %" PRIu32 " ne %" PRIu64, tag, g->nv, g->ne);
  uint64_t bad_order = 0, loops = 0, range = 0, asym = 0;
  for (uint64_t k = 0; k < g->ne; k++) {
    range += g->src[k] >= nv || g->dst[k] >= nv;
    loops += g->src[k] == g->dst[k];
    if (k && !(g->dst[k] > g->dst[k - 1] || (g->dst[k] == g->dst[k - 1] &&
                                             g->src[k] > g->src[k - 1])))
      bad_order++; /* strictly increasing (dst, src): sorted and no duplicates */
  }
  /* symmetry: the reverse of each edge is present (binary search in the (dst, src) order) */
  for (uint64_t k = 0; k < g->ne && !range; k++) {
    uint64_t want = (uint64_t)g->src[k] << 32 | g->dst[k], lo = 0, hi = g->ne;
    int found = 0;
    while (lo < hi) {
      uint64_t mid = lo + (hi - lo) / 2, key = (uint64_t)g->dst[mid] << 32 | g->src[mid];
      if (key == want) {
        found = 1;
        break;
      }
      if (key < want) lo = mid + 1;
      else hi = mid;
    }
    asym += !found;
  }
  CHECK(!bad_order && !loops && !range && !asym,
        "%s: order %" PRIu64 " loops %" PRIu64 " range %" PRIu64 " asym %" PRIu64, tag,
        bad_order, loops, range, asym);
  return ok && !bad_order && !loops && !range && !asym;
}

static void test_generator(void) {
  char err[256] = "";
  gnn_graph_t g, h;
  uint32_t nv, feat;
  uint64_t ne;
  /* presets */
  CHECK(gnn_graph_preset("cora", &nv, &ne, &feat) == 0 && nv == 2708 && ne == 10556 &&
            feat == 1433, "cora preset");
  CHECK(gnn_graph_preset("citeseer", &nv, &ne, &feat) == 0 && nv == 3327 && ne == 9104 &&
            feat == 3703, "citeseer preset");
  CHECK(gnn_graph_preset("pubmed", &nv, &ne, &feat) == 0 && nv == 19717 && ne == 88648 &&
            feat == 500, "pubmed preset");
  nv = 7;
  CHECK(gnn_graph_preset("reddit", &nv, NULL, NULL) == -1 && nv == 7, "unknown preset");
  CHECK(gnn_graph_preset("Cora", NULL, NULL, NULL) == -1, "preset names are lower case");
  CHECK(gnn_graph_preset(NULL, NULL, NULL, NULL) == -1, "NULL preset");
  const char *names[3] = {"cora", "citeseer", "pubmed"};
  for (int i = 0; i < 3; i++) {
    gnn_graph_preset(names[i], &nv, &ne, NULL);
    clock_t t0 = clock();
    int rc = gnn_graph_gen(&g, nv, ne, 1, err, sizeof err);
    double dt = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(rc == 0, "%s: %s", names[i], err);
    if (rc) continue;
    gen_ok(&g, nv, ne, names[i]);
    gnn_graph_stats_t st;
    CHECK(gnn_graph_stats(&g, &st) == 0, "stats");
    double mean = (double)ne / nv;
    /* heavy tail: the hub has at least ten times the mean degree (Cora's real one 43 x) */
    CHECK(st.max_in >= 10 * mean && st.max_in == st.max_out,
          "%s heavy tail: max %" PRIu64 " mean %.2f", names[i], st.max_in, mean);
    CHECK(st.isolated < nv / 20, "%s isolated %" PRIu64, names[i], st.isolated);
    if (verbose)
      printf("%s: max degree %" PRIu64 " mean %.2f isolated %" PRIu64 " (%.3f s)\n", names[i],
             st.max_in, mean, st.isolated, dt);
    /* determinism; another seed gives another graph with the same counts */
    CHECK(gnn_graph_gen(&h, nv, ne, 1, err, sizeof err) == 0 && graph_equal(&g, &h),
          "%s: same seed same graph", names[i]);
    gnn_graph_free(&h);
    CHECK(gnn_graph_gen(&h, nv, ne, 2, err, sizeof err) == 0 && h.ne == ne && !graph_equal(&g, &h),
          "%s: seed 2 another graph", names[i]);
    gnn_graph_free(&h);
    if (i == 2) {
      /* Pubmed: generation, COUNT_EDGES and the shard lists well under a second (sanitized) */
      t0 = clock();
      uint64_t c = gnn_graph_count_edges(&g, 2048, 32, 0);
      gnn_shards_t sh;
      int brc = gnn_shards_build(&g, 2048, 32, 0, &sh, err, sizeof err);
      double dt2 = (double)(clock() - t0) / CLOCKS_PER_SEC;
      CHECK(brc == 0 && sh.count_edges == c && c > 0, "pubmed shards: %s", err);
      CHECK(dt + dt2 < 1.0, "pubmed: generation %.3f s, sharding %.3f s", dt, dt2);
      if (verbose) printf("pubmed sharding %.3f s\n", dt2);
      gnn_shards_free(&sh);
    }
    gnn_graph_free(&g);
  }
  /* small, dense and complete graphs end quickly (phase 2 of the generator) */
  static const struct {
    uint32_t nv;
    uint64_t ne;
  } kSmall[] = {{2, 2}, {3, 6}, {5, 20}, {5, 18}, {50, 2450}, {50, 2448}, {50, 1300},
                {200, 30000}, {1000, 2}, {1, 0}, {10, 0}, {64, 4032}};
  for (size_t i = 0; i < sizeof kSmall / sizeof kSmall[0]; i++) {
    char tag[64];
    snprintf(tag, sizeof tag, "gen nv %" PRIu32 " ne %" PRIu64, kSmall[i].nv, kSmall[i].ne);
    int rc = gnn_graph_gen(&g, kSmall[i].nv, kSmall[i].ne, 7, err, sizeof err);
    CHECK(rc == 0, "%s: %s", tag, err);
    if (!rc) gen_ok(&g, kSmall[i].nv, kSmall[i].ne, tag);
    gnn_graph_free(&g);
  }
  /* refusals (g zeroed) */
  CHECK(gnn_graph_gen(&g, 10, 7, 1, err, sizeof err) == -1 && strstr(err, "ne 7 is odd") &&
            !g.src && g.ne == 0, "odd ne: %s", err);
  CHECK(gnn_graph_gen(&g, 5, 22, 1, err, sizeof err) == -1 &&
            !strcmp(err, "ne 22 exceeds nv (nv - 1) = 20 (no self loops, no duplicates)"),
        "too many edges: %s", err);
  CHECK(gnn_graph_gen(&g, 1, 2, 1, err, sizeof err) == -1 && strstr(err, "exceeds nv (nv - 1) = 0"),
        "one vertex: %s", err);
  CHECK(gnn_graph_gen(&g, 0, 0, 1, err, sizeof err) == -1 &&
            !strcmp(err, "nv 0 out of range 1..2147483648"), "nv 0: %s", err);
  CHECK(gnn_graph_gen(&g, 3000000000u, 2, 1, err, sizeof err) == -1 && strstr(err, "out of range"),
        "nv 3e9: %s", err);
  CHECK(gnn_graph_gen(&g, 100000, (1ull << 31) + 2, 1, err, sizeof err) == -1 &&
            strstr(err, "beyond the generator's limit"), "huge ne: %s", err);
}

/* ------------------------------------------------------------------ readers: good files */

static void test_read_good(void) {
  char err[256] = "";
  gnn_graph_t g;
  /* edge list: header, comments, blank lines, trailing comment, a duplicate (merged), a self
   * loop (kept), CRLF */
  const char *p = tpath("good.el");
  puts_file(p, "# a graph\n\n# nv 6\n0 1\n  2\t1   # trailing\n1 0\r\n0 1\n4 4\n# end\n5 2");
  int rc = gnn_graph_read_edges(&g, p, err, sizeof err);
  static const uint32_t e1[] = {1, 0, 0, 1, 2, 1, 5, 2, 4, 4}; /* (dst, src) order */
  CHECK(rc == 0 && g.nv == 6 && has_edges(&g, e1, 5) && g.dups == 1 && g.self_loops == 1,
        "edge list: %s", err);
  gnn_graph_free(&g);
  /* without a header nv = largest id + 1 */
  puts_file(p, "3 9\n9 3\n");
  rc = gnn_graph_read_edges(&g, p, err, sizeof err);
  CHECK(rc == 0 && g.nv == 10 && g.ne == 2 && g.dups == 0, "no header: %s", err);
  gnn_graph_free(&g);
  /* a header without edges: isolated vertices */
  puts_file(p, "# nv 3\n# nothing else\n");
  rc = gnn_graph_read_edges(&g, p, err, sizeof err);
  CHECK(rc == 0 && g.nv == 3 && g.ne == 0, "header only: %s", err);
  gnn_graph_free(&g);
  /* the largest id */
  puts_file(p, "2147483647 0\n");
  rc = gnn_graph_read_edges(&g, p, err, sizeof err);
  CHECK(rc == 0 && g.nv == 2147483648u && g.ne == 1, "id 2^31 - 1: %s", err);
  gnn_graph_free(&g);
  /* a line of exactly 1022 characters is accepted */
  char line[1100];
  memset(line, ' ', sizeof line);
  memcpy(line, "1 2", 3);
  line[1022] = '\n';
  put(p, line, 1023);
  rc = gnn_graph_read_edges(&g, p, err, sizeof err);
  CHECK(rc == 0 && g.ne == 1, "1022-character line: %s", err);
  gnn_graph_free(&g);

  /* CSR: row r lists the sources of destination r; empty rows; a duplicate; comments.
   * rows: 0 <- {1, 3}, 1 <- {}, 2 <- {}, 3 <- {0, 2, 2, 3}: edges 1->0 3->0 0->3 2->3 3->3 */
  p = tpath("good.csr");
  puts_file(p, "# CSR\ncsr 4 6  # NV NE\n0 2\n2 2\n6\n\n1 3 0 # comment\n2 2 3");
  rc = gnn_graph_read_csr(&g, p, err, sizeof err);
  static const uint32_t e2[] = {1, 0, 3, 0, 0, 3, 2, 3, 3, 3};
  CHECK(rc == 0 && g.nv == 4 && has_edges(&g, e2, 5) && g.dups == 1 && g.self_loops == 1,
        "csr: %s", err);
  gnn_graph_free(&g);
  puts_file(p, "csr 3 0\n0 0 0 0\n");
  rc = gnn_graph_read_csr(&g, p, err, sizeof err);
  CHECK(rc == 0 && g.nv == 3 && g.ne == 0, "csr without edges: %s", err);
  gnn_graph_free(&g);

  /* Planetoid: string ids, three labels, 0/1 features; p2 cites p1 twice in both directions
   * (2 duplicates), p3 cites itself (one self loop), xx cites p3, p3 cites p1.
   * Edges (citing -> cited plus reverse): 1->0 0->1 2->2 3->2 2->3 2->0 0->2 */
  const char *pre = tpath("cora_small");
  char cpath[600], epath[600];
  snprintf(cpath, sizeof cpath, "%s.content", pre);
  snprintf(epath, sizeof epath, "%s.cites", pre);
  puts_file(cpath, "p1\t0\t1\t0\tAI\np2\t1\t1\t0\tML\n\np3\t0\t0\t1\tAI\nxx\t1\t0\t1\tDB\n");
  puts_file(epath, "p1\tp2\np2\tp1\np3\tp3\n\np3\txx\np1\tp3\n");
  rc = gnn_graph_read_planetoid(&g, pre, 0, err, sizeof err);
  static const uint32_t e3[] = {1, 0, 2, 0, 0, 1, 0, 2, 2, 2, 3, 2, 2, 3};
  static const uint32_t x3[] = {0, 0x3F800000u, 0, 0x3F800000u, 0x3F800000u, 0,
                                0, 0, 0x3F800000u, 0x3F800000u, 0, 0x3F800000u};
  static const uint32_t l3[] = {0, 1, 0, 2};
  CHECK(rc == 0 && g.nv == 4 && has_edges(&g, e3, 7) && g.dups == 2 && g.self_loops == 1 &&
            g.dropped == 0, "planetoid: %s", err);
  CHECK(rc == 0 && g.feat == 3 && g.x && !memcmp(g.x, x3, sizeof x3) && g.nclass == 3 &&
            g.label && !memcmp(g.label, l3, sizeof l3), "planetoid features and labels");
  gnn_graph_free(&g);
  /* Citeseer-style ids missing from the content file: an error, or dropped and counted */
  puts_file(epath, "p1\tp2\nzz\tp1\np2\tqq\n");
  rc = gnn_graph_read_planetoid(&g, pre, 1, err, sizeof err);
  CHECK(rc == 0 && g.ne == 2 && g.dropped == 2, "drop_missing: %s", err);
  gnn_graph_free(&g);
  /* an empty cites file: vertices without edges */
  puts_file(epath, "");
  rc = gnn_graph_read_planetoid(&g, pre, 0, err, sizeof err);
  CHECK(rc == 0 && g.nv == 4 && g.ne == 0 && g.feat == 3, "empty cites: %s", err);
  gnn_graph_free(&g);
  /* no features (F = 0) */
  puts_file(cpath, "a L\nb L\n");
  puts_file(epath, "a b\n");
  rc = gnn_graph_read_planetoid(&g, pre, 0, err, sizeof err);
  CHECK(rc == 0 && g.nv == 2 && g.ne == 2 && g.feat == 0 && g.nclass == 1, "F = 0: %s", err);
  gnn_graph_free(&g);
  /* a Citeseer-wide content line (3703 features) */
  size_t wide = 3703;
  char *big = malloc(2 * wide + 64);
  if (!big) exit(1);
  size_t n = 0;
  n += (size_t)sprintf(big + n, "100157");
  for (size_t f = 0; f < wide; f++) n += (size_t)sprintf(big + n, "\t%d", (int)(f % 7 == 0));
  n += (size_t)sprintf(big + n, "\tAgents\n");
  put(cpath, big, n);
  puts_file(epath, "100157 100157\n");
  rc = gnn_graph_read_planetoid(&g, pre, 0, err, sizeof err);
  CHECK(rc == 0 && g.nv == 1 && g.feat == 3703 && g.x[7] == 0x3F800000u && g.x[8] == 0 &&
            g.ne == 1 && g.self_loops == 1, "wide content line: %s", err);
  gnn_graph_free(&g);
  free(big);
}

/* ------------------------------------------------------------------ readers: bad files */

enum { RD_EDGES, RD_CSR, RD_PLANETOID_C, RD_PLANETOID_E, RD_PLANETOID_E_DROP };

/* Writes data (len bytes) and expects the reader to refuse it with exactly path + want. */
static void bad(int kind, const char *data, size_t len, const char *want) {
  char err[512], expect[1024];
  gnn_graph_t g;
  int rc;
  const char *pre = tpath("bad_pl");
  char cpath[600], epath[600];
  snprintf(cpath, sizeof cpath, "%s.content", pre);
  snprintf(epath, sizeof epath, "%s.cites", pre);
  const char *path = kind == RD_EDGES ? tpath("bad.el") : kind == RD_CSR ? tpath("bad.csr")
                     : kind == RD_PLANETOID_C ? cpath : epath;
  put(path, data, len);
  if (kind == RD_PLANETOID_E || kind == RD_PLANETOID_E_DROP)
    puts_file(cpath, "a 0 1 X\nb 1 0 Y\nc 1 1 X\n");
  if (kind == RD_PLANETOID_C) puts_file(epath, "a b\n");
  memset(&g, 0x5a, sizeof g);
  if (kind == RD_EDGES) rc = gnn_graph_read_edges(&g, path, err, sizeof err);
  else if (kind == RD_CSR) rc = gnn_graph_read_csr(&g, path, err, sizeof err);
  else rc = gnn_graph_read_planetoid(&g, pre, kind == RD_PLANETOID_E_DROP, err, sizeof err);
  snprintf(expect, sizeof expect, "%s%s", path, want);
  CHECK(rc == -1 && !strcmp(err, expect) && !strchr(err, '\n') && !g.src && !g.dst && !g.x &&
            g.ne == 0 && g.nv == 0, "reader error: got '%s' want '%s'", rc ? err : "(ok)",
        expect);
  if (verbose) printf("expected error: %s\n", err);
  gnn_graph_free(&g);
}

#define BAD(kind, text, want) bad(kind, text, sizeof(text) - 1, want)

static void test_read_bad(void) {
  /* edge list */
  BAD(RD_EDGES, "", ": empty file (no edges and no '# nv' header)");
  BAD(RD_EDGES, "# only a comment\n\n", ": empty file (no edges and no '# nv' header)");
  BAD(RD_EDGES, "0 1\n1 x\n", ":2: bad number 'x'");
  BAD(RD_EDGES, "0 -1\n", ":1: bad number '-1'");
  BAD(RD_EDGES, "0x1 2\n", ":1: bad number '0x1'");
  BAD(RD_EDGES, "2147483648 1\n", ":1: id '2147483648' beyond 2^31 - 1");
  BAD(RD_EDGES, "1 99999999999999999999999\n", ":1: id '99999999999999999999999' beyond 2^31 - 1");
  BAD(RD_EDGES, "# nv 5\n1 4\n5 1\n", ":3: out-of-range id 5 (nv 5)");
  BAD(RD_EDGES, "# nv 5\n1 7\n", ":2: out-of-range id 7 (nv 5)");
  BAD(RD_EDGES, "1 2 3\n", ":1: extra field '3'");
  BAD(RD_EDGES, "1 2\n3 # 4\n", ":2: missing field: expected 'SRC DST'");
  BAD(RD_EDGES, "1 2\n3\0 4\n", ":2: NUL byte in line");
  BAD(RD_EDGES, "# nv 0\n", ":1: nv 0 out of range 1..2147483648");
  BAD(RD_EDGES, "# nv 2147483649\n", ":1: nv 2147483649 out of range 1..2147483648");
  BAD(RD_EDGES, "# nv x\n", ":1: bad nv 'x'");
  BAD(RD_EDGES, "# nv 5 6\n", ":1: bad header: expected '# nv N'");
  BAD(RD_EDGES, "# nv\n", ":1: bad header: expected '# nv N'");
  BAD(RD_EDGES, "# nv 5\n# nv 6\n", ":2: second '# nv' header");
  BAD(RD_EDGES, "1 2\n# nv 5\n", ":2: '# nv' header after the first edge");
  {
    char line[1100];
    memset(line, ' ', sizeof line);
    memcpy(line, "0 1\n1 2", 7);
    line[4 + 1023] = '\n'; /* second line: 1023 characters */
    bad(RD_EDGES, line, 4 + 1024, ":2: line longer than 1022 characters");
  }
  /* CSR */
  BAD(RD_CSR, "", ": empty file");
  BAD(RD_CSR, "# nothing\n", ": empty file");
  BAD(RD_CSR, "csx 2 1\n", ":1: expected 'csr NV NE'");
  BAD(RD_CSR, "\ncsr 2\n", ":2: expected 'csr NV NE'");
  BAD(RD_CSR, "csr 2 1 0\n", ":1: expected 'csr NV NE'");
  BAD(RD_CSR, "0 1 2\n", ":1: expected 'csr NV NE'");
  BAD(RD_CSR, "csr x 1\n", ":1: bad NV 'x'");
  BAD(RD_CSR, "csr 0 0\n", ":1: NV 0 out of range 1..2147483648");
  BAD(RD_CSR, "csr 2 y\n", ":1: bad NE 'y'");
  BAD(RD_CSR, "csr 10 5\n0 1 2\n3 4\n", ":3: truncated: 5 of 11 offsets");
  BAD(RD_CSR, "csr 3 2\n0 1 1 2\n0\n", ":3: truncated: 1 of 2 column ids");
  BAD(RD_CSR, "csr 3 2\n0 1 1 2\n", ":2: truncated: 0 of 2 column ids");
  BAD(RD_CSR, "csr 3 2\n0 2\n1 2\n", ":3: decreasing offset 1 after 2");
  BAD(RD_CSR, "csr 2 2\n1 1 2\n", ":2: first offset 1 is not 0");
  BAD(RD_CSR, "csr 2 2\n0 1 1\n", ":2: last offset 1 is not NE 2");
  BAD(RD_CSR, "csr 2 2\n0 3 3\n", ":2: offset 3 beyond NE 2");
  BAD(RD_CSR, "csr 2 2\n0 1 x\n", ":2: bad offset 'x'");
  BAD(RD_CSR, "csr 2 2\n0 1 2\n0 2\n", ":3: out-of-range id 2 (nv 2)");
  BAD(RD_CSR, "csr 2 1\n0 1 1\nz\n", ":3: bad number 'z'");
  BAD(RD_CSR, "csr 2 1\n0 1 1\n2147483648\n", ":3: id '2147483648' beyond 2^31 - 1");
  BAD(RD_CSR, "csr 2 2\n0 1 2\n0 1\n\n7\n", ":5: trailing garbage '7'");
  BAD(RD_CSR, "csr 1 0\n0 0 0\n", ":2: trailing garbage '0'");
  BAD(RD_CSR, "csr 2 1\n0\0 1 1\n0\n", ":2: NUL byte in line");
  /* Planetoid content */
  BAD(RD_PLANETOID_C, "", ": empty file");
  BAD(RD_PLANETOID_C, "a 0 1 X\nb\n", ":2: expected 'PAPER_ID FEATURES... LABEL'");
  BAD(RD_PLANETOID_C, "a 0 1 X\nb 1 Y\n", ":2: 1 features, the first line has 2");
  BAD(RD_PLANETOID_C, "a 0 1 X\nb 1 1 1 Y\n", ":2: 3 features, the first line has 2");
  BAD(RD_PLANETOID_C, "a 0 1 X\nb 1 2 Y\n", ":2: feature '2' is not 0 or 1");
  BAD(RD_PLANETOID_C, "a 0 1 X\nb 1 0.5 Y\n", ":2: feature '0.5' is not 0 or 1");
  BAD(RD_PLANETOID_C, "a 0 1 X\n\nb 1 0 Y\na 1 1 Y\n",
      ":4: duplicate paper id 'a' (first on line 1)");
  BAD(RD_PLANETOID_C, "a 0 1 X\nb 1\0 0 Y\n", ":2: NUL byte in line");
  /* Planetoid cites (content: a b c) */
  BAD(RD_PLANETOID_E, "a b\nb\n", ":2: expected 'CITED_ID CITING_ID'");
  BAD(RD_PLANETOID_E, "a b c\n", ":1: expected 'CITED_ID CITING_ID'");
  BAD(RD_PLANETOID_E, "a b\nc zz\n", ":2: missing vertex 'zz'");
  BAD(RD_PLANETOID_E, "a b\n\nabc c\n", ":3: missing vertex 'abc'");
  BAD(RD_PLANETOID_E_DROP, "a b\nb\n", ":2: expected 'CITED_ID CITING_ID'");
  {
    char line[1100];
    memset(line, 'x', sizeof line);
    memcpy(line, "a ", 2);
    line[1023] = '\n';
    bad(RD_PLANETOID_E, line, 1024, ":1: line longer than 1022 characters");
  }
  {
    /* content lines may be 1 MiB long, not more */
    size_t n = (1u << 20) + 2;
    char *s = malloc(n);
    if (!s) exit(1);
    memset(s, ' ', n);
    memcpy(s, "a 0 X", 5);
    s[n - 1] = '\n';
    bad(RD_PLANETOID_C, s, n, ":1: line longer than 1048576 characters");
    free(s);
  }
  /* files that do not exist */
  char err[512] = "";
  gnn_graph_t g;
  const char *none = tpath("no/such/file");
  CHECK(gnn_graph_read_edges(&g, none, err, sizeof err) == -1 &&
            strstr(err, "no/such/file: cannot open: ") && !strchr(err, '\n'),
        "missing edge list: %s", err);
  CHECK(gnn_graph_read_csr(&g, none, err, sizeof err) == -1 && strstr(err, "file: cannot open: "),
        "missing csr: %s", err);
  CHECK(gnn_graph_read_planetoid(&g, none, 0, err, sizeof err) == -1 &&
            strstr(err, "no/such/file.content: cannot open: "), "missing content: %s", err);
  const char *pre = tpath("only_content");
  char cpath[600];
  snprintf(cpath, sizeof cpath, "%s.content", pre);
  puts_file(cpath, "a 1 X\n");
  CHECK(gnn_graph_read_planetoid(&g, pre, 0, err, sizeof err) == -1 &&
            strstr(err, "only_content.cites: cannot open: "), "missing cites: %s", err);
}

/* ------------------------------------------------------------------ round trips, helpers */

static int write_to(const char *path, const gnn_graph_t *g, int csr) {
  put(path, "", 0); /* registers it for removal */
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int rc = csr ? gnn_graph_write_csr(g, f) : gnn_graph_write_edges(g, f);
  return fclose(f) != 0 ? -1 : rc;
}

static void test_round_trip(void) {
  char err[256] = "";
  gnn_graph_t g, h;
  const char *pe = tpath("rt.el"), *pc = tpath("rt.csr");
  CHECK(gnn_graph_gen(&g, 2708, 10556, 3, err, sizeof err) == 0, "gen: %s", err);
  CHECK(write_to(pe, &g, 0) == 0 && gnn_graph_read_edges(&h, pe, err, sizeof err) == 0 &&
            graph_equal(&g, &h) && h.dups == 0, "edge list round trip: %s", err);
  gnn_graph_free(&h);
  CHECK(write_to(pc, &g, 1) == 0 && gnn_graph_read_csr(&h, pc, err, sizeof err) == 0 &&
            graph_equal(&g, &h) && h.dups == 0, "csr round trip: %s", err);
  gnn_graph_free(&h);
  gnn_graph_free(&g);
  /* isolated top vertices survive thanks to the header (nv = 9, largest id 3) */
  static const uint32_t e[] = {3, 0, 2, 2, 0, 3}; /* (dst, src) order */
  make_graph(&g, 9, e, 3);
  g.self_loops = 1;
  CHECK(write_to(pe, &g, 0) == 0 && gnn_graph_read_edges(&h, pe, err, sizeof err) == 0 &&
            graph_equal(&g, &h) && h.nv == 9 && h.self_loops == 1, "isolated: %s", err);
  gnn_graph_free(&h);
  /* CSR of an unsorted graph: rows keep g's order within a destination */
  static const uint32_t u[] = {2, 1, 0, 1, 1, 0, 3, 1};
  gnn_graph_free(&g);
  make_graph(&g, 4, u, 4);
  CHECK(write_to(pc, &g, 1) == 0, "csr write");
  FILE *f = fopen(pc, "r");
  char buf[256] = {0};
  size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  CHECK(got && !strcmp(buf, "csr 4 4\n0 1 4 4 4\n1 2 0 3\n"), "csr text: '%s'", buf);
  gnn_graph_free(&g);
  /* an empty graph of one vertex */
  make_graph(&g, 1, NULL, 0);
  CHECK(write_to(pc, &g, 1) == 0 && gnn_graph_read_csr(&h, pc, err, sizeof err) == 0 &&
            graph_equal(&g, &h), "empty csr round trip: %s", err);
  gnn_graph_free(&h);
  CHECK(write_to(pe, &g, 0) == 0 && gnn_graph_read_edges(&h, pe, err, sizeof err) == 0 &&
            graph_equal(&g, &h), "empty edge list round trip: %s", err);
  gnn_graph_free(&h);
  gnn_graph_free(&g);
  /* a write error */
  f = fopen("/dev/full", "w");
  if (f) {
    gnn_graph_gen(&g, 2708, 10556, 3, err, sizeof err);
    int rc = gnn_graph_write_edges(&g, f);
    rc |= fflush(f) != 0;
    fclose(f);
    CHECK(rc != 0, "write error reported");
    gnn_graph_free(&g);
  }
}

static void test_helpers(void) {
  gnn_graph_t g;
  /* 0->1 1->0 1->1 2->1 3->0: self loop at 1; 4 has no edge */
  static const uint32_t e[] = {0, 1, 1, 0, 1, 1, 2, 1, 3, 0};
  make_graph(&g, 5, e, 5);
  g.self_loops = 1;
  uint64_t in[5], out[5];
  gnn_graph_degrees(&g, in, out);
  static const uint64_t in_w[5] = {2, 3, 0, 0, 0}, out_w[5] = {1, 2, 1, 1, 0};
  CHECK(!memcmp(in, in_w, sizeof in) && !memcmp(out, out_w, sizeof out), "degrees");
  gnn_graph_degrees(&g, NULL, out);
  CHECK(!memcmp(out, out_w, sizeof out), "degrees, in NULL");
  gnn_graph_stats_t st;
  CHECK(gnn_graph_stats(&g, &st) == 0 && st.max_in == 3 && st.max_out == 2 && st.isolated == 1,
        "stats");
  CHECK(gnn_graph_sort(&g, 0) == 0, "sort by src");
  static const uint32_t bs[] = {0, 1, 1, 0, 1, 1, 2, 1, 3, 0};
  CHECK(has_edges(&g, bs, 5), "(src, dst) order");
  CHECK(gnn_graph_sort(&g, 1) == 0, "sort by dst");
  static const uint32_t bd[] = {1, 0, 3, 0, 0, 1, 1, 1, 2, 1};
  CHECK(has_edges(&g, bd, 5), "(dst, src) order");
  /* add_self_loops: 0, 2, 3, 4 get one; 1 keeps its own */
  CHECK(gnn_graph_add_self_loops(&g) == 4 && g.ne == 9 && g.self_loops == 5, "add self loops");
  static const uint32_t bl[] = {0, 0, 1, 0, 3, 0, 0, 1, 1, 1, 2, 1, 2, 2, 3, 3, 4, 4};
  CHECK(has_edges(&g, bl, 9), "self loops in (dst, src) order");
  CHECK(gnn_graph_add_self_loops(&g) == 0 && g.ne == 9, "add self loops twice");
  gnn_graph_free(&g);
  CHECK(g.src == NULL && g.ne == 0, "free empties");
  gnn_graph_free(&g); /* twice is fine */
  CHECK(gnn_graph_grid_side(6, 3) == 2 && gnn_graph_grid_side(7, 3) == 3 &&
            gnn_graph_grid_side(1, 100) == 1 &&
            gnn_graph_grid_side(0xFFFFFFFFu, 1) == 0xFFFFFFFFu &&
            gnn_graph_grid_side(5, 0) == 0, "grid side");
  CHECK(gnn_edge_pack(3, 5) == 0x00050003u && gnn_edge_pack(65534, 65534) == 0xFFFEFFFEu &&
            GNN_EDGE_NULL == 0xFFFFFFFFu, "edge word");
}

/* ------------------------------------------------------------------ sharding */

/* The hand-made graph: nv = 6, edges in (dst, src) order
 *   k: 0    1    2    3    4    5    6    7    8    9
 *      1->0 4->0 0->1 2->1 5->2 4->3 3->4 0->5 1->5 2->5
 * n = 3 (S = 2): shard (U, V) = (src / 3, dst / 3):
 *   (0,0): 1->0 0->1 2->1    (1,0): 4->0 5->2    (0,1): 0->5 1->5 2->5    (1,1): 4->3 3->4
 * pull, p = 2 (GPE = dst_local % 2):
 *   (0,0): G0 {1->0}, G1 {0->1, 2->1}: 2     (1,0): G0 {4->0, 5->2} (dst_local 0, 2): 2
 *   (0,1): G0 {0->5, 1->5, 2->5} (dst_local 2): 3     (1,1): G0 {4->3}, G1 {3->4}: 1
 *   COUNT_EDGES = 3; words = 2 (2 + 2 + 3 + 1) = 16; fullest shard 3 edges
 * push, p = 2 (GPE = src_local % 2):
 *   (0,0): G0 {0->1, 2->1}, G1 {1->0}: 2     (1,0): G1 {4->0}, G0 {5->2}: 1
 *   (0,1): G0 {0->5, 2->5}, G1 {1->5}: 2     (1,1): G1 {4->3}, G0 {3->4}: 1     COUNT = 2
 * p = 3, pull: GPE = dst_local: (0,1) puts all three on G2: 3; push: GPE = src_local: every
 *   shard's sources are distinct: 1
 * p = 1: the fullest shard: 3
 * n = 6 (one shard), pull p = 2: even destinations {0, 0, 2, 4}: 4, odd {1, 1, 3, 5, 5, 5}: 6
 * n = 1 (S = 6): every shard one edge (no duplicates): 1 */
static const uint32_t kHand[] = {1, 0, 4, 0, 0, 1, 2, 1, 5, 2, 4, 3, 3, 4, 0, 5, 1, 5, 2, 5};

static void test_count_edges(void) {
  gnn_graph_t g;
  make_graph(&g, 6, kHand, 10);
  gnn_shard_stats_t st;
  CHECK(gnn_graph_shard_stats(&g, 3, 2, 0, &st) == 0 && st.s == 2 && st.nonempty == 4 &&
            st.max_shard == 3 && st.count_edges == 3 && st.words == 16,
        "pull n 3 p 2: S %" PRIu32 " shards %" PRIu64 " max %" PRIu64 " count %" PRIu64
        " words %" PRIu64, st.s, st.nonempty, st.max_shard, st.count_edges, st.words);
  CHECK(gnn_graph_count_edges(&g, 3, 2, 1) == 2, "push n 3 p 2");
  CHECK(gnn_graph_count_edges(&g, 3, 3, 0) == 3, "pull n 3 p 3");
  CHECK(gnn_graph_count_edges(&g, 3, 3, 1) == 1, "push n 3 p 3");
  CHECK(gnn_graph_count_edges(&g, 3, 1, 0) == 3 && gnn_graph_count_edges(&g, 3, 1, 1) == 3,
        "p 1: fullest shard");
  CHECK(gnn_graph_count_edges(&g, 6, 2, 0) == 6, "one shard, pull p 2");
  CHECK(gnn_graph_shard_stats(&g, 1, 1, 0, &st) == 0 && st.s == 6 && st.count_edges == 1 &&
            st.nonempty == 10, "n 1");
  CHECK(gnn_graph_shard_stats(&g, 100, 4, 0, &st) == 0 && st.s == 1 && st.nonempty == 1 &&
            st.max_shard == 10, "n beyond nv");
  CHECK(gnn_graph_count_edges(&g, 0, 2, 0) == UINT64_MAX &&
            gnn_graph_count_edges(&g, 3, 0, 0) == UINT64_MAX, "n or p 0");
  /* the order of the edges does not matter */
  CHECK(gnn_graph_sort(&g, 0) == 0 && gnn_graph_count_edges(&g, 3, 2, 0) == 3 &&
            gnn_graph_count_edges(&g, 3, 2, 1) == 2, "after sorting by src");
  gnn_graph_free(&g);
  /* no edges */
  make_graph(&g, 4, NULL, 0);
  CHECK(gnn_graph_shard_stats(&g, 2, 2, 0, &st) == 0 && st.s == 2 && st.count_edges == 0 &&
            st.nonempty == 0 && st.words == 0, "no edges");
  gnn_graph_free(&g);
  /* a huge grid (S = 2^31) with edges far apart: only non-empty shards cost anything */
  static const uint32_t far[] = {0, 2147483647u, 2147483647u, 0, 5, 2147483640u};
  make_graph(&g, 2147483648u, far, 3);
  CHECK(gnn_graph_shard_stats(&g, 1, 32, 1, &st) == 0 && st.s == 2147483648u &&
            st.nonempty == 3 && st.count_edges == 1 && st.words == 96, "huge grid");
  gnn_graph_free(&g);
}

static void test_shard_lists(void) {
  char err[256] = "";
  gnn_graph_t g;
  gnn_shards_t sh;
  make_graph(&g, 6, kHand, 10);
  const uint32_t N = GNN_EDGE_NULL;
  /* pull, n = 3, p = 2 (the counts above); shards in (u, v) order: (0,0) (0,1) (1,0) (1,1) */
  CHECK(gnn_shards_build(&g, 3, 2, 0, &sh, err, sizeof err) == 0, "build: %s", err);
  CHECK(sh.n == 3 && sh.s == 2 && sh.p == 2 && sh.nshards == 4 && sh.count_edges == 3 &&
            sh.words == 16, "pull lists: shards %" PRIu64 " words %" PRIu64, sh.nshards, sh.words);
  if (sh.nshards == 4) {
    static const uint32_t uv[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    static const uint64_t ne[4] = {3, 3, 2, 2}, len[4] = {2, 3, 2, 1}, off[4] = {0, 4, 10, 14};
    static const uint64_t cnt[8] = {1, 2, 3, 0, 2, 0, 1, 1};
    int ok = 1;
    for (int i = 0; i < 4; i++)
      ok &= sh.shard[i].u == uv[i][0] && sh.shard[i].v == uv[i][1] && sh.shard[i].ne == ne[i] &&
            sh.shard[i].len == len[i] && sh.shard[i].off == off[i];
    CHECK(ok && !memcmp(sh.cnt, cnt, sizeof cnt), "shard table");
    /* (0,0): G0 [1->0 = (1, 0)], G1 [0->1 = (0, 1), 2->1 = (2, 1)]: G0 padded with a null
     * (0,1): G0 [(0,2) (1,2) (2,2)], G1 all null
     * (1,0): G0 [4->0 = (1,0), 5->2 = (2,2)], G1 nulls;  (1,1): G0 [4->3 = (1,0)], G1 [(0,1)] */
    static const uint32_t lists[16] = {0x00000001, N,          0x00010000, 0x00010002,
                                       0x00020000, 0x00020001, 0x00020002, N,
                                       N,          N,          0x00000001, 0x00020002,
                                       N,          N,          0x00000001, 0x00010000};
    /* interleaved: entry k of a shard = entry k / 2 of GPE k % 2 */
    static const uint32_t inter[16] = {0x00000001, 0x00010000, N, 0x00010002,
                                       0x00020000, N, 0x00020001, N, 0x00020002, N,
                                       0x00000001, N, 0x00020002, N,
                                       0x00000001, 0x00010000};
    CHECK(!memcmp(sh.gpe_list, lists, sizeof lists), "per-GPE lists and padding");
    CHECK(!memcmp(sh.inter, inter, sizeof inter), "interleaved list");
    CHECK(gnn_shards_find(&sh, 1, 0) == 2 && gnn_shards_find(&sh, 0, 0) == 0 &&
              gnn_shards_find(&sh, 1, 1) == 3 && gnn_shards_find(&sh, 2, 0) == -1 &&
              gnn_shards_find(&sh, 0, 5) == -1, "find");
  }
  gnn_shards_free(&sh);
  /* push, n = 3, p = 2: within a GPE by src_local.  (0,0): G0 [0->1 (0,1), 2->1 (2,1)],
   * G1 [1->0 (1,0)]; (0,1): G0 [0->5 (0,2), 2->5 (2,2)], G1 [1->5 (1,2)] */
  CHECK(gnn_shards_build(&g, 3, 2, 1, &sh, err, sizeof err) == 0 && sh.count_edges == 2 &&
            sh.nshards == 4, "push build: %s", err);
  if (sh.nshards == 4) {
    static const uint32_t l00[4] = {0x00010000, 0x00010002, 0x00000001, N};
    static const uint32_t l01[4] = {0x00020000, 0x00020002, 0x00020001, N};
    static const uint32_t i01[4] = {0x00020000, 0x00020001, 0x00020002, N};
    CHECK(!memcmp(sh.gpe_list, l00, sizeof l00) && !memcmp(sh.gpe_list + 4, l01, sizeof l01) &&
              !memcmp(sh.inter + 4, i01, sizeof i01), "push lists");
  }
  gnn_shards_free(&sh);
  gnn_graph_free(&g);
  /* ties keep the edge order of g: three edges into the same destination, given 2, 0, 1 */
  static const uint32_t tie[] = {2, 5, 0, 5, 1, 5, 4, 3, 3, 3};
  make_graph(&g, 6, tie, 5);
  CHECK(gnn_shards_build(&g, 6, 1, 0, &sh, err, sizeof err) == 0 && sh.nshards == 1 &&
            sh.words == 5, "tie build: %s", err);
  if (sh.words == 5) {
    /* pull: by dst (3 before 5), ties in edge order: 4->3 3->3 2->5 0->5 1->5 */
    static const uint32_t w[5] = {0x00030004, 0x00030003, 0x00050002, 0x00050000, 0x00050001};
    CHECK(!memcmp(sh.gpe_list, w, sizeof w) && !memcmp(sh.inter, w, sizeof w), "pull ties");
  }
  gnn_shards_free(&sh);
  CHECK(gnn_shards_build(&g, 6, 1, 1, &sh, err, sizeof err) == 0 && sh.words == 5, "push ties");
  if (sh.words == 5) {
    /* push: by src: 0->5 1->5 2->5 3->3 4->3 */
    static const uint32_t w[5] = {0x00050000, 0x00050001, 0x00050002, 0x00030003, 0x00030004};
    CHECK(!memcmp(sh.gpe_list, w, sizeof w), "push order");
  }
  gnn_shards_free(&sh);
  /* p = 4, push: GPE = src % 4: G0 {0->5, 4->3}, G1 {1->5}, G2 {2->5}, G3 {3->3}: every list
   * padded to 2, 8 words; G0 = [(0,5) (4,3)], the others one edge and a null */
  CHECK(gnn_shards_build(&g, 6, 4, 1, &sh, err, sizeof err) == 0 && sh.words == 8 &&
            sh.count_edges == 2, "p 4 push: count %" PRIu64, sh.count_edges);
  if (sh.words == 8) {
    static const uint32_t w[8] = {0x00050000, 0x00030004, 0x00050001, N,
                                  0x00050002, N,          0x00030003, N};
    static const uint32_t v[8] = {0x00050000, 0x00050001, 0x00050002, 0x00030003,
                                  0x00030004, N,          N,          N};
    CHECK(!memcmp(sh.gpe_list, w, sizeof w) && !memcmp(sh.inter, v, sizeof v), "p 4 padding");
  }
  gnn_shards_free(&sh);
  /* a graph without edges: no shard */
  gnn_graph_t e;
  make_graph(&e, 5, NULL, 0);
  CHECK(gnn_shards_build(&e, 2, 2, 0, &sh, err, sizeof err) == 0 && sh.nshards == 0 &&
            sh.words == 0 && sh.count_edges == 0 && sh.s == 3 && gnn_shards_find(&sh, 0, 0) == -1,
        "empty graph: %s", err);
  gnn_shards_free(&sh);
  gnn_graph_stats_t st;
  CHECK(gnn_graph_stats(&e, &st) == 0 && st.isolated == 5 && st.max_in == 0, "empty stats");
  gnn_graph_free(&e);
  /* refusals */
  CHECK(gnn_shards_build(&g, 0, 2, 0, &sh, err, sizeof err) == -1 &&
            !strcmp(err, "n 0 out of range 1..65535") && !sh.shard, "n 0: %s", err);
  CHECK(gnn_shards_build(&g, 65536, 2, 0, &sh, err, sizeof err) == -1 &&
            !strcmp(err, "n 65536 out of range 1..65535"), "n 65536: %s", err);
  CHECK(gnn_shards_build(&g, 4, 0, 0, &sh, err, sizeof err) == -1 &&
            !strcmp(err, "p 0 out of range 1..65535"), "p 0: %s", err);
  gnn_graph_free(&g);
  /* a generated graph: lists and COUNT_EDGES agree, every edge appears once, padding only at
   * the end of each GPE list, the interleaved list is the transpose */
  CHECK(gnn_graph_gen(&g, 2708, 10556, 5, err, sizeof err) == 0, "gen");
  for (int push = 0; push < 2; push++) {
    for (unsigned p = 1; p <= 32; p *= 4) {
      uint32_t n = 640;
      CHECK(gnn_shards_build(&g, n, p, push, &sh, err, sizeof err) == 0, "build: %s", err);
      gnn_shard_stats_t st;
      gnn_graph_shard_stats(&g, n, p, push, &st);
      uint64_t real = 0, bad = 0;
      for (uint64_t i = 0; i < sh.nshards; i++) {
        const gnn_shard_t *s = &sh.shard[i];
        for (unsigned q = 0; q < p; q++) {
          for (uint64_t j = 0; j < s->len; j++) {
            uint32_t w = sh.gpe_list[s->off + q * s->len + j];
            bad += w != sh.inter[s->off + j * p + q];
            if (j < sh.cnt[i * p + q]) {
              real++;
              uint32_t sl = w & 0xFFFF, dl = w >> 16;
              bad += (push ? sl : dl) % p != q || sl >= n || dl >= n;
              if (j) {
                uint32_t pw = sh.gpe_list[s->off + q * s->len + j - 1];
                bad += push ? (pw & 0xFFFF) > sl : (pw >> 16) > dl;
              }
            } else {
              bad += w != GNN_EDGE_NULL;
            }
          }
        }
      }
      CHECK(real == g.ne && !bad && sh.count_edges == st.count_edges && sh.words == st.words &&
                sh.nshards == st.nonempty, "generated push %d p %u: real %" PRIu64 " bad %" PRIu64,
            push, p, real, bad);
      gnn_shards_free(&sh);
    }
  }
  gnn_graph_free(&g);
}

/* ------------------------------------------------------------------ Algorithm 3 */

static gnn_alg3_params_t alg3_params(unsigned p, uint64_t mem, uint64_t emax) {
  gnn_alg3_params_t a;
  memset(&a, 0, sizeof a);
  a.p = p, a.block_d = 4, a.if_feat = 1, a.of_feat = 1, a.elem_bytes = 4;
  a.imem_bytes = a.omem_bytes = mem, a.emax = emax;
  return a;
}

static void test_alg3(void) {
  char err[256] = "";
  gnn_graph_t g;
  gnn_alg3_result_t r;
  make_graph(&g, 6, kHand, 10);
  /* A node takes blockD 4 x 4 bytes = 16 bytes per feature.  mem 1024: usable 512, 256 per GPE
   * (p = 2): 16 nodes per GPE, n_cap 32.  Step 1: N = min(32, 6) = 6, COUNT_EDGES(6) = 6 (pull,
   * p = 2: see the sharding comment).
   * Outcome 1: emax 12 -> usable 6: 6 <= 6 fits (the paper's "<" would go on): N = 6. */
  gnn_alg3_params_t a = alg3_params(2, 1024, 12);
  uint32_t n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
  CHECK(n == 6 && r.step == 1 && r.n_cap == 32 && r.emax_usable == 6 && r.n1 == 6 &&
            r.e1 == 6 && r.n2 == 0 && r.e_shard == 6, "step 1: n %" PRIu32 " step %d (%s)", n,
        r.step, n ? "" : err);
  /* Outcome 2: emax 8 -> usable 4 < 6.  c = 6 / 36, N = sqrt(4 / c) = 6 sqrt(4 / 6) = 4.90,
   * down to a multiple of 2: 4.  n = 4 (S = 2), U = src / 4, V = dst / 4, GPE = dst % 4 % 2:
   *   (0,0): 1->0 G0, 0->1 G1, 2->1 G1: 2   (1,0): 4->0 G0, 5->2 G0, 4->3 G1: 2
   *   (0,1): 3->4 G0, 0->5 1->5 2->5 G1: 3   -> COUNT_EDGES 3 <= 4: N = 4 */
  a = alg3_params(2, 1024, 8);
  n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
  CHECK(n == 4 && r.step == 2 && r.e1 == 6 && r.n2 == 4 && r.e2 == 3 && r.e_shard == 3,
        "step 2: n %" PRIu32 " step %d n2 %" PRIu32 " e2 %" PRIu64, n, r.step, r.n2, r.e2);
  /* emax 9 -> usable 4 as well (the odd entry is lost to the halving) */
  a = alg3_params(2, 1024, 9);
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 4 && r.step == 2,
        "emax 9 halves to 4");
  /* the feature capacity caps step 1: mem 200: usable 100, 50 per GPE: 3 nodes per GPE,
   * n_cap 6; mem 150: 37 per GPE: 2 nodes, n_cap 4: N = 4, COUNT_EDGES(4) = 3 <= 6 */
  a = alg3_params(2, 150, 12);
  n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
  CHECK(n == 4 && r.step == 1 && r.n_cap == 4 && r.e1 == 3, "capacity caps N: %" PRIu32, n);
  /* nv is rounded UP to a multiple of p: p = 4, nv 6 -> N = 8, one shard; COUNT_EDGES(8) with
   * GPE = dst % 4: dst 1 has {0, 2}, dst 5 has {0, 1, 2} on G1: 5 */
  a = alg3_params(4, 1 << 20, 10);
  n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
  CHECK(n == 8 && r.step == 1 && r.e1 == 5, "nv rounded up: %" PRIu32 " e1 %" PRIu64, n, r.e1);
  /* two feature kinds resident: if_feat 3 takes 48 bytes a node: mem 1024 -> 256 per GPE: 5 per
   * GPE, n_cap 10; of_feat 2 -> 8 per GPE: n_cap = min(10, 16) = 10 */
  a = alg3_params(2, 1024, 100);
  a.if_feat = 3, a.of_feat = 2;
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 6 && r.n_cap == 10,
        "if_feat / of_feat: n_cap %" PRIu64, r.n_cap);
  /* elem_bytes 0 means 4 */
  a = alg3_params(2, 1024, 12);
  a.elem_bytes = 0;
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 6 && r.n_cap == 32,
        "elem_bytes 0 = 4");
  gnn_graph_free(&g);

  /* Outcome 3: the complete directed graph K4 (12 edges, no self loops), p = 1.
   * Step 1: N = 4, one shard, COUNT_EDGES = 12.  emax 6 -> usable 3 < 12.
   * Step 2: N = 4 sqrt(3 / 12) = 2 exactly; n = 2: shard (0,1) holds {0,1} x {2,3} = 4 edges
   * > 3.  Step 3: N = 1 x floor(sqrt(3 / 1)) = 1; COUNT_EDGES(1) = 1. */
  uint32_t k4[24], m = 0;
  for (uint32_t s = 0; s < 4; s++)
    for (uint32_t d = 0; d < 4; d++)
      if (s != d) k4[2 * m] = s, k4[2 * m + 1] = d, m++;
  make_graph(&g, 4, k4, 12);
  a = alg3_params(1, 1 << 20, 6);
  n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
  CHECK(n == 1 && r.step == 3 && r.n1 == 4 && r.e1 == 12 && r.n2 == 2 && r.e2 == 4 &&
            r.e_shard == 1, "step 3: n %" PRIu32 " step %d n2 %" PRIu32 " e2 %" PRIu64, n, r.step,
        r.n2, r.e2);
  /* the same with emax 8 (usable 4): step 2's n = 2 holds 4 <= 4 */
  a = alg3_params(1, 1 << 20, 8);
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 2 && r.step == 2,
        "K4 emax 8: step 2");
  /* Refusal: p = 2, emax 3 (usable 1).  Step 1: N = 4, GPE = dst % 2: 6 edges each.  Step 2:
   * 4 sqrt(1 / 6) = 1.63 -> at least p: 2; COUNT_EDGES(2) = 2 ({0,1} -> 2 on G0) > 1.  Step 3:
   * floor(sqrt(1 / 2)) = 0: not even 2 fully connected nodes fit */
  a = alg3_params(2, 1 << 20, 3);
  n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
  CHECK(n == 0 && r.step == 0 &&
            !strcmp(err, "the edge SRAM's usable half (1 of 3 entries) holds fewer than p = 2 "
                         "edges: even the worst case of p nodes does not fit (COUNT_EDGES 2 at "
                         "N = 2)"), "worst case does not fit: %s", err);
  a = alg3_params(1, 1 << 20, 1);
  CHECK(gnn_graph_nodes_per_shard(&g, &a, NULL, err, sizeof err) == 0 &&
            strstr(err, "usable half (0 of 1 entries)"), "emax 1: %s", err);
  /* ... but a graph without edges fits any edge SRAM at step 1 */
  gnn_graph_t e;
  make_graph(&e, 4, NULL, 0);
  a = alg3_params(2, 1 << 20, 0);
  CHECK(gnn_graph_nodes_per_shard(&e, &a, &r, err, sizeof err) == 4 && r.step == 1,
        "no edges, emax 0");
  gnn_graph_free(&e);
  /* feature SRAM refusals */
  a = alg3_params(2, 63, 100); /* usable 31, 15 per GPE < 16 bytes */
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 0 &&
            !strcmp(err, "the input-feature SRAM (half of 63 bytes) holds fewer than p = 2 nodes "
                         "of 4 x 1 words of 4 bytes"), "imem too small: %s", err);
  a = alg3_params(2, 1024, 100);
  a.omem_bytes = 40;
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 0 &&
            strstr(err, "modified-feature SRAM (half of 40 bytes)"), "omem too small: %s", err);
  a = alg3_params(0, 1024, 100);
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 0 &&
            !strcmp(err, "p 0 out of range 1..65535"), "p 0: %s", err);
  a = alg3_params(2, 1024, 100);
  a.block_d = 0;
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 0 &&
            strstr(err, "at least 1"), "block_d 0: %s", err);
  a = alg3_params(2, UINT64_MAX, 100);
  a.block_d = 0xFFFFFFFFu, a.if_feat = 0xFFFFFFFFu, a.elem_bytes = 0xFFFFFFFFu;
  CHECK(gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err) == 0 && strstr(err, "input-feature"),
        "node size overflow: %s", err);
  gnn_graph_free(&g);

  /* the paper's configuration on the presets: Cora fits one shard (2720 = 85 x 32 nodes),
   * Pubmed's 19717 nodes do not fit 16384 (4 MiB usable / 256 bytes): S = 2; both step 1 */
  const char *names[2] = {"cora", "pubmed"};
  const uint32_t want[2] = {2720, 16384};
  for (int i = 0; i < 2; i++) {
    uint32_t nv;
    uint64_t ne;
    gnn_graph_preset(names[i], &nv, &ne, NULL);
    gnn_graph_gen(&g, nv, ne, 1, err, sizeof err);
    a = alg3_params(32, 8u << 20, 65536);
    a.block_d = 64;
    n = gnn_graph_nodes_per_shard(&g, &a, &r, err, sizeof err);
    CHECK(n == want[i] && r.step == 1 && r.e_shard <= 32768, "%s paper: %" PRIu32, names[i], n);
    gnn_graph_free(&g);
  }
}

/* ------------------------------------------------------------------ Table 6.1 */

/* Walks the S x S grid in the S-pattern and counts node-block feature transfers: a resident
 * source block (I features) and a resident destination block (one partial output feature).
 * Source-stationary: rows U (source block fixed), columns back and forth; a destination block
 * is read when it was visited before (it holds a partial sum) and written back when left and
 * at the end.  Destination-stationary: columns V, rows back and forth; sources are read when
 * they change; each destination block is written once when done. */
static void walk(uint64_t S, uint64_t I, int src_stationary, uint64_t *reads, uint64_t *writes) {
  *reads = *writes = 0;
  int64_t cur_src = -1, cur_dst = -1;
  unsigned char *visited = calloc((size_t)S, 1);
  if (!visited) exit(1);
  for (uint64_t outer = 0; outer < S; outer++) {
    for (uint64_t t = 0; t < S; t++) {
      uint64_t inner = outer % 2 ? S - 1 - t : t;
      uint64_t u = src_stationary ? outer : inner, v = src_stationary ? inner : outer;
      if ((int64_t)u != cur_src) *reads += I, cur_src = (int64_t)u;
      if ((int64_t)v != cur_dst) {
        if (cur_dst >= 0) *writes += 1;
        if (visited[v]) *reads += 1;
        visited[v] = 1, cur_dst = (int64_t)v;
      }
    }
  }
  if (cur_dst >= 0) *writes += 1;
  free(visited);
}

static void test_table61(void) {
  uint64_t r, w, r2, w2;
  /* S = 1: both orders read the I input blocks once and write the one output block */
  gnn_cost_src_stationary(1, 3, &r, &w);
  gnn_cost_dst_stationary(1, 3, &r2, &w2);
  CHECK(r == 3 && w == 1 && r2 == 3 && w2 == 1, "S 1: %" PRIu64 "/%" PRIu64 " %" PRIu64 "/%" PRIu64,
        r, w, r2, w2);
  /* S = 3, I = 2 by hand: SRC reads 3*2 + 2*3 - 3 + 1 = 10, writes 9 - 3 + 1 = 7;
   * DST reads (9 - 3 + 1) * 2 = 14, writes 3: totals 17 and 17 (equal at I = 2) */
  gnn_cost_src_stationary(3, 2, &r, &w);
  gnn_cost_dst_stationary(3, 2, &r2, &w2);
  CHECK(r == 10 && w == 7 && r2 == 14 && w2 == 3, "S 3 I 2");
  gnn_cost_src_stationary(0, 5, &r, &w);
  gnn_cost_dst_stationary(0, 5, &r2, NULL);
  CHECK(r == 0 && w == 0 && r2 == 0, "S 0");
  int mism = 0, concl = 0;
  for (uint64_t S = 1; S <= 8; S++) {
    for (uint64_t I = 1; I <= 4; I++) {
      uint64_t wr, ww;
      gnn_cost_src_stationary(S, I, &r, &w);
      walk(S, I, 1, &wr, &ww);
      if (r != wr || w != ww) {
        mism++;
        printf("SRC S %" PRIu64 " I %" PRIu64 ": formula %" PRIu64 "/%" PRIu64 " walk %" PRIu64
               "/%" PRIu64 "\n", S, I, r, w, wr, ww);
      }
      gnn_cost_dst_stationary(S, I, &r2, &w2);
      walk(S, I, 0, &wr, &ww);
      if (r2 != wr || w2 != ww) {
        mism++;
        printf("DST S %" PRIu64 " I %" PRIu64 ": formula %" PRIu64 "/%" PRIu64 " walk %" PRIu64
               "/%" PRIu64 "\n", S, I, r2, w2, wr, ww);
      }
      /* DST - SRC = (S - 1)^2 (I - 2): DST better at I = 1, equal at 2, SRC better above */
      int64_t d = (int64_t)(r2 + w2) - (int64_t)(r + w);
      concl += d != (int64_t)((S - 1) * (S - 1)) * ((int64_t)I - 2);
    }
  }
  CHECK(!mism, "Table 6.1 = the S-pattern walk (%d mismatches)", mism);
  CHECK(!concl, "Table 6.1 conclusion");
}

int main(void) {
  verbose = getenv("VERBOSE") && !strcmp(getenv("VERBOSE"), "1");
  const char *b = getenv("BUILD") ? getenv("BUILD") : "build";
  snprintf(tmpdir, sizeof tmpdir, "%s/gnnerator_graph", b);
  mkdir(b, 0777);
  mkdir(tmpdir, 0777);
  test_generator();
  test_read_good();
  test_read_bad();
  test_round_trip();
  test_helpers();
  test_count_edges();
  test_shard_lists();
  test_alg3();
  test_table61();
  for (int i = 0; i < nwritten; i++) remove(written[i]);
  return CHECK_SUMMARY();
}
