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

Files: every model/*.c and model/text/*.c (groups: semantic = the units, state and functional
scheduler; cycle = cycle.c, cycle_out.c; tables = isa.c, text.c, amb.c, profile.c; text = model/text/).

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
  unit         every tests/test_*.c that links the mutated file, except test_isa_exhaustive
               (the 2^32 decoder test of isa.c: its quick mode alone takes ~20 s a run)
Survivors listed in tests/mutation/equivalent.tsv (id, file, one-line reason) count as equivalent.
The kill rate is killed / (sampled - equivalent).

Campaigns (--campaign S, make mutation's default 30): every non-equivalent mutant, killed by the
suite or not, also meets the fuzz targets (libFuzzer, no sanitizers, -seed fixed, from the
committed seeds corpus/<target>/): model/ files spec_diff, func_invariants, cycle_vs_func,
reset_equivalence (the table files isa.c and text.c also text_parsers, decode_roundtrip);
model/text/ files text_parsers, decode_roundtrip. First every target over its seeds (-runs=0),
then each fuzzing in turn; --campaign-split runs (default): S seconds of an idle core counted
in executions (CAMP_RATE), so the verdict does not depend on the load; shared: one S-second
wall-clock budget for all of it, each fuzzing run an even share of what is left; each: every
target fuzzes S seconds. The
campaign stops at the first finding that the unmutated build does not share (INVARIANT abort,
crash, an input > 10 s). Model and harness objects are compiled once, only the mutated file per
mutant, and a target is linked only when its turn comes. Campaign survivors that the suite
kills are listed in the report with the reason from tests/mutation/campaign-misses.tsv.

Writes reports/mutation.md (or --report) and build/mutation/results.tsv.
usage: mutate.py [--per-file N] [--seed S] [--jobs J] [--files a.c,b.c] [--campaign S]
                 [--campaign-seed N] [--campaign-split runs|shared|each] [--campaign-equivalent]
                 [--min-rate P] [--report PATH] [--build DIR] [--list]
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
CYCLE = ["cycle.c", "cycle_out.c"]
TABLES = ["isa.c", "text.c", "amb.c", "profile.c"]     # layers 0 and 2: tables, registry, leaf text
TEXT = ["asm.c", "vec.c", "vec_expect.c", "vec_run.c", "loc.c", "listing.c"]
DEFAULT_FILES = SEMANTIC + CYCLE + TABLES + TEXT
GROUP = {f: "semantic" for f in SEMANTIC}
GROUP.update({f: "cycle" for f in CYCLE})
GROUP.update({f: "tables" for f in TABLES})
GROUP.update({f: "text" for f in TEXT})
# config.c from this line on is the Config pipeline (its stages and the deferred forms' capture
# and commit); the report counts its mutants apart
PIPELINE_MARK = ("config.c", "the Config pipeline's view of the deferred forms")
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


# ---- campaigns (--campaign S) -------------------------------------------------------------------
# Which fuzz targets a file's mutants meet: the machine's files (model/) the four program targets,
# the text layer (model/text/) the two text targets. Order = the order they run in (a mutant's
# campaign stops at the first finding).
PROG_TARGETS = ["spec_diff", "func_invariants", "cycle_vs_func", "reset_equivalence"]
TEXT_TARGETS = ["text_parsers", "decode_roundtrip"]
CAMP_HARNESS = {"spec_diff": ["spec_diff", "spec_ref", "spec_ref_cycle", "spec_ref_insn", "spec_ref_host",
                              "spec_ref_mem", "spec_ref_pipe",
                              "fz_input", "fz_mutator",
                              "fz_lf_mutator"],
                "func_invariants": ["func_invariants", "fz_input", "fz_mutator", "fz_lf_mutator"],
                "cycle_vs_func": ["cycle_vs_func", "fz_input", "fz_mutator", "fz_lf_mutator"],
                "reset_equivalence": ["reset_equivalence", "fz_input", "fz_mutator", "fz_lf_mutator"],
                "text_parsers": ["text_parsers", "fz_input", "fz_mutator"],
                "decode_roundtrip": ["decode_roundtrip", "fz_input", "fz_mutator"]}
# the Makefile's engine build without sanitizers (its build/fuzz-bench flavour): -O2, libFuzzer's
# coverage minus fuzz/sancov-ignore.txt, no comparison tracing in the scheduler files and asm.c
CAMP_FLAGS = ["-std=c11", "-g", "-O2", "-fsanitize=fuzzer-no-link",
              "-fsanitize-coverage-ignorelist=fuzz/sancov-ignore.txt"]
CAMP_NO_CMP = {"run.c", "cycle.c", "asm.c"}
# --campaign-split runs: executions per CPU second of each target's campaign build on an idle
# core of the project machine (2026-11-26, tree 1b11bbe, libFuzzer -seed=1 -runs=seeds+20000
# from corpus/<target>/, user time). A budget of S seconds becomes, for each of a mutant's n
# targets, S/n x this rate executions after its seeds (-runs), so the campaign does the same
# work whatever the machine's load, and its verdict repeats.
CAMP_RATE = {"spec_diff": 1350, "func_invariants": 20000, "cycle_vs_func": 5400,
             "reset_equivalence": 7000, "text_parsers": 7700, "decode_roundtrip": 13700}


def camp_targets(f):
    if mpath(f).startswith("model/text/"):
        return TEXT_TARGETS
    return PROG_TARGETS + (TEXT_TARGETS if f in ("isa.c", "text.c") else [])


def camp_text(r):
    c = r.get("campaign")
    if not c:
        return ""
    fd = c["found"]
    return ("%s %s (%s, %.1f s)" % (fd["target"], fd["what"], fd["phase"], fd["t"]) if fd
            else "not found")


def camp_cc(src, obj):
    extra = ["-fno-sanitize-coverage=trace-cmp"] if os.path.basename(src) in CAMP_NO_CMP else []
    return run(["clang"] + CPP + ["-Ifuzz"] + CAMP_FLAGS + extra + ["-c", src, "-o", obj])


def build_campaign_base(b, targets):
    """Model and harness objects once; the unmutated binaries (a finding is replayed on them)."""
    cb = os.path.join(b.bdir, "campbase")
    os.makedirs(cb, exist_ok=True)
    jobs = [(mpath(f), os.path.join(cb, f[:-2] + ".o")) for f in b.model_srcs]
    hs = sorted({h for t in targets for h in CAMP_HARNESS[t]})
    jobs += [("fuzz/%s.c" % h, os.path.join(cb, "h_" + h + ".o")) for h in hs]
    with cf.ThreadPoolExecutor(2) as ex:
        for rc, out in ex.map(lambda a: camp_cc(*a), jobs):
            if rc != 0:
                sys.exit("mutation: campaign base build failed:\n" + out)
    b.camp_base = cb
    b.camp_bins = {}
    for t in targets:
        binp = os.path.join(cb, t)
        err = camp_link(b, t, camp_objs(b), binp)
        if err:
            sys.exit("mutation: campaign base link of %s failed:\n%s" % (t, err))
        b.camp_bins[t] = binp


def camp_objs(b, mutated_file=None, mutated_obj=None):
    return [mutated_obj if f == mutated_file else os.path.join(b.camp_base, f[:-2] + ".o")
            for f in b.model_srcs]


def camp_link(b, t, objs, binp):
    hs = [os.path.join(b.camp_base, "h_" + h + ".o") for h in CAMP_HARNESS[t]]
    rc, out = run(["clang", "-fsanitize=fuzzer"] + hs + objs + ["-o", binp])
    return None if rc == 0 else out[:400]


def lf_run(binp, wdir, t, args, budget_s):
    """One libFuzzer run from the committed seeds: (finding or None, seconds, artifact path)."""
    art = os.path.join(wdir, "art_%s_" % t)
    for p in glob.glob(art + "*"):
        os.unlink(p)
    scratch = os.path.join(wdir, "corpus_" + t)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    t0 = time.time()
    rc, out = run([binp, "-artifact_prefix=" + art, "-timeout=10", "-rss_limit_mb=2048",
                   "-print_final_stats=0"] + args +
                  [scratch, os.path.join(ROOT, "corpus", t)], cwd=wdir, timeout=budget_s + 120)
    dt = time.time() - t0
    shutil.rmtree(scratch, ignore_errors=True)
    if rc == 0:
        return None, dt, None
    if rc == "timeout":
        return "hang (no exit within the budget + 120 s)", dt, None
    lines = out.splitlines()
    inv = [l for l in lines if "INVARIANT " in l]
    if inv:
        m = re.search(r"INVARIANT (\w+)", inv[0])
        what = m.group(1)
    elif any("libFuzzer: timeout" in l for l in lines):
        what = "timeout (an input ran > 10 s)"
    elif any("out-of-memory" in l for l in lines):
        what = "out-of-memory"
    elif any("deadly signal" in l for l in lines):
        what = "crash (deadly signal)"
    else:
        what = "exit %s" % rc
    arts = sorted(glob.glob(art + "*"))
    return what, dt, (arts[0] if arts else None)


def campaign_mutant(b, m, cpath, wdir, budget, seed, split):
    """The mutant's campaign: every target from its seeds first (-runs=0), then fuzzing, one
    target after another, stopping at the first finding that the unmutated build does not share.
    split "shared": the targets share one budget (seed runs included; each fuzzing run gets an
    even share of what is left); "each": every target fuzzes for the whole budget.
    Returns a dict for the cache."""
    f = os.path.basename(m["file"])
    obj = os.path.join(wdir, "camp_" + f[:-2] + ".o")
    rc, out = camp_cc(cpath, obj)
    if rc != 0:
        return {"found": None, "note": "campaign build failed: " + out[:200]}
    objs = camp_objs(b, f, obj)
    bins = {}
    spent = 0.0
    notes = []

    def binary(t):
        if t not in bins:
            bins[t] = os.path.join(wdir, "camp_" + t)
            err = camp_link(b, t, objs, bins[t])
            if err:
                bins[t] = None
                notes.append("%s: link failed" % t)
        return bins[t]

    def verdict(t, what, art, phase):
        """a finding the unmutated build shares is no kill (a bug of the model or the target)"""
        if art:
            rc2, _ = run([b.camp_bins[t], "-timeout=10", "-rss_limit_mb=2048", art], cwd=wdir,
                         timeout=120)
            if rc2 != 0:
                notes.append("%s: %s also on the unmutated build (%s)" % (t, what, os.path.basename(art)))
                return None
        return {"target": t, "what": what, "phase": phase, "t": round(spent, 1)}

    targets = camp_targets(f)
    for t in targets:       # phase 1: the seeds only
        binp = binary(t)
        if not binp:
            continue
        what, dt, art = lf_run(binp, wdir, t, ["-seed=%d" % seed, "-runs=0"], 60)
        spent += dt
        if what:
            v = verdict(t, what, art, "seeds")
            if v:
                return {"found": v, "note": "; ".join(notes), "spent": round(spent, 1)}
    for i, t in enumerate(targets):  # phase 2: the budget left, split evenly, in order
        binp = binary(t)
        if not binp:
            continue
        if split == "runs":   # a fixed number of executions, load-independent
            nseeds = len(os.listdir(os.path.join(ROOT, "corpus", t)))
            runs = int(budget * CAMP_RATE[t] / len(targets))
            what, dt, art = lf_run(binp, wdir, t, ["-seed=%d" % seed, "-runs=%d" % (nseeds + runs)],
                                   20 * budget)
            spent += dt
            if what:
                v = verdict(t, what, art, "fuzzing")
                if v:
                    return {"found": v, "note": "; ".join(notes), "spent": round(spent, 1)}
            continue
        share = int((budget - spent) / (len(targets) - i)) if split == "shared" else budget
        if share < 1:
            continue
        what, dt, art = lf_run(binp, wdir, t, ["-seed=%d" % seed, "-max_total_time=%d" % share], share)
        spent += dt
        if what:
            v = verdict(t, what, art, "fuzzing")
            if v:
                return {"found": v, "note": "; ".join(notes), "spent": round(spent, 1)}
    return {"found": None, "note": "; ".join(notes), "spent": round(spent, 1)}


# ---- report -----------------------------------------------------------------------------------
def load_tsv_notes(name):
    """tests/mutation/NAME: id <TAB> file <TAB> note, '#' comments; returns {id: note}"""
    out = {}
    path = os.path.join(ROOT, "tests", "mutation", name)
    if os.path.exists(path):
        for ln in open(path, encoding="utf-8"):
            if not ln.strip() or ln.startswith("#"):
                continue
            parts = ln.rstrip("\n").split("\t")
            if len(parts) >= 3:
                out[parts[0]] = parts[2]
    return out


def load_equivalent():
    """tests/mutation/equivalent.tsv: id <TAB> file <TAB> why the mutant is equivalent"""
    return load_tsv_notes("equivalent.tsv")


def pct(a, b):
    return "%.0f%%" % (100.0 * a / b) if b else "n/a"


def load_misses():
    """tests/mutation/campaign-misses.tsv: id <TAB> file <TAB> why the campaign misses it"""
    return load_tsv_notes("campaign-misses.tsv")


def tree_state():
    rc, head = run(["git", "log", "-1", "--format=%h %cd", "--date=format-local:%Y-%m-%d %H:%M UTC"],
                   env=dict(os.environ, TZ="UTC"))
    rc2, dirty = run(["git", "status", "--porcelain", "--", "model", "tests", "conformance", "fuzz",
                      "corpus"])
    head = head.strip() if rc == 0 else "unknown"
    return head + (" plus uncommitted changes" if rc2 == 0 and dirty.strip() else "")


def in_pipeline(r, srcs):
    f, mark = PIPELINE_MARK
    if os.path.basename(r["file"]) != f or f not in srcs:
        return False
    k = srcs[f].find(mark)
    return k >= 0 and r["line"] > srcs[f].count("\n", 0, k) + 1


def write_report(path, args, results, skipped, elapsed, srcs):
    eq = load_equivalent()
    misses = load_misses()
    camp = bool(args.campaign)
    lines = []
    w = lines.append
    w("# Mutation testing of `model/`")
    w("")
    w("Generated by `make mutation` (`tests/mutation/mutate.py`); do not edit. Tree %s. Seed %d, "
      "%d mutants per file; %s; %.0f s." % (
          args.tree or tree_state(), args.seed, args.per_file,
          ("campaign %d s per mutant (%s budget), libFuzzer -seed=%d" %
           (args.campaign, args.campaign_split, args.campaign_seed)) if camp else "no campaigns",
          elapsed))
    w("")
    w("Single-token mutants (operator swaps, integer literals ±1) of each file, ranked by "
      "sha1(seed, key); the first N that build with the project's flags and do not compile to "
      "the original object code form the sample. Kill = a failing run. *conformance* = all "
      "vectors in both modes plus the runner selftest; *unit* = `tests/test_*.c` (not "
      "test_isa_exhaustive); *suite* = either. Equivalent mutants (listed in "
      "`tests/mutation/equivalent.tsv`, reason below) are left out of the rates.")
    w("")
    if camp:
        w("*campaign* = found by a fixed-seed campaign of the fuzz targets against the mutant, run "
          "for every non-equivalent mutant whatever the suite did. The targets: for `model/` "
          "files %s; for `model/text/` files the text targets %s; for the table files "
          "(`isa.c`, `text.c`) all six. Each is built as `make fuzz`'s libFuzzer engine build "
          "without sanitizers (-O2, `fuzz/sancov-ignore.txt`, no comparison tracing in run.c, "
          "cycle.c, asm.c), the harness and unmutated model objects compiled once, only the "
          "mutated file per mutant. One campaign: first every target over its committed seeds "
          "`corpus/<target>/` (`-runs=0`), then every target fuzzing from them (`-seed=%d`, "
          "the structured mutator), one after another in the order given; %s. It stops at the "
          "first finding (an `INVARIANT` abort, a crash, an input running > 10 s). A finding "
          "counts only if the unmutated build passes the same input (else it is a defect of "
          "the model or the target, noted and the campaign goes on). *time* = seconds of "
          "fuzzer runs up to the finding." % (
              ", ".join("`%s`" % t for t in PROG_TARGETS),
              ", ".join("`%s`" % t for t in TEXT_TARGETS), args.campaign_seed,
              ("the budget is %d s of an idle core, counted in executions so that the verdict "
               "does not depend on the machine's load: each of a mutant's n targets runs its "
               "seeds and then %d/n s x its measured rate of executions (`-runs`; rates per CPU "
               "second: %s)" % (args.campaign, args.campaign,
                                ", ".join("%s %d" % kv for kv in CAMP_RATE.items())))
              if args.campaign_split == "runs" else
              ("the %d s budget is shared: the seed runs count against it, each fuzzing run "
               "gets an even share of what is left (`-max_total_time`)" % args.campaign)
              if args.campaign_split == "shared" else
              "each target fuzzes for %d s" % args.campaign))
        w("")
    if args.note:      # the conditions of this run, in the operator's words (--note FILE)
        w(open(args.note, encoding="utf-8").read().rstrip("\n"))
        w("")
    carried = getattr(args, "carried", {})
    if carried:
        byf = {}
        for r in results:
            if r["id"] in carried:
                byf[os.path.basename(r["file"])] = byf.get(os.path.basename(r["file"]), 0) + 1
        w("**Carried over** (`--carry-over`): the results of %d mutants were measured on an "
          "earlier tree (%s) whose suite, fuzz targets, seeds, headers and mutated file are "
          "the same as here, only other `model/` sources differ: %s. Every other mutant was "
          "measured on this tree." % (
              sum(byf.values()), ", ".join(sorted(set(carried[i] for i in carried))),
              ", ".join("`%s` %d" % kv for kv in byf.items())))
        w("")
    missing = {}
    for f in args.files:
        k = args.todo_by_file.get(f, 0) - sum(1 for r in results if r["file"] == mpath(f))
        if k or (args.cached_only and args.todo_by_file.get(f, 0) < args.per_file):
            missing[f] = k
    if missing:
        w("**Incomplete:** the run was cut short; this report is written from the results "
          "measured so far (`--cached-only`). Not measured: %s. The rows count measured "
          "mutants only." % ", ".join("`%s` (%s)" % (f, ("%d of the sample" % k) if k else "the rest of its sample")
                                      for f, k in missing.items()))
        w("")
    hdr = ["file", "group", "sampled", "equivalent", "conformance", "unit", "suite"]
    if camp:
        hdr += ["campaign", "suite only", "campaign only", "neither", "suite rate", "campaign rate"]
    else:
        hdr += ["survived", "kill rate"]
    w("| " + " | ".join(hdr) + " |")
    w("|---|---|" + "---:|" * (len(hdr) - 2))
    keys = ["n", "eq", "conf", "unit", "either", "camp", "sonly", "conly", "neither"]
    tot = {k: 0 for k in keys}

    def acc(d, r):
        d["n"] += 1
        if r["equivalent"]:
            d["eq"] += 1
            return
        s = bool(r["conformance"] or r["unit"])
        c = bool(r.get("campaign") and r["campaign"].get("found"))
        d["conf"] += bool(r["conformance"])
        d["unit"] += bool(r["unit"])
        d["either"] += s
        d["camp"] += c
        d["sonly"] += s and not c
        d["conly"] += c and not s
        d["neither"] += not s and not c

    def row(name, group, d, bold=False):
        ne = d["n"] - d["eq"]
        b_ = "**" if bold else ""
        cells = [name, group, d["n"], d["eq"], d["conf"], d["unit"], d["either"]]
        if camp:
            cells += [d["camp"], d["sonly"], d["conly"], d["neither"],
                      b_ + pct(d["either"], ne) + b_, "**" + pct(d["camp"], ne) + "**"]
        else:
            cells += [ne - d["either"], "**" + pct(d["either"], ne) + "**"]
        w("| " + " | ".join(str(c) for c in cells) + " |")

    groups = {}
    pipe = {k: 0 for k in keys}
    for f in args.files:
        d = {k: 0 for k in keys}
        for r in results:
            if r["file"] != mpath(f):
                continue
            acc(d, r)
            acc(tot, r)
            acc(groups.setdefault(GROUP.get(f, "other"), {k: 0 for k in keys}), r)
            if in_pipeline(r, srcs):
                acc(pipe, r)
        row("`%s`" % f, GROUP.get(f, "other"), d)
        if f == PIPELINE_MARK[0]:
            row("↳ `config.c` Config pipeline part", "", pipe)
    for gname in ["semantic", "cycle", "tables", "text", "other"]:
        if gname in groups:
            row("**%s files**" % gname, "", groups[gname])
    if "semantic" in groups and "cycle" in groups:
        sc = {k: groups["semantic"][k] + groups["cycle"][k] for k in keys}
        row("**semantic + cycle**", "", sc)
    row("**all**", "", tot)
    w("")
    ne = tot["n"] - tot["eq"]
    w("Kill rate per test kind over the non-equivalent mutants: conformance %s, unit %s, the "
      "suite %s%s." % (pct(tot["conf"], ne), pct(tot["unit"], ne), pct(tot["either"], ne),
                       ("; the campaign %s; suite or campaign %s" %
                        (pct(tot["camp"], ne), pct(ne - tot["neither"], ne))) if camp else ""))
    w("")
    w("Candidates passed over while drawing the sample: %d stillborn (do not compile with "
      "-Werror), %d equivalent by construction (identical object code at -O2)." %
      (skipped["stillborn"], skipped["tce"]))
    w("")
    nonq = [r for r in results if not r["equivalent"]]
    if camp:
        found = [r for r in nonq if r.get("campaign") and r["campaign"].get("found")]
        w("## Issue 22 done criteria (item 5)")
        w("")

        def crit(label, d):
            n_ = d["n"] - d["eq"]
            ok = n_ and 100.0 * d["camp"] / n_ >= 90.0
            w("- %s: the campaign kills %d of %d non-equivalent mutants, **%s** — %s" % (
                label, d["camp"], n_, pct(d["camp"], n_), "≥ 90%: met" if ok else "**below 90%: not met**"))
        if "cycle" in groups:
            crit("`cycle.c`", groups["cycle"])
        crit("the Config pipeline code (`config.c` from \"%s\" to the end)" % PIPELINE_MARK[1], pipe)
        if "semantic" in groups:
            crit("the semantic files (%s)" % ", ".join("`%s`" % f for f in SEMANTIC), groups["semantic"])
        if "semantic" in groups and "cycle" in groups:
            crit("the semantic files and `cycle.c` together", {k: groups["semantic"][k] + groups["cycle"][k] for k in keys})
        w("")
        w("## Campaign findings")
        w("")
        by_t = {}
        for r in found:
            fd = r["campaign"]["found"]
            by_t.setdefault(fd["target"], []).append(fd)
        ts = sorted(fd["t"] for r in found for fd in [r["campaign"]["found"]])
        w("%d mutants found; time to the finding: median %.1f s, %d within 1 s, %d from the seeds alone." % (
            len(found), ts[len(ts) // 2] if ts else 0, sum(1 for t in ts if t <= 1.0),
            sum(1 for r in found if r["campaign"]["found"]["phase"] == "seeds")))
        w("")
        w("| target (first to find) | mutants | invariants |")
        w("|---|---:|---|")
        for t in PROG_TARGETS + TEXT_TARGETS:
            if t in by_t:
                inv = {}
                for fd in by_t[t]:
                    inv[fd["what"]] = inv.get(fd["what"], 0) + 1
                w("| `%s` | %d | %s |" % (t, len(by_t[t]), ", ".join(
                    "%s %d" % (k, v) for k, v in sorted(inv.items(), key=lambda kv: -kv[1]))))
        notes = [r for r in results if r.get("campaign") and r["campaign"].get("note")]
        if notes:
            w("")
            w("Notes from the campaigns (findings the unmutated build shares, build failures):")
            w("")
            for r in notes:
                w("- `%s` %s:%d: %s" % (r["id"], r["file"], r["line"], r["campaign"]["note"]))
        w("")
        sonly = [r for r in nonq if (r["conformance"] or r["unit"]) and not
                 (r.get("campaign") and r["campaign"].get("found"))]
        w("## Campaign survivors that the suite kills (%d)" % len(sonly))
        w("")
        w("Each with the reason the campaign misses it (`tests/mutation/campaign-misses.tsv`).")
        w("")
        if not sonly:
            w("None.")
        for r in sonly:
            w("- `%s` %s:%d `%s` → `%s` — killed by %s — %s" % (
                r["id"], r["file"], r["line"], r["orig"], r["rep"],
                "; ".join(r["conformance"] + r["unit"])[:160].replace("|", "\\|"),
                misses.get(r["id"], "**reason not investigated**")))
            w("  ```diff")
            w("  - " + r["before"].strip())
            w("  + " + r["after"].strip())
            w("  ```")
        w("")
    surv = [r for r in results if not (r["conformance"] or r["unit"])]
    w("## Survivors of the suite (%d), equivalent ones marked" % len(surv))
    w("")
    if not surv:
        w("None.")
    for r in surv:
        tag = "equivalent — " + eq[r["id"]] if r["equivalent"] else "**not killed by the suite**"
        if camp and not r["equivalent"]:
            tag += "; campaign: " + (camp_text(r) or "not run")
        if camp and r["equivalent"] and r.get("campaign"):
            tag += "; campaign: " + camp_text(r)
        w("- `%s` %s:%d — %s" % (r["id"], r["file"], r["line"], tag))
        w("  ```diff")
        w("  - " + r["before"].strip())
        w("  + " + r["after"].strip())
        w("  ```")
    w("")
    w("## Killed mutants")
    w("")
    w("| id | location | mutation | killed by the suite |%s" % (" campaign |" if camp else ""))
    w("|---|---|---|---|%s" % ("---|" if camp else ""))
    for r in results:
        if r["conformance"] or r["unit"] or (camp and r.get("campaign") and r["campaign"].get("found")):
            by = "; ".join(r["conformance"] + r["unit"]) or "—"
            w("| `%s` | %s:%d | `%s` → `%s` | %s |%s" % (
                r["id"], r["file"], r["line"], r["orig"], r["rep"], by.replace("|", "\\|"),
                (" %s |" % (camp_text(r) or "not run").replace("|", "\\|")) if camp else ""))
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
    ap.add_argument("--campaign", type=int, default=0)
    ap.add_argument("--campaign-seed", type=int, default=1)
    ap.add_argument("--campaign-split", choices=["runs", "shared", "each"], default="runs")
    ap.add_argument("--campaign-equivalent", action="store_true")
    ap.add_argument("--min-rate", type=float, default=0.0)
    ap.add_argument("--report", default="reports/mutation.md")
    ap.add_argument("--build", default="build/mutation")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--note", default="", help="a markdown file printed under the report's header")
    ap.add_argument("--tree", default="", help="the tree to name in the report (default: git's HEAD)")
    ap.add_argument("--carry-over", action="store_true",
                    help="reuse results measured when only other model/ .c files differed")
    ap.add_argument("--cached-only", action="store_true",
                    help="build and run nothing: the report from the results cached so far")
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
    if not args.cached_only:
        b.build_base()
    if args.campaign and not args.cached_only:
        build_campaign_base(b, sorted({t for f in args.files for t in camp_targets(f)}))
    eq = load_equivalent()
    skipped = {"stillborn": 0, "tce": 0}
    results = []

    # stillborn / identical-code verdicts depend on the mutated file, the headers and the flags
    hfp = hashlib.sha1()
    for d in ("model", "model/text"):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith((".h", ".def")):
                hfp.update(f.encode() + open(os.path.join(ROOT, d, f), "rb").read())
    hfp.update(" ".join(WARN + [CC]).encode())
    file_fp = {f: hashlib.sha1((hfp.hexdigest() + f + srcs[f]).encode()).hexdigest() for f in args.files}
    draw_path = os.path.join(bdir, "draw.jsonl")
    drawn = {}
    if os.path.exists(draw_path):
        for ln in open(draw_path):
            try:
                e = json.loads(ln)
            except ValueError:
                continue
            if e.get("fp") == file_fp.get(e.get("file")):
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
            elif args.cached_only:
                break
            else:
                shutil.rmtree(wdir, ignore_errors=True)
                obj, cpath = compile_mutant(b, m, srcs[f], wdir)
                verdict = obj if obj in ("stillborn", "tce") else "ok"
                if verdict == "ok":   # kept for the test phase (not compiled twice)
                    os.makedirs(os.path.join(bdir, "objs"), exist_ok=True)
                    shutil.move(obj, os.path.join(bdir, "objs", "%s-%s.o" % (m["id"], file_fp[f][:10])))
                with draw_lock:
                    draw_fh.write(json.dumps({"fp": file_fp[f], "file": f, "id": m["id"],
                                              "verdict": verdict}) + "\n")
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
    args.todo_by_file = {f: len(samples[f]) for f in args.files}

    # results of earlier runs with exactly the same sources, suite and flags (resumable).
    # rest: the same without the model's .c files; with --carry-over a result is reused when
    # rest and the mutated file are the same (only other model sources differ: the report says so)
    fp, rest_h = hashlib.sha1(), hashlib.sha1()
    for d in ["model", "tests", "conformance"]:
        for dp, dn, fn in sorted(os.walk(os.path.join(ROOT, d))):
            dn.sort()
            for f in sorted(fn):
                if f.endswith((".c", ".h", ".def", ".vec", ".sh")):
                    data = f.encode() + open(os.path.join(dp, f), "rb").read()
                    fp.update(data)
                    if not (f.endswith(".c") and os.path.relpath(dp, ROOT) in ("model", "model/text")):
                        rest_h.update(data)
    fp.update(" ".join(WARN + [CC]).encode())
    rest_h.update(" ".join(WARN + [CC]).encode())
    fingerprint, rest = fp.hexdigest(), rest_h.hexdigest()
    srcsha = {f: hashlib.sha1(srcs[f].encode()).hexdigest() for f in args.files}
    idfile = {m["id"]: os.path.basename(m["file"]) for f in args.files for m in cands[f]}
    tree = tree_state()
    carried = {}

    def load(path, fpv, restv):
        out = {}
        if not os.path.exists(path):
            return out
        stamp = []
        for ln in open(path):
            try:
                e = json.loads(ln)
            except ValueError:
                continue
            f = idfile.get(e.get("id"))
            if f is None:
                continue
            if e.get("fp") == fpv:
                if "rest" not in e:       # written before entries carried these: stamp them
                    e.update({"rest": restv, "src": srcsha[f], "tree": tree})
                    stamp.append(e)
                out[e["id"]] = e
            elif (args.carry_over and e.get("rest") == restv and e.get("src") == srcsha[f]
                  and e["id"] not in out):
                out[e["id"]] = e
                carried[e["id"]] = e.get("tree", "?")
        if stamp:
            with open(path, "a") as fh:
                for e in stamp:
                    fh.write(json.dumps(e) + "\n")
        return out

    cache_path = os.path.join(bdir, "cache.jsonl")
    cache = load(cache_path, fingerprint, rest)
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

    # campaign results: they depend on the fuzz targets and seeds too
    extra = []
    for dp, dn, fn in sorted(os.walk(os.path.join(ROOT, "fuzz"))):
        dn.sort()
        for f in sorted(fn):
            if f.endswith((".c", ".h", ".txt")):
                extra.append(f.encode() + open(os.path.join(dp, f), "rb").read())
    for t in PROG_TARGETS + TEXT_TARGETS:
        extra.append(" ".join(sorted(os.listdir(os.path.join(ROOT, "corpus", t)))).encode())
    extra.append(("%d|%d|%s|%s" % (args.campaign, args.campaign_seed, args.campaign_split,
                                   " ".join(CAMP_FLAGS))).encode())
    camp_fp = hashlib.sha1(fingerprint.encode() + b"".join(extra)).hexdigest()
    camp_rest = hashlib.sha1(rest.encode() + b"".join(extra)).hexdigest()
    camp_path = os.path.join(bdir, "campaign.jsonl")
    camp_cache = load(camp_path, camp_fp, camp_rest)
    camp_fh = open(camp_path, "a")
    args.carried = carried

    def one_in(args_, wdir):
        i, m = args_
        f = os.path.basename(m["file"])
        r = dict(m)
        c = cache.get(m["id"])
        if not args.cached_only:
            shutil.rmtree(wdir, ignore_errors=True)
        if c:
            r.update({"conformance": c["conformance"], "unit": c["unit"]})
            cpath = None
        elif args.cached_only:
            return None
        else:
            kept = os.path.join(bdir, "objs", "%s-%s.o" % (m["id"], file_fp[f][:10]))
            if os.path.exists(kept):
                os.makedirs(wdir, exist_ok=True)
                cpath = os.path.join(wdir, f)
                with open(cpath, "w", encoding="utf-8") as fh:
                    fh.write(srcs[f][:m["off"]] + m["rep"] + srcs[f][m["off"] + len(m["orig"]):])
                obj = os.path.join(wdir, f[:-2] + ".o")
                shutil.move(kept, obj)
            else:
                obj, cpath = compile_mutant(b, m, srcs[f], wdir)
            r.update(test_mutant(b, m, obj, wdir))
            with cache_lock:
                cache_fh.write(json.dumps({"fp": fingerprint, "rest": rest, "src": srcsha[f], "tree": tree,
                                           "id": m["id"], "conformance": r["conformance"],
                                           "unit": r["unit"]}) + "\n")
                cache_fh.flush()
        r["equivalent"] = m["id"] in eq and not (r["conformance"] or r["unit"])
        r["campaign"] = None
        if args.campaign and (args.campaign_equivalent or not r["equivalent"]):
            cc_ = camp_cache.get(m["id"])
            if cc_ is None and args.cached_only:
                return None
            if cc_ is None:
                if cpath is None:
                    os.makedirs(wdir, exist_ok=True)
                    cpath = os.path.join(wdir, f)
                    with open(cpath, "w", encoding="utf-8") as fh:
                        fh.write(srcs[f][:m["off"]] + m["rep"] + srcs[f][m["off"] + len(m["orig"]):])
                cc_ = campaign_mutant(b, m, cpath, wdir, args.campaign, args.campaign_seed,
                                      args.campaign_split)
                cc_.update({"fp": camp_fp, "rest": camp_rest, "src": srcsha[f], "tree": tree,
                            "id": m["id"]})
                with cache_lock:
                    camp_fh.write(json.dumps(cc_) + "\n")
                    camp_fh.flush()
            r["campaign"] = cc_
        return r

    done = 0
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for r in ex.map(one, list(enumerate(todo))):
            if r is None:
                continue
            results.append(r)
            done += 1
            killed = "killed" if (r["conformance"] or r["unit"]) else (
                "equivalent" if r["equivalent"] else "SURVIVED")
            if r["campaign"]:
                fd = r["campaign"]["found"]
                killed += "; campaign: " + ("%s %s (%s, %.1f s)" % (fd["target"], fd["what"], fd["phase"], fd["t"])
                                            if fd else "not found (%.0f s)" % r["campaign"].get("spent", 0))
            print("mutation: [%d/%d] %s %s:%d %s -> %s: %s" % (
                done, len(todo), r["id"], r["file"], r["line"], r["orig"], r["rep"], killed),
                flush=True)
    with open(os.path.join(bdir, "results.tsv"), "w") as fh:
        for r in results:
            fh.write("\t".join([r["id"], r["file"], str(r["line"]), r["orig"], r["rep"],
                                ",".join(r["conformance"]), ",".join(r["unit"]),
                                camp_text(r), "eq" if r["equivalent"] else "",
                                r["before"].strip(), r["after"].strip()]) + "\n")
    tot = write_report(os.path.join(ROOT, args.report), args, results, skipped, time.time() - t0, srcs)
    ne = tot["n"] - tot["eq"]
    rate = 100.0 * tot["either"] / ne if ne else 100.0
    print("mutation: %d mutants, %d equivalent, %d killed, %d survived: kill rate %.1f%%%s "
          "(report %s)" % (tot["n"], tot["eq"], tot["either"], ne - tot["either"], rate,
                           "; campaign %d killed (%.1f%%)" % (tot["camp"], 100.0 * tot["camp"] / ne if ne else 100.0)
                           if args.campaign else "", args.report))
    if rate < args.min_rate:
        print("mutation: kill rate %.1f%% is below the required %.0f%%" % (rate, args.min_rate))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
