/* dut_proto.c — capability, fault and outcome names of the ttdut line protocol. */
#include <string.h>
#include "dut_proto.h"

static const char *const g_kinds[TTDUT_LOC_KIND_COUNT] = {
  "gpr", "cfg", "tcfg", "sem.value", "sem.max", "mutex", "l1.u8", "l1.u16", "l1.u32", "mmio",
  "host.u8", "host.u16", "host.u32", "prng_reseeds", "ic_invalidates", "ctx_resets",
};
static const char *const g_flags[] = {
  "fault_class", "blocked", "issued", "cycles", "issue_cycles", "hazards", "changed", "trace",
  "knobs",
};
static const char *const g_faults[] = {
  "none", "undefined", "unpredictable", "noncontractual", "unsupported", "unimplemented",
};
static const char *const g_outcomes[] = {"done", "deadlock", "budget"};

const char *dut_kind_name(unsigned k) { return k < TTDUT_LOC_KIND_COUNT ? g_kinds[k] : NULL; }

const char *dut_flag_name(unsigned b) {
  return b < sizeof g_flags / sizeof g_flags[0] ? g_flags[b] : NULL;
}

void dut_names_fmt(uint32_t mask, const char *(*names)(unsigned), unsigned count, char *buf,
                   size_t n) {
  size_t len = 0;
  if (!n) return;
  buf[0] = 0;
  for (unsigned i = 0; i < count && i < 32; i++) {
    const char *nm = names(i);
    if (!(mask & (1u << i)) || !nm) continue;
    size_t k = strlen(nm);
    if (len + k + 2 > n) break;
    if (len) buf[len++] = ',';
    memcpy(buf + len, nm, k);
    len += k;
    buf[len] = 0;
  }
  if (len == 0 && n > 1) { buf[0] = '-'; buf[1] = 0; }
}

int dut_names_parse(const char *text, const char *(*names)(unsigned), unsigned count,
                    uint32_t *mask) {
  const char *p = text;
  *mask = 0;
  if (strcmp(text, "-") == 0 || !*text) return 0;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    int found = 0;
    for (unsigned i = 0; i < count && i < 32; i++) {
      const char *nm = names(i);
      if (nm && strlen(nm) == len && memcmp(nm, p, len) == 0) { *mask |= 1u << i; found = 1; }
    }
    if (!found) return -1;
    p += len;
    if (*p == ',') p++;
  }
  return 0;
}

const char *dut_fault_name(unsigned f) {
  if (f == TTDUT_FAULT_SOME) return "some";
  return f < sizeof g_faults / sizeof g_faults[0] ? g_faults[f] : "some";
}

int dut_fault_parse(const char *name) {
  if (strcmp(name, "some") == 0) return TTDUT_FAULT_SOME;
  for (unsigned i = 0; i < sizeof g_faults / sizeof g_faults[0]; i++)
    if (strcmp(name, g_faults[i]) == 0) return (int)i;
  return -1;
}

const char *dut_outcome_name(unsigned o) { return o < 3 ? g_outcomes[o] : "budget"; }

int dut_outcome_parse(const char *name) {
  for (unsigned i = 0; i < 3; i++)
    if (strcmp(name, g_outcomes[i]) == 0) return (int)i;
  return -1;
}
