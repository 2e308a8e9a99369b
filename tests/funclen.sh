#!/bin/bash
# funclen.sh — functions a person can hold: no C function in model/, fuzz/, tools/ or
# conformance/ longer than 70 lines (its first line, the one with its name, to its closing
# brace), except those named in tests/funclen.allow, each with its reason (a table, a flat
# switch over forms, or code another change owns right now). Run by `make test`.
#
#   bash tests/funclen.sh              check; lists every long function not allowed, and every
#                                      allow-list entry that is no longer long (drop it)
#   bash tests/funclen.sh --list [N]   every function over N lines (default 70), longest first
#   bash tests/funclen.sh --self-test  shows the check fails on a planted 71-line function,
#                                      passes on a 70-line one, and flags a stale allow entry
#
# The measure reads the text: top-level brace blocks whose header holds a '(' (comments,
# strings, character literals and preprocessor lines skipped); a block opened by '=' (an
# initialiser table) or by struct/union/enum is not a function.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIMIT=70

measure() {  # measure ROOT LIMIT DIR... -> "LINES PATH:FUNCTION" for each function over LIMIT
  python3 - "$@" <<'EOF'
import os, re, sys
root, limit, dirs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]

def strip(text):
    """text with comments, strings and character literals blanked (newlines kept) and
    preprocessor lines (with their continuations) emptied"""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('//', i):
            j = text.find('\n', i); j = n if j < 0 else j
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            if j < n and text[j] == c:
                out.append(c + ' ' * (j - i - 1) + c); i = j + 1
            else:  # unterminated on its line (an apostrophe in a #error, say): up to the newline
                out.append(' ' * (min(j, n) - i)); i = min(j, n)
        else:
            out.append(c); i += 1
    lines = ''.join(out).split('\n')
    cont = False
    for k, l in enumerate(lines):
        if cont or l.lstrip().startswith('#'):
            cont = l.rstrip().endswith('\\')
            lines[k] = ''
    return lines

def name_of(h, lines_of):
    """the function's name and line: the last identifier before a '(' at paren depth 0"""
    depth, best = 0, None
    for m in re.finditer(r'[()]|[A-Za-z_]\w*(?=\s*\()', h):
        t = m.group(0)
        if t == '(': depth += 1
        elif t == ')': depth -= 1
        elif depth == 0: best = (t, lines_of[m.start()])
    return best

def functions(path):
    lines = strip(open(path, encoding='utf-8', errors='replace').read())
    depth, header, hl, start, res = 0, '', [], None, []
    for k, l in enumerate(lines):
        for ch in l + ' ':
            if depth == 0:
                if ch == '{':
                    first = re.match(r'\s*(typedef|struct|union|enum)\b', header)
                    start = None
                    if '(' in header and '=' not in header.split('(')[0] and not first:
                        start = name_of(header, hl)
                    depth = 1
                elif ch == ';':
                    header, hl = '', []
                else:
                    header += ch; hl.append(k)
            else:
                if ch == '{': depth += 1
                elif ch == '}':
                    depth -= 1
                    if depth == 0:
                        if start: res.append((start[0], start[1] + 1, k + 1))
                        header, hl, start = '', [], None
    return res

rows = []
for d in dirs:
    for dp, dn, fn in os.walk(os.path.join(root, d)):
        dn.sort()
        for f in sorted(fn):
            if not f.endswith('.c'): continue
            p = os.path.join(dp, f)
            rel = os.path.relpath(p, root)
            for name, a, b in functions(p):
                if b - a + 1 > limit: rows.append((b - a + 1, '%s:%s' % (rel, name), a))
for length, where, a in sorted(rows, key=lambda r: (-r[0], r[1])):
    print('%d %s %d' % (length, where, a))
EOF
}

# check ROOT ALLOWFILE: 0 when every long function is allowed and every allow entry is long
check() {
  local root=$1 allow=$2 bad=0 long
  long=$(measure "$root" "$LIMIT" model fuzz tools conformance)
  while read -r n where line; do
    [ -n "${n:-}" ] || continue
    if ! grep -q "^$where[[:space:]]" "$allow" 2>/dev/null; then
      echo "funclen: ${where%%:*}:$line: ${where#*:} is $n lines (over $LIMIT): split it into named steps, or allow it in tests/funclen.allow with its reason"
      bad=1
    fi
  done <<<"$long"
  while read -r where reason; do
    case $where in ''|'#'*) continue ;; esac
    [ -n "$reason" ] || { echo "funclen: tests/funclen.allow: $where has no reason"; bad=1; }
    if ! grep -q " $where " <<<"$long"; then
      echo "funclen: tests/funclen.allow: $where is not over $LIMIT lines (any more): drop it"
      bad=1
    fi
  done <"$allow"
  return $bad
}

case ${1:-} in
  --list) measure "$ROOT" "${2:-$LIMIT}" model fuzz tools conformance; exit 0 ;;
  --self-test)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/model" "$tmp/fuzz" "$tmp/tools" "$tmp/conformance"
    body() {  # body N: a function of N lines in all, with a brace in a string and a comment
      echo "static int f_$1(int x) {"
      echo "  const char *s = \"}\"; /* } */"
      for ((i = 0; i < $1 - 4; i++)); do echo "  x += $i;"; done
      echo "  return x + (int)s[0];"
      echo "}"
    }
    { echo '#include <stdio.h>'; echo 'static const int table[] = {'
      for ((i = 0; i < 90; i++)); do echo "  $i,"; done; echo '};'
      body 70; } >"$tmp/model/ok.c"
    : >"$tmp/allow"
    check "$tmp" "$tmp/allow" >/dev/null || { echo "funclen self-test: a 70-line function and a 90-line table were refused"; exit 1; }
    body 71 >"$tmp/fuzz/planted.c"
    if out=$(check "$tmp" "$tmp/allow"); then echo "funclen self-test: a planted 71-line function passed"; exit 1; fi
    grep -q "fuzz/planted.c:1: f_71 is 71 lines" <<<"$out" || { echo "funclen self-test: unexpected report: $out"; exit 1; }
    printf 'fuzz/planted.c:f_71  (self-test) allowed\n' >"$tmp/allow"
    check "$tmp" "$tmp/allow" >/dev/null || { echo "funclen self-test: an allowed long function was refused"; exit 1; }
    printf 'fuzz/planted.c:f_71  allowed\nmodel/ok.c:f_70  stale\n' >"$tmp/allow"
    if check "$tmp" "$tmp/allow" >/dev/null; then echo "funclen self-test: a stale allow entry passed"; exit 1; fi
    echo "funclen self-test: a planted 71-line function fails, a 70-line one and a table pass, a stale allow entry fails"
    exit 0 ;;
  '') ;;
  *) echo "usage: $0 [--list [N] | --self-test]" >&2; exit 2 ;;
esac
if check "$ROOT" "$ROOT/tests/funclen.allow"; then
  echo "funclen: no function over $LIMIT lines in model/ fuzz/ tools/ conformance/ but the $(grep -c '^[^#[:space:]]' "$ROOT/tests/funclen.allow") allowed in tests/funclen.allow"
else
  exit 1
fi
