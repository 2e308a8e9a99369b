/* runner.c — ttconf, the conformance runner: runs `.vec` files (conformance/README.md)
 * against an implementation under test (conformance/ttdut.h; the model by default, a shared
 * object with --dut, a process speaking the line protocol with --dut-cmd) in func and/or
 * cycle mode and reports one line per vector and mode.
 * Output is deterministic (directories are walked in byte-wise sorted order). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "files.h"
#include "vec.h"
#include "dut_check.h"
#include "dut_model.h"
#include "dut_proc.h"
#include "vec_json.h"

#define FILE_CAP (4u << 20)          /* largest .vec file read */

static tt_state g_st, g_initial;     /* ~2.6 MiB each: never on the stack */
static tt_vec g_vec;
static tt_vec_result g_res;
static tt_vec_error g_err;
static char g_text[FILE_CAP + 1];

static unsigned g_modes = TT_VEC_MODE_BOTH, g_quiet, g_list;
static unsigned g_mode_explicit;     /* --mode func / --mode cycle: that mode must run */
static unsigned long n_pass, n_fail, n_skip, n_listed, n_nc, n_nc_checks;
static dutc g_dut;                   /* the implementation under test */
static const char *g_profile;        /* --profile NAME: for vectors without a `profile:` line */
static int g_direct;                 /* --direct: the model through tt_vec_run, not ttdut.h */
static int g_verbose_nc = 1;         /* print each not-comparable expectation with its reason */
static unsigned long n_files;        /* .vec files found (read or not) */
static unsigned long n_excluded;     /* parsed vectors whose `mode:` names no requested mode */

/* Exit statuses (documented in usage() and the README). */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NOTHING_RAN = 3 };

static const char *mode_name(unsigned m) { return m == TT_MODE_CYCLE ? "cycle" : "func"; }

static void usage(FILE *f) {
  fputs("usage: ttconf [--mode func|cycle|both] [--profile NAME] [--quiet] [--list] [--brief-nc]\n"
        "              [--dut PATH.so [--dut-args ARGS] | --dut-cmd COMMAND | --direct] PATH...\n"
        "       ttconf --export-json OUTDIR PATH...\n"
        "       ttconf --ambiguities\n"
        "\n"
        "Runs conformance vectors (.vec, format in conformance/README.md). PATH is a .vec file or a\n"
        "directory searched recursively (sorted byte-wise, depth <= 32) for files named *.vec.\n"
        "While recursing, directories named `selftest` are skipped (they hold deliberately\n"
        "broken fixtures; name such a directory explicitly to run it), and symbolic links to\n"
        "directories are not followed.\n"
        "\n"
        "  --mode M   run only mode M (func, cycle or both; default both). A vector's own\n"
        "             `mode:` line restricts further; a mode the build lacks counts as skipped.\n"
        "  --profile NAME  run every vector without a `profile:` line under profile NAME (isa,\n"
        "             the default, or p150: model/profiles.def); `knob:` lines apply on top\n"
        "  --quiet    print only failures, errors and the summary\n"
        "  --list     parse and list vectors (file, modes, name) without running them\n"
        "  --dut PATH.so  check the implementation under test in PATH.so (conformance/ttdut.h:\n"
        "             it exports ttdut_entry) instead of the model; --dut-args is given to its open\n"
        "  --dut-cmd COMMAND  check an implementation that runs as a process (under /bin/sh) and\n"
        "             speaks the line protocol on stdin/stdout (conformance/README.md)\n"
        "  --direct   check the model with its own checker (tt_vec_run), not through ttdut.h\n"
        "  --brief-nc do not list each not-comparable expectation with its reason\n"
        "  --export-json OUTDIR  write each vector as JSON (conformance/json-schema.md) and an\n"
        "             index.json; nothing runs\n"
        "  --ambiguities  print the ambiguity registry (model/ambiguities.def): per ambiguity\n"
        "             the question, where a stream can observe it, the default and why, and\n"
        "             each reading (knob=value, pages); then exit\n"
        "\n"
        "Output: `ok   FILE  MODE`, `FAIL FILE  MODE` (then each failed expectation, indented,\n"
        "as `FILE:LINE: expect ...: actual ...`), `skip FILE  MODE`; a malformed file is\n"
        "`FILE:LINE: message` and counts as one failure. Against another implementation a run\n"
        "it cannot make is `n/c  FILE  MODE` with the reason, and each expectation it cannot\n"
        "observe is listed as `not comparable: REASON`. Last line: `N passed, N failed`\n"
        "plus `, N skipped` when some mode was skipped and `, N not comparable`.\n"
        "\n"
        "Exit status:\n"
        "  0  every vector run passed, and something ran\n"
        "  1  some vector failed, was malformed, or a PATH could not be read\n"
        "  2  bad command line\n"
        "  3  nothing ran: a PATH holds no .vec file, no vector ran in any mode, every run was\n"
        "     not comparable (--dut), or the mode\n"
        "     asked for with --mode func / --mode cycle ran no vector (every run skipped or\n"
        "     excluded by the vectors' `mode:` lines); the reason is printed on stderr.\n"
        "     With the default --mode both, skipped runs only add `, N skipped`.\n"
        "Status 1 wins over 3 when both apply.\n",
        f);
}

static void print_parse_error(const char *path, const tt_vec_error *e) {
  if (e->line) printf("%s:%u: %s", path, e->line, e->msg);
  else printf("%s: %s", path, e->msg);
  if (e->col) printf(" (column %u)", e->col);
  putchar('\n');
}

static void print_checks(const char *path, unsigned status) {
  for (unsigned i = 0; i < g_res.nchecks; i++) {
    const tt_vec_check *c = &g_res.checks[i];
    if (c->status != status) continue;
    if (c->line) printf("    %s:%u: %s\n", path, c->line, c->text);
    else printf("    %s: %s\n", path, c->text);
  }
}

static int read_file(const char *path, size_t *len) {
  files_err e;
  if (files_read_into(path, g_text, FILE_CAP, len, &e) == 0) return 0;
  printf("%s: %s\n", path, e.msg);
  return -1;
}

/* --profile NAME: the profile of a vector that names none (its line: the top of the file). */
static void cli_profile(tt_vec *v) {
  if (!g_profile || v->profile_line) return;
  snprintf(v->profile, sizeof v->profile, "%s", g_profile);
  v->profile_line = 1;
}

static void run_file(const char *path) {
  size_t len = 0;
  n_files++;
  if (read_file(path, &len) != 0) { n_fail++; return; }
  if (tt_vec_parse(g_text, len, &g_vec, &g_err) != 0) {
    print_parse_error(path, &g_err);
    n_fail++;
    return;
  }
  cli_profile(&g_vec);
  if (g_list) {
    printf("%s  %s  %s\n", path,
           g_vec.modes == TT_VEC_MODE_BOTH ? "both" : g_vec.modes == TT_VEC_MODE_FUNC ? "func" : "cycle",
           g_vec.name);
    n_listed++;
    return;
  }
  if (!(g_modes & g_vec.modes)) n_excluded++;
  for (unsigned m = TT_MODE_FUNC; m <= TT_MODE_CYCLE; m++) {
    if (!(g_modes & (1u << m)) || !(g_vec.modes & (1u << m))) continue;
    tt_vec_status s = g_direct ? tt_vec_run(&g_st, &g_initial, &g_vec, (tt_mode)m, &g_res)
                               : dutc_run(&g_dut, &g_vec, (tt_mode)m, &g_res);
    n_nc_checks += g_res.nnot_comparable;
    switch (s) {
    case TT_VEC_PASS:
      n_pass++;
      if (!g_quiet) {
        if (g_res.nnot_comparable)
          printf("ok   %s  %s  (%u not comparable)\n", path, mode_name(m), g_res.nnot_comparable);
        else
          printf("ok   %s  %s\n", path, mode_name(m));
        if (g_verbose_nc) print_checks(path, TT_VEC_CHECK_NOT_COMPARABLE);
      }
      break;
    case TT_VEC_NOT_COMPARABLE:
      n_nc++;
      if (!g_quiet) {
        printf("n/c  %s  %s\n", path, mode_name(m));
        if (g_res.err.msg[0]) { printf("    "); print_parse_error(path, &g_res.err); }
        if (g_verbose_nc) print_checks(path, TT_VEC_CHECK_NOT_COMPARABLE);
      }
      break;
    case TT_VEC_SKIP:
      n_skip++;
      if (!g_quiet) printf("skip %s  %s  (mode not available in this build)\n", path, mode_name(m));
      break;
    case TT_VEC_ERROR:
      n_fail++;
      printf("FAIL %s  %s\n", path, mode_name(m));
      printf("    ");
      print_parse_error(path, &g_res.err);
      break;
    case TT_VEC_FAIL:
      n_fail++;
      printf("FAIL %s  %s\n", path, mode_name(m));
      if (g_res.err.msg[0]) { printf("    "); print_parse_error(path, &g_res.err); }
      print_checks(path, TT_VEC_CHECK_FAIL);
      if (g_verbose_nc && !g_quiet) print_checks(path, TT_VEC_CHECK_NOT_COMPARABLE);
      {
        unsigned kept = 0;
        for (unsigned i = 0; i < g_res.nchecks; i++) kept += g_res.checks[i].is_strict;
        if (g_res.nstrict > kept)
          printf("    %s: strict: %u more changed location(s) not shown\n", path,
                 g_res.nstrict - kept);
      }
      break;
    }
  }
}

/* A .vec file below a directory walked (tt_vec_suite_walk: selftest directories and links to
 * directories skipped) */
static void walk_file(void *ctx, const char *path, int err) {
  (void)ctx;
  if (!err) { run_file(path); return; }
  printf("%s: cannot open: %s\n", path, strerror(err));
  n_fail++;
}

static void walk_fail(void *ctx, const char *path, const char *name, const char *msg) {
  (void)ctx;
  if (name) printf("%s/%s: %s\n", path, name, msg);
  else printf("%s: %s\n", path, msg);
  n_fail++;
}

static unsigned long n_empty_paths;  /* PATH arguments that held no .vec file */

static void run_path(const char *arg) {
  struct stat sb;
  unsigned long files0 = n_files;
  if (stat(arg, &sb) != 0) {
    printf("%s: cannot open: %s\n", arg, strerror(errno));
    n_fail++;
    return;
  }
  if (!S_ISDIR(sb.st_mode)) {
    run_file(arg);
    return;
  }
  tt_vec_suite_walk(arg, walk_file, walk_fail, NULL);
  if (n_files == files0) {
    fprintf(stderr, "ttconf: %s: no .vec file found (directories named selftest are searched "
                    "only when named)\n", arg);
    n_empty_paths++;
  }
}

static const char *g_dut_so, *g_dut_cmd, *g_dut_args;

/* The implementation under test: the model unless --dut / --dut-cmd names another. */
static int open_dut(void) {
  char why[256] = "";
  const ttdut_ops *ops = ttdut_model_ops();
  if (g_dut_so) ops = dutc_load_so(g_dut_so, why, sizeof why);
  else if (g_dut_cmd) ops = dut_proc_ops();
  if (!ops) {
    printf("%s: cannot load: %s\n", g_dut_so, why);
    return -1;
  }
  if (dutc_open(&g_dut, ops, g_dut_cmd ? g_dut_cmd : g_dut_args, why, sizeof why) != 0) {
    printf("%s: cannot open the implementation: %s\n",
           g_dut_so ? g_dut_so : g_dut_cmd ? g_dut_cmd : "model", why);
    return -1;
  }
  if (g_dut_so || g_dut_cmd)
    printf("implementation under test: %s%s%s\n", g_dut.caps.name, g_dut.caps.notes[0] ? " — " : "",
           g_dut.caps.notes);
  return 0;
}

/* Each profile (model/profiles.def) with the knob values it sets. */
static void print_profiles(void) {
  for (unsigned p = 0; p < tt_profile_count(); p++) {
    printf("profile %s: %s\n", tt_profile_name(p), tt_profile_text(p));
    unsigned named = 0;
    for (unsigned k = 0; k < TT_KNOB_COUNT; k++) {
      unsigned v = tt_profile_knob(p, k);
      if (!v) continue;
      const char *vals = tt_knob_values(k);
      for (unsigned j = 0; j < v && strchr(vals, '|'); j++) vals = strchr(vals, '|') + 1;
      printf("  %s=%.*s\n", tt_knob_name(k), (int)strcspn(vals, "|"), vals);
      named++;
    }
    printf(named ? "  every other knob at its default\n\n" : "  every knob at its default\n\n");
  }
}

/* The ambiguity registry, one block per ambiguity. */
static int print_ambiguities(void) {
  for (unsigned i = 0; i < tt_amb_count(); i++) {
    const tt_amb *a = tt_amb_get(i);
    printf("AMB-%u  %s  [observable: %s]\n  %s\n  default: %s\n", a->id, a->slug,
           strcmp(a->modes, "none") == 0 ? "no stream" : a->modes, a->question, a->why_default);
    if (a->models[0]) printf("  public models: %s\n", a->models);
    if (a->unobservable[0]) printf("  no knob: %s\n", a->unobservable);
    for (unsigned r = 0; r < tt_amb_reading_count(); r++) {
      const tt_amb_reading *rd = tt_amb_reading_get(r);
      if (rd->amb != a->id) continue;
      int k = rd->knob[0] ? tt_knob_by_name(rd->knob) : -1;
      int def = k >= 0 && tt_knob_value_index((unsigned)k, rd->value) == 0;
      if (rd->knob[0]) printf("  - %s=%s%s: %s\n      pages: %s\n", rd->knob, rd->value,
                              def ? " (default)" : "", rd->text, rd->pages);
      else printf("  - (%s): %s\n      pages: %s\n", rd->value, rd->text, rd->pages);
    }
    putchar('\n');
  }
  print_profiles();
  printf("%u ambiguities, %u readings, %u knobs, %u profiles\n", tt_amb_count(), tt_amb_reading_count(),
         (unsigned)TT_KNOB_COUNT, tt_profile_count());
  return 0;
}

/* One option at argv[*i] (moving *i past its value): 0 taken, 1 not an option (a PATH), or
 * -1 - exit status to return at once (-1 - 0 for --help). */
static int parse_option(int argc, char **argv, int *i, int *opts_done) {
  const char *a = argv[*i];
  if (*opts_done || a[0] != '-' || a[1] == 0) return 1;
  if (strcmp(a, "--") == 0) { *opts_done = 1; return 0; }
  if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) { g_quiet = 1; return 0; }
  if (strcmp(a, "--list") == 0) { g_list = 1; return 0; }
  if (strcmp(a, "--ambiguities") == 0) return -1 - print_ambiguities();
  if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); return -1; }
  if (strcmp(a, "--direct") == 0) { g_direct = 1; return 0; }
  if (strcmp(a, "--brief-nc") == 0) { g_verbose_nc = 0; return 0; }
  if (strcmp(a, "--dut") == 0 || strcmp(a, "--dut-cmd") == 0 || strcmp(a, "--dut-args") == 0) {
    if (*i + 1 >= argc) { fprintf(stderr, "ttconf: %s needs a value\n", a); return -1 - EXIT_USAGE; }
    const char **slot = a[5] == 0 ? &g_dut_so : a[6] == 'c' ? &g_dut_cmd : &g_dut_args;
    if (*slot) { fprintf(stderr, "ttconf: %s given twice\n", a); return -1 - EXIT_USAGE; }
    *slot = argv[++*i];
    return 0;
  }
  if (strcmp(a, "--profile") == 0) {
    if (*i + 1 >= argc || tt_profile_by_name(argv[*i + 1]) < 0) {
      fprintf(stderr, "ttconf: --profile needs a profile name:");
      for (unsigned p = 0; p < tt_profile_count(); p++) fprintf(stderr, " %s", tt_profile_name(p));
      fputc('\n', stderr);
      return -1 - EXIT_USAGE;
    }
    if (g_profile) { fprintf(stderr, "ttconf: --profile given twice\n"); return -1 - EXIT_USAGE; }
    g_profile = argv[++*i];
    return 0;
  }
  if (strcmp(a, "--mode") == 0 || strncmp(a, "--mode=", 7) == 0) {
    const char *m = a[6] == '=' ? a + 7 : (*i + 1 < argc ? argv[++*i] : "");
    if (strcmp(m, "func") == 0) g_modes = TT_VEC_MODE_FUNC, g_mode_explicit = 1;
    else if (strcmp(m, "cycle") == 0) g_modes = TT_VEC_MODE_CYCLE, g_mode_explicit = 1;
    else if (strcmp(m, "both") == 0) g_modes = TT_VEC_MODE_BOTH, g_mode_explicit = 0;
    else { fprintf(stderr, "ttconf: --mode must be func, cycle or both\n"); return -1 - EXIT_USAGE; }
    return 0;
  }
  fprintf(stderr, "ttconf: unknown option %s\n", a);
  usage(stderr);
  return -1 - EXIT_USAGE;
}

/* The options that exclude each other: 0, or the exit status. */
static int check_options(int npaths) {
  if (npaths == 0) {
    fprintf(stderr, "ttconf: no PATH given\n");
    usage(stderr);
    return EXIT_USAGE;
  }
  if (g_dut_so && g_dut_cmd) {
    fprintf(stderr, "ttconf: --dut and --dut-cmd exclude each other\n");
    return EXIT_USAGE;
  }
  if (g_direct && (g_dut_so || g_dut_cmd)) {
    fprintf(stderr, "ttconf: --direct checks the model itself; it excludes --dut and --dut-cmd\n");
    return EXIT_USAGE;
  }
  return 0;
}

/* Every PATH argument, in order (options and their values skipped). */
static void run_paths(int argc, char **argv) {
  int opts_done = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!opts_done && a[0] == '-' && a[1] != 0) {
      if (strcmp(a, "--") == 0) opts_done = 1;
      else if (strcmp(a, "--mode") == 0 || strcmp(a, "--dut") == 0 || strcmp(a, "--dut-cmd") == 0 ||
               strcmp(a, "--dut-args") == 0 || strcmp(a, "--profile") == 0) i++;
      continue;
    }
    run_path(a);
  }
}

/* The summary line and the exit status. */
static int summary(void) {
  int nothing = n_empty_paths != 0;
  if (!n_fail && n_pass == 0 && n_nc > 0) {
    nothing = 1;
    fprintf(stderr, "ttconf: no vector could be compared: %lu run(s) not comparable (the "
                    "implementation cannot run or observe them; reasons above)\n", n_nc);
  }
  if (!n_fail && n_pass == 0 && n_nc == 0 && n_files > 0) {
    nothing = 1;
    if (g_mode_explicit)
      fprintf(stderr, "ttconf: --mode %s ran no vector: %lu run(s) skipped (mode not available "
                      "in this build), %lu vector(s) whose `mode:` line excludes it\n",
              g_modes == TT_VEC_MODE_CYCLE ? "cycle" : "func", n_skip, n_excluded);
    else
      fprintf(stderr, "ttconf: no vector ran in any mode (%lu run(s) skipped, mode not "
                      "available in this build)\n", n_skip);
  }
  fflush(stderr);
  if (!g_direct) dutc_close(&g_dut);
  printf("%lu passed, %lu failed", n_pass, n_fail);
  if (n_skip) printf(", %lu skipped", n_skip);
  if (n_nc) printf(", %lu not comparable", n_nc);
  putchar('\n');
  return n_fail ? EXIT_FAILED : nothing ? EXIT_NOTHING_RAN : EXIT_OK;
}

int main(int argc, char **argv) {
  int npaths = 0, opts_done = 0;
  for (int i = 1; i < argc; i++)   /* the suite as JSON (conformance/json-schema.md) */
    if (strcmp(argv[i], "--export-json") == 0) return vecjson_main(argc, argv);
  for (int i = 1; i < argc; i++) {
    int r = parse_option(argc, argv, &i, &opts_done);
    if (r < 0) return -1 - r;
    npaths += r;
  }
  int bad = check_options(npaths);
  if (bad) return bad;
  tt_init(&g_st);
  if (!g_direct && !g_list && open_dut() != 0) return EXIT_FAILED;
  run_paths(argc, argv);
  if (g_list) {
    printf("%lu vector(s) listed, %lu malformed\n", n_listed, n_fail);
    return n_fail ? EXIT_FAILED : n_empty_paths ? EXIT_NOTHING_RAN : EXIT_OK;
  }
  return summary();
}
