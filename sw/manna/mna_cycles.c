/* mna_cycles -- runs a MANNA workload file (docs/manna.md, "Workload files") on the golden model
 * with the cycle model (mna_run_cycles, exact against the RTL) and prints the cycles of each
 * run: the figures of shapes and configurations too large to simulate in Verilator
 * (make bench-manna, "cycle model at full size").
 *
 *   mna_cycles [--transpose 0|1] [--emac-ops 0|1] [--fence N] [--max-insns N] FILE
 *
 * The configuration is the file's cfg record; --transpose and --emac-ops choose the ablation
 * variant (docs/manna.md, "Ablation variants"). --max-insns bounds the instructions a tile may
 * run in one run (1..10^9, default 10^9); a workload that needs more is refused. Output: one
 * line per run "run N cycles=C" and a summary "mna_cycles: runs=N cycles=C errors=0|1". Exit
 * status 2 for bad arguments or a bad file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "manna.h"
#include "manna/mna_kern.h"

static const char *const Prog = "mna_cycles";

#define USAGE \
  "usage: mna_cycles [--transpose 0|1] [--emac-ops 0|1] [--fence N] [--max-insns N] FILE"

int main(int argc, char **argv) {
  mna_cfg_t base;
  mna_cfg_default(&base);
  base.fence_timeout = 1u << 20;
  const char *path = NULL;
  uint64_t max_insns = 1000000000ull;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--transpose")) {
      base.transpose = (int)cutil_opt_long(Prog, a, v, 0, 1);
      i++;
    } else if (!strcmp(a, "--emac-ops")) {
      base.emac_ops = (int)cutil_opt_long(Prog, a, v, 0, 1);
      i++;
    } else if (!strcmp(a, "--fence")) {
      base.fence_timeout = (uint32_t)cutil_opt_long(Prog, a, v, 1, 0x7FFFFFFF);
      i++;
    } else if (!strcmp(a, "--max-insns")) {
      max_insns = (uint64_t)cutil_opt_long(Prog, a, v, 1, 1000000000L);
      i++;
    } else if (a[0] == '-' && a[1] != 0) {
      cutil_fail(Prog, "unknown argument '%s' (" USAGE ")", a);
    } else if (!path) {
      path = a;
    } else {
      cutil_fail(Prog, "unexpected argument '%s' (" USAGE ")", a);
    }
  }
  if (!path) cutil_fail(Prog, "no workload file (" USAGE ")");
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "%s: cannot open %s\n", Prog, path);
    return 2;
  }
  mna_t *m = NULL;
  mna_wl_info_t info;
  char err[256];
  const int rc = mna_wl_load(&m, &base, f, path, max_insns, &info, err, sizeof err);
  fclose(f);
  if (rc) {
    fprintf(stderr, "%s: %s\n", Prog, err);
    mna_free(m);
    return 2;
  }
  for (int r = 0; r < info.runs && r < MNA_WL_MAX_RUNS; r++)
    printf("run %d cycles=%llu\n", r + 1, (unsigned long long)info.run_cycles[r]);
  printf("%s: runs=%d cycles=%llu errors=%d\n", Prog, info.runs,
         (unsigned long long)info.total_cycles, info.stopped_error);
  mna_wl_info_free(&info);
  mna_free(m);
  return 0;
}
