#!/usr/bin/env bash
# json_roundtrip.sh — the conformance suite survives .vec -> JSON -> .vec unchanged in meaning.
#   bash tests/json_roundtrip.sh [BUILD_DIR]        (default build/release; run from anywhere)
#
#  1. builds BUILD_DIR/libtt.a and BUILD_DIR/ttconf (make);
#  2. exports every vector below conformance/ (ttconf --export-json; directories named selftest
#     are skipped, as ttconf skips them) and checks the count against `ttconf --list`;
#  3. turns every JSON document back into .vec text (conformance/json2vec.py --index);
#  4. exports the regenerated vectors again and diffs the two JSON trees byte for byte, after
#     removing the "line" members (the regenerated text has its own line numbers) and the
#     "source" member;
#  5. runs the original and the regenerated vectors through ttconf --mode both: the same
#     `ok/FAIL/skip FILE MODE` lines (paths aside) and the same summary line;
#  6. checks that the comparison is not vacuous: one regenerated vector with one expectation
#     changed must differ in step 4's comparison and must fail under ttconf;
#  7. exports tests/json/golden.vec (every member, location kind and expectation kind, escapes,
#     a value above 2^53) and requires exactly tests/json/golden.json — steps 4 and 5 cannot see
#     a mistake the exporter makes the same way twice — and round-trips it like step 4.
# Last line: `json roundtrip: ...` with PASS or FAIL; exit status 0 only on PASS.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${1:-build/release}
OUT=build/json-roundtrip
PY=${PYTHON:-python3}
WARN="-std=c11 -Wall -Wextra -Werror -Wshadow -Wswitch-enum -Wcast-qual -Wstrict-prototypes -Wundef -Wvla -Wno-missing-field-initializers"
problems=0
rm -rf "$OUT" && mkdir -p "$OUT" || { echo "json roundtrip: FAIL (cannot make $OUT)"; exit 1; }
bad() { echo "json_roundtrip: FAIL: $*"; problems=$((problems + 1)); }
give_up() { bad "$*"; echo "json roundtrip: FAIL ($problems problem(s))"; exit 1; }

# ---- 1. build -------------------------------------------------------------------------------
make --no-print-directory "$B/libtt.a" "$B/ttconf" >"$OUT/build.log" 2>&1 ||
  { cat "$OUT/build.log"; give_up "make $B/libtt.a $B/ttconf failed"; }
TC=$PWD/$B/ttconf
VJ=$TC   # ttconf --export-json

# ---- 2. export --------------------------------------------------------------------------------
"$VJ" --export-json "$OUT/json" conformance >"$OUT/export.txt" 2>&1 ||
  { cat "$OUT/export.txt"; give_up "ttconf --export-json failed on conformance/"; }
nexp=$(tail -n 1 "$OUT/export.txt" | sed -n 's/^\([0-9]*\) exported, 0 failed$/\1/p')
nlist=$("$TC" --list conformance | tail -n 1 | sed -n 's/^\([0-9]*\) vector(s) listed, 0 malformed$/\1/p')
[ -n "$nexp" ] && [ "$nexp" -gt 0 ] || give_up "export summary: $(tail -n 1 "$OUT/export.txt")"
[ "$nexp" = "$nlist" ] || bad "exported $nexp vectors, ttconf --list lists '$nlist'"
njson=$(find "$OUT/json" -name '*.json' ! -path "$OUT/json/index.json" | wc -l)
[ "$njson" -eq "$nexp" ] || bad "$njson JSON files written for $nexp vectors"

# ---- 3. back to .vec ----------------------------------------------------------------------------
"$PY" conformance/json2vec.py --index "$OUT/json/index.json" "$OUT/vec" >"$OUT/json2vec.txt" 2>&1 ||
  { cat "$OUT/json2vec.txt"; give_up "json2vec.py --index failed"; }
nvec=$(find "$OUT/vec" -name '*.vec' | wc -l)
[ "$nvec" -eq "$nexp" ] || bad "json2vec wrote $nvec .vec files for $nexp documents"

# ---- 4. export again and compare ------------------------------------------------------------------
# (in $OUT/vec the regenerated tree is named conformance/ too, so the paths in both exports agree)
(cd "$OUT/vec" && "$VJ" --export-json ../json2 conformance) >"$OUT/export2.txt" 2>&1 ||
  { cat "$OUT/export2.txt"; bad "re-export of the regenerated vectors failed"; }
normalize() {   # DIR -> DIR.norm: every JSON file without "line" members and "source"
  rm -rf "$1.norm" && cp -r "$1" "$1.norm" &&
    find "$1.norm" -name '*.json' -exec sed -i -E 's/, "line": [0-9]+\}/}/; /^  "source": /d' {} +
}
normalize "$OUT/json" && normalize "$OUT/json2" || give_up "cannot normalize the exports"
if ! diff -r "$OUT/json.norm" "$OUT/json2.norm" >"$OUT/json.diff"; then
  ndiff=$(grep -c '^diff \|^Only in ' "$OUT/json.diff")
  bad "$ndiff JSON file(s) differ after the round trip (first lines of $OUT/json.diff):"
  head -n 20 "$OUT/json.diff"
fi

# ---- 5. the runner agrees -------------------------------------------------------------------------
status_lines() {   # DIR-PREFIX FILE: ok/FAIL/skip lines with the tree's prefix removed
  grep -E '^(ok|FAIL|skip) ' "$2" | sed -E "s#^(ok|FAIL|skip)( +)$1/#\1\2#"
}
"$TC" --mode both conformance >"$OUT/ttconf-orig.txt" 2>&1
(cd "$OUT/vec" && "$TC" --mode both conformance) >"$OUT/ttconf-regen.txt" 2>&1
sum_orig=$(tail -n 1 "$OUT/ttconf-orig.txt")
sum_regen=$(tail -n 1 "$OUT/ttconf-regen.txt")
case $sum_orig in *" passed, "*) ;; *) bad "ttconf on the originals: '$sum_orig'" ;; esac
[ "$sum_orig" = "$sum_regen" ] || bad "ttconf: originals '$sum_orig', regenerated '$sum_regen'"
if ! diff <(status_lines conformance "$OUT/ttconf-orig.txt") \
          <(status_lines conformance "$OUT/ttconf-regen.txt") >"$OUT/ttconf.diff"; then
  bad "ttconf results differ per vector (first lines of $OUT/ttconf.diff):"
  head -n 20 "$OUT/ttconf.diff"
fi

# ---- 6. the comparison notices a change --------------------------------------------------------
# The first regenerated vector with an `expect tN.gpr[I] = VALUE` line gets that value's lowest
# bit flipped; step 4's comparison must see it and ttconf must fail it.
neg=$(grep -rlE '^expect t[0-2]\.gpr\[[0-9]+\] = 0x' "$OUT/vec/conformance" | sort | head -n 1)
if [ -z "$neg" ]; then
  bad "no regenerated vector has a GPR expectation to change for the negative check"
else
  rel=${neg#"$OUT/vec/"}
  mkdir -p "$OUT/neg/conformance"
  "$PY" -c '
import re, sys
text, n = re.subn(r"^(expect t[0-2]\.gpr\[[0-9]+\] = )(0x[0-9A-F]+)$",
                  lambda m: m.group(1) + "0x%X" % (int(m.group(2), 16) ^ 1),
                  open(sys.argv[1]).read(), count=1, flags=re.M)
sys.stdout.write(text)' "$neg" >"$OUT/neg/conformance/changed.vec"
  (cd "$OUT/neg" && "$VJ" --export-json json conformance/changed.vec) >/dev/null 2>&1 ||
    bad "negative check: the changed vector did not export"
  sed -E 's/, "line": [0-9]+\}/}/; /^  "source": /d' "$OUT/neg/json/conformance/changed.json" \
    >"$OUT/neg/changed.norm"
  if cmp -s "$OUT/neg/changed.norm" "$OUT/json.norm/${rel%.vec}.json"; then
    bad "negative check: changing an expectation of $rel went unnoticed by the JSON comparison"
  fi
  if "$TC" --mode both "$OUT/neg/conformance/changed.vec" >/dev/null 2>&1; then
    bad "negative check: ttconf passes $rel with a changed expectation"
  fi
fi

# ---- 7. the golden document ------------------------------------------------------------------------
G=tests/json/golden
"$VJ" --export-json "$OUT/golden" "$G.vec" >"$OUT/golden.txt" 2>&1 ||
  { cat "$OUT/golden.txt"; bad "ttconf --export-json $G.vec failed"; }
if ! diff "$G.json" "$OUT/golden/$G.json" >"$OUT/golden.diff" 2>&1; then
  bad "the export of $G.vec is not $G.json (first lines of $OUT/golden.diff):"
  head -n 20 "$OUT/golden.diff"
fi
mkdir -p "$OUT/golden-vec/tests/json"
if "$PY" conformance/json2vec.py -o "$OUT/golden-vec/$G.vec" "$G.json" &&
   (cd "$OUT/golden-vec" && "$VJ" --export-json json "$G.vec" >/dev/null); then
  cmp -s <(sed -E 's/, "line": [0-9]+\}/}/' "$G.json") \
         <(sed -E 's/, "line": [0-9]+\}/}/' "$OUT/golden-vec/json/$G.json") ||
    bad "$G.json -> json2vec.py -> ttconf --export-json is not $G.json (line numbers aside)"
else
  bad "$G.json: json2vec.py or the re-export failed"
fi

if [ "$problems" -eq 0 ]; then
  echo "json roundtrip: PASS: $nexp vectors .vec -> JSON -> .vec -> JSON identical (line numbers and source aside); ttconf --mode both: '$sum_orig' on the originals and on the regenerated vectors; golden document identical"
  exit 0
fi
echo "json roundtrip: FAIL ($problems problem(s); outputs in $OUT)"
exit 1
