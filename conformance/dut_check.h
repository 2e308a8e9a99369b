/* dut_check.h — runs a parsed `.vec` vector against any implementation under test
 * (conformance/ttdut.h) and evaluates it: every expectation ends as pass, fail or not
 * comparable (the implementation cannot set, run or observe what it needs), with the reason. */
#ifndef TT_DUT_CHECK_H
#define TT_DUT_CHECK_H
#include "vec.h"
#include "ttdut.h"

typedef struct dutc {
  const ttdut_ops *ops;
  void *d;                /* the open instance */
  ttdut_caps caps;        /* as the implementation declared them at open */
} dutc;

/* Open `ops` with `args`: 0, or -1 with the reason in why. */
int dutc_open(dutc *x, const ttdut_ops *ops, const char *args, char *why, size_t why_len);
void dutc_close(dutc *x);

/* Run v in `mode`. Statuses as tt_vec_run's, plus TT_VEC_NOT_COMPARABLE: the implementation
 * cannot run the vector in this mode (res->err: line and reason) or none of its expectations
 * could be compared. Checks that could not be compared have TT_VEC_CHECK_NOT_COMPARABLE and
 * their reason in the text; res->nnot_comparable counts them. */
tt_vec_status dutc_run(dutc *x, const tt_vec *v, tt_mode mode, tt_vec_result *res);

/* Load a shared object's ttdut_entry(): the ops, or NULL with the reason. */
const ttdut_ops *dutc_load_so(const char *path, char *why, size_t why_len);

/* Mutable location text helpers shared with the line protocol. */
int dutc_fmt_loc(const ttdut_loc *l, char *buf, size_t n);
int dutc_parse_loc(const char *text, size_t len, ttdut_loc *l);

#endif
