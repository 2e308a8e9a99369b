#!/bin/sh
# test.sh — `make oss-fuzz-test`: run build.sh the way OSS-Fuzz does (libFuzzer, ASan+UBSan
# flags as in base-builder), then each produced binary for a few seconds on its unzipped seed
# corpus with its .options (dict, max_len, timeout).
set -eu
OUT=$(pwd)/build/oss-fuzz/out; WORK=$(pwd)/build/oss-fuzz/work
rm -rf "$OUT" "$WORK"; mkdir -p "$OUT" "$WORK"
SAN="-fsanitize=address,undefined -fsanitize-address-use-after-scope -fno-sanitize-recover=undefined"
export CC=${OSS_CC:-clang} CXX=${OSS_CXX:-clang++} OUT WORK SRC=$(pwd)
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only $SAN -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS" LIB_FUZZING_ENGINE=-fsanitize=fuzzer
bash fuzz/oss-fuzz/build.sh
fail=0
for t in func_invariants reset_equivalence decode_roundtrip text_parsers; do
  for f in "$OUT/$t" "$OUT/$t.dict" "$OUT/$t.options" "$OUT/${t}_seed_corpus.zip"; do
    [ -s "$f" ] || { echo "oss-fuzz-test: missing $f"; fail=1; }
  done
  c="$WORK/corpus-$t"; mkdir -p "$c"; unzip -q -o "$OUT/${t}_seed_corpus.zip" -d "$c"
  opts=$(awk -F' *= *' '/^[a-z_]+ *=/ {printf "-%s=%s ", $1, ($1=="dict" ? "'"$OUT"'/" $2 : $2)}' "$OUT/$t.options")
  # shellcheck disable=SC2086
  if (cd "$WORK" && "$OUT/$t" $opts -max_total_time=3 -print_final_stats=1 "$c" >"$WORK/$t.log" 2>&1); then
    echo "oss-fuzz-test: ok   $t: $(ls "$c" | wc -l) seeds, $(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t.log") execs in 3 s ($opts)"
  else
    echo "oss-fuzz-test: FAIL $t"; tail -20 "$WORK/$t.log"; fail=1
  fi
done
[ $fail -eq 0 ] && echo "oss-fuzz-test: build.sh under \$CC/\$CFLAGS/\$LIB_FUZZING_ENGINE/\$OUT produced 4 working fuzzers"
exit $fail
