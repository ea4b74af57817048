// tb_lib.h -- harness library shared by every Verilator harness in tb/.
//
// Purpose: one place for the things every harness needs, so each harness only
// drives its own ports and calls its golden model:
//   * tb_init():   parses +seed=N, +trace[=file], +n=N, +timeout=N, +stall=P, +gap=P and
//                  checks every other plusarg against the harness's own declared ones
//                  (tb_plusarg_*: strict numbers, one-line errors, exit status 2);
//                  seeds Verilator's randReset(2) so every register starts random.
//   * tb_rand*():  one seeded xorshift64* generator (no libc rand()).
//   * TbStall:     random valid gaps / ready backpressure with a percentage.
//   * TbScore:     scoreboard; prints the first mismatches (id, expected, actual in hex)
//                  and the result line "N passed, N failed".
//   * TbSim<T>:    clock, reset, waveform and timeout around a Verilated top that has
//                  clk_i and rst_ni ports.
//
// Cycle convention (see docs/harness.md): the harness sets inputs, calls eval() so
// combinational outputs (e.g. ready depending on valid) settle, samples every
// handshake (valid && ready), then calls tick() which makes the rising edge.
#ifndef TB_LIB_H
#define TB_LIB_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include <verilated.h>
#include <verilated_fst_c.h>
#if VM_COVERAGE
#include <verilated_cov.h>
#endif

struct TbArgs {
  uint64_t seed;       // +seed=N (default 1)
  bool trace;          // +trace or +trace=file.fst
  std::string trace_file;
  long n;              // +n=N transactions (harness-specific default)
  uint64_t timeout;    // +timeout=N cycles (0: harness default)
  int stall_pct;       // +stall=P percent of cycles with ready low (default 30)
  int gap_pct;         // +gap=P percent of cycles with valid low (default 30)
  const char *name;
};

// ---- plusargs (the strict input layer of the harnesses)
// A harness declares its own plusargs to tb_init; every command-line argument that starts
// with '+' must then be a common one (+seed +n +timeout +stall +gap +trace), a declared one or
// Verilator's own (+verilator+...), and may be given once.  Anything else -- a typo such as
// +sed=5 -- is an error that lists the known plusargs.  Arguments without '+' are left to the
// harness (fp_vectors reads TestFloat-style options).
//
// Every error is one line on stderr, "<harness>: +<arg>: <what is wrong> (<what was expected>)",
// and exits with status 2 (bad input).  Numbers are decimal, or hex with a 0x prefix: no sign,
// no blanks, no empty value, nothing after the number, within the stated range.
struct TbPlusarg {
  const char *name;  // "traffic" for +traffic=<value> (or +traffic alone)
  const char *what;  // for the list of known plusargs, e.g. "=<file>: packets to inject"
};

// Parses the common plusargs into *a (seed 0..2^64-1, n 0..2^40, timeout 0..2^62, stall and
// gap 0..100) after checking every plusarg. `default_n` is used when +n is absent.
void tb_init(int argc, char **argv, const char *name, long default_n, TbArgs *a,
             std::initializer_list<TbPlusarg> own = {});
// The value after "+name=" ("" for a bare +name), or nullptr when absent.  name must be a
// common or declared plusarg (a harness bug otherwise: the run aborts).
const char *tb_plusarg(const char *name);
// A numeric plusarg in lo..hi (dflt when absent); a bad value is an error (exit 2).
uint64_t tb_plusarg_num(const char *name, uint64_t lo, uint64_t hi, uint64_t dflt);
// A switch: dflt when absent; +name and +name=1 true, +name=0 false; anything else an error.
bool tb_plusarg_flag(const char *name, bool dflt);
// The exit of a harness on bad input: "<harness>: <message>" on stderr, status 2.
[[noreturn]] void tb_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

uint64_t tb_rand(void);
uint32_t tb_rand_u32(void);
uint32_t tb_rand_range(uint32_t lo, uint32_t hi);  // inclusive
bool tb_chance(int pct);                           // true with probability pct/100
double tb_rand_unit(void);                         // [0, 1)
double tb_rand_normal(void);                       // N(0,1)

// Random stalls: each call to next() says whether this cycle stalls. The harness
// may change pct during a run (e.g. 0 for a throughput phase).
struct TbStall {
  int pct;
  explicit TbStall(int p = 0) : pct(p) {}
  bool next() { return pct > 0 && tb_chance(pct); }
};

struct TbScore {
  const char *name;
  long pass = 0;
  long fail = 0;
  int max_print = 8;
  explicit TbScore(const char *n) : name(n) {}
  // Compares one value; prints the first max_print mismatches.
  bool check(const char *what, uint64_t id, uint64_t exp, uint64_t got);
  // Records an outcome that has no value (e.g. "no response lost").
  bool expect(bool ok, const char *what, uint64_t id);
  // Prints "N passed, N failed" and returns the process exit status.
  int finish(void);
  // Counts one outcome; true for a failure that is to be printed (one of the first max_print).
  bool tally(bool ok) {
    if (ok) pass++;
    else fail++;
    return !ok && fail <= max_print;
  }
};

// Bit-field access on Verilator ports of any width: scalar (CData..QData) or VlWide<N>.
template <class T>
inline void tb_set_bits(T &port, int lsb, int w, uint32_t v) {
  uint64_t mask = ((1ull << w) - 1) << lsb;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) |
                        ((static_cast<uint64_t>(v) << lsb) & mask));
}
template <std::size_t N>
inline void tb_set_bits(VlWide<N> &port, int lsb, int w, uint32_t v) {
  for (int b = 0; b < w; b++) {
    int bit = lsb + b;
    uint32_t m = 1u << (bit % 32);
    if ((v >> b) & 1)
      port[bit / 32] |= m;
    else
      port[bit / 32] &= ~m;
  }
}
template <class T>
inline uint32_t tb_get_bits(const T &port, int lsb, int w) {
  return static_cast<uint32_t>((static_cast<uint64_t>(port) >> lsb) & ((1ull << w) - 1));
}
template <std::size_t N>
inline uint32_t tb_get_bits(const VlWide<N> &port, int lsb, int w) {
  uint32_t v = 0;
  for (int b = 0; b < w; b++) v |= ((port[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) << b;
  return v;
}

template <class T>
class TbSim {
 public:
  VerilatedContext *ctx;
  T *top;
  VerilatedFstC *tfp = nullptr;
  uint64_t cycle = 0;
  uint64_t timeout;
  bool timed_out = false;
  // false: tick() leaves the falling edge to the harness's next eval() (made before it samples
  // anything). Only for posedge-only RTL without a waveform: saves one full evaluation of
  // the model per cycle (Verilator re-runs its input-combinational logic on every eval()).
  bool eval_on_fall = true;

  TbSim(const TbArgs &a, uint64_t default_timeout) {
    ctx = new VerilatedContext;
    ctx->randReset(2);
    ctx->randSeed(static_cast<int>(a.seed & 0x7fffffff));
    top = new T(ctx);
    timeout = a.timeout ? a.timeout : default_timeout;
    if (a.trace) {
#if VM_TRACE
      ctx->traceEverOn(true);
      tfp = new VerilatedFstC;
      top->trace(tfp, 99);
      tfp->open(a.trace_file.c_str());
      std::fprintf(stderr, "%s: waveform %s\n", a.name, a.trace_file.c_str());
#else
      // benchmark builds leave tracing out (HARNESS_NOTRACE): their trace code would dwarf the model
      std::fprintf(stderr, "%s: built without tracing; +trace ignored\n", a.name);
#endif
    }
    top->clk_i = 0;
    top->rst_ni = 1;
    top->eval();
    dump();
  }
  ~TbSim() {
    top->final();
#if VM_COVERAGE
    // `make coverage` builds with --coverage; each run writes its own data file.
    const char *cov = std::getenv("TB_COVERAGE_FILE");
    ctx->coveragep()->write(cov ? cov : "coverage.dat");
#endif
#if VM_TRACE
    if (tfp) {
      tfp->close();
      delete tfp;
    }
#endif
    delete top;
    delete ctx;
  }
  void dump() {
#if VM_TRACE
    if (tfp) tfp->dump(ctx->time());
#endif
  }
  // One full clock period: rising edge, then falling edge. Returns false on timeout.
  bool tick() {
    ctx->timeInc(1);
    top->clk_i = 1;
    top->eval();
    dump();
    ctx->timeInc(1);
    top->clk_i = 0;
    if (eval_on_fall || tfp) {
      top->eval();
      dump();
    }
    cycle++;
    if (cycle >= timeout && !timed_out) {
      timed_out = true;
      std::fprintf(stderr, "TIMEOUT after %llu cycles\n", (unsigned long long)cycle);
    }
    return !timed_out;
  }
  // Asynchronous assert, synchronous release after `cycles` clock periods.
  void reset(int cycles = 3) {
    top->rst_ni = 0;
    top->eval();
    dump();
    for (int i = 0; i < cycles; i++) tick();
    top->rst_ni = 1;
    top->eval();
    dump();
  }
};

#endif  // TB_LIB_H
