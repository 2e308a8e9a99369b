/* test_asm.c — assembler / disassembler: known encodings in every syntax, every error path
 * with its column, per-mnemonic / per-form syntax sweeps, and a fixed-seed randomized
 * round trip word -> tt_disasm(style) -> tt_asm_insn == word over all opcodes. */
#include <stdio.h>
#include <string.h>

#include "asm.h"
#include "check.h"

#define MASK(w) ((uint32_t)(((uint64_t)1 << (w)) - 1u))

static uint64_t lcg_state = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void) {  /* Knuth MMIX LCG, high half */
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(lcg_state >> 32);
}

static int asm_str(const char *s, uint32_t *w, tt_asm_error *e) {
  return tt_asm_insn(s, strlen(s), w, e);
}

/* ---- known encodings ---------------------------------------------------------------------- */
static const struct { const char *text; uint32_t word; } known[] = {
  {"ttsetdmareg 0, 0x1234, 0, 56", 0x45123438},
  {"ttsetdmareg 0,4660,0,56", 0x45123438},
  {"TT_OP_SETDMAREG(0, 0x1234, 0, 56)", 0x45123438},
  {"SETDMAREG 0, 0x1234, 0, 0x38", 0x45123438},
  {"SETDMAREG_IMM new_value=0x1234 result_half_reg=56", 0x45123438},
  {"setdmareg_imm Payload_SigSel=0x1234, RegIndex16b=56", 0x45123438},
  {"SETDMAREG_IMM result_half_reg = 56 , new_value = 4660", 0x45123438},
  {"SETDMAREG_SPECIAL result_size=3 which_packers=0xF input_source=2 input_half_reg=5 "
   "result_half_reg=0x7F", 0x45C795FF},
  {"ttstallwait 128, 1", 0xA2400001},
  {"STALLWAIT block_mask=0x80 condition_mask=0x1", 0xA2400001},
  {"STALLWAIT stall_res=0x80, wait_res=1", 0xA2400001},
  {"ttstallwait STALL_CFG, THCON", 0xA2400001},
  {"TT_OP_STALLWAIT(128, 1)", 0xA2400001},
  {"TTI_STALLWAIT(128, 1)", 0xA2400001},
  {"TTI_STALLWAIT(p_stall::STALL_CFG, p_stall::THCON);", 0xA2400001},
  {"TT_STALLWAIT(128, 1)", 0xA2400001},
  {"STALLWAIT 128, 1", 0xA2400001},
  {"stallwait 0x80 ,0b1", 0xA2400001},
  {"TTSTALLWAIT 128, 1", 0xA2400001},
  {"  \tttstallwait  stall_cfg ,  thcon  ", 0xA2400001},
  {"ttstallwait 8, 1024", 0xA2040400},        /* stream word */
  {"ttstallwait STALL_THREAD, ALL_THREAD_RES", 0xA2FF821F},
  {"ttstallwait STALL_MATH | STALL_SYNC | 0x4, UNPACK|PACK", 0xA223000E},
  {"STALLWAIT block_mask=STALL_CFG | STALL_MATH, condition_mask=MATH", 0xA2600010},
  {"STALLWAIT", 0xA2000000},
  {"ttsemwait p_stall::STALL_MATH|STALL_SYNC, t6_sem(MATH_PACK), STALL_ON_ZERO", 0xA6210009},
  {"ttsemwait 66, 2, 1", 0xA6210009},
  {"SEMWAIT block_mask=STALL_MATH sem_mask=SEMAPHORE_1 condition_mask=STALL_ON_MAX", 0xA620000A},
  {"SEMWAIT block_mask=0x40 sem_mask=t6_sem(semaphore::MATH_PACK) condition_mask=2", 0xA620000A},
  {"ttseminit 2, 0, t6_sem(semaphore::UNPACK_SYNC)", 0xA3200080},
  {"ttseminit 2, 0, t6_sem(5)", 0xA3200080},
  {"ttsempost MATH_DONE", 0xA4000200},
  {"ttsemget 32", 0xA5000080},                /* stream word */
  {"ttsemget SEMAPHORE_3|SEMAPHORE_0", 0xA5000024},
  {"ttatgetm 3", 0xA0000003},
  {"ttwrcfg 5, 1, 0x7FF", 0xB00587FF},
  {"ADDDMAREG_IMM result_reg=1 right_imm=5 left_reg=2", 0x58801142},
  {"ttadddmareg 1, 1, 5, 2", 0x58801142},
  {"ttnop", 0x02000000},
  {"NOP", 0x02000000},
  {"TTI_NOP", 0x02000000},
  {"TTI_NOP;", 0x02000000},
  {"TT_OP_NOP()", 0x02000000},
  {"TT_OP_NOP( )", 0x02000000},
  {"ttdmanop", 0x60000000},
  {"DMANOP", 0x60000000},
  {"RSTDMA", 0x44000000},
  {"0xB0050014", 0xB0050014},
  {"0x11000007", 0x11000007},                 /* foreign ZEROSRC: raw only */
  {"0X0", 0x00000000},
  {"0xffffffff", 0xFFFFFFFF},
};

/* ---- error paths: text, column, message substring ----------------------------------------- */
static const struct { const char *text; unsigned col; const char *msg; } errs[] = {
  {"", 1, "empty instruction"},
  {"   ", 4, "empty instruction"},
  {"FOO 1, 2", 1, "unknown mnemonic 'FOO'"},
  {"  ttfoo", 3, "unknown mnemonic 'ttfoo'"},
  {"ttsetdmareg 0, 0x10000, 0, 56", 16, "operand 2 (Payload_SigSel) 0x10000 does not fit 14 bits"},
  {"ttsetdmareg 0, 0x1234, 0", 25, "expected 4 operands, got 3"},
  {"ttsetdmareg 0, 0x1234, 0, 1, 2", 30, "expected 4 operands, got 5"},
  {"ttstallwait 512, 1", 13, "operand 1 (stall_res) 0x200 does not fit 9 bits"},
  {"ttstallwait", 12, "expected 2 operands, got 0"},
  {"ttnop 1", 7, "expected 0 operands, got 1"},
  {"NOP 1", 5, "expected 0 operands, got 1"},
  {"TT_OP_STALLWAIT(128)", 20, "expected 2 operands, got 1"},
  {"TT_OP_STALLWAIT(128, 1", 16, "missing ')'"},
  {"TT_OP_STALLWAIT(128, 1) x", 25, "unexpected 'x'"},
  {"ttstallwait 128,, 1", 17, "missing operand"},
  {"ttstallwait 128, 1,", 20, "missing operand"},
  {"ttstallwait , 1", 13, "missing operand"},
  {"ttstallwait 1 2", 16, "expected 2 operands, got 1"},  /* the count is checked first */
  {"ttstallwait 1 2, 3", 15, "unexpected '2'"},
  {"STALLWAIT, 1", 10, "unexpected ','"},
  {"ttstallwait STALL_CFG, BOGUS", 24, "unknown stall-condition name 'BOGUS'"},
  {"ttstallwait THCON, 1", 13, "unknown block-mask name 'THCON'"},
  {"ttsemwait 1, BOGUS, 1", 14, "unknown semaphore name 'BOGUS'"},
  {"ttsemwait 1, 2, STALL_ON_NOTHING", 17, "unknown semaphore-condition name 'STALL_ON_NOTHING'"},
  {"ttsetdmareg 0, STALL_CFG, 0, 0", 16, "'STALL_CFG' is not a number"},
  {"ttstallwait 0x1G, 1", 13, "bad number '0x1G'"},
  {"ttstallwait 12ab, 1", 13, "bad number '12ab'"},
  {"ttstallwait 99999999999, 1", 13, "does not fit 32 bits"},
  {"ttstallwait STALL_CFG |, 1", 24, "expected a value"},
  {"ttsemwait 1, t6_sem(BOGUS), 1", 21, "unknown semaphore name 'BOGUS'"},
  {"ttsemwait 1, t6_sem MATH_PACK, 1", 21, "expected '(' after t6_sem"},
  {"ttsemwait 1, t6_sem(40), 1", 21, "semaphore index out of range"},
  {"ttstallwait t6_sem(1), 1", 13, "t6_sem() applies only to a semaphore mask"},
  {"ttsempost t6_sem(1", 19, "expected ')'"},
  {"SETDMAREG new_value=1", 1, "SETDMAREG has 2 forms; name one (SETDMAREG_IMM, SETDMAREG_SPECIAL)"},
  {"SETDMAREG_SPECIAL Payload_SigSel=1", 19, "ambiguous field 'Payload_SigSel'"},
  {"STALLWAIT block_mask=0x80 block_mask=1", 27, "duplicate field 'block_mask'"},
  {"STALLWAIT block_mask=0x80 stall_res=1", 27, "duplicate field 'stall_res'"},
  {"STALLWAIT bogus=1", 11, "unknown field 'bogus' in STALLWAIT"},
  {"STALLWAIT block_mask=0x200", 22, "field block_mask 0x200 does not fit 9 bits"},
  {"STALLWAIT condition_mask=1 block_mask", 38, "expected '=' after 'block_mask'"},
  {"STALLWAIT block_mask=1,, condition_mask=1", 24, "missing field=value"},
  {"STALLWAIT block_mask=1,", 24, "missing field=value"},
  {"STALLWAIT block_mask=", 22, "expected a value"},
  {"STALLWAIT block_mask=THCON", 22, "unknown block-mask name 'THCON'"},
  {"STALLWAIT block_mask=1 2", 24, "expected field=value"},
  {"STALLWAIT, block_mask=1", 10, "unexpected ','"},
  {"SETDMAREG_IMM 1, 2", 15, "expected field=value operands for form SETDMAREG_IMM"},
  {"ZEROACC", 1, "ZEROACC is outside the model; write it as a raw 0x word"},
  {"ttzeroacc 0, 0, 0", 1, "ZEROACC is outside the model"},
  {"TTI_ZEROSRC(0, 0, 1, 3)", 1, "ZEROSRC is outside the model"},
  {"0x123456789", 1, "number '0x123456789' does not fit 32 bits"},
  {"0xA2400001 1", 12, "unexpected '1' after raw word"},
  {"0x", 1, "expected a mnemonic or a raw 0x word, got '0x'"},
  {"123", 1, "expected a mnemonic or a raw 0x word, got '123'"},
  {"$", 1, "unexpected '$'"},
  {"ttstallwait 128, 1 # comment", 20, "unexpected '#'"},
};

static void test_known(void) {
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    uint32_t w = 0xDEADBEEF;
    tt_asm_error e;
    int rc = asm_str(known[i].text, &w, &e);
    CHECK(rc == 0 && w == known[i].word, "'%s' -> rc %d word 0x%08X (expected 0x%08X) %u: %s",
          known[i].text, rc, w, known[i].word, e.col, e.msg);
    CHECK(rc != 0 || (e.col == 0 && e.msg[0] == 0), "'%s': error record not cleared", known[i].text);
  }
  /* a NULL error record is allowed */
  uint32_t w = 0;
  CHECK(tt_asm_insn("ttnop", 5, &w, NULL) == 0 && w == 0x02000000u, "NULL err");
  CHECK(tt_asm_insn("bogus", 5, &w, NULL) == -1, "NULL err on failure");
  /* len, not NUL, bounds the text */
  CHECK(tt_asm_insn("ttstallwait 128, 1XYZ", 18, &w, NULL) == 0 && w == 0xA2400001u, "len bound");
}

static void test_errors(void) {
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
    uint32_t w = 0x12345678;
    tt_asm_error e;
    int rc = asm_str(errs[i].text, &w, &e);
    CHECK(rc == -1 && e.col == errs[i].col && strstr(e.msg, errs[i].msg) != NULL &&
              w == 0x12345678u,
          "'%s' -> rc %d col %u msg '%s' (expected col %u, '%s')", errs[i].text, rc, e.col,
          e.msg, errs[i].col, errs[i].msg);
  }
}

/* ---- disassembler specifics ---------------------------------------------------------------- */
static void dis_is(uint32_t w, tt_dis_style st, const char *want) {
  char buf[256];
  size_t n = tt_disasm(w, st, buf, sizeof buf);
  CHECK(strcmp(buf, want) == 0 && n == strlen(want), "disasm(0x%08X, %d) = '%s', expected '%s'",
        w, (int)st, buf, want);
}

static void test_disasm(void) {
  dis_is(0x45123438, TT_DIS_OBJDUMP, "ttsetdmareg 0, 4660, 0, 56");
  dis_is(0x45123438, TT_DIS_UPPER, "SETDMAREG 0, 0x1234, 0, 0x38");
  dis_is(0x45123438, TT_DIS_NAMED, "SETDMAREG_IMM new_value=0x1234 result_half_reg=0x38");
  dis_is(0xA2400001, TT_DIS_OBJDUMP, "ttstallwait 128, 1");
  dis_is(0xA2400001, TT_DIS_UPPER, "STALLWAIT 0x80, 1");
  dis_is(0xA2400001, TT_DIS_NAMED, "STALLWAIT block_mask=0x80 condition_mask=1");
  dis_is(0xA6210009, TT_DIS_OBJDUMP, "ttsemwait 66, 2, 1");
  dis_is(0x02000000, TT_DIS_OBJDUMP, "ttnop");
  dis_is(0x02000000, TT_DIS_UPPER, "NOP");
  dis_is(0x02000000, TT_DIS_NAMED, "NOP");
  dis_is(0x02000001, TT_DIS_OBJDUMP, "0x02000001");  /* bit outside every LLK argument */
  dis_is(0x02000001, TT_DIS_NAMED, "0x02000001");
  dis_is(0x11000007, TT_DIS_OBJDUMP, "0x11000007");  /* foreign */
  dis_is(0x11000007, TT_DIS_NAMED, "0x11000007");
  dis_is(0xFF000000, TT_DIS_UPPER, "0xFF000000");    /* undefined */
  dis_is(0x00000000, TT_DIS_OBJDUMP, "0x00000000");
  /* reserved ISA bits inside an LLK argument: objdump can say it, named cannot */
  dis_is(0xA2006000, TT_DIS_OBJDUMP, "ttstallwait 0, 24576");
  dis_is(0xA2006000, TT_DIS_NAMED, "0xA2006000");
  dis_is(0x45C795FF, TT_DIS_NAMED,
         "SETDMAREG_SPECIAL result_size=3 which_packers=0xF input_source=2 input_half_reg=5 "
         "result_half_reg=0x7F");
  dis_is(0xA2400001, (tt_dis_style)7, "0xA2400001");  /* unknown style: raw */
  /* truncation: NUL-terminated, returns the full length */
  char small[5];
  memset(small, 'x', sizeof small);
  size_t n = tt_disasm(0xA2400001, TT_DIS_OBJDUMP, small, sizeof small);
  CHECK(n == strlen("ttstallwait 128, 1") && strcmp(small, "ttst") == 0, "truncation: %zu '%s'",
        n, small);
  char none = 'q';
  n = tt_disasm(0xA2400001, TT_DIS_OBJDUMP, &none, 0);
  CHECK(n == strlen("ttstallwait 128, 1") && none == 'q', "n == 0 writes nothing");
}

/* ---- syntax sweeps: every mnemonic in every positional syntax, every form named ------------ */
static void test_sweeps(void) {
  unsigned bad_pos = 0, bad_named = 0, tried = 0;
  char text[512];
  for (int rep = 0; rep < 64; rep++) {
    for (unsigned m = 0; m < TT_MNEM_COUNT; m++) {
      unsigned lf, nl = tt_mnem_llk(m, &lf);
      uint32_t vals[16], w = (uint32_t)tt_isa_mnems[m].opcode << 24;
      for (unsigned k = 0; k < nl; k++) {
        const tt_llk_desc *l = &tt_isa_llk[lf + k];
        vals[k] = rnd() & MASK(l->width);
        if (rep == 0) vals[k] = 0;
        if (rep == 1) vals[k] = MASK(l->width);
        w |= vals[k] << l->lsb;
      }
      static const char *const pre[] = {"tt", "TT_OP_", "TTI_", "TT_", ""};
      for (unsigned s = 0; s < 5; s++) {
        size_t len = 0;
        char name[64];
        snprintf(name, sizeof name, "%s", tt_isa_mnems[m].name);
        if (s == 0) for (char *c = name; *c; c++) *c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s%s", pre[s], name,
                                (s >= 1 && s <= 3) ? "(" : (nl ? " " : ""));
        for (unsigned k = 0; k < nl; k++)
          len += (size_t)snprintf(text + len, sizeof text - len, (rep & 1) ? "%s0x%X" : "%s%u",
                                  k ? ", " : "", vals[k]);
        if (s >= 1 && s <= 3) snprintf(text + len, sizeof text - len, ")");
        uint32_t got = 0;
        tt_asm_error e;
        tried++;
        if (asm_str(text, &got, &e) != 0 || got != w) {
          if (bad_pos++ < 5) fprintf(stderr, "sweep: '%s' -> 0x%08X (want 0x%08X) %u: %s\n", text, got, w, e.col, e.msg);
        }
      }
    }
    for (unsigned f = 0; f < TT_FORM_FOREIGN; f++) {
      const tt_form_desc *fd = &tt_isa_forms[f];
      uint32_t vals[16], w = 0;
      size_t len = (size_t)snprintf(text, sizeof text, "%s", fd->name);
      unsigned order[16];
      for (unsigned k = 0; k < fd->field_count; k++) order[k] = k;
      for (unsigned k = fd->field_count; k > 1; k--) {  /* shuffle */
        unsigned j = rnd() % k, t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
      }
      for (unsigned k = 0; k < fd->field_count; k++) {
        const tt_field_desc *fl = &tt_isa_fields[fd->field_first + k];
        vals[k] = rnd() & MASK(fl->width);
        if (rep == 1) vals[k] = MASK(fl->width);
      }
      unsigned emitted = 0;
      for (unsigned q = 0; q < fd->field_count; q++) {
        unsigned k = order[q];
        const tt_field_desc *fl = &tt_isa_fields[fd->field_first + k];
        if (rep == 2 && vals[k] == 0) continue;  /* omitted fields are 0 */
        /* use the tt-llk alias when it names exactly one field of the form */
        unsigned alias_uses = 0;
        for (unsigned j = 0; j < fd->field_count; j++)
          alias_uses += strcmp(tt_isa_fields[fd->field_first + j].alias, fl->alias) == 0;
        const char *nm = ((rnd() & 1) && alias_uses == 1) ? fl->alias : fl->name;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s=%u", (emitted++ && (rnd() & 1)) ? ", " : " ",
                                nm, vals[k]);
      }
      unsigned badf;
      CHECK(tt_encode((tt_form)f, vals, fd->field_count, &w, &badf) == 0, "tt_encode %s", fd->name);
      uint32_t got = 0;
      tt_asm_error e;
      tried++;
      if (asm_str(text, &got, &e) != 0 || got != w) {
        if (bad_named++ < 5) fprintf(stderr, "sweep: '%s' -> 0x%08X (want 0x%08X) %u: %s\n", text, got, w, e.col, e.msg);
      }
    }
  }
  CHECK(bad_pos == 0, "%u positional sweep failures", bad_pos);
  CHECK(bad_named == 0, "%u named sweep failures", bad_named);
  printf("test_asm: syntax sweeps: %u texts\n", tried);
}

/* ---- randomized round trip ----------------------------------------------------------------- */
static uint32_t llk_bits_tab[TT_MNEM_COUNT + 1];
static int llk_bits_ready;
static uint32_t llk_bits(unsigned m) {  /* union of the TT_LLK argument spans of m, cached */
  if (!llk_bits_ready) {
    for (unsigned mm = 0; mm < TT_MNEM_COUNT; mm++) {
      unsigned lf, nl = tt_mnem_llk(mm, &lf);
      for (unsigned k = 0; k < nl; k++)
        llk_bits_tab[mm] |= MASK(tt_isa_llk[lf + k].width) << tt_isa_llk[lf + k].lsb;
    }
    llk_bits_ready = 1;
  }
  return llk_bits_tab[m < TT_MNEM_COUNT ? m : TT_MNEM_COUNT];
}

#define NWORDS 2100000u
static void test_roundtrip(void) {
  static const char *const sname[3] = {"objdump", "upper", "named"};
  unsigned long fail_rt[3] = {0, 0, 0}, fail_raw[3] = {0, 0, 0}, nonraw[3] = {0, 0, 0};
  unsigned seen_op[256];
  memset(seen_op, 0, sizeof seen_op);
  char buf[256];
  for (unsigned i = 0; i < NWORDS; i++) {
    uint32_t r = rnd(), w;
    switch (i % 4) {
    case 0: w = ((i / 4) % 256u) << 24 | (r & 0xFFFFFFu); break;  /* every opcode */
    case 1: w = (uint32_t)tt_isa_mnems[rnd() % TT_MNEM_COUNT].opcode << 24 | (r & 0xFFFFFFu); break;
    case 2: {  /* a clean word of a random form */
      const tt_form_desc *fd = &tt_isa_forms[rnd() % TT_FORM_FOREIGN];
      w = (uint32_t)tt_isa_mnems[fd->mnem].opcode << 24 | (r & fd->field_bits) | fd->disc_value;
      break;
    }
    default: {  /* inside the LLK arguments of a random mnemonic */
      unsigned m = rnd() % TT_MNEM_COUNT;
      w = (uint32_t)tt_isa_mnems[m].opcode << 24 | (r & llk_bits(m));
      break;
    }
    }
    seen_op[w >> 24]++;
    tt_insn in;
    tt_decode(w, &in);
    for (unsigned s = 0; s < 3; s++) {
      tt_disasm(w, (tt_dis_style)s, buf, sizeof buf);
      uint32_t back = ~w;
      tt_asm_error e;
      if (tt_asm_insn(buf, strlen(buf), &back, &e) != 0 || back != w) {
        if (fail_rt[s]++ < 5)
          fprintf(stderr, "round trip %s: 0x%08X -> '%s' -> 0x%08X (%u: %s)\n", sname[s], w, buf,
                  back, e.col, e.msg);
      }
      int want_raw = in.form >= TT_FORM_FOREIGN ||
                     (s == TT_DIS_NAMED ? in.reserved != 0 : ((w & 0xFFFFFFu) & ~llk_bits(in.mnem)) != 0);
      int is_raw = buf[0] == '0' && buf[1] == 'x';
      if (!is_raw) nonraw[s]++;
      if (is_raw != want_raw) {
        if (fail_raw[s]++ < 5)
          fprintf(stderr, "raw choice %s: 0x%08X -> '%s' (expected %s)\n", sname[s], w, buf,
                  want_raw ? "raw" : "text");
      }
    }
  }
  unsigned missing = 0;
  for (unsigned op = 0; op < 256; op++) missing += seen_op[op] == 0;
  CHECK(missing == 0, "%u opcodes never generated", missing);
  for (unsigned s = 0; s < 3; s++) {
    CHECK(fail_rt[s] == 0, "%s: %lu round-trip failures", sname[s], fail_rt[s]);
    CHECK(fail_raw[s] == 0, "%s: %lu wrong raw/text choices", sname[s], fail_raw[s]);
    printf("test_asm: round trip %-7s: %u words, %lu as text, %lu failures\n", sname[s], NWORDS,
           nonraw[s], fail_rt[s] + fail_raw[s]);
  }
}

int main(void) {
  test_known();
  test_errors();
  test_disasm();
  test_sweeps();
  test_roundtrip();
  return CHECK_DONE();
}
