/* afl_bench_feed.c — `make bench` only: an AFL++ custom mutator that ignores its input and
 * hands out the records of FZ_BENCH_INPUTS in order (the same file the libFuzzer feeder reads),
 * so a target and the empty target get the same inputs under afl-fuzz too (run with
 * AFL_CUSTOM_MUTATOR_ONLY=1, AFL_DISABLE_TRIM=1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include "fz_records.h"

typedef struct feed { uint8_t *blob; size_t n, pos; } feed;
void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed) {
  (void)afl; (void)seed;
  feed *f = calloc(1, sizeof *f);
  const char *p = getenv("FZ_BENCH_INPUTS");
  if (!f || !p || !(f->blob = fz_slurp(p, &f->n))) { free(f); return NULL; }
  return f;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size) {
  feed *f = data;
  (void)buf; (void)buf_size; (void)add_buf; (void)add_buf_size;
  const uint8_t *rec;
  uint32_t len;
  if (!fz_record_cycle(f->blob, f->n, &f->pos, &rec, &len)) { rec = f->blob; len = 0; }
  *out_buf = f->blob + (rec - f->blob);  /* rec, as the non-const pointer AFL++ takes */
  return len < max_size ? len : max_size;
}

void afl_custom_deinit(void *data) {
  feed *f = data;
  if (f) free(f->blob);
  free(f);
}
