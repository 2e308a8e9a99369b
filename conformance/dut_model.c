/* dut_model.c — the project's model behind the implementation-under-test interface
 * (conformance/ttdut.h). ttconf checks the model through it like any other implementation;
 * built as a shared object (build/<flavour>/dut/model.so, one per planted defect under
 * build/defect-<ID>/) it is also what `ttconf --dut` and ttdut-serve load.
 *
 * The model declares every capability: both modes, every location, the knob registry and the
 * profiles (isa, p150), exact fault classes, issue cycles, hazards, changed locations and traces. */
#include <stdlib.h>
#include <string.h>
#include "tt.h"
#include "ttdut.h"
#include "dut_model.h"
#include "dut_util.h"


#define TRACE_CAP 4096   /* trace records kept per run */

typedef struct dm {
  tt_state st;        /* the machine */
  tt_state base;      /* snapshot(): the state changed() compares against */
  tt_state step;      /* trace: the state before the current step */
  int have_base;
  int tracing;        /* reset's knob ttdut.trace=on */
  uint8_t knob0[TT_KNOB_COUNT]; /* open("NAME=VALUE,..."): this instance's own readings, in
                                  place of the defaults (an implementation that reads some
                                  ambiguities differently; dut_diff's dut_amb test) */
  uint32_t ntrace, trace_total;
  ttdut_trace_rec trace[TRACE_CAP];
} dm;

static void put(char *why, size_t n, const char *a, const char *b) {
  size_t i = 0;
  if (!why || !n) return;
  for (; a && *a && i + 1 < n; a++) why[i++] = *a;
  for (; b && *b && i + 1 < n; b++) why[i++] = *b;
  why[i] = 0;
}

static void *m_open(const char *args, char *why, size_t n) {
  dm *d = calloc(1, sizeof *d);
  if (!d) { put(why, n, "out of memory", ""); return NULL; }
  tt_init(&d->st);
  for (const char *p = args ? args : ""; *p;) {   /* NAME=VALUE[,NAME=VALUE...] */
    char name[48], value[48];
    size_t a = strcspn(p, "="), b;
    if (!p[a] || a >= sizeof name) { put(why, n, "arguments are NAME=VALUE[,NAME=VALUE...]: ", p); free(d); return NULL; }
    memcpy(name, p, a);
    name[a] = 0;
    b = strcspn(p + a + 1, ",");
    if (b >= sizeof value) { put(why, n, "value too long: ", name); free(d); return NULL; }
    memcpy(value, p + a + 1, b);
    value[b] = 0;
    int k = tt_knob_by_name(name), v = k >= 0 ? tt_knob_value_index((unsigned)k, value) : -1;
    if (v < 0) { put(why, n, "unknown knob or value: ", name); free(d); return NULL; }
    d->knob0[k] = (uint8_t)v;
    p += a + 1 + b;
    if (*p == ',') p++;
  }
  return d;
}

static void m_close(void *p) { free(p); }

static void m_caps(void *p, ttdut_caps *c) {
  (void)p;
  memset(c, 0, sizeof *c);
  c->version = TTDUT_VERSION;
  for (unsigned m = 0; m < 2; m++)
    if (tt_mode_available((tt_mode)m)) c->modes |= 1u << m;
  c->can_set = ((1u << TTDUT_LOC_PRNG_RESEEDS) - 1);   /* storage and host stores */
  c->can_get = (1u << TTDUT_LOC_KIND_COUNT) - 1;
  c->flags = TTDUT_CAP_FAULT_CLASS | TTDUT_CAP_BLOCKED | TTDUT_CAP_ISSUED | TTDUT_CAP_CYCLES |
             TTDUT_CAP_ISSUE_CYCLES | TTDUT_CAP_HAZARDS | TTDUT_CAP_CHANGED | TTDUT_CAP_TRACE |
             TTDUT_CAP_KNOBS;
  put(c->name, sizeof c->name, "tensix-harness model", "");
  put(c->notes, sizeof c->notes, "profiles: isa, p150", "");
}

static int m_accepts(void *p, uint32_t word, char *why, size_t n) {
  (void)p; (void)word; (void)why; (void)n;
  return TTDUT_OK;   /* every word: outside-unit words follow the documented stub policy */
}

static int m_reset(void *p, uint32_t mode, const ttdut_knob *k, uint32_t nk, char *why,
                   size_t n) {
  dm *d = p;
  for (unsigned i = 0; i < TT_KNOB_COUNT; i++) d->st.p.knob[i] = d->knob0[i];   /* defaults */
  if (mode > TTDUT_MODE_CYCLE || tt_set_mode(&d->st, (tt_mode)mode) != 0) {
    put(why, n, "mode not available in this build", "");
    return TTDUT_UNSUPPORTED;
  }
  d->tracing = 0;
  for (uint32_t i = 0; i < nk; i++) {
    if (strcmp(k[i].name, TTDUT_KNOB_TRACE) == 0) d->tracing = strcmp(k[i].value, "on") == 0;
    if (strcmp(k[i].name, "profile") == 0) {  /* before the knobs (dut_check.c sends it first) */
      int pr = tt_profile_by_name(k[i].value);
      if (pr < 0) { put(why, n, "the model has no profile ", k[i].value); return TTDUT_UNSUPPORTED; }
      for (unsigned j = 0; j < TT_KNOB_COUNT; j++)
        if (tt_profile_knob((unsigned)pr, j)) d->st.p.knob[j] = (uint8_t)tt_profile_knob((unsigned)pr, j);
      continue;
    }
    if (ttdut_knob_apply(&d->st, &k[i], "the model", why, n) < 0) return TTDUT_UNSUPPORTED;
  }
  tt_reset(&d->st);
  d->have_base = 0;
  d->ntrace = d->trace_total = 0;
  return TTDUT_OK;
}

static int is_host(uint32_t kind) {
  return kind == TTDUT_LOC_HOST_U8 || kind == TTDUT_LOC_HOST_U16 || kind == TTDUT_LOC_HOST_U32;
}

static int refused(tt_host_status s) {
  return s == TT_HOST_UNMAPPED || s == TT_HOST_READONLY || s == TT_HOST_BAD_SIZE;
}

static int to_loc(const ttdut_loc *l, tt_loc *o) {
  if (l->kind >= TTDUT_LOC_KIND_COUNT || l->sel > 255) return -1;
  o->kind = (uint8_t)l->kind;
  o->sel = (uint8_t)l->sel;
  o->index = l->index;
  return 0;
}

static int m_set(void *p, const ttdut_loc *l, uint32_t v, char *why, size_t n) {
  dm *d = p;
  tt_loc loc;
  if (to_loc(l, &loc) != 0 || l->kind >= TTDUT_LOC_PRNG_RESEEDS) {
    put(why, n, "not a location that can be set", "");
    return TTDUT_UNSUPPORTED;
  }
  if (is_host(l->kind)) {
    tt_host_status s = tt_host_write(&d->st, (tt_core_id)(loc.sel & 3), loc.index,
                                     tt_loc_width(&loc) / 8, v);
    if (refused(s)) { put(why, n, tt_host_status_name(s), ""); return TTDUT_REFUSED; }
    return TTDUT_OK;
  }
  tt_loc_set(&d->st, &loc, v);
  return TTDUT_OK;
}

static int m_load(void *p, uint32_t t, const uint32_t *w, uint32_t count, char *why, size_t n) {
  dm *d = p;
  if (tt_load_program(&d->st, t, w, count) != 0) {
    put(why, n, "program refused (thread or length out of range)", "");
    return TTDUT_UNSUPPORTED;
  }
  return TTDUT_OK;
}

/* ---- trace: one record per issued instruction, with what its step wrote ------------------- */
typedef struct tctx { ttdut_trace_rec *r[TT_THREAD_COUNT]; unsigned nr; } tctx;

static void trace_cb(void *vc, const tt_loc *l, uint32_t a, uint32_t b) {
  tctx *c = vc;
  ttdut_trace_rec *r;
  (void)a;
  if (c->nr == 0) return;
  /* The writes of a step go to the instruction of the thread they belong to when the location
   * names one (GPRs, ThreadConfig, counters of a thread), else to the step's first issuer. */
  r = c->r[0];
  if ((l->kind == TT_LOC_GPR || l->kind == TT_LOC_TCFG || l->kind == TT_LOC_CTX_RESETS))
    for (unsigned i = 0; i < c->nr; i++)
      if (c->r[i]->thread == l->sel) r = c->r[i];
  if (r->nwrites < TTDUT_TRACE_WRITES) {
    r->loc[r->nwrites].kind = l->kind;
    r->loc[r->nwrites].sel = l->sel;
    r->loc[r->nwrites].index = l->index;
    r->value[r->nwrites] = b;
  }
  r->nwrites++;
}

static void trace_step(dm *d, const uint32_t before_pc[TT_THREAD_COUNT]) {
  tctx c;
  c.nr = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    for (uint32_t k = before_pc[t]; k < d->st.c.thr[t].pc; k++) {
      d->trace_total++;
      if (d->ntrace >= TRACE_CAP) continue;
      ttdut_trace_rec *r = &d->trace[d->ntrace++];
      uint64_t cyc = 0;
      memset(r, 0, sizeof *r);
      r->thread = t;
      r->index = k;
      r->word = d->st.prog[t][k];
      r->cycle = tt_issue_cycle(&d->st, t, k, &cyc) == 0 ? cyc : d->st.c.steps;
      if (c.nr < TT_THREAD_COUNT) c.r[c.nr++] = r;
    }
  }
  if (c.nr) tt_state_diff(&d->step, &d->st, trace_cb, &c);
}

static void fill_result(dm *d, tt_outcome out, ttdut_result *r) {
  memset(r, 0, sizeof *r);
  r->outcome = (uint32_t)out;
  r->steps = d->st.c.steps;
  r->cycles = d->st.p.mode == TT_MODE_CYCLE ? tt_cycle_count(&d->st) : 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &d->st.c.thr[t];
    ttdut_thread_result *x = &r->thread[t];
    x->done = (uint8_t)(tt_thread_done(&d->st, t) != 0);
    x->blocked = (uint8_t)(tt_thread_blocked(&d->st, t) != 0);
    x->fault = th->fault_class;
    x->issued = th->pc;
    x->fault_index = th->fault_pc;
    tt_describe_wait(&d->st, t, x->why, sizeof x->why);
    x->why[sizeof x->why - 1] = 0;
    if (th->fault_class != TT_FAULT_NONE)
      put(x->fault_why, sizeof x->fault_why, tt_fault_code_text(th->fault_code), "");
  }
}

/* Without tracing: tt_run. With tracing (reset's knob ttdut.trace=on), one step at a time (the
 * steps tt_run takes) so that each step's writes are known: slower, for diagnosis. */
static int m_run(void *p, uint64_t budget, ttdut_result *r) {
  dm *d = p;
  tt_outcome out = TT_OUT_BUDGET;
  if (!d->tracing) {
    out = tt_run(&d->st, budget);
  } else {
    for (uint64_t spent = 0; spent < budget; spent++) {
      uint32_t pc[TT_THREAD_COUNT];
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) pc[t] = d->st.c.thr[t].pc;
      memcpy(&d->step, &d->st, TT_STATE_BYTES);
      out = tt_run(&d->st, 1);
      trace_step(d, pc);
      if (out != TT_OUT_BUDGET) break;
    }
  }
  fill_result(d, out, r);
  return TTDUT_OK;
}

static int m_get(void *p, const ttdut_loc *l, uint32_t *v, char *why, size_t n) {
  dm *d = p;
  tt_loc loc;
  if (to_loc(l, &loc) != 0) { put(why, n, "unknown location kind", ""); return TTDUT_UNSUPPORTED; }
  if (is_host(l->kind)) {
    tt_host_status s = tt_host_read(&d->st, (tt_core_id)(loc.sel & 3), loc.index,
                                    tt_loc_width(&loc) / 8, v);
    if (refused(s)) { put(why, n, tt_host_status_name(s), ""); return TTDUT_REFUSED; }
    return TTDUT_OK;
  }
  *v = tt_loc_get(&d->st, &loc);
  return TTDUT_OK;
}

static int m_issue_cycle(void *p, uint32_t t, uint32_t k, uint64_t *cycle) {
  dm *d = p;
  return t < TT_THREAD_COUNT && tt_issue_cycle(&d->st, t, k, cycle) == 0 ? TTDUT_OK
                                                                        : TTDUT_UNSUPPORTED;
}

static uint32_t m_hazards(void *p, ttdut_hazard *out, uint32_t max) {
  dm *d = p;
  unsigned n = tt_hazard_count(&d->st);
  tt_hazard h;
  for (uint32_t i = 0; i < max && tt_hazard_get(&d->st, i, &h) == 0; i++) {
    out[i].kind = h.kind;
    out[i].thread = h.thread;
    out[i].index = h.index;
    out[i].pad = 0;
  }
  return n;
}

static void m_snapshot(void *p) {
  dm *d = p;
  memcpy(&d->base, &d->st, sizeof d->st);
  d->have_base = 1;
}

static void changed_cb(void *vc, const tt_loc *l, uint32_t a, uint32_t b) {
  ttdut_changes_add(vc, l->kind, l->sel, l->index, a, b);
}

static uint32_t m_changed(void *p, ttdut_loc *loc, uint32_t *before, uint32_t *after,
                          uint32_t max) {
  dm *d = p;
  ttdut_changes c = {loc, before, after, max, 0};
  if (!d->have_base) return 0;
  tt_state_diff(&d->base, &d->st, changed_cb, &c);
  return c.n;
}

static uint32_t m_trace(void *p, ttdut_trace_rec *out, uint32_t max) {
  dm *d = p;
  uint32_t n = d->ntrace < max ? d->ntrace : max;
  memcpy(out, d->trace, n * sizeof *out);
  return d->trace_total;
}

static const ttdut_ops g_ops = {
  TTDUT_VERSION, "model", m_open, m_close, m_caps, m_accepts, m_reset, m_set, m_load, m_run,
  m_get, m_issue_cycle, m_hazards, m_snapshot, m_changed, m_trace,
};

const ttdut_ops *ttdut_model_ops(void) { return &g_ops; }

#ifdef TTDUT_MODEL_SO
__attribute__((visibility("default"))) const ttdut_ops *ttdut_entry(void) { return &g_ops; }
#endif
