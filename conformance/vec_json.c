/* vec_json.c — the conformance suite as JSON (schema: conformance/json-schema.md): one
 * document per parsed vector, and `--export-json OUTDIR PATH...`, which walks .vec files the
 * way ttconf does and writes OUTDIR/<path>.json plus OUTDIR/index.json. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "files.h"
#include "vec_json.h"

#define LOC_TEXT_MAX 64
#define PATH_CAP 4096
#define MAX_DEPTH 32
#define FILE_CAP (4u << 20)          /* largest .vec file read (as ttconf) */

/* ---- one vector ---------------------------------------------------------------------------- */

static const char *expect_kind_name(unsigned kind) {
  switch (kind) {
  case TT_VEC_EX_LOC: return "loc";
  case TT_VEC_EX_DONE: return "done";
  case TT_VEC_EX_BLOCKED: return "blocked";
  case TT_VEC_EX_DEADLOCK: return "deadlock";
  case TT_VEC_EX_FAULT: return "fault";
  case TT_VEC_EX_ISSUE: return "issue";
  case TT_VEC_EX_CYCLES: return "cycles";
  case TT_VEC_EX_HAZARD: return "hazard";
  case TT_VEC_EX_HAZARDS: return "hazards";
  case TT_VEC_EX_ISSUED: return "issued";
  default: return NULL;   /* a kind added to vec.h after this exporter */
  }
}

/* Expectations the vector format evaluates in cycle mode only. */
static int expect_cycle_only(unsigned kind) {
  return kind == TT_VEC_EX_ISSUE || kind == TT_VEC_EX_CYCLES || kind == TT_VEC_EX_HAZARD ||
         kind == TT_VEC_EX_HAZARDS;
}

static const char *cmp_text(unsigned cmp) {
  switch (cmp) {
  case TT_VEC_CMP_EQ: return "=";
  case TT_VEC_CMP_LE: return "<=";
  case TT_VEC_CMP_GE: return ">=";
  default: return NULL;
  }
}

/* The location's text as the vector format spells it; 0 when the kind has no text. */
static size_t loc_text(const tt_loc *loc, char *buf) {
  size_t n = tt_loc_format(loc, buf, LOC_TEXT_MAX);
  return n < LOC_TEXT_MAX ? n : 0;
}

static int refuse(unsigned l, const char *m, unsigned *line, const char **msg) {
  if (line) *line = l;
  if (msg) *msg = m;
  return -1;
}

int tt_vec_json_check(const tt_vec *v, unsigned *line, const char **msg) {
  char buf[LOC_TEXT_MAX];
  if (!(v->modes & TT_VEC_MODE_BOTH) || (v->modes & ~(unsigned)TT_VEC_MODE_BOTH))
    return refuse(v->mode_line, "mode set has no JSON form", line, msg);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (v->prog_len[t] > TT_PROG_MAX) return refuse(0, "stream longer than TT_PROG_MAX", line, msg);
  for (unsigned i = 0; i < v->ninits; i++)
    if (!loc_text(&v->inits[i].loc, buf))
      return refuse(v->inits[i].line, "init location has no JSON form (unknown location kind)",
                    line, msg);
  for (unsigned i = 0; i < v->nexpects; i++) {
    const tt_vec_expect *x = &v->expects[i];
    if (!expect_kind_name(x->kind))
      return refuse(x->line, "expectation kind has no JSON form (vec_json.c predates it)", line,
                    msg);
    if (x->kind == TT_VEC_EX_LOC && !loc_text(&x->loc, buf))
      return refuse(x->line, "expected location has no JSON form (unknown location kind)", line,
                    msg);
    if (x->kind == TT_VEC_EX_FAULT && x->value >= TT_FAULT_CLASS_COUNT)
      return refuse(x->line, "unknown fault class", line, msg);
    if (x->kind == TT_VEC_EX_HAZARD && x->value >= TT_HAZ_KIND_COUNT)
      return refuse(x->line, "unknown hazard kind", line, msg);
    if (x->kind == TT_VEC_EX_CYCLES && !cmp_text(x->cmp))
      return refuse(x->line, "unknown cycle comparison", line, msg);
    if (x->thread >= TT_THREAD_COUNT)
      return refuse(x->line, "thread out of range", line, msg);
  }
  if (line) *line = 0;
  if (msg) *msg = NULL;
  return 0;
}

/* A JSON string: the text is UTF-8 (tt_vec_parse validates it); quote, backslash and control
 * characters are escaped, everything else is copied. */
static void jstr(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\b': fputs("\\b", f); break;
    case '\f': fputs("\\f", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    default:
      if (*p < 0x20 || *p == 0x7F) fprintf(f, "\\u%04x", *p);
      else fputc(*p, f);
    }
  }
  fputc('"', f);
}

static void jkey(FILE *f, const char *indent, const char *key) {
  fputs(indent, f);
  jstr(f, key);
  fputs(": ", f);
}

static void jnum(FILE *f, uint64_t v) { fprintf(f, "%" PRIu64, v); }

/* One expectation, on one line; "line" is always its last member. */
static void write_expect(FILE *f, const tt_vec_expect *x) {
  char buf[LOC_TEXT_MAX];
  fputs("{\"kind\": ", f);
  jstr(f, expect_kind_name(x->kind));
  switch (x->kind) {
  case TT_VEC_EX_LOC:
    loc_text(&x->loc, buf);
    fputs(", \"loc\": ", f);
    jstr(f, buf);
    fputs(", \"value\": ", f);
    jnum(f, x->value);
    break;
  case TT_VEC_EX_DONE: case TT_VEC_EX_BLOCKED:
    fprintf(f, ", \"thread\": %u", (unsigned)x->thread);
    break;
  case TT_VEC_EX_DEADLOCK:
    break;
  case TT_VEC_EX_FAULT:
    fprintf(f, ", \"thread\": %u, \"class\": ", (unsigned)x->thread);
    jstr(f, tt_fault_class_name((unsigned)x->value));
    break;
  case TT_VEC_EX_ISSUE:
    fprintf(f, ", \"thread\": %u, \"index\": %u, \"cycle\": ", (unsigned)x->thread,
            (unsigned)x->index);
    jnum(f, x->value);
    break;
  case TT_VEC_EX_CYCLES:
    fputs(", \"cmp\": ", f);
    jstr(f, cmp_text(x->cmp));
    fputs(", \"cycle\": ", f);
    jnum(f, x->value);
    break;
  case TT_VEC_EX_HAZARD:
    fprintf(f, ", \"thread\": %u, \"index\": %u, \"hazard\": ", (unsigned)x->thread,
            (unsigned)x->index);
    jstr(f, tt_hazard_kind_name((unsigned)x->value));
    break;
  case TT_VEC_EX_HAZARDS:
    fputs(", \"count\": ", f);
    jnum(f, x->value);
    break;
  case TT_VEC_EX_ISSUED:
    fprintf(f, ", \"thread\": %u, \"count\": ", (unsigned)x->thread);
    jnum(f, x->value);
    break;
  default:
    break;   /* refused by tt_vec_json_check */
  }
  fprintf(f, ", \"cycle_only\": %s, \"line\": %u}", expect_cycle_only(x->kind) ? "true" : "false",
          x->line);
}

/* The opening of a document: its format name and the schema version. */
static void json_open(FILE *f, const char *format) {
  fputs("{\n", f);
  jkey(f, "  ", "format");
  jstr(f, format);
  fputs(",\n", f);
  jkey(f, "  ", "version");
  fprintf(f, "%d,\n", TT_VEC_JSON_VERSION);
}

/* "refs" and "modes": the vector's references and the modes it runs in. */
static void json_refs_modes(const tt_vec *v, FILE *f) {
  static const char *const mode_names[2] = {"func", "cycle"};
  jkey(f, "  ", "refs");
  fputc('[', f);
  for (unsigned i = 0; i < v->nrefs; i++) {
    fputs(i ? ",\n    " : "\n    ", f);
    jstr(f, v->refs[i]);
  }
  fputs(v->nrefs ? "\n  ],\n" : "],\n", f);

  jkey(f, "  ", "modes");
  fputc('[', f);
  for (unsigned m = 0, n = 0; m < 2; m++)
    if (v->modes & (1u << m)) {
      if (n++) fputs(", ", f);
      jstr(f, mode_names[m]);
    }
  fputs("],\n", f);
}

/* "source" .. "profile": where the vector came from and how it runs. */
static void json_header(const tt_vec *v, const char *source_path, FILE *f) {
  jkey(f, "  ", "source");
  if (source_path) jstr(f, source_path);
  else fputs("null", f);
  fputs(",\n", f);
  jkey(f, "  ", "name");
  jstr(f, v->name);
  fputs(",\n", f);
  json_refs_modes(v, f);
  jkey(f, "  ", "strict");
  fputs(v->strict ? "true,\n" : "false,\n", f);
  jkey(f, "  ", "budget");
  if (v->has_budget) jnum(f, v->budget);
  else fputs("null", f);
  fputs(",\n", f);
  jkey(f, "  ", "profile");
  if (v->profile_line) jstr(f, v->profile);
  else fputs("null", f);
  fputs(",\n", f);
}

/* "knobs" and "init", each entry with its line. */
static void json_knobs_inits(const tt_vec *v, FILE *f) {
  char buf[LOC_TEXT_MAX];
  jkey(f, "  ", "knobs");
  fputc('[', f);
  for (unsigned i = 0; i < v->nknobs; i++) {
    fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
    jstr(f, v->knobs[i].name);
    fputs(", \"value\": ", f);
    jstr(f, v->knobs[i].value);
    fprintf(f, ", \"line\": %u}", v->knobs[i].line);
  }
  fputs(v->nknobs ? "\n  ],\n" : "],\n", f);

  jkey(f, "  ", "init");
  fputc('[', f);
  for (unsigned i = 0; i < v->ninits; i++) {
    loc_text(&v->inits[i].loc, buf);
    fputs(i ? ",\n    {\"loc\": " : "\n    {\"loc\": ", f);
    jstr(f, buf);
    fprintf(f, ", \"value\": %" PRIu32 ", \"line\": %u}", v->inits[i].value, v->inits[i].line);
  }
  fputs(v->ninits ? "\n  ],\n" : "],\n", f);
}

/* "streams" (per thread, each word with its line) and "expect". */
static void json_streams_expects(const tt_vec *v, FILE *f) {
  jkey(f, "  ", "streams");
  fputs("{\n", f);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    fprintf(f, "    \"t%u\": [", t);
    for (uint32_t k = 0; k < v->prog_len[t]; k++)
      fprintf(f, "%s{\"word\": \"0x%08" PRIX32 "\", \"line\": %" PRIu32 "}",
              k ? ",\n      " : "\n      ", v->prog[t][k], v->prog_line[t][k]);
    fputs(v->prog_len[t] ? "\n    ]" : "]", f);
    fputs(t + 1 < TT_THREAD_COUNT ? ",\n" : "\n", f);
  }
  fputs("  },\n", f);

  jkey(f, "  ", "expect");
  fputc('[', f);
  for (unsigned i = 0; i < v->nexpects; i++) {
    fputs(i ? ",\n    " : "\n    ", f);
    write_expect(f, &v->expects[i]);
  }
  fputs(v->nexpects ? "\n  ]\n" : "]\n", f);
}

int tt_vec_to_json(const tt_vec *v, const char *source_path, FILE *f) {
  if (tt_vec_json_check(v, NULL, NULL) != 0) return -1;
  json_open(f, TT_VEC_JSON_FORMAT);
  json_header(v, source_path, f);
  json_knobs_inits(v, f);
  json_streams_expects(v, f);
  fputs("}\n", f);
  return ferror(f) ? -1 : 0;
}

/* ---- --export-json OUTDIR PATH... -------------------------------------------------------- */

static tt_vec g_vec;                 /* ~220 KiB: never on the stack */
static char g_text[FILE_CAP + 1];
static const char *g_prog = "ttconf";
static const char *g_outdir;

typedef struct exported { char *source, *json, *name; } exported;
typedef struct failure { char *source, *message; unsigned line; } failure;
static exported *g_done;
static size_t g_ndone, g_capdone;
static failure *g_failed;
static size_t g_nfailed, g_capfailed;
static unsigned long g_nfiles;       /* .vec files found (read or not) */
static unsigned long g_nempty;       /* PATH arguments that held no .vec file */

static char *xstrdup(const char *s) {
  char *d = strdup(s ? s : "");
  if (!d) {
    fprintf(stderr, "%s: out of memory\n", g_prog);
    exit(1);
  }
  return d;
}

static void *xgrow(void *p, size_t *cap, size_t elem) {
  size_t n = *cap ? *cap * 2 : 64;
  void *q = realloc(p, n * elem);
  if (!q) {
    fprintf(stderr, "%s: out of memory\n", g_prog);
    exit(1);
  }
  *cap = n;
  return q;
}

/* Report a failure (FILE:LINE: message, as ttconf prints it) and keep it for the index. */
static void fail_at(const char *source, unsigned line, unsigned col, const char *msg) {
  if (line) printf("%s:%u: %s", source, line, msg);
  else printf("%s: %s", source, msg);
  if (col) printf(" (column %u)", col);
  putchar('\n');
  if (g_nfailed == g_capfailed) g_failed = xgrow(g_failed, &g_capfailed, sizeof *g_failed);
  g_failed[g_nfailed].source = xstrdup(source);
  g_failed[g_nfailed].message = xstrdup(msg);
  g_failed[g_nfailed].line = line;
  g_nfailed++;
}

/* "WHAT[ OBJ]: strerror(errno)" (obj may be NULL). */
static void fail_errno(const char *source, const char *what, const char *obj) {
  static char msg[2 * PATH_CAP + 256];
  const char *es = strerror(errno);
  if (snprintf(msg, sizeof msg, "%s%s%s: %s", what, obj ? " " : "", obj ? obj : "", es) < 0)
    msg[0] = 0;
  fail_at(source, 0, 0, msg);
}

/* The output path of source below OUTDIR, relative to OUTDIR: the source path with "." and
 * empty components dropped, ".." removing the component before it (a leading ".." is dropped,
 * as tar drops a leading "../"), and a final ".vec" replaced by ".json" (".json" appended to
 * other names). 0, or -1 when nothing is left or it does not fit. */
static int out_rel(const char *source, char *rel, size_t cap) {
  size_t n = 0;
  const char *p = source;
  while (*p) {
    const char *e = p;
    size_t len;
    while (*e && *e != '/') e++;
    len = (size_t)(e - p);
    if (len == 0 || (len == 1 && p[0] == '.')) {
      /* nothing */
    } else if (len == 2 && p[0] == '.' && p[1] == '.') {
      while (n > 0 && rel[n - 1] != '/') n--;
      if (n > 0) n--;   /* the '/' before the removed component */
    } else {
      if (n + (n ? 1 : 0) + len + 1 > cap) return -1;
      if (n) rel[n++] = '/';
      memcpy(rel + n, p, len);
      n += len;
    }
    p = *e ? e + 1 : e;
  }
  if (n == 0) return -1;
  if (n > 4 && memcmp(rel + n - 4, ".vec", 4) == 0) n -= 4;
  if (n + 6 > cap) return -1;
  memcpy(rel + n, ".json", 6);
  return 0;
}

/* mkdir -p of every directory above path's last component. */
static int make_parents(char *path) {
  for (char *s = path + 1; *s; s++) {
    struct stat sb;
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(path, 0777) != 0 && (errno != EEXIST || stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
      if (errno == EEXIST) errno = ENOTDIR;
      *s = '/';
      return -1;
    }
    *s = '/';
  }
  return 0;
}

static int read_vec(const char *path, size_t *len) {
  files_err e;
  if (files_read_into(path, g_text, FILE_CAP, len, &e) == 0) return 0;
  fail_at(path, 0, 0, e.msg);
  return -1;
}

static void export_file(const char *path) {
  static tt_vec_error err;
  static char rel[PATH_CAP], out[2 * PATH_CAP + 2];
  size_t len = 0;
  unsigned line = 0;
  const char *msg = NULL;
  FILE *f;
  g_nfiles++;
  if (read_vec(path, &len) != 0) return;
  if (tt_vec_parse(g_text, len, &g_vec, &err) != 0) {
    fail_at(path, err.line, err.col, err.msg);
    return;
  }
  if (tt_vec_json_check(&g_vec, &line, &msg) != 0) {
    fail_at(path, line, 0, msg);
    return;
  }
  if (out_rel(path, rel, sizeof rel) != 0) {
    fail_at(path, 0, 0, "no output name can be made from this path");
    return;
  }
  if (strcmp(rel, "index.json") == 0) {
    fail_at(path, 0, 0, "output index.json would overwrite the index");
    return;
  }
  for (size_t i = 0; i < g_ndone; i++)
    if (strcmp(g_done[i].json, rel) == 0) {
      if (snprintf(out, sizeof out, "output %s was already written for %s", rel,
                   g_done[i].source) < 0)
        out[0] = 0;
      fail_at(path, 0, 0, out);
      return;
    }
  if (snprintf(out, sizeof out, "%s/%s", g_outdir, rel) >= (int)sizeof out) {
    fail_at(path, 0, 0, "output path too long");
    return;
  }
  if (make_parents(out) != 0) {
    fail_errno(path, "cannot create the output directory for", out);
    return;
  }
  f = fopen(out, "w");
  if (!f) {
    fail_errno(path, "cannot write", out);
    return;
  }
  int r = tt_vec_to_json(&g_vec, path, f);
  if (fclose(f) != 0) r = -1;
  if (r != 0) {
    fail_errno(path, "failed writing", out);
    return;
  }
  if (g_ndone == g_capdone) g_done = xgrow(g_done, &g_capdone, sizeof *g_done);
  g_done[g_ndone].source = xstrdup(path);
  g_done[g_ndone].json = xstrdup(rel);
  g_done[g_ndone].name = xstrdup(g_vec.name);
  g_ndone++;
}

static int has_vec_suffix(const char *name) {
  size_t n = strlen(name);
  return n > 4 && strcmp(name + n - 4, ".vec") == 0;
}

typedef struct suite_walk {
  void (*file)(void *ctx, const char *path, int err);
  void *ctx;
} suite_walk;

static int suite_visit(void *ctx, const files_entry *e) {
  const suite_walk *s = ctx;
  if (e->err) {
    if (has_vec_suffix(e->name)) s->file(s->ctx, e->path, e->err);
    return 0;
  }
  if (e->is_dir) return !e->is_link && strcmp(e->name, "selftest") != 0;
  if (e->is_reg && has_vec_suffix(e->name)) s->file(s->ctx, e->path, 0);
  return 0;
}

void tt_vec_suite_walk(const char *dir, void (*file)(void *ctx, const char *path, int err),
                       void (*fail)(void *ctx, const char *path, const char *name, const char *msg),
                       void *ctx) {
  suite_walk s = {file, ctx};
  files_walker w = {suite_visit, fail, &s, MAX_DEPTH};
  files_walk(&w, dir);
}

static void walk_file(void *ctx, const char *path, int err) {
  (void)ctx;
  if (!err) { export_file(path); return; }
  g_nfiles++;
  errno = err;
  fail_errno(path, "cannot open", NULL);
}

static void walk_fail(void *ctx, const char *path, const char *name, const char *msg) {
  char m[FILES_PATH_CAP + 160];
  (void)ctx;
  snprintf(m, sizeof m, "%s%s%s", name ? name : "", name ? ": " : "", msg);
  fail_at(path, 0, 0, m);
}

static void export_path(const char *arg) {
  struct stat sb;
  unsigned long files0 = g_nfiles;
  if (stat(arg, &sb) != 0) {
    fail_errno(arg, "cannot open", NULL);
    return;
  }
  if (!S_ISDIR(sb.st_mode)) {
    export_file(arg);
    return;
  }
  tt_vec_suite_walk(arg, walk_file, walk_fail, NULL);
  if (g_nfiles == files0) {
    fprintf(stderr, "%s: %s: no .vec file found (directories named selftest are searched only "
                    "when named)\n", g_prog, arg);
    g_nempty++;
  }
}

static int write_index(void) {
  static char path[PATH_CAP + 16];
  FILE *f;
  snprintf(path, sizeof path, "%s/index.json", g_outdir);
  f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "%s: cannot write %s: %s\n", g_prog, path, strerror(errno));
    return -1;
  }
  json_open(f, TT_VEC_JSON_INDEX_FORMAT);
  jkey(f, "  ", "vectors");
  fputc('[', f);
  for (size_t i = 0; i < g_ndone; i++) {
    fputs(i ? ",\n    {\"source\": " : "\n    {\"source\": ", f);
    jstr(f, g_done[i].source);
    fputs(", \"json\": ", f);
    jstr(f, g_done[i].json);
    fputs(", \"name\": ", f);
    jstr(f, g_done[i].name);
    fputc('}', f);
  }
  fputs(g_ndone ? "\n  ],\n" : "],\n", f);
  jkey(f, "  ", "errors");
  fputc('[', f);
  for (size_t i = 0; i < g_nfailed; i++) {
    fputs(i ? ",\n    {\"source\": " : "\n    {\"source\": ", f);
    jstr(f, g_failed[i].source);
    fputs(", \"message\": ", f);
    jstr(f, g_failed[i].message);
    fprintf(f, ", \"line\": %u}", g_failed[i].line);
  }
  fputs(g_nfailed ? "\n  ]\n" : "]\n", f);
  fputs("}\n", f);
  if (fclose(f) != 0) {
    fprintf(stderr, "%s: writing %s failed: %s\n", g_prog, path, strerror(errno));
    return -1;
  }
  return 0;
}

static void export_usage(FILE *f) {
  fprintf(f,
          "usage: %s --export-json OUTDIR PATH...\n"
          "\n"
          "Writes every conformance vector (.vec) under PATH as JSON (schema:\n"
          "conformance/json-schema.md). PATH is a .vec file or a directory searched as ttconf\n"
          "searches it (recursively, byte-wise sorted, directories named selftest skipped unless\n"
          "named, symbolic links to directories not followed). Each vector FILE is written to\n"
          "OUTDIR/FILE with .vec replaced by .json (leading '/' and '../' dropped), and\n"
          "OUTDIR/index.json lists them with the files that could not be exported.\n"
          "conformance/json2vec.py turns a JSON document back into .vec text.\n"
          "\n"
          "A malformed vector is reported as FILE:LINE: message and counts as failed. Last\n"
          "line: `N exported, N failed`.\n"
          "Exit status: 0 all exported; 1 a vector was malformed or a file could not be read or\n"
          "written; 2 bad command line; 3 a PATH held no .vec file (1 wins over 3).\n",
          g_prog);
}

/* The options: 0, or the exit status (-1 for --help, which exits 0); *npaths counts the PATHs. */
static int export_options(int argc, char **argv, int *npaths) {
  int opts_done = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (opts_done || a[0] != '-' || a[1] == 0) { (*npaths)++; continue; }
    if (strcmp(a, "--") == 0) { opts_done = 1; continue; }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { export_usage(stdout); return -1; }
    if (strcmp(a, "--export-json") == 0 || strncmp(a, "--export-json=", 14) == 0) {
      const char *d = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : "");
      if (g_outdir) { fprintf(stderr, "%s: --export-json given twice\n", g_prog); return 2; }
      if (!d[0]) { fprintf(stderr, "%s: --export-json needs an output directory\n", g_prog); return 2; }
      g_outdir = d;
      continue;
    }
    fprintf(stderr, "%s: unknown option %s\n", g_prog, a);
    export_usage(stderr);
    return 2;
  }
  return 0;
}

/* OUTDIR made (with its parents): 0, or the exit status. */
static int make_outdir(void) {
  static char probe[PATH_CAP + 2];
  struct stat sb;
  if (strlen(g_outdir) >= PATH_CAP) {
    fprintf(stderr, "%s: output directory name too long\n", g_prog);
    return 2;
  }
  snprintf(probe, sizeof probe, "%s/", g_outdir);
  if (make_parents(probe) != 0 || stat(g_outdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
    fprintf(stderr, "%s: cannot create output directory %s: %s\n", g_prog, g_outdir,
            strerror(errno ? errno : ENOTDIR));
    return 1;
  }
  return 0;
}

/* Everything kept for the index, freed (vecjson_main may run again in the same process). */
static void export_free(void) {
  for (size_t i = 0; i < g_ndone; i++) {
    free(g_done[i].source);
    free(g_done[i].json);
    free(g_done[i].name);
  }
  for (size_t i = 0; i < g_nfailed; i++) {
    free(g_failed[i].source);
    free(g_failed[i].message);
  }
  free(g_done);
  free(g_failed);
  g_done = NULL;
  g_failed = NULL;
  g_ndone = g_capdone = g_nfailed = g_capfailed = 0;
  g_nfiles = g_nempty = 0;
}

int vecjson_main(int argc, char **argv) {
  int opts_done = 0, npaths = 0, r;
  const char *slash;
  if (argc > 0 && argv[0] && argv[0][0]) {
    slash = strrchr(argv[0], '/');
    g_prog = slash ? slash + 1 : argv[0];
  }
  g_outdir = NULL;
  if ((r = export_options(argc, argv, &npaths)) != 0) return r < 0 ? 0 : r;
  if (!g_outdir) {
    fprintf(stderr, "%s: --export-json OUTDIR is required\n", g_prog);
    export_usage(stderr);
    return 2;
  }
  if (npaths == 0) {
    fprintf(stderr, "%s: no PATH given\n", g_prog);
    export_usage(stderr);
    return 2;
  }
  if ((r = make_outdir()) != 0) return r;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!opts_done && a[0] == '-' && a[1] != 0) {
      if (strcmp(a, "--") == 0) opts_done = 1;
      else if (strcmp(a, "--export-json") == 0) i++;
      continue;
    }
    export_path(a);
  }
  int index_bad = write_index() != 0;
  printf("%zu exported, %zu failed\n", g_ndone, g_nfailed);
  int status = (g_nfailed || index_bad) ? 1 : g_nempty ? 3 : 0;
  export_free();
  return status;
}
