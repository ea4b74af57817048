/* libgnn_graph.c -- graph data of the GNNerator Graph Engine compiler (gnn_graph.h): generator,
 * readers and writers, sharding, COUNT_EDGES, Algorithm 3, shard edge lists, Table 6.1.
 *
 * DECISIONS (each also in gnn_graph.h where it concerns a caller)
 *
 * Generator.  Chung-Lu style: the vertex of rank i (0 = the hub) has weight
 * w_i = (i + 1)^(-1 / (gamma - 1)) with gamma = 2.7, inside the 2.5-3 of citation graphs; the
 * ranks are shuffled over the ids (seeded) so that the hubs do not all sit in the first shard.
 * Pairs are made in three phases:
 *   0. "every paper cites something": the vertices are visited in a random order and each one
 *      still without an edge gets one to a partner drawn by weight, while fewer than half the
 *      pairs are made (plain Chung-Lu leaves about a quarter of the vertices of a Cora-sized
 *      graph isolated; Cora has none, Citeseer 48 of 3327);
 *   1. both ends drawn by weight (Vose's alias table: O(1) a draw), a self loop or
 *      an existing pair rejected, until all pairs are made or the rejections exceed 1024 plus
 *      twice the pairs made in this phase (two draws in three rejected: the graph is dense);
 *   2. (only when phase 1 stopped early: dense graphs) the rest uniformly: by
 *      rejection when at most half the free pairs are wanted and at least half of all pairs
 *      are free (a draw then succeeds with probability >= 1/4), else by enumerating the free
 *      pairs (then fewer than 3 m pairs exist) and drawing from them without replacement.
 *      So every request with ne / 2 <= nv (nv - 1) / 2 ends in O(m) steps.
 * Every draw comes from cutil_rng (splitmix64) seeded with cutil_rng_seed(seed).  The presets
 * with seed 1 (max degree / mean degree, isolated vertices; the real graph in brackets): Cora
 * 135 / 3.9, 0 (168, 0), Citeseer 116 / 2.7, 77 (99, 48), Pubmed 517 / 4.5, 0 (171, 0): one
 * gamma for all three makes Pubmed's hubs larger than the real ones; the heavy tail, which is
 * what matters for sharding (COUNT_EDGES follows the hubs), is there.  4 million edges take
 * about a second, dense or not; the presets a few milliseconds.
 *
 * Readers.  A file is read whole into memory (so a NUL byte is found, and Planetoid ids are
 * kept in place without copies), cut in lines, and the edges collected as 64-bit keys
 * dst << 32 | src; one radix sort then gives the (dst, src) order, merges duplicates (counted
 * in dups) and counts self loops.  Nothing is allocated from a size a file announces (CSR's
 * NV and NE), so a lying header cannot ask for gigabytes: the arrays grow with what is read.
 *
 * COUNT_EDGES and the shard lists.  One edge belongs to shard (src / n, dst / n) and to GPE
 * (local id) % p of the vertex the GPE owns (pull: the destination, push: the source).  The
 * shard of each edge is found by sorting 64-bit keys U << 32 | V (radix sort, 8-bit digits,
 * digits equal in every key skipped), so any grid size costs O(ne) and only non-empty shards
 * exist.  The shard lists sort by (U, V, GPE, primary local id) with the edge index as the
 * last key (two stable radix passes).
 *
 * Algorithm 3.  E_max is per GPE edge SRAM and COUNT_EDGES per GPE (the paper leaves both
 * open); capacities are halved for double buffering; the feature capacity is counted per GPE
 * (each GPE keeps the nodes whose local id is its index mod p), so it is a multiple of p.
 * Step 1 tries min(capacity, nv rounded UP to a multiple of p): a graph that fits stays one
 * shard (rounding |G.V| down would cut 2708 nodes into a shard of 2688 and a second one of 20).
 * Step 2 scales by the sampled density: N = N1 sqrt(E_max / E1), rounded down to a multiple of
 * p, at least p.  Step 3 is the worst case of a fully connected shard, N^2 / p edges on each
 * GPE: N = p floor(sqrt(E_max / p)); when that is 0 (E_max < p) nothing is guaranteed to fit
 * and the answer is an error.  "Fits" is E <= E_max in steps 1 and 2: an SRAM of E_max entries
 * holds E_max edges (the paper writes E_shard < E_max).
 */
#include "gnnerator/gnn_graph.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"

#define ERR(...) (cutil_seterr(err, errlen, __VA_ARGS__), -1)
#define ERR0(...) (cutil_seterr(err, errlen, __VA_ARGS__), 0u) /* nodes_per_shard */

#define LINE_MAX_TXT 1022u          /* edge list, CSR, cites */
#define LINE_MAX_CONTENT (1u << 20) /* Planetoid content lines */
#define ID_LIMIT (1ull << 31)       /* ids are below this */

/* ================================================================ small helpers */

static void *xalloc(uint64_t n, size_t sz) {
  if (n == 0) n = 1;
  if (n > SIZE_MAX / sz) return NULL;
  return malloc((size_t)n * sz);
}

/* A growable array of 64-bit words. */
typedef struct {
  uint64_t *a;
  uint64_t n, cap;
} vec64_t;

static int vec_push(vec64_t *v, uint64_t x) {
  if (v->n == v->cap) {
    uint64_t nc = v->cap ? 2 * v->cap : 1024;
    if (nc > SIZE_MAX / sizeof(uint64_t)) return -1;
    uint64_t *na = realloc(v->a, (size_t)nc * sizeof(uint64_t));
    if (!na) return -1;
    v->a = na;
    v->cap = nc;
  }
  v->a[v->n++] = x;
  return 0;
}

/* Stable LSD radix sort of key[0..n) ascending carrying val (may be NULL), 8-bit digits; the
 * digits that are the same in every key are skipped.  0, or -1 when out of memory. */
static int radix_kv(uint64_t *key, uint64_t *val, uint64_t n) {
  if (n < 2) return 0;
  uint64_t or_ = 0, and_ = ~0ull;
  for (uint64_t i = 0; i < n; i++) or_ |= key[i], and_ &= key[i];
  const uint64_t diff = or_ ^ and_;
  if (!diff) return 0;
  uint64_t *tk = xalloc(n, sizeof *tk), *tv = val ? xalloc(n, sizeof *tv) : NULL;
  if (!tk || (val && !tv)) {
    free(tk);
    free(tv);
    return -1;
  }
  uint64_t *k = key, *v = val, *k2 = tk, *v2 = tv;
  for (unsigned sh = 0; sh < 64; sh += 8) {
    if (!((diff >> sh) & 0xff)) continue;
    uint64_t cnt[257] = {0};
    for (uint64_t i = 0; i < n; i++) cnt[((k[i] >> sh) & 0xff) + 1]++;
    for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
    for (uint64_t i = 0; i < n; i++) {
      uint64_t j = cnt[(k[i] >> sh) & 0xff]++;
      k2[j] = k[i];
      if (v) v2[j] = v[i];
    }
    uint64_t *t = k;
    k = k2, k2 = t;
    t = v, v = v2, v2 = t;
  }
  if (k != key) {
    memcpy(key, k, (size_t)n * sizeof *key);
    if (val) memcpy(val, v, (size_t)n * sizeof *val);
  }
  free(tk);
  free(tv);
  return 0;
}

/* Decimal digits only: 0, -1 (empty or another character), -2 (beyond 2^64 - 1). */
static int parse_u64(const char *s, uint64_t *out) {
  if (!*s) return -1;
  uint64_t v = 0;
  int big = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) big = 1;
    else v = v * 10 + d;
  }
  if (big) return -2;
  *out = v;
  return 0;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next blank-separated token of *p (cut in place), or NULL at the end. */
static char *next_tok(char **p) {
  char *s = *p;
  while (is_blank(*s)) s++;
  if (!*s) {
    *p = s;
    return NULL;
  }
  char *t = s;
  while (*s && !is_blank(*s)) s++;
  if (*s) *s++ = '\0';
  *p = s;
  return t;
}

/* ================================================================ the graph */

void gnn_graph_init(gnn_graph_t *g) { memset(g, 0, sizeof *g); }

void gnn_graph_free(gnn_graph_t *g) {
  free(g->src);
  free(g->dst);
  free(g->x);
  free(g->label);
  gnn_graph_init(g);
}

/* Sorts keys (dst << 32 | src), merges duplicates into g->dups, counts self loops and fills
 * g->src / g->dst (g->nv set by the caller).  Frees nothing.  0 or -1 (out of memory). */
static int keys_to_graph(gnn_graph_t *g, uint64_t *key, uint64_t n) {
  if (radix_kv(key, NULL, n) != 0) return -1;
  uint64_t m = 0;
  for (uint64_t i = 0; i < n; i++)
    if (i == 0 || key[i] != key[i - 1]) key[m++] = key[i];
  g->dups = n - m;
  g->src = xalloc(m, sizeof *g->src);
  g->dst = xalloc(m, sizeof *g->dst);
  if (!g->src || !g->dst) return -1;
  g->self_loops = 0;
  for (uint64_t i = 0; i < m; i++) {
    g->dst[i] = (uint32_t)(key[i] >> 32);
    g->src[i] = (uint32_t)key[i];
    g->self_loops += g->dst[i] == g->src[i];
  }
  g->ne = m;
  return 0;
}

/* ================================================================ presets, generator */

int gnn_graph_preset(const char *name, uint32_t *nv, uint64_t *ne, uint32_t *feat) {
  static const struct {
    const char *name;
    uint32_t nv;
    uint64_t ne;
    uint32_t feat;
  } kPresets[] = {{"cora", 2708, 10556, 1433},
                  {"citeseer", 3327, 9104, 3703},
                  {"pubmed", 19717, 88648, 500}};
  for (size_t i = 0; i < sizeof kPresets / sizeof kPresets[0]; i++) {
    if (name && !strcmp(name, kPresets[i].name)) {
      if (nv) *nv = kPresets[i].nv;
      if (ne) *ne = kPresets[i].ne;
      if (feat) *feat = kPresets[i].feat;
      return 0;
    }
  }
  return -1;
}

#define GEN_GAMMA 2.7

/* Set of unordered pairs a < b, keyed a << 32 | b (never 0): a bitmap of nv x nv bits when that
 * is no larger than the hash table (dense graphs: cache-friendly), else open addressing. */
typedef struct {
  uint64_t *t;      /* hash table, or NULL */
  uint64_t mask;
  uint64_t *bits;   /* bitmap, or NULL */
  uint64_t nv;
} pset_t;

static int pset_add(pset_t *s, uint64_t key) {
  if (s->bits) {
    uint64_t i = (key >> 32) * s->nv + (uint32_t)key, b = 1ull << (i & 63);
    if (s->bits[i >> 6] & b) return 0;
    s->bits[i >> 6] |= b;
    return 1;
  }
  uint64_t i = cutil_mix64(key) & s->mask;
  while (s->t[i]) {
    if (s->t[i] == key) return 0;
    i = (i + 1) & s->mask;
  }
  s->t[i] = key;
  return 1;
}

static int pset_has(const pset_t *s, uint64_t key) {
  if (s->bits) {
    uint64_t i = (key >> 32) * s->nv + (uint32_t)key;
    return (int)(s->bits[i >> 6] >> (i & 63) & 1);
  }
  uint64_t i = cutil_mix64(key) & s->mask;
  while (s->t[i]) {
    if (s->t[i] == key) return 1;
    i = (i + 1) & s->mask;
  }
  return 0;
}

static uint64_t pair_key(uint32_t a, uint32_t b) {
  return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

/* Vose's alias table of the weights: a draw is one uniform index and one comparison. */
typedef struct {
  double *prob;
  uint32_t *alias;
  uint32_t n;
} alias_t;

static int alias_build(alias_t *t, const double *w, uint32_t n) {
  t->n = n;
  t->prob = xalloc(n, sizeof *t->prob);
  t->alias = xalloc(n, sizeof *t->alias);
  uint32_t *small = xalloc(n, sizeof *small), *large = xalloc(n, sizeof *large);
  if (!t->prob || !t->alias || !small || !large) {
    free(small);
    free(large);
    return -1;
  }
  double sum = 0;
  for (uint32_t i = 0; i < n; i++) sum += w[i];
  uint32_t ns = 0, nl = 0;
  for (uint32_t i = 0; i < n; i++) {
    t->prob[i] = w[i] * n / sum;
    t->alias[i] = i;
    if (t->prob[i] < 1.0) small[ns++] = i;
    else large[nl++] = i;
  }
  while (ns && nl) {
    uint32_t s = small[--ns], l = large[nl - 1];
    t->alias[s] = l;
    t->prob[l] -= 1.0 - t->prob[s];
    if (t->prob[l] < 1.0) nl--, small[ns++] = l;
  }
  while (nl) t->prob[large[--nl]] = 1.0;
  while (ns) t->prob[small[--ns]] = 1.0; /* rounding leftovers */
  free(small);
  free(large);
  return 0;
}

static uint32_t alias_draw(const alias_t *t, cutil_rng_t *r) {
  uint32_t i = (uint32_t)cutil_rng_below(r, t->n);
  return cutil_rng_unit(r) < t->prob[i] ? i : t->alias[i];
}

int gnn_graph_gen(gnn_graph_t *g, uint32_t nv, uint64_t ne, uint64_t seed, char *err,
                  size_t errlen) {
  gnn_graph_init(g);
  if (nv < 1 || nv > GNN_GRAPH_MAX_NV)
    return ERR("nv %" PRIu32 " out of range 1..%u", nv, GNN_GRAPH_MAX_NV);
  if (ne & 1)
    return ERR("ne %" PRIu64 " is odd (an undirected graph stores both directions)", ne);
  const uint64_t m = ne / 2, total = (uint64_t)nv * (nv - 1) / 2;
  if (m > total)
    return ERR("ne %" PRIu64 " exceeds nv (nv - 1) = %" PRIu64 " (no self loops, no duplicates)",
               ne, 2 * total);
  if (ne > GNN_GRAPH_MAX_GEN_NE)
    return ERR("ne %" PRIu64 " beyond the generator's limit %" PRIu64, ne,
               (uint64_t)GNN_GRAPH_MAX_GEN_NE);
  g->nv = nv;
  if (m == 0) return 0;

  cutil_rng_t r = cutil_rng_seed(seed);
  uint32_t *perm = xalloc(nv, sizeof *perm);
  double *w = xalloc(nv, sizeof *w);
  alias_t at = {NULL, NULL, nv};
  unsigned char *touched = calloc(nv, 1);
  uint64_t *pairs = xalloc(m, sizeof *pairs), *free_pairs = NULL, *key = NULL;
  uint64_t cap = 16;
  while (cap < 2 * m) cap *= 2;
  pset_t set = {NULL, cap - 1, NULL, nv};
  const uint64_t bitmap_words = ((uint64_t)nv * nv + 63) / 64;
  if (bitmap_words <= cap) set.bits = calloc((size_t)bitmap_words, sizeof(uint64_t));
  else set.t = calloc((size_t)cap, sizeof(uint64_t));
  int rc = -1;
  if (!perm || !w || !touched || !pairs || (!set.t && !set.bits)) {
    (void)ERR("out of memory");
    goto out;
  }
  for (uint32_t i = 0; i < nv; i++) perm[i] = i;
  for (uint32_t i = nv - 1; i > 0; i--) {
    uint32_t j = (uint32_t)cutil_rng_uniform(&r, (uint64_t)i + 1);
    uint32_t t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  const double expo = -1.0 / (GEN_GAMMA - 1.0);
  for (uint32_t i = 0; i < nv; i++) w[i] = pow((double)i + 1.0, expo);
  if (alias_build(&at, w, nv) != 0) {
    (void)ERR("out of memory");
    goto out;
  }

  uint64_t have = 0;
  /* phase 0: a first edge for every vertex still without one (random order), up to m / 2 */
  for (uint32_t t = 0; t < nv && have < m / 2; t++) {
    uint32_t v = perm[t];
    if (touched[v]) continue;
    uint32_t u = v;
    for (int tries = 0; tries < 64 && u == v; tries++) u = alias_draw(&at, &r);
    if (u == v) u = (v + 1 + (uint32_t)cutil_rng_uniform(&r, nv - 1)) % nv;
    uint64_t k = pair_key(u, v);
    pset_add(&set, k); /* new: v had no edge */
    pairs[have++] = k;
    touched[u] = touched[v] = 1;
  }
  /* phase 1: Chung-Lu */
  for (uint64_t rejects = 0, start = have; have < m && rejects < 2 * (have - start) + 1024;) {
    uint32_t a = alias_draw(&at, &r), b = alias_draw(&at, &r);
    if (a == b || !pset_add(&set, pair_key(a, b))) {
      rejects++;
      continue;
    }
    pairs[have++] = pair_key(a, b);
  }
  /* phase 2: uniform */
  if (have < m) {
    const uint64_t want = m - have, nfree = total - have;
    if (want <= nfree / 2 && nfree >= total / 2) { /* a draw succeeds with p >= 1/4 */
      while (have < m) {
        uint32_t a = (uint32_t)cutil_rng_uniform(&r, nv), b = (uint32_t)cutil_rng_uniform(&r, nv);
        if (a != b && pset_add(&set, pair_key(a, b))) pairs[have++] = pair_key(a, b);
      }
    } else {
      free_pairs = xalloc(nfree, sizeof *free_pairs);
      if (!free_pairs) {
        (void)ERR("out of memory");
        goto out;
      }
      uint64_t f = 0;
      for (uint32_t a = 0; a < nv; a++)
        for (uint32_t b = a + 1; b < nv; b++)
          if (!pset_has(&set, pair_key(a, b))) free_pairs[f++] = pair_key(a, b);
      for (uint64_t i = 0; i < want; i++) {
        uint64_t j = i + cutil_rng_uniform(&r, f - i);
        uint64_t t = free_pairs[i];
        free_pairs[i] = free_pairs[j], free_pairs[j] = t;
        pairs[have++] = free_pairs[i];
      }
    }
  }
  key = xalloc(2 * m, sizeof *key);
  if (!key) {
    (void)ERR("out of memory");
    goto out;
  }
  for (uint64_t i = 0; i < m; i++) {
    uint64_t a = perm[pairs[i] >> 32], b = perm[(uint32_t)pairs[i]];
    key[2 * i] = b << 32 | a;
    key[2 * i + 1] = a << 32 | b;
  }
  if (keys_to_graph(g, key, 2 * m) != 0) {
    (void)ERR("out of memory");
    goto out;
  }
  g->dups = 0;
  rc = 0;
out:
  free(perm);
  free(w);
  free(at.prob);
  free(at.alias);
  free(touched);
  free(pairs);
  free(free_pairs);
  free(key);
  free(set.t);
  free(set.bits);
  if (rc) gnn_graph_free(g);
  return rc;
}

/* ================================================================ file reading */

typedef struct {
  const char *path;
  char *data;       /* the whole file, NUL-terminated; lines are cut in place */
  size_t size;
  char *p;          /* the next line */
  long line;        /* number of the line last returned */
  size_t maxlen;
  char *err;
  size_t errlen;
} lines_t;

#define LERR(L, ...) \
  (cutil_seterr_line((L)->err, (L)->errlen, (L)->path, (L)->line, __VA_ARGS__), -1)

static int lines_open(lines_t *L, const char *path, size_t maxlen, char *err, size_t errlen) {
  memset(L, 0, sizeof *L);
  L->path = path, L->maxlen = maxlen, L->err = err, L->errlen = errlen;
  FILE *f = fopen(path, "rb");
  if (!f) return ERR("%s: cannot open: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *d = malloc(cap);
  for (;;) {
    if (!d) break;
    if (cap - n < 2) {
      char *nd = cap <= SIZE_MAX / 2 ? realloc(d, cap * 2) : NULL;
      if (!nd) {
        free(d);
        d = NULL;
        break;
      }
      d = nd, cap *= 2;
    }
    size_t got = fread(d + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int bad = !d ? 1 : ferror(f) ? 2 : 0;
  fclose(f);
  if (bad == 1) return ERR("%s: out of memory", path);
  if (bad == 2) {
    free(d);
    return ERR("%s: read error", path);
  }
  d[n] = '\0';
  L->data = L->p = d, L->size = n;
  return 0;
}

static void lines_close(lines_t *L) {
  free(L->data);
  L->data = L->p = NULL;
}

/* The next line (cut in place, without its '\n'): 1, 0 at the end, -1 on a NUL byte or a line
 * longer than maxlen characters. */
static int lines_next(lines_t *L, char **s) {
  char *end = L->data + L->size;
  if (L->p >= end) return 0;
  char *nl = memchr(L->p, '\n', (size_t)(end - L->p));
  char *e = nl ? nl : end;
  L->line++;
  size_t len = (size_t)(e - L->p);
  if (memchr(L->p, '\0', len)) return LERR(L, "NUL byte in line");
  if (len > L->maxlen) return LERR(L, "line longer than %zu characters", L->maxlen);
  *e = '\0';
  *s = L->p;
  L->p = nl ? nl + 1 : end;
  return 1;
}

/* An id token: 0, or -1 with "bad number" / "beyond 2^31 - 1". */
static int parse_id(lines_t *L, const char *tok, uint64_t *v) {
  int rc = parse_u64(tok, v);
  if (rc == -1) return LERR(L, "bad number '%s'", tok);
  if (rc == -2 || *v >= ID_LIMIT) return LERR(L, "id '%s' beyond 2^31 - 1", tok);
  return 0;
}

/* ---------------------------------------------------------------- edge list */

int gnn_graph_read_edges(gnn_graph_t *g, const char *path, char *err, size_t errlen) {
  gnn_graph_init(g);
  lines_t L;
  if (lines_open(&L, path, LINE_MAX_TXT, err, errlen) != 0) return -1;
  vec64_t keys = {0};
  uint64_t hdr_nv = 0, max_id = 0;
  int have_hdr = 0, rc = -1, r;
  char *s;
  while ((r = lines_next(&L, &s)) == 1) {
    char *c = s;
    while (is_blank(*c)) c++;
    if (*c == '#') {
      char *t = c + 1, *w = next_tok(&t);
      if (!w || strcmp(w, "nv")) continue; /* a plain comment */
      char *nvs = next_tok(&t), *more = next_tok(&t);
      if (!nvs || more) {
        (void)LERR(&L, "bad header: expected '# nv N'");
        goto out;
      }
      if (have_hdr) {
        (void)LERR(&L, "second '# nv' header");
        goto out;
      }
      if (keys.n) {
        (void)LERR(&L, "'# nv' header after the first edge");
        goto out;
      }
      if (parse_u64(nvs, &hdr_nv) != 0) {
        (void)LERR(&L, "bad nv '%s'", nvs);
        goto out;
      }
      if (hdr_nv < 1 || hdr_nv > ID_LIMIT) {
        (void)LERR(&L, "nv %" PRIu64 " out of range 1..%" PRIu64, hdr_nv, (uint64_t)ID_LIMIT);
        goto out;
      }
      have_hdr = 1;
      continue;
    }
    char *h = strchr(c, '#');
    if (h) *h = '\0';
    char *a = next_tok(&c);
    if (!a) continue; /* blank */
    char *b = next_tok(&c), *x = next_tok(&c);
    if (!b) {
      (void)LERR(&L, "missing field: expected 'SRC DST'");
      goto out;
    }
    if (x) {
      (void)LERR(&L, "extra field '%s'", x);
      goto out;
    }
    uint64_t u, v;
    if (parse_id(&L, a, &u) != 0 || parse_id(&L, b, &v) != 0) goto out;
    if (have_hdr && (u >= hdr_nv || v >= hdr_nv)) {
      (void)LERR(&L, "out-of-range id %" PRIu64 " (nv %" PRIu64 ")", u >= hdr_nv ? u : v, hdr_nv);
      goto out;
    }
    if (u > max_id) max_id = u;
    if (v > max_id) max_id = v;
    if (vec_push(&keys, v << 32 | u) != 0) {
      (void)LERR(&L, "out of memory");
      goto out;
    }
  }
  if (r < 0) goto out;
  if (!have_hdr && keys.n == 0) {
    (void)ERR("%s: empty file (no edges and no '# nv' header)", path);
    goto out;
  }
  g->nv = (uint32_t)(have_hdr ? hdr_nv : max_id + 1);
  if (keys_to_graph(g, keys.a, keys.n) != 0) {
    (void)ERR("%s: out of memory", path);
    goto out;
  }
  rc = 0;
out:
  free(keys.a);
  lines_close(&L);
  if (rc) gnn_graph_free(g);
  return rc;
}

/* ---------------------------------------------------------------- CSR */

int gnn_graph_read_csr(gnn_graph_t *g, const char *path, char *err, size_t errlen) {
  gnn_graph_init(g);
  lines_t L;
  if (lines_open(&L, path, LINE_MAX_TXT, err, errlen) != 0) return -1;
  vec64_t off = {0}, keys = {0};
  uint64_t nv = 0, ne = 0, row = 0; /* row: destination of the next column id */
  int state = 0;                    /* 0 header, 1 offsets, 2 column ids, 3 done */
  int rc = -1, r;
  char *s;
  while ((r = lines_next(&L, &s)) == 1) {
    char *h = strchr(s, '#');
    if (h) *h = '\0';
    char *t;
    if (state == 0) {
      char *w = next_tok(&s);
      if (!w) continue;
      char *a = next_tok(&s), *b = next_tok(&s), *x = next_tok(&s);
      if (strcmp(w, "csr") || !a || !b || x) {
        (void)LERR(&L, "expected 'csr NV NE'");
        goto out;
      }
      if (parse_u64(a, &nv) != 0) {
        (void)LERR(&L, "bad NV '%s'", a);
        goto out;
      }
      if (nv < 1 || nv > ID_LIMIT) {
        (void)LERR(&L, "NV %" PRIu64 " out of range 1..%" PRIu64, nv, (uint64_t)ID_LIMIT);
        goto out;
      }
      if (parse_u64(b, &ne) != 0) {
        (void)LERR(&L, "bad NE '%s'", b);
        goto out;
      }
      state = 1;
      continue;
    }
    while ((t = next_tok(&s)) != NULL) {
      uint64_t v;
      if (state == 1) {
        if (parse_u64(t, &v) != 0) {
          (void)LERR(&L, "bad offset '%s'", t);
          goto out;
        }
        if (off.n == 0 && v != 0) {
          (void)LERR(&L, "first offset %" PRIu64 " is not 0", v);
          goto out;
        }
        if (off.n && v < off.a[off.n - 1]) {
          (void)LERR(&L, "decreasing offset %" PRIu64 " after %" PRIu64, v, off.a[off.n - 1]);
          goto out;
        }
        if (v > ne) {
          (void)LERR(&L, "offset %" PRIu64 " beyond NE %" PRIu64, v, ne);
          goto out;
        }
        if (off.n == nv && v != ne) {
          (void)LERR(&L, "last offset %" PRIu64 " is not NE %" PRIu64, v, ne);
          goto out;
        }
        if (vec_push(&off, v) != 0) {
          (void)LERR(&L, "out of memory");
          goto out;
        }
        if (off.n == nv + 1) state = ne ? 2 : 3;
      } else if (state == 2) {
        if (parse_id(&L, t, &v) != 0) goto out;
        if (v >= nv) {
          (void)LERR(&L, "out-of-range id %" PRIu64 " (nv %" PRIu64 ")", v, nv);
          goto out;
        }
        while (off.a[row + 1] <= keys.n) row++; /* skips empty rows; row < nv */
        if (vec_push(&keys, row << 32 | v) != 0) {
          (void)LERR(&L, "out of memory");
          goto out;
        }
        if (keys.n == ne) state = 3;
      } else {
        (void)LERR(&L, "trailing garbage '%s'", t);
        goto out;
      }
    }
  }
  if (r < 0) goto out;
  if (state == 0) {
    (void)ERR("%s: empty file", path);
    goto out;
  }
  if (state == 1) {
    (void)LERR(&L, "truncated: %" PRIu64 " of %" PRIu64 " offsets", off.n, nv + 1);
    goto out;
  }
  if (state == 2) {
    (void)LERR(&L, "truncated: %" PRIu64 " of %" PRIu64 " column ids", keys.n, ne);
    goto out;
  }
  g->nv = (uint32_t)nv;
  if (keys_to_graph(g, keys.a, keys.n) != 0) {
    (void)ERR("%s: out of memory", path);
    goto out;
  }
  rc = 0;
out:
  free(off.a);
  free(keys.a);
  lines_close(&L);
  if (rc) gnn_graph_free(g);
  return rc;
}

/* ---------------------------------------------------------------- Planetoid */

/* String -> index map over strings that stay in place (the file buffer). */
typedef struct {
  const char **k;
  uint32_t *v;
  uint64_t mask, n;
} smap_t;

static uint64_t str_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return cutil_mix64(h);
}

static void smap_free(smap_t *m) {
  free(m->k);
  free(m->v);
  memset(m, 0, sizeof *m);
}

/* Index of s, or -1. */
static int64_t smap_get(const smap_t *m, const char *s) {
  if (!m->k) return -1;
  for (uint64_t i = str_hash(s) & m->mask;; i = (i + 1) & m->mask) {
    if (!m->k[i]) return -1;
    if (!strcmp(m->k[i], s)) return m->v[i];
  }
}

/* Inserts s -> v (s not present).  0 or -1 (out of memory). */
static int smap_put(smap_t *m, const char *s, uint32_t v) {
  if (!m->k || 2 * (m->n + 1) > m->mask + 1) {
    uint64_t cap = m->k ? 2 * (m->mask + 1) : 1024;
    const char **nk = calloc((size_t)cap, sizeof *nk);
    uint32_t *nvv = xalloc(cap, sizeof *nvv);
    if (!nk || !nvv) {
      free(nk);
      free(nvv);
      return -1;
    }
    for (uint64_t i = 0; m->k && i <= m->mask; i++) {
      if (!m->k[i]) continue;
      uint64_t j = str_hash(m->k[i]) & (cap - 1);
      while (nk[j]) j = (j + 1) & (cap - 1);
      nk[j] = m->k[i], nvv[j] = m->v[i];
    }
    free(m->k);
    free(m->v);
    m->k = nk, m->v = nvv, m->mask = cap - 1;
  }
  uint64_t i = str_hash(s) & m->mask;
  while (m->k[i]) i = (i + 1) & m->mask;
  m->k[i] = s, m->v[i] = v, m->n++;
  return 0;
}

int gnn_graph_read_planetoid(gnn_graph_t *g, const char *prefix, int drop_missing, char *err,
                             size_t errlen) {
  gnn_graph_init(g);
  size_t plen = strlen(prefix);
  char *cpath = malloc(plen + 9), *epath = malloc(plen + 7);
  lines_t C, E;
  memset(&C, 0, sizeof C);
  memset(&E, 0, sizeof E);
  smap_t ids = {0}, labels = {0};
  vec64_t keys = {0}, lines_of = {0};
  char **tok = NULL;
  size_t tokcap = 0;
  uint32_t *x = NULL, *lab = NULL;
  uint64_t xcap = 0, labcap = 0, nv = 0, feat = 0;
  int rc = -1, r;
  char *s;
  if (!cpath || !epath) {
    (void)ERR("%s: out of memory", prefix);
    goto out;
  }
  snprintf(cpath, plen + 9, "%s.content", prefix);
  snprintf(epath, plen + 7, "%s.cites", prefix);
  if (lines_open(&C, cpath, LINE_MAX_CONTENT, err, errlen) != 0) goto out;
  while ((r = lines_next(&C, &s)) == 1) {
    size_t nt = 0;
    char *t;
    while ((t = next_tok(&s)) != NULL) {
      if (nt == tokcap) {
        size_t nc = tokcap ? 2 * tokcap : 4096;
        char **ntk = realloc(tok, nc * sizeof *ntk);
        if (!ntk) {
          (void)LERR(&C, "out of memory");
          goto out;
        }
        tok = ntk, tokcap = nc;
      }
      tok[nt++] = t;
    }
    if (nt == 0) continue;
    if (nt < 2) {
      (void)LERR(&C, "expected 'PAPER_ID FEATURES... LABEL'");
      goto out;
    }
    if (nv == 0) feat = nt - 2;
    else if (nt - 2 != feat) {
      (void)LERR(&C, "%zu features, the first line has %" PRIu64, nt - 2, feat);
      goto out;
    }
    if (nv == ID_LIMIT) {
      (void)LERR(&C, "more than %" PRIu64 " papers", (uint64_t)ID_LIMIT);
      goto out;
    }
    int64_t prev = smap_get(&ids, tok[0]);
    if (prev >= 0) {
      (void)LERR(&C, "duplicate paper id '%s' (first on line %" PRIu64 ")", tok[0],
           lines_of.a[prev]);
      goto out;
    }
    if (smap_put(&ids, tok[0], (uint32_t)nv) != 0 || vec_push(&lines_of, (uint64_t)C.line)) {
      (void)LERR(&C, "out of memory");
      goto out;
    }
    if ((nv + 1) * feat > xcap) {
      uint64_t nc = xcap ? 2 * xcap : 1 << 16;
      while (nc < (nv + 1) * feat) nc *= 2;
      uint32_t *nx = nc <= SIZE_MAX / sizeof *nx ? realloc(x, (size_t)nc * sizeof *nx) : NULL;
      if (!nx) {
        (void)LERR(&C, "out of memory");
        goto out;
      }
      x = nx, xcap = nc;
    }
    for (uint64_t f = 0; f < feat; f++) {
      const char *w = tok[1 + f];
      if (!strcmp(w, "0")) x[nv * feat + f] = 0u;
      else if (!strcmp(w, "1")) x[nv * feat + f] = 0x3F800000u;
      else {
        (void)LERR(&C, "feature '%s' is not 0 or 1", w);
        goto out;
      }
    }
    int64_t l = smap_get(&labels, tok[nt - 1]);
    if (l < 0) {
      l = (int64_t)labels.n;
      if (smap_put(&labels, tok[nt - 1], (uint32_t)l) != 0) {
        (void)LERR(&C, "out of memory");
        goto out;
      }
    }
    if (nv == labcap) {
      uint64_t nc = labcap ? 2 * labcap : 1024;
      uint32_t *nl = realloc(lab, (size_t)nc * sizeof *nl);
      if (!nl) {
        (void)LERR(&C, "out of memory");
        goto out;
      }
      lab = nl, labcap = nc;
    }
    lab[nv++] = (uint32_t)l;
  }
  if (r < 0) goto out;
  if (nv == 0) {
    (void)ERR("%s: empty file", cpath);
    goto out;
  }
  if (lines_open(&E, epath, LINE_MAX_TXT, err, errlen) != 0) goto out;
  while ((r = lines_next(&E, &s)) == 1) {
    char *a = next_tok(&s);
    if (!a) continue;
    char *b = next_tok(&s), *c = next_tok(&s);
    if (!b || c) {
      (void)LERR(&E, "expected 'CITED_ID CITING_ID'");
      goto out;
    }
    int64_t cited = smap_get(&ids, a), citing = smap_get(&ids, b);
    if (cited < 0 || citing < 0) {
      if (drop_missing) {
        g->dropped++;
        continue;
      }
      (void)LERR(&E, "missing vertex '%s'", cited < 0 ? a : b);
      goto out;
    }
    uint64_t u = (uint64_t)citing, v = (uint64_t)cited;
    if (vec_push(&keys, v << 32 | u) != 0 || (u != v && vec_push(&keys, u << 32 | v) != 0)) {
      (void)LERR(&E, "out of memory");
      goto out;
    }
  }
  if (r < 0) goto out;
  g->nv = (uint32_t)nv;
  if (keys_to_graph(g, keys.a, keys.n) != 0) {
    (void)ERR("%s: out of memory", epath);
    goto out;
  }
  g->feat = (uint32_t)feat;
  g->x = x, x = NULL;
  g->nclass = (uint32_t)labels.n;
  g->label = lab, lab = NULL;
  rc = 0;
out:
  lines_close(&C);
  lines_close(&E);
  smap_free(&ids);
  smap_free(&labels);
  free(keys.a);
  free(lines_of.a);
  free(tok);
  free(x);
  free(lab);
  free(cpath);
  free(epath);
  if (rc) gnn_graph_free(g);
  return rc;
}

/* ================================================================ writers */

int gnn_graph_write_edges(const gnn_graph_t *g, FILE *f) {
  fprintf(f, "# nv %" PRIu32 "\n", g->nv);
  for (uint64_t k = 0; k < g->ne; k++)
    fprintf(f, "%" PRIu32 " %" PRIu32 "\n", g->src[k], g->dst[k]);
  return ferror(f) ? -1 : 0;
}

int gnn_graph_write_csr(const gnn_graph_t *g, FILE *f) {
  uint64_t *off = calloc((size_t)g->nv + 2, sizeof *off);
  uint32_t *col = xalloc(g->ne, sizeof *col);
  if (!off || !col) {
    free(off);
    free(col);
    return -1;
  }
  for (uint64_t k = 0; k < g->ne; k++) off[g->dst[k] + 2]++;
  for (uint64_t r = 0; r <= g->nv; r++) off[r + 1] += off[r];
  for (uint64_t k = 0; k < g->ne; k++) col[off[g->dst[k] + 1]++] = g->src[k];
  /* off[r] is now the first entry of row r */
  fprintf(f, "csr %" PRIu32 " %" PRIu64 "\n", g->nv, g->ne);
  for (uint64_t r = 0; r <= g->nv; r++)
    fprintf(f, "%" PRIu64 "%c", off[r], (r % 16 == 15 || r == g->nv) ? '\n' : ' ');
  for (uint64_t k = 0; k < g->ne; k++)
    fprintf(f, "%" PRIu32 "%c", col[k], (k % 16 == 15 || k + 1 == g->ne) ? '\n' : ' ');
  free(off);
  free(col);
  return ferror(f) ? -1 : 0;
}

/* ================================================================ helpers */

int gnn_graph_sort(gnn_graph_t *g, int by_dst) {
  uint64_t *key = xalloc(g->ne, sizeof *key);
  if (!key) return -1;
  for (uint64_t k = 0; k < g->ne; k++)
    key[k] = by_dst ? (uint64_t)g->dst[k] << 32 | g->src[k] : (uint64_t)g->src[k] << 32 | g->dst[k];
  /* equal keys are equal edges, so any sort of the keys is stable */
  if (radix_kv(key, NULL, g->ne) != 0) {
    free(key);
    return -1;
  }
  for (uint64_t k = 0; k < g->ne; k++) {
    uint32_t hi = (uint32_t)(key[k] >> 32), lo = (uint32_t)key[k];
    g->dst[k] = by_dst ? hi : lo;
    g->src[k] = by_dst ? lo : hi;
  }
  free(key);
  return 0;
}

int64_t gnn_graph_add_self_loops(gnn_graph_t *g) {
  unsigned char *has = calloc((size_t)g->nv + 1, 1);
  if (!has) return -1;
  for (uint64_t k = 0; k < g->ne; k++)
    if (g->src[k] == g->dst[k]) has[g->src[k]] = 1;
  uint64_t add = 0;
  for (uint32_t v = 0; v < g->nv; v++) add += !has[v];
  uint64_t n = g->ne + add;
  uint64_t *key = xalloc(n, sizeof *key);
  uint32_t *src = xalloc(n, sizeof *src), *dst = xalloc(n, sizeof *dst);
  if (!key || !src || !dst) goto oom;
  for (uint64_t k = 0; k < g->ne; k++) key[k] = (uint64_t)g->dst[k] << 32 | g->src[k];
  for (uint64_t v = 0, k = g->ne; v < g->nv; v++)
    if (!has[v]) key[k++] = v << 32 | v;
  if (radix_kv(key, NULL, n) != 0) goto oom;
  for (uint64_t k = 0; k < n; k++) dst[k] = (uint32_t)(key[k] >> 32), src[k] = (uint32_t)key[k];
  free(g->src);
  free(g->dst);
  g->src = src, g->dst = dst, g->ne = n;
  g->self_loops = g->nv;
  free(key);
  free(has);
  return (int64_t)add;
oom:
  free(key);
  free(src);
  free(dst);
  free(has);
  return -1;
}

void gnn_graph_degrees(const gnn_graph_t *g, uint64_t *in, uint64_t *out) {
  if (in) memset(in, 0, (size_t)g->nv * sizeof *in);
  if (out) memset(out, 0, (size_t)g->nv * sizeof *out);
  for (uint64_t k = 0; k < g->ne; k++) {
    if (in) in[g->dst[k]]++;
    if (out) out[g->src[k]]++;
  }
}

/* From sorted keys (no degree arrays: O(ne) memory however large nv is). */
static uint64_t longest_run(const uint64_t *k, uint64_t n) {
  uint64_t best = 0;
  for (uint64_t a = 0, b; a < n; a = b) {
    for (b = a + 1; b < n && k[b] == k[a];) b++;
    if (b - a > best) best = b - a;
  }
  return best;
}

int gnn_graph_stats(const gnn_graph_t *g, gnn_graph_stats_t *st) {
  memset(st, 0, sizeof *st);
  const uint64_t ne = g->ne;
  uint64_t *in = xalloc(ne, sizeof *in), *out = xalloc(ne, sizeof *out);
  int rc = -1;
  if (!in || !out) goto done;
  for (uint64_t k = 0; k < ne; k++) in[k] = g->dst[k], out[k] = g->src[k];
  if (radix_kv(in, NULL, ne) != 0 || radix_kv(out, NULL, ne) != 0) goto done;
  st->max_in = longest_run(in, ne);
  st->max_out = longest_run(out, ne);
  uint64_t touched = 0, i = 0, j = 0; /* distinct ids in the merge of the two */
  while (i < ne || j < ne) {
    uint64_t v = j == ne || (i < ne && in[i] < out[j]) ? in[i] : out[j];
    touched++;
    while (i < ne && in[i] == v) i++;
    while (j < ne && out[j] == v) j++;
  }
  st->isolated = g->nv > touched ? g->nv - touched : 0;
  rc = 0;
done:
  free(in);
  free(out);
  return rc;
}

/* ================================================================ sharding */

uint32_t gnn_graph_grid_side(uint32_t nv, uint32_t n) {
  return n ? (uint32_t)(((uint64_t)nv + n - 1) / n) : 0;
}

static uint32_t gpe_of(uint32_t src, uint32_t dst, uint32_t n, unsigned p, int push) {
  return (push ? src % n : dst % n) % p;
}

int gnn_graph_shard_stats(const gnn_graph_t *g, uint32_t n, unsigned p, int push,
                          gnn_shard_stats_t *st) {
  memset(st, 0, sizeof *st);
  if (n == 0 || p == 0) return -1;
  st->s = gnn_graph_grid_side(g->nv, n);
  const uint64_t ne = g->ne;
  if (ne == 0) return 0;
  uint64_t *key = xalloc(ne, sizeof *key), *val = xalloc(ne, sizeof *val);
  uint64_t *cnt = calloc(p, sizeof *cnt);
  int rc = -1;
  if (!key || !val || !cnt) goto out;
  for (uint64_t k = 0; k < ne; k++) {
    key[k] = (uint64_t)(g->src[k] / n) << 32 | g->dst[k] / n;
    val[k] = gpe_of(g->src[k], g->dst[k], n, p, push);
  }
  if (radix_kv(key, val, ne) != 0) goto out;
  for (uint64_t a = 0; a < ne;) {
    uint64_t b = a, len = 0;
    while (b < ne && key[b] == key[a]) {
      uint64_t c = ++cnt[val[b]];
      if (c > len) len = c;
      b++;
    }
    for (uint64_t k = a; k < b; k++) cnt[val[k]] = 0;
    st->nonempty++;
    if (b - a > st->max_shard) st->max_shard = b - a;
    if (len > st->count_edges) st->count_edges = len;
    st->words += len * p;
    a = b;
  }
  rc = 0;
out:
  free(key);
  free(val);
  free(cnt);
  return rc;
}

uint64_t gnn_graph_count_edges(const gnn_graph_t *g, uint32_t n, unsigned p, int push) {
  gnn_shard_stats_t st;
  if (gnn_graph_shard_stats(g, n, p, push, &st) != 0) return UINT64_MAX;
  return st.count_edges;
}

/* ---------------------------------------------------------------- Algorithm 3 */

static uint64_t isqrt64(uint64_t x) {
  uint64_t r = (uint64_t)sqrt((double)x);
  while (r > 0 && (r > UINT32_MAX || r * r > x)) r--;
  while (r + 1 <= UINT32_MAX && (r + 1) * (r + 1) <= x) r++;
  return r;
}

/* Nodes of node_bytes each that cap_bytes / 2 (double buffering) holds, counted per GPE. */
static uint64_t cap_nodes(uint64_t cap_bytes, unsigned p, uint64_t a, uint64_t b, uint64_t c) {
  if (a > UINT64_MAX / b || a * b > UINT64_MAX / c) return 0;
  uint64_t node_bytes = a * b * c;
  return (cap_bytes / 2 / p) / node_bytes * p;
}

uint32_t gnn_graph_nodes_per_shard(const gnn_graph_t *g, const gnn_alg3_params_t *prm,
                                   gnn_alg3_result_t *res, char *err, size_t errlen) {
  gnn_alg3_result_t R;
  memset(&R, 0, sizeof R);
  if (res) memset(res, 0, sizeof *res);
  const unsigned p = prm->p, eb = prm->elem_bytes ? prm->elem_bytes : 4;
  if (p < 1 || p > 65535) return ERR0("p %u out of range 1..65535", p);
  if (prm->block_d < 1 || prm->if_feat < 1 || prm->of_feat < 1)
    return ERR0("block_d, if_feat and of_feat must be at least 1");
  if (g->nv < 1) return ERR0("the graph has no vertices");
  /* lines 1, 2: the nodes the feature SRAMs hold */
  uint64_t n_agg = cap_nodes(prm->omem_bytes, p, prm->block_d, prm->of_feat, eb);
  uint64_t n_inp = cap_nodes(prm->imem_bytes, p, prm->block_d, prm->if_feat, eb);
  if (n_inp == 0)
    return ERR0("the input-feature SRAM (half of %" PRIu64 " bytes) holds fewer than "
                         "p = %u nodes of %u x %u words of %u bytes",
                         prm->imem_bytes, p, prm->block_d, prm->if_feat, eb);
  if (n_agg == 0)
    return ERR0("the modified-feature SRAM (half of %" PRIu64 " bytes) holds fewer "
                         "than p = %u nodes of %u x %u words of %u bytes",
                         prm->omem_bytes, p, prm->block_d, prm->of_feat, eb);
  R.n_cap = n_agg < n_inp ? n_agg : n_inp;
  R.emax_usable = prm->emax / 2; /* line 3, halved */
  const uint64_t emax = R.emax_usable;
  /* line 4: |G.V| rounded up to a multiple of p (a graph that fits stays one shard) */
  uint64_t nvp = ((uint64_t)g->nv + p - 1) / p * p;
  R.n1 = (uint32_t)(R.n_cap < nvp ? R.n_cap : nvp);
  R.e1 = gnn_graph_count_edges(g, R.n1, p, prm->push); /* line 5 */
  if (R.e1 == UINT64_MAX) return ERR0("out of memory");
  if (R.e1 <= emax) { /* line 6: fits (<=, not the paper's <) */
    R.step = 1, R.n_shard = R.n1, R.e_shard = R.e1;
  } else {
    /* lines 8, 9: c = E1 / N1^2, N = sqrt(E_max / c) = N1 sqrt(E_max / E1) */
    double n2 = (double)R.n1 * sqrt((double)emax / (double)R.e1);
    uint64_t k2 = (uint64_t)(n2 / p);
    R.n2 = (uint32_t)((k2 ? k2 : 1) * p);
    if (R.n2 > R.n1) R.n2 = R.n1;
    R.e2 = gnn_graph_count_edges(g, R.n2, p, prm->push); /* line 10 */
    if (R.e2 == UINT64_MAX) return ERR0("out of memory");
    if (R.e2 <= emax) { /* line 11 */
      R.step = 2, R.n_shard = R.n2, R.e_shard = R.e2;
    } else {
      /* line 13: a fully connected shard of N = p k nodes puts N^2 / p = p k^2 edges on each
       * GPE: the largest k with p k^2 <= E_max */
      uint64_t k3 = isqrt64(emax / p);
      if (k3 == 0)
        return ERR0("the edge SRAM's usable half (%" PRIu64 " of %" PRIu64
                             " entries) holds fewer than p = %u edges: even the worst case of "
                             "p nodes does not fit (COUNT_EDGES %" PRIu64 " at N = %" PRIu32 ")",
                             emax, prm->emax, p, R.e2, R.n2);
      uint64_t n3 = k3 * p;
      R.step = 3;
      R.n_shard = (uint32_t)(n3 < R.n1 ? n3 : R.n1);
      R.e_shard = gnn_graph_count_edges(g, R.n_shard, p, prm->push);
      if (R.e_shard == UINT64_MAX) return ERR0("out of memory");
    }
  }
  if (res) *res = R;
  return R.n_shard;
}

/* ---------------------------------------------------------------- shard lists */

void gnn_shards_free(gnn_shards_t *sh) {
  free(sh->shard);
  free(sh->cnt);
  free(sh->gpe_list);
  free(sh->inter);
  memset(sh, 0, sizeof *sh);
}

int gnn_shards_build(const gnn_graph_t *g, uint32_t n, unsigned p, int push, gnn_shards_t *sh,
                     char *err, size_t errlen) {
  memset(sh, 0, sizeof *sh);
  if (n < 1 || n > GNN_SHARD_MAX_N)
    return ERR("n %" PRIu32 " out of range 1..%u", n, GNN_SHARD_MAX_N);
  if (p < 1 || p > 65535) return ERR("p %u out of range 1..65535", p);
  sh->n = n, sh->s = gnn_graph_grid_side(g->nv, n), sh->p = p, sh->push = push;
  const uint64_t ne = g->ne;
  uint64_t *key = xalloc(ne, sizeof *key), *idx = xalloc(ne, sizeof *idx);
  int rc = -1;
  if (!key || !idx) goto oom;
  /* pass 1: (GPE, primary local id), the edge index carried (stable: ties in edge order) */
  for (uint64_t k = 0; k < ne; k++) {
    uint32_t sl = g->src[k] % n, dl = g->dst[k] % n;
    key[k] = (uint64_t)gpe_of(g->src[k], g->dst[k], n, p, push) << 16 | (push ? sl : dl);
    idx[k] = k;
  }
  if (radix_kv(key, idx, ne) != 0) goto oom;
  /* pass 2: the shard (U, V), stable */
  for (uint64_t j = 0; j < ne; j++) {
    uint64_t k = idx[j];
    key[j] = (uint64_t)(g->src[k] / n) << 32 | g->dst[k] / n;
  }
  if (radix_kv(key, idx, ne) != 0) goto oom;
  for (uint64_t j = 0; j < ne; j++)
    if (j == 0 || key[j] != key[j - 1]) sh->nshards++;
  sh->shard = calloc((size_t)(sh->nshards ? sh->nshards : 1), sizeof *sh->shard);
  sh->cnt = sh->nshards <= SIZE_MAX / sizeof *sh->cnt / p
                ? calloc((size_t)(sh->nshards ? sh->nshards * p : 1), sizeof *sh->cnt)
                : NULL;
  if (!sh->shard || !sh->cnt) goto oom;
  for (uint64_t j = 0, i = 0; j < ne; i++) {
    gnn_shard_t *s = &sh->shard[i];
    s->u = (uint32_t)(key[j] >> 32), s->v = (uint32_t)key[j];
    uint64_t *c = &sh->cnt[i * p];
    for (; j < ne && key[j] == ((uint64_t)s->u << 32 | s->v); j++) {
      uint64_t k = idx[j];
      uint64_t gp = gpe_of(g->src[k], g->dst[k], n, p, push);
      if (++c[gp] > s->len) s->len = c[gp];
      s->ne++;
    }
    s->off = sh->words;
    if (s->len * p > UINT64_MAX - sh->words) goto oom;
    sh->words += s->len * p;
    if (s->len > sh->count_edges) sh->count_edges = s->len;
  }
  sh->gpe_list = xalloc(sh->words, sizeof *sh->gpe_list);
  sh->inter = xalloc(sh->words, sizeof *sh->inter);
  if (!sh->gpe_list || !sh->inter) goto oom;
  for (uint64_t w = 0; w < sh->words; w++) sh->gpe_list[w] = sh->inter[w] = GNN_EDGE_NULL;
  uint64_t *fill = calloc(p, sizeof *fill);
  if (!fill) goto oom;
  for (uint64_t j = 0, i = 0; j < ne; i++) {
    const gnn_shard_t *s = &sh->shard[i];
    for (uint64_t e = 0; e < s->ne; e++, j++) {
      uint64_t k = idx[j];
      uint32_t gp = gpe_of(g->src[k], g->dst[k], n, p, push);
      uint32_t w = gnn_edge_pack(g->src[k] % n, g->dst[k] % n);
      uint64_t pos = fill[gp]++;
      sh->gpe_list[s->off + gp * s->len + pos] = w;
      sh->inter[s->off + pos * p + gp] = w;
    }
    for (unsigned q = 0; q < p; q++) fill[q] = 0;
  }
  free(fill);
  rc = 0;
  goto out;
oom:
  (void)ERR("out of memory");
out:
  free(key);
  free(idx);
  if (rc) gnn_shards_free(sh);
  return rc;
}

int64_t gnn_shards_find(const gnn_shards_t *sh, uint32_t u, uint32_t v) {
  uint64_t want = (uint64_t)u << 32 | v, lo = 0, hi = sh->nshards;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    uint64_t k = (uint64_t)sh->shard[mid].u << 32 | sh->shard[mid].v;
    if (k == want) return (int64_t)mid;
    if (k < want) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* ================================================================ Table 6.1 */

void gnn_cost_src_stationary(uint64_t s, uint64_t i, uint64_t *reads, uint64_t *writes) {
  /* each row keeps its source block for the whole row (S I); the destination blocks are new in
   * the first row and reloaded in every later one except the one the S-pattern keeps:
   * (S - 1)^2 = (S - 1) S - S + 1; each row writes back all but the block kept, plus the last
   * one at the end: S (S - 1) + 1 */
  if (reads) *reads = s ? s * i + (s - 1) * s - s + 1 : 0;
  if (writes) *writes = s ? s * s - s + 1 : 0;
}

void gnn_cost_dst_stationary(uint64_t s, uint64_t i, uint64_t *reads, uint64_t *writes) {
  /* each column reads every source block but the one the S-pattern keeps (S in the first
   * column): (S^2 - S + 1) blocks of I features; each destination block written once */
  if (reads) *reads = s ? (s * s - s + 1) * i : 0;
  if (writes) *writes = s;
}
