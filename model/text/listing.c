/* listing.c — one thread's instruction listing: stream file, SFPI objdump text or assembler
 * syntax (see listing.h). No stdio, no allocation; every loop is bounded by the text length
 * or TT_PROG_MAX. */
#include <string.h>
#include "listing.h"
#include "asm.h"
#include "vec_sb.h"
#include "chars.h"

static int all_hex(const char *p, const char *e) {
  if (p >= e) return 0;
  for (; p < e; p++)
    if (tt_ch_hexval(*p) < 0) return 0;
  return 1;
}
static uint32_t hex32(const char *p, const char *e) {
  uint32_t v = 0;
  for (; p < e; p++) v = v << 4 | (uint32_t)tt_ch_hexval(*p);
  return v;
}
static int ipre(const char *p, const char *e, const char *pre) {
  size_t n = strlen(pre);
  if ((size_t)(e - p) < n) return 0;
  for (size_t i = 0; i < n; i++)
    if (tt_ch_lower(p[i]) != tt_ch_lower(pre[i])) return 0;
  return 1;
}
static const char *tok_end(const char *p, const char *e) {
  while (p < e && !tt_ch_space(*p)) p++;
  return p;
}
static const char *skip(const char *p, const char *e) {
  while (p < e && tt_ch_space(*p)) p++;
  return p;
}

/* SFPI objdump spells Tensix instructions tt<name> or sfp<name>; RISC-V mnemonics never start so. */
static int tensix_mnemonic(const char *p, const char *e) {
  return (e - p > 2 && ipre(p, e, "tt")) || (e - p > 3 && ipre(p, e, "sfp"));
}

static uint32_t rotr2(uint32_t h) { return h >> 2 | h << 30; }

typedef struct lctx {
  tt_listing *out;
  tt_listing_error *err;
  const char *ls;
  unsigned line;
} lctx;

static sb err_begin(lctx *c, const char *at) {
  sb s;
  c->err->line = c->line;
  c->err->col = (unsigned)(at - c->ls) + 1;
  sb_init(&s, c->err->msg, sizeof c->err->msg);
  return s;
}

static int add(lctx *c, const char *at, uint32_t word, tt_listing_origin origin) {
  tt_listing *o = c->out;
  if (o->n >= TT_PROG_MAX) {
    sb s = err_begin(c, at);
    sb_str(&s, "more than ");
    sb_dec(&s, TT_PROG_MAX);
    sb_str(&s, " instructions in one thread");
    return -1;
  }
  o->word[o->n] = word;
  o->line[o->n] = c->line;
  o->origin[o->n] = (uint8_t)origin;
  if (origin == TT_LST_OPCODE_ONLY) o->opcode_only++;
  o->n++;
  return 0;
}

/* Foreign mnemonic (with or without tt / TT_OP_ / TTI_ prefix): its opcode, or -1. */
static int foreign_opcode(const char *p, const char *e) {
  static const char *const pre[] = {"", "TT_OP_", "TTI_", "tt"};
  const char *me = p;
  while (me < e && tt_ch_word(*me)) me++;
  for (size_t k = 0; k < sizeof pre / sizeof pre[0]; k++) {
    size_t pl = strlen(pre[k]);
    if ((size_t)(me - p) <= pl || !ipre(p, me, pre[k])) continue;
    int fg = tt_foreign_by_name(p + pl, (size_t)(me - p) - pl);
    if (fg >= 0) return tt_isa_foreign[fg].opcode;
  }
  return -1;
}

static int asm_text(lctx *c, const char *p, const char *e) {
  uint32_t w = 0;
  tt_asm_error ae;
  memset(&ae, 0, sizeof ae);
  if (tt_asm_insn(p, (size_t)(e - p), &w, &ae) == 0) return add(c, p, w, TT_LST_ASM);
  int op = foreign_opcode(p, e);
  if (op >= 0) return add(c, p, (uint32_t)op << 24, TT_LST_OPCODE_ONLY);
  unsigned col = ae.col ? ae.col - 1 : 0;
  if (col > (size_t)(e - p)) col = (unsigned)(e - p);
  sb s = err_begin(c, p + col);
  ae.msg[sizeof ae.msg - 1] = 0;
  sb_str(&s, ae.msg[0] ? ae.msg : "not an instruction");
  if (ae.msg[0] && !memcmp(ae.msg, "unknown mnemonic", 16))
    sb_str(&s, " (RISC-V lines are skipped only in objdump text with address columns)");
  return -1;
}

static int parse_line(lctx *c, const char *ls, const char *le) {
  const char *hash = memchr(ls, '#', (size_t)(le - ls));
  const char *e = hash ? hash : le, *p;
  c->ls = ls;
  for (const char *q = ls; q < le; q++) {
    unsigned char b = (unsigned char)*q;
    if ((b < 0x20 && !tt_ch_space((char)b)) || b == 0x7F) {
      sb s = err_begin(c, q);
      sb_str(&s, b == 0 ? "NUL byte" : "control character");
      sb_str(&s, " (byte ");
      sb_hex(&s, b, 2);
      sb_str(&s, ")");
      return -1;
    }
  }
  while (e > ls && tt_ch_space(e[-1])) e--;
  p = skip(ls, e);
  if (p == e) return 0;
  /* objdump's own lines */
  if (ipre(p, e, "Disassembly of section") || (e - p >= 3 && !memcmp(p, "...", 3))) {
    c->out->skipped_other++;
    return 0;
  }
  for (const char *q = p; q + 11 <= e; q++)
    if (!memcmp(q, "file format", 11)) { c->out->skipped_other++; return 0; }
  const char *t1e = tok_end(p, e);
  /* "00006290 <_start>:" */
  if (all_hex(p, t1e) && t1e < e) {
    const char *q = skip(t1e, e);
    if (q < e && *q == '<' && e[-1] == ':') { c->out->skipped_other++; return 0; }
  }
  /* "6494:  9a84002a  ttsemwait 322,2,2" */
  if (t1e - p >= 2 && t1e[-1] == ':' && all_hex(p, t1e - 1)) {
    const char *h = skip(t1e, e), *he = tok_end(h, e);
    if (h == e) { c->out->skipped_other++; return 0; }
    if (!all_hex(h, he) || (he - h != 8 && he - h != 4)) {
      sb s = err_begin(c, h);
      sb_str(&s, "expected the hex column (4 or 8 hex digits) after the address, got ");
      sb_quote(&s, h, (size_t)(he - h));
      return -1;
    }
    const char *m = skip(he, e), *me = tok_end(m, e);
    if (he - h == 8 && tensix_mnemonic(m, me)) return add(c, h, rotr2(hex32(h, he)), TT_LST_OBJDUMP);
    c->out->skipped_riscv++;
    return 0;
  }
  /* "a2040400  sync STALLWAIT ..." (stream file) or "9a84002a  ttsemwait ..." (objdump, no
   * address) */
  if (t1e - p == 8 && all_hex(p, t1e)) {
    const char *m = skip(t1e, e), *me = tok_end(m, e);
    if (tensix_mnemonic(m, me)) return add(c, p, rotr2(hex32(p, t1e)), TT_LST_OBJDUMP);
    return add(c, p, hex32(p, t1e), TT_LST_HEX);
  }
  if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && t1e - p == 10 &&
      all_hex(p + 2, t1e))
    return add(c, p, hex32(p + 2, t1e), TT_LST_HEX);  /* 0xWORD, the rest (ttasm -d) unread */
  return asm_text(c, p, e);
}

int tt_listing_parse(const char *text, size_t len, tt_listing *out, tt_listing_error *err) {
  tt_listing_error dummy;
  lctx c;
  const char *p = text, *end = text + len;
  if (!err) err = &dummy;
  memset(err, 0, sizeof *err);
  out->n = out->lines = out->skipped_riscv = out->skipped_other = out->opcode_only = 0;
  if (!text) return 0;
  c.out = out;
  c.err = err;
  c.ls = text;
  c.line = 0;
  if (len >= 3 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
      (unsigned char)p[2] == 0xBF)
    p += 3;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    c.line++;
    if (parse_line(&c, p, le) != 0) return -1;
    p = nl ? nl + 1 : end;
  }
  out->lines = c.line;
  return 0;
}
