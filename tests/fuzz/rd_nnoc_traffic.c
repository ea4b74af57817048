/* rd_nnoc_traffic.c -- fuzz target of the Neu-NoC traffic-file reader (sw/neunoc/
 * libnnoc_traffic.c) with the tools' default widths (data 16, tag 8, count 4 bits).
 * Oracles: nnoc_traffic_scan and a packet-by-packet read agree (count, last cycle, error); an
 * error has a one-line reason and repeats; every packet is within the net's bounds and cycles are
 * nondecreasing; a file read without an error is written back (nnoc_traffic_write_header / _pkt),
 * and the copy reads back to the same packets. */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "neunoc.h"

static nnoc_cfg_t base_cfg(void) {
  nnoc_cfg_t c;
  memset(&c, 0, sizeof c);
  c.data_w = 16, c.tag_w = 8, c.cnt_w = 4;
  return c;
}

static int same_pkt(const nnoc_pkt_t *a, const nnoc_pkt_t *b) {
  return a->t == b->t && a->src == b->src &&
         !memcmp(a->dst_mesh, b->dst_mesh, sizeof a->dst_mesh) && a->dst_pe == b->dst_pe &&
         a->tag == b->tag && a->nwords == b->nwords &&
         !memcmp(a->words, b->words, sizeof a->words[0] * (size_t)a->nwords);
}

static nnoc_pkt_t p, q;

int fz_one(const uint8_t *d, size_t n) {
  const char *path = fz_input_file(d, n);
  if (!path) return -1;
  char err[600] = "", err2[600] = "", out[4352];
  nnoc_cfg_t cs = base_cfg();
  long npkts = -1;
  uint64_t last_t = 0;
  int scan = nnoc_traffic_scan(path, &cs, &npkts, &last_t, err2, sizeof err2);
  nnoc_cfg_t c = base_cfg();
  nnoc_traffic_t *t = nnoc_traffic_open(path, &c, err, sizeof err);
  if (!t) {
    FZ_CHECK(scan != 0 && !strcmp(err, err2), "open refused ('%s'), scan: %d '%s'", err, scan,
             err2);
    FZ_CHECK(err[0] && !strchr(err, '\n'), "refused without a one-line reason");
    fz_log("refused: %s\n", err);
    return 0;
  }
  FILE *w = fopen(fz_path("copy", out, sizeof out), "w");
  FZ_CHECK(w && nnoc_traffic_write_header(w, &c) == 0, "cannot write the copy");
  long k = 0;
  uint64_t prev = 0;
  int rc;
  const int np = nnoc_pes(&c);
  while ((rc = nnoc_traffic_next(t, &p, err, sizeof err)) == 1) {
    FZ_CHECK(p.t >= prev && p.t <= NNOC_MAX_CYCLE && p.src >= 0 && p.src < np && p.nwords >= 0 &&
                 p.nwords <= NNOC_MAX_WORDS && p.tag < (1u << c.tag_w),
             "packet %ld out of bounds", k);
    prev = p.t;
    k++;
    FZ_CHECK(nnoc_traffic_write_pkt(w, &c, &p) == 0, "cannot write packet %ld", k);
  }
  fclose(w);
  if (rc < 0) {
    FZ_CHECK(err[0] && !strchr(err, '\n'), "error without a one-line reason");
    FZ_CHECK(scan != 0 && !strcmp(err, err2), "next: '%s', scan: %d '%s'", err, scan, err2);
    char again[600];
    FZ_CHECK(nnoc_traffic_next(t, &p, again, sizeof again) == -1 && !strcmp(again, err),
             "an error does not repeat");
    nnoc_traffic_close(t);
    fz_log("error: %s\n", err);
    return 0;
  }
  FZ_CHECK(nnoc_traffic_next(t, &p, err, sizeof err) == 0, "no second end");
  nnoc_traffic_close(t);
  FZ_CHECK(scan == 0 && npkts == k && last_t == prev,
           "scan: %d, %ld packets to %llu; read %ld to %llu", scan, npkts,
           (unsigned long long)last_t, k, (unsigned long long)prev);
  /* the copy reads back to the same packets */
  t = nnoc_traffic_open(path, &c, err, sizeof err);
  nnoc_cfg_t c2 = base_cfg();
  nnoc_traffic_t *u = nnoc_traffic_open(out, &c2, err2, sizeof err2);
  FZ_CHECK(t && u && c2.k == c.k && c2.cols == c.cols && c2.rows == c.rows,
           "the copy does not open: %s", err2);
  for (long i = 0; i <= k; i++) {
    int a = nnoc_traffic_next(t, &p, err, sizeof err);
    int b = nnoc_traffic_next(u, &q, err2, sizeof err2);
    FZ_CHECK(a == b && (a == 0 || same_pkt(&p, &q)), "packet %ld of the copy differs (%d %d: %s)",
             i, a, b, err2);
  }
  nnoc_traffic_close(t);
  nnoc_traffic_close(u);
  fz_log("%ld packets\n", k);
  return 0;
}
