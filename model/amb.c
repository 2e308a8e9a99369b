/* amb.c — the ambiguity registry (ambiguities.def) as read-only tables. It reads the knob names
 * and values from the state (state.c); nothing below it reads the registry. */
#include <string.h>
#include "internal.h"

#define TT_AMB(n, slug, modes, q, def, models, unobs) {n, slug, modes, q, def, models, unobs},
#define TT_AMB_READING(n, knob, value, pages, text)
static const tt_amb amb_rows[] = {
#include "ambiguities.def"
};
#undef TT_AMB
#undef TT_AMB_READING

#define TT_AMB(n, slug, modes, q, def, models, unobs)
#define TT_AMB_READING(n, knob, value, pages, text) {n, knob, value, pages, text},
static const tt_amb_reading reading_rows[] = {
#include "ambiguities.def"
};
#undef TT_AMB
#undef TT_AMB_READING

unsigned tt_amb_count(void) { return (unsigned)(sizeof amb_rows / sizeof amb_rows[0]); }
const tt_amb *tt_amb_get(unsigned i) { return i < tt_amb_count() ? &amb_rows[i] : NULL; }
unsigned tt_amb_reading_count(void) { return (unsigned)(sizeof reading_rows / sizeof reading_rows[0]); }
const tt_amb_reading *tt_amb_reading_get(unsigned i) {
  return i < tt_amb_reading_count() ? &reading_rows[i] : NULL;
}

const tt_amb *tt_amb_by_id(unsigned id) {
  for (unsigned i = 0; i < tt_amb_count(); i++)
    if (amb_rows[i].id == id) return &amb_rows[i];
  return NULL;
}

const tt_amb_reading *tt_amb_reading_of(unsigned knob, unsigned value) {
  const char *name = tt_knob_name(knob);
  for (unsigned i = 0; i < tt_amb_reading_count(); i++) {
    const tt_amb_reading *r = &reading_rows[i];
    /* a default value may be listed under several ambiguities: the first row */
    if (strcmp(r->knob, name) == 0 && tt_knob_value_index(knob, r->value) == (int)value) return r;
  }
  return NULL;
}
