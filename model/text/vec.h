/* vec.h — the `.vec` conformance-vector format (described in conformance/README.md): an
 * allocation-free parser into a caller-owned struct, and the checker that runs one vector in
 * one model mode and evaluates its expectations.
 *
 * Embedding contract (same as tt.h): nothing here allocates, prints, reads time or the
 * environment. tt_vec and tt_vec_result are large (~220 KiB / ~140 KiB): declare them static.
 *
 *   static tt_vec v; tt_vec_error e;
 *   if (tt_vec_parse(text, len, &v, &e) != 0) -> report "FILE:e.line: e.msg"
 *   static tt_state st, init; static tt_vec_result r; tt_init(&st);
 *   switch (tt_vec_run(&st, &init, &v, TT_MODE_FUNC, &r)) { ... r.checks[i].text ... }
 */
#ifndef TT_VEC_H
#define TT_VEC_H

#include <stddef.h>
#include <stdint.h>
#include "tt.h"

/* ---- capacities (exceeding one is a parse error naming the limit) ------------------------ */
#define TT_VEC_MAX_REFS 64
#define TT_VEC_MAX_KNOBS 32
#define TT_VEC_MAX_INITS 512
#define TT_VEC_MAX_EXPECTS 512
#define TT_VEC_TEXT_MAX 256          /* name: / ref: text, bytes including the NUL */
#define TT_VEC_KNOB_TEXT_MAX 48      /* knob name / value, bytes including the NUL */
#define TT_VEC_MSG_MAX 200           /* error and check message lines */
#define TT_VEC_MAX_STRICT 64         /* strict-mode failure lines kept (the rest are counted) */
#define TT_VEC_DEFAULT_BUDGET 100000u

/* Mode set of a vector (`mode:`), a bit per tt_mode. */
#define TT_VEC_MODE_FUNC (1u << TT_MODE_FUNC)
#define TT_VEC_MODE_CYCLE (1u << TT_MODE_CYCLE)
#define TT_VEC_MODE_BOTH (TT_VEC_MODE_FUNC | TT_VEC_MODE_CYCLE)

typedef struct tt_vec_error {
  unsigned line;                 /* 1-based line of the offending text (0: not a line) */
  unsigned col;                  /* 1-based column when known, else 0 */
  char msg[TT_VEC_MSG_MAX];      /* without the "FILE:LINE: " prefix */
} tt_vec_error;

typedef enum tt_vec_expect_kind {
  TT_VEC_EX_LOC,       /* expect LOCATION = VALUE */
  TT_VEC_EX_DONE,      /* expect tN done */
  TT_VEC_EX_BLOCKED,   /* expect tN blocked */
  TT_VEC_EX_DEADLOCK,  /* expect deadlock */
  TT_VEC_EX_FAULT,     /* expect tN fault CLASS */
  TT_VEC_EX_ISSUE,     /* expect tN.issue[K] = C          (cycle mode only) */
  TT_VEC_EX_CYCLES,    /* expect cycles = / <= / >= C     (cycle mode only) */
  TT_VEC_EX_HAZARD,    /* expect tN.hazard[K] = KIND      (cycle mode only) */
  TT_VEC_EX_HAZARDS,   /* expect hazards = N              (cycle mode only) */
  TT_VEC_EX_ISSUED     /* expect tN.issued = K            (every mode) */
} tt_vec_expect_kind;

typedef enum tt_vec_cmp { TT_VEC_CMP_EQ, TT_VEC_CMP_LE, TT_VEC_CMP_GE } tt_vec_cmp;

typedef struct tt_vec_expect {
  uint8_t kind;        /* tt_vec_expect_kind */
  uint8_t thread;      /* DONE, BLOCKED, FAULT, ISSUE, HAZARD, ISSUED */
  uint8_t cmp;         /* tt_vec_cmp (CYCLES; EQ otherwise) */
  uint8_t pad;
  tt_loc loc;          /* LOC */
  uint32_t index;      /* ISSUE, HAZARD: instruction K */
  uint64_t value;      /* LOC value (mutex: 0 none, 1+t), fault class, cycle number, hazard
                          kind (tt_hazard_kind), hazard count, ISSUED count */
  unsigned line;
} tt_vec_expect;

typedef struct tt_vec_init {
  tt_loc loc;
  uint32_t value;      /* mutex: 0 none, 1+t */
  unsigned line;
} tt_vec_init;

typedef struct tt_vec_knob {
  char name[TT_VEC_KNOB_TEXT_MAX];
  char value[TT_VEC_KNOB_TEXT_MAX];
  unsigned line;
} tt_vec_knob;

typedef struct tt_vec {
  char name[TT_VEC_TEXT_MAX];
  unsigned name_line;
  unsigned nrefs;
  char refs[TT_VEC_MAX_REFS][TT_VEC_TEXT_MAX];
  uint8_t modes;          /* TT_VEC_MODE_* (default BOTH) */
  uint8_t strict;
  uint8_t has_budget;
  uint8_t has_cycle_expects;  /* some ISSUE/CYCLES/HAZARD(S) expectation */
  unsigned mode_line, budget_line;
  unsigned profile_line;  /* 0: no `profile:` line (the default profile, isa) */
  char profile[TT_VEC_KNOB_TEXT_MAX];  /* `profile: NAME` ("isa" or "p150"), "" when absent */
  uint64_t budget;        /* TT_VEC_DEFAULT_BUDGET unless `budget:` */
  unsigned nknobs;
  tt_vec_knob knobs[TT_VEC_MAX_KNOBS];
  unsigned ninits;
  tt_vec_init inits[TT_VEC_MAX_INITS];
  unsigned nexpects;
  tt_vec_expect expects[TT_VEC_MAX_EXPECTS];
  uint32_t prog_len[TT_THREAD_COUNT];
  uint32_t prog[TT_THREAD_COUNT][TT_PROG_MAX];
  uint32_t prog_line[TT_THREAD_COUNT][TT_PROG_MAX];  /* source line of each instruction */
} tt_vec;

/* Parse text[0..len) (need not be NUL-terminated). 0 ok; -1 with err filled for the first
 * malformed line (or for a file-level error such as a missing `name:`, reported at line 1). */
int tt_vec_parse(const char *text, size_t len, tt_vec *v, tt_vec_error *err);

/* ---- checker ------------------------------------------------------------------------------ */
typedef enum tt_vec_status {
  TT_VEC_PASS,      /* every expectation evaluated in this mode held */
  TT_VEC_FAIL,      /* some expectation (or strict) failed */
  TT_VEC_SKIP,      /* the mode is not available in this build (or not named by the vector) */
  TT_VEC_ERROR,     /* the vector cannot run: unknown knob/value, bad program (res->err) */
  TT_VEC_NOT_COMPARABLE /* run against another implementation (conformance/ttdut.h): it cannot
                           run the vector (mode, knob, profile, init, instruction form), or
                           none of the vector's expectations could be checked */
} tt_vec_status;

typedef enum tt_vec_check_status {
  TT_VEC_CHECK_PASS, TT_VEC_CHECK_FAIL,
  TT_VEC_CHECK_NOT_EVALUATED,  /* cycle-only expectation in func mode */
  TT_VEC_CHECK_NOT_COMPARABLE  /* the implementation under test cannot observe it */
} tt_vec_check_status;

typedef struct tt_vec_check {
  uint8_t status;       /* tt_vec_check_status */
  uint8_t kind;         /* tt_vec_expect_kind; strict lines use TT_VEC_EX_LOC */
  uint8_t is_strict;    /* a strict-mode finding rather than an expectation */
  uint8_t pad;
  unsigned line;        /* source line of the expectation (0 for strict findings) */
  uint64_t expected, actual;
  /* "expect t0.gpr[3] = 0x0002FFFD: actual 0x00000000"
   * "strict: cfg[1][20] changed 0x0 -> 0x5" */
  char text[TT_VEC_MSG_MAX];
} tt_vec_check;

typedef struct tt_vec_result {
  uint8_t status;       /* tt_vec_status */
  uint8_t mode;         /* tt_mode run */
  uint8_t outcome;      /* tt_outcome of tt_run */
  uint8_t pad;
  uint64_t steps;       /* st->c.steps after the run */
  unsigned npass, nfail, nnot_evaluated;
  unsigned nnot_comparable; /* expectations (and strict) the implementation cannot observe */
  unsigned nstrict;     /* strict findings (may exceed the lines kept) */
  unsigned nchecks;     /* entries in checks[]: one per expectation, then strict findings */
  tt_vec_check checks[TT_VEC_MAX_EXPECTS + TT_VEC_MAX_STRICT];
  tt_vec_error err;     /* TT_VEC_ERROR: line and message */
} tt_vec_result;

/* Run v in `mode`. `st` must have been tt_init()ed once; it is reset here, knobs go back to
 * their defaults and then the vector's `knob:` lines apply. `scratch_initial` receives a copy
 * of the state right before tt_run (used only by `strict`; may be NULL when !v->strict).
 * Returns res->status. */
tt_vec_status tt_vec_run(tt_state *st, tt_state *scratch_initial, const tt_vec *v,
                         tt_mode mode, tt_vec_result *res);

/* The expectation as a vector line would write it ("expect t0.gpr[3] = 0x0002FFFD"), into
 * buf[0..n) (always NUL-terminated when n > 0); returns the full length. */
size_t tt_vec_fmt_expect(char *buf, size_t n, const tt_vec_expect *x);
/* A location's value as the format writes it: mutex "none"/"tN", else hex of its width. */
size_t tt_vec_fmt_value(char *buf, size_t n, const tt_loc *loc, uint64_t v);

/* Small allocation-free formatters (also used by the runner and tests). Each writes at most
 * n bytes including the NUL (always NUL-terminated when n > 0) and returns the length the
 * full text would have. */
size_t tt_vec_fmt_hex(char *buf, size_t n, uint64_t v, unsigned min_digits); /* "0x..." */
size_t tt_vec_fmt_dec(char *buf, size_t n, uint64_t v);

#endif
