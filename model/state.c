/* state.c — initialisation, O(dirty) reset, the single writers of the large arrays, Config
 * write side effects, faults, knobs and the state digest.
 * References: BlackholeA0/TensixTile/TensixCoprocessor/BackendConfiguration.md (banking,
 * GLOBAL_CFGREG_BASE_ADDR32, write side effects); spec-digest §2. */
#include <string.h>
#include "internal.h"

/* ---- faults ------------------------------------------------------------------------------- */
static const char *const fault_class_names[TT_FAULT_CLASS_COUNT] = {
  "none", "undefined", "unpredictable", "noncontractual", "unsupported", "unimplemented"};

#define TT_X_TEXT(id, cls, text) text,
static const char *const fault_code_text[TT_FAULT_CODE_COUNT] = {TT_FAULT_CODES(TT_X_TEXT)};
#undef TT_X_TEXT
#define TT_X_CLASS(id, cls, text) TT_FAULT_##cls,
static const uint8_t fault_code_class[TT_FAULT_CODE_COUNT] = {TT_FAULT_CODES(TT_X_CLASS)};
#undef TT_X_CLASS

const char *tt_fault_class_name(unsigned cls) {
  return cls < TT_FAULT_CLASS_COUNT ? fault_class_names[cls] : "?";
}
/* The index of `name` in a table of n names, or -1: every name table's parser (internal.h). */
int tt_name_index(const char *const *names, unsigned n, const char *name) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(name, names[i]) == 0) return (int)i;
  return -1;
}
int tt_fault_class_parse(const char *name) {
  return tt_name_index(fault_class_names, TT_FAULT_CLASS_COUNT, name);
}
const char *tt_fault_code_text(unsigned code) {
  return code < TT_FAULT_CODE_COUNT ? fault_code_text[code] : "?";
}
unsigned tt_fault_code_class(unsigned code) {
  return code < TT_FAULT_CODE_COUNT ? fault_code_class[code] : TT_FAULT_NONE;
}

void tt_fault(tt_state *st, unsigned t, tt_fault_code code) {
  tt_thread *th = &st->c.thr[t];
  unsigned cls = fault_code_class[code];
  if (TT_DEFECT(FAULT_CLASS_UNPREDICTABLE) && code == TT_FC_RESERVED_BITS) cls = TT_FAULT_UNPREDICTABLE;
  if (th->fault_class == TT_FAULT_NONE) {
    th->fault_class = (uint8_t)cls;
    th->fault_code = (uint8_t)code;
    th->fault_pc = th->pc;
  }
  if (th->fault_count < UINT16_MAX) th->fault_count++;
  st->c.fault_counts[cls]++;
}

/* ---- knobs -------------------------------------------------------------------------------- */
typedef struct knob_row { const char *name, *values, *ref, *text; } knob_row;
#define TT_KNOB(ID, name, values, amb, text) {name, values, amb, text},
static const knob_row knob_rows[TT_KNOB_COUNT] = {
#include "knobs.def"
};
#undef TT_KNOB

const char *tt_knob_name(unsigned k) { return k < TT_KNOB_COUNT ? knob_rows[k].name : "?"; }
const char *tt_knob_values(unsigned k) { return k < TT_KNOB_COUNT ? knob_rows[k].values : "?"; }
const char *tt_knob_ref(unsigned k) { return k < TT_KNOB_COUNT ? knob_rows[k].ref : "?"; }
const char *tt_knob_text(unsigned k) { return k < TT_KNOB_COUNT ? knob_rows[k].text : "?"; }

int tt_knob_value_index(unsigned knob, const char *value) {
  const char *v = tt_knob_values(knob);
  size_t len = strlen(value);
  for (int idx = 0; idx < 16 && *v; idx++) {  /* at most 16 values per knob */
    const char *bar = strchr(v, '|');
    size_t n = bar ? (size_t)(bar - v) : strlen(v);
    if (n == len && memcmp(v, value, n) == 0) return idx;
    if (!bar) break;
    v = bar + 1;
  }
  return -1;
}

int tt_knob_by_name(const char *name) {
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    if (strcmp(tt_knob_name(k), name) == 0) return (int)k;
  return -1;
}

int tt_knob_log_built(void) {
#ifdef TT_KNOB_LOG
  return 1;
#else
  return 0;
#endif
}

unsigned tt_knob_value_count(unsigned knob) {
  const char *v = tt_knob_values(knob);
  unsigned n = 1;
  for (unsigned i = 0; i < 256 && v[i]; i++) n += v[i] == '|';  /* values strings are short */
  return n;
}

int tt_knob_set(tt_state *st, const char *name, const char *value) {
  int k = tt_knob_by_name(name);
  if (k < 0) return -1;
  int idx = tt_knob_value_index((unsigned)k, value);
  if (idx < 0) return -2;
  st->p.knob[k] = (uint8_t)idx;
  return 0;
}

/* ---- asynchronous GPR results (internal.h): merged at once in functional mode; in cycle mode
 * queued in st->c.cyc.wb with their due cycle, for the scheduler to land (cycle.c) ------------ */
static const uint8_t load_latencies[] = {7, 3, 5, 12, 24};       /* knob value order */
static const uint8_t atincget_latencies[] = {24, 3, 7, 12, 48};

unsigned tt_latency(const tt_state *st, tt_lat lat) {
  switch (lat) {
  case TT_LAT_LOADIND: return load_latencies[TT_KNOB_VAL(st, LOAD_LATENCY) % 5u];
  case TT_LAT_LOADREG: return load_latencies[TT_KNOB_VAL(st, LOADREG_LATENCY) % 5u];
  case TT_LAT_ATINCGET: return atincget_latencies[TT_KNOB_VAL(st, ATINCGET_LATENCY) % 5u];
  case TT_LAT_RDCFG: return 2;  /* stage 0 read, stage +1 GPR write: readable from issue + 2 */
  case TT_LAT_SETDMAREG: return 2;  /* knob setdmareg_result=two_cycles (AMB-13) */
  }
  return 1;
}

void tt_gpr_land(tt_state *st, unsigned t, unsigned reg, uint32_t value, uint32_t mask, tt_lat lat) {
  tt_cyc *c = &st->c.cyc;
  if (st->p.mode != TT_MODE_CYCLE || c->nwb >= TT_WB_MAX) {  /* the gate keeps room (WB_FULL) */
    tt_gpr_merge(st, t, reg, value, mask);
    return;
  }
  tt_wb *w = &c->wb[c->nwb++];
  if (c->nwb > c->wb_high) c->wb_high = c->nwb;
  w->value = value & mask;
  w->mask = mask;
  w->due = c->now + tt_latency(st, lat);
  w->thread = (uint8_t)t;
  w->reg = (uint8_t)(reg & 63u);
  w->thcon = lat != TT_LAT_RDCFG && lat != TT_LAT_SETDMAREG;
  c->wb_gprs[t] |= (uint64_t)1 << w->reg;
  if (w->thcon) c->wb_thcon_count[t]++;
}

/* ---- lifecycle ------------------------------------------------------------------------------ */
/* Clear the cycle-mode state: its scalars, counters and stall counts always (~0.5 KiB); of the
 * arrays only what a run can have written: the write-back entries up to the most ever queued,
 * the Config pipeline if anything entered it, the hazard records kept. */
static void clear_cyc(tt_cyc *c) {
  unsigned nwb = c->wb_high, ncfgp = c->cfgp_entered != 0;
  unsigned nhaz = c->nhazards < TT_HAZARD_KEEP ? c->nhazards : TT_HAZARD_KEEP;
  memset(c, 0, offsetof(tt_cyc, wb));
  if (nwb) memset(c->wb, 0, nwb * sizeof c->wb[0]);
  if (ncfgp) memset(c->cfgp, 0, sizeof c->cfgp);
  memset(c->stall, 0, offsetof(tt_cyc, hazards) - offsetof(tt_cyc, stall));
  if (nhaz) memset(c->hazards, 0, nhaz * sizeof c->hazards[0]);
}

/* Clear the core: the head always (~2 KiB: GPRs, ThreadConfig, threads, counters); each Config
 * bank and the cycle-mode state only when written since the last reset. */
static void clear_core(tt_state *st) {
  unsigned cfg = st->c.cfg_touched, cyc = st->c.cyc_used;
  memset(&st->c, 0, offsetof(tt_core, cfg));
  for (unsigned b = 0; b < TT_CFG_BANK_COUNT; b++)
    if (cfg & (1u << b)) memset(st->c.cfg[b], 0, sizeof st->c.cfg[b]);
  if (cyc) clear_cyc(&st->c.cyc);
  st->c.src_allowed_unpackers[0] = st->c.src_allowed_unpackers[1] = 1;
}

void tt_init(tt_state *st) {
  memset(st, 0, sizeof *st);  /* the only full clear: init, never per run */
  st->c.cfg_touched = 3;
  st->c.cyc_used = 1;
  clear_core(st);
  st->p.mode = TT_MODE_FUNC;
}

void tt_reset(tt_state *st) {
  for (unsigned i = 0; i < st->c.l1_dirty_count && !TT_DEFECT(RESET_KEEPS_L1); i++) {
    unsigned ch = st->l1_dirty_list[i];
    memset(&st->l1[(size_t)ch << TT_DIRTY_SHIFT], 0, 1u << TT_DIRTY_SHIFT);
    st->l1_dirty[ch >> 3] = 0;
    st->l1_dirty_list[i] = 0;
  }
  for (unsigned i = 0; i < st->c.mmio_dirty_count; i++) {
    unsigned ch = st->mmio_dirty_list[i];
    memset(&st->mmio[(size_t)ch << (TT_DIRTY_SHIFT - 2)], 0, 1u << TT_DIRTY_SHIFT);
    st->mmio_dirty[ch >> 3] = 0;
    st->mmio_dirty_list[i] = 0;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint32_t n = st->c.thr[t].retired + 1u;  /* + a spinning head's first attempt */
    if (st->c.cyc_used)  /* only cycle mode writes issue_cycle */
      memset(st->issue_cycle[t], 0, sizeof(uint32_t) * (n < TT_PROG_MAX ? n : TT_PROG_MAX));
  }
  for (unsigned k = 0; k < 8 && st->c.src_dirty; k++)  /* the 16-row blocks written (tt.h) */
    if (st->c.src_dirty >> k & 1u) memset(st->src[k >> 2][16u * (k & 3u)], 0, sizeof st->src[0][0] * 16u);
  if (TT_DEFECT(CYC_RESET_KEEPS_STATE)) {
    tt_cyc keep = st->c.cyc;
    st->c.cyc_used = 1;
    clear_core(st);
    st->c.cyc.nwb = keep.nwb;
    st->c.cyc.wb_high = keep.wb_high;
    memcpy(st->c.cyc.wb, keep.wb, sizeof keep.wb);
    return;
  }
  if (TT_DEFECT(RESET_KEEPS_L1)) {
    uint16_t n = st->c.l1_dirty_count;
    clear_core(st);
    st->c.l1_dirty_count = n;
    return;
  }
  clear_core(st);
}

int tt_mode_available(tt_mode mode) { return mode == TT_MODE_FUNC || mode == TT_MODE_CYCLE; }

int tt_set_mode(tt_state *st, tt_mode mode) {
  if (!tt_mode_available(mode)) return -1;
  st->p.mode = (uint8_t)mode;
  return 0;
}

int tt_load_program(tt_state *st, unsigned t, const uint32_t *words, uint32_t count) {
  if (t >= TT_THREAD_COUNT || count > TT_PROG_MAX) return -1;
  tt_thread *th = &st->c.thr[t];
  if (count) memcpy(st->prog[t], words, sizeof(uint32_t) * count);
  /* the decoded stream is filled at first fetch (tt_head): forget the previous program's */
  st->pdec_n[t] = 0;
  th->len = count;
  th->pc = 0;
  return 0;
}

/* ---- the large arrays' writers --------------------------------------------------------------- */
static void mark_l1(tt_state *st, uint32_t addr) {
  unsigned ch = addr >> TT_DIRTY_SHIFT;
  uint8_t bit = (uint8_t)(1u << (ch & 7));
  if (st->l1_dirty[ch >> 3] & bit) return;
  st->l1_dirty[ch >> 3] |= bit;
  st->l1_dirty_list[st->c.l1_dirty_count++] = (uint16_t)ch;
}

static void mark_mmio(tt_state *st, uint32_t off) {
  unsigned ch = off >> TT_DIRTY_SHIFT;
  uint8_t bit = (uint8_t)(1u << (ch & 7));
  if (st->mmio_dirty[ch >> 3] & bit) return;
  st->mmio_dirty[ch >> 3] |= bit;
  st->mmio_dirty_list[st->c.mmio_dirty_count++] = (uint16_t)ch;
}

uint32_t tt_l1_read(const tt_state *st, uint32_t addr, unsigned bytes) {
  uint32_t v = 0;
  if (bytes > 4) bytes = 4;
  if (addr <= TT_L1_SIZE - 4u) {  /* common case: inside L1, no per-byte bound */
    const uint8_t *p = &st->l1[addr];
    switch (bytes) {  /* constant widths: the compiler joins each case into one load */
    case 4: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    case 1: return p[0];
    default: break;
    }
    for (unsigned i = 0; i < bytes; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
  }
  for (unsigned i = 0; i < bytes; i++) {
    uint32_t a = addr + i;
    if (a < TT_L1_SIZE) v |= (uint32_t)st->l1[a] << (8 * i);
  }
  return v;
}

void tt_l1_write(tt_state *st, uint32_t addr, unsigned bytes, uint32_t value) {
  if (bytes > 4) bytes = 4;
  if (bytes && addr <= TT_L1_SIZE - 4u && (addr >> TT_DIRTY_SHIFT) == ((addr + bytes - 1u) >> TT_DIRTY_SHIFT)) {
    mark_l1(st, addr);  /* common case: one granule, inside L1 */
    uint8_t *p = &st->l1[addr];
    if (bytes == 4) {  /* a constant width: the compiler joins the four into one store */
      p[0] = (uint8_t)value;
      p[1] = (uint8_t)(value >> 8);
      p[2] = (uint8_t)(value >> 16);
      p[3] = (uint8_t)(value >> 24);
    } else {
      for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(value >> (8 * i));
    }
    return;
  }
  for (unsigned i = 0; i < bytes; i++) {
    uint32_t a = addr + i;
    if (a >= TT_L1_SIZE) continue;
    mark_l1(st, a);
    st->l1[a] = (uint8_t)(value >> (8 * i));
  }
}

uint32_t tt_mmio_read(const tt_state *st, uint32_t addr) {
  if (addr < TT_MMIO_BASE) return 0;
  uint32_t off = (addr - TT_MMIO_BASE) & ~3u;
  return off < TT_MMIO_SIZE ? st->mmio[off >> 2] : 0;
}

void tt_mmio_write(tt_state *st, uint32_t addr, uint32_t value) {
  if (addr < TT_MMIO_BASE) return;
  uint32_t off = (addr - TT_MMIO_BASE) & ~3u;
  if (off >= TT_MMIO_SIZE) return;
  mark_mmio(st, off);
  st->mmio[off >> 2] = value;
}

/* ---- Config writes with banking and side effects (BackendConfiguration.md) ------------------ */
static void cfg_store(tt_state *st, unsigned bank, unsigned idx, uint32_t v) {
  if (idx >= TT_CFG_GLOBAL_BASE && !TT_DEFECT(CFG_GLOBAL_ONE_BANK)) {
    st->c.cfg[0][idx] = v;
    st->c.cfg[1][idx] = v;
    st->c.cfg_touched = 3;
  } else {
    st->c.cfg[bank][idx] = v;
    st->c.cfg_touched |= (uint8_t)(1u << bank);
  }
}

static void cfg_bank_reset(tt_state *st, unsigned bank) {
  memset(st->c.cfg[bank], 0, sizeof(uint32_t) * TT_CFG_GLOBAL_BASE);
}

void tt_cfg_write_words(tt_state *st, unsigned bank, unsigned idx, const uint32_t *vals,
                        unsigned count, tt_cfg_via via) {
  /* the common cases: one word with no side effect; a banked group with none */
  if (count == 1 && idx != TT_CFG_STATE_RESET_EN && idx != TT_CFG_PRNG_SEED &&
      idx != TT_CFG_RISCV_IC_INVALIDATE) {
    cfg_store(st, bank, idx, vals[0]);
    return;
  }
  if (idx + count <= TT_CFG_GLOBAL_BASE && (idx > TT_CFG_STATE_RESET_EN || idx + count <= TT_CFG_STATE_RESET_EN)) {
    for (unsigned k = 0; k < count; k++) st->c.cfg[bank][idx + k] = vals[k];  /* bounded: count */
    st->c.cfg_touched |= (uint8_t)(1u << bank);
    return;
  }
  int hits_reset = 0;
  for (unsigned k = 0; k < count; k++)
    if (idx + k == TT_CFG_STATE_RESET_EN && (via != TT_VIA_RMWCIB || TT_DEFECT(RESET_EN_VIA_RMWCIB)))
      hits_reset = !TT_DEFECT(RESET_EN_IGNORED);
  int keep = TT_KNOB_IS(st, STATE_RESET_EN, 1);
  if (hits_reset && keep) cfg_bank_reset(st, bank);
  for (unsigned k = 0; k < count; k++) {
    unsigned i = idx + k;
    cfg_store(st, bank, i, vals[k]);
    if (i == TT_CFG_PRNG_SEED) {
      st->c.prng_seed = vals[k];
      st->c.prng_reseeds++;
    } else if (i == TT_CFG_RISCV_IC_INVALIDATE) {
      for (unsigned c = 0; c < 5; c++)
        if (vals[k] & (1u << c)) st->c.icache_invalidates[c]++;
    }
  }
  if (hits_reset && !keep) cfg_bank_reset(st, bank);
}

/* ---- digest ------------------------------------------------------------------------------ */
/* FNV-1a-style mixing, 8 bytes per step (tail bytewise). Not cryptographic: equal states
 * give equal digests, and a differing state is very unlikely to collide. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    h = (h ^ w) * 0x100000001B3ull;
    h ^= h >> 29;
  }
  for (; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
  return h;
}

static int chunk_is_zero(const uint8_t *p) {
  for (unsigned i = 0; i < (1u << TT_DIRTY_SHIFT); i++)
    if (p[i]) return 0;
  return 1;
}

uint64_t tt_digest(const tt_state *st) {
  const tt_core *c = &st->c;
  uint64_t h = 0xCBF29CE484222325ull;
  h = fnv(h, c->gpr, sizeof c->gpr);
  h = fnv(h, c->cfg, sizeof c->cfg);
  h = fnv(h, c->tcfg, sizeof c->tcfg);
  h = fnv(h, c->sem_value, sizeof c->sem_value);
  h = fnv(h, c->sem_max, sizeof c->sem_max);
  h = fnv(h, c->mutex, sizeof c->mutex);
  h = fnv(h, c->mutex_handoff, sizeof c->mutex_handoff);
  h = fnv(h, &c->thcon_spinner, 1);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &c->thr[t];
    h = fnv(h, &th->pc, sizeof th->pc);
    h = fnv(h, &th->latch, sizeof th->latch);
    h = fnv(h, &th->fault_class, 1);
    h = fnv(h, &th->fault_code, 1);
    h = fnv(h, &th->fault_pc, sizeof th->fault_pc);
  }
  h = fnv(h, &c->prng_seed, sizeof c->prng_seed);
  h = fnv(h, &c->prng_reseeds, sizeof c->prng_reseeds);
  h = fnv(h, c->icache_invalidates, sizeof c->icache_invalidates);
  h = fnv(h, c->ctx_cnt_resets, sizeof c->ctx_cnt_resets);
  /* Large arrays: an order-independent sum of per-granule hashes over the dirty lists, so the
   * digest depends on content only (all-zero granules skipped) and costs O(dirty). */
  uint64_t mix = 0;
  for (unsigned i = 0; i < c->l1_dirty_count; i++) {
    unsigned ch = st->l1_dirty_list[i];
    const uint8_t *p = &st->l1[(size_t)ch << TT_DIRTY_SHIFT];
    if (chunk_is_zero(p)) continue;
    mix += fnv(fnv(0x9E3779B97F4A7C15ull, &ch, sizeof ch), p, 1u << TT_DIRTY_SHIFT);
  }
  for (unsigned i = 0; i < c->mmio_dirty_count; i++) {
    unsigned ch = st->mmio_dirty_list[i];
    const uint8_t *p = (const uint8_t *)&st->mmio[(size_t)ch << (TT_DIRTY_SHIFT - 2)];
    if (chunk_is_zero(p)) continue;
    mix += fnv(fnv(0xC2B2AE3D27D4EB4Full, &ch, sizeof ch), p, 1u << TT_DIRTY_SHIFT);
  }
  h = fnv(h, &mix, sizeof mix);
  if (c->src_dirty) h = fnv(h, st->src, sizeof st->src);
  return h;
}
