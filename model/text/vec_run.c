/* vec_run.c — the `.vec` checker: runs a parsed vector (vec.c) in one model mode and
 * evaluates its expectations, cycle-mode ones included (issue cycles, cycles, hazards), and the
 * `strict` comparison. No stdio, no allocation. */
#include <string.h>
#include "vec.h"
#include "vec_sb.h"
#include "asm.h"

/* ---- checker ---------------------------------------------------------------------------------- */
static void fmt_value(sb *s, const tt_loc *loc, uint64_t val) {
  if (loc->kind == TT_LOC_MUTEX) {
    if (val == 0) sb_str(s, "none");
    else { sb_chr(s, 't'); sb_dec(s, val - 1); }
    return;
  }
  sb_hex(s, val, (tt_loc_width(loc) + 3) / 4);
}

static void fmt_loc(sb *s, const tt_loc *loc) {
  char buf[48];
  tt_loc_format(loc, buf, sizeof buf);
  sb_str(s, buf);
}

static void fmt_expect(sb *s, const tt_vec_expect *x) {
  static const char *const cmp[] = {"=", "<=", ">="};
  sb_str(s, "expect ");
  switch (x->kind) {
  case TT_VEC_EX_LOC: fmt_loc(s, &x->loc); sb_str(s, " = "); fmt_value(s, &x->loc, x->value); break;
  case TT_VEC_EX_DONE: sb_chr(s, 't'); sb_dec(s, x->thread); sb_str(s, " done"); break;
  case TT_VEC_EX_BLOCKED: sb_chr(s, 't'); sb_dec(s, x->thread); sb_str(s, " blocked"); break;
  case TT_VEC_EX_DEADLOCK: sb_str(s, "deadlock"); break;
  case TT_VEC_EX_FAULT: {
    const char *n = tt_fault_class_name((unsigned)x->value);
    sb_chr(s, 't'); sb_dec(s, x->thread); sb_str(s, " fault "); sb_str(s, n ? n : "?");
    break;
  }
  case TT_VEC_EX_ISSUE:
    sb_chr(s, 't'); sb_dec(s, x->thread); sb_str(s, ".issue["); sb_dec(s, x->index);
    sb_str(s, "] = "); sb_dec(s, x->value);
    break;
  case TT_VEC_EX_CYCLES:
    sb_str(s, "cycles "); sb_str(s, cmp[x->cmp < 3 ? x->cmp : 0]); sb_chr(s, ' ');
    sb_dec(s, x->value);
    break;
  case TT_VEC_EX_HAZARD:
    sb_chr(s, 't'); sb_dec(s, x->thread); sb_str(s, ".hazard["); sb_dec(s, x->index);
    sb_str(s, "] = "); sb_str(s, tt_hazard_kind_name((unsigned)x->value));
    break;
  case TT_VEC_EX_HAZARDS: sb_str(s, "hazards = "); sb_dec(s, x->value); break;
  case TT_VEC_EX_ISSUED:
    sb_chr(s, 't'); sb_dec(s, x->thread); sb_str(s, ".issued = "); sb_dec(s, x->value);
    break;
  default: sb_str(s, "?"); break;
  }
}

size_t tt_vec_fmt_expect(char *buf, size_t n, const tt_vec_expect *x) {
  sb s;
  sb_init(&s, buf, n);
  fmt_expect(&s, x);
  return s.len;
}

size_t tt_vec_fmt_value(char *buf, size_t n, const tt_loc *loc, uint64_t v) {
  sb s;
  sb_init(&s, buf, n);
  fmt_value(&s, loc, v);
  return s.len;
}

static const char *outcome_name(unsigned o) {
  switch (o) {
  case TT_OUT_DONE: return "done";
  case TT_OUT_DEADLOCK: return "deadlock";
  case TT_OUT_BUDGET: return "budget exhausted";
  case TT_OUT_UNSUPPORTED_MODE: return "mode unsupported";
  default: return "?";
  }
}

static void fmt_thread_state(sb *s, const tt_state *st, const tt_vec *v, unsigned t) {
  char buf[120];
  const tt_thread *th = &st->c.thr[t];
  sb_str(s, "pc ");
  sb_dec(s, th->pc);
  sb_str(s, " of ");
  sb_dec(s, v->prog_len[t]);
  if (th->pc < v->prog_len[t]) {
    sb_str(s, " (line ");
    sb_dec(s, v->prog_line[t][th->pc]);
    sb_chr(s, ')');
  }
  buf[0] = 0;
  tt_describe_wait(st, t, buf, sizeof buf);
  buf[sizeof buf - 1] = 0;
  if (buf[0]) {
    sb_str(s, ", ");
    sb_str(s, buf);
  }
}

static void fmt_fault(sb *s, const tt_state *st, const tt_vec *v, unsigned t) {
  const tt_thread *th = &st->c.thr[t];
  const char *n = tt_fault_class_name(th->fault_class);
  sb_str(s, n ? n : "?");
  if (th->fault_class != TT_FAULT_NONE) {
    const char *why = tt_fault_code_text(th->fault_code);
    if (why) { sb_str(s, " ("); sb_str(s, why); sb_chr(s, ')'); }
    sb_str(s, " at instruction ");
    sb_dec(s, th->fault_pc);
    if (th->fault_pc < v->prog_len[t]) {
      sb_str(s, " (line ");
      sb_dec(s, v->prog_line[t][th->fault_pc]);
      sb_chr(s, ')');
    }
  }
}

static int is_host(const tt_loc *l) {
  return l->kind == TT_LOC_HOST_U8 || l->kind == TT_LOC_HOST_U16 || l->kind == TT_LOC_HOST_U32;
}

/* A host-port access the port refuses (vector-format.md: the vector fails with its reason). */
static int host_refused(tt_host_status s) {
  return s == TT_HOST_UNMAPPED || s == TT_HOST_READONLY || s == TT_HOST_BAD_SIZE;
}

/* One expectation being evaluated: each kind below sets actual (and expected, where the kind
 * has no value of its own), writes what it found after "EXPECT: " and says whether it holds. */
typedef struct ex_ctx {
  const tt_state *st;
  const tt_vec *v;
  const tt_vec_expect *x;
  tt_vec_result *res;
  tt_vec_check *ck;
  sb *s;
  uint64_t actual;
} ex_ctx;

static void fmt_run_ended(sb *s, const tt_vec_result *res, const char *unit) {
  sb_str(s, "actual run ended: ");
  sb_str(s, outcome_name(res->outcome));
  sb_str(s, " after ");
  sb_dec(s, res->steps);
  sb_str(s, unit);
}

static void fmt_hazard(sb *s, const char *sep, const tt_hazard *h) {
  sb_str(s, sep); sb_dec(s, h->thread); sb_str(s, ".hazard["); sb_dec(s, h->index);
  sb_str(s, "]="); sb_str(s, tt_hazard_kind_name(h->kind));
}

static int ex_loc(ex_ctx *c) {
  const tt_vec_expect *x = c->x;
  if (is_host(&x->loc)) {   /* a load through the port, after the run */
    uint32_t hv = 0;
    tt_host_status hs = tt_host_read(c->st, (tt_core_id)x->loc.sel, x->loc.index,
                                     tt_loc_width(&x->loc) / 8, &hv);
    if (host_refused(hs)) {
      sb_str(c->s, "host load refused: ");
      sb_str(c->s, tt_host_status_name(hs));
      return 0;
    }
    c->actual = hv;
  } else {
    c->actual = tt_loc_get(c->st, &x->loc);
  }
  sb_str(c->s, "actual ");
  fmt_value(c->s, &x->loc, c->actual);
  return c->actual == x->value;
}

static int ex_done(ex_ctx *c) {
  unsigned t = c->x->thread;
  c->actual = (uint64_t)tt_thread_done(c->st, t);
  c->ck->expected = 1;
  if (c->actual) { sb_str(c->s, "actual done"); return 1; }
  sb_str(c->s, "actual not done: ");
  fmt_thread_state(c->s, c->st, c->v, t);
  return 0;
}

static int ex_blocked(ex_ctx *c) {
  unsigned t = c->x->thread;
  c->actual = (uint64_t)tt_thread_blocked(c->st, t);
  c->ck->expected = 1;
  if (c->actual) { sb_str(c->s, "actual blocked: "); fmt_thread_state(c->s, c->st, c->v, t); return 1; }
  if (tt_thread_done(c->st, t)) { sb_str(c->s, "actual done"); return 0; }
  sb_str(c->s, "actual not blocked: ");
  fmt_thread_state(c->s, c->st, c->v, t);
  return 0;
}

static int ex_deadlock(ex_ctx *c) {
  c->actual = c->res->outcome;
  c->ck->expected = TT_OUT_DEADLOCK;
  fmt_run_ended(c->s, c->res, c->res->mode == TT_MODE_CYCLE ? " cycles" : " steps");
  return c->res->outcome == TT_OUT_DEADLOCK;
}

static int ex_fault(ex_ctx *c) {
  c->actual = c->st->c.thr[c->x->thread].fault_class;
  sb_str(c->s, "actual ");
  fmt_fault(c->s, c->st, c->v, c->x->thread);
  return c->actual == c->x->value;
}

static int ex_issued(ex_ctx *c) {
  c->actual = c->st->c.thr[c->x->thread].pc;
  int ok = c->actual == c->x->value;
  sb_str(c->s, "actual ");
  sb_dec(c->s, c->actual);
  if (!ok) { sb_str(c->s, " ("); fmt_thread_state(c->s, c->st, c->v, c->x->thread); sb_chr(c->s, ')'); }
  return ok;
}

static int ex_issue(ex_ctx *c) {
  uint64_t cyc = 0;
  c->ck->expected = c->x->value;
  if (tt_issue_cycle(c->st, c->x->thread, c->x->index, &cyc) != 0) {
    sb_str(c->s, "actual: instruction never issued (");
    fmt_thread_state(c->s, c->st, c->v, c->x->thread);
    sb_str(c->s, ")");
    return 0;
  }
  c->actual = cyc;
  sb_str(c->s, "actual ");
  sb_dec(c->s, cyc);
  return cyc == c->x->value;
}

static int ex_hazard(ex_ctx *c) {
  const tt_vec_expect *x = c->x;
  tt_hazard h;
  unsigned found = 0, n = tt_hazard_count(c->st);
  for (unsigned i = 0; i < n && tt_hazard_get(c->st, i, &h) == 0; i++)
    if (h.thread == x->thread && h.index == x->index && h.kind == x->value) found = 1;
  c->actual = found;
  c->ck->expected = 1;
  if (found) { sb_str(c->s, "reported"); return 1; }
  sb_str(c->s, "actual: not reported; hazards reported:");
  if (n == 0) sb_str(c->s, " none");
  for (unsigned i = 0; i < n && i < 4 && tt_hazard_get(c->st, i, &h) == 0; i++) fmt_hazard(c->s, " t", &h);
  return 0;
}

static int ex_hazards(ex_ctx *c) {
  tt_hazard h;
  c->actual = tt_hazard_count(c->st);
  int ok = c->actual == c->x->value;
  sb_str(c->s, "actual ");
  sb_dec(c->s, c->actual);
  for (unsigned i = 0; !ok && i < 4 && tt_hazard_get(c->st, i, &h) == 0; i++) fmt_hazard(c->s, i ? ", t" : ": t", &h);
  return ok;
}

static int ex_cycles(ex_ctx *c) {
  const tt_vec_expect *x = c->x;
  c->actual = tt_cycle_count(c->st);
  if (c->res->outcome != TT_OUT_DONE) {
    fmt_run_ended(c->s, c->res, " cycles");
    return 0;
  }
  sb_str(c->s, "actual ");
  sb_dec(c->s, c->actual);
  return x->cmp == TT_VEC_CMP_LE ? c->actual <= x->value
         : x->cmp == TT_VEC_CMP_GE ? c->actual >= x->value : c->actual == x->value;
}

static int cycle_only(tt_vec_expect_kind k) {
  return k == TT_VEC_EX_ISSUE || k == TT_VEC_EX_CYCLES || k == TT_VEC_EX_HAZARD || k == TT_VEC_EX_HAZARDS;
}

static void eval_expect(const tt_state *st, const tt_vec *v, const tt_vec_expect *x,
                        tt_vec_result *res, tt_vec_check *ck) {
  sb s;
  int ok = 0;
  ex_ctx c = {st, v, x, res, ck, &s, 0};
  sb_init(&s, ck->text, sizeof ck->text);
  fmt_expect(&s, x);
  sb_str(&s, ": ");
  ck->kind = x->kind;
  ck->line = x->line;
  ck->expected = x->value;
  ck->is_strict = 0;
  if (cycle_only(x->kind) && res->mode != TT_MODE_CYCLE) {
    ck->status = TT_VEC_CHECK_NOT_EVALUATED;
    sb_str(&s, "not evaluated (cycle mode only)");
    res->nnot_evaluated++;
    return;
  }
  switch (x->kind) {
  case TT_VEC_EX_LOC: ok = ex_loc(&c); break;
  case TT_VEC_EX_DONE: ok = ex_done(&c); break;
  case TT_VEC_EX_BLOCKED: ok = ex_blocked(&c); break;
  case TT_VEC_EX_DEADLOCK: ok = ex_deadlock(&c); break;
  case TT_VEC_EX_FAULT: ok = ex_fault(&c); break;
  case TT_VEC_EX_ISSUED: ok = ex_issued(&c); break;
  case TT_VEC_EX_ISSUE: ok = ex_issue(&c); break;
  case TT_VEC_EX_CYCLES: ok = ex_cycles(&c); break;
  case TT_VEC_EX_HAZARD: ok = ex_hazard(&c); break;
  case TT_VEC_EX_HAZARDS: ok = ex_hazards(&c); break;
  default: sb_str(&s, "unknown expectation kind"); break;
  }
  ck->actual = c.actual;
  ck->status = ok ? TT_VEC_CHECK_PASS : TT_VEC_CHECK_FAIL;
  if (ok) res->npass++;
  else res->nfail++;
}

/* ---- strict ---------------------------------------------------------------------------------- */
typedef struct strict_ctx {
  const tt_vec *v;
  const tt_state *a, *b;
  tt_vec_result *res;
} strict_ctx;

static int l1_bytes(const tt_loc *l, uint32_t *size) {
  if (l->kind == TT_LOC_L1_U8) *size = 1;
  else if (l->kind == TT_LOC_L1_U16) *size = 2;
  else if (l->kind == TT_LOC_L1_U32) *size = 4;
  else return 0;
  return 1;
}

static int covered(const tt_vec *v, const tt_loc *l, uint32_t byte_addr, int is_byte) {
  for (unsigned i = 0; i < v->nexpects; i++) {
    const tt_vec_expect *x = &v->expects[i];
    uint32_t sz;
    if (x->kind != TT_VEC_EX_LOC) continue;
    if (is_byte) {
      if (l1_bytes(&x->loc, &sz) && byte_addr >= x->loc.index && byte_addr - x->loc.index < sz)
        return 1;
    } else if (x->loc.kind == l->kind && x->loc.sel == l->sel && x->loc.index == l->index) {
      return 1;
    }
  }
  return 0;
}

static void strict_cb(void *vctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  strict_ctx *sc = vctx;
  tt_vec_result *res = sc->res;
  uint32_t size;
  int uncovered = 0;
  if (l1_bytes(loc, &size)) {
    for (uint32_t i = 0; i < size && !uncovered; i++) {
      uint32_t addr = loc->index + i;
      if (tt_l1_read(sc->a, addr, 1) != tt_l1_read(sc->b, addr, 1) && !covered(sc->v, loc, addr, 1))
        uncovered = 1;
    }
  } else {
    uncovered = !covered(sc->v, loc, 0, 0);
  }
  if (!uncovered) return;
  res->nstrict++;
  res->nfail++;
  if (res->nchecks >= sizeof res->checks / sizeof res->checks[0]) return;
  tt_vec_check *ck = &res->checks[res->nchecks++];
  sb s;
  ck->status = TT_VEC_CHECK_FAIL;
  ck->kind = TT_VEC_EX_LOC;
  ck->is_strict = 1;
  ck->line = 0;
  ck->expected = a;
  ck->actual = b;
  sb_init(&s, ck->text, sizeof ck->text);
  sb_str(&s, "strict: ");
  fmt_loc(&s, loc);
  sb_str(&s, " changed ");
  if (loc->kind == TT_LOC_MUTEX) {
    fmt_value(&s, loc, a);
    sb_str(&s, " -> ");
    fmt_value(&s, loc, b);
  } else {
    sb_hex(&s, a, 1);
    sb_str(&s, " -> ");
    sb_hex(&s, b, 1);
  }
  sb_str(&s, " but no expect names it");
}

static tt_vec_status run_error(tt_vec_result *res, unsigned line, const char *pre,
                               const char *name, const char *post) {
  sb s;
  res->status = TT_VEC_ERROR;
  res->err.line = line;
  res->err.col = 0;
  sb_init(&s, res->err.msg, sizeof res->err.msg);
  sb_str(&s, pre);
  sb_str(&s, name);
  sb_str(&s, post);
  return TT_VEC_ERROR;
}

/* The vector's knob: lines: 0, or -1 with res's error set. */
static int knobs_vector(tt_state *st, const tt_vec *v, tt_vec_result *res) {
  for (unsigned i = 0; i < v->nknobs; i++) {
    int r = tt_knob_set(st, v->knobs[i].name, v->knobs[i].value);
    if (r == -1) { run_error(res, v->knobs[i].line, "unknown knob ", v->knobs[i].name, ""); return -1; }
    if (r != 0) { run_error(res, v->knobs[i].line, "unknown value for knob ", v->knobs[i].name, ""); return -1; }
  }
  return 0;
}

/* The init lines, in file order: 0, or -1 with res's error set (a host store refused). */
static int apply_inits(tt_state *st, const tt_vec *v, tt_vec_result *res) {
  for (unsigned i = 0; i < v->ninits; i++) {
    const tt_vec_init *in = &v->inits[i];
    if (is_host(&in->loc)) {   /* a store through the port, in file order */
      tt_host_status hs = tt_host_write(st, (tt_core_id)in->loc.sel, in->loc.index,
                                        tt_loc_width(&in->loc) / 8, in->value);
      if (host_refused(hs))
        { run_error(res, in->line, "host store refused: ", tt_host_status_name(hs), ""); return -1; }
    } else if (in->loc.kind == TT_LOC_CFG && in->loc.index >= TT_CFG_GLOBAL_BASE) {
      tt_loc both = in->loc;   /* a global word: one value in both banks (vector-format.md) */
      for (unsigned b = 0; b < TT_CFG_BANK_COUNT; b++) { both.sel = (uint8_t)b; tt_loc_set(st, &both, in->value); }
    } else {
      tt_loc_set(st, &in->loc, in->value);
    }
  }
  return 0;
}

static int load_programs(tt_state *st, const tt_vec *v, tt_vec_result *res) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (v->prog_len[t] == 0) continue;
    if (tt_load_program(st, t, v->prog[t], v->prog_len[t]) != 0)
      { run_error(res, v->prog_line[t][0], "the model refused the program of thread ",
                       t == 0 ? "t0" : t == 1 ? "t1" : "t2", ""); return -1; }
  }
  return 0;
}

static void result_clear(tt_vec_result *res, tt_mode mode) {
  res->status = TT_VEC_SKIP;
  res->mode = (uint8_t)mode;
  res->outcome = TT_OUT_UNSUPPORTED_MODE;
  res->steps = 0;
  res->npass = res->nfail = res->nnot_evaluated = res->nstrict = res->nchecks = 0;
  res->nnot_comparable = 0;
  memset(&res->err, 0, sizeof res->err);
}

tt_vec_status tt_vec_run(tt_state *st, tt_state *scratch_initial, const tt_vec *v,
                         tt_mode mode, tt_vec_result *res) {
  tt_outcome out;
  result_clear(res, mode);
  if ((unsigned)mode > TT_MODE_CYCLE || !(v->modes & (1u << mode))) return TT_VEC_SKIP;
  int profile = v->profile_line ? tt_profile_by_name(v->profile) : 0;
  if (profile < 0) return run_error(res, v->profile_line, "the model has no profile ", v->profile, "");
  if (!tt_mode_available(mode)) return TT_VEC_SKIP;
  /* Knobs to the profile's values (parameters survive tt_reset), then the vector's on top. */
  if (tt_profile_apply(st, (unsigned)profile) != 0)
    return run_error(res, v->profile_line, "cannot apply profile ", tt_profile_name((unsigned)profile), "");
  if (tt_set_mode(st, mode) != 0) return TT_VEC_SKIP;
  if (knobs_vector(st, v, res) != 0) return TT_VEC_ERROR;
  tt_reset(st);
  if (apply_inits(st, v, res) != 0 || load_programs(st, v, res) != 0) return TT_VEC_ERROR;
  if (v->strict && scratch_initial) memcpy(scratch_initial, st, sizeof *st);

  out = tt_run(st, v->budget);
  res->outcome = (uint8_t)out;
  res->steps = st->c.steps;
  if (out == TT_OUT_UNSUPPORTED_MODE) return TT_VEC_SKIP;

  for (unsigned i = 0; i < v->nexpects; i++)
    eval_expect(st, v, &v->expects[i], res, &res->checks[res->nchecks++]);
  if (v->strict) {
    if (!scratch_initial) return run_error(res, 0, "strict vector run without a scratch state", "", "");
    strict_ctx sc = {v, scratch_initial, st, res};
    tt_state_diff(scratch_initial, st, strict_cb, &sc);
  }
  res->status = res->nfail ? TT_VEC_FAIL : TT_VEC_PASS;
  return (tt_vec_status)res->status;
}
