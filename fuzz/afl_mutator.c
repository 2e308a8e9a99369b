/* afl_mutator.c — the structured mutator of fz_mutator.c as an AFL++ custom mutator library
 * (AFL_CUSTOM_MUTATOR_LIBRARY=build/fuzz-tool/afl-mutator.so; AFL++ 4.04c API). AFL++ does
 * not call a target's LLVMFuzzerCustomMutator, so the same code is loaded this way; it is
 * seeded from the seed afl-fuzz passes to afl_custom_init (afl-fuzz -s fixes it). */
#include <stdlib.h>
#include <string.h>
#include "fz.h"

typedef struct afl_mut {
  uint64_t rng;
  uint8_t buf[FZ_MAX_INPUT];
} afl_mut;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed) {
  (void)afl;
  afl_mut *m = calloc(1, sizeof *m);
  if (m) m->rng = seed;
  return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size) {
  afl_mut *m = data;
  size_t max = max_size < sizeof m->buf ? max_size : sizeof m->buf;
  unsigned seed = (unsigned)fz_rand(&m->rng);
  size_t n;
  if (add_buf && add_buf_size && (seed & 7u) == 0) {   /* thread-level crossover */
    n = fz_crossover(buf, buf_size, add_buf, add_buf_size, m->buf, max, seed);
  } else {
    n = buf_size < max ? buf_size : max;
    memcpy(m->buf, buf, n);
    n = fz_mutate(m->buf, n, max, seed);
  }
  *out_buf = m->buf;
  return n;
}

void afl_custom_deinit(void *data) { free(data); }
