/* nnoc_topo.c -- XY routing and paths of the Neu-NoC global mesh (cmodel/include/neunoc.h).
 *
 * Router r = y * Cols + x.  XY routing: a packet first moves along x (east when the
 * destination column is greater, west when smaller), then along y (north / south); at its
 * destination router it leaves through the local port (0) into the router's ring (or PE).
 * A multicast head (several dst_mesh bits) is forked: every destination is routed on its own
 * XY path and the copy sent through a port carries exactly the destinations reached through it,
 * so the union of the copies is the XY tree of the unicast paths (no destination twice).
 *
 * Only the cols * rows bits of a dst_mesh are looked at; callers validate masks (nnoc_pkt_check,
 * the traffic reader).  A router id outside 0..NR-1 or a port outside 1..4 gives -1.
 */
#include <stdlib.h>
#include <string.h>

#include "neunoc.h"

static int valid_router(const nnoc_cfg_t *cfg, int r) {
  return r >= 0 && r < nnoc_routers(cfg);
}

/* The output port of router r towards destination router d (XY). */
static int xy_port(const nnoc_cfg_t *cfg, int r, int d) {
  int rx = r % cfg->cols, ry = r / cfg->cols;
  int dx = d % cfg->cols, dy = d / cfg->cols;
  if (dx > rx) return NNOC_PORT_E;
  if (dx < rx) return NNOC_PORT_W;
  if (dy > ry) return NNOC_PORT_N;
  if (dy < ry) return NNOC_PORT_S;
  return NNOC_PORT_L;
}

int nnoc_route(const nnoc_cfg_t *cfg, int r, const uint32_t *dst,
               uint32_t sub[5][NNOC_MASK_WORDS]) {
  if (!valid_router(cfg, r)) return -1;
  if (sub) memset(sub, 0, sizeof(uint32_t) * 5 * NNOC_MASK_WORDS);
  int nr = nnoc_routers(cfg);
  int ports = 0;
  for (int w = 0; w * 32 < nr; w++) {
    uint32_t bits = dst[w];
    if (w * 32 + 32 > nr) bits &= (1u << (nr - w * 32)) - 1u;
    while (bits) {
      int b = __builtin_ctz(bits);
      bits &= bits - 1u;
      int d = w * 32 + b;
      int p = xy_port(cfg, r, d);
      ports |= 1 << p;
      if (sub) sub[p][w] |= 1u << b;
    }
  }
  return ports;
}

int nnoc_hops(const nnoc_cfg_t *cfg, int a, int b) {
  if (!valid_router(cfg, a) || !valid_router(cfg, b)) return -1;
  return abs(a % cfg->cols - b % cfg->cols) + abs(a / cfg->cols - b / cfg->cols);
}

int nnoc_link(const nnoc_cfg_t *cfg, int r, int port) {
  if (!valid_router(cfg, r)) return -1;
  int x = r % cfg->cols, y = r / cfg->cols;
  switch (port) {
  case NNOC_PORT_E: if (x + 1 >= cfg->cols) return -1; break;
  case NNOC_PORT_W: if (x == 0) return -1; break;
  case NNOC_PORT_N: if (y + 1 >= cfg->rows) return -1; break;
  case NNOC_PORT_S: if (y == 0) return -1; break;
  default: return -1;
  }
  return r * 4 + (port - 1);
}

/* Writes at most max links; returns the path's full link count (so a return > max means the
 * array was too small), or -1 for a router out of range. */
int nnoc_xy_links(const nnoc_cfg_t *cfg, int a, int b, int *links, int max) {
  if (!valid_router(cfg, a) || !valid_router(cfg, b)) return -1;
  int n = 0, r = a;
  while (r != b) {
    int p = xy_port(cfg, r, b);
    if (links && n < max) links[n] = nnoc_link(cfg, r, p);
    n++;
    switch (p) {
    case NNOC_PORT_E: r += 1; break;
    case NNOC_PORT_W: r -= 1; break;
    case NNOC_PORT_N: r += cfg->cols; break;
    default: r -= cfg->cols; break;
    }
  }
  return n;
}
