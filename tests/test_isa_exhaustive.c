/* test_isa_exhaustive.c — the decoder over all 2^32 words, checked against an independent
 * reading of the tables, plus structural checks of isa.def / foreign.def.
 *
 * In-model opcodes (the only ones whose decode depends on the payload): tt_decode on every
 * word; the number of tt_isa_forms rows whose opcode and discriminator match must be exactly
 * 1 and tt_decode must pick that row; the reserved bits, the union members, tt_insn_fields,
 * the block bits and tt_reencode must agree with the table (tt_reencode(insn) == word
 * whenever insn.reserved == 0, and == word & ~reserved always).
 * Foreign/undefined opcodes: decoded once per opcode (FOREIGN iff tt_isa_foreign has the
 * opcode, else UNDEFINED; no form row may match), then every word of the opcode is checked
 * against that result: no form row matches, and tt_reencode of the decoded instruction with
 * the word substituted gives the word back; in addition tt_decode runs on every 16th word of
 * each such opcode and must give the per-opcode result. That sampling is the `--quick` mode
 * (or TT_EXHAUSTIVE_QUICK=1); the default runs tt_decode on all 2^32 words (about 2.5x the
 * quick run's time: ~100 s on two busy cores).
 * Failures are counted per opcode and CHECKed once per opcode. Two pthreads share the
 * opcodes. Sanitizer builds test every 65537th word only (they say so). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "isa.h"

#if defined(__SANITIZE_ADDRESS__)
#define TT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TT_SANITIZED 1
#endif
#endif
#ifndef TT_SANITIZED
#define TT_SANITIZED 0
#endif
#define STRIDE (TT_SANITIZED ? 65537u : 1u)

#define MASK(w) ((uint32_t)(((uint64_t)1 << (w)) - 1u))
#define MAXF 8   /* forms per opcode */
#define MAXFLD 16

/* Independent per-opcode view of the tables (linear scans, not the library lookups). */
typedef struct form_view {
  unsigned form, nfields;
  uint32_t disc_mask, disc_value, field_bits;
  uint8_t lsb[MAXFLD], width[MAXFLD];
} form_view;
typedef struct op_view {
  int mnem, foreign;
  unsigned nforms;
  uint16_t block;
  form_view f[MAXF];
} op_view;
static op_view ops[256];

typedef struct op_result {
  uint64_t words, inmodel, clean;  /* words tested, in-model words, words with reserved 0 */
  uint64_t decoded;                /* foreign/undefined words run through tt_decode */
  uint64_t bad_count, bad_form, bad_reserved, bad_fields, bad_reencode, bad_block, bad_other;
} op_result;
static op_result res[256];
static atomic_uint next_op;
static int full_mode;

static void build_views(void) {
  for (unsigned op = 0; op < 256; op++) {
    op_view *v = &ops[op];
    v->mnem = -1;
    v->foreign = -1;
    for (unsigned m = 0; m < TT_MNEM_COUNT; m++)
      if (tt_isa_mnems[m].opcode == op) v->mnem = (int)m;
    for (unsigned g = 0; g < TT_FOREIGN_COUNT; g++)
      if (tt_isa_foreign[g].opcode == op) v->foreign = (int)g;
    for (unsigned f = 0; f < TT_FORM_FOREIGN; f++) {
      const tt_form_desc *fd = &tt_isa_forms[f];
      if (tt_isa_mnems[fd->mnem].opcode != op) continue;
      if (v->nforms == MAXF) { v->nforms++; continue; }
      form_view *fv = &v->f[v->nforms++];
      fv->form = f;
      fv->disc_mask = fd->disc_mask;
      fv->disc_value = fd->disc_value;
      fv->nfields = fd->field_count > MAXFLD ? MAXFLD : fd->field_count;
      fv->field_bits = 0;
      for (unsigned i = 0; i < fv->nfields; i++) {
        const tt_field_desc *fl = &tt_isa_fields[fd->field_first + i];
        fv->lsb[i] = fl->lsb;
        fv->width[i] = fl->width;
        fv->field_bits |= MASK(fl->width) << fl->lsb;
      }
    }
    v->block = v->mnem >= 0 ? tt_isa_mnems[v->mnem].block_bits
             : v->foreign >= 0 ? tt_isa_foreign[v->foreign].block_bits : TT_BLOCK_NOP;
  }
}

/* The schedulers' decode (tt_decode_head) is tt_decode's head, and each form's tt_unpack_<F>
 * (what the executors read) is tt_decode's argument struct: 0 when both agree. */
static int head_or_unpack_differs(const tt_insn *in, uint32_t w) {
  tt_insn h;
  memset(&h, 0xA5, sizeof h);
  tt_decode_head(w, &h);
  if (memcmp(&h, in, offsetof(tt_insn, a)) != 0) return 1;
  /* the scheduler's one-test quick check (tt_op_entry.quick_mask/quick_value) takes exactly
   * the words its opcode's entry decodes with no reserved bit, no mutex gate and no spin */
  const tt_op_entry *e = &tt_isa_ops[w >> 24];
  int quick = ((w & e->quick_mask) | TT_OP_VALID) == e->quick_value;
  int want = tt_op_takes(e, w) && !(in->flags & (TT_IF_RESERVED | TT_IF_SYNC_GATE | TT_IF_SPIN));
  if (quick != want) return 1;
  /* tt_op_next (run.c's quick issue of other forms): a word the first form rejects and the next
   * entry's quick test takes is the form tt_op_other finds */
  if (!tt_op_takes(e, w) && e->form < TT_FORM_FOREIGN && (e->disc_value & TT_OP_VALID)) {
    const tt_op_entry *n = tt_op_next(e);
    if (((w & n->quick_mask) | TT_OP_VALID) == n->quick_value && tt_op_other(w) != n) return 1;
  }
  switch (in->form) {
#define TT_FORM(ID, mn, dm, dv) \
  case TT_FORM_##ID: { tt_args_##ID u = tt_unpack_##ID(w); return memcmp(&u, &in->a.ID, sizeof u) != 0; }
#include "isa_x.h"
#include "isa.def"
#include "isa_x_end.h"
  default: return 0;
  }
}

/* One word of an in-model opcode. */
static void check_model_word(const op_view *v, uint32_t w, op_result *r) {
  tt_insn in;
  uint32_t payload = w & 0xFFFFFFu;
  tt_decode(w, &in);
  if (head_or_unpack_differs(&in, w)) r->bad_fields++;
  r->words++;
  r->inmodel++;
  unsigned count = 0;
  const form_view *match = NULL;
  for (unsigned i = 0; i < v->nforms && i < MAXF; i++)
    if ((payload & v->f[i].disc_mask) == v->f[i].disc_value) { count++; match = &v->f[i]; }
  if (in.word != w) r->bad_other++;
  if (count != 1) { r->bad_count++; return; }
  if (in.form != match->form || in.mnem != (unsigned)v->mnem) { r->bad_form++; return; }
  uint32_t resv = payload & ~(match->field_bits | match->disc_mask);
  if (in.reserved != resv) r->bad_reserved++;
  const uint32_t *u = (const uint32_t *)&in.a;  /* tt_args_<F>: word, then the fields */
  int fbad = u[0] != w;
  for (unsigned i = 0; i < match->nfields; i++)
    if (u[1 + i] != ((w >> match->lsb[i]) & MASK(match->width[i]))) fbad = 1;
  uint32_t vals[MAXFLD];
  unsigned nv = tt_insn_fields(&in, vals, MAXFLD);
  if (nv != match->nfields) fbad = 1;
  for (unsigned i = 0; i < nv && i < match->nfields; i++)
    if (vals[i] != u[1 + i]) fbad = 1;
  if (fbad) r->bad_fields++;
  if (in.block_bits != v->block) r->bad_block++;
  if (resv == 0) r->clean++;
  if (tt_reencode(&in) != (w & ~resv)) r->bad_reencode++;
}

/* The decode result expected for every word of a foreign/undefined opcode. */
static int nonmodel_ok(const op_view *v, const tt_insn *in, uint32_t w) {
  if (in->word != w || in->mnem != TT_MNEM_COUNT || in->block_bits != v->block) return 0;
  if (v->foreign >= 0) return in->form == TT_FORM_FOREIGN && in->foreign == (unsigned)v->foreign;
  return in->form == TT_FORM_UNDEFINED;
}

static void test_opcode(unsigned op) {
  const op_view *v = &ops[op];
  op_result r;
  memset(&r, 0, sizeof r);
  uint32_t base = (uint32_t)op << 24;
  /* first multiple of STRIDE at or above base */
  uint64_t start = ((uint64_t)base + STRIDE - 1) / STRIDE * STRIDE;
  uint64_t end = (uint64_t)base + 0x1000000u;
  if (v->mnem >= 0) {
    for (uint64_t x = start; x < end; x += STRIDE) check_model_word(v, (uint32_t)x, &r);
    res[op] = r;
    return;
  }
  /* Foreign/undefined: no form row may exist for this opcode at all. */
  if (v->nforms != 0) r.bad_count++;
  tt_insn in0, in;
  tt_decode(base, &in0);
  if (!nonmodel_ok(v, &in0, base)) r.bad_form++;
  for (uint64_t x = start; x < end; x += STRIDE) {
    uint32_t w = (uint32_t)x;
    r.words++;
    if (full_mode || TT_SANITIZED || (w & 15u) == (op & 15u)) {
      tt_decode(w, &in);
      r.decoded++;
      if (!nonmodel_ok(v, &in, w) || head_or_unpack_differs(&in, w)) r.bad_form++;
      if (tt_reencode(&in) != w) r.bad_reencode++;
    } else {
      in0.word = w;
      in0.a.NOP.word = w;
      if (tt_reencode(&in0) != w) r.bad_reencode++;
    }
  }
  res[op] = r;
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    unsigned op = atomic_fetch_add(&next_op, 1u);
    if (op >= 256) return NULL;
    test_opcode(op);
  }
}

/* ---- structural checks -------------------------------------------------------------------- */
static void check_tables(void) {
  /* mnemonic table strictly sorted by opcode (the decoder binary-searches it) */
  unsigned unsorted = 0;
  for (unsigned m = 1; m < TT_MNEM_COUNT; m++)
    if (tt_isa_mnems[m - 1].opcode >= tt_isa_mnems[m].opcode) unsorted++;
  CHECK(unsorted == 0, "%u mnemonic rows out of opcode order", unsorted);
  unsorted = 0;
  for (unsigned g = 1; g < TT_FOREIGN_COUNT; g++)
    if (tt_isa_foreign[g - 1].opcode >= tt_isa_foreign[g].opcode) unsorted++;
  CHECK(unsorted == 0, "%u foreign rows out of opcode order", unsorted);
  /* every foreign opcode is absent from the mnemonic table (and the lookups agree) */
  for (unsigned g = 0; g < TT_FOREIGN_COUNT; g++) {
    int clash = -1;
    for (unsigned m = 0; m < TT_MNEM_COUNT; m++)
      if (tt_isa_mnems[m].opcode == tt_isa_foreign[g].opcode) clash = (int)m;
    CHECK(clash < 0, "foreign %s opcode 0x%02X is also mnemonic %s", tt_isa_foreign[g].name,
          tt_isa_foreign[g].opcode, clash >= 0 ? tt_isa_mnems[clash].name : "");
    CHECK_EQ(tt_foreign_by_opcode(tt_isa_foreign[g].opcode), g);
  }
  for (unsigned m = 0; m < TT_MNEM_COUNT; m++) {
    CHECK_EQ(tt_mnem_by_opcode(tt_isa_mnems[m].opcode), m);
    CHECK_EQ(tt_mnem_by_name(tt_isa_mnems[m].name, strlen(tt_isa_mnems[m].name)), m);
  }
  /* forms: fields fit the payload, are disjoint, avoid the discriminator, field_bits right;
   * forms of one mnemonic contiguous, at least one per mnemonic, discriminators disjoint */
  unsigned prev_mnem = 0;
  for (unsigned f = 0; f < TT_FORM_FOREIGN; f++) {
    const tt_form_desc *fd = &tt_isa_forms[f];
    uint32_t bits = 0;
    int ok = fd->mnem < TT_MNEM_COUNT && (fd->disc_value & ~fd->disc_mask) == 0 &&
             (fd->disc_mask & ~0xFFFFFFu) == 0 &&
             fd->field_first + fd->field_count <= tt_isa_field_count;
    for (unsigned i = 0; ok && i < fd->field_count; i++) {
      const tt_field_desc *fl = &tt_isa_fields[fd->field_first + i];
      uint32_t fm = MASK(fl->width) << fl->lsb;
      if (fl->width == 0 || fl->lsb + fl->width > 24 || (bits & fm) || (fm & fd->disc_mask)) ok = 0;
      bits |= fm;
    }
    CHECK(ok && bits == fd->field_bits, "form %s: fields do not fit (bits 0x%06X, table 0x%06X)",
          fd->name, bits, fd->field_bits);
    CHECK_EQ(tt_form_by_name(fd->name, strlen(fd->name)), f);
    CHECK(f == 0 || fd->mnem >= prev_mnem, "form %s: forms of a mnemonic not contiguous", fd->name);
    prev_mnem = fd->mnem;
    /* tt_op_next: form f's entry -> form f + 1 of the same mnemonic, else an entry taking no word */
    const tt_op_entry *n = tt_op_next(tt_op_of(((uint32_t)tt_isa_mnems[fd->mnem].opcode << 24) | fd->disc_value));
    int same = f + 1 < TT_FORM_FOREIGN && tt_isa_forms[f + 1].mnem == fd->mnem;
    CHECK(same ? n->form == f + 1 && n->mnem == fd->mnem && n->disc_value == (tt_isa_forms[f + 1].disc_value | TT_OP_VALID)
               : n->disc_value == 0 && n->quick_value == 0,
          "form %s: tt_op_next is not the next form of its mnemonic", fd->name);
    for (unsigned g = f + 1; g < TT_FORM_FOREIGN; g++) {
      const tt_form_desc *gd = &tt_isa_forms[g];
      if (gd->mnem != fd->mnem) continue;
      uint32_t common = fd->disc_mask & gd->disc_mask;
      CHECK(((fd->disc_value ^ gd->disc_value) & common) != 0,
            "forms %s and %s: discriminators overlap", fd->name, gd->name);
    }
  }
  for (unsigned m = 0; m < TT_MNEM_COUNT; m++) {
    unsigned first, n = tt_mnem_forms(m, &first);
    CHECK(n >= 1, "mnemonic %s has no form", tt_isa_mnems[m].name);
    /* LLK rows: msb-first, disjoint, in the payload; they cover every field and
     * discriminator bit of every form (so objdump text can express every clean word). */
    unsigned lf, nl = tt_mnem_llk(m, &lf);
    uint32_t llk = 0;
    int ok = 1;
    for (unsigned k = 0; k < nl; k++) {
      const tt_llk_desc *l = &tt_isa_llk[lf + k];
      uint32_t lm = MASK(l->width) << l->lsb;
      if (l->mnem != m || l->width == 0 || l->lsb + l->width > 24 || (llk & lm)) ok = 0;
      if (k && l->lsb >= tt_isa_llk[lf + k - 1].lsb) ok = 0;
      llk |= lm;
    }
    CHECK(ok, "mnemonic %s: TT_LLK rows overlap, leave the payload or are not msb-first",
          tt_isa_mnems[m].name);
    for (unsigned f = first; f < first + n; f++) {
      uint32_t need = tt_isa_forms[f].field_bits | tt_isa_forms[f].disc_mask;
      CHECK((need & ~llk) == 0, "form %s: bits 0x%06X lie outside every TT_LLK argument",
            tt_isa_forms[f].name, need & ~llk);
    }
  }
}

int main(int argc, char **argv) {
  const char *env = getenv("TT_EXHAUSTIVE_QUICK");
  full_mode = !((argc > 1 && strcmp(argv[1], "--quick") == 0) || (env && env[0] == '1'));
  check_tables();
  build_views();
  for (unsigned op = 0; op < 256; op++)
    CHECK(ops[op].nforms <= MAXF, "opcode 0x%02X: more than %d forms", op, MAXF);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_t th[2];
  atomic_store(&next_op, 0u);
  for (int i = 0; i < 2; i++) CHECK(pthread_create(&th[i], NULL, worker, NULL) == 0, "pthread_create");
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;

  uint64_t words = 0, inmodel = 0, clean = 0, decoded = 0, bad = 0;
  for (unsigned op = 0; op < 256; op++) {
    const op_result *r = &res[op];
    uint64_t b = r->bad_count + r->bad_form + r->bad_reserved + r->bad_fields + r->bad_reencode +
                 r->bad_block + r->bad_other;
    words += r->words;
    inmodel += r->inmodel;
    clean += r->clean;
    decoded += r->decoded;
    bad += b;
    CHECK(b == 0,
          "opcode 0x%02X (%s): %" PRIu64 " words, failures: match-count %" PRIu64 " form %" PRIu64
          " reserved %" PRIu64 " fields %" PRIu64 " reencode %" PRIu64 " block %" PRIu64
          " other %" PRIu64,
          op, ops[op].mnem >= 0 ? tt_isa_mnems[ops[op].mnem].name
              : ops[op].foreign >= 0 ? tt_isa_foreign[ops[op].foreign].name : "undefined",
          r->words, r->bad_count, r->bad_form, r->bad_reserved, r->bad_fields, r->bad_reencode,
          r->bad_block, r->bad_other);
  }
  uint64_t expect = TT_SANITIZED ? (0xFFFFFFFFull / STRIDE + 1) : (1ull << 32);
  CHECK_EQ(words, expect);
  if (TT_SANITIZED)
    printf("test_isa_exhaustive: sanitizer build: every %uth word only (stride sample)\n", STRIDE);
  printf("test_isa_exhaustive: %" PRIu64 " words checked: %" PRIu64 " in-model (all decoded, %"
         PRIu64 " with no reserved bit), %" PRIu64 " foreign/undefined (%" PRIu64
         " through tt_decode%s); %" PRIu64 " failures; %.1f s on 2 threads\n",
         words, inmodel, clean, words - inmodel, decoded,
         full_mode || TT_SANITIZED ? "" : ", every 16th (--quick)", bad, secs);
  return CHECK_DONE();
}
