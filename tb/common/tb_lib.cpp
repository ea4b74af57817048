// tb_lib.cpp -- implementation of the harness library (see tb_lib.h).
#include "tb_lib.h"

#include <cstring>

#include "cutil.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static int g_argc;
static char **g_argv;

const char *tb_plusarg(const char *prefix) {
  size_t n = std::strlen(prefix);
  for (int i = 1; i < g_argc; i++) {
    const char *s = g_argv[i];
    if (s[0] == '+' && std::strncmp(s + 1, prefix, n) == 0) {
      if (s[1 + n] == '=') return s + 2 + n;
      if (s[1 + n] == '\0') return "";
    }
  }
  return nullptr;
}

void tb_init(int argc, char **argv, const char *name, long default_n, TbArgs *a) {
  g_argc = argc;
  g_argv = argv;
  Verilated::commandArgs(argc, argv);
  const char *v;
  a->name = name;
  a->seed = (v = tb_plusarg("seed")) && *v ? std::strtoull(v, nullptr, 0) : 1;
  a->n = (v = tb_plusarg("n")) && *v ? std::strtol(v, nullptr, 0) : default_n;
  a->timeout = (v = tb_plusarg("timeout")) && *v ? std::strtoull(v, nullptr, 0) : 0;
  a->stall_pct = (v = tb_plusarg("stall")) && *v ? std::atoi(v) : 30;
  a->gap_pct = (v = tb_plusarg("gap")) && *v ? std::atoi(v) : 30;
  v = tb_plusarg("trace");
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
