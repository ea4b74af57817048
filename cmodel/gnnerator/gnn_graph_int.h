/* gnn_graph_int.h -- the Graph Engine part of the GNNerator golden model (gnn_graph.c), as the
 * functional model (gnnerator.c) calls it. Private to cmodel/gnnerator; the public definitions
 * are in cmodel/include/gnnerator.h ("GRAPH ENGINE"). */
#ifndef GNN_GRAPH_INT_H
#define GNN_GRAPH_INT_H

#include "gnnerator.h"

typedef struct gnn_gstate gnn_gstate_t;

/* The EDGE, IF and MF memories of every GPE (zeroed); NULL when cfg->gpes = 0 or no memory. */
gnn_gstate_t *gnn_gstate_new(const gnn_cfg_t *cfg);
void gnn_gstate_free(gnn_gstate_t *g);

/* Static checks of a graph opcode (8..11) after OPCODE; returns GNN_OK or the error code. */
int gnn_gcheck(const gnn_cfg_t *cfg, const gnn_insn_t *in);
/* Banks and DRAM range of a valid graph instruction (gnn_use). */
void gnn_guse(const gnn_cfg_t *cfg, const gnn_insn_t *in, gnn_use_t *u);
/* Executes a valid graph instruction (DRAM through gnn_mem_rd / gnn_mem_wr, store beats through
 * gnn_model_log_beat); rounding mode already nearest-even. */
void gnn_gexec(gnn_model_t *m, gnn_gstate_t *g, const gnn_insn_t *in);

uint32_t gnn_gstate_rd(const gnn_gstate_t *g, int mem, int gpe, unsigned line, unsigned word);
uint64_t gnn_gstate_bad_edges(const gnn_gstate_t *g);
gnn_grun_stats_t gnn_gstate_stats(const gnn_gstate_t *g);

/* Appends a DRAM write beat to the model's log (gnn_model_take_beats). */
void gnn_model_log_beat(gnn_model_t *m, uint64_t addr, unsigned words, const uint32_t *data);

#endif /* GNN_GRAPH_INT_H */
