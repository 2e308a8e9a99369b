/* ttrun_load.c — the run's sources: a thread listing (stream file, objdump text or assembler,
 * with the stream file's mnemonic column checked against its word) or a .vec file, read into
 * g_src[]. Bad input is FILE:LINE:COL: message and status 1. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "listing.h"
#include "ttrun.h"

static tt_listing g_lst;

static char *read_all(const char *path, size_t *len) {
  files_err e;
  char *text = files_read(path, FILE_CAP, len, &e);
  if (!text) fprintf(stderr, "%s:1:1: %s\n", path, e.msg);
  return text;
}

static int stream_kind_word(const char *p, size_t n) {
  static const char *const kinds[] = {"config", "sync", "scalar", "other"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strlen(kinds[i]) == n && !strncmp(p, kinds[i], n)) return 1;
  return 0;
}

/* The mnemonic column of a stream file ("a6010202  sync  SEMWAIT  ..." or "a6010202  SEMWAIT")
 * must name the instruction the word encodes: a mismatch is an error, FILE:LINE:COL, because
 * the word is what runs and the name is what a person reads. With the kind column (config,
 * sync, scalar, other) the name is the next column and must be a known instruction name; without
 * it, the second column is checked only when it is a known instruction name (a stream file's
 * other columns are free text). Only lines read as a stream-file word (8 hex digits without 0x,
 * origin TT_LST_HEX) are checked. */
static int check_mnemonics(const char *path, const char *text, size_t len) {
  const char *p = text, *end = text + len;
  uint32_t k = 0;
  unsigned line = 0;
  if (len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF) p += 3;
  while (p < end && k < g_lst.n) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *ls = p;
    p = nl ? nl + 1 : end;
    line++;
    if (g_lst.line[k] != line) continue;
    uint32_t idx = k++;
    if (g_lst.origin[idx] != TT_LST_HEX) continue;
    const char *hash = memchr(ls, '#', (size_t)(le - ls));
    const char *e = hash ? hash : le, *tok[3];
    size_t tl[3];
    unsigned nt = 0;
    for (const char *q = ls; q < e && nt < 3;) {
      while (q < e && isspace((unsigned char)*q)) q++;
      if (q >= e) break;
      tok[nt] = q;
      while (q < e && !isspace((unsigned char)*q)) q++;
      tl[nt] = (size_t)(q - tok[nt]);
      nt++;
    }
    if (nt < 2 || tl[0] != 8) continue;   /* a 0xWORD line, or no second column */
    const char *m = tok[1];
    size_t ml = tl[1];
    int kind_col = stream_kind_word(tok[1], tl[1]);
    if (kind_col) {
      if (nt < 3) continue;
      m = tok[2];
      ml = tl[2];
    }
    int known = tt_mnem_by_name(m, ml) >= 0 || tt_foreign_by_name(m, ml) >= 0 ||
                (ml == 9 && !strncasecmp(m, "UNDEFINED", 9));
    if (!known && !kind_col) continue;
    tt_insn in;
    tt_decode(g_lst.word[idx], &in);
    const char *name = tt_insn_name(&in);
    if (known && strlen(name) == ml && !strncasecmp(m, name, ml)) continue;
    fprintf(stderr, "%s:%u:%u: the mnemonic column says %s%.*s%s, but the word 0x%08X is %s%s "
            "(the word is what runs: fix the word or the name)\n", path, line, (unsigned)(m - ls) + 1,
            known ? "" : "'", (int)ml, m, known ? "" : "' (no instruction of that name)", g_lst.word[idx], name,
            in.form == TT_FORM_UNDEFINED ? " (an undefined opcode)" : "");
    return -1;
  }
  return 0;
}

int load_listing(unsigned t, const char *path) {
  size_t len = 0;
  char *text = read_all(path, &len);
  tt_listing_error e;
  if (!text) return 1;
  if (tt_listing_parse(text, len, &g_lst, &e) != 0) {
    fprintf(stderr, "%s:%u:%u: %s\n", path, e.line, e.col ? e.col : 1, e.msg);
    free(text);
    return 1;
  }
  if (check_mnemonics(path, text, len) != 0) { free(text); return 1; }
  if (g_lst.n == 0) {
    free(text);
    fprintf(stderr, "%s:1:1: no Tensix instruction in %s: of its %u line(s), %u are RISC-V code, %u objdump "
            "headers or labels, the rest blank or comments\n", path, path, g_lst.lines, g_lst.skipped_riscv,
            g_lst.skipped_other);
    return 1;
  }
  thread_src *s = &g_src[t];
  s->path = path;
  s->nraw = g_lst.n;
  s->raw_word = xcalloc(g_lst.n, sizeof *s->raw_word);
  s->raw_line = xcalloc(g_lst.n, sizeof *s->raw_line);
  memcpy(s->raw_word, g_lst.word, g_lst.n * sizeof *s->raw_word);
  memcpy(s->raw_line, g_lst.line, g_lst.n * sizeof *s->raw_line);
  s->skipped_riscv = g_lst.skipped_riscv;
  s->skipped_other = g_lst.skipped_other;
  s->opcode_only = g_lst.opcode_only;
  scan_pushes(t, text, len);
  free(text);
  return 0;
}

int load_vec(const char *path) {
  size_t len = 0;
  char *text = read_all(path, &len);
  tt_vec_error e;
  if (!text) return 1;
  if (tt_vec_parse(text, len, &g_vec, &e) != 0) {
    fprintf(stderr, "%s:%u:%u: %s\n", path, e.line ? e.line : 1, e.col ? e.col : 1, e.msg);
    free(text);
    return 1;
  }
  free(text);
  g_vec_path = path;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_vec.prog_len[t]) continue;
    thread_src *s = &g_src[t];
    s->path = path;
    s->from_vec = 1;
    s->n = g_vec.prog_len[t];
    s->word = xcalloc(s->n, sizeof *s->word);
    s->line = xcalloc(s->n, sizeof *s->line);
    s->via = xcalloc(s->n, sizeof *s->via);
    memcpy(s->word, g_vec.prog[t], s->n * sizeof *s->word);
    memcpy(s->line, g_vec.prog_line[t], s->n * sizeof *s->line);
  }
  return 0;
}

