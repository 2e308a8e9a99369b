/* ttrun_words.c — words for people, shared by every output of ttrun: an instruction's text, a
 * wait kind's key, the LLK names of semaphores, block bits and STALLWAIT conditions, a location's
 * value, the outcome, "instruction K, line L \"TEXT\"". */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ttrun.h"

/* ---- small utilities -------------------------------------------------------------------- */
void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz);
  if (!p) { fprintf(stderr, "ttrun: out of memory\n"); exit(3); }
  return p;
}
void *xrealloc(void *p, size_t sz) {
  void *q = realloc(p, sz ? sz : 1);
  if (!q) { fprintf(stderr, "ttrun: out of memory\n"); exit(3); }
  return q;
}

const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Text of one word for people: the objdump-style disassembly, or NAME (0xWORD) for a unit
 * outside the model. */
void insn_text(uint32_t w, char *buf, size_t n) {
  tt_insn in;
  char d[128];
  tt_decode(w, &in);
  tt_disasm(w, TT_DIS_OBJDUMP, d, sizeof d);
  if (in.form < TT_FORM_FOREIGN && d[0] != '0') snprintf(buf, n, "%s", d);
  else if (in.form < TT_FORM_FOREIGN) snprintf(buf, n, "%s 0x%08X (reserved bits set)", tt_insn_name(&in), w);
  else if (in.form == TT_FORM_FOREIGN) snprintf(buf, n, "%s 0x%08X", tt_insn_name(&in), w);
  else snprintf(buf, n, "0x%08X (undefined opcode)", w);
}

/* Short key of a wait kind: "thcon_own" from "thcon_own (stalled_thcon_inst)". */
void wait_key(unsigned k, char *buf, size_t n) {
  const char *s = tt_wait_kind_name(k);
  size_t i = 0;
  while (s[i] && s[i] != ' ' && i + 1 < n) { buf[i] = s[i]; i++; }
  buf[i] = 0;
}

/* Numeric value of a knob whose values are numbers (load_latency ...). */
unsigned knob_num(const tt_state *st, unsigned knob) {
  const char *v = tt_knob_values(knob);
  unsigned idx = st->p.knob[knob];
  for (unsigned i = 0; i < idx && v; i++) {
    v = strchr(v, '|');
    if (v) v++;
  }
  return v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

const char *const sem_llk[TT_SEM_COUNT] = {"FPU_SFPU", "MATH_PACK", "UNPACK_TO_DEST",
  "UNPACK_OPERAND_SYNC", "PACK_DONE", "UNPACK_SYNC", "UNPACK_MATH_DONE", "MATH_DONE"};
const char *const block_llk[9] = {"STALL_TDMA", "STALL_SYNC", "STALL_PACK",
  "STALL_UNPACK", "STALL_XMOV", "STALL_THCON", "STALL_MATH", "STALL_CFG", "STALL_SFPU"};
const char *const cond_llk[13] = {"THCON", "UNPACK0", "UNPACK1", "PACK", "MATH",
  "SRCA_CLR", "SRCB_CLR", "SRCA_VLD", "SRCB_VLD", "XMOV", "TRISC_CFG", "SFPU1", "CFGEXU"};
const char *const cond_text[13] = {
  "ThCon memory requests of this thread outstanding", "this thread has work in unpacker 0",
  "this thread has work in unpacker 1", "this thread has work in the packer",
  "this thread has work in the matrix unit (FPU)", "SrcA not owned by the unpackers",
  "SrcB not owned by the unpackers", "SrcA not owned by the matrix unit",
  "SrcB not owned by the matrix unit", "the mover has requests outstanding",
  "a RISC-V request of the paired core is pending", "this thread has work in the SFPU",
  "the Config pipeline is busy (any thread)"};

void mask_names(char *buf, size_t n, uint32_t mask, const char *const *names, unsigned count) {
  size_t len = 0;
  buf[0] = 0;
  for (unsigned i = 0; i < count; i++) {
    if (!(mask >> i & 1u)) continue;
    int k = snprintf(buf + len, n - len, "%s%s", len ? "|" : "", names[i]);
    if (k < 0 || (size_t)k >= n - len) break;
    len += (size_t)k;
  }
  if (!len) snprintf(buf, n, "none");
}

void sem_list(char *buf, size_t n, uint32_t mask) {
  size_t len = 0;
  buf[0] = 0;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    if (!(mask >> i & 1u)) continue;
    int k = snprintf(buf + len, n - len, "%ssem%u", len ? ", " : "", i);
    if (k < 0 || (size_t)k >= n - len) break;
    len += (size_t)k;
  }
  if (!len) snprintf(buf, n, "no semaphore");
}

/* ---- output helpers ------------------------------------------------------------------------- */
void loc_value(char *buf, size_t n, const tt_loc *loc, uint32_t v) {
  if (loc->kind == TT_LOC_MUTEX) {
    if (v == 0) snprintf(buf, n, "none");
    else snprintf(buf, n, "t%u", v - 1);
    return;
  }
  unsigned digits = (tt_loc_width(loc) + 3) / 4;
  snprintf(buf, n, "0x%0*X", (int)digits, v);
}


const char *outcome_word(tt_outcome o) {
  switch (o) {
  case TT_OUT_DONE: return "done";
  case TT_OUT_DEADLOCK: return "deadlock";
  case TT_OUT_BUDGET: return "budget";
  case TT_OUT_UNSUPPORTED_MODE: return "unsupported";
  }
  return "?";
}

uint32_t src_line(unsigned t, uint32_t k) { return k < g_src[t].n ? g_src[t].line[k] : 0; }

void at_text(char *buf, size_t n, unsigned t, uint32_t k) {
  char it[160];
  if (k >= g_st.c.thr[t].len) { snprintf(buf, n, "end of stream"); return; }
  insn_text(g_st.prog[t][k], it, sizeof it);
  if (g_src[t].via && g_src[t].via[k])
    snprintf(buf, n, "instruction %u, line %u (replayed by the REPLAY at line %u) \"%s\"", k, src_line(t, k),
             g_src[t].via[k], it);
  else snprintf(buf, n, "instruction %u, line %u \"%s\"", k, src_line(t, k), it);
}

/* Words of thread t: run (listed, replayed), pushed dynamically, not modelled. */
void word_counts(unsigned t, word_count *c) {
  const thread_src *s = &g_src[t];
  memset(c, 0, sizeof *c);
  c->run = s->n;
  for (uint32_t k = 0; k < s->n; k++) c->replayed += s->via && s->via[k] != 0;
  c->listed = c->run - c->replayed;
  c->pushed = s->npush;
  c->given = s->npush_given;
  c->not_modelled = s->nnm;
  for (uint32_t i = 0; i < s->nnm; i++) c->nm_mop += s->nm[i].why == NM_MOP;
}

