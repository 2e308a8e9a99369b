/* asm.h — assembler and disassembler for the forms of isa.def (allocation-free).
 *
 * Accepted instruction syntaxes (one instruction per call):
 *   raw word           0xB0050014
 *   SFPI objdump form  ttstallwait 128, 1        operands = tt-llk TT_OP_<M>() arguments,
 *                                                most-significant field first (TT_LLK rows)
 *   upper-case form    STALLWAIT 128, 1   and   TT_OP_STALLWAIT(128, 1) / TTI_STALLWAIT(...)
 *   named-field form   STALLWAIT block_mask=0x80 condition_mask=0x1   (ISA field names or
 *                      tt-llk aliases; omitted fields are 0; a mnemonic with several forms
 *                      needs the form name, e.g. ADDDMAREG_IMM, STOREIND_L1)
 * Operands are numbers (decimal, 0x hex, 0b binary) or, where the field kind takes them,
 * tt-llk constant names (p_stall::STALL_CFG, STALL_CFG, THCON, ...), combinable with '|'.
 * Foreign mnemonics (ZEROACC ...) are accepted only as raw words.
 */
#ifndef TT_ASM_H
#define TT_ASM_H
#include <stddef.h>
#include <stdint.h>
#include "isa.h"

typedef struct tt_asm_error {
  unsigned col;      /* 1-based column of the offending text within the given line */
  char msg[120];
} tt_asm_error;

/* Assemble one instruction from text[0..len) (no comment, no newline). 0 ok, -1 error. */
int tt_asm_insn(const char *text, size_t len, uint32_t *word, tt_asm_error *err);

typedef enum tt_dis_style {
  TT_DIS_OBJDUMP,   /* ttsetdmareg 0, 4660, 0, 56   (default; what SFPI objdump prints) */
  TT_DIS_UPPER,     /* SETDMAREG 0, 0x1234, 0, 56 */
  TT_DIS_NAMED      /* SETDMAREG_IMM new_value=0x1234 result_half_reg=56 */
} tt_dis_style;

/* Disassemble any word into buf (always NUL-terminated when n > 0). A word that the chosen
 * style cannot express exactly (reserved bits, foreign, undefined) is written as the raw hex
 * word "0x%08X", so that tt_asm_insn(tt_disasm(w)) == w for every w. Returns the length. */
size_t tt_disasm(uint32_t word, tt_dis_style style, char *buf, size_t n);

#endif
