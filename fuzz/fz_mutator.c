/* fz_mutator.c — instruction-granular, thread-aware mutator for the program targets.
 *
 * Decodes the input into per-thread streams (fz.h), applies 1..4 structural edits and
 * re-encodes: insert / delete / duplicate / swap / move an instruction across threads,
 * mutate one field within its width (values chosen by field kind from the encoding table),
 * switch the form of a mnemonic, splice an LLK idiom (STALLWAIT -> WRCFG, semaphore
 * handshake across two threads, mutex-guarded update), edit the run parameters and initial
 * state. Everything is derived from the engine's seed: the same (input, seed) gives the same
 * output. Exposed as LLVMFuzzerCustomMutator / LLVMFuzzerCustomCrossOver (fz_lf_mutator.c) and as
 * an AFL++ custom mutator library (fuzz/afl_mutator.c). */
#include <string.h>
#include "fz.h"

uint64_t fz_rand(uint64_t *s) {  /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint32_t below(uint64_t *s, uint32_t n) { return n ? (uint32_t)(fz_rand(s) % n) : 0; }

int fz_form_writes_cfg(unsigned form) {
  switch (form) {
  case TT_FORM_WRCFG: case TT_FORM_RMWCIB0: case TT_FORM_RMWCIB1: case TT_FORM_RMWCIB2:
  case TT_FORM_RMWCIB3: case TT_FORM_STREAMWRCFG: case TT_FORM_CFGSHIFTMASK:
  case TT_FORM_REG2FLOP:
    return 1;
  default:
    return 0;
  }
}

/* ---- field values by kind -------------------------------------------------------------------- */
static uint32_t pick(uint64_t *s, const uint32_t *v, unsigned n) { return v[below(s, n)]; }

static uint32_t field_value(uint64_t *s, const tt_field_desc *f) {
  uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;
  uint32_t r = (uint32_t)fz_rand(s);
  if (below(s, 8) == 0) return r & mask;  /* anything that fits */
  switch ((tt_field_kind)f->kind) {
  case TT_K_REG: return below(s, 4) ? below(s, 8) : r & 63u;
  case TT_K_HALFREG: return below(s, 4) ? below(s, 16) : r & 127u;
  case TT_K_CFG: {
    static const uint32_t v[] = {0, 1, 4, 20, 64, 176, 179, 180, 185, 186, 200, 209, 210, 211,
                                 220, 223, 224, 255, 2047};
    return pick(s, v, sizeof v / sizeof v[0]) & mask;
  }
  case TT_K_TCFG: {
    static const uint32_t v[] = {0, 0, 5, 41, 57, 58, 59, 60, 61, 62, 67, 68, 255};
    return pick(s, v, sizeof v / sizeof v[0]) & mask;
  }
  case TT_K_BLOCK: {
    static const uint32_t v[] = {0, 0x1FF, 0x080, 0x002, 0x021, 0x040, 0x001, 0x100, 0x0FF};
    return pick(s, v, sizeof v / sizeof v[0]) & mask;
  }
  case TT_K_STALLCOND: return below(s, 2) ? 0 : (1u << below(s, 13)) & mask;
  case TT_K_SEMCOND: return below(s, 4) & mask;
  case TT_K_SEMMASK: return below(s, 4) ? 1u << below(s, 8) : r & 0xFFu;
  case TT_K_MUTEX: return below(s, 6) ? below(s, 6) : r & mask;
  case TT_K_INT: break;
  }
  switch (below(s, 6)) {
  case 0: return 0;
  case 1: return 1 & mask;
  case 2: return mask;
  case 3: return mask - 1u;
  case 4: return below(s, 16) & mask;
  default: return r & mask;
  }
}

static uint32_t encode_fields(unsigned form, const uint32_t *vals, unsigned n) {
  uint32_t w = 0;
  unsigned bad;
  if (tt_encode((tt_form)form, vals, n, &w, &bad) != 0) return FZ_NOP;
  return w;
}

static uint32_t random_form_insn(uint64_t *s, unsigned form) {
  const tt_form_desc *fd = &tt_isa_forms[form];
  uint32_t vals[16];
  unsigned n = fd->field_count < 16 ? fd->field_count : 16;
  for (unsigned i = 0; i < n; i++) vals[i] = field_value(s, &tt_isa_fields[fd->field_first + i]);
  return encode_fields(form, vals, n);
}

/* Forms weighted towards the units with cross-thread interaction. */
uint32_t fz_random_insn(uint64_t *s) {
  static const uint16_t hot[] = {
      TT_FORM_STALLWAIT, TT_FORM_SEMWAIT, TT_FORM_SEMPOST, TT_FORM_SEMGET, TT_FORM_SEMINIT,
      TT_FORM_ATGETM, TT_FORM_ATRELM, TT_FORM_WRCFG, TT_FORM_RDCFG, TT_FORM_SETC16,
      TT_FORM_SETDMAREG_IMM, TT_FORM_STREAMWAIT, TT_FORM_STOREIND_L1, TT_FORM_ATCAS, TT_FORM_NOP};
  switch (below(s, 16)) {
  case 0: return (uint32_t)fz_rand(s);                          /* any word */
  case 1: return ((uint32_t)below(s, 256) << 24);               /* any opcode, zero payload */
  case 2: case 3: case 4: case 5: case 6: case 7:
    return random_form_insn(s, hot[below(s, sizeof hot / sizeof hot[0])]);
  default: return random_form_insn(s, below(s, TT_FORM_FOREIGN));
  }
}

/* ---- stream edits ------------------------------------------------------------------------- */
static void ins(fz_prog *p, unsigned t, uint32_t at, uint32_t w) {
  if (p->n[t] >= FZ_MAX_INSN) return;
  if (at > p->n[t]) at = p->n[t];
  memmove(&p->w[t][at + 1], &p->w[t][at], 4u * (p->n[t] - at));
  p->w[t][at] = w;
  p->n[t]++;
}
static uint32_t del(fz_prog *p, unsigned t, uint32_t at) {
  uint32_t w = p->w[t][at];
  memmove(&p->w[t][at], &p->w[t][at + 1], 4u * (p->n[t] - at - 1));
  p->n[t]--;
  return w;
}
static int nonempty_thread(fz_prog *p, uint64_t *s, unsigned *t) {
  unsigned start = below(s, 3);
  for (unsigned k = 0; k < 3; k++) {
    unsigned u = (start + k) % 3;
    if (p->n[u]) { *t = u; return 1; }
  }
  return 0;
}

static void mutate_field(fz_prog *p, uint64_t *s, unsigned t, uint32_t i) {
  tt_insn in;
  tt_decode(p->w[t][i], &in);
  if (in.form >= TT_FORM_FOREIGN || below(s, 10) == 0) {
    switch (below(s, 3)) {
    case 0: p->w[t][i] ^= 1u << below(s, 32); break;       /* any bit, reserved included */
    case 1: p->w[t][i] = (p->w[t][i] & 0x00FFFFFFu) | (uint32_t)tt_isa_mnems[below(s, TT_MNEM_COUNT)].opcode << 24; break;
    default: p->w[t][i] = fz_random_insn(s); break;
    }
    return;
  }
  const tt_form_desc *fd = &tt_isa_forms[in.form];
  uint32_t vals[16] = {0};  /* another form of the mnemonic may have more fields than this one */
  unsigned n = tt_insn_fields(&in, vals, 16);
  unsigned form = in.form;
  if (below(s, 8) == 0) {  /* another form of the same mnemonic, same field values where they fit */
    unsigned first, cnt = tt_mnem_forms(fd->mnem, &first);
    form = first + below(s, cnt);
    const tt_form_desc *nd = &tt_isa_forms[form];
    n = nd->field_count < 16 ? nd->field_count : 16;
    for (unsigned k = 0; k < n; k++) {
      uint32_t w = tt_isa_fields[nd->field_first + k].width;
      vals[k] &= w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1u;
    }
  } else if (n) {
    unsigned k = below(s, n);
    const tt_field_desc *f = &tt_isa_fields[fd->field_first + k];
    uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;
    switch (below(s, 4)) {
    case 0: vals[k] = (vals[k] + 1u) & mask; break;
    case 1: vals[k] = (vals[k] - 1u) & mask; break;
    case 2: vals[k] ^= (1u << below(s, f->width)) & mask; break;
    default: vals[k] = field_value(s, f); break;
    }
  }
  p->w[t][i] = encode_fields(form, vals, n) | (below(s, 16) == 0 ? in.reserved : 0u);
}

/* LLK idioms, spliced at random positions (threads chosen at random, distinct). */
static void splice_idiom(fz_prog *p, uint64_t *s) {
  unsigned a = below(s, 3), b = (a + 1 + below(s, 2)) % 3;
  uint32_t sem = below(s, 8), reg = below(s, 16), cfg = below(s, 4) ? below(s, 224) : 180 + below(s, 44);
  uint32_t mtx = below(s, 5);
  uint32_t pa = below(s, p->n[a] + 1), pb = below(s, p->n[b] + 1);
  switch (below(s, 5)) {
  case 0: /* SETDMAREG lo/hi -> STALLWAIT(block CFG, cond THCON) -> WRCFG */
    ins(p, a, pa, 0xB0000000u | reg << 16 | cfg);
    ins(p, a, pa, 0xA2000000u | 0x080u << 15 | 0x001u);
    ins(p, a, pa, 0x45000000u | (uint32_t)below(s, 65536) << 8 | (2 * reg + 1));
    ins(p, a, pa, 0x45000000u | (uint32_t)below(s, 65536) << 8 | (2 * reg));
    break;
  case 1: /* producer SEMPOST, consumer SEMWAIT(not zero) ... SEMGET */
    ins(p, a, pa, 0xA4000000u | (1u << sem) << 2);
    ins(p, b, pb, 0xA5000000u | (1u << sem) << 2);
    ins(p, b, pb, 0xA6000000u | (uint32_t)(below(s, 2) ? 0x1FFu : 0x002u) << 15 | (1u << sem) << 2 | 1u);
    break;
  case 2: /* SEMINIT then producer waits for not-full before posting */
    ins(p, a, pa, 0xA4000000u | (1u << sem) << 2);
    ins(p, a, pa, 0xA6000000u | 0x002u << 15 | (1u << sem) << 2 | 2u);
    ins(p, a, 0, 0xA3000000u | below(s, 16) << 20 | below(s, 4) << 16 | (1u << sem) << 2);
    break;
  case 3: /* mutex-guarded Config update in two threads */
    for (unsigned k = 0; k < 2; k++) {
      unsigned t = k ? b : a;
      uint32_t at = k ? pb : pa;
      ins(p, t, at, 0xA1000000u | mtx);
      ins(p, t, at, 0xB0000000u | reg << 16 | cfg);
      ins(p, t, at, 0xA0000000u | mtx);
    }
    break;
  default: /* flip the thread's Config bank (SETC16 CFG_STATE_ID) and write around the boundary */
    ins(p, a, pa, 0xB0000000u | reg << 16 | (below(s, 2) ? 179u : 180u));
    ins(p, a, pa, 0xB2000000u | below(s, 2));
    break;
  }
}

static void mutate_params(fz_prog *p, uint64_t *s) {
  switch (below(s, 5)) {
  case 0: {
    unsigned k = (unsigned)below(s, TT_KNOB_COUNT + 1);
    if (k == TT_KNOB_COUNT) p->flags ^= FZ_F_CYCLE;  /* func_invariants: cycle mode too */
    else if (fz_knob_get(p, k) || below(s, 2)) fz_knob_put(p, k, 0);
    else fz_knob_put(p, k, 1 + (unsigned)below(s, tt_knob_value_count(k) - 1));  /* any value */
    break;
  }
  case 1: p->budget = below(s, 3) ? 0 : (uint16_t)(1 + below(s, 2 * fz_total(p) + 8)); break;
  case 3:
    if (p->ninit) {
      p->init[below(s, p->ninit)] = p->init[--p->ninit];
      break;
    }
    /* fall through */
  default: {
    if (p->ninit >= FZ_MAX_INIT) break;
    fz_init *in = &p->init[p->ninit];
    memset(&in->loc, 0, sizeof in->loc);
    static const uint8_t kinds[] = {TT_LOC_GPR, TT_LOC_CFG, TT_LOC_TCFG, TT_LOC_SEM_VALUE,
                                    TT_LOC_SEM_MAX, TT_LOC_MUTEX, TT_LOC_L1_U32, TT_LOC_MMIO};
    in->loc.kind = kinds[below(s, sizeof kinds)];
    in->loc.sel = (uint8_t)below(s, 3);
    in->value = below(s, 2) ? below(s, 16) : (uint32_t)fz_rand(s);
    switch (in->loc.kind) {
    case TT_LOC_GPR: in->loc.index = below(s, 16); break;
    case TT_LOC_CFG: in->loc.sel &= 1; in->loc.index = below(s, 224); break;
    case TT_LOC_TCFG: in->loc.index = below(s, 68); break;
    case TT_LOC_MUTEX: in->loc.sel = 0; in->loc.index = below(s, 5); break;
    case TT_LOC_L1_U32: in->loc.sel = 0; in->loc.index = 4 * below(s, 64); break;
    case TT_LOC_MMIO:
      in->loc.sel = 0;
      in->loc.index = TT_STREAM_BASE + below(s, 4) * 0x1000u + (below(s, 2) ? 29u : 259u) * 4u;
      break;
    default: in->loc.sel = 0; in->loc.index = below(s, 8); break;
    }
    if (fz_init_valid(&in->loc, &in->value)) p->ninit++;
    break;
  }
  }
}

static void mutate_once(fz_prog *p, uint64_t *s) {
  unsigned t, u;
  uint32_t i;
  switch (below(s, 20)) {
  case 0: case 1: case 2: /* insert a new instruction */
    t = below(s, 3);
    ins(p, t, below(s, p->n[t] + 1), fz_random_insn(s));
    return;
  case 3: case 4: /* delete */
    if (nonempty_thread(p, s, &t)) del(p, t, below(s, p->n[t]));
    return;
  case 5: /* duplicate (possibly into another thread) */
    if (!nonempty_thread(p, s, &t)) break;
    u = below(s, 4) ? t : below(s, 3);
    ins(p, u, below(s, p->n[u] + 1), p->w[t][below(s, p->n[t])]);
    return;
  case 6: /* swap two instructions, within or across threads */
    if (!nonempty_thread(p, s, &t) || !nonempty_thread(p, s, &u)) break;
    {
      uint32_t a = below(s, p->n[t]), b = below(s, p->n[u]), w = p->w[t][a];
      p->w[t][a] = p->w[u][b];
      p->w[u][b] = w;
    }
    return;
  case 7: /* move across threads */
    if (!nonempty_thread(p, s, &t)) break;
    u = (t + 1 + below(s, 2)) % 3;
    ins(p, u, below(s, p->n[u] + 1), del(p, t, below(s, p->n[t])));
    return;
  case 8: case 9: case 10: case 11: case 12: /* one field within its width */
    if (!nonempty_thread(p, s, &t)) break;
    i = below(s, p->n[t]);
    mutate_field(p, s, t, i);
    return;
  case 13: /* NOP one instruction (keeps the interleaving) */
    if (nonempty_thread(p, s, &t)) p->w[t][below(s, p->n[t])] = FZ_NOP;
    return;
  case 14: case 15:
    splice_idiom(p, s);
    return;
  case 16: case 17:
    mutate_params(p, s);
    return;
  case 18: /* swap two whole threads */
    t = below(s, 3);
    u = (t + 1 + below(s, 2)) % 3;
    {
      static uint32_t tmp[FZ_MAX_INSN];
      uint32_t nt = p->n[t];
      memcpy(tmp, p->w[t], 4u * nt);
      memcpy(p->w[t], p->w[u], 4u * p->n[u]);
      p->n[t] = p->n[u];
      memcpy(p->w[u], tmp, 4u * nt);
      p->n[u] = nt;
    }
    return;
  default: /* truncate a thread */
    if (nonempty_thread(p, s, &t)) p->n[t] = below(s, p->n[t]);
    return;
  }
  t = below(s, 3);
  ins(p, t, below(s, p->n[t] + 1), fz_random_insn(s));
}

size_t fz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed) {
  static fz_prog p;
  uint64_t s = (uint64_t)seed * 0x2545F4914F6CDD1Dull + size;
  fz_prog_decode(data, size, &p);
  unsigned k = 1 + below(&s, 4);
  for (unsigned i = 0; i < k; i++) mutate_once(&p, &s);
  return fz_prog_encode(&p, data, max_size);
}

size_t fz_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                    size_t max_size, unsigned seed) {
  static fz_prog a, b;
  uint64_t s = seed;
  fz_prog_decode(d1, s1, &a);
  fz_prog_decode(d2, s2, &b);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    switch (below(&s, 3)) {
    case 0: break;                                    /* keep a's stream */
    case 1: a.n[t] = b.n[t]; memcpy(a.w[t], b.w[t], 4u * b.n[t]); break;  /* take b's */
    default: {                                        /* a's prefix + b's suffix */
      uint32_t ca = below(&s, a.n[t] + 1), cb = below(&s, b.n[t] + 1);
      uint32_t tail = b.n[t] - cb;
      if (ca + tail > FZ_MAX_INSN) tail = FZ_MAX_INSN - ca;
      memcpy(&a.w[t][ca], &b.w[t][cb], 4u * tail);
      a.n[t] = ca + tail;
      break;
    }
    }
  }
  if (below(&s, 2)) { memcpy(a.knob, b.knob, sizeof a.knob); a.budget = b.budget; }
  return fz_prog_encode(&a, out, max_size);
}
