/* manna_isa.h -- the MANNA DiffMem tile instruction encoding (docs/manna.md, "Instruction
 * encoding"), shared by the golden model (cmodel/manna), the assembler and kernel compiler
 * (sw/manna) and the harness (tb/manna).
 *
 *  63      58 57  54 53  50 49  46 45  42 41  38 37    32 31          0
 * +----------+------+------+------+------+------+--------+--------------+
 * |  opcode  |  A   |  B   |  C   |  D   |  F   | flags  |    imm32     |
 * +----------+------+------+------+------+------+--------+--------------+
 */
#ifndef MANNA_ISA_H
#define MANNA_ISA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  MNA_OP_NOP = 0x00,
  MNA_OP_HALT = 0x01,
  MNA_OP_LI = 0x02,
  MNA_OP_ADDI = 0x03,
  MNA_OP_LOOP = 0x04,
  MNA_OP_ENDLOOP = 0x05,
  MNA_OP_AGEN = 0x06,
  MNA_OP_DMAT = 0x08,
  MNA_OP_DMA = 0x09,
  MNA_OP_VMM = 0x0A,
  MNA_OP_SWR = 0x0B,
  MNA_OP_EL = 0x0C,
  MNA_OP_RFZ = 0x0D,
  MNA_OP_RFLD = 0x0E,
  MNA_OP_RFST = 0x0F,
  MNA_OP_SFU = 0x11,
  MNA_OP_SLD = 0x15,
  MNA_OP_SST = 0x16,
  MNA_OP_REDUCE = 0x18,
  MNA_OP_BCAST = 0x19
};

/* flags bits */
#define MNA_FL_PAD 0x01u   /* dmat: padded (transposed-read) layout in MS */
#define MNA_FL_STORE 0x02u /* dmat: MS -> MB; dma: VS -> VB */
#define MNA_FL_T 0x01u     /* vmm: transposed (key similarity) */
#define MNA_FL_SQ 0x02u    /* vmm: square the MS word (norms) */
#define MNA_FL_BS 0x04u    /* el: b is a scalar register */
#define MNA_FL_CS 0x08u    /* el: c is a scalar register */

enum { MNA_EL_ADD = 0, MNA_EL_SUB = 1, MNA_EL_MUL = 2, MNA_EL_FMA = 3 };
enum {
  MNA_SFU_EXP = 0,
  MNA_SFU_RECIP = 1,
  MNA_SFU_SQRT = 2,
  MNA_SFU_RELU = 3,
  MNA_SFU_SIGMOID = 4,
  MNA_SFU_SUM = 5,
  MNA_SFU_DOT = 6
};

/* Status codes (docs/manna.md, "Errors") */
enum {
  MNA_ST_IDLE = 0,
  MNA_ST_DONE = 1,
  MNA_ST_OPCODE = 2,
  MNA_ST_FIELD = 3,
  MNA_ST_ADDR = 4,
  MNA_ST_LOOP = 5,
  MNA_ST_PC = 6,
  MNA_ST_COLL = 7,
  MNA_ST_TIMEOUT = 8,
  MNA_ST_RUN = 15
};

/* Host port (docs/manna.md, "Host port") */
enum { MNA_HOST_WRITE = 0, MNA_HOST_READ = 1, MNA_HOST_START = 2, MNA_HOST_STATUS = 3 };
enum { MNA_SP_IMEM = 0, MNA_SP_MB = 1, MNA_SP_MS = 2, MNA_SP_VB = 3, MNA_SP_VS = 4, MNA_SP_SREG = 5 };
enum { MNA_RSP_OK = 0, MNA_RSP_BAD = 1, MNA_RSP_BUSY = 2 };

#define MNA_LOOP_LEVELS 4
#define MNA_AGENS 8
#define MNA_SREGS 16
#define MNA_MAX_COUNT 65535u

static inline uint64_t mna_enc(unsigned op, unsigned a, unsigned b, unsigned c, unsigned d,
                               unsigned f, unsigned flags, uint32_t imm) {
  return ((uint64_t)(op & 0x3F) << 58) | ((uint64_t)(a & 0xF) << 54) | ((uint64_t)(b & 0xF) << 50) |
         ((uint64_t)(c & 0xF) << 46) | ((uint64_t)(d & 0xF) << 42) | ((uint64_t)(f & 0xF) << 38) |
         ((uint64_t)(flags & 0x3F) << 32) | imm;
}
static inline unsigned mna_op(uint64_t w) { return (unsigned)(w >> 58) & 0x3F; }
static inline unsigned mna_fa(uint64_t w) { return (unsigned)(w >> 54) & 0xF; }
static inline unsigned mna_fb(uint64_t w) { return (unsigned)(w >> 50) & 0xF; }
static inline unsigned mna_fc(uint64_t w) { return (unsigned)(w >> 46) & 0xF; }
static inline unsigned mna_fd(uint64_t w) { return (unsigned)(w >> 42) & 0xF; }
static inline unsigned mna_ff(uint64_t w) { return (unsigned)(w >> 38) & 0xF; }
static inline unsigned mna_flags(uint64_t w) { return (unsigned)(w >> 32) & 0x3F; }
static inline uint32_t mna_imm(uint64_t w) { return (uint32_t)w; }

/* STATUS response word: {insns[31:0], pc[15:0], 12'b0, status[3:0]} */
static inline uint64_t mna_status_word(uint32_t insns, uint32_t pc, unsigned status) {
  return ((uint64_t)insns << 32) | ((uint64_t)(pc & 0xFFFF) << 16) | (status & 0xF);
}

#ifdef __cplusplus
}
#endif

#endif /* MANNA_ISA_H */
