/* vec.c — `.vec` conformance vectors (vector-format.md, the contract): the allocation-free
 * parser: the file, its lines, the header directives, programs and init lines, the checks of
 * the whole file. The expect lines are vec_expect.c; the checker that runs a parsed vector is
 * vec_run.c. No stdio, no allocation, no snprintf: the model's symbol audit applies to this
 * file too, so it carries its own tiny formatters (vec_sb.h). */
#include <string.h>
#include "vec.h"
#include "vec_parse.h"
#include "vec_sb.h"
#include "asm.h"
#include "chars.h"

size_t tt_vec_fmt_hex(char *buf, size_t n, uint64_t v, unsigned min_digits) {
  sb s;
  sb_init(&s, buf, n);
  sb_hex(&s, v, min_digits);
  return s.len;
}
size_t tt_vec_fmt_dec(char *buf, size_t n, uint64_t v) {
  sb s;
  sb_init(&s, buf, n);
  sb_dec(&s, v);
  return s.len;
}

/* ---- numbers, threads, values, locations (vec_parse.h) ----------------------------------- */
/* Parse one number token [p, e): decimal or 0x hex (case-insensitive), nothing else.
 * 0 ok; -1 malformed; -2 does not fit in 64 bits. */
static int parse_u64(const char *p, const char *e, uint64_t *out) {
  uint64_t v = 0;
  if (p >= e) return -1;
  if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    for (p += 2; p < e; p++) {
      int d = tt_ch_hexval(*p);
      if (d < 0) return -1;
      if (v >> 60) return -2;
      v = v * 16 + (unsigned)d;
    }
  } else {
    for (; p < e; p++) {
      if (!tt_ch_digit(*p)) return -1;
      unsigned d = (unsigned)(*p - '0');
      if (v > (UINT64_MAX - d) / 10) return -2;
      v = v * 10 + d;
    }
  }
  *out = v;
  return 0;
}

int tt_vecp_parse_thread_tok(const char *p, const char *e, unsigned *t) {
  /* "tN" exactly, N decimal */
  uint64_t n;
  if (e - p < 2 || p[0] != 't') return -1;
  for (const char *q = p + 1; q < e; q++)
    if (!tt_ch_digit(*q)) return -1;
  if (parse_u64(p + 1, e, &n) != 0) n = UINT64_MAX;
  *t = n > 0xFFFF ? 0xFFFF : (unsigned)n;
  return 0;
}
int tt_vecp_check_thread(pctx *c, const char *p, const char *e, unsigned t) {
  if (t < TT_THREAD_COUNT) return 0;
  return err_at_q(c, p, "unknown thread ", p, e, " (threads are t0, t1, t2)");
}

/* A number token [p, e) that must fit in `bits` bits (64 max). */
int tt_vecp_parse_value(pctx *c, const char *p, const char *e, unsigned bits, const char *what,
                        uint64_t *out) {
  uint64_t v = 0;
  int r;
  if (p >= e) return err_at(c, p, "missing value");
  r = parse_u64(p, e, &v);
  if (r == -1) return err_at_q(c, p, "malformed number ", p, e, " (decimal or 0x hex)");
  if (r == -2 || (bits < 64 && (v >> bits) != 0)) {
    sb s = err_begin(c, p);
    sb_str(&s, "value ");
    sb_quote(&s, p, (size_t)(e - p));
    sb_str(&s, " is wider than ");
    sb_str(&s, what);
    sb_str(&s, " (");
    sb_dec(&s, bits);
    sb_str(&s, " bits)");
    return -1;
  }
  *out = v;
  return 0;
}

/* Independent range check of a parsed location (the contract's table). */
static const char *loc_check(const tt_loc *l) {
  switch (l->kind) {
  case TT_LOC_GPR:
    return l->sel >= TT_THREAD_COUNT ? "thread must be t0, t1 or t2"
           : l->index >= TT_GPR_COUNT ? "GPR index must be 0..63" : NULL;
  case TT_LOC_CFG:
    return l->sel >= TT_CFG_BANK_COUNT ? "Config bank must be 0 or 1"
           : l->index >= TT_CFG_WORD_COUNT ? "Config word index must be 0..223" : NULL;
  case TT_LOC_TCFG:
    return l->sel >= TT_THREAD_COUNT ? "ThreadConfig thread must be 0..2"
           : l->index >= TT_TCFG_WORD_COUNT ? "ThreadConfig word index must be 0..67" : NULL;
  case TT_LOC_SEM_VALUE: case TT_LOC_SEM_MAX:
    return l->index >= TT_SEM_COUNT ? "semaphore index must be 0..7" : NULL;
  case TT_LOC_MUTEX:
    return (l->index == 0 || l->index == 2 || l->index == 3 || l->index == 4)
               ? NULL : "mutex index must be 0, 2, 3 or 4";
  case TT_LOC_L1_U8: case TT_LOC_L1_U16: case TT_LOC_L1_U32: {
    uint32_t size = l->kind == TT_LOC_L1_U8 ? 1u : l->kind == TT_LOC_L1_U16 ? 2u : 4u;
    if (l->index % size) return size == 2 ? "l1.u16 address must be 2-aligned"
                                          : "l1.u32 address must be 4-aligned";
    return (uint64_t)l->index + size > TT_L1_SIZE ? "L1 address must be below 1536 KiB" : NULL;
  }
  case TT_LOC_MMIO:
    if (l->index & 3) return "mmio address must be 4-aligned";
    return (l->index < TT_MMIO_LOW || l->index > 0xFFBFFFFCu)
               ? "mmio address must be 0xFFB11000..0xFFBFFFFC" : NULL;
  case TT_LOC_HOST_U8: case TT_LOC_HOST_U16: case TT_LOC_HOST_U32: {
    uint32_t size = l->kind == TT_LOC_HOST_U8 ? 1u : l->kind == TT_LOC_HOST_U16 ? 2u : 4u;
    if (l->sel > TT_CORE_T2) return "host core must be b, t0, t1 or t2";
    return l->index % size ? "host address must be naturally aligned" : NULL;
  }
  case TT_LOC_PRNG_RESEEDS: return NULL;
  case TT_LOC_IC_INVALIDATES: return l->index > 4 ? "ic_invalidates core must be b, t0, t1, t2 or nc" : NULL;
  case TT_LOC_CTX_RESETS:
    return l->sel >= TT_THREAD_COUNT ? "thread must be t0, t1 or t2"
           : l->index > 1 ? "unpacker index must be 0 or 1" : NULL;
  default: return "unknown location kind";
  }
}

static int parse_loc(pctx *c, const char *p, const char *e, tt_loc *loc) {
  const char *m = NULL;
  if (p >= e) return err_at(c, p, "missing location");
  if (tt_loc_parse(p, (size_t)(e - p), loc, &m) != 0 || (m = loc_check(loc)) != NULL) {
    sb s = err_begin(c, p);
    sb_str(&s, "bad location ");
    sb_quote(&s, p, (size_t)(e - p));
    sb_str(&s, ": ");
    sb_str(&s, m ? m : "not a location");
    return -1;
  }
  return 0;
}

/* `LOC = VALUE` over [p, e) for init and expect. */
int tt_vecp_parse_assign(pctx *c, const char *p, const char *e, tt_loc *loc, uint64_t *val) {
  const char *eq = memchr(p, '=', (size_t)(e - p));
  const char *le, *vp;
  char locname[48];
  if (!eq) return err_at(c, e, "expected 'LOCATION = VALUE'");
  le = trim_end(p, eq);
  if (parse_loc(c, p, le, loc) != 0) return -1;
  vp = skip_sp(eq + 1, e);
  if (vp >= e) return err_at(c, vp, "missing value after '='");
  for (const char *q = vp; q < e; q++)
    if (tt_ch_space(*q)) return err_at_q(c, q, "unexpected text ", q, e, " after the value");
  if (loc->kind == TT_LOC_MUTEX) {
    if (tok_eq(vp, e, "none")) *val = 0;
    else if (tok_eq(vp, e, "t0")) *val = 1;
    else if (tok_eq(vp, e, "t1")) *val = 2;
    else if (tok_eq(vp, e, "t2")) *val = 3;
    else return err_at_q(c, vp, "mutex value ", vp, e, " must be none, t0, t1 or t2");
    return 0;
  }
  tt_loc_format(loc, locname, sizeof locname);
  return tt_vecp_parse_value(c, vp, e, tt_loc_width(loc), locname, val);
}

/* Copy header text [p, e) into dst (cap bytes with NUL). */
static int copy_text(pctx *c, const char *p, const char *e, char *dst, size_t cap,
                     const char *what) {
  size_t n = (size_t)(e - p);
  if (n == 0) {
    sb s = err_begin(c, p);
    sb_str(&s, what);
    sb_str(&s, " needs a text");
    return -1;
  }
  if (n >= cap) {
    sb s = err_begin(c, p);
    sb_str(&s, what);
    sb_str(&s, " text longer than ");
    sb_dec(&s, cap - 1);
    sb_str(&s, " bytes");
    return -1;
  }
  memcpy(dst, p, n);
  dst[n] = 0;
  return 0;
}

/* Does knob `name` exist, and does it have value `val`? -1 unknown knob, -2 unknown value. */
static int knob_lookup(const char *np, const char *ne, const char *vp, const char *ve,
                       unsigned *knob) {
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) {
    const char *kn = tt_knob_name(k), *vals;
    if (!kn || !tok_eq(np, ne, kn)) continue;
    *knob = k;
    vals = tt_knob_values(k);
    while (vals && *vals) {
      const char *bar = strchr(vals, '|');
      const char *end = bar ? bar : vals + strlen(vals);
      if ((size_t)(end - vals) == (size_t)(ve - vp) && memcmp(vals, vp, (size_t)(ve - vp)) == 0)
        return 0;
      vals = bar ? bar + 1 : end;
    }
    return -2;
  }
  return -1;
}

static int d_knob(pctx *c, const char *p, const char *e) {
  tt_vec *v = c->v;
  const char *eq = memchr(p, '=', (size_t)(e - p));
  const char *ne, *vp;
  unsigned k = 0;
  int r;
  if (!eq) return err_at(c, p, "expected 'knob: NAME=VALUE'");
  ne = trim_end(p, eq);
  vp = skip_sp(eq + 1, e);
  if (ne == p) return err_at(c, p, "missing knob name");
  if (vp == e) return err_at(c, vp, "missing knob value");
  for (const char *q = vp; q < e; q++)
    if (tt_ch_space(*q)) return err_at_q(c, q, "unexpected text ", q, e, " after the knob value");
  r = knob_lookup(p, ne, vp, e, &k);
  if (r == -1) return err_at_q(c, p, "unknown knob ", p, ne, "");
  if (r == -2) {
    sb s = err_begin(c, vp);
    sb_str(&s, "knob ");
    sb_str(&s, tt_knob_name(k));
    sb_str(&s, " has no value ");
    sb_quote(&s, vp, (size_t)(e - vp));
    sb_str(&s, " (values: ");
    sb_str(&s, tt_knob_values(k));
    sb_str(&s, ")");
    return -1;
  }
  for (unsigned i = 0; i < v->nknobs; i++)
    if (tok_eq(p, ne, v->knobs[i].name)) {
      sb s = err_begin(c, p);
      sb_str(&s, "knob ");
      sb_str(&s, v->knobs[i].name);
      sb_str(&s, " already set on line ");
      sb_dec(&s, v->knobs[i].line);
      return -1;
    }
  if (v->nknobs >= TT_VEC_MAX_KNOBS) return err_at(c, p, "too many knob: lines (limit 32)");
  if ((size_t)(ne - p) >= TT_VEC_KNOB_TEXT_MAX || (size_t)(e - vp) >= TT_VEC_KNOB_TEXT_MAX)
    return err_at(c, p, "knob name or value too long");
  tt_vec_knob *kn = &v->knobs[v->nknobs++];
  memcpy(kn->name, p, (size_t)(ne - p));
  kn->name[ne - p] = 0;
  memcpy(kn->value, vp, (size_t)(e - vp));
  kn->value[e - vp] = 0;
  kn->line = c->line;
  return 0;
}

/* "duplicate WORD: (first on line N)" at w */
static int err_duplicate(pctx *c, const char *w, const char *word, unsigned first) {
  sb s = err_begin(c, w);
  sb_str(&s, "duplicate ");
  sb_str(&s, word);
  sb_str(&s, ": (first on line ");
  sb_dec(&s, first);
  sb_str(&s, ")");
  return -1;
}

static int h_name(pctx *c, const char *w, const char *p, const char *e) {
  tt_vec *v = c->v;
  if (v->name_line) return err_duplicate(c, w, "name", v->name_line);
  if (copy_text(c, p, e, v->name, sizeof v->name, "name:") != 0) return -1;
  v->name_line = c->line;
  return 0;
}

static int h_ref(pctx *c, const char *w, const char *p, const char *e) {
  tt_vec *v = c->v;
  if (v->nrefs >= TT_VEC_MAX_REFS) return err_at(c, w, "too many ref: lines (limit 64)");
  if (copy_text(c, p, e, v->refs[v->nrefs], TT_VEC_TEXT_MAX, "ref:") != 0) return -1;
  v->nrefs++;
  return 0;
}

static int h_mode(pctx *c, const char *w, const char *p, const char *e) {
  tt_vec *v = c->v;
  if (v->mode_line) return err_duplicate(c, w, "mode", v->mode_line);
  if (tok_eq(p, e, "func")) v->modes = TT_VEC_MODE_FUNC;
  else if (tok_eq(p, e, "cycle")) v->modes = TT_VEC_MODE_CYCLE;
  else if (tok_eq(p, e, "both")) v->modes = TT_VEC_MODE_BOTH;
  else return err_at_q(c, p, "mode must be func, cycle or both, not ", p, e, "");
  v->mode_line = c->line;
  return 0;
}

static int h_profile(pctx *c, const char *w, const char *p, const char *e) {
  tt_vec *v = c->v;
  if (v->profile_line) return err_duplicate(c, w, "profile", v->profile_line);
  if (v->nknobs) {
    sb s = err_begin(c, w);
    sb_str(&s, "profile: must come before any knob: line (knob: on line ");
    sb_dec(&s, v->knobs[0].line);
    sb_str(&s, ")");
    return -1;
  }
  if (!tok_eq(p, e, "isa") && !tok_eq(p, e, "p150"))
    return err_at_q(c, p, "unknown profile ", p, e, " (isa or p150)");
  memcpy(v->profile, p, (size_t)(e - p));
  v->profile[e - p] = 0;
  v->profile_line = c->line;
  return 0;
}

static int h_budget(pctx *c, const char *w, const char *p, const char *e) {
  tt_vec *v = c->v;
  uint64_t b;
  if (v->has_budget) return err_duplicate(c, w, "budget", v->budget_line);
  if (tt_vecp_parse_value(c, p, e, 64, "a budget", &b) != 0) return -1;
  v->budget = b;
  v->has_budget = 1;
  v->budget_line = c->line;
  return 0;
}

static int d_header(pctx *c, const char *w, const char *we, const char *p, const char *e) {
  if (tok_eq(w, we, "name")) return h_name(c, w, p, e);
  if (tok_eq(w, we, "ref")) return h_ref(c, w, p, e);
  if (tok_eq(w, we, "mode")) return h_mode(c, w, p, e);
  if (tok_eq(w, we, "profile")) return h_profile(c, w, p, e);
  if (tok_eq(w, we, "budget")) return h_budget(c, w, p, e);
  return d_knob(c, p, e);   /* "knob" (the caller only passes the six header words) */
}

static int d_insn(pctx *c, unsigned t, const char *tp, const char *te, const char *p,
                  const char *e) {
  tt_vec *v = c->v;
  uint32_t word = 0;
  if (tt_vecp_check_thread(c, tp, te, t) != 0) return -1;
  if (p >= e) return err_at(c, p, "missing instruction after the thread label");
  if (v->prog_len[t] >= TT_PROG_MAX) {
    sb s = err_begin(c, tp);
    sb_str(&s, "thread t");
    sb_dec(&s, t);
    sb_str(&s, " has more than ");
    sb_dec(&s, TT_PROG_MAX);
    sb_str(&s, " instructions");
    return -1;
  }
  /* A raw 32-bit word is always accepted, whatever its opcode (the contract). */
  if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    int all_hex = 1;
    for (const char *q = p + 2; q < e; q++)
      if (tt_ch_hexval(*q) < 0) all_hex = 0;
    if (all_hex) {
      uint64_t w = 0;
      if (tt_vecp_parse_value(c, p, e, 32, "an instruction word", &w) != 0) return -1;
      word = (uint32_t)w;
      goto append;
    }
  }
  {
    tt_asm_error ae;
    memset(&ae, 0, sizeof ae);
    if (tt_asm_insn(p, (size_t)(e - p), &word, &ae) != 0) {
      unsigned col = ae.col ? ae.col - 1 : 0;
      sb s = err_begin(c, p + (col < (size_t)(e - p) ? col : 0));
      ae.msg[sizeof ae.msg - 1] = 0;
      sb_str(&s, "bad instruction ");
      sb_quote(&s, p, (size_t)(e - p));
      sb_str(&s, ": ");
      sb_str(&s, ae.msg[0] ? ae.msg : "not accepted by the assembler");
      return -1;
    }
  }
append:
  v->prog[t][v->prog_len[t]] = word;
  v->prog_line[t][v->prog_len[t]] = c->line;
  v->prog_len[t]++;
  return 0;
}

static int d_init(pctx *c, const char *p, const char *e) {
  tt_vec *v = c->v;
  tt_loc loc;
  uint64_t val = 0;
  if (v->ninits >= TT_VEC_MAX_INITS) return err_at(c, p, "too many init lines (limit 512)");
  if (tt_vecp_parse_assign(c, p, e, &loc, &val) != 0) return -1;
  if (loc.kind == TT_LOC_PRNG_RESEEDS || loc.kind == TT_LOC_IC_INVALIDATES ||
      loc.kind == TT_LOC_CTX_RESETS)
    return err_at(c, p, "event counters cannot be set by init (they count from reset)");
  if (loc.kind == TT_LOC_CFG && loc.index >= TT_CFG_GLOBAL_BASE) {
    /* A global word is one value in both banks: the latest init of it in each bank must agree
     * with the latest in the other (vector-format.md, Initial state). */
    for (unsigned i = v->ninits; i-- > 0;) {
      const tt_vec_init *o = &v->inits[i];
      if (o->loc.kind != TT_LOC_CFG || o->loc.index != loc.index) continue;
      if (o->loc.sel != loc.sel && o->value != (uint32_t)val) {
        sb s = err_begin(c, p);
        sb_str(&s, "Config word ");
        sb_dec(&s, loc.index);
        sb_str(&s, " is global (>= 180, one value in both banks) but line ");
        sb_dec(&s, o->line);
        sb_str(&s, " gives it a different value in the other bank");
        return -1;
      }
      break;
    }
  }
  v->inits[v->ninits].loc = loc;
  v->inits[v->ninits].value = (uint32_t)val;
  v->inits[v->ninits].line = c->line;
  v->ninits++;
  return 0;
}

/* Validate UTF-8 and reject control characters in [p, e). Returns the offending byte or NULL. */
static const char *bad_byte(const char *p, const char *e, const char **why) {
  const unsigned char *s = (const unsigned char *)p, *end = (const unsigned char *)e;
  while (s < end) {
    unsigned char b = *s;
    if (b < 0x80) {
      if (b == 0) { *why = "NUL byte"; return (const char *)s; }
      if (b < 0x20 && b != '\t' && b != '\r' && b != '\v' && b != '\f') {
        *why = "control character";
        return (const char *)s;
      }
      if (b == 0x7F) { *why = "control character"; return (const char *)s; }
      if (b == '\r' && s + 1 < end) { *why = "carriage return inside a line"; return (const char *)s; }
      s++;
      continue;
    }
    unsigned n, cp;
    if (b >= 0xC2 && b <= 0xDF) { n = 1; cp = b & 0x1Fu; }
    else if (b >= 0xE0 && b <= 0xEF) { n = 2; cp = b & 0x0Fu; }
    else if (b >= 0xF0 && b <= 0xF4) { n = 3; cp = b & 0x07u; }
    else { *why = "invalid UTF-8"; return (const char *)s; }
    if ((size_t)(end - s) <= n) { *why = "invalid UTF-8"; return (const char *)s; }
    for (unsigned i = 1; i <= n; i++) {
      if ((s[i] & 0xC0) != 0x80) { *why = "invalid UTF-8"; return (const char *)s; }
      cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (n == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
      *why = "invalid UTF-8";
      return (const char *)s;
    }
    s += n + 1;
  }
  return NULL;
}

static int parse_line(pctx *c, const char *ls, const char *le) {
  const char *p, *e, *w, *we, *hash, *why = NULL, *bad;
  c->ls = ls;
  bad = bad_byte(ls, le, &why);
  if (bad) {
    sb s = err_begin(c, bad);
    sb_str(&s, why);
    sb_str(&s, " (byte ");
    sb_hex(&s, (unsigned char)*bad, 2);
    sb_str(&s, ")");
    return -1;
  }
  hash = memchr(ls, '#', (size_t)(le - ls));
  e = trim_end(ls, hash ? hash : le);
  p = skip_sp(ls, e);
  if (p == e) return 0;
  w = p;
  we = w;
  while (we < e && tt_ch_word(*we)) we++;
  if (we == w) return err_at_q(c, p, "unknown directive ", p, e, "");

  /* tN: INSN */
  if (w[0] == 't' && we - w >= 2 && tt_ch_digit(w[1])) {
    const char *q = skip_sp(we, e);
    unsigned t = 0;
    if (q < e && *q == ':' && tt_vecp_parse_thread_tok(w, we, &t) == 0)
      return d_insn(c, t, w, we, skip_sp(q + 1, e), e);
  }
  if (tok_eq(w, we, "name") || tok_eq(w, we, "ref") || tok_eq(w, we, "mode") ||
      tok_eq(w, we, "knob") || tok_eq(w, we, "budget") || tok_eq(w, we, "profile")) {
    const char *q = skip_sp(we, e);
    if (q >= e || *q != ':') {
      sb s = err_begin(c, q);
      sb_str(&s, "expected ':' after ");
      sb_mem(&s, w, (size_t)(we - w));
      return -1;
    }
    return d_header(c, w, we, skip_sp(q + 1, e), e);
  }
  if (tok_eq(w, we, "strict")) {
    if (skip_sp(we, e) != e)
      return err_at_q(c, skip_sp(we, e), "unexpected text ", skip_sp(we, e), e, " after strict");
    c->v->strict = 1;
    return 0;
  }
  if (tok_eq(w, we, "init") && (we == e || tt_ch_space(*we))) return d_init(c, skip_sp(we, e), e);
  if (tok_eq(w, we, "expect") && (we == e || tt_ch_space(*we))) return tt_vecp_expect(c, skip_sp(we, e), e);
  if (w[0] == 't' && we - w >= 2 && tt_ch_digit(w[1]) && we < e && *we == '.')
    return err_at_q(c, p, "unknown directive ", p, e, " (missing 'init' or 'expect'?)");
  return err_at_q(c, p, "unknown directive ", w, we, "");
}

/* Clear the header and counters; the large arrays are only read below their counts. */
static void vec_clear(tt_vec *v) {
  memset(v->name, 0, sizeof v->name);
  v->name_line = 0;
  v->nrefs = 0;
  v->modes = TT_VEC_MODE_BOTH;
  v->strict = 0;
  v->has_budget = 0;
  v->has_cycle_expects = 0;
  v->mode_line = v->budget_line = v->profile_line = 0;
  v->profile[0] = 0;
  v->budget = TT_VEC_DEFAULT_BUDGET;
  v->nknobs = v->ninits = v->nexpects = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) v->prog_len[t] = 0;
}

/* "WHAT: thread tN has M instruction(s)", the expectation's index or count past the program */
static int err_past_program(pctx *c, const char *what, uint64_t n, const char *close, unsigned t) {
  sb s = err_begin(c, NULL);
  sb_str(&s, what);
  sb_dec(&s, n);
  sb_str(&s, close);
  sb_str(&s, ": thread t");
  sb_dec(&s, t);
  sb_str(&s, " has ");
  sb_dec(&s, c->v->prog_len[t]);
  sb_str(&s, " instruction(s)");
  return -1;
}

/* The checks of the whole file, once every line is read. */
static int file_checks(pctx *c) {
  const tt_vec *v = c->v;
  c->ls = NULL;
  if (!v->name_line) {
    c->line = 1;
    return err_at(c, NULL, "missing required 'name:' directive");
  }
  for (unsigned i = 0; i < v->nexpects; i++) {
    const tt_vec_expect *x = &v->expects[i];
    c->line = x->line;
    if (x->kind == TT_VEC_EX_ISSUE && x->index >= v->prog_len[x->thread])
      return err_past_program(c, "issue[", x->index, "]", x->thread);
    if (x->kind == TT_VEC_EX_ISSUED && x->value > v->prog_len[x->thread])
      return err_past_program(c, "issued = ", x->value, "", x->thread);
    if ((x->kind == TT_VEC_EX_ISSUE || x->kind == TT_VEC_EX_CYCLES ||
         x->kind == TT_VEC_EX_HAZARD || x->kind == TT_VEC_EX_HAZARDS) &&
        !(v->modes & TT_VEC_MODE_CYCLE))
      return err_at(c, NULL, "cycle-only expectation in a 'mode: func' vector");
  }
  return 0;
}

int tt_vec_parse(const char *text, size_t len, tt_vec *v, tt_vec_error *err) {
  pctx c;
  tt_vec_error dummy;
  const char *p = text, *end = text + len;
  if (!err) err = &dummy;
  memset(err, 0, sizeof *err);
  vec_clear(v);
  c.v = v;
  c.err = err;
  c.line = 0;
  c.ls = text;
  if (!text && len) {
    err->line = 0;
    sb s;
    sb_init(&s, err->msg, sizeof err->msg);
    sb_str(&s, "no text");
    return -1;
  }
  if (len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
      (unsigned char)p[2] == 0xBF)
    p += 3;   /* UTF-8 byte order mark */
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    c.line++;
    if (parse_line(&c, p, le) != 0) return -1;
    p = nl ? nl + 1 : end;
  }
  return file_checks(&c);
}

