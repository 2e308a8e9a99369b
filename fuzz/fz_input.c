/* fz_input.c — the structured input format of fz.h: bytes <-> fz_prog, .vec <-> fz_prog,
 * loading a program into the model, and failure reporting. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm.h"
#include "fz.h"
#include "vec.h"

/* ---- failures ------------------------------------------------------------------------------ */
int fz_failf(fz_fail *f, const char *name, const char *fmt, ...) {
  va_list ap;
  f->name = name;
  va_start(ap, fmt);
  vsnprintf(f->msg, sizeof f->msg, fmt, ap);
  va_end(ap);
  return 1;
}

void fz_detailf(fz_fail *f, const char *fmt, ...) {
  size_t len = strlen(f->detail);
  if (len + 1 >= sizeof f->detail) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->detail + len, sizeof f->detail - len, fmt, ap);
  va_end(ap);
}

_Noreturn void fz_die(const fz_fail *f) {
  fprintf(stderr, "INVARIANT %s: %s\n", f->name, f->msg);
  if (f->detail[0]) fprintf(stderr, "%s", f->detail);
  fflush(stderr);
  abort();
}

void fz_require_loc(fz_fail *f, unsigned kind, unsigned sel, uint32_t index, uint32_t value) {
  f->req = FZ_REQ_AFTER_ROUND;
  for (unsigned i = 0; i < f->nexpect; i++)
    if (f->expect[i].kind == FZ_EX_LOC && f->expect[i].loc.kind == kind &&
        f->expect[i].loc.sel == sel && f->expect[i].loc.index == index) {
      f->expect[i].value = value;
      return;
    }
  if (f->nexpect >= FZ_MAX_EXPECT) return;
  fz_expect *e = &f->expect[f->nexpect++];
  memset(e, 0, sizeof *e);
  e->kind = FZ_EX_LOC;
  e->loc.kind = (uint8_t)kind;
  e->loc.sel = (uint8_t)sel;
  e->loc.index = index;
  e->value = value;
}

void fz_require_blocked(fz_fail *f, unsigned thread) {
  f->req = FZ_REQ_AFTER_ROUND;
  for (unsigned i = 0; i < f->nexpect; i++)
    if (f->expect[i].kind == FZ_EX_BLOCKED && f->expect[i].thread == thread) return;
  if (f->nexpect >= FZ_MAX_EXPECT) return;
  fz_expect *e = &f->expect[f->nexpect++];
  memset(e, 0, sizeof *e);
  e->kind = FZ_EX_BLOCKED;
  e->thread = (uint8_t)thread;
}

void fz_require_none(fz_fail *f, const char *why) {
  f->req = FZ_REQ_NONE;
  f->nexpect = 0;
  snprintf(f->req_why, sizeof f->req_why, "%s", why);
}

/* ---- bytes <-> fz_prog ---------------------------------------------------------------------- */
static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v) {
  for (unsigned i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The process's profile (--profile NAME or FZ_PROFILE; isa when neither): every input's knobs
 * start from its values, and knob bits and records apply on top. */
static unsigned g_profile;
static uint8_t g_profile_knob[TT_KNOB_COUNT];

int fz_profile_select(const char *name) {
  int pr = tt_profile_by_name(name);
  if (pr < 0) return -1;
  g_profile = (unsigned)pr;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) g_profile_knob[k] = (uint8_t)tt_profile_knob(g_profile, k);
  return 0;
}

const char *fz_profile_name(void) { return tt_profile_name(g_profile); }

void fz_profile_args(int *argc, char ***argv) {
  const char *name = getenv("FZ_PROFILE");
  int o = 1;
  for (int i = 1; i < *argc; i++) {
    const char *a = (*argv)[i];
    if (!strcmp(a, "--profile") && i + 1 < *argc) { name = (*argv)[++i]; continue; }
    if (!strncmp(a, "--profile=", 10) || !strncmp(a, "-profile=", 9)) { name = strchr(a, '=') + 1; continue; }
    (*argv)[o++] = (*argv)[i];
  }
  *argc = o;
  (*argv)[o] = NULL;
  if (name && fz_profile_select(name) != 0) {
    fprintf(stderr, "fuzz: unknown profile '%s' (--profile or FZ_PROFILE:", name);
    for (unsigned pr = 0; pr < tt_profile_count(); pr++) fprintf(stderr, " %s", tt_profile_name(pr));
    fprintf(stderr, ")\n");
    exit(2);
  }
}

void fz_prog_clear(fz_prog *p) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) p->n[t] = 0;
  p->ninit = 0;
  memcpy(p->knob, g_profile_knob, sizeof p->knob);
  p->budget = 0;
  p->flags = 0;
}

/* ---- edits the minimisers share (fz_minimize.c, amb_min.c) ---- */
void fz_prog_drop_insn(fz_prog *p, unsigned t, uint32_t i) {
  memmove(&p->w[t][i], &p->w[t][i + 1], 4u * (p->n[t] - i - 1));
  p->n[t]--;
}

int fz_nop_pass(fz_prog *p, int (*keep)(const fz_prog *p)) {
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = p->n[t]; i-- > 0;) {
      uint32_t w = p->w[t][i];
      if (w == FZ_NOP) continue;
      p->w[t][i] = FZ_NOP;
      if (keep(p)) changed = 1;
      else p->w[t][i] = w;
    }
  return changed;
}

typedef struct cut_ctx { fz_prog *p; int all_settable, overflow; } cut_ctx;
static void cut_cb(void *ctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  cut_ctx *c = ctx;
  int r = fz_init_append(c->p, loc, b);
  (void)a;
  if (r == 0 || (r < 0 && c->all_settable)) c->overflow = 1;
}

int fz_cut_rest(const fz_prog *p, const tt_state *ref, const tt_state *at, int all_settable,
                fz_prog *out) {
  cut_ctx c = {out, all_settable, 0};
  tt_state_diff(ref, at, cut_cb, &c);
  if (c.overflow) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint32_t pc = at->c.thr[t].pc;
    out->n[t] = p->n[t] - pc;
    memcpy(out->w[t], &p->w[t][pc], 4u * out->n[t]);
  }
  return 1;
}

int fz_init_valid(const tt_loc *loc, uint32_t *value) {
  uint32_t i = loc->index;
  switch ((tt_loc_kind)loc->kind) {
  case TT_LOC_GPR: if (loc->sel >= TT_THREAD_COUNT || i >= TT_GPR_COUNT) return 0; break;
  case TT_LOC_CFG: if (loc->sel >= TT_CFG_BANK_COUNT || i >= TT_CFG_WORD_COUNT) return 0; break;
  case TT_LOC_TCFG:
    if (loc->sel >= TT_THREAD_COUNT || i >= TT_TCFG_WORD_COUNT) return 0;
    *value &= 0xFFFFu;
    break;
  case TT_LOC_SEM_VALUE:
  case TT_LOC_SEM_MAX:
    if (i >= TT_SEM_COUNT) return 0;
    *value &= 15u;
    break;
  case TT_LOC_MUTEX:
    if (!(i == 0 || i == 2 || i == 3 || i == 4)) return 0;
    *value &= 3u;
    break;
  case TT_LOC_L1_U8: if (i >= TT_L1_SIZE) return 0; *value &= 0xFFu; break;
  case TT_LOC_L1_U16: if (i >= TT_L1_SIZE || (i & 1)) return 0; *value &= 0xFFFFu; break;
  case TT_LOC_L1_U32: if (i >= TT_L1_SIZE || (i & 3)) return 0; break;
  case TT_LOC_MMIO:
    if (i < TT_MMIO_LOW || i - TT_MMIO_BASE >= TT_MMIO_SIZE || (i & 3)) return 0;
    break;
  case TT_LOC_HOST_U8: case TT_LOC_HOST_U16: case TT_LOC_HOST_U32:
    return 0;  /* host-port accesses are not initial-state records */
  case TT_LOC_PRNG_RESEEDS: case TT_LOC_IC_INVALIDATES: case TT_LOC_CTX_RESETS:
    return 0;  /* event counters cannot be set */
  default: return 0;
  }
  return 1;
}

int fz_init_append(fz_prog *p, const tt_loc *loc, uint32_t value) {
  if (p->ninit >= FZ_MAX_INIT) return 0;
  fz_init *in = &p->init[p->ninit];
  in->loc = *loc;
  in->value = value;
  if (!fz_init_valid(&in->loc, &in->value)) return -1;
  p->ninit++;
  return 1;
}

void fz_prog_decode(const uint8_t *d, size_t n, fz_prog *p) {
  fz_prog_clear(p);
  size_t body = n;
  uint32_t n0 = 0, n1 = 0, ninit = 0;
  if (n >= FZ_TAIL) {
    const uint8_t *t = d + n - FZ_TAIL;
    body = n - FZ_TAIL;
    n0 = rd16(t);
    n1 = rd16(t + 2);
    ninit = t[4];
    p->flags = t[5] & (FZ_F_DEEP | FZ_F_CYCLE);
    uint32_t bits = rd16(t + 6) | (uint32_t)((t[5] >> 1) & 0x3Fu) << 16;
    for (unsigned k = 0; k < FZ_KNOB_BITS && k < TT_KNOB_COUNT; k++)
      if ((bits >> k) & 1u) p->knob[k] = 1;
    p->budget = (uint16_t)rd16(t + 8);
  }
  size_t pos = 0;
  for (uint32_t k = 0; k < ninit && k < FZ_MAX_INIT && pos + FZ_INIT_SIZE <= body; k++) {
    const uint8_t *r = d + pos;
    pos += FZ_INIT_SIZE;
    fz_init *in = &p->init[p->ninit];
    memset(&in->loc, 0, sizeof in->loc);
    in->loc.kind = r[0] & 15u;
    in->loc.sel = r[0] >> 4;
    in->loc.index = (uint32_t)r[1] | (uint32_t)r[2] << 8 | (uint32_t)r[3] << 16;
    if (in->loc.kind == TT_LOC_MMIO) in->loc.index += TT_MMIO_BASE;
    in->value = rd32(r + 4);
    if (in->loc.kind == FZ_KNOB_RECORD) {
      if (in->loc.index < TT_KNOB_COUNT) fz_knob_put(p, in->loc.index, in->value);
      if (in->loc.index == FZ_PROFILE_RECORD && in->value < tt_profile_count())
        for (unsigned j = 0; j < TT_KNOB_COUNT; j++) p->knob[j] = (uint8_t)tt_profile_knob(in->value, j);
      continue;
    }
    if (fz_init_valid(&in->loc, &in->value)) p->ninit++;
  }
  size_t words = (body - pos) / 4;
  uint32_t cnt[TT_THREAD_COUNT];
  cnt[0] = n0 < words ? n0 : (uint32_t)words;
  words -= cnt[0];
  cnt[1] = n1 < words ? n1 : (uint32_t)words;
  words -= cnt[1];
  cnt[2] = (uint32_t)words;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    for (uint32_t i = 0; i < cnt[t]; i++, pos += 4)
      if (i < FZ_MAX_INSN) p->w[t][i] = rd32(d + pos);
    p->n[t] = cnt[t] < FZ_MAX_INSN ? cnt[t] : FZ_MAX_INSN;
  }
}

/* Knobs that need a record: a value the bits cannot give (value 1 of knobs 0..21) and the
 * process's profile does not start from. Under isa: a value above 1, or 1 of a knob without a bit. */
static unsigned knob_records(const fz_prog *p, unsigned *which) {
  unsigned m = 0;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    if (!(p->knob[k] == 1 && k < FZ_KNOB_BITS) && p->knob[k] != g_profile_knob[k]) which[m++] = k;
  return m;
}

size_t fz_prog_encode(const fz_prog *p, uint8_t *out, size_t max) {
  unsigned krec[TT_KNOB_COUNT], nk = knob_records(p, krec);
  uint32_t n[TT_THREAD_COUNT], ninit = p->ninit < FZ_MAX_INIT - nk ? p->ninit : FZ_MAX_INIT - nk;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) n[t] = p->n[t] < FZ_MAX_INSN ? p->n[t] : FZ_MAX_INSN;
  if (max < FZ_TAIL) return 0;
  for (;;) {
    size_t need = (ninit + nk) * FZ_INIT_SIZE + 4u * (n[0] + n[1] + n[2]) + FZ_TAIL;
    if (need <= max) break;
    if (n[0] + n[1] + n[2] == 0) { ninit--; continue; }
    unsigned longest = n[0] >= n[1] ? (n[0] >= n[2] ? 0 : 2) : (n[1] >= n[2] ? 1 : 2);
    n[longest]--;
  }
  size_t pos = 0;
  for (uint32_t k = 0; k < ninit; k++, pos += FZ_INIT_SIZE) {
    const fz_init *in = &p->init[k];
    uint32_t idx = in->loc.index - (in->loc.kind == TT_LOC_MMIO ? TT_MMIO_BASE : 0u);
    out[pos] = (uint8_t)((in->loc.kind & 15u) | (in->loc.sel << 4));
    out[pos + 1] = (uint8_t)idx;
    out[pos + 2] = (uint8_t)(idx >> 8);
    out[pos + 3] = (uint8_t)(idx >> 16);
    wr32(out + pos + 4, in->value);
  }
  for (unsigned j = 0; j < nk; j++, pos += FZ_INIT_SIZE) {
    out[pos] = FZ_KNOB_RECORD;
    out[pos + 1] = (uint8_t)krec[j];
    out[pos + 2] = out[pos + 3] = 0;
    wr32(out + pos + 4, p->knob[krec[j]]);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < n[t]; i++, pos += 4) wr32(out + pos, p->w[t][i]);
  uint8_t *tl = out + pos;
  wr16(tl, n[0]);
  wr16(tl + 2, n[1]);
  uint32_t bits = 0;
  for (unsigned k = 0; k < FZ_KNOB_BITS && k < TT_KNOB_COUNT; k++) bits |= (uint32_t)(p->knob[k] == 1) << k;
  tl[4] = (uint8_t)(ninit + nk);
  tl[5] = (uint8_t)((p->flags & (FZ_F_DEEP | FZ_F_CYCLE)) | ((bits >> 16) & 0x3Fu) << 1);
  wr16(tl + 6, bits & 0xFFFFu);
  wr16(tl + 8, p->budget);
  return pos + FZ_TAIL;
}

uint32_t fz_total(const fz_prog *p) { return p->n[0] + p->n[1] + p->n[2]; }

uint64_t fz_budget(const fz_prog *p) {
  return p->budget ? p->budget : 4u * (uint64_t)fz_total(p) + 16u;
}

/* Four independent multiply lanes (no long dependency chain), folded at the end. */
FZ_STATE_READER uint64_t fz_mix(uint64_t h, const void *p, size_t n) {  /* n: a multiple of 4 */
  const uint8_t *b = p;
  uint64_t l[4] = {h, h ^ 0x9E3779B97F4A7C15ull, h ^ 0xC2B2AE3D27D4EB4Full, h ^ 0x165667B19E3779F9ull};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (unsigned k = 0; k < 4; k++) {
      uint64_t w;
      memcpy(&w, b + i + 8 * k, 8);
      l[k] = (l[k] ^ w) * 0x9E3779B97F4A7C15ull;
      l[k] ^= l[k] >> 29;
    }
  for (; i + 4 <= n; i += 4) {
    uint32_t w;
    memcpy(&w, b + i, 4);
    l[0] = (l[0] ^ w) * 0x9E3779B97F4A7C15ull;
    l[0] ^= l[0] >> 29;
  }
  uint64_t r = l[0];
  for (unsigned k = 1; k < 4; k++) r = (r ^ l[k]) * 0xBF58476D1CE4E5B9ull, r ^= r >> 31;
  return r;
}

FZ_BOOKKEEPING uint64_t fz_digest_rest(const tt_state *st) {
  const tt_core *c = &st->c;
  uint64_t h = 0x452821E638D01377ull;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &c->thr[t];
    uint32_t v[2] = {th->fault_class | (uint32_t)th->fault_code << 8, th->fault_pc};
    h = fz_mix(h, v, sizeof v);
  }
  uint32_t fx[2] = {c->prng_seed, c->prng_reseeds};
  h = fz_mix(h, fx, sizeof fx);
  h = fz_mix(h, c->icache_invalidates, sizeof c->icache_invalidates);
  h = fz_mix(h, c->ctx_cnt_resets, sizeof c->ctx_cnt_resets);
  uint64_t sum = 0;
  for (unsigned i = 0; i < c->l1_dirty_count; i++) {
    uint32_t ch = st->l1_dirty_list[i];
    sum += fz_mix(fz_mix(0x1000u + ch, &ch, 4), &st->l1[(size_t)ch << TT_DIRTY_SHIFT], 1u << TT_DIRTY_SHIFT);
  }
  for (unsigned i = 0; i < c->mmio_dirty_count; i++) {
    uint32_t ch = st->mmio_dirty_list[i];
    sum += fz_mix(fz_mix(0x2000u + ch, &ch, 4), &st->mmio[(size_t)ch << (TT_DIRTY_SHIFT - 2)], 1u << TT_DIRTY_SHIFT);
  }
  h = fz_mix(h, &sum, 8);
  if (c->src_dirty) h = fz_mix(h, st->src, sizeof st->src);
  return h;
}

FZ_BOOKKEEPING uint64_t fz_digest(const tt_state *st) {
  const tt_core *c = &st->c;
  uint64_t h = 0x243F6A8885A308D3ull;
  h = fz_mix(h, c->gpr, sizeof c->gpr);
  h = fz_mix(h, c->cfg, sizeof c->cfg);
  h = fz_mix(h, c->tcfg, sizeof c->tcfg);
  uint32_t small[8];  /* 8 + 8 semaphore bytes, 8 + 8 mutex bytes */
  _Static_assert(sizeof c->mutex + sizeof c->mutex_handoff <= 16, "mutex bytes fit small[4..7]");
  memcpy(small, c->sem_value, 8);
  memcpy(small + 2, c->sem_max, 8);
  memset(small + 4, 0, 16);
  memcpy(small + 4, c->mutex, sizeof c->mutex);
  memcpy((uint8_t *)(small + 4) + sizeof c->mutex, c->mutex_handoff, sizeof c->mutex_handoff);
  h = fz_mix(h, small, sizeof small);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &c->thr[t];
    uint32_t v[2] = {th->pc, 0};
    h = fz_mix(h, v, sizeof v);
    h = fz_mix(h, &th->latch, sizeof th->latch);
  }
  uint64_t rest = fz_digest_rest(st);
  return fz_mix(h, &rest, 8);
}

/* In the byte format, knobs 0..15 take value 1 from the tail's `knobs` bits and 16..21 from
 * flag bits 1..6 (flag bit 0 is FZ_F_DEEP); knob records give any value of any knob. */
unsigned fz_knob_get(const fz_prog *p, unsigned k) { return k < TT_KNOB_COUNT ? p->knob[k] : 0; }
void fz_knob_put(fz_prog *p, unsigned k, unsigned value) {
  if (k < TT_KNOB_COUNT) p->knob[k] = (uint8_t)(value < tt_knob_value_count(k) ? value : 0);
}

void fz_setup(tt_state *st, const fz_prog *p) {
  tt_reset(st);
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) st->p.knob[k] = p->knob[k];
  for (uint32_t i = 0; i < p->ninit; i++) tt_loc_set(st, &p->init[i].loc, p->init[i].value);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) tt_load_program(st, t, p->w[t], p->n[t]);
}

/* ---- .vec -> fz_prog ---------------------------------------------------------------------- */

/* The input flags that are not knobs (FZ_F_DEEP, FZ_F_CYCLE) travel in a reproducer as the
 * comment line `# fz-flags: 0xNN` (the .vec format has no place for them). */
#define FZ_FLAGS_KEY "# fz-flags:"
static uint8_t flags_from_text(const char *text, size_t len) {
  size_t klen = strlen(FZ_FLAGS_KEY);
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
    if (n > klen && memcmp(text + pos, FZ_FLAGS_KEY, klen) == 0) {
      char buf[16];
      size_t m = n - klen < sizeof buf - 1 ? n - klen : sizeof buf - 1;
      memcpy(buf, text + pos + klen, m);
      buf[m] = 0;
      return (uint8_t)(strtoul(buf, NULL, 0) & (FZ_F_DEEP | FZ_F_CYCLE));
    }
    pos += n + 1;
  }
  return 0;
}

int fz_prog_from_vec(const char *text, size_t len, fz_prog *p) {
  static tt_vec v;
  tt_vec_error e;
  if (tt_vec_parse(text, len, &v, &e) != 0) return -1;
  fz_prog_clear(p);
  p->flags = flags_from_text(text, len);
  int pr = v.profile_line ? tt_profile_by_name(v.profile) : -1;
  for (unsigned k = 0; pr >= 0 && k < TT_KNOB_COUNT; k++) p->knob[k] = (uint8_t)tt_profile_knob((unsigned)pr, k);
  for (unsigned i = 0; i < v.nknobs; i++)
    for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
      if (strcmp(tt_knob_name(k), v.knobs[i].name) == 0) {
        int idx = tt_knob_value_index(k, v.knobs[i].value);
        if (idx >= 0) fz_knob_put(p, k, (unsigned)idx);
      }
  if (v.has_budget && v.budget <= 0xFFFF) p->budget = (uint16_t)v.budget;
  for (unsigned i = 0; i < v.ninits && p->ninit < FZ_MAX_INIT; i++) {
    fz_init *in = &p->init[p->ninit];
    in->loc = v.inits[i].loc;
    in->value = v.inits[i].value;
    if (fz_init_valid(&in->loc, &in->value)) p->ninit++;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    p->n[t] = v.prog_len[t] < FZ_MAX_INSN ? v.prog_len[t] : FZ_MAX_INSN;
    memcpy(p->w[t], v.prog[t], 4u * p->n[t]);
  }
  return 0;
}

/* ---- fz_prog -> .vec ----------------------------------------------------------------------- */
typedef struct sbuf { char *b; size_t n, len; } sbuf;
static void sput(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sput(sbuf *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(s->len < s->n ? s->b + s->len : NULL, s->len < s->n ? s->n - s->len : 0, fmt, ap);
  va_end(ap);
  if (r > 0) s->len += (size_t)r;
}

static const char *knob_value_name(unsigned k, unsigned idx, char *buf, size_t n) {
  const char *v = tt_knob_values(k);
  for (unsigned i = 0; *v; i++) {
    const char *bar = strchr(v, '|');
    size_t len = bar ? (size_t)(bar - v) : strlen(v);
    if (i == idx) {
      if (len >= n) len = n - 1;
      memcpy(buf, v, len);
      buf[len] = 0;
      return buf;
    }
    if (!bar) break;
    v = bar + 1;
  }
  return "?";
}

size_t fz_prog_to_vec(const fz_prog *p, const char *name, const char *header, char *out,
                      size_t n) {
  sbuf s = {out, n, 0};
  char loc[64], val[48], dis[128];
  if (header) sput(&s, "%s", header);
  if (p->flags & (FZ_F_DEEP | FZ_F_CYCLE))
    sput(&s, "%s 0x%02X\n", FZ_FLAGS_KEY, (unsigned)(p->flags & (FZ_F_DEEP | FZ_F_CYCLE)));
  sput(&s, "name: %s\nmode: func\n", name);
  if (g_profile) sput(&s, "profile: %s\n", tt_profile_name(g_profile));
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    if (fz_knob_get(p, k) != g_profile_knob[k])
      sput(&s, "knob: %s=%s\n", tt_knob_name(k), knob_value_name(k, fz_knob_get(p, k), val, sizeof val));
  if (p->budget) sput(&s, "budget: %u\n", (unsigned)p->budget);
  for (uint32_t i = 0; i < p->ninit; i++) {
    const fz_init *in = &p->init[i];
    tt_loc_format(&in->loc, loc, sizeof loc);
    if (in->loc.kind == TT_LOC_MUTEX) {
      static const char *const who[4] = {"none", "t0", "t1", "t2"};
      sput(&s, "init %s = %s\n", loc, who[in->value & 3u]);
    } else {
      sput(&s, "init %s = 0x%X\n", loc, (unsigned)in->value);
    }
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      tt_disasm(p->w[t][i], TT_DIS_UPPER, dis, sizeof dis);
      int pad = 40 - (int)strlen(dis);
      sput(&s, "t%u: %s%*s # 0x%08X  [%u]\n", t, dis, pad > 0 ? pad : 0, "",
           (unsigned)p->w[t][i], (unsigned)i);
    }
  if (s.len >= n) return 0;
  return s.len;
}
