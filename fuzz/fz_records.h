/* fz_records.h — the bench input file that `--bench-inputs` writes and `make bench` feeds to
 * every engine and loop: records of a u32 length (little-endian) followed by that many bytes.
 * Header-only (static inline, libc only) because its readers are linked into very different
 * binaries: the libFuzzer feeder, AFL++'s custom-mutator library, feature_count, model_speed
 * and the plain driver. */
#ifndef FZ_RECORDS_H
#define FZ_RECORDS_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "files.h"

/* Bookkeeping, not the target's behaviour: no coverage counters (clang honours the attribute;
 * feature_count counts every counter an execution hits, and calls these between executions). */
#if defined(__clang__)
#define FZ_REC_NOCOV __attribute__((no_sanitize("coverage")))
#else
#define FZ_REC_NOCOV
#endif

/* The whole file, NUL-terminated (one byte past *n), from malloc; NULL when it cannot be
 * opened or memory runs out. Reads until EOF, so pipes work too (common/files.h). */
FZ_REC_NOCOV static inline uint8_t *fz_slurp(const char *path, size_t *n) {
  return (uint8_t *)files_read(path, 0, n, NULL);
}

/* The record at *pos of d[0..n): sets *rec and *len and moves *pos past it; 0 at the end of
 * the data or at a truncated record (nothing is set then). */
FZ_REC_NOCOV static inline int fz_record_next(const uint8_t *d, size_t n, size_t *pos, const uint8_t **rec,
                                 uint32_t *len) {
  size_t p = *pos;
  if (p > n || n - p < 4) return 0;
  uint32_t l = (uint32_t)d[p] | (uint32_t)d[p + 1] << 8 | (uint32_t)d[p + 2] << 16 | (uint32_t)d[p + 3] << 24;
  if (l > n - p - 4) return 0;
  *rec = d + p + 4;
  *len = l;
  *pos = p + 4 + l;
  return 1;
}

/* The same, going round: after the last record (or a truncated one) the first comes again.
 * 0 only when the data holds no complete record. */
FZ_REC_NOCOV static inline int fz_record_cycle(const uint8_t *d, size_t n, size_t *pos, const uint8_t **rec,
                                  uint32_t *len) {
  if (fz_record_next(d, n, pos, rec, len)) return 1;
  *pos = 0;
  return fz_record_next(d, n, pos, rec, len);
}

/* Grow a host-side array to hold `need` elements of `elem` bytes (doubling from 256); exits
 * with "WHO: out of memory" when it cannot (bench and tool programs only, never model/). */
FZ_REC_NOCOV static inline void *fz_grow(void *a, size_t *cap, size_t need, size_t elem,
                                         const char *who) {
  if (need <= *cap) return a;
  size_t c = *cap ? *cap : 256;
  while (c < need) c *= 2;
  void *b = realloc(a, c * elem);
  if (!b) {
    fprintf(stderr, "%s: out of memory\n", who);
    exit(2);
  }
  *cap = c;
  return b;
}

/* A kernel folder of corpus/kernels/: trisc0..2.txt, one word per line in the first column
 * (hex), '#' comments. Thread t's words go to w[t * cap ...] (at most `cap` of them), their
 * count to n[t]; a missing file leaves its thread empty. Returns the total word count. */
FZ_REC_NOCOV static inline uint32_t fz_kernel_words(const char *dir, unsigned threads, uint32_t cap,
                                                    uint32_t *w, uint32_t *n) {
  uint32_t total = 0;
  for (unsigned t = 0; t < threads; t++) {
    char path[1024];
    size_t len = 0;
    n[t] = 0;
    snprintf(path, sizeof path, "%s/trisc%u.txt", dir, t);
    char *text = files_read(path, 0, &len, NULL);
    if (!text) continue;
    for (char *line = text; line < text + len && n[t] < cap;) {
      char *nl = memchr(line, '\n', (size_t)(text + len - line)), *end = line;
      if (nl) *nl = 0;
      unsigned long v = line[0] == '#' ? 0 : strtoul(line, &end, 16);
      if (end != line) w[(size_t)t * cap + n[t]++] = (uint32_t)v;
      line = nl ? nl + 1 : text + len;
    }
    free(text);
    total += n[t];
  }
  return total;
}
#endif
