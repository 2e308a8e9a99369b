#!/bin/sh
# seeds.sh GEN OUT PATH... — (re)generate the seed corpora OUT/<target>/<sha1> from every .vec
# below PATH... (conformance vectors, fuzz/seeds/ hand-written LLK-style programs). Existing
# seeds of the five program/text targets are replaced; OUT/reproducers/ is left alone.
set -eu
gen=$1; out=$2; shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" seeds "$tmp" "$@"
for t in func_invariants reset_equivalence decode_roundtrip text_parsers; do
  mkdir -p "$out/$t"
  find "$out/$t" -maxdepth 1 -type f ! -name 'README*' -delete
  ( cd "$tmp/$t" && sha1sum -- * 2>/dev/null ) | while read -r h f; do
    mv "$tmp/$t/$f" "$out/$t/$h"
  done
  echo "seeds: $out/$t: $(find "$out/$t" -maxdepth 1 -type f ! -name 'README*' | wc -l) files"
done
# cycle_vs_func reads the same program format as func_invariants: the same seeds
mkdir -p "$out/cycle_vs_func"
find "$out/cycle_vs_func" -maxdepth 1 -type f ! -name 'README*' -delete
cp "$out"/func_invariants/* "$out/cycle_vs_func/"
echo "seeds: $out/cycle_vs_func: $(find "$out/cycle_vs_func" -maxdepth 1 -type f ! -name 'README*' | wc -l) files"
# ambiguity_diff reads the same program format too (fuzz/ambiguity_diff.c)
mkdir -p "$out/ambiguity_diff"
find "$out/ambiguity_diff" -maxdepth 1 -type f ! -name 'README*' -delete
cp "$out"/func_invariants/* "$out/ambiguity_diff/"
echo "seeds: $out/ambiguity_diff: $(find "$out/ambiguity_diff" -maxdepth 1 -type f ! -name 'README*' | wc -l) files"
