/* smoke.c — a standalone check of the ttsim adapter (build/dut/ttsim.so) through ttdut.h only:
 * a few hand-computed instruction streams, the refusals, the host port, the event counters,
 * changed(), and a random-word run that must neither crash nor exit and must be repeatable.
 * Usage: ttsim_smoke PATH/ttsim.so   (exit status 0 when every check holds) */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ttdut.h"

static const ttdut_ops *ops;
static void *d;
static int fails, checks;
static char why[256];

#define CHECK(cond, ...)                                                                     \
  do {                                                                                       \
    checks++;                                                                                \
    if (!(cond)) {                                                                           \
      fails++;                                                                               \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
      printf(__VA_ARGS__);                                                                   \
      printf("\n");                                                                          \
    }                                                                                        \
  } while (0)

static ttdut_loc L(uint32_t kind, uint32_t sel, uint32_t index) {
  ttdut_loc l = {kind, sel, index};
  return l;
}

static void reset(void) {
  int r = ops->reset(d, TTDUT_MODE_FUNC, NULL, 0, why, sizeof why);
  CHECK(r == TTDUT_OK, "reset: %d %s", r, why);
}

static int set(uint32_t kind, uint32_t sel, uint32_t index, uint32_t v) {
  ttdut_loc l = L(kind, sel, index);
  return ops->set(d, &l, v, why, sizeof why);
}

static uint32_t get(uint32_t kind, uint32_t sel, uint32_t index) {
  ttdut_loc l = L(kind, sel, index);
  uint32_t v = 0xDEADBEEF;
  int r = ops->get(d, &l, &v, why, sizeof why);
  CHECK(r == TTDUT_OK, "get %u/%u/%u: %d %s", kind, sel, index, r, why);
  return v;
}

static void load(uint32_t t, const uint32_t *w, uint32_t n) {
  int r = ops->load(d, t, w, n, why, sizeof why);
  CHECK(r == TTDUT_OK, "load t%u: %d %s", t, r, why);
}

static int run(ttdut_result *res) { return ops->run(d, 1000, res); }

static void show(const char *name, const ttdut_result *r) {
  printf("  %-34s outcome=%u steps=%llu", name, r->outcome, (unsigned long long)r->steps);
  for (int t = 0; t < 3; t++)
    printf(" | t%d done=%u blk=%u iss=%u flt=%u%s%s", t, r->thread[t].done, r->thread[t].blocked,
           r->thread[t].issued, r->thread[t].fault, r->thread[t].why[0] ? " " : "", r->thread[t].why);
  printf("\n");
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s PATH/ttsim.so\n", argv[0]); return 2; }
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
  ttdut_entry_fn entry = (ttdut_entry_fn)dlsym(h, TTDUT_ENTRY_SYMBOL);
  if (!entry) { fprintf(stderr, "no %s\n", TTDUT_ENTRY_SYMBOL); return 1; }
  ops = entry();
  d = ops->open("", why, sizeof why);
  if (!d) { fprintf(stderr, "open: %s\n", why); return 1; }
  CHECK(ops->open("", why, sizeof why) == NULL, "a second instance must be refused");
  ttdut_caps c;
  ops->caps(d, &c);
  printf("%s: modes=0x%x can_set=0x%x can_get=0x%x flags=0x%x\n  notes: %s\n", c.name, c.modes,
         c.can_set, c.can_get, c.flags, c.notes);
  ttdut_result r;

  /* SETDMAREG: both halves of GPR 3 */
  reset();
  {
    const uint32_t w[] = {0x45123406, 0x45ABCD07};
    load(0, w, 2);
    CHECK(run(&r) == TTDUT_OK, "run");
    show("SETDMAREG lo/hi", &r);
    CHECK(r.outcome == TTDUT_OUT_DONE && r.thread[0].done && r.thread[0].issued == 2, "done");
    CHECK(get(TTDUT_LOC_GPR, 0, 3) == 0xABCD1234u, "gpr3 %08X", get(TTDUT_LOC_GPR, 0, 3));
  }
  /* ADDDMAREG / MULDMAREG (low 16 bits of each operand) */
  reset();
  {
    const uint32_t w[] = {0x580050C3, 0x5A0060C3};   /* gpr5 = gpr3+gpr3; gpr6 = lo(gpr3)*lo(gpr3) */
    set(TTDUT_LOC_GPR, 1, 3, 0x0001FFFF);
    load(1, w, 2);
    run(&r);
    show("ADDDMAREG/MULDMAREG", &r);
    CHECK(get(TTDUT_LOC_GPR, 1, 5) == 0x0003FFFEu, "add");
    CHECK(get(TTDUT_LOC_GPR, 1, 6) == 0xFFFE0001u, "mul %08X", get(TTDUT_LOC_GPR, 1, 6));
  }
  /* SEMINIT max 2 / SEMPOST x2 / SEMGET on semaphore 1 */
  reset();
  {
    const uint32_t w[] = {0xA3200008, 0xA4000008, 0xA4000008, 0xA5000008};
    load(2, w, 4);
    run(&r);
    show("SEMINIT/SEMPOST/SEMGET", &r);
    CHECK(r.outcome == TTDUT_OUT_DONE, "done");
    CHECK(get(TTDUT_LOC_SEM_VALUE, 0, 1) == 1 && get(TTDUT_LOC_SEM_MAX, 0, 1) == 2, "sem1 1/2");
  }
  /* SEMWAIT released by another thread; and a SEMWAIT nothing releases */
  reset();
  {
    const uint32_t t0[] = {0xA6200009, 0x45000106};  /* wait while sem1 zero; then gpr3.lo = 1 */
    const uint32_t t1[] = {0x60000000, 0x60000000, 0xA3100008, 0xA4000008};
    load(0, t0, 2);
    load(1, t1, 4);
    run(&r);
    show("SEMWAIT released by t1", &r);
    CHECK(r.outcome == TTDUT_OUT_DONE && get(TTDUT_LOC_GPR, 0, 3) == 1, "released");
  }
  reset();
  {
    const uint32_t t0[] = {0xA6200009, 0x45000106};
    load(0, t0, 2);
    run(&r);
    show("SEMWAIT forever", &r);
    CHECK(r.outcome == TTDUT_OUT_DEADLOCK && r.thread[0].blocked && r.thread[0].issued == 0, "deadlock");
  }
  /* WRCFG / RDCFG of Config word 12 (banked), then RMWCIB0; and bank 1 via ThreadConfig 0 */
  reset();
  {
    const uint32_t w[] = {0xB003000C, 0xB104000C};
    set(TTDUT_LOC_GPR, 0, 3, 0xFFFFFFFF);
    load(0, w, 2);
    run(&r);
    show("WRCFG/RDCFG word 12", &r);
    uint32_t c12 = get(TTDUT_LOC_CFG, 0, 12);
    printf("  cfg[0][12] after WRCFG of 0xFFFFFFFF = 0x%08X\n", c12);
    CHECK(r.outcome == TTDUT_OUT_DONE && get(TTDUT_LOC_GPR, 0, 4) == c12, "RDCFG reads what WRCFG left");
    CHECK(c12 == 0xFFFFFFFFu && get(TTDUT_LOC_CFG, 1, 12) == 0, "word 12 written, bank 1 untouched");
  }
  reset();
  {
    const uint32_t w[] = {0xB2000001, 0xB003000C};   /* SETC16 tcfg[0] = 1 (bank 1); WRCFG 12 */
    set(TTDUT_LOC_GPR, 0, 3, 0x5);
    load(0, w, 2);
    run(&r);
    show("SETC16 bank 1, WRCFG", &r);
    CHECK(get(TTDUT_LOC_TCFG, 0, 0) == 1 && get(TTDUT_LOC_CFG, 1, 12) == 5 && get(TTDUT_LOC_CFG, 0, 12) == 0,
          "bank select");
  }
  reset();
  {
    const uint32_t w[] = {0xB3FF5A0C};   /* RMWCIB0 byte 0 of word 12 := 0x5A */
    CHECK(set(TTDUT_LOC_CFG, 0, 12, 0x100) == TTDUT_OK, "set cfg 12: %s", why);
    load(0, w, 1);
    run(&r);
    show("RMWCIB0 word 12", &r);
    uint32_t v = get(TTDUT_LOC_CFG, 0, 12);
    printf("  cfg[0][12] = 0x%08X\n", v);
    CHECK((v & 0xFF00u) == 0x100u, "byte 1 kept");
  }
  /* Config word 220 keeps 4 bits in ttsim: a WRCFG of 0xFF loses 0xF0, and what is read back
   * from it is not comparable; a later exact write makes it comparable again */
  reset();
  {
    const uint32_t w[] = {0xB00300DC, 0xB10400DC};
    set(TTDUT_LOC_GPR, 0, 3, 0xFF);
    load(0, w, 2);
    run(&r);
    show("WRCFG 0xFF to word 220, RDCFG", &r);
    ttdut_loc l = L(TTDUT_LOC_CFG, 1, 220);
    uint32_t v;
    CHECK(ops->get(d, &l, &v, why, sizeof why) == TTDUT_UNSUPPORTED, "cfg 220 tainted");
    printf("  get cfg[1][220]: %s\n", why);
    l = L(TTDUT_LOC_GPR, 0, 4);
    CHECK(ops->get(d, &l, &v, why, sizeof why) == TTDUT_UNSUPPORTED, "gpr 4 tainted");
    l = L(TTDUT_LOC_HOST_U32, 1, 0xFFE00010);
    CHECK(ops->get(d, &l, &v, why, sizeof why) == TTDUT_UNSUPPORTED, "gpr 4 tainted through the host window");
    const uint32_t w2[] = {0xB00300DC, 0xB10400DC};
    set(TTDUT_LOC_GPR, 0, 3, 0x5);
    load(0, w2, 2);
    run(&r);
    CHECK(get(TTDUT_LOC_CFG, 0, 220) == 5 && get(TTDUT_LOC_GPR, 0, 4) == 5, "exact write clears");
  }
  /* STALLWAIT: C0 (ThCon) passes at once; C7 (SrcA valid) never clears in ttsim */
  reset();
  {
    const uint32_t w[] = {0xA2200001, 0xA2200080, 0x60000000};
    load(0, w, 3);
    run(&r);
    show("STALLWAIT C0 then C7", &r);
    CHECK(r.outcome == TTDUT_OUT_DEADLOCK && r.thread[0].issued == 1 && r.thread[0].blocked, "C7 holds");
  }
  /* ATGETM / ATRELM on mutex 0; a second thread waits for it */
  reset();
  {
    const uint32_t t0[] = {0xA0000000, 0x60000000, 0x60000000, 0xA1000000};
    const uint32_t t1[] = {0xA0000000, 0xA1000000};
    load(0, t0, 4);
    load(1, t1, 2);
    run(&r);
    show("ATGETM/ATRELM mutex 0", &r);
    CHECK(r.outcome == TTDUT_OUT_DONE && get(TTDUT_LOC_MUTEX, 0, 0) == 0, "mutex free at end");
  }
  reset();
  {
    const uint32_t t0[] = {0xA0000000};
    load(0, t0, 1);
    run(&r);
    CHECK(get(TTDUT_LOC_MUTEX, 0, 0) == 1, "mutex 0 held by t0 (value 1+t)");
  }
  /* A fault: SEMGET of a zero semaphore (ttsim: NonContractualBehavior); t1 carries on */
  reset();
  {
    const uint32_t t0[] = {0x45000206, 0xA5000008, 0x45000306};
    const uint32_t t1[] = {0x45000706, 0x45000806};
    load(0, t0, 3);
    load(1, t1, 2);
    int rr = run(&r);
    show("SEMGET of zero (fault)", &r);
    printf("  t0 fault_why: %s\n", r.thread[0].fault_why);
    CHECK(rr == TTDUT_OK, "run");
    CHECK(r.thread[0].fault == TTDUT_FAULT_SOME && r.thread[0].fault_index == 1 && r.thread[0].issued == 1 &&
          r.thread[0].blocked && !r.thread[0].done, "t0 halted at 1");
    CHECK(r.thread[1].done && get(TTDUT_LOC_GPR, 1, 3) == 8, "t1 ran on");
    CHECK(get(TTDUT_LOC_GPR, 0, 3) == 2, "t0 stopped before its third word");
    CHECK(r.outcome == TTDUT_OUT_DEADLOCK, "outcome");
  }
  /* Refusals */
  {
    static const struct { uint32_t w; int expect; } ws[] = {
      {0x45123406, TTDUT_OK},           /* SETDMAREG */
      {0xA4000018, TTDUT_UNSUPPORTED},  /* SEMPOST of two semaphores */
      {0xA7000000, TTDUT_UNSUPPORTED},  /* STREAMWAIT */
      {0x71000000, TTDUT_UNSUPPORTED},  /* SFPLOADI: outside the units */
      {0x48000000, TTDUT_UNSUPPORTED},  /* REG2FLOP */
      {0xA0000002, TTDUT_UNSUPPORTED},  /* ATGETM mutex 2 */
      {0xA0000001, TTDUT_OK},           /* ATGETM mutex 1: accepted, ttsim reports UB */
      {0x02000001, TTDUT_UNSUPPORTED},  /* NOP with payload */
      {0xB0030004, TTDUT_UNSUPPORTED},  /* WRCFG word 4 (STATE_RESET_EN) */
      {0xB1040014, TTDUT_UNSUPPORTED},  /* RDCFG word 20 (stored, but ttsim's reader lacks it) */
      {0xB3FF0014, TTDUT_UNSUPPORTED},  /* RMWCIB0 word 20 */
      {0xA2000001, TTDUT_UNSUPPORTED},  /* STALLWAIT block mask 0 */
      {0xA2200020, TTDUT_UNSUPPORTED},  /* STALLWAIT C5 */
      {0x01000000, TTDUT_UNSUPPORTED},  /* MOP */
      {0xFF000000, TTDUT_OK},           /* undefined opcode: accepted, ttsim reports UB */
    };
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
      int a = ops->accepts(d, ws[i].w, why, sizeof why);
      CHECK(a == ws[i].expect, "accepts 0x%08X = %d (%s)", ws[i].w, a, why);
      if (a != TTDUT_OK) printf("  refuses 0x%08X: %s\n", ws[i].w, why);
    }
  }
  /* Locations it refuses */
  reset();
  CHECK(set(TTDUT_LOC_CFG, 0, 4, 1) == TTDUT_UNSUPPORTED, "cfg word 4 has no storage");
  printf("  set cfg[0][4]: %s\n", why);
  CHECK(set(TTDUT_LOC_CFG, 0, 0, 0x8000) == TTDUT_UNSUPPORTED, "cfg 0 keeps only its fields (0x7FFF)");
  printf("  set cfg[0][0]=0x8000: %s\n", why);
  CHECK(set(TTDUT_LOC_CFG, 0, 0, 0x200) == TTDUT_UNSUPPORTED, "ttsim refuses SrcB_override");
  printf("  set cfg[0][0]=0x200: %s\n", why);
  CHECK(get(TTDUT_LOC_CFG, 0, 0) == 0, "refused set left word 0 as it was");
  CHECK(set(TTDUT_LOC_CFG, 0, 0, 0x1F) == TTDUT_OK, "cfg 0 = 0x1F: %s", why);
  {
    ttdut_loc l = L(TTDUT_LOC_CTX_RESETS, 0, 0);
    uint32_t v;
    CHECK(ops->get(d, &l, &v, why, sizeof why) == TTDUT_UNSUPPORTED, "ctx resets");
  }
  /* Global Config word: one storage, both banks */
  CHECK(set(TTDUT_LOC_CFG, 0, 220, 1) == TTDUT_OK, "cfg 220: %s", why);
  CHECK(get(TTDUT_LOC_CFG, 1, 220) == 1, "global word seen in bank 1");
  /* Host port: GPR window, semaphore window, Config window */
  reset();
  CHECK(set(TTDUT_LOC_HOST_U32, 1, 0xFFE0000C, 0x11223344) == TTDUT_OK, "host gpr: %s", why);
  CHECK(get(TTDUT_LOC_GPR, 0, 3) == 0x11223344, "t0 sees its GPR 3 at +0xC");
  CHECK(get(TTDUT_LOC_HOST_U32, 2, 0xFFE0000C) == 0, "t1's window is its own");
  CHECK(set(TTDUT_LOC_HOST_U32, 1, 0xFFE80024, 0) == TTDUT_OK, "host sem post: %s", why);
  CHECK(get(TTDUT_LOC_SEM_VALUE, 0, 1) == 1 && get(TTDUT_LOC_HOST_U32, 3, 0xFFE80024) == 1, "sem1 = 1");
  CHECK(set(TTDUT_LOC_HOST_U32, 0, 0xFFE0000C, 1) == TTDUT_UNSUPPORTED, "B's GPR window is not in ttsim");
  printf("  host.b GPR store: %s\n", why);
  CHECK(set(TTDUT_LOC_HOST_U32, 1, 0xFFEF0000 + 4 * 12, 0x7) == TTDUT_OK, "host cfg: %s", why);
  CHECK(get(TTDUT_LOC_CFG, 0, 12) == 0x7, "host config store reaches bank 0");
  CHECK(set(TTDUT_LOC_HOST_U32, 1, 0xFFE40000, 0x02000000) == TTDUT_UNSUPPORTED, "instruction port not mapped");
  /* STOREREG to overlay stream 0 REMOTE_DEST_BUF_SIZE: ttsim also sets SPACE_AVAILABLE; a
   * value wider than the 17 bits it keeps makes both not comparable */
  reset();
  {
    const uint32_t w[] = {0x670D000A};
    set(TTDUT_LOC_GPR, 0, 3, 0x123);
    load(0, w, 1);
    run(&r);
    show("STOREREG overlay 0 buf size", &r);
    CHECK(get(TTDUT_LOC_MMIO, 0, 0xFFB40028) == 0x123 && get(TTDUT_LOC_MMIO, 0, 0xFFB404A4) == 0x123, "size and space");
    reset();
    set(TTDUT_LOC_GPR, 0, 3, 0xFFFFF);
    load(0, w, 1);
    run(&r);
    ttdut_loc l = L(TTDUT_LOC_MMIO, 0, 0xFFB404A4);
    uint32_t v;
    CHECK(ops->get(d, &l, &v, why, sizeof why) == TTDUT_UNSUPPORTED, "truncated overlay register");
    CHECK(ops->accepts(d, 0x670D0000, why, sizeof why) == TTDUT_UNSUPPORTED, "STOREREG to overlay offset 0");
    CHECK(ops->accepts(d, 0x670C0000, why, sizeof why) == TTDUT_UNSUPPORTED, "STOREREG to 0xFFB00000");
  }
  /* Event counters: WRCFG PRNG_SEED (186) and RISCV_IC_INVALIDATE (185) */
  reset();
  {
    const uint32_t w[] = {0xB00300BA, 0xB00300B9};
    set(TTDUT_LOC_GPR, 0, 3, 0x1F);
    load(0, w, 2);
    run(&r);
    show("WRCFG 186, 185", &r);
    CHECK(get(TTDUT_LOC_PRNG_RESEEDS, 0, 0) == 1, "one reseed");
    for (uint32_t k = 0; k < 5; k++) CHECK(get(TTDUT_LOC_IC_INVALIDATES, 0, k) == 1, "ic %u", k);
  }
  /* changed(): every storage location the run moved */
  reset();
  {
    const uint32_t w[] = {0x45123406, 0xA3200008, 0xB003000C};
    set(TTDUT_LOC_L1_U32, 0, 0x100, 0xCAFEF00D);
    load(0, w, 3);
    ops->snapshot(d);
    run(&r);
    ttdut_loc loc[16];
    uint32_t a[16], b[16];
    uint32_t n = ops->changed(d, loc, a, b, 16);
    printf("  changed: %u location(s):", n);
    for (uint32_t i = 0; i < n && i < 16; i++)
      printf(" %u/%u/%u 0x%X->0x%X", loc[i].kind, loc[i].sel, loc[i].index, a[i], b[i]);
    printf("\n");
    CHECK(n == 3, "gpr3, sem[1].max, cfg[0][12]: got %u", n);
    CHECK(get(TTDUT_LOC_L1_U32, 0, 0x100) == 0xCAFEF00D, "L1 kept");
  }
  reset();
  CHECK(get(TTDUT_LOC_L1_U32, 0, 0x100) == 0, "reset clears L1");
  /* Cycle mode and knobs are refused */
  CHECK(ops->reset(d, TTDUT_MODE_CYCLE, NULL, 0, why, sizeof why) == TTDUT_UNSUPPORTED, "cycle");
  {
    ttdut_knob k = {"gpr0", "zero"};
    CHECK(ops->reset(d, TTDUT_MODE_FUNC, &k, 1, why, sizeof why) == TTDUT_UNSUPPORTED, "knob gpr0=zero");
    ttdut_knob k2 = {"gpr0", "ordinary"};
    CHECK(ops->reset(d, TTDUT_MODE_FUNC, &k2, 1, why, sizeof why) == TTDUT_OK, "knob gpr0=ordinary: %s", why);
    ttdut_knob k3 = {"profile", "isa"};
    CHECK(ops->reset(d, TTDUT_MODE_FUNC, &k3, 1, why, sizeof why) == TTDUT_UNSUPPORTED, "profile");
  }
  /* Random accepted words on three threads: no crash, no exit, same result twice */
  {
    unsigned runs = 0, faults = 0, refused = 0, not_modelled = 0;
    for (unsigned it = 0; it < 20000; it++) {
      uint32_t prog[3][12], len[3];
      uint64_t seed = rng;
      ttdut_result r1, r2;
      uint32_t g1[3], g2[3];
      for (int pass = 0; pass < 2; pass++) {
        rng = seed;
        reset();
        for (int t = 0; t < 3; t++) {
          len[t] = rnd() % 12;
          for (uint32_t k = 0; k < len[t]; k++) {
            uint32_t w;
            static const uint8_t ops_in[] = {0x02, 0x45, 0x58, 0x5A, 0x60, 0x67, 0xA0, 0xA1, 0xA2, 0xA3,
                                             0xA4, 0xA5, 0xA6, 0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB8};
            for (;;) {
              w = rnd();
              if (rnd() % 4) w = (w & 0xFFFFFFu) | ((uint32_t)ops_in[rnd() % sizeof ops_in] << 24);
              if (rnd() % 2) w &= 0xFF3FF3FFu;
              if (ops->accepts(d, w, why, sizeof why) == TTDUT_OK) break;
              if (pass == 0) refused++;
            }
            prog[t][k] = w;
          }
          for (int k = 0; k < 4; k++) set(TTDUT_LOC_GPR, (uint32_t)t, rnd() % 64, rnd());
          load((uint32_t)t, prog[t], len[t]);
        }
        set(TTDUT_LOC_SEM_MAX, 0, rnd() % 8, rnd() % 16);
        int rr = ops->run(d, 200, pass ? &r2 : &r1);
        CHECK(rr == TTDUT_OK, "run answers OK");
        if (pass == 0)
          for (int t = 0; t < 3; t++)
            if (strstr(r1.thread[t].fault_why, "Functionality") || strstr(r1.thread[t].fault_why, "MissingSpecification")) not_modelled++;
        for (int t = 0; t < 3; t++) (pass ? g2 : g1)[t] = get(TTDUT_LOC_GPR, (uint32_t)t, 3);
      }
      runs++;
      for (int t = 0; t < 3; t++) faults += r1.thread[t].fault != 0;
      CHECK(memcmp(&r1, &r2, sizeof r1) == 0 && memcmp(g1, g2, sizeof g1) == 0, "repeatable (iteration %u)", it);
    }
    printf("  random: %u runs (each twice), %u thread faults, %u threads stopped at something ttsim does not model, %u words refused\n",
           runs, faults, not_modelled, refused);
  }
  /* Random set/get of every kind (in and out of range): answers, never a crash; a set that
   * was accepted reads back (storage kinds) */
  {
    unsigned ok = 0, refused = 0;
    reset();
    for (unsigned it = 0; it < 200000; it++) {
      uint32_t kind = rnd() % (TTDUT_LOC_KIND_COUNT + 1), sel = rnd() % 5, index, v = rnd();
      switch (rnd() % 4) {
        case 0: index = rnd() % 256; break;
        case 1: index = 0xFFB00000u + (rnd() % 0x100000u); break;
        case 2: index = 0xFFE00000u + (rnd() % 0x100000u); break;
        default: index = rnd(); break;
      }
      if (rnd() % 2) v &= 0xF;
      ttdut_loc l = L(kind, sel, index);
      int s = ops->set(d, &l, v, why, sizeof why);
      uint32_t back = 0;
      int g = ops->get(d, &l, &back, why, sizeof why);
      if (s == TTDUT_OK) {
        ok++;
        if (kind <= TTDUT_LOC_MMIO && kind != TTDUT_LOC_CFG)
          CHECK(g == TTDUT_OK && back == v, "kind %u sel %u index 0x%X: set 0x%X read 0x%X", kind, sel, index, v, back);
      } else {
        refused++;
      }
      if (it % 5000 == 0) reset();
    }
    printf("  random set/get: %u sets accepted, %u refused\n", ok, refused);
  }
  ops->close(d);
  printf("%d checks, %d failed\n", checks, fails);
  return fails ? 1 : 0;
}
