/* ttrun_json.c — the same report as one JSON document (--json); js() and js_at() also serve the
 * trace. */
#include <stdint.h>
#include <string.h>

#include "ttrun.h"

void js(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}
void js_at(FILE *f, unsigned t, uint32_t k) {
  char it[160];
  insn_text(k < g_st.c.thr[t].len ? g_st.prog[t][k] : 0, it, sizeof it);
  fprintf(f, "{\"thread\": %u, \"index\": %u, \"line\": %u, \"word\": \"0x%08X\", ", t, k,
          src_line(t, k), k < g_st.c.thr[t].len ? g_st.prog[t][k] : 0);
  if (k < g_src[t].n && g_src[t].via && g_src[t].via[k]) fprintf(f, "\"replayed_at\": %u, ", g_src[t].via[k]);
  fprintf(f, "\"text\": ");
  js(f, k < g_st.c.thr[t].len ? it : "end of stream");
  fputc('}', f);
}

static void json_why(FILE *f, unsigned t, const stall_why *w);

/* What that reasoning cannot see: words the listings do not show (unknown dynamic pushes, words
 * not modelled) between the wait and the held instruction, and ahead of every other thread. */
static void json_unseen(FILE *f, unsigned t, const thr_report *r) {
  char lines[200];
  uint32_t pc = g_st.c.thr[t].pc, from = r->latch_index >= 0 ? (uint32_t)r->latch_index + 1 : pc;
  fprintf(f, ", \"unknown_between_wait_and_held\": %u, \"unknown_ahead\": [",
          unseen_between(t, from, pc + 1, 3, lines, sizeof lines));
  for (unsigned u = 0, k = 0; u < TT_THREAD_COUNT; u++) {
    if (u == t || !g_src[u].path) continue;
    fprintf(f, "%s{\"thread\": %u, \"count\": %u}", k++ ? ", " : "", u,
            unseen_between(u, g_st.c.thr[u].pc, UINT32_MAX, 3, lines, sizeof lines));
  }
  fprintf(f, "]");
}

/* "wait": the wait that holds thread t, what would release it, who could. */
static void json_wait(FILE *f, unsigned t, const thr_report *r) {
  const tt_thread *th = &g_st.c.thr[t];
  char key[40];
  wait_key(th->wait_kind, key, sizeof key);
  fprintf(f, ",\n     \"at\": ");
  js_at(f, t, th->pc);
  fprintf(f, ",\n     \"wait\": {\"kind\": \"%s\", \"signal\": ", key);
  js(f, tt_wait_kind_name(th->wait_kind));
  fprintf(f, ", \"latched_by\": ");
  if (r->latch_index >= 0) js_at(f, t, (uint32_t)r->latch_index);
  else fprintf(f, "null");
  fprintf(f, ", \"stall\": {");
  stall_why w;
  stall_now(t, &w);
  json_why(f, t, &w);
  fprintf(f, "}, \"reason\": ");
  js(f, r->reason);
  fprintf(f, ", \"released_by\": ");
  js(f, r->need);
  fprintf(f, ", \"could_release\": [");
  for (unsigned i = 0; i < r->nrel; i++) {
    fprintf(f, "%s", i ? ", " : "");
    js_at(f, r->rel[i].thread, r->rel[i].index);
  }
  fprintf(f, "], \"nothing_left\": ");
  js(f, r->nrel ? "" : r->nobody);
  json_unseen(f, t, r);
  fprintf(f, "}");
}

static void json_fault(FILE *f, unsigned t) {
  const tt_thread *th = &g_st.c.thr[t];
  fprintf(f, ",\n     \"fault\": {\"class\": \"%s\", \"count\": %u", tt_fault_class_name(th->fault_class),
          th->fault_count);
  if (th->fault_class != TT_FAULT_NONE) {
    fprintf(f, ", \"reason\": ");
    js(f, tt_fault_code_text(th->fault_code));
    fprintf(f, ", \"first\": ");
    js_at(f, t, th->fault_pc);
    fprintf(f, ", \"indices\": [");
    for (uint32_t i = 0; i < g_nfaults[t]; i++) fprintf(f, "%s%u", i ? ", " : "", g_faults[t][i].index);
    fprintf(f, "]");
  }
  fprintf(f, "}");
}

/* The structured fields of one stall reason (shared by "stalls" and a stuck thread's "wait"). */
static void json_why(FILE *f, unsigned t, const stall_why *w) {
  char key[40];
  wait_key(w->kind, key, sizeof key);
  fprintf(f, "\"reason\": \"%s\", \"signal\": \"%s\", \"unit\": \"%s\", \"semaphore\": ", stall_class_name[w->cls], key,
          stall_unit(w));
  if (w->sem >= 0) fprintf(f, "{\"index\": %d, \"name\": \"%s\", \"value\": %u, \"max\": %u}", w->sem, sem_llk[w->sem], w->value, w->max);
  else fprintf(f, "null");
  fprintf(f, ", \"conditions\": [");
  for (unsigned c = 0, k = 0; w->cls == ST_RESOURCE && c < 13; c++)
    if (w->conds >> c & 1u) fprintf(f, "%s\"%s\"", k++ ? ", " : "", cond_llk[c]);
  fprintf(f, "], \"holder\": ");
  if (w->holder >= 0) fprintf(f, "%d", w->holder);
  else fprintf(f, "null");
  if (w->cls == ST_MUTEX) fprintf(f, ", \"mutex\": %u", w->mutex);
  fprintf(f, ", \"latched_by\": ");
  if (w->latch >= 0) js_at(f, t, (uint32_t)w->latch);
  else fprintf(f, "null");
}

/* "stalls": every stall cycle of thread t with its structured reason (ttrun_stall.c). */
static void json_stalls(FILE *f, unsigned t) {
  char buf[900];
  int n = 0;
  fprintf(f, ",\n     \"stalls\": [");
  for (size_t i = 0; i < g_nsrow; i++) {
    const stall_row *r = &g_srow[i];
    const stall_why *w = &r->w;
    if (r->t != t) continue;
    fprintf(f, "%s\n       {\"cycles\": %llu, \"first_cycle\": %u, \"last_cycle\": %u, ", n++ ? "," : "",
            (unsigned long long)r->cycles, r->first, r->last);
    json_why(f, t, w);
    fprintf(f, ", \"held\": ");
    js_at(f, t, w->at);
    stall_text(buf, sizeof buf, r);
    fprintf(f, ", \"text\": ");
    js(f, buf);
    fprintf(f, "}");
  }
  fprintf(f, "%s]", n ? "\n     " : "");
}

static void json_stall_cycles(FILE *f, unsigned t) {
  char key[40];
  fprintf(f, ",\n     \"stall_cycles\": {");
  int n = 0;
  for (unsigned k = 1; k < TT_WAIT_KIND_COUNT; k++) {
    uint64_t s = tt_stall_cycles(&g_st, t, k);
    if (!s) continue;
    wait_key(k, key, sizeof key);
    fprintf(f, "%s\"%s\": %llu", n++ ? ", " : "", key, (unsigned long long)s);
  }
  fprintf(f, "}");
}

/* "words": every line of the listing accounted for (run, pushed dynamically, not modelled). */
static void json_words(FILE *f, unsigned t) {
  const thread_src *s = &g_src[t];
  word_count c;
  word_counts(t, &c);
  fprintf(f, ",\n     \"words\": {\"run\": %u, \"listed\": %u, \"replayed\": %u, \"replay_ops\": %u, \"mop_cfg\": %u, "
          "\"named_opcode_only\": %u, \"constant_pushes\": %u, \"pushed_dynamically\": %u, \"pushed_supplied\": %u, \"not_modelled\": %u, "
          "\"not_modelled_mop\": %u, \"dynamic_push_lines\": [", c.run, c.listed, c.replayed, s->replays, s->mop_cfg,
          c.named, c.constant, c.pushed, c.given, c.not_modelled, c.nm_mop);
  for (uint32_t i = 0, k = 0; i < s->npush; i++)
    if (!s->push[i].named && !s->push[i].constant) fprintf(f, "%s%u", k++ ? ", " : "", s->push[i].line);
  fprintf(f, "], \"not_modelled_lines\": [");
  for (uint32_t i = 0; i < s->nnm; i++) fprintf(f, "%s%u", i ? ", " : "", s->nm[i].line);
  fprintf(f, "]}");
}

static void json_threads(FILE *f, int cyc) {
  fprintf(f, "  \"threads\": [");
  int first = 1;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    const thr_report *r = &g_rep[t];
    const tt_thread *th = &g_st.c.thr[t];
    if (!g_src[t].path) continue;
    fprintf(f, "%s\n    {\"thread\": %u, \"file\": ", first ? "" : ",", t);
    first = 0;
    js(f, g_src[t].path);
    fprintf(f, ", \"instructions\": %u, \"retired\": %u, \"state\": \"%s\"", th->len, th->retired, r->state);
    fprintf(f, ", \"skipped_riscv_lines\": %u, \"opcode_only\": %u", g_src[t].skipped_riscv, g_src[t].opcode_only);
    json_words(f, t);
    if (strcmp(r->state, "done") != 0) json_wait(f, t, r);
    json_fault(f, t);
    if (cyc) json_stall_cycles(f, t);
    if (cyc) json_stalls(f, t);
    fprintf(f, "}");
  }
  fprintf(f, "\n  ]");
}

static void json_changes(FILE *f) {
  fprintf(f, ",\n  \"changed\": [");
  for (size_t i = 0; i < g_nch; i++) {
    char ln[48], va[24], vb[24];
    tt_loc_format(&g_ch[i].loc, ln, sizeof ln);
    loc_value(va, sizeof va, &g_ch[i].loc, g_ch[i].from);
    loc_value(vb, sizeof vb, &g_ch[i].loc, g_ch[i].to);
    fprintf(f, "%s\n    {\"loc\": \"%s\", \"from\": \"%s\", \"to\": \"%s\", \"init\": %s}", i ? "," : "",
            ln, va, vb, g_ch[i].inited ? "true" : "false");
  }
  fprintf(f, "\n  ]");
}

/* Every hazard the model reported, with "reported" (the refined rule holds) or not, its producer
 * and, for gpr_pending, the values. */
static void json_hazards(FILE *f) {
  char pb[400];
  fprintf(f, ",\n  \"hazard_count\": %u,\n  \"model_hazard_count\": %zu,\n  \"hazards\": [", g_hz_kept, g_nhz);
  for (size_t i = 0; i < g_nhz; i++) {
    const haz_note *z = &g_hz[i];
    if (z->lost) continue;
    fprintf(f, "%s\n    {\"kind\": \"%s\", \"reported\": %s, \"cycle\": %u, \"gpr\": %u, \"at\": ", i ? "," : "",
            tt_hazard_kind_name(z->h.kind), z->keep ? "true" : "false", z->h.cycle, z->h.gpr);
    js_at(f, z->h.thread, z->h.index);
    fprintf(f, ", \"producer\": ");
    if (z->producer >= 0) js_at(f, z->h.thread, (uint32_t)z->producer);
    else fprintf(f, "null");
    if (z->h.kind == TT_HAZ_CFG_GAP) fprintf(f, ", \"config_words\": [%u, %u]", z->lo, z->hi);
    if (z->h.kind == TT_HAZ_GPR_PENDING && z->has_value)
      fprintf(f, ", \"value_seen\": \"0x%08X\", \"value_in_flight\": \"0x%08X\", \"lands\": %u", z->seen, z->pending, z->due);
    hazard_producer(pb, sizeof pb, z);
    fprintf(f, ", \"producer_text\": ");
    js(f, pb);
    if (z->page) {
      fprintf(f, ", \"page\": ");
      js(f, z->page);
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n  ]");
}

void print_json(FILE *f, tt_outcome out) {
  int cyc = g_st.p.mode == TT_MODE_CYCLE;
  fprintf(f, "{\n  \"tool\": \"ttrun\",\n  \"mode\": \"%s\",\n  \"profile\": \"%s\",\n  \"budget\": %llu,\n  \"knobs\": {",
          cyc ? "cycle" : "func", g_profile, (unsigned long long)g_budget);
  for (unsigned i = 0; i < g_nknobs; i++) {
    fprintf(f, "%s", i ? ", " : "");
    js(f, g_knob_name[i]);
    fprintf(f, ": ");
    js(f, g_knob_value[i]);
  }
  fprintf(f, "},\n  \"outcome\": \"%s\",\n  \"steps\": %llu,\n", outcome_word(out),
          (unsigned long long)g_st.c.steps);
  if (cyc) fprintf(f, "  \"cycles\": %llu,\n", (unsigned long long)tt_cycle_count(&g_st));
  json_threads(f, cyc);
  json_changes(f);
  if (cyc) json_hazards(f);
  fprintf(f, "\n}\n");
}
