#!/usr/bin/env python3
"""json2vec.py - turn a conformance vector exported as JSON back into .vec text.

The JSON schema is conformance/json-schema.md (written by `ttconf --export-json`, the same
code as `ttconf --export-json` once the runner exposes it); the .vec format is
conformance/README.md. Python 3 standard library only.

  json2vec.py VECTOR.json                 .vec text on standard output
  json2vec.py -o OUT.vec VECTOR.json      ... into OUT.vec
  json2vec.py --index INDEX.json DESTDIR  every vector an export's index.json lists: the
                                          document INDEXDIR/J is written as DESTDIR/J with
                                          .json replaced by .vec

The text is canonical rather than a copy of the original file: header lines, then knob:, init,
each thread's stream (raw 0x words: t0, then t1, then t2) and the expectations, each group in
the order the JSON lists it. Comments, blank lines and the interleaving of different threads'
instructions are not kept (none of them changes what a vector means); so the "line" members of
a re-export differ from the original's and nothing else does.

A document that does not follow the schema, or holds text a .vec line cannot carry (a '#', a
line break, white space at either end), is an error: `FILE: message` on standard error, exit
status 1. Bad command line: exit status 2.
"""
import json
import os
import re
import sys

FORMAT = "tensix-harness-vec"
INDEX_FORMAT = "tensix-harness-vec-index"
VERSION = 1
MUTEX_VALUES = ("none", "t0", "t1", "t2")
FAULT_CLASSES = ("none", "undefined", "unpredictable", "noncontractual", "unsupported",
                 "unimplemented")
LOC_RE = re.compile(r"[A-Za-z0-9_.\[\]]+\Z")
THREADS = ("t0", "t1", "t2")
CYCLE_ONLY = ("issue", "cycles", "hazard", "hazards")   # checked in cycle mode only


class SchemaError(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise SchemaError(msg)


def uint(obj, key, where, bits=64):
    v = obj.get(key) if isinstance(obj, dict) else None
    need(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < (1 << bits),
         "%s: %r must be an integer 0..2^%d-1, not %r" % (where, key, bits, v))
    return v


def text(v, where, what):
    """Text for a header line: non-empty, one line, no comment, no white space at the ends."""
    need(isinstance(v, str), "%s: %s must be a string" % (where, what))
    need(v != "" and v == v.strip() and "#" not in v and "\n" not in v and "\r" not in v
         and "\0" not in v, "%s: %s %r cannot be written on a .vec line" % (where, what, v))
    return v


def word(v, where, what):
    """A token without white space, '#' or '=' (knob names and values, names of kinds)."""
    text(v, where, what)
    need(not re.search(r"[\s#=]", v), "%s: %s %r is not one token" % (where, what, v))
    return v


def loc_value(loc, value):
    if loc.startswith("mutex["):
        need(0 <= value < len(MUTEX_VALUES), "mutex value %d must be 0..3 (none, 1+t)" % value)
        return MUTEX_VALUES[value]
    return "0x%X" % value


def expect_line(x, where):
    need(isinstance(x, dict), "%s: not an object" % where)
    kind = x.get("kind")
    need(x.get("cycle_only") is (kind in CYCLE_ONLY),
         "%s: cycle_only must be %s for kind %r" % (where, str(kind in CYCLE_ONLY).lower(), kind))

    def thread():
        t = uint(x, "thread", where)
        need(t < 3, "%s: thread %d (threads are 0..2)" % (where, t))
        return "t%d" % t

    if kind == "loc":
        loc = x.get("loc")
        need(isinstance(loc, str) and LOC_RE.match(loc), "%s: bad loc %r" % (where, loc))
        return "expect %s = %s" % (loc, loc_value(loc, uint(x, "value", where, 32)))
    if kind in ("done", "blocked"):
        return "expect %s %s" % (thread(), kind)
    if kind == "deadlock":
        return "expect deadlock"
    if kind == "fault":
        cls = x.get("class")
        need(cls in FAULT_CLASSES, "%s: unknown fault class %r" % (where, cls))
        return "expect %s fault %s" % (thread(), cls)
    if kind == "issue":
        return "expect %s.issue[%d] = %d" % (thread(), uint(x, "index", where, 32),
                                            uint(x, "cycle", where))
    if kind == "cycles":
        cmp = x.get("cmp")
        need(cmp in ("=", "<=", ">="), "%s: cmp must be =, <= or >=, not %r" % (where, cmp))
        return "expect cycles %s %d" % (cmp, uint(x, "cycle", where))
    if kind == "hazard":
        hk = word(x.get("hazard"), where, "hazard")
        return "expect %s.hazard[%d] = %s" % (thread(), uint(x, "index", where, 32), hk)
    if kind == "hazards":
        return "expect hazards = %d" % uint(x, "count", where, 32)
    if kind == "issued":
        return "expect %s.issued = %d" % (thread(), uint(x, "count", where, 32))
    raise SchemaError("%s: unknown expectation kind %r" % (where, kind))


def to_vec(doc):
    """The .vec text of one exported vector (a dict as json.load returns it)."""
    need(isinstance(doc, dict), "not a JSON object")
    need(doc.get("format") == FORMAT, "format is %r, not %r" % (doc.get("format"), FORMAT))
    need(doc.get("version") == VERSION, "version %r (this script reads %d)"
         % (doc.get("version"), VERSION))
    out = []
    src = doc.get("source")
    need(src is None or isinstance(src, str), "source must be a string or null")
    if src is not None:
        out.append("# generated by conformance/json2vec.py from the export of %s"
                   % re.sub(r"[\r\n]", " ", src))
    out.append("name: " + text(doc.get("name"), "name", "name"))
    refs = doc.get("refs")
    need(isinstance(refs, list), "refs must be a list")
    for i, r in enumerate(refs):
        out.append("ref: " + text(r, "refs[%d]" % i, "ref"))
    modes = doc.get("modes")
    need(modes in (["func"], ["cycle"], ["func", "cycle"]),
         "modes must be [\"func\"], [\"cycle\"] or [\"func\", \"cycle\"], not %r" % (modes,))
    out.append("mode: " + (modes[0] if len(modes) == 1 else "both"))
    profile = doc.get("profile")
    if profile is not None:
        out.append("profile: " + word(profile, "profile", "profile"))
    knobs = doc.get("knobs")
    need(isinstance(knobs, list), "knobs must be a list")
    for i, k in enumerate(knobs):
        where = "knobs[%d]" % i
        need(isinstance(k, dict), "%s: not an object" % where)
        out.append("knob: %s=%s" % (word(k.get("name"), where, "name"),
                                    word(k.get("value"), where, "value")))
    strict = doc.get("strict")
    need(isinstance(strict, bool), "strict must be true or false")
    if strict:
        out.append("strict")
    if doc.get("budget") is not None:
        out.append("budget: %d" % uint(doc, "budget", "budget"))
    inits = doc.get("init")
    need(isinstance(inits, list), "init must be a list")
    for i, x in enumerate(inits):
        where = "init[%d]" % i
        need(isinstance(x, dict), "%s: not an object" % where)
        loc = x.get("loc")
        need(isinstance(loc, str) and LOC_RE.match(loc), "%s: bad loc %r" % (where, loc))
        out.append("init %s = %s" % (loc, loc_value(loc, uint(x, "value", where, 32))))
    streams = doc.get("streams")
    need(isinstance(streams, dict) and sorted(streams) == list(THREADS),
         "streams must be an object with exactly t0, t1 and t2")
    for t in THREADS:
        need(isinstance(streams[t], list), "streams.%s must be a list" % t)
        for k, w in enumerate(streams[t]):
            where = "streams.%s[%d]" % (t, k)
            need(isinstance(w, dict) and isinstance(w.get("word"), str)
                 and re.match(r"0x[0-9A-Fa-f]{1,8}\Z", w["word"]),
                 "%s: word must be a string 0xHHHHHHHH" % where)
            out.append("%s: 0x%08X" % (t, int(w["word"], 16)))
    expects = doc.get("expect")
    need(isinstance(expects, list), "expect must be a list")
    for i, x in enumerate(expects):
        out.append(expect_line(x, "expect[%d]" % i))
    return "\n".join(out) + "\n"


def convert(path):
    with open(path, "r", encoding="utf-8") as f:
        return to_vec(json.load(f))


def write(path, data):
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(data)


def run_index(index_path, dest):
    with open(index_path, "r", encoding="utf-8") as f:
        idx = json.load(f)
    if not (isinstance(idx, dict) and idx.get("format") == INDEX_FORMAT
            and idx.get("version") == VERSION and isinstance(idx.get("vectors"), list)):
        raise SchemaError("not a %s version %d document" % (INDEX_FORMAT, VERSION))
    base = os.path.dirname(index_path)
    bad = 0
    for e in idx["vectors"]:
        rel = e.get("json") if isinstance(e, dict) else None
        if not isinstance(rel, str) or rel.startswith("/") or ".." in rel.split("/"):
            raise SchemaError("index entry %r: json must be a relative path inside the export"
                              % (e,))
        src = os.path.join(base, rel)
        try:
            text_out = convert(src)
        except (OSError, ValueError, SchemaError) as ex:
            print("%s: %s" % (src, ex), file=sys.stderr)
            bad += 1
            continue
        stem = rel[:-5] if rel.endswith(".json") else rel
        write(os.path.join(dest, stem + ".vec"), text_out)
    print("%d converted, %d failed" % (len(idx["vectors"]) - bad, bad))
    return 1 if bad else 0


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    try:
        if args[0] == "--index":
            if len(args) != 3:
                print("usage: json2vec.py --index INDEX.json DESTDIR", file=sys.stderr)
                return 2
            try:
                return run_index(args[1], args[2])
            except (OSError, ValueError, SchemaError) as ex:
                print("%s: %s" % (args[1], ex), file=sys.stderr)
                return 1
        out = None
        if args[0] == "-o":
            if len(args) != 3:
                print("usage: json2vec.py [-o OUT.vec] VECTOR.json", file=sys.stderr)
                return 2
            out, args = args[1], args[2:]
        if len(args) != 1:
            print("usage: json2vec.py [-o OUT.vec] VECTOR.json", file=sys.stderr)
            return 2
        try:
            data = convert(args[0])
        except (OSError, ValueError, SchemaError) as ex:
            print("%s: %s" % (args[0], ex), file=sys.stderr)
            return 1
        if out is None:
            sys.stdout.write(data)
        else:
            write(out, data)
        return 0
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
