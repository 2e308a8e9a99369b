/* run.c — the frontend of the three threads and the functional-mode scheduler.
 *
 * Functional mode (documented order): one scheduler step is one round. A round first
 * re-evaluates every thread's latched wait (a latch whose selected conditions are all false is
 * forgotten — the hardware re-evaluates every cycle whether or not an instruction is held),
 * then visits threads T0, T1, T2 in that order; each may issue at most its head instruction if
 * its Wait Gate lets it pass. Every unit finishes at once, so only the latch (semaphore and
 * stream conditions), mutexes and spinning atomics can hold a thread. A wait instruction issued
 * in round r is first evaluated at the start of round r+1 (the functional image of the
 * hardware's one-cycle lag).
 *
 * Termination: streams are straight-line (no branches), so every round either issues an
 * instruction or forgets a latch, or else the state is a fixed point and the run ends with
 * TT_OUT_DEADLOCK. A run therefore takes at most 2*(total instructions)+1 rounds, and always
 * at most `budget`. References: WormholeB0/TensixTile/TensixCoprocessor/WaitGate.md,
 * BlackholeA0/TensixTile/TensixCoprocessor/STALLWAIT.md. */
#include <string.h>
#include "sched.h"

/* Frontend opcodes (MOP, MOP_CFG, REPLAY, RESOURCEDECL), by opcode. */
#define TT_FOREIGN(NAME, op, block, kind) [op] = (kind) == TT_FG_FRONTEND,
static const uint8_t frontend_op[256] = {
#include "foreign.def"
};
#undef TT_FOREIGN
/* A unit outside the model: finishes at once with no modelled effect (a frontend opcode
 * faults under frontend_ops=fault); an undefined opcode faults. */
static tt_exec_result x_FOREIGN(tt_state *st, unsigned t, uint32_t w) {
  if (TT_UNLIKELY(frontend_op[w >> 24]) && TT_KNOB_IS(st, FRONTEND_OPS, 0))
    tt_fault(st, t, TT_FC_FRONTEND_OP);
  return TT_EXEC_DONE;
}
static tt_exec_result x_UNDEFINED(tt_state *st, unsigned t, uint32_t w) {
  (void)w;
  tt_fault(st, t, TT_FC_UNDEFINED_OPCODE);
  return TT_EXEC_DONE;
}
/* The executors (sched.h): one indirect call from the common path, straight to the unit's
 * executor. */
const tt_exec_fn tt_exec_table[TT_FORM_COUNT] = {
#define TT_FORM(ID, mn, dm, dv) tt_exec_##ID,
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  x_FOREIGN, x_UNDEFINED};

/* Reserved bits under the knobs (payload bit numbers; see tt_insn_reserved in internal.h). */
uint32_t tt_insn_reserved(const tt_state *st, const tt_insn *in) {
  uint32_t r = in->reserved;
  if (!r) return 0;
  switch (in->form) {
  case TT_FORM_STREAMWAIT: if (TT_KNOB_IS(st, STREAMWAIT_LO_BITS, 1)) r &= ~(1u << 14); break;
  case TT_FORM_STALLWAIT: if (!TT_KNOB_IS(st, STALLWAIT_BITS_13_14, 0)) r &= ~0x6000u; break;
  case TT_FORM_LOADIND: if (TT_KNOB_IS(st, LOADIND_OFFSET_BITS, 1)) r &= ~(1u << 21); break;
  default: break;
  }
  if (TT_KNOB_IS(st, FIELD_WIDTH, 1)) switch (in->form) {  /* tt-llk widths (AMB-29) */
    case TT_FORM_ATGETM: case TT_FORM_ATRELM: r &= ~0xFF0000u; break;       /* 24-bit index */
    case TT_FORM_WRCFG: r &= ~0x7800u; break;                               /* 15-bit index */
    case TT_FORM_RDCFG: r &= ~0xF800u; break;                               /* 16-bit index */
    case TT_FORM_SEMINIT: r &= ~0xFC00u; break;                             /* mask [15:2] */
    case TT_FORM_SEMWAIT: r &= ~0x7C00u; break;                             /* mask [14:2] */
    case TT_FORM_SEMPOST: case TT_FORM_SEMGET: r &= ~0xFFFC00u; break;      /* mask [23:2] */
    default: break;
  }
  return r;
}

static inline tt_exec_result dispatch(tt_state *st, unsigned t, const tt_insn *in) {
  return tt_exec_table[in->form](st, t, in->word);
}

/* Retire thread t's head, of form `form`, after it executed (the common tail of every issue
 * path). */
static inline void retire_form(tt_state *st, tt_thread *th, unsigned t, unsigned form) {
  if (TT_DEFECT(NONDETERMINISTIC)) {
    static uint32_t runs_seen;  /* survives tt_reset: the planted bug */
    st->c.gpr[t][63] ^= ++runs_seen;
  }
  th->wait_kind = TT_WAIT_NONE;
  th->pc++;
  th->retired++;
  st->c.form_count[form]++;
}
static inline void retire(tt_state *st, tt_thread *th, unsigned t, const tt_insn *in) {
  retire_form(st, th, t, in->form);
}

/* Try to pass thread t's head instruction through its gate and execute it, for a head that the
 * common path cannot take (a latch, a spinning atomic, a mutex or spinning instruction, reserved
 * bits, gpr0=zero). Returns 1 when it retired. Holding leaves no trace but the thread's
 * wait_kind. */
static TT_NOINLINE int issue_past_latch(tt_state *st, unsigned t, const tt_insn *in);
static int try_issue_slow(tt_state *st, unsigned t, const tt_insn *in) {
  tt_thread *th = &st->c.thr[t];
  if (th->latch.op != TT_LATCH_NONE && tt_latch_catches(st, t, in)) {
    th->wait_kind = TT_WAIT_LATCH;
    return 0;
  }
  return issue_past_latch(st, t, in);
}

/* try_issue_slow past the latch: the other holds, then execution. */
static TT_NOINLINE int issue_past_latch(tt_state *st, unsigned t, const tt_insn *in) {
  tt_thread *th = &st->c.thr[t];
  /* ScalarUnit.md: ThCon runs one instruction at a time and a spinning ATCAS/ATINCGETPTR
   * holds it, so no ThCon instruction of another thread passes its gate meanwhile. */
  if (st->c.thcon_spinner != 0 && st->c.thcon_spinner != 1 + t && (in->flags & TT_IF_THCON)) {
    th->wait_kind = TT_WAIT_THCON_BUSY;
    return 0;
  }
  if (in->flags & TT_IF_SYNC_GATE) {
    unsigned why = tt_sync_gate(st, t, in);
    if (why != TT_WAIT_NONE) {
      th->wait_kind = (uint8_t)why;
      return 0;
    }
  }
  if (in->reserved && tt_insn_reserved(st, in) && TT_KNOB_IS(st, RESERVED_BITS, 0))
    tt_fault(st, t, TT_FC_RESERVED_BITS);
  if (tt_dispatch(st, t, in) == TT_EXEC_RETRY) {
    th->wait_kind = (uint8_t)(in->form == TT_FORM_ATCAS ? TT_WAIT_ATCAS : TT_WAIT_ATINCGETPTR);
    st->c.thcon_spinner = (uint8_t)(1 + t);
    return 0;
  }
  if (st->c.thcon_spinner == 1 + t) st->c.thcon_spinner = 0;
  retire(st, th, t, in);
  return 1;
}

/* The flags of a head that only the slow path may issue. */
#define SLOW_FLAGS (TT_IF_SYNC_GATE | TT_IF_SPIN | TT_IF_RESERVED)

/* run_func's quick issue of thread t's head, for a thread with no latch and no hold of the
 * round (gpr0=zero, a spinner): straight from its word through the decoder's opcode entry,
 * without the decoded stream. 0 (nothing done) when the head needs more: a word its opcode's
 * entry does not take (another form, an undefined opcode), SLOW_FLAGS, reserved bits. Otherwise
 * it is exactly the common path below (a head with no SLOW_FLAGS and nothing holding it). */
static TT_NOINLINE int quick_issue_other(tt_state *st, tt_thread *th, unsigned t, uint32_t w);
static inline int quick_issue(tt_state *st, tt_thread *th, unsigned t, int other_forms) {
  uint32_t w = st->prog[t][th->pc];
  const tt_op_entry *e = &tt_isa_ops[w >> 24];
  if (TT_UNLIKELY(((w & e->quick_mask) | TT_OP_VALID) != e->quick_value))
    return other_forms ? quick_issue_other(st, th, t, w) : 0;
  tt_form_edge(e->form);
  (void)tt_exec_table[e->form](st, t, w);
  retire_form(st, th, t, e->form);
  return 1;
}

/* quick_issue of a word its opcode's entry does not take: another form of the opcode, or an
 * undefined opcode, through that form's entry (the same test); 0 when the word needs more. The
 * mnemonic's second form is tried first (tt_op_next), then tt_op_other's search. */
static TT_NOINLINE int quick_issue_other(tt_state *st, tt_thread *th, unsigned t, uint32_t w) {
  const tt_op_entry *e = &tt_isa_ops[w >> 24];
  if (tt_op_takes(e, w)) return 0;  /* the first form: it needs more */
  if (e->form < TT_FORM_FOREIGN && (e->disc_value & TT_OP_VALID)) e = tt_op_next(e);
  if (((w & e->quick_mask) | TT_OP_VALID) != e->quick_value) {
    e = tt_op_other(w);
    if (((w & e->quick_mask) | TT_OP_VALID) != e->quick_value) return 0;
  }
  tt_form_edge(e->form);
  (void)tt_exec_table[e->form](st, t, w);
  retire_form(st, th, t, e->form);
  return 1;
}

/* Issue thread t's head if its gate lets it pass; 1 when it retired. The common case (no latch,
 * no spinning atomic anywhere, a head without SLOW_FLAGS, gpr0=zero off: `slow` == 0) goes
 * straight to its executor, which then cannot hold it. */
static inline int try_issue(tt_state *st, unsigned t, unsigned slow) {
  tt_thread *th = &st->c.thr[t];
  const tt_insn *in = tt_head(st, t);
  if (TT_UNLIKELY(slow | th->latch.op | st->c.thcon_spinner | (in->flags & SLOW_FLAGS)))
    return try_issue_slow(st, t, in);
  (void)dispatch(st, t, in);
  retire(st, th, t, in);
  return 1;
}

/* Forget every latch whose selected conditions are all false (the first step of a round).
 * Returns the threads whose latch it forgot (bit t). A STALLWAIT latch's conditions are C0..C12
 * only, and none of them holds in functional mode (tt_latch_satisfied with conds 0 answers 1
 * for every STALLWAIT latch), so it is forgotten without asking. */
static TT_INLINE unsigned forget_latches(tt_state *st) {
  unsigned forgot = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    tt_thread *th = &st->c.thr[t];
    if (th->latch.op != TT_LATCH_NONE &&
        (th->latch.op == TT_LATCH_STALLWAIT || tt_latch_satisfied(st, t, 0))) {  /* no C0..C12 holds */
      th->latch.op = TT_LATCH_NONE;
      forgot |= 1u << t;
    }
  }
  return forgot;
}

/* A round changed something when a latch was forgotten (or an instruction issued). */
static inline int forgot_changes(unsigned forgot) { return forgot && !TT_DEFECT(DEADLOCK_EARLY); }

/* gpr0=zero (AMB-27) wraps every dispatch (tt_dispatch): the slow path takes all issues. */
static inline unsigned func_slow(const tt_state *st) { return TT_KNOB_IS(st, GPR0, 1); }

/* One functional round (the file comment), for tt_step; tt_run's loop is run_func. `slow`
 * forces every issue through the slow path (gpr0=zero). */
static int func_round(tt_state *st, unsigned slow) {
  int changed = 0;
  tt_thread *thr = st->c.thr;
  if (thr[0].latch.op | thr[1].latch.op | thr[2].latch.op) changed = forgot_changes(forget_latches(st));
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    tt_thread *th = &thr[t];
    if (th->pc >= th->len) {
      th->wait_kind = TT_WAIT_NONE;
      continue;
    }
    changed |= try_issue(st, t, slow);
  }
  st->c.steps++;
  return changed;
}

/* Semaphore writes so far (SEMINIT, SEMPOST and SEMGET retired: the only writers of the
 * semaphores during a run). */
static inline uint32_t sem_writes(const tt_state *st) {
  const uint32_t *fc = st->c.form_count;
  return fc[TT_FORM_SEMINIT] + fc[TT_FORM_SEMPOST] + fc[TT_FORM_SEMGET];
}

/* Up to `max` rounds in which thread t is the only awake thread and the machine stays quiet
 * for it (no spinner, gpr0=zero off, t has no latch; every other thread done or parked, with no
 * latch or a SEMWAIT latch: the caller checked): each round issues t's head while that head has
 * no SLOW_FLAGS, and the rounds stop after an issue that latched t (the next round must evaluate
 * the latch first) and, with `watch_sems` (another thread has a SEMWAIT latch, whose answer
 * changes only with the semaphores), after an issue that wrote a semaphore. Returns how many
 * rounds ran (each retired one instruction). */
static TT_INLINE uint64_t solo_rounds(tt_state *st, const unsigned t, uint64_t max, unsigned watch_sems) {
  tt_thread *th = &st->c.thr[t];
  uint64_t k = 0;
  uint32_t sems = watch_sems ? sem_writes(st) : 0;
  while (k < max && th->pc < th->len) {  /* bounded: k < max */
    if (!quick_issue(st, th, t, 0)) {
      const tt_insn *in = tt_head(st, t);
      if (in->flags & SLOW_FLAGS) break;
      (void)tt_exec_table[in->form](st, t, in->word);
      retire(st, th, t, in);
    }
    k++;
    if (th->latch.op != TT_LATCH_NONE || (watch_sems && sem_writes(st) != sems)) break;
  }
  st->c.steps += k;
  return k;
}

/* solo_rounds with a constant thread and watch_sems (folded), one copy per pair: index 2t + w. */
#define SOLO_COPY(T, W) \
  static TT_NOINLINE uint64_t solo_rounds_##T##W(tt_state *st, uint64_t max) { return solo_rounds(st, T, max, W); }
SOLO_COPY(0, 0) SOLO_COPY(0, 1) SOLO_COPY(1, 0) SOLO_COPY(1, 1) SOLO_COPY(2, 0) SOLO_COPY(2, 1)
#undef SOLO_COPY
static uint64_t (*const solo_copies[2 * TT_THREAD_COUNT])(tt_state *, uint64_t) = {
    solo_rounds_00, solo_rounds_01, solo_rounds_10, solo_rounds_11, solo_rounds_20, solo_rounds_21};

/* Held threads that run_func need not visit again until something they wait on changes
 * (a held visit writes nothing but the thread's wait_kind, and it would write the same value):
 *  - held by its latch (TT_WAIT_LATCH): its latch and its head stay as they are until the latch
 *    is forgotten (forget_latches, at the start of a round, which unparks it); whether the latch
 *    catches the head depends on them and on the knobs only;
 *  - held at the Sync Unit's gate (TT_WAIT_MUTEX, TT_WAIT_MUTEX_INVALID) or by another thread's
 *    spinning atomic (TT_WAIT_THCON_BUSY): until an ATGETM/ATRELM retires (the only writers of
 *    the mutexes and their hand-overs) or the spinner changes, both of which happen only in
 *    issue_past_latch (unpark_after: the threads after the issuing one are then visited in the
 *    same round, as before). */
#define GATE_WAITS ((1u << TT_WAIT_MUTEX) | (1u << TT_WAIT_MUTEX_INVALID) | (1u << TT_WAIT_THCON_BUSY))

/* After thread t's slow-path visit of `in` (issued: it retired; spinner: thcon_spinner before):
 * the new set of gate-parked threads, and t itself parked when the gate held it. */
static inline unsigned unpark_after(const tt_state *st, unsigned t, const tt_insn *in, int issued,
                                    unsigned spinner, unsigned gate_parked) {
  if ((issued && (in->flags & TT_IF_SYNC_GATE)) || spinner != st->c.thcon_spinner) gate_parked = 0;
  if (!issued && ((GATE_WAITS >> st->c.thr[t].wait_kind) & 1u)) gate_parked |= 1u << t;
  return gate_parked;
}

/* run_func's sets of threads, kept across rounds (live, latch_parked, gate_parked) and within
 * one (awake: still to be visited). */
typedef struct fsets {
  unsigned live, awake, latch_parked, gate_parked;
} fsets;

/* Thread t's visit in a round of run_func, when it is awake. held: the round's holds that are
 * the same for every head (gpr0=zero, a spinner); a slow-path issue can set or clear the
 * spinner, so it recomputes them. Returns 1 when t issued. Always inlined with a constant t:
 * each thread's visit has its own code, its offsets folded. */
static TT_INLINE int visit(tt_state *st, const unsigned t, fsets *s, unsigned *held, unsigned slow) {
  tt_thread *th = &st->c.thr[t];
  if (!((s->awake >> t) & 1u)) return 0;
  if (TT_LIKELY(!(*held | th->latch.op)) && quick_issue(st, th, t, 1)) return 1;
  const tt_insn *in = tt_head(st, t);
  if (th->latch.op != TT_LATCH_NONE && tt_latch_catches(st, t, in)) {
    th->wait_kind = TT_WAIT_LATCH;
    s->latch_parked |= 1u << t;
    return 0;
  }
  if (TT_LIKELY(!(*held | (in->flags & SLOW_FLAGS)))) {
    (void)tt_exec_table[in->form](st, t, in->word);
    retire(st, th, t, in);
    return 1;
  }
  unsigned spinner = st->c.thcon_spinner, was = s->gate_parked;
  int issued = issue_past_latch(st, t, in);
  *held = slow | st->c.thcon_spinner;
  s->gate_parked = unpark_after(st, t, in, issued, spinner, s->gate_parked);
  s->awake |= was & ~s->gate_parked & s->live & (~0u << (t + 1));  /* unparked after t: this round */
  return issued;
}

/* visit, then the issue's bookkeeping: the round changed, and t leaves `live` once done. */
static TT_INLINE int visit_live(tt_state *st, const unsigned t, fsets *s, unsigned *held,
                                unsigned slow) {
  if (!visit(st, t, s, held, slow)) return 0;
  if (st->c.thr[t].pc >= st->c.thr[t].len) s->live &= ~(1u << t);
  return 1;
}

/* tt_run in functional mode: the rounds of func_round, with the set of live threads kept across
 * rounds (a thread only leaves it by retiring its last instruction, which leaves wait_kind
 * NONE: a done thread's wait_kind is cleared once, before the first round), and the held
 * threads parked (above): latch_parked and gate_parked are not visited. */
static tt_outcome run_func(tt_state *st, uint64_t limit) {
  tt_thread *thr = st->c.thr;
  unsigned slow = func_slow(st);
  fsets s = {0, 0, 0, 0};
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (thr[t].pc < thr[t].len) s.live |= 1u << t;
    else thr[t].wait_kind = TT_WAIT_NONE;
  }
  for (uint64_t i = 0; s.live; i++) {  /* bounded: i < limit */
    if (i >= limit) return TT_OUT_BUDGET;
    int changed = 0;
    unsigned latched = thr[0].latch.op | thr[1].latch.op | thr[2].latch.op;
    if (TT_UNLIKELY(latched)) {
      unsigned forgot = forget_latches(st);
      s.latch_parked &= ~forgot;
      changed = forgot_changes(forgot);
      latched = thr[0].latch.op | thr[1].latch.op | thr[2].latch.op;
    }
    /* quiet for one awake thread (solo_rounds): no spinning atomic, and no latch but other
     * threads' SEMWAIT latches. A round's issues can only set the issuing thread's own latch
     * (it issues once per round) or, through the slow path, the spinner; a parked thread's
     * SEMWAIT latch stays until a semaphore is written. The one awake thread, 3: not one (a
     * table: clang turns !(live & (live - 1)) into a 17-instruction popcount without
     * -mpopcnt); a gate-parked thread's visits change nothing and its gate can only open after
     * a slow-path issue, which ends solo_rounds. */
    static const uint8_t only[8] = {3, 0, 1, 3, 2, 3, 3, 3};
    s.awake = s.live & ~(s.latch_parked | s.gate_parked);
    unsigned t = only[s.awake];
    if (t < 3 && !(slow | st->c.thcon_spinner)) {  /* one awake thread: its rounds back to back */
      /* latched (the three latch ops or-ed) is SEMWAIT exactly when every latch is one */
      _Static_assert(TT_LATCH_NONE == 0 && TT_LATCH_SEMWAIT == 2 && (TT_LATCH_STALLWAIT & 1) &&
                     (TT_LATCH_STREAMWAIT & 1), "run_func: SEMWAIT is the only even latch");
      unsigned solo = !latched ? 1u : latched == TT_LATCH_SEMWAIT && !thr[t].latch.op ? 2u : 0u;
      uint64_t k = solo ? solo_copies[2 * t + solo - 1](st, limit - i) : 0;
      if (k) {
        i += k - 1;  /* + 1 by the loop */
        if (thr[t].pc >= thr[t].len) s.live &= ~(1u << t);
        continue;
      }
    }
    unsigned held = slow | st->c.thcon_spinner;
    _Static_assert(TT_THREAD_COUNT == 3, "run_func visits T0, T1, T2 in that order");
    changed |= visit_live(st, 0, &s, &held, slow);
    changed |= visit_live(st, 1, &s, &held, slow);
    changed |= visit_live(st, 2, &s, &held, slow);
    st->c.steps++;
    if (!changed) return TT_OUT_DEADLOCK;
  }
  return TT_OUT_DONE;
}

int tt_step(tt_state *st) {
  if (st->p.mode == TT_MODE_CYCLE) return tt_cycle_step(st);
  return func_round(st, func_slow(st));
}

int tt_thread_done(const tt_state *st, unsigned t) {
  return t < TT_THREAD_COUNT && st->c.thr[t].pc >= st->c.thr[t].len;
}

tt_outcome tt_run(tt_state *st, uint64_t budget) {
  tt_outcome out = TT_OUT_BUDGET;
  uint64_t limit = budget + (TT_DEFECT(BUDGET_OVERRUN) && budget < UINT64_MAX ? 1 : 0);
  if (st->p.mode == TT_MODE_CYCLE) {
    /* cycle mode: one step per cycle; done once every thread is done and every unit idle */
    uint64_t i = tt_cycle_run(st, limit);
    out = i >= limit ? TT_OUT_BUDGET : st->c.cyc.finished ? TT_OUT_DONE : TT_OUT_DEADLOCK;
  } else {
    out = run_func(st, limit);
  }
  st->c.last_outcome = (uint8_t)out;
  return out;
}

int tt_thread_blocked(const tt_state *st, unsigned t) {
  if (t >= TT_THREAD_COUNT || tt_thread_done(st, t)) return 0;
  if (st->c.thr[t].wait_kind == TT_WAIT_MUTEX_INVALID) return 1;
  return st->c.last_outcome == TT_OUT_DEADLOCK;
}

/* ---- readable wait reasons ---------------------------------------------------------------------- */

static void describe_latch(const tt_state *st, unsigned t, tt_text *o) {
  const tt_latch *l = &st->c.thr[t].latch;
  static const char *const names[] = {"none", "STALLWAIT", "SEMWAIT", "STREAMWAIT"};
  tt_put(o, "latched ");
  tt_put(o, names[l->op & 3]);
  tt_put(o, " block="); tt_put_hex(o, l->block_mask);
  tt_put(o, " cond="); tt_put_hex(o, l->cond_mask);
  if (l->op == TT_LATCH_SEMWAIT) {
    tt_put(o, " sems="); tt_put_hex(o, l->sem_mask);
    for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
      if (!(l->sem_mask & (1u << i))) continue;
      char s[2] = {(char)('0' + i), 0};
      tt_put(o, " sem"); tt_put(o, s); tt_put(o, "=");
      tt_put_hex(o, st->c.sem_value[i]); tt_put(o, "/max "); tt_put_hex(o, st->c.sem_max[i]);
    }
  } else if (l->op == TT_LATCH_STREAMWAIT) {
    unsigned stream = st->c.tcfg[t][TT_TCFG_STREAM_ID_SYNC + (l->stream_select & 3)] & 0x3F;
    tt_put(o, " stream="); tt_put_hex(o, stream);
    tt_put(o, " target="); tt_put_hex(o, l->target);
    tt_put(o, " now="); tt_put_hex(o, tt_stream_reg(st, stream, l->condition_index ? TT_STREAM_MSGS_REG : TT_STREAM_PHASE_REG));
  }
}

size_t tt_describe_wait(const tt_state *st, unsigned t, char *buf, size_t n) {
  tt_text o = {buf, n, 0};
  if (t >= TT_THREAD_COUNT) { tt_put(&o, "no such thread"); }
  else if (tt_thread_done(st, t)) { tt_put(&o, "done"); }
  else {
    const tt_thread *th = &st->c.thr[t];
    uint32_t w = st->prog[t][th->pc];
    tt_insn in;
    tt_decode(w, &in);
    tt_put(&o, "at instruction "); tt_put_hex(&o, th->pc); tt_put(&o, " (");
    tt_put_hex(&o, w); tt_put(&o, "): ");
    switch ((tt_wait_kind)th->wait_kind) {
    case TT_WAIT_NONE: tt_put(&o, "not waiting"); break;
    case TT_WAIT_LATCH: describe_latch(st, t, &o); break;
    case TT_WAIT_MUTEX: {
      uint32_t i = tt_mutex_index(st, &in);
      tt_put(&o, "ATGETM: mutex "); tt_put_hex(&o, i);
      if (st->c.mutex[i % TT_MUTEX_SLOTS]) {
        char s[3] = {'t', (char)('0' + st->c.mutex[i % TT_MUTEX_SLOTS] - 1), 0};
        tt_put(&o, " held by "); tt_put(&o, s);
      } else {
        tt_put(&o, " reserved for another thread by the fairness rule");
      }
      break;
    }
    case TT_WAIT_MUTEX_INVALID:
      tt_put(&o, "mutex index "); tt_put_hex(&o, tt_mutex_index(st, &in));
      tt_put(&o, " does not exist on Blackhole (valid: 0, 2, 3, 4): waits forever");
      break;
    case TT_WAIT_ATCAS: tt_put(&o, "ATCAS: compare fails, retrying"); break;
    case TT_WAIT_ATINCGETPTR: tt_put(&o, "ATINCGETPTR: FIFO full/empty, retrying"); break;
    case TT_WAIT_THCON_BUSY: {
      char s[3] = {'t', (char)('0' + (st->c.thcon_spinner + 2) % 3), 0};
      tt_put(&o, "ThCon busy: held by the spinning atomic of "); tt_put(&o, s);
      break;
    }
    case TT_WAIT_BUDGET: tt_put(&o, "unit busy"); break;
    case TT_WAIT_THCON_OWN: tt_put(&o, "its own ThCon instruction has not finished"); break;
    case TT_WAIT_CFG_ENTRY: tt_put(&o, "Config pipeline entry rule not met"); break;
    case TT_WAIT_SYNC_SLOT: tt_put(&o, "the shared Sync slot went to another thread"); break;
    case TT_WAIT_ARBITRATION: tt_put(&o, "lost arbitration for its unit this cycle"); break;
    case TT_WAIT_WB_FULL: tt_put(&o, "write-back queue full"); break;
    case TT_WAIT_KIND_COUNT: break;
    }
  }
  return tt_text_end(&o);
}
