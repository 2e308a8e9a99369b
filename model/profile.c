/* profile.c — the profiles of profiles.def: named sets of knob values, applied through the
 * knob table (state.c). Allocation-free; every loop is bounded by a table or a string. */
#include <string.h>
#include "internal.h"

typedef struct profile_row { const char *name, *text, *settings; } profile_row;
#define TT_PROFILE(id, name, text, settings) {name, text, settings},
static const profile_row profile_rows[] = {
#include "profiles.def"
};
#undef TT_PROFILE

unsigned tt_profile_count(void) { return (unsigned)(sizeof profile_rows / sizeof profile_rows[0]); }
const char *tt_profile_name(unsigned p) { return p < tt_profile_count() ? profile_rows[p].name : "?"; }
const char *tt_profile_text(unsigned p) { return p < tt_profile_count() ? profile_rows[p].text : "?"; }
const char *tt_profile_settings(unsigned p) {
  return p < tt_profile_count() ? profile_rows[p].settings : "";
}

int tt_profile_by_name(const char *name) {
  for (unsigned p = 0; p < tt_profile_count(); p++)
    if (strcmp(profile_rows[p].name, name) == 0) return (int)p;
  return -1;
}

/* The value index the settings string gives knob k, 0 when it names none (-1: malformed). */
static int setting_of(const char *s, unsigned k) {
  const char *name = tt_knob_name(k);
  size_t nl = strlen(name);
  while (*s) {  /* bounded: advances through the string */
    while (*s == ' ') s++;
    const char *e = s;
    while (*e && *e != ' ') e++;
    const char *eq = memchr(s, '=', (size_t)(e - s));
    if (eq && (size_t)(eq - s) == nl && memcmp(s, name, nl) == 0) {
      char v[32];
      size_t vl = (size_t)(e - eq - 1);
      if (vl >= sizeof v) return -1;
      memcpy(v, eq + 1, vl);
      v[vl] = 0;
      return tt_knob_value_index(k, v);
    }
    s = e;
  }
  return 0;
}

unsigned tt_profile_knob(unsigned p, unsigned k) {
  if (p >= tt_profile_count() || k >= TT_KNOB_COUNT) return 0;
  int v = setting_of(profile_rows[p].settings, k);
  return v > 0 ? (unsigned)v : 0u;
}

/* Every "name=value" of the settings names a knob and one of its values. */
static int settings_valid(const char *s) {
  while (*s) {  /* bounded: advances through the string */
    while (*s == ' ') s++;
    if (!*s) break;
    const char *e = s;
    while (*e && *e != ' ') e++;
    const char *eq = memchr(s, '=', (size_t)(e - s));
    char name[32];
    if (!eq || (size_t)(eq - s) >= sizeof name) return 0;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    int k = tt_knob_by_name(name);
    if (k < 0 || setting_of(s, (unsigned)k) <= 0) return 0;
    s = e;
  }
  return 1;
}

int tt_profile_apply(tt_state *st, unsigned p) {
  if (p >= tt_profile_count() || !settings_valid(profile_rows[p].settings)) return -1;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) {
    int v = setting_of(profile_rows[p].settings, k);
    if (v < 0) return -1;
    st->p.knob[k] = (uint8_t)v;
  }
  return 0;
}
