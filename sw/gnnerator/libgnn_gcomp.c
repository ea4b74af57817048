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
  const uint32_t addr = store ? in_region(z, z->rg->out_base, z->rg->out_words, span)
                              : in_region(z, z->rg->in_base, z->rg->in_words, span);
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
  g.apply = (unsigned)gu(z, 3);
  g.sfu = (unsigned)gu(z, 2);
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
        const unsigned bit = op == GNN_OP_GFILL ? (gu(z, 2) ? 4 + (unsigned)gu(z, 12) : 80 + (unsigned)gu(z, 48))
                             : op == GNN_OP_GRUN ? (gu(z, 2) ? 14 + (unsigned)gu(z, 2) : 120 + (unsigned)gu(z, 8))
                                                 : (gu(z, 2) ? 6 + (unsigned)gu(z, 2) : 112 + (unsigned)gu(z, 16));
        in.w[bit / 32] |= 1u << (bit % 32);
      } else if (op == GNN_OP_GRUN) {
        switch (gu(z, 3)) {
          case 0: gnn_set(&in, GNN_G_MODE, 2 + (unsigned)gu(z, 2)); break;
          case 1: gnn_set(&in, GNN_G_APPLY, 3); break;
          default: gnn_set(&in, GNN_G_SFU, 2 + (unsigned)gu(z, 2)); break;
        }
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
