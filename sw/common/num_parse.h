/* num_parse.h -- number parsing shared by the host tools and their file readers under sw/
 * (header only, like cli_util.h: every .c file under sw/common is built as a tool of its own).
 *
 *   parse_u64_dec(s, lo, hi, out)   decimal uint64_t in lo..hi into *out: 0 on success, -1
 *                                   (nothing printed, *out unchanged) when s does not start
 *                                   with a digit (no sign, blank or 0x prefix), has trailing
 *                                   characters, overflows or is out of range.
 */
#ifndef SW_COMMON_NUM_PARSE_H
#define SW_COMMON_NUM_PARSE_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

static inline int parse_u64_dec(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (*s < '0' || *s > '9') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || errno == ERANGE || v < lo || v > hi) return -1;
  *out = (uint64_t)v;
  return 0;
}

#endif /* SW_COMMON_NUM_PARSE_H */
