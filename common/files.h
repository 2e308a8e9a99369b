/* files.h — the one reader of whole files and the one directory walk of the host programs:
 * the conformance runner and its JSON export (conformance/), the fuzz drivers, generators and
 * tools (fuzz/), ttrun (tools/). model/ does no I/O and never includes it.
 *
 * Header-only (static inline, libc only) for the reason fuzz/fz_records.h is: its users are
 * linked into very different binaries (the libFuzzer feeder, AFL++'s custom-mutator library, the
 * engine builds with their coverage lists, the replay driver, the runner, the tools), and an
 * object of its own would need a rule in every one of them.
 *
 * Errors come back as text without the file's name ("cannot open: No such file or directory",
 * "file larger than 4194304 bytes"); each caller prints it after the name in its own form
 * (FILE: message, FILE:1:1: message), so the messages are the ones each program printed before. */
#ifndef FILES_H
#define FILES_H
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bookkeeping, not the behaviour under test: no coverage counters in the engine builds that
 * include it (clang honours the attribute), as FZ_REC_NOCOV in fuzz/fz_records.h. */
#if defined(__clang__)
#define FILES_NOCOV __attribute__((no_sanitize("coverage")))
#else
#define FILES_NOCOV
#endif

#define FILES_PATH_CAP 4096u   /* longest path a walk builds, NUL included */

typedef struct files_err {
  char msg[128];
} files_err;

FILES_NOCOV static inline void files_errno(files_err *e, const char *what, int err) {
  if (e) snprintf(e->msg, sizeof e->msg, "%s: %s", what, strerror(err));
}

/* Everything f holds from *len on, into *buf (*room bytes, one kept for the NUL); grows *buf
 * (malloc) when grow is set, else stops at *room - 1. At most cap bytes are accepted: one more
 * is an error. 0, or -1 with e set. */
FILES_NOCOV static inline int files_read_stream(FILE *f, char **buf, size_t *room, int grow, size_t cap,
                                                size_t *len, files_err *e) {
  for (;;) {  /* bounded by the file's length and cap */
    if (*len + 1 == *room) {
      if (!grow || *len > cap) break;
      size_t nroom = 2 * *room;
      char *nb = realloc(*buf, nroom);
      if (!nb) { files_errno(e, "cannot read", ENOMEM); return -1; }
      *buf = nb;
      *room = nroom;
    }
    size_t k = fread(*buf + *len, 1, *room - 1 - *len, f);
    *len += k;
    if (k == 0) break;
  }
  if (ferror(f)) { files_errno(e, "cannot read", errno); return -1; }
  if (*len > cap) {
    if (e) snprintf(e->msg, sizeof e->msg, "file larger than %zu bytes", cap);
    return -1;
  }
  (*buf)[*len] = 0;
  return 0;
}

/* The whole file into buf, which holds cap + 1 bytes (a NUL follows the *len bytes read). A
 * file of more than cap bytes is an error. 0, or -1 with e (may be NULL) set. */
FILES_NOCOV static inline int files_read_into(const char *path, char *buf, size_t cap, size_t *len,
                                              files_err *e) {
  FILE *f = fopen(path, "rb");
  if (!f) { files_errno(e, "cannot open", errno); return -1; }
  size_t room = cap + 2, n = 0;  /* cap + 1 bytes read at most: a longer file is seen */
  int r = files_read_stream(f, &buf, &room, 0, cap, &n, e);
  fclose(f);
  if (r != 0) return -1;
  *len = n;
  return 0;
}

/* The whole file into a new buffer from malloc (a NUL follows the *len bytes; free it). At most
 * cap bytes (0: no limit). Reads until EOF, so pipes work too. NULL with e (may be NULL) set. */
FILES_NOCOV static inline char *files_read(const char *path, size_t cap, size_t *len, files_err *e) {
  FILE *f = fopen(path, "rb");
  if (!f) { files_errno(e, "cannot open", errno); return NULL; }
  size_t room = 1 << 16, n = 0;
  char *b = malloc(room);
  int r = b ? files_read_stream(f, &b, &room, 1, cap ? cap : (size_t)-2, &n, e) : -1;
  if (!b) files_errno(e, "cannot read", ENOMEM);
  fclose(f);
  if (r != 0) { free(b); return NULL; }
  *len = n;
  return b;
}

/* ---- the directory walk ------------------------------------------------------------------ */
typedef struct files_entry {
  const char *path;   /* the directory's path, "/", the name */
  const char *name;   /* the entry's own name */
  unsigned depth;     /* 0: an entry of the directory the walk started at */
  int err;            /* errno of a stat that failed (then nothing is known of its kind), else 0 */
  int is_dir, is_reg; /* what stat says (symbolic links followed) */
  int is_link;        /* the entry itself is a symbolic link */
} files_entry;

typedef struct files_walker {
  /* every entry but . and .., in byte-wise sorted order of names, a directory before what is
   * below it; for a directory, nonzero means walk it too */
  int (*visit)(void *ctx, const files_entry *e);
  /* a problem of the walk itself (NULL: ignored): the path it concerns (name, when not NULL, is
   * an entry of it) and what happened */
  void (*fail)(void *ctx, const char *path, const char *name, const char *msg);
  void *ctx;
  unsigned max_depth; /* directories below this depth are not searched (a failure) */
} files_walker;

FILES_NOCOV static inline int files_cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

FILES_NOCOV static inline void files_walk_fail(const files_walker *w, const char *path, const char *name,
                                               const char *msg) {
  if (w->fail) w->fail(w->ctx, path, name, msg);
}

/* The names in directory path, sorted, from malloc (*n of them; NULL and a failure reported
 * when it cannot be opened or memory runs out). */
FILES_NOCOV static inline char **files_dir_names(const files_walker *w, const char *path, size_t *n) {
  DIR *d = opendir(path);
  files_err e;
  if (!d) {
    files_errno(&e, "cannot open directory", errno);
    files_walk_fail(w, path, NULL, e.msg);
    return NULL;
  }
  char **names = NULL;
  size_t cap = 0;
  struct dirent *de;
  *n = 0;
  while ((de = readdir(d)) != NULL) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    if (*n == cap) {
      char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
      if (!nn) break;
      names = nn;
    }
    if (!(names[*n] = strdup(de->d_name))) break;
    (*n)++;
  }
  closedir(d);
  if (*n) qsort(names, *n, sizeof *names, files_cmp_names);
  return names;
}

/* Walk the directory path[0..plen) (path has FILES_PATH_CAP bytes; restored on return). */
FILES_NOCOV static inline void files_walk_at(const files_walker *w, char *path, size_t plen, unsigned depth) {
  if (depth > w->max_depth) {
    char m[80];
    snprintf(m, sizeof m, "directory nesting deeper than %u, not searched", w->max_depth);
    files_walk_fail(w, path, NULL, m);
    return;
  }
  size_t n = 0;
  char **names = files_dir_names(w, path, &n);
  for (size_t i = 0; i < n; i++) {
    size_t k = strlen(names[i]);
    if (plen + 1 + k + 1 > FILES_PATH_CAP) {
      char m[64];
      snprintf(m, sizeof m, "path longer than %u bytes", FILES_PATH_CAP - 1);
      files_walk_fail(w, path, names[i], m);
      continue;
    }
    path[plen] = '/';
    memcpy(path + plen + 1, names[i], k + 1);
    struct stat sb;
    files_entry e = {path, path + plen + 1, depth, 0, 0, 0, 0};
    e.is_link = lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode);
    if (stat(path, &sb) != 0) e.err = errno;
    else e.is_dir = S_ISDIR(sb.st_mode), e.is_reg = S_ISREG(sb.st_mode);
    if (w->visit(w->ctx, &e) && e.is_dir) files_walk_at(w, path, plen + 1 + k, depth + 1);
    path[plen] = 0;
  }
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
}

/* Walk directory dir (trailing slashes dropped) with w. -1 (and a failure) when dir's path is
 * too long, else 0. */
FILES_NOCOV static inline int files_walk(const files_walker *w, const char *dir) {
  char path[FILES_PATH_CAP];
  size_t n = strlen(dir);
  if (n + 1 > sizeof path) {
    files_walk_fail(w, dir, NULL, "path too long");
    return -1;
  }
  memcpy(path, dir, n + 1);
  while (n > 1 && path[n - 1] == '/') path[--n] = 0;
  files_walk_at(w, path, n, 0);
  return 0;
}

#endif
