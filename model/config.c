/* config.c — Configuration Unit: WRCFG, RDCFG, SETC16, RMWCIB0..3, STREAMWRCFG, CFGSHIFTMASK.
 * References: BlackholeA0/TensixTile/TensixCoprocessor/ConfigurationUnit.md, WRCFG.md,
 * RDCFG.md, SETC16.md, RMWCIB.md, STREAMWRCFG.md, CFGSHIFTMASK.md, BackendConfiguration.md.
 * Every Config accessor uses the issuing thread's bank S = ThreadConfig[T].CFG_STATE_ID for
 * indices < 180 and writes both banks for 180..223; indices >= 224 are UndefinedBehavior
 * (recorded; the access is skipped). */
#include "internal.h"

static int cfg_index_ok(tt_state *st, unsigned t, uint32_t idx) {
  if (idx < TT_CFG_WORD_COUNT) return 1;
  if (!TT_KNOB_IS(st, CFG_INDEX_HIGH, 1)) tt_fault(st, t, TT_FC_CFG_INDEX);  /* AMB-9 */
  return 0;
}

/* CfgIndex of WRCFG/RDCFG: 11 bits [10:0] (ISA), or tt-llk's 15/16 bits (field_width=llk). */
static TT_INLINE uint32_t wrcfg_index(const tt_state *st, const tt_args_WRCFG *a) {
  return TT_KNOB_IS(st, FIELD_WIDTH, 1) ? a->word & 0x7FFFu : a->cfg_index;
}

/* WRCFG in two halves: the GPR read (stage -1, at issue) and the Config write (stage 0). */
static TT_INLINE void wrcfg_capture(tt_state *st, unsigned t, const tt_args_WRCFG *a, tt_cfgp_slot *s) {
  s->skip = 0;
  if (a->is_128bit) {
    /* 128-bit: both indices silently aligned down to a group of four. */
    uint32_t idx = TT_DEFECT(WRCFG128_NO_ALIGN) ? wrcfg_index(st, a) : wrcfg_index(st, a) & ~3u;
    if (idx + 4 > TT_CFG_WORD_COUNT) idx = TT_CFG_WORD_COUNT;  /* whole group out of range */
    if (!cfg_index_ok(st, t, idx)) s->skip = 1;
    for (unsigned k = 0; k < 4; k++) s->vals[k] = st->c.gpr[t][(a->input_reg & ~3u) + k];
  } else {
    if (!cfg_index_ok(st, t, wrcfg_index(st, a))) s->skip = 1;
    s->vals[0] = st->c.gpr[t][a->input_reg];
  }
}

static TT_INLINE void wrcfg_commit(tt_state *st, const tt_args_WRCFG *a, tt_cfgp_slot *s) {
  if (s->skip) return;
  if (TT_DEFECT(CYC_WRCFG_LATE_READ))  /* planted: GPRs read in stage 0 instead of -1 */
    for (unsigned k = 0; k < 4; k++)
      s->vals[k] = st->c.gpr[s->thread][a->is_128bit ? (a->input_reg & ~3u) + k : a->input_reg];
  if (a->is_128bit) {
    uint32_t idx = TT_DEFECT(WRCFG128_NO_ALIGN) ? wrcfg_index(st, a) : wrcfg_index(st, a) & ~3u;
    tt_cfg_write_words(st, s->bank, idx, s->vals, 4, TT_VIA_TENSIX);
  } else {
    tt_cfg_write_one(st, s->bank, wrcfg_index(st, a), s->vals[0], TT_VIA_TENSIX);
  }
}

/* Functional mode (and the shared semantics): the deferred halves back to back. */
static tt_exec_result run_deferred(tt_state *st, unsigned t, const tt_insn *in) {
  tt_cfgp_slot s;
  tt_cfg_capture(st, t, in, &s);
  tt_cfg_read_stream(st, &s);
  tt_cfg_commit(st, &s);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_WRCFG(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(WRCFG);
  /* the two halves of tt_cfg_capture/tt_cfg_commit for WRCFG, back to back */
  tt_cfgp_slot s;
  s.thread = (uint8_t)t;
  s.bank = (uint8_t)tt_thread_bank(st, t);
  s.vals[0] = s.vals[1] = s.vals[2] = s.vals[3] = 0;
  wrcfg_capture(st, t, a, &s);
  wrcfg_commit(st, a, &s);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_RDCFG(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(RDCFG);
  uint32_t idx = TT_KNOB_IS(st, FIELD_WIDTH, 1) ? a->word & 0xFFFFu : a->cfg_index;  /* AMB-29 */
  unsigned dst = TT_DEFECT(RDCFG_OTHER_THREAD) ? (t + 1) % TT_THREAD_COUNT : t;
  if (!cfg_index_ok(st, t, idx)) {
    /* cfg_index_high=ignore (AMB-9): a legal read of a word that does not exist gives 0 */
    if (TT_KNOB_IS(st, CFG_INDEX_HIGH, 1)) tt_gpr_land(st, dst, a->result_reg, 0, ~0u, TT_LAT_RDCFG);
    return TT_EXEC_DONE;
  }
  /* RDCFG.md: Config read in stage 0, GPR write in stage +1 (readable two cycles later). */
  tt_gpr_land(st, dst, a->result_reg, st->c.cfg[tt_thread_bank(st, t)][idx], ~0u, TT_LAT_RDCFG);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_SETC16(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SETC16);
  if (a->cfg_index >= TT_TCFG_WORD_COUNT) {
    tt_fault(st, t, TT_FC_TCFG_INDEX);
    return TT_EXEC_DONE;
  }
  st->c.tcfg[t][a->cfg_index] = (uint16_t)a->new_value;
  if (a->cfg_index == TT_TCFG_CTX_CNT_RESET) {
    /* UNPACK_MISC_CFG_CfgContextCntReset_0 (bit 4) / _1 (bit 12): reset the thread's
     * unpacker config-context counters (recorded; the counters belong to the unpackers). */
    if (a->new_value & (1u << 4)) st->c.ctx_cnt_resets[t][0]++;
    if (a->new_value & (1u << 12)) st->c.ctx_cnt_resets[t][1]++;
  }
  return TT_EXEC_DONE;
}

/* RMWCIBn: byte lane n of Config[S][idx] = (NewValue & Mask) | (byte & ~Mask). RMWCIB.md:
 * a write to STATE_RESET_EN through RMWCIB does not reset the bank. */
static tt_exec_result rmwcib(tt_state *st, unsigned t, unsigned lane, uint32_t mask,
                             uint32_t value, uint32_t idx) {
  if (!cfg_index_ok(st, t, idx)) return TT_EXEC_DONE;
  unsigned bank = tt_thread_bank(st, t);
  if (TT_DEFECT(RMWCIB_WRONG_LANE)) lane = (lane + 1) & 3u;
  uint32_t word = st->c.cfg[bank][idx], sh = 8 * lane;
  uint32_t byte = (word >> sh) & 0xFFu;
  byte = (value & mask) | (byte & ~mask & 0xFFu);
  word = (word & ~(0xFFu << sh)) | (byte << sh);
  tt_cfg_write_one(st, bank, idx, word, TT_VIA_RMWCIB);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_RMWCIB0(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(RMWCIB0);
  return rmwcib(st, t, 0, a->mask, a->new_value, a->cfg_index);
}
tt_exec_result tt_exec_RMWCIB1(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(RMWCIB1);
  return rmwcib(st, t, 1, a->mask, a->new_value, a->cfg_index);
}
tt_exec_result tt_exec_RMWCIB2(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(RMWCIB2);
  return rmwcib(st, t, 2, a->mask, a->new_value, a->cfg_index);
}
tt_exec_result tt_exec_RMWCIB3(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(RMWCIB3);
  return rmwcib(st, t, 3, a->mask, a->new_value, a->cfg_index);
}

/* STREAMWRCFG: Config[S][CfgIndex] = NoC overlay register RegIndex of the stream named by
 * ThreadConfig[T].STREAM_ID_SYNC_SEC[StreamSelect].BankSel; the overlay read is issued in
 * stage -3 (tt_cfg_read_stream), the Config write happens in stage 0. */
tt_exec_result tt_exec_STREAMWRCFG(tt_state *st, unsigned t, uint32_t w) {
  tt_insn in = {.word = w, .form = TT_FORM_STREAMWRCFG};
  return run_deferred(st, t, &in);
}

static uint32_t rotr32(uint32_t x, uint32_t n) {
  n &= 31u;
  if (TT_DEFECT(CFGSHIFTMASK_ROTL)) n = (32u - n) & 31u;
  return n ? (x >> n) | (x << (32u - n)) : x;  /* std::rotr semantics: rotr(x, 0) == x */
}

/* CFGSHIFTMASK (CFGSHIFTMASK.md, newest text): the complement in modes 4..6 applies to the
 * masked and rotated scratch value, so bits outside the mask are affected too (AMB-8). Reads
 * and writes happen in its two stage-0 cycles, so the whole effect is one commit. */
static void cfgshiftmask_commit(tt_state *st, unsigned t, unsigned bank,
                                const tt_args_CFGSHIFTMASK *a) {
  unsigned scratch = a->scratch_index < 3 ? a->scratch_index : t;
  uint32_t src = st->c.cfg[bank][TT_CFG_SCRATCH0 + scratch];
  uint32_t mask = (uint32_t)(((uint64_t)2 << a->mask_width) - 1u);
  uint32_t sv = rotr32(src & mask, a->rotate_amt);
  uint32_t cv = st->c.cfg[bank][a->cfg_index];
  if (a->mask_mode == 0) cv &= ~rotr32(mask, a->rotate_amt);
  /* cfgshiftmask_not=masked (AMB-8, yaml): the complement stays inside the rotated mask */
  uint32_t nsv = TT_KNOB_IS(st, CFGSHIFTMASK_NOT, 1) ? ~sv & rotr32(mask, a->rotate_amt) : ~sv;
  switch (a->alu_mode & 7u) {
  case 0: cv = cv | sv; break;
  case 1: cv = cv & sv; break;
  case 2: cv = cv ^ sv; break;
  case 3: cv = cv + sv; break;
  case 4: cv = cv | nsv; break;
  case 5: cv = cv & nsv; break;
  case 6: cv = cv ^ nsv; break;
  default: cv = cv - sv; break;
  }
  tt_cfg_write_one(st, bank, a->cfg_index, cv, TT_VIA_TENSIX);
}

tt_exec_result tt_exec_CFGSHIFTMASK(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(CFGSHIFTMASK);
  /* tt_cfg_capture's index check, then tt_cfg_commit's write */
  if (cfg_index_ok(st, t, a->cfg_index)) cfgshiftmask_commit(st, t, tt_thread_bank(st, t), a);
  return TT_EXEC_DONE;
}

/* ---- the Config pipeline's view of the deferred forms ------------------------------------------ */
int tt_cfg_deferred(const tt_insn *in) {
  return in->form == TT_FORM_WRCFG || in->form == TT_FORM_CFGSHIFTMASK ||
         in->form == TT_FORM_STREAMWRCFG;
}

/* ConfigurationUnit.md stage table: STREAMWRCFG enters at -4, WRCFG and CFGSHIFTMASK at -1,
 * RMWCIB and RDCFG at 0. */

/* At issue: the bank, the index check (UB is recorded against the issuing instruction) and,
 * for WRCFG, the GPR operands (stage -1 reads them in the issue cycle). */
void tt_cfg_capture(tt_state *st, unsigned t, const tt_insn *in, tt_cfgp_slot *s) {
  s->thread = (uint8_t)t;
  s->bank = (uint8_t)tt_thread_bank(st, t);
  s->insn = *in;
  s->skip = 0;
  s->vals[0] = s->vals[1] = s->vals[2] = s->vals[3] = 0;
  if (in->form == TT_FORM_WRCFG) {
    const tt_args_WRCFG a = tt_unpack_WRCFG(in->word);
    wrcfg_capture(st, t, &a, s);
  } else if (in->form == TT_FORM_CFGSHIFTMASK) {
    s->skip = !cfg_index_ok(st, t, TT_ARG(in, CFGSHIFTMASK, cfg_index));
  } else if (in->form == TT_FORM_STREAMWRCFG) {
    s->skip = !cfg_index_ok(st, t, TT_ARG(in, STREAMWRCFG, cfg_index));
    /* the stream id (ThreadConfig) is taken at issue, the overlay register read in -3 */
    s->vals[1] = st->c.tcfg[t][TT_TCFG_STREAM_ID_SYNC + TT_ARG(in, STREAMWRCFG, stream_select)] & 0x3Fu;
  }
}

void tt_cfg_read_stream(tt_state *st, tt_cfgp_slot *s) {
  if (s->insn.form != TT_FORM_STREAMWRCFG) return;
  s->vals[0] = tt_stream_reg(st, s->vals[1], TT_ARG(&s->insn, STREAMWRCFG, reg_index));
}

void tt_cfg_commit(tt_state *st, tt_cfgp_slot *s) {
  switch (s->insn.form) {
  case TT_FORM_WRCFG: {
    const tt_args_WRCFG a = tt_unpack_WRCFG(s->insn.word);
    wrcfg_commit(st, &a, s);
    break;
  }
  case TT_FORM_CFGSHIFTMASK:
    if (!s->skip) {
      const tt_args_CFGSHIFTMASK a = tt_unpack_CFGSHIFTMASK(s->insn.word);
      cfgshiftmask_commit(st, s->thread, s->bank, &a);
    }
    break;
  case TT_FORM_STREAMWRCFG:
    if (!s->skip) tt_cfg_write_words(st, s->bank, TT_ARG(&s->insn, STREAMWRCFG, cfg_index), s->vals, 1,
                                     TT_VIA_TENSIX);
    break;
  default: break;
  }
}

/* ---- cycle mode: the Config-group pipeline (ConfigurationUnit.md; spec-digest 5.4) -------------
 * Stages -4..+1 live at cfgp[stage + 4]. An occupant spends `left` cycles in a stage, then moves
 * on at the start of the next cycle if the next stage is free; otherwise it stalls in place
 * (documented choice, digest 5.6(3)). Entering stage -3 issues STREAMWRCFG's overlay read;
 * entering stage 0 performs a deferred instruction's Config access. */

static unsigned cfgp_stage_cycles(const tt_state *st, const tt_insn *in, unsigned i) {
  if (i == 0) return 1u + TT_KNOB_VAL(st, STREAMWRCFG_PREPARE);  /* prepare: 1..4 cycles */
  if (i == 4 && in->form == TT_FORM_CFGSHIFTMASK) return 2;        /* read, then write */
  return 1;
}

/* The Config access of an occupant happens now: note the per-thread order. */
static void cfgp_access(tt_state *st, const tt_cfgp_slot *s) {
  tt_cyc *c = &st->c.cyc;
  if (s->seq < c->cfgp_done_seq[s->thread]) c->cfgp_reorders++;
  else c->cfgp_done_seq[s->thread] = s->seq;
}

static void cfgp_arrive(tt_state *st, unsigned i) {
  tt_cfgp_slot *s = &st->c.cyc.cfgp[i];
  s->left = (uint8_t)cfgp_stage_cycles(st, &s->insn, i);
  if (i == 1) tt_cfg_read_stream(st, s);
  if (i == 4) cfgp_access(st, s);
  if (i == 4 && tt_cfg_deferred(&s->insn)) tt_cfg_commit(st, s);
}

/* Stage k's occupant (if any) at the start of a cycle: it counts down, leaves after its last
 * stage, stalls behind an occupied next stage, or moves on. Returns 1 if it moved or left.
 * Always inlined with a constant k (tt_cfgp_advance): the stage's own rules fold. */
static TT_INLINE int cfgp_step(tt_state *st, tt_cfgp_slot *p, const unsigned k) {
  tt_cyc *c = &st->c.cyc;
  if (!(c->cfgp_occ >> k & 1u)) return 0;
  if (p[k].left > 1) { p[k].left--; return 0; }
  if (k == tt_cfgp_last_stage(&p[k].insn)) {
    p[k].valid = 0;
    c->cfgp_occ &= (uint8_t)~(1u << k);
    c->cfgp_left++;
    return 1;
  }
  /* next stage busy: stall in place (the last stage's occupant always leaves above) */
  if (k + 1 >= TT_CFGP_STAGE_COUNT || (c->cfgp_occ >> (k + 1) & 1u)) { p[k].left = 1; return 0; }
  p[k + 1] = p[k];
  p[k].valid = 0;
  c->cfgp_occ ^= (uint8_t)(3u << k);
  cfgp_arrive(st, k + 1);
  return 1;
}

/* Start of a cycle: every occupant advances if it can, downstream first (a stage is stepped
 * before the one behind it moves into it, so each occupant moves at most once). Returns 1 if any
 * occupant moved or left. */
int tt_cfgp_advance(tt_state *st) {
  tt_cfgp_slot *p = st->c.cyc.cfgp;
  _Static_assert(TT_CFGP_STAGE_COUNT == 6, "tt_cfgp_advance steps six stages");
  int moved = cfgp_step(st, p, 5);
  moved |= cfgp_step(st, p, 4);
  moved |= cfgp_step(st, p, 3);
  moved |= cfgp_step(st, p, 2);
  moved |= cfgp_step(st, p, 1);
  moved |= cfgp_step(st, p, 0);
  return moved;
}

/* Entry rules for a first stage s: stage s empty, and no stage k with -3 <= k < s occupied.
 * Documented bugs kept: stage -4 is not checked, and thread ids are ignored. */
int tt_cfgp_can_enter(const tt_state *st, const tt_insn *in) {
  unsigned occ = st->c.cyc.cfgp_occ;
  unsigned i = (unsigned)(tt_cfgp_first_stage(in) + 4);
  if ((occ >> i & 1u) && !TT_DEFECT(CYC_CFG_OVERWRITE)) return 0;
  if ((occ & ((1u << i) - 1u) & ~1u) && !TT_DEFECT(CYC_CFG_NO_ORDER)) return 0;  /* stages 1..i-1 */
  /* cfg_stall=no_entry (AMB-23): no entry while any later stage on the path is occupied */
  unsigned later = ((2u << tt_cfgp_last_stage(in)) - 1u) & ~((2u << i) - 1u);
  if ((occ & later) && TT_KNOB_IS(st, CFG_STALL, 1)) return 0;
  return 1;
}

/* Issue of a Config-group instruction into its first stage (rules already checked). Deferred
 * forms capture their operands now; RMWCIB and RDCFG do their whole access in this cycle, which
 * the scheduler performs right after this call (cycle.c: tt_dispatch). */
void tt_cfgp_enter(tt_state *st, unsigned t, const tt_insn *in, uint32_t pc) {
  unsigned i = (unsigned)(tt_cfgp_first_stage(in) + 4);
  tt_cfgp_slot *s = &st->c.cyc.cfgp[i];
  tt_cyc *c = &st->c.cyc;
  tt_cfg_capture(st, t, in, s);
  s->valid = 1;
  c->cfgp_occ |= (uint8_t)(1u << i);
  s->pc = pc;
  s->seq = ++c->cfgp_seq[t];
  s->left = (uint8_t)cfgp_stage_cycles(st, in, i);
  c->cfgp_entered++;
  if (i == 4) cfgp_access(st, s);
}
