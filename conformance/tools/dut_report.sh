#!/usr/bin/env bash
# dut_report.sh — the conformance report of an implementation under test (make dut-report):
#   1. the suite through `ttconf --dut`, per folder and mode: passed / failed / not comparable,
#      and why runs and expectations were not comparable;
#   2. a dut_diff campaign (libFuzzer, fixed seed, TTDUT_COLLECT) that keeps the first inputs of
#      each kind of divergence; each is minimised into a reproducer;
#   3. every divergence of the suite and of the campaign sorted into classes by the
#      implementation's class table (CLASSES: id, verdict, AMB id, spec page, a pattern, a
#      curated reproducer, title, explanation); each class with its reproducer (assembly and
#      hex), both end states side by side (the reproducer run on the model and on the
#      implementation), the page that decides it and the verdict. What no class matches is
#      listed as unclassified, never dropped.
# usage: dut_report.sh DUT NAME OUT.md [CLASSES.tsv]
#   DUT: the implementation's shared object, or cmd:COMMAND (one that speaks the line protocol)
#   env: FUZZ_TIME (campaign seconds, default 60; 0 skips the campaign), FUZZ_SEED (default 1),
#        CAMPAIGN_ARGS (given to the implementation's open for the campaign, e.g. ttsim's
#        refuse-faults, so that the campaign is not spent on words it only reports as undefined)
set -u
dut=$1 name=$2 out=$3 classes=${4:-}
fuzz_time=${FUZZ_TIME:-60}
seed=${FUZZ_SEED:-1}
work=build/dut-report/$name
repro_dir=$(dirname "$out")/$name
ttconf=build/release/ttconf
rm -rf "$work" "$repro_dir"
mkdir -p "$work" "$repro_dir"
# DUT: a shared object, or cmd:COMMAND for an implementation that speaks the line protocol
if [[ $dut == cmd:* ]]; then
  dutopt=(--dut-cmd "${dut#cmd:}") dutenv=("TTDUT_CMD=${dut#cmd:}")
else
  [ -f "$dut" ] || { echo "dut-report: $dut: no such file" >&2; exit 2; }
  dutopt=(--dut "$dut") dutenv=("TTDUT=$dut")
fi
[ -z "$classes" ] || [ -f "$classes" ] || { echo "dut-report: $classes: no such file" >&2; exit 2; }

# ---- 1. the suite ----------------------------------------------------------------------------
folders=$(cd conformance && for d in */; do d=${d%/}; case $d in selftest|tools|dut) ;; *) [ -n "$(find "$d" -name '*.vec' | head -n 1)" ] && echo "$d" ;; esac; done)
summary() { tail -n 1 "$1" | awk '{p=$1; f=$3; n=0; for (i=1;i<=NF;i++) if ($(i)=="not" && $(i+1) ~ /^comparable/) n=$(i-1); if (p !~ /^[0-9]+$/) {p=0; f=0} printf "%s %s %s", p, f, n}'; }
ident=""
for d in $folders; do
  for m in func cycle; do
    "$ttconf" --mode "$m" "${dutopt[@]}" "conformance/$d" >"$work/suite-$d-$m.txt" 2>"$work/suite-$d-$m.err"
    [ -n "$ident" ] || ident=$(sed -n 's/^implementation under test: //p' "$work/suite-$d-$m.txt" | head -n 1)
  done
done
cat "$work"/suite-*-*.txt >"$work/suite-all.txt"

# ---- 2. the campaign -------------------------------------------------------------------------
camp_note="no campaign (FUZZ_TIME=0)"
if [ "$fuzz_time" -gt 0 ]; then
  make --no-print-directory build/fuzz-lf/dut_diff build/fuzz-tool/dut_diff >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; echo "dut-report: building dut_diff failed" >&2; exit 1; }
  mkdir -p "$work/corpus" "$work/collect"
  env "${dutenv[@]}" TTDUT_ARGS=${CAMPAIGN_ARGS:-} TTDUT_COLLECT=$work/collect build/fuzz-lf/dut_diff -max_total_time="$fuzz_time" \
    -seed="$seed" -print_final_stats=1 "$work/corpus" fuzz/seeds >"$work/campaign.log" 2>&1
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/campaign.log" | tail -n 1)
  ncoll=$(find "$work/collect" -name '*.bin' | wc -l)
  camp_note="dut_diff (libFuzzer, \`-seed=$seed\`, $fuzz_time s, $execs executions from \`fuzz/seeds\`${CAMPAIGN_ARGS:+, the implementation opened with \`$CAMPAIGN_ARGS\`}): $ncoll diverging inputs kept ($(ls "$work/collect" | sed 's/-[0-9]*\.bin$//' | sort -u | wc -l) kinds, up to 4 each)"
  for f in $(find "$work/collect" -name '*.bin' | sort); do
    b=$(basename "$f" .bin)
    env "${dutenv[@]}" TTDUT_ARGS=${CAMPAIGN_ARGS:-} build/fuzz-tool/dut_diff --minimize "$f" "$work/collect/$b.vec" >"$work/collect/$b.min" 2>&1 || rm -f "$work/collect/$b.vec"
  done
fi

# ---- 3. classes ------------------------------------------------------------------------------
# class table rows: id verdict amb page pattern reproducer title explanation (TAB-separated)
rows() { [ -n "$classes" ] && grep -v '^#' "$classes" | grep -v '^[[:space:]]*$'; }
classify() {  # $1: text; prints the first class id whose pattern matches, or "unclassified"
  local id pat
  while IFS=$'\t' read -r id _v _a _p pat _r _t _e; do
    if grep -qE -- "$pat" <<<"$1"; then echo "$id"; return; fi
  done < <(rows)
  echo unclassified
}
# suite failures: one record per failed run (FILE MODE, then its indented lines)
awk -v dir="$work" '
  /^FAIL / { if (rec) print rec > (dir "/fails.txt"); rec = $2 "\t" $3; next }
  /^(ok|n\/c|skip) / { if (rec) print rec > (dir "/fails.txt"); rec = ""; next }
  /^    / && rec { sub(/^    /, ""); if ($0 !~ /not comparable:/) rec = rec "\t" $0; next }
  END { if (rec) print rec > (dir "/fails.txt") }' "$work/suite-all.txt"
touch "$work/fails.txt"
: >"$work/fails-classified.tsv"
while IFS= read -r line; do
  printf '%s\t%s\n' "$(classify "$line")" "$line" >>"$work/fails-classified.tsv"
done <"$work/fails.txt"
: >"$work/nc-classified.tsv"
{ grep -E '^    .*: not comparable: ' "$work/suite-all.txt"; grep -A1 '^n/c ' "$work/suite-all.txt" | grep '^    '; } |
  sed -E 's/^    //' | sort -u | while IFS= read -r line; do
  c=$(classify "$line"); [ "$c" = unclassified ] || printf '%s\t%s\n' "$c" "$line" >>"$work/nc-classified.tsv"
done
: >"$work/campaign-classified.tsv"
for v in $(find "$work/collect" -name '*.vec' 2>/dev/null | sort); do
  msg=$(sed -n 's/^# INVARIANT //p' "$v" | head -n 1)
  n=$(grep -c '^t[0-2]:' "$v")
  printf '%s\t%s\t%s\t%s\n' "$(classify "$msg"$'\n'"$(grep -E '^(t[0-2]:|init|knob)' "$v")")" "$n" "$v" "$msg" >>"$work/campaign-classified.tsv"
done

# the header and stream lines of a vector, each instruction with its word (ttasm -a)
with_hex() {
  grep -E '^(knob:|init |t[0-2]:|mode:)' "$1" | while IFS= read -r l; do
    case $l in
      t[0-2]:*)
        th=${l%%:*} text=${l#*:}; text=${text%%#*}; text=$(sed 's/^ *//; s/ *$//' <<<"$text")
        w=$(printf '%s\n' "$text" | build/release/ttasm -a - 2>/dev/null | head -n 1)
        printf '%s: %-12s %s\n' "$th" "${w:-?}" "$text" ;;
      *) echo "$l" ;;
    esac
  done
}

# ---- the page ----------------------------------------------------------------------------------
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
echo "# Conformance report: $name"
echo
echo "Generated by \`make dut-report\` (conformance/tools/dut_report.sh) from tensix-harness \`$rev\`."
if [[ $dut == cmd:* ]]; then  # the adapter's path, not the machine's (a checkout's path follows it)
  what=$(tr ' ' '\n' <<<"${dut#cmd:}" | grep -m1 -E '\.(py|sh|pl|rb|js)$' | sed "s|^$PWD/||")
  echo "Implementation under test: **${ident:-unknown}** (a process: \`${what:-${dut#cmd:}}\`)."
else
  echo "Implementation under test: **${ident:-unknown}** (\`$(basename "$dut")\`)."
fi
echo "Regenerate it with the command in [conformance/README.md](../../conformance/README.md#implementations-under-test);"
echo "the campaign part depends on time and machine, the suite part does not."
echo
echo "## The suite"
echo
echo "Every vector of \`conformance/\` in both modes through \`ttconf --dut\`. *n/c*: not comparable — the"
echo "implementation cannot run the vector (mode, knob, init location, an instruction word it refuses)"
echo "or cannot observe any of its expectations."
echo
echo "| folder | func passed | func failed | func n/c | cycle passed | cycle failed | cycle n/c |"
echo "|---|---:|---:|---:|---:|---:|---:|"
tp=(0 0 0 0 0 0)
for d in $folders; do
  read -r fp ff fn <<<"$(summary "$work/suite-$d-func.txt")"
  read -r cp cf cn <<<"$(summary "$work/suite-$d-cycle.txt")"
  echo "| \`$d/\` | $fp | $ff | $fn | $cp | $cf | $cn |"
  tp=($((tp[0] + fp)) $((tp[1] + ff)) $((tp[2] + fn)) $((tp[3] + cp)) $((tp[4] + cf)) $((tp[5] + cn)))
done
echo "| **all** | **${tp[0]}** | **${tp[1]}** | **${tp[2]}** | **${tp[3]}** | **${tp[4]}** | **${tp[5]}** |"
echo
echo "Why runs were not comparable (the first reason of each n/c run, counted):"
echo
echo '```'
grep -A1 '^n/c ' "$work/suite-all.txt" | grep '^    ' | sed -E 's/^ *[^ ]+\.vec(:[0-9]+)?: //; s/instruction 0x[0-9A-F]{8} not accepted: /instruction not accepted: /; s/0x[0-9A-Fa-f]+/0x…/g; s/[0-9]+/N/g' |
  sort | uniq -c | sort -rn | head -n 15
echo '```'
echo
echo "Expectations not comparable inside runs that were compared:"
echo
echo '```'
grep -E '^    .*: not comparable: ' "$work/suite-all.txt" | sed -E 's/.*: not comparable: //' | sort | uniq -c | sort -rn | head -n 10
echo '```'
echo
echo "## Divergence classes"
echo
echo "Campaign: $camp_note."
echo
nclass=0
while IFS=$'\t' read -r id verdict amb page pat repro title expl; do
  nsuite=$(awk -F'\t' -v c="$id" '$1==c' "$work/fails-classified.tsv" | wc -l)
  nnc=$(awk -F'\t' -v c="$id" '$1==c' "$work/nc-classified.tsv" | wc -l)
  ncamp=$(awk -F'\t' -v c="$id" '$1==c' "$work/campaign-classified.tsv" | wc -l)
  [ "$nsuite" -gt 0 ] || [ "$ncamp" -gt 0 ] || [ "$nnc" -gt 0 ] || [ "$repro" != "-" ] || continue
  nclass=$((nclass + 1))
  echo "### $id — $title"
  echo
  case $verdict in
    bug) v="**bug of the implementation**" ;;
    ambiguity) v="**a documented ambiguity** ($amb): a knob value of the model reproduces the implementation" ;;
    model-limit) v="**a limit of the implementation's model** (it declares or shows that it does not model this)" ;;
    ours) v="**a simplification of this project's model**, not a bug of the implementation" ;;
    undefined) v="**not a bug of either**: the behaviour is undefined, and the two follow different documented policies" ;;
    *) v="**$verdict**" ;;
  esac
  echo "Verdict: $v. Decided by: \`$page\`."
  echo
  echo "$expl"
  echo
  echo "Found by: the suite ($nsuite failing run(s); $nnc expectation(s) reported not comparable for this reason) and the campaign ($ncamp minimised input(s))."
  if [ "$nsuite" -gt 0 ]; then
    echo
    awk -F'\t' -v c="$id" '$1==c { printf "- `%s` (%s): %s\n", $2, $3, $4 }' "$work/fails-classified.tsv" | head -n 5
    [ "$nsuite" -le 5 ] || echo "- … and $((nsuite - 5)) more"
  fi
  # the reproducer: curated, else the campaign's smallest; the campaign's smallest is shown too
  rsrc=""
  csrc=$(awk -F'\t' -v c="$id" '$1==c' "$work/campaign-classified.tsv" | sort -t$'\t' -k2,2n | head -n 1 | cut -f3)
  if [ "$repro" != "-" ] && [ -f "$repro" ]; then rsrc=$repro; else rsrc=$csrc; csrc=""; fi
  if [ -n "$csrc" ]; then
    cp "$csrc" "$repro_dir/$id-campaign.vec"
    echo
    echo "The campaign's smallest finding of this class, minimised ([\`$name/$id-campaign.vec\`]($name/$id-campaign.vec)): $(sed -n 's/^# INVARIANT //p' "$csrc" | head -n 1)"
    echo
    echo '```'
    with_hex "$csrc"
    echo '```'
  fi
  if [ -n "$rsrc" ]; then
    cp "$rsrc" "$repro_dir/$id.vec"
    echo
    echo "Reproducer [\`$name/$id.vec\`]($name/$id.vec), $(grep -c '^t[0-2]:' "$rsrc") instruction(s):"
    echo
    echo '```'
    with_hex "$rsrc"
    echo '```'
    "$ttconf" --mode func "$rsrc" >"$work/$id-model.txt" 2>&1; mrc=$?
    "$ttconf" --mode func "${dutopt[@]}" "$rsrc" >"$work/$id-dut.txt" 2>&1
    echo
    echo "End states (functional mode): the model $( [ $mrc -eq 0 ] && echo passes every expectation || echo FAILS its own reproducer ); where the implementation differs:"
    echo
    echo "| expectation | model | $name |"
    echo "|---|---|---|"
    grep -E '^    .*: expect ' "$work/$id-dut.txt" | grep -v 'not comparable' | sed -E 's/^ *[^ ]+\.vec:[0-9]+: //' |
      sed -E 's/^expect (.*) = ([^:]*): actual (.*)$/| `\1` | \2 | \3 |/; s/^expect (t[0-2]) (done|blocked): actual (.*)$/| `\1` | \2 | \3 |/; s/^expect (.*): actual (.*)$/| `\1` | as expected | \2 |/'
    grep -q '^n/c ' "$work/$id-dut.txt" && echo "| (run) | runs | not comparable: $(grep -A1 '^n/c ' "$work/$id-dut.txt" | tail -n 1 | sed -E 's/^ *[^ ]+\.vec(:[0-9]+)?: //') |"
  fi
  echo
done < <(rows)
[ "$nclass" -gt 0 ] || { echo "No divergence."; echo; }
nun=$(awk -F'\t' '$1=="unclassified"' "$work/fails-classified.tsv" | wc -l)
ncu=$(awk -F'\t' '$1=="unclassified"' "$work/campaign-classified.tsv" | wc -l)
echo "## Unclassified divergences"
echo
if [ "$nun" -eq 0 ] && [ "$ncu" -eq 0 ]; then
  echo "None: every failing run of the suite and every campaign finding is in a class above."
else
  echo "Not matched by any class of the table (\`${classes:-no table}\`): each needs a look."
  echo
  awk -F'\t' '$1=="unclassified" { printf "- suite: `%s` (%s): %s\n", $2, $3, $4 }' "$work/fails-classified.tsv"
  awk -F'\t' '$1=="unclassified" { printf "- campaign: `%s` (%s instructions): %s\n", $3, $2, $4 }' "$work/campaign-classified.tsv"
fi
} >"$out"
# keep the campaign's unclassified reproducers next to the page
for v in $(awk -F'\t' '$1=="unclassified" {print $3}' "$work/campaign-classified.tsv"); do cp "$v" "$repro_dir/"; done
sed -i "s#\`$work/collect/#\`$name/#g" "$out"
echo "dut-report: $out: $nclass class(es); suite func ${tp[0]}/${tp[1]}/${tp[2]}, cycle ${tp[3]}/${tp[4]}/${tp[5]} (passed/failed/n-c); unclassified: suite $nun, campaign $ncu"
