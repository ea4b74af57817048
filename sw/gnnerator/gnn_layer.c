/* gnn_layer -- compiles one GNN layer for GNNerator (both engines; sw/gnnerator/gnn_gcomp.h)
 * into a workload file (sw/gnnerator/gnn_dense.h format, with a gcfg line) for the harness
 * (tb/gnnerator), and optionally runs it on the golden model against the double-precision
 * reference of the layer.
 *
 * usage: gnn_layer --net gcn|sage|pool GRAPH [--f F] [--h H] [--act none|relu] [--push]
 *          [--order dst|src] [--block-d B] [--full] [--shard-n N] [--dense-first auto|0|1]
 *          [CFG] [--addr-w A] [--seed S] [--run | --cycles [--lat L]] [--summary] [-o FILE|-]
 *   GRAPH: --preset cora|citeseer|pubmed (the paper's counts, a power-law graph; F defaults to
 *          the preset's features) | --nv N --ne E (a generated graph) | --edges FILE |
 *          --csr FILE | --planetoid PREFIX [--drop-missing] (gnn_graph.h formats); F defaults
 *          to 16 (the Planetoid features when read), H to 16.
 *   CFG:   --rows R --cols C --depth D (Dense Engine, default 4 x 4, 32 lines) and --gpes P
 *          --lanes L --edge-depth E --if-depth I --mf-depth M --sfus S (Graph Engine, default
 *          4 x 4, 256 / 64 / 64, one SFU unit), or --paper (64 x 64 and 32 x 32 with 8 SFU
 *          units, 32-bit addresses; --sfus overrides the SFU count).
 * The features X (random in [-1, 1), or the Planetoid 0/1 features) and the weights (random in
 * [-1, 1)) are a function of --seed.  --run executes the program on the golden model and
 * checks Z against gnn_layer_ref (exit 1 on a mismatch), printing the GRUN schedule's cycles
 * and stalls.  --full sizes the shards for the whole feature (GNNerator-full: no dimension
 * blocking) while moving it in --block-d slices.  --cycles (no data: the Dense Engine's
 * arithmetic is skipped) times the layer's stages: the Graph Engine's GRUN/GFILL cycles (exact,
 * GRUN TIMING) and its memory requests (one a cycle at most), the Dense Engine's program alone
 * on gnn_cycles (exact, memory latency --lat, default 100):
 *   gnn_layer: cycles gex=.. gmem=.. graph=max(gex, gmem) dense=.. bound=max(graph, dense)
 *   serial=graph+dense stalls=.. lock_stalls=.. items=.. sfu_stalls=.. total=..
 * where total is the whole program on both engines (gnn_prog_cycles: exact, the RTL's count
 * without back-pressure, read latency --lat included; bound assumes perfect overlap and no
 * latency, serial no overlap).
 * --summary prints one line:
 *   net=.. nv=.. edges=.. f=.. h=.. n_shard=.. S=.. shards=.. blocks=.. block_d=.. insns=..
 *   gruns=.. feat_rd_blocks=.. feat_wr_blocks=.. rd_words=.. wr_words=..
 * Bad arguments or files: one line "gnn_layer: <reason>" on stderr, exit status 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "gnnerator/gnn_gcomp.h"

static const char *const kProg = "gnn_layer";

static int bits_for(uint64_t words) {
  int b = 0;
  while (b < 64 && (1ull << b) < words) b++;
  return b;
}

static uint32_t *xmalloc(uint64_t words) {
  uint32_t *p = malloc((size_t)(words ? words : 1) * sizeof(uint32_t));
  if (!p) cutil_die(kProg, "out of memory");
  return p;
}

int main(int argc, char **argv) {
  const char *net_s = NULL, *preset = NULL, *edges = NULL, *csr = NULL, *planetoid = NULL;
  const char *act_s = "relu", *order = "dst", *df_s = "auto", *out = NULL;
  long nv = 0, ne = -1, f = 0, h = 16, block_d = 0, shard_n = 0, seed = 1, addr_w = 0;
  long rows = 4, cols = 4, depth = 32, gpes = 4, lanes = 4, edepth = 256, fdepth = 64, mdepth = 64;
  long sfus = 0; /* 0: the configuration's default */
  int push = 0, run = 0, summary = 0, paper = 0, drop_missing = 0, full = 0, cycles = 0;
  long lat = 100;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = 1;
    if (!strcmp(a, "--net") || !strcmp(a, "--preset") || !strcmp(a, "--edges") ||
        !strcmp(a, "--csr") || !strcmp(a, "--planetoid") || !strcmp(a, "--act") ||
        !strcmp(a, "--order") || !strcmp(a, "--dense-first") || !strcmp(a, "-o")) {
      if (!v) cutil_fail(kProg, "%s needs a value", a);
      const char **dst = !strcmp(a, "--net") ? &net_s : !strcmp(a, "--preset") ? &preset
                         : !strcmp(a, "--edges") ? &edges : !strcmp(a, "--csr") ? &csr
                         : !strcmp(a, "--planetoid") ? &planetoid : !strcmp(a, "--act") ? &act_s
                         : !strcmp(a, "--order") ? &order : !strcmp(a, "--dense-first") ? &df_s
                         : &out;
      *dst = v;
    } else if (!strcmp(a, "--nv")) {
      nv = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--ne")) {
      ne = cutil_opt_long(kProg, a, v, 0, 1L << 31);
    } else if (!strcmp(a, "--f")) {
      f = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--h")) {
      h = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--block-d")) {
      block_d = cutil_opt_long(kProg, a, v, 1, 255);
    } else if (!strcmp(a, "--shard-n")) {
      shard_n = cutil_opt_long(kProg, a, v, 1, 65535);
    } else if (!strcmp(a, "--seed")) {
      seed = cutil_opt_long(kProg, a, v, 0, 1L << 62);
    } else if (!strcmp(a, "--addr-w")) {
      addr_w = cutil_opt_long(kProg, a, v, 4, 32);
    } else if (!strcmp(a, "--rows")) {
      rows = cutil_opt_long(kProg, a, v, 1, 64);
    } else if (!strcmp(a, "--cols")) {
      cols = cutil_opt_long(kProg, a, v, 1, 64);
    } else if (!strcmp(a, "--depth")) {
      depth = cutil_opt_long(kProg, a, v, 1, 32768);
    } else if (!strcmp(a, "--gpes")) {
      gpes = cutil_opt_long(kProg, a, v, 1, 32);
    } else if (!strcmp(a, "--sfus")) {
      sfus = cutil_opt_long(kProg, a, v, 1, 32);
    } else if (!strcmp(a, "--lanes")) {
      lanes = cutil_opt_long(kProg, a, v, 1, 64);
    } else if (!strcmp(a, "--edge-depth")) {
      edepth = cutil_opt_long(kProg, a, v, 1, 32768);
    } else if (!strcmp(a, "--if-depth")) {
      fdepth = cutil_opt_long(kProg, a, v, 1, 32768);
    } else if (!strcmp(a, "--mf-depth")) {
      mdepth = cutil_opt_long(kProg, a, v, 1, 32768);
    } else if (!strcmp(a, "--push")) {
      push = 1, takes = 0;
    } else if (!strcmp(a, "--run")) {
      run = 1, takes = 0;
    } else if (!strcmp(a, "--cycles")) {
      cycles = 1, takes = 0;
    } else if (!strcmp(a, "--full")) {
      full = 1, takes = 0;
    } else if (!strcmp(a, "--lat")) {
      lat = cutil_opt_long(kProg, a, v, 1, 1000);
    } else if (!strcmp(a, "--summary")) {
      summary = 1, takes = 0;
    } else if (!strcmp(a, "--paper")) {
      paper = 1, takes = 0;
    } else if (!strcmp(a, "--drop-missing")) {
      drop_missing = 1, takes = 0;
    } else {
      cutil_fail(kProg, "unknown argument '%s'", a);
    }
    i += takes;
  }
  gnn_layer_opts_t o;
  memset(&o, 0, sizeof o);
  if (!net_s) cutil_fail(kProg, "give --net gcn|sage|pool and a graph");
  if (!strcmp(net_s, "gcn")) o.net = GNN_NET_GCN;
  else if (!strcmp(net_s, "sage")) o.net = GNN_NET_SAGE;
  else if (!strcmp(net_s, "pool")) o.net = GNN_NET_POOL;
  else cutil_fail(kProg, "--net: '%s' is not gcn, sage or pool", net_s);
  if (!strcmp(act_s, "relu")) o.act = GNN_ACT_RELU;
  else if (strcmp(act_s, "none")) cutil_fail(kProg, "--act: '%s' is not none or relu", act_s);
  if (!strcmp(order, "src")) o.src_stationary = 1;
  else if (strcmp(order, "dst")) cutil_fail(kProg, "--order: '%s' is not dst or src", order);
  if (!strcmp(df_s, "auto")) o.dense_first = -1;
  else if (!strcmp(df_s, "0") || !strcmp(df_s, "1")) o.dense_first = df_s[0] - '0';
  else cutil_fail(kProg, "--dense-first: '%s' is not auto, 0 or 1", df_s);
  o.push = push;
  if (run && cycles) cutil_fail(kProg, "--run excludes --cycles");
  o.block_d = (unsigned)block_d;
  o.shard_n = (unsigned)shard_n;
  const int sources = !!preset + !!(nv || ne >= 0) + !!edges + !!csr + !!planetoid;
  if (sources != 1)
    cutil_fail(kProg, "give one graph: --preset, --nv with --ne, --edges, --csr or --planetoid");
  if ((nv != 0) != (ne >= 0)) cutil_fail(kProg, "give --nv and --ne together");
  if (drop_missing && !planetoid) cutil_fail(kProg, "--drop-missing applies to --planetoid only");

  gnn_graph_t g;
  gnn_graph_init(&g);
  char err[512];
  int rc = 0;
  if (preset) {
    uint32_t pv, pf;
    uint64_t pe;
    if (gnn_graph_preset(preset, &pv, &pe, &pf) != 0)
      cutil_fail(kProg, "--preset: '%s' is not cora, citeseer or pubmed", preset);
    if (!f) f = (long)pf;
    rc = gnn_graph_gen(&g, pv, pe, (uint64_t)seed, err, sizeof err);
  } else if (nv) {
    rc = gnn_graph_gen(&g, (uint32_t)nv, (uint64_t)ne, (uint64_t)seed, err, sizeof err);
  } else if (edges) {
    rc = gnn_graph_read_edges(&g, edges, err, sizeof err);
  } else if (csr) {
    rc = gnn_graph_read_csr(&g, csr, err, sizeof err);
  } else {
    rc = gnn_graph_read_planetoid(&g, planetoid, drop_missing, err, sizeof err);
    if (!rc && !f) f = (long)g.feat;
  }
  if (rc != 0) cutil_fail(kProg, "%s", err);
  if (g.nv > 65535) cutil_fail(kProg, "%u vertices: one layer takes at most 65535", g.nv);
  if (!f) f = 16;
  o.f = (unsigned)f;
  o.h = (unsigned)h;
  o.full = full;

  gnn_cfg_t cfg;
  if (paper) {
    gnn_cfg_paper(&cfg);
  } else if (gnn_cfg_init(&cfg, (int)rows, (int)cols, (int)depth, (int)depth, (int)depth, 32) ||
             gnn_cfg_graph(&cfg, (int)gpes, (int)lanes, (int)edepth, (int)fdepth, (int)mdepth)) {
    cutil_fail(kProg, "invalid configuration (P and L powers of two, P <= max(R, C, L))");
  }
  if (sfus && gnn_cfg_sfus(&cfg, (int)sfus))
    cutil_fail(kProg, "--sfus %ld: the SFU pool has 1..P units (P = %d)", sfus, cfg.gpes);
  /* data: X (the file's features when it has F of them), W, Wp */
  const uint64_t N = g.nv, F = o.f, Hh = o.h, wrows = o.net == GNN_NET_GCN ? F : 2 * F;
  cutil_rng_t r = cutil_rng_seed(cutil_mix64((uint64_t)seed));
  uint32_t *x = xmalloc(N * F), *w = xmalloc(wrows * Hh);
  uint32_t *wp = o.net == GNN_NET_POOL ? xmalloc(F * F) : NULL;
  for (uint64_t i = 0; i < N * F; i++)
    x[i] = (g.x && g.feat == F) ? g.x[i] : gnn_rand_fp32(&r, 0);
  for (uint64_t i = 0; i < wrows * Hh; i++) w[i] = gnn_rand_fp32(&r, 0);
  for (uint64_t i = 0; wp && i < F * F; i++) wp[i] = gnn_rand_fp32(&r, 0);

  if (!paper) cfg.addr_w = 32;
  gnn_wl_t wl;
  gnn_layer_info_t info;
  if (gnn_compile_layer(&cfg, &g, &o, x, w, wp, &wl, &info, err, sizeof err) != 0)
    cutil_fail(kProg, "%s", err);
  /* the smallest address width that holds the layout (or the one asked for) */
  uint64_t end = 0;
  for (size_t i = 0; i < wl.n_mem; i++)
    if (wl.mem[i].addr + wl.mem[i].n > end) end = wl.mem[i].addr + wl.mem[i].n;
  if (wl.check[0].addr + wl.check[0].n > end) end = wl.check[0].addr + wl.check[0].n;
  const int need = bits_for(end + 1);
  if (!paper) {
    /* the program does not depend on the width; every address it uses is below `end` */
    const int aw = addr_w ? (int)addr_w : (need > 16 ? need : 16);
    if (need > aw) cutil_fail(kProg, "the layer needs %" PRIu64 " words, more than 2^%d", end, aw);
    cfg.addr_w = wl.cfg.addr_w = aw;
  }
  char line[768];
  snprintf(line, sizeof line,
           "net=%s nv=%u edges=%" PRIu64 " f=%u h=%u n_shard=%u S=%u shards=%" PRIu64
           " blocks=%u block_d=%u insns=%" PRIu64 " gruns=%" PRIu64 " feat_rd_blocks=%" PRIu64
           " feat_wr_blocks=%" PRIu64 " rd_words=%" PRIu64 " wr_words=%" PRIu64,
           net_s, g.nv, info.edges, o.f, o.h, info.n_shard, info.grid_s, info.shards, info.blocks,
           info.block_d, info.insns, info.gruns, info.feat_rd_blocks, info.feat_wr_blocks,
           info.rd_words, info.wr_words);
  int status = 0;
  if (run) {
    gnn_model_t *m = gnn_wl_model(&wl);
    if (!m) cutil_die(kProg, "out of memory");
    uint64_t errors = 0, cyc = 0, items = 0, stalls = 0, lock = 0, sfus_st = 0;
    for (size_t i = 0; i < wl.prog.n; i++) {
      if (gnn_model_exec(m, &wl.prog.insn[i]) != GNN_OK) errors++;
      if ((wl.prog.insn[i].w[0] & 0xFu) == GNN_OP_GRUN) {
        const gnn_grun_stats_t s = gnn_model_grun_stats(m);
        cyc += s.cycles, items += s.items, stalls += s.stalls, lock += s.lock_stalls;
        sfus_st += s.sfu_stalls;
      }
    }
    uint32_t *z = xmalloc(N * Hh);
    for (uint64_t i = 0; i < N * Hh; i++) z[i] = gnn_mem_rd(m, info.out_addr + i);
    char msg[256];
    const uint64_t bad = gnn_layer_verify(&g, &o, x, w, wp, z, msg, sizeof msg);
    printf("gnn_layer: model errors=%" PRIu64 " grun_cycles=%" PRIu64 " items=%" PRIu64
           " stalls=%" PRIu64 " lock_stalls=%" PRIu64 " bad_edges=%" PRIu64 " sfu_stalls=%" PRIu64
           "\n",
           errors, cyc, items, stalls, lock, gnn_model_bad_edges(m), sfus_st);
    if (errors || bad) {
      fprintf(stderr, "gnn_layer: check failed: %s\n",
              errors ? "an instruction has an error status" : msg);
      status = 1;
    } else {
      printf("gnn_layer: check ok (%" PRIu64 " outputs within tolerance)\n", N * Hh);
    }
    free(z);
    gnn_model_free(m);
  }
  if (cycles) {
    gnn_model_t *m = gnn_wl_model(&wl);
    gnn_prog_t dense;
    gnn_prog_init(&dense);
    const gnn_memtiming_t mt = {(int)lat};
    if (!m) cutil_die(kProg, "out of memory");
    for (size_t i = 0; i < wl.prog.n; i++)
      if (gnn_get(&wl.prog.insn[i], GNN_F_OP) < GNN_OP_GLOAD &&
          gnn_prog_push(&dense, wl.prog.insn[i]) != 0)
        cutil_die(kProg, "out of memory");
    /* the graph instructions on the model: each GRUN's schedule (the Dense Engine's arithmetic
       skipped), then the whole program on both engines, exact (the RTL's cycle count without
       back-pressure) */
    uint64_t *gex_len = calloc(wl.prog.n ? wl.prog.n : 1, sizeof *gex_len);
    if (!gex_len) cutil_die(kProg, "out of memory");
    gnn_grun_stats_t gs = {0, 0, 0, 0, 0, 0};
    if (gnn_model_gex_lengths(m, wl.prog.insn, wl.prog.n, 1, gex_len, &gs) != 0)
      cutil_fail(kProg, "a graph instruction has an error");
    const uint64_t gex = gs.cycles, items = gs.items, stalls = gs.stalls, lock = gs.lock_stalls;
    const uint64_t sfus_st = gs.sfu_stalls;
    gnn_cyc_stats_t ts;
    if (gnn_prog_cycles(&cfg, &mt, wl.prog.insn, wl.prog.n, gex_len, &ts) != 0)
      cutil_fail(kProg, "the cycle model refused the program");
    free(gex_len);
    gnn_prog_stats_t ps;
    gnn_prog_stats(&cfg, wl.prog.insn, wl.prog.n, &ps);
    const uint64_t gmem = ps.g_rd_lines + ps.g_wr_lines;
    gnn_cyc_stats_t cs;
    memset(&cs, 0, sizeof cs);
    if (dense.n && gnn_cycles(&cfg, &mt, dense.insn, dense.n, &cs) != 0)
      cutil_fail(kProg, "the dense cycle model refused the program");
    const uint64_t graph = gex > gmem ? gex : gmem;
    printf("gnn_layer: cycles gex=%" PRIu64 " gmem=%" PRIu64 " graph=%" PRIu64 " dense=%" PRIu64
           " bound=%" PRIu64 " serial=%" PRIu64 " stalls=%" PRIu64 " lock_stalls=%" PRIu64
           " items=%" PRIu64 " sfu_stalls=%" PRIu64 " total=%" PRIu64 "\n",
           gex, gmem, graph, cs.cycles, graph > cs.cycles ? graph : cs.cycles, graph + cs.cycles,
           stalls, lock, items, sfus_st, ts.cycles);
    gnn_prog_free(&dense);
    gnn_model_free(m);
  }
  if (out) {
    char comment[1024];
    snprintf(comment, sizeof comment, "gnn_layer %s layer, seed %ld\nsummary %s\nZ at 0x%" PRIx64,
             net_s, seed, line, info.out_addr);
    FILE *fo = cutil_open_out(kProg, out);
    cutil_close_out(kProg, fo, out, gnn_wl_write(fo, &wl, comment));
  }
  if (summary) printf("%s\n", line);
  if (fflush(stdout) != 0) cutil_die(kProg, "write error on stdout");
  gnn_wl_free(&wl);
  gnn_graph_free(&g);
  free(x), free(w), free(wp);
  return status;
}
