/* spec_ref.h — a reference interpreter of the modelled Blackhole Tensix units, written from
 * ../shared/spec/spec-digest.md §2–§4 (and the ISA pages it cites) separately from model/: it
 * shares only the encoding table (tt_decode, the per-form field structs, block bits and units
 * of isa.def/foreign.def). Functional-mode scheduling as README.md documents it: a round
 * re-evaluates every latch, then T0, T1, T2 may each issue their head instruction.
 *
 * Used by the spec_diff fuzz target: the model and this interpreter run the same program, one
 * round at a time, and every round's effect is compared. Plain data, no allocation; the large
 * memories are static inside spec_ref.c (one reference state per process). */
#ifndef SPEC_REF_H
#define SPEC_REF_H

#include <stdint.h>
#include "tt.h"

#define SR_THREADS 3
#define SR_GPRS 64
#define SR_CFG_WORDS 224
#define SR_CFG_GLOBAL 180
#define SR_TCFG_WORDS 68
#define SR_SEMS 8
#define SR_MUTEXES 8       /* 0..7: Blackhole has 0, 2, 3, 4; mutex_indices=wh 0, 2..7 */
#define SR_L1_BYTES (1536u * 1024u)
#define SR_L1_BYTES_WH (1464u * 1024u)
#define SR_MMIO_BASE 0xFFB00000u
#define SR_MMIO_BYTES 0x100000u
#define SR_GRANULE 64u

/* Why a thread was held at its gate in its last evaluation (0: it was not). */
enum { SR_HELD_NONE, SR_HELD_LATCH, SR_HELD_MUTEX, SR_HELD_MUTEX_INVALID, SR_HELD_SPIN,
       SR_HELD_THCON };

typedef struct sr_latch {
  uint8_t op;               /* 0 none, 1 STALLWAIT, 2 SEMWAIT, 3 STREAMWAIT (tt_latch_op) */
  uint8_t sem_mask, stream_select, condition_index;
  uint16_t block, cond;
  uint32_t target, target_lo;
} sr_latch;

/* ---- cycle mode (spec_ref_cycle.c) ----------------------------------------------------------- */
enum { SR_RES_LOADIND, SR_RES_LOADREG, SR_RES_ATINCGET, SR_RES_RDCFG };
#define SR_WB_MAX 64
#define SR_OCC_MAX 8
#define SR_HAZ_MAX 256
#define SR_STUBS 6
#define SR_NEVER 0xFFFFFFFFu

typedef struct sr_wb {          /* an asynchronous GPR result in flight */
  uint32_t due, value, mask, seq;
  uint8_t thread, reg, thcon;
} sr_wb;

typedef struct sr_occ {         /* one Config-pipeline occupant and its whole trajectory */
  uint8_t used, thread, nst, bank, skip, accessed, overlay_read;
  int8_t st[5];                 /* its stages, in order */
  uint8_t dur[5];               /* cycles each takes at the least */
  uint32_t at[6];               /* at[i]: cycle it enters st[i]; at[nst]: cycle it has left */
  uint32_t pc, vals[4];
  tt_insn in;
} sr_occ;

typedef struct sr_haz { uint8_t kind, thread, gpr; uint32_t index; } sr_haz;  /* gpr: gpr_pending's lowest GPR, else 0 */

typedef struct sr_cyc {
  uint8_t on;
  uint32_t now;                       /* the next cycle nothing has been decided for yet */
  uint32_t issue[SR_THREADS][TT_PROG_MAX];
  uint32_t free_any[SR_THREADS];      /* own thread: earliest next issue after its ThCon insn */
  uint32_t free_thcon[SR_THREADS];    /* own thread: earliest next ThCon instruction */
  uint32_t thcon_end;                 /* ThCon idle from here (for `cycles`) */
  uint32_t thcon_free;                /* ThCon accepts another thread's instruction from here */
  uint8_t thcon_owner;                /* 1+t of the last ThCon instruction's thread */
  uint8_t flush;                      /* an isa FLUSHDMA holds ThCon until its conditions clear */
  uint8_t flush_t;
  uint16_t flush_cond;
  uint32_t flush_min, flush_issue;
  uint8_t spin[SR_THREADS];           /* a failing ATCAS/ATINCGETPTR holds ThCon and its thread */
  uint32_t spin_next;                 /* its next attempt (NEVER: nothing can change its outcome) */
  tt_insn spin_in;
  uint32_t latch_from[SR_THREADS];    /* first cycle the latch is evaluated */
  sr_wb wb[SR_WB_MAX];
  unsigned nwb;
  uint32_t wb_seq;
  sr_occ occ[SR_OCC_MAX];
  uint32_t pipe_left;                 /* latest cycle a departed occupant left the pipeline */
  uint32_t pipe_left_other;           /* the same, of a departed occupant other than RDCFG */
  uint32_t matrix_next;               /* matrix_interval: first cycle the next Src reader may issue */
  uint8_t flush_late;                 /* flushdma_release=next_cycle and the FLUSHDMA had to wait */
  uint32_t stub_until[SR_STUBS][SR_THREADS];
  uint8_t src_owner[2], src_flip_to[2];
  uint32_t src_flip_at[2];
  uint32_t setc16_next;               /* issue cycle + 1 of the last SETC16, any thread */
  uint32_t store_until[SR_THREADS];   /* c0_stores=yes */
  uint32_t cfgw_next[SR_THREADS];     /* issue cycle + 1 of the last WRCFG/RMWCIB/CFGSHIFTMASK */
  uint8_t rr[32];
  uint32_t last_issue_end;            /* last issue cycle + 1 */
  unsigned nhaz;
  sr_haz haz[SR_HAZ_MAX];
  uint32_t cycles;
} sr_cyc;

typedef struct sr_state {
  uint32_t gpr[SR_THREADS][SR_GPRS];
  uint32_t cfg[2][SR_CFG_WORDS];
  uint16_t tcfg[SR_THREADS][SR_TCFG_WORDS];
  uint8_t sem_value[SR_SEMS], sem_max[SR_SEMS];
  uint8_t mutex[SR_MUTEXES];      /* 0 free, 1+t held */
  uint8_t reserved_for[SR_MUTEXES]; /* fairness hand-over: 0 none, 1+t */
  sr_latch latch[SR_THREADS];
  uint32_t pc[SR_THREADS], len[SR_THREADS];
  uint8_t held[SR_THREADS];       /* SR_HELD_* of the last gate evaluation */
  uint8_t fault_class[SR_THREADS], fault_code[SR_THREADS];
  uint16_t fault_count[SR_THREADS];
  uint32_t fault_pc[SR_THREADS];
  uint8_t spinner;                /* 1+t while t's atomic is retrying (holds ThCon) */
  uint32_t prng_seed, prng_reseeds, ic_invalidates[5], ctx_resets[SR_THREADS][2];
  tt_packer packer[4];
  uint32_t src[2][64][16];
  uint8_t src_written;            /* a STOREIND-Src wrote this round */
  uint8_t knob[TT_KNOB_COUNT];
  const uint32_t *prog[SR_THREADS];
  /* what the last round did, for messages */
  uint32_t round_word[SR_THREADS];
  uint8_t round_retired[SR_THREADS];
  sr_cyc cyc;
} sr_state;

/* The reference's memories (L1, MMIO window). */
uint32_t sr_l1_read(uint32_t addr, unsigned bytes);
uint32_t sr_mmio_read(uint32_t addr);
/* Granules (64 bytes; L1 index addr/64, MMIO index (addr-base)/64) written since the last
 * call: returns how many, fills at most max. */
unsigned sr_take_written(uint32_t *l1, unsigned *nl1, uint32_t *mmio, unsigned *nmmio,
                         unsigned max);
const uint8_t *sr_l1_granule(uint32_t g);
const uint32_t *sr_mmio_granule(uint32_t g);

/* The RISC-V host port (digest 2.1-2.3; spec_ref_host.c): a load or store by core `core` (tt_core_id) of
 * `size` bytes at `addr`. Returns a tt_host_status. */
unsigned sr_host_read(const sr_state *s, unsigned core, uint32_t addr, unsigned size, uint32_t *v);
unsigned sr_host_write(sr_state *s, unsigned core, uint32_t addr, unsigned size, uint32_t v);

/* Start from the architectural state of `m` (its initial state: init records, knobs,
 * programs, packer stub). Clears whatever the previous run left in the memories. */
void sr_load(sr_state *s, const tt_state *m);
/* Clear the memories now (what sr_load would clear next): a caller that ends every input with
 * it starts the next one with nothing left over, so no loop's trip count depends on the input
 * before (AFL++ stability). */
void sr_unload(void);
/* One round. */
void sr_round(sr_state *s);
int sr_done(const sr_state *s);

/* Cycle mode (spec_ref_cycle.c): run the loaded programs on the cycle clock until every thread
 * is done, nothing can move, or `budget` cycles; returns a tt_outcome. Issue cycles in
 * s->cyc.issue (valid for k < pc[t]), hazards in s->cyc.haz, `cycles` in s->cyc.cycles. */
unsigned sr_cycle_run(sr_state *s, uint64_t budget);
/* The Config pipeline (spec_ref_pipe.c): an occupant's trajectory template, its stage at cycle x
 * (99: outside), occupancy queries, re-planning after an entry at x, and the entry rule. */
void sr_path_of(const sr_state *s, const tt_insn *in, sr_occ *o);
int sr_stage_at(const sr_occ *o, uint32_t x);
int sr_occupied(const sr_state *s, int stage, uint32_t x);
int sr_pipe_busy(const sr_state *s, uint32_t x);
int sr_pipe_busy_during(const sr_state *s, uint32_t y);   /* at some time during cycle y */
uint32_t sr_pipe_end(const sr_state *s);
void sr_replan(sr_state *s, uint32_t x);
int sr_may_enter(const sr_state *s, const sr_occ *o, uint32_t x);

/* What an instruction is to the cycle mode (spec_ref_insn.c): the outside unit it goes to
 * (SR_U_NONE: none), whether it goes through the Config pipeline, takes the Sync slot, writes
 * its thread's latch or is a mutex operation (and which mutex), whether it may read Config
 * (a unit's own NOP does not), its ThCon occupancy, and the GPRs of its thread it reads or
 * writes (bit i = GPR i). */
enum { SR_U_UNPACK0, SR_U_UNPACK1, SR_U_PACK, SR_U_FPU, SR_U_SFPU, SR_U_MOVER, SR_U_NONE };
unsigned sr_unit_of(const tt_insn *in);
int sr_is_cfg_pipe(const tt_insn *in);
int sr_is_sync_slot(const tt_insn *in);
int sr_writes_latch(const tt_insn *in);
/* tt_decode under the field-width reading (field_width=llk, AMB-29) */
void sr_decode(const sr_state *s, uint32_t w, tt_insn *in);
int sr_is_mutex_op(const tt_insn *in);
uint32_t sr_mutex_of(const tt_insn *in);
int sr_reads_config(const tt_insn *in);
unsigned sr_occupancy(const tt_insn *in);
uint64_t sr_gpr_use(const tt_insn *in);
uint64_t sr_gpr_reads(const tt_insn *in);
int sr_reads_src(const tt_insn *in);        /* a matrix-unit instruction that reads Src (AMB-43) */   /* the GPRs among them it reads */

/* Does the reference read value v of knob k (cycle: in cycle mode)? (v == 0: always.) */
int sr_knob_read(unsigned k, unsigned v, int cycle);

/* Shared with spec_ref_cycle.c and spec_ref_mem.c (defined in spec_ref.c). */
void sr_cyc_result(sr_state *s, unsigned t, unsigned reg, uint32_t v, uint32_t mask, unsigned kind);
int sr_catches(const sr_state *s, unsigned t, const tt_insn *in);
void sr_fault(sr_state *s, unsigned t, unsigned code);
unsigned sr_bank(const sr_state *s, unsigned t);
int sr_cfg_index_ok(sr_state *s, unsigned t, uint32_t idx);
void sr_cfg_store(sr_state *s, unsigned bank, unsigned idx, const uint32_t *v, unsigned n);
void sr_cfgshiftmask_bank(sr_state *s, unsigned t, unsigned b, const tt_args_CFGSHIFTMASK *a);
uint32_t sr_stream_reg(uint32_t stream, uint32_t reg);
int sr_latch_holds_state(const sr_state *s, unsigned t);
int sr_execute(sr_state *s, unsigned t, const tt_insn *in);
int sr_valid_mutex(const sr_state *s, uint32_t i);
int sr_is_thcon(const tt_insn *in);
uint32_t sr_reserved(const sr_state *s, const tt_insn *in);   /* reserved payload bits under the knobs */
#define SR_KNOB(s, K) ((s)->knob[TT_KNOB_##K])
uint32_t sr_half_get(const sr_state *s, unsigned t, unsigned h);
void sr_half_set(sr_state *s, unsigned t, unsigned h, uint32_t v);
uint32_t sr_l1_limit(const sr_state *s);
void sr_l1_write(uint32_t addr, unsigned bytes, uint32_t v);
void sr_mmio_write(uint32_t addr, uint32_t v);

/* The ThCon memory instructions (spec_ref_mem.c), called by sr_execute; sr_atomic returns 0
 * while it retries. sr_result: an asynchronous GPR result (merged now in functional mode). */
void sr_loadind(sr_state *s, unsigned t, const tt_args_LOADIND *a);
void sr_storeind_l1(sr_state *s, unsigned t, const tt_args_STOREIND_L1 *a);
void sr_storeind_mmio(sr_state *s, unsigned t, const tt_args_STOREIND_MMIO *a);
void sr_storeind_src(sr_state *s, unsigned t, const tt_args_STOREIND_SRC *a);
int sr_atomic(sr_state *s, unsigned t, const tt_insn *in);
void sr_reg2flop(sr_state *s, unsigned t, const tt_args_REG2FLOP *a);
int sr_mmio_ok(sr_state *s, unsigned t, uint32_t addr);
void sr_result(sr_state *s, unsigned t, unsigned reg, uint32_t v, uint32_t mask, unsigned kind);

#endif
