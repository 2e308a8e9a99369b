/* ttrun.h — what the parts of ttrun share (private to tools/ttrun*.c).
 *
 *   ttrun.c          main: the command line, setting the model up, the exit status
 *   ttrun_usage.c    the --help text
 *   ttrun_load.c     reading thread listings and .vec files into the run's sources
 *   ttrun_expand.c   dynamic pushes (--push), the MOP and Replay Expanders: the words the model runs
 *   ttrun_run.c      the run, one step at a time, observed (faults; in cycle mode the trace)
 *   ttrun_stall.c    every stall cycle with a structured reason (semaphore, conditions, holder, ...)
 *   ttrun_hazard.c   each hazard with its producer; cfg_gap by the table of Config reads
 *   ttrun_analyse.c  why a thread is stuck and who could release it; what changed from reset
 *   ttrun_words.c    words for people: instructions, waits, locations, masks, outcome
 *   ttrun_text.c     the text report (the default output)
 *   ttrun_json.c     the same report as JSON (--json)
 *   ttrun_trace.c    the Chrome/Perfetto trace-event file (--trace)
 *   ttrun_vec.c      the run as a conformance vector (--emit-vec)
 */
#ifndef TTRUN_H
#define TTRUN_H

#include <stdio.h>

#include "tt.h"
#include "vec.h"

#define DEFAULT_BUDGET 1000000u
#define FILE_CAP (64u << 20)
#define MAX_INITS 512
#define MAX_KNOBS 64

extern tt_state g_st, g_ref;          /* ~2.6 MiB each */
extern tt_vec g_vec;

void usage(FILE *f);                                                  /* ttrun_usage.c */

/* ---- the run's sources (ttrun.c, ttrun_load.c) ------------------------------------------------ */
typedef struct push_site {   /* a dynamic push: a word the listing does not hold */
  uint32_t line;             /* its line in the listing */
  uint32_t pos;              /* listed words before it */
  uint32_t out;              /* run position: words the model runs before it */
  uint32_t word;             /* with given: the word from --push */
  uint8_t given;
  uint8_t constant;          /* an objdump sw of a known constant to the push address: listed */
  uint8_t named;             /* not a push: a `# ... sfpXXX ttinsn(sfpu,not-re-encoded)` line, a
                              * listed instruction given by name only: it runs as its opcode */
} push_site;
enum { NM_MOP, NM_REPLAY_SLOT };
typedef struct nm_word { uint32_t line, pos; uint8_t why; } nm_word;  /* a word not modelled */

typedef struct thread_src {
  const char *path;      /* listing or .vec file, NULL when the thread has no program */
  int from_vec;
  uint32_t n;            /* words the model runs (after the expanders) */
  uint32_t *word, *line; /* n each; a replayed word keeps its recording line */
  uint32_t *via;         /* n: the line of the REPLAY that played the word, 0 when listed */
  uint32_t nraw, *raw_word, *raw_line;   /* the listing's own words, before the expanders */
  uint32_t skipped_riscv, skipped_other, opcode_only;
  push_site *push;       /* npush dynamic pushes, npush_given of them supplied by --push */
  uint32_t npush, npush_given, nnamed, nconst;  /* of the npush sites, nnamed are named-only words
                                                 * and nconst constant pushes (both listed) */
  nm_word *nm;           /* nnm words not modelled (MOP expansions, replays of unknown slots) */
  uint32_t nnm;
  uint32_t mop_cfg, replays, recorded, replayed;  /* MOP_CFG consumed; REPLAY ops; words in/out */
  uint32_t rec_open;     /* a REPLAY recording still open at the end (its line), or 0 */
  uint32_t overflow;     /* words beyond TT_PROG_MAX */
} thread_src;

extern thread_src g_src[TT_THREAD_COUNT];
extern const char *g_vec_path;
extern tt_mode g_mode;
extern int g_mode_given;
extern uint64_t g_budget;
extern int g_budget_given;
extern const char *g_profile;          /* the profile the run is made under (isa by default) */
extern unsigned g_nknobs;
extern char *g_knob_name[MAX_KNOBS], *g_knob_value[MAX_KNOBS];
typedef struct init_t { tt_loc loc; uint32_t value; char text[64]; } init_t;
extern init_t g_inits[MAX_INITS];
extern unsigned g_ninits;

int load_listing(unsigned t, const char *path);
int load_vec(const char *path);
void scan_pushes(unsigned t, const char *text, size_t len);            /* ttrun_expand.c */
int add_push(const char *arg);
void expand_thread(unsigned t);
unsigned unseen_between(unsigned t, uint32_t from, uint32_t to, unsigned which, char *buf, size_t n);

/* ---- observation during the run (ttrun_run.c) ------------------------------------------------ */
typedef struct fault_rec { uint32_t index; } fault_rec;
typedef struct slice {
  uint32_t start, end;   /* cycles [start, end) */
  int16_t thread;        /* owner thread (-1 none) */
  uint8_t kind;          /* SL_INSN issue, SL_STALL, SL_UNIT occupancy, SL_FLIGHT issue to completion */
  uint8_t track;         /* unit track id for kind 2 */
  uint32_t index;        /* instruction index, or for SL_STALL its row in g_srow */
  uint32_t lane;
} slice;
enum { SL_INSN, SL_STALL, SL_UNIT, SL_FLIGHT };
enum { TR_THCON, TR_CFG0 /* + stage 0..5 */, TR_SYNC = TR_CFG0 + TT_CFGP_STAGE_COUNT, TR_COUNT };

typedef struct counter_ev { uint32_t ts; uint8_t id; uint8_t value, max; } counter_ev;

extern fault_rec *g_faults[TT_THREAD_COUNT];
extern uint32_t g_nfaults[TT_THREAD_COUNT];
extern int g_tracing;
extern slice *g_sl;
extern size_t g_nsl;
extern counter_ev *g_ctr;
extern size_t g_nctr;
extern uint32_t *g_done_at[TT_THREAD_COUNT];   /* completion cycle per instruction */
extern uint32_t g_sem_seen;
extern uint8_t g_sem0[TT_SEM_COUNT], g_max0[TT_SEM_COUNT];  /* semaphore Value, Max when the run starts */

tt_outcome run(void);

/* ---- stalls with a structured reason (ttrun_stall.c) ------------------------------------------ */
enum { ST_SEM_EMPTY, ST_SEM_FULL, ST_RESOURCE, ST_STREAM, ST_MUTEX, ST_MUTEX_INVALID, ST_ATOMIC,
       ST_THCON_BUSY, ST_THCON_OWN, ST_CFG_ENTRY, ST_SYNC_SLOT, ST_ARBITRATION, ST_WB_FULL, ST_LATCH_RELEASE,
       ST_OTHER, ST_COUNT };
typedef struct stall_why {
  uint8_t cls, kind;     /* ST_..., the model's tt_wait_kind */
  int8_t sem;            /* semaphore classes: which semaphore (else -1) */
  uint8_t value, max;    /* ... its Value and Max at the gate */
  int8_t holder;         /* the thread holding (mutex, ThCon) or winning (Sync slot, arbitration), -1 */
  uint16_t conds;        /* resource_wait: the STALLWAIT conditions that held; cfg_entry: stage
                          * occupancy, bit 2s = stage s held by this thread, 2s+1 by another */
  uint32_t mutex;        /* mutex_wait: the mutex */
  int32_t latch;         /* latch classes: the instruction that set the latch, -1 */
  uint32_t at;           /* the instruction held */
} stall_why;
typedef struct stall_row { stall_why w; unsigned t; uint64_t cycles; uint32_t first, last; } stall_row;
extern stall_row *g_srow;      /* distinct (thread, reason), in order of first appearance */
extern size_t g_nsrow;
extern const char *const stall_class_name[ST_COUNT];
void stall_before(void);
void stall_after(long rows[TT_THREAD_COUNT]);
void stall_now(unsigned t, stall_why *w);
int latch_setter(unsigned t, uint32_t pc);
void stall_text(char *buf, size_t n, const stall_row *r);              /* ttrun_words.c */
const char *stall_unit(const stall_why *w);

/* ---- hazards with their producers (ttrun_hazard.c) --------------------------------------------- */
typedef struct haz_note {
  tt_hazard h;              /* as the model reported it */
  int keep;                 /* reported (the refined rule holds), or dismissed */
  int lost;                 /* beyond the model's TT_HAZARD_KEEP: no detail */
  int32_t producer;         /* the producing instruction of h.thread, -1 */
  uint32_t lo, hi;          /* cfg_gap: the Config words it writes */
  const char *page;         /* cfg_gap: the instruction page that decides */
  uint32_t seen, pending, due;  /* gpr_pending: GPR value the consumer saw, the value in flight, when it lands */
  int has_value;
} haz_note;
extern haz_note *g_hz;      /* g_nhz notes, one per model hazard, in order */
extern size_t g_nhz;
extern unsigned g_hz_kept;  /* hazards reported after the refined rule */
void hazard_observe(void);
void hazards_classify(void);
void hazard_producer(char *buf, size_t n, const haz_note *z);

/* ---- analysis (ttrun_analyse.c) -------------------------------------------------------------- */
typedef struct releaser { unsigned thread; uint32_t index; } releaser;
typedef struct thr_report {
  const char *state;          /* "done", "blocked", "not done", "no program" */
  int latch_index;            /* instruction that latched the wait holding the head, or -1 */
  char reason[600];           /* the wait in words */
  char holds[260];            /* which instructions the latch holds */
  char need[300];             /* what would release it */
  releaser rel[TT_THREAD_COUNT];
  unsigned nrel;
  char nobody[300];           /* when nobody can: why not */
  unsigned waits_on;          /* threads that could release it (bit mask) */
} thr_report;
extern thr_report g_rep[TT_THREAD_COUNT];

typedef struct change { tt_loc loc; uint32_t from, to; int inited; } change;
extern change *g_ch;
extern size_t g_nch;

void analyse(unsigned t);
void collect_changes(void);

/* ---- words for people (ttrun_words.c) -------------------------------------------------------- */
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t sz);
const char *base_name(const char *p);
void insn_text(uint32_t w, char *buf, size_t n);
void wait_key(unsigned k, char *buf, size_t n);
unsigned knob_num(const tt_state *st, unsigned knob);
extern const char *const sem_llk[TT_SEM_COUNT];
extern const char *const block_llk[9];
extern const char *const cond_llk[13];
extern const char *const cond_text[13];
void mask_names(char *buf, size_t n, uint32_t mask, const char *const *names, unsigned count);
void sem_list(char *buf, size_t n, uint32_t mask);
void loc_value(char *buf, size_t n, const tt_loc *loc, uint32_t v);
const char *outcome_word(tt_outcome o);
uint32_t src_line(unsigned t, uint32_t k);
void at_text(char *buf, size_t n, unsigned t, uint32_t k);
typedef struct word_count {
  uint32_t run, listed, replayed, pushed, given, not_modelled, nm_mop, named, constant;
} word_count;
void word_counts(unsigned t, word_count *c);

/* ---- the outputs ------------------------------------------------------------------------------ */
void print_text(tt_outcome out);                                     /* ttrun_text.c */
void js(FILE *f, const char *s);                                     /* ttrun_json.c */
void js_at(FILE *f, unsigned t, uint32_t k);
void print_json(FILE *f, tt_outcome out);
int emit_vec(const char *path, tt_outcome out, int argc, char **argv); /* ttrun_vec.c */
int write_trace(const char *path);                                   /* ttrun_trace.c */

#endif
