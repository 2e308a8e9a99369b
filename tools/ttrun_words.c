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
  c->pushed = s->npush - s->nnamed - s->nconst;
  c->named = s->nnamed;
  c->constant = s->nconst;
  c->given = s->npush_given;
  c->not_modelled = s->nnm;
  for (uint32_t i = 0; i < s->nnm; i++) c->nm_mop += s->nm[i].why == NM_MOP;
}


/* The unit a STALLWAIT condition waits on (mesham/tt-sim's "blocking unit"). */
static const char *const cond_unit[13] = {"thcon", "unpack0", "unpack1", "pack", "math", "srcA", "srcB",
  "srcA", "srcB", "xmov", "riscv", "sfpu", "config"};

/* The unit that blocks a stall (for resource_wait, the unit of its lowest condition that held). */
const char *stall_unit(const stall_why *w) {
  switch (w->cls) {
  case ST_RESOURCE:
    for (unsigned i = 0; i < 13; i++)
      if (w->conds >> i & 1u) return cond_unit[i];
    return "none";
  case ST_THCON_BUSY: case ST_THCON_OWN: case ST_ATOMIC: return "thcon";
  case ST_CFG_ENTRY: return "config";
  case ST_STREAM: return "overlay";
  case ST_ARBITRATION: return w->conds == 1 ? "thcon" : w->conds == 3 ? "sync" : "config";
  case ST_WB_FULL: return "writeback";
  case ST_OTHER: return "none";
  default: return "sync";
  }
}

/* The detail of a stall row after its class: the semaphore, conditions, holder or stages. */
static size_t stall_detail(char *buf, size_t n, const stall_row *r) {
  const stall_why *w = &r->w;
  char m[200];
  static const char *const stage[TT_CFGP_STAGE_COUNT] = {"-4", "-3", "-2", "-1", "0", "+1"};
  size_t len = 0;
  switch (w->cls) {
  case ST_SEM_EMPTY: case ST_SEM_FULL:
    if (w->sem < 0) return (size_t)snprintf(buf, n, " (unit sync)");
    return (size_t)snprintf(buf, n, " sem%d (%s): Value %u, Max %u%s (unit sync)", w->sem, sem_llk[w->sem], w->value,
                            w->max, w->cls == ST_SEM_EMPTY ? ", waits while Value==0" : ", waits while Value>=Max");
  case ST_RESOURCE:
    len = (size_t)snprintf(buf, n, ": STALLWAIT conditions that held:");
    for (unsigned i = 0; i < 13 && len < n; i++)
      if (w->conds >> i & 1u)
        len += (size_t)snprintf(buf + len, n - len, " C%u %s (unit %s, %s);", i, cond_llk[i], cond_unit[i], cond_text[i]);
    return len;
  case ST_MUTEX:
    if (w->holder >= 0) return (size_t)snprintf(buf, n, " mutex %u: held by t%d (unit sync)", w->mutex, w->holder);
    if (w->value) return (size_t)snprintf(buf, n, " mutex %u: free, reserved for t%u by the ATRELM fairness rule (unit sync)", w->mutex, w->value - 1u);
    return (size_t)snprintf(buf, n, " mutex %u: taken by another thread in the same cycle (unit sync)", w->mutex);
  case ST_LATCH_RELEASE:
    return (size_t)snprintf(buf, n, ": the wait ended in this cycle; the gate forgets a satisfied latch at the cycle's end "
                            "(knob wait_lag)");
  case ST_THCON_BUSY: return (size_t)snprintf(buf, n, ": ThCon held by t%d (unit thcon)", w->holder);
  case ST_THCON_OWN: return (size_t)snprintf(buf, n, ": its own earlier ThCon instruction has not finished (unit thcon)");
  case ST_CFG_ENTRY:
    m[0] = 0;
    for (unsigned s = 0; s < TT_CFGP_STAGE_COUNT; s++)
      if (w->conds >> (2 * s) & 3u)
        snprintf(m + strlen(m), sizeof m - strlen(m), "%s %s by %s", m[0] ? "," : "", stage[s],
                 w->conds >> (2 * s) & 1u ? "this thread" : "another");
    return (size_t)snprintf(buf, n, ": Config stages occupied:%s (unit config)", m[0] ? m : " none");
  case ST_SYNC_SLOT: case ST_ARBITRATION:
    if (w->holder < 0) return (size_t)snprintf(buf, n, ": lost this cycle");
    if (w->cls == ST_SYNC_SLOT) return (size_t)snprintf(buf, n, ": t%d took the Sync slot (unit sync)", w->holder);
    return (size_t)snprintf(buf, n, ": t%d won the round for %s", w->holder,
                            w->conds == 1 ? "ThCon (unit thcon)" : w->conds == 3 ? "a mutex (unit sync)" : "a Config stage (unit config)");
  default: buf[0] = 0; return 0;
  }
}

/* One stall row for people: class, detail, the latch's line, the held instruction's line. */
void stall_text(char *buf, size_t n, const stall_row *r) {
  size_t len = (size_t)snprintf(buf, n, "%s", stall_class_name[r->w.cls]);
  if (len < n) len += stall_detail(buf + len, n - len, r);
  if (len && len < n && buf[len - 1] == ';') buf[--len] = 0;
  if (len < n && r->w.latch >= 0) {
    char it[160];
    insn_text(g_st.prog[r->t][r->w.latch], it, sizeof it);
    len += (size_t)snprintf(buf + len, n - len, "; latch set by line %u \"%s\"", src_line(r->t, (uint32_t)r->w.latch), it);
  }
  if (len < n) snprintf(buf + len, n - len, "; holding line %u", src_line(r->t, r->w.at));
}
