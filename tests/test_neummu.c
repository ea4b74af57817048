/* test_neummu.c -- unit tests of the NeuMMU golden model (cmodel/neummu/nmmu_*.c), built with
 * ASan/UBSan: sparse memory, x86-64 walk rules on hand-built tables, image save/load and every
 * refusal of a malformed image, layout parsing and checks, the page-table builder, and
 * randomized walks against an independent walker over the test's own table tree.
 * Temporary files go to $BUILD (default build).  Last line: "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "neummu.h"

#include "test_check.h"

#define P NMMU_PTE_P
#define W NMMU_PTE_W
#define U NMMU_PTE_U
#define PS NMMU_PTE_PS
#define PWU (P | W | U)

typedef unsigned long long ull;


static char tmp_dir[512];
static const char *tmp_path(const char *name) {
  static char buf[1024];
  snprintf(buf, sizeof buf, "%s/%s", tmp_dir, name);
  return buf;
}
static void write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    printf("cannot write %s\n", path);
    exit(1);
  }
  fwrite(text, 1, len, f);
  fclose(f);
}

/* ---- a hand builder: entry of va at `level` in tables below root, created with P|W|U ---- */
static unsigned idx(uint64_t va, int level) { return (unsigned)(va >> (12 + 9 * (level - 1))) & 511; }

typedef struct {
  nmmu_mem_t *m;
  uint64_t next;
} hb_t;

static uint64_t hb_entry(hb_t *b, uint64_t va, int level) {
  uint64_t t = nmmu_mem_root(b->m);
  for (int l = 4; l > level; l--) {
    uint64_t e = t + 8ull * idx(va, l);
    uint64_t v = nmmu_mem_read(b->m, e);
    if (!(v & P)) {
      v = b->next | PWU;
      b->next += 0x1000;
      nmmu_mem_write(b->m, e, v);
    }
    t = v & NMMU_PTE_FRAME;
  }
  return t + 8ull * idx(va, level);
}
static void hb_set(hb_t *b, uint64_t va, int level, uint64_t val) {
  nmmu_mem_write(b->m, hb_entry(b, va, level), val);
}
/* Changes the flags of the entry at `level` on va's path: clear then set. */
static void hb_flags(hb_t *b, uint64_t va, int level, uint64_t clr, uint64_t set) {
  uint64_t e = hb_entry(b, va, level);
  nmmu_mem_write(b->m, e, (nmmu_mem_read(b->m, e) & ~clr) | set);
}

/* ================================================================ memory */
static void test_mem(void) {
  nmmu_mem_t *m = nmmu_mem_new();
  CHECK(m != NULL, "new");
  CHECK(nmmu_mem_read(m, 0) == 0 && nmmu_mem_read(m, 0x1000) == 0, "fresh memory reads 0");
  CHECK(nmmu_mem_words(m) == 0 && nmmu_mem_root(m) == 0, "fresh memory is empty, root 0");
  nmmu_mem_write(m, 0x1000, 0x1234);
  nmmu_mem_write(m, 0xFFFFFFFFFFFF8ull, 0xDEADBEEFCAFEF00Dull);
  CHECK(nmmu_mem_read(m, 0x1000) == 0x1234, "read back");
  CHECK(nmmu_mem_read(m, 0xFFFFFFFFFFFF8ull) == 0xDEADBEEFCAFEF00Dull, "highest word");
  CHECK(nmmu_mem_read(m, 0x1008) == 0 && nmmu_mem_read(m, 0xFF8) == 0, "neighbours untouched");
  CHECK(nmmu_mem_read(m, 0x1004) == 0, "unaligned read gives 0");
  CHECK(nmmu_mem_read(m, 1ull << 52) == 0 && nmmu_mem_read(m, (1ull << 52) | 0x1000) == 0,
        "read at or above 2^52 gives 0 (no aliasing)");
  CHECK(nmmu_mem_words(m) == 2, "2 words");
  nmmu_mem_write(m, 0x1000, 0x5678);
  CHECK(nmmu_mem_read(m, 0x1000) == 0x5678 && nmmu_mem_words(m) == 2, "overwrite");
  nmmu_mem_write(m, 0x1000, 0);
  CHECK(nmmu_mem_read(m, 0x1000) == 0 && nmmu_mem_words(m) == 1, "writing 0 removes the word");
  nmmu_mem_write(m, 0x2000, 0);
  CHECK(nmmu_mem_words(m) == 1, "writing 0 to an unwritten word adds nothing");
  nmmu_mem_set_root(m, 0xABCDE000);
  CHECK(nmmu_mem_root(m) == 0xABCDE000, "root");
  nmmu_mem_free(m);

  /* 2 M distinct words (an odd multiplier is a bijection on word indices mod 2^49) */
  m = nmmu_mem_new();
  const uint64_t n = 2000000, mul = 0x9E3779B97F4A7C15ull;
  for (uint64_t i = 0; i < n; i++) nmmu_mem_write(m, ((i * mul) & ((1ull << 49) - 1)) << 3, i + 1);
  CHECK(nmmu_mem_words(m) == n, "2M words counted (%zu)", nmmu_mem_words(m));
  uint64_t bad = 0;
  for (uint64_t i = 0; i < n; i++)
    if (nmmu_mem_read(m, ((i * mul) & ((1ull << 49) - 1)) << 3) != i + 1) bad++;
  CHECK(bad == 0, "2M words read back (%llu wrong)", (ull)bad);
  bad = 0;
  for (uint64_t i = n; i < n + 100000; i++)
    if (nmmu_mem_read(m, ((i * mul) & ((1ull << 49) - 1)) << 3) != 0) bad++;
  CHECK(bad == 0, "100k unwritten words read 0 among 2M written (%llu wrong)", (ull)bad);
  for (uint64_t i = 0; i < n; i += 2) nmmu_mem_write(m, ((i * mul) & ((1ull << 49) - 1)) << 3, 0);
  CHECK(nmmu_mem_words(m) == n / 2, "half cleared");
  bad = 0;
  for (uint64_t i = 0; i < n; i++)
    if (nmmu_mem_read(m, ((i * mul) & ((1ull << 49) - 1)) << 3) != (i & 1 ? i + 1 : 0)) bad++;
  CHECK(bad == 0, "after clearing half (%llu wrong)", (ull)bad);
  nmmu_mem_free(m);
}

/* ================================================================ translation, directed */
#define ROOT 0x1000ull
#define VA1 0x00007F1234567000ull /* indices L4 254, L3 72, L2 418, L1 359 */

static void expect(const nmmu_mem_t *m, uint64_t va, int wr, int st, uint64_t pa, int levels,
                   const char *what) {
  nmmu_xlat_t r = nmmu_translate(m, va, wr);
  CHECK(r.status == st && r.pa == pa && r.levels == levels,
        "%s: va 0x%llx %s: got status %d pa 0x%llx levels %d, want %d 0x%llx %d", what, (ull)va,
        wr ? "write" : "read", r.status, (ull)r.pa, r.levels, st, (ull)pa, levels);
}

static void test_walk(void) {
  nmmu_mem_t *m = nmmu_mem_new();
  nmmu_mem_set_root(m, ROOT);
  hb_t b = {m, 0x2000};

  /* nothing mapped: not present at L4 */
  expect(m, VA1, 0, NMMU_ST_NOT_PRESENT, 0, 1, "empty tables");

  /* 4 KB hit */
  hb_set(&b, VA1, 1, 0xABCDE000ull | PWU);
  expect(m, VA1 + 0x123, 0, NMMU_ST_OK, 0xABCDE123ull, 4, "4k read");
  expect(m, VA1 + 0xFFF, 1, NMMU_ST_OK, 0xABCDEFFFull, 4, "4k write");
  nmmu_xlat_t r = nmmu_translate(m, VA1, 0);
  CHECK(r.page_2m == 0 && r.writable == 1 && r.user == 1, "4k flags");
  expect(m, VA1 + 0x1000, 0, NMMU_ST_NOT_PRESENT, 0, 4, "next page: L1 not present");
  expect(m, VA1 | 0xFFFF000000000000ull, 0, NMMU_ST_OK, 0xABCDE000ull, 4, "va bits 63:48 ignored");

  /* not present at each level */
  expect(m, VA1 ^ (1ull << 39), 0, NMMU_ST_NOT_PRESENT, 0, 1, "L4 not present");
  expect(m, VA1 ^ (1ull << 30), 0, NMMU_ST_NOT_PRESENT, 0, 2, "L3 not present");
  expect(m, VA1 ^ (1ull << 21), 0, NMMU_ST_NOT_PRESENT, 0, 3, "L2 not present");
  expect(m, VA1 ^ (1ull << 12), 1, NMMU_ST_NOT_PRESENT, 0, 4, "L1 not present");
  for (int lv = 4; lv >= 1; lv--) { /* P cleared with every other bit kept */
    hb_flags(&b, VA1, lv, P, 0);
    r = nmmu_translate(m, VA1, 0);
    CHECK(r.status == NMMU_ST_NOT_PRESENT && r.pa == 0 && r.levels == 5 - lv,
          "P clear at L%d: status %d levels %d", lv, r.status, r.levels);
    hb_flags(&b, VA1, lv, 0, P);
  }
  expect(m, VA1, 0, NMMU_ST_OK, 0xABCDE000ull, 4, "restored");

  /* PS at L4 / L3: 1 GB (and 512 GB) pages are not supported -> not present */
  hb_flags(&b, VA1, 4, 0, PS);
  expect(m, VA1, 0, NMMU_ST_NOT_PRESENT, 0, 1, "PS in L4");
  hb_flags(&b, VA1, 4, PS, 0);
  hb_flags(&b, VA1, 3, 0, PS);
  expect(m, VA1, 0, NMMU_ST_NOT_PRESENT, 0, 2, "PS in L3");
  hb_flags(&b, VA1, 3, PS, 0);
  /* PS (PAT) in an L1 entry is ignored */
  hb_flags(&b, VA1, 1, 0, PS);
  expect(m, VA1 + 8, 1, NMMU_ST_OK, 0xABCDE008ull, 4, "bit 7 of an L1 entry ignored");
  hb_flags(&b, VA1, 1, PS, 0);

  /* U clear at each level: every access faults; W clear at each level: reads ok, writes fault */
  for (int lv = 4; lv >= 1; lv--) {
    hb_flags(&b, VA1, lv, U, 0);
    expect(m, VA1, 0, NMMU_ST_PERM, 0, 4, "U clear, read");
    expect(m, VA1, 1, NMMU_ST_PERM, 0, 4, "U clear, write");
    r = nmmu_translate(m, VA1, 0);
    CHECK(r.user == 0 && r.writable == 1, "U clear at L%d: user %d writable %d", lv, r.user,
          r.writable);
    hb_flags(&b, VA1, lv, 0, U);
    hb_flags(&b, VA1, lv, W, 0);
    expect(m, VA1 + 0x10, 0, NMMU_ST_OK, 0xABCDE010ull, 4, "W clear, read");
    expect(m, VA1 + 0x10, 1, NMMU_ST_PERM, 0, 4, "W clear, write");
    r = nmmu_translate(m, VA1, 0);
    CHECK(r.user == 1 && r.writable == 0, "W clear at L%d: user %d writable %d", lv, r.user,
          r.writable);
    hb_flags(&b, VA1, lv, 0, W);
  }
  /* a not-present entry below a U-clear one is still not present (P is checked first) */
  hb_flags(&b, VA1, 3, U, 0);
  expect(m, VA1 ^ (1ull << 21), 0, NMMU_ST_NOT_PRESENT, 0, 3, "not present below U clear");
  hb_flags(&b, VA1, 3, 0, U);

  /* 2 MB page: PA = frame[51:21] | va[20:0]; PTE bits 20:12 (PAT, reserved) ignored */
  const uint64_t va2 = 0x0000123440000000ull + 0x200000ull * 7;
  hb_set(&b, va2, 2, 0x0000000080000000ull | (1ull << 12) | (0x1Full << 13) | PS | PWU);
  expect(m, va2 + 0x1ABCDE, 0, NMMU_ST_OK, 0x801ABCDEull, 3, "2m read");
  expect(m, va2 + 0x1FFFFF, 1, NMMU_ST_OK, 0x801FFFFFull, 3, "2m write, last byte");
  r = nmmu_translate(m, va2, 0);
  CHECK(r.page_2m == 1 && r.user == 1 && r.writable == 1, "2m flags");
  expect(m, va2 + 0x200000, 0, NMMU_ST_NOT_PRESENT, 0, 3, "next 2m page: L2 not present");
  hb_flags(&b, va2, 2, W, 0);
  expect(m, va2 + 0x1000, 0, NMMU_ST_OK, 0x80001000ull, 3, "2m read-only, read");
  expect(m, va2 + 0x1000, 1, NMMU_ST_PERM, 0, 3, "2m read-only, write");
  hb_flags(&b, va2, 2, U, 0);
  expect(m, va2, 0, NMMU_ST_PERM, 0, 3, "2m U clear");
  hb_flags(&b, va2, 2, 0, U | W);
  hb_flags(&b, va2, 3, W, 0);
  expect(m, va2, 1, NMMU_ST_PERM, 0, 3, "2m page under a read-only L3 entry");
  hb_flags(&b, va2, 3, 0, W);
  nmmu_mem_free(m);

  /* high physical bits: tables and frames at PA >= 2^40 up to bit 51; ignored PTE bits set
   * (63:52 NX/available, 11:8, 6:3) */
  m = nmmu_mem_new();
  const uint64_t hroot = 0xFEDCBA9876000ull, ign = 0xFFF0000000000F78ull;
  nmmu_mem_set_root(m, hroot);
  hb_t hb = {m, 0x8000000001000ull};
  const uint64_t va3 = 0x0000FFFFFFFFF000ull;
  /* intermediate entries with the ignored bits set too */
  hb_set(&hb, va3, 1, 0xFFFFFFFFFF000ull | ign | PWU);
  for (int lv = 4; lv >= 2; lv--) hb_flags(&hb, va3, lv, 0, ign & ~PS);
  expect(m, va3 + 0xABC, 1, NMMU_ST_OK, 0xFFFFFFFFFFABCull, 4, "frame bits 51:12 all ones");
  hb_set(&hb, va3 - 0x1000, 1, 0x0000123456789000ull | ign | PWU);
  expect(m, va3 - 0x1000 + 0x5, 0, NMMU_ST_OK, 0x0000123456789005ull, 4, "frame at 2^40+");
  CHECK(nmmu_mem_read(m, hroot + 8 * 511) >> 52 == 0xFFF, "root entry has bits 63:52 set");
  const uint64_t va4 = 0x0000800000000000ull - 0x200000ull; /* top 2 MB of the lower half */
  hb_set(&hb, va4, 2, 0xFFFFFFFE00000ull | ign | PWU | PS);
  expect(m, va4 + 0x12345, 0, NMMU_ST_OK, 0xFFFFFFFE12345ull, 3, "2m frame bits 51:21 all ones");
  nmmu_mem_free(m);
}

/* ================================================================ image files */
static void test_image_roundtrip(void) {
  nmmu_mem_t *m = nmmu_mem_new();
  cutil_rng_t s = cutil_rng_seed(7);
  nmmu_mem_set_root(m, 0x00ABC00000000ull);
  enum { N = 50000 };
  uint64_t *pa = malloc(N * sizeof(uint64_t)), *val = malloc(N * sizeof(uint64_t));
  for (int i = 0; i < N; i++) {
    pa[i] = (cutil_rng_next(&s) & (NMMU_PTE_FRAME | 0xFF8)); /* may repeat: last write wins */
    val[i] = cutil_rng_next(&s) | 1;
    nmmu_mem_write(m, pa[i], val[i]);
  }
  nmmu_mem_write(m, 0xFFFFFFFFFFFF8ull, UINT64_MAX);
  nmmu_mem_write(m, 0, 1);
  nmmu_mem_write(m, 0x10, 5);
  nmmu_mem_write(m, 0x10, 0); /* a cleared word is not saved */
  char p1[1024];
  snprintf(p1, sizeof p1, "%s", tmp_path("test_neummu_rt1.img"));
  CHECK(nmmu_mem_save(m, p1) == 0, "save");
  char err[256] = "";
  nmmu_mem_t *m2 = nmmu_mem_load(p1, err, sizeof err);
  CHECK(m2 != NULL, "load saved image: %s", err);
  if (m2) {
    CHECK(nmmu_mem_root(m2) == nmmu_mem_root(m), "root round trip");
    CHECK(nmmu_mem_words(m2) == nmmu_mem_words(m), "word count round trip %zu vs %zu",
          nmmu_mem_words(m2), nmmu_mem_words(m));
    int bad = 0;
    for (int i = 0; i < N; i++)
      if (nmmu_mem_read(m2, pa[i]) != nmmu_mem_read(m, pa[i])) bad++;
    CHECK(bad == 0, "every word round trips (%d wrong)", bad);
    CHECK(nmmu_mem_read(m2, 0xFFFFFFFFFFFF8ull) == UINT64_MAX && nmmu_mem_read(m2, 0) == 1 &&
              nmmu_mem_read(m2, 0x10) == 0,
          "edge words");
    const char *p2 = tmp_path("test_neummu_rt2.img");
    CHECK(nmmu_mem_save(m2, p2) == 0, "save again");
    FILE *a = fopen(p1, "rb"), *c = fopen(p2, "rb");
    int same = a && c;
    while (same) {
      int x = getc(a), y = getc(c);
      if (x != y) same = 0;
      if (x == EOF) break;
    }
    if (a) fclose(a);
    if (c) fclose(c);
    CHECK(same, "save(load(save(m))) is byte-identical to save(m)");
    /* ascending order in the file */
    FILE *f = fopen(p1, "r");
    char line[256];
    uint64_t last = 0;
    int first = 1, sorted = 1, nw = 0;
    while (f && fgets(line, sizeof line, f)) {
      unsigned long long x, y;
      if (sscanf(line, "%llx %llx", &x, &y) == 2 && line[0] != 'r' && line[0] != 'n') {
        if (!first && x <= last) sorted = 0;
        last = x;
        first = 0;
        nw++;
      }
    }
    if (f) fclose(f);
    CHECK(sorted && (size_t)nw == nmmu_mem_words(m), "words listed in ascending order (%d)", nw);
  }
  CHECK(nmmu_mem_save(m, "/nonexistent-dir/x.img") == -1, "save to a bad path fails");
  nmmu_mem_free(m2);
  nmmu_mem_free(m);
  free(pa);
  free(val);
}

static void bad_image(const char *name, const char *text, size_t len, const char *want_line,
                      const char *want_word) {
  const char *p = tmp_path("test_neummu_bad.img");
  write_file(p, text, len);
  char err[256] = "";
  nmmu_mem_t *m = nmmu_mem_load(p, err, sizeof err);
  CHECK(m == NULL, "%s: refused", name);
  nmmu_mem_free(m);
  CHECK(strstr(err, want_line) && strstr(err, want_word) && !strchr(err, '\n'),
        "%s: one-line reason with '%s' and '%s': got '%s'", name, want_line, want_word, err);
}
#define BAD(name, text, line, word) bad_image(name, text, sizeof(text) - 1, line, word)

static void test_image_errors(void) {
  BAD("empty file", "", "bad.img: ", "header");
  BAD("only comments", "# nothing\n\n   \n", "bad.img: ", "header");
  BAD("missing header", "root 1000\n1000 3\n", ":1:", "header");
  BAD("header after data", "# c\n1000 3\nnmmu-image 1\n", ":2:", "header");
  BAD("version 3", "nmmu-image 3\nroot 1000\n", ":1:", "header");
  BAD("version 1 (no end line)", "nmmu-image 1\nroot 1000\n1000 3\n", ":1:", "version 1 has no 'end' line");
  BAD("header extra token", "nmmu-image 2 x\nroot 1000\n", ":1:", "header");
  BAD("second header", "nmmu-image 2\nroot 1000\nnmmu-image 1\n", ":3:", "header");
  BAD("missing root", "nmmu-image 2\n1000 3\n2000 4\n", "bad.img: ", "root");
  BAD("duplicate root", "nmmu-image 2\nroot 1000\n1000 3\nroot 2000\n", ":4:", "root");
  BAD("unaligned root", "nmmu-image 2\nroot 1008\n", ":2:", "aligned");
  BAD("root past 2^52", "nmmu-image 2\nroot 10000000000000\n", ":2:", "2^52");
  BAD("root without value", "nmmu-image 2\nroot\n", ":2:", "root");
  BAD("bad hex address", "nmmu-image 2\nroot 1000\n10g0 3\n", ":3:", "hex");
  BAD("bad hex value", "nmmu-image 2\nroot 1000\n1000 0x12z\n", ":3:", "hex");
  BAD("bare 0x", "nmmu-image 2\nroot 1000\n0x 5\n", ":3:", "hex");
  BAD("negative", "nmmu-image 2\nroot 1000\n-1000 5\n", ":3:", "hex");
  BAD("value over 64 bits", "nmmu-image 2\nroot 1000\n1000 10000000000000000\n", ":3:", "hex");
  BAD("one token", "nmmu-image 2\nroot 1000\n1000\n", ":3:", "hex");
  BAD("three tokens", "nmmu-image 2\nroot 1000\n1000 1 2\n", ":3:", "hex");
  BAD("unaligned address", "nmmu-image 2\nroot 1000\n1004 3\n", ":3:", "aligned");
  BAD("address at 2^52", "nmmu-image 2\nroot 1000\n10000000000000 3\n", ":3:", "2^52");
  BAD("duplicate address", "nmmu-image 2\nroot 1000\n1000 3\n2000 3\n0x1000 4\n", ":5:",
      "duplicate");
  BAD("duplicate address with value 0", "nmmu-image 2\nroot 1000\n1000 0\n1000 0\n", ":4:",
      "duplicate");
  BAD("garbage text", "nmmu-image 2\nroot 1000\nhello world\n", ":3:", "hex");
  BAD("binary garbage", "nmmu-image 2\nroot 1000\n\x7f" "ELF\x02\x01\x00\x00\n", ":3:", "binary");
  BAD("NUL in header line", "nmmu-image\0 1\n", ":1:", "binary");
  char longl[3000];
  memset(longl, '0', sizeof longl);
  memcpy(longl, "nmmu-image 2\nroot 1000\n", 23);
  longl[sizeof longl - 1] = '\n';
  bad_image("overlong line", longl, sizeof longl, ":3:", "long");
  char err[256] = "";
  CHECK(nmmu_mem_load(tmp_path("no_such_file.img"), err, sizeof err) == NULL &&
            strstr(err, "no_such_file.img") && strstr(err, "cannot open"),
        "missing file refused: '%s'", err);

  /* the end line: the word count and the checksum (neummu.h), computed here from the words */
  const uint64_t sum = cutil_mix64(1 ^ cutil_mix64(0x2000)) + cutil_mix64(0x1000 ^ cutil_mix64(0xABCDEF)) +
                       cutil_mix64(0x2008 ^ cutil_mix64(0x12)) + cutil_mix64(0x3000 ^ cutil_mix64(0));
  const char body[] = "nmmu-image 2\nroot 2000\n1000 abcdef\n2008 12\n3000 0\n";
  char img[512];
  snprintf(img, sizeof img, "%send 3 %llx\n", body, (unsigned long long)sum);
  BAD("truncated (no end line)", body, "bad.img: ", "truncated: no 'end' line after 5 lines (3 words read)");
  snprintf(img, sizeof img, "%send 2 %llx\n", body, (unsigned long long)sum);
  bad_image("end: wrong count", img, strlen(img), ":6:", "'end' counts 2 words, the image has 3");
  snprintf(img, sizeof img, "%send 3 %llx\n", body, (unsigned long long)(sum + 1));
  bad_image("end: wrong checksum", img, strlen(img), ":6:", "does not match the image");
  snprintf(img, sizeof img, "nmmu-image 2\nroot 2000\n1000 abcdef\n2008 13\n3000 0\nend 3 %llx\n",
           (unsigned long long)sum);
  bad_image("end: a damaged word", img, strlen(img), ":6:", "does not match the image");
  snprintf(img, sizeof img, "%send 3 %llx\n4000 1\n", body, (unsigned long long)sum);
  bad_image("data after end", img, strlen(img), ":7:", "data after the 'end' line (line 6)");
  BAD("end without fields", "nmmu-image 2\nroot 1000\nend\n", ":3:", "expected 'end <words> <hex checksum>'");

  /* accepted variants: comments, blanks, CRLF, tabs, 0x prefixes, upper case, no last newline */
  char ok[512];
  snprintf(ok, sizeof ok, "# image\r\n\r\nnmmu-image 2 # header\r\n\troot\t0X2000\r\n"
                          "0x1000 0xABCDEF\r\n 2008   12  # c\n00000000000000000000000003000 0\n"
                          "end 3 0X%llX",
           (unsigned long long)sum);
  const char *p = tmp_path("test_neummu_ok.img");
  write_file(p, ok, strlen(ok));
  nmmu_mem_t *m = nmmu_mem_load(p, err, sizeof err);
  CHECK(m != NULL, "variant image accepted: %s", err);
  if (m) {
    CHECK(nmmu_mem_root(m) == 0x2000 && nmmu_mem_read(m, 0x1000) == 0xABCDEF &&
              nmmu_mem_read(m, 0x2008) == 0x12 && nmmu_mem_words(m) == 2,
          "variant image contents");
    nmmu_mem_free(m);
  }
}

/* ================================================================ layouts */
static void layout_err(const char *line, const char *word) {
  nmmu_layout_t l;
  nmmu_layout_init(&l);
  char err[256] = "";
  int rc = nmmu_layout_parse_line(&l, line, err, sizeof err);
  CHECK(rc == -1 && strstr(err, word) && l.nsegs == 0 && l.nholes == 0,
        "'%s' refused with '%s': rc %d '%s'", line, word, rc, err);
  nmmu_layout_free(&l);
}

static int check_layout(const char *const *lines, int n, char *err, size_t errlen) {
  nmmu_layout_t l;
  nmmu_layout_init(&l);
  for (int i = 0; i < n; i++)
    if (nmmu_layout_parse_line(&l, lines[i], err, errlen) != 1) {
      nmmu_layout_free(&l);
      return -2;
    }
  int rc = nmmu_layout_check(&l, err, errlen);
  nmmu_layout_free(&l);
  return rc;
}

static void test_layout(void) {
  nmmu_layout_t l;
  nmmu_layout_init(&l);
  char err[256] = "";
  CHECK(nmmu_layout_parse_line(&l, "seg ia 0x10000000 100000 4k rw\n", err, sizeof err) == 1,
        "seg line: %s", err);
  CHECK(nmmu_layout_parse_line(&l, "  seg\tW 40000000 0x400000 2m ro  # weights", err,
                               sizeof err) == 1,
        "seg line with tabs, hex size, comment: %s", err);
  CHECK(nmmu_layout_parse_line(&l, "hole 0x10004000 8192", err, sizeof err) == 1, "hole: %s", err);
  CHECK(l.nsegs == 2 && l.nholes == 1, "counts");
  if (l.nsegs != 2 || l.nholes != 1) {
    nmmu_layout_free(&l);
    return;
  }
  CHECK(!strcmp(l.segs[0].name, "ia") && l.segs[0].va == 0x10000000 && l.segs[0].bytes == 100000 &&
            !l.segs[0].page_2m && !l.segs[0].read_only,
        "seg 0 fields");
  CHECK(!strcmp(l.segs[1].name, "W") && l.segs[1].va == 0x40000000 &&
            l.segs[1].bytes == 0x400000 && l.segs[1].page_2m && l.segs[1].read_only,
        "seg 1 fields");
  CHECK(l.holes[0].va == 0x10004000 && l.holes[0].bytes == 8192, "hole fields");
  CHECK(nmmu_seg_span(&l.segs[0]) == 102400, "100000 bytes span 25 4 KB pages");
  CHECK(nmmu_layout_check(&l, err, sizeof err) == 0, "valid layout: %s", err);
  /* lines that are not layout lines */
  CHECK(nmmu_layout_parse_line(&l, "", err, sizeof err) == 0, "blank");
  CHECK(nmmu_layout_parse_line(&l, "# seg x 1000 1 4k rw", err, sizeof err) == 0, "comment");
  CHECK(nmmu_layout_parse_line(&l, "layer conv1 1", err, sizeof err) == 0, "layer line");
  CHECK(nmmu_layout_parse_line(&l, "segment x", err, sizeof err) == 0, "other keyword");
  CHECK(l.nsegs == 2 && l.nholes == 1, "nothing added");
  nmmu_layout_free(&l);
  CHECK(l.segs == NULL && l.nsegs == 0, "free resets");

  layout_err("seg a 1000 4096 4k", "expected");
  layout_err("seg a 1000 4096 4k rw extra", "expected");
  layout_err("seg a 10g0 4096 4k rw", "hex");
  layout_err("seg a 1000 12x 4k rw", "size");
  layout_err("seg a 1000 -5 4k rw", "size");
  layout_err("seg a 1000 0 4k rw", "0");
  layout_err("seg a 1000 4096 8k rw", "4k or 2m");
  layout_err("seg a 1000 4096 4k rx", "rw or ro");
  layout_err("seg a 1800 4096 4k rw", "aligned");
  layout_err("seg a 1000 4096 2m rw", "aligned");
  layout_err("seg aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1000 4096 4k rw", "longer");
  layout_err("seg a 1000000000000 4096 4k rw", "48-bit");
  layout_err("seg a FFFFFFFFF000 8192 4k rw", "48-bit");
  layout_err("seg a FFFFFFFFF000 99999999999999999999 4k rw", "size");
  layout_err("hole 1000", "expected");
  layout_err("hole 1000 4096 x", "expected");
  layout_err("hole 1800 4096", "4 KB");
  layout_err("hole 1000 100", "4 KB");
  layout_err("hole 1000 0", "0");
  layout_err("hole zz 4096", "hex");
  {
    char longl[1200];
    memset(longl, ' ', sizeof longl);
    memcpy(longl, "seg a", 5);
    longl[sizeof longl - 1] = 0;
    layout_err(longl, "long");
    memcpy(longl, "tile ", 5);
    nmmu_layout_init(&l);
    CHECK(nmmu_layout_parse_line(&l, longl, err, sizeof err) == 0, "long non-layout line: 0");
    nmmu_layout_free(&l);
  }

  /* checks */
  const char *ok1[] = {"seg a 0 4096 4k rw", "seg b 1000 0x1 4k ro", "seg c 200000 0x200000 2m rw"};
  CHECK(check_layout(ok1, 3, err, sizeof err) == 0, "adjacent segments: %s", err);
  const char *ov1[] = {"seg a 0 4097 4k rw", "seg b 1000 0x1 4k ro"};
  CHECK(check_layout(ov1, 2, err, sizeof err) == -1 && strstr(err, "overlap") &&
            strstr(err, "a") && strstr(err, "b"),
        "overlap by rounding: '%s'", err);
  const char *ov2[] = {"seg big 200000 0x1 2m rw", "seg small 3ff000 4096 4k rw"};
  CHECK(check_layout(ov2, 2, err, sizeof err) == -1 && strstr(err, "overlap"),
        "a 4 KB segment inside a 2 MB page: '%s'", err);
  const char *ov3[] = {"seg z 50000000 0x10000 4k rw", "seg y 10000000 0x80000000 4k rw"};
  CHECK(check_layout(ov3, 2, err, sizeof err) == -1 && strstr(err, "overlap"),
        "out-of-order containing segment: '%s'", err);
  const char *h1[] = {"seg a 10000 0x10000 4k rw", "hole 10000 0x10000"};
  CHECK(check_layout(h1, 2, err, sizeof err) == 0, "hole covering a whole segment: %s", err);
  const char *h2[] = {"seg a 10000 0x10000 4k rw", "hole f000 0x2000"};
  CHECK(check_layout(h2, 2, err, sizeof err) == -1 && strstr(err, "inside"),
        "hole starting before its segment: '%s'", err);
  const char *h3[] = {"seg a 10000 0x10000 4k rw", "seg b 20000 0x10000 4k rw", "hole 1f000 0x2000"};
  CHECK(check_layout(h3, 3, err, sizeof err) == -1 && strstr(err, "inside"),
        "hole across two segments: '%s'", err);
  const char *h4[] = {"seg a 10000 0x10000 4k rw", "hole 30000 0x1000"};
  CHECK(check_layout(h4, 2, err, sizeof err) == -1 && strstr(err, "inside"),
        "hole outside every segment: '%s'", err);
  const char *h5[] = {"seg a 200000 0x800000 2m rw", "hole 201000 0x1000"};
  CHECK(check_layout(h5, 2, err, sizeof err) == -1 && strstr(err, "2 MB"),
        "4 KB hole in a 2 MB segment: '%s'", err);
  const char *h6[] = {"seg a 200000 0x800000 2m rw", "hole 400000 0x400000"};
  CHECK(check_layout(h6, 2, err, sizeof err) == 0, "2 MB hole in a 2 MB segment: %s", err);
  const char *h7[] = {"seg a 10000 0x1 4k rw", "hole 10000 0x1000"};
  CHECK(check_layout(h7, 2, err, sizeof err) == 0, "hole in the rounded-up page: %s", err);

  /* hand-built layouts go through the same checks */
  nmmu_seg_t segs[2] = {{"x", 0x1800, 4096, 0, 0}, {"y", 0x400000, 4096, 1, 0}};
  nmmu_layout_t hl = {segs, 1, NULL, 0};
  CHECK(nmmu_layout_check(&hl, err, sizeof err) == -1 && strstr(err, "aligned"),
        "misaligned hand-built 4k segment: '%s'", err);
  segs[0].va = 0x1000;
  segs[1].va = 0x300000;
  hl.nsegs = 2;
  CHECK(nmmu_layout_check(&hl, err, sizeof err) == -1 && strstr(err, "aligned"),
        "misaligned hand-built 2m segment: '%s'", err);
  segs[1].va = 0x400000;
  segs[1].bytes = 0;
  CHECK(nmmu_layout_check(&hl, err, sizeof err) == -1, "empty hand-built segment");
  segs[1].bytes = 1;
  CHECK(nmmu_layout_check(&hl, err, sizeof err) == 0, "fixed hand-built layout: %s", err);
}

/* ================================================================ builder */
typedef struct {
  uint64_t va, pa;
  int page_2m, ro;
} map_t;

typedef struct {
  map_t *v;
  size_t n, cap;
} maps_t;

static void on_map(void *ctx, uint64_t va, uint64_t pa, int page_2m, int ro) {
  maps_t *ms = ctx;
  if (ms->n == ms->cap) {
    ms->cap = ms->cap ? ms->cap * 2 : 1024;
    ms->v = realloc(ms->v, ms->cap * sizeof(map_t));
    if (!ms->v) exit(1);
  }
  ms->v[ms->n++] = (map_t){va, pa, page_2m, ro};
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static const char *const build_layout[] = {
    "seg ia   0x0000100000000000 33554432 4k rw", /* 8192 pages */
    "hole     0x0000100000400000 1048576",        /* 256 pages */
    "hole     0x0000100000480000 1048576",        /* overlaps the one above */
    "seg w    0x0000100080000000 100000000 4k ro", /* 24415 pages */
    "seg out  0x00007fffff000000 16777216 4k rw", /* 4096 pages, top of the lower half */
    "seg emb  0x0000200000000000 0x8000000 2m rw", /* 64 x 2 MB */
    "hole     0x0000200000600000 0x400000",
    "seg embr 0x0000300000000000 3 2m ro",        /* 1 x 2 MB */
    "seg tiny 0x0000000000001000 1 4k rw",        /* page 1: L4 index 0 */
    "seg far  0x0000000040000000 20000000 4k rw", /* 4883 pages */
    "hole     0x0000000040001000 4096",
};
#define NBUILD (sizeof build_layout / sizeof build_layout[0])

static void parse_all(nmmu_layout_t *l, const char *const *lines, size_t n) {
  nmmu_layout_init(l);
  char err[256];
  for (size_t i = 0; i < n; i++)
    if (nmmu_layout_parse_line(l, lines[i], err, sizeof err) != 1) {
      printf("bad test layout line '%s': %s\n", lines[i], err);
      exit(1);
    }
}

/* Segment holding va in l (by the test's own scan), or NULL; *in_hole when a hole covers it. */
static const nmmu_seg_t *find_seg(const nmmu_layout_t *l, uint64_t va, int *in_hole) {
  *in_hole = 0;
  for (size_t i = 0; i < l->nsegs; i++) {
    const nmmu_seg_t *s = &l->segs[i];
    uint64_t ps = s->page_2m ? 0x200000 : 0x1000;
    uint64_t end = s->va + (s->bytes + ps - 1) / ps * ps;
    if (va >= s->va && va < end) {
      for (size_t j = 0; j < l->nholes; j++)
        if (va >= l->holes[j].va && va < l->holes[j].va + l->holes[j].bytes) *in_hole = 1;
      return s;
    }
  }
  return NULL;
}

static void test_build(void) {
  nmmu_layout_t l;
  parse_all(&l, build_layout, NBUILD);
  char err[256] = "";
  CHECK(nmmu_layout_check(&l, err, sizeof err) == 0, "builder layout valid: %s", err);

  for (int scatter = 0; scatter <= 1; scatter++) {
    nmmu_build_cfg_t c;
    nmmu_build_cfg_init(&c);
    CHECK(c.pt_base == 0x1000 && c.data_base == (1ull << 40) && c.page == -1 && !c.scatter,
          "defaults");
    c.scatter = scatter;
    c.seed = 12345;
    c.data_base = 0x00ABCDE0001000ull; /* not 2 MB aligned: 2 MB frames start at the next one */
    maps_t ms = {NULL, 0, 0};
    c.on_map = on_map;
    c.ctx = &ms;
    nmmu_mem_t *m = nmmu_mem_new();
    nmmu_build_stats_t st;
    int rc = nmmu_build(m, &l, &c, &st, err, sizeof err);
    CHECK(rc == 0, "build (scatter %d): %s", scatter, err);
    if (rc) {
      nmmu_mem_free(m);
      free(ms.v);
      continue;
    }
    /* expected counts from the layout comments */
    const uint64_t n4 = (8192 - 384) + 24415 + 4096 + 1 + (4883 - 1), n2 = (64 - 2) + 1;
    CHECK(st.pages_4k == n4 && st.pages_2m == n2, "pages %llu 4k %llu 2m, want %llu %llu",
          (ull)st.pages_4k, (ull)st.pages_2m, (ull)n4, (ull)n2);
    CHECK(st.hole_pages == 384 + 2 + 1, "hole pages %llu", (ull)st.hole_pages);
    CHECK(ms.n == n4 + n2, "one callback per page");
    CHECK(st.root == 0x1000 && nmmu_mem_root(m) == 0x1000, "root at pt-base");
    CHECK(st.pt_end == st.root + st.table_pages * 0x1000, "tables contiguous");
    CHECK(st.data_lo == 0x00ABCDE0200000ull, "2 MB frames from the next 2 MB boundary (0x%llx)",
          (ull)st.data_lo);
    CHECK(st.data_end == st.data_lo + n2 * 0x200000 + n4 * 0x1000, "data end");
    /* table count from the distinct L4/L3/L2 prefixes of the mapped pages */
    {
      uint64_t *k = malloc(ms.n * sizeof(uint64_t) * 3);
      size_t nk[3] = {0, 0, 0};
      for (size_t i = 0; i < ms.n; i++) {
        k[nk[0]++] = ms.v[i].va >> 39;
        k[ms.n + nk[1]++] = ms.v[i].va >> 30;
        if (!ms.v[i].page_2m) k[2 * ms.n + nk[2]++] = ms.v[i].va >> 21;
      }
      uint64_t tables = 1;
      for (int j = 0; j < 3; j++) {
        uint64_t *a = k + j * ms.n;
        qsort(a, nk[j], sizeof(uint64_t), cmp_u64);
        for (size_t i = 0; i < nk[j]; i++)
          if (i == 0 || a[i] != a[i - 1]) tables++;
      }
      CHECK(st.table_pages == tables, "table pages %llu, want %llu (one per distinct prefix)",
            (ull)st.table_pages, (ull)tables);
      free(k);
    }
    /* frames: distinct, aligned, inside the data range; contiguous in VA order unless scattered */
    uint64_t *f = malloc(ms.n * sizeof(uint64_t));
    int order_ok = 1, align_ok = 1, range_ok = 1;
    uint64_t k4 = 0, k2 = 0, inorder = 0;
    for (size_t i = 0; i < ms.n; i++) {
      const map_t *mp = &ms.v[i];
      uint64_t ps = mp->page_2m ? 0x200000 : 0x1000;
      f[i] = mp->pa;
      if (mp->pa & (ps - 1)) align_ok = 0;
      if (mp->pa < st.data_lo || mp->pa + ps > st.data_end) range_ok = 0;
      if (mp->page_2m != (mp->va >= 0x0000200000000000ull && mp->va < 0x0000300000200000ull))
        range_ok = 0;
      uint64_t want = mp->page_2m ? st.data_lo + 0x200000 * k2++
                                  : st.data_lo + n2 * 0x200000 + 0x1000 * k4++;
      if (mp->pa == want) inorder++;
      if (i && mp->va <= ms.v[i - 1].va) order_ok = 0;
    }
    qsort(f, ms.n, sizeof(uint64_t), cmp_u64);
    int distinct = 1;
    for (size_t i = 1; i < ms.n; i++)
      if (f[i] == f[i - 1]) distinct = 0;
    free(f);
    CHECK(order_ok, "pages reported in ascending VA order");
    CHECK(align_ok && range_ok, "frames aligned, in range, right size");
    CHECK(distinct, "frames distinct");
    if (!scatter)
      CHECK(inorder == ms.n, "contiguous frames in VA order (%llu of %zu)", (ull)inorder, ms.n);
    else
      CHECK(inorder < ms.n / 100, "scattered frames (%llu of %zu in order)", (ull)inorder, ms.n);
    /* every nonzero word lies in the tables */
    CHECK(nmmu_mem_words(m) == ms.n + st.table_pages - 1, "words: one leaf per page and one "
          "entry per table below the root (%zu)", nmmu_mem_words(m));

    /* translate every mapped page: a random offset, read and write */
    cutil_rng_t s = cutil_rng_seed(99 + (uint64_t)scatter);
    uint64_t nx = 0, bad = 0;
    for (size_t i = 0; i < ms.n; i++) {
      const map_t *mp = &ms.v[i];
      uint64_t ps = mp->page_2m ? 0x200000 : 0x1000, off = cutil_rng_below(&s, ps);
      nmmu_xlat_t r = nmmu_translate(m, mp->va + off, 0);
      nmmu_xlat_t w = nmmu_translate(m, mp->va + off, 1);
      nx += 2;
      int lv = mp->page_2m ? 3 : 4;
      if (r.status != NMMU_ST_OK || r.pa != mp->pa + off || r.levels != lv ||
          r.page_2m != mp->page_2m || r.user != 1 || r.writable != !mp->ro ||
          w.status != (mp->ro ? NMMU_ST_PERM : NMMU_ST_OK) ||
          w.pa != (mp->ro ? 0 : mp->pa + off)) {
        if (bad++ < 5)
          printf("  va 0x%llx: read %d 0x%llx, write %d 0x%llx, want 0x%llx ro %d\n",
                 (ull)(mp->va + off), r.status, (ull)r.pa, w.status, (ull)w.pa,
                 (ull)(mp->pa + off), mp->ro);
      }
    }
    /* hole pages and random VAs: the layout says whether each is mapped */
    for (size_t i = 0; i < l.nholes; i++)
      for (uint64_t va = l.holes[i].va; va < l.holes[i].va + l.holes[i].bytes; va += 0x1000) {
        nmmu_xlat_t r = nmmu_translate(m, va, (int)(va >> 12) & 1);
        nx++;
        if (r.status != NMMU_ST_NOT_PRESENT || r.pa != 0) bad++;
      }
    uint64_t nmapped = 0;
    for (int i = 0; i < 100000; i++) {
      /* half near the segments, half anywhere */
      uint64_t va = cutil_rng_next(&s) & 0xFFFFFFFFFFFFull;
      if (i & 1) {
        const nmmu_seg_t *sg = &l.segs[cutil_rng_below(&s, l.nsegs)];
        va = sg->va - 0x100000 + cutil_rng_below(&s, sg->bytes + 0x200000);
        va &= 0xFFFFFFFFFFFFull;
      }
      int hole;
      const nmmu_seg_t *sg = find_seg(&l, va, &hole);
      nmmu_xlat_t r = nmmu_translate(m, va, i & 2);
      nx++;
      if (!sg || hole) {
        if (r.status != NMMU_ST_NOT_PRESENT || r.pa != 0) bad++;
      } else {
        nmapped++;
        int want = (i & 2) && sg->read_only ? NMMU_ST_PERM : NMMU_ST_OK;
        if (r.status != want || r.page_2m != sg->page_2m) bad++;
      }
    }
    CHECK(bad == 0 && nx >= 100000 && nmapped > 20000,
          "%llu translations of the built tables (%llu random hits), %llu wrong", (ull)nx,
          (ull)nmapped, (ull)bad);

    /* same seed, same image; another seed, other frames */
    if (scatter) {
      nmmu_mem_t *m2 = nmmu_mem_new(), *m3 = nmmu_mem_new();
      nmmu_build_cfg_t c2 = c;
      c2.on_map = NULL;
      CHECK(nmmu_build(m2, &l, &c2, NULL, err, sizeof err) == 0, "rebuild");
      c2.seed = 54321;
      CHECK(nmmu_build(m3, &l, &c2, NULL, err, sizeof err) == 0, "build seed 2");
      uint64_t same2 = 0, same3 = 0;
      for (size_t i = 0; i < ms.n; i++) {
        if (nmmu_translate(m2, ms.v[i].va, 0).pa == ms.v[i].pa) same2++;
        if (nmmu_translate(m3, ms.v[i].va, 0).pa == ms.v[i].pa) same3++;
      }
      CHECK(same2 == ms.n && nmmu_mem_words(m2) == nmmu_mem_words(m), "deterministic per seed");
      CHECK(same3 < ms.n / 100, "another seed scatters differently (%llu same)", (ull)same3);
      nmmu_mem_free(m2);
      nmmu_mem_free(m3);
    }
    free(ms.v);
    nmmu_mem_free(m);
  }

  /* page override */
  {
    const char *lines[] = {"seg a 0x40000000 0x300000 4k rw", "seg b 0x80000000 0x200000 2m ro",
                           "hole 0x80000000 0x200000"};
    nmmu_layout_t lo;
    parse_all(&lo, lines, 3);
    nmmu_build_cfg_t c;
    nmmu_build_cfg_init(&c);
    nmmu_build_stats_t st;
    nmmu_mem_t *m = nmmu_mem_new();
    c.page = 1;
    CHECK(nmmu_build(m, &lo, &c, &st, err, sizeof err) == 0 && st.pages_2m == 2 &&
              st.pages_4k == 0 && st.hole_pages == 1,
          "--page 2m: %s", err);
    nmmu_xlat_t r = nmmu_translate(m, 0x40234567, 1);
    CHECK(r.status == NMMU_ST_OK && r.page_2m && r.pa == (1ull << 40) + 0x200000 + 0x34567,
          "2m override translation 0x%llx", (ull)r.pa);
    nmmu_mem_free(m);
    m = nmmu_mem_new();
    c.page = 0;
    CHECK(nmmu_build(m, &lo, &c, &st, err, sizeof err) == 0 && st.pages_2m == 0 &&
              st.pages_4k == 768 && st.hole_pages == 512,
          "--page 4k: %s", err);
    r = nmmu_translate(m, 0x402FF001, 0);
    CHECK(r.status == NMMU_ST_OK && !r.page_2m && r.pa == (1ull << 40) + 767 * 0x1000 + 1,
          "4k override translation");
    nmmu_mem_free(m);
    m = nmmu_mem_new();
    lo.segs[0].va = 0x40001000;
    c.page = 1;
    CHECK(nmmu_build(m, &lo, &c, &st, err, sizeof err) == -1 && strstr(err, "aligned"),
          "--page 2m on a 4 KB aligned segment refused: '%s'", err);
    nmmu_mem_free(m);
    nmmu_layout_free(&lo);
  }

  /* refusals */
  {
    nmmu_build_cfg_t c;
    nmmu_mem_t *m;
#define BUILD_FAILS(setup, word, what)                                                      \
  do {                                                                                      \
    nmmu_build_cfg_init(&c);                                                                \
    setup;                                                                                  \
    m = nmmu_mem_new();                                                                     \
    CHECK(nmmu_build(m, &l, &c, NULL, err, sizeof err) == -1 && strstr(err, word), "%s: '%s'", \
          what, err);                                                                       \
    nmmu_mem_free(m);                                                                       \
  } while (0)
    BUILD_FAILS(c.pt_base = 0x1800, "aligned", "misaligned pt-base");
    BUILD_FAILS(c.data_base = 0x100000000001ull, "aligned", "misaligned data-base");
    BUILD_FAILS(c.pt_base = 1ull << 52, "2^52", "pt-base at 2^52");
    BUILD_FAILS(c.data_base = (1ull << 52) - 0x1000, "2^52", "frames past 2^52");
    BUILD_FAILS((c.pt_base = 0x1C0000, c.data_base = 0x200000), "overlap", "tables run into data");
    BUILD_FAILS(c.pt_base = (1ull << 40) + 0x100000, "overlap", "tables inside data");
    BUILD_FAILS(c.pt_base = (1ull << 52) - 0x4000, "2^52", "tables past 2^52");
    nmmu_layout_t empty;
    nmmu_layout_init(&empty);
    nmmu_build_cfg_init(&c);
    m = nmmu_mem_new();
    CHECK(nmmu_build(m, &empty, &c, NULL, err, sizeof err) == -1 && strstr(err, "no segment"),
          "empty layout: '%s'", err);
    nmmu_mem_free(m);
    const char *huge[] = {"seg h 0 0x400000000000 4k rw"};
    nmmu_layout_t lh;
    parse_all(&lh, huge, 1);
    m = nmmu_mem_new();
    CHECK(nmmu_build(m, &lh, &c, NULL, err, sizeof err) == -1 && strstr(err, "limit"),
          "too many pages: '%s'", err);
    nmmu_mem_free(m);
    const char *huge_hole[] = {"seg h 0 0x400000000000 4k rw", "hole 0 0x3FFFFFFFF000"};
    nmmu_layout_free(&lh);
    parse_all(&lh, huge_hole, 2);
    m = nmmu_mem_new();
    nmmu_build_stats_t st;
    CHECK(nmmu_build(m, &lh, &c, &st, err, sizeof err) == 0 && st.pages_4k == 1 &&
              st.hole_pages == (0x400000000000ull >> 12) - 1,
          "64 TB segment with one page left by a hole builds quickly: %s", err);
    CHECK(nmmu_translate(m, 0x3FFFFFFFF123ull, 1).pa == (1ull << 40) + 0x123 &&
              nmmu_translate(m, 0x3FFFFFFFE123ull, 1).status == NMMU_ST_NOT_PRESENT,
          "its one page");
    nmmu_mem_free(m);
    nmmu_layout_free(&lh);
  }
  nmmu_layout_free(&l);
}

/* ================================================================ randomized walks
 * Random tables whose entries (random flags, PS at any level, ignored bits, not-present entries
 * with garbage) are drawn as a tree of the test's own nodes; an independent walker over that
 * tree gives the expected result of each query. */
typedef struct node {
  uint64_t e[512];
  struct node *child[512];
  uint64_t pa;
} node_t;

typedef struct {
  nmmu_mem_t *m;
  uint64_t next_pa;
  cutil_rng_t rng;
  node_t **all;
  size_t nall;
} rt_t;

static node_t *rt_node(rt_t *t) {
  node_t *n = calloc(1, sizeof(node_t));
  if (!n) exit(1);
  /* tables scattered over the 52-bit space (4 KB aligned, distinct by construction) */
  n->pa = t->next_pa;
  t->next_pa += 0x1000 * (1 + cutil_rng_below(&t->rng, 1ull << 28));
  t->all = realloc(t->all, (t->nall + 1) * sizeof(node_t *));
  t->all[t->nall++] = n;
  return n;
}

static uint64_t rt_flags(rt_t *t) {
  uint64_t f = 0, r = cutil_rng_below(&t->rng, 100);
  f |= r < 94 ? P : 0;
  f |= cutil_rng_below(&t->rng, 100) < 90 ? W : 0;
  f |= cutil_rng_below(&t->rng, 100) < 92 ? U : 0;
  f |= cutil_rng_next(&t->rng) & 0xFFF0000000000F78ull & ~PS; /* ignored bits */
  return f;
}

/* Sets the entry for va at each level of the path (if still unset), returns nothing. */
static void rt_add(rt_t *t, node_t *root, uint64_t va) {
  node_t *n = root;
  for (int lv = 4; lv >= 1; lv--) {
    unsigned i = idx(va, lv);
    if (n->e[i] == 0 && !n->child[i]) {
      uint64_t f = rt_flags(t);
      uint64_t frame = cutil_rng_next(&t->rng) & NMMU_PTE_FRAME;
      int kind = (int)cutil_rng_below(&t->rng, 100);
      if (lv == 1) {
        n->e[i] = frame | f | (kind < 30 ? PS : 0); /* PS = PAT at L1 */
      } else if (lv >= 3 && kind < 8) {
        n->e[i] = frame | f | PS | P; /* 1 GB / 512 GB page: unsupported */
      } else if (lv == 2 && kind < 35) {
        n->e[i] = frame | f | PS; /* 2 MB page */
      } else {
        node_t *c = rt_node(t);
        n->child[i] = c;
        n->e[i] = c->pa | f;
      }
      nmmu_mem_write(t->m, n->pa + 8ull * i, n->e[i]);
    }
    if (!n->child[i]) return;
    n = n->child[i];
  }
}

/* The independent walker. */
static nmmu_xlat_t rt_walk(const node_t *root, uint64_t va, int wr) {
  nmmu_xlat_t r;
  memset(&r, 0, sizeof r);
  r.status = NMMU_ST_NOT_PRESENT;
  const node_t *n = root;
  int w = 1, u = 1, lv = 4;
  uint64_t pa = 0;
  for (;; lv--) {
    unsigned i = idx(va & 0xFFFFFFFFFFFFull, lv);
    uint64_t e = n->e[i];
    r.levels++;
    if (!(e & 1)) return r;
    int ps = (e >> 7) & 1;
    if (ps && lv >= 3) return r;
    w = w && ((e >> 1) & 1);
    u = u && ((e >> 2) & 1);
    if (lv == 1) {
      pa = ((e >> 12) & ((1ull << 40) - 1)) << 12 | (va & 0xFFF);
      break;
    }
    if (lv == 2 && ps) {
      pa = ((e >> 21) & ((1ull << 31) - 1)) << 21 | (va & 0x1FFFFF);
      r.page_2m = 1;
      break;
    }
    n = n->child[i];
  }
  r.user = u;
  r.writable = w;
  if (u && (w || !wr)) {
    r.status = NMMU_ST_OK;
    r.pa = pa;
  } else {
    r.status = NMMU_ST_PERM;
  }
  return r;
}

static void test_random_walks(void) {
  rt_t t = {nmmu_mem_new(), 0x0000001000000000ull, cutil_rng_seed(2026), NULL, 0};
  node_t *root = rt_node(&t);
  nmmu_mem_set_root(t.m, root->pa);
  /* VAs drawn from small index pools so paths share tables */
  unsigned pool[4][6];
  for (int lv = 0; lv < 4; lv++)
    for (int k = 0; k < 6; k++) pool[lv][k] = (unsigned)cutil_rng_below(&t.rng, 512);
  pool[0][5] = 511; /* top of the VA space */
  cutil_rng_t s = cutil_rng_seed(77);
#define RVA()                                        \
  ((uint64_t)pool[0][cutil_rng_below(&s, 6)] << 39 | \
   (uint64_t)pool[1][cutil_rng_below(&s, 6)] << 30 | \
   (uint64_t)pool[2][cutil_rng_below(&s, 6)] << 21 | \
   (uint64_t)pool[3][cutil_rng_below(&s, 6)] << 12 | cutil_rng_below(&s, 4096))
  for (int i = 0; i < 3000; i++) rt_add(&t, root, RVA());
  CHECK(t.next_pa < (1ull << 52), "random tables below 2^52");
  uint64_t bad = 0, count[3] = {0, 0, 0}, n2m = 0, lv[5] = {0};
  for (int i = 0; i < 300000; i++) {
    uint64_t va =
        (i % 10 == 9) ? cutil_rng_next(&s) : RVA() | (cutil_rng_next(&s) & 0xFFFF000000000000ull);
    int wr = (int)(cutil_rng_next(&s) & 1);
    nmmu_xlat_t got = nmmu_translate(t.m, va, wr), want = rt_walk(root, va, wr);
    count[want.status]++;
    n2m += want.status == NMMU_ST_OK && want.page_2m;
    lv[want.levels]++;
    int same = got.status == want.status && got.pa == want.pa && got.levels == want.levels;
    if (want.status != NMMU_ST_NOT_PRESENT)
      same = same && got.page_2m == want.page_2m && got.user == want.user &&
             got.writable == want.writable;
    if (!same && bad++ < 5)
      printf("  va 0x%llx %s: got %d 0x%llx L%d, want %d 0x%llx L%d\n", (ull)va,
             wr ? "w" : "r", got.status, (ull)got.pa, got.levels, want.status, (ull)want.pa,
             want.levels);
  }
  CHECK(bad == 0, "300k random walks match the independent walker (%llu wrong)", (ull)bad);
  CHECK(count[0] > 30000 && count[1] > 30000 && count[2] > 10000 && n2m > 5000 && lv[1] &&
            lv[2] && lv[3] && lv[4],
        "random walks cover every outcome: ok %llu np %llu perm %llu 2m %llu",
        (ull)count[0], (ull)count[1], (ull)count[2], (ull)n2m);
  /* and through a saved image */
  const char *p = tmp_path("test_neummu_rand.img");
  CHECK(nmmu_mem_save(t.m, p) == 0, "save random tables");
  char err[256] = "";
  nmmu_mem_t *m2 = nmmu_mem_load(p, err, sizeof err);
  CHECK(m2 != NULL, "load random tables: %s", err);
  if (m2) {
    bad = 0;
    for (int i = 0; i < 50000; i++) {
      uint64_t va = RVA();
      nmmu_xlat_t a = nmmu_translate(t.m, va, i & 1), b = nmmu_translate(m2, va, i & 1);
      if (a.status != b.status || a.pa != b.pa || a.levels != b.levels) bad++;
    }
    CHECK(bad == 0, "loaded image translates the same (%llu wrong)", (ull)bad);
    nmmu_mem_free(m2);
  }
  for (size_t i = 0; i < t.nall; i++) free(t.all[i]);
  free(t.all);
  nmmu_mem_free(t.m);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* failures stay visible if a sanitizer aborts */
  const char *b = getenv("BUILD");
  snprintf(tmp_dir, sizeof tmp_dir, "%s", b && *b ? b : "build");
  test_mem();
  test_walk();
  test_image_roundtrip();
  test_image_errors();
  test_layout();
  test_build();
  test_random_walks();
  return CHECK_SUMMARY();
}
