/* gnn_cycle.c -- cycle model of GNNerator (rtl/gnnerator), both engines: the exact cycle count
 * of the RTL for a program when the memory never refuses a request and the instructions are
 * offered back to back (the harness's +stall=0 +gap=0), with read data `latency` cycles after a
 * request is taken.
 *
 * It steps cycle by cycle through the same registers as the RTL (docs/gnnerator.md, "Timing"):
 *   - the instruction FIFO (QDepth = 4 entries, registered output) and the decoded head;
 *   - in-order issue, one a cycle: an instruction with an error issues at once; otherwise the
 *     rules of gnnerator.v (unit free, no bank shared with a unit in flight, LOAD/STORE DRAM
 *     ranges apart, an OS MATMUL may overlap the previous drain, other EX instructions wait);
 *   - LD: one read request a cycle from the cycle after issue (at most LdTags = 128 in flight),
 *     busy until its last request is taken; the banks it writes stay in flight until their
 *     responses have come (per-bank counters, as the RTL);
 *   - ST: line reads into a 3-entry fall-through FIFO, one write request a cycle, busy until the
 *     last write is taken;
 *   - GLD as LD (one request a cycle, EDGE: n lines of P words, IF/MF: n * ch node lines; its
 *     own LdTags reads in flight and per-bank counters), GST as ST (n * ch lines through its own
 *     3-entry FIFO), GEX busy for gex_len[i] cycles from I + 1 (GRUN: its GRUN TIMING cycles,
 *     which depend on the edges, so the caller runs the program on the golden model first,
 *     gnn_model_gex_lengths; GFILL: n), under the issue rules of gnnerator.v for the six units (banks; DRAM ranges of
 *     loads against stores and of ST against GST);
 *   - the memory port: cc_rr_arbiter over LD, ST, GLD, GST (requesters 0..3): the lowest index
 *     at or above the pointer wins, else the lowest; the pointer moves past each grant (with
 *     the Dense Engine alone: ST first after an LD beat, LD first after an ST beat);
 *   - EX durations, fixed at issue (I = issue cycle; EX's cycle 0 is I + 1):
 *       OS MATMUL:  folds * (K + R + C - 2), last cycle I + folds*F; the drain is in flight
 *                   from I + 2 to I + folds*F + 2 (its OUT bank) and writes until + 3;
 *       WS / IS:    folds * (2R + C + cnt + 1), cnt = M (WS) or N (IS);
 *       MADD / ACT: n + 2;  COPY: n + 1.
 */
#include <stdlib.h>
#include <string.h>

#include "gnnerator.h"

#define QDEPTH 4
#define LD_TAGS 128 /* gnnerator.v LdTags */
#define MAX_DR 8

typedef struct { int busy; uint64_t start, end; unsigned banks; } ex_t;
typedef struct { uint64_t from, to; unsigned banks; } dr_t;

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t gnn_matmul_cycles(const gnn_cfg_t *cfg, unsigned df, unsigned m, unsigned k,
                           unsigned n) {
  const uint64_t R = (uint64_t)cfg->rows, C = (uint64_t)cfg->cols;
  if (df == GNN_DF_OS) return cdiv(m, R) * cdiv(n, C) * (k + R + C - 2);
  if (df == GNN_DF_WS) return cdiv(n, C) * cdiv(k, R) * (2 * R + C + m + 1);
  return cdiv(m, C) * cdiv(k, R) * (2 * R + C + n + 1);
}

static int overlaps(uint64_t lo1, uint64_t hi1, uint64_t lo2, uint64_t hi2) {
  return lo1 < hi2 && lo2 < hi1;
}

/* A loading unit (LD, GLD): requests left, reads in flight, per-bank responses pending. */
typedef struct {
  int busy;
  uint64_t n, req, inflight;
  unsigned banks, pend_cnt[12];
  uint64_t lo, hi;
} ldu_t;
/* A storing unit (ST, GST): line reads into a 3-entry fall-through FIFO, one write a cycle. */
typedef struct {
  int busy, pend;
  uint64_t n, rd, wr;
  unsigned fcnt, banks;
  uint64_t lo, hi;
} stu_t;

static unsigned pend_mask(const ldu_t *u) {
  unsigned m = 0;
  for (int b = 0; b < 12; b++)
    if (u->pend_cnt[b]) m |= 1u << b;
  return m;
}
static int ov(int busy, const gnn_use_t *u, uint64_t lo, uint64_t hi) {
  return busy && overlaps(u->dram_lo, u->dram_hi, lo, hi);
}
static void st_start(stu_t *s, uint64_t n, const gnn_use_t *u) {
  s->busy = 1, s->pend = 0, s->fcnt = 0, s->n = n, s->rd = s->wr = 0;
  s->banks = u->banks, s->lo = u->dram_lo, s->hi = u->dram_hi;
}
/* ST/GST FIFO after the port's edge: a beat taken while the FIFO is empty bypasses it. */
static void st_edge(stu_t *s, int fired) {
  const int re = s->busy && s->rd != s->n && s->fcnt + (unsigned)s->pend < 3;
  const int passed = fired && s->fcnt == 0;
  const int popped = fired && s->fcnt > 0;
  const int pushed = s->pend && !passed;
  s->fcnt = s->fcnt + (unsigned)pushed - (unsigned)popped;
  s->pend = re;
  if (re) s->rd++;
  if (fired && ++s->wr == s->n) s->busy = 0;
}

int gnn_cycles(const gnn_cfg_t *cfg, const gnn_memtiming_t *mt, const gnn_insn_t *prog, size_t n,
               gnn_cyc_stats_t *st) {
  return gnn_prog_cycles(cfg, mt, prog, n, NULL, st);
}

int gnn_prog_cycles(const gnn_cfg_t *cfg, const gnn_memtiming_t *mt, const gnn_insn_t *prog,
                    size_t n, const uint64_t *gex_len, gnn_cyc_stats_t *st) {
  if (!cfg || !mt || !st || (n && !prog) || mt->latency < 1) return -1;
  /* without GEX lengths, dense programs only */
  if (!gex_len)
    for (size_t i = 0; i < n; i++)
      if (((prog[i].w[0] & 0xFu) >= GNN_OP_GLOAD) && gnn_check(cfg, &prog[i]) == GNN_OK) return -1;
  memset(st, 0, sizeof *st);
  const uint64_t L = (uint64_t)mt->latency;
  int *err = malloc((n ? n : 1) * sizeof *err);
  gnn_use_t *use = calloc(n ? n : 1, sizeof *use);
  /* ring of read responses due: cycle, owner (0 LD, 1 GLD), banks */
  const size_t rsp_cap = 2 * LD_TAGS;
  uint64_t *rsp_due = malloc(rsp_cap * sizeof *rsp_due);
  unsigned *rsp_bank = malloc(rsp_cap * sizeof *rsp_bank);
  unsigned char *rsp_own = malloc(rsp_cap);
  if (!err || !use || !rsp_due || !rsp_bank || !rsp_own) {
    free(err), free(use), free(rsp_due), free(rsp_bank), free(rsp_own);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    err[i] = gnn_check(cfg, &prog[i]);
    if (err[i] == GNN_OK) gnn_use(cfg, &prog[i], &use[i]);
  }
  size_t rsp_head = 0, rsp_cnt = 0;

  /* state as seen at the start of cycle c */
  size_t next = 0, fifo_cnt = 0, fifo_head = 0; /* FIFO holds instructions fifo_head.. */
  int head_v = 0;
  size_t head = 0;
  ldu_t ld, gld;
  stu_t sb, gs;
  memset(&ld, 0, sizeof ld), memset(&gld, 0, sizeof gld);
  memset(&sb, 0, sizeof sb), memset(&gs, 0, sizeof gs);
  ex_t ex = {0, 0, 0, 0}, gex = {0, 0, 0, 0};
  dr_t dr[MAX_DR];
  int ndr = 0;
  unsigned ptr = 0;          /* the port arbiter's priority pointer */
  int ex_ever = 0;
  uint64_t dr_write_end = 0; /* last cycle of an OS drain write */
  uint64_t c = 0;
  for (;; c++) {
    /* retire drain records that ended */
    for (int d = 0; d < ndr;) {
      if (dr[d].to < c) dr[d] = dr[--ndr];
      else d++;
    }
    unsigned dr_use = 0;
    int dr_inflight = 0;
    for (int d = 0; d < ndr; d++)
      if (dr[d].from <= c && c <= dr[d].to) {
        dr_use |= dr[d].banks;
        dr_inflight = 1;
      }
    const int ex_busy = ex.busy && ex.start <= c && c <= ex.end;
    const int ex_last = ex_busy && c == ex.end;
    const int gex_busy = gex.busy && gex.start <= c && c <= gex.end;
    const unsigned ex_use = (ex_busy && !ex_last) ? ex.banks : 0;
    const unsigned ld_pend = pend_mask(&ld), gld_pend = pend_mask(&gld);
    const unsigned ld_use = (ld.busy ? ld.banks : 0) | ld_pend;
    const unsigned st_use = sb.busy ? sb.banks : 0;
    const unsigned gld_use = (gld.busy ? gld.banks : 0) | gld_pend;
    const unsigned gst_use = gs.busy ? gs.banks : 0;
    const unsigned gex_use = gex_busy ? gex.banks : 0;
    const unsigned dense_use = ex_use | dr_use, graph_use = gld_use | gst_use | gex_use;

    /* idle: nothing queued, nothing in flight, every instruction taken */
    if (next == n && fifo_cnt == 0 && !head_v && !ld.busy && !ld_pend && !sb.busy && !ex_busy &&
        !dr_inflight && c > dr_write_end && !gld.busy && !gld_pend && !gs.busy && !gex_busy)
      break;

    /* ---- issue (gnnerator.v can_go) */
    int issue = 0;
    if (head_v) {
      if (err[head] != GNN_OK) {
        issue = 1;
      } else {
        const gnn_use_t *u = &use[head];
        const unsigned op = prog[head].w[0] & 15u;
        const int os_mm = op == GNN_OP_MATMUL && ((prog[head].w[0] >> 4) & 3u) == GNN_DF_OS;
        switch (u->unit) {
          case 0:
            issue = !ld.busy && !ov(sb.busy, u, sb.lo, sb.hi) && !ov(gs.busy, u, gs.lo, gs.hi) &&
                    !(u->banks & (st_use | dense_use | graph_use));
            break;
          case 1:
            issue = !sb.busy && !ov(ld.busy, u, ld.lo, ld.hi) && !ov(gld.busy, u, gld.lo, gld.hi) &&
                    !ov(gs.busy, u, gs.lo, gs.hi) && !(u->banks & (ld_use | dense_use | graph_use));
            break;
          case 3:
            issue = !gld.busy && !ov(sb.busy, u, sb.lo, sb.hi) && !ov(gs.busy, u, gs.lo, gs.hi) &&
                    !(u->banks & (ld_use | st_use | dense_use | gst_use | gex_use));
            break;
          case 4:
            issue = !gs.busy && !ov(ld.busy, u, ld.lo, ld.hi) && !ov(gld.busy, u, gld.lo, gld.hi) &&
                    !ov(sb.busy, u, sb.lo, sb.hi) &&
                    !(u->banks & (ld_use | st_use | dense_use | gld_use | gex_use));
            break;
          case 5:
            issue = !gex_busy && !(u->banks & (ld_use | st_use | dense_use | gld_use | gst_use));
            break;
          default:
            issue = (!ex_busy || ex_last) && (os_mm || !dr_inflight) &&
                    !(u->banks & (ld_use | st_use | graph_use));
            break;
        }
      }
    }

    /* ---- memory port (combinational part) */
    const unsigned req = (unsigned)(ld.busy && ld.inflight < LD_TAGS) |
                         (unsigned)(sb.fcnt > 0 || sb.pend) << 1 |
                         (unsigned)(gld.busy && gld.inflight < LD_TAGS) << 2 |
                         (unsigned)(gs.fcnt > 0 || gs.pend) << 3;
    int gnt = -1;
    for (unsigned k = ptr; k < 4 && gnt < 0; k++)
      if (req & (1u << k)) gnt = (int)k;
    for (unsigned k = 0; k < 4 && gnt < 0; k++)
      if (req & (1u << k)) gnt = (int)k;
    const int rsp_v = rsp_cnt > 0 && rsp_due[rsp_head] == c;

    /* ---- FIFO and head */
    const int accept = next < n && fifo_cnt < QDEPTH;
    const int q_pop = fifo_cnt > 0 && (!head_v || issue);

    /* ---- edge */
    if (gnt == 0 || gnt == 2) {
      ldu_t *u = gnt == 0 ? &ld : &gld;
      st->rd_lines++;
      if (++u->req == u->n) u->busy = 0;
      /* at most 2 x LD_TAGS reads in flight: the ring never overflows */
      const size_t at = (rsp_head + rsp_cnt) % rsp_cap;
      rsp_due[at] = c + L;
      rsp_bank[at] = u->banks;
      rsp_own[at] = gnt == 2;
      for (int b = 0; b < 12; b++)
        if (u->banks & (1u << b)) u->pend_cnt[b]++;
      u->inflight++;
      rsp_cnt++;
    } else if (gnt >= 0) {
      st->wr_lines++;
    }
    if (gnt >= 0) ptr = ((unsigned)gnt + 1) % 4;
    st_edge(&sb, gnt == 1);
    st_edge(&gs, gnt == 3);
    if (rsp_v) {
      ldu_t *u = rsp_own[rsp_head] ? &gld : &ld;
      for (int b = 0; b < 12; b++)
        if (rsp_bank[rsp_head] & (1u << b)) u->pend_cnt[b]--;
      u->inflight--;
      rsp_head = (rsp_head + 1) % rsp_cap;
      rsp_cnt--;
    }
    if (issue && err[head] == GNN_OK) {
      const gnn_insn_t *in = &prog[head];
      const gnn_use_t *u = &use[head];
      if (u->unit >= 3) {
        const uint64_t nn = gnn_get(in, GNN_G_N), dim = gnn_get(in, GNN_G_DIM);
        const uint64_t lines =
            gnn_get(in, GNN_G_MEM) == GNN_MEM_EDGE ? nn : nn * cdiv(dim, (uint64_t)cfg->lanes);
        if (u->unit == 3) {
          gld.busy = 1, gld.n = lines, gld.req = 0;
          gld.banks = u->banks, gld.lo = u->dram_lo, gld.hi = u->dram_hi;
        } else if (u->unit == 4) {
          st_start(&gs, lines, u);
        } else {
          const uint64_t len = gex_len[head];
          gex.busy = len > 0;
          gex.start = c + 1;
          gex.end = c + len;
          gex.banks = u->banks;
          st->busy_gex += len;
        }
      } else if (u->unit == 0) {
        ld.busy = 1, ld.n = gnn_get(in, GNN_F_N16), ld.req = 0;
        ld.banks = u->banks, ld.lo = u->dram_lo, ld.hi = u->dram_hi;
      } else if (u->unit == 1) {
        st_start(&sb, gnn_get(in, GNN_F_N16), u);
      } else {
        gnn_fields_t f;
        gnn_fields(in, &f);
        uint64_t len;
        if (f.op == GNN_OP_MATMUL) {
          len = gnn_matmul_cycles(cfg, f.df, f.m, f.k, f.nn);
          st->macs += (uint64_t)f.m * f.k * f.nn;
        } else {
          len = (uint64_t)f.n + (f.op == GNN_OP_COPY ? 1u : 2u);
        }
        if (!st->first_ex && !ex_ever) st->first_ex = c + 1;
        ex_ever = 1;
        if (c + len > st->last_ex) st->last_ex = c + len;
        ex.busy = 1;
        ex.start = c + 1;
        ex.end = c + len;
        ex.banks = u->banks;
        st->busy_ex += len;
        if (f.op == GNN_OP_MATMUL && f.df == GNN_DF_OS) {
          if (ndr == MAX_DR) { /* cannot happen: drains end within C + 3 of EX */
            free(err), free(use), free(rsp_due), free(rsp_bank), free(rsp_own);
            return -1;
          }
          dr[ndr].from = c + 2;
          dr[ndr].to = c + len + 2;
          dr[ndr].banks = u->banks & 0x30u;
          ndr++;
          if (c + len + 3 > dr_write_end) dr_write_end = c + len + 3;
          if (c + len + 3 > st->last_ex) st->last_ex = c + len + 3;
        }
      }
    }
    if (ex.busy && c >= ex.end) ex.busy = 0;
    if (gex.busy && c >= gex.end) gex.busy = 0;
    if (q_pop) {
      head = fifo_head;
      fifo_head++;
    }
    if (q_pop) head_v = 1;
    else if (issue) head_v = 0;
    fifo_cnt = fifo_cnt + (size_t)accept - (size_t)q_pop;
    if (accept) next++;
  }
  st->cycles = c + 1;
  /* bytes: words per line of each LOAD/STORE times its lines */
  for (size_t i = 0; i < n; i++) {
    if (err[i] != GNN_OK) continue;
    gnn_fields_t f;
    gnn_fields(&prog[i], &f);
    if (f.op == GNN_OP_LOAD) st->rd_bytes += 4ull * f.w * f.n;
    if (f.op == GNN_OP_STORE) st->wr_bytes += 4ull * f.w * f.n;
  }
  free(err), free(use), free(rsp_due), free(rsp_bank), free(rsp_own);
  return 0;
}
