/* tdimm_ddr4.h -- DDR4-3200 device model of one TensorDIMM DIMM with an independent JEDEC timing
 * checker, for the harness that drives the RTL memory controller (tdimm_mc) through its DFI 1:4
 * port.  docs/tensordimm_ddr4.md has the rules with their JEDEC values; docs/tensordimm.md
 * ("Core interfaces", "Inside a DIMM", "DDR4 device") the port and the address mapping.
 *
 * The checker shares no code with the controller (or with the golden model's tdimm_map): it is
 * written from the JEDEC rules, with absolute timestamps in DRAM clocks.  Phase p of core cycle c
 * is DRAM clock 4c + p.  Every command is checked against every rule; each broken rule is one
 * violation (counted, the first TDIMM_DDR4_MAX_MSGS recorded as text), and the run continues:
 *   - a command that only breaks a timing rule is executed as if it were legal;
 *   - a command that is illegal in the bank's state (ACT to an open bank, RD/WR to an idle bank,
 *     REF with a bank open), addresses a rank, row or column out of range, or has cmd 7, is
 *     counted and otherwise ignored (its timing is not checked) -- except a RD, which still
 *     returns a zero block in command order so that the controller does not hang.
 *
 * Row hit / miss / conflict (counters only, never violations):
 *   - each RD/WR that is not the first RD/WR to its bank since the bank's ACT is a row hit;
 *   - each ACT whose bank was last closed by a PRE (one bank) of a DIFFERENT row than the ACT
 *     opens is a row conflict (the controller closed a row to open another);
 *   - every other ACT is a row miss: the bank was never opened (or not since a reset), was closed
 *     by a PREA (the refresh path), or was closed by a PRE of the same row it reopens.
 *   So with one or more CAS per ACT: rd + wr = row_hits + row_misses + row_conflicts.
 *
 * Data: a sparse image of 64-byte blocks (16 lanes of 32 bits, lane l = bytes 4l..4l+3), zero
 * when never written, addressed by local block number.  A WR stores the cycle's write data at the
 * WR command; a RD copies the block at the RD command and delivers it in core cycle
 * ceil((4c + p + CL + burst) / 4) + PhyRdLat (c, p: the RD's core cycle and phase). */
#ifndef TDIMM_DDR4_H
#define TDIMM_DDR4_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ geometry */
#define TDIMM_DDR4_LANES      16     /* 32-bit lanes per 64-byte block */
#define TDIMM_DDR4_BG         4      /* bank groups per rank */
#define TDIMM_DDR4_BANKS_BG   4      /* banks per bank group */
#define TDIMM_DDR4_BANKS      16     /* banks per rank */
#define TDIMM_DDR4_ROWS       65536u /* rows per bank (8 Gb x8) */
#define TDIMM_DDR4_COLS       128u   /* 64-byte block columns per rank row (8 KiB) */
#define TDIMM_DDR4_MAX_RANKS  4
#define TDIMM_DDR4_MAX_MSGS   8      /* violation messages recorded (the first ones) */
#define TDIMM_DDR4_MSG_LEN    192

/* ------------------------------------------------------------------ command word (one phase) */
/* {cmd[2:0] (25:23), rank[1:0] (22:21), bg[1:0] (20:19), bank[1:0] (18:17), addr[16:0] (16:0)} */
enum {
  TDIMM_DDR4_NOP = 0,
  TDIMM_DDR4_ACT = 1,  /* addr = row */
  TDIMM_DDR4_RD = 2,   /* addr = block column 0..127 */
  TDIMM_DDR4_WR = 3,   /* addr = block column 0..127 */
  TDIMM_DDR4_PRE = 4,  /* one bank */
  TDIMM_DDR4_PREA = 5, /* every bank of the rank; bg/bank ignored */
  TDIMM_DDR4_REF = 6,  /* the rank */
  TDIMM_DDR4_ILL = 7   /* illegal: always a violation */
};
#define TDIMM_DDR4_CMD_BITS   26
#define TDIMM_DDR4_CMD_SHIFT  23
#define TDIMM_DDR4_RANK_SHIFT 21
#define TDIMM_DDR4_BG_SHIFT   19
#define TDIMM_DDR4_BANK_SHIFT 17
#define TDIMM_DDR4_ADDR_MASK  0x1FFFFu

static inline uint32_t tdimm_ddr4_cmd(unsigned cmd, unsigned rank, unsigned bg, unsigned bank,
                                      uint32_t addr) {
  return (uint32_t)(cmd & 7u) << TDIMM_DDR4_CMD_SHIFT |
         (uint32_t)(rank & 3u) << TDIMM_DDR4_RANK_SHIFT |
         (uint32_t)(bg & 3u) << TDIMM_DDR4_BG_SHIFT |
         (uint32_t)(bank & 3u) << TDIMM_DDR4_BANK_SHIFT | (addr & TDIMM_DDR4_ADDR_MASK);
}

/* ------------------------------------------------------------------ parameters */
/* Every timing in DRAM clocks (tCK = 0.625 ns) except phy_rd_lat (core cycles). */
typedef struct {
  unsigned ranks;         /* 1, 2 or 4 */
  unsigned cl, cwl;       /* 22, 16 */
  unsigned burst;         /* BL8 on the data bus: 4 */
  unsigned trcd, trp;     /* 22, 22 */
  unsigned tras, trc;     /* 52, 74 */
  unsigned tccd_s, tccd_l; /* 4, 8 */
  unsigned trrd_s, trrd_l; /* 4, 8 */
  unsigned tfaw;          /* 34 */
  unsigned twr;           /* 24 (WR->PRE = cwl + burst + twr) */
  unsigned twtr_s, twtr_l; /* 4, 12 (WR->RD = cwl + burst + twtr) */
  unsigned trtp;          /* 12 */
  unsigned trfc;          /* 560 */
  unsigned trefi;         /* 12480; 0: the refresh deadline is not checked */
  unsigned trtrs;         /* 2: idle bus clocks between bursts of different ranks */
  unsigned phy_rd_lat;    /* 1 core cycle */
  unsigned refi_postpone; /* 8: REF commands a rank may owe */
} tdimm_ddr4_params_t;

/* DDR4-3200AA defaults with `ranks` ranks. */
void tdimm_ddr4_params_default(tdimm_ddr4_params_t *p, unsigned ranks);

/* ------------------------------------------------------------------ device */
typedef struct tdimm_ddr4 tdimm_ddr4_t;

/* col_lo_w: the mapping's ColLoW, 0..7.  NULL on bad parameters (ranks not 1/2/4, burst, cl or
 * cwl 0, a timing above 2^20) or when out of memory. */
tdimm_ddr4_t *tdimm_ddr4_new(const tdimm_ddr4_params_t *p, unsigned col_lo_w);
void tdimm_ddr4_free(tdimm_ddr4_t *d);
const tdimm_ddr4_params_t *tdimm_ddr4_params(const tdimm_ddr4_t *d);

/* One core cycle: the 4 phase commands of this cycle (cmd[p] at DRAM clock 4c + p) and the write
 * data of this cycle (used by a WR; NULL stores zeros).  Checks and executes them (and the
 * refresh deadline at each of the 4 clocks), then advances one core cycle.  Returns 1 and fills
 * rd_out[16] when read data is to be presented to the controller in the NEXT core cycle (the
 * harness drives it as dfi_rddata_valid_i / dfi_rddata_i during that cycle), else 0. */
int tdimm_ddr4_cycle(tdimm_ddr4_t *d, const uint32_t cmd[4], const uint32_t wrdata[16],
                     uint32_t rd_out[16]);
/* The core cycle the next tdimm_ddr4_cycle() call executes (cycles since tdimm_ddr4_new). */
uint64_t tdimm_ddr4_now(const tdimm_ddr4_t *d);

/* Controller reset: every bank closed, command history (bank, bus and refresh timers) and reads
 * in flight dropped, the refresh deadline restarted at the current clock; counters, recorded
 * violations and data kept.  Call it when the controller leaves reset (calling it in every
 * cycle of a reset is the same). */
void tdimm_ddr4_reset(tdimm_ddr4_t *d);

/* ------------------------------------------------------------------ data */
/* Blocks per DIMM: 2^27 per rank. */
uint64_t tdimm_ddr4_capacity(const tdimm_ddr4_t *d);
/* Backdoor: the block's 16 lanes, allocated zeroed on first use; NULL beyond the capacity. The
 * pointer stays valid until tdimm_ddr4_free. */
uint32_t *tdimm_ddr4_block(tdimm_ddr4_t *d, uint64_t local_block);
/* NULL if the block was never written or allocated. */
const uint32_t *tdimm_ddr4_peek(const tdimm_ddr4_t *d, uint64_t local_block);
/* Visits every stored block, in the order they were first stored. */
void tdimm_ddr4_foreach(const tdimm_ddr4_t *d,
                        void (*fn)(void *ctx, uint64_t blk, const uint32_t *data), void *ctx);

/* The device's own local block <-> DRAM coordinates mapping (docs/tensordimm.md, "Inside a
 * DIMM"): from the LSB col_lo (col_lo_w) | bg (2) | bank (2) | rank (log2 ranks) |
 * col_hi (7 - col_lo_w) | row (16); col = col_hi << col_lo_w | col_lo. */
typedef struct { unsigned rank, bg, bank, row, col; } tdimm_ddr4_coord_t;
/* -1 if local_block is beyond the capacity, else 0. */
int tdimm_ddr4_coord(const tdimm_ddr4_t *d, uint64_t local_block, tdimm_ddr4_coord_t *c);
/* No range check: fields are masked to their widths. */
uint64_t tdimm_ddr4_local_block(const tdimm_ddr4_t *d, const tdimm_ddr4_coord_t *c);

/* ------------------------------------------------------------------ counters and violations */
typedef struct {
  uint64_t cycles, clocks;   /* core cycles and DRAM clocks (4 per cycle) */
  uint64_t bus_busy_clocks;  /* burst clocks of every RD and WR */
  uint64_t ref_clocks;       /* clocks in which some rank is in tRFC */
  uint64_t rd, wr, act, pre, prea, ref; /* commands (legal or not; PRE to an idle bank included) */
  uint64_t row_hits, row_misses, row_conflicts; /* see the top of this file */
  uint64_t violations;
} tdimm_ddr4_stats_t;

/* Counters since tdimm_ddr4_new or the last tdimm_ddr4_stats_clear. */
void tdimm_ddr4_stats(const tdimm_ddr4_t *d, tdimm_ddr4_stats_t *s);
/* Starts a measurement window: zeroes the counters (not the total of tdimm_ddr4_violations). */
void tdimm_ddr4_stats_clear(tdimm_ddr4_t *d);

/* Violations since tdimm_ddr4_new (never cleared). */
uint64_t tdimm_ddr4_violations(const tdimm_ddr4_t *d);
/* The i-th recorded message (i < min(violations, TDIMM_DDR4_MAX_MSGS)), else NULL. Format:
 * "clock 12345: RD rank 0 bg 1 bank 2 col 5: tRCD: 18 < 22 after ACT at clock 12327". */
const char *tdimm_ddr4_violation_msg(const tdimm_ddr4_t *d, unsigned i);
/* Prints the recorded messages, one a line, and "... and N more" when some were not recorded. */
void tdimm_ddr4_print_violations(const tdimm_ddr4_t *d, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
