/* decode_roundtrip.c — for every input word w (the input read as little-endian 32-bit words,
 * at most 256 per input; a .vec in the replay build gives its program words):
 *   roundtrip_text    tt_asm_insn(tt_disasm(w, style)) == w for each of the three styles
 *   roundtrip_fields  an in-model form re-encodes from its decoded fields to w without its
 *                     reserved bits, every field value fits its width, and decoding that word
 *                     gives the same form and field values. */
#include <string.h>
#include "asm.h"
#include "fz.h"

static const char *const invariants[] = {"roundtrip_text", "roundtrip_fields", NULL};
static const char *const style_name[3] = {"objdump", "upper", "named"};

FZ_BOOKKEEPING static void init(void) {}

FZ_BOOKKEEPING static int check_word(uint32_t w, fz_fail *f) {
  char buf[256];
  for (unsigned s = 0; s < 3; s++) {
    size_t len = tt_disasm(w, (tt_dis_style)s, buf, sizeof buf);
    FZ_CHECK(f, len > 0 && len < sizeof buf && strlen(buf) == len, "roundtrip_text",
             "tt_disasm(0x%08X, %s) returned length %zu", (unsigned)w, style_name[s], len);
    uint32_t back = 0;
    tt_asm_error e;
    memset(&e, 0, sizeof e);
    int r = tt_asm_insn(buf, len, &back, &e);
    FZ_CHECK(f, r == 0, "roundtrip_text", "0x%08X -> %s \"%s\" -> assembler error at column %u: %s",
             (unsigned)w, style_name[s], buf, e.col, e.msg);
    FZ_CHECK(f, back == w, "roundtrip_text", "0x%08X -> %s \"%s\" -> 0x%08X", (unsigned)w,
             style_name[s], buf, (unsigned)back);
  }
  tt_insn in, again;
  tt_decode(w, &in);
  if (in.form >= TT_FORM_FOREIGN) {
    FZ_CHECK(f, tt_reencode(&in) == w, "roundtrip_fields", "foreign/undefined 0x%08X re-encodes to 0x%08X",
             (unsigned)w, (unsigned)tt_reencode(&in));
    return 0;
  }
  uint32_t vals[16], vals2[16], enc = 0;
  unsigned bad = 0, n = tt_insn_fields(&in, vals, 16);
  const tt_form_desc *fd = &tt_isa_forms[in.form];
  FZ_CHECK(f, n == fd->field_count, "roundtrip_fields", "%s: %u field values for %u fields",
           fd->name, n, (unsigned)fd->field_count);
  FZ_CHECK(f, (in.reserved & ~0xFFFFFFu) == 0 && (in.reserved & (fd->field_bits | fd->disc_mask)) == 0,
           "roundtrip_fields", "0x%08X (%s): reserved mask 0x%X overlaps fields or opcode",
           (unsigned)w, fd->name, (unsigned)in.reserved);
  int r = tt_encode((tt_form)in.form, vals, n, &enc, &bad);
  FZ_CHECK(f, r == 0, "roundtrip_fields", "0x%08X (%s): decoded field %u (%s = 0x%X) does not fit its width",
           (unsigned)w, fd->name, bad, tt_isa_fields[fd->field_first + bad].name, (unsigned)vals[bad]);
  FZ_CHECK(f, enc == (w & ~in.reserved), "roundtrip_fields",
           "0x%08X (%s) -> fields -> 0x%08X, expected 0x%08X (the word without reserved bits 0x%06X)",
           (unsigned)w, fd->name, (unsigned)enc, (unsigned)(w & ~in.reserved), (unsigned)in.reserved);
  tt_decode(enc, &again);
  unsigned n2 = tt_insn_fields(&again, vals2, 16);
  FZ_CHECK(f, again.form == in.form && again.reserved == 0 && n2 == n &&
                  memcmp(vals, vals2, n * sizeof vals[0]) == 0,
           "roundtrip_fields", "0x%08X (%s) -> 0x%08X decodes as %s with different fields",
           (unsigned)w, fd->name, (unsigned)enc, tt_form_name(again.form));
  return 0;
}

FZ_BOOKKEEPING static int check_words(const uint32_t *w, size_t n, fz_fail *f) {
  for (size_t i = 0; i < n && i < 256; i++)
    if (check_word(w[i], f)) return 1;
  return 0;
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  uint32_t w[256];
  size_t k = 0;
  fz_fail_clear(f);
  for (size_t i = 0; i + 4 <= n && k < 256; i += 4)
    w[k++] = (uint32_t)d[i] | (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 | (uint32_t)d[i + 3] << 24;
  return check_words(w, k, f);
}

/* A program (from a .vec in the replay build): every word of every thread. */
FZ_BOOKKEEPING static int check_prog(const fz_prog *p, fz_fail *f) {
  fz_fail_clear(f);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (check_words(p->w[t], p->n[t], f)) return 1;
  return 0;
}

const fz_target fz_this_target = {"decode_roundtrip", invariants, 0, check_bytes, check_prog, init};

FZ_ENTRY_POINTS(init, check_bytes)
