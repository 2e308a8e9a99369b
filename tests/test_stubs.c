/* test_stubs.c — behaviours whose inputs or outputs live in the model's stubs, which the vector
 * format cannot name: SETDMAREG special mode reading the packer stub (every InputSource and
 * ResultSize), and STOREIND to SrcA/SrcB (BF16 reformatting, rows and columns, UB rows).
 * References: WormholeB0/TensixTile/TensixCoprocessor/SETDMAREG_Special.md,
 * STOREIND_Src.md (spec-digest 4.3). Every expected value is worked out in the comments. */
#include "model_util.h"

/* SETDMAREG special: 0x45 << 24 | ResultSize << 22 | WhichPackers << 15 | InputSource << 11 |
 * InputHalfReg << 8 | 1 << 7 | ResultHalfReg */
static uint32_t special(unsigned rs, unsigned wp, unsigned src, unsigned ihr, unsigned rhr) {
  return 0x45000080u | rs << 22 | wp << 15 | src << 11 | ihr << 8 | rhr;
}
/* STOREIND Src mode: 0x66 << 24 | StoreToSrcB << 21 | OffsetHalfReg << 14 |
 * OffsetIncrement << 12 | DataReg << 6 | AddrReg */
static uint32_t storesrc(unsigned b, unsigned ohr, unsigned oi, unsigned dr, unsigned ar) {
  return 0x66000000u | b << 21 | ohr << 14 | oi << 12 | dr << 6 | ar;
}

static void packers(void) {
  tt_packer *p = S.c.packer;
  memset(p, 0, sizeof S.c.packer);
  /* packer 0 */
  p[0].acc_tile_size[0] = 0x1111; p[0].acc_tile_size[1] = 0x2222; p[0].acc_tile_size[2] = 0x3333;
  p[0].last_tile_size = 0x0044; p[0].last_thread = 1; p[0].all_zero_flags = 0xA5;
  p[0].exp_hist_max = 0x1F; p[0].out_data_format[0] = 0x3; p[0].out_data_format[1] = 0xC;
  p[0].disable_zero_compress[0] = 0; p[0].disable_zero_compress[1] = 1;
  /* packer 1: last thread 0 */
  p[1].acc_tile_size[0] = 0x0101; p[1].acc_tile_size[1] = 0x0202; p[1].acc_tile_size[2] = 0x0303;
  p[1].last_tile_size = 0x0055; p[1].last_thread = 0; p[1].all_zero_flags = 0x02;
  p[1].out_data_format[0] = 0x7; p[1].out_data_format[1] = 0x9;
  p[1].disable_zero_compress[0] = 1;
  /* packer 2 */
  p[2].acc_tile_size[0] = 0x10; p[2].acc_tile_size[1] = 0x20; p[2].acc_tile_size[2] = 0x30;
  p[2].last_tile_size = 0x66; p[2].last_thread = 1; p[2].all_zero_flags = 0x01;
  /* packer 3: the largest tile size */
  p[3].acc_tile_size[0] = 0xA; p[3].acc_tile_size[1] = 0xB; p[3].acc_tile_size[2] = 0xC;
  p[3].last_tile_size = 0xFFFF; p[3].last_thread = 1; p[3].all_zero_flags = 0xFF;
  for (unsigned i = 0; i < 32; i++) {
    p[0].exp_hist[i] = (uint8_t)(i + 1);
    p[1].exp_hist[i] = (uint8_t)(0x40 + i);
    p[2].exp_hist[i] = (uint8_t)(0x80 + i);
    p[3].exp_hist[i] = (uint8_t)(0xC0 + i);
  }
}

/* run one instruction on thread 1 */
static void t1(uint32_t w) { run3(NULL, 0, &w, 1, NULL, 0); }

static void setdmareg_special(void) {
  uint32_t *g = S.c.gpr[1];
  /* InputSource 0, 128-bit into GPRs 8..11 (ResultHalfReg 16 -> GPR 8): per packer i,
   * AccTileSize[T=1] << 16 | (LastThread == 1 ? LastTileSize : 0). */
  fresh(); packers();
  t1(special(2, 0, 0, 0, 16));
  CHECK_EQ(g[8], 0x22220044); CHECK_EQ(g[9], 0x02020000);
  CHECK_EQ(g[10], 0x00200066); CHECK_EQ(g[11], 0x000BFFFF);
  /* the group is (ResultHalfReg >> 1) & 0x3C: half-reg 23 -> GPR 11 -> group 8 */
  fresh(); packers();
  t1(special(2, 0, 0, 0, 23));
  CHECK_EQ(g[8], 0x22220044); CHECK_EQ(g[11], 0x000BFFFF); CHECK_EQ(g[12], 0);
  /* InputSource 1: AllZeroFlags of each packer into GPRs 12..15 */
  fresh(); packers();
  t1(special(2, 0, 1, 0, 24));
  CHECK_EQ(g[12], 0xA5); CHECK_EQ(g[13], 0x02); CHECK_EQ(g[14], 0x01); CHECK_EQ(g[15], 0xFF);
  /* InputSource 2 (packer 0's tile header), bank 0: TileSize = 0x44 + 1; word 1 = DataFormat
   * 3 << 16 | DisableZeroCompression 0 << 20; word 2 = AllZeroFlags; word 3 = 0. */
  fresh(); packers();
  g[7] = 0xFFFFFFFF;
  t1(special(2, 0, 2, 0, 8));
  CHECK_EQ(g[4], 0x45); CHECK_EQ(g[5], 0x00030000); CHECK_EQ(g[6], 0xA5); CHECK_EQ(g[7], 0);
  /* the same in bank 1 (ThreadConfig[1][0] bit 0): DataFormat 0xC, DisableZeroCompression 1 */
  fresh(); packers();
  S.c.tcfg[1][TT_TCFG_CFG_STATE_ID] = 1;
  t1(special(2, 0, 2, 0, 8));
  CHECK_EQ(g[5], 0x001C0000);
  /* InputSource 3 (packer 1), thread 1 is not its last thread: TileSize 0 + 1; bank 0:
   * DataFormat 7, DisableZeroCompression 1 -> 0x00170000; AllZeroFlags 2 */
  fresh(); packers();
  t1(special(2, 0, 3, 0, 8));
  CHECK_EQ(g[4], 1); CHECK_EQ(g[5], 0x00170000); CHECK_EQ(g[6], 0x02);
  /* InputSource 5 (packer 3): TileSize is 16 bits, 0xFFFF + 1 wraps to 0 */
  fresh(); packers();
  t1(special(2, 0, 5, 0, 8));
  CHECK_EQ(g[4], 0); CHECK_EQ(g[6], 0xFF);
  /* InputSource 6, WhichPackers 1: bytes 0..15 of packer 1's histogram (0x40..0x4F) */
  fresh(); packers();
  t1(special(2, 1, 6, 0, 0));
  CHECK_EQ(g[0], 0x43424140); CHECK_EQ(g[1], 0x47464544);
  CHECK_EQ(g[2], 0x4B4A4948); CHECK_EQ(g[3], 0x4F4E4D4C);
  /* InputSource 7, WhichPackers 6 (index 6 & 3 = packer 2): bytes 16..31 (0x90..0x9F) */
  fresh(); packers();
  t1(special(2, 6, 7, 0, 0));
  CHECK_EQ(g[0], 0x93929190); CHECK_EQ(g[3], 0x9F9E9D9C);
  /* InputSource 8, WhichPackers 0b0101: Values[0] bit i = packer i's AllZeroFlags bit 0
   * (1, 0, 1, 1 -> 0xD); packers 0 and 2 get AccTileSize reset (all threads), 1 and 3 keep it */
  fresh(); packers();
  g[1] = g[2] = g[3] = 0x5555;
  t1(special(2, 5, 8, 0, 0));
  CHECK_EQ(g[0], 0xD); CHECK_EQ(g[1], 0); CHECK_EQ(g[2], 0); CHECK_EQ(g[3], 0);
  CHECK_EQ(S.c.packer[0].acc_tile_size[0], 0); CHECK_EQ(S.c.packer[0].acc_tile_size[2], 0);
  CHECK_EQ(S.c.packer[2].acc_tile_size[1], 0);
  CHECK_EQ(S.c.packer[1].acc_tile_size[1], 0x0202); CHECK_EQ(S.c.packer[3].acc_tile_size[2], 0xC);
  /* InputSource 9: packer 0's ExponentHistogramMaxExponent */
  fresh(); packers();
  t1(special(1, 0, 9, 0, 2));
  CHECK_EQ(g[1], 0x1F);
  /* InputSources 10..15 have no case: Values stay zero ("set four GPRs to zero") */
  for (unsigned src = 10; src < 16; src++) {
    fresh(); packers();
    g[4] = g[5] = g[6] = g[7] = 0x12345678;
    t1(special(2, 0xF, src, 7, 8));
    CHECK(g[4] == 0 && g[5] == 0 && g[6] == 0 && g[7] == 0, "source %u", src);
  }
  /* ResultSize 0: half-register ResultHalfReg 5 (GPR 2 high) = half InputHalfReg 3 of Values
   * (source 0: high half of Values[1] = 0x0202); the low half keeps 0xBEEF */
  fresh(); packers();
  g[2] = 0xDEADBEEF;
  t1(special(0, 0, 0, 3, 5));
  CHECK_EQ(g[2], 0x0202BEEF);
  /* low half of Values[0] (0x0044) into the low half of GPR 2 */
  fresh(); packers();
  g[2] = 0xDEADBEEF;
  t1(special(0, 0, 0, 0, 4));
  CHECK_EQ(g[2], 0xDEAD0044);
  /* ResultSize 1: GPR[ResultHalfReg >> 1 = 3] = Values[InputHalfReg >> 1 = 2] = 0x00200066 */
  fresh(); packers();
  t1(special(1, 0, 0, 5, 7));
  CHECK_EQ(g[3], 0x00200066); CHECK_EQ(g[2], 0);
  /* ResultSize 3: only the tile-header fields change: TileSize [15:0] of word 0; DataFormat,
   * DisableZeroCompression, SpareBits [23:16] of word 1; AllZeroFlags word 2; word 3 and the
   * reserved bits keep 0xFFFFFFFF. Source 2, bank 1: TileSize 0x45, DataFormat 0xC, DZC 1. */
  fresh(); packers();
  S.c.tcfg[1][TT_TCFG_CFG_STATE_ID] = 1;
  g[16] = g[17] = g[18] = g[19] = 0xFFFFFFFF;
  t1(special(3, 0, 2, 0, 32));
  CHECK_EQ(g[16], 0xFFFF0045); CHECK_EQ(g[17], 0xFF1CFFFF); CHECK_EQ(g[18], 0xA5);
  CHECK_EQ(g[19], 0xFFFFFFFF);
  CHECK_EQ(S.c.thr[1].fault_class, TT_FAULT_NONE);
}

static void storeind_src(void) {
  uint32_t *g = S.c.gpr[0];
  /* Data GPRs 4, 5 (DataReg 5 & 0x3C = 4). Lo halves are Sign|Man7|Exp8, Hi halves BF16
   * Sign|Exp8|Man7; Src holds Sign(18) Man(17:8) Exp(7:0), Man7 in its top bits 17:11:
   *   GPR4 = 0xC0490F3F: lo 0x0F3F -> 0x0F << 11 | 0x3F = 0x0783F;
   *                      hi sign 1, exp 0x80, man 0x49 -> 0x40000 | 0x24800 | 0x80 = 0x64880
   *   GPR5 = 0x3F80ABCD: lo 0xABCD -> 0x40000 | 0x2B << 11 | 0xCD = 0x558CD; hi exp 0x7F -> 0x7F
   * SrcB, AddrReg 1 = 6, offset half-reg 4 (GPR 2 low) = 0x20: Addr = 6 + (0x20 >> 4) = 8:
   * row 8 >> 2 = 2, column (8 & 3) * 4 = 0; the offset then grows by 16 (OffsetIncrement 3). */
  fresh();
  g[4] = 0xC0490F3F; g[5] = 0x3F80ABCD; g[1] = 6; g[2] = 0xAAAA0020;
  RUN1(storesrc(1, 4, 3, 5, 1));
  CHECK_EQ(S.src[1][2][0], 0x0783F); CHECK_EQ(S.src[1][2][1], 0x64880);
  CHECK_EQ(S.src[1][2][2], 0x558CD); CHECK_EQ(S.src[1][2][3], 0x0007F);
  CHECK_EQ(g[2], 0xAAAA0030);
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE);
  CHECK_EQ(S.c.src_dirty, 0x10);  /* bit 4 * bank + row / 16: SrcB rows 0..15 */
  /* SrcA: row (Addr >> 2) - 4. Addr 0x13: row 0, column 3 * 4 = 12. Offset high half-reg 5
   * (GPR 2 high) = 0 + increment 2. */
  fresh();
  g[4] = 0x00000001; g[5] = 0x80000000; g[1] = 0x13; g[2] = 0x00000000;
  RUN1(storesrc(0, 5, 1, 4, 1));
  CHECK_EQ(S.src[0][0][12], 0x1);       /* lo 0x0001: exp 1 */
  CHECK_EQ(S.src[0][0][13], 0x0);       /* hi 0x0000 */
  CHECK_EQ(S.src[0][0][14], 0x0);       /* lo 0x0000 */
  CHECK_EQ(S.src[0][0][15], 0x40000);   /* hi 0x8000: sign only */
  CHECK_EQ(g[2], 0x00020000);
  CHECK_EQ(S.c.src_dirty, 0x01);  /* SrcA rows 0..15 */
  /* SrcA Addr 0x0F: row 3 - 4 < 0, silently dropped (no fault); the offset still moves */
  fresh();
  g[4] = 0xFFFFFFFF; g[1] = 0x0F; g[2] = 0;
  RUN1(storesrc(0, 4, 2, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE); CHECK_EQ(S.c.src_dirty, 0); CHECK_EQ(g[2], 4);
  /* SrcA row 16 (Addr 0x50): UB without SRCA_SET_SetOvrdWithAddr; written with it */
  fresh();
  g[4] = 0x0000FFFF; g[1] = 0x50;
  RUN1(storesrc(0, 6, 0, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_SRC_ROW); CHECK_EQ(S.c.src_dirty, 0);
  fresh();
  g[4] = 0x0000FFFF; g[1] = 0x50;
  S.c.tcfg[0][TT_TCFG_SRCA_SET] = 0x4;
  RUN1(storesrc(0, 6, 0, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE);
  CHECK_EQ(S.src[0][16][0], 0x7F8FF);  /* lo 0xFFFF: sign 1 << 18 | 0x7F << 11 | 0xFF */
  /* with the override, row 63 (Addr (63 + 4) * 4 = 0x10C) is the last one; row 64 is UB */
  fresh();
  g[4] = 0x00000080; g[1] = 0x10F;
  S.c.tcfg[0][TT_TCFG_SRCA_SET] = 0x4;
  RUN1(storesrc(0, 6, 0, 4, 1));
  CHECK_EQ(S.src[0][63][12], 0x80);
  CHECK_EQ(S.c.src_dirty, 0x08);  /* SrcA rows 48..63 */
  /* a second block of another bank in the same run, then tt_reset: it clears the blocks written
   * (and only those are non-zero), leaving Src as a fresh init's */
  g[4] = 0x00000001; g[1] = 0x3C;
  RUN1(storesrc(1, 6, 0, 4, 1));
  CHECK_EQ(S.src[1][15][0], 1); CHECK_EQ(S.src[0][63][12], 0x80);
  CHECK_EQ(S.c.src_dirty, 0x18);
  tt_reset(&S);
  {
    static const uint32_t zero[2][TT_SRC_ROWS][TT_SRC_COLS];
    CHECK_EQ(memcmp(S.src, zero, sizeof zero), 0);
    CHECK_EQ(S.c.src_dirty, 0);
  }
  fresh();
  g[1] = 0x110;
  S.c.tcfg[0][TT_TCFG_SRCA_SET] = 0x4;
  RUN1(storesrc(0, 6, 0, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_SRC_ROW);
  /* SrcB: row 15 (Addr 0x3C) is the last, row 16 (Addr 0x40) UB */
  fresh();
  g[4] = 0x00000001; g[1] = 0x3C;
  RUN1(storesrc(1, 6, 0, 4, 1));
  CHECK_EQ(S.src[1][15][0], 1); CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE);
  fresh();
  g[1] = 0x40;
  RUN1(storesrc(1, 6, 0, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_SRC_ROW);
  /* Addr is 20 bits: bits 19:16 set -> UB; bit 20 and above are dropped (0x100008 -> 8) */
  fresh();
  g[1] = 0x10000;
  RUN1(storesrc(1, 6, 0, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_code, TT_FC_SRC_ROW);
  fresh();
  g[4] = 0x00000002; g[1] = 0x100008;
  RUN1(storesrc(1, 6, 0, 4, 1));
  CHECK_EQ(S.c.thr[0].fault_class, TT_FAULT_NONE); CHECK_EQ(S.src[1][2][0], 2);
}

int main(void) {
  tt_init(&S);
  setdmareg_special();
  storeind_src();
  return CHECK_DONE();
}
