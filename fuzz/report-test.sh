#!/bin/bash
# report-test.sh — `make fuzz-report-test` (called by .ci/run): reports/fuzz.md's figures are
# right across a resumed campaign, and a run that fuzzed nothing is flagged.
#   1. decode_roundtrip, both engines, 6 s; then the same campaign resumed for 6 s more;
#   2. text_parsers with the harness-level planted defect (build/fuzz-plant: aborts on a seed),
#      libFuzzer only: a session that aborts before fuzzing; triaged (origin: seed);
#   3. the report (REPORT_OUT in the scratch dir, coverage sections left out) must show:
#      AFL++ executions = AFL++'s own final execs_done (not the sum of its cumulative figures),
#      libFuzzer executions = the sum of every process's stat::number_of_executed_units,
#      saturation columns filled, a warning row for the aborted session, the finding's origin.
set -u
O=build/fuzz-report-test
R=$O/report/fuzz.md
rm -rf "$O"; mkdir -p "$O"
fail=0
bad() { echo "fuzz-report-test: FAIL $*"; fail=1; }
afl=0; command -v afl-fuzz >/dev/null 2>&1 && [ -x build/fuzz-afl/decode_roundtrip ] && afl=1
eng=libfuzzer; [ $afl = 1 ] && eng=both
for k in 1 2; do
  FUZZ_TIME=6 JOBS=2 ENGINE=$eng FUZZ_OUT=$O bash fuzz/campaign.sh decode_roundtrip >"$O/campaign$k.log" 2>&1 ||
    bad "campaign $k failed: $(tail -n 3 "$O/campaign$k.log")"
done
LF_BIN_DIR=build/fuzz-plant FUZZ_TIME=4 JOBS=1 ENGINE=libfuzzer FUZZ_OUT=$O \
  bash fuzz/campaign.sh text_parsers >"$O/campaign3.log" 2>&1
FUZZ_OUT=$O TRIAGE_REPLAY=build/fuzz-plant REPRO_DIR=$O/repro PENDING_DIR=$O/pending \
  sh fuzz/triage.sh text_parsers >"$O/triage.log" 2>&1
FUZZ_OUT=$O REPORT_OUT=$R REPORT_NO_COV=1 bash fuzz/report.sh >"$O/report.log" 2>&1 || bad "report.sh failed: $(cat "$O/report.log")"
[ -f "$R" ] || { echo "fuzz-report-test: FAIL no report"; exit 1; }
row() { grep "^| $1 | $2 | " "$R"; }
col() { awk -F' *[|] *' -v c="$1" '{ print $(c + 1) }'; }   # 1-based column of a table row

# libFuzzer: the sum of every process's own count
lf_want=$(cat "$O"/decode_roundtrip/libfuzzer/log-*.txt | sed -n 's/.*stat::number_of_executed_units: *//p' | awk '{ s += $1 } END { print s + 0 }')
lf_row=$(row decode_roundtrip libfuzzer)
[ "$(col 3 <<<"$lf_row")" = 2 ] || bad "libFuzzer: wanted 2 sessions: $lf_row"
lf_got=$(col 5 <<<"$lf_row")
if [ "$lf_got" = "$lf_want" ] && [ "$lf_want" -gt 0 ]; then echo "fuzz-report-test: ok   libFuzzer executions over 2 sessions: $lf_got = the processes' own counts added up"
else bad "libFuzzer executions $lf_got, the processes counted $lf_want"; fi
[[ "$(col 9 <<<"$lf_row")" =~ ^[0-9]+$ ]] && [ "$(col 9 <<<"$lf_row")" -gt 0 ] || bad "libFuzzer ft: column empty: $lf_row"
[[ "$(col 10 <<<"$lf_row")" =~ ^(never\ \()?[0-9]+\ s\)?$ ]] || bad "libFuzzer 'since last new' column: $lf_row"

if [ $afl = 1 ]; then
  afl_final=$(awk -F' *: *' '$1=="execs_done"{ s += $2 } END { print s + 0 }' "$O"/decode_roundtrip/afl/*/fuzzer_stats)
  afl_naive=$(awk -F'\t' 'NR>1 && $3=="afl" && $2=="decode_roundtrip" { s += $15 } END { print s + 0 }' "$O/sessions.tsv")
  afl_row=$(row decode_roundtrip afl)
  afl_got=$(col 5 <<<"$afl_row")
  if [ "$afl_got" = "$afl_final" ] && [ "$afl_got" -lt "$afl_naive" ]; then
    echo "fuzz-report-test: ok   AFL++ executions over a resumed campaign: $afl_got = AFL++'s own execs_done (summing its cumulative figures would give $afl_naive)"
  else bad "AFL++ executions $afl_got; AFL++ says $afl_final; cumulative sum $afl_naive"; fi
  [[ "$(col 11 <<<"$afl_row")" =~ ^[0-9]+$ ]] && [[ "$(col 12 <<<"$afl_row")" =~ ^[0-9]+$ ]] ||
    bad "AFL++ cycles / pending favs columns: $afl_row"
  [[ "$(col 10 <<<"$afl_row")" =~ ^(never\ \()?[0-9]+\ s\)?$ ]] || bad "AFL++ 'since last new' column: $afl_row"
fi

# the aborted session has a warning row; the healthy ones do not
w=$(sed -n '/^### Warnings/,/^## /p' "$R")
if grep -q '| text_parsers | libfuzzer | .*aborted on a seed' <<<"$w"; then echo "fuzz-report-test: ok   the session that aborted on a seed has a warning row"
else bad "no warning row for the aborted text_parsers session: $w"; fi
if grep -q '| decode_roundtrip |' <<<"$w"; then bad "a healthy session has a warning row: $w"; fi
# the finding says it came from a seed
f=$(grep '^| text_parsers | SANITIZER' "$R")
case $f in *"| seed corpus/text_parsers/"*) echo "fuzz-report-test: ok   the finding is attributed to its seed" ;;
  *) bad "finding row without a seed origin: '$f' ($(cat "$O/triage.log"))" ;; esac
echo "fuzz-report-test: $( [ $fail = 0 ] && echo ok || echo FAILED ): report from $O in $R"
exit $fail
