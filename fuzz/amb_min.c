/* amb_min.c — ambtool's minimiser: shrink a witness to the smallest stream that still separates
 * a knob value's reading from the default.
 *
 * The minimiser (amb_minimize) works on the predicate "the end states under the default and
 * under NAME's reading differ" (ambiguity_diff.c defines the end state), in this order, until
 * nothing changes: drop instructions; NOP masking (keeps the other threads' timing); cut a
 * prefix of the run into `init` lines (the state it left, under the default reading; only at a
 * point where that state is all architectural: no latch, no pending mutex hand-over and, in
 * cycle mode, every unit idle); drop NOPs; drop init lines; then field-granular: clear every
 * instruction field (and reserved bit) that is not needed. Every step is deterministic, so
 * the published reproducer is a pure function of the stored witness and the model. */

#include <string.h>
#include "amb_tool.h"

unsigned long amb_tries;
static unsigned g_k, g_v, g_mode;
static int g_level;   /* the input's level: a step may not lose an architectural difference */
static int pred(const fz_prog *p) { amb_tries++; return amb_separates(p, g_k, g_v, g_mode) >= g_level; }

static int step_drop(fz_prog *p, int nops_only) {
  static fz_prog q;
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = p->n[t]; i-- > 0;) {
      if (nops_only && p->w[t][i] != FZ_NOP) continue;
      q = *p;
      fz_prog_drop_insn(&q, t, i);
      if (pred(&q)) { *p = q; changed = 1; }
    }
  return changed;
}

static int step_inits(fz_prog *p) {
  static fz_prog q;
  int changed = 0;
  for (uint32_t i = p->ninit; i-- > 0;) {
    q = *p;
    memmove(&q.init[i], &q.init[i + 1], sizeof q.init[0] * (q.ninit - i - 1));
    q.ninit--;
    if (pred(&q)) { *p = q; changed = 1; }
  }
  return changed;
}

/* Field-granular: clear each non-zero field, then the reserved bits, of every instruction. */
static int step_fields(fz_prog *p) {
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      uint32_t w = p->w[t][i];
      tt_insn in;
      tt_decode(w, &in);
      uint32_t masks[20];
      unsigned nm = 0;
      if (in.form < TT_FORM_FOREIGN) {
        const tt_form_desc *fd = &tt_isa_forms[in.form];
        for (unsigned f = 0; f < fd->field_count && nm < 19; f++) {
          const tt_field_desc *fl = &tt_isa_fields[fd->field_first + f];
          masks[nm++] = (fl->width >= 32 ? 0xFFFFFFFFu : ((1u << fl->width) - 1u)) << fl->lsb;
        }
        masks[nm++] = in.reserved;
      } else {
        masks[nm++] = 0x00FFFFFFu;  /* outside the model: the whole payload */
      }
      for (unsigned m = 0; m < nm; m++) {
        uint32_t cur = p->w[t][i];
        if (!(cur & masks[m])) continue;
        p->w[t][i] = cur & ~masks[m];
        if (pred(p)) changed = 1;
        else p->w[t][i] = cur;
      }
    }
  return changed;
}

/* Prefix cut: the state after r steps under the default reading becomes init lines. */
static tt_state cut_st, cut_ref;

static int quiescent(const tt_state *st) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (st->c.thr[t].latch.op != TT_LATCH_NONE) return 0;
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++)
    if (st->c.mutex_handoff[i] || (i >= 5 && st->c.mutex[i])) return 0;
  if (st->c.thcon_spinner || st->c.src_dirty) return 0;
  if (st->p.mode != TT_MODE_CYCLE) return 1;
  const tt_cyc *c = &st->c.cyc;
  if (c->thcon_owner && (c->thcon_spin || c->now < c->thcon_free_at)) return 0;
  if (c->nwb || c->src_flip_at[0] || c->src_flip_at[1] || c->src_owner[0] || c->src_owner[1]) return 0;
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++)
    if (c->cfgp[k].valid) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (c->c0_until[t] >= c->now || c->setc16_at[t] >= c->now) return 0;
    if (c->cfg_write_next[t] >= c->now) return 0;
    for (unsigned u = 0; u < TT_STUB_COUNT; u++)
      if (c->stub_busy_until[u][t] >= c->now) return 0;
  }
  return 1;
}

static int cut_at(const fz_prog *p, unsigned mode, uint64_t r, fz_prog *out) {
  fz_setup(&cut_st, p);
  for (unsigned j = 0; j < TT_KNOB_COUNT; j++) cut_st.p.knob[j] = 0;
  tt_set_mode(&cut_st, (tt_mode)mode);
  for (uint64_t s = 0; s < r; s++) tt_step(&cut_st);
  if (!quiescent(&cut_st)) return 0;
  uint32_t moved = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) moved += cut_st.c.thr[t].pc;
  if (!moved) return 0;
  fz_prog_clear(out);
  fz_setup(&cut_ref, out);
  for (unsigned j = 0; j < TT_KNOB_COUNT; j++) cut_ref.p.knob[j] = 0;
  /* every difference must become an init line; fault records of the prefix cannot: the cut
   * changes the end state unless the prefix recorded none (the predicate decides) */
  return fz_cut_rest(p, &cut_ref, &cut_st, 1, out);
}

static int step_cut(fz_prog *p, unsigned mode) {
  static fz_prog q;
  tt_outcome o = amb_run(&cut_st, p, mode, TT_KNOB_COUNT, 0);
  if (o == TT_OUT_BUDGET) return 0;
  uint64_t steps = cut_st.c.steps;
  for (uint64_t r = steps; r >= 1; r--)
    if (cut_at(p, mode, r, &q) && fz_total(&q) < fz_total(p) && pred(&q)) { *p = q; return 1; }
  return 0;
}

/* Minimise p for knob k = v in `mode`. Returns 0, or -1 if p does not separate the readings. */
int amb_minimize(fz_prog *p, unsigned k, unsigned v, unsigned mode) {
  g_k = k;
  g_v = v;
  g_mode = mode;
  memset(p->knob, 0, sizeof p->knob);  /* the base is the default reading: knobs are noise */
  p->budget = 0;
  p->flags = 0;
  g_level = 1;
  if (!pred(p)) return -1;
  g_level = amb_separates(p, k, v, mode);
  for (unsigned round = 0; round < 16; round++) {
    int c = 0;
    c |= step_drop(p, 0);
    c |= fz_nop_pass(p, pred);
    c |= step_cut(p, mode);
    c |= step_drop(p, 1);
    c |= step_inits(p);
    c |= step_fields(p);
    if (!c) break;
  }
  /* empty trailing threads are already gone; keep init lines in a canonical order */
  return 0;
}
