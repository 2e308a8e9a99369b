/* dut_util.h — small helpers for writing an implementation under test in C (ttdut.h): not part
 * of the interface, just shared by the adapters in this repository. */
#ifndef TT_DUT_UTIL_H
#define TT_DUT_UTIL_H
#include <stdio.h>
#include <string.h>
#include "ttdut.h"
#include "tt.h"

/* ttdut.h numbers locations, fault classes and outcomes as the vector format does; so does
 * tt.h, which the adapters built on the model's tables rely on. */
#define TTDUT_SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(TTDUT_SAME(TTDUT_LOC_GPR, TT_LOC_GPR) && TTDUT_SAME(TTDUT_LOC_MMIO, TT_LOC_MMIO) &&
               TTDUT_SAME(TTDUT_LOC_HOST_U32, TT_LOC_HOST_U32) &&
               TTDUT_SAME(TTDUT_LOC_CTX_RESETS, TT_LOC_CTX_RESETS),
               "ttdut.h location kinds follow tt_loc_kind");
_Static_assert(TTDUT_SAME(TTDUT_FAULT_UNIMPLEMENTED, TT_FAULT_UNIMPLEMENTED), "fault classes follow tt.h");
_Static_assert(TTDUT_SAME(TTDUT_OUT_BUDGET, TT_OUT_BUDGET), "outcomes follow tt.h");

/* The output of changed(): the first `max` entries are kept, every entry is counted. */
typedef struct ttdut_changes {
  ttdut_loc *loc;
  uint32_t *before, *after, max, n;
} ttdut_changes;

static inline void ttdut_changes_add(ttdut_changes *c, uint32_t kind, uint32_t sel,
                                     uint32_t index, uint32_t before, uint32_t after) {
  if (c->n < c->max) {
    c->loc[c->n].kind = kind;
    c->loc[c->n].sel = sel;
    c->loc[c->n].index = index;
    c->before[c->n] = before;
    c->after[c->n] = after;
  }
  c->n++;
}

/* One knob of reset() for an adapter built on the model's knob table (tt_state): the trace
 * switch and profile isa are skipped (1), a knob is set (0), anything else refused (-1, the
 * reason in why; `who` names the implementation in it). */
static inline int ttdut_knob_apply(tt_state *st, const ttdut_knob *k, const char *who, char *why,
                                   size_t n) {
  if (strcmp(k->name, TTDUT_KNOB_TRACE) == 0) return 1;
  if (strcmp(k->name, "profile") == 0) {
    if (strcmp(k->value, "isa") == 0) return 1;
    snprintf(why, n, "%s has no profile %s", who, k->value);
    return -1;
  }
  int r = tt_knob_set(st, k->name, k->value);
  if (r == 0) return 0;
  snprintf(why, n, "%s %s", r == -1 ? "unknown knob" : "unknown value for knob", k->name);
  return -1;
}
#endif
