/* test_waitgate.c — the Wait Gate latch (BlackholeA0 STALLWAIT.md block table and defaults,
 * SEMWAIT.md, STREAMWAIT.md; WormholeB0 WaitGate.md). White-box: uses internal.h. */
#include "model_util.h"
#include "internal.h"

static unsigned bits(uint32_t w) { tt_insn in; tt_decode(w, &in); return in.block_bits; }

int main(void) {
  tt_init(&S);
  /* Default substitution: zero fields latch B6 / 0x0F. Observe the latch right after issue. */
  tt_load_program(&S, 0, (uint32_t[]){w_stallwait(0, 0)}, 1);
  tt_step(&S);
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_STALLWAIT);
  CHECK_EQ(S.c.thr[0].latch.block_mask, 0x040);
  CHECK_EQ(S.c.thr[0].latch.cond_mask, 0x00F);
  tt_step(&S);  /* functional mode: every STALLWAIT condition is false -> forgotten */
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_NONE);
  fresh();
  tt_load_program(&S, 0, (uint32_t[]){w_semwait(0, 0x1, 0x1)}, 1);
  tt_step(&S);
  CHECK_EQ(S.c.thr[0].latch.block_mask, 0x040);
  CHECK_EQ(S.c.thr[0].latch.sem_mask, 0x1);

  /* Block table classes. */
  CHECK(tt_gate_catches(0x002, bits(w_sempost(1))), "B1 catches SEMPOST");
  CHECK(!tt_gate_catches(0x0FD, bits(w_sempost(1))), "only B1 catches SEMPOST");
  CHECK(tt_gate_catches(0x020, bits(0x58000000u)) && tt_gate_catches(0x001, bits(0x58000000u)), "B0/B5 catch ADDDMAREG");
  CHECK(!tt_gate_catches(0x1DE, bits(0x58000000u)), "only B0/B5 catch ADDDMAREG");
  CHECK(tt_gate_catches(0x080, bits(w_wrcfg(0, 0, 0))) && !tt_gate_catches(0x17F, bits(w_wrcfg(0, 0, 0))), "B7 only for WRCFG");
  CHECK(tt_gate_catches(0x001, bits(0x44000000u)) && !tt_gate_catches(0x020, bits(0x44000000u)), "RSTDMA: B0 only");
  for (unsigned b = 0; b < 9; b++) {
    CHECK(tt_gate_catches((uint16_t)(1u << b), bits(w_stallwait(0, 0))), "every bit catches STALLWAIT (B%u)", b);
    CHECK(tt_gate_catches((uint16_t)(1u << b), bits(0xA7000000u)), "every bit catches STREAMWAIT (B%u)", b);
  }
  CHECK(tt_gate_catches(0x1FF, bits(0x02000000u)) && !tt_gate_catches(0x0FF, bits(0x02000000u)), "NOP only under 0x1FF");
  CHECK(tt_gate_catches(0x040, bits(0x10000000u)) && !tt_gate_catches(0x1BF, bits(0x10000000u)), "ZEROACC: B6");
  CHECK(!tt_gate_catches(0x1FF, bits(0x01000000u)), "MOP never reaches the gate");

  /* A B1 latch on sem0 == 0 holds SEMPOST but lets WRCFG and ADDDMAREG through. */
  fresh();
  S.c.gpr[0][1] = 7;
  CHECK_EQ(run3((uint32_t[]){w_semwait(0x002, 0x1, 0x1), w_wrcfg(1, 0, 20), 0x58001041u /* r1+r1->r1 */, w_sempost(0x2)}, 4,
                NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.cfg[0][20], 7);
  CHECK_EQ(S.c.gpr[0][1], 14);
  CHECK_EQ(S.c.sem_value[1], 0);
  CHECK_EQ(S.c.thr[0].pc, 3);
  CHECK_EQ(S.c.thr[0].wait_kind, TT_WAIT_LATCH);
  /* ... and another thread's SEMPOST releases it. */
  fresh();
  CHECK_EQ(run3((uint32_t[]){w_semwait(0x002, 0x1, 0x1), w_sempost(0x2)}, 2,
                (uint32_t[]){0x60000000u, 0x60000000u, w_sempost(0x1)}, 3, NULL, 0), TT_OUT_DONE);
  CHECK_EQ(S.c.sem_value[1], 1);
  /* Never-replace: a second wait waits behind the latched one (it is caught by every bit). */
  fresh();
  S.c.sem_max[2] = 1;
  CHECK_EQ(run3((uint32_t[]){w_semwait(0x080, 0x1, 0x1), w_stallwait(0x002, 0), w_sempost(0x4)}, 3,
                NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.thr[0].pc, 1);
  CHECK_EQ(S.c.sem_value[2], 0);
  /* SEMWAIT C1 waits while value >= max (max 0: always). */
  fresh();
  CHECK_EQ(run3((uint32_t[]){w_semwait(0x002, 0x1, 0x2), w_sempost(0x2)}, 2, NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  fresh();
  S.c.sem_max[0] = 3; S.c.sem_value[0] = 2;
  CHECK_EQ(run3((uint32_t[]){w_semwait(0x002, 0x1, 0x2), w_sempost(0x2)}, 2, NULL, 0, NULL, 0), TT_OUT_DONE);
  /* SemaphoreMask 0 with a valid condition: nothing to wait on. */
  fresh();
  CHECK_EQ(run3((uint32_t[]){w_semwait(0x002, 0x0, 0x3), w_sempost(0x2)}, 2, NULL, 0, NULL, 0), TT_OUT_DONE);
  /* ConditionMask 0: UB by default (no latch), STALLWAIT fallback with the knob (AMB-2). */
  fresh();
  RUN1(w_semwait(0x002, 0x1, 0));
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_SEMWAIT_COND0);
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_NONE);
  fresh();
  CHECK_EQ(tt_knob_set(&S, "semwait_cond0", "stallwait"), 0);
  tt_load_program(&S, 0, (uint32_t[]){w_semwait(0x002, 0x1, 0)}, 1);
  tt_step(&S);
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_STALLWAIT);
  CHECK_EQ(S.c.thr[0].latch.cond_mask, 0x00F);
  CHECK_EQ(tt_knob_set(&S, "semwait_cond0", "undefined"), 0);
  CHECK_EQ(tt_knob_set(&S, "semwait_cond0", "nonsense"), -2);
  CHECK_EQ(tt_knob_set(&S, "no_such_knob", "x"), -1);
  /* STALLWAIT bits 13/14 are not part of the BH condition mask (AMB-7): reserved. */
  fresh();
  RUN1(0xA2202000u);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_RESERVED_BITS);
  CHECK_EQ(S.c.thr[0].latch.cond_mask, 0x00F);  /* 13-bit field is 0 -> default 0x0F */

  /* STREAMWAIT: target (PHASE_HI << 10) | Lo; stream from ThreadConfig[59+sel]; released when
   * another thread's STOREREG raises the phase register. Stream 5 phase = 0xFFB45074. */
  fresh();
  S.c.tcfg[0][TT_TCFG_STREAMWAIT_PHASE_HI] = 3;
  S.c.tcfg[0][TT_TCFG_STREAM_ID_SYNC + 2] = 5;
  S.c.gpr[1][4] = 0xC10;  /* T1 stores 3<<10 | 0x10 */
  uint32_t sw = 0xA7000000u | 0x002u << 15 | 0x10u << 4 | 0 << 3 | 2;  /* B1, Lo 0x10, C0, sel 2 */
  uint32_t storereg = 0x67000000u | 4u << 18 | ((0xFFB45074u - TT_MMIO_BASE) >> 2);
  CHECK_EQ(run3((uint32_t[]){sw, w_sempost(0x1)}, 2, NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.thr[0].latch.target, 0xC10);
  fresh();
  S.c.tcfg[0][TT_TCFG_STREAMWAIT_PHASE_HI] = 3;
  S.c.tcfg[0][TT_TCFG_STREAM_ID_SYNC + 2] = 5;
  S.c.gpr[1][4] = 0xC10;
  CHECK_EQ(run3((uint32_t[]){sw, w_sempost(0x1)}, 2, (uint32_t[]){0x60000000u, storereg}, 2, NULL, 0), TT_OUT_DONE);
  CHECK_EQ(tt_mmio_read(&S, 0xFFB45074u), 0xC10);
  CHECK_EQ(S.c.sem_value[0], 1);
  /* The latched record (digest 3.4): STREAMWAIT latches SemMask 0, Cond = 1 << ConditionIndex,
   * its StreamSelect and condition index; STALLWAIT after it (a new latch) clears them again.
   * STREAMWAIT B1, Lo 0x3FF, C1 (messages), StreamSelect 3 = 0xA7013FFB. */
  fresh();
  S.c.tcfg[0][TT_TCFG_STREAMWAIT_MSGS_HI] = 0x7F;
  RUN1(0xA7013FFBu);
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_STREAMWAIT); CHECK_EQ(S.c.thr[0].latch.sem_mask, 0);
  CHECK_EQ(S.c.thr[0].latch.cond_mask, 2); CHECK_EQ(S.c.thr[0].latch.condition_index, 1);
  CHECK_EQ(S.c.thr[0].latch.stream_select, 3); CHECK_EQ(S.c.thr[0].latch.block_mask, 0x002);
  CHECK_EQ(S.c.thr[0].latch.target, 0x7F << 10 | 0x3FF); CHECK_EQ(S.c.thr[0].latch.target_lo, 0x3FF);
  fresh();
  RUN1(w_semwait(0x1FF, 0xFF, 3));
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_SEMWAIT); CHECK_EQ(S.c.thr[0].latch.sem_mask, 0xFF);
  CHECK_EQ(S.c.thr[0].latch.stream_select, 0); CHECK_EQ(S.c.thr[0].latch.target, 0);

  /* tt_step's result in functional mode: 1 for a round that issued an instruction or forgot a
   * latch, 0 only at a fixed point (a caller stepping round by round, like spec_diff, stops
   * there; a round that reports 0 after an issue would hide everything after it). */
  fresh();
  tt_load_program(&S, 0, (uint32_t[]){w_setdmareg(5, 2), w_stallwait(0, 0)}, 2);
  CHECK_EQ(tt_step(&S), 1);  /* SETDMAREG: the common issue path */
  CHECK_EQ(S.c.thr[0].pc, 1);
  CHECK_EQ(tt_step(&S), 1);  /* STALLWAIT issues and latches */
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_STALLWAIT);
  CHECK_EQ(tt_step(&S), 1);  /* the latch is forgotten: every condition is false */
  CHECK_EQ(S.c.thr[0].latch.op, TT_LATCH_NONE);
  CHECK_EQ(tt_step(&S), 0);  /* nothing left to change */
  return CHECK_DONE();
}
