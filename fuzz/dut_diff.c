/* dut_diff.c — the model against an implementation under test (conformance/ttdut.h), on
 * generated programs restricted to what the implementation declares it accepts.
 *
 *   dut_outcome  the run ended differently: done / deadlock / budget, or a thread done or
 *                blocked on one side only, or a different number of instructions issued; or
 *                the implementation failed (crashed, hung, broke the line protocol)
 *   dut_fault    a thread's first fault differs (class, or faulted at all when the
 *                implementation reports no classes)
 *   dut_state    an end-state location differs: GPRs, Config, ThreadConfig, semaphores,
 *                mutexes, event counters, every L1/MMIO word the model wrote (each only where
 *                the implementation can read it)
 *   dut_cycles   cycle mode (FZ_F_CYCLE inputs, when the implementation reports cycles): the
 *                run's cycle count or an instruction's issue cycle differs
 *   dut_amb      any of the above, where one knob value of the model reproduces the other
 *                side's end state: a witness of a documented ambiguity (its AMB id is in the
 *                message), not a bug of either side
 *
 * With TTDUT_COLLECT=DIR a divergence is recorded instead of reported: the first inputs of each
 * kind (invariant and, for dut_state, the kind of location) are written to DIR as
 * KIND-N.bin and the campaign goes on, so that one campaign finds every class it can
 * (make dut-report minimises and groups them).
 *
 * The implementation: the shared object named by the environment variable TTDUT (ttconf
 * --dut), or the command in TTDUT_CMD (ttconf --dut-cmd; slow: a process round trip per
 * request); TTDUT_ARGS is given to the shared object's open (ttconf --dut-args). Without either,
 * the model itself through the interface (the plumbing check: it
 * can never fire). Every divergence records what the model says as expectations, so the
 * minimiser writes a .vec that passes on the model and fails on the implementation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fz.h"
#include "dut_check.h"
#include "dut_model.h"
#include "dut_proc.h"

static const char *const invariants[] = {"dut_outcome", "dut_fault", "dut_state", "dut_cycles",
                                         "dut_amb", NULL};

static tt_state st, alt;
static const uint8_t *g_raw;      /* the input bytes being checked (for TTDUT_COLLECT) */
static size_t g_raw_n;
static const char *g_collect;     /* TTDUT_COLLECT */
#define COLLECT_KINDS 64
#define COLLECT_PER_KIND 4
static struct { char key[48]; unsigned n; } g_kinds[COLLECT_KINDS];
static dutc g_dut;
static int ready;
static unsigned long long n_inputs, n_dropped, n_compared;

FZ_BOOKKEEPING static void init(void) {
  char why[256] = "";
  const char *so = getenv("TTDUT"), *cmd = getenv("TTDUT_CMD"), *args = getenv("TTDUT_ARGS");
  const ttdut_ops *ops;
  if (ready) return;
  tt_init(&st);
  tt_init(&alt);
  ops = so && *so ? dutc_load_so(so, why, sizeof why) : cmd && *cmd ? dut_proc_ops() : ttdut_model_ops();
  if (!ops || dutc_open(&g_dut, ops, cmd && *cmd && !(so && *so) ? cmd : args ? args : "", why, sizeof why) != 0) {
    fprintf(stderr, "dut_diff: cannot open the implementation %s: %s\n", so ? so : cmd ? cmd : "model", why);
    exit(2);
  }
  g_collect = getenv("TTDUT_COLLECT");
  if (g_collect && !*g_collect) g_collect = NULL;
  fprintf(stderr, "dut_diff: implementation under test: %s%s%s\n", g_dut.caps.name,
          g_dut.caps.notes[0] ? " — " : "", g_dut.caps.notes);
  ready = 1;
}

/* ---- the program, restricted to what the implementation accepts ------------------------- */
typedef struct dprog {
  fz_prog p;            /* words it refuses and inits it cannot set dropped; knobs it lacks 0 */
  uint32_t mode;
} dprog;

FZ_BOOKKEEPING static void restrict_prog(const fz_prog *in, dprog *d) {
  char why[64];
  d->p = *in;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < in->n[t]; k++)
      if (g_dut.ops->accepts(g_dut.d, in->w[t][k], why, sizeof why) == TTDUT_OK) d->p.w[t][n++] = in->w[t][k];
      else n_dropped++;
    d->p.n[t] = n;
  }
  uint32_t ni = 0;
  for (uint32_t i = 0; i < in->ninit; i++)
    if (g_dut.caps.can_set & (1u << in->init[i].loc.kind)) d->p.init[ni++] = in->init[i];
  d->p.ninit = ni;
  if (!(g_dut.caps.flags & TTDUT_CAP_KNOBS)) memset(d->p.knob, 0, sizeof d->p.knob);
  d->mode = (in->flags & FZ_F_CYCLE) && (g_dut.caps.modes & 2) && (g_dut.caps.flags & TTDUT_CAP_CYCLES)
                ? TTDUT_MODE_CYCLE : TTDUT_MODE_FUNC;
  if (!(g_dut.caps.modes & (1u << d->mode))) d->mode = TTDUT_MODE_CYCLE;
}

/* The vector format's starting state: knobs, init records (a global Config word in both
 * banks), programs. */
FZ_BOOKKEEPING static void model_setup(tt_state *s, const dprog *d, const uint8_t *knob) {
  tt_reset(s);
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) s->p.knob[k] = knob[k];
  tt_set_mode(s, (tt_mode)d->mode);
  tt_reset(s);
  for (uint32_t i = 0; i < d->p.ninit; i++) {
    tt_loc l = d->p.init[i].loc;
    unsigned banks = l.kind == TT_LOC_CFG && l.index >= TT_CFG_GLOBAL_BASE ? 2 : 1;
    for (unsigned b = 0; b < banks; b++) {
      if (banks == 2) l.sel = (uint8_t)b;
      tt_loc_set(s, &l, d->p.init[i].value);
    }
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) tt_load_program(s, t, d->p.w[t], d->p.n[t]);
}

FZ_BOOKKEEPING static int dut_setup_on(dutc *x, const dprog *d, int trace, char *why, size_t n) {
  ttdut_knob k[TT_KNOB_COUNT + 1];
  uint32_t nk = 0;
  for (unsigned i = 0; i < TT_KNOB_COUNT; i++) {
    if (!d->p.knob[i]) continue;
    const char *vals = tt_knob_values(i);
    static char buf[TT_KNOB_COUNT][48];
    unsigned idx = 0;
    size_t o = 0;
    for (const char *c = vals; *c && o + 1 < sizeof buf[i]; c++) {
      if (*c == '|') { idx++; continue; }
      if (idx == d->p.knob[i]) buf[i][o++] = *c;
    }
    buf[i][o] = 0;
    k[nk].name = tt_knob_name(i);
    k[nk].value = buf[i];
    nk++;
  }
  if (trace) k[nk++] = (ttdut_knob){TTDUT_KNOB_TRACE, "on"};
  int r = x->ops->reset(x->d, d->mode, k, nk, why, n);
  if (r != TTDUT_OK) return r == TTDUT_ERROR ? -2 : -1;
  for (uint32_t i = 0; i < d->p.ninit; i++) {
    ttdut_loc l = {d->p.init[i].loc.kind, d->p.init[i].loc.sel, d->p.init[i].loc.index};
    unsigned banks = l.kind == TTDUT_LOC_CFG && l.index >= TT_CFG_GLOBAL_BASE ? 2 : 1;
    for (unsigned b = 0; b < banks; b++) {
      if (banks == 2) l.sel = b;
      if ((r = x->ops->set(x->d, &l, d->p.init[i].value, why, n)) != TTDUT_OK) return r == TTDUT_ERROR ? -2 : -1;
    }
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if ((r = x->ops->load(x->d, t, d->p.w[t], d->p.n[t], why, n)) != TTDUT_OK) return r == TTDUT_ERROR ? -2 : -1;
  return 0;
}

/* 0 ready; -1 the implementation cannot run this program (not comparable); -2 it failed. */
FZ_BOOKKEEPING static int dut_setup(const dprog *d, char *why, size_t n) {
  return dut_setup_on(&g_dut, d, 0, why, n);
}

/* ---- where the two part: the first instruction whose execution records differ ------------ */
#define TRACE_MAX 4096
static ttdut_trace_rec g_tr_model[TRACE_MAX], g_tr_dut[TRACE_MAX];

FZ_BOOKKEEPING static void fmt_writes(const ttdut_trace_rec *r, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < r->nwrites && i < TTDUT_TRACE_WRITES && k + 40 < n; i++) {
    char lb[48];
    dutc_fmt_loc(&r->loc[i], lb, sizeof lb);
    k += (size_t)snprintf(buf + k, n - k, "%s%s=0x%X", i ? " " : "", lb, r->value[i]);
  }
  if (!r->nwrites) snprintf(buf, n, "nothing");
}

/* With an implementation that records traces (TTDUT_CAP_TRACE), run the program on both with
 * tracing and name the first executed instruction whose record (thread, index, word, what it
 * wrote) differs: where the two implementations part. */
FZ_BOOKKEEPING static void first_parting(const dprog *d, fz_fail *f) {
  static dutc ref;
  static int ref_open;
  char why[160];
  ttdut_result r;
  if (!(g_dut.caps.flags & TTDUT_CAP_TRACE) || !g_dut.ops->trace) return;
  if (!ref_open) {
    if (dutc_open(&ref, ttdut_model_ops(), "", why, sizeof why) != 0) return;
    ref_open = 1;
  }
  if (dut_setup_on(&ref, d, 1, why, sizeof why) != 0 || dut_setup_on(&g_dut, d, 1, why, sizeof why) != 0) return;
  uint64_t budget = fz_budget(&d->p);
  ref.ops->run(ref.d, budget, &r);
  g_dut.ops->run(g_dut.d, budget, &r);
  uint32_t nm = ref.ops->trace(ref.d, g_tr_model, TRACE_MAX), nd = g_dut.ops->trace(g_dut.d, g_tr_dut, TRACE_MAX);
  if (nm > TRACE_MAX) nm = TRACE_MAX;
  if (nd > TRACE_MAX) nd = TRACE_MAX;
  for (uint32_t i = 0; i < nm || i < nd; i++) {
    const ttdut_trace_rec *a = i < nm ? &g_tr_model[i] : NULL, *b = i < nd ? &g_tr_dut[i] : NULL;
    int same = a && b && a->thread == b->thread && a->index == b->index && a->nwrites == b->nwrites;
    for (uint32_t w = 0; same && w < a->nwrites && w < TTDUT_TRACE_WRITES; w++)
      same = memcmp(&a->loc[w], &b->loc[w], sizeof a->loc[w]) == 0 && a->value[w] == b->value[w];
    if (same) continue;
    char wa[200], wb[200];
    if (a) fmt_writes(a, wa, sizeof wa);
    if (b) fmt_writes(b, wb, sizeof wb);
    const ttdut_trace_rec *x = a ? a : b;
    fz_detailf(f, "first instruction where the two part (execution record %u): t%u instruction %u (0x%08X)\n"
               "  model wrote: %s\n  implementation %s%s\n", i, x->thread, x->index, x->word,
               a ? wa : "(no more instructions)", b ? (b->thread == x->thread && b->index == x->index ? "wrote: " : "executed instead ") : "executed no more instructions",
               b ? wb : "");
    return;
  }
}

/* ---- comparison ------------------------------------------------------------------------- */
typedef struct loclist { unsigned n; tt_loc loc[4096]; } loclist;
static loclist g_locs;

FZ_BOOKKEEPING static void add_loc(uint8_t kind, uint8_t sel, uint32_t index) {
  if (!(g_dut.caps.can_get & (1u << kind)) || g_locs.n >= 4096) return;
  tt_loc *l = &g_locs.loc[g_locs.n++];
  l->kind = kind;
  l->sel = sel;
  l->index = index;
}

/* Every register location, and the L1/MMIO words the model wrote. */
FZ_BOOKKEEPING static void collect_locs(const tt_state *s) {
  g_locs.n = 0;
  for (unsigned t = 0; t < 3; t++)
    for (unsigned i = 0; i < TT_GPR_COUNT; i++) add_loc(TT_LOC_GPR, (uint8_t)t, i);
  for (unsigned b = 0; b < 2; b++)
    for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++) add_loc(TT_LOC_CFG, (uint8_t)b, i);
  for (unsigned t = 0; t < 3; t++)
    for (unsigned i = 0; i < TT_TCFG_WORD_COUNT; i++) add_loc(TT_LOC_TCFG, (uint8_t)t, i);
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) { add_loc(TT_LOC_SEM_VALUE, 0, i); add_loc(TT_LOC_SEM_MAX, 0, i); }
  static const unsigned mx[4] = {0, 2, 3, 4};
  for (unsigned i = 0; i < 4; i++) add_loc(TT_LOC_MUTEX, 0, mx[i]);
  add_loc(TT_LOC_PRNG_RESEEDS, 0, 0);
  for (unsigned i = 0; i < 5; i++) add_loc(TT_LOC_IC_INVALIDATES, 0, i);
  for (unsigned t = 0; t < 3; t++) { add_loc(TT_LOC_CTX_RESETS, (uint8_t)t, 0); add_loc(TT_LOC_CTX_RESETS, (uint8_t)t, 1); }
  for (unsigned i = 0; i < s->c.l1_dirty_count; i++)
    for (unsigned w = 0; w < 64; w += 4) add_loc(TT_LOC_L1_U32, 0, ((uint32_t)s->l1_dirty_list[i] << 6) + w);
  for (unsigned i = 0; i < s->c.mmio_dirty_count; i++)
    for (unsigned w = 0; w < 64; w += 4) {
      uint32_t a = TT_MMIO_BASE + ((uint32_t)s->mmio_dirty_list[i] << 6) + w;
      if (a >= TT_MMIO_LOW) add_loc(TT_LOC_MMIO, 0, a);
    }
}

typedef struct dut_end { uint32_t v[4096]; uint8_t ok[4096]; ttdut_result r; } dut_end;
static dut_end g_end;

FZ_BOOKKEEPING static void read_dut(void) {
  char why[64];
  for (unsigned i = 0; i < g_locs.n; i++) {
    ttdut_loc l = {g_locs.loc[i].kind, g_locs.loc[i].sel, g_locs.loc[i].index};
    g_end.ok[i] = g_dut.ops->get(g_dut.d, &l, &g_end.v[i], why, sizeof why) == TTDUT_OK;
  }
}

/* First location where model state s and the implementation differ: its index, or -1. */
FZ_BOOKKEEPING static int first_state_diff(const tt_state *s) {
  for (unsigned i = 0; i < g_locs.n; i++)
    if (g_end.ok[i] && tt_loc_get(s, &g_locs.loc[i]) != g_end.v[i]) return (int)i;
  return -1;
}

/* The implementation's own words for thread t (its fault, else its wait), for messages. */
FZ_BOOKKEEPING static const char *dut_words(unsigned t) {
  static char buf[200];
  const ttdut_thread_result *x = &g_end.r.thread[t % 3];
  snprintf(buf, sizeof buf, " (%.*s)", (int)sizeof x->fault_why,
           x->fault_why[0] ? x->fault_why : x->why[0] ? x->why : "no reason given");
  return buf;
}

FZ_BOOKKEEPING static int outcome_diff(const tt_state *s, tt_outcome out, char *msg, size_t n) {
  const ttdut_result *r = &g_end.r;
  int blocked_known = (g_dut.caps.flags & TTDUT_CAP_BLOCKED) != 0;
  if (blocked_known && (unsigned)out != r->outcome) {
    unsigned t = 0;   /* a thread the two see differently, for the implementation's words */
    while (t < 2 && (tt_thread_done(s, t) != 0) == (r->thread[t].done != 0)) t++;
    return snprintf(msg, n, "run ended: model %s, implementation %s; t%u%s",
                    out == TT_OUT_DONE ? "done" : out == TT_OUT_DEADLOCK ? "deadlock" : "budget",
                    r->outcome == 0 ? "done" : r->outcome == 1 ? "deadlock" : "budget", t, dut_words(t)), 1;
  }
  for (unsigned t = 0; t < 3; t++) {
    int md = tt_thread_done(s, t) != 0, mb = tt_thread_blocked(s, t) != 0;
    if (md != r->thread[t].done)
      return snprintf(msg, n, "t%u: model %s, implementation %s%s", t, md ? "done" : "not done",
                      r->thread[t].done ? "done" : "not done", dut_words(t)), 1;
    if (blocked_known && mb != r->thread[t].blocked)
      return snprintf(msg, n, "t%u: model %s, implementation %s%s", t, mb ? "blocked" : "not blocked",
                      r->thread[t].blocked ? "blocked" : "not blocked", dut_words(t)), 1;
    if ((g_dut.caps.flags & TTDUT_CAP_ISSUED) && s->c.thr[t].pc != r->thread[t].issued)
      return snprintf(msg, n, "t%u issued: model %u, implementation %u%s", t, s->c.thr[t].pc,
                      r->thread[t].issued, dut_words(t)), 1;
  }
  return 0;
}

FZ_BOOKKEEPING static int fault_diff(const tt_state *s, char *msg, size_t n) {
  for (unsigned t = 0; t < 3; t++) {
    unsigned m = s->c.thr[t].fault_class, d = g_end.r.thread[t].fault;
    int differ = (g_dut.caps.flags & TTDUT_CAP_FAULT_CLASS) ? m != d : (m != 0) != (d != 0);
    if (differ)
      return snprintf(msg, n, "t%u first fault: model %s, implementation %s%s", t,
                      tt_fault_class_name(m), d == TTDUT_FAULT_SOME ? "some" : tt_fault_class_name(d),
                      dut_words(t)), 1;
  }
  return 0;
}

FZ_BOOKKEEPING static int cycles_diff(const tt_state *s, char *msg, size_t n) {
  if (tt_cycle_count(s) != g_end.r.cycles)
    return snprintf(msg, n, "cycles: model %llu, implementation %llu",
                    (unsigned long long)tt_cycle_count(s), (unsigned long long)g_end.r.cycles), 1;
  if (!(g_dut.caps.flags & TTDUT_CAP_ISSUE_CYCLES) || !g_dut.ops->issue_cycle) return 0;
  for (unsigned t = 0; t < 3; t++)
    for (uint32_t k = 0; k < s->c.thr[t].pc; k++) {
      uint64_t mc = 0, dc = 0;
      tt_issue_cycle(s, t, k, &mc);
      if (g_dut.ops->issue_cycle(g_dut.d, t, k, &dc) != TTDUT_OK || mc != dc)
        return snprintf(msg, n, "t%u instruction %u issue cycle: model %llu, implementation %llu",
                        t, k, (unsigned long long)mc, (unsigned long long)dc), 1;
    }
  return 0;
}

/* Does one knob value of the model reproduce the implementation's outcome and state? */
FZ_BOOKKEEPING static int explain(const dprog *d, char *msg, size_t n) {
  if (!(g_dut.caps.flags & TTDUT_CAP_KNOBS)) return 0;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 0; v < tt_knob_value_count(k); v++) {
      if (v == d->p.knob[k]) continue;
      uint8_t knob[TT_KNOB_COUNT];
      memcpy(knob, d->p.knob, sizeof knob);
      knob[k] = (uint8_t)v;
      model_setup(&alt, d, knob);
      tt_outcome o = tt_run(&alt, fz_budget(&d->p));
      char scratch[8];
      int same = first_state_diff(&alt) < 0 && !outcome_diff(&alt, o, scratch, sizeof scratch) &&
                 !fault_diff(&alt, scratch, sizeof scratch);
      tt_reset(&alt);
      if (!same) continue;
      const tt_amb_reading *rd = tt_amb_reading_of(k, v);
      const char *vals = tt_knob_values(k);
      char val[48];
      unsigned idx = 0;
      size_t o2 = 0;
      for (const char *c = vals; *c && o2 + 1 < sizeof val; c++) {
        if (*c == '|') { idx++; continue; }
        if (idx == v) val[o2++] = *c;
      }
      val[o2] = 0;
      snprintf(msg, n, "explained by AMB-%02u: the model with knob %s=%s gives the implementation's end state",
               rd ? rd->amb : 0, tt_knob_name(k), val);
      return 1;
    }
  return 0;
}

/* An end-state requirement other than a location (thread done, its first fault, deadlock). */
FZ_BOOKKEEPING static void require(fz_fail *f, unsigned kind, unsigned t, uint32_t value) {
  if (f->nexpect >= FZ_MAX_EXPECT) return;
  fz_expect *e = &f->expect[f->nexpect++];
  memset(e, 0, sizeof *e);
  e->kind = (uint8_t)kind;
  e->thread = (uint8_t)t;
  e->value = value;
  f->req = FZ_REQ_AFTER_ROUND;
}

/* TTDUT_COLLECT: keep the first inputs of each kind of divergence; never a crash. */
FZ_BOOKKEEPING static int collect(const char *name, unsigned loc_kind, const char *msg) {
  static const char *const kinds[] = {"gpr", "cfg", "tcfg", "sem", "sem", "mutex", "l1", "l1", "l1",
                                      "mmio", "host", "host", "host", "counter", "counter", "counter"};
  char key[48], path[4096], word[24] = "";
  /* the first identifier-like word of the implementation's reason, e.g. a function name */
  const char *p = strchr(msg, '(');
  for (; p && *p; p++) {
    size_t k = 0;
    while (k + 1 < sizeof word && (p[k] == '_' || (p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9'))) {
      word[k] = p[k];
      k++;
    }
    word[k] = 0;
    if (k >= 6 && strchr(word, '_')) break;
    word[0] = 0;
  }
  snprintf(key, sizeof key, "%s%s%s%s%s", name, loc_kind < 16 ? "-" : "", loc_kind < 16 ? kinds[loc_kind] : "",
           word[0] ? "-" : "", word);
  unsigned i = 0;
  for (; i < COLLECT_KINDS && g_kinds[i].key[0]; i++)
    if (strcmp(g_kinds[i].key, key) == 0) break;
  if (i == COLLECT_KINDS) return 0;
  if (!g_kinds[i].key[0]) snprintf(g_kinds[i].key, sizeof g_kinds[i].key, "%s", key);
  if (g_kinds[i].n >= COLLECT_PER_KIND) return 0;
  snprintf(path, sizeof path, "%s/%s-%u.bin", g_collect, key, g_kinds[i].n++);
  FILE *o = fopen(path, "wb");
  if (o) {
    fwrite(g_raw, 1, g_raw_n, o);
    fclose(o);
    fprintf(stderr, "dut_diff: collected %s\n", path);
  }
  return 0;
}

FZ_BOOKKEEPING static int check_prog(const fz_prog *in, fz_fail *f) {
  static dprog d;
  char why[160] = "", msg[300];
  const char *name = NULL;
  fz_fail_clear(f);
  init();
  n_inputs++;
  restrict_prog(in, &d);
  model_setup(&st, &d, d.p.knob);
  int setup = dut_setup(&d, why, sizeof why);
  if (setup == -2) {
    tt_reset(&st);
    return fz_failf(f, "dut_outcome", "the implementation failed: %s", why);
  }
  if (setup != 0) { tt_reset(&st); return 0; }  /* not comparable */
  uint64_t budget = fz_budget(&d.p);
  tt_outcome out = tt_run(&st, budget);
  if (g_dut.ops->run(g_dut.d, budget, &g_end.r) != TTDUT_OK) {
    tt_reset(&st);
    return fz_failf(f, "dut_outcome", "the implementation failed to run the program");
  }
  n_compared++;
  collect_locs(&st);
  read_dut();
  int li = first_state_diff(&st);
  if (outcome_diff(&st, out, msg, sizeof msg)) name = "dut_outcome";
  else if (fault_diff(&st, msg, sizeof msg)) name = "dut_fault";
  else if (li >= 0) {
    char lb[48];
    tt_loc_format(&g_locs.loc[li], lb, sizeof lb);
    snprintf(msg, sizeof msg, "%s: model 0x%X, implementation 0x%X", lb,
             tt_loc_get(&st, &g_locs.loc[li]), g_end.v[li]);
    name = "dut_state";
  } else if (d.mode == TTDUT_MODE_CYCLE && cycles_diff(&st, msg, sizeof msg)) name = "dut_cycles";
  if (!name) { tt_reset(&st); return 0; }
  /* what the model says, as expectations: the reproducer passes on the model */
  for (unsigned i = 0; i < g_locs.n; i++)
    if (g_end.ok[i] && tt_loc_get(&st, &g_locs.loc[i]) != g_end.v[i])
      fz_require_loc(f, g_locs.loc[i].kind, g_locs.loc[i].sel, g_locs.loc[i].index,
                     tt_loc_get(&st, &g_locs.loc[i]));
  for (unsigned t = 0; t < 3; t++) {
    if (tt_thread_blocked(&st, t) && (g_dut.caps.flags & TTDUT_CAP_BLOCKED)) fz_require_blocked(f, t);
    if (tt_thread_done(&st, t) && !g_end.r.thread[t].done) require(f, FZ_EX_DONE, t, 0);
    unsigned mf = st.c.thr[t].fault_class, df = g_end.r.thread[t].fault;
    if (mf != df && (mf == 0 || (g_dut.caps.flags & TTDUT_CAP_FAULT_CLASS))) require(f, FZ_EX_FAULT, t, mf);
  }
  if (out == TT_OUT_DEADLOCK && g_end.r.outcome != TTDUT_OUT_DEADLOCK && (g_dut.caps.flags & TTDUT_CAP_BLOCKED))
    require(f, FZ_EX_DEADLOCK, 0, 0);
  if (f->nexpect == 0) fz_require_none(f, "the divergence is in timing, which no end-state expectation states");
  if (!g_collect) first_parting(&d, f);
  char amb[200];
  if (d.mode == TTDUT_MODE_FUNC && explain(&d, amb, sizeof amb)) {
    fz_failf(f, "dut_amb", "%s — %s", msg, amb);
  } else {
    fz_failf(f, name, "%s", msg);
  }
  f->round = st.c.steps;
  f->has_round = 1;
  tt_reset(&st);
  if (g_collect && g_raw) return collect(f->name, li >= 0 && strcmp(f->name, "dut_state") == 0
                                                  ? g_locs.loc[li].kind : 255, f->msg);
  return 1;
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  static fz_prog p;
  fz_prog_decode(d, n, &p);
  g_raw = d;
  g_raw_n = n;
  int r = check_prog(&p, f);
  g_raw = NULL;
  return r;
}

static void stats(char *buf, size_t n) {
  snprintf(buf, n, "%llu programs, %llu compared, %llu refused words dropped", n_inputs,
           n_compared, n_dropped);
}

/* The reproducer's vector against the implementation (functional mode, as the minimiser
 * writes it): 1 when it fails there. */
FZ_BOOKKEEPING static int fails_elsewhere(const char *text, char *why, size_t n) {
  static tt_vec v;
  static tt_vec_result res;
  tt_vec_error e;
  size_t k = 0;
  init();
  if (tt_vec_parse(text, strlen(text), &v, &e) != 0) return 0;
  tt_vec_status s = dutc_run(&g_dut, &v, TT_MODE_FUNC, &res);
  if (n) why[0] = 0;
  for (unsigned i = 0; i < res.nchecks && k + 8 < n; i++)
    if (res.checks[i].status == TT_VEC_CHECK_FAIL)
      k += (size_t)snprintf(why + k, n - k, "#   %s\n", res.checks[i].text);
  return s == TT_VEC_FAIL;
}

const fz_target fz_this_target = {"dut_diff", invariants, 1, check_bytes, check_prog, init, stats,
                                  0, NULL, fails_elsewhere};

FZ_ENTRY_POINTS(init, check_bytes)
