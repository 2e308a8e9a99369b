/* bench_feed.c — `make bench` only: replaces the structured mutator by a feeder that hands
 * libFuzzer the inputs of a fixed file (FZ_BENCH_INPUTS: records of u32 length + bytes), in
 * order, round after round, ignoring what libFuzzer passes in. A target and the empty target
 * linked with it are therefore fed exactly the same inputs through the real libFuzzer loop
 * (coverage collection, corpus bookkeeping) and their execs/s can be compared. At exit it
 * prints `bench: N execs in S s`, S being the process's CPU time from the first fed input
 * (CPU, not wall time: the bench machine is shared, and a process waiting for a core would
 * otherwise look slower than it is). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include <stddef.h>
#include "fz_records.h"

static uint8_t *blob;
static size_t blob_n, pos;
static unsigned long fed;
static struct timespec t0;

static void report(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  double s = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9;
  fprintf(stderr, "bench: %lu execs in %.3f s\n", fed, s);
}

static void load(void) {
  const char *p = getenv("FZ_BENCH_INPUTS");
  blob = p ? fz_slurp(p, &blob_n) : NULL;
  if (!blob) { fprintf(stderr, "bench_feed: set FZ_BENCH_INPUTS to a readable bench input file\n"); exit(2); }
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  atexit(report);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  (void)size; (void)seed;
  if (!blob) load();
  const uint8_t *rec;
  uint32_t n;
  if (!fz_record_cycle(blob, blob_n, &pos, &rec, &n)) return 0;
  size_t m = n < max_size ? n : max_size;
  memcpy(data, rec, m);
  fed++;
  return m;
}
