/* dut_proc.c — an implementation under test that runs as a separate process and speaks the
 * ttdut line protocol (conformance/README.md, "The line protocol") on its stdin/stdout:
 * `ttconf --dut-cmd "COMMAND"`. COMMAND runs under /bin/sh; its stderr is passed through.
 * A process that dies or answers out of protocol fails the run with what it said last. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "dut_proc.h"
#include "dut_proto.h"
#include "dut_check.h"

/* How long one answer may take (a run included) before the process is taken as hung: seconds,
 * from the environment variable TTDUT_TIMEOUT (default 60). */
#define DEFAULT_TIMEOUT_S 60

typedef struct proc {
  pid_t pid;
  int in;       /* its stdout (read with poll, so that a hung process cannot hang the runner) */
  char buf[DUT_LINE_MAX];
  size_t blen;  /* bytes in buf not yet returned as lines */
  int timeout_ms;
  FILE *out;    /* its stdin */
  int dead;
  char line[DUT_LINE_MAX];
  char last_error[200];
  ttdut_caps caps;
  ttdut_hazard haz[256];
} proc;

static void copy(char *dst, size_t n, const char *src) {
  if (!dst || !n) return;
  size_t k = strlen(src);
  if (k >= n) k = n - 1;
  memcpy(dst, src, k);
  dst[k] = 0;
}

static void die(proc *p, const char *what) {
  if (!p->dead) {
    snprintf(p->last_error, sizeof p->last_error, "implementation process: %s", what);
    fprintf(stderr, "ttconf: %s\n", p->last_error);
  }
  p->dead = 1;
}

/* Read one response line into p->line (without the newline). 0, or -1 when the process ended,
 * answered a line too long, or did not answer within the time-out. */
static int read_line(proc *p) {
  if (p->dead) return -1;
  for (;;) {   /* bounded: each pass consumes input or returns */
    char *nl = memchr(p->buf, '\n', p->blen);
    if (nl) {
      size_t n = (size_t)(nl - p->buf);
      memcpy(p->line, p->buf, n);
      p->line[n] = 0;
      if (n && p->line[n - 1] == '\r') p->line[n - 1] = 0;
      memmove(p->buf, nl + 1, p->blen - n - 1);
      p->blen -= n + 1;
      return 0;
    }
    if (p->blen == sizeof p->buf) { die(p, "response line too long"); return -1; }
    struct pollfd pf = {p->in, POLLIN, 0};
    int r = poll(&pf, 1, p->timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) {
      char msg[96];
      snprintf(msg, sizeof msg, "no answer within %d s (TTDUT_TIMEOUT): taken as hung, stopped", p->timeout_ms / 1000);
      die(p, msg);
      kill(-p->pid, SIGKILL);
      return -1;
    }
    ssize_t k = r > 0 ? read(p->in, p->buf + p->blen, sizeof p->buf - p->blen) : -1;
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) { die(p, "closed its output (exited or crashed)"); return -1; }
    p->blen += (size_t)k;
  }
}

/* Send a request and read its first response line. Returns TTDUT_OK / UNSUPPORTED / REFUSED,
 * or -1 when the process is gone or answered out of protocol; `rest` points past the status
 * word of p->line. */
static int request(proc *p, const char *req, const char **rest) {
  *rest = "";
  if (p->dead) return -1;
  if (fputs(req, p->out) == EOF || fputc('\n', p->out) == EOF || fflush(p->out) == EOF) {
    die(p, "cannot write its input");
    return -1;
  }
  if (read_line(p) != 0) return -1;
  const char *l = p->line;
  if (strncmp(l, "ok", 2) == 0 && (l[2] == 0 || l[2] == ' ')) { *rest = l[2] ? l + 3 : ""; return TTDUT_OK; }
  if (strncmp(l, "no", 2) == 0 && (l[2] == 0 || l[2] == ' ')) { *rest = l[2] ? l + 3 : ""; return TTDUT_UNSUPPORTED; }
  if (strncmp(l, "refused", 7) == 0 && (l[7] == 0 || l[7] == ' ')) { *rest = l[7] ? l + 8 : ""; return TTDUT_REFUSED; }
  char msg[160];
  snprintf(msg, sizeof msg, "answered '%.100s' to '%.40s'", l, req);
  die(p, msg);
  return -1;
}

static int status(proc *p, int r, const char *rest, char *why, size_t n) {
  if (r < 0) { copy(why, n, p->last_error); return TTDUT_ERROR; }
  if (r != TTDUT_OK) copy(why, n, rest);
  return r;
}

static void *p_open(const char *cmd, char *why, size_t n) {
  int to[2], from[2];
  proc *p;
  if (!cmd || !*cmd) { copy(why, n, "no command"); return NULL; }
  p = calloc(1, sizeof *p);
  if (!p) { copy(why, n, "out of memory"); return NULL; }
  if (pipe(to) != 0 || pipe(from) != 0) { copy(why, n, strerror(errno)); free(p); return NULL; }
  signal(SIGPIPE, SIG_IGN);
  fflush(stdout);
  p->pid = fork();
  if (p->pid < 0) { copy(why, n, strerror(errno)); free(p); return NULL; }
  if (p->pid == 0) {
    setpgid(0, 0);   /* its own process group: a hung implementation is stopped whole */
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[0]); close(to[1]); close(from[0]); close(from[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  p->out = fdopen(to[1], "w");
  p->in = from[0];
  if (!p->out) { copy(why, n, "fdopen failed"); free(p); return NULL; }
  const char *to_env = getenv("TTDUT_TIMEOUT");
  long secs = to_env && *to_env ? strtol(to_env, NULL, 10) : DEFAULT_TIMEOUT_S;
  p->timeout_ms = (int)((secs > 0 && secs < 86400 ? secs : DEFAULT_TIMEOUT_S) * 1000);
  const char *rest;
  char req[32];
  snprintf(req, sizeof req, "hello %d", DUT_PROTO_VERSION);
  if (request(p, req, &rest) != TTDUT_OK || atoi(rest) != DUT_PROTO_VERSION) {
    copy(why, n, p->dead ? p->last_error : "it did not answer 'hello 1' with 'ok 1' (protocol version 1)");
    return NULL;
  }
  return p;
}

static void p_close(void *vp) {
  proc *p = vp;
  const char *rest;
  if (!p->dead) request(p, "quit", &rest);
  if (p->out) fclose(p->out);
  if (p->in >= 0) close(p->in);
  if (p->pid > 0) waitpid(p->pid, NULL, 0);
  free(p);
}

/* "key=value" words of a caps line */
static const char *field(const char *line, const char *key, char *buf, size_t n) {
  size_t k = strlen(key);
  for (const char *q = line; q && *q; q = strchr(q, ' ')) {
    while (*q == ' ') q++;
    if (strncmp(q, key, k) == 0 && q[k] == '=') {
      const char *v = q + k + 1, *e = strcmp(key, "notes") == 0 ? v + strlen(v) : strchr(v, ' ');
      size_t len = e ? (size_t)(e - v) : strlen(v);
      if (len >= n) len = n - 1;
      memcpy(buf, v, len);
      buf[len] = 0;
      return buf;
    }
  }
  buf[0] = 0;
  return NULL;
}

static void p_caps(void *vp, ttdut_caps *c) {
  proc *p = vp;
  const char *rest;
  char buf[512];
  memset(c, 0, sizeof *c);
  c->version = TTDUT_VERSION;
  if (request(p, "caps", &rest) != TTDUT_OK) return;
  static const char *const modes[2] = {"func", "cycle"};
  if (field(rest, "modes", buf, sizeof buf))
    for (unsigned m = 0; m < 2; m++)
      if (strstr(buf, modes[m])) c->modes |= 1u << m;
  uint32_t mask = 0;
  if (field(rest, "set", buf, sizeof buf) && dut_names_parse(buf, dut_kind_name, TTDUT_LOC_KIND_COUNT, &mask) == 0)
    c->can_set = mask;
  if (field(rest, "get", buf, sizeof buf) && dut_names_parse(buf, dut_kind_name, TTDUT_LOC_KIND_COUNT, &mask) == 0)
    c->can_get = mask;
  if (field(rest, "flags", buf, sizeof buf) && dut_names_parse(buf, dut_flag_name, 32, &mask) == 0)
    c->flags = mask;
  field(rest, "name", buf, sizeof buf);
  for (char *q = buf; *q; q++) if (*q == '_') *q = ' ';   /* the server writes spaces as _ */
  copy(c->name, sizeof c->name, buf[0] ? buf : "process");
  field(rest, "notes", buf, sizeof buf);
  copy(c->notes, sizeof c->notes, buf);
  p->caps = *c;
}

static int p_accepts(void *vp, uint32_t w, char *why, size_t n) {
  proc *p = vp;
  char req[32];
  const char *rest;
  snprintf(req, sizeof req, "accepts 0x%08X", w);
  int r = request(p, req, &rest);
  return status(p, r, rest, why, n);
}

static int p_reset(void *vp, uint32_t mode, const ttdut_knob *k, uint32_t nk, char *why, size_t n) {
  proc *p = vp;
  char req[DUT_LINE_MAX];
  size_t len = (size_t)snprintf(req, sizeof req, "reset %s", mode == TTDUT_MODE_CYCLE ? "cycle" : "func");
  const char *rest;
  for (uint32_t i = 0; i < nk && len < sizeof req; i++)
    len += (size_t)snprintf(req + len, sizeof req - len, " %s=%s", k[i].name, k[i].value);
  if (len >= sizeof req) { copy(why, n, "too many knobs for one line"); return TTDUT_UNSUPPORTED; }
  int r = request(p, req, &rest);
  return status(p, r, rest, why, n);
}

static int p_set(void *vp, const ttdut_loc *l, uint32_t v, char *why, size_t n) {
  proc *p = vp;
  char loc[64], req[96];
  const char *rest;
  if (dutc_fmt_loc(l, loc, sizeof loc) != 0) { copy(why, n, "bad location"); return TTDUT_UNSUPPORTED; }
  snprintf(req, sizeof req, "set %s 0x%X", loc, v);
  int r = request(p, req, &rest);
  return status(p, r, rest, why, n);
}

static int p_load(void *vp, uint32_t t, const uint32_t *w, uint32_t count, char *why, size_t n) {
  proc *p = vp;
  const char *rest;
  if (p->dead) { copy(why, n, p->last_error); return TTDUT_ERROR; }
  /* one line: "load tN W W W ..." (11 bytes a word; 4096 words fit in 45 KiB) */
  fprintf(p->out, "load t%u", t);
  for (uint32_t i = 0; i < count; i++) fprintf(p->out, " 0x%08X", w[i]);
  if (fputc('\n', p->out) == EOF || fflush(p->out) == EOF) { die(p, "cannot write its input"); copy(why, n, p->last_error); return TTDUT_ERROR; }
  if (read_line(p) != 0) { copy(why, n, p->last_error); return TTDUT_ERROR; }
  const char *l = p->line;
  if (strcmp(l, "ok") == 0 || strncmp(l, "ok ", 3) == 0) return TTDUT_OK;
  if (strcmp(l, "no") == 0 || strncmp(l, "no ", 3) == 0) { copy(why, n, l[2] ? l + 3 : ""); return TTDUT_UNSUPPORTED; }
  rest = l;
  die(p, "bad answer to load");
  copy(why, n, rest);
  return TTDUT_ERROR;
}

static int p_run(void *vp, uint64_t budget, ttdut_result *r) {
  proc *p = vp;
  char req[48], oc[16];
  const char *rest;
  unsigned long long steps = 0, cycles = 0;
  memset(r, 0, sizeof *r);
  snprintf(req, sizeof req, "run %llu", (unsigned long long)budget);
  if (request(p, req, &rest) != TTDUT_OK || sscanf(rest, "%15s %llu %llu", oc, &steps, &cycles) != 3 ||
      dut_outcome_parse(oc) < 0) {
    if (!p->dead) die(p, "bad answer to run");
    return -1;
  }
  r->outcome = (uint32_t)dut_outcome_parse(oc);
  r->steps = steps;
  r->cycles = cycles;
  for (unsigned t = 0; t < 3; t++) {
    unsigned th, done, blocked, issued, fidx;
    char fault[24];
    int used = 0;
    if (read_line(p) != 0) return -1;
    if (sscanf(p->line, "t%u %u %u %u %23s %u%n", &th, &done, &blocked, &issued, fault, &fidx, &used) != 6 ||
        th != t || dut_fault_parse(fault) < 0) {
      die(p, "bad thread line after run");
      return -1;
    }
    ttdut_thread_result *x = &r->thread[t];
    x->done = (uint8_t)(done != 0);
    x->blocked = (uint8_t)(blocked != 0);
    x->issued = issued;
    x->fault = (uint8_t)dut_fault_parse(fault);
    x->fault_index = fidx;
    const char *w = p->line + used;
    while (*w == ' ') w++;
    copy(x->why, sizeof x->why, w);
  }
  return TTDUT_OK;
}

static int p_get(void *vp, const ttdut_loc *l, uint32_t *v, char *why, size_t n) {
  proc *p = vp;
  char loc[64], req[96];
  const char *rest;
  if (dutc_fmt_loc(l, loc, sizeof loc) != 0) { copy(why, n, "bad location"); return TTDUT_UNSUPPORTED; }
  snprintf(req, sizeof req, "get %s", loc);
  int r = request(p, req, &rest);
  if (r == TTDUT_OK) {
    char *end;
    unsigned long long x = strtoull(rest, &end, 0);
    if (end == rest || x > 0xFFFFFFFFull) { die(p, "bad value in answer to get"); copy(why, n, p->last_error); return TTDUT_ERROR; }
    *v = (uint32_t)x;
    return TTDUT_OK;
  }
  return status(p, r, rest, why, n);
}

static int p_issue_cycle(void *vp, uint32_t t, uint32_t k, uint64_t *cycle) {
  proc *p = vp;
  char req[48];
  const char *rest;
  snprintf(req, sizeof req, "issue t%u %u", t, k);
  if (request(p, req, &rest) != TTDUT_OK) return TTDUT_UNSUPPORTED;
  *cycle = strtoull(rest, NULL, 0);
  return TTDUT_OK;
}

/* "ok N" then N lines */
static uint32_t count_reply(proc *p, const char *req) {
  const char *rest;
  if (request(p, req, &rest) != TTDUT_OK) return 0;
  return (uint32_t)strtoul(rest, NULL, 10);
}

static uint32_t p_hazards(void *vp, ttdut_hazard *out, uint32_t max) {
  proc *p = vp;
  uint32_t n = count_reply(p, "hazards");
  for (uint32_t i = 0; i < n; i++) {
    char kind[32];
    unsigned t, k;
    if (read_line(p) != 0) return i;
    if (sscanf(p->line, "%31s t%u %u", kind, &t, &k) != 3) { die(p, "bad hazard line"); return i; }
    if (i < max) {
      int kn = tt_hazard_kind_parse(kind);
      out[i].kind = kn < 0 ? 99u : (uint32_t)kn;
      out[i].thread = t;
      out[i].index = k;
      out[i].pad = 0;
    }
  }
  return n;
}

static void p_snapshot(void *vp) {
  proc *p = vp;
  const char *rest;
  request(p, "snapshot", &rest);
}

static uint32_t p_changed(void *vp, ttdut_loc *loc, uint32_t *a, uint32_t *b, uint32_t max) {
  proc *p = vp;
  uint32_t n = count_reply(p, "changed");
  for (uint32_t i = 0; i < n; i++) {
    char ls[64];
    unsigned long long va, vb;
    if (read_line(p) != 0) return i;
    if (sscanf(p->line, "%63s %lli %lli", ls, (long long *)&va, (long long *)&vb) != 3) {
      die(p, "bad changed line");
      return i;
    }
    if (i < max) {
      if (dutc_parse_loc(ls, strlen(ls), &loc[i]) != 0) { die(p, "bad location in changed"); return i; }
      a[i] = (uint32_t)va;
      b[i] = (uint32_t)vb;
    }
  }
  return n;
}

static uint32_t p_trace(void *vp, ttdut_trace_rec *out, uint32_t max) {
  proc *p = vp;
  uint32_t n = count_reply(p, "trace");
  for (uint32_t i = 0; i < n; i++) {
    if (read_line(p) != 0) return i;
    if (i >= max) continue;
    ttdut_trace_rec *r = &out[i];
    unsigned t, k, w;
    unsigned long long cyc;
    int used = 0;
    memset(r, 0, sizeof *r);
    if (sscanf(p->line, "t%u %u %x %llu%n", &t, &k, &w, &cyc, &used) != 4) { die(p, "bad trace line"); return i; }
    r->thread = t; r->index = k; r->word = w; r->cycle = cyc;
    for (char *q = strtok(p->line + used, " "); q; q = strtok(NULL, " ")) {
      char *eq = strchr(q, '=');
      if (!eq) continue;
      if (r->nwrites < TTDUT_TRACE_WRITES &&
          dutc_parse_loc(q, (size_t)(eq - q), &r->loc[r->nwrites]) == 0)
        r->value[r->nwrites] = (uint32_t)strtoul(eq + 1, NULL, 0);
      r->nwrites++;
    }
  }
  return n;
}

static const ttdut_ops g_ops = {
  TTDUT_VERSION, "process", p_open, p_close, p_caps, p_accepts, p_reset, p_set, p_load, p_run,
  p_get, p_issue_cycle, p_hazards, p_snapshot, p_changed, p_trace,
};

const ttdut_ops *dut_proc_ops(void) { return &g_ops; }
