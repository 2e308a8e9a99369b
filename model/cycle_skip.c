/* cycle_skip.c — cycle mode's fast-forward over quiet cycles (tt_run only; tt_step always
 * simulates exactly one cycle). Split from cycle.c, which clocks the machine one cycle at a time;
 * this file reads the same micro-architectural state (tt_cyc) and moves only the clock, the step
 * count, the stall counters and the Config stage countdowns. */
#include "sched.h"

#define CYC(st) (&(st)->c.cyc)

/* ---- fast-forward over quiet cycles (tt_run; tt_step always simulates exactly one cycle) ------------
 * A quiet cycle (nothing issued, landed, moved or was forgotten) leaves every input of the next
 * cycle as it was, except the clock. Everything that reads the clock compares it with a timer,
 * so each such comparison has flip points: the cycles F whose value differs from cycle F-1's.
 * The cycles before the first flip point are copies of the quiet one: each holds the same
 * threads for the same reasons, and only the clock, the step count, the stall counters and the
 * Config stage countdowns move. The flip points, comparison by comparison:
 *   write-back lands        due <= now                      F = due
 *   Src hand-over           flip_at <= now                  F = flip_at
 *   ThCon occupied          now < free_at                   F = free_at
 *   ThCon early release     now + 1 >= free_at (AMB-33)     F = free_at - 1 (under that knob)
 *   spinning atomic retry   now >= next_try                 F = next_try
 *   stub busy, C0 window    until > now (and, for the deadlock test after the clock moves,
 *                           until >= now + 1: the same)     F = until
 *   SETC16 C12 window       setc16_at == now; setc16_at + 1 >= now + 1   F = setc16_at, +1
 *   Config stage occupant   left > 1 counts down; it moves when left reaches 1: F = now + left - 1
 * A FLUSHDMA holding ThCon re-checks its conditions every cycle, so it allows no skip. */
static void flip_at(uint64_t *e, uint32_t now, uint64_t f) {
  if (f >= now && f < *e) *e = f;
}

static uint64_t next_event(const tt_state *st) {
  const tt_cyc *c = CYC(st);
  uint32_t now = c->now;
  uint64_t e = UINT64_MAX;
  /* no flip point comes before now: each group returns as soon as one is now (nothing to skip) */
  if (c->thcon_owner) {
    if (c->thcon_insn.form == TT_FORM_FLUSHDMA) return now;
    if (c->thcon_spin) flip_at(&e, now, c->thcon_next_try);
    else {
      flip_at(&e, now, c->thcon_free_at);
      if (TT_KNOB_IS(st, THCON_RELEASE, 1)) flip_at(&e, now, (uint64_t)c->thcon_free_at - 1u);
    }
    if (e == now) return e;
  }
  for (unsigned i = 0; i < c->nwb; i++) flip_at(&e, now, c->wb[i].due);
  for (unsigned k = 0, occ = c->cfgp_occ; k < TT_CFGP_STAGE_COUNT && occ >> k; k++) {
    const tt_cfgp_slot *p = &c->cfgp[k];
    if (!(occ >> k & 1u)) continue;
    if (p->left > 1) flip_at(&e, now, (uint64_t)now + p->left - 1u);
    /* left 1: moves or leaves now, unless stalled behind an occupied next stage (whose own
     * flip point comes first) */
    else if (k == tt_cfgp_last_stage(&p->insn) || !(occ >> (k + 1) & 1u)) e = now;
  }
  if (e == now) return e;
  for (unsigned s = 0; s < 2 && (c->src_flip_at[0] | c->src_flip_at[1]); s++)
    if (c->src_flip_at[s]) flip_at(&e, now, c->src_flip_at[s]);
  flip_at(&e, now, c->matrix_next_at);
  if (TT_KNOB_IS(st, THCON_HANDOVER, 2)) flip_at(&e, now, c->thcon_idle_at);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint64_t s16 = c->setc16_at[t];
    if (c->c0_until[t] >= now) flip_at(&e, now, c->c0_until[t]);
    if (s16 + 1u < now) continue;  /* both SETC16 flip points passed */
    if (s16 < now) return now;     /* setc16_at + 1 == now */
    flip_at(&e, now, s16);         /* setc16_at >= now: the earlier of the two */
  }
  if (e == now) return e;
  if (c->stub_last_until >= now && !TT_DEFECT(CYC_SKIP_STUBS))
    for (unsigned u = 0; u < TT_STUB_COUNT; u++)
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) flip_at(&e, now, c->stub_busy_until[u][t]);
  return e;
}

uint64_t tt_cycle_skip_quiet(tt_state *st, uint64_t max) {
  tt_cyc *c = CYC(st);
  uint64_t e = next_event(st), k = e > c->now ? e - c->now : 0;
  if (k > max) k = max;
  if (k > UINT32_MAX - c->now) k = UINT32_MAX - c->now;
  if (!k) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &st->c.thr[t];
    if (th->pc < th->len && th->wait_kind != TT_WAIT_NONE) c->stall[t][th->wait_kind] += (uint32_t)k;
  }
  for (unsigned i = 0, occ = c->cfgp_occ; i < TT_CFGP_STAGE_COUNT && occ >> i; i++)
    if ((occ >> i & 1u) && c->cfgp[i].left > 1) c->cfgp[i].left = (uint8_t)(c->cfgp[i].left - k);
  c->now += (uint32_t)k;
  st->c.steps += k;
  st->skipped_cycles += k;
  return k;
}
