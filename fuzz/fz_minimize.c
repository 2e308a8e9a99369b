/* fz_minimize.c — `T --minimize IN OUT.vec` of the plain driver (driver.c; fuzz/README.md,
 * "Corpora and reproducers"): shrink a failing input at instruction granularity (NOP masking,
 * simpler operands, a cut of the prefix into init lines), then state what the invariant
 * required as .vec `expect` lines when one conformance run can state it, and write the
 * reproducer (checked to reproduce from its own text). Linked with driver.c only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "fz.h"
#include "vec.h"

/* ---- minimisation ------------------------------------------------------------------------------ */
static const char *g_name;
static fz_fail g_fail;
static unsigned g_tries;

/* With g_observable set, an input "still fails" only if its conformance form (build_expectations)
 * also fails on this model: minimisation then keeps what makes the finding visible in a .vec. */
static int g_observable, g_in_observe;
static int build_expectations(fz_prog *p, const char **why);

static int still_fails(const fz_prog *p) {
  g_tries++;
  if (fz_this_target.reports && g_name) {  /* witness targets: this name, not only the first */
    if (!fz_this_target.reports(p, g_name)) return 0;
    fz_this_target.check_prog(p, &g_fail);
    g_fail.name = g_name;
    return 1;
  }
  if (!(fz_this_target.check_prog(p, &g_fail) && strcmp(g_fail.name, g_name) == 0)) return 0;
  if (!g_observable || g_in_observe) return 1;
  static fz_prog q;
  const char *why = NULL;
  q = *p;
  g_in_observe = 1;
  int ok = build_expectations(&q, &why);
  g_in_observe = 0;
  fz_this_target.check_prog(p, &g_fail);  /* g_fail describes p again (callers read its round) */
  return ok;
}

static unsigned count_real(const fz_prog *p) {
  unsigned k = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) k += p->w[t][i] != FZ_NOP;
  return k;
}

static void nop_mask(fz_prog *p) {
  for (int pass = 0; pass < 4; pass++)
    if (!fz_nop_pass(p, still_fails)) break;
}

static void drop_nops(fz_prog *p) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = p->n[t]; i-- > 0;) {
      if (p->w[t][i] != FZ_NOP) continue;
      static fz_prog q;
      q = *p;
      fz_prog_drop_insn(&q, t, i);
      if (still_fails(&q)) *p = q;
    }
}

static void simplify_params(fz_prog *p) {
  for (uint32_t i = p->ninit; i-- > 0;) {
    static fz_prog q;
    q = *p;
    memmove(&q.init[i], &p->init[i + 1], sizeof q.init[0] * (p->ninit - i - 1));
    q.ninit = p->ninit - 1;
    if (still_fails(&q)) *p = q;
  }
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) {
    unsigned v = fz_knob_get(p, k);
    if (!v) continue;
    fz_knob_put(p, k, 0);
    if (!still_fails(p)) fz_knob_put(p, k, v);
  }
  if (p->budget) {
    uint16_t b = p->budget;
    p->budget = 0;
    if (!still_fails(p)) p->budget = b;
  }
  if (p->flags) {
    uint8_t fl = p->flags;
    p->flags = 0;
    if (!still_fails(p)) p->flags = fl;
  }
}

/* Prefix cut: the state at the start of round r becomes init lines, the programs their
 * suffixes. Only states that init lines can express (no latch, no mutex hand-over pending). */
static tt_state cut_st, cut_ref;
static int cut_at(const fz_prog *p, uint64_t r, fz_prog *out) {
  fz_setup(&cut_st, p);
  for (uint64_t k = 0; k < r; k++) tt_step(&cut_st);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (cut_st.c.thr[t].latch.op != TT_LATCH_NONE) return 0;
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++)
    if (cut_st.c.mutex_handoff[i]) return 0;
  fz_prog_clear(out);
  memcpy(out->knob, p->knob, sizeof out->knob);
  out->flags = p->flags;
  fz_setup(&cut_ref, out);  /* reset state with the same knobs */
  if (!fz_cut_rest(p, &cut_ref, &cut_st, 0, out)) return 0;  /* what init cannot set: left out */
  if (p->budget) {
    if (p->budget <= r) return 0;
    out->budget = (uint16_t)(p->budget - r);
  }
  return 1;
}

static uint64_t cut_prefix(fz_prog *p) {
  static fz_prog q;
  if (!still_fails(p) || !g_fail.has_round) return 0;
  uint64_t R = g_fail.round;
  for (uint64_t r = R; r >= 1; r--)
    if (cut_at(p, r, &q) && still_fails(&q)) { *p = q; return r; }
  return 0;
}

static const char *describe(const char *name) {
  static const struct { const char *n, *d; } t[] = {
      {"banked_writes", "a Config write from a thread on bank S changes only bank S below index 180; at >= 180 both banks identically"},
      {"default_mask", "a latch installed from a zero block mask holds B6 (0x040), from a zero STALLWAIT condition mask 0x0F"},
      {"semaphore_bounds", "semaphore Value and Max stay in 0..15; SEMPOST never passes 15, SEMGET never goes below 0"},
      {"mutex_ownership", "only ATGETM takes a free mutex; only its holder's ATRELM frees it"},
      {"thread_isolation", "a thread's instruction changes only its own GPRs and ThreadConfig"},
      {"deadlock_soundness", "a reported deadlock admits no progress; a run that stops without one finished or hit its budget"},
      {"budget_respected", "tt_run(budget) takes at most budget rounds"},
      {"determinism", "run, reset, run again gives the same outcome and state digest"},
      {"reset_equivalence", "tt_reset after any program equals a fresh tt_init, byte for byte"},
      {"roundtrip_text", "tt_asm_insn(tt_disasm(w)) == w in every style"},
      {"roundtrip_fields", "word -> fields -> word gives the word without its reserved bits"},
      {"parser_error_position", "a rejected text names its LINE:COL and a message"},
      {"dut_outcome", "the implementation under test ends the run as the model does (done/deadlock/budget, per-thread done, blocked, issued)"},
      {"dut_fault", "the implementation under test records the model's first fault per thread"},
      {"dut_state", "the implementation under test ends in the model's state at every location it can read"},
      {"dut_cycles", "the implementation under test takes the model's cycles and issue cycles"},
      {"dut_amb", "a divergence that one knob value of the model reproduces: a witness of that ambiguity"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(t[i].n, name) == 0) return t[i].d;
  return "?";
}

/* ---- expectations: what the invariant required, as .vec `expect` lines -------------------- */
static fz_expect g_ex[FZ_MAX_EXPECT];
static unsigned g_nex;
static const char *g_req_note = "";
static char g_fail_lines[2048];
static tt_state vec_st, vec_init;

static const char *why_default(const char *name) {
  static const struct { const char *n, *why; } t[] = {
      {"reset_equivalence", "a property of tt_reset between two runs; a conformance run starts from reset once"},
      {"determinism", "a property of two runs of one program (run, reset, run again); one conformance run cannot tell which result is right"},
      {"roundtrip_text", "a property of the encoder, disassembler and assembler, not of a run"},
      {"roundtrip_fields", "a property of the decoder and encoder, not of a run"},
      {"parser_error_position", "a property of the text parsers, not of a run"},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(t[i].n, name) == 0) return t[i].why;
  return "the invariant does not state a required end state";
}

static void add_ex(unsigned kind, unsigned thread, const tt_loc *loc, uint32_t value) {
  if (g_nex >= FZ_MAX_EXPECT) return;
  fz_expect *e = &g_ex[g_nex++];
  memset(e, 0, sizeof *e);
  e->kind = (uint8_t)kind;
  e->thread = (uint8_t)thread;
  if (loc) e->loc = *loc;
  e->value = value;
}

static void diff_expect_cb(void *ctx, const tt_loc *loc, uint32_t want, uint32_t got) {
  (void)ctx; (void)got;
  add_ex(FZ_EX_LOC, 0, loc, want);
}

/* Thread end states by the documented progress rule, stepping the model itself but judging
 * progress independently of its answer: a round in which no thread issued (pc unchanged) and
 * no latch was forgotten is a fixed point. Returns 0 when the run ends by its budget. */
static int progress_oracle(const fz_prog *p) {
  uint64_t limit = p->budget ? p->budget : TT_VEC_DEFAULT_BUDGET;
  fz_setup(&cut_st, p);
  for (uint64_t r = 0; r < limit; r++) {
    int all = 1, moved = 0;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) all &= tt_thread_done(&cut_st, t);
    if (all) break;
    uint32_t pc[TT_THREAD_COUNT];
    unsigned op[TT_THREAD_COUNT];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      pc[t] = cut_st.c.thr[t].pc;
      op[t] = cut_st.c.thr[t].latch.op;
    }
    tt_step(&cut_st);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      moved |= cut_st.c.thr[t].pc != pc[t] ||
               (op[t] != TT_LATCH_NONE && cut_st.c.thr[t].latch.op == TT_LATCH_NONE);
    if (!moved) {
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
        if (p->n[t]) add_ex(tt_thread_done(&cut_st, t) ? FZ_EX_DONE : FZ_EX_BLOCKED, t, NULL, 0);
      add_ex(FZ_EX_DEADLOCK, 0, NULL, 0);
      return 1;
    }
  }
  int all = 1;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) all &= tt_thread_done(&cut_st, t);
  if (!all) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (p->n[t]) add_ex(FZ_EX_DONE, t, NULL, 0);
  return 1;
}

/* The smallest budget B at which tt_run(B) leaves a state different from B rounds stepped one
 * by one (what the invariant requires): the reproducer gets `budget: B` and the B-round values. */
static int budget_expectations(fz_prog *p) {
  uint64_t most = 4u * (uint64_t)fz_total(p) + 16u;
  if (most > 0xFFFF) most = 0xFFFF;
  for (uint64_t b = 1; b <= most; b++) {
    fz_setup(&cut_ref, p);
    for (uint64_t k = 0; k < b; k++) {
      int all = 1;
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) all &= tt_thread_done(&cut_ref, t);
      if (all || !tt_step(&cut_ref)) break;
    }
    fz_setup(&cut_st, p);
    tt_run(&cut_st, b);
    g_nex = 0;
    tt_state_diff(&cut_ref, &cut_st, diff_expect_cb, NULL);
    if (g_nex) { p->budget = (uint16_t)b; return 1; }
  }
  return 0;
}

static size_t expect_text(char *out, size_t n) {
  size_t k = 0;
  char loc[64];
  static const char *const who[4] = {"none", "t0", "t1", "t2"};
  k += (size_t)snprintf(out + k, n > k ? n - k : 0, "# required by %s:\n", g_name);
  for (unsigned i = 0; i < g_nex; i++) {
    const fz_expect *e = &g_ex[i];
    char *o = out + (k < n ? k : n);
    size_t left = n > k ? n - k : 0;
    switch (e->kind) {
    case FZ_EX_LOC:
      tt_loc_format(&e->loc, loc, sizeof loc);
      if (e->loc.kind == TT_LOC_MUTEX) k += (size_t)snprintf(o, left, "expect %s = %s\n", loc, who[e->value & 3u]);
      else k += (size_t)snprintf(o, left, "expect %s = 0x%X\n", loc, (unsigned)e->value);
      break;
    case FZ_EX_DONE: k += (size_t)snprintf(o, left, "expect t%u done\n", e->thread); break;
    case FZ_EX_BLOCKED: k += (size_t)snprintf(o, left, "expect t%u blocked\n", e->thread); break;
    case FZ_EX_FAULT:
      k += (size_t)snprintf(o, left, "expect t%u fault %s\n", e->thread, tt_fault_class_name(e->value));
      break;
    default: k += (size_t)snprintf(o, left, "expect deadlock\n"); break;
    }
  }
  return k;
}

/* Run a vector text on this build's model (func mode); its failed expectations go to
 * g_fail_lines as comment lines. */
static tt_vec_status vec_check(const char *text) {
  static tt_vec v;
  static tt_vec_result res;
  tt_vec_error e;
  static int ready;
  if (!ready) { tt_init(&vec_st); ready = 1; }
  g_fail_lines[0] = 0;
  if (tt_vec_parse(text, strlen(text), &v, &e) != 0) {
    fprintf(stderr, "minimize: written vector does not parse: line %u: %s\n", e.line, e.msg);
    return TT_VEC_ERROR;
  }
  tt_vec_status st = tt_vec_run(&vec_st, &vec_init, &v, TT_MODE_FUNC, &res);
  size_t k = 0;
  for (unsigned i = 0; i < res.nchecks && k + 8 < sizeof g_fail_lines; i++)
    if (res.checks[i].status == TT_VEC_CHECK_FAIL)
      k += (size_t)snprintf(g_fail_lines + k, sizeof g_fail_lines - k, "#   %s\n", res.checks[i].text);
  return st;
}

/* Turn g_fail's requirement into g_ex[] for program p (which may be cut or get a budget).
 * Returns 1 when the reproducer can be a conformance vector that fails on this model. */
static int build_expectations(fz_prog *p, const char **why) {
  static fz_prog q;
  static char text[1 << 17];
  g_nex = 0;
  still_fails(p);
  switch (g_fail.req) {
  case FZ_REQ_AFTER_ROUND:
    /* end every stream with the failing round, so the required values are the end state */
    q = *p;
    fz_setup(&cut_st, p);
    for (uint64_t k = 0; k <= g_fail.round; k++) tt_run(&cut_st, 1);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      if (cut_st.c.thr[t].pc < q.n[t]) q.n[t] = cut_st.c.thr[t].pc;
    if (still_fails(&q) && g_fail.req == FZ_REQ_AFTER_ROUND) *p = q;
    still_fails(p);
    for (unsigned i = 0; i < g_fail.nexpect; i++) g_ex[g_nex++] = g_fail.expect[i];
    g_req_note = "the values the invariant allowed once the failing round was over; the streams end with that round";
    break;
  case FZ_REQ_PROGRESS:
    if (!progress_oracle(p)) { *why = "the run ends by its budget, so no end state is required"; return 0; }
    g_req_note = "the thread end states by the documented progress rule: a round that neither issues nor forgets a latch ends the run";
    break;
  case FZ_REQ_BUDGET:
    if (!budget_expectations(p)) { *why = "no budget at which the extra round changes a location"; return 0; }
    g_req_note = "the state after exactly `budget` rounds";
    break;
  default:
    *why = g_fail.req_why[0] ? g_fail.req_why : why_default(g_name);
    return 0;
  }
  if (!g_nex) { *why = "the invariant recorded no required value"; return 0; }
  size_t len = fz_prog_to_vec(p, "check", NULL, text, sizeof text);
  if (!len) { *why = "too long"; return 0; }
  expect_text(text + len, sizeof text - len);
  if (fz_this_target.fails_elsewhere) {
    /* dut_diff: the expectations are this model's own end state; the vector must pass here
     * and fail on the implementation under test */
    if (vec_check(text) != TT_VEC_PASS) { *why = "the model's own end state does not pass as a vector"; return 0; }
    if (!fz_this_target.fails_elsewhere(text, g_fail_lines, sizeof g_fail_lines)) {
      *why = "the vector passes on the implementation under test too";
      return 0;
    }
    return 1;
  }
  /* the expectations must fail on this model, or the file would print ok on the bug */
  if (vec_check(text) != TT_VEC_FAIL) {
    *why = "the required values hold at the end of the run on this model too (a later round hides the wrong value)";
    return 0;
  }
  return 1;
}

/* The finding to minimise, as a program: 0, or 2 (told) when it cannot be read. */
static int load_finding(const char *in_path, fz_prog *p) {
  const fz_target *T = &fz_this_target;
  size_t n = 0;
  uint8_t *d = fz_read_file(in_path, &n);
  if (!d) { fprintf(stderr, "minimize: cannot read %s\n", in_path); return 2; }
  if (!T->check_prog) { fprintf(stderr, "minimize: %s inputs are kept as they are\n", T->name); free(d); return 2; }
  if (T->program_input || (fz_is_vec_text(in_path) && fz_prog_from_vec((const char *)d, n, p) == 0)) {
    fz_load_prog(in_path, d, n, p);
  } else {  /* decode_roundtrip raw input: its words, as thread 0's program */
    fz_prog_clear(p);
    for (size_t i = 0; i + 4 <= n && p->n[0] < FZ_MAX_INSN; i += 4)
      p->w[0][p->n[0]++] = (uint32_t)d[i] | (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 |
                           (uint32_t)d[i + 3] << 24;
  }
  free(d);
  return 0;
}

/* One pass of reductions that keep the finding; returns the rounds cut. */
static uint64_t reduce(fz_prog *p) {
  if (!fz_this_target.program_input) {  /* a word target: the one word that still fails */
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      for (uint32_t i = 0; i < p->n[t]; i++) {
        static fz_prog one;
        fz_prog_clear(&one);
        one.n[0] = 1;
        one.w[0][0] = p->w[t][i];
        if (still_fails(&one)) { *p = one; return 0; }
      }
    return 0;
  }
  nop_mask(p);
  simplify_params(p);
  uint64_t cut = cut_prefix(p);
  nop_mask(p);
  drop_nops(p);
  simplify_params(p);
  return cut;
}

/* Minimise p (a copy of orig); sets *cut and *why, returns whether the expectations state the
 * finding (a conformance reproducer). */
static int shrink(fz_prog *p, const fz_prog *orig, uint64_t *cut, const char **why) {
  const fz_target *T = &fz_this_target;
  for (;;) {  /* at most twice: g_observable is set before the second pass */
    *cut = reduce(p);
    *why = NULL;
    int conformance = build_expectations(p, why);
    if (conformance || g_observable || !T->program_input ||
        !(g_fail.req == FZ_REQ_AFTER_ROUND || g_fail.req == FZ_REQ_PROGRESS || g_fail.req == FZ_REQ_BUDGET))
      return conformance;
    /* the smallest input hides the wrong value at the end of the run: minimise again from the
     * finding, keeping only reductions whose conformance form still fails on this model */
    static fz_prog q;
    const char *why2 = NULL;
    q = *orig;
    if (!(still_fails(&q) && build_expectations(&q, &why2))) {
      still_fails(p);
      return conformance;
    }
    g_observable = 1;
    *p = *orig;
  }
}

/* The reproducer's header: what was found, how it was minimised, how to use the file. */
static void minimize_header(char *header, size_t cap, const fz_prog *p, unsigned before, uint64_t cut,
                            int conformance, const char *why) {
  const fz_target *T = &fz_this_target;
  size_t h = 0;
#define HDR(...) (h += (size_t)snprintf(header + h, cap - h, __VA_ARGS__))
  HDR("# Reproducer of a fuzz finding, written by fuzz/triage.sh (`%s --minimize`;\n"
      "# fuzz/README.md, \"Corpora and reproducers\").\n"
      "# target: %s\n# open: %s\n# INVARIANT %s: %s\n# invariant: %s\n",
      T->name, T->name, g_name, g_name, g_fail.msg, describe(g_name));
  if (g_fail.detail[0]) {
    HDR("# happened:\n");
    for (const char *s = g_fail.detail; *s && h + 8 < cap;) {
      const char *nl = strchr(s, '\n');
      size_t len = nl ? (size_t)(nl - s) : strlen(s);
      HDR("#   %.*s\n", (int)len, s);
      s += len + (nl ? 1 : 0);
    }
  }
  HDR("# minimized: %u -> %u instructions (%u not NOP)%s", before, fz_total(p), count_real(p), cut ? "" : "\n");
  if (cut) HDR("; the first %llu rounds replaced by the init lines (the state they left)\n", (unsigned long long)cut);
  if (conformance && T->fails_elsewhere)
    HDR("# The expect lines are the model's own end state (%s).\n"
        "# This file passes on the model (make conformance VEC=<this file>) and fails on\n"
        "# the implementation under test (ttconf --dut ...), checked when it was written:\n%s",
        g_req_note, g_fail_lines);
  else if (conformance)
    HDR("# The expect lines state what the invariant required (%s).\n"
        "# This file fails on the model the finding came from (checked when it was\n"
        "# written) and passes once the bug is fixed:  make conformance VEC=<this file>\n"
        "# On the model it was found on:\n%s",
        g_req_note, g_fail_lines);
  else
    HDR("# Replay only (.fzvec): no conformance expectation can state this finding:\n"
        "#   %s.\n"
        "# Reproduce: build/replay/%s <this file>  (reports INVARIANT %s while the bug is there)\n",
        why, T->name, g_name);
  HDR("# While the `open:` line is present, `make test` expects the invariant to still\n"
      "# fire; delete that line with the fix (the file then guards against a regression).\n");
#undef HDR
}

/* The written text must reproduce the finding, and its expectations hold where they should:
 * 0, or 2 (told). */
static int minimize_verify(const char *text, int conformance) {
  const fz_target *T = &fz_this_target;
  static fz_prog back;
  if (fz_prog_from_vec(text, strlen(text), &back) != 0 || !still_fails(&back)) {
    fprintf(stderr, "minimize: the written .vec does not reproduce %s\n", g_name);
    return 2;
  }
  if (conformance && T->fails_elsewhere) {
    static char lines[2048];
    if (vec_check(text) != TT_VEC_PASS || !T->fails_elsewhere(text, lines, sizeof lines)) {
      fprintf(stderr, "minimize: the written .vec does not pass on the model and fail on the implementation\n");
      return 2;
    }
  } else if (conformance && vec_check(text) != TT_VEC_FAIL) {
    fprintf(stderr, "minimize: the written .vec does not fail its expectations\n");
    return 2;
  }
  return 0;
}

int fz_minimize(const char *in_path, const char *out_path) {
  const fz_target *T = &fz_this_target;
  static fz_prog p, orig;
  static char header[8192], text[1 << 17], name_buf[64];
  if (load_finding(in_path, &p) != 0) return 2;
  if (!T->check_prog(&p, &g_fail)) { printf("ok\n"); return 1; }
  snprintf(name_buf, sizeof name_buf, "%s", g_fail.name);
  g_name = name_buf;
  unsigned before = fz_total(&p);
  uint64_t cut = 0;
  const char *why = NULL;
  orig = p;
  int conformance = shrink(&p, &orig, &cut, &why);
  minimize_header(header, sizeof header, &p, before, cut, conformance, why);
  char vname[160];
  snprintf(vname, sizeof vname, "fuzz finding %s: %s", T->name, g_name);
  size_t len = fz_prog_to_vec(&p, vname, header, text, sizeof text);
  if (!len) { fprintf(stderr, "minimize: too long\n"); return 2; }
  if (conformance) {
    size_t m = expect_text(text + len, sizeof text - len);
    if (len + m >= sizeof text) { fprintf(stderr, "minimize: too long\n"); return 2; }
  }
  if (minimize_verify(text, conformance) != 0) return 2;
  FILE *o = fopen(out_path, "w");
  if (!o) { perror(out_path); return 2; }
  fputs(text, o);
  fclose(o);
  printf("%s\t%s\n", g_name, conformance ? "conformance" : "replay-only");
  fprintf(stderr, "minimize: %s: %u -> %u instructions in %u runs, %llu rounds cut; %s\n", g_name,
          before, fz_total(&p), g_tries, (unsigned long long)cut,
          conformance ? "expect lines written" : why);
  return 0;
}
