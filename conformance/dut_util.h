/* dut_util.h — small helpers for writing an implementation under test in C (ttdut.h): not part
 * of the interface, just shared by the adapters in this repository. */
#ifndef TT_DUT_UTIL_H
#define TT_DUT_UTIL_H
#include "ttdut.h"

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
#endif
