/* amb_page.c — ambtool's pages: per ambiguity, AMB-NN-slug.md (the question, the readings and
 * the pages they rest on, the default, and each minimised reproducer with the end states under
 * both readings), and the index README.md (fuzz/amb_render.c writes or compares them). */
#include <stdio.h>
#include <string.h>
#include "amb_tool.h"

static const char *thread_state(const ends *e, unsigned s, unsigned t, const fz_prog *p, char *buf, size_t n) {
  if (e->done[s][t]) snprintf(buf, n, "done");
  else if (e->blocked[s][t]) snprintf(buf, n, "blocked at instruction %u", (unsigned)e->pc[s][t]);
  else snprintf(buf, n, "stopped at instruction %u of %u", (unsigned)e->pc[s][t], (unsigned)p->n[t]);
  return buf;
}

void fmt_val(char *buf, size_t n, const diffrow *r, uint32_t v) {
  if (strncmp(r->loc, "mutex", 5) == 0) {
    static const char *const who[4] = {"none", "t0", "t1", "t2"};
    snprintf(buf, n, "%s", who[v & 3u]);
  } else {
    snprintf(buf, n, "0x%X", (unsigned)v);
  }
}

static unsigned threads_used(const fz_prog *p) {
  unsigned n = 0;
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) n += p->n[t] != 0;
  return n;
}

/* ---- one reproducer --------------------------------------------------------------------------- */
/* The reading names of a reproducer: its knob value, the default, and "-small" for a weaker one. */
typedef struct names { char val[48], def[48]; const char *vs; } names;

static void repro_heading(sb *o, const repro *r, const names *nm) {
  const ends *e = &r->e;
  sbf(o, "### `%s=%s` against the default `%s=%s`%s\n\n", tt_knob_name(r->k), nm->val, tt_knob_name(r->k),
      nm->def, nm->vs[0] ? " (a smaller, weaker witness)" : "");
  if (nm->vs[0])
    sbf(o, "The strongest witness above needs more than %u instructions; this one separates the "
           "readings with fewer, in a weaker way.\n\n", AMB_SIZE_GOAL);
  sbf(o, "Witness `%s`: %u instruction%s (%u not NOP) in %s mode; the minimiser's output for the "
         "kept witness (`corpus/reproducers/ambiguity_diff/%s`).\n\n",
      amb_witness_name(r->k, r->v), r->size, r->size == 1 ? "" : "s", r->real,
      e->mode == TT_MODE_CYCLE ? "cycle" : "functional", r->file);
  if (r->level == AMB_LEVEL_FAULTS)
    sbf(o, "The readings differ only in the model's record of the instruction (its fault class: "
           "what `expect tN fault` checks); the architectural state and the timing are the same.\n\n");
  else if (r->level == AMB_LEVEL_CYCLES)
    sbf(o, "The readings differ only in when the run finishes (the cycle count); no stream the "
           "search found makes the architectural state differ.\n\n");
}

static void repro_initial(sb *o, const fz_prog *p) {
  sbf(o, "**Initial state** (everything else is the reset state):%s\n\n", p->ninit ? "" : " reset");
  if (p->ninit) {
    sbf(o, "```\n");
    for (uint32_t i = 0; i < p->ninit; i++) write_init(o, &p->init[i], "");
    sbf(o, "```\n\n");
  }
}

/* Litmus style: the threads side by side. */
static void repro_threads(sb *o, const fz_prog *p) {
  char dis[160];
  uint32_t rows = 0;
  sbf(o, "**Threads** (side by side; each runs its column top to bottom):\n\n|");
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (p->n[t]) sbf(o, " T%u |", t);
    if (p->n[t] > rows) rows = p->n[t];
  }
  sbf(o, "\n|");
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) if (p->n[t]) sbf(o, "---|");
  sbf(o, "\n");
  for (uint32_t i = 0; i < rows; i++) {
    sbf(o, "|");
    for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
      if (!p->n[t]) continue;
      if (i < p->n[t]) {
        fmt_insn(p->w[t][i], dis, sizeof dis);
        sbf(o, " `0x%08X` %s |", (unsigned)p->w[t][i], dis);
      } else {
        sbf(o, " |");
      }
    }
    sbf(o, "\n");
  }
  sbf(o, "\n");
}

static void repro_stream(sb *o, const fz_prog *p) {
  char dis[160];
  sbf(o, "**Stream** (hex word, then the instruction with its ISA field names):\n\n```\n");
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      fmt_insn(p->w[t][i], dis, sizeof dis);
      sbf(o, "t%u[%u]  0x%08X  %s\n", t, (unsigned)i, (unsigned)p->w[t][i], dis);
    }
  sbf(o, "```\n\n");
}

/* The end states, only what differs: locations, threads, the outcome, the cycle count. */
static void repro_ends(sb *o, const repro *r, const names *nm) {
  const fz_prog *p = &r->p;
  const ends *e = &r->e;
  sbf(o, "**End states** (only what differs):\n\n| | `%s=%s` (default) | `%s=%s` |\n|---|---|---|\n",
      tt_knob_name(r->k), nm->def, tt_knob_name(r->k), nm->val);
  char a[64], b[64];
  for (unsigned i = 0; i < e->d.n; i++) {
    fmt_val(a, sizeof a, &e->d.r[i], e->d.r[i].a);
    fmt_val(b, sizeof b, &e->d.r[i], e->d.r[i].b);
    sbf(o, "| `%s` | %s | %s |\n", e->d.r[i].loc, a, b);
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    if (!p->n[t]) continue;
    thread_state(e, 0, t, p, a, sizeof a);
    thread_state(e, 1, t, p, b, sizeof b);
    if (strcmp(a, b)) sbf(o, "| t%u | %s | %s |\n", t, a, b);
    if (e->fault[0][t] != e->fault[1][t])
      sbf(o, "| t%u first fault | %s | %s |\n", t, tt_fault_class_name(e->fault[0][t]),
          tt_fault_class_name(e->fault[1][t]));
  }
  if (e->o[0] != e->o[1])
    sbf(o, "| run | %s | %s |\n", e->o[0] == TT_OUT_DONE ? "done" : "deadlock",
        e->o[1] == TT_OUT_DONE ? "done" : "deadlock");
  if (e->mode == TT_MODE_CYCLE && e->cycles[0] != e->cycles[1])
    sbf(o, "| cycles | %llu | %llu |\n", (unsigned long long)e->cycles[0], (unsigned long long)e->cycles[1]);
  sbf(o, "\n");
}

/* The litmus condition: the alternative reading's outcome, which the default forbids. */
static void repro_condition(sb *o, const repro *r, const names *nm) {
  const fz_prog *p = &r->p;
  const ends *e = &r->e;
  char b[64];
  sbf(o, "**Final-state condition** `");
  int first = 1;
  for (unsigned i = 0; i < e->d.n; i++) {
    fmt_val(b, sizeof b, &e->d.r[i], e->d.r[i].b);
    sbf(o, "%s%s == %s", first ? "" : " && ", e->d.r[i].loc, b);
    first = 0;
  }
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    if (p->n[t] && e->done[0][t] != e->done[1][t]) {
      sbf(o, "%st%u %s", first ? "" : " && ", t, e->done[1][t] ? "done" : "not done");
      first = 0;
    }
  if (e->mode == TT_MODE_CYCLE && e->cycles[0] != e->cycles[1])
    sbf(o, "%scycles == %llu", first ? "" : " && ", (unsigned long long)e->cycles[1]);
  sbf(o, "`: allowed by `%s=%s`, not by the default `%s=%s`.\n\n", tt_knob_name(r->k), nm->val,
      tt_knob_name(r->k), nm->def);
}

static void repro_vectors(sb *o, const repro *r, const names *nm) {
  sbf(o, "Vectors: [`%s=%s`](../../conformance/ambiguities/AMB-%02u-%s-%s%s.vec), "
         "[`%s=%s`](../../conformance/ambiguities/AMB-%02u-%s-%s-vs-%s%s.vec).\n\n",
      tt_knob_name(r->k), nm->val, amb_witness_amb(r->k, r->v), tt_knob_name(r->k), nm->val, nm->vs,
      tt_knob_name(r->k), nm->def, amb_witness_amb(r->k, r->v), tt_knob_name(r->k), nm->def, nm->val, nm->vs);
}

static void page_reproducer(sb *o, const repro *r) {
  names nm;
  value_name(r->k, r->v, nm.val, sizeof nm.val);
  value_name(r->k, 0, nm.def, sizeof nm.def);
  nm.vs = fz_ends_with(r->file, ".small.vec") ? "-small" : "";
  repro_heading(o, r, &nm);
  repro_initial(o, &r->p);
  if (threads_used(&r->p) > 1) repro_threads(o, &r->p);
  repro_stream(o, &r->p);
  repro_ends(o, r, &nm);
  if (threads_used(&r->p) > 1) repro_condition(o, r, &nm);
  repro_vectors(o, r, &nm);
}

/* ---- the index and the page of one ambiguity ------------------------------------------------- */
void page_index_head(sb *x) {
  sbf(x, "# Spec ambiguities: minimised reproducers\n\n"
         "Generated by `make reports-ambiguities` (fuzz/ambtool.c) from the registry "
         "`model/ambiguities.def` and the kept witnesses in `corpus/reproducers/ambiguity_diff/`; "
         "do not edit. One page per ambiguity: the question, the readings with the pages they "
         "rest on, the minimised reproducer with the end state under each reading, the model's "
         "default and why. Next to each reproducer, `conformance/ambiguities/` holds one vector per "
         "reading that pins it with `knob:` (`make test` runs them).\n\n"
         "A witness is an input whose end state (architectural locations, each thread's progress "
         "and first fault class, the outcome, and in cycle mode the cycle count) differs between the "
         "default reading and one other reading, every other knob at its default "
         "(fuzz/ambiguity_diff.c). Size: instructions of the smallest reproducer of the "
         "ambiguity (NOPs that keep the threads' timing included).\n\n"
         "What differs: `state` when some reproducer of the ambiguity changes the architectural "
         "state or a thread's progress, `cycles` when the readings only finish at different cycles, "
         "`fault record` when only the model's record of the instruction differs.\n\n"
         "| id | question | default | reproducer size | what differs | observable in func / cycle | page |\n"
         "|---|---|---|---:|---|---|---|\n");
}

void page_index_tail(sb *x, unsigned n_pages, unsigned n_obs, unsigned n_none, size_t nr) {
  sbf(x, "\n%u ambiguities: %u observable by an instruction stream (each with a knob per reading "
         "and a minimised reproducer), %u not (their pages say why). %zu kept witnesses, %zu "
         "pinned-reading vectors.\n", n_pages, n_obs, n_none, nr, 2 * nr);
}

/* What the reproducers of ambiguity a show: how many, the smallest, the strongest level. */
typedef struct amb_sum { unsigned best, nrep; int strongest; } amb_sum;
static amb_sum summarise(const tt_amb *a, const repro *rs, size_t nr) {
  amb_sum s = {0, 0, 0};
  for (size_t i = 0; i < nr; i++)
    if (amb_witness_amb(rs[i].k, rs[i].v) == a->id) {
      s.nrep++;
      if (!s.best || rs[i].size < s.best) s.best = rs[i].size;
      if (rs[i].level > s.strongest) s.strongest = rs[i].level;
    }
  return s;
}

/* The default text: the knob value names of the default readings. */
static void default_readings(const tt_amb *a, char *defs, size_t cap) {
  size_t dl = 0;
  defs[0] = 0;
  for (unsigned ri = 0; ri < tt_amb_reading_count(); ri++) {
    const tt_amb_reading *rd = tt_amb_reading_get(ri);
    if (rd->amb != a->id || !rd->knob[0]) continue;
    int kk = tt_knob_by_name(rd->knob);
    if (kk < 0 || tt_knob_value_index((unsigned)kk, rd->value) != 0) continue;
    dl += (size_t)snprintf(defs + dl, cap - dl, "%s`%s=%s`", dl ? ", " : "", rd->knob, rd->value);
  }
}

static void index_row(sb *x, const tt_amb *a, const amb_sum *s, int none) {
  char defs[256];
  default_readings(a, defs, sizeof defs);
  char size[32];
  if (none) snprintf(size, sizeof size, "—");
  else if (s->nrep) snprintf(size, sizeof size, "%u", s->best);
  else snprintf(size, sizeof size, "missing");
  int strongest = s->strongest;
  sbf(x, "| AMB-%u | %s | %s | %s | %s | %s | [AMB-%02u-%s.md](AMB-%02u-%s.md) |\n", a->id, a->question,
      none ? "(no knob)" : defs, size,
      none || !s->nrep ? "—" : strongest == AMB_LEVEL_ARCH ? "state" : strongest == AMB_LEVEL_CYCLES ? "cycles" : "fault record",
      none ? "neither" : strcmp(a->modes, "cycle") == 0 ? "cycle" : "func, cycle",
      a->id, a->slug, a->id, a->slug);
}

/* The page up to the reproducers: the question, where it is observable, the readings, the
 * default and who follows which reading. */
static void page_head(sb *o, const tt_amb *a, int none) {
  sbf(o, "# AMB-%u: %s\n\n", a->id, a->question);
  sbf(o, "Generated by `make reports-ambiguities` from `model/ambiguities.def` and the kept "
         "witnesses; do not edit. Index: [README.md](README.md).\n\n");
  if (none) sbf(o, "**Observable:** no instruction stream in this model can tell the readings apart.\n\n");
  else sbf(o, "**Observable in:** %s mode%s.\n\n", strcmp(a->modes, "cycle") == 0 ? "cycle" : "functional and cycle",
           strcmp(a->modes, "cycle") == 0 ? " (a timing question: functional mode has no time)" : "");
  sbf(o, "## Readings\n\n| reading | what it says | rests on |\n|---|---|---|\n");
  for (unsigned ri = 0; ri < tt_amb_reading_count(); ri++) {
    const tt_amb_reading *rd = tt_amb_reading_get(ri);
    if (rd->amb != a->id) continue;
    int kk = rd->knob[0] ? tt_knob_by_name(rd->knob) : -1;
    int isdef = kk >= 0 && tt_knob_value_index((unsigned)kk, rd->value) == 0;
    if (rd->knob[0]) sbf(o, "| `%s=%s`%s | %s | %s |\n", rd->knob, rd->value, isdef ? " (default)" : "", rd->text, rd->pages);
    else sbf(o, "| %s | %s | %s |\n", rd->value, rd->text, rd->pages);
  }
  sbf(o, "\nPages are in `tenstorrent/tt-isa-documentation` unless another repository is named; "
         "SEED-n are third-party emulator chapters the spec digest compares.\n\n");
  sbf(o, "## The model's default\n\n%s\n\n", a->why_default);
  if (a->models[0]) sbf(o, "## Who follows which reading\n\n%s\n\n", a->models);
}

int page_ambiguity(sb *x, sb *o, const tt_amb *a, const repro *rs, size_t nr, int *bad) {
  amb_sum s = summarise(a, rs, nr);
  int none = strcmp(a->modes, "none") == 0;
  index_row(x, a, &s, none);
  if (!none && !s.nrep) {
    fprintf(stderr, "ambtool: AMB-%u has no kept witness\n", a->id);
    *bad = 1;
  }
  page_head(o, a, none);
  if (none) {
    sbf(o, "## Why no stream separates the readings\n\n%s\n", a->unobservable);
    return none;
  }
  sbf(o, "## Reproducers\n\n");
  for (size_t i = 0; i < nr; i++)
    if (amb_witness_amb(rs[i].k, rs[i].v) == a->id) page_reproducer(o, &rs[i]);
  o->len--;  /* one trailing newline */
  return none;
}
