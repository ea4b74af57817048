/* neummu.h -- golden model of the NeuMMU block (rtl/neummu) and the file formats its host
 * tools and harnesses share.
 *
 * Translation (docs/neummu.md, "Page tables"): x86-64 4-level radix tables, 48-bit VA, 9-bit
 * L4/L3/L2/L1 indices, 4 KB pages, 2 MB pages through the PS bit of an L2 entry.
 *   PTE bit 0 P (present), bit 1 W (writable), bit 2 U (user), bit 7 PS (page size, L2 only),
 *   bits 51:12 frame (a table's or a 4 KB page's physical frame; bits 51:21 for a 2 MB page).
 * Every NeuMMU request is a user access (the NPU DMA works for a user process):
 *   - a non-present entry at any level                    -> NMMU_ST_NOT_PRESENT
 *   - PS set in an L4 or L3 entry (1 GB pages unsupported) -> NMMU_ST_NOT_PRESENT
 *   - U clear at any level, or a write with W clear at any level -> NMMU_ST_PERM
 * A fault reports PA 0.  The walk reads one 8-byte entry per level from the memory image;
 * unwritten memory reads as 0 (not present).
 *
 * Memory image: a sparse 64-bit-word physical memory (nmmu_mem_*), built by sw/neummu
 * (nmmu_ptgen) and saved as a text file (format below), served by the harness on the RTL's
 * page-table read port and walked by nmmu_translate().
 */
#ifndef NEUMMU_H
#define NEUMMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NMMU_VA_BITS 48
#define NMMU_PA_BITS 52
#define NMMU_PTE_P (1ull << 0)
#define NMMU_PTE_W (1ull << 1)
#define NMMU_PTE_U (1ull << 2)
#define NMMU_PTE_PS (1ull << 7)
#define NMMU_PTE_FRAME 0x000FFFFFFFFFF000ull /* bits 51:12 */
#define NMMU_PTE_FRAME_2M 0x000FFFFFFFE00000ull /* bits 51:21 */

/* Field widths and bit positions the RTL uses under the same names (rtl/neummu: localparam
 * NmmuPageShift = NMMU_PAGE_SHIFT, ... -- each name in UpperCamelCase). */
#define NMMU_PAGE_SHIFT 12    /* 4 KB page: page-offset bits (VA and PA) */
#define NMMU_PAGE_SHIFT_2M 21 /* 2 MB page: page-offset bits */
#define NMMU_LEVEL_BITS 9     /* table index bits per level: VA bits 47:39 L4 ... 20:12 L1 */
#define NMMU_LEVELS 4         /* L4, L3, L2, L1 */
#define NMMU_VPN_BITS (NMMU_VA_BITS - NMMU_PAGE_SHIFT) /* 36: va[47:12] */
#define NMMU_PPN_BITS (NMMU_PA_BITS - NMMU_PAGE_SHIFT) /* 40: pa[51:12], a 4 KB frame */
#define NMMU_PTE_BITS 64      /* one page-table entry */
#define NMMU_PTE_SHIFT 3      /* log2 of its 8 bytes: the read port takes pa[51:3] */
#define NMMU_PTE_P_BIT 0      /* bit positions of NMMU_PTE_P, _W, _U, _PS */
#define NMMU_PTE_W_BIT 1
#define NMMU_PTE_U_BIT 2
#define NMMU_PTE_PS_BIT 7
#define NMMU_ST_BITS 2        /* width of a status code (NMMU_ST_*) on the response port */

enum { NMMU_ST_OK = 0, NMMU_ST_NOT_PRESENT = 1, NMMU_ST_PERM = 2 };

/* ---- sparse physical memory image ---- */
typedef struct nmmu_mem nmmu_mem_t;

nmmu_mem_t *nmmu_mem_new(void);
void nmmu_mem_free(nmmu_mem_t *m);
/* Physical address of the L4 table (4 KB aligned). */
uint64_t nmmu_mem_root(const nmmu_mem_t *m);
void nmmu_mem_set_root(nmmu_mem_t *m, uint64_t root_pa);
/* 8-byte word at pa (pa is 8-byte aligned, < 2^52); unwritten words read 0.  A pa that is
 * unaligned or >= 2^52 reads 0; writing one (or setting such a root, or one not 4 KB aligned)
 * is a caller bug: the model prints it on stderr and aborts rather than corrupt the image. */
uint64_t nmmu_mem_read(const nmmu_mem_t *m, uint64_t pa);
void nmmu_mem_write(nmmu_mem_t *m, uint64_t pa, uint64_t val);
/* Number of nonzero words (what a saved image lists). */
size_t nmmu_mem_words(const nmmu_mem_t *m);
/* Calls fn(ctx, pa, value) once for every nonzero word, in no particular order (a driver copies
 * the tables into device memory with it). */
void nmmu_mem_foreach(const nmmu_mem_t *m, void (*fn)(void *ctx, uint64_t pa, uint64_t val),
                      void *ctx);

/* Image file (text, '#' starts a comment, blank lines ignored):
 *   nmmu-image 2                 first non-comment line
 *   root <hex pa>                L4 table address, 4 KB aligned, exactly once
 *   <hex pa> <hex value>         one 8-byte word (pa 8-byte aligned, < 2^52), any number
 *   end <words> <hex sum>        last line: the number of word lines and their checksum, so a
 *                                truncated or damaged image is refused: sum (mod 2^64) over the
 *                                root and every word of cutil_mix64(key ^ cutil_mix64(value)),
 *                                key = pa for a word and 1 for the root (order-free)
 * Hex numbers may carry a 0x prefix.  Load returns NULL and writes a one-line reason (with the
 * line number) into err on any malformed line, unaligned or out-of-range address, duplicate
 * address, missing header, root or end line, a count or checksum that does not match, or data
 * after the end line.  Version 1 images (no end line) are refused: regenerate them. */
nmmu_mem_t *nmmu_mem_load(const char *path, char *err, size_t errlen);
/* Writes the image (words in ascending address order); 0 on success, -1 on I/O error. */
int nmmu_mem_save(const nmmu_mem_t *m, const char *path);
/* Addition: the same to an open stream (nmmu_ptgen writes '-' to stdout); 0 or -1. */
int nmmu_mem_save_file(const nmmu_mem_t *m, FILE *f);

/* ---- translation ---- */
typedef struct {
  uint64_t pa;     /* physical address (0 on a fault) */
  int status;      /* NMMU_ST_* */
  int levels;      /* page-table entries read by a full walk (1..4) */
  int page_2m;     /* 1 when the leaf is a 2 MB page */
  int writable;    /* effective W and U along the path (valid when status != NOT_PRESENT) */
  int user;
} nmmu_xlat_t;

/* Walks the tables of m from its root for va (only bits 47:0 are used) with the given access
 * type (is_write != 0 for a write) and returns the result.  Clock-free reference of one
 * request; the RTL must give the same pa and status for every request. */
nmmu_xlat_t nmmu_translate(const nmmu_mem_t *m, uint64_t va, int is_write);

/* ---- address-space layout (input of nmmu_ptgen, header of a DMA trace) ----
 * Text lines:
 *   seg <name> <hex va> <bytes> <4k|2m> <rw|ro>   a mapped segment; va aligned to its page
 *                                                size, bytes > 0 (rounded up to whole pages)
 *   hole <hex va> <bytes>                         pages inside a segment left unmapped
 *                                                 (page-aligned, whole pages; they fault)
 * Segments may not overlap; a hole must lie inside one segment.
 * (Model's reading, cmodel/neummu/nmmu_layout.c: <bytes> is decimal or 0x-prefixed hex; names are
 * 1..31 printable characters; '#' starts a comment; holes may overlap one another; a layout's
 * segs/holes are heap arrays exactly nsegs/nholes long, grown by parse_line, freed by free.) */
#define NMMU_NAME_LEN 32
typedef struct {
  char name[NMMU_NAME_LEN];
  uint64_t va;
  uint64_t bytes;
  int page_2m;
  int read_only;
} nmmu_seg_t;

typedef struct {
  uint64_t va;
  uint64_t bytes;
} nmmu_hole_t;

typedef struct {
  nmmu_seg_t *segs;
  size_t nsegs;
  nmmu_hole_t *holes;
  size_t nholes;
} nmmu_layout_t;

void nmmu_layout_init(nmmu_layout_t *l);
void nmmu_layout_free(nmmu_layout_t *l);
/* Parses one 'seg' or 'hole' line (already split from a file); returns 1 when the line was a
 * layout line and was added, 0 when it is not a layout line, -1 (reason in err) when it is
 * a malformed layout line. */
int nmmu_layout_parse_line(nmmu_layout_t *l, const char *line, char *err, size_t errlen);
/* Checks alignment, overlap and hole containment: 0 or -1 with the reason in err. */
int nmmu_layout_check(const nmmu_layout_t *l, char *err, size_t errlen);
/* Addition: size of segment s rounded up to whole pages (what it maps, holes included). */
uint64_t nmmu_seg_span(const nmmu_seg_t *s);

/* ---- page-table builder (addition; the engine of sw/neummu/nmmu_ptgen.c) ----
 * Builds the tables of a checked layout into m (normally new):
 *   - table pages (4 KB each) from pt_base upward; the first is the root (set in m);
 *     intermediate entries P|W|U; the entries of holes and of unmapped space stay 0;
 *   - segments in ascending VA order, pages in ascending VA order, holes skipped; each page's
 *     leaf is its frame | P | U | W (W left out for a read-only segment), | PS for 2 MB;
 *   - data frames: the n2m 2 MB frames from D2 = data_base rounded up to 2 MB (data_base itself
 *     when there are no 2 MB pages), then the n4k 4 KB frames from D4 = D2 + n2m * 2 MB.  The
 *     k-th page of a size gets frame k of its class, or with scatter frame perm[k] of a
 *     Fisher-Yates permutation drawn from a splitmix64 stream seeded by seed (deterministic).
 * Fails (-1, one-line reason in err, m then holds a partial build) when the layout (with the
 * page override applied) fails nmmu_layout_check, has no segment, maps more than
 * NMMU_BUILD_MAX_PAGES pages, when a base is misaligned, when tables or frames reach 2^52, or
 * when the table range [pt_base, pt_end) and the data range [data_lo, data_end) overlap. */
#define NMMU_BUILD_MAX_PAGES (1ull << 24)
typedef struct {
  uint64_t pt_base;   /* 4 KB aligned; default 0x1000 */
  uint64_t data_base; /* 4 KB aligned; default 0x10000000000 (2^40, so frames use high bits) */
  int page;           /* -1: each segment's own page size (default); 0: all 4 KB; 1: all 2 MB */
  int scatter;        /* 1: shuffle the frames of each class (default 0: contiguous) */
  uint64_t seed;      /* PRNG seed of scatter (default 1) */
  /* Optional: called once per mapped page with its VA, the frame it was given, its size and
   * whether it is read-only. */
  void (*on_map)(void *ctx, uint64_t va, uint64_t pa, int page_2m, int read_only);
  void *ctx;
} nmmu_build_cfg_t;

typedef struct {
  uint64_t pages_4k, pages_2m; /* pages mapped */
  uint64_t hole_pages;         /* pages of segments left unmapped by holes */
  uint64_t table_pages;        /* root included */
  uint64_t root, pt_end;       /* tables occupy [root, pt_end) */
  uint64_t data_lo, data_end;  /* frames lie in [data_lo, data_end) (empty when no pages) */
} nmmu_build_stats_t;

void nmmu_build_cfg_init(nmmu_build_cfg_t *c);
int nmmu_build(nmmu_mem_t *m, const nmmu_layout_t *l, const nmmu_build_cfg_t *c,
               nmmu_build_stats_t *st, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
