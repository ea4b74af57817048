/* nmmu_trace -- DMA trace generator: the translation requests of the NPU of the NeuMMU paper
 * (seed 000, Table 1) running a DNN, tile by tile, in the format of nmmu_trace.h.  The design
 * decisions are written up in docs/neummu_workloads.md; the short form:
 *
 * usage: nmmu_trace --net <cnn1|cnn2|cnn3|rnn1|rnn2|rnn3|ncf|dlrm> [--batch N (1..128, default
 *        1)] [--xfer BYTES (power of two 64..4096, default 512)] [--page 4k|2m (default 4k)]
 *        [--tiles-per-layer K (0 = all, default 0)] [--seed N (default 1)] [-o FILE|-|stdout]
 * Bad arguments: one-line error on stderr, exit status 2; an unwritable output: status 1.  A one-line
 * summary goes to stderr.  The trace is a function of the arguments only (same bytes).
 *
 * NPU (Table 1): 128x128 weight-stationary systolic array at 1 GHz; scratchpad 15 MB for
 * activations and 10 MB for weights, double-buffered, so one tile holds at most 7.5 MB of
 * activations (its input block and its output block) and 5 MB of weights.  Elements are bf16
 * (2 bytes: the paper gives no precision; bf16 is the inference format of TPU-class NPUs),
 * except the embedding tables, which are fp32 as in the NCF (MLPerf) and DLRM reference models.
 *
 * Every layer is a GEMM  O[M][N] = IA[M][K] x W[K][N]:
 *   conv (im2col view): M = batch*OH*OW, K = C*R*S, N = output channels;
 *   FC: M = batch, K = inputs, N = outputs (an FC layer is a 1x1 conv on a 1x1 image);
 *   RNN step: M = batch, K = input + hidden (DeepBench: input size = hidden size), N = gates *
 *   hidden (gates 1 for the vanilla RNN, 4 for the LSTM).
 * Memory layouts (row-major, bytes = elements * 2):
 *   W  [K][N]; conv K runs (c, r, s) -- c outermost -- so a channel range is contiguous rows;
 *   activations NHWC [batch][H][W][C] (an FC input is [batch][C]); a conv's IA block is read
 *   from the real NHWC input (input rows with their halo, only the columns the filter taps),
 *   not from an im2col copy;
 *   RNN: x sequence [T][batch][hidden] in act0, h sequence [T+1][batch][hidden] in act1 (slot 0
 *   is h_-1 = 0, slot t+1 receives h_t); the LSTM's W columns are interleaved per hidden unit
 *   (i, f, g, o of unit j at columns 4j..4j+3), so a column block of W finishes whole hidden
 *   units and the tile writes h_t for those units only (the gates and c stay on chip).
 * Tiling (per layer): a W tile is all K rows x Nt columns (Kt = K: every layer here has
 *   K*128*2 <= 5 MB, so no partial sums leave the array), Nt = the largest multiple of 128 with
 *   K*Nt*2 <= 5 MB, balanced over the ceil(N / Nt) tiles; an M block is whole output rows (conv:
 *   rows of one image, b*OH + oh flattened; FC/RNN: samples), the largest block count for which
 *   every block's input (with halo) plus output fits 7.5 MB, balanced.
 * Loop order (weight-stationary): for each W column block n (outer) for each M block m (inner,
 *   serpentine: odd n walk m backwards).  Residency: one W block and one IA block; a tile
 *   fetches W when its n differs from the resident one (so once per n) and IA when its m
 *   differs (so once per layer when M is one block).  Nothing is resident across layers: a
 *   layer reads its input from memory, which the previous layer wrote.
 * Memory phase of a tile: W block reads, then IA block reads, then the write-back of the
 *   previous tile's output block (r lines then w lines).  A layer ends with a tile of compute 0
 *   holding the last tile's write-back.  Contiguous byte runs of a tensor (a W row slice, the
 *   touched part of an input row, an output pixel's channel slice, merged when adjacent) are
 *   cut at every multiple of --xfer (xfer divides 4096, so no piece crosses a 4 KB page): one
 *   r/w line per piece.
 * Compute of a tile: for each 128x128 weight block of the W tile (ceil(K/128) * ceil(Nt/128)),
 *   the M rows of the block stream through the array plus 128 cycles of fill/drain:
 *   cycles = ceil(K/128) * ceil(Nt/128) * (Mt + 128), Mt = output pixels (conv) or samples.
 * Embedding gathers (ncf, dlrm): a layer 'emb' with one tile per table, compute 0; per sample
 *   and lookup a row index from the splitmix64 stream cutil_rng_seed(--seed) (uniform over the
 *   table; NCF's user tables share the sample's user id, the item tables its item id); each
 *   lookup is one run of the row's bytes (not merged with other lookups).  The pooled vectors
 *   (bf16) are the layer's output [batch][sum of dims].  Then the MLP layers as FC GEMMs.
 * Sampling: --tiles-per-layer K writes only the first K tiles of each layer (plus its
 *   write-back tile) and 'layer <name> <scale>' with scale = the layer's tiles / K written.
 *   RNN timesteps are separate layers (<net>_t<step>), so each step is sampled alike.
 * Address space (48-bit VA): segments from 0x7f0000000000 upward, each 2 MB aligned and sized
 *   to whole 2 MB (so 4k and 2m pages both map them), with a 2 MB unmapped gap between:
 *   'w' (ro: every layer's weights one after another, each 4 KB aligned; an RNN's steps share
 *   one W), 'act0'..'act3' (rw: activation buffers, each sized for the largest tensor it
 *   holds; act0/act1 ping-pong between layers, act2/act3 hold the inside of inception and
 *   bottleneck modules and MLP intermediates), embedding tables (ro, one segment each).
 *   Pooling, LRN, residual adds, the GMF product and DLRM's feature interaction run in the
 *   NPU's vector unit and make no DMA traffic of their own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neummu/nmmu_trace.h"

#define PROG "nmmu_trace"
#include "cutil.h"

#define ELEM 2ull                         /* bf16 */
#define ARRAY 128ull                      /* systolic array dimension */
#define W_BUDGET (5ull << 20)             /* 10 MB weight SPM / 2 */
#define A_BUDGET (15ull << 20) / 2        /* 15 MB activation SPM / 2 = 7.5 MB */
#define MB2 (2ull << 20)
#define VA_BASE 0x7f0000000000ull
#define NBUF 4
#define MAX_LAYERS 512
#define MAX_TABLES 8

/* ---------------------------------------------------------------- network description */

enum { L_GEMM, L_RNN, L_GATHER };

typedef struct {
  char name[NMMU_NAME_LEN];
  uint64_t rows;     /* table rows */
  unsigned dim;      /* fp32 elements per row */
  unsigned lookups;  /* rows gathered per sample */
  int share;         /* -1, or an earlier table whose ids this one reuses (same sample id) */
  uint64_t va;       /* segment base (set by the layout) */
} table_t;

typedef struct {
  char name[NMMU_NAME_LEN];
  int kind;
  /* GEMM: input NHWC [B][H][W][in_ctot], channels [in_coff, in_coff + C) are this layer's */
  unsigned H, W, C, in_ctot, in_coff;
  unsigned R, S, stride, pad;
  unsigned OH, OW, N, out_ctot, out_coff;
  int in_buf, out_buf;
  /* RNN step t of T; K = 2 * hid, N = gates * hid */
  unsigned hid, gates, t, T;
  /* weights: byte offset in segment 'w' (GEMM, RNN) */
  uint64_t w_off;
} layer_t;

typedef struct {
  unsigned B;
  layer_t L[MAX_LAYERS];
  int nl;
  table_t tab[MAX_TABLES];
  int ntab;
  unsigned emb_out_buf, emb_out_ctot; /* gather layer output [B][emb_out_ctot] */
  uint64_t w_bytes;                   /* weight segment contents */
  uint64_t buf_bytes[NBUF];           /* largest tensor per activation buffer */
  uint64_t buf_va[NBUF], w_va;
} net_t;

static layer_t *new_layer(net_t *n, const char *name, int kind) {
  if (n->nl == MAX_LAYERS) cutil_die(PROG, "internal: too many layers");
  layer_t *l = &n->L[n->nl++];
  memset(l, 0, sizeof *l);
  if (strlen(name) >= NMMU_NAME_LEN) cutil_die(PROG, "internal: layer name '%s' too long", name);
  strcpy(l->name, name);
  l->kind = kind;
  return l;
}

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }
static uint64_t ceil_div(uint64_t x, uint64_t a) { return (x + a - 1) / a; }

static uint64_t alloc_w(net_t *n, uint64_t bytes) {
  uint64_t off = round_up(n->w_bytes, 4096);
  n->w_bytes = off + bytes;
  return off;
}

static void note_buf(net_t *n, int b, uint64_t bytes) {
  if (bytes > n->buf_bytes[b]) n->buf_bytes[b] = bytes;
}

/* A conv layer: input HxWxC (NHWC, channels [in_coff, in_coff+C) of in_ctot), N filters RxR,
 * stride, pad; output channels [out_coff, out_coff+N) of out_ctot. */
static void conv_x(net_t *n, const char *name, unsigned H, unsigned W, unsigned C, unsigned in_ctot,
                   unsigned in_coff, unsigned N, unsigned R, unsigned stride, unsigned pad, int in_buf,
                   int out_buf, unsigned out_ctot, unsigned out_coff) {
  layer_t *l = new_layer(n, name, L_GEMM);
  l->H = H, l->W = W, l->C = C, l->in_ctot = in_ctot, l->in_coff = in_coff;
  l->R = l->S = R, l->stride = stride, l->pad = pad;
  l->OH = (H + 2 * pad - R) / stride + 1;
  l->OW = (W + 2 * pad - R) / stride + 1;
  l->N = N, l->out_ctot = out_ctot, l->out_coff = out_coff;
  l->in_buf = in_buf, l->out_buf = out_buf;
  l->w_off = alloc_w(n, (uint64_t)R * R * C * N * ELEM);
  note_buf(n, in_buf, (uint64_t)n->B * H * W * in_ctot * ELEM);
  note_buf(n, out_buf, (uint64_t)n->B * l->OH * l->OW * out_ctot * ELEM);
}

static void conv(net_t *n, const char *name, unsigned H, unsigned C, unsigned N, unsigned R,
                 unsigned stride, unsigned pad, int in_buf, int out_buf) {
  conv_x(n, name, H, H, C, C, 0, N, R, stride, pad, in_buf, out_buf, N, 0);
}

static void fc_x(net_t *n, const char *name, unsigned K, unsigned in_ctot, unsigned N, int in_buf,
                 int out_buf, unsigned out_ctot, unsigned out_coff) {
  conv_x(n, name, 1, 1, K, in_ctot, 0, N, 1, 1, 0, in_buf, out_buf, out_ctot, out_coff);
}

static void fc(net_t *n, const char *name, unsigned K, unsigned N, int in_buf, int out_buf) {
  fc_x(n, name, K, K, N, in_buf, out_buf, N, 0);
}

/* CNN-1: AlexNet (Krizhevsky et al. 2012), the one-tower form (no filter groups), 227x227
 * input.  Pooling (after conv1, conv2, conv5) and LRN run on chip. */
static void net_alexnet(net_t *n) {
  conv(n, "conv1", 227, 3, 96, 11, 4, 0, 0, 1);   /* -> 55x55x96, pool -> 27x27 */
  conv(n, "conv2", 27, 96, 256, 5, 1, 2, 1, 0);   /* -> 27x27x256, pool -> 13x13 */
  conv(n, "conv3", 13, 256, 384, 3, 1, 1, 0, 1);  /* -> 13x13x384 */
  conv(n, "conv4", 13, 384, 384, 3, 1, 1, 1, 0);  /* -> 13x13x384 */
  conv(n, "conv5", 13, 384, 256, 3, 1, 1, 0, 1);  /* -> 13x13x256, pool -> 6x6 */
  fc(n, "fc6", 6 * 6 * 256, 4096, 1, 0);
  fc(n, "fc7", 4096, 4096, 0, 1);
  fc(n, "fc8", 4096, 1000, 1, 0);
}

/* CNN-2: GoogLeNet (Szegedy et al. 2015, Table 1), 224x224 input.  Inception module: 1x1,
 * 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool projection (the 3x3/1 max pool is on chip); the four
 * branches write their channel slices of the concatenated output. */
static const struct {
  const char *name;
  unsigned hw, cin, c1, c3r, c3, c5r, c5, pp;
} g_incep[] = {
    {"inc3a", 28, 192, 64, 96, 128, 16, 32, 32},     {"inc3b", 28, 256, 128, 128, 192, 32, 96, 64},
    {"inc4a", 14, 480, 192, 96, 208, 16, 48, 64},    {"inc4b", 14, 512, 160, 112, 224, 24, 64, 64},
    {"inc4c", 14, 512, 128, 128, 256, 24, 64, 64},   {"inc4d", 14, 512, 112, 144, 288, 32, 64, 64},
    {"inc4e", 14, 528, 256, 160, 320, 32, 128, 128}, {"inc5a", 7, 832, 256, 160, 320, 32, 128, 128},
    {"inc5b", 7, 832, 384, 192, 384, 48, 128, 128},
};

static void net_googlenet(net_t *n) {
  conv(n, "conv1", 224, 3, 64, 7, 2, 3, 0, 1);      /* -> 112x112x64, pool -> 56x56 */
  conv(n, "conv2_red", 56, 64, 64, 1, 1, 0, 1, 0);  /* -> 56x56x64 */
  conv(n, "conv2", 56, 64, 192, 3, 1, 1, 0, 1);     /* -> 56x56x192, pool -> 28x28 */
  int cur = 1;
  for (size_t i = 0; i < sizeof g_incep / sizeof g_incep[0]; i++) {
    const unsigned hw = g_incep[i].hw, cin = g_incep[i].cin;
    const unsigned c1 = g_incep[i].c1, c3 = g_incep[i].c3, c5 = g_incep[i].c5, pp = g_incep[i].pp;
    const unsigned cout = c1 + c3 + c5 + pp;
    const int out = 1 - cur;
    char nm[NMMU_NAME_LEN];
    /* (a max pool between inc3b/inc4a and inc4e/inc5a halves hw on chip) */
    snprintf(nm, sizeof nm, "%s_1x1", g_incep[i].name);
    conv_x(n, nm, hw, hw, cin, cin, 0, c1, 1, 1, 0, cur, out, cout, 0);
    snprintf(nm, sizeof nm, "%s_3x3r", g_incep[i].name);
    conv(n, nm, hw, cin, g_incep[i].c3r, 1, 1, 0, cur, 2);
    snprintf(nm, sizeof nm, "%s_3x3", g_incep[i].name);
    conv_x(n, nm, hw, hw, g_incep[i].c3r, g_incep[i].c3r, 0, c3, 3, 1, 1, 2, out, cout, c1);
    snprintf(nm, sizeof nm, "%s_5x5r", g_incep[i].name);
    conv(n, nm, hw, cin, g_incep[i].c5r, 1, 1, 0, cur, 2);
    snprintf(nm, sizeof nm, "%s_5x5", g_incep[i].name);
    conv_x(n, nm, hw, hw, g_incep[i].c5r, g_incep[i].c5r, 0, c5, 5, 1, 2, 2, out, cout, c1 + c3);
    snprintf(nm, sizeof nm, "%s_pool", g_incep[i].name);
    conv_x(n, nm, hw, hw, cin, cin, 0, pp, 1, 1, 0, cur, out, cout, c1 + c3 + c5);
    cur = out;
  }
  fc(n, "fc", 1024, 1000, cur, 1 - cur); /* after the 7x7 average pool */
}

/* CNN-3: ResNet-50 (He et al. 2016, Table 1) in the v1.5 form (stride 2 on the 3x3 conv of a
 * stage's first block; MLPerf/torchvision), 224x224 input.  Bottleneck: a 1x1 (act2), b 3x3
 * (act3), c 1x1 (out), and on a stage's first block the 1x1 projection of the shortcut (out);
 * the residual add is on chip. */
static void net_resnet50(net_t *n) {
  conv(n, "conv1", 224, 3, 64, 7, 2, 3, 0, 1); /* -> 112x112x64, pool -> 56x56 */
  static const struct {
    unsigned blocks, mid, out, hw_in, stride;
  } st[4] = {{3, 64, 256, 56, 1}, {4, 128, 512, 56, 2}, {6, 256, 1024, 28, 2}, {3, 512, 2048, 14, 2}};
  int cur = 1;
  unsigned cin = 64;
  for (int s = 0; s < 4; s++) {
    for (unsigned b = 0; b < st[s].blocks; b++) {
      const unsigned hw = b ? st[s].hw_in / st[s].stride : st[s].hw_in;
      const unsigned stride = b ? 1 : st[s].stride;
      const unsigned hwo = hw / stride;
      const int out = 1 - cur;
      char nm[NMMU_NAME_LEN], base[16];
      snprintf(base, sizeof base, "res%d%c", s + 2, 'a' + b);
      snprintf(nm, sizeof nm, "%s_a", base);
      conv(n, nm, hw, cin, st[s].mid, 1, 1, 0, cur, 2);
      snprintf(nm, sizeof nm, "%s_b", base);
      conv(n, nm, hw, st[s].mid, st[s].mid, 3, stride, 1, 2, 3);
      snprintf(nm, sizeof nm, "%s_c", base);
      conv(n, nm, hwo, st[s].mid, st[s].out, 1, 1, 0, 3, out);
      if (b == 0) {
        snprintf(nm, sizeof nm, "%s_proj", base);
        conv(n, nm, hw, cin, st[s].out, 1, stride, 0, cur, out);
      }
      cin = st[s].out;
      cur = out;
    }
  }
  fc(n, "fc", 2048, 1000, cur, 1 - cur); /* after the 7x7 average pool */
}

/* RNN steps: DeepBench (baidu-research/DeepBench, code/kernels/rnn_problems.h), input size =
 * hidden size.  RNN-1: vanilla, hidden 1760, 50 steps (DeepBench's vanilla shape; its
 * inference sets have no server-size vanilla RNN).  RNN-2: LSTM, hidden 1024, 25 steps, and
 * RNN-3: LSTM, hidden 1536, 50 steps (both from DeepBench's inference_server_set). */
static void net_rnn(net_t *n, const char *pfx, unsigned hid, unsigned gates, unsigned T) {
  uint64_t w_off = alloc_w(n, (uint64_t)2 * hid * gates * hid * ELEM);
  for (unsigned t = 0; t < T; t++) {
    char nm[NMMU_NAME_LEN];
    snprintf(nm, sizeof nm, "%s_t%02u", pfx, t);
    layer_t *l = new_layer(n, nm, L_RNN);
    l->hid = hid, l->gates = gates, l->t = t, l->T = T;
    l->w_off = w_off;
    l->in_buf = 0, l->out_buf = 1;
  }
  note_buf(n, 0, (uint64_t)T * n->B * hid * ELEM);
  note_buf(n, 1, (uint64_t)(T + 1) * n->B * hid * ELEM);
}

static void add_table(net_t *n, const char *name, uint64_t rows, unsigned dim, unsigned lookups, int share) {
  table_t *t = &n->tab[n->ntab++];
  memset(t, 0, sizeof *t);
  strcpy(t->name, name);
  t->rows = rows, t->dim = dim, t->lookups = lookups, t->share = share;
}

/* NCF: NeuMF as in MLPerf's recommendation benchmark (ml-20m: 138,493 users, 26,744 items;
 * GMF factors 64, MLP layers 256-256-128-64, so 128-wide MLP embeddings).  Per sample one user
 * and one item, each looked up in its GMF and its MLP table.  Gather output in act0:
 * [B][umlp 128 | imlp 128 | umf 64 | imf 64]. */
static void net_ncf(net_t *n) {
  add_table(n, "emb_umlp", 138493, 128, 1, -1);
  add_table(n, "emb_imlp", 26744, 128, 1, -1);
  add_table(n, "emb_umf", 138493, 64, 1, 0);
  add_table(n, "emb_imf", 26744, 64, 1, 1);
  new_layer(n, "emb", L_GATHER);
  n->emb_out_buf = 0, n->emb_out_ctot = 384;
  note_buf(n, 0, (uint64_t)n->B * 384 * ELEM);
  fc_x(n, "mlp1", 256, 384, 256, 0, 1, 256, 0);
  fc(n, "mlp2", 256, 128, 1, 2);
  fc_x(n, "mlp3", 128, 128, 64, 2, 1, 128, 64); /* next to the GMF product (on chip) */
  fc(n, "predict", 128, 1, 1, 2);
}

/* DLRM (Naumov et al. 2019; facebookresearch/dlrm): 8 tables of 1M rows x 64 fp32 (256 B
 * rows), 10 lookups per table per sample (dlrm_s_pytorch's --num-indices-per-lookup default),
 * sum-pooled; 13 dense features; bottom MLP 13-512-256-64; dot-product interaction of the 9
 * vectors (36 pairs) + the dense vector = 100 inputs; top MLP 100-512-256-1. */
static void net_dlrm(net_t *n) {
  for (int i = 0; i < 8; i++) {
    char nm[NMMU_NAME_LEN];
    snprintf(nm, sizeof nm, "emb%d", i);
    add_table(n, nm, 1000000, 64, 10, -1);
  }
  new_layer(n, "emb", L_GATHER);
  n->emb_out_buf = 1, n->emb_out_ctot = 8 * 64;
  note_buf(n, 1, (uint64_t)n->B * 8 * 64 * ELEM);
  fc(n, "bot1", 13, 512, 0, 2);
  fc(n, "bot2", 512, 256, 2, 3);
  fc(n, "bot3", 256, 64, 3, 2);
  fc(n, "top1", 100, 512, 3, 2); /* interaction output in act3 */
  fc(n, "top2", 512, 256, 2, 3);
  fc(n, "top3", 256, 1, 3, 2);
}

/* ---------------------------------------------------------------- emission */

typedef struct {
  FILE *f;
  uint64_t xfer;
  uint64_t pend_va, pend_len;
  int pend_w;
  uint64_t nr, nw, rbytes, wbytes;
} emit_t;

static void run_flush(emit_t *e) {
  uint64_t va = e->pend_va, len = e->pend_len;
  e->pend_len = 0;
  while (len) {
    uint64_t c = e->xfer - (va & (e->xfer - 1));
    if (c > len) c = len;
    fprintf(e->f, "%c %" PRIx64 " %" PRIu64 "\n", e->pend_w ? 'w' : 'r', va, c);
    if (e->pend_w) {
      e->nw++;
      e->wbytes += c;
    } else {
      e->nr++;
      e->rbytes += c;
    }
    va += c;
    len -= c;
  }
}

/* Adds a contiguous run; merged with the pending one when it continues it. */
static void run_add(emit_t *e, uint64_t va, uint64_t len, int w) {
  if (!len) return;
  if (e->pend_len && e->pend_w == w && e->pend_va + e->pend_len == va) {
    e->pend_len += len;
    return;
  }
  if (e->pend_len) run_flush(e);
  e->pend_va = va, e->pend_len = len, e->pend_w = w;
}

/* ---------------------------------------------------------------- GEMM layers */

typedef struct {
  uint64_t K, N, Nt, n_tiles;
  uint64_t Q, T, m_tiles; /* M rows (conv: b*OH+oh; FC/RNN: samples), rows per M block */
  uint64_t pix_per_row;   /* conv: OW; FC/RNN: 1 */
} plan_t;

/* Marks the input rows of image-local output rows [oh0, oh1) in rows[] (size H); returns the
 * count of marked rows. */
static unsigned mark_rows(const layer_t *l, unsigned oh0, unsigned oh1, unsigned char *rows) {
  memset(rows, 0, l->H);
  unsigned cnt = 0;
  for (unsigned oh = oh0; oh < oh1; oh++)
    for (unsigned r = 0; r < l->R; r++) {
      long ih = (long)oh * l->stride - (long)l->pad + (long)r;
      if (ih >= 0 && ih < (long)l->H && !rows[ih]) rows[ih] = 1, cnt++;
    }
  return cnt;
}

/* Columns of the input any output column taps. */
static unsigned mark_cols(const layer_t *l, unsigned char *cols) {
  memset(cols, 0, l->W);
  unsigned cnt = 0;
  for (unsigned ow = 0; ow < l->OW; ow++)
    for (unsigned s = 0; s < l->S; s++) {
      long iw = (long)ow * l->stride - (long)l->pad + (long)s;
      if (iw >= 0 && iw < (long)l->W && !cols[iw]) cols[iw] = 1, cnt++;
    }
  return cnt;
}

static unsigned char *g_rows, *g_cols;

/* Bytes of the activation SPM a block of M rows [q0, q1) needs: input block + output block. */
static uint64_t block_bytes(const net_t *n, const layer_t *l, const plan_t *p, uint64_t q0, uint64_t q1) {
  uint64_t out = (q1 - q0) * p->pix_per_row * p->Nt * ELEM;
  if (l->kind == L_RNN) return out / l->gates + (q1 - q0) * 2ull * l->hid * ELEM;
  (void)n;
  uint64_t ncols = mark_cols(l, g_cols), in_rows = 0;
  for (uint64_t b = q0 / l->OH; b * l->OH < q1; b++) {
    uint64_t lo = q0 > b * l->OH ? q0 - b * l->OH : 0;
    uint64_t hi = q1 < (b + 1) * l->OH ? q1 - b * l->OH : l->OH;
    in_rows += mark_rows(l, (unsigned)lo, (unsigned)hi, g_rows);
  }
  return out + in_rows * ncols * l->C * ELEM;
}

static int blocks_fit(const net_t *n, const layer_t *l, const plan_t *p, uint64_t T) {
  for (uint64_t q0 = 0; q0 < p->Q; q0 += T) {
    uint64_t q1 = q0 + T < p->Q ? q0 + T : p->Q;
    if (block_bytes(n, l, p, q0, q1) > A_BUDGET) return 0;
  }
  return 1;
}

static plan_t make_plan(const net_t *n, const layer_t *l) {
  plan_t p;
  memset(&p, 0, sizeof p);
  if (l->kind == L_RNN) {
    p.K = 2ull * l->hid, p.N = (uint64_t)l->gates * l->hid, p.Q = n->B, p.pix_per_row = 1;
  } else {
    p.K = (uint64_t)l->R * l->S * l->C, p.N = l->N, p.Q = (uint64_t)n->B * l->OH;
    p.pix_per_row = l->OW;
  }
  uint64_t nt_max = W_BUDGET / (p.K * ELEM) / ARRAY * ARRAY;
  if (nt_max == 0)
    cutil_die(PROG, "internal: layer %s: K = %" PRIu64 " does not fit a 5 MB W tile", l->name, p.K);
  if (p.N <= nt_max) {
    p.Nt = p.N, p.n_tiles = 1;
  } else {
    uint64_t k = ceil_div(p.N, nt_max);
    p.Nt = round_up(ceil_div(p.N, k), ARRAY);
    p.n_tiles = ceil_div(p.N, p.Nt);
  }
  if (!blocks_fit(n, l, &p, 1))
    cutil_die(PROG, "internal: layer %s: one output row does not fit the 7.5 MB activation tile",
              l->name);
  uint64_t lo = 1, hi = p.Q; /* largest T with every block fitting (lo always fits) */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (blocks_fit(n, l, &p, mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  p.m_tiles = ceil_div(p.Q, lo);
  p.T = ceil_div(p.Q, p.m_tiles); /* balanced: T <= lo */
  while (!blocks_fit(n, l, &p, p.T)) p.T--;
  p.m_tiles = ceil_div(p.Q, p.T);
  return p;
}

static uint64_t tile_compute(const plan_t *p, uint64_t n0, uint64_t n1, uint64_t q0, uint64_t q1) {
  return ceil_div(p->K, ARRAY) * ceil_div(n1 - n0, ARRAY) * ((q1 - q0) * p->pix_per_row + ARRAY);
}

static void fetch_w(emit_t *e, const net_t *n, const layer_t *l, const plan_t *p, uint64_t n0, uint64_t n1) {
  uint64_t base = n->w_va + l->w_off;
  for (uint64_t k = 0; k < p->K; k++) run_add(e, base + (k * p->N + n0) * ELEM, (n1 - n0) * ELEM, 0);
  run_flush(e);
}

static void fetch_ia(emit_t *e, const net_t *n, const layer_t *l, const plan_t *p, uint64_t q0, uint64_t q1) {
  if (l->kind == L_RNN) {
    uint64_t xb = n->buf_va[0], hb = n->buf_va[1], row = (uint64_t)l->hid * ELEM;
    for (uint64_t b = q0; b < q1; b++) run_add(e, xb + ((uint64_t)l->t * n->B + b) * row, row, 0);
    run_flush(e);
    for (uint64_t b = q0; b < q1; b++) run_add(e, hb + ((uint64_t)l->t * n->B + b) * row, row, 0);
    run_flush(e);
    return;
  }
  (void)p;
  uint64_t base = n->buf_va[l->in_buf];
  mark_cols(l, g_cols);
  for (uint64_t b = q0 / l->OH; b * l->OH < q1; b++) {
    uint64_t lo = q0 > b * l->OH ? q0 - b * l->OH : 0;
    uint64_t hi = q1 < (b + 1) * l->OH ? q1 - b * l->OH : l->OH;
    mark_rows(l, (unsigned)lo, (unsigned)hi, g_rows);
    for (uint64_t ih = 0; ih < l->H; ih++) {
      if (!g_rows[ih]) continue;
      for (uint64_t iw = 0; iw < l->W; iw++) {
        if (!g_cols[iw]) continue;
        uint64_t pix = (b * l->H + ih) * l->W + iw;
        run_add(e, base + (pix * l->in_ctot + l->in_coff) * ELEM, (uint64_t)l->C * ELEM, 0);
      }
    }
  }
  run_flush(e);
}

typedef struct {
  int valid;
  uint64_t n0, n1, q0, q1;
} outblk_t;

static void write_out(emit_t *e, const net_t *n, const layer_t *l, const plan_t *p, const outblk_t *o) {
  if (!o->valid) return;
  if (l->kind == L_RNN) {
    uint64_t hb = n->buf_va[1], row = (uint64_t)l->hid * ELEM;
    uint64_t c0 = o->n0 / l->gates, c1 = o->n1 / l->gates;
    for (uint64_t b = o->q0; b < o->q1; b++)
      run_add(e, hb + ((uint64_t)(l->t + 1) * n->B + b) * row + c0 * ELEM, (c1 - c0) * ELEM, 1);
    run_flush(e);
    return;
  }
  uint64_t base = n->buf_va[l->out_buf];
  for (uint64_t q = o->q0; q < o->q1; q++)
    for (uint64_t ow = 0; ow < p->pix_per_row; ow++) {
      uint64_t pix = q * p->pix_per_row + ow;
      run_add(e, base + (pix * l->out_ctot + l->out_coff + o->n0) * ELEM, (o->n1 - o->n0) * ELEM, 1);
    }
  run_flush(e);
}

typedef struct {
  uint64_t tiles_all, tiles_written, wb_tiles, compute_all, compute_written;
} totals_t;

static void print_layer(emit_t *e, const char *name, uint64_t tiles, uint64_t K) {
  uint64_t w = K && K < tiles ? K : tiles;
  if (w == tiles)
    fprintf(e->f, "layer %s 1\n", name);
  else
    fprintf(e->f, "layer %s %.9g\n", name, (double)tiles / (double)w);
}

static void gen_gemm(emit_t *e, const net_t *n, const layer_t *l, uint64_t K, totals_t *tot) {
  plan_t p = make_plan(n, l);
  uint64_t tiles = p.n_tiles * p.m_tiles;
  print_layer(e, l->name, tiles, K);
  fprintf(e->f, "# K %" PRIu64 " N %" PRIu64 " M %" PRIu64 "; W tile %" PRIu64 "x%" PRIu64
                 " (%" PRIu64 " tiles), M block %" PRIu64 " rows of %" PRIu64 " (%" PRIu64 " blocks)\n",
          p.K, p.N, p.Q * p.pix_per_row, p.K, p.Nt, p.n_tiles, p.T, p.pix_per_row, p.m_tiles);
  int64_t res_n = -1, res_m = -1;
  outblk_t prev = {0, 0, 0, 0, 0};
  uint64_t idx = 0;
  for (uint64_t ni = 0; ni < p.n_tiles; ni++) {
    uint64_t n0 = ni * p.Nt, n1 = n0 + p.Nt < p.N ? n0 + p.Nt : p.N;
    for (uint64_t mk = 0; mk < p.m_tiles; mk++, idx++) {
      uint64_t mi = (ni & 1) ? p.m_tiles - 1 - mk : mk;
      uint64_t q0 = mi * p.T, q1 = q0 + p.T < p.Q ? q0 + p.T : p.Q;
      uint64_t c = tile_compute(&p, n0, n1, q0, q1);
      tot->tiles_all++;
      tot->compute_all += c;
      if (K && idx >= K) continue;
      tot->tiles_written++;
      tot->compute_written += c;
      fprintf(e->f, "tile %" PRIu64 "\n", c);
      if (res_n != (int64_t)ni) fetch_w(e, n, l, &p, n0, n1);
      if (res_m != (int64_t)mi) fetch_ia(e, n, l, &p, q0, q1);
      res_n = (int64_t)ni, res_m = (int64_t)mi;
      write_out(e, n, l, &p, &prev);
      prev = (outblk_t){1, n0, n1, q0, q1};
    }
  }
  fprintf(e->f, "tile 0\n");
  tot->tiles_written++;
  tot->wb_tiles++;
  write_out(e, n, l, &p, &prev);
}

/* ---------------------------------------------------------------- embedding gathers */

static void gen_gather(emit_t *e, const net_t *n, const layer_t *l, uint64_t K, uint64_t seed, totals_t *tot) {
  print_layer(e, l->name, (uint64_t)n->ntab, K);
  fprintf(e->f, "# embedding gather: %d tables, one tile each\n", n->ntab);
  /* ids[t][b*lookups + j], drawn table by table, sample by sample (shared tables copy). */
  uint64_t *ids[MAX_TABLES];
  cutil_rng_t rng = cutil_rng_seed(seed);
  for (int t = 0; t < n->ntab; t++) {
    const table_t *tb = &n->tab[t];
    size_t cnt = (size_t)n->B * tb->lookups;
    ids[t] = malloc(cnt * sizeof(uint64_t));
    if (!ids[t]) cutil_die(PROG, "out of memory");
    for (size_t i = 0; i < cnt; i++)
      ids[t][i] = tb->share >= 0 ? ids[tb->share][i] : cutil_rng_below(&rng, tb->rows);
  }
  uint64_t out_base = n->buf_va[n->emb_out_buf];
  int prev = -1;
  unsigned prev_off = 0, off = 0;
  for (int t = 0; t < n->ntab; t++) {
    const table_t *tb = &n->tab[t];
    tot->tiles_all++;
    if (K && (uint64_t)t >= K) continue;
    tot->tiles_written++;
    fprintf(e->f, "tile 0\n");
    uint64_t row = (uint64_t)tb->dim * 4;
    for (size_t i = 0; i < (size_t)n->B * tb->lookups; i++) {
      run_add(e, tb->va + ids[t][i] * row, row, 0);
      run_flush(e);
    }
    if (prev >= 0) {
      for (uint64_t b = 0; b < n->B; b++)
        run_add(e, out_base + (b * n->emb_out_ctot + prev_off) * ELEM, (uint64_t)n->tab[prev].dim * ELEM, 1);
      run_flush(e);
    }
    prev = t, prev_off = off;
    off += tb->dim;
  }
  fprintf(e->f, "tile 0\n");
  tot->tiles_written++;
  tot->wb_tiles++;
  if (prev >= 0) {
    for (uint64_t b = 0; b < n->B; b++)
      run_add(e, out_base + (b * n->emb_out_ctot + prev_off) * ELEM, (uint64_t)n->tab[prev].dim * ELEM, 1);
    run_flush(e);
  }
  for (int t = 0; t < n->ntab; t++) free(ids[t]);
}

/* ---------------------------------------------------------------- main */

static const char *g_nets[] = {"cnn1", "cnn2", "cnn3", "rnn1", "rnn2", "rnn3", "ncf", "dlrm"};

int main(int argc, char **argv) {
  const char *net = NULL, *out = "-";
  uint64_t batch = 1, xfer = 512, K = 0, seed = 1;
  int page_2m = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0;
    if (!strcmp(a, "--net") && v) {
      net = v;
      bad = 1;
      for (size_t k = 0; k < sizeof g_nets / sizeof g_nets[0]; k++)
        if (!strcmp(v, g_nets[k])) bad = 0;
      if (bad) cutil_fail(PROG, "unknown net '%s' (cnn1 cnn2 cnn3 rnn1 rnn2 rnn3 ncf dlrm)", v);
    } else if (!strcmp(a, "--batch") && v) {
      bad = cutil_parse_dec(v, 1, 128, &batch);
    } else if (!strcmp(a, "--xfer") && v) {
      bad = cutil_parse_dec(v, 64, 4096, &xfer) || (xfer & (xfer - 1));
      if (bad) cutil_fail(PROG, "bad value '%s' for --xfer (a power of two, 64..4096)", v);
    } else if (!strcmp(a, "--page") && v) {
      if (!strcmp(v, "4k"))
        page_2m = 0;
      else if (!strcmp(v, "2m"))
        page_2m = 1;
      else
        bad = 1;
    } else if (!strcmp(a, "--tiles-per-layer") && v) {
      bad = cutil_parse_dec(v, 0, UINT32_MAX, &K);
    } else if (!strcmp(a, "--seed") && v) {
      bad = cutil_parse_dec(v, 0, UINT64_MAX, &seed);
    } else if (!strcmp(a, "-o") && v) {
      out = v;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("usage: nmmu_trace --net <cnn1|cnn2|cnn3|rnn1|rnn2|rnn3|ncf|dlrm> [--batch 1..128] "
             "[--xfer 64..4096] [--page 4k|2m] [--tiles-per-layer K] [--seed N] [-o FILE]\n");
      return 0;
    } else {
      cutil_fail(PROG, "unknown or incomplete argument '%s'", a);
    }
    if (bad) cutil_fail(PROG, "bad value '%s' for %s", v, a);
    i++;
  }
  if (!net) cutil_fail(PROG, "--net is required (cnn1 cnn2 cnn3 rnn1 rnn2 rnn3 ncf dlrm)");

  static net_t nt;
  net_t *n = &nt;
  n->B = (unsigned)batch;
  if (!strcmp(net, "cnn1")) net_alexnet(n);
  else if (!strcmp(net, "cnn2")) net_googlenet(n);
  else if (!strcmp(net, "cnn3")) net_resnet50(n);
  else if (!strcmp(net, "rnn1")) net_rnn(n, "rnn", 1760, 1, 50);
  else if (!strcmp(net, "rnn2")) net_rnn(n, "lstm", 1024, 4, 25);
  else if (!strcmp(net, "rnn3")) net_rnn(n, "lstm", 1536, 4, 50);
  else if (!strcmp(net, "ncf")) net_ncf(n);
  else net_dlrm(n);

  /* address space */
  uint64_t va = VA_BASE;
  n->w_va = va;
  va += round_up(n->w_bytes ? n->w_bytes : 1, MB2) + MB2;
  for (int b = 0; b < NBUF; b++) {
    if (!n->buf_bytes[b]) continue;
    n->buf_va[b] = va;
    va += round_up(n->buf_bytes[b], MB2) + MB2;
  }
  for (int t = 0; t < n->ntab; t++) {
    n->tab[t].va = va;
    va += round_up(n->tab[t].rows * n->tab[t].dim * 4, MB2) + MB2;
  }

  FILE *f = stdout;
  int to_stdout = !strcmp(out, "-") || !strcmp(out, "stdout");
  if (!to_stdout) {
    f = fopen(out, "w");
    if (!f) cutil_die(PROG, "cannot write '%s': %s", out, strerror(errno));
  }
  static char obuf[1 << 20];
  setvbuf(f, obuf, _IOFBF, sizeof obuf);

  const char *pg = page_2m ? "2m" : "4k";
  fprintf(f, "nmmu-trace 1\n");
  fprintf(f, "# nmmu_trace --net %s --batch %" PRIu64 " --xfer %" PRIu64 " --page %s --tiles-per-layer %" PRIu64
             " --seed %" PRIu64 "\n",
          net, batch, xfer, pg, K, seed);
  fprintf(f, "page %s\n", pg);
  fprintf(f, "seg w %" PRIx64 " %" PRIu64 " %s ro\n", n->w_va, round_up(n->w_bytes ? n->w_bytes : 1, MB2), pg);
  for (int b = 0; b < NBUF; b++)
    if (n->buf_bytes[b])
      fprintf(f, "seg act%d %" PRIx64 " %" PRIu64 " %s rw\n", b, n->buf_va[b], round_up(n->buf_bytes[b], MB2), pg);
  for (int t = 0; t < n->ntab; t++)
    fprintf(f, "seg %s %" PRIx64 " %" PRIu64 " %s ro\n", n->tab[t].name, n->tab[t].va,
            round_up(n->tab[t].rows * n->tab[t].dim * 4, MB2), pg);

  unsigned hw_max = 1;
  for (int i = 0; i < n->nl; i++) {
    if (n->L[i].H > hw_max) hw_max = n->L[i].H;
    if (n->L[i].W > hw_max) hw_max = n->L[i].W;
  }
  g_rows = calloc(hw_max, 1);
  g_cols = calloc(hw_max, 1);
  if (!g_rows || !g_cols) cutil_die(PROG, "out of memory");
  emit_t e;
  memset(&e, 0, sizeof e);
  e.f = f, e.xfer = xfer;
  totals_t tot;
  memset(&tot, 0, sizeof tot);
  for (int i = 0; i < n->nl; i++) {
    const layer_t *l = &n->L[i];
    if (l->kind == L_GATHER)
      gen_gather(&e, n, l, K, seed, &tot);
    else
      gen_gemm(&e, n, l, K, &tot);
  }
  free(g_rows);
  free(g_cols);

  int werr = ferror(f) != 0;
  if (fflush(f) != 0) werr = 1;
  if (!to_stdout && fclose(f) != 0) werr = 1;
  if (werr) cutil_die(PROG, "write error on '%s'", to_stdout ? "stdout" : out);
  fprintf(stderr,
          "%s: %s batch %" PRIu64 ": %d layers, %" PRIu64 " tiles written (%" PRIu64
          " write-back only; the whole net has %" PRIu64 " compute tiles), %" PRIu64
          " transactions (%" PRIu64 " r, %" PRIu64 " w), %.2f MB, %" PRIu64
          " compute cycles (whole net %" PRIu64 ")\n",
          PROG, net, batch, n->nl, tot.tiles_written, tot.wb_tiles, tot.tiles_all, e.nr + e.nw,
          e.nr, e.nw, (double)(e.rbytes + e.wbytes) / 1048576.0, tot.compute_written,
          tot.compute_all);
  return 0;
}
