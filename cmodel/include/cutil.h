/* cutil.h -- the small C helpers that the golden models, the host tools (sw/), the unit tests
 * (tests/) and the harness library (tb/common/tb_lib.cpp) share, so that none keeps its own
 * copy (cmodel/common/cutil.c; C11, no dependencies beyond libc/libm).
 *
 * Random numbers (splitmix64, Steele, Lea and Flood 2014)
 *   cutil_mix64(x)              the splitmix64 finalizer: a bijection of 64-bit words that
 *                               spreads every input bit over the whole output (a hash)
 *   cutil_rng_seed(seed)        the generator of `seed`: its state is cutil_mix64(seed + gamma),
 *                               so neighbouring seeds (S, S + 1) give independent streams
 *                               (seeding with seed * c1 + c2 puts neighbouring seeds on the same
 *                               stream, shifted by a fixed number of draws).  Every seeded
 *                               splitmix64 stream of the project starts here (the harnesses'
 *                               xorshift64* generator keeps its own seeding: tb_lib.cpp).
 *   cutil_rng_next(r)           next 64-bit draw (one splitmix64 step: state += gamma, mix)
 *   cutil_rng_below(r, n)       next % n (n > 0): cheap, biased by < n / 2^64
 *   cutil_rng_uniform(r, n)     uniform in [0, n) (n > 0) by rejection: unbiased
 *   cutil_rng_unit(r)           uniform double in [0, 1) (cutil_unit of the next draw)
 *   cutil_rng_normal(r)         N(0, 1) (cutil_normal of two cutil_rng_unit draws)
 *   cutil_unit(x)               the top 53 bits of x as a double in [0, 1)
 *   cutil_normal(u1, u2)        Box-Muller: sqrt(-2 ln u1) cos(2 pi u2), u1 clamped to >= 1e-300
 *   A stream is a cutil_rng_t {state}; a struct initialised with a raw state ({0x1234}) is a
 *   fixed stream (no seed), which a few tools use on purpose (see their comments).
 *
 * Number parsing (no sign, no blanks, nothing after the number; *out written only on success)
 *   cutil_hex_digit(c)          value of a hex digit 0-9 a-f A-F, or -1
 *   cutil_skip_0x(s)            s after an optional 0x / 0X prefix
 *   cutil_parse_hex(s, max, out)  hex with an optional 0x prefix, at least one digit (leading
 *                               zeros allowed): 0; -1 not a hex number (empty, a non-hex
 *                               character); -2 the value exceeds max.  Digits are read left to
 *                               right and the first check that fails decides (so "1ffz" with
 *                               max 0xff is -2, "1z" is -1).
 *   cutil_parse_dec(s, lo, hi, out)  decimal uint64_t in lo..hi: 0, or -1 when s does not start
 *                               with a digit, has other characters, overflows 2^64 or is out of
 *                               range
 *   cutil_parse_num(s, out)     decimal, or hex with a 0x prefix, < 2^64: 0 or -1
 *
 * Text lines
 *   cutil_tokenize(s, tok, max, more)  cuts a '#' comment off s, then splits s in place at blanks
 *                               (space, tab, CR, LF, VT, FF) into at most max tokens; returns
 *                               their number; *more (when more is not NULL) is set to 1 when
 *                               further tokens were left out, else 0
 *   cutil_read_line(f, buf, size, line_no, why, whylen)  reads one line of f into buf (size
 *                               >= 2 bytes) without its newline: 1 a line (also an empty one,
 *                               or a last one without a newline); 0 the end of the file; -1 an
 *                               error with the reason in why: "read error", "NUL byte in
 *                               column <c>" (a NUL would silently cut the line short), "line
 *                               longer than <size - 2> characters".  A bad line is read to
 *                               its end, so the next call reads the next line and *line_no
 *                               (+1 per line read) names the right line in every message.
 *   cutil_read_tokens(f, buf, size, tok, max, line_no, pos, why, whylen)  reads lines
 *                               (cutil_read_line) until one holds a token and tokenizes it:
 *                               the token count (1..max); 0 at the end of the file; -1 on an
 *                               error with the reason in why: cutil_read_line's, or "too many
 *                               fields".  *line_no counts every line read (blank ones too);
 *                               pos (may be NULL) receives ftell() at the start of the
 *                               returned line.
 *
 * Error messages
 *   cutil_seterr(err, errlen, fmt, ...)   vsnprintf into the caller's buffer err of errlen bytes
 *                               (nothing when err is NULL or errlen is 0); cutil_vseterr takes a
 *                               va_list
 *   cutil_seterr_line(err, errlen, file, line, fmt, ...)  "<file>:<line>: <message>", or
 *                               "line <line>: <message>" when file is NULL; the message part is
 *                               cut at 199 characters, so that a message quoting a long token
 *                               stays one short line
 *
 * Command-line tools (prog is the program name that prefixes every message)
 *   cutil_die(prog, fmt, ...)   "<prog>: <message>\n" on stderr, exit status 1
 *   cutil_fail(prog, fmt, ...)  the same with exit status 2 (bad input)
 *   cutil_opt_long(prog, opt, s, lo, hi)    the value s of option opt as a decimal long in lo..hi
 *                               (digits only: no sign, blank, 0x prefix or trailing character),
 *                               or cutil_fail (exit status 2, bad input) with "<opt> needs a value" (s is NULL),
 *                               "<opt>: '<s>' is not a decimal number" (also on overflow) or
 *                               "<opt>: <v> out of range <lo>..<hi>" (%ld)
 *   cutil_opt_u64(prog, opt, s, lo, hi)     the value s as a number in lo..hi: decimal, or hex
 *                               with a 0x prefix (cutil_parse_num: no sign, blank or trailing
 *                               character; 010 is ten), or cutil_fail (exit status 2) with
 *                               "<opt> needs a value (a number in <lo>..<hi>)" (s NULL or
 *                               empty), "<opt>: '<s>' is not a number (expected <lo>..<hi>,
 *                               decimal or 0x hex)" (also on overflow) or "<opt>: <s> out of
 *                               range (expected <lo>..<hi>)"
 *   cutil_opt_double(prog, opt, s, lo, hi)  the value s as a double in lo..hi (strtod; the first
 *                               character must be a digit or '.', so no sign, blank, inf or nan;
 *                               an exponent is accepted), or cutil_fail (exit status 2) with "<opt> needs a
 *                               value", "<opt>: '<s>' is not a number" (bad syntax, trailing
 *                               characters, ERANGE or NaN) or "<opt>: <v> out of range
 *                               <lo>..<hi>" (%g)
 */
#ifndef CUTIL_H
#define CUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CUTIL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CUTIL_NORETURN __attribute__((noreturn))
#else
#define CUTIL_PRINTF(f, a)
#define CUTIL_NORETURN
#endif

/* ---- random numbers ---- */
#define CUTIL_GAMMA 0x9e3779b97f4a7c15ull /* splitmix64 increment (2^64 / golden ratio) */

typedef struct {
  uint64_t s; /* splitmix64 state */
} cutil_rng_t;

uint64_t cutil_mix64(uint64_t x);
cutil_rng_t cutil_rng_seed(uint64_t seed);
uint64_t cutil_rng_next(cutil_rng_t *r);
uint64_t cutil_rng_below(cutil_rng_t *r, uint64_t n);
uint64_t cutil_rng_uniform(cutil_rng_t *r, uint64_t n);
double cutil_rng_unit(cutil_rng_t *r);
double cutil_rng_normal(cutil_rng_t *r);
double cutil_unit(uint64_t x);
double cutil_normal(double u1, double u2);

/* ---- number parsing ---- */
int cutil_hex_digit(int c);
const char *cutil_skip_0x(const char *s);
int cutil_parse_hex(const char *s, uint64_t max, uint64_t *out);
int cutil_parse_dec(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
int cutil_parse_num(const char *s, uint64_t *out);

/* ---- text lines ---- */
int cutil_tokenize(char *s, char **tok, int max, int *more);
int cutil_read_line(FILE *f, char *buf, size_t size, long *line_no, char *why, size_t whylen);
int cutil_read_tokens(FILE *f, char *buf, size_t size, char **tok, int max, long *line_no,
                      long *pos, char *why, size_t whylen);

/* ---- error messages ---- */
void cutil_seterr(char *err, size_t errlen, const char *fmt, ...) CUTIL_PRINTF(3, 4);
void cutil_vseterr(char *err, size_t errlen, const char *fmt, va_list ap) CUTIL_PRINTF(3, 0);
void cutil_seterr_line(char *err, size_t errlen, const char *file, long line, const char *fmt, ...)
    CUTIL_PRINTF(5, 6);

/* ---- fp32 bit patterns ---- */
/* The float of a binary32 bit pattern and back (memcpy: no aliasing, no conversion). */
static inline float cutil_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline uint32_t cutil_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* ---- command-line tools ---- */
CUTIL_NORETURN void cutil_die(const char *prog, const char *fmt, ...) CUTIL_PRINTF(2, 3);
/* cutil_die with exit status 2: bad input (a tool's arguments or files) */
CUTIL_NORETURN void cutil_fail(const char *prog, const char *fmt, ...) CUTIL_PRINTF(2, 3);
long cutil_opt_long(const char *prog, const char *opt, const char *s, long lo, long hi);
uint64_t cutil_opt_u64(const char *prog, const char *opt, const char *s, uint64_t lo, uint64_t hi);
double cutil_opt_double(const char *prog, const char *opt, const char *s, double lo, double hi);
/* Output file of a tool: "-" is stdout; otherwise opened for writing, or cutil_die "cannot write
 * <path>". cutil_close_out closes it (flushes stdout) and dies with "write error on <path>" (or
 * "on stdout") when werr is set or the close/flush fails. */
FILE *cutil_open_out(const char *prog, const char *path);
void cutil_close_out(const char *prog, FILE *f, const char *path, int werr);

#ifdef __cplusplus
}
#endif

#endif /* CUTIL_H */
