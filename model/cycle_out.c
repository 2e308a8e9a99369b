/* cycle_out.c — what a cycle-mode run records and reports, and which GPRs an instruction uses.
 *
 * Split from cycle.c, which clocks the machine. Here: the hazards recorded when an instruction
 * issues (tt_cycle_check_hazards, called by cycle.c's issue step; it writes only the hazard
 * counters and list), the names of hazards and wait reasons, the per-run results a vector or a
 * tool reads (cycles, issue cycles, stall counts, hazards), and the GPR reads and writes of each
 * form, which the hazard check and cycle.c's late ThCon operand read use. References:
 * WormholeB0/.../ScalarUnit.md and the per-instruction pages for the GPR operands; spec-digest
 * §5 for hazards and stalls. */
#include "sched.h"

/* ---- hazards -------------------------------------------------------------------------------- */
static const char *const hazard_names[TT_HAZ_KIND_COUNT] = {"gpr_pending", "cfg_gap",
                                                            "streamwrcfg_order"};
const char *tt_hazard_kind_name(unsigned kind) {
  return kind < TT_HAZ_KIND_COUNT ? hazard_names[kind] : "?";
}
int tt_hazard_kind_parse(const char *name) {
  return tt_name_index(hazard_names, TT_HAZ_KIND_COUNT, name);
}

static void hazard(tt_state *st, unsigned kind, unsigned t, uint32_t index, unsigned gpr) {
  tt_cyc *c = (&st->c.cyc);
  if (c->nhazards < TT_HAZARD_KEEP) {
    tt_hazard *h = &c->hazards[c->nhazards];
    h->kind = (uint8_t)kind;
    h->thread = (uint8_t)t;
    h->gpr = (uint8_t)gpr;
    h->index = index;
    h->cycle = c->now;
  }
  if (c->nhazards < UINT32_MAX) c->nhazards++;
  if (c->nhazards_kind[kind] < UINT32_MAX) c->nhazards_kind[kind]++;
}

static unsigned lowest_bit(uint64_t m) {
  unsigned i = 0;
  while (i < 63 && !(m & ((uint64_t)1 << i))) i++;  /* bounded: 64 bits */
  return i;
}

/* Foreign instructions that cannot read Config: a unit's own NOP, and frontend-only opcodes. */
static int foreign_reads_config(const tt_insn *in) {
  if (in->form != TT_FORM_FOREIGN) return 0;
  if (tt_isa_foreign[in->foreign].kind == TT_FG_FRONTEND) return 0;
  return in->foreign != TT_FG_ID_SFPNOP && in->foreign != TT_FG_ID_UNPACR_NOP;
}

/* The hazards of thread t issuing `in` (its instruction pc) in this cycle (sched.h). */
void tt_cycle_check_hazards(tt_state *st, unsigned t, const tt_insn *in, uint32_t pc) {
  tt_cyc *c = (&st->c.cyc);
  if (c->wb_gprs[t]) {  /* a GPR of this thread has a write-back pending */
    uint64_t rd, wr;
    tt_insn_gpr_use(in, &rd, &wr);
    uint64_t hit = (rd | wr) & c->wb_gprs[t];
    if (hit) hazard(st, TT_HAZ_GPR_PENDING, t, pc, lowest_bit(hit));
  }
  if (c->cfg_write_next[t] == c->now && c->now && foreign_reads_config(in))
    hazard(st, TT_HAZ_CFG_GAP, t, pc, 0);
  if (c->cfgp[0].valid && c->cfgp[0].thread == t && c->cfgp[0].insn.form == TT_FORM_STREAMWRCFG) {
    int stage = tt_cfgp_first_stage(in);
    if (stage > -4 && stage <= 0) hazard(st, TT_HAZ_STREAMWRCFG_ORDER, t, pc, 0);
  }
}

/* ---- results ------------------------------------------------------------------------------------- */
uint64_t tt_cycle_count(const tt_state *st) { return st->c.cyc.finished ? st->c.cyc.cycles : st->c.cyc.now; }

int tt_issue_cycle(const tt_state *st, unsigned t, uint32_t k, uint64_t *cycle) {
  if (t >= TT_THREAD_COUNT || k >= TT_PROG_MAX || st->p.mode != TT_MODE_CYCLE) return -1;
  const tt_thread *th = &st->c.thr[t];
  int spinning = st->c.cyc.thcon_spin && st->c.cyc.thcon_owner == 1 + t && k == th->pc;
  if (k >= th->retired && !spinning) return -1;
  *cycle = st->issue_cycle[t][k];
  return 0;
}

uint64_t tt_stall_cycles(const tt_state *st, unsigned t, unsigned reason) {
  return t < TT_THREAD_COUNT && reason < TT_WAIT_KIND_COUNT ? st->c.cyc.stall[t][reason] : 0;
}

/* Names for people; where the hardware's debug bus has a per-thread stall signal for the same
 * thing, the name says which. */
static const char *const wait_names[TT_WAIT_KIND_COUNT] = {
  "none", "latch (semaphore/stallwait wait)", "mutex (stalled_sync_inst)", "mutex_invalid",
  "atcas_retry (stalled_thcon_inst)", "atincgetptr_retry (stalled_thcon_inst)",
  "thcon_busy (stalled_thcon_inst)", "unit_busy", "thcon_own (stalled_thcon_inst)",
  "cfg_entry (stalled_cfg_inst, cfg_exu_busy)", "sync_slot (stalled_sync_inst)",
  "arbitration", "writeback_full"};
const char *tt_wait_kind_name(unsigned reason) {
  return reason < TT_WAIT_KIND_COUNT ? wait_names[reason] : "?";
}

unsigned tt_hazard_count(const tt_state *st) { return st->c.cyc.nhazards; }
unsigned tt_hazard_kind_count(const tt_state *st, unsigned kind) {
  return kind < TT_HAZ_KIND_COUNT ? st->c.cyc.nhazards_kind[kind] : 0;
}

int tt_hazard_get(const tt_state *st, unsigned i, tt_hazard *h) {
  if (i >= st->c.cyc.nhazards || i >= TT_HAZARD_KEEP) return -1;
  *h = st->c.cyc.hazards[i];
  return 0;
}

/* ---- GPR use of an instruction (ScalarUnit.md and the per-instruction pages; RDCFG.md) ----------- */
#define ONE(r) ((uint64_t)1 << ((r) & 63u))
#define FOUR(r) ((uint64_t)0xF << ((r) & 0x3Cu))
void tt_insn_gpr_use(const tt_insn *in, uint64_t *reads, uint64_t *writes) {
  uint64_t r = 0, w = 0;
  switch (in->form) {
  case TT_FORM_SETDMAREG_IMM: w = ONE(TT_ARG(in, SETDMAREG_IMM, result_half_reg) >> 1); break;
  case TT_FORM_SETDMAREG_SPECIAL: {
    /* ResultSize 2 writes the aligned group of four; 3 replaces only the tile-header fields,
     * which lie in the group's first three words: SETDMAREG.md's functional model assigns
     * TileSize, DataFormat, DisableZeroCompression, SpareBits and AllZeroFlags and leaves the
     * final 32 bits (reserved) alone, so the fourth GPR is neither read nor written (settled
     * by the page; ambiguities.def notes it). */
    uint32_t h = TT_ARG(in, SETDMAREG_SPECIAL, result_half_reg), rs = TT_ARG(in, SETDMAREG_SPECIAL, result_size);
    w = rs < 2 ? ONE(h >> 1) : rs == 2 ? FOUR(h >> 1) : (uint64_t)7 << ((h >> 1) & 0x3Cu);
    break;
  }
#define ALU(F) case TT_FORM_##F##_REG: r = ONE(TT_ARG(in, F##_REG, left_reg)) | ONE(TT_ARG(in, F##_REG, right_reg)); \
    w = ONE(TT_ARG(in, F##_REG, result_reg)); break;                                                       \
  case TT_FORM_##F##_IMM: r = ONE(TT_ARG(in, F##_IMM, left_reg)); w = ONE(TT_ARG(in, F##_IMM, result_reg)); break;
  ALU(ADDDMAREG) ALU(SUBDMAREG) ALU(MULDMAREG) ALU(BITWOPDMAREG) ALU(SHIFTDMAREG) ALU(CMPDMAREG)
#undef ALU
  case TT_FORM_LOADIND:
    r = ONE(TT_ARG(in, LOADIND, addr_reg)) | ONE(TT_ARG(in, LOADIND, offset_half_reg) >> 1);
    w = (TT_ARG(in, LOADIND, size) ? ONE(TT_ARG(in, LOADIND, result_reg)) : FOUR(TT_ARG(in, LOADIND, result_reg))) |
        ONE(TT_ARG(in, LOADIND, offset_half_reg) >> 1);
    break;
  case TT_FORM_STOREIND_L1:
    r = ONE(TT_ARG(in, STOREIND_L1, addr_reg)) | ONE(TT_ARG(in, STOREIND_L1, offset_half_reg) >> 1) |
        (TT_ARG(in, STOREIND_L1, size) ? ONE(TT_ARG(in, STOREIND_L1, data_reg)) : FOUR(TT_ARG(in, STOREIND_L1, data_reg)));
    w = ONE(TT_ARG(in, STOREIND_L1, offset_half_reg) >> 1);
    break;
  case TT_FORM_STOREIND_MMIO:
    r = ONE(TT_ARG(in, STOREIND_MMIO, addr_reg)) | ONE(TT_ARG(in, STOREIND_MMIO, offset_half_reg) >> 1) |
        ONE(TT_ARG(in, STOREIND_MMIO, data_reg));
    w = ONE(TT_ARG(in, STOREIND_MMIO, offset_half_reg) >> 1);
    break;
  case TT_FORM_STOREIND_SRC:
    r = ONE(TT_ARG(in, STOREIND_SRC, addr_reg)) | ONE(TT_ARG(in, STOREIND_SRC, offset_half_reg) >> 1) |
        ((uint64_t)3 << (TT_ARG(in, STOREIND_SRC, data_reg) & 0x3Cu));
    w = ONE(TT_ARG(in, STOREIND_SRC, offset_half_reg) >> 1);
    break;
  case TT_FORM_LOADREG: w = ONE(TT_ARG(in, LOADREG, result_reg)); break;
  case TT_FORM_STOREREG: r = ONE(TT_ARG(in, STOREREG, data_reg)); break;
  case TT_FORM_ATINCGET:
    r = ONE(TT_ARG(in, ATINCGET, addr_reg)) | ONE(TT_ARG(in, ATINCGET, in_out_reg));
    w = ONE(TT_ARG(in, ATINCGET, in_out_reg));
    break;
  case TT_FORM_ATINCGETPTR:
    r = ONE(TT_ARG(in, ATINCGETPTR, addr_reg));
    w = ONE(TT_ARG(in, ATINCGETPTR, result_reg));
    break;
  case TT_FORM_ATSWAP:
    r = ONE(TT_ARG(in, ATSWAP, addr_reg)) |
        (TT_ARG(in, ATSWAP, single_data_reg) ? ONE(TT_ARG(in, ATSWAP, data_reg)) : FOUR(TT_ARG(in, ATSWAP, data_reg)));
    break;
  case TT_FORM_ATCAS: r = ONE(TT_ARG(in, ATCAS, addr_reg)); break;
  case TT_FORM_REG2FLOP:
    r = TT_ARG(in, REG2FLOP, size_sel) ? ONE(TT_ARG(in, REG2FLOP, input_reg)) : FOUR(TT_ARG(in, REG2FLOP, input_reg));
    break;
  case TT_FORM_WRCFG:
    r = TT_ARG(in, WRCFG, is_128bit) ? FOUR(TT_ARG(in, WRCFG, input_reg)) : ONE(TT_ARG(in, WRCFG, input_reg));
    break;
  case TT_FORM_RDCFG: w = ONE(TT_ARG(in, RDCFG, result_reg)); break;
  default: break;
  }
  *reads = r;
  *writes = w;
}
#undef ONE
#undef FOUR

/* ---- what the units hold now -------------------------------------------------------------------- */
void tt_unit_view_get(const tt_state *st, tt_unit_view *v) {
  const tt_cyc *c = &st->c.cyc;
  v->cycle = c->now ? c->now - 1 : 0;
  /* ThCon busy (cycle.c: owned, spinning or before free_at), or released in this very cycle */
  v->thcon_thread = (int8_t)(c->thcon_owner && (c->thcon_spin || c->now <= c->thcon_free_at)
                                 ? (int)c->thcon_owner - 1 : -1);
  v->thcon_spinning = c->thcon_spin;
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++) {
    v->cfg_stage_thread[k] = (int8_t)(c->cfgp[k].valid ? c->cfgp[k].thread : -1);
    v->cfg_stage_form[k] = c->cfgp[k].valid ? c->cfgp[k].insn.form : TT_FORM_COUNT;
  }
  v->wb_pending = c->nwb;
}
