/* engine_model.c — `make bench` only: the model alone as a libFuzzer target (decode the input,
 * set it up, one tt_run to the end; no checks, no second run). Its execs/s next to
 * func_invariants' and the empty target's, on the same inputs, show how much of a program
 * target's cost under the engine is the model's own instrumented execution and the engine's
 * per-feature bookkeeping of the model's coverage, which no harness change can remove. */
#include "fz.h"

static tt_state st;
static int ready;
static fz_prog prog;

FZ_BOOKKEEPING int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
FZ_BOOKKEEPING int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready) { tt_init(&st); ready = 1; }
  fz_prog_decode(data, size, &prog);
  fz_setup(&st, &prog);
  tt_run(&st, fz_budget(&prog));
  return 0;
}
