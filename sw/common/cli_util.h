/* cli_util.h -- command-line helpers shared by the host tools under sw/ (header only: every
 * .c file under sw/common is built as a tool of its own, so this code cannot live in a .c file).
 *
 * Use: define CLI_PROG, the program name as a string literal, before including this header:
 *
 *   #define CLI_PROG "nnoc_map"
 *   #include "common/cli_util.h"
 *
 * CLI_PROG prefixes every message cli_die() prints.  All functions are static inline, so a tool
 * that includes the header but uses only some of them builds warning-free.
 *
 * What is here, and its exact behaviour (regression tests grep for these messages):
 *   cli_die(fmt, ...)                   "<prog>: <message>\n" on stderr, exit status 1
 *   cli_parse_long(opt, s, lo, hi)      decimal long in lo..hi, or cli_die()
 *   cli_parse_double(opt, s, lo, hi)    decimal double in lo..hi, or cli_die()
 *   cli_parse_u64(s, lo, hi, out)       decimal uint64_t in lo..hi; returns 0 or -1, no message
 * Tools whose parsers behave differently (other bases, a 0x prefix, other exit statuses or
 * messages) keep their own variants.
 */
#ifndef SW_COMMON_CLI_UTIL_H
#define SW_COMMON_CLI_UTIL_H

#ifndef CLI_PROG
#error "define CLI_PROG (the program name, a string literal) before including common/cli_util.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/num_parse.h"

/* Fatal error: prints CLI_PROG, ": ", the printf-style message and a newline on stderr, then
 * exits with status 1.  Example: with CLI_PROG "nmmu_trace", cli_die("unknown net '%s'", "x")
 * prints "nmmu_trace: unknown net 'x'".  Does not return. */
static inline void cli_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static inline void cli_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", CLI_PROG);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

/* The value s of option opt (e.g. "--k") as a decimal long in lo..hi.  Accepts only digits
 * (no sign, no leading blank, no 0x prefix, no trailing characters).  On error cli_die()s
 * (exit status 1) with one of:
 *   "<prog>: <opt> needs a value"                       s is NULL (option at the end of argv)
 *   "<prog>: <opt>: '<s>' is not a decimal number"      not all digits, or overflows a long
 *   "<prog>: <opt>: <v> out of range <lo>..<hi>"        (printed with %ld) */
static inline long cli_parse_long(const char *opt, const char *s, long lo, long hi) {
  if (!s) cli_die("%s needs a value", opt);
  if (*s < '0' || *s > '9') cli_die("%s: '%s' is not a decimal number", opt, s);
  errno = 0;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || errno == ERANGE) cli_die("%s: '%s' is not a decimal number", opt, s);
  if (v < lo || v > hi) cli_die("%s: %ld out of range %ld..%ld", opt, v, lo, hi);
  return v;
}

/* The value s of option opt as a double in lo..hi, parsed by strtod: the first character must
 * be a digit or '.' (so no sign, blank, "inf" or "nan"); an exponent is accepted.  On error
 * cli_die()s (exit status 1) with one of:
 *   "<prog>: <opt> needs a value"                       s is NULL
 *   "<prog>: <opt>: '<s>' is not a number"              bad syntax, trailing characters,
 *                                                        overflow/underflow (ERANGE) or NaN
 *   "<prog>: <opt>: <v> out of range <lo>..<hi>"        (printed with %g) */
static inline double cli_parse_double(const char *opt, const char *s, double lo, double hi) {
  if (!s) cli_die("%s needs a value", opt);
  if (!((*s >= '0' && *s <= '9') || *s == '.')) cli_die("%s: '%s' is not a number", opt, s);
  errno = 0;
  char *end;
  double v = strtod(s, &end);
  if (*end || errno == ERANGE || v != v) cli_die("%s: '%s' is not a number", opt, s);
  if (v < lo || v > hi) cli_die("%s: %g out of range %g..%g", opt, v, lo, hi);
  return v;
}

/* s as a decimal uint64_t in lo..hi into *out: 0 on success, -1 (nothing printed, *out left
 * unchanged) when s does not start with a digit, has trailing characters, overflows or is out
 * of range.  For tools that print their own message, e.g. "bad value '<s>' for <opt>". */
static inline int cli_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  return parse_u64_dec(s, lo, hi, out);
}

#endif /* SW_COMMON_CLI_UTIL_H */
