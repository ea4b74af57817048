/* mna_cycle.c -- cycle model of the MANNA RTL (rtl/manna), see mna_run_cycles in
 * cmodel/include/manna.h.
 *
 * Driven by the functional model's execution order (the event hook of mna_hook.h), each tile's
 * control unit is followed on its own clock; cycle 0 is every tile's first FETCH. The timing is
 * that of the RTL (the modules of rtl/manna):
 *   mna_ctrl   FETCH, DECODE, EXEC one cycle each; an error (OPCODE..ADDR) stops in EXEC, PC in
 *              FETCH; EXEC waits while a transfer engine it conflicts with is busy (a dmat/dma on
 *              its own engine; anything else on the engines whose pending transfer touches a
 *              half of MS/VS it touches: el and sfu count as both VS halves); vex/sfu/coll
 *              instructions then wait for their unit's done (a one-cycle pulse, seen the cycle
 *              after); a stop (halt, error) sets the status once both engines are idle.
 *   mna_xfer   started in the issue cycle s: busy in cycles s+1 .. s+n+2.
 *   mna_vex    done seen D cycles after the issue: vmm N+3 (vmm t with Transpose = 0: N*E+2),
 *              swr F*p+2 (p = 3, 5 with EmacOps = 0), el F*p+2 (p = reads per line, 3 for
 *              add/sub/mul with EmacOps = 0), rfz/rfst 2, rfld 3.
 *   mna_sfu    one state per cycle (read, [read b,] go, exp 14 steps or 2 for special inputs,
 *              divider in, divider out 27 cycles or 1 for special operands, write), done seen
 *              the cycle after its last state.
 *   mna_coll   entry barrier (every tile arrived), the per-level protocol over the H-tree links
 *              (2-deep FIFOs, one line per cycle) simulated cycle by cycle, exit barrier;
 *              aborts by another tile's error status, a kind/count mismatch, or the fence
 *              watchdog (manna.v). */
#include <stdlib.h>
#include <string.h>

#include "manna.h"
#include "mna_hook.h"

#define CYC_MAX_TILES 16

enum { CT_IDLE = 0, CT_RUN, CT_WAIT, CT_STOP };

typedef struct {
  int state;             /* CT_* */
  int64_t next;          /* CT_RUN: the cycle of the next FETCH */
  int64_t dmat_end;      /* the last busy cycle of the DMAT engine (-1: never busy) */
  int64_t dma_end;
  unsigned dmat_h, dma_h;  /* halves (bit0 low, bit1 high) its pending transfer touches */
  int64_t issue;         /* CT_WAIT: the cycle the collective issued */
  int bcast;             /* CT_WAIT: 1 bcast, 0 reduce */
  uint32_t lines;        /* CT_WAIT: the line count */
  int64_t stop;          /* CT_STOP: the cycle the status leaves RUN (set at its end) */
  int status;            /* CT_STOP: the status */
} ctile_t;

typedef struct {
  mna_t *m;
  mna_cfg_t cfg;
  int lvls;              /* lg tiles */
  ctile_t t[CYC_MAX_TILES];
  uint32_t *buf;         /* sfu: the words written so far */
  size_t buf_n;
  int oom;
} cyc_t;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The first cycle at or after c in which both transfer engines are idle. */
static int64_t engines_idle(const ctile_t *t, int64_t c) {
  return max64(c, max64(t->dmat_end, t->dma_end) + 1);
}

static void stop_tile(ctile_t *t, int64_t c, int status) {
  t->state = CT_STOP;
  t->stop = engines_idle(t, c);
  t->status = status;
}

/* halves of the line range [lo, hi] of a scratchpad of `lines` lines */
static unsigned halves(uint64_t lo, uint64_t hi, uint64_t lines) {
  const uint64_t half = lines / 2;
  return (hi >= half ? 2u : 0u) | (lo < half ? 1u : 0u);
}

/* ---------------------------------------------------------------- SFU */
static int f_nan(uint32_t x) { return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu); }
static int f_inf(uint32_t x) { return (x & 0x7FFFFFFFu) == 0x7F800000u; }
static int f_zero(uint32_t x) { return (x & 0x7FFFFFFFu) == 0; }

/* SExp cycles for the input x (sigmoid: already negated): 2 when the range checks decide it */
static int64_t exp_cycles(uint32_t x) {
  const uint32_t mag = x & 0x7FFFFFFFu;
  const int special = f_nan(x) || (!(x >> 31) && mag > 0x42B17218u) ||
                      ((x >> 31) && mag > 0x42D00000u);
  return special ? 2 : 14;
}
/* SDivOut cycles: 1 for the divider's special operands, else 27 (26 steps + the result) */
static int64_t div_cycles(int sqrt_op, uint32_t a, uint32_t b) {
  int special;
  if (sqrt_op) special = f_nan(a) || f_zero(a) || (a >> 31) || f_inf(a);
  else
    special = f_nan(a) || f_nan(b) || (f_inf(a) && f_inf(b)) || (f_zero(a) && f_zero(b)) ||
              f_inf(a) || f_zero(b) || f_zero(a) || f_inf(b);
  return special ? 1 : 27;
}

/* Cycles of the SFU's states for sfu.FN with n >= 1 words (the done pulse is seen one later). */
static int64_t sfu_states(cyc_t *y, int tile, unsigned fn, uint32_t A, uint32_t B, uint32_t n) {
  if (fn == MNA_SFU_SUM) return 3 * (int64_t)n + 1;
  if (fn == MNA_SFU_DOT) return 4 * (int64_t)n + 1;
  if (fn == MNA_SFU_RELU) return 3 * (int64_t)n;
  size_t nw = 0;
  const uint32_t *vs = mna_mem(y->m, tile, MNA_SP_VS, &nw);
  if (y->buf_n < n) {
    uint32_t *p = realloc(y->buf, (size_t)n * sizeof *p);
    if (!p) {
      y->oom = 1;
      return 0;
    }
    y->buf = p;
    y->buf_n = n;
  }
  int64_t s = 0;
  for (uint32_t i = 0; i < n; i++) {
    /* word i is read after words 0..i-1 are written (line-sequential, as the model) */
    const uint64_t addr = (uint64_t)B + i;
    const uint32_t x = (addr >= A && addr < (uint64_t)A + i) ? y->buf[addr - A] : vs[addr];
    uint32_t r;
    s += 3; /* read, go, write */
    switch (fn) {
      case MNA_SFU_EXP:
        s += exp_cycles(x);
        r = mna_fp_exp(x);
        break;
      case MNA_SFU_RECIP:
        s += 1 + div_cycles(0, 0x3F800000u, x);
        r = mna_fp_div(0x3F800000u, x);
        break;
      case MNA_SFU_SQRT:
        s += 1 + div_cycles(1, x, 0);
        r = mna_fp_sqrt(x);
        break;
      default: { /* sigmoid: exp(-x), + 1 (SSig), the division */
        const uint32_t e = mna_fp_exp(x ^ 0x80000000u);
        const uint32_t sum = mna_fp_add(e, 0x3F800000u);
        s += exp_cycles(x ^ 0x80000000u) + 1 + 1 + div_cycles(0, 0x3F800000u, sum);
        r = mna_fp_div(0x3F800000u, sum);
        break;
      }
    }
    y->buf[i] = r;
  }
  return s;
}

/* ---------------------------------------------------------------- collectives */
enum { CS_ARRIVE = 0, CS_LEVEL, CS_RECV, CS_SEND, CS_PART };

/* Cycles from the entry barrier's cycle (every tile in SArrive, all_arrive) to the exit
 * barrier's (every tile in SPart): mna_coll.v and the link FIFOs of manna.v, cycle by cycle. */
static int64_t coll_cycles(int T, int L, int bc, uint32_t n) {
  struct {
    int st, lvl, rv, wr;
    uint32_t k, sent;
  } u[CYC_MAX_TILES];
  int upc[CYC_MAX_TILES], dnc[CYC_MAX_TILES]; /* FIFO occupancy of child c's up / down link */
  memset(u, 0, sizeof u);
  memset(upc, 0, sizeof upc);
  memset(dnc, 0, sizeof dnc);
  /* a bound far above any collective's length (a guard against a hang, never reached) */
  const int64_t bound = ((int64_t)n + 8) * 4 * (L + 2) + 64;
  for (int64_t cyc = 0;; cyc++) {
    int all_part = 1;
    for (int t = 0; t < T; t++) all_part = all_part && u[t].st == CS_PART;
    if (all_part || cyc > bound) return cyc;
    int pop_up[CYC_MAX_TILES] = {0}, pop_dn[CYC_MAX_TILES] = {0};
    int push_up[CYC_MAX_TILES] = {0}, push_dn[CYC_MAX_TILES] = {0};
    int take[CYC_MAX_TILES] = {0}, txt[CYC_MAX_TILES] = {0}, srd[CYC_MAX_TILES] = {0};
    /* combinational: the FIFO handshakes on this cycle's state */
    for (int t = 0; t < T; t++) {
      const int lvl = u[t].lvl;
      const int child = t + (1 << lvl);
      const int link = lvl < L && (t % (2 << lvl)) == 0 && child < T; /* t's link at lvl */
      if (u[t].st == CS_RECV && u[t].k < n) {
        if (bc) take[t] = t > 0 && dnc[t] > 0;
        else take[t] = link && upc[child] > 0;
        if (take[t]) {
          if (bc) pop_dn[t] = 1;
          else pop_up[child] = 1;
        }
      }
      if (u[t].st == CS_SEND) {
        const int txv = u[t].rv;
        int ready;
        if (bc) ready = link && dnc[child] < 2;
        else ready = t > 0 && upc[t] < 2;
        txt[t] = txv && ready;
        if (txt[t]) {
          if (bc) push_dn[child] = 1;
          else push_up[t] = 1;
        }
        srd[t] = u[t].k < n && (!u[t].rv || txt[t]);
      }
    }
    for (int c = 0; c < T; c++) {
      upc[c] += push_up[c] - pop_up[c];
      dnc[c] += push_dn[c] - pop_dn[c];
    }
    /* sequential */
    for (int t = 0; t < T; t++) {
      const int wr_now = u[t].wr;
      u[t].wr = 0;
      switch (u[t].st) {
        case CS_ARRIVE: {
          u[t].k = u[t].sent = 0;
          if (bc) {
            if (t == 0) {
              u[t].lvl = L;
              u[t].st = CS_LEVEL;
            } else {
              int low = 0;
              while (!((t >> low) & 1)) low++;
              u[t].lvl = low;
              u[t].st = CS_RECV;
            }
          } else {
            u[t].lvl = 0;
            u[t].st = CS_LEVEL;
          }
          break;
        }
        case CS_LEVEL: {
          u[t].k = u[t].sent = 0;
          const int lvl = u[t].lvl;
          if (bc) {
            if (lvl == 0 || n == 0) {
              u[t].st = CS_PART;
            } else {
              u[t].lvl = lvl - 1;
              if (t + (1 << (lvl - 1)) < T) u[t].st = CS_SEND;
            }
          } else {
            const int bit = 1 << lvl;
            const int sender = (t & bit) != 0;
            const int has_child = (t & (bit - 1)) == 0 && !sender && t + bit < T;
            if (lvl + 1 > L || n == 0) u[t].st = CS_PART;
            else if (sender) u[t].st = CS_SEND;
            else if (has_child) u[t].st = CS_RECV;
            else u[t].lvl = lvl + 1;
          }
          break;
        }
        case CS_RECV: {
          const uint32_t k = u[t].k;
          if (take[t]) {
            u[t].k = k + 1;
            if (!bc) u[t].wr = 1;
          }
          if (k == n && !wr_now) {
            if (!bc) u[t].lvl++;
            u[t].st = CS_LEVEL;
          }
          break;
        }
        case CS_SEND: {
          const uint32_t sent = u[t].sent;
          if (srd[t]) u[t].k++;
          if (txt[t]) u[t].sent++;
          u[t].rv = srd[t] || (u[t].rv && !txt[t]);
          if (txt[t] && sent + 1 == n) {
            u[t].rv = 0;
            u[t].st = bc ? CS_LEVEL : CS_PART;
          }
          break;
        }
        default:
          break;
      }
    }
  }
}

/* Every tile waits in a collective: performed (status 0) or aborted by a kind/count mismatch. */
static void coll_resolve(cyc_t *y, int status) {
  const int T = y->cfg.tiles;
  int64_t arrive = 0; /* the entry barrier's cycle: every coll unit in SArrive */
  for (int i = 0; i < T; i++) arrive = max64(arrive, y->t[i].issue + 1);
  if (status != 0) {
    /* abort at the barrier: done the next cycle, SStop the one after */
    for (int i = 0; i < T; i++) stop_tile(&y->t[i], arrive + 2, status);
    return;
  }
  const int64_t part = arrive + coll_cycles(T, y->lvls, y->t[0].bcast, y->t[0].lines);
  for (int i = 0; i < T; i++) {
    y->t[i].state = CT_RUN;
    y->t[i].next = part + 2; /* done seen at part + 1, FETCH the cycle after */
  }
}

/* Some tiles wait, every other tile has stopped: aborted by another tile's error status, or by
 * the fence watchdog. */
static void coll_abort_all(cyc_t *y) {
  const int T = y->cfg.tiles;
  int64_t err_at = -1; /* the first cycle a tile shows an error status */
  int64_t wd_from = 0; /* the first cycle of the watchdog's condition */
  for (int i = 0; i < T; i++) {
    const ctile_t *t = &y->t[i];
    if (t->state == CT_STOP) {
      if (t->status >= MNA_ST_OPCODE && t->status <= MNA_ST_TIMEOUT &&
          (err_at < 0 || t->stop + 1 < err_at))
        err_at = t->stop + 1;
      wd_from = max64(wd_from, t->stop + 1);
    } else if (t->state == CT_WAIT) {
      wd_from = max64(wd_from, t->issue + 1);
    }
  }
  for (int i = 0; i < T; i++) {
    ctile_t *t = &y->t[i];
    if (t->state != CT_WAIT) continue;
    if (err_at >= 0) {
      const int64_t c = max64(t->issue + 1, err_at); /* the abort, in SArrive */
      stop_tile(t, c + 2, MNA_ST_COLL);
    } else {
      const int64_t c = wd_from + (int64_t)y->cfg.fence_timeout; /* timeout_q seen */
      stop_tile(t, c + 2, MNA_ST_TIMEOUT);
    }
  }
}

/* ---------------------------------------------------------------- instructions */
static int has_count(unsigned op) {
  switch (op) {
    case MNA_OP_LOOP: case MNA_OP_DMAT: case MNA_OP_DMA: case MNA_OP_VMM: case MNA_OP_SWR:
    case MNA_OP_EL: case MNA_OP_SFU: case MNA_OP_REDUCE: case MNA_OP_BCAST:
      return 1;
    default:
      return 0;
  }
}

static void insn(cyc_t *y, const mna_event_t *ev) {
  ctile_t *t = &y->t[ev->tile];
  const mna_cfg_t *c = &y->cfg;
  const int64_t F = t->next, E0 = F + 2;
  if (ev->status == MNA_ST_PC) {
    stop_tile(t, F + 1, ev->status);
    return;
  }
  if (ev->status != 0) {
    stop_tile(t, E0 + 1, ev->status);
    return;
  }
  const uint64_t w = ev->word;
  const unsigned op = mna_op(w), fl = mna_flags(w);
  const uint64_t n = ev->cnt, E = (uint64_t)c->emacs;
  const uint64_t A = ev->a, B = ev->b, C = ev->c;
  unsigned lg = 0;
  while ((1u << lg) < (unsigned)c->emacs) lg++;
  if (op == MNA_OP_HALT) {
    stop_tile(t, E0 + 1, MNA_ST_DONE);
    return;
  }
  const int zero = has_count(op) && n == 0 && op != MNA_OP_LOOP && op != MNA_OP_REDUCE &&
                   op != MNA_OP_BCAST;
  if (zero) {
    t->next = E0 + 1;
    return;
  }
  /* the halves the instruction touches */
  const uint64_t msl = (uint64_t)c->ms_lines, vsl = (uint64_t)c->vs_lines;
  unsigned msh = 0, vsh = 0;
  switch (op) {
    case MNA_OP_DMAT:
      msh = halves(A, (fl & MNA_FL_PAD) ? A + (((n - 1) * (E + 1) + E - 1) >> lg) : A + n - 1, msl);
      break;
    case MNA_OP_DMA:
      vsh = halves(A, A + n - 1, vsl);
      break;
    case MNA_OP_VMM:
      msh = halves(B, (fl & MNA_FL_T) ? B + E - 1 + ((E + n - 2) >> lg) : B + n - 1, msl);
      if (!(fl & MNA_FL_SQ)) vsh = halves(C >> lg, (C + n - 1) >> lg, vsl);
      break;
    case MNA_OP_SWR:
      msh = halves(A, A + n - 1, msl);
      vsh = halves(B >> lg, (B + n - 1) >> lg, vsl);
      break;
    case MNA_OP_EL:
    case MNA_OP_SFU:
      vsh = 3;
      break;
    case MNA_OP_RFLD:
    case MNA_OP_RFST:
      vsh = halves(B, B, vsl);
      break;
    case MNA_OP_SLD:
    case MNA_OP_SST:
      vsh = halves(B >> lg, B >> lg, vsl);
      break;
    case MNA_OP_REDUCE:
    case MNA_OP_BCAST:
      if (n) vsh = halves(A, A + n - 1, vsl);
      break;
    default:
      break;
  }
  /* hazard wait in EXEC: issue in cycle I */
  int64_t I = E0;
  if (op == MNA_OP_DMAT) I = max64(I, t->dmat_end + 1);
  else if (t->dmat_end >= E0 && (msh & t->dmat_h)) I = max64(I, t->dmat_end + 1);
  if (op == MNA_OP_DMA) I = max64(I, t->dma_end + 1);
  else if (t->dma_end >= E0 && (vsh & t->dma_h)) I = max64(I, t->dma_end + 1);
  int64_t D = -1; /* vex / sfu: the done pulse is seen in cycle I + D */
  switch (op) {
    case MNA_OP_DMAT:
      t->dmat_end = I + (int64_t)n + 2;
      t->dmat_h = msh;
      t->next = I + 1;
      return;
    case MNA_OP_DMA:
      t->dma_end = I + (int64_t)n + 2;
      t->dma_h = vsh;
      t->next = I + 1;
      return;
    case MNA_OP_VMM:
      D = ((fl & MNA_FL_T) && !c->transpose) ? (int64_t)(n * E) + 2 : (int64_t)n + 3;
      break;
    case MNA_OP_SWR:
      D = (int64_t)n * (c->emac_ops ? 3 : 5) + 2;
      break;
    case MNA_OP_EL: {
      const int bs = (fl & MNA_FL_BS) != 0, cs = (fl & MNA_FL_CS) != 0;
      const int fma = (fl & 3) == MNA_EL_FMA;
      int p = 1 + !bs + (fma && !cs);
      if (!c->emac_ops && !fma && p < 3) p = 3;
      D = (int64_t)n * p + 2;
      break;
    }
    case MNA_OP_RFZ:
    case MNA_OP_RFST:
      D = 2;
      break;
    case MNA_OP_RFLD:
      D = 3;
      break;
    case MNA_OP_SFU:
      D = sfu_states(y, ev->tile, fl & 7, ev->a, ev->b, ev->cnt) + 1;
      break;
    case MNA_OP_SLD:
      D = 4;
      break;
    case MNA_OP_SST:
      D = 2;
      break;
    case MNA_OP_REDUCE:
    case MNA_OP_BCAST:
      t->state = CT_WAIT;
      t->issue = I;
      t->bcast = op == MNA_OP_BCAST;
      t->lines = ev->cnt;
      if (c->tiles == 1) coll_resolve(y, 0); /* the model does not wait on one tile */
      return;
    default: /* nop, li, addi, loop, endloop, agen */
      t->next = E0 + 1;
      return;
  }
  t->next = I + D + 1;
}

static void on_event(void *ctx, const mna_event_t *ev) {
  cyc_t *y = ctx;
  switch (ev->kind) {
    case MNA_EV_INSN:
      if (ev->tile >= 0 && ev->tile < y->cfg.tiles && y->t[ev->tile].state == CT_RUN) insn(y, ev);
      break;
    case MNA_EV_COLL:
      coll_resolve(y, ev->status);
      break;
    case MNA_EV_ABORT:
      if (ev->tile >= 0 && ev->tile < y->cfg.tiles && y->t[ev->tile].state == CT_WAIT)
        coll_abort_all(y);
      break;
    default:
      break;
  }
}

int mna_run_cycles(mna_t *m, uint64_t max_insns, uint64_t *tile_cycles, uint64_t *run_cycles) {
  cyc_t *y = calloc(1, sizeof *y);
  if (!y) return -1;
  y->m = m;
  y->cfg = *mna_cfg(m);
  while ((1 << y->lvls) < y->cfg.tiles) y->lvls++;
  for (int i = 0; i < y->cfg.tiles; i++) {
    mna_tile_status_t st;
    mna_tile_status(m, i, &st);
    ctile_t *t = &y->t[i];
    t->state = st.status == MNA_ST_RUN ? CT_RUN : CT_IDLE;
    t->dmat_end = t->dma_end = -1;
  }
  mna_set_hook(m, on_event, y);
  const int r = mna_run(m, max_insns);
  mna_set_hook(m, NULL, NULL);
  int rc = (r != 0 || y->oom) ? -1 : 0;
  uint64_t most = 0;
  for (int i = 0; i < y->cfg.tiles; i++) {
    const ctile_t *t = &y->t[i];
    uint64_t cyc = 0;
    if (t->state == CT_STOP) cyc = (uint64_t)t->stop + 1;
    else if (t->state != CT_IDLE) rc = -1;
    if (tile_cycles) tile_cycles[i] = cyc;
    if (cyc > most) most = cyc;
  }
  if (run_cycles) *run_cycles = most + MNA_CYCLES_HOST_OFFSET;
  free(y->buf);
  free(y);
  return rc;
}
