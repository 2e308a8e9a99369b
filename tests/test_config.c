/* test_config.c — Configuration Unit (BlackholeA0 ConfigurationUnit.md, WRCFG.md, RDCFG.md,
 * SETC16.md, RMWCIB.md, STREAMWRCFG.md, CFGSHIFTMASK.md, BackendConfiguration.md). */
#include "model_util.h"

int main(void) {
  tt_init(&S);
  /* Bank selection per thread through ThreadConfig word 0; globals reach both banks. */
  S.c.gpr[0][5] = 0x11111111; S.c.gpr[1][5] = 0x22222222;
  CHECK_EQ(run3((uint32_t[]){w_wrcfg(5, 0, 20), w_wrcfg(5, 0, 200)}, 2,
                (uint32_t[]){w_setc16(0, 1), w_wrcfg(5, 0, 20)}, 2, NULL, 0), TT_OUT_DONE);
  CHECK_EQ(S.c.cfg[0][20], 0x11111111); CHECK_EQ(S.c.cfg[1][20], 0x22222222);
  CHECK_EQ(S.c.cfg[0][200], 0x11111111); CHECK_EQ(S.c.cfg[1][200], 0x11111111);
  /* 128-bit WRCFG aligns both indices down. */
  fresh();
  for (int k = 0; k < 8; k++) S.c.gpr[0][k] = 0xA0 + (uint32_t)k;
  RUN1(w_wrcfg(6, 1, 23));
  for (int k = 0; k < 4; k++) CHECK_EQ(S.c.cfg[0][20 + k], 0xA4 + (uint32_t)k);
  CHECK_EQ(S.c.cfg[0][24], 0);
  /* Index >= 224 is UB: recorded, nothing written. */
  fresh();
  S.c.gpr[0][1] = 5;
  RUN1(w_wrcfg(1, 0, 224), w_rdcfg(2, 300));
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_CFG_INDEX);
  CHECK_EQ(S.c.thr[0].fault_count, 2);
  CHECK_EQ(S.c.gpr[0][2], 0);
  /* STATE_RESET_EN: any non-RMWCIB write clears words 0..179 of that bank only. */
  fresh();
  S.c.cfg[0][76] = 0x1234; S.c.cfg[1][76] = 0x5678; S.c.cfg[0][200] = S.c.cfg[1][200] = 0xABCD; S.c.cfg_touched = 3;  /* written directly */
  S.c.gpr[0][1] = 1;
  RUN1(w_wrcfg(1, 0, 4));
  CHECK_EQ(S.c.cfg[0][76], 0); CHECK_EQ(S.c.cfg[1][76], 0x5678);
  CHECK_EQ(S.c.cfg[0][200], 0xABCD); CHECK_EQ(S.c.cfg[0][4], 0);
  fresh();
  CHECK_EQ(tt_knob_set(&S, "state_reset_en", "keep_written"), 0);
  S.c.cfg[0][76] = 0x1234; S.c.gpr[0][1] = 1; S.c.cfg_touched = 3;  /* written directly */
  RUN1(w_wrcfg(1, 0, 4));
  CHECK_EQ(S.c.cfg[0][76], 0); CHECK_EQ(S.c.cfg[0][4], 1);
  tt_knob_set(&S, "state_reset_en", "write_then_clear");
  fresh();
  S.c.cfg[0][76] = 0x1234; S.c.cfg_touched = 3;  /* written directly */
  RUN1(w_rmwcib(0, 0xFF, 0x01, 4));   /* RMWCIB is exempt */
  CHECK_EQ(S.c.cfg[0][76], 0x1234); CHECK_EQ(S.c.cfg[0][4], 1);
  /* RMWCIB lanes and masks. */
  fresh();
  S.c.cfg[0][30] = 0x11223344; S.c.cfg_touched = 3;  /* written directly */
  RUN1(w_rmwcib(2, 0xF0, 0xAB, 30), w_rmwcib(0, 0x00, 0xFF, 30), w_rmwcib(3, 0xFF, 0x5A, 30));
  CHECK_EQ(S.c.cfg[0][30], 0x5AA23344);
  /* RMWCIB on a global word writes both banks. */
  fresh();
  RUN1(w_setc16(0, 1), w_rmwcib(1, 0xFF, 0x12, 190));
  CHECK_EQ(S.c.cfg[0][190], 0x1200); CHECK_EQ(S.c.cfg[1][190], 0x1200);
  /* PRNG reseed and I-cache invalidation are recorded side effects of global words. */
  fresh();
  S.c.gpr[0][1] = 0xDEADBEEF; S.c.gpr[0][2] = 0x12;
  RUN1(w_wrcfg(1, 0, 186), w_wrcfg(2, 0, 185));
  CHECK_EQ(S.c.prng_seed, 0xDEADBEEF); CHECK_EQ(S.c.prng_reseeds, 1);
  CHECK_EQ(S.c.icache_invalidates[1], 1); CHECK_EQ(S.c.icache_invalidates[4], 1);
  CHECK_EQ(S.c.icache_invalidates[0], 0);
  /* ... and the recorded counts stay what was recorded while waits come and go (rounds that
   * re-evaluate latches read only the three threads' latches) */
  fresh();
  S.c.gpr[0][2] = 0x12;
  RUN1(w_wrcfg(2, 0, 185), w_stallwait(0x1FF, 1), 0x02000000u, w_stallwait(0x1FF, 2), 0x02000000u);
  CHECK_EQ(S.c.icache_invalidates[1], 1); CHECK_EQ(S.c.icache_invalidates[4], 1);
  CHECK_EQ(S.c.thr[0].pc, 5);
  /* SETC16: 16-bit store, index >= 68 UB, word 41 side effect. */
  fresh();
  RUN1(w_setc16(67, 0xFFFF), w_setc16(68, 1), w_setc16(41, 0x1010));
  CHECK_EQ(S.c.tcfg[0][67], 0xFFFF);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_TCFG_INDEX);
  CHECK_EQ(S.c.ctx_cnt_resets[0][0], 1); CHECK_EQ(S.c.ctx_cnt_resets[0][1], 1);
  /* RDCFG reads the thread's bank. */
  fresh();
  S.c.cfg[1][50] = 0x77; S.c.cfg_touched = 3;  /* written directly */
  RUN1(w_setc16(0, 1), w_rdcfg(9, 50));
  CHECK_EQ(S.c.gpr[0][9], 0x77);
  /* STREAMWRCFG: Config[S][idx] = stream register of STREAM_ID_SYNC_SEC[sel]. */
  fresh();
  S.c.tcfg[0][TT_TCFG_STREAM_ID_SYNC + 3] = 9;
  tt_mmio_write(&S, TT_STREAM_BASE + 9 * 0x1000 + 208 * 4, 0xCAFE);
  RUN1(0xB7000000u | 3u << 21 | 208u << 11 | 33);
  CHECK_EQ(S.c.cfg[0][33], 0xCAFE);
  /* CFGSHIFTMASK, the two worked words of AMB-8 (ISA reading). */
  fresh();
  RUN1(0xB8418014u);
  CHECK_EQ(S.c.cfg[0][20], 0xFFFFFFFF);
  fresh();
  S.c.cfg[0][209] = S.c.cfg[1][209] = 5; S.c.cfg[0][20] = 0x12345678; S.c.cfg_touched = 3;  /* written directly */
  RUN1(0xB8619014u);
  CHECK_EQ(S.c.cfg[0][20], 0xADCBA987);
  /* scratch select 3 = thread id: T2 uses SCRATCH_SEC2 (word 211); mode 3 adds. */
  fresh();
  S.c.cfg[0][211] = S.c.cfg[1][211] = 0x100; S.c.cfg[0][76] = 0x20; S.c.cfg_touched = 3;  /* written directly */
  run3(NULL, 0, NULL, 0, (uint32_t[]){0xB8000000u | 1u << 23 | 3u << 20 | 31u << 15 | 3u << 8 | 76}, 1);
  CHECK_EQ(S.c.cfg[0][76], 0x120);
  return CHECK_DONE();
}
