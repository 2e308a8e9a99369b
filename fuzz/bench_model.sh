#!/bin/bash
# bench_model.sh — `make bench-model BASE=<commit>` (also run by `make bench`): the model's speed
# at BASE next to the working tree's, side by side in one run.
#
# The same bench program (fuzz/model_speed.c, from the working tree) is compiled twice with the
# same compiler and flags: once against the working tree's model/ and fuzz/fz_input.c (the
# Makefile's build/fuzz-bench/model_speed), once against BASE's model/ and fuzz/fz_input.c
# (git archive BASE -> build/base/<hash>/src, built here; each copy of the bench is compiled
# against its own library's headers, so a changed tt_state layout is fine). Both binaries run
# alternately on the same input files, one workload at a time, BENCH_MODEL_ROUNDS rounds
# (default 21) of short measurements (BENCH_MODEL_TIME, default 0.2 s per mode): base new in
# odd rounds, new base in even ones, so a drift in the load of a shared machine cancels. The
# table gives the median of each side's instr/s and runs/s, and new/base: the median of the
# per-round ratios (each pairs two runs back to back), with their quartiles. Model only: no
# engine, no invariant checks.
#
# Environment: BASE (default cb7cff8, the commit before the speed work), BENCH_MODEL_TIME,
# BENCH_MODEL_ROUNDS, BENCH_INPUTS (fuzz-like programs per file, default 4000); BENCH_CC,
# BENCH_CFLAGS, BENCH_LIB_CFLAGS (set by the Makefile: the fuzz-tool flags).
set -eu
BASE=${BASE:-cb7cff8}
T=${BENCH_MODEL_TIME:-0.2}; ROUNDS=${BENCH_MODEL_ROUNDS:-21}; N=${BENCH_INPUTS:-4000}; MAXPT=${BENCH_MAX_PER_THREAD:-64}
CC=${BENCH_CC:-clang}
CFLAGS=${BENCH_CFLAGS:?set by the Makefile}; LIBCFLAGS=${BENCH_LIB_CFLAGS:?set by the Makefile}
NEW=build/fuzz-bench/model_speed
GEN=build/fuzz-tool/func_invariants

if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "bench-model: skipped: no git repository here (the base model comes from the history)"; exit 0
fi
if ! hash=$(git rev-parse --verify -q "$BASE^{commit}"); then
  echo "bench-model: skipped: BASE=$BASE is not a commit of this repository (shallow clone?)"; exit 0
fi
for f in "$NEW" "$GEN"; do
  [ -x "$f" ] || { echo "bench-model: $f missing (make bench-model builds it)"; exit 2; }
done

# ---- the base model: BASE's model/ and fuzz/ (fz_input.c, fz.h), same compiler and flags ----
dir=build/base/$hash
stamp="$CC $LIBCFLAGS"
if [ ! -f "$dir/libtt.a" ] || [ "$(cat "$dir/flags" 2>/dev/null)" != "$stamp" ]; then
  echo "bench-model: building the model of $BASE ($hash) in $dir"
  rm -rf "$dir"; mkdir -p "$dir/src" "$dir/obj"
  git archive "$hash" model fuzz/fz.h fuzz/fz_input.c | tar -x -C "$dir/src"
  export CC LIBCFLAGS dir
  # shellcheck disable=SC2016
  ls "$dir"/src/model/*.c "$dir"/src/model/text/*.c 2>/dev/null | xargs -P 2 -n 1 sh -c \
    '$CC -I"$dir/src/model" -I"$dir/src/model/text" -D_POSIX_C_SOURCE=200809L $LIBCFLAGS -c "$1" -o "$dir/obj/$(basename "$1" .c).o"' sh
  $CC -I"$dir/src/model" -I"$dir/src/model/text" -D_POSIX_C_SOURCE=200809L $LIBCFLAGS -c "$dir/src/fuzz/fz_input.c" -o "$dir/fz_input.o"
  ar rcs "$dir/libtt.a.tmp" "$dir"/obj/*.o && mv "$dir/libtt.a.tmp" "$dir/libtt.a"
  echo "$stamp" >"$dir/flags"
fi
# the bench program itself, from the working tree (with its record reader, fz_records.h, and
# the file reader it uses, common/files.h), next
# to BASE's fz.h (its "fz.h" resolves there)
cp fuzz/model_speed.c fuzz/fz_records.h common/files.h "$dir/src/fuzz/"
$CC -I"$dir/src/model" -I"$dir/src/model/text" -I"$dir/src/fuzz" -D_POSIX_C_SOURCE=200809L $CFLAGS "$dir/src/fuzz/model_speed.c" \
  "$dir/fz_input.o" "$dir/libtt.a" -o "$dir/model_speed"
OLD=$dir/model_speed

# ---- the inputs: fixed (the generator's seed is fixed), the same file for both ----------------
d=build/fuzz/bench-model
mkdir -p "$d"
$GEN --bench-inputs "$N" "$MAXPT" "$d/seeds.in" corpus/func_invariants 2>/dev/null
$GEN --bench-inputs-full "$N" "$MAXPT" "$d/full.in" corpus/func_invariants 2>/dev/null
wl_args() {  # workload -> model_speed arguments
  case $1 in
    seeds) echo --seeds "$d/seeds.in" ;;
    full) echo --full "$d/full.in" ;;
    kernels) echo --kernels corpus/kernels/*/ ;;
  esac
}

new_desc="working tree (HEAD $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- model fuzz/fz_input.c fuzz/fz.h 2>/dev/null || echo ', with uncommitted changes to model/ or fz_input'))"
echo "bench-model: the model alone (no engine, no invariant checks), base = $BASE ($(git log -1 --format='%h %cs' "$hash")), new = $new_desc"
echo "bench-model: same bench program, compiler ($CC) and flags (those of build/fuzz-tool, -O2), same inputs; $ROUNDS rounds, each workload run by base and new in turn (ABBA), ${T}s per mode and run; medians, and new/base = median (quartiles) of the per-round ratios; $(nproc) CPU(s), $(date -u +%FT%TZ)"
raw=$d/raw.tsv
: >"$raw"
for r in $(seq 1 "$ROUNDS"); do
  order="base new"; [ $((r % 2)) -eq 0 ] && order="new base"   # ABBA: drift cancels
  for wl in seeds full kernels; do
    for who in $order; do
      bin=$NEW; [ "$who" = base ] && bin=$OLD
      # shellcheck disable=SC2046
      if ! "$bin" --tsv --no-phases --time "$T" $(wl_args "$wl") >"$d/one.tsv"; then
        echo "bench-model: $bin failed on the $wl workload"; exit 1
      fi
      sed "s/^/$r\t$who\t/" "$d/one.tsv" >>"$raw"
    done
  done
done
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print 0 }'; }
printf '%-8s %-10s %14s %14s %9s %13s   %12s %12s\n' workload mode "base M instr/s" "new M instr/s" "new/base" "(quartiles)" "base k runs/s" "new k runs/s"
for wl in seeds full kernels; do
  for mode in functional cycle; do
    sel() { awk -F'\t' -v w="$wl" -v m="$mode" -v who="$1" -v col="$2" '$2 == who && $4 == w && $5 == m { print $col }' "$raw"; }
    bi=$(sel base 6 | median); ni=$(sel new 6 | median)
    br=$(sel base 7 | median); nr=$(sel new 7 | median)
    # new/base: the median of the per-round ratios (each round's base and new ran back to back),
    # with their quartiles
    ratio=$(awk -F'\t' -v w="$wl" -v m="$mode" '$4 == w && $5 == m { v[$1 "," $2] = $6; r[$1] = 1 }
      END { for (k in r) if (v[k ",base"] > 0) print v[k ",new"] / v[k ",base"] }' "$raw" | sort -g |
      awk '{ v[NR] = $1 } END { if (!NR) print "0 -"; else printf "%.4f %.2f-%.2f\n", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }')
    awk -v w="$wl" -v m="$mode" -v bi="$bi" -v ni="$ni" -v br="$br" -v nr="$nr" -v ra="${ratio% *}" -v rg="${ratio#* }" 'BEGIN {
      printf "%-8s %-10s %14.2f %14.2f %8.2fx %13s   %12.1f %12.1f\n", w, m, bi / 1e6, ni / 1e6, ra, "(" rg ")", br / 1e3, nr / 1e3 }'
  done
done
