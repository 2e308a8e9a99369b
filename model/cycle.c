/* cycle.c — the cycle-mode scheduler: the same executors as functional mode, clocked.
 *
 * References: WormholeB0/TensixTile/TensixCoprocessor/WaitGate.md (per-cycle procedure, one-cycle
 * lag), BlackholeA0/TensixTile/TensixCoprocessor/STALLWAIT.md (conditions C0..C12),
 * WormholeB0/.../ScalarUnit.md (ThCon occupancy, asynchronous results),
 * BlackholeA0/.../ConfigurationUnit.md (pipeline stages and entry rules),
 * BlackholeA0/.../SyncUnit.md (shared Sync slot, mutex throughput); spec-digest §3.5 and §5.
 *
 * One call of tt_cycle_step() simulates cycle `now`, in this documented order
 * (design/architecture.md, "Cycle-mode conventions"):
 *   1. asynchronous GPR write-backs due in this cycle land;
 *   2. the Config pipeline advances (entering stage 0 performs a deferred Config write);
 *   3. unit bookkeeping: Src ownership changes of the stubs, ThCon release, FLUSHDMA hold,
 *      the next attempt of a spinning ATCAS/ATINCGETPTR;
 *   4. if every thread is done and every unit idle: the run is finished, `cycles` = now;
 *   5. every thread's latched wait is evaluated on this start-of-cycle state;
 *   6. every thread's head instruction is checked against its gate (latch, ThCon, mutex,
 *      Config entry rules) on that same state — no thread sees another's issue of this cycle;
 *   7. contended resources (the Sync slot, ThCon, one Config stage, one mutex) go to one
 *      candidate by round-robin (knob `arbitration`);
 *   8. the winners issue in thread order: at most one instruction per thread per cycle;
 *   9. latches found satisfied in 5 are forgotten (the one-cycle lag; knob `wait_lag`).
 * Semaphore, mutex and latch changes made in 8 are therefore seen from the next cycle.
 *
 * Termination: a cycle in which nothing issued, no latch was forgotten, nothing landed or moved,
 * and no unit has a timer running (ThCon occupancy, pipeline, write-back, stub, Src hand-over)
 * leaves the next cycle identical to it, so the run stops with TT_OUT_DEADLOCK. A spinning atomic
 * whose attempt failed is not a timer: its next attempt reads the same memory. */
#include <string.h>
#include "sched.h"

#define CYC(st) (&(st)->c.cyc)

#include "cycle_class.h"

/* ---- asynchronous write-back: the units queue results in st->c.cyc.wb (tt_gpr_land, state.c);
 * the scheduler lands them when due ----------------------------------------------------------- */
/* gpr_port=loads_first: an RDCFG result yields to a ThCon write-back of its thread landing in
 * the same cycle (one GPR write port per thread, digest 2.1). */
static void gpr_port_contention(tt_cyc *c) {
  uint8_t thcon_now = 0;
  for (unsigned i = 0; i < c->nwb; i++)
    if (c->wb[i].due <= c->now && c->wb[i].thcon) thcon_now |= (uint8_t)(1u << c->wb[i].thread);
  for (unsigned i = 0; i < c->nwb; i++)
    if (c->wb[i].due <= c->now && !c->wb[i].thcon && (thcon_now >> c->wb[i].thread & 1u))
      c->wb[i].due = c->now + 1;
}

/* Land every write-back due by now, in issue order; keep the rest in order. */
static TT_INLINE int land_writebacks(tt_state *st) {
  tt_cyc *c = CYC(st);
  unsigned keep = 0, landed = 0;
  if (TT_KNOB_IS(st, GPR_PORT, 1)) gpr_port_contention(c);
  for (unsigned i = 0; i < c->nwb; i++) {
    tt_wb w = c->wb[i];
    if (w.due <= c->now) {
      tt_gpr_merge(st, w.thread, w.reg, w.value, TT_DEFECT(CYC_LAND_FULL_WORD) ? ~0u : w.mask);
      landed++;
    } else {
      c->wb[keep++] = w;
    }
  }
  if (!landed) return 0;
  c->nwb = (uint8_t)keep;
  memset(c->wb_gprs, 0, sizeof c->wb_gprs);
  memset(c->wb_thcon_count, 0, sizeof c->wb_thcon_count);
  for (unsigned i = 0; i < keep; i++) {
    c->wb_gprs[c->wb[i].thread] |= (uint64_t)1 << c->wb[i].reg;
    if (c->wb[i].thcon) c->wb_thcon_count[c->wb[i].thread]++;
  }
  return 1;
}

/* ---- conditions C0..C12 (STALLWAIT.md, Blackhole numbering) ------------------------------- */
static int stub_busy(const tt_cyc *c, unsigned unit, unsigned t) {
  return c->stub_busy_until[unit][t] > c->now;
}

/* C1..C4, C9, C11: the stubs busy now (none once the last of them has finished). */
static uint32_t stub_conditions(const tt_cyc *c, unsigned t) {
  uint32_t m = 0;
  if (c->stub_last_until <= c->now) return 0;  /* every stub_busy_until is at most it */
  if (stub_busy(c, TT_STUB_UNPACK0, t)) m |= 1u << 1;
  if (stub_busy(c, TT_STUB_UNPACK1, t)) m |= 1u << 2;
  if (stub_busy(c, TT_STUB_PACK, t)) m |= 1u << 3;
  if (stub_busy(c, TT_STUB_FPU, t)) m |= 1u << 4;
  for (unsigned u = 0; u < TT_THREAD_COUNT; u++)
    if (stub_busy(c, TT_STUB_MOVER, u)) m |= 1u << 9;  /* mover: any thread */
  if (stub_busy(c, TT_STUB_SFPU, t)) m |= 1u << 11;
  return m;
}

uint32_t tt_cycle_conditions(const tt_state *st, unsigned t) {
  const tt_cyc *c = CYC(st);
  uint32_t m = stub_conditions(c, t);
  if (c->wb_thcon_count[t] || c->c0_until[t] > c->now) m |= 1u << 0;  /* ThCon requests */
  if (c->src_owner[0] != 0) m |= 1u << 5;   /* SrcA not owned by the unpackers */
  if (c->src_owner[1] != 0) m |= 1u << 6;
  if (c->src_owner[0] != 1) m |= 1u << 7;   /* SrcA not owned by the matrix unit */
  if (c->src_owner[1] != 1) m |= 1u << 8;
  /* C10: no RISC-V core runs in the model, so no request is ever pending. */
  int setc16 = c->now && (c->setc16_at[0] == c->now || c->setc16_at[1] == c->now ||
                          c->setc16_at[2] == c->now);
  if (tt_cfgp_busy(st) || (setc16 && TT_KNOB_IS(st, C12_SCOPE, 1)) ||
      (c->cfgp_busy_prev && TT_KNOB_IS(st, C12_SCOPE, 2)) ||
      (c->cfgp_settled_prev && TT_KNOB_IS(st, C12_SCOPE, 3)))
    m |= 1u << 12;
  return m;
}

/* What the Wait Gate is given for thread t's latch: the conditions, when it is a STALLWAIT. */
static uint32_t latch_conditions(const tt_state *st, unsigned t) {
  return st->c.thr[t].latch.op == TT_LATCH_STALLWAIT ? tt_cycle_conditions(st, t) : 0;
}

/* ---- ThCon ------------------------------------------------------------------------------------ */

static int thcon_busy(const tt_cyc *c) {
  return c->thcon_owner && (c->thcon_spin || c->now < c->thcon_free_at);
}

static uint32_t thcon_release_at(const tt_state *st, uint32_t start, unsigned n) {
  if (!TT_KNOB_IS(st, THCON_HANDOVER, 0) && n > 1) n--;
  return start + n;
}

static void retire(tt_state *st, unsigned t, const tt_insn *in) {
  tt_thread *th = &st->c.thr[t];
  th->pc++;
  th->retired++;
  st->c.form_count[in->form]++;
}

/* FLUSHDMA (FLUSHDMA.md): conditions C0..C3 of its own mask, 0 meaning all four. */
static int flushdma_holds(const tt_state *st, unsigned t, const tt_insn *in) {
  uint32_t m = TT_ARG(in, FLUSHDMA, condition_mask) ? TT_ARG(in, FLUSHDMA, condition_mask) : 0xFu;
  return (tt_cycle_conditions(st, t) & m & 0xFu) != 0;
}

/* flushdma_release=next_cycle (AMB-46): a FLUSHDMA that had to wait (flush_wait 1) and finds
 * its conditions clear releases one cycle later (flush_wait 2), as a latch is forgotten.
 * Returns 1 while it still holds. */
static int flushdma_release_late(tt_state *st) {
  tt_cyc *c = CYC(st);
  if (c->flush_wait != 1) return 0;
  c->flush_wait = 2;
  c->thcon_free_at = c->now + 1;
  return 1;
}

/* Step 3 for ThCon: release a finished occupant, hold FLUSHDMA, retry a spinning atomic. */
static int thcon_step(tt_state *st) {
  tt_cyc *c = CYC(st);
  if (!c->thcon_owner) return 0;
  unsigned t = c->thcon_owner - 1u;
  if (c->thcon_spin) {
    if (c->now < c->thcon_next_try) return 0;
    c->thcon_try_at = c->now;
    if (tt_dispatch(st, t, &c->thcon_insn) == TT_EXEC_RETRY) {
      c->thcon_next_try = c->now + tt_thcon_occupancy(&c->thcon_insn);
      return 0;  /* the same memory gives the same answer: not progress by itself */
    }
    c->thcon_spin = 0;
    c->thcon_free_at = thcon_release_at(st, c->now, tt_thcon_occupancy(&c->thcon_insn));
    c->thcon_idle_at = c->now + tt_thcon_occupancy(&c->thcon_insn);
    st->c.thcon_spinner = 0;
    retire(st, t, &c->thcon_insn);
    return 1;
  }
  if (c->now < c->thcon_free_at) return 0;
  if (c->thcon_insn.form == TT_FORM_FLUSHDMA && TT_KNOB_IS(st, FLUSHDMA, 0)) {
    if (flushdma_holds(st, t, &c->thcon_insn)) {
      c->thcon_free_at = c->now + 1;
      if (TT_KNOB_IS(st, FLUSHDMA_RELEASE, 1)) c->flush_wait = 1;
      return 0;
    }
    if (flushdma_release_late(st)) return 0;
  }
  c->thcon_owner = 0;
  c->flush_wait = 0;
  return 1;
}

/* ---- foreign-unit stubs and Src ownership ------------------------------------------------------ */
/* The stub each foreign opcode occupies, from its Wait Gate block bits as the decoder sets them
 * (isa.c: the row's BLOCK for TT_FG_GATE, TT_BLOCK_NOP for TT_FG_NOTABLE, else none), and whether
 * the matrix unit reads Src with it: one table load per foreign instruction. */
#define FG_BITS(block, kind) ((kind) == TT_FG_GATE ? (block) : (kind) == TT_FG_NOTABLE ? TT_BLOCK_NOP : 0)
#define FG_STUB(b)                                                                                  \
  ((b) & 0x008u ? TT_STUB_UNPACK0 : (b) & 0x004u ? TT_STUB_PACK : (b) & 0x010u ? TT_STUB_MOVER    \
   : (b) & 0x040u ? TT_STUB_FPU : (b) & 0x100u ? TT_STUB_SFPU : -1)
/* The matrix unit's Src-reading instructions (MVMUL, ELWMUL/ADD/SUB, DOTPV, the pools and
 * convolutions): the ones knob matrix_interval (AMB-43) spaces, across threads. */
#define FG_MATRIX(op) (((op) >= 0x22 && (op) <= 0x29) || ((op) >= 0x30 && (op) <= 0x34) || (op) == 0x3A)
static const int8_t fg_stub[TT_FOREIGN_COUNT] = {
#define TT_FOREIGN(NAME, op, block, kind) [TT_FG_ID_##NAME] = (int8_t)FG_STUB(FG_BITS(block, kind)),
#include "foreign.def"
#undef TT_FOREIGN
};
static const uint8_t fg_matrix[TT_FOREIGN_COUNT] = {
#define TT_FOREIGN(NAME, op, block, kind) [TT_FG_ID_##NAME] = FG_MATRIX(op),
#include "foreign.def"
#undef TT_FOREIGN
};
#undef FG_BITS
#undef FG_STUB
#undef FG_MATRIX

/* The stub a foreign instruction occupies, or -1: Miscellaneous unit (B0 only), no condition
 * tracks it. */
static int stub_of(const tt_insn *in) {
  if (in->foreign == TT_FG_ID_UNPACR || in->foreign == TT_FG_ID_UNPACR_NOP)
    return (in->word >> 23) & 1u ? TT_STUB_UNPACK1 : TT_STUB_UNPACK0;
  return fg_stub[in->foreign];
}

static const uint8_t stub_cycles[] = {4, 1, 2, 8, 16};

static int matrix_reads_src(const tt_insn *in) { return fg_matrix[in->foreign]; }
static const uint8_t matrix_intervals[] = {1, 6, 2, 3, 4, 8};

static void foreign_issue(tt_state *st, unsigned t, const tt_insn *in) {
  tt_cyc *c = CYC(st);
  int u = stub_of(in);
  if (!TT_KNOB_IS(st, MATRIX_INTERVAL, 0) && matrix_reads_src(in))
    c->matrix_next_at = c->now + matrix_intervals[TT_KNOB_VAL(st, MATRIX_INTERVAL) % 6u];
  /* A unit's own NOP occupies its unit for one cycle, its issue cycle (SFPNOP.md, UNPACR_NOP_Nop.md):
   * the slot above, no stub time, no Src hand-over (conformance/cycle/153, 154). */
  if (u < 0 || in->foreign == TT_FG_ID_SFPNOP || in->foreign == TT_FG_ID_UNPACR_NOP) return;
  uint32_t until = c->now + stub_cycles[TT_KNOB_VAL(st, STUB_CYCLES) % 5u];
  if (c->stub_busy_until[u][t] < until) c->stub_busy_until[u][t] = until;
  if (c->stub_last_until < until) c->stub_last_until = until;
  /* Src hand-over stub: an UNPACR gives its Src bank to the matrix unit when it finishes; a
   * matrix-unit instruction gives both back to the unpackers when it finishes. */
  if (in->foreign == TT_FG_ID_UNPACR) {
    unsigned s = (unsigned)(u == TT_STUB_UNPACK1);
    c->src_flip_at[s] = until;
    c->src_flip_to[s] = 1;
  } else if (u == TT_STUB_FPU) {
    for (unsigned s = 0; s < 2; s++) { c->src_flip_at[s] = until; c->src_flip_to[s] = 0; }
  }
}

static int src_step(tt_cyc *c) {
  int changed = 0;
  for (unsigned s = 0; s < 2; s++) {
    if (!c->src_flip_at[s] || c->src_flip_at[s] > c->now) continue;
    changed |= c->src_owner[s] != c->src_flip_to[s];
    c->src_owner[s] = c->src_flip_to[s];
    c->src_flip_at[s] = 0;
  }
  return changed;
}

/* ---- the gate ------------------------------------------------------------------------------------ */
enum { RES_NONE = -1 };

static const tt_insn stage0_writer = {.form = TT_FORM_RMWCIB0};

/* The rules of a unit outside the model: it accepts one instruction per cycle from all threads
 * together (spec-digest 3.1: "another thread won the unit this cycle"; p150: SFPNOP from 2/3
 * threads runs at 1.97/2.97 cycles per instruction per thread). */
static unsigned foreign_rules(const tt_state *st, const tt_insn *in, int *res) {
  const tt_cyc *c = CYC(st);
  int u = stub_of(in);
  if (u >= 0 && !TT_KNOB_IS(st, OUTSIDE_SLOT, 1)) *res = TT_RR_UNIT0 + u;  /* AMB-47 */
  if (c->matrix_next_at > c->now && matrix_reads_src(in)) return TT_WAIT_BUDGET;  /* AMB-43 */
  return TT_WAIT_NONE;
}

/* The rules of gate_check for the forms of class k & CL_GATE, in its order. */
static unsigned gate_unit_rules(tt_state *st, unsigned t, const tt_insn *in, unsigned k, int busy,
                                int *res) {
  const tt_cyc *c = CYC(st);
  if (k & CL_THCON) {
    if (busy && !TT_DEFECT(CYC_THCON_SHARED)) return TT_WAIT_THCON_BUSY;
    if (!TT_DEFECT(CYC_THCON_SHARED)) *res = TT_RR_THCON;
  }
  /* REG2FLOP (knob reg2flop=wh_config) writes Config from ThCon: it waits until the Config
   * pipeline has drained, so Config writes stay in program order (documented choice). */
  if ((k & CL_REG2FLOP) && TT_KNOB_IS(st, REG2FLOP, 1) && tt_cfgp_busy(st))
    return TT_WAIT_CFG_ENTRY;
  /* reg2flop=wh_config_entry (AMB-51): the entry rules of a stage-0 writer (as RMWCIB) instead */
  if ((k & CL_REG2FLOP) && TT_KNOB_IS(st, REG2FLOP, 2) && !tt_cfgp_can_enter(st, &stage0_writer))
    return TT_WAIT_CFG_ENTRY;
  if (k & CL_MUTEX) {
    unsigned why = tt_sync_gate(st, t, in);
    if (why != TT_WAIT_NONE) return why;
    *res = TT_RR_MUTEX0 + (int)(tt_mutex_index(st, in) % TT_MUTEX_SLOTS);
  }
  if ((k & CL_SYNC) && !TT_DEFECT(CYC_SYNC_SLOT_SHARED)) *res = TT_RR_SYNC;
  /* a unit outside the model: foreign_rules */
  if (k & CL_FOREIGN) {
    unsigned why = foreign_rules(st, in, res);
    if (why != TT_WAIT_NONE) return why;
  }
  if (k & CL_CFG) {
    if (!tt_cfgp_can_enter(st, in)) return TT_WAIT_CFG_ENTRY;
    *res = TT_RR_CFG0 + tt_cfgp_first_stage(in) + 4;
  }
  if ((k & CL_WB) && c->nwb + 4u > TT_WB_MAX) return TT_WAIT_WB_FULL;
  return TT_WAIT_NONE;
}

/* ThCon occupied by thread t itself: the reason it holds t's head (of class k), or TT_WAIT_NONE when
 * thcon_release=silicon (AMB-33) lets it go: the p150 measurement shows the issuing thread's
 * next non-ThCon instruction leaving at c+N-1, one cycle before the occupancy ends. Under
 * thcon_handover=overlap the occupancy already ends at c+N-1: the two readings name the same
 * cycle and do not add up to c+N-2 (AMB-33's row, knobs.def). */
static unsigned thcon_own_hold(tt_state *st, unsigned t, unsigned k) {
  const tt_cyc *c = CYC(st);
  int early = TT_KNOB_IS(st, THCON_RELEASE, 1) && TT_KNOB_IS(st, THCON_HANDOVER, 0) &&
              !c->thcon_spin && !(k & CL_THCON) && c->now + 1 >= c->thcon_free_at &&
              !(c->thcon_insn.form == TT_FORM_FLUSHDMA && TT_KNOB_IS(st, FLUSHDMA, 0) &&
                flushdma_holds(st, t, &c->thcon_insn));   /* FLUSHDMA holds while they hold */
  if (early) return TT_WAIT_NONE;
  return !c->thcon_spin ? TT_WAIT_THCON_OWN
         : c->thcon_insn.form == TT_FORM_ATCAS ? TT_WAIT_ATCAS : TT_WAIT_ATINCGETPTR;
}

/* Why thread t's head cannot issue this cycle (TT_WAIT_NONE if it may), and the contended
 * resource it needs (*res, or RES_NONE). */
static TT_INLINE unsigned gate_check_busy(tt_state *st, unsigned t, const tt_insn *in, int *res,
                                          int busy) {
  const tt_cyc *c = CYC(st);
  unsigned k = cls(in);
  *res = RES_NONE;
  /* each test on its cheap precondition first, as try_issue does (run.c) */
  if (busy && c->thcon_owner == 1 + t) {
    unsigned why = thcon_own_hold(st, t, k);
    if (why != TT_WAIT_NONE) return why;
  }
  if (busy && TT_KNOB_IS(st, THCON_SCOPE, 1)) return TT_WAIT_THCON_BUSY;
  if (st->c.thr[t].latch.op != TT_LATCH_NONE && tt_latch_catches(st, t, in)) return TT_WAIT_LATCH;
  if (!(k & CL_GATE)) return TT_WAIT_NONE;
  if (k == CL_FOREIGN) return foreign_rules(st, in, res);  /* the commonest gated heads */
  if ((k & CL_GATE) == CL_THCON && !TT_DEFECT(CYC_THCON_SHARED)) {  /* gate_unit_rules' first rule */
    if (busy) return TT_WAIT_THCON_BUSY;
    *res = TT_RR_THCON;
    return TT_WAIT_NONE;
  }
  return gate_unit_rules(st, t, in, k, busy, res);
}

/* gate_check with ThCon's busy state read now (gate_check_busy: busy = thcon_busy, which
 * gate_and_issue reads once per cycle: nothing changes it during the gate pass). */
static TT_INLINE unsigned gate_check(tt_state *st, unsigned t, const tt_insn *in, int *res) {
  return gate_check_busy(st, t, in, res, thcon_busy(CYC(st)));
}

/* thcon_read=next_cycle (AMB-44): ThCon reads its GPR operands one cycle after issue, so a
 * write-back of such a GPR due in the next cycle is read; it lands now, before the read (nothing
 * else of this thread writes that GPR in between). */
static void thcon_read_late(tt_state *st, unsigned t, const tt_insn *in) {
  tt_cyc *c = CYC(st);
  uint64_t rd, wr;
  tt_insn_gpr_use(in, &rd, &wr);
  int any = 0;
  for (unsigned i = 0; i < c->nwb; i++)
    if (c->wb[i].thread == t && c->wb[i].due == c->now + 1 && (rd >> c->wb[i].reg & 1u)) {
      c->wb[i].due = c->now;
      any = 1;
    }
  if (any) land_writebacks(st);
}

/* Issue of a ThCon instruction: it occupies ThCon (an atomic that fails spins at the head). */
static void issue_thcon(tt_state *st, unsigned t, const tt_insn *in, uint32_t pc) {
  tt_cyc *c = CYC(st);
  c->thcon_owner = (uint8_t)(1 + t);
  c->thcon_insn = *in;
  c->thcon_pc = pc;
  unsigned n = tt_thcon_occupancy(in);
  /* flushdma=stallwait_b5 latches instead and holds ThCon 1 cycle; stallwait_b5_2cy (AMB-50)
   * keeps FLUSHDMA's 2 (ScalarUnit.md) */
  if (in->form == TT_FORM_FLUSHDMA && TT_KNOB_IS(st, FLUSHDMA, 1)) n = 1;
  if ((cls(in) & CL_STORE) && !TT_KNOB_IS(st, C0_STORES, 0))
    c->c0_until[t] = c->now + tt_latency(st, TT_LAT_LOADIND);
  c->thcon_try_at = c->now;
  if (tt_dispatch(st, t, in) == TT_EXEC_RETRY) {
    c->thcon_spin = 1;
    c->thcon_next_try = c->now + n;
    st->c.thcon_spinner = (uint8_t)(1 + t);
    return;  /* stays at the head: retired when an attempt succeeds */
  }
  c->thcon_free_at = thcon_release_at(st, c->now, n);
  c->thcon_idle_at = c->now + n;
  retire(st, t, in);
}

/* Issue of a form of class CL_ISSUE (k): Config writes, SETC16, the Config pipeline, ThCon, the
 * units outside the model. */
static void issue_unit(tt_state *st, unsigned t, const tt_insn *in, unsigned k, uint32_t pc) {
  tt_cyc *c = CYC(st);
  if (k & CL_CFG_WRITE) c->cfg_write_next[t] = c->now + 1;
  if (k & CL_SETC16) c->setc16_at[t] = c->now + 1;
  if (k & CL_CFG) {
    tt_cfgp_enter(st, t, in, pc);
    /* RMWCIB and RDCFG do their whole access in the entry cycle; deferred forms wait for 0 */
    if (!tt_cfg_deferred(in)) tt_dispatch(st, t, in);
    retire(st, t, in);
    return;
  }
  if (k & CL_THCON) {
    issue_thcon(st, t, in, pc);
    return;
  }
  if (k & CL_FOREIGN) foreign_issue(st, t, in);
  tt_dispatch(st, t, in);
  retire(st, t, in);
}

/* Issue thread t's head in this cycle. */
static void issue(tt_state *st, unsigned t, const tt_insn *in) {
  tt_cyc *c = CYC(st);
  tt_thread *th = &st->c.thr[t];
  unsigned k = cls(in);
  uint32_t pc = th->pc;
  st->issue_cycle[t][pc] = c->now;
  if (TT_KNOB_IS(st, GPR0, 1)) st->c.gpr[t][0] = 0;  /* AMB-27, as tt_dispatch does */
  if (c->wb_gprs[t] && TT_KNOB_IS(st, THCON_READ, 1) && (k & CL_THCON)) thcon_read_late(st, t, in);
  /* the three hazards' preconditions (cycle_out.c), so that most issues skip the call */
  if (c->wb_gprs[t] | (c->cfg_write_next[t] == c->now) | (c->cfgp_occ & 1u))
    tt_cycle_check_hazards(st, t, in, pc);
  if (in->reserved && tt_insn_reserved(st, in) && TT_KNOB_IS(st, RESERVED_BITS, 0))
    tt_fault(st, t, TT_FC_RESERVED_BITS);
  if (k & CL_ISSUE) {
    issue_unit(st, t, in, k, pc);
    return;
  }
  tt_dispatch(st, t, in);
  retire(st, t, in);
}

/* ---- one cycle ------------------------------------------------------------------------------------- */
static int idle(const tt_state *st) {
  const tt_cyc *c = CYC(st);
  if (thcon_busy(c) || c->nwb || tt_cfgp_busy(st)) return 0;
  /* thcon_handover=overlap_busy (AMB-49): handed over at c+N-1, idle only from c+N */
  if (TT_KNOB_IS(st, THCON_HANDOVER, 2) && c->thcon_idle_at > c->now) return 0;
  if (c->stub_last_until > c->now) return 0;  /* some stub busy */
  /* c0_stores=yes: a store in flight keeps the run going until it lands; c0_only (AMB-48):
   * it counts for C0 only, and the run may end before it lands */
  for (unsigned t = 0; t < TT_THREAD_COUNT && TT_KNOB_IS(st, C0_STORES, 1); t++)
    if (c->c0_until[t] > c->now) return 0;
  return 1;
}

/* A timer that will change something without any issue: occupancy, write-back, pipeline, stub,
 * Src hand-over, store C0 window, SETC16 C12 window. A spinning atomic is one only until it has
 * made an attempt after the last change anywhere (its address GPR may have landed since): after
 * that, every further attempt reads the same state and fails the same way. */
static int timers_pending(const tt_state *st) {
  const tt_cyc *c = CYC(st);
  if (TT_DEFECT(CYC_DEADLOCK_EARLY)) return 0;
  if ((c->thcon_owner && !c->thcon_spin) || c->nwb || tt_cfgp_busy(st)) return 1;
  if (c->thcon_spin && c->thcon_try_at <= c->last_change) return 1;
  if (c->src_flip_at[0] || c->src_flip_at[1] || c->cfgp_busy_prev || c->cfgp_settled_prev) return 1;
  if (c->matrix_next_at >= c->now) return 1;
  if (TT_KNOB_IS(st, THCON_HANDOVER, 2) && c->thcon_idle_at >= c->now) return 1;  /* AMB-49 */
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    /* called after now++: C12's SETC16 window (true only in cycle setc16_at) changes when it
     * was the cycle just simulated or the next one */
    if (c->c0_until[t] >= c->now || c->setc16_at[t] + 1 >= c->now) return 1;
  }
  if (c->stub_last_until >= c->now) return 1;  /* some stub still busy or just freed */
  return 0;
}

static int all_done(const tt_state *st) {  /* branch-free: no coverage edges, every cycle */
  const tt_thread *th = st->c.thr;
  _Static_assert(TT_THREAD_COUNT == 3, "all_done tests three threads");
  return (th[0].pc >= th[0].len) & (th[1].pc >= th[1].len) & (th[2].pc >= th[2].len);
}

/* Round-robin: the first candidate after the last winner of resource r (T0 first when none). */
static unsigned pick(tt_state *st, int r, unsigned cand_mask) {
  unsigned start = TT_KNOB_IS(st, ARBITRATION, 1) ? 0u : CYC(st)->rr[r] % 3u;
  /* the first of cand_mask (not empty) at or after start, in the order start, start+1, ... */
  static const uint8_t first_from[3][8] = {{0, 0, 1, 0, 2, 0, 1, 0}, {0, 0, 1, 1, 2, 2, 1, 1},
                                           {0, 0, 1, 0, 2, 2, 2, 2}};
  if (!TT_DEFECT(CYC_NONDETERMINISTIC)) return first_from[start][cand_mask & 7u];
  if (TT_DEFECT(CYC_NONDETERMINISTIC)) {
    static unsigned runs_seen;  /* survives tt_reset: the planted bug */
    start = (start + ++runs_seen) % 3u;
  }
  for (unsigned k = 0; k < TT_THREAD_COUNT; k++) {
    unsigned t = (start + k) % TT_THREAD_COUNT;
    if (cand_mask & (1u << t)) return t;
  }
  return 0;
}

/* Issue thread t's head (its place in the decoded stream) now and note its wait state (a spinning
 * atomic stays at the head).
 * Returns 1 if the instruction may have written the thread's latch. */
static TT_INLINE int issue_now(tt_state *st, unsigned t, const tt_insn *head) {
  tt_cyc *c = CYC(st);
  tt_thread *th = &st->c.thr[t];
  unsigned form = head->form;
  issue(st, t, head);
  if (TT_DEFECT(CYC_DOUBLE_ISSUE) && form == TT_FORM_NOP && th->pc < th->len &&
      th->latch.op == TT_LATCH_NONE) {
    tt_insn in2 = *tt_head(st, t);
    int r2;
    if (gate_check(st, t, &in2, &r2) == TT_WAIT_NONE && r2 == RES_NONE) issue(st, t, &in2);
  }
  int spinning = c->thcon_spin && c->thcon_owner == 1 + t;
  th->wait_kind = (uint8_t)(!spinning ? TT_WAIT_NONE
                            : form == TT_FORM_ATCAS ? TT_WAIT_ATCAS : TT_WAIT_ATINCGETPTR);
  return (form_class[form] & CL_WAIT) != 0;
}

/* Gate check of thread t's head (decoded once while it waits); TT_WAIT_NONE for a done thread. */
static unsigned head_check(tt_state *st, unsigned t, int *res) {
  tt_thread *th = &st->c.thr[t];
  *res = RES_NONE;
  if (th->pc >= th->len) { th->wait_kind = TT_WAIT_NONE; return TT_WAIT_KIND_COUNT; }
  unsigned why = gate_check(st, t, tt_head(st, t), res);
  th->wait_kind = (uint8_t)why;
  return why;
}

/* Do two candidates in `win` claim the same resource? */
static int contended(unsigned win, const int *res) {
  _Static_assert(TT_THREAD_COUNT == 3, "contended compares three threads");
  int a = (win & 1u) && res[0] != RES_NONE ? res[0] : -2;  /* distinct values for no claim */
  int b = (win & 2u) && res[1] != RES_NONE ? res[1] : -3;
  int d = (win & 4u) && res[2] != RES_NONE ? res[2] : -4;
  return a == b || a == d || b == d;
}

/* thcon_scope=all_threads (AMB-12, SEED-1): a ThCon instruction issuing now holds every other
 * thread's gate from this cycle on. */
static unsigned thcon_scope_all(unsigned win, const int *res, unsigned *why) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!(win & (1u << t)) || res[t] != TT_RR_THCON) continue;
    for (unsigned u = 0; u < TT_THREAD_COUNT; u++)
      if (u != t && (win & (1u << u))) { win &= ~(1u << u); why[u] = TT_WAIT_THCON_BUSY; }
  }
  return win;
}

/* Among the candidates in `win`, one winner per contended resource (round-robin); the losers
 * are held this cycle. thcon_scope=all_threads (AMB-12, SEED-1): a ThCon instruction issuing
 * now holds every other thread's gate from this cycle on. */
static unsigned arbitrate(tt_state *st, unsigned win, const int *res, unsigned *why) {
  if (!(win & (win - 1)) && !TT_DEFECT(CYC_NONDETERMINISTIC)) {
    /* one candidate: it wins its resource uncontended (pick() would return it) */
    unsigned t = win == 1u ? 0u : win == 2u ? 1u : 2u;
    CYC(st)->rr[res[t]] = (uint8_t)(1 + t);
    return win;
  }
  if (!TT_DEFECT(CYC_NONDETERMINISTIC) && !contended(win, res)) {
    /* every claimed resource has one candidate: each wins its own (pick() would return it) */
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      if ((win >> t & 1u) && res[t] != RES_NONE) CYC(st)->rr[res[t]] = (uint8_t)(1 + t);
    return TT_KNOB_IS(st, THCON_SCOPE, 1) ? thcon_scope_all(win, res, why) : win;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!(win & (1u << t)) || res[t] == RES_NONE) continue;
    unsigned cands = 0;
    for (unsigned u = 0; u < TT_THREAD_COUNT; u++)
      if ((win & (1u << u)) && res[u] == res[t]) cands |= 1u << u;
    unsigned w = pick(st, res[t], cands);
    CYC(st)->rr[res[t]] = (uint8_t)(1 + w);
    for (unsigned u = 0; u < TT_THREAD_COUNT; u++) {
      if (u == w || !(cands & (1u << u))) continue;
      win &= ~(1u << u);
      why[u] = res[u] == TT_RR_SYNC ? TT_WAIT_SYNC_SLOT : TT_WAIT_ARBITRATION;
    }
  }
  return TT_KNOB_IS(st, THCON_SCOPE, 1) ? thcon_scope_all(win, res, why) : win;
}

/* sync_visibility=same_cycle: threads in the fixed order T0, T1, T2 each evaluate their latch
 * and gate on the state as the threads before them left it this cycle, and issue at once. */
static TT_NOINLINE int gate_cycle_sequential(tt_state *st, unsigned *sat, unsigned *relatched) {
  tt_cyc *c = CYC(st);
  uint32_t claimed = 0;
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    tt_thread *th = &st->c.thr[t];
    int sat_t = th->latch.op != TT_LATCH_NONE && tt_latch_satisfied(st, t, latch_conditions(st, t));
    *sat |= (unsigned)sat_t << t;
    if (sat_t && TT_KNOB_IS(st, WAIT_LAG, 1)) { th->latch.op = TT_LATCH_NONE; changed = 1; }
    int res;
    unsigned why = head_check(st, t, &res);
    if (why == TT_WAIT_KIND_COUNT) continue;
    /* a mutex serializes through its own state here; every other resource once per cycle */
    int shared = res != RES_NONE && !(res >= TT_RR_MUTEX0 && res < TT_RR_UNIT0);
    if (why == TT_WAIT_NONE && shared && (claimed >> res & 1u))
      why = res == TT_RR_SYNC ? TT_WAIT_SYNC_SLOT : TT_WAIT_ARBITRATION;
    if (why != TT_WAIT_NONE) { th->wait_kind = (uint8_t)why; c->stall[t][why]++; continue; }
    if (shared) claimed |= 1u << res;
    *relatched |= (unsigned)issue_now(st, t, tt_head(st, t)) << t;
    changed = 1;
  }
  return changed;
}

/* Step 5: every latched thread's wait on the start-of-cycle state. Returns the threads whose
 * latch is satisfied; wait_lag=none forgets them at once (*changed). */
static unsigned eval_latches(tt_state *st, int *changed) {
  const tt_thread *th0 = st->c.thr;
  unsigned sat = 0;
  if (!(th0[0].latch.op | th0[1].latch.op | th0[2].latch.op)) return 0;  /* no latch: most cycles */
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    tt_thread *th = &st->c.thr[t];
    if (th->latch.op == TT_LATCH_NONE || !tt_latch_satisfied(st, t, latch_conditions(st, t))) continue;
    sat |= 1u << t;
    if (TT_KNOB_IS(st, WAIT_LAG, 1)) { th->latch.op = TT_LATCH_NONE; *changed = 1; }
  }
  return sat;
}

/* Steps 6-8 (sync_visibility=next_cycle): gate every live thread's head on the start-of-cycle
 * state, arbitrate, issue the winners in thread order. Returns the threads whose issued
 * instruction may have written their latch. */
/* gate_and_issue's first pass for thread t (always inlined with a constant t). */
static TT_INLINE void gate_one(tt_state *st, const unsigned t, const tt_insn **head, unsigned *why,
                               int *res, unsigned *win, unsigned *live, unsigned *claims, int busy) {
  tt_thread *th = &st->c.thr[t];
  if (th->pc >= th->len) { th->wait_kind = TT_WAIT_NONE; return; }  /* done */
  *live |= 1u << t;
  head[t] = tt_head(st, t);  /* decoded once while it waits */
  why[t] = gate_check_busy(st, t, head[t], &res[t], busy);
  th->wait_kind = (uint8_t)why[t];
  if (why[t] == TT_WAIT_NONE) *win |= 1u << t;
  if (res[t] != RES_NONE) *claims |= 1u << t;
}

/* gate_and_issue's second pass for thread t: issue a winner, count a held thread's stall. */
static TT_INLINE unsigned issue_one(tt_state *st, const unsigned t, const tt_insn *const *head,
                                    const unsigned *why, unsigned win, unsigned live) {
  if (win & (1u << t)) return (unsigned)issue_now(st, t, head[t]) << t;
  if (live & (1u << t)) {  /* held: at the gate, or lost the arbitration */
    st->c.thr[t].wait_kind = (uint8_t)why[t];
    CYC(st)->stall[t][why[t]]++;
  }
  return 0;
}

/* Steps 6-8 (sync_visibility=next_cycle): gate every live thread's head on the start-of-cycle
 * state, arbitrate, issue the winners in thread order. Returns the threads whose issued
 * instruction may have written their latch. */
static unsigned gate_and_issue(tt_state *st) {
  int res[TT_THREAD_COUNT] = {RES_NONE, RES_NONE, RES_NONE};
  unsigned why[TT_THREAD_COUNT], win = 0, live = 0, claims = 0, relatched = 0;
  const tt_insn *head[TT_THREAD_COUNT] = {NULL, NULL, NULL};  /* set for every live thread */
  _Static_assert(TT_THREAD_COUNT == 3, "gate_and_issue visits T0, T1, T2 in that order");
  int busy = thcon_busy(CYC(st));  /* the gate pass reads the start-of-cycle state only */
  gate_one(st, 0, head, why, res, &win, &live, &claims, busy);
  gate_one(st, 1, head, why, res, &win, &live, &claims, busy);
  gate_one(st, 2, head, why, res, &win, &live, &claims, busy);
  if (win & claims) win = arbitrate(st, win, res, why);
  relatched |= issue_one(st, 0, head, why, win, live);
  relatched |= issue_one(st, 1, head, why, win, live);
  relatched |= issue_one(st, 2, head, why, win, live);
  return win ? relatched | 1u << 3 : 0;  /* bit 3: something issued */
}

/* Steps 5-9 of the file comment. Returns 1 if an instruction issued or a latch was forgotten. */
static int gate_cycle(tt_state *st) {
  unsigned sat = 0, relatched = 0;  /* relatched: a wait issued this cycle (latch replaced) */
  int changed = 0;
  if (TT_KNOB_IS(st, SYNC_VISIBILITY, 1)) {
    changed = gate_cycle_sequential(st, &sat, &relatched);
  } else {
    sat = eval_latches(st, &changed);
    relatched = gate_and_issue(st);
    changed |= relatched != 0;
  }
  /* step 9: forget a satisfied latch — unless a wait issued this cycle replaced it (possible
   * under wait_replace=overwrite): the new latch was not the one evaluated */
  for (unsigned t = 0; sat && t < TT_THREAD_COUNT; t++)
    if ((sat >> t & 1u) && TT_KNOB_IS(st, WAIT_LAG, 0) && !(relatched >> t & 1u)) {
      st->c.thr[t].latch.op = TT_LATCH_NONE;
      changed = 1;
    }
  return changed;
}

/* c12_scope=settled (AMB-45): the pipeline holds something other than an RDCFG in stage +1. */
static TT_NOINLINE int cfgp_settled(const tt_state *st) {
  const tt_cfgp_slot *p = CYC(st)->cfgp;
  if (!tt_cfgp_busy(st)) return 0;
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++)
    if (p[k].valid && !(k == TT_CFGP_STAGE_COUNT - 1 && p[k].insn.form == TT_FORM_RDCFG)) return 1;
  return 0;
}

/* Steps 1-3 for the units that move by themselves: write-backs, Config pipeline, Src hand-over. */
static TT_INLINE int unit_steps(tt_state *st) {
  tt_cyc *c = CYC(st);
  int act = 0;
  if (c->nwb) act |= land_writebacks(st);
  if (tt_cfgp_busy(st)) act |= tt_cfgp_advance(st);
  if (c->src_flip_at[0] | c->src_flip_at[1]) act |= src_step(c);
  return act;
}

/* The end of a cycle: what the next one reads of it, and the clock. */
static TT_INLINE void close_cycle(tt_state *st, int act) {
  tt_cyc *c = CYC(st);
  c->cfgp_busy_prev = (uint8_t)tt_cfgp_busy(st);
  if (TT_KNOB_IS(st, C12_SCOPE, 3)) c->cfgp_settled_prev = (uint8_t)cfgp_settled(st);
  c->quiet = (uint8_t)!act;
  if (act) c->last_change = c->now;
  c->now++;
  st->c.steps++;
}

static TT_INLINE int cycle_step(tt_state *st) {
  tt_cyc *c = CYC(st);
  st->c.cyc_used = 1;  /* tt_reset clears the cycle-mode state */
  if (c->finished) return 0;
  int act = unit_steps(st);
  if (c->thcon_owner) act |= thcon_step(st);
  if (all_done(st) && idle(st)) {
    c->cycles = c->now;
    c->finished = 1;
    return 0;
  }
  act |= gate_cycle(st);
  close_cycle(st, act);
  if (!act && !timers_pending(st)) {
    c->cycles = c->now;
    return 0;
  }
  return 1;
}

int tt_cycle_step(tt_state *st) { return cycle_step(st); }

/* ---- held cycles (tt_run only; tt_step always simulates the whole cycle) -----------------------
 * While ThCon holds a non-spinning occupant other than FLUSHDMA and no thread has a latch, every
 * live thread whose gate starts with a ThCon rule is held by ThCon alone until the occupancy ends:
 * the owner by its own occupancy (gate_check's first rule; thcon_release=silicon may let its head
 * go from free_at - 1 on, so not that cycle), another thread by ThCon busy when its head is a ThCon
 * instruction (or whatever its head under thcon_scope=all_threads). Those rules come before any that
 * reads other state, so while every live thread is held that way nothing can issue and no latch is
 * evaluated or forgotten: a cycle is its unit steps, the held threads' stall counts and the end of
 * cycle (ThCon's own step changes nothing before free_at; the run cannot finish with ThCon busy).
 * held_end returns the first cycle that must be simulated in full (now when there is none) and
 * notes each live thread's reason as the gate would. */
static uint32_t held_end(tt_state *st) {
  tt_cyc *c = CYC(st);
  const tt_thread *th = st->c.thr;
  if (TT_DEFECT(CYC_THCON_SHARED) || TT_DEFECT(CYC_DEADLOCK_EARLY) || c->finished) return c->now;
  if (th[0].latch.op | th[1].latch.op | th[2].latch.op) return c->now;
  if (!c->thcon_owner || c->thcon_spin || c->thcon_insn.form == TT_FORM_FLUSHDMA ||
      c->thcon_free_at <= c->now)
    return c->now;
  uint32_t end = c->thcon_free_at - (TT_KNOB_IS(st, THCON_RELEASE, 1) ? 1u : 0u);
  if (end <= c->now) return c->now;
  uint8_t why[TT_THREAD_COUNT];
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    why[t] = TT_WAIT_NONE;
    if (th[t].pc >= th[t].len) continue;  /* done */
    /* the gate decodes every live thread's head; a head not decoded yet is the next one of a
     * thread that issued in the cycle just simulated, which the next cycle decodes in any case */
    unsigned k = cls(tt_head(st, t));
    if (c->thcon_owner == 1 + t) why[t] = TT_WAIT_THCON_OWN;
    else if (TT_KNOB_IS(st, THCON_SCOPE, 1) || (k & CL_THCON)) why[t] = TT_WAIT_THCON_BUSY;
    else return c->now;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) st->c.thr[t].wait_kind = why[t];
  return end;
}

/* After a simulated cycle: up to `max` held cycles, then the fast-forward after a quiet one
 * (tt_cycle_skip) unless the held cycles ran to their end, which is a flip point; returns how
 * many cycles that took. Held cycles count as skipped cycles (st->skipped_cycles). A quiet held
 * cycle followed by more than two held cycles hands over to the fast-forward at once (it jumps
 * a quiet stretch in one step; shorter ones are cheaper one by one). */
static uint64_t held_cycles(tt_state *st, uint64_t max) {
  tt_cyc *c = CYC(st);
  uint32_t end = max ? held_end(st) : c->now;
  uint64_t n = 0;
  while (c->now < end && n < max) {  /* bounded: end - now cycles at most */
    int act = unit_steps(st);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      unsigned w = st->c.thr[t].wait_kind;
      if (w != TT_WAIT_NONE) c->stall[t][w]++;
    }
    close_cycle(st, act);
    n++;
    if (!act && end - c->now > 2) break;
  }
  st->skipped_cycles += n;
  return n && c->now == end ? n : n + tt_cycle_skip(st, max - n);
}

/* tt_run's cycle-mode loop, with the step inlined: up to `limit` cycles, each simulated in full,
 * simulated as a held cycle or fast-forwarded over (tt_cycle_skip). Returns the cycles counted
 * against the limit. */
uint64_t tt_cycle_run(tt_state *st, uint64_t limit) {
  uint64_t i = 0;
  for (; i < limit; i++) {  /* bounded: i < limit, and held_cycles and a skip add at most
                               limit - i - 1 */
    if (!cycle_step(st)) break;
    const tt_cyc *c = CYC(st);
    if (c->thcon_owner && c->thcon_free_at > c->now) i += held_cycles(st, limit - i - 1);
    else i += tt_cycle_skip(st, limit - i - 1);
  }
  return i;
}
