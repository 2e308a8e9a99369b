/* tt.h — public API of the tensix-harness model: the Blackhole Tensix Sync Unit,
 * Configuration Unit, Scalar Unit (ThCon) and per-thread Wait Gate, for three threads.
 *
 * Embedding contract:
 *   - The caller owns the state (tt_state, ~2.6 MiB: declare it static or inside a harness).
 *     tt_init() once; tt_reset() between runs (cost proportional to what the run touched).
 *   - Nothing here allocates, reads time, the environment or host randomness, exits, or
 *     loops without a bound. Input-caused conditions are recorded as per-thread faults.
 *   - Load per-thread programs (raw 32-bit Tensix words), run with a budget, read state
 *     through the accessors or tt_loc_*, compare runs with tt_digest().
 */
#ifndef TT_H
#define TT_H

#include <stdint.h>
#include <stddef.h>
#include "isa.h"

/* ---- sizes (spec-digest §2; BlackholeA0 BackendConfiguration.md, SyncUnit.md) ---------- */
#define TT_THREAD_COUNT 3
#define TT_GPR_COUNT 64
#define TT_CFG_BANK_COUNT 2
#define TT_CFG_WORD_COUNT 224          /* CFG_STATE_SIZE * 4 */
#define TT_CFG_GLOBAL_BASE 180         /* GLOBAL_CFGREG_BASE_ADDR32: >= applies to both banks */
#define TT_TCFG_WORD_COUNT 68          /* THD_STATE_SIZE */
#define TT_SEM_COUNT 8
#define TT_MUTEX_SLOTS 8               /* indices 0..4 on Blackhole (1 does not exist); 5..7 exist
                                          only under knob mutex_indices=wh (AMB-24) */
#define TT_L1_SIZE (1536u * 1024u)     /* TENSIX_SRAM_SIZE on Blackhole */
#define TT_L1_SIZE_WH (1464u * 1024u)  /* knob l1_size=1464k */
#define TT_MMIO_BASE 0xFFB00000u       /* ThCon MMIO window 0xFFB00000..0xFFBFFFFF */
#define TT_MMIO_SIZE 0x100000u
#define TT_MMIO_LOW 0xFFB11000u        /* lowest address ThCon may touch (below: UB) */
#define TT_STREAM_BASE 0xFFB40000u     /* NoC overlay stream s register r: +s*0x1000+r*4 */
#define TT_STREAM_COUNT 64
#define TT_STREAM_PHASE_REG 29         /* STREAM_CURR_PHASE_REG_INDEX */
#define TT_STREAM_MSGS_REG 259         /* STREAM_NUM_MSGS_RECEIVED_REG_INDEX */
#define TT_PROG_MAX 4096               /* instructions per thread program */
#define TT_PACKER_COUNT 4
#define TT_SRC_ROWS 64
#define TT_SRC_COLS 16
#define TT_DIRTY_SHIFT 6               /* L1/MMIO dirty tracking granule: 64 bytes */
#define TT_L1_CHUNKS (TT_L1_SIZE >> TT_DIRTY_SHIFT)
#define TT_MMIO_CHUNKS (TT_MMIO_SIZE >> TT_DIRTY_SHIFT)

/* Config / ThreadConfig words with side effects or special meaning (METAL cfg_defines.h). */
#define TT_CFG_STATE_RESET_EN 4
#define TT_CFG_RISCV_IC_INVALIDATE 185
#define TT_CFG_PRNG_SEED 186
#define TT_CFG_SCRATCH0 209            /* SCRATCH_SEC0..2_val: 209, 210, 211 */
#define TT_TCFG_CFG_STATE_ID 0         /* bit 0: the thread's Config bank */
#define TT_TCFG_SRCA_SET 5             /* SRCA_SET_SetOvrdWithAddr: bit 2 */
#define TT_TCFG_CTX_CNT_RESET 41       /* UNPACK_MISC_CFG_CfgContextCntReset_0/_1: bits 4, 12 */
#define TT_TCFG_STREAMWAIT_PHASE_HI 57 /* mask 0x3ff */
#define TT_TCFG_STREAMWAIT_MSGS_HI 58  /* mask 0x7f */
#define TT_TCFG_STREAM_ID_SYNC 59      /* 59..62: STREAM_ID_SYNC_SEC0..3_BankSel, mask 0x3f */

/* ---- enums --------------------------------------------------------------------------- */
typedef enum tt_mode { TT_MODE_FUNC = 0, TT_MODE_CYCLE = 1 } tt_mode;

/* Fault classes: the ISA documentation's own taxonomy (vector-format.md names). */
typedef enum tt_fault_class {
  TT_FAULT_NONE, TT_FAULT_UNDEFINED, TT_FAULT_UNPREDICTABLE, TT_FAULT_NONCONTRACTUAL,
  TT_FAULT_UNSUPPORTED, TT_FAULT_UNIMPLEMENTED, TT_FAULT_CLASS_COUNT
} tt_fault_class;

/* Why a fault was recorded (one class each, see tt_fault_code_class()). */
#define TT_FAULT_CODES(X)                                                                  \
  X(NONE, NONE, "no fault")                                                                \
  X(RESERVED_BITS, UNDEFINED, "reserved payload bits set")                                 \
  X(UNDEFINED_OPCODE, UNDEFINED, "opcode not defined on Blackhole")                        \
  X(CFG_INDEX, UNDEFINED, "Config index >= 224")                                           \
  X(TCFG_INDEX, UNDEFINED, "ThreadConfig index >= 68")                                     \
  X(L1_RANGE, UNDEFINED, "L1 address beyond TENSIX_SRAM_SIZE")                             \
  X(MMIO_RANGE, UNDEFINED, "MMIO address below 0xFFB11000")                                \
  X(SRC_ROW, UNDEFINED, "Src row out of range")                                            \
  X(MODE, UNDEFINED, "undefined mode value")                                               \
  X(SEMWAIT_COND0, UNDEFINED, "SEMWAIT with ConditionMask 0")                              \
  X(ATOMIC_BIT23, NONCONTRACTUAL, "atomic with bit 23 (MemHierSel) set")                   \
  X(TDMA_RISC, NONCONTRACTUAL, "MMIO access to TDMA-RISC, unmapped for Tensix on BH")       \
  X(REG2FLOP, UNSUPPORTED, "REG2FLOP is UnsupportedFunctionality on Blackhole")            \
  X(RSTDMA, UNSUPPORTED, "RSTDMA has no documented semantics")                             \
  X(FRONTEND_OP, UNIMPLEMENTED, "MOP/REPLAY expansion is not modelled")                          \
  X(HALFREG_RANGE, UNDEFINED, "half-register index >= 128 (loadind_offset_bits=8)")
#define TT_X_ENUM(id, cls, text) TT_FC_##id,
typedef enum tt_fault_code { TT_FAULT_CODES(TT_X_ENUM) TT_FAULT_CODE_COUNT } tt_fault_code;
#undef TT_X_ENUM

/* What a thread is waiting on (meaningful when it is not done). */
typedef enum tt_wait_kind {
  TT_WAIT_NONE,           /* not waiting (or done) */
  TT_WAIT_LATCH,          /* head instruction caught by the latched wait, conditions unmet */
  TT_WAIT_MUTEX,          /* ATGETM: mutex held by another thread */
  TT_WAIT_MUTEX_INVALID,  /* ATGETM/ATRELM on an index that does not exist: forever */
  TT_WAIT_ATCAS,          /* ATCAS compare failing: retrying */
  TT_WAIT_ATINCGETPTR,    /* ATINCGETPTR full/empty: retrying */
  TT_WAIT_THCON_BUSY,     /* ThCon held by another thread (func: its spinning atomic) */
  TT_WAIT_BUDGET,         /* cycle mode: a unit or pipeline is still busy */
  /* cycle mode only (debug-bus names in tt_wait_kind_name()) */
  TT_WAIT_THCON_OWN,      /* this thread's own ThCon instruction has not finished */
  TT_WAIT_CFG_ENTRY,      /* Config pipeline entry rule not met (stage busy / ordering) */
  TT_WAIT_SYNC_SLOT,      /* the shared Sync slot went to another thread this cycle */
  TT_WAIT_ARBITRATION,    /* lost round-robin for ThCon or a Config stage this cycle */
  TT_WAIT_WB_FULL,        /* the write-back queue is full (cannot happen with default knobs) */
  TT_WAIT_KIND_COUNT
} tt_wait_kind;

/* Result-visibility hazards reported in cycle mode (vector-format.md; digest 5.5). */
typedef enum tt_hazard_kind {
  TT_HAZ_GPR_PENDING,       /* reads/writes a GPR whose asynchronous write-back has not landed */
  TT_HAZ_CFG_GAP,           /* Config-reading foreign instruction right after a Config write */
  TT_HAZ_STREAMWRCFG_ORDER, /* Config instruction entered while a STREAMWRCFG is in prepare */
  TT_HAZ_KIND_COUNT
} tt_hazard_kind;

typedef enum tt_outcome {
  TT_OUT_DONE,      /* every thread retired its whole stream */
  TT_OUT_DEADLOCK,  /* some thread is not done and no thread can ever progress again */
  TT_OUT_BUDGET,    /* stopped by the budget */
  TT_OUT_UNSUPPORTED_MODE
} tt_outcome;

typedef enum tt_latch_op { TT_LATCH_NONE, TT_LATCH_STALLWAIT, TT_LATCH_SEMWAIT, TT_LATCH_STREAMWAIT } tt_latch_op;

/* Knobs: see knobs.def. */
#define TT_KNOB(ID, name, values, amb, text) TT_KNOB_##ID,
typedef enum tt_knob { 
#include "knobs.def"
  TT_KNOB_COUNT } tt_knob;
#undef TT_KNOB

/* ---- state ------------------------------------------------------------------------------ */
/* One Wait Gate latch: the latched wait instruction (STALLWAIT.md, SEMWAIT.md, STREAMWAIT.md). */
typedef struct tt_latch {
  uint8_t op;             /* tt_latch_op; reset NONE */
  uint8_t sem_mask;       /* SEMWAIT: bit i = semaphore i */
  uint8_t stream_select;  /* STREAMWAIT: 0..3, index into STREAM_ID_SYNC_SEC */
  uint8_t condition_index;/* STREAMWAIT: 0 phase (reg 29), 1 messages (reg 259) */
  uint16_t block_mask;    /* 9 bits, default-substituted (0 -> B6) */
  uint16_t cond_mask;     /* STALLWAIT 13 bits (0 -> 0x0F), SEMWAIT 2 bits */
  uint32_t target;        /* STREAMWAIT target value (HI << 10 | Lo) */
  uint32_t target_lo;     /* STREAMWAIT Lo field, for streamwait_operands=live */
} tt_latch;

typedef struct tt_thread {
  uint32_t pc;            /* index of the next instruction of prog[] to issue; reset 0 */
  uint32_t len;           /* program length; reset 0 */
  uint32_t retired;       /* instructions that passed the gate */
  tt_latch latch;
  uint8_t fault_class;    /* first fault's class (tt_fault_class); reset NONE */
  uint8_t fault_code;     /* first fault's reason (tt_fault_code) */
  uint16_t fault_count;   /* faults recorded (saturating) */
  uint32_t fault_pc;      /* instruction index of the first fault */
  uint8_t wait_kind;      /* tt_wait_kind, updated by every scheduler step */
  uint8_t wait_arg;       /* mutex index / semaphore mask etc. */
  uint8_t pad[2];
} tt_thread;

/* Packer state read by SETDMAREG special mode: an input stub the caller may set. */
typedef struct tt_packer {
  uint32_t acc_tile_size[TT_THREAD_COUNT];
  uint32_t last_tile_size;
  uint8_t last_thread;
  uint8_t all_zero_flags;
  uint8_t exp_hist_max;
  uint8_t pad;
  uint8_t out_data_format[2];        /* per Config bank (hardware: packer Config), 4 bits */
  uint8_t disable_zero_compress[2];  /* per Config bank, 1 bit */
  uint8_t exp_hist[32];
} tt_packer;

/* ---- cycle mode: micro-architectural state (see cycle.c) -------------------------------- */
#define TT_WB_MAX 64             /* asynchronous GPR write-backs in flight (4 per 128-bit load) */
#define TT_CFGP_STAGE_COUNT 6    /* Config pipeline stages -4..+1, stored at index stage + 4 */
#define TT_HAZARD_KEEP 64        /* hazard records kept per run (tt_hazard_count() counts all) */
#define TT_STUB_COUNT 6          /* foreign-unit stubs: unpacker 0/1, packer, FPU, SFPU, mover */
enum { TT_STUB_UNPACK0, TT_STUB_UNPACK1, TT_STUB_PACK, TT_STUB_FPU, TT_STUB_SFPU, TT_STUB_MOVER };
/* Round-robin arbitration pointers, one per contended resource. */
enum { TT_RR_THCON, TT_RR_SYNC, TT_RR_CFG0 /* + stage index */, TT_RR_MUTEX0 = TT_RR_CFG0 + 6,
       TT_RR_UNIT0 = TT_RR_MUTEX0 + TT_MUTEX_SLOTS /* + stub unit */, TT_RR_COUNT = TT_RR_UNIT0 + 6 };

/* One pending asynchronous GPR write-back (LOADIND, LOADREG, ATINCGET, RDCFG). */
typedef struct tt_wb {
  uint32_t value, mask;   /* merged into the GPR as it is when it lands: (g & ~mask) | value */
  uint32_t due;           /* lands at the start of this cycle */
  uint8_t thread, reg;
  uint8_t thcon;          /* 1: a ThCon memory request (STALLWAIT C0); 0: RDCFG */
  uint8_t pad;
} tt_wb;

/* One occupant of a Config pipeline stage. */
typedef struct tt_cfgp_slot {
  uint8_t valid;          /* 1 when the stage is occupied (mirrored in tt_cyc.cfgp_occ) */
  uint8_t thread;
  uint8_t left;           /* cycles still to spend in this stage (>= 1 while valid) */
  uint8_t bank;           /* Config bank captured at issue */
  uint8_t skip;           /* 1: the access is UndefinedBehavior (recorded at issue), no effect */
  uint8_t pad[3];
  uint32_t seq;           /* per-thread entry order (1, 2, ...) for the ordering invariant */
  uint32_t pc;            /* instruction index in its thread */
  uint32_t vals[4];       /* operands captured on the way (WRCFG GPRs at -1, overlay read at -3) */
  tt_insn insn;
} tt_cfgp_slot;

/* One reported result-visibility hazard. */
typedef struct tt_hazard {
  uint8_t kind;           /* tt_hazard_kind */
  uint8_t thread;
  uint8_t gpr;            /* gpr_pending: the GPR concerned */
  uint8_t pad;
  uint32_t index;         /* instruction index K in the thread's stream */
  uint32_t cycle;         /* issue (or pipeline entry) cycle of K */
} tt_hazard;

typedef struct tt_cyc {
  uint32_t now;                       /* current cycle; reset 0 */
  uint32_t cycles;                    /* first cycle with every thread done and every unit idle */
  uint32_t thcon_free_at;             /* ThCon accepts an instruction again from this cycle */
  uint32_t thcon_pc;                  /* instruction index of the ThCon occupant */
  uint8_t thcon_owner;                /* 1+t of the thread whose ThCon instruction runs, 0 none */
  uint8_t thcon_spin;                 /* 1: the occupant is an atomic whose last attempt failed */
  uint8_t nwb;                        /* entries used in wb[] */
  uint8_t finished;                   /* 1 once `cycles` is set */
  uint8_t cfgp_busy_prev;             /* Config pipeline occupied at the end of the last cycle */
  uint8_t quiet;                      /* the last cycle changed nothing (only timers ran) */
  uint8_t cfgp_settled_prev;          /* c12_scope=settled: occupied at the end of the last cycle,
                                         an RDCFG in stage +1 not counted (AMB-45) */
  uint8_t flush_wait;                 /* flushdma_release=next_cycle (AMB-46): 1 the FLUSHDMA held,
                                         2 its conditions were found clear last cycle */
  uint8_t rr[TT_RR_COUNT];            /* round-robin: 1 + last winner per resource, 0 none yet */
  uint8_t src_owner[2];               /* SrcA/SrcB: 0 unpackers, 1 matrix unit (stub) */
  uint32_t src_flip_at[2];            /* pending ownership change (cycle, 0 none) */
  uint8_t src_flip_to[2];
  uint8_t wb_high;                    /* the most entries wb[] held since reset (tt_reset clears
                                         only those) */
  uint8_t cfgp_occ;                   /* bit k: cfgp[k].valid (the stages occupied, in one load) */
  uint32_t thcon_next_try;            /* spinning atomic: next attempt cycle */
  uint32_t thcon_try_at;              /* spinning atomic: cycle of its last attempt */
  uint32_t last_change;               /* last cycle in which anything issued, landed or moved */
  tt_insn thcon_insn;                 /* the occupant (FLUSHDMA and spinning atomics re-check) */
  uint64_t wb_gprs[TT_THREAD_COUNT];  /* GPRs with a pending write-back (bit i = GPR i) */
  uint8_t wb_thcon_count[TT_THREAD_COUNT]; /* pending ThCon memory requests (condition C0) */
  uint8_t pad2;
  uint32_t c0_until[TT_THREAD_COUNT]; /* knob c0_stores=yes: a store counts for C0 until then */
  uint32_t stub_busy_until[TT_STUB_COUNT][TT_THREAD_COUNT];
  uint32_t stub_last_until;           /* the largest stub_busy_until (every stub idle after it) */
  uint32_t thcon_idle_at;             /* thcon_handover=overlap_busy (AMB-49): issue + the full
                                         occupancy; ThCon is idle for `cycles` from then */
  uint32_t matrix_next_at;            /* matrix_interval > 1: the matrix unit accepts a Src-reading
                                         instruction again from this cycle (AMB-43) */
  uint32_t cfg_write_next[TT_THREAD_COUNT]; /* issue cycle + 1 of the last WRCFG/RMWCIB/CFGSHIFTMASK */
  uint32_t setc16_at[TT_THREAD_COUNT];      /* issue cycle + 1 of the last SETC16 (c12_scope) */
  tt_wb wb[TT_WB_MAX];
  tt_cfgp_slot cfgp[TT_CFGP_STAGE_COUNT];
  uint32_t stall[TT_THREAD_COUNT][TT_WAIT_KIND_COUNT]; /* cycles held at the gate, by reason */
  /* Config pipeline accounting (checked by the fuzz invariants cfg_stage_single, cfg_order) */
  uint32_t cfgp_entered, cfgp_left;   /* instructions that entered / left the pipeline */
  uint32_t cfgp_seq[TT_THREAD_COUNT]; /* entries per thread so far */
  uint32_t cfgp_done_seq[TT_THREAD_COUNT]; /* highest seq whose Config access happened */
  uint32_t cfgp_reorders;             /* accesses that happened after a later one of the thread */
  uint32_t nhazards;                  /* hazards reported (all, not only those kept) */
  uint32_t nhazards_kind[TT_HAZ_KIND_COUNT]; /* the same, per tt_hazard_kind */
  tt_hazard hazards[TT_HAZARD_KEEP];
} tt_cyc;

/* All small resettable state; tt_reset() clears it (the tail only where it was written). */
typedef struct tt_core {
  /* architectural */
  uint32_t gpr[TT_THREAD_COUNT][TT_GPR_COUNT];          /* 32-bit, reset 0 */
  /* cfg (Config banks) is near the end, with the cycle-mode state: see cfg_touched */
  uint16_t tcfg[TT_THREAD_COUNT][TT_TCFG_WORD_COUNT];   /* ThreadConfig 16-bit values, reset 0 */
  uint8_t sem_value[TT_SEM_COUNT];                      /* 4-bit, reset 0 */
  uint8_t sem_max[TT_SEM_COUNT];                        /* 4-bit, reset 0 */
  uint8_t mutex[TT_MUTEX_SLOTS];                        /* 0 nobody, 1+t held by thread t */
  uint8_t mutex_handoff[TT_MUTEX_SLOTS];                /* 0 none, 1+t reserved by the fairness rule */
  uint8_t pad0[4];
  tt_thread thr[TT_THREAD_COUNT];
  /* side-effect observations (write-only hardware actions, recorded for checking) */
  uint32_t prng_seed;                                   /* last value written to PRNG_SEED */
  uint32_t prng_reseeds;                                /* count of reseeds */
  uint32_t icache_invalidates[5];                       /* per core B,T0,T1,T2,NC */
  uint32_t ctx_cnt_resets[TT_THREAD_COUNT][2];          /* unpacker 0/1 context counter resets */
  /* input stubs */
  tt_packer packer[TT_PACKER_COUNT];
  uint8_t src_allowed_unpackers[2];                     /* SrcA/SrcB owned by unpackers: 1 (stub) */
  uint8_t src_dirty;                                    /* bit 4b + k: rows 16k..16k+15 of Src b written */
  uint8_t thcon_spinner;                                /* 1+t while t's ATCAS/ATINCGETPTR spins */
  /* bookkeeping */
  uint64_t steps;                                       /* scheduler steps of the last run(s) */
  uint32_t form_count[TT_FORM_COUNT];                   /* instructions issued, per form */
  uint32_t fault_counts[TT_FAULT_CLASS_COUNT];          /* faults recorded, per class */
  uint16_t l1_dirty_count, mmio_dirty_count;
  uint8_t last_outcome;                                 /* tt_outcome of the last tt_run */
  uint8_t cyc_used;                                     /* a cycle-mode step ran since reset */
  uint8_t cfg_touched;                                  /* bit b: Config bank b written since reset */
  uint8_t pad2;
  /* Cleared only when written since the last reset (tt_reset reads the two bytes above), so
   * a reset costs what the run touched. Code writing these fields directly (not through
   * tt_loc_set, the host port or an instruction) must set the matching bit itself. */
  uint32_t cfg[TT_CFG_BANK_COUNT][TT_CFG_WORD_COUNT];   /* Config banks, reset 0 */
  /* micro-architectural (cycle mode only; all zero in functional mode) */
  tt_cyc cyc;
} tt_core;

typedef struct tt_params {
  uint8_t mode;                  /* tt_mode */
  uint8_t knob[TT_KNOB_COUNT];   /* value index per knob, 0 = default */
} tt_params;

typedef struct tt_state {
  tt_core c;
  /* large arrays: each has one writer that marks a dirty granule; reset is O(dirty) */
  uint32_t src[2][TT_SRC_ROWS][TT_SRC_COLS];            /* SrcA/SrcB stub (19-bit datums) */
  uint8_t l1[TT_L1_SIZE];
  uint32_t mmio[TT_MMIO_SIZE / 4];                      /* 0xFFB00000.. words */
  uint8_t l1_dirty[TT_L1_CHUNKS / 8];
  uint8_t mmio_dirty[TT_MMIO_CHUNKS / 8];
  uint16_t l1_dirty_list[TT_L1_CHUNKS];
  uint16_t mmio_dirty_list[TT_MMIO_CHUNKS];
  uint32_t issue_cycle[TT_THREAD_COUNT][TT_PROG_MAX];   /* cycle mode: instruction k passed the
                                                           gate in cycle issue_cycle[t][k]
                                                           (valid for k < retired; reset clears
                                                           those entries) */
  /* parameters: survive tt_reset() */
  tt_params p;
  /* The loaded programs: prog[t][i] for i < thr[t].len (words past len are never read, so
   * tt_reset and tt_load_program leave them; they are outside TT_STATE_BYTES). */
  uint32_t prog[TT_THREAD_COUNT][TT_PROG_MAX];
  /* Simulated cycles tt_run did not take through the full per-cycle step (quiet cycles
   * fast-forwarded over, cycle_skip.c; held cycles, cycle.c), since tt_init: a statistic for
   * benchmarks and tests, not state (reset leaves it). */
  uint64_t skipped_cycles;
  /* Caller-owned, NULL unless the caller set it (tt_init clears it; reset leaves it; outside
   * TT_STATE_BYTES, never digested or compared). In a model built with -DTT_KNOB_LOG
   * (tt_knob_log_built), every read of knob k ORs bit k into *knob_log: fuzz/ambiguity_diff.c
   * reads it after its default-reading run, since a run that never read knob k ends the same
   * whatever k's value. Other builds never write it: a test of a pointer at every knob read
   * cost 7-11% of cycle mode's host instructions (reports/2026-11-26-spec-diff-speed.md). */
  uint64_t *knob_log;
  /* The decoded programs (last, outside the state proper): pdec[t][i] is the head of the
   * decode of prog[t][i] (tt_decode_head: `a` is not filled), made at its first fetch through
   * tt_head (cycle mode, and functional mode's general path; the functional quick issue reads
   * the word and its opcode entry instead) after the load, so a word is decoded at most once per
   * load, never per fetch, and a word that never runs is never decoded (fuzz inputs and stalled
   * kernels run a fraction of their words; decoding every word at load made `make
   * bench-model`'s full-size inputs 2.7x slower). A thread's pc only steps by one, so the head
   * at pc is decoded exactly when pc < pdec_n[t]: tt_head decodes at pc >= pdec_n[t] and sets
   * pdec_n[t] = pc + 1 (places the quick issue passed below it are never fetched again).
   * tt_load_program (the one writer of prog) sets pdec_n[t] to 0; a run's decoder coverage is
   * that of the words it fetched, whatever ran before. No digest or comparison reads them.
   * TT_STATE_BYTES is the size of the state before prog. */
  uint32_t pdec_n[TT_THREAD_COUNT];
  tt_insn pdec[TT_THREAD_COUNT][TT_PROG_MAX];
} tt_state;
#define TT_STATE_BYTES offsetof(tt_state, prog)

/* ---- lifecycle and running --------------------------------------------------------------- */
void tt_init(tt_state *st);                 /* full initialisation, default knobs, func mode */
void tt_reset(tt_state *st);                /* back to the reset state; parameters kept */
int tt_set_mode(tt_state *st, tt_mode mode);/* 0, or -1 when the mode is not available */
int tt_mode_available(tt_mode mode);
/* Load thread t's program (replaces it, pc = 0). Returns 0, or -1 if t or count is bad. */
int tt_load_program(tt_state *st, unsigned t, const uint32_t *words, uint32_t count);
/* Run until done, deadlock or `budget` scheduler steps (func: rounds; cycle: cycles). */
tt_outcome tt_run(tt_state *st, uint64_t budget);
/* One scheduler step; returns 1 if anything changed (an instruction issued or a latch moved). */
int tt_step(tt_state *st);
int tt_thread_done(const tt_state *st, unsigned t);
/* Can thread t never progress again? (valid after tt_run returned DEADLOCK or DONE) */
int tt_thread_blocked(const tt_state *st, unsigned t);
/* Human-readable wait reason of thread t ("latched SEMWAIT cond=0x1 sems=0x02 (sem1=0)"). */
size_t tt_describe_wait(const tt_state *st, unsigned t, char *buf, size_t n);
/* Mutex index an ATGETM/ATRELM names, as the model reads it: the encoding table's field, or
 * the low 24 bits under knob field_width=llk (AMB-29). For tools that explain a run. */
uint32_t tt_mutex_index(const tt_state *st, const tt_insn *in);
uint64_t tt_digest(const tt_state *st);      /* hash of all architectural state */

/* ---- cycle-mode results (valid after a cycle-mode tt_run) ------------------------------- */
/* The first cycle in which every thread was done and every unit idle (vector `expect cycles`);
 * when the run did not finish (deadlock, budget): the cycle it stopped in. */
uint64_t tt_cycle_count(const tt_state *st);
/* Issue cycle of instruction k of thread t: 0 and *cycle set, or -1 if it never issued. */
int tt_issue_cycle(const tt_state *st, unsigned t, uint32_t k, uint64_t *cycle);
/* Cycles thread t spent held at its gate for `reason` (a tt_wait_kind). */
uint64_t tt_stall_cycles(const tt_state *st, unsigned t, unsigned reason);
const char *tt_wait_kind_name(unsigned reason);   /* "latch", "thcon_own", "cfg_entry", ... */
unsigned tt_hazard_count(const tt_state *st);     /* all reported; the first TT_HAZARD_KEEP kept */
unsigned tt_hazard_kind_count(const tt_state *st, unsigned kind);  /* all reported of one kind */
int tt_hazard_get(const tt_state *st, unsigned i, tt_hazard *h);  /* 0, or -1 past the kept */
const char *tt_hazard_kind_name(unsigned kind);   /* "gpr_pending", "cfg_gap", ... */
int tt_hazard_kind_parse(const char *name);       /* or -1 */
/* GPRs instruction `in` reads and writes in its own thread (bit i = GPR i), from its fields. */
void tt_insn_gpr_use(const tt_insn *in, uint64_t *reads, uint64_t *writes);
/* Per-cycle view for tools (state at the end of the last simulated cycle). */
typedef struct tt_unit_view {
  uint32_t cycle;                          /* the cycle just simulated */
  int8_t thcon_thread;                     /* -1 idle, else the thread whose instruction runs */
  uint8_t thcon_spinning;
  int8_t cfg_stage_thread[TT_CFGP_STAGE_COUNT]; /* -1 empty, else occupant's thread (-4..+1) */
  uint16_t cfg_stage_form[TT_CFGP_STAGE_COUNT];
  uint8_t wb_pending;                      /* asynchronous write-backs in flight */
} tt_unit_view;
void tt_unit_view_get(const tt_state *st, tt_unit_view *v);

/* ---- knobs ------------------------------------------------------------------------------- */
const char *tt_knob_name(unsigned knob);
const char *tt_knob_values(unsigned knob);   /* "a|b|c" */
const char *tt_knob_ref(unsigned knob);
const char *tt_knob_text(unsigned knob);
/* Set knob by names; 0 ok, -1 unknown knob, -2 unknown value. */
int tt_knob_set(tt_state *st, const char *name, const char *value);
int tt_knob_by_name(const char *name);                 /* index, or -1 */
int tt_knob_value_index(unsigned knob, const char *value);  /* index, or -1 */
unsigned tt_knob_value_count(unsigned knob);
/* 1 when this model was built with -DTT_KNOB_LOG (knob reads noted in st->knob_log), else 0. */
int tt_knob_log_built(void);

/* ---- profiles (profiles.def): named sets of knob values; `isa` (every knob at its default)
 * is the default, `p150` is Blackhole p150 silicon as measured. ----------------------------- */
unsigned tt_profile_count(void);
const char *tt_profile_name(unsigned profile);
const char *tt_profile_text(unsigned profile);
const char *tt_profile_settings(unsigned profile);   /* "knob=value knob=value ..." */
int tt_profile_by_name(const char *name);             /* index, or -1 */
/* Value index the profile gives knob (0 where it names none). */
unsigned tt_profile_knob(unsigned profile, unsigned knob);
/* Every knob to the profile's value (its default where the profile names none). 0 ok, -1. */
int tt_profile_apply(tt_state *st, unsigned profile);

/* ---- ambiguity registry (ambiguities.def; `ttconf --ambiguities`) -------------------------- */
typedef struct tt_amb {
  unsigned id;              /* N of AMB-N */
  const char *slug;         /* file-name part: reports/ambiguities/AMB-NN-<slug>.md */
  const char *modes;        /* "func+cycle", "cycle" or "none": where a stream separates them */
  const char *question, *why_default, *models;
  const char *unobservable; /* "" when a stream can separate the readings */
} tt_amb;
typedef struct tt_amb_reading {
  unsigned amb;             /* id of its ambiguity */
  const char *knob, *value; /* knob "" for a reading no stream can select (value: a label) */
  const char *pages, *text;
} tt_amb_reading;
unsigned tt_amb_count(void);
const tt_amb *tt_amb_get(unsigned i);
const tt_amb *tt_amb_by_id(unsigned id);
unsigned tt_amb_reading_count(void);
const tt_amb_reading *tt_amb_reading_get(unsigned i);
/* The reading row of knob value `value` (for value 0: its first row), or NULL. */
const tt_amb_reading *tt_amb_reading_of(unsigned knob, unsigned value);
const char *tt_fault_class_name(unsigned cls);     /* "none", "undefined", ... */
int tt_fault_class_parse(const char *name);        /* or -1 */
const char *tt_fault_code_text(unsigned code);
unsigned tt_fault_code_class(unsigned code);

/* ---- state access (raw: no side effects, no banking; marks dirty) ----------------------- */
typedef enum tt_loc_kind {
  TT_LOC_GPR, TT_LOC_CFG, TT_LOC_TCFG, TT_LOC_SEM_VALUE, TT_LOC_SEM_MAX, TT_LOC_MUTEX,
  TT_LOC_L1_U8, TT_LOC_L1_U16, TT_LOC_L1_U32, TT_LOC_MMIO,
  /* accesses, not storage: a load or store by RISC-V core `sel` (tt_core_id) through its host
   * port (tt_host_read / tt_host_write) at byte address `index` */
  TT_LOC_HOST_U8, TT_LOC_HOST_U16, TT_LOC_HOST_U32,
  /* event counters (vector-format.md): side effects whose action lies outside the modelled
   * units, counted since reset; read-only (tt_loc_set ignores them) */
  TT_LOC_PRNG_RESEEDS,      /* Config writes that reseeded the PRNG */
  TT_LOC_IC_INVALIDATES,    /* index: core 0 b, 1 t0, 2 t1, 3 t2, 4 nc */
  TT_LOC_CTX_RESETS         /* sel: thread, index: unpacker 0..1 */
} tt_loc_kind;
typedef struct tt_loc {
  uint8_t kind;      /* tt_loc_kind */
  uint8_t sel;       /* thread (GPR, TCFG), bank (CFG) or RISC-V core (HOST: tt_core_id) */
  uint32_t index;    /* register/word index, semaphore/mutex index, or byte address */
} tt_loc;
/* Parse "t0.gpr[3]", "cfg[1][200]", "tcfg[2][5]", "sem[3].value", "mutex[2]", "l1.u32[0x40]",
 * "mmio[0xFFB40074]", "host.t0.u32[0xFFE80020]" (core b, t0, t1 or t2; u8/u16/u32, naturally
 * aligned), and the event counters "prng_reseeds", "ic_invalidates[t1]" (b, t0, t1, t2, nc),
 * "t2.ctx_resets[1]". Returns 0, or -1 with a message in err. Numbers: decimal or 0x hex.
 * Host locations: tt_loc_get performs the load (0 when the port refuses it), tt_loc_set the
 * store (ignored when refused); tt_state_diff never reports them (they are not storage). */
int tt_loc_parse(const char *text, size_t len, tt_loc *loc, const char **err);
size_t tt_loc_format(const tt_loc *loc, char *buf, size_t n);
unsigned tt_loc_width(const tt_loc *loc);          /* bits: 32/16/8/4; mutex: 2 */
uint32_t tt_loc_get(const tt_state *st, const tt_loc *loc);  /* mutex: 0 none, 1+t */
void tt_loc_set(tt_state *st, const tt_loc *loc, uint32_t value);
/* Call cb for every architectural location whose value differs between a and b. */
typedef void (*tt_diff_cb)(void *ctx, const tt_loc *loc, uint32_t a, uint32_t b);
unsigned tt_state_diff(const tt_state *a, const tt_state *b, tt_diff_cb cb, void *ctx);

uint32_t tt_l1_read(const tt_state *st, uint32_t addr, unsigned bytes);   /* little-endian */
void tt_l1_write(tt_state *st, uint32_t addr, unsigned bytes, uint32_t value);
uint32_t tt_mmio_read(const tt_state *st, uint32_t addr);                 /* 4-aligned */
void tt_mmio_write(tt_state *st, uint32_t addr, uint32_t value);

/* ---- host (RISC-V) port: BlackholeA0/TensixTile/BabyRISCV/README.md memory map --------- */
typedef enum tt_core_id { TT_CORE_B, TT_CORE_T0, TT_CORE_T1, TT_CORE_T2 } tt_core_id;
typedef enum tt_host_status {
  TT_HOST_OK, TT_HOST_UNMAPPED, TT_HOST_READONLY, TT_HOST_BAD_SIZE, TT_HOST_UNSUPPORTED
} tt_host_status;
#define TT_HOST_GPR_BASE 0xFFE00000u   /* REGFILE_BASE */
#define TT_HOST_SEM_BASE 0xFFE80020u   /* PC_BUF_BASE + 4*PC_BUF_SEMAPHORE_BASE */
#define TT_HOST_CFG_BASE 0xFFEF0000u   /* TENSIX_CFG_BASE: Config[2][224] */
#define TT_HOST_CFG_DUAL 0xFFEF0700u   /* ConfigDualWrite[224] */
#define TT_HOST_TCFG_BASE 0xFFEF0A80u  /* ThreadConfig[3][68], 4 bytes per entry */
/* size: 1, 2 or 4 bytes, naturally aligned. */
tt_host_status tt_host_read(const tt_state *st, tt_core_id core, uint32_t addr, unsigned size,
                            uint32_t *value);
tt_host_status tt_host_write(tt_state *st, tt_core_id core, uint32_t addr, unsigned size,
                             uint32_t value);
/* "ok", "unmapped", "read-only", "bad size", "unsupported". A store or load is refused when
 * the status is UNMAPPED, READONLY or BAD_SIZE; UNSUPPORTED (a ConfigDualWrite read) is
 * performed and says the documentation calls it UnsupportedFunctionality. */
const char *tt_host_status_name(unsigned status);
/* Core name as in host locations: "b", "t0", "t1", "t2". */
const char *tt_core_name(unsigned core);

#endif
