/* test_host.c — the RISC-V host port (BlackholeA0 BabyRISCV/README.md memory map,
 * BackendConfiguration.md, SyncUnit.md). */
#include "model_util.h"

int main(void) {
  tt_init(&S);
  uint32_t v = 0;
  /* GPR window: B sees all three threads, Tn only its own. */
  S.c.gpr[1][3] = 0x11223344;
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFE0010C, 4, &v), TT_HOST_OK); CHECK_EQ(v, 0x11223344);
  CHECK_EQ(tt_host_read(&S, TT_CORE_T1, 0xFFE0000C, 4, &v), TT_HOST_OK); CHECK_EQ(v, 0x11223344);
  CHECK_EQ(tt_host_read(&S, TT_CORE_T1, 0xFFE0000E, 2, &v), TT_HOST_OK); CHECK_EQ(v, 0x1122);
  CHECK_EQ(tt_host_read(&S, TT_CORE_T1, 0xFFE0010C, 4, &v), TT_HOST_UNMAPPED);
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFE00300, 4, &v), TT_HOST_UNMAPPED);
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFE00102, 4, &v), TT_HOST_BAD_SIZE);
  CHECK_EQ(tt_host_write(&S, TT_CORE_T2, 0xFFE00001, 1, 0xAB), TT_HOST_OK);
  CHECK_EQ(S.c.gpr[2][0], 0xAB00);
  /* Semaphores: T cores only; lw -> Value; sw even -> post (sat 15), odd -> get (floor 0). */
  S.c.sem_value[3] = 14; S.c.sem_max[3] = 2;
  CHECK_EQ(tt_host_read(&S, TT_CORE_T0, 0xFFE8002C, 4, &v), TT_HOST_OK); CHECK_EQ(v, 14);
  tt_host_write(&S, TT_CORE_T0, 0xFFE8002C, 4, 0); tt_host_write(&S, TT_CORE_T0, 0xFFE8002C, 4, 2);
  CHECK_EQ(S.c.sem_value[3], 15);
  for (int i = 0; i < 20; i++) tt_host_write(&S, TT_CORE_T1, 0xFFE8002C, 4, 1);
  CHECK_EQ(S.c.sem_value[3], 0);
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFE80020, 4, &v), TT_HOST_UNMAPPED);
  /* Config: bank 1 at +0x380; sw only; global words to both banks; side effects apply. */
  CHECK_EQ(tt_host_write(&S, TT_CORE_B, 0xFFEF0380 + 4 * 10, 4, 0x55), TT_HOST_OK);
  CHECK_EQ(S.c.cfg[1][10], 0x55); CHECK_EQ(S.c.cfg[0][10], 0);
  CHECK_EQ(tt_host_write(&S, TT_CORE_T0, 0xFFEF0000 + 4 * 200, 4, 0x66), TT_HOST_OK);
  CHECK_EQ(S.c.cfg[0][200], 0x66); CHECK_EQ(S.c.cfg[1][200], 0x66);
  CHECK_EQ(tt_host_write(&S, TT_CORE_T0, 0xFFEF0000 + 4 * 10, 2, 1), TT_HOST_BAD_SIZE);
  CHECK_EQ(tt_host_read(&S, TT_CORE_T0, 0xFFEF0380 + 4 * 10, 1, &v), TT_HOST_OK); CHECK_EQ(v, 0x55);
  tt_host_write(&S, TT_CORE_B, 0xFFEF0380 + 4 * 4, 4, 1);  /* STATE_RESET_EN of bank 1 */
  CHECK_EQ(S.c.cfg[1][10], 0);
  /* ConfigDualWrite writes both banks; reads return bank 0 but say unsupported. */
  CHECK_EQ(tt_host_write(&S, TT_CORE_B, 0xFFEF0700 + 4 * 12, 4, 0x77), TT_HOST_OK);
  CHECK_EQ(S.c.cfg[0][12], 0x77); CHECK_EQ(S.c.cfg[1][12], 0x77);
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFEF0700 + 4 * 12, 4, &v), TT_HOST_UNSUPPORTED);
  CHECK_EQ(v, 0x77);
  /* ThreadConfig: 4 bytes per entry, read only (AMB-17: 0xFFEF0B90 = ThreadConfig[1][0]). */
  S.c.tcfg[1][0] = 1;
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFEF0B90, 4, &v), TT_HOST_OK); CHECK_EQ(v, 1);
  CHECK_EQ(tt_host_write(&S, TT_CORE_B, 0xFFEF0B90, 4, 0), TT_HOST_READONLY);
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0xFFEF0A80 + 4 * 204, 4, &v), TT_HOST_UNMAPPED);
  CHECK_EQ(tt_host_read(&S, TT_CORE_B, 0x12345678, 4, &v), TT_HOST_UNMAPPED);
  return CHECK_DONE();
}
