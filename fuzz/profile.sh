#!/bin/bash
# profile.sh — `make profile`: where each fuzz target's time goes under each build, on make
# bench's fixed inputs. For every target in PROFILE_TARGETS (make profile sets it) and every
# build, one `perf record -e cpu-clock` of PROFILE_TIME (3) seconds, its samples
# sorted into categories by symbol, shared object and process:
#   model      functions defined in model/*.c (by `nm -l` of the binary: the file of each symbol)
#   harness    functions defined in fuzz/*.c: input decoding, setup, invariant checks, digests
#   cmp-trace  __sanitizer_cov_trace_* (comparison tracing: the engine's callbacks)
#   sanitizer  the ASan/UBSan runtime and interceptors (inline checks stay in their function)
#   engine     libFuzzer (fuzzer::, its C++ library, libm, its clock reads through the vDSO),
#              AFL++ (the afl-fuzz process, its runtime and driver in the target), and the
#              bench feeders that replace mutation
#   libc       libc.so: memset/memcpy/malloc, called by any of the above
#   kernel     kernel time (AFL++'s fork server and shared-memory hand-over, page faults)
# and prints, per row, CPU microseconds per execution in each category (samples / frequency /
# executions) and the three hottest symbols. Builds: libFuzzer -O2 without sanitizer
# (build/fuzz-bench/T, bench feeder), the campaign's libFuzzer+ASan+UBSan -O1
# (build/fuzz-lf/bench-T), AFL++ (build/fuzz-afl/T under afl-fuzz, persistent, bench feeder as
# custom mutator; skipped without afl-fuzz) and the plain loop (build/fuzz-tool/T --time: no
# engine, no instrumentation). The empty target (fuzz/empty.c) gets the same rows: the engine's
# cost with nothing to run. Needs perf (Debian: linux-perf). The inputs and the engines' command
# lines are make bench's (fuzz/bench_lib.sh); missing input files are made here.
set -eu
T=${PROFILE_TIME:-3}; F=${PROFILE_FREQ:-2999}
d=build/fuzz/bench; out=build/fuzz/profile; res=build/fuzz/profile.txt

# symbol -> file of definition, for the model/harness split (one table per binary)
symfiles() {
  nm -l --defined-only "$1" 2>/dev/null |
    awk -F'\t' 'NF >= 2 { n = split($1, a, " "); f = $2; sub(/:[0-9]+$/, "", f); print a[n] "\t" f }'
}

# classify perf samples (perf report -t '|': overhead|comm|dso|sym, sample counts) and print a row
classify() {  # label execs symfile report
  awk -F'|' -v label="$1" -v execs="$2" -v F="$F" -v symfile="$3" '
    BEGIN {
      while ((getline line < symfile) > 0) { split(line, p, "\t"); file[p[1]] = p[2] }
      ncat = split("model harness cmp-trace sanitizer engine libc kernel other", cats, " ")
    }
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    NF >= 4 && $0 !~ /^#/ {
      n = trim($1) + 0; comm = trim($2); dso = trim($3); sym = trim($4); sub(/^\[[.k]\] /, "", sym)
      base = sym; sub(/\(.*/, "", base); sub(/[ \t].*/, "", base)
      f = (base in file) ? file[base] : ""
      if (dso ~ /kernel/) c = "kernel"
      else if (comm == "afl-fuzz") c = "engine"
      else if (sym ~ /__sanitizer_cov_trace/) c = "cmp-trace"
      else if (dso == "[vdso]") c = "engine"
      else if (sym ~ /^(fuzzer::|std::|__gnu_cxx::|operator new|operator delete)/ || sym ~ /LLVMFuzzerRunDriver|^__afl|^afl_|__sanitizer_cov_8bit|__sanitizer_cov_pcs/ || dso ~ /^libm[.-]/ || f ~ /\/fuzz\/(bench_feed|afl_bench_feed)\.c$/ || sym ~ /^LLVMFuzzerCustomMutator$/) c = "engine"
      else if (sym ~ /__asan|__ubsan|__lsan|__sanitizer|__interceptor|___interceptor|^__msan|^asan_|^ubsan_/) c = "sanitizer"
      else if (f ~ /\/model\//) c = "model"
      else if (f ~ /\/fuzz\//) c = "harness"
      else if (dso ~ /^libc[.-]/) c = "libc"
      else c = "other"
      tot += n; cat[c] += n
      key = c ":" sym; sn[key] += n
    }
    END {
      if (tot == 0 || execs <= 0) { printf "%-40s  no samples or no executions\n", label; exit }
      us = tot / F / execs * 1e6
      printf "%-40s %9.0f %8.2f", label, execs / (tot / F), us
      for (i = 1; i <= ncat; i++) printf " %8.2f", cat[cats[i]] / F / execs * 1e6
      printf "\n"
      for (k in sn) { sorted[++m] = sprintf("%012d|%s", sn[k], k) }
      # the three hottest symbols (simple selection: m is a few hundred at most)
      for (j = 1; j <= 3 && j <= m; j++) {
        best = j
        for (i = j + 1; i <= m; i++) if (sorted[i] > sorted[best]) best = i
        tmp = sorted[j]; sorted[j] = sorted[best]; sorted[best] = tmp
        split(sorted[j], q, "|"); s = q[2]; if (length(s) > 70) s = substr(s, 1, 67) "..."
        printf "%-40s   %5.1f%% %s\n", "", 100 * (q[1] + 0) / tot, s
      }
    }' "$4"
}

# profile.sh --classify LABEL EXECS SYMS REPORT: one row from a saved report (fuzz/profile-test.sh)
if [ "${1:-}" = --classify ]; then classify "$2" "$3" "$4" "$5"; exit 0; fi
if ! command -v perf >/dev/null 2>&1 || ! perf --version >/dev/null 2>&1; then
  echo "profile: perf is missing; run this, then make profile again:"
  echo "  sudo apt-get install -y linux-perf"
  exit 1
fi
mkdir -p "$out" "$d"

TARGETS=${PROFILE_TARGETS:?set by make profile: the targets to profile}
. fuzz/bench_lib.sh
row_of() { case $1 in empty) echo func_invariants ;; *) echo "$1" ;; esac; }  # its inputs' row
for t in $TARGETS; do
  r=$(row_of "$t")
  [ -s "$d/$r.in" ] || bench_make_inputs "$r" "$d/$r.in" 4000 64 >/dev/null
done

report() {  # data-file -> the samples per comm/dso/sym
  perf report -i "$1" --stdio --no-children -n -F sample,comm,dso,sym -t '|' 2>/dev/null | grep -v '^#' | grep -v '^$' || true
}

{
  echo "profile: perf cpu-clock at ${F} Hz, ${T}s per build, make bench's inputs; $(nproc) CPU(s), $(date -u +%FT%TZ)"
  echo "  columns: executions per CPU second under perf; CPU us per execution, in all and by category (fuzz/profile.sh's header)"
  printf '%-40s %9s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' "target / build" execs/s "us/exec" model harness cmp-trace sanitizer engine libc kernel other
  for t in $TARGETS; do
    in="$d/$(row_of "$t").in"
    for b in libfuzzer asan afl plain; do
      data="$out/$t.$b.data"; rep="$out/$t.$b.txt"; execs=0
      case $b in
        libfuzzer) bin=build/fuzz-bench/$t; label="$t  libFuzzer -O2" ;;
        asan) bin=build/fuzz-lf/bench-$t; label="$t  libFuzzer+ASan+UBSan" ;;
        afl) bin=build/fuzz-afl/$t; label="$t  AFL++" ;;
        plain) bin=build/fuzz-tool/$t; label="$t  plain loop" ;;
      esac
      [ -x "$bin" ] || continue
      BENCH_WRAP="perf record -q -F $F -e cpu-clock -o $data --"
      case $b in
        libfuzzer|asan)
          execs=$(bench_lf "$bin" "$in" "$T" | sed -n 's/^bench: \([0-9]*\) execs in .*/\1/p' | tail -n 1) ;;
        afl)
          command -v afl-fuzz >/dev/null 2>&1 || continue
          execs=$(bench_afl "$bin" "$in" "$T" "$out/afl-$t" | cut -d' ' -f1) ;;
        plain)
          [ "$t" = empty ] && continue
          rate=$($BENCH_WRAP "$bin" --time "$T" "$in" 2>/dev/null | tail -n 1)
          execs=$(awk -v r="$rate" -v t="$T" 'BEGIN{printf "%.0f", r * t}') ;;
      esac
      symfiles "$bin" >"$out/$t.$b.syms"
      report "$data" >"$rep"
      classify "$label" "${execs:-0}" "$out/$t.$b.syms" "$rep"
    done
  done
} | tee "$res"
