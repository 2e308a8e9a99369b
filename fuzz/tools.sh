#!/bin/sh
# tools.sh — `make fuzz` prerequisites. Required: clang with libFuzzer (clang-14 +
# libclang-rt-14-dev), llvm-14 (llvm-profdata/llvm-cov), gnuplot, zip. Optional: AFL++
# (afl++): without it the campaign uses libFuzzer only. As root, anything missing is
# installed with apt-get; otherwise this stops and prints the one command to run.
set -u
CC=${FUZZ_CC:-clang}; AFL=${AFL_CC:-afl-clang-fast}
missing=""
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp/t.c"
command -v "$CC" >/dev/null 2>&1 || missing="$missing clang"   # `clang` (Debian 12: clang-14)
"$CC" -fsanitize=fuzzer "$tmp/t.c" -o "$tmp/t" >/dev/null 2>&1 || missing="$missing libclang-rt-14-dev"
command -v llvm-profdata-14 >/dev/null 2>&1 || missing="$missing llvm-14"
command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
command -v zip >/dev/null 2>&1 || missing="$missing zip"
optional=""
{ command -v "$AFL" >/dev/null 2>&1 && command -v afl-fuzz >/dev/null 2>&1; } || optional="afl++"
if [ -z "$missing" ] && [ -z "$optional" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "fuzz: installing:$missing $optional"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing $optional >/dev/null \
    || { echo "fuzz: apt-get install failed"; exit 1; }
  exit 0
fi
if [ -n "$missing" ]; then
  echo "fuzz: missing tools; run:  sudo apt-get install -y$missing $optional"
  exit 1
fi
echo "fuzz: AFL++ not installed: libFuzzer only (for both engines: sudo apt-get install -y afl++)"
exit 0
