/* fz.h — shared pieces of the tensix-harness fuzz targets (fuzz/README.md).
 *
 * Every target is one property in one file, linked three ways from the same source:
 *   libFuzzer  (clang -fsanitize=fuzzer)                    -> LLVMFuzzerTestOneInput
 *   AFL++      (afl-clang-fast -fsanitize=fuzzer, its driver) -> LLVMFuzzerTestOneInput
 *   replay     (fuzz/driver.c: replay, minimize, fire, matrix) -> fz_target
 * A target checks its property without aborting (fz_target.check_*), so the driver can collect,
 * minimise and keep known-open findings; LLVMFuzzerTestOneInput turns a failure into the one
 * stable abort message `INVARIANT <name>: <what>` (triage buckets by <name>).
 *
 * Structured input (program targets): per-thread instruction streams, initial-state records
 * and run parameters taken from a fixed-size tail:
 *
 *   [init records: ninit x 8 bytes][words t0: n0 x 4][words t1: n1 x 4][words t2: rest x 4][tail]
 *   tail (FZ_TAIL = 10 bytes, little-endian):
 *     u16 n0, u16 n1     instruction counts of t0 and t1 (clamped to what the body holds;
 *                        t2 takes every remaining whole word, at most FZ_MAX_INSN)
 *     u8  ninit          initial-state records at the start of the body (at most FZ_MAX_INIT)
 *     u8  flags          bit 0 deep checks (replay); bits 1..6: knobs 16..21 take value 1;
 *                        bit 7: func_invariants also checks the program in cycle mode
 *     u16 knobs          bit k: knob k (0..15) takes its value 1 (value 0 = the model's default)
 *     u16 budget         scheduler rounds; 0 = default (4 * instructions + 16, enough to end)
 *   init record: u8 (kind | sel << 4), u24 index (L1 byte address, MMIO offset from
 *     0xFFB00000, or register index), u32 value. Records that name no location are ignored.
 *   knob record (kind 15, an init kind that names no location): u24 index = knob number,
 *     u32 value = the knob's value index. It overrides the knob bits, so every value of every
 *     knob is representable (the bits reach only value 1 of knobs 0..21). The encoder writes
 *     bits where they suffice and records otherwise; records count in ninit.
 *   profile record (kind 15, index FZ_PROFILE_RECORD): u32 value = a profile (model/profiles.def:
 *     0 isa, 1 p150): every knob takes that profile's value; later records apply on top.
 *   Every input's knobs start from the process's profile (--profile NAME, or FZ_PROFILE=NAME;
 *   isa by default): the bits and records apply on top of it.
 *   An input shorter than the tail is all body with default parameters (t2 gets every word).
 * Any byte string is a valid input. */
#ifndef FZ_H
#define FZ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "tt.h"

#define FZ_MAX_INSN 512u
#define FZ_MAX_INIT 64u
#define FZ_TAIL 10u
#define FZ_INIT_SIZE 8u
#define FZ_NOP 0x02000000u
#define FZ_F_DEEP 0x01u
#define FZ_F_CYCLE 0x80u   /* func_invariants: also check the program in cycle mode */
#define FZ_MAX_INPUT (FZ_MAX_INIT * FZ_INIT_SIZE + 3u * FZ_MAX_INSN * 4u + FZ_TAIL)

typedef struct fz_init {
  tt_loc loc;
  uint32_t value;
} fz_init;

#define FZ_KNOB_RECORD 15u
#define FZ_KNOB_BITS 22u   /* knobs 0..21 have a bit for value 1 */
#define FZ_PROFILE_RECORD 0xFFFFFFu   /* knob record index that selects a whole profile */

typedef struct fz_prog {
  uint32_t n[TT_THREAD_COUNT];
  uint32_t w[TT_THREAD_COUNT][FZ_MAX_INSN];
  uint32_t ninit;
  fz_init init[FZ_MAX_INIT];
  uint8_t knob[TT_KNOB_COUNT];   /* value index per knob (0 = the model's default) */
  uint16_t budget;
  uint8_t flags;                 /* FZ_F_DEEP, FZ_F_CYCLE (the knob bits live in knob[]) */
} fz_prog;

/* Harness bookkeeping (shadow copies, per-round comparisons, digests, race predicates) is not
 * compiled with coverage or comparison tracing: those edges guide no search, and tracing them
 * cost more than half of a libFuzzer execution. The model's own code stays instrumented. */
#ifndef FZ_BOOKKEEPING   /* -DFZ_BOOKKEEPING= instruments it again (bench comparison) */
#if defined(__clang__)
#define FZ_BOOKKEEPING __attribute__((no_sanitize("coverage")))
#else
#define FZ_BOOKKEEPING
#endif
#endif

/* FZ_STATE_READER: FZ_BOOKKEEPING, and not ASan-checked either. Only for the loops that read
 * whole copies of the state (fz_same, the digest's mixer): their ranges are sizeof()s of the
 * harness's own arrays and of tt_state's fields, or the model's fixed granules. ASan checks
 * every load of them (several per word) and keeps them from being vectorised: in an
 * ASan+UBSan campaign fz_same took 30% of the time before this (fuzz/README.md). */
#ifndef FZ_STATE_READER
#if defined(__clang__)
#define FZ_STATE_READER __attribute__((no_sanitize("coverage", "address")))
#else
#define FZ_STATE_READER
#endif
#endif

/* n bytes at a and b are equal. The harness compares state with this, not memcmp: under
 * libFuzzer every memcmp that finds a difference goes through the engine's interceptor
 * (a table insert of up to 64 bytes per call), and the comparison of two copies of the state
 * tells the search nothing. Branch-free over whole words (vectorised); FZ_STATE_READER. */
#if defined(__clang__) || defined(__GNUC__)
typedef uint64_t fz_v2 __attribute__((vector_size(16)));   /* written out: -O1 builds do not vectorise */
#endif
FZ_STATE_READER static inline int fz_same(const void *a, const void *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  size_t i = 0;
  uint64_t acc = 0;
#if defined(__clang__) || defined(__GNUC__)
  fz_v2 v0 = {0, 0}, v1 = {0, 0}, v2 = {0, 0}, v3 = {0, 0};
  for (; i + 64 <= n; i += 64) {
    fz_v2 p[4], q[4];
    __builtin_memcpy(p, x + i, 64);
    __builtin_memcpy(q, y + i, 64);
    v0 |= p[0] ^ q[0];
    v1 |= p[1] ^ q[1];
    v2 |= p[2] ^ q[2];
    v3 |= p[3] ^ q[3];
  }
  v0 |= v1 | v2 | v3;
  acc = v0[0] | v0[1];
#endif
  for (; i + 8 <= n; i += 8) {
    uint64_t u, v;
    __builtin_memcpy(&u, x + i, 8);
    __builtin_memcpy(&v, y + i, 8);
    acc |= u ^ v;
  }
  for (; i < n; i++) acc |= (uint64_t)(x[i] ^ y[i]);
  return acc == 0;
}

/* ---- the small architectural state, held as a copy ------------------------------------ *
 * GPRs, both Config banks, ThreadConfig, semaphores, mutexes and their hand-overs, every
 * thread's pc and latch: what fz_digest covers besides fz_digest_rest. A copy compared with
 * fz_same is exact where a digest is a hash, and several times cheaper than hashing it
 * (func_invariants' per-round shadow, cycle_vs_func's deadlock oracle). */
typedef struct fz_small {
  uint32_t gpr[TT_THREAD_COUNT][TT_GPR_COUNT];
  uint32_t cfg[TT_CFG_BANK_COUNT][TT_CFG_WORD_COUNT];
  uint16_t tcfg[TT_THREAD_COUNT][TT_TCFG_WORD_COUNT];
  uint8_t sem_value[TT_SEM_COUNT], sem_max[TT_SEM_COUNT];
  uint8_t mutex[TT_MUTEX_SLOTS];
  uint8_t mutex_handoff[TT_MUTEX_SLOTS];
  tt_latch latch[TT_THREAD_COUNT];
  uint32_t pc[TT_THREAD_COUNT];
} fz_small;
FZ_BOOKKEEPING static inline void fz_small_take(fz_small *s, const tt_state *st) {
  memcpy(s->gpr, st->c.gpr, sizeof s->gpr);
  memcpy(s->cfg, st->c.cfg, sizeof s->cfg);
  memcpy(s->tcfg, st->c.tcfg, sizeof s->tcfg);
  memcpy(s->sem_value, st->c.sem_value, sizeof s->sem_value);
  memcpy(s->sem_max, st->c.sem_max, sizeof s->sem_max);
  memcpy(s->mutex, st->c.mutex, sizeof s->mutex);
  memcpy(s->mutex_handoff, st->c.mutex_handoff, sizeof s->mutex_handoff);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    s->latch[t] = st->c.thr[t].latch;
    s->pc[t] = st->c.thr[t].pc;
  }
}
/* The held locations other than pc and latch equal the state's. */
FZ_BOOKKEEPING static inline int fz_small_locations_same(const fz_small *s, const tt_state *st) {
  return fz_same(s->gpr, st->c.gpr, sizeof s->gpr) & fz_same(s->cfg, st->c.cfg, sizeof s->cfg) &
         fz_same(s->tcfg, st->c.tcfg, sizeof s->tcfg) &
         fz_same(s->sem_value, st->c.sem_value, sizeof s->sem_value) &
         fz_same(s->sem_max, st->c.sem_max, sizeof s->sem_max) &
         fz_same(s->mutex, st->c.mutex, sizeof s->mutex) &
         fz_same(s->mutex_handoff, st->c.mutex_handoff, sizeof s->mutex_handoff);
}
FZ_BOOKKEEPING static inline int fz_small_same(const fz_small *s, const tt_state *st) {
  if (!fz_small_locations_same(s, st)) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (s->pc[t] != st->c.thr[t].pc || !fz_same(&s->latch[t], &st->c.thr[t].latch, sizeof s->latch[t]))
      return 0;
  return 1;
}

/* ---- input codec (fz_input.c) --------------------------------------------------------- */
void fz_prog_clear(fz_prog *p);
void fz_prog_decode(const uint8_t *d, size_t n, fz_prog *p);
/* Encode into out (at most max bytes; instructions are dropped from the end of the longest
 * thread until it fits). Returns the size. */
size_t fz_prog_encode(const fz_prog *p, uint8_t *out, size_t max);
int fz_init_valid(const tt_loc *loc, uint32_t *value);   /* masks value; 0 = not a location */
/* Append the init record loc = value to p: 1 appended, 0 p's init list is full, -1 not a
 * location an init record can set (the minimisers' prefix cuts). */
int fz_init_append(fz_prog *p, const tt_loc *loc, uint32_t value);
uint64_t fz_budget(const fz_prog *p);
/* The minimisers' edits: remove thread t's instruction i; one NOP-masking pass (each thread's
 * instructions, last first: a non-NOP becomes NOP when keep() still holds with it so, else it
 * is put back). fz_nop_pass returns 1 if it masked any. */
void fz_prog_drop_insn(fz_prog *p, unsigned t, uint32_t i);
int fz_nop_pass(fz_prog *p, int (*keep)(const fz_prog *p));
/* A prefix cut: `at` is the state a prefix of p left, `ref` the reset state of out (its knobs
 * and flags as the caller set them). out gets an init line for each location where they differ
 * and, per thread, p's stream from at's pc on. 0 when out's init list is full, or (with
 * all_settable) a difference is not a location an init line can set; else such differences are
 * left out. */
int fz_cut_rest(const fz_prog *p, const tt_state *ref, const tt_state *at, int all_settable,
                fz_prog *out);
/* Value index of knob k (0 = default); fz_knob_put clamps to the knob's values. */
unsigned fz_knob_get(const fz_prog *p, unsigned k);
void fz_knob_put(fz_prog *p, unsigned k, unsigned value);
/* The process's profile: select by name (0, or -1 unknown); its name; take `--profile NAME`,
 * `--profile=NAME` (or FZ_PROFILE=NAME) out of argv and select it (exit 2 when unknown). */
int fz_profile_select(const char *name);
const char *fz_profile_name(void);
void fz_profile_args(int *argc, char ***argv);
/* tt_reset, knobs, init records, programs: the state right before tt_run. */
void fz_setup(tt_state *st, const fz_prog *p);
uint32_t fz_total(const fz_prog *p);
/* A fast digest of the architectural state (what tt_digest covers: small state word-wise,
 * written L1/MMIO granules order-independently). tt_digest hashes byte by byte (~8 us per
 * call here); the targets use this one per input and tt_digest in deep/replay checks. */
uint64_t fz_digest(const tt_state *st);
/* The part of fz_digest outside the small state a target can shadow word for word (GPRs,
 * Config, ThreadConfig, semaphores, mutexes and hand-overs, each thread's pc and latch): the
 * threads' fault records, PRNG/I-cache/context-counter side effects, the written L1/MMIO
 * granules and the Src stub. fz_digest(st) covers the small state and this. */
uint64_t fz_digest_rest(const tt_state *st);
/* The digests' mixing step: h and n bytes at p (n a multiple of 4) to a new 64-bit hash. */
uint64_t fz_mix(uint64_t h, const void *p, size_t n);

/* .vec <-> fz_prog. fz_prog_from_vec returns 0, or -1 when text is not a parseable vector. */
int fz_prog_from_vec(const char *text, size_t len, fz_prog *p);
/* Write p as a .vec (NUL-terminated, at most n bytes); header lines are '#' comments given
 * by the caller (may be NULL). Returns the length, or 0 if it did not fit. */
size_t fz_prog_to_vec(const fz_prog *p, const char *name, const char *header, char *out,
                      size_t n);

/* ---- failures ----------------------------------------------------------------------------- */
/* What an invariant required, in terms a conformance vector can check (the minimiser turns it
 * into `expect` lines, so a reproducer fails on the model that has the bug and passes on one
 * without it; fuzz/README.md "Reproducers"). */
typedef enum fz_req_kind {
  FZ_REQ_NONE = 0,      /* not expressible as final-state expectations (req_why says why) */
  FZ_REQ_AFTER_ROUND,   /* expect[] holds once the failing round is over: the reproducer's
                           streams end with that round, so it holds at the end of the run */
  FZ_REQ_PROGRESS,      /* thread end states by the documented progress rule (a round that
                           neither issues nor forgets a latch is a fixed point) */
  FZ_REQ_BUDGET         /* tt_run(B) stops after exactly B rounds: the state after B rounds */
} fz_req_kind;
enum { FZ_EX_LOC, FZ_EX_DONE, FZ_EX_BLOCKED, FZ_EX_DEADLOCK, FZ_EX_FAULT /* value: class */ };
typedef struct fz_expect {
  uint8_t kind;              /* FZ_EX_* */
  uint8_t thread;            /* DONE, BLOCKED, FAULT */
  tt_loc loc;                /* LOC */
  uint32_t value;            /* LOC (mutex: 0 none, 1 + t) */
} fz_expect;
#define FZ_MAX_EXPECT 24u

typedef struct fz_fail {
  const char *name;          /* invariant name: a stable identifier */
  char msg[400];             /* what was expected and what happened, one line */
  char detail[3000];         /* optional multi-line detail (state change of the round) */
  uint64_t round;            /* scheduler round where it fired (program targets) */
  int has_round;
  uint8_t req;               /* fz_req_kind */
  unsigned nexpect;
  fz_expect expect[FZ_MAX_EXPECT];
  char req_why[200];         /* FZ_REQ_NONE: why no expectation can be written */
} fz_fail;

int fz_failf(fz_fail *f, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void fz_detailf(fz_fail *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void fz_die(const fz_fail *f);
/* Record a requirement (FZ_REQ_AFTER_ROUND): location = value, thread blocked. */
void fz_require_loc(fz_fail *f, unsigned kind, unsigned sel, uint32_t index, uint32_t value);
void fz_require_blocked(fz_fail *f, unsigned thread);
void fz_require_none(fz_fail *f, const char *why);
/* Clear a record before a check: the header fields and the strings' first bytes (what
 * fz_failf, fz_detailf and fz_require_* read), not all 4 KiB of it per input. */
FZ_BOOKKEEPING static inline void fz_fail_clear(fz_fail *f) {
  f->name = NULL;
  f->msg[0] = f->detail[0] = f->req_why[0] = 0;
  f->round = 0;
  f->has_round = 0;
  f->req = FZ_REQ_NONE;
  f->nexpect = 0;
}
#define FZ_CHECK(f, cond, name, ...)                                                        \
  do {                                                                                      \
    if (!(cond)) return fz_failf((f), (name), __VA_ARGS__);                                 \
  } while (0)

/* ---- the target a binary was built from ------------------------------------------------- */
typedef struct fz_target {
  const char *name;
  const char *const *invariants;   /* NULL-terminated list of the names it can report */
  int program_input;               /* 1: inputs are fz_prog encodings (structured mutator) */
  int (*check_bytes)(const uint8_t *d, size_t n, fz_fail *f);   /* 0 ok, 1 failed */
  int (*check_prog)(const fz_prog *p, fz_fail *f);              /* program targets */
  void (*init)(void);              /* once per process (LLVMFuzzerInitialize, driver main) */
  void (*stats)(char *buf, size_t n); /* optional: counters since start (driver --stats) */
  int witnesses;                   /* 1: a reported name is a witness to keep, not a failure
                                      (ambiguity_diff): replay counts it, --abort ignores it */
  int (*reports)(const fz_prog *p, const char *name); /* optional: does p report `name`
                                      (not only the first name)? used by replay and --minimize */
  /* optional (dut_diff): the expectations a finding records are the model's own end state, so
   * a reproducer must pass on this build's model and fail elsewhere: returns 1 when the vector
   * text fails on the implementation under test, its failed lines (as # comments) in why */
  int (*fails_elsewhere)(const char *vec_text, char *why, size_t n);
} fz_target;
/* Each check ends with tt_reset(), so the next input starts from a clean state and the cost
 * (and the edges) of a reset depend only on the input that caused it: AFL++ stability. */
extern const fz_target fz_this_target;

/* ---- structured mutator (fz_mutator.c) ---------------------------------------------------- */
size_t fz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed);
size_t fz_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                    size_t max_size, unsigned seed);
/* A random instruction word drawn from the encoding table (interesting field values). */
uint32_t fz_random_insn(uint64_t *rng);
uint64_t fz_rand(uint64_t *rng);

/* Forms by role, from the encoding table. */
int fz_form_writes_cfg(unsigned form);


/* ---- files of the host-side tools (fz_files.c; driver.c, ambtool.c) --------------------- */
typedef struct fz_paths { char **path; size_t n, cap; } fz_paths;
void fz_paths_add(fz_paths *l, const char *p);
void fz_paths_free(fz_paths *l);
/* Add p, or every file below directory p (recursively, sorted; dot files and READMEs
 * skipped). keep (may be NULL: keep all) sees every path first, a directory with is_dir = 1:
 * 0 leaves it out. An unreadable p is an error (message, exit 2). */
void fz_paths_collect(fz_paths *l, const char *p, int (*keep)(const char *path, int is_dir));
/* The whole file, NUL-terminated (*n excludes the NUL); NULL when it cannot be read. */
uint8_t *fz_read_file(const char *p, size_t *n);
int fz_ends_with(const char *s, const char *suf);
/* Program text in .vec syntax: conformance vectors and reproducers (.vec), and replay-only
 * reproducers (.fzvec: a finding no conformance expectation can state; ttconf ignores them). */
int fz_is_vec_text(const char *path);
/* `# key: value` header line of a reproducer; copies value into out. */
int fz_header_value(const uint8_t *d, size_t n, const char *key, char *out, size_t cap);
/* An input as a program: .vec text parsed, anything else decoded as fuzz input bytes. */
void fz_load_prog(const char *path, const uint8_t *d, size_t n, fz_prog *p);
/* `T --minimize IN OUT.vec` (fz_minimize.c, linked with driver.c): 0 written, 1 the input does
 * not fail (prints "ok"), 2 an error (told). */
int fz_minimize(const char *in_path, const char *out_path);

/* The libFuzzer entry points of a target (the same for every target; the target file expands
 * it once, so each target still exports exactly LLVMFuzzerTestOneInput and its initializer).
 * LLVMFuzzerTestOneInput keeps its one counter: libFuzzer gives up at start when the empty
 * input reaches no counter at all (decode_roundtrip's empty input calls nothing in model/). */
#define FZ_ENTRY_POINTS(init_fn, check_bytes_fn)                                   \
  int LLVMFuzzerInitialize(int *argc, char ***argv);                               \
  FZ_BOOKKEEPING int LLVMFuzzerInitialize(int *argc, char ***argv) {               \
    fz_profile_args(argc, argv);                                                   \
    init_fn();                                                                     \
    return 0;                                                                      \
  }                                                                                \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                    \
  int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {                   \
    static fz_fail f_;                                                             \
    if (check_bytes_fn(data, size, &f_)) fz_die(&f_);                              \
    return 0;                                                                      \
  }

#endif
