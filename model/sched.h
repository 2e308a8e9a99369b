/* sched.h — what the two schedulers share (run.c: functional; cycle.c and cycle_out.c: cycle);
 * not part of the public API. The schedulers call the units (internal.h); no unit includes this
 * header or calls anything declared here (tests/layering.sh). */
#ifndef TT_SCHED_H
#define TT_SCHED_H
#include "internal.h"

/* ---- shared by both schedulers (run.c, cycle.c) ------------------------------------------- */
/* Thread t's head instruction (pc < len): its place in the decoded stream, decoded at its first
 * fetch here since the load. A thread's pc starts at 0 at the load and only ever steps by one
 * when its head retires, so the head is new exactly when pc >= pdec_n[t] (run.c's quick issue
 * retires heads without fetching them here, so pc may pass pdec_n[t]; the places it skips are
 * never fetched again). Only the head of the decode is kept (tt_decode_head): fields are read
 * from the word (TT_ARG, the executors). */
static inline const tt_insn *tt_head(tt_state *st, unsigned t) {
  uint32_t pc = st->c.thr[t].pc;
  tt_insn *in = &st->pdec[t][pc];
  if (TT_UNLIKELY(pc >= st->pdec_n[t])) {
    st->pdec_n[t] = pc + 1;
    tt_decode_head(st->prog[t][pc], in);
  }
  return in;
}

/* The executor of each form, by form number (run.c): given the word, each executor unpacks its
 * own fields. */
typedef tt_exec_result (*tt_exec_fn)(tt_state *st, unsigned t, uint32_t w);
extern const tt_exec_fn tt_exec_table[TT_FORM_COUNT];

/* Execute one instruction's whole architectural effect (functional mode; cycle mode for every
 * form that is not deferred into the Config pipeline): one indirect call, inlined into each
 * scheduler. gpr0=zero (AMB-27, SEED-1): GPR 0 reads as zero and keeps no write. */
static inline tt_exec_result tt_dispatch(tt_state *st, unsigned t, const tt_insn *in) {
  if (!TT_KNOB_IS(st, GPR0, 1)) return tt_exec_table[in->form](st, t, in->word);
  st->c.gpr[t][0] = 0;
  tt_exec_result r = tt_exec_table[in->form](st, t, in->word);
  st->c.gpr[t][0] = 0;
  return r;
}

/* Reserved payload bits of `in` under the knobs (run.c): a reading that gives a bit a meaning
 * (streamwait_lo_bits, stallwait_bits_13_14, loadind_offset_bits, field_width) claims it. */
uint32_t tt_insn_reserved(const tt_state *st, const tt_insn *in);

/* ---- cycle mode (cycle.c) ------------------------------------------------------------------ */
int tt_cycle_step(tt_state *st);          /* one cycle; 0 once finished or at a fixed point */
/* tt_run's loop: up to `limit` cycles (steps and fast-forwards); returns the cycles counted. */
uint64_t tt_cycle_run(tt_state *st, uint64_t limit);
/* After a quiet cycle: simulate up to `max` following cycles that are provably identical to it
 * (no timer reaches its next event) at once; returns how many. tt_run only. */
uint64_t tt_cycle_skip_quiet(tt_state *st, uint64_t max);  /* cycle_skip.c: the skip itself */
static inline uint64_t tt_cycle_skip(tt_state *st, uint64_t max) {
  const tt_cyc *c = &st->c.cyc;
  return !c->quiet || c->finished || !max ? 0 : tt_cycle_skip_quiet(st, max);
}
/* Cycle-mode STALLWAIT condition mask evaluation for thread t (bit i = Ci holds); what cycle.c
 * passes to the Wait Gate (tt_latch_satisfied). */
uint32_t tt_cycle_conditions(const tt_state *st, unsigned t);
/* Record the hazards of thread t issuing `in` (instruction pc) in the current cycle
 * (cycle_out.c): a GPR with a write-back pending, an outside Config read one cycle after a
 * WRCFG, an instruction entering the Config pipeline behind its own STREAMWRCFG. */
void tt_cycle_check_hazards(tt_state *st, unsigned t, const tt_insn *in, uint32_t pc);

#endif
