/* rd_cutil_lines.c -- fuzz target of the shared line reader (cmodel/common/cutil.c):
 * cutil_read_line, cutil_read_tokens, cutil_tokenize and the number parsers on what they return.
 * Input: byte 0 picks the line buffer (2..65 bytes, so that long lines are common), byte 1 the
 * token limit (1..8); the rest is the file.  Oracles: every line comes back as the file holds it
 * (or is refused for a NUL byte at its first NUL's column, or for its length), the line numbers
 * count every line, tokens are non-blank and comment-free, and cutil_parse_dec / _hex / _num
 * agree with a straightforward reference. */
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "fz.h"

static int blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Reference parsers: -1 not a number, -2 too large, 0 with *v. */
static int ref_dec(const char *s, uint64_t *v) {
  if (!*s) return -1;
  unsigned __int128 x = 0;
  int big = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    x = x * 10 + (unsigned)(*s - '0');
    if (x > UINT64_MAX) big = 1, x = (unsigned __int128)UINT64_MAX + 1;
  }
  if (big) return -2;
  *v = (uint64_t)x;
  return 0;
}

/* cutil.h: digits are read left to right and the first check that fails decides. */
static int ref_hex(const char *s, uint64_t max, uint64_t *v) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  if (!*s) return -1;
  unsigned __int128 x = 0;
  for (; *s; s++) {
    int d = cutil_hex_digit((unsigned char)*s);
    if (d < 0) return -1;
    x = x * 16 + (unsigned)d;
    if (x > max) return -2;
  }
  *v = (uint64_t)x;
  return 0;
}

static void check_numbers(const char *t) {
  uint64_t v = 0, r = 0;
  int rr = ref_dec(t, &r);
  int rc = cutil_parse_dec(t, 0, UINT64_MAX, &v);
  FZ_CHECK((rc == 0) == (rr == 0) && (rc != 0 || v == r), "cutil_parse_dec('%s') = %d", t, rc);
  rc = cutil_parse_dec(t, 10, 1000, &v);
  FZ_CHECK((rc == 0) == (rr == 0 && r >= 10 && r <= 1000), "cutil_parse_dec('%s', 10..1000)", t);
  uint64_t maxes[] = {UINT64_MAX, 0xFFFFFFFFu, 0xFF, 0};
  for (int i = 0; i < 4; i++) {
    rr = ref_hex(t, maxes[i], &r);
    rc = cutil_parse_hex(t, maxes[i], &v);
    FZ_CHECK(rc == rr && (rc != 0 || v == r), "cutil_parse_hex('%s', %llx) = %d, reference %d", t,
             (unsigned long long)maxes[i], rc, rr);
  }
  int hex = t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  rr = hex ? ref_hex(t, UINT64_MAX, &r) : ref_dec(t, &r);
  rc = cutil_parse_num(t, &v);
  FZ_CHECK((rc == 0) == (rr == 0) && (rc != 0 || v == r), "cutil_parse_num('%s') = %d", t, rc);
}

int fz_one(const uint8_t *d, size_t n) {
  if (n < 2) return -1;
  const size_t size = 2 + d[0] % 64;
  const int max = 1 + d[1] % 8;
  const uint8_t *data = d + 2;
  n -= 2;
  const char *path = fz_input_file(data, n);
  if (!path) return -1;

  /* cutil_read_line: every line as the file holds it */
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  char buf[80], why[64];
  long line = 0;
  size_t at = 0;
  for (;;) {
    const long before = line;
    int r = cutil_read_line(f, buf, size, &line, why, sizeof why);
    if (at == n) {
      FZ_CHECK(r == 0 && line == before, "cutil_read_line after the last line: %d", r);
      break;
    }
    const uint8_t *nl = memchr(data + at, '\n', n - at);
    size_t len = (size_t)((nl ? nl : data + n) - (data + at));
    const uint8_t *nul = memchr(data + at, 0, len);
    FZ_CHECK(line == before + 1, "line number %ld after line %ld", line, before);
    if (nul) {
      char want[64];
      snprintf(want, sizeof want, "NUL byte in column %ld", (long)(nul - (data + at)) + 1);
      FZ_CHECK(r == -1 && !strcmp(why, want), "line %ld: %d '%s', expected '%s'", line, r,
               r < 0 ? why : buf, want);
    } else if (len > size - 2) {
      FZ_CHECK(r == -1 && !strncmp(why, "line longer than ", 17), "line %ld of %zu characters "
               "(buffer %zu): %d", line, len, size, r);
    } else {
      FZ_CHECK(r == 1 && strlen(buf) == len && !memcmp(buf, data + at, len),
               "line %ld: read back differs", line);
    }
    at += len + (nl ? 1 : 0);
  }
  fclose(f);

  /* cutil_read_tokens: tokens of the lines that hold some, and the numbers in them */
  f = fopen(path, "rb");
  if (!f) return -1;
  char *tok[8];
  line = 0;
  long pos = -1;
  for (;;) {
    const long before = line;
    int r = cutil_read_tokens(f, buf, size, tok, max, &line, &pos, why, sizeof why);
    if (r == 0) break;
    FZ_CHECK(line > before && pos >= 0 && (size_t)pos <= n, "line %ld after %ld, pos %ld", line,
             before, pos);
    if (r < 0) {
      FZ_CHECK(why[0] != '\0' && !strchr(why, '\n'), "error without a one-line reason");
      continue; /* the next call reads the next line */
    }
    FZ_CHECK(r >= 1 && r <= max, "%d tokens (max %d)", r, max);
    for (int i = 0; i < r; i++) {
      FZ_CHECK(tok[i] >= buf && tok[i] < buf + size && tok[i][0], "token %d outside the line", i);
      for (const char *c = tok[i]; *c; c++)
        FZ_CHECK(!blank(*c) && *c != '#', "token '%s' holds a blank or '#'", tok[i]);
      check_numbers(tok[i]);
    }
  }
  long lines = 0;
  for (size_t i = 0; i < n; i++) lines += data[i] == '\n';
  if (n && data[n - 1] != '\n') lines++;
  FZ_CHECK(line == lines, "cutil_read_tokens counted %ld lines, the file has %ld", line, lines);
  fclose(f);
  return 0;
}
