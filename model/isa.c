/* isa.c — tables, decoder and encoder expanded from isa.def and foreign.def.
 * Reference: spec-digest §4.0 (opcode map); field positions from the ISA pages and
 * tt-isa-documentation Diagrams/Src/Bits32.lua. */
#include "isa.h"
#include "chars.h"
#include <string.h>

#define TT_MASK(w) ((uint32_t)(((uint64_t)1 << (w)) - 1u))

#include "defects.h"


/* ---- field table ------------------------------------------------------------------------ */
#define TT_FIELD(F, name, lsb, w, kind, alias) {#name, alias, lsb, w, kind},
const tt_field_desc tt_isa_fields[] = {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
};
#undef TT_FIELD
const size_t tt_isa_field_count = sizeof tt_isa_fields / sizeof tt_isa_fields[0];

/* Per-form constants: TT_NF_<F> field count, TT_FB_<F> union of field bits,
 * TT_FW_<F> sum of widths, TT_DM_<F> discriminator mask. */
#define TT_FORM(ID, mn, dm, dv) enum { TT_DM_##ID = (dm), TT_NF_##ID = 0
#define TT_FIELD(F, name, lsb, w, kind, alias) + 1
#define TT_END(F) };
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
#undef TT_FIELD
#undef TT_END
#define TT_FORM(ID, mn, dm, dv) enum { TT_FB_##ID = 0
#define TT_FIELD(F, name, lsb, w, kind, alias) | (int)(TT_MASK(w) << (lsb))
#define TT_END(F) };
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
#undef TT_FIELD
#undef TT_END
#define TT_FORM(ID, mn, dm, dv) enum { TT_FW_##ID = 0
#define TT_FIELD(F, name, lsb, w, kind, alias) + (w)
#define TT_END(F) };                                                                         \
  _Static_assert(TT_FW_##F == __builtin_popcount(TT_FB_##F), #F ": fields overlap");        \
  _Static_assert((TT_FB_##F & TT_DM_##F) == 0, #F ": a field covers a discriminator bit");  \
  _Static_assert((TT_FB_##F & ~0xFFFFFF) == 0, #F ": a field leaves the payload");
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
#undef TT_FIELD
#undef TT_END

/* First field index of each form. */
#define TT_FORM(ID, mn, dm, dv) TT_FIRST_##ID, TT_LAST_##ID = TT_FIRST_##ID + TT_NF_##ID - 1,
enum {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  TT_FIELDS_TOTAL
};
#undef TT_FORM
_Static_assert(TT_FIELDS_TOTAL == sizeof tt_isa_fields / sizeof tt_isa_fields[0], "fields");

/* ---- form, mnemonic, LLK and foreign tables ---------------------------------------------- */
#define TT_FORM(ID, mn, dm, dv) {#ID, TT_MN_##mn, dm, dv, (uint32_t)TT_FB_##ID, TT_FIRST_##ID, TT_NF_##ID, \
                                 (uint8_t)(sizeof #ID - 1)},
const tt_form_desc tt_isa_forms[TT_FORM_FOREIGN] = {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
};
#undef TT_FORM

/* First form / LLK row of each mnemonic: a mnemonic's enumerator takes the current count and
 * then steps the counter back, so it equals the index of the row that follows it. */
#define TT_MNEM(ID, op, unit, block) TT_SEQF_##ID, TT_SEQFX_##ID = TT_SEQF_##ID - 1,
#define TT_FORM(ID, mn, dm, dv) TT_SEQF_FORM_##ID,
enum {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  TT_SEQF_END
};
#define TT_MNEM(ID, op, unit, block) TT_SEQL_##ID, TT_SEQLX_##ID = TT_SEQL_##ID - 1,
#define TT_LLK(M, name, lsb, w) TT_SEQL_LLK_##M##_##name,
enum {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  TT_SEQL_END
};
#define TT_MNEM(ID, op, unit, block) {#ID, op, unit, block, TT_SEQF_##ID, TT_SEQL_##ID, (uint8_t)(sizeof #ID - 1)},
const tt_mnem_desc tt_isa_mnems[TT_MNEM_COUNT] = {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
};
#undef TT_MNEM

#define TT_LLK(M, name, lsb, w) {#name, TT_MN_##M, lsb, w},
const tt_llk_desc tt_isa_llk[] = {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
};
#undef TT_LLK
const size_t tt_isa_llk_count = sizeof tt_isa_llk / sizeof tt_isa_llk[0];

/* Foreign rows: FRONTEND never caught; NOTABLE caught only by a full mask, like NOP (our
 * reading of "all bits set blocks everything", AMB-28). */
#define TT_FOREIGN(NAME, op, block, kind) \
  {#NAME, op, (kind) == TT_FG_GATE ? (block) : (kind) == TT_FG_NOTABLE ? TT_BLOCK_NOP : 0, kind, \
   (uint8_t)(sizeof #NAME - 1)},
const tt_foreign_desc tt_isa_foreign[TT_FOREIGN_COUNT] = {
#include "foreign.def"
};
#undef TT_FOREIGN

/* ---- lookups ------------------------------------------------------------------------------ */
/* Opcode -> row + 1 (0: none), built at compile time; each opcode occurs once per table (the
 * unit test checks the tables are sorted and disjoint). */
#define TT_MNEM(ID, op, unit, block) [op] = TT_MN_##ID + 1,
static const uint8_t mnem_of_opcode[256] = {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
};
#define TT_FOREIGN(NAME, op, block, kind) [op] = TT_FG_ID_##NAME + 1,
static const uint8_t foreign_of_opcode[256] = {
#include "foreign.def"
};
#undef TT_FOREIGN

int tt_mnem_by_opcode(uint8_t opcode) { return (int)mnem_of_opcode[opcode] - 1; }

int tt_foreign_by_opcode(uint8_t opcode) { return (int)foreign_of_opcode[opcode] - 1; }

unsigned tt_mnem_forms(unsigned mnem, unsigned *first) {
  unsigned f = tt_isa_mnems[mnem].form_first, n = 0;
  *first = f;
  while (f + n < TT_FORM_FOREIGN && tt_isa_forms[f + n].mnem == mnem) n++;  /* <= 3 rows */
  return n;
}

unsigned tt_mnem_llk(unsigned mnem, unsigned *first) {
  unsigned f = tt_isa_mnems[mnem].llk_first, n = 0;
  *first = f;
  while (f + n < tt_isa_llk_count && tt_isa_llk[f + n].mnem == mnem) n++;  /* <= 7 rows */
  return n;
}

/* Quick reject before name_eq: the length, and the first letter (table names are upper case). */
static int cannot_match(const char *a, size_t len, const char *b, size_t blen) {
  return len != blen || tt_ch_upper(a[0]) != b[0];
}

static int name_eq(const char *a, const char *b, size_t len) {
  size_t i = 0;
  for (; i < len; i++) {
    if (b[i] == 0 || tt_ch_upper(a[i]) != tt_ch_upper(b[i])) return 0;
  }
  return b[i] == 0;
}

int tt_form_by_name(const char *name, size_t len) {
  if (!len) return -1;
  for (unsigned f = 0; f < TT_FORM_FOREIGN; f++)
    if (!cannot_match(name, len, tt_isa_forms[f].name, tt_isa_forms[f].name_len) && name_eq(name, tt_isa_forms[f].name, len))
      return (int)f;
  return -1;
}

int tt_mnem_by_name(const char *name, size_t len) {
  if (!len) return -1;
  for (unsigned m = 0; m < TT_MNEM_COUNT; m++)
    if (!cannot_match(name, len, tt_isa_mnems[m].name, tt_isa_mnems[m].name_len) && name_eq(name, tt_isa_mnems[m].name, len))
      return (int)m;
  return -1;
}

int tt_foreign_by_name(const char *name, size_t len) {
  if (!len) return -1;
  for (unsigned m = 0; m < TT_FOREIGN_COUNT; m++)
    if (!cannot_match(name, len, tt_isa_foreign[m].name, tt_isa_foreign[m].name_len) && name_eq(name, tt_isa_foreign[m].name, len))
      return (int)m;
  return -1;
}

const char *tt_form_name(unsigned form) {
  if (form < TT_FORM_FOREIGN) return tt_isa_forms[form].name;
  return form == TT_FORM_FOREIGN ? "FOREIGN" : "UNDEFINED";
}

const char *tt_insn_name(const tt_insn *in) {
  if (in->form < TT_FORM_FOREIGN) return tt_isa_mnems[in->mnem].name;
  if (in->form == TT_FORM_FOREIGN) return tt_isa_foreign[in->foreign].name;
  return "UNDEFINED";
}

/* ---- decoder ------------------------------------------------------------------------------ */
/* The array view tt_insn.a.v covers every form's struct exactly: the word, then its fields. */
#define TT_FORM(ID, mn, dm, dv) \
  _Static_assert(TT_NF_##ID <= TT_ARGS_FIELDS, #ID ": more fields than TT_ARGS_FIELDS");       \
  _Static_assert(sizeof(tt_args_##ID) == sizeof(uint32_t) * (1 + TT_NF_##ID), #ID ": padding"); \
  _Static_assert(((dm) & ~0xFFFFFFu) == 0 && ((dv) & ~(uint32_t)(dm)) == 0, #ID ": discriminator leaves the payload");
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
_Static_assert(TT_FOREIGN_COUNT <= 256, "tt_insn.foreign is 8 bits");

/* Per opcode, everything the decoder writes that does not depend on the word's fields, as
 * constants expanded from the tables (a 256-entry opcode -> entry table): form, mnemonic,
 * foreign id, scheduler flags (TT_IF_*, without TT_IF_RESERVED), block bits, the discriminator
 * and the mask of its reserved payload bits. An in-model opcode's entry is its first form; a
 * word that fails that form's discriminator, or has an undefined opcode, takes the rare path
 * (decode_other: the mnemonic's other forms, at most 3, else undefined). */
#define TT_MNEM(ID, op, unit, block) TT_MU_##ID = (unit), TT_MB_##ID = (block), TT_OPC_##ID = (op),
enum {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  TT_MU_END
};
/* An entry (tt_op_entry, isa.h): the head of the decode (form, mnemonic, foreign id, scheduler
 * flags without TT_IF_RESERVED, block bits), the discriminator (disc_value with TT_OP_VALID
 * set: a zero entry, an undefined opcode, never matches) and the mask of its reserved payload
 * bits. */
#define OP_VALID TT_OP_VALID
#define HEAD_FLAGS(ID, mn)                                                              \
  (((unsigned)TT_MU_##mn == (unsigned)TT_UNIT_THCON ? TT_IF_THCON : 0u) |                                  \
   (TT_FORM_##ID == TT_FORM_ATGETM || TT_FORM_##ID == TT_FORM_ATRELM ? TT_IF_SYNC_GATE : 0u) | \
   (TT_FORM_##ID == TT_FORM_ATCAS || TT_FORM_##ID == TT_FORM_ATINCGETPTR ? TT_IF_SPIN : 0u))
#define FORM_RESERVED(ID, dm) (0xFFFFFFu & ~((uint32_t)TT_FB_##ID | (dm)))
#define FORM_HEAD(ID, mn, dm, dv)                                                                 \
  {TT_FORM_##ID, TT_MN_##mn, 0, HEAD_FLAGS(ID, mn), TT_MB_##mn,                                   \
   dm, (dv) | OP_VALID, FORM_RESERVED(ID, dm), (dm) | FORM_RESERVED(ID, dm),                      \
   (HEAD_FLAGS(ID, mn) & (TT_IF_SYNC_GATE | TT_IF_SPIN)) ? 0u : (dv) | OP_VALID, 0}
/* Entries 0..255 by opcode; entry 256 + f is form f when it is not its mnemonic's first form
 * (the index expression places each form exactly once); the last entry is the undefined one. */
#define TT_FORM(ID, mn, dm, dv) \
  [(int)TT_FORM_##ID == (int)TT_SEQF_##mn ? TT_OPC_##mn : 256 + TT_FORM_##ID] = FORM_HEAD(ID, mn, dm, dv),
#define TT_FOREIGN(NAME, op, block, kind)                                                         \
  [op] = {TT_FORM_FOREIGN, TT_MNEM_COUNT, TT_FG_ID_##NAME, TT_IF_NOT_FORM,                        \
          (kind) == TT_FG_GATE ? (block) : (kind) == TT_FG_NOTABLE ? TT_BLOCK_NOP : 0,            \
          0, OP_VALID, 0, 0, OP_VALID, 0},
const tt_op_entry tt_isa_ops[TT_OP_ENTRIES] = {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#include "foreign.def"
  [TT_OP_ENTRIES - 1] = {TT_FORM_UNDEFINED, TT_MNEM_COUNT, 0, TT_IF_NOT_FORM, TT_BLOCK_NOP, 0, OP_VALID, 0, 0, OP_VALID, 0},
};
#undef TT_FOREIGN
#define undefined_head (tt_isa_ops[TT_OP_ENTRIES - 1])
#define op_heads tt_isa_ops
typedef tt_op_entry op_head;
/* tt_op_entry's head is tt_insn's from its byte 4 on, copied as one 8-byte block. */
_Static_assert(offsetof(tt_insn, form) == 4 && offsetof(tt_insn, mnem) == 6 &&
               offsetof(tt_insn, foreign) == 8 && offsetof(tt_insn, flags) == 9 &&
               offsetof(tt_insn, block_bits) == 10 && offsetof(tt_insn, reserved) == 12 &&
               offsetof(tt_op_entry, disc_mask) == 8, "tt_op_entry head layout");
_Static_assert(sizeof(tt_op_entry) == 32, "tt_op_entry is 32 bytes (a shift to index)");

/* Write the whole decode of `word` from its entry `h`: the head, then the word and the fields
 * (straight-line per form, one shift and mask each, expanded from the table; the slots past a
 * form's fields are zero). */
static inline void fill(const op_head *h, uint32_t word, tt_insn *out) {
  tt_fill_head(h, word, out);
  memset(&out->a, 0, sizeof out->a);
  out->a.v[0] = word;
  uint32_t *v = out->a.v;
  switch ((tt_form)h->form) {
#define TT_FORM(ID, mn, dm, dv) case TT_FORM_##ID: {  unsigned k = 1;
#define TT_FIELD(F, name, lsb, w, kind, alias) v[k++] = (word >> (lsb)) & TT_MASK(w);
#define TT_END(F) (void)k; return; }
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  case TT_FORM_FOREIGN: case TT_FORM_UNDEFINED: case TT_FORM_COUNT: break;
  }
}

/* The entry of a word whose opcode entry does not take it: an undefined opcode, or an
 * in-model opcode whose first form's discriminator fails (then its other forms, else
 * undefined). */
const tt_op_entry *tt_op_other(uint32_t word) {
  const op_head *h = &op_heads[word >> 24];
  uint32_t payload = word & 0xFFFFFFu;
  if ((h->disc_value & OP_VALID) && h->form < TT_FORM_FOREIGN) {
    for (unsigned f = h->form + 1u; f < TT_FORM_FOREIGN && tt_isa_forms[f].mnem == h->mnem; f++) {
      if (((payload & op_heads[256 + f].disc_mask) | OP_VALID) == op_heads[256 + f].disc_value)
        return &op_heads[256 + f];  /* f > first form: <= 2 more rows */
    }
  }
  return &undefined_head;
}

void tt_decode(uint32_t word, tt_insn *out) { fill(tt_op_of(word), word, out); }

void tt_decode_head_other(uint32_t word, tt_insn *out) {
  const op_head *h = tt_op_other(word);
  tt_fill_head(h, word, out);
  tt_form_edge(h->form);
}

unsigned tt_insn_fields(const tt_insn *in, uint32_t *values, unsigned max) {
  if (in->form >= TT_FORM_FOREIGN) return 0;
  const tt_form_desc *fd = &tt_isa_forms[in->form];
  unsigned n = 0;
  for (unsigned i = 0; i < fd->field_count && n < max; i++) {
    const tt_field_desc *f = &tt_isa_fields[fd->field_first + i];
    values[n++] = (in->word >> f->lsb) & TT_MASK(f->width);
  }
  return n;
}

int tt_encode(tt_form form, const uint32_t *values, unsigned count, uint32_t *word,
              unsigned *bad_field) {
  if ((unsigned)form >= TT_FORM_FOREIGN) return -1;
  const tt_form_desc *fd = &tt_isa_forms[form];
  uint32_t w = ((uint32_t)tt_isa_mnems[fd->mnem].opcode << 24) | fd->disc_value;
  for (unsigned i = 0; i < fd->field_count; i++) {
    const tt_field_desc *f = &tt_isa_fields[fd->field_first + i];
    uint32_t v = i < count ? values[i] : 0;
    if (v & ~TT_MASK(f->width)) {
      if (bad_field) *bad_field = i;
      return -1;
    }
    if (TT_DEFECT(ENCODE_DROPS_LSB) && i + 1 == fd->field_count) v &= ~1u;
    w |= v << f->lsb;
  }
  *word = w;
  return 0;
}

uint32_t tt_reencode(const tt_insn *in) {
  if (in->form >= TT_FORM_FOREIGN) return in->word;
  uint32_t values[16], w = 0;
  unsigned n = tt_insn_fields(in, values, 16);
  if (tt_encode((tt_form)in->form, values, n, &w, NULL) != 0) return ~in->word;
  return w;
}
