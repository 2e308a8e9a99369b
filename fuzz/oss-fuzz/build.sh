#!/bin/bash -eu
# build.sh — OSS-Fuzz / ClusterFuzzLite build of the tensix-harness fuzz targets.
# Honours $CC $CFLAGS $CXX $CXXFLAGS $LIB_FUZZING_ENGINE $OUT (and $WORK for objects). Produces,
# per target T: $OUT/T, $OUT/T_seed_corpus.zip (corpus/T + corpus/reproducers/T), $OUT/T.dict
# (generated from the encoding table) and $OUT/T.options. Local check: `make oss-fuzz-test`.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
W=${WORK:-/tmp}/tensix-harness-build
rm -rf "$W" && mkdir -p "$W/model" "$W/fuzz" "$W/host"
STD="-std=c11 -Imodel -Ifuzz -D_POSIX_C_SOURCE=200809L"
for f in model/*.c; do
  $CC $CFLAGS $STD -c "$f" -o "$W/model/$(basename "${f%.c}").o"
done
for f in fz_input fz_mutator fz_lf_mutator func_invariants reset_equivalence decode_roundtrip text_parsers; do
  $CC $CFLAGS $STD -c "fuzz/$f.c" -o "$W/fuzz/$f.o"
done
# dictionaries: a host build of the generator (no fuzzing/sanitizer flags)
$CC $STD -O1 model/*.c fuzz/fz_input.c fuzz/gen.c -o "$W/host/gen"
"$W/host/gen" dict-program >"$W/program.dict"
"$W/host/gen" dict-text >"$W/text.dict"
for t in func_invariants reset_equivalence decode_roundtrip text_parsers; do
  extra=""; dict=program.dict
  case $t in
    func_invariants|reset_equivalence) extra="$W/fuzz/fz_lf_mutator.o" ;;
    text_parsers) dict=text.dict ;;
  esac
  ${CXX:-clang++} ${CXXFLAGS:-$CFLAGS} $LIB_FUZZING_ENGINE "$W/fuzz/$t.o" "$W/fuzz/fz_input.o" \
    "$W/fuzz/fz_mutator.o" $extra "$W"/model/*.o -o "$OUT/$t"
  cp "$W/$dict" "$OUT/$t.dict"
  printf '[libfuzzer]\nmax_len = 4096\ntimeout = 10\ndict = %s.dict\n' "$t" >"$OUT/$t.options"
  rm -f "$OUT/${t}_seed_corpus.zip"
  ( find corpus/$t corpus/reproducers/$t -type f 2>/dev/null || true ) | zip -q -j -@ "$OUT/${t}_seed_corpus.zip"
done
