#!/bin/bash
# campaign.sh TARGET... — one campaign round per target on a persistent output directory.
#   FUZZ_TIME  seconds per target (default 30)     JOBS    processes (default 2)
#   ENGINE     auto | both | libfuzzer | afl         FUZZ_OUT  output root (default fuzz/out)
# Layout: $FUZZ_OUT/<target>/libfuzzer/{corpus,crashes,log-*.txt,cov.tsv}
#         $FUZZ_OUT/<target>/afl/<main|sN>/...       (AFL++ -M/-S sync directory)
#         $FUZZ_OUT/sessions.tsv                     one line per engine and session
# Interrupt with Ctrl-C at any time: corpora and findings stay; the next `make fuzz` resumes
# (libFuzzer reloads its corpus directory, AFL++ resumes with AFL_AUTORESUME / -i -).
set -u
T=${FUZZ_TIME:-30}; J=${JOBS:-2}; E=${ENGINE:-auto}; O=${FUZZ_OUT:-fuzz/out}
have_afl=0
command -v afl-fuzz >/dev/null 2>&1 && [ -x build/fuzz-afl/func_invariants ] && have_afl=1
case $E in
  auto) [ $have_afl = 1 ] && E=both || E=libfuzzer ;;
  both|afl) [ $have_afl = 1 ] || { echo "fuzz: AFL++ is not installed (apt-get install -y afl++)"; exit 1; } ;;
  libfuzzer) ;;
  *) echo "fuzz: ENGINE must be auto, both, libfuzzer or afl"; exit 1 ;;
esac
mkdir -p "$O"
[ -f "$O/sessions.tsv" ] || printf 'date\ttarget\tengine\tseconds\texecs\tcorpus\tedges\tcrashes\tstability\n' >"$O/sessions.tsv"
children=""
# Ctrl-C reaches every process of the group: afl-fuzz and libFuzzer save their state and exit.
# Background subshells ignore SIGINT (POSIX, no job control), so they look for the stop file.
rm -f "$O/.stop"
trap 'touch "$O/.stop"; echo; echo "fuzz: interrupted; corpora and findings kept in $O (make fuzz resumes)";
      kill $children 2>/dev/null; wait; exit 130' INT TERM

dict_of() { case $1 in text_parsers) echo build/fuzz/text.dict ;; *) echo build/fuzz/program.dict ;; esac; }
is_prog() { case $1 in func_invariants|reset_equivalence) return 0 ;; *) return 1 ;; esac; }

run_libfuzzer() {  # target seconds jobs
  local t=$1 s=$2 j=$3 d="$O/$1/libfuzzer" start log
  mkdir -p "$d/corpus" "$d/crashes"
  start=$(date +%s); log="$d/log-$start.txt"
  [ -f "$d/cov.tsv" ] || printf 'epoch\texecs\tcov\tcorpus\n' >"$d/cov.tsv"
  if [ "$j" -gt 1 ]; then
    build/fuzz-lf/$t -fork="$j" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$s" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -dict="$(dict_of $t)" \
      -artifact_prefix="$d/crashes/" -print_final_stats=1 "$d/corpus" corpus/$t >"$log" 2>&1
    # "#123: cov: 45 ft: 67 corp: 89 exec/s: 10 oom/timeout/crash: 0/0/0 time: 12s job: 3 ..."
    awk -v s="$start" '/^#[0-9]+: cov: / { n=$1; gsub(/[#:]/,"",n); t=$0; sub(/.* time: /,"",t); sub(/s .*/,"",t);
         printf "%d\t%s\t%s\t%s\n", s+t, n, $3, $7 }' "$log" >>"$d/cov.tsv"
  else
    # one process: plain libFuzzer (no fork overhead), restarted after a finding until the time is
    # up; every output line is stamped with the epoch second for the coverage-over-time plot
    local left=$s base=0 last
    while [ "$left" -gt 0 ]; do
      local t0=$(date +%s)
      build/fuzz-lf/$t -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -dict="$(dict_of $t)" -artifact_prefix="$d/crashes/" -print_final_stats=1 \
        "$d/corpus" corpus/$t 2>&1 | while IFS= read -r l; do printf '%s %s\n' "${EPOCHREALTIME%.*}" "$l"; done >>"$log"
      last=$(awk '$2 ~ /^#[0-9]+$/ {n=$2} END{sub(/#/,"",n); print n+0}' "$log")
      left=$((s - ($(date +%s) - start)))
      [ -e "$O/.stop" ] && break
      if [ $(( $(date +%s) - t0 )) -lt 2 ] && ! grep -q 'Test unit written' "$log"; then
        echo "fuzz: $t libfuzzer stopped at once; see $log"; break
      fi
    done
    # "1700000000 #123	NEW    cov: 45 ft: 67 corp: 8/1Kb ..." (execs restart at each restart)
    awk '$2 ~ /^#[0-9]+$/ && $4 == "cov:" { n=$2; sub(/#/,"",n); c=$9; sub(/\/.*/,"",c);
         if (n+0 < prev) base += prev; prev = n+0; printf "%d\t%d\t%s\t%s\n", $1, base+n, $5, c }' "$log" >>"$d/cov.tsv"
    printf '#%s: cov: %s\n' "$(awk -F'\t' 'END{print $2}' "$d/cov.tsv")" "$(awk -F'\t' 'END{print $3}' "$d/cov.tsv")" >>"$log"
  fi
  local execs cov corp crashes
  execs=$(awk '/^#[0-9]+: cov: /{n=$1} END{gsub(/[#:]/,"",n); print n+0}' "$log")
  cov=$(awk '/^#[0-9]+: cov: /{c=$3} END{print c+0}' "$log")
  corp=$(find "$d/corpus" -type f | wc -l)
  crashes=$(find "$d/crashes" -type f | wc -l)
  printf '%s\t%s\tlibfuzzer\t%s\t%s\t%s\t%s\t%s\t-\n' "$(date -u +%FT%TZ)" "$t" "$(( $(date +%s) - start ))" \
    "$execs" "$corp" "$cov" "$crashes" >>"$O/sessions.tsv"
  echo "fuzz: $t libfuzzer: ${execs} execs in $(( $(date +%s) - start )) s, corpus $corp, cov $cov, crash files $crashes"
}

run_afl() {  # target seconds jobs
  local t=$1 s=$2 j=$3 d="$O/$1/afl" in k start pids=""
  mkdir -p "$d"
  start=$(date +%s)
  for k in $(seq 0 $((j - 1))); do
    local name=main role=-M
    [ $k -gt 0 ] && { name=s$k; role=-S; }
    in=corpus/$t
    [ -d "$d/$name/queue" ] && in=-
    (
      export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_AUTORESUME=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
             AFL_SUPPRESS_IO_ERROR=1
      is_prog $t && export AFL_CUSTOM_MUTATOR_LIBRARY=build/fuzz-tool/afl-mutator.so
      exec afl-fuzz -i "$in" -o "$d" $role $name -x "$(dict_of $t)" -V "$s" -t 2000+ -m none \
        -- build/fuzz-afl/$t >"$d/$name.log" 2>&1
    ) &
    pids="$pids $!"
  done
  children="$children $pids"
  wait $pids
  local st="$d/main/fuzzer_stats" execs=0 corp=0 edges=0 crashes=0 stab=-
  if [ -f "$st" ]; then
    for f in "$d"/*/fuzzer_stats; do execs=$((execs + $(awk -F' *: *' '$1=="execs_done"{print $2}' "$f"))); done
    corp=$(awk -F' *: *' '$1=="corpus_count"{print $2}' "$st")
    edges=$(awk -F' *: *' '$1=="edges_found"{print $2}' "$st")
    stab=$(awk -F' *: *' '$1=="stability"{print $2}' "$st")
    crashes=$(find "$d" -path '*/crashes/id:*' | wc -l)
  fi
  printf '%s\t%s\tafl\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$(( $(date +%s) - start ))" \
    "$execs" "$corp" "$edges" "$crashes" "$stab" >>"$O/sessions.tsv"
  echo "fuzz: $t afl: $execs execs in $(( $(date +%s) - start )) s, corpus $corp, edges $edges, stability $stab, crash files $crashes"
}

for t in "$@"; do
  [ -e "$O/.stop" ] && exit 130
  echo "fuzz: $t for ${T}s on $J job(s), engine $E"
  case $E in
    libfuzzer) run_libfuzzer $t "$T" "$J" ;;
    afl) run_afl $t "$T" "$J" ;;
    both)
      if [ "$J" -le 1 ]; then
        run_libfuzzer $t $((T / 2)) 1
        run_afl $t $((T - T / 2)) 1
      else
        lj=$((J / 2)); aj=$((J - J / 2))
        run_libfuzzer $t "$T" "$lj" & lf=$!
        children="$children $lf"
        run_afl $t "$T" "$aj"
        wait $lf
        [ -e "$O/.stop" ] && { echo "fuzz: interrupted; corpora and findings kept in $O (make fuzz resumes)"; exit 130; }
      fi ;;
  esac
done
exit 0
