/* reset_cost.c — `make bench`: what a reset costs after a typical fuzz run (O(dirty) tt_reset),
 * next to a full tt_init (clears all ~2.6 MiB) and a bare memset of L1, in ns per call. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "fz.h"

static tt_state st;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(void) {
  static fz_prog p;
  tt_init(&st);
  /* a typical program: stores to a few L1 granules, Config and semaphore traffic */
  fz_prog_clear(&p);
  uint64_t rng = 7;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    p.n[t] = 64;
    for (unsigned i = 0; i < 64; i++) p.w[t][i] = fz_random_insn(&rng);
  }
  p.w[0][0] = 0x45001002u;                       /* SETDMAREG gpr1.lo = 0x10 */
  p.w[0][1] = 0x66800041u;                       /* STOREIND_L1 word: L1[gpr1*16] = gpr1 */
  const unsigned N = 20000;
  double run = 0, reset = 0, t0;
  unsigned dirty = 0;
  for (unsigned k = 0; k < N; k++) {
    fz_setup(&st, &p);
    t0 = now();
    tt_run(&st, fz_budget(&p));
    run += now() - t0;
    dirty += st.c.l1_dirty_count + st.c.mmio_dirty_count;
    t0 = now();
    tt_reset(&st);
    reset += now() - t0;
  }
  t0 = now();
  for (unsigned k = 0; k < 200; k++) tt_init(&st);
  double init = (now() - t0) / 200;
  t0 = now();
  for (unsigned k = 0; k < 200; k++) { memset(st.l1, (int)k, sizeof st.l1); __asm__ volatile("" ::: "memory"); }
  double l1 = (now() - t0) / 200;
  printf("reset: tt_reset after a 3x64-instruction run (%.1f dirty granules) %.0f ns; "
         "the run itself %.0f ns; full tt_init %.0f ns; memset of L1 alone %.0f ns\n",
         (double)dirty / N, reset / N, run / N, init, l1);
  return 0;
}
