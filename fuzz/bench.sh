#!/bin/sh
# bench.sh — `make bench`: for each target, on the same fixed inputs, measured back to back in
# this run (rates are per second of process CPU time: the machine may be shared):
#   libFuzzer  execs/s under the real libFuzzer loop (-O2, no sanitizer, build/fuzz-bench) and
#              the ratio to the empty target (fuzz/empty.c) fed exactly the same inputs
#              (fuzz/bench_feed.c replaces the mutator by a feeder of a fixed input file);
#   asan       the same loop in the campaign build's flags (libFuzzer + ASan + UBSan, -O1,
#              build/fuzz-lf/bench-<t>);
#   plain      the target without engine or instrumentation (build/fuzz-tool, `--time`);
#   ctr, cmp   what the engine handles per execution: coverage counters hit (one feature each)
#              and comparison callbacks (build/fuzz-bench/features-<t>, fuzz/feature_count.c).
# Then AFL++, the cost of a reset, the model alone (fuzz/model_speed.c: instr/s and runs/s in
# both modes, functional-mode phases) and the model against BASE's (fuzz/bench_model.sh).
# Program inputs: seeds mutated by the
# structured mutator, capped at BENCH_MAX_PER_THREAD (64) instructions per thread.
# BENCH_TIME seconds per measurement; BENCH_ROWS the rows (default: every target, programs also :full
# for three of them). BENCH_BASE=DIR (a build/ directory of another checkout,
# with fuzz-bench/<t>, fuzz-bench/empty, fuzz-lf/bench-<t>, fuzz-tool/<t>) adds its figures on
# the same inputs in the same run, as "before" rows.
set -eu
T=${BENCH_TIME:-5}; MAXPT=${BENCH_MAX_PER_THREAD:-64}; N=${BENCH_INPUTS:-4000}
d=build/fuzz/bench
mkdir -p "$d"
res=build/fuzz/bench.txt
ROWS=${BENCH_ROWS:-"func_invariants func_invariants:full reset_equivalence reset_equivalence:full cycle_vs_func cycle_vs_func:full spec_diff ambiguity_diff decode_roundtrip text_parsers"}
. fuzz/bench_lib.sh
BENCH_WRAP=""
measure_afl() {  # binary inputs -> execs/s (afl-fuzz's own wall-clock rate)
  bench_afl "$1" "$2" "$T" "$d/afl-$(basename "$1")" | awk '{ if ($2 > 0) printf "%.0f", $1 / $2; else printf "0" }'
}
measure() {  # "binary [args]" inputs -> execs/s (per CPU second)
  bench_lf "$1" "$2" "$T" | sed -n 's/^bench: \([0-9]*\) execs in \([0-9.]*\) s$/\1 \2/p' |
    awk '{ printf "%.0f", $1 / $2 }'
}
{
  echo "bench: ${T}s per measurement (CPU time), $(nproc) CPU(s), $(date -u +%FT%TZ)"
  echo "  libFuzzer = -O2 no sanitizer, ratio = its execs/s / the empty target's; asan = libFuzzer+ASan+UBSan -O1 (campaign flags);"
  echo "  plain = no engine, no instrumentation; ctr/cmp = counters hit / comparison callbacks per execution"
  printf '%-24s %10s %10s %6s %10s %10s %7s %7s %6s %6s  %s\n' target libFuzzer empty ratio asan plain lf/pl asan/pl ctr cmp inputs
  for row in $ROWS; do
    t=${row%%:*}; in="$d/$row.in"
    note=$(bench_make_inputs "$row" "$in" "$N" "$MAXPT")
    case $row in
      *:full) desc="$N random programs, exactly $MAXPT instructions/thread ($note)" ;;
      func_invariants|reset_equivalence|cycle_vs_func|spec_diff|ambiguity_diff) desc="$N mutated seeds, <= $MAXPT instructions/thread ($note)" ;;
      decode_roundtrip) desc="$N inputs of 1..64 words" ;;
      *) desc="the $(ls corpus/text_parsers | wc -l) text seeds, in turn" ;;
    esac
    for side in after before; do
      if [ $side = after ]; then bd=build; label=$row; else [ -n "${BENCH_BASE:-}" ] || continue; bd=$BENCH_BASE; label="  before"; fi
      a=$(measure $bd/fuzz-bench/$t "$in")
      b=$(measure $bd/fuzz-bench/empty "$in")
      z=$( [ -x $bd/fuzz-lf/bench-$t ] && measure $bd/fuzz-lf/bench-$t "$in" || echo 0)
      p=$($bd/fuzz-tool/$t --time "$T" "$in")
      fc="- -"; note=""
      if [ $side = after ]; then
        fc=$(build/fuzz-bench/features-$t "$in" | sed -n 's/.*execs, \([0-9.]*\) counters hit and \([0-9.]*\) comparison.*/\1 \2/p')
        note=$desc
      fi
      printf '%-24s %10s %10s %5s%% %10s %10s %6s%% %6s%% %6s %6s  %s\n' "$label" "$a" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f", 100*a/b}')" "$z" "$p" \
        "$(awk -v a="$a" -v b="$p" 'BEGIN{printf "%.0f", 100*a/b}')" "$(awk -v a="$z" -v b="$p" 'BEGIN{printf "%.0f", 100*a/b}')" \
        "${fc%% *}" "${fc##* }" "$note"
    done
  done
  in="$d/func_invariants.in"
  echo "bench: the engine's own share (libFuzzer -O2, func_invariants' inputs): the model alone (fuzz/engine_model.c: decode,"
  echo "  setup, one tt_run) and func_invariants, with libFuzzer's default entropic schedule and with -entropic=0"
  printf '%-24s %12s %14s %8s\n' target "execs/s" "empty execs/s" ratio
  for v in "engine_model" "engine_model -entropic=0" "func_invariants" "func_invariants -entropic=0"; do
    a=$(measure "build/fuzz-bench/$v" "$in"); b=$(measure build/fuzz-bench/empty "$in")
    printf '%-24s %12s %14s %7s%%\n' "$v" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f", 100*a/b}')"
  done
  if command -v afl-fuzz >/dev/null 2>&1 && [ -x build/fuzz-afl/empty ]; then
    echo "bench: AFL++ $(afl-fuzz -h 2>&1 | sed -n 's/.*afl-fuzz++\([0-9.a-z]*\).*/\1/p' | head -n 1) (afl-clang-fast -O2, persistent driver), same input files, ${T}s per measurement (afl-fuzz's own wall-clock rate)"
    printf '%-24s %12s %14s %8s\n' target "execs/s" "empty execs/s" ratio
    for row in $ROWS; do
      t=${row%%:*}
      a=$(measure_afl build/fuzz-afl/$t "$d/$row.in"); b=$(measure_afl build/fuzz-afl/empty "$d/$row.in")
      printf '%-24s %12s %14s %7s%%\n' "$row" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN{ if (b>0) printf "%.0f", 100*a/b; else printf "-" }')"
    done
  fi
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
