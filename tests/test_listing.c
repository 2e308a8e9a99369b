/* test_listing.c — the thread-listing reader (model/text/listing.c) behind `ttrun --tN FILE`: stream
 * files, SFPI objdump text with and without its columns, assembler syntax, foreign mnemonics,
 * and positioned errors. */
#include <string.h>
#include "check.h"
#include "listing.h"

static tt_listing L;

static int parse(const char *text, tt_listing_error *e) {
  memset(e, 0, sizeof *e);
  return tt_listing_parse(text, strlen(text), &L, e);
}
static uint32_t rotl2(uint32_t w) { return w << 2 | w >> 30; }

/* one line, one instruction: the word and its origin */
static void one(const char *text, uint32_t word, unsigned origin) {
  tt_listing_error e;
  int r = parse(text, &e);
  CHECK(r == 0, "'%s' rejected: %u:%u: %s", text, e.line, e.col, e.msg);
  CHECK(L.n == 1, "'%s': %u instructions", text, L.n);
  CHECK(L.word[0] == word, "'%s' -> 0x%08X, expected 0x%08X", text, L.word[0], word);
  CHECK(L.origin[0] == origin, "'%s': origin %u, expected %u", text, L.origin[0], origin);
}

/* rejected at line:col, with a message containing `part` */
static void bad(const char *text, unsigned line, unsigned col, const char *part) {
  tt_listing_error e;
  int r = parse(text, &e);
  CHECK(r == -1, "'%s' accepted", text);
  CHECK(e.line == line && e.col == col, "'%s': error at %u:%u (%s), expected %u:%u", text, e.line,
        e.col, e.msg, line, col);
  CHECK(e.msg[0] && strstr(e.msg, part) != NULL, "'%s': message '%s' lacks '%s'", text, e.msg, part);
}

int main(void) {
  char buf[512];
  /* stream file (corpus/kernels/): first column is the Tensix word, the rest is not read */
  one("a2040400  sync    STALLWAIT      ttinsn                     @61e4 8,1024", 0xA2040400u, TT_LST_HEX);
  one("01800000  other   MOP            ttinsn                     @61e8 1,0,0", 0x01800000u, TT_LST_HEX);
  /* objdump, address and hex columns: the hex is the RISC-V encoding, rotated left by 2 */
  snprintf(buf, sizeof buf, "    651c:\t%08x          \tttsemwait\t322,2,2", rotl2(0xA6A1000Au));
  one(buf, 0xA6A1000Au, TT_LST_OBJDUMP);
  snprintf(buf, sizeof buf, "    6550:\t%08x          \tsfpnop", rotl2(0x8F000000u));
  one(buf, 0x8F000000u, TT_LST_OBJDUMP);
  /* objdump hex column without the address */
  snprintf(buf, sizeof buf, "%08x  ttsetc16 13,0", rotl2(0xB20D0000u));
  one(buf, 0xB20D0000u, TT_LST_OBJDUMP);
  /* assembler syntax, every accepted spelling */
  one("ttsemwait 322, 2, 2", 0xA6A1000Au, TT_LST_ASM);
  one("  ttsemwait\t322,2,2   # objdump text without columns", 0xA6A1000Au, TT_LST_ASM);
  one("SEMWAIT 322, 2, 2", 0xA6A1000Au, TT_LST_ASM);
  one("0xA6A1000A", 0xA6A1000Au, TT_LST_HEX);
  one("0xA6A1000A  ttsemwait 322, 2, 2  ; SEMWAIT", 0xA6A1000Au, TT_LST_HEX);  /* ttasm -d output */
  one("STALLWAIT block_mask=0x80 condition_mask=0x1", 0xA2400001u, TT_LST_ASM);
  /* a unit outside the model by name, no hex: opcode only */
  one("sfpnop", 0x8F000000u, TT_LST_OPCODE_ONLY);
  one("ttsetrwc 0,0,0,0,0,15", 0x37000000u, TT_LST_OPCODE_ONLY);
  CHECK(L.opcode_only == 1, "opcode_only counted: %u", L.opcode_only);

  /* a whole objdump listing: furniture and RISC-V lines skipped, line numbers kept */
  {
    char text[2048];
    snprintf(text, sizeof text,
             "\n/tmp/out.elf:     file format elf32-littleriscv\n\n\nDisassembly of section .text:\n\n"
             "00006290 <_start>:\n"
             "    6290:\tff010113          \taddi\tsp,sp,-16\n"
             "    6294:\t0ff7          \tc.li\ta5,1\n"
             "    6298:\t%08x          \tttseminit\t2,0,2\n"
             "    629c:\t00f6a023          \tsw\ta5,0(a3) # ffe40000 <__instrn_buffer>\n"
             "\t...\n"
             "    62a0:\t%08x          \tttsempost\t2\n",
             rotl2(0xA3200008u), rotl2(0xA4000008u));
    tt_listing_error e;
    int r = parse(text, &e);
    CHECK(r == 0, "objdump listing rejected: %u:%u %s", e.line, e.col, e.msg);
    CHECK_EQ(L.n, 2);
    CHECK_EQ(L.word[0], 0xA3200008u);
    CHECK_EQ(L.line[0], 10);
    CHECK_EQ(L.word[1], 0xA4000008u);
    CHECK_EQ(L.line[1], 13);
    CHECK_EQ(L.skipped_riscv, 3);
    CHECK(L.skipped_other >= 3, "furniture lines skipped: %u", L.skipped_other);
  }
  /* comments and blank lines */
  {
    tt_listing_error e;
    CHECK(parse("# header\n\n  ttsempost 2  # post sem1\nttsemget 2\n", &e) == 0, "%s", e.msg);
    CHECK_EQ(L.n, 2);
    CHECK_EQ(L.line[0], 3);
    CHECK_EQ(L.line[1], 4);
    CHECK_EQ(L.lines, 4);
  }
  /* errors: line and column of the offending text */
  bad("ttsempost 2\nttbogus 1, 2\n", 2, 1, "unknown mnemonic");
  bad("addi sp,sp,-16\n", 1, 1, "RISC-V lines are skipped only in objdump");
  bad("ttsemwait 322, 2, 2, 9\n", 1, 22, "expected 3 operands");
  bad("    6494:\tzz12          \tttsemwait\t322,2,2\n", 1, 11, "hex column");
  bad("ttsempost 2\nttsem\001post 2\n", 2, 6, "control character");
  {
    static char big[5000 * 12];
    size_t n = 0;
    for (unsigned i = 0; i < TT_PROG_MAX + 1; i++) n += (size_t)snprintf(big + n, sizeof big - n, "0x02000000\n");
    tt_listing_error e;
    CHECK(tt_listing_parse(big, n, &L, &e) == -1, "4097 instructions accepted");
    CHECK_EQ(e.line, TT_PROG_MAX + 1);
    CHECK(strstr(e.msg, "more than 4096") != NULL, "message: %s", e.msg);
  }
  {
    tt_listing_error e;
    const char nul[] = "ttsempost 2\n\0\n";
    CHECK(tt_listing_parse(nul, sizeof nul - 1, &L, &e) == -1 && e.line == 2 && e.col == 1,
          "NUL byte: %u:%u %s", e.line, e.col, e.msg);
  }
  return CHECK_DONE();
}
