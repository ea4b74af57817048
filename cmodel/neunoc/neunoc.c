/* neunoc.c -- golden model of the Neu-NoC flit format (rtl/neunoc): configuration widths, head
 * encoding, the unpacked flit sequence of a packet, zero-flit packing/unpacking, the expected
 * delivery at every destination PE and the packet acceptance rules.  Every rule is documented
 * in cmodel/include/neunoc.h; XY routing lives in nnoc_topo.c, traffic files in sw/neunoc. */
#include "neunoc.h"

#include <string.h>

#include "cutil.h"

#define FLIT_BITS (32 * NNOC_FLIT_WORDS)

/* Smallest w with 2^w >= n (0 for n <= 1). */
static int clog2(int n) {
  int w = 0;
  while (w < 31 && (1 << w) < n) w++;
  return w;
}

/* Low `w` bits set, for 0 <= w <= 32 (a plain shift by 32 would be undefined). */
static uint32_t low_mask(int w) { return w >= 32 ? 0xffffffffu : (1u << w) - 1; }

/* ================================================================ cfg */

static int in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

int nnoc_routers(const nnoc_cfg_t *cfg) { return cfg->cols * cfg->rows; }
int nnoc_pes(const nnoc_cfg_t *cfg) { return nnoc_routers(cfg) * cfg->k; }

static int max1(int v) { return v < 1 ? 1 : v; }
/* A 1-router mesh or a 1-PE ring still gets a 1-bit id field, so the RTL never has a
 * zero-width vector. */
int nnoc_rid_w(const nnoc_cfg_t *cfg) { return max1(clog2(nnoc_routers(cfg))); }
int nnoc_pid_w(const nnoc_cfg_t *cfg) { return max1(clog2(cfg->k)); }

int nnoc_x_w(const nnoc_cfg_t *cfg) { return max1(clog2(cfg->cols)); }
static int y_w(const nnoc_cfg_t *cfg) { return max1(clog2(cfg->rows)); }
int nnoc_dst_w(const nnoc_cfg_t *cfg) {
  return cfg->dst_coord ? nnoc_x_w(cfg) + y_w(cfg) : nnoc_routers(cfg);
}

int nnoc_hdr_w(const nnoc_cfg_t *cfg) {
  return nnoc_dst_w(cfg) + cfg->k + nnoc_rid_w(cfg) + nnoc_pid_w(cfg) + cfg->tag_w + 1;
}

int nnoc_payload_w(const nnoc_cfg_t *cfg) {
  int pw = cfg->data_w;
  int hw = nnoc_hdr_w(cfg);
  if (hw > pw) pw = hw;
  if (cfg->cnt_w > pw) pw = cfg->cnt_w;
  return pw;
}

int nnoc_flit_w(const nnoc_cfg_t *cfg) { return 2 + nnoc_payload_w(cfg); }

int nnoc_cfg_check(const nnoc_cfg_t *cfg, char *err, size_t errlen) {
  if (!cfg) return cutil_seterr(err, errlen, "no configuration"), -1;
  if (!in_range(cfg->k, 1, NNOC_MAX_K))
    return cutil_seterr(err, errlen, "k = %d: PEs per ring must be 1..%d", cfg->k, NNOC_MAX_K), -1;
  /* cols and rows are bounded one at a time first so their product cannot overflow. */
  if (!in_range(cfg->cols, 1, NNOC_MAX_ROUTERS) || !in_range(cfg->rows, 1, NNOC_MAX_ROUTERS) ||
      cfg->cols * cfg->rows > NNOC_MAX_ROUTERS)
    return cutil_seterr(err, errlen,
                        "mesh %d x %d: cols and rows must be >= 1 and cols * rows <= %d", cfg->cols,
                        cfg->rows, NNOC_MAX_ROUTERS),
           -1;
  if (!in_range(cfg->data_w, 1, 32))
    return cutil_seterr(err, errlen, "data_w = %d: must be 1..32", cfg->data_w), -1;
  if (!in_range(cfg->tag_w, 1, 16))
    return cutil_seterr(err, errlen, "tag_w = %d: must be 1..16", cfg->tag_w), -1;
  if (!in_range(cfg->cnt_w, 1, 16))
    return cutil_seterr(err, errlen, "cnt_w = %d: must be 1..16", cfg->cnt_w), -1;
  if (!in_range(cfg->dst_coord, 0, 1))
    return cutil_seterr(err, errlen, "dst_coord = %d: must be 0 (bit string) or 1 (coordinates)",
                        cfg->dst_coord),
           -1;
  /* Unreachable with the limits above (the widest flit is 1090 bits), kept so that raising a
   * limit without raising NNOC_FLIT_WORDS fails loudly instead of overrunning a flit. */
  if (nnoc_flit_w(cfg) > FLIT_BITS)
    return cutil_seterr(err, errlen, "flit of %d bits does not fit in NNOC_FLIT_WORDS = %d words",
                        nnoc_flit_w(cfg), NNOC_FLIT_WORDS),
           -1;
  return 0;
}

/* ================================================================ bit fields of a flit */

/* Writes the low `width` (0..32) bits of val at bit pos; the field may straddle two words. */
static void put_bits(nnoc_flit_t *f, int pos, int width, uint32_t val) {
  if (width <= 0) return;
  uint64_t m = (uint64_t)low_mask(width) << (pos & 31);
  uint64_t v = ((uint64_t)(val & low_mask(width))) << (pos & 31);
  int i = pos >> 5;
  f->w[i] = (f->w[i] & ~(uint32_t)m) | (uint32_t)v;
  if ((m >> 32) && i + 1 < NNOC_FLIT_WORDS)
    f->w[i + 1] = (f->w[i + 1] & ~(uint32_t)(m >> 32)) | (uint32_t)(v >> 32);
}

static uint32_t get_bits(const nnoc_flit_t *f, int pos, int width) {
  if (width <= 0) return 0;
  int i = pos >> 5;
  uint64_t v = f->w[i];
  if (i + 1 < NNOC_FLIT_WORDS) v |= (uint64_t)f->w[i + 1] << 32;
  return (uint32_t)(v >> (pos & 31)) & low_mask(width);
}

/* Bit offsets of the head fields and the flit's widths, computed once per call. */
typedef struct {
  int nr, k, cols, rows;
  int dst_coord, x_w, dst_w; /* destination encoding (nnoc_cfg_t dst_coord) and its width */
  int rid_w, pid_w, tag_w, data_w, cnt_w;
  int off_pe, off_rid, off_pid, off_tag, off_single;
  int hdr_w, flit_w;
} layout_t;

static layout_t layout_of(const nnoc_cfg_t *cfg) {
  layout_t l;
  l.nr = nnoc_routers(cfg);
  l.k = cfg->k;
  l.cols = cfg->cols;
  l.rows = cfg->rows;
  l.dst_coord = cfg->dst_coord;
  l.x_w = nnoc_x_w(cfg);
  l.dst_w = nnoc_dst_w(cfg);
  l.rid_w = nnoc_rid_w(cfg);
  l.pid_w = nnoc_pid_w(cfg);
  l.tag_w = cfg->tag_w;
  l.data_w = cfg->data_w;
  l.cnt_w = cfg->cnt_w;
  l.off_pe = l.dst_w;
  l.off_rid = l.off_pe + l.k;
  l.off_pid = l.off_rid + l.rid_w;
  l.off_tag = l.off_pid + l.pid_w;
  l.off_single = l.off_tag + l.tag_w;
  l.hdr_w = l.off_single + 1;
  l.flit_w = nnoc_flit_w(cfg);
  return l;
}

static int type_of(const layout_t *l, const nnoc_flit_t *f) {
  return (int)get_bits(f, l->flit_w - 2, 2);
}

/* A fresh flit of the given type with a payload of up to 32 bits at bit 0. */
static nnoc_flit_t make_flit(const layout_t *l, int type, uint32_t payload) {
  nnoc_flit_t f;
  memset(&f, 0, sizeof f);
  put_bits(&f, 0, 32, payload);
  put_bits(&f, l->flit_w - 2, 2, (uint32_t)type);
  return f;
}

/* 1 when every bit of f at or above payload bit `used` is zero apart from the type bits, i.e.
 * the unused upper payload and everything above FlitW are clear as the format demands. */
static int upper_clear(const layout_t *l, const nnoc_flit_t *f, int used) {
  nnoc_flit_t c = *f;
  put_bits(&c, l->flit_w - 2, 2, 0);
  for (int i = used >> 5; i < NNOC_FLIT_WORDS; i++) {
    uint32_t w = c.w[i];
    if (i == used >> 5) w &= ~low_mask(used & 31);
    if (w) return 0;
  }
  return 1;
}

/* ================================================================ packets and flits */

int nnoc_flit_type(const nnoc_cfg_t *cfg, const nnoc_flit_t *f) {
  layout_t l = layout_of(cfg);
  return type_of(&l, f);
}

uint32_t nnoc_flit_word(const nnoc_flit_t *f) { return f->w[0]; }

int nnoc_mask_get(const uint32_t *mask, int bit) { return (int)((mask[bit >> 5] >> (bit & 31)) & 1); }

void nnoc_mask_set(uint32_t *mask, int bit, int val) {
  uint32_t b = 1u << (bit & 31);
  if (val)
    mask[bit >> 5] |= b;
  else
    mask[bit >> 5] &= ~b;
}

static int popcount32(uint32_t v) {
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

int nnoc_mask_popcount(const uint32_t *mask, int nbits) {
  int n = 0;
  for (int i = 0; i * 32 < nbits; i++) {
    int w = nbits - i * 32;
    n += popcount32(mask[i] & low_mask(w > 32 ? 32 : w));
  }
  return n;
}

/* Head of p with the given dst_mesh; every field is cut to its width so a bad packet can never
 * spill into a neighbouring field (nnoc_pkt_check is where out-of-range values are refused). */
static nnoc_flit_t head_with(const layout_t *l, const nnoc_pkt_t *p, const uint32_t *dst_mesh,
                             uint32_t dst_pe) {
  nnoc_flit_t f = make_flit(l, NNOC_HEAD, 0);
  if (l->dst_coord) {
    /* the lowest destination router (nnoc_pkt_check refuses more than one, and none: an empty
     * dst_mesh encodes the last router here, a field never left out of range) */
    int r = 0;
    while (r < l->nr - 1 && !nnoc_mask_get(dst_mesh, r)) r++;
    put_bits(&f, 0, l->dst_w, (uint32_t)(r / l->cols) << l->x_w | (uint32_t)(r % l->cols));
  } else {
    for (int i = 0; i * 32 < l->nr; i++) {
      int w = l->nr - i * 32;
      put_bits(&f, i * 32, w > 32 ? 32 : w, dst_mesh[i]);
    }
  }
  put_bits(&f, l->off_pe, l->k, dst_pe);
  put_bits(&f, l->off_rid, l->rid_w, (uint32_t)(p->src / l->k));
  put_bits(&f, l->off_pid, l->pid_w, (uint32_t)(p->src % l->k));
  put_bits(&f, l->off_tag, l->tag_w, p->tag);
  put_bits(&f, l->off_single, 1, p->nwords == 0);
  return f;
}

void nnoc_head_encode(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, nnoc_flit_t *out) {
  layout_t l = layout_of(cfg);
  *out = head_with(&l, p, p->dst_mesh, p->dst_pe);
}

int nnoc_head_decode(const nnoc_cfg_t *cfg, const nnoc_flit_t *f, nnoc_pkt_t *p) {
  layout_t l = layout_of(cfg);
  memset(p->dst_mesh, 0, sizeof p->dst_mesh);
  if (l.dst_coord) {
    /* coordinates off the mesh decode to no destination */
    int x = (int)get_bits(f, 0, l.x_w), y = (int)get_bits(f, l.x_w, l.dst_w - l.x_w);
    if (x < l.cols && y < l.rows) nnoc_mask_set(p->dst_mesh, y * l.cols + x, 1);
  } else {
    for (int i = 0; i * 32 < l.nr; i++) {
      int w = l.nr - i * 32;
      p->dst_mesh[i] = get_bits(f, i * 32, w > 32 ? 32 : w);
    }
  }
  p->dst_pe = get_bits(f, l.off_pe, l.k);
  p->src = (int)get_bits(f, l.off_rid, l.rid_w) * l.k + (int)get_bits(f, l.off_pid, l.pid_w);
  p->tag = get_bits(f, l.off_tag, l.tag_w);
  return (int)get_bits(f, l.off_single, 1);
}

/* Data flits of p (bodies then the tail) appended at out[1..]; returns the total count or -1
 * when they do not fit.  Words are cut to DataW, as the head fields are. */
static int put_data(const layout_t *l, const nnoc_pkt_t *p, nnoc_flit_t *out, int max) {
  if (p->nwords < 0 || p->nwords > NNOC_MAX_WORDS || 1 + p->nwords > max) return -1;
  for (int i = 0; i < p->nwords; i++) {
    int type = i == p->nwords - 1 ? NNOC_TAIL : NNOC_BODY;
    out[1 + i] = make_flit(l, type, p->words[i] & low_mask(l->data_w));
  }
  return 1 + p->nwords;
}

int nnoc_pkt_flits(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, nnoc_flit_t *out, int max) {
  layout_t l = layout_of(cfg);
  if (max < 1) return -1;
  out[0] = head_with(&l, p, p->dst_mesh, p->dst_pe);
  return put_data(&l, p, out, max);
}

/* ---- packing ---- */

/* 0 when in[0..n) is one well-formed packet: a head whose bits above HdrW are clear; if its
 * single bit is set nothing else, otherwise data flits ending in the only tail, bodies (and PP
 * flits when allow_pp, each with a count of 1..CntMax) before it, no other head; every data
 * flit's payload clear above DataW (PP: above CntW).  -1 otherwise. */
static int check_packet(const layout_t *l, const nnoc_flit_t *in, int n, int allow_pp) {
  if (n < 1 || type_of(l, &in[0]) != NNOC_HEAD || !upper_clear(l, &in[0], l->hdr_w)) return -1;
  int single = (int)get_bits(&in[0], l->off_single, 1);
  if (single) return n == 1 ? 0 : -1;
  if (n < 2 || type_of(l, &in[n - 1]) != NNOC_TAIL) return -1;
  for (int i = 1; i < n; i++) {
    int t = type_of(l, &in[i]);
    int used = t == NNOC_PP ? l->cnt_w : l->data_w;
    if (t == NNOC_HEAD || (t == NNOC_TAIL && i != n - 1)) return -1;
    if (t == NNOC_PP && (!allow_pp || get_bits(&in[i], 0, l->cnt_w) == 0)) return -1;
    if (!upper_clear(l, &in[i], used)) return -1;
  }
  return 0;
}

static int is_zero_body(const layout_t *l, const nnoc_flit_t *f) {
  return type_of(l, f) == NNOC_BODY && get_bits(f, 0, l->data_w) == 0;
}

/* Appends f at out[*m]; -1 when out is full. */
static int emit(nnoc_flit_t *out, int *m, int max, const nnoc_flit_t *f) {
  if (*m >= max) return -1;
  out[(*m)++] = *f;
  return 0;
}

/* PP flits for a run of `run` zero bodies: full ones of CntMax words, then one for the rest. */
static int emit_pp_run(const layout_t *l, int run, nnoc_flit_t *out, int *m, int max) {
  int cnt_max = (int)low_mask(l->cnt_w);
  while (run > 0) {
    int c = run < cnt_max ? run : cnt_max;
    nnoc_flit_t pp = make_flit(l, NNOC_PP, (uint32_t)c);
    if (emit(out, m, max, &pp) < 0) return -1;
    run -= c;
  }
  return 0;
}

int nnoc_pack(const nnoc_cfg_t *cfg, const nnoc_flit_t *in, int n, nnoc_flit_t *out, int max) {
  layout_t l = layout_of(cfg);
  if (check_packet(&l, in, n, 0) < 0) return -1;
  int m = 0;
  for (int i = 0; i < n;) {
    int run = 0;
    while (i + run < n && is_zero_body(&l, &in[i + run])) run++;
    if (run) {
      if (emit_pp_run(&l, run, out, &m, max) < 0) return -1;
      i += run;
    } else if (emit(out, &m, max, &in[i++]) < 0) {
      return -1;
    }
  }
  return m;
}

int nnoc_unpack(const nnoc_cfg_t *cfg, const nnoc_flit_t *in, int n, nnoc_flit_t *out, int max) {
  layout_t l = layout_of(cfg);
  if (check_packet(&l, in, n, 1) < 0) return -1;
  nnoc_flit_t zero = make_flit(&l, NNOC_BODY, 0);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (type_of(&l, &in[i]) != NNOC_PP) {
      if (emit(out, &m, max, &in[i]) < 0) return -1;
      continue;
    }
    for (uint32_t c = get_bits(&in[i], 0, l.cnt_w); c > 0; c--)
      if (emit(out, &m, max, &zero) < 0) return -1;
  }
  return m;
}

/* Same count as nnoc_pack of nnoc_pkt_flits, without building the flits: every maximal run of
 * zero words before the last word costs ceil(run / CntMax) flits. */
int nnoc_mesh_flits(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int pack) {
  if (p->nwords < 0 || p->nwords > NNOC_MAX_WORDS) return -1;
  if (!pack || p->nwords == 0) return 1 + p->nwords;
  uint32_t dmask = low_mask(cfg->data_w);
  int cnt_max = (int)low_mask(cfg->cnt_w);
  int flits = 2, run = 0; /* head and tail */
  for (int i = 0; i < p->nwords - 1; i++) {
    if ((p->words[i] & dmask) == 0) {
      run++;
      continue;
    }
    flits += 1 + (run + cnt_max - 1) / cnt_max;
    run = 0;
  }
  return flits + (run + cnt_max - 1) / cnt_max;
}

/* ---- destinations and delivery ---- */

/* 0 when every dst bit names a router / ring position of the network, else -1. */
static int dst_in_network(const layout_t *l, const nnoc_pkt_t *p) {
  if (p->dst_pe & ~low_mask(l->k)) return -1;
  return nnoc_mask_popcount(p->dst_mesh, NNOC_MAX_ROUTERS) ==
                 nnoc_mask_popcount(p->dst_mesh, l->nr)
             ? 0
             : -1;
}

static int is_dest(const layout_t *l, const nnoc_pkt_t *p, int pe) {
  if (pe < 0 || pe >= l->nr * l->k) return 0;
  return nnoc_mask_get(p->dst_mesh, pe / l->k) && ((p->dst_pe >> (pe % l->k)) & 1);
}

int nnoc_dests(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int *pe, int max) {
  layout_t l = layout_of(cfg);
  if (dst_in_network(&l, p) < 0) return -1;
  int n = 0;
  for (int r = 0; r < l.nr; r++) {
    if (!nnoc_mask_get(p->dst_mesh, r)) continue;
    for (int q = 0; q < l.k; q++) {
      if (!((p->dst_pe >> q) & 1)) continue;
      if (n >= max) return -1;
      pe[n++] = r * l.k + q;
    }
  }
  return n;
}

int nnoc_delivery(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int pe, nnoc_flit_t *out, int max) {
  layout_t l = layout_of(cfg);
  if (dst_in_network(&l, p) < 0 || !is_dest(&l, p, pe) || max < 1) return -1;
  int r = pe / l.k, q = pe % l.k;
  uint32_t mesh[NNOC_MASK_WORDS] = {0};
  nnoc_mask_set(mesh, r, 1);
  /* Ring routers before position q took their copies and cleared their bits on the way. */
  out[0] = head_with(&l, p, mesh, p->dst_pe & ~low_mask(q));
  return put_data(&l, p, out, max);
}

/* ---- acceptance ---- */

static int check_fields(const layout_t *l, const nnoc_pkt_t *p, char *err, size_t errlen) {
  if (p->src < 0 || p->src >= l->nr * l->k)
    return cutil_seterr(err, errlen, "src %d is not a PE of the network (0..%d)", p->src,
                        l->nr * l->k - 1),
           -1;
  if (p->tag > low_mask(l->tag_w))
    return cutil_seterr(err, errlen, "tag %u does not fit in tag_w = %d bits", p->tag, l->tag_w),
           -1;
  if (p->nwords < 0 || p->nwords > NNOC_MAX_WORDS)
    return cutil_seterr(err, errlen, "nwords %d is outside 0..%d", p->nwords, NNOC_MAX_WORDS), -1;
  for (int i = 0; i < p->nwords; i++)
    if (p->words[i] > low_mask(l->data_w))
      return cutil_seterr(err, errlen, "word %d = 0x%x does not fit in data_w = %d bits", i,
                          p->words[i], l->data_w),
             -1;
  return 0;
}

static int check_dests(const layout_t *l, const nnoc_pkt_t *p, char *err, size_t errlen) {
  for (int r = l->nr; r < NNOC_MAX_ROUTERS; r++)
    if (nnoc_mask_get(p->dst_mesh, r))
      return cutil_seterr(err, errlen, "dst_mesh bit %d is beyond the %d routers", r, l->nr), -1;
  if (p->dst_pe & ~low_mask(l->k))
    return cutil_seterr(err, errlen, "dst_pe 0x%x has bits beyond the %d ring positions", p->dst_pe,
                        l->k),
           -1;
  if (nnoc_mask_popcount(p->dst_mesh, l->nr) == 0)
    return cutil_seterr(err, errlen, "no destination: dst_mesh is empty"), -1;
  if (p->dst_pe == 0) return cutil_seterr(err, errlen, "no destination: dst_pe is empty"), -1;
  return 0;
}

int nnoc_pkt_check(const nnoc_cfg_t *cfg, const nnoc_pkt_t *p, int vc_depth, char *err,
                   size_t errlen) {
  layout_t l = layout_of(cfg);
  if (check_fields(&l, p, err, errlen) < 0 || check_dests(&l, p, err, errlen) < 0) return -1;
  int routers = nnoc_mask_popcount(p->dst_mesh, l.nr);
  if (routers > 1 && l.dst_coord)
    return cutil_seterr(err, errlen,
                        "multicast to %d routers: a network with coordinate heads (dst_coord) "
                        "takes one destination router per packet",
                        routers),
           -1;
  if (routers > 1 && 1 + p->nwords > vc_depth)
    return cutil_seterr(err, errlen,
                        "multicast to %d routers of %d flits does not fit in a virtual channel "
                        "of %d flits",
                        routers, 1 + p->nwords, vc_depth),
           -1;
  return 0;
}
