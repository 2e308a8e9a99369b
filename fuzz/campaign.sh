#!/bin/bash
# campaign.sh TARGET... — one campaign round per target on a persistent output directory.
#   FUZZ_TIME  seconds per target (default 30)     JOBS    processes (default 2)
#   ENGINE     auto | both | libfuzzer | afl         FUZZ_OUT  output root (default fuzz/out)
# Layout: $FUZZ_OUT/<target>/libfuzzer/{corpus,crashes,log-*.txt,cov.tsv}
#         $FUZZ_OUT/<target>/afl/<main|sN>/...       (AFL++ -M/-S sync directory)
#         $FUZZ_OUT/sessions.tsv                     one line per engine and session:
#   date target engine seconds execs corpus edges crashes stability restarts features new_age
#   cycles pending_favs execs_total note
# `execs` is what THIS session executed: AFL++'s execs_done counts on across resumes, so the
# session's figure is its growth (execs_total keeps AFL++'s own cumulative count, a cross-check);
# libFuzzer's count restarts with every process, so the session's runs are added up.
# `new_age`: seconds between the session's last new coverage (libFuzzer: last NEW line or
# growth of ft:; AFL++: last_find) and its end, `-` when it found nothing new. `restarts`:
# libFuzzer processes started again after a finding; a process that aborts on a seed before
# fuzzing begins is not restarted (it would abort again) and the note says so.
# LF_BIN_DIR / AFL_BIN_DIR (default build/fuzz-lf, build/fuzz-afl) choose the binaries.
# Interrupt with Ctrl-C at any time: corpora and findings stay; the next `make fuzz` resumes
# (libFuzzer reloads its corpus directory, AFL++ resumes with AFL_AUTORESUME / -i -).
set -u
T=${FUZZ_TIME:-30}; J=${JOBS:-2}; E=${ENGINE:-auto}; O=${FUZZ_OUT:-fuzz/out}
have_afl=0
command -v afl-fuzz >/dev/null 2>&1 && [ -x "${AFL_BIN_DIR:-build/fuzz-afl}/${1:-func_invariants}" ] && have_afl=1
case $E in
  auto) [ $have_afl = 1 ] && E=both || E=libfuzzer ;;
  both|afl) [ $have_afl = 1 ] || { echo "fuzz: AFL++ is not installed (apt-get install -y afl++)"; exit 1; } ;;
  libfuzzer) ;;
  *) echo "fuzz: ENGINE must be auto, both, libfuzzer or afl"; exit 1 ;;
esac
LF=${LF_BIN_DIR:-build/fuzz-lf}; AB=${AFL_BIN_DIR:-build/fuzz-afl}
mkdir -p "$O"
HDR='date\ttarget\tengine\tseconds\texecs\tcorpus\tedges\tcrashes\tstability\trestarts\tfeatures\tnew_age\tcycles\tpending_favs\texecs_total\tnote'
if [ -f "$O/sessions.tsv" ] && ! head -n 1 "$O/sessions.tsv" | grep -q 'execs_total'; then
  # an older layout: its AFL++ figures were cumulative and cannot be summed; keep it aside
  mv "$O/sessions.tsv" "$O/sessions-old-format.tsv"
  echo "fuzz: $O/sessions.tsv had the old layout: moved to sessions-old-format.tsv (not summed)"
fi
[ -f "$O/sessions.tsv" ] || printf "$HDR\n" >"$O/sessions.tsv"
children=""
# Ctrl-C reaches every process of the group: afl-fuzz and libFuzzer save their state and exit.
# Background subshells ignore SIGINT (POSIX, no job control), so they look for the stop file.
rm -f "$O/.stop"
trap 'touch "$O/.stop"; echo; echo "fuzz: interrupted; corpora and findings kept in $O (make fuzz resumes)";
      kill $children 2>/dev/null; wait; exit 130' INT TERM

dict_of() { case $1 in text_parsers) echo build/fuzz/text.dict ;; *) echo build/fuzz/program.dict ;; esac; }
is_prog() { case $1 in func_invariants|reset_equivalence|ambiguity_diff) return 0 ;; *) return 1 ;; esac; }

run_libfuzzer() {  # target seconds jobs
  local t=$1 s=$2 j=$3 d="$O/$1/libfuzzer" start log restarts=0 note="" features=0 new_age=- execs=0
  mkdir -p "$d/corpus" "$d/crashes"
  start=$(date +%s); log="$d/log-$start.txt"
  [ -f "$d/cov.tsv" ] || printf 'epoch\texecs\tcov\tcorpus\n' >"$d/cov.tsv"
  if [ "$j" -gt 1 ]; then
    "$LF/$t" -fork="$j" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$s" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -dict="$(dict_of $t)" \
      -artifact_prefix="$d/crashes/" -print_final_stats=1 "$d/corpus" corpus/$t >"$log" 2>&1
    # "#123: cov: 45 ft: 67 corp: 89 exec/s: 10 oom/timeout/crash: 0/0/0 time: 12s job: 3 ..."
    awk -v s="$start" '/^#[0-9]+: cov: / { n=$1; gsub(/[#:]/,"",n); t=$0; sub(/.* time: /,"",t); sub(/s .*/,"",t);
         printf "%d\t%s\t%s\t%s\n", s+t, n, $3, $7 }' "$log" >>"$d/cov.tsv"
    execs=$(awk '/^#[0-9]+: cov: /{n=$1} END{gsub(/[#:]/,"",n); print n+0}' "$log")
    features=$(awk '/^#[0-9]+: cov: /{f=$5} END{print f+0}' "$log")
    # the last time ft: grew, relative to the start of the run
    local grew; grew=$(awk '/^#[0-9]+: cov: / { t=$0; sub(/.* time: /,"",t); sub(/s .*/,"",t);
         if ($5+0 > f) { f=$5+0; g=t } } END { if (g != "") print g }' "$log")
    [ -n "$grew" ] && new_age=$(( $(date +%s) - start - grew ))
    [ "$execs" -gt 0 ] || note="libFuzzer -fork ran nothing (see $log)"
  else
    # one process: plain libFuzzer (no fork overhead), restarted after a finding until the time is
    # up; every output line is stamped with the epoch second for the coverage-over-time plot
    local left=$s starts=0
    while [ "$left" -gt 0 ]; do
      local t0 mark
      t0=$(date +%s); mark=$(cat "$log" 2>/dev/null | wc -l)
      starts=$((starts + 1))
      "$LF/$t" -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -dict="$(dict_of $t)" -artifact_prefix="$d/crashes/" -print_final_stats=1 \
        "$d/corpus" corpus/$t 2>&1 | while IFS= read -r l; do printf '%s %s\n' "${EPOCHREALTIME%.*}" "$l"; done >>"$log"
      left=$((s - ($(date +%s) - start)))
      [ -e "$O/.stop" ] && break
      # this process's part of the log
      if ! tail -n +"$((mark + 1))" "$log" | grep -q 'INITED'; then
        note="aborted on a seed before fuzzing began; not restarted (a seed aborts: see $log and triage)"
        echo "fuzz: $t libfuzzer: $note"; break
      fi
      if [ $(( $(date +%s) - t0 )) -lt 2 ] && ! tail -n +"$((mark + 1))" "$log" | grep -q 'Test unit written'; then
        note="libFuzzer stopped at once (see $log)"; echo "fuzz: $t $note"; break
      fi
    done
    restarts=$((starts - 1))
    [ "$restarts" -ge 3 ] && note="${note:+$note; }restarted $restarts times after findings"
    # "1700000000 #123	NEW    cov: 45 ft: 67 corp: 8/1Kb ..." (execs restart at each restart)
    awk '$2 ~ /^#[0-9]+$/ && $4 == "cov:" { n=$2; sub(/#/,"",n); c=$9; sub(/\/.*/,"",c);
         if (n+0 < prev) base += prev; prev = n+0; printf "%d\t%d\t%s\t%s\n", $1, base+n, $5, c }' "$log" >>"$d/cov.tsv"
    # executions: per process (each starts with "INFO: Seed:"), its final
    # stat::number_of_executed_units, else its last "#N" (a process that ran nothing has neither)
    execs=$(awk 'function flush() { total += (stat != "" ? stat : last); stat = ""; last = 0 }
                 $2 == "INFO:" && $3 == "Seed:" { flush() }
                 $2 ~ /^#[0-9]+$/ { n = $2; sub(/#/, "", n); last = n + 0 }
                 $2 == "stat::number_of_executed_units:" { stat = $3 + 0 }
                 END { flush(); print total + 0 }' "$log")
    features=$(awk '$2 ~ /^#[0-9]+$/ { for (i = 3; i < NF; i++) if ($i == "ft:") f=$(i+1) } END { print f+0 }' "$log")
    local lastnew; lastnew=$(awk '$2 ~ /^#[0-9]+$/ && $3 == "NEW" { e=$1 } END { if (e != "") print e }' "$log")
    [ -n "$lastnew" ] && new_age=$(( $(date +%s) - lastnew ))
  fi
  printf '#%s: cov: %s\n' "$execs" "$(awk -F'\t' 'END{print $3}' "$d/cov.tsv")" >>"$log"
  local cov corp crashes secs
  cov=$(awk -F'\t' 'NR>1{c=$3} END{print c+0}' "$d/cov.tsv")
  corp=$(find "$d/corpus" -type f | wc -l)
  crashes=$(find "$d/crashes" -type f | wc -l)
  secs=$(( $(date +%s) - start ))
  printf '%s\t%s\tlibfuzzer\t%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\t%s\t-\t-\t-\t%s\n' "$(date -u +%FT%TZ)" "$t" "$secs" \
    "$execs" "$corp" "$cov" "$crashes" "$restarts" "$features" "$new_age" "${note:--}" >>"$O/sessions.tsv"
  echo "fuzz: $t libfuzzer: ${execs} execs in $secs s, corpus $corp, cov $cov, ft $features, crash files $crashes${note:+ ($note)}"
}

afl_sum() {  # field: the sum over every instance's fuzzer_stats in $1
  local total=0 v f
  for f in "$1"/*/fuzzer_stats; do
    [ -f "$f" ] || continue
    v=$(awk -F' *: *' -v k="$2" '$1==k{print $2+0}' "$f"); total=$((total + ${v:-0}))
  done
  echo "$total"
}

run_afl() {  # target seconds jobs
  local t=$1 s=$2 j=$3 d="$O/$1/afl" in k start pids="" before note=""
  mkdir -p "$d"
  start=$(date +%s)
  before=$(afl_sum "$d" execs_done)   # AFL++ resumes its counters: only the growth is this session's
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
        -- "$AB/$t" >"$d/$name.log" 2>&1
    ) &
    pids="$pids $!"
  done
  children="$children $pids"
  wait $pids
  local st="$d/main/fuzzer_stats" total=0 execs=0 corp=0 edges=0 crashes=0 stab=- cycles=- favs=- new_age=- lf=0
  if [ -f "$st" ]; then
    total=$(afl_sum "$d" execs_done)
    execs=$((total - before))
    corp=$(awk -F' *: *' '$1=="corpus_count"{print $2}' "$st")
    edges=$(awk -F' *: *' '$1=="edges_found"{print $2}' "$st")
    stab=$(awk -F' *: *' '$1=="stability"{print $2}' "$st")
    cycles=$(awk -F' *: *' '$1=="cycles_done"{print $2}' "$st")
    favs=$(awk -F' *: *' '$1=="pending_favs"{print $2}' "$st")
    crashes=$(find "$d" -path '*/crashes/id:*' | wc -l)
    for f in "$d"/*/fuzzer_stats; do   # the newest find of any instance (epoch seconds)
      v=$(awk -F' *: *' '$1=="last_find"{print $2+0}' "$f"); [ "${v:-0}" -gt "$lf" ] && lf=$v
    done
    [ "$lf" -ge "$start" ] && new_age=$(( $(date +%s) - lf ))
  fi
  local secs=$(( $(date +%s) - start ))
  if [ "$execs" -le 0 ]; then
    note="afl-fuzz ran nothing: $(grep -h -m1 -o 'PROGRAM ABORT.*' "$d"/*.log 2>/dev/null | head -n 1)"
  elif [ "$secs" -lt $((s / 2)) ]; then
    note="afl-fuzz ended after $secs of $s s (see $d/*.log)"
  fi
  printf '%s\t%s\tafl\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$secs" \
    "$execs" "$corp" "$edges" "$crashes" "$stab" "$new_age" "$cycles" "$favs" "$total" "${note:--}" >>"$O/sessions.tsv"
  echo "fuzz: $t afl: $execs execs in $secs s (AFL++ total $total), corpus $corp, edges $edges, cycles $cycles, pending favs $favs, stability $stab, crash files $crashes${note:+ ($note)}"
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
