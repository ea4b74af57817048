/* test_check.h -- the check counter shared by the C unit tests (tests/test_*.c).
 *
 * CHECK(cond, fmt, ...) counts a pass, or counts a failure and prints "FAIL file:line: <message>".
 * A test's main() ends with CHECK_SUMMARY(), which prints the regression's result line
 * "N passed, N failed" and returns the process exit status (0 only when nothing failed). */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>

static int npass, nfail;

#define CHECK(cond, ...)                          \
  do {                                            \
    if (cond) {                                   \
      npass++;                                    \
    } else {                                      \
      nfail++;                                    \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
    }                                             \
  } while (0)

#define CHECK_SUMMARY() (printf("%d passed, %d failed\n", npass, nfail), nfail ? 1 : 0)

#endif
