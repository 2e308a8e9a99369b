#!/bin/bash
# resume-test.sh — `make fuzz-resume-test`: a campaign interrupted with Ctrl-C (SIGINT to the
# whole `make fuzz` process group) keeps its corpora and findings, and the next `make fuzz`
# resumes from them (libFuzzer reloads its corpus directory; AFL++ resumes its queue).
set -u
O=build/fuzz-resume-test
rm -rf "$O"
t=func_invariants
# A job started with & has SIGINT ignored (non-interactive shell), and make would pass that on;
# restore the default disposition, as a terminal's Ctrl-C would find it.
setsid python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
  make --no-print-directory fuzz FUZZ_TIME=40 FUZZ_TARGETS=$t FUZZ_OUT=$O FUZZ_NO_REPORT=1 >"$O.log1" 2>&1 &
pid=$!
sleep 25
kill -INT -- -"$pid" 2>/dev/null
wait "$pid"; rc=$?
lf1=$(find "$O/$t/libfuzzer/corpus" -type f 2>/dev/null | wc -l)
afl1=$(find "$O/$t/afl" -path '*/queue/id:*' 2>/dev/null | wc -l)
stopped=$(grep -c "fuzz: interrupted" "$O.log1")
echo "resume-test: interrupted (make exit $rc, campaign reported the interrupt: $stopped) after ~25 s of 40: libFuzzer corpus $lf1 files, AFL++ queue $afl1 entries"
make --no-print-directory fuzz FUZZ_TIME=15 FUZZ_TARGETS=$t FUZZ_OUT=$O FUZZ_NO_REPORT=1 >"$O.log2" 2>&1; rc2=$?
lf2=$(find "$O/$t/libfuzzer/corpus" -type f | wc -l)
afl2=$(find "$O/$t/afl" -path '*/queue/id:*' 2>/dev/null | wc -l)
resumed=$(grep -c -i "resum" "$O/$t/afl/main.log" 2>/dev/null || echo 0)
loaded=$(grep -o 'INFO: seed corpus: files: [0-9]*' "$O/$t/libfuzzer"/log-*.txt 2>/dev/null | tail -n 1)
echo "resume-test: second run (exit $rc2): libFuzzer corpus $lf2 files ($loaded), AFL++ queue $afl2 entries, AFL++ resume messages: $resumed"
ok=1
[ "$rc" -ne 0 ] && [ "$stopped" -ge 1 ] || ok=0
[ "$lf1" -gt 0 ] && [ "$lf2" -ge "$lf1" ] || ok=0
if command -v afl-fuzz >/dev/null 2>&1; then [ "$afl1" -gt 0 ] && [ "$afl2" -ge "$afl1" ] || ok=0; fi
[ $rc2 -eq 0 ] || ok=0
[ $ok = 1 ] && echo "resume-test: ok: nothing lost, the campaign resumed" || echo "resume-test: FAIL"
[ $ok = 1 ]
