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

int main(int argc, char **argv) {
  int trace = 0;
  int i = 1;
  if (i < argc && !strcmp(argv[i], "--trace")) { trace = 1; i++; }
  if (i + 1 != argc) {
    fprintf(stderr, "usage: jsoncheck [--trace] FILE\n");
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
  else printf("ok: %s: well-formed JSON\n", g_file);
  return 0;
}
