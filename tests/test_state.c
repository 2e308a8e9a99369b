/* test_state.c — lifecycle: reset equals a fresh init byte for byte (O(dirty)), determinism
 * through the digest, location syntax round trips, knobs, bounded runs. */
#include "model_util.h"

static tt_state F;  /* a fresh init to compare against */

static uint32_t lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s; }

int main(void) {
  tt_init(&F);
  tt_init(&S);
  CHECK(memcmp(&S, &F, sizeof S) == 0, "two inits are identical");
  /* Random programs over in-scope opcodes with random state, then reset == init. */
  static const uint8_t ops[] = {0x02, 0x45, 0x49, 0x58, 0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x60, 0x61,
                                0x62, 0x63, 0x64, 0x66, 0x67, 0x68, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4,
                                0xA5, 0xA6, 0xA7, 0xB0, 0xB1, 0xB2, 0xB3, 0xB6, 0xB7, 0xB8, 0x10};
  uint32_t seed = 12345, prog[3][48];
  uint64_t digests[2] = {0, 0};
  unsigned mismatches = 0, determinism = 0;
  for (int iter = 0; iter < 400; iter++) {
    for (int t = 0; t < 3; t++)
      for (int i = 0; i < 48; i++)
        prog[t][i] = (uint32_t)ops[lcg(&seed) % sizeof ops] << 24 | (lcg(&seed) & 0xFFFFFF);
    for (int pass = 0; pass < 2; pass++) {
      tt_reset(&S);
      for (int t = 0; t < 3; t++)
        for (int i = 0; i < 8; i++) S.c.gpr[t][i] = (uint32_t)(iter * 0x9E3779B1u + (uint32_t)i * 0x100u) & 0x1FFFF;
      tt_load_program(&S, 0, prog[0], 48);
      tt_load_program(&S, 1, prog[1], 48);
      tt_load_program(&S, 2, prog[2], 48);
      tt_outcome o = tt_run(&S, 1000);
      CHECK(o == TT_OUT_DONE || o == TT_OUT_DEADLOCK, "iteration %d ended %d", iter, o);
      CHECK(S.c.steps <= 2 * 3 * 48 + 1, "functional run bounded by 2N+1 rounds");
      digests[pass] = tt_digest(&S);
    }
    determinism += digests[0] != digests[1];
    tt_reset(&S);
    mismatches += memcmp(&S, &F, TT_STATE_BYTES) != 0;
  }
  CHECK_EQ(mismatches, 0);
  CHECK_EQ(determinism, 0);
  /* The digest sees a single L1 byte; and an all-zero write does not count. */
  tt_reset(&S);
  uint64_t d0 = tt_digest(&S);
  tt_l1_write(&S, 0x17FFFF, 1, 0);
  CHECK_EQ(tt_digest(&S), d0);
  tt_l1_write(&S, 0x17FFFF, 1, 1);
  CHECK(tt_digest(&S) != d0, "digest changes with L1");
  tt_reset(&S);
  CHECK(memcmp(&S, &F, TT_STATE_BYTES) == 0, "reset clears the last L1 byte");
  /* Knobs survive reset. */
  tt_knob_set(&S, "l1_size", "1464k");
  tt_reset(&S);
  CHECK_EQ(S.p.knob[TT_KNOB_L1_SIZE], 1);
  tt_knob_set(&S, "l1_size", "1536k");
  /* Location syntax round trip. */
  const char *locs[] = {"t2.gpr[63]", "cfg[1][223]", "tcfg[0][67]", "sem[7].value", "sem[0].max",
                        "mutex[4]", "l1.u8[0x17FFFF]", "l1.u16[0x2]", "l1.u32[0x17FFFC]",
                        "mmio[0xFFB11000]", "mmio[0xFFBFFFFC]"};
  for (unsigned i = 0; i < sizeof locs / sizeof locs[0]; i++) {
    tt_loc l; const char *err = NULL; char buf[64];
    CHECK(tt_loc_parse(locs[i], strlen(locs[i]), &l, &err) == 0, "%s: %s", locs[i], err ? err : "");
    tt_loc_format(&l, buf, sizeof buf);
    CHECK(strcmp(buf, locs[i]) == 0, "%s formats as %s", locs[i], buf);
  }
  const char *bad[] = {"t3.gpr[0]", "t0.gpr[64]", "cfg[2][0]", "cfg[0][224]", "tcfg[0][68]",
                       "sem[8].value", "sem[0]", "mutex[1]", "l1.u16[0x1]", "l1.u32[0x180000]",
                       "mmio[0xFFB10FFC]", "mmio[0xFFB11002]", "gpr[0]", "t0.gpr[0]x", "cfg[0x][1]"};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tt_loc l; const char *err = NULL;
    CHECK(tt_loc_parse(bad[i], strlen(bad[i]), &l, &err) != 0 && err, "%s rejected", bad[i]);
  }
  /* Strict diff finds a stray write to the other bank. */
  tt_reset(&S);
  memcpy(&F, &S, sizeof S);
  S.c.cfg[1][20] = 5; S.c.cfg_touched = 3;  /* written directly */
  tt_l1_write(&S, 0x40, 4, 9);
  CHECK_EQ(tt_state_diff(&F, &S, NULL, NULL), 2);
  /* Budget: a run stops at its budget. */
  tt_reset(&S);
  uint32_t nops[100];
  for (int i = 0; i < 100; i++) nops[i] = 0x02000000u;
  tt_load_program(&S, 0, nops, 100);
  CHECK_EQ(tt_run(&S, 10), TT_OUT_BUDGET);
  CHECK_EQ(S.c.steps, 10);
  CHECK_EQ(tt_run(&S, 1000), TT_OUT_DONE);
  CHECK_EQ(tt_load_program(&S, 3, nops, 1), -1);
  CHECK_EQ(tt_load_program(&S, 0, nops, TT_PROG_MAX + 1), -1);
  CHECK_EQ(tt_set_mode(&S, (tt_mode)2), -1);
  CHECK_EQ(tt_set_mode(&S, TT_MODE_CYCLE), 0);
  CHECK_EQ(tt_set_mode(&S, TT_MODE_FUNC), 0);
  /* L1 accessors: at most four bytes (a larger count is clipped to four), and an access that
   * crosses a 64-byte granule or the end of L1 touches exactly its own bytes. */
  tt_reset(&S);
  tt_l1_write(&S, 0x100, 8, 0xA1B2C3D4u);
  CHECK_EQ(tt_l1_read(&S, 0x104, 4), 0);
  tt_l1_write(&S, 0x104, 1, 0x5A);
  CHECK_EQ(tt_l1_read(&S, 0x100, 4), 0xA1B2C3D4u);
  CHECK_EQ(tt_l1_read(&S, 0x100, 5), 0xA1B2C3D4u);
  CHECK_EQ(tt_l1_read(&S, 0x100, 8), 0xA1B2C3D4u);
  tt_l1_write(&S, 0x13E, 4, 0x11223344u);               /* crosses granules 4 and 5 */
  CHECK_EQ(tt_l1_read(&S, 0x13E, 4), 0x11223344u);
  CHECK_EQ(tt_l1_read(&S, 0x13C, 2), 0);
  CHECK_EQ(tt_l1_read(&S, 0x142, 2), 0);
  tt_l1_write(&S, TT_L1_SIZE - 2, 4, 0x55667788u);      /* past the end: two bytes land */
  CHECK_EQ(tt_l1_read(&S, TT_L1_SIZE - 2, 4), 0x7788u);
  CHECK_EQ(tt_l1_read(&S, TT_L1_SIZE - 4, 2), 0);
  tt_reset(&S);
  CHECK(memcmp(&S, &F, TT_STATE_BYTES) == 0, "reset after the accessor checks");
  /* The decoded stream: a load forgets the previous program's decodes (pdec_n[t] = 0: no
   * place decoded), the general issue path (tt_step here) decodes each word it fetches once,
   * and a program loaded over another (no reset in between) runs as its own words say
   * (functional mode; a finished cycle-mode run only restarts after a reset). Program A sets
   * semaphore 0 to 5 and GPR 1; B, same length, posts instead and sets GPR 2. */
  const uint32_t pa[3] = {w_seminit(15, 5, 1), w_setdmareg(7, 2), w_sempost(1)};
  const uint32_t pb[3] = {w_sempost(1), w_setdmareg(9, 4), w_sempost(1)};
  for (int k = 0; k < 2; k++) {
    tt_state *x = k ? &F : &S;
    tt_init(x);
    tt_load_program(x, 1, pa, 3);
    CHECK_EQ(x->pdec_n[1], 0);
    for (int r = 0; r < 10 && tt_step(x); r++) continue;
    CHECK(tt_thread_done(x, 1), "A ran to its end in rounds");
    CHECK_EQ(x->pdec_n[1], 3);
    for (unsigned i = 0; i < 3; i++) {
      tt_insn d;
      tt_decode(pa[i], &d);  /* the stream keeps the head of the decode (tt_decode_head) */
      CHECK(memcmp(&x->pdec[1][i], &d, offsetof(tt_insn, a)) == 0, "word %u decoded at its fetch", i);
    }
    CHECK_EQ(x->c.sem_value[0], 6);
    if (k == 1) tt_init(x);  /* F runs B alone, from init */
    tt_load_program(x, 1, pb, 3);
    CHECK_EQ(x->pdec_n[1], 0);  /* A's decodes forgotten */
    for (int r = 0; r < 10 && tt_step(x); r++) continue;
    CHECK(tt_thread_done(x, 1), "B ran to its end in rounds");
    for (unsigned i = 0; i < 3; i++) CHECK_EQ(x->pdec[1][i].word, pb[i]);
  }
  /* a word that never runs is never decoded: one round fetches A's first word only */
  tt_init(&F);
  tt_load_program(&F, 1, pa, 3);
  CHECK_EQ(tt_step(&F), 1);
  CHECK_EQ(F.pdec_n[1], 1);
  /* tt_run issues these three words by its quick path, from the words and the decoder's opcode
   * entries (tt_isa_ops), without the decoded stream */
  tt_init(&F);
  tt_load_program(&F, 1, pa, 3);
  CHECK_EQ(tt_run(&F, 1000), TT_OUT_DONE);
  CHECK_EQ(F.pdec_n[1], 0);
  CHECK_EQ(F.c.sem_value[0], 6);
  tt_init(&F);  /* F runs B alone again, for the checks below */
  tt_load_program(&F, 1, pb, 3);
  CHECK_EQ(tt_run(&F, 1000), TT_OUT_DONE);
  CHECK_EQ(S.c.sem_value[0], 8);    /* 5 + 1 from A, + 2 from B */
  CHECK_EQ(F.c.sem_value[0], 2);    /* B alone */
  CHECK_EQ(S.c.gpr[1][2], 9);
  CHECK_EQ(S.c.gpr[1][1], 7);       /* A's GPR write stays; B alone never writes GPR 1 */
  CHECK_EQ(F.c.gpr[1][1], 0);
  CHECK_EQ(F.c.gpr[1][2], 9);
  /* after a reset no program is loaded: nothing of A or B runs again */
  tt_reset(&S);
  CHECK_EQ(tt_run(&S, 1000), TT_OUT_DONE);
  CHECK_EQ(S.c.thr[1].retired, 0);
  return CHECK_DONE();
}
