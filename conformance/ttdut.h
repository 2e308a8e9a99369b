/* ttdut.h — the interface of a Tensix implementation under test (a "DUT"), version 1.
 *
 * tensix-harness checks implementations of the Tensix Sync Unit, Configuration Unit, Scalar
 * Unit (ThCon) and Wait Gate through this interface: the conformance runner (`ttconf --dut`),
 * the `dut_diff` fuzz target and `make dut-report`. The project's own model is one
 * implementation of it (conformance/dut_model.c), used through it like any other.
 *
 * This header stands alone (C11 and <stdint.h>/<stddef.h> only) so that an implementation in
 * any language with a C ABI can include it. A shared object exports one symbol:
 *
 *     const ttdut_ops *ttdut_entry(void);
 *
 * and is run with `ttconf --dut PATH.so`. An implementation that is easier to run as a
 * process speaks the line protocol of conformance/README.md ("Implementations under test")
 * on stdin/stdout and is run with `ttconf --dut-cmd "COMMAND"`; `ttdut-serve` puts any shared
 * object (by default the model) behind that protocol.
 *
 * A run, as the runner drives it (every call but open/close may be repeated, in this order):
 *     reset(mode, knobs)   -> back to the reset state of the vector format, in that mode
 *     set(loc, value)...   -> the vector's `init` lines, in file order
 *     load(thread, words)  -> each thread's stream
 *     snapshot()           -> (optional) remember the state, for `strict`
 *     run(budget, result)  -> run to done / deadlock / budget
 *     get(loc)...          -> read the end state; issue_cycle, hazards, changed, trace
 *
 * Return codes of the calls that can refuse (TTDUT_OK, TTDUT_UNSUPPORTED, TTDUT_REFUSED):
 * UNSUPPORTED means "this implementation cannot do that" — a location it cannot set or read,
 * a mode, knob or profile it does not have, an instruction word it does not accept — and
 * makes what depends on it *not comparable* (neither pass nor fail). REFUSED is an answer of
 * the machine itself (the host port refusing a store or load: unmapped, read-only, bad
 * size), which the vector format turns into a failure. ERROR means the implementation itself
 * failed (it crashed, hung or broke the line protocol): the run fails, it is never taken as
 * "not comparable". Every refusal may say why in `why`
 * (NUL-terminated, at most `why_len` bytes; may be left empty).
 *
 * Numbering follows the vector format (conformance/README.md), so that a location written
 * `t0.gpr[3]` in a vector is {TTDUT_LOC_GPR, 0, 3} here. The numbers are part of the ABI:
 * later versions only add.
 */
#ifndef TTDUT_H
#define TTDUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TTDUT_VERSION 1

enum { TTDUT_OK = 0, TTDUT_UNSUPPORTED = 1, TTDUT_REFUSED = 2, TTDUT_ERROR = 3 };

enum { TTDUT_MODE_FUNC = 0, TTDUT_MODE_CYCLE = 1 };

/* Locations: the vector format's, with the same meaning and width. */
enum {
  TTDUT_LOC_GPR = 0,        /* sel thread, index 0..63 */
  TTDUT_LOC_CFG = 1,        /* sel bank 0..1, index 0..223 */
  TTDUT_LOC_TCFG = 2,       /* sel thread, index 0..67 (16 bits) */
  TTDUT_LOC_SEM_VALUE = 3,  /* index 0..7 (4 bits) */
  TTDUT_LOC_SEM_MAX = 4,    /* index 0..7 (4 bits) */
  TTDUT_LOC_MUTEX = 5,      /* index 0,2,3,4; value 0 free, 1+t held by thread t */
  TTDUT_LOC_L1_U8 = 6,      /* index: byte address */
  TTDUT_LOC_L1_U16 = 7,
  TTDUT_LOC_L1_U32 = 8,
  TTDUT_LOC_MMIO = 9,       /* index: byte address, 4-aligned */
  TTDUT_LOC_HOST_U8 = 10,   /* an access by RISC-V core sel (0 b, 1 t0, 2 t1, 3 t2) */
  TTDUT_LOC_HOST_U16 = 11,
  TTDUT_LOC_HOST_U32 = 12,
  TTDUT_LOC_PRNG_RESEEDS = 13,   /* event counters: get only */
  TTDUT_LOC_IC_INVALIDATES = 14, /* index core 0 b, 1 t0, 2 t1, 3 t2, 4 nc */
  TTDUT_LOC_CTX_RESETS = 15,     /* sel thread, index unpacker 0..1 */
  TTDUT_LOC_KIND_COUNT = 16
};

typedef struct ttdut_loc {
  uint32_t kind;   /* TTDUT_LOC_* */
  uint32_t sel;
  uint32_t index;
} ttdut_loc;

/* What an implementation can do (filled by caps()). */
enum {
  TTDUT_CAP_FAULT_CLASS = 1u << 0,   /* result.thread[].fault is the class, not only "faulted" */
  TTDUT_CAP_BLOCKED = 1u << 1,       /* result.thread[].blocked and outcome DEADLOCK are exact */
  TTDUT_CAP_ISSUED = 1u << 2,        /* result.thread[].issued */
  TTDUT_CAP_CYCLES = 1u << 3,        /* cycle mode: result.cycles */
  TTDUT_CAP_ISSUE_CYCLES = 1u << 4,  /* cycle mode: issue_cycle() */
  TTDUT_CAP_HAZARDS = 1u << 5,       /* cycle mode: hazards() */
  TTDUT_CAP_CHANGED = 1u << 6,       /* changed(): every location that differs from snapshot() */
  TTDUT_CAP_TRACE = 1u << 7,         /* trace(): per-instruction execution records */
  TTDUT_CAP_KNOBS = 1u << 8          /* accepts the project's knob names (reset's knobs) */
};

typedef struct ttdut_caps {
  uint32_t version;      /* TTDUT_VERSION the implementation was written against */
  uint32_t modes;        /* bit per TTDUT_MODE_* */
  uint32_t can_set;      /* bit per TTDUT_LOC_* kind it can set (init) */
  uint32_t can_get;      /* bit per TTDUT_LOC_* kind it can read */
  uint32_t flags;        /* TTDUT_CAP_* */
  char name[64];         /* "tensix-harness model", "ttsim v1.10.0", ... */
  char notes[192];       /* one line: what it declares it does not do */
} ttdut_caps;

/* A knob, or `profile` with a profile name: the vector's `profile:` and `knob:` lines; and
 * TTDUT_KNOB_TRACE = "on", which asks an implementation with TTDUT_CAP_TRACE to record the
 * trace of the next run (it may be slower; the runner asks only when it needs one). */
#define TTDUT_KNOB_TRACE "ttdut.trace"
typedef struct ttdut_knob {
  const char *name;
  const char *value;
} ttdut_knob;

enum { TTDUT_OUT_DONE = 0, TTDUT_OUT_DEADLOCK = 1, TTDUT_OUT_BUDGET = 2 };

/* Fault classes: the vector format's names, in its order. */
enum {
  TTDUT_FAULT_NONE = 0, TTDUT_FAULT_UNDEFINED = 1, TTDUT_FAULT_UNPREDICTABLE = 2,
  TTDUT_FAULT_NONCONTRACTUAL = 3, TTDUT_FAULT_UNSUPPORTED = 4, TTDUT_FAULT_UNIMPLEMENTED = 5,
  TTDUT_FAULT_SOME = 15   /* faulted, class not known (implementations without FAULT_CLASS) */
};

typedef struct ttdut_thread_result {
  uint8_t done;          /* retired its whole stream */
  uint8_t blocked;       /* can never progress again */
  uint8_t fault;         /* TTDUT_FAULT_* of its first fault */
  uint8_t pad;
  uint32_t issued;       /* instructions of its stream that passed the Wait Gate */
  uint32_t fault_index;  /* instruction index of its first fault */
  char why[120];         /* optional: where it stands or what it waits for, in words */
  char fault_why[64];    /* optional: why its first fault was raised, in words */
} ttdut_thread_result;

typedef struct ttdut_result {
  uint32_t outcome;      /* TTDUT_OUT_* */
  uint32_t pad;
  uint64_t steps;        /* scheduler steps (func) or cycles (cycle) the run took */
  uint64_t cycles;       /* cycle mode: the vector format's `cycles` (first all-idle cycle) */
  ttdut_thread_result thread[3];
} ttdut_result;

typedef struct ttdut_hazard {
  uint32_t kind;         /* 0 gpr_pending, 1 cfg_gap, 2 streamwrcfg_order */
  uint32_t thread;
  uint32_t index;        /* instruction index */
  uint32_t pad;
} ttdut_hazard;

/* One executed instruction (the role RVFI plays for RISC-V): what it wrote. */
#define TTDUT_TRACE_WRITES 8
typedef struct ttdut_trace_rec {
  uint32_t thread, index;   /* instruction `index` of `thread`'s stream */
  uint32_t word;
  uint32_t nwrites;         /* entries used in loc/value (more were written when > 8) */
  uint64_t cycle;           /* issue cycle in cycle mode, step in functional mode */
  ttdut_loc loc[TTDUT_TRACE_WRITES];
  uint32_t value[TTDUT_TRACE_WRITES];
} ttdut_trace_rec;

typedef struct ttdut_ops {
  uint32_t version;      /* TTDUT_VERSION */
  const char *name;      /* short name: "model", "ttsim", ... */
  /* An instance. `args` is free-form (may be NULL or ""). NULL on failure, with a reason. */
  void *(*open)(const char *args, char *why, size_t why_len);
  void (*close)(void *d);
  void (*caps)(void *d, ttdut_caps *c);
  /* Does it accept this instruction word (its form and field values)? TTDUT_OK or
   * TTDUT_UNSUPPORTED with the reason. Words it refuses make a vector not comparable. */
  int (*accepts)(void *d, uint32_t word, char *why, size_t why_len);
  int (*reset)(void *d, uint32_t mode, const ttdut_knob *knobs, uint32_t nknobs,
               char *why, size_t why_len);
  int (*set)(void *d, const ttdut_loc *loc, uint32_t value, char *why, size_t why_len);
  int (*load)(void *d, uint32_t thread, const uint32_t *words, uint32_t count,
              char *why, size_t why_len);
  int (*run)(void *d, uint64_t budget, ttdut_result *r);
  int (*get)(void *d, const ttdut_loc *loc, uint32_t *value, char *why, size_t why_len);
  /* Optional (NULL when absent; the flags say which are meaningful). */
  int (*issue_cycle)(void *d, uint32_t thread, uint32_t index, uint64_t *cycle); /* OK, or
                                                 TTDUT_UNSUPPORTED when it never issued */
  uint32_t (*hazards)(void *d, ttdut_hazard *out, uint32_t max);     /* count (all reported) */
  void (*snapshot)(void *d);                     /* before run: the base of changed() */
  /* Every storage location (not host accesses) whose value differs from the snapshot:
   * returns the count (all), fills the first `max`. */
  uint32_t (*changed)(void *d, ttdut_loc *loc, uint32_t *before, uint32_t *after, uint32_t max);
  uint32_t (*trace)(void *d, ttdut_trace_rec *out, uint32_t max);    /* records of the run */
} ttdut_ops;

typedef const ttdut_ops *(*ttdut_entry_fn)(void);
#define TTDUT_ENTRY_SYMBOL "ttdut_entry"

#ifdef __cplusplus
}
#endif
#endif
