/* ttrun — run up to three thread listings (or one .vec) on the model and say how it ended:
 * outcome, per thread what retired and, for a thread that is stuck, what holds it and who could
 * have released it; faults; every location that changed; in cycle mode also cycles, stall cycles
 * by reason and hazards. Optionally: the same as JSON (--json), a Chrome/Perfetto trace
 * (--trace), and the run as a conformance vector (--emit-vec). See usage() and README.md.
 * This file: the command line, setting the model up, the exit status; ttrun.h lists the others. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttrun.h"

tt_state g_st, g_ref;
tt_vec g_vec;

thread_src g_src[TT_THREAD_COUNT];
const char *g_vec_path;
tt_mode g_mode = TT_MODE_FUNC;
int g_mode_given;
uint64_t g_budget = DEFAULT_BUDGET;
int g_budget_given;
const char *g_profile = "isa";   /* --profile, else the vector's profile: line, else isa */
static int g_profile_given;
unsigned g_nknobs;
char *g_knob_name[MAX_KNOBS], *g_knob_value[MAX_KNOBS];
init_t g_inits[MAX_INITS];
unsigned g_ninits;

/* ---- command line and set-up (usage() is in ttrun_usage.c) ---------------------------------- */
static int bad_cli(const char *msg, const char *arg) {
  fprintf(stderr, "ttrun: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
  return 2;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && !strcmp(s + n - k, suffix);
}

/* --budget N: 1..UINT64_MAX, decimal or 0x hex; no sign, no spaces, no overflow (strtoull alone
 * takes "-5" as 2^64-5 and " 5" as 5). */
static int parse_budget(const char *v, uint64_t *out) {
  int base = 10;
  char *end;
  if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) { base = 16; v += 2; }
  if (!(base == 16 ? isxdigit((unsigned char)v[0]) : isdigit((unsigned char)v[0]))) return -1;
  errno = 0;
  unsigned long long b = strtoull(v, &end, base);
  if (*end || errno || b == 0) return -1;
  *out = (uint64_t)b;
  return 0;
}

/* --fail-on: the conditions that turn a run that was made into a failing exit status. */
enum { FAIL_DEADLOCK = 1, FAIL_BLOCKED = 2, FAIL_HAZARD = 4, FAIL_FAULT = 8, FAIL_BUDGET = 16 };
#define FAIL_BASE 32
static const struct { const char *name; unsigned bit; } fail_names[] = {
  {"deadlock", FAIL_DEADLOCK}, {"blocked", FAIL_BLOCKED}, {"hazard", FAIL_HAZARD},
  {"fault", FAIL_FAULT}, {"budget", FAIL_BUDGET}};

static int parse_fail_on(const char *v, unsigned *mask) {
  const char *p = v;
  for (;;) {
    size_t n = strcspn(p, ",");
    unsigned k = 0, nk = (unsigned)(sizeof fail_names / sizeof fail_names[0]);
    if (n == 3 && !strncmp(p, "all", 3)) *mask |= FAIL_DEADLOCK | FAIL_BLOCKED | FAIL_HAZARD | FAIL_FAULT | FAIL_BUDGET;
    else {
      while (k < nk && (strlen(fail_names[k].name) != n || strncmp(p, fail_names[k].name, n))) k++;
      if (k == nk) {
        fprintf(stderr, "ttrun: --fail-on: unknown condition '%.*s' (conditions: deadlock, blocked, hazard, "
                "fault, budget, all; comma-separated)\n", (int)n, p);
        return -1;
      }
      *mask |= fail_names[k].bit;
    }
    if (!p[n]) return 0;
    p += n + 1;
  }
}

static int add_init(const char *text, const char *where) {
  const char *eq = strchr(text, '=');
  tt_loc loc;
  const char *err = NULL;
  if (g_ninits >= MAX_INITS) return bad_cli("too many --init (limit 512)", NULL);
  if (!eq) return bad_cli("--init needs LOC=VALUE, not", text);
  size_t n = (size_t)(eq - text);
  while (n && text[n - 1] == ' ') n--;
  if (tt_loc_parse(text, n, &loc, &err) != 0) {
    fprintf(stderr, "ttrun: %s: bad location '%.*s': %s\n", where, (int)n, text, err ? err : "?");
    return 2;
  }
  const char *v = eq + 1;
  while (*v == ' ') v++;
  uint32_t val;
  if (loc.kind == TT_LOC_MUTEX) {
    if (!strcmp(v, "none")) val = 0;
    else if (v[0] == 't' && v[1] >= '0' && v[1] <= '2' && !v[2]) val = (uint32_t)(v[1] - '0' + 1);
    else return bad_cli("mutex value must be none, t0, t1 or t2, not", v);
  } else {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    unsigned w = tt_loc_width(&loc);
    if (!*v || *end || errno || (w < 32 && x >> w) || x > 0xFFFFFFFFull)
      return bad_cli("--init value is not a number that fits the location:", text);
    val = (uint32_t)x;
  }
  g_inits[g_ninits].loc = loc;
  g_inits[g_ninits].value = val;
  snprintf(g_inits[g_ninits].text, sizeof g_inits[g_ninits].text, "%s", text);
  g_ninits++;
  return 0;
}

/* What the command line asked for (the model's settings go straight to the g_ globals). */
typedef struct options {
  const char *tfile[TT_THREAD_COUNT], *vecfile;
  const char *trace, *emit, *cli_inits[MAX_INITS];
  const char *push[MAX_INITS];
  unsigned ncli_inits, fail_on, npush;
  int json;
} options;

#define GO_ON (-1)   /* parse_args: the command line is good, make the run */

static const char *const opt_names[] = {"--mode", "--knob", "--budget", "--t0", "--t1", "--t2", "--init",
                                        "--trace", "--emit-vec", "--fail-on", "--push", "--profile"};

/* One option that takes a value (opt_names[k]); 0, or the exit status. */
static int take_option(int k, const char *val, options *o) {
  switch (k) {
  case 0:
    if (!strcmp(val, "func")) g_mode = TT_MODE_FUNC;
    else if (!strcmp(val, "cycle")) g_mode = TT_MODE_CYCLE;
    else return bad_cli("--mode must be func or cycle, not", val);
    g_mode_given = 1;
    break;
  case 11:
    if (tt_profile_by_name(val) < 0) return bad_cli("--profile must be isa or p150, not", val);
    g_profile = val;
    g_profile_given = 1;
    break;
  case 1: {
    const char *eq = strchr(val, '=');
    if (!eq || eq == val) return bad_cli("--knob needs NAME=VALUE, not", val);
    if (g_nknobs >= MAX_KNOBS) return bad_cli("too many --knob", NULL);
    g_knob_name[g_nknobs] = xcalloc((size_t)(eq - val) + 1, 1);
    memcpy(g_knob_name[g_nknobs], val, (size_t)(eq - val));
    g_knob_value[g_nknobs] = xcalloc(strlen(eq + 1) + 1, 1);
    strcpy(g_knob_value[g_nknobs], eq + 1);
    g_nknobs++;
    break;
  }
  case 2:
    if (parse_budget(val, &g_budget) != 0) {
      fprintf(stderr, "ttrun: --budget needs a whole number from 1 to %llu (decimal or 0x hex), not '%s'\n",
              (unsigned long long)UINT64_MAX, val);
      return 2;
    }
    g_budget_given = 1;
    break;
  case 3: case 4: case 5: o->tfile[k - 3] = val; break;
  case 6:
    if (o->ncli_inits >= MAX_INITS) return bad_cli("too many --init", NULL);
    o->cli_inits[o->ncli_inits++] = val;
    break;
  case 7: o->trace = val; break;
  case 8: o->emit = val; break;
  case 9:
    if (parse_fail_on(val, &o->fail_on) != 0) return 2;
    break;
  case 10:
    if (o->npush >= MAX_INITS) return bad_cli("too many --push", NULL);
    o->push[o->npush++] = val;
    break;
  }
  return 0;
}

/* An argument that is no option: an unknown option, or the one .vec file. 0, or the exit status. */
static int take_operand(const char *a, options *o) {
  if (a[0] == '-' && a[1]) {
    fprintf(stderr, "ttrun: unknown option %s\n", a);
    usage(stderr);
    return 2;
  }
  if (o->vecfile) return bad_cli("one .vec file at most; extra argument", a);
  if (!ends_with(a, ".vec")) {
    fprintf(stderr, "ttrun: %s: a file without an option is read as a conformance vector and must be named "
            "*.vec; give a thread listing with --t0, --t1 or --t2 (e.g. --t0 %s)\n", a, a);
    return 2;
  }
  o->vecfile = a;
  return 0;
}

/* The command line into *o and the g_ globals: GO_ON, or the exit status. */
static int parse_args(int argc, char **argv, options *o) {
  const char *given[16] = {NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
    int matched = -1, rc;
    for (int k = 0; k < (int)(sizeof opt_names / sizeof opt_names[0]); k++) {
      size_t n = strlen(opt_names[k]);
      if (!strncmp(a, opt_names[k], n) && (a[n] == 0 || a[n] == '=')) {
        matched = k;
        if (a[n] == '=') val = a + n + 1;
        else if (i + 1 < argc) val = argv[++i];
        else return bad_cli("missing value after", a);
        break;
      }
    }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    if (!strcmp(a, "--json")) { o->json = 1; continue; }
    /* an option that takes one value may be given once: a second one is refused, never
     * silently preferred (--knob, --init, --fail-on are the repeatable ones) */
    if (matched >= 0 && matched != 1 && matched != 6 && matched != 9 && matched != 10) {
      if (given[matched]) {
        fprintf(stderr, "ttrun: %s given twice ('%s', then '%s'): give it once\n", opt_names[matched],
                given[matched], val);
        return 2;
      }
      given[matched] = val;
    }
    rc = matched >= 0 ? take_option(matched, val, o) : take_operand(a, o);
    if (rc) return rc;
  }
  if (o->vecfile && (o->tfile[0] || o->tfile[1] || o->tfile[2]))
    return bad_cli("give either a .vec file or --t0/--t1/--t2 listings, not both", NULL);
  if (!o->vecfile && !o->tfile[0] && !o->tfile[1] && !o->tfile[2]) { usage(stderr); return 2; }
  return GO_ON;
}

/* A .vec's mode, budget, knobs and inits, under the command line's. GO_ON, or the exit status. */
static int apply_vec(const char *vecfile) {
  if (g_vec.modes == TT_VEC_MODE_CYCLE || g_vec.modes == TT_VEC_MODE_FUNC) {
    tt_mode vm = g_vec.modes == TT_VEC_MODE_CYCLE ? TT_MODE_CYCLE : TT_MODE_FUNC;
    if (g_mode_given && vm != g_mode)
      return bad_cli("--mode differs from the vector's mode: line in", vecfile);
    g_mode = vm;
  }
  if (!g_budget_given && g_vec.has_budget) g_budget = g_vec.budget;
  if (!g_profile_given && g_vec.profile_line) g_profile = g_vec.profile;
  /* the vector's knobs first; --knob overrides a knob of the same name */
  unsigned nk = g_nknobs;
  for (unsigned i = 0; i < g_vec.nknobs; i++) {
    int over = 0;
    for (unsigned k = 0; k < nk; k++) over |= !strcmp(g_knob_name[k], g_vec.knobs[i].name);
    if (over || g_nknobs >= MAX_KNOBS) continue;
    g_knob_name[g_nknobs] = g_vec.knobs[i].name;
    g_knob_value[g_nknobs] = g_vec.knobs[i].value;
    g_nknobs++;
  }
  for (unsigned i = 0; i < g_vec.ninits && g_ninits < MAX_INITS; i++) {
    g_inits[g_ninits].loc = g_vec.inits[i].loc;
    g_inits[g_ninits].value = g_vec.inits[i].value;
    g_ninits++;
  }
  return GO_ON;
}

/* The .vec or the listings, then the command line's inits. GO_ON, or the exit status. */
static int load_sources(const options *o) {
  if (o->vecfile) {
    if (load_vec(o->vecfile) != 0) return 1;
    int rc = apply_vec(o->vecfile);
    if (rc != GO_ON) return rc;
  } else {
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
      if (o->tfile[t] && load_listing(t, o->tfile[t]) != 0) return 1;
  }
  if (o->npush && o->vecfile) return bad_cli("--push needs thread listings, not a .vec", NULL);
  for (unsigned i = 0; i < o->npush; i++)
    if (add_push(o->push[i]) != 0) return 2;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    expand_thread(t);
    if (g_src[t].overflow) {
      fprintf(stderr, "%s:1:1: after the Replay Expander the program of t%u has %u words, more than the model's "
              "%u\n", g_src[t].path, t, g_src[t].n + g_src[t].overflow, TT_PROG_MAX);
      return 1;
    }
  }
  for (unsigned i = 0; i < o->ncli_inits; i++)
    if (add_init(o->cli_inits[i], "--init") != 0) return 2;
  return GO_ON;
}

/* Mode and knobs into both states; reset; inits and programs into the run's. GO_ON, or the exit
 * status. */
static int set_up_model(const options *o) {
  if (o->trace && g_mode != TT_MODE_CYCLE) return bad_cli("--trace needs --mode cycle", NULL);
  if (tt_set_mode(&g_st, g_mode) != 0) return bad_cli("this build has no cycle mode", NULL);
  if (tt_profile_apply(&g_st, (unsigned)tt_profile_by_name(g_profile)) != 0)
    return bad_cli("cannot apply profile", g_profile);
  for (unsigned i = 0; i < g_nknobs; i++) {
    int r = tt_knob_set(&g_st, g_knob_name[i], g_knob_value[i]);
    if (r == -1) return bad_cli("unknown knob", g_knob_name[i]);
    if (r != 0) {
      unsigned k = 0;
      while (k < TT_KNOB_COUNT && strcmp(tt_knob_name(k), g_knob_name[i])) k++;
      fprintf(stderr, "ttrun: knob %s has no value '%s' (values: %s)\n", g_knob_name[i], g_knob_value[i],
              k < TT_KNOB_COUNT ? tt_knob_values(k) : "?");
      return 2;
    }
  }
  tt_set_mode(&g_ref, g_mode);
  tt_reset(&g_st);
  for (unsigned i = 0; i < g_ninits; i++) tt_loc_set(&g_st, &g_inits[i].loc, g_inits[i].value);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    if (tt_load_program(&g_st, t, g_src[t].word, g_src[t].n) != 0) {
      fprintf(stderr, "%s:1:1: the model refused the program of t%u\n", g_src[t].path, t);
      return 1;
    }
    g_done_at[t] = xcalloc(g_src[t].n + 1, sizeof *g_done_at[t]);
  }
  memcpy(g_sem0, g_st.c.sem_value, sizeof g_sem0);
  memcpy(g_max0, g_st.c.sem_max, sizeof g_max0);
  g_tracing = o->trace != NULL;
  return GO_ON;
}

/* --fail-on: 0 when none of the asked conditions held, else FAIL_BASE + those that did (named). */
static int fail_on_status(tt_outcome out, unsigned fail_on) {
  unsigned hit = 0;
  if (out == TT_OUT_DEADLOCK) hit |= FAIL_DEADLOCK;
  if (out == TT_OUT_BUDGET) hit |= FAIL_BUDGET;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    if (!tt_thread_done(&g_st, t) && tt_thread_blocked(&g_st, t)) hit |= FAIL_BLOCKED;
    if (g_st.c.thr[t].fault_class != TT_FAULT_NONE) hit |= FAIL_FAULT;
  }
  if (g_mode == TT_MODE_CYCLE && g_hz_kept) hit |= FAIL_HAZARD;
  hit &= fail_on;
  if (!hit) return 0;
  fprintf(stderr, "ttrun: --fail-on:");
  for (size_t k = 0; k < sizeof fail_names / sizeof fail_names[0]; k++)
    if (hit & fail_names[k].bit) fprintf(stderr, " %s", fail_names[k].name);
  fprintf(stderr, " (exit status %u)\n", FAIL_BASE + hit);
  return (int)(FAIL_BASE + hit);
}

int main(int argc, char **argv) {
  static options o;
  int rc = parse_args(argc, argv, &o);
  if (rc != GO_ON) return rc;
  tt_init(&g_st);
  tt_init(&g_ref);
  if ((rc = load_sources(&o)) != GO_ON) return rc;
  if ((rc = set_up_model(&o)) != GO_ON) return rc;
  tt_outcome out = run();
  hazards_classify();
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) analyse(t);
  collect_changes();
  if (o.json) print_json(stdout, out);
  else print_text(out);
  rc = 0;
  if (o.emit) rc |= emit_vec(o.emit, out, argc, argv);
  if (o.trace) rc |= write_trace(o.trace);
  if (fflush(stdout) != 0) rc = 1;
  if (rc) return rc;   /* an output that could not be written wins over --fail-on */
  return fail_on_status(out, o.fail_on);
}
