#!/usr/bin/env bash
# ttrun.sh — end-to-end tests of ttrun (part of `make test`, target ttrun-test).
#   bash tests/ttrun.sh BUILD_DIR JSONCHECK
# For each kernel in corpus/kernels/ (TRISC1+TRISC2, and with TRISC0 where present), in both
# modes: ttrun runs, its --json output is well-formed JSON, its --emit-vec output passes the
# conformance runner as written (ttconf --mode both, i.e. `make conformance VEC=`), and in cycle
# mode its --trace output is valid trace-event JSON whose slices nest on every track.
# Then: the README's example shows the hang; hazards appear in text and JSON alike; bad input
# gives FILE:LINE:COL: message and exit status 1.
set -u
B=${1:-build/asan}
J=${2:-build/release/jsoncheck}
OUT=build/ttrun-test
mkdir -p "$OUT"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for K in corpus/kernels/*/; do
  K=${K%/}
  name=$(basename "$K")
  [ -f "$K/trisc1.txt" ] && [ -f "$K/trisc2.txt" ] || { bad "$name: no trisc1/trisc2"; continue; }
  sets=("12")
  [ -f "$K/trisc0.txt" ] && sets+=("012")
  for set in "${sets[@]}"; do
    args=()
    for t in 0 1 2; do
      case $set in *$t*) args+=(--t$t "$K/trisc$t.txt") ;; esac
    done
    for m in func cycle; do
      base="$OUT/$name.t$set.$m"
      extra=()
      [ $m = cycle ] && extra=(--trace "$base.trace.json")
      if ! "$B/ttrun" --mode $m "${args[@]}" >"$base.txt" 2>"$base.err"; then
        bad "$base: ttrun failed: $(head -3 "$base.err")"; continue
      fi
      grep -q '^outcome: ' "$base.txt" && ok || bad "$base: no outcome line"
      if ! "$B/ttrun" --mode $m "${args[@]}" --json --emit-vec "$base.vec" "${extra[@]}" \
           >"$base.json" 2>"$base.err"; then
        bad "$base: ttrun --json/--emit-vec failed: $(head -3 "$base.err")"; continue
      fi
      "$J" "$base.json" >/dev/null && ok || bad "$base.json: not well-formed JSON"
      res=$("$B/ttconf" --mode both "$base.vec" 2>&1 | tail -n 1)
      [ "$res" = "1 passed, 0 failed" ] && ok || bad "$base.vec: conformance runner says '$res'"
      if [ $m = cycle ]; then
        "$J" --trace "$base.trace.json" >/dev/null && ok || bad "$base.trace.json: not valid trace-event JSON"
      fi
    done
  done
done

# The README's example: the sdpa kernel hangs; the report says where and why.
S=corpus/kernels/sdpa__tenstorrent-docs
"$B/ttrun" --t0 $S/trisc0.txt --t1 $S/trisc1.txt --t2 $S/trisc2.txt >"$OUT/readme.txt" 2>&1
grep -q '^outcome: DEADLOCK' "$OUT/readme.txt" && ok || bad "README example: no deadlock"
grep -q 't2 blocked at line 69 "ttsemwait 1, 2, 1": SEMWAIT sem1 (MATH_PACK) Value==0' "$OUT/readme.txt" && ok ||
  bad "README example: t2's wait reason missing"
grep -q 't1 has one at instruction 31, line 64 "ttsempost 2"' "$OUT/readme.txt" && ok ||
  bad "README example: the releaser of sem1 is not named"

# A .vec as input: the emitted vector runs back to the same outcome; --init lines reach the vector.
for m in func cycle; do
  v="$OUT/sdpa__tenstorrent-docs.t012.$m"
  "$B/ttrun" "$v.vec" >"$v.rerun.txt" 2>&1
  [ "$(grep '^outcome:' "$v.rerun.txt")" = "$(grep '^outcome:' "$v.txt")" ] && ok || bad "$v.vec rerun: outcome differs"
done
"$B/ttrun" --mode cycle --t0 $S/trisc0.txt --t1 $S/trisc1.txt --t2 $S/trisc2.txt --init 'sem[7].max=1' \
  --init 'sem[2].max=1' --init 'mutex[3]=t2' --init 't1.gpr[5]=0x1234' --emit-vec "$OUT/init.vec" >/dev/null
grep -q '^init sem\[7\].max = 0x1$' "$OUT/init.vec" && grep -q '^init mutex\[3\] = t2$' "$OUT/init.vec" && ok ||
  bad "init.vec: init lines missing"
[ "$("$B/ttconf" --mode both "$OUT/init.vec" | tail -n 1)" = "1 passed, 0 failed" ] && ok || bad "init.vec fails the runner"
"$B/ttrun" --mode cycle --budget 40 --t0 $S/trisc0.txt --t1 $S/trisc1.txt --t2 $S/trisc2.txt --emit-vec "$OUT/budget.vec" |
  grep -q '^outcome: BUDGET' && ok || bad "budget run: no BUDGET outcome"
[ "$("$B/ttconf" --mode both "$OUT/budget.vec" | tail -n 1)" = "1 passed, 0 failed" ] && ok || bad "budget.vec fails the runner"

# The mutex index of a held ATGETM is the one the model uses: under field_width=llk (AMB-29)
# 0xA0010002 names mutex 65538 (no such mutex), not the table field's 2.
printf '0xA0010002\n' >"$OUT/mutex.txt"
"$B/ttrun" --knob field_width=llk --t0 "$OUT/mutex.txt" | grep -q 'ATGETM on mutex index 65538, which does not exist' &&
  ok || bad "field_width=llk: the held ATGETM's mutex index is not the model's"
"$B/ttrun" --t0 "$OUT/mutex.txt" | grep -q '^outcome: DONE' && ok || bad "default widths: ATGETM 2 does not complete"

# Hazards appear in the text and in the JSON alike (cycle mode).
A=corpus/kernels/add1__blackhole-py
"$B/ttrun" --mode cycle --t0 $A/trisc0.txt --t1 $A/trisc1.txt --t2 $A/trisc2.txt >"$OUT/haz.txt"
"$B/ttrun" --mode cycle --t0 $A/trisc0.txt --t1 $A/trisc1.txt --t2 $A/trisc2.txt --json >"$OUT/haz.json"
nt=$(sed -n 's/^hazards: \([0-9]*\)$/\1/p' "$OUT/haz.txt")
nj=$(sed -n 's/^  "hazard_count": \([0-9]*\),$/\1/p' "$OUT/haz.json")
[ -n "$nt" ] && [ "$nt" -gt 0 ] && [ "$nt" = "$nj" ] && ok || bad "hazards: text '$nt', JSON '$nj'"
lt=$(grep -c '^  cfg_gap  *t0 instruction 17, line 23' "$OUT/haz.txt")
lj=$(grep -c '"kind": "cfg_gap", "cycle": [0-9]*, "gpr": 0, "at": {"thread": 0, "index": 17, "line": 23' "$OUT/haz.json")
[ "$lt" = 1 ] && [ "$lj" = 1 ] && ok || bad "hazard t0[17] line 23: text $lt, JSON $lj"

# Bad input: FILE:LINE:COL: message, exit status 1, never a crash.
expect_err() {  # FILE LINE:COL [ttrun args...]
  local f=$1 lc=$2
  shift 2
  "$B/ttrun" "$@" >"$OUT/bad.out" 2>"$OUT/bad.err"
  local rc=$?
  [ $rc = 1 ] && grep -q "^$f:$lc: " "$OUT/bad.err" && ok ||
    bad "bad input $f: rc $rc, stderr '$(head -2 "$OUT/bad.err")' (expected $f:$lc:)"
}
printf 'ttsempost 2\nttsemwiat 2\n' >"$OUT/bad1.txt"
expect_err "$OUT/bad1.txt" 2:1 --t0 "$OUT/bad1.txt"
printf '    6494:\tzz12          \tttsemwait\t322,2,2\n' >"$OUT/bad2.txt"
expect_err "$OUT/bad2.txt" 1:11 --t1 "$OUT/bad2.txt"
printf 'ttsemwait 322, 2, 2, 9\n' >"$OUT/bad3.txt"
expect_err "$OUT/bad3.txt" 1:22 --t2 "$OUT/bad3.txt"
printf 'name: x\nt0: ttsempost 2\nexpect t7 done\n' >"$OUT/bad4.vec"
expect_err "$OUT/bad4.vec" 3:8 "$OUT/bad4.vec"
printf 'ttsempost 2\n\001\n' >"$OUT/bad5.txt"
expect_err "$OUT/bad5.txt" 2:1 --t0 "$OUT/bad5.txt"
expect_err "$OUT/does-not-exist.txt" 1:1 --t0 "$OUT/does-not-exist.txt"
head -c 3000 /dev/urandom >"$OUT/bad6.bin" 2>/dev/null
"$B/ttrun" --t0 "$OUT/bad6.bin" >/dev/null 2>"$OUT/bad.err"
rc=$?
[ $rc = 1 ] || [ $rc = 0 ] && ok || bad "random bytes: exit status $rc"
"$B/ttrun" --mode nonsense --t0 "$OUT/bad1.txt" >/dev/null 2>&1
[ $? = 2 ] && ok || bad "bad command line: exit status not 2"

# ttasm --explain: one instruction in words
X=$B/ttasm
"$X" --explain "ttsemwait 322, 2, 2" >"$OUT/explain.txt" 2>&1
for want in 'unit: Sync Unit — SEMWAIT, opcode 0xA6' 'STALL_SYNC|STALL_MATH|STALL_SFPU' \
            'sem_mask         \[ 9: 2\] = 2 (0x2): sem1 (MATH_PACK)' 'Value>=Max (STALL_ON_MAX)' \
            'caught at the Wait Gate by: any latched block mask'; do
  grep -q "$want" "$OUT/explain.txt" && ok || bad "ttasm --explain: no '$want'"
done
"$X" --explain 0xA2000000 >"$OUT/explain2.txt" 2>&1
grep -q '0 is replaced by B6 STALL_MATH' "$OUT/explain2.txt" && grep -q '0 is replaced by 0x0F' "$OUT/explain2.txt" &&
  ok || bad "ttasm --explain: default substitutions of STALLWAIT 0, 0 not named"
"$X" --explain "ttwrcfg 18, 0, 185" | grep -q 'RISCV_IC_INVALIDATE_InvalidateAll.*global word' && ok ||
  bad "ttasm --explain: Config index name"
"$X" --explain "ttbogus 1" >/dev/null 2>&1
[ $? = 1 ] && ok || bad "ttasm --explain: bad text not refused"

echo "ttrun tests: $pass passed, $fail failed"
[ $fail = 0 ]
