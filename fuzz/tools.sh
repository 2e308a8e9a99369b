#!/bin/sh
# tools.sh [fuzz|test] — the tools `make fuzz` (default) or `make test` needs.
#   test: clang with libFuzzer (Debian 12: clang, clang-14, libclang-rt-14-dev) and python3
#         (the JSON round trip and the Python example implementation)
#   fuzz: the same, plus llvm-14 (llvm-profdata/llvm-cov), gnuplot and zip; AFL++ (afl++) is
#         optional: without it the campaign uses libFuzzer only.
# As root, anything missing is installed with apt-get. As any other user nothing is installed:
# it stops and prints the one command to run (then run the make command again).
set -u
what=${1:-fuzz}
CC=${FUZZ_CC:-clang}; AFL=${AFL_CC:-afl-clang-fast}
missing=""
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp/t.c"
command -v "$CC" >/dev/null 2>&1 || missing="$missing clang"   # `clang` (Debian 12: clang-14)
"$CC" -fsanitize=fuzzer "$tmp/t.c" -o "$tmp/t" >/dev/null 2>&1 || missing="$missing libclang-rt-14-dev"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
optional=""
if [ "$what" = fuzz ]; then
  command -v llvm-profdata-14 >/dev/null 2>&1 || missing="$missing llvm-14"
  command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
  command -v zip >/dev/null 2>&1 || missing="$missing zip"
  { command -v "$AFL" >/dev/null 2>&1 && command -v afl-fuzz >/dev/null 2>&1; } || optional="afl++"
fi
if [ -z "$missing" ] && [ -z "$optional" ]; then exit 0; fi
pkgs=$(echo $missing $optional)
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "$what: installing: $pkgs"
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null 2>&1 \
    || { echo "$what: apt-get install failed"; exit 1; }
  exit 0
fi
if [ -n "$missing" ]; then
  echo "$what: missing tools; run this, then the make command again:"
  echo "  sudo apt-get install -y $pkgs"
  exit 1
fi
echo "$what: AFL++ not installed: libFuzzer only (for both engines: sudo apt-get install -y afl++)"
exit 0
