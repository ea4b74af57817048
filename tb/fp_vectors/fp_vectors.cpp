// fp_vectors.cpp -- a TestFloat-compatible checker: runs Berkeley TestFloat-format test vectors
// through the float RTL units and reports in testfloat_ver's format.
//
//   fp_vectors [<option>...] <function> [file|-] [+seed=N +stall=P +gap=P]
//   <option>: -errors <num> (default 20; 0: no limit)   -checkNaNs
//             -rnear_even (default) -rminMag -rmin -rmax -rnear_maxMag -rodd
//             -tininessafter (default) -tininessbefore   -notexact (default) -exact
//
// <function> is a TestFloat name: f16_add, f32_mulAdd, bf16_sqrt, f32_lt, f32_le_quiet,
// f16_eq_signaling, f32_roundToInt, f16_to_i32, ui32_to_bf16, f32_to_f16, ... (f16/bf16/f32 x
// add sub mul mulAdd div sqrt eq lt le eq_signaling lt_quiet le_quiet min max roundToInt to_i32
// to_ui32, i32_to_/ui32_to_, and every format-to-format conversion). Each input line holds the
// operands, the expected result and the expected flags in hex, exactly as testfloat_gen writes
// them (docs/float.md). The options mean what they mean to testfloat_ver, with the same defaults;
// -rodd and -tininessbefore are refused (exit status 2) for the functions they would change,
// since the units have no round-to-odd and detect tininess after rounding. A mismatch is printed
// as testfloat_ver prints it (after "Errors found in <function>, <options>:"), followed by the
// vector's line number; a malformed line is reported and counted as an error; the run stops
// after -errors errors. Last line: "N passed, N failed".
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

#include "Vfp_all_top.h"
#include "cutil.h"
#include "tb_fp_units.h"

using Top = Vfp_all_top;

// TestFloat's function attributes (its functionInfos table): which options matter.
enum {
  A_ROUND = 1,  // rounds: the rounding mode applies (printed as ", rounding <mode>")
  A_TINY = 2,   // can be tiny and inexact: the tininess mode applies
  A_EXACT = 4,  // rounds to an integer: -exact / -notexact apply
};
enum { K_INT = 3, K_BOOL = 4 };  // value kinds beside the float formats 0..2

struct Function {
  int fmt;    // format of the unit that computes it
  int unit;
  int op;
  int nin;    // operands on a line
  int in_kind, out_kind;  // 0..2 a float format, K_INT (32-bit integer), K_BOOL
  unsigned attr;
};

static int fmt_of(const std::string &s) {
  if (s == "f16") return 0;
  if (s == "bf16") return 1;
  if (s == "f32") return 2;
  return -1;
}

static bool parse_function(const std::string &name, Function *f) {
  const size_t us = name.find('_');
  if (us == std::string::npos) return false;
  const std::string head = name.substr(0, us), rest = name.substr(us + 1);
  if (head == "i32" || head == "ui32") {  // i32_to_f16
    if (rest.compare(0, 3, "to_") != 0) return false;
    const int to = fmt_of(rest.substr(3));
    if (to < 0) return false;
    *f = {to, U_I2F, head == "i32", 1, K_INT, to, A_ROUND};
    return true;
  }
  const int fmt = fmt_of(head);
  if (fmt < 0) return false;
  static const struct { const char *n; int unit, op, nin, out; unsigned attr; } ops[] = {
      {"add", U_ADD, 0, 2, -1, A_ROUND},          {"sub", U_ADD, 1, 2, -1, A_ROUND},
      {"mul", U_MUL, 0, 2, -1, A_ROUND | A_TINY}, {"mulAdd", U_FMA, 0, 3, -1, A_ROUND | A_TINY},
      {"div", U_DIVSQRT, 0, 2, -1, A_ROUND},      {"sqrt", U_DIVSQRT, 1, 1, -1, A_ROUND},
      {"eq", U_CMP, 0, 2, K_BOOL, 0},             {"lt", U_CMP, 1, 2, K_BOOL, 0},
      {"le", U_CMP, 2, 2, K_BOOL, 0},             {"min", U_CMP, 3, 2, -1, 0},
      {"max", U_CMP, 4, 2, -1, 0},                {"eq_signaling", U_CMP, 5, 2, K_BOOL, 0},
      {"lt_quiet", U_CMP, 6, 2, K_BOOL, 0},       {"le_quiet", U_CMP, 7, 2, K_BOOL, 0},
      {"roundToInt", U_RTI, 0, 1, -1, A_ROUND | A_EXACT},
      {"to_i32", U_F2I, 1, 1, K_INT, A_ROUND | A_EXACT},
      {"to_ui32", U_F2I, 0, 1, K_INT, A_ROUND | A_EXACT}};
  for (auto &o : ops)
    if (rest == o.n) {
      *f = {fmt, o.unit, o.op, o.nin, fmt, o.out < 0 ? fmt : o.out, o.attr};
      return true;
    }
  if (rest.compare(0, 3, "to_") == 0) {
    const int to = fmt_of(rest.substr(3));
    if (to < 0 || to == fmt) return false;
    // Narrower fraction or exponent: the conversion rounds; a smaller range (or the same range
    // with fewer fraction bits) lets tininess matter. f16 -> bf16 rounds but cannot underflow.
    const fp_fmt_t a = kFmt[fmt], z = kFmt[to];
    const unsigned attr = (z.mw < a.mw || z.ew < a.ew ? A_ROUND : 0) |
                          (z.ew < a.ew || (z.ew == a.ew && z.mw < a.mw) ? A_TINY : 0);
    *f = {fmt, to == kX1[fmt] ? U_F2F_X1 : U_F2F_X2, 0, 1, fmt, to, attr};
    return true;
  }
  return false;
}

static const char *const kUsage =
    "usage: fp_vectors [-errors <num>] [-checkNaNs] [-rnear_even|-rminMag|-rmin|-rmax|"
    "-rnear_maxMag] [-tininessafter] [-notexact|-exact] <function> [file|-]";

static int usage(const std::string &msg) {
  std::fprintf(stderr, "fp_vectors: %s (%s)\n", msg.c_str(), kUsage);
  return 2;
}

// Parses one hex token; false when it is not hex or too wide for bits.
static bool hex_token(const char *&p, int bits, uint32_t *v) {
  while (*p == ' ' || *p == '\t') p++;
  const char *s = p;
  uint64_t x = 0;
  while (std::isxdigit(static_cast<unsigned char>(*p))) {
    x = x * 16 + static_cast<uint64_t>(cutil_hex_digit(static_cast<unsigned char>(*p)));
    if (x >> bits) return false;
    p++;
  }
  if (p == s || (*p && *p != ' ' && *p != '\t' && *p != '\r')) return false;
  *v = static_cast<uint32_t>(x);
  return true;
}

// ---------------------------------------------------------------- testfloat_ver's notation
// A float as sign, exponent field and fraction field in hex ("+7F.000001"), an integer as
// 8 hex digits, a Boolean as 1/0, flags as "vioux" with '.' for a clear flag.
static std::string tf_value(int kind, uint32_t v) {
  char buf[32];
  if (kind == K_BOOL) {
    std::snprintf(buf, sizeof buf, "%u", v & 1u);
  } else if (kind == K_INT) {
    std::snprintf(buf, sizeof buf, "%08X", v);
  } else {
    const fp_fmt_t f = kFmt[kind];
    std::snprintf(buf, sizeof buf, "%c%0*X.%0*X", (v >> (f.ew + f.mw)) & 1 ? '-' : '+',
                  (f.ew + 3) / 4, (v >> f.mw) & ((1u << f.ew) - 1), (f.mw + 3) / 4,
                  v & ((1u << f.mw) - 1));
  }
  return buf;
}

static std::string tf_flags(unsigned fl) {
  std::string s = ".....";
  if (fl & FP_FLAG_NV) s[0] = 'v';
  if (fl & FP_FLAG_DZ) s[1] = 'i';
  if (fl & FP_FLAG_OF) s[2] = 'o';
  if (fl & FP_FLAG_UF) s[3] = 'u';
  if (fl & FP_FLAG_NX) s[4] = 'x';
  return s;
}

struct Checker {
  Function f;
  std::string title;  // "f32_mulAdd, rounding near_even, tininess after rounding"
  bool check_nans = false;
  bool header_done = false;

  void error_header() {
    if (!header_done) std::printf("Errors found in %s:\n", title.c_str());
    header_done = true;
  }
  bool is_nan(int kind, uint32_t v) const {
    return kind < K_INT && fpref_is_nan(kFmt[kind], v);
  }
  // testfloat_ver's rule: a result passes when value and flags equal the expected ones, or,
  // without -checkNaNs, when both are NaNs, the unit's NaN is quiet and the flags are equal.
  bool judge(const FpOp &o, uint32_t value, unsigned flags) {
    const int k = f.out_kind;
    if (value == o.exp_value && flags == o.exp_flags) return true;
    if (!check_nans && flags == o.exp_flags && is_nan(k, value) && is_nan(k, o.exp_value) &&
        !fpref_is_snan(kFmt[k], value))
      return true;
    error_header();
    const uint32_t in[3] = {o.a, o.b, o.c};
    std::string line;
    for (int i = 0; i < f.nin; i++) {
      line += tf_value(f.in_kind, in[i]);
      // testfloat_ver breaks f32 mulAdd cases after the third operand
      line += (i == 2 && f.in_kind == 2) ? "\n\t" : "  ";
    }
    std::printf("%s=> %s %s  expected %s %s  (line %ld)\n", line.c_str(),
                tf_value(k, value).c_str(), tf_flags(flags).c_str(),
                tf_value(k, o.exp_value).c_str(), tf_flags(o.exp_flags).c_str(), o.line);
    return false;
  }
  static bool judge_cb(void *ctx, const FpOp &o, uint32_t value, unsigned flags) {
    return static_cast<Checker *>(ctx)->judge(o, value, flags);
  }
};

int main(int argc, char **argv) {
  static const char *const kRoundName[5] = {"near_even", "minMag", "min", "max", "near_maxMag"};
  std::string func, path = "-";
  int rm = 0;
  bool exact = false, checknans = false, rodd = false, tiny_before = false, have_path = false;
  long max_errors = 20;
  for (int i = 1; i < argc; i++) {
    const std::string s = argv[i];
    if (s[0] == '+') continue;  // harness options (+seed, +stall, +gap, +trace)
    if (s == "-errors") {
      if (i + 1 >= argc) return usage("-errors needs a value");
      max_errors = cutil_opt_long("fp_vectors", "-errors", argv[++i], 0, 1000000000L);
    } else if (s == "-checkNaNs" || s == "-checknans") {
      checknans = true;
    } else if (s == "-rnear_even") {
      rm = 0; rodd = false;
    } else if (s == "-rminMag") {
      rm = 1; rodd = false;
    } else if (s == "-rmin") {
      rm = 2; rodd = false;
    } else if (s == "-rmax") {
      rm = 3; rodd = false;
    } else if (s == "-rnear_maxMag") {
      rm = 4; rodd = false;
    } else if (s == "-rodd") {
      rodd = true;
    } else if (s == "-tininessbefore") {
      tiny_before = true;
    } else if (s == "-tininessafter") {
      tiny_before = false;
    } else if (s == "-exact") {
      exact = true;
    } else if (s == "-notexact") {
      exact = false;
    } else if (s[0] == '-' && s.size() > 1) {
      return usage("unknown option " + s);
    } else if (func.empty()) {
      func = s;
    } else if (!have_path) {
      path = s;
      have_path = true;
    } else {
      return usage("more than one input file: " + s);
    }
  }
  Function f;
  if (func.empty()) return usage("no function given");
  if (!parse_function(func, &f)) return usage("unknown function " + func);
  // Options the units cannot honour are refused where they would change the expected results
  // (testfloat_ver ignores them for the other functions, and so does this checker).
  if (rodd && (f.attr & A_ROUND)) {
    std::fprintf(stderr, "fp_vectors: -rodd: the float units have no round-to-odd mode "
                 "(rounding modes: near_even minMag min max near_maxMag)\n");
    return 2;
  }
  if (tiny_before && (f.attr & A_TINY)) {
    std::fprintf(stderr, "fp_vectors: -tininessbefore: the float units detect tininess after "
                 "rounding only (%s)\n", func.c_str());
    return 2;
  }
  FILE *in = path == "-" ? stdin : std::fopen(path.c_str(), "r");
  if (!in) return usage("cannot open " + path);

  Checker ck;
  ck.f = f;
  ck.check_nans = checknans;
  ck.title = func;
  if (f.attr & A_ROUND) {
    ck.title += std::string(", rounding ") + kRoundName[rm];
    if (f.attr & A_TINY) ck.title += ", tininess after rounding";
  }
  if (f.attr & A_EXACT) ck.title += exact ? ", exact" : ", not exact";
  std::fprintf(stderr, "Testing %s.\n", ck.title.c_str());

  TbArgs a;
  const std::string name = "fp_vectors " + func;
  tb_init(argc, argv, name.c_str(), 0, &a);
  TbSim<Top> sim(a, ~0ull);
  TbScore sc(name.c_str());
  FpDriver<Top> drv(sim, sc, a, f.fmt);
  drv.judge = &Checker::judge_cb;
  drv.judge_ctx = &ck;
  drv.max_fail = max_errors;
  sim.top->fmt_i = f.fmt;
  sim.reset();

  const int in_bits = f.in_kind == K_INT ? 32 : fp_width(f.in_kind);
  const int out_bits = f.out_kind == K_INT ? 32 : f.out_kind == K_BOOL ? 1 : fp_width(f.out_kind);
  std::vector<FpOp> ops;
  static char buf[4096];
  char why[128];
  long lineno = 0, malformed = 0;
  for (;;) {
    const int r = cutil_read_line(in, buf, sizeof buf, &lineno, why, sizeof why);
    if (r == 0) break;
    const char *p = buf;
    while (*p == ' ' || *p == '\t') p++;
    uint32_t v[3] = {0, 0, 0}, res = 0, flags = 0;
    bool ok = r > 0;
    if (ok) {
      if (*p == '\r' || *p == '\0' || *p == '#') continue;
      for (int k = 0; k < f.nin && ok; k++) ok = hex_token(p, in_bits, &v[k]);
      ok = ok && hex_token(p, out_bits, &res) && hex_token(p, 5, &flags);
      while (ok && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
      ok = ok && !*p;
      std::snprintf(why, sizeof why, "want %d operand(s), result, flags in hex", f.nin);
    }
    if (!ok) {  // reported in order: the lines before it are checked first
      drv.run(ops);
      ops.clear();
      if (drv.limit_reached()) break;
      ck.error_header();
      std::printf("line %ld: malformed vector for %s (%s): %s\n", lineno, func.c_str(), why,
                  r > 0 ? buf : "");
      malformed++;
      sc.fail++;
      if (r < 0 && std::ferror(in)) break;
      if (drv.limit_reached()) break;
      continue;
    }
    FpOp o{f.unit, v[0], v[1], v[2], f.unit == U_RTI ? int(exact) : f.op, rm};
    o.has_expected = true;
    o.exp_value = res;
    o.exp_flags = flags;
    o.line = lineno;
    // -notexact for conversions to integer: the unit always raises NX when inexact (RISC-V
    // fcvt), and a not-exact conversion never does, so NX is dropped from the unit's flags.
    // roundToInt has the exact_i input, driven from -exact / -notexact.
    if (f.unit == U_F2I && !exact) o.flag_mask = 0x1E;
    ops.push_back(o);
    if (ops.size() == 4096) {
      drv.run(ops);
      ops.clear();
      if (drv.limit_reached()) break;
    }
  }
  if (!drv.limit_reached()) drv.run(ops);
  if (in != stdin) std::fclose(in);
  const long errors = sc.fail;
  if (errors)
    std::printf("%ld tests performed; %ld error%s found.\n", drv.checked, errors,
                errors == 1 ? "" : "s");
  else
    std::printf("In %ld tests, no errors found in %s.\n", drv.checked, ck.title.c_str());
  if (drv.limit_reached())
    std::printf("stopped after %ld errors (-errors %ld; -errors 0: no limit)\n", errors, max_errors);
  std::printf("%s: %ld vectors checked, %ld malformed lines\n", name.c_str(), drv.checked,
              malformed);
  return sc.finish();
}
