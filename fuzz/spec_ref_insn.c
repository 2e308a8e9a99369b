/* spec_ref_insn.c — what an instruction is to the reference's cycle mode (spec_ref_cycle.c):
 * its Config-pipeline, Sync-slot, latch and mutex classes, the outside unit it goes to, its
 * ThCon occupancy and the GPRs of its thread it reads or writes. Functions of the instruction
 * alone, restated from the digest (§4.3, §5) and the instruction pages; split from
 * spec_ref_cycle.c (issue 19) without a change of behaviour. */
#include <string.h>
#include "spec_ref.h"

int sr_is_cfg_pipe(const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_WRCFG: case TT_FORM_RDCFG: case TT_FORM_RMWCIB0: case TT_FORM_RMWCIB1:
  case TT_FORM_RMWCIB2: case TT_FORM_RMWCIB3: case TT_FORM_CFGSHIFTMASK: case TT_FORM_STREAMWRCFG:
    return 1;
  default: return 0;
  }
}

int sr_is_sync_slot(const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_SEMINIT: case TT_FORM_SEMPOST: case TT_FORM_SEMGET: case TT_FORM_STALLWAIT:
  case TT_FORM_SEMWAIT: case TT_FORM_STREAMWAIT:
    return 1;
  default: return 0;
  }
}

int sr_writes_latch(const tt_insn *in) {
  return in->form == TT_FORM_STALLWAIT || in->form == TT_FORM_SEMWAIT ||
         in->form == TT_FORM_STREAMWAIT || in->form == TT_FORM_FLUSHDMA;
}

/* field_width=llk (AMB-29): the fields take tt-llk's widths (its ckernel_ops.h _VALID macros):
 * the ATGETM/ATRELM mutex index is the payload's low 24 bits, WRCFG's CfgIndex 15 bits ([14:0]),
 * RDCFG's 16 ([15:0]). An index that wide names a mutex or Config word that does not exist and
 * is handled as any such index is. The semaphore masks' extra bits (SEMINIT [15:2], SEMWAIT
 * [14:2], SEMPOST/SEMGET [23:2]) select semaphores that do not exist: nothing, so the 8-bit
 * field stays all a mask selects; those bits are no longer reserved (sr_reserved). */
void sr_decode(const sr_state *s, uint32_t w, tt_insn *in) {
  tt_decode(w, in);
  if (SR_KNOB(s, FIELD_WIDTH) != 1) return;
  switch (in->form) {
  case TT_FORM_ATGETM: in->a.ATGETM.mutex_index = w & 0xFFFFFFu; break;
  case TT_FORM_ATRELM: in->a.ATRELM.mutex_index = w & 0xFFFFFFu; break;
  case TT_FORM_WRCFG: in->a.WRCFG.cfg_index = w & 0x7FFFu; break;
  case TT_FORM_RDCFG: in->a.RDCFG.cfg_index = w & 0xFFFFu; break;
  default: break;
  }
}

int sr_is_mutex_op(const tt_insn *in) { return in->form == TT_FORM_ATGETM || in->form == TT_FORM_ATRELM; }
uint32_t sr_mutex_of(const tt_insn *in) {
  return in->form == TT_FORM_ATGETM ? in->a.ATGETM.mutex_index : in->a.ATRELM.mutex_index;
}

/* The outside unit a foreign instruction goes to, from the block bits of the BH table. */
unsigned sr_unit_of(const tt_insn *in) {
  if (in->form != TT_FORM_FOREIGN || tt_isa_foreign[in->foreign].kind != TT_FG_GATE) return SR_U_NONE;
  uint16_t b = in->block_bits;
  if (b & 0x008u) return (in->word >> 23) & 1u ? SR_U_UNPACK1 : SR_U_UNPACK0;
  if (b & 0x004u) return SR_U_PACK;
  if (b & 0x010u) return SR_U_MOVER;
  if (b & 0x040u) return SR_U_FPU;
  if (b & 0x100u) return SR_U_SFPU;
  return SR_U_NONE;
}

/* A unit's own NOP (SFPNOP, UNPACR_NOP) reads no Config word (vector-format.md cfg_gap). */
int sr_reads_config(const tt_insn *in) {
  if (in->form != TT_FORM_FOREIGN || tt_isa_foreign[in->foreign].kind == TT_FG_FRONTEND) return 0;
  const char *n = tt_isa_foreign[in->foreign].name;
  size_t l = tt_isa_foreign[in->foreign].name_len;
  return !(l >= 3 && memcmp(n + l - 3, "NOP", 3) == 0);
}

unsigned sr_occupancy(const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_SETDMAREG_IMM: case TT_FORM_SETDMAREG_SPECIAL: case TT_FORM_DMANOP:
  case TT_FORM_RSTDMA:
    return 1;
  case TT_FORM_REG2FLOP: case TT_FORM_FLUSHDMA: return 2;   /* (flushdma=stallwait_b5: 1; _2cy: 2) */
  case TT_FORM_ADDDMAREG_IMM: case TT_FORM_SUBDMAREG_IMM: case TT_FORM_MULDMAREG_IMM:
  case TT_FORM_BITWOPDMAREG_IMM: case TT_FORM_SHIFTDMAREG_IMM: case TT_FORM_CMPDMAREG_IMM:
    return 3;
  case TT_FORM_ADDDMAREG_REG: case TT_FORM_SUBDMAREG_REG: case TT_FORM_MULDMAREG_REG:
  case TT_FORM_BITWOPDMAREG_REG: case TT_FORM_SHIFTDMAREG_REG: case TT_FORM_CMPDMAREG_REG: {
    uint32_t f[8];
    unsigned n = tt_insn_fields(in, f, 8), b = n == 4 ? 1u : 0u;   /* [mode,] res, right, left */
    return (f[b + 1] >> 2) == (f[b + 2] >> 2) ? 3u : 4u;
  }
  case TT_FORM_ATCAS: case TT_FORM_ATINCGETPTR: return 15;
  default: return 3;
  }
}

/* GPRs of its own thread that an instruction reads or writes (bit i = GPR i), from the
 * instruction pages' operand lists (a 128-bit operand is its aligned group of four). */
static uint64_t bit(uint32_t r) { return 1ull << (r & 63u); }
static uint64_t group(uint32_t r) { return 0xFull << (r & 0x3Cu); }
/* The matrix unit's instructions that read Src, as knob matrix_interval (AMB-43) lists them:
 * matrix multiply, element-wise multiply/add/subtract, dot product, pools, convolutions. */
int sr_reads_src(const tt_insn *in) {
  static const char *const names[] = {"MVMUL", "ELWMUL", "ELWADD", "ELWSUB", "DOTPV",
                                      "MPOOL3S1", "MPOOL3S2", "APOOL3S1", "APOOL3S2", "GMPOOL",
                                      "GAPOOL", "CONV3S1", "CONV3S2", "MFCONV3S1"};
  if (in->form != TT_FORM_FOREIGN) return 0;
  const char *n = tt_isa_foreign[in->foreign].name;
  size_t l = tt_isa_foreign[in->foreign].name_len;
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i]) == l && memcmp(names[i], n, l) == 0) return 1;
  return 0;
}

/* The GPRs a ThCon instruction reads (its operands; results and write-only registers not):
 * what thcon_read=next_cycle (AMB-44) reads a cycle late. */
uint64_t sr_gpr_reads(const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_ADDDMAREG_REG: case TT_FORM_SUBDMAREG_REG: case TT_FORM_MULDMAREG_REG:
  case TT_FORM_BITWOPDMAREG_REG: case TT_FORM_SHIFTDMAREG_REG: case TT_FORM_CMPDMAREG_REG:
  case TT_FORM_ADDDMAREG_IMM: case TT_FORM_SUBDMAREG_IMM: case TT_FORM_MULDMAREG_IMM:
  case TT_FORM_BITWOPDMAREG_IMM: case TT_FORM_SHIFTDMAREG_IMM: case TT_FORM_CMPDMAREG_IMM: {
    uint32_t f[8];
    unsigned n = tt_insn_fields(in, f, 8), b = n == 4 ? 1u : 0u;   /* [mode,] res, right, left */
    int imm = (in->word >> 23) & 1u;
    return bit(f[b + 2]) | (imm ? 0 : bit(f[b + 1]));
  }
  case TT_FORM_LOADIND: return bit(in->a.LOADIND.addr_reg) | bit(in->a.LOADIND.offset_half_reg >> 1);
  case TT_FORM_LOADREG: case TT_FORM_SETDMAREG_IMM: case TT_FORM_SETDMAREG_SPECIAL: return 0;
  case TT_FORM_ATINCGETPTR: return bit(in->a.ATINCGETPTR.addr_reg);
  default: return sr_gpr_use(in);   /* stores, ATINCGET, ATSWAP, ATCAS, REG2FLOP: all read */
  }
}

uint64_t sr_gpr_use(const tt_insn *in) {
  switch (in->form) {
  case TT_FORM_SETDMAREG_IMM: return bit(in->a.SETDMAREG_IMM.result_half_reg >> 1);
  case TT_FORM_SETDMAREG_SPECIAL: {
    const tt_args_SETDMAREG_SPECIAL *a = &in->a.SETDMAREG_SPECIAL;
    /* ResultSize 3 replaces the tile-header fields of "the same 4-GPR group" (digest 4.3);
     * SETDMAREG.md's functional model assigns them field by field and they all lie in the
     * first three words (the final 32 bits are reserved, left alone): the fourth GPR is no
     * operand (settled by the page; ambiguities.def notes it) */
    if (a->result_size == 3) return group(a->result_half_reg >> 1) & ~bit(((a->result_half_reg >> 1) & 0x3Cu) + 3);
    return a->result_size <= 1 ? bit(a->result_half_reg >> 1) : group(a->result_half_reg >> 1);
  }
  case TT_FORM_ADDDMAREG_REG: case TT_FORM_SUBDMAREG_REG: case TT_FORM_MULDMAREG_REG:
  case TT_FORM_BITWOPDMAREG_REG: case TT_FORM_SHIFTDMAREG_REG: case TT_FORM_CMPDMAREG_REG:
  case TT_FORM_ADDDMAREG_IMM: case TT_FORM_SUBDMAREG_IMM: case TT_FORM_MULDMAREG_IMM:
  case TT_FORM_BITWOPDMAREG_IMM: case TT_FORM_SHIFTDMAREG_IMM: case TT_FORM_CMPDMAREG_IMM: {
    uint32_t f[8];
    unsigned n = tt_insn_fields(in, f, 8), b = n == 4 ? 1u : 0u;
    int imm = (in->word >> 23) & 1u;
    return bit(f[b]) | bit(f[b + 2]) | (imm ? 0 : bit(f[b + 1]));
  }
  case TT_FORM_LOADIND: {
    const tt_args_LOADIND *a = &in->a.LOADIND;
    return bit(a->addr_reg) | bit(a->offset_half_reg >> 1) |
           (a->size == 0 ? group(a->result_reg) : bit(a->result_reg));
  }
  case TT_FORM_STOREIND_L1: {
    const tt_args_STOREIND_L1 *a = &in->a.STOREIND_L1;
    return bit(a->addr_reg) | bit(a->offset_half_reg >> 1) |
           (a->size == 0 ? group(a->data_reg) : bit(a->data_reg));
  }
  case TT_FORM_STOREIND_MMIO: {
    const tt_args_STOREIND_MMIO *a = &in->a.STOREIND_MMIO;
    return bit(a->addr_reg) | bit(a->offset_half_reg >> 1) | bit(a->data_reg);
  }
  case TT_FORM_STOREIND_SRC: {
    const tt_args_STOREIND_SRC *a = &in->a.STOREIND_SRC;
    return bit(a->addr_reg) | bit(a->offset_half_reg >> 1) | (0x3ull << (a->data_reg & 0x3Cu));
  }
  case TT_FORM_STOREREG: return bit(in->a.STOREREG.data_reg);
  case TT_FORM_LOADREG: return bit(in->a.LOADREG.result_reg);
  case TT_FORM_ATINCGET: return bit(in->a.ATINCGET.addr_reg) | bit(in->a.ATINCGET.in_out_reg);
  case TT_FORM_ATINCGETPTR: return bit(in->a.ATINCGETPTR.addr_reg) | bit(in->a.ATINCGETPTR.result_reg);
  case TT_FORM_ATSWAP: {
    const tt_args_ATSWAP *a = &in->a.ATSWAP;
    return bit(a->addr_reg) | (a->single_data_reg ? bit(a->data_reg) : group(a->data_reg));
  }
  case TT_FORM_ATCAS: return bit(in->a.ATCAS.addr_reg);
  case TT_FORM_REG2FLOP:
    return in->a.REG2FLOP.size_sel == 0 ? group(in->a.REG2FLOP.input_reg) : bit(in->a.REG2FLOP.input_reg);
  case TT_FORM_WRCFG:
    return in->a.WRCFG.is_128bit ? group(in->a.WRCFG.input_reg) : bit(in->a.WRCFG.input_reg);
  case TT_FORM_RDCFG: return bit(in->a.RDCFG.result_reg);
  default: return 0;
  }
}
