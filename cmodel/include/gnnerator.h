/* gnnerator.h -- golden model of GNNerator (rtl/gnnerator): its Dense Engine and its Graph Engine
 * (GRAPH ENGINE below), and the formats its compilers, harnesses and tests share: the dense ISA
 * encoding, the error codes, the buffer and DRAM layouts of each dataflow, the bit-exact
 * arithmetic, and the cycle model.
 * docs/gnnerator.md has the same definitions with the reasons.
 *
 * ENGINE.  An R x C systolic array of fp32 PEs (each one fused multiply-add: one rounding,
 * round to nearest even, subnormals kept, any NaN result canonical 0x7FC00000).  Three on-chip
 * buffers -- input (IN), weight (WT), output (OUT) -- each of two banks of `depth` lines (one
 * depth per buffer); a line is LW = max(R, C) fp32 words.  Buffer line addresses run
 * 0 .. 2*depth-1: bank = addr / depth.
 * DRAM is word addressed (32-bit words), 2^addr_w words.  The memory port moves up to LW
 * contiguous words per request.
 *
 * INSTRUCTIONS (128 bits, gnn_insn_t.w[0] = bits 31:0).  Bits not named for an opcode are
 * reserved and must be 0.  op = bits 3:0.
 *   LOAD   (1)  buf[5:4] (0 IN, 1 WT, 2 OUT)  w[15:8]  line[31:16]  n[47:32]  addr[79:48]
 *               stride[111:80]:  for i < n: BUF[line+i][j] = DRAM[addr + i*stride + j] for j < w,
 *               BUF[line+i][j] = 0 (+0.0) for w <= j < LW.  stride may be 0 (one row repeated:
 *               how a bias row is broadcast into OUT before an accumulating MATMUL).
 *   STORE  (2)  the same fields, buf must be 2 (OUT): DRAM[addr + i*stride + j] = OUT[line+i][j]
 *               for i < n (in order), j < w.
 *   MATMUL (3)  df[5:4] (0 OS, 1 WS, 2 IS)  acc[6]  act[9:8]  M[31:16]  K[47:32]  N[63:48]
 *               in[79:64]  wt[95:80]  out[111:96]:  C = A (M x K) * B (K x N), see ARITHMETIC.
 *   MADD   (4)  act[9:8]  n[31:16]  src0[63:48] (OUT)  src1[79:64] (IN)  dst[111:96] (OUT):
 *               OUT[dst+i][j] = act(add(OUT[src0+i][j], IN[src1+i][j])), i < n, all LW words.
 *   ACT    (5)  act[9:8]  n[31:16]  src0[63:48] (OUT)  dst[111:96] (OUT):
 *               OUT[dst+i][j] = act(OUT[src0+i][j]).
 *   COPY   (6)  n[31:16]  src0[63:48] (OUT)  dst[79:64] (IN): IN[dst+i] = OUT[src0+i] (whole
 *               lines, bits unchanged): output back to the input buffer.
 *
 * ERRORS.  An instruction with an error is not executed (nothing changes) and the engine goes
 * on with the next one.  Checks in this order, the first that applies is reported:
 *   1 OPCODE   op not 1..6
 *   2 FIELD    a reserved bit set; LOAD buf 3; STORE buf != 2; df 3; act 2 or 3
 *   3 SIZE     n = 0 (LOAD, STORE, MADD, ACT, COPY); M, K or N = 0 (MATMUL)
 *   4 WIDTH    w = 0 or w > LW (LOAD, STORE)
 *   5 RANGE    a buffer range [base, base + lines) that is not inside one bank (base + lines >
 *              2*depth, or base / depth != (base + lines - 1) / depth); or a DRAM range whose
 *              last word addr + (n-1)*stride + w - 1 is >= 2^addr_w.  Buffer ranges checked in
 *              the order IN, WT, OUT (MATMUL), src0, src1, dst (MADD/ACT/COPY), then DRAM.
 *   6 OVERLAP  MADD/ACT: dst range overlaps the src0 range and dst != src0
 *
 * ACTIVATION act: 0 none (bits unchanged), 1 ReLU: NaN -> 0x7FC00000, sign set -> +0 (also
 * -0 -> +0), else unchanged.
 *
 * LAYOUTS.  KB = ceil(K/R), KBR = KB*R, MBR = ceil(M/R), MBC = ceil(M/C), NBC = ceil(N/C).
 * Where element X[i][j] sits: buffer line (relative to the instruction's base), word.
 *          A[m][k] (IN)                  B[k][n] (WT)                  C[m][n] (OUT)
 *   OS     (m/R)*K + k,    m%R           (n/C)*K + k,    n%C           (m/R)*N + n,   m%R
 *   WS     (k/R)*M + m,    k%R           (n/C)*KBR + k,  n%C           (n/C)*M + m,   n%C
 *   IS     (m/C)*KBR + k,  m%C           (k/R)*N + n,    k%R           (m/C)*N + n,   m%C
 * Lines used (the ranges checked for error 5):
 *   OS  IN MBR*K      WT NBC*K      OUT MBR*N
 *   WS  IN KB*M       WT NBC*KBR    OUT NBC*M
 *   IS  IN MBC*KBR    WT KB*N       OUT MBC*N
 * So in DRAM: OS wants A^T, B, and gives C^T (row-major); WS A, B, C; IS A^T, B^T, C^T -- in
 * each dataflow the output has the layout of the input, so a layer's output feeds the next.
 *
 * ARITHMETIC (bit-exact; fma = fused, one rounding; add = fp32 add; both RNE):
 *   OS:     S = -0.0;  for k = 0..K-1: S = fma(A[m][k], B[k][n], S);
 *           C[m][n] = act(acc ? add(old C[m][n], S) : S)
 *   WS, IS: S = acc ? old C[m][n] : -0.0;  for k = 0..K-1: S = fma(A[m][k], B[k][n], S);
 *           C[m][n] = act(S)
 * (-0.0 is the identity of the chain: fma(a, b, -0) is the rounded product, also for a +0
 * product.)  A MATMUL writes whole OUT lines: in the lines of its OUT range, the words that hold
 * no C[m][n] (beyond M or N in the last block) become +0.0.  Words of IN/WT lines that hold no
 * A or B element are never used (any value).
 *
 * ISSUE (timing only; results are those of executing the instructions one at a time in order).
 * In-order issue, one per cycle, to three units: LD (LOAD), ST (STORE), EX (MATMUL, MADD, ACT,
 * COPY), plus DR (the drain of an OS MATMUL, which finishes after EX has moved on).  The head
 * waits while its unit is busy, while another unit's instruction in flight uses one of its banks
 * (read or write), or, LOAD against STORE in flight (and STORE against LOAD), while their DRAM
 * ranges overlap.  An OS MATMUL may issue while DR drains an earlier OS MATMUL; any other EX
 * instruction waits for DR.  gnn_cycles() is the exact cycle model of this (docs/gnnerator.md).
 *
 * GRAPH ENGINE (cfg.gpes = P > 0).  P GPEs of L lanes.  GPE g owns three memories, each of two
 * banks: EDGE (32-bit edge words, gdepth[0] a bank), IF (input features, lines of L fp32 words,
 * gdepth[1] lines a bank; every GPE reads every IF through the broadcast crossbar) and MF
 * (modified features, gdepth[2] lines a bank; read-modify-written by any GPE through the MF
 * crossbar under the lock).  Bank of an address = addr / depth, as in the buffers.
 * NODE LAYOUT of a feature block (a node block of `n` local nodes, `dim` words a node, CH =
 * ceil(dim/L) lines a node): local node v, line c < CH, sits in GPE v % P at line
 * base + (v / P) * CH + c, words [c*L, c*L + L) of the node's feature; words beyond dim are +0.
 * Lines per GPE of such a block: ceil(n/P) * CH.  (Figure 6.3's interleaving: consecutive nodes
 * in consecutive GPEs, so a stream of nodes writes every GPE's memory in turn.)
 * EDGE WORD: src_local[15:0] | dst_local[31:16] (node indices local to the shard's source and
 * destination node blocks); 0xFFFFFFFF is the null edge (padding: skipped).
 *   GLOAD  (8)  mem[5:4] (0 EDGE, 1 IF, 2 MF)  dim[15:8]  base[31:16]  n[47:32]  addr[79:48]
 *               stride[111:80].  EDGE (dim must be 0): for i < n, g < P:
 *               EDGE_g[base+i] = DRAM[addr + i*stride + g] (a DRAM line of P edges, one a GPE).
 *               IF/MF: for v < n, c < CH: line (v, c) of the NODE LAYOUT
 *               = DRAM[addr + v*stride + c*L + j] for j < min(L, dim - c*L), +0 beyond.
 *   GSTORE (9)  the same fields, mem must be 2 (MF), dim >= 1: DRAM[addr + v*stride + c*L + j]
 *               = MF line (v, c) word j, j < min(L, dim - c*L); in order v, c.
 *   GFILL  (10) base[31:16]  n[47:32]  value[79:48]: every word of MF lines [base, base+n) of
 *               every GPE = value.
 *   GRUN   (11) one stream convoy over a shard (or over a node block): mode[5:4] (0 stream,
 *               1 edges)  apply[7:6] (0 pass, 1 add, 2 mul, 3 mulm)  sfu[9:8] (0 none, 1 ReLU,
 *               2 exp: SFU below)
 *               red[11:10] (0 write, 1 sum, 2 max, 3 min)  f0sel[12] f1sel[13] (node of
 *               fetcher 0 / 1 in edge mode: 0 source, 1 destination)  ebase[31:16]
 *               count[47:32] (edge entries a GPE)  nodes[63:48]  if0[79:64]  if1[95:80]
 *               mf[111:96]  ch[119:112] (lines a node).  Items: edge mode, every GPE g walks its
 *               EDGE_g[ebase .. ebase+count-1]; for an edge (s, d) and c < ch: x0 = f0sel ? d : s,
 *               x1 = f1sel ? d : s; stream mode (ebase, count, f0sel, f1sel must be 0): GPE g
 *               walks its nodes v = g, g+P, .. < nodes, and x0 = x1 = d = v.  For each item:
 *                 a = apply(IF[x0] line if0+(x0/P)*ch+c, IF[x1] line if1+(x1/P)*ch+c)
 *                 f = sfu(a);  MF[d] line mf+(d/P)*ch+c = red(that MF line, f)   (per lane)
 *               apply: pass a = x0; add fma(x0, 1.0, x1); mul fma(x0, x1, -0.0); mulm
 *               fma(x0, m, -0.0) with m the MF line's value (a per-node scale: GCN's and
 *               GraphSage's normalisation; IF1 is read only for add and mul).  sfu: SFU below.
 *               red: write f; sum add(m, f);
 *               max / min: NaN in either -> 0x7FC00000, else the larger / smaller with
 *               -0 < +0.  Null edges are skipped; an edge with s or d >= nodes is a BAD EDGE:
 *               skipped and counted (gnn_model_bad_edges; the RTL's bad_edges_o), nothing else
 *               changes and the engine goes on.  Pull and push are edge layouts the compiler
 *               writes (an edge in the GPE of its destination / of its source); the hardware is
 *               the same for both.
 * ORDER OF A GRUN (the arithmetic depends on it only where two items reach one MF line): the
 * items reach MF in the order the model's GRUN execution gives, which is the RTL's cycle-by-cycle
 * arbitration (GRUN TIMING below): pull sums follow each GPE's edge order exactly; push sums
 * from several GPEs into one destination follow the lock grants, reproduced by the model.
 * Graph errors (codes as above): OPCODE op not 1..6 / 8..11, or 8..11 with P = 0; FIELD a
 * reserved bit, GLOAD mem 3, EDGE with dim != 0, GSTORE mem != 2, GRUN mode >= 2, sfu 3, stream
 * mode with ebase/count/f0sel/f1sel != 0; SIZE n = 0 (GLOAD/GSTORE/GFILL),
 * GRUN nodes, ch or (edge mode) count = 0; WIDTH IF/MF dim = 0; RANGE an on-chip range not in
 * one bank (GLOAD/GSTORE: EDGE [base, base+n) or the node block's lines; GFILL MF [base,
 * base+n); GRUN in the order EDGE [ebase, ebase+count), IF0, IF1 (add/mul), MF: each
 * [base, base + ceil(nodes/P)*ch)) or a DRAM range past 2^addr_w (last word EDGE
 * addr+(n-1)*stride+P-1, IF/MF addr+(n-1)*stride+dim-1).
 * ISSUE: graph instructions go to three more units, GLD (GLOAD), GST (GSTORE) and GEX (GRUN,
 * GFILL), under the same rules (banks: EDGE, IF, MF two each; DRAM ranges: every loading unit
 * against every storing unit, and ST against GST: two stores to overlapping ranges keep their
 * order).  This in-order issue is the GNNerator Controller: a GLOAD of
 * features the Dense Engine STOREs waits for that STORE (dense first), a dense LOAD of
 * aggregated features waits for their GSTORE (graph first).
*
 * SFU (GRUN sfu; gnn_sfu, the RTL's gnn_sfu): 1 ReLU as ACT; 2 exp: NaN -> 0x7FC00000, +inf ->
 * +inf, -inf -> +0, zero or subnormal x -> 1.0, |x| >= 128 -> +inf / +0; otherwise integer
 * arithmetic: t = |x| log2(e) with 56 fraction bits ((significand * L2E) >> (133 - exponent),
 * L2E = round(log2(e) 2^39)), negated for x < 0 into n + f with f in [0, 1); i = f's top 8
 * bits, u = (next 24 bits * round(ln2 2^32)) >> 32; 2^f ~ TAB[i] (1 + u + u^2/2) with
 * TAB[i] = round(2^(i/256) 2^30) (sw/gnnerator/gen_gnn_exp_lut.py) and u^2/2 = (u*u) >> 33;
 * the 64-bit product rounded to 24 bits (nearest even); results >= 2^128 -> +inf, below 2^-126
 * -> +0 (no subnormal results).  Within 1 ulp of exp rounded to nearest over every fp32 input
 * (0.28% differ by 1 ulp; test_gnnerator checks a sweep).
 *
 * GRUN TIMING (gnn_grun_sched; the RTL's gnn_gex cycle for cycle).  Cycle 0 is the first cycle
 * after GEX starts.  Each GPE holds a current item cur (an edge word and its line c) and, edge
 * mode, the EDGE memory's read register nx (one entry read ahead).  In cycle k:
 *   present = cur valid and cur neither null nor bad;  done = cur valid and (not present, or
 *   granted with c = ch-1);  take = nx valid and (cur empty or done);  read = more entries and
 *   (nx empty or take);  cur <- nx on take (c = 0), else c+1 on a grant;  a bad edge is counted
 *   in the cycle it is cur.  Stream mode: the GPE presents its nodes from cycle 0, no nx.
 * Arbitration in cycle k: priority from GPE k % P upwards (mod P); in that order a presenting
 * GPE is granted when all it needs is free: the IF0 port of its x0's GPE (free, or taken this
 * cycle for the same line: a broadcast), the IF1 port likewise (add/mul), the MF port of d's GPE
 * (not taken this cycle), and d's MF line not locked.  The lock (the CAM: one entry an MF
 * memory) holds the line granted in cycle k-1 by another GPE; a GPE's own line of cycle k-1 is
 * not locked for it: it takes the value from its own result register (pull's pinned
 * destination).  With sfu != 0 a granted GPE also takes one unit of the SFU pool (cfg.sfus
 * units of L lanes, shared by all GPEs): the arbiter grants at most sfus GPEs a cycle, the
 * i-th grant of the cycle in priority order using unit i (the RTL's crossbar); a GPE refused
 * only for want of a unit counts as a stall and an SFU stall.  A grant in cycle k reads in k and writes MF in k+1.  GEX is busy until every
 * GPE is done and the last write is made.  GFILL: one line a cycle in every GPE.
 */
#ifndef GNNERATOR_H
#define GNNERATOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GNN_INSN_WORDS 4 /* 128-bit instruction, w[0] = bits 31:0 */

enum { GNN_OP_LOAD = 1, GNN_OP_STORE = 2, GNN_OP_MATMUL = 3, GNN_OP_MADD = 4, GNN_OP_ACT = 5,
       GNN_OP_COPY = 6 };
enum { GNN_BUF_IN = 0, GNN_BUF_WT = 1, GNN_BUF_OUT = 2 };
enum { GNN_DF_OS = 0, GNN_DF_WS = 1, GNN_DF_IS = 2 };
enum { GNN_ACT_NONE = 0, GNN_ACT_RELU = 1 };
enum { GNN_OK = 0, GNN_E_OPCODE = 1, GNN_E_FIELD = 2, GNN_E_SIZE = 3, GNN_E_WIDTH = 4,
       GNN_E_RANGE = 5, GNN_E_OVERLAP = 6 };

/* Field positions (lsb, width): the RTL decoder uses the same numbers (rtl/gnnerator). */
#define GNN_F_OP      0, 4
#define GNN_F_BUF     4, 2  /* LOAD/STORE */
#define GNN_F_DF      4, 2  /* MATMUL */
#define GNN_F_ACC     6, 1
#define GNN_F_ACT     8, 2
#define GNN_F_W       8, 8  /* LOAD/STORE */
#define GNN_F_LINE   16, 16 /* LOAD/STORE */
#define GNN_F_N16    32, 16 /* LOAD/STORE n */
#define GNN_F_ADDR   48, 32
#define GNN_F_STRIDE 80, 32
#define GNN_F_M      16, 16 /* MATMUL M; MADD/ACT/COPY n */
#define GNN_F_K      32, 16
#define GNN_F_N      48, 16 /* MATMUL N; MADD/ACT/COPY src0 */
#define GNN_F_IN     64, 16 /* MATMUL in; MADD src1; COPY dst */
#define GNN_F_WT     80, 16
#define GNN_F_OUT    96, 16 /* MATMUL out; MADD/ACT dst */

/* Graph Engine opcodes and fields (GRAPH ENGINE above). */
enum { GNN_OP_GLOAD = 8, GNN_OP_GSTORE = 9, GNN_OP_GFILL = 10, GNN_OP_GRUN = 11 };
enum { GNN_MEM_EDGE = 0, GNN_MEM_IF = 1, GNN_MEM_MF = 2 };
enum { GNN_GM_STREAM = 0, GNN_GM_EDGES = 1 };
enum { GNN_AP_PASS = 0, GNN_AP_ADD = 1, GNN_AP_MUL = 2, GNN_AP_MULM = 3 };
enum { GNN_SF_NONE = 0, GNN_SF_RELU = 1, GNN_SF_EXP = 2 };
enum { GNN_RD_WRITE = 0, GNN_RD_SUM = 1, GNN_RD_MAX = 2, GNN_RD_MIN = 3 };
#define GNN_EDGE_NULL 0xFFFFFFFFu
#define GNN_G_MEM     4, 2  /* GLOAD/GSTORE */
#define GNN_G_DIM     8, 8
#define GNN_G_BASE   16, 16 /* GLOAD/GSTORE/GFILL base, GRUN ebase */
#define GNN_G_N      32, 16 /* GLOAD/GSTORE/GFILL n, GRUN count */
#define GNN_G_VALUE  48, 32 /* GFILL */
#define GNN_G_MODE    4, 2  /* GRUN */
#define GNN_G_APPLY   6, 2
#define GNN_G_SFU     8, 2
#define GNN_G_RED    10, 2
#define GNN_G_F0SEL  12, 1
#define GNN_G_F1SEL  13, 1
#define GNN_G_NODES  48, 16
#define GNN_G_IF0    64, 16
#define GNN_G_IF1    80, 16
#define GNN_G_MF     96, 16
#define GNN_G_CH    112, 8

typedef struct { uint32_t w[GNN_INSN_WORDS]; } gnn_insn_t;

/* A GRUN's fields. */
typedef struct {
  unsigned mode, apply, sfu, red, f0sel, f1sel;
  unsigned ebase, count, nodes, if0, if1, mf, ch;
} gnn_grun_t;

/* Field view (no checks). For MADD/ACT/COPY: n = m, src0 = n_, src1/dst(COPY) = in, dst = out. */
typedef struct {
  unsigned op, buf, df, acc, act, w;
  unsigned line, n;            /* LOAD/STORE; n also MADD/ACT/COPY lines */
  uint32_t addr, stride;       /* LOAD/STORE */
  unsigned m, k, nn;           /* MATMUL M, K, N */
  unsigned in, wt, out;        /* MATMUL bases */
  unsigned src0, src1, dst;    /* MADD/ACT/COPY */
} gnn_fields_t;

typedef struct {
  int rows, cols;   /* R, C of the array: 1..64 */
  int lw;           /* line width in words = max(R, C) (set by gnn_cfg_init) */
  int depth[3];     /* lines per bank of IN, WT, OUT (index GNN_BUF_*): 1..32768 each */
  int addr_w;       /* DRAM word-address bits: 4..32 */
  /* Graph Engine (GRAPH ENGINE below); gpes = 0: none (gnn_cfg_init), graph opcodes are errors */
  int gpes;         /* P graph processing elements: 0, or 1..32 */
  int lanes;        /* L fp32 lanes of a GPE = words of a feature line: 1..64 */
  int gdepth[3];    /* entries / lines per bank of the EDGE, IF and MF memories (GNN_MEM_*) */
  int pw;           /* memory port words = max(lw, lanes) (set by gnn_cfg_graph) */
  int sfus;         /* S units of the shared SFU pool: 1..gpes (gnn_cfg_graph: 1; gnn_cfg_sfus) */
} gnn_cfg_t;

/* Fills cfg; returns 0, or -1 for a value out of range. */
int gnn_cfg_init(gnn_cfg_t *cfg, int rows, int cols, int in_depth, int wt_depth, int out_depth,
                 int addr_w);
/* Adds a Graph Engine of `gpes` GPEs of `lanes` lanes (both powers of two) with e/f/m_depth
 * entries or lines per bank of each GPE's EDGE, IF and MF memories (1..32768); gpes must be
 * <= max(lw, lanes) (an edge line is one word per GPE). Returns 0, or -1 for a value out of
 * range. */
int gnn_cfg_graph(gnn_cfg_t *cfg, int gpes, int lanes, int e_depth, int f_depth, int m_depth);
/* Sets the SFU pool's size S (1..gpes; gnn_cfg_graph sets 1). Returns 0, or -1. */
int gnn_cfg_sfus(gnn_cfg_t *cfg, int sfus);
/* The paper's GNNerator: Dense Engine 64 x 64, 6 MiB of buffers split equally (2 MiB each, two
 * banks of 1 MiB = 4096 lines of 64 words); Graph Engine 32 GPEs x 32 lanes with 8 SFU units (ours), 24 MiB split
 * equally (8 MiB each of edge, input-feature and modified-feature memory: per GPE 256 KiB = two
 * banks of 32768 edge words, and two banks of 1024 lines of 32 words for IF and for MF), 32-bit
 * DRAM word addresses. */
void gnn_cfg_paper(gnn_cfg_t *cfg);

uint32_t gnn_get(const gnn_insn_t *in, int lsb, int width);
void gnn_set(gnn_insn_t *in, int lsb, int width, uint32_t v);
void gnn_fields(const gnn_insn_t *in, gnn_fields_t *f);

/* Encoders (values are masked to their fields; bad values make bad instructions on purpose). */
gnn_insn_t gnn_enc_load(unsigned buf, unsigned line, unsigned n, unsigned w, uint32_t addr,
                        uint32_t stride);
gnn_insn_t gnn_enc_store(unsigned line, unsigned n, unsigned w, uint32_t addr, uint32_t stride);
gnn_insn_t gnn_enc_matmul(unsigned df, unsigned acc, unsigned act, unsigned m, unsigned k,
                          unsigned n, unsigned in, unsigned wt, unsigned out);
gnn_insn_t gnn_enc_madd(unsigned act, unsigned n, unsigned src0, unsigned src1, unsigned dst);
gnn_insn_t gnn_enc_act(unsigned act, unsigned n, unsigned src0, unsigned dst);
gnn_insn_t gnn_enc_copy(unsigned n, unsigned src0, unsigned dst);

gnn_insn_t gnn_enc_gload(unsigned mem, unsigned base, unsigned n, unsigned dim, uint32_t addr,
                         uint32_t stride);
gnn_insn_t gnn_enc_gstore(unsigned base, unsigned n, unsigned dim, uint32_t addr,
                          uint32_t stride);
gnn_insn_t gnn_enc_gfill(unsigned base, unsigned n, uint32_t value);
gnn_insn_t gnn_enc_grun(const gnn_grun_t *r);
void gnn_grun_fields(const gnn_insn_t *in, gnn_grun_t *r);

/* Static checks of ERRORS; returns GNN_OK or the error code. */
int gnn_check(const gnn_cfg_t *cfg, const gnn_insn_t *in);

/* Buffer use of a valid instruction (for the issue rules): bit b of the masks is bank b of
 * IN (bits 0-1), WT (2-3), OUT (4-5), EDGE (6-7), IF (8-9), MF (10-11).
 * unit: 0 LD, 1 ST, 2 EX, 3 GLD, 4 GST, 5 GEX. */
typedef struct { int unit; unsigned banks; uint64_t dram_lo, dram_hi; /* [lo, hi) words */ } gnn_use_t;
void gnn_use(const gnn_cfg_t *cfg, const gnn_insn_t *in, gnn_use_t *u);

/* Lines of each buffer a MATMUL uses (the table above). */
void gnn_matmul_lines(const gnn_cfg_t *cfg, unsigned df, unsigned m, unsigned k, unsigned n,
                      unsigned *in_lines, unsigned *wt_lines, unsigned *out_lines);

/* --------------------------------------------------------------- functional model */
typedef struct gnn_model gnn_model_t;
/* A model with zeroed buffers and a DRAM of 2^addr_w words (sparse: pages allocated on first
 * write; reads of never-written words give 0). NULL on a bad cfg or no memory. */
gnn_model_t *gnn_model_new(const gnn_cfg_t *cfg);
void gnn_model_free(gnn_model_t *m);
const gnn_cfg_t *gnn_model_cfg(const gnn_model_t *m);
/* Executes one instruction; returns its status (GNN_OK or an error; errors change nothing). */
int gnn_model_exec(gnn_model_t *m, const gnn_insn_t *in);
/* DRAM and buffer access (word granularity). buf: GNN_BUF_*. */
uint32_t gnn_mem_rd(const gnn_model_t *m, uint64_t addr);
void gnn_mem_wr(gnn_model_t *m, uint64_t addr, uint32_t v);
uint32_t gnn_buf_rd(const gnn_model_t *m, int buf, unsigned line, unsigned word);
/* Graph Engine memories (word granularity): mem GNN_MEM_*; EDGE has one word a line. */
uint32_t gnn_gmem_rd(const gnn_model_t *m, int mem, int gpe, unsigned line, unsigned word);
/* Bad edges skipped by the GRUNs executed so far. */
uint64_t gnn_model_bad_edges(const gnn_model_t *m);
/* The schedule of the last GRUN (GRUN TIMING): cycles GEX was busy, items, and the cycles a
 * GPE presented an item without a grant (all stalls, and those where the lock was one cause). */
typedef struct { uint64_t cycles, items, stalls, lock_stalls, sfu_stalls, bad_edges; } gnn_grun_stats_t;
gnn_grun_stats_t gnn_model_grun_stats(const gnn_model_t *m);
/* Every DRAM write beat of the STOREs and GSTOREs executed so far is appended to a log the
 * caller drains: returns the number of beats logged since the last call and copies up to max of them. */
typedef struct { uint64_t addr; unsigned words; uint32_t data[64]; } gnn_beat_t;
size_t gnn_model_take_beats(gnn_model_t *m, gnn_beat_t *out, size_t max);

/* Clock-free reference: runs a program on a model, returns the number of error statuses. */
int gnnerator_ref(gnn_model_t *m, const gnn_insn_t *prog, size_t n, int *status);

/* Plain C = A * B in the engine's order (for tests and the compiler): A, B, C row-major fp32
 * bit patterns; old = the previous C when acc (OS: add at the end; WS/IS: chain start). */
void gnn_matmul_ref(unsigned df, unsigned acc, unsigned act, unsigned m, unsigned k, unsigned n,
                    const uint32_t *a, const uint32_t *b, uint32_t *c);

uint32_t gnn_fma(uint32_t a, uint32_t b, uint32_t c); /* RNE, canonical NaN */
uint32_t gnn_add(uint32_t a, uint32_t b);
uint32_t gnn_act(unsigned act, uint32_t x);
/* The Graph Engine's SFU (SFU above): sfu 0 none, 1 ReLU (as ACT), 2 exp; gnn_exp alone. */
uint32_t gnn_sfu(unsigned sfu, uint32_t x);
uint32_t gnn_exp(uint32_t x);

const char *gnn_err_name(int code); /* "OK", "OPCODE", ... "?" */
const char *gnn_op_name(unsigned op);

/* ------------------------------------------------------------------ cycle model */
/* Memory timing of the harness's port model (tb/gnnerator): one request (read or write, up to LW
 * words) accepted per cycle, read data `latency` cycles after acceptance, in order. */
typedef struct { int latency; } gnn_memtiming_t;
typedef struct {
  uint64_t cycles;          /* first instruction offered -> engine idle after the last */
  uint64_t busy_ex;         /* cycles EX is busy */
  uint64_t rd_lines, wr_lines, rd_bytes, wr_bytes;
  uint64_t macs;            /* useful multiply-adds (M*K*N per MATMUL) */
  uint64_t first_ex;        /* cycle EX starts its first instruction (what precedes it: the
                               first tile's buffer fill, which double buffering cannot hide) */
  uint64_t last_ex;         /* last cycle EX or the OS drain works (after it: the last STOREs) */
  uint64_t busy_gex;        /* cycles GEX is busy (gnn_prog_cycles) */
} gnn_cyc_stats_t;
/* Exact cycle count of the RTL for a dense program (no memory backpressure). Instructions with
 * errors take their one issue cycle. Returns 0, or -1 on a bad argument or a valid graph
 * instruction (the graph units' timing: GRUN TIMING, gnn_model_grun_stats). */
int gnn_cycles(const gnn_cfg_t *cfg, const gnn_memtiming_t *mt, const gnn_insn_t *prog, size_t n,
               gnn_cyc_stats_t *st);
/* The same for a program of both engines: gex_len[i] is GEX's busy cycles for GRUN or GFILL i
 * (gnn_model_gex_lengths: GRUN TIMING's cycles, GFILL's n; entries of other instructions are
 * ignored).
 * gex_len NULL: dense programs only, as gnn_cycles.  rd_lines / wr_lines count both engines'
 * requests; rd_bytes / wr_bytes the Dense Engine's. */
int gnn_prog_cycles(const gnn_cfg_t *cfg, const gnn_memtiming_t *mt, const gnn_insn_t *prog,
                    size_t n, const uint64_t *gex_len, gnn_cyc_stats_t *st);
/* Executes prog in order on m (a model of the program's configuration and memory image) and
 * writes each GRUN's and GFILL's GEX cycles to gex_len[i] (0 for other instructions); sum (may
 * be NULL) gets their schedules' statistics added up.  skip_dense: the Dense Engine's
 * instructions are not executed (their results do not change any GRUN's timing, which depends
 * only on the edges the program loads).  Returns the number of instructions with an error
 * status. */
size_t gnn_model_gex_lengths(gnn_model_t *m, const gnn_insn_t *prog, size_t n, int skip_dense,
                             uint64_t *gex_len, gnn_grun_stats_t *sum);
/* Cycles of one MATMUL in the EX unit, first cycle to last OUT write (no stalls). */
uint64_t gnn_matmul_cycles(const gnn_cfg_t *cfg, unsigned df, unsigned m, unsigned k, unsigned n);

#ifdef __cplusplus
}
#endif

#endif /* GNNERATOR_H */
