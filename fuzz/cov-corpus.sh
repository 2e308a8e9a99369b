#!/bin/sh
# cov-corpus.sh TARGET DIR... — coverage of model/ reached by the inputs in DIR: every file is
# replayed through the llvm-cov build (build/cov/TARGET, replay mode: deep checks, cycle mode
# too) and llvm-cov's TOTAL line for model/*.c is printed (regions, functions, lines,
# branches: covered/total). Used to compare campaigns (fuzz/benchmarks.md "Where the time goes"):
# libFuzzer's own `cov:` counts instrumented edges, so it moves whenever instrumentation is
# added or removed; this measure does not depend on how the campaign build was instrumented.
set -eu
t=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
LLVM_PROFILE_FILE="$tmp/%p.profraw" build/cov/$t "$@" >"$tmp/replay.txt" 2>&1 || true
llvm-profdata-14 merge -sparse "$tmp"/*.profraw -o "$tmp/all.profdata"
llvm-cov-14 report -instr-profile="$tmp/all.profdata" build/cov/$t model/*.c model/text/*.c 2>/dev/null |
  awk '$1=="TOTAL" { printf "regions %d/%d  functions %d/%d  lines %d/%d  branches %d/%d\n",
       $2-$3, $2, $5-$6, $5, $8-$9, $8, $11-$12, $11 }'
