/* mna_asm.h -- assembler and disassembler of the MANNA DiffMem tile ISA (docs/manna.md,
 * "Instruction encoding"; the encoding itself is cmodel/include/manna_isa.h).
 *
 * SYNTAX (one instruction a line; '#' or ';' starts a comment; blank lines skipped; operands
 * separated by commas and/or blanks; mnemonics, registers and flag words in lower case):
 *   label:                          a label on its own line or before an instruction: its value is
 *                                   the PC (word index from 0) of the next instruction
 *   .word V                         a raw 64-bit word (V: decimal or 0x hex, < 2^64)
 *   nop | halt | endloop
 *   li sA, IMM                      IMM: an integer -2^31..2^32-1 (decimal, or 0x hex with an
 *   addi sA, sB, IMM                optional '-'), or an fp32 literal with an f suffix (1.5f,
 *                                   -2e-3f, inff, nanf): its bit pattern
 *   loop sA                         imm = the PC after the matching endloop (filled in)
 *   loop sA, @END                   explicit end PC (a number or a label): the disassembler's form;
 *                                   such a loop needs no endloop (it nests like any other loop
 *                                   when one follows)
 *   agen aA, L, sC, sD              L: 0..15
 *   dmat aA, aB, sC, sD [pad] [store]
 *   dma aA, aB, sC [store]
 *   vmm rA, aB, aC, sD [t] [sq]
 *   swr aA, aB, rC, rD, sF
 *   el.add|el.sub|el.mul aA, aB, X, sF    X: aN, or sN (flag bit2)
 *   el.fma aA, aB, X, Y, sF               X: bit2, Y: bit3 when a scalar register
 *   rfz rA | rfld rA, aB | rfst rA, aB
 *   sfu.exp|recip|sqrt|relu|sigmoid|sum aA, aB, sD
 *   sfu.dot aA, aB, aC, sD
 *   sld sA, aB | sst sA, aB | reduce aA, sB | bcast aA, sB
 * Registers: s0..s15, a0..a7, r0..r15 (the RF size is a build parameter: not checked here).
 * Loop structure: every `loop sA` needs its endloop, an endloop needs an open loop, and loops
 * nest at most 4 deep (MNA_LOOP_LEVELS); all three are assembly errors.
 *
 * ERRORS: one line "fname:line: what is wrong (what was expected)" (cutil_seterr_line; "line N:"
 * when fname is NULL): unknown mnemonic, wrong operand count, bad register, bad or out-of-range
 * immediate/level/loop end, unknown or repeated flag word, bad/duplicate/undefined label,
 * endloop without loop, loop without endloop, nesting deeper than 4, line too long (> 1023
 * characters), program longer than max words.
 *
 * DISASSEMBLY: mna_asm_disasm prints one word in the syntax above (loops in the @END form,
 * immediates in decimal when |v| < 65536, else 0x%08x); a word that is not well-formed (an
 * undefined opcode, a nonzero unused field/flag/imm, an a-register field 8..15, sfu FN 7, el add/
 * sub/mul with a c operand) prints as ".word 0x%016llx". Every word round-trips:
 * mna_assemble(mna_asm_disasm(w)) == w (an endloop needs an open loop before it).
 */
#ifndef MNA_ASM_H
#define MNA_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "manna_isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Assembles src (text of a whole program; fname used in messages). Writes up to max words to
 * out, *n = count. Returns 0, or -1 with err = "fname:line: what is wrong (what was expected)". */
int mna_assemble(const char *src, const char *fname, uint64_t *out, size_t max, size_t *n,
                 char *err, size_t errlen);

/* One instruction in the syntax above, into buf (n bytes; 48 always suffice); returns buf. */
char *mna_asm_disasm(uint64_t w, char *buf, size_t n);

/* 1 when w is a well-formed instruction (mna_asm_disasm prints it as an instruction, not as
 * .word): the structural checks of the FIELD error, except RF registers >= RfRegs and the
 * run-time ones (counts, vmm t N > E). */
int mna_asm_wellformed(uint64_t w);

/* 1 when the opcode of w is defined (not an OPCODE error). */
int mna_asm_op_defined(unsigned op);

#ifdef __cplusplus
}
#endif

#endif /* MNA_ASM_H */
