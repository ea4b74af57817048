/* nmmu_layout.c -- NeuMMU golden model: address-space layouts, the 'seg' and 'hole' lines of
 * neummu.h read one at a time (nmmu_layout_parse_line), and their checks (alignment, overlap,
 * hole containment). */
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "nmmu_int.h"

void nmmu_layout_init(nmmu_layout_t *l) { memset(l, 0, sizeof(*l)); }

void nmmu_layout_free(nmmu_layout_t *l) {
  free(l->segs);
  free(l->holes);
  nmmu_layout_init(l);
}

uint64_t nmmu_page_size(int page_2m) { return page_2m ? SZ_2M : SZ_4K; }

uint64_t nmmu_seg_span(const nmmu_seg_t *s) {
  uint64_t ps = nmmu_page_size(s->page_2m);
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
    cutil_seterr(err, errlen, "layout line longer than %d characters", LINE_MAX_LEN);
    return -1;
  }
  memcpy(buf, line, len + 1);
  char *tok[7];
  int more;
  int nt = cutil_tokenize(buf, tok, 7, &more);
  if (nt == 0) return 0;
  if (!strcmp(tok[0], "seg")) {
    if (nt != 6 || more) {
      cutil_seterr(err, errlen, "expected 'seg <name> <hex va> <bytes> <4k|2m> <rw|ro>'");
      return -1;
    }
    nmmu_seg_t s;
    memset(&s, 0, sizeof s);
    size_t nl = strlen(tok[1]);
    if (nl >= NMMU_NAME_LEN) {
      cutil_seterr(err, errlen, "segment name '%.40s' longer than %d characters", tok[1],
                   NMMU_NAME_LEN - 1);
      return -1;
    }
    for (size_t i = 0; i < nl; i++)
      if ((unsigned char)tok[1][i] <= ' ' || (unsigned char)tok[1][i] >= 0x7f) {
        cutil_seterr(err, errlen, "segment name has a non-printable character");
        return -1;
      }
    memcpy(s.name, tok[1], nl + 1);
    if (cutil_parse_hex(tok[2], UINT64_MAX, &s.va) < 0) {
      cutil_seterr(err, errlen, "segment %s: bad hex va '%.40s'", s.name, tok[2]);
      return -1;
    }
    if (cutil_parse_num(tok[3], &s.bytes) < 0) {
      cutil_seterr(err, errlen, "segment %s: bad size '%.40s'", s.name, tok[3]);
      return -1;
    }
    if (!strcmp(tok[4], "4k") || !strcmp(tok[4], "4K")) {
      s.page_2m = 0;
    } else if (!strcmp(tok[4], "2m") || !strcmp(tok[4], "2M")) {
      s.page_2m = 1;
    } else {
      cutil_seterr(err, errlen, "segment %s: page size '%.40s' is not 4k or 2m", s.name, tok[4]);
      return -1;
    }
    if (!strcmp(tok[5], "rw")) {
      s.read_only = 0;
    } else if (!strcmp(tok[5], "ro")) {
      s.read_only = 1;
    } else {
      cutil_seterr(err, errlen, "segment %s: access '%.40s' is not rw or ro", s.name, tok[5]);
      return -1;
    }
    if (s.bytes == 0) {
      cutil_seterr(err, errlen, "segment %s: size is 0", s.name);
      return -1;
    }
    if (s.va >= VA_LIMIT || nmmu_seg_span(&s) > VA_LIMIT - s.va) {
      cutil_seterr(err, errlen, "segment %s: 0x%llx + %llu bytes goes past the 48-bit VA space",
                   s.name, (unsigned long long)s.va, (unsigned long long)s.bytes);
      return -1;
    }
    if (s.va & (nmmu_page_size(s.page_2m) - 1)) {
      cutil_seterr(err, errlen, "segment %s: va 0x%llx is not aligned to its %s page", s.name,
                   (unsigned long long)s.va, s.page_2m ? "2 MB" : "4 KB");
      return -1;
    }
    if (push_room((void **)&l->segs, l->nsegs, sizeof(nmmu_seg_t)) < 0) {
      cutil_seterr(err, errlen, "out of memory");
      return -1;
    }
    l->segs[l->nsegs++] = s;
    return 1;
  }
  if (!strcmp(tok[0], "hole")) {
    if (nt != 3 || more) {
      cutil_seterr(err, errlen, "expected 'hole <hex va> <bytes>'");
      return -1;
    }
    nmmu_hole_t h;
    if (cutil_parse_hex(tok[1], UINT64_MAX, &h.va) < 0) {
      cutil_seterr(err, errlen, "hole: bad hex va '%.40s'", tok[1]);
      return -1;
    }
    if (cutil_parse_num(tok[2], &h.bytes) < 0) {
      cutil_seterr(err, errlen, "hole: bad size '%.40s'", tok[2]);
      return -1;
    }
    if (h.bytes == 0) {
      cutil_seterr(err, errlen, "hole at 0x%llx: size is 0", (unsigned long long)h.va);
      return -1;
    }
    if (h.va >= VA_LIMIT || h.bytes > VA_LIMIT - h.va) {
      cutil_seterr(err, errlen, "hole at 0x%llx: goes past the 48-bit VA space",
                   (unsigned long long)h.va);
      return -1;
    }
    if ((h.va | h.bytes) & (SZ_4K - 1)) {
      cutil_seterr(err, errlen, "hole at 0x%llx, %llu bytes: not whole 4 KB pages",
                   (unsigned long long)h.va, (unsigned long long)h.bytes);
      return -1;
    }
    if (push_room((void **)&l->holes, l->nholes, sizeof(nmmu_hole_t)) < 0) {
      cutil_seterr(err, errlen, "out of memory");
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

int nmmu_cmp_hole(const void *a, const void *b) {
  const nmmu_hole_t *x = a, *y = b;
  if (x->va != y->va) return x->va < y->va ? -1 : 1;
  return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

const nmmu_seg_t **nmmu_sorted_segs(const nmmu_layout_t *l) {
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
    uint64_t ps = nmmu_page_size(s->page_2m);
    if (s->bytes == 0) {
      cutil_seterr(err, errlen, "segment %s: size is 0", s->name);
      return -1;
    }
    if (s->va & (ps - 1)) {
      cutil_seterr(err, errlen, "segment %s: va 0x%llx is not aligned to its %s page", s->name,
                   (unsigned long long)s->va, s->page_2m ? "2 MB" : "4 KB");
      return -1;
    }
    if (s->va >= VA_LIMIT || nmmu_seg_span(s) > VA_LIMIT - s->va) {
      cutil_seterr(err, errlen, "segment %s: 0x%llx + %llu bytes goes past the 48-bit VA space",
                   s->name, (unsigned long long)s->va, (unsigned long long)s->bytes);
      return -1;
    }
  }
  const nmmu_seg_t **v = nmmu_sorted_segs(l);
  if (!v) {
    cutil_seterr(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i + 1 < l->nsegs; i++) {
    if (v[i]->va + nmmu_seg_span(v[i]) > v[i + 1]->va) {
      cutil_seterr(err, errlen, "segments %s (0x%llx..0x%llx) and %s (0x%llx..) overlap",
                   v[i]->name, (unsigned long long)v[i]->va,
                   (unsigned long long)(v[i]->va + nmmu_seg_span(v[i])), v[i + 1]->name,
                   (unsigned long long)v[i + 1]->va);
      free(v);
      return -1;
    }
  }
  for (size_t i = 0; i < l->nholes; i++) {
    const nmmu_hole_t *h = &l->holes[i];
    const nmmu_seg_t *s = h->bytes ? seg_of(v, l->nsegs, h->va) : NULL;
    if (!s || h->bytes > s->va + nmmu_seg_span(s) - h->va) {
      cutil_seterr(err, errlen, "hole 0x%llx + %llu bytes does not lie inside one segment",
                   (unsigned long long)h->va, (unsigned long long)h->bytes);
      free(v);
      return -1;
    }
    uint64_t ps = nmmu_page_size(s->page_2m);
    if ((h->va | h->bytes) & (ps - 1)) {
      cutil_seterr(err, errlen, "hole 0x%llx + %llu bytes: not whole %s pages of segment %s",
                   (unsigned long long)h->va, (unsigned long long)h->bytes,
                   s->page_2m ? "2 MB" : "4 KB", s->name);
      free(v);
      return -1;
    }
  }
  free(v);
  return 0;
}
