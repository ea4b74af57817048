/* nnoc_map -- NN-to-NoC mapper of Neu-NoC (seed 004, Section 3.5.2.2, Tables 10 and 11,
 * Algorithm 1, Equation 5).  Design notes in docs/neunoc_workloads.md; the short form:
 *
 * usage: nnoc_map (--bench NAME | --layers N0-N1-...-NL) [--neurons-per-pe N (16)] [--k K (8)]
 *        [--mesh CxR] [--scheme seq|random|nn|all (all)] [--seed S (1)] [--seeds N (10)]
 *        [--iters N (40)] [--load-weight W (Eq. 5)] [--effort N (400)] [-o MAPFILE]
 * Bad arguments: one-line error on stderr, exit status 2 (1: out of memory or a write error).
 *
 * Network: N0 is the input layer (its data is not sent over the NoC: Table 10's "mapping in
 * PEs" lists the hidden and output layers only, and that reading reproduces Table 11's packet
 * counts); mapped layer l has ceil(N_l / neurons-per-pe) PEs, grouped into ceil(PEs / K) rings
 * (the first rings full, the last one holding the rest).  Each ring sits on its own mesh router.
 * Traffic counted: one packet from every ring of mapped layer l to every ring of layer l + 1.
 * Measures (XY routes): total hop count; max link load (packets over the busiest directed
 * link); packets without multicast; packets after the paper's merge rule (a packet whose XY
 * path is contained in the path of another packet of the same source is merged into it);
 * packets with full bit-string multicast (one per source ring) and the max link load of the
 * multicast trees.
 * Schemes: sequential (ring g on router g), random (a seeded permutation; the mean over --seeds
 * seeds is reported too), nn (greedy placement then swap local search with deterministic
 * perturbation restarts on cost = hops + W * max load, ties broken by the number of links at the
 * max load, then the sum of squared link loads; W defaults to Equation 5's M^2 (M - 1), the
 * normalizer of its hop term, for an M x M mesh (non-square: Cols * Rows * (max(Cols, Rows) -
 * 1)); --effort bounds the work in millions of link updates).
 * Output: a table on stdout, one "summary key=value ..." line per scheme, and with -o the
 * mapping file of the one scheme chosen (with --scheme all: the nn mapping):
 *   nnoc-map 1 / net K Cols Rows / bench NAME / neurons-per-pe N / input N0 /
 *   layer l neurons pes rings (per mapped layer) / ring l j router npes (per ring)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neunoc.h"

#define PROG "nnoc_map"
#include "cutil.h"

#define MAX_LAYERS 16
#define MAX_RINGS NNOC_MAX_ROUTERS

/* ---------------------------------------------------------------- benchmarks (Table 10) */

typedef struct {
  const char *name;
  const char *layers;
  int mesh;  /* K = 1 mesh side (Table 10 "Mesh") */
  int neu;   /* K = 8 mesh side (Table 10 "Neu_NoC") */
} bench_t;

static const bench_t g_bench[] = {
    {"mnist_mlp_1", "784-300-100-10", 6, 3},
    {"mnist_mlp_2", "784-1000-500-10", 10, 4},
    {"mnist_mlp_3", "784-1500-1000-500-10", 14, 5},
    {"mnist_mlp_4", "784-2000-1500-1000-500-10", 18, 7},
    {"mnist_mlp_5", "784-2500-2000-1500-1000-500-10", 22, 8},
    {"alexnet_cnn_cla", "9216-4096-4096-1000", 24, 9},
};
#define NBENCH ((int)(sizeof g_bench / sizeof g_bench[0]))

/* ---------------------------------------------------------------- argument parsing */

/* "N0-N1-..." into v; returns the count. */
static int parse_layers(const char *s, int *v, int max) {
  int n = 0;
  const char *p = s;
  for (;;) {
    if (*p < '0' || *p > '9')
      cutil_fail(PROG, "--layers: '%s' is not a list like 784-300-100-10", s);
    errno = 0;
    char *end;
    long x = strtol(p, &end, 10);
    if (errno == ERANGE || x < 1 || x > 1000000)
      cutil_fail(PROG, "--layers: layer size out of range 1..1000000 in '%s'", s);
    if (n == max) cutil_fail(PROG, "--layers: more than %d layers", max);
    v[n++] = (int)x;
    if (*end == '\0') break;
    if (*end != '-') cutil_fail(PROG, "--layers: '%s' is not a list like 784-300-100-10", s);
    p = end + 1;
  }
  if (n < 3)
    cutil_fail(PROG, "--layers: need an input layer and at least two mapped layers ('%s')", s);
  return n;
}

/* ---------------------------------------------------------------- network and traffic */

typedef struct {
  char name[64];
  int input;                /* input layer neurons (not mapped) */
  int nl;                   /* mapped layers */
  int neurons[MAX_LAYERS];
  int pes[MAX_LAYERS];
  int rings[MAX_LAYERS];
  int nrings;
  int ring_layer[MAX_RINGS], ring_idx[MAX_RINGS], ring_pes[MAX_RINGS];
  int npairs;
  int *psrc, *pdst;         /* pair p: ring psrc[p] -> ring pdst[p] */
  int *adj_start, *adj;     /* pairs touching ring g: adj[adj_start[g] .. adj_start[g+1]) */
} net_t;

static void build_net(net_t *n, int npe, int k) {
  int g = 0;
  for (int l = 0; l < n->nl; l++) {
    n->pes[l] = (n->neurons[l] + npe - 1) / npe;
    n->rings[l] = (n->pes[l] + k - 1) / k;
    if (g + n->rings[l] > MAX_RINGS)
      cutil_fail(PROG, "the network needs more than %d rings", MAX_RINGS);
    for (int j = 0; j < n->rings[l]; j++, g++) {
      n->ring_layer[g] = l;
      n->ring_idx[g] = j;
      int rest = n->pes[l] - j * k;
      n->ring_pes[g] = rest < k ? rest : k;
    }
  }
  n->nrings = g;
  long np = 0;
  for (int l = 0; l + 1 < n->nl; l++) np += (long)n->rings[l] * n->rings[l + 1];
  n->npairs = (int)np;
  n->psrc = malloc(sizeof(int) * (size_t)(np + 1));
  n->pdst = malloc(sizeof(int) * (size_t)(np + 1));
  n->adj = malloc(sizeof(int) * (size_t)(2 * np + 1));
  n->adj_start = calloc((size_t)g + 1, sizeof(int));
  if (!n->psrc || !n->pdst || !n->adj || !n->adj_start) cutil_die(PROG, "out of memory");
  int p = 0, first = 0;
  for (int l = 0; l + 1 < n->nl; l++) {
    int next = first + n->rings[l];
    for (int a = 0; a < n->rings[l]; a++)
      for (int b = 0; b < n->rings[l + 1]; b++, p++) {
        n->psrc[p] = first + a;
        n->pdst[p] = next + b;
      }
    first = next;
  }
  int *cnt = calloc((size_t)g + 1, sizeof(int));
  if (!cnt) cutil_die(PROG, "out of memory");
  for (p = 0; p < n->npairs; p++) cnt[n->psrc[p]]++, cnt[n->pdst[p]]++;
  for (int r = 0; r < g; r++) n->adj_start[r + 1] = n->adj_start[r] + cnt[r];
  memset(cnt, 0, sizeof(int) * ((size_t)g + 1));
  for (p = 0; p < n->npairs; p++) {
    n->adj[n->adj_start[n->psrc[p]] + cnt[n->psrc[p]]++] = p;
    n->adj[n->adj_start[n->pdst[p]] + cnt[n->pdst[p]]++] = p;
  }
  free(cnt);
}

/* ---------------------------------------------------------------- mapping state and cost */

typedef struct {
  const net_t *n;
  const nnoc_cfg_t *cfg;
  int nr;
  int map[MAX_RINGS];         /* ring -> router */
  int occ[NNOC_MAX_ROUTERS];  /* router -> ring or -1 */
  int load[NNOC_MAX_ROUTERS * 4];
  int *hist;                  /* hist[v] = links with load v */
  int maxload;
  long hops;
  long sumsq;
  long long work;             /* link updates done (effort bound) */
} state_t;

static void st_init(state_t *s, const net_t *n, const nnoc_cfg_t *cfg) {
  memset(s, 0, sizeof *s);
  s->n = n;
  s->cfg = cfg;
  s->nr = nnoc_routers(cfg);
  s->hist = calloc((size_t)n->npairs + 2, sizeof(int));
  if (!s->hist) cutil_die(PROG, "out of memory");
}

static void add_link(state_t *s, int l, int d) {
  int v = s->load[l];
  s->hist[v]--;
  s->sumsq += 2L * v * d + 1;
  v += d;
  s->load[l] = v;
  s->hist[v]++;
  if (v > s->maxload) s->maxload = v;
  while (s->maxload > 0 && s->hist[s->maxload] == 0) s->maxload--;
}

static void add_pair(state_t *s, int p, int d) {
  int links[2 * 64];
  int k = nnoc_xy_links(s->cfg, s->map[s->n->psrc[p]], s->map[s->n->pdst[p]], links, 128);
  s->hops += d * k;
  for (int i = 0; i < k; i++) add_link(s, links[i], d);
  s->work += k;
}

/* All pairs touching ring g, except those whose other end is `skip`. */
static void add_ring(state_t *s, int g, int skip, int d) {
  const net_t *n = s->n;
  for (int i = n->adj_start[g]; i < n->adj_start[g + 1]; i++) {
    int p = n->adj[i];
    int other = n->psrc[p] == g ? n->pdst[p] : n->psrc[p];
    if (other == skip) continue;
    add_pair(s, p, d);
  }
}

static void st_load(state_t *s, const int *map) {
  memset(s->load, 0, sizeof s->load);
  memset(s->hist, 0, sizeof(int) * ((size_t)s->n->npairs + 2));
  s->hist[0] = s->nr * 4;
  s->maxload = 0;
  s->hops = 0;
  s->sumsq = 0;
  for (int r = 0; r < s->nr; r++) s->occ[r] = -1;
  for (int g = 0; g < s->n->nrings; g++) {
    s->map[g] = map[g];
    s->occ[map[g]] = g;
  }
  for (int p = 0; p < s->n->npairs; p++) add_pair(s, p, 1);
}

/* Swaps the contents of routers i and j (either may be empty). */
static void st_swap(state_t *s, int i, int j) {
  int a = s->occ[i], b = s->occ[j];
  if (a >= 0) add_ring(s, a, -1, -1);
  if (b >= 0) add_ring(s, b, a, -1);
  s->occ[i] = b;
  s->occ[j] = a;
  if (a >= 0) s->map[a] = j;
  if (b >= 0) s->map[b] = i;
  if (a >= 0) add_ring(s, a, -1, 1);
  if (b >= 0) add_ring(s, b, a, 1);
}

typedef struct {
  long cost;
  long atmax; /* links carrying the max load */
  long sumsq;
} cost_t;

static long g_load_w = -1; /* -1: Equation 5's weight M^2 (M - 1) */

static cost_t st_cost(const state_t *s) {
  cost_t c = {s->hops + g_load_w * s->maxload, s->hist[s->maxload], s->sumsq};
  return c;
}

static int better(cost_t a, cost_t b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.atmax != b.atmax) return a.atmax < b.atmax;
  return a.sumsq < b.sumsq;
}

/* ---------------------------------------------------------------- schemes */

static cutil_rng_t g_rng;
static int rng_below(int n) { return (int)cutil_rng_below(&g_rng, (uint64_t)n); }

static void map_seq(const net_t *n, int *map) {
  for (int g = 0; g < n->nrings; g++) map[g] = g;
}

static void map_random(const net_t *n, int nr, uint64_t seed, int *map) {
  int perm[NNOC_MAX_ROUTERS];
  for (int r = 0; r < nr; r++) perm[r] = r;
  g_rng = cutil_rng_seed(seed);
  for (int r = nr - 1; r > 0; r--) {
    int j = rng_below(r + 1);
    int t = perm[r];
    perm[r] = perm[j];
    perm[j] = t;
  }
  for (int g = 0; g < n->nrings; g++) map[g] = perm[g];
}

/* Greedy: rings in layer order, each onto the free router with the fewest hops to the already
 * placed rings it exchanges packets with; ties to the router nearest the mesh centre, then the
 * lowest id. */
static void map_greedy(const net_t *n, const nnoc_cfg_t *cfg, int *map) {
  int nr = nnoc_routers(cfg);
  int used[NNOC_MAX_ROUTERS] = {0};
  for (int g = 0; g < n->nrings; g++) {
    long best = -1, bestc = 0;
    int bestr = -1;
    for (int r = 0; r < nr; r++) {
      if (used[r]) continue;
      long h = 0;
      for (int i = n->adj_start[g]; i < n->adj_start[g + 1]; i++) {
        int p = n->adj[i];
        int other = n->psrc[p] == g ? n->pdst[p] : n->psrc[p];
        if (other < g) h += nnoc_hops(cfg, r, map[other]);
      }
      long c2 = labs(2L * (r % cfg->cols) - (cfg->cols - 1)) +
                labs(2L * (r / cfg->cols) - (cfg->rows - 1));
      if (bestr < 0 || h < best || (h == best && c2 < bestc)) {
        best = h;
        bestc = c2;
        bestr = r;
      }
    }
    used[bestr] = 1;
    map[g] = bestr;
  }
}

/* First-improvement swap descent; returns when no swap of two routers (at least one occupied)
 * improves the cost, or the effort is spent. */
static void local_search(state_t *s, long long budget) {
  cost_t cur = st_cost(s);
  int improved = 1;
  while (improved && s->work < budget) {
    improved = 0;
    for (int i = 0; i < s->nr && s->work < budget; i++)
      for (int j = i + 1; j < s->nr; j++) {
        if (s->occ[i] < 0 && s->occ[j] < 0) continue;
        st_swap(s, i, j);
        cost_t c = st_cost(s);
        if (better(c, cur)) {
          cur = c;
          improved = 1;
        } else {
          st_swap(s, i, j);
        }
      }
  }
}

static void map_nn(const net_t *n, const nnoc_cfg_t *cfg, int iters, long long budget, int *map,
                   int *iters_done) {
  state_t s;
  st_init(&s, n, cfg);
  map_greedy(n, cfg, map);
  st_load(&s, map);
  local_search(&s, budget);
  int best[MAX_RINGS];
  memcpy(best, s.map, sizeof(int) * (size_t)n->nrings);
  cost_t bc = st_cost(&s);
  /* a fixed stream, not a seed: the nn mapping is a function of the network and mesh */
  g_rng = (cutil_rng_t){0x4e4e4d4150ull};
  int it;
  for (it = 0; it < iters && s.work < budget; it++) {
    int kicks = 2 + it % 4;
    for (int q = 0; q < kicks; q++) {
      int i = rng_below(s.nr), j = rng_below(s.nr);
      if (i != j) st_swap(&s, i, j);
    }
    local_search(&s, budget);
    cost_t c = st_cost(&s);
    if (better(c, bc)) {
      bc = c;
      memcpy(best, s.map, sizeof(int) * (size_t)n->nrings);
    } else {
      st_load(&s, best);
    }
  }
  *iters_done = it;
  memcpy(map, best, sizeof(int) * (size_t)n->nrings);
  free(s.hist);
}

/* ---------------------------------------------------------------- measurement */

typedef struct {
  long hops, maxload, pkts, merged, mcast, mc_maxload;
} meas_t;

/* Router d lies on the XY path a -> b (x first along a's row, then along b's column). */
static int on_path(const nnoc_cfg_t *c, int a, int b, int d) {
  int ax = a % c->cols, ay = a / c->cols, bx = b % c->cols, by = b / c->cols;
  int dx = d % c->cols, dy = d / c->cols;
  int lo, hi;
  lo = ax < bx ? ax : bx;
  hi = ax < bx ? bx : ax;
  if (dy == ay && dx >= lo && dx <= hi) return 1;
  lo = ay < by ? ay : by;
  hi = ay < by ? by : ay;
  return dx == bx && dy >= lo && dy <= hi;
}

static meas_t measure(const net_t *n, const nnoc_cfg_t *cfg, const int *map) {
  meas_t m = {0, 0, 0, 0, 0, 0};
  int nl4 = nnoc_routers(cfg) * 4;
  int *load = calloc((size_t)nl4, sizeof(int)), *mcl = calloc((size_t)nl4, sizeof(int));
  int *mark = calloc((size_t)nl4, sizeof(int));
  if (!load || !mcl || !mark) cutil_die(PROG, "out of memory");
  int stamp = 0;
  int links[128];
  for (int g = 0; g < n->nrings; g++) {
    int l = n->ring_layer[g];
    if (l + 1 >= n->nl) continue;
    int first = n->adj_start[g];
    int cnt = 0;
    stamp++;
    /* pairs with g as source are the adjacency entries where psrc == g */
    int dsts[MAX_RINGS];
    for (int i = first; i < n->adj_start[g + 1]; i++) {
      int p = n->adj[i];
      if (n->psrc[p] != g) continue;
      dsts[cnt++] = map[n->pdst[p]];
      int k = nnoc_xy_links(cfg, map[g], map[n->pdst[p]], links, 128);
      m.hops += k;
      for (int q = 0; q < k; q++) {
        load[links[q]]++;
        if (mark[links[q]] != stamp) {
          mark[links[q]] = stamp;
          mcl[links[q]]++;
        }
      }
    }
    m.pkts += cnt;
    if (cnt) m.mcast++;
    for (int a = 0; a < cnt; a++) {
      int contained = 0;
      for (int b = 0; b < cnt && !contained; b++)
        if (b != a && on_path(cfg, map[g], dsts[b], dsts[a])) contained = 1;
      if (!contained) m.merged++;
    }
  }
  for (int i = 0; i < nl4; i++) {
    if (load[i] > m.maxload) m.maxload = load[i];
    if (mcl[i] > m.mc_maxload) m.mc_maxload = mcl[i];
  }
  free(load);
  free(mcl);
  free(mark);
  return m;
}

/* ---------------------------------------------------------------- output */

static void join(char *buf, size_t len, const int *v, int n) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && o < len; i++) {
    int k = snprintf(buf + o, len - o, i ? "-%d" : "%d", v[i]);
    if (k < 0) break;
    o += (size_t)k;
  }
}

static char g_common[512];

static void print_row(const char *label, const char *key, meas_t m) {
  printf("%-22s %8ld %8ld %8ld %8ld %8ld %8ld\n", label, m.hops, m.maxload, m.pkts, m.merged,
         m.mcast, m.mc_maxload);
  printf("summary %s scheme=%s hops=%ld max_load=%ld pkts=%ld pkts_merged=%ld pkts_mcast=%ld "
         "max_load_mcast=%ld\n",
         g_common, key, m.hops, m.maxload, m.pkts, m.merged, m.mcast, m.mc_maxload);
}

static void print_grid(const net_t *n, const nnoc_cfg_t *cfg, const int *map, const char *what) {
  if (cfg->cols > 24) return;
  int occ[NNOC_MAX_ROUTERS];
  for (int r = 0; r < nnoc_routers(cfg); r++) occ[r] = -1;
  for (int g = 0; g < n->nrings; g++) occ[map[g]] = g;
  printf("%s mapping (layer of the ring on each router; north row first, '.' = free):\n", what);
  for (int y = cfg->rows - 1; y >= 0; y--) {
    printf("  ");
    for (int x = 0; x < cfg->cols; x++) {
      int g = occ[y * cfg->cols + x];
      if (g < 0)
        printf(" %2s", ".");
      else
        printf(" %2d", n->ring_layer[g] + 1);
    }
    printf("\n");
  }
}

static void write_map(const char *path, const net_t *n, const nnoc_cfg_t *cfg, int npe,
                      const int *map, const char *scheme, const char *args) {
  FILE *f = fopen(path, "w");
  if (!f) cutil_die(PROG, "%s: cannot open for writing: %s", path, strerror(errno));
  fprintf(f, "nnoc-map 1\n# %s mapping written by nnoc_map%s\n", scheme, args);
  fprintf(f, "net %d %d %d\nbench %s\nneurons-per-pe %d\ninput %d\n", cfg->k, cfg->cols,
          cfg->rows, n->name, npe, n->input);
  for (int l = 0; l < n->nl; l++)
    fprintf(f, "layer %d %d %d %d\n", l, n->neurons[l], n->pes[l], n->rings[l]);
  for (int g = 0; g < n->nrings; g++)
    fprintf(f, "ring %d %d %d %d\n", n->ring_layer[g], n->ring_idx[g], map[g], n->ring_pes[g]);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) cutil_die(PROG, "%s: write error", path);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
  const char *bench = NULL, *layers = NULL, *mesh = NULL, *scheme = "all", *out = NULL;
  long npe = 16, k = 8, seed = 1, seeds = 10, iters = 40, effort = 400;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--bench")) {
      if (!v) cutil_fail(PROG, "--bench needs a value");
      bench = v, i++;
    } else if (!strcmp(a, "--layers")) {
      if (!v) cutil_fail(PROG, "--layers needs a value");
      layers = v, i++;
    } else if (!strcmp(a, "--neurons-per-pe")) {
      npe = cutil_opt_long(PROG, a, v, 1, 1000000), i++;
    } else if (!strcmp(a, "--k")) {
      k = cutil_opt_long(PROG, a, v, 1, NNOC_MAX_K), i++;
    } else if (!strcmp(a, "--mesh")) {
      if (!v) cutil_fail(PROG, "--mesh needs a value");
      mesh = v, i++;
    } else if (!strcmp(a, "--scheme")) {
      if (!v) cutil_fail(PROG, "--scheme needs a value");
      scheme = v, i++;
    } else if (!strcmp(a, "--seed")) {
      seed = cutil_opt_long(PROG, a, v, 0, 2000000000L), i++;
    } else if (!strcmp(a, "--seeds")) {
      seeds = cutil_opt_long(PROG, a, v, 1, 100000), i++;
    } else if (!strcmp(a, "--iters")) {
      iters = cutil_opt_long(PROG, a, v, 0, 1000000), i++;
    } else if (!strcmp(a, "--load-weight")) {
      g_load_w = cutil_opt_long(PROG, a, v, 0, 100000000), i++;
    } else if (!strcmp(a, "--effort")) {
      effort = cutil_opt_long(PROG, a, v, 1, 1000000), i++;
    } else if (!strcmp(a, "-o")) {
      if (!v) cutil_fail(PROG, "-o needs a file name");
      out = v, i++;
    } else {
      cutil_fail(PROG,
                "unknown argument '%s' (usage: nnoc_map --bench NAME | --layers N0-N1-... [--k K] "
                "[--mesh CxR] [--scheme seq|random|nn|all] ...)",
                a);
    }
  }
  if (bench && layers) cutil_fail(PROG, "give --bench or --layers, not both");
  if (!bench && !layers) cutil_fail(PROG, "no network: give --bench NAME or --layers N0-N1-...");
  if (strcmp(scheme, "seq") && strcmp(scheme, "random") && strcmp(scheme, "nn") &&
      strcmp(scheme, "all"))
    cutil_fail(PROG, "--scheme: '%s' is not seq, random, nn or all", scheme);

  static net_t n;
  int sizes[MAX_LAYERS + 1];
  int ns;
  int side = 0;
  if (bench) {
    int b;
    for (b = 0; b < NBENCH; b++)
      if (!strcmp(bench, g_bench[b].name)) break;
    if (b == NBENCH)
      cutil_fail(PROG, "unknown benchmark '%s' (mnist_mlp_1..mnist_mlp_5, alexnet_cnn_cla)", bench);
    ns = parse_layers(g_bench[b].layers, sizes, MAX_LAYERS + 1);
    snprintf(n.name, sizeof n.name, "%s", bench);
    if (npe == 16 && k == 8) side = g_bench[b].neu;
    if (npe == 16 && k == 1) side = g_bench[b].mesh;
  } else {
    ns = parse_layers(layers, sizes, MAX_LAYERS + 1);
    snprintf(n.name, sizeof n.name, "%s", layers);
  }
  n.input = sizes[0];
  n.nl = ns - 1;
  for (int l = 0; l < n.nl; l++) n.neurons[l] = sizes[l + 1];
  build_net(&n, (int)npe, (int)k);

  nnoc_cfg_t cfg = {(int)k, 0, 0, 16, 8, 4, 0};
  if (mesh) {
    char *end;
    errno = 0;
    long c = (*mesh >= '0' && *mesh <= '9') ? strtol(mesh, &end, 10) : -1;
    long r = -1;
    if (c > 0 && errno == 0 && *end == 'x' && end[1] >= '0' && end[1] <= '9') {
      r = strtol(end + 1, &end, 10);
      if (*end || errno) r = -1;
    }
    if (c < 1 || r < 1 || c > NNOC_MAX_ROUTERS || r > NNOC_MAX_ROUTERS || c * r > NNOC_MAX_ROUTERS)
      cutil_fail(PROG, "--mesh: '%s' is not CxR with 1 <= C*R <= %d", mesh, NNOC_MAX_ROUTERS);
    cfg.cols = (int)c;
    cfg.rows = (int)r;
  } else {
    if (!side)
      while (side * side < n.nrings) side++;
    cfg.cols = cfg.rows = side;
  }
  char e[200];
  if (nnoc_cfg_check(&cfg, e, sizeof e) != 0) cutil_fail(PROG, "%s", e);
  int nr = nnoc_routers(&cfg);
  char pes[128], rings[128], neu[160];
  join(pes, sizeof pes, n.pes, n.nl);
  join(rings, sizeof rings, n.rings, n.nl);
  join(neu, sizeof neu, sizes, ns);
  if (g_load_w < 0) {
    long m = cfg.cols > cfg.rows ? cfg.cols : cfg.rows;
    g_load_w = (long)nr * (m > 1 ? m - 1 : 1);
  }
  if (n.nrings > nr)
    cutil_fail(PROG, "mesh %dx%d has %d routers but %s needs %d rings (%s)", cfg.cols, cfg.rows, nr,
              n.name, n.nrings, rings);
  if (cfg.cols + cfg.rows > 64)
    cutil_fail(PROG, "mesh %dx%d: paths longer than 64 hops", cfg.cols, cfg.rows);

  snprintf(g_common, sizeof g_common, "bench=%s k=%ld npe=%ld mesh=%dx%d pes=%s rings=%s "
           "load_weight=%ld", n.name, k, npe, cfg.cols, cfg.rows, pes, rings, g_load_w);
  printf("%s: %s neurons, %ld neurons/PE -> PEs %s, K=%ld -> rings %s on a %dx%d mesh (%d "
         "routers), %d ring pairs\n",
         n.name, neu, npe, pes, k, rings, cfg.cols, cfg.rows, nr, n.npairs);
  printf("%-22s %8s %8s %8s %8s %8s %8s\n", "scheme", "hops", "maxload", "packets", "merged",
         "mcast", "mc_load");
  static int map[MAX_RINGS];
  const char *map_scheme = NULL;
  int all = !strcmp(scheme, "all");
  if (all || !strcmp(scheme, "seq")) {
    map_seq(&n, map);
    print_row("sequential", "seq", measure(&n, &cfg, map));
    if (!all) map_scheme = "sequential";
  }
  if (all || !strcmp(scheme, "random")) {
    static int rmap[MAX_RINGS];
    double sum[6] = {0};
    for (long s = 0; s < seeds; s++) {
      map_random(&n, nr, (uint64_t)(seed + s), rmap);
      meas_t m = measure(&n, &cfg, rmap);
      sum[0] += m.hops, sum[1] += m.maxload, sum[2] += m.pkts;
      sum[3] += m.merged, sum[4] += m.mcast, sum[5] += m.mc_maxload;
      if (s == 0) {
        char label[64];
        snprintf(label, sizeof label, "random (seed %ld)", seed);
        print_row(label, "random", m);
        if (!all) {
          memcpy(map, rmap, sizeof(int) * (size_t)n.nrings);
          map_scheme = "random";
        }
      }
    }
    char label[64];
    snprintf(label, sizeof label, "random (mean of %ld)", seeds);
    for (int q = 0; q < 6; q++) sum[q] /= (double)seeds;
    printf("%-22s %8.1f %8.2f %8.1f %8.1f %8.1f %8.2f\n", label, sum[0], sum[1], sum[2], sum[3],
           sum[4], sum[5]);
    printf("summary %s scheme=random_mean seeds=%ld hops=%.1f max_load=%.2f pkts=%.1f "
           "pkts_merged=%.1f pkts_mcast=%.1f max_load_mcast=%.2f\n",
           g_common, seeds, sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]);
  }
  if (all || !strcmp(scheme, "nn")) {
    int done = 0;
    map_nn(&n, &cfg, (int)iters, (long long)effort * 1000000LL, map, &done);
    char label[64];
    snprintf(label, sizeof label, "nn-aware (%d restarts)", done);
    print_row(label, "nn", measure(&n, &cfg, map));
    map_scheme = "nn-aware";
  }
  if (map_scheme) print_grid(&n, &cfg, map, map_scheme);
  if (out) {
    char args[512];
    size_t o = 0;
    args[0] = '\0';
    for (int i = 1; i < argc && o < sizeof args; i++) {
      int q = snprintf(args + o, sizeof args - o, " %s", argv[i]);
      if (q < 0) break;
      o += (size_t)q;
    }
    write_map(out, &n, &cfg, (int)npe, map, map_scheme, args);
  }
  free(n.psrc);
  free(n.pdst);
  free(n.adj);
  free(n.adj_start);
  if (fflush(stdout) != 0 || ferror(stdout)) cutil_die(PROG, "write error on stdout");
  return 0;
}
