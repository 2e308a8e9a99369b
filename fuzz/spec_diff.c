/* spec_diff.c — the model's values and times checked against a reference interpreter written
 * from the spec (spec_ref.c, and spec_ref_cycle.c for cycle mode). Every input runs in both
 * modes. Functional mode: one round at a time (tt_step: at most one instruction per thread, T0,
 * T1, T2 in order), every round's effect compared. Cycle mode: both run the whole program on
 * the cycle clock (the model through tt_run, fast-forward included; budget 64 per instruction
 * + 256 cycles; the model's run follows a cut-short run of the same input, so its tt_reset had
 * cycle state to clear), then time and end state are compared:
 *
 *   spec_time    an instruction's issue cycle, how many instructions a thread issued, the
 *                outcome (done, deadlock, budget), or `cycles` of a finished run differ
 *   spec_hazard  the reported hazards differ (thread, instruction, kind, and gpr_pending's GPR)
 *
 *   spec_issue   a thread retired (or was held) where the reference's gate and scheduling
 *                decided otherwise, or the model reported a fixed point (tt_step: no change)
 *                in a round in which the reference retired an instruction or moved a latch
 *   spec_value   after the round some architectural location differs: GPRs, Config,
 *                ThreadConfig, semaphores, mutexes and the fairness hand-over, Wait Gate
 *                latches, L1 and MMIO (every granule either side wrote), the Src stub, the
 *                packer stub (SETDMAREG source 8 resets counters) and the recorded side
 *                effects (PRNG reseeds, I-cache invalidations, context-counter resets)
 *   spec_fault   a thread's first fault (class, reason, instruction) or fault count differs
 * Before the run six host-port stores and after it sixteen host-port loads (addresses around
 * every window's start and end, all sizes, some misaligned, all four cores, derived from a hash
 * of the input) go to both sides; their status, value and effect are compared (spec_value).
 *
 * Input: the structured program format of fz.h (same seeds and mutator as func_invariants).
 * The packer stub that SETDMAREG special mode reads is filled from a hash of the input, so
 * every source has non-zero data to move. In cycle mode a thread's fault count is compared only
 * when the run finished (a spinning atomic retries until the run stops).
 *
 * Knobs: both sides run under the knob values the input selects (fuzz/README.md repeats this list). A value the reference has no
 * reading for (sr_knob_read() is the list) is set back to the default on the model before the
 * run; those readings are checked by vectors only (conformance/ambiguities, conformance/cycle):
 *   stallwait_bits_13_14:
 *     a reading of single instructions, pinned by its own vectors and compared reading
 *     against reading by ambiguity_diff; the reference has no reading of it yet (it has
 *     field_width=llk, loadind_offset_bits=8, streamwait_lo_bits=11, cfg_index_high=ignore,
 *     unlisted_block, setdmareg_imm_bits=14, tdma_risc=unmapped, cfgshiftmask_not=masked,
 *     atincgetptr_mask, streamwait_blocks, gpr0=zero, mutex_indices=wh, each written from its
 *     registry row);
 *   setdmareg_result=two_cycles: a bypass gap of one instruction (ambiguities/AMB-13-*).
 * Functional mode: the cycle-mode-only knobs have no effect there (the model ignores them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fz.h"
#include "spec_ref.h"

static const char *const invariants[] = {"spec_issue", "spec_value", "spec_fault", "spec_time",
                                         "spec_hazard", NULL};

static tt_state st;
static sr_state ref;
static int ready;
static unsigned long long n_inputs, n_rounds, n_retired, n_cycle_runs;
static int g_cycle;   /* this input runs in cycle mode */

FZ_BOOKKEEPING static void init(void) {
  if (!ready) { tt_init(&st); ready = 1; }
}

/* ---- packer stub from the input --------------------------------------------------------------- */
static uint64_t mix64(uint64_t x) {
  x ^= x >> 33; x *= 0xFF51AFD7ED558CCDull; x ^= x >> 33; x *= 0xC4CEB9FE1A85EC53ull;
  return x ^ (x >> 33);
}

static void fill_packers(tt_state *s, const fz_prog *p) {
  uint64_t h = 0x1234567u ^ p->ninit;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t k = 0; k < p->n[t]; k++) h = mix64(h ^ p->w[t][k] ^ ((uint64_t)t << 40));
  for (unsigned i = 0; i < TT_PACKER_COUNT; i++) {
    tt_packer *pk = &s->c.packer[i];
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) pk->acc_tile_size[t] = (uint32_t)(h = mix64(h + 1));
    pk->last_tile_size = (uint32_t)(h = mix64(h + 2));
    pk->last_thread = (uint8_t)((h = mix64(h + 3)) % 4);   /* 3: no thread */
    pk->all_zero_flags = (uint8_t)(h = mix64(h + 4));
    pk->exp_hist_max = (uint8_t)(h = mix64(h + 5));
    for (unsigned b = 0; b < 2; b++) {
      pk->out_data_format[b] = (uint8_t)((h = mix64(h + 6)) & 15u);
      pk->disable_zero_compress[b] = (uint8_t)((h = mix64(h + 7)) & 1u);
    }
    for (unsigned b = 0; b < 32; b++) pk->exp_hist[b] = (uint8_t)(h = mix64(h + 8 + b));
  }
}

/* ---- comparison -------------------------------------------------------------------------------- */
static char where[200];

static const char *round_text(void) {
  static char buf[200];
  size_t len = 0;
  buf[0] = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!ref.round_retired[t]) continue;
    tt_insn in;
    tt_decode(ref.round_word[t], &in);
    int w = snprintf(buf + len, sizeof buf - len, "%st%u %s (0x%08X)", len ? ", " : "", t,
                     tt_insn_name(&in), (unsigned)ref.round_word[t]);
    if (w > 0 && (size_t)w < sizeof buf - len) len += (size_t)w;
  }
  return len ? buf : "no instruction";
}

#define DIFF(name, a, b)                                                                         \
  do {                                                                                           \
    if ((uint64_t)(a) != (uint64_t)(b))                                                          \
      return fz_failf(f, "spec_value", "round %llu (%s): %s model 0x%llX, reference 0x%llX",     \
                      (unsigned long long)round, round_text(), name,                             \
                      (unsigned long long)(a), (unsigned long long)(b));                         \
  } while (0)
/* DIFF with the location's name formatted only when the values differ (formatting it for every
 * compared location was most of this target's time). */
#define DIFF_AT(a, b, ...)                                                                       \
  do {                                                                                           \
    if ((uint64_t)(a) != (uint64_t)(b)) {                                                        \
      snprintf(where, sizeof where, __VA_ARGS__);                                                \
      DIFF(where, a, b);                                                                         \
    }                                                                                            \
  } while (0)

static int cmp_granules(fz_fail *f, uint64_t round, const uint32_t *gl1, unsigned nl1,
                        const uint32_t *gmm, unsigned nmm) {
  for (unsigned i = 0; i < nl1; i++) {
    uint32_t g = gl1[i];
    const uint8_t *r = sr_l1_granule(g);
    for (unsigned b = 0; b < 64; b++) {
      DIFF_AT(st.l1[g * 64 + b], r[b], "l1.u8[0x%X]", (unsigned)(g * 64 + b));
    }
  }
  for (unsigned i = 0; i < nmm; i++) {
    uint32_t g = gmm[i];
    const uint32_t *r = sr_mmio_granule(g);
    for (unsigned w = 0; w < 16; w++) {
      DIFF_AT(st.mmio[g * 16 + w], r[w], "mmio[0x%X]", (unsigned)(TT_MMIO_BASE + g * 64 + w * 4));
    }
  }
  return 0;
}

/* Where each thread is, and its first fault (spec_issue, spec_fault). */
static int cmp_threads(fz_fail *f, uint64_t round, int all) {
  const tt_core *c = &st.c;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (c->thr[t].pc != ref.pc[t])
      return fz_failf(f, "spec_issue",
                      "round %llu: t%u is at instruction %u in the model, %u in the reference "
                      "(head 0x%08X; reference %s)",
                      (unsigned long long)round, t, (unsigned)c->thr[t].pc, (unsigned)ref.pc[t],
                      (unsigned)ref.round_word[t],
                      ref.round_retired[t] ? "retired it" : "held it");
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &c->thr[t];
    if (th->fault_class != ref.fault_class[t] || th->fault_code != ref.fault_code[t] ||
        (th->fault_class && th->fault_pc != ref.fault_pc[t]) ||
        (th->fault_count != ref.fault_count[t] && !(g_cycle && all < 0)))
      return fz_failf(f, "spec_fault",
                      "round %llu (%s): t%u fault model %s/%s at %u (count %u), reference %s/%s "
                      "at %u (count %u)",
                      (unsigned long long)round, round_text(), t,
                      tt_fault_class_name(th->fault_class), tt_fault_code_text(th->fault_code),
                      (unsigned)th->fault_pc, (unsigned)th->fault_count,
                      tt_fault_class_name(ref.fault_class[t]), tt_fault_code_text(ref.fault_code[t]),
                      (unsigned)ref.fault_pc[t], (unsigned)ref.fault_count[t]);
  }
  return 0;
}

/* GPRs, Config, ThreadConfig (spec_value): element by element, naming the first difference,
 * only when a file differs at all. */
static int cmp_files(fz_fail *f, uint64_t round) {
  const tt_core *c = &st.c;
  _Static_assert(sizeof c->gpr == sizeof ref.gpr && sizeof c->cfg == sizeof ref.cfg &&
                 sizeof c->tcfg == sizeof ref.tcfg, "spec_diff: register files of one shape");
  if (!memcmp(c->gpr, ref.gpr, sizeof ref.gpr) && !memcmp(c->cfg, ref.cfg, sizeof ref.cfg) &&
      !memcmp(c->tcfg, ref.tcfg, sizeof ref.tcfg))
    return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_GPR_COUNT; i++)
      DIFF_AT(c->gpr[t][i], ref.gpr[t][i], "t%u.gpr[%u]", t, i);
  for (unsigned b = 0; b < 2; b++)
    for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++)
      DIFF_AT(c->cfg[b][i], ref.cfg[b][i], "cfg[%u][%u]", b, i);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_TCFG_WORD_COUNT; i++)
      DIFF_AT(c->tcfg[t][i], ref.tcfg[t][i], "tcfg[%u][%u]", t, i);
  return 0;
}

/* The register files, semaphores, mutexes (spec_value). */
static int cmp_registers(fz_fail *f, uint64_t round) {
  const tt_core *c = &st.c;
  if (cmp_files(f, round)) return 1;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    DIFF_AT(c->sem_value[i], ref.sem_value[i], "sem[%u].value", i);
    DIFF_AT(c->sem_max[i], ref.sem_max[i], "sem[%u].max", i);
  }
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++) {   /* slots past 4 must stay free */
    DIFF_AT(c->mutex[i], i < SR_MUTEXES ? ref.mutex[i] : 0, "mutex[%u] holder (0 none, 1+t)", i);
    DIFF_AT(c->mutex_handoff[i], i < SR_MUTEXES ? ref.reserved_for[i] : 0,
            "mutex[%u] fairness hand-over (0 none, 1+t)", i);
  }
  return 0;
}

/* The latched waits (spec_value). */
static int cmp_latches(fz_fail *f, uint64_t round) {
  const tt_core *c = &st.c;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_latch *l = &c->thr[t].latch;
    const sr_latch *r = &ref.latch[t];
    DIFF_AT(l->op, r->op, "t%u latch op", t);
    if (l->op == TT_LATCH_NONE) continue;
    DIFF_AT(l->block_mask, r->block, "t%u latch block mask", t);
    DIFF_AT(l->cond_mask, r->cond, "t%u latch condition mask", t);
    DIFF_AT(l->sem_mask, r->sem_mask, "t%u latch semaphore mask", t);
    if (l->op == TT_LATCH_STREAMWAIT) {
      DIFF_AT(l->stream_select, r->stream_select, "t%u latch stream select", t);
      DIFF_AT(l->condition_index, r->condition_index, "t%u latch condition index", t);
      DIFF_AT(l->target, r->target, "t%u latch target", t);
    }
  }
  return 0;
}

/* Config side effects, packer state and Src (spec_value). */
static int cmp_side_effects(fz_fail *f, uint64_t round, int all) {
  const tt_core *c = &st.c;
  DIFF("PRNG seed", c->prng_seed, ref.prng_seed);
  DIFF("PRNG reseeds", c->prng_reseeds, ref.prng_reseeds);
  for (unsigned i = 0; i < 5; i++) {
    DIFF_AT(c->icache_invalidates[i], ref.ic_invalidates[i], "I-cache invalidations of core %u", i);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned u = 0; u < 2; u++) {
      DIFF_AT(c->ctx_cnt_resets[t][u], ref.ctx_resets[t][u], "t%u unpacker %u context-counter resets", t, u);
    }
  for (unsigned i = 0; i < TT_PACKER_COUNT; i++)
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      DIFF_AT(c->packer[i].acc_tile_size[t], ref.packer[i].acc_tile_size[t],
              "packer %u AccTileSize[%u]", i, t);
    }
  _Static_assert(sizeof st.src == sizeof ref.src, "spec_diff: Src of one shape");
  if ((ref.src_written || all) && memcmp(st.src, ref.src, sizeof ref.src)) {
    for (unsigned b = 0; b < 2; b++)
      for (unsigned r = 0; r < TT_SRC_ROWS; r++)
        for (unsigned k = 0; k < TT_SRC_COLS; k++) {
          DIFF_AT(st.src[b][r][k], ref.src[b][r][k], "Src%c[%u][%u]", b ? 'B' : 'A', r, k);
        }
  }
  return 0;
}

static int compare(fz_fail *f, uint64_t round, unsigned *l1_seen, unsigned *mmio_seen, int all) {
  const tt_core *c = &st.c;
  if (cmp_threads(f, round, all) || cmp_registers(f, round) || cmp_latches(f, round) ||
      cmp_side_effects(f, round, all))
    return 1;
  /* memories: what the reference wrote this round, and granules the model newly marked */
  static uint32_t gl1[4096], gmm[4096];
  unsigned nl1, nmm;
  sr_take_written(gl1, &nl1, gmm, &nmm, 4096);
  if (cmp_granules(f, round, gl1, nl1, gmm, nmm)) return 1;
  unsigned from_l1 = all ? 0 : *l1_seen, from_mm = all ? 0 : *mmio_seen;
  for (unsigned i = from_l1; i < c->l1_dirty_count; i++) {
    uint32_t g = st.l1_dirty_list[i];
    if (cmp_granules(f, round, &g, 1, NULL, 0)) return 1;
  }
  for (unsigned i = from_mm; i < c->mmio_dirty_count; i++) {
    uint32_t g = st.mmio_dirty_list[i];
    if (cmp_granules(f, round, NULL, 0, &g, 1)) return 1;
  }
  *l1_seen = c->l1_dirty_count;
  *mmio_seen = c->mmio_dirty_count;
  return 0;
}

/* ---- the host port: accesses derived from the input, on both sides ------------------------------ */
static const uint32_t host_bases[] = {
    0xFFE00000u, 0xFFE000FCu, 0xFFE00100u, 0xFFE002FCu, 0xFFE00300u,   /* GPR window and ends */
    0xFFE80020u, 0xFFE8003Cu, 0xFFE80040u,                               /* semaphores */
    0xFFEF0000u, 0xFFEF0010u, 0xFFEF0380u, 0xFFEF0390u, 0xFFEF06E4u,     /* Config: 4, bank 1 */
    0xFFEF0700u, 0xFFEF0710u, 0xFFEF09E4u, 0xFFEF0A7Cu,                  /* ConfigDualWrite */
    0xFFEF0A80u, 0xFFEF0DACu, 0xFFEF0DB0u};                              /* ThreadConfig */

static void host_access(uint64_t *h, unsigned *core, uint32_t *addr, unsigned *size, uint32_t *v) {
  uint64_t r = *h = mix64(*h + 0x51ED27u);
  static const unsigned sizes[] = {4, 4, 2, 1};
  *core = (unsigned)(r % 4);
  *size = sizes[(r >> 2) % 4];
  int32_t off = (int32_t)((r >> 4) % 9) * 4 - 16;                   /* -16..+16 words around */
  uint32_t lane = (r >> 12) % 8 == 0 ? (uint32_t)((r >> 16) % 4) : (uint32_t)((r >> 16) % 4) & ~(*size - 1u);
  *addr = host_bases[(r >> 20) % (sizeof host_bases / sizeof host_bases[0])] + (uint32_t)off + lane;
  *v = (r >> 40) % 4 == 0 ? (uint32_t)((r >> 44) % 4) : (uint32_t)(r >> 32);
  if (*size < 4) *v &= (1u << (8 * *size)) - 1u;
}

static int host_phase(fz_fail *f, uint64_t *h, int writes, unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    unsigned core, size;
    uint32_t addr, v, mv = 0, rv = 0;
    host_access(h, &core, &addr, &size, &v);
    unsigned ms, rs;
    if (writes) {
      ms = tt_host_write(&st, (tt_core_id)core, addr, size, v);
      rs = sr_host_write(&ref, core, addr, size, v);
    } else {
      ms = tt_host_read(&st, (tt_core_id)core, addr, size, &mv);
      rs = sr_host_read(&ref, core, addr, size, &rv);
    }
    if (ms != rs || mv != rv)
      return fz_failf(f, "spec_value",
                      "host %s by %s of %u bytes at 0x%08X%s: model %s 0x%X, reference %s 0x%X",
                      writes ? "store" : "load", tt_core_name(core), size, (unsigned)addr,
                      writes ? "" : " after the run", tt_host_status_name(ms), (unsigned)mv,
                      tt_host_status_name(rs), (unsigned)rv);
  }
  return 0;
}

/* ---- cycle mode: time ---------------------------------------------------------------------------- */
static const char *outcome_name(unsigned o) {
  return o == TT_OUT_DONE ? "done" : o == TT_OUT_DEADLOCK ? "deadlock" : o == TT_OUT_BUDGET ? "budget" : "?";
}

static const char *insn_text(unsigned t, uint32_t k) {
  static char buf[96];
  tt_insn in;
  uint32_t w = k < ref.len[t] ? ref.prog[t][k] : 0;
  tt_decode(w, &in);
  snprintf(buf, sizeof buf, "t%u instruction %u %s (0x%08X)", t, (unsigned)k, tt_insn_name(&in), (unsigned)w);
  return buf;
}

typedef struct hz { unsigned t, k, kind, gpr; } hz;
static int hz_cmp(const void *a, const void *b) {
  const hz *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->k != y->k) return x->k < y->k ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return x->gpr < y->gpr ? -1 : x->gpr > y->gpr;
}

static int compare_hazards(fz_fail *f) {
  static hz m[TT_HAZARD_KEEP], r[TT_HAZARD_KEEP];
  unsigned nm = tt_hazard_count(&st), nr = ref.cyc.nhaz;
  for (unsigned k = 0; k < TT_HAZ_KIND_COUNT; k++) {
    unsigned rk = 0;
    for (unsigned i = 0; i < nr && i < SR_HAZ_MAX; i++) rk += ref.cyc.haz[i].kind == k;
    if (nr <= SR_HAZ_MAX && tt_hazard_kind_count(&st, k) != rk)
      return fz_failf(f, "spec_hazard", "%s hazards: model %u, reference %u (all kinds: %u, %u)",
                      tt_hazard_kind_name(k), tt_hazard_kind_count(&st, k), rk, nm, nr);
  }
  /* the queries past their ends answer as tt.h says: no hazards of a kind that does not
   * exist, and no record past the last one kept */
  tt_hazard past;
  if (tt_hazard_kind_count(&st, TT_HAZ_KIND_COUNT) != 0 ||
      (nm < TT_HAZARD_KEEP && tt_hazard_get(&st, nm, &past) != -1))
    return fz_failf(f, "spec_hazard", "the model's hazard queries answer past their end (kind %u: %u; "
                    "record %u of %u)", TT_HAZ_KIND_COUNT, tt_hazard_kind_count(&st, TT_HAZ_KIND_COUNT),
                    nm, nm);
  if (nm != nr || nm > TT_HAZARD_KEEP) return 0;
  for (unsigned i = 0; i < nm; i++) {
    tt_hazard h;
    tt_hazard_get(&st, i, &h);
    m[i].t = h.thread; m[i].k = h.index; m[i].kind = h.kind; m[i].gpr = h.gpr;
    r[i].t = ref.cyc.haz[i].thread; r[i].k = ref.cyc.haz[i].index; r[i].kind = ref.cyc.haz[i].kind;
    r[i].gpr = ref.cyc.haz[i].gpr;
  }
  qsort(m, nm, sizeof *m, hz_cmp);
  qsort(r, nr, sizeof *r, hz_cmp);
  for (unsigned i = 0; i < nm; i++)
    if (hz_cmp(&m[i], &r[i]) != 0) {
      const hz *first = hz_cmp(&m[i], &r[i]) < 0 ? &m[i] : &r[i];
      return fz_failf(f, "spec_hazard", "%s hazard (GPR %u) at %s reported by the %s only",
                      tt_hazard_kind_name(first->kind), first->gpr, insn_text(first->t, first->k),
                      first == &m[i] ? "model" : "reference");
    }
  return 0;
}

static int compare_time(fz_fail *f, unsigned mo, unsigned ro) {
  /* the earliest instruction whose issue cycle differs, or that only one side issued */
  uint64_t best = UINT64_MAX;
  unsigned bt = 0;
  uint32_t bk = 0;
  uint64_t bm = 0, br = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint32_t n = st.c.thr[t].pc > ref.pc[t] ? st.c.thr[t].pc : ref.pc[t];
    for (uint32_t k = 0; k < n; k++) {
      uint64_t mc = UINT64_MAX, rc = k < ref.pc[t] ? ref.cyc.issue[t][k] : UINT64_MAX;
      if (k >= st.c.thr[t].pc || tt_issue_cycle(&st, t, k, &mc) != 0) mc = UINT64_MAX;
      if (mc == rc) continue;
      uint64_t at = mc < rc ? mc : rc;
      if (at < best) { best = at; bt = t; bk = k; bm = mc; br = rc; }
      break;
    }
  }
  if (best != UINT64_MAX) {
    char a[32], b[32];
    if (bm == UINT64_MAX) snprintf(a, sizeof a, "never"); else snprintf(a, sizeof a, "%llu", (unsigned long long)bm);
    if (br == UINT64_MAX) snprintf(b, sizeof b, "never"); else snprintf(b, sizeof b, "%llu", (unsigned long long)br);
    return fz_failf(f, "spec_time", "%s issues in cycle %s in the model, %s in the reference",
                    insn_text(bt, bk), a, b);
  }
  if (mo != ro)
    return fz_failf(f, "spec_time", "outcome: model %s, reference %s", outcome_name(mo), outcome_name(ro));
  if (mo == TT_OUT_DONE && tt_cycle_count(&st) != ref.cyc.cycles)
    return fz_failf(f, "spec_time", "cycles: model %llu, reference %u",
                    (unsigned long long)tt_cycle_count(&st), (unsigned)ref.cyc.cycles);
  return 0;
}

static int check_cycle(const fz_prog *p, fz_fail *f, uint64_t *hh, unsigned *l1_seen,
                       unsigned *mmio_seen) {
  uint64_t budget = 64u * (uint64_t)fz_total(p) + 256u;
  unsigned mo = tt_run(&st, budget), ro = sr_cycle_run(&ref, budget);
  n_cycle_runs++;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) n_retired += ref.pc[t];
  int bad = compare_time(f, mo, ro);
  if (!bad) bad = compare_hazards(f);
  if (!bad) bad = compare(f, 0, l1_seen, mmio_seen, mo == TT_OUT_DONE && ro == TT_OUT_DONE ? 1 : -1);
  if (!bad) bad = host_phase(f, hh, 0, 16);
  return bad;
}

/* Both sides from the input's initial state, in mode `cycle`, under its knobs (except those the
 * reference has no reading for: the file comment lists them and why). */
static void start(const fz_prog *p, int cycle) {
  fz_setup(&st, p);
  tt_set_mode(&st, cycle ? TT_MODE_CYCLE : TT_MODE_FUNC);
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    if (!sr_knob_read(k, st.p.knob[k], cycle) && (cycle || !sr_knob_read(k, st.p.knob[k], 1)))
      st.p.knob[k] = 0;
  fill_packers(&st, p);
  sr_load(&ref, &st);
}

static uint64_t host_seed(const fz_prog *p) {
  uint64_t hh = mix64(0xC0FFEEu ^ ((uint64_t)p->n[0] << 32 | p->n[1] << 16 | p->n[2]));
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t k = 0; k < p->n[t]; k++) hh = mix64(hh ^ p->w[t][k]);
  return hh;
}

/* tt_step said nothing changed (no instruction issued, no latch moved): the loop stops there,
 * so a round in which the reference retired an instruction or moved a latch is a finding (else
 * a model that wrongly reports a fixed point would end both runs early, unseen). */
static int fixed_point(fz_fail *f, uint64_t round, const sr_latch *before) {
  for (unsigned t = 0; t < SR_THREADS; t++) {
    if (ref.round_retired[t])
      return fz_failf(f, "spec_issue",
                      "round %llu: the model reported no change (tt_step 0) but the reference "
                      "retired t%u's instruction 0x%08X", (unsigned long long)round, t,
                      (unsigned)ref.round_word[t]);
    if (memcmp(&before[t], &ref.latch[t], sizeof before[t]) != 0)
      return fz_failf(f, "spec_issue",
                      "round %llu: the model reported no change (tt_step 0) but the reference's "
                      "t%u latch moved", (unsigned long long)round, t);
  }
  return 0;
}

static int check_func(const fz_prog *p, fz_fail *f) {
  g_cycle = 0;
  start(p, 0);
  unsigned l1_seen = st.c.l1_dirty_count, mmio_seen = st.c.mmio_dirty_count;
  uint64_t hh = host_seed(p), round = 0, budget = fz_budget(p);
  int bad = host_phase(f, &hh, 1, 6);   /* host stores first: their effect is compared too */
  if (!bad) bad = compare(f, 0, &l1_seen, &mmio_seen, 0);
  for (; !bad && round < budget && !sr_done(&ref); round++) {
    sr_latch before[SR_THREADS];
    memcpy(before, ref.latch, sizeof before);
    int changed = tt_step(&st);
    sr_round(&ref);
    n_rounds++;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) n_retired += ref.round_retired[t];
    if ((bad = compare(f, round, &l1_seen, &mmio_seen, 0)) != 0) break;
    if (!changed) {   /* the model's fixed point: the reference must be at one too */
      bad = fixed_point(f, round, before);
      break;
    }
  }
  if (!bad) bad = compare(f, round, &l1_seen, &mmio_seen, 1);
  if (!bad) bad = host_phase(f, &hh, 0, 16);   /* host loads of the final state */
  if (bad) { f->round = round; f->has_round = 1; }
  return bad;
}

/* Cycle mode. First a cut-short run of the model (a budget of a few cycles, from the input's
 * hash), so that the compared run starts from a tt_reset that had something to clear (pending
 * write-backs, pipeline occupants, timers): a reset that leaves cycle state behind shows. */
static int check_cyc(const fz_prog *p, fz_fail *f) {
  uint64_t hh = host_seed(p);
  start(p, 1);
  (void)tt_run(&st, 1 + hh % 24);
  g_cycle = 1;
  start(p, 1);
  unsigned l1_seen = st.c.l1_dirty_count, mmio_seen = st.c.mmio_dirty_count;
  int bad = host_phase(f, &hh, 1, 6);
  if (!bad) bad = compare(f, 0, &l1_seen, &mmio_seen, 0);
  if (!bad) bad = check_cycle(p, f, &hh, &l1_seen, &mmio_seen);
  return bad;
}

/* Every input in both modes: functional round by round, then cycle mode as a whole. */
FZ_BOOKKEEPING static int check_prog(const fz_prog *p, fz_fail *f) {
  fz_fail_clear(f);
  init();
  n_inputs++;
  int bad = check_func(p, f);
  tt_reset(&st);
  if (!bad) bad = check_cyc(p, f);
  tt_reset(&st);
  tt_set_mode(&st, TT_MODE_FUNC);
  sr_unload();   /* the reference's memories too: the next input starts from nothing (stability) */
  return bad;
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  static fz_prog p;
  fz_prog_decode(d, n, &p);
  return check_prog(&p, f);
}

static void stats(char *buf, size_t n) {
  snprintf(buf, n, "%llu programs (%llu in cycle mode), %llu rounds, %llu instructions compared",
           n_inputs, n_cycle_runs, n_rounds, n_retired);
}

const fz_target fz_this_target = {"spec_diff", invariants, 1, check_bytes, check_prog, init, stats};

FZ_ENTRY_POINTS(init, check_bytes)
