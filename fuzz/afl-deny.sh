#!/bin/sh
# afl-deny.sh — print the AFL_LLVM_DENYLIST of the AFL++ builds (Makefile: build/fuzz/afl-deny.txt).
# AFL++ 4.04c's instrumentation ignores -fsanitize-coverage-ignorelist and the
# no_sanitize("coverage") attribute, so the list names what the libFuzzer builds leave out:
# fuzz/sancov-ignore.txt, and every function of fuzz/*.c declared FZ_BOOKKEEPING. AFL++ matches
# names across all files, so a name that a model/ source also defines is left out (the model's
# function stays instrumented) and reported on stderr.
set -eu
cat fuzz/sancov-ignore.txt
echo "# FZ_BOOKKEEPING functions of fuzz/*.c"
sed -n 's/^FZ_BOOKKEEPING[^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' fuzz/*.c | sort -u |
while read -r f; do
  if grep -q "^[a-z].*[ *]$f(" model/*.c model/text/*.c; then
    echo "afl-deny.sh: $f is also a model/ function: left instrumented" >&2
  else
    echo "fun:$f"
  fi
done
