#!/usr/bin/env python3
"""tests/mutation/mutate.py — mutation testing of model/ (make mutation, make mutation-ci).

No maintained mutation tool for C installs from Debian's or npm's registries (Stryker is
JavaScript only), so this is a small one of our own. Single-token mutants of model/*.c:

  operators   + <-> -   * -> /   << <-> >>   & <-> |   | -> ^   ^ -> |   && <-> ||
              < -> <=   <= -> <   > -> >=   >= -> >   == <-> !=   ++ <-> --
              += <-> -=   |= -> &=   &= -> |=   <<= <-> >>=
  literals    integer literal n -> n+1 and n -> n-1 (same base and suffix)

Comments, string/character literals, preprocessor lines and the arguments of TT_DEFECT(...)
are never mutated; `-`, `*` and `&` only where they are binary operators.

Sampling (fixed seed, fixed size): every candidate mutant has a stable key (file, the text of
its line, the token's index in the line, the replacement), so line shifts elsewhere do not
change it. Per file the candidates are ranked by sha1(seed + key); the first N that
  - compile with the project's warning flags (-Werror; else "stillborn", skipped), and
  - do not compile to the same object code as the original at -O2 (Trivial Compiler
    Equivalence: "equivalent (identical object code)", skipped)
form the sample. A mutant is killed by a test kind when one of its runs fails (non-zero exit,
crash or time-out):
  conformance  ttconf --mode both conformance/ and conformance/selftest/run.sh (the runner's
               own checks on malformed vectors)
  unit         every tests/test_*.c except test_isa_exhaustive (the 2^32 decoder test covers
               isa.c only, which is not sampled; its quick mode alone takes ~20 s)
  spec_diff    (--fuzz S) the spec_diff fuzz target for S seconds, only for mutants that
               neither suite kind killed
Survivors listed in tests/mutation/equivalent.tsv (id, file, one-line reason) count as equivalent.
The kill rate is killed / (sampled - equivalent).

Writes reports/mutation.md (or --report) and build/mutation/results.tsv.
usage: mutate.py [--per-file N] [--seed S] [--jobs J] [--files a.c,b.c] [--fuzz S]
                 [--min-rate P] [--report PATH] [--list]
"""
import argparse
import bisect
import glob
import concurrent.futures as cf
import hashlib
import json
import queue
import os
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEMANTIC = ["waitgate.c", "sync.c", "config.c", "scalar.c", "run.c", "state.c", "host.c"]
CYCLE = ["cycle.c"]
TEXT = ["asm.c", "vec.c", "vec_run.c", "loc.c"]
DEFAULT_FILES = SEMANTIC + CYCLE + TEXT
GROUP = {f: "semantic" for f in SEMANTIC}
GROUP.update({f: "cycle" for f in CYCLE})
GROUP.update({f: "text" for f in TEXT})
def mpath(f):
    """a model source's path: the text layer is in model/text/, the machine in model/"""
    return "model/text/" + f if os.path.exists(os.path.join(ROOT, "model", "text", f)) else "model/" + f


WARN = ("-std=c11 -Wall -Wextra -Werror -Wshadow -Wswitch-enum -Wcast-qual "
        "-Wstrict-prototypes -Wundef -Wvla -Wno-missing-field-initializers").split()
# ttconf's other sources: conformance/ttdut.h's checker, the model behind it, the line protocol
# client and the JSON export (the Makefile's DUT_SRC; dut_serve.c has a main of its own)
RUNNER_EXTRA = sorted(f for f in glob.glob("conformance/dut_*.c") if not f.endswith("dut_serve.c")) + \
               ["conformance/vec_json.c"]
CPP = ["-Imodel", "-Imodel/text", "-Iconformance", "-Icommon", "-D_POSIX_C_SOURCE=200809L"]
CC = os.environ.get("CC", "cc")
TIMEOUT = 60          # seconds per test run (a mutant that loops is killed by the time-out)
SKIP_UNITS = {"test_isa_exhaustive"}

# ---- tokenizer -----------------------------------------------------------------------------
OPS = ["<<=", ">>=", "...", "->", "++", "--", "&&", "||", "<=", ">=", "==", "!=", "+=", "-=",
       "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "##"]
SWAP = {"+": ["-"], "-": ["+"], "*": ["/"], "<<": [">>"], ">>": ["<<"], "&": ["|"],
        "|": ["^"], "^": ["|"], "&&": ["||"], "||": ["&&"], "<": ["<="], "<=": ["<"],
        ">": [">="], ">=": [">"], "==": ["!="], "!=": ["=="], "++": ["--"], "--": ["++"],
        "+=": ["-="], "-=": ["+="], "|=": ["&="], "&=": ["|="], "<<=": [">>="], ">>=": ["<<="]}
BINARY_ONLY = {"-", "*", "&", "+"}
NUM_RE = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)$")


def tokens(src):
    """Yield (offset, text, kind) for every token outside comments/strings/preprocessor."""
    i, n = 0, len(src)
    line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":          # preprocessor line (with continuations)
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    i += 2
                    continue
                if src.startswith("/*", i):
                    j = src.find("*/", i + 2)
                    i = n if j < 0 else j + 2
                    continue
                i += 1
            continue
        line_start = False
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            yield i, src[i:j + 1], "str"
            i = j + 1
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            yield i, src[i:j], "id"
            i = j
            continue
        if c.isdigit():
            j = i
            while j < n and (src[j].isalnum() or src[j] == "."):
                j += 1
            yield i, src[i:j], "num"
            i = j
            continue
        for op in OPS:
            if src.startswith(op, i):
                yield i, op, "op"
                i += len(op)
                break
        else:
            yield i, c, "op"
            i += 1


def candidates(path, rel):
    src = open(path, encoding="utf-8").read()
    toks = list(tokens(src))
    lines = src.split("\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)
    out = []
    defect_depth = 0
    per_line_index = {}
    for k, (off, text, kind) in enumerate(toks):
        lineno = bisect.bisect_right(starts, off) - 1
        idx = per_line_index.get(lineno, 0)
        per_line_index[lineno] = idx + 1
        prev = toks[k - 1] if k else None
        # skip TT_DEFECT( ... ) arguments
        if defect_depth == -1:            # the '(' right after TT_DEFECT
            defect_depth = 1
            continue
        if defect_depth > 0:
            if text == "(":
                defect_depth += 1
            elif text == ")":
                defect_depth -= 1
            continue
        if kind == "id" and text == "TT_DEFECT":
            defect_depth = -1
            continue
        reps = []
        if kind == "op" and text in SWAP:
            if text in BINARY_ONLY:
                if prev is None or not (prev[2] in ("id", "num") or prev[1] in (")", "]")):
                    continue
                if prev[2] == "id" and prev[1] in ("return", "case", "sizeof"):
                    continue
            reps = SWAP[text]
        elif kind == "num":
            m = NUM_RE.match(text)
            if not m:
                continue
            body, suf = m.group(1), m.group(2)
            hexa = body[:2].lower() == "0x"
            v = int(body, 16 if hexa else 10)
            if not hexa and len(body) > 1 and body[0] == "0":
                continue  # octal: leave alone
            vals = [v + 1] + ([v - 1] if v > 0 else [])
            for nv in vals:
                if hexa:
                    digits = max(len(body) - 2, len("%x" % nv))
                    s = body[:2] + ("%0*X" % (digits, nv) if body[2:].upper() == body[2:]
                                    else "%0*x" % (digits, nv))
                else:
                    s = str(nv)
                reps.append(s + suf)
        else:
            continue
        line_text = lines[lineno]
        col = off - starts[lineno]
        nth = sum(1 for ln in lines[:lineno] if ln.strip() == line_text.strip())
        for r in reps:
            # keyed by the path the file had when the equivalents were judged: the text layer's
            # move to model/text/ leaves every mutant's id (and the sample) as it was
            key = "%s|%s|%d|%d|%s->%s" % (rel.replace("model/text/", "model/"), line_text.strip(), nth, idx, text, r)
            mid = hashlib.sha1(key.encode()).hexdigest()[:10]
            out.append({"id": mid, "file": rel, "line": lineno + 1, "col": col, "orig": text,
                        "rep": r, "key": key, "off": off, "before": line_text,
                        "after": line_text[:col] + r + line_text[col + len(text):]})
    return src, out


# ---- building and running -------------------------------------------------------------------
def run(cmd, cwd=ROOT, timeout=None, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def cc(args, **kw):
    return run([CC] + args, **kw)


def text_sections(obj):
    """Code and data of an object file (no symbols, debug info or file names)."""
    tmp = obj + ".bin"
    rc, _ = run(["objcopy", "-O", "binary", "--only-section=.text*", "--only-section=.rodata*",
                 "--only-section=.data*", obj, tmp])
    if rc != 0:
        return None
    data = open(tmp, "rb").read()
    os.unlink(tmp)
    rc, relocs = run(["objdump", "-r", obj])
    relocs = "\n".join(l for l in relocs.splitlines()[2:])
    return data, relocs


class Builder:
    def __init__(self, bdir, files_all):
        self.bdir = bdir
        self.base = os.path.join(bdir, "base")
        os.makedirs(self.base, exist_ok=True)
        self.model_srcs = sorted(f for d in ("model", "model/text") for f in os.listdir(os.path.join(ROOT, d))
                                 if f.endswith(".c"))
        self.units = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "tests"))
                            if f.startswith("test_") and f.endswith(".c")
                            and f[:-2] not in SKIP_UNITS)
        self.fuzz_objs = None

    def obj_flags(self):
        return CPP + WARN + ["-O2"]

    def build_base(self):
        jobs = []
        for f in self.model_srcs:
            jobs.append(([mpath(f)] + self.obj_flags() +
                         ["-c", "-o", os.path.join(self.base, f[:-2] + ".o")]))
        jobs.append((["conformance/runner.c"] + self.obj_flags() +
                     ["-c", "-o", os.path.join(self.base, "runner.o")]))
        for src in RUNNER_EXTRA:   # the implementation-under-test layer ttconf is linked with
            jobs.append(([src] + self.obj_flags() +
                         ["-c", "-o", os.path.join(self.base, os.path.basename(src)[:-2] + ".o")]))
        for u in self.units:
            jobs.append((["tests/%s.c" % u, "-Itests"] + self.obj_flags() +
                         ["-c", "-o", os.path.join(self.base, u + ".o")]))
        with cf.ThreadPoolExecutor(2) as ex:
            for rc, out in ex.map(lambda a: cc(a), jobs):
                if rc != 0:
                    sys.exit("mutation: baseline build failed:\n" + out)
        # which model objects each binary pulls from the library: a unit test that does not
        # link the mutated file cannot see the mutant and is not run for it
        lib = os.path.join(self.base, "libtt.a")
        if os.path.exists(lib):
            os.unlink(lib)
        run(["ar", "rcs", lib] + [os.path.join(self.base, f[:-2] + ".o") for f in self.model_srcs])
        self.links = {}
        for u in self.units + ["runner"]:
            mp = os.path.join(self.base, u + ".map")
            extra = self.runner_extra() if u == "runner" else []
            rc, out = cc([os.path.join(self.base, u + ".o")] + extra + [lib, "-lpthread", "-ldl",
                          "-Wl,-Map=" + mp, "-o", os.path.join(self.base, u + ".bin")])
            if rc != 0:
                sys.exit("mutation: baseline link of %s failed:\n%s" % (u, out))
            self.links[u] = set(re.findall(r"libtt\.a\((\w+)\.o\)", open(mp).read()))
        self.base_sections = {}
        for f in self.model_srcs:
            self.base_sections[f] = text_sections(os.path.join(self.base, f[:-2] + ".o"))

    def model_objs(self, mutated_file=None, mutated_obj=None):
        objs = []
        for f in self.model_srcs:
            if f == mutated_file:
                objs.append(mutated_obj)
            else:
                objs.append(os.path.join(self.base, f[:-2] + ".o"))
        return objs

    def runner_extra(self):
        return [os.path.join(self.base, os.path.basename(src)[:-2] + ".o") for src in RUNNER_EXTRA]

    def link_all(self, wdir, objs, units):
        rc, out = cc([os.path.join(self.base, "runner.o")] + self.runner_extra() + objs +
                     ["-ldl", "-o", os.path.join(wdir, "ttconf")])
        if rc != 0:
            return "link ttconf: " + out
        for u in units:
            rc, out = cc([os.path.join(self.base, u + ".o")] + objs +
                         ["-lpthread", "-o", os.path.join(wdir, u)])
            if rc != 0:
                return "link %s: %s" % (u, out)
        return None


def compile_mutant(b, m, src, wdir):
    """Write and compile the mutant: 'stillborn', 'tce' or the object path."""
    os.makedirs(wdir, exist_ok=True)
    msrc = src[:m["off"]] + m["rep"] + src[m["off"] + len(m["orig"]):]
    cpath = os.path.join(wdir, os.path.basename(m["file"]))
    with open(cpath, "w", encoding="utf-8") as fh:
        fh.write(msrc)
    obj = os.path.join(wdir, os.path.basename(m["file"])[:-2] + ".o")
    rc, out = cc([cpath] + b.obj_flags() + ["-c", "-o", obj])
    if rc != 0:
        return "stillborn", cpath
    if text_sections(obj) == b.base_sections[os.path.basename(m["file"])]:
        return "tce", cpath
    return obj, cpath


def test_mutant(b, m, obj, wdir):
    res = {"conformance": [], "unit": []}
    stem = os.path.basename(m["file"])[:-2]
    units = [u for u in b.units if stem in b.links[u]]
    err = b.link_all(wdir, b.model_objs(os.path.basename(m["file"]), obj), units)
    if err:
        res["conformance"].append("link error")
        return res
    ttconf = os.path.join(wdir, "ttconf")
    rc, out = run([ttconf, "--mode", "both", "--quiet", "conformance"], timeout=TIMEOUT)
    if rc != 0:
        tail = [l for l in out.splitlines() if l.startswith(("FAIL", "conformance/"))][:1]
        res["conformance"].append("vectors" + (": " + tail[0][:120] if tail else
                                                " (%s)" % rc))
    rc, out = run(["bash", "conformance/selftest/run.sh", ttconf], timeout=TIMEOUT)
    if rc != 0:
        res["conformance"].append("selftest" if rc != "timeout" else "selftest (timeout)")
    for u in units:
        rc, out = run([os.path.join(wdir, u)], timeout=TIMEOUT)
        if rc != 0:
            res["unit"].append(u if rc != "timeout" else u + " (timeout)")
    return res


def fuzz_mutant(b, m, src, wdir, seconds):
    """Build spec_diff (libFuzzer, no sanitizer) against the mutant and run it `seconds`."""
    fz = b.fuzz_base
    msrc = os.path.join(wdir, os.path.basename(m["file"]))
    obj = os.path.join(wdir, "fz_" + os.path.basename(m["file"])[:-2] + ".o")
    rc, out = run(["clang"] + CPP + ["-std=c11", "-O1", "-g", "-fsanitize=fuzzer-no-link",
                                     "-c", msrc, "-o", obj])
    if rc != 0:
        return "build failed"
    objs = [os.path.join(fz, f[:-2] + ".o") if f != os.path.basename(m["file"]) else obj
            for f in b.model_srcs]
    binp = os.path.join(wdir, "spec_diff")
    rc, out = run(["clang", "-fsanitize=fuzzer"] + b.fuzz_objs + objs + ["-o", binp])
    if rc != 0:
        return "link failed: " + out[:200]
    corpus = os.path.join(wdir, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    os.makedirs(corpus)
    rc, out = run([binp, "-seed=1", "-max_total_time=%d" % seconds, "-timeout=10",
                   "-rss_limit_mb=4096", "-print_final_stats=0", corpus,
                   os.path.join(ROOT, "corpus", "spec_diff")], cwd=wdir,
                  timeout=seconds + 120)
    if rc == 0:
        return None
    msg = [l for l in out.splitlines() if "INVARIANT" in l or "ERROR:" in l or "deadly" in l]
    return (msg[0].strip()[:160] if msg else "fired (%s)" % rc)


def build_fuzz_base(b):
    fz = os.path.join(b.bdir, "fuzzbase")
    os.makedirs(fz, exist_ok=True)
    flags = CPP + ["-std=c11", "-O1", "-g", "-fsanitize=fuzzer-no-link"]
    jobs = [(["clang"] + flags + ["-c", mpath(f), "-o", os.path.join(fz, f[:-2] + ".o")])
            for f in b.model_srcs]
    fobjs = []
    for f in ["spec_diff", "spec_ref", "fz_input", "fz_mutator", "fz_lf_mutator"]:
        o = os.path.join(fz, "f_" + f + ".o")
        jobs.append(["clang"] + flags + ["-Ifuzz", "-c", "fuzz/%s.c" % f, "-o", o])
        fobjs.append(o)
    with cf.ThreadPoolExecutor(2) as ex:
        for rc, out in ex.map(lambda a: run(a), jobs):
            if rc != 0:
                sys.exit("mutation: spec_diff base build failed:\n" + out)
    b.fuzz_base = fz
    b.fuzz_objs = fobjs


# ---- report -----------------------------------------------------------------------------------
def load_equivalent():
    eq = {}
    path = os.path.join(ROOT, "tests", "mutation", "equivalent.tsv")
    if os.path.exists(path):
        for ln in open(path, encoding="utf-8"):
            if not ln.strip() or ln.startswith("#"):
                continue
            parts = ln.rstrip("\n").split("\t")
            if len(parts) >= 3:
                eq[parts[0]] = parts[2]
    return eq


def pct(a, b):
    return "%.0f%%" % (100.0 * a / b) if b else "n/a"


def write_report(path, args, results, skipped, elapsed):
    eq = load_equivalent()
    files = [f for f in args.files]
    lines = []
    w = lines.append
    w("# Mutation testing of `model/`")
    w("")
    w("Generated by `make mutation` (`tests/mutation/mutate.py`); do not edit. Seed %d, %d mutants "
      "per file, %s; %.0f s." % (args.seed, args.per_file,
                                 "spec_diff %d s per suite survivor" % args.fuzz if args.fuzz
                                 else "no fuzzing", elapsed))
    w("")
    w("Single-token mutants (operator swaps, integer literals ±1) of each file, ranked by "
      "sha1(seed, key); the first N that build with the project's flags and do not compile to "
      "the original object code form the sample. Kill = a failing run. *conformance* = all "
      "vectors in both modes plus the runner selftest; *unit* = `tests/test_*.c` (not "
      "test_isa_exhaustive); *either* = the suite. Equivalent mutants (listed in "
      "`tests/mutation/equivalent.tsv`, reason below) are left out of the rates.")
    w("")
    w("| file | group | sampled | equivalent | conformance | unit | either | %s survived | kill rate |"
      % ("spec_diff (of survivors) |" if args.fuzz else ""))
    w("|---|---|---:|---:|---:|---:|---:|%s---:|---:|" % ("---:|" if args.fuzz else ""))
    groups = {}
    tot = {"n": 0, "eq": 0, "conf": 0, "unit": 0, "either": 0, "fz": 0, "fzn": 0, "surv": 0}

    def acc(d, r):
        d["n"] += 1
        if r["equivalent"]:
            d["eq"] += 1
            return
        d["conf"] += bool(r["conformance"])
        d["unit"] += bool(r["unit"])
        killed = bool(r["conformance"] or r["unit"])
        d["either"] += killed
        if not killed:
            d["fzn"] += 1
            d["fz"] += bool(r.get("fuzz"))
            d["surv"] += 1

    for f in files:
        rs = [r for r in results if r["file"] == mpath(f)]
        d = {k: 0 for k in tot}
        for r in rs:
            acc(d, r)
            acc(tot, r)
            g = groups.setdefault(GROUP.get(f, "other"), {k: 0 for k in tot})
            acc(g, r)
        ne = d["n"] - d["eq"]
        w("| `%s` | %s | %d | %d | %d | %d | %d | %s%d | **%s** |" % (
            f, GROUP.get(f, "other"), d["n"], d["eq"], d["conf"], d["unit"], d["either"],
            ("%d/%d | " % (d["fz"], d["fzn"])) if args.fuzz else "", d["surv"],
            pct(d["either"], ne)))
    for gname in ["semantic", "cycle", "text", "other"]:
        if gname not in groups:
            continue
        d = groups[gname]
        ne = d["n"] - d["eq"]
        w("| **%s files** | | %d | %d | %d | %d | %d | %s%d | **%s** |" % (
            gname, d["n"], d["eq"], d["conf"], d["unit"], d["either"],
            ("%d/%d | " % (d["fz"], d["fzn"])) if args.fuzz else "", d["surv"],
            pct(d["either"], ne)))
    ne = tot["n"] - tot["eq"]
    w("| **all** | | %d | %d | %d | %d | %d | %s%d | **%s** |" % (
        tot["n"], tot["eq"], tot["conf"], tot["unit"], tot["either"],
        ("%d/%d | " % (tot["fz"], tot["fzn"])) if args.fuzz else "", tot["surv"],
        pct(tot["either"], ne)))
    w("")
    w("Kill rate per test kind over the non-equivalent mutants: conformance %s, unit %s, "
      "both together %s%s." % (pct(tot["conf"], ne), pct(tot["unit"], ne), pct(tot["either"], ne),
                               ("; spec_diff killed %d of the %d the suite missed (%s)" %
                                (tot["fz"], tot["fzn"], pct(tot["fz"], tot["fzn"])))
                               if args.fuzz else ""))
    w("")
    w("Candidates passed over while drawing the sample: %d stillborn (do not compile with "
      "-Werror), %d equivalent by construction (identical object code at -O2)." %
      (skipped["stillborn"], skipped["tce"]))
    w("")
    surv = [r for r in results if not (r["conformance"] or r["unit"])]
    w("## Survivors (%d), equivalent ones marked" % len(surv))
    w("")
    if not surv:
        w("None.")
    for r in surv:
        tag = "equivalent — " + eq[r["id"]] if r["equivalent"] else "**not killed**"
        if args.fuzz and not r["equivalent"]:
            tag += "; spec_diff: " + (r.get("fuzz") or "did not fire")
        w("- `%s` %s:%d — %s" % (r["id"], r["file"], r["line"], tag))
        w("  ```diff")
        w("  - " + r["before"].strip())
        w("  + " + r["after"].strip())
        w("  ```")
    w("")
    w("## Killed mutants")
    w("")
    w("| id | location | mutation | killed by |")
    w("|---|---|---|---|")
    for r in results:
        if r["conformance"] or r["unit"]:
            by = "; ".join(r["conformance"] + r["unit"])
            w("| `%s` | %s:%d | `%s` → `%s` | %s |" % (r["id"], r["file"], r["line"],
                                                   r["orig"], r["rep"], by.replace("|", "\\|")))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-file", type=int, default=20)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--files", default=",".join(DEFAULT_FILES))
    ap.add_argument("--fuzz", type=int, default=0)
    ap.add_argument("--min-rate", type=float, default=0.0)
    ap.add_argument("--report", default="reports/mutation.md")
    ap.add_argument("--build", default="build/mutation")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    args.files = [f for f in args.files.split(",") if f]
    os.chdir(ROOT)
    t0 = time.time()
    bdir = os.path.join(ROOT, args.build)
    b = Builder(bdir, args.files)
    srcs, cands = {}, {}
    for f in args.files:
        src, cs = candidates(os.path.join(ROOT, mpath(f)), mpath(f))
        srcs[f] = src
        cs.sort(key=lambda m: hashlib.sha1(("%d|%s" % (args.seed, m["key"])).encode()).hexdigest())
        cands[f] = cs
    if args.list:
        for f in args.files:
            print("%s: %d candidates" % (f, len(cands[f])))
        return 0
    b.build_base()
    if args.fuzz:
        build_fuzz_base(b)
    eq = load_equivalent()
    skipped = {"stillborn": 0, "tce": 0}
    results = []

    # stillborn / identical-code verdicts depend on the model sources and flags only
    mfp = hashlib.sha1()
    for d in ("model", "model/text"):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith((".c", ".h", ".def")):
                mfp.update(f.encode() + open(os.path.join(ROOT, d, f), "rb").read())
    mfp.update(" ".join(WARN + [CC]).encode())
    model_fp = mfp.hexdigest()
    draw_path = os.path.join(bdir, "draw.jsonl")
    drawn = {}
    if os.path.exists(draw_path):
        for ln in open(draw_path):
            try:
                e = json.loads(ln)
            except ValueError:
                continue
            if e.get("fp") == model_fp:
                drawn[e["id"]] = e["verdict"]
    draw_fh = open(draw_path, "a")
    draw_lock = threading.Lock()

    def draw(f, worker):
        """The sample of one file, drawn sequentially (compile + TCE), in rank order."""
        sample = []
        wdir = os.path.join(bdir, "w%s" % worker)
        for m in cands[f]:
            if len(sample) >= args.per_file:
                break
            if m["id"] in drawn:
                obj = drawn[m["id"]]
            else:
                shutil.rmtree(wdir, ignore_errors=True)
                obj, cpath = compile_mutant(b, m, srcs[f], wdir)
                verdict = obj if obj in ("stillborn", "tce") else "ok"
                with draw_lock:
                    draw_fh.write(json.dumps({"fp": model_fp, "id": m["id"], "verdict": verdict}) + "\n")
                    draw_fh.flush()
            if obj == "stillborn":
                skipped["stillborn"] += 1
                continue
            if obj == "tce":
                skipped["tce"] += 1
                continue
            sample.append(m)
        return sample

    samples = {}
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(draw, f, "d%d" % i): f for i, f in enumerate(args.files)}
        for fu in cf.as_completed(futs):
            samples[futs[fu]] = fu.result()
    todo = [m for f in args.files for m in samples[f]]

    # results of earlier runs with exactly the same sources, suite and flags (resumable)
    fp = hashlib.sha1()
    for d in ["model", "tests", "conformance"]:
        for dp, dn, fn in sorted(os.walk(os.path.join(ROOT, d))):
            dn.sort()
            for f in sorted(fn):
                if f.endswith((".c", ".h", ".def", ".vec", ".sh")):
                    fp.update(f.encode())
                    fp.update(open(os.path.join(dp, f), "rb").read())
    fp.update(" ".join(WARN + [CC]).encode())
    fingerprint = fp.hexdigest()
    cache_path = os.path.join(bdir, "cache.jsonl")
    cache = {}
    if os.path.exists(cache_path):
        for ln in open(cache_path):
            try:
                e = json.loads(ln)
            except ValueError:
                continue
            if e.get("fp") == fingerprint:
                cache[e["id"]] = e
    cache_fh = open(cache_path, "a")
    cache_lock = threading.Lock()

    # one private work directory per running task (a directory is never shared by two)
    free_dirs = queue.Queue()
    for k in range(max(1, args.jobs)):
        free_dirs.put(os.path.join(bdir, "m%d" % k))

    def one(args_):
        wdir = free_dirs.get()
        try:
            return one_in(args_, wdir)
        finally:
            free_dirs.put(wdir)

    def one_in(args_, wdir):
        i, m = args_
        c = cache.get(m["id"])
        if c and (not args.fuzz or c["conformance"] or c["unit"] or m["id"] in eq
                  or c.get("fuzz_s") == args.fuzz):
            r = dict(m)
            r.update({"conformance": c["conformance"], "unit": c["unit"],
                      "fuzz": c.get("fuzz") if args.fuzz else None})
            r["equivalent"] = m["id"] in eq and not (r["conformance"] or r["unit"])
            return r
        if c:   # a suite survivor measured without fuzzing: fuzz it now
            r = dict(m)
            r.update({"conformance": c["conformance"], "unit": c["unit"]})
            r["equivalent"] = False
            shutil.rmtree(wdir, ignore_errors=True)
            f = os.path.basename(m["file"])
            compile_mutant(b, m, srcs[f], wdir)
            r["fuzz"] = fuzz_mutant(b, m, srcs[f], wdir, args.fuzz)
            with cache_lock:
                cache_fh.write(json.dumps({"fp": fingerprint, "id": m["id"], "conformance": r["conformance"],
                                           "unit": r["unit"], "fuzz": r["fuzz"], "fuzz_s": args.fuzz}) + "\n")
                cache_fh.flush()
            return r
        shutil.rmtree(wdir, ignore_errors=True)
        f = os.path.basename(m["file"])
        obj, cpath = compile_mutant(b, m, srcs[f], wdir)
        r = dict(m)
        r.update(test_mutant(b, m, obj, wdir))
        r["equivalent"] = m["id"] in eq and not (r["conformance"] or r["unit"])
        if args.fuzz and not (r["conformance"] or r["unit"]) and not r["equivalent"]:
            r["fuzz"] = fuzz_mutant(b, m, srcs[f], wdir, args.fuzz)
        with cache_lock:
            cache_fh.write(json.dumps({"fp": fingerprint, "id": m["id"], "conformance": r["conformance"],
                                       "unit": r["unit"], "fuzz": r.get("fuzz"),
                                       "fuzz_s": args.fuzz if "fuzz" in r else 0}) + "\n")
            cache_fh.flush()
        return r

    done = 0
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for r in ex.map(one, list(enumerate(todo))):
            results.append(r)
            done += 1
            killed = "killed" if (r["conformance"] or r["unit"]) else (
                "equivalent" if r["equivalent"] else "SURVIVED")
            if args.fuzz and killed == "SURVIVED":
                killed += " (spec_diff: %s)" % ((r.get("fuzz") or "did not fire")[:100])
            print("mutation: [%d/%d] %s %s:%d %s -> %s: %s" % (
                done, len(todo), r["id"], r["file"], r["line"], r["orig"], r["rep"], killed),
                flush=True)
    with open(os.path.join(bdir, "results.tsv"), "w") as fh:
        for r in results:
            fh.write("\t".join([r["id"], r["file"], str(r["line"]), r["orig"], r["rep"],
                                ",".join(r["conformance"]), ",".join(r["unit"]),
                                str(r.get("fuzz") or ""), "eq" if r["equivalent"] else "",
                                r["before"].strip(), r["after"].strip()]) + "\n")
    tot = write_report(os.path.join(ROOT, args.report), args, results, skipped, time.time() - t0)
    ne = tot["n"] - tot["eq"]
    rate = 100.0 * tot["either"] / ne if ne else 100.0
    print("mutation: %d mutants, %d equivalent, %d killed, %d survived: kill rate %.1f%% "
          "(report %s)" % (tot["n"], tot["eq"], tot["either"], tot["surv"], rate, args.report))
    if rate < args.min_rate:
        print("mutation: kill rate %.1f%% is below the required %.0f%%" % (rate, args.min_rate))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
