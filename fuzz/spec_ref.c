/* spec_ref.c — the reference interpreter (see spec_ref.h). Every instruction's effect is
 * restated from ../shared/spec/spec-digest.md §2–§4 and the ISA pages it names; the model's
 * documented policies (README.md: faults are recorded per thread and the offending access is
 * skipped, functional scheduling, knobs) are followed where the spec leaves a choice. */
#include <stddef.h>
#include <string.h>
#include "spec_ref.h"

/* ---- memories ------------------------------------------------------------------------------- */
#define L1_GRANULES (SR_L1_BYTES / SR_GRANULE)
#define MMIO_GRANULES (SR_MMIO_BYTES / SR_GRANULE)
#define LOG_MAX 4096u

static uint8_t l1[SR_L1_BYTES];
static uint32_t mmio[SR_MMIO_BYTES / 4];
static uint8_t l1_used[L1_GRANULES], mmio_used[MMIO_GRANULES];   /* to clear on the next load */
static uint32_t l1_used_list[L1_GRANULES], mmio_used_list[MMIO_GRANULES];
static unsigned n_l1_used, n_mmio_used;
static uint32_t log_l1[LOG_MAX], log_mmio[LOG_MAX];                /* written since last take */
static unsigned n_log_l1, n_log_mmio;

static void touch_l1(uint32_t addr) {
  uint32_t g = addr / SR_GRANULE;
  if (!l1_used[g]) { l1_used[g] = 1; l1_used_list[n_l1_used++] = g; }
  if (n_log_l1 < LOG_MAX) log_l1[n_log_l1++] = g;
}
static void touch_mmio(uint32_t off) {
  uint32_t g = off / SR_GRANULE;
  if (!mmio_used[g]) { mmio_used[g] = 1; mmio_used_list[n_mmio_used++] = g; }
  if (n_log_mmio < LOG_MAX) log_mmio[n_log_mmio++] = g;
}

uint32_t sr_l1_read(uint32_t addr, unsigned bytes) {
  uint32_t v = 0;
  for (unsigned i = 0; i < bytes; i++) v |= (uint32_t)l1[addr + i] << (8 * i);
  return v;
}
static void l1_write(uint32_t addr, unsigned bytes, uint32_t v) {
  for (unsigned i = 0; i < bytes; i++) {
    touch_l1(addr + i);
    l1[addr + i] = (uint8_t)(v >> (8 * i));
  }
}
uint32_t sr_mmio_read(uint32_t addr) { return mmio[(addr - SR_MMIO_BASE) / 4]; }
static void mmio_write(uint32_t addr, uint32_t v) {
  touch_mmio(addr - SR_MMIO_BASE);
  mmio[(addr - SR_MMIO_BASE) / 4] = v;
}
const uint8_t *sr_l1_granule(uint32_t g) { return &l1[g * SR_GRANULE]; }
const uint32_t *sr_mmio_granule(uint32_t g) { return &mmio[g * (SR_GRANULE / 4)]; }

unsigned sr_take_written(uint32_t *gl1, unsigned *nl1, uint32_t *gmmio, unsigned *nmmio,
                         unsigned max) {
  *nl1 = n_log_l1 < max ? n_log_l1 : max;
  *nmmio = n_log_mmio < max ? n_log_mmio : max;
  memcpy(gl1, log_l1, *nl1 * sizeof *gl1);
  memcpy(gmmio, log_mmio, *nmmio * sizeof *gmmio);
  n_log_l1 = n_log_mmio = 0;
  return *nl1 + *nmmio;
}

/* ---- faults (README.md taxonomy; tt_fault_code names the reasons) ---------------------------- */
static uint8_t class_of(unsigned code) {
  switch (code) {
  case TT_FC_ATOMIC_BIT23: case TT_FC_TDMA_RISC: return TT_FAULT_NONCONTRACTUAL;
  case TT_FC_REG2FLOP: case TT_FC_RSTDMA: return TT_FAULT_UNSUPPORTED;
  case TT_FC_FRONTEND_OP: return TT_FAULT_UNIMPLEMENTED;
  case TT_FC_NONE: return TT_FAULT_NONE;
  default: return TT_FAULT_UNDEFINED;
  }
}

static void fault(sr_state *s, unsigned t, unsigned code) {
  if (s->fault_class[t] == TT_FAULT_NONE) {
    s->fault_class[t] = class_of(code);
    s->fault_code[t] = (uint8_t)code;
    s->fault_pc[t] = s->pc[t];
  }
  if (s->fault_count[t] != 0xFFFFu) s->fault_count[t]++;
}

/* ---- load ------------------------------------------------------------------------------------- */
void sr_unload(void) {
  for (unsigned i = 0; i < n_l1_used; i++) {
    memset(&l1[l1_used_list[i] * SR_GRANULE], 0, SR_GRANULE);
    l1_used[l1_used_list[i]] = 0;
  }
  for (unsigned i = 0; i < n_mmio_used; i++) {
    memset(&mmio[mmio_used_list[i] * (SR_GRANULE / 4)], 0, SR_GRANULE);
    mmio_used[mmio_used_list[i]] = 0;
  }
  n_l1_used = n_mmio_used = 0;
  n_log_l1 = n_log_mmio = 0;
}

void sr_load(sr_state *s, const tt_state *m) {
  sr_unload();
  /* Everything but the issue-cycle table (3 x TT_PROG_MAX words: clearing it all was most of a
   * spec_diff execution); of that, the entries a run can write: issue[t][k] is written only at
   * k = pc[t] < len[t], and read only below pc[t]. */
  const size_t issue_at = offsetof(sr_state, cyc) + offsetof(sr_cyc, issue);
  const size_t after = issue_at + sizeof s->cyc.issue;
  memset(s, 0, issue_at);
  memset((char *)s + after, 0, sizeof *s - after);
  memcpy(s->gpr, m->c.gpr, sizeof s->gpr);
  memcpy(s->cfg, m->c.cfg, sizeof s->cfg);
  memcpy(s->tcfg, m->c.tcfg, sizeof s->tcfg);
  memcpy(s->sem_value, m->c.sem_value, sizeof s->sem_value);
  memcpy(s->sem_max, m->c.sem_max, sizeof s->sem_max);
  memcpy(s->mutex, m->c.mutex, sizeof s->mutex);
  memcpy(s->packer, m->c.packer, sizeof s->packer);
  memcpy(s->src, m->src, sizeof s->src);
  memcpy(s->knob, m->p.knob, sizeof s->knob);
  for (unsigned t = 0; t < SR_THREADS; t++) {
    if (SR_KNOB(s, GPR0) == 1) s->gpr[t][0] = 0;
    s->prog[t] = m->prog[t];
    s->len[t] = m->c.thr[t].len;
    uint32_t n = s->len[t] < TT_PROG_MAX ? s->len[t] : TT_PROG_MAX;
    memset(s->cyc.issue[t], 0, sizeof s->cyc.issue[t][0] * n);
  }
  /* initial memory contents: the granules the set-up wrote */
  for (unsigned i = 0; i < m->c.l1_dirty_count; i++) {
    uint32_t g = m->l1_dirty_list[i];
    for (unsigned b = 0; b < SR_GRANULE; b++) l1[g * SR_GRANULE + b] = m->l1[g * SR_GRANULE + b];
    if (!l1_used[g]) { l1_used[g] = 1; l1_used_list[n_l1_used++] = g; }
  }
  for (unsigned i = 0; i < m->c.mmio_dirty_count; i++) {
    uint32_t g = m->mmio_dirty_list[i];
    memcpy(&mmio[g * (SR_GRANULE / 4)], &m->mmio[g * (SR_GRANULE / 4)], SR_GRANULE);
    if (!mmio_used[g]) { mmio_used[g] = 1; mmio_used_list[n_mmio_used++] = g; }
  }
  n_log_l1 = n_log_mmio = 0;
}

int sr_done(const sr_state *s) {
  for (unsigned t = 0; t < SR_THREADS; t++)
    if (s->pc[t] < s->len[t]) return 0;
  return 1;
}

/* ---- helpers ---------------------------------------------------------------------------------- */
#define KNOB(s, K) SR_KNOB(s, K)

static unsigned bank_of(const sr_state *s, unsigned t) { return s->tcfg[t][0] & 1u; }

static uint32_t half_get(const sr_state *s, unsigned t, unsigned h) {
  uint32_t g = s->gpr[t][(h >> 1) & 63];
  return (h & 1) ? g >> 16 : g & 0xFFFFu;
}
static void half_set(sr_state *s, unsigned t, unsigned h, uint32_t v) {
  uint32_t *g = &s->gpr[t][(h >> 1) & 63];
  if (h & 1) *g = (*g & 0x0000FFFFu) | ((v & 0xFFFFu) << 16);
  else *g = (*g & 0xFFFF0000u) | (v & 0xFFFFu);
}

static uint32_t l1_limit(const sr_state *s) { return KNOB(s, L1_SIZE) ? SR_L1_BYTES_WH : SR_L1_BYTES; }

static uint32_t stream_reg(uint32_t stream, uint32_t reg) {
  return sr_mmio_read(0xFFB40000u + stream * 0x1000u + reg * 4u);
}

/* BackendConfiguration.md: a write to word j >= 180 goes to both banks; writing word 4
 * (STATE_RESET_EN) other than by RMWCIB zeroes words 0..179 of the bank written (AMB-19:
 * write_then_clear clears after the write, keep_written before it); PRNG_SEED (186) reseeds;
 * RISCV_IC_INVALIDATE (185) invalidates the caches named by its bits 0..4. */
static void cfg_write(sr_state *s, unsigned bank, unsigned idx, const uint32_t *v, unsigned n,
                      int via_rmwcib) {
  int reset = 0;
  for (unsigned k = 0; k < n; k++)
    if (idx + k == 4 && !via_rmwcib) reset = 1;
  if (reset && KNOB(s, STATE_RESET_EN) == 1)
    for (unsigned j = 0; j < SR_CFG_GLOBAL; j++) s->cfg[bank][j] = 0;
  for (unsigned k = 0; k < n; k++) {
    unsigned j = idx + k;
    if (j >= SR_CFG_GLOBAL) s->cfg[0][j] = s->cfg[1][j] = v[k];
    else s->cfg[bank][j] = v[k];
    if (j == 186) { s->prng_seed = v[k]; s->prng_reseeds++; }
    if (j == 185)
      for (unsigned c = 0; c < 5; c++)
        if ((v[k] >> c) & 1u) s->ic_invalidates[c]++;
  }
  if (reset && KNOB(s, STATE_RESET_EN) == 0)
    for (unsigned j = 0; j < SR_CFG_GLOBAL; j++) s->cfg[bank][j] = 0;
}

static uint32_t rotr(uint32_t x, unsigned n) {
  n &= 31u;
  return n == 0 ? x : (x >> n) | (x << (32u - n));
}

/* ---- Wait Gate (digest 3.2–3.4) ---------------------------------------------------------------- */
static uint16_t default_block(uint32_t b) { return (uint16_t)(b == 0 ? 0x040u : b); }

static void latch_stallwait(sr_state *s, unsigned t, uint32_t block, uint32_t cond) {
  sr_latch *l = &s->latch[t];
  memset(l, 0, sizeof *l);
  l->op = TT_LATCH_STALLWAIT;
  l->block = default_block(block);
  l->cond = (uint16_t)(cond == 0 ? 0x00Fu : cond);
}

static uint32_t stream_target(const sr_state *s, unsigned t, unsigned ci, uint32_t lo) {
  uint32_t hi = ci == 0 ? s->tcfg[t][57] & 0x3FFu : s->tcfg[t][58] & 0x7Fu;
  return (hi << 10) + lo;   /* streamwait_lo_bits=11: bit 10 of lo adds 0x400 (AMB-4) */
}

/* Keep waiting while...? (functional mode: STALLWAIT conditions describe work in flight in
 * units that finish at once, so none holds.) */
static int latch_holds(const sr_state *s, unsigned t) {
  const sr_latch *l = &s->latch[t];
  if (l->op == TT_LATCH_SEMWAIT) {
    for (unsigned i = 0; i < SR_SEMS; i++) {
      if (!((l->sem_mask >> i) & 1u)) continue;
      if ((l->cond & 1u) && s->sem_value[i] == 0) return 1;
      if ((l->cond & 2u) && s->sem_value[i] >= s->sem_max[i]) return 1;
    }
    return 0;
  }
  if (l->op == TT_LATCH_STREAMWAIT) {
    uint32_t stream = s->tcfg[t][59 + (l->stream_select & 3u)] & 0x3Fu;
    uint32_t now = stream_reg(stream, l->condition_index ? 259u : 29u);
    uint32_t target = KNOB(s, STREAMWAIT_OPERANDS) == 1
                          ? stream_target(s, t, l->condition_index, l->target_lo) : l->target;
    return now < target;
  }
  return 0;
}

static int caught(uint16_t block, const tt_insn *in) {
  if (in->block_bits & TT_BLOCK_NOP) return block == 0x1FFu;
  return (block & in->block_bits) != 0;
}

/* ---- Scalar Unit (digest 4.3) ---------------------------------------------------------------- */
static void setdmareg_special(sr_state *s, unsigned t, const tt_args_SETDMAREG_SPECIAL *a) {
  uint32_t v[4] = {0, 0, 0, 0};
  unsigned src = a->input_source;
  tt_packer *pk = s->packer;
  if (src == 0) {
    for (unsigned i = 0; i < 4; i++) {
      uint16_t hi = (uint16_t)pk[i].acc_tile_size[t];
      uint16_t lo = pk[i].last_thread == t ? (uint16_t)pk[i].last_tile_size : 0;
      v[i] = (uint32_t)hi << 16 | lo;
    }
  } else if (src == 1) {
    for (unsigned i = 0; i < 4; i++) v[i] = pk[i].all_zero_flags;
  } else if (src <= 5) {
    /* tile header: TileSize [15:0] of word 0; DataFormat [19:16], DisableZeroCompression
     * [20], SpareBits [23:21] of word 1; AllZeroFlags word 2 */
    const tt_packer *p = &pk[src - 2];
    unsigned sid = bank_of(s, t);
    uint16_t size = (uint16_t)((p->last_thread == t ? p->last_tile_size : 0) + 1u);
    v[0] = size;
    v[1] = (uint32_t)(p->out_data_format[sid] & 0xFu) << 16 |
           (uint32_t)(p->disable_zero_compress[sid] & 1u) << 20;
    v[2] = p->all_zero_flags;
  } else if (src <= 7) {
    const uint8_t *h = pk[a->which_packers & 3u].exp_hist + (src - 6) * 16;
    for (unsigned b = 0; b < 16; b++) v[b / 4] |= (uint32_t)h[b] << (8 * (b % 4));
  } else if (src == 8) {
    for (unsigned i = 0; i < 4; i++) {
      v[0] |= (uint32_t)(pk[i].all_zero_flags & 1u) << i;
      if ((a->which_packers >> i) & 1u)
        for (unsigned u = 0; u < SR_THREADS; u++) pk[i].acc_tile_size[u] = 0;
    }
  } else if (src == 9) {
    v[0] = pk[0].exp_hist_max;
  }
  unsigned group = (a->result_half_reg >> 1) & 0x3Cu;
  uint32_t *g = s->gpr[t];
  switch (a->result_size) {
  case 0: {
    uint32_t word = v[a->input_half_reg >> 1];
    half_set(s, t, a->result_half_reg, (a->input_half_reg & 1) ? word >> 16 : word);
    break;
  }
  case 1: g[a->result_half_reg >> 1] = v[a->input_half_reg >> 1]; break;
  case 2: for (unsigned k = 0; k < 4; k++) g[group + k] = v[k]; break;
  default:
    g[group] = (g[group] & 0xFFFF0000u) | (v[0] & 0xFFFFu);
    g[group + 1] = (g[group + 1] & 0xFF00FFFFu) | (v[1] & 0x00FF0000u);
    g[group + 2] = v[2];
    break;
  }
}

/* ADD/SUB/MUL/BITWOP/SHIFT/CMPDMAREG: 0 ok, -1 undefined mode */
static int alu(unsigned mn, unsigned mode, uint32_t l, uint32_t r, uint32_t *out) {
  switch (mn) {
  case TT_MN_ADDDMAREG: *out = l + r; return 0;
  case TT_MN_SUBDMAREG: *out = l - r; return 0;
  case TT_MN_MULDMAREG: *out = (l & 0xFFFFu) * (r & 0xFFFFu); return 0;
  case TT_MN_BITWOPDMAREG:
    if (mode > 2) return -1;
    *out = mode == 0 ? (l & r) : mode == 1 ? (l | r) : (l ^ r);
    return 0;
  case TT_MN_SHIFTDMAREG:
    if (mode > 1) return -1;
    *out = mode == 0 ? l << (r & 31u) : l >> (r & 31u);
    return 0;
  case TT_MN_CMPDMAREG:
    if (mode > 2) return -1;
    *out = mode == 0 ? l > r : mode == 1 ? l < r : l == r;
    return 0;
  default: return -1;
  }
}

static void dmareg(sr_state *s, unsigned t, const tt_insn *in) {
  /* fields by position (table order): [mode,] result_reg, right, left_reg */
  uint32_t f[8];
  unsigned n = tt_insn_fields(in, f, 8);
  unsigned mode = n == 4 ? f[0] : 0, base = n == 4 ? 1u : 0u;
  uint32_t res_reg = f[base], right = f[base + 1], left_reg = f[base + 2];
  int imm = (in->word >> 23) & 1u;
  uint32_t l = s->gpr[t][left_reg], r = imm ? right : s->gpr[t][right], out;
  if (alu(in->mnem, mode, l, r, &out) != 0) {
    fault(s, t, TT_FC_MODE);
    if (KNOB(s, UNDEFINED_MODE) != 1) return;
    out = 0;
  }
  s->gpr[t][res_reg] = out;
}

/* ---- Configuration Unit (digest 4.2) ------------------------------------------------------- */
/* 1 = the word exists. cfg_index_high=ignore (AMB-9): an index >= 224 is legal with no register
 * behind it (a write vanishes, RDCFG reads 0), nothing recorded. */
static int cfg_idx(sr_state *s, unsigned t, uint32_t idx) {
  if (idx < SR_CFG_WORDS) return 1;
  if (KNOB(s, CFG_INDEX_HIGH) == 1) return 0;
  fault(s, t, TT_FC_CFG_INDEX);
  return 0;
}

static void rmwcib(sr_state *s, unsigned t, unsigned lane, const tt_args_RMWCIB0 *a) {
  if (!cfg_idx(s, t, a->cfg_index)) return;
  unsigned b = bank_of(s, t);
  uint32_t w = s->cfg[b][a->cfg_index];
  uint32_t old = (w >> (8 * lane)) & 0xFFu;
  uint32_t nb = (a->new_value & a->mask) | (old & ~a->mask & 0xFFu);
  w = (w & ~(0xFFu << (8 * lane))) | nb << (8 * lane);
  cfg_write(s, b, a->cfg_index, &w, 1, 1);
}

void sr_cfgshiftmask_bank(sr_state *s, unsigned t, unsigned b, const tt_args_CFGSHIFTMASK *a) {
  uint32_t src = s->cfg[b][209 + (a->scratch_index < 3 ? a->scratch_index : t)];
  uint32_t mask = (uint32_t)((2ull << a->mask_width) - 1u);
  uint32_t sv = rotr(src & mask, a->rotate_amt);
  uint32_t cv = s->cfg[b][a->cfg_index];
  if (a->mask_mode == 0) cv &= ~rotr(mask, a->rotate_amt);
  /* cfgshiftmask_not=masked (AMB-8): the complement is masked by the rotated mask first */
  uint32_t nsv = KNOB(s, CFGSHIFTMASK_NOT) == 1 ? ~sv & rotr(mask, a->rotate_amt) : ~sv;
  switch (a->alu_mode) {
  case 0: cv |= sv; break;
  case 1: cv &= sv; break;
  case 2: cv ^= sv; break;
  case 3: cv += sv; break;
  case 4: cv |= nsv; break;
  case 5: cv &= nsv; break;
  case 6: cv ^= nsv; break;
  default: cv -= sv; break;
  }
  cfg_write(s, b, a->cfg_index, &cv, 1, 0);
}

static void cfgshiftmask(sr_state *s, unsigned t, const tt_args_CFGSHIFTMASK *a) {
  if (!cfg_idx(s, t, a->cfg_index)) return;
  sr_cfgshiftmask_bank(s, t, bank_of(s, t), a);
}

/* ---- one instruction ---------------------------------------------------------------------------- */
/* Blackhole mutexes 0, 2, 3, 4; mutex_indices=wh (AMB-24): WormholeB0's 0, 2..7 */
static int valid_mutex(const sr_state *s, uint32_t i) {
  return i == 0 || (i >= 2 && i <= (KNOB(s, MUTEX_INDICES) == 1 ? 7u : 4u));
}

/* The payload bits of `in` that belong to no field under the knobs' readings: a wider reading
 * takes bits the ISA width leaves reserved. */
uint32_t sr_reserved(const sr_state *s, const tt_insn *in) {
  uint32_t r = in->reserved;
  /* loadind_offset_bits=8 (AMB-11): OffsetHalfReg is [21:14] */
  if (in->form == TT_FORM_LOADIND && KNOB(s, LOADIND_OFFSET_BITS) == 1) r &= ~(1u << 21);
  /* streamwait_lo_bits=11 (AMB-4): TargetValueLo is [14:4] */
  if (in->form == TT_FORM_STREAMWAIT && KNOB(s, STREAMWAIT_LO_BITS) == 1) r &= ~(1u << 14);
  /* field_width=llk (AMB-29): the bits tt-llk's wider fields take (sr_decode) */
  if (KNOB(s, FIELD_WIDTH) == 1) switch (in->form) {
    case TT_FORM_ATGETM: case TT_FORM_ATRELM: r &= ~0xFF0000u; break;   /* index [23:16] */
    case TT_FORM_WRCFG: r &= ~0x7800u; break;                           /* CfgIndex [14:11] */
    case TT_FORM_RDCFG: r &= ~0xF800u; break;                           /* CfgIndex [15:11] */
    case TT_FORM_SEMINIT: r &= ~0xFC00u; break;                         /* mask [15:10] */
    case TT_FORM_SEMWAIT: r &= ~0x7C00u; break;                         /* mask [14:10] */
    case TT_FORM_SEMPOST: case TT_FORM_SEMGET: r &= ~0xFFFC00u; break;  /* mask [23:10] */
    default: break;
  }
  return r;
}

/* 1 = retired, 0 = did not (held or retrying) */
static int execute_insn(sr_state *s, unsigned t, const tt_insn *in);
/* gpr0=zero (AMB-27): GPR 0 reads 0 and keeps no write, so it is 0 after every instruction
 * (and from the load, and after every write-back and host store: spec_ref_cycle.c, _host.c) */
static int execute(sr_state *s, unsigned t, const tt_insn *in) {
  int r = execute_insn(s, t, in);
  if (KNOB(s, GPR0) == 1) s->gpr[t][0] = 0;
  return r;
}
static int execute_insn(sr_state *s, unsigned t, const tt_insn *in) {
  uint32_t *g = s->gpr[t];
  if (sr_reserved(s, in) && KNOB(s, RESERVED_BITS) == 0) fault(s, t, TT_FC_RESERVED_BITS);
  switch (in->form) {
  case TT_FORM_NOP: case TT_FORM_DMANOP: break;
  case TT_FORM_RSTDMA: if (KNOB(s, RSTDMA) != 1) fault(s, t, TT_FC_RSTDMA); break;
  case TT_FORM_SETDMAREG_IMM:
    /* setdmareg_imm_bits=14 (AMB-10): only [21:8] are the value, the top two bits clear */
    half_set(s, t, in->a.SETDMAREG_IMM.result_half_reg,
             in->a.SETDMAREG_IMM.new_value & (KNOB(s, SETDMAREG_IMM_BITS) == 1 ? 0x3FFFu : 0xFFFFu));
    break;
  case TT_FORM_SETDMAREG_SPECIAL: setdmareg_special(s, t, &in->a.SETDMAREG_SPECIAL); break;
  case TT_FORM_FLUSHDMA:
    if (KNOB(s, FLUSHDMA) != 0 && s->latch[t].op == TT_LATCH_NONE)   /* stallwait_b5(_2cy) */
      latch_stallwait(s, t, 0x020u, in->a.FLUSHDMA.condition_mask);
    break;
  case TT_FORM_REG2FLOP: sr_reg2flop(s, t, &in->a.REG2FLOP); break;
  case TT_FORM_LOADIND:
    /* loadind_offset_bits=8 (AMB-11): bit 21 set names half-register 128..255, which does not
     * exist: UndefinedBehavior, the instruction does nothing */
    if (KNOB(s, LOADIND_OFFSET_BITS) == 1 && ((in->word >> 21) & 1u)) { fault(s, t, TT_FC_HALFREG_RANGE); break; }
    sr_loadind(s, t, &in->a.LOADIND);
    break;
  case TT_FORM_ADDDMAREG_REG: case TT_FORM_ADDDMAREG_IMM: case TT_FORM_SUBDMAREG_REG:
  case TT_FORM_SUBDMAREG_IMM: case TT_FORM_MULDMAREG_REG: case TT_FORM_MULDMAREG_IMM:
  case TT_FORM_BITWOPDMAREG_REG: case TT_FORM_BITWOPDMAREG_IMM: case TT_FORM_SHIFTDMAREG_REG:
  case TT_FORM_SHIFTDMAREG_IMM: case TT_FORM_CMPDMAREG_REG: case TT_FORM_CMPDMAREG_IMM:
    dmareg(s, t, in);
    break;
  case TT_FORM_ATINCGET: case TT_FORM_ATINCGETPTR: case TT_FORM_ATSWAP: case TT_FORM_ATCAS:
    return sr_atomic(s, t, in);
  case TT_FORM_STOREIND_L1: sr_storeind_l1(s, t, &in->a.STOREIND_L1); break;
  case TT_FORM_STOREIND_MMIO: sr_storeind_mmio(s, t, &in->a.STOREIND_MMIO); break;
  case TT_FORM_STOREIND_SRC: sr_storeind_src(s, t, &in->a.STOREIND_SRC); break;
  case TT_FORM_STOREREG: {
    uint32_t addr = SR_MMIO_BASE + in->a.STOREREG.addr_lo * 4u;
    if (sr_mmio_ok(s, t, addr) == 1) mmio_write(addr, g[in->a.STOREREG.data_reg]);
    break;
  }
  case TT_FORM_LOADREG: {
    uint32_t addr = SR_MMIO_BASE + in->a.LOADREG.addr_lo * 4u;
    int ok = sr_mmio_ok(s, t, addr);
    if (ok) sr_result(s, t, in->a.LOADREG.result_reg, ok == 1 ? sr_mmio_read(addr) : 0, ~0u, SR_RES_LOADREG);
    break;
  }
  case TT_FORM_ATGETM:
    s->mutex[in->a.ATGETM.mutex_index] = (uint8_t)(1 + t);
    s->reserved_for[in->a.ATGETM.mutex_index] = 0;
    break;
  case TT_FORM_ATRELM: {
    uint32_t i = in->a.ATRELM.mutex_index;
    if (s->mutex[i] != 1 + t) break;   /* not the holder: completes, no change */
    s->mutex[i] = 0;
    /* released while both other threads wait for it: (t+1)%3 gets it next */
    unsigned n1 = (t + 1) % SR_THREADS, n2 = (t + 2) % SR_THREADS, both = 1;
    for (unsigned k = 0; k < 2; k++) {
      unsigned u = k ? n2 : n1;
      tt_insn h;
      sr_decode(s, s->pc[u] < s->len[u] ? s->prog[u][s->pc[u]] : 0, &h);
      both &= s->held[u] == SR_HELD_MUTEX && h.form == TT_FORM_ATGETM && h.a.ATGETM.mutex_index == i;
    }
    if (both) s->reserved_for[i] = (uint8_t)(1 + n1);
    break;
  }
  case TT_FORM_STALLWAIT:
    latch_stallwait(s, t, in->a.STALLWAIT.block_mask, in->a.STALLWAIT.condition_mask);
    break;
  case TT_FORM_SEMINIT:
    for (unsigned i = 0; i < SR_SEMS; i++)
      if ((in->a.SEMINIT.sem_mask >> i) & 1u) {
        s->sem_value[i] = (uint8_t)in->a.SEMINIT.new_value;
        s->sem_max[i] = (uint8_t)in->a.SEMINIT.new_max;
      }
    break;
  case TT_FORM_SEMPOST:
    for (unsigned i = 0; i < SR_SEMS; i++)
      if (((in->a.SEMPOST.sem_mask >> i) & 1u) && s->sem_value[i] != 15) s->sem_value[i]++;
    break;
  case TT_FORM_SEMGET:
    for (unsigned i = 0; i < SR_SEMS; i++)
      if (((in->a.SEMGET.sem_mask >> i) & 1u) && s->sem_value[i] != 0) s->sem_value[i]--;
    break;
  case TT_FORM_SEMWAIT: {
    const tt_args_SEMWAIT *a = &in->a.SEMWAIT;
    if (a->condition_mask == 0) {
      if (KNOB(s, SEMWAIT_COND0) == 1) latch_stallwait(s, t, a->block_mask, 0);
      else fault(s, t, TT_FC_SEMWAIT_COND0);
      break;
    }
    sr_latch *l = &s->latch[t];
    memset(l, 0, sizeof *l);
    l->op = TT_LATCH_SEMWAIT;
    l->block = default_block(a->block_mask);
    l->cond = (uint16_t)a->condition_mask;
    l->sem_mask = (uint8_t)a->sem_mask;
    break;
  }
  case TT_FORM_STREAMWAIT: {
    const tt_args_STREAMWAIT *a = &in->a.STREAMWAIT;
    sr_latch *l = &s->latch[t];
    memset(l, 0, sizeof *l);
    l->op = TT_LATCH_STREAMWAIT;
    l->block = default_block(a->block_mask);
    /* streamwait_blocks (AMB-5): always B2|B3|B4 (packer, unpackers, mover), or B1 only */
    if (KNOB(s, STREAMWAIT_BLOCKS) == 1) l->block = 0x01Cu;
    if (KNOB(s, STREAMWAIT_BLOCKS) == 2) l->block = 0x002u;
    l->cond = (uint16_t)(1u << a->condition_index);
    l->condition_index = (uint8_t)a->condition_index;
    l->stream_select = (uint8_t)a->stream_select;
    l->target_lo = a->target_value_lo;
    if (KNOB(s, STREAMWAIT_LO_BITS) == 1) l->target_lo |= ((in->word >> 14) & 1u) << 10;
    l->target = stream_target(s, t, a->condition_index, l->target_lo);
    break;
  }
  case TT_FORM_WRCFG: {
    const tt_args_WRCFG *a = &in->a.WRCFG;
    unsigned b = bank_of(s, t);
    if (a->is_128bit) {
      uint32_t idx = a->cfg_index & ~3u, v[4];
      if (idx + 4 > SR_CFG_WORDS) { cfg_idx(s, t, idx); break; }
      for (unsigned k = 0; k < 4; k++) v[k] = g[(a->input_reg & ~3u) + k];
      cfg_write(s, b, idx, v, 4, 0);
    } else if (cfg_idx(s, t, a->cfg_index)) {
      cfg_write(s, b, a->cfg_index, &g[a->input_reg], 1, 0);
    }
    break;
  }
  case TT_FORM_RDCFG:
    if (cfg_idx(s, t, in->a.RDCFG.cfg_index))
      sr_result(s, t, in->a.RDCFG.result_reg, s->cfg[bank_of(s, t)][in->a.RDCFG.cfg_index], ~0u,
             SR_RES_RDCFG);
    else if (KNOB(s, CFG_INDEX_HIGH) == 1)
      sr_result(s, t, in->a.RDCFG.result_reg, 0, ~0u, SR_RES_RDCFG);
    break;
  case TT_FORM_SETC16: {
    const tt_args_SETC16 *a = &in->a.SETC16;
    if (a->cfg_index >= SR_TCFG_WORDS) { fault(s, t, TT_FC_TCFG_INDEX); break; }
    s->tcfg[t][a->cfg_index] = (uint16_t)a->new_value;
    if (a->cfg_index == 41) {
      if ((a->new_value >> 4) & 1u) s->ctx_resets[t][0]++;
      if ((a->new_value >> 12) & 1u) s->ctx_resets[t][1]++;
    }
    break;
  }
  case TT_FORM_RMWCIB0: rmwcib(s, t, 0, &in->a.RMWCIB0); break;
  case TT_FORM_RMWCIB1: rmwcib(s, t, 1, (const tt_args_RMWCIB0 *)&in->a.RMWCIB1); break;
  case TT_FORM_RMWCIB2: rmwcib(s, t, 2, (const tt_args_RMWCIB0 *)&in->a.RMWCIB2); break;
  case TT_FORM_RMWCIB3: rmwcib(s, t, 3, (const tt_args_RMWCIB0 *)&in->a.RMWCIB3); break;
  case TT_FORM_STREAMWRCFG: {
    const tt_args_STREAMWRCFG *a = &in->a.STREAMWRCFG;
    if (!cfg_idx(s, t, a->cfg_index)) break;
    uint32_t stream = s->tcfg[t][59 + a->stream_select] & 0x3Fu;
    uint32_t v = stream_reg(stream, a->reg_index);
    cfg_write(s, bank_of(s, t), a->cfg_index, &v, 1, 0);
    break;
  }
  case TT_FORM_CFGSHIFTMASK: cfgshiftmask(s, t, &in->a.CFGSHIFTMASK); break;
  case TT_FORM_FOREIGN:
    if (tt_isa_foreign[in->foreign].kind == TT_FG_FRONTEND && KNOB(s, FRONTEND_OPS) == 0)
      fault(s, t, TT_FC_FRONTEND_OP);
    break;
  case TT_FORM_UNDEFINED: fault(s, t, TT_FC_UNDEFINED_OPCODE); break;
  case TT_FORM_COUNT: break;
  }
  return 1;
}

static int is_thcon(const tt_insn *in) {
  return in->form < TT_FORM_FOREIGN && tt_isa_mnems[in->mnem].unit == TT_UNIT_THCON;
}

void sr_round(sr_state *s) {
  /* every latch is re-evaluated on the state at the start of the round */
  int forget[SR_THREADS];
  for (unsigned t = 0; t < SR_THREADS; t++)
    forget[t] = s->latch[t].op != TT_LATCH_NONE && !latch_holds(s, t);
  for (unsigned t = 0; t < SR_THREADS; t++)
    if (forget[t]) memset(&s->latch[t], 0, sizeof s->latch[t]);
  s->src_written = 0;
  for (unsigned t = 0; t < SR_THREADS; t++) {
    s->round_retired[t] = 0;
    s->round_word[t] = 0;
    if (s->pc[t] >= s->len[t]) { s->held[t] = SR_HELD_NONE; continue; }
    tt_insn in;
    uint32_t w = s->prog[t][s->pc[t]];
    s->round_word[t] = w;
    sr_decode(s, w, &in);
    if (sr_catches(s, t, &in)) {
      s->held[t] = SR_HELD_LATCH;
      continue;
    }
    if (is_thcon(&in) && s->spinner && s->spinner != 1 + t) { s->held[t] = SR_HELD_THCON; continue; }
    if (in.form == TT_FORM_ATGETM || in.form == TT_FORM_ATRELM) {
      uint32_t i = in.form == TT_FORM_ATGETM ? in.a.ATGETM.mutex_index : in.a.ATRELM.mutex_index;
      if (!valid_mutex(s, i)) { s->held[t] = SR_HELD_MUTEX_INVALID; continue; }
      if (in.form == TT_FORM_ATGETM &&
          ((s->mutex[i] && s->mutex[i] != 1 + t) ||
           (!s->mutex[i] && s->reserved_for[i] && s->reserved_for[i] != 1 + t))) {
        s->held[t] = SR_HELD_MUTEX;
        continue;
      }
    }
    if (!execute(s, t, &in)) {
      s->held[t] = SR_HELD_SPIN;
      s->spinner = (uint8_t)(1 + t);
      continue;
    }
    if (s->spinner == 1 + t) s->spinner = 0;
    s->held[t] = SR_HELD_NONE;
    s->pc[t]++;
    s->round_retired[t] = 1;
  }
}

/* ---- for the cycle mode (spec_ref_cycle.c) ------------------------------------------------------ */
static int is_wait(const tt_insn *in) {
  return in->form == TT_FORM_STALLWAIT || in->form == TT_FORM_SEMWAIT || in->form == TT_FORM_STREAMWAIT;
}
/* Does t's latch hold `in` back (whatever its conditions)? wait_replace=overwrite (AMB-3): a
 * wait instruction is never caught; it replaces the latch. */
int sr_catches(const sr_state *s, unsigned t, const tt_insn *in) {
  if (s->latch[t].op == TT_LATCH_NONE) return 0;
  if (KNOB(s, WAIT_REPLACE) == 1 && is_wait(in)) return 0;
  /* flushdma_b0=not_caught (AMB-32, SEED-4's B0 list): FLUSHDMA is caught by B5 only */
  if (in->form == TT_FORM_FLUSHDMA && KNOB(s, FLUSHDMA_B0) == 1) return (s->latch[t].block & 0x020u) != 0;
  /* unlisted_block (AMB-28): an opcode with no row in the block table is caught by any block
   * bit (any_bit; a latched mask is never 0), or never */
  if (in->form == TT_FORM_FOREIGN && tt_isa_foreign[in->foreign].kind == TT_FG_NOTABLE &&
      KNOB(s, UNLISTED_BLOCK) != 0)
    return KNOB(s, UNLISTED_BLOCK) == 1;
  return caught(s->latch[t].block, in);
}
void sr_fault(sr_state *s, unsigned t, unsigned code) { fault(s, t, code); }
unsigned sr_bank(const sr_state *s, unsigned t) { return bank_of(s, t); }
int sr_cfg_index_ok(sr_state *s, unsigned t, uint32_t idx) { return cfg_idx(s, t, idx); }
void sr_cfg_store(sr_state *s, unsigned bank, unsigned idx, const uint32_t *v, unsigned n) {
  cfg_write(s, bank, idx, v, n, 0);
}
uint32_t sr_stream_reg(uint32_t stream, uint32_t reg) { return stream_reg(stream, reg); }
int sr_latch_holds_state(const sr_state *s, unsigned t) { return latch_holds(s, t); }
int sr_execute(sr_state *s, unsigned t, const tt_insn *in) { return execute(s, t, in); }
int sr_valid_mutex(const sr_state *s, uint32_t i) { return valid_mutex(s, i); }
int sr_is_thcon(const tt_insn *in) { return is_thcon(in); }
uint32_t sr_half_get(const sr_state *s, unsigned t, unsigned h) { return half_get(s, t, h); }
void sr_half_set(sr_state *s, unsigned t, unsigned h, uint32_t v) { half_set(s, t, h, v); }
uint32_t sr_l1_limit(const sr_state *s) { return l1_limit(s); }
void sr_l1_write(uint32_t addr, unsigned bytes, uint32_t v) { l1_write(addr, bytes, v); }
void sr_mmio_write(uint32_t addr, uint32_t v) { mmio_write(addr, v); }

/* Does the reference read value v of knob k (in cycle mode when `cycle`)? The one list that
 * spec_diff and the DUT adapter use; every other value is checked by vectors only (spec_diff's
 * file comment and fuzz/README.md say why). */
int sr_knob_read(unsigned k, unsigned v, int cycle) {
  if (v == 0) return 1;
  switch (k) {
  case TT_KNOB_RESERVED_BITS: case TT_KNOB_SEMWAIT_COND0: case TT_KNOB_STREAMWAIT_OPERANDS:
  case TT_KNOB_RSTDMA: case TT_KNOB_FRONTEND_OPS:
  case TT_KNOB_STATE_RESET_EN: case TT_KNOB_L1_SIZE: case TT_KNOB_ATOMIC_BIT23:
  case TT_KNOB_UNDEFINED_MODE: case TT_KNOB_WAIT_REPLACE:
  case TT_KNOB_FLUSHDMA_B0: case TT_KNOB_LOADIND_OFFSET_BITS: case TT_KNOB_STREAMWAIT_LO_BITS:
  case TT_KNOB_CFG_INDEX_HIGH: case TT_KNOB_SETDMAREG_IMM_BITS: case TT_KNOB_TDMA_RISC:
  case TT_KNOB_ATINCGETPTR_MASK: case TT_KNOB_CFGSHIFTMASK_NOT: case TT_KNOB_GPR0:
  case TT_KNOB_MUTEX_INDICES: case TT_KNOB_FIELD_WIDTH:
    return v <= 1;
  case TT_KNOB_UNLISTED_BLOCK: case TT_KNOB_STREAMWAIT_BLOCKS:
  case TT_KNOB_REG2FLOP:   /* wh_config_entry (AMB-51): in functional mode as wh_config */
  case TT_KNOB_FLUSHDMA:   /* stallwait_b5_2cy (AMB-50): in functional mode as stallwait_b5 */
    return v <= 2;
  case TT_KNOB_ARBITRATION: case TT_KNOB_THCON_HANDOVER: case TT_KNOB_THCON_SCOPE:
  case TT_KNOB_WAIT_LAG: case TT_KNOB_LOAD_LATENCY: case TT_KNOB_LOADREG_LATENCY:
  case TT_KNOB_ATINCGET_LATENCY: case TT_KNOB_STREAMWRCFG_PREPARE: case TT_KNOB_STUB_CYCLES:
  case TT_KNOB_C0_STORES: case TT_KNOB_CFG_STALL: case TT_KNOB_GPR_PORT:
  case TT_KNOB_THCON_RELEASE: case TT_KNOB_C12_SCOPE: case TT_KNOB_THCON_READ:
  case TT_KNOB_FLUSHDMA_RELEASE: case TT_KNOB_OUTSIDE_SLOT: case TT_KNOB_MATRIX_INTERVAL:
  case TT_KNOB_SYNC_VISIBILITY:
    return cycle;
  default:
    return 0;
  }
}
