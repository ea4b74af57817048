/* test_cutil.c -- unit tests of the shared C helpers (cmodel/include/cutil.h), built with
 * ASan/UBSan:
 *   - splitmix64 against the published reference stream, the finalizer, the seeding rule;
 *   - seeds: for many seeds S, the first 4096 draws of S and of S + 1 share no run of 8 equal
 *     consecutive draws at any relative offset (every 8-draw window hashed); the same check
 *     flags the old seed * c1 + c2 seeding, which puts S + 1 one draw behind S;
 *   - the range, unit and normal draws;
 *   - the number parsers (hex, decimal, either) on edge cases: empty, prefix only, overflow,
 *     out of range, signs, blanks, trailing junk;
 *   - the tokenizer and the line reader (comments, blank lines, too many fields, a line too
 *     long, a read error, file offsets, line numbers);
 *   - the error setters (truncation, NULL buffer, location prefixes);
 *   - the command-line helpers, whose failures are run in a child process: exact message on
 *     stderr and exit status 1.
 * Last line: "N passed, N failed". */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cutil.h"

#include "test_check.h"

typedef unsigned long long ull;

/* ================================================================ random numbers */

static void test_splitmix(void) {
  /* splitmix64 from state 0 (Vigna's reference splitmix64.c) */
  cutil_rng_t r = {0};
  CHECK(cutil_rng_next(&r) == 0xe220a8397b1dcdafull, "splitmix64 draw 1 from state 0");
  CHECK(cutil_rng_next(&r) == 0x6e789e6aa1b965f4ull, "splitmix64 draw 2 from state 0");
  CHECK(cutil_rng_next(&r) == 0x06c45d188009454full, "splitmix64 draw 3 from state 0");
  CHECK(r.s == 3 * CUTIL_GAMMA, "state advances by gamma per draw");
  CHECK(cutil_mix64(0) == 0, "mix64(0)");
  CHECK(cutil_mix64(1) == 0x5692161d100b05e5ull, "mix64(1)");
  CHECK(cutil_mix64(UINT64_MAX) == 0xb4d055fcf2cbbd7bull, "mix64(2^64 - 1)");
  /* the seed's state is the first draw of a stream whose state is the seed */
  cutil_rng_t raw = {12345};
  CHECK(cutil_rng_seed(12345).s == cutil_rng_next(&raw), "seed state = mix64(seed + gamma)");
  r = cutil_rng_seed(1);
  CHECK(r.s == 0x910a2dec89025cc1ull, "seed 1 state (%llx)", (ull)r.s);
  CHECK(cutil_rng_next(&r) == 0x5e41ab087439611eull, "seed 1 draw 1");
  CHECK(cutil_rng_next(&r) == 0xf18d6ce93d6cf1eeull, "seed 1 draw 2");
}

enum { NDRAW = 4096, RUN = 8, NWIN = NDRAW - RUN + 1 };

typedef struct {
  uint64_t h;
  int at;
} win_t;

static int cmp_win(const void *a, const void *b) {
  uint64_t x = ((const win_t *)a)->h, y = ((const win_t *)b)->h;
  return x < y ? -1 : x > y;
}

static uint64_t win_hash(const uint64_t *v) {
  uint64_t h = 0;
  for (int j = 0; j < RUN; j++) h = cutil_mix64(h ^ v[j]) + (uint64_t)j;
  return h;
}

/* Number of 8-draw windows of b equal to some window of a (any offset). */
static int shared_runs(const uint64_t *a, const uint64_t *b) {
  static win_t wa[NWIN];
  for (int i = 0; i < NWIN; i++) wa[i] = (win_t){win_hash(a + i), i};
  qsort(wa, NWIN, sizeof wa[0], cmp_win);
  int shared = 0;
  for (int i = 0; i < NWIN; i++) {
    win_t key = {win_hash(b + i), 0};
    win_t *hit = bsearch(&key, wa, NWIN, sizeof wa[0], cmp_win);
    if (!hit) continue;
    while (hit > wa && hit[-1].h == key.h) hit--; /* first of equal hashes */
    for (; hit < wa + NWIN && hit->h == key.h; hit++)
      if (!memcmp(a + hit->at, b + i, RUN * sizeof(uint64_t))) {
        shared++;
        break;
      }
  }
  return shared;
}

static void draws(cutil_rng_t r, uint64_t *v) {
  for (int i = 0; i < NDRAW; i++) v[i] = cutil_rng_next(&r);
}

static void test_seed_independence(void) {
  static uint64_t a[NDRAW], b[NDRAW];
  static const uint64_t seeds[] = {
      0, 1, 2, 41, 1000, 123456789, 0x7fffffff, 0xffffffff, 1ull << 32, 1ull << 63, UINT64_MAX - 1};
  int worst = 0;
  for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
    uint64_t s = seeds[k];
    draws(cutil_rng_seed(s), a);
    draws(cutil_rng_seed(s + 1), b);
    int n = shared_runs(a, b) + shared_runs(b, a);
    CHECK(n == 0, "seeds %llu and %llu share %d runs of %d draws", (ull)s, (ull)(s + 1), n, RUN);
  }
  for (uint64_t s = 2; s < 258; s++) { /* every small seed against its neighbour */
    draws(cutil_rng_seed(s), a);
    draws(cutil_rng_seed(s + 1), b);
    int n = shared_runs(a, b) + shared_runs(b, a);
    if (n > worst) worst = n;
  }
  CHECK(worst == 0, "seeds 2..257 against S + 1: %d shared runs", worst);
  /* the check sees the defect it guards against: seed * gamma + 1 gives S + 1 the stream of S
   * one draw later (4095 draws in common, 4088 windows of 8) */
  cutil_rng_t old_a = {5 * CUTIL_GAMMA + 1}, old_b = {6 * CUTIL_GAMMA + 1};
  draws(old_a, a);
  draws(old_b, b);
  CHECK(shared_runs(a, b) == NWIN - 1, "old seeding: S + 1 is S shifted by one draw (%d runs)",
        shared_runs(a, b));
  /* and a shift of a whole 8-draw run at any offset, not only 1 */
  cutil_rng_t far = {5 * CUTIL_GAMMA + 1 + 3000 * CUTIL_GAMMA};
  draws(far, b);
  CHECK(shared_runs(a, b) == NDRAW - 3000 - RUN + 1, "a shift of 3000 draws is found (%d)",
        shared_runs(a, b));
}

static void test_draws(void) {
  cutil_rng_t r = cutil_rng_seed(3);
  int bad_below = 0, bad_uniform = 0, bad_unit = 0;
  long hist[6] = {0};
  for (int i = 0; i < 60000; i++) {
    uint64_t x = cutil_rng_below(&r, 6);
    bad_below += x >= 6;
    uint64_t y = cutil_rng_uniform(&r, 6);
    bad_uniform += y >= 6;
    if (y < 6) hist[y]++;
    double u = cutil_rng_unit(&r);
    bad_unit += !(u >= 0.0 && u < 1.0);
  }
  CHECK(bad_below == 0 && bad_uniform == 0 && bad_unit == 0, "ranges (%d %d %d)", bad_below,
        bad_uniform, bad_unit);
  int flat = 1;
  for (int k = 0; k < 6; k++) flat &= hist[k] > 9500 && hist[k] < 10500;
  CHECK(flat, "uniform(6) roughly flat");
  CHECK(cutil_rng_uniform(&r, 1) == 0 && cutil_rng_below(&r, 1) == 0, "n = 1");
  /* rejection: n just above 2^63 rejects about half the draws, still below n */
  int big = 1;
  for (int i = 0; i < 1000; i++) big &= cutil_rng_uniform(&r, (1ull << 63) + 1) <= (1ull << 63);
  CHECK(big, "uniform(2^63 + 1)");
  CHECK(cutil_unit(0) == 0.0 && cutil_unit(UINT64_MAX) == 1.0 - ldexp(1.0, -53), "unit ends");
  CHECK(cutil_unit(1ull << 63) == 0.5, "unit(2^63) = 0.5");
  CHECK(cutil_normal(1.0, 0.3) == 0.0, "box-muller: u1 = 1 gives 0");
  CHECK(fabs(cutil_normal(exp(-2.0), 0.5) + 2.0) < 1e-12, "box-muller: sqrt(4) cos(pi) = -2");
  CHECK(isfinite(cutil_normal(0.0, 0.25)), "box-muller clamps u1 = 0");
  double s1 = 0, s2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; i++) {
    double z = cutil_rng_normal(&r);
    s1 += z;
    s2 += z * z;
  }
  double mean = s1 / n, var = s2 / n - mean * mean;
  CHECK(fabs(mean) < 0.01 && fabs(var - 1.0) < 0.02, "normal: mean %g var %g", mean, var);
}

/* ================================================================ number parsing */

static void hex_case(const char *s, uint64_t max, int want_rc, uint64_t want) {
  uint64_t v = 0xdeadull;
  int rc = cutil_parse_hex(s, max, &v);
  CHECK(rc == want_rc && v == (rc == 0 ? want : 0xdeadull), "parse_hex('%s', %llx) = %d %llx", s,
        (ull)max, rc, (ull)v);
}

static void dec_case(const char *s, uint64_t lo, uint64_t hi, int want_rc, uint64_t want) {
  uint64_t v = 0xdeadull;
  int rc = cutil_parse_dec(s, lo, hi, &v);
  CHECK(rc == want_rc && v == (rc == 0 ? want : 0xdeadull), "parse_dec('%s', %llu..%llu) = %d %llu",
        s, (ull)lo, (ull)hi, rc, (ull)v);
}

static void num_case(const char *s, int want_rc, uint64_t want) {
  uint64_t v = 0xdeadull;
  int rc = cutil_parse_num(s, &v);
  CHECK(rc == want_rc && v == (rc == 0 ? want : 0xdeadull), "parse_num('%s') = %d %llu", s, rc,
        (ull)v);
}

static void test_parsers(void) {
  CHECK(cutil_hex_digit('0') == 0 && cutil_hex_digit('9') == 9 && cutil_hex_digit('a') == 10 &&
            cutil_hex_digit('F') == 15 && cutil_hex_digit('g') == -1 &&
            cutil_hex_digit(' ') == -1 && cutil_hex_digit(0xe9) == -1,
        "hex digits");
  CHECK(!strcmp(cutil_skip_0x("0x12"), "12") && !strcmp(cutil_skip_0x("0X"), "") &&
            !strcmp(cutil_skip_0x("12"), "12") && !strcmp(cutil_skip_0x("x12"), "x12"),
        "skip_0x");
  const uint64_t M = UINT64_MAX;
  hex_case("0", M, 0, 0);
  hex_case("0x0", M, 0, 0);
  hex_case("1f", M, 0, 0x1f);
  hex_case("0X1F", M, 0, 0x1f);
  hex_case("ffffffffffffffff", M, 0, M);
  hex_case("0x0000000000000000000000001", M, 0, 1); /* leading zeros do not overflow */
  hex_case("10000000000000000", M, -2, 0);          /* 2^64 */
  hex_case("", M, -1, 0);
  hex_case("0x", M, -1, 0);
  hex_case("0x0x5", M, -1, 0);
  hex_case("12g", M, -1, 0);
  hex_case(" 5", M, -1, 0);
  hex_case("5 ", M, -1, 0);
  hex_case("-5", M, -1, 0);
  hex_case("+5", M, -1, 0);
  hex_case("ff", 0xff, 0, 0xff);
  hex_case("100", 0xff, -2, 0);
  hex_case("1ffz", 0xff, -2, 0); /* left to right: the overflow comes first */
  hex_case("1z", 0xff, -1, 0);
  hex_case("0", 0, 0, 0);
  hex_case("1", 0, -2, 0);
  hex_case("ffffffff", 0xffffffffull, 0, 0xffffffffull);
  hex_case("100000000", 0xffffffffull, -2, 0);
  dec_case("0", 0, M, 0, 0);
  dec_case("18446744073709551615", 0, M, 0, M);
  dec_case("18446744073709551616", 0, M, -1, 0); /* overflow */
  dec_case("99999999999999999999999", 0, M, -1, 0);
  dec_case("007", 0, M, 0, 7);
  dec_case("", 0, M, -1, 0);
  dec_case("12a", 0, M, -1, 0);
  dec_case("1.5", 0, M, -1, 0);
  dec_case("0x10", 0, M, -1, 0);
  dec_case("-1", 0, M, -1, 0);
  dec_case("+1", 0, M, -1, 0);
  dec_case(" 1", 0, M, -1, 0);
  dec_case("1 ", 0, M, -1, 0);
  dec_case("5", 5, 9, 0, 5);
  dec_case("9", 5, 9, 0, 9);
  dec_case("4", 5, 9, -1, 0);
  dec_case("10", 5, 9, -1, 0);
  num_case("10", 0, 10);
  num_case("0x10", 0, 16);
  num_case("0X10", 0, 16);
  num_case("0x", -1, 0);
  num_case("", -1, 0);
  num_case("10k", -1, 0);
  num_case("0x1g", -1, 0);
  num_case("18446744073709551616", -1, 0);
  num_case("0x10000000000000000", -1, 0);
}

/* ================================================================ text lines */

static void test_tokenize(void) {
  char *tok[4];
  int more = -1;
  char s1[] = "  seg\ta  0x10 \r\n";
  CHECK(cutil_tokenize(s1, tok, 4, &more) == 3 && !more && !strcmp(tok[0], "seg") &&
            !strcmp(tok[1], "a") && !strcmp(tok[2], "0x10"),
        "three tokens, CR LF");
  char s2[] = "a b # c d e f";
  CHECK(cutil_tokenize(s2, tok, 4, &more) == 2 && !more && !strcmp(tok[1], "b"), "comment cut");
  char s3[] = "# only a comment";
  CHECK(cutil_tokenize(s3, tok, 4, &more) == 0 && !more, "comment line");
  char s4[] = "";
  CHECK(cutil_tokenize(s4, tok, 4, &more) == 0 && !more, "empty line");
  char s5[] = " \t\v\f\r\n";
  CHECK(cutil_tokenize(s5, tok, 4, &more) == 0 && !more, "blank line");
  char s6[] = "1 2 3 4 5";
  CHECK(cutil_tokenize(s6, tok, 4, &more) == 4 && more && !strcmp(tok[3], "4"), "more than max");
  char s7[] = "1 2 3 4   ";
  CHECK(cutil_tokenize(s7, tok, 4, &more) == 4 && !more, "exactly max, trailing blanks");
  char s8[] = "x#y";
  CHECK(cutil_tokenize(s8, tok, 4, NULL) == 1 && !strcmp(tok[0], "x"), "comment inside a token");
  char s9[] = "a\vb\fc";
  CHECK(cutil_tokenize(s9, tok, 4, NULL) == 3 && !strcmp(tok[2], "c"), "VT and FF separate");
}

static void test_read_tokens(void) {
  FILE *f = tmpfile();
  CHECK(f != NULL, "tmpfile");
  if (!f) return;
  fputs("\n# a comment\n  a\tb  # trailing\nw x y z\n0123456789abcdefghijklmnopqrstuvwxyz\nlast",
        f);
  rewind(f);
  char buf[24], why[64];
  char *tok[3];
  long ln = 0, pos = -1;
  int nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, &pos, why, sizeof why);
  CHECK(nt == 2 && ln == 3 && pos == 13 && !strcmp(tok[0], "a") && !strcmp(tok[1], "b"),
        "first line with tokens: %d tokens, line %ld, offset %ld", nt, ln, pos);
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, &pos, why, sizeof why);
  CHECK(nt == -1 && ln == 4 && !strcmp(why, "too many fields"), "too many fields: %d %ld '%s'", nt,
        ln, why);
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, NULL, why, sizeof why);
  CHECK(nt == -1 && ln == 5 && !strcmp(why, "line longer than 22 characters"),
        "line too long: %d %ld '%s'", nt, ln, why);
  /* the long line is read to its end: the next line is line 6 */
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, &pos, why, sizeof why);
  CHECK(nt == 1 && ln == 6 && !strcmp(tok[0], "last"), "last line without a newline: %d %ld", nt,
        ln);
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, &pos, why, sizeof why);
  CHECK(nt == 0 && ln == 6, "end of file: %d %ld", nt, ln);
  fclose(f);
  /* NUL bytes: reported with their line and column, the line read to its end; a line of
   * exactly size - 2 characters fits, one more does not; an empty last line ends the file */
  f = tmpfile();
  CHECK(f != NULL, "tmpfile");
  if (!f) return;
  static const char nul_text[] = "ab\0cd x\nok\n\0\n0123456789abcdefghijkl\n0123456789abcdefghijklm\n";
  fwrite(nul_text, 1, sizeof nul_text - 1, f);
  rewind(f);
  ln = 0;
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, NULL, why, sizeof why);
  CHECK(nt == -1 && ln == 1 && !strcmp(why, "NUL byte in column 3"), "NUL: %d %ld '%s'", nt, ln, why);
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, NULL, why, sizeof why);
  CHECK(nt == 1 && ln == 2 && !strcmp(tok[0], "ok"), "line after a NUL: %d %ld", nt, ln);
  nt = cutil_read_line(f, buf, sizeof buf, &ln, why, sizeof why);
  CHECK(nt == -1 && ln == 3 && !strcmp(why, "NUL byte in column 1"), "lone NUL: %d %ld '%s'", nt, ln,
        why);
  nt = cutil_read_line(f, buf, sizeof buf, &ln, why, sizeof why);
  CHECK(nt == 1 && ln == 4 && strlen(buf) == 22, "22 characters fit: %d %ld", nt, ln);
  nt = cutil_read_line(f, buf, sizeof buf, &ln, why, sizeof why);
  CHECK(nt == -1 && ln == 5 && !strcmp(why, "line longer than 22 characters"), "23: %d %ld '%s'", nt,
        ln, why);
  nt = cutil_read_line(f, buf, sizeof buf, &ln, why, sizeof why);
  CHECK(nt == 0 && ln == 5, "end of file after a newline: %d %ld", nt, ln);
  fclose(f);
  /* a stream opened for writing only: reading it fails */
  char path[64];
  snprintf(path, sizeof path, "/tmp/test_cutil_%ld.txt", (long)getpid());
  f = fopen(path, "w");
  CHECK(f != NULL, "write-only file");
  if (!f) return;
  ln = 0;
  why[0] = '\0';
  nt = cutil_read_tokens(f, buf, sizeof buf, tok, 3, &ln, NULL, why, sizeof why);
  CHECK(nt == -1 && ln == 1 && !strcmp(why, "read error"), "read error: %d %ld '%s'", nt, ln, why);
  fclose(f);
  remove(path);
}

/* ================================================================ error messages */

static void test_seterr(void) {
  char e[8];
  cutil_seterr(e, sizeof e, "%s-%d", "abcdef", 42);
  CHECK(!strcmp(e, "abcdef-"), "cut to the buffer: '%s'", e);
  cutil_seterr(NULL, 100, "x");
  strcpy(e, "keep");
  cutil_seterr(e, 0, "x");
  CHECK(!strcmp(e, "keep"), "errlen 0 leaves the buffer");
  char big[512];
  cutil_seterr_line(big, sizeof big, "f.txt", 12, "bad '%s'", "tok");
  CHECK(!strcmp(big, "f.txt:12: bad 'tok'"), "file:line prefix: '%s'", big);
  cutil_seterr_line(big, sizeof big, NULL, 7, "unknown line '%.3s'", "abcdef");
  CHECK(!strcmp(big, "line 7: unknown line 'abc'"), "line prefix: '%s'", big);
  char longmsg[301];
  memset(longmsg, 'x', 300);
  longmsg[300] = '\0';
  cutil_seterr_line(big, sizeof big, "p", 3, "%s", longmsg);
  CHECK(strlen(big) == strlen("p:3: ") + 199, "message part cut at 199 (%zu)", strlen(big));
  cutil_seterr_line(e, sizeof e, "path", 123, "msg");
  CHECK(!strcmp(e, "path:12"), "whole message cut to the buffer: '%s'", e);
}

/* ================================================================ command-line helpers */

typedef enum { DIE, OPT_LONG, OPT_DOUBLE, OPT_U64 } call_t;

/* Runs the call in a child with stderr captured: the exit status (or -1) and stderr text. */
static int in_child(call_t c, const char *s, double lo, double hi, char *out, size_t outlen) {
  int fd[2];
  if (pipe(fd) != 0) return -2;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -2;
  if (pid == 0) {
    close(fd[0]);
    dup2(fd[1], 2);
    if (c == DIE) cutil_die("tool", "%s %d", s, 3);
    if (c == OPT_LONG) cutil_opt_long("tool", "--k", s, (long)lo, (long)hi);
    if (c == OPT_DOUBLE) cutil_opt_double("tool", "--r", s, lo, hi);
    if (c == OPT_U64) cutil_opt_u64("tool", "--n", s, (uint64_t)lo, (uint64_t)hi);
    _exit(0);
  }
  close(fd[1]);
  size_t n = 0;
  ssize_t k;
  while (n + 1 < outlen && (k = read(fd[0], out + n, outlen - 1 - n)) > 0) n += (size_t)k;
  out[n] = '\0';
  close(fd[0]);
  int st;
  if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return -1;
  return WEXITSTATUS(st);
}

static void test_cli(void) {
  static const struct {
    call_t c;
    const char *s;
    double lo, hi;
    const char *want; /* stderr of the child: exit status 1 (cutil_die), 2 (bad option) */
  } bad[] = {
      {DIE, "bad thing", 0, 0, "tool: bad thing 3\n"},
      {OPT_LONG, NULL, 0, 9, "tool: --k needs a value\n"},
      {OPT_LONG, "", 0, 9, "tool: --k: '' is not a decimal number\n"},
      {OPT_LONG, "x5", 0, 9, "tool: --k: 'x5' is not a decimal number\n"},
      {OPT_LONG, "5x", 0, 9, "tool: --k: '5x' is not a decimal number\n"},
      {OPT_LONG, "-1", 0, 9, "tool: --k: '-1' is not a decimal number\n"},
      {OPT_LONG, " 1", 0, 9, "tool: --k: ' 1' is not a decimal number\n"},
      {OPT_LONG, "0x5", 0, 9, "tool: --k: '0x5' is not a decimal number\n"},
      {OPT_LONG, "99999999999999999999", 0, 9,
       "tool: --k: '99999999999999999999' is not a decimal number\n"},
      {OPT_LONG, "12", 0, 9, "tool: --k: 12 out of range 0..9\n"},
      {OPT_LONG, "0", 1, 9, "tool: --k: 0 out of range 1..9\n"},
      {OPT_DOUBLE, NULL, 0, 1, "tool: --r needs a value\n"},
      {OPT_DOUBLE, "", 0, 1, "tool: --r: '' is not a number\n"},
      {OPT_DOUBLE, "-0.5", 0, 1, "tool: --r: '-0.5' is not a number\n"},
      {OPT_DOUBLE, "nan", 0, 1, "tool: --r: 'nan' is not a number\n"},
      {OPT_DOUBLE, "inf", 0, 1, "tool: --r: 'inf' is not a number\n"},
      {OPT_DOUBLE, "0.5x", 0, 1, "tool: --r: '0.5x' is not a number\n"},
      {OPT_DOUBLE, "1e999", 0, 1, "tool: --r: '1e999' is not a number\n"},
      {OPT_DOUBLE, "2", 0, 1, "tool: --r: 2 out of range 0..1\n"},
      {OPT_DOUBLE, "0.5", 1, 1e6, "tool: --r: 0.5 out of range 1..1e+06\n"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char out[256];
    int rc = in_child(bad[i].c, bad[i].s, bad[i].lo, bad[i].hi, out, sizeof out);
    CHECK(rc == (bad[i].c == DIE ? 1 : 2) && !strcmp(out, bad[i].want), "'%s': exit %d, stderr '%s' (want '%s')",
          bad[i].s ? bad[i].s : "NULL", rc, out, bad[i].want);
  }
  /* cutil_opt_u64: bad input, exit status 2 */
  static const struct {
    const char *s;
    double lo, hi;
    const char *want;
  } bad_u64[] = {
      {NULL, 1, 9, "tool: --n needs a value (a number in 1..9)\n"},
      {"", 1, 9, "tool: --n needs a value (a number in 1..9)\n"},
      {"-1", 0, 9, "tool: --n: '-1' is not a number (expected 0..9, decimal or 0x hex)\n"},
      {"0x", 0, 9, "tool: --n: '0x' is not a number (expected 0..9, decimal or 0x hex)\n"},
      {"5 ", 0, 9, "tool: --n: '5 ' is not a number (expected 0..9, decimal or 0x hex)\n"},
      {"4294967680", 1, 1048576, "tool: --n: 4294967680 out of range (expected 1..1048576)\n"},
      {"99999999999999999999", 0, 9,
       "tool: --n: '99999999999999999999' is not a number (expected 0..9, decimal or 0x hex)\n"},
      {"0x10", 0, 9, "tool: --n: 0x10 out of range (expected 0..9)\n"},
  };
  for (size_t i = 0; i < sizeof bad_u64 / sizeof bad_u64[0]; i++) {
    char out[256];
    int rc = in_child(OPT_U64, bad_u64[i].s, bad_u64[i].lo, bad_u64[i].hi, out, sizeof out);
    CHECK(rc == 2 && !strcmp(out, bad_u64[i].want), "u64 '%s': exit %d, stderr '%s' (want '%s')",
          bad_u64[i].s ? bad_u64[i].s : "NULL", rc, out, bad_u64[i].want);
  }
  CHECK(cutil_opt_u64("tool", "--n", "010", 0, 99) == 10, "opt_u64 010 is decimal");
  CHECK(cutil_opt_u64("tool", "--n", "0x1F", 0, 99) == 31, "opt_u64 hex");
  CHECK(cutil_opt_u64("tool", "--n", "18446744073709551615", 0, UINT64_MAX) == UINT64_MAX,
        "opt_u64 2^64 - 1");
  CHECK(cutil_opt_long("tool", "--k", "7", 0, 9) == 7, "opt_long 7");
  CHECK(cutil_opt_long("tool", "--k", "0009", 0, 9) == 9, "opt_long leading zeros");
  CHECK(cutil_opt_long("tool", "--k", "2000000000", 0, 2000000000L) == 2000000000L, "opt_long hi");
  CHECK(cutil_opt_double("tool", "--r", ".5", 0, 1) == 0.5, "opt_double .5");
  CHECK(cutil_opt_double("tool", "--r", "1e-2", 0, 1) == 0.01, "opt_double exponent");
  CHECK(cutil_opt_double("tool", "--r", "1", 0, 1) == 1.0, "opt_double hi");
}

int main(void) {
  test_splitmix();
  test_seed_independence();
  test_draws();
  test_parsers();
  test_tokenize();
  test_read_tokens();
  test_seterr();
  test_cli();
  return CHECK_SUMMARY();
}
