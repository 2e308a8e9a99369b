/* ttrun_hazard.c — hazards a person can trust. Every hazard the model reports gets its producer
 * (the instruction, its line, the Config words or GPR it writes) and, for gpr_pending, the value
 * the consumer saw and the one not yet landed. cfg_gap follows the refined rule of the vector
 * format (vector-format.md, hazard kinds): the consumer must be able to read the Config word
 * that was written, per the table below of which Config words an instruction outside the model
 * reads, built from its instruction page (the functional model of tenstorrent/tt-isa-documentation,
 * WormholeB0/TensixTile/TensixCoprocessor/NAME.md). An instruction the table does not know
 * reads every word. A cfg_gap the table rules out is dismissed: listed, with the page, not
 * counted. Word indices of Config fields: tt-metal's cfg_defines.h. */
#include <string.h>

#include "ttrun.h"

haz_note *g_hz;
size_t g_nhz;
unsigned g_hz_kept;
static size_t g_caphz;

typedef struct cfg_reads {
  unsigned foreign;         /* TT_FG_ID_... */
  uint8_t n, word[3];       /* the Config words it reads (of its thread's bank) */
  const char *page;         /* why, from the page */
} cfg_reads;

static const cfg_reads g_reads[] = {
  {TT_FG_ID_SETADC, 0, {0}, "SETADC.md: writes ADC counters only, reads no Config"},
  {TT_FG_ID_SETADCXY, 0, {0}, "SETADCXY.md: writes ADC counters only, reads no Config"},
  {TT_FG_ID_SETADCZW, 0, {0}, "SETADCZW.md: writes ADC counters only, reads no Config"},
  {TT_FG_ID_SETADCXX, 0, {0}, "SETADCXX.md: writes ADC counters only, reads no Config"},
  {TT_FG_ID_INCADCXY, 0, {0}, "INCADCXY.md: updates ADC counters only, reads no Config"},
  {TT_FG_ID_INCADCZW, 0, {0}, "INCADCZW.md: updates ADC counters only, reads no Config"},
  {TT_FG_ID_ADDRCRXY, 0, {0}, "ADDRCRXY.md: updates ADC counters only, reads no Config"},
  {TT_FG_ID_ADDRCRZW, 0, {0}, "ADDRCRZW.md: updates ADC counters only, reads no Config"},
  {TT_FG_ID_SETRWC, 0, {0}, "SETRWC.md: RWCs and ThreadConfig CLR_DVALID_* only, reads no Config"},
  {TT_FG_ID_INCRWC, 0, {0}, "INCRWC.md: RWCs only, reads no Config"},
  {TT_FG_ID_CLEARDVALID, 0, {0}, "CLEARDVALID.md: Src valid bits and ThreadConfig only, reads no Config"},
  {TT_FG_ID_MOVD2B, 3, {0, 1, 6}, "MOVD2B.md: reads ALU_FORMAT_SPEC_REG_SrcA_override/_val (word 0), "
   "ALU_FORMAT_SPEC_REG0_SrcA and ALU_ACC_CTRL_Fp32_enabled/_INT8_math_enabled (word 1), DEST_REGW_BASE_Base (word 6)"},
  {TT_FG_ID_ZEROACC, 2, {1, 6}, "ZEROACC.md: reads ALU_ACC_CTRL_Fp32_enabled/_INT8_math_enabled (word 1), "
   "DEST_REGW_BASE_Base (word 6)"},
};

static const cfg_reads *reads_of(const tt_insn *in) {
  if (in->form != TT_FORM_FOREIGN) return NULL;
  for (size_t i = 0; i < sizeof g_reads / sizeof *g_reads; i++)
    if (g_reads[i].foreign == in->foreign) return &g_reads[i];
  return NULL;
}

/* Config words [*lo, *hi] a Config write writes; 0 when it is not one. */
static int cfg_written(uint32_t w, uint32_t *lo, uint32_t *hi) {
  unsigned op = w >> 24;
  if (op == 0xB0) {             /* WRCFG: CfgReg, four aligned words with wr128b */
    *lo = w & 0x7FFu;
    if (w >> 15 & 1u) *lo &= ~3u;
    *hi = *lo + (w >> 15 & 1u ? 3u : 0u);
    return 1;
  }
  if ((op >= 0xB3 && op <= 0xB6) || op == 0xB8) { *lo = *hi = w & 0xFFu; return 1; }   /* RMWCIB0..3, CFGSHIFTMASK */
  return 0;
}

/* The GPR an asynchronous write-back instruction writes, or -1. */
static int async_gpr(uint32_t w) {
  tt_insn in;
  uint64_t rd, wr;
  tt_decode(w, &in);
  if (in.form != TT_FORM_LOADIND && in.form != TT_FORM_LOADREG && in.form != TT_FORM_ATINCGET &&
      in.form != TT_FORM_RDCFG)
    return -1;
  tt_insn_gpr_use(&in, &rd, &wr);
  for (int g = 0; g < 64; g++)
    if (wr >> g & 1u) return g;
  return -1;
}

/* After each cycle-mode step: a gpr_pending reported in it gets the GPR's value as the consumer
 * saw it and the write-back still in flight. */
void hazard_observe(void) {
  unsigned nh = tt_hazard_count(&g_st);
  for (size_t i = g_nhz; i < nh; i++) {
    if (g_nhz == g_caphz) {
      g_caphz = g_caphz ? 2 * g_caphz : 64;
      g_hz = xrealloc(g_hz, g_caphz * sizeof *g_hz);
    }
    haz_note *z = &g_hz[g_nhz++];
    memset(z, 0, sizeof *z);
    z->producer = -1;
    if (tt_hazard_get(&g_st, (unsigned)i, &z->h) != 0) { z->lost = 1; continue; }
    if (z->h.kind != TT_HAZ_GPR_PENDING) continue;
    z->seen = g_st.c.gpr[z->h.thread][z->h.gpr];
    for (unsigned k = 0; k < g_st.c.cyc.nwb; k++) {
      const tt_wb *b = &g_st.c.cyc.wb[k];
      if (b->thread != z->h.thread || b->reg != z->h.gpr) continue;
      z->pending = (z->seen & ~b->mask) | b->value;
      z->due = b->due;
      z->has_value = 1;
    }
  }
}

/* cfg_gap: the last Config write of the thread before the consumer, and whether the table lets
 * the consumer read what it wrote. */
static void classify_cfg_gap(haz_note *z) {
  unsigned t = z->h.thread;
  tt_insn in;
  tt_decode(g_st.prog[t][z->h.index], &in);
  for (long k = (long)z->h.index - 1; k >= 0 && z->producer < 0; k--)
    if (cfg_written(g_st.prog[t][k], &z->lo, &z->hi)) z->producer = (int32_t)k;
  const cfg_reads *r = reads_of(&in);
  z->keep = 1;
  z->page = "not in the table of Config reads (counts as reading every word)";
  if (!r || z->producer < 0) return;
  z->page = r->page;
  z->keep = 0;
  for (unsigned i = 0; i < r->n; i++)
    if (r->word[i] >= z->lo && r->word[i] <= z->hi) z->keep = 1;
}

void hazards_classify(void) {
  hazard_observe();
  g_hz_kept = 0;
  for (size_t i = 0; i < g_nhz; i++) {
    haz_note *z = &g_hz[i];
    if (z->lost) { z->keep = 1; g_hz_kept++; continue; }
    if (z->h.kind == TT_HAZ_CFG_GAP) classify_cfg_gap(z);
    else {
      z->keep = 1;
      for (long k = (long)z->h.index - 1; k >= 0 && z->producer < 0; k--) {
        uint32_t w = g_st.prog[z->h.thread][k];
        if (z->h.kind == TT_HAZ_GPR_PENDING ? async_gpr(w) == (int)z->h.gpr : (w >> 24) == 0xB7u)
          z->producer = (int32_t)k;   /* gpr_pending: the write-back; streamwrcfg_order: the STREAMWRCFG */
      }
    }
    g_hz_kept += (unsigned)z->keep;
  }
}

/* The producer in words: "line L "TEXT" writing Config word W" / "... GPR G". */
void hazard_producer(char *buf, size_t n, const haz_note *z) {
  char it[160];
  if (z->producer < 0) { snprintf(buf, n, "no producer found before it in the stream"); return; }
  insn_text(g_st.prog[z->h.thread][z->producer], it, sizeof it);
  int k = snprintf(buf, n, "instruction %d, line %u \"%s\"", z->producer, src_line(z->h.thread, (uint32_t)z->producer), it);
  if (k < 0 || (size_t)k >= n) return;
  if (z->h.kind == TT_HAZ_CFG_GAP) {
    if (z->lo == z->hi) snprintf(buf + k, n - (size_t)k, " writing Config word %u", z->lo);
    else snprintf(buf + k, n - (size_t)k, " writing Config words %u..%u", z->lo, z->hi);
  } else if (z->h.kind == TT_HAZ_GPR_PENDING) {
    snprintf(buf + k, n - (size_t)k, " writing GPR %u", z->h.gpr);
  }
}
