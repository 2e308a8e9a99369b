/* spec_diff.c — the model's values checked against a reference interpreter written from the
 * spec (spec_ref.c), one functional-mode round at a time (tt_step: at most one instruction
 * per thread, T0, T1, T2 in order).
 *
 *   spec_issue   a thread retired (or was held) where the reference's gate and scheduling
 *                decided otherwise
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
 * every source has non-zero data to move. Functional mode only. */
#include <stdio.h>
#include <string.h>
#include "fz.h"
#include "spec_ref.h"

static const char *const invariants[] = {"spec_issue", "spec_value", "spec_fault", NULL};

static tt_state st;
static sr_state ref;
static int ready;
static unsigned long long n_inputs, n_rounds, n_retired;

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

static int cmp_granules(fz_fail *f, uint64_t round, const uint32_t *gl1, unsigned nl1,
                        const uint32_t *gmm, unsigned nmm) {
  for (unsigned i = 0; i < nl1; i++) {
    uint32_t g = gl1[i];
    const uint8_t *r = sr_l1_granule(g);
    for (unsigned b = 0; b < 64; b++) {
      snprintf(where, sizeof where, "l1.u8[0x%X]", (unsigned)(g * 64 + b));
      DIFF(where, st.l1[g * 64 + b], r[b]);
    }
  }
  for (unsigned i = 0; i < nmm; i++) {
    uint32_t g = gmm[i];
    const uint32_t *r = sr_mmio_granule(g);
    for (unsigned w = 0; w < 16; w++) {
      snprintf(where, sizeof where, "mmio[0x%X]", (unsigned)(TT_MMIO_BASE + g * 64 + w * 4));
      DIFF(where, st.mmio[g * 16 + w], r[w]);
    }
  }
  return 0;
}

static int compare(fz_fail *f, uint64_t round, unsigned *l1_seen, unsigned *mmio_seen, int all) {
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
        (th->fault_class && th->fault_pc != ref.fault_pc[t]) || th->fault_count != ref.fault_count[t])
      return fz_failf(f, "spec_fault",
                      "round %llu (%s): t%u fault model %s/%s at %u (count %u), reference %s/%s "
                      "at %u (count %u)",
                      (unsigned long long)round, round_text(), t,
                      tt_fault_class_name(th->fault_class), tt_fault_code_text(th->fault_code),
                      (unsigned)th->fault_pc, (unsigned)th->fault_count,
                      tt_fault_class_name(ref.fault_class[t]), tt_fault_code_text(ref.fault_code[t]),
                      (unsigned)ref.fault_pc[t], (unsigned)ref.fault_count[t]);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_GPR_COUNT; i++) {
      if (c->gpr[t][i] == ref.gpr[t][i]) continue;
      snprintf(where, sizeof where, "t%u.gpr[%u]", t, i);
      DIFF(where, c->gpr[t][i], ref.gpr[t][i]);
    }
  for (unsigned b = 0; b < 2; b++)
    for (unsigned i = 0; i < TT_CFG_WORD_COUNT; i++) {
      if (c->cfg[b][i] == ref.cfg[b][i]) continue;
      snprintf(where, sizeof where, "cfg[%u][%u]", b, i);
      DIFF(where, c->cfg[b][i], ref.cfg[b][i]);
    }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned i = 0; i < TT_TCFG_WORD_COUNT; i++) {
      if (c->tcfg[t][i] == ref.tcfg[t][i]) continue;
      snprintf(where, sizeof where, "tcfg[%u][%u]", t, i);
      DIFF(where, c->tcfg[t][i], ref.tcfg[t][i]);
    }
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    snprintf(where, sizeof where, "sem[%u].value", i);
    DIFF(where, c->sem_value[i], ref.sem_value[i]);
    snprintf(where, sizeof where, "sem[%u].max", i);
    DIFF(where, c->sem_max[i], ref.sem_max[i]);
  }
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++) {   /* slots past 4 must stay free */
    snprintf(where, sizeof where, "mutex[%u] holder (0 none, 1+t)", i);
    DIFF(where, c->mutex[i], i < SR_MUTEXES ? ref.mutex[i] : 0);
    snprintf(where, sizeof where, "mutex[%u] fairness hand-over (0 none, 1+t)", i);
    DIFF(where, c->mutex_handoff[i], i < SR_MUTEXES ? ref.reserved_for[i] : 0);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_latch *l = &c->thr[t].latch;
    const sr_latch *r = &ref.latch[t];
    snprintf(where, sizeof where, "t%u latch op", t);
    DIFF(where, l->op, r->op);
    if (l->op == TT_LATCH_NONE) continue;
    snprintf(where, sizeof where, "t%u latch block mask", t);
    DIFF(where, l->block_mask, r->block);
    snprintf(where, sizeof where, "t%u latch condition mask", t);
    DIFF(where, l->cond_mask, r->cond);
    snprintf(where, sizeof where, "t%u latch semaphore mask", t);
    DIFF(where, l->sem_mask, r->sem_mask);
    if (l->op == TT_LATCH_STREAMWAIT) {
      snprintf(where, sizeof where, "t%u latch stream select", t);
      DIFF(where, l->stream_select, r->stream_select);
      snprintf(where, sizeof where, "t%u latch condition index", t);
      DIFF(where, l->condition_index, r->condition_index);
      snprintf(where, sizeof where, "t%u latch target", t);
      DIFF(where, l->target, r->target);
    }
  }
  DIFF("PRNG seed", c->prng_seed, ref.prng_seed);
  DIFF("PRNG reseeds", c->prng_reseeds, ref.prng_reseeds);
  for (unsigned i = 0; i < 5; i++) {
    snprintf(where, sizeof where, "I-cache invalidations of core %u", i);
    DIFF(where, c->icache_invalidates[i], ref.ic_invalidates[i]);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (unsigned u = 0; u < 2; u++) {
      snprintf(where, sizeof where, "t%u unpacker %u context-counter resets", t, u);
      DIFF(where, c->ctx_cnt_resets[t][u], ref.ctx_resets[t][u]);
    }
  for (unsigned i = 0; i < TT_PACKER_COUNT; i++)
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      snprintf(where, sizeof where, "packer %u AccTileSize[%u]", i, t);
      DIFF(where, c->packer[i].acc_tile_size[t], ref.packer[i].acc_tile_size[t]);
    }
  if (ref.src_written || all) {
    for (unsigned b = 0; b < 2; b++)
      for (unsigned r = 0; r < TT_SRC_ROWS; r++)
        for (unsigned k = 0; k < TT_SRC_COLS; k++) {
          if (st.src[b][r][k] == ref.src[b][r][k]) continue;
          snprintf(where, sizeof where, "Src%c[%u][%u]", b ? 'B' : 'A', r, k);
          DIFF(where, st.src[b][r][k], ref.src[b][r][k]);
        }
  }
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

FZ_BOOKKEEPING static int check_prog(const fz_prog *p, fz_fail *f) {
  fz_fail_clear(f);
  init();
  n_inputs++;
  fz_setup(&st, p);
  tt_set_mode(&st, TT_MODE_FUNC);
  /* The reference implements the default reading of every ambiguity plus the knobs listed
   * here (value 0 or 1); any other knob goes back to its default on the model too (the other
   * readings are ambiguity_diff's subject). */
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) {
    int known = k == TT_KNOB_RESERVED_BITS || k == TT_KNOB_SEMWAIT_COND0 ||
                k == TT_KNOB_STREAMWAIT_OPERANDS || k == TT_KNOB_REG2FLOP || k == TT_KNOB_RSTDMA ||
                k == TT_KNOB_FRONTEND_OPS || k == TT_KNOB_STATE_RESET_EN || k == TT_KNOB_L1_SIZE ||
                k == TT_KNOB_ATOMIC_BIT23 || k == TT_KNOB_UNDEFINED_MODE || k == TT_KNOB_FLUSHDMA;
    if (!known || st.p.knob[k] > 1) st.p.knob[k] = 0;
  }
  fill_packers(&st, p);
  sr_load(&ref, &st);
  unsigned l1_seen = st.c.l1_dirty_count, mmio_seen = st.c.mmio_dirty_count;
  uint64_t budget = fz_budget(p);
  uint64_t hh = mix64(0xC0FFEEu ^ ((uint64_t)p->n[0] << 32 | p->n[1] << 16 | p->n[2]));
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t k = 0; k < p->n[t]; k++) hh = mix64(hh ^ p->w[t][k]);
  int bad = host_phase(f, &hh, 1, 6);   /* host stores first: their effect is compared too */
  if (!bad) bad = compare(f, 0, &l1_seen, &mmio_seen, 0);
  uint64_t round = 0;
  for (; !bad && round < budget && !sr_done(&ref); round++) {
    int changed = tt_step(&st);
    sr_round(&ref);
    n_rounds++;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) n_retired += ref.round_retired[t];
    if ((bad = compare(f, round, &l1_seen, &mmio_seen, 0)) != 0) break;
    if (!changed) break;  /* a fixed point: nothing further can happen in either */
  }
  if (!bad) bad = compare(f, round, &l1_seen, &mmio_seen, 1);
  if (!bad) bad = host_phase(f, &hh, 0, 16);   /* host loads of the final state */
  if (bad) { f->round = round; f->has_round = 1; }
  tt_reset(&st);
  return bad;
}

FZ_BOOKKEEPING static int check_bytes(const uint8_t *d, size_t n, fz_fail *f) {
  static fz_prog p;
  fz_prog_decode(d, n, &p);
  return check_prog(&p, f);
}

static void stats(char *buf, size_t n) {
  snprintf(buf, n, "%llu programs, %llu rounds, %llu instructions compared", n_inputs, n_rounds,
           n_retired);
}

const fz_target fz_this_target = {"spec_diff", invariants, 1, check_bytes, check_prog, init, stats};

FZ_ENTRY_POINTS(init, check_bytes)
