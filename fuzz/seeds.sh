#!/bin/sh
# seeds.sh GEN OUT PATH... — (re)generate the seed corpora OUT/<target>/<sha1> from every .vec
# below PATH... (conformance vectors, fuzz/seeds/ hand-written LLK-style programs). Existing
# seeds of the six program/text targets are replaced; OUT/reproducers/ is left alone.
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
# cycle_vs_func, ambiguity_diff (fuzz/ambiguity_diff.c) and spec_diff read the same program
# format as func_invariants: the same seeds
for t in cycle_vs_func ambiguity_diff spec_diff; do
  mkdir -p "$out/$t"
  find "$out/$t" -maxdepth 1 -type f ! -name 'README*' -delete
  cp "$out"/func_invariants/* "$out/$t/"
  echo "seeds: $out/$t: $(find "$out/$t" -maxdepth 1 -type f ! -name 'README*' | wc -l) files"
done
