/* fz.h -- the fuzz driver shared by every target in tests/fuzz (docs/fuzz.md).
 *
 * A target is a libFuzzer binary (clang -fsanitize=fuzzer,address,undefined) built by
 * scripts/fuzz.py from tests/fuzz/targets.toml.  fz_common.c holds libFuzzer's entry points:
 * before every execution it restores the project's globals (fz_sections.h) and then calls the
 * target's fz_one().  Two kinds of targets:
 *   reader  a file tests/fuzz/<name>.c defines fz_one(): it writes the input to a file
 *           (fz_input_file) and calls a reader of the project on it, with the reader's own
 *           oracles (a round trip through its writer, invariants of what it returned);
 *   tool    tests/fuzz/fz_tool.c defines fz_one(): it runs a host tool's main (compiled with
 *           main renamed, linked with --wrap=exit,malloc,...) in-process on an argument vector
 *           and files decoded from the input, and checks the tool's exit contract.
 * fz_one returns 0, or -1 for an input the target refuses to run (libFuzzer then keeps it out
 * of the corpus).  A finding is a crash: a sanitizer report, an abort from an oracle
 * (FZ_CHECK), a timeout or an out-of-memory, each reported by libFuzzer. */
#ifndef FZ_H
#define FZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set by FZ_VERBOSE=1 in the environment: a target then prints what it does (its argv, the
 * tool's exit status and messages, a reader's error) -- for reproducing a finding. */
extern int fz_verbose;

/* The target's one execution (see above). */
int fz_one(const uint8_t *data, size_t size);
/* Optional hook of a target, called once from LLVMFuzzerInitialize (weak: may be absent). */
void fz_init(int *argc, char ***argv) __attribute__((weak));

/* Restores the project's globals (done before every fz_one; a target that runs the project's
 * code twice per input calls it between the runs). */
void fz_state_restore(void);

/* The target's private scratch directory (made at start-up, removed at exit): absolute path. */
const char *fz_dir(void);
/* Writes data to fz_dir()/name (name without '/'): the path (a static buffer, valid until the
 * next call), or NULL when the file cannot be written (the target then skips the input). */
const char *fz_write_file(const char *name, const void *data, size_t size);
/* fz_write_file("in", data, size). */
const char *fz_input_file(const uint8_t *data, size_t size);
/* Removes every file of fz_dir(). */
void fz_clean_dir(void);
/* fz_dir()/name into buf (size bytes); returns buf. */
char *fz_path(const char *name, char *buf, size_t size);
/* 1 when the files fz_dir()/a and fz_dir()/b hold the same bytes (both readable). */
int fz_same_files(const char *a, const char *b);

/* An oracle: when cond is false, prints "fuzz check failed: <what>" and aborts (a finding). */
#define FZ_CHECK(cond, ...) ((cond) ? (void)0 : fz_check_failed(__FILE__, __LINE__, __VA_ARGS__))
void fz_check_failed(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
/* Prints (fprintf to the real stderr) when fz_verbose is set. */
void fz_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- tool targets: the per-target configuration that scripts/fuzz.py generates ---- */
typedef struct {
  const char *opt; /* an option, e.g. "--nv" */
  double lo, hi;   /* an input giving it a number in [lo, hi] is not run (a long job) */
} fz_range_t;
/* argv[0], and the prefix of the tool's messages */
extern const char fz_tool_name[];
/* 1: argv[1..] is fz_tool_args and the input is the file "in"; 0: the input encodes argv and
 * files (fz_tool.c) */
extern const int fz_tool_fixed;
extern const char *const fz_tool_args[]; /* the fixed argv[1..], NULL-ended */
extern const int fz_tool_stdin;          /* fixed argv: 1 = the input is standard input too */
extern const fz_range_t fz_tool_long[];  /* ended by {NULL, 0, 0} */
/* arguments that make an input not run: "ARG", or "OPT VALUE" (that option with that value);
 * NULL-ended */
extern const char *const fz_tool_skip[];
/* words that make a status-1 message a finding (an internal error, a failed self-check);
 * NULL-ended */
extern const char *const fz_tool_bug1[];
/* OPT, VALUE pairs appended to an argv without OPT (a smaller job than the tool's default);
 * NULL-ended */
extern const char *const fz_tool_defaults[];
int fz_tool_main(int argc, char **argv); /* the tool's main, renamed */

#ifdef __cplusplus
}
#endif

#endif
