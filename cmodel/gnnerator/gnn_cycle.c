/* gnn_cycle.c -- cycle model of the GNNerator Dense Engine (rtl/gnnerator): the exact cycle count
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
 *   - the memory port: LD and ST round-robin (ST first after an LD beat, LD first after an ST
 *     beat; LD first after reset);
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

int gnn_cycles(const gnn_cfg_t *cfg, const gnn_memtiming_t *mt, const gnn_insn_t *prog, size_t n,
               gnn_cyc_stats_t *st) {
  if (!cfg || !mt || !st || (n && !prog) || mt->latency < 1) return -1;
  /* Dense programs only: a valid graph instruction is not modelled here (yet). */
  for (size_t i = 0; i < n; i++)
    if (((prog[i].w[0] & 0xFu) >= GNN_OP_GLOAD) && gnn_check(cfg, &prog[i]) == GNN_OK) return -1;
  memset(st, 0, sizeof *st);
  const uint64_t L = (uint64_t)mt->latency;
  /* per-instruction decode */
  int *err = malloc((n ? n : 1) * sizeof *err);
  gnn_use_t *use = malloc((n ? n : 1) * sizeof *use);
  uint64_t *rsp_due = NULL; /* ring of read responses due, with the bank each writes */
  unsigned *rsp_bank = NULL;
  unsigned pend_cnt[6] = {0};
  if (!err || !use) {
    free(err);
    free(use);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    err[i] = gnn_check(cfg, &prog[i]);
    if (err[i] == GNN_OK) gnn_use(cfg, &prog[i], &use[i]);
  }
  size_t rsp_cap = 1024, rsp_head = 0, rsp_cnt = 0;
  rsp_due = malloc(rsp_cap * sizeof *rsp_due);
  rsp_bank = malloc(rsp_cap * sizeof *rsp_bank);
  if (!rsp_due || !rsp_bank) {
    free(err);
    free(use);
    free(rsp_due);
    free(rsp_bank);
    return -1;
  }

  /* state as seen at the start of cycle c */
  size_t next = 0, fifo_cnt = 0, fifo_head = 0; /* FIFO holds instructions fifo_head.. */
  int head_v = 0;
  size_t head = 0;
  struct { int busy; unsigned n, req; unsigned banks; uint64_t lo, hi; } ld = {0};
  struct { int busy, pend; unsigned n, rd, wr, fcnt; unsigned banks; uint64_t lo, hi; } sb = {0};
  ex_t ex = {0};
  dr_t dr[MAX_DR];
  int ndr = 0;
  int rr = 0;              /* 1: ST first */
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
    const unsigned ex_use = (ex_busy && !ex_last) ? ex.banks : 0;
    unsigned ld_pend = 0;
    for (int b = 0; b < 6; b++)
      if (pend_cnt[b]) ld_pend |= 1u << b;
    const unsigned ld_use = (ld.busy ? ld.banks : 0) | ld_pend;
    const unsigned st_use = sb.busy ? sb.banks : 0;

    /* idle: nothing queued, nothing in flight, every instruction taken */
    if (next == n && fifo_cnt == 0 && !head_v && !ld.busy && !ld_pend && !sb.busy && !ex_busy &&
        !dr_inflight && c > dr_write_end)
      break;

    /* ---- issue */
    int issue = 0;
    if (head_v) {
      if (err[head] != GNN_OK) {
        issue = 1;
      } else {
        const gnn_use_t *u = &use[head];
        const unsigned op = prog[head].w[0] & 15u;
        const int os_mm = op == GNN_OP_MATMUL && ((prog[head].w[0] >> 4) & 3u) == GNN_DF_OS;
        if (u->unit == 0)
          issue = !ld.busy && !(u->banks & (st_use | ex_use | dr_use)) &&
                  !(sb.busy && overlaps(u->dram_lo, u->dram_hi, sb.lo, sb.hi));
        else if (u->unit == 1)
          issue = !sb.busy && !(u->banks & (ld_use | ex_use | dr_use)) &&
                  !(ld.busy && overlaps(u->dram_lo, u->dram_hi, ld.lo, ld.hi));
        else
          issue = (!ex_busy || ex_last) && (os_mm || !dr_inflight) &&
                  !(u->banks & (ld_use | st_use));
      }
    }

    /* ---- memory port (combinational part) */
    const int ld_req = ld.busy && rsp_cnt < LD_TAGS;
    const int st_re = sb.busy && sb.rd != sb.n && sb.fcnt + (unsigned)sb.pend < 3;
    const int st_req = sb.fcnt > 0 || sb.pend;
    const int sel_st = st_req && (!ld_req || rr);
    const int fire = ld_req || st_req;
    const int rsp_v = rsp_cnt > 0 && rsp_due[rsp_head] == c;

    /* ---- FIFO and head */
    const int accept = next < n && fifo_cnt < QDEPTH;
    const int q_pop = fifo_cnt > 0 && (!head_v || issue);

    /* ---- edge */
    if (fire) {
      if (sel_st) {
        st->wr_lines++;
        sb.wr++;
        if (sb.wr == sb.n) sb.busy = 0;
      } else {
        st->rd_lines++;
        ld.req++;
        if (ld.req == ld.n) ld.busy = 0;
        /* rsp_cnt < LD_TAGS <= rsp_cap: the ring never overflows */
        rsp_due[(rsp_head + rsp_cnt) % rsp_cap] = c + L;
        rsp_bank[(rsp_head + rsp_cnt) % rsp_cap] = ld.banks;
        for (int b = 0; b < 6; b++)
          if (ld.banks & (1u << b)) pend_cnt[b]++;
        rsp_cnt++;
      }
      rr = !sel_st;
    }
    {
      /* ST line FIFO (fall-through): a beat taken while the FIFO is empty bypasses it */
      const int passed = fire && sel_st && sb.fcnt == 0;
      const int popped = fire && sel_st && sb.fcnt > 0;
      const int pushed = sb.pend && !passed;
      sb.fcnt = sb.fcnt + (unsigned)pushed - (unsigned)popped;
      sb.pend = st_re;
      if (st_re) sb.rd++;
    }
    if (rsp_v) {
      for (int b = 0; b < 6; b++)
        if (rsp_bank[rsp_head] & (1u << b)) pend_cnt[b]--;
      rsp_head = (rsp_head + 1) % rsp_cap;
      rsp_cnt--;
    }
    if (issue) {
      if (err[head] == GNN_OK) {
        const gnn_insn_t *in = &prog[head];
        const gnn_use_t *u = &use[head];
        gnn_fields_t f;
        gnn_fields(in, &f);
        if (u->unit == 0) {
          ld.busy = 1;
          ld.n = f.n;
          ld.req = 0;
          ld.banks = u->banks;
          ld.lo = u->dram_lo;
          ld.hi = u->dram_hi;
        } else if (u->unit == 1) {
          sb.busy = 1;
          sb.pend = 0;
          sb.fcnt = 0;
          sb.n = f.n;
          sb.rd = sb.wr = 0;
          sb.banks = u->banks;
          sb.lo = u->dram_lo;
          sb.hi = u->dram_hi;
        } else {
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
              free(err);
              free(use);
              free(rsp_due);
              free(rsp_bank);
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
    }
    if (ex.busy && c >= ex.end) ex.busy = 0;
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
  st->rd_bytes = 0;
  st->wr_bytes = 0;
  /* bytes: words per line of each LOAD/STORE times its lines */
  for (size_t i = 0; i < n; i++) {
    if (err[i] != GNN_OK) continue;
    gnn_fields_t f;
    gnn_fields(&prog[i], &f);
    if (f.op == GNN_OP_LOAD) st->rd_bytes += 4ull * f.w * f.n;
    if (f.op == GNN_OP_STORE) st->wr_bytes += 4ull * f.w * f.n;
  }
  free(err);
  free(use);
  free(rsp_due);
  free(rsp_bank);
  return 0;
}
