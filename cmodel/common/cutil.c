/* cutil.c -- the shared C helpers: splitmix64 streams and their seeding, number parsing, line
 * tokenizing, error messages and command-line helpers.  Every rule is in cmodel/include/cutil.h. */
#include "cutil.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ random numbers */

uint64_t cutil_mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

cutil_rng_t cutil_rng_seed(uint64_t seed) {
  cutil_rng_t r = {cutil_mix64(seed + CUTIL_GAMMA)};
  return r;
}

uint64_t cutil_rng_next(cutil_rng_t *r) { return cutil_mix64(r->s += CUTIL_GAMMA); }

uint64_t cutil_rng_below(cutil_rng_t *r, uint64_t n) { return cutil_rng_next(r) % n; }

uint64_t cutil_rng_uniform(cutil_rng_t *r, uint64_t n) {
  uint64_t lim = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = cutil_rng_next(r);
  while (x >= lim);
  return x % n;
}

double cutil_unit(uint64_t x) { return (double)(x >> 11) * (1.0 / 9007199254740992.0); }

double cutil_normal(double u1, double u2) {
  if (u1 < 1e-300) u1 = 1e-300;
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double cutil_rng_unit(cutil_rng_t *r) { return cutil_unit(cutil_rng_next(r)); }

double cutil_rng_normal(cutil_rng_t *r) {
  double u1 = cutil_rng_unit(r);
  double u2 = cutil_rng_unit(r);
  return cutil_normal(u1, u2);
}

/* ================================================================ number parsing */

int cutil_hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

const char *cutil_skip_0x(const char *s) {
  return (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? s + 2 : s;
}

int cutil_parse_hex(const char *s, uint64_t max, uint64_t *out) {
  s = cutil_skip_0x(s);
  if (!*s) return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    int d = cutil_hex_digit((unsigned char)*s);
    if (d < 0) return -1;
    if (v > max >> 4) return -2;
    v <<= 4;
    if ((uint64_t)d > max - v) return -2;
    v += (uint64_t)d;
  }
  *out = v;
  return 0;
}

int cutil_parse_dec(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE || v < lo || v > hi) return -1;
  *out = (uint64_t)v;
  return 0;
}

int cutil_parse_num(const char *s, uint64_t *out) {
  if (cutil_skip_0x(s) != s) return cutil_parse_hex(s, UINT64_MAX, out) < 0 ? -1 : 0;
  return cutil_parse_dec(s, 0, UINT64_MAX, out);
}

/* ================================================================ text lines */

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

int cutil_tokenize(char *s, char **tok, int max, int *more) {
  char *h = strchr(s, '#');
  if (h) *h = '\0';
  int n = 0;
  if (more) *more = 0;
  char *p = s;
  for (;;) {
    while (is_blank(*p)) p++;
    if (!*p) break;
    if (n == max) {
      if (more) *more = 1;
      break;
    }
    tok[n++] = p;
    while (*p && !is_blank(*p)) p++;
    if (*p) *p++ = '\0';
  }
  return n;
}

int cutil_read_line(FILE *f, char *buf, size_t size, long *line_no, char *why, size_t whylen) {
  size_t n = 0;      /* characters kept in buf */
  long col = 0;      /* characters of the line so far */
  long nul_col = 0;  /* column of the first NUL byte (1-based), 0 none */
  int c;
  while ((c = getc(f)) != EOF && c != '\n') {
    col++;
    if (c == '\0' && !nul_col) nul_col = col;
    if (n + 2 < size) buf[n++] = (char)c;
  }
  buf[n] = '\0';
  if (c == EOF && ferror(f)) {
    (*line_no)++;
    cutil_seterr(why, whylen, "read error");
    return -1;
  }
  if (c == EOF && col == 0) return 0;
  (*line_no)++;
  if (nul_col) {
    cutil_seterr(why, whylen, "NUL byte in column %ld", nul_col);
    return -1;
  }
  if ((size_t)col > size - 2) {
    cutil_seterr(why, whylen, "line longer than %d characters", (int)size - 2);
    return -1;
  }
  return 1;
}

int cutil_read_tokens(FILE *f, char *buf, size_t size, char **tok, int max, long *line_no,
                      long *pos, char *why, size_t whylen) {
  for (;;) {
    if (pos) *pos = ftell(f);
    int r = cutil_read_line(f, buf, size, line_no, why, whylen);
    if (r <= 0) return r;
    int more;
    int nt = cutil_tokenize(buf, tok, max, &more);
    if (more) {
      cutil_seterr(why, whylen, "too many fields");
      return -1;
    }
    if (nt > 0) return nt;
  }
}

/* ================================================================ error messages */

void cutil_vseterr(char *err, size_t errlen, const char *fmt, va_list ap) {
  if (!err || !errlen) return;
  vsnprintf(err, errlen, fmt, ap);
}

void cutil_seterr(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cutil_vseterr(err, errlen, fmt, ap);
  va_end(ap);
}

void cutil_seterr_line(char *err, size_t errlen, const char *file, long line, const char *fmt,
                       ...) {
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (file) cutil_seterr(err, errlen, "%s:%ld: %s", file, line, msg);
  else cutil_seterr(err, errlen, "line %ld: %s", line, msg);
}

/* ================================================================ command-line tools */

CUTIL_NORETURN static void vdie(const char *prog, int status, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: ", prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  exit(status);
}

void cutil_die(const char *prog, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdie(prog, 1, fmt, ap);
}

void cutil_fail(const char *prog, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdie(prog, 2, fmt, ap);
}

long cutil_opt_long(const char *prog, const char *opt, const char *s, long lo, long hi) {
  if (!s) cutil_fail(prog, "%s needs a value", opt);
  if (*s < '0' || *s > '9') cutil_fail(prog, "%s: '%s' is not a decimal number", opt, s);
  errno = 0;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || errno == ERANGE) cutil_fail(prog, "%s: '%s' is not a decimal number", opt, s);
  if (v < lo || v > hi) cutil_fail(prog, "%s: %ld out of range %ld..%ld", opt, v, lo, hi);
  return v;
}

uint64_t cutil_opt_u64(const char *prog, const char *opt, const char *s, uint64_t lo, uint64_t hi) {
  if (!s || !*s)
    cutil_fail(prog, "%s needs a value (a number in %llu..%llu)", opt, (unsigned long long)lo,
               (unsigned long long)hi);
  uint64_t v;
  if (cutil_parse_num(s, &v) != 0)
    cutil_fail(prog, "%s: '%s' is not a number (expected %llu..%llu, decimal or 0x hex)", opt, s,
               (unsigned long long)lo, (unsigned long long)hi);
  if (v < lo || v > hi)
    cutil_fail(prog, "%s: %s out of range (expected %llu..%llu)", opt, s, (unsigned long long)lo,
               (unsigned long long)hi);
  return v;
}

double cutil_opt_double(const char *prog, const char *opt, const char *s, double lo, double hi) {
  if (!s) cutil_fail(prog, "%s needs a value", opt);
  if (!((*s >= '0' && *s <= '9') || *s == '.')) cutil_fail(prog, "%s: '%s' is not a number", opt, s);
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (*end || errno == ERANGE || v != v) cutil_fail(prog, "%s: '%s' is not a number", opt, s);
  if (v < lo || v > hi) cutil_fail(prog, "%s: %g out of range %g..%g", opt, v, lo, hi);
  return v;
}

FILE *cutil_open_out(const char *prog, const char *path) {
  if (!strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, "w");
  if (!f) cutil_die(prog, "cannot write %s", path);
  return f;
}

void cutil_close_out(const char *prog, FILE *f, const char *path, int werr) {
  if (f == stdout) {
    if (werr || fflush(f) != 0) cutil_die(prog, "write error on stdout");
  } else if (werr || fclose(f) != 0) {
    cutil_die(prog, "write error on %s", path);
  }
}
