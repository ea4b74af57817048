// tb_lib.cpp -- implementation of the harness library (see tb_lib.h).
#include "tb_lib.h"

#include <cstdarg>
#include <cstring>
#include <iterator>
#include <vector>

#include "cutil.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static int g_argc;
static char **g_argv;
static const char *g_name = "harness";
static std::vector<TbPlusarg> g_known;  // the common plusargs, then the harness's own

static const TbPlusarg kCommon[] = {
    {"seed", "=N: random seed (default 1)"},
    {"n", "=N: transactions (harness default)"},
    {"timeout", "=N: cycle limit (0: harness default)"},
    {"stall", "=P: percent of cycles with ready low (default 30)"},
    {"gap", "=P: percent of cycles with valid low (default 30)"},
    {"trace", "[=file]: FST waveform"},
};

void tb_fail(const char *fmt, ...) {
  std::va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "%s: ", g_name);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  std::fflush(stdout);
  std::exit(2);
}

// The name part of "+name=value" / "+name" (length), or -1 for Verilator's own +verilator+...
static long plus_name_len(const char *arg) {
  if (std::strncmp(arg, "+verilator+", 11) == 0) return -1;
  const char *eq = std::strchr(arg + 1, '=');
  return eq ? eq - (arg + 1) : static_cast<long>(std::strlen(arg + 1));
}

static const TbPlusarg *known(const char *name, size_t len) {
  for (const TbPlusarg &k : g_known)
    if (std::strlen(k.name) == len && std::strncmp(k.name, name, len) == 0) return &k;
  return nullptr;
}

static std::string known_list() {
  std::string s;
  for (const TbPlusarg &k : g_known) s += std::string(s.empty() ? "" : ", ") + "+" + k.name;
  return s;
}

const char *tb_plusarg(const char *name) {
  size_t n = std::strlen(name);
  if (!known(name, n)) {  // a harness bug: every plusarg a harness reads is declared
    std::fprintf(stderr, "%s: internal error: +%s read but not declared to tb_init\n", g_name, name);
    std::abort();
  }
  for (int i = 1; i < g_argc; i++) {
    const char *s = g_argv[i];
    if (s[0] == '+' && std::strncmp(s + 1, name, n) == 0) {
      if (s[1 + n] == '=') return s + 2 + n;
      if (s[1 + n] == '\0') return "";
    }
  }
  return nullptr;
}

uint64_t tb_plusarg_num(const char *name, uint64_t lo, uint64_t hi, uint64_t dflt) {
  const char *v = tb_plusarg(name);
  if (!v) return dflt;
  if (!*v) tb_fail("+%s: needs a value (a number in %llu..%llu)", name, (unsigned long long)lo,
                   (unsigned long long)hi);
  uint64_t x;
  if (cutil_parse_num(v, &x) != 0)
    tb_fail("+%s=%s: not a number (expected %llu..%llu, decimal or 0x hex)", name, v,
            (unsigned long long)lo, (unsigned long long)hi);
  if (x < lo || x > hi)
    tb_fail("+%s=%s: out of range (expected %llu..%llu)", name, v, (unsigned long long)lo,
            (unsigned long long)hi);
  return x;
}

bool tb_plusarg_flag(const char *name, bool dflt) {
  const char *v = tb_plusarg(name);
  if (!v) return dflt;
  if (!*v || !std::strcmp(v, "1")) return true;
  if (!std::strcmp(v, "0")) return false;
  tb_fail("+%s=%s: not a switch (expected +%s, +%s=1 or +%s=0)", name, v, name, name, name);
}

void tb_init(int argc, char **argv, const char *name, long default_n, TbArgs *a,
             std::initializer_list<TbPlusarg> own) {
  g_argc = argc;
  g_argv = argv;
  g_name = name;
  g_known.assign(std::begin(kCommon), std::end(kCommon));
  g_known.insert(g_known.end(), own.begin(), own.end());
  // every plusarg known, and given once
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    if (s[0] != '+') continue;
    long len = plus_name_len(s);
    if (len < 0) continue;
    if (!known(s + 1, static_cast<size_t>(len)))
      tb_fail("%s: unknown plusarg (known: %s)", s, known_list().c_str());
    for (int j = 1; j < i; j++)
      if (argv[j][0] == '+' && plus_name_len(argv[j]) == len && !std::strncmp(argv[j], s, static_cast<size_t>(len) + 1))
        tb_fail("%s: +%.*s given twice (also %s)", s, static_cast<int>(len), s + 1, argv[j]);
  }
  Verilated::commandArgs(argc, argv);
  a->name = name;
  a->seed = tb_plusarg_num("seed", 0, UINT64_MAX, 1);
  a->n = static_cast<long>(tb_plusarg_num("n", 0, 1ull << 40, static_cast<uint64_t>(default_n)));
  a->timeout = tb_plusarg_num("timeout", 0, 1ull << 62, 0);
  a->stall_pct = static_cast<int>(tb_plusarg_num("stall", 0, 100, 30));
  a->gap_pct = static_cast<int>(tb_plusarg_num("gap", 0, 100, 30));
  const char *v = tb_plusarg("trace");
  a->trace = v != nullptr;
  a->trace_file = (v && *v) ? std::string(v) : std::string(name) + ".fst";
  // xorshift64* state from the seed.  The seed * c1 + c2 form is harmless here (unlike for
  // splitmix64, see cutil.h): a xorshift step is not an addition, so the states of seeds S and
  // S + 1 do not lie on one stream a few draws apart (checked: no draw in common among the
  // first 4096 for every S < 2000), and keeping it keeps every harness's stimulus.
  g_rng = a->seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  if (g_rng == 0) g_rng = 1;
  std::printf("%s: seed=%llu n=%ld stall=%d%% gap=%d%%\n", name, (unsigned long long)a->seed,
              a->n, a->stall_pct, a->gap_pct);
}

uint64_t tb_rand(void) {
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 0x2545F4914F6CDD1Dull;
}

uint32_t tb_rand_u32(void) { return static_cast<uint32_t>(tb_rand() >> 32); }

uint32_t tb_rand_range(uint32_t lo, uint32_t hi) {
  uint64_t span = static_cast<uint64_t>(hi) - lo + 1;
  return lo + static_cast<uint32_t>(tb_rand() % span);
}

bool tb_chance(int pct) { return static_cast<int>(tb_rand() % 100) < pct; }

double tb_rand_unit(void) { return cutil_unit(tb_rand()); }

double tb_rand_normal(void) {
  double u1 = tb_rand_unit();
  double u2 = tb_rand_unit();
  return cutil_normal(u1, u2);
}

bool TbScore::check(const char *what, uint64_t id, uint64_t exp, uint64_t got) {
  if (tally(exp == got))
    std::printf("MISMATCH %s id=%llu %s: expected 0x%llx got 0x%llx\n", name,
                (unsigned long long)id, what, (unsigned long long)exp, (unsigned long long)got);
  return exp == got;
}

bool TbScore::expect(bool ok, const char *what, uint64_t id) {
  if (tally(ok)) std::printf("FAIL %s id=%llu: %s\n", name, (unsigned long long)id, what);
  return ok;
}

int TbScore::finish(void) {
  if (fail > max_print) std::printf("... %ld more mismatches not shown\n", fail - max_print);
  std::printf("%ld passed, %ld failed\n", pass, fail);
  std::fflush(stdout);
  return (fail == 0 && pass > 0) ? 0 : 1;
}
