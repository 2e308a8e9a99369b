# bench_lib.sh — sourced by bench.sh (`make bench`) and profile.sh (`make profile`): the fixed
# input files and the one command line each engine is measured with, so that the two measure
# the same runs. BENCH_WRAP (optional) is a command prefix run in front of the engine
# (profile.sh: `perf record ... --`). POSIX sh: bench.sh runs under sh.

# bench_make_inputs ROW FILE COUNT MAX_PER_THREAD: write ROW's fixed inputs (a target, or
# target:full for random programs of exactly MAX_PER_THREAD instructions per thread) to FILE;
# prints the generator's summary ("4000, 7.5 instructions per input on average"), if any.
bench_make_inputs() {
  local t=${1%%:*} how=--bench-inputs
  case $1 in *:full) how=--bench-inputs-full ;; esac
  build/fuzz-tool/$t $how "$3" "$4" "$2" corpus/$t 2>&1 | sed -n 's/^bench inputs: //p'
}

# bench_lf "BINARY [ARGS]" INPUTS SECONDS: libFuzzer fed INPUTS by the bench feeder
# (fuzz/bench_feed.c); prints the feeder's `bench: N execs in S s` line (S: CPU time).
bench_lf() {
  FZ_BENCH_INPUTS=$2 $BENCH_WRAP $1 -max_total_time="$3" -len_control=0 -max_len=16384 -seed=1 \
    -timeout=30 -rss_limit_mb=4096 2>&1 | grep '^bench: ' || true
}

# bench_afl BINARY INPUTS SECONDS DIR: afl-fuzz in persistent mode with the AFL++ bench feeder
# as its only mutator (fuzz/afl_bench_feed.c), output in DIR (emptied first; its log in
# DIR.log); prints execs_done and run_time from its fuzzer_stats ("0 0" when it did not run).
bench_afl() {
  rm -rf "$4" "$4.seed"; mkdir -p "$4.seed"; head -c 64 /dev/zero >"$4.seed/zero"
  FZ_BENCH_INPUTS=$2 AFL_CUSTOM_MUTATOR_LIBRARY=build/fuzz-tool/afl-bench-feed.so AFL_CUSTOM_MUTATOR_ONLY=1 \
    AFL_DISABLE_TRIM=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
    $BENCH_WRAP afl-fuzz -i "$4.seed" -o "$4" -V "$3" -m none -t 5000 -- "$1" >"$4.log" 2>&1 || true
  awk -F' *: *' '$1=="execs_done"{e=$2} $1=="run_time"{t=$2} END{ printf "%d %d\n", e, t }' \
    "$4/default/fuzzer_stats" 2>/dev/null || echo "0 0"
}
