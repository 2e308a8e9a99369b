/* scalar.c — Scalar Unit (ThCon): GPR arithmetic, L1/MMIO loads, stores and atomics.
 * References (Blackhole has no own pages; the WormholeB0 pages with TENSIX_SRAM_SIZE apply):
 * WormholeB0/TensixTile/TensixCoprocessor/ScalarUnit.md, SETDMAREG_Immediate.md,
 * SETDMAREG_Special.md, ADDDMAREG.md, SUBDMAREG.md, MULDMAREG.md, BITWOPDMAREG.md,
 * SHIFTDMAREG.md, CMPDMAREG.md, DMANOP.md, FLUSHDMA.md, LOADIND.md, STOREIND_L1.md,
 * STOREIND_MMIO.md, STOREIND_Src.md, LOADREG.md, STOREREG.md, ATINCGET.md, ATINCGETPTR.md,
 * ATSWAP.md, ATCAS.md, REG2FLOP_Configuration.md.
 * Asynchronous results (LOADIND, LOADREG, ATINCGET) go through tt_gpr_land(): at once in
 * functional mode, after a knob-set latency in cycle mode (memory is read at issue; partial
 * loads merge into the GPR as it is when they land).
 * Deviations: UndefinedBehavior is recorded and the offending access skipped (offset
 * increments still happen); SETDMAREG special reads packer state from the tt_packer stub,
 * including the tile-header DataFormat/DisableZeroCompression that hardware takes from packer
 * Config; Src-bank selection and unpacker row bases are stubbed as bank 0, base 0. */
#include "internal.h"

/* ---- SETDMAREG ------------------------------------------------------------------------------ */
tt_exec_result tt_exec_SETDMAREG_IMM(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SETDMAREG_IMM);
  uint32_t v = TT_DEFECT(SETDMAREG_14BIT) || TT_KNOB_IS(st, SETDMAREG_IMM_BITS, 1)  /* AMB-10 */
                   ? a->new_value & 0x3FFFu : a->new_value;
  if (TT_KNOB_IS(st, SETDMAREG_RESULT, 1)) {  /* AMB-13: the write lands two cycles later */
    unsigned sh = 16u * (a->result_half_reg & 1u);
    tt_gpr_land(st, t, a->result_half_reg >> 1, v << sh, 0xFFFFu << sh, TT_LAT_SETDMAREG);
    return TT_EXEC_DONE;
  }
  tt_half_set(st, t, a->result_half_reg, v);
  return TT_EXEC_DONE;
}

static void packer_values(tt_state *st, unsigned t, const tt_args_SETDMAREG_SPECIAL *a,
                          uint32_t v[4]) {
  const tt_packer *pk = st->c.packer;
  unsigned src = a->input_source;
  v[0] = v[1] = v[2] = v[3] = 0;
  if (src == 0) {
    for (unsigned i = 0; i < 4; i++)
      v[i] = ((pk[i].acc_tile_size[t] & 0xFFFFu) << 16) |
             (pk[i].last_thread == t ? pk[i].last_tile_size & 0xFFFFu : 0);
  } else if (src == 1) {
    for (unsigned i = 0; i < 4; i++) v[i] = pk[i].all_zero_flags;
  } else if (src >= 2 && src <= 5) {
    const tt_packer *p = &pk[src - 2];
    unsigned s = tt_thread_bank(st, t);
    v[0] = ((p->last_thread == t ? p->last_tile_size : 0) + 1) & 0xFFFFu;
    v[1] = ((uint32_t)(p->out_data_format[s] & 15u) << 16) |
           ((uint32_t)(p->disable_zero_compress[s] & 1u) << 20);
    v[2] = p->all_zero_flags;
  } else if (src == 6 || src == 7) {
    const uint8_t *h = &pk[a->which_packers & 3u].exp_hist[(src - 6) * 16];
    for (unsigned i = 0; i < 16; i++) v[i / 4] |= (uint32_t)h[i] << (8 * (i % 4));
  } else if (src == 8) {
    for (unsigned i = 0; i < 4; i++) {
      v[0] |= (uint32_t)(pk[i].all_zero_flags & 1u) << i;
      if (a->which_packers & (1u << i))
        for (unsigned u = 0; u < TT_THREAD_COUNT; u++) st->c.packer[i].acc_tile_size[u] = 0;
    }
  } else if (src == 9) {
    v[0] = pk[0].exp_hist_max;
  } /* 10..15: no case in the pseudo-code; Values stays zero */
}

tt_exec_result tt_exec_SETDMAREG_SPECIAL(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(SETDMAREG_SPECIAL);
  uint32_t v[4];
  packer_values(st, t, a, v);
  uint32_t *g = st->c.gpr[t];
  unsigned base = (a->result_half_reg >> 1) & 0x3Cu;
  switch (a->result_size) {
  case 0: {
    unsigned h = a->input_half_reg;
    tt_half_set(st, t, a->result_half_reg, (v[h >> 1] >> (16 * (h & 1))) & 0xFFFFu);
    break;
  }
  case 1: g[a->result_half_reg >> 1] = v[a->input_half_reg >> 1]; break;
  case 2: for (unsigned k = 0; k < 4; k++) g[base + k] = v[k]; break;
  default:
    /* tile-header fields only: TileSize [15:0] of word 0; DataFormat, DisableZeroCompression,
     * SpareBits [27:16] of word 1; AllZeroFlags word 2. Reserved bits kept. */
    g[base] = (g[base] & 0xFFFF0000u) | (v[0] & 0xFFFFu);
    g[base + 1] = (g[base + 1] & ~0x00FF0000u) | (v[1] & 0x00FF0000u);
    g[base + 2] = v[2];
    break;
  }
  return TT_EXEC_DONE;
}

/* ---- ADD/SUB/MUL/BITWOP/SHIFT/CMPDMAREG ----------------------------------------------------- */
typedef enum alu_op { ALU_ADD, ALU_SUB, ALU_MUL, ALU_BITWOP, ALU_SHIFT, ALU_CMP } alu_op;

/* Returns 0 and sets *r, or -1 for an undefined mode. */
static int alu(alu_op op, uint32_t mode, uint32_t l, uint32_t r, uint32_t *res) {
  switch (op) {
  case ALU_ADD: *res = (TT_DEFECT(ADD_NO_WRAP) && l + r < l) ? 0xFFFFFFFFu : l + r; return 0;
  case ALU_SUB: *res = l - r; return 0;
  case ALU_MUL: *res = TT_DEFECT(MUL_FULL_WIDTH) ? l * r : (l & 0xFFFFu) * (r & 0xFFFFu); return 0;
  case ALU_BITWOP:
    if (mode == 0) *res = l & r; else if (mode == 1) *res = l | r;
    else if (mode == 2) *res = l ^ r; else return -1;
    return 0;
  case ALU_SHIFT:
    if (mode == 0) *res = l << (r & 31u); else if (mode == 1) *res = l >> (r & 31u);
    else return -1;
    return 0;
  case ALU_CMP:
    if (TT_DEFECT(CMP_SIGNED)) { l ^= 0x80000000u; r ^= 0x80000000u; }
    if (mode == 0) *res = l > r; else if (mode == 1) *res = l < r;
    else if (mode == 2) *res = l == r; else return -1;
    return 0;
  }
  return -1;
}

static tt_exec_result dmareg(tt_state *st, unsigned t, alu_op op, uint32_t mode,
                             uint32_t result_reg, uint32_t right, int right_is_imm,
                             uint32_t left_reg) {
  uint32_t l = st->c.gpr[t][left_reg];
  uint32_t r = right_is_imm ? right : st->c.gpr[t][right];
  uint32_t res;
  if (alu(op, mode, l, r, &res) != 0) {
    tt_fault(st, t, TT_FC_MODE);
    if (!TT_KNOB_IS(st, UNDEFINED_MODE, 1)) return TT_EXEC_DONE;
    res = 0;
  }
  st->c.gpr[t][result_reg] = res;
  return TT_EXEC_DONE;
}

#define TT_ARITH_EXEC(M, OP)                                                                     \
  tt_exec_result tt_exec_##M##_REG(tt_state *st, unsigned t, uint32_t w) {                       \
    TT_EXEC_ARGS(M##_REG);                                                                       \
    return dmareg(st, t, OP, 0, a->result_reg, a->right_reg, 0, a->left_reg);                    \
  }                                                                                              \
  tt_exec_result tt_exec_##M##_IMM(tt_state *st, unsigned t, uint32_t w) {                       \
    TT_EXEC_ARGS(M##_IMM);                                                                       \
    return dmareg(st, t, OP, 0, a->result_reg, a->right_imm, 1, a->left_reg);                    \
  }
#define TT_MODE_EXEC(M, OP)                                                                      \
  tt_exec_result tt_exec_##M##_REG(tt_state *st, unsigned t, uint32_t w) {                       \
    TT_EXEC_ARGS(M##_REG);                                                                       \
    return dmareg(st, t, OP, a->mode, a->result_reg, a->right_reg, 0, a->left_reg);              \
  }                                                                                              \
  tt_exec_result tt_exec_##M##_IMM(tt_state *st, unsigned t, uint32_t w) {                       \
    TT_EXEC_ARGS(M##_IMM);                                                                       \
    return dmareg(st, t, OP, a->mode, a->result_reg, a->right_imm, 1, a->left_reg);              \
  }
TT_ARITH_EXEC(ADDDMAREG, ALU_ADD)
TT_ARITH_EXEC(SUBDMAREG, ALU_SUB)
TT_ARITH_EXEC(MULDMAREG, ALU_MUL)
TT_MODE_EXEC(BITWOPDMAREG, ALU_BITWOP)
TT_MODE_EXEC(SHIFTDMAREG, ALU_SHIFT)
TT_MODE_EXEC(CMPDMAREG, ALU_CMP)

/* ---- no-effect forms in functional mode --------------------------------------------------- */
tt_exec_result tt_exec_DMANOP(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(DMANOP);
  (void)st; (void)t; (void)a;
  return TT_EXEC_DONE;
}

/* FLUSHDMA waits for ThCon/unpacker/packer work of this thread: in functional mode none is in
 * flight; in cycle mode the Scalar Unit holds it (cycle.c). Knob flushdma=stallwait_b5 (AMB-16,
 * SEED-2's reading): it latches like STALLWAIT with block mask B5 and the same conditions, in
 * both modes, unless a wait is already latched. */
tt_exec_result tt_exec_FLUSHDMA(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(FLUSHDMA);
  if (!TT_KNOB_IS(st, FLUSHDMA, 0) && st->c.thr[t].latch.op == TT_LATCH_NONE) {
    tt_args_STALLWAIT sw = {a->word & ~0x6000u, 0x020u, a->condition_mask ? a->condition_mask : 0xFu};
    return tt_stallwait_latch(st, t, &sw);
  }
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_RSTDMA(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(RSTDMA);
  (void)a;
  if (!TT_KNOB_IS(st, RSTDMA, 1)) tt_fault(st, t, TT_FC_RSTDMA);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_NOP(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(NOP);
  (void)st; (void)t; (void)a;
  return TT_EXEC_DONE;
}

/* ---- L1 addressing shared by LOADIND and STOREIND (L1) -------------------------------------- */
static const uint32_t offset_increments[4] = {0, 2, 4, 16};

/* Address = GPR[AddrReg]*16 + half-reg offset; then the offset half-register is incremented
 * (16-bit wrap). Returns 1 when the address is inside L1. */
static int l1_address(tt_state *st, unsigned t, uint32_t addr_reg, uint32_t off_half,
                      uint32_t inc_sel, uint32_t *addr) {
  uint32_t off = tt_half_get(st, t, off_half);
  uint32_t inc = offset_increments[inc_sel & 3u];
  *addr = st->c.gpr[t][addr_reg] * 16u + off;
  if (TT_DEFECT(ADDR_POST_INCREMENT)) *addr += inc;
  if (TT_DEFECT(OFFSET_CARRY) && (off_half & 1u) == 0) st->c.gpr[t][off_half >> 1] += inc;
  else tt_half_set(st, t, off_half, off + inc);
  if (*addr < tt_l1_limit(st)) return 1;
  tt_fault(st, t, TT_FC_L1_RANGE);
  return 0;
}

tt_exec_result tt_exec_LOADIND(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(LOADIND);
  uint32_t addr;
  /* loadind_offset_bits=8 (AMB-11): bit 21 extends the index; 128..255 name no half-register */
  if (TT_KNOB_IS(st, LOADIND_OFFSET_BITS, 1) && ((a->word >> 21) & 1u)) {
    tt_fault(st, t, TT_FC_HALFREG_RANGE);
    return TT_EXEC_DONE;
  }
  if (!l1_address(st, t, a->addr_reg, a->offset_half_reg, a->offset_increment, &addr))
    return TT_EXEC_DONE;
  uint32_t dst = a->result_reg & (a->size ? 0x3Fu : 0x3Cu);
  switch (a->size) {
  case 0:
    for (unsigned k = 0; k < 4; k++)
      tt_gpr_land(st, t, dst + k, tt_l1_read(st, (addr & ~15u) + 4 * k, 4), ~0u, TT_LAT_LOADIND);
    break;
  case 1: tt_gpr_land(st, t, dst, tt_l1_read(st, addr & ~3u, 4), ~0u, TT_LAT_LOADIND); break;
  case 2: tt_gpr_land(st, t, dst, tt_l1_read(st, addr & ~1u, 2), 0xFFFFu, TT_LAT_LOADIND); break;
  default: tt_gpr_land(st, t, dst, tt_l1_read(st, addr, 1), 0xFFu, TT_LAT_LOADIND); break;
  }
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_STOREIND_L1(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(STOREIND_L1);
  uint32_t addr;
  if (!l1_address(st, t, a->addr_reg, a->offset_half_reg, a->offset_increment, &addr))
    return TT_EXEC_DONE;
  /* The data GPR is read after the offset increment (STOREIND_L1.md order). */
  const uint32_t *g = st->c.gpr[t];
  uint32_t src = a->data_reg & (a->size ? 0x3Fu : 0x3Cu);
  switch (a->size) {
  case 0:
    for (unsigned k = 0; k < 4; k++) tt_l1_write(st, (addr & ~15u) + 4 * k, 4, g[src + k]);
    break;
  case 1: tt_l1_write(st, addr & ~3u, 4, g[src]); break;
  case 2: tt_l1_write(st, addr & ~1u, 2, g[src]); break;
  default: tt_l1_write(st, addr, 1, g[src]); break;
  }
  return TT_EXEC_DONE;
}

/* ---- MMIO ------------------------------------------------------------------------------------- */
/* Returns 1 when ThCon may access addr: >= 0xFFB11000 (below is UB); the TDMA-RISC page is
 * reachable but unmapped for Tensix on Blackhole (AMB-26): flagged noncontractual. Returns 2
 * for that page under tdma_risc=unmapped: stores vanish, loads return 0. */
static int mmio_ok(tt_state *st, unsigned t, uint32_t addr) {
  if (addr < TT_MMIO_LOW) {
    tt_fault(st, t, TT_FC_MMIO_RANGE);
    return 0;
  }
  if (addr < TT_MMIO_LOW + 0x1000u) {
    tt_fault(st, t, TT_FC_TDMA_RISC);
    if (TT_KNOB_IS(st, TDMA_RISC, 1)) return 2;
  }
  return 1;
}

tt_exec_result tt_exec_STOREIND_MMIO(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(STOREIND_MMIO);
  uint32_t off = tt_half_get(st, t, a->offset_half_reg);
  uint32_t x = st->c.gpr[t][a->addr_reg] + (off >> 4);
  uint32_t addr = TT_MMIO_BASE + (x & 0x000FFFFCu);
  uint32_t data = st->c.gpr[t][a->data_reg];
  tt_half_set(st, t, a->offset_half_reg, off + offset_increments[a->offset_increment]);
  if (mmio_ok(st, t, addr) == 1) tt_mmio_write(st, addr, data);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_STOREREG(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(STOREREG);
  uint32_t addr = TT_MMIO_BASE + (a->addr_lo << 2);
  if (mmio_ok(st, t, addr) == 1) tt_mmio_write(st, addr, st->c.gpr[t][a->data_reg]);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_LOADREG(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(LOADREG);
  uint32_t addr = TT_MMIO_BASE + (a->addr_lo << 2);
  int ok = mmio_ok(st, t, addr);
  if (ok) tt_gpr_land(st, t, a->result_reg, ok == 1 ? tt_mmio_read(st, addr) : 0u, ~0u, TT_LAT_LOADREG);
  return TT_EXEC_DONE;
}

/* ---- STOREIND to SrcA/SrcB -------------------------------------------------------------------- */
static uint32_t bf16_lo(uint32_t x) {  /* low half: Sign(1) Man(7) Exp(8) -> Sign Man(10) Exp */
  return ((x & 0x8000u) << 3) | ((x & 0x7F00u) << 3) | (x & 0xFFu);
}
static uint32_t bf16_hi(uint32_t x) {  /* high half: standard BF16 Sign Exp(8) Man(7) */
  return ((x >> 31) << 18) | (((x >> 16) & 0x7Fu) << 11) | ((x >> 23) & 0xFFu);
}

tt_exec_result tt_exec_STOREIND_SRC(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(STOREIND_SRC);
  const uint32_t *g = st->c.gpr[t];
  unsigned d = a->data_reg & 0x3Cu;
  uint32_t datum[4] = {bf16_lo(g[d]), bf16_hi(g[d]), bf16_lo(g[d + 1]), bf16_hi(g[d + 1])};
  uint32_t off = tt_half_get(st, t, a->offset_half_reg);
  uint32_t x = (g[a->addr_reg] + (off >> 4)) & 0xFFFFFu;
  tt_half_set(st, t, a->offset_half_reg, off + offset_increments[a->offset_increment]);
  if (x & 0xF0000u) {
    tt_fault(st, t, TT_FC_SRC_ROW);
    return TT_EXEC_DONE;
  }
  unsigned col = (x & 3u) * 4u;
  int32_t row;
  if (a->store_to_srcb) {
    row = (int32_t)(x >> 2);
    if (row >= 16) { tt_fault(st, t, TT_FC_SRC_ROW); return TT_EXEC_DONE; }
  } else {
    row = (int32_t)(x >> 2) - 4;
    if (row < 0) return TT_EXEC_DONE;  /* silently dropped */
    int ovrd = (st->c.tcfg[t][TT_TCFG_SRCA_SET] & 0x4u) != 0;
    if (row >= (ovrd ? 64 : 16)) { tt_fault(st, t, TT_FC_SRC_ROW); return TT_EXEC_DONE; }
  }
  st->c.src_dirty |= (uint8_t)(1u << (4u * a->store_to_srcb + (unsigned)row / 16u));  /* its 16-row block */
  for (unsigned i = 0; i < 4; i++) st->src[a->store_to_srcb][row][col + i] = datum[i];
  return TT_EXEC_DONE;
}

/* ---- atomics ----------------------------------------------------------------------------------- */
static void atomic_bit23(tt_state *st, unsigned t, uint32_t bit) {
  if (bit && TT_KNOB_IS(st, ATOMIC_BIT23, 0)) tt_fault(st, t, TT_FC_ATOMIC_BIT23);
}

static int l1_word_ok(tt_state *st, unsigned t, uint32_t addr, uint32_t span) {
  if (addr < tt_l1_limit(st) && addr + span <= tt_l1_limit(st) && addr + span > addr) return 1;
  tt_fault(st, t, TT_FC_L1_RANGE);
  return 0;
}

/* Atomically add inc to the bits of the L1 word at p selected by m (other bits kept, carries
 * out of m dropped); returns the old word. Shared by ATINCGET and ATINCGETPTR. */
static uint32_t l1_masked_add(tt_state *st, uint32_t p, uint32_t inc, uint32_t m) {
  uint32_t old = tt_l1_read(st, p, 4);
  tt_l1_write(st, p, 4, ((old + inc) & m) | (old & ~m));
  return old;
}

tt_exec_result tt_exec_ATINCGET(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(ATINCGET);
  atomic_bit23(st, t, a->mem_hier_sel);
  uint32_t p = st->c.gpr[t][a->addr_reg] * 16u + a->ofs * 4u;
  if (!l1_word_ok(st, t, p, 4)) return TT_EXEC_DONE;
  uint32_t inc = st->c.gpr[t][a->in_out_reg];
  uint32_t m = (uint32_t)(((uint64_t)(TT_DEFECT(ATINCGET_NARROW_MASK) ? 1 : 2) << a->int_width) - 1u);
  tt_gpr_land(st, t, a->in_out_reg, l1_masked_add(st, p, inc, m), ~0u, TT_LAT_ATINCGET);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_ATINCGETPTR(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(ATINCGETPTR);
  atomic_bit23(st, t, a->mem_hier_sel);
  uint32_t base = st->c.gpr[t][a->addr_reg] * 16u;
  if (!l1_word_ok(st, t, base, 16)) return TT_EXEC_DONE;
  uint32_t rd = tt_l1_read(st, base, 4), wr = tt_l1_read(st, base + 4, 4);
  uint32_t size = wr - rd;
  if (a->ofs & 1u) {
    uint32_t cap = a->int_width ? 1u << (a->int_width - 1u) : 0x8000u;
    if (size % cap == 0 && size != 0) return TT_EXEC_RETRY;  /* full */
  } else if (size == 0) {
    return TT_EXEC_RETRY;                                    /* empty */
  }
  uint32_t inc = (uint32_t)(!a->no_incr) << a->incr_log2;
  /* atincgetptr_mask=like_atincget (AMB-30): ATINCGET's (2 << IntWidth) - 1 */
  uint32_t m = (uint32_t)(((uint64_t)(TT_KNOB_IS(st, ATINCGETPTR_MASK, 1) ? 2 : 1) << a->int_width) - 1u);
  st->c.gpr[t][a->result_reg] = l1_masked_add(st, base + a->ofs * 4u, inc, m);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_ATSWAP(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(ATSWAP);
  atomic_bit23(st, t, a->mem_hier_sel);
  uint32_t base = st->c.gpr[t][a->addr_reg] * 16u;
  if (!l1_word_ok(st, t, base, 16)) return TT_EXEC_DONE;
  uint32_t data[4] = {0, 0, 0, 0};
  const uint32_t *g = st->c.gpr[t];
  if (a->single_data_reg) {
    data[a->data_reg & 3u] = g[a->data_reg];
  } else {
    for (unsigned k = 0; k < 4; k++) data[k] = g[(a->data_reg & 0x3Cu) + k];
  }
  for (unsigned i = 0; i < 8; i++)
    if (a->mask & (1u << i)) tt_l1_write(st, base + 2 * i, 2, data[i / 2] >> (16 * (i & 1)));
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_ATCAS(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(ATCAS);
  atomic_bit23(st, t, a->mem_hier_sel);
  uint32_t p = st->c.gpr[t][a->addr_reg] * 16u + a->ofs * 4u;
  if (!l1_word_ok(st, t, p, 4)) return TT_EXEC_DONE;
  if (tt_l1_read(st, p, 4) != a->cmp_val) return TT_EXEC_RETRY;
  tt_l1_write(st, p, 4, a->set_val);
  return TT_EXEC_DONE;
}

/* ---- REG2FLOP ------------------------------------------------------------------------------------ */
tt_exec_result tt_exec_REG2FLOP(tt_state *st, unsigned t, uint32_t w) {
  TT_EXEC_ARGS(REG2FLOP);
  if (TT_KNOB_IS(st, REG2FLOP, 0) || a->target_sel != 0) {
    tt_fault(st, t, TT_FC_REG2FLOP);
    return TT_EXEC_DONE;
  }
  /* WormholeB0 configuration mode: [12:6] ThConCfgIndex; [19:13] are not part of it. */
  if ((a->flop_index >> 7) || a->byte_offset || a->context_id) tt_fault(st, t, TT_FC_RESERVED_BITS);
  uint32_t idx = a->flop_index & 0x7Fu;
  if (idx >= TT_CFG_GLOBAL_BASE - 64) {
    tt_fault(st, t, TT_FC_CFG_INDEX);
    return TT_EXEC_DONE;
  }
  unsigned bank = tt_thread_bank(st, t);
  if (a->size_sel == 0) {
    tt_cfg_write_words(st, bank, 64 + (idx & ~3u), &st->c.gpr[t][a->input_reg & ~3u], 4,
                       TT_VIA_TENSIX);
  } else {
    tt_cfg_write_words(st, bank, 64 + idx, &st->c.gpr[t][a->input_reg], 1, TT_VIA_TENSIX);
  }
  return TT_EXEC_DONE;
}

/* ---- cycle mode: occupancy -------------------------------------------------------------------- */
/* Cycles one instruction (one attempt of a spinning atomic) holds ThCon (ScalarUnit.md; "at
 * least N" rows take N). Register-register arithmetic takes 3 cycles when both operands are in
 * the same aligned group of four GPRs, else 4; immediate variants take 3. */
#define TT_ARITH_REG_CYCLES(M) \
  case TT_FORM_##M##_REG: return (TT_ARG(in, M##_REG, left_reg) >> 2) == (TT_ARG(in, M##_REG, right_reg) >> 2) ? 3u : 4u;
unsigned tt_thcon_occupancy(const tt_insn *in) {
  switch (in->form) {
  TT_ARITH_REG_CYCLES(ADDDMAREG) TT_ARITH_REG_CYCLES(SUBDMAREG) TT_ARITH_REG_CYCLES(MULDMAREG)
  TT_ARITH_REG_CYCLES(BITWOPDMAREG) TT_ARITH_REG_CYCLES(SHIFTDMAREG) TT_ARITH_REG_CYCLES(CMPDMAREG)
  case TT_FORM_ADDDMAREG_IMM: case TT_FORM_SUBDMAREG_IMM: case TT_FORM_MULDMAREG_IMM:
  case TT_FORM_BITWOPDMAREG_IMM: case TT_FORM_SHIFTDMAREG_IMM: case TT_FORM_CMPDMAREG_IMM:
  case TT_FORM_STOREIND_L1: case TT_FORM_STOREIND_MMIO: case TT_FORM_STOREIND_SRC:
  case TT_FORM_STOREREG: case TT_FORM_ATSWAP: case TT_FORM_LOADIND: case TT_FORM_LOADREG:
  case TT_FORM_ATINCGET:
    return 3;
  case TT_FORM_REG2FLOP: case TT_FORM_FLUSHDMA: return 2;
  case TT_FORM_ATCAS: case TT_FORM_ATINCGETPTR: return 15;
  default: return 1;  /* SETDMAREG (both modes), DMANOP, RSTDMA */
  }
}
#undef TT_ARITH_REG_CYCLES
