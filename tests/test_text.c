/* test_text.c — corners of the text layer that the vectors cannot reach (found by mutation
 * testing, reports/mutation.md): the assembler's number prefixes, name table, message clipping
 * and slice bounds; UTF-8 leads in the vector parser; the checker's failure texts (hazard
 * lists, strict findings, byte coverage); location parsing messages, host locations through
 * tt_loc_get/tt_loc_set; tt_state_diff over every part of the state. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "vec.h"
#include "asm.h"

static tt_state A, B;
static tt_vec v;
static tt_vec_error e;
static tt_vec_result res;
static tt_state st, st_init;

static int asm1(const char *s, size_t n, uint32_t *w, tt_asm_error *er) {
  memset(er, 0, sizeof *er);
  return tt_asm_insn(s, n, w, er);
}

static void test_asm(void) {
  uint32_t w = 0;
  tt_asm_error er;
  /* "0b" and "0x" alone are not numbers (a prefix needs digits) */
  CHECK(asm1("SEMPOST sem_mask=0b", 19, &w, &er) != 0, "0b accepted as 0x%08X", (unsigned)w);
  CHECK(asm1("SEMPOST sem_mask=0x", 19, &w, &er) != 0, "0x accepted as 0x%08X", (unsigned)w);
  CHECK(asm1("SEMPOST sem_mask=0b11", 21, &w, &er) == 0 && w == 0xA400000Cu, "0b11: 0x%08X %s",
        (unsigned)w, er.msg);
  /* STALLWAIT condition names: THCON C0 = 0x1, UNPACK0 C1 = 0x2, UNPACK1 C2 = 0x4 */
  static const char c1[] = "STALLWAIT block_mask=0x40 condition_mask=UNPACK0";
  CHECK(asm1(c1, strlen(c1), &w, &er) == 0 && w == (0xA2000000u | 0x40u << 15 | 0x2u),
        "UNPACK0: 0x%08X %s", (unsigned)w, er.msg);
  static const char c2[] = "STALLWAIT block_mask=0x40 condition_mask=THCON|UNPACK1";
  CHECK(asm1(c2, strlen(c2), &w, &er) == 0 && w == (0xA2000000u | 0x40u << 15 | 0x5u),
        "THCON|UNPACK1: 0x%08X %s", (unsigned)w, er.msg);
  /* an unknown name is quoted whole up to 40 characters, clipped with "..." beyond */
  static const char n40[] = "ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJ";
  CHECK(asm1(n40, 40, &w, &er) != 0 && strstr(er.msg, n40) && !strstr(er.msg, "..."),
        "40 chars: %s", er.msg);
  static const char n41[] = "ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJK";
  CHECK(asm1(n41, 41, &w, &er) != 0 && strstr(er.msg, "...") && !strstr(er.msg, "JK"),
        "41 chars: %s", er.msg);
  /* the text is [0, len): what follows in the buffer is never read */
  static const char s1[] = "SEMPOST sem_mask=1|2";
  CHECK(asm1(s1, 18, &w, &er) == 0 && w == 0xA4000004u, "slice before '|': 0x%08X %s",
        (unsigned)w, er.msg);
  static const char s2[] = "SEMPOST sem_mask=t6_sem(1)x";
  CHECK(asm1(s2, 26, &w, &er) == 0 && w == 0xA4000008u, "slice t6_sem: 0x%08X %s",
        (unsigned)w, er.msg);
  static const char s3[] = "SEMPOSTx";
  CHECK(asm1(s3, 7, &w, &er) == 0 && w == 0xA4000000u, "slice mnemonic: 0x%08X %s",
        (unsigned)w, er.msg);
  static const char s4[] = "ttsempost 1x";
  CHECK(asm1(s4, 11, &w, &er) == 0, "slice positional: %s", er.msg);
  static const char s6[] = "SEMPOST sem_mask=1 |2";   /* trailing blank inside the slice */
  CHECK(asm1(s6, 19, &w, &er) == 0 && w == 0xA4000004u, "slice blank before '|': 0x%08X %s",
        (unsigned)w, er.msg);
  static const char s7[] = "SEMPOST sem_mask=t6_sem(MATH_PACK)";
  CHECK(asm1(s7, 24, &w, &er) != 0 && strstr(er.msg, "semaphore name or index"),
        "slice ends after t6_sem(: 0x%08X %s", (unsigned)w, er.msg);
  static const char s8[] = "SETDMAREGx";   /* several forms, positional: needs its operands */
  CHECK(asm1(s8, 9, &w, &er) != 0 && strstr(er.msg, "expected 4 operands, got 0"),
        "slice SETDMAREG: %s", er.msg);
  static const char s5[] = "DMANOPx";
  CHECK(asm1(s5, 6, &w, &er) == 0 && w == 0x60000000u, "slice bare: 0x%08X %s", (unsigned)w,
        er.msg);
}

static int parse(const char *s) { return tt_vec_parse(s, strlen(s), &v, &e); }

static const tt_vec_check *find_check(const char *sub) {
  for (unsigned i = 0; i < res.nchecks; i++)
    if (strstr(res.checks[i].text, sub)) return &res.checks[i];
  return NULL;
}

static void test_vec(void) {
  /* UTF-8: 0xDF 0xBF (U+07FF) is a two-byte sequence, 0xE0 0xA0 0x80 (U+0800) a three-byte one */
  CHECK(parse("name: t \xDF\xBF x\n# \xDF\xBF\nexpect t0 done\n") == 0, "U+07FF: %u %s", e.line, e.msg);
  CHECK(parse("name: t \xE0\xA0\x80\nexpect t0 done\n") == 0, "U+0800: %u %s", e.line, e.msg);
  CHECK(parse("name: t\n# \xDF\xBF\xBF\nexpect t0 done\n") != 0 && e.line == 2,
        "stray continuation byte: %u %s", e.line, e.msg);
  /* location messages: t9 is not a thread */
  CHECK(parse("name: t\nexpect t9.gpr[0] = 0\n") != 0 && strstr(e.msg, "t0, t1 or t2"), "t9: %s", e.msg);
  CHECK(parse("name: t\nexpect t3.gpr[0] = 0\n") != 0 && strstr(e.msg, "t0, t1 or t2"), "t3: %s", e.msg);
  tt_init(&st);
  /* the hazard list of a failed `expect hazards`: the first one reported is named.
   * RDCFG into GPR 1 (lands two cycles later) then ADDDMAREG reading GPR 1 at once. */
  CHECK(parse("name: t\nmode: cycle\nt0: 0xB1010014\nt0: 0x58802041\nexpect hazards = 0\n") == 0,
        "hazard vector: %s", e.msg);
  tt_vec_run(&st, &st_init, &v, TT_MODE_CYCLE, &res);
  const tt_vec_check *c = find_check("hazards = 0");
  CHECK(c && c->status == TT_VEC_CHECK_FAIL && strstr(c->text, ": t0.hazard[1]=gpr_pending"),
        "hazard text: %s", c ? c->text : "(none)");
  /* the failure text of `expect tN.hazard[K] = KIND` lists what was reported, first one first */
  CHECK(parse("name: t\nmode: cycle\nt0: 0xB1010014\nt0: 0x58802041\n"
              "expect t0.hazard[0] = cfg_gap\n") == 0, "hazard[K] vector: %s", e.msg);
  tt_vec_run(&st, &st_init, &v, TT_MODE_CYCLE, &res);
  c = find_check("hazard[0] = cfg_gap");
  CHECK(c && c->status == TT_VEC_CHECK_FAIL &&
        strstr(c->text, "hazards reported: t0.hazard[1]=gpr_pending"),
        "hazard[K] text: %s", c ? c->text : "(none)");
  /* a malformed budget: -1 (the contract: 0 or -1) */
  CHECK(parse("name: t\nbudget: zz\n") == -1 && e.line == 2, "budget: %u %s", e.line, e.msg);
  /* strict: an L1 byte next to the one an expect names is still a stray write. A 16-bit
   * STOREIND (Size 2) of 0xBBAA to 0x100 writes 0x100 and 0x101; only l1.u8[0x100] is named.
   * STOREIND L1: 1 << 23 | Size 2 << 21 | DataReg 2 << 6 | AddrReg 1 = 0x66C00081; GPR1 = 0x10. */
  CHECK(parse("name: t\nstrict\nmode: func\ninit t0.gpr[1] = 0x10\ninit t0.gpr[2] = 0xBBAA\n"
              "t0: 0x66C00081\nexpect l1.u8[0x100] = 0xAA\n") == 0, "strict: %s", e.msg);
  CHECK(tt_vec_run(&st, &st_init, &v, TT_MODE_FUNC, &res) == TT_VEC_FAIL && res.nstrict == 1,
        "strict byte: status %u, %u findings", res.status, res.nstrict);
  c = find_check("strict: l1.u32[0x100] changed 0x0 -> 0xBBAA");
  CHECK(c != NULL, "strict text: %s", res.nchecks ? res.checks[res.nchecks - 1].text : "(none)");
  /* the 32-bit expect covers both bytes */
  CHECK(parse("name: t\nstrict\nmode: func\ninit t0.gpr[1] = 0x10\ninit t0.gpr[2] = 0xBBAA\n"
              "t0: 0x66C00081\nexpect l1.u16[0x100] = 0xBBAA\n") == 0, "strict16: %s", e.msg);
  CHECK(tt_vec_run(&st, &st_init, &v, TT_MODE_FUNC, &res) == TT_VEC_PASS, "strict16 %u", res.status);
}

typedef struct seen { unsigned n; tt_loc loc[16]; } seen;
static void cb(void *ctx, const tt_loc *l, uint32_t a, uint32_t b) {
  seen *s = ctx;
  (void)a; (void)b;
  if (s->n < 16) s->loc[s->n] = *l;
  s->n++;
}

static void test_loc(void) {
  tt_loc l;
  const char *m = NULL;
  tt_init(&A);
  tt_init(&B);
  /* host locations through tt_loc_set / tt_loc_get: the port's store and load */
  CHECK(tt_loc_parse("host.t2.u8[0xFFE00011]", 22, &l, &m) == 0, "%s", m);
  tt_loc_set(&A, &l, 0xAB);
  CHECK_EQ(A.c.gpr[2][4], 0x0000AB00);
  CHECK_EQ(tt_loc_get(&A, &l), 0xAB);
  CHECK(tt_loc_parse("host.b.u16[0xFFE00106]", 22, &l, &m) == 0, "%s", m);
  tt_loc_set(&A, &l, 0x1234);
  CHECK_EQ(A.c.gpr[1][1], 0x12340000);
  CHECK_EQ(tt_loc_get(&A, &l), 0x1234);
  CHECK(tt_loc_parse("host.t1.u32[0xFFE8002C]", 23, &l, &m) == 0, "%s", m);
  tt_loc_set(&A, &l, 0);   /* semaphore 3: post */
  CHECK_EQ(A.c.sem_value[3], 1);
  CHECK_EQ(tt_loc_get(&A, &l), 1);
  CHECK_EQ(tt_loc_width(&l), 32);
  char buf[48];
  tt_loc_format(&l, buf, sizeof buf);
  CHECK(strcmp(buf, "host.t1.u32[0xFFE8002C]") == 0, "format %s", buf);
  CHECK(tt_loc_parse("host.t0.u32[0xFFE00100]", 23, &l, &m) == 0, "%s", m);
  CHECK_EQ(tt_loc_get(&A, &l), 0);   /* refused: unmapped for T0 */
  /* a decimal index has at most 11 digits (a hex one 17): a longer one is not a number, even
   * when its value would fit (leading zeros) */
  CHECK(tt_loc_parse("t0.gpr[00000000005]", 19, &l, &m) == 0, "11 digits: %s", m);
  CHECK_EQ(l.index, 5);
  CHECK(tt_loc_parse("t0.gpr[000000000005]", 20, &l, &m) != 0, "12 decimal digits accepted");
  /* the largest 32-bit index is a number (refused by the GPR range, not as a malformed index) */
  m = NULL;
  CHECK(tt_loc_parse("t0.gpr[0xFFFFFFFF]", 18, &l, &m) != 0 && m && strcmp(m, "GPR index must be 0..63") == 0,
        "0xFFFFFFFF: %s", m ? m : "accepted");
  /* tt_state_diff sees every thread, bank, semaphore, mutex and memory granule, and counts */
  tt_reset(&A);
  tt_reset(&B);
  seen s;
  memset(&s, 0, sizeof s);
  B.c.gpr[2][63] = 1;
  B.c.tcfg[2][67] = 1;
  B.c.cfg[1][223] = 1; B.c.cfg_touched = 3;
  tt_mmio_write(&B, 0xFFBFFFFCu, 5);
  tt_l1_write(&B, TT_L1_SIZE - 4, 4, 7);       /* last granule */
  tt_l1_write(&B, 9 * 64, 4, 3);               /* granule 9: bit 1 of bitmap byte 1 */
  B.c.mutex[4] = 2;
  B.c.sem_max[7] = 1;
  CHECK_EQ(tt_state_diff(&A, &B, cb, &s), 8);
  CHECK_EQ(s.n, 8);
  CHECK_EQ(tt_state_diff(&B, &A, NULL, NULL), 8);
  tt_reset(&B);
  tt_mmio_write(&B, 0xFFB40000u, 1);
  tt_mmio_write(&B, 0xFFB40004u, 2);
  CHECK_EQ(tt_state_diff(&A, &B, NULL, NULL), 2);
  /* event counters: parsed, formatted back, read, never set, and seen by tt_state_diff */
  static const char *const ev[] = {"prng_reseeds", "ic_invalidates[b]", "ic_invalidates[nc]",
                                   "t2.ctx_resets[1]", "t0.ctx_resets[0]"};
  for (unsigned i = 0; i < sizeof ev / sizeof ev[0]; i++) {
    CHECK(tt_loc_parse(ev[i], strlen(ev[i]), &l, &m) == 0, "%s: %s", ev[i], m);
    tt_loc_format(&l, buf, sizeof buf);
    CHECK(strcmp(buf, ev[i]) == 0, "format %s as %s", ev[i], buf);
    CHECK_EQ(tt_loc_width(&l), 32);
  }
  CHECK(tt_loc_parse("ic_invalidates[t3]", 18, &l, &m) != 0, "core t3 accepted");
  CHECK(tt_loc_parse("t0.ctx_resets[2]", 16, &l, &m) != 0, "unpacker 2 accepted");
  tt_reset(&B);
  B.c.prng_reseeds = 3;
  B.c.icache_invalidates[4] = 1;
  B.c.ctx_cnt_resets[2][1] = 2;
  CHECK(tt_loc_parse("t2.ctx_resets[1]", 16, &l, &m) == 0, "%s", m);
  CHECK_EQ(tt_loc_get(&B, &l), 2);
  tt_loc_set(&B, &l, 9);
  CHECK_EQ(tt_loc_get(&B, &l), 2);
  memset(&s, 0, sizeof s);
  CHECK_EQ(tt_state_diff(&A, &B, cb, &s), 3);
  CHECK_EQ(s.loc[0].kind, TT_LOC_PRNG_RESEEDS);
  CHECK_EQ(s.loc[1].kind, TT_LOC_IC_INVALIDATES);
  CHECK_EQ(s.loc[1].index, 4);
  CHECK_EQ(s.loc[2].kind, TT_LOC_CTX_RESETS);
}

int main(void) {
  test_asm();
  test_vec();
  test_loc();
  return CHECK_DONE();
}
