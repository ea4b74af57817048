/* rd_gnn_graph.c -- fuzz target of the GNNerator graph readers (sw/gnnerator/libgnn_graph.c):
 * the input is read both as an edge list (gnn_graph_read_edges) and as CSR
 * (gnn_graph_read_csr).  Oracles: an error is one line naming the file; a graph read is written
 * back in the same format (gnn_graph_write_edges / _csr), the copy reads back to the same graph,
 * and writing that gives the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "gnnerator/gnn_graph.h"

static int same_graph(const gnn_graph_t *a, const gnn_graph_t *b) {
  return a->nv == b->nv && a->ne == b->ne &&
         (a->ne == 0 || (!memcmp(a->src, b->src, a->ne * 4) && !memcmp(a->dst, b->dst, a->ne * 4)));
}

static void one(const char *path, int csr) {
  gnn_graph_t g, h;
  char err[600] = "", pa[4352], pb[4352];
  int rc = csr ? gnn_graph_read_csr(&g, path, err, sizeof err)
               : gnn_graph_read_edges(&g, path, err, sizeof err);
  if (rc != 0) {
    FZ_CHECK(rc == -1 && err[0] && !strchr(err, '\n') && strstr(err, path),
             "refused without a one-line reason naming the file: '%s'", err);
    fz_log("%s: refused: %s\n", csr ? "csr" : "edges", err);
    return;
  }
  FZ_CHECK(g.nv > 0 || g.ne == 0, "edges without vertices");
  for (uint64_t k = 0; k < g.ne; k++)
    FZ_CHECK(g.src[k] < g.nv && g.dst[k] < g.nv, "edge %llu out of range", (unsigned long long)k);
  FILE *f = fopen(fz_path("a", pa, sizeof pa), "w");
  FZ_CHECK(f && (csr ? gnn_graph_write_csr(&g, f) : gnn_graph_write_edges(&g, f)) == 0 &&
               fclose(f) == 0,
           "write failed");
  rc = csr ? gnn_graph_read_csr(&h, pa, err, sizeof err)
           : gnn_graph_read_edges(&h, pa, err, sizeof err);
  FZ_CHECK(rc == 0, "the written graph does not read back: %s", err);
  FZ_CHECK(same_graph(&g, &h), "the graph read back differs: nv %u ne %llu, was nv %u ne %llu",
           h.nv, (unsigned long long)h.ne, g.nv, (unsigned long long)g.ne);
  f = fopen(fz_path("b", pb, sizeof pb), "w");
  FZ_CHECK(f && (csr ? gnn_graph_write_csr(&h, f) : gnn_graph_write_edges(&h, f)) == 0 &&
               fclose(f) == 0,
           "write failed");
  FZ_CHECK(fz_same_files("a", "b"), "write(read(write(g))) differs from write(g)");
  fz_log("%s: nv %u ne %llu\n", csr ? "csr" : "edges", g.nv, (unsigned long long)g.ne);
  gnn_graph_free(&h);
  gnn_graph_free(&g);
}

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  char p[4352];
  snprintf(p, sizeof p, "%s", path);
  one(p, 0);
  one(p, 1);
  return 0;
}
