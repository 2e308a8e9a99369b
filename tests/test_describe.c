/* test_describe.c — tt_describe_wait(): the readable wait reason of each kind, compared whole
 * (the runner prints it for `expect tN done` / `blocked` failures and ttrun shows it).
 * Each program ends in a deadlock in functional mode; the text is that of the final round. */
#include "model_util.h"

static char why[256];

static void expect_text(unsigned t, const char *want) {
  tt_describe_wait(&S, t, why, sizeof why);
  CHECK(strcmp(why, want) == 0, "t%u: \"%s\", expected \"%s\"", t, why, want);
}

int main(void) {
  tt_init(&S);
  /* SEMWAIT latch: block B1|B7 (0x082), semaphores 1 and 6 (mask 0x42), C0|C1; semaphore 1
   * value 0 max 3, semaphore 6 value 9 max 2. 0xA6 << 24 | 0x082 << 15 | 0x42 << 2 | 3. */
  fresh();
  S.c.sem_max[1] = 3;
  S.c.sem_value[6] = 9; S.c.sem_max[6] = 2;
  RUN1(0xA6410000u | 0x42u << 2 | 3u, w_sempost(0x01));
  expect_text(0, "at instruction 0x1 (0xA4000004): latched SEMWAIT block=0x82 cond=0x3 sems=0x42"
                 " sem1=0x0/max 0x3 sem6=0x9/max 0x2");
  /* STREAMWAIT latch: stream select 2 -> ThreadConfig 61 = 0x45 (bank-select field 0x3F: stream
   * 5), condition 0 (phase, register 29), target Lo 0x20; block B1.
   * 0xA7 << 24 | 0x002 << 15 | 0x20 << 4 | 0 << 3 | 2 = 0xA7010202. */
  fresh();
  S.c.tcfg[0][TT_TCFG_STREAM_ID_SYNC + 2] = 0x45;
  RUN1(0xA7010202u, w_sempost(0x01));
  expect_text(0, "at instruction 0x1 (0xA4000004): latched STREAMWAIT block=0x2 cond=0x1"
                 " stream=0x5 target=0x20 now=0x0");
  /* STALLWAIT latch (functional mode: never holds, so it is shown only while set): none here */
  /* ATGETM of mutex 3 held by t2 */
  fresh();
  S.c.mutex[3] = 3;
  RUN1(w_atgetm(3));
  expect_text(0, "at instruction 0x0 (0xA0000003): ATGETM: mutex 0x3 held by t2");
  /* a spinning ATCAS of t1 holds ThCon: t2's SETDMAREG waits for it. ATCAS: SetVal 1, CmpVal 5,
   * Ofs 0, AddrReg 0 -> 0x64 << 24 | 1 << 18 | 5 << 14 = 0x64054000 (L1 word 0 is 0) */
  fresh();
  {
    const uint32_t p1[] = {0x64054000u};
    const uint32_t p2[] = {0x02000000u, w_setdmareg(7, 0)};
    CHECK_EQ(run3(NULL, 0, p1, 1, p2, 2), TT_OUT_DEADLOCK);
  }
  expect_text(1, "at instruction 0x0 (0x64054000): ATCAS: compare fails, retrying");
  expect_text(2, "at instruction 0x1 (0x45000700): ThCon busy: held by the spinning atomic of t1");
  CHECK_EQ(S.c.thcon_spinner, 2);
  CHECK_EQ(S.c.gpr[2][0], 0);
  /* and held by t2's atomic, seen from t0 */
  fresh();
  {
    const uint32_t p0[] = {0x02000000u, w_setdmareg(7, 0)};
    const uint32_t p2[] = {0x64054000u};
    CHECK_EQ(run3(p0, 2, NULL, 0, p2, 1), TT_OUT_DEADLOCK);
  }
  expect_text(0, "at instruction 0x1 (0x45000700): ThCon busy: held by the spinning atomic of t2");
  return CHECK_DONE();
}
