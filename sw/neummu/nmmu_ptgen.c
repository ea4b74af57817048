/* nmmu_ptgen -- page-table builder: lays out an address space as x86-64 4-level page tables in
 * a physical memory image (cmodel/include/neummu.h) that the NeuMMU harness serves and the
 * golden model walks.
 *
 * usage: nmmu_ptgen [--seed N] [--pt-base HEX] [--data-base HEX] [--page 4k|2m] [--scatter]
 *                   <layout file|-> <image out|->
 *
 * Layout: 'seg' and 'hole' lines (neummu.h).  A DMA trace (sw/neummu/nmmu_trace.h) is accepted
 * as a layout: its 'nmmu-trace' and 'page' lines are ignored and reading stops at its first
 * 'layer' line (every layout line comes before it); 'tile', 'r' and 'w' lines are ignored too.
 * Any other keyword is an error.  '#' starts a comment.
 *
 * Build (nmmu_build in the model): table pages of 4 KB from --pt-base (default 0x1000; the
 * first is the root), data frames from --data-base (default 0x10000000000 = 2^40: 2 MB frames
 * first from the next 2 MB boundary, then 4 KB frames), each segment with its own page size
 * unless --page overrides it, leaves P|U (|W unless ro, |PS for 2 MB), intermediate entries
 * P|W|U, holes and unmapped space non-present.  --scatter shuffles the frames of each size
 * with a PRNG seeded by --seed (default 1), so consecutive pages get scattered frames; without
 * it frames are contiguous in VA order.
 *
 * Prints one summary line on stderr.  Bad arguments, an unreadable or malformed layout, a
 * layout that fails its checks (overlap, alignment, holes) or does not fit below 2^52: one-line
 * error on stderr, exit status 2 (1: out of memory, or the image cannot be written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "neummu.h"

#define PROG "nmmu_ptgen"

static void usage(FILE *f) {
  fprintf(f,
          "usage: " PROG " [--seed N] [--pt-base HEX] [--data-base HEX] [--page 4k|2m] "
          "[--scatter] <layout file|-> <image out|->\n");
}

/* Reads the layout lines of f (named path for messages) into l; 0 or -1 (message printed). */
static int read_layout(FILE *f, const char *path, nmmu_layout_t *l) {
  static const char *const ignored[] = {"nmmu-trace", "page", "tile", "r", "w"};
  char line[4096], why[64];
  long ln = 0;
  int got;
  while ((got = cutil_read_line(f, line, sizeof line, &ln, why, sizeof why)) != 0) {
    if (got < 0) {
      fprintf(stderr, PROG ": %s:%ld: %s\n", path, ln, why);
      return -1;
    }
    char err[256];
    int rc = nmmu_layout_parse_line(l, line, err, sizeof err);
    if (rc < 0) {
      fprintf(stderr, PROG ": %s:%ld: %s\n", path, ln, err);
      return -1;
    }
    if (rc == 1) continue;
    /* not a layout line: blank/comment, a known trace keyword, or an error */
    char *kw;
    if (cutil_tokenize(line, &kw, 1, NULL) == 0) continue;
    if (!strcmp(kw, "layer")) return 0;
    size_t i;
    for (i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
      if (!strcmp(kw, ignored[i])) break;
    if (i == sizeof ignored / sizeof ignored[0]) {
      fprintf(stderr, PROG ": %s:%ld: unknown keyword '%.31s' (expected seg or hole)\n", path, ln,
              kw);
      return -1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  nmmu_build_cfg_t cfg;
  nmmu_build_cfg_init(&cfg);
  const char *pos[2];
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--scatter")) {
      cfg.scatter = 1;
      continue;
    }
    if (a[0] == '-' && a[1]) {
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      int bad = 0;
      if (!v && (!strcmp(a, "--seed") || !strcmp(a, "--pt-base") || !strcmp(a, "--data-base") ||
                 !strcmp(a, "--page"))) {
        fprintf(stderr, PROG ": %s needs a value\n", a);
        return 2;
      }
      if (!strcmp(a, "--seed")) {
        bad = cutil_parse_dec(v, 0, UINT64_MAX, &cfg.seed);
      } else if (!strcmp(a, "--pt-base")) {
        bad = cutil_parse_hex(v, UINT64_MAX, &cfg.pt_base) != 0;
      } else if (!strcmp(a, "--data-base")) {
        bad = cutil_parse_hex(v, UINT64_MAX, &cfg.data_base) != 0;
      } else if (!strcmp(a, "--page")) {
        if (!strcmp(v, "4k") || !strcmp(v, "4K")) cfg.page = 0;
        else if (!strcmp(v, "2m") || !strcmp(v, "2M")) cfg.page = 1;
        else bad = 1;
      } else {
        fprintf(stderr, PROG ": unknown option '%s' (see --help)\n", a);
        return 2;
      }
      if (bad) {
        fprintf(stderr, PROG ": bad value '%s' for %s\n", v, a);
        return 2;
      }
      i++;
      continue;
    }
    if (npos == 2) {
      fprintf(stderr, PROG ": unexpected argument '%s' (see --help)\n", a);
      return 2;
    }
    pos[npos++] = a;
  }
  if (npos != 2) {
    fprintf(stderr, PROG ": expected <layout file|-> <image out|-> (see --help)\n");
    return 2;
  }
  if ((cfg.pt_base & 0xFFF) || cfg.pt_base >> NMMU_PA_BITS) {
    fprintf(stderr, PROG ": --pt-base 0x%llx is not a 4 KB aligned address below 2^52\n",
            (unsigned long long)cfg.pt_base);
    return 2;
  }
  if ((cfg.data_base & 0xFFF) || cfg.data_base >> NMMU_PA_BITS) {
    fprintf(stderr, PROG ": --data-base 0x%llx is not a 4 KB aligned address below 2^52\n",
            (unsigned long long)cfg.data_base);
    return 2;
  }

  nmmu_layout_t lay;
  nmmu_layout_init(&lay);
  const char *lpath = pos[0];
  FILE *f = strcmp(lpath, "-") ? fopen(lpath, "r") : stdin;
  if (!f) {
    fprintf(stderr, PROG ": %s: cannot open: %s\n", lpath, strerror(errno));
    return 2;
  }
  int rc = read_layout(f, strcmp(lpath, "-") ? lpath : "<stdin>", &lay);
  if (f != stdin) fclose(f);
  if (rc < 0) {
    nmmu_layout_free(&lay);
    return 2;
  }
  if (lay.nsegs == 0) {
    fprintf(stderr, PROG ": %s: no 'seg' line\n", lpath);
    nmmu_layout_free(&lay);
    return 2;
  }
  char err[256];
  if (nmmu_layout_check(&lay, err, sizeof err) < 0) {
    fprintf(stderr, PROG ": %s: %s\n", lpath, err);
    nmmu_layout_free(&lay);
    return 2;
  }

  nmmu_mem_t *m = nmmu_mem_new();
  if (!m) {
    fprintf(stderr, PROG ": out of memory\n");
    nmmu_layout_free(&lay);
    return 1;
  }
  nmmu_build_stats_t st;
  rc = nmmu_build(m, &lay, &cfg, &st, err, sizeof err);
  size_t nsegs = lay.nsegs, nholes = lay.nholes;
  nmmu_layout_free(&lay);
  if (rc < 0) {
    fprintf(stderr, PROG ": %s: %s\n", lpath, err);
    nmmu_mem_free(m);
    return 2;
  }
  const char *out = pos[1];
  rc = strcmp(out, "-") ? nmmu_mem_save(m, out) : nmmu_mem_save_file(m, stdout);
  if (rc < 0) {
    fprintf(stderr, PROG ": %s: cannot write the image\n", out);
    nmmu_mem_free(m);
    return 1;
  }
  fprintf(stderr,
          PROG ": %zu segments, %zu holes: %llu 4k + %llu 2m pages mapped, %llu hole pages, "
               "%llu table pages at 0x%llx..0x%llx, frames 0x%llx..0x%llx%s, %zu words -> %s\n",
          nsegs, nholes, (unsigned long long)st.pages_4k, (unsigned long long)st.pages_2m,
          (unsigned long long)st.hole_pages, (unsigned long long)st.table_pages,
          (unsigned long long)st.root, (unsigned long long)st.pt_end,
          (unsigned long long)st.data_lo, (unsigned long long)st.data_end,
          cfg.scatter ? " (scattered)" : "", nmmu_mem_words(m), out);
  nmmu_mem_free(m);
  return 0;
}
