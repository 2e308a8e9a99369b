/* waitgate.c — the per-thread Wait Gate latch: STALLWAIT, SEMWAIT, STREAMWAIT.
 * References: BlackholeA0/TensixTile/TensixCoprocessor/STALLWAIT.md (block table, conditions
 * C0..C12, default masks, one-cycle lag, never-replace rule), SEMWAIT.md, STREAMWAIT.md;
 * WormholeB0/TensixTile/TensixCoprocessor/WaitGate.md (per-cycle procedure).
 * Deviations (documented defaults, knobs in knobs.def): SEMWAIT with ConditionMask 0 is UB
 * (AMB-2); STREAMWAIT latches its target at issue and reads the stream id at evaluation
 * (AMB-6); bits 13/14 of a STALLWAIT word are reserved (AMB-7). Other readings, each a knob:
 * a wait replaces a latched one (wait_replace, AMB-3); an 11-bit STREAMWAIT Lo
 * (streamwait_lo_bits, AMB-4); what STREAMWAIT holds (streamwait_blocks, AMB-5); STALLWAIT
 * bits 13/14 (stallwait_bits_13_14, AMB-7); block bits of unlisted opcodes (unlisted_block,
 * AMB-28) and of FLUSHDMA (flushdma_b0, AMB-32).
 *
 * The never-replace rule needs no code: every wait opcode is caught by every block bit, and a
 * latched block mask is never zero (defaults are substituted), so a second wait instruction
 * is held until the first latch is forgotten. */
#include "internal.h"

#define TT_DEFAULT_BLOCK 0x040u       /* B6: block mask 0 means "Matrix Unit" */
#define TT_DEFAULT_STALL_COND 0x00Fu  /* C0..C3: condition mask 0 */

int tt_gate_catches(uint16_t block_mask, uint16_t insn_block_bits) {
  if (TT_DEFECT(WAIT_REPLACES_LATCH) && insn_block_bits == TT_BLOCK_ALL) return 0;
  if (insn_block_bits & TT_BLOCK_NOP)
    return TT_DEFECT(NOP_CAUGHT_ANY) ? block_mask != 0 : block_mask == TT_BLOCK_ALL;
  return (block_mask & insn_block_bits) != 0;
}

static uint16_t default_block(uint32_t block_mask) {
  if (TT_DEFECT(BLOCK_DEFAULT_ZERO)) return (uint16_t)block_mask;
  return (uint16_t)(block_mask ? block_mask : TT_DEFAULT_BLOCK);
}

/* Block bits that catch `in` under the knobs (AMB-28 unlisted opcodes, AMB-32 FLUSHDMA). */
static uint16_t block_bits_of(const tt_state *st, const tt_insn *in) {
  if (in->form == TT_FORM_FOREIGN && tt_isa_foreign[in->foreign].kind == TT_FG_NOTABLE) {
    if (TT_KNOB_IS(st, UNLISTED_BLOCK, 1)) return TT_BLOCK_ALL;
    if (TT_KNOB_IS(st, UNLISTED_BLOCK, 2)) return 0;
  }
  if (in->form == TT_FORM_FLUSHDMA && TT_KNOB_IS(st, FLUSHDMA_B0, 1)) return 0x020u;
  return in->block_bits;
}

int tt_latch_catches(const tt_state *st, unsigned t, const tt_insn *in) {
  const tt_latch *l = &st->c.thr[t].latch;
  if (l->op == TT_LATCH_NONE) return 0;
  /* wait_replace=overwrite (AMB-3): a wait instruction passes and replaces the latch */
  if (TT_KNOB_IS(st, WAIT_REPLACE, 1) &&
      (in->form == TT_FORM_STALLWAIT || in->form == TT_FORM_SEMWAIT || in->form == TT_FORM_STREAMWAIT))
    return 0;
  return tt_gate_catches(l->block_mask, block_bits_of(st, in));
}

tt_exec_result tt_exec_STALLWAIT(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(STALLWAIT);
  return tt_stallwait_latch(st, t, a);
}

tt_exec_result tt_stallwait_latch(tt_state *st, unsigned t, const tt_args_STALLWAIT *a) {
  tt_latch *l = &st->c.thr[t].latch;
  uint32_t cond = a->condition_mask, hi = (a->word >> 13) & 3u;  /* bits 13/14 (AMB-7) */
  if (TT_KNOB_IS(st, STALLWAIT_BITS_13_14, 2)) cond |= (hi & 1u) << 10 | (hi >> 1) << 11;
  int zero = cond == 0 && !(hi && TT_KNOB_IS(st, STALLWAIT_BITS_13_14, 1));
  l->op = TT_LATCH_STALLWAIT;
  l->block_mask = default_block(a->block_mask);
  l->cond_mask = (uint16_t)(!zero || TT_DEFECT(COND_DEFAULT_ZERO) ? cond : TT_DEFAULT_STALL_COND);
  l->sem_mask = 0;
  l->stream_select = 0;
  l->condition_index = 0;
  l->target = l->target_lo = 0;
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_SEMWAIT(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SEMWAIT);
  tt_latch *l = &st->c.thr[t].latch;
  if (a->condition_mask == 0) {
    if (!TT_KNOB_IS(st, SEMWAIT_COND0, 1)) {  /* newest text: UB; no latch */
      tt_fault(st, t, TT_FC_SEMWAIT_COND0);
      return TT_EXEC_DONE;
    }
    tt_args_STALLWAIT sw = {a->word & ~0x6000u, a->block_mask, 0};  /* Sep-2025 text: defined fallback */
    return tt_stallwait_latch(st, t, &sw);
  }
  l->op = TT_LATCH_SEMWAIT;
  l->block_mask = default_block(a->block_mask);
  l->cond_mask = (uint16_t)a->condition_mask;
  l->sem_mask = (uint8_t)a->sem_mask;
  l->stream_select = 0;
  l->condition_index = 0;
  l->target = l->target_lo = 0;
  return TT_EXEC_DONE;
}

/* TargetValue = (HI << 10) | Lo, HI from ThreadConfig STREAMWAIT_PHASE_HI (10 bits) for
 * condition 0, STREAMWAIT_NUM_MSGS_HI (7 bits) for condition 1. With the ISA's 10-bit Lo the
 * two do not overlap; under streamwait_lo_bits=11 (AMB-4) Lo's bit 10 (word bit 14) adds 0x400
 * to the target, as that reading says, so the parts are added (with HI's bit 0 set too, the
 * target is (HI + 1) << 10, not HI << 10). */
static uint32_t stream_target(const tt_state *st, unsigned t, unsigned ci, uint32_t lo) {
  uint32_t hi = ci == 0 ? (st->c.tcfg[t][TT_TCFG_STREAMWAIT_PHASE_HI] & 0x3FFu)
                        : (st->c.tcfg[t][TT_TCFG_STREAMWAIT_MSGS_HI] & 0x7Fu);
  if (TT_DEFECT(STREAMWAIT_NO_HI)) hi = 0;
  return (hi << 10) + lo;
}

tt_exec_result tt_exec_STREAMWAIT(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(STREAMWAIT);
  tt_latch *l = &st->c.thr[t].latch;
  uint32_t lo = a->target_value_lo;
  if (TT_KNOB_IS(st, STREAMWAIT_LO_BITS, 1)) lo |= ((a->word >> 14) & 1u) << 10;  /* AMB-4 */
  l->op = TT_LATCH_STREAMWAIT;
  l->block_mask = TT_KNOB_IS(st, STREAMWAIT_BLOCKS, 1) ? 0x01Cu          /* yaml: B2|B3|B4 */
                  : TT_KNOB_IS(st, STREAMWAIT_BLOCKS, 2) ? 0x002u        /* SEED-0: B1 */
                  : default_block(a->block_mask);
  l->cond_mask = (uint16_t)(1u << a->condition_index);
  l->condition_index = (uint8_t)a->condition_index;
  l->stream_select = (uint8_t)a->stream_select;
  l->sem_mask = 0;
  l->target_lo = lo;
  l->target = stream_target(st, t, a->condition_index, lo);
  return TT_EXEC_DONE;
}

/* STALLWAIT conditions C0..C12 all describe work in flight in some unit (or a pending
 * RISC-V request, or Src-bank hand-over): which of them hold is the scheduler's to say, and it
 * passes them in (`conds`, bit i = Ci). In functional mode every unit finishes at once and no
 * RISC-V core runs, so none of them can hold (run.c passes 0); cycle mode evaluates them
 * (cycle.c). */
static int stall_conditions_hold(const tt_latch *l, uint32_t conds) {
  return (conds & l->cond_mask) != 0;
}

static int sem_conditions_hold(const tt_state *st, const tt_latch *l) {
  for (unsigned m = l->sem_mask; m; m &= m - 1) {  /* the selected semaphores; bounded: 8 bits */
    unsigned i = (unsigned)__builtin_ctz(m);
    if ((l->cond_mask & 1u) && st->c.sem_value[i] == 0) return 1;                 /* C0 */
    if ((l->cond_mask & 2u) && (TT_DEFECT(SEMWAIT_C1_GT) ? st->c.sem_value[i] > st->c.sem_max[i]
                                                        : st->c.sem_value[i] >= st->c.sem_max[i]))
      return 1;  /* C1 */
  }
  return 0;
}

static int stream_condition_holds(const tt_state *st, unsigned t, const tt_latch *l) {
  unsigned sel = l->stream_select & 3u;
  unsigned stream = st->c.tcfg[t][TT_TCFG_STREAM_ID_SYNC + sel] & 0x3Fu;
  unsigned reg = l->condition_index ? TT_STREAM_MSGS_REG : TT_STREAM_PHASE_REG;
  uint32_t target = TT_KNOB_IS(st, STREAMWAIT_OPERANDS, 1)
                        ? stream_target(st, t, l->condition_index, l->target_lo)
                        : l->target;
  return tt_stream_reg(st, stream, reg) < target;
}

int tt_latch_satisfied(const tt_state *st, unsigned t, uint32_t conds) {
  const tt_latch *l = &st->c.thr[t].latch;
  switch ((tt_latch_op)l->op) {
  case TT_LATCH_NONE: return 1;
  case TT_LATCH_STALLWAIT: return !stall_conditions_hold(l, conds);
  case TT_LATCH_SEMWAIT: return !sem_conditions_hold(st, l);
  case TT_LATCH_STREAMWAIT: return !stream_condition_holds(st, t, l);
  }
  return 1;
}
