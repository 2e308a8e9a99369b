/* test_sync.c — Sync Unit: semaphores (SyncUnit.md, SEMINIT/SEMPOST/SEMGET.md) and mutexes
 * (ATGETM.md, ATRELM.md). */
#include "model_util.h"

int main(void) {
  tt_init(&S);
  /* SEMINIT sets value and max without clamping; mask selects several semaphores. */
  RUN1(w_seminit(3, 9, 0x81));
  CHECK_EQ(S.c.sem_value[0], 9); CHECK_EQ(S.c.sem_max[0], 3);
  CHECK_EQ(S.c.sem_value[7], 9); CHECK_EQ(S.c.sem_max[7], 3);
  CHECK_EQ(S.c.sem_value[1], 0);
  /* SEMPOST saturates at 15 whatever Max is. */
  fresh();
  RUN1(w_seminit(2, 14, 0x1), w_sempost(0x1), w_sempost(0x1), w_sempost(0x1));
  CHECK_EQ(S.c.sem_value[0], 15);
  /* SEMGET floors at 0. */
  fresh();
  RUN1(w_seminit(0, 1, 0x6), w_semget(0x6), w_semget(0x6));
  CHECK_EQ(S.c.sem_value[1], 0); CHECK_EQ(S.c.sem_value[2], 0);
  /* Mask bits beyond [9:2] do not select anything (reserved: fault undefined by default). */
  fresh();
  RUN1(0xA4000400u);
  for (int i = 0; i < 8; i++) CHECK_EQ(S.c.sem_value[i], 0);
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_UNDEFINED);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_RESERVED_BITS);

  /* Mutexes 0,2,3,4 acquire and release; owner re-acquire keeps it. */
  unsigned valid[] = {0, 2, 3, 4};
  for (unsigned k = 0; k < 4; k++) {
    fresh();
    RUN1(w_atgetm(valid[k]), w_atgetm(valid[k]));
    CHECK_EQ(S.c.mutex[valid[k]], 1);
    CHECK(tt_thread_done(&S, 0), "mutex %u", valid[k]);
    fresh();
    RUN1(w_atgetm(valid[k]), w_atrelm(valid[k]));
    CHECK_EQ(S.c.mutex[valid[k]], 0);
  }
  /* Invalid index: waits forever, run ends in deadlock, thread blocked, no fault. */
  fresh();
  CHECK_EQ(run3((uint32_t[]){w_atgetm(1)}, 1, NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  CHECK(tt_thread_blocked(&S, 0), "mutex 1 blocks");
  CHECK_EQ(S.c.thr[0].wait_kind, TT_WAIT_MUTEX_INVALID);
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE);
  {
    char why[160];
    tt_describe_wait(&S, 0, why, sizeof why);
    CHECK(strstr(why, "mutex index 0x1 does not exist") != NULL, "wait reason: %s", why);
    tt_describe_wait(&S, 1, why, sizeof why);
    CHECK(strcmp(why, "done") == 0, "T1 reason: %s", why);
    CHECK_EQ(tt_describe_wait(&S, 0, why, 8), strlen("at instruction 0x0 (0xA0000001): mutex index 0x1 does not exist on Blackhole (valid: 0, 2, 3, 4): waits forever"));
    CHECK_EQ(strlen(why), 7);
  }
  fresh();
  CHECK_EQ(run3((uint32_t[]){w_atrelm(5)}, 1, (uint32_t[]){w_sempost(1)}, 1, NULL, 0), TT_OUT_DEADLOCK);
  CHECK(tt_thread_blocked(&S, 0), "ATRELM 5 blocks");
  CHECK(!tt_thread_blocked(&S, 1), "T1 finished");
  CHECK_EQ(S.c.sem_value[0], 1);
  /* Release by a non-owner changes nothing. */
  fresh();
  run3((uint32_t[]){w_atgetm(2)}, 1, (uint32_t[]){w_sempost(0), w_atrelm(2)}, 2, NULL, 0);
  CHECK_EQ(S.c.mutex[2], 1);
  /* Contention: T1 waits until T0 releases. T0: get, post, release. T1: get, semget-check. */
  fresh();
  CHECK_EQ(run3((uint32_t[]){w_atgetm(0), w_sempost(1), w_atrelm(0)}, 3,
                (uint32_t[]){w_atgetm(0), w_seminit(0, 7, 2)}, 2, NULL, 0), TT_OUT_DONE);
  CHECK_EQ(S.c.mutex[0], 2);  /* T1 holds it at the end */
  CHECK_EQ(S.c.sem_value[1], 7); /* T1's SEMINIT ran after T0's SEMPOST */
  /* Fairness: T2 holds mutex 3 while T0 and T1 wait at ATGETM; T2's release hands the mutex
   * to (2+1)%3 = T0. Stepped round by round to observe the hand-over itself. */
  fresh();
  {
    uint32_t p0[] = {0x60000000u, w_atgetm(3), w_atrelm(3)};
    uint32_t p1[] = {0x60000000u, w_atgetm(3), w_atrelm(3)};
    uint32_t p2[] = {w_atgetm(3), 0x60000000u, 0x60000000u, w_atrelm(3)};
    run3(NULL, 0, NULL, 0, NULL, 0);
    tt_load_program(&S, 0, p0, 3); tt_load_program(&S, 1, p1, 3); tt_load_program(&S, 2, p2, 4);
    for (int r = 0; r < 3; r++) tt_step(&S);    /* T0, T1 now wait; T2 before its ATRELM */
    CHECK_EQ(S.c.thr[0].wait_kind, TT_WAIT_MUTEX);
    CHECK_EQ(S.c.thr[1].wait_kind, TT_WAIT_MUTEX);
    tt_step(&S);                                 /* T0, T1 still wait, then T2 releases */
    CHECK_EQ(S.c.mutex[3], 0);
    CHECK_EQ(S.c.mutex_handoff[3], 1 + 0);
    tt_step(&S);                                 /* T0 takes it; T1 keeps waiting */
    CHECK_EQ(S.c.mutex[3], 1 + 0);
    CHECK_EQ(S.c.thr[1].wait_kind, TT_WAIT_MUTEX);
    CHECK_EQ(tt_run(&S, 100), TT_OUT_DONE);
    CHECK_EQ(S.c.mutex[3], 0);
  }
  return CHECK_DONE();
}
