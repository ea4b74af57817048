/* neummu.c -- golden model of the NeuMMU block (rtl/neummu): sparse physical memory image,
 * image file load/save, the x86-64 4-level walk, address-space layouts and the page-table
 * builder behind sw/neummu/nmmu_ptgen.  Every rule is documented in cmodel/include/neummu.h. */
#include "neummu.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PA_LIMIT (1ull << NMMU_PA_BITS)
#define VA_LIMIT (1ull << NMMU_VA_BITS)
#define SZ_4K 0x1000ull
#define SZ_2M 0x200000ull

static void seterr(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* ================================================================ sparse memory
 * Open addressing with linear probing over a power-of-two table of (key, value) slots; the key
 * is the word's PA (always < 2^52), EMPTY marks a free slot.  Words written with 0 keep their
 * slot (so a load can detect duplicate addresses); nonzero counts the words a save lists.  The
 * table grows (doubling) above 70% occupancy, so lookups stay a few probes at any size. */
#define EMPTY UINT64_MAX

typedef struct {
  uint64_t key, val;
} slot_t;

struct nmmu_mem {
  slot_t *slots;
  size_t cap; /* power of two */
  size_t used;
  size_t nonzero;
  uint64_t root;
};

static size_t hash_pa(uint64_t pa, size_t mask) {
  uint64_t x = pa >> 3; /* splitmix64 finalizer: page-table addresses are very regular */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return (size_t)x & mask;
}

static slot_t *alloc_slots(size_t cap) {
  slot_t *s = malloc(cap * sizeof(slot_t));
  if (!s) return NULL;
  for (size_t i = 0; i < cap; i++) s[i].key = EMPTY;
  return s;
}

nmmu_mem_t *nmmu_mem_new(void) {
  nmmu_mem_t *m = calloc(1, sizeof(*m));
  if (!m) return NULL;
  m->cap = 1024;
  m->slots = alloc_slots(m->cap);
  if (!m->slots) {
    free(m);
    return NULL;
  }
  return m;
}

void nmmu_mem_free(nmmu_mem_t *m) {
  if (!m) return;
  free(m->slots);
  free(m);
}

static void die(const char *fmt, uint64_t v) {
  fprintf(stderr, "neummu model: ");
  fprintf(stderr, fmt, (unsigned long long)v);
  fprintf(stderr, "\n");
  abort();
}

uint64_t nmmu_mem_root(const nmmu_mem_t *m) { return m->root; }

void nmmu_mem_set_root(nmmu_mem_t *m, uint64_t root_pa) {
  if ((root_pa & (SZ_4K - 1)) || root_pa >= PA_LIMIT)
    die("root 0x%llx is not a 4 KB aligned address below 2^52", root_pa);
  m->root = root_pa;
}

static const slot_t *find(const nmmu_mem_t *m, uint64_t pa) {
  size_t mask = m->cap - 1;
  for (size_t i = hash_pa(pa, mask);; i = (i + 1) & mask) {
    const slot_t *s = &m->slots[i];
    if (s->key == pa) return s;
    if (s->key == EMPTY) return NULL;
  }
}

uint64_t nmmu_mem_read(const nmmu_mem_t *m, uint64_t pa) {
  if ((pa & 7) || pa >= PA_LIMIT) return 0;
  const slot_t *s = find(m, pa);
  return s ? s->val : 0;
}

/* Doubles the table; 0 or -1 when out of memory (the table is then unchanged). */
static int grow(nmmu_mem_t *m) {
  size_t ncap = m->cap * 2, mask = ncap - 1;
  slot_t *ns = alloc_slots(ncap);
  if (!ns) return -1;
  for (size_t i = 0; i < m->cap; i++) {
    const slot_t *s = &m->slots[i];
    if (s->key == EMPTY) continue;
    size_t j = hash_pa(s->key, mask);
    while (ns[j].key != EMPTY) j = (j + 1) & mask;
    ns[j] = *s;
  }
  free(m->slots);
  m->slots = ns;
  m->cap = ncap;
  return 0;
}

/* Slot of pa, created (value 0) when absent; *existed tells which.  NULL when out of memory. */
static slot_t *find_or_add(nmmu_mem_t *m, uint64_t pa, int *existed) {
  if ((m->used + 1) * 10 > m->cap * 7 && grow(m) < 0) return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = hash_pa(pa, mask);; i = (i + 1) & mask) {
    slot_t *s = &m->slots[i];
    if (s->key == pa) {
      *existed = 1;
      return s;
    }
    if (s->key == EMPTY) {
      s->key = pa;
      s->val = 0;
      m->used++;
      *existed = 0;
      return s;
    }
  }
}

static void set_val(nmmu_mem_t *m, slot_t *s, uint64_t val) {
  if (s->val && !val) m->nonzero--;
  if (!s->val && val) m->nonzero++;
  s->val = val;
}

void nmmu_mem_write(nmmu_mem_t *m, uint64_t pa, uint64_t val) {
  if ((pa & 7) || pa >= PA_LIMIT) die("write to 0x%llx: not an 8-byte aligned address below 2^52", pa);
  if (!val) { /* never create a slot for a zero word */
    slot_t *s = (slot_t *)find(m, pa);
    if (s) set_val(m, s, 0);
    return;
  }
  int existed;
  slot_t *s = find_or_add(m, pa, &existed);
  if (!s) die("out of memory growing the image past %llu words", (uint64_t)m->used);
  set_val(m, s, val);
}

size_t nmmu_mem_words(const nmmu_mem_t *m) { return m->nonzero; }

/* ================================================================ image files */

/* Buffered line reader: lines up to LINE_MAX_LEN characters, NUL bytes flagged. */
#define LINE_MAX_LEN 1024
typedef struct {
  FILE *f;
  char buf[1 << 16];
  size_t pos, len;
  int eof;
} reader_t;

/* Reads the next line (without its newline) into line.  Returns 1 for a line, 0 at end of file,
 * -1 for a line that is too long or holds a NUL byte (reason in *why), -2 on a read error. */
static int read_line(reader_t *r, char *line, const char **why) {
  size_t n = 0;
  int got = 0, bad = 0;
  for (;;) {
    if (r->pos == r->len) {
      if (r->eof) break;
      r->len = fread(r->buf, 1, sizeof r->buf, r->f);
      r->pos = 0;
      if (r->len == 0) {
        if (ferror(r->f)) return -2;
        r->eof = 1;
        break;
      }
    }
    got = 1;
    char c = r->buf[r->pos++];
    if (c == '\n') break;
    if (c == '\0' && !bad) {
      bad = 1;
      *why = "binary data (NUL byte)";
    }
    if (n < LINE_MAX_LEN) {
      line[n++] = c;
    } else if (!bad) {
      bad = 1;
      *why = "line longer than 1024 characters";
    }
  }
  line[n] = '\0';
  if (!got) return 0;
  return bad ? -1 : 1;
}

/* Splits s in place at blanks (space, tab, CR, ...) after cutting a '#' comment; returns the
 * number of tokens (at most max; *more set when there were others). */
static int tokenize(char *s, char **tok, int max, int *more) {
  char *h = strchr(s, '#');
  if (h) *h = '\0';
  int n = 0;
  *more = 0;
  char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\v' || *p == '\f') p++;
    if (!*p) break;
    if (n == max) {
      *more = 1;
      break;
    }
    tok[n++] = p;
    while (*p && !(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\v' || *p == '\f'))
      p++;
    if (*p) *p++ = '\0';
  }
  return n;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Hex number with an optional 0x prefix, at least one digit, no other characters, < 2^64. */
static int parse_hex(const char *s, uint64_t *out) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  if (!*s) return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    int d = hexval(*s);
    if (d < 0 || (v >> 60)) return -1;
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 0;
}

/* Decimal number, or hex with a 0x prefix; < 2^64. */
static int parse_num(const char *s, uint64_t *out) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return parse_hex(s, out);
  if (!*s) return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return -1;
    uint64_t d = (uint64_t)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

static nmmu_mem_t *load_fail(nmmu_mem_t *m, FILE *f, reader_t *r) {
  nmmu_mem_free(m);
  free(r);
  if (f) fclose(f);
  return NULL;
}

nmmu_mem_t *nmmu_mem_load(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  reader_t *r = calloc(1, sizeof(*r));
  nmmu_mem_t *m = nmmu_mem_new();
  if (!r || !m) {
    seterr(err, errlen, "%s: out of memory", path);
    return load_fail(m, f, r);
  }
  r->f = f;
  char line[LINE_MAX_LEN + 1];
  long ln = 0, root_line = 0;
  int header = 0;
  for (;;) {
    const char *why = NULL;
    int rc = read_line(r, line, &why);
    if (rc == 0) break;
    ln++;
    if (rc == -2) {
      seterr(err, errlen, "%s:%ld: read error", path, ln);
      return load_fail(m, f, r);
    }
    if (rc == -1) {
      seterr(err, errlen, "%s:%ld: %s", path, ln, why);
      return load_fail(m, f, r);
    }
    char *tok[3];
    int more;
    int nt = tokenize(line, tok, 3, &more);
    if (nt == 0) continue;
    if (!header) {
      if (strcmp(tok[0], "nmmu-image") != 0) {
        seterr(err, errlen, "%s:%ld: missing 'nmmu-image 1' header (found '%.40s')", path, ln,
               tok[0]);
        return load_fail(m, f, r);
      }
      if (nt != 2 || more || strcmp(tok[1], "1") != 0) {
        seterr(err, errlen, "%s:%ld: unsupported image header (expected 'nmmu-image 1')", path, ln);
        return load_fail(m, f, r);
      }
      header = 1;
      continue;
    }
    if (!strcmp(tok[0], "nmmu-image")) {
      seterr(err, errlen, "%s:%ld: second 'nmmu-image' header", path, ln);
      return load_fail(m, f, r);
    }
    if (!strcmp(tok[0], "root")) {
      uint64_t v;
      if (nt != 2 || more || parse_hex(tok[1], &v) < 0) {
        seterr(err, errlen, "%s:%ld: expected 'root <hex pa>'", path, ln);
        return load_fail(m, f, r);
      }
      if (root_line) {
        seterr(err, errlen, "%s:%ld: second 'root' line (first at line %ld)", path, ln, root_line);
        return load_fail(m, f, r);
      }
      if ((v & (SZ_4K - 1)) || v >= PA_LIMIT) {
        seterr(err, errlen, "%s:%ld: root 0x%llx is not a 4 KB aligned address below 2^52", path,
               ln, (unsigned long long)v);
        return load_fail(m, f, r);
      }
      m->root = v;
      root_line = ln;
      continue;
    }
    uint64_t pa, val;
    if (nt != 2 || more || parse_hex(tok[0], &pa) < 0 || parse_hex(tok[1], &val) < 0) {
      seterr(err, errlen, "%s:%ld: expected '<hex pa> <hex value>'", path, ln);
      return load_fail(m, f, r);
    }
    if (pa >= PA_LIMIT) {
      seterr(err, errlen, "%s:%ld: address 0x%llx is not below 2^52", path, ln,
             (unsigned long long)pa);
      return load_fail(m, f, r);
    }
    if (pa & 7) {
      seterr(err, errlen, "%s:%ld: address 0x%llx is not 8-byte aligned", path, ln,
             (unsigned long long)pa);
      return load_fail(m, f, r);
    }
    int existed;
    slot_t *s = find_or_add(m, pa, &existed);
    if (!s) {
      seterr(err, errlen, "%s:%ld: out of memory", path, ln);
      return load_fail(m, f, r);
    }
    if (existed) {
      seterr(err, errlen, "%s:%ld: duplicate address 0x%llx", path, ln, (unsigned long long)pa);
      return load_fail(m, f, r);
    }
    set_val(m, s, val);
  }
  if (!header) {
    seterr(err, errlen, "%s: missing 'nmmu-image 1' header (no data in %ld lines)", path, ln);
    return load_fail(m, f, r);
  }
  if (!root_line) {
    seterr(err, errlen, "%s: missing 'root' line (%ld lines)", path, ln);
    return load_fail(m, f, r);
  }
  free(r);
  fclose(f);
  return m;
}

static int cmp_slot(const void *a, const void *b) {
  uint64_t x = ((const slot_t *)a)->key, y = ((const slot_t *)b)->key;
  return x < y ? -1 : x > y;
}

static char *put_hex(char *p, uint64_t v, int digits) {
  static const char hx[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; i--) p[i] = hx[v & 15], v >>= 4;
  return p + digits;
}

int nmmu_mem_save_file(const nmmu_mem_t *m, FILE *f) {
  slot_t *w = malloc((m->nonzero ? m->nonzero : 1) * sizeof(slot_t));
  if (!w) return -1;
  size_t n = 0;
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key != EMPTY && m->slots[i].val) w[n++] = m->slots[i];
  qsort(w, n, sizeof(slot_t), cmp_slot);
  int bad = fprintf(f, "nmmu-image 1\n# NeuMMU physical memory image: %zu words (pa value)\n"
                       "root 0x%llx\n", n, (unsigned long long)m->root) < 0;
  /* 13 + 1 + 16 + 1 characters a word, formatted by hand: images run to millions of words */
  enum { PER = 1024 };
  char buf[PER * 31];
  for (size_t i = 0; i < n && !bad; i += PER) {
    char *p = buf;
    for (size_t j = i; j < n && j < i + PER; j++) {
      p = put_hex(p, w[j].key, 13);
      *p++ = ' ';
      p = put_hex(p, w[j].val, 16);
      *p++ = '\n';
    }
    if (fwrite(buf, 1, (size_t)(p - buf), f) != (size_t)(p - buf)) bad = 1;
  }
  free(w);
  if (fflush(f) != 0 || ferror(f)) bad = 1;
  return bad ? -1 : 0;
}

int nmmu_mem_save(const nmmu_mem_t *m, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int rc = nmmu_mem_save_file(m, f);
  if (fclose(f) != 0) rc = -1;
  return rc;
}

/* ================================================================ translation */

nmmu_xlat_t nmmu_translate(const nmmu_mem_t *m, uint64_t va, int is_write) {
  nmmu_xlat_t r = {0, NMMU_ST_NOT_PRESENT, 0, 0, 0, 0};
  va &= VA_LIMIT - 1;
  uint64_t table = m->root, pa = 0;
  int w = 1, u = 1;
  for (int level = 4; level >= 1; level--) {
    unsigned idx = (unsigned)(va >> (12 + 9 * (level - 1))) & 511u;
    uint64_t e = nmmu_mem_read(m, table + 8ull * idx);
    r.levels++;
    if (!(e & NMMU_PTE_P)) return r;
    if ((e & NMMU_PTE_PS) && level >= 3) return r; /* 1 GB and larger pages: not supported */
    w &= (e & NMMU_PTE_W) != 0;
    u &= (e & NMMU_PTE_U) != 0;
    if (level == 2 && (e & NMMU_PTE_PS)) {
      r.page_2m = 1;
      pa = (e & NMMU_PTE_FRAME_2M) | (va & (SZ_2M - 1));
      break;
    }
    if (level == 1) { /* bit 7 of an L1 entry is PAT: ignored like the other attribute bits */
      pa = (e & NMMU_PTE_FRAME) | (va & (SZ_4K - 1));
      break;
    }
    table = e & NMMU_PTE_FRAME;
  }
  r.writable = w;
  r.user = u;
  if (!u || (is_write && !w)) {
    r.status = NMMU_ST_PERM;
  } else {
    r.status = NMMU_ST_OK;
    r.pa = pa;
  }
  return r;
}

/* ================================================================ layouts */

void nmmu_layout_init(nmmu_layout_t *l) { memset(l, 0, sizeof(*l)); }

void nmmu_layout_free(nmmu_layout_t *l) {
  free(l->segs);
  free(l->holes);
  nmmu_layout_init(l);
}

static uint64_t page_size(int page_2m) { return page_2m ? SZ_2M : SZ_4K; }

uint64_t nmmu_seg_span(const nmmu_seg_t *s) {
  uint64_t ps = page_size(s->page_2m);
  if (s->bytes > UINT64_MAX - (ps - 1)) return UINT64_MAX & ~(ps - 1);
  return (s->bytes + ps - 1) & ~(ps - 1);
}

/* Makes room for element n of a heap array (one realloc a line: layouts are small, and the
 * arrays stay exactly nsegs/nholes long, so a caller may build them by hand too). */
static int push_room(void **arr, size_t n, size_t sz) {
  void *p = realloc(*arr, (n + 1) * sz);
  if (!p) return -1;
  *arr = p;
  return 0;
}

/* First blank-separated token of s is kw. */
static int first_token_is(const char *s, const char *kw) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(kw);
  return !strncmp(s, kw, n) && (s[n] == '\0' || s[n] == ' ' || s[n] == '\t' || s[n] == '\r' ||
                                s[n] == '\n' || s[n] == '#');
}

int nmmu_layout_parse_line(nmmu_layout_t *l, const char *line, char *err, size_t errlen) {
  char buf[LINE_MAX_LEN + 1];
  size_t len = strlen(line);
  if (len > LINE_MAX_LEN) { /* only a layout line is refused for its length */
    if (!first_token_is(line, "seg") && !first_token_is(line, "hole")) return 0;
    seterr(err, errlen, "layout line longer than %d characters", LINE_MAX_LEN);
    return -1;
  }
  memcpy(buf, line, len + 1);
  char *tok[7];
  int more;
  int nt = tokenize(buf, tok, 7, &more);
  if (nt == 0) return 0;
  if (!strcmp(tok[0], "seg")) {
    if (nt != 6 || more) {
      seterr(err, errlen, "expected 'seg <name> <hex va> <bytes> <4k|2m> <rw|ro>'");
      return -1;
    }
    nmmu_seg_t s;
    memset(&s, 0, sizeof s);
    size_t nl = strlen(tok[1]);
    if (nl >= NMMU_NAME_LEN) {
      seterr(err, errlen, "segment name '%.40s' longer than %d characters", tok[1],
             NMMU_NAME_LEN - 1);
      return -1;
    }
    for (size_t i = 0; i < nl; i++)
      if ((unsigned char)tok[1][i] <= ' ' || (unsigned char)tok[1][i] >= 0x7f) {
        seterr(err, errlen, "segment name has a non-printable character");
        return -1;
      }
    memcpy(s.name, tok[1], nl + 1);
    if (parse_hex(tok[2], &s.va) < 0) {
      seterr(err, errlen, "segment %s: bad hex va '%.40s'", s.name, tok[2]);
      return -1;
    }
    if (parse_num(tok[3], &s.bytes) < 0) {
      seterr(err, errlen, "segment %s: bad size '%.40s'", s.name, tok[3]);
      return -1;
    }
    if (!strcmp(tok[4], "4k") || !strcmp(tok[4], "4K")) {
      s.page_2m = 0;
    } else if (!strcmp(tok[4], "2m") || !strcmp(tok[4], "2M")) {
      s.page_2m = 1;
    } else {
      seterr(err, errlen, "segment %s: page size '%.40s' is not 4k or 2m", s.name, tok[4]);
      return -1;
    }
    if (!strcmp(tok[5], "rw")) {
      s.read_only = 0;
    } else if (!strcmp(tok[5], "ro")) {
      s.read_only = 1;
    } else {
      seterr(err, errlen, "segment %s: access '%.40s' is not rw or ro", s.name, tok[5]);
      return -1;
    }
    if (s.bytes == 0) {
      seterr(err, errlen, "segment %s: size is 0", s.name);
      return -1;
    }
    if (s.va >= VA_LIMIT || nmmu_seg_span(&s) > VA_LIMIT - s.va) {
      seterr(err, errlen, "segment %s: 0x%llx + %llu bytes goes past the 48-bit VA space", s.name,
             (unsigned long long)s.va, (unsigned long long)s.bytes);
      return -1;
    }
    if (s.va & (page_size(s.page_2m) - 1)) {
      seterr(err, errlen, "segment %s: va 0x%llx is not aligned to its %s page", s.name,
             (unsigned long long)s.va, s.page_2m ? "2 MB" : "4 KB");
      return -1;
    }
    if (push_room((void **)&l->segs, l->nsegs, sizeof(nmmu_seg_t)) < 0) {
      seterr(err, errlen, "out of memory");
      return -1;
    }
    l->segs[l->nsegs++] = s;
    return 1;
  }
  if (!strcmp(tok[0], "hole")) {
    if (nt != 3 || more) {
      seterr(err, errlen, "expected 'hole <hex va> <bytes>'");
      return -1;
    }
    nmmu_hole_t h;
    if (parse_hex(tok[1], &h.va) < 0) {
      seterr(err, errlen, "hole: bad hex va '%.40s'", tok[1]);
      return -1;
    }
    if (parse_num(tok[2], &h.bytes) < 0) {
      seterr(err, errlen, "hole: bad size '%.40s'", tok[2]);
      return -1;
    }
    if (h.bytes == 0) {
      seterr(err, errlen, "hole at 0x%llx: size is 0", (unsigned long long)h.va);
      return -1;
    }
    if (h.va >= VA_LIMIT || h.bytes > VA_LIMIT - h.va) {
      seterr(err, errlen, "hole at 0x%llx: goes past the 48-bit VA space", (unsigned long long)h.va);
      return -1;
    }
    if ((h.va | h.bytes) & (SZ_4K - 1)) {
      seterr(err, errlen, "hole at 0x%llx, %llu bytes: not whole 4 KB pages",
             (unsigned long long)h.va, (unsigned long long)h.bytes);
      return -1;
    }
    if (push_room((void **)&l->holes, l->nholes, sizeof(nmmu_hole_t)) < 0) {
      seterr(err, errlen, "out of memory");
      return -1;
    }
    l->holes[l->nholes++] = h;
    return 1;
  }
  return 0;
}

static int cmp_seg_ptr(const void *a, const void *b) {
  const nmmu_seg_t *x = *(const nmmu_seg_t *const *)a, *y = *(const nmmu_seg_t *const *)b;
  return x->va < y->va ? -1 : x->va > y->va;
}

static int cmp_hole(const void *a, const void *b) {
  const nmmu_hole_t *x = a, *y = b;
  if (x->va != y->va) return x->va < y->va ? -1 : 1;
  return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

/* Segment pointers sorted by VA (NULL with n > 0 when out of memory). */
static const nmmu_seg_t **sorted_segs(const nmmu_layout_t *l) {
  const nmmu_seg_t **v = malloc((l->nsegs ? l->nsegs : 1) * sizeof(*v));
  if (!v) return NULL;
  for (size_t i = 0; i < l->nsegs; i++) v[i] = &l->segs[i];
  qsort(v, l->nsegs, sizeof(*v), cmp_seg_ptr);
  return v;
}

/* The segment of sorted v holding va (NULL if none). */
static const nmmu_seg_t *seg_of(const nmmu_seg_t **v, size_t n, uint64_t va) {
  size_t lo = 0, hi = n; /* first segment with seg.va > va */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (v[mid]->va <= va) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const nmmu_seg_t *s = v[lo - 1];
  return va - s->va < nmmu_seg_span(s) ? s : NULL;
}

int nmmu_layout_check(const nmmu_layout_t *l, char *err, size_t errlen) {
  for (size_t i = 0; i < l->nsegs; i++) {
    const nmmu_seg_t *s = &l->segs[i];
    uint64_t ps = page_size(s->page_2m);
    if (s->bytes == 0) {
      seterr(err, errlen, "segment %s: size is 0", s->name);
      return -1;
    }
    if (s->va & (ps - 1)) {
      seterr(err, errlen, "segment %s: va 0x%llx is not aligned to its %s page", s->name,
             (unsigned long long)s->va, s->page_2m ? "2 MB" : "4 KB");
      return -1;
    }
    if (s->va >= VA_LIMIT || nmmu_seg_span(s) > VA_LIMIT - s->va) {
      seterr(err, errlen, "segment %s: 0x%llx + %llu bytes goes past the 48-bit VA space",
             s->name, (unsigned long long)s->va, (unsigned long long)s->bytes);
      return -1;
    }
  }
  const nmmu_seg_t **v = sorted_segs(l);
  if (!v) {
    seterr(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i + 1 < l->nsegs; i++) {
    if (v[i]->va + nmmu_seg_span(v[i]) > v[i + 1]->va) {
      seterr(err, errlen, "segments %s (0x%llx..0x%llx) and %s (0x%llx..) overlap", v[i]->name,
             (unsigned long long)v[i]->va, (unsigned long long)(v[i]->va + nmmu_seg_span(v[i])),
             v[i + 1]->name, (unsigned long long)v[i + 1]->va);
      free(v);
      return -1;
    }
  }
  for (size_t i = 0; i < l->nholes; i++) {
    const nmmu_hole_t *h = &l->holes[i];
    const nmmu_seg_t *s = h->bytes ? seg_of(v, l->nsegs, h->va) : NULL;
    if (!s || h->bytes > s->va + nmmu_seg_span(s) - h->va) {
      seterr(err, errlen, "hole 0x%llx + %llu bytes does not lie inside one segment",
             (unsigned long long)h->va, (unsigned long long)h->bytes);
      free(v);
      return -1;
    }
    uint64_t ps = page_size(s->page_2m);
    if ((h->va | h->bytes) & (ps - 1)) {
      seterr(err, errlen, "hole 0x%llx + %llu bytes: not whole %s pages of segment %s",
             (unsigned long long)h->va, (unsigned long long)h->bytes,
             s->page_2m ? "2 MB" : "4 KB", s->name);
      free(v);
      return -1;
    }
  }
  free(v);
  return 0;
}

/* ================================================================ builder */

void nmmu_build_cfg_init(nmmu_build_cfg_t *c) {
  memset(c, 0, sizeof(*c));
  c->pt_base = 0x1000;
  c->data_base = 1ull << 40;
  c->page = -1;
  c->scatter = 0;
  c->seed = 1;
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform integer in [0, n) (n > 0) by rejection. */
static uint64_t rand_below(uint64_t *s, uint64_t n) {
  uint64_t lim = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = splitmix64(s);
  while (x >= lim);
  return x % n;
}

/* Frame index table: identity, or a Fisher-Yates permutation. */
static uint32_t *frame_perm(uint64_t n, int scatter, uint64_t *rng) {
  uint32_t *p = malloc((n ? n : 1) * sizeof(uint32_t));
  if (!p) return NULL;
  for (uint64_t i = 0; i < n; i++) p[i] = (uint32_t)i;
  if (scatter)
    for (uint64_t i = n; i > 1; i--) {
      uint64_t j = rand_below(rng, i);
      uint32_t t = p[i - 1];
      p[i - 1] = p[j];
      p[j] = t;
    }
  return p;
}

typedef struct {
  nmmu_mem_t *m;
  uint64_t next_table;
  uint64_t tables;
  char *err;
  size_t errlen;
} bstate_t;

/* Entry address at `level` for va, creating missing intermediate tables (P|W|U) on the way. */
static int entry_for(bstate_t *b, uint64_t va, int level, uint64_t *entry_pa) {
  uint64_t t = b->m->root;
  for (int lv = 4;; lv--) {
    uint64_t e = t + 8ull * ((va >> (12 + 9 * (lv - 1))) & 511);
    if (lv == level) {
      *entry_pa = e;
      return 0;
    }
    uint64_t v = nmmu_mem_read(b->m, e);
    if (!(v & NMMU_PTE_P)) {
      if (b->next_table >= PA_LIMIT) {
        seterr(b->err, b->errlen, "page tables reach 2^52 (lower --pt-base)");
        return -1;
      }
      v = b->next_table | NMMU_PTE_P | NMMU_PTE_W | NMMU_PTE_U;
      b->next_table += SZ_4K;
      b->tables++;
      nmmu_mem_write(b->m, e, v);
    } else if (v & NMMU_PTE_PS) { /* cannot happen for a checked layout */
      seterr(b->err, b->errlen, "internal: va 0x%llx lies under a 2 MB page",
             (unsigned long long)va);
      return -1;
    }
    t = v & NMMU_PTE_FRAME;
  }
}

int nmmu_build(nmmu_mem_t *m, const nmmu_layout_t *l, const nmmu_build_cfg_t *c,
               nmmu_build_stats_t *st, char *err, size_t errlen) {
  nmmu_build_stats_t s;
  memset(&s, 0, sizeof s);
  if (st) *st = s;
  if ((c->pt_base & (SZ_4K - 1)) || c->pt_base >= PA_LIMIT) {
    seterr(err, errlen, "page-table base 0x%llx is not a 4 KB aligned address below 2^52",
           (unsigned long long)c->pt_base);
    return -1;
  }
  if ((c->data_base & (SZ_4K - 1)) || c->data_base >= PA_LIMIT) {
    seterr(err, errlen, "data base 0x%llx is not a 4 KB aligned address below 2^52",
           (unsigned long long)c->data_base);
    return -1;
  }
  if (c->page < -1 || c->page > 1) {
    seterr(err, errlen, "bad page override %d", c->page);
    return -1;
  }
  if (l->nsegs == 0) {
    seterr(err, errlen, "layout has no segment");
    return -1;
  }
  /* the layout as built: page override applied, segments and holes in VA order */
  nmmu_layout_t lb = *l;
  lb.segs = malloc(l->nsegs * sizeof(nmmu_seg_t));
  lb.holes = malloc((l->nholes ? l->nholes : 1) * sizeof(nmmu_hole_t));
  const nmmu_seg_t **v = NULL;
  uint32_t *perm4 = NULL, *perm2 = NULL;
  int rc = -1;
  if (!lb.segs || !lb.holes) {
    seterr(err, errlen, "out of memory");
    goto out;
  }
  memcpy(lb.segs, l->segs, l->nsegs * sizeof(nmmu_seg_t));
  if (l->nholes) memcpy(lb.holes, l->holes, l->nholes * sizeof(nmmu_hole_t));
  if (c->page >= 0)
    for (size_t i = 0; i < lb.nsegs; i++) lb.segs[i].page_2m = c->page;
  if (nmmu_layout_check(&lb, err, errlen) < 0) goto out;
  qsort(lb.holes, lb.nholes, sizeof(nmmu_hole_t), cmp_hole);
  v = sorted_segs(&lb);
  if (!v) {
    seterr(err, errlen, "out of memory");
    goto out;
  }
  /* pass 0 counts the pages (holes may overlap one another), pass 1 builds */
  for (int pass = 0; pass < 2; pass++) {
    size_t hp = 0;
    uint64_t k4 = 0, k2 = 0;
    bstate_t b = {m, 0, 0, err, errlen};
    uint64_t d2 = 0, d4 = 0;
    if (pass == 1) {
      uint64_t total = s.pages_4k + s.pages_2m;
      if (total > NMMU_BUILD_MAX_PAGES) {
        seterr(err, errlen, "layout maps %llu pages; the limit is %llu", (unsigned long long)total,
               (unsigned long long)NMMU_BUILD_MAX_PAGES);
        goto out;
      }
      d2 = s.pages_2m ? (c->data_base + SZ_2M - 1) & ~(SZ_2M - 1) : c->data_base;
      d4 = d2 + s.pages_2m * SZ_2M;
      s.data_lo = d2;
      s.data_end = d4 + s.pages_4k * SZ_4K;
      if (s.data_end > PA_LIMIT) {
        seterr(err, errlen, "data frames 0x%llx..0x%llx reach 2^52 (lower --data-base)",
               (unsigned long long)s.data_lo, (unsigned long long)s.data_end);
        goto out;
      }
      uint64_t rng = c->seed;
      perm2 = frame_perm(s.pages_2m, c->scatter, &rng);
      perm4 = frame_perm(s.pages_4k, c->scatter, &rng);
      if (!perm2 || !perm4) {
        seterr(err, errlen, "out of memory");
        goto out;
      }
      nmmu_mem_set_root(m, c->pt_base);
      b.next_table = c->pt_base + SZ_4K;
      b.tables = 1;
    }
    for (size_t i = 0; i < lb.nsegs; i++) {
      const nmmu_seg_t *sg = v[i];
      uint64_t ps = page_size(sg->page_2m), span = nmmu_seg_span(sg);
      for (uint64_t off = 0; off < span; off += ps) {
        uint64_t va = sg->va + off;
        while (hp < lb.nholes && lb.holes[hp].va + lb.holes[hp].bytes <= va) hp++;
        if (hp < lb.nholes && lb.holes[hp].va <= va) { /* skip to the hole's end at once */
          uint64_t hend = lb.holes[hp].va + lb.holes[hp].bytes, send = sg->va + span;
          uint64_t end = hend < send ? hend : send;
          if (pass == 0) s.hole_pages += (end - va) / ps;
          off = end - sg->va - ps;
          continue;
        }
        if (pass == 0) {
          if (sg->page_2m) s.pages_2m++;
          else s.pages_4k++;
          if (s.pages_2m + s.pages_4k > NMMU_BUILD_MAX_PAGES) break;
          continue;
        }
        uint64_t pa = sg->page_2m ? d2 + (uint64_t)perm2[k2++] * SZ_2M
                                  : d4 + (uint64_t)perm4[k4++] * SZ_4K;
        uint64_t e;
        if (entry_for(&b, va, sg->page_2m ? 2 : 1, &e) < 0) goto out;
        uint64_t pte = pa | NMMU_PTE_P | NMMU_PTE_U | (sg->read_only ? 0 : NMMU_PTE_W) |
                       (sg->page_2m ? NMMU_PTE_PS : 0);
        nmmu_mem_write(m, e, pte);
        if (c->on_map) c->on_map(c->ctx, va, pa, sg->page_2m, sg->read_only);
      }
      if (pass == 0 && s.pages_2m + s.pages_4k > NMMU_BUILD_MAX_PAGES) break;
    }
    if (pass == 1) {
      s.table_pages = b.tables;
      s.root = c->pt_base;
      s.pt_end = b.next_table;
    }
  }
  if (s.pages_4k + s.pages_2m && s.root < s.data_end && s.data_lo < s.pt_end) {
    seterr(err, errlen,
           "page tables 0x%llx..0x%llx overlap data frames 0x%llx..0x%llx (move --pt-base or "
           "--data-base)",
           (unsigned long long)s.root, (unsigned long long)s.pt_end,
           (unsigned long long)s.data_lo, (unsigned long long)s.data_end);
    goto out;
  }
  rc = 0;
out:
  if (st) *st = s;
  free(perm2);
  free(perm4);
  free(v);
  free(lb.segs);
  free(lb.holes);
  return rc;
}
