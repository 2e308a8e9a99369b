/* insn_count.c — `make bench-insn` (fuzz/insn_bench.sh): the driver that callgrind counts. It runs
 * one workload in one mode from reset, each phase in its own non-inlined function, so that the
 * host instructions of each phase are exact (callgrind's inclusive cost per function):
 *   bench_reset  tt_reset
 *   bench_load   knobs, init records, tt_load_program per thread (what fz_setup does)
 *   bench_run    tt_run (decode, scheduling and execution are split inside it by the script:
 *                tt_decode; the executors tt_exec_* and the cycle-mode Config pipeline's
 *                tt_cfg_capture/tt_cfg_read_stream/tt_cfg_commit; the rest is scheduling)
 *   bench_pass   REPS passes of reset, load, run over every program of the workload: the only
 *                function callgrind collects (--collect-atstart=no --toggle-collect=bench_pass).
 * One uncollected pass runs first, so every collected reset follows a run (as in a campaign).
 *
 * Workloads (fixed inputs, nothing random):
 *   --kernels DIR...   corpus/kernels/<k>/trisc{0,1,2}.txt (first column hex words, '#' comments)
 *                      as T0/T1/T2 of one program each (as fuzz/model_speed.c reads them)
 *   --inputs DIR       every file of DIR as a fuzz input of the program targets
 *                      (fz_prog_decode: words, knobs, init records, budget), e.g.
 *                      corpus/func_invariants
 *   --bench-file FILE  the inputs of a bench input file (u32 length + fuzz input, repeated), as
 *                      `func_invariants --bench-inputs-full N K FILE corpus/func_invariants` writes
 *   --long N           one T0 stream of N instructions, no waits, no branches, assembled from a
 *                      fixed rotation of forms (SETDMAREG, ADD/MUL/SUBDMAREG, WRCFG, RDCFG, SETC16,
 *                      NOP) with operands from a fixed LCG
 * Budgets: functional fz_budget (4 rounds per instruction + 16 unless the input sets one); cycle
 * 64 cycles per instruction + 256 (as model_speed).
 *
 * Output: one line "insn_count: programs P reps R retired X cycles Y" (X, Y summed over the
 * collected passes; Y is tt_cycle_count summed, 0 in functional mode), and with --time S the
 * wall-clock figure of the same passes run natively: "insn_count: wall ns/instr F ns/cycle C".
 *
 * --dut PATH.so (before any --same-as): the same programs through an implementation under test (conformance/ttdut.h:
 * the model's build/release/dut/model.so, ttsim's build/dut/ttsim.so) instead of the linked
 * model, for `make bench-dut` (fuzz/dut_bench.sh), which reads from callgrind what the
 * implementation's own functions cost. Each program: reset (the mode, no knob), load, run
 * (bench_dut); the init records and knobs of fuzz inputs are not passed (every implementation
 * runs the same streams from its reset state); "retired" is then the sum of ttdut_result's
 * issued counts. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "asm.h"
#include "fz.h"
#include "fz_records.h"
#include "internal.h"
#include "ttdut.h"
#include <dlfcn.h>

typedef struct prog {
  uint32_t off[TT_THREAD_COUNT], n[TT_THREAD_COUNT];
  uint32_t init_off, ninit;
  uint64_t budget_func, budget_cycle;
  uint8_t knob[TT_KNOB_COUNT];
} prog;

static prog *progs;
static size_t nprogs, capprogs;
static uint32_t *words;
static size_t nwords, capwords;
static fz_init *inits;
static size_t ninits, capinits;
static tt_state st;

static void *grow(void *a, size_t *cap, size_t need, size_t elem) {
  return fz_grow(a, cap, need, elem, "insn_count");
}

static void add_prog(const uint32_t *const w[TT_THREAD_COUNT], const uint32_t n[TT_THREAD_COUNT],
                     const fz_init *init, uint32_t ninit, const uint8_t *knob, uint64_t budget_func) {
  progs = grow(progs, &capprogs, nprogs + 1, sizeof *progs);
  prog *p = &progs[nprogs++];
  memset(p, 0, sizeof *p);
  uint64_t total = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    words = grow(words, &capwords, nwords + n[t] + 1, sizeof *words);
    if (n[t]) memcpy(words + nwords, w[t], sizeof *words * n[t]);
    p->off[t] = (uint32_t)nwords;
    p->n[t] = n[t];
    nwords += n[t];
    total += n[t];
  }
  inits = grow(inits, &capinits, ninits + ninit + 1, sizeof *inits);
  if (ninit) memcpy(inits + ninits, init, sizeof *inits * ninit);
  p->init_off = (uint32_t)ninits;
  p->ninit = ninit;
  ninits += ninit;
  if (knob) memcpy(p->knob, knob, sizeof p->knob);
  p->budget_func = budget_func ? budget_func : 4u * total + 16u;
  p->budget_cycle = 64u * total + 256u;
}

static int load_kernel(const char *dir) {
  static uint32_t kw[TT_THREAD_COUNT][TT_PROG_MAX];
  uint32_t n[TT_THREAD_COUNT];
  const uint32_t *w[TT_THREAD_COUNT] = {kw[0], kw[1], kw[2]};
  if (!fz_kernel_words(dir, TT_THREAD_COUNT, TT_PROG_MAX, &kw[0][0], n)) return -1;
  add_prog(w, n, NULL, 0, NULL, 0);
  return 0;
}

static void add_input(const uint8_t *data, size_t n) {
  static fz_prog fp;
  fz_prog_decode(data, n, &fp);
  const uint32_t *w[TT_THREAD_COUNT];
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) w[t] = fp.w[t];
  add_prog(w, fp.n, fp.init, fp.ninit, fp.knob, fz_budget(&fp));
}

/* A bench input file (u32 length + fuzz input, repeated; `func_invariants --bench-inputs`). */
static int load_bench_file(const char *path) {
  size_t n = 0, pos = 0;
  uint8_t *d = fz_slurp(path, &n);
  if (!d) {
    perror(path);
    return -1;
  }
  const uint8_t *rec;
  uint32_t len;
  while (fz_record_next(d, n, &pos, &rec, &len)) add_input(rec, len);
  free(d);
  return nprogs ? 0 : -1;
}

static int add_file(void *ctx, const files_entry *e) {
  (void)ctx;
  if (e->name[0] == '.' || e->is_dir) return 0;  /* this directory only */
  size_t n = 0;
  uint8_t *data = fz_slurp(e->path, &n);
  if (data) {
    add_input(data, n);
    free(data);
  }
  return 0;
}

static void walk_fail(void *ctx, const char *path, const char *name, const char *msg) {
  (void)ctx; (void)name;
  fprintf(stderr, "%s: %s\n", path, msg);
}

/* every file of dir, in a fixed order (sorted), whatever the directory's */
static int load_inputs(const char *dir) {
  files_walker w = {add_file, walk_fail, NULL, 0};
  files_walk(&w, dir);
  return nprogs ? 0 : -1;
}

/* One T0 stream of n instructions: a fixed rotation of forms, operands from a fixed LCG. */
static int load_long(uint32_t n) {
  static uint32_t lw[TT_PROG_MAX];
  uint32_t x = 12345u;
  if (n > TT_PROG_MAX) n = TT_PROG_MAX;
  for (uint32_t i = 0; i < n; i++) {
    char text[160];
    unsigned r[4];
    for (unsigned k = 0; k < 4; k++) {
      x = x * 1103515245u + 12345u;
      r[k] = (x >> 16) & 0x7FFFu;
    }
    switch (i % 8) {
    case 0: snprintf(text, sizeof text, "SETDMAREG_IMM new_value=%u result_half_reg=%u", r[0], 8 + r[1] % 100); break;
    case 1: snprintf(text, sizeof text, "ADDDMAREG_REG result_reg=%u right_reg=%u left_reg=%u", 4 + r[0] % 56, 4 + r[1] % 56, 4 + r[2] % 56); break;
    case 2: snprintf(text, sizeof text, "WRCFG input_reg=%u cfg_index=%u", 4 + r[0] % 56, r[1] % 64); break;
    case 3: snprintf(text, sizeof text, "MULDMAREG_REG result_reg=%u right_reg=%u left_reg=%u", 4 + r[0] % 56, 4 + r[1] % 56, 4 + r[2] % 56); break;
    case 4: snprintf(text, sizeof text, "RDCFG result_reg=%u cfg_index=%u", 4 + r[0] % 56, r[1] % 64); break;
    case 5: snprintf(text, sizeof text, "SUBDMAREG_REG result_reg=%u right_reg=%u left_reg=%u", 4 + r[0] % 56, 4 + r[1] % 56, 4 + r[2] % 56); break;
    case 6: snprintf(text, sizeof text, "SETC16 cfg_index=%u new_value=%u", r[0] % 8, r[1]); break;
    default: snprintf(text, sizeof text, "NOP"); break;
    }
    tt_asm_error err;
    if (tt_asm_insn(text, strlen(text), &lw[i], &err)) {
      fprintf(stderr, "insn_count: --long: \"%s\": %s\n", text, err.msg);
      return -1;
    }
  }
  const uint32_t *w[TT_THREAD_COUNT] = {lw, lw, lw};
  uint32_t cnt[TT_THREAD_COUNT] = {n, 0, 0};
  add_prog(w, cnt, NULL, 0, NULL, 0);
  return 0;
}

/* ---- the phases (each its own function: callgrind's inclusive cost per phase) ---------------- */
__attribute__((noinline)) void bench_reset(void);
__attribute__((noinline)) void bench_load(const prog *p);
__attribute__((noinline)) void bench_run(uint64_t budget);
__attribute__((noinline)) void bench_pass(unsigned reps, int cycle, uint64_t *retired, uint64_t *cycles);

__attribute__((noinline)) void bench_reset(void) { tt_reset(&st); }

__attribute__((noinline)) void bench_load(const prog *p) {
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) st.p.knob[k] = p->knob[k];
  for (uint32_t i = 0; i < p->ninit; i++) tt_loc_set(&st, &inits[p->init_off + i].loc, inits[p->init_off + i].value);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) tt_load_program(&st, t, words + p->off[t], p->n[t]);
}

__attribute__((noinline)) void bench_run(uint64_t budget) { (void)tt_run(&st, budget); }

/* --dut: the implementation under test and its instance */
static const ttdut_ops *dut_ops;
static void *dut;

/* The implementation's run() alone (its own function: what `make bench-dut` counts as run). */
__attribute__((noinline)) void bench_dut_run(uint64_t budget, ttdut_result *r);
__attribute__((noinline)) void bench_dut_run(uint64_t budget, ttdut_result *r) { (void)dut_ops->run(dut, budget, r); }

/* One program through the implementation under test: reset, load, run; adds its issued
 * instructions and cycles. */
__attribute__((noinline)) void bench_dut(const prog *p, int cycle, uint64_t *issued, uint64_t *cycles);
__attribute__((noinline)) void bench_dut(const prog *p, int cycle, uint64_t *issued, uint64_t *cycles) {
  char why[160];
  ttdut_result r;
  memset(&r, 0, sizeof r);
  if (dut_ops->reset(dut, cycle ? TTDUT_MODE_CYCLE : TTDUT_MODE_FUNC, NULL, 0, why, sizeof why) != TTDUT_OK)
    return;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    (void)dut_ops->load(dut, t, words + p->off[t], p->n[t], why, sizeof why);
  bench_dut_run(cycle ? p->budget_cycle : p->budget_func, &r);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) *issued += r.thread[t].issued;
  *cycles += r.cycles;
}

/* REPS passes over every program; outside the phases only the loop and the two sums */
__attribute__((noinline)) void bench_pass(unsigned reps, int cycle, uint64_t *retired, uint64_t *cycles) {
  for (unsigned r = 0; r < reps; r++)
    for (size_t i = 0; i < nprogs; i++) {
      const prog *p = &progs[i];
      if (dut_ops) {
        bench_dut(p, cycle, retired, cycles);
        continue;
      }
      bench_reset();
      bench_load(p);
      bench_run(cycle ? p->budget_cycle : p->budget_func);
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) *retired += st.c.thr[t].retired;
      if (cycle) *cycles += tt_cycle_count(&st);
    }
}

static void warm_up(int cycle) {  /* not collected: a pass whose resets follow nothing */
  uint64_t r = 0, c = 0;
  for (size_t i = 0; i < nprogs && dut_ops; i++) bench_dut(&progs[i], cycle, &r, &c);
  for (size_t i = 0; i < nprogs && !dut_ops; i++) {
    bench_reset();
    bench_load(&progs[i]);
    bench_run(cycle ? progs[i].budget_cycle : progs[i].budget_func);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) r += st.c.thr[t].retired;
    if (cycle) c += tt_cycle_count(&st);
  }
  (void)r;
  (void)c;
}

/* PATH.so: load it (ttdut_entry) and open one instance */
static int open_so(const char *path, const ttdut_ops **ops, void **inst) {
  char why[160] = "";
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  union { void *p; const ttdut_ops *(*f)(void); } u;
  u.p = h ? dlsym(h, TTDUT_ENTRY_SYMBOL) : NULL;
  *ops = u.p ? u.f() : NULL;
  *inst = *ops ? (*ops)->open("", why, sizeof why) : NULL;
  if (*inst) return 0;
  fprintf(stderr, "insn_count: %s: %s\n", path, h ? (*ops ? why : "no ttdut_entry") : dlerror());
  return -1;
}

/* --same-as PATH.so (repeatable): the implementations the streams are made the same for.
 * keep_accepted drops from every stream the words one of them does not accept
 * (ttdut_ops.accepts); keep_same then cuts each program's streams until every one of them runs
 * it the same way: the same outcome and issued count per thread, and no fault (an
 * implementation that stops a thread at a fault it raises does not run the rest of that
 * stream); a program that cannot be made so is dropped. */
typedef struct impl {
  const ttdut_ops *ops;
  void *inst;
} impl;
static impl same_as[4];
static unsigned nsame;

static uint64_t keep_accepted(const impl *m) {
  uint64_t dropped = 0;
  char why[160];
  for (size_t i = 0; i < nprogs; i++)
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      uint32_t *w = words + progs[i].off[t], n = 0;
      for (uint32_t k = 0; k < progs[i].n[t]; k++)
        if (m->ops->accepts(m->inst, w[k], why, sizeof why) == TTDUT_OK) w[n++] = w[k];
      dropped += progs[i].n[t] - n;
      progs[i].n[t] = n;
    }
  return dropped;
}

/* program p on implementation m (functional mode): its outcome and per thread how far it ran
 * the same way (the instructions issued, up to the first fault); 0 when it could not run */
static int run_on(const impl *m, const prog *p, uint32_t rec[1 + TT_THREAD_COUNT]) {
  char why[160];
  ttdut_result r;
  memset(&r, 0, sizeof r);
  if (m->ops->reset(m->inst, TTDUT_MODE_FUNC, NULL, 0, why, sizeof why) != TTDUT_OK) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (m->ops->load(m->inst, t, words + p->off[t], p->n[t], why, sizeof why) != TTDUT_OK) return 0;
  if (m->ops->run(m->inst, p->budget_func, &r) != TTDUT_OK) return 0;
  rec[0] = r.outcome;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const ttdut_thread_result *x = &r.thread[t];
    rec[1 + t] = x->fault != TTDUT_FAULT_NONE && x->fault_index < x->issued ? x->fault_index : x->issued;
    if (x->fault != TTDUT_FAULT_NONE) rec[0] = 0xFFu;  /* not the same until cut before it */
  }
  return 1;
}

/* Cut each thread's stream of p where the first implementation stopped running it the same way
 * (the least of their counts), up to 4 times, until every implementation runs p to the same end
 * with no fault; 1 when it does. */
static int make_same(prog *p) {
  for (unsigned round = 0; round < 4; round++) {  /* bounded: 4 cuts */
    uint32_t first[1 + TT_THREAD_COUNT], rec[1 + TT_THREAD_COUNT], cut[TT_THREAD_COUNT];
    if (!run_on(&same_as[0], p, first)) return 0;
    int same = first[0] != 0xFFu;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) cut[t] = first[1 + t];
    for (unsigned k = 1; k < nsame; k++) {
      if (!run_on(&same_as[k], p, rec)) return 0;
      same &= memcmp(rec, first, sizeof rec) == 0;
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) cut[t] = rec[1 + t] < cut[t] ? rec[1 + t] : cut[t];
    }
    if (same) return 1;
    int changed = 0;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      changed |= cut[t] < p->n[t];
      p->n[t] = cut[t] < p->n[t] ? cut[t] : p->n[t];
    }
    if (!changed) return 0;
  }
  return 0;
}

/* every program made the same (make_same) or dropped; returns the words cut and programs dropped */
static size_t keep_same(uint64_t *cut) {
  size_t kept = 0;
  for (size_t i = 0; i < nprogs; i++) {
    uint32_t before = progs[i].n[0] + progs[i].n[1] + progs[i].n[2];
    if (!make_same(&progs[i])) continue;
    *cut += before - (progs[i].n[0] + progs[i].n[1] + progs[i].n[2]);
    progs[kept++] = progs[i];
  }
  size_t dropped = nprogs - kept;
  nprogs = kept;
  return dropped;
}

/* --same-as PATH: that implementation, or the one under test when it is the same object (ttsim
 * keeps one machine a process) */
static int add_same_as(const char *path, const char *dut_path) {
  impl *m = &same_as[nsame++];
  if (dut_path && strcmp(dut_path, path) == 0) {
    m->ops = dut_ops;
    m->inst = dut;
    return 0;
  }
  return open_so(path, &m->ops, &m->inst);
}

/* the streams made the same for every --same-as implementation, and what that took */
static void same_streams(void) {
  uint64_t wdropped = 0, wcut = 0;
  for (unsigned k = 0; k < nsame; k++) wdropped += keep_accepted(&same_as[k]);
  size_t pdropped = keep_same(&wcut);
  printf("insn_count: same streams: dropped %llu words, cut %llu, dropped %zu programs\n",
         (unsigned long long)wdropped, (unsigned long long)wcut, pdropped);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  unsigned reps = 1;
  int cycle = 0;
  double secs = 0;
  const char *dut_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
      reps = (unsigned)strtoul(argv[++i], NULL, 10);
    } else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc) {
      i++;
      if (strcmp(argv[i], "cycle") == 0) cycle = 1;
      else if (strcmp(argv[i], "func") != 0) goto usage;
    } else if (strcmp(argv[i], "--dut") == 0 && i + 1 < argc) {
      dut_path = argv[++i];
      if (open_so(dut_path, &dut_ops, &dut)) return 2;
    } else if (strcmp(argv[i], "--same-as") == 0 && i + 1 < argc && nsame < 4) {
      if (add_same_as(argv[++i], dut_path)) return 2;
    } else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
      secs = strtod(argv[++i], NULL);
    } else if (strcmp(argv[i], "--inputs") == 0 && i + 1 < argc) {
      if (load_inputs(argv[++i])) return 2;
    } else if (strcmp(argv[i], "--bench-file") == 0 && i + 1 < argc) {
      if (load_bench_file(argv[++i])) return 2;
    } else if (strcmp(argv[i], "--long") == 0 && i + 1 < argc) {
      if (load_long((uint32_t)strtoul(argv[++i], NULL, 10))) return 2;
    } else if (strcmp(argv[i], "--kernels") == 0) {
      for (i++; i < argc && argv[i][0] != '-'; i++)
        if (load_kernel(argv[i])) fprintf(stderr, "insn_count: %s: no trisc*.txt\n", argv[i]);
      i--;
    } else {
      goto usage;
    }
  }
  if (!nprogs || !reps) goto usage;
  if (nsame) same_streams();
  if (!nprogs) goto usage;
  tt_init(&st);
  if (tt_set_mode(&st, cycle ? TT_MODE_CYCLE : TT_MODE_FUNC)) {
    fprintf(stderr, "insn_count: mode not available\n");
    return 2;
  }
  warm_up(cycle);
  uint64_t retired = 0, cycles = 0;
  bench_pass(reps, cycle, &retired, &cycles);
  printf("insn_count: programs %zu reps %u retired %llu cycles %llu\n", nprogs, reps,
         (unsigned long long)retired, (unsigned long long)cycles);
  if (secs > 0 && retired) {
    uint64_t r = 0, c = 0, passes = 0;
    double t0 = now_s(), t1 = t0;
    while (t1 - t0 < secs || !passes) {
      bench_pass(1, cycle, &r, &c);
      passes++;
      t1 = now_s();
    }
    double ns = (t1 - t0) * 1e9;
    printf("insn_count: wall ns/instr %.2f ns/cycle %.2f\n", ns / (double)r, c ? ns / (double)c : 0.0);
  }
  return 0;
usage:
  fprintf(stderr, "usage: insn_count [--reps N] [--mode func|cycle] [--time S] "
                  "[--dut PATH.so] [--same-as PATH.so]... (--kernels DIR... | --inputs DIR | --bench-file FILE | --long N)...\n");
  return 2;
}
