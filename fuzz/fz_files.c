/* fz_files.c — the files the host-side tools read: the replay/minimise driver (driver.c) and
 * the ambiguity tool (ambtool.c). Paths collected from files and directories (recursively,
 * sorted, skipping dot files and READMEs), whole files read, the `.vec` text kinds, reproducer
 * header lines, and an input read as a program. Not linked into the engine builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fz.h"
#include "fz_records.h"

void fz_paths_add(fz_paths *l, const char *p) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->path = realloc(l->path, l->cap * sizeof *l->path);
    if (!l->path) { perror("realloc"); exit(2); }
  }
  l->path[l->n++] = strdup(p);
}

void fz_paths_free(fz_paths *l) {
  for (size_t i = 0; i < l->n; i++) free(l->path[i]);
  free(l->path);
  l->path = NULL;
  l->n = l->cap = 0;
}

typedef struct collect_ctx {
  fz_paths *l;
  int (*keep)(const char *path, int is_dir);
} collect_ctx;

static int collect_visit(void *ctx, const files_entry *e) {
  collect_ctx *c = ctx;
  if (e->name[0] == '.' || strncmp(e->name, "README", 6) == 0) return 0;
  if (e->err) { fprintf(stderr, "cannot stat %s\n", e->path); exit(2); }
  if (c->keep && !c->keep(e->path, e->is_dir)) return 0;
  if (!e->is_dir) fz_paths_add(c->l, e->path);
  return 1;
}

void fz_paths_collect(fz_paths *l, const char *p, int (*keep)(const char *path, int is_dir)) {
  struct stat sb;
  if (stat(p, &sb) != 0) { fprintf(stderr, "cannot stat %s\n", p); exit(2); }
  int dir = S_ISDIR(sb.st_mode);
  if (keep && !keep(p, dir)) return;
  if (!dir) { fz_paths_add(l, p); return; }
  collect_ctx c = {l, keep};
  files_walker w = {collect_visit, NULL, &c, 64};
  files_walk(&w, p);
}

uint8_t *fz_read_file(const char *p, size_t *n) { return fz_slurp(p, n); }

int fz_ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

int fz_is_vec_text(const char *path) {
  return fz_ends_with(path, ".vec") || fz_ends_with(path, ".fzvec");
}

int fz_header_value(const uint8_t *d, size_t n, const char *key, char *out, size_t cap) {
  size_t klen = strlen(key);
  for (size_t pos = 0; pos < n;) {
    const uint8_t *nl = memchr(d + pos, '\n', n - pos);
    size_t len = nl ? (size_t)(nl - (d + pos)) : n - pos;
    if (len > klen + 2 && d[pos] == '#' && d[pos + 1] == ' ' && memcmp(d + pos + 2, key, klen) == 0 &&
        d[pos + 2 + klen] == ':') {
      size_t s = pos + 3 + klen, e = pos + len;
      while (s < e && d[s] == ' ') s++;
      while (e > s && (d[e - 1] == ' ' || d[e - 1] == '\r')) e--;
      size_t m = e - s < cap - 1 ? e - s : cap - 1;
      memcpy(out, d + s, m);
      out[m] = 0;
      return 1;
    }
    pos += len + 1;
  }
  return 0;
}

void fz_load_prog(const char *path, const uint8_t *d, size_t n, fz_prog *p) {
  if (!(fz_is_vec_text(path) && fz_prog_from_vec((const char *)d, n, p) == 0))
    fz_prog_decode(d, n, p);
}
