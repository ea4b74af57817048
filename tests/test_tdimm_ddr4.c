/* test_tdimm_ddr4.c -- unit tests of the DDR4-3200 device model and JEDEC timing checker
 * (cmodel/tensordimm/tdimm_ddr4.c, docs/tensordimm_ddr4.md), built with ASan/UBSan.
 *
 * For every rule the checker enforces: a directed command sequence that just meets it (no
 * violation) and the same sequence with the last command one clock off (exactly one violation,
 * the message naming the rule).  Where the default timings make two rules coincide (tRC = tRAS +
 * tRP, tCCD_S = burst, ...) the parameters are changed so that one rule is tested alone.  Then:
 * state rules, read-after-write data with the documented delivery cycle, refresh postponement,
 * PREA, multi-rank rules, a full-rate stream, the mapping, counters, reset, the storage.
 * Last line: "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "tdimm_ddr4.h"

#include "test_check.h"

typedef unsigned long long ull;

#define ACT(r, g, b, row) tdimm_ddr4_cmd(TDIMM_DDR4_ACT, r, g, b, row)
#define RD(r, g, b, col) tdimm_ddr4_cmd(TDIMM_DDR4_RD, r, g, b, col)
#define WR(r, g, b, col) tdimm_ddr4_cmd(TDIMM_DDR4_WR, r, g, b, col)
#define PRE(r, g, b) tdimm_ddr4_cmd(TDIMM_DDR4_PRE, r, g, b, 0)
#define PREA(r) tdimm_ddr4_cmd(TDIMM_DDR4_PREA, r, 0, 0, 0)
#define REF(r) tdimm_ddr4_cmd(TDIMM_DDR4_REF, r, 0, 0, 0)

static tdimm_ddr4_params_t defp(unsigned ranks) {
  tdimm_ddr4_params_t p;
  tdimm_ddr4_params_default(&p, ranks);
  return p;
}

/* ---- a driver: commands at absolute DRAM clocks, read returns with their presentation cycle */
#define MAXRET 256
typedef struct {
  tdimm_ddr4_t *d;
  uint32_t cmd[4], wr[16];
  int used[4];
  unsigned nret;
  uint64_t ret_cycle[MAXRET]; /* core cycle in which read i is presented */
  uint32_t ret[MAXRET][16];
} tb_t;

static int tb_bugs; /* sequences that put two commands on one clock (a bug of this test) */

static void tb_init(tb_t *t, tdimm_ddr4_t *d) {
  memset(t, 0, sizeof *t);
  t->d = d;
}

static void tb_step(tb_t *t) {
  uint32_t out[16];
  uint64_t c = tdimm_ddr4_now(t->d);
  if (tdimm_ddr4_cycle(t->d, t->cmd, t->wr, out)) {
    if (t->nret < MAXRET) {
      t->ret_cycle[t->nret] = c + 1;
      memcpy(t->ret[t->nret], out, sizeof out);
    }
    t->nret++;
  }
  memset(t->cmd, 0, sizeof t->cmd);
  memset(t->used, 0, sizeof t->used);
  memset(t->wr, 0, sizeof t->wr);
}

static void tb_at(tb_t *t, uint64_t clock, uint32_t cmd, const uint32_t *wr) {
  while (clock / 4 > tdimm_ddr4_now(t->d)) tb_step(t);
  if (clock / 4 < tdimm_ddr4_now(t->d) || t->used[clock % 4]) {
    printf("test bug: clock %llu already passed or taken\n", (ull)clock);
    tb_bugs++;
    return;
  }
  t->cmd[clock % 4] = cmd;
  t->used[clock % 4] = 1;
  if (wr) memcpy(t->wr, wr, sizeof t->wr);
}

static void tb_run(tb_t *t, uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; i++) tb_step(t);
}

/* ---- rule pairs */
typedef struct {
  int64_t t;
  uint32_t c;
} ev_t;

/* Runs the events (sorted by clock) on a fresh device and 40 more cycles; returns the number of
 * violations, the first message in msg. */
static ull run_events(const tdimm_ddr4_params_t *p, const ev_t *ev, size_t n, char *msg,
                      size_t msz) {
  tdimm_ddr4_t *d = tdimm_ddr4_new(p, 1);
  if (!d) {
    snprintf(msg, msz, "tdimm_ddr4_new failed");
    return 999;
  }
  tb_t t;
  tb_init(&t, d);
  for (size_t i = 0; i < n; i++) tb_at(&t, (uint64_t)ev[i].t, ev[i].c, NULL);
  tb_run(&t, 40);
  ull v = tdimm_ddr4_violations(d);
  const char *m = tdimm_ddr4_violation_msg(d, 0);
  snprintf(msg, msz, "%s", m ? m : "(none)");
  tdimm_ddr4_free(d);
  return v;
}

/* The prefix events, then `last` at t_meet (no violation) and at t_break (exactly one, naming
 * `rule`, and `also` when given). */
static void pair(const char *name, const tdimm_ddr4_params_t *p, const ev_t *pre, size_t n,
                 uint32_t last, int64_t t_meet, int64_t t_break, const char *rule,
                 const char *also) {
  ev_t e[40];
  char msg[TDIMM_DDR4_MSG_LEN + 16];
  if (n >= 40) {
    tb_bugs++;
    return;
  }
  memcpy(e, pre, n * sizeof *e);
  e[n].c = last;
  e[n].t = t_meet;
  ull v = run_events(p, e, n + 1, msg, sizeof msg);
  CHECK(v == 0, "%s: last command at clock %lld meets the rule: %llu violations (%s)", name,
        (long long)t_meet, v, msg);
  e[n].t = t_break;
  v = run_events(p, e, n + 1, msg, sizeof msg);
  CHECK(v == 1 && strstr(msg, rule) && (!also || strstr(msg, also)),
        "%s: last command at clock %lld breaks %s: %llu violations, first: %s", name,
        (long long)t_break, rule, v, msg);
}

/* One sequence, the expected count and the rule of the first message. */
static void single(const char *name, const tdimm_ddr4_params_t *p, const ev_t *ev, size_t n,
                   ull want, const char *rule) {
  char msg[TDIMM_DDR4_MSG_LEN + 16];
  ull v = run_events(p, ev, n, msg, sizeof msg);
  CHECK(v == want && (!rule || strstr(msg, rule)), "%s: %llu violations (want %llu %s), first: %s",
        name, v, want, rule ? rule : "", msg);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ================================================================ bank timing */
static void test_act_rules(void) {
  tdimm_ddr4_params_t p = defp(1);
  /* tRAS: ACT -> PRE */
  {
    ev_t e[] = {{0, ACT(0, 1, 2, 5)}};
    pair("ACT->PRE tRAS", &p, e, N(e), PRE(0, 1, 2), 52, 51, "tRAS: 51 < 52 after ACT at clock 0",
         NULL);
  }
  /* tRP: PRE -> ACT (tRC met either way) */
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {60, PRE(0, 0, 0)}};
    pair("PRE->ACT tRP", &p, e, N(e), ACT(0, 0, 0, 6), 82, 81, "tRP: 21 < 22 after PRE at clock 60",
         NULL);
  }
  /* tRC alone: tRC raised to 80 above tRAS + tRP = 74 */
  {
    tdimm_ddr4_params_t q = p;
    q.trc = 80;
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {52, PRE(0, 0, 0)}};
    pair("ACT->ACT same bank tRC", &q, e, N(e), ACT(0, 0, 0, 6), 80, 79, "tRC: 79 < 80", NULL);
  }
  /* tRRD_L: same bank group, another bank */
  {
    ev_t e[] = {{0, ACT(0, 2, 0, 5)}};
    pair("ACT->ACT same group tRRD_L", &p, e, N(e), ACT(0, 2, 1, 5), 8, 7,
         "tRRD_L: 7 < 8 after ACT bg 2 bank 0", NULL);
  }
  /* tRRD_S: another bank group */
  {
    ev_t e[] = {{0, ACT(0, 2, 0, 5)}};
    pair("ACT->ACT other group tRRD_S", &p, e, N(e), ACT(0, 3, 0, 5), 4, 3,
         "tRRD_S: 3 < 4 after ACT bg 2 bank 0", NULL);
  }
  /* tFAW: the 5th ACT, 34 clocks after the 1st */
  {
    ev_t e[] = {
        {0, ACT(0, 0, 0, 1)}, {4, ACT(0, 1, 0, 1)}, {8, ACT(0, 2, 0, 1)}, {12, ACT(0, 3, 0, 1)}};
    pair("5 ACTs tFAW", &p, e, N(e), ACT(0, 0, 1, 1), 34, 33, "tFAW: 33 < 34", NULL);
    /* a 5th ACT right after, on the other rank: tFAW and tRRD are per rank */
    tdimm_ddr4_params_t q = defp(2);
    ev_t f[] = {{0, ACT(0, 0, 0, 1)}, {1, ACT(1, 0, 0, 1)},  {4, ACT(0, 1, 0, 1)},
                {8, ACT(0, 2, 0, 1)}, {12, ACT(0, 3, 0, 1)}, {13, ACT(1, 0, 1, 1)},
                {17, ACT(1, 1, 0, 1)}};
    single("tFAW and tRRD are per rank", &q, f, N(f), 0, NULL);
  }
  /* tRCD: ACT -> RD / WR; the exact message */
  {
    ev_t e[] = {{0, ACT(0, 1, 2, 9)}};
    pair("ACT->RD tRCD", &p, e, N(e), RD(0, 1, 2, 5), 22, 21,
         "clock 21: RD rank 0 bg 1 bank 2 col 5: tRCD: 21 < 22 after ACT at clock 0", NULL);
    pair("ACT->WR tRCD", &p, e, N(e), WR(0, 1, 2, 5), 22, 21, "tRCD: 21 < 22", NULL);
  }
  /* tRTP: RD -> PRE (late RD so that tRAS is met) */
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {48, RD(0, 0, 0, 0)}};
    pair("RD->PRE tRTP", &p, e, N(e), PRE(0, 0, 0), 60, 59, "tRTP: 11 < 12 after RD at clock 48",
         NULL);
  }
  /* tWR: WR -> PRE = CWL + 4 + tWR = 44 */
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {22, WR(0, 0, 0, 0)}};
    pair("WR->PRE CWL+4+tWR", &p, e, N(e), PRE(0, 0, 0), 66, 65,
         "tWR: 43 < 44 after WR at clock 22", NULL);
  }
}

/* ================================================================ PREA */
static void test_prea(void) {
  tdimm_ddr4_params_t p = defp(1);
  {
    ev_t e[] = {{0, ACT(0, 1, 2, 5)}};
    pair("ACT->PREA tRAS", &p, e, N(e), PREA(0), 52, 51, "tRAS: 51 < 52 after ACT bg 1 bank 2",
         NULL);
  }
  {
    ev_t e[] = {{0, ACT(0, 3, 1, 5)}, {48, RD(0, 3, 1, 0)}};
    pair("RD->PREA tRTP", &p, e, N(e), PREA(0), 60, 59, "tRTP: 11 < 12 after RD bg 3 bank 1", NULL);
  }
  {
    ev_t e[] = {{0, ACT(0, 2, 3, 5)}, {22, WR(0, 2, 3, 0)}};
    pair("WR->PREA tWR", &p, e, N(e), PREA(0), 66, 65, "tWR: 43 < 44 after WR bg 2 bank 3", NULL);
  }
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {58, PREA(0)}};
    pair("PREA->ACT tRP", &p, e, N(e), ACT(0, 0, 0, 5), 80, 79,
         "tRP: 21 < 22 after PREA at clock 58", NULL);
  }
  /* PREA in any state: all idle at power-up; two open banks both closed */
  {
    ev_t e[] = {{0, PREA(0)},  {1, PRE(0, 1, 1)}, {2, ACT(0, 0, 0, 1)}, {6, ACT(0, 1, 0, 2)},
                {60, PREA(0)}, {61, PREA(0)},     {62, PRE(0, 0, 0)}};
    single("PREA/PRE to idle banks are legal NOPs", &p, e, N(e), 0, NULL);
    ev_t f[] = {{0, ACT(0, 0, 0, 1)}, {6, ACT(0, 1, 0, 2)}, {60, PREA(0)}, {100, RD(0, 1, 0, 0)}};
    single("PREA closes every bank", &p, f, N(f), 1, "RD to an idle bank");
    /* PREA of another rank does not touch this one */
    tdimm_ddr4_params_t q = defp(2);
    ev_t g[] = {{0, ACT(0, 0, 0, 1)}, {60, PREA(1)}, {100, RD(0, 0, 0, 0)}};
    single("PREA is per rank", &q, g, N(g), 0, NULL);
    /* two open banks too young: one violation each */
    ev_t h[] = {{0, ACT(0, 0, 0, 1)}, {8, ACT(0, 0, 1, 2)}, {40, PREA(0)}};
    single("PREA checks every open bank", &p, h, N(h), 2, "tRAS");
  }
  /* PRE to an idle bank has no timing: right after the PRE, and before tRAS of another bank */
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 1)},
                {52, PRE(0, 0, 0)},
                {53, PRE(0, 0, 0)},
                {54, ACT(0, 1, 0, 1)},
                {55, PRE(0, 1, 1)}};
    single("PRE to an idle bank: no timing", &p, e, N(e), 0, NULL);
  }
}

/* ================================================================ CAS timing */
static void test_cas_rules(void) {
  tdimm_ddr4_params_t p = defp(1);
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {22, RD(0, 0, 0, 0)}};
    pair("RD->RD same group tCCD_L", &p, e, N(e), RD(0, 0, 0, 1), 30, 29,
         "tCCD_L: 7 < 8 after RD bg 0 bank 0", NULL);
  }
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {22, WR(0, 0, 0, 0)}};
    pair("WR->WR same group tCCD_L", &p, e, N(e), WR(0, 0, 0, 1), 30, 29,
         "tCCD_L: 7 < 8 after WR bg 0 bank 0", NULL);
  }
  /* tCCD_S = burst: one clock early also overlaps the bus, so tCCD_S = 5 here */
  {
    tdimm_ddr4_params_t q = p;
    q.tccd_s = 5;
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {26, RD(0, 0, 0, 0)}};
    pair("RD->RD other group tCCD_S", &q, e, N(e), RD(0, 1, 0, 0), 31, 30,
         "tCCD_S: 4 < 5 after RD bg 0 bank 0", NULL);
    ev_t f[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {26, WR(0, 0, 0, 0)}};
    pair("WR->WR other group tCCD_S", &q, f, N(f), WR(0, 1, 0, 0), 31, 30,
         "tCCD_S: 4 < 5 after WR bg 0 bank 0", NULL);
  }
  /* RD -> WR = CL + 4 + 2 - CWL = 12, same rank */
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {22, RD(0, 0, 0, 0)}};
    pair("RD->WR same rank", &p, e, N(e), WR(0, 0, 0, 1), 34, 33,
         "RD->WR: 11 < 12 after RD rank 0 bg 0 bank 0", NULL);
  }
  /* RD -> WR any rank (tRTRS 0 so that the bus rule does not coincide) */
  {
    tdimm_ddr4_params_t q = defp(2);
    q.trtrs = 0;
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(1, 0, 0, 5)}, {26, RD(0, 0, 0, 0)}};
    pair("RD->WR other rank", &q, e, N(e), WR(1, 0, 0, 0), 38, 37,
         "RD->WR: 11 < 12 after RD rank 0", NULL);
    /* with the default tRTRS both rules hold at 38 and both break at 37 */
    tdimm_ddr4_params_t r = defp(2);
    ev_t f[] = {
        {0, ACT(0, 0, 0, 5)}, {4, ACT(1, 0, 0, 5)}, {26, RD(0, 0, 0, 0)}, {38, WR(1, 0, 0, 0)}};
    single("RD->WR other rank, default tRTRS: meets", &r, f, N(f), 0, NULL);
    f[3].t = 37;
    single("RD->WR other rank, default tRTRS: breaks two rules", &r, f, N(f), 2, "RD->WR");
  }
  /* WR -> RD same rank: CWL + 4 + tWTR_L = 32, other group CWL + 4 + tWTR_S = 24 */
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {22, WR(0, 0, 0, 0)}};
    pair("WR->RD same group tWTR_L", &p, e, N(e), RD(0, 0, 0, 0), 54, 53,
         "tWTR_L: 31 < 32 after WR bg 0 bank 0", NULL);
    ev_t f[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {26, WR(0, 0, 0, 0)}};
    pair("WR->RD other group tWTR_S", &p, f, N(f), RD(0, 1, 0, 0), 50, 49,
         "tWTR_S: 23 < 24 after WR bg 0 bank 0", NULL);
    /* another rank: only the bus rule, met at once */
    tdimm_ddr4_params_t q = defp(2);
    ev_t g[] = {
        {0, ACT(0, 0, 0, 5)}, {4, ACT(1, 0, 0, 5)}, {26, WR(0, 0, 0, 0)}, {28, RD(1, 0, 0, 0)}};
    single("WR->RD other rank: no tWTR", &q, g, N(g), 0, NULL);
  }
}

/* ================================================================ data bus */
static void test_bus(void) {
  /* overlap alone: burst 5 > tCCD_S 4 */
  {
    tdimm_ddr4_params_t q = defp(1);
    q.burst = 5;
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {26, RD(0, 0, 0, 0)}};
    pair("bus overlap (burst 5)", &q, e, N(e), RD(0, 1, 0, 0), 31, 30,
         "bus: burst [52, 57) overlaps the RD burst [48, 53) of rank 0 (RD at clock 26)", NULL);
  }
  tdimm_ddr4_params_t p = defp(2);
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(1, 0, 0, 5)}, {26, RD(0, 0, 0, 0)}};
    pair("RD rank 0 -> RD rank 1 tRTRS", &p, e, N(e), RD(1, 0, 0, 0), 32, 31, "tRTRS: 1 < 2", NULL);
    ev_t f[] = {
        {0, ACT(0, 0, 0, 5)}, {4, ACT(1, 0, 0, 5)}, {26, RD(0, 0, 0, 0)}, {29, RD(1, 0, 0, 0)}};
    single("RD bursts of two ranks overlap", &p, f, N(f), 1, "bus: burst [51, 55) overlaps");
  }
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(1, 0, 0, 5)}, {26, WR(0, 0, 0, 0)}};
    pair("WR rank 0 -> WR rank 1 tRTRS", &p, e, N(e), WR(1, 0, 0, 0), 32, 31, "tRTRS: 1 < 2",
         "WR burst [42, 46) of rank 0");
  }
  /* four ranks, a RD of each rank every 6 clocks: legal */
  {
    tdimm_ddr4_params_t q = defp(4);
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {1, ACT(1, 0, 0, 5)}, {2, ACT(2, 0, 0, 5)},
                {3, ACT(3, 0, 0, 5)}, {26, RD(0, 0, 0, 0)}, {32, RD(1, 0, 0, 0)},
                {38, RD(2, 0, 0, 0)}, {44, RD(3, 0, 0, 0)}, {50, RD(0, 0, 0, 1)}};
    single("four ranks, RD every 6 clocks", &q, e, N(e), 0, NULL);
  }
}

/* ================================================================ refresh */
static void test_refresh(void) {
  tdimm_ddr4_params_t p = defp(1);
  {
    ev_t e[] = {{0, REF(0)}};
    pair("REF->ACT tRFC", &p, e, N(e), ACT(0, 0, 0, 1), 560, 559,
         "tRFC: 559 < 560 after REF at clock 0", NULL);
    pair("REF->REF tRFC", &p, e, N(e), REF(0), 560, 559, "tRFC: 559 < 560", NULL);
    tdimm_ddr4_params_t q = defp(2);
    ev_t f[] = {{0, REF(0)}, {1, ACT(1, 0, 0, 1)}, {5, ACT(1, 1, 0, 1)}};
    single("tRFC is per rank", &q, f, N(f), 0, NULL);
  }
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 1)}, {52, PRE(0, 0, 0)}};
    pair("PRE->REF tRP", &p, e, N(e), REF(0), 74, 73, "tRP: 21 < 22 after PRE bg 0 bank 0", NULL);
    ev_t f[] = {{0, ACT(0, 3, 2, 1)}, {52, PREA(0)}};
    pair("PREA->REF tRP", &p, f, N(f), REF(0), 74, 73, "tRP: 21 < 22 after PREA bg 3 bank 2", NULL);
    ev_t g[] = {{0, ACT(0, 1, 1, 1)}, {100, REF(0)}};
    single("REF with a bank open", &p, g, N(g), 1, "REF with open banks: bg 1 bank 1");
  }
  /* the deadline: 8 REF may be postponed; the 9th missed is a violation at clock 9 tREFI */
  {
    const int64_t t9 = 9 * 12480;
    ev_t e[] = {{0, PREA(0)}};
    pair("refresh: 9 tREFI without REF", &p, e, N(e), REF(0), t9, t9 + 1,
         "clock 112320: rank 0: refresh: 0 REF since clock 0, 1 required", NULL);
  }
  {
    tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
    tb_t t;
    tb_init(&t, d);
    tb_run(&t, 9 * 12480 / 4);
    CHECK(tdimm_ddr4_violations(d) == 0, "no REF for clocks 0..9 tREFI - 1: no violation");
    tb_run(&t, 1);
    CHECK(tdimm_ddr4_violations(d) == 1, "no REF by clock 9 tREFI: %llu violations",
          (ull)tdimm_ddr4_violations(d));
    tb_run(&t, 12480 / 4 - 1);
    CHECK(tdimm_ddr4_violations(d) == 1, "... and no second one before 10 tREFI");
    tb_run(&t, 1);
    CHECK(tdimm_ddr4_violations(d) == 2, "a second one at 10 tREFI: %llu",
          (ull)tdimm_ddr4_violations(d));
    tb_run(&t, 10 * 12480 / 4);
    CHECK(tdimm_ddr4_violations(d) == 12, "one per further missed REF: %llu",
          (ull)tdimm_ddr4_violations(d));
    tdimm_ddr4_free(d);
  }
  /* steady REF every tREFI for 40 tREFI: no violation, tRFC clocks counted */
  {
    tdimm_ddr4_params_t q = defp(2);
    tdimm_ddr4_t *d = tdimm_ddr4_new(&q, 1);
    tb_t t;
    tb_init(&t, d);
    for (int i = 1; i <= 40; i++) {
      tb_at(&t, (uint64_t)i * 12480, REF(0), NULL);
      tb_at(&t, (uint64_t)i * 12480 + 1, REF(1), NULL);
    }
    tb_run(&t, 1000);
    tdimm_ddr4_stats_t s;
    tdimm_ddr4_stats(d, &s);
    CHECK(tdimm_ddr4_violations(d) == 0 && s.ref == 80 && s.ref_clocks == 40 * 561,
          "REF every tREFI: %llu violations, %llu REF, %llu tRFC clocks",
          (ull)tdimm_ddr4_violations(d), (ull)s.ref, (ull)s.ref_clocks);
    tdimm_ddr4_free(d);
  }
  /* only rank 0 refreshed: rank 1 is reported */
  {
    tdimm_ddr4_params_t q = defp(2);
    ev_t e[] = {{12480, REF(0)},     {2 * 12480, REF(0)}, {3 * 12480, REF(0)},
                {4 * 12480, REF(0)}, {5 * 12480, REF(0)}, {6 * 12480, REF(0)},
                {7 * 12480, REF(0)}, {8 * 12480, REF(0)}, {9 * 12480, REF(0)}};
    single("refresh is per rank", &q, e, N(e), 1, "rank 1: refresh");
  }
  /* trefi 0: no deadline */
  {
    tdimm_ddr4_params_t q = p;
    q.trefi = 0;
    ev_t e[] = {{200000, PREA(0)}};
    single("tREFI 0 turns the deadline off", &q, e, N(e), 0, NULL);
  }
}

/* ================================================================ state and encoding rules */
static void test_state(void) {
  tdimm_ddr4_params_t p = defp(1);
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 1)}, {100, ACT(0, 0, 0, 2)}};
    single("ACT to an open bank", &p, e, N(e), 1, "ACT to an open bank (row 1 open)");
  }
  {
    ev_t e[] = {{10, RD(0, 1, 1, 3)}};
    single("RD to an idle bank", &p, e, N(e), 1,
           "clock 10: RD rank 0 bg 1 bank 1 col 3: RD to an idle bank");
    ev_t f[] = {{10, WR(0, 1, 1, 3)}};
    single("WR to an idle bank", &p, f, N(f), 1, "WR to an idle bank");
    ev_t g[] = {{0, ACT(0, 1, 1, 3)}, {52, PRE(0, 1, 1)}, {80, WR(0, 1, 1, 3)}};
    single("WR after PRE", &p, g, N(g), 1, "WR to an idle bank");
  }
  {
    ev_t e[] = {{0, ACT(0, 0, 0, 1)}, {22, RD(0, 0, 0, 128)}};
    single("column 128", &p, e, N(e), 1, "column 128 out of range");
    ev_t f[] = {{0, ACT(0, 0, 0, 1)}, {22, RD(0, 0, 0, 127)}};
    single("column 127", &p, f, N(f), 0, NULL);
    ev_t g[] = {{0, ACT(0, 0, 0, 65536)}};
    single("row 65536", &p, g, N(g), 1, "row 65536 out of range");
    ev_t h[] = {{0, ACT(0, 0, 0, 65535)}};
    single("row 65535", &p, h, N(h), 0, NULL);
    ev_t i[] = {{0, ACT(1, 0, 0, 1)}};
    single("rank 1 of a 1-rank DIMM", &p, i, N(i), 1, "rank 1 out of range (1 ranks)");
    tdimm_ddr4_params_t q = defp(2);
    ev_t j[] = {{0, REF(3)}};
    single("rank 3 of a 2-rank DIMM", &q, j, N(j), 1, "rank 3 out of range");
    ev_t k[] = {{5, tdimm_ddr4_cmd(7, 0, 0, 0, 0)}};
    single("cmd 7", &p, k, N(k), 1, "clock 5: cmd 7 (word 0x3800000): illegal command");
  }
  /* two CAS in one core cycle (tCCD_S 1, burst 1: nothing else breaks) */
  {
    tdimm_ddr4_params_t q = p;
    q.tccd_s = 1;
    q.burst = 1;
    ev_t e[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {28, RD(0, 0, 0, 0)}};
    pair("one CAS per core cycle (RD, RD)", &q, e, N(e), RD(0, 1, 0, 0), 32, 31,
         "two CAS in one core cycle", NULL);
    ev_t f[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {28, WR(0, 0, 0, 0)}};
    pair("one CAS per core cycle (WR, WR)", &q, f, N(f), WR(0, 1, 0, 0), 32, 31,
         "two CAS in one core cycle", NULL);
    /* read return collision: RDs at clocks 27 and 29 both due in core cycle 14 */
    ev_t g[] = {{0, ACT(0, 0, 0, 5)}, {4, ACT(0, 1, 0, 5)}, {27, RD(0, 0, 0, 0)}};
    pair("read return collision", &q, g, N(g), RD(0, 1, 0, 0), 30, 29,
         "read return collision: core cycle 14 already returns a read; delivered in 15", NULL);
  }
}

/* ================================================================ data */
static void fill(uint32_t *b, uint32_t seed) {
  for (int l = 0; l < 16; l++) b[l] = seed * 0x9E3779B1u + (uint32_t)l * 0x01010101u + 1;
}

/* The mapping as docs/tensordimm.md writes it (independent of the model's). */
static uint64_t doc_block(unsigned ranks, unsigned w, unsigned rank, unsigned bg, unsigned bank,
                          unsigned row, unsigned col) {
  unsigned rw = ranks == 4 ? 2 : ranks == 2 ? 1 : 0;
  uint64_t b = row;
  b = (b << rw) | rank;
  b = (b << 2) | bank;
  b = (b << (7 - w)) | (col >> w);
  b = (b << 2) | bg;
  b = (b << w) | (col & ((1u << w) - 1));
  return b;
}

static void test_data(void) {
  tdimm_ddr4_params_t p = defp(1);
  /* read after write through the device, the delivery cycle of each phase */
  {
    tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
    tb_t t;
    tb_init(&t, d);
    uint32_t x[16], y[16], z[16];
    fill(x, 1);
    fill(y, 2);
    tb_at(&t, 0, ACT(0, 1, 2, 5), NULL);
    tb_at(&t, 22, WR(0, 1, 2, 3), x);    /* core cycle 5 carries x */
    tb_at(&t, 54, RD(0, 1, 2, 3), NULL); /* tWTR_L: 22 + 32; due ceil((54 + 26) / 4) + 1 = 21 */
    uint64_t blk = doc_block(1, 1, 0, 1, 2, 5, 3);
    const uint32_t *m = tdimm_ddr4_peek(d, blk);
    CHECK(m && !memcmp(m, x, sizeof x), "WR stores at the WR command, at the documented block");
    memcpy(tdimm_ddr4_block(d, doc_block(1, 1, 0, 1, 2, 5, 4)), y, sizeof y); /* backdoor */
    tb_at(&t, 62, RD(0, 1, 2, 4), NULL); /* due ceil(88 / 4) + 1 = 23 */
    tb_at(&t, 71, RD(0, 1, 2, 9), NULL); /* never written: zeros; due ceil(97 / 4) + 1 = 26 */
    /* overwrite x after the RD: the RD copied it at the command */
    tb_at(&t, 84, WR(0, 1, 2, 3), y); /* RD->WR: 71 + 12 */
    tb_run(&t, 40);
    memset(z, 0, sizeof z);
    CHECK(t.nret == 3, "three reads returned: %u", t.nret);
    CHECK(t.ret_cycle[0] == 21 && !memcmp(t.ret[0], x, sizeof x),
          "RD at clock 54 returns x in core cycle 21 (got %llu)", (ull)t.ret_cycle[0]);
    CHECK(t.ret_cycle[1] == 23 && !memcmp(t.ret[1], y, sizeof y),
          "RD at clock 62 returns the backdoor block in cycle 23 (got %llu)", (ull)t.ret_cycle[1]);
    CHECK(t.ret_cycle[2] == 26 && !memcmp(t.ret[2], z, sizeof z),
          "RD of an unwritten block returns zeros in cycle 26 (got %llu)", (ull)t.ret_cycle[2]);
    CHECK(tdimm_ddr4_violations(d) == 0, "no violations: %s", tdimm_ddr4_violation_msg(d, 0));
    m = tdimm_ddr4_peek(d, blk);
    CHECK(m && !memcmp(m, y, sizeof y), "the later WR overwrote the block");
    tdimm_ddr4_free(d);
  }
  /* the delivery cycle for every phase and PhyRdLat */
  for (unsigned lat = 0; lat <= 2; lat++)
    for (unsigned ph = 0; ph < 4; ph++) {
      tdimm_ddr4_params_t q = p;
      q.phy_rd_lat = lat;
      tdimm_ddr4_t *d = tdimm_ddr4_new(&q, 1);
      tb_t t;
      tb_init(&t, d);
      tb_at(&t, 0, ACT(0, 0, 0, 1), NULL);
      uint64_t c = 10, clk = 4 * c + ph;
      tb_at(&t, clk, RD(0, 0, 0, 0), NULL);
      tb_run(&t, 30);
      uint64_t due = (clk + 22 + 4 + 3) / 4 + lat;
      CHECK(t.nret == 1 && t.ret_cycle[0] == due,
            "RD in phase %u, PhyRdLat %u: presented in cycle %llu, want %llu", ph, lat,
            (ull)(t.nret ? t.ret_cycle[0] : 0), (ull)due);
      tdimm_ddr4_free(d);
    }
  /* a full-rate stream: one RD per core cycle alternating bank groups, in order, no gaps */
  {
    tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
    tb_t t;
    tb_init(&t, d);
    for (unsigned g = 0; g < 4; g++) tb_at(&t, 4 * g, ACT(0, g, 0, 7), NULL);
    for (unsigned i = 0; i < 64; i++)
      fill(tdimm_ddr4_block(d, doc_block(1, 1, 0, i % 4, 0, 7, i / 4)), 100 + i);
    for (unsigned i = 0; i < 64; i++) tb_at(&t, 36 + 4 * i, RD(0, i % 4, 0, i / 4), NULL);
    tb_run(&t, 40);
    int bad = 0;
    for (unsigned i = 0; i < 64 && i < t.nret; i++) {
      uint32_t w[16];
      fill(w, 100 + i);
      if (t.ret_cycle[i] != 17 + i || memcmp(t.ret[i], w, sizeof w)) bad++;
    }
    tdimm_ddr4_stats_t s;
    tdimm_ddr4_stats(d, &s);
    CHECK(t.nret == 64 && !bad && tdimm_ddr4_violations(d) == 0,
          "full-rate RD stream: %u returned, %d wrong, %llu violations (%s)", t.nret, bad,
          (ull)tdimm_ddr4_violations(d), tdimm_ddr4_violation_msg(d, 0));
    CHECK(s.bus_busy_clocks == 256 && s.row_hits == 60 && s.row_misses == 4 && s.row_conflicts == 0,
          "stream counters: busy %llu hits %llu misses %llu conflicts %llu", (ull)s.bus_busy_clocks,
          (ull)s.row_hits, (ull)s.row_misses, (ull)s.row_conflicts);
    tdimm_ddr4_free(d);
  }
  /* WR goes to the block of its coordinates: 4 ranks, ColLoW 2 */
  {
    tdimm_ddr4_params_t q = defp(4);
    tdimm_ddr4_t *d = tdimm_ddr4_new(&q, 2);
    tb_t t;
    tb_init(&t, d);
    uint32_t x[16];
    fill(x, 77);
    tb_at(&t, 0, ACT(3, 2, 1, 777), NULL);
    tb_at(&t, 22, WR(3, 2, 1, 101), x);
    tb_run(&t, 4);
    const uint32_t *m = tdimm_ddr4_peek(d, doc_block(4, 2, 3, 2, 1, 777, 101));
    CHECK(m && !memcmp(m, x, sizeof x) && tdimm_ddr4_violations(d) == 0,
          "WR rank 3 bg 2 bank 1 row 777 col 101, ColLoW 2");
    tdimm_ddr4_free(d);
  }
  /* a RD to an idle bank still returns (zeros), in order */
  {
    tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
    tb_t t;
    tb_init(&t, d);
    tb_at(&t, 8, RD(0, 0, 0, 0), NULL);
    tb_run(&t, 20);
    CHECK(t.nret == 1 && t.ret_cycle[0] == (8 + 26 + 3) / 4 + 1 && tdimm_ddr4_violations(d) == 1,
          "illegal RD returns a block in order");
    tdimm_ddr4_free(d);
  }
}

/* ================================================================ mapping */
static void test_mapping(void) {
  cutil_rng_t r = cutil_rng_seed(1);
  unsigned rk[3] = {1, 2, 4};
  for (int ri = 0; ri < 3; ri++) {
    tdimm_ddr4_params_t p = defp(rk[ri]);
    for (unsigned w = 0; w <= 7; w++) {
      tdimm_ddr4_t *d = tdimm_ddr4_new(&p, w);
      uint64_t cap = tdimm_ddr4_capacity(d);
      CHECK(cap == ((uint64_t)rk[ri] << 27), "capacity of %u ranks", rk[ri]);
      int bad = 0;
      for (int i = 0; i < 2000; i++) {
        uint64_t b = i < 2 ? (i ? cap - 1 : 0) : cutil_rng_below(&r, cap);
        tdimm_ddr4_coord_t c;
        if (tdimm_ddr4_coord(d, b, &c) || tdimm_ddr4_local_block(d, &c) != b || c.rank >= rk[ri] ||
            c.row >= TDIMM_DDR4_ROWS || c.col >= 128 ||
            doc_block(rk[ri], w, c.rank, c.bg, c.bank, c.row, c.col) != b)
          bad++;
      }
      tdimm_ddr4_coord_t c;
      CHECK(!bad && tdimm_ddr4_coord(d, cap, &c) == -1 && tdimm_ddr4_block(d, cap) == NULL &&
                tdimm_ddr4_peek(d, cap) == NULL,
            "mapping, %u ranks, ColLoW %u: %d wrong", rk[ri], w, bad);
      tdimm_ddr4_free(d);
    }
  }
}

/* ================================================================ counters */
static void test_stats(void) {
  tdimm_ddr4_params_t p = defp(1);
  tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
  tb_t t;
  tb_init(&t, d);
  tb_at(&t, 0, ACT(0, 0, 0, 1), NULL);   /* miss: never opened */
  tb_at(&t, 22, RD(0, 0, 0, 0), NULL);   /* first CAS */
  tb_at(&t, 30, RD(0, 0, 0, 1), NULL);   /* hit */
  tb_at(&t, 42, WR(0, 0, 0, 2), NULL);   /* hit */
  tb_at(&t, 86, PRE(0, 0, 0), NULL);     /* WR + 44 */
  tb_at(&t, 108, ACT(0, 0, 0, 2), NULL); /* conflict: PRE closed row 1 */
  tb_at(&t, 130, RD(0, 0, 0, 0), NULL);
  tb_at(&t, 160, PREA(0), NULL);
  tb_at(&t, 182, ACT(0, 0, 0, 2), NULL); /* miss: closed by PREA */
  tb_at(&t, 204, RD(0, 0, 0, 0), NULL);
  tb_at(&t, 234, PRE(0, 0, 0), NULL);
  tb_at(&t, 256, ACT(0, 0, 0, 2), NULL); /* miss: PRE closed the same row */
  tb_at(&t, 308, PRE(0, 0, 0), NULL);
  tb_at(&t, 320, PREA(0), NULL); /* all idle: NOP */
  tb_at(&t, 332, REF(0), NULL);
  tb_at(&t, 333, PRE(0, 1, 1), NULL); /* idle: NOP, counted */
  while (tdimm_ddr4_now(d) < 250) tb_step(&t);
  tdimm_ddr4_stats_t s;
  tdimm_ddr4_stats(d, &s);
  CHECK(s.cycles == 250 && s.clocks == 1000, "cycles %llu clocks %llu", (ull)s.cycles,
        (ull)s.clocks);
  CHECK(s.act == 4 && s.rd == 4 && s.wr == 1 && s.pre == 4 && s.prea == 2 && s.ref == 1,
        "commands: act %llu rd %llu wr %llu pre %llu prea %llu ref %llu", (ull)s.act, (ull)s.rd,
        (ull)s.wr, (ull)s.pre, (ull)s.prea, (ull)s.ref);
  CHECK(s.row_hits == 2 && s.row_misses == 3 && s.row_conflicts == 1,
        "hits %llu misses %llu conflicts %llu", (ull)s.row_hits, (ull)s.row_misses,
        (ull)s.row_conflicts);
  CHECK(s.bus_busy_clocks == 20 && s.ref_clocks == 560 && s.violations == 0 && t.nret == 4,
        "busy %llu ref clocks %llu violations %llu reads %u (%s)", (ull)s.bus_busy_clocks,
        (ull)s.ref_clocks, (ull)s.violations, t.nret, tdimm_ddr4_violation_msg(d, 0));
  tdimm_ddr4_stats_clear(d);
  tb_at(&t, 4 * 250 + 1, tdimm_ddr4_cmd(7, 0, 0, 0, 0), NULL);
  tb_run(&t, 10);
  tdimm_ddr4_stats(d, &s);
  CHECK(s.cycles == 10 && s.clocks == 40 && s.act == 0 && s.rd == 0 && s.row_misses == 0 &&
            s.bus_busy_clocks == 0 && s.ref_clocks == 0 && s.violations == 1,
        "stats_clear starts a window: cycles %llu violations %llu", (ull)s.cycles,
        (ull)s.violations);
  tdimm_ddr4_stats_clear(d);
  tdimm_ddr4_stats(d, &s);
  CHECK(s.violations == 0 && tdimm_ddr4_violations(d) == 1, "the total is not cleared");
  tdimm_ddr4_free(d);
}

/* ================================================================ reset */
static void test_reset(void) {
  tdimm_ddr4_params_t p = defp(1);
  tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
  tb_t t;
  tb_init(&t, d);
  uint32_t x[16];
  fill(x, 9);
  tb_at(&t, 0, ACT(0, 2, 2, 40), NULL);
  tb_at(&t, 22, WR(0, 2, 2, 6), x);
  tb_at(&t, 60, RD(0, 2, 2, 6), NULL); /* due in cycle 23 */
  tb_step(&t);                         /* executes cycle 15 */
  tdimm_ddr4_reset(d);
  tb_run(&t, 20);
  CHECK(t.nret == 0, "reset drops the read in flight");
  const uint32_t *m = tdimm_ddr4_peek(d, doc_block(1, 1, 0, 2, 2, 40, 6));
  CHECK(m && !memcmp(m, x, sizeof x), "reset keeps the data");
  uint64_t c1 = tdimm_ddr4_now(d);
  tb_at(&t, 4 * c1, RD(0, 2, 2, 6), NULL);
  tb_run(&t, 20);
  CHECK(
      tdimm_ddr4_violations(d) == 1 && strstr(tdimm_ddr4_violation_msg(d, 0), "RD to an idle bank"),
      "reset closes every bank");
  t.nret = 0;
  /* no history: an ACT at once, RD tRCD later (no tRC/tRP from before the reset) */
  tdimm_ddr4_reset(d);
  c1 = tdimm_ddr4_now(d);
  tb_at(&t, 4 * c1, ACT(0, 2, 2, 40), NULL);
  tb_at(&t, 4 * c1 + 22, RD(0, 2, 2, 6), NULL);
  tb_run(&t, 20);
  CHECK(tdimm_ddr4_violations(d) == 1 && t.nret == 1 && !memcmp(t.ret[0], x, sizeof x),
        "after reset: legal ACT/RD returns the kept data (%llu violations)",
        (ull)tdimm_ddr4_violations(d));
  tdimm_ddr4_stats_t s;
  tdimm_ddr4_stats(d, &s);
  CHECK(s.wr == 1 && s.rd == 3 && s.violations == 1 && s.cycles == tdimm_ddr4_now(d),
        "reset keeps the counters: rd %llu wr %llu", (ull)s.rd, (ull)s.wr);
  tdimm_ddr4_free(d);

  /* the refresh deadline restarts at the reset */
  d = tdimm_ddr4_new(&p, 1);
  tb_init(&t, d);
  tb_run(&t, 8 * 12480 / 4);
  tdimm_ddr4_reset(d);
  tb_run(&t, 9 * 12480 / 4);
  CHECK(tdimm_ddr4_violations(d) == 0, "refresh deadline restarts at reset: %llu",
        (ull)tdimm_ddr4_violations(d));
  tb_run(&t, 1);
  CHECK(tdimm_ddr4_violations(d) == 1 &&
            strstr(tdimm_ddr4_violation_msg(d, 0), "refresh: 0 REF since clock 99840"),
        "9 tREFI after the reset: %s",
        tdimm_ddr4_violation_msg(d, 0) ? tdimm_ddr4_violation_msg(d, 0) : "none");
  tdimm_ddr4_free(d);
}

/* ================================================================ messages, storage, params */
static void count_blk(void *ctx, uint64_t blk, const uint32_t *data) {
  uint64_t *a = ctx;
  a[0]++;
  a[1] += blk;
  a[2] += data[0];
}

static void test_misc(void) {
  tdimm_ddr4_params_t p = defp(1), q;
  /* bad parameters */
  q = p;
  q.ranks = 3;
  CHECK(!tdimm_ddr4_new(&q, 1), "3 ranks refused");
  q = p;
  q.burst = 0;
  CHECK(!tdimm_ddr4_new(&q, 1), "burst 0 refused");
  q = p;
  q.trfc = 1u << 21;
  CHECK(!tdimm_ddr4_new(&q, 1), "a huge timing refused");
  CHECK(!tdimm_ddr4_new(&p, 8), "ColLoW 8 refused");
  CHECK(!tdimm_ddr4_new(NULL, 1), "NULL params refused");
  tdimm_ddr4_free(NULL);
  tdimm_ddr4_params_default(&q, 2);
  CHECK(q.ranks == 2 && q.cl == 22 && q.cwl == 16 && q.burst == 4 && q.trcd == 22 && q.trp == 22 &&
            q.tras == 52 && q.trc == 74 && q.tccd_s == 4 && q.tccd_l == 8 && q.trrd_s == 4 &&
            q.trrd_l == 8 && q.tfaw == 34 && q.twr == 24 && q.twtr_s == 4 && q.twtr_l == 12 &&
            q.trtp == 12 && q.trfc == 560 && q.trefi == 12480 && q.trtrs == 2 &&
            q.phy_rd_lat == 1 && q.refi_postpone == 8,
        "DDR4-3200AA defaults");

  /* recorded messages: the first 8, then a count */
  tdimm_ddr4_t *d = tdimm_ddr4_new(&p, 1);
  tb_t t;
  tb_init(&t, d);
  for (unsigned i = 0; i < 10; i++) tb_at(&t, 4 * i + 1, RD(0, 0, 0, i), NULL);
  tb_run(&t, 20);
  CHECK(tdimm_ddr4_violations(d) == 10 && tdimm_ddr4_violation_msg(d, 7) &&
            strstr(tdimm_ddr4_violation_msg(d, 7), "clock 29: RD rank 0 bg 0 bank 0 col 7") &&
            !tdimm_ddr4_violation_msg(d, 8),
        "ten violations, eight messages");
  FILE *f = tmpfile();
  if (f) {
    tdimm_ddr4_print_violations(d, f);
    rewind(f);
    char line[256];
    int n = 0, more = 0;
    while (fgets(line, sizeof line, f)) {
      n++;
      if (!strcmp(line, "... and 2 more\n")) more = 1;
    }
    fclose(f);
    CHECK(n == 9 && more, "print_violations: %d lines", n);
  }
  tdimm_ddr4_free(d);

  /* storage: many blocks, foreach, stable pointers */
  d = tdimm_ddr4_new(&p, 1);
  cutil_rng_t r = cutil_rng_seed(2);
  enum { NB = 20000 };
  static uint64_t keys[NB];
  CHECK(tdimm_ddr4_peek(d, 12345) == NULL, "untouched block: NULL");
  uint32_t *first = tdimm_ddr4_block(d, 12345);
  first[0] = 0xABCD;
  uint64_t sum = 12345, sum0 = 0xABCD;
  for (int i = 0; i < NB; i++) {
    uint64_t k;
    do k = cutil_rng_below(&r, tdimm_ddr4_capacity(d));
    while (k == 12345 || tdimm_ddr4_peek(d, k));
    keys[i] = k;
    uint32_t *b = tdimm_ddr4_block(d, k);
    int zero = 1;
    for (int l = 0; l < 16; l++) zero &= b[l] == 0;
    if (!zero) break;
    b[0] = (uint32_t)i;
    b[15] = (uint32_t)k;
    sum += k;
    sum0 += (uint32_t)i;
  }
  int bad = 0;
  for (int i = 0; i < NB; i++) {
    const uint32_t *b = tdimm_ddr4_peek(d, keys[i]);
    if (!b || b[0] != (uint32_t)i || b[15] != (uint32_t)keys[i]) bad++;
  }
  uint64_t acc[3] = {0, 0, 0};
  tdimm_ddr4_foreach(d, count_blk, acc);
  CHECK(!bad && first == tdimm_ddr4_block(d, 12345) && first[0] == 0xABCD,
        "20000 sparse blocks read back, pointers stable (%d wrong)", bad);
  CHECK(acc[0] == NB + 1 && acc[1] == sum && acc[2] == sum0, "foreach visits every block once");
  tdimm_ddr4_free(d);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* failures stay visible if a sanitizer aborts */
  test_act_rules();
  test_prea();
  test_cas_rules();
  test_bus();
  test_refresh();
  test_state();
  test_data();
  test_mapping();
  test_stats();
  test_reset();
  test_misc();
  CHECK(tb_bugs == 0, "test sequences are well formed (%d bugs)", tb_bugs);
  return CHECK_SUMMARY();
}
