/* ttasm — command-line assembler / disassembler for the forms of isa.def.
 *
 *   ttasm -d [--style objdump|upper|named] [WORD... | -]   disassemble (stdin when no WORD or -)
 *   ttasm -a FILE|-                                         assemble, one 0x%08X per line
 *   ttasm --forms                                           list every form and its fields
 *   ttasm --explain WORD|TEXT                               one instruction in words
 *   ttasm --help
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "isa.h"
#include "listing.h"

static void usage(FILE *f) {
  fputs("usage: ttasm -d [--style objdump|upper|named] [WORD... | -]\n"
        "       ttasm -a FILE|-\n"
        "       ttasm --forms\n"
        "       ttasm --explain WORD|TEXT\n"
        "       ttasm --help\n"
        "\n"
        "  -d       disassemble 32-bit words given as arguments, or one per stdin line (the\n"
        "           first column of each line; '#' starts a comment; the stream-file format of\n"
        "           corpus/kernels/ works). Output: 0xWORD  text  ; FORM\n"
        "  --style  objdump (default: ttstallwait 128, 1), upper (STALLWAIT 0x80, 1) or\n"
        "           named (STALLWAIT block_mask=0x80 condition_mask=1)\n"
        "  -a       assemble one instruction per line ('#' comments and blank lines ignored);\n"
        "           errors go to stderr as FILE:LINE:COL: message; exit status 1 on any error\n"
        "  --forms  list every instruction form with its fields, generated from isa.def\n"
        "  --explain  one instruction (a hex word or any accepted syntax) in words: unit, fields\n"
        "           with values and meaning, default substitutions, the Wait Gate bits that\n"
        "           catch it. 8 hex digits without 0x are a stream-file word, or objdump's hex\n"
        "           column (the Tensix word rotated left by 2) when only that reading has a\n"
        "           defined opcode; an objdump line (c8340002 ttsetc16 13,0) reads as in ttrun\n"
        "\n"
        "Accepted syntaxes: 0xB0050014 | ttstallwait 128, 1 | STALLWAIT 128, 1 |\n"
        "TT_OP_STALLWAIT(128, 1) | TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::THCON) |\n"
        "STALLWAIT block_mask=0x80 condition_mask=0x1 | SETDMAREG_IMM new_value=0x1234 ...\n",
        f);
}

static const char *kind_name(unsigned k) {
  switch ((tt_field_kind)k) {
  case TT_K_INT: return "int";
  case TT_K_REG: return "gpr";
  case TT_K_HALFREG: return "halfreg";
  case TT_K_CFG: return "cfg";
  case TT_K_TCFG: return "threadcfg";
  case TT_K_BLOCK: return "block-mask";
  case TT_K_STALLCOND: return "stall-cond";
  case TT_K_SEMCOND: return "sem-cond";
  case TT_K_SEMMASK: return "sem-mask";
  case TT_K_MUTEX: return "mutex";
  }
  return "?";
}

static void list_forms(void) {
  for (unsigned m = 0; m < TT_MNEM_COUNT; m++) {
    const tt_mnem_desc *md = &tt_isa_mnems[m];
    unsigned lf, nl = tt_mnem_llk(m, &lf), ff, nf = tt_mnem_forms(m, &ff);
    printf("%s  opcode 0x%02X  block 0x%03X  TT_OP_%s(", md->name, md->opcode, md->block_bits,
           md->name);
    for (unsigned k = 0; k < nl; k++) {
      const tt_llk_desc *l = &tt_isa_llk[lf + k];
      printf("%s%s[%u:%u]", k ? ", " : "", l->name, l->lsb + l->width - 1, l->lsb);
    }
    printf(")\n");
    for (unsigned f = ff; f < ff + nf; f++) {
      const tt_form_desc *fd = &tt_isa_forms[f];
      uint32_t reserved = 0xFFFFFFu & ~(fd->field_bits | fd->disc_mask);
      printf("  form %s  disc mask 0x%06X value 0x%06X  reserved 0x%06X\n", fd->name,
             fd->disc_mask, fd->disc_value, reserved);
      for (unsigned k = 0; k < fd->field_count; k++) {
        const tt_field_desc *fl = &tt_isa_fields[fd->field_first + k];
        printf("    %-18s [%2u:%2u] lsb %2u width %2u  %-10s alias %s\n", fl->name,
               fl->lsb + fl->width - 1, fl->lsb, fl->lsb, fl->width, kind_name(fl->kind),
               fl->alias);
      }
    }
  }
}

/* Parse a hex word (with or without 0x). */
static int parse_word(const char *s, size_t n, uint32_t *w) {
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { s += 2; n -= 2; }
  if (n == 0 || n > 8) return -1;
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
    else return -1;
    v = v << 4 | d;
  }
  *w = v;
  return 0;
}

static void print_dis(uint32_t w, tt_dis_style style) {
  char buf[256];
  tt_insn in;
  tt_disasm(w, style, buf, sizeof buf);
  tt_decode(w, &in);
  printf("0x%08X  %s  ; ", w, buf);
  if (in.form < TT_FORM_FOREIGN) {
    printf("%s", tt_form_name(in.form));
    if (in.reserved) printf(" reserved=0x%06X", in.reserved);
  } else if (in.form == TT_FORM_FOREIGN) {
    printf("%s (foreign)", tt_insn_name(&in));
  } else {
    printf("UNDEFINED");
  }
  putchar('\n');
}

static int disasm_stream(FILE *f, tt_dis_style style) {
  char line[4096];
  unsigned lineno = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strcspn(s, " \t\r\n");
    if (n == 0) continue;
    uint32_t w;
    if (parse_word(s, n, &w)) {
      fprintf(stderr, "<stdin>:%u:%u: not a 32-bit hex word: '%.*s'\n", lineno,
              (unsigned)(s - line) + 1, (int)n, s);
      bad = 1;
      continue;
    }
    print_dis(w, style);
  }
  return bad;
}

static int assemble(const char *path) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  const char *name = f == stdin ? "<stdin>" : path;
  if (!f) { perror(path); return 1; }
  char line[4096];
  unsigned lineno = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    size_t n = strcspn(line, "#\n");
    size_t k = 0;
    while (k < n && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
    if (k == n) continue;
    uint32_t w;
    tt_asm_error e;
    if (tt_asm_insn(line, n, &w, &e) != 0) {
      fprintf(stderr, "%s:%u:%u: %s\n", name, lineno, e.col, e.msg);
      bad = 1;
      continue;
    }
    printf("0x%08X\n", w);
  }
  if (f != stdin) fclose(f);
  return bad;
}


/* ---- --explain ------------------------------------------------------------------------------ */
static const char *const block_name[9] = {"STALL_TDMA", "STALL_SYNC", "STALL_PACK", "STALL_UNPACK",
  "STALL_XMOV", "STALL_THCON", "STALL_MATH", "STALL_CFG", "STALL_SFPU"};
static const char *const block_what[9] = {
  "Misc unit (ADC ops, SETDVALID, RSTDMA), mover (XMOV), ThCon, packer, unpacker",
  "Sync Unit (ATGETM, ATRELM, SEMINIT, SEMPOST, SEMGET)",
  "packer (PACR, PACR_SETREG)",
  "unpacker (UNPACR, UNPACR_NOP)",
  "mover (XMOV)",
  "ThCon / Scalar Unit (SETDMAREG, ADDDMAREG ..., LOADIND, STOREIND, atomics)",
  "matrix unit / FPU (incl. MOV*, SETRWC/INCRWC, ZEROACC/ZEROSRC)",
  "Configuration Unit (WRCFG, RDCFG, SETC16, RMWCIB0-3, CFGSHIFTMASK, STREAMWRCFG)",
  "SFPU (every SFP* instruction)"};
static const char *const cond_name[13] = {"THCON", "UNPACK0", "UNPACK1", "PACK0", "MATH",
  "SRCA_CLR", "SRCB_CLR", "SRCA_VLD", "SRCB_VLD", "XMOV", "TRISC_CFG", "SFPU1", "CFGEXU"};
static const char *const cond_what[13] = {
  "ThCon memory requests of this thread outstanding (LOADIND/LOADREG/ATINCGET result not back)",
  "this thread has an instruction in unpacker 0", "this thread has an instruction in unpacker 1",
  "this thread has an instruction in the packer", "this thread has an instruction in the FPU",
  "SrcA not owned by the unpackers", "SrcB not owned by the unpackers",
  "SrcA not owned by the matrix unit", "SrcB not owned by the matrix unit",
  "the mover has requests outstanding (any thread)",
  "the paired RISC-V core has a GPR/Config/TDMA-RISC request pending",
  "this thread has an instruction in the SFPU",
  "any thread has an instruction in the Configuration Unit pipeline"};
static const char *const sem_name[8] = {"FPU_SFPU", "MATH_PACK", "UNPACK_TO_DEST",
  "UNPACK_OPERAND_SYNC", "PACK_DONE", "UNPACK_SYNC", "UNPACK_MATH_DONE", "MATH_DONE"};

static const char *cfg_name(uint32_t i) {
  switch (i) {
  case 4: return "STATE_RESET_EN (a write other than RMWCIB clears words 0..179 of the bank)";
  case 64: case 65: case 66: case 67: return "THCON_SEC0_REG0_TileDescriptor";
  case 76: return "THCON_SEC0_REG3_Base_address";
  case 185: return "RISCV_IC_INVALIDATE_InvalidateAll (a write invalidates I-caches)";
  case 186: return "PRNG_SEED_Seed_Val (a write reseeds the PRNGs)";
  case 209: return "SCRATCH_SEC0_val";
  case 210: return "SCRATCH_SEC1_val";
  case 211: return "SCRATCH_SEC2_val";
  case 222: return "CHICKEN_BITS_sfpu_scbd_disable";
  default: return NULL;
  }
}
static void cfg_index_text(uint32_t i) {
  const char *n = cfg_name(i);
  if (i >= 224) { printf("index >= 224: UndefinedBehavior, the access is skipped"); return; }
  if (n) printf("%s; ", n);
  if (i >= 180) printf("global word (>= 180): a write reaches both banks");
  else if (i >= 160) printf("undefined hole (160..179) of the thread's bank");
  else printf("bank-specific word of the thread's bank (ThreadConfig CFG_STATE_ID)");
  if (i == 223) printf(" (223 is undefined)");
}
static const char *tcfg_name(uint32_t i) {
  switch (i) {
  case 0: return "CFG_STATE_ID_StateID (bit 0: the thread's Config bank)";
  case 1: return "DEST_TARGET_REG_CFG_MATH_Offset";
  case 5: return "SRCA_SET_SetOvrdWithAddr (bit 2)";
  case 41: return "UNPACK_MISC_CFG_CfgContextCntReset_0/_1 (bits 4, 12: a SETC16 resets the unpacker context counters)";
  case 56: return "TENSIX_TRISC_SYNC_* (Auto TTSync enables)";
  case 57: return "STREAMWAIT_PHASE_HI_Val (mask 0x3ff)";
  case 58: return "STREAMWAIT_NUM_MSGS_HI_Val (mask 0x7f)";
  case 59: case 60: case 61: case 62: return "STREAM_ID_SYNC_SEC<n>_BankSel (stream of STREAMWAIT/STREAMWRCFG select n)";
  case 63: case 64: case 65: case 66: return "STREAM_ID_TRISC_SEC<n>_BankSel";
  case 67: return "TENSIX_CSR_CONFIG_RawBusyStatus";
  default: return i >= 68 ? "index >= 68: UndefinedBehavior" : NULL;
  }
}

static void block_bits_text(uint32_t m, const char *indent) {
  for (unsigned b = 0; b < 9; b++)
    if (m >> b & 1u) printf("%sB%u %s: %s\n", indent, b, block_name[b], block_what[b]);
  printf("%s(any non-zero mask also holds STALLWAIT/SEMWAIT/STREAMWAIT; NOP only a mask of 0x1FF)\n", indent);
}

static void caught_by(uint16_t bits) {
  printf("caught at the Wait Gate by: ");
  if (bits & TT_BLOCK_NOP) { printf("only a latched block mask of 0x1FF (STALL_THREAD: all bits)\n"); return; }
  if (bits == 0) { printf("nothing (no row in the block table, or consumed before the gate)\n"); return; }
  if (bits == TT_BLOCK_ALL) { printf("any latched block mask (a wait instruction is caught by every bit)\n"); return; }
  int n = 0;
  for (unsigned b = 0; b < 9; b++)
    if (bits >> b & 1u) printf("%sB%u %s", n++ ? " or " : "", b, block_name[b]);
  printf(" (mask 0x%03X)\n", bits);
}

static const char *unit_text(unsigned u) {
  switch ((tt_unit)u) {
  case TT_UNIT_MISC: return "Miscellaneous unit";
  case TT_UNIT_THCON: return "Scalar Unit (ThCon)";
  case TT_UNIT_SYNC: return "Sync Unit";
  case TT_UNIT_CFG: return "Configuration Unit";
  case TT_UNIT_FOREIGN: return "a unit outside the model";
  }
  return "?";
}

static int undefined_word(uint32_t w) {
  tt_insn in;
  tt_decode(w, &in);
  return in.form == TT_FORM_UNDEFINED;
}

static uint32_t rotr2(uint32_t h) { return h >> 2 | h << 30; }

/* The objdump hex column (8 hex digits without 0x) is the RISC-V encoding of the Tensix word,
 * rotated left by 2 (model/text/listing.c reads it back so). A bare 8-digit word is read as is (a
 * stream-file word) unless that opcode is undefined and the rotated reading is defined: then it
 * is the hex column of objdump. The other reading, when defined, is named. An objdump line
 * ("6494:  c8340002  ttsetc16 13,0" or "c8340002  ttsetc16 13,0") is read exactly as ttrun
 * reads it. Returns 0 and *w when arg is one of these. */
static int objdump_word(const char *arg, size_t n, uint32_t *w) {
  static tt_listing lst;
  tt_listing_error le;
  size_t k = 0, s0 = 0;
  while (s0 < n && isspace((unsigned char)arg[s0])) s0++;
  while (s0 + k < n && isxdigit((unsigned char)arg[s0 + k])) k++;
  if (k == 8 && k == n) {
    uint32_t raw, rot;
    if (parse_word(arg, n, &raw) != 0) return -1;
    rot = rotr2(raw);
    if (undefined_word(raw) && !undefined_word(rot)) {
      printf("(%s read as objdump's hex column: the RISC-V encoding of Tensix word 0x%08X rotated left by 2,\n"
             " as ttrun reads an objdump line; as a stream-file word, 0x%08X has an undefined opcode)\n",
             arg, rot, raw);
      *w = rot;
      return 0;
    }
    if (!undefined_word(rot) && rot != raw) {
      tt_insn in;
      tt_decode(rot, &in);
      printf("(%s read as a stream-file word; as objdump's hex column it would be 0x%08X, %s:\n"
             " `ttasm --explain 0x%08X` explains that one)\n", arg, rot, tt_insn_name(&in), rot);
    }
    *w = raw;
    return 0;
  }
  if (k != 8 && !(k > 0 && s0 + k < n && arg[s0 + k] == ':')) return -1;
  if (tt_listing_parse(arg, n, &lst, &le) != 0 || lst.n != 1 || lst.origin[0] != TT_LST_OBJDUMP) return -1;
  printf("(read as an objdump line, as ttrun reads it: the hex column is Tensix word 0x%08X rotated left by 2)\n",
         lst.word[0]);
  *w = lst.word[0];
  return 0;
}

/* The word --explain explains: an objdump line, a word, an instruction's text, or a foreign
 * instruction's name (its opcode). 0, or 1 with the assembler's complaint told. */
static int explain_word(const char *arg, uint32_t *w) {
  tt_asm_error e;
  size_t n = strlen(arg);
  if (objdump_word(arg, n, w) == 0 || parse_word(arg, n, w) == 0 || tt_asm_insn(arg, n, w, &e) == 0) return 0;
  const char *p = arg;
  if (!strncmp(p, "tt", 2) || !strncmp(p, "TT", 2)) p += 2;
  size_t k = strcspn(p, " \t,(");
  int fg = tt_foreign_by_name(p, k);
  if (fg < 0) fg = tt_foreign_by_name(arg, strcspn(arg, " \t,("));
  if (fg < 0) { fprintf(stderr, "ttasm: --explain: %u: %s\n", e.col, e.msg); return 1; }
  *w = (uint32_t)tt_isa_foreign[fg].opcode << 24;
  printf("(operands of %s are not encoded here: the explanation is of its opcode)\n", tt_isa_foreign[fg].name);
  return 0;
}

static void explain_foreign(const tt_insn *in) {
  const tt_foreign_desc *fd = &tt_isa_foreign[in->foreign];
  printf("unit: %s — %s, opcode 0x%02X; the model passes it through its gate with no effect",
         unit_text(TT_UNIT_FOREIGN), fd->name, fd->opcode);
  if (fd->kind == TT_FG_FRONTEND) printf(" (MOP/REPLAY expansion is not modelled: `unimplemented` fault by default)");
  printf("\n");
  caught_by(fd->kind == TT_FG_NOTABLE ? TT_BLOCK_NOP : fd->block_bits);
  if (fd->kind == TT_FG_NOTABLE) printf("  (no row in the Blackhole block table: the model catches it only with 0x1FF)\n");
}

/* What field value v means, by the field's kind (after its "name [hi:lo] = v" column). */
static void explain_field(const tt_field_desc *fl, uint32_t v) {
  switch ((tt_field_kind)fl->kind) {
  case TT_K_INT: printf("\n"); break;
  case TT_K_REG: printf(": GPR %u of the issuing thread\n", v); break;
  case TT_K_HALFREG: printf(": half-register %u = bits [%u:%u] of GPR %u\n", v, v & 1 ? 31 : 15, v & 1 ? 16 : 0, v >> 1); break;
  case TT_K_CFG: printf(": Config word %u — ", v); cfg_index_text(v); printf("\n"); break;
  case TT_K_TCFG: {
    const char *t = tcfg_name(v);
    printf(": ThreadConfig word %u of the issuing thread%s%s\n", v, t ? " — " : "", t ? t : "");
    break;
  }
  case TT_K_BLOCK: {
    uint32_t eff = v ? v : 0x40u;
    printf(": ");
    for (unsigned b = 0, c = 0; b < 9; b++) if (eff >> b & 1u) printf("%s%s", c++ ? "|" : "", block_name[b]);
    printf("%s; while latched it holds the thread's next instruction if it is\n",
           v ? "" : " (0 is replaced by B6 STALL_MATH)");
    block_bits_text(eff, "      ");
    break;
  }
  case TT_K_STALLCOND: {
    uint32_t eff = v ? v : 0x0Fu;
    printf(": keep waiting while any of%s\n", v ? "" : " (0 is replaced by 0x0F: C0..C3)");
    for (unsigned b = 0; b < 13; b++)
      if (eff >> b & 1u) printf("      C%u %s: %s\n", b, cond_name[b], cond_what[b]);
    break;
  }
  case TT_K_SEMCOND:
    if (v == 0) printf(": 0 — UndefinedBehavior on Blackhole (AMB-2; knob semwait_cond0=stallwait: STALLWAIT C0..C3)\n");
    else printf(": keep waiting while a selected semaphore has%s%s%s\n", v & 1 ? " Value==0 (STALL_ON_ZERO)" : "",
                v == 3 ? " or" : "", v & 2 ? " Value>=Max (STALL_ON_MAX)" : "");
    break;
  case TT_K_SEMMASK: {
    int c = 0;
    printf(":");
    for (unsigned b = 0; b < 8; b++) if (v >> b & 1u) printf("%s sem%u (%s)", c++ ? "," : "", b, sem_name[b]);
    printf("%s\n", c ? "" : " no semaphore");
    break;
  }
  case TT_K_MUTEX:
    if (v == 0 || v == 2 || v == 3 || v == 4) printf(": mutex %u%s\n", v, v == 0 ? " (REG_RMW)" : v == 4 ? " (SFPU)" : "");
    else printf(": mutex %u does not exist on Blackhole (0, 2, 3, 4): the thread waits forever\n", v);
    break;
  }
}

static void explain_defaults(unsigned form) {
  printf("default substitutions: ");
  switch (form) {
  case TT_FORM_STALLWAIT: printf("block mask 0 -> 0x040 (B6), condition mask 0 -> 0x00F (C0..C3)"); break;
  case TT_FORM_SEMWAIT: printf("block mask 0 -> 0x040 (B6); condition mask 0 is UndefinedBehavior (AMB-2)"); break;
  case TT_FORM_STREAMWAIT: printf("block mask 0 -> 0x040 (B6)"); break;
  case TT_FORM_FLUSHDMA: printf("condition mask 0 -> 0xF (C0..C3)"); break;
  case TT_FORM_WRCFG: printf("128-bit mode aligns both indices down to a multiple of 4"); break;
  default: printf("none"); break;
  }
  printf("\n");
}

static int explain(const char *arg) {
  uint32_t w;
  if (explain_word(arg, &w) != 0) return 1;
  tt_insn in;
  char text[256];
  tt_decode(w, &in);
  tt_disasm(w, TT_DIS_OBJDUMP, text, sizeof text);
  printf("0x%08X  %s\n", w, text);
  if (in.form == TT_FORM_UNDEFINED) {
    printf("opcode 0x%02X is not defined on Blackhole: the model records an `undefined` fault\n", w >> 24);
    return 0;
  }
  if (in.form == TT_FORM_FOREIGN) {
    explain_foreign(&in);
    return 0;
  }
  const tt_form_desc *fd = &tt_isa_forms[in.form];
  const tt_mnem_desc *md = &tt_isa_mnems[in.mnem];
  printf("unit: %s — %s, opcode 0x%02X, form %s\n", unit_text(md->unit), md->name, md->opcode, fd->name);
  printf("fields:\n");
  uint32_t vals[16];
  unsigned nf = tt_insn_fields(&in, vals, 16);
  for (unsigned k = 0; k < nf && k < fd->field_count; k++) {
    const tt_field_desc *fl = &tt_isa_fields[fd->field_first + k];
    printf("  %-16s [%2u:%2u] = %u (0x%X)", fl->name, fl->lsb + fl->width - 1, fl->lsb, vals[k], vals[k]);
    explain_field(fl, vals[k]);
  }
  if (nf == 0) printf("  (none)\n");
  explain_defaults(in.form);
  if (in.reserved) printf("reserved bits set: 0x%06X (recorded as an `undefined` fault by default)\n", in.reserved);
  caught_by(in.block_bits);
  return 0;
}

int main(int argc, char **argv) {
  int mode = 0;  /* 'd', 'a', 'f' */
  tt_dis_style style = TT_DIS_OBJDUMP;
  const char *afile = NULL;
  int first_word = argc;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else if (!strcmp(a, "--forms")) mode = 'f';
    else if (!strcmp(a, "--explain")) {
      if (i + 1 >= argc) { fprintf(stderr, "ttasm: --explain needs WORD or TEXT\n"); return 2; }
      return explain(argv[i + 1]);
    }
    else if (!strcmp(a, "-d")) mode = 'd';
    else if (!strcmp(a, "-a")) {
      mode = 'a';
      if (i + 1 >= argc) { fprintf(stderr, "ttasm: -a needs FILE or -\n"); return 2; }
      afile = argv[++i];
    } else if (!strcmp(a, "--style") || !strncmp(a, "--style=", 8)) {
      const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : "");
      if (!strcmp(v, "objdump")) style = TT_DIS_OBJDUMP;
      else if (!strcmp(v, "upper")) style = TT_DIS_UPPER;
      else if (!strcmp(v, "named")) style = TT_DIS_NAMED;
      else { fprintf(stderr, "ttasm: unknown style '%s'\n", v); return 2; }
    } else if (mode == 'd' && (a[0] != '-' || !strcmp(a, "-"))) {
      first_word = i;
      break;
    } else {
      fprintf(stderr, "ttasm: unknown argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (mode == 'f') { list_forms(); return 0; }
  if (mode == 'a') return assemble(afile);
  if (mode != 'd') { usage(stderr); return 2; }
  if (first_word >= argc || (first_word == argc - 1 && !strcmp(argv[first_word], "-")))
    return disasm_stream(stdin, style);
  int bad = 0;
  for (int i = first_word; i < argc; i++) {
    uint32_t w;
    if (!strcmp(argv[i], "--style")) { fprintf(stderr, "ttasm: put --style before the words\n"); return 2; }
    if (parse_word(argv[i], strlen(argv[i]), &w)) {
      fprintf(stderr, "ttasm: not a 32-bit hex word: '%s'\n", argv[i]);
      bad = 1;
      continue;
    }
    print_dis(w, style);
  }
  return bad;
}
