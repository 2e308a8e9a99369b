/* test_profile.c — the profiles of model/profiles.def: every profile applies (each setting names
 * a knob and one of its values), isa is every default, p150 sets exactly the readings the README
 * lists, knob: lines apply on top of a vector's profile:, and the p150 mechanisms behave as their
 * registry rows say (AMB-43..47) on small streams, each failing under the other reading. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "tt.h"
#include "vec.h"

static tt_state S;

static unsigned knob(const char *name) { return S.p.knob[tt_knob_by_name(name)]; }

static void test_table(void) {
  CHECK(tt_profile_count() >= 2, "%u profiles", tt_profile_count());
  CHECK_EQ(tt_profile_by_name("isa"), 0);
  CHECK(tt_profile_by_name("p150") > 0, "no p150");
  CHECK_EQ(tt_profile_by_name("nope"), -1);
  CHECK_EQ(tt_profile_apply(&S, 99), -1);
  for (unsigned p = 0; p < tt_profile_count(); p++) {
    CHECK(tt_profile_apply(&S, p) == 0, "profile %s does not apply", tt_profile_name(p));
    for (unsigned k = 0; k < TT_KNOB_COUNT; k++) CHECK_EQ(S.p.knob[k], tt_profile_knob(p, k));
  }
  tt_profile_apply(&S, 0);
  for (unsigned k = 0; k < TT_KNOB_COUNT; k++) CHECK_EQ(S.p.knob[k], 0u);
  tt_profile_apply(&S, (unsigned)tt_profile_by_name("p150"));
  CHECK_EQ(knob("matrix_interval"), 1u);   /* "6" */
  CHECK_EQ(knob("thcon_read"), 1u);
  CHECK_EQ(knob("thcon_release"), 1u);
  CHECK_EQ(knob("c12_scope"), 3u);         /* settled */
  CHECK_EQ(knob("flushdma_release"), 0u);
  CHECK_EQ(knob("outside_slot"), 0u);
}

/* Run one vector text through the model's own checker; its status. */
static tt_vec V;  /* large: static */
static tt_vec_result R;
static tt_state I;
static int run_vec(const char *text) {
  tt_vec_error err;
  if (tt_vec_parse(text, strlen(text), &V, &err) != 0) { fprintf(stderr, "%u: %s\n", err.line, err.msg); return -1; }
  return (int)tt_vec_run(&S, &I, &V, TT_MODE_CYCLE, &R);
}

static void test_vectors(void) {
  /* AMB-43: two MVMULs of one thread, 6 cycles apart under p150, 1 under isa */
  const char *mv = "name: t\nmode: cycle\nprofile: p150\nt0: 0x26000000\nt0: 0x26000000\nexpect t0.issue[1] = 6\n";
  CHECK_EQ(run_vec(mv), TT_VEC_PASS);
  const char *mv_isa = "name: t\nmode: cycle\nprofile: isa\nt0: 0x26000000\nt0: 0x26000000\nexpect t0.issue[1] = 6\n";
  CHECK_EQ(run_vec(mv_isa), TT_VEC_FAIL);
  /* knob: on top of profile: matrix_interval=8 */
  const char *mv8 = "name: t\nmode: cycle\nprofile: p150\nknob: matrix_interval=8\nt0: 0x26000000\nt0: 0x26000000\nexpect t0.issue[1] = 8\n";
  CHECK_EQ(run_vec(mv8), TT_VEC_PASS);
  /* AMB-44: RDCFG then ADDDMAREG at distance 1 reads the new value under p150, no hazard */
  const char *vis = "name: t\nmode: cycle\nprofile: p150\ninit cfg[0][0] = 0x55\nt1: ttrdcfg 60, 0\n"
                    "t1: ttadddmareg 1, 63, 0, 60\nexpect t1.gpr[63] = 0x55\nexpect hazards = 0\n";
  CHECK_EQ(run_vec(vis), TT_VEC_PASS);
  const char *vis_isa = "name: t\nmode: cycle\ninit cfg[0][0] = 0x55\nt1: ttrdcfg 60, 0\n"
                        "t1: ttadddmareg 1, 63, 0, 60\nexpect t1.gpr[63] = 0x55\nexpect hazards = 0\n";
  CHECK_EQ(run_vec(vis_isa), TT_VEC_FAIL);
  /* AMB-47: two threads' SFPNOPs issue in the same cycle only under outside_slot=none */
  const char *sfp = "name: t\nmode: cycle\nknob: outside_slot=none\nt0: 0x8F000000\nt1: 0x8F000000\nexpect t1.issue[0] = 0\n";
  CHECK_EQ(run_vec(sfp), TT_VEC_PASS);
  const char *sfp_isa = "name: t\nmode: cycle\nt0: 0x8F000000\nt1: 0x8F000000\nexpect t1.issue[0] = 0\n";
  CHECK_EQ(run_vec(sfp_isa), TT_VEC_FAIL);
  /* AMB-46: FLUSHDMA behind a LOADIND (C0 for 7 cycles): released a cycle later under next_cycle */
  const char *fl = "name: t\nmode: cycle\nt0: LOADIND size=0 offset_half_reg=0 addr_reg=1 result_reg=4\n"
                   "t0: FLUSHDMA condition_mask=1\nt0: NOP\n";
  uint64_t c_isa = 0, c_late = 0;
  char buf[400];
  CHECK_EQ(run_vec(fl), TT_VEC_PASS);
  tt_issue_cycle(&S, 0, 2, &c_isa);
  snprintf(buf, sizeof buf, "name: t\nmode: cycle\nknob: flushdma_release=next_cycle\n%s", fl + strlen("name: t\nmode: cycle\n"));
  CHECK_EQ(run_vec(buf), TT_VEC_PASS);
  tt_issue_cycle(&S, 0, 2, &c_late);
  CHECK(c_late == c_isa + 1, "FLUSHDMA release: %llu then %llu", (unsigned long long)c_isa,
        (unsigned long long)c_late);
  /* AMB-45: RDCFG + STALLWAIT 0x1FF,C12: the next RDCFG at 3 under settled, 4 under silicon */
  const char *c12 = "name: t\nmode: cycle\nprofile: p150\nt1: ttrdcfg 60, 0\nt1: ttstallwait 0x1FF, 0x1000\n"
                    "t1: ttrdcfg 60, 0\nexpect t1.issue[2] = 3\n";
  CHECK_EQ(run_vec(c12), TT_VEC_PASS);
  const char *c12s = "name: t\nmode: cycle\nprofile: p150\nknob: c12_scope=silicon\nt1: ttrdcfg 60, 0\n"
                     "t1: ttstallwait 0x1FF, 0x1000\nt1: ttrdcfg 60, 0\nexpect t1.issue[2] = 3\n";
  CHECK_EQ(run_vec(c12s), TT_VEC_FAIL);
}

int main(void) {
  tt_init(&S);
  tt_init(&I);
  test_table();
  test_vectors();
  return CHECK_DONE();
}
