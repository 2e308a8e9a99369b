#!/bin/sh
# dut_bench.sh SO... — `make bench-dut`: implementations under test (conformance/ttdut.h) side by
# side on the same instruction streams, in host instructions per instruction (callgrind: exact,
# independent of the machine), and wall-clock ns per instruction measured in the same run.
#
# The streams are bench-insn's workloads (fuzz/insn_bench.sh: the six kernels, the seeds of
# corpus/func_invariants, 200 fuzz-like programs, one long run of 1024), made the same for every
# given implementation (fuzz/insn_count.c, --same-as): the words one of them does not accept
# (ttdut_ops.accepts) are dropped, then each thread's stream is cut where one of them stops
# running it the same way (issued count, first fault), until they all run it to the same end
# (outcome, issued counts, no fault), else the program is dropped. Column "words dropped": the
# words not accepted + the words cut. Fuzz inputs' init records and knobs are
# not passed (--dut). Functional mode only (the mode every implementation has).
#
# Per workload and implementation, one callgrind run of fuzz/insn_count.c --dut collecting only
# bench_pass (after an uncollected warm-up pass):
#   issued    the sum of ttdut_result's issued counts: instructions that passed the Wait Gate
#   run()     the implementation's run() (bench_dut_run, inclusive) per issued instruction: its
#             whole run, including its adapter's own bookkeeping
#   core      per issued instruction, the implementation's functions that do the work of an
#             instruction, called from outside themselves (inclusive), for the implementations
#             this script knows:
#               model.so  tt_run (scheduler, Wait Gate, decode, executors)
#               ttsim.so  tensix_push_inst + tensix_decode_and_execute (its instruction push and
#                         its decode and execute; the rounds are the adapter's)
#             "-" for any other
#   wall      native ns per issued instruction of the same passes (BENCH_DUT_TIME s)
# Output: a markdown table on stdout, also written to build/insn/dut_bench.md.
set -eu
T=${BENCH_DUT_TIME:-0.5}
d=build/insn
[ $# -ge 1 ] || { echo "usage: dut_bench.sh IMPLEMENTATION.so..." >&2; exit 2; }
if ! command -v valgrind >/dev/null 2>&1; then
  echo "bench-dut: valgrind not installed (host instructions per instruction): sudo apt-get install -y valgrind"
  exit 0
fi
sh fuzz/insn_bench.sh --build
bin=$d/insn_count
filter=""
for so in "$@"; do
  [ -f "$so" ] || { echo "bench-dut: $so: no such file" >&2; exit 2; }
  filter="$filter --same-as $so"
done

# incl FILE PATTERN...: inclusive cost of the calls into functions whose name begins with one of
# the patterns, from callers whose name begins with none of them (callgrind's call arcs)
incl() {
  f=$1; shift
  awk -v pats="$*" '
    BEGIN { np = split(pats, pat, " ") }
    function nm(s,   id, rest) {  # "(id) name" or "(id)" (name compression) or "name"
      if (s !~ /^\(/) return s
      id = substr(s, 2, index(s, ")") - 2); rest = substr(s, index(s, ")") + 2)
      if (rest != "") names[id] = rest
      return names[id]
    }
    function hit(n,   i) { for (i = 1; i <= np; i++) if (index(n, pat[i]) == 1) return 1; return 0 }
    /^fn=/  { cur = nm(substr($0, 4)); next }
    /^cfn=/ { callee = nm(substr($0, 5)); next }
    /^calls=/ { incall = 1; next }
    /^[0-9+*-]/ { if (incall && hit(callee) && !hit(cur)) sum += $NF; incall = 0 }
    END { printf "%.0f", sum }' "$f"
}

core_of() {  # the core functions of a known implementation
  case $(basename "$1") in
    model.so) echo "tt_run" ;;
    ttsim.so) echo "tensix_push_inst( tensix_decode_and_execute(" ;;
    *) echo "" ;;
  esac
}

row() {  # NAME ARGS...: one line per implementation
  name=$1; shift
  for so in $DUTS; do
    impl=$(basename "$so" .so)
    out=$d/cgdut.$(echo "$name" | tr -c 'A-Za-z0-9_\n' '_').$impl
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no --toggle-collect=bench_pass \
      "$bin" --mode func --dut "$so" $filter "$@" >"$out.txt" 2>"$out.log" || { echo "| $name | $impl | callgrind failed: $out.log |"; continue; }
    drop=$(sed -n 's/^insn_count: same streams: dropped \([0-9]*\) words, cut \([0-9]*\), dropped \([0-9]*\) programs$/\1+\2 \3/p' "$out.txt")
    np=$(sed -n 's/^insn_count: programs \([0-9]*\) .*/\1/p' "$out.txt")
    iss=$(sed -n 's/^insn_count: programs [0-9]* reps [0-9]* retired \([0-9]*\) .*/\1/p' "$out.txt")
    run=$(incl "$out" bench_dut_run)
    pats=$(core_of "$so")
    # shellcheck disable=SC2086
    wall=$("$bin" --mode func --dut "$so" $filter --time "$T" "$@" | sed -n 's/^insn_count: wall ns\/instr \([0-9.]*\) .*/\1/p')
    if [ -n "$pats" ]; then core=$(incl "$out" $pats); else core=-; fi
    echo "$name $impl $np $drop $iss $run $core $wall" | awk '{
      c = $8 == "-" ? "-" : sprintf("%.1f", $8 / $6)
      printf "| %s | %s | %s | %s | %s | %s | %.1f | %s | %s |\n", $1, $2, $3, $5, $4, $6, $7 / $6, c, $9 }'
  done
}

DUTS="$*"
{
  echo "bench-dut: host instructions per issued instruction, functional mode (callgrind $(valgrind --version | sed 's/valgrind-//')); wall: native, ${T}s"
  echo
  echo "| workload | implementation | programs | programs dropped | words dropped + cut | issued | run() | core | wall ns/instr |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
  row kernels --kernels corpus/kernels/*/
  row seeds --inputs corpus/func_invariants
  if [ -f "$d/fuzzlike.in" ]; then row fuzz-like --bench-file "$d/fuzzlike.in"; fi
  row long-run --long 1024
} | tee "$d/dut_bench.md"
