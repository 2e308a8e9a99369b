/* feature_count.c — `make bench` only: what an engine has to process per execution of a target.
 * Linked (without libFuzzer) with the objects of the build/fuzz-bench flavour, which carry the
 * same instrumentation as a libFuzzer campaign build (inline 8-bit counters, PC table,
 * comparison tracing). It runs every input of a bench input file (records of u32 length +
 * bytes, fuzz/bench_feed.c) through LLVMFuzzerTestOneInput and reports, per execution:
 *   - counters hit: libFuzzer derives one feature from every non-zero 8-bit counter, and its
 *     per-execution bookkeeping (CollectFeatures, entropic's frequency updates) is linear in it;
 *   - comparison callbacks (__sanitizer_cov_trace_*cmp*, switch, div, gep): one call each.
 * With --by-pc FILE it also writes, per instrumented PC, how many executions hit it, and per
 * comparison call site how many calls it made (addresses of a non-PIE link: feed them to
 * llvm-symbolizer to attribute the cost to functions; fuzz/bench.sh does this).
 * Usage: feature_count INPUTS [--by-pc FILE] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fz_records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

#define NOCOV __attribute__((no_sanitize("coverage")))

static uint8_t *ctr_lo, *ctr_hi;
static const uintptr_t *pcs_lo, *pcs_hi;
static unsigned long long cmp_calls;
/* stack-depth tracking (part of -fsanitize=fuzzer on Linux) writes here */
_Thread_local uintptr_t __sancov_lowest_stack;

/* comparison call sites: open addressing on the return address */
#define CMP_SLOTS 65536u
static uintptr_t cmp_site[CMP_SLOTS];
static unsigned long long cmp_count[CMP_SLOTS];
static int by_site;

NOCOV static void cmp_hit(uintptr_t ra) {
  cmp_calls++;
  if (!by_site) return;
  uint32_t h = (uint32_t)((ra * 0x9E3779B97F4A7C15ull) >> 48) & (CMP_SLOTS - 1u);
  while (cmp_site[h] && cmp_site[h] != ra) h = (h + 1) & (CMP_SLOTS - 1u);
  cmp_site[h] = ra;
  cmp_count[h]++;
}

#define RA ((uintptr_t)__builtin_return_address(0))
NOCOV void __sanitizer_cov_8bit_counters_init(uint8_t *lo, uint8_t *hi);
NOCOV void __sanitizer_cov_8bit_counters_init(uint8_t *lo, uint8_t *hi) {
  if (!ctr_lo || lo < ctr_lo) ctr_lo = lo;   /* one module: the objects are linked statically */
  if (!ctr_hi || hi > ctr_hi) ctr_hi = hi;
}
NOCOV void __sanitizer_cov_pcs_init(const uintptr_t *lo, const uintptr_t *hi);
NOCOV void __sanitizer_cov_pcs_init(const uintptr_t *lo, const uintptr_t *hi) {
  if (!pcs_lo || lo < pcs_lo) pcs_lo = lo;
  if (!pcs_hi || hi > pcs_hi) pcs_hi = hi;
}
#define CMP_HOOK(name, ty)                                   \
  NOCOV void name(ty a, ty b);                               \
  NOCOV void name(ty a, ty b) { (void)a; (void)b; cmp_hit(RA); }
CMP_HOOK(__sanitizer_cov_trace_cmp1, uint8_t)
CMP_HOOK(__sanitizer_cov_trace_cmp2, uint16_t)
CMP_HOOK(__sanitizer_cov_trace_cmp4, uint32_t)
CMP_HOOK(__sanitizer_cov_trace_cmp8, uint64_t)
CMP_HOOK(__sanitizer_cov_trace_const_cmp1, uint8_t)
CMP_HOOK(__sanitizer_cov_trace_const_cmp2, uint16_t)
CMP_HOOK(__sanitizer_cov_trace_const_cmp4, uint32_t)
CMP_HOOK(__sanitizer_cov_trace_const_cmp8, uint64_t)
NOCOV void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases);
NOCOV void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases) { (void)v; (void)cases; cmp_hit(RA); }
NOCOV void __sanitizer_cov_trace_div4(uint32_t v);
NOCOV void __sanitizer_cov_trace_div4(uint32_t v) { (void)v; cmp_hit(RA); }
NOCOV void __sanitizer_cov_trace_div8(uint64_t v);
NOCOV void __sanitizer_cov_trace_div8(uint64_t v) { (void)v; cmp_hit(RA); }
NOCOV void __sanitizer_cov_trace_gep(uintptr_t i);
NOCOV void __sanitizer_cov_trace_gep(uintptr_t i) { (void)i; cmp_hit(RA); }
NOCOV void __sanitizer_cov_trace_pc_indir(uintptr_t callee);
NOCOV void __sanitizer_cov_trace_pc_indir(uintptr_t callee) { (void)callee; }

NOCOV int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: feature_count INPUTS [--by-pc FILE]\n"); return 2; }
  const char *out = argc >= 4 && strcmp(argv[2], "--by-pc") == 0 ? argv[3] : NULL;
  by_site = out != NULL;
  size_t n = 0;
  uint8_t *blob = fz_slurp(argv[1], &n);
  if (!blob) { perror(argv[1]); return 2; }
  if (!ctr_lo) { fprintf(stderr, "feature_count: the target has no 8-bit counters\n"); return 2; }
  size_t nctr = (size_t)(ctr_hi - ctr_lo);
  unsigned long long *hits = calloc(nctr, sizeof *hits);
  if (!hits) return 2;
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  memset(ctr_lo, 0, nctr);
  unsigned long long execs = 0, features = 0;
  const uint8_t *rec;
  uint32_t len;
  for (size_t pos = 0; fz_record_next(blob, n, &pos, &rec, &len);) {
    LLVMFuzzerTestOneInput(rec, len);
    execs++;
    for (size_t i = 0; i < nctr; i++)
      if (ctr_lo[i]) { features++; hits[i]++; ctr_lo[i] = 0; }
  }
  printf("feature_count: %llu execs, %.1f counters hit and %.1f comparison callbacks per exec "
         "(%zu counters instrumented)\n", execs, execs ? (double)features / (double)execs : 0.0,
         execs ? (double)cmp_calls / (double)execs : 0.0, nctr);
  if (out) {
    FILE *o = fopen(out, "w");
    if (!o) { perror(out); return 2; }
    /* pc-table entries are (PC, flags) pairs, one per counter */
    size_t npc = (size_t)(pcs_hi - pcs_lo) / 2;
    for (size_t i = 0; i < nctr && i < npc; i++)
      if (hits[i]) fprintf(o, "ctr 0x%llx %llu\n", (unsigned long long)pcs_lo[2 * i], hits[i]);
    for (unsigned i = 0; i < CMP_SLOTS; i++)
      if (cmp_site[i]) fprintf(o, "cmp 0x%llx %llu\n", (unsigned long long)cmp_site[i], cmp_count[i]);
    fclose(o);
  }
  return 0;
}
