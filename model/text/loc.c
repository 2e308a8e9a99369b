/* loc.c — architectural locations by name (the `.vec` location syntax of
 * conformance/README.md): parse, format, read, write, and state diffs. */
#include <string.h>
#include "internal.h"
#include "chars.h"

/* ---- tiny lexer over [p, end) -------------------------------------------------------------- */
typedef struct lex { const char *p, *end; } lex;

static int lit(lex *l, const char *s) {
  size_t n = strlen(s);
  if ((size_t)(l->end - l->p) < n || memcmp(l->p, s, n) != 0) return 0;
  l->p += n;
  return 1;
}

/* Decimal or 0x hex, up to 32 bits. */
static int num(lex *l, uint32_t *out) {
  uint64_t v = 0;
  const char *s = l->p;
  int digits = 0;
  if (l->end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s += 2;
    for (; s < l->end && digits < 17; s++, digits++) {
      int d = tt_ch_hexval(*s);
      if (d < 0) break;
      v = v * 16 + (unsigned)d;
    }
  } else {
    for (; s < l->end && tt_ch_digit(*s) && digits < 11; s++, digits++)
      v = v * 10 + (unsigned)(*s - '0');
  }
  if (digits == 0 || v > 0xFFFFFFFFull) return 0;
  if (s < l->end && tt_ch_is(*s, TT_CH_DIGIT | TT_CH_LOWER | TT_CH_UPPER))
    return 0;
  l->p = s;
  *out = (uint32_t)v;
  return 1;
}

static int bracket(lex *l, uint32_t *out) {
  return lit(l, "[") && num(l, out) && lit(l, "]");
}

/* One step per family of locations: l is past the family's name; each fills loc and returns
 * NULL, or returns what is wrong. */
static const char *lp_thread(lex *l, tt_loc *loc) {   /* tN.gpr[I], tN.ctx_resets[U]; l at N */
  uint32_t a = 0, b = 0;
  if (!num(l, &a) || a >= TT_THREAD_COUNT) return "thread must be t0, t1 or t2";
  if (lit(l, ".ctx_resets")) {
    if (!bracket(l, &b)) return "expected tN.ctx_resets[U]";
    if (b > 1) return "unpacker index must be 0 or 1";
    loc->kind = TT_LOC_CTX_RESETS;
  } else {
    if (!lit(l, ".gpr") || !bracket(l, &b)) return "expected tN.gpr[I] or tN.ctx_resets[U]";
    if (b >= TT_GPR_COUNT) return "GPR index must be 0..63";
    loc->kind = TT_LOC_GPR;
  }
  loc->sel = (uint8_t)a;
  loc->index = b;
  return NULL;
}

static const char *lp_cfg(lex *l, tt_loc *loc) {
  uint32_t a = 0, b = 0;
  if (!bracket(l, &a) || !bracket(l, &b)) return "expected cfg[B][I]";
  if (a >= TT_CFG_BANK_COUNT) return "Config bank must be 0 or 1";
  if (b >= TT_CFG_WORD_COUNT) return "Config word index must be 0..223";
  loc->kind = TT_LOC_CFG;
  loc->sel = (uint8_t)a;
  loc->index = b;
  return NULL;
}

static const char *lp_tcfg(lex *l, tt_loc *loc) {
  uint32_t a = 0, b = 0;
  if (!bracket(l, &a) || !bracket(l, &b)) return "expected tcfg[N][I]";
  if (a >= TT_THREAD_COUNT) return "ThreadConfig thread must be 0..2";
  if (b >= TT_TCFG_WORD_COUNT) return "ThreadConfig word index must be 0..67";
  loc->kind = TT_LOC_TCFG;
  loc->sel = (uint8_t)a;
  loc->index = b;
  return NULL;
}

static const char *lp_sem(lex *l, tt_loc *loc) {
  uint32_t a = 0;
  if (!bracket(l, &a)) return "expected sem[I].value or sem[I].max";
  if (a >= TT_SEM_COUNT) return "semaphore index must be 0..7";
  if (lit(l, ".value")) loc->kind = TT_LOC_SEM_VALUE;
  else if (lit(l, ".max")) loc->kind = TT_LOC_SEM_MAX;
  else return "expected sem[I].value or sem[I].max";
  loc->index = a;
  return NULL;
}

static const char *lp_mutex(lex *l, tt_loc *loc) {
  uint32_t a = 0;
  if (!bracket(l, &a)) return "expected mutex[I]";
  if (!tt_mutex_slot_valid(a)) return "mutex index must be 0, 2, 3 or 4";
  loc->kind = TT_LOC_MUTEX;
  loc->index = a;
  return NULL;
}

/* l1.u8[A], l1.u16[A], l1.u32[A]; l is past "l1." */
static const char *lp_l1(lex *l, tt_loc *loc) {
  uint32_t a = 0;
  if (lit(l, "u8")) {
    loc->kind = TT_LOC_L1_U8;
    if (!bracket(l, &a)) return "expected l1.u8[A]";
  } else if (lit(l, "u16")) {
    loc->kind = TT_LOC_L1_U16;
    if (!bracket(l, &a)) return "expected l1.u16[A]";
    if (a & 1) return "l1.u16 address must be 2-aligned";
  } else if (lit(l, "u32")) {
    loc->kind = TT_LOC_L1_U32;
    if (!bracket(l, &a)) return "expected l1.u32[A]";
    if (a & 3) return "l1.u32 address must be 4-aligned";
  } else {
    return "unknown location";
  }
  loc->index = a;
  return NULL;
}

static const char *lp_host(lex *l, tt_loc *loc) {
  uint32_t a = 0, b = 0;
  unsigned size;
  if (lit(l, "b")) a = TT_CORE_B;
  else if (lit(l, "t0")) a = TT_CORE_T0;
  else if (lit(l, "t1")) a = TT_CORE_T1;
  else if (lit(l, "t2")) a = TT_CORE_T2;
  else return "host core must be b, t0, t1 or t2";
  if (lit(l, ".u8")) { loc->kind = TT_LOC_HOST_U8; size = 1; }
  else if (lit(l, ".u16")) { loc->kind = TT_LOC_HOST_U16; size = 2; }
  else if (lit(l, ".u32")) { loc->kind = TT_LOC_HOST_U32; size = 4; }
  else return "expected host.C.u8[A], host.C.u16[A] or host.C.u32[A]";
  if (!bracket(l, &b)) return "expected host.C.uW[A]";
  if (b & (size - 1)) return "host address must be naturally aligned";
  loc->sel = (uint8_t)a;
  loc->index = b;
  return NULL;
}

static const char *lp_ic(lex *l, tt_loc *loc) {
  uint32_t a;
  if (!lit(l, "[")) return "expected ic_invalidates[C]";
  if (lit(l, "b")) a = 0;
  else if (lit(l, "t0")) a = 1;
  else if (lit(l, "t1")) a = 2;
  else if (lit(l, "t2")) a = 3;
  else if (lit(l, "nc")) a = 4;
  else return "ic_invalidates core must be b, t0, t1, t2 or nc";
  if (!lit(l, "]")) return "expected ic_invalidates[C]";
  loc->kind = TT_LOC_IC_INVALIDATES;
  loc->index = a;
  return NULL;
}

static const char *lp_mmio(lex *l, tt_loc *loc) {
  uint32_t a = 0;
  if (!bracket(l, &a)) return "expected mmio[A]";
  if (a & 3) return "mmio address must be 4-aligned";
  if (a < TT_MMIO_LOW || a > 0xFFBFFFFCu) return "mmio address must be 0xFFB11000..0xFFBFFFFC";
  loc->kind = TT_LOC_MMIO;
  loc->index = a;
  return NULL;
}

static const char *lp_prng(lex *l, tt_loc *loc) {
  (void)l;
  loc->kind = TT_LOC_PRNG_RESEEDS;
  return NULL;
}

/* The families by name, in the order they are tried. */
static const struct {
  const char *name;
  const char *(*parse)(lex *l, tt_loc *loc);
} loc_families[] = {
  {"cfg", lp_cfg}, {"tcfg", lp_tcfg}, {"sem", lp_sem}, {"mutex", lp_mutex}, {"l1.", lp_l1},
  {"host.", lp_host}, {"prng_reseeds", lp_prng}, {"ic_invalidates", lp_ic}, {"mmio", lp_mmio},
};

int tt_loc_parse(const char *text, size_t len, tt_loc *loc, const char **err) {
  lex l = {text, text + len};
  const char *why = "unknown location";
  memset(loc, 0, sizeof *loc);
  if (len >= 2 && text[0] == 't' && tt_ch_digit(text[1])) {
    l.p = text + 1;
    why = lp_thread(&l, loc);
  } else {
    for (size_t i = 0; i < sizeof loc_families / sizeof loc_families[0]; i++)
      if (lit(&l, loc_families[i].name)) { why = loc_families[i].parse(&l, loc); break; }
  }
  if (!why && loc->kind >= TT_LOC_L1_U8 && loc->kind <= TT_LOC_L1_U32 &&
      (uint64_t)loc->index + tt_loc_width(loc) / 8 > TT_L1_SIZE)
    why = "L1 address must be below 1536 KiB";
  if (!why && l.p != l.end) why = "unexpected text after location";
  if (why && err) *err = why;
  return why ? -1 : 0;
}

unsigned tt_loc_width(const tt_loc *loc) {
  switch ((tt_loc_kind)loc->kind) {
  case TT_LOC_GPR: case TT_LOC_CFG: case TT_LOC_L1_U32: case TT_LOC_MMIO:
  case TT_LOC_HOST_U32: case TT_LOC_PRNG_RESEEDS: case TT_LOC_IC_INVALIDATES:
  case TT_LOC_CTX_RESETS: return 32;
  case TT_LOC_TCFG: case TT_LOC_L1_U16: case TT_LOC_HOST_U16: return 16;
  case TT_LOC_L1_U8: case TT_LOC_HOST_U8: return 8;
  case TT_LOC_SEM_VALUE: case TT_LOC_SEM_MAX: return 4;
  case TT_LOC_MUTEX: return 2;
  }
  return 0;
}

uint32_t tt_loc_get(const tt_state *st, const tt_loc *loc) {
  const tt_core *c = &st->c;
  switch ((tt_loc_kind)loc->kind) {
  case TT_LOC_GPR: return c->gpr[loc->sel % TT_THREAD_COUNT][loc->index % TT_GPR_COUNT];
  case TT_LOC_CFG: return c->cfg[loc->sel & 1][loc->index % TT_CFG_WORD_COUNT];
  case TT_LOC_TCFG: return c->tcfg[loc->sel % TT_THREAD_COUNT][loc->index % TT_TCFG_WORD_COUNT];
  case TT_LOC_SEM_VALUE: return c->sem_value[loc->index % TT_SEM_COUNT];
  case TT_LOC_SEM_MAX: return c->sem_max[loc->index % TT_SEM_COUNT];
  case TT_LOC_MUTEX: return c->mutex[loc->index % TT_MUTEX_SLOTS];
  case TT_LOC_L1_U8: return tt_l1_read(st, loc->index, 1);
  case TT_LOC_L1_U16: return tt_l1_read(st, loc->index, 2);
  case TT_LOC_L1_U32: return tt_l1_read(st, loc->index, 4);
  case TT_LOC_MMIO: return tt_mmio_read(st, loc->index);
  case TT_LOC_HOST_U8: case TT_LOC_HOST_U16: case TT_LOC_HOST_U32: {
    uint32_t v = 0;
    tt_host_status s = tt_host_read(st, (tt_core_id)(loc->sel & 3), loc->index,
                                    tt_loc_width(loc) / 8, &v);
    return s == TT_HOST_OK || s == TT_HOST_UNSUPPORTED ? v : 0;
  }
  case TT_LOC_PRNG_RESEEDS: return c->prng_reseeds;
  case TT_LOC_IC_INVALIDATES: return c->icache_invalidates[loc->index % 5];
  case TT_LOC_CTX_RESETS: return c->ctx_cnt_resets[loc->sel % TT_THREAD_COUNT][loc->index & 1];
  }
  return 0;
}

void tt_loc_set(tt_state *st, const tt_loc *loc, uint32_t v) {
  tt_core *c = &st->c;
  switch ((tt_loc_kind)loc->kind) {
  case TT_LOC_GPR:
    /* gpr0=zero (AMB-27): GPR 0 is wired to zero, so no state holds anything else there */
    if (loc->index % TT_GPR_COUNT == 0 && TT_KNOB_IS(st, GPR0, 1)) v = 0;
    c->gpr[loc->sel % TT_THREAD_COUNT][loc->index % TT_GPR_COUNT] = v;
    break;
  case TT_LOC_CFG:
    c->cfg[loc->sel & 1][loc->index % TT_CFG_WORD_COUNT] = v;
    c->cfg_touched |= (uint8_t)(1u << (loc->sel & 1));
    break;
  case TT_LOC_TCFG:
    c->tcfg[loc->sel % TT_THREAD_COUNT][loc->index % TT_TCFG_WORD_COUNT] = (uint16_t)v;
    break;
  case TT_LOC_SEM_VALUE: c->sem_value[loc->index % TT_SEM_COUNT] = (uint8_t)(v & 15); break;
  case TT_LOC_SEM_MAX: c->sem_max[loc->index % TT_SEM_COUNT] = (uint8_t)(v & 15); break;
  case TT_LOC_MUTEX: c->mutex[loc->index % TT_MUTEX_SLOTS] = (uint8_t)(v & 3); break;
  case TT_LOC_L1_U8: tt_l1_write(st, loc->index, 1, v); break;
  case TT_LOC_L1_U16: tt_l1_write(st, loc->index, 2, v); break;
  case TT_LOC_L1_U32: tt_l1_write(st, loc->index, 4, v); break;
  case TT_LOC_MMIO: tt_mmio_write(st, loc->index, v); break;
  case TT_LOC_HOST_U8: case TT_LOC_HOST_U16: case TT_LOC_HOST_U32:
    (void)tt_host_write(st, (tt_core_id)(loc->sel & 3), loc->index, tt_loc_width(loc) / 8, v);
    break;
  case TT_LOC_PRNG_RESEEDS: case TT_LOC_IC_INVALIDATES: case TT_LOC_CTX_RESETS:
    break;   /* event counters are not storage: only the machine counts them */
  }
}

/* ---- formatting --------------------------------------------------------------------------- */

size_t tt_loc_format(const tt_loc *loc, char *buf, size_t n) {
  tt_text o = {buf, n, 0};
  switch ((tt_loc_kind)loc->kind) {
  case TT_LOC_GPR: tt_put(&o, "t"); tt_put_dec(&o, loc->sel); tt_put(&o, ".gpr["); tt_put_dec(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_CFG: tt_put(&o, "cfg["); tt_put_dec(&o, loc->sel); tt_put(&o, "]["); tt_put_dec(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_TCFG: tt_put(&o, "tcfg["); tt_put_dec(&o, loc->sel); tt_put(&o, "]["); tt_put_dec(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_SEM_VALUE: tt_put(&o, "sem["); tt_put_dec(&o, loc->index); tt_put(&o, "].value"); break;
  case TT_LOC_SEM_MAX: tt_put(&o, "sem["); tt_put_dec(&o, loc->index); tt_put(&o, "].max"); break;
  case TT_LOC_MUTEX: tt_put(&o, "mutex["); tt_put_dec(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_L1_U8: tt_put(&o, "l1.u8["); tt_put_hex(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_L1_U16: tt_put(&o, "l1.u16["); tt_put_hex(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_L1_U32: tt_put(&o, "l1.u32["); tt_put_hex(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_MMIO: tt_put(&o, "mmio["); tt_put_hex(&o, loc->index); tt_put(&o, "]"); break;
  case TT_LOC_HOST_U8: case TT_LOC_HOST_U16: case TT_LOC_HOST_U32:
    tt_put(&o, "host.");
    tt_put(&o, tt_core_name(loc->sel));
    tt_put(&o, loc->kind == TT_LOC_HOST_U8 ? ".u8[" : loc->kind == TT_LOC_HOST_U16 ? ".u16[" : ".u32[");
    tt_put_hex(&o, loc->index);
    tt_put(&o, "]");
    break;
  case TT_LOC_PRNG_RESEEDS: tt_put(&o, "prng_reseeds"); break;
  case TT_LOC_IC_INVALIDATES: {
    static const char *const core[5] = {"b", "t0", "t1", "t2", "nc"};
    tt_put(&o, "ic_invalidates[");
    tt_put(&o, core[loc->index % 5]);
    tt_put(&o, "]");
    break;
  }
  case TT_LOC_CTX_RESETS: tt_put(&o, "t"); tt_put_dec(&o, loc->sel); tt_put(&o, ".ctx_resets["); tt_put_dec(&o, loc->index); tt_put(&o, "]"); break;
  }
  return tt_text_end(&o);
}

/* ---- diff ---------------------------------------------------------------------------------- */
static unsigned diff_one(const tt_state *a, const tt_state *b, tt_loc *loc, tt_diff_cb cb,
                         void *ctx) {
  uint32_t va = tt_loc_get(a, loc), vb = tt_loc_get(b, loc);
  if (va == vb) return 0;
  if (cb) cb(ctx, loc, va, vb);
  return 1;
}

static int dirty_in(const uint8_t *bits, unsigned ch) { return (bits[ch >> 3] >> (ch & 7)) & 1; }

unsigned tt_state_diff(const tt_state *a, const tt_state *b, tt_diff_cb cb, void *ctx) {
  unsigned n = 0;
  tt_loc loc = {0, 0, 0};
  loc.kind = TT_LOC_GPR;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_GPR_COUNT; i++) { loc.sel = (uint8_t)t; loc.index = i; n += diff_one(a, b, &loc, cb, ctx); }
  loc.kind = TT_LOC_CFG;
  for (unsigned k = 0; k < TT_CFG_BANK_COUNT; k++)
    for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++) { loc.sel = (uint8_t)k; loc.index = i; n += diff_one(a, b, &loc, cb, ctx); }
  loc.kind = TT_LOC_TCFG;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_TCFG_WORD_COUNT; i++) { loc.sel = (uint8_t)t; loc.index = i; n += diff_one(a, b, &loc, cb, ctx); }
  loc.sel = 0;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    loc.index = i;
    loc.kind = TT_LOC_SEM_VALUE; n += diff_one(a, b, &loc, cb, ctx);
    loc.kind = TT_LOC_SEM_MAX; n += diff_one(a, b, &loc, cb, ctx);
  }
  loc.kind = TT_LOC_MUTEX;
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++) {
    if (!tt_mutex_slot_valid(i)) continue;
    loc.index = i;
    n += diff_one(a, b, &loc, cb, ctx);
  }
  loc.kind = TT_LOC_PRNG_RESEEDS;
  loc.index = 0;
  n += diff_one(a, b, &loc, cb, ctx);
  loc.kind = TT_LOC_IC_INVALIDATES;
  for (unsigned i = 0; i < 5; i++) { loc.index = i; n += diff_one(a, b, &loc, cb, ctx); }
  loc.kind = TT_LOC_CTX_RESETS;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned u = 0; u < 2; u++) { loc.sel = (uint8_t)t; loc.index = u; n += diff_one(a, b, &loc, cb, ctx); }
  loc.sel = 0;
  /* L1 and MMIO: granules dirty in either state, 32-bit words. Bounded by the bitmap size. */
  for (unsigned ch = 0; ch < TT_L1_CHUNKS; ch++) {
    if (!dirty_in(a->l1_dirty, ch) && !dirty_in(b->l1_dirty, ch)) continue;
    loc.kind = TT_LOC_L1_U32;
    for (unsigned w = 0; w < (1u << TT_DIRTY_SHIFT); w += 4) {
      loc.index = (ch << TT_DIRTY_SHIFT) + w;
      n += diff_one(a, b, &loc, cb, ctx);
    }
  }
  for (unsigned ch = 0; ch < TT_MMIO_CHUNKS; ch++) {
    if (!dirty_in(a->mmio_dirty, ch) && !dirty_in(b->mmio_dirty, ch)) continue;
    loc.kind = TT_LOC_MMIO;
    for (unsigned w = 0; w < (1u << TT_DIRTY_SHIFT); w += 4) {
      loc.index = TT_MMIO_BASE + (ch << TT_DIRTY_SHIFT) + w;
      n += diff_one(a, b, &loc, cb, ctx);
    }
  }
  return n;
}
