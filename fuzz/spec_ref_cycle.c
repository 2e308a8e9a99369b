/* spec_ref_cycle.c — the reference interpreter's cycle mode (see spec_ref.h), written from the
 * spec digest (§3.4-3.5 Wait Gate and its lag, §5 cycle-level behaviour, §5.6 choices) and
 * the cycle conventions of design/architecture.md and README.md "Cycle mode", separately from
 * model/cycle.c and the Config pipeline of model/config.c (neither was read).
 *
 * Formulation: not a per-cycle procedure. The run is a sequence of *decisions*. From the
 * current cycle `now`, every thread's head instruction gets the earliest cycle at which
 * everything that can hold it is out of the way, given that nobody issues anything meanwhile:
 * its own thread's last ThCon instruction, ThCon itself, the cycle its latch is found
 * satisfied (plus the one-cycle lag), its mutex, and the first cycle at which the Config
 * pipeline (whose occupants carry their whole planned trajectory) lets it enter. Between
 * decisions only timers run, so those times are exact. The smallest of them is the next
 * cycle N in which anything issues; the timed events before N are applied at once (write-backs
 * landing, Config accesses of occupants reaching stage 0, overlay reads at stage -3, latches
 * forgotten, a FLUSHDMA released), the threads whose time is N compete for the shared
 * resources (round-robin per resource), the winners issue, and `now` becomes N + 1.
 *
 * Timing rules (defaults; each knob's other reading is noted where it is read):
 *   ThCon  one instruction at a time; issued at c with occupancy K it holds ThCon and its own
 *          thread until c+K (thcon_handover=overlap: c+K-1 for both; overlap_busy: c+K-1 for
 *          both, but ThCon idle for `cycles` only from c+K; thcon_release=silicon:
 *          the own thread's next non-ThCon instruction at c+K-1; thcon_scope=all_threads:
 *          every instruction of every thread waits for ThCon). K: SETDMAREG, DMANOP, RSTDMA 1;
 *          REG2FLOP, FLUSHDMA 2; ALU 3 (immediate, or both registers in one aligned group of
 *          four) else 4; STOREIND, STOREREG, ATSWAP, LOADIND, LOADREG, ATINCGET 3; ATCAS,
 *          ATINCGETPTR 15. REG2FLOP under reg2flop=wh_config (a Config writer from ThCon) issues
 *          only into an empty Config pipeline, keeping Config writes in order (the model's
 *          documented choice); wh_config_entry (AMB-51): where a stage-0 writer may enter
 *          (stage 0 free, nothing in -3..-1), without occupying a stage. FLUSHDMA (isa) keeps ThCon and its thread until the first cycle
 *          >= c+2 at which its conditions are all false. A failing ATCAS/ATINCGETPTR keeps
 *          ThCon and its thread for good (nothing else can write L1 while it holds ThCon).
 *   results LOADIND/LOADREG/ATINCGET at c + load_latency/loadreg_latency/atincget_latency,
 *          RDCFG at c+2 (gpr_port=loads_first: one cycle later while a ThCon result of its
 *          thread lands in the same cycle); merged into the GPR as it is when they land.
 *   Config pipeline stages -4..+1; an occupant advances when its time in a stage is over and
 *          the next stage is free (stall in place); entry at stage s needs s free and no
 *          occupant in -3..s-1 (bug 1: -4 unchecked; bug 2: thread ids ignored; cfg_stall=
 *          no_entry: also every later stage of its path free). C12: any stage occupied
 *          (c12_scope=with_setc16: or a SETC16 issued the cycle before; silicon: or any stage
 *          occupied during the previous cycle).
 *   Sync   one slot per cycle for SEMINIT/SEMPOST/SEMGET/STALLWAIT/SEMWAIT/STREAMWAIT;
 *          ATGETM/ATRELM contend only per mutex.
 *   stubs  a foreign instruction of an outside unit (unpacker 0/1 by bit 23, packer, mover,
 *          FPU, SFPU) is accepted one per cycle per unit and keeps its thread's stub busy for
 *          stub_cycles (STALLWAIT C1-C4, C9 any thread, C11); UNPACR hands its Src bank to
 *          the matrix unit when done, a matrix-unit instruction hands both back (C5-C8).
 *          A unit's own NOP (SFPNOP, UNPACR_NOP) occupies its unit for its issue cycle only
 *          (SFPNOP.md, UNPACR_NOP_Nop.md: "for one cycle"): the slot, no stub time.
 *   `cycles` the first cycle with every thread done and ThCon, the pipeline, the write-backs
 *          and the stubs idle (c0_stores=yes: and every store landed; c0_only: stores count
 *          for C0 only, the run does not wait for them).
 * Readings the p150 profile and the registry rows AMB-43..47 add (their rows are the spec):
 *   matrix_interval=N  the matrix unit's Src readers (spec_ref_insn.c) one every N cycles, all
 *          threads together; thcon_read=next_cycle  a ThCon instruction reads its operands a
 *          cycle after issue (a write-back due then is read, no hazard); c12_scope=settled  C12
 *          also true when the pipeline held anything but an RDCFG in +1 at the end of the cycle
 *          before; flushdma_release=next_cycle  a FLUSHDMA that had to wait lets go a cycle after
 *          its conditions clear; outside_slot=none  no contention for outside units;
 *          flushdma_b0=not_caught (spec_ref.c)  FLUSHDMA caught by B5 only.
 * sync_visibility=same_cycle (AMB-41): the threads of a decision are taken in order, each
 *          on the state the ones before it left (issue_in_order). The Config pipeline's
 *          trajectories are in spec_ref_pipe.c.
 * Not expressed (spec_diff resets this knob; vectors check it): setdmareg_result=two_cycles. */
#include <string.h>
#include "spec_ref.h"

#define KN(s, K) ((s)->knob[TT_KNOB_##K])
#define NEVER SR_NEVER

enum { R_THCON = 0, R_SYNC = 1, R_CFG = 2 /* + stage + 4 */, R_MUTEX = 8, R_UNIT = 16, R_NONE = 31 };

static uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }

static uint64_t bit(uint32_t r) { return 1ull << (r & 63u); }

/* ---- conditions over time -------------------------------------------------------------------- */
static uint8_t src_owner_at(const sr_state *s, unsigned b, uint32_t x) {
  const sr_cyc *c = &s->cyc;
  return c->src_flip_at[b] && x >= c->src_flip_at[b] ? c->src_flip_to[b] : c->src_owner[b];
}

/* Is some STALLWAIT condition of `mask` true for thread t at the start of cycle x (>= now),
 * if nothing issues meanwhile? */
/* c12_scope=settled (AMB-45): was anything in the pipeline at the end of cycle y, an RDCFG in
 * stage +1 (its GPR write) not counted? (An occupant that left at the end of y was in it.) */
static int pipe_settled(const sr_state *s, uint32_t y) {
  for (unsigned i = 0; i < SR_OCC_MAX; i++) {
    int st = sr_stage_at(&s->cyc.occ[i], y);
    if (st != 99 && !(st == 1 && s->cyc.occ[i].in.form == TT_FORM_RDCFG)) return 1;
  }
  return s->cyc.pipe_left_other == y + 1;
}

static int cond_true(const sr_state *s, unsigned t, uint16_t m, uint32_t x) {
  const sr_cyc *c = &s->cyc;
  if (m & 0x001u) {
    for (unsigned i = 0; i < c->nwb; i++)
      if (c->wb[i].thcon && c->wb[i].thread == t && c->wb[i].due > x) return 1;
    if (KN(s, C0_STORES) != 0 && c->store_until[t] > x) return 1;
  }
  if ((m & 0x002u) && c->stub_until[SR_U_UNPACK0][t] > x) return 1;
  if ((m & 0x004u) && c->stub_until[SR_U_UNPACK1][t] > x) return 1;
  if ((m & 0x008u) && c->stub_until[SR_U_PACK][t] > x) return 1;
  if ((m & 0x010u) && c->stub_until[SR_U_FPU][t] > x) return 1;
  if ((m & 0x020u) && src_owner_at(s, 0, x) != 0) return 1;
  if ((m & 0x040u) && src_owner_at(s, 1, x) != 0) return 1;
  if ((m & 0x080u) && src_owner_at(s, 0, x) != 1) return 1;
  if ((m & 0x100u) && src_owner_at(s, 1, x) != 1) return 1;
  if (m & 0x200u)
    for (unsigned u = 0; u < SR_THREADS; u++)
      if (c->stub_until[SR_U_MOVER][u] > x) return 1;
  if ((m & 0x800u) && c->stub_until[SR_U_SFPU][t] > x) return 1;
  if (m & 0x1000u) {
    if (sr_pipe_busy(s, x)) return 1;
    if (KN(s, C12_SCOPE) == 1 && c->setc16_next && c->setc16_next == x) return 1;
    if (KN(s, C12_SCOPE) == 2 && x > 0 && sr_pipe_busy_during(s, x - 1)) return 1;
    if (KN(s, C12_SCOPE) == 3 && x > 0 && pipe_settled(s, x - 1)) return 1;
  }
  return 0;
}

/* After this cycle no timer changes anything. */
static uint32_t horizon(const sr_state *s) {
  const sr_cyc *c = &s->cyc;
  uint32_t h = umax(sr_pipe_end(s), c->setc16_next);
  for (unsigned i = 0; i < c->nwb; i++) h = umax(h, c->wb[i].due);
  for (unsigned t = 0; t < SR_THREADS; t++) {
    h = umax(h, c->store_until[t]);
    for (unsigned u = 0; u < SR_STUBS; u++) h = umax(h, c->stub_until[u][t]);
  }
  return umax(h, umax(c->src_flip_at[0], c->src_flip_at[1])) + 2;
}

/* First cycle >= from at which no condition of `mask` holds for t, or NEVER. */
static uint32_t clear_from(const sr_state *s, unsigned t, uint16_t mask, uint32_t from) {
  uint32_t h = umax(horizon(s), from);
  for (uint32_t x = from; x <= h; x++)
    if (!cond_true(s, t, mask, x)) return x;
  return NEVER;
}

/* The cycle at whose start t's latch is found satisfied (it is forgotten at its end), or NEVER. */
static uint32_t latch_clear(const sr_state *s, unsigned t, uint32_t now) {
  const sr_latch *l = &s->latch[t];
  uint32_t from = umax(now, s->cyc.latch_from[t]);
  if (l->op == TT_LATCH_NONE) return NEVER;
  if (l->op == TT_LATCH_STALLWAIT) return clear_from(s, t, l->cond, from);
  return sr_latch_holds_state(s, t) ? NEVER : from;
}

/* ---- timed events ------------------------------------------------------------------------------ */
/* gpr_port=loads_first: an RDCFG result yields to a ThCon result of its thread due the same cycle. */
static void port_fix(sr_state *s) {
  sr_cyc *c = &s->cyc;
  if (KN(s, GPR_PORT) != 1) return;
  for (int moved = 1; moved;) {
    moved = 0;
    for (unsigned i = 0; i < c->nwb; i++) {
      if (c->wb[i].thcon) continue;
      for (unsigned j = 0; j < c->nwb; j++)
        if (c->wb[j].thcon && c->wb[j].thread == c->wb[i].thread && c->wb[j].due == c->wb[i].due) {
          c->wb[i].due++;
          moved = 1;
        }
    }
  }
}

void sr_cyc_result(sr_state *s, unsigned t, unsigned reg, uint32_t v, uint32_t mask, unsigned kind) {
  static const uint8_t lat_load[] = {7, 3, 5, 12, 24}, lat_at[] = {24, 3, 7, 12, 48};
  sr_cyc *c = &s->cyc;
  uint32_t lat = kind == SR_RES_RDCFG ? 2u
                 : kind == SR_RES_ATINCGET ? lat_at[KN(s, ATINCGET_LATENCY) % 5]
                 : kind == SR_RES_LOADREG ? lat_load[KN(s, LOADREG_LATENCY) % 5]
                 : lat_load[KN(s, LOAD_LATENCY) % 5];
  if (c->nwb >= SR_WB_MAX) return;   /* cannot happen: ThCon issues at most 4 per 3 cycles */
  sr_wb *w = &c->wb[c->nwb++];
  w->due = c->now + lat;
  w->value = v & mask;
  w->mask = mask;
  w->seq = c->wb_seq++;
  w->thread = (uint8_t)t;
  w->reg = (uint8_t)reg;
  w->thcon = kind != SR_RES_RDCFG;
  port_fix(s);
}

static void land(sr_state *s, uint32_t upto) {
  sr_cyc *c = &s->cyc;
  for (;;) {
    int best = -1;
    for (unsigned i = 0; i < c->nwb; i++)
      if (c->wb[i].due <= upto &&
          (best < 0 || c->wb[i].due < c->wb[best].due ||
           (c->wb[i].due == c->wb[best].due && c->wb[i].seq < c->wb[best].seq)))
        best = (int)i;
    if (best < 0) return;
    sr_wb *w = &c->wb[best];
    uint32_t *g = &s->gpr[w->thread][w->reg];
    *g = (*g & ~w->mask) | w->value;
    if (w->reg == 0 && s->knob[TT_KNOB_GPR0] == 1) *g = 0;   /* gpr0=zero (AMB-27) */
    c->wb[best] = c->wb[--c->nwb];
  }
}

/* The Config access of an occupant reaching stage 0 (WRCFG, CFGSHIFTMASK, STREAMWRCFG). */
static void access(sr_state *s, sr_occ *o) {
  o->accessed = 1;
  if (o->skip) return;
  switch (o->in.form) {
  case TT_FORM_WRCFG:
    if (o->in.a.WRCFG.is_128bit) sr_cfg_store(s, o->bank, o->in.a.WRCFG.cfg_index & ~3u, o->vals, 4);
    else sr_cfg_store(s, o->bank, o->in.a.WRCFG.cfg_index, o->vals, 1);
    break;
  case TT_FORM_CFGSHIFTMASK: sr_cfgshiftmask_bank(s, o->thread, o->bank, &o->in.a.CFGSHIFTMASK); break;
  case TT_FORM_STREAMWRCFG: sr_cfg_store(s, o->bank, o->in.a.STREAMWRCFG.cfg_index, o->vals, 1); break;
  default: break;
  }
}

static int deferred(const tt_insn *in) {   /* its Config access happens on reaching stage 0 */
  return in->form == TT_FORM_WRCFG || in->form == TT_FORM_CFGSHIFTMASK || in->form == TT_FORM_STREAMWRCFG;
}

static void pipeline_events(sr_state *s, uint32_t upto) {
  sr_cyc *c = &s->cyc;
  for (;;) {   /* overlay reads and Config accesses, in the order they happen */
    sr_occ *best = NULL;
    for (unsigned i = 0; i < SR_OCC_MAX; i++) {
      sr_occ *o = &c->occ[i];
      if (!o->used || o->accessed || !deferred(&o->in)) continue;
      if (o->in.form == TT_FORM_STREAMWRCFG && !o->overlay_read && o->at[1] <= upto) {
        o->overlay_read = 1;   /* stage -3: the overlay register read */
        o->vals[0] = sr_stream_reg(o->vals[1], o->in.a.STREAMWRCFG.reg_index);
      }
      if (o->at[o->nst - 1] <= upto && (!best || o->at[o->nst - 1] < best->at[best->nst - 1])) best = o;
    }
    if (!best) break;
    access(s, best);
  }
  for (unsigned i = 0; i < SR_OCC_MAX; i++) {
    sr_occ *o = &c->occ[i];
    if (o->used && o->at[o->nst] <= upto) {
      c->pipe_left = umax(c->pipe_left, o->at[o->nst]);
      if (o->in.form != TT_FORM_RDCFG) c->pipe_left_other = umax(c->pipe_left_other, o->at[o->nst]);
      o->used = 0;
    }
  }
}

static void advance(sr_state *s, uint32_t upto) {
  sr_cyc *c = &s->cyc;
  land(s, upto);
  pipeline_events(s, upto);
  for (unsigned b = 0; b < 2; b++)
    if (c->src_flip_at[b] && c->src_flip_at[b] <= upto) {
      c->src_owner[b] = c->src_flip_to[b];
      c->src_flip_at[b] = 0;
    }
}

/* ---- when may a thread's head issue ------------------------------------------------------------ */
static int head(const sr_state *s, unsigned t, tt_insn *in) {
  if (s->pc[t] >= s->len[t] || s->cyc.spin[t]) return 0;
  sr_decode(s, s->prog[t][s->pc[t]], in);
  return 1;
}

static uint32_t earliest(const sr_state *s, unsigned t, const tt_insn *in, uint32_t now,
                         uint32_t lclear) {
  const sr_cyc *c = &s->cyc;
  int thcon = sr_is_thcon(in);
  uint32_t x = umax(now, thcon ? c->free_thcon[t] : c->free_any[t]);
  if ((thcon && c->thcon_owner != 1 + t) || KN(s, THCON_SCOPE) == 1) x = umax(x, c->thcon_free);
  if (x == NEVER) return NEVER;
  if (sr_catches(s, t, in)) {
    if (lclear == NEVER) return NEVER;
    x = umax(x, lclear + (KN(s, WAIT_LAG) == 0));
  }
  if (sr_is_mutex_op(in)) {
    uint32_t i = sr_mutex_of(in);
    if (!sr_valid_mutex(s, i)) return NEVER;
    if (in->form == TT_FORM_ATGETM &&
        ((s->mutex[i] && s->mutex[i] != 1 + t) ||
         (!s->mutex[i] && s->reserved_for[i] && s->reserved_for[i] != 1 + t)))
      return NEVER;
  }
  if (KN(s, MATRIX_INTERVAL) != 0 && sr_reads_src(in)) x = umax(x, c->matrix_next);   /* AMB-43 */
  if (in->form == TT_FORM_REG2FLOP && KN(s, REG2FLOP) == 1)   /* wh_config: a Config writer */
    while (sr_pipe_busy(s, x)) x++;
  if (in->form == TT_FORM_REG2FLOP && KN(s, REG2FLOP) == 2) {
    /* wh_config_entry (AMB-51): may enter where a stage-0 writer (RMWCIB) may; no occupant */
    static const tt_insn w = {.form = TT_FORM_RMWCIB0};
    sr_occ o;
    memset(&o, 0, sizeof o);
    sr_path_of(s, &w, &o);
    uint32_t h = umax(sr_pipe_end(s), x);
    while (x < h && !sr_may_enter(s, &o, x)) x++;
  }
  if (sr_is_cfg_pipe(in)) {
    sr_occ o;
    memset(&o, 0, sizeof o);
    sr_path_of(s, in, &o);
    uint32_t h = umax(sr_pipe_end(s), x);
    while (x < h && !sr_may_enter(s, &o, x)) x++;
  }
  return x;
}

static unsigned resource(const sr_state *s, const tt_insn *in) {
  if (sr_is_thcon(in)) return R_THCON;
  if (sr_is_sync_slot(in)) return R_SYNC;
  if (sr_is_mutex_op(in)) return R_MUTEX + (sr_mutex_of(in) & 7u);
  if (sr_is_cfg_pipe(in)) {
    int s0 = in->form == TT_FORM_STREAMWRCFG ? -4
             : (in->form == TT_FORM_WRCFG || in->form == TT_FORM_CFGSHIFTMASK) ? -1 : 0;
    return (unsigned)(R_CFG + s0 + 4);
  }
  unsigned u = sr_unit_of(in);
  /* outside_slot=none (AMB-47): threads never contend for a unit outside the model */
  return u == SR_U_NONE || KN(s, OUTSIDE_SLOT) == 1 ? R_NONE : R_UNIT + u;
}

/* ---- issuing ------------------------------------------------------------------------------------- */
static void hazard(sr_state *s, unsigned kind, unsigned t, unsigned gpr) {
  sr_cyc *c = &s->cyc;
  if (c->nhaz < SR_HAZ_MAX) {
    c->haz[c->nhaz].kind = (uint8_t)kind;
    c->haz[c->nhaz].thread = (uint8_t)t;
    c->haz[c->nhaz].gpr = (uint8_t)gpr;
    c->haz[c->nhaz].index = s->pc[t];
  }
  c->nhaz++;
}

/* Is u waiting for mutex i in cycle n (head ATGETM i, not held by its latch or own ThCon)? */
static int waits_for(const sr_state *s, unsigned u, uint32_t i, uint32_t n) {
  tt_insn in;
  if (!head(s, u, &in) || in.form != TT_FORM_ATGETM || in.a.ATGETM.mutex_index != i) return 0;
  return !sr_catches(s, u, &in) && s->cyc.free_any[u] <= n;
}

static void enter_pipeline(sr_state *s, unsigned t, const tt_insn *in, uint32_t n) {
  sr_cyc *c = &s->cyc;
  sr_occ *o = NULL;
  for (unsigned i = 0; i < SR_OCC_MAX && !o; i++)
    if (!c->occ[i].used) o = &c->occ[i];
  if (!o) return;   /* cannot happen: at most six occupants */
  memset(o, 0, sizeof *o);
  sr_path_of(s, in, o);
  o->used = 1;
  o->thread = (uint8_t)t;
  o->pc = s->pc[t];
  o->in = *in;
  o->bank = (uint8_t)sr_bank(s, t);
  o->at[0] = n;
  for (unsigned i = 1; i <= o->nst; i++) o->at[i] = o->at[i - 1] + o->dur[i - 1];
  const uint32_t *g = s->gpr[t];
  switch (in->form) {
  case TT_FORM_WRCFG: {
    const tt_args_WRCFG *a = &in->a.WRCFG;
    if (a->is_128bit) {
      if ((a->cfg_index & ~3u) + 4 > SR_CFG_WORDS) { sr_cfg_index_ok(s, t, a->cfg_index & ~3u); o->skip = 1; }
      for (unsigned k = 0; k < 4; k++) o->vals[k] = g[(a->input_reg & ~3u) + k];
    } else {
      o->skip = !sr_cfg_index_ok(s, t, a->cfg_index);
      o->vals[0] = g[a->input_reg];
    }
    break;
  }
  case TT_FORM_CFGSHIFTMASK: o->skip = !sr_cfg_index_ok(s, t, in->a.CFGSHIFTMASK.cfg_index); break;
  case TT_FORM_STREAMWRCFG:
    o->skip = !sr_cfg_index_ok(s, t, in->a.STREAMWRCFG.cfg_index);
    o->vals[1] = s->tcfg[t][59 + in->a.STREAMWRCFG.stream_select] & 0x3Fu;
    break;
  default:   /* RMWCIB, RDCFG: their access is now, at entry into stage 0 */
    o->accessed = 1;
    sr_execute(s, t, in);
    break;
  }
  sr_replan(s, n);
}

/* ThCon and thread t held by an instruction issued (or retried successfully) at n for k cycles. */
static void occupy(sr_state *s, unsigned t, uint32_t n, unsigned k) {
  sr_cyc *c = &s->cyc;
  uint32_t end = n + k, early = end - 1 > n ? end - 1 : n + 1;
  int overlap = KN(s, THCON_HANDOVER) != 0;
  c->thcon_owner = (uint8_t)(1 + t);
  /* overlap: ThCon is free again at c+K-1; overlap_busy (AMB-49): handed over then, but busy
   * for the run's end until c+K */
  c->thcon_end = KN(s, THCON_HANDOVER) == 1 ? early : end;
  c->thcon_free = overlap ? early : end;
  c->free_thcon[t] = overlap ? early : end;
  c->free_any[t] = overlap || KN(s, THCON_RELEASE) == 1 ? early : end;
}

/* A failing ATCAS/ATINCGETPTR keeps ThCon and its thread and tries again every 15 cycles. Only
 * its own thread's GPRs can change meanwhile (no other ThCon instruction can write L1), so with
 * no write-back of that thread in flight it spins for good. */
static void spin(sr_state *s, unsigned t, const tt_insn *in, uint32_t n) {
  sr_cyc *c = &s->cyc;
  int pending = 0;
  for (unsigned i = 0; i < c->nwb; i++) pending |= c->wb[i].thread == t;
  c->spin[t] = 1;
  c->spin_in = *in;
  c->spin_next = pending ? n + 15 : NEVER;
  c->thcon_owner = (uint8_t)(1 + t);
  c->thcon_free = c->thcon_end = NEVER;
}

/* The retry of the spinning atomic of thread t in cycle x (before that cycle's issues). */
static void retry(sr_state *s, unsigned t, uint32_t x) {
  sr_cyc *c = &s->cyc;
  tt_insn in = c->spin_in;
  c->now = x;
  if (!sr_execute(s, t, &in)) { spin(s, t, &in, x); return; }
  c->spin[t] = 0;
  occupy(s, t, x, 15);
  s->pc[t]++;
  c->last_issue_end = umax(c->last_issue_end, x + 1);
}

/* A ThCon instruction issuing at n: 0 when it is an atomic whose first attempt failed. */
static int issue_thcon(sr_state *s, unsigned t, const tt_insn *in, uint32_t n) {
  sr_cyc *c = &s->cyc;
  /* flushdma=stallwait_b5: it latched (sr_execute) and holds ThCon and its thread 1 cycle, as
   * STALLWAIT takes one; stallwait_b5_2cy (AMB-50): ScalarUnit.md's 2 */
  unsigned k = in->form == TT_FORM_FLUSHDMA && KN(s, FLUSHDMA) == 1 ? 1 : sr_occupancy(in);
  if (in->form == TT_FORM_FLUSHDMA && KN(s, FLUSHDMA) == 0) {
    sr_execute(s, t, in);
    uint16_t m = (uint16_t)in->a.FLUSHDMA.condition_mask;
    c->flush = 1;
    c->flush_t = (uint8_t)t;
    c->flush_issue = n;
    c->flush_cond = m ? m : 0x00Fu;
    c->flush_min = n + 2 - (KN(s, THCON_HANDOVER) != 0);   /* overlap: a cycle early */
    c->thcon_owner = (uint8_t)(1 + t);
    c->thcon_free = c->free_any[t] = c->free_thcon[t] = NEVER;   /* until released */
  } else if (!sr_execute(s, t, in)) {
    spin(s, t, in, n);
    c->issue[t][s->pc[t]] = n;   /* its first attempt; it retires when one succeeds */
    return 0;
  } else {
    occupy(s, t, n, k);
    if (KN(s, C0_STORES) != 0 &&
        (in->form == TT_FORM_STOREIND_L1 || in->form == TT_FORM_STOREIND_MMIO ||
         in->form == TT_FORM_STOREIND_SRC || in->form == TT_FORM_STOREREG || in->form == TT_FORM_ATSWAP)) {
      static const uint8_t lat_load[] = {7, 3, 5, 12, 24};
      c->store_until[t] = umax(c->store_until[t], n + lat_load[KN(s, LOAD_LATENCY) % 5]);
    }
  }
  return 1;
}

/* thcon_read=next_cycle (AMB-44): a ThCon instruction issued at n reads its GPR operands at
 * n+1, so a write-back of one of them due at n+1 is read (it is landed now: nothing else of
 * this thread writes that GPR in between) and is no hazard. */
static void read_late(sr_state *s, unsigned t, const tt_insn *in, uint32_t n) {
  sr_cyc *c = &s->cyc;
  uint64_t rd = sr_gpr_reads(in);
  int any = 0;
  for (unsigned i = 0; i < c->nwb; i++)
    if (c->wb[i].thread == t && c->wb[i].due == n + 1 && (rd & bit(c->wb[i].reg))) {
      c->wb[i].due = n;
      any = 1;
    }
  if (any) land(s, n);
}

static void issue(sr_state *s, unsigned t, const tt_insn *in, uint32_t n) {
  sr_cyc *c = &s->cyc;
  if (KN(s, THCON_READ) == 1 && sr_is_thcon(in)) read_late(s, t, in, n);
  /* hazards, on the state at the start of cycle n */
  uint64_t use = sr_gpr_use(in);
  unsigned low = 64;   /* the lowest GPR it uses that has a write-back still to land */
  for (unsigned i = 0; i < c->nwb; i++)
    if (c->wb[i].thread == t && c->wb[i].due > n && (use & bit(c->wb[i].reg)) && c->wb[i].reg < low)
      low = c->wb[i].reg;
  if (low < 64) hazard(s, TT_HAZ_GPR_PENDING, t, low);
  if (sr_reads_config(in) && c->cfgw_next[t] && c->cfgw_next[t] == n) hazard(s, TT_HAZ_CFG_GAP, t, 0);
  if (sr_is_cfg_pipe(in))
    for (unsigned i = 0; i < SR_OCC_MAX; i++)
      if (c->occ[i].used && c->occ[i].thread == t && c->occ[i].in.form == TT_FORM_STREAMWRCFG &&
          sr_stage_at(&c->occ[i], n) == -4) {
        hazard(s, TT_HAZ_STREAMWRCFG_ORDER, t, 0);
        break;
      }
  uint8_t had_latch = s->latch[t].op;
  c->free_any[t] = umax(c->free_any[t], n + 1);
  c->free_thcon[t] = umax(c->free_thcon[t], n + 1);
  if (sr_is_cfg_pipe(in)) {
    /* (RMWCIB and RDCFG go through sr_execute, which records it itself) */
    if (deferred(in) && sr_reserved(s, in) && KN(s, RESERVED_BITS) == 0) sr_fault(s, t, TT_FC_RESERVED_BITS);
    enter_pipeline(s, t, in, n);
    if (in->form != TT_FORM_RDCFG && in->form != TT_FORM_STREAMWRCFG) c->cfgw_next[t] = n + 1;
  } else if (in->form == TT_FORM_ATRELM) {
    uint32_t i = in->a.ATRELM.mutex_index;
    if (sr_reserved(s, in) && KN(s, RESERVED_BITS) == 0) sr_fault(s, t, TT_FC_RESERVED_BITS);
    if (s->mutex[i] == 1 + t) {
      unsigned n1 = (t + 1) % SR_THREADS, n2 = (t + 2) % SR_THREADS;
      s->mutex[i] = 0;
      if (waits_for(s, n1, i, n) && waits_for(s, n2, i, n)) s->reserved_for[i] = (uint8_t)(1 + n1);
    }
  } else if (sr_is_thcon(in)) {
    if (!issue_thcon(s, t, in, n)) return;   /* a failing atomic: not retired yet */
  } else {
    sr_execute(s, t, in);
    if (KN(s, MATRIX_INTERVAL) != 0 && sr_reads_src(in)) {
      /* matrix_interval=N (AMB-43): the matrix unit takes the next Src reader N cycles later,
       * from any thread (it does not keep `cycles` from ending) */
      static const uint8_t every[] = {1, 6, 2, 3, 4, 8};
      c->matrix_next = n + every[KN(s, MATRIX_INTERVAL) % 6];
    }
    unsigned u = sr_unit_of(in);
    /* a unit's own NOP (SFPNOP.md, UNPACR_NOP_Nop.md: "occupying [its unit] for one cycle")
     * holds its unit in its issue cycle only, the slot of resource(): no stub time, no Src */
    if (u != SR_U_NONE && sr_reads_config(in)) {
      static const uint8_t stub[] = {4, 1, 2, 8, 16};
      uint32_t done = n + stub[KN(s, STUB_CYCLES) % 5];
      c->stub_until[u][t] = umax(c->stub_until[u][t], done);
      if (u == SR_U_UNPACK0 || u == SR_U_UNPACK1) {
        c->src_flip_at[u - SR_U_UNPACK0] = done;   /* UNPACR: its bank to the matrix unit */
        c->src_flip_to[u - SR_U_UNPACK0] = 1;
      } else if (u == SR_U_FPU) {
        for (unsigned b = 0; b < 2; b++) { c->src_flip_at[b] = done; c->src_flip_to[b] = 0; }
      }
    }
    if (in->form == TT_FORM_SETC16) c->setc16_next = n + 1;
  }
  if (s->latch[t].op != TT_LATCH_NONE && (!had_latch || sr_writes_latch(in))) c->latch_from[t] = n + 1;
  c->issue[t][s->pc[t]] = n;
  s->pc[t]++;
  c->last_issue_end = n + 1;
}

/* Winner among the threads in `want` (bit t) for resource r. */
static unsigned arbitrate(sr_state *s, unsigned r, unsigned want) {
  sr_cyc *c = &s->cyc;
  unsigned start = KN(s, ARBITRATION) == 1 ? 0 : c->rr[r] % SR_THREADS;
  for (unsigned k = 0; k < SR_THREADS; k++) {
    unsigned t = (start + k) % SR_THREADS;
    if ((want >> t) & 1u) { c->rr[r] = (uint8_t)(1 + t); return t; }
  }
  return 0;
}

/* ---- the run ---------------------------------------------------------------------------------------- */
static int all_done(const sr_state *s) {
  for (unsigned t = 0; t < SR_THREADS; t++)
    if (s->pc[t] < s->len[t]) return 0;
  return 1;
}

static void forget_latches(sr_state *s, const uint32_t *lc, uint32_t upto) {
  for (unsigned t = 0; t < SR_THREADS; t++)
    if (lc[t] != NEVER && lc[t] <= upto) memset(&s->latch[t], 0, sizeof s->latch[t]);
}

static uint32_t idle_at(const sr_state *s) {
  const sr_cyc *c = &s->cyc;
  uint32_t x = umax(c->last_issue_end, umax(c->thcon_end, sr_pipe_end(s)));
  for (unsigned i = 0; i < c->nwb; i++) x = umax(x, c->wb[i].due);
  for (unsigned t = 0; t < SR_THREADS; t++) {
    /* c0_stores=yes: a store in flight until it lands; c0_only (AMB-48): not at all */
    if (KN(s, C0_STORES) == 1) x = umax(x, c->store_until[t]);
    for (unsigned u = 0; u < SR_STUBS; u++) x = umax(x, c->stub_until[u][t]);
  }
  return x;
}

/* The timed events of the cycles up to `upto` (the last simulated one), nothing issuing. */
static void finish(sr_state *s, const uint32_t *lc, uint32_t upto, uint32_t land_upto) {
  if (s->cyc.flush && s->cyc.thcon_free <= upto) s->cyc.flush = 0;
  advance(s, land_upto);
  forget_latches(s, lc, upto);
}

/* FLUSHDMA (isa): released at the first cycle >= c+2 its conditions allow. */
static void flush_release(sr_state *s, uint32_t now) {
  sr_cyc *c = &s->cyc;
  unsigned ft = c->flush_t;
  /* flushdma_release=next_cycle (AMB-46): one that had to wait (its conditions held at c+2) is
   * released a cycle after they are found clear, as a latch is forgotten */
  if (now <= c->flush_min)
    c->flush_late = KN(s, FLUSHDMA_RELEASE) == 1 && clear_from(s, ft, c->flush_cond, c->flush_min) > c->flush_min;
  uint32_t from = now > c->flush_late ? now - c->flush_late : 0;   /* (r itself while r+1 is now) */
  uint32_t r = clear_from(s, ft, c->flush_cond, umax(c->flush_min, from));
  uint32_t rel = r + c->flush_late;
  c->thcon_free = c->free_thcon[ft] = c->thcon_end = rel;
  if (KN(s, THCON_HANDOVER) == 2) c->thcon_end = umax(rel, c->flush_issue + 2);   /* AMB-49 */
  if (KN(s, THCON_RELEASE) == 1 && KN(s, THCON_HANDOVER) == 0) {
    /* silicon: its minimum occupancy a cycle shorter, not its hold (under overlap the
     * occupancy already ends at c+N-1: the readings name the same cycle) */
    uint32_t lo = c->flush_min - 1 > c->flush_issue ? c->flush_min - 1 : c->flush_issue + 1;
    c->free_any[ft] = clear_from(s, ft, c->flush_cond, umax(lo, now));
  } else {
    c->free_any[ft] = rel;
  }
}

/* The run ends (every thread done; nothing can issue again; the budget): its outcome. */
static unsigned end_run(sr_state *s, const uint32_t *lc, uint32_t n, uint32_t b) {
  sr_cyc *c = &s->cyc;
  if (all_done(s)) {   /* the run ends when every unit is idle too */
    c->cycles = idle_at(s);
    uint32_t upto = c->cycles < b ? c->cycles - 1 : b - 1;
    /* the write-backs due in the last cycle land before its all-idle test */
    finish(s, lc, upto, c->cycles < b ? c->cycles : upto);
    if (c->cycles < b) return TT_OUT_DONE;
    c->cycles = b;
    return TT_OUT_BUDGET;
  }
  if (n == NEVER) {
    finish(s, lc, NEVER - 1, NEVER - 1);
    c->cycles = idle_at(s);
    return TT_OUT_DEADLOCK;
  }
  finish(s, lc, b - 1, b - 1);
  c->cycles = b;
  return TT_OUT_BUDGET;
}

/* Cycle n: the heads whose earliest cycle is n compete per resource; the winners issue. */
static void issue_cycle(sr_state *s, const tt_insn *in, const uint32_t *e, const uint32_t *lc,
                        uint32_t n) {
  sr_cyc *c = &s->cyc;
  unsigned want[32] = {0}, win = 0;
  for (unsigned t = 0; t < SR_THREADS; t++)
    if (e[t] == n) want[resource(s, &in[t])] |= 1u << t;
  for (unsigned r = 0; r < 32; r++) {
    if (!want[r]) continue;
    if (r == R_NONE) win |= want[r];
    else win |= 1u << arbitrate(s, r, want[r]);
  }
  /* thcon_scope=all_threads: a ThCon instruction issuing holds every other thread already */
  if (KN(s, THCON_SCOPE) == 1 && (want[R_THCON] & win))
    for (unsigned t = 0; t < SR_THREADS; t++)
      if (((win >> t) & 1u) && !sr_is_thcon(&in[t]) && !((want[R_THCON] & win) >> t & 1u))
        win &= ~(1u << t);
  c->now = n;
  uint8_t wrote[SR_THREADS];
  for (unsigned t = 0; t < SR_THREADS; t++) {
    uint8_t op = s->latch[t].op;
    wrote[t] = 0;
    if ((win >> t) & 1u) {
      issue(s, t, &in[t], n);
      wrote[t] = s->latch[t].op != op || (sr_writes_latch(&in[t]) && s->latch[t].op);
    }
  }
  if (KN(s, WAIT_LAG) == 0)   /* latches found satisfied in cycle n go at its end */
    for (unsigned t = 0; t < SR_THREADS; t++)
      if (lc[t] == n && !wrote[t]) memset(&s->latch[t], 0, sizeof s->latch[t]);
}

/* sync_visibility=same_cycle (AMB-41; digest 5.2, 5.6(5) name the next-cycle default): in the
 * decision at n the threads are taken in the order T0, T1, T2, and each one's latch and
 * earliest cycle are worked out again on the state the threads before it left in cycle n (a
 * post, a release, a latch, a pipeline entry, ThCon taken). It issues at n if that is n and no
 * thread before it took its shared resource in n: first come, first served, no round-robin.
 * A mutex is no such slot: its changes are among those the row makes visible (its question
 * names mutex changes), so operations on one mutex in n go through its state in that order.
 * A latch found satisfied goes at the end of n (wait_lag=none: before its own issue). */
static void issue_in_order(sr_state *s, uint32_t *lc, uint32_t n) {
  unsigned taken = 0, forget = 0;
  s->cyc.now = n;
  for (unsigned t = 0; t < SR_THREADS; t++) {
    tt_insn in;
    lc[t] = latch_clear(s, t, n);   /* (a thread with nothing left to issue too) */
    if (KN(s, WAIT_LAG) == 1 && lc[t] == n) memset(&s->latch[t], 0, sizeof s->latch[t]);
    int h = head(s, t, &in);
    unsigned r = h ? resource(s, &in) : R_NONE;
    uint8_t op = s->latch[t].op;
    int wrote = 0;
    if (r >= R_MUTEX && r < R_UNIT) r = R_NONE;   /* not claimed */
    if (h && earliest(s, t, &in, n, lc[t]) == n && !((taken >> r) & 1u)) {
      taken |= r == R_NONE ? 0u : 1u << r;
      issue(s, t, &in, n);
      wrote = s->latch[t].op != op || (sr_writes_latch(&in) && s->latch[t].op);
    }
    if (KN(s, WAIT_LAG) == 0 && lc[t] == n && !wrote) forget |= 1u << t;
  }
  for (unsigned t = 0; t < SR_THREADS; t++)
    if ((forget >> t) & 1u) memset(&s->latch[t], 0, sizeof s->latch[t]);
}

unsigned sr_cycle_run(sr_state *s, uint64_t budget) {
  sr_cyc *c = &s->cyc;
  uint32_t b = budget > 0x7FFFFFFFu ? 0x7FFFFFFFu : (uint32_t)budget;
  c->on = 1;
  for (;;) {
    uint32_t now = c->now, lc[SR_THREADS], e[SR_THREADS], n = NEVER;
    tt_insn in[SR_THREADS];
    int retried = 0;
    if (c->flush) flush_release(s, now);
    for (unsigned t = 0; t < SR_THREADS; t++) {
      lc[t] = latch_clear(s, t, now);
      e[t] = head(s, t, &in[t]) ? earliest(s, t, &in[t], now, lc[t]) : NEVER;
      if (e[t] < n) n = e[t];
    }
    for (unsigned t = 0; t < SR_THREADS && !retried; t++)   /* a spinning atomic's retry first */
      if (c->spin[t] && c->spin_next != NEVER && c->spin_next <= n && c->spin_next < b) {
        uint32_t x = c->spin_next;
        advance(s, x);
        forget_latches(s, lc, x - 1);
        retry(s, t, x);
        c->now = x;
        retried = 1;
      }
    if (retried) continue;
    if (all_done(s) || n == NEVER || n >= b) return end_run(s, lc, n, b);
    /* the timed events before the issues of cycle n */
    if (c->flush && c->thcon_free <= n) c->flush = 0;
    advance(s, n);
    /* under same_cycle a latch that clears in cycle n itself is judged in thread order, on the
     * state the threads before it leave (issue_in_order), not on the state at the decision */
    forget_latches(s, lc, KN(s, WAIT_LAG) == 1 && KN(s, SYNC_VISIBILITY) != 1 ? n : n - 1);
    if (KN(s, SYNC_VISIBILITY) == 1) issue_in_order(s, lc, n);
    else issue_cycle(s, in, e, lc, n);
    c->now = n + 1;
  }
}
