/* vec_expect.c — the `.vec` parser's expect lines (vector-format.md, Expectations): one step
 * per form (a location's value, a thread's end state, deadlock, and the cycle-mode issue,
 * cycles and hazard forms). The rest of the file's grammar is vec.c; what both share is
 * vec_parse.h. */
#include <string.h>
#include "vec.h"
#include "vec_parse.h"
#include "vec_sb.h"
#include "chars.h"

/* cycles = C | cycles <= C | cycles >= C; q is past the word */
static int x_cycles(pctx *c, const char *q, const char *e, tt_vec_expect *x) {
  uint64_t cyc;
  q = skip_sp(q, e);
  if (e - q >= 2 && q[0] == '<' && q[1] == '=') { x->cmp = TT_VEC_CMP_LE; q += 2; }
  else if (e - q >= 2 && q[0] == '>' && q[1] == '=') { x->cmp = TT_VEC_CMP_GE; q += 2; }
  else if (e - q >= 2 && q[0] == '=' && q[1] == '=') return err_at(c, q, "use '=' (not '==')");
  else if (q < e && q[0] == '=') { x->cmp = TT_VEC_CMP_EQ; q += 1; }
  else return err_at(c, q, "expected 'cycles = C', 'cycles <= C' or 'cycles >= C'");
  q = skip_sp(q, e);
  if (tt_vecp_parse_value(c, q, e, 64, "a cycle count", &cyc) != 0) return -1;
  x->kind = TT_VEC_EX_CYCLES;
  x->value = cyc;
  c->v->has_cycle_expects = 1;
  return 0;
}

/* `= N` after a word (q is past it), N fitting 32 bits; `form` is the error when there is no
 * single '=', `what` names N */
static int x_eq_count(pctx *c, const char *q, const char *e, const char *form, const char *what,
                      uint64_t *n) {
  q = skip_sp(q, e);
  if (q >= e || *q != '=' || (e - q >= 2 && q[1] == '=')) return err_at(c, q, form);
  q = skip_sp(q + 1, e);
  return tt_vecp_parse_value(c, q, e, 32, what, n);
}

/* hazards = N; q is past the word */
static int x_hazards(pctx *c, const char *q, const char *e, tt_vec_expect *x) {
  uint64_t n;
  if (x_eq_count(c, q, e, "expected 'hazards = N'", "a hazard count", &n) != 0) return -1;
  x->kind = TT_VEC_EX_HAZARDS;
  x->value = n;
  c->v->has_cycle_expects = 1;
  return 0;
}

/* [K] = VALUE after tN.hazard or tN.issue: k is past the '['; sets *kv and *q (past the '=') */
static int x_index_eq(pctx *c, const char *k, const char *e, const char *form, const char *after,
                      uint64_t *kv, const char **q) {
  const char *ke = k;
  while (ke < e && *ke != ']') ke++;
  if (ke == e) return err_at(c, k, form);
  if (tt_vecp_parse_value(c, k, ke, 32, "an instruction index", kv) != 0) return -1;
  *q = skip_sp(ke + 1, e);
  if (*q >= e || **q != '=') return err_at(c, *q, after);
  *q = skip_sp(*q + 1, e);
  return 0;
}

/* tN.hazard[K] = KIND; k is past the '[' */
static int x_hazard_at(pctx *c, const char *k, const char *e, tt_vec_expect *x) {
  const char *q, *qe;
  uint64_t kv;
  char kind[32];
  if (x_index_eq(c, k, e, "expected 'tN.hazard[K] = KIND'", "expected '=' after tN.hazard[K]", &kv, &q) != 0)
    return -1;
  qe = q;
  while (qe < e && !tt_ch_space(*qe)) qe++;
  if (skip_sp(qe, e) != e) return err_at_q(c, skip_sp(qe, e), "unexpected text ", skip_sp(qe, e), e, "");
  if (qe == q || (size_t)(qe - q) >= sizeof kind) return err_at(c, q, "expected a hazard kind (gpr_pending, cfg_gap, streamwrcfg_order)");
  memcpy(kind, q, (size_t)(qe - q));
  kind[qe - q] = 0;
  int hk = tt_hazard_kind_parse(kind);
  if (hk < 0) return err_at_q(c, q, "unknown hazard kind ", q, qe, " (gpr_pending, cfg_gap, streamwrcfg_order)");
  x->kind = TT_VEC_EX_HAZARD;
  x->index = (uint32_t)kv;
  x->value = (uint64_t)hk;
  c->v->has_cycle_expects = 1;
  return 0;
}

/* tN.issue[K] = C; k is past the '[' */
static int x_issue_at(pctx *c, const char *k, const char *e, tt_vec_expect *x) {
  const char *q;
  uint64_t kv, cyc;
  if (x_index_eq(c, k, e, "expected 'tN.issue[K] = C'", "expected '=' after tN.issue[K]", &kv, &q) != 0)
    return -1;
  if (tt_vecp_parse_value(c, q, e, 64, "a cycle number", &cyc) != 0) return -1;
  x->kind = TT_VEC_EX_ISSUE;
  x->index = (uint32_t)kv;
  x->value = cyc;
  c->v->has_cycle_expects = 1;
  return 0;
}

/* tN.issued = K; q is past ".issued" */
static int x_issued(pctx *c, const char *q, const char *e, tt_vec_expect *x) {
  uint64_t k;
  if (x_eq_count(c, q, e, "expected 'tN.issued = K'", "an instruction count", &k) != 0) return -1;
  x->kind = TT_VEC_EX_ISSUED;
  x->value = k;
  return 0;
}

/* tN fault CLASS; f is the class */
static int x_fault(pctx *c, const char *f, const char *e, tt_vec_expect *x) {
  char name[32];
  int cls = -1;
  if (f == e) return err_at(c, f, "expected 'tN fault CLASS'");
  for (const char *q = f; q < e; q++)
    if (tt_ch_space(*q)) return err_at_q(c, q, "unexpected text ", q, e, " after the fault class");
  if ((size_t)(e - f) < sizeof name) {
    memcpy(name, f, (size_t)(e - f));
    name[e - f] = 0;
    cls = tt_fault_class_parse(name);
  }
  if (cls < 0 || cls >= TT_FAULT_CLASS_COUNT)
    return err_at_q(c, f, "unknown fault class ", f, e,
                    " (none, undefined, unpredictable, noncontractual, unsupported, "
                    "unimplemented)");
  x->kind = TT_VEC_EX_FAULT;
  x->value = (uint64_t)cls;
  return 0;
}

/* tN done | tN blocked | tN fault CLASS; k is the word after the thread */
static int x_thread_word(pctx *c, const char *k, const char *e, tt_vec_expect *x) {
  const char *ke = k;
  while (ke < e && !tt_ch_space(*ke)) ke++;
  if (tok_eq(k, ke, "done") || tok_eq(k, ke, "blocked")) {
    x->kind = k[0] == 'd' ? TT_VEC_EX_DONE : TT_VEC_EX_BLOCKED;
    if (skip_sp(ke, e) != e) return err_at_q(c, skip_sp(ke, e), "unexpected text ", skip_sp(ke, e), e, "");
    return 0;
  }
  if (tok_eq(k, ke, "fault")) return x_fault(c, skip_sp(ke, e), e, x);
  return err_at_q(c, k, "expected done, blocked, fault CLASS or '.' after the thread, not ", k, ke, "");
}

static int has_suffix(const char *we, const char *e, const char *s, size_t n) {
  return we < e && (size_t)(e - we) >= n && memcmp(we, s, n) == 0;
}

/* an expectation that starts with a thread tN: [w, we) is the thread word */
static int x_thread(pctx *c, const char *w, const char *we, const char *p, const char *e, tt_vec_expect *x) {
  unsigned t = 0;
  if (tt_vecp_parse_thread_tok(w, we, &t) != 0) return err_at_q(c, w, "bad thread ", w, we, "");
  x->thread = (uint8_t)t;
  int issued = has_suffix(we, e, ".issued", 7) && (we + 7 == e || tt_ch_space(we[7]) || we[7] == '=');
  if (has_suffix(we, e, ".hazard[", 8) || has_suffix(we, e, ".issue[", 7) || issued || we == e || *we != '.')
    if (tt_vecp_check_thread(c, w, we, t) != 0) return -1;
  if (has_suffix(we, e, ".hazard[", 8)) return x_hazard_at(c, we + 8, e, x);
  if (has_suffix(we, e, ".issue[", 7)) return x_issue_at(c, we + 7, e, x);
  if (issued) return x_issued(c, we + 7, e, x);
  if (we < e && *we == '.') {  /* a thread-qualified location: tN.gpr[I] = V */
    x->thread = 0;
    if (tt_vecp_parse_assign(c, p, e, &x->loc, &x->value) != 0) return -1;
    x->kind = TT_VEC_EX_LOC;
    return 0;
  }
  return x_thread_word(c, skip_sp(we, e), e, x);
}

int tt_vecp_expect(pctx *c, const char *p, const char *e) {
  tt_vec *v = c->v;
  tt_vec_expect x;
  const char *w = p, *we = p;
  int r;
  memset(&x, 0, sizeof x);
  x.line = c->line;
  if (v->nexpects >= TT_VEC_MAX_EXPECTS) return err_at(c, p, "too many expect lines (limit 512)");
  if (p >= e) return err_at(c, p, "expect needs an expectation");
  while (we < e && tt_ch_word(*we)) we++;
  if (tok_eq(w, we, "deadlock")) {
    if (skip_sp(we, e) != e) return err_at_q(c, we, "unexpected text ", skip_sp(we, e), e, " after 'deadlock'");
    x.kind = TT_VEC_EX_DEADLOCK;
    r = 0;
  } else if (tok_eq(w, we, "cycles")) {
    r = x_cycles(c, we, e, &x);
  } else if (tok_eq(w, we, "hazards")) {
    r = x_hazards(c, we, e, &x);
  } else if (we > w && w[0] == 't' && we - w >= 2 && tt_ch_digit(w[1]) &&
             (we == e || tt_ch_space(*we) || *we == '.')) {
    r = x_thread(c, w, we, p, e, &x);
  } else {
    r = tt_vecp_parse_assign(c, p, e, &x.loc, &x.value);
    x.kind = TT_VEC_EX_LOC;
  }
  if (r != 0) return -1;
  v->expects[v->nexpects++] = x;
  return 0;
}
