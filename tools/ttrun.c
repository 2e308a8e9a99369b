/* ttrun — run up to three thread listings (or one .vec) on the model and say how it ended:
 * outcome, per thread what retired and, for a thread that is stuck, what holds it and who could
 * have released it; faults; every location that changed; in cycle mode also cycles, stall cycles
 * by reason and hazards. Optionally: the same as JSON (--json), a Chrome/Perfetto trace
 * (--trace), and the run as a conformance vector (--emit-vec). See usage() and README.md. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm.h"
#include "listing.h"
#include "tt.h"
#include "vec.h"

#define DEFAULT_BUDGET 1000000u
#define FILE_CAP (64u << 20)
#define MAX_INITS 512

static tt_state g_st, g_ref;          /* ~2.6 MiB each */
static tt_listing g_lst;
static tt_vec g_vec;

/* ---- small utilities -------------------------------------------------------------------- */
static void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz);
  if (!p) { fprintf(stderr, "ttrun: out of memory\n"); exit(3); }
  return p;
}
static void *xrealloc(void *p, size_t sz) {
  void *q = realloc(p, sz ? sz : 1);
  if (!q) { fprintf(stderr, "ttrun: out of memory\n"); exit(3); }
  return q;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "%s:1:1: cannot open: %s\n", path, strerror(errno)); return NULL; }
  size_t cap = 1 << 16, n = 0;
  char *buf = xcalloc(cap + 1, 1);
  for (;;) {
    if (n == cap) {
      if (cap >= FILE_CAP) {
        fprintf(stderr, "%s:1:1: file larger than %u bytes\n", path, FILE_CAP);
        fclose(f); free(buf); return NULL;
      }
      cap *= 2;
      buf = xrealloc(buf, cap + 1);
    }
    size_t k = fread(buf + n, 1, cap - n, f);
    n += k;
    if (k == 0) break;
  }
  if (ferror(f)) {
    fprintf(stderr, "%s:1:1: cannot read: %s\n", path, strerror(errno));
    fclose(f); free(buf); return NULL;
  }
  fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Text of one word for people: the objdump-style disassembly, or NAME (0xWORD) for a unit
 * outside the model. */
static void insn_text(uint32_t w, char *buf, size_t n) {
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
static void wait_key(unsigned k, char *buf, size_t n) {
  const char *s = tt_wait_kind_name(k);
  size_t i = 0;
  while (s[i] && s[i] != ' ' && i + 1 < n) { buf[i] = s[i]; i++; }
  buf[i] = 0;
}

/* Numeric value of a knob whose values are numbers (load_latency ...). */
static unsigned knob_num(const tt_state *st, unsigned knob) {
  const char *v = tt_knob_values(knob);
  unsigned idx = st->p.knob[knob];
  for (unsigned i = 0; i < idx && v; i++) {
    v = strchr(v, '|');
    if (v) v++;
  }
  return v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

static const char *const sem_llk[TT_SEM_COUNT] = {"FPU_SFPU", "MATH_PACK", "UNPACK_TO_DEST",
  "UNPACK_OPERAND_SYNC", "PACK_DONE", "UNPACK_SYNC", "UNPACK_MATH_DONE", "MATH_DONE"};
static const char *const block_llk[9] = {"STALL_TDMA", "STALL_SYNC", "STALL_PACK",
  "STALL_UNPACK", "STALL_XMOV", "STALL_THCON", "STALL_MATH", "STALL_CFG", "STALL_SFPU"};
static const char *const cond_llk[13] = {"THCON", "UNPACK0", "UNPACK1", "PACK", "MATH",
  "SRCA_CLR", "SRCB_CLR", "SRCA_VLD", "SRCB_VLD", "XMOV", "TRISC_CFG", "SFPU1", "CFGEXU"};
static const char *const cond_text[13] = {
  "ThCon memory requests of this thread outstanding", "this thread has work in unpacker 0",
  "this thread has work in unpacker 1", "this thread has work in the packer",
  "this thread has work in the matrix unit (FPU)", "SrcA not owned by the unpackers",
  "SrcB not owned by the unpackers", "SrcA not owned by the matrix unit",
  "SrcB not owned by the matrix unit", "the mover has requests outstanding",
  "a RISC-V request of the paired core is pending", "this thread has work in the SFPU",
  "the Config pipeline is busy (any thread)"};

static void mask_names(char *buf, size_t n, uint32_t mask, const char *const *names, unsigned count) {
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

static void sem_list(char *buf, size_t n, uint32_t mask) {
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

/* ---- the run's sources ---------------------------------------------------------------------- */
typedef struct thread_src {
  const char *path;      /* listing or .vec file, NULL when the thread has no program */
  uint32_t n;
  uint32_t *word, *line; /* n each */
  uint32_t skipped_riscv, skipped_other, opcode_only;
} thread_src;

static thread_src g_src[TT_THREAD_COUNT];
static const char *g_vec_path;
static tt_mode g_mode = TT_MODE_FUNC;
static int g_mode_given;
static uint64_t g_budget = DEFAULT_BUDGET;
static int g_budget_given;
static unsigned g_nknobs;
static char *g_knob_name[64], *g_knob_value[64];
typedef struct init_t { tt_loc loc; uint32_t value; char text[64]; } init_t;
static init_t g_inits[MAX_INITS];
static unsigned g_ninits;

/* ---- observation during the run --------------------------------------------------------------- */
typedef struct fault_rec { uint32_t index; } fault_rec;
typedef struct slice {
  uint32_t start, end;   /* cycles [start, end) */
  int16_t thread;        /* owner thread (-1 none) */
  uint8_t kind;          /* 0 instruction, 1 stall, 2 unit */
  uint8_t track;         /* unit track id for kind 2 */
  uint32_t index;        /* instruction index (kind 0, 2) or wait kind (kind 1) */
  uint32_t lane;
} slice;
enum { SL_INSN, SL_STALL, SL_UNIT };
enum { TR_THCON, TR_CFG0 /* + stage 0..5 */, TR_SYNC = TR_CFG0 + TT_CFGP_STAGE_COUNT, TR_COUNT };

typedef struct counter_ev { uint32_t ts; uint8_t id; uint32_t value; } counter_ev;

static fault_rec *g_faults[TT_THREAD_COUNT];
static uint32_t g_nfaults[TT_THREAD_COUNT], g_capfaults[TT_THREAD_COUNT];
static int g_tracing;
static slice *g_sl;
static size_t g_nsl, g_capsl;
static counter_ev *g_ctr;
static size_t g_nctr, g_capctr;
static uint32_t *g_done_at[TT_THREAD_COUNT];   /* completion cycle per instruction */
static long g_open_stall[TT_THREAD_COUNT];     /* slice index of the running stall, -1 */
static long g_open_unit[TR_COUNT];
static uint32_t g_sem_seen;
static uint8_t g_sem0[TT_SEM_COUNT];         /* semaphore values when the run starts */

static slice *new_slice(void) {
  if (g_nsl == g_capsl) {
    g_capsl = g_capsl ? 2 * g_capsl : 4096;
    g_sl = xrealloc(g_sl, g_capsl * sizeof *g_sl);
  }
  slice *s = &g_sl[g_nsl++];
  memset(s, 0, sizeof *s);
  return s;
}
static void counter(uint32_t ts, unsigned id, uint32_t v) {
  if (g_nctr == g_capctr) {
    g_capctr = g_capctr ? 2 * g_capctr : 1024;
    g_ctr = xrealloc(g_ctr, g_capctr * sizeof *g_ctr);
  }
  g_ctr[g_nctr].ts = ts;
  g_ctr[g_nctr].id = (uint8_t)id;
  g_ctr[g_nctr].value = v;
  g_nctr++;
}

static void note_fault(unsigned t, uint32_t index) {
  if (g_nfaults[t] == g_capfaults[t]) {
    g_capfaults[t] = g_capfaults[t] ? 2 * g_capfaults[t] : 16;
    g_faults[t] = xrealloc(g_faults[t], g_capfaults[t] * sizeof *g_faults[t]);
  }
  g_faults[t][g_nfaults[t]++].index = index;
}

static int is_sync_slot_form(unsigned f) {
  return f == TT_FORM_SEMINIT || f == TT_FORM_SEMPOST || f == TT_FORM_SEMGET ||
         f == TT_FORM_STALLWAIT || f == TT_FORM_SEMWAIT || f == TT_FORM_STREAMWAIT;
}

/* Cycles a foreign instruction keeps its unit stub busy (0: no stub), as cycle.c counts them. */
static unsigned stub_len(const tt_state *st, const tt_insn *in) {
  if (in->form != TT_FORM_FOREIGN) return 0;
  if (in->foreign == TT_FG_ID_SFPNOP || in->foreign == TT_FG_ID_UNPACR_NOP) return 0;
  if (tt_isa_foreign[in->foreign].kind == TT_FG_FRONTEND) return 0;
  if (!(in->block_bits & 0x15Cu) && in->foreign != TT_FG_ID_UNPACR) return 0;
  return knob_num(st, TT_KNOB_STUB_CYCLES);
}

static void unit_occupy(unsigned track, int thread, uint32_t index, uint32_t cyc) {
  long o = g_open_unit[track];
  if (o >= 0 && g_sl[o].thread == thread && g_sl[o].index == index && g_sl[o].end == cyc) {
    g_sl[o].end = cyc + 1;
  } else {
    slice *s = new_slice();
    s->kind = SL_UNIT;
    s->track = (uint8_t)track;
    s->thread = (int16_t)thread;
    s->index = index;
    s->start = cyc;
    s->end = cyc + 1;
    g_open_unit[track] = (long)(s - g_sl);
  }
  if (thread >= 0 && index < g_src[thread].n && g_done_at[thread][index] < cyc + 1)
    g_done_at[thread][index] = cyc + 1;
}

/* After one cycle-mode step: record issues, stalls, unit occupancy and semaphore changes. */
static void trace_cycle(const uint32_t *pc_before, const uint32_t *ret_before, const uint8_t *sem_before) {
  tt_unit_view v;
  tt_unit_view_get(&g_st, &v);
  uint32_t c = v.cycle;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &g_st.c.thr[t];
    uint64_t ic;
    uint32_t k = pc_before[t];
    int issued = th->retired > ret_before[t] && tt_issue_cycle(&g_st, t, k, &ic) == 0 && ic == c;
    /* a spinning atomic issues at its first attempt without retiring */
    if (!issued && k < th->len && th->pc == k && tt_issue_cycle(&g_st, t, k, &ic) == 0 && ic == c &&
        ret_before[t] == th->retired)
      issued = 1;
    if (issued) {
      tt_insn in;
      tt_decode(g_st.prog[t][k], &in);
      slice *s = new_slice();
      s->kind = SL_INSN;
      s->thread = (int16_t)t;
      s->index = k;
      s->start = c;
      s->end = c + 1;
      uint32_t done = c + 1;
      if (in.form == TT_FORM_LOADIND) done = c + knob_num(&g_st, TT_KNOB_LOAD_LATENCY);
      if (in.form == TT_FORM_LOADREG) done = c + knob_num(&g_st, TT_KNOB_LOADREG_LATENCY);
      if (in.form == TT_FORM_ATINCGET) done = c + knob_num(&g_st, TT_KNOB_ATINCGET_LATENCY);
      if (stub_len(&g_st, &in)) done = c + stub_len(&g_st, &in);
      if (g_done_at[t][k] < done) g_done_at[t][k] = done;
      if (is_sync_slot_form(in.form)) unit_occupy(TR_SYNC, (int)t, k, c);
      g_open_stall[t] = -1;
    } else if (th->pc < th->len && th->wait_kind != TT_WAIT_NONE) {
      long o = g_open_stall[t];
      if (o >= 0 && g_sl[o].index == th->wait_kind && g_sl[o].end == c && g_sl[o].start <= c) {
        g_sl[o].end = c + 1;
      } else {
        slice *s = new_slice();
        s->kind = SL_STALL;
        s->thread = (int16_t)t;
        s->index = th->wait_kind;
        s->start = c;
        s->end = c + 1;
        g_open_stall[t] = (long)(s - g_sl);
      }
    }
  }
  if (v.thcon_thread >= 0) unit_occupy(TR_THCON, v.thcon_thread, g_st.c.cyc.thcon_pc, c);
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++)
    if (v.cfg_stage_thread[k] >= 0) unit_occupy(TR_CFG0 + k, v.cfg_stage_thread[k], g_st.c.cyc.cfgp[k].pc, c);
  for (unsigned i = 0; i < TT_SEM_COUNT; i++)
    if (g_st.c.sem_value[i] != sem_before[i]) {
      g_sem_seen |= 1u << i;
      counter(c + 1, i, g_st.c.sem_value[i]);
    }
}

/* Run exactly as tt_run() does, one tt_step() at a time, observing each step. */
static tt_outcome run(void) {
  tt_outcome out;
  uint64_t i = 0;
  int cycle = g_st.p.mode == TT_MODE_CYCLE;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) g_open_stall[t] = -1;
  for (unsigned k = 0; k < TR_COUNT; k++) g_open_unit[k] = -1;
  for (;; i++) {
    int done_all = 1;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) done_all &= tt_thread_done(&g_st, t);
    if (!cycle && done_all) { out = TT_OUT_DONE; break; }
    if (i >= g_budget) { out = TT_OUT_BUDGET; break; }
    uint32_t pc[TT_THREAD_COUNT], ret[TT_THREAD_COUNT], nf[TT_THREAD_COUNT];
    uint8_t sem[TT_SEM_COUNT];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      pc[t] = g_st.c.thr[t].pc;
      ret[t] = g_st.c.thr[t].retired;
      nf[t] = g_st.c.thr[t].fault_count;
    }
    memcpy(sem, g_st.c.sem_value, sizeof sem);
    uint32_t now = g_st.c.cyc.now;
    int r = tt_step(&g_st);
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      for (uint32_t k = nf[t]; k < g_st.c.thr[t].fault_count && k < 65535; k++) note_fault(t, pc[t]);
    if (g_tracing && g_st.c.cyc.now != now) trace_cycle(pc, ret, sem);
    if (!r) {
      out = cycle ? (g_st.c.cyc.finished ? TT_OUT_DONE : TT_OUT_DEADLOCK) : TT_OUT_DEADLOCK;
      break;
    }
  }
  g_st.c.last_outcome = (uint8_t)out;
  return out;
}

/* ---- analysis: why a thread is stuck and who could release it ------------------------------- */
typedef struct releaser { unsigned thread; uint32_t index; } releaser;
typedef struct thr_report {
  const char *state;          /* "done", "blocked", "not done", "no program" */
  int latch_index;            /* instruction that latched the wait holding the head, or -1 */
  char reason[600];           /* the wait in words */
  char holds[260];            /* which instructions the latch holds */
  char need[300];             /* what would release it */
  releaser rel[TT_THREAD_COUNT];
  unsigned nrel;
  char nobody[300];           /* when nobody can: why not */
  unsigned waits_on;          /* threads that could release it (bit mask) */
} thr_report;
static thr_report g_rep[TT_THREAD_COUNT];

typedef int (*insn_pred)(const tt_insn *in, uint32_t arg);
static int p_sem_up(const tt_insn *in, uint32_t m) {   /* makes some sem in m non-zero */
  return (in->form == TT_FORM_SEMPOST && (in->a.SEMPOST.sem_mask & m)) ||
         (in->form == TT_FORM_SEMINIT && (in->a.SEMINIT.sem_mask & m) && in->a.SEMINIT.new_value);
}
static int p_sem_down(const tt_insn *in, uint32_t m) { /* lowers Value below Max */
  return (in->form == TT_FORM_SEMGET && (in->a.SEMGET.sem_mask & m)) ||
         (in->form == TT_FORM_SEMINIT && (in->a.SEMINIT.sem_mask & m) &&
          in->a.SEMINIT.new_value < in->a.SEMINIT.new_max);
}
static int p_seminit_below_max(const tt_insn *in, uint32_t m) {  /* Max 0: only a SEMINIT */
  return in->form == TT_FORM_SEMINIT && (in->a.SEMINIT.sem_mask & m) &&
         in->a.SEMINIT.new_value < in->a.SEMINIT.new_max;
}
static int p_sem_any(const tt_insn *in, uint32_t m) {
  return p_sem_up(in, m) || p_sem_down(in, m);
}
static int p_atrelm(const tt_insn *in, uint32_t idx) {
  return in->form == TT_FORM_ATRELM && tt_mutex_index(&g_st, in) == idx;
}
static int p_mmio_store(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_STOREREG || in->form == TT_FORM_STOREIND_MMIO;
}
static int p_l1_write(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_STOREIND_L1 || in->form == TT_FORM_ATSWAP ||
         in->form == TT_FORM_ATINCGET || in->form == TT_FORM_ATINCGETPTR || in->form == TT_FORM_ATCAS;
}
static int p_unpacr(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_FOREIGN && in->foreign == TT_FG_ID_UNPACR;
}
static int p_matrix(const tt_insn *in, uint32_t unused) {
  (void)unused;
  return in->form == TT_FORM_FOREIGN && (in->block_bits & 0x040u) &&
         tt_isa_foreign[in->foreign].kind == TT_FG_GATE;
}

/* First instruction of thread u from its head on that satisfies pred, or -1. */
static long find_in(unsigned u, insn_pred pred, uint32_t arg) {
  const tt_thread *th = &g_st.c.thr[u];
  for (uint32_t k = th->pc; k < th->len; k++) {
    tt_insn in;
    tt_decode(g_st.prog[u][k], &in);
    if (pred(&in, arg)) return (long)k;
  }
  return -1;
}

static void find_releasers(unsigned t, insn_pred pred, uint32_t arg, thr_report *r) {
  char tmp[300];
  size_t len = 0;
  tmp[0] = 0;
  for (unsigned u = 0; u < TT_THREAD_COUNT; u++) {
    if (u == t) continue;
    long k = find_in(u, pred, arg);
    if (k >= 0) {
      r->rel[r->nrel].thread = u;
      r->rel[r->nrel].index = (uint32_t)k;
      r->nrel++;
      r->waits_on |= 1u << u;
      continue;
    }
    if (!g_src[u].path) continue;
    int n = snprintf(tmp + len, sizeof tmp - len, "%st%u %s", len ? ", " : "", u,
                     tt_thread_done(&g_st, u) ? "finished" : "has none left");
    if (n > 0 && (size_t)n < sizeof tmp - len) len += (size_t)n;
  }
  snprintf(r->nobody, sizeof r->nobody, "%s", tmp);
}

/* The model's own words for thread t's wait (tt_describe_wait), without its
 * "at instruction K (WORD): " head, which the report prints on its own line. */
static void reason_from_model(unsigned t, thr_report *r) {
  char a[200];
  tt_describe_wait(&g_st, t, a, sizeof a);
  const char *p = strstr(a, "): ");
  snprintf(r->reason, sizeof r->reason, "%s", p ? p + 3 : a);
}

static void analyse(unsigned t) {
  thr_report *r = &g_rep[t];
  const tt_thread *th = &g_st.c.thr[t];
  memset(r, 0, sizeof *r);
  r->latch_index = -1;
  if (!g_src[t].path) { r->state = "no program"; return; }
  if (tt_thread_done(&g_st, t)) { r->state = "done"; return; }
  r->state = tt_thread_blocked(&g_st, t) ? "blocked" : "not done";
  char a[200], b[200];
  switch ((tt_wait_kind)th->wait_kind) {
  case TT_WAIT_LATCH: {
    const tt_latch *l = &th->latch;
    for (long k = (long)th->pc - 1; k >= 0; k--) {
      tt_insn in;
      tt_decode(g_st.prog[t][k], &in);
      if (in.form == TT_FORM_STALLWAIT || in.form == TT_FORM_SEMWAIT || in.form == TT_FORM_STREAMWAIT) {
        r->latch_index = (int)k;
        break;
      }
    }
    mask_names(b, sizeof b, l->block_mask, block_llk, 9);
    if (l->op == TT_LATCH_SEMWAIT) {
      size_t len = 0;
      len += (size_t)snprintf(r->reason + len, sizeof r->reason - len, "SEMWAIT");
      for (unsigned i = 0; i < TT_SEM_COUNT && len < sizeof r->reason; i++) {
        if (!(l->sem_mask >> i & 1u)) continue;
        len += (size_t)snprintf(r->reason + len, sizeof r->reason - len,
                                " sem%u (%s) %s%s%s (value %u, max %u);", i, sem_llk[i],
                                l->cond_mask & 1 ? "Value==0" : "",
                                (l->cond_mask & 3) == 3 ? " or " : "",
                                l->cond_mask & 2 ? "Value>=Max" : "", g_st.c.sem_value[i],
                                g_st.c.sem_max[i]);
      }
      if (len && r->reason[len - 1] == ';') r->reason[len - 1] = 0;
      for (unsigned i = 0; i < TT_SEM_COUNT; i++)
        if ((l->sem_mask >> i & 1u) && (l->cond_mask & 2u) && g_st.c.sem_max[i] == 0) {
          len = strlen(r->reason);
          snprintf(r->reason + len, sizeof r->reason - len,
                   " — sem%u has Max 0, so Value>=Max always holds until a SEMINIT sets Max (on hardware"
                   " firmware may do that: try --init sem[%u].max=N)", i, i);
          break;
        }
      snprintf(r->holds, sizeof r->holds, "block mask 0x%03X (%s)", l->block_mask, b);
      sem_list(a, sizeof a, l->sem_mask);
      unsigned c = l->cond_mask & 3u;
      int max_set = 0;  /* some selected semaphore has Max > 0: a SEMGET can bring Value below it */
      for (unsigned i = 0; i < TT_SEM_COUNT; i++)
        if ((l->sem_mask >> i & 1u) && g_st.c.sem_max[i]) max_set = 1;
      snprintf(r->need, sizeof r->need, "%s of %s by another thread",
               c == 1 ? "a SEMPOST (or SEMINIT to a non-zero value)"
               : c == 2 ? (max_set ? "a SEMGET (or SEMINIT below Max)" : "a SEMINIT that sets Max above Value (a SEMGET cannot: Max is 0)")
               : "a SEMPOST, SEMGET or SEMINIT", a);
      find_releasers(t, c == 1 ? p_sem_up : c == 2 ? (max_set ? p_sem_down : p_seminit_below_max) : p_sem_any,
                     l->sem_mask, r);
    } else if (l->op == TT_LATCH_STALLWAIT) {
      char conds[160];
      mask_names(conds, sizeof conds, l->cond_mask, cond_llk, 13);
      size_t len = (size_t)snprintf(r->reason, sizeof r->reason,
                                    "STALLWAIT conditions %s (0x%04X): keep waiting while any of:",
                                    conds, l->cond_mask);
      for (unsigned i = 0; i < 13 && len < sizeof r->reason; i++)
        if (l->cond_mask >> i & 1u)
          len += (size_t)snprintf(r->reason + len, sizeof r->reason - len, " C%u %s;", i, cond_text[i]);
      if (len && len < sizeof r->reason && r->reason[len - 1] == ';') r->reason[len - 1] = 0;
      snprintf(r->holds, sizeof r->holds, "block mask 0x%03X (%s)", l->block_mask, b);
      if (l->cond_mask & 0x180u) {
        snprintf(r->need, sizeof r->need, "an UNPACR (hands SrcA/SrcB to the matrix unit)");
        find_releasers(t, p_unpacr, 0, r);
      } else if (l->cond_mask & 0x060u) {
        snprintf(r->need, sizeof r->need, "a matrix-unit instruction (hands SrcA/SrcB back to the unpackers)");
        find_releasers(t, p_matrix, 0, r);
      } else {
        snprintf(r->need, sizeof r->need, "the units named by the conditions to finish");
      }
    } else if (l->op == TT_LATCH_STREAMWAIT) {
      unsigned stream = g_st.c.tcfg[t][TT_TCFG_STREAM_ID_SYNC + (l->stream_select & 3)] & 0x3F;
      unsigned reg = l->condition_index ? TT_STREAM_MSGS_REG : TT_STREAM_PHASE_REG;
      uint32_t addr = TT_STREAM_BASE + stream * 0x1000u + reg * 4u;
      snprintf(r->reason, sizeof r->reason,
               "STREAMWAIT stream %u %s (mmio[0x%08X] = %u) < target %u",
               stream, l->condition_index ? "messages received" : "phase", addr,
               tt_mmio_read(&g_st, addr), l->target);
      snprintf(r->holds, sizeof r->holds, "block mask 0x%03X (%s)", l->block_mask, b);
      snprintf(r->need, sizeof r->need,
               "a write of mmio[0x%08X] (STOREREG / STOREIND MMIO; the NoC overlay is otherwise static in the model)", addr);
      find_releasers(t, p_mmio_store, 0, r);
    }
    break;
  }
  case TT_WAIT_MUTEX: {
    tt_insn in;
    tt_decode(g_st.prog[t][th->pc], &in);
    uint32_t i = tt_mutex_index(&g_st, &in) % TT_MUTEX_SLOTS;
    unsigned holder = g_st.c.mutex[i];
    if (holder)
      snprintf(r->reason, sizeof r->reason, "ATGETM mutex %u%s: held by t%u", i,
               i == 0 ? " (REG_RMW)" : i == 4 ? " (SFPU)" : "", holder - 1);
    else
      snprintf(r->reason, sizeof r->reason,
               "ATGETM mutex %u: free, but reserved for t%u by the ATRELM fairness rule", i,
               g_st.c.mutex_handoff[i] - 1);
    snprintf(r->need, sizeof r->need, "an ATRELM %u by t%u", i, holder ? holder - 1 : 0);
    if (holder && holder - 1 != t) {
      long k = find_in(holder - 1, p_atrelm, i);
      if (k >= 0) {
        r->rel[0].thread = holder - 1;
        r->rel[0].index = (uint32_t)k;
        r->nrel = 1;
        r->waits_on = 1u << (holder - 1);
      } else {
        snprintf(r->nobody, sizeof r->nobody, "t%u %s without releasing it", holder - 1,
                 tt_thread_done(&g_st, holder - 1) ? "finished" : "has no ATRELM left");
      }
    }
    break;
  }
  case TT_WAIT_MUTEX_INVALID: {
    tt_insn in;
    tt_decode(g_st.prog[t][th->pc], &in);
    snprintf(r->reason, sizeof r->reason,
             "%s on mutex index %u, which does not exist on Blackhole (valid: 0, 2, 3, 4): it waits forever",
             tt_insn_name(&in), (unsigned)tt_mutex_index(&g_st, &in));
    snprintf(r->need, sizeof r->need, "nothing (an invalid index never completes)");
    snprintf(r->nobody, sizeof r->nobody, "no instruction can");
    break;
  }
  case TT_WAIT_ATCAS:
  case TT_WAIT_ATINCGETPTR:
  case TT_WAIT_THCON_BUSY: {
    reason_from_model(t, r);
    snprintf(r->need, sizeof r->need, "a write of the L1 word the atomic reads (by another thread)");
    find_releasers(t, p_l1_write, 0, r);
    break;
  }
  case TT_WAIT_NONE:
  case TT_WAIT_BUDGET:
  case TT_WAIT_THCON_OWN:
  case TT_WAIT_CFG_ENTRY:
  case TT_WAIT_SYNC_SLOT:
  case TT_WAIT_ARBITRATION:
  case TT_WAIT_WB_FULL:
  case TT_WAIT_KIND_COUNT:
    reason_from_model(t, r);
    break;
  }
}

/* ---- output helpers ------------------------------------------------------------------------- */
static void loc_value(char *buf, size_t n, const tt_loc *loc, uint32_t v) {
  if (loc->kind == TT_LOC_MUTEX) {
    if (v == 0) snprintf(buf, n, "none");
    else snprintf(buf, n, "t%u", v - 1);
    return;
  }
  unsigned digits = (tt_loc_width(loc) + 3) / 4;
  snprintf(buf, n, "0x%0*X", (int)digits, v);
}

typedef struct change { tt_loc loc; uint32_t from, to; int inited; } change;
static change *g_ch;
static size_t g_nch, g_capch;
static void diff_cb(void *ctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  (void)ctx;
  if (g_nch == g_capch) {
    g_capch = g_capch ? 2 * g_capch : 256;
    g_ch = xrealloc(g_ch, g_capch * sizeof *g_ch);
  }
  g_ch[g_nch].loc = *loc;
  g_ch[g_nch].from = a;
  g_ch[g_nch].to = b;
  g_ch[g_nch].inited = 0;
  g_nch++;
}
static int same_loc(const tt_loc *a, const tt_loc *b) {
  return a->kind == b->kind && a->sel == b->sel && a->index == b->index;
}
/* Changed from reset, plus every init location (kept even if it ends at 0). */
static void collect_changes(void) {
  tt_state_diff(&g_ref, &g_st, diff_cb, NULL);
  for (unsigned i = 0; i < g_ninits; i++) {
    int found = 0;
    for (size_t k = 0; k < g_nch; k++)
      if (same_loc(&g_ch[k].loc, &g_inits[i].loc)) { g_ch[k].inited = 1; found = 1; }
    if (!found && g_inits[i].loc.kind != TT_LOC_L1_U8 && g_inits[i].loc.kind != TT_LOC_L1_U16) {
      diff_cb(NULL, &g_inits[i].loc, tt_loc_get(&g_ref, &g_inits[i].loc), tt_loc_get(&g_st, &g_inits[i].loc));
      g_ch[g_nch - 1].inited = 1;
    }
  }
}

static const char *outcome_word(tt_outcome o) {
  switch (o) {
  case TT_OUT_DONE: return "done";
  case TT_OUT_DEADLOCK: return "deadlock";
  case TT_OUT_BUDGET: return "budget";
  case TT_OUT_UNSUPPORTED_MODE: return "unsupported";
  }
  return "?";
}

static uint32_t src_line(unsigned t, uint32_t k) { return k < g_src[t].n ? g_src[t].line[k] : 0; }

static void at_text(char *buf, size_t n, unsigned t, uint32_t k) {
  char it[160];
  if (k >= g_st.c.thr[t].len) { snprintf(buf, n, "end of stream"); return; }
  insn_text(g_st.prog[t][k], it, sizeof it);
  snprintf(buf, n, "instruction %u, line %u \"%s\"", k, src_line(t, k), it);
}

/* ---- text report ------------------------------------------------------------------------------ */
static void print_text(tt_outcome out) {
  int cyc = g_st.p.mode == TT_MODE_CYCLE;
  char buf[512], b2[512];
  printf("ttrun: %s mode", cyc ? "cycle" : "functional");
  for (unsigned i = 0; i < g_nknobs; i++) printf(", %s=%s", g_knob_name[i], g_knob_value[i]);
  printf(", budget %llu %s\n", (unsigned long long)g_budget, cyc ? "cycles" : "rounds");
  switch (out) {
  case TT_OUT_DONE: printf("outcome: DONE — every thread retired its whole stream"); break;
  case TT_OUT_DEADLOCK:
    printf("outcome: DEADLOCK — no thread that is not done can ever progress again (exact: the state is a fixed point)");
    break;
  case TT_OUT_BUDGET: printf("outcome: BUDGET — stopped after the budget; threads still running"); break;
  case TT_OUT_UNSUPPORTED_MODE: printf("outcome: mode not available in this build"); break;
  }
  if (cyc) printf(" (cycle %llu)\n", (unsigned long long)tt_cycle_count(&g_st));
  else printf(" (%llu rounds)\n", (unsigned long long)g_st.c.steps);
  putchar('\n');
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const thr_report *r = &g_rep[t];
    const tt_thread *th = &g_st.c.thr[t];
    if (!g_src[t].path) continue;
    printf("t%u  %s: %u of %u retired, %s\n", t, g_src[t].path, th->retired, th->len, r->state);
    if (g_src[t].skipped_riscv || g_src[t].skipped_other)
      printf("    (listing: %u RISC-V lines and %u objdump lines skipped)\n", g_src[t].skipped_riscv,
             g_src[t].skipped_other);
    if (g_src[t].opcode_only)
      printf("    (listing: %u instructions of units outside the model written without hex: opcode only)\n",
             g_src[t].opcode_only);
    if (!strcmp(r->state, "done") || !strcmp(r->state, "no program")) continue;
    {
      uint32_t k = r->latch_index >= 0 ? (uint32_t)r->latch_index : th->pc;
      char it[160];
      insn_text(g_st.prog[t][k], it, sizeof it);
      printf("    t%u %s at line %u \"%s\": %s\n", t, !strcmp(r->state, "blocked") ? "blocked" : "stopped",
             src_line(t, k), it, r->reason);
    }
    at_text(buf, sizeof buf, t, th->pc);
    if (r->latch_index >= 0)
      printf("    held: %s, caught by the latch of instruction %d (%s)\n", buf, r->latch_index, r->holds);
    else
      printf("    held: %s\n", buf);
    printf("    stall signal: %s\n", tt_wait_kind_name(th->wait_kind));
    if (r->need[0]) printf("    released by: %s\n", r->need);
    for (unsigned i = 0; i < r->nrel; i++) {
      unsigned u = r->rel[i].thread;
      at_text(buf, sizeof buf, u, r->rel[i].index);
      if (tt_thread_done(&g_st, u)) snprintf(b2, sizeof b2, "done");
      else {
        char h[300];
        at_text(h, sizeof h, u, g_st.c.thr[u].pc);
        snprintf(b2, sizeof b2, "%s at %s", tt_thread_blocked(&g_st, u) ? "blocked itself" : "still at", h);
      }
      printf("      t%u has one at %s — but t%u is %s\n", u, buf, u, b2);
      if (g_rep[u].waits_on >> t & 1u) printf("      (circular wait: t%u and t%u each wait for the other)\n", t, u);
    }
    if (r->nrel == 0 && r->nobody[0]) printf("      nothing left can: %s\n", r->nobody);

  }
  printf("\nfaults:");
  int any = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &g_st.c.thr[t];
    if (th->fault_class == TT_FAULT_NONE) continue;
    any = 1;
    at_text(buf, sizeof buf, t, th->fault_pc);
    printf("\n  t%u  %u fault(s); first: %s (%s) at %s", t, th->fault_count,
           tt_fault_class_name(th->fault_class), tt_fault_code_text(th->fault_code), buf);
    if (g_nfaults[t] > 1) {
      printf("\n      all at instructions:");
      for (uint32_t i = 0; i < g_nfaults[t] && i < 32; i++)
        printf(" %u (line %u)", g_faults[t][i].index, src_line(t, g_faults[t][i].index));
      if (g_nfaults[t] > 32) printf(" ... (%u more)", g_nfaults[t] - 32);
    }
  }
  printf("%s\n", any ? "" : " none");
  printf("\nchanged from reset (%zu location%s):\n", g_nch, g_nch == 1 ? "" : "s");
  for (size_t i = 0; i < g_nch; i++) {
    char ln[48], va[24], vb[24];
    tt_loc_format(&g_ch[i].loc, ln, sizeof ln);
    loc_value(va, sizeof va, &g_ch[i].loc, g_ch[i].from);
    loc_value(vb, sizeof vb, &g_ch[i].loc, g_ch[i].to);
    printf("  %-18s %s -> %s%s\n", ln, va, vb, g_ch[i].inited ? "  (init)" : "");
  }
  if (!cyc) return;
  printf("\ncycles: %llu%s\n", (unsigned long long)tt_cycle_count(&g_st),
         out == TT_OUT_DONE ? " (every thread done, every unit idle)"
         : out == TT_OUT_DEADLOCK ? " (the cycle the fixed point was found)" : " (budget)");
  printf("stall cycles at the gate, by reason:\n");
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    printf("  t%u:", t);
    int n = 0;
    for (unsigned k = 1; k < TT_WAIT_KIND_COUNT; k++) {
      uint64_t s = tt_stall_cycles(&g_st, t, k);
      if (s) printf("%s %s %llu", n++ ? "," : "", tt_wait_kind_name(k), (unsigned long long)s);
    }
    printf("%s\n", n ? "" : " none");
  }
  unsigned nh = tt_hazard_count(&g_st);
  printf("hazards: %u\n", nh);
  for (unsigned i = 0; i < nh; i++) {
    tt_hazard h;
    if (tt_hazard_get(&g_st, i, &h) != 0) {
      printf("  ... %u more not kept (the model keeps %u)\n", nh - i, TT_HAZARD_KEEP);
      break;
    }
    at_text(buf, sizeof buf, h.thread, h.index);
    printf("  %-17s t%u %s, cycle %u", tt_hazard_kind_name(h.kind), h.thread, buf, h.cycle);
    if (h.kind == TT_HAZ_GPR_PENDING) printf(": GPR %u has a write-back in flight", h.gpr);
    else if (h.kind == TT_HAZ_CFG_GAP) printf(": may read Config one cycle after a Config write of its thread");
    else printf(": entered while its thread's STREAMWRCFG is still in prepare");
    putchar('\n');
  }
}

/* ---- JSON ------------------------------------------------------------------------------------ */
static void js(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}
static void js_at(FILE *f, unsigned t, uint32_t k) {
  char it[160];
  insn_text(k < g_st.c.thr[t].len ? g_st.prog[t][k] : 0, it, sizeof it);
  fprintf(f, "{\"thread\": %u, \"index\": %u, \"line\": %u, \"word\": \"0x%08X\", \"text\": ", t, k,
          src_line(t, k), k < g_st.c.thr[t].len ? g_st.prog[t][k] : 0);
  js(f, k < g_st.c.thr[t].len ? it : "end of stream");
  fputc('}', f);
}

static void print_json(FILE *f, tt_outcome out) {
  int cyc = g_st.p.mode == TT_MODE_CYCLE;
  char key[40];
  fprintf(f, "{\n  \"tool\": \"ttrun\",\n  \"mode\": \"%s\",\n  \"budget\": %llu,\n  \"knobs\": {",
          cyc ? "cycle" : "func", (unsigned long long)g_budget);
  for (unsigned i = 0; i < g_nknobs; i++) {
    fprintf(f, "%s", i ? ", " : "");
    js(f, g_knob_name[i]);
    fprintf(f, ": ");
    js(f, g_knob_value[i]);
  }
  fprintf(f, "},\n  \"outcome\": \"%s\",\n  \"steps\": %llu,\n", outcome_word(out),
          (unsigned long long)g_st.c.steps);
  if (cyc) fprintf(f, "  \"cycles\": %llu,\n", (unsigned long long)tt_cycle_count(&g_st));
  fprintf(f, "  \"threads\": [");
  int first = 1;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const thr_report *r = &g_rep[t];
    const tt_thread *th = &g_st.c.thr[t];
    if (!g_src[t].path) continue;
    fprintf(f, "%s\n    {\"thread\": %u, \"file\": ", first ? "" : ",", t);
    first = 0;
    js(f, g_src[t].path);
    fprintf(f, ", \"instructions\": %u, \"retired\": %u, \"state\": \"%s\"", th->len, th->retired, r->state);
    fprintf(f, ", \"skipped_riscv_lines\": %u, \"opcode_only\": %u", g_src[t].skipped_riscv, g_src[t].opcode_only);
    if (strcmp(r->state, "done") != 0) {
      wait_key(th->wait_kind, key, sizeof key);
      fprintf(f, ",\n     \"at\": ");
      js_at(f, t, th->pc);
      fprintf(f, ",\n     \"wait\": {\"kind\": \"%s\", \"signal\": ", key);
      js(f, tt_wait_kind_name(th->wait_kind));
      fprintf(f, ", \"latched_by\": ");
      if (r->latch_index >= 0) js_at(f, t, (uint32_t)r->latch_index);
      else fprintf(f, "null");
      fprintf(f, ", \"reason\": ");
      js(f, r->reason);
      fprintf(f, ", \"released_by\": ");
      js(f, r->need);
      fprintf(f, ", \"could_release\": [");
      for (unsigned i = 0; i < r->nrel; i++) {
        fprintf(f, "%s", i ? ", " : "");
        js_at(f, r->rel[i].thread, r->rel[i].index);
      }
      fprintf(f, "], \"nothing_left\": ");
      js(f, r->nrel ? "" : r->nobody);
      fprintf(f, "}");
    }
    fprintf(f, ",\n     \"fault\": {\"class\": \"%s\", \"count\": %u", tt_fault_class_name(th->fault_class),
            th->fault_count);
    if (th->fault_class != TT_FAULT_NONE) {
      fprintf(f, ", \"reason\": ");
      js(f, tt_fault_code_text(th->fault_code));
      fprintf(f, ", \"first\": ");
      js_at(f, t, th->fault_pc);
      fprintf(f, ", \"indices\": [");
      for (uint32_t i = 0; i < g_nfaults[t]; i++) fprintf(f, "%s%u", i ? ", " : "", g_faults[t][i].index);
      fprintf(f, "]");
    }
    fprintf(f, "}");
    if (cyc) {
      fprintf(f, ",\n     \"stall_cycles\": {");
      int n = 0;
      for (unsigned k = 1; k < TT_WAIT_KIND_COUNT; k++) {
        uint64_t s = tt_stall_cycles(&g_st, t, k);
        if (!s) continue;
        wait_key(k, key, sizeof key);
        fprintf(f, "%s\"%s\": %llu", n++ ? ", " : "", key, (unsigned long long)s);
      }
      fprintf(f, "}");
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ],\n  \"changed\": [");
  for (size_t i = 0; i < g_nch; i++) {
    char ln[48], va[24], vb[24];
    tt_loc_format(&g_ch[i].loc, ln, sizeof ln);
    loc_value(va, sizeof va, &g_ch[i].loc, g_ch[i].from);
    loc_value(vb, sizeof vb, &g_ch[i].loc, g_ch[i].to);
    fprintf(f, "%s\n    {\"loc\": \"%s\", \"from\": \"%s\", \"to\": \"%s\", \"init\": %s}", i ? "," : "",
            ln, va, vb, g_ch[i].inited ? "true" : "false");
  }
  fprintf(f, "\n  ]");
  if (cyc) {
    unsigned nh = tt_hazard_count(&g_st);
    fprintf(f, ",\n  \"hazard_count\": %u,\n  \"hazards\": [", nh);
    for (unsigned i = 0; i < nh; i++) {
      tt_hazard h;
      if (tt_hazard_get(&g_st, i, &h) != 0) break;
      fprintf(f, "%s\n    {\"kind\": \"%s\", \"cycle\": %u, \"gpr\": %u, \"at\": ", i ? "," : "",
              tt_hazard_kind_name(h.kind), h.cycle, h.gpr);
      js_at(f, h.thread, h.index);
      fprintf(f, "}");
    }
    fprintf(f, "\n  ]");
  }
  fprintf(f, "\n}\n");
}

/* ---- --emit-vec --------------------------------------------------------------------------------- */
static int emit_vec(const char *path, tt_outcome out, int argc, char **argv) {
  int cyc = g_st.p.mode == TT_MODE_CYCLE;
  unsigned nexp = 0, dropped = 0;
  char buf[256], ln[48], va[24];
  /* The end state first, into memory: whether `strict` can be written depends on whether every
   * changed location fits in the vector's expect lines. */
  char *body = NULL;
  size_t bodylen = 0;
  FILE *f = open_memstream(&body, &bodylen);
  if (!f) { fprintf(stderr, "ttrun: cannot write %s: %s\n", path, strerror(errno)); return 1; }
  fprintf(f, "\n# end state\n");
  if (out == TT_OUT_DEADLOCK) { fprintf(f, "expect deadlock\n"); nexp++; }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    if (tt_thread_done(&g_st, t)) { fprintf(f, "expect t%u done\n", t); nexp++; }
    else if (tt_thread_blocked(&g_st, t)) {
      at_text(buf, sizeof buf, t, g_st.c.thr[t].pc);
      fprintf(f, "expect t%u blocked                       # at %s\n", t, buf);
      nexp++;
    } else {
      fprintf(f, "# t%u neither done nor blocked: stopped by the budget at instruction %u\n", t, g_st.c.thr[t].pc);
    }
    /* how far the thread got: a changed, inserted or deleted instruction before that point
     * moves it, even when the thread still ends done or blocked */
    fprintf(f, "expect t%u.issued = %u\n", t, g_st.c.thr[t].pc);
    nexp++;
    fprintf(f, "expect t%u fault %s\n", t, tt_fault_class_name(g_st.c.thr[t].fault_class));
    nexp++;
  }
  if (cyc) {
    if (out == TT_OUT_DONE) { fprintf(f, "expect cycles = %llu\n", (unsigned long long)tt_cycle_count(&g_st)); nexp++; }
    else fprintf(f, "# the run did not finish: no 'expect cycles' (it stopped in cycle %llu)\n",
                 (unsigned long long)tt_cycle_count(&g_st));
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      uint64_t c;
      uint32_t last = g_st.c.thr[t].retired;
      if (!g_src[t].path || last == 0 || tt_issue_cycle(&g_st, t, last - 1, &c) != 0) continue;
      fprintf(f, "expect t%u.issue[%u] = %llu                # last instruction issued\n", t, last - 1,
              (unsigned long long)c);
      nexp++;
    }
    unsigned nh = tt_hazard_count(&g_st);
    fprintf(f, "expect hazards = %u\n", nh);
    nexp++;
    for (unsigned i = 0; i < nh && nexp < TT_VEC_MAX_EXPECTS; i++) {
      tt_hazard h;
      int dup = 0;
      if (tt_hazard_get(&g_st, i, &h) != 0) break;
      for (unsigned j = 0; j < i; j++) {
        tt_hazard g;
        if (tt_hazard_get(&g_st, j, &g) == 0 && g.kind == h.kind && g.thread == h.thread && g.index == h.index) dup = 1;
      }
      if (dup) continue;
      fprintf(f, "expect t%u.hazard[%u] = %s\n", h.thread, h.index, tt_hazard_kind_name(h.kind));
      nexp++;
    }
  }
  for (size_t i = 0; i < g_nch; i++) {
    if (nexp >= TT_VEC_MAX_EXPECTS) { dropped++; continue; }
    tt_loc_format(&g_ch[i].loc, ln, sizeof ln);
    loc_value(va, sizeof va, &g_ch[i].loc, g_ch[i].to);
    fprintf(f, "expect %s = %s\n", ln, va);
    nexp++;
  }
  if (dropped) {
    fprintf(f, "# %u more changed locations not listed: a vector holds at most %u expect lines\n", dropped,
            TT_VEC_MAX_EXPECTS);
    fprintf(stderr, "ttrun: %s: %u changed locations left out (limit %u expect lines), so no 'strict'\n", path,
            dropped, TT_VEC_MAX_EXPECTS);
  }
  if (fclose(f) != 0 || !body) { free(body); fprintf(stderr, "ttrun: cannot write %s\n", path); return 1; }

  f = fopen(path, "w");
  if (!f) { fprintf(stderr, "ttrun: cannot write %s: %s\n", path, strerror(errno)); free(body); return 1; }
  fprintf(f, "# generated by ttrun:");
  for (int i = 1; i < argc; i++) fprintf(f, " %s", argv[i]);
  fprintf(f, "\n# outcome when generated: %s after %llu %s\n", outcome_word(out),
          (unsigned long long)(cyc ? tt_cycle_count(&g_st) : g_st.c.steps), cyc ? "cycles" : "rounds");
  {
    char name[200];
    size_t len = (size_t)snprintf(name, sizeof name, "ttrun (%s)", cyc ? "cycle" : "func");
    for (unsigned t = 0; t < TT_THREAD_COUNT && len < sizeof name; t++)
      if (g_src[t].path)
        len += (size_t)snprintf(name + len, sizeof name - len, " t%u=%s", t, g_src[t].path);
    fprintf(f, "name: %s\n", name);
  }
  fprintf(f, "mode: %s\nbudget: %llu\n", cyc ? "cycle" : "func", (unsigned long long)g_budget);
  if (!dropped) fprintf(f, "strict                                   # every location no expect names keeps its start value\n");
  for (unsigned i = 0; i < g_nknobs; i++) fprintf(f, "knob: %s=%s\n", g_knob_name[i], g_knob_value[i]);
  for (unsigned i = 0; i < g_ninits; i++) {
    tt_loc_format(&g_inits[i].loc, ln, sizeof ln);
    loc_value(va, sizeof va, &g_inits[i].loc, g_inits[i].value);
    fprintf(f, "init %s = %s\n", ln, va);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    fprintf(f, "\n# t%u: %s (%u instructions)\n", t, g_src[t].path, g_st.c.thr[t].len);
    for (uint32_t k = 0; k < g_st.c.thr[t].len; k++) {
      uint32_t w = g_st.prog[t][k];
      tt_insn in;
      tt_decode(w, &in);
      tt_disasm(w, TT_DIS_OBJDUMP, buf, sizeof buf);
      char lhs[300];
      snprintf(lhs, sizeof lhs, "t%u: %s", t, buf);
      if (buf[0] == '0')
        fprintf(f, "%-40s # %s  %s:%u [%u]\n", lhs, tt_insn_name(&in), base_name(g_src[t].path), src_line(t, k), k);
      else
        fprintf(f, "%-40s # 0x%08X  %s:%u [%u]\n", lhs, w, base_name(g_src[t].path), src_line(t, k), k);
    }
  }
  fwrite(body, 1, bodylen, f);
  free(body);
  if (fclose(f) != 0) { fprintf(stderr, "ttrun: cannot write %s\n", path); return 1; }
  return 0;
}

/* ---- --trace: Chrome / Perfetto trace-event JSON ------------------------------------------------ */
/* Thread-track slices (instructions and stalls) first, by thread; then unit slices by track;
 * within a track by start, longer first (so a slice's children follow it). */
static int cmp_slice(const void *a, const void *b) {
  const slice *x = a, *y = b;
  int gx = x->kind == SL_UNIT, gy = y->kind == SL_UNIT;
  if (gx != gy) return gx - gy;
  int kx = gx ? x->track : x->thread, ky = gy ? y->track : y->thread;
  if (kx != ky) return kx - ky;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1;
  return (int)x->kind - (int)y->kind;
}

#define PID_THREADS 1
#define PID_UNITS 2
#define MAX_LANES 16

static int write_trace(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) { fprintf(stderr, "ttrun: cannot write %s: %s\n", path, strerror(errno)); return 1; }
  /* instruction slices end at completion */
  for (size_t i = 0; i < g_nsl; i++)
    if (g_sl[i].kind == SL_INSN && g_done_at[g_sl[i].thread][g_sl[i].index] > g_sl[i].end)
      g_sl[i].end = g_done_at[g_sl[i].thread][g_sl[i].index];
  /* instructions and stalls of one thread share its track; a slice that would overlap another
   * without nesting in it goes to the next lane ("overlap" tracks), so every lane nests */
  qsort(g_sl, g_nsl, sizeof *g_sl, cmp_slice);
  static uint32_t stack[TT_THREAD_COUNT][MAX_LANES][64];
  unsigned depth[TT_THREAD_COUNT][MAX_LANES];
  unsigned lanes_used[TT_THREAD_COUNT] = {0, 0, 0};
  memset(depth, 0, sizeof depth);
  for (size_t i = 0; i < g_nsl; i++) {
    slice *s = &g_sl[i];
    if (s->kind == SL_UNIT) continue;
    unsigned t = (unsigned)s->thread, lane = 0;
    for (; lane < MAX_LANES - 1; lane++) {
      unsigned *d = &depth[t][lane];
      while (*d && stack[t][lane][*d - 1] <= s->start) (*d)--;
      if (*d == 0 || (stack[t][lane][*d - 1] >= s->end && *d < 64)) break;
    }
    unsigned *d = &depth[t][lane];
    while (*d && stack[t][lane][*d - 1] <= s->start) (*d)--;
    if (*d < 64) stack[t][lane][(*d)++] = s->end;
    if (lane + 1 > lanes_used[t]) lanes_used[t] = lane + 1;
    s->lane = lane;
  }
  fprintf(f, "{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"tool\": \"ttrun\", \"time_axis\": "
             "\"1 microsecond on the time axis = 1 Tensix cycle\"},\n \"traceEvents\": [\n");
  fprintf(f, "  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"Tensix threads\"}},\n", PID_THREADS);
  fprintf(f, "  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"sort_index\": 1}},\n", PID_THREADS);
  fprintf(f, "  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"Units and semaphores\"}},\n", PID_UNITS);
  fprintf(f, "  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"sort_index\": 2}}", PID_UNITS);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    for (unsigned l = 0; l < (lanes_used[t] ? lanes_used[t] : 1); l++) {
      char nm[300];
      if (l == 0) snprintf(nm, sizeof nm, "T%u %s", t, base_name(g_src[t].path));
      else snprintf(nm, sizeof nm, "T%u (overlap %u)", t, l);
      fprintf(f, ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"name\": ", PID_THREADS, t * MAX_LANES + l);
      js(f, nm);
      fprintf(f, "}},\n  {\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"sort_index\": %u}}",
              PID_THREADS, t * MAX_LANES + l, t * MAX_LANES + l);
    }
  }
  static const char *const stage_names[TT_CFGP_STAGE_COUNT] = {"-4", "-3", "-2", "-1", "0", "+1"};
  for (unsigned k = 0; k < TR_COUNT; k++) {
    char nm[64];
    if (k == TR_THCON) snprintf(nm, sizeof nm, "ThCon (Scalar Unit)");
    else if (k == TR_SYNC) snprintf(nm, sizeof nm, "Sync slot");
    else snprintf(nm, sizeof nm, "Config stage %s", stage_names[k - TR_CFG0]);
    fprintf(f, ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"name\": \"%s\"}}", PID_UNITS, 100 + k, nm);
    fprintf(f, ",\n  {\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"sort_index\": %u}}", PID_UNITS, 100 + k, k);
  }
  for (size_t i = 0; i < g_nsl; i++) {
    const slice *s = &g_sl[i];
    char it[160], nm[200], key[40];
    if (s->kind == SL_STALL) {
      wait_key(s->index, key, sizeof key);
      snprintf(nm, sizeof nm, "stall: %s", key);
      fprintf(f, ",\n  {\"name\": ");
      js(f, nm);
      fprintf(f, ", \"cat\": \"stall\", \"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": %d, \"tid\": %u, \"args\": {\"reason\": ",
              s->start, s->end - s->start, PID_THREADS, (unsigned)s->thread * MAX_LANES + s->lane);
      js(f, tt_wait_kind_name(s->index));
      fprintf(f, ", \"cycles\": %u}}", s->end - s->start);
      continue;
    }
    unsigned t = (unsigned)s->thread;
    insn_text(g_st.prog[t][s->index], it, sizeof it);
    tt_insn in;
    tt_decode(g_st.prog[t][s->index], &in);
    if (s->kind == SL_INSN) {
      fprintf(f, ",\n  {\"name\": ");
      js(f, tt_insn_name(&in));
      fprintf(f, ", \"cat\": \"insn\", \"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": %d, \"tid\": %u, \"args\": {\"index\": %u, \"line\": %u, \"text\": ",
              s->start, s->end - s->start, PID_THREADS, t * MAX_LANES + s->lane, s->index, src_line(t, s->index));
      js(f, it);
      fprintf(f, ", \"issue\": %u, \"complete\": %u}}", s->start, s->end);
    } else {
      snprintf(nm, sizeof nm, "T%u %s", t, tt_insn_name(&in));
      fprintf(f, ",\n  {\"name\": ");
      js(f, nm);
      fprintf(f, ", \"cat\": \"unit\", \"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": %d, \"tid\": %u, \"args\": {\"thread\": %u, \"index\": %u, \"line\": %u, \"text\": ",
              s->start, s->end - s->start, PID_UNITS, 100u + s->track, t, s->index, src_line(t, s->index));
      js(f, it);
      fprintf(f, "}}");
    }
  }
  /* semaphore counters: the reset/initial value at 0, then every change */
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    if (!(g_sem_seen >> i & 1u) && !g_sem0[i]) continue;
    fprintf(f, ",\n  {\"name\": \"sem%u %s\", \"ph\": \"C\", \"ts\": 0, \"pid\": %d, \"tid\": 0, \"args\": {\"value\": %u}}",
            i, sem_llk[i], PID_UNITS, g_sem0[i]);
  }
  for (size_t i = 0; i < g_nctr; i++)
    fprintf(f, ",\n  {\"name\": \"sem%u %s\", \"ph\": \"C\", \"ts\": %u, \"pid\": %d, \"tid\": 0, \"args\": {\"value\": %u}}",
            g_ctr[i].id, sem_llk[g_ctr[i].id], g_ctr[i].ts, PID_UNITS, g_ctr[i].value);
  fprintf(f, "\n ]\n}\n");
  if (fclose(f) != 0) { fprintf(stderr, "ttrun: cannot write %s\n", path); return 1; }
  return 0;
}

/* ---- command line and set-up ---------------------------------------------------------------- */
static void usage(FILE *f) {
  fputs("usage: ttrun [--mode func|cycle] [--knob NAME=VALUE]... [--budget N] [--init LOC=VALUE]...\n"
        "             [--t0 FILE] [--t1 FILE] [--t2 FILE] | FILE.vec\n"
        "             [--json] [--trace TRACE.json] [--emit-vec OUT.vec] [--fail-on COND,...]\n"
        "\n"
        "Runs one listing per Tensix thread (or the streams, inits and knobs of a .vec) on the\n"
        "model and prints how the run ended: outcome (done / deadlock / budget); per thread the\n"
        "instructions retired and, for a thread that is stuck, the instruction it is held at,\n"
        "the wait that holds it in words and which instructions of the other threads could have\n"
        "released it; the faults; every location that differs from reset. In cycle mode also the\n"
        "cycle count, stall cycles per thread and reason, and the hazards.\n"
        "\n"
        "A thread FILE may be a stream file (first column: 8 hex digits = the Tensix word, '#'\n"
        "comments), SFPI objdump text (with or without the address and hex columns; RISC-V lines\n"
        "are skipped) or assembler syntax (ttsemwait 322, 2, 2 | SEMWAIT ... | 0xA6A1000A).\n"
        "\n"
        "  --mode M        func (default) or cycle; a .vec's own mode: line is used when given\n"
        "  --knob N=V      a timing or ambiguity knob (model/knobs.def); repeatable\n"
        "  --budget N      stop after N rounds (func) or cycles (cycle), 1..2^64-1, decimal or\n"
        "                  0x hex; default 1000000\n"
        "  --init L=V      set a location before the run (t0.gpr[3]=5, sem[1].value=2,\n"
        "                  mutex[2]=t1, cfg[0][20]=0x10, l1.u32[0x100]=7, ...); repeatable\n"
        "  --json          print the same report as one JSON document\n"
        "  --trace F       cycle mode: write a Chrome/Perfetto trace-event file (open it in\n"
        "                  ui.perfetto.dev or chrome://tracing; 1 us on its axis = 1 cycle)\n"
        "  --emit-vec F    write the run as a conformance vector (streams, inits, knobs, strict,\n"
        "                  and the whole end state as expect lines, with tN.issued = K for every\n"
        "                  thread) for `make conformance VEC=F`\n"
        "  --fail-on C,... make the exit status say how the run ended, for CI: conditions\n"
        "                  deadlock (the outcome is DEADLOCK), blocked (a thread ends blocked),\n"
        "                  hazard (cycle mode: a hazard was reported), fault (a thread recorded a\n"
        "                  fault), budget (the budget stopped the run), all; repeatable\n"
        "\n"
        "A FILE without an option must be a .vec (named *.vec); a listing needs --t0/--t1/--t2.\n"
        "The mnemonic column of a stream file (\"a6010202  sync  SEMWAIT ...\") must name the\n"
        "instruction the word encodes: a mismatch is an error (FILE:LINE:COL, status 1).\n"
        "A listing with no Tensix instruction (empty, or RISC-V only) is an error (status 1).\n"
        "\n"
        "Exit status: 0 when the run was made (whatever its outcome, unless --fail-on), 1 for\n"
        "bad input (FILE:LINE:COL: message) or an output file that cannot be written, 2 for a\n"
        "bad command line, 3 out of memory; with --fail-on, 32 + the sum of the conditions that\n"
        "held: deadlock 1, blocked 2, hazard 4, fault 8, budget 16 (33..63; e.g. 35 = deadlock\n"
        "and blocked), each named on stderr.\n",
        f);
}

static int bad_cli(const char *msg, const char *arg) {
  fprintf(stderr, "ttrun: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  return 2;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
}

/* --budget N: 1..UINT64_MAX, decimal or 0x hex; no sign, no spaces, no overflow (strtoull alone
 * takes "-5" as 2^64-5 and " 5" as 5). */
static int parse_budget(const char *v, uint64_t *out) {
  int base = 10;
  char *end;
  if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) { base = 16; v += 2; }
  if (!(base == 16 ? isxdigit((unsigned char)v[0]) : isdigit((unsigned char)v[0]))) return -1;
  errno = 0;
  unsigned long long b = strtoull(v, &end, base);
  if (*end || errno || b == 0) return -1;
  *out = (uint64_t)b;
  return 0;
}

/* --fail-on: the conditions that turn a run that was made into a failing exit status. */
enum { FAIL_DEADLOCK = 1, FAIL_BLOCKED = 2, FAIL_HAZARD = 4, FAIL_FAULT = 8, FAIL_BUDGET = 16 };
#define FAIL_BASE 32
static const struct { const char *name; unsigned bit; } fail_names[] = {
  {"deadlock", FAIL_DEADLOCK}, {"blocked", FAIL_BLOCKED}, {"hazard", FAIL_HAZARD},
  {"fault", FAIL_FAULT}, {"budget", FAIL_BUDGET}};

static int parse_fail_on(const char *v, unsigned *mask) {
  const char *p = v;
  for (;;) {
    size_t n = strcspn(p, ",");
    unsigned k = 0, nk = (unsigned)(sizeof fail_names / sizeof fail_names[0]);
    if (n == 3 && !strncmp(p, "all", 3)) *mask |= FAIL_DEADLOCK | FAIL_BLOCKED | FAIL_HAZARD | FAIL_FAULT | FAIL_BUDGET;
    else {
      while (k < nk && (strlen(fail_names[k].name) != n || strncmp(p, fail_names[k].name, n))) k++;
      if (k == nk) {
        fprintf(stderr, "ttrun: --fail-on: unknown condition '%.*s' (conditions: deadlock, blocked, hazard, "
                "fault, budget, all; comma-separated)\n", (int)n, p);
        return -1;
      }
      *mask |= fail_names[k].bit;
    }
    if (!p[n]) return 0;
    p += n + 1;
  }
}

static int add_init(const char *text, const char *where) {
  const char *eq = strchr(text, '=');
  tt_loc loc;
  const char *err = NULL;
  if (g_ninits >= MAX_INITS) return bad_cli("too many --init (limit 512)", NULL);
  if (!eq) return bad_cli("--init needs LOC=VALUE, not", text);
  size_t n = (size_t)(eq - text);
  while (n && text[n - 1] == ' ') n--;
  if (tt_loc_parse(text, n, &loc, &err) != 0) {
    fprintf(stderr, "ttrun: %s: bad location '%.*s': %s\n", where, (int)n, text, err ? err : "?");
    return 2;
  }
  const char *v = eq + 1;
  while (*v == ' ') v++;
  uint32_t val;
  if (loc.kind == TT_LOC_MUTEX) {
    if (!strcmp(v, "none")) val = 0;
    else if (v[0] == 't' && v[1] >= '0' && v[1] <= '2' && !v[2]) val = (uint32_t)(v[1] - '0' + 1);
    else return bad_cli("mutex value must be none, t0, t1 or t2, not", v);
  } else {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    unsigned w = tt_loc_width(&loc);
    if (!*v || *end || errno || (w < 32 && x >> w) || x > 0xFFFFFFFFull)
      return bad_cli("--init value is not a number that fits the location:", text);
    val = (uint32_t)x;
  }
  g_inits[g_ninits].loc = loc;
  g_inits[g_ninits].value = val;
  snprintf(g_inits[g_ninits].text, sizeof g_inits[g_ninits].text, "%s", text);
  g_ninits++;
  return 0;
}

static int stream_kind_word(const char *p, size_t n) {
  static const char *const kinds[] = {"config", "sync", "scalar", "other"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strlen(kinds[i]) == n && !strncmp(p, kinds[i], n)) return 1;
  return 0;
}

/* The mnemonic column of a stream file ("a6010202  sync  SEMWAIT  ..." or "a6010202  SEMWAIT")
 * must name the instruction the word encodes: a mismatch is an error, FILE:LINE:COL, because
 * the word is what runs and the name is what a person reads. With the kind column (config,
 * sync, scalar, other) the name is the next column and must be a known instruction name; without
 * it, the second column is checked only when it is a known instruction name (a stream file's
 * other columns are free text). Only lines read as a stream-file word (8 hex digits without 0x,
 * origin TT_LST_HEX) are checked. */
static int check_mnemonics(const char *path, const char *text, size_t len) {
  const char *p = text, *end = text + len;
  uint32_t k = 0;
  unsigned line = 0;
  if (len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF) p += 3;
  while (p < end && k < g_lst.n) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *ls = p;
    p = nl ? nl + 1 : end;
    line++;
    if (g_lst.line[k] != line) continue;
    uint32_t idx = k++;
    if (g_lst.origin[idx] != TT_LST_HEX) continue;
    const char *hash = memchr(ls, '#', (size_t)(le - ls));
    const char *e = hash ? hash : le, *tok[3];
    size_t tl[3];
    unsigned nt = 0;
    for (const char *q = ls; q < e && nt < 3;) {
      while (q < e && isspace((unsigned char)*q)) q++;
      if (q >= e) break;
      tok[nt] = q;
      while (q < e && !isspace((unsigned char)*q)) q++;
      tl[nt] = (size_t)(q - tok[nt]);
      nt++;
    }
    if (nt < 2 || tl[0] != 8) continue;   /* a 0xWORD line, or no second column */
    const char *m = tok[1];
    size_t ml = tl[1];
    int kind_col = stream_kind_word(tok[1], tl[1]);
    if (kind_col) {
      if (nt < 3) continue;
      m = tok[2];
      ml = tl[2];
    }
    int known = tt_mnem_by_name(m, ml) >= 0 || tt_foreign_by_name(m, ml) >= 0 ||
                (ml == 9 && !strncasecmp(m, "UNDEFINED", 9));
    if (!known && !kind_col) continue;
    tt_insn in;
    tt_decode(g_lst.word[idx], &in);
    const char *name = tt_insn_name(&in);
    if (known && strlen(name) == ml && !strncasecmp(m, name, ml)) continue;
    fprintf(stderr, "%s:%u:%u: the mnemonic column says %s%.*s%s, but the word 0x%08X is %s%s "
            "(the word is what runs: fix the word or the name)\n", path, line, (unsigned)(m - ls) + 1,
            known ? "" : "'", (int)ml, m, known ? "" : "' (no instruction of that name)", g_lst.word[idx], name,
            in.form == TT_FORM_UNDEFINED ? " (an undefined opcode)" : "");
    return -1;
  }
  return 0;
}

static int load_listing(unsigned t, const char *path) {
  size_t len = 0;
  char *text = read_all(path, &len);
  tt_listing_error e;
  if (!text) return 1;
  if (tt_listing_parse(text, len, &g_lst, &e) != 0) {
    fprintf(stderr, "%s:%u:%u: %s\n", path, e.line, e.col ? e.col : 1, e.msg);
    free(text);
    return 1;
  }
  if (check_mnemonics(path, text, len) != 0) { free(text); return 1; }
  free(text);
  if (g_lst.n == 0) {
    fprintf(stderr, "%s:1:1: no Tensix instruction in %s: of its %u line(s), %u are RISC-V code, %u objdump "
            "headers or labels, the rest blank or comments\n", path, path, g_lst.lines, g_lst.skipped_riscv,
            g_lst.skipped_other);
    return 1;
  }
  thread_src *s = &g_src[t];
  s->path = path;
  s->n = g_lst.n;
  s->word = xcalloc(g_lst.n, sizeof *s->word);
  s->line = xcalloc(g_lst.n, sizeof *s->line);
  memcpy(s->word, g_lst.word, g_lst.n * sizeof *s->word);
  memcpy(s->line, g_lst.line, g_lst.n * sizeof *s->line);
  s->skipped_riscv = g_lst.skipped_riscv;
  s->skipped_other = g_lst.skipped_other;
  s->opcode_only = g_lst.opcode_only;
  return 0;
}

static int load_vec(const char *path) {
  size_t len = 0;
  char *text = read_all(path, &len);
  tt_vec_error e;
  if (!text) return 1;
  if (tt_vec_parse(text, len, &g_vec, &e) != 0) {
    fprintf(stderr, "%s:%u:%u: %s\n", path, e.line ? e.line : 1, e.col ? e.col : 1, e.msg);
    free(text);
    return 1;
  }
  free(text);
  g_vec_path = path;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_vec.prog_len[t]) continue;
    thread_src *s = &g_src[t];
    s->path = path;
    s->n = g_vec.prog_len[t];
    s->word = xcalloc(s->n, sizeof *s->word);
    s->line = xcalloc(s->n, sizeof *s->line);
    memcpy(s->word, g_vec.prog[t], s->n * sizeof *s->word);
    memcpy(s->line, g_vec.prog_line[t], s->n * sizeof *s->line);
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *tfile[TT_THREAD_COUNT] = {NULL, NULL, NULL}, *vecfile = NULL;
  const char *trace = NULL, *emit = NULL, *cli_inits[MAX_INITS];
  unsigned ncli_inits = 0, fail_on = 0;
  int json = 0;
  const char *given[16] = {NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    const char *opts[] = {"--mode", "--knob", "--budget", "--t0", "--t1", "--t2", "--init", "--trace", "--emit-vec",
                          "--fail-on"};
    int matched = -1;
    for (int k = 0; k < (int)(sizeof opts / sizeof opts[0]); k++) {
      size_t n = strlen(opts[k]);
      if (!strncmp(a, opts[k], n) && (a[n] == 0 || a[n] == '=')) {
        matched = k;
        if (a[n] == '=') val = a + n + 1;
        else if (i + 1 < argc) val = argv[++i];
        else return bad_cli("missing value after", a);
        break;
      }
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    if (!strcmp(a, "--json")) { json = 1; continue; }
    /* an option that takes one value may be given once: a second one is refused, never
     * silently preferred (--knob, --init, --fail-on are the repeatable ones) */
    if (matched >= 0 && matched != 1 && matched != 6 && matched != 9) {
      if (given[matched]) {
        fprintf(stderr, "ttrun: %s given twice ('%s', then '%s'): give it once\n", opts[matched],
                given[matched], val);
        return 2;
      }
      given[matched] = val;
    }
    switch (matched) {
    case 0:
      if (!strcmp(val, "func")) g_mode = TT_MODE_FUNC;
      else if (!strcmp(val, "cycle")) g_mode = TT_MODE_CYCLE;
      else return bad_cli("--mode must be func or cycle, not", val);
      g_mode_given = 1;
      break;
    case 1: {
      const char *eq = strchr(val, '=');
      if (!eq || eq == val) return bad_cli("--knob needs NAME=VALUE, not", val);
      if (g_nknobs >= 64) return bad_cli("too many --knob", NULL);
      g_knob_name[g_nknobs] = xcalloc((size_t)(eq - val) + 1, 1);
      memcpy(g_knob_name[g_nknobs], val, (size_t)(eq - val));
      g_knob_value[g_nknobs] = xcalloc(strlen(eq + 1) + 1, 1);
      strcpy(g_knob_value[g_nknobs], eq + 1);
      g_nknobs++;
      break;
    }
    case 2:
      if (parse_budget(val, &g_budget) != 0) {
        fprintf(stderr, "ttrun: --budget needs a whole number from 1 to %llu (decimal or 0x hex), not '%s'\n",
                (unsigned long long)UINT64_MAX, val);
        return 2;
      }
      g_budget_given = 1;
      break;
    case 3: case 4: case 5: tfile[matched - 3] = val; break;
    case 6:
      if (ncli_inits >= MAX_INITS) return bad_cli("too many --init", NULL);
      cli_inits[ncli_inits++] = val;
      break;
    case 7: trace = val; break;
    case 8: emit = val; break;
    case 9:
      if (parse_fail_on(val, &fail_on) != 0) return 2;
      break;
    default:
      if (a[0] == '-' && a[1]) {
        fprintf(stderr, "ttrun: unknown option %s\n", a);
        usage(stderr);
        return 2;
      }
      if (vecfile) return bad_cli("one .vec file at most; extra argument", a);
      if (!ends_with(a, ".vec")) {
        fprintf(stderr, "ttrun: %s: a file without an option is read as a conformance vector and must be named "
                "*.vec; give a thread listing with --t0, --t1 or --t2 (e.g. --t0 %s)\n", a, a);
        return 2;
      }
      vecfile = a;
    }
  }
  if (vecfile && (tfile[0] || tfile[1] || tfile[2]))
    return bad_cli("give either a .vec file or --t0/--t1/--t2 listings, not both", NULL);
  if (!vecfile && !tfile[0] && !tfile[1] && !tfile[2]) { usage(stderr); return 2; }

  tt_init(&g_st);
  tt_init(&g_ref);
  if (vecfile) {
    if (load_vec(vecfile) != 0) return 1;
    if (g_vec.modes == TT_VEC_MODE_CYCLE || g_vec.modes == TT_VEC_MODE_FUNC) {
      tt_mode vm = g_vec.modes == TT_VEC_MODE_CYCLE ? TT_MODE_CYCLE : TT_MODE_FUNC;
      if (g_mode_given && vm != g_mode)
        return bad_cli("--mode differs from the vector's mode: line in", vecfile);
      g_mode = vm;
    }
    if (!g_budget_given && g_vec.has_budget) g_budget = g_vec.budget;
    /* the vector's knobs first; --knob overrides a knob of the same name */
    unsigned nk = g_nknobs;
    for (unsigned i = 0; i < g_vec.nknobs; i++) {
      int over = 0;
      for (unsigned k = 0; k < nk; k++) over |= !strcmp(g_knob_name[k], g_vec.knobs[i].name);
      if (over || g_nknobs >= 64) continue;
      g_knob_name[g_nknobs] = g_vec.knobs[i].name;
      g_knob_value[g_nknobs] = g_vec.knobs[i].value;
      g_nknobs++;
    }
    for (unsigned i = 0; i < g_vec.ninits && g_ninits < MAX_INITS; i++) {
      g_inits[g_ninits].loc = g_vec.inits[i].loc;
      g_inits[g_ninits].value = g_vec.inits[i].value;
      g_ninits++;
    }
  } else {
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      if (tfile[t] && load_listing(t, tfile[t]) != 0) return 1;
  }
  for (unsigned i = 0; i < ncli_inits; i++)
    if (add_init(cli_inits[i], "--init") != 0) return 2;
  if (trace && g_mode != TT_MODE_CYCLE) return bad_cli("--trace needs --mode cycle", NULL);
  if (tt_set_mode(&g_st, g_mode) != 0) return bad_cli("this build has no cycle mode", NULL);
  for (unsigned i = 0; i < g_nknobs; i++) {
    int r = tt_knob_set(&g_st, g_knob_name[i], g_knob_value[i]);
    if (r == -1) return bad_cli("unknown knob", g_knob_name[i]);
    if (r != 0) {
      unsigned k = 0;
      while (k < TT_KNOB_COUNT && strcmp(tt_knob_name(k), g_knob_name[i])) k++;
      fprintf(stderr, "ttrun: knob %s has no value '%s' (values: %s)\n", g_knob_name[i], g_knob_value[i],
              k < TT_KNOB_COUNT ? tt_knob_values(k) : "?");
      return 2;
    }
  }
  tt_set_mode(&g_ref, g_mode);
  tt_reset(&g_st);
  for (unsigned i = 0; i < g_ninits; i++) tt_loc_set(&g_st, &g_inits[i].loc, g_inits[i].value);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    if (tt_load_program(&g_st, t, g_src[t].word, g_src[t].n) != 0) {
      fprintf(stderr, "%s:1:1: the model refused the program of t%u\n", g_src[t].path, t);
      return 1;
    }
    g_done_at[t] = xcalloc(g_src[t].n + 1, sizeof *g_done_at[t]);
  }
  memcpy(g_sem0, g_st.c.sem_value, sizeof g_sem0);
  g_tracing = trace != NULL;
  tt_outcome out = run();
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) analyse(t);
  collect_changes();
  if (json) print_json(stdout, out);
  else print_text(out);
  int rc = 0;
  if (emit) rc |= emit_vec(emit, out, argc, argv);
  if (trace) rc |= write_trace(trace);
  if (fflush(stdout) != 0) rc = 1;
  if (rc) return rc;   /* an output that could not be written wins over --fail-on */
  unsigned hit = 0;
  if (out == TT_OUT_DEADLOCK) hit |= FAIL_DEADLOCK;
  if (out == TT_OUT_BUDGET) hit |= FAIL_BUDGET;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    if (!tt_thread_done(&g_st, t) && tt_thread_blocked(&g_st, t)) hit |= FAIL_BLOCKED;
    if (g_st.c.thr[t].fault_class != TT_FAULT_NONE) hit |= FAIL_FAULT;
  }
  if (g_mode == TT_MODE_CYCLE && tt_hazard_count(&g_st)) hit |= FAIL_HAZARD;
  hit &= fail_on;
  if (!hit) return 0;
  fprintf(stderr, "ttrun: --fail-on:");
  for (size_t k = 0; k < sizeof fail_names / sizeof fail_names[0]; k++)
    if (hit & fail_names[k].bit) fprintf(stderr, " %s", fail_names[k].name);
  fprintf(stderr, " (exit status %u)\n", FAIL_BASE + hit);
  return (int)(FAIL_BASE + hit);
}
