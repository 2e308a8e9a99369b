#!/bin/sh
# bench.sh — `make bench`: for each target, its execs/s under the real libFuzzer loop and the
# ratio to the empty target (fuzz/empty.c) fed exactly the same inputs (fuzz/bench_feed.c
# replaces the mutator by a feeder of a fixed input file), measured back to back in this run;
# then the cost of a reset. Program inputs: seeds mutated by the structured mutator, capped at
# BENCH_MAX_PER_THREAD (64) instructions per thread. BENCH_TIME seconds per measurement.
set -eu
T=${BENCH_TIME:-5}; MAXPT=${BENCH_MAX_PER_THREAD:-64}; N=${BENCH_INPUTS:-4000}
d=build/fuzz/bench
mkdir -p "$d"
res=build/fuzz/bench.txt
measure() {  # binary inputs -> execs/s
  FZ_BENCH_INPUTS=$2 $1 -max_total_time="$T" -len_control=0 -max_len=16384 -seed=1 \
    -timeout=30 -rss_limit_mb=4096 2>&1 | sed -n 's/^bench: \([0-9]*\) execs in \([0-9.]*\) s$/\1 \2/p' |
    awk '{ printf "%.0f", $1 / $2 }'
}
{
  echo "bench: libFuzzer loop (-O2, no sanitizer), ${T}s per measurement, $(nproc) CPU(s), $(date -u +%FT%TZ)"
  printf '%-20s %14s %14s %8s  %s\n' target "execs/s" "empty execs/s" ratio inputs
  for t in func_invariants reset_equivalence decode_roundtrip text_parsers; do
    note=$(build/fuzz-tool/$t --bench-inputs "$N" "$MAXPT" "$d/$t.in" corpus/$t 2>&1 | sed -n 's/^bench inputs: //p')
    a=$(measure build/fuzz-bench/$t "$d/$t.in")
    b=$(measure build/fuzz-bench/empty "$d/$t.in")
    case $t in
      func_invariants|reset_equivalence) desc="$N programs, <= $MAXPT instructions/thread ($note)" ;;
      decode_roundtrip) desc="$N inputs of 1..64 words" ;;
      *) desc="the $(ls corpus/text_parsers | wc -l) text seeds" ;;
    esac
    printf '%-20s %14s %14s %7s%%  %s\n' "$t" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.0f", 100*a/b}')" "$desc"
  done
  build/fuzz-bench/reset_cost
} | tee "$res"
