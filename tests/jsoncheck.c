/* jsoncheck — strict JSON (RFC 8259) validator, and a checker of the Chrome trace-event format
 * as ttrun --trace writes it (the format Perfetto's and chrome://tracing's JSON importers read).
 *
 *   jsoncheck FILE            FILE is one well-formed JSON value (ttrun --json output)
 *   jsoncheck --trace FILE    ... and a trace-event document:
 *       - an object with a "traceEvents" array (displayTimeUnit, if present, "ms" or "ns");
 *       - every event an object with a string "ph" of the format's phases, integer "pid";
 *       - "X" (complete): string name, numbers ts >= 0 and dur >= 0, integer tid;
 *       - "C" (counter): string name, ts >= 0, "args" an object of numbers;
 *       - "M" (metadata): name process_name / thread_name (args.name a string) or
 *         process_sort_index / thread_sort_index (args.sort_index a number);
 *       - on each (pid, tid) track the X slices nest: two slices are disjoint or one contains
 *         the other (partial overlaps are what the importers cannot draw);
 *       - every track that has slices is named by a thread_name event.
 *   jsoncheck --ttrun FILE    ... and a ttrun --json document as tools/ttrun-json.md describes it:
 *       - the top-level members with their types; each thread's "words" counts (integers);
 *       - in cycle mode, each thread's "stalls": a reason of the documented vocabulary, integer
 *         cycles, semaphore null or {index, value, max}, conditions an array of strings,
 *         holder null or an integer; their cycles add up to the thread's "stall_cycles";
 *       - a thread that is not done has "wait" with a structured "stall" of the same reasons.
 * Prints "ok: ..." and exits 0, or "FILE: message" and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jval {
  jtype type;
  double num;
  char *str;             /* J_STR */
  size_t n;              /* items (J_ARR) or members (J_OBJ) */
  struct jval **items;
  char **keys;           /* J_OBJ */
} jval;

static const char *g_p, *g_end, *g_file, *g_begin;
static int g_depth;

static void fail(const char *msg) {
  fprintf(stderr, "%s: %s (at byte %ld)\n", g_file, msg, g_p ? (long)(g_p - g_begin) : 0L);
  exit(1);
}
static void failf(const char *msg, const char *what) {
  fprintf(stderr, "%s: %s%s\n", g_file, msg, what);
  exit(1);
}
static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) fail("out of memory");
  return p;
}
static void ws(void) {
  while (g_p < g_end && (*g_p == ' ' || *g_p == '\t' || *g_p == '\n' || *g_p == '\r')) g_p++;
}
static jval *new_val(jtype t) {
  jval *v = xmalloc(sizeof *v);
  memset(v, 0, sizeof *v);
  v->type = t;
  return v;
}
static jval *parse_value(void);

static char *parse_string(void) {
  if (g_p >= g_end || *g_p != '"') fail("expected a string");
  g_p++;
  size_t cap = 16, n = 0;
  char *s = xmalloc(cap);
  while (1) {
    if (g_p >= g_end) fail("unterminated string");
    unsigned char c = (unsigned char)*g_p++;
    if (c == '"') break;
    if (c < 0x20) fail("control character in a string");
    if (c == '\\') {
      if (g_p >= g_end) fail("unterminated escape");
      char e = *g_p++;
      if (e == 'u') {
        for (int i = 0; i < 4; i++)
          if (g_p >= g_end || !strchr("0123456789abcdefABCDEF", *g_p++)) fail("bad \\u escape");
        c = '?';
      } else if (strchr("\"\\/bfnrt", e)) {
        c = (unsigned char)(e == 'n' ? '\n' : e == 't' ? '\t' : e);
      } else {
        fail("bad escape");
      }
    }
    if (n + 2 > cap) { cap *= 2; s = realloc(s, cap); if (!s) fail("out of memory"); }
    s[n++] = (char)c;
  }
  s[n] = 0;
  return s;
}

static jval *parse_number(void) {
  const char *s = g_p;
  if (g_p < g_end && *g_p == '-') g_p++;
  if (g_p >= g_end) fail("bad number");
  if (*g_p == '0') g_p++;
  else if (*g_p >= '1' && *g_p <= '9') while (g_p < g_end && *g_p >= '0' && *g_p <= '9') g_p++;
  else fail("bad number");
  if (g_p < g_end && *g_p == '.') {
    g_p++;
    if (g_p >= g_end || *g_p < '0' || *g_p > '9') fail("bad fraction");
    while (g_p < g_end && *g_p >= '0' && *g_p <= '9') g_p++;
  }
  if (g_p < g_end && (*g_p == 'e' || *g_p == 'E')) {
    g_p++;
    if (g_p < g_end && (*g_p == '+' || *g_p == '-')) g_p++;
    if (g_p >= g_end || *g_p < '0' || *g_p > '9') fail("bad exponent");
    while (g_p < g_end && *g_p >= '0' && *g_p <= '9') g_p++;
  }
  jval *v = new_val(J_NUM);
  char buf[64];
  size_t n = (size_t)(g_p - s) < sizeof buf - 1 ? (size_t)(g_p - s) : sizeof buf - 1;
  memcpy(buf, s, n);
  buf[n] = 0;
  v->num = strtod(buf, NULL);
  return v;
}

static int lit(const char *w) {
  size_t n = strlen(w);
  if ((size_t)(g_end - g_p) >= n && !memcmp(g_p, w, n)) { g_p += n; return 1; }
  return 0;
}

static jval *parse_value(void) {
  jval *v;
  ws();
  if (g_p >= g_end) fail("unexpected end of input");
  if (++g_depth > 200) fail("nesting deeper than 200");
  char c = *g_p;
  if (c == '{') {
    g_p++;
    v = new_val(J_OBJ);
    size_t cap = 0;
    ws();
    if (g_p < g_end && *g_p == '}') { g_p++; g_depth--; return v; }
    while (1) {
      ws();
      char *k = parse_string();
      for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], k)) failf("duplicate object key ", k);
      ws();
      if (g_p >= g_end || *g_p != ':') fail("expected ':'");
      g_p++;
      jval *m = parse_value();
      if (v->n == cap) {
        cap = cap ? 2 * cap : 8;
        v->keys = realloc(v->keys, cap * sizeof *v->keys);
        v->items = realloc(v->items, cap * sizeof *v->items);
        if (!v->keys || !v->items) fail("out of memory");
      }
      v->keys[v->n] = k;
      v->items[v->n++] = m;
      ws();
      if (g_p < g_end && *g_p == ',') { g_p++; continue; }
      if (g_p < g_end && *g_p == '}') { g_p++; break; }
      fail("expected ',' or '}'");
    }
  } else if (c == '[') {
    g_p++;
    v = new_val(J_ARR);
    size_t cap = 0;
    ws();
    if (g_p < g_end && *g_p == ']') { g_p++; g_depth--; return v; }
    while (1) {
      jval *m = parse_value();
      if (v->n == cap) {
        cap = cap ? 2 * cap : 16;
        v->items = realloc(v->items, cap * sizeof *v->items);
        if (!v->items) fail("out of memory");
      }
      v->items[v->n++] = m;
      ws();
      if (g_p < g_end && *g_p == ',') { g_p++; continue; }
      if (g_p < g_end && *g_p == ']') { g_p++; break; }
      fail("expected ',' or ']'");
    }
  } else if (c == '"') {
    v = new_val(J_STR);
    v->str = parse_string();
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    v = parse_number();
  } else if (lit("true") || lit("false")) {
    v = new_val(J_BOOL);
  } else if (lit("null")) {
    v = new_val(J_NULL);
  } else {
    fail("unexpected character");
    return NULL;
  }
  g_depth--;
  return v;
}

static jval *get(const jval *o, const char *k) {
  if (!o || o->type != J_OBJ) return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (!strcmp(o->keys[i], k)) return o->items[i];
  return NULL;
}

typedef struct xs { double pid, tid, ts, end; size_t ev; } xs;
static int cmp_xs(const void *a, const void *b) {
  const xs *x = a, *y = b;
  if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1;
  return 0;
}

static void ev_fail(size_t i, const char *msg) {
  fprintf(stderr, "%s: traceEvents[%zu]: %s\n", g_file, i, msg);
  exit(1);
}

static int is_int(const jval *v) { return v && v->type == J_NUM && v->num == (double)(long long)v->num; }

static void check_trace(const jval *root) {
  if (root->type != J_OBJ) failf("the trace is not a JSON object", "");
  const jval *dtu = get(root, "displayTimeUnit");
  if (dtu && (dtu->type != J_STR || (strcmp(dtu->str, "ms") && strcmp(dtu->str, "ns"))))
    failf("displayTimeUnit must be \"ms\" or \"ns\"", "");
  const jval *ev = get(root, "traceEvents");
  if (!ev || ev->type != J_ARR) failf("no \"traceEvents\" array", "");
  xs *x = xmalloc((ev->n + 1) * sizeof *x);
  size_t nx = 0, nc = 0, nm = 0;
  double (*named)[2] = xmalloc((ev->n + 1) * sizeof *named);
  size_t nnamed = 0;
  for (size_t i = 0; i < ev->n; i++) {
    const jval *e = ev->items[i];
    if (e->type != J_OBJ) ev_fail(i, "not an object");
    const jval *ph = get(e, "ph"), *name = get(e, "name"), *pid = get(e, "pid"), *tid = get(e, "tid");
    const jval *ts = get(e, "ts"), *args = get(e, "args");
    if (!ph || ph->type != J_STR || strlen(ph->str) != 1 || !strchr("XBECMiIbenstfPONDR", ph->str[0]))
      ev_fail(i, "missing or unknown \"ph\"");
    if (!is_int(pid)) ev_fail(i, "\"pid\" is not an integer");
    if (!name || name->type != J_STR) ev_fail(i, "\"name\" is not a string");
    switch (ph->str[0]) {
    case 'X': {
      const jval *dur = get(e, "dur");
      if (!ts || ts->type != J_NUM || ts->num < 0) ev_fail(i, "X event without a number ts >= 0");
      if (!dur || dur->type != J_NUM || dur->num < 0) ev_fail(i, "X event without a number dur >= 0");
      if (!is_int(tid)) ev_fail(i, "X event without an integer tid");
      if (args && args->type != J_OBJ) ev_fail(i, "\"args\" is not an object");
      x[nx].pid = pid->num;
      x[nx].tid = tid->num;
      x[nx].ts = ts->num;
      x[nx].end = ts->num + dur->num;
      x[nx].ev = i;
      nx++;
      break;
    }
    case 'C':
      if (!ts || ts->type != J_NUM || ts->num < 0) ev_fail(i, "C event without a number ts >= 0");
      if (!args || args->type != J_OBJ || args->n == 0) ev_fail(i, "C event without args");
      for (size_t k = 0; k < args->n; k++)
        if (args->items[k]->type != J_NUM) ev_fail(i, "C event args must be numbers");
      nc++;
      break;
    case 'M': {
      if (!args || args->type != J_OBJ) ev_fail(i, "M event without args");
      const char *n = name->str;
      if (!strcmp(n, "process_name") || !strcmp(n, "thread_name")) {
        const jval *a = get(args, "name");
        if (!a || a->type != J_STR) ev_fail(i, "name metadata without args.name");
        if (!strcmp(n, "thread_name")) {
          if (!is_int(tid)) ev_fail(i, "thread_name without an integer tid");
          named[nnamed][0] = pid->num;
          named[nnamed][1] = tid->num;
          nnamed++;
        }
      } else if (!strcmp(n, "process_sort_index") || !strcmp(n, "thread_sort_index")) {
        if (!is_int(get(args, "sort_index"))) ev_fail(i, "sort metadata without an integer args.sort_index");
      } else if (strcmp(n, "process_labels") != 0) {
        ev_fail(i, "unknown metadata name");
      }
      nm++;
      break;
    }
    default:
      break;
    }
  }
  qsort(x, nx, sizeof *x, cmp_xs);
  double *stack = xmalloc((nx + 1) * sizeof *stack);
  size_t depth = 0;
  for (size_t i = 0; i < nx; i++) {
    if (i == 0 || x[i].pid != x[i - 1].pid || x[i].tid != x[i - 1].tid) {
      depth = 0;
      int ok = 0;
      for (size_t k = 0; k < nnamed; k++) ok |= named[k][0] == x[i].pid && named[k][1] == x[i].tid;
      if (!ok) ev_fail(x[i].ev, "slice on a track without a thread_name");
    }
    while (depth && stack[depth - 1] <= x[i].ts) depth--;
    if (depth && stack[depth - 1] < x[i].end) {
      fprintf(stderr, "%s: traceEvents[%zu]: slice [%g, %g) on pid %g tid %g overlaps an enclosing slice ending at %g without nesting\n",
              g_file, x[i].ev, x[i].ts, x[i].end, x[i].pid, x[i].tid, stack[depth - 1]);
      exit(1);
    }
    stack[depth++] = x[i].end;
  }
  printf("ok: %s: trace-event JSON, %zu events (%zu slices, %zu counter samples, %zu metadata), slices nest on every track\n",
         g_file, ev->n, nx, nc, nm);
}

/* ---- ttrun --json (tools/ttrun-json.md) ------------------------------------------------------ */
static const char *const stall_reasons[] = {"semaphore_empty", "semaphore_full", "resource_wait", "stream_wait",
  "mutex_wait", "mutex_invalid", "atomic_retry", "thcon_busy", "thcon_own", "cfg_entry", "sync_slot", "arbitration",
  "wb_full", "latch_release", "other"};

static void need(const jval *o, const char *k, jtype type, const char *where) {
  const jval *v = get(o, k);
  if (!v || v->type != type) {
    fprintf(stderr, "%s: %s: member \"%s\" missing or of the wrong type\n", g_file, where, k);
    exit(1);
  }
}

/* One structured stall reason ("stalls" item or a wait's "stall"). */
static void check_why(const jval *w, const char *where) {
  const jval *r = get(w, "reason"), *sem = get(w, "semaphore"), *h = get(w, "holder");
  int known = 0;
  for (size_t i = 0; r && r->type == J_STR && i < sizeof stall_reasons / sizeof *stall_reasons; i++)
    known |= !strcmp(r->str, stall_reasons[i]);
  if (!known) failf(where, ": a stall reason outside the documented vocabulary");
  need(w, "signal", J_STR, where);
  need(w, "unit", J_STR, where);
  need(w, "conditions", J_ARR, where);
  if (!sem || (sem->type != J_NULL && (sem->type != J_OBJ || !is_int(get(sem, "index")) ||
                                       !is_int(get(sem, "value")) || !is_int(get(sem, "max")))))
    failf(where, ": \"semaphore\" is neither null nor {index, value, max}");
  if (!h || (h->type != J_NULL && !is_int(h))) failf(where, ": \"holder\" is neither null nor an integer");
  if (!get(w, "latched_by")) failf(where, ": no \"latched_by\"");
}

static void check_ttrun_thread(const jval *th, int cyc) {
  static const char *const words[] = {"run", "listed", "replayed", "replay_ops", "mop_cfg", "named_opcode_only", "constant_pushes", "pushed_dynamically",
                                      "pushed_supplied", "not_modelled", "not_modelled_mop"};
  need(th, "state", J_STR, "thread");
  const jval *w = get(th, "words");
  if (w) {
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
      if (!is_int(get(w, words[i]))) failf("thread words: not an integer: ", words[i]);
    need(w, "dynamic_push_lines", J_ARR, "thread words");
    need(w, "not_modelled_lines", J_ARR, "thread words");
  }
  if (strcmp(get(th, "state")->str, "done") && strcmp(get(th, "state")->str, "no program")) {
    need(th, "wait", J_OBJ, "thread");
    need(get(th, "wait"), "stall", J_OBJ, "thread wait");
    need(get(th, "wait"), "unknown_ahead", J_ARR, "thread wait");
    if (!is_int(get(get(th, "wait"), "unknown_between_wait_and_held"))) failf("thread wait: ", "unknown_between_wait_and_held");
    check_why(get(get(th, "wait"), "stall"), "thread wait stall");
  }
  if (!cyc) return;
  need(th, "stall_cycles", J_OBJ, "thread");
  need(th, "stalls", J_ARR, "thread");
  const jval *sc = get(th, "stall_cycles"), *st = get(th, "stalls");
  double total = 0, rows = 0;
  for (size_t i = 0; i < sc->n; i++) total += sc->items[i]->num;
  for (size_t i = 0; i < st->n; i++) {
    if (!is_int(get(st->items[i], "cycles"))) failf("stalls: ", "an item without integer cycles");
    check_why(st->items[i], "stalls item");
    rows += get(st->items[i], "cycles")->num;
  }
  if (total != rows) failf("thread: the stalls' cycles do not add up to stall_cycles", "");
}

static void check_ttrun(const jval *root) {
  if (root->type != J_OBJ) failf("the document is not a JSON object", "");
  need(root, "tool", J_STR, "document");
  need(root, "mode", J_STR, "document");
  need(root, "profile", J_STR, "document");
  need(root, "outcome", J_STR, "document");
  need(root, "threads", J_ARR, "document");
  need(root, "changed", J_ARR, "document");
  int cyc = !strcmp(get(root, "mode")->str, "cycle");
  if (cyc) need(root, "hazards", J_ARR, "document");
  const jval *th = get(root, "threads");
  for (size_t i = 0; i < th->n; i++) check_ttrun_thread(th->items[i], cyc);
  printf("ok: %s: ttrun JSON (%zu threads)\n", g_file, th->n);
}

int main(int argc, char **argv) {
  int trace = 0, ttrun = 0;
  int i = 1;
  if (i < argc && !strcmp(argv[i], "--trace")) { trace = 1; i++; }
  else if (i < argc && !strcmp(argv[i], "--ttrun")) { ttrun = 1; i++; }
  if (i + 1 != argc) {
    fprintf(stderr, "usage: jsoncheck [--trace | --ttrun] FILE\n");
    return 2;
  }
  g_file = argv[i];
  FILE *f = fopen(g_file, "rb");
  if (!f) { perror(g_file); return 1; }
  size_t cap = 1 << 20, n = 0;
  char *buf = xmalloc(cap);
  size_t k;
  while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) { cap *= 2; buf = realloc(buf, cap); if (!buf) fail("out of memory"); }
  }
  fclose(f);
  g_p = g_begin = buf;
  g_end = buf + n;
  jval *root = parse_value();
  ws();
  if (g_p != g_end) fail("text after the JSON value");
  if (trace) check_trace(root);
  else if (ttrun) check_ttrun(root);
  else printf("ok: %s: well-formed JSON\n", g_file);
  return 0;
}
