/* ttrun_trace.c — --trace: Chrome / Perfetto trace-event JSON of a cycle-mode run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ttrun.h"

/* Thread-track slices (instructions and stalls) first, by thread; then unit slices by track;
 * within a track by start, longer first (so a slice's children follow it). */
static int cmp_slice(const void *a, const void *b) {
  const slice *x = a, *y = b;
  int gx = x->kind == SL_UNIT, gy = y->kind == SL_UNIT;
  if (gx != gy) return gx - gy;
  int kx = gx ? x->track : x->thread, ky = gy ? y->track : y->thread;
  if (kx != ky) return kx - ky;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end > y->end ? -1 : 1;
  return (int)x->kind - (int)y->kind;
}

#define PID_THREADS 1
#define PID_UNITS 2
#define MAX_LANES 16

/* The own row (lane 0) of a thread holds its issues (one cycle each) and its stalls, which never
 * overlap; an instruction that completes later also gets an in-flight slice from issue to
 * completion on the in-flight rows (lanes 1..), where a slice that would overlap another without
 * nesting in it goes to the next lane, so every lane nests. Sorts the slices; sets lanes_used. */
static void trace_lanes(unsigned lanes_used[TT_THREAD_COUNT]) {
  size_t n0 = g_nsl;
  for (size_t i = 0; i < n0; i++) {
    if (g_sl[i].kind != SL_INSN || g_done_at[g_sl[i].thread][g_sl[i].index] <= g_sl[i].end) continue;
    g_sl = xrealloc(g_sl, (g_nsl + 1) * sizeof *g_sl);
    g_sl[g_nsl] = g_sl[i];
    g_sl[g_nsl].kind = SL_FLIGHT;
    g_sl[g_nsl].end = g_done_at[g_sl[i].thread][g_sl[i].index];
    g_nsl++;
  }
  qsort(g_sl, g_nsl, sizeof *g_sl, cmp_slice);
  static uint32_t stack[TT_THREAD_COUNT][MAX_LANES][64];
  unsigned depth[TT_THREAD_COUNT][MAX_LANES];
  memset(depth, 0, sizeof depth);
  for (size_t i = 0; i < g_nsl; i++) {
    slice *s = &g_sl[i];
    if (s->kind == SL_UNIT) continue;
    unsigned t = (unsigned)s->thread, lane = s->kind == SL_FLIGHT ? 1 : 0;
    if (lane + 1 > lanes_used[t]) lanes_used[t] = lane + 1;
    s->lane = lane;
    if (!lane) continue;
    for (; lane < MAX_LANES - 1; lane++) {
      unsigned *d = &depth[t][lane];
      while (*d && stack[t][lane][*d - 1] <= s->start) (*d)--;
      if (*d == 0 || (stack[t][lane][*d - 1] >= s->end && *d < 64)) break;
    }
    unsigned *d = &depth[t][lane];
    while (*d && stack[t][lane][*d - 1] <= s->start) (*d)--;
    if (*d < 64) stack[t][lane][(*d)++] = s->end;
    if (lane + 1 > lanes_used[t]) lanes_used[t] = lane + 1;
    s->lane = lane;
  }
}

/* The metadata events: the two processes, a track per thread lane and per unit. */
static void trace_tracks(FILE *f, const unsigned lanes_used[TT_THREAD_COUNT]) {
  fprintf(f, "{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"tool\": \"ttrun\", \"time_axis\": "
             "\"1 microsecond on the time axis = 1 Tensix cycle\"},\n \"traceEvents\": [\n");
  fprintf(f, "  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"Tensix threads\"}},\n", PID_THREADS);
  fprintf(f, "  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"sort_index\": 1}},\n", PID_THREADS);
  fprintf(f, "  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"Units and semaphores\"}},\n", PID_UNITS);
  fprintf(f, "  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"sort_index\": 2}}", PID_UNITS);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    for (unsigned l = 0; l < (lanes_used[t] ? lanes_used[t] : 1); l++) {
      char nm[300];
      if (l == 0) snprintf(nm, sizeof nm, "T%u %s", t, base_name(g_src[t].path));
      else if (l == 1) snprintf(nm, sizeof nm, "T%u in flight", t);
      else snprintf(nm, sizeof nm, "T%u in flight (%u)", t, l);
      fprintf(f, ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"name\": ", PID_THREADS, t * MAX_LANES + l);
      js(f, nm);
      fprintf(f, "}},\n  {\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"sort_index\": %u}}",
              PID_THREADS, t * MAX_LANES + l, t * MAX_LANES + l);
    }
  }
  static const char *const stage_names[TT_CFGP_STAGE_COUNT] = {"-4", "-3", "-2", "-1", "0", "+1"};
  for (unsigned k = 0; k < TR_COUNT; k++) {
    char nm[64];
    if (k == TR_THCON) snprintf(nm, sizeof nm, "ThCon (Scalar Unit)");
    else if (k == TR_SYNC) snprintf(nm, sizeof nm, "Sync slot");
    else snprintf(nm, sizeof nm, "Config stage %s", stage_names[k - TR_CFG0]);
    fprintf(f, ",\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"name\": \"%s\"}}", PID_UNITS, 100 + k, nm);
    fprintf(f, ",\n  {\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": %d, \"tid\": %u, \"args\": {\"sort_index\": %u}}", PID_UNITS, 100 + k, k);
  }
}

/* A stall on its thread's own row, named by its structured reason (ttrun_stall.c). */
static void trace_stall(FILE *f, const slice *s) {
  const stall_row *r = &g_srow[s->index];
  char nm[200], key[40], text[900];
  wait_key(r->w.kind, key, sizeof key);
  if (r->w.sem >= 0) snprintf(nm, sizeof nm, "stall: %s sem%d", stall_class_name[r->w.cls], r->w.sem);
  else snprintf(nm, sizeof nm, "stall: %s", stall_class_name[r->w.cls]);
  stall_text(text, sizeof text, r);
  fprintf(f, ",\n  {\"name\": ");
  js(f, nm);
  fprintf(f, ", \"cat\": \"stall\", \"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": %d, \"tid\": %u, \"args\": {\"reason\": \"%s\", "
          "\"signal\": \"%s\", \"unit\": \"%s\", \"cycles\": %u, ", s->start, s->end - s->start, PID_THREADS,
          (unsigned)s->thread * MAX_LANES + s->lane, stall_class_name[r->w.cls], key, stall_unit(&r->w), s->end - s->start);
  if (r->w.sem >= 0) fprintf(f, "\"semaphore\": %d, \"value\": %u, \"max\": %u, ", r->w.sem, r->w.value, r->w.max);
  if (r->w.holder >= 0) fprintf(f, "\"holder\": %d, ", r->w.holder);
  if (r->w.latch >= 0) fprintf(f, "\"latch_line\": %u, ", src_line((unsigned)s->thread, (uint32_t)r->w.latch));
  fprintf(f, "\"held_line\": %u, \"text\": ", src_line((unsigned)s->thread, r->w.at));
  js(f, text);
  fprintf(f, "}}");
}

/* An instruction slice on its thread's track, or a unit's occupancy on the unit's track. */
static void trace_insn(FILE *f, const slice *s) {
  char it[160], nm[200];
  unsigned t = (unsigned)s->thread;
  insn_text(g_st.prog[t][s->index], it, sizeof it);
  tt_insn in;
  tt_decode(g_st.prog[t][s->index], &in);
  if (s->kind == SL_INSN || s->kind == SL_FLIGHT) {
    fprintf(f, ",\n  {\"name\": ");
    js(f, tt_insn_name(&in));
    fprintf(f, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": %d, \"tid\": %u, \"args\": {\"index\": %u, \"line\": %u, \"text\": ",
            s->kind == SL_INSN ? "insn" : "in_flight", s->start, s->end - s->start, PID_THREADS, t * MAX_LANES + s->lane,
            s->index, src_line(t, s->index));
    js(f, it);
    fprintf(f, ", \"issue\": %u, \"complete\": %u}}", s->start, g_done_at[t][s->index] > s->end ? g_done_at[t][s->index] : s->end);
  } else {
    snprintf(nm, sizeof nm, "T%u %s", t, tt_insn_name(&in));
    fprintf(f, ",\n  {\"name\": ");
    js(f, nm);
    fprintf(f, ", \"cat\": \"unit\", \"ph\": \"X\", \"ts\": %u, \"dur\": %u, \"pid\": %d, \"tid\": %u, \"args\": {\"thread\": %u, \"index\": %u, \"line\": %u, \"text\": ",
            s->start, s->end - s->start, PID_UNITS, 100u + s->track, t, s->index, src_line(t, s->index));
    js(f, it);
    fprintf(f, "}}");
  }
}

/* The semaphores any thread waits on: a SEMWAIT it issued, or one a stall names. */
static uint32_t sems_waited(void) {
  uint32_t m = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!g_src[t].path) continue;
    for (uint32_t k = 0; k < g_st.c.thr[t].pc && k < g_st.c.thr[t].len; k++) {
      tt_insn in;
      tt_decode(g_st.prog[t][k], &in);
      if (in.form == TT_FORM_SEMWAIT) m |= in.a.SEMWAIT.sem_mask;
    }
  }
  for (size_t i = 0; i < g_nsrow; i++)
    if (g_srow[i].w.sem >= 0) m |= 1u << g_srow[i].w.sem;
  return m & 0xFFu;
}

/* Semaphore counters (Value and Max) of every semaphore waited on, changed or initialised: the
 * value at the start, then every change. */
static void trace_counters(FILE *f) {
  uint32_t shown = sems_waited() | g_sem_seen;
  for (unsigned i = 0; i < TT_SEM_COUNT; i++) {
    if (g_sem0[i] || g_max0[i]) shown |= 1u << i;
    if (!(shown >> i & 1u)) continue;
    fprintf(f, ",\n  {\"name\": \"sem%u %s\", \"ph\": \"C\", \"ts\": 0, \"pid\": %d, \"tid\": 0, \"args\": {\"value\": %u, \"max\": %u}}",
            i, sem_llk[i], PID_UNITS, g_sem0[i], g_max0[i]);
  }
  for (size_t i = 0; i < g_nctr; i++)
    fprintf(f, ",\n  {\"name\": \"sem%u %s\", \"ph\": \"C\", \"ts\": %u, \"pid\": %d, \"tid\": 0, \"args\": {\"value\": %u, \"max\": %u}}",
            g_ctr[i].id, sem_llk[g_ctr[i].id], g_ctr[i].ts, PID_UNITS, g_ctr[i].value, g_ctr[i].max);
}

int write_trace(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) { fprintf(stderr, "ttrun: cannot write %s: %s\n", path, strerror(errno)); return 1; }
  unsigned lanes_used[TT_THREAD_COUNT] = {0, 0, 0};
  trace_lanes(lanes_used);
  trace_tracks(f, lanes_used);
  for (size_t i = 0; i < g_nsl; i++) {
    if (g_sl[i].kind == SL_STALL) trace_stall(f, &g_sl[i]);
    else trace_insn(f, &g_sl[i]);
  }
  trace_counters(f);
  fprintf(f, "\n ]\n}\n");
  if (fclose(f) != 0) { fprintf(stderr, "ttrun: cannot write %s\n", path); return 1; }
  return 0;
}
