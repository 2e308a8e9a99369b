/* afl_bench_feed.c — `make bench` only: an AFL++ custom mutator that ignores its input and
 * hands out the records of FZ_BENCH_INPUTS in order (the same file the libFuzzer feeder reads),
 * so a target and the empty target get the same inputs under afl-fuzz too (run with
 * AFL_CUSTOM_MUTATOR_ONLY=1, AFL_DISABLE_TRIM=1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

typedef struct feed { uint8_t *blob; size_t n, pos; } feed;
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed) {
  (void)afl; (void)seed;
  feed *f = calloc(1, sizeof *f);
  const char *p = getenv("FZ_BENCH_INPUTS");
  FILE *fp = p ? fopen(p, "rb") : NULL;
  if (!f || !fp) return NULL;
  fseek(fp, 0, SEEK_END);
  f->n = (size_t)ftell(fp);
  fseek(fp, 0, SEEK_SET);
  f->blob = malloc(f->n);
  if (!f->blob || fread(f->blob, 1, f->n, fp) != f->n) return NULL;
  fclose(fp);
  return f;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size) {
  feed *f = data;
  (void)buf; (void)buf_size; (void)add_buf; (void)add_buf_size;
  if (f->pos + 4 > f->n) f->pos = 0;
  const uint8_t *r = f->blob + f->pos;
  uint32_t len = (uint32_t)r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
  f->pos += 4;
  if (f->pos + len > f->n) { f->pos = 0; len = 0; }
  *out_buf = f->blob + f->pos;
  f->pos += len;
  return len < max_size ? len : max_size;
}

void afl_custom_deinit(void *data) {
  feed *f = data;
  if (f) free(f->blob);
  free(f);
}
