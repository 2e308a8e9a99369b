#!/usr/bin/env bash
# tests/layering.sh — model/ is layered: no file references a file of a higher layer.
#
#   bash tests/layering.sh              check model/ (exit 0: layered; 1: upward edges listed)
#   bash tests/layering.sh --edges      also print every edge between model files, by layer
#   bash tests/layering.sh --self-test  plant upward references in a copy of model/ and expect
#                                       this check to name each of them (exit 0 if it does)
#   MODEL_DIR=DIR bash tests/layering.sh   check another copy of model/ (used by --self-test)
#
# The layers (lowest first; model/README.md describes them). A file may use its own layer and
# any lower one; a reference to a higher layer is an "upward edge" and fails the check.
#   0 table       the encoding table and leaf helpers with no model dependency
#   1 state       the machine state, its single writers, faults, knob names
#   2 registry    the ambiguity registry (reads knob names from the state)
#   3 units       Sync, Config, Scalar (ThCon), Wait Gate, host port: the state and the table only
#   4 schedulers  functional (run.c) and cycle (cycle.c): call the units, never the reverse
#   5 text        assembler, listing, vector parser and checker, locations
# The folders show them: layers 0-4 (the machine) are files of model/, layer 5 those of
# model/text/; a file in the other folder than its layer's fails the check.
#
# Two kinds of edge are read:
#   calls    every model/*.c and model/text/*.c is compiled (-O0, so nothing is inlined away) into a scratch
#            directory; each object's undefined symbols that another model object defines are
#            its references to that file (nm). Every header is compiled alone as well, with
#            -fkeep-inline-functions (GCC), so the calls made by its static inline functions
#            are the header's own edges (a header calls upward for every file including it).
#   include  every `#include "X"` line of the .c, .h, .def files naming a file of model/ or
#            model/text/.
# Every file of model/ and model/text/ (.c, .h, .def) must have a row in LAYERS below: a new file fails the
# check until it is given a layer.
set -u
export LC_ALL=C

LAYER_NAMES=(table state registry units schedulers text)
# file  layer
LAYERS='
isa.c         0
isa.h         0
isa.def       0
isa_x.h       0
isa_x_end.h   0
foreign.def   0
defects.h     0
defects.def   0
chars.h       0
text.c        0
tt.h          1
knobs.def     1
internal.h    1
state.c       1
amb.c         2
profile.c     2
profiles.def  2
ambiguities.def 2
sync.c        3
config.c      3
scalar.c      3
waitgate.c    3
host.c        3
sched.h       4
run.c         4
cycle.c       4
cycle_out.c   4
cycle_skip.c  4
cycle_class.h 4
asm.h         5
asm.c         5
listing.h     5
listing.c     5
vec.h         5
vec_sb.h      5
vec_parse.h   5
vec.c         5
vec_expect.c  5
vec_run.c     5
loc.c         5
'

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# GCC: -fkeep-inline-functions (the headers' inline functions) is a GCC option
CC=${LAYERING_CC:-$(command -v gcc || echo cc)}
CFLAGS_CHECK="-std=c11 -O0 -w -I$ROOT/conformance -D_POSIX_C_SOURCE=200809L"
TEXT_LAYER=5   # the layer whose files live in model/text/

SCRATCH=$(mktemp -d) || exit 2
trap 'rm -rf "$SCRATCH"' EXIT

layer_of() {  # file name -> layer number, or empty
  awk -v f="$1" 'NF == 2 && $1 == f { print $2 }' <<<"$LAYERS"
}

# check DIR [--edges]: print upward edges of the model copy in DIR; exit 1 if any.
check() {
  local dir=$1 show=${2:-} tmp bad=0 f l
  tmp=$(mktemp -d -p "$SCRATCH") || exit 2
  # every file has a layer, and sits in its layer's folder (model/text/ for the text layer)
  for f in "$dir"/*.c "$dir"/*.h "$dir"/*.def "$dir"/text/*.c "$dir"/text/*.h "$dir"/text/*.def; do
    [ -e "$f" ] || continue
    l=$(layer_of "$(basename "$f")")
    if [ -z "$l" ]; then echo "layering: $(basename "$f") has no layer (add a row to LAYERS in tests/layering.sh)"; bad=1; continue; fi
    case $f in
      "$dir"/text/*) [ "$l" = "$TEXT_LAYER" ] || { echo "layering: $(basename "$f") ($l ${LAYER_NAMES[$l]}) is in model/text/, which holds only the text layer"; bad=1; } ;;
      *) [ "$l" != "$TEXT_LAYER" ] || { echo "layering: $(basename "$f") ($l ${LAYER_NAMES[$l]}) is in model/, not model/text/"; bad=1; } ;;
    esac
  done
  # compile (two at a time), then read the symbol tables
  local pids=() n=0 rc=0
  for f in "$dir"/*.c "$dir"/text/*.c; do
    [ -e "$f" ] || continue
    $CC $CFLAGS_CHECK -I"$dir" -I"$dir/text" -c "$f" -o "$tmp/$(basename "${f%.c}").o" 2>"$tmp/$(basename "$f").err" &
    pids+=($!)
    n=$((n + 1))
    if [ $((n % 4)) -eq 0 ]; then for p in "${pids[@]}"; do wait "$p" || rc=1; done; pids=(); fi
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  for f in "$dir"/*.h "$dir"/text/*.h; do
    [ -e "$f" ] || continue
    local b; b=$(basename "$f")
    printf '#include "%s"\n' "$b" >"$tmp/hdr_${b%.h}.c"
    $CC $CFLAGS_CHECK -fkeep-inline-functions -I"$dir" -I"$dir/text" -c "$tmp/hdr_${b%.h}.c" -o "$tmp/hdr_${b%.h}.ho" \
      2>"$tmp/$b.err" || rc=1
  done
  if [ $rc -ne 0 ]; then echo "layering: model/ does not compile:"; cat "$tmp"/*.err; return 2; fi
  # symbol -> defining file
  nm -P -A --defined-only "$tmp"/*.o | awk '$3 ~ /^[TDRBCGSV]$/ { f = $1; sub(/:$/, "", f); n = split(f, p, "/"); f = p[n]; sub(/\.o$/, ".c", f); print $2, f }' |
    sort -u >"$tmp/defs"
  # edges: "from to kind detail"
  nm -P -A -u "$tmp"/*.o "$tmp"/*.ho | awk '{ f = $1; sub(/:$/, "", f); n = split(f, p, "/"); f = p[n]
      if (f ~ /^hdr_.*\.ho$/) { sub(/^hdr_/, "", f); sub(/\.ho$/, ".h", f) } else sub(/\.o$/, ".c", f)
      print $2, f }' |
    sort -u | join - "$tmp/defs" | awk '$2 != $3 { print $2, $3, "calls", $1 }' >"$tmp/edges"
  for f in "$dir"/*.c "$dir"/*.h "$dir"/*.def "$dir"/text/*.c "$dir"/text/*.h; do
    [ -e "$f" ] || continue
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | sort -u |
      while read -r inc; do
        if [ -e "$dir/$inc" ] || [ -e "$dir/text/$inc" ]; then echo "$(basename "$f") $inc include $inc"; fi
      done
  done >>"$tmp/edges"
  # judge each edge
  local from to kind what lf lt
  sort -u "$tmp/edges" | while read -r from to kind what; do
    lf=$(layer_of "$from"); lt=$(layer_of "$to")
    [ -n "$lf" ] && [ -n "$lt" ] || continue
    if [ "$lt" -gt "$lf" ]; then
      echo "UP $from ($lf ${LAYER_NAMES[$lf]}) -> $to ($lt ${LAYER_NAMES[$lt]}) $kind $what"
    elif [ -n "$show" ]; then
      echo "ok $from ($lf ${LAYER_NAMES[$lf]}) -> $to ($lt ${LAYER_NAMES[$lt]}) $kind $what"
    fi
  done >"$tmp/judged"
  if [ -n "$show" ]; then
    echo "layering: edges between model files (calls: one line per symbol):"
    grep '^ok ' "$tmp/judged" | cut -c4- | sed 's/^/  /'
  fi
  if grep -q '^UP ' "$tmp/judged"; then
    echo "layering: upward edges (a lower layer references a higher one):"
    grep '^UP ' "$tmp/judged" | cut -c4- | sed 's/^/  /'
    bad=1
  fi
  if [ $bad -ne 0 ]; then return 1; fi
  echo "layering: model/ is layered ($(grep -c . "$tmp/edges") edges read, none upward): table < state < registry < units < schedulers (model/) < text (model/text/)"
  return 0
}

# --self-test: the check must pass on a clean copy and name each planted upward reference.
self_test() {
  local tmp out fail=0
  tmp=$(mktemp -d -p "$SCRATCH") || exit 2
  plant() {  # name, then a command run in the copy; expect the check to fail naming $2
    local name=$1 expect=$2; shift 2
    rm -rf "$tmp/m" && cp -r "$ROOT/model" "$tmp/m" && (cd "$tmp/m" && eval "$*")
    out=$(MODEL_DIR="$tmp/m" check "$tmp/m" 2>&1)
    if [ $? -eq 1 ] && grep -qF -- "$expect" <<<"$out"; then
      echo "layering self-test: $name: caught ($expect)"
    else
      echo "layering self-test: $name: NOT caught; the check said:"; echo "$out"; fail=1
    fi
  }
  rm -rf "$tmp/m" && cp -r "$ROOT/model" "$tmp/m"
  if out=$(check "$tmp/m" 2>&1); then echo "layering self-test: clean copy passes"
  else echo "layering self-test: the clean copy already fails:"; echo "$out"; fail=1; fi
  # a unit calls a scheduler (the shape of the edges this check was written against)
  plant "unit calls a scheduler" "config.c (3 units) -> cycle.c (4 schedulers) calls tt_cycle_step" \
    'printf "%s\n" "int tt_cycle_step(tt_state *st);" "int tt_layering_probe(tt_state *st);" "int tt_layering_probe(tt_state *st) { return tt_cycle_step(st); }" >>config.c'
  # the state calls the text layer
  plant "state calls the text layer" "state.c (1 state) -> vec.c (5 text) calls tt_vec_parse" \
    'printf "%s\n" "#include \"vec.h\"" "void tt_layering_probe(tt_vec *v);" "void tt_layering_probe(tt_vec *v) { tt_vec_parse(\"\", 0, v, 0); }" >>state.c'
  # a header included by the units includes the schedulers' header
  plant "unit header includes a scheduler header" "internal.h (1 state) -> sched.h (4 schedulers) include sched.h" \
    'touch sched.h && printf "%s\n" "#include \"sched.h\"" >>internal.h'
  # the folders: a text-layer file in the machine's folder
  plant "text file in the machine folder" "loc.c (5 text) is in model/, not model/text/" 'mv text/loc.c .'
  # a new file without a layer
  plant "file without a layer" "probe.c has no layer" 'printf "%s\n" "int tt_layering_probe2(void);" "int tt_layering_probe2(void) { return 0; }" >probe.c'
  return $fail
}

case "${1:-}" in
  --self-test) self_test; exit $? ;;
  --edges) check "${MODEL_DIR:-$ROOT/model}" show; exit $? ;;
  "") check "${MODEL_DIR:-$ROOT/model}"; exit $? ;;
  *) echo "usage: bash tests/layering.sh [--edges | --self-test]"; exit 2 ;;
esac
