/* test_amb.c — the ambiguity registry (model/ambiguities.def) is complete and consistent:
 * every digest ambiguity AMB-1..32 and the silicon ones AMB-33/34 have a row; ids are
 * 1..N without gaps; every reading names a real knob value; every value of every knob is
 * exactly one ambiguity's reading (value 0, the default, at least one); an ambiguity is
 * observable exactly when it has knob readings, and says why not otherwise; a few readings
 * behave as their rows say (one instruction stream per new knob, run through tt_knob_set). */
#include <string.h>
#include "check.h"
#include "tt.h"

static tt_state S;

static void test_rows(void) {
  unsigned n = tt_amb_count();
  CHECK(n >= 34, "only %u ambiguities", n);
  for (unsigned i = 0; i < n; i++) {
    const tt_amb *a = tt_amb_get(i);
    CHECK_EQ(a->id, i + 1);
    CHECK(tt_amb_by_id(a->id) == a, "AMB-%u lookup", a->id);
    CHECK(a->slug[0] && a->question[0] && a->why_default[0], "AMB-%u has empty text", a->id);
    int none = strcmp(a->modes, "none") == 0;
    CHECK(none || !strcmp(a->modes, "cycle") || !strcmp(a->modes, "func+cycle"),
          "AMB-%u modes '%s'", a->id, a->modes);
    unsigned knob_rows = 0, rows = 0;
    for (unsigned r = 0; r < tt_amb_reading_count(); r++) {
      const tt_amb_reading *rd = tt_amb_reading_get(r);
      if (rd->amb != a->id) continue;
      rows++;
      knob_rows += rd->knob[0] != 0;
      CHECK(rd->pages[0] && rd->text[0], "AMB-%u reading %s has no pages or text", a->id, rd->value);
    }
    CHECK(rows >= 2, "AMB-%u has %u readings", a->id, rows);
    CHECK(none ? knob_rows == 0 && a->unobservable[0] : knob_rows >= 2 && !a->unobservable[0],
          "AMB-%u: modes %s but %u knob readings, unobservable '%s'", a->id, a->modes, knob_rows,
          a->unobservable);
  }
  CHECK(tt_amb_by_id(0) == NULL && tt_amb_by_id(n + 1) == NULL, "lookup past the table");
}

static void test_knob_coverage(void) {
  for (unsigned r = 0; r < tt_amb_reading_count(); r++) {
    const tt_amb_reading *rd = tt_amb_reading_get(r);
    if (!rd->knob[0]) continue;
    int k = tt_knob_by_name(rd->knob);
    CHECK(k >= 0, "reading names unknown knob %s", rd->knob);
    if (k >= 0) CHECK(tt_knob_value_index((unsigned)k, rd->value) >= 0, "%s has no value %s", rd->knob, rd->value);
  }
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 0; v < tt_knob_value_count(k); v++) {
      unsigned rows = 0, ambs = 0, last = 0;
      for (unsigned r = 0; r < tt_amb_reading_count(); r++) {
        const tt_amb_reading *rd = tt_amb_reading_get(r);
        if (strcmp(rd->knob, tt_knob_name(k)) || tt_knob_value_index(k, rd->value) != (int)v) continue;
        rows++;
        ambs += rd->amb != last;
        last = rd->amb;
      }
      if (v == 0) CHECK(rows >= 1, "default of %s has no reading", tt_knob_name(k));
      else CHECK(rows == 1, "%s value %u is the reading of %u rows (must be exactly one)", tt_knob_name(k), v, rows);
      CHECK(tt_amb_reading_of(k, v) != NULL, "tt_amb_reading_of(%s, %u)", tt_knob_name(k), v);
    }
}

/* Run one thread-0 stream in functional mode with one knob set; return the state. */
static void run1(const char *knob, const char *value, const uint32_t *w, unsigned n) {
  tt_reset(&S);
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) S.p.knob[k] = 0;
  if (knob) CHECK_EQ(tt_knob_set(&S, knob, value), 0);
  tt_load_program(&S, 0, w, n);
  tt_run(&S, 100);
}

static void test_some_readings(void) {
  /* AMB-10: SETDMAREG 0x45BEEF0B (half-register 11 = GPR 5 high half) */
  uint32_t sd[] = {0x45BEEF0Bu};
  run1(NULL, NULL, sd, 1);
  CHECK_EQ(S.c.gpr[0][5], 0xBEEF0000u);
  run1("setdmareg_imm_bits", "14", sd, 1);
  CHECK_EQ(S.c.gpr[0][5], 0x3EEF0000u);
  /* AMB-27: GPR 0 */
  uint32_t g0[] = {0x45123400u};
  run1(NULL, NULL, g0, 1);
  CHECK_EQ(S.c.gpr[0][0], 0x1234u);
  run1("gpr0", "zero", g0, 1);
  CHECK_EQ(S.c.gpr[0][0], 0u);
  /* AMB-24: ATGETM 5 hangs on Blackhole, takes WormholeB0's mutex 5 */
  uint32_t m5[] = {0xA0000005u, 0xA1000005u};
  run1(NULL, NULL, m5, 2);
  CHECK(!tt_thread_done(&S, 0), "ATGETM 5 completed on Blackhole");
  run1("mutex_indices", "wh", m5, 2);
  CHECK(tt_thread_done(&S, 0), "ATGETM/ATRELM 5 did not complete under mutex_indices=wh");
  /* AMB-3: a SEMWAIT holding forever (sem0 == 0), then a STALLWAIT: held, or it replaces */
  uint32_t rp[] = {0xA6FF8005u, 0xA2FF8000u, 0x02000000u};
  run1(NULL, NULL, rp, 3);
  CHECK(!tt_thread_done(&S, 0), "a wait passed a latched wait");
  run1("wait_replace", "overwrite", rp, 3);
  CHECK(tt_thread_done(&S, 0), "wait_replace=overwrite: the STALLWAIT did not replace the latch");
  /* AMB-8: CFGSHIFTMASK mode 4, width 3 into Config[0][20] = 0: ISA all ones, masked 0xF */
  uint32_t cs[] = {0xB8418014u};
  run1(NULL, NULL, cs, 1);
  CHECK_EQ(S.c.cfg[0][20], 0xFFFFFFFFu);
  run1("cfgshiftmask_not", "masked", cs, 1);
  CHECK_EQ(S.c.cfg[0][20], 0x0000000Fu);
}

int main(void) {
  tt_init(&S);
  test_rows();
  test_knob_coverage();
  test_some_readings();
  return CHECK_DONE();
}
