/* ttasm — command-line assembler / disassembler for the forms of isa.def.
 *
 *   ttasm -d [--style objdump|upper|named] [WORD... | -]   disassemble (stdin when no WORD or -)
 *   ttasm -a FILE|-                                         assemble, one 0x%08X per line
 *   ttasm --forms                                           list every form and its fields
 *   ttasm --help
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "isa.h"

static void usage(FILE *f) {
  fputs("usage: ttasm -d [--style objdump|upper|named] [WORD... | -]\n"
        "       ttasm -a FILE|-\n"
        "       ttasm --forms\n"
        "       ttasm --help\n"
        "\n"
        "  -d       disassemble 32-bit words given as arguments, or one per stdin line (the\n"
        "           first column of each line; '#' starts a comment; the stream-file format of\n"
        "           ../shared/streams works). Output: 0xWORD  text  ; FORM\n"
        "  --style  objdump (default: ttstallwait 128, 1), upper (STALLWAIT 0x80, 1) or\n"
        "           named (STALLWAIT block_mask=0x80 condition_mask=1)\n"
        "  -a       assemble one instruction per line ('#' comments and blank lines ignored);\n"
        "           errors go to stderr as FILE:LINE:COL: message; exit status 1 on any error\n"
        "  --forms  list every instruction form with its fields, generated from isa.def\n"
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

int main(int argc, char **argv) {
  int mode = 0;  /* 'd', 'a', 'f' */
  tt_dis_style style = TT_DIS_OBJDUMP;
  const char *afile = NULL;
  int first_word = argc;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else if (!strcmp(a, "--forms")) mode = 'f';
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
