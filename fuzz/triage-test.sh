#!/bin/bash
# triage-test.sh — `make triage-test` (part of `make test`): a finding on a model with a planted
# defect, triaged as a campaign's finding is, gives a reproducer that states what the invariant
# required. For each row ID:INVARIANT:KIND:HOW below:
#   1. build/fuzz-defect-<ID>/func_invariants finds an input that reports INVARIANT (`--fire`;
#      HOW=seed: from the seed corpus, the crash file is that seed's file; HOW=mutation: from one
#      unrelated seed by structured mutation), which is dropped where libFuzzer leaves crashes.
#      An optional fifth field names where HOW=seed looks instead of corpus/func_invariants:
#      BUDGET_OVERRUN names one seed of that corpus, because the first one that reports it
#      since the corpus was regenerated (002dc551...) is a program whose extra round changes
#      no location, which triage rightly leaves replay-only; 00da7f3d... is the seed this row
#      triaged before, into a vector;
#   2. fuzz/triage.sh runs on it with the defect's replay/minimiser builds;
#   3. KIND=conformance: the reproducer is a .vec with expect lines that FAILS under the runner
#      built with the defect (build/defect-<ID>/ttconf) and PASSES under
#      `make conformance VEC=<file>` (the correct model); KIND=replay: it is a .fzvec that says
#      why no expectation can state it, and the defect's replay build still reports it;
#   4. both: the triage row names the bucket and the origin (seed / mutation), and the `# open:`
#      replay rule holds (the defect still reports it, the correct model does not).
set -u
W=build/triage-test
rm -rf "$W"; mkdir -p "$W"
ROWS="CFG_GLOBAL_ONE_BANK:banked_writes:conformance:seed
CFG_BANK0_ONLY:banked_writes:conformance:seed
SEM_NO_SATURATE:semaphore_bounds:conformance:mutation
SEMGET_WRAPS:semaphore_bounds:conformance:seed
MUTEX1_VALID:mutex_ownership:conformance:seed
ATRELM_NONOWNER:mutex_ownership:conformance:seed
RDCFG_OTHER_THREAD:thread_isolation:conformance:seed
BUDGET_OVERRUN:budget_respected:conformance:seed:corpus/func_invariants/00da7f3d9d32dd5d0fc5800505ec5384cb7bebbc
NONDETERMINISTIC:determinism:replay:seed"
t=func_invariants
fail=0; n=0
bad() { echo "triage-test: FAIL $id: $*"; fail=$((fail + 1)); }
for row in $ROWS; do
  IFS=: read -r id inv kind how from <<<"$row"
  n=$((n + 1))
  d=$W/$id; bin=build/fuzz-defect-$id/$t
  mkdir -p "$d/out/$t/libfuzzer/crashes"
  if [ "$how" = seed ]; then
    msg=$("$bin" --fire "$inv" --runs 0 --save "$d/found" "${from:-corpus/$t}" 2>&1)
  else
    msg=$("$bin" --fire "$inv" --runs 20000 --save "$d/found" fuzz/seeds/llk_cfg_write_stallwait.vec 2>&1)
  fi
  [ $? -eq 0 ] || { bad "no input found: $msg"; continue; }
  case $msg in
    *"reported by seed "*) src=${msg#*reported by seed }; src=${src%% *} ;;   # the seed file itself
    *) src=$d/found ;;
  esac
  cp "$src" "$d/out/$t/libfuzzer/crashes/crash-$(sha1sum <"$src" | cut -c1-40)"
  FUZZ_OUT=$d/out TRIAGE_REPLAY=build/fuzz-defect-$id TRIAGE_TOOL=build/fuzz-defect-$id \
    REPRO_DIR=$d/repro PENDING_DIR=$d/pending sh fuzz/triage.sh $t >"$d/triage.log" 2>&1
  row_tsv=$(awk -F'\t' -v b="INVARIANT $inv" '$2 == b' "$d/out/triage.tsv")
  [ -n "$row_tsv" ] || { bad "triage.tsv has no 'INVARIANT $inv' bucket: $(cat "$d/triage.log")"; continue; }
  origin=$(cut -f6 <<<"$row_tsv")
  case $origin in "$how"*) ;; *) bad "origin '$origin', wanted $how"; continue ;; esac
  rep=$(cut -f4 <<<"$row_tsv")
  if [ "$kind" = conformance ]; then
    case $rep in *.vec) ;; *) bad "reproducer $rep is not a conformance vector ($(cut -f5 <<<"$row_tsv"))"; continue ;; esac
    grep -q '^expect ' "$rep" || { bad "$rep has no expect line"; continue; }
    build/defect-$id/ttconf "$rep" >"$d/buggy.txt" 2>&1; rb=$?
    if [ $rb -ne 1 ] || ! grep -q "^FAIL $rep  func" "$d/buggy.txt"; then
      bad "on the defective model the reproducer did not fail (exit $rb): $(cat "$d/buggy.txt")"; continue
    fi
    make --no-print-directory conformance VEC="$rep" >"$d/clean.txt" 2>&1; rc=$?
    if [ $rc -ne 0 ] || [ "$(tail -n 1 "$d/clean.txt")" != "1 passed, 0 failed" ]; then
      bad "make conformance VEC=$rep on the correct model: exit $rc: $(tail -n 3 "$d/clean.txt")"; continue
    fi
    what=$(grep -m1 '^    ' "$d/buggy.txt" | sed 's/^ *[^ ]*: //')
  else
    case $rep in *.fzvec) ;; *) bad "reproducer $rep should be replay-only (.fzvec)"; continue ;; esac
    grep -q '^# Replay only' "$rep" || { bad "$rep does not say why it is replay-only"; continue; }
    if grep -q '^expect ' "$rep"; then bad "$rep has expect lines"; continue; fi
    what="replay only: $(sed -n 's/^#   \(.*\)\.$/\1/p' "$rep" | head -n 1)"
  fi
  # the open-finding rule: the defect still reports it, the correct model no longer does
  "$bin" "$rep" >"$d/open.txt" 2>&1 || { bad "the defective build does not report the open finding: $(cat "$d/open.txt")"; continue; }
  if build/replay/$t "$rep" >"$d/fixed.txt" 2>&1 || ! grep -q "no longer reported" "$d/fixed.txt"; then
    bad "the correct model should report 'open finding no longer reported': $(cat "$d/fixed.txt")"; continue
  fi
  echo "triage-test: ok   $inv on $id ($how): $(basename "$rep"): $what"
  # de-duplication: triaged again, the finding is a duplicate of the open reproducer; once that
  # reproducer is fixed (its `# open:` line removed), the same finding counts as new again
  if [ "$id" = CFG_GLOBAL_ONE_BANK ]; then
    tri() { FUZZ_OUT=$d/out TRIAGE_REPLAY=build/fuzz-defect-$id TRIAGE_TOOL=build/fuzz-defect-$id \
              REPRO_DIR=$d/repro PENDING_DIR=$d/pending sh fuzz/triage.sh $t >"$d/triage2.log" 2>&1
            awk -F'\t' -v b="INVARIANT $inv" '$2 == b { print $5 }' "$d/out/triage.tsv"; }
    st2=$(tri)
    case $st2 in "known (duplicate)") ;; *) bad "triaged again with the reproducer open: '$st2', wanted known (duplicate)" ;; esac
    sed -i '/^# open:/d' "$rep"
    st3=$(tri)
    case $st3 in new:*) echo "triage-test: ok   de-duplication: an open reproducer makes it known; a fixed one does not ($st3)" ;;
      *) bad "triaged again with the reproducer fixed: '$st3', wanted new" ;; esac
  fi
done
echo "triage-test: $((n - fail)) of $n planted findings triaged into reproducers that behave as documented"
[ $fail -eq 0 ]
