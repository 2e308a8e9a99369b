/* check.h — minimal test assertions for the unit tests. Each CHECK counts; the test ends
 * with CHECK_DONE(), which prints "N passed, N failed" and returns the exit status. */
#ifndef TT_CHECK_H
#define TT_CHECK_H
#include <stdio.h>
#include <inttypes.h>

static unsigned check_pass, check_fail;

#define CHECK(cond, ...)                                                              \
  do {                                                                                \
    if (cond) { check_pass++; }                                                       \
    else {                                                                            \
      check_fail++;                                                                   \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);        \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fputc('\n', stderr);                                                            \
    }                                                                                 \
  } while (0)

#define CHECK_EQ(a, b)                                                                \
  do {                                                                                \
    uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                      \
    CHECK(check_a_ == check_b_, "%s = 0x%" PRIx64 ", expected %s = 0x%" PRIx64, #a,    \
          check_a_, #b, check_b_);                                                    \
  } while (0)

#define CHECK_DONE()                                                                  \
  (printf("%s: %u passed, %u failed\n", __FILE__, check_pass, check_fail),            \
   (check_fail || !check_pass) ? 1 : 0)
#endif
