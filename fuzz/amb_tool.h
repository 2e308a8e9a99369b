/* amb_tool.h — the parts of ambtool shared between its files (private to the tool):
 *   ambtool.c     the command line, the inputs, search and collect
 *   amb_min.c     the minimiser
 *   amb_text.c    the text buffer and the text of programs and reproducers
 *   amb_render.c  render: the reproducers' end states, the pinned-reading vectors, the outputs
 *   amb_page.c    the ambiguity pages and their index */
#ifndef AMB_TOOL_H
#define AMB_TOOL_H
#include <stddef.h>
#include <stdint.h>
#include "amb_diff.h"

#define AMB_SIZE_GOAL 8u           /* instructions a published reproducer should not exceed */

/* ---- inputs (ambtool.c) ---- */
/* Inputs: .vec files and extension-less corpus files, outside the --exclude directories. */
int keep_input(const char *p, int is_dir);

/* ---- minimiser (amb_min.c) ---- */
extern unsigned long amb_tries;   /* predicate runs, counted by amb_minimize (callers reset it) */
/* Minimise p for knob k = v in `mode`. Returns 0, or -1 if p does not separate the readings. */
int amb_minimize(fz_prog *p, unsigned k, unsigned v, unsigned mode);

/* ---- text (amb_text.c) ---- */
typedef struct sb { char *b; size_t len, cap; } sb;
void sbf(sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fmt_insn(uint32_t w, char *buf, size_t n);
const char *value_name(unsigned k, unsigned v, char *buf, size_t n);
void write_init(sb *o, const fz_init *in, const char *prefix);
void write_program(sb *o, const fz_prog *p);
int write_file(const char *path, const char *text, size_t len);
void reproducer_text(sb *o, const fz_prog *p, unsigned k, unsigned v, unsigned mode);

/* ---- render (amb_render.c) ---- */
typedef struct diffrow { char loc[64]; uint32_t a, b; unsigned width; } diffrow;
typedef struct diffs { diffrow r[256]; unsigned n, more; } diffs;
/* The end states of a reproducer under both readings, as the page shows them. */
typedef struct ends {
  unsigned mode;
  tt_outcome o[2];
  uint64_t cycles[2];
  uint32_t pc[2][TT_THREAD_COUNT];
  uint8_t done[2][TT_THREAD_COUNT], blocked[2][TT_THREAD_COUNT], fault[2][TT_THREAD_COUNT];
  diffs d;
} ends;
typedef struct repro { fz_prog p; unsigned k, v, size, real, mode; int level; char file[256]; ends e; } repro;
int amb_render(int check, const char *repro_dir, const char *pages, const char *vecdir);

/* ---- pages (amb_page.c) ---- */
void fmt_val(char *buf, size_t n, const diffrow *r, uint32_t v);
void page_index_head(sb *x);
void page_index_tail(sb *x, unsigned n_pages, unsigned n_obs, unsigned n_none, size_t nr);
/* The index row of ambiguity a (into x) and its page (into o), from the reproducers rs[0..nr).
 * Returns whether no stream can observe it; sets *bad when it should and has no witness. */
int page_ambiguity(sb *x, sb *o, const tt_amb *a, const repro *rs, size_t nr, int *bad);

#endif
