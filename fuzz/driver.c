/* driver.c — the plain `main` every fuzz target is also linked with (fuzz/README.md):
 *
 *   T [--abort] PATH...            replay files (directories recursively). A .vec is read as
 *                                  a program (program targets) or as raw text (text_parsers).
 *                                  A reproducer carrying `# open: NAME` (and `# target: T`) is
 *                                  an open finding: it must still report NAME.
 *   T --minimize IN OUT.vec        shrink a failing input at instruction granularity (NOP
 *                                  masking, then a cut of the prefix into init lines) and
 *                                  write a readable .vec reproducer; prints the invariant name
 *                                  (fz_minimize.c)
 *   T --fire NAME --runs N [--save F] PATH...
 *                                  run the seeds, then N structured mutations of them (fixed
 *                                  seed); exit 0 as soon as NAME is reported
 *   T --matrix PATH...             form x outcome table (markdown) over the inputs
 *   T --name-of PATH               print the invariant a single input reports (or "ok")
 *   T --stats-inputs FILE          one pass over a bench input file, then the target's counters
 * Exit status: 0 when everything expected happened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "fz.h"
#include "fz_records.h"
#include "vec.h"

/* Run one input through the target (a .vec as a program when the target takes programs). */
static fz_prog g_prog;
static int run_input(const char *path, const uint8_t *d, size_t n, fz_fail *f) {
  const fz_target *T = &fz_this_target;
  if (T->check_prog && fz_is_vec_text(path) && fz_prog_from_vec((const char *)d, n, &g_prog) == 0)
    return T->check_prog(&g_prog, f);
  return T->check_bytes(d, n, f);
}

/* Does the input report `name`? The target's own test when it has one (a witness target can
 * show several names at once), else the first name it reports. */
static int input_reports(const char *path, const uint8_t *d, size_t n, const char *name, fz_fail *f) {
  const fz_target *T = &fz_this_target;
  if (T->reports && T->check_prog) {
    fz_load_prog(path, d, n, &g_prog);
    return T->reports(&g_prog, name);
  }
  return run_input(path, d, n, f) && strcmp(f->name, name) == 0;
}


/* ---- replay ----------------------------------------------------------------------------------- */
static int replay(int argc, char **argv, int abort_on_fail) {
  const fz_target *T = &fz_this_target;
  fz_paths l = {0};
  static fz_fail f;
  for (int i = 0; i < argc; i++) fz_paths_collect(&l, argv[i], NULL);
  unsigned ok = 0, open_ok = 0, bad = 0, wit = 0;
  for (size_t i = 0; i < l.n; i++) {
    size_t n = 0;
    uint8_t *d = fz_read_file(l.path[i], &n);
    if (!d) { fprintf(stderr, "driver: cannot read %s\n", l.path[i]); bad++; continue; }
    char open_name[64] = "", target[64] = "", wit_name[96] = "";
    int has_open = fz_header_value(d, n, "open", open_name, sizeof open_name);
    int other_target = fz_header_value(d, n, "target", target, sizeof target) && strcmp(target, T->name) != 0;
    int is_open = has_open && !other_target;
    int is_wit = fz_header_value(d, n, "witness", wit_name, sizeof wit_name) && !other_target;
    if (is_wit) {  /* a kept witness (ambiguity_diff): it must still show its reading */
      if (input_reports(l.path[i], d, n, wit_name, &f)) {
        wit++;
      } else {
        bad++;
        printf("FAIL %s: witness '%s' no longer shown: the readings now agree on it (regenerate "
               "with `make amb-witnesses`)\n", l.path[i], wit_name);
      }
      free(d);
      free(l.path[i]);
      continue;
    }
    int failed = run_input(l.path[i], d, n, &f);
    if (has_open && other_target && failed) {
      /* an open finding of another target: the bug it shows may be seen here too; it must
       * pass here once the `open:` line goes with the fix */
      open_ok++;
      printf("open %s: finding '%s' of %s, seen here as %s\n", l.path[i], open_name, target, f.name);
    } else if (is_open) {
      if (failed && (strcmp(f.name, open_name) == 0 || input_reports(l.path[i], d, n, open_name, &f))) {
        open_ok++;
      } else {
        bad++;
        printf("FAIL %s: open finding '%s' no longer reported (%s): if the model was fixed, "
               "delete the `# open:` line\n", l.path[i], open_name, failed ? f.name : "passes");
      }
    } else if (failed && T->witnesses && strncmp(f.name, "AMB-", 4) == 0) {
      wit++;  /* a witness is a finding to keep, not a failure (other names are failures) */
    } else if (failed) {
      bad++;
      printf("FAIL %s: INVARIANT %s: %s\n%s", l.path[i], f.name, f.msg, f.detail);
      if (abort_on_fail) { fflush(stdout); fz_die(&f); }
    } else {
      ok++;
    }
    free(d);
    free(l.path[i]);
  }
  free(l.path);
  if (T->witnesses)
    printf("replay %s: %u inputs, %u ok, %u witnesses (kept findings, not failures), %u FAILED\n",
           T->name, ok + open_ok + wit + bad, ok, wit, bad);
  else
    printf("replay %s: %u inputs, %u ok, %u open findings still reported, %u FAILED\n", T->name,
           ok + open_ok + bad, ok, open_ok, bad);
  return bad ? 1 : 0;
}

/* ---- fire ------------------------------------------------------------------------------------- */
static void save(const char *path, const uint8_t *d, size_t n) {
  if (!path) return;
  FILE *o = fopen(path, "wb");
  if (!o) return;
  fwrite(d, 1, n, o);
  fclose(o);
}

/* Names of other invariants seen on the way (up to 32, each once). */
typedef struct fz_others { const char *name[32]; unsigned n; } fz_others;

static void note_other(fz_others *o, const char *nm) {
  unsigned k = 0;
  while (k < o->n && strcmp(o->name[k], nm) != 0) k++;
  if (k == o->n && o->n < 32) o->name[o->n++] = nm;
}

/* One to four mutations of buf[0..n): the program mutator for program targets; for word
 * targets a random word, a flipped bit or another opcode in one word. Returns the new length. */
static size_t fire_mutate(uint8_t *buf, size_t n, size_t cap, uint64_t *rng) {
  unsigned k = 1 + (unsigned)(fz_rand(rng) % 4);
  for (unsigned m = 0; m < k; m++) {
    if (fz_this_target.program_input) {
      n = fz_mutate(buf, n, cap, (unsigned)fz_rand(rng));
    } else if (n >= 4) {
      size_t at = 4 * (size_t)(fz_rand(rng) % (n / 4));
      uint32_t w = (uint32_t)buf[at] | (uint32_t)buf[at+1] << 8 | (uint32_t)buf[at+2] << 16 | (uint32_t)buf[at+3] << 24;
      switch (fz_rand(rng) % 3) {
      case 0: w = fz_random_insn(rng); break;
      case 1: w ^= 1u << (fz_rand(rng) % 32); break;
      default: w = (w & 0x00FFFFFFu) | (uint32_t)tt_isa_mnems[fz_rand(rng) % TT_MNEM_COUNT].opcode << 24; break;
      }
      for (unsigned b = 0; b < 4; b++) buf[at + b] = (uint8_t)(w >> (8 * b));
    }
  }
  return n;
}

static int fire(const char *name, unsigned long runs, const char *save_path, int argc, char **argv) {
  const fz_target *T = &fz_this_target;
  fz_paths l = {0};
  static fz_fail f;
  static uint8_t buf[FZ_MAX_INPUT];
  for (int i = 0; i < argc; i++) fz_paths_collect(&l, argv[i], NULL);
  uint8_t **seed = calloc(l.n + 1, sizeof *seed);
  size_t *seed_n = calloc(l.n + 1, sizeof *seed_n), ns = 0;
  static fz_others others;
  for (size_t i = 0; i < l.n; i++) {
    size_t n = 0;
    uint8_t *d = fz_read_file(l.path[i], &n);
    if (!d) continue;
    if (T->program_input) {  /* seeds as binary programs, so mutations apply */
      fz_load_prog(l.path[i], d, n, &g_prog);
      n = fz_prog_encode(&g_prog, buf, sizeof buf);
      d = realloc(d, n ? n : 1);
      memcpy(d, buf, n);
    }
    seed[ns] = d;
    seed_n[ns++] = n;
    if (T->check_bytes(d, n, &f)) {
      if (strcmp(f.name, name) == 0) {
        printf("fire %s: %s reported by seed %s (0 mutations)\n", T->name, name, l.path[i]);
        save(save_path, d, n);
        return 0;
      }
      note_other(&others, f.name);
    }
  }
  if (!ns) { fprintf(stderr, "fire: no seeds\n"); return 2; }
  uint64_t rng = 0x5EED;
  for (unsigned long r = 1; r <= runs; r++) {
    size_t j = (size_t)(fz_rand(&rng) % ns), n = seed_n[j];
    memcpy(buf, seed[j], n);
    n = fire_mutate(buf, n, sizeof buf, &rng);
    if (T->check_bytes(buf, n, &f)) {
      if (strcmp(f.name, name) == 0) {
        printf("fire %s: %s reported after %lu mutated inputs\n", T->name, name, r);
        save(save_path, buf, n);
        return 0;
      }
      note_other(&others, f.name);
    }
  }
  printf("fire %s: %s NOT reported in %zu seeds + %lu mutated inputs", T->name, name, ns, runs);
  for (unsigned k = 0; k < others.n; k++) printf("%s%s", k ? ", " : "; others seen: ", others.name[k]);
  printf("\n");
  return 1;
}

/* ---- form x outcome matrix ------------------------------------------------------------------ */
enum { OC_OK, OC_UNDEF, OC_UNPRED, OC_NONCON, OC_UNSUP, OC_UNIMPL, OC_LATCH, OC_MUTEX,
       OC_MUTEX_INV, OC_RETRY, OC_COUNT };
static const char *const oc_name[OC_COUNT] = {"retired", "undefined", "unpredictable",
    "noncontractual", "unsupported", "unimplemented", "held:latch", "held:mutex",
    "held:no-such-mutex", "retry:atomic"};

/* What thread t's step did to its instruction: retired, with a new fault of class new_cls, or
 * held (by what). */
static unsigned step_outcome(const tt_state *st, unsigned t, uint32_t pc, uint32_t fc, unsigned new_cls) {
  if (st->c.thr[t].pc != pc) return st->c.thr[t].fault_count != fc ? new_cls : OC_OK;
  switch (st->c.thr[t].wait_kind) {
  case TT_WAIT_LATCH: return OC_LATCH;
  case TT_WAIT_MUTEX: return OC_MUTEX;
  case TT_WAIT_MUTEX_INVALID: return OC_MUTEX_INV;
  case TT_WAIT_ATCAS: case TT_WAIT_ATINCGETPTR: return OC_RETRY;
  default: return OC_LATCH;
  }
}

/* Run g_prog on st one step at a time, counting each thread's instruction form by outcome. */
static tt_outcome matrix_run(tt_state *st, uint64_t m[][OC_COUNT]) {
  fz_setup(st, &g_prog);
  uint64_t budget = fz_budget(&g_prog);
  for (uint64_t r = 0; r < budget; r++) {
    int all = 1;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) all &= tt_thread_done(st, t);
    if (all) return TT_OUT_DONE;
    uint32_t pc[3], fc[3], cls0[TT_FAULT_CLASS_COUNT];
    uint16_t form[3];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      pc[t] = st->c.thr[t].pc;
      fc[t] = st->c.thr[t].fault_count;
      tt_insn in;
      tt_decode(pc[t] < st->c.thr[t].len ? st->prog[t][pc[t]] : FZ_NOP, &in);
      form[t] = in.form;
    }
    memcpy(cls0, st->c.fault_counts, sizeof cls0);
    int changed = tt_step(st);
    unsigned new_cls = OC_OK;
    for (unsigned c = 1; c < TT_FAULT_CLASS_COUNT; c++)
      if (st->c.fault_counts[c] != cls0[c]) new_cls = c;  /* classes 1..5 = OC_UNDEF.. */
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      if (pc[t] < st->c.thr[t].len) m[form[t]][step_outcome(st, t, pc[t], fc[t], new_cls)]++;
    if (!changed) return TT_OUT_DEADLOCK;
  }
  return TT_OUT_BUDGET;
}

static void matrix_print(uint64_t m[][OC_COUNT], const uint64_t outcomes[4], size_t nprogs) {
  printf("| form |");
  for (unsigned c = 0; c < OC_COUNT; c++) printf(" %s |", oc_name[c]);
  printf("\n|---|");
  for (unsigned c = 0; c < OC_COUNT; c++) printf("---:|");
  printf("\n");
  unsigned empty = 0;
  for (unsigned fm = 0; fm < TT_FORM_COUNT; fm++) {
    uint64_t sum = 0;
    for (unsigned c = 0; c < OC_COUNT; c++) sum += m[fm][c];
    if (!sum) empty++;
    printf("| %s |", tt_form_name(fm));
    for (unsigned c = 0; c < OC_COUNT; c++) {
      if (m[fm][c]) printf(" %llu |", (unsigned long long)m[fm][c]);
      else printf(" · |");
    }
    printf("\n");
  }
  printf("\n%zu programs: %llu done, %llu deadlock, %llu budget; %u of %u forms never issued or held.\n",
         nprogs, (unsigned long long)outcomes[TT_OUT_DONE], (unsigned long long)outcomes[TT_OUT_DEADLOCK],
         (unsigned long long)outcomes[TT_OUT_BUDGET], empty, (unsigned)TT_FORM_COUNT);
}

static int matrix(int argc, char **argv) {
  static tt_state st;
  static uint64_t m[TT_FORM_COUNT][OC_COUNT];
  uint64_t outcomes[4] = {0, 0, 0, 0};
  fz_paths l = {0};
  tt_init(&st);
  for (int i = 0; i < argc; i++) fz_paths_collect(&l, argv[i], NULL);
  for (size_t i = 0; i < l.n; i++) {
    size_t n = 0;
    uint8_t *d = fz_read_file(l.path[i], &n);
    if (!d) continue;
    fz_load_prog(l.path[i], d, n, &g_prog);
    free(d);
    outcomes[matrix_run(&st, m)]++;
  }
  matrix_print(m, outcomes, l.n);
  return 0;
}

/* ---- bench inputs: N records (u32 length + bytes) from the seeds ---------------------------- */
static int bench_inputs(unsigned long count, unsigned max_per_thread, int full, const char *out,
                        int argc, char **argv) {
  const fz_target *T = &fz_this_target;
  fz_paths l = {0};
  static uint8_t buf[FZ_MAX_INPUT];
  for (int i = 0; i < argc; i++) fz_paths_collect(&l, argv[i], NULL);
  if (!l.n) return 2;
  FILE *o = fopen(out, "wb");
  if (!o) return 2;
  uint64_t rng = 0xBE4C4;
  unsigned long total_insn = 0;
  for (unsigned long k = 0; k < count; k++) {
    const char *path = l.path[k % l.n];
    size_t n = 0;
    uint8_t *d = fz_read_file(path, &n);
    if (!d) continue;
    if (T->program_input && full) {   /* exactly max_per_thread random instructions per thread */
      fz_prog_clear(&g_prog);
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
        g_prog.n[t] = max_per_thread;
        for (unsigned i = 0; i < max_per_thread; i++) g_prog.w[t][i] = fz_random_insn(&rng);
      }
      total_insn += fz_total(&g_prog);
      n = fz_prog_encode(&g_prog, buf, sizeof buf);
    } else if (T->program_input) {
      fz_load_prog(path, d, n, &g_prog);
      n = fz_prog_encode(&g_prog, buf, sizeof buf);
      for (unsigned m = 0; m < 1 + fz_rand(&rng) % 4; m++) n = fz_mutate(buf, n, sizeof buf, (unsigned)fz_rand(&rng));
      fz_prog_decode(buf, n, &g_prog);
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
        if (g_prog.n[t] > max_per_thread) g_prog.n[t] = max_per_thread;
      total_insn += fz_total(&g_prog);
      n = fz_prog_encode(&g_prog, buf, sizeof buf);
    } else if (T->check_prog) {  /* words: up to 64, from the encoding table */
      n = 4u * (1u + (unsigned)(fz_rand(&rng) % 64));
      for (size_t i = 0; i < n; i += 4) {
        uint32_t w = fz_random_insn(&rng);
        for (unsigned b = 0; b < 4; b++) buf[i + b] = (uint8_t)(w >> (8 * b));
      }
    } else {
      if (n > sizeof buf) n = sizeof buf;
      memcpy(buf, d, n);
    }
    free(d);
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    fwrite(len, 1, 4, o);
    fwrite(buf, 1, n, o);
  }
  fclose(o);
  if (T->program_input)
    fprintf(stderr, "bench inputs: %lu, %.1f instructions per input on average\n", count,
            (double)total_insn / (double)count);
  return 0;
}

/* ---- uninstrumented speed: loop over a bench input file for `secs` seconds ---------------- */
#include <time.h>
/* --time: execs per second of this process's CPU time (the bench machine may be shared) */
static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int time_inputs(double secs, const char *path) {
  size_t n = 0, pos = 0;
  uint8_t *d = fz_read_file(path, &n);
  static fz_fail f;
  if (!d) return 2;
  unsigned long execs = 0;
  double t0 = cpu_s(), t = t0;
  while (t - t0 < secs) {
    for (int k = 0; k < 256; k++) {
      const uint8_t *rec;
      uint32_t len;
      if (!fz_record_cycle(d, n, &pos, &rec, &len)) { free(d); fprintf(stderr, "%s: no input record\n", path); return 2; }
      uint8_t *copy = malloc(len ? len : 1);   /* as the engines do: an exactly-sized copy */
      memcpy(copy, rec, len);
      /* a witness target's witnesses are findings to keep, not failures */
      if (fz_this_target.check_bytes(copy, len, &f) &&
          !(fz_this_target.witnesses && strncmp(f.name, "AMB-", 4) == 0))
        fz_die(&f);
      free(copy);
      execs++;
    }
    t = cpu_s();
  }
  printf("%.0f\n", (double)execs / (t - t0));
  free(d);
  return 0;
}

/* One pass over a bench input file (length-prefixed inputs), then the target's counters. */
static int stats_inputs(const char *path) {
  size_t n = 0, pos = 0;
  uint8_t *d = fz_read_file(path, &n);
  static fz_fail f;
  unsigned long execs = 0, failed = 0;
  if (!d) return 2;
  const uint8_t *rec;
  uint32_t len;
  while (fz_record_next(d, n, &pos, &rec, &len)) {
    failed += (unsigned long)(fz_this_target.check_bytes(rec, len, &f) != 0);
    execs++;
  }
  free(d);
  char buf[512] = "no counters";
  if (fz_this_target.stats) fz_this_target.stats(buf, sizeof buf);
  printf("%s: %lu inputs (%lu failed): %s\n", fz_this_target.name, execs, failed, buf);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  fz_profile_args(&argc, &argv);
  fz_this_target.init();
  if (argc >= 3 && strcmp(argv[1], "--stats-inputs") == 0) return stats_inputs(argv[2]);
  if (argc >= 4 && strcmp(argv[1], "--time") == 0) return time_inputs(strtod(argv[2], NULL), argv[3]);
  if (argc >= 6 && (strcmp(argv[1], "--bench-inputs") == 0 || strcmp(argv[1], "--bench-inputs-full") == 0))
    return bench_inputs(strtoul(argv[2], NULL, 0), (unsigned)strtoul(argv[3], NULL, 0),
                        strcmp(argv[1], "--bench-inputs-full") == 0, argv[4], argc - 5, argv + 5);
  if (argc >= 4 && strcmp(argv[1], "--minimize") == 0) return fz_minimize(argv[2], argv[3]);
  if (argc >= 2 && strcmp(argv[1], "--matrix") == 0) return matrix(argc - 2, argv + 2);
  if (argc >= 3 && strcmp(argv[1], "--name-of") == 0) {
    size_t n = 0;
    static fz_fail f;
    uint8_t *d = fz_read_file(argv[2], &n);
    if (!d) return 2;
    printf("%s\n", run_input(argv[2], d, n, &f) ? f.name : "ok");
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "--invariants") == 0) {
    for (const char *const *p = fz_this_target.invariants; *p; p++) printf("%s\n", *p);
    return 0;
  }
  if (argc >= 5 && strcmp(argv[1], "--fire") == 0 && strcmp(argv[3], "--runs") == 0) {
    const char *save_path = NULL;
    int first = 5;
    if (argc >= 7 && strcmp(argv[5], "--save") == 0) { save_path = argv[6]; first = 7; }
    return fire(argv[2], strtoul(argv[4], NULL, 0), save_path, argc - first, argv + first);
  }
  int abort_on_fail = argc >= 2 && strcmp(argv[1], "--abort") == 0;
  if (argc < 2 + abort_on_fail) {
    fprintf(stderr, "usage: %s [--abort] PATH... | --minimize IN OUT.vec | --fire NAME --runs N [--save F] PATH...\n"
                    "       | --matrix PATH... | --name-of PATH | --invariants\n", argv[0]);
    return 2;
  }
  return replay(argc - 1 - abort_on_fail, argv + 1 + abort_on_fail, abort_on_fail);
}
