/* tdimm_run -- executes a TensorDIMM workload file on the golden model (cmodel/tensordimm) and
 * prints what happened: the reference the harness co-simulates against, and a check of the
 * workload tools.
 *
 * usage: tdimm_run WORKLOAD [--quiet | --check]
 *   --check: only read the file (through the library's reader) and print one line
 *     tdimm_run: cores=N local_aw=AW records=N blocks=B insns=N
 *   (B = the blocks the records initialize); no execution.
 *   per instruction (not with --quiet):
 *     insn <i> <tdimm_insn_str> -> <status> [mask=<hex> rows=<r0>,<r1>,...]
 *   (status = the node's error name, OK when every core succeeded; on an error the error mask
 *   of the cores (bit c = core c, up to 128 bits in hex) and every core's rows written), then
 *   one last line
 *     tdimm_run: insns=N ok=N errors=N [<NAME>=<count> ...] blocks=<B> checksum=<16 hex digits>
 *   where the checksum is tdimm_checksum over tdimm_wl_ranges (the B blocks the records
 *   initialize and the instructions may write), in the model's final memory.
 * A bad file or argument: one line on stderr ("tdimm_run: <path>:<line>: <reason>"), exit 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "tensordimm/tdimm_rt.h"

static const char *const kProg = "tdimm_run";

int main(int argc, char **argv) {
  const char *path = NULL;
  int quiet = 0, check = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else if (!strcmp(argv[i], "--check")) check = 1;
    else if (argv[i][0] == '-' && argv[i][1]) cutil_fail(kProg, "unknown argument '%s'", argv[i]);
    else if (path) cutil_fail(kProg, "unexpected argument '%s' (one workload file)", argv[i]);
    else path = argv[i];
  }
  if (!path) cutil_fail(kProg, "usage: tdimm_run WORKLOAD [--quiet | --check]");
  tdimm_wl_t wl;
  char err[512];
  if (tdimm_wl_read(path, &wl, err, sizeof err) != 0) cutil_fail(kProg, "%s", err);
  if (check) {
    uint64_t blocks = 0;
    for (size_t i = 0; i < wl.n_rec; i++) blocks += wl.rec[i].nblocks;
    printf("%s: cores=%u local_aw=%u records=%zu blocks=%" PRIu64 " insns=%zu\n", kProg,
           1u << wl.nd_log2, wl.local_aw, wl.n_rec, blocks, wl.n_insn);
    tdimm_wl_free(&wl);
    return fflush(stdout) != 0;
  }
  tdimm_node_t *node = tdimm_wl_node_new(&wl);
  if (!node) cutil_die(kProg, "out of memory loading %s", path);
  const unsigned nd = 1u << wl.nd_log2;
  unsigned long long per_code[16] = {0}, ok = 0;
  tdimm_result_t *res = malloc(sizeof *res);
  if (!res) cutil_die(kProg, "out of memory");
  for (size_t i = 0; i < wl.n_insn; i++) {
    unsigned e = tdimm_exec(node, &wl.insn[i], res);
    if (e == TDIMM_OK) ok++;
    else per_code[e & 15]++;
    if (quiet) continue;
    char s[200];
    printf("insn %zu %s -> %s", i, tdimm_insn_str(&wl.insn[i], s, sizeof s), tdimm_err_name(e));
    if (e != TDIMM_OK) {
      if (res->err_mask[1])
        printf(" mask=%" PRIx64 "%016" PRIx64, res->err_mask[1], res->err_mask[0]);
      else printf(" mask=%" PRIx64, res->err_mask[0]);
      printf(" rows=");
      for (unsigned c = 0; c < nd; c++) printf("%s%" PRIu32, c ? "," : "", res->rows[c]);
    }
    putchar('\n');
  }
  tdimm_range_t *r;
  size_t nr = tdimm_wl_ranges(&wl, &r);
  uint64_t blocks = 0;
  for (size_t i = 0; i < nr; i++) blocks += r[i].n;
  uint64_t h = tdimm_node_checksum(node, r, nr);
  printf("%s: insns=%zu ok=%llu errors=%llu", kProg, wl.n_insn, ok,
         (unsigned long long)wl.n_insn - ok);
  for (unsigned c = 1; c < 16; c++)
    if (per_code[c]) printf(" %s=%llu", tdimm_err_name(c), per_code[c]);
  printf(" blocks=%" PRIu64 " checksum=%016" PRIx64 "\n", blocks, h);
  free(r);
  free(res);
  tdimm_node_free(node);
  tdimm_wl_free(&wl);
  if (fflush(stdout) != 0) cutil_die(kProg, "write error on stdout");
  return 0;
}
