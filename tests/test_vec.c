/* test_vec.c — unit tests of the .vec parser and checker (model/text/vec.c): every directive,
 * every error path with its line number, the checker in func mode (strict, knobs, outcomes),
 * and a fixed-seed fuzz loop of 200k random / mutated inputs (the ASan build catches any
 * out-of-bounds access; each input is parsed from an exactly-sized heap buffer). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "vec.h"

static tt_vec v;
static tt_vec_error e;
static tt_state st, st_init;
static tt_vec_result res;

static int parse(const char *s) { return tt_vec_parse(s, strlen(s), &v, &e); }

/* The text must be rejected at `line` with a message containing `sub`. */
#define BAD(text, ln, sub)                                                                  \
  do {                                                                                      \
    int r_ = parse(text);                                                                   \
    CHECK(r_ == -1 && e.line == (ln) && strstr(e.msg, sub) != NULL,                         \
          "rc %d line %u msg \"%s\"; wanted line %u containing \"%s\"", r_, e.line, e.msg,  \
          (unsigned)(ln), sub);                                                             \
  } while (0)
#define GOOD(text)                                                                          \
  do {                                                                                      \
    int r_ = parse(text);                                                                   \
    CHECK(r_ == 0, "rc %d line %u msg \"%s\"", r_, e.line, e.msg);                           \
  } while (0)

#define HDR "name: t\n"   /* line 1 */

static void test_directives(void) {
  static const char full[] =
      "\xEF\xBB\xBF# a vector using every directive\r\n"              /* 1 BOM, CRLF */
      "name: every directive  # comment after text\n"                /* 2 */
      "ref: BlackholeA0/TensixTile/TensixCoprocessor/SEMPOST.md\n"   /* 3 */
      "ref:   WormholeB0/TensixTile/TensixCoprocessor/MULDMAREG.md   \n" /* 4 */
      "mode: cycle\n"                                                /* 5 */
      "knob: rstdma=nop\n"                                           /* 6 */
      "knob : l1_size = 1464k\n"                                     /* 7 */
      "\t strict \t\n"                                               /* 8 */
      "budget: 0x100\n"                                              /* 9 */
      "\n"                                                           /* 10 */
      "init t2.gpr[63] = 0xFFFFFFFF\n"                               /* 11 */
      "init cfg[1][223] = 4294967295\n"                              /* 12 */
      "init tcfg[2][67] = 0xffff\n"                                  /* 13 */
      "init sem[7].value = 15\n"                                     /* 14 */
      "init sem[0].max = 0xF\n"                                      /* 15 */
      "init mutex[4] = t2\n"                                         /* 16 */
      "init mutex[0] = none\n"                                       /* 17 */
      "init l1.u8[0x17FFFF] = 0xFF\n"                                /* 18 */
      "init l1.u16[0x17FFFE] = 0xFFFF\n"                             /* 19 */
      "init l1.u32[0x40] = 0X2a\n"                                   /* 20 */
      "init mmio[0xFFB11000] = 1\n"                                  /* 21 */
      "init mmio[0xFFBFFFFC] = 2\n"                                  /* 22 */
      "t0: 0x5A003081            # raw word\n"                       /* 23 */
      "t1: SEMPOST 8\n"                                              /* 24 */
      "t0: 0x00000000\n"                                             /* 25 raw, any opcode */
      "t2:0xffffffff\n"                                              /* 26 */
      "t1: ttsempost 8   # objdump syntax\n"                         /* 27 */
      "expect t0.gpr[3] = 0x0002FFFD\n"                              /* 28 */
      "expect t0 done\n"                                             /* 29 */
      "expect t1 blocked\n"                                          /* 30 */
      "expect deadlock\n"                                            /* 31 */
      "expect t2 fault none\n"                                       /* 32 */
      "expect t1 fault unimplemented\n"                              /* 33 */
      "expect t0.issue[1] = 7\n"                                     /* 34 */
      "expect cycles = 10\n"                                         /* 35 */
      "expect cycles<=11\n"                                          /* 36 */
      "expect cycles >= 0x9\n"                                       /* 37 */
      "expect mutex[2] = t1\n"                                       /* 38 */
      "expect sem[3].value = 3\n"                                    /* 39 */
      "   # trailing comment";                                       /* 40, no newline */
  int r = tt_vec_parse(full, sizeof full - 1, &v, &e);
  CHECK(r == 0, "full vector: line %u %s", e.line, e.msg);
  if (r != 0) return;
  CHECK(strcmp(v.name, "every directive") == 0, "name '%s'", v.name);
  CHECK_EQ(v.name_line, 2);
  CHECK_EQ(v.nrefs, 2);
  CHECK(strcmp(v.refs[1], "WormholeB0/TensixTile/TensixCoprocessor/MULDMAREG.md") == 0, "ref");
  CHECK_EQ(v.modes, TT_VEC_MODE_CYCLE);
  CHECK_EQ(v.nknobs, 2);
  CHECK(strcmp(v.knobs[1].name, "l1_size") == 0 && strcmp(v.knobs[1].value, "1464k") == 0,
        "knob 2 '%s'='%s'", v.knobs[1].name, v.knobs[1].value);
  CHECK_EQ(v.knobs[1].line, 7);
  CHECK_EQ(v.strict, 1);
  CHECK_EQ(v.has_budget, 1);
  CHECK_EQ(v.budget, 0x100);
  CHECK_EQ(v.ninits, 12);
  CHECK_EQ(v.inits[0].loc.kind, TT_LOC_GPR);
  CHECK_EQ(v.inits[0].loc.sel, 2);
  CHECK_EQ(v.inits[0].loc.index, 63);
  CHECK_EQ(v.inits[0].value, 0xFFFFFFFFu);
  CHECK_EQ(v.inits[0].line, 11);
  CHECK_EQ(v.inits[5].loc.kind, TT_LOC_MUTEX);
  CHECK_EQ(v.inits[5].value, 3);     /* t2 */
  CHECK_EQ(v.inits[6].value, 0);     /* none */
  CHECK_EQ(v.inits[9].loc.kind, TT_LOC_L1_U32);
  CHECK_EQ(v.inits[9].value, 0x2A);
  CHECK_EQ(v.inits[11].loc.index, 0xFFBFFFFCu);
  CHECK_EQ(v.prog_len[0], 2);
  CHECK_EQ(v.prog_len[1], 2);
  CHECK_EQ(v.prog_len[2], 1);
  CHECK_EQ(v.prog[0][0], 0x5A003081u);
  CHECK_EQ(v.prog[0][1], 0x00000000u);
  CHECK_EQ(v.prog[1][0], 0xA4000020u);
  CHECK_EQ(v.prog[1][1], 0xA4000020u);
  CHECK_EQ(v.prog[2][0], 0xFFFFFFFFu);
  CHECK_EQ(v.prog_line[0][1], 25);
  CHECK_EQ(v.prog_line[1][1], 27);
  CHECK_EQ(v.nexpects, 12);
  CHECK_EQ(v.expects[0].kind, TT_VEC_EX_LOC);
  CHECK_EQ(v.expects[0].value, 0x0002FFFDu);
  CHECK_EQ(v.expects[0].line, 28);
  CHECK_EQ(v.expects[1].kind, TT_VEC_EX_DONE);
  CHECK_EQ(v.expects[2].kind, TT_VEC_EX_BLOCKED);
  CHECK_EQ(v.expects[2].thread, 1);
  CHECK_EQ(v.expects[3].kind, TT_VEC_EX_DEADLOCK);
  CHECK_EQ(v.expects[4].kind, TT_VEC_EX_FAULT);
  CHECK_EQ(v.expects[4].value, TT_FAULT_NONE);
  CHECK_EQ(v.expects[5].value, TT_FAULT_UNIMPLEMENTED);
  CHECK_EQ(v.expects[6].kind, TT_VEC_EX_ISSUE);
  CHECK_EQ(v.expects[6].thread, 0);
  CHECK_EQ(v.expects[6].index, 1);
  CHECK_EQ(v.expects[6].value, 7);
  CHECK_EQ(v.expects[7].kind, TT_VEC_EX_CYCLES);
  CHECK_EQ(v.expects[7].cmp, TT_VEC_CMP_EQ);
  CHECK_EQ(v.expects[8].cmp, TT_VEC_CMP_LE);
  CHECK_EQ(v.expects[8].value, 11);
  CHECK_EQ(v.expects[9].cmp, TT_VEC_CMP_GE);
  CHECK_EQ(v.expects[9].value, 9);
  CHECK_EQ(v.expects[10].loc.kind, TT_LOC_MUTEX);
  CHECK_EQ(v.expects[10].value, 2);  /* t1 */
  CHECK_EQ(v.has_cycle_expects, 1);

  /* defaults */
  GOOD("name: x\n");
  CHECK_EQ(v.modes, TT_VEC_MODE_BOTH);
  CHECK_EQ(v.budget, TT_VEC_DEFAULT_BUDGET);
  CHECK_EQ(v.has_budget, 0);
  CHECK_EQ(v.strict, 0);
  CHECK_EQ(v.nrefs + v.nknobs + v.ninits + v.nexpects + v.prog_len[0], 0);
  GOOD("name: x\nmode: func\n");
  CHECK_EQ(v.modes, TT_VEC_MODE_FUNC);
  GOOD("name: x\nmode: both\n");
  CHECK_EQ(v.modes, TT_VEC_MODE_BOTH);
  GOOD("name: x # not part of the name\n");
  CHECK(strcmp(v.name, "x") == 0, "name '%s'", v.name);
  GOOD("name: caf\xC3\xA9 \xE2\x80\x94 UTF-8 \xF0\x9F\x98\x80\n");
  GOOD("name: x\nbudget: 0\n");
  GOOD("name: x\nbudget: 18446744073709551615\n");
  CHECK_EQ(v.budget, UINT64_MAX);
  GOOD("name: x\nt0: 0x5A003081\nexpect t0.issue[0] = 3\n");   /* issue accepted (both) */
  GOOD("name: x\nmode: cycle\nt1: 0x02000000\nt1: 0x02000000\nexpect t1.issue[1] = 0\n");
  GOOD("name: x\nexpect t0 fault undefined\nexpect t1 fault unpredictable\n"
       "expect t2 fault noncontractual\nexpect t0 fault unsupported\n");
  GOOD("name: x\ninit l1.u32[0] = 0\ninit l1.u16[2] = 0\ninit l1.u8[1] = 0\n");
  GOOD("name: x\nexpect mmio[0xFFB40074] = 0x0\nexpect mutex[3] = t0\n");
  GOOD("name: x\nt0: 0XA4000004\n");
  GOOD("name: x\r\nstrict\r\n");
  GOOD("name: x\nstrict\nstrict\n");
  GOOD("name: x");                       /* no final newline */
  GOOD("\n\n# only comments\nname: x\n\n");
}

static void test_errors(void) {
  /* numbers */
  BAD(HDR "init t0.gpr[1] = 0x\n", 2, "malformed number");
  BAD(HDR "init t0.gpr[1] = 12abc\n", 2, "malformed number");
  BAD(HDR "init t0.gpr[1] = -1\n", 2, "malformed number");
  BAD(HDR "init t0.gpr[1] = 0x1G\n", 2, "malformed number");
  BAD(HDR "init t0.gpr[1] = \n", 2, "missing value");
  BAD(HDR "init t0.gpr[1] 5\n", 2, "LOCATION = VALUE");
  BAD(HDR "init t0.gpr[1] = 5 6\n", 2, "unexpected text");
  /* widths */
  BAD(HDR "init t0.gpr[1] = 0x100000000\n", 2, "wider than t0.gpr[1] (32 bits)");
  BAD(HDR "init t0.gpr[1] = 99999999999999999999999\n", 2, "wider than");
  BAD(HDR "init tcfg[0][1] = 0x10000\n", 2, "(16 bits)");
  BAD(HDR "init sem[1].value = 16\n", 2, "(4 bits)");
  BAD(HDR "expect sem[1].max = 0x10\n", 2, "(4 bits)");
  BAD(HDR "init l1.u8[0x10] = 0x100\n", 2, "(8 bits)");
  BAD(HDR "init l1.u16[0x10] = 65536\n", 2, "(16 bits)");
  BAD(HDR "expect cfg[0][3] = 0x1FFFFFFFF\n", 2, "(32 bits)");
  BAD(HDR "t0: 0x123456789\n", 2, "wider than an instruction word");
  BAD(HDR "budget: 0x10000000000000000\n", 2, "wider than");
  BAD(HDR "expect cycles <= 18446744073709551616\n", 2, "wider than");
  /* directives */
  BAD(HDR "foo bar\n", 2, "unknown directive 'foo'");
  BAD(HDR "\n\nexpects t0 done\n", 4, "unknown directive");
  BAD(HDR "t0.gpr[1] = 5\n", 2, "missing 'init' or 'expect'");
  BAD(HDR "= 5\n", 2, "unknown directive");
  BAD(HDR "name x\n", 2, "expected ':' after name");
  BAD(HDR "strict please\n", 2, "after strict");
  BAD(HDR "init\n", 2, "LOCATION = VALUE");
  BAD(HDR "expect\n", 2, "expectation");
  BAD("name: a\nname: b\n", 2, "duplicate name: (first on line 1)");
  BAD("# no name here\nref: x\n", 1, "missing required 'name:'");
  BAD("", 1, "missing required 'name:'");
  BAD("name:\n", 1, "needs a text");
  BAD("name:   # only a comment\n", 1, "needs a text");
  BAD(HDR "ref:\n", 2, "needs a text");
  BAD(HDR "mode: fast\n", 2, "mode must be func, cycle or both");
  BAD(HDR "mode: func\nmode: func\n", 3, "duplicate mode");
  BAD(HDR "budget: 5\nbudget: 6\n", 3, "duplicate budget");
  BAD(HDR "budget: ten\n", 2, "malformed number");
  /* knobs */
  BAD(HDR "knob: no_such_knob=1\n", 2, "unknown knob 'no_such_knob'");
  BAD(HDR "knob: rstdma=maybe\n", 2, "has no value 'maybe'");
  BAD(HDR "knob: rstdma\n", 2, "NAME=VALUE");
  BAD(HDR "knob: rstdma=\n", 2, "missing knob value");
  BAD(HDR "knob: =nop\n", 2, "missing knob name");
  BAD(HDR "knob: rstdma=nop\nknob: rstdma=unsupported\n", 3, "already set on line 2");
  /* locations */
  BAD(HDR "init cfg[2][0] = 1\n", 2, "bad location 'cfg[2][0]'");
  BAD(HDR "init cfg[0][224] = 1\n", 2, "bad location");
  BAD(HDR "init tcfg[0][68] = 1\n", 2, "bad location");
  BAD(HDR "init t0.gpr[64] = 1\n", 2, "bad location");
  BAD(HDR "init sem[8].value = 1\n", 2, "bad location");
  BAD(HDR "init sem[0] = 1\n", 2, "bad location");
  BAD(HDR "expect gpr[1] = 0\n", 2, "bad location");
  BAD(HDR "expect dst[0] = 0\n", 2, "bad location");
  BAD(HDR "init l1.u32[0x42] = 1\n", 2, "4-aligned");
  BAD(HDR "init l1.u16[0x41] = 1\n", 2, "2-aligned");
  BAD(HDR "init l1.u32[0x180000] = 1\n", 2, "bad location");
  BAD(HDR "init l1.u8[0x180000] = 1\n", 2, "bad location");
  BAD(HDR "init l1.u32[0x17FFFE] = 1\n", 2, "bad location");
  BAD(HDR "init mmio[0xFFB10FFC] = 1\n", 2, "0xFFB11000");
  BAD(HDR "init mmio[0xFFB00000] = 1\n", 2, "0xFFB11000");
  BAD(HDR "init mmio[0xFFC00000] = 1\n", 2, "0xFFB11000");
  BAD(HDR "init mmio[0xFFB11002] = 1\n", 2, "4-aligned");
  BAD(HDR "init mutex[1] = none\n", 2, "mutex index");
  BAD(HDR "init mutex[5] = t0\n", 2, "mutex index");
  BAD(HDR "init mutex[2] = 1\n", 2, "must be none, t0, t1 or t2");
  BAD(HDR "expect mutex[2] = t3\n", 2, "must be none, t0, t1 or t2");
  BAD(HDR "init t0.gpr[1] = none\n", 2, "malformed number");
  /* threads */
  BAD(HDR "t3: 0x02000000\n", 2, "unknown thread 't3'");
  BAD(HDR "t10: 0x02000000\n", 2, "unknown thread");
  BAD(HDR "expect t3 done\n", 2, "unknown thread 't3'");
  BAD(HDR "expect t3 blocked\n", 2, "unknown thread");
  BAD(HDR "expect t3 fault none\n", 2, "unknown thread");
  BAD(HDR "expect t3.gpr[0] = 0\n", 2, "bad location");
  BAD(HDR "expect t3.issue[0] = 0\n", 2, "unknown thread");
  BAD(HDR "init t3.gpr[0] = 0\n", 2, "bad location");
  /* instructions */
  BAD(HDR "t0:\n", 2, "missing instruction");
  BAD(HDR "t0:   # comment only\n", 2, "missing instruction");
  BAD(HDR "t0: FOOBAR 1, 2\n", 2, "bad instruction 'FOOBAR 1, 2'");
  BAD(HDR "t1: SEMPOST 1, 2, 3, 4, 5\n\n", 2, "bad instruction");
  /* expectations */
  BAD(HDR "expect t0 fault bogus\n", 2, "unknown fault class 'bogus'");
  BAD(HDR "expect t0 fault\n", 2, "tN fault CLASS");
  BAD(HDR "expect t0 fault none extra\n", 2, "unexpected text");
  BAD(HDR "expect t0 done now\n", 2, "unexpected text");
  BAD(HDR "expect t0 finished\n", 2, "expected done, blocked");
  BAD(HDR "expect deadlock soon\n", 2, "unexpected text");
  BAD(HDR "expect cycles == 5\n", 2, "use '='");
  BAD(HDR "expect cycles < 5\n", 2, "cycles = C");
  BAD(HDR "expect cycles = \n", 2, "missing value");
  BAD(HDR "t0: 0x02000000\nexpect t0.issue[1] = 0\n", 3, "thread t0 has 1 instruction(s)");
  BAD(HDR "expect t1.issue[0] = 0\n", 2, "has 0 instruction(s)");
  BAD(HDR "t0: 0x02000000\nexpect t0.issue[0 = 0\n", 3, "tN.issue[K] = C");
  BAD(HDR "t0: 0x02000000\nexpect t0.issue[0] 0\n", 3, "expected '='");
  BAD(HDR "t0: 0x02000000\nexpect t0.issue[x] = 0\n", 3, "malformed number");
  BAD(HDR "mode: func\nt0: 0x02000000\nexpect t0.issue[0] = 0\n", 4, "cycle-only");
  BAD(HDR "expect cycles <= 5\nmode: func\n", 2, "cycle-only");
  /* bytes */
  BAD(HDR "name\x01: x\n", 2, "control character");
  BAD(HDR "ref: a\xFF\n", 2, "invalid UTF-8");
  BAD(HDR "ref: a\xC0\xAF\n", 2, "invalid UTF-8");        /* overlong */
  BAD(HDR "ref: a\xED\xA0\x80\n", 2, "invalid UTF-8");    /* surrogate */
  BAD(HDR "ref: a\xE2\x80\n", 2, "invalid UTF-8");        /* truncated */
  BAD(HDR "ref: a\rb\n", 2, "carriage return");
  {
    static const char nul[] = "name: x\nref: a\0b\n";
    int r = tt_vec_parse(nul, sizeof nul - 1, &v, &e);
    CHECK(r == -1 && e.line == 2 && strstr(e.msg, "NUL") && e.col == 7, "NUL: %d %u:%u %s", r,
          e.line, e.col, e.msg);
  }
  /* column of a bad location */
  BAD(HDR "init  cfg[9][0] = 1\n", 2, "bad location");
  CHECK_EQ(e.col, 7);
  /* text limits */
  {
    static char big[4096];
    size_t n = 0;
    memcpy(big, "name: ", 6);
    n = 6;
    for (int i = 0; i < TT_VEC_TEXT_MAX; i++) big[n++] = 'a';
    big[n++] = '\n';
    big[n] = 0;
    BAD(big, 1, "longer than 255 bytes");
  }
}

/* Capacity limits: each one is a clear error at the line that exceeds it. */
static char capbuf[1 << 20];
static void test_capacities(void) {
  size_t n = 0;
  unsigned i;
#define APPEND(s) do { size_t l_ = strlen(s); memcpy(capbuf + n, s, l_); n += l_; } while (0)
  APPEND(HDR);
  for (i = 0; i < TT_PROG_MAX; i++) APPEND("t1: 0x02000000\n");
  capbuf[n] = 0;
  GOOD(capbuf);
  CHECK_EQ(v.prog_len[1], TT_PROG_MAX);
  APPEND("t1: 0x02000000\n");
  capbuf[n] = 0;
  BAD(capbuf, 2 + TT_PROG_MAX, "more than 4096 instructions");

  n = 0;
  APPEND(HDR);
  for (i = 0; i < TT_VEC_MAX_INITS; i++) APPEND("init t0.gpr[0] = 1\n");
  capbuf[n] = 0;
  GOOD(capbuf);
  APPEND("init t0.gpr[0] = 1\n");
  capbuf[n] = 0;
  BAD(capbuf, 2 + TT_VEC_MAX_INITS, "too many init");

  n = 0;
  APPEND(HDR);
  for (i = 0; i < TT_VEC_MAX_EXPECTS; i++) APPEND("expect t0 done\n");
  capbuf[n] = 0;
  GOOD(capbuf);
  APPEND("expect deadlock\n");
  capbuf[n] = 0;
  BAD(capbuf, 2 + TT_VEC_MAX_EXPECTS, "too many expect");

  n = 0;
  APPEND(HDR);
  for (i = 0; i < TT_VEC_MAX_REFS; i++) APPEND("ref: r\n");
  capbuf[n] = 0;
  GOOD(capbuf);
  APPEND("ref: r\n");
  capbuf[n] = 0;
  BAD(capbuf, 2 + TT_VEC_MAX_REFS, "too many ref");
#undef APPEND
}

static tt_vec_status run_text(const char *text, tt_mode mode) {
  int r = parse(text);
  CHECK(r == 0, "run_text parse: line %u %s", e.line, e.msg);
  if (r != 0) return TT_VEC_ERROR;
  return tt_vec_run(&st, &st_init, &v, mode, &res);
}

static const tt_vec_check *find_check(const char *sub) {
  for (unsigned i = 0; i < res.nchecks; i++)
    if (strstr(res.checks[i].text, sub)) return &res.checks[i];
  return NULL;
}

static void test_run(void) {
  tt_vec_status s;
  const tt_vec_check *c;
  tt_init(&st);

  s = run_text("name: mul\nstrict\ninit t0.gpr[1] = 0x0001FFFF\ninit t0.gpr[2] = 0xFFFF0003\n"
               "t0: 0x5A003081\nexpect t0.gpr[3] = 0x0002FFFD\nexpect t0 done\n"
               "expect t0 fault none\nexpect cycles <= 100\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_PASS);
  CHECK_EQ(res.npass, 3);
  CHECK_EQ(res.nfail, 0);
  CHECK_EQ(res.nnot_evaluated, 1);
  CHECK_EQ(res.checks[3].status, TT_VEC_CHECK_NOT_EVALUATED);
  CHECK_EQ(res.outcome, TT_OUT_DONE);

  /* a mode the vector does not name, and cycle mode when the build lacks it */
  parse("name: m\nmode: cycle\n");
  CHECK_EQ(tt_vec_run(&st, &st_init, &v, TT_MODE_FUNC, &res), TT_VEC_SKIP);
  parse("name: m\n");
  if (!tt_mode_available(TT_MODE_CYCLE))
    CHECK_EQ(tt_vec_run(&st, &st_init, &v, TT_MODE_CYCLE, &res), TT_VEC_SKIP);

  /* failures carry expected and actual values */
  s = run_text("name: f\ninit t0.gpr[1] = 7\ninit mutex[3] = t2\n"
               "expect t0.gpr[1] = 8\nexpect mutex[3] = t0\nexpect deadlock\n"
               "expect t1 blocked\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_FAIL);
  CHECK_EQ(res.nfail, 4);
  c = find_check("t0.gpr[1]");
  CHECK(c && c->status == TT_VEC_CHECK_FAIL && c->expected == 8 && c->actual == 7 &&
            c->line == 4 && strstr(c->text, "actual 0x00000007"),
        "%s", c ? c->text : "missing");
  c = find_check("mutex[3]");
  CHECK(c && strstr(c->text, "expect mutex[3] = t0: actual t2"), "%s", c ? c->text : "missing");
  c = find_check("deadlock");
  CHECK(c && strstr(c->text, "actual run ended: done"), "%s", c ? c->text : "missing");

  /* deadlock on an absent mutex; blocked; done */
  s = run_text("name: d\nt0: 0xA0000001\nt1: 0xA0000002\nexpect t0 blocked\nexpect t1 done\n"
               "expect deadlock\nexpect mutex[2] = t1\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_PASS);
  CHECK_EQ(res.outcome, TT_OUT_DEADLOCK);
  s = run_text("name: d\nt0: 0xA0000001\nexpect t0 done\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_FAIL);
  c = find_check("t0 done");
  CHECK(c && strstr(c->text, "actual not done: pc 0 of 1 (line 2)"), "%s", c ? c->text : "missing");

  /* strict: unnamed changes are failures; L1 coverage is byte-precise */
  static const char storeind[] =
      "name: s\nstrict\ninit t0.gpr[1] = 4\ninit t0.gpr[2] = 0x11223344\n"
      "t0: 0x66A00081   # STOREIND L1 32-bit: l1[gpr1*16] = gpr2\n";
  char buf[512];
  strcpy(buf, storeind);
  strcat(buf, "expect l1.u8[0x40] = 0x44\n");
  s = run_text(buf, TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_FAIL);
  CHECK_EQ(res.nstrict, 1);
  c = find_check("strict:");
  CHECK(c && c->is_strict && strstr(c->text, "strict: l1.u32[0x40] changed 0x0 -> 0x11223344"),
        "%s", c ? c->text : "missing");
  strcpy(buf, storeind);
  strcat(buf, "expect l1.u16[0x40] = 0x3344\nexpect l1.u8[0x42] = 0x22\nexpect l1.u8[0x43] = 0x11\n");
  s = run_text(buf, TT_MODE_FUNC);
  CHECK(s == TT_VEC_PASS, "strict covered by narrower expects: %s", res.nchecks ? res.checks[res.nchecks - 1].text : "");
  strcpy(buf, storeind);
  strcat(buf, "expect l1.u32[0x40] = 0x11223344\n");
  CHECK_EQ(run_text(buf, TT_MODE_FUNC), TT_VEC_PASS);
  s = run_text("name: s2\nstrict\ninit t0.gpr[5] = 5\nt0: 0xB0050014\nt0: 0xA0000002\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_FAIL);
  CHECK_EQ(res.nstrict, 2);
  CHECK(find_check("strict: cfg[0][20] changed 0x0 -> 0x5") != NULL, "cfg strict");
  CHECK(find_check("strict: mutex[2] changed none -> t0") != NULL, "mutex strict");
  /* inits themselves are not changes */
  CHECK_EQ(run_text("name: s3\nstrict\ninit cfg[1][7] = 9\ninit l1.u32[0x80] = 1\n", TT_MODE_FUNC),
           TT_VEC_PASS);

  /* knobs apply for one vector only */
  s = run_text("name: k\nknob: rstdma=nop\nt0: 0x44000000\nexpect t0 fault none\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_PASS);
  s = run_text("name: k\nt0: 0x44000000\nexpect t0 fault unsupported\nexpect t0 done\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_PASS);
  c = find_check("fault");
  s = run_text("name: k\nt0: 0x44000000\nexpect t0 fault none\n", TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_FAIL);
  c = find_check("fault");
  CHECK(c && strstr(c->text, "actual unsupported") && strstr(c->text, "(line 2)"), "%s",
        c ? c->text : "missing");

  /* budget: an endless wait stops at the budget, state from a previous run does not leak */
  s = run_text("name: b\nbudget: 10\nt0: 0xA6010005\nt0: 0xA4000008\nexpect t0 done\n",
               TT_MODE_FUNC);
  CHECK_EQ(s, TT_VEC_FAIL);
  CHECK(res.outcome == TT_OUT_BUDGET || res.outcome == TT_OUT_DEADLOCK, "outcome %u", res.outcome);
  CHECK_EQ(run_text("name: clean\nstrict\nexpect t0.gpr[1] = 0\nexpect mutex[2] = none\n"
                    "expect t0 done\nexpect t0 fault none\n", TT_MODE_FUNC), TT_VEC_PASS);

  /* formatters */
  CHECK_EQ(tt_vec_fmt_hex(buf, sizeof buf, 0x2A, 4), 6);
  CHECK(strcmp(buf, "0x002A") == 0, "%s", buf);
  CHECK_EQ(tt_vec_fmt_dec(buf, 3, 12345), 5);
  CHECK(strcmp(buf, "12") == 0, "truncated '%s'", buf);
}

/* ---- fuzz ------------------------------------------------------------------------------ */
static uint64_t lcg = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(lcg >> 33);
}

static const char *const seeds[] = {
    "name: MULDMAREG\nref: WormholeB0/TensixTile/TensixCoprocessor/MULDMAREG.md\nstrict\n"
    "init t0.gpr[1] = 0x0001FFFF\ninit t0.gpr[2] = 0xFFFF0003\nt0: 0x5A003081  # x\n"
    "expect t0.gpr[3] = 0x0002FFFD\nexpect t0 done\nexpect t0 fault none\n",
    "name: d\nmode: both\nbudget: 50\nknob: rstdma=nop\nt0: 0xA0000001\nt1: SEMPOST 8\n"
    "expect t0 blocked\nexpect deadlock\nexpect mutex[2] = none\nexpect cycles <= 100\n"
    "expect t1.issue[0] = 0\ninit l1.u16[0x10] = 0xBEEF\ninit mmio[0xFFB40074] = 3\n",
    "name: c\ninit tcfg[1][5] = 4\ninit sem[2].max = 3\ninit cfg[1][200] = 0x10\n"
    "t2: STALLWAIT block_mask=0x80 condition_mask=0x1\nt2: ttsetc16 0, 1\nexpect t2 fault undefined\n",
};
static const char *const dict[] = {
    "name: ", "ref: ", "mode: ", "knob: ", "budget: ", "strict", "init ", "expect ", "t0: ",
    "t1:", "t2: ", "t3: ", "0x", "0X", "=", "<=", ">=", "[", "]", "#", "\n", "\r\n", " ", "\t",
    "t0.gpr[", "cfg[1][", "tcfg[2][", "sem[3].value", "sem[7].max", "mutex[2]", "l1.u32[",
    "l1.u8[", "mmio[0xFFB11000]", "cycles", ".issue[", "done", "blocked", "deadlock",
    "fault ", "none", "t2", "4294967295", "4294967296", "0xFFFFFFFFFFFFFFFFF", "99999999999",
    "SEMPOST 8", "STALLWAIT 128, 1", "\xC3\xA9", "\xFF", "\0", "rstdma=nop", "l1_size=1464k",
};

static size_t mutate(char *buf, size_t cap) {
  size_t n = 0;
  unsigned mode = rnd() % 4;
  if (mode == 0) { /* pure random bytes, biased to printable */
    n = rnd() % 256;
    for (size_t i = 0; i < n; i++) {
      uint32_t r = rnd();
      buf[i] = (char)((r & 3) ? 0x20 + (r >> 8) % 95 : (r >> 8) & 0xFF);
      if ((r >> 20) % 16 == 0) buf[i] = '\n';
    }
    return n;
  }
  if (mode == 1) { /* dictionary soup */
    unsigned k = 1 + rnd() % 40;
    for (unsigned i = 0; i < k; i++) {
      const char *d = dict[rnd() % (sizeof dict / sizeof dict[0])];
      size_t l = d[0] ? strlen(d) : 1;   /* "\0" contributes one NUL byte */
      if (n + l >= cap) break;
      memcpy(buf + n, d, l);
      n += l;
    }
    return n;
  }
  /* mutate a valid seed */
  {
    const char *s = seeds[rnd() % (sizeof seeds / sizeof seeds[0])];
    n = strlen(s);
    memcpy(buf, s, n);
    unsigned k = 1 + rnd() % 6;
    for (unsigned i = 0; i < k && n > 0; i++) {
      uint32_t r = rnd();
      size_t at = rnd() % n;
      switch (r % 5) {
      case 0: buf[at] = (char)(rnd() & 0xFF); break;                   /* flip a byte */
      case 1: memmove(buf + at, buf + at + 1, n - at - 1); n--; break; /* delete */
      case 2: n = at; break;                                           /* truncate */
      case 3: {                                                        /* insert a token */
        const char *d = dict[rnd() % (sizeof dict / sizeof dict[0])];
        size_t l = d[0] ? strlen(d) : 1;
        if (n + l < cap) { memmove(buf + at + l, buf + at, n - at); memcpy(buf + at, d, l); n += l; }
        break;
      }
      default: {                                                       /* duplicate a span */
        size_t l = rnd() % 64;
        if (at + l > n) l = n - at;
        if (n + l < cap) { memmove(buf + at + l, buf + at, n - at); n += l; }
        break;
      }
      }
    }
  }
  return n;
}

static void test_fuzz(void) {
  static char buf[4096];
  unsigned ok = 0, bad = 0, ran = 0, weird = 0;
  for (unsigned it = 0; it < 200000; it++) {
    size_t n = mutate(buf, sizeof buf);
    char *heap = malloc(n ? n : 1);   /* exact size: ASan sees any read past the end */
    if (!heap) break;
    memcpy(heap, buf, n);
    int r = tt_vec_parse(heap, n, &v, &e);
    if (r == 0) {
      ok++;
      if (v.nexpects > TT_VEC_MAX_EXPECTS || v.ninits > TT_VEC_MAX_INITS) weird++;
      if (ran < 3000) {   /* run some in func mode, with a short budget */
        if (v.budget > 2000) v.budget = 2000;
        tt_vec_status s = tt_vec_run(&st, &st_init, &v, TT_MODE_FUNC, &res);
        if (s != TT_VEC_PASS && s != TT_VEC_FAIL && s != TT_VEC_SKIP) weird++;
        ran++;
      }
    } else if (r == -1) {
      bad++;
      if (memchr(e.msg, 0, sizeof e.msg) == NULL || e.msg[0] == 0) weird++;
      if (e.line == 0 || e.line > n + 2) weird++;
    } else {
      weird++;
    }
    free(heap);
  }
  CHECK(weird == 0, "fuzz: %u odd results", weird);
  CHECK(ok > 100 && bad > 100, "fuzz coverage: %u parsed, %u rejected", ok, bad);
  printf("fuzz: 200000 inputs, %u parsed (%u run), %u rejected\n", ok, ran, bad);
}

int main(void) {
  test_directives();
  test_errors();
  test_capacities();
  test_run();
  test_fuzz();
  return CHECK_DONE();
}
