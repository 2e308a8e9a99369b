#!/bin/sh
# bench.sh — `make bench`: for each target, its execs/s under the real libFuzzer loop and the
# ratio to the empty target (fuzz/empty.c) fed exactly the same inputs (fuzz/bench_feed.c
# replaces the mutator by a feeder of a fixed input file), measured back to back in this run;
# then the cost of a reset; then the model alone (fuzz/model_speed.c: instr/s and runs/s in both
# modes, functional-mode phases) and the model against BASE's (fuzz/bench_model.sh). Program
# inputs: seeds mutated by the structured mutator, capped at BENCH_MAX_PER_THREAD (64)
# instructions per thread. BENCH_TIME seconds per measurement.
set -eu
T=${BENCH_TIME:-5}; MAXPT=${BENCH_MAX_PER_THREAD:-64}; N=${BENCH_INPUTS:-4000}
d=build/fuzz/bench
mkdir -p "$d"
res=build/fuzz/bench.txt
ROWS="func_invariants func_invariants:full reset_equivalence reset_equivalence:full cycle_vs_func cycle_vs_func:full decode_roundtrip text_parsers"
measure_afl() {  # binary inputs -> execs/s (afl-fuzz, persistent mode + shared-memory input)
  local o="$d/afl-$(basename "$1")" i="$d/afl-seed"
  rm -rf "$o"; mkdir -p "$i"; head -c 64 /dev/zero >"$i/zero"
  FZ_BENCH_INPUTS=$2 AFL_CUSTOM_MUTATOR_LIBRARY=build/fuzz-tool/afl-bench-feed.so AFL_CUSTOM_MUTATOR_ONLY=1 \
    AFL_DISABLE_TRIM=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    afl-fuzz -i "$i" -o "$o" -V "$T" -m none -t 5000 -- "$1" >"$o.log" 2>&1 || true
  awk -F' *: *' '$1=="execs_done"{e=$2} $1=="run_time"{t=$2} END{ if (t>0) printf "%.0f", e/t; else printf "0" }' \
    "$o/default/fuzzer_stats" 2>/dev/null || echo 0
}
measure() {  # binary inputs -> execs/s
  FZ_BENCH_INPUTS=$2 $1 -max_total_time="$T" -len_control=0 -max_len=16384 -seed=1 \
    -timeout=30 -rss_limit_mb=4096 2>&1 | sed -n 's/^bench: \([0-9]*\) execs in \([0-9.]*\) s$/\1 \2/p' |
    awk '{ printf "%.0f", $1 / $2 }'
}
{
  echo "bench: libFuzzer loop (-O2, no sanitizer), ${T}s per measurement, $(nproc) CPU(s), $(date -u +%FT%TZ)"
  printf '%-24s %12s %14s %8s  %s\n' target "execs/s" "empty execs/s" ratio inputs
  for row in $ROWS; do
    t=${row%%:*}; in="$d/$row.in"
    case $row in
      *:full) note=$(build/fuzz-tool/$t --bench-inputs-full "$N" "$MAXPT" "$in" corpus/$t 2>&1 | sed -n 's/^bench inputs: //p')
              desc="$N random programs, exactly $MAXPT instructions/thread ($note)" ;;
      func_invariants|reset_equivalence|cycle_vs_func)
              note=$(build/fuzz-tool/$t --bench-inputs "$N" "$MAXPT" "$in" corpus/$t 2>&1 | sed -n 's/^bench inputs: //p')
              desc="$N mutated seeds, <= $MAXPT instructions/thread ($note)" ;;
      decode_roundtrip) build/fuzz-tool/$t --bench-inputs "$N" "$MAXPT" "$in" corpus/$t; desc="$N inputs of 1..64 words" ;;
      *) build/fuzz-tool/$t --bench-inputs "$N" "$MAXPT" "$in" corpus/$t; desc="the $(ls corpus/text_parsers | wc -l) text seeds, in turn" ;;
    esac
    a=$(measure build/fuzz-bench/$t "$in")
    b=$(measure build/fuzz-bench/empty "$in")
    printf '%-24s %12s %14s %7s%%  %s\n' "$row" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.0f", 100*a/b}')" "$desc"
  done
  if command -v afl-fuzz >/dev/null 2>&1 && [ -x build/fuzz-afl/empty ]; then
    echo "bench: AFL++ $(afl-fuzz -h 2>&1 | sed -n 's/.*afl-fuzz++\([0-9.a-z]*\).*/\1/p' | head -n 1) (afl-clang-fast -O2, persistent driver), same input files, ${T}s per measurement"
    printf '%-24s %12s %14s %8s\n' target "execs/s" "empty execs/s" ratio
    for row in $ROWS; do
      t=${row%%:*}
      a=$(measure_afl build/fuzz-afl/$t "$d/$row.in"); b=$(measure_afl build/fuzz-afl/empty "$d/$row.in")
      printf '%-24s %12s %14s %7s%%\n' "$row" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN{ if (b>0) printf "%.0f", 100*a/b; else printf "-" }')"
    done
  fi
  echo "bench: without any engine or instrumentation (fuzz-tool build, a plain loop over the same inputs):"
  for row in $ROWS; do
    printf '%-24s %12s execs/s\n' "$row" "$(build/fuzz-tool/${row%%:*} --time "$T" "$d/$row.in")"
  done
  build/fuzz-bench/reset_cost
  echo "bench: the model alone, functional and cycle mode, on the same programs (fuzz-tool build, -O2; fuzz/model_speed.c):"
  build/fuzz-bench/model_speed --time "$T" --seeds "$d/func_invariants.in" --full "$d/func_invariants:full.in" \
    --kernels corpus/kernels/*/
  echo "bench: how many programs cycle_vs_func compares with functional mode (one pass each):"
  build/fuzz-tool/cycle_vs_func --stats-inputs "$d/cycle_vs_func.in" || true
  build/fuzz-tool/cycle_vs_func --stats-inputs "$d/cycle_vs_func:full.in" || true
  echo "bench: the model of BASE=${BASE:-cb7cff8} vs the working tree's (make bench-model; fuzz/bench_model.sh):"
  if [ -n "${BENCH_CFLAGS:-}" ]; then bash fuzz/bench_model.sh || echo "bench: bench-model failed"
  else echo "bench: bench-model skipped (run through make, which gives the compile flags)"; fi
} | tee "$res"
