/* spec_ref_host.c — the reference interpreter's RISC-V host port (see spec_ref.h): loads and
 * stores by the cores through the windows onto GPRs, semaphores, Config, ConfigDualWrite and
 * ThreadConfig, restated from the digest (2.1-2.3) and BabyRISCV/README.md's memory map. Split
 * from spec_ref.c (issue 19) without a change of behaviour: a Config store goes through
 * sr_cfg_store, the same write (banking, side effects) an instruction's uses. */
#include "spec_ref.h"

/* ---- the host port (digest 2.1-2.3; BabyRISCV/README.md memory map) ---------------------------
 *   0xFFE00000 GPRs: B sees GPRs[3][64] (T0 at +0x000, T1 +0x100, T2 +0x200), Tn its own
 *   0xFFE80020 + 4i semaphore i, T0..T2 only, 32-bit: load = Value; store v: odd get, even post
 *   0xFFEF0000 Config[2][224]: loads of any size, 32-bit stores only (banking, side effects)
 *   0xFFEF0700 ConfigDualWrite[224]: a store sets word j of both banks; a load is
 *              UnsupportedFunctionality (reads Config[0][j])
 *   0xFFEF0A80 ThreadConfig[3][68], {uint16 Value, uint16 Padding}: read only */
static int host_gpr(unsigned core, uint32_t off, unsigned *t, unsigned *i) {
  if (core == TT_CORE_B) { if (off >= 3u * 256u) return 0; *t = off / 256u; }
  else { if (off >= 256u) return 0; *t = core - TT_CORE_T0; }
  *i = (off % 256u) / 4u;
  return 1;
}

static uint32_t lanes(uint32_t word, uint32_t addr, unsigned size) {
  uint32_t v = word >> (8 * (addr % 4));
  return size == 4 ? v : v & ((1u << (8 * size)) - 1u);
}

unsigned sr_host_read(const sr_state *s, unsigned core, uint32_t addr, unsigned size, uint32_t *v) {
  unsigned t, i;
  *v = 0;
  if (!(size == 1 || size == 2 || size == 4) || addr % size) return TT_HOST_BAD_SIZE;
  if (addr >= 0xFFE00000u && addr <= 0xFFE00FFFu) {
    if (!host_gpr(core, addr - 0xFFE00000u, &t, &i)) return TT_HOST_UNMAPPED;
    *v = lanes(s->gpr[t][i], addr, size);
    return TT_HOST_OK;
  }
  if (addr >= 0xFFE80020u && addr < 0xFFE80040u) {
    if (core == TT_CORE_B) return TT_HOST_UNMAPPED;
    if (size != 4) return TT_HOST_BAD_SIZE;
    *v = s->sem_value[(addr - 0xFFE80020u) / 4];
    return TT_HOST_OK;
  }
  if (addr >= 0xFFEF0000u && addr < 0xFFEF0700u) {
    uint32_t w = (addr - 0xFFEF0000u) / 4;
    *v = lanes(s->cfg[w / SR_CFG_WORDS][w % SR_CFG_WORDS], addr, size);
    return TT_HOST_OK;
  }
  if (addr >= 0xFFEF0700u && addr < 0xFFEF0A80u) {
    *v = lanes(s->cfg[0][(addr - 0xFFEF0700u) / 4], addr, size);
    return TT_HOST_UNSUPPORTED;
  }
  if (addr >= 0xFFEF0A80u && addr < 0xFFEF0A80u + 4u * SR_THREADS * SR_TCFG_WORDS) {
    uint32_t e = (addr - 0xFFEF0A80u) / 4;
    *v = lanes(s->tcfg[e / SR_TCFG_WORDS][e % SR_TCFG_WORDS], addr, size);
    return TT_HOST_OK;
  }
  return TT_HOST_UNMAPPED;
}

unsigned sr_host_write(sr_state *s, unsigned core, uint32_t addr, unsigned size, uint32_t v) {
  unsigned t, i;
  if (!(size == 1 || size == 2 || size == 4) || addr % size) return TT_HOST_BAD_SIZE;
  if (addr >= 0xFFE00000u && addr <= 0xFFE00FFFu) {
    if (!host_gpr(core, addr - 0xFFE00000u, &t, &i)) return TT_HOST_UNMAPPED;
    for (unsigned b = 0; b < size; b++) {   /* byte lanes, little-endian */
      unsigned lane = addr % 4 + b;
      s->gpr[t][i] = (s->gpr[t][i] & ~(0xFFu << (8 * lane))) | ((v >> (8 * b)) & 0xFFu) << (8 * lane);
    }
    if (i == 0 && s->knob[TT_KNOB_GPR0] == 1) s->gpr[t][0] = 0;   /* gpr0=zero (AMB-27) */
    return TT_HOST_OK;
  }
  if (addr >= 0xFFE80020u && addr < 0xFFE80040u) {
    if (core == TT_CORE_B) return TT_HOST_UNMAPPED;
    if (size != 4) return TT_HOST_BAD_SIZE;
    uint8_t *sv = &s->sem_value[(addr - 0xFFE80020u) / 4];
    if (v & 1u) { if (*sv) (*sv)--; }
    else if (*sv < 15) (*sv)++;
    return TT_HOST_OK;
  }
  if (addr >= 0xFFEF0000u && addr < 0xFFEF0A80u) {
    if (size != 4) return TT_HOST_BAD_SIZE;
    uint32_t w = (addr - 0xFFEF0000u) / 4;
    if (w < 2u * SR_CFG_WORDS) {
      sr_cfg_store(s, w / SR_CFG_WORDS, w % SR_CFG_WORDS, &v, 1);
    } else {
      w -= 2u * SR_CFG_WORDS;
      sr_cfg_store(s, 0, w, &v, 1);
      if (w < SR_CFG_GLOBAL) sr_cfg_store(s, 1, w, &v, 1);   /* a global word is one write */
    }
    return TT_HOST_OK;
  }
  if (addr >= 0xFFEF0A80u && addr < 0xFFEF0A80u + 4u * SR_THREADS * SR_TCFG_WORDS)
    return TT_HOST_READONLY;
  return TT_HOST_UNMAPPED;
}
