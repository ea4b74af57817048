/* nnoc_traffic -- traffic generator of Neu-NoC: writes the traffic file format of
 * cmodel/include/neunoc.h.  Design notes in docs/neunoc_workloads.md; the short form:
 *
 * usage: nnoc_traffic --pattern uniform|transpose|bitcomp|hotspot|nn [-o FILE|-] [--seed S (1)]
 *          [--data-w 16] [--tag-w 8] [--cnt-w 4] [--vc-depth 8]
 *   or:  nnoc_traffic --check FILE [--data-w/--tag-w/--cnt-w/--vc-depth] [-o FILE|-]
 *          (reads FILE with the library reader, checks every packet with nnoc_pkt_check,
 *          rewrites it in canonical form with -o; errors "path:line: reason")
 *   synthetic: [--k 8] [--cols 9] [--rows 9] [--rate R (0.01 packets/PE/cycle)]
 *          [--len N | A:B (words, 4)] [--cycles N (1000)] [--mcast-frac F (0)]
 *          [--mcast-dests D (4 routers)] [--zero-frac Z (0)] [--zero-run L (4)]
 *          [--hotspot-frac F (0.2)] [--hotspot PE (PE 0 of the centre router)]
 *   nn:    --map MAPFILE (from nnoc_map -o) [--images N (10)] [--rate R (0.01 images/cycle)]
 *          [--layer-delay D (100 cycles)] [--threshold T (0) | --dense] [--no-multicast]
 * Bad arguments or a bad map or traffic file: one-line error on stderr, exit 2; an unwritable
 * output or no memory: exit 1.
 * A one-line summary goes to stderr ("nnoc_traffic: summary key=value ...").  The file is a
 * function of the arguments only.
 *
 * Synthetic: every cycle 0..cycles-1, every PE (in id order) creates a packet with probability
 * R (Bernoulli).  Destination PE: uniform over the other PEs; transpose: router (x, y) sends to
 * router (y, x), same ring position, on a square mesh; on another mesh whose PE count is 4^n,
 * the PE id's bit halves swap (d = s_lo : s_hi; the same on a square mesh of single PEs);
 * PEs that map to themselves send nothing; bitcomp (bit complement): PE NP-1-s (NP a power of
 * two: every id bit inverted; on a mesh of single PEs (x, y) -> (n-1-x, m-1-y));
 * hotspot: with probability F the hotspot PE, else uniform.  With probability mcast-frac a
 * packet is instead a multicast to D distinct routers other than its own (uniform) at one
 * ring position (uniform).  Length: N words, or uniform in A..B.  Words: a two-state Markov
 * chain per packet, zero runs of geometric length with mean L, non-zero runs with mean
 * L (1 - Z) / Z so that a fraction Z of the words is zero; non-zero words uniform in
 * 1 .. 2^DataW - 1.  Multicast packets must satisfy 1 + B <= vc-depth (refused otherwise).
 * NN: the mapping's layers (input layer excluded) run image after image: image i arrives at a
 * cycle drawn by a Bernoulli(R) process; mapped layer l's PEs create their output packets at
 * t_i + l * D (a fixed compute delay per layer; no closed loop).  Each PE of layer l sends its
 * neurons' activations (one word each) to every ring of layer l + 1: with multicast one packet
 * per distinct dst_pe mask (rings holding K PEs get all K bits; a layer's last, partly filled
 * ring its own mask) whose dst_mesh has all those rings' routers; a multicast that would break
 * 1 + nwords <= vc-depth is cut into packets of vc-depth - 1 words; with --no-multicast one
 * packet per destination ring.  Activations: a = max(0, z), z ~ N(0, 1) per neuron and image
 * (a stream seeded by seed, image, layer and PE), zeroed when a < T, quantized as unsigned
 * Q(0, DataW) of a / 4 (saturating at 4.0) and rounded to nearest; so the zero fraction is
 * Phi(T) (50% at T = 0).  --dense: a = |z| instead, and at least one LSB, so no word is zero
 * (the paper's "Neu-NoC without the zero-flit design": packing then changes nothing).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neunoc.h"

#define PROG "nnoc_traffic"
#include "cutil.h"

static const char *g_out_path = "stdout";

/* ---------------------------------------------------------------- arguments */

/* ---------------------------------------------------------------- random numbers */

/* Streams are cutil's splitmix64, seeded through cutil_rng_seed (neighbouring seeds give
 * independent streams). */
static int rng_below(cutil_rng_t *r, int n) { return (int)cutil_rng_below(r, (uint64_t)n); }
static int bernoulli(cutil_rng_t *r, double p) { return p > 0 && cutil_rng_unit(r) < p; }

/* ---------------------------------------------------------------- output and statistics */

static FILE *g_out;
static nnoc_cfg_t g_cfg;
static int g_vc_depth = 8;
static uint32_t *g_tagctr; /* per-source packet counter */
static struct {
  long long pkts, mcast, words, zeros, flits_unpacked, flits_packed;
} g_st;

static void count(const nnoc_pkt_t *p) {
  g_st.pkts++;
  if (nnoc_mask_popcount(p->dst_mesh, nnoc_routers(&g_cfg)) > 1) g_st.mcast++;
  g_st.words += p->nwords;
  for (int i = 0; i < p->nwords; i++) g_st.zeros += p->words[i] == 0;
  g_st.flits_unpacked += nnoc_mesh_flits(&g_cfg, p, 0);
  g_st.flits_packed += nnoc_mesh_flits(&g_cfg, p, 1);
}

static void emit(nnoc_pkt_t *p) {
  p->tag = g_tagctr[p->src] & ((1u << g_cfg.tag_w) - 1u);
  g_tagctr[p->src]++;
  char e[256];
  if (nnoc_pkt_check(&g_cfg, p, g_vc_depth, e, sizeof e) != 0)
    cutil_die(PROG, "internal error: generated packet refused by nnoc_pkt_check: %s", e);
  if (nnoc_traffic_write_pkt(g_out, &g_cfg, p) != 0) cutil_die(PROG, "%s: write error", g_out_path);
  count(p);
}

/* Closes the output (when there is one) and prints the one-line summary on stderr:
 * "nnoc_traffic: summary <key>=<val> k=... packed_ratio=...". */
static void finish(const char *key, const char *val) {
  if (g_out) {
    int bad = ferror(g_out);
    bad |= g_out == stdout ? fflush(g_out) != 0 : fclose(g_out) != 0;
    if (bad) cutil_die(PROG, "%s: write error", g_out_path);
  }
  fprintf(stderr,
          "%s: summary %s=%s k=%d mesh=%dx%d packets=%lld multicast=%lld words=%lld "
          "zero_words=%lld flits_unpacked=%lld flits_packed=%lld packed_ratio=%.4f\n",
          PROG, key, val, g_cfg.k, g_cfg.cols, g_cfg.rows, g_st.pkts, g_st.mcast, g_st.words,
          g_st.zeros, g_st.flits_unpacked, g_st.flits_packed,
          g_st.flits_unpacked ? (double)g_st.flits_packed / (double)g_st.flits_unpacked : 1.0);
}

/* --check: reads a traffic file with the library reader, checks every packet against the
 * network (nnoc_pkt_check with --vc-depth) and, with -o, writes it back in canonical form. */
static void run_check(const char *path) {
  static nnoc_pkt_t p;
  char e[600];
  nnoc_traffic_t *t = nnoc_traffic_open(path, &g_cfg, e, sizeof e);
  if (!t) cutil_fail(PROG, "%s", e);
  if (g_out && nnoc_traffic_write_header(g_out, &g_cfg) != 0)
    cutil_die(PROG, "%s: write error", g_out_path);
  long long n = 0;
  int rc;
  while ((rc = nnoc_traffic_next(t, &p, e, sizeof e)) == 1) {
    n++;
    char pe[256];
    if (nnoc_pkt_check(&g_cfg, &p, g_vc_depth, pe, sizeof pe) != 0)
      cutil_fail(PROG, "%s: packet %lld (cycle %" PRIu64 "): %s", path, n, p.t, pe);
    if (g_out && nnoc_traffic_write_pkt(g_out, &g_cfg, &p) != 0)
      cutil_die(PROG, "%s: write error", g_out_path);
    count(&p);
  }
  nnoc_traffic_close(t);
  if (rc < 0) cutil_fail(PROG, "%s", e);
}

static void clear_dst(nnoc_pkt_t *p) {
  memset(p->dst_mesh, 0, sizeof p->dst_mesh);
  p->dst_pe = 0;
}

/* ---------------------------------------------------------------- synthetic traffic */

typedef struct {
  int pattern; /* 0 uniform, 1 transpose, 2 hotspot, 4 bit complement */
  int id_bits; /* transpose on a non-square mesh: bits of a PE id (0: router transpose) */
  double rate;
  int len_lo, len_hi;
  long cycles;
  double mcast_frac;
  int mcast_dests;
  double zero_frac, zero_run;
  double hot_frac;
  int hot_pe;
} synth_t;

static void fill_words(cutil_rng_t *r, const synth_t *s, nnoc_pkt_t *p) {
  uint32_t maxw = g_cfg.data_w >= 32 ? 0xffffffffu : (1u << g_cfg.data_w) - 1u;
  double z = s->zero_frac;
  int zero = bernoulli(r, z);
  double leave_zero = 1.0 / s->zero_run;
  double leave_nz = z > 0 && z < 1 ? 1.0 / (s->zero_run * (1.0 - z) / z) : 0.0;
  for (int i = 0; i < p->nwords; i++) {
    if (i > 0 && z > 0 && z < 1) {
      if (zero ? bernoulli(r, leave_zero) : bernoulli(r, leave_nz)) zero = !zero;
    }
    if (z >= 1) zero = 1;
    p->words[i] = zero ? 0 : 1u + (uint32_t)cutil_rng_below(r, maxw);
  }
}

static void run_synth(const synth_t *s, uint64_t seed) {
  static nnoc_pkt_t p;
  cutil_rng_t r = cutil_rng_seed(seed);
  int nr = nnoc_routers(&g_cfg), k = g_cfg.k, npe = nnoc_pes(&g_cfg);
  int *pick = malloc(sizeof(int) * (size_t)nr);
  if (!pick) cutil_die(PROG, "out of memory");
  for (long t = 0; t < s->cycles; t++) {
    for (int src = 0; src < npe; src++) {
      if (!bernoulli(&r, s->rate)) continue;
      memset(&p, 0, offsetof(nnoc_pkt_t, words));
      p.t = (uint64_t)t;
      p.src = src;
      int sr = src / k;
      if (s->mcast_frac > 0 && bernoulli(&r, s->mcast_frac)) {
        /* D distinct routers other than the source's: a partial Fisher-Yates draw */
        int m = 0;
        for (int q = 0; q < nr; q++)
          if (q != sr) pick[m++] = q;
        for (int q = 0; q < s->mcast_dests; q++) {
          int j = q + rng_below(&r, m - q);
          int tmp = pick[q];
          pick[q] = pick[j];
          pick[j] = tmp;
          nnoc_mask_set(p.dst_mesh, pick[q], 1);
        }
        p.dst_pe = 1u << rng_below(&r, k);
      } else {
        int dst;
        if (s->pattern == 1 && s->id_bits == 0) {
          int x = sr % g_cfg.cols, y = sr / g_cfg.cols;
          dst = (x * g_cfg.cols + y) * k + src % k;
          if (dst == src) continue; /* the diagonal sends nothing */
        } else if (s->pattern == 1) {
          int h = s->id_bits / 2, lo = src & ((1 << h) - 1);
          dst = (lo << h) | (src >> h);
          if (dst == src) continue;
        } else if (s->pattern == 4) {
          dst = npe - 1 - src;
          if (dst == src) continue;
        } else if (s->pattern == 2 && src != s->hot_pe && bernoulli(&r, s->hot_frac)) {
          dst = s->hot_pe;
        } else {
          dst = rng_below(&r, npe - 1);
          if (dst >= src) dst++;
        }
        clear_dst(&p);
        nnoc_mask_set(p.dst_mesh, dst / k, 1);
        p.dst_pe = 1u << (dst % k);
      }
      p.nwords = s->len_lo + (s->len_hi > s->len_lo ? rng_below(&r, s->len_hi - s->len_lo + 1) : 0);
      fill_words(&r, s, &p);
      emit(&p);
    }
  }
  free(pick);
}

/* ---------------------------------------------------------------- mapping files (nnoc_map) */

#define MAX_LAYERS 16

typedef struct {
  int k, cols, rows, npe, input, nl;
  int neurons[MAX_LAYERS], pes[MAX_LAYERS], rings[MAX_LAYERS];
  int *router[MAX_LAYERS]; /* router of ring j of layer l */
  int *rpes[MAX_LAYERS];   /* PEs in that ring */
} nnmap_t;

static void map_err(const char *path, long line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
static void map_err(const char *path, long line, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cutil_fail(PROG, "%s:%ld: %s", path, line, msg);
}

/* The largest number a map field may hold: above every neuron, PE, ring and router count the
 * tools make, and small enough that the layer checks' sums cannot overflow. */
#define MAP_FIELD_MAX (1L << 24)

/* Decimal fields tok[0..nt-1] (0..MAP_FIELD_MAX): 0 when exactly n were there; -1 a field is
 * missing, extra or not a decimal number; -2 a number is above MAP_FIELD_MAX. */
static int fields(char **tok, int nt, long *v, int n) {
  if (nt != n) return -1;
  for (int i = 0; i < nt; i++) {
    uint64_t x;
    if (cutil_parse_dec(tok[i], 0, UINT64_MAX, &x)) return -1;
    if (x > (uint64_t)MAP_FIELD_MAX) return -2;
    v[i] = (long)x;
  }
  return 0;
}

/* fields(), or the map's error: "expected '<form>'", or a number above MAP_FIELD_MAX. */
static void need_fields(const char *path, long line, char **tok, int nt, long *v, int n,
                        const char *form) {
  int r = fields(tok, nt, v, n);
  if (r == -2) map_err(path, line, "a number above %ld in '%s'", MAP_FIELD_MAX, form);
  if (r) map_err(path, line, "expected '%s'", form);
}

static void read_map(const char *path, nnmap_t *m) {
  FILE *f = fopen(path, "r");
  if (!f) cutil_fail(PROG, "%s: cannot open: %s", path, strerror(errno));
  memset(m, 0, sizeof *m);
  char buf[1024], why[64];
  long line = 0;
  int have_hdr = 0, have_net = 0, have_npe = 0, have_input = 0, nring = 0, total_rings = 0;
  int *used = NULL;
  int got;
  while ((got = cutil_read_line(f, buf, sizeof buf, &line, why, sizeof why)) != 0) {
    if (got < 0) map_err(path, line, "%s", why);
    char *tok[7];
    int more;
    int nt = cutil_tokenize(buf, tok, 7, &more);
    if (!nt) continue;
    char *kw = tok[0];
    char **rest = tok + 1;
    nt = more ? 6 : nt - 1; /* more than 6 fields: too many for any line */
    long v[5];
    if (!have_hdr) {
      if (strcmp(kw, "nnoc-map") || fields(rest, nt, v, 1) || v[0] != 1)
        map_err(path, line, "expected the header 'nnoc-map 1'");
      have_hdr = 1;
    } else if (!strcmp(kw, "net")) {
      if (have_net) map_err(path, line, "second 'net' line");
      need_fields(path, line, rest, nt, v, 3, "net <K> <Cols> <Rows>");
      nnoc_cfg_t c = g_cfg;
      c.k = (int)v[0], c.cols = (int)v[1], c.rows = (int)v[2];
      char e[200];
      if (v[0] > NNOC_MAX_K || v[1] > NNOC_MAX_ROUTERS || v[2] > NNOC_MAX_ROUTERS ||
          nnoc_cfg_check(&c, e, sizeof e) != 0)
        map_err(path, line, "bad network %ld %ld %ld", v[0], v[1], v[2]);
      m->k = c.k, m->cols = c.cols, m->rows = c.rows;
      used = calloc((size_t)(c.cols * c.rows), sizeof(int));
      if (!used) cutil_die(PROG, "out of memory");
      have_net = 1;
    } else if (!strcmp(kw, "bench")) {
      /* informational */
    } else if (!strcmp(kw, "neurons-per-pe")) {
      if (fields(rest, nt, v, 1) || v[0] < 1 || v[0] > NNOC_MAX_WORDS)
        map_err(path, line, "expected 'neurons-per-pe <1..%d>'", NNOC_MAX_WORDS);
      m->npe = (int)v[0];
      have_npe = 1;
    } else if (!strcmp(kw, "input")) {
      need_fields(path, line, rest, nt, v, 1, "input <neurons>");
      m->input = (int)v[0];
      have_input = 1;
    } else if (!strcmp(kw, "layer")) {
      if (!have_net || !have_npe) map_err(path, line, "'layer' before 'net' and 'neurons-per-pe'");
      need_fields(path, line, rest, nt, v, 4, "layer <l> <neurons> <pes> <rings>");
      if (v[0] != m->nl || m->nl == MAX_LAYERS)
        map_err(path, line, "layer %ld out of order (expected %d)", v[0], m->nl);
      if (v[1] < 1 || v[2] != (v[1] + m->npe - 1) / m->npe || v[3] != (v[2] + m->k - 1) / m->k)
        map_err(path, line, "layer %ld: neurons, PEs and rings do not agree", v[0]);
      int l = m->nl++;
      m->neurons[l] = (int)v[1], m->pes[l] = (int)v[2], m->rings[l] = (int)v[3];
      total_rings += m->rings[l];
      if (total_rings > m->cols * m->rows)
        map_err(path, line, "more rings than the %d routers", m->cols * m->rows);
      m->router[l] = malloc(sizeof(int) * (size_t)m->rings[l]);
      m->rpes[l] = malloc(sizeof(int) * (size_t)m->rings[l]);
      if (!m->router[l] || !m->rpes[l]) cutil_die(PROG, "out of memory");
    } else if (!strcmp(kw, "ring")) {
      need_fields(path, line, rest, nt, v, 4, "ring <l> <j> <router> <npes>");
      /* rings come in layer order, ring order */
      int l = 0, j = nring;
      while (l < m->nl && j >= m->rings[l]) j -= m->rings[l], l++;
      if (l >= m->nl) map_err(path, line, "more rings than the layer lines declare");
      if (v[0] != l || v[1] != j)
        map_err(path, line, "ring %ld %ld out of order (expected ring %d %d)", v[0], v[1], l, j);
      if (v[2] < 0 || v[2] >= m->cols * m->rows)
        map_err(path, line, "router %ld out of range (0..%d)", v[2], m->cols * m->rows - 1);
      if (used[v[2]]) map_err(path, line, "router %ld holds two rings", v[2]);
      int want = m->pes[l] - j * m->k;
      if (want > m->k) want = m->k;
      if (v[3] != want) map_err(path, line, "ring %d %d holds %d PEs, not %ld", l, j, want, v[3]);
      used[v[2]] = 1;
      m->router[l][j] = (int)v[2];
      m->rpes[l][j] = (int)v[3];
      nring++;
    } else {
      map_err(path, line, "unknown line '%s'", kw);
    }
  }
  if (ferror(f)) cutil_die(PROG, "%s: read error", path);
  fclose(f);
  free(used);
  if (!have_hdr) cutil_fail(PROG, "%s: empty file (no 'nnoc-map 1' header)", path);
  if (!have_net || !have_npe || !have_input || m->nl < 2)
    cutil_fail(PROG, "%s: incomplete mapping (needs net, neurons-per-pe, input and two layers)",
              path);
  if (nring != total_rings)
    cutil_fail(PROG, "%s: %d ring lines, the layers declare %d", path, nring, total_rings);
}

/* ---------------------------------------------------------------- NN layer traffic */

typedef struct {
  long long t;
  int image, layer;
} event_t;

static int event_cmp(const void *a, const void *b) {
  const event_t *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->image != y->image) return x->image < y->image ? -1 : 1;
  return x->layer - y->layer;
}

static void run_nn(const nnmap_t *m, long images, double rate, long delay, double thr, int dense,
                   int multicast, uint64_t seed) {
  static nnoc_pkt_t p;
  cutil_rng_t r = cutil_rng_seed(seed);
  int nev = (int)images * (m->nl - 1);
  event_t *ev = malloc(sizeof(event_t) * (size_t)nev);
  if (!ev) cutil_die(PROG, "out of memory");
  long long t = 0;
  int e = 0;
  for (long i = 0; i < images; i++) {
    while (!bernoulli(&r, rate)) t++;
    for (int l = 0; l + 1 < m->nl; l++) ev[e++] = (event_t){t + (long long)l * delay, (int)i, l};
    t++;
  }
  qsort(ev, (size_t)nev, sizeof *ev, event_cmp);
  uint32_t maxq = g_cfg.data_w >= 32 ? 0xffffffffu : (1u << g_cfg.data_w) - 1u;
  int k = m->k;
  for (e = 0; e < nev; e++) {
    int l = ev[e].layer;
    for (int j = 0; j < m->rings[l]; j++)
      for (int pos = 0; pos < m->rpes[l][j]; pos++) {
        int q = j * k + pos; /* PE index within the layer */
        int src = m->router[l][j] * k + pos;
        int nw = m->neurons[l] - q * m->npe;
        if (nw > m->npe) nw = m->npe;
        cutil_rng_t a = cutil_rng_seed(cutil_mix64(seed) ^ ((uint64_t)ev[e].image << 40) ^
                                       ((uint64_t)l << 32) ^ (uint64_t)src);
        uint32_t act[NNOC_MAX_WORDS];
        for (int w = 0; w < nw; w++) {
          double z = cutil_rng_normal(&a);
          double v = dense ? fabs(z) : z > 0 ? z : 0;
          if (v < thr) v = 0;
          double qv = floor(v / 4.0 * (double)maxq + 0.5);
          act[w] = qv >= (double)maxq ? maxq : (uint32_t)qv;
          if (dense && act[w] == 0) act[w] = 1;
        }
        /* destination rings of layer l + 1, grouped by their dst_pe mask */
        int nd = m->rings[l + 1];
        for (int g = 0; g < nd; g++) {
          uint32_t mask = m->rpes[l + 1][g] >= 32 ? 0xffffffffu : (1u << m->rpes[l + 1][g]) - 1u;
          int first = 1;
          for (int h = 0; h < g; h++)
            if (m->rpes[l + 1][h] == m->rpes[l + 1][g]) first = 0;
          if (multicast && !first) continue;
          memset(&p, 0, offsetof(nnoc_pkt_t, words));
          p.t = (uint64_t)ev[e].t;
          p.src = src;
          p.dst_pe = mask;
          int ndst = 0;
          for (int h = 0; h < nd; h++) {
            if (multicast ? m->rpes[l + 1][h] != m->rpes[l + 1][g] : h != g) continue;
            nnoc_mask_set(p.dst_mesh, m->router[l + 1][h], 1);
            ndst++;
          }
          int chunk = ndst > 1 ? g_vc_depth - 1 : NNOC_MAX_WORDS;
          for (int off = 0; off < nw; off += chunk) {
            p.nwords = nw - off < chunk ? nw - off : chunk;
            memcpy(p.words, act + off, sizeof(uint32_t) * (size_t)p.nwords);
            emit(&p);
          }
        }
      }
  }
  free(ev);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
  const char *pattern = NULL, *out = NULL, *map = NULL, *len = NULL, *check = NULL;
  long seed = 1, k = 8, cols = 9, rows = 9, cycles = 1000, images = 10, delay = 100;
  long mcast_dests = 4, hot_pe = -1;
  double rate = 0.01, mcast_frac = 0, zero_frac = 0, zero_run = 4, hot_frac = 0.2, thr = 0;
  int multicast = 1, dense = 0, saw_synth = 0, saw_nn = 0;
  g_cfg = (nnoc_cfg_t){8, 9, 9, 16, 8, 4, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define STR(name, var)                                 \
  if (!strcmp(a, name)) {                              \
    if (!v) cutil_fail(PROG, "%s needs a value", name); \
    var = v, i++;                                      \
    continue;                                          \
  }
    STR("--pattern", pattern);
    STR("-o", out);
    STR("--map", map);
    STR("--check", check);
    if (!strcmp(a, "--len")) {
      if (!v) cutil_fail(PROG, "--len needs a value");
      len = v, i++, saw_synth = 1;
      continue;
    }
#undef STR
    if (!strcmp(a, "--seed")) seed = cutil_opt_long(PROG, a, v, 0, 2000000000L);
    else if (!strcmp(a, "--data-w")) g_cfg.data_w = (int)cutil_opt_long(PROG, a, v, 1, 32);
    else if (!strcmp(a, "--tag-w")) g_cfg.tag_w = (int)cutil_opt_long(PROG, a, v, 1, 16);
    else if (!strcmp(a, "--cnt-w")) g_cfg.cnt_w = (int)cutil_opt_long(PROG, a, v, 1, 16);
    else if (!strcmp(a, "--vc-depth")) g_vc_depth = (int)cutil_opt_long(PROG, a, v, 2, 1 << 20);
    else if (!strcmp(a, "--rate")) rate = cutil_opt_double(PROG, a, v, 0, 1);
    else if (!strcmp(a, "--k")) k = cutil_opt_long(PROG, a, v, 1, NNOC_MAX_K), saw_synth = 1;
    else if (!strcmp(a, "--cols"))
      cols = cutil_opt_long(PROG, a, v, 1, NNOC_MAX_ROUTERS), saw_synth = 1;
    else if (!strcmp(a, "--rows"))
      rows = cutil_opt_long(PROG, a, v, 1, NNOC_MAX_ROUTERS), saw_synth = 1;
    else if (!strcmp(a, "--cycles"))
      cycles = cutil_opt_long(PROG, a, v, 1, 100000000L), saw_synth = 1;
    else if (!strcmp(a, "--mcast-frac"))
      mcast_frac = cutil_opt_double(PROG, a, v, 0, 1), saw_synth = 1;
    else if (!strcmp(a, "--mcast-dests"))
      mcast_dests = cutil_opt_long(PROG, a, v, 2, NNOC_MAX_ROUTERS), saw_synth = 1;
    else if (!strcmp(a, "--zero-frac"))
      zero_frac = cutil_opt_double(PROG, a, v, 0, 1), saw_synth = 1;
    else if (!strcmp(a, "--zero-run"))
      zero_run = cutil_opt_double(PROG, a, v, 1, 1e6), saw_synth = 1;
    else if (!strcmp(a, "--hotspot-frac"))
      hot_frac = cutil_opt_double(PROG, a, v, 0, 1), saw_synth = 1;
    else if (!strcmp(a, "--hotspot"))
      hot_pe = cutil_opt_long(PROG, a, v, 0, 1 << 20), saw_synth = 1;
    else if (!strcmp(a, "--images")) images = cutil_opt_long(PROG, a, v, 1, 1000000), saw_nn = 1;
    else if (!strcmp(a, "--layer-delay"))
      delay = cutil_opt_long(PROG, a, v, 0, 100000000L), saw_nn = 1;
    else if (!strcmp(a, "--threshold")) thr = cutil_opt_double(PROG, a, v, 0, 1e6), saw_nn = 1;
    else if (!strcmp(a, "--no-multicast")) {
      multicast = 0, saw_nn = 1;
      continue;
    } else if (!strcmp(a, "--dense")) {
      dense = 1, saw_nn = 1;
      continue;
    } else
      cutil_fail(PROG,
                "unknown argument '%s' (usage: nnoc_traffic --pattern uniform|transpose|bitcomp|hotspot|nn "
                "[options] [-o FILE])",
                a);
    i++;
  }
  if (check) {
    if (pattern || map || saw_synth || saw_nn)
      cutil_fail(PROG, "--check takes only --data-w, --tag-w, --cnt-w, --vc-depth and -o");
    if (out) {
      g_out_path = out;
      g_out = !strcmp(out, "-") ? stdout : fopen(out, "w");
      if (!g_out) cutil_die(PROG, "%s: cannot open for writing: %s", out, strerror(errno));
    }
    run_check(check);
    finish("check", check);
    return 0;
  }
  if (!pattern)
    cutil_fail(PROG, "no --pattern (uniform, transpose, bitcomp, hotspot or nn) and no --check FILE");
  int pat;
  if (!strcmp(pattern, "uniform")) pat = 0;
  else if (!strcmp(pattern, "transpose")) pat = 1;
  else if (!strcmp(pattern, "hotspot")) pat = 2;
  else if (!strcmp(pattern, "bitcomp")) pat = 4;
  else if (!strcmp(pattern, "nn")) pat = 3;
  else cutil_fail(PROG, "--pattern: '%s' is not uniform, transpose, bitcomp, hotspot or nn", pattern);
  char e[200];
  nnmap_t m;
  synth_t s = {pat, 0, rate, 4, 4, cycles, mcast_frac, (int)mcast_dests, zero_frac, zero_run,
               hot_frac, (int)hot_pe};
  if (pat == 3) {
    if (!map) cutil_fail(PROG, "--pattern nn needs --map MAPFILE (written by nnoc_map -o)");
    if (saw_synth)
      cutil_fail(PROG, "--pattern nn takes its network from the map; synthetic options refused");
    if (rate <= 0) cutil_fail(PROG, "--rate must be > 0 for --pattern nn (images per cycle)");
    if (dense && thr > 0)
      cutil_fail(PROG, "--dense (no zero words) and --threshold exclude each other");
    read_map(map, &m);
    g_cfg.k = m.k, g_cfg.cols = m.cols, g_cfg.rows = m.rows;
    if (m.npe > NNOC_MAX_WORDS) cutil_fail(PROG, "neurons-per-pe above %d", NNOC_MAX_WORDS);
  } else {
    if (map || saw_nn)
      cutil_fail(PROG,
                "--map, --images, --layer-delay, --threshold, --dense, --no-multicast are "
                "for --pattern nn");
    g_cfg.k = (int)k, g_cfg.cols = (int)cols, g_cfg.rows = (int)rows;
    if (nnoc_cfg_check(&g_cfg, e, sizeof e) != 0) cutil_fail(PROG, "%s", e);
    if (len) {
      char *end;
      errno = 0;
      long lo = (*len >= '0' && *len <= '9') ? strtol(len, &end, 10) : -1, hi = lo;
      if (lo >= 0 && *end == ':') {
        const char *h = end + 1;
        hi = (*h >= '0' && *h <= '9') ? strtol(h, &end, 10) : -1;
      }
      if (lo < 0 || hi < lo || *end || errno || hi > NNOC_MAX_WORDS)
        cutil_fail(PROG, "--len: '%s' is not N or A:B with 0 <= A <= B <= %d", len, NNOC_MAX_WORDS);
      s.len_lo = (int)lo, s.len_hi = (int)hi;
    }
    int nr = nnoc_routers(&g_cfg);
    int npe_all = nnoc_pes(&g_cfg), bits = 0;
    while ((1 << bits) < npe_all) bits++;
    int pow2 = (1 << bits) == npe_all;
    if (pat == 1 && cols != rows) {
      if (!pow2 || bits % 2)
        cutil_fail(PROG, "--pattern transpose needs a square mesh or 4^n PEs (%ldx%ld, %d PEs)",
                  cols, rows, npe_all);
      s.id_bits = bits;
    }
    if (pat == 4 && !pow2)
      cutil_fail(PROG, "--pattern bitcomp needs a power-of-two PE count (%d PEs)", npe_all);
    if (pat == 2) {
      if (hot_pe < 0) s.hot_pe = ((rows / 2) * (int)cols + (int)cols / 2) * (int)k;
      if (s.hot_pe >= nnoc_pes(&g_cfg))
        cutil_fail(PROG, "--hotspot %d is not a PE of the network (0..%d)", s.hot_pe,
                  nnoc_pes(&g_cfg) - 1);
    } else if (hot_pe >= 0) {
      cutil_fail(PROG, "--hotspot is for --pattern hotspot");
    }
    if (nnoc_pes(&g_cfg) < 2) cutil_fail(PROG, "the network has one PE: nothing to send");
    if (mcast_frac > 0) {
      if (mcast_dests > nr - 1)
        cutil_fail(PROG, "--mcast-dests %ld: the mesh has only %d other routers", mcast_dests,
                  nr - 1);
      if (1 + s.len_hi > g_vc_depth)
        cutil_fail(
            PROG,
            "multicast packets of up to %d words break 1 + nwords <= vc-depth (%d): lower --len "
            "or raise --vc-depth",
            s.len_hi, g_vc_depth);
    }
    if (zero_frac > 0 && zero_frac < 1 && zero_run * (1 - zero_frac) / zero_frac < 1)
      cutil_fail(PROG,
                "--zero-frac %g with --zero-run %g: non-zero runs would be shorter than one word "
                "(need zero-frac <= run / (run + 1))",
                zero_frac, zero_run);
  }
  int npe = nnoc_pes(&g_cfg);
  if (nnoc_cfg_check(&g_cfg, e, sizeof e) != 0) cutil_fail(PROG, "%s", e);
  g_tagctr = calloc((size_t)npe, sizeof(uint32_t));
  if (!g_tagctr) cutil_die(PROG, "out of memory");
  if (!out || !strcmp(out, "-")) {
    g_out = stdout;
  } else {
    g_out_path = out;
    g_out = fopen(out, "w");
    if (!g_out) cutil_die(PROG, "%s: cannot open for writing: %s", out, strerror(errno));
  }
  if (nnoc_traffic_write_header(g_out, &g_cfg) != 0) cutil_die(PROG, "%s: write error", g_out_path);
  fprintf(g_out, "# nnoc_traffic");
  for (int i = 1; i < argc; i++) fprintf(g_out, " %s", argv[i]);
  fprintf(g_out, "\n");
  if (pat == 3) {
    run_nn(&m, images, rate, delay, thr, dense, multicast, (uint64_t)seed);
    for (int l = 0; l < m.nl; l++) free(m.router[l]), free(m.rpes[l]);
  } else {
    run_synth(&s, (uint64_t)seed);
  }
  free(g_tagctr);
  finish("pattern", pattern);
  return 0;
}
