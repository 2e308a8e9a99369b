#!/bin/bash -eu
# build.sh — the OSS-Fuzz and ClusterFuzzLite build of the tensix-harness fuzz targets.
#
# Where it runs: both services copy this file to $SRC/build.sh and run it inside their
# base-builder image, with the project at $SRC/tensix-harness and (normally) that directory as
# the working directory (fuzz/oss-fuzz/Dockerfile, .clusterfuzzlite/Dockerfile). The project
# root is therefore found, in this order, as: $TENSIX_HARNESS_ROOT; the working directory when
# it holds the project; $SRC/tensix-harness; the directory two levels above this script (when
# it is run in place from a checkout). Nothing is derived from $SRC/build.sh's own location.
#
# Inputs (set by the services): CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE OUT, and SRC WORK.
# Outputs, per target T: $OUT/T, $OUT/T_seed_corpus.zip, $OUT/T.dict, $OUT/T.options.
# Seeds are in the input format each entry point reads (fuzz/fz.h): corpus/T/ as committed,
# plus the closed reproducers of corpus/reproducers/T/ converted by `gen input` (.vec text ->
# structured program or words); open reproducers are left out (they abort by design).
# Local check of the real layout: `make oss-fuzz-test` (fuzz/oss-fuzz/test.sh).
NAME=tensix-harness
is_root() { [ -f "$1/model/tt.h" ] && [ -f "$1/fuzz/fz.h" ]; }
ROOT=""
for cand in "${TENSIX_HARNESS_ROOT:-}" "$PWD" "${SRC:+$SRC/$NAME}" \
            "$(cd "$(dirname "${BASH_SOURCE[0]}")" 2>/dev/null && cd ../.. 2>/dev/null && pwd)"; do
  if [ -n "$cand" ] && is_root "$cand"; then ROOT=$(cd "$cand" && pwd); break; fi
done
if [ -z "$ROOT" ]; then
  echo "build.sh: cannot find the $NAME sources: not in \$TENSIX_HARNESS_ROOT, the working" >&2
  echo "build.sh: directory ($PWD), \$SRC/$NAME (SRC=${SRC:-unset}) or next to this script" >&2
  exit 1
fi
for v in CC CXX CFLAGS LIB_FUZZING_ENGINE OUT; do
  if [ -z "${!v+x}" ]; then echo "build.sh: \$$v is not set (OSS-Fuzz and ClusterFuzzLite set it)" >&2; exit 1; fi
done
CXXFLAGS=${CXXFLAGS-$CFLAGS}
cd "$ROOT"
W=${WORK:-/tmp}/$NAME-build
rm -rf "$W" && mkdir -p "$W/model" "$W/fuzz" "$W/host" "$W/seeds" "$OUT"
STD="-std=c11 -Imodel -Imodel/text -Icommon -Ifuzz -D_POSIX_C_SOURCE=200809L"
# the targets: every fuzz/*.c that expands FZ_ENTRY_POINTS; its fz_target says the input kind.
# dut_diff is left out: it compares the model with an implementation under test loaded at run
# time (TTDUT=...), which a hosted campaign does not have; alone it compares the model with itself.
TARGETS=$(grep -l '^FZ_ENTRY_POINTS(' fuzz/*.c | sed 's|^fuzz/||; s|\.c$||' | grep -vx dut_diff | sort)
kind_of() {  # program (structured, custom mutator), words (decode) or text
  local line; line=$(tr -d '\n' <"fuzz/$1.c" | grep -o 'fz_this_target = {[^}]*}')
  case $line in
    *"invariants, 1,"*) echo program ;;
    *"check_bytes, NULL,"*) echo text ;;
    *) echo words ;;
  esac
}
# coverage only where it guides the search (fuzz/benchmarks.md, "Where the time goes"): clang's
# ignore list when the flags ask for sanitizer coverage, AFL++'s deny list (it ignores the former)
case "$CFLAGS" in *-fsanitize=fuzzer*|*-fsanitize-coverage*) CFLAGS="$CFLAGS -fsanitize-coverage-ignorelist=$ROOT/fuzz/sancov-ignore.txt" ;; esac
case "$CC" in *afl-*) sh fuzz/afl-deny.sh >"$W/afl-deny.txt"; export AFL_LLVM_DENYLIST="$W/afl-deny.txt" ;; esac
# ... and no comparison tracing in the objects the Makefile's FUZZ_NO_CMP_OBJS (model) and
# FUZZ_NO_CMP_HARNESS (spec_diff and its reference) name (one list each)
NO_CMP=" $(sed -n 's/^FUZZ_NO_CMP_OBJS := //p' Makefile) "
NO_CMP_HARNESS=" $(sed -n 's/^FUZZ_NO_CMP_HARNESS := //p' Makefile) "
for f in model/*.c model/text/*.c; do
  o=$(basename "${f%.c}").o extra=""
  case "$CFLAGS" in *-fsanitize=fuzzer*|*trace-cmp*) case $NO_CMP in *" $o "*) extra=-fno-sanitize-coverage=trace-cmp ;; esac ;; esac
  $CC $CFLAGS $extra $STD -c "$f" -o "$W/model/$o"
done
# helper sources a target links besides the shared ones (spec_diff: its reference interpreter)
links_of() { case $1 in spec_diff) echo spec_ref spec_ref_cycle spec_ref_insn spec_ref_host spec_ref_mem spec_ref_pipe ;; esac; }
for f in fz_input fz_mutator fz_lf_mutator spec_ref spec_ref_cycle spec_ref_insn spec_ref_host spec_ref_mem spec_ref_pipe $TARGETS; do
  extra=""
  case "$CFLAGS" in *-fsanitize=fuzzer*|*trace-cmp*) case $NO_CMP_HARNESS in *" $f.o "*) extra=-fno-sanitize-coverage=trace-cmp ;; esac ;; esac
  $CC $CFLAGS $extra $STD -c "fuzz/$f.c" -o "$W/fuzz/$f.o"
done
# generator (dictionaries, reproducer conversion): a host build without fuzzing/sanitizer flags
$CC $STD -O1 model/*.c model/text/*.c fuzz/fz_input.c fuzz/gen.c -o "$W/host/gen"
"$W/host/gen" dict-program >"$W/program.dict"
"$W/host/gen" dict-text >"$W/text.dict"
for t in $TARGETS; do
  kind=$(kind_of "$t"); extra=""; dict=program.dict
  for l in $(links_of "$t"); do extra="$extra $W/fuzz/$l.o"; done
  case $kind in
    program) extra="$extra $W/fuzz/fz_lf_mutator.o" ;;
    text) dict=text.dict ;;
  esac
  # link with the C++ driver, as the services require ($LIB_FUZZING_ENGINE may be a C++ library)
  $CXX $CXXFLAGS "$W/fuzz/$t.o" "$W/fuzz/fz_input.o" "$W/fuzz/fz_mutator.o" $extra "$W"/model/*.o \
    $LIB_FUZZING_ENGINE -o "$OUT/$t"
  cp "$W/$dict" "$OUT/$t.dict"
  printf '[libfuzzer]\nmax_len = 4096\ntimeout = 10\ndict = %s.dict\n' "$t" >"$OUT/$t.options"
  s="$W/seeds/$t"; mkdir -p "$s"
  find "corpus/$t" -maxdepth 1 -type f ! -name 'README*' -exec cp {} "$s/" \;
  # reproducers: corpus/reproducers/<t>/* (fuzz/triage.sh) and corpus/reproducers/<t>-*
  for r in corpus/reproducers/$t/* corpus/reproducers/$t-*; do
    [ -f "$r" ] || continue
    grep -q '^# open:' "$r" 2>/dev/null && continue
    b=$(basename "$r"); b=${b%.fzvec}; b=${b%.vec}   # converted: no longer .vec text
    "$W/host/gen" input "$kind" "$r" >"$s/reproducer-$b"
  done
  rm -f "$OUT/${t}_seed_corpus.zip"
  (cd "$s" && find . -type f | sort | zip -q -@ "$OUT/${t}_seed_corpus.zip")
  echo "build.sh: $OUT/$t ($kind input, $(find "$s" -type f | wc -l) seeds)"
done
