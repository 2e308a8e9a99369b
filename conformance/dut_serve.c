/* dut_serve.c — ttdut-serve: puts an implementation under test (the model, or any shared
 * object exporting ttdut_entry) behind the ttdut line protocol on stdin/stdout, so that
 * `ttconf --dut-cmd "ttdut-serve [--dut PATH.so]"` runs it as a process. It is both a working
 * example of the protocol's server side and the test of its client (make test runs the whole
 * suite through it). Protocol: conformance/README.md, "The line protocol". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dut_check.h"
#include "dut_model.h"
#include "dut_proto.h"

static const ttdut_ops *g_ops;
static void *g_d;
static ttdut_caps g_caps;
static char g_line[DUT_LINE_MAX * 12];   /* a load line of 4096 words is ~45 KiB */
static ttdut_loc g_cl[65536];
static uint32_t g_ca[65536], g_cb[65536];
static ttdut_hazard g_haz[256];
static ttdut_trace_rec g_tr[4096];

static void reply(int r, const char *why) {
  if (r == TTDUT_OK) puts("ok");
  else printf("%s %s\n", r == TTDUT_REFUSED ? "refused" : "no", why[0] ? why : "unsupported");
}

static void fmt_loc(const ttdut_loc *l, char *buf, size_t n) {
  if (dutc_fmt_loc(l, buf, n) != 0) snprintf(buf, n, "?");
}

static void do_caps(void) {
  char set[256], get[256], flags[256];
  dut_names_fmt(g_caps.can_set, dut_kind_name, TTDUT_LOC_KIND_COUNT, set, sizeof set);
  dut_names_fmt(g_caps.can_get, dut_kind_name, TTDUT_LOC_KIND_COUNT, get, sizeof get);
  dut_names_fmt(g_caps.flags, dut_flag_name, 32, flags, sizeof flags);
  for (char *p = g_caps.name; *p; p++) if (*p == ' ') *p = '_';
  printf("ok name=%s modes=%s%s%s set=%s get=%s flags=%s notes=%s\n", g_caps.name,
         (g_caps.modes & 1) ? "func" : "", (g_caps.modes & 3) == 3 ? "," : "",
         (g_caps.modes & 2) ? "cycle" : "", set, get, flags, g_caps.notes);
}

static void do_reset(char *args) {
  ttdut_knob k[64];
  uint32_t nk = 0, mode;
  char why[256] = "";
  char *tok = strtok(args, " ");
  if (!tok || (strcmp(tok, "func") != 0 && strcmp(tok, "cycle") != 0)) { puts("error reset needs func or cycle"); return; }
  mode = strcmp(tok, "cycle") == 0 ? TTDUT_MODE_CYCLE : TTDUT_MODE_FUNC;
  while ((tok = strtok(NULL, " ")) && nk < 64) {
    char *eq = strchr(tok, '=');
    if (!eq) { puts("error knob must be NAME=VALUE"); return; }
    *eq = 0;
    k[nk].name = tok;
    k[nk].value = eq + 1;
    nk++;
  }
  reply(g_ops->reset(g_d, mode, k, nk, why, sizeof why), why);
}

static int parse_loc_word(char **p, ttdut_loc *l) {
  char *tok = strtok(*p, " ");
  *p = NULL;
  return tok && dutc_parse_loc(tok, strlen(tok), l) == 0 ? 0 : -1;
}

static void do_run(const char *args) {
  ttdut_result r;
  unsigned long long budget = strtoull(args, NULL, 0);
  if (g_ops->run(g_d, budget, &r) != TTDUT_OK) { puts("error run failed"); return; }
  printf("ok %s %llu %llu\n", dut_outcome_name(r.outcome), (unsigned long long)r.steps,
         (unsigned long long)r.cycles);
  for (unsigned t = 0; t < 3; t++) {
    const ttdut_thread_result *x = &r.thread[t];
    char why[sizeof x->why + 1];
    memcpy(why, x->why, sizeof x->why);
    why[sizeof x->why] = 0;
    for (char *q = why; *q; q++) if (*q == '\n' || *q == '\r') *q = ' ';
    printf("t%u %u %u %u %s %u %s\n", t, x->done, x->blocked, x->issued, dut_fault_name(x->fault),
           x->fault_index, why);
  }
}

static void serve_line(char *line) {
  char why[256] = "";
  char *sp = strchr(line, ' ');
  char *args = sp ? sp + 1 : line + strlen(line);
  if (sp) *sp = 0;
  if (strcmp(line, "hello") == 0) printf("ok %d\n", DUT_PROTO_VERSION);
  else if (strcmp(line, "caps") == 0) do_caps();
  else if (strcmp(line, "accepts") == 0) reply(g_ops->accepts(g_d, (uint32_t)strtoul(args, NULL, 0), why, sizeof why), why);
  else if (strcmp(line, "reset") == 0) do_reset(args);
  else if (strcmp(line, "set") == 0) {
    ttdut_loc l;
    char *p = args;
    if (parse_loc_word(&p, &l) != 0) { puts("error bad location"); return; }
    char *v = strtok(NULL, " ");
    reply(g_ops->set(g_d, &l, v ? (uint32_t)strtoul(v, NULL, 0) : 0, why, sizeof why), why);
  } else if (strcmp(line, "load") == 0) {
    static uint32_t words[4096];
    uint32_t n = 0;
    char *tok = strtok(args, " ");
    if (!tok || tok[0] != 't' || tok[1] < '0' || tok[1] > '2') { puts("error load tN WORD..."); return; }
    unsigned t = (unsigned)(tok[1] - '0');
    while ((tok = strtok(NULL, " ")) && n < 4096) words[n++] = (uint32_t)strtoul(tok, NULL, 0);
    reply(g_ops->load(g_d, t, words, n, why, sizeof why), why);
  } else if (strcmp(line, "run") == 0) do_run(args);
  else if (strcmp(line, "get") == 0) {
    ttdut_loc l;
    uint32_t v = 0;
    char *p = args;
    if (parse_loc_word(&p, &l) != 0) { puts("error bad location"); return; }
    int r = g_ops->get(g_d, &l, &v, why, sizeof why);
    if (r == TTDUT_OK) printf("ok 0x%X\n", v);
    else reply(r, why);
  } else if (strcmp(line, "issue") == 0) {
    unsigned t = 0, k = 0;
    uint64_t c = 0;
    if (sscanf(args, "t%u %u", &t, &k) != 2 || !g_ops->issue_cycle ||
        g_ops->issue_cycle(g_d, t, k, &c) != TTDUT_OK) puts("no never issued");
    else printf("ok %llu\n", (unsigned long long)c);
  } else if (strcmp(line, "hazards") == 0) {
    uint32_t n = g_ops->hazards ? g_ops->hazards(g_d, g_haz, 256) : 0;
    printf("ok %u\n", n);
    for (uint32_t i = 0; i < n; i++) {
      if (i >= 256) { printf("unknown t0 0\n"); continue; }
      const char *kn = tt_hazard_kind_name(g_haz[i].kind);
      printf("%s t%u %u\n", kn ? kn : "unknown", g_haz[i].thread, g_haz[i].index);
    }
  } else if (strcmp(line, "snapshot") == 0) {
    if (g_ops->snapshot) g_ops->snapshot(g_d);
    puts("ok");
  } else if (strcmp(line, "changed") == 0) {
    uint32_t n = g_ops->changed ? g_ops->changed(g_d, g_cl, g_ca, g_cb, 65536) : 0;
    if (n > 65536) n = 65536;
    printf("ok %u\n", n);
    for (uint32_t i = 0; i < n; i++) {
      char lb[64];
      fmt_loc(&g_cl[i], lb, sizeof lb);
      printf("%s 0x%X 0x%X\n", lb, g_ca[i], g_cb[i]);
    }
  } else if (strcmp(line, "trace") == 0) {
    uint32_t n = g_ops->trace ? g_ops->trace(g_d, g_tr, 4096) : 0;
    if (n > 4096) n = 4096;
    printf("ok %u\n", n);
    for (uint32_t i = 0; i < n; i++) {
      const ttdut_trace_rec *r = &g_tr[i];
      printf("t%u %u %08X %llu", r->thread, r->index, r->word, (unsigned long long)r->cycle);
      for (uint32_t w = 0; w < r->nwrites && w < TTDUT_TRACE_WRITES; w++) {
        char lb[64];
        fmt_loc(&r->loc[w], lb, sizeof lb);
        printf(" %s=0x%X", lb, r->value[w]);
      }
      putchar('\n');
    }
  } else printf("no unknown request %s\n", line);   /* a later request: not supported here */
}

int main(int argc, char **argv) {
  const char *so = NULL, *args = "";
  char why[256] = "";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--dut") == 0 && i + 1 < argc) so = argv[++i];
    else if (strcmp(argv[i], "--dut-args") == 0 && i + 1 < argc) args = argv[++i];
    else {
      fprintf(stderr, "usage: ttdut-serve [--dut PATH.so] [--dut-args ARGS]\n"
                      "Serves the ttdut line protocol on stdin/stdout for the model (default) or\n"
                      "the shared object PATH.so (conformance/README.md).\n");
      return 2;
    }
  }
  g_ops = so ? dutc_load_so(so, why, sizeof why) : ttdut_model_ops();
  if (!g_ops) { fprintf(stderr, "ttdut-serve: %s: %s\n", so, why); return 1; }
  g_d = g_ops->open(args, why, sizeof why);
  if (!g_d) { fprintf(stderr, "ttdut-serve: cannot open: %s\n", why); return 1; }
  g_ops->caps(g_d, &g_caps);
  g_caps.name[sizeof g_caps.name - 1] = 0;
  g_caps.notes[sizeof g_caps.notes - 1] = 0;
  while (fgets(g_line, sizeof g_line, stdin)) {
    size_t n = strlen(g_line);
    while (n && (g_line[n - 1] == '\n' || g_line[n - 1] == '\r')) g_line[--n] = 0;
    if (strcmp(g_line, "quit") == 0) { puts("ok"); break; }
    serve_line(g_line);
    fflush(stdout);
  }
  g_ops->close(g_d);
  return 0;
}
