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
#define SR_MUTEXES 5
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

/* The RISC-V host port (digest 2.1-2.3): a load or store by core `core` (tt_core_id) of
 * `size` bytes at `addr`. Returns a tt_host_status. */
unsigned sr_host_read(const sr_state *s, unsigned core, uint32_t addr, unsigned size, uint32_t *v);
unsigned sr_host_write(sr_state *s, unsigned core, uint32_t addr, unsigned size, uint32_t v);

/* Start from the architectural state of `m` (its initial state: init records, knobs,
 * programs, packer stub). Clears whatever the previous run left in the memories. */
void sr_load(sr_state *s, const tt_state *m);
/* One round. */
void sr_round(sr_state *s);
int sr_done(const sr_state *s);

#endif
