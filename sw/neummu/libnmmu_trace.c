/* libnmmu_trace.c -- streaming reader of the NPU DMA trace (format in nmmu_trace.h).
 *
 * One line at a time, constant memory whatever the trace length.  Every error is one line,
 * "line N: <reason>" (or "<path>: <reason>" when the file cannot be opened), in r->err.
 *
 * Lexical rules (the writer, nmmu_trace, emits exactly this form):
 *   - a '#' starts a comment that runs to the end of the line; blank lines are skipped;
 *   - tokens are separated by spaces, tabs or a CR (CRLF files read the same);
 *   - a line holds at most NMMU_TRACE_LINE_MAX - 2 characters;
 *   - hex numbers (a VA) take an optional 0x prefix; decimal numbers (bytes, cycles) do not
 *     take a sign; every line has exactly the number of fields of its kind.
 *   - VAs are 48-bit (< 2^48, the MMU's VA width).
 *
 * nmmu_trace_open reads up to, not including, the first layer line: it remembers the file
 * offset before each line and seeks back to the layer line, so the trace must be a seekable
 * file (a regular file; the writer's -o output).  After an error every further call of
 * nmmu_trace_next returns NMMU_EV_ERROR again with the same reason; after the end, NMMU_EV_END.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutil.h"
#include "neummu/nmmu_trace.h"

#define NMMU_TRACE_LINE_MAX 1024
#define NMMU_MAX_TOK 8

/* Records "line N: <message>" as the reader's error. */
#define set_err(r, ...) cutil_seterr_line((r)->err, sizeof(r)->err, NULL, (r)->line_no, __VA_ARGS__)

/* Reads the next line with a token into buf (comment stripped) and splits it into tokens.
 * Returns the number of tokens, 0 at the end of the file, -1 on an error (r->err set).  *pos
 * receives the file offset of the line's start. */
static int read_tokens(nmmu_trace_reader_t *r, char *buf, char **tok, long *pos) {
  char why[64];
  int nt = cutil_read_tokens(r->f, buf, NMMU_TRACE_LINE_MAX, tok, NMMU_MAX_TOK, &r->line_no, pos,
                             why, sizeof why);
  if (nt < 0) set_err(r, "%s", why);
  return nt;
}

/* Rebuilds a layout line from its tokens for nmmu_layout_parse_line. */
static int layout_line(nmmu_trace_reader_t *r, char **tok, int nt) {
  char line[NMMU_TRACE_LINE_MAX];
  size_t o = 0;
  for (int i = 0; i < nt; i++) {
    int k = snprintf(line + o, sizeof line - o, i ? " %s" : "%s", tok[i]);
    if (k < 0 || (size_t)k >= sizeof line - o) {
      set_err(r, "layout line too long");
      return -1;
    }
    o += (size_t)k;
  }
  char e[200] = "";
  int k = nmmu_layout_parse_line(&r->layout, line, e, sizeof e);
  if (k == 1) return 0;
  if (k == 0) {
    set_err(r, "'%s' is not a layout line", tok[0]);
    return -1;
  }
  set_err(r, "%s", e[0] ? e : "malformed layout line");
  return -1;
}

static void reset(nmmu_trace_reader_t *r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
  nmmu_layout_free(&r->layout);
  nmmu_layout_init(&r->layout);
}

int nmmu_trace_open(nmmu_trace_reader_t *r, const char *path) {
  memset(r, 0, sizeof *r);
  nmmu_layout_init(&r->layout);
  r->f = fopen(path, "r");
  if (!r->f) {
    snprintf(r->err, sizeof r->err, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  char buf[NMMU_TRACE_LINE_MAX];
  char *tok[NMMU_MAX_TOK];
  long pos = 0;
  int nt = read_tokens(r, buf, tok, &pos);
  if (nt == 0) {
    snprintf(r->err, sizeof r->err, "%s: empty file (no 'nmmu-trace 1' header)", path);
    reset(r);
    return -1;
  }
  if (nt < 0) goto fail;
  if (strcmp(tok[0], "nmmu-trace") != 0) {
    set_err(r, "expected the header 'nmmu-trace 1', found '%s'", tok[0]);
    goto fail;
  }
  if (nt != 2 || strcmp(tok[1], "1") != 0) {
    set_err(r, "unsupported header (expected 'nmmu-trace 1')");
    goto fail;
  }
  int have_page = 0;
  for (;;) {
    nt = read_tokens(r, buf, tok, &pos);
    if (nt == 0) break;
    if (nt < 0) goto fail;
    if (!strcmp(tok[0], "layer")) {
      if (pos < 0 || fseek(r->f, pos, SEEK_SET) != 0) {
        set_err(r, "trace is not a seekable file");
        goto fail;
      }
      r->line_no--;
      break;
    }
    if (!strcmp(tok[0], "page")) {
      if (have_page) {
        set_err(r, "second 'page' line");
        goto fail;
      }
      if (nt != 2 || (strcmp(tok[1], "4k") && strcmp(tok[1], "2m"))) {
        set_err(r, "expected 'page 4k' or 'page 2m'");
        goto fail;
      }
      r->page_2m = !strcmp(tok[1], "2m");
      have_page = 1;
    } else if (!strcmp(tok[0], "seg") || !strcmp(tok[0], "hole")) {
      if (layout_line(r, tok, nt) != 0) goto fail;
    } else if (!strcmp(tok[0], "tile") || !strcmp(tok[0], "r") || !strcmp(tok[0], "w")) {
      set_err(r, "'%s' before any layer", tok[0]);
      goto fail;
    } else {
      set_err(r, "unknown line '%s' in the header", tok[0]);
      goto fail;
    }
  }
  char e[200] = "";
  if (nmmu_layout_check(&r->layout, e, sizeof e) != 0) {
    snprintf(r->err, sizeof r->err, "layout (lines 1-%ld): %s", r->line_no,
             e[0] ? e : "invalid layout");
    reset(r);
    return -1;
  }
  return 0;
fail:
  reset(r);
  return -1;
}

int nmmu_trace_next(nmmu_trace_reader_t *r, nmmu_event_t *ev) {
  memset(ev, 0, sizeof *ev);
  if (r->err[0] || !r->f) {
    if (!r->err[0]) return ev->kind = NMMU_EV_END;
    return ev->kind = NMMU_EV_ERROR;
  }
  char buf[NMMU_TRACE_LINE_MAX];
  char *tok[NMMU_MAX_TOK];
  int nt = read_tokens(r, buf, tok, NULL);
  if (nt == 0) return ev->kind = NMMU_EV_END;
  if (nt < 0) return ev->kind = NMMU_EV_ERROR;
  const char *k = tok[0];
  if (!strcmp(k, "r") || !strcmp(k, "w")) {
    uint64_t va, bytes;
    if (nt != 3) {
      set_err(r, "expected '%s <hex va> <bytes>'", k);
      return ev->kind = NMMU_EV_ERROR;
    }
    if (!r->in_tile) {
      set_err(r, "transaction before any tile");
      return ev->kind = NMMU_EV_ERROR;
    }
    if (cutil_parse_hex(tok[1], UINT64_MAX, &va) != 0) {
      set_err(r, "bad hex address '%s'", tok[1]);
      return ev->kind = NMMU_EV_ERROR;
    }
    if (va >> NMMU_VA_BITS) {
      set_err(r, "address 0x%llx beyond the 48-bit VA", (unsigned long long)va);
      return ev->kind = NMMU_EV_ERROR;
    }
    if (cutil_parse_dec(tok[2], 0, UINT32_MAX, &bytes) != 0) {
      set_err(r, "bad byte count '%s'", tok[2]);
      return ev->kind = NMMU_EV_ERROR;
    }
    if (bytes == 0 || bytes > 4096) {
      set_err(r, "transaction of %llu bytes (must be 1..4096)", (unsigned long long)bytes);
      return ev->kind = NMMU_EV_ERROR;
    }
    if ((va & 4095u) + bytes > 4096) {
      set_err(r, "transaction 0x%llx +%llu crosses a 4 KB boundary", (unsigned long long)va,
              (unsigned long long)bytes);
      return ev->kind = NMMU_EV_ERROR;
    }
    ev->kind = NMMU_EV_XFER;
    ev->va = va;
    ev->bytes = (uint32_t)bytes;
    ev->is_write = k[0] == 'w';
    return ev->kind;
  }
  if (!strcmp(k, "tile")) {
    uint64_t c;
    if (nt != 2) {
      set_err(r, "expected 'tile <compute_cycles>'");
      return ev->kind = NMMU_EV_ERROR;
    }
    if (!r->in_layer) {
      set_err(r, "tile before any layer");
      return ev->kind = NMMU_EV_ERROR;
    }
    if (cutil_parse_dec(tok[1], 0, NMMU_MAX_TILE_CYCLES, &c) != 0) {
      set_err(r, "bad compute cycles '%s' (decimal, at most %llu)", tok[1],
              (unsigned long long)NMMU_MAX_TILE_CYCLES);
      return ev->kind = NMMU_EV_ERROR;
    }
    r->in_tile = 1;
    ev->kind = NMMU_EV_TILE;
    ev->compute_cycles = c;
    return ev->kind;
  }
  if (!strcmp(k, "layer")) {
    if (nt != 3) {
      set_err(r, "expected 'layer <name> <scale>'");
      return ev->kind = NMMU_EV_ERROR;
    }
    if (strlen(tok[1]) >= NMMU_NAME_LEN) {
      set_err(r, "layer name longer than %d characters", NMMU_NAME_LEN - 1);
      return ev->kind = NMMU_EV_ERROR;
    }
    char *end;
    errno = 0;
    double s = strtod(tok[2], &end);
    if (*end || errno == ERANGE || !isfinite(s) || !(s > 0) || strpbrk(tok[2], "xX") ||
        !((tok[2][0] >= '0' && tok[2][0] <= '9') || tok[2][0] == '.')) {
      set_err(r, "bad scale '%s' (a decimal > 0)", tok[2]);
      return ev->kind = NMMU_EV_ERROR;
    }
    r->in_layer = 1;
    r->in_tile = 0;
    ev->kind = NMMU_EV_LAYER;
    memcpy(ev->name, tok[1], strlen(tok[1]) + 1);
    ev->scale = s;
    return ev->kind;
  }
  if (!strcmp(k, "seg") || !strcmp(k, "hole") || !strcmp(k, "page")) {
    set_err(r, "'%s' line after the first layer", k);
    return ev->kind = NMMU_EV_ERROR;
  }
  if (!strcmp(k, "nmmu-trace")) {
    set_err(r, "second header line");
    return ev->kind = NMMU_EV_ERROR;
  }
  set_err(r, "unknown line '%.40s'", k);
  return ev->kind = NMMU_EV_ERROR;
}

void nmmu_trace_close(nmmu_trace_reader_t *r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
  nmmu_layout_free(&r->layout);
  nmmu_layout_init(&r->layout);
}
