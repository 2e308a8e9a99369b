/* text_parsers.c — any byte string fed to the .vec parser (and, when it parses, the func-mode
 * checker), to the thread-listing reader of ttrun (model/text/listing.c) and, line by line, to the
 * assembler yields a result or a positioned error: never a crash, a hang or a sanitizer report
 * (the engines and the ASan/UBSan builds watch those).
 *   parser_error_position  a rejected .vec names a line 1..lines+1 and a non-empty message;
 *                          a rejected listing names a line 1..lines and a column 1..len+1 of
 *                          that line, and a message; an accepted listing has at most one
 *                          instruction per line, each on a line 1..lines, and as many as the
 *                          program limit;
 *                          a rejected assembly line names a column 1..len+1 and a message
 * The input is parsed from an exactly-sized buffer (libFuzzer and the replay driver both
 * pass one), so ASan sees a read past the end.
 *
 * Planted harness defect (to show the sanitizer property fires, `make fuzz-fire`):
 * -DFZ_PLANT_TEXT_OOB makes the harness read one byte past a heap copy of any line that
 * starts with "t3:" (a thread that does not exist). */
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "fz.h"
#include "listing.h"
#include "vec.h"

static const char *const invariants[] = {"parser_error_position", NULL};

static tt_vec v;
static tt_vec_result res;
static tt_listing lst;
static tt_state st;
static int ready;

static int check_asm_lines(const char *text, size_t n, fz_fail *f) {
  size_t pos = 0;
  unsigned line = 0;
  while (pos < n && line < 4096) {
    const char *p = text + pos, *nl = memchr(p, '\n', n - pos);
    size_t len = nl ? (size_t)(nl - p) : n - pos;
    line++;
#ifdef FZ_PLANT_TEXT_OOB
    if (len >= 3 && memcmp(p, "t3:", 3) == 0) {
      char *copy = malloc(len);
      memcpy(copy, p, len);
      volatile char c = copy[len];  /* the planted bug: one byte past the copy */
      (void)c;
      free(copy);
    }
#endif
    /* the assembler takes one instruction without the thread prefix or comment, as the
     * .vec parser hands it over; feed the raw line too */
    for (unsigned k = 0; k < 2; k++) {
      const char *s = p;
      size_t sl = len;
      if (k == 1) {
        const char *colon = memchr(s, ':', sl), *hash = memchr(s, '#', sl);
        if (colon) { sl -= (size_t)(colon + 1 - s); s = colon + 1; }
        if (hash && hash >= s) sl = (size_t)(hash - s);
      }
      uint32_t w = 0;
      tt_asm_error e;
      memset(&e, 0, sizeof e);
      int r = tt_asm_insn(s, sl, &w, &e);
      if (r == 0) continue;
      FZ_CHECK(f, r == -1, "parser_error_position", "tt_asm_insn returned %d for line %u", r, line);
      FZ_CHECK(f, e.col >= 1 && e.col <= sl + 1, "parser_error_position",
               "assembler error at column %u of a %zu-byte text (line %u): %s", e.col, sl, line, e.msg);
      FZ_CHECK(f, memchr(e.msg, 0, sizeof e.msg) != NULL && e.msg[0], "parser_error_position",
               "assembler error without a message (line %u, column %u)", line, e.col);
    }
    pos += len + (nl ? 1 : 0);
  }
  return 0;
}

/* The thread-listing reader: a positioned error, or instructions each on a line of the text. */
static int check_listing(const char *text, size_t n, unsigned lines, fz_fail *f) {
  tt_listing_error le;
  memset(&le, 0, sizeof le);
  int r = tt_listing_parse(text, n, &lst, &le);
  if (r != 0) {
    size_t pos = 0, len;
    unsigned line = 1;
    FZ_CHECK(f, r == -1, "parser_error_position", "tt_listing_parse returned %d", r);
    FZ_CHECK(f, le.line >= 1 && le.line <= lines, "parser_error_position",
             "listing rejected at line %u of a %u-line text: %s", le.line, lines, le.msg);
    while (line < le.line && pos < n) {  /* start of the error's line */
      const char *nl = memchr(text + pos, '\n', n - pos);
      pos = nl ? (size_t)(nl - text) + 1 : n;
      line++;
    }
    {
      const char *nl = pos < n ? memchr(text + pos, '\n', n - pos) : NULL;
      len = nl ? (size_t)(nl - (text + pos)) : n - pos;
    }
    FZ_CHECK(f, le.col >= 1 && le.col <= len + 1, "parser_error_position",
             "listing error at column %u of a %zu-byte line %u: %s", le.col, len, le.line, le.msg);
    FZ_CHECK(f, memchr(le.msg, 0, sizeof le.msg) != NULL && le.msg[0], "parser_error_position",
             "listing rejected at line %u without a message", le.line);
    return 0;
  }
  FZ_CHECK(f, lst.n <= TT_PROG_MAX && lst.n <= lines, "parser_error_position",
           "listing of %u lines read as %u instructions", lines, lst.n);
  for (uint32_t i = 0; i < lst.n; i++) {
    FZ_CHECK(f, lst.line[i] >= 1 && lst.line[i] <= lines && (i == 0 || lst.line[i] > lst.line[i - 1]),
             "parser_error_position", "listing instruction %u on line %u (text has %u lines)", i,
             lst.line[i], lines);
  }
  return 0;
}

FZ_BOOKKEEPING static void init(void) {
  if (!ready) { tt_init(&st); ready = 1; }
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  const char *text = (const char *)d;
  fz_fail_clear(f);
  init();
  tt_vec_error e;
  memset(&e, 0, sizeof e);
  unsigned lines = 1;
  for (size_t i = 0; i < n; i++) lines += d[i] == '\n';
  int r = tt_vec_parse(text, n, &v, &e);
  if (r != 0) {
    FZ_CHECK(f, r == -1, "parser_error_position", "tt_vec_parse returned %d", r);
    FZ_CHECK(f, e.line >= 1 && e.line <= lines, "parser_error_position",
             "rejected at line %u of a %u-line text: %s", e.line, lines, e.msg);
    FZ_CHECK(f, memchr(e.msg, 0, sizeof e.msg) != NULL && e.msg[0], "parser_error_position",
             "rejected at line %u without a message", e.line);
  } else if (!v.strict) {
    /* a parsed vector must also run (strict vectors need a 2.6 MiB scratch copy: skipped) */
    tt_vec_status s = tt_vec_run(&st, NULL, &v, TT_MODE_FUNC, &res);
    tt_reset(&st);  /* leave a clean state for the next input (AFL++ stability) */
    FZ_CHECK(f, s == TT_VEC_PASS || s == TT_VEC_FAIL || s == TT_VEC_SKIP || s == TT_VEC_ERROR,
             "parser_error_position", "tt_vec_run returned status %d", (int)s);
  }
  int lr = check_listing(text, n, lines, f);
  if (lr) return lr;
  return check_asm_lines(text, n, f);
}

const fz_target fz_this_target = {"text_parsers", invariants, 0, check_bytes, NULL, init};

FZ_ENTRY_POINTS(init, check_bytes)
