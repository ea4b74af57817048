/* test_nnoc_topo.c -- unit test of the Neu-NoC XY routing and path functions
 * (cmodel/neunoc/nnoc_topo.c), hand-derived expectations plus a multicast forking property
 * (every destination reached once; the copies' links are the union of the unicast XY paths).
 *
 * Router r = y * Cols + x; link id = r * 4 + (port - 1), ports E=1 W=2 N=3 S=4.
 *   4x4:   0  1  2  3   (y = 0, south edge)      5x3:  0  1  2  3  4
 *          4  5  6  7                                   5  6  7  8  9
 *          8  9 10 11                                  10 11 12 13 14
 *         12 13 14 15   (y = 3, north edge)
 */
#include <string.h>

#include "neunoc.h"
#include "test_check.h"

#define L (1 << NNOC_PORT_L)
#define E (1 << NNOC_PORT_E)
#define W (1 << NNOC_PORT_W)
#define N (1 << NNOC_PORT_N)
#define S (1 << NNOC_PORT_S)

static nnoc_cfg_t mk(int k, int cols, int rows) {
  nnoc_cfg_t c = {k, cols, rows, 16, 8, 4, 0};
  return c;
}

static void set_bits(uint32_t *m, const int *bits, int n) {
  memset(m, 0, sizeof(uint32_t) * NNOC_MASK_WORDS);
  for (int i = 0; i < n; i++) m[bits[i] / 32] |= 1u << (bits[i] % 32);
}

static int mask_eq(const uint32_t *a, const int *bits, int n) {
  uint32_t b[NNOC_MASK_WORDS];
  set_bits(b, bits, n);
  return memcmp(a, b, sizeof b) == 0;
}

static void check_path(const nnoc_cfg_t *c, int a, int b, const int *want, int n) {
  int got[64];
  int k = nnoc_xy_links(c, a, b, got, 64);
  CHECK(k == n, "xy_links(%d,%d) count %d, want %d", a, b, k, n);
  for (int i = 0; i < n && i < k; i++)
    CHECK(got[i] == want[i], "xy_links(%d,%d)[%d] = %d, want %d", a, b, i, got[i], want[i]);
  CHECK(nnoc_hops(c, a, b) == n, "hops(%d,%d) = %d, want %d", a, b, nnoc_hops(c, a, b), n);
}

/* Forwards a multicast copy from router r; counts arrivals per router and link uses. */
static int g_arrive[NNOC_MAX_ROUTERS], g_link_use[NNOC_MAX_ROUTERS * 4], g_bad;

static int next_router(const nnoc_cfg_t *c, int r, int port) {
  switch (port) {
  case NNOC_PORT_E: return r + 1;
  case NNOC_PORT_W: return r - 1;
  case NNOC_PORT_N: return r + c->cols;
  default: return r - c->cols;
  }
}

static void forward(const nnoc_cfg_t *c, int r, const uint32_t *dst, int depth) {
  uint32_t sub[5][NNOC_MASK_WORDS];
  int ports = nnoc_route(c, r, dst, sub);
  if (ports <= 0 || depth > 2 * (c->cols + c->rows)) {
    g_bad++;
    return;
  }
  uint32_t uni[NNOC_MASK_WORDS] = {0};
  for (int p = 0; p < 5; p++) {
    int used = 0;
    for (int w = 0; w < NNOC_MASK_WORDS; w++) {
      if (sub[p][w] & uni[w]) g_bad++; /* a destination in two copies */
      uni[w] |= sub[p][w];
      used |= sub[p][w] != 0;
    }
    if (used != ((ports >> p) & 1)) g_bad++;
  }
  if (memcmp(uni, dst, sizeof uni) != 0) g_bad++; /* copies cover exactly dst */
  if (ports & L) {
    uint32_t only[NNOC_MASK_WORDS] = {0};
    only[r / 32] = 1u << (r % 32);
    if (memcmp(sub[NNOC_PORT_L], only, sizeof only) != 0) g_bad++;
    g_arrive[r]++;
  }
  for (int p = 1; p < 5; p++) {
    if (!((ports >> p) & 1)) continue;
    int l = nnoc_link(c, r, p);
    if (l < 0) {
      g_bad++;
      continue;
    }
    g_link_use[l]++;
    forward(c, next_router(c, r, p), sub[p], depth + 1);
  }
}

static void check_tree(const nnoc_cfg_t *c, int src, const int *dsts, int n) {
  uint32_t dst[NNOC_MASK_WORDS];
  set_bits(dst, dsts, n);
  memset(g_arrive, 0, sizeof g_arrive);
  memset(g_link_use, 0, sizeof g_link_use);
  g_bad = 0;
  forward(c, src, dst, 0);
  CHECK(g_bad == 0, "multicast from %d: %d inconsistencies", src, g_bad);
  int nr = c->cols * c->rows;
  for (int r = 0; r < nr; r++) {
    int want = 0;
    for (int i = 0; i < n; i++) want |= dsts[i] == r;
    CHECK(g_arrive[r] == want, "multicast from %d: router %d reached %d times, want %d", src, r,
          g_arrive[r], want);
  }
  static int in_union[NNOC_MAX_ROUTERS * 4];
  memset(in_union, 0, sizeof in_union);
  for (int i = 0; i < n; i++) {
    int links[64];
    int k = nnoc_xy_links(c, src, dsts[i], links, 64);
    for (int j = 0; j < k; j++) in_union[links[j]] = 1;
  }
  for (int l = 0; l < nr * 4; l++)
    CHECK(g_link_use[l] == in_union[l], "multicast from %d: link %d used %d times, want %d",
          src, l, g_link_use[l], in_union[l]);
}

int main(void) {
  nnoc_cfg_t c = mk(8, 4, 4);
  uint32_t dst[NNOC_MASK_WORDS], sub[5][NNOC_MASK_WORDS];

  /* hop counts */
  CHECK(nnoc_hops(&c, 0, 15) == 6, "hops 0->15");
  CHECK(nnoc_hops(&c, 15, 0) == 6, "hops 15->0");
  CHECK(nnoc_hops(&c, 3, 12) == 6, "hops 3->12");
  CHECK(nnoc_hops(&c, 5, 10) == 2, "hops 5->10");
  CHECK(nnoc_hops(&c, 7, 7) == 0, "hops 7->7");
  CHECK(nnoc_hops(&c, -1, 3) == -1 && nnoc_hops(&c, 0, 16) == -1, "hops out of range");

  /* link ids: corners have two, the centre four */
  CHECK(nnoc_link(&c, 0, NNOC_PORT_E) == 0, "link 0 E");
  CHECK(nnoc_link(&c, 0, NNOC_PORT_N) == 2, "link 0 N");
  CHECK(nnoc_link(&c, 0, NNOC_PORT_W) == -1, "link 0 W at the west edge");
  CHECK(nnoc_link(&c, 0, NNOC_PORT_S) == -1, "link 0 S at the south edge");
  CHECK(nnoc_link(&c, 15, NNOC_PORT_E) == -1 && nnoc_link(&c, 15, NNOC_PORT_N) == -1,
        "link 15 E/N at the edges");
  CHECK(nnoc_link(&c, 15, NNOC_PORT_W) == 61 && nnoc_link(&c, 15, NNOC_PORT_S) == 63, "15 W/S");
  CHECK(nnoc_link(&c, 5, NNOC_PORT_E) == 20 && nnoc_link(&c, 5, NNOC_PORT_W) == 21 &&
            nnoc_link(&c, 5, NNOC_PORT_N) == 22 && nnoc_link(&c, 5, NNOC_PORT_S) == 23,
        "links of router 5");
  CHECK(nnoc_link(&c, 5, NNOC_PORT_L) == -1 && nnoc_link(&c, 5, 5) == -1, "no link for port 0/5");
  CHECK(nnoc_link(&c, 16, NNOC_PORT_E) == -1 && nnoc_link(&c, -1, NNOC_PORT_E) == -1,
        "link of a router out of range");

  /* XY paths: x first, then y */
  {
    int p0_15[] = {0, 4, 8, 14, 30, 46};
    check_path(&c, 0, 15, p0_15, 6);
    int p15_0[] = {61, 57, 53, 51, 35, 19};
    check_path(&c, 15, 0, p15_0, 6);
    int p3_12[] = {13, 9, 5, 2, 18, 34}; /* W from 3, 2, 1; N from 0, 4, 8 */
    check_path(&c, 3, 12, p3_12, 6);
    int p9_1[] = {39, 23}; /* S from 9, S from 5 */
    check_path(&c, 9, 1, p9_1, 2);
    check_path(&c, 7, 7, NULL, 0);
    int few[2] = {-5, -5};
    CHECK(nnoc_xy_links(&c, 0, 15, few, 2) == 6 && few[0] == 0 && few[1] == 4,
          "xy_links with a short array returns the full count and fills max");
    CHECK(nnoc_xy_links(&c, 0, 16, few, 2) == -1, "xy_links out of range");
  }

  /* route: centre router 5 with destinations in every direction and itself */
  {
    int d[] = {5, 6, 4, 9, 1, 15, 12, 0};
    set_bits(dst, d, 8);
    int ports = nnoc_route(&c, 5, dst, sub);
    CHECK(ports == (L | E | W | N | S), "route at 5: ports 0x%x", ports);
    int sl[] = {5}, se[] = {6, 15}, sw[] = {4, 12, 0}, sn[] = {9}, ss[] = {1};
    CHECK(mask_eq(sub[NNOC_PORT_L], sl, 1), "route at 5: local subset");
    CHECK(mask_eq(sub[NNOC_PORT_E], se, 2), "route at 5: east subset {6,15}");
    CHECK(mask_eq(sub[NNOC_PORT_W], sw, 3), "route at 5: west subset {0,4,12}");
    CHECK(mask_eq(sub[NNOC_PORT_N], sn, 1), "route at 5: north subset {9}");
    CHECK(mask_eq(sub[NNOC_PORT_S], ss, 1), "route at 5: south subset {1}");
    CHECK(nnoc_route(&c, 5, dst, NULL) == ports, "route without subsets");
  }
  /* corner 0: everything east of column 0 goes east, column 0 goes north */
  {
    int d[] = {3, 12, 15, 5};
    set_bits(dst, d, 4);
    memset(sub, 0xa5, sizeof sub);
    int ports = nnoc_route(&c, 0, dst, sub);
    CHECK(ports == (E | N), "route at 0: ports 0x%x", ports);
    int se[] = {3, 15, 5}, sn[] = {12};
    CHECK(mask_eq(sub[NNOC_PORT_E], se, 3), "route at 0: east subset {3,5,15}");
    CHECK(mask_eq(sub[NNOC_PORT_N], sn, 1), "route at 0: north subset {12}");
    CHECK(mask_eq(sub[NNOC_PORT_L], NULL, 0) && mask_eq(sub[NNOC_PORT_W], NULL, 0) &&
              mask_eq(sub[NNOC_PORT_S], NULL, 0),
          "route at 0: unused ports' subsets cleared");
  }
  /* corner 15: itself and router 0 */
  {
    int d[] = {15, 0};
    set_bits(dst, d, 2);
    int ports = nnoc_route(&c, 15, dst, sub);
    CHECK(ports == (L | W), "route at 15: ports 0x%x", ports);
    int sw[] = {0};
    CHECK(mask_eq(sub[NNOC_PORT_W], sw, 1), "route at 15: west subset {0}");
  }
  /* corner 3, column 3 only: south never, north for 7/11/15 */
  {
    int d[] = {7, 11, 15};
    set_bits(dst, d, 3);
    CHECK(nnoc_route(&c, 3, dst, sub) == N, "route at 3: north only");
    CHECK(mask_eq(sub[NNOC_PORT_N], d, 3), "route at 3: north subset {7,11,15}");
  }
  CHECK(nnoc_route(&c, 16, dst, sub) == -1 && nnoc_route(&c, -1, dst, NULL) == -1,
        "route at a router out of range");
  set_bits(dst, NULL, 0);
  CHECK(nnoc_route(&c, 5, dst, sub) == 0, "route of an empty mask: no port");

  /* non-square 5x3 */
  {
    nnoc_cfg_t c53 = mk(4, 5, 3);
    CHECK(nnoc_hops(&c53, 0, 14) == 6 && nnoc_hops(&c53, 4, 10) == 6, "5x3 hops");
    CHECK(nnoc_link(&c53, 14, NNOC_PORT_N) == -1 && nnoc_link(&c53, 4, NNOC_PORT_E) == -1 &&
              nnoc_link(&c53, 9, NNOC_PORT_N) == 38 && nnoc_link(&c53, 10, NNOC_PORT_S) == 43,
          "5x3 links");
    int p4_10[] = {17, 13, 9, 5, 2, 22}; /* W from 4,3,2,1; N from 0,5 */
    check_path(&c53, 4, 10, p4_10, 6);
    int d[] = {14, 10, 7};
    set_bits(dst, d, 3);
    CHECK(nnoc_route(&c53, 7, dst, sub) == (L | E | W), "5x3 route at 7");
    int se[] = {14}, sw[] = {10};
    CHECK(mask_eq(sub[NNOC_PORT_E], se, 1) && mask_eq(sub[NNOC_PORT_W], sw, 1), "5x3 subsets");
    int all[15];
    for (int i = 0; i < 15; i++) all[i] = i;
    for (int s = 0; s < 15; s++) check_tree(&c53, s, all, 15); /* broadcast from every node */
  }

  /* 9x9 (81 routers, three mask words): bits above NR are ignored */
  {
    nnoc_cfg_t c9 = mk(8, 9, 9);
    int d[] = {80, 64, 40, 36, 8};
    set_bits(dst, d, 5);
    dst[2] |= 1u << (81 - 64); /* bit 81: beyond the mesh */
    int ports = nnoc_route(&c9, 40, dst, sub);
    CHECK(ports == (L | E | W), "9x9 route at 40: 0x%x", ports);
    /* 40 = (4,4); 80 = (8,8) and 8 = (8,0) lie east, 36 = (0,4) and 64 = (1,7) west */
    int se[] = {80, 8}, sw[] = {36, 64}, sl[] = {40};
    CHECK(mask_eq(sub[NNOC_PORT_E], se, 2), "9x9 east subset {8,80}");
    CHECK(mask_eq(sub[NNOC_PORT_W], sw, 2), "9x9 west subset {36,64}");
    CHECK(mask_eq(sub[NNOC_PORT_L], sl, 1), "9x9 local subset {40}");
    CHECK(nnoc_hops(&c9, 0, 80) == 16, "9x9 longest path 16 hops");
    int tree1[] = {80, 64, 40, 36, 8, 0, 72, 44, 20};
    check_tree(&c9, 40, tree1, 9);
    check_tree(&c9, 0, tree1, 9);
    check_tree(&c9, 80, tree1, 9);
    /* pseudo-random multicast sets from every source */
    uint32_t x = 12345;
    for (int s = 0; s < 81; s++) {
      int ds[81], n = 0;
      for (int r = 0; r < 81; r++) {
        x = x * 1103515245u + 12345u;
        if ((x >> 16) % 5 == 0) ds[n++] = r;
      }
      if (n) check_tree(&c9, s, ds, n);
    }
  }

  /* 32x32 (1024 routers, all mask words) */
  {
    nnoc_cfg_t cb = mk(1, 32, 32);
    int d[] = {1023, 0, 31, 992, 527};
    check_tree(&cb, 527, d, 5);
    check_tree(&cb, 0, d, 5);
    CHECK(nnoc_hops(&cb, 0, 1023) == 62, "32x32 corner to corner");
  }
  return CHECK_SUMMARY();
}
