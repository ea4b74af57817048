/* gnn_graph -- graphs for the GNNerator Graph Engine compiler (library: sw/gnnerator/gnn_graph.h):
 * generates or reads a graph, prints its statistics, writes it as an edge list or CSR, and
 * reports the shard grid, COUNT_EDGES and Algorithm 3's nodes per shard.
 *
 * usage: gnn_graph gen (--preset cora|citeseer|pubmed | --nv N --ne E) [--seed S] [OUT]
 *        gnn_graph read (--edges FILE | --csr FILE | --planetoid PREFIX [--drop-missing]) [OUT]
 *        gnn_graph shard GRAPH --p P --n N [--push]
 *        gnn_graph alg3 GRAPH (--paper | --p P --block-d D --imem BYTES --omem BYTES --emax E)
 *                  [--if-feat I] [--of-feat O] [--elem-bytes B] [--push]
 *   GRAPH: the options of gen or of read (one graph);  OUT: [-o FILE] [--csr-out FILE]
 *   (edge list with its "# nv" header / CSR, formats in gnn_graph.h; "-" is stdout)
 *   --self-loops (any command): add v -> v to every vertex without one (GCN, GraphSage) first.
 * --nv 1..2^31, --ne 0..2^31 (even), --seed 0..2^62 (default 1), --p 1..65535, --n 1..2^31.
 * alg3: capacities are totals over the P GPEs (--imem input-feature, --omem modified-feature
 * SRAM bytes), --emax the entries of one GPE's edge SRAM; half of each is usable (double
 * buffering); --if-feat / --of-feat default 1, --elem-bytes 4.  --paper: the paper's Graph
 * Engine (P = 32, blockD = 64, 24 MiB split equally between edge, input-feature and
 * modified-feature SRAM: imem = omem = 8 MiB, emax = 8 MiB / 4-byte edge words / 32 GPEs =
 * 65536); options given with --paper override its values.
 * Output (stdout, one line each):
 *   gen, read: gnn_graph: nv=N ne=E self_loops=L dups=D max_in=I max_out=O isolated=Z
 *              and for --planetoid:  gnn_graph: feat=F classes=C dropped=R
 *   shard:     gnn_graph: n=N p=P push=0|1 S=S count_edges=C shards=K max_shard=M words=W
 *   alg3:      gnn_graph: n_shard=N step=1|2|3 S=S count_edges=C n_cap=A emax_usable=B n1=.. e1=..
 *              n2=.. e2=..
 * Bad arguments or files: one line "gnn_graph: <reason>" on stderr, exit status 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "gnnerator/gnn_graph.h"

static const char *const kProg = "gnn_graph";

static void usage(void) {
  cutil_fail(kProg, "usage: gnn_graph gen|read|shard|alg3 [options] (see the comment at the top "
                   "of sw/gnnerator/gnn_graph.c)");
}

int main(int argc, char **argv) {
  if (argc < 2) usage();
  const char *cmd = argv[1];
  const int is_gen = !strcmp(cmd, "gen"), is_read = !strcmp(cmd, "read");
  const int is_shard = !strcmp(cmd, "shard"), is_alg3 = !strcmp(cmd, "alg3");
  if (!is_gen && !is_read && !is_shard && !is_alg3)
    cutil_fail(kProg, "unknown command '%s' (gen, read, shard or alg3)", cmd);

  const char *preset = NULL, *edges = NULL, *csr = NULL, *planetoid = NULL;
  const char *out = NULL, *csr_out = NULL;
  long nv = -1, ne = -1, seed = -1, p = -1, n = -1, block_d = -1, if_feat = -1, of_feat = -1;
  long elem_bytes = -1, imem = -1, omem = -1, emax = -1;
  int drop = 0, push = 0, self_loops = 0, paper = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = 1;
    if (!strcmp(a, "--preset") || !strcmp(a, "--edges") || !strcmp(a, "--csr") ||
        !strcmp(a, "--planetoid") || !strcmp(a, "-o") || !strcmp(a, "--csr-out")) {
      if (!v) cutil_fail(kProg, "%s needs a value", a);
      if (!strcmp(a, "--preset")) preset = v;
      else if (!strcmp(a, "--edges")) edges = v;
      else if (!strcmp(a, "--csr")) csr = v;
      else if (!strcmp(a, "--planetoid")) planetoid = v;
      else if (!strcmp(a, "-o")) out = v;
      else csr_out = v;
    } else if (!strcmp(a, "--nv")) {
      nv = cutil_opt_long(kProg, a, v, 1, 1L << 31);
    } else if (!strcmp(a, "--ne")) {
      ne = cutil_opt_long(kProg, a, v, 0, 1L << 31);
    } else if (!strcmp(a, "--seed")) {
      seed = cutil_opt_long(kProg, a, v, 0, 1L << 62);
    } else if (!strcmp(a, "--p")) {
      p = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--n")) {
      n = cutil_opt_long(kProg, a, v, 1, 1L << 31);
    } else if (!strcmp(a, "--block-d")) {
      block_d = cutil_opt_long(kProg, a, v, 1, 1L << 20);
    } else if (!strcmp(a, "--if-feat")) {
      if_feat = cutil_opt_long(kProg, a, v, 1, 1024);
    } else if (!strcmp(a, "--of-feat")) {
      of_feat = cutil_opt_long(kProg, a, v, 1, 1024);
    } else if (!strcmp(a, "--elem-bytes")) {
      elem_bytes = cutil_opt_long(kProg, a, v, 1, 64);
    } else if (!strcmp(a, "--imem")) {
      imem = cutil_opt_long(kProg, a, v, 0, 1L << 50);
    } else if (!strcmp(a, "--omem")) {
      omem = cutil_opt_long(kProg, a, v, 0, 1L << 50);
    } else if (!strcmp(a, "--emax")) {
      emax = cutil_opt_long(kProg, a, v, 0, 1L << 50);
    } else if (!strcmp(a, "--drop-missing")) {
      drop = 1, takes = 0;
    } else if (!strcmp(a, "--push")) {
      push = 1, takes = 0;
    } else if (!strcmp(a, "--self-loops")) {
      self_loops = 1, takes = 0;
    } else if (!strcmp(a, "--paper")) {
      paper = 1, takes = 0;
    } else {
      cutil_fail(kProg, "unknown argument '%s'", a);
    }
    i += takes;
  }

  /* the graph */
  const int n_gen = !!preset + (nv >= 0 || ne >= 0), n_file = !!edges + !!csr + !!planetoid;
  if (n_gen + n_file != 1)
    cutil_fail(kProg, "give one graph: --preset, --nv with --ne, --edges, --csr or --planetoid");
  if (is_gen && !n_gen) cutil_fail(kProg, "gen takes --preset or --nv with --ne");
  if (is_read && !n_file) cutil_fail(kProg, "read takes --edges, --csr or --planetoid");
  if (n_gen && (nv < 0 || ne < 0) && !preset) cutil_fail(kProg, "give --nv and --ne together");
  if (drop && !planetoid) cutil_fail(kProg, "--drop-missing applies to --planetoid only");
  if (seed >= 0 && !n_gen) cutil_fail(kProg, "--seed applies to generated graphs only");
  if ((out || csr_out) && !is_gen && !is_read)
    cutil_fail(kProg, "-o and --csr-out apply to gen and read only");
  if (!is_shard && !is_alg3 && (p >= 0 || push))
    cutil_fail(kProg, "--p and --push apply to shard and alg3 only");
  if (!is_shard && n >= 0) cutil_fail(kProg, "--n applies to shard only");
  if (!is_alg3 && (paper || block_d >= 0 || if_feat >= 0 || of_feat >= 0 || elem_bytes >= 0 ||
                   imem >= 0 || omem >= 0 || emax >= 0))
    cutil_fail(kProg, "--paper, --block-d, --if-feat, --of-feat, --elem-bytes, --imem, --omem "
                     "and --emax apply to alg3 only");
  if (is_shard && (p < 0 || n < 0)) cutil_fail(kProg, "shard needs --p and --n");
  if (is_alg3 && !paper && (p < 0 || block_d < 0 || imem < 0 || omem < 0 || emax < 0))
    cutil_fail(kProg, "alg3 needs --paper or all of --p, --block-d, --imem, --omem and --emax");

  gnn_graph_t g;
  char err[512];
  int rc;
  if (preset) {
    uint32_t pnv;
    uint64_t pne;
    if (gnn_graph_preset(preset, &pnv, &pne, NULL) != 0)
      cutil_fail(kProg, "--preset: '%s' is not cora, citeseer or pubmed", preset);
    rc = gnn_graph_gen(&g, pnv, pne, seed < 0 ? 1u : (uint64_t)seed, err, sizeof err);
  } else if (n_gen) {
    rc = gnn_graph_gen(&g, (uint32_t)nv, (uint64_t)ne, seed < 0 ? 1u : (uint64_t)seed, err,
                       sizeof err);
  } else if (edges) {
    rc = gnn_graph_read_edges(&g, edges, err, sizeof err);
  } else if (csr) {
    rc = gnn_graph_read_csr(&g, csr, err, sizeof err);
  } else {
    rc = gnn_graph_read_planetoid(&g, planetoid, drop, err, sizeof err);
  }
  if (rc != 0) cutil_fail(kProg, "%s", err);
  if (self_loops && gnn_graph_add_self_loops(&g) < 0) cutil_die(kProg, "out of memory");

  if (is_gen || is_read) {
    if (out) {
      FILE *f = cutil_open_out(kProg, out);
      cutil_close_out(kProg, f, out, gnn_graph_write_edges(&g, f));
    }
    if (csr_out) {
      FILE *f = cutil_open_out(kProg, csr_out);
      cutil_close_out(kProg, f, csr_out, gnn_graph_write_csr(&g, f));
    }
    gnn_graph_stats_t st;
    if (gnn_graph_stats(&g, &st) != 0) cutil_die(kProg, "out of memory");
    printf("gnn_graph: nv=%" PRIu32 " ne=%" PRIu64 " self_loops=%" PRIu64 " dups=%" PRIu64
           " max_in=%" PRIu64 " max_out=%" PRIu64 " isolated=%" PRIu64 "\n",
           g.nv, g.ne, g.self_loops, g.dups, st.max_in, st.max_out, st.isolated);
    if (planetoid)
      printf("gnn_graph: feat=%" PRIu32 " classes=%" PRIu32 " dropped=%" PRIu64 "\n", g.feat,
             g.nclass, g.dropped);
  } else if (is_shard) {
    gnn_shard_stats_t st;
    if (gnn_graph_shard_stats(&g, (uint32_t)n, (unsigned)p, push, &st) != 0)
      cutil_die(kProg, "out of memory");
    printf("gnn_graph: n=%ld p=%ld push=%d S=%" PRIu32 " count_edges=%" PRIu64 " shards=%" PRIu64
           " max_shard=%" PRIu64 " words=%" PRIu64 "\n",
           n, p, push, st.s, st.count_edges, st.nonempty, st.max_shard, st.words);
  } else {
    gnn_alg3_params_t prm;
    memset(&prm, 0, sizeof prm);
    if (paper) {
      prm.p = 32, prm.block_d = 64, prm.imem_bytes = prm.omem_bytes = 8u << 20;
      prm.emax = (8u << 20) / 4 / 32;
    }
    if (p >= 0) prm.p = (unsigned)p;
    if (block_d >= 0) prm.block_d = (unsigned)block_d;
    if (imem >= 0) prm.imem_bytes = (uint64_t)imem;
    if (omem >= 0) prm.omem_bytes = (uint64_t)omem;
    if (emax >= 0) prm.emax = (uint64_t)emax;
    prm.if_feat = if_feat >= 0 ? (unsigned)if_feat : 1u;
    prm.of_feat = of_feat >= 0 ? (unsigned)of_feat : 1u;
    prm.elem_bytes = elem_bytes >= 0 ? (unsigned)elem_bytes : 4u;
    prm.push = push;
    gnn_alg3_result_t res;
    uint32_t ns = gnn_graph_nodes_per_shard(&g, &prm, &res, err, sizeof err);
    if (!ns) cutil_fail(kProg, "%s", err);
    printf("gnn_graph: n_shard=%" PRIu32 " step=%d S=%" PRIu32 " count_edges=%" PRIu64
           " n_cap=%" PRIu64 " emax_usable=%" PRIu64 " n1=%" PRIu32 " e1=%" PRIu64
           " n2=%" PRIu32 " e2=%" PRIu64 "\n",
           ns, res.step, gnn_graph_grid_side(g.nv, ns), res.e_shard, res.n_cap, res.emax_usable,
           res.n1, res.e1, res.n2, res.e2);
  }
  gnn_graph_free(&g);
  if (fflush(stdout) != 0) cutil_die(kProg, "write error on stdout");
  return 0;
}
