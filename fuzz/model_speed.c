/* model_speed.c — `make bench` and `make bench-model`: the model alone (no fuzzing engine, no
 * invariant checks, no sanitizer, no per-cycle checks) in functional and in cycle mode.
 *
 * Workloads (fixed inputs, no randomness in here):
 *   seeds    --seeds FILE: mutated corpus seeds, a bench input file as written by
 *            `func_invariants --bench-inputs N MAX FILE corpus/func_invariants`
 *            (u32 length + fuzz input, decoded with fz_prog_decode; knobs and init records kept)
 *   full     --full FILE: random full programs (`--bench-inputs-full`), same format
 *   kernels  --kernels DIR...: corpus/kernels/<k>/trisc{0,1,2}.txt, first column hex words, as
 *            the three threads' programs (default knobs, up to TT_PROG_MAX words per thread)
 * At most MAX_PROGS inputs are kept per file.
 *
 * What one run is: tt_reset, the fuzz input's knobs and init records, tt_load_program per thread
 * (what fz_setup does), tt_run with the fuzz targets' budget (functional: fz_budget; cycle:
 * 64 cycles per instruction + 256). The clock is read once per pass over all programs of a
 * workload (never per run); functional and cycle passes alternate until each has had `seconds`.
 * instr/s counts retired instructions (tt_thread.retired summed over the threads).
 *
 * Phases of a functional run, in ns per retired instruction, measured in the same process on
 * the same programs (the pass kinds alternate until `seconds` have passed in total):
 *   bare      a loop summing every word each run loads (batch-timed: clock once per pass)
 *   reset     tt_reset after a run          } timed per call, in a pass that does reset, load
 *   load      knobs, init, tt_load_program  } and run of every program; the clock's own cost
 *   run       tt_run                        } (median of back-to-back reads) is subtracted
 *   decode    not a phase of tt_run: tt_decode of the words that issued, in issue order
 *             (batch-timed), what a decoder that decodes every issued word in full pays. tt_run
 *             decodes a head only at its first fetch, and functional mode's quick issue not at
 *             all (model/run.c), so it is not subtracted (`make bench-insn` splits tt_run
 *             exactly, with callgrind)
 *   execute   tt_dispatch (model/sched.h) of the issued instructions, pre-decoded, in issue
 *             order, on a state freshly reset and loaded (timed per program around the dispatch
 *             loop only, clock cost subtracted). The issue order is recorded once, untimed, by
 *             stepping each program with tt_step and watching each thread's pc: functional
 *             mode visits T0, T1, T2 in that order each round and issues at most one each.
 *   decode+gate+scheduler  run - execute: the head decodes, the Wait Gate, Sync gate, latch
 *             re-evaluation, the round loop and per-instruction bookkeeping.
 *   dispatch floor  not a phase of the model: one switch on the form per issued instruction
 *             (pre-decoded, issue order), each case a different cheap function of the word,
 *             batch-timed. On streams whose form changes from one instruction to the next the
 *             indirect jump is mostly mispredicted: the least a form-dispatched interpreter pays.
 * The per-call sum reset+load+run is printed next to a batch-timed pass of the same runs that
 * alternates with the phase passes, as a check of the per-call timing.
 *
 * The program uses only API present at the commit before the speed work (cb7cff8), so
 * `make bench-model` can compile this same file against that commit's headers and library. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fz.h"
#include "fz_records.h"
#include "internal.h"
/* tt_dispatch: model/sched.h; a base model built by fuzz/bench_model.sh may predate it (then
 * internal.h declares it) */
#if defined(__has_include)
#if __has_include("sched.h")
#include "sched.h"
#endif
#endif

#define MAX_PROGS 50000u

typedef struct prog {
  uint32_t off[TT_THREAD_COUNT], n[TT_THREAD_COUNT];  /* words: w->words[off[t] ..+ n[t]) */
  uint32_t init_off, ninit;                            /* w->init[init_off ..+ ninit) */
  size_t issue_off, nissue;                            /* functional issue order (recorded) */
  uint64_t budget_func, budget_cycle;
  uint8_t knob[TT_KNOB_COUNT];
} prog;

typedef struct workload {
  const char *name;
  char desc[400];
  prog *p;
  size_t np, capp;
  uint32_t *words;
  size_t nwords, capwords;
  fz_init *init;
  size_t ninit, capinit;
  uint8_t *ithr;     /* issue order: thread, word and its decode */
  uint32_t *iword;
  tt_insn *iinsn;
  size_t nissue, capithr, capiword;
  uint64_t words_per_pass, retired_func, retired_cycle, cycles;  /* per pass */
} workload;

static tt_state st;
static volatile uint64_t sink;

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *grow(void *a, size_t *cap, size_t need, size_t elem) {
  return fz_grow(a, cap, need, elem, "model_speed");
}

static void add_prog(workload *w, const uint32_t *const words[TT_THREAD_COUNT],
                     const uint32_t n[TT_THREAD_COUNT], const fz_init *init, uint32_t ninit,
                     const uint8_t *knob, uint64_t budget_func) {
  w->p = grow(w->p, &w->capp, w->np + 1, sizeof *w->p);
  prog *p = &w->p[w->np++];
  memset(p, 0, sizeof *p);
  uint64_t total = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    w->words = grow(w->words, &w->capwords, w->nwords + n[t], sizeof *w->words);
    if (n[t]) memcpy(w->words + w->nwords, words[t], sizeof *w->words * n[t]);
    p->off[t] = (uint32_t)w->nwords;
    p->n[t] = n[t];
    w->nwords += n[t];
    total += n[t];
  }
  w->init = grow(w->init, &w->capinit, w->ninit + ninit + 1, sizeof *w->init);
  if (ninit) memcpy(w->init + w->ninit, init, sizeof *w->init * ninit);
  p->init_off = (uint32_t)w->ninit;
  p->ninit = ninit;
  w->ninit += ninit;
  if (knob) memcpy(p->knob, knob, sizeof p->knob);
  p->budget_func = budget_func;
  p->budget_cycle = 64u * total + 256u;
  w->words_per_pass += total;
}

/* A bench input file: records of u32 length (little-endian) + a fuzz input. */
static int load_inputs(workload *w, const char *path) {
  size_t n = 0, pos = 0;
  uint8_t *d = fz_slurp(path, &n);
  if (!d) {
    perror(path);
    return -1;
  }
  static fz_prog fp;
  unsigned long skipped = 0;
  const uint8_t *rec;
  uint32_t len;
  while (fz_record_next(d, n, &pos, &rec, &len)) {
    if (w->np >= MAX_PROGS) { skipped++; continue; }
    fz_prog_decode(rec, len, &fp);
    const uint32_t *words[TT_THREAD_COUNT];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) words[t] = fp.w[t];
    add_prog(w, words, fp.n, fp.init, fp.ninit, fp.knob, fz_budget(&fp));
  }
  free(d);
  if (skipped) fprintf(stderr, "model_speed: %s: kept the first %u inputs, skipped %lu\n", path, MAX_PROGS, skipped);
  return w->np ? 0 : -1;
}

/* A kernel folder: trisc{0,1,2}.txt, one word per line in the first column (hex); '#' comments. */
static int load_kernel(workload *w, const char *dir) {
  static uint32_t kw[TT_THREAD_COUNT][TT_PROG_MAX];
  uint32_t n[TT_THREAD_COUNT];
  const uint32_t *words[TT_THREAD_COUNT] = {kw[0], kw[1], kw[2]};
  if (!fz_kernel_words(dir, TT_THREAD_COUNT, TT_PROG_MAX, &kw[0][0], n)) return -1;
  add_prog(w, words, n, NULL, 0, NULL, 4u * (uint64_t)(n[0] + n[1] + n[2]) + 16u);
  return 0;
}

/* What fz_setup does after its tt_reset: knobs, init records, programs. */
static void load(const workload *w, const prog *p) {
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) st.p.knob[k] = p->knob[k];
  for (uint32_t i = 0; i < p->ninit; i++) tt_loc_set(&st, &w->init[p->init_off + i].loc, w->init[p->init_off + i].value);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) tt_load_program(&st, t, w->words + p->off[t], p->n[t]);
}

static int all_done(void) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (!tt_thread_done(&st, t)) return 0;
  return 1;
}

/* Untimed: each program's functional issue order (tt_step, watching pc), checked against
 * tt_run; retired instructions and cycles per pass in both modes. */
static int record(workload *w) {
  tt_set_mode(&st, TT_MODE_FUNC);
  for (size_t i = 0; i < w->np; i++) {
    prog *p = &w->p[i];
    tt_reset(&st);
    load(w, p);
    p->issue_off = w->nissue;
    uint32_t pc[TT_THREAD_COUNT] = {0, 0, 0};
    for (uint64_t r = 0; r < p->budget_func && !all_done(); r++) {
      int changed = tt_step(&st);
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
        uint32_t now = st.c.thr[t].pc;
        if (now == pc[t]) continue;
        if (now != pc[t] + 1) {
          fprintf(stderr, "model_speed: %s program %zu: thread %u issued %u instructions in one round\n",
                  w->name, i, t, now - pc[t]);
          return -1;
        }
        w->ithr = grow(w->ithr, &w->capithr, w->nissue + 1, sizeof *w->ithr);
        w->iword = grow(w->iword, &w->capiword, w->nissue + 1, sizeof *w->iword);
        w->ithr[w->nissue] = (uint8_t)t;
        w->iword[w->nissue++] = w->words[p->off[t] + pc[t]];
        pc[t] = now;
      }
      if (!changed) break;
    }
    p->nissue = w->nissue - p->issue_off;
    tt_reset(&st);
    load(w, p);
    tt_run(&st, p->budget_func);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      if (st.c.thr[t].retired != pc[t]) {
        fprintf(stderr, "model_speed: %s program %zu: tt_step replay retired %u on thread %u, tt_run %u\n",
                w->name, i, pc[t], t, st.c.thr[t].retired);
        return -1;
      }
      w->retired_func += pc[t];
    }
  }
  w->iinsn = malloc(sizeof *w->iinsn * (w->nissue ? w->nissue : 1));
  if (!w->iinsn) return -1;
  for (size_t k = 0; k < w->nissue; k++) tt_decode(w->iword[k], &w->iinsn[k]);
  tt_set_mode(&st, TT_MODE_CYCLE);
  for (size_t i = 0; i < w->np; i++) {
    tt_reset(&st);
    load(w, &w->p[i]);
    tt_run(&st, w->p[i].budget_cycle);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) w->retired_cycle += st.c.thr[t].retired;
    w->cycles += st.c.steps;
  }
  tt_set_mode(&st, TT_MODE_FUNC);
  return 0;
}

/* One pass: reset, load and run every program in mode m; ns. */
static int64_t pass_runs(const workload *w, tt_mode m) {
  tt_set_mode(&st, m);
  int64_t t0 = now_ns();
  for (size_t i = 0; i < w->np; i++) {
    const prog *p = &w->p[i];
    tt_reset(&st);
    load(w, p);
    tt_run(&st, m == TT_MODE_CYCLE ? p->budget_cycle : p->budget_func);
  }
  return now_ns() - t0;
}

static int64_t pass_bare(const workload *w) {
  int64_t t0 = now_ns();
  uint32_t s = 0;
  for (size_t i = 0; i < w->np; i++) {
    const prog *p = &w->p[i];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      for (uint32_t k = 0; k < p->n[t]; k++) s += w->words[p->off[t] + k];
  }
  sink += s;
  return now_ns() - t0;
}

static int64_t pass_decode(const workload *w) {
  int64_t t0 = now_ns();
  uint32_t s = 0;
  tt_insn d;
  for (size_t k = 0; k < w->nissue; k++) {
    tt_decode(w->iword[k], &d);
    s += d.form;
  }
  sink += s;
  return now_ns() - t0;
}

/* The dispatch floor: one switch on the form per issued instruction (pre-decoded, in issue
 * order), each case a different cheap function of the word, nothing else. No interpreter that
 * picks its work by the instruction's form can spend less per instruction on these streams: the
 * forms vary from one instruction to the next, so the indirect jump is mispredicted about as
 * often as in the model (which takes at least two such jumps: decode and execute). */
__attribute__((noinline)) static uint32_t floor_case(const tt_insn *in, uint32_t acc) {
  switch ((tt_form)in->form) {
#define TT_FORM(ID, mn, dm, dv) case TT_FORM_##ID: return acc * 3u + (uint32_t)TT_FORM_##ID + (in->word >> (TT_FORM_##ID % 24u));
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  case TT_FORM_FOREIGN: return acc + 7u;
  case TT_FORM_UNDEFINED: return acc ^ 5u;
  case TT_FORM_COUNT: break;
  }
  return acc;
}

static int64_t pass_floor(const workload *w) {
  int64_t t0 = now_ns();
  uint32_t s = 0;
  for (size_t k = 0; k < w->nissue; k++) s = floor_case(&w->iinsn[k], s);
  sink += s;
  return now_ns() - t0;
}

typedef struct phase_ns { int64_t reset, load, run, exec, calls, exec_calls, retries; } phase_ns;

/* Per call: reset, load, run of every program (functional). */
static void pass_phases(const workload *w, phase_ns *ph) {
  tt_set_mode(&st, TT_MODE_FUNC);
  for (size_t i = 0; i < w->np; i++) {
    const prog *p = &w->p[i];
    int64_t a = now_ns();
    tt_reset(&st);
    int64_t b = now_ns();
    load(w, p);
    int64_t c = now_ns();
    tt_run(&st, p->budget_func);
    int64_t d = now_ns();
    ph->reset += b - a;
    ph->load += c - b;
    ph->run += d - c;
    ph->calls++;
  }
}

/* Per program: the issued instructions through tt_dispatch on a freshly set-up state. */
static void pass_exec(const workload *w, phase_ns *ph) {
  tt_set_mode(&st, TT_MODE_FUNC);
  for (size_t i = 0; i < w->np; i++) {
    const prog *p = &w->p[i];
    tt_reset(&st);
    load(w, p);
    const uint8_t *thr = w->ithr + p->issue_off;
    const tt_insn *in = w->iinsn + p->issue_off;
    int64_t a = now_ns();
    for (size_t k = 0; k < p->nissue; k++)
      if (tt_dispatch(&st, thr[k], &in[k]) != TT_EXEC_DONE) ph->retries++;
    int64_t b = now_ns();
    ph->exec += b - a;
    ph->exec_calls++;
  }
}

/* The clock's own cost inside a timed interval: median of back-to-back reads. */
static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}
static double clock_cost(void) {
  static int64_t d[2001];
  for (unsigned i = 0; i < 2001; i++) {
    int64_t a = now_ns();
    d[i] = now_ns() - a;
  }
  qsort(d, 2001, sizeof d[0], cmp_i64);
  return (double)d[1000];
}

/* Both modes, alternately, until each has run `lim` ns (and at least one pass): the speed rows. */
static void speed_rows(workload *w, int64_t lim, int tsv) {
  int64_t t[2] = {0, 0};
  uint64_t passes[2] = {0, 0};
  pass_runs(w, TT_MODE_FUNC);  /* warm-up */
  pass_runs(w, TT_MODE_CYCLE);
  while (t[0] < lim || t[1] < lim) {
    for (unsigned m = 0; m < 2; m++) {
      if (t[m] >= lim && t[1 - m] < lim && passes[m] >= 1) continue;
      t[m] += pass_runs(w, m ? TT_MODE_CYCLE : TT_MODE_FUNC);
      passes[m]++;
    }
  }
  tt_set_mode(&st, TT_MODE_FUNC);
  double fi = (double)w->retired_func * passes[0] / (t[0] * 1e-9);
  double fr = (double)w->np * passes[0] / (t[0] * 1e-9);
  double ci = (double)w->retired_cycle * passes[1] / (t[1] * 1e-9);
  double cr = (double)w->np * passes[1] / (t[1] * 1e-9);
  double cc = (double)w->cycles * passes[1] / (t[1] * 1e-9);
  if (tsv) {
    printf("speed\t%s\tfunctional\t%.0f\t%.0f\n", w->name, fi, fr);
    printf("speed\t%s\tcycle\t%.0f\t%.0f\n", w->name, ci, cr);
    return;
  }
  printf("%s: %s\n", w->name, w->desc);
  printf("  %zu programs; per run %.1f words loaded, %.1f retired (functional), %.1f retired and "
         "%.1f cycles (cycle mode)\n", w->np, (double)w->words_per_pass / (double)w->np,
         (double)w->retired_func / (double)w->np, (double)w->retired_cycle / (double)w->np,
         (double)w->cycles / (double)w->np);
  printf("  functional %9.2f M instr/s %10.1f k runs/s\n", fi / 1e6, fr / 1e3);
  printf("  cycle      %9.2f M instr/s %10.1f k runs/s %8.2f M simulated cycles/s\n", ci / 1e6,
         cr / 1e3, cc / 1e6);
  printf("  modes: cycle/functional instr/s = %.2f\n", fi > 0 ? ci / fi : 0.0);
}

/* The functional phases, ns per retired instruction, timed in the same passes. */
static void phase_rows(workload *w, int64_t lim, int tsv, double clk) {
  phase_ns ph = {0, 0, 0, 0, 0, 0, 0}, warm = {0, 0, 0, 0, 0, 0, 0};
  int64_t bare = 0, dec = 0, batch = 0, flo = 0;
  uint64_t np = 0;
  pass_bare(w);
  pass_decode(w);
  pass_floor(w);
  pass_phases(w, &warm);
  pass_exec(w, &warm);
  for (int64_t spent = 0; spent < lim || np < 1; np++) {
    int64_t t0 = now_ns();
    bare += pass_bare(w);
    dec += pass_decode(w);
    flo += pass_floor(w);
    pass_phases(w, &ph);
    pass_exec(w, &ph);
    batch += pass_runs(w, TT_MODE_FUNC);
    spent += now_ns() - t0;
  }
  double per = 1.0 / ((double)w->retired_func * (double)np);  /* per retired instruction */
  double reset = ((double)ph.reset - clk * ph.calls) * per, load_ns = ((double)ph.load - clk * ph.calls) * per;
  double run = ((double)ph.run - clk * ph.calls) * per, exec = ((double)ph.exec - clk * ph.exec_calls) * per;
  double decode = (double)dec * per, floor_ns = (double)flo * per;
  if (tsv) {
    printf("phase\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", w->name, (double)bare * per, reset,
           load_ns, decode, exec, run - exec, floor_ns);
    return;
  }
  printf("  phases, functional, ns per retired instruction:  bare loop %.2f | reset %.1f  load %.1f  "
         "run %.1f = execute %.1f + decode, gate and scheduler %.1f\n", (double)bare * per, reset,
         load_ns, run, exec, run - exec);
  printf("    tt_decode of every issued word (not a phase of tt_run, which decodes heads only): %.1f ns/instr\n",
         decode);
  printf("    dispatch floor (one switch on the form per issued instruction, nothing else): %.1f ns/instr\n",
         floor_ns);
  printf("    check: per call reset+load+run = %.1f ns/instr; the same runs batch-timed, in the same "
         "passes: %.1f ns/instr%s\n",
         reset + load_ns + run, (double)batch * per,
         warm.retries + ph.retries ? "  (note: some replayed dispatches returned RETRY)" : "");
}

static void run_workload(workload *w, double secs, int phases, int tsv, double clk) {
  if (record(w)) exit(1);
  int64_t lim = (int64_t)(secs * 1e9);
  speed_rows(w, lim, tsv);
  if (phases && w->retired_func) phase_rows(w, lim, tsv, clk);
  fflush(stdout);
}

int main(int argc, char **argv) {
  double secs = 2;
  int phases = 1, tsv = 0;
  static workload wl[3];
  unsigned nw = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
      secs = strtod(argv[++i], NULL);
    } else if (strcmp(argv[i], "--no-phases") == 0) {
      phases = 0;
    } else if (strcmp(argv[i], "--tsv") == 0) {
      tsv = 1;
    } else if ((strcmp(argv[i], "--seeds") == 0 || strcmp(argv[i], "--full") == 0) && i + 1 < argc && nw < 3) {
      workload *w = &wl[nw++];
      int full = strcmp(argv[i], "--full") == 0;
      w->name = full ? "full" : "seeds";
      if (load_inputs(w, argv[++i])) return 2;
      snprintf(w->desc, sizeof w->desc, "%s (%s)",
               full ? "random full programs" : "mutated corpus seeds", argv[i]);
    } else if (strcmp(argv[i], "--kernels") == 0 && nw < 3) {
      workload *w = &wl[nw++];
      w->name = "kernels";
      int n = snprintf(w->desc, sizeof w->desc, "the real kernels, trisc0/1/2 as T0/T1/T2:");
      for (i++; i < argc && argv[i][0] != '-'; i++) {
        if (load_kernel(w, argv[i]) == 0 && n > 0 && (size_t)n < sizeof w->desc) {
          char name[256];  /* the folder's last component */
          snprintf(name, sizeof name, "%s", argv[i]);
          size_t len = strlen(name);
          while (len > 1 && name[len - 1] == '/') name[--len] = 0;
          const char *b = strrchr(name, '/');
          b = b ? b + 1 : name;
          n += snprintf(w->desc + n, sizeof w->desc - (size_t)n, " %s", b);
        }
      }
      i--;
      if (!w->np) { fprintf(stderr, "model_speed: no kernels\n"); return 2; }
    } else {
      fprintf(stderr, "usage: model_speed [--time S] [--no-phases] [--tsv] [--seeds FILE] [--full FILE] "
                      "[--kernels DIR...]\n");
      return 2;
    }
  }
  if (!nw) {
    fprintf(stderr, "model_speed: no workload given\n");
    return 2;
  }
  tt_init(&st);
  double clk = clock_cost();
  if (!tsv)
    printf("model_speed: the model alone (no engine, no invariant checks), %.1f s per measurement; "
           "clock read once per pass over all programs (per-call phases: %.0f ns clock cost subtracted)\n",
           secs, clk);
  for (unsigned i = 0; i < nw; i++) run_workload(&wl[i], secs, phases, tsv, clk);
  if (!tsv && phases)
    printf("how the phases are measured (ns per retired instruction, functional mode):\n"
           "  bare loop       a loop summing the words each run loads (clock read once per pass)\n"
           "  reset, load     tt_reset after a run; knobs + init records + tt_load_program (timed per call)\n"
           "  tt_decode       of the words that issued (clock read once per pass): what decoding every\n"
           "                  issued word costs; tt_run decodes a head at its first fetch only (and\n"
           "                  functional mode's quick issue not at all), so it is not subtracted\n"
           "  dispatch floor  one switch on the form of each issued instruction (pre-decoded, issue\n"
           "                  order), each case a different cheap function of the word: the least any\n"
           "                  form-dispatched interpreter pays per instruction (clock once per pass)\n"
           "  execute         tt_dispatch of the issued instructions, pre-decoded, in issue order, on a\n"
           "                  freshly reset and loaded state (timed per program)\n"
           "  run             tt_run (timed per call); decode, gate and scheduler = run - execute\n"
           "  per-call and per-program times have the clock's own cost subtracted\n");
  return 0;
}
