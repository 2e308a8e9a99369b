/* isa.h — types expanded from the one encoding table (isa.def) and the foreign-opcode table
 * (foreign.def): form and mnemonic enums, per-form argument structs, the decoded instruction,
 * and the table-driven decoder/encoder/name API. Part of the public API (included by tt.h). */
#ifndef TT_ISA_H
#define TT_ISA_H

#include <stdint.h>
#include <string.h>
#include <stddef.h>

/* Execution units an instruction can be sent to after its Wait Gate. */
typedef enum tt_unit {
  TT_UNIT_MISC,    /* NOP (Miscellaneous Unit) */
  TT_UNIT_THCON,   /* Scalar Unit */
  TT_UNIT_SYNC,    /* Sync Unit */
  TT_UNIT_CFG,     /* Configuration Unit */
  TT_UNIT_FOREIGN  /* any unit outside the model (matrix, vector, packer, ...) */
} tt_unit;

/* Field kinds: how the assembler, disassembler and fuzz mutators read a field. */
typedef enum tt_field_kind {
  TT_K_INT,        /* plain number */
  TT_K_REG,        /* GPR index 0..63 */
  TT_K_HALFREG,    /* 16-bit half-register index 0..127 */
  TT_K_CFG,        /* Config word index */
  TT_K_TCFG,       /* ThreadConfig word index */
  TT_K_BLOCK,      /* Wait Gate block mask (tt-llk p_stall::STALL_* names) */
  TT_K_STALLCOND,  /* STALLWAIT condition mask (p_stall condition names) */
  TT_K_SEMCOND,    /* SEMWAIT condition mask (p_stall::STALL_ON_ZERO / STALL_ON_MAX) */
  TT_K_SEMMASK,    /* semaphore bit mask (bit i = semaphore i) */
  TT_K_MUTEX       /* mutex index */
} tt_field_kind;

/* Block mask marker for NOP: caught only when every bit of the latched block mask is set. */
#define TT_BLOCK_NOP 0x200u
#define TT_BLOCK_ALL 0x1FFu

/* ---- expanded enums ------------------------------------------------------------------ */
#define TT_MNEM(ID, op, unit, block) TT_MN_##ID,
typedef enum tt_mnem {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  TT_MNEM_COUNT
} tt_mnem;
#undef TT_MNEM

#define TT_FORM(ID, mn, dm, dv) TT_FORM_##ID,
typedef enum tt_form {
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  TT_FORM_FOREIGN,     /* a documented Blackhole opcode of a unit outside the model */
  TT_FORM_UNDEFINED,   /* an opcode Blackhole does not define */
  TT_FORM_COUNT
} tt_form;
#undef TT_FORM

#define TT_FOREIGN(NAME, op, block, kind) TT_FG_ID_##NAME,
typedef enum tt_foreign_id {
#include "foreign.def"
  TT_FOREIGN_COUNT
} tt_foreign_id;
#undef TT_FOREIGN

/* Foreign-opcode kinds (foreign.def column 4). */
#define TT_FG_GATE 0      /* reaches the Wait Gate; block bits from the BH table */
#define TT_FG_FRONTEND 1  /* MOP, MOP_CFG, REPLAY, RESOURCEDECL: consumed before the gate */
#define TT_FG_NOTABLE 2   /* defined opcode with no row in the BH block table (AMB-28) */

/* ---- per-form argument structs: tt_args_<FORM>, first member the raw word --------------- */
#define TT_FORM(ID, mn, dm, dv) typedef struct tt_args_##ID { uint32_t word;
#define TT_FIELD(F, name, lsb, w, kind, alias) uint32_t name;
#define TT_END(F) } tt_args_##F;
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
#undef TT_FIELD
#undef TT_END

/* Every per-form argument struct is the raw word and then at most TT_ARGS_FIELDS fields, all
 * uint32_t in table order: the decoder fills them as an array (tt_insn.a.v; isa.c checks). */
#define TT_ARGS_FIELDS 7

/* tt_insn.flags, set by the decoder: an instruction with none of them set needs no gate check
 * beyond the latch, never spins and has no reserved bit, so a scheduler may pass it straight to
 * its executor (run.c's common path). */
#define TT_IF_SYNC_GATE 0x01u  /* ATGETM/ATRELM: the mutex gate (tt_sync_gate) */
#define TT_IF_SPIN 0x02u       /* ATCAS/ATINCGETPTR: may retry (TT_EXEC_RETRY) */
#define TT_IF_THCON 0x04u      /* an in-model ThCon instruction (held by another thread's spin) */
#define TT_IF_RESERVED 0x08u   /* reserved != 0 */
#define TT_IF_NOT_FORM 0x10u   /* foreign or undefined */

/* A decoded instruction. */
typedef struct tt_insn {
  uint32_t word;
  uint16_t form;        /* tt_form */
  uint16_t mnem;        /* tt_mnem, or TT_MNEM_COUNT for foreign/undefined */
  uint8_t foreign;      /* tt_foreign_id when form == TT_FORM_FOREIGN */
  uint8_t flags;        /* TT_IF_*: what the schedulers' common path must not skip */
  uint16_t block_bits;  /* Wait Gate bits that catch it (TT_BLOCK_NOP for NOP) */
  uint32_t reserved;    /* payload bits set outside every field and discriminator */
  union {
#define TT_FORM(ID, mn, dm, dv) tt_args_##ID ID;
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
    uint32_t v[1 + TT_ARGS_FIELDS];  /* the same bytes as an array: v[0] word, v[1 + i] field i */
  } a;
} tt_insn;

/* ---- fields read from the word ------------------------------------------------------------- */
/* Position and width of every field: TT_LSB_<FORM>_<field>, TT_WID_<FORM>_<field>. */
#define TT_FIELD(F, name, lsb, w, kind, alias) enum { TT_LSB_##F##_##name = (lsb), TT_WID_##F##_##name = (w) };
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FIELD
/* Field `name` of form F in `word` (one shift and one mask; no decode needed). */
#define TT_FIELD_OF(word, F, name) \
  (((uint32_t)(word) >> TT_LSB_##F##_##name) & (uint32_t)((1ull << TT_WID_##F##_##name) - 1u))
/* The same for a decoded instruction: what the model reads, since the decoded stream the
 * schedulers keep holds an instruction's head only (tt_decode_head), not tt_insn.a. */
#define TT_ARG(in, F, name) TT_FIELD_OF((in)->word, F, name)

/* tt_unpack_<FORM>(word): the form's argument struct from its word, straight-line (one shift
 * and mask per field, expanded from the table); an executor unpacks its own fields, so the
 * compiler computes only those it reads. */
#define TT_FORM(ID, mn, dm, dv) \
  static inline tt_args_##ID tt_unpack_##ID(uint32_t w) { tt_args_##ID a; a.word = w;
#define TT_FIELD(F, name, lsb, wd, kind, alias) a.name = (w >> (lsb)) & (uint32_t)((1ull << (wd)) - 1u);
#define TT_END(F) return a; }
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
#undef TT_FIELD
#undef TT_END

/* ---- table views ------------------------------------------------------------------------ */
typedef struct tt_field_desc {
  const char *name;     /* ISA field name, snake_case */
  const char *alias;    /* tt-llk field name */
  uint8_t lsb, width;
  uint8_t kind;         /* tt_field_kind */
} tt_field_desc;

typedef struct tt_form_desc {
  const char *name;     /* e.g. "SETDMAREG_IMM" */
  uint16_t mnem;        /* tt_mnem */
  uint32_t disc_mask, disc_value;
  uint32_t field_bits;  /* union of field masks */
  uint16_t field_first, field_count;  /* slice of tt_isa_fields[] */
  uint8_t name_len;     /* strlen(name) */
} tt_form_desc;

typedef struct tt_mnem_desc {
  const char *name;     /* e.g. "SETDMAREG" */
  uint8_t opcode;
  uint8_t unit;         /* tt_unit */
  uint16_t block_bits;
  uint16_t form_first;  /* its first row in tt_isa_forms[] (rows of a mnemonic are contiguous) */
  uint16_t llk_first;   /* its first row in tt_isa_llk[] (== tt_isa_llk_count when none) */
  uint8_t name_len;     /* strlen(name) */
} tt_mnem_desc;

typedef struct tt_llk_desc { const char *name; uint16_t mnem; uint8_t lsb, width; } tt_llk_desc;

typedef struct tt_foreign_desc {
  const char *name; uint8_t opcode; uint16_t block_bits; uint8_t kind;
  uint8_t name_len;     /* strlen(name) */
} tt_foreign_desc;

extern const tt_mnem_desc tt_isa_mnems[TT_MNEM_COUNT];
extern const tt_form_desc tt_isa_forms[TT_FORM_FOREIGN];
extern const tt_field_desc tt_isa_fields[];
extern const size_t tt_isa_field_count;
extern const tt_llk_desc tt_isa_llk[];
extern const size_t tt_isa_llk_count;
extern const tt_foreign_desc tt_isa_foreign[TT_FOREIGN_COUNT];

/* ---- the decoder's table: one entry per opcode and per further form ------------------------ */
/* Entry [opcode] decodes the words of that opcode whose payload passes its discriminator (its
 * mnemonic's first form, or a foreign opcode); entry [256 + f] is form f when it is not its
 * mnemonic's first; the last entry is the undefined opcode's. An entry whose disc_value lacks
 * TT_OP_VALID (an undefined opcode) takes no word. Its first 8 bytes are tt_insn's head from
 * byte 4 on (isa.c checks). */
#define TT_OP_VALID 0x80000000u
#define TT_OP_ENTRIES (256 + TT_FORM_FOREIGN + 1)
typedef struct tt_op_entry {
  uint16_t form, mnem;
  uint8_t foreign, flags;   /* flags: TT_IF_* without TT_IF_RESERVED */
  uint16_t block_bits;
  uint32_t disc_mask, disc_value, reserved_mask;
  /* quick_mask = disc_mask | reserved_mask, and quick_value = disc_value for an entry whose
   * flags have none of TT_IF_SYNC_GATE and TT_IF_SPIN (else 0, which no word matches): a word w
   * has this entry's form, no reserved bit and none of those flags exactly when
   * ((w & quick_mask) | TT_OP_VALID) == quick_value (run.c's quick issue, one test) */
  uint32_t quick_mask, quick_value;
  uint32_t pad;
} tt_op_entry;
extern const tt_op_entry tt_isa_ops[TT_OP_ENTRIES];
/* Does entry e take `word` (its discriminator passes)? */
static inline int tt_op_takes(const tt_op_entry *e, uint32_t word) {
  return ((word & e->disc_mask) | TT_OP_VALID) == e->disc_value;
}
/* The entry of a word its opcode's entry does not take (another form, or undefined). */
const tt_op_entry *tt_op_other(uint32_t word);
/* The entry of the form after e's in e's mnemonic, for an entry of an in-model form: entry
 * 256 + form + 1, which holds that form when it is of the same mnemonic; when it is not (a
 * mnemonic's first form's slot, or e's form the last in-model one) the result is an entry that
 * takes no word (disc_value and quick_value 0). So a word that e's discriminator rejects and
 * that passes tt_op_next(e)'s quick test is that next form, as tt_op_other finds it (the forms
 * of a mnemonic are consecutive; test_isa_exhaustive checks both on every word). */
static inline const tt_op_entry *tt_op_next(const tt_op_entry *e) {
  static const tt_op_entry none = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  unsigned f = e->form + 1u;
  return f < TT_FORM_FOREIGN ? &tt_isa_ops[256 + f] : &none;
}
/* The entry that decodes `word`. */
static inline const tt_op_entry *tt_op_of(uint32_t word) {
  const tt_op_entry *e = &tt_isa_ops[word >> 24];
  return tt_op_takes(e, word) ? e : tt_op_other(word);
}

/* ---- a coverage hint ------------------------------------------------------------------------ */
/* tt_form_edge(form): no effect. In a build with coverage instrumentation (libFuzzer's
 * -fsanitize=fuzzer*, AFL++'s compilers) it is one empty block per form, each naming its form so
 * that none is merged away: the fuzzers see an edge for every form that reaches a thread's head,
 * as they did when every head went through the decoder's per-form field switch (the schedulers
 * call it where a head is issued quickly or fetched). Other builds compile nothing, so the
 * measured cost (make bench-insn) does not include it (reports/2026-11-26-model-speed-3.md). */
#if defined(__AFL_COMPILER)
#define TT_FORM_EDGES 1
#elif defined(__has_feature)
#if __has_feature(coverage_sanitizer)
#define TT_FORM_EDGES 1
#endif
#endif
#if defined(TT_FORM_EDGES)
#define TT_FORM_EDGE_CASE(F) case F: __asm__ volatile("" ::"i"(F)); break;
static inline void tt_form_edge(unsigned form) {
  switch (form) {
#define TT_FORM(ID, mn, dm, dv) TT_FORM_EDGE_CASE(TT_FORM_##ID)
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
#undef TT_FORM
  TT_FORM_EDGE_CASE(TT_FORM_FOREIGN)
  default: __asm__ volatile("" ::"i"(TT_FORM_UNDEFINED)); break;
  }
}
#undef TT_FORM_EDGE_CASE
#else
static inline void tt_form_edge(unsigned form) { (void)form; }
#endif

/* Decode any 32-bit word (total: every word gives exactly one result). */
void tt_decode(uint32_t word, tt_insn *out);
/* The head of a decode from entry e, which takes `word`: the entry's head (tt_op_entry's first
 * 8 bytes are tt_insn's from its byte 4 on; isa.c checks the layout), the word, the reserved bits
 * (and TT_IF_RESERVED when there are any); `a` is not written. */
static inline void tt_fill_head(const tt_op_entry *e, uint32_t word, tt_insn *out) {
  uint32_t res = word & e->reserved_mask;
  memcpy(&out->form, e, 8);
  out->word = word;
  out->reserved = res;
  out->flags = (uint8_t)(e->flags | (res ? TT_IF_RESERVED : 0u));
}
/* tt_decode_head of a word its opcode's entry does not take (isa.c: tt_op_other's entry). */
void tt_decode_head_other(uint32_t word, tt_insn *out);
/* The head of the decode only: every member but `a` (left as it was), what the schedulers keep
 * in their decoded stream; fields are read from the word (TT_ARG, tt_unpack_<FORM>). Inline:
 * the common case is one entry load, one test and the copy. */
static inline void tt_decode_head(uint32_t word, tt_insn *out) {
  const tt_op_entry *e = &tt_isa_ops[word >> 24];
  if (!tt_op_takes(e, word)) {
    tt_decode_head_other(word, out);
    return;
  }
  tt_fill_head(e, word, out);
  tt_form_edge(e->form);
}
/* Field values of a decoded in-model form, in table order; returns the count. */
unsigned tt_insn_fields(const tt_insn *in, uint32_t *values, unsigned max);
/* Encode a form from field values in table order. Returns 0 and sets *word, or -1 with
 * *bad_field set to the index of the first value that does not fit its width. */
int tt_encode(tt_form form, const uint32_t *values, unsigned count, uint32_t *word,
              unsigned *bad_field);
/* Re-encode a decoded instruction (encode(decode(w)) == w when w has no reserved bit). */
uint32_t tt_reencode(const tt_insn *in);
const char *tt_form_name(unsigned form);
const char *tt_insn_name(const tt_insn *in);  /* mnemonic, foreign name, or "UNDEFINED" */
/* Mnemonic lookup by opcode, or -1. */
int tt_mnem_by_opcode(uint8_t opcode);
/* Foreign lookup by opcode, or -1. */
int tt_foreign_by_opcode(uint8_t opcode);
/* Slices of the tables belonging to one mnemonic (rows of a mnemonic are contiguous). */
unsigned tt_mnem_forms(unsigned mnem, unsigned *first);
unsigned tt_mnem_llk(unsigned mnem, unsigned *first);
int tt_form_by_name(const char *name, size_t len);   /* exact, case-insensitive; or -1 */
int tt_mnem_by_name(const char *name, size_t len);   /* exact, case-insensitive; or -1 */
int tt_foreign_by_name(const char *name, size_t len);/* exact, case-insensitive; or -1 */

#endif
