#!/bin/bash
# coverage-fixed.sh — fixed-seed coverage of every fuzz target, as a markdown table on stdout
# (`make coverage-fixed`). For each target: one libFuzzer process (no -jobs, no -fork) of the
# campaign build (build/fuzz-lf/T: ASan+UBSan, the campaign's flags -max_len=4096 -timeout=10
# and dictionary) with -seed=COV_SEED -runs=COV_RUNS -reload=0, address randomisation off
# (setarch -R), from an empty output corpus plus the committed corpus/T (read only). Nothing
# depends on the clock, so the same tree gives the same figures however loaded the machine is.
#
#   COV_RUNS=N     executions per target, the committed corpus's included (default 20000)
#   COV_SEED=S     libFuzzer -seed (default 1)
#   COV_TARGETS=   targets (default: every one of the Makefile's FUZZ_TARGETS_ALL)
#   COV_TREE=REV   measure the tree at REV instead of this one: `git archive REV` is unpacked
#                  into build/cov-fixed/tree-REV and built there with its own Makefile, the same
#                  way; run it once with COV_TREE=<old> and once without for a before/after
#
# Columns:
#   cov, ft   libFuzzer's last status line: edges (instrumented basic-block transitions) and
#             features (edges with hit-count buckets, comparison features) covered. They count
#             the build's instrumentation, so they move whenever code changes shape (a function
#             split into steps adds edges; a file left out of the instrumentation removes them).
#   corpus    inputs in the output corpus afterwards (committed ones that add coverage included).
#   cells     program targets: non-empty cells of the harness's form x outcome matrix
#             (`T --matrix`, fuzz/driver.c: per instruction form, how often a thread's head
#             instruction retired, faulted per class, was held by a latch or mutex, or retried)
#             over the committed corpus plus the new inputs; `forms` the forms with any cell.
#             What the model did, not how its code is laid out. `-` for the byte targets.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${COV_RUNS:-20000}; SEED=${COV_SEED:-1}
TARGETS=${COV_TARGETS:-$(sed -n 's/^FUZZ_TARGETS_ALL := //p' "$ROOT/Makefile")}
PROG=" $(sed -n 's/^FUZZ_PROG := //p' "$ROOT/Makefile") "
OUT=$ROOT/build/cov-fixed
TREE=$ROOT; label=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo tree)
if [ -n "${COV_TREE:-}" ]; then
  rev=$(git -C "$ROOT" rev-parse --short "$COV_TREE^{commit}") || { echo "coverage-fixed: no commit $COV_TREE" >&2; exit 2; }
  label=$rev; TREE=$OUT/tree-$rev
  if [ ! -f "$TREE/Makefile" ]; then
    mkdir -p "$TREE" && git -C "$ROOT" archive "$rev" | tar -x -C "$TREE" || exit 2
  fi
else
  [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && label="$label+changes"
fi
bins=""
for t in $TARGETS; do
  bins="$bins build/fuzz-lf/$t"
  case $PROG in *" $t "*) bins="$bins build/fuzz-tool/$t" ;; esac
done
# Same inputs, same figures: without address randomisation (libFuzzer's table of recent
# comparisons is indexed by the comparing instruction's address, so a moved binary makes other
# dictionary entries collide and the mutations differ) and without -reload (time-driven).
NOASLR=""; setarch "$(uname -m)" -R true 2>/dev/null && NOASLR="setarch $(uname -m) -R"
[ -z "$NOASLR" ] && echo "coverage-fixed: setarch -R unavailable: addresses are randomised, figures may vary" >&2
echo "coverage-fixed: building in $TREE" >&2
nice -n 10 make -C "$TREE" -j2 --no-print-directory $bins build/fuzz/program.dict build/fuzz/text.dict >&2 ||
  { echo "coverage-fixed: build failed" >&2; exit 1; }

echo "Fixed-seed coverage of tree \`$label\`: libFuzzer -seed=$SEED -runs=$RUNS, one process, build/fuzz-lf (ASan+UBSan), from corpus/T"
echo
echo "| target | cov (edges) | ft (features) | corpus | form×outcome cells | forms |"
echo "|---|---:|---:|---:|---:|---:|"
for t in $TARGETS; do
  d=$OUT/$label/$t; rm -rf "$d"; mkdir -p "$d/corpus"
  case $t in text_parsers) dict=build/fuzz/text.dict ;; *) dict=build/fuzz/program.dict ;; esac
  (cd "$TREE" && nice -n 10 $NOASLR build/fuzz-lf/$t -seed="$SEED" -runs="$RUNS" -max_len=4096 \
     -timeout=10 -rss_limit_mb=2048 -reload=0 -dict="$dict" -artifact_prefix="$d/" "$d/corpus" \
     "corpus/$t" >"$d/log.txt" 2>&1)
  rc=$?
  # "#20000	DONE   cov: 2105 ft: 9876 corp: 612/401Kb lim: 4096 exec/s: ..." (or the last status
  # line before a finding stopped the process)
  last=$(grep -E '^#[0-9]+' "$d/log.txt" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  [ $rc -ne 0 ] && cov="$cov (stopped: status $rc, $d/log.txt)"
  corp=$(find "$d/corpus" -type f | wc -l)
  cells=-; forms=-
  case $PROG in *" $t "*)
    (cd "$TREE" && build/fuzz-tool/$t --matrix "corpus/$t" "$d/corpus") >"$d/matrix.md" 2>/dev/null
    cells=$(awk -F'|' '/^\|/ && !/^\| form \|/ && !/^\|---/ { for (i = 3; i < NF; i++) if ($i !~ /·/) n++ } END { print n + 0 }' "$d/matrix.md")
    forms=$(awk -F'|' '/^\|/ && !/^\| form \|/ && !/^\|---/ { for (i = 3; i < NF; i++) if ($i !~ /·/) { n++; break } } END { print n + 0 }' "$d/matrix.md")
  ;; esac
  echo "| $t | ${cov:-?} | ${ft:-?} | $corp | $cells | $forms |"
done
