/* ambiguity_diff.c — the readings of the documentation's ambiguities, told apart.
 *
 * One input runs under the model's default reading (every knob at value 0) and under each
 * alternative reading of each knob, one knob changed at a time (model/ambiguities.def says
 * which ambiguity a knob value reads). An input whose end states differ is a *witness* of that
 * reading, named `AMB-<n>.<knob>=<value>` (e.g. `AMB-4.streamwait_lo_bits=11`). A witness is a
 * finding to keep, not a bug.
 *
 * Modes: every knob value is compared in cycle mode, and also in functional mode when its
 * ambiguity is observable there (registry modes "func+cycle"). The input's own knobs are not
 * used: the base is always the default reading.
 *
 * End state (what "differ" means; the same for the pages of reports/ambiguities/): every
 * architectural location (GPRs, Config, ThreadConfig, semaphores, mutexes, L1, MMIO, the Src
 * stub, by value), each thread's position in its stream (done, or where it stopped) and the
 * outcome (done / deadlock); the class of each thread's first fault (the model's record of
 * UndefinedBehavior etc., which `expect tN fault` pins); in cycle mode the cycle count of a
 * finished run. A witness is graded by what differs: the architectural state (3), only the
 * cycle count (2), only the fault record (1); tools keep the strongest. Not compared: latches
 * still set after the last instruction, hazards, stall counters, side-effect counters of
 * units outside the model (PRNG reseeds, icache invalidations), the cycle a deadlock is
 * detected in. A run that hits its budget (generous: every run that can finish does) is not
 * compared.
 *
 * Reporting (how a campaign keeps witnesses without stopping): the libFuzzer/AFL++ entry point
 * never aborts. Each (knob, value, grade) has its own branch that an input with that witness
 * reaches (amb_cover), so the first input to show a witness is new coverage and both engines
 * keep it in their corpus, once. fuzz/triage.sh then collects the witnesses from the campaign corpus
 * (`build/fuzz-tool/ambtool collect`), minimises each new one and lists it in reports/fuzz.md.
 * The replay driver counts witnesses as witnesses, not failures; a reproducer carrying
 * `# witness: NAME` must still show NAME. check_prog (replay, --fire, --minimize) reports the
 * first witness in knob order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fz.h"
#include "amb_diff.h"

static const char *const invariants[] = {"AMB-<n>.<knob>=<value> (witness)", "amb_skip_sound", NULL};

static tt_state s_base, s_alt;
static int ready;
static uint8_t in_func[TT_KNOB_COUNT][AMB_MAX_VALUES];
static unsigned amb_id[TT_KNOB_COUNT][AMB_MAX_VALUES];
static char names[TT_KNOB_COUNT][AMB_MAX_VALUES][80];
static unsigned long long n_runs, n_witness_inputs, n_skipped;
/* n_skipped: readings not run because the default run never read their knob (g_noting: the
 * model was built with TT_KNOB_LOG; otherwise every reading runs). Replay builds (FZ_REPLAY) run the skipped readings too and
 * report `amb_skip_sound` when one ends differently from the default run: that would mean a
 * knob read the log missed. FZ_AMB_DROP_KNOB=<knob> (replay builds: the test that the check
 * fires, `make amb-test`) drops that knob from the log, as a model that missed its reads would. */
static int g_noting;
static uint64_t g_drop;
static int g_unsound;
static unsigned g_unsound_k, g_unsound_v, g_unsound_mode;
#ifdef FZ_REPLAY
#define SKIP_CHECKED 1
#else
#define SKIP_CHECKED 0
#endif

void amb_init(void) {
  if (ready) return;
  tt_init(&s_base);
  tt_init(&s_alt);
  g_noting = tt_knob_log_built();
#ifdef FZ_REPLAY
  const char *drop = getenv("FZ_AMB_DROP_KNOB");
  int dk = drop ? tt_knob_by_name(drop) : -1;
  if (dk >= 0) g_drop = (uint64_t)1 << dk;
#endif
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 1; v < tt_knob_value_count(k) && v < AMB_MAX_VALUES; v++) {
      const tt_amb_reading *r = tt_amb_reading_of(k, v);
      const tt_amb *a = r ? tt_amb_by_id(r->amb) : NULL;
      amb_id[k][v] = a ? a->id : 0;
      in_func[k][v] = a && strcmp(a->modes, "func+cycle") == 0;
      char val[32];
      const char *vs = tt_knob_values(k);
      unsigned i = 0;
      for (unsigned idx = 0; idx < v && *vs; vs++) idx += *vs == '|';  /* skip v values */
      while (vs[i] && vs[i] != '|' && i + 1 < sizeof val) { val[i] = vs[i]; i++; }
      val[i] = 0;
      snprintf(names[k][v], sizeof names[k][v], "AMB-%u.%s=%s", amb_id[k][v], tt_knob_name(k), val);
    }
  ready = 1;
}

const char *amb_witness_name(unsigned k, unsigned v) {
  amb_init();
  return k < TT_KNOB_COUNT && v && v < AMB_MAX_VALUES ? names[k][v] : "?";
}
unsigned amb_witness_amb(unsigned k, unsigned v) { amb_init(); return amb_id[k][v]; }
int amb_in_func(unsigned k, unsigned v) {
  amb_init();
  return in_func[k][v];
}

int amb_parse_name(const char *name, unsigned *k, unsigned *v) {
  amb_init();
  for (unsigned a = 0; a < TT_KNOB_COUNT; a++)
    for (unsigned b = 1; b < tt_knob_value_count(a) && b < AMB_MAX_VALUES; b++)
      if (strcmp(names[a][b], name) == 0) { *k = a; *v = b; return 0; }
  return -1;
}

uint64_t amb_budget(const fz_prog *p, unsigned mode) {
  uint64_t n = fz_total(p);
  return mode == TT_MODE_CYCLE ? 64u * n + 256u : 2u * n + 16u;  /* func: always enough (run.c) */
}

/* amb_run, with the run's knob reads noted in *log when log is set (a model built with
 * TT_KNOB_LOG: tt_knob_log_built). Reads during the set-up are not noted: they see the input's
 * own knob values, the same in every run of p. */
static tt_outcome run_noting(tt_state *st, const fz_prog *p, unsigned mode, unsigned k, unsigned v,
                             uint64_t *log) {
  fz_setup(st, p);
  for (unsigned j = 0; j < TT_KNOB_COUNT; j++) st->p.knob[j] = 0;
  if (k < TT_KNOB_COUNT) st->p.knob[k] = (uint8_t)v;
  tt_set_mode(st, (tt_mode)mode);
  st->knob_log = log;
  return tt_run(st, amb_budget(p, mode));
}

/* Run p from reset with every knob at its default except knob k = v (k = TT_KNOB_COUNT: none). */
tt_outcome amb_run(tt_state *st, const fz_prog *p, unsigned mode, unsigned k, unsigned v) {
  return run_noting(st, p, mode, k, v, NULL);
}

/* The end state, by value: what tt_state_diff compares (GPRs, Config, ThreadConfig,
 * semaphores, mutexes, L1, MMIO, the Src stub), each thread's position and first fault class,
 * and the outcome. A granule that was written but holds zeros is equal to one never written
 * (the dirty list is bookkeeping, not state). Cycle mode adds the cycle count of a finished
 * run (a deadlock's detection cycle is not an end state). */
static int zero_chunk(const uint8_t *p) {
  uint64_t acc = 0;
  for (unsigned i = 0; i < (1u << TT_DIRTY_SHIFT); i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    acc |= w;
  }
  return acc == 0;
}

static int zero_src(const tt_state *st) {
  const uint32_t *w = &st->src[0][0][0];
  for (size_t i = 0; i < sizeof st->src / sizeof *w; i++)
    if (w[i]) return 0;
  return 1;
}

void amb_end_of(tt_state *st, tt_outcome out, amb_end *e) {
  const tt_core *c = &st->c;
  uint64_t h = 0xCBF29CE484222325ull;
  h = fz_mix(h, c->gpr, sizeof c->gpr);
  h = fz_mix(h, c->cfg, sizeof c->cfg);
  h = fz_mix(h, c->tcfg, sizeof c->tcfg);
  h = fz_mix(h, c->sem_value, sizeof c->sem_value);
  h = fz_mix(h, c->sem_max, sizeof c->sem_max);
  h = fz_mix(h, c->mutex, sizeof c->mutex);
  uint32_t pcs[TT_THREAD_COUNT], fc[TT_THREAD_COUNT];
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    pcs[t] = c->thr[t].pc;
    fc[t] = c->thr[t].fault_class;
  }
  h = fz_mix(h, pcs, sizeof pcs);
  e->faults = fz_mix(0x84222325ull, fc, sizeof fc);
  uint64_t sum = 0;
  for (unsigned i = 0; i < c->l1_dirty_count; i++) {
    uint32_t ch = st->l1_dirty_list[i];
    const uint8_t *p = &st->l1[(size_t)ch << TT_DIRTY_SHIFT];
    if (!zero_chunk(p)) sum += fz_mix(fz_mix(0x1000u + ch, &ch, 4), p, 1u << TT_DIRTY_SHIFT);
  }
  for (unsigned i = 0; i < c->mmio_dirty_count; i++) {
    uint32_t ch = st->mmio_dirty_list[i];
    const uint8_t *p = (const uint8_t *)&st->mmio[(size_t)ch << (TT_DIRTY_SHIFT - 2)];
    if (!zero_chunk(p)) sum += fz_mix(fz_mix(0x2000u + ch, &ch, 4), p, 1u << TT_DIRTY_SHIFT);
  }
  h = fz_mix(h, &sum, sizeof sum);
  if (c->src_dirty && !zero_src(st)) h = fz_mix(h, st->src, sizeof st->src);
  e->arch = h ^ (uint64_t)out * 0x9E3779B97F4A7C15ull;
  e->cycles = st->p.mode == TT_MODE_CYCLE && out == TT_OUT_DONE ? tt_cycle_count(st) : 0;
  e->out = out;
}

int amb_level(const amb_end *a, const amb_end *b) {
  if (a->out == TT_OUT_BUDGET || b->out == TT_OUT_BUDGET) return 0;
  if (a->arch != b->arch) return AMB_LEVEL_ARCH;
  if (a->faults != b->faults) return AMB_LEVEL_FAULTS;
  return a->cycles != b->cycles ? AMB_LEVEL_CYCLES : 0;
}

const char *amb_level_name(int level) {
  return level == AMB_LEVEL_ARCH ? "state" : level == AMB_LEVEL_FAULTS ? "fault record only"
         : level == AMB_LEVEL_CYCLES ? "cycle count only" : "nothing";
}

int amb_separates(const fz_prog *p, unsigned k, unsigned v, unsigned mode) {
  amb_init();
  amb_end e0, e1;
  amb_end_of(&s_base, amb_run(&s_base, p, mode, TT_KNOB_COUNT, 0), &e0);
  amb_end_of(&s_alt, amb_run(&s_alt, p, mode, k, v), &e1);
  tt_reset(&s_base);
  tt_reset(&s_alt);
  return amb_level(&e0, &e1);
}

unsigned amb_witnesses(const fz_prog *p, uint8_t lvs[TT_KNOB_COUNT][AMB_MAX_VALUES],
                       uint8_t md[TT_KNOB_COUNT][AMB_MAX_VALUES]) {
  amb_init();
  unsigned n = 0;
  memset(lvs, 0, sizeof(uint8_t) * TT_KNOB_COUNT * AMB_MAX_VALUES);
  memset(md, 0, sizeof(uint8_t) * TT_KNOB_COUNT * AMB_MAX_VALUES);
  g_unsound = 0;
  for (unsigned mode = TT_MODE_FUNC; mode <= TT_MODE_CYCLE; mode++) {
    amb_end e0, e1;
    uint64_t read = 0;   /* the knobs the default run read (all of them without the log) */
    amb_end_of(&s_base, run_noting(&s_base, p, mode, TT_KNOB_COUNT, 0, g_noting ? &read : NULL), &e0);
    s_base.knob_log = NULL;
    if (!g_noting) read = ~(uint64_t)0;
    read &= ~g_drop;
    n_runs++;
    tt_reset(&s_base);
    if (e0.out == TT_OUT_BUDGET) continue;
    for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
      for (unsigned v = 1; v < tt_knob_value_count(k) && v < AMB_MAX_VALUES; v++) {
        if (mode == TT_MODE_FUNC && !in_func[k][v]) continue;
        int unread = !((read >> k) & 1u);
        if (unread) n_skipped++;
        if (unread && !SKIP_CHECKED) continue;
        amb_end_of(&s_alt, amb_run(&s_alt, p, mode, k, v), &e1);
        n_runs++;
        int lv = amb_level(&e0, &e1);
        tt_reset(&s_alt);
        if (unread) {   /* replay builds: a skipped reading must end as the default did */
          if (lv && !g_unsound) { g_unsound = 1; g_unsound_k = k; g_unsound_v = v; g_unsound_mode = mode; }
          continue;
        }
        if (lv > lvs[k][v]) {
          n += lvs[k][v] == 0;
          lvs[k][v] = (uint8_t)lv;
          md[k][v] = (uint8_t)mode;
        }
      }
  }
  return n;
}

FZ_BOOKKEEPING static int check_prog(const fz_prog *p, fz_fail *f) {
  static uint8_t lv[TT_KNOB_COUNT][AMB_MAX_VALUES], md[TT_KNOB_COUNT][AMB_MAX_VALUES];
  fz_fail_clear(f);
  unsigned n = amb_witnesses(p, lv, md);
  if (g_unsound)
    return fz_failf(f, "amb_skip_sound",
                    "%s=%s was skipped (the default run did not read knob %s) but ends differently "
                    "(%s mode): the knob log missed a read",
                    tt_knob_name(g_unsound_k), strchr(amb_witness_name(g_unsound_k, g_unsound_v), '=') + 1,
                    tt_knob_name(g_unsound_k), g_unsound_mode == TT_MODE_CYCLE ? "cycle" : "func");
  if (!n) return 0;
  n_witness_inputs++;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 1; v < AMB_MAX_VALUES; v++)
      if (lv[k][v])
        return fz_failf(f, amb_witness_name(k, v),
                        "the end state under %s=%s differs from the default reading (%s mode; %s)",
                        tt_knob_name(k), strchr(amb_witness_name(k, v), '=') + 1,
                        md[k][v] == TT_MODE_CYCLE ? "cycle" : "func",
                        amb_level_name(lv[k][v]));
  return 0;
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  static fz_prog p;
  fz_prog_decode(d, n, &p);
  return check_prog(&p, f);
}

FZ_BOOKKEEPING static void init(void) { amb_init(); }

static void stats(char *buf, size_t n) {
  snprintf(buf, n, "%llu runs, %llu readings skipped (knob not read), %llu inputs were witnesses",
           n_runs, n_skipped, n_witness_inputs);
}

static int reports(const fz_prog *p, const char *name) {
  unsigned k, v;
  if (amb_parse_name(name, &k, &v) != 0) return 0;
  return (in_func[k][v] && amb_separates(p, k, v, TT_MODE_FUNC)) ||
         amb_separates(p, k, v, TT_MODE_CYCLE);
}

const fz_target fz_this_target = {"ambiguity_diff", invariants, 1, check_bytes, check_prog, init,
                                  stats, 1, reports};

/* One branch per (knob, value, level): an input showing that witness reaches it, which both
 * engines see as new coverage (an architectural witness of a reading that so far had only a
 * cycle-count one is new again). The empty asm statements with distinct operands keep the
 * cases apart (nothing can merge or sink them): each is its own basic block and counter. */
#define AMB_EDGE1(k, l, v) case (k) * 32 + (l) * 8 + (v): __asm__ volatile("" : : "i"((k) * 32 + (l) * 8 + (v))); break;
#define AMB_EDGE(k, v) AMB_EDGE1(k, 1, v) AMB_EDGE1(k, 2, v) AMB_EDGE1(k, 3, v)
#define AMB_EDGES(k) AMB_EDGE(k, 1) AMB_EDGE(k, 2) AMB_EDGE(k, 3) AMB_EDGE(k, 4) AMB_EDGE(k, 5) \
                     AMB_EDGE(k, 6) AMB_EDGE(k, 7)
static void amb_cover(unsigned k, unsigned v, unsigned level) {
  switch (k * 32 + level * 8 + v) {
#define TT_KNOB(ID, name, values, amb, text) AMB_EDGES(TT_KNOB_##ID)
#include "knobs.def"
#undef TT_KNOB
  default: break;
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc; (void)argv;
  amb_init();
  return 0;
}
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fz_prog p;
  static uint8_t lv[TT_KNOB_COUNT][AMB_MAX_VALUES], md[TT_KNOB_COUNT][AMB_MAX_VALUES];
  fz_prog_decode(data, size, &p);
  if (amb_witnesses(&p, lv, md))
    for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
      for (unsigned v = 1; v < AMB_MAX_VALUES; v++)
        if (lv[k][v]) amb_cover(k, v, lv[k][v]);
  return 0;
}
