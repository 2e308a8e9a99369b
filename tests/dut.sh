#!/usr/bin/env bash
# tests/dut.sh — the implementation-under-test plumbing (conformance/ttdut.h), end to end:
#   1. the suite through the model as a shared object (--dut) and as a process speaking the line
#      protocol (--dut-cmd ttdut-serve) prints exactly what the built-in run prints, and so does
#      the model's own checker (--direct): one checker, one answer;
#   2. every planted defect of model/defects.def, loaded as an implementation with --dut, fails
#      the suite;
#   3. the independent reference interpreter (spec_ref) behind the interface passes what it
#      implements and is not comparable elsewhere (no failure), in both modes, and its cycle
#      mode (fuzz/spec_ref_cycle.c) on its own passes every cycle-mode run it can express;
#   4. bad implementations are reported, not trusted: a missing object, a process that will
#      not start, one that breaks the protocol in the middle of a run.
# usage: tests/dut.sh BUILD_DIR "DEFECT_IDS"     (BUILD_DIR e.g. build/release)
set -u
b=${1:-build/release}
ids=${2:-}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "dut: FAIL: $*"; }
ttconf=$b/ttconf

ref=$("$ttconf" conformance); rc_ref=$?
[ $rc_ref -eq 0 ] && ok || bad "the built-in run failed (status $rc_ref)"
direct=$("$ttconf" --direct conformance)
[ "$direct" = "$ref" ] && ok || bad "--direct (the model's own checker) differs from the interface run"
so=$("$ttconf" --dut "$b/dut/model.so" conformance); rc=$?
[ $rc -eq 0 ] && [ "$(tail -n +2 <<<"$so")" = "$ref" ] && ok || bad "--dut $b/dut/model.so differs (status $rc)"
head -n 1 <<<"$so" | grep -q '^implementation under test: tensix-harness model' && ok || bad "--dut does not name the implementation"
proc=$("$ttconf" --dut-cmd "$b/ttdut-serve" conformance); rc=$?
[ $rc -eq 0 ] && [ "$(tail -n +2 <<<"$proc")" = "$ref" ] && ok || bad "--dut-cmd ttdut-serve differs (status $rc)"
proc=$("$ttconf" --dut-cmd "$b/ttdut-serve --dut $b/dut/model.so" --mode func conformance/selftest/broken 2>&1)
want=$("$ttconf" --mode func conformance/selftest/broken 2>&1)
[ "$(tail -n +2 <<<"$proc")" = "$want" ] && ok || bad "the broken fixtures through ttdut-serve --dut model.so differ"

# 2. planted defects as implementations
# (conformance/tools/not-observable.tsv lists the defects no vector can observe, with the reason
# and the fuzz target that catches each instead: they are reported, not required)
unobservable=$(grep -v '^#' conformance/tools/not-observable.tsv | cut -f1)
caught=0 missed="" skipped=""
for id in $ids; do
  if grep -qx "$id" <<<"$unobservable"; then skipped="$skipped $id"; continue; fi
  out=$("$ttconf" --quiet --dut "build/defect-$id/model.so" conformance 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -qE '^[0-9]+ passed, [1-9][0-9]* failed' <<<"$(tail -n 1 <<<"$out")"; then
    caught=$((caught + 1))
  else missed="$missed $id"; fi
done
n=$(( $(wc -w <<<"$ids") - $(wc -w <<<"$skipped") ))
[ -z "$missed" ] && [ "$caught" -gt 0 ] && ok || bad "planted defects the suite did not catch through --dut:$missed"
echo "dut: planted defects caught through --dut: $caught of $n (not observable by vectors, see not-observable.tsv:$skipped)"

# 3. spec_ref
if [ -f "$b/dut/spec_ref.so" ]; then
  out=$("$ttconf" --brief-nc --dut "$b/dut/spec_ref.so" conformance); rc=$?
  last=$(tail -n 1 <<<"$out")
  if [ $rc -eq 0 ] && grep -qE '^[1-9][0-9]* passed, 0 failed, [1-9][0-9]* not comparable$' <<<"$last"; then ok
  else bad "spec_ref through --dut: status $rc, '$last'"; grep -A3 '^FAIL' <<<"$out" | head -20; fi
  echo "dut: spec_ref (both modes): $last"
  out=$("$ttconf" --mode cycle --brief-nc --dut "$b/dut/spec_ref.so" conformance); rc=$?
  last=$(tail -n 1 <<<"$out")
  if [ $rc -eq 0 ] && grep -qE '^[1-9][0-9]{2,} passed, 0 failed' <<<"$last"; then ok
  else bad "spec_ref cycle mode through --dut: status $rc, '$last'"; grep -A3 '^FAIL' <<<"$out" | head -20; fi
  echo "dut: spec_ref cycle mode: $last ($(grep -A1 '^n/c' <<<"$out" | grep -o 'knob [a-z0-9_]* (not [a-z0-9_]*)' | sort -u | tr '\n' ';'))"
fi

# 4. bad implementations
out=$("$ttconf" --dut /nonexistent/dut.so conformance/init 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q '^/nonexistent/dut.so: cannot load' <<<"$out" && ok || bad "a missing shared object: status $rc, '$out'"
out=$("$ttconf" --dut-cmd "exit 3" conformance/init 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q 'cannot open the implementation' <<<"$out" && ok || bad "a process that exits at once: status $rc"
# answers hello and caps, then dies in the first run: every run fails, none passes
quitter='read l; echo "ok 1"; read l; echo "ok name=quitter modes=func set=gpr,cfg,tcfg get=gpr flags=issued"; while read l; do case $l in run*) exit 0;; *) echo ok;; esac; done'
out=$("$ttconf" --mode func --dut-cmd "$quitter" conformance/init 2>&1); rc=$?
last=$(tail -n 1 <<<"$out")
[ $rc -eq 1 ] && grep -q '^0 passed' <<<"$last" && grep -q 'failed to run the vector' <<<"$out" && ok ||
  bad "a process that dies in a run: status $rc, '$last'"
# a process that stops answering in a run is taken as hung after TTDUT_TIMEOUT seconds
sleeper='read l; echo "ok 1"; read l; echo "ok name=sleeper modes=func set=gpr,cfg,tcfg get=gpr flags=issued"; while read l; do case $l in run*) sleep 20;; get*) echo "ok 0";; *) echo ok;; esac; done'
t0=$(date +%s)
out=$(TTDUT_TIMEOUT=2 "$ttconf" --mode func --dut-cmd "$sleeper" conformance/init 2>&1); rc=$?
took=$(( $(date +%s) - t0 ))
[ $rc -eq 1 ] && grep -q 'taken as hung' <<<"$out" && [ "$took" -lt 15 ] && grep -q '^0 passed, [1-9][0-9]* failed' <<<"$(tail -n 1 <<<"$out")" &&
  ! grep -q '^n/c .*init/01[0-4]' <<<"$out" && ok ||
  bad "a hung process: status $rc after $took s, '$(tail -n 1 <<<"$out")' (after it is gone, every run must fail, none be n/c)"
# nothing compared is not a pass: a vector with a knob value the implementation does not read
# (spec_ref: stallwait_bits_13_14=nonzero, in both modes) is n/c, status 3; the model reads it and passes it.
# Profile p150: the model and spec_ref both take it.
tmpd=$(mktemp -d); printf 'name: p150 only\nprofile: p150\nt0: NOP\nexpect t0 done\n' >"$tmpd/p.vec"
printf 'name: bits 13-14\nknob: stallwait_bits_13_14=nonzero\nt0: NOP\nexpect t0 done\n' >"$tmpd/k.vec"
"$ttconf" --quiet "$tmpd/p.vec" >/dev/null 2>&1 && ok || bad "the model refused profile p150"
"$ttconf" --quiet --dut "$b/dut/spec_ref.so" "$tmpd/p.vec" >/dev/null 2>&1 && ok || bad "spec_ref refused profile p150"
"$ttconf" --quiet "$tmpd/k.vec" >/dev/null 2>&1 && ok || bad "the model refused knob stallwait_bits_13_14=nonzero"
out=$("$ttconf" --dut "$b/dut/spec_ref.so" "$tmpd/k.vec" 2>&1); rc=$?; rm -rf "$tmpd"
[ $rc -eq 3 ] && grep -q 'no vector could be compared' <<<"$out" && grep -q '^0 passed, 0 failed, 2 not comparable$' <<<"$out" && ok ||
  bad "every run not comparable: status $rc, '$(tail -n 1 <<<"$out")'"
# --dut and --dut-cmd together, and a repeated --dut, are usage errors
"$ttconf" --dut a.so --dut-cmd b conformance/init >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--dut with --dut-cmd accepted"
"$ttconf" --dut a.so --dut b.so conformance/init >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--dut twice accepted"

# 5. make bench-dut's driver (fuzz/insn_count.c --dut, --same-as): the model through the interface
# retires what the linked model retires; made the same for itself, no word or program is dropped;
# against a planted defect that changes what issues, more of the streams are cut
ic=$b/insn_count m=$b/dut/model.so
nat=$("$ic" --kernels corpus/kernels/*/ | tail -n 1); via=$("$ic" --dut "$m" --kernels corpus/kernels/*/ | tail -n 1)
[ -n "$nat" ] && [ "$nat" = "$via" ] && ok || bad "insn_count --dut model.so: '$via', linked: '$nat'"
cut_of() { sed -n 's/^insn_count: same streams: dropped \([0-9]*\) words, cut \([0-9]*\), dropped \([0-9]*\) programs$/\1 \2 \3/p'; }
self=$("$ic" --dut "$m" --same-as "$m" --inputs corpus/func_invariants | cut_of)
d=build/defect-WAIT_REPLACES_LATCH/model.so
vs=$("$ic" --dut "$m" --same-as "$m" --same-as "$d" --inputs corpus/func_invariants | cut_of)
set -- $self $vs
[ $# -eq 6 ] && [ "$1" -eq 0 ] && [ "$3" -eq 0 ] && [ "$5" -gt "$2" ] && ok ||
  bad "insn_count --same-as: itself '$self', with WAIT_REPLACES_LATCH '$vs'"

echo "dut: $pass passed, $fail failed"
[ $fail -eq 0 ]
