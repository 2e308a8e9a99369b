/* func_invariants.c — random three-thread programs in functional mode; the model's
 * invariants are checked after every scheduler round (one round issues at most one
 * instruction per thread, T0, T1, T2 in order; fuzz/README.md explains the attribution):
 *
 *   banked_writes       a Config word below 180 changes only in the bank of a thread that
 *                       issued a Config write this round; a word >= 180 ends equal in both banks
 *   default_mask        a latch installed from a zero block mask holds B6 (0x040), from a zero
 *                       STALLWAIT condition mask 0x0F; no latched block mask is ever 0
 *   semaphore_bounds    Value and Max stay in 0..15; SEMPOST never passes 15 nor decreases,
 *                       SEMGET never goes below 0 nor increases; no change without a Sync op
 *   mutex_ownership     only ATGETM by t makes t the holder, and only of a free mutex; only
 *                       the holder's ATRELM frees it; mutex 1 (absent on Blackhole) stays free
 *   thread_isolation    a thread's GPRs change only in a round where it issued; its
 *                       ThreadConfig only by its own SETC16, at that index
 *   deadlock_soundness  a round reported as "no progress" changed nothing and a further round
 *                       changes nothing either; non-done threads report blocked; a run that
 *                       stops without deadlock finished or used its budget, and never needs
 *                       more than 2N+1 rounds for N instructions
 *   budget_respected    tt_run(budget) never takes more than budget rounds
 *   determinism         run, reset, run again (one tt_run call): same outcome, same digest
 *
 * Cost per round: a compare of the ~3 KiB of small architectural state against a shadow copy
 * (fz_same, word-wise; copied only when it changed); nothing scales with L1 size. Determinism
 * compares the second run's small state with the shadow (the first run's end state) and
 * digests only the rest (fz_digest_rest).
 *
 * Cycle mode: the same properties, one cycle per step (see g_mode below); agreement between the
 * modes is cycle_vs_func's property. */
#include <string.h>
#include "fz.h"

static const char *const invariants[] = {
    "banked_writes", "default_mask", "semaphore_bounds", "mutex_ownership", "thread_isolation",
    "deadlock_soundness", "budget_respected", "determinism", NULL};

#ifdef FZ_REPLAY
#define DEEP(p) 1
#else
#define DEEP(p) ((void)(p), 0)
#endif

static tt_state st;
static int st_ready;
/* The mode of the current check: every input runs in functional mode; in cycle mode too when
 * its FZ_F_CYCLE flag is set (the mutator flips it) and always in the replay build (make test).
 * In cycle mode one checked step is one cycle: Config writes may come from an instruction
 * reaching stage 0 (not only from an issue), and GPRs may change by an asynchronous write-back
 * landing; the other properties are checked as in functional mode. */
static tt_mode g_mode = TT_MODE_FUNC;
FZ_BOOKKEEPING static uint64_t run_budget(const fz_prog *p) {
  return g_mode == TT_MODE_CYCLE ? 64u * (uint64_t)fz_total(p) + 256u : fz_budget(p);
}
FZ_BOOKKEEPING static void init(void) {
  if (!st_ready) { tt_init(&st); st_ready = 1; }
}

/* Shadow of the small architectural state, as of the start of the current round. */
static fz_small sh;

/* What each thread issued in the round just run. */
typedef struct round_info {
  int issued[TT_THREAD_COUNT];
  int cfg_arrived;                     /* cycle mode: a deferred Config write reached stage 0 */
  unsigned cfg_arrived_bank;
  uint64_t wb_pending[TT_THREAD_COUNT];/* cycle mode: GPRs whose write-back may land this step */
  tt_insn in[TT_THREAD_COUNT];   /* the head instruction at the start of the round */
  unsigned bank[TT_THREAD_COUNT];
  uint64_t index;
} round_info;

FZ_BOOKKEEPING static const char *loc_name(char *buf, size_t n, const tt_loc *l) {
  tt_loc_format(l, buf, n);
  return buf;
}

/* Detail for a reproducer: who issued what, and every small location the round changed. */
FZ_BOOKKEEPING static void describe_round(fz_fail *f, const round_info *r) {
  char dis[96], ln[48];
  f->round = r->index;
  f->has_round = 1;
  fz_detailf(f, "round %llu (0-based):\n", (unsigned long long)r->index);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (r->issued[t]) {
      tt_insn_name(&r->in[t]);
      fz_detailf(f, "  t%u issued [%u] %s (0x%08X), Config bank %u\n", t, (unsigned)sh.pc[t],
                 tt_insn_name(&r->in[t]), (unsigned)r->in[t].word, r->bank[t]);
    } else {
      fz_detailf(f, "  t%u issued nothing (pc %u of %u)\n", t, (unsigned)st.c.thr[t].pc,
                 (unsigned)st.c.thr[t].len);
    }
  }
  (void)dis;
  unsigned lines = 0;
  tt_loc l = {0, 0, 0};
#define DIFF(kind_, sel_, idx_, before_, after_)                                              \
  do {                                                                                        \
    if ((before_) != (after_) && lines++ < 24) {                                              \
      l.kind = (kind_); l.sel = (uint8_t)(sel_); l.index = (idx_);                            \
      fz_detailf(f, "  %s: 0x%X -> 0x%X\n", loc_name(ln, sizeof ln, &l), (unsigned)(before_), \
                 (unsigned)(after_));                                                         \
    }                                                                                         \
  } while (0)
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_GPR_COUNT; i++) DIFF(TT_LOC_GPR, t, i, sh.gpr[t][i], st.c.gpr[t][i]);
  for (unsigned b = 0; b < TT_CFG_BANK_COUNT; b++)
    for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++) DIFF(TT_LOC_CFG, b, i, sh.cfg[b][i], st.c.cfg[b][i]);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_TCFG_WORD_COUNT; i++) DIFF(TT_LOC_TCFG, t, i, sh.tcfg[t][i], st.c.tcfg[t][i]);
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    DIFF(TT_LOC_SEM_VALUE, 0, i, sh.sem_value[i], st.c.sem_value[i]);
    DIFF(TT_LOC_SEM_MAX, 0, i, sh.sem_max[i], st.c.sem_max[i]);
  }
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++) DIFF(TT_LOC_MUTEX, 0, i, sh.mutex[i], st.c.mutex[i]);
#undef DIFF
  if (lines > 24) fz_detailf(f, "  ... %u more changed locations\n", lines - 24);
}

/* REQUIRE_AS: when cond is false, report invariant `name` for this round and record what the
 * invariant required (fz.h: fz_require_*, or f->req): `req` runs after fz_failf. */
#define REQUIRE_AS(r, cond, req, name, ...)                                   \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fz_failf(f, name, __VA_ARGS__);                                        \
      req;                                                                   \
      describe_round(f, r);                                                  \
      return 1;                                                              \
    }                                                                        \
  } while (0)

/* ---- the invariants of one round ------------------------------------------------------------ */
FZ_BOOKKEEPING static int check_config(fz_fail *f, const round_info *r) {
  if (fz_same(sh.cfg, st.c.cfg, sizeof sh.cfg)) return 0;
  int writer_bank[2] = {0, 0}, writers = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (r->issued[t] && fz_form_writes_cfg(r->in[t].form)) {
      writer_bank[r->bank[t]] = 1;
      writers++;
    }
  if (r->cfg_arrived) {
    writer_bank[r->cfg_arrived_bank & 1u] = 1;
    writers++;
  }
  for (unsigned b = 0; b < TT_CFG_BANK_COUNT; b++)
    for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++) {
      /* skip 16 equal words at a time (a round writes a few words of 448) */
      if (i % 16 == 0 && i + 16 <= TT_CFG_WORD_COUNT && fz_same(&sh.cfg[b][i], &st.c.cfg[b][i], 64)) {
        i += 15;
        continue;
      }
      if (sh.cfg[b][i] == st.c.cfg[b][i]) continue;
      REQUIRE_AS(r, writers, fz_require_loc(f, TT_LOC_CFG, b, i, sh.cfg[b][i]), "banked_writes",
                 "cfg[%u][%u] changed in a round with no Config write", b, i);
      if (i < TT_CFG_GLOBAL_BASE) {
        REQUIRE_AS(r, writer_bank[b], fz_require_loc(f, TT_LOC_CFG, b, i, sh.cfg[b][i]),
                   "banked_writes",
                   "cfg[%u][%u] (below 180) changed but no thread writing Config this round uses bank %u",
                   b, i, b);
      } else {
        /* the written value is the one in the bank that changed (the writer's); the other
         * bank must hold it too */
        unsigned wb = sh.cfg[b][i] != st.c.cfg[b][i] ? b : 1u - b, ob = 1u - wb;
        REQUIRE_AS(r, st.c.cfg[0][i] == st.c.cfg[1][i],
                   (fz_require_loc(f, TT_LOC_CFG, wb, i, st.c.cfg[wb][i]),
                    fz_require_loc(f, TT_LOC_CFG, ob, i, st.c.cfg[wb][i])),
                   "banked_writes",
                   "global word %u (>= 180) written but the banks differ: cfg[0]=0x%X cfg[1]=0x%X", i,
                   (unsigned)st.c.cfg[0][i], (unsigned)st.c.cfg[1][i]);
      }
    }
  memcpy(sh.cfg, st.c.cfg, sizeof sh.cfg);
  return 0;
}

#define LATCH_WHY "a latch's masks are not a .vec location, and in functional mode a wrong mask " \
                  "changes at most which round a held instruction issues in, not the end state"
FZ_BOOKKEEPING static int check_latches(fz_fail *f, const round_info *r) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_latch *l = &st.c.thr[t].latch;
    REQUIRE_AS(r, l->op == TT_LATCH_NONE || l->block_mask != 0, fz_require_none(f, LATCH_WHY), "default_mask",
            "t%u holds a latch with block mask 0 (0 must be replaced by B6 = 0x040)", t);
    if (!r->issued[t]) continue;
    const tt_insn *in = &r->in[t];
    uint32_t bm, want_cond;
    unsigned want_op;
    if (in->form == TT_FORM_STALLWAIT) {
      bm = in->a.STALLWAIT.block_mask;
      want_op = TT_LATCH_STALLWAIT;
      /* knob stallwait_bits_13_14 (AMB-7): WH meanings (2) or a non-zero 15-bit field (1) */
      uint32_t hi = (in->word >> 13) & 3u, c = in->a.STALLWAIT.condition_mask;
      unsigned kb = st.p.knob[TT_KNOB_STALLWAIT_BITS_13_14];
      if (kb == 2) c |= (hi & 1u) << 10 | (hi >> 1) << 11;
      want_cond = c || (hi && kb == 1) ? c : 0x0Fu;
    } else if (in->form == TT_FORM_SEMWAIT) {
      bm = in->a.SEMWAIT.block_mask;
      want_cond = in->a.SEMWAIT.condition_mask;
      want_op = TT_LATCH_SEMWAIT;
      if (want_cond == 0) {
        if (st.p.knob[TT_KNOB_SEMWAIT_COND0] != 1) continue;  /* UB: no latch */
        want_op = TT_LATCH_STALLWAIT;
        want_cond = 0x0Fu;
      }
    } else if (in->form == TT_FORM_STREAMWAIT) {
      bm = in->a.STREAMWAIT.block_mask;
      want_op = TT_LATCH_STREAMWAIT;
      want_cond = 1u << in->a.STREAMWAIT.condition_index;
    } else {
      continue;
    }
    uint32_t want_block = bm ? bm : 0x040u;
    if (in->form == TT_FORM_STREAMWAIT && st.p.knob[TT_KNOB_STREAMWAIT_BLOCKS])  /* AMB-5 */
      want_block = st.p.knob[TT_KNOB_STREAMWAIT_BLOCKS] == 1 ? 0x01Cu : 0x002u;
    REQUIRE_AS(r, l->op == want_op && l->block_mask == want_block && l->cond_mask == want_cond,
            fz_require_none(f, LATCH_WHY), "default_mask",
            "t%u %s with block_mask=0x%X: latch should be op %u block 0x%X cond 0x%X, is op %u block 0x%X cond 0x%X",
            t, tt_insn_name(in), (unsigned)bm, want_op, (unsigned)want_block, (unsigned)want_cond,
            (unsigned)l->op, (unsigned)l->block_mask, (unsigned)l->cond_mask);
  }
  return 0;
}

/* The Sync instructions of this round on semaphore i: how many, and the form of the last. */
FZ_BOOKKEEPING static unsigned sem_ops(const round_info *r, unsigned i, unsigned *form) {
  unsigned ops = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!r->issued[t]) continue;
    const tt_insn *in = &r->in[t];
    uint32_t mask = in->form == TT_FORM_SEMINIT ? in->a.SEMINIT.sem_mask
                  : in->form == TT_FORM_SEMPOST ? in->a.SEMPOST.sem_mask
                  : in->form == TT_FORM_SEMGET ? in->a.SEMGET.sem_mask : 0;
    if (mask & (1u << i)) { ops++; *form = in->form; }
  }
  return ops;
}

/* What semaphore i must hold after this round, when the invariant can say it: no Sync op on it
 * -> unchanged; one SEMPOST -> +1 saturating at 15; one SEMGET -> -1 flooring at 0 (Max kept). */
FZ_BOOKKEEPING static void require_sem(fz_fail *f, const round_info *r, unsigned i) {
  unsigned form = 0, ops = sem_ops(r, i, &form);
  uint32_t v0 = sh.sem_value[i];
  if (ops == 0) {
    fz_require_loc(f, TT_LOC_SEM_VALUE, 0, i, v0);
    fz_require_loc(f, TT_LOC_SEM_MAX, 0, i, sh.sem_max[i]);
  } else if (ops == 1 && (form == TT_FORM_SEMPOST || form == TT_FORM_SEMGET)) {
    fz_require_loc(f, TT_LOC_SEM_VALUE, 0, i,
                   form == TT_FORM_SEMPOST ? (v0 < 15 ? v0 + 1 : 15) : (v0 > 0 ? v0 - 1 : 0));
    fz_require_loc(f, TT_LOC_SEM_MAX, 0, i, sh.sem_max[i]);
  } else {
    fz_require_none(f, "several Sync instructions on one semaphore in the failing round: the "
                       "invariant bounds the result but does not fix its value");
  }
}

FZ_BOOKKEEPING static int check_semaphores(fz_fail *f, const round_info *r) {
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    REQUIRE_AS(r, st.c.sem_value[i] <= 15 && st.c.sem_max[i] <= 15, require_sem(f, r, i), "semaphore_bounds",
            "sem[%u] value %u max %u: outside 0..15 (was value %u max %u)", i,
            (unsigned)st.c.sem_value[i], (unsigned)st.c.sem_max[i], (unsigned)sh.sem_value[i],
            (unsigned)sh.sem_max[i]);
  if (fz_same(sh.sem_value, st.c.sem_value, TT_SEM_COUNT) && fz_same(sh.sem_max, st.c.sem_max, TT_SEM_COUNT))
    return 0;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    unsigned form = 0, ops = sem_ops(r, i, &form);
    uint8_t v0 = sh.sem_value[i], v1 = st.c.sem_value[i];
    if (v0 == v1 && sh.sem_max[i] == st.c.sem_max[i]) continue;
    REQUIRE_AS(r, ops, require_sem(f, r, i), "semaphore_bounds",
               "sem[%u] changed (value %u -> %u) with no SEMINIT/SEMPOST/SEMGET on it", i, v0, v1);
    if (ops != 1) continue;
    if (form == TT_FORM_SEMPOST)
      REQUIRE_AS(r, v1 >= v0 && (v0 < 15 || v1 == 15) && sh.sem_max[i] == st.c.sem_max[i],
              require_sem(f, r, i),
              "semaphore_bounds", "SEMPOST took sem[%u] value %u -> %u (must rise, saturating at 15)",
              i, v0, v1);
    if (form == TT_FORM_SEMGET)
      REQUIRE_AS(r, v1 <= v0 && (v0 > 0 || v1 == 0) && sh.sem_max[i] == st.c.sem_max[i],
              require_sem(f, r, i),
              "semaphore_bounds", "SEMGET took sem[%u] value %u -> %u (must fall, flooring at 0)",
              i, v0, v1);
  }
  memcpy(sh.sem_value, st.c.sem_value, sizeof sh.sem_value);
  memcpy(sh.sem_max, st.c.sem_max, sizeof sh.sem_max);
  return 0;
}

/* The mutex an ATGETM/ATRELM names and whether it exists, under the knobs field_width (AMB-29:
 * tt-llk's 24-bit index) and mutex_indices (AMB-24: WormholeB0's 0, 2..7). */
FZ_BOOKKEEPING static uint32_t mutex_of(const tt_insn *in) {
  uint32_t i = in->form == TT_FORM_ATGETM ? in->a.ATGETM.mutex_index : in->a.ATRELM.mutex_index;
  return st.p.knob[TT_KNOB_FIELD_WIDTH] == 1 ? in->word & 0xFFFFFFu : i;
}
FZ_BOOKKEEPING static int mutex_exists(uint32_t i) {
  uint32_t last = st.p.knob[TT_KNOB_MUTEX_INDICES] == 1 ? 7u : 4u;
  return i <= last && i != 1;
}

FZ_BOOKKEEPING static int check_mutexes(fz_fail *f, const round_info *r) {
  uint8_t want[TT_MUTEX_SLOTS];
  memcpy(want, sh.mutex, sizeof want);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!r->issued[t]) continue;
    const tt_insn *in = &r->in[t];
    if (in->form == TT_FORM_ATGETM) {
      uint32_t i = mutex_of(in);
      REQUIRE_AS(r, mutex_exists(i), fz_require_blocked(f, t), "mutex_ownership",
              "t%u passed ATGETM of mutex %u, which does not exist on Blackhole", t, (unsigned)i);
      REQUIRE_AS(r, want[i] == 0 || want[i] == 1 + t, fz_require_loc(f, TT_LOC_MUTEX, 0, i, want[i]),
              "mutex_ownership", "t%u acquired mutex %u while t%u held it", t, (unsigned)i, want[i] - 1u);
      want[i] = (uint8_t)(1 + t);
    } else if (in->form == TT_FORM_ATRELM) {
      uint32_t i = mutex_of(in);
      REQUIRE_AS(r, mutex_exists(i), fz_require_blocked(f, t), "mutex_ownership",
              "t%u passed ATRELM of mutex %u, which does not exist on Blackhole", t, (unsigned)i);
      if (want[i] == 1 + t) want[i] = 0;
    }
  }
  static const char *const who[4] = {"none", "t0", "t1", "t2"};
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++)
    REQUIRE_AS(r, st.c.mutex[i] == want[i], fz_require_loc(f, TT_LOC_MUTEX, 0, i, want[i]), "mutex_ownership",
            "mutex %u: holder should be %s, is %s (was %s)", i, who[want[i] & 3u],
            who[st.c.mutex[i] & 3u], who[sh.mutex[i] & 3u]);
  memcpy(sh.mutex, st.c.mutex, sizeof sh.mutex);
  return 0;
}

/* The GPRs an instruction may write in its own thread (bit i = GPR i), from its decoded fields:
 * the model's tt_insn_gpr_use (ScalarUnit.md and the per-instruction pages; RDCFG.md). Anything
 * else that changes in a thread's GPRs during a round is a violation, even when several threads
 * issued that round. */
FZ_BOOKKEEPING static uint64_t gpr_write_set(const tt_insn *in) {
  uint64_t rd, wr;
  tt_insn_gpr_use(in, &rd, &wr);
  return wr;
}

FZ_BOOKKEEPING static int check_isolation(fz_fail *f, const round_info *r) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!fz_same(sh.gpr[t], st.c.gpr[t], sizeof sh.gpr[t])) {
      uint64_t allowed = (r->issued[t] ? gpr_write_set(&r->in[t]) : 0) | r->wb_pending[t];
      /* knob gpr0=zero (AMB-27): GPR 0 is forced to 0 whenever its thread dispatches */
      if (st.p.knob[TT_KNOB_GPR0] == 1 && st.c.gpr[t][0] == 0) allowed |= 1u;
      for (unsigned i = 0; i < TT_GPR_COUNT; i++) {
        if (sh.gpr[t][i] == st.c.gpr[t][i] || (allowed >> i & 1u)) continue;
        if (r->issued[t])
          REQUIRE_AS(r, 0, fz_require_loc(f, TT_LOC_GPR, t, i, sh.gpr[t][i]), "thread_isolation",
                  "t%u.gpr[%u] changed 0x%X -> 0x%X, but t%u's %s (0x%08X) does not write it", t, i,
                  (unsigned)sh.gpr[t][i], (unsigned)st.c.gpr[t][i], t, tt_insn_name(&r->in[t]),
                  (unsigned)r->in[t].word);
        REQUIRE_AS(r, 0, fz_require_loc(f, TT_LOC_GPR, t, i, sh.gpr[t][i]), "thread_isolation",
                "t%u.gpr[%u] changed 0x%X -> 0x%X in a round where t%u issued nothing", t, i,
                (unsigned)sh.gpr[t][i], (unsigned)st.c.gpr[t][i], t);
      }
      memcpy(sh.gpr[t], st.c.gpr[t], sizeof sh.gpr[t]);
    }
    if (!fz_same(sh.tcfg[t], st.c.tcfg[t], sizeof sh.tcfg[t])) {
      const tt_insn *in = &r->in[t];
      for (unsigned i = 0; i < TT_TCFG_WORD_COUNT; i++) {
        if (sh.tcfg[t][i] == st.c.tcfg[t][i]) continue;
        REQUIRE_AS(r, r->issued[t] && in->form == TT_FORM_SETC16 && in->a.SETC16.cfg_index == i,
                fz_require_loc(f, TT_LOC_TCFG, t, i, sh.tcfg[t][i]), "thread_isolation",
                "tcfg[%u][%u] changed 0x%X -> 0x%X but t%u did not issue SETC16 of word %u", t, i,
                (unsigned)sh.tcfg[t][i], (unsigned)st.c.tcfg[t][i], t, i);
      }
      memcpy(sh.tcfg[t], st.c.tcfg[t], sizeof sh.tcfg[t]);
    }
  }
  return 0;
}

/* A round reported as no progress must have changed nothing, and neither may the next. */
/* Called before the round's checks update the shadow (pc/latch/hand-over are updated last). */
FZ_BOOKKEEPING static int check_deadlock(fz_fail *f, round_info *r, int small_moved) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    REQUIRE_AS(r, sh.pc[t] == st.c.thr[t].pc && fz_same(&sh.latch[t], &st.c.thr[t].latch, sizeof sh.latch[t]),
            f->req = FZ_REQ_PROGRESS, "deadlock_soundness",
            "tt_run reported deadlock, but in that round t%u moved (pc %u -> %u, latch op %u -> %u)",
            t, (unsigned)sh.pc[t], (unsigned)st.c.thr[t].pc, (unsigned)sh.latch[t].op,
            (unsigned)st.c.thr[t].latch.op);
  REQUIRE_AS(r, !small_moved, f->req = FZ_REQ_PROGRESS, "deadlock_soundness",
          "tt_run reported deadlock, but that round changed architectural state");
  int some_blocked = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (tt_thread_done(&st, t)) continue;
    some_blocked = 1;
    REQUIRE_AS(r, tt_thread_blocked(&st, t), f->req = FZ_REQ_PROGRESS, "deadlock_soundness",
            "deadlock reported but t%u (not done) does not report blocked", t);
  }
  REQUIRE_AS(r, some_blocked, f->req = FZ_REQ_PROGRESS, "deadlock_soundness", "deadlock reported with every thread done");
  /* the oracle: two more rounds must change nothing at all */
  memcpy(sh.mutex_handoff, st.c.mutex_handoff, sizeof sh.mutex_handoff);
  for (unsigned k = 0; k < 2; k++) {
    r->index++;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      r->issued[t] = 0;
      if (!tt_thread_done(&st, t)) tt_decode(st.prog[t][st.c.thr[t].pc], &r->in[t]);
    }
    tt_step(&st);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) r->issued[t] = st.c.thr[t].pc != sh.pc[t];
    REQUIRE_AS(r, fz_small_same(&sh, &st), f->req = FZ_REQ_PROGRESS, "deadlock_soundness",
            "deadlock reported, yet %u round(s) later the state moved", k + 1);
  }
  return 0;
}

/* ---- one checked run ----------------------------------------------------------------------- */
FZ_BOOKKEEPING static int checked_run(const fz_prog *p, fz_fail *f, tt_outcome *outcome) {
  static round_info r;
  uint32_t dec_pc[TT_THREAD_COUNT] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  uint64_t budget = run_budget(p), bound = 2u * (uint64_t)fz_total(p) + 1u;
  fz_setup(&st, p);
  tt_set_mode(&st, g_mode);
  fz_small_take(&sh, &st);
  memset(&r, 0, sizeof r);
  *outcome = TT_OUT_BUDGET;
  for (uint64_t round = 0;; round++) {
    int all_done = 1;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) all_done &= tt_thread_done(&st, t);
    if (all_done && (g_mode == TT_MODE_FUNC || st.c.cyc.finished)) { *outcome = TT_OUT_DONE; break; }
    r.index = round;
    if (round >= budget) {
      REQUIRE_AS(&r, budget < bound || g_mode == TT_MODE_CYCLE, f->req = FZ_REQ_PROGRESS, "deadlock_soundness",
              "run neither finished nor deadlocked within %llu rounds (%u instructions allow at most %llu)",
              (unsigned long long)budget, (unsigned)fz_total(p), (unsigned long long)bound);
      break;
    }
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      r.issued[t] = 0;
      r.bank[t] = st.c.tcfg[t][TT_TCFG_CFG_STATE_ID] & 1u;
      /* decode a head once: a held thread keeps its head for many rounds */
      if (!tt_thread_done(&st, t) && dec_pc[t] != st.c.thr[t].pc) {
        tt_decode(st.prog[t][st.c.thr[t].pc], &r.in[t]);
        dec_pc[t] = st.c.thr[t].pc;
      }
    }
    uint64_t steps0 = st.c.steps;
    tt_cfgp_slot stage0 = st.c.cyc.cfgp[4];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) r.wb_pending[t] = st.c.cyc.wb_gprs[t];
    tt_outcome o = tt_run(&st, 1);
    uint64_t took = st.c.steps - steps0;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) r.issued[t] = st.c.thr[t].pc != sh.pc[t];
    const tt_cfgp_slot *s0 = &st.c.cyc.cfgp[4];
    r.cfg_arrived = g_mode == TT_MODE_CYCLE && s0->valid && fz_form_writes_cfg(s0->insn.form) &&
                    (!stage0.valid || stage0.seq != s0->seq || stage0.thread != s0->thread);
    r.cfg_arrived_bank = s0->bank;
    REQUIRE_AS(&r, took <= 1, f->req = FZ_REQ_BUDGET, "budget_respected", "tt_run(budget = 1) took %llu rounds",
            (unsigned long long)took);
    REQUIRE_AS(&r, !(o == TT_OUT_DONE && took == 0 && g_mode == TT_MODE_FUNC), f->req = FZ_REQ_PROGRESS,
            "deadlock_soundness",
            "tt_run said done, but not every thread has retired its stream");
    if (o == TT_OUT_DONE && g_mode == TT_MODE_CYCLE) {
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
        REQUIRE_AS(&r, tt_thread_done(&st, t), f->req = FZ_REQ_PROGRESS, "deadlock_soundness",
                "tt_run said done at cycle %llu, but t%u has not retired its stream",
                (unsigned long long)st.c.cyc.now, t);
    }
    int small_moved = 0;
    if (o == TT_OUT_DEADLOCK)
      small_moved = !fz_small_locations_same(&sh, &st);  /* pc and latch apart */
    if (check_config(f, &r) || check_latches(f, &r) || check_semaphores(f, &r) ||
        check_mutexes(f, &r) || check_isolation(f, &r))
      return 1;
    if (o == TT_OUT_DEADLOCK) {
      if (check_deadlock(f, &r, small_moved)) return 1;
      *outcome = TT_OUT_DEADLOCK;
      break;
    }
    memcpy(sh.mutex_handoff, st.c.mutex_handoff, sizeof sh.mutex_handoff);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      sh.latch[t] = st.c.thr[t].latch;
      sh.pc[t] = st.c.thr[t].pc;
    }
  }
  return 0;
}

FZ_BOOKKEEPING static int check_run(const fz_prog *p, fz_fail *f) {
  tt_outcome out1, out2;
  if (checked_run(p, f, &out1)) return 1;
  /* determinism: the same program from reset, as one tt_run call. The shadow holds the first
   * run's final small state (every round's checks brought it up to date), so the second run's
   * is compared with it location for location; the rest of the state by fz_digest_rest. The
   * model's tt_digest (slow: byte-wise, ~8 us) joins in the replay build. */
  uint64_t d1 = fz_digest_rest(&st), m1 = DEEP(p) ? tt_digest(&st) : 0;
  uint64_t budget = run_budget(p);
  fz_setup(&st, p);
  tt_set_mode(&st, g_mode);
  out2 = tt_run(&st, budget);
  if (st.c.steps > budget) {
    fz_failf(f, "budget_respected", "tt_run(budget = %llu) took %llu rounds",
             (unsigned long long)budget, (unsigned long long)st.c.steps);
    f->req = FZ_REQ_BUDGET;
    return 1;
  }
  uint64_t d2 = fz_digest_rest(&st), m2 = DEEP(p) ? tt_digest(&st) : 0;
#define DET_WHY "a property of two runs of one program (run, reset, run again); one conformance " \
                "run cannot tell which of the two results is the right one"
  if (m1 != m2) {
    fz_failf(f, "determinism", "same program after reset: tt_digest %016llx, then %016llx (outcomes %u, %u)",
             (unsigned long long)m1, (unsigned long long)m2, (unsigned)out1, (unsigned)out2);
    fz_require_none(f, DET_WHY);
    return 1;
  }
  int small_same = fz_small_same(&sh, &st);
  if (out1 != out2 || !small_same || d1 != d2) {
    fz_failf(f, "determinism",
             "same program after reset: outcome %u, then %u; GPR/Config/ThreadConfig/semaphore/"
             "mutex/pc/latch state %s; faults, side effects, L1/MMIO, Src: digest %016llx, then %016llx",
             (unsigned)out1, (unsigned)out2, small_same ? "equal" : "differs",
             (unsigned long long)d1, (unsigned long long)d2);
    fz_require_none(f, DET_WHY);
    return 1;
  }
  return 0;
}

FZ_BOOKKEEPING static int check_prog(const fz_prog *p, fz_fail *f) {
  init();
  fz_fail_clear(f);
  g_mode = TT_MODE_FUNC;
  int r = check_run(p, f);
  tt_reset(&st);
  if (!r && (DEEP(p) || (p->flags & FZ_F_CYCLE))) {
    g_mode = TT_MODE_CYCLE;
    r = check_run(p, f);
    if (r) {
      fz_detailf(f, "(in cycle mode)\n");
      /* the reproducer's expect lines are end states of a functional-mode run (mode: func) */
      fz_require_none(f, "found in cycle mode only; triage writes expectations for functional-mode "
                         "end states, which this finding does not change");
    }
    tt_reset(&st);
    tt_set_mode(&st, TT_MODE_FUNC);
    g_mode = TT_MODE_FUNC;
  }
  return r;
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  static fz_prog p;
  fz_prog_decode(d, n, &p);
  return check_prog(&p, f);
}

const fz_target fz_this_target = {"func_invariants", invariants, 1, check_bytes, check_prog, init};

FZ_ENTRY_POINTS(init, check_bytes)
