/* cycle_vs_func.c — cycle mode checked cycle by cycle, and against functional mode.
 *
 * Per cycle (every input, in cycle mode):
 *   one_issue_per_thread  no thread passes its Wait Gate twice in one cycle
 *   thcon_exclusive       a ThCon instruction issues only into a free Scalar Unit, one per cycle
 *   sync_slot_single      at most one SEMINIT/SEMPOST/SEMGET/STALLWAIT/SEMWAIT/STREAMWAIT per cycle
 *   cfg_stage_single      every Config-pipeline entry is accounted for: stages hold exactly the
 *                         entered-but-not-left instructions (an overwrite loses one)
 *   cfg_order             a thread's Config accesses happen in program order, except past a
 *                         STREAMWRCFG in its prepare stage (the documented bug, reported as a
 *                         streamwrcfg_order hazard)
 *   cycle_deadlock_soundness  a reported deadlock is a fixed point: 32 more cycles change nothing
 *   cycle_determinism     the same program from reset gives the same state, cycles, issue cycles,
 *                         hazards and stall counters
 *   fast_forward          tt_run, which simulates a stretch of quiet cycles at once (and held
 *                         cycles without the gate), ends exactly where stepping cycle by cycle
 *                         does (the checked run steps; the determinism run is one tt_run: when
 *                         they differ, a second stepped run tells a fast-forward error from
 *                         nondeterminism)
 * Per admitted program:
 *   cycle_agreement       the cycle run reports no hazard and the program is race-free
 *                         (below): both modes complete, or neither does (unless completion may
 *                         depend on the interleaving: cross-thread SEMWAIT or mutex, or a
 *                         STALLWAIT on Src ownership, which only cycle mode can hold), and when
 *                         both complete they end in the same
 *                         architectural state (fz_digest; tt_state_diff names the locations),
 *                         Wait Gate latches aside (once all retired, a latch has no effect left)
 *
 * Race-freedom (a static, conservative predicate over the decoded streams; sound because it
 * leaves only programs whose final state cannot depend on the interleaving):
 *   - Config: no word written by one thread is read or written by another (banks ignored:
 *     conservative); a write that can hit STATE_RESET_EN (word 4) counts as writing 0..179;
 *     REG2FLOP counts as writing 64..179; CFGSHIFTMASK reads the scratch words 209..211;
 *   - memory (L1, MMIO incl. NoC overlay streams, the packer and Src stubs): if a thread writes
 *     it (stores, atomics, SETDMAREG special, STOREIND to Src) no other thread touches it
 *     (loads, STREAMWAIT and STREAMWRCFG reads included); a thread that both runs STREAMWRCFG
 *     and writes memory is left out (its overlay read and its store are in different units);
 *   - semaphore i used by two or more threads: no SEMINIT of it, and its value can never
 *     saturate whatever the order (initial value >= all SEMGETs, initial value + all SEMPOSTs
 *     <= 15), so SEMPOST/SEMGET commute and SEMWAIT only affects timing;
 *   - mutex m used by two or more threads: each user alternates ATGETM, ATRELM on it, ending
 *     released (so every completed run ends with m free).
 * `make bench` prints how many generated programs this admits. */
#include <stdio.h>
#include <string.h>
#include "fz.h"

static const char *const invariants[] = {
    "one_issue_per_thread", "thcon_exclusive", "sync_slot_single", "cfg_stage_single", "cfg_order",
    "cycle_deadlock_soundness", "cycle_determinism", "fast_forward", "cycle_agreement", NULL};

static tt_state st, fst;
static int ready;
static unsigned long long n_runs, n_admitted, n_compared, n_hazard, n_racy, n_not_done;

FZ_BOOKKEEPING static void init(void) {
  if (!ready) { tt_init(&st); tt_init(&fst); ready = 1; }
}

/* ---- race-freedom ------------------------------------------------------------------------------ */
typedef struct use {
  uint8_t cfg_r[TT_CFG_WORD_COUNT], cfg_w[TT_CFG_WORD_COUNT];
  uint8_t mem_r, mem_w, streamwrcfg;
  uint8_t sem_used[TT_SEM_COUNT], sem_init[TT_SEM_COUNT];
  unsigned sem_post[TT_SEM_COUNT], sem_get[TT_SEM_COUNT];
  uint8_t mutex_used[TT_MUTEX_SLOTS], mutex_held[TT_MUTEX_SLOTS], mutex_bad[TT_MUTEX_SLOTS];
  uint8_t sem_wait[TT_SEM_COUNT];
  uint8_t src_wait;   /* a STALLWAIT on C5..C8 (Src ownership: only cycle mode can hold it) */
} use;

static void cfg_mark(uint8_t *m, uint32_t idx, unsigned n) {
  for (unsigned k = 0; k < n; k++)
    if (idx + k < TT_CFG_WORD_COUNT) m[idx + k] = 1;
}

static void cfg_write(use *u, uint32_t idx, unsigned n) {
  cfg_mark(u->cfg_w, idx, n);
  if (idx <= TT_CFG_STATE_RESET_EN && idx + n > TT_CFG_STATE_RESET_EN)
    cfg_mark(u->cfg_w, 0, TT_CFG_GLOBAL_BASE);
}

static void sems(uint8_t *used, uint32_t mask) {
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    if (mask & (1u << i)) used[i] = 1;
}

FZ_BOOKKEEPING static void use_of(use *u, const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_WRCFG:
    if (in->a.WRCFG.is_128bit) cfg_write(u, in->a.WRCFG.cfg_index & ~3u, 4);
    else cfg_write(u, in->a.WRCFG.cfg_index, 1);
    break;
  case TT_FORM_RDCFG: cfg_mark(u->cfg_r, in->a.RDCFG.cfg_index, 1); break;
  case TT_FORM_RMWCIB0: cfg_mark(u->cfg_w, in->a.RMWCIB0.cfg_index, 1); break;
  case TT_FORM_RMWCIB1: cfg_mark(u->cfg_w, in->a.RMWCIB1.cfg_index, 1); break;
  case TT_FORM_RMWCIB2: cfg_mark(u->cfg_w, in->a.RMWCIB2.cfg_index, 1); break;
  case TT_FORM_RMWCIB3: cfg_mark(u->cfg_w, in->a.RMWCIB3.cfg_index, 1); break;
  case TT_FORM_CFGSHIFTMASK:
    cfg_write(u, in->a.CFGSHIFTMASK.cfg_index, 1);
    cfg_mark(u->cfg_r, TT_CFG_SCRATCH0, 3);
    break;
  case TT_FORM_STREAMWRCFG:
    cfg_write(u, in->a.STREAMWRCFG.cfg_index, 1);
    u->mem_r = u->streamwrcfg = 1;
    break;
  case TT_FORM_REG2FLOP: cfg_mark(u->cfg_w, 64, TT_CFG_GLOBAL_BASE - 64); break;
  case TT_FORM_SETDMAREG_SPECIAL: case TT_FORM_STOREIND_L1: case TT_FORM_STOREIND_MMIO:
  case TT_FORM_STOREIND_SRC: case TT_FORM_STOREREG: case TT_FORM_ATSWAP: case TT_FORM_ATCAS:
  case TT_FORM_ATINCGET: case TT_FORM_ATINCGETPTR:
    u->mem_w = 1;
    break;
  case TT_FORM_LOADIND: case TT_FORM_LOADREG: case TT_FORM_STREAMWAIT: u->mem_r = 1; break;
  case TT_FORM_SEMINIT: sems(u->sem_used, in->a.SEMINIT.sem_mask); sems(u->sem_init, in->a.SEMINIT.sem_mask); break;
  case TT_FORM_SEMWAIT:
    sems(u->sem_used, in->a.SEMWAIT.sem_mask);
    sems(u->sem_wait, in->a.SEMWAIT.sem_mask);
    break;
  case TT_FORM_STALLWAIT: u->src_wait |= (in->a.STALLWAIT.condition_mask & 0x1E0u) != 0; break;
  case TT_FORM_SEMPOST:
  case TT_FORM_SEMGET: {
    uint32_t mask = in->form == TT_FORM_SEMPOST ? in->a.SEMPOST.sem_mask : in->a.SEMGET.sem_mask;
    sems(u->sem_used, mask);
    for (unsigned i = 0; i < TT_SEM_COUNT; i++)
      if (mask & (1u << i)) (in->form == TT_FORM_SEMPOST ? u->sem_post : u->sem_get)[i]++;
    break;
  }
  case TT_FORM_ATGETM:
  case TT_FORM_ATRELM: {
    uint32_t i = in->form == TT_FORM_ATGETM ? in->a.ATGETM.mutex_index : in->a.ATRELM.mutex_index;
    if (i >= TT_MUTEX_SLOTS) break;  /* invalid: hangs, never a completed run */
    u->mutex_used[i] = 1;
    if ((in->form == TT_FORM_ATGETM) == (u->mutex_held[i] != 0)) u->mutex_bad[i] = 1;
    u->mutex_held[i] = in->form == TT_FORM_ATGETM;
    break;
  }
  default: break;
  }
}

/* 1 if race-free; *waits = 1 if whether every thread completes may depend on the interleaving
 * or on cycle-only state (a SEMWAIT on a semaphore another thread changes, a mutex several
 * threads take, a STALLWAIT on Src ownership). */
FZ_BOOKKEEPING static int race_free(const fz_prog *p, int *waits) {
  static use u[TT_THREAD_COUNT];
  memset(u, 0, sizeof u);
  *waits = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t k = 0; k < p->n[t]; k++) {
      tt_insn in;
      tt_decode(p->w[t][k], &in);
      use_of(&u[t], &in);
    }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (u[t].streamwrcfg && u[t].mem_w) return 0;
    for (unsigned o = 0; o < TT_THREAD_COUNT; o++) {
      if (o == t) continue;
      if (u[t].mem_w && (u[o].mem_w || u[o].mem_r)) return 0;
      for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++)
        if (u[t].cfg_w[i] && (u[o].cfg_w[i] || u[o].cfg_r[i])) return 0;
    }
  }
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    unsigned users = 0, inits = 0, posts = 0, gets = 0;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      users += u[t].sem_used[i];
      inits += u[t].sem_init[i];
      posts += u[t].sem_post[i];
      gets += u[t].sem_get[i];
    }
    if (users < 2) continue;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) *waits |= u[t].sem_wait[i];
    uint32_t v0 = 0;
    for (uint32_t k = 0; k < p->ninit; k++)
      if (p->init[k].loc.kind == TT_LOC_SEM_VALUE && p->init[k].loc.index == i) v0 = p->init[k].value;
    if (inits || v0 < gets || v0 + posts > 15) return 0;
  }
  for (unsigned m = 0; m < TT_MUTEX_SLOTS; m++) {
    unsigned users = 0, bad = 0;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      users += u[t].mutex_used[m];
      bad |= u[t].mutex_bad[m] | u[t].mutex_held[m];
    }
    if (users >= 2 && bad) return 0;
    if (users >= 2) *waits = 1;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) *waits |= u[t].src_wait;
  return 1;
}

/* ---- the cycle run, checked cycle by cycle ------------------------------------------------------- */
static int is_sync_slot(unsigned form) {
  return form == TT_FORM_SEMINIT || form == TT_FORM_SEMPOST || form == TT_FORM_SEMGET ||
         form == TT_FORM_STALLWAIT || form == TT_FORM_SEMWAIT || form == TT_FORM_STREAMWAIT;
}

static int is_thcon(const tt_insn *in) {
  return in->form < TT_FORM_FOREIGN && tt_isa_mnems[in->mnem].unit == TT_UNIT_THCON;
}

static uint64_t cycle_budget(const fz_prog *p) { return 64u * (uint64_t)fz_total(p) + 256u; }

FZ_BOOKKEEPING static unsigned cfgp_occupancy(const tt_state *s) {
  unsigned n = 0;
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++) n += s->c.cyc.cfgp[k].valid;
  return n;
}

static unsigned hazards_of(const tt_state *s, unsigned kind) { return tt_hazard_kind_count(s, kind); }

FZ_BOOKKEEPING static int one_cycle(fz_fail *f, uint64_t cyc, int *more) {
  uint32_t pc0[TT_THREAD_COUNT];
  tt_insn head[TT_THREAD_COUNT];
  const tt_cyc *c = &st.c.cyc;
  int thcon_free = !(c->thcon_owner && (c->thcon_spin || c->now < c->thcon_free_at));
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    pc0[t] = st.c.thr[t].pc;
    if (pc0[t] < st.c.thr[t].len) tt_decode(st.prog[t][pc0[t]], &head[t]);
  }
  uint32_t spin0 = c->thcon_spin ? c->thcon_owner : 0;
  *more = tt_step(&st);
  unsigned thcon_issues = 0, sync_issues = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint32_t d = st.c.thr[t].pc - pc0[t];
    FZ_CHECK(f, d <= 1, "one_issue_per_thread", "cycle %llu: t%u retired %u instructions",
             (unsigned long long)cyc, t, (unsigned)d);
    /* a ThCon head issued: retired, or started spinning in this cycle */
    int started_spin = !spin0 && c->thcon_spin && c->thcon_owner == 1 + t && d == 0 &&
                       pc0[t] < st.c.thr[t].len && is_thcon(&head[t]);
    int retired_here = d == 1 && !(spin0 == 1 + t);
    if ((retired_here && is_thcon(&head[t])) || started_spin) thcon_issues++;
    if (d == 1 && is_sync_slot(head[t].form)) sync_issues++;
  }
  FZ_CHECK(f, thcon_issues <= 1 && (thcon_issues == 0 || thcon_free), "thcon_exclusive",
           "cycle %llu: %u ThCon instruction(s) issued, ThCon %s at the start of the cycle",
           (unsigned long long)cyc, thcon_issues, thcon_free ? "free" : "busy");
  FZ_CHECK(f, sync_issues <= 1, "sync_slot_single", "cycle %llu: %u Sync-slot instructions issued",
           (unsigned long long)cyc, sync_issues);
  FZ_CHECK(f, cfgp_occupancy(&st) == c->cfgp_entered - c->cfgp_left, "cfg_stage_single",
           "cycle %llu: %u stages occupied, but %u entered and %u left", (unsigned long long)cyc,
           cfgp_occupancy(&st), (unsigned)c->cfgp_entered, (unsigned)c->cfgp_left);
  FZ_CHECK(f, c->cfgp_reorders <= hazards_of(&st, TT_HAZ_STREAMWRCFG_ORDER), "cfg_order",
           "cycle %llu: %u Config access(es) out of program order, %u streamwrcfg_order hazard(s)",
           (unsigned long long)cyc, (unsigned)c->cfgp_reorders,
           hazards_of(&st, TT_HAZ_STREAMWRCFG_ORDER));
  return 0;
}

/* The first run's results, taken before the deadlock oracle steps further. */
typedef struct run_result {
  tt_outcome out;
  uint64_t digest, cycles;
  unsigned hazards;
  uint32_t stall[TT_THREAD_COUNT][TT_WAIT_KIND_COUNT];
  uint32_t issue[TT_THREAD_COUNT][FZ_MAX_INSN];
} run_result;
static run_result r1, r2;

FZ_BOOKKEEPING static void record(run_result *r, const fz_prog *p, tt_outcome out) {
  r->out = out;
  r->digest = fz_digest(&st);
  r->cycles = tt_cycle_count(&st);
  r->hazards = tt_hazard_count(&st);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    for (unsigned w = 0; w < TT_WAIT_KIND_COUNT; w++) r->stall[t][w] = (uint32_t)tt_stall_cycles(&st, t, w);
    for (uint32_t k = 0; k < p->n[t]; k++) {
      uint64_t c;
      r->issue[t][k] = tt_issue_cycle(&st, t, k, &c) == 0 ? (uint32_t)c : UINT32_MAX;
    }
  }
}

/* Equal results (issue cycles of the program's instructions only). */
FZ_BOOKKEEPING static int same_result(const run_result *a, const run_result *b, const fz_prog *p) {
  if (a->out != b->out || a->digest != b->digest || a->cycles != b->cycles ||
      a->hazards != b->hazards || memcmp(a->stall, b->stall, sizeof a->stall))
    return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (memcmp(a->issue[t], b->issue[t], sizeof a->issue[t][0] * p->n[t])) return 0;
  return 1;
}

FZ_BOOKKEEPING static int checked_cycle_run(const fz_prog *p, fz_fail *f, tt_outcome *out) {
  uint64_t budget = cycle_budget(p);
  fz_setup(&st, p);
  tt_set_mode(&st, TT_MODE_CYCLE);
  *out = TT_OUT_BUDGET;
  for (uint64_t cyc = 0; cyc < budget; cyc++) {
    int more;
    if (one_cycle(f, cyc, &more)) return 1;
    if (!more) { *out = st.c.cyc.finished ? TT_OUT_DONE : TT_OUT_DEADLOCK; break; }
  }
  record(&r1, p, *out);
  if (*out != TT_OUT_DEADLOCK) return 0;
  /* the oracle: a fixed point stays one. What fz_digest covers, held as it was: the small
   * state as an exact copy (pcs and latches included), the rest as its hash (32 full digests
   * per deadlocked input were this target's largest cost) */
  static fz_small held;
  fz_small_take(&held, &st);
  uint64_t rest = fz_digest_rest(&st);
  int some_not_done = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) some_not_done |= !tt_thread_done(&st, t);
  FZ_CHECK(f, some_not_done, "cycle_deadlock_soundness", "deadlock reported with every thread done");
  for (unsigned k = 0; k < 32; k++) {
    tt_step(&st);
    int moved = !fz_small_same(&held, &st) || fz_digest_rest(&st) != rest;
    FZ_CHECK(f, !moved, "cycle_deadlock_soundness",
             "deadlock reported at cycle %llu, yet %u cycle(s) later the state moved",
             (unsigned long long)st.c.cyc.now - k - 1, k + 1);
  }
  return 0;
}

/* First differing locations, for the message. */
typedef struct diff_ctx { char text[240]; size_t len; unsigned n; } diff_ctx;
static void diff_cb(void *vctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  diff_ctx *d = vctx;
  char l[48];
  if (d->n++ >= 4 || d->len >= sizeof d->text - 1) return;
  tt_loc_format(loc, l, sizeof l);
  int w = snprintf(d->text + d->len, sizeof d->text - d->len, " %s func 0x%X cycle 0x%X;", l,
                   (unsigned)a, (unsigned)b);
  if (w > 0) d->len += (size_t)w;
}

/* Determinism and fast-forward: the program again from reset, as one tt_run, must end as the
 * stepped run r1 did (out). 1 (f set) when it does not. */
FZ_BOOKKEEPING static int check_rerun(const fz_prog *p, fz_fail *f, tt_outcome out) {
  uint64_t c1 = r1.cycles;
  unsigned h1 = r1.hazards;
  fz_setup(&st, p);
  tt_set_mode(&st, TT_MODE_CYCLE);
  tt_outcome out2 = tt_run(&st, cycle_budget(p));
  record(&r2, p, out2);
  if (same_result(&r1, &r2, p)) return 0;
  /* a third run, stepped like the first: equal to the first means tt_run's fast-forward
   * went wrong; different means the model is not deterministic */
  static fz_fail scratch;
  static run_result first;
  first = r1;
  tt_outcome out3;
  int stepped_again_same = !checked_cycle_run(p, &scratch, &out3);  /* records into r1 */
  stepped_again_same = stepped_again_same && same_result(&first, &r1, p);
  r1 = first;
  fz_failf(f, stepped_again_same ? "fast_forward" : "cycle_determinism",
           "%s: outcome %u, %llu cycles, %u hazards, then outcome %u, %llu cycles, %u hazards "
           "(or issue cycles or stall counters differ)",
           stepped_again_same ? "stepping cycle by cycle, then one tt_run (fast-forward over quiet cycles)"
                              : "same program after reset",
           (unsigned)out, (unsigned long long)c1, h1, (unsigned)out2, (unsigned long long)r2.cycles,
           r2.hazards);
  return 1;
}

/* Agreement with functional mode, for a race-free, hazard-free program that completes in cycle
 * mode (st holds its end, c1 cycles): 1 (f set) when the end states differ. */
FZ_BOOKKEEPING static int check_agreement(const fz_prog *p, fz_fail *f, uint64_t c1, int waits, int done) {
  fz_setup(&fst, p);
  tt_outcome fo = tt_run(&fst, 2u * (uint64_t)fz_total(p) + 16u);  /* always enough (run.c) */
  if (fo != TT_OUT_DONE && (waits || !done)) {
    /* neither completes, or completion depends on the interleaving: nothing to compare */
    n_not_done++;
    return 0;
  }
  n_compared++;
  /* Every instruction has retired: a wait still latched at the end has no further effect, and
   * whether it was already forgotten is timing. Compare with both latches cleared. */
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    memset(&st.c.thr[t].latch, 0, sizeof st.c.thr[t].latch);
    memset(&fst.c.thr[t].latch, 0, sizeof fst.c.thr[t].latch);
  }
  static fz_small fheld;  /* an exact compare of the small state, then the rest's hashes */
  fz_small_take(&fheld, &fst);
  if (fo == TT_OUT_DONE && fz_small_same(&fheld, &st) && fz_digest_rest(&fst) == fz_digest_rest(&st)) return 0;
  static diff_ctx dc;
  memset(&dc, 0, sizeof dc);
  tt_state_diff(&fst, &st, diff_cb, &dc);
  fz_failf(f, "cycle_agreement",
           "race-free, hazard-free program: cycle mode done in %llu cycles, functional mode "
           "outcome %u; %u location(s) differ:%s",
           (unsigned long long)c1, (unsigned)fo, dc.n, dc.text);
  return 1;
}

FZ_BOOKKEEPING static int check_prog(const fz_prog *p, fz_fail *f) {
  tt_outcome out;
  fz_fail_clear(f);
  init();
  n_runs++;
  int bad = checked_cycle_run(p, f, &out);
  if (bad) { tt_reset(&st); tt_set_mode(&st, TT_MODE_FUNC); return 1; }
  uint64_t c1 = r1.cycles;
  int done = out == TT_OUT_DONE, hazard_free = r1.hazards == 0;
  if (check_rerun(p, f, out)) {
    tt_reset(&st);
    tt_set_mode(&st, TT_MODE_FUNC);
    return 1;
  }
  tt_set_mode(&st, TT_MODE_FUNC);
  /* agreement with functional mode */
  int waits = 0, admitted = race_free(p, &waits);
  n_admitted += (unsigned long long)admitted;
  n_racy += (unsigned long long)!admitted;
  n_hazard += (unsigned long long)(admitted && !hazard_free);
  if (!admitted || !hazard_free || (!done && waits)) {
    n_not_done += (unsigned long long)(admitted && hazard_free);
    tt_reset(&st);
    return 0;
  }
  bad = check_agreement(p, f, c1, waits, done);
  tt_reset(&st);
  tt_reset(&fst);
  return bad;  /* 1: cycle_agreement reported */
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  static fz_prog p;
  fz_prog_decode(d, n, &p);
  return check_prog(&p, f);
}

/* For `make bench` and the replay driver's --stats: how many programs were compared. */
static void stats(char *buf, size_t n) {
  snprintf(buf, n,
           "%llu programs: %llu race-free (%.0f%%), %llu compared with functional mode (%.0f%%); "
           "left out: %llu racy, %llu with hazards, %llu not completed in both modes",
           n_runs, n_admitted, n_runs ? 100.0 * (double)n_admitted / (double)n_runs : 0.0,
           n_compared, n_runs ? 100.0 * (double)n_compared / (double)n_runs : 0.0, n_racy,
           n_hazard, n_not_done);
}

const fz_target fz_this_target = {"cycle_vs_func", invariants, 1, check_bytes, check_prog, init,
                                  stats};

FZ_ENTRY_POINTS(init, check_bytes)
