/* neunoc.h -- golden model of the Neu-NoC block (rtl/neunoc) and the formats its host tools
 * and harnesses share.  docs/neunoc.md has the same definitions with pictures.
 *
 * Topology.  A Cols x Rows global mesh of routers; router r = y * Cols + x (x = column, grows
 * to the east; y = row, grows to the north).  Every mesh router has one local ring of K PEs
 * (K = 1: the plain 2D mesh, one PE on the local port, no ring routers).  PE p (0..K-1) of
 * router r has the global id r * K + p.  Mesh ports: 0 local, 1 east (x+1), 2 west (x-1),
 * 3 north (y+1), 4 south (y-1).  Routing is XY (first along x, then along y).
 *
 * Flit.  FlitW = 2 + PW bits: type in the top two bits, payload PW = max(DataW, HdrW, CntW)
 * below.  Types: NNOC_HEAD 2'b01, NNOC_BODY 2'b00, NNOC_TAIL 2'b10, NNOC_PP 2'b11.
 *   head payload, LSB first:
 *     [DstW-1:0]      destination router(s), one of two encodings (cfg dst_coord, RTL DstCoord):
 *                       dst_coord = 0: dst_mesh, one bit per router (DstW = NR): the packet is
 *                         for PEs of router r's ring for every bit r set (multicast)
 *                       dst_coord = 1: the one destination router's coordinates, x in the low
 *                         XW bits, y in the YW bits above (DstW = XW + YW; XW = max(1,
 *                         clog2(Cols)), YW = max(1, clog2(Rows))): unicast between routers,
 *                         the conventional mesh header; a head with x >= Cols or y >= Rows has
 *                         no destination
 *     next K bits     dst_pe    one bit per ring position: which PEs of each destination ring
 *     next RIdW bits  src router          (RIdW = max(1, clog2(NR)))
 *     next PIdW bits  src ring position   (PIdW = max(1, clog2(K)))
 *     next TagW bits  tag                 (the source's packet number, carried untouched)
 *     next 1 bit      single              1: head-only packet (no data flits follow)
 *     HdrW = DstW + K + RIdW + PIdW + TagW + 1; bits above HdrW are zero.
 *   body / tail payload: [DataW-1:0] one data word, upper bits zero.
 *   PP payload (mesh links only): [CntW-1:0] n = 1 .. 2^CntW - 1 zero body words it stands for.
 * Packet at a PE: a head with single = 1 alone, or a head (single = 0) then L >= 1 data flits:
 * L - 1 bodies and a tail.  A packet for more than one router (popcount(dst_mesh) > 1) must fit
 * in one virtual channel: 1 + L <= VcDepth (the multicast deadlock rule, docs/neunoc.md).
 *
 * Zero-flit packing (ring -> mesh; unpacking mesh -> ring): every run of consecutive body
 * flits whose word is 0 becomes PP flits, greedily: full PP flits of CntMax = 2^CntW - 1 words,
 * then one PP flit for the rest.  A run of one word is packed too.  Heads and tails are never
 * packed (a zero last word travels as a tail).  Unpacking restores the exact body flits.
 *
 * Delivery.  Every PE p of every router r with dst_mesh bit r and dst_pe bit p set receives the
 * packet once, as one contiguous flit sequence: the head with dst_mesh = (1 << r) only (with
 * dst_coord = 1: the coordinates of r, unchanged) and
 * dst_pe = the original dst_pe with the bits below p cleared (each ring router clears its own
 * bit when it takes its copy), every other head field unchanged, then the original data flits.
 * Packets to different PEs and from different sources may arrive in any order.
 */
#ifndef NEUNOC_H
#define NEUNOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NNOC_MAX_ROUTERS 1024 /* Cols * Rows */
#define NNOC_MAX_K 32
#define NNOC_MAX_WORDS 4096 /* data words in one packet */
#define NNOC_MAX_CYCLE ((1ull << 40) - 1) /* a traffic file's largest creation cycle */
#define NNOC_MASK_WORDS (NNOC_MAX_ROUTERS / 32)
/* 32-bit words of one flit (2 + PW <= 32 * NNOC_FLIT_WORDS); the layout of a Verilator
 * VlWide of the same width, word 0 = bits 31:0. */
#define NNOC_FLIT_WORDS 36

enum { NNOC_BODY = 0, NNOC_HEAD = 1, NNOC_TAIL = 2, NNOC_PP = 3 };
enum { NNOC_PORT_L = 0, NNOC_PORT_E = 1, NNOC_PORT_W = 2, NNOC_PORT_N = 3, NNOC_PORT_S = 4 };
/* Used by the RTL under the same names in UpperCamelCase (rtl/neunoc: localparam NnocTypeBits,
 * NnocPorts, NnocHead, NnocPortE, ...). */
#define NNOC_TYPE_BITS 2 /* the flit type field: the top bits of a flit */
#define NNOC_PORTS 5     /* mesh router ports, NNOC_PORT_L .. NNOC_PORT_S */

typedef struct {
  int k;      /* PEs per local ring, 1..NNOC_MAX_K (1 = plain mesh) */
  int cols;   /* n: mesh columns */
  int rows;   /* m: mesh rows; cols * rows <= NNOC_MAX_ROUTERS */
  int data_w; /* data word width, 1..32 */
  int tag_w;  /* tag width, 1..16 */
  int cnt_w;  /* PP counter width, 1..16 */
  int dst_coord; /* head destination: 0 = router bit string (multicast), 1 = coordinates */
} nnoc_cfg_t;

/* 0 when cfg is valid; otherwise -1 and a one-line reason in err. */
int nnoc_cfg_check(const nnoc_cfg_t *cfg, char *err, size_t errlen);
int nnoc_routers(const nnoc_cfg_t *cfg); /* NR = cols * rows */
int nnoc_pes(const nnoc_cfg_t *cfg);     /* NR * K */
int nnoc_rid_w(const nnoc_cfg_t *cfg);
int nnoc_pid_w(const nnoc_cfg_t *cfg);
int nnoc_x_w(const nnoc_cfg_t *cfg);   /* XW = max(1, clog2(cols)): a coordinate head's column bits */
int nnoc_dst_w(const nnoc_cfg_t *cfg); /* DstW: NR, or XW + YW with dst_coord */
int nnoc_hdr_w(const nnoc_cfg_t *cfg);
int nnoc_payload_w(const nnoc_cfg_t *cfg); /* PW */
int nnoc_flit_w(const nnoc_cfg_t *cfg);    /* 2 + PW */

/* ---- packets and flits ---- */
typedef struct {
  uint64_t t;                           /* creation cycle at the source (traffic files) */
  int src;                              /* global PE id of the source */
  uint32_t dst_mesh[NNOC_MASK_WORDS];   /* bit r = router r */
  uint32_t dst_pe;                      /* bit p = ring position p */
  uint32_t tag;
  int nwords;                           /* 0 = head-only packet */
  uint32_t words[NNOC_MAX_WORDS];
} nnoc_pkt_t;

typedef struct {
  uint32_t w[NNOC_FLIT_WORDS];
} nnoc_flit_t;

int nnoc_flit_type(const nnoc_cfg_t *cfg, const nnoc_flit_t *f);
/* Field access on a flit's payload (bit offsets as in the layout above). */
/* Flit bits 31:0, i.e. payload bits 31:0.  When FlitW <= 32 the type bits are among them (PW
 * can be as small as 6), so mask with DataW (body, tail) or CntW (PP) to get the field. */
uint32_t nnoc_flit_word(const nnoc_flit_t *f);
int nnoc_mask_get(const uint32_t *mask, int bit);
void nnoc_mask_set(uint32_t *mask, int bit, int val);
int nnoc_mask_popcount(const uint32_t *mask, int nbits);

/* Head flit of p as the source injects it. */
void nnoc_head_encode(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, nnoc_flit_t *out);
/* Decodes a head's fields into p (t, nwords and words untouched); returns 1 when single. */
int nnoc_head_decode(const nnoc_cfg_t *cfg, const nnoc_flit_t *f, nnoc_pkt_t *p);
/* The unpacked flit sequence the source injects (head, bodies, tail); returns the count. */
int nnoc_pkt_flits(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, nnoc_flit_t *out, int max);
/* Packing and unpacking of one packet's flit sequence; return the output count, or -1 when
 * the input is not a well-formed packet (unpack: also a PP count of 0) or out is too small. */
int nnoc_pack(const nnoc_cfg_t *cfg, const nnoc_flit_t *in, int n, nnoc_flit_t *out, int max);
int nnoc_unpack(const nnoc_cfg_t *cfg, const nnoc_flit_t *in, int n, nnoc_flit_t *out, int max);
/* Flits p occupies on a mesh link with (pack = 1) or without (pack = 0) zero-flit packing. */
int nnoc_mesh_flits(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int pack);

/* Destination PEs of p in ascending global id; returns their number (a validation error in p,
 * e.g. a dst bit beyond the network, gives -1). */
int nnoc_dests(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int *pe, int max);
/* The exact flit sequence PE `pe` must receive for p (head rewritten as above); returns the
 * count, or -1 when pe is not a destination of p. */
int nnoc_delivery(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int pe, nnoc_flit_t *out, int max);
/* 0 when p is a packet the network accepts (fields in range, at least one destination, one
 * destination router with dst_coord, multicast length rule for vc_depth); otherwise -1 and a
 * one-line reason. */
int nnoc_pkt_check(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int vc_depth, char *err,
                   size_t errlen);

/* ---- XY routing and paths (cmodel/neunoc/nnoc_topo.c) ---- */
/* Output ports of router r for a head whose dst_mesh is `dst`: returns a port bit mask
 * (bit NNOC_PORT_*), and, when sub != NULL, the dst_mesh each port's copy carries
 * (sub[port] = the destinations reached through that port; zero for unused ports). */
int nnoc_route(const nnoc_cfg_t *cfg, int r, const uint32_t *dst,
               uint32_t sub[5][NNOC_MASK_WORDS]);
/* Router hops of the XY path from router a to router b (|dx| + |dy|). */
int nnoc_hops(const nnoc_cfg_t *cfg, int a, int b);
/* Directed mesh link id of router r's output port (1..4): r * 4 + (port - 1); -1 at an edge. */
int nnoc_link(const nnoc_cfg_t *cfg, int r, int port);
/* Links of the XY path a -> b in order; returns the count. */
int nnoc_xy_links(const nnoc_cfg_t *cfg, int a, int b, int *links, int max);

/* ---- traffic files (sw/neunoc/libnnoc_traffic.c) ----
 * Text, '#' starts a comment, blank lines ignored:
 *   nnoc-traffic 1                                     first non-comment line
 *   net <K> <Cols> <Rows>                              once, before any pkt
 *   pkt <t> <src> <dst_mesh hex> <dst_pe hex> <tag> <nwords> [<word hex> ...]
 * t: creation cycle (decimal, nondecreasing through the file, at most NNOC_MAX_CYCLE: 2^40 - 1,
 * years of simulation); src: global PE id; dst_mesh: bit
 * string as a hex number of any length (bit r = router r); tag, nwords decimal; words hex.
 * The reader checks every field against the net line and the widths in cfg (data_w, tag_w). */
typedef struct nnoc_traffic nnoc_traffic_t;
/* Opens and reads the header; cfg->k/cols/rows are set from the net line (other cfg fields
 * are the caller's).  NULL and a one-line reason "path:line: ..." in err on failure. */
nnoc_traffic_t *nnoc_traffic_open(const char *path, nnoc_cfg_t *cfg, char *err, size_t errlen);
/* Next packet: 1, 0 at the end, -1 on a malformed line (reason in err). */
int nnoc_traffic_next(nnoc_traffic_t *t, nnoc_pkt_t *p, char *err, size_t errlen);
void nnoc_traffic_close(nnoc_traffic_t *t);
/* The whole file read once (open, every packet, close), so that a harness reports a malformed
 * line before it simulates rather than when it reaches it: 0 with the packet count and the last
 * packet's cycle (0 for a file without packets), or -1 with the first error's reason in err.
 * cfg as for nnoc_traffic_open. */
int nnoc_traffic_scan(const char *path, nnoc_cfg_t *cfg, long *npkts, uint64_t *last_t, char *err,
                      size_t errlen);
/* Writer: the header, then one line per packet; 0 or -1 on I/O error. */
int nnoc_traffic_write_header(FILE *f, const nnoc_cfg_t *cfg);
int nnoc_traffic_write_pkt(FILE *f, const nnoc_cfg_t *cfg, const nnoc_pkt_t *p);

#ifdef __cplusplus
}
#endif

#endif
