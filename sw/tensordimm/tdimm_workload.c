/* tdimm_workload -- writes TensorDIMM workload files (memory image + instruction stream) for the
 * harness, the golden model (tdimm_run) and the bench.  Formats and decisions:
 * docs/tensordimm_workloads.md; the library: sw/tensordimm/tdimm_rt.h.
 *
 * usage: tdimm_workload --net ncf|youtube|fox|facebook [--batch B (64)] [--dim-x X (1)]
 *          [--cores N (8)] [--rows R (the network's)] [--pool mean|sum (mean)] [--seed S (1)]
 *          [--indices FILE | --indices-out FILE] [--summary] [-o FILE|-]
 *   or:  tdimm_workload --op gather|reduce|average|mixed|random [--count N] [--k K (1)]
 *          [--avg A (4)] [--type fp32|int32] [--subop add|sub|mul|max|min] [--seq] [--rows R]
 *          [--cores N (8)] [--local-aw AW (smallest; random: 12)] [--insns N] [--seed S (1)]
 *          [--summary] [-o FILE|-]
 * --count is required except for random (whose counts are drawn); --insns is the stream
 * length of random (200) and the repetitions of the others (1).  Without -o and --summary the
 * workload goes to stdout; --summary prints one line of counts on stdout.  Bad arguments: one
 * line "tdimm_workload: <reason>" on stderr, exit status 2.  The output is a function of the
 * arguments (and the index file) only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "tensordimm/tdimm_rt.h"

static const char *const kProg = "tdimm_workload";

static unsigned cores_log2(const char *v) {
  long n = cutil_opt_long(kProg, "--cores", v, 1, 128);
  if (n & (n - 1)) cutil_fail(kProg, "--cores: %ld is not a power of two", n);
  unsigned l = 0;
  while ((1L << l) < n) l++;
  return l;
}

static int find_name(const char *v, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v, names[i])) return i;
  return -1;
}

int main(int argc, char **argv) {
  static const char *const kSub[5] = {"add", "sub", "mul", "max", "min"};
  const char *net_s = NULL, *op_s = NULL, *out = NULL, *idx_in = NULL, *idx_out = NULL;
  long batch = -1, dim_x = 1, count = -1, k = 1, avg = 4, local_aw = 0, insns = 0;
  long long seed = 1, rows = 0;
  unsigned nd_log2 = 3, type = TDIMM_T_FP32, subop = TDIMM_SUB_ADD;
  int pool_sum = -1, seq = 0, summary = 0;
  int net_only = 0, op_only = 0; /* an option of the other mode was given */
  const char *net_opt = NULL, *op_opt = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = 1;
    if (!strcmp(a, "--net")) {
      if (!v) cutil_fail(kProg, "--net needs a value");
      net_s = v;
    } else if (!strcmp(a, "--op")) {
      if (!v) cutil_fail(kProg, "--op needs a value");
      op_s = v;
    } else if (!strcmp(a, "--batch")) {
      batch = cutil_opt_long(kProg, a, v, 1, 128), net_only = 1, net_opt = a;
    } else if (!strcmp(a, "--dim-x")) {
      dim_x = cutil_opt_long(kProg, a, v, 1, 8), net_only = 1, net_opt = a;
    } else if (!strcmp(a, "--pool")) {
      if (!v) cutil_fail(kProg, "--pool needs a value");
      if (strcmp(v, "mean") && strcmp(v, "sum"))
        cutil_fail(kProg, "--pool: '%s' is not mean or sum", v);
      pool_sum = !strcmp(v, "sum"), net_only = 1, net_opt = a;
    } else if (!strcmp(a, "--indices") || !strcmp(a, "--indices-out")) {
      if (!v) cutil_fail(kProg, "%s needs a value", a);
      *(a[9] ? &idx_out : &idx_in) = v, net_only = 1, net_opt = a;
    } else if (!strcmp(a, "--count")) {
      count = cutil_opt_long(kProg, a, v, 0, TDIMM_MAX_COUNT), op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--k")) {
      k = cutil_opt_long(kProg, a, v, 1, TDIMM_MAX_K), op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--avg")) {
      avg = cutil_opt_long(kProg, a, v, 1, TDIMM_MAX_AVG), op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--type")) {
      if (!v) cutil_fail(kProg, "--type needs a value");
      if (strcmp(v, "fp32") && strcmp(v, "int32"))
        cutil_fail(kProg, "--type: '%s' is not fp32 or int32", v);
      type = !strcmp(v, "int32") ? TDIMM_T_INT32 : TDIMM_T_FP32, op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--subop")) {
      if (!v) cutil_fail(kProg, "--subop needs a value");
      int s = find_name(v, kSub, 5);
      if (s < 0) cutil_fail(kProg, "--subop: '%s' is not add, sub, mul, max or min", v);
      subop = (unsigned)s, op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--local-aw")) {
      local_aw = cutil_opt_long(kProg, a, v, 4, 27), op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--insns")) {
      insns = cutil_opt_long(kProg, a, v, 1, 10000000), op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--seq")) {
      seq = 1, takes = 0, op_only = 1, op_opt = a;
    } else if (!strcmp(a, "--rows")) {
      rows = cutil_opt_long(kProg, a, v, 1, 4294967295L);
    } else if (!strcmp(a, "--cores")) {
      nd_log2 = cores_log2(v);
    } else if (!strcmp(a, "--seed")) {
      seed = cutil_opt_long(kProg, a, v, 0, (1L << 62));
    } else if (!strcmp(a, "--summary")) {
      summary = 1, takes = 0;
    } else if (!strcmp(a, "-o")) {
      if (!v) cutil_fail(kProg, "-o needs a value");
      out = v;
    } else {
      cutil_fail(kProg, "unknown argument '%s'", a);
    }
    i += takes;
  }
  if (!!net_s == !!op_s) cutil_fail(kProg, "give one of --net NAME or --op OP");
  if (net_s && op_only) cutil_fail(kProg, "%s applies to --op workloads only", op_opt);
  if (op_s && net_only) cutil_fail(kProg, "%s applies to --net workloads only", net_opt);

  tdimm_wl_t wl;
  tdimm_stats_t st;
  char err[512], comment[4096], line[640];
  if (net_s) {
    int net = tdimm_net_find(net_s);
    if (net < 0) cutil_fail(kProg, "unknown network '%s' (ncf, youtube, fox, facebook)", net_s);
    if (idx_in && idx_out) cutil_fail(kProg, "--indices and --indices-out exclude each other");
    if (idx_in && (batch >= 0 || rows))
      cutil_fail(kProg, "%s and --indices exclude each other: the index file gives it",
                batch >= 0 ? "--batch" : "--rows");
    tdimm_idx_t ix;
    tdimm_emb_params_t p = {(unsigned)net, batch < 0 ? 64u : (unsigned)batch, (unsigned)dim_x,
                            nd_log2, (uint64_t)rows, pool_sum > 0, (uint64_t)seed, NULL,
                            idx_in};
    if (idx_in) {
      if (tdimm_idx_read(idx_in, &ix, err, sizeof err) != 0) cutil_fail(kProg, "%s", err);
      p.idx = &ix;
    }
    tdimm_emb_t lay;
    int rc = tdimm_emb_build(&p, &wl, &lay, err, sizeof err);
    if (idx_in) tdimm_idx_free(&ix);
    if (rc) cutil_fail(kProg, "%s", err);
    st = lay.st;
    snprintf(line, sizeof line,
             "net=%s batch=%u dimx=%u cores=%u k=%u insns=%" PRIu64 " rows_gathered=%" PRIu64
             " blocks_read_per_core=%" PRIu64 " blocks_written_per_core=%" PRIu64
             " bytes_to_gpu_nmp=%" PRIu64 " bytes_to_gpu_no_nmp=%" PRIu64
             " tables=%u lookups=%u rows=%" PRIu64 " dim=%u pool=%s local_aw=%u",
             net_s, lay.batch, lay.dim_x, lay.node_dim, lay.k, st.insns, st.rows_gathered,
             st.blocks_read_per_core, st.blocks_written_per_core, st.bytes_to_gpu_nmp,
             st.bytes_to_gpu_no_nmp, lay.n_tables, lay.lookups, lay.rows, lay.dim,
             net == TDIMM_NET_NCF ? "none" : p.pool_sum ? "sum" : "mean", lay.local_aw);
    char src[300];
    if (idx_in) snprintf(src, sizeof src, "from %s", idx_in);
    else snprintf(src, sizeof src, "uniform random, seed %lld", seed);
    snprintf(comment, sizeof comment,
             "%s embedding layer (docs/tensordimm_workloads.md), indices %s\n"
             "summary %s\nlayout (global blocks): row %u blocks, regions aligned to %" PRIu64
             ", end 0x%" PRIx64 "\n",
             net_s, src, line, lay.row_blocks, lay.align, lay.end);
    for (unsigned t = 0; t < lay.n_tables; t++) {
      size_t len = strlen(comment);
      snprintf(comment + len, sizeof comment - len,
               "table %u: base 0x%" PRIx64 ", index list 0x%" PRIx64 ", gather 0x%" PRIx64 "\n",
               t, lay.table_base[t], lay.idx_base[t], lay.gather_base[t]);
    }
    for (unsigned r = 0; r < lay.n_results; r++) {
      size_t len = strlen(comment);
      snprintf(comment + len, sizeof comment - len, "to the GPU: 0x%" PRIx64 ", %u rows, %s\n",
               lay.result_base[r], lay.result_rows[r], lay.result_what[r]);
    }
    if (idx_out) {
      FILE *f = cutil_open_out(kProg, idx_out);
      cutil_close_out(kProg, f, idx_out, tdimm_idx_write(f, &lay.idx));
    }
    tdimm_emb_free(&lay);
  } else {
    int op = tdimm_synth_find(op_s);
    if (op < 0)
      cutil_fail(kProg, "unknown op '%s' (gather, reduce, average, mixed, random)", op_s);
    if (op == TDIMM_SYN_RANDOM && count >= 0)
      cutil_fail(kProg, "--count does not apply to --op random (its counts are drawn)");
    if (op != TDIMM_SYN_RANDOM && count < 0) cutil_fail(kProg, "--op %s needs --count", op_s);
    if (seq && op != TDIMM_SYN_GATHER && op != TDIMM_SYN_MIXED)
      cutil_fail(kProg, "--seq applies to --op gather and mixed only");
    tdimm_synth_params_t p = {(unsigned)op, nd_log2, (unsigned)local_aw,
                              count < 0 ? 0u : (uint32_t)count, (unsigned)k, (unsigned)avg,
                              type, subop, seq, (uint64_t)rows, (unsigned)insns, (uint64_t)seed};
    if (tdimm_synth_build(&p, &wl, &st, err, sizeof err) != 0) cutil_fail(kProg, "%s", err);
    if (op == TDIMM_SYN_RANDOM)
      snprintf(line, sizeof line,
               "op=random cores=%u local_aw=%u insns=%" PRIu64 " rows_gathered=%" PRIu64
               " blocks_read_per_core=%" PRIu64 " blocks_written_per_core=%" PRIu64 " seed=%lld",
               1u << nd_log2, wl.local_aw, st.insns, st.rows_gathered, st.blocks_read_per_core,
               st.blocks_written_per_core, seed);
    else
      snprintf(line, sizeof line,
               "op=%s count=%ld k=%ld cores=%u local_aw=%u insns=%" PRIu64 " rows_gathered=%"
               PRIu64 " blocks_read_per_core=%" PRIu64 " blocks_written_per_core=%" PRIu64
               " type=%s subop=%s avg=%ld seq=%d seed=%lld",
               op_s, count, k, 1u << nd_log2, wl.local_aw, st.insns, st.rows_gathered,
               st.blocks_read_per_core, st.blocks_written_per_core,
               type == TDIMM_T_INT32 ? "int32" : "fp32", kSub[subop], avg, seq, seed);
    snprintf(comment, sizeof comment, "synthetic %s workload (docs/tensordimm_workloads.md)\n"
             "summary %s", op_s, line);
  }
  if (out || !summary) {
    const char *path = out ? out : "-";
    FILE *f = cutil_open_out(kProg, path);
    cutil_close_out(kProg, f, path, tdimm_wl_write(f, &wl, comment));
  }
  tdimm_wl_free(&wl);
  if (summary) {
    printf("%s\n", line);
    if (fflush(stdout) != 0) cutil_die(kProg, "write error on stdout");
  }
  return 0;
}
