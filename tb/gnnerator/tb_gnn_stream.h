// tb_gnn_stream.h -- the random GNNerator stimulus shared by tb_gnnerator.cpp (the engine's own
// ports) and tb_gnnerator_axi.cpp (through gnnerator_axi): the DRAM map of the random streams,
// the stream itself (dense, and with a Graph Engine a graph stream interleaved with it) and the
// programs that store every OUT and MF line for the final comparison.
#ifndef TB_GNN_STREAM_H
#define TB_GNN_STREAM_H

#include <cstdio>
#include <vector>

#include "gnnerator.h"
#include "gnnerator/gnn_dense.h"
#include "gnnerator/gnn_gcomp.h"
#include "tb_lib.h"

// DRAM map: LOADs read [0, 8192) and the output region, STOREs write [16384, 24576); the graph
// stream's edges at 8192, its stores at 24576; a zero region for the scrub after a reset and the
// OUT flush area lie above, the MF flush above those.
static const uint64_t kInBase = 0, kInWords = 8192, kOutBase = 16384, kOutWords = 8192;
static const uint64_t kEdgeBase = 8192, kEdgeWords = 8192, kGOutBase = 24576, kGOutWords = 8192;
static const uint64_t kZero = 1u << 16, kFlush = kZero + 4096, kGFlush = 1u << 17;

// wl = a random image (`special` % special values), the dense random stream of n instructions
// (gnn_random_program, `bad` % malformed) and, with a Graph Engine, the edge region and a random
// graph stream (gnn_random_gprogram) interleaved with it at random, each keeping its order, both
// six-instruction prologues first. false (reason in err) when a stream cannot be made.
static inline bool tb_gnn_random_stream(const gnn_cfg_t *cfg, uint64_t seed, size_t n,
                                        unsigned bad, unsigned special, gnn_wl_t *wl, char *err,
                                        size_t errlen) {
  gnn_rand_region_t rg;
  rg.in_base = kInBase;
  rg.in_words = kInWords;
  rg.out_base = kOutBase;
  rg.out_words = kOutWords;
  rg.init_buffers = 1;
  std::vector<uint32_t> data(kInWords + kOutWords);
  gnn_fill_random(seed ^ 0x5eedu, special, data.data(), data.size());
  if (gnn_wl_init(wl, cfg) != 0 || gnn_wl_add_mem(wl, kInBase, data.data(), kInWords) ||
      gnn_wl_add_mem(wl, kOutBase, data.data() + kInWords, kOutWords) ||
      gnn_random_program(cfg, seed, n, bad, &rg, &wl->prog, nullptr, err, errlen) != 0)
    return false;
  if (cfg->gpes == 0) return true;

  std::vector<uint32_t> edges(kEdgeWords);
  gnn_random_edges(seed ^ 0xed9e5u, 8, edges.data(), edges.size());
  gnn_grand_region_t gr;
  gr.in_base = kInBase;
  gr.in_words = kInWords;
  gr.edge_base = kEdgeBase;
  gr.edge_words = kEdgeWords;
  gr.out_base = kGOutBase;
  gr.out_words = kGOutWords;
  gr.init_memories = 1;
  gnn_prog_t gp, mix;
  gnn_prog_init(&gp);
  if (gnn_wl_add_mem(wl, kEdgeBase, edges.data(), kEdgeWords) != 0) {
    std::snprintf(err, errlen, "out of memory");
    return false;
  }
  if (gnn_random_gprogram(cfg, seed ^ 0x9a9au, n, bad, &gr, &gp, err, errlen) != 0) return false;
  gnn_prog_init(&mix);
  const size_t pro = 6;
  size_t i = 0, j = 0;
  bool oom = false;
  while (i < wl->prog.n || j < gp.n) {
    const bool in_pro = i < pro || j < pro;
    const bool pick_dense =
        j == gp.n || (i < wl->prog.n && (in_pro ? i < pro : tb_rand_range(0, 1) == 0));
    oom |= gnn_prog_push(&mix, pick_dense ? wl->prog.insn[i++] : gp.insn[j++]) != 0;
  }
  gnn_prog_free(&gp);
  gnn_prog_free(&wl->prog);
  wl->prog = mix;
  if (oom) std::snprintf(err, errlen, "out of memory");
  return !oom;
}

// STOREs of both OUT banks (every line, LW words) from `addr` on.
static inline std::vector<gnn_insn_t> tb_gnn_out_flush(const gnn_cfg_t *cfg, uint32_t addr) {
  std::vector<gnn_insn_t> p;
  const unsigned d = (unsigned)cfg->depth[GNN_BUF_OUT], lw = (unsigned)cfg->lw;
  for (unsigned bank = 0; bank < 2; bank++)
    p.push_back(gnn_enc_store(bank * d, d, lw, addr + bank * d * lw, lw));
  return p;
}

// GSTOREs of every MF line of every GPE (dim = L, one line a node) from `addr` on.
static inline std::vector<gnn_insn_t> tb_gnn_mf_flush(const gnn_cfg_t *cfg, uint32_t addr) {
  std::vector<gnn_insn_t> p;
  const unsigned d = (unsigned)cfg->gdepth[GNN_MEM_MF], n = (unsigned)cfg->gpes * d;
  const unsigned l = (unsigned)cfg->lanes;
  for (unsigned bank = 0; bank < 2; bank++)
    p.push_back(gnn_enc_gstore(bank * d, n, l, addr + bank * n * l, l));
  return p;
}

#endif
