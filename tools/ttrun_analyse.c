/* ttrun_analyse.c — after the run: why each thread that is not done is stuck, what would
 * release it and which instructions of the other threads could; and every location that
 * changed from reset (plus every init location). */
#include <string.h>

#include "ttrun.h"

thr_report g_rep[TT_THREAD_COUNT];
change *g_ch;
size_t g_nch;
static size_t g_capch;

/* ---- why a thread is stuck and who could release it ---------------------------------------- */

typedef int (*insn_pred)(const tt_insn *in, uint32_t arg);
static int p_sem_up(const tt_insn *in, uint32_t m) {   /* makes some sem in m non-zero */
  return (in->form == TT_FORM_SEMPOST && (in->a.SEMPOST.sem_mask & m)) ||
         (in->form == TT_FORM_SEMINIT && (in->a.SEMINIT.sem_mask & m) && in->a.SEMINIT.new_value);
}
static int p_sem_down(const tt_insn *in, uint32_t m) { /* lowers Value below Max */
  return (in->form == TT_FORM_SEMGET && (in->a.SEMGET.sem_mask & m)) ||
         (in->form == TT_FORM_SEMINIT && (in->a.SEMINIT.sem_mask & m) &&
          in->a.SEMINIT.new_value < in->a.SEMINIT.new_max);
}
static int p_seminit_below_max(const tt_insn *in, uint32_t m) {  /* Max 0: only a SEMINIT */
  return in->form == TT_FORM_SEMINIT && (in->a.SEMINIT.sem_mask & m) &&
         in->a.SEMINIT.new_value < in->a.SEMINIT.new_max;
}
static int p_sem_any(const tt_insn *in, uint32_t m) {
  return p_sem_up(in, m) || p_sem_down(in, m);
}
static int p_atrelm(const tt_insn *in, uint32_t idx) {
  return in->form == TT_FORM_ATRELM && tt_mutex_index(&g_st, in) == idx;
}
static int p_mmio_store(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_STOREREG || in->form == TT_FORM_STOREIND_MMIO;
}
static int p_l1_write(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_STOREIND_L1 || in->form == TT_FORM_ATSWAP ||
         in->form == TT_FORM_ATINCGET || in->form == TT_FORM_ATINCGETPTR || in->form == TT_FORM_ATCAS;
}
static int p_unpacr(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_FOREIGN && in->foreign == TT_FG_ID_UNPACR;
}
static int p_matrix(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_FOREIGN && (in->block_bits & 0x040u) &&
         tt_isa_foreign[in->foreign].kind == TT_FG_GATE;
}

/* First instruction of thread u from its head on that satisfies pred, or -1. */
static long find_in(unsigned u, insn_pred pred, uint32_t arg) {
  const tt_thread *th = &g_st.c.thr[u];
  for (uint32_t k = th->pc; k < th->len; k++) {
    tt_insn in;
    tt_decode(g_st.prog[u][k], &in);
    if (pred(&in, arg)) return (long)k;
  }
  return -1;
}

static void find_releasers(unsigned t, insn_pred pred, uint32_t arg, thr_report *r) {
  char tmp[300];
  size_t len = 0;
  tmp[0] = 0;
  for (unsigned u = 0; u < TT_THREAD_COUNT; u++) {
    if (u == t) continue;
    long k = find_in(u, pred, arg);
    if (k >= 0) {
      r->rel[r->nrel].thread = u;
      r->rel[r->nrel].index = (uint32_t)k;
      r->nrel++;
      r->waits_on |= 1u << u;
      continue;
    }
    if (!g_src[u].path) continue;
    int n = snprintf(tmp + len, sizeof tmp - len, "%st%u %s", len ? ", " : "", u,
                     tt_thread_done(&g_st, u) ? "finished" : "has none left");
    if (n > 0 && (size_t)n < sizeof tmp - len) len += (size_t)n;
  }
  snprintf(r->nobody, sizeof r->nobody, "%s", tmp);
}

/* The model's own words for thread t's wait (tt_describe_wait), without its
 * "at instruction K (WORD): " head, which the report prints on its own line. */
static void reason_from_model(unsigned t, thr_report *r) {
  char a[200];
  tt_describe_wait(&g_st, t, a, sizeof a);
  const char *p = strstr(a, "): ");
  snprintf(r->reason, sizeof r->reason, "%s", p ? p + 3 : a);
}

/* "SEMWAIT sem1 (MATH_PACK) Value==0 (value 0, max 1); ...", and a note when a selected
 * semaphore has Max 0 under the Value>=Max condition. */
static void semwait_reason(const tt_latch *l, thr_report *r) {
  size_t len = 0;
  len += (size_t)snprintf(r->reason + len, sizeof r->reason - len, "SEMWAIT");
  for (unsigned i = 0; i < TT_SEM_COUNT && len < sizeof r->reason; i++) {
    if (!(l->sem_mask >> i & 1u)) continue;
    len += (size_t)snprintf(r->reason + len, sizeof r->reason - len,
                            " sem%u (%s) %s%s%s (value %u, max %u);", i, sem_llk[i],
                            l->cond_mask & 1 ? "Value==0" : "",
                            (l->cond_mask & 3) == 3 ? " or " : "",
                            l->cond_mask & 2 ? "Value>=Max" : "", g_st.c.sem_value[i],
                            g_st.c.sem_max[i]);
  }
  if (len && r->reason[len - 1] == ';') r->reason[len - 1] = 0;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    if ((l->sem_mask >> i & 1u) && (l->cond_mask & 2u) && g_st.c.sem_max[i] == 0) {
      len = strlen(r->reason);
      snprintf(r->reason + len, sizeof r->reason - len,
               " — sem%u has Max 0, so Value>=Max always holds until a SEMINIT sets Max (on hardware"
               " firmware may do that: try --init sem[%u].max=N)", i, i);
      break;
    }
}

static void latch_semwait(unsigned t, const tt_latch *l, const char *blocks, thr_report *r) {
  char a[200];
  semwait_reason(l, r);
  snprintf(r->holds, sizeof r->holds, "block mask 0x%03X (%s)", l->block_mask, blocks);
  sem_list(a, sizeof a, l->sem_mask);
  unsigned c = l->cond_mask & 3u;
  int max_set = 0;  /* some selected semaphore has Max > 0: a SEMGET can bring Value below it */
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    if ((l->sem_mask >> i & 1u) && g_st.c.sem_max[i]) max_set = 1;
  snprintf(r->need, sizeof r->need, "%s of %s by another thread",
           c == 1 ? "a SEMPOST (or SEMINIT to a non-zero value)"
           : c == 2 ? (max_set ? "a SEMGET (or SEMINIT below Max)" : "a SEMINIT that sets Max above Value (a SEMGET cannot: Max is 0)")
           : "a SEMPOST, SEMGET or SEMINIT", a);
  find_releasers(t, c == 1 ? p_sem_up : c == 2 ? (max_set ? p_sem_down : p_seminit_below_max) : p_sem_any,
                 l->sem_mask, r);
}

static void latch_stallwait(unsigned t, const tt_latch *l, const char *blocks, thr_report *r) {
  char conds[160];
  mask_names(conds, sizeof conds, l->cond_mask, cond_llk, 13);
  size_t len = (size_t)snprintf(r->reason, sizeof r->reason,
                                "STALLWAIT conditions %s (0x%04X): keep waiting while any of:",
                                conds, l->cond_mask);
  for (unsigned i = 0; i < 13 && len < sizeof r->reason; i++)
    if (l->cond_mask >> i & 1u)
      len += (size_t)snprintf(r->reason + len, sizeof r->reason - len, " C%u %s;", i, cond_text[i]);
  if (len && len < sizeof r->reason && r->reason[len - 1] == ';') r->reason[len - 1] = 0;
  snprintf(r->holds, sizeof r->holds, "block mask 0x%03X (%s)", l->block_mask, blocks);
  if (l->cond_mask & 0x180u) {
    snprintf(r->need, sizeof r->need, "an UNPACR (hands SrcA/SrcB to the matrix unit)");
    find_releasers(t, p_unpacr, 0, r);
  } else if (l->cond_mask & 0x060u) {
    snprintf(r->need, sizeof r->need, "a matrix-unit instruction (hands SrcA/SrcB back to the unpackers)");
    find_releasers(t, p_matrix, 0, r);
  } else {
    snprintf(r->need, sizeof r->need, "the units named by the conditions to finish");
  }
}

static void latch_streamwait(unsigned t, const tt_latch *l, const char *blocks, thr_report *r) {
  unsigned stream = g_st.c.tcfg[t][TT_TCFG_STREAM_ID_SYNC + (l->stream_select & 3)] & 0x3F;
  unsigned reg = l->condition_index ? TT_STREAM_MSGS_REG : TT_STREAM_PHASE_REG;
  uint32_t addr = TT_STREAM_BASE + stream * 0x1000u + reg * 4u;
  snprintf(r->reason, sizeof r->reason,
           "STREAMWAIT stream %u %s (mmio[0x%08X] = %u) < target %u",
           stream, l->condition_index ? "messages received" : "phase", addr,
           tt_mmio_read(&g_st, addr), l->target);
  snprintf(r->holds, sizeof r->holds, "block mask 0x%03X (%s)", l->block_mask, blocks);
  snprintf(r->need, sizeof r->need,
           "a write of mmio[0x%08X] (STOREREG / STOREIND MMIO; the NoC overlay is otherwise static in the model)", addr);
  find_releasers(t, p_mmio_store, 0, r);
}

/* Held by the wait latch of an earlier SEMWAIT, STALLWAIT or STREAMWAIT. */
static void wait_latch(unsigned t, thr_report *r) {
  const tt_thread *th = &g_st.c.thr[t];
  const tt_latch *l = &th->latch;
  char b[200];
  r->latch_index = latch_setter(t, th->pc);
  mask_names(b, sizeof b, l->block_mask, block_llk, 9);
  if (l->op == TT_LATCH_SEMWAIT) latch_semwait(t, l, b, r);
  else if (l->op == TT_LATCH_STALLWAIT) latch_stallwait(t, l, b, r);
  else if (l->op == TT_LATCH_STREAMWAIT) latch_streamwait(t, l, b, r);
}

/* An ATGETM waiting for a mutex another thread holds (or one reserved for another thread). */
static void wait_mutex(unsigned t, thr_report *r) {
  tt_insn in;
  tt_decode(g_st.prog[t][g_st.c.thr[t].pc], &in);
  uint32_t i = tt_mutex_index(&g_st, &in) % TT_MUTEX_SLOTS;
  unsigned holder = g_st.c.mutex[i];
  if (holder)
    snprintf(r->reason, sizeof r->reason, "ATGETM mutex %u%s: held by t%u", i,
             i == 0 ? " (REG_RMW)" : i == 4 ? " (SFPU)" : "", holder - 1);
  else
    snprintf(r->reason, sizeof r->reason,
             "ATGETM mutex %u: free, but reserved for t%u by the ATRELM fairness rule", i,
             g_st.c.mutex_handoff[i] - 1);
  snprintf(r->need, sizeof r->need, "an ATRELM %u by t%u", i, holder ? holder - 1 : 0);
  if (!holder || holder - 1 == t) return;
  long k = find_in(holder - 1, p_atrelm, i);
  if (k >= 0) {
    r->rel[0].thread = holder - 1;
    r->rel[0].index = (uint32_t)k;
    r->nrel = 1;
    r->waits_on = 1u << (holder - 1);
  } else {
    snprintf(r->nobody, sizeof r->nobody, "t%u %s without releasing it", holder - 1,
             tt_thread_done(&g_st, holder - 1) ? "finished" : "has no ATRELM left");
  }
}

static void wait_mutex_invalid(unsigned t, thr_report *r) {
  tt_insn in;
  tt_decode(g_st.prog[t][g_st.c.thr[t].pc], &in);
  snprintf(r->reason, sizeof r->reason,
           "%s on mutex index %u, which does not exist on Blackhole (valid: 0, 2, 3, 4): it waits forever",
           tt_insn_name(&in), (unsigned)tt_mutex_index(&g_st, &in));
  snprintf(r->need, sizeof r->need, "nothing (an invalid index never completes)");
  snprintf(r->nobody, sizeof r->nobody, "no instruction can");
}

/* Thread t's report: its state and, when it is not done, the wait in words, what would release
 * it and who could. */
void analyse(unsigned t) {
  thr_report *r = &g_rep[t];
  const tt_thread *th = &g_st.c.thr[t];
  memset(r, 0, sizeof *r);
  r->latch_index = -1;
  if (!g_src[t].path) { r->state = "no program"; return; }
  if (tt_thread_done(&g_st, t)) { r->state = "done"; return; }
  r->state = tt_thread_blocked(&g_st, t) ? "blocked" : "not done";
  switch ((tt_wait_kind)th->wait_kind) {
  case TT_WAIT_LATCH: wait_latch(t, r); break;
  case TT_WAIT_MUTEX: wait_mutex(t, r); break;
  case TT_WAIT_MUTEX_INVALID: wait_mutex_invalid(t, r); break;
  case TT_WAIT_ATCAS:
  case TT_WAIT_ATINCGETPTR:
  case TT_WAIT_THCON_BUSY:
    reason_from_model(t, r);
    snprintf(r->need, sizeof r->need, "a write of the L1 word the atomic reads (by another thread)");
    find_releasers(t, p_l1_write, 0, r);
    break;
  case TT_WAIT_NONE:
  case TT_WAIT_BUDGET:
  case TT_WAIT_THCON_OWN:
  case TT_WAIT_CFG_ENTRY:
  case TT_WAIT_SYNC_SLOT:
  case TT_WAIT_ARBITRATION:
  case TT_WAIT_WB_FULL:
  case TT_WAIT_KIND_COUNT:
    reason_from_model(t, r);
    break;
  }
}

/* ---- what changed from reset ---------------------------------------------------------------- */
static void diff_cb(void *ctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  (void)ctx;
  if (g_nch == g_capch) {
    g_capch = g_capch ? 2 * g_capch : 256;
    g_ch = xrealloc(g_ch, g_capch * sizeof *g_ch);
  }
  g_ch[g_nch].loc = *loc;
  g_ch[g_nch].from = a;
  g_ch[g_nch].to = b;
  g_ch[g_nch].inited = 0;
  g_nch++;
}
static int same_loc(const tt_loc *a, const tt_loc *b) {
  return a->kind == b->kind && a->sel == b->sel && a->index == b->index;
}
/* Changed from reset, plus every init location (kept even if it ends at 0). */
void collect_changes(void) {
  tt_state_diff(&g_ref, &g_st, diff_cb, NULL);
  for (unsigned i = 0; i < g_ninits; i++) {
    int found = 0;
    for (size_t k = 0; k < g_nch; k++)
      if (same_loc(&g_ch[k].loc, &g_inits[i].loc)) { g_ch[k].inited = 1; found = 1; }
    if (!found && g_inits[i].loc.kind != TT_LOC_L1_U8 && g_inits[i].loc.kind != TT_LOC_L1_U16) {
      diff_cb(NULL, &g_inits[i].loc, tt_loc_get(&g_ref, &g_inits[i].loc), tt_loc_get(&g_st, &g_inits[i].loc));
      g_ch[g_nch - 1].inited = 1;
    }
  }
}

