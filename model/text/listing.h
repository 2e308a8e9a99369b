/* listing.h — reader of one thread's instruction listing (the input of `ttrun --tN FILE`).
 * Allocation-free, no stdio; the caller owns the (large) result struct.
 *
 * Accepted lines (one instruction per line; blank lines and '#' comments are skipped):
 *   stream file   a2040400  sync  STALLWAIT ...   first column: 8 hex digits = the Tensix word;
 *                                                  the other columns are not read
 *   objdump       6494:  9a84002a   ttsemwait 322,2,2   address and hex columns as SFPI objdump
 *                 prints them: the hex column is the RISC-V encoding of the Tensix word (rotated
 *                 left by 2), so the word is the hex rotated right by 2. Lines whose mnemonic is
 *                 not a Tensix one (tt..., sfp...) are RISC-V code and are skipped, and so are
 *                 objdump's own lines (file format, "Disassembly of section", labels, "...").
 *                 `9a84002a  ttsemwait 322,2,2` (hex, no address) reads the same way.
 *   assembler     ttsemwait 322, 2, 2 | SEMWAIT 322, 2, 2 | TTI_SEMWAIT(...) | 0xA6A1000A |
 *                 named fields — everything tt_asm_insn() accepts. A unit outside the model
 *                 written by name without a hex column (sfpnop, ttsetrwc 0,0,0,0,0,15) has no
 *                 encoder here: it becomes its opcode with a zero payload (origin
 *                 TT_LST_OPCODE_ONLY), which is all the model reads of such a word except
 *                 UNPACR's unpacker bit.
 * Anything else is an error with its line and column. */
#ifndef TT_LISTING_H
#define TT_LISTING_H
#include <stddef.h>
#include <stdint.h>
#include "tt.h"

typedef enum tt_listing_origin {
  TT_LST_HEX,          /* stream file first column, or a 0x raw word */
  TT_LST_OBJDUMP,      /* objdump hex column, rotated right by 2 */
  TT_LST_ASM,          /* assembled from text */
  TT_LST_OPCODE_ONLY   /* foreign mnemonic without hex: opcode << 24, payload unknown */
} tt_listing_origin;

typedef struct tt_listing {
  uint32_t n;                        /* instructions read */
  uint32_t lines;                    /* lines in the text */
  uint32_t skipped_riscv;            /* objdump lines of RISC-V code */
  uint32_t skipped_other;            /* objdump furniture (headers, labels, "...") */
  uint32_t opcode_only;              /* instructions with origin TT_LST_OPCODE_ONLY */
  uint32_t word[TT_PROG_MAX];
  uint32_t line[TT_PROG_MAX];        /* 1-based source line of each instruction */
  uint8_t origin[TT_PROG_MAX];       /* tt_listing_origin */
} tt_listing;

typedef struct tt_listing_error {
  unsigned line;   /* 1-based */
  unsigned col;    /* 1-based */
  char msg[160];
} tt_listing_error;

/* Read text[0..len). 0 ok; -1 with err set for the first bad line. */
int tt_listing_parse(const char *text, size_t len, tt_listing *out, tt_listing_error *err);

#endif
