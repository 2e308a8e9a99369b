/* internal.h — helpers shared by the unit files of the model (not part of the public API):
 * the state's helpers (state.c) and the units' entry points. Everything here uses only the
 * state and the encoding table; what only the schedulers share is in sched.h (model/README.md:
 * the layers). */
#ifndef TT_INTERNAL_H
#define TT_INTERNAL_H
#include "tt.h"

#include "defects.h"
#include "chars.h"

/* Result of executing one instruction. */
typedef enum tt_exec_result {
  TT_EXEC_DONE,    /* retired */
  TT_EXEC_RETRY    /* not complete (ATCAS / ATINCGETPTR spinning): try again next step */
} tt_exec_result;

/* Code layout hints for the schedulers' hot paths (GCC and Clang; no effect on behaviour). */
#if defined(__GNUC__)
#define TT_NOINLINE __attribute__((noinline))
#define TT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TT_LIKELY(x) __builtin_expect(!!(x), 1)
#define TT_INLINE inline __attribute__((always_inline))
#else
#define TT_INLINE inline
#define TT_LIKELY(x) (x)
#define TT_NOINLINE
#define TT_UNLIKELY(x) (x)
#endif

/* The value index of knob k: every read of a knob in model/ goes through it. Built with
 * -DTT_KNOB_LOG, it also notes the read in the caller's log (tt.h: knob_log). */
_Static_assert(TT_KNOB_COUNT <= 64, "knob_log: one bit per knob");
#ifdef TT_KNOB_LOG
static inline unsigned tt_knob_read(const tt_state *st, unsigned k) {
  if (st->knob_log != NULL) *st->knob_log |= (uint64_t)1 << k;
  return st->p.knob[k];
}
#else
static inline unsigned tt_knob_read(const tt_state *st, unsigned k) { return st->p.knob[k]; }
#endif
#define TT_KNOB_IS(st, K, v) (tt_knob_read((st), TT_KNOB_##K) == (v))
#define TT_KNOB_VAL(st, K) tt_knob_read((st), TT_KNOB_##K)

/* Record an input-caused condition on thread t (the first one is kept for `expect fault`). */
void tt_fault(tt_state *st, unsigned t, tt_fault_code code);

/* Config bank used by thread t: ThreadConfig[t].CFG_STATE_ID_StateID. */
static inline unsigned tt_thread_bank(const tt_state *st, unsigned t) {
  return TT_DEFECT(CFG_BANK0_ONLY) ? 0u : st->c.tcfg[t][TT_TCFG_CFG_STATE_ID] & 1u;
}

/* GPR half-register h (0..127) of thread t: low half for even h, high half for odd h. */
static inline uint32_t tt_half_get(const tt_state *st, unsigned t, unsigned h) {
  return (st->c.gpr[t][(h >> 1) & 63] >> (16 * (h & 1))) & 0xFFFFu;
}
static inline void tt_half_set(tt_state *st, unsigned t, unsigned h, uint32_t v) {
  unsigned sh = 16 * (h & 1);
  uint32_t *r = &st->c.gpr[t][(h >> 1) & 63];
  *r = (*r & ~(0xFFFFu << sh)) | ((v & 0xFFFFu) << sh);
}

/* How a Config write arrives: RMWCIB is exempt from the STATE_RESET_EN side effect. */
typedef enum tt_cfg_via { TT_VIA_TENSIX, TT_VIA_RMWCIB, TT_VIA_HOST } tt_cfg_via;
/* Write `count` consecutive Config words starting at idx as seen from `bank`, applying the
 * global rule (idx >= 180: both banks) and the write side effects of BackendConfiguration.md.
 * Caller has checked idx + count <= 224. */
void tt_cfg_write_words(tt_state *st, unsigned bank, unsigned idx, const uint32_t *vals,
                        unsigned count, tt_cfg_via via);

/* One Config word: the common case (a banked word with no side effect: below
 * GLOBAL_CFGREG_BASE and not STATE_RESET_EN) inline, as tt_cfg_write_words stores it; the
 * rest through tt_cfg_write_words. */
static inline void tt_cfg_write_one(tt_state *st, unsigned bank, unsigned idx, uint32_t v,
                                    tt_cfg_via via) {
  if (idx < TT_CFG_GLOBAL_BASE && idx != TT_CFG_STATE_RESET_EN) {
    st->c.cfg[bank][idx] = v;
    st->c.cfg_touched |= (uint8_t)(1u << bank);
    return;
  }
  tt_cfg_write_words(st, bank, idx, &v, 1, via);
}

/* L1 bound under the l1_size knob. */
static inline uint32_t tt_l1_limit(const tt_state *st) {
  return TT_KNOB_IS(st, L1_SIZE, 1) ? TT_L1_SIZE_WH : TT_L1_SIZE;
}

/* NoC overlay stream register read (stream 0..63, reg 0..1023): plain MMIO storage. */
static inline uint32_t tt_stream_reg(const tt_state *st, unsigned stream, unsigned reg) {
  return tt_mmio_read(st, TT_STREAM_BASE + (stream & 63u) * 0x1000u + (reg & 1023u) * 4u);
}

/* The index of `name` in a table of n names, or -1 (state.c). */
int tt_name_index(const char *const *names, unsigned n, const char *name);

/* Bounded text output (tt_text, tt_put...): chars.h. */

/* Unit executors (one function per form, dispatched from run.c), given the instruction's word;
 * each unpacks the fields it reads (TT_EXEC_ARGS). */
#define TT_FORM(ID, mn, dm, dv) tt_exec_result tt_exec_##ID(tt_state *st, unsigned t, uint32_t w);
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
/* An executor's first line: `a`, its fields unpacked from its word `w` (tt_unpack_<FORM>). */
#define TT_EXEC_ARGS(ID) const tt_args_##ID a_##ID = tt_unpack_##ID(w), *const a = &a_##ID

/* Wait Gate (waitgate.c) */
/* Latch a STALLWAIT with these fields (STALLWAIT itself, and the readings of FLUSHDMA and
 * SEMWAIT that latch like it). */
tt_exec_result tt_stallwait_latch(tt_state *st, unsigned t, const tt_args_STALLWAIT *a);
int tt_gate_catches(uint16_t block_mask, uint16_t insn_block_bits);
/* Does thread t's latched wait hold `in` (block bits under the knobs; wait_replace)? */
int tt_latch_catches(const tt_state *st, unsigned t, const tt_insn *in);
/* Are all of the latch's selected conditions false now (so the latch may be forgotten)?
 * `conds`: the STALLWAIT conditions C0..C12 that hold now (bit i = Ci), as the scheduler sees
 * them: 0 in functional mode, tt_cycle_conditions in cycle mode. Read only for a STALLWAIT
 * latch (the scheduler need not compute them for another). */
int tt_latch_satisfied(const tt_state *st, unsigned t, uint32_t conds);
/* Sync Unit gate checks (sync.c): 0 = may issue, else a tt_wait_kind. */
unsigned tt_sync_gate(const tt_state *st, unsigned t, const tt_insn *in);
int tt_mutex_slot_valid(uint32_t index);
/* Whether a mutex index exists (mutex_indices); tt_mutex_index is in tt.h. */
int tt_mutex_exists(const tt_state *st, uint32_t index);

/* Asynchronous GPR results: GPR reg of thread t becomes (g & ~mask) | (value & mask).
 * Functional mode: at once. Cycle mode: lands at the start of cycle now + latency. */
typedef enum tt_lat { TT_LAT_LOADIND, TT_LAT_LOADREG, TT_LAT_ATINCGET, TT_LAT_RDCFG,
                      TT_LAT_SETDMAREG /* knob setdmareg_result=two_cycles (AMB-13) */ } tt_lat;
/* (state.c) The result is state: merged now, or queued in st->c.cyc.wb with its due cycle for
 * the cycle scheduler to land (cycle.c); the units never ask the scheduler. */
void tt_gpr_land(tt_state *st, unsigned t, unsigned reg, uint32_t value, uint32_t mask, tt_lat lat);
unsigned tt_latency(const tt_state *st, tt_lat lat);
/* Merge a landing result into GPR reg of thread t (gpr0=zero, AMB-27: GPR 0 keeps no write). */
static inline void tt_gpr_merge(tt_state *st, unsigned t, unsigned reg, uint32_t value, uint32_t mask) {
  if ((reg & 63u) == 0 && TT_KNOB_IS(st, GPR0, 1)) return;  /* AMB-27: GPR 0 keeps no write */
  uint32_t *g = &st->c.gpr[t][reg & 63u];
  *g = (*g & ~mask) | (value & mask);
}

/* ---- cycle mode, the units' side (config.c, scalar.c); the scheduler's is in sched.h ---- */
/* ThCon occupancy in cycles of one attempt (ScalarUnit.md table; spec-digest 4.3). */
unsigned tt_thcon_occupancy(const tt_insn *in);
/* Config pipeline: first stage (-4, -1 or 0) of a Config-group instruction, or 1 for
 * instructions that do not enter it (SETC16 has its own group). */
static inline int tt_cfgp_first_stage(const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_STREAMWRCFG: return -4;
  case TT_FORM_WRCFG: case TT_FORM_CFGSHIFTMASK: return -1;
  case TT_FORM_RDCFG: case TT_FORM_RMWCIB0: case TT_FORM_RMWCIB1: case TT_FORM_RMWCIB2:
  case TT_FORM_RMWCIB3: return 0;
  default: return 1;
  }
}
/* Deferred Config-group instructions (WRCFG, CFGSHIFTMASK, STREAMWRCFG): operands captured at
 * issue, effect committed when the instruction reaches stage 0. Functional mode runs the two
 * halves back to back (tt_exec_WRCFG etc.). */
int tt_cfg_deferred(const tt_insn *in);
/* Index (stage + 4) of the last stage an occupant passes: +1 for RDCFG, else 0. */
static inline unsigned tt_cfgp_last_stage(const tt_insn *in) { return in->form == TT_FORM_RDCFG ? 5u : 4u; }
void tt_cfg_capture(tt_state *st, unsigned t, const tt_insn *in, tt_cfgp_slot *slot);
void tt_cfg_read_stream(tt_state *st, tt_cfgp_slot *slot);  /* STREAMWRCFG at stage -3 */
void tt_cfg_commit(tt_state *st, tt_cfgp_slot *slot);
int tt_cfgp_advance(tt_state *st);
int tt_cfgp_can_enter(const tt_state *st, const tt_insn *in);
/* Is any Config pipeline stage occupied? Asked several times per cycle; branch-free, so it
 * adds no coverage edges to its callers. cfgp_occ mirrors the stages' valid flags (config.c
 * writes both), so it also holds under the planted CYC_CFG_OVERWRITE, where an entry may
 * replace an occupant and cfgp_entered - cfgp_left overcounts. */
static inline int tt_cfgp_busy(const tt_state *st) { return st->c.cyc.cfgp_occ != 0; }
/* Enter `in` into its first stage; the scheduler then executes a form that is not deferred. */
void tt_cfgp_enter(tt_state *st, unsigned t, const tt_insn *in, uint32_t pc);

#endif
