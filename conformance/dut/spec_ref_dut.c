/* spec_ref_dut.c — the reference interpreter of fuzz/spec_ref.c (written from the spec digest
 * separately from model/) behind the implementation-under-test interface (conformance/ttdut.h),
 * so that the `.vec` suite checks it like any other implementation:
 *
 *     ttconf --mode func --dut build/release/dut/spec_ref.so conformance
 *
 * Built as a shared object with -DTTDUT_SPEC_REF_SO (exports ttdut_entry); in-process callers
 * use ttdut_spec_ref_ops().
 *
 * What it is and is not:
 *   - both modes: functional (sr_round rounds) and cycle (sr_cycle_run, spec_ref_cycle.c:
 *     issue cycles, hazards, `cycles`);
 *   - knobs: the ones spec_ref reads (sr_knob_read(): the list spec_diff uses) at any value;
 *     in functional mode the model's cycle-mode-only knobs at any value (no effect there);
 *     every other knob at its default only: a non-default reading spec_ref does not implement
 *     makes the vector not comparable;
 *   - every profile (model/profiles.def: its knob values, checked as above); `ttdut.trace` is
 *     ignored (no trace);
 *   - spec_ref keeps L1 and the MMIO window in static storage: one open instance per process,
 *     and no other user of spec_ref.c (spec_diff) may run in the same process meanwhile.
 *
 * How a run is built. reset() resets a private tt_state (knobs set on it: sr_load copies them);
 * set() records the `init` lines in file order (host stores are checked at once against
 * spec_ref's host port, whose refusals depend only on core, address and size); load() puts the
 * streams in the private tt_state. The first of snapshot()/run()/get() then builds the initial
 * state: L1 and MMIO inits go into the private tt_state (spec_ref has no writer for its
 * memories; sr_load copies the granules they dirtied — no host access reaches L1/MMIO, so
 * their order against host stores cannot matter), sr_load() starts the reference from it, and
 * then every register init (written into the sr_state fields) and every host store (through
 * spec_ref's own port, sr_host_write, with its side effects) is applied in file order.
 *
 * run(budget) takes sr_round() rounds until sr_done(), or a round that makes no progress (no
 * thread retired and no latch was forgotten: the functional scheduler's fixed point, the same
 * test as the model's func_round, which tt_run and spec_diff rely on) -> DEADLOCK, or `budget` rounds -> BUDGET. steps = rounds run. A
 * thread is blocked when it is not done and the run deadlocked, or when its head is an
 * ATGETM/ATRELM on a mutex index that does not exist (waits forever), as tt_thread_blocked.
 *
 * changed(): registers against the snapshot's sr_state copy; L1 and MMIO as 32-bit words of
 * every 64-byte granule the run wrote (sr_take_written, drained after every round so its log
 * cannot overflow), compared with the initial contents kept in the private tt_state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tt.h"
#include "ttdut.h"
#include "dut_util.h"
#include "spec_ref.h"

_Static_assert(SR_THREADS == TT_THREAD_COUNT && SR_L1_BYTES == TT_L1_SIZE &&
               SR_MMIO_BASE == TT_MMIO_BASE && SR_MMIO_BYTES == TT_MMIO_SIZE &&
               SR_GRANULE == (1u << TT_DIRTY_SHIFT),
               "spec_ref and the model agree on sizes");

#define L1_GRANULES (SR_L1_BYTES / SR_GRANULE)
#define MMIO_GRANULES (SR_MMIO_BYTES / SR_GRANULE)
#define TAKE_MAX 4096u   /* spec_ref's written-granule log holds at most this many */

typedef struct init_rec {
  ttdut_loc loc;
  uint32_t value;
} init_rec;

typedef struct srd {
  tt_state m;              /* knobs, L1/MMIO initial contents, the streams: sr_load's source */
  sr_state s;              /* the reference */
  sr_state base;           /* snapshot() */
  sr_state scratch;        /* set(): dry runs of host stores, for their status */
  init_rec *inits;
  uint32_t ninits, cap;
  int prepared, have_base;
  uint32_t mode;           /* TTDUT_MODE_* of the run */
  uint8_t l1_w[L1_GRANULES], mmio_w[MMIO_GRANULES];   /* granules the run wrote */
  uint32_t take_l1[TAKE_MAX], take_mmio[TAKE_MAX];
} srd;

static int g_instances;   /* spec_ref's memories are static: one instance at a time */

static void put(char *why, size_t n, const char *a, const char *b) {
  size_t i = 0;
  if (!why || !n) return;
  for (; a && *a && i + 1 < n; a++) why[i++] = *a;
  for (; b && *b && i + 1 < n; b++) why[i++] = *b;
  why[i] = 0;
}

static int is_host(uint32_t kind) {
  return kind == TTDUT_LOC_HOST_U8 || kind == TTDUT_LOC_HOST_U16 || kind == TTDUT_LOC_HOST_U32;
}

static unsigned width_bytes(uint32_t kind) {
  switch (kind) {
  case TTDUT_LOC_L1_U8: case TTDUT_LOC_HOST_U8: return 1;
  case TTDUT_LOC_L1_U16: case TTDUT_LOC_HOST_U16: return 2;
  default: return 4;
  }
}

static int refused(unsigned s) {
  return s == TT_HOST_UNMAPPED || s == TT_HOST_READONLY || s == TT_HOST_BAD_SIZE;
}

/* A storage location inside the state (not a host access, not an event counter)? */
static int storage_ok(const ttdut_loc *l) {
  switch (l->kind) {
  case TTDUT_LOC_GPR: return l->sel < SR_THREADS && l->index < SR_GPRS;
  case TTDUT_LOC_CFG: return l->sel < 2 && l->index < SR_CFG_WORDS;
  case TTDUT_LOC_TCFG: return l->sel < SR_THREADS && l->index < SR_TCFG_WORDS;
  case TTDUT_LOC_SEM_VALUE: case TTDUT_LOC_SEM_MAX: return l->index < SR_SEMS;
  case TTDUT_LOC_MUTEX:
    return l->index == 0 || l->index == 2 || l->index == 3 || l->index == 4;
  case TTDUT_LOC_L1_U8: case TTDUT_LOC_L1_U16: case TTDUT_LOC_L1_U32:
    return (uint64_t)l->index + width_bytes(l->kind) <= SR_L1_BYTES &&
           l->index % width_bytes(l->kind) == 0;
  case TTDUT_LOC_MMIO:
    return l->index >= SR_MMIO_BASE && l->index - SR_MMIO_BASE < SR_MMIO_BYTES && l->index % 4 == 0;
  default: return 0;
  }
}

/* ---- open / caps --------------------------------------------------------------------------- */
static void *r_open(const char *args, char *why, size_t n) {
  srd *d;
  (void)args;
  if (g_instances) {
    put(why, n, "spec_ref keeps L1 and MMIO in static storage: one instance per process", "");
    return NULL;
  }
  d = calloc(1, sizeof *d);
  if (!d) { put(why, n, "out of memory", ""); return NULL; }
  tt_init(&d->m);
  g_instances++;
  return d;
}

static void r_close(void *p) {
  srd *d = p;
  if (!d) return;
  free(d->inits);
  free(d);
  g_instances--;
}

static void r_caps(void *p, ttdut_caps *c) {
  (void)p;
  memset(c, 0, sizeof *c);
  c->version = TTDUT_VERSION;
  c->modes = 1u << TTDUT_MODE_FUNC | 1u << TTDUT_MODE_CYCLE;
  c->can_set = (1u << TTDUT_LOC_PRNG_RESEEDS) - 1;   /* storage and host stores */
  c->can_get = (1u << TTDUT_LOC_KIND_COUNT) - 1;
  c->flags = TTDUT_CAP_FAULT_CLASS | TTDUT_CAP_BLOCKED | TTDUT_CAP_ISSUED | TTDUT_CAP_CHANGED |
             TTDUT_CAP_KNOBS | TTDUT_CAP_CYCLES | TTDUT_CAP_ISSUE_CYCLES | TTDUT_CAP_HAZARDS;
  put(c->name, sizeof c->name, "spec_ref (fuzz/spec_ref.c)", "");
  put(c->notes, sizeof c->notes,
      "independent reference interpreter; functional and cycle mode; profiles isa, p150; knobs: the "
      "ones it reads, else defaults; no trace", "");
}

static int r_accepts(void *p, uint32_t word, char *why, size_t n) {
  (void)p; (void)word; (void)why; (void)n;
  return TTDUT_OK;   /* spec_ref decodes every word (tt_decode) and follows the stub policy */
}

/* ---- knobs ----------------------------------------------------------------------------------- */

/* Knobs with no effect in the model's functional mode (cycle-mode timing choices). */
static int knob_cycle_only(unsigned k) {
  switch (k) {
  case TT_KNOB_ARBITRATION: case TT_KNOB_THCON_HANDOVER: case TT_KNOB_THCON_SCOPE:
  case TT_KNOB_WAIT_LAG: case TT_KNOB_LOAD_LATENCY: case TT_KNOB_LOADREG_LATENCY:
  case TT_KNOB_ATINCGET_LATENCY: case TT_KNOB_STREAMWRCFG_PREPARE: case TT_KNOB_STUB_CYCLES:
  case TT_KNOB_C0_STORES: case TT_KNOB_C12_SCOPE: case TT_KNOB_THCON_RELEASE:
  case TT_KNOB_SYNC_VISIBILITY: case TT_KNOB_CFG_STALL: case TT_KNOB_GPR_PORT:
  case TT_KNOB_SETDMAREG_RESULT: case TT_KNOB_MATRIX_INTERVAL: case TT_KNOB_THCON_READ:
  case TT_KNOB_FLUSHDMA_RELEASE: case TT_KNOB_OUTSIDE_SLOT:
    return 1;
  default:
    return 0;
  }
}

static int r_reset(void *p, uint32_t mode, const ttdut_knob *k, uint32_t nk, char *why,
                   size_t n) {
  srd *d = p;
  d->prepared = d->have_base = 0;
  d->ninits = 0;
  for (unsigned i = 0; i < TT_KNOB_COUNT; i++) d->m.p.knob[i] = 0;   /* every default */
  if (mode != TTDUT_MODE_FUNC && mode != TTDUT_MODE_CYCLE) {
    put(why, n, "no such mode", "");
    return TTDUT_UNSUPPORTED;
  }
  d->mode = mode;
  for (uint32_t i = 0; i < nk; i++) {
    if (strcmp(k[i].name, "profile") == 0) {   /* every knob at the profile's value */
      int pr = tt_profile_by_name(k[i].value);
      if (pr < 0) { put(why, n, "spec_ref has no profile ", k[i].value); return TTDUT_UNSUPPORTED; }
      for (unsigned j = 0; j < TT_KNOB_COUNT; j++) d->m.p.knob[j] = (uint8_t)tt_profile_knob((unsigned)pr, j);
      continue;
    }
    int c = ttdut_knob_apply(&d->m, &k[i], "spec_ref", why, n);   /* no trace: ignored */
    if (c < 0) return TTDUT_UNSUPPORTED;
  }
  for (unsigned kn = 0; kn < TT_KNOB_COUNT; kn++) {   /* (knob: lines apply on top of a profile) */
    unsigned v = d->m.p.knob[kn];
    if (v == 0 || (mode == TTDUT_MODE_FUNC && knob_cycle_only(kn)) ||
        sr_knob_read(kn, v, mode == TTDUT_MODE_CYCLE))
      continue;
    char msg[128];
    snprintf(msg, sizeof msg, "spec_ref implements only the default reading of knob %s", tt_knob_name(kn));
    put(why, n, msg, "");
    return TTDUT_UNSUPPORTED;
  }
  tt_set_mode(&d->m, TT_MODE_FUNC);
  tt_reset(&d->m);
  return TTDUT_OK;
}

/* ---- set / load ------------------------------------------------------------------------------ */
static int r_set(void *p, const ttdut_loc *l, uint32_t v, char *why, size_t n) {
  srd *d = p;
  if (d->prepared) {
    put(why, n, "set after the initial state was built (snapshot, run or get came first)", "");
    return TTDUT_UNSUPPORTED;
  }
  if (is_host(l->kind)) {
    if (l->sel > 3) { put(why, n, "no such core", ""); return TTDUT_UNSUPPORTED; }
    /* spec_ref's port refuses by core, address and size only: a dry run gives the status */
    unsigned s = sr_host_write(&d->scratch, l->sel, l->index, width_bytes(l->kind), v);
    if (refused(s)) { put(why, n, tt_host_status_name((tt_host_status)s), ""); return TTDUT_REFUSED; }
  } else if (!storage_ok(l)) {
    put(why, n, l->kind >= TTDUT_LOC_PRNG_RESEEDS ? "not a location that can be set"
                                                  : "location out of range", "");
    return TTDUT_UNSUPPORTED;
  }
  if (d->ninits == d->cap) {
    uint32_t cap = d->cap ? 2 * d->cap : 64;
    init_rec *q = realloc(d->inits, cap * sizeof *q);
    if (!q) { put(why, n, "out of memory", ""); return TTDUT_UNSUPPORTED; }
    d->inits = q;
    d->cap = cap;
  }
  d->inits[d->ninits].loc = *l;
  d->inits[d->ninits].value = v;
  d->ninits++;
  return TTDUT_OK;
}

static int r_load(void *p, uint32_t t, const uint32_t *w, uint32_t count, char *why, size_t n) {
  srd *d = p;
  if (d->prepared) {
    put(why, n, "load after the initial state was built (snapshot, run or get came first)", "");
    return TTDUT_UNSUPPORTED;
  }
  if (tt_load_program(&d->m, t, w, count) != 0) {
    put(why, n, "program refused (thread or length out of range)", "");
    return TTDUT_UNSUPPORTED;
  }
  return TTDUT_OK;
}

/* ---- the initial state ------------------------------------------------------------------------ */
static void set_register(sr_state *s, const ttdut_loc *l, uint32_t v) {
  switch (l->kind) {
  case TTDUT_LOC_GPR:   /* gpr0=zero (AMB-27): an init is a write, and GPR 0 keeps none */
    s->gpr[l->sel][l->index] = l->index == 0 && s->knob[TT_KNOB_GPR0] == 1 ? 0 : v;
    break;
  case TTDUT_LOC_CFG: s->cfg[l->sel][l->index] = v; break;
  case TTDUT_LOC_TCFG: s->tcfg[l->sel][l->index] = (uint16_t)v; break;
  case TTDUT_LOC_SEM_VALUE: s->sem_value[l->index] = (uint8_t)(v & 15u); break;
  case TTDUT_LOC_SEM_MAX: s->sem_max[l->index] = (uint8_t)(v & 15u); break;
  case TTDUT_LOC_MUTEX: s->mutex[l->index] = (uint8_t)(v & 3u); break;
  default: break;
  }
}

static int is_memory(uint32_t kind) {
  return kind == TTDUT_LOC_L1_U8 || kind == TTDUT_LOC_L1_U16 || kind == TTDUT_LOC_L1_U32 ||
         kind == TTDUT_LOC_MMIO;
}

static void drain_written(srd *d) {
  unsigned nl1 = 0, nmm = 0;
  sr_take_written(d->take_l1, &nl1, d->take_mmio, &nmm, TAKE_MAX);
  for (unsigned i = 0; i < nl1; i++)
    if (d->take_l1[i] < L1_GRANULES) d->l1_w[d->take_l1[i]] = 1;
  for (unsigned i = 0; i < nmm; i++)
    if (d->take_mmio[i] < MMIO_GRANULES) d->mmio_w[d->take_mmio[i]] = 1;
}

static void prepare(srd *d) {
  if (d->prepared) return;
  for (uint32_t i = 0; i < d->ninits; i++) {
    const init_rec *r = &d->inits[i];
    if (!is_memory(r->loc.kind)) continue;
    tt_loc l;
    l.kind = (uint8_t)r->loc.kind;
    l.sel = (uint8_t)r->loc.sel;
    l.index = r->loc.index;
    tt_loc_set(&d->m, &l, r->value);
  }
  sr_load(&d->s, &d->m);
  for (uint32_t i = 0; i < d->ninits; i++) {
    const init_rec *r = &d->inits[i];
    if (is_memory(r->loc.kind)) continue;
    if (is_host(r->loc.kind))
      (void)sr_host_write(&d->s, r->loc.sel, r->loc.index, width_bytes(r->loc.kind), r->value);
    else
      set_register(&d->s, &r->loc, r->value);
  }
  drain_written(d);   /* (host stores do not reach the memories; sr_load emptied the log) */
  memset(d->l1_w, 0, sizeof d->l1_w);
  memset(d->mmio_w, 0, sizeof d->mmio_w);
  d->prepared = 1;
}

/* ---- run ---------------------------------------------------------------------------------------- */
static void describe(const srd *d, unsigned t, char *buf, size_t n) {
  const sr_state *s = &d->s;
  size_t len;
  if (s->pc[t] >= s->len[t]) { snprintf(buf, n, "done"); return; }
  uint32_t w = s->prog[t][s->pc[t]];
  tt_insn in;
  sr_decode(s, w, &in);
  snprintf(buf, n, "at instruction %u (0x%08X): ", (unsigned)s->pc[t], (unsigned)w);
  len = strlen(buf);
  if (len + 1 >= n) return;
  buf += len;
  n -= len;
  switch (s->held[t]) {
  case SR_HELD_NONE: snprintf(buf, n, "not waiting"); break;
  case SR_HELD_LATCH: {
    static const char *const names[] = {"none", "STALLWAIT", "SEMWAIT", "STREAMWAIT"};
    const sr_latch *l = &s->latch[t];
    snprintf(buf, n, "latched %s block=0x%X cond=0x%X%s", names[l->op & 3], (unsigned)l->block,
             (unsigned)l->cond, l->op == TT_LATCH_SEMWAIT ? " (semaphore condition holds)" : "");
    break;
  }
  case SR_HELD_MUTEX: {
    uint32_t i = in.form == TT_FORM_ATGETM ? in.a.ATGETM.mutex_index : 0;
    if (i < SR_MUTEXES && s->mutex[i])
      snprintf(buf, n, "ATGETM: mutex %u held by t%u", (unsigned)i, (unsigned)s->mutex[i] - 1);
    else
      snprintf(buf, n, "ATGETM: mutex %u reserved for another thread by the fairness rule",
               (unsigned)i);
    break;
  }
  case SR_HELD_MUTEX_INVALID: {
    uint32_t i = in.form == TT_FORM_ATGETM ? in.a.ATGETM.mutex_index
                 : in.form == TT_FORM_ATRELM ? in.a.ATRELM.mutex_index : 0;
    snprintf(buf, n, "mutex index %u does not exist on Blackhole (valid: 0, 2, 3, 4): waits "
             "forever", (unsigned)i);
    break;
  }
  case SR_HELD_SPIN:
    snprintf(buf, n, "%s", in.form == TT_FORM_ATCAS ? "ATCAS: compare fails, retrying"
                                                    : "ATINCGETPTR: FIFO full/empty, retrying");
    break;
  case SR_HELD_THCON:
    snprintf(buf, n, "ThCon busy: held by the spinning atomic of t%u",
             (unsigned)(s->spinner ? s->spinner - 1 : 0));
    break;
  default: snprintf(buf, n, "held"); break;
  }
}

static int head_invalid_mutex(const sr_state *s, unsigned t) {
  tt_insn in;
  if (s->pc[t] >= s->len[t]) return 0;
  sr_decode(s, s->prog[t][s->pc[t]], &in);
  if (in.form == TT_FORM_ATGETM) return !sr_valid_mutex(s, in.a.ATGETM.mutex_index);
  if (in.form == TT_FORM_ATRELM) return !sr_valid_mutex(s, in.a.ATRELM.mutex_index);
  return 0;
}

static int r_run(void *p, uint64_t budget, ttdut_result *r) {
  srd *d = p;
  uint32_t out = TTDUT_OUT_DONE;
  uint64_t steps = 0;
  prepare(d);
  if (d->mode == TTDUT_MODE_CYCLE) {
    unsigned o = sr_cycle_run(&d->s, budget);
    out = o == TT_OUT_DONE ? TTDUT_OUT_DONE : o == TT_OUT_DEADLOCK ? TTDUT_OUT_DEADLOCK : TTDUT_OUT_BUDGET;
    steps = d->s.cyc.cycles;
    drain_written(d);
  }
  for (; d->mode != TTDUT_MODE_CYCLE;) {
    if (sr_done(&d->s)) { out = TTDUT_OUT_DONE; break; }
    if (steps >= budget) { out = TTDUT_OUT_BUDGET; break; }
    uint8_t op[SR_THREADS];
    for (unsigned t = 0; t < SR_THREADS; t++) op[t] = d->s.latch[t].op;
    sr_round(&d->s);
    steps++;
    drain_written(d);
    int progress = 0;
    for (unsigned t = 0; t < SR_THREADS; t++)
      if (d->s.round_retired[t] || (op[t] != TT_LATCH_NONE && d->s.latch[t].op == TT_LATCH_NONE))
        progress = 1;
    if (!progress) { out = TTDUT_OUT_DEADLOCK; break; }
  }
  memset(r, 0, sizeof *r);
  r->outcome = out;
  r->steps = steps;
  r->cycles = d->mode == TTDUT_MODE_CYCLE ? d->s.cyc.cycles : 0;
  for (unsigned t = 0; t < SR_THREADS; t++) {
    ttdut_thread_result *x = &r->thread[t];
    int done = d->s.pc[t] >= d->s.len[t];
    x->done = (uint8_t)done;
    x->blocked = (uint8_t)(!done && (out == TTDUT_OUT_DEADLOCK ||
                                     d->s.held[t] == SR_HELD_MUTEX_INVALID ||
                                     (d->mode == TTDUT_MODE_CYCLE && head_invalid_mutex(&d->s, t))));
    x->fault = d->s.fault_class[t];
    x->issued = d->s.pc[t];
    x->fault_index = d->s.fault_pc[t];
    describe(d, t, x->why, sizeof x->why);
    if (d->s.fault_class[t] != TT_FAULT_NONE)
      put(x->fault_why, sizeof x->fault_why, tt_fault_code_text(d->s.fault_code[t]), "");
  }
  return TTDUT_OK;
}

/* ---- get ---------------------------------------------------------------------------------------- */
static int r_get(void *p, const ttdut_loc *l, uint32_t *v, char *why, size_t n) {
  srd *d = p;
  const sr_state *s = &d->s;
  prepare(d);
  *v = 0;
  if (is_host(l->kind)) {
    if (l->sel > 3) { put(why, n, "no such core", ""); return TTDUT_UNSUPPORTED; }
    unsigned st = sr_host_read(s, l->sel, l->index, width_bytes(l->kind), v);
    if (refused(st)) { put(why, n, tt_host_status_name((tt_host_status)st), ""); return TTDUT_REFUSED; }
    return TTDUT_OK;   /* TT_HOST_UNSUPPORTED (a ConfigDualWrite load) still has a value */
  }
  switch (l->kind) {
  case TTDUT_LOC_PRNG_RESEEDS: *v = s->prng_reseeds; return TTDUT_OK;
  case TTDUT_LOC_IC_INVALIDATES:
    if (l->index >= 5) break;
    *v = s->ic_invalidates[l->index];
    return TTDUT_OK;
  case TTDUT_LOC_CTX_RESETS:
    if (l->sel >= SR_THREADS || l->index >= 2) break;
    *v = s->ctx_resets[l->sel][l->index];
    return TTDUT_OK;
  default:
    if (!storage_ok(l)) break;
    switch (l->kind) {
    case TTDUT_LOC_GPR: *v = s->gpr[l->sel][l->index]; break;
    case TTDUT_LOC_CFG: *v = s->cfg[l->sel][l->index]; break;
    case TTDUT_LOC_TCFG: *v = s->tcfg[l->sel][l->index]; break;
    case TTDUT_LOC_SEM_VALUE: *v = s->sem_value[l->index]; break;
    case TTDUT_LOC_SEM_MAX: *v = s->sem_max[l->index]; break;
    case TTDUT_LOC_MUTEX: *v = s->mutex[l->index]; break;
    case TTDUT_LOC_MMIO: *v = sr_mmio_read(l->index); break;
    default: *v = sr_l1_read(l->index, width_bytes(l->kind)); break;
    }
    return TTDUT_OK;
  }
  put(why, n, "no such location", "");
  return TTDUT_UNSUPPORTED;
}

/* ---- snapshot / changed -------------------------------------------------------------------------- */
static void r_snapshot(void *p) {
  srd *d = p;
  prepare(d);
  memcpy(&d->base, &d->s, sizeof d->base);
  d->have_base = 1;
}

typedef ttdut_changes clist;

static void note(clist *c, uint32_t kind, uint32_t sel, uint32_t index, uint32_t a, uint32_t b) {
  if (a != b) ttdut_changes_add(c, kind, sel, index, a, b);
}

/* The order of tt_state_diff: registers, counters, then L1 and MMIO words by granule. */
static uint32_t r_changed(void *p, ttdut_loc *loc, uint32_t *before, uint32_t *after,
                          uint32_t max) {
  srd *d = p;
  const sr_state *a = &d->base, *b = &d->s;
  clist c = {loc, before, after, max, 0};
  if (!d->have_base) return 0;
  for (uint32_t t = 0; t < SR_THREADS; t++)
    for (uint32_t i = 0; i < SR_GPRS; i++) note(&c, TTDUT_LOC_GPR, t, i, a->gpr[t][i], b->gpr[t][i]);
  for (uint32_t k = 0; k < 2; k++)
    for (uint32_t i = 0; i < SR_CFG_WORDS; i++) note(&c, TTDUT_LOC_CFG, k, i, a->cfg[k][i], b->cfg[k][i]);
  for (uint32_t t = 0; t < SR_THREADS; t++)
    for (uint32_t i = 0; i < SR_TCFG_WORDS; i++)
      note(&c, TTDUT_LOC_TCFG, t, i, a->tcfg[t][i], b->tcfg[t][i]);
  for (uint32_t i = 0; i < SR_SEMS; i++) {
    note(&c, TTDUT_LOC_SEM_VALUE, 0, i, a->sem_value[i], b->sem_value[i]);
    note(&c, TTDUT_LOC_SEM_MAX, 0, i, a->sem_max[i], b->sem_max[i]);
  }
  for (uint32_t i = 0; i < SR_MUTEXES; i++)
    if (i != 1) note(&c, TTDUT_LOC_MUTEX, 0, i, a->mutex[i], b->mutex[i]);
  note(&c, TTDUT_LOC_PRNG_RESEEDS, 0, 0, a->prng_reseeds, b->prng_reseeds);
  for (uint32_t i = 0; i < 5; i++)
    note(&c, TTDUT_LOC_IC_INVALIDATES, 0, i, a->ic_invalidates[i], b->ic_invalidates[i]);
  for (uint32_t t = 0; t < SR_THREADS; t++)
    for (uint32_t u = 0; u < 2; u++)
      note(&c, TTDUT_LOC_CTX_RESETS, t, u, a->ctx_resets[t][u], b->ctx_resets[t][u]);
  /* memories: before = the initial contents sr_load copied from the private tt_state */
  for (uint32_t g = 0; g < L1_GRANULES; g++) {
    if (!d->l1_w[g]) continue;
    for (uint32_t w = 0; w < SR_GRANULE; w += 4) {
      uint32_t addr = g * SR_GRANULE + w, old = 0;
      for (unsigned k = 0; k < 4; k++) old |= (uint32_t)d->m.l1[addr + k] << (8 * k);
      note(&c, TTDUT_LOC_L1_U32, 0, addr, old, sr_l1_read(addr, 4));
    }
  }
  for (uint32_t g = 0; g < MMIO_GRANULES; g++) {
    if (!d->mmio_w[g]) continue;
    for (uint32_t w = 0; w < SR_GRANULE; w += 4) {
      uint32_t off = g * SR_GRANULE + w;
      note(&c, TTDUT_LOC_MMIO, 0, SR_MMIO_BASE + off, d->m.mmio[off / 4],
           sr_mmio_read(SR_MMIO_BASE + off));
    }
  }
  return c.n;
}

/* ---- cycle-mode results ---------------------------------------------------------------------- */
static int r_issue_cycle(void *p, uint32_t t, uint32_t index, uint64_t *cycle) {
  srd *d = p;
  if (d->mode != TTDUT_MODE_CYCLE || t >= SR_THREADS || index >= d->s.pc[t]) return TTDUT_UNSUPPORTED;
  *cycle = d->s.cyc.issue[t][index];
  return TTDUT_OK;
}

static uint32_t r_hazards(void *p, ttdut_hazard *out, uint32_t max) {
  srd *d = p;
  uint32_t n = d->mode == TTDUT_MODE_CYCLE ? d->s.cyc.nhaz : 0;
  for (uint32_t i = 0; i < n && i < max && i < SR_HAZ_MAX; i++) {
    memset(&out[i], 0, sizeof out[i]);
    out[i].kind = d->s.cyc.haz[i].kind;
    out[i].thread = d->s.cyc.haz[i].thread;
    out[i].index = d->s.cyc.haz[i].index;
  }
  return n;
}

static const ttdut_ops g_ops = {
  TTDUT_VERSION, "spec_ref", r_open, r_close, r_caps, r_accepts, r_reset, r_set, r_load, r_run,
  r_get, r_issue_cycle, r_hazards, r_snapshot, r_changed, NULL,
};

const ttdut_ops *ttdut_spec_ref_ops(void);
const ttdut_ops *ttdut_spec_ref_ops(void) { return &g_ops; }

#ifdef TTDUT_SPEC_REF_SO
__attribute__((visibility("default"))) const ttdut_ops *ttdut_entry(void);
__attribute__((visibility("default"))) const ttdut_ops *ttdut_entry(void) { return &g_ops; }
#endif
