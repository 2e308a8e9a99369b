/* config.c — Configuration Unit: WRCFG, RDCFG, SETC16, RMWCIB0..3, STREAMWRCFG, CFGSHIFTMASK.
 * References: BlackholeA0/TensixTile/TensixCoprocessor/ConfigurationUnit.md, WRCFG.md,
 * RDCFG.md, SETC16.md, RMWCIB.md, STREAMWRCFG.md, CFGSHIFTMASK.md, BackendConfiguration.md.
 * Every Config accessor uses the issuing thread's bank S = ThreadConfig[T].CFG_STATE_ID for
 * indices < 180 and writes both banks for 180..223; indices >= 224 are UndefinedBehavior
 * (recorded; the access is skipped). */
#include "internal.h"

static int cfg_index_ok(tt_state *st, unsigned t, uint32_t idx) {
  if (idx < TT_CFG_WORD_COUNT) return 1;
  tt_fault(st, t, TT_FC_CFG_INDEX);
  return 0;
}

tt_exec_result tt_exec_WRCFG(tt_state *st, unsigned t, const tt_args_WRCFG *a) {
  unsigned bank = tt_thread_bank(st, t);
  if (a->is_128bit) {
    /* 128-bit: both indices silently aligned down to a group of four. */
    uint32_t idx = TT_DEFECT(WRCFG128_NO_ALIGN) ? a->cfg_index : a->cfg_index & ~3u;
    uint32_t reg = a->input_reg & ~3u;
    if (idx + 4 > TT_CFG_WORD_COUNT) idx = TT_CFG_WORD_COUNT;  /* whole group out of range */
    if (!cfg_index_ok(st, t, idx)) return TT_EXEC_DONE;
    tt_cfg_write_words(st, bank, idx, &st->c.gpr[t][reg], 4, TT_VIA_TENSIX);
  } else {
    if (!cfg_index_ok(st, t, a->cfg_index)) return TT_EXEC_DONE;
    uint32_t v = st->c.gpr[t][a->input_reg];
    tt_cfg_write_words(st, bank, a->cfg_index, &v, 1, TT_VIA_TENSIX);
  }
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_RDCFG(tt_state *st, unsigned t, const tt_args_RDCFG *a) {
  if (!cfg_index_ok(st, t, a->cfg_index)) return TT_EXEC_DONE;
  unsigned dst = TT_DEFECT(RDCFG_OTHER_THREAD) ? (t + 1) % TT_THREAD_COUNT : t;
  st->c.gpr[dst][a->result_reg] = st->c.cfg[tt_thread_bank(st, t)][a->cfg_index];
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_SETC16(tt_state *st, unsigned t, const tt_args_SETC16 *a) {
  if (a->cfg_index >= TT_TCFG_WORD_COUNT) {
    tt_fault(st, t, TT_FC_TCFG_INDEX);
    return TT_EXEC_DONE;
  }
  st->c.tcfg[t][a->cfg_index] = (uint16_t)a->new_value;
  if (a->cfg_index == TT_TCFG_CTX_CNT_RESET) {
    /* UNPACK_MISC_CFG_CfgContextCntReset_0 (bit 4) / _1 (bit 12): reset the thread's
     * unpacker config-context counters (recorded; the counters belong to the unpackers). */
    if (a->new_value & (1u << 4)) st->c.ctx_cnt_resets[t][0]++;
    if (a->new_value & (1u << 12)) st->c.ctx_cnt_resets[t][1]++;
  }
  return TT_EXEC_DONE;
}

/* RMWCIBn: byte lane n of Config[S][idx] = (NewValue & Mask) | (byte & ~Mask). RMWCIB.md:
 * a write to STATE_RESET_EN through RMWCIB does not reset the bank. */
static tt_exec_result rmwcib(tt_state *st, unsigned t, unsigned lane, uint32_t mask,
                             uint32_t value, uint32_t idx) {
  if (!cfg_index_ok(st, t, idx)) return TT_EXEC_DONE;
  unsigned bank = tt_thread_bank(st, t);
  if (TT_DEFECT(RMWCIB_WRONG_LANE)) lane = (lane + 1) & 3u;
  uint32_t word = st->c.cfg[bank][idx], sh = 8 * lane;
  uint32_t byte = (word >> sh) & 0xFFu;
  byte = (value & mask) | (byte & ~mask & 0xFFu);
  word = (word & ~(0xFFu << sh)) | (byte << sh);
  tt_cfg_write_words(st, bank, idx, &word, 1, TT_VIA_RMWCIB);
  return TT_EXEC_DONE;
}

tt_exec_result tt_exec_RMWCIB0(tt_state *st, unsigned t, const tt_args_RMWCIB0 *a) {
  return rmwcib(st, t, 0, a->mask, a->new_value, a->cfg_index);
}
tt_exec_result tt_exec_RMWCIB1(tt_state *st, unsigned t, const tt_args_RMWCIB1 *a) {
  return rmwcib(st, t, 1, a->mask, a->new_value, a->cfg_index);
}
tt_exec_result tt_exec_RMWCIB2(tt_state *st, unsigned t, const tt_args_RMWCIB2 *a) {
  return rmwcib(st, t, 2, a->mask, a->new_value, a->cfg_index);
}
tt_exec_result tt_exec_RMWCIB3(tt_state *st, unsigned t, const tt_args_RMWCIB3 *a) {
  return rmwcib(st, t, 3, a->mask, a->new_value, a->cfg_index);
}

/* STREAMWRCFG: Config[S][CfgIndex] = NoC overlay register RegIndex of the stream named by
 * ThreadConfig[T].STREAM_ID_SYNC_SEC[StreamSelect].BankSel. */
tt_exec_result tt_exec_STREAMWRCFG(tt_state *st, unsigned t, const tt_args_STREAMWRCFG *a) {
  if (!cfg_index_ok(st, t, a->cfg_index)) return TT_EXEC_DONE;
  unsigned stream = st->c.tcfg[t][TT_TCFG_STREAM_ID_SYNC + a->stream_select] & 0x3Fu;
  uint32_t v = tt_stream_reg(st, stream, a->reg_index);
  tt_cfg_write_words(st, tt_thread_bank(st, t), a->cfg_index, &v, 1, TT_VIA_TENSIX);
  return TT_EXEC_DONE;
}

static uint32_t rotr32(uint32_t x, uint32_t n) {
  n &= 31u;
  if (TT_DEFECT(CFGSHIFTMASK_ROTL)) n = (32u - n) & 31u;
  return n ? (x >> n) | (x << (32u - n)) : x;  /* std::rotr semantics: rotr(x, 0) == x */
}

/* CFGSHIFTMASK (CFGSHIFTMASK.md, newest text): the complement in modes 4..6 applies to the
 * masked and rotated scratch value, so bits outside the mask are affected too (AMB-8). */
tt_exec_result tt_exec_CFGSHIFTMASK(tt_state *st, unsigned t, const tt_args_CFGSHIFTMASK *a) {
  if (!cfg_index_ok(st, t, a->cfg_index)) return TT_EXEC_DONE;
  unsigned bank = tt_thread_bank(st, t);
  unsigned scratch = a->scratch_index < 3 ? a->scratch_index : t;
  uint32_t src = st->c.cfg[bank][TT_CFG_SCRATCH0 + scratch];
  uint32_t mask = (uint32_t)(((uint64_t)2 << a->mask_width) - 1u);
  uint32_t sv = rotr32(src & mask, a->rotate_amt);
  uint32_t cv = st->c.cfg[bank][a->cfg_index];
  if (a->mask_mode == 0) cv &= ~rotr32(mask, a->rotate_amt);
  switch (a->alu_mode & 7u) {
  case 0: cv = cv | sv; break;
  case 1: cv = cv & sv; break;
  case 2: cv = cv ^ sv; break;
  case 3: cv = cv + sv; break;
  case 4: cv = cv | ~sv; break;
  case 5: cv = cv & ~sv; break;
  case 6: cv = cv ^ ~sv; break;
  default: cv = cv - sv; break;
  }
  tt_cfg_write_words(st, bank, a->cfg_index, &cv, 1, TT_VIA_TENSIX);
  return TT_EXEC_DONE;
}
