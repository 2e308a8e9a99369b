/* fz_lf_mutator.c — libFuzzer's hooks for the structured mutator (fz_mutator.c); linked only
 * into the libFuzzer and AFL++ builds of the program targets (func_invariants,
 * reset_equivalence). AFL++ loads the same mutator as a library (afl_mutator.c). */
#include "fz.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                                 uint8_t *out, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  /* One in 16: libFuzzer's own byte-level mutators (dictionary from the encoding table). */
  if (LLVMFuzzerMutate && (seed & 15u) == 0) return LLVMFuzzerMutate(data, size, max_size);
  return fz_mutate(data, size, max_size, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                                 uint8_t *out, size_t max_size, unsigned int seed) {
  return fz_crossover(d1, s1, d2, s2, out, max_size, seed);
}
