/* rd_gnn_planetoid.c -- fuzz target of the Planetoid reader gnn_graph_read_planetoid
 * (sw/gnnerator/libgnn_graph.c): the input up to its first NUL byte is in.content, the rest
 * in.cites; both readings (drop_missing 0 and 1) run.  Oracles: an error is one line; a graph
 * read has its vertices, features and labels in range and survives an edge-list round trip. */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "gnnerator/gnn_graph.h"

int fz_one(const uint8_t *d, size_t n) {
  const uint8_t *z = memchr(d, 0, n);
  size_t nc = z ? (size_t)(z - d) : n;
  if (!fz_write_file("in.content", d, nc)) return -1;
  if (!fz_write_file("in.cites", z ? z + 1 : d, z ? n - nc - 1 : 0)) return -1;
  char prefix[4352], pa[4352], err[600];
  fz_path("in", prefix, sizeof prefix);
  for (int drop = 0; drop < 2; drop++) {
    gnn_graph_t g, h;
    err[0] = '\0';
    int rc = gnn_graph_read_planetoid(&g, prefix, drop, err, sizeof err);
    if (rc != 0) {
      FZ_CHECK(rc == -1 && err[0] && !strchr(err, '\n'), "refused without a one-line reason");
      fz_log("drop %d: refused: %s\n", drop, err);
      continue;
    }
    for (uint64_t k = 0; k < g.ne; k++)
      FZ_CHECK(g.src[k] < g.nv && g.dst[k] < g.nv, "edge out of range");
    for (uint32_t v = 0; v < g.nv; v++)
      FZ_CHECK(g.label && g.label[v] < g.nclass, "label of vertex %u out of range", v);
    FZ_CHECK(g.feat == 0 || g.x != NULL, "features lost");
    FILE *f = fopen(fz_path("a", pa, sizeof pa), "w");
    FZ_CHECK(f && gnn_graph_write_edges(&g, f) == 0 && fclose(f) == 0, "write failed");
    FZ_CHECK(gnn_graph_read_edges(&h, pa, err, sizeof err) == 0 && h.nv == g.nv && h.ne == g.ne,
             "the edge list of a Planetoid graph does not read back: %s", err);
    fz_log("drop %d: nv %u ne %llu feat %u classes %u\n", drop, g.nv, (unsigned long long)g.ne,
           g.feat, g.nclass);
    gnn_graph_free(&h);
    gnn_graph_free(&g);
  }
  return 0;
}
