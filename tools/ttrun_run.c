/* ttrun_run.c — the run: tt_step() at a time exactly as tt_run() does, noting every fault's
 * instruction and, with --trace, every issue, stall, unit occupancy and semaphore change. */
#include <string.h>

#include "ttrun.h"

fault_rec *g_faults[TT_THREAD_COUNT];
uint32_t g_nfaults[TT_THREAD_COUNT];
static uint32_t g_capfaults[TT_THREAD_COUNT];
int g_tracing;
slice *g_sl;
size_t g_nsl;
static size_t g_capsl;
counter_ev *g_ctr;
size_t g_nctr;
static size_t g_capctr;
uint32_t *g_done_at[TT_THREAD_COUNT];
static long g_open_stall[TT_THREAD_COUNT];     /* slice index of the running stall, -1 */
static long g_open_unit[TR_COUNT];
uint32_t g_sem_seen;
uint8_t g_sem0[TT_SEM_COUNT], g_max0[TT_SEM_COUNT];

static slice *new_slice(void) {
  if (g_nsl == g_capsl) {
    g_capsl = g_capsl ? 2 * g_capsl : 4096;
    g_sl = xrealloc(g_sl, g_capsl * sizeof *g_sl);
  }
  slice *s = &g_sl[g_nsl++];
  memset(s, 0, sizeof *s);
  return s;
}
static void counter(uint32_t ts, unsigned id, uint8_t v, uint8_t m) {
  if (g_nctr == g_capctr) {
    g_capctr = g_capctr ? 2 * g_capctr : 1024;
    g_ctr = xrealloc(g_ctr, g_capctr * sizeof *g_ctr);
  }
  g_ctr[g_nctr].ts = ts;
  g_ctr[g_nctr].id = (uint8_t)id;
  g_ctr[g_nctr].value = v;
  g_ctr[g_nctr].max = m;
  g_nctr++;
}

static void note_fault(unsigned t, uint32_t index) {
  if (g_nfaults[t] == g_capfaults[t]) {
    g_capfaults[t] = g_capfaults[t] ? 2 * g_capfaults[t] : 16;
    g_faults[t] = xrealloc(g_faults[t], g_capfaults[t] * sizeof *g_faults[t]);
  }
  g_faults[t][g_nfaults[t]++].index = index;
}

static int is_sync_slot_form(unsigned f) {
  return f == TT_FORM_SEMINIT || f == TT_FORM_SEMPOST || f == TT_FORM_SEMGET ||
         f == TT_FORM_STALLWAIT || f == TT_FORM_SEMWAIT || f == TT_FORM_STREAMWAIT;
}

/* Cycles a foreign instruction keeps its unit stub busy (0: no stub), as cycle.c counts them. */
static unsigned stub_len(const tt_state *st, const tt_insn *in) {
  if (in->form != TT_FORM_FOREIGN) return 0;
  if (in->foreign == TT_FG_ID_SFPNOP || in->foreign == TT_FG_ID_UNPACR_NOP) return 0;
  if (tt_isa_foreign[in->foreign].kind == TT_FG_FRONTEND) return 0;
  if (!(in->block_bits & 0x15Cu) && in->foreign != TT_FG_ID_UNPACR) return 0;
  return knob_num(st, TT_KNOB_STUB_CYCLES);
}

static void unit_occupy(unsigned track, int thread, uint32_t index, uint32_t cyc) {
  long o = g_open_unit[track];
  if (o >= 0 && g_sl[o].thread == thread && g_sl[o].index == index && g_sl[o].end == cyc) {
    g_sl[o].end = cyc + 1;
  } else {
    slice *s = new_slice();
    s->kind = SL_UNIT;
    s->track = (uint8_t)track;
    s->thread = (int16_t)thread;
    s->index = index;
    s->start = cyc;
    s->end = cyc + 1;
    g_open_unit[track] = (long)(s - g_sl);
  }
  if (thread >= 0 && index < g_src[thread].n && g_done_at[thread][index] < cyc + 1)
    g_done_at[thread][index] = cyc + 1;
}

/* A stall cycle of thread t with structured reason row: extends the running stall slice. */
static void stall_slice(unsigned t, long row, uint32_t c) {
  long o = g_open_stall[t];
  if (o >= 0 && g_sl[o].index == (uint32_t)row && g_sl[o].end == c && g_sl[o].start <= c) {
    g_sl[o].end = c + 1;
    return;
  }
  slice *s = new_slice();
  s->kind = SL_STALL;
  s->thread = (int16_t)t;
  s->index = (uint32_t)row;
  s->start = c;
  s->end = c + 1;
  g_open_stall[t] = (long)(s - g_sl);
}

/* After one cycle-mode step: record issues, stalls, unit occupancy and semaphore changes. */
static void trace_cycle(const uint32_t *pc_before, const uint32_t *ret_before, const uint8_t *sem_before,
                        const long *rows) {
  tt_unit_view v;
  tt_unit_view_get(&g_st, &v);
  uint32_t c = v.cycle;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &g_st.c.thr[t];
    uint64_t ic;
    uint32_t k = pc_before[t];
    int issued = th->retired > ret_before[t] && tt_issue_cycle(&g_st, t, k, &ic) == 0 && ic == c;
    /* a spinning atomic issues at its first attempt without retiring */
    if (!issued && k < th->len && th->pc == k && tt_issue_cycle(&g_st, t, k, &ic) == 0 && ic == c &&
        ret_before[t] == th->retired)
      issued = 1;
    if (issued) {
      tt_insn in;
      tt_decode(g_st.prog[t][k], &in);
      slice *s = new_slice();
      s->kind = SL_INSN;
      s->thread = (int16_t)t;
      s->index = k;
      s->start = c;
      s->end = c + 1;
      uint32_t done = c + 1;
      if (in.form == TT_FORM_LOADIND) done = c + knob_num(&g_st, TT_KNOB_LOAD_LATENCY);
      if (in.form == TT_FORM_LOADREG) done = c + knob_num(&g_st, TT_KNOB_LOADREG_LATENCY);
      if (in.form == TT_FORM_ATINCGET) done = c + knob_num(&g_st, TT_KNOB_ATINCGET_LATENCY);
      if (stub_len(&g_st, &in)) done = c + stub_len(&g_st, &in);
      if (g_done_at[t][k] < done) g_done_at[t][k] = done;
      if (is_sync_slot_form(in.form)) unit_occupy(TR_SYNC, (int)t, k, c);
      g_open_stall[t] = -1;
    } else if (rows[t] >= 0) {
      stall_slice(t, rows[t], c);
    }
  }
  if (v.thcon_thread >= 0) unit_occupy(TR_THCON, v.thcon_thread, g_st.c.cyc.thcon_pc, c);
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++)
    if (v.cfg_stage_thread[k] >= 0) unit_occupy(TR_CFG0 + k, v.cfg_stage_thread[k], g_st.c.cyc.cfgp[k].pc, c);
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    if (g_st.c.sem_value[i] != sem_before[i] || g_st.c.sem_max[i] != sem_before[TT_SEM_COUNT + i]) {
      g_sem_seen |= 1u << i;
      counter(c + 1, i, g_st.c.sem_value[i], g_st.c.sem_max[i]);
    }
}

/* Run exactly as tt_run() does, one tt_step() at a time, observing each step. */
tt_outcome run(void) {
  tt_outcome out;
  uint64_t i = 0;
  int cycle = g_st.p.mode == TT_MODE_CYCLE;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) g_open_stall[t] = -1;
  for (unsigned k = 0; k < TR_COUNT; k++) g_open_unit[k] = -1;
  for (;; i++) {
    int done_all = 1;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) done_all &= tt_thread_done(&g_st, t);
    if (!cycle && done_all) { out = TT_OUT_DONE; break; }
    if (i >= g_budget) { out = TT_OUT_BUDGET; break; }
    uint32_t pc[TT_THREAD_COUNT], ret[TT_THREAD_COUNT], nf[TT_THREAD_COUNT];
    uint8_t sem[2 * TT_SEM_COUNT];
    long rows[TT_THREAD_COUNT];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      pc[t] = g_st.c.thr[t].pc;
      ret[t] = g_st.c.thr[t].retired;
      nf[t] = g_st.c.thr[t].fault_count;
    }
    memcpy(sem, g_st.c.sem_value, TT_SEM_COUNT);
    memcpy(sem + TT_SEM_COUNT, g_st.c.sem_max, TT_SEM_COUNT);
    uint32_t now = g_st.c.cyc.now;
    stall_before();
    int r = tt_step(&g_st);
    stall_after(rows);
    if (cycle) hazard_observe();
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      for (uint32_t k = nf[t]; k < g_st.c.thr[t].fault_count && k < 65535; k++) note_fault(t, pc[t]);
    if (g_tracing && g_st.c.cyc.now != now) trace_cycle(pc, ret, sem, rows);
    if (!r) {
      out = cycle ? (g_st.c.cyc.finished ? TT_OUT_DONE : TT_OUT_DEADLOCK) : TT_OUT_DEADLOCK;
      break;
    }
  }
  g_st.c.last_outcome = (uint8_t)out;
  return out;
}

