/* test_neunoc.c -- unit tests of the Neu-NoC golden model (cmodel/neunoc/neunoc.c), built with
 * ASan/UBSan: configuration widths and refusals, head encodings worked out by hand (narrow,
 * multi-word, type field straddling two words), the unpacked flit sequence, zero-flit packing
 * of hand-picked runs, pack/unpack of thousands of random packets checked against the packing
 * rules, every malformed input pack/unpack refuse, destinations and delivery head rewriting,
 * and each refusal of nnoc_pkt_check.  Expected values come from the definitions in neunoc.h,
 * never from the model's own output.  Last line: "N passed, N failed". */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "neunoc.h"

#include "test_check.h"

typedef unsigned long long ull;

static int rng_below(cutil_rng_t *s, int n) { return (int)cutil_rng_below(s, (uint64_t)n); }

static nnoc_cfg_t mkcfg(int k, int cols, int rows, int data_w, int tag_w, int cnt_w) {
  nnoc_cfg_t c = {k, cols, rows, data_w, tag_w, cnt_w, 0};
  return c;
}

/* The small configuration most directed tests use: K = 4 on a 3 x 2 mesh, DataW 16, TagW 8,
 * CntW 4.  NR = 6, RIdW = clog2(6) = 3, PIdW = clog2(4) = 2, HdrW = 6+4+3+2+8+1 = 24,
 * PW = max(16, 24, 4) = 24, FlitW = 26: type in bits 25:24, all in word 0.  Head payload:
 *   dst_mesh [5:0], dst_pe [9:6], src router [12:10], src pos [14:13], tag [22:15], single [23].
 * CntMax = 15. */
static nnoc_cfg_t small_cfg(void) { return mkcfg(4, 3, 2, 16, 8, 4); }
#define SMALL_TYPE_SHIFT 24

/* nnoc_pkt_t holds 4096 words, so the tests keep their packets and flit buffers static. */
#define BUF_FLITS (2 * NNOC_MAX_WORDS + 8)
static nnoc_pkt_t pk, pk2;
static nnoc_flit_t fa[BUF_FLITS], fb[BUF_FLITS], fc[BUF_FLITS];

static void pkt_clear(nnoc_pkt_t *p) { memset(p, 0, sizeof *p); }

static void pkt_set(nnoc_pkt_t *p, int src, uint32_t mesh0, uint32_t dst_pe, uint32_t tag,
                    int nwords, const uint32_t *words) {
  pkt_clear(p);
  p->src = src;
  p->dst_mesh[0] = mesh0;
  p->dst_pe = dst_pe;
  p->tag = tag;
  p->nwords = nwords;
  for (int i = 0; i < nwords; i++) p->words[i] = words[i];
}

/* A flit built by the test alone: word 0 given, type at bit `type_shift` of word 0. */
static nnoc_flit_t tflit(int type, uint32_t payload, int type_shift) {
  nnoc_flit_t f;
  memset(&f, 0, sizeof f);
  f.w[0] = payload | ((uint32_t)type << type_shift);
  return f;
}

static int words_above_zero(const nnoc_flit_t *f, int from) {
  for (int i = from; i < NNOC_FLIT_WORDS; i++)
    if (f->w[i]) return 0;
  return 1;
}

static int flits_equal(const nnoc_flit_t *a, const nnoc_flit_t *b, int n) {
  return memcmp(a, b, sizeof(nnoc_flit_t) * (size_t)n) == 0;
}

/* ================================================================ cfg */
static void check_widths(const nnoc_cfg_t *c, int nr, int pes, int rid, int pid, int hdr, int pw) {
  char err[200] = "";
  CHECK(nnoc_cfg_check(c, err, sizeof err) == 0, "cfg k%d %dx%d refused: %s", c->k, c->cols,
        c->rows, err);
  CHECK(nnoc_routers(c) == nr, "routers %d want %d", nnoc_routers(c), nr);
  CHECK(nnoc_pes(c) == pes, "pes %d want %d", nnoc_pes(c), pes);
  CHECK(nnoc_rid_w(c) == rid, "rid_w %d want %d (NR %d)", nnoc_rid_w(c), rid, nr);
  CHECK(nnoc_pid_w(c) == pid, "pid_w %d want %d (K %d)", nnoc_pid_w(c), pid, c->k);
  CHECK(nnoc_hdr_w(c) == hdr, "hdr_w %d want %d", nnoc_hdr_w(c), hdr);
  CHECK(nnoc_payload_w(c) == pw, "payload_w %d want %d", nnoc_payload_w(c), pw);
  CHECK(nnoc_flit_w(c) == pw + 2, "flit_w %d want %d", nnoc_flit_w(c), pw + 2);
}

static void test_cfg_widths(void) {
  nnoc_cfg_t c = small_cfg();
  check_widths(&c, 6, 24, 3, 2, 24, 24);
  /* 1 x 1 plain mesh: both ids still 1 bit; HdrW = 1+1+1+1+1+1 = 6 < DataW 8. */
  c = mkcfg(1, 1, 1, 8, 1, 1);
  check_widths(&c, 1, 1, 1, 1, 6, 8);
  /* PW from CntW: HdrW 6, DataW 4, CntW 16. */
  c = mkcfg(1, 1, 1, 4, 1, 16);
  check_widths(&c, 1, 1, 1, 1, 6, 16);
  /* PW from DataW 32: K=1 2x2, HdrW = 4+1+2+1+4+1 = 13. */
  c = mkcfg(1, 2, 2, 32, 4, 4);
  check_widths(&c, 4, 4, 2, 1, 13, 32);
  /* clog2 at powers of two and one above: NR 2 -> 1, 3 -> 2, 4 -> 2, 5 -> 3; K 2,3,32,31. */
  c = mkcfg(2, 2, 1, 8, 1, 1);
  check_widths(&c, 2, 4, 1, 1, 2 + 2 + 1 + 1 + 1 + 1, 8);
  c = mkcfg(3, 3, 1, 8, 1, 1);
  check_widths(&c, 3, 9, 2, 2, 3 + 3 + 2 + 2 + 1 + 1, 12);
  c = mkcfg(32, 5, 1, 8, 1, 1);
  check_widths(&c, 5, 160, 3, 5, 5 + 32 + 3 + 5 + 1 + 1, 47);
  c = mkcfg(31, 2, 2, 8, 1, 1);
  check_widths(&c, 4, 124, 2, 5, 4 + 31 + 2 + 5 + 1 + 1, 44);
  /* Paper configuration: K=8, 9x9: 81+8+7+3+16+1 = 116. */
  c = mkcfg(8, 9, 9, 32, 16, 8);
  check_widths(&c, 81, 648, 7, 3, 116, 116);
  /* Widest legal flit: 1024 + 32 + 10 + 5 + 16 + 1 = 1088 payload bits, 1090 <= 32 * 36. */
  c = mkcfg(32, 32, 32, 32, 16, 16);
  check_widths(&c, 1024, 32768, 10, 5, 1088, 1088);
  CHECK(nnoc_flit_w(&c) <= 32 * NNOC_FLIT_WORDS, "widest flit does not fit");
  c = mkcfg(1, 1024, 1, 1, 1, 1);
  check_widths(&c, 1024, 1024, 10, 1, 1024 + 1 + 10 + 1 + 1 + 1, 1038);
}

static void refuse_cfg(nnoc_cfg_t c, const char *needle) {
  char err[200] = "";
  int rc = nnoc_cfg_check(&c, err, sizeof err);
  CHECK(rc == -1, "cfg k%d %dx%d d%d t%d c%d accepted", c.k, c.cols, c.rows, c.data_w, c.tag_w,
        c.cnt_w);
  CHECK(strstr(err, needle) != NULL, "cfg refusal '%s' lacks '%s'", err, needle);
  CHECK(!strchr(err, '\n'), "cfg refusal has a newline: '%s'", err);
}

static void test_cfg_refusals(void) {
  refuse_cfg(mkcfg(0, 3, 2, 16, 8, 4), "k = 0");
  refuse_cfg(mkcfg(33, 3, 2, 16, 8, 4), "k = 33");
  refuse_cfg(mkcfg(-1, 3, 2, 16, 8, 4), "k = -1");
  refuse_cfg(mkcfg(4, 0, 2, 16, 8, 4), "mesh 0 x 2");
  refuse_cfg(mkcfg(4, 3, 0, 16, 8, 4), "mesh 3 x 0");
  refuse_cfg(mkcfg(4, -3, -2, 16, 8, 4), "mesh -3 x -2"); /* product positive, still refused */
  refuse_cfg(mkcfg(4, 41, 25, 16, 8, 4), "cols * rows <= 1024");  /* 1025 routers */
  refuse_cfg(mkcfg(4, 1025, 1, 16, 8, 4), "1024");
  refuse_cfg(mkcfg(4, INT_MAX, 2, 16, 8, 4), "1024"); /* product would overflow */
  refuse_cfg(mkcfg(4, 65536, 65536, 16, 8, 4), "1024"); /* product wraps to 0 in 32 bits */
  refuse_cfg(mkcfg(4, 3, 2, 0, 8, 4), "data_w = 0");
  refuse_cfg(mkcfg(4, 3, 2, 33, 8, 4), "data_w = 33");
  refuse_cfg(mkcfg(4, 3, 2, 16, 0, 4), "tag_w = 0");
  refuse_cfg(mkcfg(4, 3, 2, 16, 17, 4), "tag_w = 17");
  refuse_cfg(mkcfg(4, 3, 2, 16, 8, 0), "cnt_w = 0");
  refuse_cfg(mkcfg(4, 3, 2, 16, 8, 17), "cnt_w = 17");
  char err[100] = "";
  CHECK(nnoc_cfg_check(NULL, err, sizeof err) == -1 && err[0], "NULL cfg accepted");
  nnoc_cfg_t bad = mkcfg(0, 1, 1, 1, 1, 1);
  CHECK(nnoc_cfg_check(&bad, NULL, 0) == -1, "refusal without err buffer");
  char tiny[4] = "xyz";
  CHECK(nnoc_cfg_check(&bad, tiny, sizeof tiny) == -1 && strlen(tiny) == 3, "err truncation");
  /* The 1024-router boundary is legal (32 x 32 and 1024 x 1, 1 x 1024). */
  nnoc_cfg_t ok = mkcfg(1, 1, 1024, 1, 1, 1);
  CHECK(nnoc_cfg_check(&ok, err, sizeof err) == 0, "1 x 1024 refused: %s", err);
  /* "flit too wide for NNOC_FLIT_WORDS" cannot be reached with the header's limits: the widest
   * legal flit (checked in test_cfg_widths) is 1090 bits of 1152. */
}

/* ================================================================ masks and field access */
static void test_masks(void) {
  uint32_t m[NNOC_MASK_WORDS] = {0};
  nnoc_mask_set(m, 0, 1);
  nnoc_mask_set(m, 31, 1);
  nnoc_mask_set(m, 32, 1);
  nnoc_mask_set(m, 1023, 1);
  CHECK(m[0] == 0x80000001u && m[1] == 1 && m[31] == 0x80000000u, "mask_set words %x %x %x",
        m[0], m[1], m[31]);
  CHECK(nnoc_mask_get(m, 31) == 1 && nnoc_mask_get(m, 30) == 0 && nnoc_mask_get(m, 1023) == 1,
        "mask_get");
  CHECK(nnoc_mask_popcount(m, 1024) == 4, "popcount all");
  CHECK(nnoc_mask_popcount(m, 32) == 2, "popcount 32");
  CHECK(nnoc_mask_popcount(m, 33) == 3, "popcount 33");
  CHECK(nnoc_mask_popcount(m, 31) == 1, "popcount 31 (bit 31 excluded)");
  CHECK(nnoc_mask_popcount(m, 0) == 0, "popcount 0");
  nnoc_mask_set(m, 31, 0);
  CHECK(m[0] == 1 && nnoc_mask_popcount(m, 1024) == 3, "mask clear");
  nnoc_mask_set(m, 0, 1); /* setting a set bit keeps it */
  CHECK(m[0] == 1, "mask set twice");

  nnoc_flit_t f;
  memset(&f, 0, sizeof f);
  f.w[0] = 0x12345678;
  f.w[1] = 0xffffffff;
  CHECK(nnoc_flit_word(&f) == 0x12345678, "flit_word %x", nnoc_flit_word(&f));
}

/* ================================================================ head encoding */
static void test_head_small(void) {
  nnoc_cfg_t c = small_cfg();
  nnoc_flit_t h;
  nnoc_pkt_t *d = &pk2;
  /* src 21 = router 5 (21 / 4), position 1; dst routers 0 and 4 (0b010001), dst_pe 0b1010,
   * tag 0xA5, 3 words (single 0):
   *   0x11 | 0xA << 6 (0x280) | 5 << 10 (0x1400) | 1 << 13 (0x2000) | 0xA5 << 15 (0x528000)
   *   | HEAD 01 << 24 (0x1000000) = 0x0152B691. */
  uint32_t w3[3] = {1, 2, 3};
  pkt_set(&pk, 21, 0x11, 0xA, 0xA5, 3, w3);
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x0152B691u, "small head %08x want 0152b691", h.w[0]);
  CHECK(words_above_zero(&h, 1), "small head has bits above word 0");
  CHECK(nnoc_flit_type(&c, &h) == NNOC_HEAD, "head type %d", nnoc_flit_type(&c, &h));
  pkt_clear(d);
  d->nwords = 77;
  d->t = 99;
  memset(d->dst_mesh, 0xff, sizeof d->dst_mesh); /* decode must clear bits beyond NR */
  CHECK(nnoc_head_decode(&c, &h, d) == 0, "small head decoded as single");
  CHECK(d->src == 21 && d->dst_mesh[0] == 0x11 && d->dst_mesh[1] == 0 && d->dst_mesh[31] == 0 &&
            d->dst_pe == 0xA && d->tag == 0xA5,
        "small head decode src %d mesh %x pe %x tag %x", d->src, d->dst_mesh[0], d->dst_pe,
        d->tag);
  CHECK(d->nwords == 77 && d->t == 99, "decode touched nwords/t");
  /* Head-only: single bit 23 (0x800000) set as well. */
  pk.nwords = 0;
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01D2B691u, "single head %08x want 01d2b691", h.w[0]);
  CHECK(nnoc_head_decode(&c, &h, d) == 1, "single head decoded as not single");
  /* Every field at its maximum: src 23 = router 5 (0b101) pos 3, mesh 0x3f, pe 0xf, tag 0xff,
   * single: payload [23:0] all ones but bit 11 (the middle bit of router 5). */
  pkt_set(&pk, 23, 0x3f, 0xf, 0xff, 0, NULL);
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01FFF7FFu, "maximal head %08x", h.w[0]);
  /* Each field alone, so a swapped pair of fields cannot cancel out. */
  pkt_set(&pk, 0, 0, 0, 0, 1, w3);
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01000000u, "empty head %08x", h.w[0]);
  pk.src = 4; /* router 1 pos 0 -> bit 10 */
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01000400u, "src router field %08x", h.w[0]);
  pk.src = 2; /* router 0 pos 2 -> bit 14 */
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01004000u, "src pos field %08x", h.w[0]);
  pk.src = 0;
  pk.tag = 1; /* bit 15 */
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01008000u, "tag field %08x", h.w[0]);
  pk.tag = 0;
  pk.dst_pe = 1; /* bit 6 */
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x01000040u, "dst_pe field %08x", h.w[0]);
}

/* K = 8 on an 8 x 8 mesh, TagW 16: NR 64, RIdW 6, PIdW 3, HdrW = 64+8+6+3+16+1 = 98 = PW,
 * FlitW 100.  dst_mesh bits 63:0 (words 0, 1), dst_pe 71:64, src router 77:72, src pos 80:78,
 * tag 96:81, single 97, type 99:98 (word 3 bits 3:2). */
static void test_head_wide(void) {
  nnoc_cfg_t c = mkcfg(8, 8, 8, 32, 16, 8);
  nnoc_flit_t h;
  uint32_t w1[1] = {0};
  /* src 511 = router 63 pos 7; dst routers 0 and 63; dst_pe 0x81; tag 0xBEEF; one word.
   *   w0 = 0x00000001, w1 = 0x80000000
   *   w2 = 0x81 | 63 << 8 (0x3F00) | 7 << 14 (0x1C000) | (0xBEEF & 0x7FFF) << 17 (0x7DDE0000)
   *      = 0x7DDFFF81
   *   w3 = tag bit 15 (1) at bit 0 | single 0 at bit 1 | HEAD 01 at bits 3:2 (0x4) = 0x5 */
  pkt_set(&pk, 511, 1, 0x81, 0xBEEF, 1, w1);
  pk.dst_mesh[1] = 0x80000000u;
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 1 && h.w[1] == 0x80000000u && h.w[2] == 0x7DDFFF81u && h.w[3] == 5,
        "wide head %08x %08x %08x %08x", h.w[0], h.w[1], h.w[2], h.w[3]);
  CHECK(words_above_zero(&h, 4), "wide head has bits above FlitW");
  CHECK(nnoc_flit_type(&c, &h) == NNOC_HEAD, "wide head type");
  CHECK(nnoc_head_decode(&c, &h, &pk2) == 0 && pk2.src == 511 && pk2.dst_mesh[0] == 1 &&
            pk2.dst_mesh[1] == 0x80000000u && pk2.dst_mesh[2] == 0 && pk2.dst_pe == 0x81 &&
            pk2.tag == 0xBEEF,
        "wide head decode");
  /* Tail of word 0xDEADBEEF: payload in word 0, TAIL 10 at bits 99:98 = word 3 bit 3. */
  pk.words[0] = 0xDEADBEEFu;
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 4) == 2, "wide flits count");
  CHECK(fa[1].w[0] == 0xDEADBEEFu && fa[1].w[1] == 0 && fa[1].w[2] == 0 && fa[1].w[3] == 8,
        "wide tail %08x %08x %08x %08x", fa[1].w[0], fa[1].w[1], fa[1].w[2], fa[1].w[3]);
  CHECK(nnoc_flit_type(&c, &fa[1]) == NNOC_TAIL, "wide tail type");
}

/* K = 8 on 2 x 2, TagW 13, DataW 16: HdrW = 4+8+2+3+13+1 = 31 = PW, FlitW 33, so the type sits
 * in bits 32:31 -- word 0 bit 31 (type bit 0) and word 1 bit 0 (type bit 1). */
static void test_type_straddle(void) {
  nnoc_cfg_t c = mkcfg(8, 2, 2, 16, 13, 4);
  CHECK(nnoc_flit_w(&c) == 33, "straddle flit_w %d", nnoc_flit_w(&c));
  uint32_t w[3] = {0, 0, 0x1234};
  /* src 31 = router 3 pos 7; mesh 0b1001; pe 0x80; tag 0x1FFF:
   *   9 | 0x80 << 4 (0x800) | 3 << 12 (0x3000) | 7 << 14 (0x1C000) | 0x1FFF << 17 (0x3FFE0000)
   *   | single 0 << 30 | HEAD type bit 0 << 31 (0x80000000) = 0xBFFFF809 */
  pkt_set(&pk, 31, 9, 0x80, 0x1FFF, 3, w);
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 8) == 4, "straddle flits");
  CHECK(fa[0].w[0] == 0xBFFFF809u && fa[0].w[1] == 0, "straddle head %08x %08x", fa[0].w[0],
        fa[0].w[1]);
  CHECK(fa[3].w[0] == 0x1234 && fa[3].w[1] == 1, "straddle tail %08x %08x", fa[3].w[0],
        fa[3].w[1]);
  CHECK(fa[1].w[0] == 0 && fa[1].w[1] == 0, "straddle zero body");
  int n = nnoc_pack(&c, fa, 4, fb, 8);
  CHECK(n == 3, "straddle pack %d", n);
  CHECK(fb[1].w[0] == (2u | 0x80000000u) && fb[1].w[1] == 1, "straddle PP %08x %08x",
        fb[1].w[0], fb[1].w[1]);
  CHECK(nnoc_flit_type(&c, &fa[0]) == NNOC_HEAD && nnoc_flit_type(&c, &fa[1]) == NNOC_BODY &&
            nnoc_flit_type(&c, &fa[3]) == NNOC_TAIL && nnoc_flit_type(&c, &fb[1]) == NNOC_PP,
        "straddle types");
  CHECK(nnoc_unpack(&c, fb, n, fc, 8) == 4 && flits_equal(fa, fc, 4), "straddle unpack");
  pkt_set(&pk2, 0, 0, 0, 0, 0, NULL);
  CHECK(nnoc_head_decode(&c, &fa[0], &pk2) == 0 && pk2.src == 31 && pk2.dst_mesh[0] == 9 &&
            pk2.dst_pe == 0x80 && pk2.tag == 0x1FFF,
        "straddle decode");
}

/* ================================================================ flit sequence */
static void test_pkt_flits(void) {
  nnoc_cfg_t c = small_cfg();
  uint32_t w[3] = {0x1234, 0, 0xFFFF};
  pkt_set(&pk, 21, 0x11, 0xA, 0xA5, 3, w);
  int n = nnoc_pkt_flits(&c, &pk, fa, 10);
  CHECK(n == 4, "pkt_flits count %d", n);
  CHECK(fa[0].w[0] == 0x0152B691u, "pkt_flits head %08x", fa[0].w[0]);
  CHECK(fa[1].w[0] == 0x1234 && fa[2].w[0] == 0 && fa[3].w[0] == (0xFFFFu | 2u << 24),
        "pkt_flits data %08x %08x %08x", fa[1].w[0], fa[2].w[0], fa[3].w[0]);
  CHECK(words_above_zero(&fa[1], 1) && words_above_zero(&fa[3], 1), "pkt_flits upper words");
  /* nnoc_flit_word is flit bits 31:0: with FlitW 26 the tail's type bits are included. */
  CHECK(nnoc_flit_word(&fa[3]) == 0x200FFFFu, "flit_word of tail %08x", nnoc_flit_word(&fa[3]));
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 3) == -1, "pkt_flits into a short buffer");
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 4) == 4, "pkt_flits exact buffer");
  pk.nwords = 0;
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 1) == 1 && fa[0].w[0] == 0x01D2B691u, "head-only flits");
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 0) == -1, "pkt_flits max 0");
  pk.nwords = -1;
  CHECK(nnoc_pkt_flits(&c, &pk, fa, 10) == -1, "pkt_flits nwords -1");
  pk.nwords = NNOC_MAX_WORDS + 1;
  CHECK(nnoc_pkt_flits(&c, &pk, fa, BUF_FLITS) == -1, "pkt_flits nwords too many");
  pk.nwords = NNOC_MAX_WORDS;
  CHECK(nnoc_pkt_flits(&c, &pk, fa, BUF_FLITS) == NNOC_MAX_WORDS + 1, "pkt_flits max words");
  CHECK(nnoc_mesh_flits(&c, &pk, 0) == NNOC_MAX_WORDS + 1, "mesh_flits unpacked");
}

/* ================================================================ directed packing */
typedef struct {
  int type;
  uint32_t payload;
} tp_t;

/* Packs the small-config packet with the given words and compares type and payload of every
 * flit with `want` (head excluded: it must come through unchanged); then unpacks back. */
static void pack_case(const nnoc_cfg_t *c, const char *name, const uint32_t *w, int nw,
                      const tp_t *want, int nwant) {
  pkt_set(&pk, 5, 0x2, 0x1, 7, nw, w);
  int n = nnoc_pkt_flits(c, &pk, fa, BUF_FLITS);
  int m = nnoc_pack(c, fa, n, fb, BUF_FLITS);
  int pw = nnoc_payload_w(c);
  CHECK(m == 1 + nwant, "%s: pack gave %d flits, want %d", name, m, 1 + nwant);
  CHECK(nnoc_mesh_flits(c, &pk, 1) == 1 + nwant, "%s: mesh_flits packed %d want %d", name,
        nnoc_mesh_flits(c, &pk, 1), 1 + nwant);
  CHECK(nnoc_mesh_flits(c, &pk, 0) == 1 + nw, "%s: mesh_flits unpacked", name);
  if (m != 1 + nwant) return;
  CHECK(flits_equal(fa, fb, 1), "%s: head changed by packing", name);
  for (int i = 0; i < nwant; i++) {
    const nnoc_flit_t *f = &fb[1 + i];
    uint32_t got_t = f->w[0] >> pw, got_p = f->w[0] & ((1u << pw) - 1);
    CHECK(got_t == (uint32_t)want[i].type && got_p == want[i].payload && words_above_zero(f, 1),
          "%s: flit %d is type %u payload %u, want type %d payload %u", name, i + 1, got_t, got_p,
          want[i].type, want[i].payload);
  }
  int u = nnoc_unpack(c, fb, m, fc, BUF_FLITS);
  CHECK(u == n && flits_equal(fa, fc, n), "%s: unpack(pack(x)) != x", name);
}

enum { B = NNOC_BODY, T = NNOC_TAIL, PP = NNOC_PP };

static void test_pack_directed(void) {
  nnoc_cfg_t c = small_cfg(); /* CntMax 15, PW 24 (pack_case reads payloads in word 0) */
  {
    uint32_t w[] = {0, 0, 0, 5, 7};
    tp_t e[] = {{PP, 3}, {B, 5}, {T, 7}};
    pack_case(&c, "run at packet start", w, 5, e, 3);
  }
  {
    uint32_t w[] = {9, 0, 0, 0};
    tp_t e[] = {{B, 9}, {PP, 2}, {T, 0}};
    pack_case(&c, "run before a zero tail", w, 4, e, 3);
  }
  {
    static uint32_t w[41];
    memset(w, 0, sizeof w);
    w[40] = 1;
    tp_t e[] = {{PP, 15}, {PP, 15}, {PP, 10}, {T, 1}};
    pack_case(&c, "40 zeros, CntW 4", w, 41, e, 4);
  }
  {
    uint32_t w[] = {3, 0, 4};
    tp_t e[] = {{B, 3}, {PP, 1}, {T, 4}};
    pack_case(&c, "run of one", w, 3, e, 3);
  }
  {
    uint32_t w[] = {1, 2, 3};
    tp_t e[] = {{B, 1}, {B, 2}, {T, 3}};
    pack_case(&c, "no zeros", w, 3, e, 3);
  }
  {
    uint32_t w[] = {0};
    tp_t e[] = {{T, 0}};
    pack_case(&c, "one zero word is a tail", w, 1, e, 1);
  }
  pack_case(&c, "head only", NULL, 0, NULL, 0);
  {
    uint32_t w[] = {0, 0, 1, 0, 2, 0, 0, 0, 0};
    tp_t e[] = {{PP, 2}, {B, 1}, {PP, 1}, {B, 2}, {PP, 3}, {T, 0}};
    pack_case(&c, "several runs", w, 9, e, 6);
  }
  {
    static uint32_t w[16];
    memset(w, 0, sizeof w);
    w[15] = 0xFFFF;
    tp_t e[] = {{PP, 15}, {T, 0xFFFF}};
    pack_case(&c, "exactly CntMax zeros", w, 16, e, 2);
  }
  {
    static uint32_t w[17];
    memset(w, 0, sizeof w);
    w[16] = 8;
    tp_t e[] = {{PP, 15}, {PP, 1}, {T, 8}};
    pack_case(&c, "CntMax + 1 zeros", w, 17, e, 3);
  }
  {
    static uint32_t w[31];
    memset(w, 0, sizeof w);
    tp_t e[] = {{PP, 15}, {PP, 15}, {T, 0}};
    pack_case(&c, "all zero, 2 x CntMax bodies", w, 31, e, 3);
  }
  nnoc_cfg_t c1 = mkcfg(4, 3, 2, 16, 8, 1); /* CntMax 1: every zero body becomes one PP */
  {
    uint32_t w[] = {0, 0, 0, 5};
    tp_t e[] = {{PP, 1}, {PP, 1}, {PP, 1}, {T, 5}};
    pack_case(&c1, "CntW 1", w, 4, e, 4);
  }
  nnoc_cfg_t c3 = mkcfg(4, 3, 2, 16, 8, 3); /* CntMax 7 */
  {
    static uint32_t w[23];
    memset(w, 0, sizeof w);
    w[0] = 4;
    w[22] = 6;
    tp_t e[] = {{B, 4}, {PP, 7}, {PP, 7}, {PP, 7}, {T, 6}};
    pack_case(&c3, "21 zeros, CntW 3", w, 23, e, 5);
  }
  /* Words are taken to DataW bits: 0x10000 with DataW 16 is a zero word. */
  {
    uint32_t w[] = {0x10000, 5};
    tp_t e[] = {{PP, 1}, {T, 5}};
    pack_case(&c, "word above DataW counts as zero", w, 2, e, 2);
  }
  /* A packet of NNOC_MAX_WORDS zeros with CntW 16: 4095 zero bodies in one PP, then the tail. */
  nnoc_cfg_t c16 = mkcfg(4, 3, 2, 8, 8, 16);
  {
    static uint32_t w[NNOC_MAX_WORDS];
    memset(w, 0, sizeof w);
    tp_t e[] = {{PP, 4095}, {T, 0}};
    pack_case(&c16, "4096 zeros, CntW 16", w, NNOC_MAX_WORDS, e, 2);
  }
}

/* ================================================================ random pack/unpack */

/* Checks the packed sequence against the packing rules directly: no zero body survives, PP
 * counts are 1..CntMax, and in every run of PP flits all but the last are full (greedy). */
static int packed_follows_rules(const nnoc_cfg_t *c, const nnoc_flit_t *f, int n) {
  uint32_t cnt_max = (1u << c->cnt_w) - 1, dmask = c->data_w == 32 ? ~0u : (1u << c->data_w) - 1;
  for (int i = 1; i < n; i++) {
    int t = nnoc_flit_type(c, &f[i]);
    if (t == NNOC_BODY && (f[i].w[0] & dmask) == 0) return 0;
    if (t != NNOC_PP) continue;
    uint32_t cnt = f[i].w[0] & cnt_max;
    if (cnt == 0) return 0;
    int next_pp = i + 1 < n && nnoc_flit_type(c, &f[i + 1]) == NNOC_PP;
    if (next_pp && cnt != cnt_max) return 0;
  }
  return 1;
}

static nnoc_cfg_t random_cfg(cutil_rng_t *s) {
  nnoc_cfg_t c;
  c.dst_coord = 0; /* random_pkt makes multicast packets */
  do {
    c.k = 1 + rng_below(s, 32);
    c.cols = 1 + rng_below(s, 8);
    c.rows = 1 + rng_below(s, 8);
    c.data_w = 1 + rng_below(s, 32);
    c.tag_w = 1 + rng_below(s, 16);
    c.cnt_w = rng_below(s, 8) ? 1 + rng_below(s, 5) : 1 + rng_below(s, 16);
  } while (nnoc_cfg_check(&c, NULL, 0) != 0);
  return c;
}

/* A random packet that nnoc_pkt_check accepts (no multicast length limit); words are zero with
 * a probability drawn per packet, so some packets are all zero and some have none. */
static void random_pkt(const nnoc_cfg_t *c, cutil_rng_t *s, nnoc_pkt_t *p) {
  int nr = nnoc_routers(c);
  pkt_clear(p);
  p->src = rng_below(s, nnoc_pes(c));
  do {
    for (int r = 0; r < nr; r++) nnoc_mask_set(p->dst_mesh, r, rng_below(s, 4) == 0);
  } while (nnoc_mask_popcount(p->dst_mesh, nr) == 0);
  do p->dst_pe = (uint32_t)cutil_rng_next(s) & (c->k == 32 ? ~0u : (1u << c->k) - 1);
  while (!p->dst_pe);
  p->tag = (uint32_t)cutil_rng_next(s) & ((1u << c->tag_w) - 1);
  int len_kind = rng_below(s, 20);
  p->nwords = len_kind == 0 ? 0 : len_kind == 1 ? rng_below(s, NNOC_MAX_WORDS + 1)
                                                : 1 + rng_below(s, 120);
  int zero_pct = rng_below(s, 5) == 0 ? 100 * rng_below(s, 2) : rng_below(s, 101);
  uint32_t dmask = c->data_w == 32 ? ~0u : (1u << c->data_w) - 1;
  for (int i = 0; i < p->nwords; i++) {
    uint32_t v = (uint32_t)cutil_rng_next(s) & dmask;
    p->words[i] = rng_below(s, 100) < zero_pct ? 0 : (v ? v : 1);
  }
}

static void test_pack_random(void) {
  cutil_rng_t s = cutil_rng_seed(12345);
  int bad_roundtrip = 0, bad_rules = 0, bad_count = 0, bad_decode = 0, bad_check = 0;
  int pp_seen = 0, split_seen = 0;
  const int npkts = 4000;
  for (int it = 0; it < npkts; it++) {
    nnoc_cfg_t c = random_cfg(&s);
    random_pkt(&c, &s, &pk);
    char err[200] = "";
    if (nnoc_pkt_check(&c, &pk, INT_MAX, err, sizeof err) != 0) bad_check++;
    int n = nnoc_pkt_flits(&c, &pk, fa, BUF_FLITS);
    int m = nnoc_pack(&c, fa, n, fb, BUF_FLITS);
    int u = m > 0 ? nnoc_unpack(&c, fb, m, fc, BUF_FLITS) : -1;
    if (n != 1 + pk.nwords || u != n || !flits_equal(fa, fc, n)) bad_roundtrip++;
    if (m < 1 || !flits_equal(fa, fb, 1) || !packed_follows_rules(&c, fb, m)) bad_rules++;
    if (m != nnoc_mesh_flits(&c, &pk, 1)) bad_count++;
    /* Unpacked input is a legal input of unpack too, and comes back unchanged. */
    if (nnoc_unpack(&c, fa, n, fc, BUF_FLITS) != n || !flits_equal(fa, fc, n)) bad_roundtrip++;
    for (int i = 1; i < m; i++)
      if (nnoc_flit_type(&c, &fb[i]) == NNOC_PP) {
        pp_seen++;
        if (i + 1 < m && nnoc_flit_type(&c, &fb[i + 1]) == NNOC_PP) split_seen++;
      }
    int single = nnoc_head_decode(&c, &fa[0], &pk2);
    if (single != (pk.nwords == 0) || pk2.src != pk.src || pk2.dst_pe != pk.dst_pe ||
        pk2.tag != pk.tag || memcmp(pk2.dst_mesh, pk.dst_mesh, sizeof pk.dst_mesh))
      bad_decode++;
  }
  CHECK(bad_roundtrip == 0, "%d of %d random packets fail unpack(pack(x)) == x", bad_roundtrip,
        npkts);
  CHECK(bad_rules == 0, "%d packed sequences break the packing rules", bad_rules);
  CHECK(bad_count == 0, "%d nnoc_mesh_flits counts differ from nnoc_pack", bad_count);
  CHECK(bad_decode == 0, "%d heads decode to other fields", bad_decode);
  CHECK(bad_check == 0, "%d valid random packets refused by nnoc_pkt_check", bad_check);
  CHECK(pp_seen > 10000 && split_seen > 1000, "random test exercised too little: %d PP, %d split",
        pp_seen, split_seen);
}

/* ================================================================ malformed input */
static nnoc_flit_t small_pp(uint32_t cnt) { return tflit(NNOC_PP, cnt, SMALL_TYPE_SHIFT); }

static void test_malformed(void) {
  nnoc_cfg_t c = small_cfg();
  uint32_t w[3] = {0, 5, 7};
  pkt_set(&pk, 1, 1, 1, 0, 3, w);
  int n = nnoc_pkt_flits(&c, &pk, fa, 8); /* H B0 B5 T7 */
  CHECK(n == 4, "malformed base");
  nnoc_flit_t s[8];
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);

  CHECK(nnoc_pack(&c, s, 0, fb, 8) == -1 && nnoc_unpack(&c, s, 0, fb, 8) == -1, "empty input");
  CHECK(nnoc_pack(&c, s + 1, 3, fb, 8) == -1 && nnoc_unpack(&c, s + 1, 3, fb, 8) == -1,
        "body before head");
  CHECK(nnoc_pack(&c, s, 1, fb, 8) == -1 && nnoc_unpack(&c, s, 1, fb, 8) == -1,
        "head (single 0) without data");
  CHECK(nnoc_pack(&c, s, 3, fb, 8) == -1 && nnoc_unpack(&c, s, 3, fb, 8) == -1, "missing tail");
  s[4] = s[3]; /* H B0 B5 T7 T7 */
  CHECK(nnoc_pack(&c, s, 5, fb, 8) == -1 && nnoc_unpack(&c, s, 5, fb, 8) == -1, "flit after tail");
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);
  s[2] = s[0]; /* H B0 H T7 */
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1 && nnoc_unpack(&c, s, 4, fb, 8) == -1, "second head");
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);
  s[1] = tflit(NNOC_TAIL, 0, SMALL_TYPE_SHIFT); /* H T0 B5 T7 */
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1 && nnoc_unpack(&c, s, 4, fb, 8) == -1, "tail in middle");

  /* Head-only packet (single 1) followed by anything. */
  pkt_set(&pk2, 1, 1, 1, 0, 0, NULL);
  CHECK(nnoc_pkt_flits(&c, &pk2, s, 8) == 1, "single head");
  CHECK(nnoc_pack(&c, s, 1, fb, 8) == 1 && nnoc_unpack(&c, s, 1, fb, 8) == 1, "single alone");
  s[1] = fa[3];
  CHECK(nnoc_pack(&c, s, 2, fb, 8) == -1 && nnoc_unpack(&c, s, 2, fb, 8) == -1,
        "single head followed by a tail");

  /* PP flits: refused by pack (its input is unpacked), legal for unpack. */
  s[0] = fa[0];
  s[1] = small_pp(3);
  s[2] = fa[2];
  s[3] = fa[3]; /* H PP3 B5 T7 */
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1, "pack of an input holding a PP flit");
  CHECK(nnoc_unpack(&c, s, 4, fb, 8) == 6 && fb[1].w[0] == 0 && fb[2].w[0] == 0 &&
            fb[3].w[0] == 0 && flits_equal(&fb[4], &fa[2], 2),
        "unpack of H PP3 B5 T7");
  /* Non-greedy PP runs are still restorable. */
  s[1] = small_pp(1);
  s[2] = small_pp(2);
  CHECK(nnoc_unpack(&c, s, 4, fb, 8) == 5 && fb[3].w[0] == 0 && flits_equal(&fb[4], &fa[3], 1),
        "unpack of H PP1 PP2 T7");
  s[1] = small_pp(0);
  s[2] = fa[2];
  CHECK(nnoc_unpack(&c, s, 4, fb, 8) == -1, "PP count 0");
  s[1] = small_pp(1u << 4); /* bit 4 is above CntW 4: count field 0 plus a stray bit */
  CHECK(nnoc_unpack(&c, s, 4, fb, 8) == -1, "PP with a bit above CntW");
  s[1] = small_pp(1u | 1u << 10);
  CHECK(nnoc_unpack(&c, s, 4, fb, 8) == -1, "PP count 1 with a bit above CntW");
  s[1] = fa[1];
  s[3] = small_pp(2); /* H B0 B5 PP2: the packet never ends */
  CHECK(nnoc_unpack(&c, s, 4, fb, 8) == -1, "PP as the last flit");

  /* Stray bits: above DataW in a body or tail, above FlitW, above HdrW in a head. */
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);
  s[2].w[0] |= 1u << 16;
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1 && nnoc_unpack(&c, s, 4, fb, 8) == -1,
        "body with a bit above DataW");
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);
  s[3].w[0] |= 1u << 23;
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1 && nnoc_unpack(&c, s, 4, fb, 8) == -1,
        "tail with a bit above DataW");
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);
  s[1].w[0] |= 1u << 26; /* the zero body: stray bit just above FlitW 26 */
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1 && nnoc_unpack(&c, s, 4, fb, 8) == -1,
        "bit above FlitW");
  memcpy(s, fa, sizeof(nnoc_flit_t) * 4);
  s[0].w[NNOC_FLIT_WORDS - 1] = 0x80000000u;
  CHECK(nnoc_pack(&c, s, 4, fb, 8) == -1 && nnoc_unpack(&c, s, 4, fb, 8) == -1,
        "head with the last flit word set");
  {
    /* K=1 on 2 x 1, DataW 32, TagW 4: HdrW = 2+1+1+1+4+1 = 10 < PW 32; head bit 10 is stray. */
    nnoc_cfg_t cw = mkcfg(1, 2, 1, 32, 4, 4);
    uint32_t w1[1] = {0xFFFFFFFFu};
    pkt_set(&pk2, 0, 2, 1, 3, 1, w1);
    nnoc_flit_t t[2];
    CHECK(nnoc_pkt_flits(&cw, &pk2, t, 2) == 2 && nnoc_pack(&cw, t, 2, fb, 8) == 2,
          "wide-data base packet");
    CHECK(t[1].w[0] == 0xFFFFFFFFu && t[1].w[1] == 2, "DataW 32 tail %08x %08x", t[1].w[0],
          t[1].w[1]);
    t[0].w[0] |= 1u << 10;
    CHECK(nnoc_pack(&cw, t, 2, fb, 8) == -1 && nnoc_unpack(&cw, t, 2, fb, 8) == -1,
          "head with a bit above HdrW");
  }

  /* Output too small. */
  pkt_set(&pk, 1, 1, 1, 0, 3, w); /* H B0 B5 T7 -> H PP1 B5 T7 (4 flits) */
  n = nnoc_pkt_flits(&c, &pk, fa, 8);
  CHECK(nnoc_pack(&c, fa, n, fb, 3) == -1 && nnoc_pack(&c, fa, n, fb, 4) == 4,
        "pack into a short buffer");
  w[0] = w[1] = 0; /* H B0 B0 T7 -> H PP2 T7 */
  pkt_set(&pk, 1, 1, 1, 0, 3, w);
  n = nnoc_pkt_flits(&c, &pk, fa, 8);
  int m = nnoc_pack(&c, fa, n, fb, 8);
  CHECK(m == 3, "pack H B0 B0 T7 gave %d", m);
  CHECK(nnoc_unpack(&c, fb, m, fc, 3) == -1 && nnoc_unpack(&c, fb, m, fc, 4) == 4,
        "unpack into a short buffer");
}

/* ================================================================ destinations and delivery */
static void test_dests(void) {
  nnoc_cfg_t c = small_cfg();
  int pe[64];
  /* Routers 1 and 4 (0b010010), positions 0, 2, 3 (0b1101): PEs 4, 6, 7, 16, 18, 19. */
  pkt_set(&pk, 21, 0x12, 0xD, 0x3C, 0, NULL);
  int n = nnoc_dests(&c, &pk, pe, 64);
  CHECK(n == 6 && pe[0] == 4 && pe[1] == 6 && pe[2] == 7 && pe[3] == 16 && pe[4] == 18 &&
            pe[5] == 19,
        "dests n %d: %d %d %d %d %d %d", n, pe[0], pe[1], pe[2], pe[3], pe[4], pe[5]);
  CHECK(nnoc_dests(&c, &pk, pe, 6) == 6, "dests exact buffer");
  CHECK(nnoc_dests(&c, &pk, pe, 5) == -1, "dests into a short buffer");
  pk.dst_mesh[0] = 0x52; /* router 6 does not exist */
  CHECK(nnoc_dests(&c, &pk, pe, 64) == -1, "dst_mesh bit beyond NR");
  pk.dst_mesh[0] = 0x12;
  pk.dst_mesh[31] = 0x80000000u;
  CHECK(nnoc_dests(&c, &pk, pe, 64) == -1, "dst_mesh bit 1023 with NR 6");
  pk.dst_mesh[31] = 0;
  pk.dst_pe = 0x1D; /* position 4 does not exist */
  CHECK(nnoc_dests(&c, &pk, pe, 64) == -1, "dst_pe bit beyond K");
  pk.dst_pe = 0;
  CHECK(nnoc_dests(&c, &pk, pe, 64) == 0, "no dst_pe -> no destinations");
  /* Plain mesh, K = 1, 32 x 32: global id = router id; routers 0, 33 and 1023. */
  nnoc_cfg_t m = mkcfg(1, 32, 32, 8, 4, 4);
  pkt_set(&pk, 0, 1, 1, 0, 0, NULL);
  nnoc_mask_set(pk.dst_mesh, 33, 1);
  nnoc_mask_set(pk.dst_mesh, 1023, 1);
  n = nnoc_dests(&m, &pk, pe, 64);
  CHECK(n == 3 && pe[0] == 0 && pe[1] == 33 && pe[2] == 1023, "plain mesh dests n %d", n);
  /* K = 32, every position of router 2 on a 3 x 1 mesh: PEs 64..95. */
  nnoc_cfg_t k32 = mkcfg(32, 3, 1, 8, 4, 4);
  pkt_set(&pk, 0, 4, 0xFFFFFFFFu, 0, 0, NULL);
  n = nnoc_dests(&k32, &pk, pe, 64);
  int ok = n == 32;
  for (int i = 0; ok && i < 32; i++) ok = pe[i] == 64 + i;
  CHECK(ok, "K=32 dests n %d", n);
}

static void test_delivery(void) {
  nnoc_cfg_t c = small_cfg();
  uint32_t w[2] = {0xABCD, 0};
  /* src 21 = router 5 pos 1, routers 1 and 4, positions 0, 2, 3, tag 0x3C, words ABCD, 0. */
  pkt_set(&pk, 21, 0x12, 0xD, 0x3C, 2, w);
  /* PE 18 = router 4 pos 2: dst_mesh 0x10, dst_pe 0xD with bits 1:0 cleared = 0xC:
   *   0x10 | 0xC << 6 (0x300) | 5 << 10 (0x1400) | 1 << 13 (0x2000) | 0x3C << 15 (0x1E0000)
   *   | HEAD << 24 = 0x011E3710; then body 0xABCD and tail 0 (0x02000000). */
  int n = nnoc_delivery(&c, &pk, 18, fa, 8);
  CHECK(n == 3, "delivery to 18 count %d", n);
  CHECK(fa[0].w[0] == 0x011E3710u && fa[1].w[0] == 0xABCD && fa[2].w[0] == 0x02000000u,
        "delivery to 18: %08x %08x %08x", fa[0].w[0], fa[1].w[0], fa[2].w[0]);
  /* PE 4 = router 1 pos 0: dst_mesh 0x2, dst_pe unchanged 0xD (0x340): 0x011E3742. */
  n = nnoc_delivery(&c, &pk, 4, fa, 8);
  CHECK(n == 3 && fa[0].w[0] == 0x011E3742u, "delivery to 4: %d %08x", n, fa[0].w[0]);
  /* PE 7 = router 1 pos 3: dst_pe 0x8 (0x200): 0x2 | 0x200 | 0x1400 | 0x2000 | 0x1E0000
   * | 0x1000000 = 0x011E3602. */
  n = nnoc_delivery(&c, &pk, 7, fa, 8);
  CHECK(n == 3 && fa[0].w[0] == 0x011E3602u, "delivery to 7: %d %08x", n, fa[0].w[0]);
  CHECK(nnoc_delivery(&c, &pk, 5, fa, 8) == -1, "delivery to PE 5 (not a destination)");
  CHECK(nnoc_delivery(&c, &pk, 17, fa, 8) == -1, "delivery to PE 17 (pos 1 not set)");
  CHECK(nnoc_delivery(&c, &pk, 8, fa, 8) == -1, "delivery to PE 8 (router 2 not set)");
  CHECK(nnoc_delivery(&c, &pk, -1, fa, 8) == -1, "delivery to PE -1");
  CHECK(nnoc_delivery(&c, &pk, 24, fa, 8) == -1, "delivery to PE 24 (beyond the network)");
  CHECK(nnoc_delivery(&c, &pk, 18, fa, 2) == -1, "delivery into a short buffer");
  /* Head-only packet: one flit with single set (0x800000). */
  pk.nwords = 0;
  n = nnoc_delivery(&c, &pk, 16, fa, 1);
  CHECK(n == 1 && fa[0].w[0] == (0x10u | 0xDu << 6 | 0x1400 | 0x2000 | 0x1E0000 | 0x800000 |
                                 0x1000000),
        "head-only delivery to 16: %d %08x", n, fa[0].w[0]);
  /* A dst bit beyond the network makes the packet invalid for delivery too. */
  pk.dst_pe = 0x1D;
  CHECK(nnoc_delivery(&c, &pk, 16, fa, 8) == -1, "delivery of a packet with dst_pe bit 4");
}

/* Random packets: the deliveries match the definition field by field, and exactly the PEs
 * nnoc_dests lists (popcount(mesh) * popcount(pe) of them, ascending) receive one. */
static void test_delivery_random(void) {
  cutil_rng_t s = cutil_rng_seed(777);
  int bad_set = 0, bad_head = 0, bad_data = 0;
  for (int it = 0; it < 400; it++) {
    nnoc_cfg_t c = random_cfg(&s);
    random_pkt(&c, &s, &pk);
    if (pk.nwords > 64) pk.nwords = 64;
    int nr = nnoc_routers(&c), npe = nnoc_pes(&c);
    static int pe[NNOC_MAX_ROUTERS * NNOC_MAX_K];
    int nd = nnoc_dests(&c, &pk, pe, NNOC_MAX_ROUTERS * NNOC_MAX_K);
    int pcnt = 0;
    for (int q = 0; q < c.k; q++) pcnt += (pk.dst_pe >> q) & 1;
    if (nd != nnoc_mask_popcount(pk.dst_mesh, nr) * pcnt) bad_set++;
    for (int i = 1; i < nd; i++)
      if (pe[i] <= pe[i - 1]) bad_set++;
    int n0 = nnoc_pkt_flits(&c, &pk, fb, BUF_FLITS);
    int j = 0;
    for (int g = 0; g < npe; g++) {
      int n = nnoc_delivery(&c, &pk, g, fa, BUF_FLITS);
      int listed = j < nd && pe[j] == g;
      if (listed) j++;
      if ((n >= 0) != listed) bad_set++;
      if (n < 0) continue;
      int r = g / c.k, q = g % c.k;
      int single = nnoc_head_decode(&c, &fa[0], &pk2);
      uint32_t want_pe = pk.dst_pe & ~((1u << q) - 1);
      if (single != (pk.nwords == 0) || pk2.src != pk.src || pk2.tag != pk.tag ||
          pk2.dst_pe != want_pe || nnoc_mask_popcount(pk2.dst_mesh, NNOC_MAX_ROUTERS) != 1 ||
          !nnoc_mask_get(pk2.dst_mesh, r) || nnoc_flit_type(&c, &fa[0]) != NNOC_HEAD)
        bad_head++;
      if (n != n0 || !flits_equal(&fa[1], &fb[1], n - 1)) bad_data++;
    }
    if (j != nd) bad_set++;
  }
  CHECK(bad_set == 0, "%d delivery/destination set mismatches", bad_set);
  CHECK(bad_head == 0, "%d delivered heads differ from the definition", bad_head);
  CHECK(bad_data == 0, "%d delivered data sequences differ", bad_data);
}

/* ================================================================ nnoc_pkt_check */
#define NREFUSE 12
static char refusal[NREFUSE][200];
static int nrefusal;

static void refuse_pkt(const nnoc_cfg_t *c, const nnoc_pkt_t *p, int vc, const char *needle,
                       const char *what) {
  char *err = refusal[nrefusal < NREFUSE ? nrefusal++ : NREFUSE - 1];
  err[0] = 0;
  CHECK(nnoc_pkt_check(c, p, vc, err, 200) == -1, "%s accepted", what);
  CHECK(strstr(err, needle) != NULL, "%s: message '%s' lacks '%s'", what, err, needle);
}

static void accept_pkt(const nnoc_cfg_t *c, const nnoc_pkt_t *p, int vc, const char *what) {
  char err[200] = "";
  CHECK(nnoc_pkt_check(c, p, vc, err, sizeof err) == 0, "%s refused: %s", what, err);
}

static void test_pkt_check(void) {
  nnoc_cfg_t c = small_cfg();
  static uint32_t w[NNOC_MAX_WORDS];
  for (int i = 0; i < NNOC_MAX_WORDS; i++) w[i] = (uint32_t)i & 0xFFFF;
  pkt_set(&pk, 23, 0x3F, 0xF, 0xFF, 10, w);
  pk.dst_mesh[0] = 0x01; /* unicast router: any length */
  accept_pkt(&c, &pk, 4, "unicast of 11 flits, vc 4");
  pk.dst_mesh[0] = 0x01;
  pk.dst_pe = 0xF; /* one router, four PEs: the ring forks, the mesh does not */
  accept_pkt(&c, &pk, 2, "one-router multicast of 11 flits, vc 2");
  pk.dst_mesh[0] = 0x21;
  pk.nwords = 3;
  accept_pkt(&c, &pk, 4, "multicast of 1 + 3 flits, vc 4");
  pk.nwords = 0;
  accept_pkt(&c, &pk, 1, "head-only multicast, vc 1");
  pk.nwords = NNOC_MAX_WORDS;
  pk.dst_mesh[0] = 0x20;
  pk.words[NNOC_MAX_WORDS - 1] = 0xFFFF;
  accept_pkt(&c, &pk, 4, "unicast of NNOC_MAX_WORDS words, last 0xFFFF");
  pk.src = 0;
  accept_pkt(&c, &pk, 4, "src 0");
  {
    nnoc_cfg_t big = mkcfg(32, 32, 32, 32, 16, 16);
    uint32_t w1[1] = {0xFFFFFFFFu};
    pkt_set(&pk2, 32767, 0, 0x80000000u, 0xFFFF, 1, w1);
    nnoc_mask_set(pk2.dst_mesh, 1023, 1);
    accept_pkt(&big, &pk2, 2, "widest config, every field at its maximum");
  }

  nrefusal = 0;
  pkt_set(&pk, 5, 0x21, 0x3, 0x12, 3, w);
  accept_pkt(&c, &pk, 4, "base packet");
  pk.src = -1;
  refuse_pkt(&c, &pk, 4, "src -1", "src -1");
  pk.src = 24;
  refuse_pkt(&c, &pk, 4, "src 24", "src 24 (24 PEs)");
  pk.src = 5;
  pk.tag = 0x100;
  refuse_pkt(&c, &pk, 4, "tag 256", "tag 256 with TagW 8");
  pk.tag = 0xFF;
  pk.nwords = -1;
  refuse_pkt(&c, &pk, 4, "nwords -1", "nwords -1");
  pk.nwords = NNOC_MAX_WORDS + 1;
  refuse_pkt(&c, &pk, 4, "nwords 4097", "nwords 4097");
  pk.nwords = 3;
  pk.words[2] = 0x10000;
  refuse_pkt(&c, &pk, 4, "word 2 = 0x10000", "word above DataW");
  pk.words[2] = 2;
  pk.dst_mesh[0] = 0x61;
  refuse_pkt(&c, &pk, 4, "dst_mesh bit 6", "dst_mesh router 6 of 6");
  pk.dst_mesh[0] = 0x21;
  pk.dst_mesh[5] = 1; /* router 160 */
  refuse_pkt(&c, &pk, 4, "dst_mesh bit 160", "dst_mesh router 160");
  pk.dst_mesh[5] = 0;
  pk.dst_pe = 0x13;
  refuse_pkt(&c, &pk, 4, "dst_pe 0x13", "dst_pe position 4 of 4");
  pk.dst_pe = 0x3;
  pk.dst_mesh[0] = 0;
  refuse_pkt(&c, &pk, 4, "dst_mesh is empty", "no destination router");
  pk.dst_mesh[0] = 0x21;
  pk.dst_pe = 0;
  refuse_pkt(&c, &pk, 4, "dst_pe is empty", "no destination position");
  pk.dst_pe = 0x3;
  pk.nwords = 4; /* 1 + 4 > 4 */
  refuse_pkt(&c, &pk, 4, "multicast", "multicast of 5 flits, vc 4");
  CHECK(nrefusal == NREFUSE, "refusal count %d", nrefusal);
  int distinct = 1;
  for (int i = 0; i < nrefusal; i++)
    for (int j = i + 1; j < nrefusal; j++)
      if (!strcmp(refusal[i], refusal[j])) distinct = 0;
  CHECK(distinct, "two refusals share one message");
  for (int i = 0; i < nrefusal; i++)
    CHECK(refusal[i][0] && !strchr(refusal[i], '\n'), "refusal %d not one line: '%s'", i,
          refusal[i]);
  CHECK(nnoc_pkt_check(&c, &pk, 4, NULL, 0) == -1, "refusal without err buffer");
  CHECK(nnoc_pkt_check(&c, &pk, 5, NULL, 0) == 0, "multicast of 5 flits, vc 5");
}

/* Coordinate heads (dst_coord = 1), K = 4 on a 3 x 2 mesh: XW 2, YW 1, DstW 3, HdrW = 3+4+3+2+8+1
 * = 21 = PW, FlitW 23, type in bits 22:21.  Head payload: dst x [1:0], dst y [2], dst_pe [6:3],
 * src router [9:7], src pos [11:10], tag [19:12], single [20]. */
static void test_head_coord(void) {
  nnoc_cfg_t c = small_cfg();
  c.dst_coord = 1;
  char err[200] = "";
  CHECK(nnoc_cfg_check(&c, err, sizeof err) == 0, "coordinate cfg refused: %s", err);
  CHECK(nnoc_dst_w(&c) == 3 && nnoc_hdr_w(&c) == 21 && nnoc_flit_w(&c) == 23,
        "coordinate widths dst %d hdr %d flit %d", nnoc_dst_w(&c), nnoc_hdr_w(&c), nnoc_flit_w(&c));
  nnoc_cfg_t s = small_cfg();
  CHECK(nnoc_dst_w(&s) == 6, "bit-string dst_w %d want 6", nnoc_dst_w(&s));
  /* 24 x 24 plain mesh: DstW 5 + 5, HdrW = 10+1+10+1+8+1 = 31 (the bit string would be 576). */
  nnoc_cfg_t m = mkcfg(1, 24, 24, 16, 8, 4);
  m.dst_coord = 1;
  CHECK(nnoc_dst_w(&m) == 10 && nnoc_hdr_w(&m) == 31 && nnoc_flit_w(&m) == 33,
        "24x24 coordinate widths dst %d hdr %d", nnoc_dst_w(&m), nnoc_hdr_w(&m));
  nnoc_cfg_t bad = small_cfg();
  bad.dst_coord = 2;
  refuse_cfg(bad, "dst_coord = 2");

  /* src 21 = router 5 pos 1, dst router 4 = (x 1, y 1): 1 | 1 << 2 = 5, dst_pe 0xA << 3 (0x50),
   * 5 << 7 (0x280), 1 << 10 (0x400), 0xA5 << 12 (0xA5000), HEAD 01 << 21 (0x200000). */
  uint32_t w3[3] = {1, 2, 3};
  nnoc_flit_t h;
  pkt_set(&pk, 21, 0x10, 0xA, 0xA5, 3, w3);
  nnoc_head_encode(&c, &pk, &h);
  CHECK(h.w[0] == 0x002A56D5u && words_above_zero(&h, 1), "coordinate head %08x want 002a56d5",
        h.w[0]);
  nnoc_pkt_t *d = &pk2;
  pkt_clear(d);
  memset(d->dst_mesh, 0xff, sizeof d->dst_mesh);
  CHECK(nnoc_head_decode(&c, &h, d) == 0, "coordinate head decoded as single");
  CHECK(d->src == 21 && d->dst_mesh[0] == 0x10 && d->dst_mesh[1] == 0 && d->dst_pe == 0xA &&
            d->tag == 0xA5,
        "coordinate decode src %d mesh %x pe %x tag %x", d->src, d->dst_mesh[0], d->dst_pe, d->tag);
  /* x = 3 is off the 3-column mesh: no destination. */
  h.w[0] = (h.w[0] & ~7u) | 3u;
  nnoc_head_decode(&c, &h, d);
  CHECK(nnoc_mask_popcount(d->dst_mesh, NNOC_MAX_ROUTERS) == 0, "x 3 decoded to router bits %x",
        d->dst_mesh[0]);
  /* Delivery to PE 17 (router 4, pos 1): the head keeps the coordinates; bit 0 of dst_pe is
   * already clear. */
  CHECK(nnoc_delivery(&c, &pk, 17, fa, BUF_FLITS) == 4, "coordinate delivery count");
  CHECK(fa[0].w[0] == 0x002A56D5u, "coordinate delivery head %08x", fa[0].w[0]);
  /* One destination router per packet, of any length; two are refused. */
  accept_pkt(&c, &pk, 2, "coordinate unicast of 4 flits, vc 2");
  pk.dst_mesh[0] = 0x11;
  pk.nwords = 0;
  refuse_pkt(&c, &pk, 4, "dst_coord", "two routers with coordinate heads");
  CHECK(!strstr(refusal[nrefusal - 1], "virtual channel"), "wrong refusal: %s",
        refusal[nrefusal - 1]);
}

int main(void) {
  test_cfg_widths();
  test_cfg_refusals();
  test_masks();
  test_head_small();
  test_head_wide();
  test_type_straddle();
  test_pkt_flits();
  test_pack_directed();
  test_pack_random();
  test_malformed();
  test_dests();
  test_delivery();
  test_delivery_random();
  test_pkt_check();
  test_head_coord();
  return CHECK_SUMMARY();
}
