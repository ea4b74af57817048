/* fz_tool.c -- fz_one() of a command-line front-end target: runs a host tool's main in-process.
 *
 * The input (unless the target fixes the arguments, fz_tool_args) encodes an argument vector
 * and files:
 *     ARG '\n' ARG '\n' ... ARG  { '\0' "FILE " NAME '\n' CONTENTS }
 * The arguments run up to the first "\0FILE " (a trailing '\n' ends the last one; an empty line
 * is an empty argument); each file part names a file of the scratch directory (1..64 characters,
 * no '/') and holds its bytes up to the next "\0FILE " or the end.  A file named "stdin" is also
 * the tool's standard input (else /dev/null).  With fixed arguments the whole input is the file
 * "in" (and standard input when fz_tool_stdin is set).  The tool runs in the scratch directory
 * (emptied before every run), so the names are relative paths there; an input with a '/' in an
 * argument or a name is not run, so a tool can neither read nor write outside the directory.
 * Standard output is hashed, standard error kept in a buffer.
 *
 * In-process: the tool's exit() (cutil_fail: status 2, cutil_die: 1) returns to the driver with
 * longjmp (--wrap=exit); what the run left allocated (--wrap=malloc, calloc, realloc, free) and
 * open (--wrap=fopen, fclose) is freed and closed after it; its globals are restored before the
 * next run (fz_common.c).  10^3 - 10^4 inputs a second per target, where a process per input
 * would start about 70 a second (ASan's start-up), and libFuzzer sees the coverage of every run.
 *
 * The exit contract (docs/reliability.md, section 2), checked after every run -- a violation
 * aborts (a finding):
 *   - the status is 0, 1 (an output that cannot be written, no memory) or 2 (bad input);
 *   - with status 1 or 2, standard error holds exactly one line, "<tool>: <message>";
 *   - a status-1 message holds none of the target's bug words (fz_tool_bug1: "internal" for
 *     every tool, and "check failed" where the tool checks its own results on data it made
 *     itself, gnn_layer --run; gnn_run --check failing on a fuzzed workload is its job).
 * And determinism: every input runs twice, the run's new allocations (malloc, realloc's growth;
 * of a block over 1 MiB its first MiB and last 64 KiB) filled with 0x00 the first time and 0xff
 * the second, the project's globals restored between.
 * The exit status, standard output and error and the files left in the directory must be the
 * same: a difference means the tool read heap memory it never wrote, which ASan does not see
 * (every tool's output is a function of its arguments and files).
 *
 * Work limits: a tool asked for a valid but very large job (a graph of 2^31 vertices, 10^9 test
 * vectors) would spend the run's time budget legitimately.  A target lists the values of such
 * options as ranges (fz_tool_long): an input that gives an option a number in one of its
 * ranges, which end at the tool's own limit, is not run; beyond the limit the tool must refuse
 * the value (exit 2), so the range checks stay fuzzed.  fz_tool_skip lists arguments (or
 * option-value pairs) that always mean a long job (e.g. a preset of the paper's full size),
 * fz_tool_defaults options appended when the input does not give them (a tool whose default
 * job is long). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sanitizer/allocator_interface.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fz.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
FILE *__real_fopen(const char *path, const char *mode);
int __real_fclose(FILE *f);
void __real_exit(int status) __attribute__((noreturn));

/* ---------------------------------------------------------------- what a run leaves behind */

/* An open-addressing set of pointers (linear probing, tombstones). */
typedef struct {
  void **k;
  size_t cap, n, used; /* used: live + tombstones */
} pset_t;
#define TOMB ((void *)1)

static size_t phash(const void *p, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

static int pset_rehash(pset_t *s, size_t cap) {
  void **k = __real_calloc(cap, sizeof *k);
  if (!k) return -1;
  for (size_t i = 0; i < s->cap; i++) {
    void *p = s->k[i];
    if (!p || p == TOMB) continue;
    size_t j = phash(p, cap);
    while (k[j]) j = (j + 1) & (cap - 1);
    k[j] = p;
  }
  __real_free(s->k);
  s->k = k, s->cap = cap, s->used = s->n;
  return 0;
}

static void pset_add(pset_t *s, void *p) {
  if ((s->used + 1) * 2 > s->cap) {
    size_t cap = 1024;
    while (cap < (s->n + 1) * 4) cap *= 2;
    if (pset_rehash(s, cap) != 0) return; /* untracked: at worst a leak */
  }
  size_t j = phash(p, s->cap), tomb = SIZE_MAX;
  for (; s->k[j]; j = (j + 1) & (s->cap - 1)) {
    if (s->k[j] == p) return;
    if (s->k[j] == TOMB && tomb == SIZE_MAX) tomb = j;
  }
  if (tomb != SIZE_MAX) {
    s->k[tomb] = p;
  } else {
    s->k[j] = p;
    s->used++;
  }
  s->n++;
}

static void pset_del(pset_t *s, void *p) {
  if (!s->cap) return;
  for (size_t j = phash(p, s->cap); s->k[j]; j = (j + 1) & (s->cap - 1))
    if (s->k[j] == p) {
      s->k[j] = TOMB;
      s->n--;
      return;
    }
}

/* Calls fn on every member and empties the set (a large table is given back). */
static void pset_drain(pset_t *s, void (*fn)(void *)) {
  for (size_t i = 0; i < s->cap; i++)
    if (s->k[i] && s->k[i] != TOMB) fn(s->k[i]);
  if (s->cap > 65536) {
    __real_free(s->k);
    s->k = NULL, s->cap = 0;
  } else if (s->cap) {
    memset(s->k, 0, s->cap * sizeof *s->k);
  }
  s->n = s->used = 0;
}

static int g_active;         /* 1 while the tool runs */
static unsigned char g_fill; /* what the run's new allocations hold (not calloc's) */
static FILE *g_stdout_real;  /* the real standard output (FZ_VERBOSE shows the tool's there) */
static jmp_buf g_jmp;
static int g_status;
static pset_t g_mem, g_files;

/* Fills a new allocation's bytes [from, to) with the run's pattern: all of them up to 1 MiB,
 * beyond that the first MiB and the last 64 KiB (a tool that allocates a large buffer and uses
 * its start, e.g. mna_as's 8 MiB output, stays fast). */
static void fill(void *p, size_t from, size_t to) {
  if (to - from <= (1u << 20)) {
    memset((char *)p + from, g_fill, to - from);
  } else {
    memset((char *)p + from, g_fill, 1u << 20);
    memset((char *)p + to - (1u << 16), g_fill, 1u << 16);
  }
}

void *__wrap_malloc(size_t n) {
  void *p = __real_malloc(n);
  if (p && g_active) {
    pset_add(&g_mem, p);
    fill(p, 0, n);
  }
  return p;
}

void *__wrap_calloc(size_t n, size_t m) {
  void *p = __real_calloc(n, m);
  if (p && g_active) pset_add(&g_mem, p);
  return p;
}

void *__wrap_realloc(void *p, size_t n) {
  const size_t old = p && g_active ? __sanitizer_get_allocated_size(p) : 0;
  void *q = __real_realloc(p, n);
  if (g_active) {
    if (q || n == 0) {
      if (p) pset_del(&g_mem, p);
      if (q) pset_add(&g_mem, q);
    }
    if (q && n > old) fill(q, old, n);
  }
  return q;
}

void __wrap_free(void *p) {
  if (p && g_active) pset_del(&g_mem, p);
  __real_free(p);
}

FILE *__wrap_fopen(const char *path, const char *mode) {
  FILE *f = __real_fopen(path, mode);
  if (f && g_active) pset_add(&g_files, f);
  return f;
}

int __wrap_fclose(FILE *f) {
  if (f && g_active) pset_del(&g_files, f);
  return __real_fclose(f);
}

void __wrap_exit(int status) {
  if (g_active) {
    g_status = status;
    longjmp(g_jmp, 1);
  }
  __real_exit(status);
}

static void free_mem(void *p) { __real_free(p); }
static void close_file(void *f) { __real_fclose(f); }

/* ---------------------------------------------------------------- the input */

#define MAX_ARGS 64
#define MAX_FILES 8
#define NAME_MAX_LEN 64
static const char kSep[] = "\0FILE ";
#define SEP_LEN 6

static char *g_argv[MAX_ARGS + 2];
static int g_argc;
static char g_argbuf[1 << 16];
static struct {
  char name[NAME_MAX_LEN + 1];
  const uint8_t *data;
  size_t size;
} g_file[MAX_FILES];
static int g_nfiles;
static int g_stdin_file; /* index of the file that is standard input, or -1 */

static const uint8_t *find_sep(const uint8_t *p, const uint8_t *end) {
  while (p + SEP_LEN <= end) {
    const uint8_t *z = memchr(p, 0, (size_t)(end - p));
    if (!z || z + SEP_LEN > end) return NULL;
    if (!memcmp(z, kSep, SEP_LEN)) return z;
    p = z + 1;
  }
  return NULL;
}

static int good_name(const char *s) {
  return s[0] && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* Fills g_argv / g_file from the input; -1: not a runnable input. */
static int decode(const uint8_t *d, size_t n) {
  const uint8_t *end = d + n;
  size_t used = 0;
  g_argc = 0;
  g_nfiles = 0;
  g_stdin_file = -1;
  g_argv[g_argc++] = (char *)fz_tool_name;
  if (fz_tool_fixed) {
    for (int i = 0; fz_tool_args[i]; i++) {
      if (g_argc > MAX_ARGS) return -1;
      g_argv[g_argc++] = (char *)fz_tool_args[i];
    }
    strcpy(g_file[0].name, "in");
    g_file[0].data = d, g_file[0].size = n;
    g_nfiles = 1;
    if (fz_tool_stdin) g_stdin_file = 0;
    g_argv[g_argc] = NULL;
    return 0;
  }
  const uint8_t *sep = find_sep(d, end);
  const uint8_t *aend = sep ? sep : end;
  if (memchr(d, 0, (size_t)(aend - d))) return -1; /* a NUL inside the arguments */
  if (aend > d && aend[-1] == '\n') aend--;          /* a trailing newline ends the last one */
  if (aend > d || (aend == d && sep == NULL && n > 0)) {
    const uint8_t *p = d;
    for (;;) {
      const uint8_t *nl = memchr(p, '\n', (size_t)(aend - p));
      const uint8_t *e = nl ? nl : aend;
      size_t len = (size_t)(e - p);
      if (g_argc > MAX_ARGS || used + len + 1 > sizeof g_argbuf) return -1;
      char *a = g_argbuf + used;
      memcpy(a, p, len);
      a[len] = '\0';
      used += len + 1;
      if (strchr(a, '/')) return -1;
      g_argv[g_argc++] = a;
      if (!nl) break;
      p = nl + 1;
    }
  }
  for (int k = 0; fz_tool_defaults[k]; k += 2) {
    int given = 0;
    for (int i = 1; i < g_argc && !given; i++) given = !strcmp(g_argv[i], fz_tool_defaults[k]);
    if (given) continue;
    if (g_argc + 2 > MAX_ARGS + 1) return -1;
    g_argv[g_argc++] = (char *)fz_tool_defaults[k];
    g_argv[g_argc++] = (char *)fz_tool_defaults[k + 1];
  }
  g_argv[g_argc] = NULL;
  while (sep) {
    const uint8_t *p = sep + SEP_LEN;
    const uint8_t *next = find_sep(p, end);
    const uint8_t *fend = next ? next : end;
    const uint8_t *nl = memchr(p, '\n', (size_t)(fend - p));
    if (!nl || nl == p || nl - p > NAME_MAX_LEN || g_nfiles == MAX_FILES) return -1;
    char *name = g_file[g_nfiles].name;
    memcpy(name, p, (size_t)(nl - p));
    name[nl - p] = '\0';
    if (!good_name(name) || strlen(name) != (size_t)(nl - p)) return -1;
    for (int i = 0; i < g_nfiles; i++)
      if (!strcmp(g_file[i].name, name)) return -1;
    g_file[g_nfiles].data = nl + 1;
    g_file[g_nfiles].size = (size_t)(fend - (nl + 1));
    if (!strcmp(name, "stdin")) g_stdin_file = g_nfiles;
    g_nfiles++;
    sep = next;
  }
  return 0;
}

/* Every number in s (decimal with an optional fraction, or 0x hex): 1 when one is in
 * [lo, hi]. */
static int in_range(const char *s, double lo, double hi) {
  while (*s) {
    if (!isdigit((unsigned char)*s)) {
      s++;
      continue;
    }
    char *e;
    double v;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit((unsigned char)s[2])) {
      v = (double)strtoull(s + 2, &e, 16);
      while (isxdigit((unsigned char)*e)) e++;
    } else {
      v = strtod(s, &e);
      if (e == s) e = (char *)s + 1;
    }
    if (v >= lo && v <= hi) return 1;
    s = e;
  }
  return 0;
}

/* 1 when a (argument, next argument) matches the skip entry s: "ARG" or "OPT VALUE". */
static int skipped(const char *s, const char *a, const char *next) {
  const char *sp = strchr(s, ' ');
  if (!sp) return !strcmp(a, s);
  return next && strlen(a) == (size_t)(sp - s) && !strncmp(a, s, (size_t)(sp - s)) &&
         !strcmp(next, sp + 1);
}

static int within_limits(void) {
  for (int i = 1; i < g_argc; i++) {
    for (int k = 0; fz_tool_skip[k]; k++)
      if (skipped(fz_tool_skip[k], g_argv[i], g_argv[i + 1])) return 0;
    if (i + 1 < g_argc)
      for (int k = 0; fz_tool_long[k].opt; k++)
        if (!strcmp(g_argv[i], fz_tool_long[k].opt) &&
            in_range(g_argv[i + 1], fz_tool_long[k].lo, fz_tool_long[k].hi))
          return 0;
  }
  return 1;
}

/* ---------------------------------------------------------------- a run */

static int g_home = -1; /* the directory the fuzzer started in */
static char g_errbuf[1 << 16];

static void show_command(void) {
  if (!fz_verbose) return;
  fz_log("fuzz: run in %s:", fz_dir());
  for (int i = 0; i < g_argc; i++) {
    const char *a = g_argv[i];
    int plain = *a != '\0';
    for (const char *c = a; *c; c++)
      if (!isalnum((unsigned char)*c) && !strchr("-_.,:=+@%", *c)) plain = 0;
    if (plain) {
      fz_log(" %s", a);
    } else {
      fz_log(" '");
      for (const char *c = a; *c; c++) {
        if (*c == '\'') fz_log("'\\''");
        else if (isprint((unsigned char)*c)) fz_log("%c", *c);
        else fz_log("'$'\\x%02x''", (unsigned char)*c);
      }
      fz_log("'");
    }
  }
  fz_log("\n");
  for (int i = 0; i < g_nfiles; i++)
    fz_log("fuzz:   file %s: %zu bytes%s\n", g_file[i].name, g_file[i].size,
           i == g_stdin_file ? " (standard input)" : "");
}

void fz_init(int *argc, char ***argv) {
  /* FZ_TOOL=1: the binary is the (sanitized) tool itself, for seeds and reproductions */
  const char *t = getenv("FZ_TOOL");
  if (t && *t && strcmp(t, "0")) {
    (*argv)[0] = (char *)fz_tool_name;
    exit(fz_tool_main(*argc, *argv));
  }
  g_stdout_real = stdout;
  g_home = open(".", O_RDONLY | O_DIRECTORY);
  if (g_home < 0) {
    perror("fuzz: open .");
    exit(1);
  }
}

/* What one run of the tool gave: compared between the two runs of an input. */
typedef struct {
  int status;
  uint64_t out_hash;   /* standard output */
  uint64_t files_hash; /* every file of the scratch directory afterwards (order-free) */
  size_t err_len;
} result_t;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}

/* Standard output of a run: hashed (FNV-1a), and shown with FZ_VERBOSE on the first run. */
static uint64_t g_out_hash;
static int g_out_echo;
static ssize_t out_write(void *cookie, const char *buf, size_t n) {
  (void)cookie;
  g_out_hash = hash_bytes(g_out_hash, buf, n);
  if (g_out_echo) fwrite(buf, 1, n, g_stdout_real);
  return (ssize_t)n;
}

static uint64_t hash_files(void) {
  uint64_t sum = 0;
  DIR *d = opendir(".");
  if (!d) return 0;
  struct dirent *e;
  static char buf[1 << 16];
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    uint64_t h = hash_bytes(0xcbf29ce484222325ull, e->d_name, strlen(e->d_name) + 1);
    int fd = open(e->d_name, O_RDONLY);
    if (fd >= 0) {
      ssize_t k;
      while ((k = read(fd, buf, sizeof buf)) > 0) h = hash_bytes(h, buf, (size_t)k);
      close(fd);
    }
    sum += h;
  }
  closedir(d);
  return sum;
}

/* One run of the tool on the decoded input, new allocations filled with `fill'. */
static void run_once(unsigned char fill, int echo, result_t *r) {
  fz_clean_dir();
  for (int i = 0; i < g_nfiles; i++)
    if (!fz_write_file(g_file[i].name, g_file[i].data, g_file[i].size)) abort();
  if (chdir(fz_dir()) != 0) abort();
  static FILE *in, *out, *cap, *si, *so, *se;
  static const cookie_io_functions_t out_io = {NULL, out_write, NULL, NULL};
  g_out_hash = 0xcbf29ce484222325ull;
  g_out_echo = echo;
  in = __real_fopen(g_stdin_file >= 0 ? g_file[g_stdin_file].name : "/dev/null", "r");
  out = fopencookie(NULL, "w", out_io);
  cap = fmemopen(g_errbuf, sizeof g_errbuf, "w");
  if (!in || !out || !cap) {
    fprintf(stderr, "fuzz: cannot set up the standard streams\n");
    abort();
  }
  si = stdin, so = stdout, se = stderr;
  stdin = in, stdout = out, stderr = cap;
  g_status = 0;
  g_fill = fill;
  g_active = 1;
  if (!setjmp(g_jmp)) g_status = fz_tool_main(g_argc, g_argv);
  g_active = 0;
  fflush(stdout);
  stdin = si, stdout = so, stderr = se;
  __real_fclose(in);
  __real_fclose(out);
  fflush(cap);
  long len = ftell(cap);
  if (len < 0) len = 0;
  if ((size_t)len >= sizeof g_errbuf) len = sizeof g_errbuf - 1;
  __real_fclose(cap);
  g_errbuf[len] = '\0';
  pset_drain(&g_files, close_file);
  pset_drain(&g_mem, free_mem);
  r->status = g_status;
  r->out_hash = g_out_hash;
  r->files_hash = hash_files();
  r->err_len = (size_t)len;
  if (fchdir(g_home) != 0) abort();
}

int fz_one(const uint8_t *data, size_t size) {
  if (decode(data, size) != 0 || !within_limits()) return -1;
  show_command();
  /* twice: new allocations zero-filled, then 0xff-filled; the project's state restored between */
  static result_t a, b;
  static char err_a[sizeof g_errbuf];
  run_once(0x00, fz_verbose, &a);
  memcpy(err_a, g_errbuf, a.err_len + 1);
  fz_state_restore();
  run_once(0xff, 0, &b);
  if (fz_verbose) fz_log("%sfuzz: exit status %d\n", g_errbuf, g_status);
  FZ_CHECK(a.status == b.status && a.out_hash == b.out_hash && a.files_hash == b.files_hash &&
               !strcmp(err_a, g_errbuf),
           "%s gave different results when its new allocations held 0x00 and 0xff (status %d "
           "and %d; standard output %s; files %s; standard error %s): it reads memory it "
           "never wrote",
           fz_tool_name, a.status, b.status, a.out_hash == b.out_hash ? "same" : "differs",
           a.files_hash == b.files_hash ? "same" : "differ",
           !strcmp(err_a, g_errbuf) ? "same" : "differs");
  const long len = (long)b.err_len;

  /* the exit contract */
  FZ_CHECK(g_status >= 0 && g_status <= 2, "%s exited with status %d (expected 0, 1 or 2)",
           fz_tool_name, g_status);
  if (g_status != 0) {
    int lines = 0;
    for (const char *c = g_errbuf; *c; c++) lines += *c == '\n';
    size_t pl = strlen(fz_tool_name);
    FZ_CHECK(lines == 1 && len > 0 && g_errbuf[len - 1] == '\n' &&
                 !strncmp(g_errbuf, fz_tool_name, pl) && !strncmp(g_errbuf + pl, ": ", 2),
             "%s exited with status %d and %d lines on stderr (expected one line '%s: ...'):\n%s",
             fz_tool_name, g_status, lines, fz_tool_name, g_errbuf);
    for (int k = 0; g_status == 1 && fz_tool_bug1[k]; k++)
      FZ_CHECK(!strstr(g_errbuf, fz_tool_bug1[k]), "%s exited with status 1: %s", fz_tool_name,
               g_errbuf);
  }
  return 0;
}
