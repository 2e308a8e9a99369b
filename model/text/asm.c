/* asm.c — assembler and disassembler for the forms of isa.def (see asm.h).
 *
 * Everything is driven by the tables expanded from isa.def (tt_isa_mnems, tt_isa_forms,
 * tt_isa_fields, tt_isa_llk): there is no per-instruction code here. The only table of this
 * file is the list of tt-llk symbolic operand names (asm_syms below).
 *
 * Allocation-free, no stdio: text is built with the tiny formatters of section 1. */
#include "asm.h"
#include "chars.h"

#include <string.h>

#define ASM_MASK(w) ((uint32_t)(((uint64_t)1 << (w)) - 1u))
#define ASM_MAX_OPS 24   /* more than any LLK row count or form field count */

/* ---- 1. tiny text builder (truncating, always NUL-terminated) -------------------------- */
typedef struct sbuf { char *p; size_t cap, len; } sbuf;

static void sb_ch(sbuf *b, char c) {
  if (b->len + 1 < b->cap) b->p[b->len] = c;
  b->len++;
  if (b->cap) b->p[b->len < b->cap ? b->len : b->cap - 1] = 0;
}
static void sb_str(sbuf *b, const char *s) { while (*s) sb_ch(b, *s++); }
static void sb_mem(sbuf *b, const char *s, size_t n) { for (size_t i = 0; i < n; i++) sb_ch(b, s[i]); }
static void sb_lower(sbuf *b, const char *s) {
  for (; *s; s++) sb_ch(b, tt_ch_lower(*s));
}
static void sb_dec(sbuf *b, uint32_t v) {
  char t[10]; int n = 0;
  do { t[n++] = (char)('0' + v % 10u); v /= 10u; } while (v);
  while (n) sb_ch(b, t[--n]);
}
/* "0x" + hex digits (upper case); at least `digits` digits. */
static void sb_hex(sbuf *b, uint32_t v, int digits) {
  static const char hx[] = "0123456789ABCDEF";
  char t[8]; int n = 0;
  do { t[n++] = hx[v & 15u]; v >>= 4; } while (v);
  while (n < digits) t[n++] = '0';
  sb_str(b, "0x");
  while (n) sb_ch(b, t[--n]);
}
/* Decimal up to 9, hex above (UPPER and NAMED styles). */
static void sb_num(sbuf *b, uint32_t v) { if (v > 9) sb_hex(b, v, 1); else sb_dec(b, v); }

/* ---- 2. tt-llk symbolic operand values ---------------------------------------------------
 * From tenstorrent/tt-llk tt_llk_blackhole/common/inc/ckernel_instr_params.h (namespace
 * p_stall: block resources STALL_*, condition resources, SEMWAIT conditions) and
 * ckernel_structs.h (namespace semaphore: semaphore indices, used via t6_sem(i) = 1 << i).
 * For TT_K_SEMMASK the value is the semaphore index i; the operand value is 1 << i. */
typedef struct asm_sym { uint8_t kind; const char *name; uint32_t value; } asm_sym;
static const asm_sym asm_syms[] = {
  {TT_K_BLOCK, "STALL_TDMA", 0x1},   {TT_K_BLOCK, "STALL_SYNC", 0x2},
  {TT_K_BLOCK, "STALL_PACK", 0x4},   {TT_K_BLOCK, "STALL_UNPACK", 0x8},
  {TT_K_BLOCK, "STALL_XMOV", 0x10},  {TT_K_BLOCK, "STALL_THCON", 0x20},
  {TT_K_BLOCK, "STALL_MATH", 0x40},  {TT_K_BLOCK, "STALL_CFG", 0x80},
  {TT_K_BLOCK, "STALL_SFPU", 0x100}, {TT_K_BLOCK, "STALL_THREAD", 0x1FF},
  {TT_K_STALLCOND, "THCON", 0x1},      {TT_K_STALLCOND, "UNPACK0", 0x2},
  {TT_K_STALLCOND, "UNPACK1", 0x4},    {TT_K_STALLCOND, "UNPACK", 0x6},
  {TT_K_STALLCOND, "PACK0", 0x8},      {TT_K_STALLCOND, "PACK", 0x8},
  {TT_K_STALLCOND, "MATH", 0x10},      {TT_K_STALLCOND, "SRCA_CLR", 0x20},
  {TT_K_STALLCOND, "SRCB_CLR", 0x40},  {TT_K_STALLCOND, "SRCA_VLD", 0x80},
  {TT_K_STALLCOND, "SRCB_VLD", 0x100}, {TT_K_STALLCOND, "XMOV", 0x200},
  {TT_K_STALLCOND, "TRISC_CFG", 0x400}, {TT_K_STALLCOND, "SFPU1", 0x800},
  {TT_K_STALLCOND, "WAIT_SFPU", 0x800}, {TT_K_STALLCOND, "CFGEXU", 0x1000},
  {TT_K_STALLCOND, "ALL_THREAD_RES", 0x21F},
  {TT_K_SEMCOND, "STALL_ON_ZERO", 1}, {TT_K_SEMCOND, "STALL_ON_MAX", 2},
  {TT_K_SEMMASK, "SEMAPHORE_0", 0}, {TT_K_SEMMASK, "SEMAPHORE_1", 1},
  {TT_K_SEMMASK, "SEMAPHORE_2", 2}, {TT_K_SEMMASK, "SEMAPHORE_3", 3},
  {TT_K_SEMMASK, "SEMAPHORE_4", 4}, {TT_K_SEMMASK, "SEMAPHORE_5", 5},
  {TT_K_SEMMASK, "SEMAPHORE_6", 6}, {TT_K_SEMMASK, "SEMAPHORE_7", 7},
  {TT_K_SEMMASK, "FPU_SFPU", 0},       {TT_K_SEMMASK, "MATH_PACK", 1},
  {TT_K_SEMMASK, "UNPACK_TO_DEST", 2}, {TT_K_SEMMASK, "UNPACK_OPERAND_SYNC", 3},
  {TT_K_SEMMASK, "PACK_DONE", 4},      {TT_K_SEMMASK, "UNPACK_SYNC", 5},
  {TT_K_SEMMASK, "UNPACK_MATH_DONE", 6}, {TT_K_SEMMASK, "MATH_DONE", 7},
};
/* Namespace prefixes accepted (and ignored) in front of a symbol. */
static const char *const asm_ns[] = {"p_stall::", "semaphore::", "ckernel::"};

static const char *kind_noun(unsigned kind) {
  switch ((tt_field_kind)kind) {
  case TT_K_BLOCK: return "block-mask";
  case TT_K_STALLCOND: return "stall-condition";
  case TT_K_SEMCOND: return "semaphore-condition";
  case TT_K_SEMMASK: return "semaphore";
  case TT_K_INT: case TT_K_REG: case TT_K_HALFREG: case TT_K_CFG: case TT_K_TCFG:
  case TT_K_MUTEX: break;
  }
  return 0;
}

/* ---- 3. character helpers ---------------------------------------------------------------- */
/* Case-insensitive: text[0..n) == s (whole). */
static int ieq(const char *t, size_t n, const char *s) {
  size_t i = 0;
  for (; i < n; i++) if (!s[i] || tt_ch_upper(t[i]) != tt_ch_upper(s[i])) return 0;
  return s[i] == 0;
}
/* Case-insensitive prefix test. */
static int ipre(const char *t, size_t n, const char *s) {
  size_t k = strlen(s);
  return n >= k && ieq(t, k, s) ? 1 : 0;
}

/* ---- 4. parser state and errors ---------------------------------------------------------- */
typedef struct ps {
  const char *s;
  size_t n;            /* end of the region being parsed */
  tt_asm_error *err;
} ps;

static void err_begin(tt_asm_error *e, size_t pos, sbuf *b) {
  e->col = (unsigned)(pos + 1);
  b->p = e->msg; b->cap = sizeof e->msg; b->len = 0;
  e->msg[0] = 0;
}
static void sb_tok(sbuf *b, const char *t, size_t n) {  /* 'token' (clipped) */
  sb_ch(b, '\'');
  sb_mem(b, t, n > 40 ? 40 : n);
  if (n > 40) sb_str(b, "...");
  sb_ch(b, '\'');
}
static int err_msg(ps *p, size_t pos, const char *m) {
  sbuf b; err_begin(p->err, pos, &b); sb_str(&b, m); return -1;
}
static int err_unexpected(ps *p, size_t pos) {
  sbuf b; err_begin(p->err, pos, &b);
  if (pos >= p->n) { sb_str(&b, "unexpected end of line"); return -1; }
  sb_str(&b, "unexpected "); sb_tok(&b, p->s + pos, 1);
  return -1;
}

static size_t skip_ws(const ps *p, size_t i) { while (i < p->n && tt_ch_ws(p->s[i])) i++; return i; }
static size_t skip_alnum(const ps *p, size_t i) { while (i < p->n && tt_ch_word(p->s[i])) i++; return i; }

/* ---- 5. values: number | symbol | t6_sem(NAME|n), combined with '|' ------------------------ */
/* Parse a number token at [i, j): decimal, 0x hex, 0b binary; must fit 32 bits. */
static int parse_number(ps *p, size_t i, size_t j, uint32_t *out) {
  const char *t = p->s + i;
  size_t n = j - i, k = 0;
  unsigned base = 10;
  uint64_t v = 0;
  if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) { base = 16; k = 2; }
  else if (n > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) { base = 2; k = 2; }
  for (; k < n; k++) {
    int h = tt_ch_hexval(t[k]);
    unsigned d = h < 0 ? 99u : (unsigned)h;
    if (d >= base) {
      sbuf b; err_begin(p->err, i, &b); sb_str(&b, "bad number "); sb_tok(&b, t, n);
      return -1;
    }
    v = v * base + d;
    if (v > 0xFFFFFFFFu) {
      sbuf b; err_begin(p->err, i, &b); sb_str(&b, "number "); sb_tok(&b, t, n);
      sb_str(&b, " does not fit 32 bits");
      return -1;
    }
  }
  *out = (uint32_t)v;
  return 0;
}

/* Look up a symbol of `kind`; returns the table row or NULL. */
static const asm_sym *find_sym(unsigned kind, const char *t, size_t n) {
  for (size_t i = 0; i < sizeof asm_syms / sizeof asm_syms[0]; i++)
    if (asm_syms[i].kind == kind && ieq(t, n, asm_syms[i].name)) return &asm_syms[i];
  return 0;
}

/* Identifier with optional namespace parts (a::b::c) at i; returns its end. */
static size_t scan_qualified(const ps *p, size_t i) {
  size_t j = skip_alnum(p, i);
  while (j + 2 < p->n && p->s[j] == ':' && p->s[j + 1] == ':' && tt_ch_alpha(p->s[j + 2]))
    j = skip_alnum(p, j + 2);
  return j;
}

/* Strip accepted namespace prefixes from [*i, j). */
static void strip_ns(const ps *p, size_t *i, size_t j) {
  for (int again = 1; again;) {
    again = 0;
    for (size_t k = 0; k < sizeof asm_ns / sizeof asm_ns[0]; k++)
      if (ipre(p->s + *i, j - *i, asm_ns[k])) { *i += strlen(asm_ns[k]); again = 1; }
  }
}

static int err_unknown_name(ps *p, size_t i, size_t j, unsigned kind) {
  sbuf b; err_begin(p->err, i, &b);
  const char *noun = kind_noun(kind);
  if (noun) { sb_str(&b, "unknown "); sb_str(&b, noun); sb_str(&b, " name "); sb_tok(&b, p->s + i, j - i); }
  else { sb_tok(&b, p->s + i, j - i); sb_str(&b, " is not a number (this operand takes no names)"); }
  return -1;
}

/* One term at *pos. */
static int parse_term(ps *p, size_t *pos, unsigned kind, uint32_t *out) {
  size_t i = *pos;
  if (i >= p->n) return err_msg(p, i, "expected a value");
  char c = p->s[i];
  if (tt_ch_digit(c)) {
    size_t j = skip_alnum(p, i);
    if (parse_number(p, i, j, out)) return -1;
    *pos = j;
    return 0;
  }
  if (!tt_ch_alpha(c)) {
    if (c == ',' || c == '|' || c == ')' || c == '=') return err_msg(p, i, "expected a value");
    return err_unexpected(p, i);
  }
  size_t j = scan_qualified(p, i), s = i;
  strip_ns(p, &s, j);
  if (ieq(p->s + s, j - s, "t6_sem")) {
    if (kind != TT_K_SEMMASK) return err_msg(p, i, "t6_sem() applies only to a semaphore mask");
    size_t k = skip_ws(p, j);
    if (k >= p->n || p->s[k] != '(') return err_msg(p, k, "expected '(' after t6_sem");
    k = skip_ws(p, k + 1);
    uint32_t idx;
    size_t a = k;
    if (k < p->n && tt_ch_digit(p->s[k])) {
      size_t e = skip_alnum(p, k);
      if (parse_number(p, k, e, &idx)) return -1;
      k = e;
    } else if (k < p->n && tt_ch_alpha(p->s[k])) {
      size_t e = scan_qualified(p, k), ss = k;
      strip_ns(p, &ss, e);
      const asm_sym *sym = find_sym(TT_K_SEMMASK, p->s + ss, e - ss);
      if (!sym) return err_unknown_name(p, k, e, TT_K_SEMMASK);
      idx = sym->value;
      k = e;
    } else {
      return err_msg(p, k, "expected a semaphore name or index");
    }
    if (idx > 31) return err_msg(p, a, "semaphore index out of range");
    k = skip_ws(p, k);
    if (k >= p->n || p->s[k] != ')') return err_msg(p, k, "expected ')'");
    *out = (uint32_t)1 << idx;
    *pos = k + 1;
    return 0;
  }
  const asm_sym *sym = find_sym(kind, p->s + s, j - s);
  if (!sym) return err_unknown_name(p, i, j, kind);
  *out = kind == TT_K_SEMMASK ? (uint32_t)1 << sym->value : sym->value;
  *pos = j;
  return 0;
}

/* term ('|' term)*; stops before anything else (whitespace before a non-'|' is not eaten). */
static int parse_expr(ps *p, size_t *pos, unsigned kind, uint32_t *out) {
  uint32_t v = 0, t;
  size_t i = *pos;
  if (parse_term(p, &i, kind, &t)) return -1;
  v = t;
  while (i < p->n) {  /* bounded: every pass consumes at least the '|' */
    size_t k = skip_ws(p, i);
    if (k >= p->n || p->s[k] != '|') break;
    k = skip_ws(p, k + 1);
    if (parse_term(p, &k, kind, &t)) return -1;
    v |= t;
    i = k;
  }
  *out = v;
  *pos = i;
  return 0;
}

/* ---- 6. instruction syntaxes -------------------------------------------------------------- */
/* Kind of the ISA field at a given lsb in any form of mnemonic m (TT_K_INT if none). */
static unsigned llk_kind(unsigned m, unsigned lsb) {
  unsigned first, nf = tt_mnem_forms(m, &first);
  for (unsigned f = first; f < first + nf; f++) {
    const tt_form_desc *fd = &tt_isa_forms[f];
    for (unsigned i = 0; i < fd->field_count; i++) {
      const tt_field_desc *fl = &tt_isa_fields[fd->field_first + i];
      if (fl->lsb == lsb) return fl->kind;
    }
  }
  return TT_K_INT;
}

/* Positional operands in [p->s + from, p->n): the TT_LLK rows of mnemonic m, in order. */
static int asm_positional(ps *p, size_t from, unsigned m, uint32_t *word) {
  unsigned first, nl = tt_mnem_llk(m, &first);
  size_t starts[ASM_MAX_OPS], ends[ASM_MAX_OPS];
  unsigned count = 0;
  /* Split at top-level commas first, so that a count error wins over a value error. */
  size_t i = skip_ws(p, from);
  if (i < p->n) {
    size_t st = i;
    int depth = 0;
    for (size_t k = i; k <= p->n; k++) {
      if (k == p->n || (p->s[k] == ',' && depth == 0)) {
        size_t a = skip_ws(p, st), e = k;
        while (e > a && tt_ch_ws(p->s[e - 1])) e--;
        if (a == e) return err_msg(p, k < p->n ? k : a, "missing operand");
        if (count < ASM_MAX_OPS) { starts[count] = a; ends[count] = e; }
        count++;
        if (k == p->n) break;
        st = k + 1;
      } else if (p->s[k] == '(') depth++;
      else if (p->s[k] == ')' && depth > 0) depth--;
    }
  }
  if (count != nl) {
    sbuf b;
    size_t at = count > nl ? starts[nl] : p->n;
    if (count < nl) { while (at > from && tt_ch_ws(p->s[at - 1])) at--; }
    err_begin(p->err, at, &b);
    sb_str(&b, "expected "); sb_dec(&b, nl); sb_str(&b, nl == 1 ? " operand, got " : " operands, got ");
    sb_dec(&b, count);
    return -1;
  }
  uint32_t w = (uint32_t)tt_isa_mnems[m].opcode << 24;
  for (unsigned k = 0; k < nl; k++) {
    const tt_llk_desc *l = &tt_isa_llk[first + k];
    ps sub = *p;
    sub.n = ends[k];
    size_t pos = starts[k];
    uint32_t v;
    if (parse_expr(&sub, &pos, llk_kind(m, l->lsb), &v)) return -1;
    pos = skip_ws(&sub, pos);
    if (pos != ends[k]) return err_unexpected(&sub, pos);
    if (v & ~ASM_MASK(l->width)) {
      sbuf b; err_begin(p->err, starts[k], &b);
      sb_str(&b, "operand "); sb_dec(&b, k + 1); sb_str(&b, " ("); sb_str(&b, l->name);
      sb_str(&b, ") "); sb_hex(&b, v, 1); sb_str(&b, " does not fit ");
      sb_dec(&b, l->width); sb_str(&b, l->width == 1 ? " bit" : " bits");
      return -1;
    }
    w += v << l->lsb;
  }
  *word = w;
  return 0;
}

/* Field of form f named [i, j) (ISA name first, then unique tt-llk alias); -1 unknown,
 * -2 ambiguous alias. */
static int find_field(unsigned f, const char *t, size_t n) {
  const tt_form_desc *fd = &tt_isa_forms[f];
  int hit = -1;
  for (unsigned i = 0; i < fd->field_count; i++)
    if (ieq(t, n, tt_isa_fields[fd->field_first + i].name)) return (int)i;
  for (unsigned i = 0; i < fd->field_count; i++)
    if (ieq(t, n, tt_isa_fields[fd->field_first + i].alias)) {
      if (hit >= 0) return -2;
      hit = (int)i;
    }
  return hit;
}

/* Named operands `field=value` (separated by spaces or commas) for form f. */
static int asm_named(ps *p, size_t from, unsigned f, uint32_t *word) {
  const tt_form_desc *fd = &tt_isa_forms[f];
  uint32_t vals[ASM_MAX_OPS];
  size_t cols[ASM_MAX_OPS];
  unsigned char seen[ASM_MAX_OPS];
  if (fd->field_count > ASM_MAX_OPS) return err_msg(p, from, "form has too many fields");
  memset(vals, 0, sizeof vals);
  memset(seen, 0, sizeof seen);
  memset(cols, 0, sizeof cols);
  size_t i = skip_ws(p, from);
  int need_item = 0;
  while (i < p->n) {
    if (!tt_ch_alpha(p->s[i])) {
      if (p->s[i] == ',') return err_msg(p, i, "missing field=value");
      return err_msg(p, i, "expected field=value");
    }
    size_t j = skip_alnum(p, i);
    int fi = find_field(f, p->s + i, j - i);
    if (fi < 0) {
      sbuf b; err_begin(p->err, i, &b);
      sb_str(&b, fi == -2 ? "ambiguous field " : "unknown field "); sb_tok(&b, p->s + i, j - i);
      sb_str(&b, fi == -2 ? " (use the ISA field name) in " : " in "); sb_str(&b, fd->name);
      return -1;
    }
    if (seen[fi]) {
      sbuf b; err_begin(p->err, i, &b);
      sb_str(&b, "duplicate field "); sb_tok(&b, p->s + i, j - i);
      return -1;
    }
    size_t k = skip_ws(p, j);
    if (k >= p->n || p->s[k] != '=') {
      sbuf b; err_begin(p->err, k, &b);
      sb_str(&b, "expected '=' after "); sb_tok(&b, p->s + i, j - i);
      return -1;
    }
    k = skip_ws(p, k + 1);
    cols[fi] = k;
    if (parse_expr(p, &k, tt_isa_fields[fd->field_first + (unsigned)fi].kind, &vals[fi])) return -1;
    seen[fi] = 1;
    i = skip_ws(p, k);
    need_item = 0;
    if (i < p->n && p->s[i] == ',') { i = skip_ws(p, i + 1); need_item = 1; }
    else if (i < p->n && i == k) return err_unexpected(p, i);  /* no separator */
  }
  if (need_item) return err_msg(p, i, "missing field=value");
  unsigned bad = 0;
  uint32_t w;
  if (tt_encode((tt_form)f, vals, fd->field_count, &w, &bad) != 0) {
    const tt_field_desc *fl = &tt_isa_fields[fd->field_first + bad];
    sbuf b; err_begin(p->err, cols[bad], &b);
    sb_str(&b, "field "); sb_str(&b, fl->name); sb_ch(&b, ' '); sb_hex(&b, vals[bad], 1);
    sb_str(&b, " does not fit "); sb_dec(&b, fl->width); sb_str(&b, fl->width == 1 ? " bit" : " bits");
    return -1;
  }
  *word = w;
  return 0;
}

/* Macro syntax TT_OP_X(...) / TTI_X(...) / TT_X(...): the operand region is inside the
 * parentheses; after ')' only whitespace and one optional ';'. Parentheses are optional. */
static int asm_macro(ps *p, size_t from, unsigned m, uint32_t *word) {
  size_t i = skip_ws(p, from);
  if (i >= p->n || p->s[i] != '(') {  /* no parentheses: allow one trailing ';' */
    ps sub = *p;
    if (sub.n > from && sub.s[sub.n - 1] == ';') sub.n--;
    return asm_positional(&sub, from, m, word);
  }
  int depth = 0;
  size_t close = p->n;
  for (size_t k = i; k < p->n; k++) {
    if (p->s[k] == '(') depth++;
    else if (p->s[k] == ')' && --depth == 0) { close = k; break; }
  }
  if (close == p->n) return err_msg(p, i, "missing ')'");
  size_t k = skip_ws(p, close + 1);
  if (k < p->n && p->s[k] == ';') k = skip_ws(p, k + 1);
  if (k < p->n) return err_unexpected(p, k);
  ps sub = *p;
  sub.n = close;
  return asm_positional(&sub, i + 1, m, word);
}

/* The steps of tt_asm_insn, one per syntax: each returns 0 (assembled) or -1 (an error, told),
 * and the name-led ones NOT_MINE when the name is not theirs. */
enum { NOT_MINE = 1 };

/* A raw word 0x...; i is at its first digit */
static int asm_raw(ps *p, size_t i, uint32_t *word) {
  size_t j = skip_alnum(p, i);
  if (!(j - i > 2 && p->s[i] == '0' && (p->s[i + 1] == 'x' || p->s[i + 1] == 'X'))) {
    sbuf b; err_begin(p->err, i, &b);
    sb_str(&b, "expected a mnemonic or a raw 0x word, got "); sb_tok(&b, p->s + i, j - i);
    return -1;
  }
  uint32_t v;
  if (parse_number(p, i, j, &v)) return -1;
  size_t k = skip_ws(p, j);
  if (k < p->n) {
    sbuf b; err_begin(p->err, k, &b);
    sb_str(&b, "unexpected "); sb_tok(&b, p->s + k, 1); sb_str(&b, " after raw word");
    return -1;
  }
  *word = v;
  return 0;
}

/* Macro syntax: the name [i, j) is TT_OP_X, TTI_X or TT_X */
/* The first of prefixes pre[0..n) (case-insensitive) that t[0..tn) starts with and whose rest
 * lookup knows: lookup's index, or -1. */
static int by_prefixed_name(const char *t, size_t tn, const char *const *pre, size_t n,
                            int (*lookup)(const char *name, size_t len)) {
  for (size_t k = 0; k < n; k++) {
    size_t pl = strlen(pre[k]);
    int r = tn > pl && ipre(t, tn, pre[k]) ? lookup(t + pl, tn - pl) : -1;
    if (r >= 0) return r;
  }
  return -1;
}

static int asm_macro_name(ps *p, size_t i, size_t j, uint32_t *word) {
  static const char *const macro_pre[] = {"TT_OP_", "TTI_", "TT_"};
  int m = by_prefixed_name(p->s + i, j - i, macro_pre, sizeof macro_pre / sizeof macro_pre[0], tt_mnem_by_name);
  return m >= 0 ? asm_macro(p, j, (unsigned)m, word) : NOT_MINE;
}

/* "MNEMONIC has N forms; name one (A, B)" at i */
static int err_forms(ps *p, size_t i, int mn) {
  unsigned fst, nf = tt_mnem_forms((unsigned)mn, &fst);
  sbuf b; err_begin(p->err, i, &b);
  sb_str(&b, tt_isa_mnems[mn].name); sb_str(&b, " has "); sb_dec(&b, nf);
  sb_str(&b, " forms; name one (");
  for (unsigned f = fst; f < fst + nf; f++) {
    if (f != fst) sb_str(&b, ", ");
    sb_str(&b, tt_isa_forms[f].name);
  }
  sb_str(&b, ")");
  return -1;
}

/* A plain mnemonic or form name [i, j) (form and mn: what it names, -1 when nothing), with
 * named (field=value) or positional operands. */
static int asm_plain(ps *p, size_t i, size_t j, int form, int mn, uint32_t *word) {
  size_t k = skip_ws(p, j);
  int named = 0;
  if (k < p->n && tt_ch_alpha(p->s[k])) {
    size_t e = skip_ws(p, skip_alnum(p, k));
    named = e < p->n && p->s[e] == '=';
  }
  unsigned lfirst;
  /* A bare name: a mnemonic without TT_LLK rows takes no operands (positional, exact);
   * otherwise a form name, or a mnemonic with one form, is a named form with all fields 0. */
  if (k >= p->n && mn >= 0 && tt_mnem_llk((unsigned)mn, &lfirst) == 0)
    return asm_positional(p, j, (unsigned)mn, word);
  if (k >= p->n && form >= 0) named = 1;
  if (k >= p->n && mn >= 0 && form < 0) {
    unsigned fst, nf = tt_mnem_forms((unsigned)mn, &fst);
    if (nf == 1) { form = (int)fst; named = 1; }
  }
  if (named) {
    if (form < 0) {
      unsigned fst, nf = tt_mnem_forms((unsigned)mn, &fst);
      if (nf != 1) return err_forms(p, i, mn);
      form = (int)fst;
    }
    return asm_named(p, j, (unsigned)form, word);
  }
  if (mn < 0) {
    sbuf b; err_begin(p->err, k, &b);
    sb_str(&b, "expected field=value operands for form "); sb_str(&b, tt_isa_forms[form].name);
    return -1;
  }
  if (j < p->n && !tt_ch_ws(p->s[j])) return err_unexpected(p, j);
  return asm_positional(p, j, (unsigned)mn, word);
}

/* objdump form tt<mnemonic> */
static int asm_objdump(ps *p, size_t i, size_t j, uint32_t *word) {
  const char *t = p->s + i;
  size_t tn = j - i;
  if (!(tn > 2 && ipre(t, tn, "tt"))) return NOT_MINE;
  int m = tt_mnem_by_name(t + 2, tn - 2);
  if (m < 0) return NOT_MINE;
  if (j < p->n && !tt_ch_ws(p->s[j])) return err_unexpected(p, j);
  return asm_positional(p, j, (unsigned)m, word);
}

/* Foreign instruction names (raw words only): the error, or NOT_MINE */
static int asm_foreign(ps *p, size_t i, size_t j) {
  static const char *const fpre[] = {"", "TT_OP_", "TTI_", "TT_", "tt"};
  int fg = by_prefixed_name(p->s + i, j - i, fpre, sizeof fpre / sizeof fpre[0], tt_foreign_by_name);
  if (fg < 0) return NOT_MINE;
  sbuf b; err_begin(p->err, i, &b);
  sb_str(&b, tt_isa_foreign[fg].name);
  sb_str(&b, " is outside the model; write it as a raw 0x word");
  return -1;
}

int tt_asm_insn(const char *text, size_t len, uint32_t *word, tt_asm_error *err) {
  tt_asm_error dummy;
  uint32_t wtmp = 0;
  if (!err) err = &dummy;
  if (!word) word = &wtmp;
  err->col = 0;
  err->msg[0] = 0;
  ps p = {text, text ? len : 0, err};
  size_t i = skip_ws(&p, 0);
  while (p.n > i && tt_ch_ws(p.s[p.n - 1])) p.n--;
  if (i >= p.n) return err_msg(&p, i, "empty instruction");
  if (tt_ch_digit(p.s[i])) return asm_raw(&p, i, word);
  if (!tt_ch_alpha(p.s[i])) return err_unexpected(&p, i);
  size_t j = skip_alnum(&p, i);
  int r = asm_macro_name(&p, i, j, word);
  if (r != NOT_MINE) return r;
  int form = tt_form_by_name(p.s + i, j - i), mn = tt_mnem_by_name(p.s + i, j - i);
  if (form >= 0 || mn >= 0) return asm_plain(&p, i, j, form, mn, word);
  if ((r = asm_objdump(&p, i, j, word)) != NOT_MINE) return r;
  if ((r = asm_foreign(&p, i, j)) != NOT_MINE) return r;
  sbuf b; err_begin(err, i, &b);
  sb_str(&b, "unknown mnemonic "); sb_tok(&b, p.s + i, j - i);
  return -1;
}

/* ---- 7. disassembler ---------------------------------------------------------------------- */
size_t tt_disasm(uint32_t word, tt_dis_style style, char *buf, size_t n) {
  char tmp[256];
  sbuf b = {tmp, sizeof tmp, 0};
  tt_insn in;
  tt_decode(word, &in);
  int raw = in.form >= TT_FORM_FOREIGN;
  if (!raw) {
    const uint32_t payload = word & 0xFFFFFFu;
    switch (style) {
    case TT_DIS_OBJDUMP:
    case TT_DIS_UPPER: {
      unsigned first, nl = tt_mnem_llk(in.mnem, &first);
      uint32_t bits = 0;
      for (unsigned k = 0; k < nl; k++) bits |= ASM_MASK(tt_isa_llk[first + k].width) << tt_isa_llk[first + k].lsb;
      if (payload & ~bits) { raw = 1; break; }
      if (style == TT_DIS_OBJDUMP) { sb_str(&b, "tt"); sb_lower(&b, tt_isa_mnems[in.mnem].name); }
      else sb_str(&b, tt_isa_mnems[in.mnem].name);
      for (unsigned k = 0; k < nl; k++) {
        const tt_llk_desc *l = &tt_isa_llk[first + k];
        uint32_t v = (word >> l->lsb) & ASM_MASK(l->width);
        sb_str(&b, k ? ", " : " ");
        if (style == TT_DIS_OBJDUMP) sb_dec(&b, v); else sb_num(&b, v);
      }
      break;
    }
    case TT_DIS_NAMED: {
      if (in.reserved) { raw = 1; break; }
      const tt_form_desc *fd = &tt_isa_forms[in.form];
      sb_str(&b, fd->name);
      for (unsigned k = 0; k < fd->field_count; k++) {
        const tt_field_desc *fl = &tt_isa_fields[fd->field_first + k];
        sb_ch(&b, ' '); sb_str(&b, fl->name); sb_ch(&b, '=');
        sb_num(&b, (word >> fl->lsb) & ASM_MASK(fl->width));
      }
      break;
    }
    default:
      raw = 1;
      break;
    }
  }
  if (raw) { b.len = 0; sb_hex(&b, word, 8); }
  if (n) {
    size_t k = b.len < n - 1 ? b.len : n - 1;
    if (k > sizeof tmp - 1) k = sizeof tmp - 1;
    memcpy(buf, tmp, k);
    buf[k] = 0;
  }
  return b.len;
}
