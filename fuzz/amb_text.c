/* amb_text.c — ambtool's text: a growing buffer, instructions with their ISA field names, knob
 * value names, and the text of programs and reproducers (fuzz/amb_tool.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "amb_tool.h"

void sbf(sb *s, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(s->b ? s->b + s->len : NULL, s->b ? s->cap - s->len : 0, fmt, ap);
    va_end(ap);
    if (r < 0) return;
    if (s->b && s->len + (size_t)r < s->cap) { s->len += (size_t)r; return; }
    s->cap = (s->cap ? s->cap : 4096) * 2 + (size_t)r;
    s->b = realloc(s->b, s->cap);
    if (!s->b) { perror("realloc"); exit(2); }
  }
}

void fmt_insn(uint32_t w, char *buf, size_t n) {
  tt_insn in;
  tt_decode(w, &in);
  if (in.form == TT_FORM_FOREIGN) {
    snprintf(buf, n, "%s%s (unit outside the model)", tt_insn_name(&in),
             (w & 0xFFFFFFu) ? "" : "");
    return;
  }
  if (in.form == TT_FORM_UNDEFINED) { snprintf(buf, n, "undefined opcode 0x%02X", (unsigned)(w >> 24)); return; }
  size_t len = (size_t)snprintf(buf, n, "%s", tt_isa_forms[in.form].name);
  const tt_form_desc *fd = &tt_isa_forms[in.form];
  for (unsigned f = 0; f < fd->field_count && len < n; f++) {
    const tt_field_desc *fl = &tt_isa_fields[fd->field_first + f];
    uint32_t val = (w >> fl->lsb) & (fl->width >= 32 ? 0xFFFFFFFFu : ((1u << fl->width) - 1u));
    len += (size_t)snprintf(buf + len, n - len, val < 10 ? " %s=%u" : " %s=0x%X", fl->name, (unsigned)val);
  }
  if (in.reserved && len < n) snprintf(buf + len, n - len, " reserved=0x%06X", (unsigned)in.reserved);
}

const char *value_name(unsigned k, unsigned v, char *buf, size_t n) {
  const char *s = tt_knob_values(k);
  for (unsigned i = 0; i < v && *s; s++) i += *s == '|';
  size_t j = 0;
  while (s[j] && s[j] != '|' && j + 1 < n) { buf[j] = s[j]; j++; }
  buf[j] = 0;
  return buf;
}

void write_init(sb *o, const fz_init *in, const char *prefix) {
  char loc[64];
  tt_loc_format(&in->loc, loc, sizeof loc);
  if (in->loc.kind == TT_LOC_MUTEX) {
    static const char *const who[4] = {"none", "t0", "t1", "t2"};
    sbf(o, "%sinit %s = %s\n", prefix, loc, who[in->value & 3u]);
  } else {
    sbf(o, "%sinit %s = 0x%X\n", prefix, loc, (unsigned)in->value);
  }
}

void write_program(sb *o, const fz_prog *p) {
  char dis[160];
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++)
    for (uint32_t i = 0; i < p->n[t]; i++) {
      fmt_insn(p->w[t][i], dis, sizeof dis);
      sbf(o, "t%u: 0x%08X   # %s\n", t, (unsigned)p->w[t][i], dis);
    }
}

int write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) { fprintf(stderr, "ambtool: cannot write %s: %s\n", path, strerror(errno)); return -1; }
  fwrite(text, 1, len, f);
  fclose(f);
  return 0;
}

void reproducer_text(sb *o, const fz_prog *p, unsigned k, unsigned v, unsigned mode) {
  char val[48], def[48];
  sbf(o, "# Witness of an ambiguity, kept by fuzz/ambtool (fuzz/ambiguity_diff.c): this stream ends in\n"
         "# a different state under %s=%s than under the default reading %s=%s. Replayed by\n"
         "# `make test` (it must keep showing the difference); published by `make reports-ambiguities`.\n",
      tt_knob_name(k), value_name(k, v, val, sizeof val), tt_knob_name(k), value_name(k, 0, def, sizeof def));
  sbf(o, "# target: ambiguity_diff\n# witness: %s\n", amb_witness_name(k, v));
  sbf(o, "name: witness %s\nmode: %s\n", amb_witness_name(k, v), mode == TT_MODE_CYCLE ? "cycle" : "func");
  for (uint32_t i = 0; i < p->ninit; i++) write_init(o, &p->init[i], "");
  write_program(o, p);
}
