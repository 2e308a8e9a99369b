/* spec_ref_pipe.c — the reference's Config pipeline in cycle mode (spec_ref_cycle.c uses it):
 * each occupant carries its whole planned trajectory through stages -4..+1, written from the
 * digest §5.4 (stage table, entry rules with bugs 1 and 2, stall in place) and the knob
 * cfg_stall (AMB-23), separately from model/config.c. */
#include <string.h>
#include "spec_ref.h"

#define KN(s, K) ((s)->knob[TT_KNOB_##K])

static uint32_t umax(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* ---- the Config pipeline: occupants with planned trajectories ------------------------------ */
void sr_path_of(const sr_state *s, const tt_insn *in, sr_occ *o) {
  static const int8_t sw[] = {-4, -3, -2, -1, 0}, wr[] = {-1, 0}, rd[] = {0, 1}, rm[] = {0};
  const int8_t *p;
  unsigned n;
  switch (in->form) {
  case TT_FORM_STREAMWRCFG: p = sw; n = 5; break;
  case TT_FORM_WRCFG: case TT_FORM_CFGSHIFTMASK: p = wr; n = 2; break;
  case TT_FORM_RDCFG: p = rd; n = 2; break;
  default: p = rm; n = 1; break;
  }
  o->nst = (uint8_t)n;
  for (unsigned i = 0; i < n; i++) { o->st[i] = p[i]; o->dur[i] = 1; }
  if (in->form == TT_FORM_STREAMWRCFG) o->dur[0] = (uint8_t)(1 + KN(s, STREAMWRCFG_PREPARE));
  if (in->form == TT_FORM_CFGSHIFTMASK) o->dur[1] = 2;
}

int sr_stage_at(const sr_occ *o, uint32_t x) {   /* 99: not in the pipeline at x */
  if (!o->used || x < o->at[0] || x >= o->at[o->nst]) return 99;
  for (unsigned i = o->nst; i-- > 0;)
    if (x >= o->at[i]) return o->st[i];
  return 99;
}

int sr_occupied(const sr_state *s, int stage, uint32_t x) {
  for (unsigned i = 0; i < SR_OCC_MAX; i++)
    if (sr_stage_at(&s->cyc.occ[i], x) == stage) return 1;
  return 0;
}

int sr_pipe_busy(const sr_state *s, uint32_t x) {
  for (unsigned i = 0; i < SR_OCC_MAX; i++)
    if (sr_stage_at(&s->cyc.occ[i], x) != 99) return 1;
  return 0;
}

/* Occupied at some time during cycle y (y >= now - 1): occupants of y, or one that left at y+1. */
int sr_pipe_busy_during(const sr_state *s, uint32_t y) {
  return sr_pipe_busy(s, y) || s->cyc.pipe_left == y + 1;
}

uint32_t sr_pipe_end(const sr_state *s) {
  uint32_t e = 0;
  for (unsigned i = 0; i < SR_OCC_MAX; i++)
    if (s->cyc.occ[i].used) e = umax(e, s->cyc.occ[i].at[s->cyc.occ[i].nst]);
  return e;
}

/* Re-plan every trajectory after an entry at cycle x: occupants in position order (front
 * first); the part of a trajectory before x is history; each later stage is entered when the
 * time in the previous one is over and every occupant ahead has left that stage. */
void sr_replan(sr_state *s, uint32_t x) {
  sr_occ *ord[SR_OCC_MAX];
  unsigned n = 0;
  for (unsigned i = 0; i < SR_OCC_MAX; i++)
    if (s->cyc.occ[i].used) ord[n++] = &s->cyc.occ[i];
  for (unsigned i = 1; i < n; i++)   /* by stage at x, descending */
    for (unsigned j = i; j > 0 && sr_stage_at(ord[j], x) > sr_stage_at(ord[j - 1], x); j--) {
      sr_occ *tmp = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = tmp;
    }
  for (unsigned k = 0; k < n; k++) {
    sr_occ *o = ord[k];
    for (unsigned i = 1; i <= o->nst; i++) {
      if (o->at[i] <= x && o->at[i - 1] < x) continue;   /* already happened */
      uint32_t t = o->at[i - 1] + o->dur[i - 1];
      if (i < o->nst)
        for (unsigned a = 0; a < k; a++)
          for (unsigned j = 0; j < ord[a]->nst; j++)
            if (ord[a]->st[j] == o->st[i]) t = umax(t, ord[a]->at[j + 1]);
      o->at[i] = t;
    }
  }
}

/* May an instruction with trajectory template `o` enter at cycle x (nobody entering before)? */
int sr_may_enter(const sr_state *s, const sr_occ *o, uint32_t x) {
  int s0 = o->st[0];
  if (sr_occupied(s, s0, x)) return 0;
  for (int k = -3; k < s0; k++)
    if (sr_occupied(s, k, x)) return 0;
  if (KN(s, CFG_STALL) == 1)
    for (unsigned i = 1; i < o->nst; i++)
      if (sr_occupied(s, o->st[i], x)) return 0;
  return 1;
}
