/* ttrun_stall.c — every stall cycle of a cycle-mode run attributed to a structured reason: a
 * semaphore empty or full (which one, its Value and Max), STALLWAIT (the conditions that held and
 * their units), STREAMWAIT, a mutex (its holder), ThCon (its holder), a Config entry (the stages'
 * occupants), the Sync slot or an arbitration (the thread that won it), with the instruction that
 * set the latch. Counted from the model's own stall counters (each cycle the model adds to
 * tt_stall_cycles(t, kind) is given the detail seen at that cycle), so the totals agree. */
#include <string.h>

#include "sched.h"   /* tt_cycle_conditions: the STALLWAIT conditions the Wait Gate is given */
#include "ttrun.h"

stall_row *g_srow;
size_t g_nsrow;
static size_t g_capsrow;

const char *const stall_class_name[ST_COUNT] = {
  "semaphore_empty", "semaphore_full", "resource_wait", "stream_wait", "mutex_wait", "mutex_invalid",
  "atomic_retry", "thcon_busy", "thcon_own", "cfg_entry", "sync_slot", "arbitration", "wb_full", "latch_release", "other"};

/* What the gate saw before the cycle: conditions, semaphores, ThCon and Config occupants. */
typedef struct gate_view {
  uint32_t conds[TT_THREAD_COUNT];
  uint8_t sem_v[TT_SEM_COUNT], sem_m[TT_SEM_COUNT];
  int8_t thcon, cfg[TT_CFGP_STAGE_COUNT];
  uint32_t stall[TT_THREAD_COUNT][TT_WAIT_KIND_COUNT];
  uint32_t pc[TT_THREAD_COUNT], now;
  tt_latch latch[TT_THREAD_COUNT];
  uint8_t mutex[TT_MUTEX_SLOTS], handoff[TT_MUTEX_SLOTS];
} gate_view;
static gate_view g_before;

void stall_before(void) {
  tt_unit_view v;
  if (g_st.p.mode != TT_MODE_CYCLE) return;
  tt_unit_view_get(&g_st, &v);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    g_before.conds[t] = tt_cycle_conditions(&g_st, t);
    g_before.pc[t] = g_st.c.thr[t].pc;
    g_before.latch[t] = g_st.c.thr[t].latch;
  }
  g_before.now = g_st.c.cyc.now;
  memcpy(g_before.mutex, g_st.c.mutex, sizeof g_before.mutex);
  memcpy(g_before.handoff, g_st.c.mutex_handoff, sizeof g_before.handoff);
  memcpy(g_before.sem_v, g_st.c.sem_value, sizeof g_before.sem_v);
  memcpy(g_before.sem_m, g_st.c.sem_max, sizeof g_before.sem_m);
  memcpy(g_before.stall, g_st.c.cyc.stall, sizeof g_before.stall);
  g_before.thcon = (int8_t)(g_st.c.cyc.thcon_owner ? (int)g_st.c.cyc.thcon_owner - 1 : -1);
  memcpy(g_before.cfg, v.cfg_stage_thread, sizeof g_before.cfg);
}

/* The last STALLWAIT, SEMWAIT or STREAMWAIT of thread t before pc: it set the latch. */
int latch_setter(unsigned t, uint32_t pc) {
  for (long k = (long)pc - 1; k >= 0; k--) {
    tt_insn in;
    tt_decode(g_st.prog[t][k], &in);
    if (in.form == TT_FORM_STALLWAIT || in.form == TT_FORM_SEMWAIT || in.form == TT_FORM_STREAMWAIT)
      return (int)k;
  }
  return -1;
}

/* A SEMWAIT latch: the first selected semaphore whose condition holds (empty, or full), with the
 * values the gate saw (before the cycle), else those after it (a SEMINIT in the same cycle). */
static int sem_holds(const tt_latch *l, const uint8_t *val, const uint8_t *max, stall_why *w) {
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    if (!(l->sem_mask >> i & 1u)) continue;
    int empty = (l->cond_mask & 1u) && val[i] == 0, full = (l->cond_mask & 2u) && val[i] >= max[i];
    if (!empty && !full) continue;
    w->cls = empty ? ST_SEM_EMPTY : ST_SEM_FULL;
    w->sem = (int8_t)i;
    w->value = val[i];
    w->max = max[i];
    return 1;
  }
  return 0;
}
static void why_semaphore(const tt_latch *l, stall_why *w) {
  if (sem_holds(l, g_before.sem_v, g_before.sem_m, w) || sem_holds(l, g_st.c.sem_value, g_st.c.sem_max, w)) return;
  w->cls = ST_LATCH_RELEASE;   /* satisfied: the gate forgets the latch at the end of the cycle */
}

/* Another thread that issued in the cycle just simulated (it won the slot or the round), or -1. */
static int winner(unsigned t) {
  for (unsigned u = 0; u < TT_THREAD_COUNT; u++)
    if (u != t && g_st.c.thr[u].pc != g_before.pc[u]) return (int)u;
  return -1;
}

static void why_latch(unsigned t, stall_why *w) {
  /* the latch after the cycle, or (released in it) the one the gate held the thread on */
  const tt_latch *l = g_st.c.thr[t].latch.op != TT_LATCH_NONE ? &g_st.c.thr[t].latch : &g_before.latch[t];
  w->latch = latch_setter(t, g_st.c.thr[t].pc);
  if (l->op == TT_LATCH_SEMWAIT) why_semaphore(l, w);
  else if (l->op == TT_LATCH_STALLWAIT) {
    w->cls = ST_RESOURCE;
    w->conds = (uint16_t)(l->cond_mask & (g_before.conds[t] | (g_st.p.mode == TT_MODE_CYCLE ? tt_cycle_conditions(&g_st, t) : 0)));
    if (!w->conds) w->cls = ST_LATCH_RELEASE;
  } else w->cls = ST_STREAM;
}

/* The detail of one stall of thread t of wait kind k. */
static void why(unsigned t, unsigned k, stall_why *w) {
  memset(w, 0, sizeof *w);
  w->kind = (uint8_t)k;
  w->sem = -1;
  w->holder = -1;
  w->latch = -1;
  w->at = g_st.c.thr[t].pc;
  switch ((tt_wait_kind)k) {
  case TT_WAIT_LATCH: why_latch(t, w); break;
  case TT_WAIT_MUTEX: {
    tt_insn in;
    tt_decode(g_st.prog[t][w->at], &in);
    w->cls = ST_MUTEX;
    w->mutex = tt_mutex_index(&g_st, &in) % TT_MUTEX_SLOTS;
    w->holder = (int8_t)(g_before.mutex[w->mutex] ? (int)g_before.mutex[w->mutex] - 1 : -1);
    if (w->holder < 0 && g_before.handoff[w->mutex]) w->value = (uint8_t)g_before.handoff[w->mutex];
    break;
  }
  case TT_WAIT_MUTEX_INVALID: w->cls = ST_MUTEX_INVALID; break;
  case TT_WAIT_ATCAS: case TT_WAIT_ATINCGETPTR: w->cls = ST_ATOMIC; break;
  case TT_WAIT_THCON_BUSY: w->cls = ST_THCON_BUSY; w->holder = g_before.thcon; break;
  case TT_WAIT_THCON_OWN: w->cls = ST_THCON_OWN; w->holder = (int8_t)t; break;
  case TT_WAIT_CFG_ENTRY:
    w->cls = ST_CFG_ENTRY;
    for (unsigned s = 0; s < TT_CFGP_STAGE_COUNT; s++)
      if (g_before.cfg[s] >= 0) w->conds |= (uint16_t)(1u << (s * 2 + (unsigned)(g_before.cfg[s] != (int)t)));
    break;
  case TT_WAIT_SYNC_SLOT: w->cls = ST_SYNC_SLOT; w->holder = (int8_t)winner(t); break;
  case TT_WAIT_ARBITRATION: {
    tt_insn in;
    tt_decode(g_st.prog[t][w->at], &in);
    w->cls = ST_ARBITRATION;
    w->holder = (int8_t)winner(t);
    w->conds = in.form >= TT_FORM_FOREIGN ? 0 : tt_isa_mnems[in.mnem].unit == TT_UNIT_THCON ? 1
               : tt_isa_mnems[in.mnem].unit == TT_UNIT_SYNC ? 3 : 2;
    break;
  }
  case TT_WAIT_WB_FULL: w->cls = ST_WB_FULL; break;
  case TT_WAIT_NONE: case TT_WAIT_BUDGET: case TT_WAIT_KIND_COUNT: w->cls = ST_OTHER; break;
  }
}

/* The structured reason thread t is held now (at the end of the run), in either mode. */
void stall_now(unsigned t, stall_why *w) {
  int cyc = g_st.p.mode == TT_MODE_CYCLE;
  if (cyc) stall_before();
  else {
    memcpy(g_before.sem_v, g_st.c.sem_value, sizeof g_before.sem_v);
    memcpy(g_before.sem_m, g_st.c.sem_max, sizeof g_before.sem_m);
    memcpy(g_before.mutex, g_st.c.mutex, sizeof g_before.mutex);
    memcpy(g_before.handoff, g_st.c.mutex_handoff, sizeof g_before.handoff);
    for (unsigned u = 0; u < TT_THREAD_COUNT; u++) {
      g_before.latch[u] = g_st.c.thr[u].latch;
      g_before.pc[u] = g_st.c.thr[u].pc;
      g_before.conds[u] = 0;
    }
  }
  why(t, g_st.c.thr[t].wait_kind, w);
}

static long row_of(unsigned t, const stall_why *w) {
  static long last[TT_THREAD_COUNT] = {-1, -1, -1};   /* a stall usually continues the last one */
  if (last[t] >= 0 && (size_t)last[t] < g_nsrow && !memcmp(&g_srow[last[t]].w, w, sizeof *w)) return last[t];
  for (size_t i = g_nsrow; i-- > 0;)
    if (g_srow[i].t == t && !memcmp(&g_srow[i].w, w, sizeof *w)) return last[t] = (long)i;
  last[t] = (long)g_nsrow;
  if (g_nsrow == g_capsrow) {
    g_capsrow = g_capsrow ? 2 * g_capsrow : 64;
    g_srow = xrealloc(g_srow, g_capsrow * sizeof *g_srow);
  }
  memset(&g_srow[g_nsrow], 0, sizeof *g_srow);
  g_srow[g_nsrow].w = *w;   /* whole struct copied: memcmp sees no stale padding (why() zeroes it) */
  g_srow[g_nsrow].t = t;
  return (long)g_nsrow++;
}

/* After the cycle: each stall cycle the model counted, with its detail. Returns, per thread, the
 * row of this cycle's stall (-1 none) in rows[]. */
void stall_after(long rows[TT_THREAD_COUNT]) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    rows[t] = -1;
    if (g_st.p.mode != TT_MODE_CYCLE) continue;
    for (unsigned k = 1; k < TT_WAIT_KIND_COUNT; k++) {
      uint32_t d = g_st.c.cyc.stall[t][k] - g_before.stall[t][k];
      if (!d) continue;
      stall_why w;
      why(t, k, &w);
      long r = row_of(t, &w);
      if (!g_srow[r].cycles) g_srow[r].first = g_before.now;
      g_srow[r].cycles += d;
      g_srow[r].last = g_before.now;
      rows[t] = r;
    }
  }
}
