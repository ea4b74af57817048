/* fz_common.c -- libFuzzer's entry points for every target of tests/fuzz (see fz.h): a private
 * scratch directory, the reset of the project's globals before each execution, the helpers the
 * targets share. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fz.h"

int fz_verbose;

/* ---------------------------------------------------------------- the project's globals */

/* fz_sections.h puts every writable global and static of the project's sources into these
 * sections; the linker defines their bounds (weak: a section may be empty). */
extern char __start_fz_data[] __attribute__((weak));
extern char __stop_fz_data[] __attribute__((weak));
extern char __start_fz_bss[] __attribute__((weak));
extern char __stop_fz_bss[] __attribute__((weak));
static uint64_t *g_data_copy;

/* The sections hold ASan's redzones between the globals: they are copied word by word without
 * instrumentation (libc's memcpy is intercepted and would report the redzones).  The linker
 * aligns both sections to at least 8 bytes (the globals' alignment, 32 under ASan). */
__attribute__((no_sanitize("address", "undefined"))) static void state_copy(
    volatile uint64_t *dst, const volatile uint64_t *src, size_t words) {
  for (size_t i = 0; i < words; i++) dst[i] = src[i];
}
__attribute__((no_sanitize("address", "undefined"))) static void state_zero(volatile uint64_t *dst,
                                                                           size_t words) {
  for (size_t i = 0; i < words; i++) dst[i] = 0;
}

static size_t data_words(void) {
  if (!__start_fz_data || !__stop_fz_data) return 0;
  return (size_t)(__stop_fz_data - __start_fz_data) / 8;
}

static void state_save(void) {
  size_t n = data_words();
  if (!n) return;
  g_data_copy = malloc(n * 8);
  if (!g_data_copy) {
    fprintf(stderr, "fuzz: out of memory\n");
    exit(1);
  }
  state_copy(g_data_copy, (const uint64_t *)(void *)__start_fz_data, n);
}

void fz_state_restore(void) {
  if (g_data_copy) state_copy((uint64_t *)(void *)__start_fz_data, g_data_copy, data_words());
  if (__start_fz_bss && __stop_fz_bss)
    state_zero((uint64_t *)(void *)__start_fz_bss, (size_t)(__stop_fz_bss - __start_fz_bss) / 8);
}

/* ---------------------------------------------------------------- scratch directory */

static char g_dir[4096];
static char g_path[4096 + 256];
static pid_t g_dir_owner;

const char *fz_dir(void) { return g_dir; }

void fz_clean_dir(void) {
  DIR *d = opendir(g_dir);
  if (!d) return;
  int fd = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    unlinkat(fd, e->d_name, 0);
  }
  closedir(d);
}

static void remove_dir(void) {
  if (!g_dir[0] || getpid() != g_dir_owner) return;
  fz_clean_dir();
  rmdir(g_dir);
}

const char *fz_write_file(const char *name, const void *data, size_t size) {
  snprintf(g_path, sizeof g_path, "%s/%s", g_dir, name);
  int fd = open(g_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return NULL;
  const char *p = data;
  size_t left = size;
  while (left) {
    ssize_t k = write(fd, p, left);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      close(fd);
      return NULL;
    }
    p += k, left -= (size_t)k;
  }
  close(fd);
  return g_path;
}

const char *fz_input_file(const uint8_t *data, size_t size) {
  return fz_write_file("in", data, size);
}

char *fz_path(const char *name, char *buf, size_t size) {
  snprintf(buf, size, "%s/%s", g_dir, name);
  return buf;
}

int fz_same_files(const char *a, const char *b) {
  char pa[4096 + 256], pb[4096 + 256];
  FILE *fa = fopen(fz_path(a, pa, sizeof pa), "rb");
  FILE *fb = fopen(fz_path(b, pb, sizeof pb), "rb");
  int same = fa && fb;
  while (same) {
    int ca = getc(fa), cb = getc(fb);
    if (ca != cb) same = 0;
    if (ca == EOF) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* ---------------------------------------------------------------- messages */

static FILE *g_err; /* the real stderr (a tool target swaps stderr during a run) */

void fz_check_failed(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(g_err, "fuzz check failed (%s:%d): ", file, line);
  vfprintf(g_err, fmt, ap);
  fputc('\n', g_err);
  va_end(ap);
  fflush(g_err);
  abort();
}

void fz_log(const char *fmt, ...) {
  if (!fz_verbose) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(g_err, fmt, ap);
  va_end(ap);
  fflush(g_err);
}

/* ---------------------------------------------------------------- libFuzzer entry points */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  g_err = stderr;
  const char *v = getenv("FZ_VERBOSE");
  fz_verbose = v && *v && strcmp(v, "0");
  if (fz_init) fz_init(argc, argv);
  /* $FZ_TMPDIR (scripts/fuzz.py: build/fuzz/<target>/tmp), else $TMPDIR, else /tmp */
  const char *base = getenv("FZ_TMPDIR");
  if (!base || !*base) base = getenv("TMPDIR");
  if (!base || !*base) base = "/tmp";
  snprintf(g_dir, sizeof g_dir, "%s/fz.XXXXXX", base);
  if (!mkdtemp(g_dir)) {
    fprintf(stderr, "fuzz: cannot make a scratch directory under %s: %s\n", base, strerror(errno));
    exit(1);
  }
  if (g_dir[0] != '/') {
    char cwd[2048];
    if (!getcwd(cwd, sizeof cwd)) {
      fprintf(stderr, "fuzz: getcwd: %s\n", strerror(errno));
      exit(1);
    }
    char rel[sizeof g_dir];
    snprintf(rel, sizeof rel, "%s", g_dir);
    snprintf(g_dir, sizeof g_dir, "%s/%s", cwd, rel);
  }
  g_dir_owner = getpid();
  atexit(remove_dir);
  state_save();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_state_restore();
  return fz_one(data, size);
}
