#!/usr/bin/env bash
# dut_python.sh — an implementation under test written in Python joins through the line protocol
# (conformance/dut/example_dut.py behind `ttconf --dut-cmd`), and the runner tells right from wrong:
#   1. the suite in functional mode through the example: exit status 0, and the summary line
#      reports >= 1 passed, 0 failed and >= 1 not comparable (what it cannot do is not comparable,
#      never failed);
#   2. the same with EXAMPLE_DUT_BREAK=1 (its SETDMAREG writes value + 1): exit status 1 and
#      >= 1 failed — the passes of step 1 are not vacuous;
#   3. conformance/dut/mesham-tt-sim/tt_sim_dut.py parses, and without a checkout of tt-sim it
#      stops with its usage line (status 2).
# usage: bash tests/dut_python.sh [BUILD_DIR]     (default build/release; run from anywhere)
# Skipped (status 0, "skipped: python3 not found") when there is no python3. Last line: one summary.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${1:-build/release}
PY=${PYTHON:-python3}
DUT="$PY conformance/dut/example_dut.py"
TIMEOUT=$(command -v timeout >/dev/null 2>&1 && echo "timeout 600" || echo "")
problems=0
bad() { echo "dut_python: FAIL: $*"; problems=$((problems + 1)); }

if ! command -v "$PY" >/dev/null 2>&1; then
  echo "dut_python: skipped: $PY not found"
  exit 0
fi
if [ ! -x "$B/ttconf" ]; then
  echo "dut_python: FAIL: $B/ttconf is not built (make $B/ttconf)"
  exit 1
fi

# summary line "N passed, N failed[, N skipped][, N not comparable]" -> "PASSED FAILED NC"
counts() {
  sed -nE 's/^([0-9]+) passed, ([0-9]+) failed(, [0-9]+ skipped)?(, ([0-9]+) not comparable)?$/\1 \2 \5/p' <<<"$1"
}

# 1. the example as written
out=$($TIMEOUT "$B/ttconf" --mode func --brief-nc --dut-cmd "$DUT" conformance 2>&1); rc=$?
good=$(tail -n 1 <<<"$out")
read -r p f nc <<<"$(counts "$good")"
if [ $rc -ne 0 ]; then bad "example: status $rc (want 0): '$good'"; grep -A3 '^FAIL' <<<"$out" | head -20; fi
if [ -z "${p:-}" ]; then bad "example: no summary line (last line '$good')"
else
  [ "$p" -ge 1 ] || bad "example: nothing passed: '$good'"
  [ "$f" -eq 0 ] || bad "example: failures: '$good'"
  [ "${nc:-0}" -ge 1 ] || bad "example: nothing was reported not comparable: '$good'"
fi
grep -q '^ok   conformance/scalar/001_setdmareg_imm_low_half.vec  func' <<<"$out" ||
  bad "example: conformance/scalar/001_setdmareg_imm_low_half.vec did not pass"

# 2. the planted bug must be caught
out=$(EXAMPLE_DUT_BREAK=1 $TIMEOUT "$B/ttconf" --mode func --brief-nc --dut-cmd "$DUT" conformance 2>&1); rc=$?
broken=$(tail -n 1 <<<"$out")
read -r p f nc <<<"$(counts "$broken")"
[ $rc -eq 1 ] || bad "EXAMPLE_DUT_BREAK=1: status $rc (want 1): '$broken'"
[ "${f:-0}" -ge 1 ] || bad "EXAMPLE_DUT_BREAK=1: nothing failed: '$broken'"

# 3. the mesham/tt-sim adapter (its suite run needs a checkout: make dut-tt-sim-test TT_SIM=DIR):
# it parses, and without a checkout it stops with its usage line and status 2
TTS=conformance/dut/mesham-tt-sim/tt_sim_dut.py
"$PY" -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$TTS" || bad "$TTS does not parse"
msg=$("$PY" "$TTS" /nonexistent </dev/null 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q '^usage: tt_sim_dut.py' <<<"$msg" || bad "$TTS without a checkout: status $rc, '$msg'"

if [ $problems -eq 0 ]; then
  echo "dut_python: PASS (example: $good; with EXAMPLE_DUT_BREAK=1: $broken)"
else
  echo "dut_python: FAIL ($problems problem(s); example: $good; with EXAMPLE_DUT_BREAK=1: $broken)"
fi
[ $problems -eq 0 ]
