#!/usr/bin/env bash
# conformance/selftest/run.sh — checks the conformance runner itself on deliberately broken
# vectors: every malformed file is reported as `FILE:LINE: message`, counts as failed, and the
# runner keeps going; failing expectations show expected and actual values; the summary line
# and exit status are right; directories named `selftest` are skipped unless named explicitly.
#
# usage: conformance/selftest/run.sh [TTCONF]     (default: build/asan/ttconf)
# Each fixture in broken/ states what the runner must print, in its first line:
#   # selftest: error LINE TEXT   -> a line `FILE:LINE: ...TEXT...`
#   # selftest: fail LINE TEXT    -> `FAIL FILE  func` and `    FILE:LINE: ...TEXT...`
#   # selftest: ok                -> `ok   FILE  func`
# Prints `N passed, N failed` (its own checks); exit status 0 only when all passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ttconf=${1:-build/asan/ttconf}
case $ttconf in /*) ;; *) ttconf=$root/$ttconf ;; esac
cd "$root" || exit 2
if [ ! -x "$ttconf" ]; then
  echo "selftest: runner $ttconf not built (make $ttconf)" >&2
  exit 2
fi

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "selftest: FAIL: $*"; }
has_line() { grep -qxF -- "$1" <<<"$out"; }
has_prefix_sub() { # $1 prefix, $2 substring: some line starts with $1 and contains $2
  awk -v p="$1" -v s="$2" 'index($0, p) == 1 && index(substr($0, length(p) + 1), s) { f = 1 } END { exit !f }' <<<"$out"
}

dir=conformance/selftest/broken
missing=conformance/selftest/no-such-file.vec
out=$("$ttconf" --mode func "$dir" "$missing" 2>&1)
rc=$?

want_pass=0 want_fail=0
order=()
for f in $(cd "$dir" && LC_ALL=C ls -1 -- *.vec); do
  path=$dir/$f
  order+=("$path")
  spec=$(head -n 1 "$path")
  read -r _hash _tag kind line text <<<"$spec"
  case $kind in
  error)
    want_fail=$((want_fail + 1))
    if has_prefix_sub "$path:$line: " "$text"; then ok; else bad "$path: no line '$path:$line: ...$text...'"; fi
    if grep -qF -- "ok   $path " <<<"$out" || grep -qF -- "FAIL $path " <<<"$out"; then
      bad "$path: malformed file was also run"
    else ok; fi
    ;;
  fail)
    want_fail=$((want_fail + 1))
    if has_line "FAIL $path  func"; then ok; else bad "$path: no 'FAIL $path  func' line"; fi
    if has_prefix_sub "    $path:$line: " "$text"; then ok; else bad "$path: no failed expectation '    $path:$line: ...$text...'"; fi
    ;;
  ok)
    want_pass=$((want_pass + 1))
    if has_line "ok   $path  func"; then ok; else bad "$path: no 'ok   $path  func' line"; fi
    ;;
  *) bad "$path: first line must be '# selftest: error|fail|ok ...'" ;;
  esac
done

# the unreadable path is reported and counted, and does not stop anything
want_fail=$((want_fail + 1))
if has_prefix_sub "$missing: " "cannot open"; then ok; else bad "no '$missing: cannot open' line"; fi

# files appear in sorted order (the runner is deterministic)
seen=$(grep -oE "conformance/selftest/broken/[A-Za-z0-9_]+\.vec" <<<"$out" | awk '!s[$0]++')
if [ "$seen" = "$(printf '%s\n' "${order[@]}")" ]; then ok; else bad "files not reported in sorted order"; fi

# summary line and exit status
last=$(tail -n 1 <<<"$out")
if [ "$last" = "$want_pass passed, $want_fail failed" ]; then ok; else bad "summary '$last', wanted '$want_pass passed, $want_fail failed'"; fi
if [ "$rc" -eq 1 ]; then ok; else bad "exit status $rc, wanted 1"; fi

# `selftest` directories are skipped while recursing, but run when named explicitly
listed=$("$ttconf" --list conformance 2>&1)
if grep -q "selftest" <<<"$listed"; then bad "a default run over conformance/ reaches selftest/"; else ok; fi
listed=$("$ttconf" --list conformance/selftest 2>&1)
if grep -qF "conformance/selftest/broken/zz_still_runs.vec" <<<"$listed"; then ok; else bad "explicit conformance/selftest is not searched"; fi

# a passing-only run exits 0 and prints no failure count beyond zero
out=$("$ttconf" --mode func "$dir/zz_still_runs.vec" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = "1 passed, 0 failed" ]; then ok; else bad "single valid vector: rc $rc, '$(tail -n 1 <<<"$out")'"; fi

# nothing ran is an error (exit 3) with a reason on stderr, never a quiet success
empty=$(mktemp -d)
err=$("$ttconf" --mode both "$empty" 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 3 ] && grep -qF "$empty: no .vec file found" <<<"$err"; then ok; else bad "empty directory: exit $rc, stderr '$err' (wanted 3 and 'no .vec file found')"; fi
out=$("$ttconf" --mode both "$empty" "$dir/zz_still_runs.vec" 2>/dev/null); rc=$?
if [ "$rc" -eq 3 ] && [ "$(tail -n 1 <<<"$out")" = "1 passed, 0 failed" ]; then ok
else bad "an empty PATH next to a good one: exit $rc, '$(tail -n 1 <<<"$out")' (wanted 3, '1 passed, 0 failed')"; fi
printf 'name: cycle only\nmode: cycle\nt0: NOP\nexpect t0 done\n' >"$empty/cycle_only.vec"
printf 'name: func only\nmode: func\nt0: NOP\nexpect t0 done\n' >"$empty/func_only.vec"
out=$("$ttconf" --mode func "$empty/cycle_only.vec" 2>/tmp/selftest.err.$$); rc=$?
if [ "$rc" -eq 3 ] && [ "$(tail -n 1 <<<"$out")" = "0 passed, 0 failed" ] && grep -q "ran no vector" /tmp/selftest.err.$$; then ok
else bad "--mode func on a cycle-only vector: exit $rc, '$(tail -n 1 <<<"$out")' (wanted 3)"; fi
out=$("$ttconf" --mode cycle "$empty/func_only.vec" 2>/dev/null); rc=$?
if [ "$rc" -eq 3 ]; then ok; else bad "--mode cycle on a func-only vector: exit $rc (wanted 3)"; fi
# --mode cycle on a vector of both modes: 3 while the build has no cycle mode (all skipped), else 0
printf 'name: both modes\nt0: NOP\nexpect t0 done\n' >"$empty/both.vec"
out=$("$ttconf" --mode cycle "$empty/both.vec" 2>/dev/null); rc=$?
case "$(tail -n 1 <<<"$out")" in
  "0 passed, 0 failed, 1 skipped") [ "$rc" -eq 3 ] && ok || bad "--mode cycle, every run skipped: exit $rc (wanted 3)" ;;
  "1 passed, 0 failed") [ "$rc" -eq 0 ] && ok || bad "--mode cycle, one pass: exit $rc (wanted 0)" ;;
  *) bad "--mode cycle on a vector of both modes: '$(tail -n 1 <<<"$out")'" ;;
esac
# the default (both) reports skips in the summary and still succeeds when something passed
out=$("$ttconf" "$empty/func_only.vec" 2>/dev/null); rc=$?
if [ "$rc" -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = "1 passed, 0 failed" ]; then ok; else bad "default mode, func-only vector: exit $rc '$(tail -n 1 <<<"$out")'"; fi
rm -rf "$empty" /tmp/selftest.err.$$

# bad command lines
"$ttconf" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 2 ]; then ok; else bad "no PATH: exit status $rc, wanted 2"; fi
"$ttconf" --mode fast "$dir" >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 2 ]; then ok; else bad "--mode fast: exit status $rc, wanted 2"; fi

if [ "$fail" -ne 0 ]; then
  echo "---- runner output ----"
  "$ttconf" --mode func "$dir" "$missing" 2>&1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
