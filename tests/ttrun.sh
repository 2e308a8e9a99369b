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
      "$J" --ttrun "$base.json" >/dev/null && ok || bad "$base.json: not a ttrun document as tools/ttrun-json.md describes"
      res=$("$B/ttconf" --mode both "$base.vec" 2>&1 | tail -n 1)
      [ "$res" = "1 passed, 0 failed" ] && ok || bad "$base.vec: conformance runner says '$res'"
      # The vector catches regressions (issue 23 item 5): it is strict and says how far every
      # thread got; a SEMINIT planted before any thread's first instruction fails it, and so does
      # a changed location that no expect line names any more.
      grep -q '^strict' "$base.vec" && ok || bad "$base.vec: no 'strict'"
      for t in 0 1 2; do
        case $set in *$t*) ;; *) continue ;; esac
        grep -q "^expect t$t\.issued = [0-9]*\$" "$base.vec" && ok || bad "$base.vec: no 'expect t$t.issued = K'"
        awk -v p="t$t:" 'index($0, p) == 1 && !d { print p " 0xA3100200   # planted: SEMINIT sem7 max 1"; d = 1 } { print }' \
          "$base.vec" >"$base.plant$t.vec"
        "$B/ttconf" --mode both "$base.plant$t.vec" >"$base.plant$t.out" 2>&1
        rc=$?
        [ $rc = 1 ] && ok || bad "$base.vec: a SEMINIT planted before t$t's first instruction still passes (ttconf status $rc)"
      done
      n=$(grep -n '^expect [^ ]* = ' "$base.vec" | grep -v -e '\.issued = ' -e '\.issue\[' -e '\.hazard\[' \
          -e 'expect cycles' -e 'expect hazards' | tail -n 1 | cut -d: -f1)
      if [ -n "$n" ]; then
        sed "${n}d" "$base.vec" >"$base.unnamed.vec"
        "$B/ttconf" --mode both "$base.unnamed.vec" >"$base.unnamed.out" 2>&1
        rc=$?
        [ $rc = 1 ] && ok || bad "$base.vec: without its line $n (a changed location) it still passes (ttconf status $rc)"
      fi
      if [ $m = cycle ]; then
        "$J" --trace "$base.trace.json" >/dev/null && ok || bad "$base.trace.json: not valid trace-event JSON"
      fi
    done
  done
done

# The README's example: the sdpa kernel hangs; the report says where and why.
S=corpus/kernels/sdpa__tenstorrent-docs
K3=(--t0 $S/trisc0.txt --t1 $S/trisc1.txt --t2 $S/trisc2.txt)
"$B/ttrun" --t0 $S/trisc0.txt --t1 $S/trisc1.txt --t2 $S/trisc2.txt >"$OUT/readme.txt" 2>&1
grep -q '^outcome: DEADLOCK' "$OUT/readme.txt" && ok || bad "README example: no deadlock"
grep -q 't2 blocked at line 69 "ttsemwait 1, 2, 1": SEMWAIT sem1 (MATH_PACK) Value==0' "$OUT/readme.txt" && ok ||
  bad "README example: t2's wait reason missing"
grep -q 't1 has one at instruction 32, line 64 "ttsempost 2"' "$OUT/readme.txt" && ok ||
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

# Hazards appear in the text and in the JSON alike (cycle mode), each with its producer; cfg_gap
# follows the refined rule (issue 23 item 3): add1's two cfg_gap on SETADCXX are dismissed (the
# SETADCXX page: it reads no Config), layernorm's MOVD2B after an RMWCIB3 of Config word 1 stays.
A=corpus/kernels/add1__blackhole-py
"$B/ttrun" --mode cycle --t0 $A/trisc0.txt --t1 $A/trisc1.txt --t2 $A/trisc2.txt >"$OUT/haz.txt"
"$B/ttrun" --mode cycle --t0 $A/trisc0.txt --t1 $A/trisc1.txt --t2 $A/trisc2.txt --json >"$OUT/haz.json"
grep -q '^hazards: 0 (the model reported 2; 2 cfg_gap dismissed' "$OUT/haz.txt" && ok || bad "add1: hazards line '$(grep '^hazards' "$OUT/haz.txt")'"
grep -q '^  "hazard_count": 0,$' "$OUT/haz.json" && grep -q '^  "model_hazard_count": 2,$' "$OUT/haz.json" && ok ||
  bad "add1: JSON hazard counts"
lt=$(grep -c '^  cfg_gap  *t0 instruction 17, line 23 "SETADCXX 0x5E23FC00", cycle [0-9]*: issues the cycle after instruction 16, line 22 "ttrmwcib1 1, 0, 72" writing Config word 72; SETADCXX.md' "$OUT/haz.txt")
lj=$(grep -c '"kind": "cfg_gap", "reported": false, "cycle": [0-9]*, "gpr": 0, "at": {"thread": 0, "index": 17, "line": 23.*"producer": {"thread": 0, "index": 16, "line": 22' "$OUT/haz.json")
[ "$lt" = 1 ] && [ "$lj" = 1 ] && ok || bad "hazard t0[17] line 23 with its producer: text $lt, JSON $lj"
L=corpus/kernels/layernorm__tenstorrent-docs
"$B/ttrun" --mode cycle --t0 $L/trisc0.txt --t1 $L/trisc1.txt --t2 $L/trisc2.txt >"$OUT/hazl.txt"
[ "$(grep -c '^  cfg_gap  *t1 instruction [0-9]*, line [0-9]* "MOVD2B 0x0A200000", cycle [0-9]*: issues the cycle after instruction [0-9]*, line [0-9]* "ttrmwcib3 32, 0, 1" writing Config word 1; MOVD2B.md' "$OUT/hazl.txt")" = 4 ] &&
  grep -q '^hazards: 4 (the model reported 16' "$OUT/hazl.txt" && ok || bad "layernorm: the 4 MOVD2B cfg_gap are not the ones reported"
printf 'ttrdcfg 5, 20\nttadddmareg 0, 6, 5, 5\n' >"$OUT/gpr.txt"
"$B/ttrun" --mode cycle --init 'cfg[0][20]=0x1234' --init 't0.gpr[5]=7' --t0 "$OUT/gpr.txt" >"$OUT/gpr.out"
grep -q 'GPR 5 has a write-back in flight from instruction 0, line 1 "ttrdcfg 5, 20" writing GPR 5; it read 0x00000007, the value 0x00001234 lands in cycle 2' \
  "$OUT/gpr.out" && ok || bad "gpr_pending: producer and values not named"

# Stalls a person can act on (issue 23 item 4): each stall cycle with its structured reason, the
# same in the JSON (checked against tools/ttrun-json.md by jsoncheck --ttrun, which also checks
# the cycles add up), the trace's stalls on the thread's own row and a counter (Value and Max)
# for every semaphore waited on.
"$B/ttrun" --mode cycle "${K3[@]}" --json --trace "$OUT/st.trace.json" >"$OUT/st.json"
"$B/ttrun" --mode cycle "${K3[@]}" >"$OUT/st.txt"
grep -q '^      66  semaphore_full sem7 (MATH_DONE): Value 0, Max 0, waits while Value>=Max (unit sync); latch set by line 8 "ttsemwait 2, 128, 2"; holding line 9' \
  "$OUT/st.txt" && ok || bad "sdpa t1: the 66 stall cycles are not semaphore_full sem7"
grep -q '"stall": {"reason": "semaphore_empty", "signal": "latch", "unit": "sync", "semaphore": {"index": 1, "name": "MATH_PACK", "value": 0, "max": 0}' \
  "$OUT/st.json" && ok || bad "sdpa t2: JSON wait has no structured semaphore_empty sem1"
"$J" --ttrun "$OUT/st.json" >/dev/null && ok || bad "sdpa JSON does not follow tools/ttrun-json.md"
sed 's/"reason": "semaphore_full"/"reason": "semaphore_fool"/' "$OUT/st.json" >"$OUT/st.bad.json"
"$J" --ttrun "$OUT/st.bad.json" >/dev/null 2>&1 && bad "jsoncheck --ttrun accepts an unknown stall reason" || ok
sed '0,/"cycles": 66,/s//"cycles": 65,/' "$OUT/st.json" >"$OUT/st.bad2.json"
"$J" --ttrun "$OUT/st.bad2.json" >/dev/null 2>&1 && bad "jsoncheck --ttrun accepts stalls that do not add up" || ok
for sem in 'sem1 MATH_PACK' 'sem2 UNPACK_TO_DEST' 'sem7 MATH_DONE'; do
  grep -q "\"name\": \"$sem\", \"ph\": \"C\", \"ts\": 0, .*\"args\": {\"value\": 0, \"max\": 0}" "$OUT/st.trace.json" && ok ||
    bad "trace: no counter track (value and max) for the waited-on $sem"
done
grep -q '"name": "stall: semaphore_full sem7", "cat": "stall", "ph": "X", "ts": 5, "dur": 66, "pid": 1, "tid": 16,' "$OUT/st.trace.json" &&
  ok || bad "trace: T1's stall is not on its own row (tid 16)"
grep -q 'overlap' "$OUT/st.trace.json" && bad "trace: an overlap row remains" || ok
grep -q '"name": "T2 in flight"' "$OUT/st.trace.json" && ok || bad "trace: no in-flight row"
printf 'ttatgetm 2\nttatrelm 2\n' >"$OUT/mtx.txt"
"$B/ttrun" --mode cycle --t0 "$OUT/mtx.txt" --t1 "$OUT/mtx.txt" | grep -q '^      1  mutex_wait mutex 2: held by t0 (unit sync); holding line 1' &&
  ok || bad "mutex_wait: the holder is not named"
"$B/ttrun" "${K3[@]}" | grep -q '^    stall: semaphore_full sem7 (MATH_DONE): Value 0, Max 0' && ok || bad "functional mode: no structured stall line"

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

# --fail-on (issue 23 item 6): a deadlock exits 0 without it and 32 + the conditions that held
# with it (deadlock 1, blocked 2, hazard 4, fault 8, budget 16).
fail_on() {  # WANT_STATUS WHAT ttrun-args...
  local want=$1 what=$2
  shift 2
  "$B/ttrun" "$@" >"$OUT/failon.out" 2>"$OUT/failon.err"
  local rc=$?
  [ $rc = "$want" ] && ok || bad "--fail-on: $what: status $rc, expected $want ($(head -1 "$OUT/failon.err"))"
}
K3=(--t0 $S/trisc0.txt --t1 $S/trisc1.txt --t2 $S/trisc2.txt)
fail_on 0 "sdpa deadlock, no --fail-on" "${K3[@]}"
fail_on 33 "sdpa deadlock" "${K3[@]}" --fail-on deadlock
grep -q '^ttrun: --fail-on: deadlock (exit status 33)$' "$OUT/failon.err" && ok || bad "--fail-on: the condition is not named on stderr"
fail_on 35 "sdpa deadlock,blocked" "${K3[@]}" --fail-on deadlock,blocked
fail_on 35 "sdpa all (deadlock, blocked; its MOPs are not modelled, not a fault)" "${K3[@]}" --fail-on all
fail_on 33 "sdpa deadlock + fault, repeated option" "${K3[@]}" --fail-on deadlock --fail-on fault
fail_on 0 "sdpa, hazard only (functional mode has none)" "${K3[@]}" --fail-on hazard
fail_on 0 "add1 in cycle mode: its cfg_gap are all dismissed" --mode cycle --t0 $A/trisc0.txt --t1 $A/trisc1.txt --t2 $A/trisc2.txt --fail-on hazard
fail_on 36 "layernorm hazards in cycle mode" --mode cycle --t0 $L/trisc0.txt --t1 $L/trisc1.txt --t2 $L/trisc2.txt --fail-on hazard
fail_on 48 "budget" --budget 10 "${K3[@]}" --fail-on budget
fail_on 40 "a run that ends done with a fault" --t0 "$OUT/mutex.txt" --fail-on all
printf 'ttseminit 1, 0, 2\nttsempost 2\n' >"$OUT/clean.txt"
fail_on 0 "a clean run that ends done" --t0 "$OUT/clean.txt" --mode cycle --fail-on all
fail_on 2 "an unknown condition" "${K3[@]}" --fail-on deadlok
"$B/ttrun" --help | grep -q -- '--fail-on' && ok || bad "--fail-on not in --help"

# CLI edges (issue 23 item 7): each is refused with a message that says what is wrong.
cli_err() {  # WANT_STATUS PATTERN WHAT ttrun-args...
  local want=$1 pat=$2 what=$3
  shift 3
  "$B/ttrun" "$@" >"$OUT/cli.out" 2>"$OUT/cli.err"
  local rc=$?
  [ $rc = "$want" ] && head -n 1 "$OUT/cli.err" | grep -q -- "$pat" && ok ||
    bad "$what: status $rc (expected $want), first stderr line '$(head -n 1 "$OUT/cli.err")' (expected '$pat')"
}
for b in -5 -1 ' 5' +5 0x-5 0 abc 5x 99999999999999999999 0x10000000000000000; do
  cli_err 2 "^ttrun: --budget needs a whole number from 1 to 18446744073709551615 (decimal or 0x hex), not '$b'$" \
    "--budget '$b'" --budget "$b" --t0 "$OUT/mutex.txt"
done
"$B/ttrun" --budget 0x10 --t0 "$OUT/mutex.txt" | grep -q '^ttrun: functional mode, profile isa, budget 16 rounds$' && ok ||
  bad "--budget 0x10 is not 16"
cli_err 2 '^ttrun: unknown option --foo$' "unknown option" --foo --t0 "$OUT/mutex.txt"
cli_err 2 '^ttrun: unknown option --t3=x$' "unknown option with =" --t3=x
grep -q '^usage: ttrun' "$OUT/cli.err" && ok || bad "unknown option: no usage after the message"
cli_err 2 "^ttrun: $S/trisc1.txt: a file without an option is read as a conformance vector and must be named \*\.vec; give a thread listing with --t0, --t1 or --t2" \
  "a listing without --tN" $S/trisc1.txt
cli_err 2 "^ttrun: --t0 given twice ('$OUT/mutex.txt', then '$S/trisc0.txt'): give it once$" "--t0 twice" \
  --t0 "$OUT/mutex.txt" --t0 $S/trisc0.txt
cli_err 2 "^ttrun: --mode given twice" "--mode twice" --mode cycle --mode func --t0 "$OUT/mutex.txt"
: >"$OUT/empty.txt"
cli_err 1 "^$OUT/empty.txt:1:1: no Tensix instruction in $OUT/empty.txt" "an empty listing" --t0 "$OUT/empty.txt"
printf 'build/x.elf:     file format elf32-littleriscv\n\nDisassembly of section .text:\n\n00006290 <_start>:\n    6290:\t00000513          \tli\ta0,0\n    6294:\t00008067          \tret\n' \
  >"$OUT/riscv-only.txt"
cli_err 1 "^$OUT/riscv-only.txt:1:1: no Tensix instruction in $OUT/riscv-only.txt: of its 7 line(s), 2 are RISC-V code" \
  "a RISC-V-only objdump" --t1 $S/trisc1.txt --t2 "$OUT/riscv-only.txt"

# The mnemonic column of a stream file names the instruction its word encodes; a mismatch is an
# error at the mnemonic (here line 8 of sdpa's trisc1.txt, SEMWAIT, with its word made a SEMPOST).
sed '8s/^a6010202/a4010202/' $S/trisc1.txt >"$OUT/mnem1.txt"
cli_err 1 "^$OUT/mnem1.txt:8:19: the mnemonic column says SEMWAIT, but the word 0xA4010202 is SEMPOST" \
  "stream file: word and mnemonic column differ" --t1 "$OUT/mnem1.txt"
printf 'a6010202  SEMWAIT\na6010202  SEMPOST 2\n' >"$OUT/mnem2.txt"
cli_err 1 "^$OUT/mnem2.txt:2:11: the mnemonic column says SEMPOST, but the word 0xA6010202 is SEMWAIT" \
  "stream file without the kind column: mismatch" --t0 "$OUT/mnem2.txt"
printf 'a6010202  sync  SEMWIAT\n' >"$OUT/mnem3.txt"
cli_err 1 "^$OUT/mnem3.txt:1:17: the mnemonic column says 'SEMWIAT' (no instruction of that name)" \
  "stream file: an unknown name in the mnemonic column" --t0 "$OUT/mnem3.txt"
printf 'a6010202  any free text\n' >"$OUT/mnem4.txt"
"$B/ttrun" --t0 "$OUT/mnem4.txt" >/dev/null 2>&1 && ok || bad "stream file: free text after the word is refused"

# trace_png.py without gnuplot: one line that says how to install it, a non-zero status.
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "$PY" ]; then
  env PATH=/nonexistent "$PY" tools/trace_png.py "$OUT/sdpa__tenstorrent-docs.t012.cycle.trace.json" "$OUT/x.png" \
    >"$OUT/png.out" 2>"$OUT/png.err"
  rc=$?
  [ $rc != 0 ] && [ "$(wc -l <"$OUT/png.err")" = 1 ] && grep -q 'gnuplot is not installed.*apt-get install gnuplot' "$OUT/png.err" &&
    ok || bad "trace_png.py without gnuplot: status $rc, stderr '$(head -3 "$OUT/png.err")'"
else
  echo "skip: trace_png.py without gnuplot (no python3)"
fi

# ttasm --explain of objdump's hex column (the Tensix word rotated left by 2), as ttrun reads it.
"$X" --explain c8340002 >"$OUT/explain3.txt" 2>&1
grep -q '^0xB20D0000  ttsetc16 13, 0$' "$OUT/explain3.txt" && grep -q 'rotated left by 2' "$OUT/explain3.txt" &&
  grep -q '^unit: Configuration Unit — SETC16' "$OUT/explain3.txt" && ok ||
  bad "ttasm --explain c8340002: $(head -3 "$OUT/explain3.txt")"
printf '    7294:\tc8340002          \tttsetc16\t13,0\n' >"$OUT/objdump1.txt"
w=$("$B/ttrun" --t0 "$OUT/objdump1.txt" --emit-vec "$OUT/objdump1.vec" >/dev/null && grep -o '# 0x[0-9A-F]* ' "$OUT/objdump1.vec" | head -1)
"$X" --explain "$(cat "$OUT/objdump1.txt")" | grep -q "^${w#\# } " && ok || bad "ttasm --explain of an objdump line differs from ttrun's word '$w'"
"$X" --explain a6010202 | grep -q '^0xA6010202  ttsemwait 2, 128, 2$' && ok || bad "ttasm --explain a6010202 (a stream word)"

# Every line of a listing accounted for (issue 23 item 1): dynamic pushes are counted with their
# lines, one between a wait and the held instruction is warned about, and so is a "nothing left
# can" that relies on a thread whose listing has unknown words ahead; --push supplies the word.
printf 'ttsemwait 2, 2, 1\n#  --------  ?  sw->INSTRN_BUF mmio-dynamic  @7314 a5,0(a4)\nttsempost 4\n' >"$OUT/push0.txt"
printf 'ttseminit 2, 0, 4\n#  --------  ?  sw->INSTRN_BUF mmio-dynamic  @7400 a4,0(a5)\n' >"$OUT/push1.txt"
"$B/ttrun" --t0 "$OUT/push0.txt" --t1 "$OUT/push1.txt" >"$OUT/push.txt" 2>&1
grep -q '^    words: 2 to run (2 listed, 0 replayed), 1 pushed dynamically (0 supplied by --push; unknown at line 2), 0 not modelled$' \
  "$OUT/push.txt" && ok || bad "dynamic push: t0's words line ($(grep words: "$OUT/push.txt" | head -1))"
grep -q '^    warning: 1 word the listing does not show lie between the wait and the held instruction (line 2)' "$OUT/push.txt" &&
  ok || bad "dynamic push between the wait and the held instruction: no warning"
grep -q "^      warning: this relies on what t1's listing shows; 1 word of t1 ahead is not known (line 2)" "$OUT/push.txt" &&
  ok || bad "nothing left can: no warning about t1's unknown push"
"$B/ttrun" --t0 "$OUT/push0.txt" --t1 "$OUT/push1.txt" --json >"$OUT/push.json" 2>&1
grep -q '"unknown_between_wait_and_held": 1, "unknown_ahead": \[{"thread": 1, "count": 1}\]' "$OUT/push.json" && "$J" --ttrun "$OUT/push.json" >/dev/null &&
  ok || bad "dynamic push: the JSON wait does not say what it cannot see"
"$B/ttrun" --t0 "$OUT/push0.txt" --t1 "$OUT/push1.txt" --push "$OUT/push1.txt:2=ttsempost 2" >"$OUT/push2.txt" 2>&1
grep -q '^outcome: DONE' "$OUT/push2.txt" && grep -q '1 pushed dynamically (all supplied by --push)' "$OUT/push2.txt" &&
  ok || bad "--push: the supplied SEMPOST does not release t0 ($(grep outcome "$OUT/push2.txt"))"
"$B/ttrun" --t0 "$OUT/push0.txt" --push push1.txt:2=a4000008 --t1 "$OUT/push1.txt" | grep -q '^outcome: DONE' && ok ||
  bad "--push by base name and hex word"
cli_err 2 "^ttrun: --push $OUT/push1.txt:1=ttsempost 2: line 1 of $OUT/push1.txt is not a dynamic push" "--push, not a push line" \
  --t1 "$OUT/push1.txt" --push "$OUT/push1.txt:1=ttsempost 2"
cli_err 2 "^ttrun: --push needs FILE:LINE=WORD" "--push without a line" --t1 "$OUT/push1.txt" --push "$OUT/push1.txt=a4000008"
printf '    6290:\tffe40737          \tlui\ta4,0xffe40\n    6294:\t00f72023          \tsw\ta5,0(a4)\n    6298:\tc8340002          \tttsetc16\t13,0\n    629c:\t00f72023          \tsw\ta5,0(a4)\n    62a0:\t00000713          \tli\ta4,0\n    62a4:\t00f72023          \tsw\ta5,0(a4)\n' \
  >"$OUT/objpush.txt"
"$B/ttrun" --t0 "$OUT/objpush.txt" | grep -q '1 to run (1 listed, 0 replayed), 2 pushed dynamically (0 supplied by --push; unknown at lines 2, 4)' &&
  ok || bad "objdump: sw to the instruction-push address not counted as a dynamic push"

# On each of the six kernels (three threads), every thread prints its words line, and no MOP or
# REPLAY is a fault any more (the issue: "a kernel that ends DONE with 16 of them"); sdpa's t1
# counts its 110 '# mmio-dynamic' lines, and with initialised semaphores its wait is warned about
# (lines 60 and 61 lie between the SEMWAIT at line 59 and the instruction held).
for K in corpus/kernels/*/; do
  "$B/ttrun" --t0 "$K/trisc0.txt" --t1 "$K/trisc1.txt" --t2 "$K/trisc2.txt" >"$OUT/words.txt" 2>&1
  [ "$(grep -c '^    words: [0-9]* to run ([0-9]* listed.*, [0-9]* replayed.*), [0-9]* pushed dynamically.*, [0-9]* not modelled' "$OUT/words.txt")" = 3 ] &&
    ok || bad "$K: not every thread has its words line"
  grep -q 'unimplemented' "$OUT/words.txt" && bad "$K: a MOP or REPLAY is still reported as a fault" || ok
done
"$B/ttrun" "${K3[@]}" | grep -q '^    words: 1349 to run (1098 listed of which 343 SFPU lines named without their word, run as their opcode, 251 replayed; 25 REPLAY and 0 MOP_CFG consumed by the expanders), 110 pushed dynamically' &&
  ok || bad "sdpa t1: words line"
"$B/ttrun" "${K3[@]}" --init 'sem[7].max=1' --init 'sem[2].max=1' |
  grep -q '^    warning: 2 words the listing does not show lie between the wait and the held instruction (lines 60, 61 (MOP/REPLAY))' &&
  ok || bad "sdpa t1 with inits: no warning about the words between its wait and the held instruction"

# objdump text as the upstream add1_sfpu objdumps write it: the push address copied (mv), a
# constant built by lui+addi and stored (a word the listing holds: it runs), a computed one (a
# dynamic push), a store elsewhere whose objdump comment comes before an <__instrn_buffer> one.
printf '%b\n' '00006b04 <.L12>:' '    6b04:\tffb127b7          \tlui\ta5,0xffb12' \
  '    6b08:\t0607a423          \tsw\tzero,104(a5) # ffb12068 <__global_pointer$+0x11878>' \
  '    6b0c:\tffe406b7          \tlui\ta3,0xffe40' '    6b10:\t00068693          \tmv\ta3,a3' \
  '    6b14:\tb61e1737          \tlui\ta4,0xb61e1' '    6b18:\ta0170713          \taddi\ta4,a4,-1535 # b61e0a01 <x>' \
  '    6b1c:\t00e6a023          \tsw\ta4,0(a3) # ffe40000 <__instrn_buffer>' '00006b20 <.L13>:' \
  '    6b20:\t00e6a023          \tsw\ta4,0(a3)' '    6b24:\t80000002          \tttatgetm\t0' >"$OUT/objconst.txt"
"$B/ttrun" --t0 "$OUT/objconst.txt" --emit-vec "$OUT/objconst.vec" >"$OUT/objconst.out" 2>&1
grep -q '^    words: 2 to run (2 listed of which 1 constants stored to the push address, 0 replayed), 1 pushed dynamically (0 supplied by --push; unknown at line 10)' \
  "$OUT/objconst.out" && grep -q '^t0: ttrmwcib3 30, 10, 1 .*objconst.txt:8 \[0\]$' "$OUT/objconst.vec" && ok ||
  bad "objdump: constant and dynamic pushes ($(grep words: "$OUT/objconst.out"))"

# The Replay Expander (issue 23 item 2): REPLAY records and replays, in both modes; a replayed
# word keeps its recording line; MOP is not modelled (counted, never a fault); MOP_CFG consumed.
printf '0x04000021\nttsempost 2\nttsempost 2\n0x04000013\nttsempost 2\n0x04000020\n0x01800000\n0x03000005\n0x04000030\n' >"$OUT/replay.txt"
for m in func cycle; do
  "$B/ttrun" --mode $m --t0 "$OUT/replay.txt" --emit-vec "$OUT/replay.$m.vec" >"$OUT/replay.$m.txt" 2>&1
  grep -q '^outcome: DONE' "$OUT/replay.$m.txt" && grep -q '^faults: none' "$OUT/replay.$m.txt" &&
    grep -q '^  sem\[1\].value  *0x0 -> 0x5$' "$OUT/replay.$m.txt" && ok ||
    bad "REPLAY ($m): not DONE with sem1 = 5 and no fault"
  grep -q '^    words: 5 to run (1 listed, 4 replayed; 4 REPLAY and 1 MOP_CFG consumed by the expanders), 0 pushed dynamically, 2 not modelled (1 MOP' \
    "$OUT/replay.$m.txt" && ok || bad "REPLAY ($m): words line '$(grep words: "$OUT/replay.$m.txt")'"
  [ "$("$B/ttconf" --mode both "$OUT/replay.$m.vec" | tail -n 1)" = "1 passed, 0 failed" ] && ok || bad "REPLAY ($m): emitted vector fails"
done
grep -q '^t0: ttsempost 2 .*# 0xA4000008  replay.txt:3 (replayed at line 6) \[2\]$' "$OUT/replay.func.vec" && ok ||
  bad "REPLAY: a replayed word does not keep its recording line"

echo "ttrun tests: $pass passed, $fail failed"
[ $fail = 0 ]
