#!/bin/sh
# triage.sh TARGET... — every crash file a campaign left in $FUZZ_OUT (libFuzzer crashes/,
# AFL++ */crashes/ and */hangs/) is replayed through the ASan/UBSan replay build and put in a
# bucket: `INVARIANT <name>`, `SANITIZER <kind>`, `HANG`, `CRASH` or `not-reproducible`.
# Buckets are de-duplicated per target: an invariant bucket is "known (duplicate)" only while
# a reproducer of it is still open (has its `# open:` line); once every one of them is fixed, a
# new finding of that invariant is a new bug. The first input of a new invariant bucket is
# minimised at instruction granularity (build/fuzz-tool/<t> --minimize: NOP masking, prefix
# cut into init lines) and written with an `# open: <name>` line, so `make test` replays it
# forever (expecting it to fire until the fix deletes that line), as
#   corpus/reproducers/<t>/<name>-<sha8>.vec    a conformance vector whose `expect` lines state
#        what the invariant required: `make conformance VEC=FILE` fails on the model with the
#        bug and passes once it is fixed (checked on the buggy model when written), or
#   corpus/reproducers/<t>/<name>-<sha8>.fzvec  replay only, when no end-state expectation can
#        state the finding (the file says why; build/replay/<t> FILE reproduces it).
# Sanitizer/hang/crash inputs cannot be kept open in-process: they go to
# corpus/reproducers-pending/<t>/ (not replayed; move them to corpus/reproducers/ with the
# fix). Each input's origin is recorded: `seed` when it is byte-identical to a file of the
# seed corpus corpus/<t>/ (the engines run those first), else `mutation` (AFL++: with the
# stage that produced it). Summary: $FUZZ_OUT/triage.tsv.
# Overridable (the triage test plants a defect): TRIAGE_REPLAY (dir of the replay builds,
# default build/replay), TRIAGE_TOOL (dir of the minimiser builds, default build/fuzz-tool),
# REPRO_DIR (default corpus/reproducers), PENDING_DIR (default corpus/reproducers-pending),
# SEED_DIR (default corpus).
set -u
O=${FUZZ_OUT:-fuzz/out}
RB=${TRIAGE_REPLAY:-build/replay}; TB=${TRIAGE_TOOL:-build/fuzz-tool}
RD=${REPRO_DIR:-corpus/reproducers}; PD=${PENDING_DIR:-corpus/reproducers-pending}; SD=${SEED_DIR:-corpus}
mkdir -p "$O"
sum="$O/triage.tsv"
printf 'target\tbucket\tinputs\treproducer\tstatus\torigin\n' >"$sum"
# origin of one crash file of target $1: seed (byte-identical to a seed) or mutation
origin_of() {
  h=$(sha1sum <"$2" | cut -d' ' -f1)
  if [ -f "$SD/$1/$h" ]; then echo "seed $SD/$1/$h"; return; fi   # seeds are named by SHA-1
  case $(basename "$2") in
    id:*op:*) op=${2##*op:}; echo "mutation (AFL++ ${op%%,*})" ;;
    *) echo "mutation" ;;
  esac
}
for t in "$@"; do
  files=$( { find "$O/$t/libfuzzer/crashes" -type f 2>/dev/null;
             find "$O/$t/afl" -path '*/crashes/id:*' -type f 2>/dev/null;
             find "$O/$t/afl" -path '*/hangs/id:*' -type f 2>/dev/null; } | sort)
  [ -n "$files" ] || continue
  tmp=$(mktemp)
  for f in $files; do
    out=$({ timeout 30 "$RB/$t" --abort "$f"; } 2>&1); rc=$?   # grouped: the shell's "Aborted" goes into out
    if [ $rc -eq 0 ]; then b="not-reproducible"
    elif [ $rc -eq 124 ]; then b="HANG"
    else
      b=$(printf '%s\n' "$out" | sed -n 's/^INVARIANT \([A-Za-z0-9_]*\):.*/INVARIANT \1/p' | head -n 1)
      [ -n "$b" ] || b=$(printf '%s\n' "$out" | sed -n 's/.*AddressSanitizer: \([a-z-]*\).*/SANITIZER asan-\1/p' | head -n 1)
      [ -n "$b" ] || b=$(printf '%s\n' "$out" | sed -n 's/^\([^ ]*\): runtime error:.*/SANITIZER ubsan-\1/p' | head -n 1 | tr '/' '_')
      [ -n "$b" ] || b="CRASH"
    fi
    printf '%s\t%s\t%s\n' "$b" "$f" "$(origin_of "$t" "$f")" >>"$tmp"
  done
  cut -f1 "$tmp" | sort | uniq -c | while read -r count bucket; do
    first=$(awk -F'\t' -v b="$bucket" '$1==b{print $2; exit}' "$tmp")
    # origin: of the kept input, and how many of the bucket came from seeds / mutations
    orig=$(awk -F'\t' -v b="$bucket" '$1==b { if ($3 ~ /^seed/) s++; else m++; if (!k) k=$3 }
      END { printf "%s; %d from seeds, %d from mutations", k, s, m }' "$tmp")
    name=$(printf '%s' "$bucket" | sed 's/^INVARIANT //; s/^SANITIZER //; s/[^A-Za-z0-9_.-]/_/g')
    h=$(sha1sum <"$first" | cut -c1-8)
    case $bucket in
      not-reproducible)
        printf '%s\t%s\t%s\t-\tnot reproducible in the replay build\t%s\n' "$t" "$bucket" "$count" "$orig" >>"$sum"; continue ;;
      INVARIANT*)
        # a duplicate only of a reproducer still open (`# open:`, the bug not yet fixed): one
        # whose fix removed that line passes now, so a new finding of the same invariant is a
        # different bug and is kept
        existing=$(grep -l '^# open:' "$RD/$t/$name"-*.vec "$RD/$t/$name"-*.fzvec 2>/dev/null | head -n 1)
        if [ -n "$existing" ]; then
          printf '%s\t%s\t%s\t%s\tknown (duplicate)\t%s\n' "$t" "$bucket" "$count" "$existing" "$orig" >>"$sum"; continue
        fi
        mkdir -p "$RD/$t"
        rep=$RD/$t/$name-$h.vec
        if kind=$("$TB/$t" --minimize "$first" "$rep" 2>"$O/minimize-$t-$name.log"); then
          how=$(sed -n 's/^minimize: [^:]*: //p' "$O/minimize-$t-$name.log" | head -n 1)
          case $kind in
            *conformance*)
              printf '%s\t%s\t%s\t%s\tnew: minimized, expect lines (make conformance VEC=%s fails until fixed): %s\t%s\n' \
                "$t" "$bucket" "$count" "$rep" "$rep" "$how" "$orig" >>"$sum" ;;
            *)
              mv "$rep" "${rep%.vec}.fzvec"; rep=${rep%.vec}.fzvec
              printf '%s\t%s\t%s\t%s\tnew: minimized, replay only (%s/%s FILE): %s\t%s\n' \
                "$t" "$bucket" "$count" "$rep" "$RB" "$t" "$how" "$orig" >>"$sum" ;;
          esac
        else
          rep=$RD/$t/$name-$h.bin
          cp "$first" "$rep"
          printf '%s\t%s\t%s\t%s\tnew: kept as found (not minimized)\t%s\n' "$t" "$bucket" "$count" "$rep" "$orig" >>"$sum"
        fi ;;
      *)
        existing=$(ls "$PD/$t/$name"-* 2>/dev/null | head -n 1)
        if [ -n "$existing" ]; then
          printf '%s\t%s\t%s\t%s\tknown (duplicate)\t%s\n' "$t" "$bucket" "$count" "$existing" "$orig" >>"$sum"; continue
        fi
        mkdir -p "$PD/$t"
        rep=$PD/$t/$name-$h
        cp "$first" "$rep"
        printf '%s\t%s\t%s\t%s\tnew: pending (process-killing; replayed once fixed)\t%s\n' "$t" "$bucket" "$count" "$rep" "$orig" >>"$sum" ;;
    esac
  done
  rm -f "$tmp"
done
# ambiguity_diff keeps its findings (witnesses) as coverage, not as crash files
# (fuzz/ambiguity_diff.c): collect them from the campaign corpus and minimise each knob value's
# witness that has no reproducer in $RD/ambiguity_diff/ yet into $O/ambiguity_diff/witnesses/
# (`make amb-witnesses` and `make reports-ambiguities` publish them).
case " $* " in *" ambiguity_diff "*)
  wdirs=$(ls -d "$O/ambiguity_diff/libfuzzer/corpus" "$O"/ambiguity_diff/afl/*/queue 2>/dev/null)
  if [ -n "$wdirs" ] && [ -x "$TB/ambtool" ]; then
    mkdir -p "$O/ambiguity_diff/witnesses"
    wline=$("$TB/ambtool" collect "$O/ambiguity_diff/witnesses" "$RD/ambiguity_diff" $wdirs 2>&1 | tail -n 1)
    nw=$(find "$O/ambiguity_diff/witnesses" -name '*.vec' | wc -l)
    printf 'ambiguity_diff\twitnesses\t%s\t%s\t%s\tcampaign corpus\n' "$nw" "$O/ambiguity_diff/witnesses" \
      "${wline#ambtool collect: }" >>"$sum"
  fi ;;
esac
n=$(($(wc -l <"$sum") - 1))
echo "fuzz: triage: $n bucket(s)$( [ $n -gt 0 ] && printf ': '; tail -n +2 "$sum" | cut -f1,2,4 | tr '\t\n' ' ;')"
