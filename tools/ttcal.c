/* ttcal — calibration of cycle mode against silicon probe measurements.
 *
 * Reads a probe table (conformance/cycle/silicon/probes.tsv): per probe the instruction sequence
 * each thread repeats and the silicon figure per thread. Builds each probe as burst programs of
 * several lengths (every active thread repeats its body L times, all starting in cycle 0), runs
 * them in cycle mode under each profile asked for, and computes per thread what the bench
 * (mesham/tt-sim perfbench/tensixbench raw_probes.cpp) computes: the least-squares slope of the
 * thread's elapsed cycles over the burst lengths, per body (per instruction, or per pair for
 * two-instruction bodies). The bench subtracts the slope of an empty RISC-V loop (its loop
 * overhead); the model has no RISC-V loop, so there is nothing to subtract. A thread's elapsed
 * cycles end when its last instruction issues (the bench reads the clock once the core has
 * pushed its last instruction); a constant offset does not change a slope.
 *
 *   ttcal [--profile NAME]... [--knob NAME=VALUE]... [--md] [--check] [--tol T] PROBES.tsv
 *
 * Default profiles: isa and p150. --knob applies on top of the last profile's column (to test
 * another reading without a profile). --md prints the README "Calibration" tables; --check exits
 * 1 when a `fit` or `check` row of the last profile differs from silicon by more than --tol
 * (default 0.1) for any thread, naming each. Exit 2: bad command line; 1: bad table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tt.h"
#include "listing.h"
#include "asm.h"

#define MAX_ROWS 512
#define MAX_PROF 8
#define MAX_KNOBS 16
#define NLEN 4
static const uint32_t lengths[NLEN] = {32, 64, 96, 128};  /* bodies per burst: 4 points, as the bench */

typedef struct row {
  unsigned line, slot;
  char probe[32], variant[8], use[16], session[96], note[160];
  uint32_t body[3][8];
  unsigned blen[3];        /* 0: thread not active */
  double si[3];            /* silicon per thread (valid where blen) */
  double model[MAX_PROF][3];
  int ok_model[MAX_PROF];
} row;

static row rows[MAX_ROWS];
static unsigned nrows;
static tt_state st;
static tt_listing lst;
static uint32_t prog[TT_PROG_MAX];
static const char *prof_name[MAX_PROF];
static unsigned nprof;
static char *knob_name[MAX_KNOBS], *knob_value[MAX_KNOBS];
static unsigned nknobs;

static int usage(const char *why) {
  if (why) fprintf(stderr, "ttcal: %s\n", why);
  fputs("usage: ttcal [--profile NAME]... [--knob NAME=VALUE]... [--md] [--check] [--tol T] PROBES.tsv\n",
        stderr);
  return 2;
}

/* Split s at tabs into at most n fields (in place). */
static unsigned split(char *s, char **f, unsigned n) {
  unsigned k = 0;
  while (k < n) {
    f[k++] = s;
    char *t = strchr(s, '\t');
    if (!t) break;
    *t = 0;
    s = t + 1;
  }
  return k;
}

static int bad(const char *path, unsigned line, const char *msg, const char *what) {
  fprintf(stderr, "%s:%u: %s%s\n", path, line, msg, what ? what : "");
  return 1;
}

/* A body: instructions separated by ';', in any syntax a ttrun listing accepts. */
static int parse_body(const char *path, unsigned line, const char *text, uint32_t *w, unsigned *n) {
  char buf[512];
  size_t k = 0;
  *n = 0;
  if (strcmp(text, "-") == 0) return 0;
  for (const char *p = text; *p && k + 2 < sizeof buf; p++) buf[k++] = *p == ';' ? '\n' : *p;
  buf[k++] = '\n';
  buf[k] = 0;
  tt_listing_error err;
  if (tt_listing_parse(buf, k, &lst, &err) != 0) return bad(path, line, "bad body: ", err.msg);
  if (lst.n == 0 || lst.n > 8) return bad(path, line, "a body has 1..8 instructions: ", text);
  for (unsigned i = 0; i < lst.n; i++) w[i] = lst.word[i];
  *n = lst.n;
  return 0;
}

static int load(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) { fprintf(stderr, "%s: cannot open\n", path); return 1; }
  char buf[2048];
  unsigned line = 0;
  while (fgets(buf, sizeof buf, f)) {
    line++;
    buf[strcspn(buf, "\r\n")] = 0;
    if (!buf[0] || buf[0] == '#') continue;
    char *fl[11];
    if (split(buf, fl, 11) < 10) { fclose(f); return bad(path, line, "expected 10 or 11 tab-separated fields", NULL); }
    if (strcmp(fl[0], "slot") == 0) continue;  /* the header */
    if (nrows >= MAX_ROWS) { fclose(f); return bad(path, line, "too many rows", NULL); }
    row *r = &rows[nrows];
    memset(r, 0, sizeof *r);
    r->line = line;
    r->slot = (unsigned)strtoul(fl[0], NULL, 10);
    snprintf(r->probe, sizeof r->probe, "%s", fl[1]);
    snprintf(r->variant, sizeof r->variant, "%s", fl[2]);
    snprintf(r->use, sizeof r->use, "%s", fl[3]);
    snprintf(r->session, sizeof r->session, "%s", fl[4]);
    if (strcmp(r->use, "fit") && strcmp(r->use, "check") && strcmp(r->use, "excluded")) {
      fclose(f);
      return bad(path, line, "use must be fit, check or excluded, not ", r->use);
    }
    for (unsigned t = 0; t < 3; t++)
      if (parse_body(path, line, fl[5 + t], r->body[t], &r->blen[t])) { fclose(f); return 1; }
    /* silicon: t0=1.965,t1=1.970 */
    char *s = fl[8];
    while (*s) {
      if (s[0] != 't' || s[1] < '0' || s[1] > '2' || s[2] != '=') { fclose(f); return bad(path, line, "bad silicon field: ", fl[8]); }
      unsigned t = (unsigned)(s[1] - '0');
      char *e;
      r->si[t] = strtod(s + 3, &e);
      if (e == s + 3 || !r->blen[t]) { fclose(f); return bad(path, line, "silicon figure for an idle thread or no number: ", fl[8]); }
      s = *e == ',' ? e + 1 : e;
      if (*e && *e != ',') { fclose(f); return bad(path, line, "bad silicon field: ", fl[8]); }
    }
    snprintf(r->note, sizeof r->note, "%s", fl[9]);
    nrows++;
  }
  fclose(f);
  return 0;
}

static double slope(const double *x, const double *y, unsigned n) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (unsigned i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
  mx /= n;
  my /= n;
  for (unsigned i = 0; i < n; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) * (x[i] - mx); }
  return sxy / sxx;
}

/* Run row r under profile p (with the --knob overrides when last); 0 ok. */
static int measure(row *r, unsigned p, int last) {
  double x[NLEN], y[3][NLEN];
  for (unsigned li = 0; li < NLEN; li++) {
    int pi = tt_profile_by_name(prof_name[p]);
    if (pi < 0 || tt_profile_apply(&st, (unsigned)pi) != 0) return -1;
    for (unsigned k = 0; last && k < nknobs; k++)
      if (tt_knob_set(&st, knob_name[k], knob_value[k]) != 0) return -1;
    if (tt_set_mode(&st, TT_MODE_CYCLE) != 0) return -1;
    tt_reset(&st);
    for (unsigned t = 0; t < 3; t++) {
      if (!r->blen[t]) continue;
      uint32_t n = 0;
      for (uint32_t b = 0; b < lengths[li]; b++)
        for (unsigned i = 0; i < r->blen[t]; i++) prog[n++] = r->body[t][i];
      if (tt_load_program(&st, t, prog, n) != 0) return -1;
    }
    tt_outcome out = tt_run(&st, 1000000);
    if (out != TT_OUT_DONE) return -1;
    x[li] = lengths[li];
    for (unsigned t = 0; t < 3; t++) {
      uint64_t c = 0;
      if (r->blen[t] && tt_issue_cycle(&st, t, lengths[li] * r->blen[t] - 1, &c) != 0) return -1;
      y[t][li] = (double)c + 1.0;
    }
  }
  for (unsigned t = 0; t < 3; t++) r->model[p][t] = r->blen[t] ? slope(x, y[t], NLEN) : 0;
  r->ok_model[p] = 1;
  return 0;
}

static double worst(const row *r, unsigned p) {
  double w = 0;
  for (unsigned t = 0; t < 3; t++) {
    if (!r->blen[t]) continue;
    double d = r->model[p][t] - r->si[t];
    if (d < 0) d = -d;
    if (d > w) w = d;
  }
  return w;
}

static void figures(char *buf, size_t n, const row *r, int p) {
  size_t k = 0;
  buf[0] = 0;
  for (unsigned t = 0; t < 3 && k + 16 < n; t++) {
    if (!r->blen[t]) continue;
    k += (size_t)snprintf(buf + k, n - k, "%s%.2f", k ? " / " : "", p < 0 ? r->si[t] : r->model[p][t]);
  }
}

static void threads(char *buf, size_t n, const row *r) {
  size_t k = 0;
  buf[0] = 0;
  for (unsigned t = 0; t < 3 && k + 4 < n; t++)
    if (r->blen[t]) k += (size_t)snprintf(buf + k, n - k, "%sT%u", k ? "/" : "", t);
}

static const char *body_text(const row *r, char *buf, size_t n) {
  /* the distinct bodies, by thread */
  size_t k = 0;
  buf[0] = 0;
  for (unsigned t = 0; t < 3; t++) {
    if (!r->blen[t]) continue;
    int same = 0;
    for (unsigned u = 0; u < t; u++)
      if (r->blen[u] == r->blen[t] && !memcmp(r->body[u], r->body[t], r->blen[t] * 4u)) same = 1;
    if (same) continue;
    if (k) k += (size_t)snprintf(buf + k, n - k, "; ");
    int any_other = 0;
    for (unsigned u = 0; u < 3; u++)
      if (r->blen[u] && (r->blen[u] != r->blen[t] || memcmp(r->body[u], r->body[t], r->blen[t] * 4u))) any_other = 1;
    if (any_other) k += (size_t)snprintf(buf + k, n - k, "T%u: ", t);
    for (unsigned i = 0; i < r->blen[t] && k + 40 < n; i++) {
      char d[64];
      tt_disasm(r->body[t][i], TT_DIS_UPPER, d, sizeof d);
      uint32_t op = r->body[t][i] >> 24;
      const char *fn = NULL;
      for (unsigned f = 0; f < TT_FOREIGN_COUNT; f++)
        if (tt_isa_foreign[f].opcode == op) fn = tt_isa_foreign[f].name;
      tt_insn in;
      tt_decode(r->body[t][i], &in);
      if (fn && in.form == TT_FORM_FOREIGN) snprintf(d, sizeof d, "%s", fn);
      char *sp = strchr(d, ' ');
      if (sp) *sp = 0;  /* the mnemonic only: operands are in probes.tsv */
      k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "+" : "", d);
    }
  }
  return buf;
}

static int g_md, g_check;
static double g_tol = 0.1;
static const char *g_path;

/* The command line into the globals: 0, or the exit status. */
static int parse_args(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
      if (nprof >= MAX_PROF) return usage("too many --profile");
      if (tt_profile_by_name(argv[i + 1]) < 0) return usage("unknown profile");
      prof_name[nprof++] = argv[++i];
    } else if (!strcmp(argv[i], "--knob") && i + 1 < argc) {
      char *eq = strchr(argv[++i], '=');
      if (!eq || nknobs >= MAX_KNOBS) return usage("--knob needs NAME=VALUE");
      *eq = 0;
      knob_name[nknobs] = argv[i];
      knob_value[nknobs++] = eq + 1;
    } else if (!strcmp(argv[i], "--md")) g_md = 1;
    else if (!strcmp(argv[i], "--check")) g_check = 1;
    else if (!strcmp(argv[i], "--tol") && i + 1 < argc) g_tol = strtod(argv[++i], NULL);
    else if (argv[i][0] == '-' && argv[i][1]) return usage("unknown option");
    else if (g_path) return usage("one table only");
    else g_path = argv[i];
  }
  if (!g_path) return usage(NULL);
  if (!nprof) { prof_name[nprof++] = "isa"; prof_name[nprof++] = "p150"; }
  return 0;
}

/* The fitted rows, one table line each. */
static void print_md_fit(unsigned last) {
  char b0[256], b1[64], b2[64];
  printf("| slot | probe | instructions per body | threads | silicon |");
  for (unsigned p = 0; p < nprof; p++) printf(" %s |", prof_name[p]);
  printf(" %s within ±%.1f |\n|---|---|---|---|---|", prof_name[last], g_tol);
  for (unsigned p = 0; p < nprof; p++) printf("---|");
  printf("---|\n");
  for (unsigned i = 0; i < nrows; i++) {
    const row *r = &rows[i];
    if (strcmp(r->use, "fit")) continue;
    threads(b1, sizeof b1, r);
    figures(b2, sizeof b2, r, -1);
    printf("| %u | %s | %s | %s | %s |", r->slot, r->probe, body_text(r, b0, sizeof b0), b1, b2);
    for (unsigned p = 0; p < nprof; p++) { figures(b2, sizeof b2, r, (int)p); printf(" %s |", b2); }
    printf(" %s |\n", worst(r, last) <= g_tol ? "yes" : "**no**");
  }
}

/* The sessions not fitted to, one line each. */
static void print_md_sessions(unsigned last) {
  printf("\n| session (not fitted) | rows | %s within ±%.1f | largest difference |\n|---|---|---|---|\n",
         prof_name[last], g_tol);
  for (unsigned i = 0; i < nrows; i++) {
    const row *r = &rows[i];
    if (!strcmp(r->use, "fit")) continue;
    int seen = 0;
    for (unsigned j = 0; j < i; j++) seen |= !strcmp(rows[j].session, r->session) && !strcmp(rows[j].use, r->use);
    if (seen) continue;
    unsigned n = 0, in = 0;
    double w = 0;
    const row *wr = r;
    for (unsigned j = i; j < nrows; j++) {
      const row *q = &rows[j];
      if (strcmp(q->session, r->session) || strcmp(q->use, r->use)) continue;
      n++;
      in += worst(q, last) <= g_tol;
      if (worst(q, last) > w) { w = worst(q, last); wr = q; }
    }
    printf("| %s%s | %u | %u of %u | %.2f (slot %u %s %s) |\n", r->session,
           !strcmp(r->use, "excluded") ? " (excluded: see probes.tsv)" : "", n, in, n, w, wr->slot,
           wr->probe, wr->variant);
  }
}

/* Every row as text. */
static void print_text(unsigned last) {
  char b2[64];
  printf("%-4s %-18s %-3s %-8s %-22s", "slot", "probe", "var", "use", "silicon");
  for (unsigned p = 0; p < nprof; p++) printf(" %-22s", prof_name[p]);
  printf(" session\n");
  for (unsigned i = 0; i < nrows; i++) {
    const row *r = &rows[i];
    figures(b2, sizeof b2, r, -1);
    printf("%-4u %-18s %-3s %-8s %-22s", r->slot, r->probe, r->variant, r->use, b2);
    for (unsigned p = 0; p < nprof; p++) { figures(b2, sizeof b2, r, (int)p); printf(" %-22s", b2); }
    printf(" %s%s\n", r->session, strcmp(r->use, "excluded") && worst(r, last) > g_tol ? "  <- outside" : "");
  }
}

/* --check: the fit and check rows outside the tolerance under the last profile, named. */
static unsigned check_rows(unsigned last) {
  char b1[64], b2[64];
  unsigned nbad = 0;
  for (unsigned i = 0; i < nrows; i++) {
    const row *r = &rows[i];
    if (!strcmp(r->use, "excluded") || worst(r, last) <= g_tol) continue;
    figures(b1, sizeof b1, r, -1);
    figures(b2, sizeof b2, r, (int)last);
    fprintf(stderr, "%s:%u: slot %u %s %s (%s): silicon %s, %s %s\n", g_path, r->line, r->slot, r->probe,
            r->variant, r->session, b1, prof_name[last], b2);
    nbad++;
  }
  if (nbad) fprintf(stderr, "ttcal: %u row(s) outside ±%.2f under %s\n", nbad, g_tol, prof_name[last]);
  return nbad;
}

int main(int argc, char **argv) {
  int rc = parse_args(argc, argv);
  if (rc) return rc;
  if (load(g_path)) return 1;
  tt_init(&st);
  for (unsigned i = 0; i < nrows; i++)
    for (unsigned p = 0; p < nprof; p++)
      if (measure(&rows[i], p, p + 1 == nprof) != 0) {
        fprintf(stderr, "%s:%u: the run did not finish under %s\n", g_path, rows[i].line, prof_name[p]);
        return 1;
      }
  unsigned last = nprof - 1;
  if (g_md) {
    print_md_fit(last);
    print_md_sessions(last);
  } else {
    print_text(last);
  }
  return g_check && check_rows(last) ? 1 : 0;
}
