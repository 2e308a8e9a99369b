#!/bin/sh
# triage.sh TARGET... — every crash file a campaign left in $FUZZ_OUT (libFuzzer crashes/,
# AFL++ */crashes/ and */hangs/) is replayed through the ASan/UBSan replay build and put in a
# bucket: `INVARIANT <name>`, `SANITIZER <kind>`, `HANG`, `CRASH` or `not-reproducible`.
# Buckets are de-duplicated per target. The first input of a new invariant bucket is
# minimised at instruction granularity (build/fuzz-tool/<t> --minimize: NOP masking, prefix
# cut into init lines) and written as corpus/reproducers/<t>/<name>-<sha8>.vec with an
# `# open: <name>` line, so `make test` replays it forever (expecting it to fire until the
# fix deletes that line). Sanitizer/hang/crash inputs cannot be kept open in-process: they go
# to corpus/reproducers-pending/<t>/ (not replayed; move them to corpus/reproducers/ with the
# fix). Summary: $FUZZ_OUT/triage.tsv.
set -u
O=${FUZZ_OUT:-fuzz/out}
mkdir -p "$O"
sum="$O/triage.tsv"
printf 'target\tbucket\tinputs\treproducer\tstatus\n' >"$sum"
for t in "$@"; do
  files=$( { find "$O/$t/libfuzzer/crashes" -type f 2>/dev/null;
             find "$O/$t/afl" -path '*/crashes/id:*' -type f 2>/dev/null;
             find "$O/$t/afl" -path '*/hangs/id:*' -type f 2>/dev/null; } | sort)
  [ -n "$files" ] || continue
  tmp=$(mktemp)
  for f in $files; do
    out=$(timeout 30 build/replay/$t --abort "$f" 2>&1); rc=$?
    if [ $rc -eq 0 ]; then b="not-reproducible"
    elif [ $rc -eq 124 ]; then b="HANG"
    else
      b=$(printf '%s\n' "$out" | sed -n 's/^INVARIANT \([A-Za-z0-9_]*\):.*/INVARIANT \1/p' | head -n 1)
      [ -n "$b" ] || b=$(printf '%s\n' "$out" | sed -n 's/.*AddressSanitizer: \([a-z-]*\).*/SANITIZER asan-\1/p' | head -n 1)
      [ -n "$b" ] || b=$(printf '%s\n' "$out" | sed -n 's/^\([^ ]*\): runtime error:.*/SANITIZER ubsan-\1/p' | head -n 1 | tr '/' '_')
      [ -n "$b" ] || b="CRASH"
    fi
    printf '%s\t%s\n' "$b" "$f" >>"$tmp"
  done
  cut -f1 "$tmp" | sort | uniq -c | while read -r count bucket; do
    first=$(awk -F'\t' -v b="$bucket" '$1==b{print $2; exit}' "$tmp")
    name=$(printf '%s' "$bucket" | sed 's/^INVARIANT //; s/^SANITIZER //; s/[^A-Za-z0-9_.-]/_/g')
    h=$(sha1sum <"$first" | cut -c1-8)
    case $bucket in
      not-reproducible)
        printf '%s\t%s\t%s\t-\tnot reproducible in the replay build\n' "$t" "$bucket" "$count" >>"$sum"; continue ;;
      INVARIANT*)
        existing=$(ls corpus/reproducers/$t/$name-*.vec 2>/dev/null | head -n 1)
        if [ -n "$existing" ]; then
          printf '%s\t%s\t%s\t%s\tknown (duplicate)\n' "$t" "$bucket" "$count" "$existing" >>"$sum"; continue
        fi
        mkdir -p corpus/reproducers/$t
        rep=corpus/reproducers/$t/$name-$h.vec
        if build/fuzz-tool/$t --minimize "$first" "$rep" >/dev/null 2>"$O/minimize-$t-$name.log"; then
          printf '%s\t%s\t%s\t%s\tnew: minimized (%s)\n' "$t" "$bucket" "$count" "$rep" \
            "$(sed -n 's/^minimize: [^:]*: //p' "$O/minimize-$t-$name.log" | head -n 1)" >>"$sum"
        else
          rep=corpus/reproducers/$t/$name-$h.bin
          cp "$first" "$rep"
          printf '%s\t%s\t%s\t%s\tnew: kept as found (not minimized)\n' "$t" "$bucket" "$count" "$rep" >>"$sum"
        fi ;;
      *)
        existing=$(ls corpus/reproducers-pending/$t/$name-* 2>/dev/null | head -n 1)
        if [ -n "$existing" ]; then
          printf '%s\t%s\t%s\t%s\tknown (duplicate)\n' "$t" "$bucket" "$count" "$existing" >>"$sum"; continue
        fi
        mkdir -p corpus/reproducers-pending/$t
        rep=corpus/reproducers-pending/$t/$name-$h
        cp "$first" "$rep"
        printf '%s\t%s\t%s\t%s\tnew: pending (process-killing; replayed once fixed)\n' "$t" "$bucket" "$count" "$rep" >>"$sum" ;;
    esac
  done
  rm -f "$tmp"
done
n=$(($(wc -l <"$sum") - 1))
echo "fuzz: triage: $n bucket(s)$( [ $n -gt 0 ] && printf ': '; tail -n +2 "$sum" | cut -f1,2,5 | tr '\t\n' ' ;')"
