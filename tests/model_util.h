/* model_util.h — helpers for the model unit tests: one static state, run a program. */
#ifndef TT_MODEL_UTIL_H
#define TT_MODEL_UTIL_H
#include <string.h>
#include "tt.h"
#include "check.h"

static tt_state S;

/* Reset S and run per-thread programs (NULL/0 for an empty thread) to completion. */
static inline tt_outcome run3(const uint32_t *p0, uint32_t n0, const uint32_t *p1, uint32_t n1,
                       const uint32_t *p2, uint32_t n2) {
  tt_load_program(&S, 0, p0, n0);
  tt_load_program(&S, 1, p1, n1);
  tt_load_program(&S, 2, p2, n2);
  return tt_run(&S, 100000);
}
#define RUN1(...) do { const uint32_t p_[] = {__VA_ARGS__}; \
  run3(p_, sizeof p_ / 4, NULL, 0, NULL, 0); } while (0)

static inline void fresh(void) { tt_reset(&S); }

/* Encode helpers for readable tests (words checked against the table in test_isa). */
static inline uint32_t w_seminit(unsigned max, unsigned val, unsigned mask) { return 0xA3000000u | max << 20 | val << 16 | mask << 2; }
static inline uint32_t w_sempost(unsigned mask) { return 0xA4000000u | mask << 2; }
static inline uint32_t w_semget(unsigned mask) { return 0xA5000000u | mask << 2; }
static inline uint32_t w_semwait(unsigned block, unsigned mask, unsigned cond) { return 0xA6000000u | block << 15 | mask << 2 | cond; }
static inline uint32_t w_stallwait(unsigned block, unsigned cond) { return 0xA2000000u | block << 15 | cond; }
static inline uint32_t w_atgetm(unsigned i) { return 0xA0000000u | i; }
static inline uint32_t w_atrelm(unsigned i) { return 0xA1000000u | i; }
static inline uint32_t w_wrcfg(unsigned reg, unsigned b128, unsigned idx) { return 0xB0000000u | reg << 16 | b128 << 15 | idx; }
static inline uint32_t w_rdcfg(unsigned reg, unsigned idx) { return 0xB1000000u | reg << 16 | idx; }
static inline uint32_t w_setc16(unsigned idx, unsigned v) { return 0xB2000000u | idx << 16 | v; }
static inline uint32_t w_rmwcib(unsigned lane, unsigned mask, unsigned v, unsigned idx) { return (0xB3u + lane) << 24 | mask << 16 | v << 8 | idx; }
static inline uint32_t w_setdmareg(unsigned v, unsigned half) { return 0x45000000u | v << 8 | half; }
#endif
