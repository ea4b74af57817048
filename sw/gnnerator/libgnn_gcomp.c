/* libgnn_gcomp.c -- random graph instruction streams for co-simulating the GNNerator Graph
 * Engine (gnn_gcomp.h). */
#include "gnnerator/gnn_gcomp.h"

#include <inttypes.h>
#include <string.h>

#include "cutil.h"

#define ERR(...) (cutil_seterr(err, errlen, __VA_ARGS__), -1)

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t umin(uint64_t a, uint64_t b) { return a < b ? a : b; }

void gnn_random_edges(uint64_t seed, unsigned pct_null, uint32_t *dst, size_t n) {
  cutil_rng_t r = cutil_rng_seed(seed);
  for (size_t i = 0; i < n; i++) {
    if (cutil_rng_below(&r, 100) < pct_null) {
      dst[i] = GNN_EDGE_NULL;
      continue;
    }
    const uint32_t s = (uint32_t)cutil_rng_below(&r, GNN_RAND_NODES);
    /* one edge in three goes to one of four hot destinations */
    const uint32_t d = cutil_rng_below(&r, 3) == 0 ? (uint32_t)cutil_rng_below(&r, 4) * 7u
                                                   : (uint32_t)cutil_rng_below(&r, GNN_RAND_NODES);
    dst[i] = s | d << 16;
  }
}

typedef struct {
  const gnn_cfg_t *c;
  const gnn_grand_region_t *rg;
  cutil_rng_t r;
  uint64_t P, L, D[3];
} gz_t;

static uint64_t gu(gz_t *z, uint64_t n) { return n ? cutil_rng_below(&z->r, n) : 0; }

/* A DRAM address for a span of `span` words in [base, base + words). */
static uint32_t in_region(gz_t *z, uint64_t base, uint64_t words, uint64_t span) {
  return (uint32_t)(base + gu(z, words - span + 1));
}

/* A legal GLOAD/GSTORE of features (mem IF or MF). */
static gnn_insn_t feat_insn(gz_t *z, int store, unsigned mem) {
  const uint64_t d = z->D[mem];
  uint64_t dim = 1 + gu(z, umin(255, 3 * z->L));
  if (dim > d * z->L) dim = d * z->L;
  const uint64_t ch = cdiv(dim, z->L);
  const uint64_t rows = 1 + gu(z, umin(d / ch, 8));
  const uint64_t n = (rows - 1) * z->P + 1 + gu(z, z->P);
  const uint64_t base = gu(z, 2) * d + gu(z, d - rows * ch + 1);
  const uint64_t stride = gu(z, 4) == 0 ? 0 : dim + gu(z, 4);
  const uint64_t span = (n - 1) * stride + dim;
  uint32_t addr = store ? in_region(z, z->rg->out_base, z->rg->out_words, span)
                        : in_region(z, z->rg->in_base, z->rg->in_words, span);
  /* one load in 16 ends at the last DRAM word (2^addr_w - 1): legal, the edge of RANGE's DRAM
     check (the words there are never written: they read 0) */
  if (!store && gu(z, 16) == 0) addr = (uint32_t)((1ull << z->c->addr_w) - span);
  return store ? gnn_enc_gstore((unsigned)base, (unsigned)n, (unsigned)dim, addr, (uint32_t)stride)
               : gnn_enc_gload(mem, (unsigned)base, (unsigned)n, (unsigned)dim, addr,
                               (uint32_t)stride);
}

static gnn_insn_t edge_insn(gz_t *z) {
  const uint64_t d = z->D[GNN_MEM_EDGE];
  const uint64_t nl = 1 + gu(z, umin(d, 32));
  const uint64_t base = gu(z, 2) * d + gu(z, d - nl + 1);
  const uint64_t stride = gu(z, 8) == 0 ? 0 : z->P + (gu(z, 4) == 0 ? gu(z, z->P + 1) : 0);
  const uint64_t span = (nl - 1) * stride + z->P;
  return gnn_enc_gload(GNN_MEM_EDGE, (unsigned)base, (unsigned)nl, 0,
                       in_region(z, z->rg->edge_base, z->rg->edge_words, span), (uint32_t)stride);
}

static gnn_insn_t grun_insn(gz_t *z) {
  gnn_grun_t g;
  memset(&g, 0, sizeof g);
  const uint64_t df = z->D[GNN_MEM_IF], dm = z->D[GNN_MEM_MF], de = z->D[GNN_MEM_EDGE];
  g.mode = gu(z, 10) < 7 ? GNN_GM_EDGES : GNN_GM_STREAM;
  g.apply = (unsigned)gu(z, 4);
  g.sfu = (unsigned)gu(z, 3); /* none, ReLU, exp */
  g.red = (unsigned)gu(z, 4);
  g.ch = (unsigned)(1 + gu(z, umin(3, umin(df, dm))));
  const uint64_t rows_max = umin(df, dm) / g.ch;
  g.nodes = (unsigned)(1 + gu(z, umin(rows_max * z->P, GNN_RAND_NODES + 8)));
  const uint64_t lines = cdiv(g.nodes, z->P) * g.ch;
  g.if0 = (unsigned)(gu(z, 2) * df + gu(z, df - lines + 1));
  g.if1 = (unsigned)(gu(z, 2) * df + gu(z, df - lines + 1));
  g.mf = (unsigned)(gu(z, 2) * dm + gu(z, dm - lines + 1));
  if (g.mode == GNN_GM_EDGES) {
    g.f0sel = (unsigned)gu(z, 4) == 0;
    g.f1sel = (unsigned)gu(z, 2);
    g.count = (unsigned)(1 + gu(z, umin(de, 24)));
    g.ebase = (unsigned)(gu(z, 2) * de + gu(z, de - g.count + 1));
  }
  return gnn_enc_grun(&g);
}

static gnn_insn_t legal_insn(gz_t *z) {
  switch (gu(z, 12)) {
    case 0: case 1: return edge_insn(z);
    case 2: case 3: return feat_insn(z, 0, GNN_MEM_IF);
    case 4: return feat_insn(z, 0, GNN_MEM_MF);
    case 5: case 6: return feat_insn(z, 1, GNN_MEM_MF);
    case 7: {
      const uint64_t d = z->D[GNN_MEM_MF], n = 1 + gu(z, umin(d, 16));
      return gnn_enc_gfill((unsigned)(gu(z, 2) * d + gu(z, d - n + 1)), (unsigned)n,
                           gnn_rand_fp32(&z->r, 30));
    }
    default: return grun_insn(z);
  }
}

/* A malformed instruction of error code e (1..5) from a legal one. */
static gnn_insn_t bad_insn(gz_t *z, int e) {
  gnn_insn_t in = legal_insn(z);
  const unsigned op = gnn_get(&in, GNN_F_OP);
  const int mem_op = op == GNN_OP_GLOAD || op == GNN_OP_GSTORE;
  switch (e) {
    case GNN_E_OPCODE:
      gnn_set(&in, GNN_F_OP, gu(z, 2) ? 7u : 12u + (unsigned)gu(z, 4));
      break;
    case GNN_E_FIELD:
      if (gu(z, 2)) { /* a reserved bit */
        const unsigned bit =
            op == GNN_OP_GFILL  ? (gu(z, 2) ? 4 + (unsigned)gu(z, 12) : 80 + (unsigned)gu(z, 48))
            : op == GNN_OP_GRUN ? (gu(z, 2) ? 14 + (unsigned)gu(z, 2) : 120 + (unsigned)gu(z, 8))
                                : (gu(z, 2) ? 6 + (unsigned)gu(z, 2) : 112 + (unsigned)gu(z, 16));
        in.w[bit / 32] |= 1u << (bit % 32);
      } else if (op == GNN_OP_GRUN) {
        if (gu(z, 2)) gnn_set(&in, GNN_G_MODE, 2 + (unsigned)gu(z, 2));
        else gnn_set(&in, GNN_G_SFU, 3u);
      } else if (mem_op) {
        gnn_set(&in, GNN_G_MEM, op == GNN_OP_GSTORE ? (unsigned)gu(z, 2) : 3u);
      } else {
        in.w[3] |= 1u << 31;
      }
      break;
    case GNN_E_SIZE:
      if (op == GNN_OP_GRUN) gnn_set(&in, gu(z, 2) ? 48 : 112, gu(z, 2) ? 16 : 8, 0);
      else gnn_set(&in, GNN_G_N, 0);
      break;
    case GNN_E_WIDTH:
      in = feat_insn(z, (int)gu(z, 2), GNN_MEM_MF);
      gnn_set(&in, GNN_G_DIM, 0);
      break;
    default: /* RANGE: a range across the bank boundary or past the memory, or DRAM past 2^aw */
      if (mem_op && gu(z, 2)) {
        gnn_set(&in, GNN_F_ADDR, (uint32_t)((1ull << z->c->addr_w) - 1 - gu(z, 2)));
        gnn_set(&in, GNN_F_STRIDE, 1 + (uint32_t)gu(z, 4));
        if (gnn_get(&in, GNN_G_N) < 2 && gnn_get(&in, GNN_G_MEM) == GNN_MEM_EDGE && z->P < 4)
          gnn_set(&in, GNN_G_N, 2);
      } else if (op == GNN_OP_GRUN) {
        gnn_set(&in, GNN_G_MF, (unsigned)(2 * z->D[GNN_MEM_MF] - 1 + gu(z, 2)));
        gnn_set(&in, GNN_G_NODES, (unsigned)(z->P + 1 + gu(z, 8)));
      } else {
        const unsigned m = op == GNN_OP_GFILL ? GNN_MEM_MF : gnn_get(&in, GNN_G_MEM);
        gnn_set(&in, GNN_G_BASE, (unsigned)(z->D[m] - 1 + gu(z, 2) * z->D[m]));
        if (gnn_get(&in, GNN_G_N) < 2 * z->P) gnn_set(&in, GNN_G_N, (unsigned)(2 * z->P));
      }
      break;
  }
  return in;
}

int gnn_random_gprogram(const gnn_cfg_t *cfg, uint64_t seed, size_t n, unsigned pct_bad,
                        const gnn_grand_region_t *rg, gnn_prog_t *prog, char *err, size_t errlen) {
  if (!cfg || cfg->gpes < 1) return ERR("the configuration has no Graph Engine");
  if (pct_bad > 100) return ERR("pct_bad %u out of range 0..100", pct_bad);
  gz_t z;
  z.c = cfg;
  z.rg = rg;
  z.r = cutil_rng_seed(seed);
  z.P = (uint64_t)cfg->gpes;
  z.L = (uint64_t)cfg->lanes;
  for (int m = 0; m < 3; m++) z.D[m] = (uint64_t)cfg->gdepth[m];
  const uint64_t dmax = z.D[0] > z.D[1] ? (z.D[0] > z.D[2] ? z.D[0] : z.D[2])
                                        : (z.D[1] > z.D[2] ? z.D[1] : z.D[2]);
  const uint64_t need = z.P * dmax * (z.L > z.P ? z.L : z.P) + 32 * z.P * (3 * z.L + 4);
  if (rg->in_words < need || rg->edge_words < need || rg->out_words < need)
    return ERR("the random graph stream's regions need at least %" PRIu64 " words each", need);
  const uint64_t A = 1ull << cfg->addr_w;
  if (rg->in_base + rg->in_words > A || rg->edge_base + rg->edge_words > A ||
      rg->out_base + rg->out_words > A)
    return ERR("a region of the random graph stream runs past the 2^%d-word DRAM", cfg->addr_w);
  int oom = 0;
  if (rg->init_memories)
    for (unsigned bank = 0; bank < 2; bank++) {
      oom |= gnn_prog_push(prog, gnn_enc_gload(GNN_MEM_EDGE, (unsigned)(bank * z.D[0]),
                                               (unsigned)z.D[0], 0, (uint32_t)rg->edge_base,
                                               (uint32_t)z.P));
      for (unsigned m = GNN_MEM_IF; m <= GNN_MEM_MF; m++)
        oom |= gnn_prog_push(prog, gnn_enc_gload(m, (unsigned)(bank * z.D[m]),
                                                 (unsigned)(z.P * z.D[m]), (unsigned)z.L,
                                                 (uint32_t)rg->in_base, (uint32_t)z.L));
    }
  for (size_t i = 0; i < n; i++) {
    const int bad = gu(&z, 100) < pct_bad;
    oom |= gnn_prog_push(prog, bad ? bad_insn(&z, 1 + (int)gu(&z, 5)) : legal_insn(&z));
  }
  return oom ? ERR("out of memory") : 0;
}

/* ================================================================== the GNN compiler */
#include <math.h>
#include <stdlib.h>

#define NEG_INF 0xFF800000u
#define NZERO 0x80000000u

typedef struct {
  const gnn_cfg_t *c;
  const gnn_layer_opts_t *o;
  gnn_layer_info_t *info;
  uint64_t P, L, DE, DF, DM;
  uint32_t n, S, nv;
  const gnn_shards_t *sh;
  uint64_t edges_addr, scale_addr, scale_w; /* the scale table: nv rows of scale_w words */
  int red;                                   /* GNN_RD_SUM or GNN_RD_MAX */
  int gcn, stream;                           /* GCN's edge mul; a stream pass after the edges */
  unsigned stream_sfu;
  /* one dimension block */
  unsigned bd, ch;                           /* its words and lines a node */
  uint64_t rows;                             /* node lines a GPE: ceil(n / P) */
  uint64_t src, src_w, src_off;              /* features: base, row words, block's first word */
  uint64_t part, part_w;                     /* partial sums (rows of part_w words) */
  uint64_t dst, dst_w;                       /* the block's result: base + first word, row words */
  int if_res[2];                             /* source block resident in each IF bank */
  int if_next, e_next, m_next;
  gnn_prog_t *p;
  int oom;
} gc_t;

static uint32_t nb_of(const gc_t *z, uint32_t blk) {
  const uint64_t first = (uint64_t)blk * z->n;
  return (uint32_t)umin(z->n, z->nv - first);
}

static void emit(gc_t *z, gnn_insn_t in) { z->oom |= gnn_prog_push(z->p, in) != 0; }

/* Source block U into an IF bank (features, and GCN's scale after them); returns the bank. */
static int load_src(gc_t *z, uint32_t u) {
  for (int b = 0; b < 2; b++)
    if (z->if_res[b] == (int)u) return b;
  const int b = z->if_next;
  z->if_next ^= 1;
  const uint32_t nb = nb_of(z, u);
  emit(z, gnn_enc_gload(GNN_MEM_IF, (unsigned)(b * z->DF), nb, z->bd,
                        (uint32_t)(z->src + (uint64_t)u * z->n * z->src_w + z->src_off),
                        (uint32_t)z->src_w));
  z->info->gloads_feat++, z->info->feat_rd_blocks++;
  if (z->gcn) {
    emit(z, gnn_enc_gload(GNN_MEM_IF, (unsigned)(b * z->DF + z->rows * z->ch), nb, z->bd,
                          (uint32_t)(z->scale_addr + (uint64_t)u * z->n * z->scale_w),
                          (uint32_t)z->scale_w));
    z->info->gloads_feat++, z->info->feat_rd_blocks++;
  }
  z->if_res[b] = (int)u;
  return b;
}

/* The edges of shard index si and its GRUN into MF lines at mf. */
static void run_shard(gc_t *z, int64_t si, int ifb, unsigned mf) {
  const gnn_shard_t *s = &z->sh->shard[si];
  const int eb = z->e_next;
  z->e_next ^= 1;
  emit(z, gnn_enc_gload(GNN_MEM_EDGE, (unsigned)(eb * z->DE), (unsigned)s->len, 0,
                        (uint32_t)(z->edges_addr + s->off), (uint32_t)z->P));
  z->info->gloads_edge++;
  gnn_grun_t g;
  memset(&g, 0, sizeof g);
  g.mode = GNN_GM_EDGES;
  g.apply = z->gcn ? GNN_AP_MUL : GNN_AP_PASS;
  g.red = (unsigned)z->red;
  g.ebase = (unsigned)(eb * z->DE);
  g.count = (unsigned)s->len;
  g.nodes = z->n;
  g.if0 = (unsigned)(ifb * z->DF);
  g.if1 = (unsigned)(ifb * z->DF + (z->gcn ? z->rows * z->ch : 0));
  g.mf = mf;
  g.ch = z->ch;
  emit(z, gnn_enc_grun(&g));
  z->info->gruns++;
}

/* The stream pass of destination block v in MF lines at mf: MF = sfu(scale[v] * MF). */
static void stream_pass(gc_t *z, uint32_t v, unsigned mf) {
  /* the scale goes into the IF bank the next source block would take */
  const int b = z->if_next;
  z->if_next ^= 1;
  z->if_res[b] = -1;
  const uint32_t nb = nb_of(z, v);
  emit(z, gnn_enc_gload(GNN_MEM_IF, (unsigned)(b * z->DF), nb, z->bd,
                        (uint32_t)(z->scale_addr + (uint64_t)v * z->n * z->scale_w),
                        (uint32_t)z->scale_w));
  z->info->gloads_feat++, z->info->feat_rd_blocks++;
  gnn_grun_t g;
  memset(&g, 0, sizeof g);
  g.mode = GNN_GM_STREAM;
  g.apply = GNN_AP_MULM;
  g.sfu = z->stream_sfu;
  g.red = GNN_RD_WRITE;
  g.nodes = nb;
  g.if0 = (unsigned)(b * z->DF);
  g.mf = mf;
  g.ch = z->ch;
  emit(z, gnn_enc_grun(&g));
  z->info->gruns++;
}

static unsigned new_mf(gc_t *z) {
  const unsigned mf = (unsigned)(z->m_next * z->DM);
  z->m_next ^= 1;
  return mf;
}

static void fill_mf(gc_t *z, unsigned mf) {
  emit(z, gnn_enc_gfill(mf, (unsigned)(z->rows * z->ch), z->red == GNN_RD_MAX ? NEG_INF : NZERO));
  z->info->gfills++;
}

static void store_mf(gc_t *z, uint32_t v, unsigned mf, uint64_t base, uint64_t row_w) {
  emit(z, gnn_enc_gstore(mf, nb_of(z, v), z->bd, (uint32_t)(base + (uint64_t)v * z->n * row_w),
                         (uint32_t)row_w));
  z->info->gstores++, z->info->feat_wr_blocks++;
}

/* Destination-stationary pass over the grid (S-pattern over the source blocks). */
static void pass_dst(gc_t *z) {
  for (uint32_t v = 0; v < z->S; v++) {
    const unsigned mf = new_mf(z);
    fill_mf(z, mf);
    for (uint32_t k = 0; k < z->S; k++) {
      const uint32_t u = (v & 1) ? z->S - 1 - k : k;
      const int64_t si = gnn_shards_find(z->sh, u, v);
      if (si < 0) continue;
      run_shard(z, si, load_src(z, u), mf);
    }
    if (z->stream) stream_pass(z, v, mf);
    store_mf(z, v, mf, z->dst, z->dst_w);
  }
}

/* Source-stationary pass (S-pattern over the destination blocks; partial sums in `part`). */
static int pass_src(gc_t *z) {
  int64_t *last_u = malloc(z->S * sizeof *last_u);
  unsigned char *seen = calloc(z->S, 1);
  if (!last_u || !seen) {
    free(last_u);
    free(seen);
    return -1;
  }
  for (uint32_t v = 0; v < z->S; v++) last_u[v] = -1;
  for (uint64_t i = 0; i < z->sh->nshards; i++) {
    const gnn_shard_t *s = &z->sh->shard[i];
    if ((int64_t)s->u > last_u[s->v]) last_u[s->v] = s->u;
  }
  int64_t res = -1; /* destination block in MF (not yet stored) */
  unsigned mf = 0;
  for (uint32_t u = 0; u < z->S; u++) {
    int ifb = -1;
    for (uint32_t k = 0; k < z->S; k++) {
      const uint32_t v = (u & 1) ? z->S - 1 - k : k;
      const int64_t si = gnn_shards_find(z->sh, u, v);
      if (si < 0) continue;
      if (ifb < 0) ifb = load_src(z, u);
      if (res != (int64_t)v) {
        if (res >= 0) store_mf(z, (uint32_t)res, mf, z->part, z->part_w);
        mf = new_mf(z);
        if (seen[v]) {
          emit(z, gnn_enc_gload(GNN_MEM_MF, mf, nb_of(z, v), z->bd,
                                (uint32_t)(z->part + (uint64_t)v * z->n * z->part_w),
                                (uint32_t)z->part_w));
          z->info->gloads_feat++, z->info->feat_rd_blocks++;
        } else {
          fill_mf(z, mf);
        }
        res = v;
      }
      run_shard(z, si, ifb, mf);
      seen[v] = 1;
      if (last_u[v] == (int64_t)u) { /* its last contribution: finish and store it */
        if (z->stream) {
          stream_pass(z, v, mf);
          if (z->if_res[ifb] != (int)u) ifb = -1; /* (the scale took the other bank) */
        }
        store_mf(z, v, mf, z->dst, z->dst_w);
        res = -1;
      }
    }
  }
  free(last_u);
  free(seen);
  return 0;
}

/* Appends b's instructions to a, alternating one from each while both last (a first). */
static int merge_into(gnn_prog_t *out, const gnn_prog_t *a, const gnn_prog_t *b) {
  size_t i = 0, j = 0;
  int oom = 0;
  while (i < a->n || j < b->n) {
    if (i < a->n) oom |= gnn_prog_push(out, a->insn[i++]) != 0;
    if (j < b->n) oom |= gnn_prog_push(out, b->insn[j++]) != 0;
  }
  return oom;
}

/* DRAM bump allocator. */
typedef struct { uint64_t next, limit; int over; } alloc_t;
static uint64_t take(alloc_t *a, uint64_t words) {
  const uint64_t at = a->next;
  a->next += words ? words : 1;
  if (a->next > a->limit) a->over = 1;
  return at;
}

static int add_dense(const gnn_cfg_t *cfg, const gnn_layer_opts_t *o, unsigned m, unsigned k,
                     unsigned n, unsigned acc, unsigned act, uint64_t a, uint64_t b, uint64_t c,
                     gnn_prog_t *prog, char *err, size_t errlen) {
  gnn_mm_params_t p;
  memset(&p, 0, sizeof p);
  p.df = GNN_DF_WS;
  p.m = m, p.k = k, p.n = n, p.acc = acc, p.act = act;
  p.a = a, p.b = b, p.c = c;
  p.mem_latency = o->mem_latency;
  return gnn_compile_matmul(cfg, &p, prog, NULL, err, errlen);
}

int gnn_compile_layer(const gnn_cfg_t *cfg, const gnn_graph_t *g, const gnn_layer_opts_t *o,
                      const uint32_t *x, const uint32_t *w, const uint32_t *wp, gnn_wl_t *wl,
                      gnn_layer_info_t *info, char *err, size_t errlen) {
  gnn_layer_info_t junk;
  if (!info) info = &junk;
  memset(info, 0, sizeof *info);
  memset(wl, 0, sizeof *wl);
  if (!cfg || cfg->gpes < 1) return ERR("the configuration has no Graph Engine");
  if (!g || !o || !x || !w || (o->net == GNN_NET_POOL && !wp)) return ERR("missing input");
  if (o->net < GNN_NET_GCN || o->net > GNN_NET_POOL) return ERR("unknown network %d", o->net);
  if (g->nv < 1 || g->nv > 65535) return ERR("%u vertices: 1..65535 in one layer", g->nv);
  if (o->f < 1 || o->f > 65535 || o->h < 1 || o->h > 65535)
    return ERR("feature sizes %u, %u out of range 1..65535", o->f, o->h);
  if (o->act > GNN_ACT_RELU) return ERR("unknown activation %u", o->act);
  const uint32_t nv = g->nv;
  const unsigned F = o->f, H = o->h;
  const int gcn = o->net == GNN_NET_GCN;
  const int dense_first = gcn && (o->dense_first < 0 ? H < F : o->dense_first != 0);
  const unsigned D = dense_first ? H : F; /* the aggregated dimension */
  unsigned B = o->block_d ? o->block_d : D;
  if (B > D) B = D;
  if (B > 255) return ERR("a dimension block of %u words: at most 255 (GLOAD dim)", B);
  const uint64_t P = (uint64_t)cfg->gpes, L = (uint64_t)cfg->lanes;
  const unsigned ch = (unsigned)cdiv(B, L);

  /* the graph with a self loop on every vertex */
  gnn_graph_t gg;
  gnn_graph_init(&gg);
  gg.nv = nv;
  gg.ne = g->ne;
  gg.src = malloc((g->ne ? g->ne : 1) * sizeof *gg.src);
  gg.dst = malloc((g->ne ? g->ne : 1) * sizeof *gg.dst);
  if (!gg.src || !gg.dst) {
    gnn_graph_free(&gg);
    return ERR("out of memory");
  }
  for (uint64_t i = 0; i < g->ne; i++) {
    if (g->src[i] >= nv || g->dst[i] >= nv) {
      gnn_graph_free(&gg);
      return ERR("edge %" PRIu64 " names a vertex >= %u", i, nv);
    }
    gg.src[i] = g->src[i], gg.dst[i] = g->dst[i];
  }
  if (gnn_graph_add_self_loops(&gg) < 0 || gnn_graph_sort(&gg, 1) != 0) {
    gnn_graph_free(&gg);
    return ERR("out of memory");
  }
  info->edges = gg.ne;

  /* nodes per shard */
  const unsigned if_feat = gcn ? 2 : 1;
  uint32_t n = o->shard_n;
  if (!n) {
    gnn_alg3_params_t a3;
    memset(&a3, 0, sizeof a3);
    a3.p = (unsigned)P;
    a3.block_d = o->full ? (unsigned)(cdiv(D, L) * L) : (unsigned)(ch * L);
    a3.if_feat = if_feat;
    a3.of_feat = 1;
    a3.elem_bytes = 4;
    a3.imem_bytes = P * 2 * (uint64_t)cfg->gdepth[GNN_MEM_IF] * L * 4;
    a3.omem_bytes = P * 2 * (uint64_t)cfg->gdepth[GNN_MEM_MF] * L * 4;
    a3.emax = 2 * (uint64_t)cfg->gdepth[GNN_MEM_EDGE];
    a3.push = o->push;
    gnn_alg3_result_t r3;
    char e3[200];
    n = gnn_graph_nodes_per_shard(&gg, &a3, &r3, e3, sizeof e3);
    if (!n) {
      gnn_graph_free(&gg);
      return ERR("Algorithm 3: %s", e3);
    }
    info->alg3_step = r3.step;
  }
  if (n > 65535) n = 65535;
  const uint64_t rows = cdiv(n, P);
  if (rows * ch * if_feat > (uint64_t)cfg->gdepth[GNN_MEM_IF] ||
      rows * ch > (uint64_t)cfg->gdepth[GNN_MEM_MF]) {
    gnn_graph_free(&gg);
    return ERR("%u nodes a shard do not fit the feature memories (%" PRIu64
               " lines a GPE of %u-line IF / MF banks)", n, rows * ch * if_feat,
               cfg->gdepth[GNN_MEM_IF]);
  }
  gnn_shards_t sh;
  char e2[200];
  if (gnn_shards_build(&gg, n, (unsigned)P, o->push, &sh, e2, sizeof e2) != 0) {
    gnn_graph_free(&gg);
    return ERR("sharding: %s", e2);
  }
  if (sh.count_edges > (uint64_t)cfg->gdepth[GNN_MEM_EDGE]) {
    const uint64_t ce = sh.count_edges;
    gnn_shards_free(&sh);
    gnn_graph_free(&gg);
    return ERR("a shard of %u nodes puts %" PRIu64 " edges on one GPE, more than its %d-entry "
               "edge bank", n, ce, cfg->gdepth[GNN_MEM_EDGE]);
  }
  info->n_shard = n;
  info->grid_s = sh.s;
  info->shards = sh.nshards;
  info->block_d = B;
  info->ch = ch;
  info->blocks = (unsigned)cdiv(D, B);

  /* degrees and the scale table (GCN nrm = 1/sqrt(deg); GraphSage 1/deg), B words a row */
  uint64_t *deg = calloc(nv, sizeof *deg);
  uint32_t *scale = malloc((size_t)nv * B * sizeof *scale);
  int rc = -1;
  gnn_prog_t pre, gp, dp, tmp;
  gnn_prog_init(&pre), gnn_prog_init(&gp), gnn_prog_init(&dp), gnn_prog_init(&tmp);
  if (!deg || !scale) {
    (void)ERR("out of memory");
    goto out;
  }
  gnn_graph_degrees(&gg, deg, NULL);
  for (uint32_t v = 0; v < nv; v++) {
    const double s = gcn ? 1.0 / sqrt((double)deg[v]) : 1.0 / (double)deg[v];
    const uint32_t bits = cutil_f32_bits((float)s);
    for (unsigned j = 0; j < B; j++) scale[(size_t)v * B + j] = bits;
  }

  /* DRAM map */
  alloc_t al = {64, 1ull << cfg->addr_w, 0};
  const unsigned wrows = gcn ? F : 2 * F;
  info->h_addr = take(&al, (uint64_t)nv * F);
  info->w_addr = take(&al, (uint64_t)wrows * H);
  if (o->net == GNN_NET_POOL) info->wp_addr = take(&al, (uint64_t)F * F);
  info->out_addr = take(&al, (uint64_t)nv * H);
  const uint64_t tbuf = (dense_first || o->net == GNN_NET_POOL) ? take(&al, (uint64_t)nv * D) : 0;
  const uint64_t agg[2] = {take(&al, (uint64_t)nv * B), take(&al, (uint64_t)nv * B)};
  const uint64_t part = o->src_stationary ? take(&al, (uint64_t)nv * B) : 0;
  const uint64_t scale_addr = take(&al, (uint64_t)nv * B);
  const uint64_t edges_addr = take(&al, sh.words);
  if (al.over) {
    (void)ERR("the layer needs %" PRIu64 " DRAM words, more than 2^%d", al.next, cfg->addr_w);
    goto out;
  }
  if (gnn_wl_init(wl, cfg) != 0) {
    (void)ERR("invalid cfg");
    goto out;
  }
  if (gnn_wl_add_mem(wl, info->h_addr, x, (uint64_t)nv * F) ||
      gnn_wl_add_mem(wl, info->w_addr, w, (uint64_t)wrows * H) ||
      (o->net == GNN_NET_POOL && gnn_wl_add_mem(wl, info->wp_addr, wp, (uint64_t)F * F)) ||
      gnn_wl_add_mem(wl, scale_addr, scale, (uint64_t)nv * B) ||
      (sh.words && gnn_wl_add_mem(wl, edges_addr, sh.inter, sh.words)) ||
      gnn_wl_add_check(wl, info->out_addr, (uint64_t)nv * H)) {
    (void)ERR("out of memory");
    goto out;
  }

  /* the dense work before the aggregation */
  const unsigned act = o->act;
  if (dense_first &&
      add_dense(cfg, o, nv, F, H, 0, GNN_ACT_NONE, info->h_addr, info->w_addr, tbuf, &pre, err,
                errlen))
    goto out;
  if (o->net == GNN_NET_POOL &&
      add_dense(cfg, o, nv, F, F, 0, GNN_ACT_RELU, info->h_addr, info->wp_addr, tbuf, &pre, err,
                errlen))
    goto out;
  gnn_prog_t sage_pre;
  gnn_prog_init(&sage_pre);
  if (o->net != GNN_NET_GCN) { /* Z = H W2 (rows F..2F-1 of W) first; the blocks accumulate */
    if (add_dense(cfg, o, nv, F, H, 0, GNN_ACT_NONE, info->h_addr,
                  info->w_addr + (uint64_t)F * H, info->out_addr, &sage_pre, err, errlen)) {
      gnn_prog_free(&sage_pre);
      goto out;
    }
  }

  gc_t z;
  memset(&z, 0, sizeof z);
  z.c = cfg, z.o = o, z.info = info;
  z.P = P, z.L = L;
  z.DE = (uint64_t)cfg->gdepth[GNN_MEM_EDGE];
  z.DF = (uint64_t)cfg->gdepth[GNN_MEM_IF];
  z.DM = (uint64_t)cfg->gdepth[GNN_MEM_MF];
  z.n = n, z.S = sh.s, z.nv = nv, z.sh = &sh;
  z.edges_addr = edges_addr, z.scale_addr = scale_addr, z.scale_w = B;
  z.red = o->net == GNN_NET_POOL ? GNN_RD_MAX : GNN_RD_SUM;
  z.gcn = gcn;
  z.stream = o->net != GNN_NET_POOL;
  z.stream_sfu = dense_first ? act : GNN_SF_NONE;
  z.src = dense_first || o->net == GNN_NET_POOL ? tbuf : info->h_addr;
  z.src_w = D;
  z.if_res[0] = z.if_res[1] = -1;
  gnn_prog_t *prev_dense = NULL;
  for (unsigned d = 0; d < info->blocks; d++) {
    const unsigned d0 = d * B, bd = D - d0 < B ? D - d0 : B;
    gnn_prog_free(&gp);
    z.p = &gp;
    z.bd = bd;
    z.ch = (unsigned)cdiv(bd, L);
    z.rows = rows;
    z.src_off = d0;
    z.part = part, z.part_w = bd;
    if (dense_first) z.dst = info->out_addr + d0, z.dst_w = H;
    else z.dst = agg[d & 1], z.dst_w = bd;
    z.if_res[0] = z.if_res[1] = -1;
    if (o->src_stationary ? pass_src(&z) : (pass_dst(&z), 0)) {
      (void)ERR("out of memory");
      goto out;
    }
    if (z.oom) {
      (void)ERR("out of memory");
      goto out;
    }
    /* this block's graph program beside the previous block's dense work */
    const gnn_prog_t *beside = prev_dense ? prev_dense : (d == 0 ? &sage_pre : NULL);
    gnn_prog_t empty;
    gnn_prog_init(&empty);
    if (d == 0 && pre.n && merge_into(&tmp, &pre, &empty)) {
      (void)ERR("out of memory");
      goto out;
    }
    if (merge_into(&tmp, &gp, beside ? beside : &empty)) {
      (void)ERR("out of memory");
      goto out;
    }
    if (d == 0) gnn_prog_free(&sage_pre);
    if (!dense_first) { /* Z (+)= AGG_d . W rows [d0, d0 + bd) */
      gnn_prog_free(&dp);
      const unsigned acc = o->net != GNN_NET_GCN || d > 0;
      const unsigned last_act = d + 1 == info->blocks ? act : GNN_ACT_NONE;
      if (add_dense(cfg, o, nv, bd, H, acc, last_act, agg[d & 1],
                    info->w_addr + (uint64_t)d0 * H, info->out_addr, &dp, err, errlen))
        goto out;
      prev_dense = &dp;
    }
  }
  if (prev_dense) {
    gnn_prog_t empty;
    gnn_prog_init(&empty);
    if (merge_into(&tmp, prev_dense, &empty)) {
      (void)ERR("out of memory");
      goto out;
    }
  } else if (o->net != GNN_NET_GCN) {
    gnn_prog_free(&sage_pre);
  }
  wl->prog = tmp;
  gnn_prog_init(&tmp);
  gnn_prog_stats_t ps;
  gnn_prog_stats(cfg, wl->prog.insn, wl->prog.n, &ps);
  info->insns = wl->prog.n;
  info->dense_insns = ps.loads + ps.stores + ps.matmuls + ps.madds + ps.acts + ps.copies;
  info->rd_words = ps.rd_words + ps.g_rd_words;
  info->wr_words = ps.wr_words + ps.g_wr_words;
  rc = 0;
out:
  gnn_prog_free(&pre), gnn_prog_free(&gp), gnn_prog_free(&dp), gnn_prog_free(&tmp);
  gnn_shards_free(&sh);
  gnn_graph_free(&gg);
  free(deg);
  free(scale);
  if (rc != 0) gnn_wl_free(wl);
  return rc;
}

/* ------------------------------------------------------------------ the reference */
int gnn_layer_ref(const gnn_graph_t *g, const gnn_layer_opts_t *o, const uint32_t *x,
                  const uint32_t *w, const uint32_t *wp, double *ref, double *mag) {
  const uint32_t nv = g->nv;
  const unsigned F = o->f, H = o->h;
  /* degrees with self loops, every listed edge counted (as the compiler does; the readers and
     the generator keep a duplicate edge once) */
  uint64_t *deg = calloc(nv, sizeof *deg);
  unsigned char *self = calloc(nv, 1);
  double *agg = calloc((size_t)nv * F, sizeof *agg), *amag = calloc((size_t)nv * F, sizeof *amag);
  double *src = malloc((size_t)nv * F * sizeof *src);
  if (!deg || !self || !agg || !amag || !src) {
    free(deg), free(self), free(agg), free(amag), free(src);
    return -1;
  }
  for (uint64_t i = 0; i < g->ne; i++) {
    deg[g->dst[i]]++;
    if (g->src[i] == g->dst[i]) self[g->src[i]] = 1;
  }
  for (uint32_t v = 0; v < nv; v++)
    if (!self[v]) deg[v]++;
  /* the aggregated input: x, or Pool's ReLU(x Wp) */
  for (uint32_t v = 0; v < nv; v++)
    for (unsigned k = 0; k < F; k++) {
      if (o->net != GNN_NET_POOL) {
        src[(size_t)v * F + k] = cutil_f32(x[(size_t)v * F + k]);
        continue;
      }
      double s = 0;
      for (unsigned q = 0; q < F; q++)
        s += (double)cutil_f32(x[(size_t)v * F + q]) * cutil_f32(wp[(size_t)q * F + k]);
      src[(size_t)v * F + k] = s > 0 ? s : 0;
    }
  const int pool = o->net == GNN_NET_POOL;
  for (size_t i = 0; i < (size_t)nv * F; i++) agg[i] = pool ? -INFINITY : 0;
  /* every edge u -> v, then the self loops the edge list lacks, in the aggregation */
  for (uint64_t i = 0; i < g->ne + nv; i++) {
    uint32_t u, v;
    if (i < g->ne) u = g->src[i], v = g->dst[i];
    else if (!self[i - g->ne]) u = v = (uint32_t)(i - g->ne);
    else continue;
    const double wgt = o->net == GNN_NET_GCN ? 1.0 / sqrt((double)deg[u]) / sqrt((double)deg[v])
                       : o->net == GNN_NET_SAGE ? 1.0 / (double)deg[v] : 1.0;
    for (unsigned k = 0; k < F; k++) {
      const double t = wgt * src[(size_t)u * F + k];
      double *a = &agg[(size_t)v * F + k];
      if (pool) *a = t > *a ? t : *a;
      else *a += t;
      amag[(size_t)v * F + k] += fabs(t);
    }
  }
  for (uint32_t v = 0; v < nv; v++)
    for (unsigned j = 0; j < H; j++) {
      double s = 0, m = 0;
      for (unsigned k = 0; k < F; k++) {
        const double wk = cutil_f32(w[(size_t)k * H + j]);
        s += agg[(size_t)v * F + k] * wk;
        m += (pool ? fabs(agg[(size_t)v * F + k]) : amag[(size_t)v * F + k]) * fabs(wk);
      }
      if (o->net != GNN_NET_GCN)
        for (unsigned k = 0; k < F; k++) {
          const double t =
              (double)cutil_f32(x[(size_t)v * F + k]) * cutil_f32(w[(size_t)(F + k) * H + j]);
          s += t;
          m += fabs(t);
        }
      if (o->act == GNN_ACT_RELU && !(s > 0)) s = 0;
      ref[(size_t)v * H + j] = s;
      mag[(size_t)v * H + j] = m;
    }
  free(deg), free(self), free(agg), free(amag), free(src);
  return 0;
}

uint64_t gnn_layer_verify(const gnn_graph_t *g, const gnn_layer_opts_t *o, const uint32_t *x,
                          const uint32_t *w, const uint32_t *wp, const uint32_t *z, char *msg,
                          size_t msglen) {
  const size_t cnt = (size_t)g->nv * o->h;
  double *ref = malloc(cnt * sizeof *ref), *mag = malloc(cnt * sizeof *mag);
  if (!ref || !mag || gnn_layer_ref(g, o, x, w, wp, ref, mag) != 0) {
    free(ref), free(mag);
    cutil_seterr(msg, msglen, "out of memory");
    return cnt ? cnt : 1;
  }
  uint64_t bad = 0;
  for (size_t i = 0; i < cnt; i++) {
    const double got = cutil_f32(z[i]);
    /* 4e-4: above the worst case of fp32 recursive summation over 4000 terms (2.4e-4) */
    const int ok = isnan(ref[i]) ? isnan(got) : fabs(got - ref[i]) <= 4e-4 * mag[i] + 1e-30;
    if (!ok && bad++ == 0)
      cutil_seterr(msg, msglen, "Z[%zu][%zu] = %.9g expected %.9g (tolerance %.3g)",
                   i / o->h, i % o->h, got, ref[i], 4e-4 * mag[i]);
  }
  free(ref), free(mag);
  return bad;
}
