/* ambtool.c — witnesses of the documentation's ambiguities: search, minimise, publish.
 *
 *   ambtool search [--any] [--runs N] [--time S] [--exclude DIR]... [--out DIR] PATH...
 *       Run every input under PATH (directories recursively, sorted; .vec files as programs)
 *       through fuzz/ambiguity_diff, then up to N structured mutations of them (fixed seed,
 *       default 20000), until every knob value has a witness or S seconds (default 60) pass.
 *       Prints one line per knob value: where its first witness came from and when. Exit 0
 *       only when every knob value has one. With --out: minimise each witness into
 *       DIR/<name>.vec (a reproducer carrying `# witness: NAME`).
 *   ambtool collect OUTDIR KNOWN_DIR PATH...
 *       The same without mutations, for a campaign's corpus (fuzz/triage.sh): minimises into
 *       OUTDIR each witness whose name has no reproducer in KNOWN_DIR yet (every file under
 *       PATH is an input).
 *   ambtool minimize NAME IN OUT.vec
 *       Shrink IN to the smallest stream that still separates NAME's reading from the default.
 *   ambtool render [--check] REPRO_DIR PAGES_DIR VEC_DIR
 *       From the reproducers: re-minimise each (the minimiser's output is what is published;
 *       --check fails if it is not already minimal), then write PAGES_DIR/AMB-NN-slug.md per
 *       ambiguity, PAGES_DIR/README.md (the index) and, per reproducer, one .vec per reading in
 *       VEC_DIR that pins it with `knob:`. --check writes nothing and compares the bytes.
 *
 * The minimiser (amb_minimize) works on the predicate "the end states under the default and
 * under NAME's reading differ" (ambiguity_diff.c defines the end state), in this order, until
 * nothing changes: drop instructions; NOP masking (keeps the other threads' timing); cut a
 * prefix of the run into `init` lines (the state it left, under the default reading; only at a
 * point where that state is all architectural: no latch, no pending mutex hand-over and, in
 * cycle mode, every unit idle); drop NOPs; drop init lines; then field-granular: clear every
 * instruction field (and reserved bit) that is not needed. Every step is deterministic, so
 * the published reproducer is a pure function of the stored witness and the model. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "amb_diff.h"
#include "asm.h"
#include "vec.h"

/* ---- files (fz_files.c) ------------------------------------------------------------------- */
static const char *g_exclude[16];
static int g_all_files;
static unsigned g_nexclude;

/* Inputs: .vec files and extension-less corpus files (not sources or scripts beside them),
 * outside the --exclude directories. */
static int keep_input(const char *p, int is_dir) {
  for (unsigned i = 0; i < g_nexclude; i++) {
    size_t n = strlen(g_exclude[i]);
    if (strncmp(p, g_exclude[i], n) == 0 && (p[n] == 0 || p[n] == '/')) return 0;
  }
  if (is_dir || g_all_files) return 1;
  const char *base = strrchr(p, '/');
  base = base ? base + 1 : p;
  return fz_ends_with(base, ".vec") || !strchr(base, '.');
}

static char *read_all(const char *path, size_t *n) { return (char *)fz_read_file(path, n); }

static int load_prog(const char *path, fz_prog *p) {
  size_t n = 0;
  uint8_t *d = fz_read_file(path, &n);
  if (!d) return -1;
  fz_load_prog(path, d, n, p);
  free(d);
  return 0;
}

static int header_value(const char *d, const char *key, char *out, size_t cap) {
  return fz_header_value((const uint8_t *)d, strlen(d), key, out, cap);
}

/* ---- text buffer ------------------------------------------------------------------------------ */
typedef struct sb { char *b; size_t len, cap; } sb;
static void sbf(sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sbf(sb *s, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(s->b ? s->b + s->len : NULL, s->b ? s->cap - s->len : 0, fmt, ap);
    va_end(ap);
    if (r < 0) return;
    if (s->b && s->len + (size_t)r < s->cap) { s->len += (size_t)r; return; }
    s->cap = (s->cap ? s->cap : 4096) * 2 + (size_t)r;
    s->b = realloc(s->b, s->cap);
    if (!s->b) { perror("realloc"); exit(2); }
  }
}

/* ---- minimiser -------------------------------------------------------------------------------- */
static unsigned g_k, g_v, g_mode;
static int g_level;   /* the input's level: a step may not lose an architectural difference */
static unsigned long g_tries;
static int pred(const fz_prog *p) { g_tries++; return amb_separates(p, g_k, g_v, g_mode) >= g_level; }

static int prog_equal(const fz_prog *a, const fz_prog *b) {
  if (a->ninit != b->ninit || memcmp(a->knob, b->knob, sizeof a->knob) || a->budget != b->budget)
    return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (a->n[t] != b->n[t] || memcmp(a->w[t], b->w[t], 4u * a->n[t])) return 0;
  for (unsigned i = 0; i < a->ninit; i++)
    if (memcmp(&a->init[i].loc, &b->init[i].loc, sizeof a->init[i].loc) ||
        a->init[i].value != b->init[i].value)
      return 0;
  return 1;
}

static void drop_insn(fz_prog *q, unsigned t, uint32_t i) {
  memmove(&q->w[t][i], &q->w[t][i + 1], 4u * (q->n[t] - i - 1));
  q->n[t]--;
}

static int step_drop(fz_prog *p, int nops_only) {
  static fz_prog q;
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = p->n[t]; i-- > 0;) {
      if (nops_only && p->w[t][i] != FZ_NOP) continue;
      q = *p;
      drop_insn(&q, t, i);
      if (pred(&q)) { *p = q; changed = 1; }
    }
  return changed;
}

static int step_nop(fz_prog *p) {
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = p->n[t]; i-- > 0;) {
      uint32_t w = p->w[t][i];
      if (w == FZ_NOP) continue;
      p->w[t][i] = FZ_NOP;
      if (pred(p)) changed = 1;
      else p->w[t][i] = w;
    }
  return changed;
}

static int step_inits(fz_prog *p) {
  static fz_prog q;
  int changed = 0;
  for (uint32_t i = p->ninit; i-- > 0;) {
    q = *p;
    memmove(&q.init[i], &q.init[i + 1], sizeof q.init[0] * (q.ninit - i - 1));
    q.ninit--;
    if (pred(&q)) { *p = q; changed = 1; }
  }
  return changed;
}

/* Field-granular: clear each non-zero field, then the reserved bits, of every instruction. */
static int step_fields(fz_prog *p) {
  int changed = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      uint32_t w = p->w[t][i];
      tt_insn in;
      tt_decode(w, &in);
      uint32_t masks[20];
      unsigned nm = 0;
      if (in.form < TT_FORM_FOREIGN) {
        const tt_form_desc *fd = &tt_isa_forms[in.form];
        for (unsigned f = 0; f < fd->field_count && nm < 19; f++) {
          const tt_field_desc *fl = &tt_isa_fields[fd->field_first + f];
          masks[nm++] = (fl->width >= 32 ? 0xFFFFFFFFu : ((1u << fl->width) - 1u)) << fl->lsb;
        }
        masks[nm++] = in.reserved;
      } else {
        masks[nm++] = 0x00FFFFFFu;  /* outside the model: the whole payload */
      }
      for (unsigned m = 0; m < nm; m++) {
        uint32_t cur = p->w[t][i];
        if (!(cur & masks[m])) continue;
        p->w[t][i] = cur & ~masks[m];
        if (pred(p)) changed = 1;
        else p->w[t][i] = cur;
      }
    }
  return changed;
}

/* Prefix cut: the state after r steps under the default reading becomes init lines. */
static tt_state cut_st, cut_ref;
typedef struct cut_ctx { fz_prog *p; int overflow; } cut_ctx;
static void cut_cb(void *ctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  cut_ctx *c = ctx;
  (void)a;
  if (c->p->ninit >= FZ_MAX_INIT) { c->overflow = 1; return; }
  fz_init *in = &c->p->init[c->p->ninit];
  in->loc = *loc;
  in->value = b;
  if (fz_init_valid(&in->loc, &in->value)) c->p->ninit++;
  else c->overflow = 1;  /* a location init lines cannot set */
}

static int quiescent(const tt_state *st) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (st->c.thr[t].latch.op != TT_LATCH_NONE) return 0;
  for (unsigned i = 0; i < TT_MUTEX_SLOTS; i++)
    if (st->c.mutex_handoff[i] || (i >= 5 && st->c.mutex[i])) return 0;
  if (st->c.thcon_spinner || st->c.src_dirty) return 0;
  if (st->p.mode != TT_MODE_CYCLE) return 1;
  const tt_cyc *c = &st->c.cyc;
  if (c->thcon_owner && (c->thcon_spin || c->now < c->thcon_free_at)) return 0;
  if (c->nwb || c->src_flip_at[0] || c->src_flip_at[1] || c->src_owner[0] || c->src_owner[1]) return 0;
  for (unsigned k = 0; k < TT_CFGP_STAGE_COUNT; k++)
    if (c->cfgp[k].valid) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (c->c0_until[t] >= c->now || c->setc16_at[t] >= c->now) return 0;
    if (c->cfg_write_next[t] >= c->now) return 0;
    for (unsigned u = 0; u < TT_STUB_COUNT; u++)
      if (c->stub_busy_until[u][t] >= c->now) return 0;
  }
  return 1;
}

static int cut_at(const fz_prog *p, unsigned mode, uint64_t r, fz_prog *out) {
  fz_setup(&cut_st, p);
  for (unsigned j = 0; j < TT_KNOB_COUNT; j++) cut_st.p.knob[j] = 0;
  tt_set_mode(&cut_st, (tt_mode)mode);
  for (uint64_t s = 0; s < r; s++) tt_step(&cut_st);
  if (!quiescent(&cut_st)) return 0;
  uint32_t moved = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) moved += cut_st.c.thr[t].pc;
  if (!moved) return 0;
  fz_prog_clear(out);
  fz_setup(&cut_ref, out);
  for (unsigned j = 0; j < TT_KNOB_COUNT; j++) cut_ref.p.knob[j] = 0;
  cut_ctx c = {out, 0};
  tt_state_diff(&cut_ref, &cut_st, cut_cb, &c);
  if (c.overflow) return 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    uint32_t pc = cut_st.c.thr[t].pc;
    out->n[t] = p->n[t] - pc;
    memcpy(out->w[t], &p->w[t][pc], 4u * out->n[t]);
    /* fault records of the prefix cannot become init lines: the cut changes the end state
     * unless the prefix recorded none (the predicate decides) */
  }
  return 1;
}

static int step_cut(fz_prog *p, unsigned mode) {
  static fz_prog q;
  tt_outcome o = amb_run(&cut_st, p, mode, TT_KNOB_COUNT, 0);
  if (o == TT_OUT_BUDGET) return 0;
  uint64_t steps = cut_st.c.steps;
  for (uint64_t r = steps; r >= 1; r--)
    if (cut_at(p, mode, r, &q) && fz_total(&q) < fz_total(p) && pred(&q)) { *p = q; return 1; }
  return 0;
}

/* Minimise p for knob k = v in `mode`. Returns 0, or -1 if p does not separate the readings. */
static int amb_minimize(fz_prog *p, unsigned k, unsigned v, unsigned mode) {
  g_k = k;
  g_v = v;
  g_mode = mode;
  memset(p->knob, 0, sizeof p->knob);  /* the base is the default reading: knobs are noise */
  p->budget = 0;
  p->flags = 0;
  g_level = 1;
  if (!pred(p)) return -1;
  g_level = amb_separates(p, k, v, mode);
  for (unsigned round = 0; round < 16; round++) {
    int c = 0;
    c |= step_drop(p, 0);
    c |= step_nop(p);
    c |= step_cut(p, mode);
    c |= step_drop(p, 1);
    c |= step_inits(p);
    c |= step_fields(p);
    if (!c) break;
  }
  /* empty trailing threads are already gone; keep init lines in a canonical order */
  return 0;
}

/* ---- writing programs -------------------------------------------------------------------------- */
static void fmt_insn(uint32_t w, char *buf, size_t n) {
  tt_insn in;
  tt_decode(w, &in);
  if (in.form == TT_FORM_FOREIGN) {
    snprintf(buf, n, "%s%s (unit outside the model)", tt_insn_name(&in),
             (w & 0xFFFFFFu) ? "" : "");
    return;
  }
  if (in.form == TT_FORM_UNDEFINED) { snprintf(buf, n, "undefined opcode 0x%02X", (unsigned)(w >> 24)); return; }
  size_t len = (size_t)snprintf(buf, n, "%s", tt_isa_forms[in.form].name);
  const tt_form_desc *fd = &tt_isa_forms[in.form];
  for (unsigned f = 0; f < fd->field_count && len < n; f++) {
    const tt_field_desc *fl = &tt_isa_fields[fd->field_first + f];
    uint32_t val = (w >> fl->lsb) & (fl->width >= 32 ? 0xFFFFFFFFu : ((1u << fl->width) - 1u));
    len += (size_t)snprintf(buf + len, n - len, val < 10 ? " %s=%u" : " %s=0x%X", fl->name, (unsigned)val);
  }
  if (in.reserved && len < n) snprintf(buf + len, n - len, " reserved=0x%06X", (unsigned)in.reserved);
}

static const char *value_name(unsigned k, unsigned v, char *buf, size_t n) {
  const char *s = tt_knob_values(k);
  for (unsigned i = 0; i < v && *s; s++) i += *s == '|';
  size_t j = 0;
  while (s[j] && s[j] != '|' && j + 1 < n) { buf[j] = s[j]; j++; }
  buf[j] = 0;
  return buf;
}

static void write_init(sb *o, const fz_init *in, const char *prefix) {
  char loc[64];
  tt_loc_format(&in->loc, loc, sizeof loc);
  if (in->loc.kind == TT_LOC_MUTEX) {
    static const char *const who[4] = {"none", "t0", "t1", "t2"};
    sbf(o, "%sinit %s = %s\n", prefix, loc, who[in->value & 3u]);
  } else {
    sbf(o, "%sinit %s = 0x%X\n", prefix, loc, (unsigned)in->value);
  }
}

static void write_program(sb *o, const fz_prog *p) {
  char dis[160];
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      fmt_insn(p->w[t][i], dis, sizeof dis);
      sbf(o, "t%u: 0x%08X   # %s\n", t, (unsigned)p->w[t][i], dis);
    }
}

static int write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) { fprintf(stderr, "ambtool: cannot write %s: %s\n", path, strerror(errno)); return -1; }
  fwrite(text, 1, len, f);
  fclose(f);
  return 0;
}

static void reproducer_text(sb *o, const fz_prog *p, unsigned k, unsigned v, unsigned mode) {
  char val[48], def[48];
  sbf(o, "# Witness of an ambiguity, kept by fuzz/ambtool (fuzz/ambiguity_diff.c): this stream ends in\n"
         "# a different state under %s=%s than under the default reading %s=%s. Replayed by\n"
         "# `make test` (it must keep showing the difference); published by `make reports-ambiguities`.\n",
      tt_knob_name(k), value_name(k, v, val, sizeof val), tt_knob_name(k), value_name(k, 0, def, sizeof def));
  sbf(o, "# target: ambiguity_diff\n# witness: %s\n", amb_witness_name(k, v));
  sbf(o, "name: witness %s\nmode: %s\n", amb_witness_name(k, v), mode == TT_MODE_CYCLE ? "cycle" : "func");
  for (uint32_t i = 0; i < p->ninit; i++) write_init(o, &p->init[i], "");
  write_program(o, p);
}

/* ---- search --------------------------------------------------------------------------------- */
typedef struct found {
  int have, level;                 /* best level so far, its input and mode */
  unsigned mode;
  fz_prog *p;
  char src[256];
  unsigned long mut;
  double secs;
  fz_prog *at[AMB_LEVEL_ARCH + 1]; /* the first input of each level (a smaller fallback) */
  unsigned at_mode[AMB_LEVEL_ARCH + 1];
} found;
#define AMB_SIZE_GOAL 8u           /* instructions a published reproducer should not exceed */
static found g_found[TT_KNOB_COUNT][AMB_MAX_VALUES];

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned total_values(void) {
  unsigned n = 0;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) n += tt_knob_value_count(k) - 1;
  return n;
}

/* Keep p for every knob value it is a witness of, unless one at least as strong is kept
 * (architectural beats cycle count). Returns how many knob values became architectural. */
static unsigned g_have, g_arch;
static unsigned note(const fz_prog *p, const char *src, unsigned long mut, double secs) {
  static uint8_t lvs[TT_KNOB_COUNT][AMB_MAX_VALUES], md[TT_KNOB_COUNT][AMB_MAX_VALUES];
  unsigned fresh = 0;
  if (!amb_witnesses(p, lvs, md)) return 0;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 1; v < AMB_MAX_VALUES; v++) {
      found *f = &g_found[k][v];
      int lv = lvs[k][v];
      if (lv && !f->at[lv]) {
        f->at[lv] = malloc(sizeof *p);
        *f->at[lv] = *p;
        f->at_mode[lv] = md[k][v];
      }
      if (lv <= f->level) continue;
      g_have += !f->have;
      g_arch += lv == AMB_LEVEL_ARCH;
      f->have = 1;
      f->level = lv;
      f->mode = md[k][v];
      if (!f->p) f->p = malloc(sizeof *f->p);
      *f->p = *p;
      snprintf(f->src, sizeof f->src, "%s", src);
      f->mut = mut;
      f->secs = secs;
      fresh++;
    }
  return fresh;
}

static int write_reproducer(const char *dir, const fz_prog *p0, unsigned k, unsigned v, unsigned mode,
                            const char *suffix, unsigned *size) {
  static fz_prog p;
  p = *p0;
  unsigned before = fz_total(&p);
  g_tries = 0;
  if (amb_minimize(&p, k, v, mode) != 0) { fprintf(stderr, "ambtool: %s: input does not separate\n", amb_witness_name(k, v)); return -1; }
  sb o = {0};
  reproducer_text(&o, &p, k, v, mode);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s%s.vec", dir, amb_witness_name(k, v), suffix);
  if (size) *size = fz_total(&p);
  int quiet = 0;
  if (!quiet)
    printf("  %-44s %3u -> %u instructions (%lu runs)\n", amb_witness_name(k, v), before, fz_total(&p), g_tries);
  int r = write_file(path, o.b, o.len);
  free(o.b);
  return r;
}

/* The reproducer of the strongest witness; when it needs more than AMB_SIZE_GOAL instructions,
 * also the smallest one of a weaker level that does not (suffix .small). */
static int publish(const char *dir, const found *f, unsigned k, unsigned v) {
  unsigned size = 0;
  if (write_reproducer(dir, f->p, k, v, f->mode, "", &size) != 0) return -1;
  for (int lv = f->level - 1; size > AMB_SIZE_GOAL && lv >= 1; lv--) {
    if (!f->at[lv]) continue;
    unsigned s2 = 0;
    if (write_reproducer(dir, f->at[lv], k, v, f->at_mode[lv], ".small", &s2) != 0) return -1;
    if (s2 <= AMB_SIZE_GOAL) break;
  }
  return 0;
}

/* Stop once every knob value has a witness (any: any level; else: an architectural one). */
static int search(unsigned long runs, double limit, const char *out, int any, int argc, char **argv) {
  fz_paths l = {0};
  for (int i = 0; i < argc; i++) fz_paths_collect(&l, argv[i], keep_input);
  fz_prog *seeds = malloc((l.n + 1) * sizeof *seeds);
  size_t ns = 0;
  unsigned want = total_values();
#define DONE_ (any ? g_have >= want : g_arch >= want)
  double t0 = now_s();
  for (size_t i = 0; i < l.n; i++) {
    if (load_prog(l.path[i], &seeds[ns]) != 0) continue;
    if (!DONE_) note(&seeds[ns], l.path[i], 0, now_s() - t0);
    ns++;
  }
  static uint8_t buf[FZ_MAX_INPUT];
  static fz_prog q;
  uint64_t rng = 0x5EED;
  unsigned long r = 0;
  for (; r < runs && !DONE_ && ns; r++) {
    if ((r & 63) == 0 && now_s() - t0 > limit) break;
    size_t j = (size_t)(fz_rand(&rng) % ns);
    size_t n = fz_prog_encode(&seeds[j], buf, sizeof buf);
    unsigned m = 1 + (unsigned)(fz_rand(&rng) % 4);
    for (unsigned s = 0; s < m; s++) n = fz_mutate(buf, n, sizeof buf, (unsigned)fz_rand(&rng));
    fz_prog_decode(buf, n, &q);
    char src[300];
    snprintf(src, sizeof src, "mutation of %s", l.path[j]);
    note(&q, src, r + 1, now_s() - t0);
  }
#undef DONE_
  printf("ambtool search: %zu seeds, %lu mutations, %.1f s: %u of %u knob values have a witness, "
         "%u an architectural one\n", ns, r, now_s() - t0, g_have, want, g_arch);
  printf("| witness | differs in | found after | seconds | from |\n|---|---|---:|---:|---|\n");
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 1; v < tt_knob_value_count(k); v++) {
      found *f = &g_found[k][v];
      if (f->have)
        printf("| %s | %s | %lu mutations | %.2f | %s |\n", amb_witness_name(k, v),
               amb_level_name(f->level), f->mut, f->secs, f->src);
      else printf("| %s | NOT FOUND | - | - | - |\n", amb_witness_name(k, v));
    }
  unsigned have = g_have;
  int bad = 0;
  if (out)
    for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
      for (unsigned v = 1; v < tt_knob_value_count(k); v++)
        if (g_found[k][v].have) bad |= publish(out, &g_found[k][v], k, v) != 0;
  return have == want && !bad ? 0 : 1;
}

static int collect_cmd(const char *outdir, const char *known_dir, int argc, char **argv) {
  fz_paths l = {0};
  static fz_prog p;
  g_all_files = 1;  /* campaign corpora: every file is an input (AFL++ names contain dots) */
  for (int i = 0; i < argc; i++) fz_paths_collect(&l, argv[i], keep_input);
  for (size_t i = 0; i < l.n; i++)
    if (load_prog(l.path[i], &p) == 0) note(&p, l.path[i], 0, 0);
  unsigned seen = 0, fresh = 0;
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++)
    for (unsigned v = 1; v < tt_knob_value_count(k); v++) {
      if (!g_found[k][v].have) continue;
      seen++;
      char known[4096];
      snprintf(known, sizeof known, "%s/%s.vec", known_dir, amb_witness_name(k, v));
      struct stat sbuf;
      if (stat(known, &sbuf) == 0) continue;
      fresh++;
      publish(outdir, &g_found[k][v], k, v);
    }
  printf("ambtool collect: %zu inputs: %u witnesses (knob values), %u without a kept reproducer\n",
         l.n, seen, fresh);
  return 0;
}

/* ---- rendering -------------------------------------------------------------------------------- */
typedef struct diffrow { char loc[64]; uint32_t a, b; unsigned width; } diffrow;
typedef struct diffs { diffrow r[256]; unsigned n, more; } diffs;
static void diff_cb(void *ctx, const tt_loc *loc, uint32_t a, uint32_t b) {
  diffs *d = ctx;
  if (d->n >= 256) { d->more++; return; }
  tt_loc_format(loc, d->r[d->n].loc, sizeof d->r[d->n].loc);
  d->r[d->n].a = a;
  d->r[d->n].b = b;
  d->r[d->n].width = tt_loc_width(loc);
  d->n++;
}

/* The end states of a reproducer under both readings, as the page shows them. */
typedef struct ends {
  unsigned mode;
  tt_outcome o[2];
  uint64_t cycles[2];
  uint32_t pc[2][TT_THREAD_COUNT];
  uint8_t done[2][TT_THREAD_COUNT], blocked[2][TT_THREAD_COUNT], fault[2][TT_THREAD_COUNT];
  diffs d;
} ends;
static tt_state r_st[2];

static void run_both(const fz_prog *p, unsigned k, unsigned v, unsigned mode, ends *e) {
  memset(e, 0, sizeof *e);
  e->mode = mode;
  for (unsigned s = 0; s < 2; s++) {
    e->o[s] = amb_run(&r_st[s], p, e->mode, s ? k : TT_KNOB_COUNT, s ? v : 0);
    e->cycles[s] = e->mode == TT_MODE_CYCLE && e->o[s] == TT_OUT_DONE ? tt_cycle_count(&r_st[s]) : 0;
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      e->pc[s][t] = r_st[s].c.thr[t].pc;
      e->done[s][t] = (uint8_t)tt_thread_done(&r_st[s], t);
      e->blocked[s][t] = (uint8_t)tt_thread_blocked(&r_st[s], t);
      e->fault[s][t] = r_st[s].c.thr[t].fault_class;
    }
  }
  tt_state_diff(&r_st[0], &r_st[1], diff_cb, &e->d);
  tt_reset(&r_st[0]);
  tt_reset(&r_st[1]);
}

static const char *thread_state(const ends *e, unsigned s, unsigned t, const fz_prog *p, char *buf, size_t n) {
  if (e->done[s][t]) snprintf(buf, n, "done");
  else if (e->blocked[s][t]) snprintf(buf, n, "blocked at instruction %u", (unsigned)e->pc[s][t]);
  else snprintf(buf, n, "stopped at instruction %u of %u", (unsigned)e->pc[s][t], (unsigned)p->n[t]);
  return buf;
}

static void fmt_val(char *buf, size_t n, const diffrow *r, uint32_t v) {
  if (strncmp(r->loc, "mutex", 5) == 0) {
    static const char *const who[4] = {"none", "t0", "t1", "t2"};
    snprintf(buf, n, "%s", who[v & 3u]);
  } else {
    snprintf(buf, n, "0x%X", (unsigned)v);
  }
}

/* The pinned-reading vector of a reproducer: reading s (0 default, 1 the knob value). */
static void reading_vec(sb *o, const fz_prog *p, unsigned k, unsigned v, unsigned s, const ends *e,
                        const char *repro_name) {
  char val[48], other[48];
  unsigned pin = s ? v : 0;
  const tt_amb_reading *rd = tt_amb_reading_of(k, pin);
  unsigned id = amb_witness_amb(k, v);
  value_name(k, pin, val, sizeof val);
  value_name(k, s ? 0 : v, other, sizeof other);
  sbf(o, "# [AMB-%u] pins the reading %s=%s on the minimised witness %s (%s=%s ends\n"
         "# differently). Generated by `make reports-ambiguities` from\n"
         "# corpus/reproducers/ambiguity_diff/%s.vec; do not edit.\n",
      id, tt_knob_name(k), val, amb_witness_name(k, v), tt_knob_name(k), other, repro_name);
  sbf(o, "name: [AMB-%u] %s=%s%s\n", id, tt_knob_name(k), val, s ? "" : " (default)");
  if (rd) {
    /* the first page of the reading, as a ref (up to its first comma or parenthesis) */
    char ref[TT_VEC_TEXT_MAX];
    size_t j = 0;
    while (rd->pages[j] && rd->pages[j] != ',' && rd->pages[j] != ';' && rd->pages[j] != '(' && j + 1 < sizeof ref) { ref[j] = rd->pages[j]; j++; }
    while (j && ref[j - 1] == ' ') j--;
    ref[j] = 0;
    sbf(o, "ref: %s\n", ref);
  }
  sbf(o, "mode: %s\nknob: %s=%s\n", e->mode == TT_MODE_CYCLE ? "cycle" : "func", tt_knob_name(k), val);
  for (uint32_t i = 0; i < p->ninit; i++) write_init(o, &p->init[i], "");
  write_program(o, p);
  for (unsigned i = 0; i < e->d.n; i++) {
    char b[32];
    fmt_val(b, sizeof b, &e->d.r[i], s ? e->d.r[i].b : e->d.r[i].a);
    sbf(o, "expect %s = %s\n", e->d.r[i].loc, b);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!p->n[t]) continue;
    if (e->done[s][t]) sbf(o, "expect t%u done\n", t);
    else if (e->blocked[s][t]) sbf(o, "expect t%u blocked\n", t);
    sbf(o, "expect t%u fault %s\n", t, tt_fault_class_name(e->fault[s][t]));
  }
  if (e->o[s] == TT_OUT_DEADLOCK) sbf(o, "expect deadlock\n");
  if (e->mode == TT_MODE_CYCLE && e->o[s] == TT_OUT_DONE)
    sbf(o, "expect cycles = %llu\n", (unsigned long long)e->cycles[s]);
}

/* Check a generated vector: it passes with its knob and fails under the other reading. */
static tt_state v_st, v_init;
static tt_vec g_vec;
static tt_vec_result g_res;
static int vec_pins(const char *text, unsigned k, unsigned other_value, unsigned mode) {
  tt_vec_error err;
  if (tt_vec_parse(text, strlen(text), &g_vec, &err) != 0) {
    fprintf(stderr, "ambtool: generated vector does not parse: line %u: %s\n", err.line, err.msg);
    return 0;
  }
  if (tt_vec_run(&v_st, &v_init, &g_vec, (tt_mode)mode, &g_res) != TT_VEC_PASS) return 0;
  char val[48];
  value_name(k, other_value, val, sizeof val);
  snprintf(g_vec.knobs[0].value, sizeof g_vec.knobs[0].value, "%s", val);
  return tt_vec_run(&v_st, &v_init, &g_vec, (tt_mode)mode, &g_res) == TT_VEC_FAIL;
}

typedef struct repro { fz_prog p; unsigned k, v, size, real, mode; int level; char file[256]; ends e; } repro;

static unsigned real_count(const fz_prog *p) {
  unsigned n = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) n += p->w[t][i] != FZ_NOP;
  return n;
}

static unsigned threads_used(const fz_prog *p) {
  unsigned n = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) n += p->n[t] != 0;
  return n;
}

static void page_reproducer(sb *o, const repro *r) {
  const fz_prog *p = &r->p;
  const ends *e = &r->e;
  char val[48], def[48], dis[160];
  value_name(r->k, r->v, val, sizeof val);
  value_name(r->k, 0, def, sizeof def);
  const char *vs = fz_ends_with(r->file, ".small.vec") ? "-small" : "";
  sbf(o, "### `%s=%s` against the default `%s=%s`%s\n\n", tt_knob_name(r->k), val, tt_knob_name(r->k), def,
      vs[0] ? " (a smaller, weaker witness)" : "");
  if (vs[0])
    sbf(o, "The strongest witness above needs more than %u instructions; this one separates the "
           "readings with fewer, in a weaker way.\n\n", AMB_SIZE_GOAL);
  sbf(o, "Witness `%s`: %u instruction%s (%u not NOP) in %s mode; the minimiser's output for the "
         "kept witness (`corpus/reproducers/ambiguity_diff/%s`).\n\n",
      amb_witness_name(r->k, r->v), r->size, r->size == 1 ? "" : "s", r->real,
      e->mode == TT_MODE_CYCLE ? "cycle" : "functional", r->file);
  if (r->level == AMB_LEVEL_FAULTS)
    sbf(o, "The readings differ only in the model's record of the instruction (its fault class: "
           "what `expect tN fault` checks); the architectural state and the timing are the same.\n\n");
  else if (r->level == AMB_LEVEL_CYCLES)
    sbf(o, "The readings differ only in when the run finishes (the cycle count); no stream the "
           "search found makes the architectural state differ.\n\n");
  sbf(o, "**Initial state** (everything else is the reset state):%s\n\n", p->ninit ? "" : " reset");
  if (p->ninit) {
    sbf(o, "```\n");
    for (uint32_t i = 0; i < p->ninit; i++) write_init(o, &p->init[i], "");
    sbf(o, "```\n\n");
  }
  if (threads_used(p) > 1) {
    /* litmus style: the threads side by side */
    uint32_t rows = 0;
    sbf(o, "**Threads** (side by side; each runs its column top to bottom):\n\n|");
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      if (p->n[t]) sbf(o, " T%u |", t);
      if (p->n[t] > rows) rows = p->n[t];
    }
    sbf(o, "\n|");
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) if (p->n[t]) sbf(o, "---|");
    sbf(o, "\n");
    for (uint32_t i = 0; i < rows; i++) {
      sbf(o, "|");
      for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
        if (!p->n[t]) continue;
        if (i < p->n[t]) {
          fmt_insn(p->w[t][i], dis, sizeof dis);
          sbf(o, " `0x%08X` %s |", (unsigned)p->w[t][i], dis);
        } else {
          sbf(o, " |");
        }
      }
      sbf(o, "\n");
    }
    sbf(o, "\n");
  }
  sbf(o, "**Stream** (hex word, then the instruction with its ISA field names):\n\n```\n");
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      fmt_insn(p->w[t][i], dis, sizeof dis);
      sbf(o, "t%u[%u]  0x%08X  %s\n", t, (unsigned)i, (unsigned)p->w[t][i], dis);
    }
  sbf(o, "```\n\n");
  sbf(o, "**End states** (only what differs):\n\n| | `%s=%s` (default) | `%s=%s` |\n|---|---|---|\n",
      tt_knob_name(r->k), def, tt_knob_name(r->k), val);
  char a[64], b[64];
  for (unsigned i = 0; i < e->d.n; i++) {
    fmt_val(a, sizeof a, &e->d.r[i], e->d.r[i].a);
    fmt_val(b, sizeof b, &e->d.r[i], e->d.r[i].b);
    sbf(o, "| `%s` | %s | %s |\n", e->d.r[i].loc, a, b);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!p->n[t]) continue;
    thread_state(e, 0, t, p, a, sizeof a);
    thread_state(e, 1, t, p, b, sizeof b);
    if (strcmp(a, b)) sbf(o, "| t%u | %s | %s |\n", t, a, b);
    if (e->fault[0][t] != e->fault[1][t])
      sbf(o, "| t%u first fault | %s | %s |\n", t, tt_fault_class_name(e->fault[0][t]),
          tt_fault_class_name(e->fault[1][t]));
  }
  if (e->o[0] != e->o[1])
    sbf(o, "| run | %s | %s |\n", e->o[0] == TT_OUT_DONE ? "done" : "deadlock",
        e->o[1] == TT_OUT_DONE ? "done" : "deadlock");
  if (e->mode == TT_MODE_CYCLE && e->cycles[0] != e->cycles[1])
    sbf(o, "| cycles | %llu | %llu |\n", (unsigned long long)e->cycles[0], (unsigned long long)e->cycles[1]);
  sbf(o, "\n");
  if (threads_used(p) > 1) {
    /* the litmus condition: the alternative reading's outcome, which the default forbids */
    sbf(o, "**Final-state condition** `");
    int first = 1;
    for (unsigned i = 0; i < e->d.n; i++) {
      fmt_val(b, sizeof b, &e->d.r[i], e->d.r[i].b);
      sbf(o, "%s%s == %s", first ? "" : " && ", e->d.r[i].loc, b);
      first = 0;
    }
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      if (p->n[t] && e->done[0][t] != e->done[1][t]) {
        sbf(o, "%st%u %s", first ? "" : " && ", t, e->done[1][t] ? "done" : "not done");
        first = 0;
      }
    if (e->mode == TT_MODE_CYCLE && e->cycles[0] != e->cycles[1])
      sbf(o, "%scycles == %llu", first ? "" : " && ", (unsigned long long)e->cycles[1]);
    sbf(o, "`: allowed by `%s=%s`, not by the default `%s=%s`.\n\n", tt_knob_name(r->k), val,
        tt_knob_name(r->k), def);
  }
  sbf(o, "Vectors: [`%s=%s`](../../conformance/ambiguities/AMB-%02u-%s-%s%s.vec), "
         "[`%s=%s`](../../conformance/ambiguities/AMB-%02u-%s-%s-vs-%s%s.vec).\n\n",
      tt_knob_name(r->k), val, amb_witness_amb(r->k, r->v), tt_knob_name(r->k), val, vs,
      tt_knob_name(r->k), def, amb_witness_amb(r->k, r->v), tt_knob_name(r->k), def, val, vs);
}

typedef struct outfile { char path[4096]; sb text; } outfile;
static outfile *g_out;
static size_t g_nout;
static outfile *out_new(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static outfile *out_new(const char *fmt, ...) {
  g_out = realloc(g_out, (g_nout + 1) * sizeof *g_out);
  outfile *f = &g_out[g_nout++];
  memset(f, 0, sizeof *f);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->path, sizeof f->path, fmt, ap);
  va_end(ap);
  return f;
}

static int render(int check, const char *repro_dir, const char *pages, const char *vecdir) {
  fz_paths l = {0};
  fz_paths_collect(&l, repro_dir, keep_input);
  repro *rs = calloc(l.n + 1, sizeof *rs);
  size_t nr = 0;
  int bad = 0;
  tt_init(&v_st);
  tt_init(&v_init);
  tt_init(&r_st[0]);
  tt_init(&r_st[1]);
  for (size_t i = 0; i < l.n; i++) {
    if (!fz_ends_with(l.path[i], ".vec")) continue;
    size_t n = 0;
    char *d = read_all(l.path[i], &n);
    char name[128];
    unsigned k, v;
    if (!d || !header_value(d, "witness", name, sizeof name) || amb_parse_name(name, &k, &v) != 0) {
      fprintf(stderr, "ambtool: %s: no known `# witness:` line\n", l.path[i]);
      bad = 1;
      free(d);
      continue;
    }
    repro *r = &rs[nr];
    if (fz_prog_from_vec(d, n, &r->p) != 0) { fprintf(stderr, "ambtool: %s: does not parse\n", l.path[i]); bad = 1; free(d); continue; }
    r->mode = strstr(d, "\nmode: cycle\n") ? TT_MODE_CYCLE : TT_MODE_FUNC;
    free(d);
    static fz_prog m;
    m = r->p;
    g_tries = 0;
    if (amb_minimize(&m, k, v, r->mode) != 0) {
      fprintf(stderr, "ambtool: %s: no longer separates the readings (run `make amb-witnesses`)\n", l.path[i]);
      bad = 1;
      continue;
    }
    const char *base = strrchr(l.path[i], '/');
    snprintf(r->file, sizeof r->file, "%s", base ? base + 1 : l.path[i]);
    if (!prog_equal(&m, &r->p)) {
      if (check) {
        fprintf(stderr, "ambtool: %s: not the minimiser's output (%u -> %u instructions)\n", l.path[i],
                fz_total(&r->p), fz_total(&m));
        bad = 1;
      } else {  /* publish the minimiser's output: rewrite the reproducer too */
        sb o = {0};
        reproducer_text(&o, &m, k, v, r->mode);
        write_file(l.path[i], o.b, o.len);
        free(o.b);
      }
      r->p = m;
    }
    r->k = k;
    r->v = v;
    r->size = fz_total(&r->p);
    r->real = real_count(&r->p);
    r->level = amb_separates(&r->p, k, v, r->mode);
    run_both(&r->p, k, v, r->mode, &r->e);
    nr++;
  }
  /* per reproducer: one vector per reading */
  for (size_t i = 0; i < nr; i++) {
    repro *r = &rs[i];
    char val[48], def[48];
    value_name(r->k, r->v, val, sizeof val);
    value_name(r->k, 0, def, sizeof def);
    unsigned id = amb_witness_amb(r->k, r->v);
    const char *vs = fz_ends_with(r->file, ".small.vec") ? "-small" : "";
    for (unsigned s = 0; s < 2; s++) {
      outfile *f = s ? out_new("%s/AMB-%02u-%s-%s%s.vec", vecdir, id, tt_knob_name(r->k), val, vs)
                     : out_new("%s/AMB-%02u-%s-%s-vs-%s%s.vec", vecdir, id, tt_knob_name(r->k), def, val, vs);
      char rn[256];
      snprintf(rn, sizeof rn, "%s", amb_witness_name(r->k, r->v));
      reading_vec(&f->text, &r->p, r->k, r->v, s, &r->e, rn);
      if (!vec_pins(f->text.b, r->k, s ? 0 : r->v, r->e.mode)) {
        fprintf(stderr, "ambtool: %s does not pin its reading (passes under the other one, or fails)\n", f->path);
        bad = 1;
      }
    }
  }
  /* pages */
  outfile *idx = out_new("%s/README.md", pages);
  sb *x = &idx->text;
  sbf(x, "# Spec ambiguities: minimised reproducers\n\n"
         "Generated by `make reports-ambiguities` (fuzz/ambtool.c) from the registry "
         "`model/ambiguities.def` and the kept witnesses in `corpus/reproducers/ambiguity_diff/`; "
         "do not edit. One page per ambiguity: the question, the readings with the pages they "
         "rest on, the minimised reproducer with the end state under each reading, the model's "
         "default and why. Next to each reproducer, `conformance/ambiguities/` holds one vector per "
         "reading that pins it with `knob:` (`make test` runs them).\n\n"
         "A witness is an input whose end state (architectural locations, each thread's progress "
         "and first fault class, the outcome, and in cycle mode the cycle count) differs between the "
         "default reading and one other reading, every other knob at its default "
         "(fuzz/ambiguity_diff.c). Size: instructions of the smallest reproducer of the "
         "ambiguity (NOPs that keep the threads' timing included).\n\n"
         "What differs: `state` when some reproducer of the ambiguity changes the architectural "
         "state or a thread's progress, `cycles` when the readings only finish at different cycles, "
         "`fault record` when only the model's record of the instruction differs.\n\n"
         "| id | question | default | reproducer size | what differs | observable in func / cycle | page |\n"
         "|---|---|---|---:|---|---|---|\n");
  unsigned n_obs = 0, n_pages = 0, n_none = 0;
  for (unsigned ai = 0; ai < tt_amb_count(); ai++) {
    const tt_amb *a = tt_amb_get(ai);
    outfile *pf = out_new("%s/AMB-%02u-%s.md", pages, a->id, a->slug);
    sb *o = &pf->text;
    n_pages++;
    unsigned best = 0, nrep = 0;
    int strongest = 0;
    for (size_t i = 0; i < nr; i++)
      if (amb_witness_amb(rs[i].k, rs[i].v) == a->id) {
        nrep++;
        if (!best || rs[i].size < best) best = rs[i].size;
        if (rs[i].level > strongest) strongest = rs[i].level;
      }
    /* default text: the knob value names of the default readings */
    char defs[256] = "";
    size_t dl = 0;
    for (unsigned ri = 0; ri < tt_amb_reading_count(); ri++) {
      const tt_amb_reading *rd = tt_amb_reading_get(ri);
      if (rd->amb != a->id || !rd->knob[0]) continue;
      int kk = tt_knob_by_name(rd->knob);
      if (kk < 0 || tt_knob_value_index((unsigned)kk, rd->value) != 0) continue;
      dl += (size_t)snprintf(defs + dl, sizeof defs - dl, "%s`%s=%s`", dl ? ", " : "", rd->knob, rd->value);
    }
    int none = strcmp(a->modes, "none") == 0;
    n_none += (unsigned)none;
    n_obs += (unsigned)!none;
    char size[32];
    if (none) snprintf(size, sizeof size, "—");
    else if (nrep) snprintf(size, sizeof size, "%u", best);
    else snprintf(size, sizeof size, "missing");
    sbf(x, "| AMB-%u | %s | %s | %s | %s | %s | [AMB-%02u-%s.md](AMB-%02u-%s.md) |\n", a->id, a->question,
        none ? "(no knob)" : defs, size,
        none || !nrep ? "—" : strongest == AMB_LEVEL_ARCH ? "state" : strongest == AMB_LEVEL_CYCLES ? "cycles" : "fault record",
        none ? "neither" : strcmp(a->modes, "cycle") == 0 ? "cycle" : "func, cycle",
        a->id, a->slug, a->id, a->slug);
    if (!none && !nrep) {
      fprintf(stderr, "ambtool: AMB-%u has no kept witness\n", a->id);
      bad = 1;
    }
    sbf(o, "# AMB-%u: %s\n\n", a->id, a->question);
    sbf(o, "Generated by `make reports-ambiguities` from `model/ambiguities.def` and the kept "
           "witnesses; do not edit. Index: [README.md](README.md).\n\n");
    if (none) sbf(o, "**Observable:** no instruction stream in this model can tell the readings apart.\n\n");
    else sbf(o, "**Observable in:** %s mode%s.\n\n", strcmp(a->modes, "cycle") == 0 ? "cycle" : "functional and cycle",
             strcmp(a->modes, "cycle") == 0 ? " (a timing question: functional mode has no time)" : "");
    sbf(o, "## Readings\n\n| reading | what it says | rests on |\n|---|---|---|\n");
    for (unsigned ri = 0; ri < tt_amb_reading_count(); ri++) {
      const tt_amb_reading *rd = tt_amb_reading_get(ri);
      if (rd->amb != a->id) continue;
      int kk = rd->knob[0] ? tt_knob_by_name(rd->knob) : -1;
      int isdef = kk >= 0 && tt_knob_value_index((unsigned)kk, rd->value) == 0;
      if (rd->knob[0]) sbf(o, "| `%s=%s`%s | %s | %s |\n", rd->knob, rd->value, isdef ? " (default)" : "", rd->text, rd->pages);
      else sbf(o, "| %s | %s | %s |\n", rd->value, rd->text, rd->pages);
    }
    sbf(o, "\nPages are in `tenstorrent/tt-isa-documentation` unless another repository is named; "
           "SEED-n are third-party emulator chapters the spec digest compares.\n\n");
    sbf(o, "## The model's default\n\n%s\n\n", a->why_default);
    if (a->models[0]) sbf(o, "## Who follows which reading\n\n%s\n\n", a->models);
    if (none) {
      sbf(o, "## Why no stream separates the readings\n\n%s\n", a->unobservable);
      continue;
    }
    sbf(o, "## Reproducers\n\n");
    for (size_t i = 0; i < nr; i++)
      if (amb_witness_amb(rs[i].k, rs[i].v) == a->id) page_reproducer(o, &rs[i]);
    o->len--;  /* one trailing newline */
  }
  sbf(x, "\n%u ambiguities: %u observable by an instruction stream (each with a knob per reading "
         "and a minimised reproducer), %u not (their pages say why). %zu kept witnesses, %zu "
         "pinned-reading vectors.\n", n_pages, n_obs, n_none, nr, 2 * nr);
  /* write or compare */
  for (size_t i = 0; i < g_nout; i++) {
    outfile *f = &g_out[i];
    if (check) {
      size_t n = 0;
      char *have = read_all(f->path, &n);
      if (!have || n != f->text.len || memcmp(have, f->text.b, n) != 0) {
        fprintf(stderr, "ambtool: %s differs from what `make reports-ambiguities` generates\n", f->path);
        bad = 1;
      }
      free(have);
    } else if (write_file(f->path, f->text.b, f->text.len) != 0) {
      bad = 1;
    }
  }
  /* nothing stale: every AMB-* file in the two directories is one this run generates */
  const char *dirs[2] = {pages, vecdir};
  for (unsigned di = 0; di < 2; di++) {
    DIR *dd = opendir(dirs[di]);
    struct dirent *de;
    while (dd && (de = readdir(dd))) {
      if (strncmp(de->d_name, "AMB-", 4) != 0) continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dirs[di], de->d_name);
      int known = 0;
      for (size_t j = 0; j < g_nout && !known; j++) known = strcmp(path, g_out[j].path) == 0;
      if (known) continue;
      if (check) { fprintf(stderr, "ambtool: %s is not generated any more\n", path); bad = 1; }
      else remove(path);
    }
    if (dd) closedir(dd);
  }
  printf("ambtool render: %zu witnesses, %u pages + index, %zu vectors%s%s\n", nr, n_pages, 2 * nr,
         check ? ": compared with the committed files" : ": written", bad ? " (PROBLEMS above)" : "");
  return bad;
}

/* ---- main ------------------------------------------------------------------------------------- */
static void usage(void) {
  fprintf(stderr,
          "usage: ambtool search [--any] [--runs N] [--time S] [--exclude DIR]... [--out DIR] PATH...\n"
          "       ambtool collect OUTDIR KNOWN_DIR PATH...\n"
          "       ambtool minimize NAME IN OUT.vec\n"
          "       ambtool render [--check] REPRO_DIR PAGES_DIR VEC_DIR\n");
}

int main(int argc, char **argv) {
  amb_init();
  if (argc >= 2 && strcmp(argv[1], "search") == 0) {
    unsigned long runs = 20000;
    double limit = 60;
    const char *out = NULL;
    int i = 2, any = 0;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
      if (!strcmp(argv[i], "--any")) { any = 1; continue; }
      if (i + 1 >= argc) { usage(); return 2; }
      if (!strcmp(argv[i], "--runs")) runs = strtoul(argv[++i], NULL, 0);
      else if (!strcmp(argv[i], "--time")) limit = strtod(argv[++i], NULL);
      else if (!strcmp(argv[i], "--out")) out = argv[++i];
      else if (!strcmp(argv[i], "--exclude") && g_nexclude < 16) g_exclude[g_nexclude++] = argv[++i];
      else { usage(); return 2; }
    }
    if (i >= argc) { usage(); return 2; }
    return search(runs, limit, out, any, argc - i, argv + i);
  }
  if (argc >= 5 && strcmp(argv[1], "collect") == 0) return collect_cmd(argv[2], argv[3], argc - 4, argv + 4);
  if (argc == 5 && strcmp(argv[1], "minimize") == 0) {
    unsigned k, v;
    static fz_prog p, m;
    if (amb_parse_name(argv[2], &k, &v) != 0) { fprintf(stderr, "ambtool: unknown witness %s\n", argv[2]); return 2; }
    if (load_prog(argv[3], &p) != 0) { fprintf(stderr, "ambtool: cannot read %s\n", argv[3]); return 2; }
    /* the mode where it separates best (functional mode on a tie, if compared there) */
    unsigned mode = TT_MODE_CYCLE;
    if (amb_in_func(k, v) && amb_separates(&p, k, v, TT_MODE_FUNC) >= amb_separates(&p, k, v, TT_MODE_CYCLE))
      mode = TT_MODE_FUNC;
    m = p;
    if (amb_minimize(&m, k, v, mode) != 0) { fprintf(stderr, "ambtool: %s does not separate %s\n", argv[3], argv[2]); return 1; }
    sb o = {0};
    reproducer_text(&o, &m, k, v, mode);
    printf("%s: %u -> %u instructions in %lu runs\n", argv[2], fz_total(&p), fz_total(&m), g_tries);
    return write_file(argv[4], o.b, o.len) ? 2 : 0;
  }
  if (argc >= 5 && strcmp(argv[1], "render") == 0) {
    int check = strcmp(argv[2], "--check") == 0;
    if (argc != 5 + check) { usage(); return 2; }
    return render(check, argv[2 + check], argv[3 + check], argv[4 + check]);
  }
  usage();
  return 2;
}
