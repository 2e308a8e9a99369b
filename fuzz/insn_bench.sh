#!/bin/sh
# insn_bench.sh — `make bench-insn` (and part of `make bench`): host instructions per simulated
# instruction, counted by callgrind (valgrind), per workload and mode, split into phases. The count
# is exact and does not move with the machine: it is the figure to compare before and after a
# change to the model. The wall-clock column is the same driver run natively (BENCH_INSN_TIME s).
#
# `insn_bench.sh --build` builds the driver and the fuzz-like inputs and stops (fuzz/dut_bench.sh).
# Build: $CC (default clang) -O2 -gdwarf-4 (valgrind 3.19 cannot read clang 14's DWARF 5), no
# sanitizer, model/*.c + fuzz/fz_input.c + fuzz/insn_count.c, each file its own translation unit
# (as libtt.a: no inlining across files), into build/insn/insn_count.
# Per workload x mode, one callgrind run collecting only bench_pass (fuzz/insn_count.c: one pass of
# reset, load, run over every program, after an uncollected warm-up pass); phases are inclusive
# costs per function, read from the callgrind output file (call arcs):
#   load      bench_load: knobs, init records, tt_load_program x3 (without any decoding in it)
#   reset     bench_reset: tt_reset (after a run)
#   decode    tt_decode and tt_decode_head_other wherever they run: a word at its first fetch
#             through tt_head (cycle mode; functional mode's general path), once per load, when
#             its opcode's entry does not take it. tt_decode_head's common case (one entry load,
#             one test, the copy) is inline in tt_head, and functional mode's quick issue reads
#             the word's opcode entry inline (one mask and compare): both are counted in sched
#   exec      the executors tt_exec_* and the cycle-mode Config pipeline's tt_cfg_capture,
#             tt_cfg_read_stream, tt_cfg_commit (nested calls counted once)
#   sched     bench_run (tt_run) - decode inside it - exec: gates, latches, rounds/cycles,
#             dispatch
#   run       bench_run: what tt_run costs (decode + sched + exec)
#   total     load + reset + decode + sched + exec
# Columns are host instructions per retired instruction (sum of tt_thread.retired over the runs);
# in cycle mode also per simulated cycle (tt_cycle_count summed). Output: a markdown table on
# stdout, also written to build/insn/insn_bench.md, then issue 20's goals per summary workload
# (functional run <= 60, cycle run <= 3x functional run).
set -eu
CC=${CC:-${FUZZ_CC:-clang}}
T=${BENCH_INSN_TIME:-0.5}
d=build/insn
mkdir -p "$d"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "bench-insn: valgrind not installed (host instructions per simulated instruction): sudo apt-get install -y valgrind"
  exit 0
fi
WARN="-std=c11 -Wall -Wextra -Werror -Wshadow -Wswitch-enum -Wcast-qual -Wstrict-prototypes -Wundef -Wvla -Wno-missing-field-initializers"
# shellcheck disable=SC2086
$CC -Imodel -Imodel/text -Iconformance -Icommon -D_POSIX_C_SOURCE=200809L -Ifuzz $WARN -O2 -gdwarf-4 \
  model/*.c model/text/*.c fuzz/fz_input.c fuzz/insn_count.c -ldl -o "$d/insn_count"
bin=$d/insn_count
# fuzz-like: random three-thread programs of 18 instructions per thread (fixed generator seed)
if [ -x build/fuzz-tool/func_invariants ]; then
  build/fuzz-tool/func_invariants --bench-inputs-full 200 18 "$d/fuzzlike.in" corpus/func_invariants >/dev/null 2>&1
else
  rm -f "$d/fuzzlike.in"
  echo "bench-insn: build/fuzz-tool/func_invariants not built: no fuzz-like row (make bench-insn builds it)" >&2
fi
[ "${1:-}" = --build ] && exit 0  # fuzz/dut_bench.sh: the driver and the fuzz-like inputs only

# phases FILE RETIRED CYCLES: the row's figures from a callgrind output file
phases() {
  awk -v R="$2" -v C="$3" '
    function nm(s,   id, rest) {  # "(id) name" or "(id)" (name compression) or "name"
      if (s !~ /^\(/) return s
      id = substr(s, 2, index(s, ")") - 2); rest = substr(s, index(s, ")") + 2)
      if (rest != "") names[id] = rest
      return names[id]
    }
    /^fn=/  { cur = nm(substr($0, 4)); next }
    /^cfn=/ { callee = nm(substr($0, 5)); next }
    /^calls=/ { incall = 1; next }
    /^[0-9+*-]/ {
      if (incall) { out[cur] += $2; arc[cur, callee] += $2; incall = 0 } else self[cur] += $2
      next
    }
    function isexec(f) { return f ~ /^tt_exec_/ || f == "tt_cfg_capture" || f == "tt_cfg_read_stream" || f == "tt_cfg_commit" }
    END {
      for (f in self) seen[f] = 1
      for (f in out) seen[f] = 1
      for (f in seen) {
        inc = self[f] + out[f]
        if (isexec(f)) ex += inc
        if (f == "tt_decode" || f == "tt_decode_head_other") dec += inc
      }
      for (k in arc) { split(k, p, SUBSEP); if (isexec(p[1]) && isexec(p[2])) ex -= arc[k] }
      ld = self["bench_load"] + out["bench_load"]; rs = self["bench_reset"] + out["bench_reset"]
      run = self["bench_run"] + out["bench_run"]
      decload = arc["tt_load_program", "tt_decode"] + arc["tt_load_program", "tt_decode_head_other"]; ld -= decload  # decode has its own column
      sch = run - (dec - decload) - ex
      tot = ld + rs + dec + run - (dec - decload)
      printf "%.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f", tot / R, ld / R, rs / R, dec / R, sch / R, ex / R, run / R
      if (C > 0) printf " | %.1f | %.1f", tot / C, run / C; else printf " | - | -"
    }' "$1"
}

row() {  # NAME ARGS...: one line per mode
  name=$1; shift
  for mode in func cycle; do
    out=$d/cg.$(echo "$name" | tr -c 'A-Za-z0-9_\n' '_').$mode
    valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no --toggle-collect=bench_pass \
      "$bin" --mode $mode "$@" >"$out.txt" 2>"$out.log" || { echo "| $name | $mode | callgrind failed: $out.log |"; continue; }
    r=$(sed -n 's/^insn_count: programs \([0-9]*\) reps [0-9]* retired \([0-9]*\) cycles \([0-9]*\)$/\1 \2 \3/p' "$out.txt")
    np=${r%% *}; rest=${r#* }; ret=${rest%% *}; cyc=${rest#* }
    wall=$("$bin" --mode $mode --time "$T" "$@" | sed -n 's/^insn_count: wall ns\/instr \([0-9.]*\) .*/\1/p')
    [ "$mode" = func ] && cyc=-
    echo "| $name | $mode | $np | $ret | $cyc | $(phases "$out" "$ret" "${cyc#-}") | $wall |"
  done
}

{
  echo "bench-insn: host instructions per retired instruction (callgrind $(valgrind --version | sed 's/valgrind-//'), $($CC --version | head -n 1), -O2); wall: native, ${T}s"
  echo
  echo "| workload | mode | programs | retired | cycles | total | load | reset | decode | sched | exec | run (decode+sched+exec) | total/cycle | run/cycle | wall ns/instr |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for k in corpus/kernels/*/; do
    [ -f "$k/trisc1.txt" ] || continue
    b=$(basename "$k"); row "kernel ${b%%__*}" --kernels "$k"
  done
  row "kernels (all 6)" --kernels corpus/kernels/*/
  row "seeds (corpus/func_invariants)" --inputs corpus/func_invariants
  if [ -f "$d/fuzzlike.in" ]; then row "fuzz-like (200 x 3x18 random)" --bench-file "$d/fuzzlike.in"; fi
  row "long run (1024, T0)" --long 1024
} | tee "$d/insn_bench.md"

# Issue 20's goals on the summary workloads: functional run <= 60 per retired instruction, and
# cycle run <= 3x functional run (column 13 of the rows above is run)
awk -F'|' '
  /^\| (kernels \(all 6\)|seeds|fuzz-like|long run)/ {
    w = $2; gsub(/^ +| +$/, "", w); m = $3; gsub(/ /, "", m)
    if (!(w in seen)) { seen[w] = 1; order[n++] = w }
    run[w, m] = $13 + 0
  }
  END {
    print ""
    print "| workload | functional run | cycle run | cycle / functional | functional <= 60 | ratio <= 3 |"
    print "|---|---:|---:|---:|---|---|"
    for (i = 0; i < n; i++) {
      w = order[i]; f = run[w, "func"]; c = run[w, "cycle"]
      r = f > 0 ? c / f : 0
      printf "| %s | %.1f | %.1f | %.1fx | %s | %s |\n", w, f, c, r, f <= 60 ? "yes" : "no", r <= 3 ? "yes" : "no"
    }
  }' "$d/insn_bench.md" | tee -a "$d/insn_bench.md"
