/* ttsim_dut.cpp — Tenstorrent's ttsim (github.com/tenstorrent/ttsim, Apache-2.0) behind the
 * implementation-under-test interface (conformance/ttdut.h), as a shared object.
 *
 * Nothing of ttsim is copied here: this file includes ttsim's headers from the checkout named
 * at build time (TTSIM=DIR, see ttsim.mk) and is linked with the objects ttsim's own build
 * (make.py) produces for the single-chip Blackhole configuration. See README.md next to this
 * file for what it declares and refuses, and why.
 *
 * How ttsim is driven (its Tensix entry points, all from sim.h):
 *   - the machine is tile 0 of ttsim's global chip state; reset = zero that tile, then
 *     t_tile_init(0) (which runs tensix_init on its Tensix core);
 *   - thread N is ttsim pipe N. One stream word at a time goes into the pipe's instruction FIFO
 *     through tensix_push_inst (the path a TRISC store to its instruction port takes), and
 *     the FIFO head is run with tensix_decode_and_execute, as ttsim's own clock loop
 *     (libttsim.cpp) does: `false` means "not yet" (SEMWAIT, STALLWAIT, ATGETM hold the
 *     thread) and the word stays at the head;
 *   - GPRs, semaphores, mutexes and ThreadConfig are read and written in ttsim's TensixState;
 *     Config through tensix_cfg_wr32 (for set) and ttsim's own storage (for get);
 *   - host-port accesses go through tile_mmio_rd32 / tile_mmio_wr32, as a RISC-V core's;
 *   - ttsim reports every error through ttsim_error(), which prints and calls _Exit(1). The
 *     link wraps it (-Wl,--wrap): the wrapper records the category and message and longjmps
 *     back to the adapter call that entered ttsim. Every call into ttsim is made under such a
 *     catcher. ttsim's error checks come before the state change they guard (except the
 *     Config field checks that tensix_cfg_wr32 makes after storing the word), and none of the
 *     frames unwound has a destructor.
 *   - rv32_icache_invalidate is wrapped the same way to count instruction-cache invalidations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "sim.h"
#include "ttdut.h"

#if TT_ARCH_VERSION != 1 || NUM_CHIPS != 1
#error "build with ttsim's single-chip Blackhole defines: -DTT_ARCH_VERSION=1 -DNUM_CHIPS=1 -DNUM_MMIO_CHIPS=1"
#endif

#ifndef TTSIM_DESCRIBE
#define TTSIM_DESCRIBE "unknown version"
#endif

#define NTHR 3
#define NGPR 64
#define NCFG 224
#define NTCFG 68
#define NSEM 8

/* ---- error capture ------------------------------------------------------------------------ */

static jmp_buf *g_catch;            /* the active catcher, or NULL */
static TTSimErrorCategory g_err_cat;
static char g_err_msg[200];         /* "Category: function: message" */

extern "C" [[noreturn]] void __wrap__Z11ttsim_error18TTSimErrorCategoryPKcS1_z(
    TTSimErrorCategory category, const char *func, const char *fmt, ...) {
  int n = snprintf(g_err_msg, sizeof g_err_msg, "%s: %s", ttsim_error_category_name(category),
                   func ? func : "?");
  if (n < 0) n = 0;
  if ((size_t)n < sizeof g_err_msg && fmt) {
    size_t used = (size_t)n;
    int m = snprintf(g_err_msg + used, sizeof g_err_msg - used, ": ");
    if (m > 0 && used + (size_t)m < sizeof g_err_msg) {
      used += (size_t)m;
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(g_err_msg + used, sizeof g_err_msg - used, fmt, ap);
      va_end(ap);
    }
  }
  size_t len = strlen(g_err_msg);
  while (len && (g_err_msg[len - 1] == '\n' || g_err_msg[len - 1] == ' ')) g_err_msg[--len] = 0;
  g_err_cat = category;
  if (g_catch) {
    jmp_buf *jb = g_catch;
    g_catch = NULL;
    longjmp(*jb, 1);
  }
  /* Not reached: every entry into ttsim is made under a catcher. Never return into ttsim. */
  fprintf(stderr, "ttsim_dut: uncaught ttsim error: %s\n", g_err_msg);
  abort();
}

static int g_count_ic;                 /* count invalidations (off while probing) */
static uint32_t g_ic_count[RV32_CORES_PER_T_TILE];

extern "C" void __real__Z22rv32_icache_invalidateP13Rv32HartState(Rv32HartState *p_hart);
extern "C" void __wrap__Z22rv32_icache_invalidateP13Rv32HartState(Rv32HartState *p_hart) {
  if (g_count_ic && p_hart && p_hart->riscv_id < RV32_CORES_PER_T_TILE) g_ic_count[p_hart->riscv_id]++;
  __real__Z22rv32_icache_invalidateP13Rv32HartState(p_hart);
}

/* Run `body` under a catcher: evaluates to 0 when ttsim returned, 1 when it raised an error
 * (then g_err_cat / g_err_msg say which). Locals assigned inside must not be read after an
 * error unless volatile. */
#define TS_TRY(body)                                                                         \
  ([&]() -> int {                                                                            \
    jmp_buf jb_;                                                                             \
    if (setjmp(jb_)) return 1;                                                               \
    g_catch = &jb_;                                                                          \
    body;                                                                                    \
    g_catch = NULL;                                                                          \
    return 0;                                                                                \
  }())

static TensixTile *tile0(void) { return &g_t_tiles[0]; }
static TensixState *tx(void) { return &g_t_tiles[0].tensix[0]; }

/* ---- small text helpers ------------------------------------------------------------------- */

static void say(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t n, const char *fmt, ...) {
  if (!why || !n) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
}

/* ---- ttsim's Config and ThreadConfig storage (Blackhole, v1.10.0) -------------------------- *
 * The words ttsim keeps: banked in TensixState::config[bank] (masked to their named fields),
 * 65 and 113 unmasked (ttsim stores the low word of a 128-bit register as is), and the global
 * words in TensixState itself. A member missing in another ttsim version fails the build. */
#define TS_CFG_BANKED(X)                                                                     \
  X(0) X(1) X(2) X(3) X(12) X(13) X(14) X(15) X(17) X(18) X(20) X(21) X(24) X(25) X(28)      \
  X(50) X(56) X(57) X(59) X(64) X(68) X(69) X(70) X(71) X(72) X(73) X(76) X(77) X(84) X(86)  \
  X(92) X(93) X(112) X(119) X(120) X(121) X(124) X(125)
#define TS_CFG_BANKED_RAW(X) X(65) X(113)
#define TS_CFG_GLOBAL(X) X(180) X(181) X(182) X(183) X(209) X(210) X(211) X(220)
#define TS_TCFG(X)                                                                           \
  X(0) X(1) X(2) X(3) X(5) X(7) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(28)  \
  X(29) X(30) X(31) X(32) X(33) X(34) X(35) X(37) X(38) X(39) X(40) X(41) X(47) X(48) X(49)  \
  X(50) X(51) X(52) X(53) X(54)

/* The storage of Config word `idx` as bank `bank` sees it, or NULL; *mask: its stored bits. */
static uint32_t *cfg_storage(uint32_t bank, uint32_t idx, uint32_t *mask) {
  TensixState *p = tx();
  bank &= 1;
  switch (idx) {
#define B(i) case i: *mask = CFG##i##_REG_MASK; return &p->config[bank].cfg##i;
#define R(i) case i: *mask = 0xFFFFFFFFu; return &p->config[bank].cfg##i;
#define G(i) case i: *mask = CFG##i##_REG_MASK; return &p->cfg##i;
    TS_CFG_BANKED(B)
    TS_CFG_BANKED_RAW(R)
    TS_CFG_GLOBAL(G)
#undef B
#undef R
#undef G
    default: return NULL;
  }
}

static uint16_t *tcfg_storage(uint32_t t, uint32_t idx) {
  TensixThreadState *p = &tx()->thread[t];
  switch (idx) {
#define T(i) case i: return &p->thread_cfg##i;
    TS_TCFG(T)
#undef T
    default: return NULL;
  }
}

/* ---- what ttsim's Config paths accept, probed from ttsim itself at first open -------------- *
 * For every index: does tensix_cfg_rd32 return, does tensix_cfg_wr32 return, and does a SETC16
 * of that ThreadConfig index execute; otherwise the category ttsim raises. The probes run on a
 * scratch TensixState (not the machine). */
enum { P_OK = 0 };
static uint8_t g_rd_ok[256], g_wr_ok[256], g_setc16_ok[256];
static TTSimErrorCategory g_rd_cat[256], g_wr_cat[256], g_setc16_cat[256];
static int g_probed;
static TensixState g_scratch;

static void probe_ttsim(void) {
  if (g_probed) return;
  g_count_ic = 0;
  for (uint32_t i = 0; i < 256; i++) {
    volatile uint32_t sink = 0;
    tensix_init(&g_scratch, 0);
    g_rd_ok[i] = TS_TRY(sink = tensix_cfg_rd32(&g_scratch, 0, 4 * i)) == 0;
    g_rd_cat[i] = g_err_cat;
    (void)sink;
    tensix_init(&g_scratch, 0);
    /* 185 (RISCV_IC_INVALIDATE) refuses a zero mask: probe the index with a valid value. */
    g_wr_ok[i] = TS_TRY(tensix_cfg_wr32(&g_scratch, 0, 4 * i, i == 185 ? 1u : 0u)) == 0;
    g_wr_cat[i] = g_err_cat;
    tensix_init(&g_scratch, 0);
    g_setc16_ok[i] = TS_TRY(tensix_decode_and_execute(&g_scratch, 0, 0xB2000000u | (i << 16))) == 0;
    g_setc16_cat[i] = g_err_cat;
  }
  tensix_init(&g_scratch, 0);
  g_probed = 1;
}

/* ---- instruction words: what ttsim does with them ------------------------------------------ */

enum { W_OK = 0, W_FAULT = 1, W_NO = 2 };   /* runs / ttsim always reports UB or NCB / not modelled */

static unsigned popcount8(uint32_t x) { return (unsigned)__builtin_popcount(x & 0xFFu); }

/* Opcodes in ttsim's Blackhole ISA table (data/bh/tensix_isa.json of v1.10.0). */
static int ttsim_defines_opcode(uint32_t op) {
  static const uint8_t ops[] = {
    0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x10, 0x11, 0x12, 0x13, 0x14,
    0x15, 0x16, 0x17, 0x18, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
    0x27, 0x28, 0x29, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x40,
    0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x48, 0x49, 0x4A, 0x4B, 0x50, 0x51, 0x52, 0x53, 0x54,
    0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x60, 0x61, 0x62, 0x63, 0x64,
    0x66, 0x67, 0x68, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x7B,
    0x7C, 0x7D, 0x7E, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A,
    0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
    0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6,
    0xB7, 0xB8,
  };
  for (size_t i = 0; i < sizeof ops; i++)
    if (ops[i] == op) return 1;
  return 0;
}

static const char *cat_name(TTSimErrorCategory c) { return ttsim_error_category_name(c); }

/* Why ttsim cannot read+write Config word idx (RMWCIB, CFGSHIFTMASK), or NULL. */
static const char *cfg_rmw_problem(uint32_t idx, char *buf, size_t n) {
  if (!g_rd_ok[idx]) {
    say(buf, n, "ttsim's Config read (tensix_cfg_rd32) refuses word %u (%s)", idx, cat_name(g_rd_cat[idx]));
    return buf;
  }
  if (!g_wr_ok[idx]) {
    say(buf, n, "ttsim's Config write (tensix_cfg_wr32) refuses word %u (%s)", idx, cat_name(g_wr_cat[idx]));
    return buf;
  }
  return NULL;
}

/* Classify a word; the reason goes to why. Follows ttsim's order of checks: the generated
 * decoder's unused-bit check (UndefinedBehavior) first, then the executor's. */
static int classify(uint32_t w, char *why, size_t n) {
  uint32_t op = w >> 24, p = w & 0xFFFFFFu;
  char buf[160];
#define RESERVED(mask, name)                                                                 \
  do {                                                                                       \
    if (p & (mask)) {                                                                        \
      say(why, n, name " with bits outside ttsim's fields (0x%06X): ttsim reports UndefinedBehavior", p & (mask)); \
      return W_FAULT;                                                                        \
    }                                                                                        \
  } while (0)
  switch (op) {
    case 0x01: case 0x03: case 0x04:
      say(why, n, "%s: ttsim expands it in its front end (MOP config / replay buffer) into other words, not one instruction of the stream; not mapped by this adapter",
          op == 0x01 ? "MOP" : op == 0x03 ? "MOP_CFG" : "REPLAY");
      return W_NO;
    case 0x02:
      if (w == 0x02000000u) return W_OK;
      say(why, n, "NOP with payload bits: ttsim's front end drops only the word 0x02000000; any other NOP word stops ttsim with AssertionFailure");
      return W_NO;
    case 0x44: case 0x46: case 0x49: case 0x59: case 0x5B: case 0x5C: case 0x5D: case 0x61:
    case 0x62: case 0x63: case 0x64: case 0x66: case 0x68: case 0xA7: case 0xB7: {
      static const struct { uint8_t op; const char *name; } names[] = {
        {0x44, "RSTDMA"}, {0x46, "FLUSHDMA"}, {0x49, "LOADIND"}, {0x59, "SUBDMAREG"},
        {0x5B, "BITWOPDMAREG"}, {0x5C, "SHIFTDMAREG"}, {0x5D, "CMPDMAREG"}, {0x61, "ATINCGET"},
        {0x62, "ATINCGETPTR"}, {0x63, "ATSWAP"}, {0x64, "ATCAS"}, {0x66, "STOREIND"},
        {0x68, "LOADREG"}, {0xA7, "STREAMWAIT"}, {0xB7, "STREAMWRCFG"}};
      const char *name = "?";
      for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].op == op) name = names[i].name;
      say(why, n, "%s: marked unsupported in ttsim's Blackhole ISA table (UnsupportedFunctionality)", name);
      return W_NO;
    }
    case 0x48:   /* REG2FLOP */
      RESERVED(0x00E000u, "REG2FLOP");
      say(why, n, "REG2FLOP: ttsim's Blackhole executor raises UnsupportedFunctionality for every form");
      return W_NO;
    case 0x45:   /* SETDMAREG */
      if (p & 0x80u) {
        say(why, n, "SETDMAREG with SetSignalsMode=1 (special form): ttsim raises UnsupportedFunctionality");
        return W_NO;
      }
      return W_OK;
    case 0x58: case 0x5A:   /* ADDDMAREG, MULDMAREG */
      RESERVED(0x7C0000u, "ADDDMAREG/MULDMAREG");
      if (p & 0x800000u) {
        say(why, n, "%s with OpBisConst=1 (immediate form): ttsim raises UnimplementedFunctionality",
            op == 0x58 ? "ADDDMAREG" : "MULDMAREG");
        return W_NO;
      }
      return W_OK;
    case 0x60:   /* DMANOP */
      RESERVED(0xFFFFFFu, "DMANOP");
      return W_OK;
    case 0x67: { /* STOREREG */
      uint32_t addr = 0xFFB00000u | ((p & 0x3FFFFu) << 2);
      if (addr < NOC_OVERLAY_BASE || addr > NOC_OVERLAY_BASE + 0x3FFFFu) {
        say(why, n, "STOREREG to 0x%08X: ttsim allows only the NoC overlay range 0xFFB40000..0xFFB7FFFF (UnsupportedFunctionality)", addr);
        return W_NO;
      }
      uint32_t r = addr & 0xFFFu;
      if (r != NOC_OVERLAY_STREAM_REMOTE_SRC && r != NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_START &&
          r != NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SIZE &&
          r != NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SPACE_AVAILABLE_UPDATE) {
        say(why, n, "STOREREG to overlay register offset 0x%03X: ttsim implements writes to 0x010, 0x020, 0x028, 0x438 only (UnimplementedFunctionality)", r);
        return W_NO;
      }
      return W_OK;
    }
    case 0xA0: case 0xA1: { /* ATGETM, ATRELM */
      const char *name = op == 0xA0 ? "ATGETM" : "ATRELM";
      RESERVED(0xFF0000u, "ATGETM/ATRELM");
      uint32_t m = p & 0xFFFFu;
      if (m >= 5 || m == 1) {
        say(why, n, "%s mutex %u: not a Blackhole mutex; ttsim reports UndefinedBehavior", name, m);
        return W_FAULT;
      }
      if (m != 0) {
        say(why, n, "%s mutex %u: ttsim raises UntestedFunctionality for every mutex but 0", name, m);
        return W_NO;
      }
      return W_OK;
    }
    case 0xA2: { /* STALLWAIT */
      RESERVED(0x007000u, "STALLWAIT");
      uint32_t wait = p & 0xFFFu, stall = (p >> 15) & 0x1FFu;
      if (!wait) {
        say(why, n, "STALLWAIT with condition mask 0: ttsim raises UnsupportedFunctionality (no default substitution)");
        return W_NO;
      }
      if (!stall) {
        say(why, n, "STALLWAIT with block mask 0: ttsim raises UnsupportedFunctionality (no default substitution)");
        return W_NO;
      }
      uint32_t left = wait & ~0xC1Fu & ~0x180u;
      if (left) {
        say(why, n, "STALLWAIT condition bits 0x%03X (C5/C6/C9): ttsim raises UnimplementedFunctionality", left);
        return W_NO;
      }
      return W_OK;
    }
    case 0xA3: { /* SEMINIT */
      RESERVED(0x00FC03u, "SEMINIT");
      uint32_t sel = (p >> 2) & 0xFFu, init = (p >> 16) & 0xFu, max = (p >> 20) & 0xFu;
      if (popcount8(sel) != 1) {
        say(why, n, "SEMINIT with semaphore mask 0x%02X: ttsim accepts exactly one semaphore (UnsupportedFunctionality)", sel);
        return W_NO;
      }
      if (init > max) {
        say(why, n, "SEMINIT value %u above max %u: ttsim reports NonContractualBehavior", init, max);
        return W_FAULT;
      }
      return W_OK;
    }
    case 0xA4: case 0xA5: { /* SEMPOST, SEMGET */
      RESERVED(0xFFFC03u, "SEMPOST/SEMGET");
      uint32_t sel = (p >> 2) & 0xFFu;
      if (popcount8(sel) != 1) {
        say(why, n, "%s with semaphore mask 0x%02X: ttsim accepts exactly one semaphore (UnsupportedFunctionality)",
            op == 0xA4 ? "SEMPOST" : "SEMGET", sel);
        return W_NO;
      }
      return W_OK;
    }
    case 0xA6: { /* SEMWAIT */
      RESERVED(0x007C00u, "SEMWAIT");
      uint32_t sel = (p >> 2) & 0xFFu, cond = p & 3u;
      if (popcount8(sel) != 1) {
        say(why, n, "SEMWAIT with semaphore mask 0x%02X: ttsim accepts exactly one semaphore (UnsupportedFunctionality)", sel);
        return W_NO;
      }
      if (cond == 0) {
        say(why, n, "SEMWAIT with condition 0: ttsim reports UndefinedBehavior");
        return W_FAULT;
      }
      if (cond == 3) {
        say(why, n, "SEMWAIT with both conditions (3): ttsim raises UnsupportedFunctionality");
        return W_NO;
      }
      return W_OK;
    }
    case 0xB0: { /* WRCFG */
      RESERVED(0xC07800u, "WRCFG");
      uint32_t cfg = p & 0x7FFu, gpr = (p >> 16) & 0x3Fu, wide = (p >> 15) & 1u;
      if (cfg >= NCFG) {
        say(why, n, "WRCFG to Config word %u (>= 224): ttsim reports UndefinedBehavior", cfg);
        return W_FAULT;
      }
      if (wide && ((cfg & 3u) || (gpr & 3u))) {
        say(why, n, "WRCFG 128-bit with unaligned Config word %u or GPR %u: ttsim reports NonContractualBehavior", cfg, gpr);
        return W_FAULT;
      }
      for (uint32_t i = 0; i < (wide ? 4u : 1u); i++) {
        if (!g_wr_ok[cfg + i]) {
          say(why, n, "WRCFG to Config word %u: ttsim's Config write refuses that word (%s)", cfg + i, cat_name(g_wr_cat[cfg + i]));
          return W_NO;
        }
      }
      return W_OK;
    }
    case 0xB1: { /* RDCFG */
      RESERVED(0xC0F800u, "RDCFG");
      uint32_t cfg = p & 0x7FFu;
      if (cfg >= NCFG) {
        say(why, n, "RDCFG of Config word %u (>= 224): ttsim reports UndefinedBehavior", cfg);
        return W_FAULT;
      }
      if (!g_rd_ok[cfg]) {
        say(why, n, "RDCFG of Config word %u: ttsim's Config read refuses that word (%s)", cfg, cat_name(g_rd_cat[cfg]));
        return W_NO;
      }
      return W_OK;
    }
    case 0xB2: { /* SETC16 */
      uint32_t reg = (p >> 16) & 0xFFu;
      if (reg >= NTCFG) {
        say(why, n, "SETC16 of ThreadConfig word %u (>= 68): ttsim reports UndefinedBehavior", reg);
        return W_FAULT;
      }
      if (!g_setc16_ok[reg]) {
        say(why, n, "SETC16 of ThreadConfig word %u: ttsim keeps no such word (%s)", reg, cat_name(g_setc16_cat[reg]));
        return W_NO;
      }
      return W_OK;
    }
    case 0xB3: case 0xB4: case 0xB5: case 0xB6: { /* RMWCIB0..3 */
      const char *pr = cfg_rmw_problem(p & 0xFFu, buf, sizeof buf);
      if (pr) { say(why, n, "RMWCIB%u: %s", op - 0xB3, pr); return W_NO; }
      return W_OK;
    }
    case 0xB8: { /* CFGSHIFTMASK */
      uint32_t rot = (p >> 10) & 31u, width = (p >> 15) & 31u, alu = (p >> 20) & 7u, dis = (p >> 23) & 1u;
      if (rot || width != 31 || alu != 3 || !dis) {
        say(why, n, "CFGSHIFTMASK: ttsim implements only rotate 0, mask width 31, operation 3 (add), disable_mask_on_old_val 1 (UnsupportedFunctionality)");
        return W_NO;
      }
      const char *pr = cfg_rmw_problem(p & 0xFFu, buf, sizeof buf);
      if (pr) { say(why, n, "CFGSHIFTMASK: %s", pr); return W_NO; }
      return W_OK;
    }
    default:
      if (!ttsim_defines_opcode(op)) {
        say(why, n, "opcode 0x%02X is not in ttsim's Blackhole ISA table: ttsim reports UndefinedBehavior", op);
        return W_FAULT;
      }
      say(why, n, "opcode 0x%02X belongs to a unit outside the Sync/Config/Scalar units: ttsim executes it against FPU/SFPU/unpacker/packer state the vector format cannot set or read",
          op);
      return W_NO;
  }
#undef RESERVED
}

/* ---- the instance ------------------------------------------------------------------------- */

typedef struct thr {
  uint32_t *w;
  uint32_t n;
  uint32_t pc;          /* next word of the stream to retire */
  int inflight;         /* w[pc] is in ttsim's FIFO */
  uint32_t issued;
  int faulted;
  uint32_t fault_index;
  TTSimErrorCategory fault_cat;
  char fault_msg[200];
} thr;

typedef struct snap {
  uint32_t gpr[NTHR][NGPR];
  uint32_t cfg[2][NCFG];
  uint8_t cfg_has[NCFG];
  uint16_t tcfg[NTHR][NTCFG];
  uint8_t sem[NSEM], sem_max[NSEM], mutex[5];
  uint32_t reseeds, ic[RV32_CORES_PER_T_TILE];
  uint32_t ovl[TENSIX_NUM_NOC_OVERLAY_STREAMS][4];
  int l1_zero;          /* 1: L1 was all zero; 0: l1_copy holds it; -1: no copy (L1 left out) */
} snap;

typedef struct dut {
  int refuse_faults;    /* accepts() also refuses words ttsim always reports as UB/NCB */
  int stop_on_fault;    /* a ttsim error ends the whole run (ttsim's own policy) */
  thr t[NTHR];
  /* Bits whose value in ttsim derives from bits it did not store: a write of a Config word or
   * overlay register keeps only the named fields, so what the program wrote is lost there and
   * everything computed from it differs from a machine with 32-bit words. get() refuses a
   * location with tainted bits (not comparable) rather than report ttsim's truncated value. */
  uint32_t gpr_taint[NTHR][NGPR];
  uint32_t cfg_taint[2][NCFG];
  uint32_t ovl_taint[TENSIX_NUM_NOC_OVERLAY_STREAMS][4];
  int l1_dirty;         /* L1 set since reset */
  uint32_t reseeds;
  int have_snap;
  snap s;
  uint8_t *l1_copy;     /* snapshot of L1 when it was not all zero */
} dut;

static int g_open;
static void machine_reset(dut *d);

static void *d_open(const char *args, char *why, size_t n) {
  if (g_open) {
    say(why, n, "ttsim keeps its machine in process globals: one instance per process");
    return NULL;
  }
  dut *d = (dut *)calloc(1, sizeof *d);
  if (!d) { say(why, n, "out of memory"); return NULL; }
  const char *a = args ? args : "";
  while (*a) {
    while (*a == ' ' || *a == ',') a++;
    const char *e = a;
    while (*e && *e != ' ' && *e != ',') e++;
    size_t len = (size_t)(e - a);
    if (len == 13 && !strncmp(a, "refuse-faults", len)) d->refuse_faults = 1;
    else if (len == 13 && !strncmp(a, "stop-on-fault", len)) d->stop_on_fault = 1;
    else if (len) {
      say(why, n, "unknown argument '%.*s' (known: refuse-faults, stop-on-fault)", (int)len, a);
      free(d);
      return NULL;
    }
    a = e;
  }
  probe_ttsim();
  machine_reset(d);
  g_open = 1;
  return d;
}

static void free_streams(dut *d) {
  for (int i = 0; i < NTHR; i++) {
    free(d->t[i].w);
    memset(&d->t[i], 0, sizeof d->t[i]);
  }
}

static void d_close(void *p) {
  dut *d = (dut *)p;
  if (!d) return;
  free_streams(d);
  free(d->l1_copy);
  free(d);
  g_open = 0;
}

static void d_caps(void *p, ttdut_caps *c) {
  (void)p;
  memset(c, 0, sizeof *c);
  c->version = TTDUT_VERSION;
  c->modes = 1u << TTDUT_MODE_FUNC;
  uint32_t storage = (1u << TTDUT_LOC_GPR) | (1u << TTDUT_LOC_CFG) | (1u << TTDUT_LOC_TCFG) |
                     (1u << TTDUT_LOC_SEM_VALUE) | (1u << TTDUT_LOC_SEM_MAX) |
                     (1u << TTDUT_LOC_MUTEX) | (1u << TTDUT_LOC_L1_U8) | (1u << TTDUT_LOC_L1_U16) |
                     (1u << TTDUT_LOC_L1_U32) | (1u << TTDUT_LOC_MMIO) | (1u << TTDUT_LOC_HOST_U32);
  c->can_set = storage;
  c->can_get = storage | (1u << TTDUT_LOC_PRNG_RESEEDS) | (1u << TTDUT_LOC_IC_INVALIDATES);
  c->flags = TTDUT_CAP_BLOCKED | TTDUT_CAP_ISSUED | TTDUT_CAP_CHANGED | TTDUT_CAP_KNOBS;
  snprintf(c->name, sizeof c->name, "ttsim %s (Blackhole)", TTSIM_DESCRIBE);
  snprintf(c->notes, sizeof c->notes, "%s",
           "func only; 7 knob readings, no profiles; refuses outside-unit words, MOP/REPLAY and forms ttsim "
           "lacks; ttsim errors halt the thread (fault class unknown); Config/host: ttsim's words only");
}

static int d_accepts(void *p, uint32_t word, char *why, size_t n) {
  dut *d = (dut *)p;
  char buf[200];
  int c = classify(word, buf, sizeof buf);
  if (c == W_OK || (c == W_FAULT && !(d && d->refuse_faults))) {
    if (why && n) why[0] = 0;
    return TTDUT_OK;
  }
  say(why, n, "%s", buf);
  return TTDUT_UNSUPPORTED;
}

static void machine_reset(dut *d) {
  TensixTile *t = tile0();
  if (d->l1_dirty) {
    memset(t, 0, sizeof *t);
  } else {
    size_t a = offsetof(TensixTile, sram), b = a + sizeof t->sram;
    memset(t, 0, a);
    memset((char *)t + b, 0, sizeof *t - b);
  }
  d->l1_dirty = 0;
  (void)TS_TRY(t_tile_init(0));
  memset(g_ic_count, 0, sizeof g_ic_count);
  memset(d->gpr_taint, 0, sizeof d->gpr_taint);
  memset(d->cfg_taint, 0, sizeof d->cfg_taint);
  memset(d->ovl_taint, 0, sizeof d->ovl_taint);
  d->reseeds = 0;
  d->have_snap = 0;
  free_streams(d);
}

/* The project's knob readings that ttsim follows, read from its source (README.md says where).
 * Every other knob value is a reading ttsim does not have (or a timing knob of cycle mode). */
static int knob_is_ttsims(const char *name, const char *value) {
  static const char *const ok[][2] = {
    {"gpr0", "ordinary"},              /* dma_regs[pipe][0] is written and read like the others */
    {"setdmareg_imm_bits", "16"},      /* SETDMAREG assembles payload bits [23:8] */
    {"l1_size", "1536k"},              /* TENSIX_SRAM_SIZE on Blackhole */
    {"cfg_index_high", "undefined"},   /* WRCFG/RDCFG index >= 224: UndefinedBehavior */
    {"semwait_cond0", "undefined"},    /* SEMWAIT condition 0: UndefinedBehavior */
    {"rstdma", "unsupported"},         /* RSTDMA: UnsupportedFunctionality */
    {"reg2flop", "unsupported"},       /* REG2FLOP on Blackhole: UnsupportedFunctionality */
  };
  if (!name || !value) return 0;
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
    if (!strcmp(name, ok[i][0]) && !strcmp(value, ok[i][1])) return 1;
  return 0;
}

static int d_reset(void *p, uint32_t mode, const ttdut_knob *k, uint32_t nk, char *why, size_t n) {
  dut *d = (dut *)p;
  if (mode != TTDUT_MODE_FUNC) {
    say(why, n, "ttsim has no cycle model of these units (every instruction completes when ttsim executes it): functional mode only");
    return TTDUT_UNSUPPORTED;
  }
  for (uint32_t i = 0; i < nk; i++) {
    if (k[i].name && !strcmp(k[i].name, TTDUT_KNOB_TRACE)) continue;   /* no trace: nothing to do */
    if (k[i].name && !strcmp(k[i].name, "profile")) {
      say(why, n, "ttsim has no profiles (it follows its own reading of each ambiguity): profile %s", k[i].value ? k[i].value : "");
      return TTDUT_UNSUPPORTED;
    }
    if (!knob_is_ttsims(k[i].name, k[i].value)) {
      say(why, n, "ttsim does not follow the reading %s=%s (it has no knobs; only readings it follows are accepted)",
          k[i].name ? k[i].name : "?", k[i].value ? k[i].value : "?");
      return TTDUT_UNSUPPORTED;
    }
  }
  machine_reset(d);
  return TTDUT_OK;
}

/* ---- taint helpers (see struct dut) ---------------------------------------------------- */

static uint32_t below_lowest(uint32_t taint) {   /* an addition: a tainted bit taints it and above */
  return taint ? ~((taint & (0u - taint)) - 1u) : 0;
}

static void cfg_taint_set(dut *d, uint32_t bank, uint32_t idx, uint32_t taint) {
  if (idx >= NCFG) return;
  if (idx >= 180) d->cfg_taint[0][idx] = d->cfg_taint[1][idx] = taint;
  else d->cfg_taint[bank & 1][idx] = taint;
}

static uint32_t cfg_value(uint32_t bank, uint32_t idx, int *has) {
  uint32_t mask;
  uint32_t *st = idx < NCFG ? cfg_storage(bank, idx, &mask) : NULL;
  *has = st != NULL;
  return st ? *st : 0;
}

/* ---- locations ---------------------------------------------------------------------------- */

static int ovl_reg(uint32_t addr, uint32_t *stream, uint32_t *which) {
  if (addr < NOC_OVERLAY_BASE || addr > NOC_OVERLAY_BASE + 0x3FFFFu || (addr & 3u)) return 0;
  uint32_t off = addr - NOC_OVERLAY_BASE;
  *stream = off / 0x1000u;
  switch (off & 0xFFFu) {
    case NOC_OVERLAY_STREAM_REMOTE_SRC: *which = 0; return 1;
    case NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_START: *which = 1; return 1;
    case NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SIZE: *which = 2; return 1;
    case NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SPACE_AVAILABLE: *which = 3; return 1;
    default: return 0;
  }
}

static uint32_t *ovl_storage(uint32_t stream, uint32_t which, uint32_t *mask) {
  TensixTile *t = tile0();
  switch (which) {
    case 0: *mask = 0xFFFFFFu; return &t->overlay_stream_remote_src[stream];
    case 1: *mask = 0x1FFFFu; return &t->overlay_stream_remote_dest_buf_start[stream];
    case 2: *mask = 0x1FFFFu; return &t->overlay_stream_remote_dest_buf_size[stream];
    default: *mask = 0x1FFFFu; return &t->overlay_stream_remote_dest_buf_space_available[stream];
  }
}

static int l1_ok(const ttdut_loc *l, unsigned *size) {
  *size = l->kind == TTDUT_LOC_L1_U8 ? 1 : l->kind == TTDUT_LOC_L1_U16 ? 2 : 4;
  return l->index < TENSIX_SRAM_SIZE && l->index + *size <= TENSIX_SRAM_SIZE && !(l->index & (*size - 1));
}

/* The host windows passed to ttsim's MMIO decoder: GPRs, the semaphore slots of PC_BUF and
 * the Config window. Other host addresses reach parts of ttsim (instruction ports, MOP config,
 * mailboxes, NoC) that this adapter does not map. */
static int host_window(uint32_t addr) {
  return (addr >= TENSIX_REGFILE_BASE && addr <= TENSIX_REGFILE_LIMIT) ||
         (addr >= TENSIX_PC_BUF_BASE + TENSIX_PC_BUF_SEMAPHORE(0) &&
          addr <= TENSIX_PC_BUF_BASE + TENSIX_PC_BUF_SEMAPHORE(7)) ||
         (addr >= TENSIX_CFG_BASE && addr <= TENSIX_CFG_LIMIT);
}

static int host_check(const ttdut_loc *l, char *why, size_t n) {
  if (l->kind != TTDUT_LOC_HOST_U32) {
    say(why, n, "ttsim's MMIO path is 32-bit only (8/16-bit MMIO is Untested/Unsupported there)");
    return TTDUT_UNSUPPORTED;
  }
  if (l->sel > 3) { say(why, n, "no such core"); return TTDUT_UNSUPPORTED; }
  if (l->index & 3u) { say(why, n, "unaligned"); return TTDUT_UNSUPPORTED; }
  if (!host_window(l->index)) {
    say(why, n, "host address 0x%08X: outside the GPR, semaphore and Config windows this adapter passes to ttsim", l->index);
    return TTDUT_UNSUPPORTED;
  }
  return TTDUT_OK;
}

static int d_set(void *p, const ttdut_loc *l, uint32_t v, char *why, size_t n) {
  dut *d = (dut *)p;
  TensixState *s = tx();
  switch (l->kind) {
    case TTDUT_LOC_GPR:
      if (l->sel >= NTHR || l->index >= NGPR) break;
      s->dma_regs[l->sel][l->index] = v;
      d->gpr_taint[l->sel][l->index] = 0;
      return TTDUT_OK;
    case TTDUT_LOC_CFG: {
      uint32_t mask;
      if (l->sel > 1 || l->index >= NCFG) break;
      uint32_t *st = cfg_storage(l->sel, l->index, &mask);
      if (!st) {
        say(why, n, "ttsim keeps no storage for Config word %u", l->index);
        return TTDUT_UNSUPPORTED;
      }
      if (v & ~mask) {
        say(why, n, "ttsim stores only the named fields of Config word %u (mask 0x%08X)", l->index, mask);
        return TTDUT_UNSUPPORTED;
      }
      /* Through ttsim's writer, so that its checks on field values apply; undone if it refuses. */
      uint32_t old = *st;
      if (TS_TRY(tensix_cfg_wr32(s, l->sel, 4 * l->index, v))) {
        *st = old;
        say(why, n, "ttsim refuses that value: %s", g_err_msg);
        return TTDUT_UNSUPPORTED;
      }
      cfg_taint_set(d, l->sel, l->index, 0);
      return TTDUT_OK;
    }
    case TTDUT_LOC_TCFG: {
      if (l->sel >= NTHR || l->index >= NTCFG) break;
      uint16_t *st = tcfg_storage(l->sel, l->index);
      if (!st) {
        say(why, n, "ttsim keeps no storage for ThreadConfig word %u", l->index);
        return TTDUT_UNSUPPORTED;
      }
      if (v > 0xFFFFu) break;
      *st = (uint16_t)v;
      return TTDUT_OK;
    }
    case TTDUT_LOC_SEM_VALUE:
    case TTDUT_LOC_SEM_MAX:
      if (l->index >= NSEM || v > 15) break;
      (l->kind == TTDUT_LOC_SEM_VALUE ? s->sem : s->sem_max)[l->index] = (uint8_t)v;
      return TTDUT_OK;
    case TTDUT_LOC_MUTEX:
      if (l->index >= 5 || l->index == 1 || v > 3) break;
      s->mutex[l->index] = (uint8_t)v;
      return TTDUT_OK;
    case TTDUT_LOC_L1_U8:
    case TTDUT_LOC_L1_U16:
    case TTDUT_LOC_L1_U32: {
      unsigned size;
      if (!l1_ok(l, &size)) break;
      if (size < 4 && (v >> (8 * size))) break;
      memcpy(&tile0()->sram[l->index], &v, size);   /* little-endian host, as ttsim assumes */
      d->l1_dirty = 1;
      return TTDUT_OK;
    }
    case TTDUT_LOC_MMIO: {
      uint32_t stream, which, mask;
      if (!ovl_reg(l->index, &stream, &which)) {
        say(why, n, "ttsim keeps no storage at MMIO 0x%08X (of the overlay streams it keeps REMOTE_SRC, DEST_BUF_START/SIZE/SPACE_AVAILABLE)", l->index);
        return TTDUT_UNSUPPORTED;
      }
      uint32_t *st = ovl_storage(stream, which, &mask);
      if (v & ~mask) {
        say(why, n, "ttsim stores only bits 0x%X of that overlay register", mask);
        return TTDUT_UNSUPPORTED;
      }
      *st = v;
      d->ovl_taint[stream][which] = 0;
      return TTDUT_OK;
    }
    case TTDUT_LOC_HOST_U8:
    case TTDUT_LOC_HOST_U16:
    case TTDUT_LOC_HOST_U32: {
      int r = host_check(l, why, n);
      if (r != TTDUT_OK) return r;
      volatile int done = 1;
      uint32_t sel = l->sel, addr = l->index;
      g_count_ic = 1;
      int err = TS_TRY(done = tile_mmio_wr32('T', 0, sel, addr, v));
      g_count_ic = 0;
      if (err) {
        say(why, n, "ttsim: %s", g_err_msg);
        return TTDUT_UNSUPPORTED;
      }
      if (!done) { say(why, n, "ttsim's port stalls that store"); return TTDUT_UNSUPPORTED; }
      if (addr == TENSIX_CFG_BASE + 4u * 186u) d->reseeds++;   /* PRNG_SEED: ttsim reseeds on every write */
      if (addr >= TENSIX_REGFILE_BASE && addr <= TENSIX_REGFILE_LIMIT && sel >= 1)
        d->gpr_taint[sel - 1][((addr - TENSIX_REGFILE_BASE) / 4) & 63] = 0;
      if (addr >= TENSIX_CFG_BASE && (addr - TENSIX_CFG_BASE) / 4 < NCFG) {   /* ttsim: bank 0 */
        int has;
        uint32_t idx = (addr - TENSIX_CFG_BASE) / 4, now = cfg_value(0, idx, &has);
        if (has) cfg_taint_set(d, 0, idx, now ^ v);
      }
      return TTDUT_OK;
    }
    default:
      say(why, n, "not a location that can be set (event counters and unknown kinds)");
      return TTDUT_UNSUPPORTED;
  }
  say(why, n, "location or value out of range");
  return TTDUT_UNSUPPORTED;
}

static int tainted(uint32_t taint, char *why, size_t n) {
  say(why, n, "bits 0x%08X of this value derive from bits ttsim did not store (it keeps only the named fields of Config words and overlay registers)", taint);
  return TTDUT_UNSUPPORTED;
}

static int d_get(void *p, const ttdut_loc *l, uint32_t *v, char *why, size_t n) {
  dut *d = (dut *)p;
  TensixState *s = tx();
  *v = 0;
  switch (l->kind) {
    case TTDUT_LOC_GPR:
      if (l->sel >= NTHR || l->index >= NGPR) break;
      if (d->gpr_taint[l->sel][l->index]) return tainted(d->gpr_taint[l->sel][l->index], why, n);
      *v = s->dma_regs[l->sel][l->index];
      return TTDUT_OK;
    case TTDUT_LOC_CFG: {
      uint32_t mask;
      if (l->sel > 1 || l->index >= NCFG) break;
      uint32_t *st = cfg_storage(l->sel, l->index, &mask);
      if (st && d->cfg_taint[l->sel][l->index]) return tainted(d->cfg_taint[l->sel][l->index], why, n);
      if (st) { *v = *st; return TTDUT_OK; }
      if (g_rd_ok[l->index]) {   /* a word ttsim's reader returns without storage (reads 0) */
        volatile uint32_t x = 0;
        uint32_t bank = l->sel, idx = l->index;
        if (TS_TRY(x = tensix_cfg_rd32(s, bank, 4 * idx)) == 0) { *v = x; return TTDUT_OK; }
      }
      say(why, n, "ttsim keeps no storage for Config word %u", l->index);
      return TTDUT_UNSUPPORTED;
    }
    case TTDUT_LOC_TCFG: {
      if (l->sel >= NTHR || l->index >= NTCFG) break;
      uint16_t *st = tcfg_storage(l->sel, l->index);
      if (!st) {
        say(why, n, "ttsim keeps no storage for ThreadConfig word %u", l->index);
        return TTDUT_UNSUPPORTED;
      }
      *v = *st;
      return TTDUT_OK;
    }
    case TTDUT_LOC_SEM_VALUE:
    case TTDUT_LOC_SEM_MAX:
      if (l->index >= NSEM) break;
      *v = (l->kind == TTDUT_LOC_SEM_VALUE ? s->sem : s->sem_max)[l->index];
      return TTDUT_OK;
    case TTDUT_LOC_MUTEX:
      if (l->index >= 5 || l->index == 1) break;
      *v = s->mutex[l->index];
      return TTDUT_OK;
    case TTDUT_LOC_L1_U8:
    case TTDUT_LOC_L1_U16:
    case TTDUT_LOC_L1_U32: {
      unsigned size;
      if (!l1_ok(l, &size)) break;
      memcpy(v, &tile0()->sram[l->index], size);
      return TTDUT_OK;
    }
    case TTDUT_LOC_MMIO: {
      uint32_t stream, which, mask;
      if (!ovl_reg(l->index, &stream, &which)) {
        say(why, n, "ttsim keeps no storage at MMIO 0x%08X", l->index);
        return TTDUT_UNSUPPORTED;
      }
      if (d->ovl_taint[stream][which]) return tainted(d->ovl_taint[stream][which], why, n);
      *v = *ovl_storage(stream, which, &mask);
      return TTDUT_OK;
    }
    case TTDUT_LOC_HOST_U8:
    case TTDUT_LOC_HOST_U16:
    case TTDUT_LOC_HOST_U32: {
      int r = host_check(l, why, n);
      if (r != TTDUT_OK) return r;
      if (l->index >= TENSIX_REGFILE_BASE && l->index <= TENSIX_REGFILE_LIMIT && l->sel >= 1) {
        uint32_t tn = d->gpr_taint[l->sel - 1][((l->index - TENSIX_REGFILE_BASE) / 4) & 63];
        if (tn) return tainted(tn, why, n);
      }
      if (l->index >= TENSIX_CFG_BASE && (l->index - TENSIX_CFG_BASE) / 4 < NCFG) {
        uint32_t tn = d->cfg_taint[0][(l->index - TENSIX_CFG_BASE) / 4];
        if (tn) return tainted(tn, why, n);
      }
      volatile uint32_t x = 0;
      volatile int done = 1;
      uint32_t sel = l->sel, addr = l->index;
      if (TS_TRY({
            auto res = tile_mmio_rd32('T', 0, sel, addr);
            done = res.first;
            x = res.second;
          })) {
        say(why, n, "ttsim: %s", g_err_msg);
        return TTDUT_UNSUPPORTED;
      }
      if (!done) { say(why, n, "ttsim's port stalls that load"); return TTDUT_UNSUPPORTED; }
      *v = x;
      return TTDUT_OK;
    }
    case TTDUT_LOC_PRNG_RESEEDS:
      if (l->sel || l->index) break;
      *v = d->reseeds;
      return TTDUT_OK;
    case TTDUT_LOC_IC_INVALIDATES:
      if (l->sel || l->index >= RV32_CORES_PER_T_TILE) break;
      *v = g_ic_count[l->index];
      return TTDUT_OK;
    case TTDUT_LOC_CTX_RESETS:
      say(why, n, "ttsim does not model the unpackers' config-context counters (SETC16 only stores CfgContextCntReset)");
      return TTDUT_UNSUPPORTED;
    default:
      say(why, n, "unknown location kind %u", l->kind);
      return TTDUT_UNSUPPORTED;
  }
  say(why, n, "location out of range");
  return TTDUT_UNSUPPORTED;
}

/* ---- streams and the run ------------------------------------------------------------------ */

static int d_load(void *p, uint32_t t, const uint32_t *w, uint32_t count, char *why, size_t n) {
  dut *d = (dut *)p;
  if (t >= NTHR) { say(why, n, "no thread %u", t); return TTDUT_UNSUPPORTED; }
  if (count && !w) { say(why, n, "no words"); return TTDUT_UNSUPPORTED; }
  for (uint32_t i = 0; i < count; i++) {
    char buf[200];
    if (d_accepts(d, w[i], buf, sizeof buf) != TTDUT_OK) {
      say(why, n, "word %u (0x%08X): %s", i, w[i], buf);
      return TTDUT_UNSUPPORTED;
    }
  }
  thr *th = &d->t[t];
  uint32_t *copy = NULL;
  if (count) {
    copy = (uint32_t *)malloc((size_t)count * sizeof *copy);
    if (!copy) { say(why, n, "out of memory"); return TTDUT_UNSUPPORTED; }
    memcpy(copy, w, (size_t)count * sizeof *copy);
  }
  free(th->w);
  memset(th, 0, sizeof *th);
  th->w = copy;
  th->n = count;
  /* Nothing of a previous stream stays in ttsim's FIFO of that pipe. */
  TensixState *s = tx();
  s->inst_rd_ptr[t] = s->inst_wr_ptr[t];
  s->inst_pipes_active &= ~(1u << t);
  return TTDUT_OK;
}

static int thr_done(const thr *th) { return !th->faulted && th->pc >= th->n; }

static void halt_thread(dut *d, uint32_t t) {
  thr *th = &d->t[t];
  TensixState *s = tx();
  th->faulted = 1;
  th->fault_index = th->pc;
  th->fault_cat = g_err_cat;
  snprintf(th->fault_msg, sizeof th->fault_msg, "%s", g_err_msg);
  th->inflight = 0;
  s->inst_rd_ptr[t] = s->inst_wr_ptr[t];
  s->inst_pipes_active &= ~(1u << t);
}

/* ---- taint: what ttsim's truncating stores lose ------------------------------------------- */

/* What an instruction is about to overwrite, taken before ttsim runs it. */
typedef struct pre {
  uint32_t bank;
  uint32_t val[4];      /* WRCFG: the GPRs; RMWCIB/CFGSHIFTMASK: old word; STOREREG: the GPR */
  uint32_t taint[4];
  uint32_t scratch, scratch_taint;
} pre;

static void before_exec(dut *d, uint32_t t, uint32_t w, pre *b) {
  TensixState *s = tx();
  uint32_t op = w >> 24;
  int has;
  memset(b, 0, sizeof *b);
  b->bank = s->thread[t].CFG_STATE_ID_StateID;
  if (op == 0xB0) {
    uint32_t g = (w >> 16) & 0x3Fu, nw = (w & 0x8000u) ? 4u : 1u;
    for (uint32_t i = 0; i < nw && g + i < NGPR; i++) {
      b->val[i] = s->dma_regs[t][g + i];
      b->taint[i] = d->gpr_taint[t][g + i];
    }
  } else if (op >= 0xB3 && op <= 0xB6) {
    uint32_t idx = w & 0xFFu;
    b->val[0] = cfg_value(b->bank, idx, &has);
    b->taint[0] = idx < NCFG ? d->cfg_taint[b->bank][idx] : 0;
  } else if (op == 0xB8) {
    uint32_t idx = w & 0xFFu, sel = (w >> 8) & 3u;
    uint32_t sidx = 209 + (sel == 3 ? t : sel);
    b->val[0] = cfg_value(b->bank, idx, &has);
    b->taint[0] = idx < NCFG ? d->cfg_taint[b->bank][idx] : 0;
    b->scratch = cfg_value(0, sidx, &has);
    b->scratch_taint = d->cfg_taint[0][sidx];
  } else if (op == 0x67) {
    uint32_t g = (w >> 18) & 0x3Fu;
    b->val[0] = s->dma_regs[t][g];
    b->taint[0] = d->gpr_taint[t][g];
  }
}

/* After ttsim ran the instruction: where did it store less than was written, and what did it
 * compute from tainted bits. */
static void after_exec(dut *d, uint32_t t, uint32_t w, const pre *b) {
  uint32_t op = w >> 24;
  int has;
  switch (op) {
    case 0x45: {   /* SETDMAREG: one half written with an immediate */
      uint32_t half = w & 0x7Fu, reg = half >> 1;
      d->gpr_taint[t][reg] &= (half & 1u) ? 0x0000FFFFu : 0xFFFF0000u;
      break;
    }
    case 0x58: {   /* ADDDMAREG */
      uint32_t a = w & 0x3Fu, bb = (w >> 6) & 0x3Fu, r = (w >> 12) & 0x3Fu;
      d->gpr_taint[t][r] = below_lowest(d->gpr_taint[t][a] | d->gpr_taint[t][bb]);
      break;
    }
    case 0x5A: {   /* MULDMAREG: low 16 bits of each operand */
      uint32_t a = w & 0x3Fu, bb = (w >> 6) & 0x3Fu, r = (w >> 12) & 0x3Fu;
      uint32_t tin = (d->gpr_taint[t][a] | d->gpr_taint[t][bb]) & 0xFFFFu;
      d->gpr_taint[t][r] = tin ? 0xFFFFFFFFu : 0;
      break;
    }
    case 0xB0: {   /* WRCFG */
      uint32_t idx = w & 0x7FFu, nw = (w & 0x8000u) ? 4u : 1u;
      for (uint32_t i = 0; i < nw; i++) {
        uint32_t v = cfg_value(b->bank, idx + i, &has);
        if (has) cfg_taint_set(d, b->bank, idx + i, b->taint[i] | (v ^ b->val[i]));
      }
      break;
    }
    case 0xB1: {   /* RDCFG */
      uint32_t idx = w & 0x7FFu, g = (w >> 16) & 0x3Fu;
      d->gpr_taint[t][g] = idx < NCFG ? d->cfg_taint[b->bank][idx] : 0;
      break;
    }
    case 0xB3: case 0xB4: case 0xB5: case 0xB6: {   /* RMWCIB0..3 */
      uint32_t idx = w & 0xFFu, sh = 8u * (op - 0xB3);
      uint32_t m = ((w >> 16) & 0xFFu) << sh, data = ((w >> 8) & 0xFFu) << sh;
      uint32_t v = cfg_value(b->bank, idx, &has);
      uint32_t want = (b->val[0] & ~m) | (data & m);
      if (has) cfg_taint_set(d, b->bank, idx, (b->taint[0] & ~m) | (v ^ want));
      break;
    }
    case 0xB8: {   /* CFGSHIFTMASK as ttsim implements it: word += scratch */
      uint32_t idx = w & 0xFFu;
      uint32_t v = cfg_value(b->bank, idx, &has);
      uint32_t want = b->val[0] + b->scratch;
      if (has) cfg_taint_set(d, b->bank, idx, below_lowest(b->taint[0] | b->scratch_taint) | (v ^ want));
      break;
    }
    case 0x67: {   /* STOREREG to an overlay register */
      uint32_t addr = 0xFFB00000u | ((w & 0x3FFFFu) << 2), stream, which, mask;
      if ((addr & 0xFFFu) == NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SPACE_AVAILABLE_UPDATE) {
        stream = (addr - NOC_OVERLAY_BASE) / 0x1000u;
        d->ovl_taint[stream][3] = (d->ovl_taint[stream][3] | (b->taint[0] >> 6)) ? 0x1FFFFu : 0;
        break;
      }
      if (!ovl_reg(addr, &stream, &which)) break;
      uint32_t v = *ovl_storage(stream, which, &mask);
      d->ovl_taint[stream][which] = b->taint[0] | (v ^ b->val[0]);
      if (which == 2) d->ovl_taint[stream][3] = d->ovl_taint[stream][2];   /* SIZE also sets SPACE_AVAILABLE */
      break;
    }
    default: break;
  }
}

/* One round: pipes 0, 1, 2 in turn may each run their head instruction once (the order of
 * ttsim's own clock loop). Returns 1 when anything changed, -1 when a fault stops the run. */
static int round_once(dut *d) {
  int moved = 0;
  TensixState *s = tx();
  for (uint32_t t = 0; t < NTHR; t++) {
    thr *th = &d->t[t];
    if (th->faulted || th->pc >= th->n) continue;
    uint32_t word = th->w[th->pc];
    if (!th->inflight) {
      g_count_ic = 1;
      int err = TS_TRY(tensix_push_inst(s, t, word, false));
      g_count_ic = 0;
      if (err) {
        halt_thread(d, t);
        moved = 1;
        if (d->stop_on_fault) return -1;
        continue;
      }
      if (s->inst_rd_ptr[t] == s->inst_wr_ptr[t]) {   /* the front end dropped it (NOP) */
        th->pc++;
        th->issued++;
        moved = 1;
        continue;
      }
      th->inflight = 1;
    }
    uint32_t rd = s->inst_rd_ptr[t];
    uint32_t inst = s->inst[t][rd];
    pre b;
    before_exec(d, t, inst, &b);
    volatile int ran = 0;
    g_count_ic = 1;
    int err = TS_TRY(ran = tensix_decode_and_execute(s, t, inst));
    g_count_ic = 0;
    if (err) {
      halt_thread(d, t);
      moved = 1;
      if (d->stop_on_fault) return -1;
      continue;
    }
    if (!ran) continue;
    after_exec(d, t, inst, &b);
    rd = (rd + 1) % TENSIX_INST_FIFO_SIZE;
    s->inst_rd_ptr[t] = rd;
    if (rd == s->inst_wr_ptr[t]) {
      s->inst_pipes_active &= ~(1u << t);
      /* The word retired. A single WRCFG to PRNG_SEED makes ttsim reseed (seed_prng). */
      if ((word >> 24) == 0xB0 && !(word & 0x8000u) && (word & 0x7FFu) == 186) d->reseeds++;
      th->pc++;
      th->issued++;
      th->inflight = 0;
    }
    moved = 1;
  }
  return moved;
}

static void describe_wait(dut *d, uint32_t t, char *why, size_t n) {
  thr *th = &d->t[t];
  TensixState *s = tx();
  if (th->pc >= th->n) { if (n) why[0] = 0; return; }
  uint32_t w = th->w[th->pc], op = w >> 24;
  if (op == 0xA6) {
    uint32_t i = (uint32_t)__builtin_ctz(((w >> 2) & 0xFFu) | 0x100u);
    if (i < NSEM)
      say(why, n, "at %u: SEMWAIT sem%u wait while %s (value %u, max %u)", th->pc, i,
          (w & 3u) == 2 ? "max" : "zero", s->sem[i], s->sem_max[i]);
    else
      say(why, n, "at %u: SEMWAIT", th->pc);
  } else if (op == 0xA2) {
    say(why, n, "at %u: STALLWAIT conditions 0x%03X: ttsim waits for SrcA/SrcB valid (C7/C8); no accepted instruction sets them", th->pc, w & 0xFFFu);
  } else if (op == 0xA0) {
    say(why, n, "at %u: ATGETM mutex 0 held by t%d", th->pc, (int)s->mutex[0] - 1);
  } else {
    say(why, n, "at %u: 0x%08X", th->pc, w);
  }
}

static int d_run(void *p, uint64_t budget, ttdut_result *r) {
  dut *d = (dut *)p;
  uint64_t steps = 0;
  uint32_t outcome = TTDUT_OUT_BUDGET;
  for (;;) {
    int all_done = 1;
    for (int t = 0; t < NTHR; t++) all_done &= thr_done(&d->t[t]);
    if (all_done) { outcome = TTDUT_OUT_DONE; break; }
    int stuck = 1;   /* no unfinished thread that is not halted */
    for (int t = 0; t < NTHR; t++) stuck &= thr_done(&d->t[t]) || d->t[t].faulted;
    if (stuck) { outcome = TTDUT_OUT_DEADLOCK; break; }
    if (steps >= budget) break;
    int m = round_once(d);
    steps++;
    if (m < 0) { outcome = TTDUT_OUT_DEADLOCK; break; }   /* stop-on-fault: ttsim would end here */
    if (m == 0) { outcome = TTDUT_OUT_DEADLOCK; break; }  /* nothing moved: a fixed point */
  }
  memset(r, 0, sizeof *r);
  r->outcome = outcome;
  r->steps = steps;
  for (uint32_t t = 0; t < NTHR; t++) {
    thr *th = &d->t[t];
    ttdut_thread_result *x = &r->thread[t];
    x->done = (uint8_t)thr_done(th);
    x->blocked = (uint8_t)(!x->done && (th->faulted || outcome == TTDUT_OUT_DEADLOCK));
    x->issued = th->issued;
    if (th->faulted) {
      x->fault = TTDUT_FAULT_SOME;
      x->fault_index = th->fault_index;
      say(x->why, sizeof x->why, "halted at %u: ttsim %s", th->fault_index, th->fault_msg);
      say(x->fault_why, sizeof x->fault_why, "ttsim %s", th->fault_msg);
    } else if (!x->done) {
      describe_wait(d, t, x->why, sizeof x->why);
    }
  }
  /* ttdut.h v1 has no "this run is not comparable" answer from run() (the runner reads any
   * other return as a broken implementation): a stop at something ttsim does not model (as
   * opposed to a verdict on the program) is reported as the thread's fault, its category
   * first in fault_why. */
  return TTDUT_OK;
}

/* ---- snapshot / changed ------------------------------------------------------------------- */

static void take(dut *d, snap *s) {
  TensixState *x = tx();
  TensixTile *tt = tile0();
  memcpy(s->gpr, x->dma_regs, sizeof s->gpr);
  for (uint32_t i = 0; i < NCFG; i++) {
    uint32_t mask;
    s->cfg_has[i] = 0;
    for (uint32_t b = 0; b < 2; b++) {
      uint32_t *st = cfg_storage(b, i, &mask);
      s->cfg[b][i] = st ? *st : 0;
      if (st) s->cfg_has[i] = 1;
    }
  }
  for (uint32_t t = 0; t < NTHR; t++)
    for (uint32_t i = 0; i < NTCFG; i++) {
      uint16_t *st = tcfg_storage(t, i);
      s->tcfg[t][i] = st ? *st : 0;
    }
  memcpy(s->sem, x->sem, sizeof s->sem);
  memcpy(s->sem_max, x->sem_max, sizeof s->sem_max);
  memcpy(s->mutex, x->mutex, sizeof s->mutex);
  s->reseeds = d->reseeds;
  memcpy(s->ic, g_ic_count, sizeof s->ic);
  for (uint32_t k = 0; k < TENSIX_NUM_NOC_OVERLAY_STREAMS; k++) {
    s->ovl[k][0] = tt->overlay_stream_remote_src[k];
    s->ovl[k][1] = tt->overlay_stream_remote_dest_buf_start[k];
    s->ovl[k][2] = tt->overlay_stream_remote_dest_buf_size[k];
    s->ovl[k][3] = tt->overlay_stream_remote_dest_buf_space_available[k];
  }
}

static void d_snapshot(void *p) {
  dut *d = (dut *)p;
  take(d, &d->s);
  d->s.l1_zero = !d->l1_dirty;
  if (d->l1_dirty) {
    if (!d->l1_copy) d->l1_copy = (uint8_t *)malloc(TENSIX_SRAM_SIZE);
    if (d->l1_copy) memcpy(d->l1_copy, tile0()->sram, TENSIX_SRAM_SIZE);
    else d->s.l1_zero = -1;   /* no copy: L1 is left out of changed() */
  }
  d->have_snap = 1;
}

typedef struct acc { ttdut_loc *loc; uint32_t *a, *b, max, n; } acc;

static void add(acc *c, uint32_t kind, uint32_t sel, uint32_t index, uint32_t a, uint32_t b) {
  if (a == b) return;
  if (c->n < c->max) {
    c->loc[c->n].kind = kind;
    c->loc[c->n].sel = sel;
    c->loc[c->n].index = index;
    c->a[c->n] = a;
    c->b[c->n] = b;
  }
  c->n++;
}

static uint32_t d_changed(void *p, ttdut_loc *loc, uint32_t *before, uint32_t *after, uint32_t max) {
  dut *d = (dut *)p;
  if (!d->have_snap) return 0;
  snap now;
  take(d, &now);
  acc c = {loc, before, after, max, 0};
  const snap *o = &d->s;
  for (uint32_t t = 0; t < NTHR; t++)
    for (uint32_t i = 0; i < NGPR; i++) add(&c, TTDUT_LOC_GPR, t, i, o->gpr[t][i], now.gpr[t][i]);
  for (uint32_t b = 0; b < 2; b++)
    for (uint32_t i = 0; i < NCFG; i++)
      if (now.cfg_has[i]) add(&c, TTDUT_LOC_CFG, b, i, o->cfg[b][i], now.cfg[b][i]);
  for (uint32_t t = 0; t < NTHR; t++)
    for (uint32_t i = 0; i < NTCFG; i++) add(&c, TTDUT_LOC_TCFG, t, i, o->tcfg[t][i], now.tcfg[t][i]);
  for (uint32_t i = 0; i < NSEM; i++) {
    add(&c, TTDUT_LOC_SEM_VALUE, 0, i, o->sem[i], now.sem[i]);
    add(&c, TTDUT_LOC_SEM_MAX, 0, i, o->sem_max[i], now.sem_max[i]);
  }
  for (uint32_t i = 0; i < 5; i++)
    if (i != 1) add(&c, TTDUT_LOC_MUTEX, 0, i, o->mutex[i], now.mutex[i]);
  add(&c, TTDUT_LOC_PRNG_RESEEDS, 0, 0, o->reseeds, now.reseeds);
  for (uint32_t i = 0; i < RV32_CORES_PER_T_TILE; i++) add(&c, TTDUT_LOC_IC_INVALIDATES, 0, i, o->ic[i], now.ic[i]);
  if (o->l1_zero >= 0) {
    const uint8_t *sram = tile0()->sram;
    for (uint32_t a = 0; a < TENSIX_SRAM_SIZE; a += 4) {
      uint32_t x, y = 0;
      memcpy(&x, sram + a, 4);
      if (!o->l1_zero) memcpy(&y, d->l1_copy + a, 4);
      add(&c, TTDUT_LOC_L1_U32, 0, a, y, x);
    }
  }
  static const uint32_t roff[4] = {NOC_OVERLAY_STREAM_REMOTE_SRC, NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_START,
                                   NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SIZE,
                                   NOC_OVERLAY_STREAM_REMOTE_DEST_BUF_SPACE_AVAILABLE};
  for (uint32_t k = 0; k < TENSIX_NUM_NOC_OVERLAY_STREAMS; k++)
    for (uint32_t j = 0; j < 4; j++)
      add(&c, TTDUT_LOC_MMIO, 0, NOC_OVERLAY_BASE + k * 0x1000u + roff[j], o->ovl[k][j], now.ovl[k][j]);
  return c.n;
}

static const ttdut_ops g_ops = {
  TTDUT_VERSION, "ttsim", d_open, d_close, d_caps, d_accepts, d_reset, d_set, d_load, d_run,
  d_get, NULL, NULL, d_snapshot, d_changed, NULL,
};

extern "C" __attribute__((visibility("default"))) const ttdut_ops *ttdut_entry(void) { return &g_ops; }
