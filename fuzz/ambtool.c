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
 * This file: the command line, the inputs, search and collect. The minimiser is fuzz/amb_min.c,
 * render fuzz/amb_render.c with the pages in fuzz/amb_page.c, the text of programs and
 * reproducers fuzz/amb_text.c; fuzz/amb_tool.h declares what they share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "amb_tool.h"

/* ---- inputs (read with fz_files.c) ------------------------------------------------------- */
static const char *g_exclude[16];
static int g_all_files;
static unsigned g_nexclude;

/* Inputs: .vec files and extension-less corpus files (not sources or scripts beside them),
 * outside the --exclude directories. */
int keep_input(const char *p, int is_dir) {
  for (unsigned i = 0; i < g_nexclude; i++) {
    size_t n = strlen(g_exclude[i]);
    if (strncmp(p, g_exclude[i], n) == 0 && (p[n] == 0 || p[n] == '/')) return 0;
  }
  if (is_dir || g_all_files) return 1;
  const char *base = strrchr(p, '/');
  base = base ? base + 1 : p;
  return fz_ends_with(base, ".vec") || !strchr(base, '.');
}

static int load_prog(const char *path, fz_prog *p) {
  size_t n = 0;
  uint8_t *d = fz_read_file(path, &n);
  if (!d) return -1;
  fz_load_prog(path, d, n, p);
  free(d);
  return 0;
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
  amb_tries = 0;
  if (amb_minimize(&p, k, v, mode) != 0) { fprintf(stderr, "ambtool: %s: input does not separate\n", amb_witness_name(k, v)); return -1; }
  sb o = {0};
  reproducer_text(&o, &p, k, v, mode);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s%s.vec", dir, amb_witness_name(k, v), suffix);
  if (size) *size = fz_total(&p);
  int quiet = 0;
  if (!quiet)
    printf("  %-44s %3u -> %u instructions (%lu runs)\n", amb_witness_name(k, v), before, fz_total(&p), amb_tries);
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
    printf("%s: %u -> %u instructions in %lu runs\n", argv[2], fz_total(&p), fz_total(&m), amb_tries);
    return write_file(argv[4], o.b, o.len) ? 2 : 0;
  }
  if (argc >= 5 && strcmp(argv[1], "render") == 0) {
    int check = strcmp(argv[2], "--check") == 0;
    if (argc != 5 + check) { usage(); return 2; }
    return amb_render(check, argv[2 + check], argv[3 + check], argv[4 + check]);
  }
  usage();
  return 2;
}
