#!/bin/bash
# test.sh — `make oss-fuzz-test` (called by .ci/run): fuzz/oss-fuzz/build.sh in the layout
# OSS-Fuzz and ClusterFuzzLite give it, in a scratch directory build/oss-fuzz/:
#   $SRC/build.sh          a copy of the script (their Dockerfiles COPY it there)
#   $SRC/tensix-harness    a copy of this tree's files (tracked and untracked, not ignored);
#                          the name is read from both Dockerfiles, which must agree
#   $OUT $WORK             empty directories; CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE as the
#                          base-builder image sets them for the engine
# Two builds: libFuzzer with ASan+UBSan run from the WORKDIR ($SRC/tensix-harness), and AFL++
# (afl-clang-fast, its libFuzzer-compatible driver) run from $SRC itself, so the script may not
# rely on its own location or on the working directory. Then every produced fuzzer runs its
# whole seed zip (each seed executed once; a seed that aborts fails the test), libFuzzer ones
# fuzz 2 s more with their .options; the seeds of the binary-input targets must not be text. The
# two builds run side by side.
set -u
ROOT=$(pwd)
S=$ROOT/build/oss-fuzz
rm -rf "$S"; mkdir -p "$S"
fail=0
bad() { echo "oss-fuzz-test: FAIL $*"; fail=1; }

# ---- the layout, from the Dockerfiles ----------------------------------------------------------
cfl=.clusterfuzzlite/Dockerfile; ossd=fuzz/oss-fuzz/Dockerfile
n1=$(sed -n 's|^COPY \. \$SRC/\([A-Za-z0-9_.-]*\)$|\1|p' "$cfl")
n2=$(sed -n 's|.*git clone .* \$SRC/\([A-Za-z0-9_.-]*\)$|\1|p' "$ossd")
w1=$(sed -n 's|^WORKDIR \$SRC/||p' "$cfl"); w2=$(sed -n 's|^WORKDIR \$SRC/||p' "$ossd")
b1=$(sed -n 's|^COPY \([^ ]*build\.sh\) \$SRC/build\.sh$|\1|p' "$cfl")
grep -q '^COPY build.sh \$SRC/$' "$ossd" || bad "$ossd does not COPY build.sh to \$SRC/"
if [ -z "$n1" ] || [ "$n1" != "$n2" ] || [ "$w1" != "$n1" ] || [ "$w2" != "$n1" ]; then
  bad "Dockerfiles disagree on the project directory (ClusterFuzzLite '$n1' WORKDIR '$w1', OSS-Fuzz '$n2' WORKDIR '$w2')"
fi
[ "$b1" = fuzz/oss-fuzz/build.sh ] || bad "$cfl copies '$b1', not fuzz/oss-fuzz/build.sh"
NAME=${n1:-tensix-harness}
echo "oss-fuzz-test: layout from the Dockerfiles: \$SRC/build.sh, project in \$SRC/$NAME (WORKDIR)"

copy_tree() {  # $1: destination
  mkdir -p "$1"
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -co --exclude-standard | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
      tar -cf - -T - | tar -xf - -C "$1"
  else
    tar -cf - --exclude=./build --exclude=./fuzz/out . | tar -xf - -C "$1"
  fi
}

SAN="-fsanitize=address,undefined -fsanitize-address-use-after-scope -fno-sanitize-recover=undefined"
BASE="-O1 -fno-omit-frame-pointer -gline-tables-only"
TARGETS=$(grep -l '^FZ_ENTRY_POINTS(' fuzz/*.c | sed 's|^fuzz/||; s|\.c$||' | grep -vx dut_diff | sort)   # dut_diff: needs an implementation (build.sh)

run_engine() {  # engine cwd-mode
  local engine=$1 where=$2 src=$S/$1/src out=$S/$1/out work=$S/$1/work
  mkdir -p "$src" "$out" "$work"
  copy_tree "$src/$NAME"
  cp fuzz/oss-fuzz/build.sh "$src/build.sh"
  local cwd=$src/$NAME; [ "$where" = src ] && cwd=$src
  (
    export SRC=$src OUT=$out WORK=$work
    if [ "$engine" = libfuzzer ]; then
      export CC=${OSS_CC:-clang} CXX=${OSS_CXX:-clang++}
      export CFLAGS="$BASE $SAN -fsanitize=fuzzer-no-link" LIB_FUZZING_ENGINE=-fsanitize=fuzzer
    else
      export CC=afl-clang-fast CXX=afl-clang-fast++ AFL_QUIET=1
      export CFLAGS="$BASE $SAN" LIB_FUZZING_ENGINE=-fsanitize=fuzzer
    fi
    export CXXFLAGS="$CFLAGS"
    cd "$cwd" && bash -eu "$SRC/build.sh"
  ) >"$S/$engine.build.log" 2>&1 || { bad "$engine: build.sh failed (cwd $cwd):"; tail -n 20 "$S/$engine.build.log"; return; }
  echo "oss-fuzz-test: $engine: build.sh ran from ${cwd#$S/} with \$SRC=${src#$ROOT/}: $(grep -c '^build.sh: ' "$S/$engine.build.log") fuzzers ($(echo $TARGETS))"
  for t in $TARGETS; do
    for f in "$out/$t" "$out/$t.dict" "$out/$t.options" "$out/${t}_seed_corpus.zip"; do
      [ -s "$f" ] || bad "$engine: missing $f"
    done
    [ -s "$out/${t}_seed_corpus.zip" ] || continue
    c=$work/seeds-$t; rm -rf "$c"; mkdir -p "$c"; unzip -q -o "$out/${t}_seed_corpus.zip" -d "$c"
    nseeds=$(find "$c" -type f | wc -l)
    if ! grep -q "^build.sh: $out/$t (text input" "$S/$engine.build.log"; then  # binary inputs: no .vec text
      txt=$(find "$c" -type f \( -name '*.vec' -o -name '*.fzvec' \) | head -n 1)
      [ -z "$txt" ] || bad "$engine $t: seed zip holds a text vector: $txt"
      for f in "$c"/*; do
        case $(head -c 5 "$f" | tr -d '\000') in "name:"|"# "*) bad "$engine $t: seed $f is .vec text, not the binary input"; break ;; esac
      done
    fi
    if [ "$engine" = libfuzzer ]; then
      opts=$(awk -F' *= *' '/^[a-z_]+ *=/ {printf "-%s=%s ", $1, ($1=="dict" ? "'"$out"'/" $2 : $2)}' "$out/$t.options")
      # shellcheck disable=SC2086
      if (cd "$work" && "$out/$t" $opts -runs=0 "$c" >"$work/$t.seeds.log" 2>&1); then
        ran=$(sed -n 's/.*INFO: seed corpus: files: \([0-9]*\).*/\1/p' "$work/$t.seeds.log" | head -n 1)
        [ "${ran:-0}" -eq "$nseeds" ] || bad "$engine $t: libFuzzer read ${ran:-0} of $nseeds seeds"
      else
        bad "$engine $t: a seed fails:"; tail -n 15 "$work/$t.seeds.log"; continue
      fi
      # shellcheck disable=SC2086
      if (cd "$work" && "$out/$t" $opts -max_total_time=2 -print_final_stats=1 "$c" >"$work/$t.log" 2>&1); then
        echo "oss-fuzz-test: ok   $engine $t: $nseeds seeds run, then $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log") execs in 2 s"
      elif grep -q '^INVARIANT ' "$work/$t.log"; then
        # the fuzzer works and found something in its 2 s: a finding for the campaign, not a
        # build or layout problem (see the log; `make fuzz` triages such findings)
        echo "oss-fuzz-test: ok   $engine $t: $nseeds seeds run; fuzzing found $(grep -m1 '^INVARIANT ' "$work/$t.log" | cut -c1-100) (log: ${work#$ROOT/}/$t.log)"
      else
        bad "$engine $t: fuzzing failed:"; tail -n 15 "$work/$t.log"
      fi
    else
      # AFL++'s driver runs each file given on the command line once
      if (cd "$work" && find "$c" -type f -print0 | xargs -0 "$out/$t" >"$work/$t.seeds.log" 2>&1); then
        ran=$(grep -c '^Execution successful' "$work/$t.seeds.log")
        [ "$ran" -eq "$nseeds" ] || { bad "$engine $t: the AFL++ driver ran $ran of $nseeds seeds"; continue; }
        echo "oss-fuzz-test: ok   $engine $t: $nseeds seeds run through the AFL++ driver"
      else
        bad "$engine $t: a seed fails under the AFL++ driver:"; tail -n 15 "$work/$t.seeds.log"
      fi
    fi
  done
}

# the two engines' builds and runs side by side (separate directories), each one's report printed
# whole, libFuzzer's first; an engine fails the test through its subshell's status
( run_engine libfuzzer workdir; exit $fail ) >"$S/libfuzzer.out" 2>&1 &
lf=$!
if command -v afl-clang-fast >/dev/null 2>&1; then
  ( run_engine afl src; exit $fail ) >"$S/afl.out" 2>&1 &
  afl=$!
else
  echo "oss-fuzz-test: afl-clang-fast not installed: AFL++ build not checked" >"$S/afl.out"; afl=
fi
wait $lf || fail=1
cat "$S/libfuzzer.out"
if [ -n "$afl" ]; then wait "$afl" || fail=1; fi
cat "$S/afl.out"
[ $fail -eq 0 ] && echo "oss-fuzz-test: build.sh in the OSS-Fuzz/ClusterFuzzLite layout produced working fuzzers; every seed zip runs"
exit $fail
