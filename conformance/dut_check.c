/* dut_check.c — the `.vec` checker for any implementation under test (ttdut.h). The steps of a
 * run are the vector format's: reset in the mode with the profile and knobs, the `init` lines
 * in file order (a global Config word in both banks), the streams, the run, then each
 * expectation and `strict`. What the implementation cannot do makes the run or the
 * expectation *not comparable*, with the reason; it never passes silently. */
#include <dlfcn.h>
#include <string.h>
#include "dut_check.h"
#include "vec_sb.h"

#define WHY 160
#define CHANGED_MAX 65536u
#define HAZ_MAX 256u

static ttdut_loc g_cl[CHANGED_MAX];
static uint32_t g_ca[CHANGED_MAX], g_cb[CHANGED_MAX];
static ttdut_hazard g_haz[HAZ_MAX];

/* ---- locations ---------------------------------------------------------------------------- */
int dutc_fmt_loc(const ttdut_loc *l, char *buf, size_t n) {
  tt_loc t;
  if (l->kind >= TTDUT_LOC_KIND_COUNT || l->sel > 255) return -1;
  t.kind = (uint8_t)l->kind;
  t.sel = (uint8_t)l->sel;
  t.index = l->index;
  tt_loc_format(&t, buf, n);
  return 0;
}

int dutc_parse_loc(const char *text, size_t len, ttdut_loc *l) {
  tt_loc t;
  const char *m = NULL;
  if (tt_loc_parse(text, len, &t, &m) != 0) return -1;
  l->kind = t.kind;
  l->sel = t.sel;
  l->index = t.index;
  return 0;
}

static ttdut_loc to_dut(const tt_loc *t) {
  ttdut_loc l = {t->kind, t->sel, t->index};
  return l;
}

static int is_host(uint32_t k) {
  return k == TTDUT_LOC_HOST_U8 || k == TTDUT_LOC_HOST_U16 || k == TTDUT_LOC_HOST_U32;
}

/* ---- open / load -------------------------------------------------------------------------- */
int dutc_open(dutc *x, const ttdut_ops *ops, const char *args, char *why, size_t n) {
  memset(x, 0, sizeof *x);
  if (!ops || ops->version != TTDUT_VERSION || !ops->open || !ops->close || !ops->caps ||
      !ops->accepts || !ops->reset || !ops->set || !ops->load || !ops->run || !ops->get) {
    sb s;
    sb_init(&s, why, n);
    sb_str(&s, ops && ops->version != TTDUT_VERSION ? "interface version mismatch"
                                                    : "a required entry point is missing");
    return -1;
  }
  x->ops = ops;
  x->d = ops->open(args, why, n);
  if (!x->d) return -1;
  ops->caps(x->d, &x->caps);
  x->caps.name[sizeof x->caps.name - 1] = 0;
  x->caps.notes[sizeof x->caps.notes - 1] = 0;
  return 0;
}

void dutc_close(dutc *x) {
  if (x->ops && x->d) x->ops->close(x->d);
  x->d = NULL;
}

const ttdut_ops *dutc_load_so(const char *path, char *why, size_t n) {
  sb s;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  sb_init(&s, why, n);
  if (!h) {
    const char *e = dlerror();
    sb_str(&s, e ? e : "cannot load");
    return NULL;
  }
  union { void *p; ttdut_entry_fn f; } u;
  u.p = dlsym(h, TTDUT_ENTRY_SYMBOL);
  if (!u.p) {
    sb_str(&s, "no symbol " TTDUT_ENTRY_SYMBOL);
    return NULL;
  }
  const ttdut_ops *ops = u.f();
  if (!ops) sb_str(&s, TTDUT_ENTRY_SYMBOL "() returned NULL");
  return ops;
}

/* ---- results ------------------------------------------------------------------------------ */
static tt_vec_status whole(tt_vec_result *res, tt_vec_status st, unsigned line, const char *a,
                           const char *b) {
  sb s;
  res->status = (uint8_t)st;
  res->err.line = line;
  res->err.col = 0;
  sb_init(&s, res->err.msg, sizeof res->err.msg);
  sb_str(&s, a);
  sb_str(&s, b);
  return st;
}

static tt_vec_check *begin(tt_vec_result *res, const tt_vec_expect *x, sb *s) {
  tt_vec_check *ck = &res->checks[res->nchecks++];
  memset(ck, 0, sizeof *ck);
  ck->kind = x->kind;
  ck->line = x->line;
  ck->expected = x->value;
  sb_init(s, ck->text, sizeof ck->text);
  tt_vec_fmt_expect(ck->text, sizeof ck->text, x);
  s->len = strlen(ck->text);
  sb_str(s, ": ");
  return ck;
}

static void end(tt_vec_result *res, tt_vec_check *ck, int ok, uint64_t actual) {
  ck->actual = actual;
  ck->status = ok ? TT_VEC_CHECK_PASS : TT_VEC_CHECK_FAIL;
  if (ok) res->npass++;
  else res->nfail++;
}

static void not_comparable(tt_vec_result *res, tt_vec_check *ck, sb *s, const char *why) {
  sb_str(s, "not comparable: ");
  sb_str(s, why);
  ck->status = TT_VEC_CHECK_NOT_COMPARABLE;
  res->nnot_comparable++;
}

static const char *outcome_name(unsigned o) {
  return o == TTDUT_OUT_DONE ? "done" : o == TTDUT_OUT_DEADLOCK ? "deadlock"
         : o == TTDUT_OUT_BUDGET ? "budget exhausted" : "?";
}

static void fmt_thread(sb *s, const tt_vec *v, const ttdut_thread_result *t, unsigned th) {
  sb_str(s, "pc ");
  sb_dec(s, t->issued);
  sb_str(s, " of ");
  sb_dec(s, v->prog_len[th]);
  if (t->issued < v->prog_len[th]) {
    sb_str(s, " (line ");
    sb_dec(s, v->prog_line[th][t->issued]);
    sb_chr(s, ')');
  }
  if (t->why[0]) {
    sb_str(s, ", ");
    sb_mem(s, t->why, strnlen(t->why, sizeof t->why));
  }
}

static void fmt_fault(sb *s, const tt_vec *v, const ttdut_thread_result *t, unsigned th) {
  const char *n = t->fault == TTDUT_FAULT_SOME ? "a fault of unknown class"
                                               : tt_fault_class_name(t->fault);
  sb_str(s, n ? n : "?");
  if (t->fault != TTDUT_FAULT_NONE) {
    if (t->fault_why[0]) {
      sb_str(s, " (");
      sb_mem(s, t->fault_why, strnlen(t->fault_why, sizeof t->fault_why));
      sb_chr(s, ')');
    }
    sb_str(s, " at instruction ");
    sb_dec(s, t->fault_index);
    if (t->fault_index < v->prog_len[th]) {
      sb_str(s, " (line ");
      sb_dec(s, v->prog_line[th][t->fault_index]);
      sb_chr(s, ')');
    }
  }
}

/* ---- one expectation ---------------------------------------------------------------------- */
typedef struct run_ctx {
  dutc *x;
  const tt_vec *v;
  tt_mode mode;
  ttdut_result r;
  tt_vec_result *res;
} run_ctx;

static int has(const run_ctx *c, uint32_t flag) { return (c->x->caps.flags & flag) != 0; }

static void eval_loc(run_ctx *c, const tt_vec_expect *x) {
  sb s;
  char why[WHY] = "";
  tt_vec_check *ck = begin(c->res, x, &s);
  ttdut_loc l = to_dut(&x->loc);
  uint32_t val = 0;
  if (!(c->x->caps.can_get & (1u << l.kind))) {
    not_comparable(c->res, ck, &s, "the implementation cannot read this location");
    return;
  }
  int r = c->x->ops->get(c->x->d, &l, &val, why, sizeof why);
  why[sizeof why - 1] = 0;
  if (r == TTDUT_REFUSED && is_host(l.kind)) {
    sb_str(&s, "host load refused: ");
    sb_str(&s, why);
    end(c->res, ck, 0, 0);
    return;
  }
  if (r == TTDUT_ERROR) {
    sb_str(&s, "the implementation failed: ");
    sb_str(&s, why);
    end(c->res, ck, 0, 0);
    return;
  }
  if (r != TTDUT_OK) {
    not_comparable(c->res, ck, &s, why[0] ? why : "the implementation cannot read it");
    return;
  }
  char vb[24];
  tt_vec_fmt_value(vb, sizeof vb, &x->loc, val);
  sb_str(&s, "actual ");
  sb_str(&s, vb);
  end(c->res, ck, val == x->value, val);
}

static void eval_thread(run_ctx *c, const tt_vec_expect *x) {
  sb s;
  tt_vec_check *ck = begin(c->res, x, &s);
  const ttdut_thread_result *t = &c->r.thread[x->thread % 3];
  int ok = 0;
  uint64_t actual = 0;
  switch ((tt_vec_expect_kind)x->kind) {
  case TT_VEC_EX_DONE:
    ck->expected = 1;
    actual = t->done;
    ok = t->done != 0;
    if (ok) sb_str(&s, "actual done");
    else { sb_str(&s, "actual not done: "); fmt_thread(&s, c->v, t, x->thread); }
    break;
  case TT_VEC_EX_BLOCKED:
    ck->expected = 1;
    if (!has(c, TTDUT_CAP_BLOCKED) && !t->done) {
      not_comparable(c->res, ck, &s, "the implementation does not say whether a thread can progress");
      return;
    }
    actual = t->blocked;
    ok = t->blocked != 0;
    if (ok) { sb_str(&s, "actual blocked: "); fmt_thread(&s, c->v, t, x->thread); }
    else if (t->done) sb_str(&s, "actual done");
    else { sb_str(&s, "actual not blocked: "); fmt_thread(&s, c->v, t, x->thread); }
    break;
  case TT_VEC_EX_FAULT:
    actual = t->fault;
    if (t->fault == TTDUT_FAULT_SOME && x->value != TTDUT_FAULT_NONE) {
      not_comparable(c->res, ck, &s, "the implementation faulted but does not report the class");
      return;
    }
    ok = t->fault == x->value;
    sb_str(&s, "actual ");
    fmt_fault(&s, c->v, t, x->thread);
    break;
  case TT_VEC_EX_ISSUED:
    if (!has(c, TTDUT_CAP_ISSUED)) {
      not_comparable(c->res, ck, &s, "the implementation does not count issued instructions");
      return;
    }
    actual = t->issued;
    ok = actual == x->value;
    sb_str(&s, "actual ");
    sb_dec(&s, actual);
    if (!ok) { sb_str(&s, " ("); fmt_thread(&s, c->v, t, x->thread); sb_chr(&s, ')'); }
    break;
  case TT_VEC_EX_LOC: case TT_VEC_EX_DEADLOCK: case TT_VEC_EX_ISSUE: case TT_VEC_EX_CYCLES:
  case TT_VEC_EX_HAZARD: case TT_VEC_EX_HAZARDS:
    sb_str(&s, "not a thread expectation");
    break;
  }
  end(c->res, ck, ok, actual);
}

static void eval_deadlock(run_ctx *c, const tt_vec_expect *x) {
  sb s;
  tt_vec_check *ck = begin(c->res, x, &s);
  ck->expected = TTDUT_OUT_DEADLOCK;
  if (!has(c, TTDUT_CAP_BLOCKED) && c->r.outcome != TTDUT_OUT_DONE) {
    not_comparable(c->res, ck, &s, "the implementation does not detect deadlock");
    return;
  }
  sb_str(&s, "actual run ended: ");
  sb_str(&s, outcome_name(c->r.outcome));
  sb_str(&s, " after ");
  sb_dec(&s, c->r.steps);
  sb_str(&s, c->mode == TT_MODE_CYCLE ? " cycles" : " steps");
  end(c->res, ck, c->r.outcome == TTDUT_OUT_DEADLOCK, c->r.outcome);
}

static void list_hazards(sb *s, const ttdut_hazard *h, uint32_t n, unsigned max) {
  for (uint32_t i = 0; i < n && i < max; i++) {
    sb_str(s, " t"); sb_dec(s, h[i].thread); sb_str(s, ".hazard["); sb_dec(s, h[i].index);
    sb_str(s, "]="); sb_str(s, tt_hazard_kind_name(h[i].kind));
  }
}

/* expect tN.issue[K] = C: the cycle instruction K of thread N passed its gate. */
static void eval_issue(run_ctx *c, const tt_vec_expect *x, tt_vec_check *ck, sb *s) {
  const dutc *d = c->x;
  uint64_t cyc = 0;
  if (!has(c, TTDUT_CAP_ISSUE_CYCLES) || !d->ops->issue_cycle) {
    not_comparable(c->res, ck, s, "the implementation does not report issue cycles");
    return;
  }
  if (d->ops->issue_cycle(d->d, x->thread, x->index, &cyc) != TTDUT_OK) {
    sb_str(s, "actual: instruction never issued (");
    fmt_thread(s, c->v, &c->r.thread[x->thread % 3], x->thread);
    sb_chr(s, ')');
    end(c->res, ck, 0, 0);
    return;
  }
  sb_str(s, "actual ");
  sb_dec(s, cyc);
  end(c->res, ck, cyc == x->value, cyc);
}

/* expect hazards = N, or expect hazard KIND at tN[K]. */
static void eval_hazard(run_ctx *c, const tt_vec_expect *x, tt_vec_check *ck, sb *s) {
  const dutc *d = c->x;
  if (!has(c, TTDUT_CAP_HAZARDS) || !d->ops->hazards) {
    not_comparable(c->res, ck, s, "the implementation does not report hazards");
    return;
  }
  uint32_t n = d->ops->hazards(d->d, g_haz, HAZ_MAX), kept = n < HAZ_MAX ? n : HAZ_MAX;
  if (x->kind == TT_VEC_EX_HAZARDS) {
    int ok = n == x->value;
    sb_str(s, "actual ");
    sb_dec(s, n);
    if (!ok && n) { sb_chr(s, ':'); list_hazards(s, g_haz, kept, 4); }
    end(c->res, ck, ok, n);
    return;
  }
  int found = 0;
  for (uint32_t i = 0; i < kept; i++)
    if (g_haz[i].thread == x->thread && g_haz[i].index == x->index && g_haz[i].kind == x->value)
      found = 1;
  ck->expected = 1;
  if (found) sb_str(s, "reported");
  else {
    sb_str(s, "actual: not reported; hazards reported:");
    if (n == 0) sb_str(s, " none");
    list_hazards(s, g_haz, kept, 4);
  }
  end(c->res, ck, found, (uint64_t)found);
}

/* expect cycles (=, <=, >=) N: only a run that finished has a cycle count to compare. */
static void eval_cycles(run_ctx *c, const tt_vec_expect *x, tt_vec_check *ck, sb *s) {
  if (!has(c, TTDUT_CAP_CYCLES)) {
    not_comparable(c->res, ck, s, "the implementation does not report cycles");
    return;
  }
  if (c->r.outcome != TTDUT_OUT_DONE) {
    sb_str(s, "actual run ended: ");
    sb_str(s, outcome_name(c->r.outcome));
    sb_str(s, " after ");
    sb_dec(s, c->r.steps);
    sb_str(s, " cycles");
    end(c->res, ck, 0, c->r.cycles);
    return;
  }
  uint64_t a = c->r.cycles;
  int ok = x->cmp == TT_VEC_CMP_LE ? a <= x->value : x->cmp == TT_VEC_CMP_GE ? a >= x->value
                                                                             : a == x->value;
  sb_str(s, "actual ");
  sb_dec(s, a);
  end(c->res, ck, ok, a);
}

static void eval_cycle(run_ctx *c, const tt_vec_expect *x) {
  sb s;
  tt_vec_check *ck = begin(c->res, x, &s);
  if (c->mode != TT_MODE_CYCLE) {
    ck->status = TT_VEC_CHECK_NOT_EVALUATED;
    sb_str(&s, "not evaluated (cycle mode only)");
    c->res->nnot_evaluated++;
    return;
  }
  if (x->kind == TT_VEC_EX_ISSUE) eval_issue(c, x, ck, &s);
  else if (x->kind == TT_VEC_EX_HAZARD || x->kind == TT_VEC_EX_HAZARDS) eval_hazard(c, x, ck, &s);
  else eval_cycles(c, x, ck, &s);
}

/* ---- strict -------------------------------------------------------------------------------- */
static int l1_size(uint32_t kind) {
  return kind == TTDUT_LOC_L1_U8 ? 1 : kind == TTDUT_LOC_L1_U16 ? 2 : kind == TTDUT_LOC_L1_U32 ? 4 : 0;
}

static int covered(const tt_vec *v, const ttdut_loc *l, uint32_t byte, int is_byte) {
  for (unsigned i = 0; i < v->nexpects; i++) {
    const tt_vec_expect *x = &v->expects[i];
    if (x->kind != TT_VEC_EX_LOC) continue;
    if (is_byte) {
      int sz = l1_size(x->loc.kind);
      if (sz && byte >= x->loc.index && byte - x->loc.index < (uint32_t)sz) return 1;
    } else if (x->loc.kind == l->kind && x->loc.sel == l->sel && x->loc.index == l->index) {
      return 1;
    }
  }
  return 0;
}

static void strict_finding(run_ctx *c, const ttdut_loc *l, uint32_t a, uint32_t b) {
  tt_vec_result *res = c->res;
  int sz = l1_size(l->kind), uncovered = 0;
  if (sz) {
    for (int i = 0; i < sz && !uncovered; i++) {
      uint32_t ba = (a >> (8 * i)) & 0xFF, bb = (b >> (8 * i)) & 0xFF;
      if (ba != bb && !covered(c->v, l, l->index + (uint32_t)i, 1)) uncovered = 1;
    }
  } else {
    uncovered = !covered(c->v, l, 0, 0);
  }
  if (!uncovered) return;
  res->nstrict++;
  res->nfail++;
  if (res->nchecks >= sizeof res->checks / sizeof res->checks[0]) return;
  tt_vec_check *ck = &res->checks[res->nchecks++];
  char lb[48];
  sb s;
  memset(ck, 0, sizeof *ck);
  ck->status = TT_VEC_CHECK_FAIL;
  ck->kind = TT_VEC_EX_LOC;
  ck->is_strict = 1;
  ck->expected = a;
  ck->actual = b;
  sb_init(&s, ck->text, sizeof ck->text);
  dutc_fmt_loc(l, lb, sizeof lb);
  sb_str(&s, "strict: ");
  sb_str(&s, lb);
  sb_str(&s, " changed ");
  if (l->kind == TTDUT_LOC_MUTEX) {
    sb_str(&s, a ? (a == 1 ? "t0" : a == 2 ? "t1" : "t2") : "none");
    sb_str(&s, " -> ");
    sb_str(&s, b ? (b == 1 ? "t0" : b == 2 ? "t1" : "t2") : "none");
  } else {
    sb_hex(&s, a, 1);
    sb_str(&s, " -> ");
    sb_hex(&s, b, 1);
  }
  sb_str(&s, " but no expect names it");
}

static void strict_nc(run_ctx *c, const char *why) {
  tt_vec_result *res = c->res;
  if (res->nchecks >= sizeof res->checks / sizeof res->checks[0]) return;
  tt_vec_check *ck = &res->checks[res->nchecks++];
  sb s;
  memset(ck, 0, sizeof *ck);
  ck->status = TT_VEC_CHECK_NOT_COMPARABLE;
  ck->is_strict = 1;
  sb_init(&s, ck->text, sizeof ck->text);
  sb_str(&s, "strict: not comparable: ");
  sb_str(&s, why);
  res->nnot_comparable++;
}

/* Without changed(): the registers it can read, before and after (memory is not listed). */
#define REG_LOCS (3 * 64 + 2 * 224 + 3 * 68 + 16 + 4 + 1 + 5 + 6)
static ttdut_loc g_rl[REG_LOCS];
static uint32_t g_rb[REG_LOCS];

static unsigned reg_locs(void) {
  unsigned n = 0;
  for (uint32_t t = 0; t < 3; t++)
    for (uint32_t i = 0; i < 64; i++) g_rl[n++] = (ttdut_loc){TTDUT_LOC_GPR, t, i};
  for (uint32_t b = 0; b < 2; b++)
    for (uint32_t i = 0; i < 224; i++) g_rl[n++] = (ttdut_loc){TTDUT_LOC_CFG, b, i};
  for (uint32_t t = 0; t < 3; t++)
    for (uint32_t i = 0; i < 68; i++) g_rl[n++] = (ttdut_loc){TTDUT_LOC_TCFG, t, i};
  for (uint32_t i = 0; i < 8; i++) {
    g_rl[n++] = (ttdut_loc){TTDUT_LOC_SEM_VALUE, 0, i};
    g_rl[n++] = (ttdut_loc){TTDUT_LOC_SEM_MAX, 0, i};
  }
  static const uint32_t mx[4] = {0, 2, 3, 4};
  for (unsigned i = 0; i < 4; i++) g_rl[n++] = (ttdut_loc){TTDUT_LOC_MUTEX, 0, mx[i]};
  g_rl[n++] = (ttdut_loc){TTDUT_LOC_PRNG_RESEEDS, 0, 0};
  for (uint32_t i = 0; i < 5; i++) g_rl[n++] = (ttdut_loc){TTDUT_LOC_IC_INVALIDATES, 0, i};
  for (uint32_t t = 0; t < 3; t++)
    for (uint32_t u = 0; u < 2; u++) g_rl[n++] = (ttdut_loc){TTDUT_LOC_CTX_RESETS, t, u};
  return n;
}

static void strict_before(run_ctx *c) {
  dutc *d = c->x;
  if (has(c, TTDUT_CAP_CHANGED) && d->ops->snapshot && d->ops->changed) {
    d->ops->snapshot(d->d);
    return;
  }
  unsigned n = reg_locs();
  for (unsigned i = 0; i < n; i++) {
    char why[WHY];
    g_rb[i] = 0;
    if (d->caps.can_get & (1u << g_rl[i].kind)) d->ops->get(d->d, &g_rl[i], &g_rb[i], why, sizeof why);
  }
}

static void strict_after(run_ctx *c) {
  dutc *d = c->x;
  if (has(c, TTDUT_CAP_CHANGED) && d->ops->snapshot && d->ops->changed) {
    uint32_t n = d->ops->changed(d->d, g_cl, g_ca, g_cb, CHANGED_MAX);
    for (uint32_t i = 0; i < n && i < CHANGED_MAX; i++) strict_finding(c, &g_cl[i], g_ca[i], g_cb[i]);
    if (n > CHANGED_MAX) strict_nc(c, "more locations changed than the checker lists");
    return;
  }
  unsigned n = reg_locs(), missing = 0;
  for (unsigned i = 0; i < n; i++) {
    char why[WHY];
    uint32_t after = 0;
    if (!(d->caps.can_get & (1u << g_rl[i].kind))) { missing = 1; continue; }
    if (d->ops->get(d->d, &g_rl[i], &after, why, sizeof why) != TTDUT_OK) { missing = 1; continue; }
    if (after != g_rb[i]) strict_finding(c, &g_rl[i], g_rb[i], after);
  }
  strict_nc(c, missing ? "L1, MMIO and some registers cannot be listed by this implementation"
                       : "L1 and MMIO cannot be listed by this implementation");
}

/* ---- a run ----------------------------------------------------------------------------------- */
/* The setup steps below return TT_VEC_PASS to go on, else the whole run's status (set in res). */

/* Mode, knob names (the project's registry: an unknown one is an error of the vector), reset. */
static tt_vec_status setup_reset(run_ctx *c) {
  dutc *d = c->x;
  const tt_vec *v = c->v;
  tt_vec_result *res = c->res;
  char why[WHY] = "";
  ttdut_knob k[TT_VEC_MAX_KNOBS + 1];
  uint32_t nk = 0;
  if (!(d->caps.modes & (1u << c->mode)))
    return whole(res, TT_VEC_NOT_COMPARABLE, v->mode_line,
                 c->mode == TT_MODE_CYCLE ? "no cycle mode" : "no functional mode", "");
  for (unsigned i = 0; i < v->nknobs; i++) {
    int kn = tt_knob_by_name(v->knobs[i].name);
    if (kn < 0) return whole(res, TT_VEC_ERROR, v->knobs[i].line, "unknown knob ", v->knobs[i].name);
    if (tt_knob_value_index((unsigned)kn, v->knobs[i].value) < 0)
      return whole(res, TT_VEC_ERROR, v->knobs[i].line, "unknown value for knob ", v->knobs[i].name);
  }
  if (v->profile_line) k[nk++] = (ttdut_knob){"profile", v->profile};
  for (unsigned i = 0; i < v->nknobs; i++) k[nk++] = (ttdut_knob){v->knobs[i].name, v->knobs[i].value};
  if (nk && !(d->caps.flags & TTDUT_CAP_KNOBS))
    return whole(res, TT_VEC_NOT_COMPARABLE, v->profile_line ? v->profile_line : v->knobs[0].line,
                 "the implementation has no knobs or profiles", "");
  int rr = d->ops->reset(d->d, (uint32_t)c->mode, k, nk, why, sizeof why);
  why[sizeof why - 1] = 0;
  if (rr == TTDUT_ERROR) return whole(res, TT_VEC_FAIL, 0, "the implementation failed: ", why);
  if (rr != TTDUT_OK) {
    return whole(res, TT_VEC_NOT_COMPARABLE, v->profile_line ? v->profile_line
                 : v->nknobs ? v->knobs[0].line : 0, "reset refused: ", why);
  }
  return TT_VEC_PASS;
}

/* A setup call on the program that returned rr (not TTDUT_OK) for the text at `line`: the
 * implementation failed (the run fails), or it refused (not comparable: `refused` and why). */
static tt_vec_status program_not_taken(tt_vec_result *res, int rr, unsigned line,
                                       const char *refused, char *why) {
  why[WHY - 1] = 0;
  if (rr == TTDUT_ERROR) return whole(res, TT_VEC_FAIL, line, "the implementation failed: ", why);
  return whole(res, TT_VEC_NOT_COMPARABLE, line, refused, why);
}

/* Every word of every stream must be accepted. */
static tt_vec_status setup_accepts(run_ctx *c) {
  const tt_vec *v = c->v;
  char why[WHY] = "";
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < v->prog_len[t]; i++) {
      int rr = c->x->ops->accepts(c->x->d, v->prog[t][i], why, sizeof why);
      if (rr == TTDUT_OK) continue;
      char w[16], refused[48];
      sb s;
      tt_vec_fmt_hex(w, sizeof w, v->prog[t][i], 8);
      sb_init(&s, refused, sizeof refused);
      sb_str(&s, "instruction ");
      sb_str(&s, w);
      sb_str(&s, " not accepted: ");
      return program_not_taken(c->res, rr, v->prog_line[t][i], refused, why);
    }
  return TT_VEC_PASS;
}

/* The init lines, in file order (a global Config word in both banks). */
static tt_vec_status setup_inits(run_ctx *c) {
  dutc *d = c->x;
  const tt_vec *v = c->v;
  tt_vec_result *res = c->res;
  char why[WHY] = "";
  for (unsigned i = 0; i < v->ninits; i++) {
    const tt_vec_init *in = &v->inits[i];
    ttdut_loc l = to_dut(&in->loc);
    unsigned banks = l.kind == TTDUT_LOC_CFG && l.index >= TT_CFG_GLOBAL_BASE ? 2 : 1;
    for (unsigned b = 0; b < banks; b++) {
      if (banks == 2) l.sel = b;   /* a global word: one value in both banks */
      int r = (d->caps.can_set & (1u << l.kind)) ? d->ops->set(d->d, &l, in->value, why, sizeof why)
                                                  : TTDUT_UNSUPPORTED;
      why[sizeof why - 1] = 0;
      if (r == TTDUT_REFUSED && is_host(l.kind))
        return whole(res, TT_VEC_ERROR, in->line, "host store refused: ", why);
      if (r == TTDUT_ERROR) return whole(res, TT_VEC_FAIL, in->line, "the implementation failed: ", why);
      if (r != TTDUT_OK)
        return whole(res, TT_VEC_NOT_COMPARABLE, in->line, "cannot set the init location: ",
                     why[0] ? why : "not settable in this implementation");
    }
  }
  return TT_VEC_PASS;
}

/* The three streams. */
static tt_vec_status setup_load(run_ctx *c) {
  const tt_vec *v = c->v;
  char why[WHY] = "";
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    int rr = c->x->ops->load(c->x->d, t, v->prog[t], v->prog_len[t], why, sizeof why);
    if (rr != TTDUT_OK)
      return program_not_taken(c->res, rr, v->prog_len[t] ? v->prog_line[t][0] : 0,
                               "program refused: ", why);
  }
  return TT_VEC_PASS;
}

static tt_vec_status setup(run_ctx *c) {
  tt_vec_status st = setup_reset(c);
  if (st == TT_VEC_PASS) st = setup_accepts(c);
  if (st == TT_VEC_PASS) st = setup_inits(c);
  if (st == TT_VEC_PASS) st = setup_load(c);
  return st;
}

tt_vec_status dutc_run(dutc *x, const tt_vec *v, tt_mode mode, tt_vec_result *res) {
  run_ctx c;
  res->npass = res->nfail = res->nnot_evaluated = res->nstrict = res->nchecks = 0;
  res->nnot_comparable = 0;
  res->steps = 0;
  memset(&res->err, 0, sizeof res->err);
  res->status = TT_VEC_SKIP;
  res->mode = (uint8_t)mode;
  res->outcome = TT_OUT_UNSUPPORTED_MODE;
  if ((unsigned)mode > TT_MODE_CYCLE || !(v->modes & (1u << mode))) return TT_VEC_SKIP;
  c.x = x;
  c.v = v;
  c.mode = mode;
  c.res = res;
  memset(&c.r, 0, sizeof c.r);
  tt_vec_status st = setup(&c);
  if (st != TT_VEC_PASS) return st;
  if (v->strict) strict_before(&c);
  if (x->ops->run(x->d, v->budget, &c.r) != TTDUT_OK)
    return whole(res, TT_VEC_FAIL, 0, "the implementation failed to run the vector ",
                 "(it crashed or broke the protocol)");
  for (unsigned t = 0; t < 3; t++) {
    c.r.thread[t].why[sizeof c.r.thread[t].why - 1] = 0;
    c.r.thread[t].fault_why[sizeof c.r.thread[t].fault_why - 1] = 0;
  }
  res->outcome = (uint8_t)(c.r.outcome <= TTDUT_OUT_BUDGET ? c.r.outcome : TTDUT_OUT_BUDGET);
  res->steps = c.r.steps;
  for (unsigned i = 0; i < v->nexpects; i++) {
    const tt_vec_expect *e = &v->expects[i];
    switch ((tt_vec_expect_kind)e->kind) {
    case TT_VEC_EX_LOC: eval_loc(&c, e); break;
    case TT_VEC_EX_DONE: case TT_VEC_EX_BLOCKED: case TT_VEC_EX_FAULT: case TT_VEC_EX_ISSUED:
      eval_thread(&c, e);
      break;
    case TT_VEC_EX_DEADLOCK: eval_deadlock(&c, e); break;
    case TT_VEC_EX_ISSUE: case TT_VEC_EX_CYCLES: case TT_VEC_EX_HAZARD: case TT_VEC_EX_HAZARDS:
      eval_cycle(&c, e);
      break;
    }
  }
  if (v->strict) strict_after(&c);
  res->status = res->nfail ? TT_VEC_FAIL
                : (res->npass == 0 && res->nnot_comparable) ? TT_VEC_NOT_COMPARABLE : TT_VEC_PASS;
  return (tt_vec_status)res->status;
}
