/* test_scalar.c — Scalar Unit (ThCon) (WormholeB0 ScalarUnit.md and per-instruction pages). */
#include "model_util.h"

static uint32_t dmareg(unsigned op, unsigned imm, unsigned mode, unsigned res, unsigned b, unsigned a) {
  return op << 24 | imm << 23 | mode << 18 | res << 12 | b << 6 | a;
}

int main(void) {
  tt_init(&S);
  /* SETDMAREG immediate: 16 bits into one half (AMB-10), other half untouched; GPR0 ordinary. */
  S.c.gpr[0][5] = 0x12345678;
  RUN1(0x45BEEF0Bu, w_setdmareg(0x1234, 0));
  CHECK_EQ(S.c.gpr[0][5], 0xBEEF5678); CHECK_EQ(S.c.gpr[0][0], 0x1234);
  /* ADD/SUB wrap, MUL low halves, immediates. */
  fresh();
  S.c.gpr[0][1] = 0xFFFFFFFF; S.c.gpr[0][2] = 2; S.c.gpr[0][3] = 0x0001FFFF; S.c.gpr[0][4] = 0xFFFF0003;
  RUN1(dmareg(0x58, 0, 0, 10, 2, 1), dmareg(0x59, 0, 0, 11, 1, 2), dmareg(0x5A, 0, 0, 12, 4, 3),
       dmareg(0x58, 1, 0, 13, 63, 2), dmareg(0x5A, 0, 0, 14, 1, 1));
  CHECK_EQ(S.c.gpr[0][10], 1); CHECK_EQ(S.c.gpr[0][11], 3); CHECK_EQ(S.c.gpr[0][12], 0x0002FFFD);
  CHECK_EQ(S.c.gpr[0][13], 65); CHECK_EQ(S.c.gpr[0][14], 0xFFFE0001);
  /* BITWOP, SHIFT (register amount & 31, imm 5 bits), CMP unsigned. */
  fresh();
  S.c.gpr[0][1] = 0xF0F0F0F0; S.c.gpr[0][2] = 0x0FF00FF0; S.c.gpr[0][3] = 36; S.c.gpr[0][4] = 0x80000000;
  RUN1(dmareg(0x5B, 0, 0, 10, 2, 1), dmareg(0x5B, 0, 1, 11, 2, 1), dmareg(0x5B, 0, 2, 12, 2, 1),
       dmareg(0x5C, 0, 0, 13, 3, 2), dmareg(0x5C, 1, 1, 14, 31, 4),
       dmareg(0x5D, 0, 0, 15, 2, 4), dmareg(0x5D, 0, 1, 16, 2, 4), dmareg(0x5D, 1, 2, 17, 36 & 63, 3));
  CHECK_EQ(S.c.gpr[0][10], 0x00F000F0); CHECK_EQ(S.c.gpr[0][11], 0xFFF0FFF0);
  CHECK_EQ(S.c.gpr[0][12], 0xFF00FF00); CHECK_EQ(S.c.gpr[0][13], 0xFF00FF00);
  CHECK_EQ(S.c.gpr[0][14], 1); CHECK_EQ(S.c.gpr[0][15], 1); CHECK_EQ(S.c.gpr[0][16], 0);
  CHECK_EQ(S.c.gpr[0][17], 1);
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE);
  /* Undefined mode: fault, result unchanged (AMB-15) or zero with the knob. */
  fresh();
  S.c.gpr[0][3] = 0x99;
  RUN1(0x5C883101u);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_MODE); CHECK_EQ(S.c.gpr[0][3], 0x99);
  fresh();
  tt_knob_set(&S, "undefined_mode", "zero");
  S.c.gpr[0][3] = 0x99;
  RUN1(0x5C883101u);
  CHECK_EQ(S.c.gpr[0][3], 0);
  tt_knob_set(&S, "undefined_mode", "keep");
  /* LOADIND/STOREIND L1: address GPR*16 + pre-increment offset, 16-bit offset wrap. */
  fresh();
  S.c.gpr[0][1] = 0x100;                 /* byte 0x1000 */
  S.c.gpr[0][2] = 0xAAAAFFFE;            /* half-reg 4 = 0xFFFE; high half untouched */
  S.c.gpr[0][8] = 0xCAFEF00D;
  uint32_t st32 = 0x66000000u | 1u << 23 | 1u << 21 | 4u << 14 | 3u << 12 | 8u << 6 | 1;  /* +16 */
  RUN1(st32);
  CHECK_EQ(tt_l1_read(&S, 0x1000 + 0xFFFC, 4), 0xCAFEF00D);  /* (0x1000+0xFFFE) & ~3 */
  CHECK_EQ(S.c.gpr[0][2], 0xAAAA000E);
  fresh();
  tt_l1_write(&S, 0x2000, 4, 0x11223344);
  tt_l1_write(&S, 0x200C, 4, 0x55667788);
  S.c.gpr[0][1] = 0x200; S.c.gpr[0][12] = 0xFFFFFFFF;
  RUN1(0x49000000u | 0u << 22 | 0u << 14 | 0 << 12 | 13u << 6 | 1,   /* 128-bit into 12..15 */
       0x49000000u | 3u << 22 | 0u << 14 | 0 << 12 | 20u << 6 | 1);  /* byte into r20 low 8 */
  CHECK_EQ(S.c.gpr[0][12], 0x11223344); CHECK_EQ(S.c.gpr[0][15], 0x55667788);
  CHECK_EQ(S.c.gpr[0][20], 0x44);
  /* L1 bound: 0x17FFFF ok, 0x180000 UB; l1_size knob. */
  fresh();
  S.c.gpr[0][1] = 0x18000;
  RUN1(0x49000000u | 3u << 22 | 5u << 6 | 1);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_L1_RANGE);
  /* loadind_offset_bits=8 (AMB-11): bit 21 is OffsetHalfReg's bit 7, not a reserved bit, so the
   * one fault is the half-register range (a vector sees only the class, `undefined` for both). */
  fresh();
  tt_knob_set(&S, "loadind_offset_bits", "8");
  RUN1(0x49202140u);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_HALFREG_RANGE); CHECK_EQ(S.c.thr[0].fault_count, 1);
  tt_knob_set(&S, "loadind_offset_bits", "7");
  /* MMIO store/load and the low bound. */
  fresh();
  S.c.gpr[0][3] = 0x1234;
  uint32_t sreg = 0x67000000u | 3u << 18 | ((0xFFB40020u - TT_MMIO_BASE) >> 2);
  uint32_t lreg = 0x68000000u | 7u << 18 | ((0xFFB40020u - TT_MMIO_BASE) >> 2);
  RUN1(sreg, lreg, 0x67000000u | 3u << 18 | 4);
  CHECK_EQ(tt_mmio_read(&S, 0xFFB40020u), 0x1234); CHECK_EQ(S.c.gpr[0][7], 0x1234);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_MMIO_RANGE);
  /* Atomics. ATINCGET: mask (2<<W)-1, old value returned. */
  fresh();
  tt_l1_write(&S, 0x104, 4, 0xABCD00FF);
  S.c.gpr[0][1] = 0x10; S.c.gpr[0][2] = 1;
  RUN1(0x61000000u | 7u << 14 | 1u << 12 | 2u << 6 | 1);  /* IntWidth 7: 8-bit counter */
  CHECK_EQ(tt_l1_read(&S, 0x104, 4), 0xABCD0000); CHECK_EQ(S.c.gpr[0][2], 0xABCD00FF);
  /* ATCAS: match writes, mismatch spins (deadlock when nobody else can change memory). */
  fresh();
  tt_l1_write(&S, 0x100, 4, 3);
  S.c.gpr[0][1] = 0x10;
  RUN1(0x64000000u | 9u << 18 | 3u << 14 | 1);
  CHECK_EQ(tt_l1_read(&S, 0x100, 4), 9);
  fresh();
  S.c.gpr[0][1] = 0x10;
  CHECK_EQ(run3((uint32_t[]){0x64000000u | 9u << 18 | 3u << 14 | 1}, 1, NULL, 0, NULL, 0), TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.thr[0].wait_kind, TT_WAIT_ATCAS);
  /* A spinning ATCAS holds ThCon: T1's store that would release it never passes its gate. */
  fresh();
  S.c.gpr[0][1] = 0x10; S.c.gpr[1][1] = 0x10; S.c.gpr[1][2] = 3;
  tt_l1_write(&S, 0x100, 4, 1);
  CHECK_EQ(run3((uint32_t[]){0x64000000u | 9u << 18 | 3u << 14 | 1}, 1,
                (uint32_t[]){0x60000000u, 0x66000000u | 1u << 23 | 1u << 21 | 2u << 6 | 1}, 2, NULL, 0),
           TT_OUT_DEADLOCK);
  CHECK_EQ(S.c.thr[1].wait_kind, TT_WAIT_THCON_BUSY);
  CHECK_EQ(tt_l1_read(&S, 0x100, 4), 1);
  /* ATSWAP: 16-bit granules; single-data placement at (DataReg & 3) * 4. */
  fresh();
  S.c.gpr[0][1] = 0x20; S.c.gpr[0][6] = 0x99887766;
  RUN1(0x63000000u | 1u << 22 | 0x30u << 14 | 6u << 6 | 1);  /* granules 4,5 = bytes 8..11 */
  CHECK_EQ(tt_l1_read(&S, 0x208, 4), 0x99887766); CHECK_EQ(tt_l1_read(&S, 0x200, 4), 0);
  /* ATINCGETPTR pop from an empty FIFO spins; push into a non-full one increments Wr. */
  fresh();
  S.c.gpr[0][1] = 0x30;
  RUN1(0x62000000u | 0u << 18 | 4u << 14 | 1u << 12 | 5u << 6 | 1);
  CHECK_EQ(tt_l1_read(&S, 0x304, 4), 1); CHECK_EQ(S.c.gpr[0][5], 0);
  /* REG2FLOP: unsupported by default; RSTDMA unsupported; knob turns it into a no-op. */
  fresh();
  RUN1(0x48400303u);
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_UNSUPPORTED);
  fresh();
  tt_knob_set(&S, "reg2flop", "wh_config");
  S.c.gpr[0][3] = 0x13572468;
  RUN1(0x48400303u);
  CHECK_EQ(S.c.cfg[0][76], 0x13572468);
  tt_knob_set(&S, "reg2flop", "unsupported");
  fresh();
  tt_knob_set(&S, "rstdma", "nop");
  RUN1(0x44000000u);
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE);
  tt_knob_set(&S, "rstdma", "unsupported");
  /* Foreign and undefined opcodes. */
  fresh();
  RUN1(0x10184000u, 0x01000000u);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_FRONTEND_OP);
  fresh();
  RUN1(0xFF000000u);
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_UNDEFINED_OPCODE);
  return CHECK_DONE();
}
