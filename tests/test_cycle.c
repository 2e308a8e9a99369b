/* test_cycle.c — cycle mode: worked timelines (spec-digest 5.4), silicon calibration bursts,
 * deadlock proof, the STREAMWRCFG reordering bug, knobs, determinism and O(dirty) reset of the
 * micro-architectural state. Vectors in conformance/cycle/ cover the rules one by one; this file
 * checks what a vector cannot express (loops over burst lengths, byte-exact reset, APIs). */
#include "model_util.h"

static tt_state FRESH;

static void cyc(void) {
  tt_set_mode(&S, TT_MODE_CYCLE);
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) S.p.knob[k] = 0;
  tt_reset(&S);
}

static uint64_t issue_at(unsigned t, uint32_t k) {
  uint64_t c = UINT64_MAX;
  if (tt_issue_cycle(&S, t, k, &c) != 0) return UINT64_MAX;
  return c;
}

/* n copies of word w on each of `threads` threads; returns total cycles. */
static uint64_t burst(uint32_t w, unsigned n, unsigned threads) {
  static uint32_t prog[TT_PROG_MAX];
  for (unsigned i = 0; i < n; i++) prog[i] = w;
  cyc();
  run3(prog, n, threads > 1 ? prog : NULL, threads > 1 ? n : 0, threads > 2 ? prog : NULL,
       threads > 2 ? n : 0);
  return tt_cycle_count(&S);
}

/* Cycles per instruction per thread as the slope between bursts of 64 and 128. */
static double slope(uint32_t w, unsigned threads) {
  uint64_t a = burst(w, 64, threads), b = burst(w, 128, threads);
  return (double)(b - a) / 64.0;
}

static void test_timelines(void) {
  /* digest 5.4: WRCFG c0 (-1), RDCFG held at c1, enters 0 at c2, reads the new value */
  cyc();
  S.c.gpr[0][5] = 0x1234;
  RUN1(w_wrcfg(5, 0, 20), w_rdcfg(6, 20));
  CHECK_EQ(issue_at(0, 0), 0);
  CHECK_EQ(issue_at(0, 1), 2);
  CHECK_EQ(S.c.gpr[0][6], 0x1234);
  CHECK_EQ(tt_cycle_count(&S), 4);  /* RDCFG: stage 0 at c2, +1 at c3, pipeline empty at c4 */
  CHECK_EQ(tt_stall_cycles(&S, 0, TT_WAIT_CFG_ENTRY), 1);
  CHECK_EQ(tt_hazard_count(&S), 0);
  /* CFGSHIFTMASK pair: #2 enters -1 at c1, stalls there at c2, stage 0 at c3..c4 */
  cyc();
  RUN1(0xB8BF834Cu, 0xB8BF834Cu, w_rmwcib(0, 0xFF, 1, 30));
  CHECK_EQ(issue_at(0, 0), 0);
  CHECK_EQ(issue_at(0, 1), 1);
  CHECK_EQ(issue_at(0, 2), 5);      /* RMWCIB needs stage 0 and an empty -3..-1: c5 */
  CHECK_EQ(tt_cycle_count(&S), 6);
  /* one-cycle lag: STALLWAIT B1/C0 then SEMPOST: c0, c2 */
  cyc();
  RUN1(w_stallwait(0x002, 0x001), w_sempost(1));
  CHECK_EQ(issue_at(0, 1), 2);
  /* LOADIND then STALLWAIT C0 (B5) then ADD reading the result: the ADD waits for the data */
  cyc();
  S.c.gpr[0][1] = 0x10;
  tt_l1_write(&S, 0x100, 4, 0xABCD);
  RUN1(0x49400081u /* LOADIND 32-bit [r1*16] -> r2 */, w_stallwait(0x020, 0x001),
       0x58003082u /* ADDDMAREG r3 = r2 + r2 */);
  CHECK_EQ(issue_at(0, 1), 3);   /* after LOADIND's 3 ThCon cycles */
  CHECK_EQ(issue_at(0, 2), 8);   /* data lands at 7; C0 false at 7, lag: 8 */
  CHECK_EQ(S.c.gpr[0][3], 2 * 0xABCD);
  CHECK_EQ(tt_hazard_count(&S), 0);
  CHECK_EQ(tt_cycle_count(&S), 11);
}

static void test_calibration(void) {
  /* mesham/tt-sim perfbench (Blackhole p150), cycles per instruction per thread:
   * SETDMAREG 1.00 / 1.97 / 2.97; ADDDMAREG (3-cycle case) 2.97 / 5.99 / 9.00; RMWCIB0 and
   * RDCFG 1.00; STALLWAIT 0x1FF,C12 + NOP 2.97 per pair against 2.00 for NOP, NOP. */
  const double tol = 0.1;
  static const double setdma[3] = {1.00, 1.97, 2.97}, add[3] = {2.97, 5.99, 9.00};
  for (unsigned n = 1; n <= 3; n++) {
    double s = slope(w_setdmareg(0x1234, 2), n);
    CHECK(s > setdma[n - 1] - tol && s < setdma[n - 1] + tol, "SETDMAREG x%u: %.2f", n, s);
    s = slope(0x58004144u /* ADDDMAREG r4 = r4 + r5: same group of four */, n);
    CHECK(s > add[n - 1] - tol && s < add[n - 1] + tol, "ADDDMAREG x%u: %.2f", n, s);
  }
  double s = slope(w_rmwcib(0, 0xFF, 1, 30), 1);
  CHECK(s > 0.9 && s < 1.1, "RMWCIB0: %.2f", s);
  s = slope(w_rdcfg(3, 20), 1);
  CHECK(s > 0.9 && s < 1.1, "RDCFG: %.2f", s);
  /* pairs */
  static uint32_t prog[256];
  uint64_t c[2];
  for (unsigned k = 0; k < 2; k++) {
    unsigned pairs = 64 * (k + 1);
    for (unsigned i = 0; i < pairs; i++) { prog[2 * i] = w_stallwait(0x1FF, 0x1000); prog[2 * i + 1] = 0x02000000u; }
    cyc();
    run3(prog, 2 * pairs, NULL, 0, NULL, 0);
    c[k] = tt_cycle_count(&S);
  }
  s = (double)(c[1] - c[0]) / 64.0;
  CHECK(s > 2.97 - tol && s < 2.97 + tol, "STALLWAIT+NOP pair: %.2f", s);
  s = slope(0x02000000u, 1) * 2;
  CHECK(s > 2.0 - tol && s < 2.0 + tol, "NOP,NOP: %.2f", s);
}

static void test_deadlock(void) {
  /* SEMWAIT on a zero semaphore that nothing posts: a fixed point, found at once */
  cyc();
  CHECK_EQ(run3((const uint32_t[]){w_semwait(0x002, 1, 1), w_sempost(2)}, 2, NULL, 0, NULL, 0),
           TT_OUT_DEADLOCK);
  CHECK(S.c.steps < 10, "deadlock found after %llu cycles", (unsigned long long)S.c.steps);
  CHECK_EQ(tt_thread_blocked(&S, 0), 1);
  /* a spinning ATCAS (set 1 if the word is 0) whose word holds 5: deadlock, not budget */
  cyc();
  tt_l1_write(&S, 0, 4, 5);
  CHECK_EQ(run3((const uint32_t[]){0x64040000u}, 1, NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.thr[0].wait_kind, TT_WAIT_ATCAS);
  /* ... and no other thread can release it through ThCon: the spinner holds ThCon, so T1's
   * STOREIND waits at its gate (ScalarUnit.md), while T1's NOPs still issue */
  cyc();
  tt_l1_write(&S, 0, 4, 5);
  CHECK_EQ(run3((const uint32_t[]){0x64040000u}, 1,
                (const uint32_t[]){0x02000000u, 0x02000000u, 0x66A00000u /* STOREIND L1 r0 */}, 3,
                NULL, 0), TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.thr[1].pc, 2);
  CHECK_EQ(S.c.thr[1].wait_kind, TT_WAIT_THCON_BUSY);
  CHECK_EQ(issue_at(0, 0), 0);  /* the first attempt's issue cycle is kept while it spins */
  /* an ATCAS that matches completes in one 15-cycle attempt */
  cyc();
  CHECK_EQ(run3((const uint32_t[]){0x64040000u}, 1, NULL, 0, NULL, 0), TT_OUT_DONE);
  CHECK_EQ(tt_l1_read(&S, 0, 4), 1);
  CHECK_EQ(tt_cycle_count(&S), 15);
}

static void test_streamwrcfg_bug(void) {
  /* STREAMWRCFG to Config[0][20], then WRCFG to the same word. Prepare 1 cycle (default): the
   * WRCFG waits behind -3 and writes last. Prepare 2: it enters -1 while the STREAMWRCFG is in
   * -4 (stage -4 is not checked) and is overtaken: the stream value ends in Config. */
  for (unsigned prep = 0; prep < 2; prep++) {
    cyc();
    S.p.knob[TT_KNOB_STREAMWRCFG_PREPARE] = (uint8_t)prep;
    tt_mmio_write(&S, TT_STREAM_BASE + 208 * 4, 0x5555);
    S.c.gpr[0][1] = 0x7777;
    RUN1(0xB7068014u /* STREAMWRCFG sel 0 reg 208 -> idx 20 */, w_wrcfg(1, 0, 20));
    CHECK_EQ(S.c.cfg[0][20], prep ? 0x5555 : 0x7777);
    CHECK_EQ(tt_hazard_count(&S), prep);
    tt_hazard h = {0};
    if (prep) {
      CHECK_EQ(tt_hazard_get(&S, 0, &h), 0);
      CHECK_EQ(h.kind, TT_HAZ_STREAMWRCFG_ORDER);
      CHECK_EQ(h.index, 1);
    }
  }
}

static void test_reset_and_determinism(void) {
  static const uint32_t p0[] = {0x49400041u, 0xB8BF834Cu, 0x58004144u, 0xA2401000u, 0x02000000u};
  static const uint32_t p1[] = {0xA4000004u, 0xA0000002u, 0xA1000002u, 0x10000000u};
  cyc();
  run3(p0, 5, p1, 4, p0, 5);
  uint64_t d = tt_digest(&S), c = tt_cycle_count(&S);
  cyc();
  run3(p0, 5, p1, 4, p0, 5);
  CHECK_EQ(tt_digest(&S), d);
  CHECK_EQ(tt_cycle_count(&S), c);
  tt_reset(&S);
  tt_init(&FRESH);
  tt_set_mode(&FRESH, TT_MODE_CYCLE);
  CHECK(memcmp(&S.c, &FRESH.c, sizeof S.c) == 0, "reset core differs from init");
  CHECK(memcmp(S.issue_cycle, FRESH.issue_cycle, sizeof S.issue_cycle) == 0,
        "issue cycles survive reset");
}

static void test_knobs(void) {
  /* wait_lag=none: the caught successor issues at c+1 */
  cyc();
  tt_knob_set(&S, "wait_lag", "none");
  RUN1(w_stallwait(0x002, 0x001), w_sempost(1));
  CHECK_EQ(issue_at(0, 1), 1);
  /* thcon_scope=all_threads: T1's SEMPOST waits for T0's 4-cycle ADD (AMB-12) */
  for (unsigned k = 0; k < 2; k++) {
    cyc();
    S.p.knob[TT_KNOB_THCON_SCOPE] = (uint8_t)k;
    run3((const uint32_t[]){0x58007244u}, 1, (const uint32_t[]){0xA4000004u}, 1, NULL, 0);
    CHECK_EQ(issue_at(1, 0), k ? 4 : 0);
  }
  /* sync_visibility=same_cycle: T1's ATGETM sees T0's ATRELM of the same cycle */
  for (unsigned k = 0; k < 2; k++) {
    cyc();
    S.p.knob[TT_KNOB_SYNC_VISIBILITY] = (uint8_t)k;
    S.c.mutex[0] = 1;  /* held by t0 */
    run3((const uint32_t[]){w_atrelm(0)}, 1, (const uint32_t[]){w_atgetm(0)}, 1, NULL, 0);
    CHECK_EQ(issue_at(1, 0), k ? 0 : 1);
    CHECK_EQ(S.c.mutex[0], 2);
  }
  /* cfg_stall=no_entry: the second CFGSHIFTMASK waits at its gate until stage 0 is empty */
  for (unsigned k = 0; k < 2; k++) {
    cyc();
    S.p.knob[TT_KNOB_CFG_STALL] = (uint8_t)k;
    RUN1(0xB8BF834Cu, 0xB8BF834Cu);
    CHECK_EQ(issue_at(0, 1), k ? 3 : 1);
    CHECK_EQ(tt_cycle_count(&S), k ? 6 : 5);
  }
  /* gpr_port=loads_first: an RDCFG result landing with a LOADIND result waits one cycle */
  for (unsigned k = 0; k < 2; k++) {
    cyc();
    tt_knob_set(&S, "load_latency", "5");
    S.p.knob[TT_KNOB_GPR_PORT] = (uint8_t)k;
    RUN1(0x49400081u /* LOADIND -> r2, lands c5 */, w_rdcfg(3, 20) /* c3, lands c5 */);
    CHECK_EQ(issue_at(0, 1), 3);
    CHECK_EQ(tt_cycle_count(&S), k ? 6 : 5);
  }
  /* load latency knob moves the write-back */
  cyc();
  tt_knob_set(&S, "load_latency", "12");
  RUN1(0x49400041u);
  CHECK_EQ(tt_cycle_count(&S), 12);
}

/* tt_run fast-forwards over quiet cycles; tt_step never does. Random programs (in-model and
 * outside-unit opcodes, every cycle knob at each of its values in turn) must end byte for byte
 * the same either way: clock, stall counters, issue cycles, hazards and all. Also counts how
 * many cycles the fast-forward took over, so the test fails if it never engages. */
static tt_state STEPPED;
/* tt_cyc.cfgp_occ mirrors the Config pipeline stages' valid flags (config.c writes both). */
static int occ_mirrors(const tt_state *st) {
  unsigned m = 0;
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++) m |= (unsigned)(st->c.cyc.cfgp[k].valid != 0) << k;
  return m == st->c.cyc.cfgp_occ;
}

/* Random three-thread programs under one knob at a time, run with tt_run (fast-forward, held
 * cycles) and cycle by cycle with tt_step: the same end state; the stepped run's pipeline
 * occupancy mirrors its stages after every cycle. */
static void test_fast_forward(void) {
  static const uint8_t ops[] = {0x02, 0x45, 0x49, 0x58, 0x5A, 0x60, 0x61, 0x62, 0x63, 0x64, 0x66,
                                0x67, 0x68, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xB0,
                                0xB1, 0xB2, 0xB3, 0xB7, 0xB8, 0x42, 0x41, 0x28, 0x74, 0x10, 0x12, 0x37};
  static const char *const knobs[] = {"stub_cycles", "load_latency", "atincget_latency",
                                      "c12_scope", "flushdma", "wait_lag", "sync_visibility",
                                      "thcon_release", "cfg_stall", "gpr_port", "c0_stores"};
  uint32_t seed = 777, prog[3][24];
  unsigned mismatches = 0, occ_bad = 0, occ_busy = 0;
  uint64_t skipped = S.skipped_cycles, cycles = 0;
  for (int iter = 0; iter < 600; iter++) {
    for (int t = 0; t < 3; t++)
      for (int i = 0; i < 24; i++) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t op = ops[(seed >> 8) % sizeof ops];
        seed = seed * 1664525u + 1013904223u;
        prog[t][i] = op << 24 | (seed >> 8 & 0xFFFFFF);
      }
    tt_state *run[2] = {&S, &STEPPED};
    for (int k = 0; k < 2; k++) {
      tt_reset(run[k]);
      for (unsigned n = 0; n < TT_KNOB_COUNT; n++) run[k]->p.knob[n] = 0;
      const char *kn = knobs[iter % (sizeof knobs / sizeof knobs[0])];
      int ki = tt_knob_by_name(kn);
      run[k]->p.knob[ki] = (uint8_t)((unsigned)(iter / 11) % tt_knob_value_count((unsigned)ki));
      tt_set_mode(run[k], TT_MODE_CYCLE);
      for (unsigned t = 0; t < 3; t++) tt_load_program(run[k], t, prog[t], 24);
    }
    tt_run(&S, 3000);
    uint64_t i = 0;
    for (; i < 3000 && tt_step(&STEPPED); i++) {
      occ_bad += !occ_mirrors(&STEPPED);
      occ_busy += STEPPED.c.cyc.cfgp_occ != 0;
    }
    STEPPED.c.last_outcome = S.c.last_outcome;
    cycles += S.c.steps;
    mismatches += memcmp(&S, &STEPPED, TT_STATE_BYTES) != 0;
  }
  CHECK_EQ(mismatches, 0);
  CHECK_EQ(occ_bad, 0);
  CHECK(occ_busy > 1000, "the Config pipeline was occupied in %u stepped cycles", occ_busy);
  skipped = S.skipped_cycles - skipped;
  CHECK(skipped * 10 > cycles, "fast-forward took %llu of %llu cycles", (unsigned long long)skipped,
        (unsigned long long)cycles);
  CHECK_EQ(STEPPED.skipped_cycles, 0);
}

/* Held cycles (cycle.c, held_cycles): WRCFG then MULDMAREG, 32 times on T0. Each MULDMAREG
 * holds its thread for two cycles while the WRCFG moves down the Config pipeline, so no cycle is
 * quiet and the fast-forward never engages; tt_run simulates the held cycles without the gate
 * (one cycle in two), and ends in the state tt_step reaches cycle by cycle. */
static void test_held_cycles(void) {
  uint32_t prog[64];
  for (unsigned i = 0; i < 64; i++) prog[i] = i % 2 ? 0x5A00C34Eu /* MULDMAREG_REG 12, 13, 14 */
                                                    : w_wrcfg(11, 0, 3);
  tt_state *run[2] = {&S, &STEPPED};
  for (int k = 0; k < 2; k++) {
    tt_reset(run[k]);
    for (unsigned n = 0; n < TT_KNOB_COUNT; n++) run[k]->p.knob[n] = 0;
    tt_set_mode(run[k], TT_MODE_CYCLE);
    for (unsigned t = 0; t < 3; t++) tt_load_program(run[k], t, prog, t ? 0 : 64);
  }
  uint64_t skipped = S.skipped_cycles;
  CHECK_EQ(tt_run(&S, 100000), TT_OUT_DONE);
  while (tt_step(&STEPPED)) {}
  STEPPED.c.last_outcome = S.c.last_outcome;
  CHECK_EQ(memcmp(&S, &STEPPED, TT_STATE_BYTES), 0);
  CHECK_EQ(tt_cycle_count(&S), 128);
  CHECK_EQ(S.skipped_cycles - skipped, 64);
}

int main(void) {
  tt_init(&S);
  tt_init(&STEPPED);
  test_fast_forward();
  test_held_cycles();
  CHECK_EQ(tt_mode_available(TT_MODE_CYCLE), 1);
  test_timelines();
  test_calibration();
  test_deadlock();
  test_streamwrcfg_bug();
  test_reset_and_determinism();
  test_knobs();
  /* Config pipeline accounting (read by the fuzz invariants cfg_stage_single / cfg_order):
   * every entry counted once, per-thread sequence numbers from 1, all left at the end.
   * t0: WRCFG, RDCFG, RMWCIB0; t1: SETC16 (own group, not the pipeline), WRCFG. */
  cyc();
  run3((uint32_t[]){w_wrcfg(1, 0, 20), w_rdcfg(2, 20), w_rmwcib(0, 0xFF, 1, 21)}, 3,
       (uint32_t[]){w_setc16(5, 1), w_wrcfg(1, 0, 22)}, 2, NULL, 0);
  CHECK_EQ(S.c.cyc.cfgp_entered, 4); CHECK_EQ(S.c.cyc.cfgp_left, 4);
  CHECK_EQ(S.c.cyc.cfgp_seq[0], 3); CHECK_EQ(S.c.cyc.cfgp_seq[1], 1);
  CHECK_EQ(S.c.cyc.cfgp_done_seq[0], 3); CHECK_EQ(S.c.cyc.cfgp_reorders, 0);
  /* hazard counts per kind: an unknown kind counts nothing */
  CHECK_EQ(tt_hazard_kind_count(&S, TT_HAZ_KIND_COUNT), 0);
  CHECK_EQ(tt_hazard_kind_count(&S, 1000), 0);
  /* ... also once hazards were recorded: RDCFG into GPR 1, then ADDDMAREG reading GPR 1 */
  cyc();
  run3((uint32_t[]){w_rdcfg(1, 20), 0x58802041u}, 2, NULL, 0, NULL, 0);
  CHECK_EQ(tt_hazard_kind_count(&S, TT_HAZ_GPR_PENDING), 1);
  CHECK_EQ(tt_hazard_kind_count(&S, TT_HAZ_KIND_COUNT), 0);
  return CHECK_DONE();
}
