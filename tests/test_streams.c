/* test_streams.c — real Blackhole kernel words (corpus/kernels/<kernel>/trisc*.txt, or the
 * directory in TT_STREAMS_DIR) through the decoder, disassembler and assembler.
 *
 * For every word: the name column matches the decoded mnemonic / foreign name; an in-model
 * word decodes with no reserved bit and disassembles (objdump style) to text, not a raw word;
 * every word's objdump text re-assembles to itself. For `ttinsn` / `ttinsn(re-encoded)` lines
 * of in-model instructions whose operand column is a list of integers, assembling
 * `tt<name> <operands>` gives the listed word and the disassembly shows the same operands.
 * Skips cleanly (exit 0) when the directory is absent. The files are read in place. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "check.h"

typedef struct counts {
  unsigned files, words, inmodel, foreign, undefined, ops_checked, ops_skipped_foreign;
  unsigned bad_name, bad_reserved, bad_raw, bad_roundtrip, bad_ops_asm, bad_ops_text;
} counts;

static int shown;
static void note(const char *file, unsigned line, const char *what, const char *detail) {
  if (shown++ < 20) fprintf(stderr, "%s:%u: %s: %s\n", file, line, what, detail);
}

static int ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a, y = *b;
    if (x >= 'a' && x <= 'z') x = (char)(x - 32);
    if (y >= 'a' && y <= 'z') y = (char)(y - 32);
    if (x != y) return 0;
  }
  return *a == *b;
}

static int all_ints(const char *s) {  /* "8,1024" */
  if (!*s) return 0;
  for (int digit = 0; *s; s++) {
    if (*s >= '0' && *s <= '9') digit = 1;
    else if (*s == ',' && digit) digit = 0;
    else return 0;
  }
  return s[-1] != ',';
}

static void do_line(const char *file, unsigned lineno, char *line, counts *c) {
  char *tok[8];
  int nt = 0;
  for (char *s = strtok(line, " \t\r\n"); s && nt < 8; s = strtok(NULL, " \t\r\n")) tok[nt++] = s;
  if (nt < 4) { note(file, lineno, "short line", nt ? tok[0] : ""); c->bad_name++; return; }
  char *end;
  unsigned long v = strtoul(tok[0], &end, 16);
  if (*end || v > 0xFFFFFFFFul) { note(file, lineno, "bad word", tok[0]); c->bad_name++; return; }
  uint32_t w = (uint32_t)v;
  const char *name = tok[2], *prov = tok[3], *ops = nt >= 6 ? tok[5] : "";
  char buf[256], msg[1024];
  c->words++;

  tt_insn in;
  tt_decode(w, &in);
  if (in.form < TT_FORM_FOREIGN) c->inmodel++;
  else if (in.form == TT_FORM_FOREIGN) c->foreign++;
  else c->undefined++;
  if (!ieq(tt_insn_name(&in), name)) {
    snprintf(msg, sizeof msg, "0x%08X decodes as %s, listed as %s", w, tt_insn_name(&in), name);
    note(file, lineno, "name", msg);
    c->bad_name++;
  }
  if (in.form < TT_FORM_FOREIGN && in.reserved) {
    snprintf(msg, sizeof msg, "0x%08X (%s) has reserved bits 0x%06X", w, tt_form_name(in.form),
             in.reserved);
    note(file, lineno, "reserved", msg);
    c->bad_reserved++;
  }
  tt_disasm(w, TT_DIS_OBJDUMP, buf, sizeof buf);
  if (in.form < TT_FORM_FOREIGN && buf[0] == '0' && buf[1] == 'x') {
    note(file, lineno, "disassembled as a raw word", buf);
    c->bad_raw++;
  }
  uint32_t back = ~w;
  tt_asm_error e;
  if (tt_asm_insn(buf, strlen(buf), &back, &e) != 0 || back != w) {
    snprintf(msg, sizeof msg, "0x%08X -> '%s' -> 0x%08X (%u: %s)", w, buf, back, e.col, e.msg);
    note(file, lineno, "round trip", msg);
    c->bad_roundtrip++;
  }
  if ((strcmp(prov, "ttinsn") == 0 || strcmp(prov, "ttinsn(re-encoded)") == 0) && all_ints(ops)) {
    if (tt_mnem_by_name(name, strlen(name)) < 0) {
      c->ops_skipped_foreign++;
      return;
    }
    c->ops_checked++;
    char text[256], lower[64];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof lower; k++)
      lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] + 32 : name[k]);
    lower[k] = 0;
    snprintf(text, sizeof text, "tt%s %s", lower, ops);
    back = ~w;
    if (tt_asm_insn(text, strlen(text), &back, &e) != 0 || back != w) {
      snprintf(msg, sizeof msg, "'%s' -> 0x%08X, listed 0x%08X (%u: %s)", text, back, w, e.col, e.msg);
      note(file, lineno, "operands", msg);
      c->bad_ops_asm++;
    }
    /* the disassembly shows the same operands: "ttx a, b" vs "ttx a,b" */
    char squeezed[256];
    size_t n = 0;
    for (size_t i = 0; buf[i] && n + 1 < sizeof squeezed; i++)
      if (!(buf[i] == ' ' && i > 0 && buf[i - 1] == ',')) squeezed[n++] = buf[i];
    squeezed[n] = 0;
    if (strcmp(squeezed, text) != 0) {
      snprintf(msg, sizeof msg, "disassembly '%s', listing '%s'", buf, text);
      note(file, lineno, "operand text", msg);
      c->bad_ops_text++;
    }
  }
}

static void do_file(const char *path, counts *c) {
  FILE *f = fopen(path, "r");
  if (!f) { CHECK(0, "cannot open %s", path); return; }
  c->files++;
  char line[1024];
  unsigned lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '#' || *s == '\n' || *s == '\r' || *s == 0) continue;
    do_line(path, lineno, s, c);
  }
  fclose(f);
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void) {
  const char *dir = getenv("TT_STREAMS_DIR");
  if (!dir || !*dir) dir = "corpus/kernels";
  DIR *top = opendir(dir);
  if (!top) {
    printf("test_streams: SKIPPED (no %s)\n", dir);
    return 0;
  }
  /* collect kernel folders, sorted, for a deterministic order */
  static char names[256][256];
  const char *order[256];
  unsigned nk = 0;
  for (struct dirent *d; (d = readdir(top)) != NULL && nk < 256;) {
    if (d->d_name[0] == '.') continue;
    snprintf(names[nk], sizeof names[nk], "%s", d->d_name);
    order[nk] = names[nk];
    nk++;
  }
  closedir(top);
  qsort(order, nk, sizeof order[0], name_cmp);
  counts c;
  memset(&c, 0, sizeof c);
  for (unsigned i = 0; i < nk; i++) {
    char sub[600];
    snprintf(sub, sizeof sub, "%s/%s", dir, order[i]);
    DIR *dd = opendir(sub);
    if (!dd) continue;  /* a plain file such as README.md */
    static char fn[16][256];
    const char *fo[16];
    unsigned nf = 0;
    for (struct dirent *d; (d = readdir(dd)) != NULL && nf < 16;) {
      size_t L = strlen(d->d_name);
      if (strncmp(d->d_name, "trisc", 5) == 0 && L > 4 && strcmp(d->d_name + L - 4, ".txt") == 0) {
        snprintf(fn[nf], sizeof fn[nf], "%s", d->d_name);
        fo[nf] = fn[nf];
        nf++;
      }
    }
    closedir(dd);
    qsort(fo, nf, sizeof fo[0], name_cmp);
    for (unsigned j = 0; j < nf; j++) {
      char path[1000];
      snprintf(path, sizeof path, "%s/%s", sub, fo[j]);
      do_file(path, &c);
    }
  }
  CHECK(c.files > 0 && c.words > 0, "no stream words found under %s", dir);
  CHECK(c.bad_name == 0, "%u words whose name column differs from the decoded name", c.bad_name);
  CHECK(c.bad_reserved == 0, "%u in-model words with reserved bits", c.bad_reserved);
  CHECK(c.bad_raw == 0, "%u in-model words disassembled as raw words", c.bad_raw);
  CHECK(c.bad_roundtrip == 0, "%u words that do not round-trip", c.bad_roundtrip);
  CHECK(c.bad_ops_asm == 0, "%u listed operand lists that do not assemble to the word", c.bad_ops_asm);
  CHECK(c.bad_ops_text == 0, "%u disassemblies that differ from the listed operands", c.bad_ops_text);
  printf("test_streams: %u files, %u words (%u in-model, %u foreign, %u undefined); "
         "%u listed operand lists assembled (%u foreign skipped); failures: name %u, reserved %u, "
         "raw %u, round-trip %u, operands %u, operand text %u\n",
         c.files, c.words, c.inmodel, c.foreign, c.undefined, c.ops_checked, c.ops_skipped_foreign,
         c.bad_name, c.bad_reserved, c.bad_raw, c.bad_roundtrip, c.bad_ops_asm, c.bad_ops_text);
  return CHECK_DONE();
}
