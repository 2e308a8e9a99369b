#!/usr/bin/env bash
# tests/dut_fire.sh — dut_diff finds planted defects of an implementation under test: for each
# ID:INVARIANT pair, the model with defect ID (build/defect-ID/model.so) is the implementation;
# dut_diff (build/fuzz-tool/dut_diff --fire) runs the seeds, then up to RUNS structured
# mutations with a fixed seed, and must report INVARIANT; the finding is minimised into a .vec
# that passes on the model (ttconf) and fails on the implementation (ttconf --dut).
# ID may also be knob/NAME=VALUE: the model itself as the implementation, opened with that knob
# value as its own reading (build/release/dut/model.so, TTDUT_ARGS): a divergence one model knob
# value reproduces, which dut_diff must report as dut_amb with the ambiguity's id.
# usage: tests/dut_fire.sh RUNS ID:INVARIANT...
set -u
runs=$1; shift
out=build/dut-fire
mkdir -p "$out"
pass=0 fail=0
for pair in "$@"; do
  id=${pair%%:*} inv=${pair#*:} args=""
  so=build/defect-$id/model.so
  case $id in knob/*) args=${id#knob/}; so=build/release/dut/model.so; id=knob-${args%%=*} ;; esac
  export TTDUT_ARGS=$args
  rm -f "$out/$id.in" "$out/$id.vec"
  if ! TTDUT=$so build/fuzz-tool/dut_diff --fire "$inv" --runs "$runs" --save "$out/$id.in" fuzz/seeds \
       >"$out/$id.log" 2>&1; then
    echo "dut-fire: FAIL: $id: dut_diff did not report $inv within $runs mutations"; fail=$((fail + 1)); continue
  fi
  how=$(grep '^fire' "$out/$id.log" | sed 's/^fire dut_diff: //')
  if [ "$inv" = dut_amb ]; then   # the message must name the ambiguity
    amb=$(TTDUT=$so build/fuzz-tool/dut_diff "$out/$id.in" 2>&1 | grep -o 'explained by AMB-[0-9]*: the model with knob [^ ]*' | head -n 1)
    if [ -z "$amb" ]; then echo "dut-fire: FAIL: $id: dut_amb without an AMB id"; fail=$((fail + 1)); continue; fi
    how="$how; $amb"
  fi
  if ! TTDUT=$so build/fuzz-tool/dut_diff --minimize "$out/$id.in" "$out/$id.vec" >"$out/$id.min" 2>&1; then
    echo "dut-fire: FAIL: $id: the finding could not be minimised: $(tail -n 1 "$out/$id.min")"; fail=$((fail + 1)); continue
  fi
  kind=$(grep -E '^dut_[a-z]+\s' "$out/$id.min" | cut -f2)
  if [ "$kind" = conformance ]; then
    if build/release/ttconf --quiet "$out/$id.vec" >/dev/null 2>&1 && \
       ! build/release/ttconf --quiet --dut "$so" ${args:+--dut-args "$args"} "$out/$id.vec" >/dev/null 2>&1; then
      pass=$((pass + 1))
      echo "dut-fire: $id: $how; reproducer $(grep -c '^t[0-2]:' "$out/$id.vec") instruction(s), passes on the model, fails on the implementation"
    else
      echo "dut-fire: FAIL: $id: the reproducer $out/$id.vec does not pass on the model and fail on the implementation"
      fail=$((fail + 1))
    fi
  else
    pass=$((pass + 1))
    echo "dut-fire: $id: $how; reproducer replay-only ($(sed -n 's/^#   //p' "$out/$id.vec" | head -n 1))"
  fi
done
echo "dut-fire: $pass of $((pass + fail)) planted defects found and reproduced"
[ $fail -eq 0 ]
