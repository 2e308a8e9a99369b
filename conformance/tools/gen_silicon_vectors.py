#!/usr/bin/env python3
"""Writes conformance/cycle/silicon/*.vec from conformance/cycle/silicon/probes.tsv: one cycle
vector per fitted probe and variant (run under `profile: p150`), and the RDCFG visibility runs.

Every expected number comes from the silicon figure in probes.tsv, never from the model: each
active thread repeats its body L = 64 times, all from cycle 0, so the run ends after about
L x (the slowest thread's figure) cycles. The band is L x (figure -+ 0.1) (the calibration
tolerance), widened above by SLACK cycles for what the slope removes and a whole run does not:
a thread's first issue (up to cycle 2 under round-robin) and the last instruction's own time
in its unit (up to 6 cycles: an ADDDMAREG's occupancy, an RDCFG write-back, an outside unit's
stub). `make calibration` checks the slopes themselves, per thread.
Run: python3 conformance/tools/gen_silicon_vectors.py [OUT_DIR] (deterministic; OUT_DIR, default
conformance/cycle/silicon, gets the .vec files; make test writes them elsewhere and checks that the
committed files are the same).
"""
import math, os, re, sys
HERE = os.path.dirname(os.path.abspath(__file__))
D = os.path.join(HERE, "..", "cycle", "silicon")
OUT = sys.argv[1] if len(sys.argv) > 1 else D
L, SLACK = 64, 8
BENCH = "mesham/tt-sim perfbench/tensixbench/src/kernels/compute/raw_probes.cpp"

def rows():
    for line in open(os.path.join(D, "probes.tsv")):
        line = line.rstrip("\n")
        if not line or line.startswith("#") or line.startswith("slot\t"): continue
        f = line.split("\t")
        yield dict(slot=int(f[0]), probe=f[1], variant=f[2], use=f[3], session=f[4],
                   body=[None if b == "-" else b.split(";") for b in f[5:8]],
                   si={int(k[1]): float(v) for k, v in (x.split("=") for x in f[8].split(","))})

FOREIGN = {m.group(1).lower(): int(m.group(2), 16) for m in
           re.finditer(r"TT_FOREIGN\((\w+), 0x([0-9A-Fa-f]+),", open(os.path.join(HERE, "..", "..", "model", "foreign.def")).read())}

def insn(text):
    """A vector line's instruction: a unit outside the model as its raw word (opcode only)."""
    m = text.split()[0].lower()
    m = m[2:] if m.startswith("tt") and m[2:] in FOREIGN else m
    if m in FOREIGN:
        return f"0x{FOREIGN[m] << 24:08X}", f"{text} (outside the model: opcode only)"
    return text, ""

def write(name, text):
    open(os.path.join(OUT, name), "w").write(text)

def main():
    for f in os.listdir(OUT):
        if f.endswith(".vec"): os.remove(os.path.join(OUT, f))
    n = 0
    for r in rows():
        if r["use"] != "fit": continue
        s = max(r["si"].values())
        lo, hi = math.floor(L * (s - 0.1)), math.ceil(L * (s + 0.1)) + SLACK
        act = [t for t in range(3) if r["body"][t]]
        per = "pair" if max(len(r["body"][t]) for t in act) == 2 else "instruction"
        figs = ", ".join(f"T{t} {r['si'][t]:.3f}" for t in act)
        c = [f"# Silicon probe: {BENCH}, slot {r['slot']} ({r['probe']}), variant {r['variant']}",
             f"# (threads {', '.join('T%d' % t for t in act)}); card session mesham/tt-sim",
             f"# perfbench/card-sessions/{r['session']}: {figs} cycles per {per} per thread",
             f"# (slope over burst lengths, loop overhead removed; conformance/cycle/silicon/probes.tsv).",
             f"# Each thread repeats its body {L} times from cycle 0. Expected from the silicon figure",
             f"# alone (conformance/tools/gen_silicon_vectors.py): {L} x ({s:.3f} -+ 0.1) = {lo}..{hi - SLACK},",
             f"# plus {SLACK} cycles of start and drain -> {lo} <= cycles <= {hi}."]
        name = f"slot{r['slot']:02d}-{r['probe'].lower()}-{r['variant']}.vec"
        out = c + [f"name: p150 silicon probe slot {r['slot']} {r['probe']} {r['variant']}: {figs} cycles per {per}",
                   "mode: cycle", "profile: p150", f"ref: {BENCH} (slot {r['slot']})",
                   f"ref: mesham/tt-sim perfbench/card-sessions/{r['session']}"]
        for t in act:
            for k in range(L):
                for i, ins in enumerate(r["body"][t]):
                    w, why = insn(ins.strip())
                    cmt = why if k == 0 and why else f"slot {r['slot']} body" if k == 0 and i == 0 else ""
                    out.append(f"t{t}: {w}" + (f"   # {cmt}" if cmt else ""))
        out += [f"expect t{t} done" for t in act]
        out += [f"expect cycles >= {lo}", f"expect cycles <= {hi}"]
        write(name, "\n".join(out) + "\n")
        n += 1
    # RDCFG visibility (raw_probes.cpp run_visibility; tensix-rdcfg.out: fresh in 64 of 64 at d = 1..4)
    for d in range(1, 5):
        out = [f"# Silicon visibility run: {BENCH}, run_visibility(): RDCFG(60, 0), then {d - 1} NOP",
               f"# filler(s), then ADDDMAREG(1, 63, 0, 60) (GPR63 = GPR60 + 0) at distance d = {d}. Card session",
               "# mesham/tt-sim perfbench/card-sessions/2026-08-12b/tensix-rdcfg.out: the consumer read the",
               "# value RDCFG wrote in 64 of 64 runs at every d = 1..4. GPR60 is seeded with 0xA5A5A5A5",
               "# (TTBENCH_VIS_S1), Config word 0 holds 0x12345678 here (on the card it read 0): the",
               "# expected GPR63 is the Config word, and no hazard (AMB-44, thcon_read=next_cycle).",
               f"name: p150 RDCFG result read by ADDDMAREG at distance {d}: the new value, no hazard",
               "mode: cycle", "profile: p150", "strict", f"ref: {BENCH} (run_visibility)",
               "ref: mesham/tt-sim perfbench/card-sessions/2026-08-12b/tensix-rdcfg.out",
               "init cfg[0][0] = 0x12345678", "init t1.gpr[60] = 0xA5A5A5A5",
               "t1: ttrdcfg 60, 0"] + ["t1: ttnop"] * (d - 1) + [
               "t1: ttadddmareg 1, 63, 0, 60", "expect t1 done", "expect t1.gpr[60] = 0x12345678",
               "expect t1.gpr[63] = 0x12345678", "expect hazards = 0"]
        write(f"rdcfg-visibility-d{d}.vec", "\n".join(out) + "\n")
        n += 1
    print(f"gen_silicon_vectors: {n} vectors in {os.path.relpath(OUT)}/")

main()
