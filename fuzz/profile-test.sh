#!/bin/bash
# profile-test.sh — (make test) fuzz/profile.sh's sorting of samples into categories, on a saved
# report: every category receives exactly its samples, and the row's figures follow from them.
# No perf needed. At PROFILE_FREQ=1000 Hz and 1000 executions one sample is 1 us per execution,
# so each category's column must equal its sample count.
set -eu
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'tt_decode\t/src/model/isa.c\ncheck_run\t/src/fuzz/func_invariants.c\nLLVMFuzzerCustomMutator\t/src/fuzz/bench_feed.c\n' >"$tmp/syms"
cat >"$tmp/report" <<'R'
# a comment line is skipped
 100        |t       |t                  |[.] tt_decode
  50        |t       |t                  |[.] check_run
  30        |t       |t                  |[.] __sanitizer_cov_trace_cmp4
  20        |t       |t                  |[.] __asan_report_load4
  40        |t       |t                  |[.] fuzzer::InputCorpus::UpdateFeatureFrequency
  10        |t       |libm.so.6          |[.] __ieee754_log_fma
   2        |t       |t                  |[.] LLVMFuzzerCustomMutator
   4        |t       |[vdso]             |[.] __vdso_clock_gettime
   8        |afl-fuzz|afl-fuzz           |[.] has_new_bits
   5        |t       |libc.so.6          |[.] __memset_avx512_unaligned_erms
   7        |t       |[kernel.kallsyms]  |[k] finish_task_switch.isra.0
   6        |afl-fuzz|[kernel.kallsyms]  |[k] do_syscall_64
   3        |t       |t                  |[.] mystery
R
got=$(PROFILE_FREQ=1000 bash fuzz/profile.sh --classify "x  build" 1000 "$tmp/syms" "$tmp/report")
# total 285 samples = 0.285 s of CPU for 1000 executions: 3509 execs/s, 285 us each;
# model 100, harness 50, cmp-trace 30, sanitizer 20, engine 40+10+2+4+8 = 64, libc 5,
# kernel 7+6 = 13, other 3
want='x  build                                      3509   285.00   100.00    50.00    30.00    20.00    64.00     5.00    13.00     3.00'
row=$(printf '%s\n' "$got" | head -n 1)
if [ "$row" != "$want" ]; then
  echo "profile-test: FAIL: the row"; echo "  got:  $row"; echo "  want: $want"; exit 1
fi
top=$(printf '%s\n' "$got" | sed -n 2p | sed 's/^ *//')
if [ "$top" != "35.1% model:tt_decode" ]; then echo "profile-test: FAIL: hottest symbol: $top"; exit 1; fi
none=$(PROFILE_FREQ=1000 bash fuzz/profile.sh --classify "y" 0 "$tmp/syms" "$tmp/report")
case $none in *"no samples or no executions"*) ;; *) echo "profile-test: FAIL: zero executions gave: $none"; exit 1 ;; esac
echo "profile-test: samples sorted into the eight categories as expected (13 report lines, 285 samples)"
