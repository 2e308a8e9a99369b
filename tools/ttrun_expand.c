/* ttrun_expand.c — every line of a listing accounted for: the dynamic pushes (a `# mmio-dynamic`
 * line of a stream file, or an objdump `sw` to the instruction-push address), the words the user
 * supplies for them (--push FILE:LINE=WORD), and the frontend expanders a listing needs before
 * the model sees it: the MOP Expander (MOP_CFG consumed; MOP not modelled: its expansion comes
 * from MopCfg, which RISC-V stores write and no listing holds) and the Replay Expander (REPLAY
 * records and replays as ISA `REPLAY.md` describes; a replayed word keeps its recording line).
 * A stream file's SFPU lines that its extractor could not re-encode (`# -- ? sfpmad
 * ttinsn(sfpu,not-re-encoded) ...`) are instructions of the stream all the same: each runs as
 * its opcode (as a foreign instruction written by name does), in its place. The model then runs
 * the expanded words. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ttrun.h"

#define OP_MOP 0x01u
#define OP_MOP_CFG 0x03u
#define OP_REPLAY 0x04u
#define INSTRN_BUF_HI "0xffe40"   /* lui REG,0xffe40: REG = 0xFFE40000, the instruction-push address */

static push_site *add_site(thread_src *s, uint32_t line, uint32_t pos) {
  s->push = xrealloc(s->push, (s->npush + 1) * sizeof *s->push);
  memset(&s->push[s->npush], 0, sizeof *s->push);
  s->push[s->npush].line = line;
  s->push[s->npush].pos = pos;
  return &s->push[s->npush++];
}

/* "#  --------  ?  sfpmad  ttinsn(sfpu,not-re-encoded) ...": the opcode of the named instruction,
 * or -1. */
static int named_sfpu(const char *hash, const char *le) {
  static const char tag[] = "ttinsn(sfpu,not-re-encoded)";
  const char *q = hash + 1;
  char tok[4][40];
  unsigned nt = 0;
  while (nt < 4) {
    while (q < le && isspace((unsigned char)*q)) q++;
    const char *b = q;
    while (q < le && !isspace((unsigned char)*q)) q++;
    if (q == b) break;
    snprintf(tok[nt++], sizeof tok[0], "%.*s", (int)(q - b), b);
  }
  if (nt < 4 || strcmp(tok[3], tag)) return -1;
  int id = tt_foreign_by_name(tok[2], strlen(tok[2]));
  return id < 0 ? -1 : tt_isa_foreign[id].opcode;
}

/* Tokens of an objdump line "ADDR: HEX MNEMONIC OPERANDS [# COMMENT]". */
static int objdump_insn(const char *ls, const char *le, char *mn, size_t mnn, char *ops, size_t opn, char *cmt, size_t cn) {
  const char *p = ls, *q;
  while (p < le && isspace((unsigned char)*p)) p++;
  q = p;
  while (q < le && isxdigit((unsigned char)*q)) q++;
  if (q == p || q >= le || *q != ':') return 0;
  p = q + 1;
  while (p < le && isspace((unsigned char)*p)) p++;
  q = p;
  while (q < le && isxdigit((unsigned char)*q)) q++;
  if (q - p != 8 && q - p != 4) return 0;
  p = q;
  while (p < le && isspace((unsigned char)*p)) p++;
  q = p;
  while (q < le && !isspace((unsigned char)*q)) q++;
  snprintf(mn, mnn, "%.*s", (int)(q - p), p);
  while (q < le && isspace((unsigned char)*q)) q++;
  const char *h = q < le ? memchr(q, '#', (size_t)(le - q)) : NULL, *e = h ? h : le;
  snprintf(cmt, cn, "%.*s", h ? (int)(le - h) : 0, h ? h : "");
  while (e > q && isspace((unsigned char)e[-1])) e--;
  snprintf(ops, opn, "%.*s", (int)(e - q), q);
  return mn[0] != 0;
}

/* RISC-V register number of an ABI or x name at p (length n), or -1. */
static int reg_num(const char *p, size_t n) {
  static const char *const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
    "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
    "s11", "t3", "t4", "t5", "t6"};
  for (int i = 0; i < 32; i++)
    if (strlen(abi[i]) == n && !strncmp(p, abi[i], n)) return i;
  if (n == 2 && !strncmp(p, "fp", 2)) return 8;
  if (n >= 2 && p[0] == 'x' && isdigit((unsigned char)p[1])) return atoi(p + 1) < 32 ? atoi(p + 1) : -1;
  return -1;
}

/* What the scan knows of the RISC-V registers: constants (lui, addi, li, mv) and which hold the
 * instruction-push address. Constants are forgotten at a branch target (<.Ln>:). */
typedef struct rv { uint32_t val[32], known, base; } rv;
enum { RV_NONE, RV_DYNAMIC, RV_CONST };

static void rv_set(rv *r, int rd, int known, uint32_t v, int base) {
  if (rd <= 0) return;
  r->val[rd] = v;
  r->known = known ? r->known | 1u << rd : r->known & ~(1u << rd);
  r->base = base ? r->base | 1u << rd : r->base & ~(1u << rd);
}

/* One RISC-V line of objdump text; a `sw X,0(BASE)` through the push address (or one objdump
 * annotates `<__instrn_buffer>`) is a push: RV_CONST with *word when X holds a known constant. */
static int riscv_push(rv *r, const char *mn, const char *ops, const char *cmt, uint32_t *word) {
  char a[3][32] = {"", "", ""};
  unsigned na = 0;
  for (const char *p = ops; *p && na < 3; na++) {
    size_t n = strcspn(p, ",");
    snprintf(a[na], sizeof a[na], "%.*s", (int)n, p);
    p += n + (p[n] == ',');
  }
  int rd = reg_num(a[0], strlen(a[0])), rs = reg_num(a[1], strlen(a[1]));
  int ks = rs == 0 || (rs > 0 && (r->known >> rs & 1u));
  uint32_t vs = rs > 0 ? r->val[rs] : 0;
  if (!strcmp(mn, "sw")) {
    const char *lp = strchr(a[1], '(');
    int rb = lp ? reg_num(lp + 1, strcspn(lp + 1, ")")) : -1;
    int to_buf = (rb > 0 && (r->base >> rb & 1u) && !strncmp(a[1], "0(", 2)) ||
                 strstr(cmt, "<__instrn_buffer>") != NULL;
    if (!to_buf) return RV_NONE;
    if (rd == 0 || (rd > 0 && (r->known >> rd & 1u))) { *word = rd > 0 ? r->val[rd] : 0; return RV_CONST; }
    return RV_DYNAMIC;
  }
  if (!strcmp(mn, "lui")) rv_set(r, rd, 1, (uint32_t)strtoul(a[1], NULL, 0) << 12, !strcmp(a[1], INSTRN_BUF_HI));
  else if (!strcmp(mn, "li")) rv_set(r, rd, 1, (uint32_t)strtol(a[1], NULL, 0), 0);
  else if (!strcmp(mn, "mv")) rv_set(r, rd, ks, vs, rs > 0 && (r->base >> rs & 1u));
  else if (!strcmp(mn, "addi")) {
    long imm = strtol(a[2], NULL, 0);
    rv_set(r, rd, ks, vs + (uint32_t)imm, imm == 0 && rs > 0 && (r->base >> rs & 1u));
  } else if (!(mn[0] == 's' && (mn[1] == 'b' || mn[1] == 'h') && !mn[2]) && mn[0] != 'b' && strncmp(mn, "fence", 5) &&
             strcmp(mn, "ret") && strcmp(mn, "j"))
    rv_set(r, rd, 0, 0, 0);   /* any other instruction that writes rd */
  return RV_NONE;
}

/* A branch target "00006b04 <.L12>:" (constants are forgotten there), or a function "<name>:"
 * (everything is). */
static void rv_label(rv *r, const char *ls, const char *le) {
  if (le - ls < 4 || le[-1] != ':') return;
  const char *lt = memchr(ls, '<', (size_t)(le - ls));
  if (!lt || le - lt < 4) return;
  if (lt[1] == '.' && lt[2] == 'L' && isdigit((unsigned char)lt[3])) r->known = 0;
  else if (lt[1] != '.') r->known = r->base = 0;
}

/* The dynamic pushes of a listing's text, each with the number of listed words before it. */
void scan_pushes(unsigned t, const char *text, size_t len) {
  thread_src *s = &g_src[t];
  const char *p = text, *end = text + len;
  uint32_t line = 0, k = 0, w = 0;
  rv r;
  char mn[32], ops[96], cmt[96];
  memset(&r, 0, sizeof r);
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end, *ls = p;
    p = nl ? nl + 1 : end;
    line++;
    while (k < s->nraw && s->raw_line[k] < line) k++;
    const char *hash = ls;
    while (hash < le && isspace((unsigned char)*hash)) hash++;
    if (hash < le && *hash == '#') {
      size_t n = (size_t)(le - hash);
      int op = named_sfpu(hash, le);
      if (op >= 0) {
        push_site *p2 = add_site(s, line, k);
        p2->named = p2->given = 1;
        p2->word = (uint32_t)op << 24;
        s->nnamed++;
        continue;
      }
      for (const char *q = hash; q + 12 <= hash + n; q++)
        if (!memcmp(q, "mmio-dynamic", 12)) { add_site(s, line, k); break; }
      continue;
    }
    rv_label(&r, ls, le);
    if (!objdump_insn(ls, le, mn, sizeof mn, ops, sizeof ops, cmt, sizeof cmt)) continue;
    int kind = riscv_push(&r, mn, ops, cmt, &w);
    if (kind == RV_NONE) continue;
    push_site *site = add_site(s, line, k);
    if (kind == RV_CONST) {   /* a constant word: listed, as a stream file's mmio-const line */
      site->given = site->constant = 1;
      site->word = w;
      s->nconst++;
    }
  }
}

/* --push FILE:LINE=WORD: the word a dynamic push at that line of a thread's listing pushes. 0, or
 * the exit status (2). */
int add_push(const char *arg) {
  const char *eq = strrchr(arg, '='), *colon;
  if (!eq) goto usage;
  colon = eq;
  while (colon > arg && colon[-1] != ':') colon--;
  if (colon == arg || colon == eq) goto usage;
  size_t fl = (size_t)(colon - 1 - arg);
  char *end;
  unsigned long line = strtoul(colon, &end, 10);
  if (end != eq || !line) goto usage;
  uint32_t w;
  tt_asm_error ae;
  const char *v = eq + 1;
  if (strlen(v) == 8 && strspn(v, "0123456789abcdefABCDEF") == 8) w = (uint32_t)strtoul(v, NULL, 16);
  else if (tt_asm_insn(v, strlen(v), &w, &ae) != 0) {
    fprintf(stderr, "ttrun: --push %s: the word '%s' is not an instruction (%s)\n", arg, v, ae.msg);
    return 2;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    thread_src *s = &g_src[t];
    if (!s->path || s->from_vec) continue;
    if (!(strlen(s->path) == fl && !strncmp(s->path, arg, fl)) &&
        !(strlen(base_name(s->path)) == fl && !strncmp(base_name(s->path), arg, fl)))
      continue;
    for (uint32_t i = 0; i < s->npush; i++)
      if (s->push[i].line == line && !s->push[i].named && !s->push[i].constant) {
        if (s->push[i].given) { fprintf(stderr, "ttrun: --push %s: line %lu given twice\n", arg, line); return 2; }
        s->push[i].given = 1;
        s->push[i].word = w;
        s->npush_given++;
        return 0;
      }
    fprintf(stderr, "ttrun: --push %s: line %lu of %s is not a dynamic push (%u in that file%s)\n", arg, line,
            s->path, s->npush - s->nnamed - s->nconst, s->npush > s->nnamed + s->nconst ? "; ttrun lists their lines" : "");
    return 2;
  }
  fprintf(stderr, "ttrun: --push %s: no thread listing is named %.*s\n", arg, (int)fl, arg);
  return 2;
usage:
  fprintf(stderr, "ttrun: --push needs FILE:LINE=WORD (a thread listing, the line of a dynamic push, "
          "the word: 8 hex digits or an instruction), not '%s'\n", arg);
  return 2;
}

/* ---- the expanders ---------------------------------------------------------------------------- */
typedef struct rx {          /* the Replay Expander of one thread (REPLAY.md) */
  uint32_t word[32], line[32];
  uint8_t known[32];         /* 0: a slot the listing never recorded (or recorded an unknown push) */
  uint32_t left, idx, line_rec;
  int exec;
} rx;

static void emit(thread_src *s, uint32_t w, uint32_t line, uint32_t via) {
  if (s->n >= TT_PROG_MAX) { s->overflow++; return; }
  s->word[s->n] = w;
  s->line[s->n] = line;
  s->via[s->n] = via;
  s->n++;
}

static void not_modelled(thread_src *s, uint32_t line, unsigned why) {
  s->nm = xrealloc(s->nm, (s->nnm + 1) * sizeof *s->nm);
  s->nm[s->nnm].line = line;
  s->nm[s->nnm].why = (uint8_t)why;
  s->nm[s->nnm].pos = s->n;
  s->nnm++;
}

/* REPLAY playback: Count (0 means 64) words from the buffer, from Index on, modulo 32. */
static void replay(thread_src *s, rx *r, uint32_t w, uint32_t line) {
  uint32_t index = (w >> 14) & 31u, count = (w >> 4) & 63u;
  if (!count) count = 64;
  s->replays++;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t k = (index + i) % 32u;
    if (r->known[k]) { emit(s, r->word[k], r->line[k], line); s->replayed++; }
    else not_modelled(s, line, NM_REPLAY_SLOT);
  }
}

/* One incoming word (known, or an unknown dynamic push) through the MOP and Replay Expanders. */
static void expand_one(thread_src *s, rx *r, uint32_t w, uint32_t line, int known, push_site *site) {
  uint32_t op = w >> 24;
  if (known && op == OP_MOP_CFG) { s->mop_cfg++; return; }   /* MaskHi for the next MOP */
  if (known && op == OP_MOP) { not_modelled(s, line, NM_MOP); return; }
  if (r->left) {                                  /* recording */
    uint32_t k = r->idx++ % 32u;
    r->word[k] = w;
    r->line[k] = line;
    r->known[k] = (uint8_t)known;
    r->left--;
    s->recorded++;
    if (!r->exec) { if (site) site->out = s->n; return; }
  } else if (known && op == OP_REPLAY) {
    if (w & 1u) {
      r->left = (w >> 4) & 63u ? (w >> 4) & 63u : 64u;
      r->idx = (w >> 14) & 31u;
      r->exec = (w >> 1) & 1u;
      r->line_rec = line;
      s->replays++;
    } else replay(s, r, w, line);
    return;
  }
  if (site) site->out = s->n;
  if (known) emit(s, w, line, 0);
}

static int cmp_site(const void *a, const void *b) {
  const push_site *x = a, *y = b;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The listing's words and its dynamic pushes, in line order, through the expanders into the
 * words the model runs (s->word, s->line, s->via). */
void expand_thread(unsigned t) {
  thread_src *s = &g_src[t];
  rx r;
  memset(&r, 0, sizeof r);
  if (!s->path || s->from_vec) return;
  if (s->npush) qsort(s->push, s->npush, sizeof *s->push, cmp_site);
  s->n = 0;
  s->word = xcalloc(TT_PROG_MAX, sizeof *s->word);
  s->line = xcalloc(TT_PROG_MAX, sizeof *s->line);
  s->via = xcalloc(TT_PROG_MAX, sizeof *s->via);
  uint32_t j = 0;
  for (uint32_t i = 0; i <= s->nraw; i++) {
    for (; j < s->npush && s->push[j].pos <= i; j++)
      expand_one(s, &r, s->push[j].word, s->push[j].line, s->push[j].given, &s->push[j]);
    if (i < s->nraw) expand_one(s, &r, s->raw_word[i], s->raw_line[i], 1, NULL);
  }
  if (r.left) s->rec_open = r.line_rec;
}

/* How many of thread t's unknown pushes (which & 1) and words not modelled (which & 2) lie at run
 * positions [from, to) (to = UINT32_MAX: to the end); their lines into buf. */
unsigned unseen_between(unsigned t, uint32_t from, uint32_t to, unsigned which, char *buf, size_t n) {
  const thread_src *s = &g_src[t];
  unsigned c = 0;
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < s->npush + s->nnm; i++) {
    int push = i < s->npush;
    if (push && s->push[i].given) continue;
    if (!(which & (push ? 1u : 2u))) continue;
    uint32_t pos = push ? s->push[i].out : s->nm[i - s->npush].pos;
    uint32_t line = push ? s->push[i].line : s->nm[i - s->npush].line;
    if (pos < from || pos >= to) continue;
    if (c++ < 8 && len < n) {
      int k = snprintf(buf + len, n - len, "%s%u%s", c > 1 ? ", " : "", line, push ? "" : " (MOP/REPLAY)");
      if (k > 0) len += (size_t)k;
    } else if (c == 9 && len < n) {
      int k = snprintf(buf + len, n - len, ", ...");
      if (k > 0) len += (size_t)k;
    }
  }
  return c;
}
