// fp_vectors.cpp -- runs Berkeley TestFloat-format test vectors through the float RTL units.
//
//   fp_vectors <function> [-rnear_even|-rminMag|-rmin|-rmax|-rnear_maxMag] [-exact|-notexact]
//              [+seed=N +stall=P +gap=P] [file|-]
//
// <function> is a TestFloat name: f16_add, f32_mulAdd, bf16_sqrt, f32_lt, f16_to_i32,
// ui32_to_bf16, f32_to_f16, ... (f16/bf16/f32 x add sub mul mulAdd div sqrt eq lt le min max
// to_i32 to_ui32, i32_to_/ui32_to_, and every format-to-format conversion). Each input line
// holds the operands, the expected result and the expected flags in hex, separated by spaces,
// exactly as testfloat_gen writes them (docs/float.md). Every mismatch is printed with its line;
// a malformed line is reported and counted as failed. Last line: "N passed, N failed".
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

#include "Vfp_all_top.h"
#include "tb_fp_units.h"

using Top = Vfp_all_top;

struct Function {
  int fmt;    // format of the unit that computes it
  int unit;
  int op;
  int nin;    // operands on a line
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
    *f = {to, U_I2F, head == "i32", 1};
    return true;
  }
  const int fmt = fmt_of(head);
  if (fmt < 0) return false;
  struct { const char *n; int unit, op, nin; } ops[] = {
      {"add", U_ADD, 0, 2}, {"sub", U_ADD, 1, 2},  {"mul", U_MUL, 0, 2},  {"mulAdd", U_FMA, 0, 3},
      {"div", U_DIVSQRT, 0, 2}, {"sqrt", U_DIVSQRT, 1, 1}, {"eq", U_CMP, 0, 2}, {"lt", U_CMP, 1, 2},
      {"le", U_CMP, 2, 2}, {"min", U_CMP, 3, 2}, {"max", U_CMP, 4, 2}, {"to_i32", U_F2I, 1, 1},
      {"to_ui32", U_F2I, 0, 1}};
  for (auto &o : ops)
    if (rest == o.n) { *f = {fmt, o.unit, o.op, o.nin}; return true; }
  if (rest.compare(0, 3, "to_") == 0) {
    const int to = fmt_of(rest.substr(3));
    if (to < 0 || to == fmt) return false;
    *f = {fmt, to == kX1[fmt] ? U_F2F_X1 : U_F2F_X2, 0, 1};
    return true;
  }
  return false;
}

static int usage(const char *msg) {
  std::fprintf(stderr, "fp_vectors: %s\nusage: fp_vectors <function> [-rnear_even|-rminMag|-rmin|"
               "-rmax|-rnear_maxMag] [-exact|-notexact] [file|-]\n", msg);
  return 2;
}

// Parses one hex token; false when it is not hex or too wide for bits.
static bool hex_token(const char *&p, int bits, uint32_t *v) {
  while (*p == ' ' || *p == '\t') p++;
  const char *s = p;
  uint64_t x = 0;
  while (std::isxdigit(static_cast<unsigned char>(*p))) {
    x = x * 16 + (std::isdigit(static_cast<unsigned char>(*p)) ? *p - '0' : (std::tolower(*p) - 'a' + 10));
    if (x >> bits) return false;
    p++;
  }
  if (p == s || (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')) return false;
  *v = static_cast<uint32_t>(x);
  return true;
}

int main(int argc, char **argv) {
  std::string func, path = "-";
  int rm = 0;
  bool exact = true;
  for (int i = 1; i < argc; i++) {
    const std::string s = argv[i];
    if (s[0] == '+') continue;  // harness options (+seed, +stall, +gap, +trace)
    if (s == "-rnear_even") rm = 0;
    else if (s == "-rminMag") rm = 1;
    else if (s == "-rmin") rm = 2;
    else if (s == "-rmax") rm = 3;
    else if (s == "-rnear_maxMag") rm = 4;
    else if (s == "-exact") exact = true;
    else if (s == "-notexact") exact = false;
    else if (s[0] == '-' && s.size() > 1) return usage(("unknown option " + s).c_str());
    else if (func.empty()) func = s;
    else path = s;
  }
  Function f;
  if (func.empty()) return usage("no function given");
  if (!parse_function(func, &f)) return usage(("unknown function " + func).c_str());
  FILE *in = path == "-" ? stdin : std::fopen(path.c_str(), "r");
  if (!in) return usage(("cannot open " + path).c_str());

  TbArgs a;
  const std::string name = "fp_vectors " + func;
  tb_init(argc, argv, name.c_str(), 0, &a);
  TbSim<Top> sim(a, ~0ull);
  TbScore sc(name.c_str());
  sc.max_print = 1 << 30;
  FpDriver<Top> drv(sim, sc, a, f.fmt);
  drv.verbose = true;
  sim.top->fmt_i = f.fmt;
  sim.reset();

  const int in_bits = f.unit == U_I2F ? 32 : fp_width(f.fmt);
  const int out_bits = f.unit == U_F2I ? 32 : f.unit == U_CMP && f.op < 3 ? 1
                     : f.unit == U_F2F_X1 ? fp_width(kX1[f.fmt])
                     : f.unit == U_F2F_X2 ? fp_width(kX2[f.fmt]) : fp_width(f.fmt);
  std::vector<FpOp> ops;
  char buf[512];
  long lineno = 0, malformed = 0;
  while (std::fgets(buf, sizeof buf, in)) {
    lineno++;
    const char *p = buf;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '#') continue;
    uint32_t v[3] = {0, 0, 0}, res, flags;
    bool ok = true;
    for (int k = 0; k < f.nin && ok; k++) ok = hex_token(p, in_bits, &v[k]);
    ok = ok && hex_token(p, out_bits, &res) && hex_token(p, 5, &flags);
    while (ok && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    if (!ok || *p) {
      std::printf("line %ld: malformed vector for %s (want %d operand(s), result, flags in hex): %s",
                  lineno, func.c_str(), f.nin, buf);
      malformed++;
      continue;
    }
    FpOp o{f.unit, v[0], v[1], v[2], f.op, rm};
    o.has_expected = true;
    o.exp_value = res;
    o.exp_flags = flags;
    o.line = lineno;
    if (f.unit == U_F2I && !exact) o.flag_mask = 0x1E;
    ops.push_back(o);
    if (ops.size() == 4096) { drv.run(ops); ops.clear(); }
  }
  drv.run(ops);
  if (in != stdin) std::fclose(in);
  sc.fail += malformed;
  std::printf("%s: %ld vectors checked, %ld malformed lines\n", name.c_str(), drv.checked, malformed);
  return sc.finish();
}
