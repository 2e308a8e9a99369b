/* mode_speed.c — `make bench`: the model's own speed in both modes on the same programs.
 * Reads a bench input file (length-prefixed fuzz inputs, as written by --bench-inputs), or the
 * real kernels (--kernels DIR...: corpus/kernels/<k>/trisc{0,1,2}.txt as three threads), and
 * runs every program, alternately, in functional mode and in cycle mode (reset, load and run
 * timed) until `seconds` have passed for each. Prints retired instructions per second for both modes
 * (the ratio is the figure of merit: measured side by side in one run) and, for cycle mode,
 * simulated cycles per second. No engine, no sanitizer, no per-cycle checks. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fz.h"

static tt_state st;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define MAXP 8192
static fz_prog progs[MAXP / 16];

/* A kernel folder (corpus/kernels/<k>/trisc{0,1,2}.txt: first column hex words) as a program. */
static int load_kernel(const char *dir, fz_prog *p) {
  fz_prog_clear(p);
  for (unsigned t = 0; t < TT_THREAD_COUNT; t++) {
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/trisc%u.txt", dir, t);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    while (fgets(line, sizeof line, f) && p->n[t] < FZ_MAX_INSN) {
      char *end;
      if (line[0] == '#') continue;
      unsigned long w = strtoul(line, &end, 16);
      if (end != line) p->w[t][p->n[t]++] = (uint32_t)w;
    }
    fclose(f);
  }
  return p->n[0] + p->n[1] + p->n[2] ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: mode_speed SECONDS INPUTS | SECONDS --kernels DIR...\n"); return 2; }
  double secs = strtod(argv[1], NULL);
  unsigned np = 0;
  if (strcmp(argv[2], "--kernels") == 0) {
    for (int i = 3; i < argc && np < sizeof progs / sizeof progs[0]; i++)
      if (load_kernel(argv[i], &progs[np]) == 0) np++;
  } else {
    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror(argv[2]); return 2; }
    static uint8_t buf[1 << 16];
    for (;;) {
      uint8_t h[4];
      if (fread(h, 1, 4, f) != 4) break;
      uint32_t len = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
      if (len > sizeof buf || fread(buf, 1, len, f) != len) break;
      if (np < sizeof progs / sizeof progs[0]) fz_prog_decode(buf, len, &progs[np++]);
    }
    fclose(f);
  }
  if (!np) { fprintf(stderr, "mode_speed: no inputs\n"); return 2; }
  tt_init(&st);
  double t[2] = {0, 0};
  unsigned long long insn[2] = {0, 0}, cycles = 0, runs[2] = {0, 0};
  for (unsigned i = 0; t[0] < secs || t[1] < secs; i = (i + 1) % np) {
    for (unsigned m = 0; m < 2; m++) {
      double t0 = now();
      fz_setup(&st, &progs[i]);
      tt_set_mode(&st, m ? TT_MODE_CYCLE : TT_MODE_FUNC);
      tt_run(&st, m ? 64u * (uint64_t)fz_total(&progs[i]) + 256u : fz_budget(&progs[i]));
      t[m] += now() - t0;
      for (unsigned k = 0; k < TT_THREAD_COUNT; k++) insn[m] += st.c.thr[k].retired;
      if (m) cycles += st.c.steps;
      runs[m]++;
    }
  }
  tt_set_mode(&st, TT_MODE_FUNC);
  double fi = (double)insn[0] / t[0], ci = (double)insn[1] / t[1], cc = (double)cycles / t[1];
  printf("modes: %u programs, each run in both modes (reset, load and run): functional %.2f M instr/s "
         "(%.0f k runs/s); cycle %.2f M instr/s and %.2f M simulated cycles/s (%.1f cycles per "
         "instruction); cycle/functional instr/s = %.2f\n",
         np, fi / 1e6, (double)runs[0] / t[0] / 1e3, ci / 1e6, cc / 1e6,
         insn[1] ? (double)cycles / (double)insn[1] : 0.0, ci / fi);
  return 0;
}
