/* gnn_graph.c -- golden model of the GNNerator Graph Engine (cmodel/include/gnnerator.h,
 * "GRAPH ENGINE" and "GRUN TIMING"; docs/gnnerator.md): the graph instructions' checks, their
 * bank and DRAM use, and their execution on the GPEs' EDGE, IF and MF memories. A GRUN is
 * executed cycle by cycle as the RTL's gnn_gex arbitrates it, so the order in which items reach
 * one MF line (push: several GPEs into one destination, under the lock) is the RTL's, and the
 * result is bit-exact without a trace from the RTL. */
#include "gnn_graph_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QNAN 0x7FC00000u
#define NZERO 0x80000000u
#define ONE 0x3F800000u

struct gnn_gstate {
  int p, l;
  unsigned sfus;             /* S units of the SFU pool */
  unsigned depth[3];
  uint32_t *mem[3];          /* [gpe][2*depth][words]: EDGE 1 word a line, IF/MF l words */
  uint64_t bad_edges;
  gnn_grun_stats_t stats;
};

static void gdie(const char *what) {
  fprintf(stderr, "gnnerator model: %s\n", what);
  abort();
}

static unsigned mem_words(const gnn_gstate_t *g, int mem) {
  return mem == GNN_MEM_EDGE ? 1u : (unsigned)g->l;
}

static uint32_t *gline(const gnn_gstate_t *g, int mem, unsigned gpe, uint64_t line) {
  const size_t w = mem_words(g, mem);
  return g->mem[mem] + ((size_t)gpe * 2 * g->depth[mem] + (size_t)line) * w;
}

gnn_gstate_t *gnn_gstate_new(const gnn_cfg_t *cfg) {
  if (!cfg || cfg->gpes < 1) return NULL;
  gnn_gstate_t *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->p = cfg->gpes;
  g->l = cfg->lanes;
  g->sfus = (unsigned)cfg->sfus;
  int ok = 1;
  for (int m = 0; m < 3 && ok; m++) {
    g->depth[m] = (unsigned)cfg->gdepth[m];
    g->mem[m] = calloc((size_t)g->p * 2 * g->depth[m] * mem_words(g, m), sizeof(uint32_t));
    ok = g->mem[m] != NULL;
  }
  if (!ok) {
    gnn_gstate_free(g);
    return NULL;
  }
  return g;
}

void gnn_gstate_free(gnn_gstate_t *g) {
  if (!g) return;
  for (int m = 0; m < 3; m++) free(g->mem[m]);
  free(g);
}

uint32_t gnn_gstate_rd(const gnn_gstate_t *g, int mem, int gpe, unsigned line, unsigned word) {
  if (!g || mem < 0 || mem > 2 || gpe < 0 || gpe >= g->p || line >= 2 * g->depth[mem] ||
      word >= mem_words(g, mem))
    return 0;
  return gline(g, mem, (unsigned)gpe, line)[word];
}

uint64_t gnn_gstate_bad_edges(const gnn_gstate_t *g) { return g ? g->bad_edges : 0; }

gnn_grun_stats_t gnn_gstate_stats(const gnn_gstate_t *g) {
  gnn_grun_stats_t z = {0, 0, 0, 0, 0, 0};
  return g ? g->stats : z;
}

/* ------------------------------------------------------------------ encoding */
gnn_insn_t gnn_enc_gload(unsigned mem, unsigned base, unsigned n, unsigned dim, uint32_t addr,
                         uint32_t stride) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_GLOAD);
  gnn_set(&i, GNN_G_MEM, mem);
  gnn_set(&i, GNN_G_DIM, dim);
  gnn_set(&i, GNN_G_BASE, base);
  gnn_set(&i, GNN_G_N, n);
  gnn_set(&i, GNN_F_ADDR, addr);
  gnn_set(&i, GNN_F_STRIDE, stride);
  return i;
}

gnn_insn_t gnn_enc_gstore(unsigned base, unsigned n, unsigned dim, uint32_t addr,
                          uint32_t stride) {
  gnn_insn_t i = gnn_enc_gload(GNN_MEM_MF, base, n, dim, addr, stride);
  gnn_set(&i, GNN_F_OP, GNN_OP_GSTORE);
  return i;
}

gnn_insn_t gnn_enc_gfill(unsigned base, unsigned n, uint32_t value) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_GFILL);
  gnn_set(&i, GNN_G_BASE, base);
  gnn_set(&i, GNN_G_N, n);
  gnn_set(&i, GNN_G_VALUE, value);
  return i;
}

gnn_insn_t gnn_enc_grun(const gnn_grun_t *r) {
  gnn_insn_t i = {{0}};
  gnn_set(&i, GNN_F_OP, GNN_OP_GRUN);
  gnn_set(&i, GNN_G_MODE, r->mode);
  gnn_set(&i, GNN_G_APPLY, r->apply);
  gnn_set(&i, GNN_G_SFU, r->sfu);
  gnn_set(&i, GNN_G_RED, r->red);
  gnn_set(&i, GNN_G_F0SEL, r->f0sel);
  gnn_set(&i, GNN_G_F1SEL, r->f1sel);
  gnn_set(&i, GNN_G_BASE, r->ebase);
  gnn_set(&i, GNN_G_N, r->count);
  gnn_set(&i, GNN_G_NODES, r->nodes);
  gnn_set(&i, GNN_G_IF0, r->if0);
  gnn_set(&i, GNN_G_IF1, r->if1);
  gnn_set(&i, GNN_G_MF, r->mf);
  gnn_set(&i, GNN_G_CH, r->ch);
  return i;
}

void gnn_grun_fields(const gnn_insn_t *in, gnn_grun_t *r) {
  r->mode = gnn_get(in, GNN_G_MODE);
  r->apply = gnn_get(in, GNN_G_APPLY);
  r->sfu = gnn_get(in, GNN_G_SFU);
  r->red = gnn_get(in, GNN_G_RED);
  r->f0sel = gnn_get(in, GNN_G_F0SEL);
  r->f1sel = gnn_get(in, GNN_G_F1SEL);
  r->ebase = gnn_get(in, GNN_G_BASE);
  r->count = gnn_get(in, GNN_G_N);
  r->nodes = gnn_get(in, GNN_G_NODES);
  r->if0 = gnn_get(in, GNN_G_IF0);
  r->if1 = gnn_get(in, GNN_G_IF1);
  r->mf = gnn_get(in, GNN_G_MF);
  r->ch = gnn_get(in, GNN_G_CH);
}

/* ------------------------------------------------------------------ checks */
/* The bits each graph opcode uses; the rest are reserved. */
static gnn_insn_t gused_bits(unsigned op) {
  gnn_insn_t u = {{0}};
  gnn_set(&u, GNN_F_OP, 0xFu);
  switch (op) {
    case GNN_OP_GLOAD:
    case GNN_OP_GSTORE:
      gnn_set(&u, GNN_G_MEM, ~0u);
      gnn_set(&u, GNN_G_DIM, ~0u);
      gnn_set(&u, GNN_G_BASE, ~0u);
      gnn_set(&u, GNN_G_N, ~0u);
      gnn_set(&u, GNN_F_ADDR, ~0u);
      gnn_set(&u, GNN_F_STRIDE, ~0u);
      break;
    case GNN_OP_GFILL:
      gnn_set(&u, GNN_G_BASE, ~0u);
      gnn_set(&u, GNN_G_N, ~0u);
      gnn_set(&u, GNN_G_VALUE, ~0u);
      break;
    default: /* GRUN */
      gnn_set(&u, GNN_G_MODE, ~0u);
      gnn_set(&u, GNN_G_APPLY, ~0u);
      gnn_set(&u, GNN_G_SFU, ~0u);
      gnn_set(&u, GNN_G_RED, ~0u);
      gnn_set(&u, GNN_G_F0SEL, ~0u);
      gnn_set(&u, GNN_G_F1SEL, ~0u);
      gnn_set(&u, GNN_G_BASE, ~0u);
      gnn_set(&u, GNN_G_N, ~0u);
      gnn_set(&u, GNN_G_NODES, ~0u);
      gnn_set(&u, GNN_G_IF0, ~0u);
      gnn_set(&u, GNN_G_IF1, ~0u);
      gnn_set(&u, GNN_G_MF, ~0u);
      gnn_set(&u, GNN_G_CH, ~0u);
      break;
  }
  return u;
}

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

typedef struct { int mem; uint64_t base, lines; } grange_t;

/* The on-chip ranges of a graph instruction in check order; returns their number. */
static int granges(const gnn_cfg_t *cfg, const gnn_insn_t *in, grange_t r[4]) {
  const unsigned op = gnn_get(in, GNN_F_OP);
  const uint64_t p = (uint64_t)cfg->gpes, l = (uint64_t)cfg->lanes;
  if (op == GNN_OP_GLOAD || op == GNN_OP_GSTORE) {
    const unsigned mem = gnn_get(in, GNN_G_MEM), dim = gnn_get(in, GNN_G_DIM);
    const uint64_t n = gnn_get(in, GNN_G_N);
    const uint64_t lines = mem == GNN_MEM_EDGE ? n : cdiv(n, p) * cdiv(dim, l);
    r[0] = (grange_t){(int)mem, gnn_get(in, GNN_G_BASE), lines};
    return 1;
  }
  if (op == GNN_OP_GFILL) {
    r[0] = (grange_t){GNN_MEM_MF, gnn_get(in, GNN_G_BASE), gnn_get(in, GNN_G_N)};
    return 1;
  }
  gnn_grun_t g;
  gnn_grun_fields(in, &g);
  const uint64_t lines = cdiv(g.nodes, p) * g.ch;
  int k = 0;
  if (g.mode == GNN_GM_EDGES) r[k++] = (grange_t){GNN_MEM_EDGE, g.ebase, g.count};
  r[k++] = (grange_t){GNN_MEM_IF, g.if0, lines};
  if (g.apply == GNN_AP_ADD || g.apply == GNN_AP_MUL) r[k++] = (grange_t){GNN_MEM_IF, g.if1, lines};
  r[k++] = (grange_t){GNN_MEM_MF, g.mf, lines};
  return k;
}

static int grange_ok(const gnn_cfg_t *cfg, const grange_t *r) {
  const uint64_t d = (uint64_t)cfg->gdepth[r->mem];
  return r->base + r->lines <= 2 * d && r->base / d == (r->base + r->lines - 1) / d;
}

/* Last DRAM word of a GLOAD/GSTORE (n >= 1). */
static uint64_t gdram_last(const gnn_cfg_t *cfg, const gnn_insn_t *in) {
  const uint64_t n = gnn_get(in, GNN_G_N), stride = gnn_get(in, GNN_F_STRIDE);
  const uint64_t w = gnn_get(in, GNN_G_MEM) == GNN_MEM_EDGE ? (uint64_t)cfg->gpes
                                                            : gnn_get(in, GNN_G_DIM);
  return (uint64_t)gnn_get(in, GNN_F_ADDR) + (n - 1) * stride + w - 1;
}

int gnn_gcheck(const gnn_cfg_t *cfg, const gnn_insn_t *in) {
  const unsigned op = gnn_get(in, GNN_F_OP);
  if (cfg->gpes < 1 || op < GNN_OP_GLOAD || op > GNN_OP_GRUN) return GNN_E_OPCODE;
  /* 2 FIELD */
  const gnn_insn_t used = gused_bits(op);
  for (int i = 0; i < GNN_INSN_WORDS; i++)
    if (in->w[i] & ~used.w[i]) return GNN_E_FIELD;
  const unsigned mem = gnn_get(in, GNN_G_MEM), dim = gnn_get(in, GNN_G_DIM);
  gnn_grun_t g;
  gnn_grun_fields(in, &g);
  if (op == GNN_OP_GLOAD && (mem == 3 || (mem == GNN_MEM_EDGE && dim != 0))) return GNN_E_FIELD;
  if (op == GNN_OP_GSTORE && mem != GNN_MEM_MF) return GNN_E_FIELD;
  if (op == GNN_OP_GRUN) {
    if (g.mode > GNN_GM_EDGES || g.sfu > GNN_SF_EXP) return GNN_E_FIELD;
    if (g.mode == GNN_GM_STREAM && (g.ebase || g.count || g.f0sel || g.f1sel))
      return GNN_E_FIELD;
  }
  /* 3 SIZE */
  if (op == GNN_OP_GRUN) {
    if (g.nodes == 0 || g.ch == 0 || (g.mode == GNN_GM_EDGES && g.count == 0))
      return GNN_E_SIZE;
  } else if (gnn_get(in, GNN_G_N) == 0) {
    return GNN_E_SIZE;
  }
  /* 4 WIDTH */
  if ((op == GNN_OP_GLOAD || op == GNN_OP_GSTORE) && mem != GNN_MEM_EDGE && dim == 0)
    return GNN_E_WIDTH;
  /* 5 RANGE */
  grange_t r[4];
  const int nr = granges(cfg, in, r);
  for (int i = 0; i < nr; i++)
    if (!grange_ok(cfg, &r[i])) return GNN_E_RANGE;
  if ((op == GNN_OP_GLOAD || op == GNN_OP_GSTORE) && gdram_last(cfg, in) >= 1ull << cfg->addr_w)
    return GNN_E_RANGE;
  return GNN_OK;
}

void gnn_guse(const gnn_cfg_t *cfg, const gnn_insn_t *in, gnn_use_t *u) {
  const unsigned op = gnn_get(in, GNN_F_OP);
  u->unit = op == GNN_OP_GLOAD ? 3 : op == GNN_OP_GSTORE ? 4 : 5;
  grange_t r[4];
  const int nr = granges(cfg, in, r);
  for (int i = 0; i < nr; i++)
    u->banks |= 1u << (6 + 2 * r[i].mem + (int)(r[i].base / (uint64_t)cfg->gdepth[r[i].mem]));
  if (op == GNN_OP_GLOAD || op == GNN_OP_GSTORE) {
    u->dram_lo = gnn_get(in, GNN_F_ADDR);
    u->dram_hi = gdram_last(cfg, in) + 1;
  }
}

/* ------------------------------------------------------------------ arithmetic */
static uint32_t order_key(uint32_t x) { return (x & NZERO) ? ~x : (x | NZERO); }
static int is_nan(uint32_t x) { return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu); }

/* One lane: apply, SFU, reduce (GRUN). */
static uint32_t lane(const gnn_grun_t *r, uint32_t x0, uint32_t x1, uint32_t m) {
  uint32_t a = x0;
  if (r->apply == GNN_AP_ADD) a = gnn_fma(x0, ONE, x1);
  else if (r->apply == GNN_AP_MUL) a = gnn_fma(x0, x1, NZERO);
  else if (r->apply == GNN_AP_MULM) a = gnn_fma(x0, m, NZERO);
  const uint32_t f = gnn_sfu(r->sfu, a);
  switch (r->red) {
    case GNN_RD_SUM: return gnn_add(m, f);
    case GNN_RD_MAX:
    case GNN_RD_MIN: {
      if (is_nan(m) || is_nan(f)) return QNAN;
      const int f_big = order_key(f) > order_key(m);
      return (r->red == GNN_RD_MAX) == f_big ? f : m;
    }
    default: return f;
  }
}

/* ------------------------------------------------------------------ execution */
static void exec_gload(gnn_model_t *m, gnn_gstate_t *g, const gnn_insn_t *in, int store) {
  const unsigned mem = gnn_get(in, GNN_G_MEM), dim = gnn_get(in, GNN_G_DIM);
  const uint64_t base = gnn_get(in, GNN_G_BASE), n = gnn_get(in, GNN_G_N);
  const uint64_t addr = gnn_get(in, GNN_F_ADDR), stride = gnn_get(in, GNN_F_STRIDE);
  const unsigned p = (unsigned)g->p, l = (unsigned)g->l;
  if (mem == GNN_MEM_EDGE) {
    for (uint64_t i = 0; i < n; i++)
      for (unsigned q = 0; q < p; q++)
        *gline(g, GNN_MEM_EDGE, q, base + i) = gnn_mem_rd(m, addr + i * stride + q);
    return;
  }
  const unsigned ch = (unsigned)cdiv(dim, l);
  for (uint64_t v = 0; v < n; v++)
    for (unsigned c = 0; c < ch; c++) {
      uint32_t *line = gline(g, (int)mem, (unsigned)(v % p), base + (v / p) * ch + c);
      const uint64_t a = addr + v * stride + (uint64_t)c * l;
      const unsigned w = dim - c * l < l ? dim - c * l : l;
      if (store) {
        for (unsigned j = 0; j < w; j++) gnn_mem_wr(m, a + j, line[j]);
        gnn_model_log_beat(m, a, w, line);
      } else {
        for (unsigned j = 0; j < l; j++) line[j] = j < w ? gnn_mem_rd(m, a + j) : 0u;
      }
    }
}

/* One GPE's walk (GRUN TIMING). */
typedef struct {
  unsigned rd, c, j, nloc;
  int nxv, curv, grant;
  uint32_t nx, cur;
} gpe_t;

/* One GPE's memory ports in a cycle: the IF0 / IF1 line taken (-1 free) and the MF port taken
 * (line, by which GPE).  The MF grant of cycle k is the lock of cycle k + 1. */
typedef struct {
  long if0, if1;
  int mf;
  unsigned mf_line, mf_gpe;
} port_t;

static void exec_grun(gnn_gstate_t *g, const gnn_insn_t *in) {
  gnn_grun_t r;
  gnn_grun_fields(in, &r);
  const unsigned p = (unsigned)g->p, l = (unsigned)g->l;
  const int edges = r.mode == GNN_GM_EDGES, use1 = r.apply == GNN_AP_ADD || r.apply == GNN_AP_MUL;
  gpe_t *s = calloc(p, sizeof *s);
  port_t *now = calloc(p, sizeof *now), *lock = calloc(p, sizeof *lock);
  if (!s || !now || !lock) gdie("out of memory");
  for (unsigned q = 0; q < p; q++) s[q].nloc = r.nodes > q ? (r.nodes - q + p - 1) / p : 0;
  gnn_grun_stats_t st = {0, 0, 0, 0, 0, 0};
  int pend_write = 0;
  for (uint64_t k = 0;; k++) {
    int all_done = 1;
    for (unsigned q = 0; q < p; q++)
      if (edges ? (s[q].rd < r.count || s[q].nxv || s[q].curv) : s[q].j < s[q].nloc) all_done = 0;
    if (all_done && !pend_write) {
      st.cycles = k;
      break;
    }
    for (unsigned q = 0; q < p; q++) now[q] = (port_t){-1, -1, 0, 0, 0};
    pend_write = 0;
    unsigned nsfu = 0; /* SFU units granted this cycle */
    for (unsigned i = 0; i < p; i++) {
      const unsigned q = (unsigned)((k + i) % p);
      gpe_t *e = &s[q];
      e->grant = 0;
      unsigned x0, x1, d;
      if (edges) {
        if (!e->curv || e->cur == GNN_EDGE_NULL) continue;
        const unsigned src = e->cur & 0xFFFFu, dst = e->cur >> 16;
        if (src >= r.nodes || dst >= r.nodes) continue;
        x0 = r.f0sel ? dst : src;
        x1 = r.f1sel ? dst : src;
        d = dst;
      } else {
        if (e->j >= e->nloc) continue;
        x0 = x1 = d = q + e->j * p;
      }
      const unsigned m0 = x0 % p, m1 = x1 % p, md = d % p;
      const long l0 = (long)(r.if0 + (x0 / p) * r.ch + e->c);
      const long l1 = (long)(r.if1 + (x1 / p) * r.ch + e->c);
      const unsigned ld = r.mf + (d / p) * r.ch + e->c;
      const int locked = lock[md].mf && lock[md].mf_line == ld && lock[md].mf_gpe != q;
      const int ok = (now[m0].if0 < 0 || now[m0].if0 == l0) &&
                     (!use1 || now[m1].if1 < 0 || now[m1].if1 == l1) && !now[md].mf && !locked;
      const int sfu_ok = r.sfu == GNN_SF_NONE || nsfu < g->sfus;
      if (!ok || !sfu_ok) {
        st.stalls++;
        if (locked) st.lock_stalls++;
        if (ok) st.sfu_stalls++;
        continue;
      }
      if (r.sfu != GNN_SF_NONE) nsfu++;
      now[m0].if0 = l0;
      if (use1) now[m1].if1 = l1;
      now[md].mf = 1, now[md].mf_line = ld, now[md].mf_gpe = q;
      e->grant = 1;
      pend_write = 1;
      st.items++;
      const uint32_t *a0 = gline(g, GNN_MEM_IF, m0, (uint64_t)l0);
      const uint32_t *a1 = gline(g, GNN_MEM_IF, m1, (uint64_t)l1);
      uint32_t *mf = gline(g, GNN_MEM_MF, md, ld);
      for (unsigned w = 0; w < l; w++) mf[w] = lane(&r, a0[w], use1 ? a1[w] : 0u, mf[w]);
    }
    for (unsigned q = 0; q < p; q++) {
      lock[q] = now[q];
      gpe_t *e = &s[q];
      if (!edges) {
        if (e->grant && ++e->c == r.ch) e->c = 0, e->j++;
        continue;
      }
      int present = 0;
      if (e->curv && e->cur != GNN_EDGE_NULL) {
        const unsigned src = e->cur & 0xFFFFu, dst = e->cur >> 16;
        present = src < r.nodes && dst < r.nodes;
        if (!present) st.bad_edges++;
      }
      const int done = e->curv && (!present || (e->grant && e->c == r.ch - 1));
      const int take = e->nxv && (!e->curv || done);
      const int re = e->rd < r.count && (!e->nxv || take);
      if (take) e->cur = e->nx, e->curv = 1, e->c = 0;
      else if (done) e->curv = 0;
      else if (e->grant) e->c++;
      if (re) e->nx = *gline(g, GNN_MEM_EDGE, q, r.ebase + e->rd), e->nxv = 1, e->rd++;
      else if (take) e->nxv = 0;
    }
  }
  g->bad_edges += st.bad_edges;
  g->stats = st;
  free(s);
  free(now);
  free(lock);
}

void gnn_gexec(gnn_model_t *m, gnn_gstate_t *g, const gnn_insn_t *in) {
  const unsigned op = gnn_get(in, GNN_F_OP);
  switch (op) {
    case GNN_OP_GLOAD: exec_gload(m, g, in, 0); break;
    case GNN_OP_GSTORE: exec_gload(m, g, in, 1); break;
    case GNN_OP_GFILL: {
      const uint64_t base = gnn_get(in, GNN_G_BASE), n = gnn_get(in, GNN_G_N);
      const uint32_t v = gnn_get(in, GNN_G_VALUE);
      for (unsigned q = 0; q < (unsigned)g->p; q++)
        for (uint64_t i = 0; i < n; i++) {
          uint32_t *line = gline(g, GNN_MEM_MF, q, base + i);
          for (int w = 0; w < g->l; w++) line[w] = v;
        }
      gnn_grun_stats_t st = {n, 0, 0, 0, 0, 0};
      g->stats = st;
      break;
    }
    default: exec_grun(g, in); break;
  }
}
