/* host.c — the RISC-V (host) port: what a Baby RISC-V core's loads and stores see of the
 * state this model owns. References: BlackholeA0/TensixTile/BabyRISCV/README.md (memory map),
 * BlackholeA0/TensixTile/TensixCoprocessor/BackendConfiguration.md (Config, ConfigDualWrite,
 * ThreadConfig layout, access matrix), SyncUnit.md (RISC-V semaphore access),
 * WormholeB0/TensixTile/TensixCoprocessor/ScalarUnit.md (GPR window).
 *
 *   GPRs      0xFFE00000: B sees T0/T1/T2 at +0x000/+0x100/+0x200; Tn sees its own at +0x000
 *   Semaphore 0xFFE80020 + 4*i (T0..T2 only): lw -> Value; sw v: v odd -> SEMGET, even -> SEMPOST
 *   Config    0xFFEF0000: Config[2][224] (bank 1 at +0x380); reads any size, writes `sw` only
 *   DualWrite 0xFFEF0700: ConfigDualWrite[224]: a write sets word j of both banks; a read is
 *             UnsupportedFunctionality in the newest text (returns Config[0][j], status says so)
 *   ThreadConf 0xFFEF0A80: ThreadConfig[3][68], 4 bytes per entry {Value, Padding}; read only
 * Writes to Config go through the same writer as Tensix writes (global rule, side effects).
 * Not modelled here: Auto TTSync and RISC-V memory ordering (a host access is immediate). */
#include "internal.h"

static int size_ok(uint32_t addr, unsigned size) {
  return (size == 1 || size == 2 || size == 4) && (addr & (size - 1)) == 0;
}

static uint32_t extract(uint32_t word, uint32_t addr, unsigned size) {
  uint32_t v = word >> (8 * (addr & 3));
  return size == 4 ? v : v & ((1u << (8 * size)) - 1u);
}

/* GPR window: thread and word for this core, or -1. */
static int gpr_slot(tt_core_id core, uint32_t off, unsigned *t) {
  if (core == TT_CORE_B) {
    if (off >= 0x300) return -1;
    *t = off >> 8;
  } else {
    if (off >= 0x100) return -1;
    *t = (unsigned)core - TT_CORE_T0;
  }
  return (int)((off & 0xFFu) >> 2);
}

tt_host_status tt_host_read(const tt_state *st, tt_core_id core, uint32_t addr, unsigned size,
                            uint32_t *value) {
  *value = 0;
  if (!size_ok(addr, size)) return TT_HOST_BAD_SIZE;
  if (addr >= TT_HOST_GPR_BASE && addr < TT_HOST_GPR_BASE + 0x1000) {
    unsigned t;
    int i = gpr_slot(core, addr - TT_HOST_GPR_BASE, &t);
    if (i < 0) return TT_HOST_UNMAPPED;
    *value = extract(st->c.gpr[t][i], addr, size);
    return TT_HOST_OK;
  }
  if (addr >= TT_HOST_SEM_BASE && addr < TT_HOST_SEM_BASE + 4 * TT_SEM_COUNT) {
    if (core == TT_CORE_B) return TT_HOST_UNMAPPED;  /* B sees its PCBuf there */
    if (size != 4) return TT_HOST_BAD_SIZE;
    *value = st->c.sem_value[(addr - TT_HOST_SEM_BASE) >> 2];
    return TT_HOST_OK;
  }
  if (addr >= TT_HOST_CFG_BASE && addr < TT_HOST_CFG_DUAL) {
    uint32_t w = (addr - TT_HOST_CFG_BASE) >> 2;
    *value = extract(st->c.cfg[w / TT_CFG_WORD_COUNT][w % TT_CFG_WORD_COUNT], addr, size);
    return TT_HOST_OK;
  }
  if (addr >= TT_HOST_CFG_DUAL && addr < TT_HOST_TCFG_BASE) {
    uint32_t w = (addr - TT_HOST_CFG_DUAL) >> 2;
    *value = extract(st->c.cfg[0][w], addr, size);
    return TT_HOST_UNSUPPORTED;
  }
  if (addr >= TT_HOST_TCFG_BASE &&
      addr < TT_HOST_TCFG_BASE + 4u * TT_THREAD_COUNT * TT_TCFG_WORD_COUNT) {
    uint32_t e = (addr - TT_HOST_TCFG_BASE) >> 2;
    *value = extract(st->c.tcfg[e / TT_TCFG_WORD_COUNT][e % TT_TCFG_WORD_COUNT], addr, size);
    return TT_HOST_OK;
  }
  return TT_HOST_UNMAPPED;
}

tt_host_status tt_host_write(tt_state *st, tt_core_id core, uint32_t addr, unsigned size,
                             uint32_t value) {
  if (!size_ok(addr, size)) return TT_HOST_BAD_SIZE;
  if (addr >= TT_HOST_GPR_BASE && addr < TT_HOST_GPR_BASE + 0x1000) {
    unsigned t;
    int i = gpr_slot(core, addr - TT_HOST_GPR_BASE, &t);
    if (i < 0) return TT_HOST_UNMAPPED;
    uint32_t sh = 8 * (addr & 3);
    uint32_t m = (size == 4 ? 0xFFFFFFFFu : ((1u << (8 * size)) - 1u)) << sh;
    tt_gpr_merge(st, t, (unsigned)i, value << sh, m);   /* gpr0=zero (AMB-27): GPR 0 keeps none */
    return TT_HOST_OK;
  }
  if (addr >= TT_HOST_SEM_BASE && addr < TT_HOST_SEM_BASE + 4 * TT_SEM_COUNT) {
    if (core == TT_CORE_B) return TT_HOST_UNMAPPED;
    if (size != 4) return TT_HOST_BAD_SIZE;
    uint8_t *v = &st->c.sem_value[(addr - TT_HOST_SEM_BASE) >> 2];
    if (value & 1u) { if (*v > 0) (*v)--; }   /* like SEMGET */
    else if (*v < 15) (*v)++;                 /* like SEMPOST */
    return TT_HOST_OK;
  }
  if (addr >= TT_HOST_CFG_BASE && addr < TT_HOST_TCFG_BASE) {
    if (size != 4) return TT_HOST_BAD_SIZE;   /* Config takes `sw` only */
    uint32_t w = (addr - TT_HOST_CFG_BASE) >> 2;
    if (addr < TT_HOST_CFG_DUAL) {
      tt_cfg_write_words(st, w / TT_CFG_WORD_COUNT, w % TT_CFG_WORD_COUNT, &value, 1,
                         TT_VIA_HOST);
    } else {
      w -= 2 * TT_CFG_WORD_COUNT;
      tt_cfg_write_words(st, 0, w, &value, 1, TT_VIA_HOST);
      if (w < TT_CFG_GLOBAL_BASE) tt_cfg_write_words(st, 1, w, &value, 1, TT_VIA_HOST);
    }
    return TT_HOST_OK;
  }
  if (addr >= TT_HOST_TCFG_BASE &&
      addr < TT_HOST_TCFG_BASE + 4u * TT_THREAD_COUNT * TT_TCFG_WORD_COUNT)
    return TT_HOST_READONLY;                  /* ThreadConfig: SETC16 is its only writer */
  return TT_HOST_UNMAPPED;
}

const char *tt_host_status_name(unsigned status) {
  switch (status) {
  case TT_HOST_OK: return "ok";
  case TT_HOST_UNMAPPED: return "unmapped";
  case TT_HOST_READONLY: return "read-only";
  case TT_HOST_BAD_SIZE: return "bad size";
  case TT_HOST_UNSUPPORTED: return "unsupported";
  default: return "unknown status";
  }
}

const char *tt_core_name(unsigned core) {
  switch (core) {
  case TT_CORE_B: return "b";
  case TT_CORE_T0: return "t0";
  case TT_CORE_T1: return "t1";
  case TT_CORE_T2: return "t2";
  default: return "?";
  }
}
