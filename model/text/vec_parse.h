/* vec_parse.h — what the two halves of the `.vec` parser share: vec.c (the file, its
 * directives, headers, programs and init lines) and vec_expect.c (the expect lines). Internal
 * to the parser; no stdio, no allocation. */
#ifndef TT_VEC_PARSE_H
#define TT_VEC_PARSE_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "chars.h"
#include "vec.h"
#include "vec_sb.h"

/* ---- lexical helpers ------------------------------------------------------------------------ */
static inline const char *skip_sp(const char *p, const char *e) {
  while (p < e && tt_ch_space(*p)) p++;
  return p;
}
static inline const char *trim_end(const char *p, const char *e) {
  while (e > p && tt_ch_space(e[-1])) e--;
  return e;
}
static inline int tok_eq(const char *p, const char *e, const char *w) {
  size_t n = strlen(w);
  return (size_t)(e - p) == n && memcmp(p, w, n) == 0;
}

/* ---- parser context ----------------------------------------------------------------------- */
typedef struct pctx {
  tt_vec *v;
  tt_vec_error *err;
  const char *ls;   /* start of the current line */
  unsigned line;
} pctx;

/* Start an error message at column of p (NULL: no column). Returns the builder to extend. */
static inline sb err_begin(pctx *c, const char *p) {
  sb s;
  c->err->line = c->line;
  c->err->col = p ? (unsigned)(p - c->ls) + 1 : 0;
  sb_init(&s, c->err->msg, sizeof c->err->msg);
  return s;
}
static inline int err_at(pctx *c, const char *p, const char *msg) {
  sb s = err_begin(c, p);
  sb_str(&s, msg);
  return -1;
}
static inline int err_at_q(pctx *c, const char *p, const char *pre, const char *q,
                           const char *qe, const char *post) {
  sb s = err_begin(c, p);
  sb_str(&s, pre);
  sb_quote(&s, q, (size_t)(qe - q));
  sb_str(&s, post);
  return -1;
}

/* ---- tokens and values (vec.c); each returns 0, or -1 with the error in c->err ---------- */
/* "tN" exactly, N decimal (large N saturates); -1 when it is not that shape (no error set) */
int tt_vecp_parse_thread_tok(const char *p, const char *e, unsigned *t);
/* t names a thread of the machine, else the error "unknown thread" at p */
int tt_vecp_check_thread(pctx *c, const char *p, const char *e, unsigned t);
/* A number token [p, e) that must fit in `bits` bits (64 max); `what` names it in the error. */
int tt_vecp_parse_value(pctx *c, const char *p, const char *e, unsigned bits, const char *what,
                        uint64_t *out);
/* `LOC = VALUE` over [p, e) for init and expect. */
int tt_vecp_parse_assign(pctx *c, const char *p, const char *e, tt_loc *loc, uint64_t *val);

/* ---- expect lines (vec_expect.c) ---- */
/* The expectation [p, e) (past the word `expect`), appended to c->v->expects. */
int tt_vecp_expect(pctx *c, const char *p, const char *e);

#endif
