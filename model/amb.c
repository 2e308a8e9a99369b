/* amb.c — the ambiguity registry (ambiguities.def) as read-only tables. */
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

int tt_knob_value_index(unsigned knob, const char *value) {
  const char *v = tt_knob_values(knob);
  size_t len = strlen(value);
  for (int idx = 0; idx < 16 && *v; idx++) {  /* at most 16 values per knob */
    const char *bar = strchr(v, '|');
    size_t n = bar ? (size_t)(bar - v) : strlen(v);
    if (n == len && memcmp(v, value, n) == 0) return idx;
    if (!bar) break;
    v = bar + 1;
  }
  return -1;
}

int tt_knob_by_name(const char *name) {
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    if (strcmp(tt_knob_name(k), name) == 0) return (int)k;
  return -1;
}

unsigned tt_knob_value_count(unsigned knob) {
  const char *v = tt_knob_values(knob);
  unsigned n = 1;
  for (unsigned i = 0; i < 256 && v[i]; i++) n += v[i] == '|';  /* values strings are short */
  return n;
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
