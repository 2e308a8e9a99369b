#!/bin/sh
# report.sh — write reports/conformance.md (markdown, on stdout) from the conformance vectors,
# the runner's results and the sensitivity results. POSIX sh + awk only (no python).
#
# usage: conformance/tools/report.sh -r RESULTS -s SENSDIR [-a TTASM] [-c TTCONF] [-C DIR] VECDIR
#   -r  output of `ttconf --mode both VECDIR` (non-quiet: one ok/FAIL/skip line per vector+mode)
#   -s  directory written by sensitivity.sh (summary.tsv); missing -> table says "not run"
#   -a  assembler used to derive each vector's forms (default build/release/ttasm)
#   -c  runner used to list the vectors (`ttconf --list`; default build/release/ttconf)
#   -C  read VECDIR relative to DIR (the snapshot that sensitivity.sh takes, so that results,
#       sensitivity and report all describe the same files); file arguments stay relative to .
# `make reports-conformance` runs all of it. The output holds no date, host or path outside the
# repository, so regenerating it from the same sources gives the same bytes.
set -u
LC_ALL=C
export LC_ALL

RESULTS=""
SENS=""
TTASM=build/release/ttasm
TTCONF=build/release/ttconf
MIN_PER_FORM=3
MAX_LIST=12   # vectors listed per defect in the sensitivity table

CDIR=.
while getopts r:s:a:c:C: opt; do
  case $opt in
    r) RESULTS=$OPTARG ;;
    s) SENS=$OPTARG ;;
    a) TTASM=$OPTARG ;;
    c) TTCONF=$OPTARG ;;
    C) CDIR=$OPTARG ;;
    *) sed -n '5,11p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -n "$RESULTS" ] && [ -n "$SENS" ] || { sed -n '5,11p' "$0" >&2; exit 2; }
VECDIR=${1%/}
[ -r "$RESULTS" ] || { echo "report: cannot read $RESULTS" >&2; exit 2; }
for x in "$TTASM" "$TTCONF"; do
  [ -x "$x" ] || { echo "report: $x missing (make all)" >&2; exit 2; }
done

ROOT=$(pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
RESULTS=$(abs "$RESULTS"); SENS_ABS=$(abs "$SENS"); TTASM=$(abs "$TTASM"); TTCONF=$(abs "$TTCONF")
cd "$CDIR" || exit 2

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ttreport.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

# 1. the vectors, exactly as the runner walks them: PATH  MODES  NAME
"$TTCONF" --list "$VECDIR" >"$TMP/list.txt" 2>&1
awk '/^[0-9]+ vector\(s\) listed/ { next }
     /^[^ \t]*\.vec(:[0-9]+)?: / {            # malformed: FILE:LINE: message
       p = $0; sub(/\.vec.*/, ".vec", p); m = substr($0, length(p) + 2); sub(/^[0-9]*:? */, "", m)
       printf "%s\tmalformed\t(malformed: %s)\n", p, m; next }
     { i = index($0, "  "); if (i == 0) next
       p = substr($0, 1, i - 1); r = substr($0, i + 2); j = index(r, "  ")
       if (j == 0) next
       printf "%s\t%s\t%s\n", p, substr(r, 1, j - 1), substr(r, j + 2) }' \
  "$TMP/list.txt" >"$TMP/vectors.tsv"

# 2. per vector: refs, strict, instruction lines (thread prefix and comment stripped)
awk -F '\t' -v meta="$TMP/meta.tsv" -v insns="$TMP/insns.tsv" -v asm="$TMP/asm.txt" '
  {
    path = $1; strict = 0
    while ((getline line < path) > 0) {
      sub(/#.*/, "", line); sub(/^[ \t]+/, "", line); sub(/[ \t]+$/, "", line)
      if (line ~ /^ref:/) { r = line; sub(/^ref:[ \t]*/, "", r); printf "%s\tref\t%s\n", path, r > meta }
      else if (line == "strict") strict = 1
      else if (line ~ /^t[0-9]+[ \t]*:/) {
        i = line; sub(/^t[0-9]+[ \t]*:[ \t]*/, "", i)
        if (i != "") { printf "%s\t%s\n", path, i > insns; print i > asm }
      }
    }
    close(path)
    printf "%s\tstrict\t%d\n", path, strict > meta
  }' "$TMP/vectors.tsv"
: >>"$TMP/insns.tsv"; : >>"$TMP/asm.txt"; : >>"$TMP/meta.tsv"

# 3. forms: assemble every instruction line at once, disassemble the words in named style.
#    ttasm -a drops a line it cannot assemble and names it on stderr as FILE:LINE:COL.
"$TTASM" -a "$TMP/asm.txt" >"$TMP/words.txt" 2>"$TMP/asm.err"
"$TTASM" -d --style named - <"$TMP/words.txt" >"$TMP/dis.txt" 2>/dev/null
awk -v errf="$TMP/asm.err" -v disf="$TMP/dis.txt" -F '\t' '
  BEGIN {
    while ((getline e < errf) > 0) {
      n = split(e, f, ":"); if (n >= 3 && f[2] ~ /^[0-9]+$/) bad[f[2] + 0] = 1
    }
  }
  {
    form = "(unassembled)"
    if (!(NR in bad) && (getline d < disf) > 0) {
      s = d; i = index(s, "; "); form = "(no form)"
      if (i) {
        s = substr(s, i + 2); split(s, w, " ")
        if (s ~ /\(foreign\)/) form = "(foreign)"
        else if (w[1] == "UNDEFINED") form = "(undefined)"
        else form = w[1]
      }
    }
    printf "%s\tform\t%s\n", $1, form
  }' "$TMP/insns.tsv" | sort -u >"$TMP/forms.tsv"

# 4. the forms of the encoding table, in table order
"$TTASM" --forms | awk '$1 == "form" { print $2 }' >"$TMP/table_forms.txt"

# 5. results: PATH <TAB> MODE <TAB> ok|FAIL|skip  (a malformed file: both modes FAIL)
awk '
  /^ok   / { print $2 "\t" $3 "\tok"; next }
  /^FAIL / { print $2 "\t" $3 "\tFAIL"; next }
  /^skip / { print $2 "\t" $3 "\tskip"; next }
  /^[0-9]+ passed, [0-9]+ failed/ { next }
  /^[^ \t]/ { p = $0; sub(/:.*/, "", p); if (p ~ /\.vec$/) { print p "\tfunc\tFAIL"; print p "\tcycle\tFAIL" } }
' "$RESULTS" | sort -u >"$TMP/results.tsv"
summary_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$RESULTS" | tail -n 1)

if [ -r "$SENS_ABS/summary.tsv" ]; then cp "$SENS_ABS/summary.tsv" "$TMP/sens.tsv"; else : >"$TMP/sens.tsv"; fi

# 6. the markdown
awk -F '\t' -v vecdir="$VECDIR" -v minf="$MIN_PER_FORM" -v maxl="$MAX_LIST" \
    -v summary="$summary_line" -v sensdir="$SENS" \
    -v fv="$TMP/vectors.tsv" -v fm="$TMP/meta.tsv" -v ff="$TMP/forms.tsv" -v ft="$TMP/table_forms.txt" \
    -v fr="$TMP/results.tsv" -v fsn="$TMP/sens.tsv" '
  function isort(a, n,    i, j, t) {   # sort a[1..n] ascending (byte-wise)
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  }
  function rel(p) { if (index(p, vecdir "/") == 1) return substr(p, length(vecdir) + 2); return p }
  function unitof(p,    r) { r = rel(p); if (index(r, "/") == 0) return "(top)"; sub(/\/.*/, "", r); return r }
  function res(p, m,    key) { key = p SUBSEP m; return (key in R) ? R[key] : "n/a" }
  function md(s) { gsub(/\|/, "\\|", s); return s }
  function link(p) { return "[`" rel(p) "`](../" p ")" }
  FILENAME == fv { nv++; V[nv] = $1; VN[$1] = $3; VM[$1] = $2; U[$1] = unitof($1); next }
  FILENAME == fm {
    if ($2 == "ref") { REFS[$1] = REFS[$1] "\n" $3; RC[$3]++ }
    else if ($2 == "strict") ST[$1] = $3
    next
  }
  FILENAME == ff { if ($3 != "") { F[$1, $3] = 1; FL[$1] = FL[$1] " " $3 } ; next }
  FILENAME == ft { ntf++; TF[ntf] = $1; INTABLE[$1] = 1; next }
  FILENAME == fr { R[$1, $2] = $3; next }
  FILENAME == fsn { if (FNR > 1) { ns++; S[ns] = $0 } ; next }
  END {
    # ---- per vector aggregation ----
    for (i = 1; i <= nv; i++) {
      p = V[i]; u = U[p]
      if (!(u in UN)) { nu++; UL[nu] = u; UN[u] = 0 }
      UN[u]++
      for (m = 0; m < 2; m++) {
        mode = m ? "cycle" : "func"; r = res(p, mode)
        C[u, mode, r]++; T[mode, r]++
      }
      if (ST[p]) { UST[u]++; nstrict++ }
      if (REFS[p] == "") { nnoref++; NOREF[nnoref] = p }
      nf = split(FL[p], fs, " ")
      for (j = 1; j <= nf; j++) {
        f = fs[j]
        if (!(f in FN)) { FN[f] = 0; if (!(f in INTABLE)) { nx++; XF[nx] = f } }
        FN[f]++
        if (!((f, u) in FU)) { FU[f, u] = 1; FUS[f] = FUS[f] (FUS[f] == "" ? "" : ", ") u }
        for (m = 0; m < 2; m++) { mode = m ? "cycle" : "func"; FC[f, mode, res(p, mode)]++ }
        if (!((u, f) in UF)) { UF[u, f] = 1; UFN[u]++ }
      }
      # ambiguity tags in the name
      s = VN[p]
      while (match(s, /\[AMB-[0-9]+\]/)) {
        t = substr(s, RSTART + 5, RLENGTH - 6) + 0
        AMBN[t]++; AMB[t] = AMB[t] "\n" p
        s = substr(s, RSTART + RLENGTH)
      }
    }
    for (k = 1; k <= ntf; k++) if (FN[TF[k]] + 0 > 0) ncov++
    for (k = 1; k <= ntf; k++) if (FN[TF[k]] + 0 < minf) nlow++
    ncaught = nmiss = nskip = nna = 0; missed = ""
    for (k = 1; k <= ns; k++) {
      split(S[k], a, "\t")
      if (a[3] == "caught") ncaught++
      else if (a[3] == "skipped") nskip++
      else if (a[3] == "n/a") nna++
      else { nmiss++; missed = missed (missed == "" ? "" : ", ") "`" a[1] "`" }
    }
    sensline = ncaught " of " ncaught + nmiss " checked defects caught" (nmiss ? " (**not caught: " missed "**)" : "") \
      (nna ? "; " nna " not observable by vectors (n/a)" : "") (nskip ? "; " nskip " skipped (unit not checked by vectors)" : "")

    print "# Conformance report"
    print ""
    print "Generated by `make reports-conformance` (`conformance/tools/report.sh`; do not edit by hand)"
    print "from the vectors under `" vecdir "/`, their results from `build/release/ttconf --mode both " vecdir "`,"
    print "their instruction forms (each `tN:` line assembled with `ttasm -a`, then named by"
    print "`ttasm -d --style named`) and the planted-defect runs of `make sensitivity`. The file holds"
    print "no date or host: the same sources give the same bytes."
    print ""
    print "## Summary"
    print ""
    print "| | |"
    print "|---|---|"
    print "| vectors | " nv " |"
    print "| runner summary (vectors × modes) | `" summary "` |"
    print "| func mode | " T["func", "ok"] + 0 " passed, " T["func", "FAIL"] + 0 " failed" (T["func", "skip"] ? ", " T["func", "skip"] " skipped" : "") (T["func", "n/a"] ? ", " T["func", "n/a"] " cycle-only" : "") " |"
    print "| cycle mode | " T["cycle", "ok"] + 0 " passed, " T["cycle", "FAIL"] + 0 " failed, " T["cycle", "skip"] + 0 " skipped" (T["cycle", "n/a"] ? ", " T["cycle", "n/a"] " func-only" : "") " |"
    print "| `strict` vectors | " nstrict + 0 " of " nv " |"
    print "| vectors without `ref:` | " nnoref + 0 " |"
    print "| encoding-table forms with a vector | " ncov + 0 " of " ntf " (" nlow + 0 " with fewer than " minf " vectors) |"
    n = 0; for (t in AMBN) n++
    print "| ambiguities pinned (`[AMB-n]` in the name) | " n " |"
    if (ns) print "| planted defects (both modes) | " sensline " |"
    else print "| planted defects caught | sensitivity not run |"
    print ""

    print "## Per unit"
    print ""
    print "Unit = directory under `" vecdir "/`. Results count vectors; `n/a` = the vector names only the other mode."
    print ""
    print "| unit | vectors | func ok | func FAIL | func n/a | cycle ok | cycle FAIL | cycle skipped | cycle n/a | strict | forms used |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= nu; k++) {
      u = UL[k]
      printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", u, UN[u], C[u, "func", "ok"], C[u, "func", "FAIL"], \
        C[u, "func", "n/a"], C[u, "cycle", "ok"], C[u, "cycle", "FAIL"], C[u, "cycle", "skip"], C[u, "cycle", "n/a"], UST[u], UFN[u]
    }
    printf "| **total** | **%d** | **%d** | **%d** | **%d** | **%d** | **%d** | **%d** | **%d** | **%d** | |\n", nv, T["func", "ok"], T["func", "FAIL"], \
      T["func", "n/a"], T["cycle", "ok"], T["cycle", "FAIL"], T["cycle", "skip"], T["cycle", "n/a"], nstrict
    print ""

    print "## Per form"
    print ""
    print "Every form of the encoding table (`ttasm --forms`, table order), with the number of vectors"
    print "whose program contains it, and the results of those vectors. **⚠** marks a form with fewer than " minf " vectors."
    print ""
    print "| form | vectors | func ok | func FAIL | cycle ok / FAIL / skipped | units | |"
    print "|---|---:|---:|---:|---|---|---|"
    for (k = 1; k <= ntf + nx; k++) {
      f = k <= ntf ? TF[k] : XF[k - ntf]
      n = FN[f] + 0
      flag = (k <= ntf && n < minf) ? "⚠ " (n == 0 ? "no vector" : "fewer than " minf) : ""
      printf "| %s | %d | %d | %d | %d / %d / %d | %s | %s |\n", (k <= ntf ? "`" f "`" : f), n, FC[f, "func", "ok"], FC[f, "func", "FAIL"], \
        FC[f, "cycle", "ok"], FC[f, "cycle", "FAIL"], FC[f, "cycle", "skip"], FUS[f], flag
    }
    print ""
    if (nlow) {
      s = ""
      for (k = 1; k <= ntf; k++) if (FN[TF[k]] + 0 < minf) s = s (s == "" ? "" : ", ") "`" TF[k] "` (" FN[TF[k]] + 0 ")"
      print "Forms with fewer than " minf " vectors: " s "."
    } else print "Every form of the encoding table has at least " minf " vectors."
    print ""

    print "## Spec pages covered"
    print ""
    print "Distinct `ref:` lines, with the number of vectors citing each."
    print ""
    print "| page | vectors |"
    print "|---|---:|"
    n = 0; for (r in RC) { n++; L[n] = sprintf("%06d\t%s", 999999 - RC[r], r) }
    isort(L, n)
    for (k = 1; k <= n; k++) { split(L[k], a, "\t"); printf "| %s | %d |\n", md(a[2]), RC[a[2]] }
    print ""
    print n " distinct page(s)."
    print ""
    if (nnoref) {
      print "Vectors without a `ref:` line:"
      print ""
      for (k = 1; k <= nnoref; k++) print "- " link(NOREF[k])
      print ""
    }

    print "## Ambiguity vectors"
    print ""
    print "Vectors tagged `[AMB-n]` in their name pin the default reading of the model for of ambiguity n in the"
    print "spec digest (§6); the knob work adds the other readings."
    print ""
    n = 0; for (t in AMBN) { n++; L[n] = sprintf("%06d", t) }
    isort(L, n)
    if (n == 0) print "None."
    for (k = 1; k <= n; k++) {
      t = L[k] + 0
      print "- **AMB-" t "** (" AMBN[t] "):"
      m = split(substr(AMB[t], 2), a, "\n")
      for (j = 1; j <= m; j++) print "  - " link(a[j]) " — " md(VN[a[j]])
    }
    print ""

    print "## Sensitivity: planted defects"
    print ""
    if (ns == 0) {
      print "Not run (no `" sensdir "/summary.tsv`; run `make sensitivity`)."
    } else {
      print "`make sensitivity` builds the runner once per planted defect of `model/defects.def`"
      print "(`-DTT_PLANTED=TT_DEF_<ID>`, build/defect-<ID>/) and runs every vector in func mode. A vector"
      print "catches a defect when it fails on that build and passes on the clean build."
      print ""
      print "| defect | unit | what is wrong | status | vectors | caught by |"
      print "|---|---|---|---|---:|---|"
      for (k = 1; k <= ns; k++) {
        split(S[k], a, "\t")
        if (a[3] == "caught" || a[3] == "MISSED" || a[3] == "CRASHED") {
          m = split(a[5], w, " "); s = ""
          for (j = 1; j <= m && j <= maxl; j++) s = s (j > 1 ? ", " : "") "`" rel(w[j]) "`"
          if (m > maxl) s = s ", … and " m - maxl " more"
          st = a[3] == "caught" ? "caught" : "**" a[3] "**"
          printf "| `%s` | %s | %s | %s | %s | %s |\n", a[1], a[2], md(a[6]), st, a[4], s
        } else {
          printf "| `%s` | %s | %s | %s | – | %s |\n", a[1], a[2], md(a[6]), a[3], md(a[5])
        }
      }
      print ""
      print sensline "."
    }
    print ""

    nfail = 0
    for (i = 1; i <= nv; i++) if (res(V[i], "func") == "FAIL" || res(V[i], "cycle") == "FAIL") nfail++
    print "## Failing vectors"
    print ""
    if (nfail == 0) print "None."
    else for (i = 1; i <= nv; i++) {
      p = V[i]
      if (res(p, "func") == "FAIL" || res(p, "cycle") == "FAIL")
        print "- " link(p) " — func " res(p, "func") ", cycle " res(p, "cycle")
    }
    print ""

    print "## All vectors"
    print ""
    print "| vector | name | func | cycle | strict | forms |"
    print "|---|---|---|---|---|---|"
    for (i = 1; i <= nv; i++) {
      p = V[i]; f = FL[p]; sub(/^ /, "", f); gsub(/ /, ", ", f)
      printf "| %s | %s | %s | %s | %s | %s |\n", link(p), md(VN[p]), res(p, "func"), res(p, "cycle"), ST[p] ? "yes" : "no", f
    }
  }
' "$TMP/vectors.tsv" "$TMP/meta.tsv" "$TMP/forms.tsv" "$TMP/table_forms.txt" "$TMP/results.tsv" "$TMP/sens.tsv"
