/* spec_ref_mem.c — the reference's ThCon memory instructions: LOADIND, STOREIND (L1, MMIO,
 * Src), the atomics (ATINCGET, ATINCGETPTR, ATSWAP, ATCAS), REG2FLOP, and the MMIO range check
 * and asynchronous-result hand-off they share with LOADREG/STOREREG. Restated from the digest
 * (§4.3) and the instruction pages; split from spec_ref.c without a change of behaviour. */
#include "spec_ref.h"

static const uint32_t incs[4] = {0, 2, 4, 16};

/* LOADIND / STOREIND-L1 address: GPR*16 + offset half-register (before the increment); the
 * increment happens either way. Returns 1 when inside L1. */
static int l1_addr(sr_state *s, unsigned t, uint32_t addr_reg, uint32_t ohr, uint32_t oi,
                   uint32_t *addr) {
  uint32_t off = sr_half_get(s, t, ohr);
  *addr = s->gpr[t][addr_reg] * 16u + off;
  sr_half_set(s, t, ohr, off + incs[oi & 3]);
  if (*addr < sr_l1_limit(s)) return 1;
  sr_fault(s, t, TT_FC_L1_RANGE);
  return 0;
}

/* An asynchronous GPR result (LOADIND, LOADREG, ATINCGET, RDCFG): in functional mode merged
 * now; in cycle mode handed to the cycle scheduler (spec_ref_cycle.c), which merges it into the
 * GPR as it is when it lands. */
void sr_result(sr_state *s, unsigned t, unsigned reg, uint32_t v, uint32_t mask, unsigned kind) {
  if (s->cyc.on) { sr_cyc_result(s, t, reg, v, mask, kind); return; }
  s->gpr[t][reg] = (s->gpr[t][reg] & ~mask) | (v & mask);
}

void sr_loadind(sr_state *s, unsigned t, const tt_args_LOADIND *a) {
  uint32_t addr;
  if (!l1_addr(s, t, a->addr_reg, a->offset_half_reg, a->offset_increment, &addr)) return;
  if (a->size == 0) {
    unsigned d = a->result_reg & 0x3Cu;
    for (unsigned k = 0; k < 4; k++)
      sr_result(s, t, d + k, sr_l1_read((addr & ~15u) + 4 * k, 4), ~0u, SR_RES_LOADIND);
  } else if (a->size == 1) {
    sr_result(s, t, a->result_reg, sr_l1_read(addr & ~3u, 4), ~0u, SR_RES_LOADIND);
  } else if (a->size == 2) {
    sr_result(s, t, a->result_reg, sr_l1_read(addr & ~1u, 2), 0xFFFFu, SR_RES_LOADIND);
  } else {
    sr_result(s, t, a->result_reg, sr_l1_read(addr, 1), 0xFFu, SR_RES_LOADIND);
  }
}

void sr_storeind_l1(sr_state *s, unsigned t, const tt_args_STOREIND_L1 *a) {
  uint32_t addr;
  if (!l1_addr(s, t, a->addr_reg, a->offset_half_reg, a->offset_increment, &addr)) return;
  const uint32_t *g = s->gpr[t];
  if (a->size == 0) {
    unsigned d = a->data_reg & 0x3Cu;
    for (unsigned k = 0; k < 4; k++) sr_l1_write((addr & ~15u) + 4 * k, 4, g[d + k]);
  } else if (a->size == 1) {
    sr_l1_write(addr & ~3u, 4, g[a->data_reg]);
  } else if (a->size == 2) {
    sr_l1_write(addr & ~1u, 2, g[a->data_reg] & 0xFFFFu);
  } else {
    sr_l1_write(addr, 1, g[a->data_reg] & 0xFFu);
  }
}

/* MMIO addresses below 0xFFB11000 are UB (skipped: 0); the TDMA-RISC page 0xFFB11000..0xFFB11FFF
 * is unmapped for Tensix (AMB-26): flagged noncontractual and performed (1), or under
 * tdma_risc=unmapped nothing answers (2: a store vanishes, a load returns 0). */
int sr_mmio_ok(sr_state *s, unsigned t, uint32_t addr) {
  if (addr < 0xFFB11000u) { sr_fault(s, t, TT_FC_MMIO_RANGE); return 0; }
  if (addr > 0xFFB11FFFu) return 1;
  sr_fault(s, t, TT_FC_TDMA_RISC);
  return SR_KNOB(s, TDMA_RISC) == 1 ? 2 : 1;
}

void sr_storeind_mmio(sr_state *s, unsigned t, const tt_args_STOREIND_MMIO *a) {
  uint32_t off = sr_half_get(s, t, a->offset_half_reg);
  uint32_t addr = SR_MMIO_BASE + ((s->gpr[t][a->addr_reg] + (off >> 4)) & 0x000FFFFCu);
  uint32_t data = s->gpr[t][a->data_reg];
  sr_half_set(s, t, a->offset_half_reg, off + incs[a->offset_increment & 3]);
  if (sr_mmio_ok(s, t, addr) == 1) sr_mmio_write(addr, data);
}

/* STOREIND_Src.md: Src holds Sign(1) Man(10) Exp(8); the low GPR half is Sign, Man7, Exp8,
 * the high half standard BF16 Sign, Exp8, Man7. */
static uint32_t from_lo(uint32_t x) {
  uint32_t sign = (x >> 15) & 1u, man = (x >> 8) & 0x7Fu, e = x & 0xFFu;
  return sign << 18 | man << 11 | e;
}
static uint32_t from_hi(uint32_t x) {
  uint32_t sign = x >> 31, e = (x >> 23) & 0xFFu, man = (x >> 16) & 0x7Fu;
  return sign << 18 | man << 11 | e;
}

void sr_storeind_src(sr_state *s, unsigned t, const tt_args_STOREIND_SRC *a) {
  const uint32_t *g = s->gpr[t];
  unsigned d = a->data_reg & 0x3Cu;
  uint32_t datum[4] = {from_lo(g[d]), from_hi(g[d]), from_lo(g[d + 1]), from_hi(g[d + 1])};
  uint32_t off = sr_half_get(s, t, a->offset_half_reg);
  uint32_t addr = (g[a->addr_reg] + (off >> 4)) & 0xFFFFFu;   /* uint20_t */
  sr_half_set(s, t, a->offset_half_reg, off + incs[a->offset_increment & 3]);
  if (addr & 0xF0000u) { sr_fault(s, t, TT_FC_SRC_ROW); return; }
  unsigned col = (addr & 3u) * 4u;
  int row;
  if (a->store_to_srcb) {
    row = (int)(addr >> 2);
    if (row >= 16) { sr_fault(s, t, TT_FC_SRC_ROW); return; }
  } else {
    row = (int)(addr >> 2) - 4;
    if (row < 0) return;
    int ovrd = (s->tcfg[t][5] >> 2) & 1;
    if (row >= (ovrd ? 64 : 16)) { sr_fault(s, t, TT_FC_SRC_ROW); return; }
  }
  for (unsigned i = 0; i < 4; i++) s->src[a->store_to_srcb][row][col + i] = datum[i];
  s->src_written = 1;
}

static void bit23(sr_state *s, unsigned t, uint32_t b) {
  if (b && SR_KNOB(s, ATOMIC_BIT23) == 0) sr_fault(s, t, TT_FC_ATOMIC_BIT23);
}

static int l1_span_ok(sr_state *s, unsigned t, uint32_t addr, uint32_t span) {
  uint64_t end = (uint64_t)addr + span;
  if (end <= sr_l1_limit(s)) return 1;
  sr_fault(s, t, TT_FC_L1_RANGE);
  return 0;
}

static uint32_t masked_add(uint32_t p, uint32_t inc, uint32_t m) {
  uint32_t old = sr_l1_read(p, 4);
  sr_l1_write(p, 4, ((old + inc) & m) | (old & ~m));
  return old;
}

/* 1 = retired, 0 = retry (spinning) */
int sr_atomic(sr_state *s, unsigned t, const tt_insn *in) {
  uint32_t *g = s->gpr[t];
  switch (in->form) {
  case TT_FORM_ATINCGET: {
    const tt_args_ATINCGET *a = &in->a.ATINCGET;
    bit23(s, t, a->mem_hier_sel);
    uint32_t p = g[a->addr_reg] * 16u + a->ofs * 4u;
    if (!l1_span_ok(s, t, p, 4)) return 1;
    uint32_t m = (uint32_t)((2ull << a->int_width) - 1u);
    sr_result(s, t, a->in_out_reg, masked_add(p, g[a->in_out_reg], m), ~0u, SR_RES_ATINCGET);
    return 1;
  }
  case TT_FORM_ATINCGETPTR: {
    const tt_args_ATINCGETPTR *a = &in->a.ATINCGETPTR;
    bit23(s, t, a->mem_hier_sel);
    uint32_t base = g[a->addr_reg] * 16u;
    if (!l1_span_ok(s, t, base, 16)) return 1;
    uint32_t used = sr_l1_read(base + 4, 4) - sr_l1_read(base, 4);
    if (a->ofs & 1u) {
      uint32_t cap = a->int_width ? 1u << (a->int_width - 1u) : 0x8000u;
      if (used != 0 && used % cap == 0) return 0;
    } else if (used == 0) {
      return 0;
    }
    uint32_t inc = a->no_incr ? 0u : 1u << a->incr_log2;
    /* atincgetptr_mask=like_atincget (AMB-30): (2 << IntWidth) - 1, as ATINCGET */
    uint32_t m = SR_KNOB(s, ATINCGETPTR_MASK) == 1 ? (uint32_t)((2ull << a->int_width) - 1u)
                                                   : (1u << a->int_width) - 1u;
    g[a->result_reg] = masked_add(base + 4u * a->ofs, inc, m);
    return 1;
  }
  case TT_FORM_ATSWAP: {
    const tt_args_ATSWAP *a = &in->a.ATSWAP;
    bit23(s, t, a->mem_hier_sel);
    uint32_t base = g[a->addr_reg] * 16u;
    if (!l1_span_ok(s, t, base, 16)) return 1;
    uint32_t buf[4] = {0, 0, 0, 0};
    if (a->single_data_reg) buf[a->data_reg & 3u] = g[a->data_reg];
    else for (unsigned k = 0; k < 4; k++) buf[k] = g[(a->data_reg & 0x3Cu) + k];
    for (unsigned i = 0; i < 8; i++)
      if ((a->mask >> i) & 1u) sr_l1_write(base + 2 * i, 2, (buf[i / 2] >> (16 * (i % 2))) & 0xFFFFu);
    return 1;
  }
  default: {  /* ATCAS */
    const tt_args_ATCAS *a = &in->a.ATCAS;
    bit23(s, t, a->mem_hier_sel);
    uint32_t p = g[a->addr_reg] * 16u + a->ofs * 4u;
    if (!l1_span_ok(s, t, p, 4)) return 1;
    if (sr_l1_read(p, 4) != a->cmp_val) return 0;
    sr_l1_write(p, 4, a->set_val);
    return 1;
  }
  }
}

void sr_reg2flop(sr_state *s, unsigned t, const tt_args_REG2FLOP *a) {
  if (SR_KNOB(s, REG2FLOP) == 0 || a->target_sel != 0) { sr_fault(s, t, TT_FC_REG2FLOP); return; }
  /* WormholeB0 configuration mode: [12:6] ThConCfgIndex (7 bits); bits 19:13 reserved */
  if (a->flop_index > 0x7Fu || a->byte_offset || a->context_id) sr_fault(s, t, TT_FC_RESERVED_BITS);
  uint32_t idx = a->flop_index & 0x7Fu;
  if (idx >= SR_CFG_GLOBAL - 64) { sr_fault(s, t, TT_FC_CFG_INDEX); return; }
  unsigned b = sr_bank(s, t);
  if (a->size_sel == 0) sr_cfg_store(s, b, 64 + (idx & ~3u), &s->gpr[t][a->input_reg & ~3u], 4);
  else sr_cfg_store(s, b, 64 + idx, &s->gpr[t][a->input_reg], 1);
}
