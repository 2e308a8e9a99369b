/* ttrun_text.c — the text report, ttrun's default output: the mode and outcome, per thread what
 * retired and what holds a stuck one, the faults, what changed from reset, and in cycle mode the
 * cycles, stall cycles by reason and hazards. */
#include <stdint.h>
#include <string.h>

#include "ttrun.h"

static void text_outcome(tt_outcome out, int cyc) {
  printf("ttrun: %s mode", cyc ? "cycle" : "functional");
  printf(", profile %s", g_profile);
  for (unsigned i = 0; i < g_nknobs; i++) printf(", %s=%s", g_knob_name[i], g_knob_value[i]);
  printf(", budget %llu %s\n", (unsigned long long)g_budget, cyc ? "cycles" : "rounds");
  switch (out) {
  case TT_OUT_DONE: printf("outcome: DONE — every thread retired its whole stream"); break;
  case TT_OUT_DEADLOCK:
    printf("outcome: DEADLOCK — no thread that is not done can ever progress again (exact: the state is a fixed point)");
    break;
  case TT_OUT_BUDGET: printf("outcome: BUDGET — stopped after the budget; threads still running"); break;
  case TT_OUT_UNSUPPORTED_MODE: printf("outcome: mode not available in this build"); break;
  }
  if (cyc) printf(" (cycle %llu)\n", (unsigned long long)tt_cycle_count(&g_st));
  else printf(" (%llu rounds)\n", (unsigned long long)g_st.c.steps);
  putchar('\n');
}

static void text_unseen_release(unsigned t);

/* The instructions of other threads that could release thread t, and where those threads are. */
static void text_releasers(unsigned t, const thr_report *r) {
  char buf[512], b2[512];
  for (unsigned i = 0; i < r->nrel; i++) {
    unsigned u = r->rel[i].thread;
    at_text(buf, sizeof buf, u, r->rel[i].index);
    if (tt_thread_done(&g_st, u)) snprintf(b2, sizeof b2, "done");
    else {
      char h[300];
      at_text(h, sizeof h, u, g_st.c.thr[u].pc);
      snprintf(b2, sizeof b2, "%s at %s", tt_thread_blocked(&g_st, u) ? "blocked itself" : "still at", h);
    }
    printf("      t%u has one at %s — but t%u is %s\n", u, buf, u, b2);
    if (g_rep[u].waits_on >> t & 1u) printf("      (circular wait: t%u and t%u each wait for the other)\n", t, u);
  }
  if (r->nrel == 0 && r->nobody[0]) {
    printf("      nothing left can: %s\n", r->nobody);
    text_unseen_release(t);
  }
}

/* Every line of thread t's listing accounted for: words run, pushed dynamically, not modelled. */
static void text_words(unsigned t) {
  const thread_src *s = &g_src[t];
  word_count c;
  char lines[200];
  if (s->from_vec) return;
  word_counts(t, &c);
  printf("    words: %u to run (%u listed", c.run, c.listed);
  if (c.named) printf(" of which %u SFPU lines named without their word, run as their opcode", c.named);
  if (c.constant) printf(" of which %u constants stored to the push address", c.constant);
  printf(", %u replayed", c.replayed);
  if (s->replays || s->mop_cfg) printf("; %u REPLAY and %u MOP_CFG consumed by the expanders", s->replays, s->mop_cfg);
  printf("), %u pushed dynamically", c.pushed);
  if (c.pushed) {
    unseen_between(t, 0, UINT32_MAX, 1, lines, sizeof lines);
    if (c.given < c.pushed) printf(" (%u supplied by --push; unknown at line%s %s)", c.given,
                                   c.pushed - c.given > 1 ? "s" : "", lines);
    else printf(" (all supplied by --push)");
  }
  printf(", %u not modelled", c.not_modelled);
  if (c.not_modelled)
    printf(" (%u MOP: the expansion needs MopCfg, which RISC-V stores write; %u replays of slots the listing "
           "never recorded)", c.nm_mop, c.not_modelled - c.nm_mop);
  putchar('\n');
  if (s->rec_open) printf("    (the REPLAY at line %u is still recording at the end of the listing)\n", s->rec_open);
}

/* A warning when words the listing does not show lie between the wait and the held instruction. */
static void text_unseen_wait(unsigned t, const thr_report *r) {
  uint32_t pc = g_st.c.thr[t].pc, from = r->latch_index >= 0 ? (uint32_t)r->latch_index + 1 : pc;
  char lines[200];
  unsigned n = unseen_between(t, from, pc + 1, 3, lines, sizeof lines);
  if (n)
    printf("    warning: %u word%s the listing does not show lie between the wait and the held instruction "
           "(line%s %s): on hardware %s run first, so the thread may be held elsewhere (--push supplies a word)\n",
           n, n > 1 ? "s" : "", n > 1 ? "s" : "", lines, n > 1 ? "they" : "it");
}

/* A warning on "nothing left can": the other threads' words ahead that the listing does not show. */
static void text_unseen_release(unsigned t) {
  char lines[200];
  for (unsigned u = 0; u < TT_THREAD_COUNT; u++) {
    if (u == t || !g_src[u].path) continue;
    unsigned n = unseen_between(u, g_st.c.thr[u].pc, UINT32_MAX, 3, lines, sizeof lines);
    if (n)
      printf("      warning: this relies on what t%u's listing shows; %u word%s of t%u ahead %s not known (line%s %s) "
             "and could release it\n", u, n, n > 1 ? "s" : "", u, n > 1 ? "are" : "is", n > 1 ? "s" : "", lines);
  }
}

/* Thread t that is not done: where it stopped, why, and who could release it. */
static void text_stuck(unsigned t, const thr_report *r) {
  const tt_thread *th = &g_st.c.thr[t];
  char buf[512];
  {
    uint32_t k = r->latch_index >= 0 ? (uint32_t)r->latch_index : th->pc;
    char it[160];
    insn_text(g_st.prog[t][k], it, sizeof it);
    printf("    t%u %s at line %u \"%s\": %s\n", t, !strcmp(r->state, "blocked") ? "blocked" : "stopped",
           src_line(t, k), it, r->reason);
  }
  at_text(buf, sizeof buf, t, th->pc);
  if (r->latch_index >= 0)
    printf("    held: %s, caught by the latch of instruction %d (%s)\n", buf, r->latch_index, r->holds);
  else
    printf("    held: %s\n", buf);
  text_unseen_wait(t, r);
  printf("    stall signal: %s\n", tt_wait_kind_name(th->wait_kind));
  {
    stall_row sr;
    char sb[900];
    memset(&sr, 0, sizeof sr);
    sr.t = t;
    stall_now(t, &sr.w);
    stall_text(sb, sizeof sb, &sr);
    printf("    stall: %s\n", sb);
  }
  if (r->need[0]) printf("    released by: %s\n", r->need);
  text_releasers(t, r);
}

static void text_threads(void) {
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const thr_report *r = &g_rep[t];
    const tt_thread *th = &g_st.c.thr[t];
    if (!g_src[t].path) continue;
    printf("t%u  %s: %u of %u retired, %s\n", t, g_src[t].path, th->retired, th->len, r->state);
    if (g_src[t].skipped_riscv || g_src[t].skipped_other)
      printf("    (listing: %u RISC-V lines and %u objdump lines skipped)\n", g_src[t].skipped_riscv,
             g_src[t].skipped_other);
    if (g_src[t].opcode_only)
      printf("    (listing: %u instructions of units outside the model written without hex: opcode only)\n",
             g_src[t].opcode_only);
    text_words(t);
    if (!strcmp(r->state, "done") || !strcmp(r->state, "no program")) continue;
    text_stuck(t, r);
  }
}

static void text_faults(void) {
  char buf[512];
  printf("\nfaults:");
  int any = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const tt_thread *th = &g_st.c.thr[t];
    if (th->fault_class == TT_FAULT_NONE) continue;
    any = 1;
    at_text(buf, sizeof buf, t, th->fault_pc);
    printf("\n  t%u  %u fault(s); first: %s (%s) at %s", t, th->fault_count,
           tt_fault_class_name(th->fault_class), tt_fault_code_text(th->fault_code), buf);
    if (g_nfaults[t] > 1) {
      printf("\n      all at instructions:");
      for (uint32_t i = 0; i < g_nfaults[t] && i < 32; i++)
        printf(" %u (line %u)", g_faults[t][i].index, src_line(t, g_faults[t][i].index));
      if (g_nfaults[t] > 32) printf(" ... (%u more)", g_nfaults[t] - 32);
    }
  }
  printf("%s\n", any ? "" : " none");
}

static void text_changes(void) {
  printf("\nchanged from reset (%zu location%s):\n", g_nch, g_nch == 1 ? "" : "s");
  for (size_t i = 0; i < g_nch; i++) {
    char ln[48], va[24], vb[24];
    tt_loc_format(&g_ch[i].loc, ln, sizeof ln);
    loc_value(va, sizeof va, &g_ch[i].loc, g_ch[i].from);
    loc_value(vb, sizeof vb, &g_ch[i].loc, g_ch[i].to);
    printf("  %-18s %s -> %s%s\n", ln, va, vb, g_ch[i].inited ? "  (init)" : "");
  }
}

/* The hazards the refined rules keep, each with its producer; then the cfg_gap dismissed. */
static void text_hazards(void) {
  char buf[512], pb[400];
  printf("hazards: %u", g_hz_kept);
  if (g_nhz != g_hz_kept) printf(" (the model reported %zu; %zu cfg_gap dismissed: the consumer's instruction page "
                                 "shows it does not read the Config word written)", g_nhz, g_nhz - g_hz_kept);
  putchar('\n');
  for (int pass = 0; pass < 2; pass++) {
    if (pass && g_nhz != g_hz_kept) printf("dismissed cfg_gap:\n");
    for (size_t i = 0; i < g_nhz; i++) {
      const haz_note *z = &g_hz[i];
      if (z->keep == pass) continue;
      if (z->lost) { printf("  ... a hazard beyond the %u the model keeps\n", TT_HAZARD_KEEP); continue; }
      at_text(buf, sizeof buf, z->h.thread, z->h.index);
      hazard_producer(pb, sizeof pb, z);
      printf("  %-17s t%u %s, cycle %u", tt_hazard_kind_name(z->h.kind), z->h.thread, buf, z->h.cycle);
      if (z->h.kind == TT_HAZ_GPR_PENDING) {
        printf(": GPR %u has a write-back in flight from %s", z->h.gpr, pb);
        if (z->has_value) printf("; it read 0x%08X, the value 0x%08X lands in cycle %u", z->seen, z->pending, z->due);
      } else if (z->h.kind == TT_HAZ_CFG_GAP) {
        printf(": issues the cycle after %s; %s", pb, z->page);
      } else printf(": entered while %s is still in prepare", pb);
      putchar('\n');
    }
  }
}

/* Cycle mode only: the cycle count, stall cycles per thread and reason, the hazards. */
static void text_cycles(tt_outcome out) {
  printf("\ncycles: %llu%s\n", (unsigned long long)tt_cycle_count(&g_st),
         out == TT_OUT_DONE ? " (every thread done, every unit idle)"
         : out == TT_OUT_DEADLOCK ? " (the cycle the fixed point was found)" : " (budget)");
  printf("stall cycles at the gate, by reason:\n");
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    printf("  t%u:", t);
    int n = 0;
    for (unsigned k = 1; k < TT_WAIT_KIND_COUNT; k++) {
      uint64_t s = tt_stall_cycles(&g_st, t, k);
      if (s) printf("%s %s %llu", n++ ? "," : "", tt_wait_kind_name(k), (unsigned long long)s);
    }
    printf("%s\n", n ? "" : " none");
    for (size_t i = 0; i < g_nsrow; i++) {
      char buf[900];
      if (g_srow[i].t != t) continue;
      stall_text(buf, sizeof buf, &g_srow[i]);
      printf("      %llu  %s (cycles %u..%u)\n", (unsigned long long)g_srow[i].cycles, buf, g_srow[i].first, g_srow[i].last);
    }
  }
  text_hazards();
}

void print_text(tt_outcome out) {
  int cyc = g_st.p.mode == TT_MODE_CYCLE;
  text_outcome(out, cyc);
  text_threads();
  text_faults();
  text_changes();
  if (cyc) text_cycles(out);
}
