/* nmmu_ptimg.c -- NeuMMU golden model: page-table image files, the text form of the sparse
 * memory (format in neummu.h): the reader nmmu_mem_load, with a line number in every error,
 * and the writer nmmu_mem_save / nmmu_mem_save_file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "nmmu_int.h"

/* Buffered line reader: lines up to LINE_MAX_LEN characters, NUL bytes flagged. */
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

/* One term of the image checksum (neummu.h): key = pa of a word, 1 for the root. */
static uint64_t sum_term(uint64_t key, uint64_t value) { return cutil_mix64(key ^ cutil_mix64(value)); }

static nmmu_mem_t *load_fail(nmmu_mem_t *m, FILE *f, reader_t *r) {
  nmmu_mem_free(m);
  free(r);
  if (f) fclose(f);
  return NULL;
}

nmmu_mem_t *nmmu_mem_load(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    cutil_seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  reader_t *r = calloc(1, sizeof(*r));
  nmmu_mem_t *m = nmmu_mem_new();
  if (!r || !m) {
    cutil_seterr(err, errlen, "%s: out of memory", path);
    return load_fail(m, f, r);
  }
  r->f = f;
  char line[LINE_MAX_LEN + 1];
  long ln = 0, root_line = 0, end_line = 0;
  int header = 0;
  uint64_t words = 0, sum = 0;
  for (;;) {
    const char *why = NULL;
    int rc = read_line(r, line, &why);
    if (rc == 0) break;
    ln++;
    if (rc == -2) {
      cutil_seterr(err, errlen, "%s:%ld: read error", path, ln);
      return load_fail(m, f, r);
    }
    if (rc == -1) {
      cutil_seterr(err, errlen, "%s:%ld: %s", path, ln, why);
      return load_fail(m, f, r);
    }
    char *tok[3];
    int more;
    int nt = cutil_tokenize(line, tok, 3, &more);
    if (nt == 0) continue;
    if (!header) {
      if (strcmp(tok[0], "nmmu-image") != 0) {
        cutil_seterr(err, errlen, "%s:%ld: missing 'nmmu-image 2' header (found '%.40s')", path, ln,
                     tok[0]);
        return load_fail(m, f, r);
      }
      if (nt == 2 && !more && strcmp(tok[1], "1") == 0) {
        cutil_seterr(err, errlen, "%s:%ld: image version 1 has no 'end' line to detect truncation "
                     "(expected 'nmmu-image 2': regenerate it with nmmu_ptgen)", path, ln);
        return load_fail(m, f, r);
      }
      if (nt != 2 || more || strcmp(tok[1], "2") != 0) {
        cutil_seterr(err, errlen, "%s:%ld: unsupported image header (expected 'nmmu-image 2')",
                     path, ln);
        return load_fail(m, f, r);
      }
      header = 1;
      continue;
    }
    if (end_line) {
      cutil_seterr(err, errlen, "%s:%ld: data after the 'end' line (line %ld)", path, ln, end_line);
      return load_fail(m, f, r);
    }
    if (!strcmp(tok[0], "end")) {
      uint64_t n, s;
      if (nt != 3 || more || cutil_parse_dec(tok[1], 0, UINT64_MAX, &n) != 0 ||
          cutil_parse_hex(tok[2], UINT64_MAX, &s) < 0) {
        cutil_seterr(err, errlen, "%s:%ld: expected 'end <words> <hex checksum>'", path, ln);
        return load_fail(m, f, r);
      }
      if (n != words) {
        cutil_seterr(err, errlen, "%s:%ld: 'end' counts %llu words, the image has %llu", path, ln,
                     (unsigned long long)n, (unsigned long long)words);
        return load_fail(m, f, r);
      }
      if (root_line) sum += sum_term(1, m->root);
      if (s != sum) {
        cutil_seterr(err, errlen, "%s:%ld: checksum 0x%llx does not match the image (0x%llx)", path,
                     ln, (unsigned long long)s, (unsigned long long)sum);
        return load_fail(m, f, r);
      }
      end_line = ln;
      continue;
    }
    if (!strcmp(tok[0], "nmmu-image")) {
      cutil_seterr(err, errlen, "%s:%ld: second 'nmmu-image' header", path, ln);
      return load_fail(m, f, r);
    }
    if (!strcmp(tok[0], "root")) {
      uint64_t v;
      if (nt != 2 || more || cutil_parse_hex(tok[1], UINT64_MAX, &v) < 0) {
        cutil_seterr(err, errlen, "%s:%ld: expected 'root <hex pa>'", path, ln);
        return load_fail(m, f, r);
      }
      if (root_line) {
        cutil_seterr(err, errlen, "%s:%ld: second 'root' line (first at line %ld)", path, ln,
                     root_line);
        return load_fail(m, f, r);
      }
      if ((v & (SZ_4K - 1)) || v >= PA_LIMIT) {
        cutil_seterr(err, errlen, "%s:%ld: root 0x%llx is not a 4 KB aligned address below 2^52",
                     path, ln, (unsigned long long)v);
        return load_fail(m, f, r);
      }
      m->root = v;
      root_line = ln;
      continue;
    }
    uint64_t pa, val;
    if (nt != 2 || more || cutil_parse_hex(tok[0], UINT64_MAX, &pa) < 0 ||
        cutil_parse_hex(tok[1], UINT64_MAX, &val) < 0) {
      cutil_seterr(err, errlen, "%s:%ld: expected '<hex pa> <hex value>'", path, ln);
      return load_fail(m, f, r);
    }
    if (pa >= PA_LIMIT) {
      cutil_seterr(err, errlen, "%s:%ld: address 0x%llx is not below 2^52", path, ln,
                   (unsigned long long)pa);
      return load_fail(m, f, r);
    }
    if (pa & 7) {
      cutil_seterr(err, errlen, "%s:%ld: address 0x%llx is not 8-byte aligned", path, ln,
                   (unsigned long long)pa);
      return load_fail(m, f, r);
    }
    int existed;
    slot_t *s = nmmu_mem_find_or_add(m, pa, &existed);
    if (!s) {
      cutil_seterr(err, errlen, "%s:%ld: out of memory", path, ln);
      return load_fail(m, f, r);
    }
    if (existed) {
      cutil_seterr(err, errlen, "%s:%ld: duplicate address 0x%llx", path, ln,
                   (unsigned long long)pa);
      return load_fail(m, f, r);
    }
    nmmu_mem_set_val(m, s, val);
    words++;
    sum += sum_term(pa, val);
  }
  if (!header) {
    cutil_seterr(err, errlen, "%s: missing 'nmmu-image 2' header (no data in %ld lines)", path, ln);
    return load_fail(m, f, r);
  }
  if (!root_line) {
    cutil_seterr(err, errlen, "%s: missing 'root' line (%ld lines)", path, ln);
    return load_fail(m, f, r);
  }
  if (!end_line) {
    cutil_seterr(err, errlen, "%s: truncated: no 'end' line after %ld lines (%llu words read)", path,
                 ln, (unsigned long long)words);
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
  int bad = fprintf(f,
                    "nmmu-image 2\n# NeuMMU physical memory image: %zu words (pa value), then "
                    "their count and checksum\nroot 0x%llx\n",
                    n, (unsigned long long)m->root) < 0;
  uint64_t sum = sum_term(1, m->root);
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
      sum += sum_term(w[j].key, w[j].val);
    }
    if (fwrite(buf, 1, (size_t)(p - buf), f) != (size_t)(p - buf)) bad = 1;
  }
  if (!bad && fprintf(f, "end %zu 0x%016llx\n", n, (unsigned long long)sum) < 0) bad = 1;
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
